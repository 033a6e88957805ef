//! NIST ACVP ML-DSA keyGen, sigGen and sigVer (FIPS 204) on every available backend. Under
//! Miri only the in-crate unit test signs (one ML-DSA-44 signature); this file is skipped.
#![cfg(not(miri))]

// `sign_internal` / `verify_internal` exist only in this workspace's test builds.
#[cfg(not(tessera_test_hooks))]
compile_error!(
    "tests/kat.rs needs --cfg tessera_test_hooks (set by this workspace's .cargo/config.toml; \
     add it when RUSTFLAGS overrides that list)"
);

use tessera_keccak::{Shake128, Shake256};
use tessera_mldsa::PreHash;
use tessera_mldsa::testing::Backend;
use tessera_testkit::acvp::{self, Case};
use tessera_testkit::backends::for_each_backend;

/// The digest and pre-hash of an ACVP `hashAlg` name.
fn prehash(alg: &str, msg: &[u8]) -> (PreHash, Vec<u8>) {
    use sha2::Digest;
    let xof = |out: usize, f: &dyn Fn(&mut [u8])| {
        let mut v = vec![0u8; out];
        f(&mut v);
        v
    };
    match alg {
        "SHA2-224" => (PreHash::Sha224, tessera_sha2::sha224(msg).to_vec()),
        "SHA2-256" => (PreHash::Sha256, tessera_sha2::sha256(msg).to_vec()),
        "SHA2-384" => (PreHash::Sha384, tessera_sha2::sha384(msg).to_vec()),
        "SHA2-512" => (PreHash::Sha512, tessera_sha2::sha512(msg).to_vec()),
        "SHA2-512/224" => (PreHash::Sha512_224, sha2::Sha512_224::digest(msg).to_vec()),
        "SHA2-512/256" => (PreHash::Sha512_256, tessera_sha2::sha512_256(msg).to_vec()),
        "SHA3-224" => (PreHash::Sha3_224, tessera_keccak::sha3_224(msg).to_vec()),
        "SHA3-256" => (PreHash::Sha3_256, tessera_keccak::sha3_256(msg).to_vec()),
        "SHA3-384" => (PreHash::Sha3_384, tessera_keccak::sha3_384(msg).to_vec()),
        "SHA3-512" => (PreHash::Sha3_512, tessera_keccak::sha3_512(msg).to_vec()),
        "SHAKE-128" => (
            PreHash::Shake128,
            xof(32, &|o| Shake128::new().update(msg).finalize_xof().read(o)),
        ),
        "SHAKE-256" => (
            PreHash::Shake256,
            xof(64, &|o| Shake256::new().update(msg).finalize_xof().read(o)),
        ),
        a => panic!("unknown hashAlg {a}"),
    }
}

macro_rules! run_set {
    ($m:ident, $mode:expr, $case:expr, $be:expr, $counts:expr) => {{
        use tessera_mldsa::$m::*;
        let c: &Case = $case;
        let be: Backend = $be;
        let what = format!(
            "{} tcId {} on {}",
            c.str("parameterSet"),
            c.tc_id,
            be.name()
        );
        match $mode {
            "keyGen" => {
                let seed: [u8; 32] = c.hex("seed").try_into().unwrap();
                let sk = SigningKey::from_seed_with_backend(be, &seed);
                assert_eq!(
                    sk.verifying_key().to_bytes()[..],
                    c.hex("pk")[..],
                    "{what}: pk"
                );
                assert_eq!(sk.to_expanded_bytes()[..], c.hex("sk")[..], "{what}: sk");
                assert_eq!(sk.seed(), Some(&seed));
                let sk2 = SigningKey::from_expanded_bytes_with_backend(be, &c.hex("sk")).unwrap();
                assert_eq!(sk2.seed(), None);
                assert_eq!(sk2.verifying_key(), sk.verifying_key());
                $counts.0 += 1;
            }
            "sigGen" => {
                let sk = SigningKey::from_expanded_bytes_with_backend(be, &c.hex("sk")).unwrap();
                let rnd: [u8; 32] =
                    if c.group.get("deterministic").and_then(|d| d.as_bool()) == Some(true) {
                        [0; 32]
                    } else {
                        c.hex("rnd").try_into().unwrap()
                    };
                let sig = sk.sign_internal(&c.hex("message"), &rnd).unwrap();
                assert_eq!(
                    sig.as_bytes()[..],
                    c.hex("signature")[..],
                    "{what}: signature"
                );
                assert_eq!(
                    sk.verifying_key().verify_internal(&c.hex("message"), &sig),
                    Ok(())
                );
                $counts.1 += 1;
            }
            "sigVer" => {
                let vk = VerifyingKey::from_bytes_with_backend(be, &c.hex("pk")).unwrap();
                let want = c.bool("testPassed");
                let res = match Signature::from_bytes(&c.hex("signature")) {
                    Err(e) => Err(e),
                    Ok(sig) => {
                        if c.group.get("signatureInterface").and_then(|v| v.as_str())
                            == Some("internal")
                        {
                            if c.bool("externalMu") {
                                vk.verify_mu(&c.hex("mu").try_into().unwrap(), &sig)
                            } else {
                                vk.verify_internal(&c.hex("message"), &sig)
                            }
                        } else if c.str("preHash") == "preHash" {
                            let (ph, d) = prehash(c.str("hashAlg"), &c.hex("message"));
                            vk.verify_prehashed(ph, &d, &c.hex("context"), &sig)
                        } else {
                            vk.verify(&c.hex("message"), &c.hex("context"), &sig)
                        }
                    }
                };
                assert_eq!(res.is_ok(), want, "{what}: {res:?}");
                $counts.2 += 1;
            }
            m => panic!("unknown mode {m}"),
        }
    }};
}

fn run(set: &str, mode: &str) {
    let Some(cases) = acvp::load(set) else {
        return;
    };
    for_each_backend::<Backend>(|be| {
        let mut counts = (0, 0, 0);
        for c in &cases {
            match c.str("parameterSet") {
                "ML-DSA-44" => run_set!(ml_dsa_44, mode, c, be, counts),
                "ML-DSA-65" => run_set!(ml_dsa_65, mode, c, be, counts),
                "ML-DSA-87" => run_set!(ml_dsa_87, mode, c, be, counts),
                p => panic!("unknown parameter set {p}"),
            }
        }
        eprintln!(
            "{set} on {}: {} keyGen, {} sigGen, {} sigVer",
            be.name(),
            counts.0,
            counts.1,
            counts.2
        );
        assert_eq!(counts.0 + counts.1 + counts.2, cases.len());
    });
}

#[test]
fn acvp_keygen() {
    run("ML-DSA-keyGen-FIPS204", "keyGen");
}

#[test]
fn acvp_siggen() {
    run("ML-DSA-sigGen-FIPS204", "sigGen");
}

#[test]
fn acvp_sigver() {
    run("ML-DSA-sigVer-FIPS204", "sigVer");
}
