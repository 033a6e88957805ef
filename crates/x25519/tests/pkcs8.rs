//! PKCS#8 / SPKI (RFC 8410): the RFC's section 10 examples, round trips, OpenSSL interop (run
//! as a subprocess) and the strict rejection of bad encodings.
#![cfg(feature = "pkcs8")]

use base64ct::{Base64, Encoding};
use pkcs8::der::Decode;
use pkcs8::spki::{self, ObjectIdentifier};
use pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey, KeyError};
use rand::{RngExt, SeedableRng, rngs::StdRng};
use tessera_testkit::hex::array;
use tessera_x25519::pkcs8::ID_X25519;
use tessera_x25519::{PublicKey, StaticSecret};

/// RFC 8410 section 10.2, "Example X25519 Certificate", as published (its subject public key
/// is Alice's key of RFC 7748 section 6.1).
const RFC8410_10_2_CERT: &str = "\
MIIBLDCB36ADAgECAghWAUdKKo3DMDAFBgMrZXAwGTEXMBUGA1UEAwwOSUVURiBUZX
N0IERlbW8wHhcNMTYwODAxMTIxOTI0WhcNNDAxMjMxMjM1OTU5WjAZMRcwFQYDVQQD
DA5JRVRGIFRlc3QgRGVtbzAqMAUGAytlbgMhAIUg8AmJMKdUdIt93LQ+91oNvzoNJj
ga9OukqY6qm05qo0UwQzAPBgNVHRMBAf8EBTADAQEAMA4GA1UdDwEBAAQEAwIDCDAg
BgNVHQ4BAQAEFgQUmx9e7e0EM4Xk97xiPFl1uQvIuzswBQYDK2VwA0EAryMB/t3J5v
/BzKc9dNZIpDmAgs3babFOTQbs+BolzlDUwsPrdGxO3YNGhW7Ibz3OGhhlxXrCe1Cg
w1AH9efZBw==";

/// RFC 8410 section 10.1 (an Ed25519 public key) and section 10.3 (an Ed25519 private key,
/// without and with its public key and an attribute): the other algorithm of the RFC, which
/// an X25519 decoder must refuse by its OID.
const RFC8410_10_1_ED25519_PUBLIC: &str =
    "MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=";
const RFC8410_10_3_ED25519_PRIVATE: &str =
    "MC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC";
const RFC8410_10_3_ED25519_PRIVATE_V2: &str = "\
MHICAQEwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\
oB8wHQYKKoZIhvcNAQkJFDEPDA1DdXJkbGUgQ2hhaXJzgSEAGb9ECWmEzf6FQbrB\
Z9w7lshQhqowtrbLDFw4rXAxZuE=";

/// RFC 7748 section 6.1: Alice's private and public keys.
const ALICE_PRIVATE: &str = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
const ALICE_PUBLIC: &str = "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a";

const ID_ED25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");

fn b64(s: &str) -> Vec<u8> {
    let joined: String = s.split_whitespace().collect();
    Base64::decode_vec(&joined).expect("base64")
}

/// The certificate's `SubjectPublicKeyInfo`: the 44 bytes starting at the X25519 SPKI header.
fn rfc8410_cert_spki() -> Vec<u8> {
    let cert = b64(RFC8410_10_2_CERT);
    let header = [
        0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00,
    ];
    let at = cert
        .windows(header.len())
        .position(|w| w == header)
        .expect("the certificate holds an X25519 SPKI");
    cert[at..at + 44].to_vec()
}

#[test]
fn rfc8410_10_2_certificate_public_key() {
    assert_eq!(ID_X25519, ObjectIdentifier::new_unwrap("1.3.101.110"));
    let spki = rfc8410_cert_spki();
    let pk = PublicKey::from_public_key_der(&spki).unwrap();
    assert_eq!(pk.to_bytes(), array::<32>(ALICE_PUBLIC));
    // Alice's secret gives the same key and the same encoding.
    let sk = StaticSecret::from(array::<32>(ALICE_PRIVATE));
    assert_eq!(PublicKey::from(&sk), pk);
    assert_eq!(pk.to_public_key_der().unwrap().as_bytes(), &spki[..]);
    assert_eq!(sk.to_public_key_der().unwrap().as_bytes(), &spki[..]);
    // The SPKI followed by one more byte of the certificate is refused.
    let cert = b64(RFC8410_10_2_CERT);
    let at = cert.windows(44).position(|w| w == &spki[..]).unwrap();
    assert!(PublicKey::from_public_key_der(&cert[at..at + 45]).is_err());
}

