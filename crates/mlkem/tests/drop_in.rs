//! Drop-in: code written for RustCrypto `ml-kem` 0.3.4 (its documented usage example, then key
//! import/export, `FromSeed`, `Generate`, the `ml_kem_768` module's aliases and PKCS#8 / SPKI
//! through its `pkcs8` module), stamped out twice from one text by `ml_kem_code!`, once with the
//! root `ml_kem` and once with `tessera_mlkem::ml_kem`: only the path differs. The two copies
//! run on the same seeds and exchange their outputs: each decapsulates the other's ciphertexts,
//! imports the other's keys and documents, and the values compared come from the peer. The
//! documentation example's own form (`generate_keypair()` / `encapsulate()` on the OS generator,
//! `kem`'s `getrandom` feature, on in this crate's dev-dependencies) is stamped out the same way
//! by `ml_kem_doc_example!` and its keys are crossed likewise.
#![cfg(all(feature = "kem", not(any(miri, tessera_backend = "portable"))))]

/// The same `ml-kem` code over the crate root `$root` (`ml_kem` or `tessera_mlkem::ml_kem`).
macro_rules! ml_kem_code {
    ($($root:tt)+) => {
        use rand::SeedableRng;
        use rand::rngs::StdRng;

        // ml-kem's usage example (`generate_keypair` / `encapsulate` need `kem`'s `getrandom`;
        // the `_from_rng` forms take the seeded generator).
        use $($root)+::{
            MlKem768,
            kem::{Decapsulate, Encapsulate, Kem},
        };
        use $($root)+::{
            B32, DecapsulationKey768, EncapsulationKey768, FromSeed, Generate, KeyExport, KeyInit,
            Seed, SharedKey, TryKeyInit, ml_kem_768,
        };

        /// The usage example on a seeded generator: (seed, ek, ct, k).
        pub fn readme(rng_seed: [u8; 32]) -> (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>) {
            let mut rng = StdRng::from_seed(rng_seed);

            // Generate a decapsulation/encapsulation keypair
            let (dk, ek) = MlKem768::generate_keypair_from_rng(&mut rng);

            // Encapsulate a shared key to the holder of the decapsulation key, receive the shared
            // secret `k_send` and the encapsulated form `ct`.
            let (ct, k_send) = ek.encapsulate_with_rng(&mut rng);

            // Decapsulate the shared key
            let k_recv = dk.decapsulate(&ct);

            // We've now established a shared key
            assert_eq!(k_send, k_recv);

            let seed: Seed = dk.to_seed().unwrap();
            assert_eq!(dk.to_bytes(), seed);
            (seed.to_vec(), ek.to_bytes().to_vec(), ct.to_vec(), k_send.to_vec())
        }

        /// Decapsulates `ct` with the key of `seed` (built three ways).
        pub fn decapsulate(seed: &[u8], ct: &[u8]) -> Vec<u8> {
            let seed = Seed::try_from(seed).unwrap();
            let ct = ml_kem_768::Ciphertext::try_from(ct).unwrap();
            let dk = DecapsulationKey768::from_seed(seed);
            let dk2 = ml_kem_768::DecapsulationKey::new(&seed);
            let (dk3, ek3) = MlKem768::from_seed(&seed);
            assert!(dk == dk2 && dk2 == dk3);
            assert_eq!(dk.encapsulation_key(), &ek3);
            let k: SharedKey = dk.decapsulate(&ct);
            let k2: B32 = dk3.decapsulate_slice(ct.as_slice()).unwrap();
            assert_eq!(k, k2);
            k.to_vec()
        }

        /// Encapsulates to the encoded key `ek` (imported two ways): (ct, k).
        pub fn encapsulate(ek: &[u8], rng_seed: [u8; 32]) -> (Vec<u8>, Vec<u8>) {
            let mut rng = StdRng::from_seed(rng_seed);
            let ek1 = EncapsulationKey768::new(&ek.try_into().unwrap()).unwrap();
            let ek2 = ml_kem_768::EncapsulationKey::new_from_slice(ek).unwrap();
            assert_eq!(ek1, ek2);
            assert_eq!(ek1.to_bytes().as_slice(), ek);
            let (ct, k) = ek1.encapsulate_with_rng(&mut rng);
            (ct.to_vec(), k.to_vec())
        }

        /// `Generate` on the decapsulation key and `From<Seed>`: the seed and the encoded ek.
        pub fn generate(rng_seed: [u8; 32]) -> (Vec<u8>, Vec<u8>) {
            let mut rng = StdRng::from_seed(rng_seed);
            let dk = DecapsulationKey768::generate_from_rng(&mut rng);
            let seed = dk.to_seed().unwrap();
            assert!(DecapsulationKey768::from(seed) == dk);
            (seed.to_vec(), dk.encapsulation_key().to_bytes().to_vec())
        }

        /// PKCS#8 (seed form) and SPKI documents of the key of `seed`, and the keys (seed, ek)
        /// read back from the given documents.
        #[cfg(all(feature = "pkcs8", feature = "alloc"))]
        pub fn pkcs8(
            seed: &[u8],
            read_pkcs8: Option<&[u8]>,
            read_spki: Option<&[u8]>,
        ) -> (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>) {
            use $($root)+::pkcs8::{
                DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey,
            };
            let dk = DecapsulationKey768::from_seed(Seed::try_from(seed).unwrap());
            let der = dk.to_pkcs8_der().unwrap().as_bytes().to_vec();
            let spki = dk.encapsulation_key().to_public_key_der().unwrap().into_vec();
            let dk2 = DecapsulationKey768::from_pkcs8_der(read_pkcs8.unwrap_or(&der)).unwrap();
            let ek2 = EncapsulationKey768::from_public_key_der(read_spki.unwrap_or(&spki)).unwrap();
            (der, spki, dk2.to_bytes().to_vec(), ek2.to_bytes().to_vec())
        }
    };
}

