//! SPKI / PKCS#8 with `id-XWing` (1.3.6.1.4.1.62253.25722): the layout (raw key in the BIT
//! STRING, raw seed in the OCTET STRING) on the draft's official vector keys, round trips,
//! version 2 keys, and the strict rejection of bad encodings. No peer implementation with these
//! encodings is available to the tests (RustCrypto `x-wing` 0.1 has none; OpenSSL has no
//! X-Wing).
#![cfg(feature = "pkcs8")]

use pkcs8::spki::{self, ObjectIdentifier};
use pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey, KeyError};
use rand::{SeedableRng, rngs::StdRng};
use tessera_testkit::hex;
use tessera_xwing::pkcs8::ID_XWING;
use tessera_xwing::{DecapsulationKey, EncapsulationKey};

/// `06 0b` + the OID's 11 content bytes.
const OID_TLV: [u8; 13] = [
    0x06, 0x0b, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x83, 0xe6, 0x2d, 0x81, 0xc8, 0x7a,
];

fn spki_der(pk: &[u8]) -> Vec<u8> {
    let mut v = vec![0x30, 0x82, 0x04, 0xd4, 0x30, 0x0d];
    v.extend_from_slice(&OID_TLV);
    v.extend_from_slice(&[0x03, 0x82, 0x04, 0xc1, 0x00]);
    v.extend_from_slice(pk);
    v
}

fn pkcs8_v1(seed: &[u8]) -> Vec<u8> {
    let mut v = vec![0x30, 0x34, 0x02, 0x01, 0x00, 0x30, 0x0d];
    v.extend_from_slice(&OID_TLV);
    v.extend_from_slice(&[0x04, 0x20]);
    v.extend_from_slice(seed);
    v
}

fn pkcs8_v2(seed: &[u8], pk: &[u8]) -> Vec<u8> {
    // 3 + 15 + 34 + (4 + 1 + 1216) = 1273 = 0x04f9
    let mut v = vec![0x30, 0x82, 0x04, 0xf9, 0x02, 0x01, 0x01, 0x30, 0x0d];
    v.extend_from_slice(&OID_TLV);
    v.extend_from_slice(&[0x04, 0x20]);
    v.extend_from_slice(seed);
    v.extend_from_slice(&[0x81, 0x82, 0x04, 0xc1, 0x00]);
    v.extend_from_slice(pk);
    v
}

/// The official vectors' (seed, pk).
fn vector_keys() -> Vec<(Vec<u8>, Vec<u8>)> {
    let Some(p) = tessera_testkit::vector_file("xwing", "test-vectors.json") else {
        return Vec::new();
    };
    let all: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    all.as_array()
        .unwrap()
        .iter()
        .map(|v| {
            let h = |k: &str| hex::decode(v[k].as_str().unwrap());
            (h("seed"), h("pk"))
        })
        .collect()
}

#[test]
fn layout_on_the_official_keys() {
    assert_eq!(
        ID_XWING,
        ObjectIdentifier::new_unwrap("1.3.6.1.4.1.62253.25722")
    );
    let keys = vector_keys();
    for (seed, pk) in &keys {
        let dk = DecapsulationKey::from_pkcs8_der(&pkcs8_v1(seed)).unwrap();
        assert_eq!(dk.as_bytes().as_slice(), &seed[..]);
        assert_eq!(dk.to_pkcs8_der().unwrap().as_bytes(), &pkcs8_v1(seed)[..]);
        let ek = EncapsulationKey::from_public_key_der(&spki_der(pk)).unwrap();
        assert_eq!(ek.as_bytes().as_slice(), &pk[..]);
        assert_eq!(
            ek.to_public_key_der().unwrap().as_bytes(),
            &spki_der(pk)[..]
        );
        assert_eq!(
            dk.to_public_key_der().unwrap().as_bytes(),
            &spki_der(pk)[..]
        );
        let v2 = DecapsulationKey::from_pkcs8_der(&pkcs8_v2(seed, pk)).unwrap();
        assert_eq!(v2.as_bytes().as_slice(), &seed[..]);
    }
    if !keys.is_empty() {
        assert_eq!(keys.len(), 3);
    }
}

#[test]
fn round_trips() {
    let mut rng = StdRng::seed_from_u64(25722);
    for _ in 0..8 {
        let dk = DecapsulationKey::generate(&mut rng);
        let der = dk.to_pkcs8_der().unwrap();
        assert_eq!(
            DecapsulationKey::from_pkcs8_der(der.as_bytes())
                .unwrap()
                .as_bytes(),
            dk.as_bytes()
        );
        let pder = dk.encapsulation_key().to_public_key_der().unwrap();
        assert_eq!(
            &EncapsulationKey::from_public_key_der(pder.as_bytes()).unwrap(),
            dk.encapsulation_key()
        );
    }
}

#[test]
fn pem_round_trip() {
    use pkcs8::LineEnding;
    let dk = DecapsulationKey::from_seed(&[7; 32]);
    let pem = dk.to_pkcs8_pem(LineEnding::LF).unwrap();
    assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
    assert_eq!(
        DecapsulationKey::from_pkcs8_pem(&pem).unwrap().as_bytes(),
        dk.as_bytes()
    );
    let ppem = dk
        .encapsulation_key()
        .to_public_key_pem(LineEnding::LF)
        .unwrap();
    assert_eq!(
        &EncapsulationKey::from_public_key_pem(&ppem).unwrap(),
        dk.encapsulation_key()
    );
}

