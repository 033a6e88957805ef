//! The measured operations. A target is named `operation:backend`; the backend (the last
//! `:`-separated part, as in the valgrind legs) is looked up among the crate's backends this CPU
//! can run, so any backend can be measured by hand, while `cargo xtask test` runs the ones
//! valgrind cannot execute ([`TARGETS`]).
//!
//! Classes: the fixed secret is all zeros (X25519's clamped zero scalar never swaps in the
//! ladder, an extreme for a branch or a table index on key bits), the random class fresh bytes
//! per measurement. ML-KEM decapsulation has two targets: valid against invalid (random)
//! ciphertexts under one key, whose difference is the secret outcome of the re-encryption
//! comparison and the implicit-rejection select, and fixed against random secret key parts
//! (`s`, `z`) under one public key, on one (invalid) ciphertext.

use std::hint::black_box;
use std::time::Duration;

use tessera_aes_gcm::{Aes128Gcm, Aes256Gcm};
use tessera_chacha20poly1305::ChaCha20Poly1305;
use tessera_cpu::BackendSet;
use tessera_mlkem::ml_kem_768::{Ciphertext, DecapsulationKey, EncapsulationKey};

use crate::harness::{Budget, Class, Target, blend, leaky_eq};
use crate::rng::Rng;

/// The targets `cargo xtask test` runs, one leg each (the list lives in testkit, which xtask
/// also reads).
pub use tessera_testkit::ct::DUDECT_TARGETS as TARGETS;

/// The operations (the part of a target name before the backend), with what they measure.
pub const OPERATIONS: &[(&str, &str)] = &[
    (
        "x25519",
        "X25519(k, u) on a fixed public u: fixed scalar (zero) against random scalars",
    ),
    (
        "x25519_base",
        "X25519(k, 9) through the fixed-base table: fixed scalar (zero) against random",
    ),
    (
        "p256_ecdh",
        "P-256 variable-base k P on a fixed public P: fixed scalar (one) against random \
         scalars below n",
    ),
    (
        "p256_keygen",
        "P-256 fixed-base k G: fixed scalar (one) against random scalars below n",
    ),
    (
        "chacha20poly1305_seal",
        "key setup and seal of 2348 bytes (two 1024-byte strides and tails): fixed key and \
         plaintext (zeros) against random",
    ),
    (
        "aes128gcm_seal",
        "key expansion and seal of 2348 bytes (512-byte strides, 256-byte and block tails): \
         fixed key and plaintext (zeros) against random",
    ),
    ("aes256gcm_seal", "as aes128gcm_seal with AES-256"),
    (
        "mlkem768_decaps_validity",
        "ML-KEM-768 decapsulation under one key: valid ciphertexts (fresh encapsulations) \
         against random (invalid) ones",
    ),
    (
        "mlkem768_decaps_key",
        "ML-KEM-768 decapsulation of one random ciphertext under one public key: fixed secret \
         parts (s and z of the key of a zero seed) against random ones",
    ),
];

/// A target ready to measure.
pub struct Ready {
    /// The operation.
    pub target: Box<dyn Target>,
    /// What it measures and on which backend (printed before the run).
    pub about: String,
    /// How much to measure.
    pub budget: Budget,
}

/// The answer to a target name.
pub enum Lookup {
    /// The target, on the backend it names.
    Ready(Ready),
    /// This CPU cannot run the backend it names.
    Absent(String),
    /// No such operation.
    Unknown,
}

/// The backend of table `B` called `name`, if this CPU has it.
fn backend<B: BackendSet>(name: &str) -> Option<B> {
    B::all_available().find(|b| b.name() == name)
}

const MSG_LEN: usize = 2348;
const AAD: &[u8] = b"public header";