#[test]
fn rfc8410_ed25519_examples_are_refused_by_oid() {
    assert_eq!(
        PublicKey::from_public_key_der(&b64(RFC8410_10_1_ED25519_PUBLIC)),
        Err(spki::Error::OidUnknown { oid: ID_ED25519 })
    );
    for key in [
        RFC8410_10_3_ED25519_PRIVATE,
        RFC8410_10_3_ED25519_PRIVATE_V2,
    ] {
        match StaticSecret::from_pkcs8_der(&b64(key)) {
            Err(pkcs8::Error::PublicKey(spki::Error::OidUnknown { oid })) => {
                assert_eq!(oid, ID_ED25519)
            }
            other => panic!("expected the Ed25519 OID refused, got {other:?}"),
        }
    }
}

/// The version 1 PKCS#8 encoding of RFC 8410 section 7, built by hand.
fn v1_der(secret: &[u8; 32]) -> Vec<u8> {
    let mut v = vec![
        0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04,
        0x20,
    ];
    v.extend_from_slice(secret);
    v
}

/// Version 2 (`OneAsymmetricKey`) with `[1] publicKey`.
fn v2_der(secret: &[u8; 32], public: &[u8; 32]) -> Vec<u8> {
    let mut v = vec![
        0x30, 0x51, 0x02, 0x01, 0x01, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04,
        0x20,
    ];
    v.extend_from_slice(secret);
    v.extend_from_slice(&[0x81, 0x21, 0x00]);
    v.extend_from_slice(public);
    v
}

fn spki_der(public: &[u8]) -> Vec<u8> {
    let mut v = vec![
        0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00,
    ];
    v.extend_from_slice(public);
    v
}

#[test]
fn round_trips_and_the_rfc_layout() {
    let mut rng = StdRng::seed_from_u64(8410);
    for _ in 0..64 {
        let bytes: [u8; 32] = rng.random();
        let sk = StaticSecret::from(bytes);
        let der = sk.to_pkcs8_der().unwrap();
        assert_eq!(der.as_bytes(), &v1_der(&bytes)[..]);
        let back = StaticSecret::from_pkcs8_der(der.as_bytes()).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        let pk = PublicKey::from(&sk);
        let pder = pk.to_public_key_der().unwrap();
        assert_eq!(pder.as_bytes(), &spki_der(pk.as_bytes())[..]);
        assert_eq!(PublicKey::from_public_key_der(pder.as_bytes()).unwrap(), pk);
        // Version 2 with the matching public key is accepted.
        let v2 = StaticSecret::from_pkcs8_der(&v2_der(&bytes, pk.as_bytes())).unwrap();
        assert_eq!(v2.to_bytes(), bytes);
    }
}

#[test]
fn v2_with_another_public_key_is_refused() {
    let bytes = array::<32>(ALICE_PRIVATE);
    let mut wrong = array::<32>(ALICE_PUBLIC);
    wrong[0] ^= 1;
    assert_eq!(
        StaticSecret::from_pkcs8_der(&v2_der(&bytes, &wrong)).err(),
        Some(pkcs8::Error::KeyMalformed(KeyError::Invalid))
    );
}