#[test]
fn bad_private_keys_are_refused() {
    let seed = [9u8; 32];
    let pk = DecapsulationKey::from_seed(&seed)
        .encapsulation_key()
        .to_bytes();
    let good = pkcs8_v1(&seed);
    assert!(DecapsulationKey::from_pkcs8_der(&good).is_ok());
    let err = |d: &[u8]| DecapsulationKey::from_pkcs8_der(d).expect_err("refused");
    // Another OID (last arc 25723).
    let mut d = good.clone();
    d[19] = 0x7b;
    assert!(matches!(
        err(&d),
        pkcs8::Error::PublicKey(spki::Error::OidUnknown { .. })
    ));
    // Parameters present (NULL).
    let mut d = vec![0x30, 0x36, 0x02, 0x01, 0x00, 0x30, 0x0f];
    d.extend_from_slice(&OID_TLV);
    d.extend_from_slice(&[0x05, 0x00, 0x04, 0x20]);
    d.extend_from_slice(&seed);
    assert_eq!(err(&d), pkcs8::Error::ParametersMalformed);
    // 31- and 33-byte seeds; a seed wrapped in an inner OCTET STRING (the X25519 style).
    let mut short = vec![0x30, 0x33, 0x02, 0x01, 0x00, 0x30, 0x0d];
    short.extend_from_slice(&OID_TLV);
    short.extend_from_slice(&[0x04, 0x1f]);
    short.extend_from_slice(&seed[..31]);
    assert_eq!(err(&short), pkcs8::Error::KeyMalformed(KeyError::TooShort));
    let mut long = vec![0x30, 0x35, 0x02, 0x01, 0x00, 0x30, 0x0d];
    long.extend_from_slice(&OID_TLV);
    long.extend_from_slice(&[0x04, 0x21]);
    long.extend_from_slice(&seed);
    long.push(0);
    assert_eq!(err(&long), pkcs8::Error::KeyMalformed(KeyError::TooLong));
    let mut wrapped = vec![0x30, 0x36, 0x02, 0x01, 0x00, 0x30, 0x0d];
    wrapped.extend_from_slice(&OID_TLV);
    wrapped.extend_from_slice(&[0x04, 0x22, 0x04, 0x20]);
    wrapped.extend_from_slice(&seed);
    assert_eq!(err(&wrapped), pkcs8::Error::KeyMalformed(KeyError::TooLong));
    // Trailing and missing bytes.
    let mut trailing = good.clone();
    trailing.push(0);
    assert!(matches!(err(&trailing), pkcs8::Error::Asn1(_)));
    assert!(matches!(
        err(&good[..good.len() - 1]),
        pkcs8::Error::Asn1(_)
    ));
    // Version 2 with another public key.
    let mut other = pk;
    other[5] ^= 1;
    assert_eq!(
        err(&pkcs8_v2(&seed, &other)),
        pkcs8::Error::KeyMalformed(KeyError::Invalid)
    );
    assert!(DecapsulationKey::from_pkcs8_der(&pkcs8_v2(&seed, &pk)).is_ok());
}

#[test]
fn bad_public_keys_are_refused() {
    let pk = DecapsulationKey::from_seed(&[3; 32])
        .encapsulation_key()
        .to_bytes();
    let good = spki_der(&pk);
    assert!(EncapsulationKey::from_public_key_der(&good).is_ok());
    let err = |d: &[u8]| EncapsulationKey::from_public_key_der(d).expect_err("refused");
    let mut d = good.clone();
    d[18] = 0x7b;
    assert!(matches!(err(&d), spki::Error::OidUnknown { .. }));
    let mut d = vec![0x30, 0x82, 0x04, 0xd6, 0x30, 0x0f];
    d.extend_from_slice(&OID_TLV);
    d.extend_from_slice(&[0x05, 0x00, 0x03, 0x82, 0x04, 0xc1, 0x00]);
    d.extend_from_slice(&pk);
    assert!(matches!(err(&d), spki::Error::Asn1(_)));
    // 1215 key bytes.
    let mut short = vec![0x30, 0x82, 0x04, 0xd3, 0x30, 0x0d];
    short.extend_from_slice(&OID_TLV);
    short.extend_from_slice(&[0x03, 0x82, 0x04, 0xc0, 0x00]);
    short.extend_from_slice(&pk[..1215]);
    assert_eq!(err(&short), spki::Error::KeyMalformed);
    // A key failing the ML-KEM modulus check (a coefficient equal to q = 3329).
    let mut bad = pk;
    bad[0] = 0x01;
    bad[1] = (bad[1] & 0xf0) | 0x0d;
    assert_eq!(err(&spki_der(&bad)), spki::Error::KeyMalformed);
    let mut trailing = good.clone();
    trailing.push(0);
    assert!(matches!(err(&trailing), spki::Error::Asn1(_)));
    assert!(matches!(err(&good[..good.len() - 1]), spki::Error::Asn1(_)));
}