/// The target called `name` (`operation:backend`).
pub fn lookup(name: &str) -> Lookup {
    let Some((op, be)) = name.rsplit_once(':') else {
        return Lookup::Unknown;
    };
    let Some(&(_, what)) = OPERATIONS.iter().find(|(o, _)| *o == op) else {
        return Lookup::Unknown;
    };
    let absent = || Lookup::Absent(format!("this CPU has no {be} backend for {op}"));
    let about = |extra: &str| format!("{op} on {be}{extra}: {what}");
    let (target, about, budget): (Box<dyn Target>, String, Budget) = match op {
        "x25519" | "x25519_base" => {
            let Some(be) = backend::<tessera_x25519::testing::Backend>(be) else {
                return absent();
            };
            (
                Box::new(X25519 {
                    be,
                    base: op == "x25519_base",
                    scratch: [0; 32],
                    k: [0; 32],
                    u: tessera_x25519::testing::x25519_base_with_backend(
                        tessera_x25519::testing::Backend::Portable,
                        [7; 32],
                    ),
                }),
                about(""),
                X25519_BUDGET,
            )
        }
        "p256_ecdh" | "p256_keygen" => {
            let Some(be) = backend::<tessera_p256::testing::Backend>(be) else {
                return absent();
            };
            let peer =
                tessera_p256::testing::mul_base(tessera_p256::testing::Backend::Portable, &[7; 32])
                    .expect("7 < n")
                    .expect("7 G is not the identity");
            (
                Box::new(P256 {
                    be,
                    base: op == "p256_keygen",
                    scratch: [0; 32],
                    k: [0; 32],
                    peer,
                }),
                about(""),
                X25519_BUDGET,
            )
        }
        "chacha20poly1305_seal" => {
            let Some(be) = backend::<tessera_chacha20poly1305::testing::Backend>(be) else {
                return absent();
            };
            (
                Box::new(Seal::new(Aead::ChaCha(be))),
                about(""),
                AEAD_BUDGET,
            )
        }
        "aes128gcm_seal" | "aes256gcm_seal" => {
            let Some(be) = backend::<tessera_aes_gcm::testing::Backend>(be) else {
                return absent();
            };
            let aead = if op == "aes128gcm_seal" {
                Aead::Aes128(be)
            } else {
                Aead::Aes256(be)
            };
            (Box::new(Seal::new(aead)), about(""), AEAD_BUDGET)
        }
        "mlkem768_decaps_validity" | "mlkem768_decaps_key" => {
            let Some(be) = backend::<tessera_mlkem::testing::Backend>(be) else {
                return absent();
            };
            // The AVX2 backend runs its samplers' Keccak x4 on AVX-512 where the CPU has it.
            let keccak = match tessera_cpu::X86Avx512::detect() {
                Some(_) if be.name() == "x86_avx2" => " (Keccak x4 on x86_avx512)",
                _ => "",
            };
            let dk = DecapsulationKey::from_seed_with_backend(be, &[0x42; 64]);
            let mut ct = [0u8; tessera_mlkem::ml_kem_768::CT_LEN];
            Rng::new(9).fill(&mut ct);
            let ct = Ciphertext::from_bytes(&ct).expect("CT_LEN bytes");
            let target: Box<dyn Target> = if op == "mlkem768_decaps_validity" {
                Box::new(MlKemValidity {
                    ek: dk.encapsulation_key().clone(),
                    dk,
                    ct,
                })
            } else {
                Box::new(MlKemKey::new(be, dk, ct))
            };
            (target, about(keccak), MLKEM_BUDGET)
        }
        _ => return Lookup::Unknown,
    };
    Lookup::Ready(Ready {
        target,
        about,
        budget,
    })
}

/// About 25 us a call with IFMA (the random-class draw is negligible).
const X25519_BUDGET: Budget = Budget {
    measurements: 120_000,
    warmup: 2_000,
    max_time: Duration::from_secs(20),
};

/// A few microseconds a call.
const AEAD_BUDGET: Budget = Budget {
    measurements: 200_000,
    warmup: 5_000,
    max_time: Duration::from_secs(20),
};

/// A decapsulation and, untimed, an encapsulation or key generation per measurement.
const MLKEM_BUDGET: Budget = Budget {
    measurements: 100_000,
    warmup: 2_000,
    max_time: Duration::from_secs(20),
};

struct X25519 {
    be: tessera_x25519::testing::Backend,
    base: bool,
    scratch: [u8; 32],
    k: [u8; 32],
    u: [u8; 32],
}

impl Target for X25519 {
    fn prepare(&mut self, class: Class, rng: &mut Rng) {
        rng.fill(&mut self.scratch);
        blend(class, &mut self.k, &[0; 32], &self.scratch);
    }

    fn run(&mut self) {
        let k = black_box(self.k);
        if self.base {
            black_box(tessera_x25519::testing::x25519_base_with_backend(
                self.be, k,
            ));
        } else {
            black_box(tessera_x25519::testing::x25519_with_backend(
                self.be, k, self.u,
            ));
        }
    }
}

/// A P-256 scalar multiplication on a secret scalar (`testing::mul` / `testing::mul_base`,
/// the code under `SecretKey::diffie_hellman` / `public_key`).
struct P256 {
    be: tessera_p256::testing::Backend,
    base: bool,
    scratch: [u8; 32],
    k: [u8; 32],
    peer: [u8; 65],
}

