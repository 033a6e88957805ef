//! NIST ACVP ML-KEM keyGen and encapDecap (FIPS 203) on every available backend.

use tessera_mlkem::testing::Backend;
use tessera_testkit::acvp::{self, Case};
use tessera_testkit::backends::for_each_backend;

macro_rules! run_set {
    ($m:ident, $case:expr, $be:expr, $counts:expr) => {{
        use tessera_mlkem::$m::*;
        let c: &Case = $case;
        let be: Backend = $be;
        let what = format!(
            "{} tcId {} on {}",
            c.str("parameterSet"),
            c.tc_id,
            be.name()
        );
        match c.group.get("function").and_then(|f| f.as_str()) {
            None => {
                // keyGen
                let mut seed = [0u8; 64];
                seed[..32].copy_from_slice(&c.hex("d"));
                seed[32..].copy_from_slice(&c.hex("z"));
                let dk = DecapsulationKey::from_seed_with_backend(be, &seed);
                assert_eq!(
                    dk.encapsulation_key().to_bytes()[..],
                    c.hex("ek")[..],
                    "{what}: ek"
                );
                assert_eq!(dk.to_expanded_bytes()[..], c.hex("dk")[..], "{what}: dk");
                assert_eq!(dk.seed(), Some(&seed));
                let dk2 =
                    DecapsulationKey::from_expanded_bytes_with_backend(be, &c.hex("dk")).unwrap();
                assert_eq!(dk2.seed(), None);
                assert_eq!(dk2.to_expanded_bytes(), dk.to_expanded_bytes());
                $counts.0 += 1;
            }
            Some("encapsulation") => {
                let ek = EncapsulationKey::from_bytes_with_backend(be, &c.hex("ek")).unwrap();
                let m: [u8; 32] = c.hex("m").try_into().unwrap();
                let (ct, k) = ek.encapsulate_deterministic(&m);
                assert_eq!(ct.as_bytes()[..], c.hex("c")[..], "{what}: c");
                assert_eq!(k.as_bytes()[..], c.hex("k")[..], "{what}: k");
                $counts.1 += 1;
            }
            Some("decapsulation") => {
                let dk =
                    DecapsulationKey::from_expanded_bytes_with_backend(be, &c.hex("dk")).unwrap();
                let ct = Ciphertext::from_bytes(&c.hex("c")).unwrap();
                assert_eq!(
                    dk.decapsulate(&ct).as_bytes()[..],
                    c.hex("k")[..],
                    "{what}: k"
                );
                $counts.2 += 1;
            }
            Some("decapsulationKeyCheck") => {
                let ok =
                    DecapsulationKey::from_expanded_bytes_with_backend(be, &c.hex("dk")).is_ok();
                assert_eq!(ok, c.bool("testPassed"), "{what}: dk check");
                $counts.3 += 1;
            }
            Some("encapsulationKeyCheck") => {
                let ok = EncapsulationKey::from_bytes_with_backend(be, &c.hex("ek")).is_ok();
                assert_eq!(ok, c.bool("testPassed"), "{what}: ek check");
                $counts.3 += 1;
            }
            Some(f) => panic!("{what}: unknown function {f}"),
        }
    }};
}

fn run(set: &str) {
    let Some(cases) = acvp::load(set) else {
        return;
    };
    for_each_backend::<Backend>(|be| {
        let mut counts = (0, 0, 0, 0);
        for c in &cases {
            match c.str("parameterSet") {
                "ML-KEM-512" => run_set!(ml_kem_512, c, be, counts),
                "ML-KEM-768" => run_set!(ml_kem_768, c, be, counts),
                "ML-KEM-1024" => run_set!(ml_kem_1024, c, be, counts),
                p => panic!("unknown parameter set {p}"),
            }
        }
        eprintln!(
            "{set} on {}: {} keyGen, {} encaps, {} decaps, {} key checks",
            be.name(),
            counts.0,
            counts.1,
            counts.2,
            counts.3
        );
        assert!(counts.0 + counts.1 + counts.2 + counts.3 == cases.len());
    });
}

#[test]
fn acvp_keygen() {
    run("ML-KEM-keyGen-FIPS203");
}

#[test]
fn acvp_encap_decap() {
    run("ML-KEM-encapDecap-FIPS203");
}
