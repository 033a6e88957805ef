//! The fuzzing entry points, run as proptest properties (CI runs these, not cargo-fuzz: see
//! the README): public-key and `enc` parsing of every KEM, `open` of arbitrary ciphertexts,
//! and the agile `from_ids`. Each property says what must hold besides "no panic".

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use tessera::hpke::{AeadId, AgilePrivateKey, Error, KdfId, KemId, Suite};

const KEMS: [KemId; 5] = [
    KemId::DhKemX25519HkdfSha256,
    KemId::MlKem512,
    KemId::MlKem768,
    KemId::MlKem1024,
    KemId::XWing,
];

/// `Npk` and `Nenc` of each KEM.
fn sizes(kem: KemId) -> (usize, usize) {
    match kem {
        KemId::DhKemX25519HkdfSha256 => (32, 32),
        KemId::MlKem512 => (800, 768),
        KemId::MlKem768 => (1184, 1088),
        KemId::MlKem1024 => (1568, 1568),
        KemId::XWing => (1216, 1120),
        k => panic!("{k:?}"),
    }
}

fn suite(i: usize) -> Suite {
    Suite::new(KEMS[i % 5], KdfId::HkdfSha256, AeadId::ChaCha20Poly1305)
}

fn receiver_key(s: &Suite) -> AgilePrivateKey {
    s.generate_key_pair(&mut StdRng::from_seed([3; 32]))
        .unwrap()
        .0
}

/// Bytes of about the right length for a KEM input: exact, one short, one long, or anything.
fn input(len: usize) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => proptest::collection::vec(any::<u8>(), len),
        1 => proptest::collection::vec(any::<u8>(), len - 1),
        1 => proptest::collection::vec(any::<u8>(), len + 1),
        1 => proptest::collection::vec(any::<u8>(), 0..64),
    ]
}

fn kem_and_bytes(which: fn((usize, usize)) -> usize) -> impl Strategy<Value = (usize, Vec<u8>)> {
    (0usize..5).prop_flat_map(move |i| (Just(i), input(which(sizes(KEMS[i])))))
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
    /// length gives a context (ML-KEM's implicit rejection, X-Wing) or, for X25519, a
    /// context or `NonContributory`.
    #[test]
    fn enc_parsing((i, enc) in kem_and_bytes(|s| s.1)) {
        let s = suite(i);
        let sk = receiver_key(&s);
        let r = s.setup_receiver_base(&enc, &sk, b"info");
        if enc.len() != sizes(s.kem()).1 {
            prop_assert_eq!(r.err(), Some(Error::InvalidEncappedKey));
        } else if let Err(e) = r {
            prop_assert!(s.kem() == KemId::DhKemX25519HkdfSha256 && e == Error::NonContributory, "{e:?}");
        }
    }

    /// `open` of an arbitrary ciphertext on a genuine context: `OpenError` (a forgery would
    /// need the key), the buffer wiped, and the counter unchanged so the genuine first
    /// message still opens.
    #[test]
    fn open_arbitrary(i in 0usize..5, ct in proptest::collection::vec(any::<u8>(), 0..200)) {
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
    fn from_ids(kem in prop_oneof![any::<u16>(), Just(0x20u16), 0x40u16..0x43, Just(0x647A)],
                kdf in prop_oneof![any::<u16>(), 1u16..4, 0x10u16..0x14],
                aead in prop_oneof![any::<u16>(), 1u16..4, Just(0xFFFF)]) {
        let known_kem = matches!(kem, 0x20 | 0x40..=0x42 | 0x647A);
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