impl Target for P256 {
    fn prepare(&mut self, class: Class, rng: &mut Rng) {
        rng.fill(&mut self.scratch);
        // Below n: the top byte 0x7f keeps a random scalar below 2^255 < n.
        self.scratch[0] &= 0x7f;
        // The fixed scalar is 1 (every digit 0 but the lowest, an extreme for a table index on
        // the digits); 0 would give the identity, whose encoding the entry point skips.
        let mut one = [0u8; 32];
        one[31] = 1;
        blend(class, &mut self.k, &one, &self.scratch);
    }

    fn run(&mut self) {
        let k = black_box(self.k);
        if self.base {
            let _ = black_box(tessera_p256::testing::mul_base(self.be, &k));
        } else {
            let _ = black_box(tessera_p256::testing::mul(self.be, &k, &self.peer));
        }
    }
}

enum Aead {
    ChaCha(tessera_chacha20poly1305::testing::Backend),
    Aes128(tessera_aes_gcm::testing::Backend),
    Aes256(tessera_aes_gcm::testing::Backend),
}

/// Key setup and seal: the key and the plaintext are the secrets.
struct Seal {
    aead: Aead,
    scratch_key: [u8; 32],
    scratch: Vec<u8>,
    zeros: Vec<u8>,
    key: [u8; 32],
    buf: Vec<u8>,
}

impl Seal {
    fn new(aead: Aead) -> Self {
        Seal {
            aead,
            scratch_key: [0; 32],
            scratch: vec![0; MSG_LEN],
            zeros: vec![0; MSG_LEN],
            key: [0; 32],
            buf: vec![0; MSG_LEN],
        }
    }
}

impl Target for Seal {
    fn prepare(&mut self, class: Class, rng: &mut Rng) {
        rng.fill(&mut self.scratch_key);
        rng.fill(&mut self.scratch);
        blend(class, &mut self.key, &[0; 32], &self.scratch_key);
        blend(class, &mut self.buf, &self.zeros, &self.scratch);
    }

    fn run(&mut self) {
        let key = black_box(&self.key);
        let nonce = [0x24u8; 12];
        let tag = match self.aead {
            Aead::ChaCha(be) => ChaCha20Poly1305::new_with_backend(be, key)
                .encrypt_in_place_detached(&nonce, AAD, &mut self.buf)
                .ok(),
            Aead::Aes128(be) => {
                let k: &[u8; 16] = key[..16].try_into().expect("16 bytes");
                Aes128Gcm::new_with_backend(be, k)
                    .encrypt_in_place_detached(&nonce, AAD, &mut self.buf)
                    .ok()
            }
            Aead::Aes256(be) => Aes256Gcm::new_with_backend(be, key)
                .encrypt_in_place_detached(&nonce, AAD, &mut self.buf)
                .ok(),
        };
        let tag = tag.expect("lengths are in range");
        black_box(tag);
    }
}

/// Valid (class 0) against random (class 1) ciphertexts under one fixed key.
struct MlKemValidity {
    dk: DecapsulationKey,
    ek: EncapsulationKey,
    ct: Ciphertext,
}

impl Target for MlKemValidity {
    fn prepare(&mut self, class: Class, rng: &mut Rng) {
        // Both classes encapsulate and draw random bytes; only the ciphertext kept differs.
        let mut m = [0u8; 32];
        rng.fill(&mut m);
        let (valid, _) = self.ek.encapsulate_deterministic(&m);
        let mut random = [0u8; tessera_mlkem::ml_kem_768::CT_LEN];
        rng.fill(&mut random);
        let mut bytes = [0u8; tessera_mlkem::ml_kem_768::CT_LEN];
        blend(class, &mut bytes, valid.as_bytes(), &random);
        self.ct = Ciphertext::from_bytes(&bytes).expect("CT_LEN bytes");
    }

    fn run(&mut self) {
        black_box(self.dk.decapsulate(black_box(&self.ct)));
    }
}

/// A fixed (class 0) against random (class 1) secret key parts under one public key, one
/// ciphertext. Only the secret parts of the expanded key vary (`dk_pke`, the NTT-domain `s`,
/// and the rejection value `z`, taken from the key of a fixed or of a random seed); `ek` and
/// `H(ek)` stay those of one key, so the public part (and its matrix A, expanded untimed when
/// the key is parsed) is the same for both classes. The key is inconsistent for the random
/// class, which changes nothing for a constant-time decapsulation (it rejects).
struct MlKemKey {
    be: tessera_mlkem::testing::Backend,
    /// The expanded key whose secret parts class 0 uses (seed of zeros) and whose public parts
    /// both classes use (seed 0x42).
    fixed: [u8; DK_LEN],
    random: [u8; DK_LEN],
    bytes: [u8; DK_LEN],
    dk: DecapsulationKey,
    ct: Ciphertext,
}