#[test]
fn bad_private_keys_are_refused() {
    let secret = array::<32>(ALICE_PRIVATE);
    let good = v1_der(&secret);
    assert!(StaticSecret::from_pkcs8_der(&good).is_ok());
    let err = |der: &[u8]| StaticSecret::from_pkcs8_der(der).expect_err("refused");

    // Wrong OID (Ed25519's 1.3.101.112, X448's 1.3.101.111).
    for last in [0x70, 0x6f] {
        let mut d = good.clone();
        d[11] = last;
        assert!(matches!(
            err(&d),
            pkcs8::Error::PublicKey(spki::Error::OidUnknown { .. })
        ));
    }
    // Parameters present (NULL).
    let mut d = vec![
        0x30, 0x30, 0x02, 0x01, 0x00, 0x30, 0x07, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x05, 0x00,
    ];
    d.extend_from_slice(&good[12..]);
    assert_eq!(err(&d), pkcs8::Error::ParametersMalformed);
    // The inner OCTET STRING of 31 and 33 bytes.
    let short = {
        let mut v = vec![
            0x30, 0x2d, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x21,
            0x04, 0x1f,
        ];
        v.extend_from_slice(&secret[..31]);
        v
    };
    assert_eq!(err(&short), pkcs8::Error::KeyMalformed(KeyError::TooShort));
    let long = {
        let mut v = vec![
            0x30, 0x2f, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x23,
            0x04, 0x21,
        ];
        v.extend_from_slice(&secret);
        v.push(0);
        v
    };
    assert_eq!(err(&long), pkcs8::Error::KeyMalformed(KeyError::TooLong));
    // The raw 32 bytes without the inner OCTET STRING (a 34-byte outer string that is not one).
    let raw = {
        let mut v = vec![
            0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22,
            0x05, 0x00,
        ];
        v.extend_from_slice(&secret);
        v
    };
    assert!(matches!(err(&raw), pkcs8::Error::Asn1(_)));
    // Trailing bytes inside the inner string, after the structure, and a truncated one.
    let inner_trailing = {
        let mut v = vec![
            0x30, 0x2f, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x23,
            0x04, 0x20,
        ];
        v.extend_from_slice(&secret);
        v.push(0);
        v
    };
    assert!(matches!(err(&inner_trailing), pkcs8::Error::Asn1(_)));
    let mut trailing = good.clone();
    trailing.push(0);
    assert!(matches!(err(&trailing), pkcs8::Error::Asn1(_)));
    assert!(matches!(
        err(&good[..good.len() - 1]),
        pkcs8::Error::Asn1(_)
    ));
    // Version 2 whose public key has unused bits, or 31 bytes.
    let pk = array::<32>(ALICE_PUBLIC);
    let mut v2 = v2_der(&secret, &pk);
    v2[50] = 1;
    assert_eq!(err(&v2), pkcs8::Error::KeyMalformed(KeyError::Invalid));
    let mut v2_short = v2_der(&secret, &pk);
    v2_short.pop();
    v2_short[1] -= 1;
    v2_short[49] -= 1;
    assert_eq!(
        err(&v2_short),
        pkcs8::Error::KeyMalformed(KeyError::Invalid)
    );
}

#[test]
fn bad_public_keys_are_refused() {
    let pk = array::<32>(ALICE_PUBLIC);
    let good = spki_der(&pk);
    assert!(PublicKey::from_public_key_der(&good).is_ok());
    let err = |der: &[u8]| PublicKey::from_public_key_der(der).expect_err("refused");
    let mut d = good.clone();
    d[8] = 0x70;
    assert_eq!(err(&d), spki::Error::OidUnknown { oid: ID_ED25519 });
    let mut d = vec![
        0x30, 0x2c, 0x30, 0x07, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x05, 0x00,
    ];
    d.extend_from_slice(&good[9..]);
    assert!(matches!(err(&d), spki::Error::Asn1(_)));
    // 31 and 33 key bytes.
    let mut short = vec![
        0x30, 0x29, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x20, 0x00,
    ];
    short.extend_from_slice(&pk[..31]);
    assert_eq!(err(&short), spki::Error::KeyMalformed);
    let mut long = vec![
        0x30, 0x2b, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x22, 0x00,
    ];
    long.extend_from_slice(&pk);
    long.push(0);
    assert_eq!(err(&long), spki::Error::KeyMalformed);
    // Unused bits (DER needs the last unused bit zero: use a key ending in 0).
    let mut bits = spki_der(&[0u8; 32]);
    bits[11] = 1;
    assert_eq!(err(&bits), spki::Error::KeyMalformed);
    let mut trailing = good.clone();
    trailing.push(0);
    assert!(matches!(err(&trailing), spki::Error::Asn1(_)));
    assert!(matches!(err(&good[..43]), spki::Error::Asn1(_)));
    // A PKCS#8 key is not an SPKI, and the reverse.
    assert!(PublicKey::from_public_key_der(&v1_der(&[1; 32])).is_err());
    assert!(StaticSecret::from_pkcs8_der(&good).is_err());
    // The parsers of the trait crates agree that `good` is well-formed.
    assert!(spki::SubjectPublicKeyInfoRef::from_der(&good).is_ok());
}

#[cfg(feature = "pem")]
#[test]
fn pem_round_trip() {
    use pkcs8::LineEnding;
    let sk = StaticSecret::from(array::<32>(ALICE_PRIVATE));
    let pem = sk.to_pkcs8_pem(LineEnding::LF).unwrap();
    assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
    assert_eq!(
        StaticSecret::from_pkcs8_pem(&pem).unwrap().to_bytes(),
        sk.to_bytes()
    );
    let pk = PublicKey::from(&sk);
    let ppem = pk.to_public_key_pem(LineEnding::LF).unwrap();
    assert!(ppem.starts_with("-----BEGIN PUBLIC KEY-----\n"));
    assert_eq!(PublicKey::from_public_key_pem(&ppem).unwrap(), pk);
}

