//! The fuzzing entry points, run as proptest properties (CI runs these, not cargo-fuzz: see
//! the README): public-key, private-key and `enc` parsing of every KEM, `open` of arbitrary
//! ciphertexts, and the agile `from_ids`. Each property says what must hold besides "no panic".

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use tessera::hpke::{AeadId, AgilePrivateKey, Error, KdfId, KemId, Suite};

const KEMS: [KemId; 12] = [
    KemId::DhKemX25519HkdfSha256,
    KemId::MlKem512,
    KemId::MlKem768,
    KemId::MlKem1024,
    KemId::XWing,
    KemId::DhKemP256HkdfSha256,
    KemId::DhKemP384HkdfSha384,
    KemId::DhKemP521HkdfSha512,
    KemId::DhKemSecp256k1HkdfSha256,
    KemId::DhKemX448HkdfSha512,
    KemId::MlKem768P256,
    KemId::MlKem1024P384,
];
const N: usize = KEMS.len();

/// `Npk` and `Nenc` of each KEM.
fn sizes(kem: KemId) -> (usize, usize) {
    match kem {
        KemId::DhKemX25519HkdfSha256 => (32, 32),
        KemId::MlKem512 => (800, 768),
        KemId::MlKem768 => (1184, 1088),
        KemId::MlKem1024 => (1568, 1568),
        KemId::XWing => (1216, 1120),
        KemId::DhKemP256HkdfSha256 | KemId::DhKemSecp256k1HkdfSha256 => (65, 65),
        KemId::DhKemP384HkdfSha384 => (97, 97),
        KemId::DhKemP521HkdfSha512 => (133, 133),
        KemId::DhKemX448HkdfSha512 => (56, 56),
        KemId::MlKem768P256 => (1249, 1153),
        KemId::MlKem1024P384 => (1665, 1665),
        k => panic!("{k:?}"),
    }
}

fn suite(i: usize) -> Suite {
    Suite::new(KEMS[i % N], KdfId::HkdfSha256, AeadId::ChaCha20Poly1305)
}

fn receiver_key(s: &Suite) -> AgilePrivateKey {
    s.generate_key_pair(&mut StdRng::from_seed([3; 32]))
        .unwrap()
        .0
}

/// Bytes of about the right length for a KEM input: exact, exact with the uncompressed SEC1
/// tag (the elliptic-curve KEMs, so parsing gets past the tag), one short, one long, or
/// anything.
fn input(len: usize) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => proptest::collection::vec(any::<u8>(), len),
        2 => proptest::collection::vec(any::<u8>(), len).prop_map(|mut v| {
            v[0] = 0x04;
            v
        }),
        1 => proptest::collection::vec(any::<u8>(), len - 1),
        1 => proptest::collection::vec(any::<u8>(), len + 1),
        1 => proptest::collection::vec(any::<u8>(), 0..64),
    ]
}