/// `ml-kem`'s documentation example verbatim (its `getrandom` form), with the path given.
macro_rules! ml_kem_doc_example {
    ($($root:tt)+) => {
        use $($root)+::{
            MlKem768,
            kem::{Decapsulate, Encapsulate, Kem},
        };

        /// The example, returning the encoded encapsulation key and the seed of its key pair.
        pub fn doc_example() -> (Vec<u8>, Vec<u8>) {
            // Generate a decapsulation/encapsulation keypair
            let (dk, ek) = MlKem768::generate_keypair();

            // Encapsulate a shared key to the holder of the decapsulation key, receive the shared
            // secret `k_send` and the encapsulated form `ct`.
            let (ct, k_send) = ek.encapsulate();

            // Decapsulate the shared key
            let k_recv = dk.decapsulate(&ct);

            // We've now established a shared key
            assert_eq!(k_send, k_recv);

            use $($root)+::KeyExport;
            (ek.to_bytes().to_vec(), dk.to_bytes().to_vec())
        }
    };
}

mod peer_doc {
    ml_kem_doc_example!(ml_kem);
}

mod tessera_doc {
    ml_kem_doc_example!(tessera_mlkem::ml_kem);
}

/// The verbatim example runs on both (OS randomness), and the keys it makes work on the other.
#[test]
fn doc_example_verbatim() {
    let (t_ek, t_seed) = tessera_doc::doc_example();
    let (p_ek, p_seed) = peer_doc::doc_example();
    assert_ne!(t_seed, p_seed);
    for (ek, seed) in [(&t_ek, &t_seed), (&p_ek, &p_seed)] {
        let (ct, k) = peer::encapsulate(ek, [1; 32]);
        assert_eq!(tessera::decapsulate(seed, &ct), k);
        let (ct, k) = tessera::encapsulate(ek, [2; 32]);
        assert_eq!(peer::decapsulate(seed, &ct), k);
    }
}

mod peer {
    ml_kem_code!(ml_kem);
}

mod tessera {
    ml_kem_code!(tessera_mlkem::ml_kem);
}

#[test]
fn readme_example_same_seed_same_values() {
    for s in 0u8..8 {
        let (t_seed, t_ek, t_ct, t_k) = tessera::readme([s; 32]);
        let (p_seed, p_ek, p_ct, p_k) = peer::readme([s; 32]);
        // The same generator stream: the same keys, ciphertext and shared key.
        assert_eq!(t_seed, p_seed);
        assert_eq!(t_ek, p_ek);
        assert_eq!(t_ct, p_ct);
        assert_eq!(t_k, p_k);
    }
}

#[test]
fn each_decapsulates_the_others_ciphertexts() {
    for s in 0u8..8 {
        // Keys of different seeds on the two sides; each encapsulates to the other's key.
        let (t_seed, t_ek, _, _) = tessera::readme([s; 32]);
        let (p_seed, p_ek, _, _) = peer::readme([s ^ 0x80; 32]);
        assert_ne!(t_ek, p_ek);
        let (ct, k) = peer::encapsulate(&t_ek, [s ^ 0x40; 32]);
        assert_eq!(tessera::decapsulate(&t_seed, &ct), k);
        let (ct, k) = tessera::encapsulate(&p_ek, [s ^ 0x20; 32]);
        assert_eq!(peer::decapsulate(&p_seed, &ct), k);
        // Implicit rejection agrees on a modified ciphertext.
        let mut bad = ct.clone();
        bad[s as usize * 100] ^= 1;
        let rejected = peer::decapsulate(&p_seed, &bad);
        assert_ne!(rejected, k);
        assert_eq!(tessera::decapsulate(&p_seed, &bad), rejected);
    }
}

#[test]
fn generate_matches() {
    for s in 0u8..4 {
        assert_eq!(tessera::generate([s; 32]), peer::generate([s; 32]));
    }
}

#[cfg(all(feature = "pkcs8", feature = "alloc"))]
#[test]
fn pkcs8_documents_exchanged() {
    for s in 0u8..4 {
        let seed = [s.wrapping_mul(37); 64];
        let (p_der, p_spki, _, _) = peer::pkcs8(&seed, None, None);
        let (t_der, t_spki, t_seed, t_ek) = tessera::pkcs8(&seed, Some(&p_der), Some(&p_spki));
        assert_eq!(t_der, p_der);
        assert_eq!(t_spki, p_spki);
        let (_, _, p_seed, p_ek) = peer::pkcs8(&seed, Some(&t_der), Some(&t_spki));
        assert_eq!(t_seed, p_seed);
        assert_eq!(t_ek, p_ek);
        assert_eq!(&p_seed[..], &seed[..]);
    }
}
