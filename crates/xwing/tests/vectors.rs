//! The official X-Wing vectors (draft-connolly-cfrg-xwing-kem `spec/test-vectors.json`, 3
//! cases): `GenerateKeyPairDerand(seed)` gives `pk`; `EncapsulateDerand(pk, eseed)` gives `ct`
//! and `ss` (test builds only: the derandomized entry point is a test hook); `Decapsulate(seed,
//! ct)` gives `ss`.

use tessera_testkit::hex;
use tessera_xwing::{Ciphertext, DecapsulationKey, EncapsulationKey};

#[test]
fn official_vectors() {
    let Some(p) = tessera_testkit::vector_file("xwing", "test-vectors.json") else {
        return;
    };
    let all: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    let mut n = 0;
    for v in all.as_array().unwrap() {
        let h = |k: &str| hex::decode(v[k].as_str().unwrap());
        let seed: [u8; 32] = h("seed").try_into().unwrap();
        assert_eq!(h("sk"), seed);
        let dk = DecapsulationKey::from_seed(&seed);
        assert_eq!(dk.encapsulation_key().as_bytes().as_slice(), h("pk"));
        assert_eq!(
            DecapsulationKey::from_bytes(&h("sk")).unwrap().as_bytes(),
            &seed
        );
        let ek = EncapsulationKey::from_bytes(&h("pk")).unwrap();
        assert_eq!(&ek, dk.encapsulation_key());
        #[cfg(tessera_test_hooks)]
        {
            let eseed: [u8; 64] = h("eseed").try_into().unwrap();
            let (ct, ss) = ek.encapsulate_deterministic(&eseed);
            assert_eq!(ct.as_bytes().as_slice(), h("ct"));
            assert_eq!(ss.as_bytes().as_slice(), h("ss"));
        }
        let ct = Ciphertext::from_bytes(&h("ct")).unwrap();
        assert_eq!(dk.decapsulate(&ct).as_bytes().as_slice(), h("ss"));
        n += 1;
    }
    println!("X-Wing: {n}/3 vectors");
    assert_eq!(n, 3);
}