fn kem_and_bytes(which: fn((usize, usize)) -> usize) -> impl Strategy<Value = (usize, Vec<u8>)> {
    (0usize..N).prop_flat_map(move |i| (Just(i), input(which(sizes(KEMS[i])))))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Public-key parsing: an error of the right kind, or a key that serializes back to the
    /// same bytes.
    #[test]
    fn public_key_parsing((i, bytes) in kem_and_bytes(|s| s.0)) {
        let s = suite(i);
        match s.public_key_from_bytes(&bytes) {
            Ok(pk) => prop_assert_eq!(pk.as_bytes(), &bytes[..]),
            Err(e) => prop_assert_eq!(e, Error::InvalidPublicKey),
        }
    }

    /// `enc` parsing and decapsulation: the wrong length is `InvalidEncappedKey`; the right
    /// length gives a context (ML-KEM's implicit rejection, X-Wing), for X25519 and X448 a
    /// context or `NonContributory`, for the prime-order curves and the NIST hybrids a
    /// context or `InvalidEncappedKey` (a point off the curve).
    #[test]
    fn enc_parsing((i, enc) in kem_and_bytes(|s| s.1)) {
        let s = suite(i);
        let sk = receiver_key(&s);
        let r = s.setup_receiver_base(&enc, &sk, b"info");
        if enc.len() != sizes(s.kem()).1 {
            prop_assert_eq!(r.err(), Some(Error::InvalidEncappedKey));
        } else if let Err(e) = r {
            let allowed = match s.kem() {
                KemId::DhKemX25519HkdfSha256 | KemId::DhKemX448HkdfSha512 => {
                    Error::NonContributory
                }
                KemId::DhKemP256HkdfSha256
                | KemId::DhKemP384HkdfSha384
                | KemId::DhKemP521HkdfSha512
                | KemId::DhKemSecp256k1HkdfSha256
                | KemId::MlKem768P256
                | KemId::MlKem1024P384 => Error::InvalidEncappedKey,
                // ML-KEM and X-Wing decapsulate every right-length enc: no error allowed
                // (OpenError stands for "none" here and never matches).
                _ => Error::OpenError,
            };
            prop_assert_eq!(e, allowed, "{:?}", s.kem());
        }
    }

    /// Private-key parsing: an error of the right kind, or a key that serializes back to the
    /// same bytes and whose public key parses.
    #[test]
    fn private_key_parsing((i, bytes) in (0usize..N).prop_flat_map(|i| {
        let nsk = match KEMS[i] {
            KemId::MlKem512 | KemId::MlKem768 | KemId::MlKem1024 => 64,
            KemId::DhKemP384HkdfSha384 => 48,
            KemId::DhKemP521HkdfSha512 => 66,
            KemId::DhKemX448HkdfSha512 => 56,
            _ => 32,
        };
        (Just(i), input(nsk))
    })) {
        let s = suite(i);
        match s.private_key_from_bytes(&bytes) {
            Ok(sk) => {
                prop_assert_eq!(sk.as_bytes(), &bytes[..]);
                let pk = sk.public_key();
                prop_assert_eq!(s.public_key_from_bytes(pk.as_bytes()).unwrap(), pk);
            }
            Err(e) => prop_assert_eq!(e, Error::InvalidPrivateKey),
        }
    }

    /// `open` of an arbitrary ciphertext on a genuine context: `OpenError` (a forgery would
    /// need the key), the buffer wiped, and the counter unchanged so the genuine first
    /// message still opens.
    #[test]
    fn open_arbitrary(i in 0usize..N, ct in proptest::collection::vec(any::<u8>(), 0..200)) {
        let s = suite(i);
        let mut rng = StdRng::from_seed([5; 32]);
        let (sk, pk) = s.generate_key_pair(&mut rng).unwrap();
        let (enc, mut sender) = s.setup_sender_base(&pk, b"", &mut rng).unwrap();
        let mut r = s.setup_receiver_base(enc.as_ref(), &sk, b"").unwrap();
        prop_assert_eq!(r.open(b"", &ct), Err(Error::OpenError));
        if ct.len() >= 16 {
            let (body, tag) = ct.split_at(ct.len() - 16);
            let mut buf = body.to_vec();
            let r2 = r.open_in_place_detached(b"", &mut buf, tag.try_into().unwrap());
            prop_assert_eq!(r2, Err(Error::OpenError));
            prop_assert!(buf.iter().all(|&b| b == 0));
        }
        let genuine = sender.seal(b"", b"genuine").unwrap();
        prop_assert_eq!(r.open(b"", &genuine).unwrap(), b"genuine");
    }

    /// `from_ids`: a suite exactly when all three codepoints are known, with the codepoints
    /// kept; otherwise the error names the first unknown one.
    #[test]
    fn from_ids(kem in prop_oneof![any::<u16>(), 0x10u16..0x13, Just(0x16u16), 0x20u16..0x22,
                                   0x40u16..0x43, 0x50u16..0x52, Just(0x647A)],
                kdf in prop_oneof![any::<u16>(), 1u16..4, 0x10u16..0x14],
                aead in prop_oneof![any::<u16>(), 1u16..4, Just(0xFFFF)]) {
        let known_kem =
            matches!(kem, 0x10..=0x12 | 0x16 | 0x20 | 0x21 | 0x40..=0x42 | 0x50 | 0x51 | 0x647A);
        let known_kdf = matches!(kdf, 1..=3 | 0x10..=0x13);
        let known_aead = matches!(aead, 1..=3 | 0xFFFF);
        match Suite::from_ids(kem, kdf, aead) {
            Ok(s) => {
                prop_assert!(known_kem && known_kdf && known_aead);
                prop_assert_eq!((s.kem().id(), s.kdf().id(), s.aead().id()), (kem, kdf, aead));
            }
            Err(Error::UnknownKem(k)) => prop_assert!(!known_kem && k == kem),
            Err(Error::UnknownKdf(k)) => prop_assert!(known_kem && !known_kdf && k == kdf),
            Err(Error::UnknownAead(a)) => prop_assert!(known_kem && known_kdf && !known_aead && a == aead),
            Err(e) => prop_assert!(false, "unexpected {e:?}"),
        }
    }
}