const DK_LEN: usize = tessera_mlkem::ml_kem_768::DK_LEN;
/// `dk_pke` (the encoded `s`) is `[..S_LEN]`, `z` is `[DK_LEN - 32..]`.
const S_LEN: usize = 384 * 3;

impl MlKemKey {
    fn new(be: tessera_mlkem::testing::Backend, dk: DecapsulationKey, ct: Ciphertext) -> Self {
        let mut fixed = dk.to_expanded_bytes();
        let zero = DecapsulationKey::from_seed_with_backend(be, &[0; 64]).to_expanded_bytes();
        fixed[..S_LEN].copy_from_slice(&zero[..S_LEN]);
        fixed[DK_LEN - 32..].copy_from_slice(&zero[DK_LEN - 32..]);
        MlKemKey {
            be,
            fixed,
            random: fixed,
            bytes: fixed,
            dk,
            ct,
        }
    }
}

impl Target for MlKemKey {
    fn prepare(&mut self, class: Class, rng: &mut Rng) {
        let mut seed = [0u8; 64];
        rng.fill(&mut seed);
        let other = DecapsulationKey::from_seed_with_backend(self.be, &seed).to_expanded_bytes();
        self.random[..S_LEN].copy_from_slice(&other[..S_LEN]);
        self.random[DK_LEN - 32..].copy_from_slice(&other[DK_LEN - 32..]);
        blend(class, &mut self.bytes, &self.fixed, &self.random);
        self.dk = DecapsulationKey::from_expanded_bytes_with_backend(self.be, &self.bytes)
            .expect("the public part and its hash are one key's");
    }

    fn run(&mut self) {
        black_box(self.dk.decapsulate(black_box(&self.ct)));
    }
}

/// The negative control of a target's size: X25519 on the best backend, then an early-exit
/// comparison of the scalar with a public value (the fixed scalar equals it: 32 bytes
/// compared; a random one differs in its first byte 255 times in 256). The leak is some tens
/// of cycles on a call of tens of thousands: the size of a secret-dependent loop or
/// branch that a backend might hide inside a ladder.
pub struct LeakyX25519 {
    be: tessera_x25519::testing::Backend,
    scratch: [u8; 32],
    k: [u8; 32],
    reference: [u8; 32],
    u: [u8; 32],
}

impl LeakyX25519 {
    /// The control, on the best X25519 backend of this CPU.
    pub fn new() -> Self {
        let mut reference = [0u8; 32];
        Rng::new(77).fill(&mut reference);
        LeakyX25519 {
            be: tessera_x25519::testing::Backend::detect(),
            scratch: [0; 32],
            k: [0; 32],
            reference,
            u: [9; 32],
        }
    }

    /// The backend it runs on.
    pub fn backend(&self) -> &'static str {
        self.be.name()
    }

    /// Its budget: that of the X25519 targets, so that its detection says what theirs can see.
    pub const BUDGET: Budget = X25519_BUDGET;
}

impl Default for LeakyX25519 {
    fn default() -> Self {
        Self::new()
    }
}

impl Target for LeakyX25519 {
    fn prepare(&mut self, class: Class, rng: &mut Rng) {
        rng.fill(&mut self.scratch);
        blend(class, &mut self.k, &self.reference, &self.scratch);
    }

    fn run(&mut self) {
        let k = black_box(self.k);
        black_box(tessera_x25519::testing::x25519_with_backend(
            self.be, k, self.u,
        ));
        black_box(leaky_eq(&k, &self.reference));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every target of the xtask list is an operation of this file, named `operation:backend`.
    #[test]
    fn targets_parse() {
        for t in TARGETS {
            let (op, be) = t.rsplit_once(':').expect("operation:backend");
            assert!(OPERATIONS.iter().any(|(o, _)| *o == op), "{t}");
            assert!(!be.is_empty());
        }
        assert!(matches!(lookup("nonsense"), Lookup::Unknown));
        assert!(matches!(
            lookup("x25519:no_such_backend"),
            Lookup::Absent(_)
        ));
        assert!(matches!(lookup("x25519:portable"), Lookup::Ready(_)));
    }
}