/// OpenSSL, as a subprocess.
mod openssl {
    use std::path::PathBuf;
    use std::process::Command;

    /// Whether `openssl` runs; without it the test fails under CI and is skipped elsewhere.
    pub fn available(test: &str) -> bool {
        let ok = Command::new("openssl")
            .arg("version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            assert!(
                std::env::var_os("CI").is_none(),
                "{test}: the openssl binary is required under CI"
            );
            println!("SKIPPED {test}: no openssl binary");
        }
        ok
    }

    /// Runs `openssl args..`, returning stdout; panics with stderr on failure.
    pub fn run(args: &[&str]) -> Vec<u8> {
        let out = Command::new("openssl").args(args).output().unwrap();
        assert!(
            out.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    }

    /// A fresh file name in the temporary directory.
    pub fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("tessera-x25519-{}-{name}", std::process::id()))
    }
}

#[test]
fn openssl_interop() {
    if !openssl::available("openssl_interop") {
        return;
    }
    for i in 0..4 {
        // OpenSSL's key, read by us; its public key by `-pubout` matches ours.
        let key = openssl::temp(&format!("ossl{i}.der"));
        let key_s = key.to_str().unwrap();
        openssl::run(&[
            "genpkey",
            "-algorithm",
            "X25519",
            "-outform",
            "DER",
            "-out",
            key_s,
        ]);
        let der = std::fs::read(&key).unwrap();
        let sk = StaticSecret::from_pkcs8_der(&der).unwrap();
        let pub_der = openssl::run(&[
            "pkey", "-inform", "DER", "-in", key_s, "-pubout", "-outform", "DER",
        ]);
        let pk = PublicKey::from_public_key_der(&pub_der).unwrap();
        assert_eq!(PublicKey::from(&sk), pk);
        // We re-encode it as OpenSSL did, byte for byte.
        assert_eq!(sk.to_pkcs8_der().unwrap().as_bytes(), &der[..]);
        assert_eq!(pk.to_public_key_der().unwrap().as_bytes(), &pub_der[..]);
        std::fs::remove_file(&key).unwrap();

        // Our key, read by OpenSSL: it writes back the same PKCS#8 and derives the same public key.
        let ours = StaticSecret::from([i as u8 * 37 + 1; 32]);
        let path = openssl::temp(&format!("ours{i}.der"));
        let path_s = path.to_str().unwrap();
        std::fs::write(&path, ours.to_pkcs8_der().unwrap().as_bytes()).unwrap();
        let back = openssl::run(&["pkey", "-inform", "DER", "-in", path_s, "-outform", "DER"]);
        assert_eq!(back, ours.to_pkcs8_der().unwrap().as_bytes());
        let their_pub = openssl::run(&[
            "pkey", "-inform", "DER", "-in", path_s, "-pubout", "-outform", "DER",
        ]);
        assert_eq!(
            their_pub,
            PublicKey::from(&ours)
                .to_public_key_der()
                .unwrap()
                .as_bytes()
        );
        std::fs::remove_file(&path).unwrap();
    }
}

#[cfg(feature = "pem")]
#[test]
fn openssl_interop_pem() {
    use pkcs8::LineEnding;
    if !openssl::available("openssl_interop_pem") {
        return;
    }
    let key = openssl::temp("ossl.pem");
    let key_s = key.to_str().unwrap();
    openssl::run(&["genpkey", "-algorithm", "X25519", "-out", key_s]);
    let pem = std::fs::read_to_string(&key).unwrap();
    let sk = StaticSecret::from_pkcs8_pem(&pem).unwrap();
    assert_eq!(*sk.to_pkcs8_pem(LineEnding::LF).unwrap(), pem);
    let pub_pem = String::from_utf8(openssl::run(&["pkey", "-in", key_s, "-pubout"])).unwrap();
    assert_eq!(
        PublicKey::from_public_key_pem(&pub_pem).unwrap(),
        PublicKey::from(&sk)
    );
    std::fs::remove_file(&key).unwrap();

    let ours = StaticSecret::from(array::<32>(ALICE_PRIVATE));
    let path = openssl::temp("ours.pem");
    let path_s = path.to_str().unwrap();
    std::fs::write(&path, ours.to_pkcs8_pem(LineEnding::LF).unwrap().as_bytes()).unwrap();
    let their_pub = String::from_utf8(openssl::run(&["pkey", "-in", path_s, "-pubout"])).unwrap();
    assert_eq!(
        their_pub,
        PublicKey::from(&ours)
            .to_public_key_pem(LineEnding::LF)
            .unwrap()
    );
    std::fs::remove_file(&path).unwrap();
}
