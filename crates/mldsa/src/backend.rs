//! Backend table and dispatch: each public ML-DSA operation calls the generic code
//! (`crate::dsa`) instantiated with the backend's [`Unit`](crate::unit::Unit) and the Keccak
//! backends ([`Hashes`]) the ML-DSA backend hashes with, inside one target-feature island for
//! SIMD polynomial backends.
//!
//! `aarch64_neon` runs its own polynomial layer (two `int32x4_t` per unit, bit-identical to
//! portable) in islands written in its file, and hashes on tessera-keccak's four-way Keccak
//! for the samplers (the SHA3 extension where the CPU has it, else two NEON x2 permutations;
//! one dispatch per permutation of four states) and the detected single-state Keccak
//! (`aarch64_sha3` where it exists) for the other hashes.
//!
//! `x86_avx2` runs the portable polynomial layer ([`P8`]) so far and differs in Keccak: it
//! hashes on tessera-keccak's fast paths, four-way SHAKE for ExpandA, ExpandS and ExpandMask
//! (AVX-512 F+VL when the CPU has it, else AVX2, through the safe
//! [`X4Backend::f1600_x4`](tessera_keccak::X4Backend::f1600_x4), one dispatch per permutation
//! of four states) and the detected single-state Keccak (`x86_bmi` where BMI1/2 exist) for H,
//! SampleInBall and a lone polynomial. `portable` (and everything under
//! `TESSERA_FORCE_BACKEND=portable` or `--cfg tessera_backend="portable"`) hashes on portable
//! Keccak everywhere, one SHAKE at a time as FIPS 204 writes the samplers. The AVX2 polynomial
//! layer will take the `x86_avx2` row over without changing its name.
// Only the SIMD backend files may hold `unsafe` (pointer loads and stores); the portable one
// forbids it itself.
#![allow(unsafe_code)]

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64_neon;
pub(crate) mod portable;

use crate::dsa::{self, Hashes, Params, SkState, VkState};
use portable::P8;
use tessera_keccak::X1Backend;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use tessera_keccak::X4Backend;

tessera_cpu::backends! {
    /// The ML-DSA backends. Chosen when a key is built (`from_seed`, `from_bytes`, ...) and kept
    /// in the key. Public only for tests and benches (`#[doc(hidden)]`, not a stable API).
    pub enum Backend {
        /// Plain Rust (i32/i64), portable Keccak.
        Portable = "portable",
        /// Portable polynomial layer (for now); four-way Keccak (AVX-512 F+VL, else AVX2) for
        /// the samplers and the detected single-state Keccak for the other hashes.
        #[cfg(target_arch = "x86_64")]
        X86Avx2(X86Avx2) = "x86_avx2",
        /// NEON: a unit is two registers of 4 x i32; four-way Keccak (SHA3 extension, else
        /// NEON) for the samplers and the detected single-state Keccak for the other hashes.
        #[cfg(target_arch = "aarch64")]
        Aarch64Neon(Aarch64Neon) = "aarch64_neon",
    }
}

impl Backend {
    /// The Keccak backends this ML-DSA backend hashes with (portable ML-DSA: portable Keccak
    /// only). Decided once per public operation, never per block.
    fn hashes(self) -> Hashes {
        match self {
            Backend::Portable => Hashes {
                x1: X1Backend::Portable,
                x4: None,
            },
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => Hashes {
                x1: X1Backend::detect(),
                x4: Some(
                    tessera_cpu::X86Avx512::detect()
                        .map_or(X4Backend::X86Avx2(t), X4Backend::X86Avx512),
                ),
            },
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => Hashes {
                x1: X1Backend::detect(),
                x4: Some(
                    tessera_cpu::Aarch64Sha3::detect()
                        .map_or(X4Backend::Aarch64Neon(t), X4Backend::Aarch64Sha3),
                ),
            },
        }
    }

    /// H (SHAKE256) of the concatenation of `parts` on this backend's Keccak.
    pub(crate) fn h(self, parts: &[&[u8]], out: &mut [u8]) {
        dsa::h(self.hashes().x1, parts, out)
    }

    /// ML-DSA.KeyGen_internal (see [`dsa::keygen`]).
    pub(crate) fn keygen<P: Params, const K: usize, const L: usize>(
        self,
        xi: &[u8; 32],
        pk: &mut [u8],
        sk_bytes: &mut [u8],
        vk: &mut VkState<K, L>,
        sk: &mut SkState<K, L>,
    ) {
        let hs = self.hashes();
        match self {
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => {
                aarch64_neon::keygen::<P, K, L>(t, hs, xi, pk, sk_bytes, vk, sk)
            }
            // Portable, and x86_avx2's polynomial layer (portable so far, see the module docs).
            _ => dsa::keygen::<P8, P, K, L>((), hs, xi, pk, sk_bytes, vk, sk),
        }
    }

    /// pkDecode and expansion (see [`dsa::parse_pk`]).
    pub(crate) fn parse_pk<const K: usize, const L: usize>(
        self,
        pk: &[u8],
        vk: &mut VkState<K, L>,
    ) {
        let hs = self.hashes();
        match self {
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::parse_pk::<K, L>(t, hs, pk, vk),
            // Portable, and x86_avx2's polynomial layer (portable so far, see the module docs).
            _ => dsa::parse_pk::<P8, K, L>((), hs, pk, vk),
        }
    }

    /// skDecode with its checks (see [`dsa::parse_sk`]).
    pub(crate) fn parse_sk<P: Params, const K: usize, const L: usize>(
        self,
        sk_bytes: &[u8],
        pk: &mut [u8],
        vk: &mut VkState<K, L>,
        sk: &mut SkState<K, L>,
    ) -> bool {
        let hs = self.hashes();
        match self {
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => {
                aarch64_neon::parse_sk::<P, K, L>(t, hs, sk_bytes, pk, vk, sk)
            }
            // Portable, and x86_avx2's polynomial layer (portable so far, see the module docs).
            _ => dsa::parse_sk::<P8, P, K, L>((), hs, sk_bytes, pk, vk, sk),
        }
    }

    /// ML-DSA.Sign_internal from mu (see [`dsa::sign`]).
    pub(crate) fn sign<P: Params, const K: usize, const L: usize>(
        self,
        vk: &VkState<K, L>,
        sk: &SkState<K, L>,
        mu: &[u8; 64],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> bool {
        let hs = self.hashes();
        match self {
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::sign::<P, K, L>(t, hs, vk, sk, mu, rnd, sig),
            // Portable, and x86_avx2's polynomial layer (portable so far, see the module docs).
            _ => dsa::sign::<P8, P, K, L>((), hs, vk, sk, mu, rnd, sig),
        }
    }

    /// ML-DSA.Verify_internal from mu (see [`dsa::verify`]).
    pub(crate) fn verify<P: Params, const K: usize, const L: usize>(
        self,
        vk: &VkState<K, L>,
        mu: &[u8; 64],
        sig: &[u8],
    ) -> bool {
        let hs = self.hashes();
        match self {
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::verify::<P, K, L>(t, hs, vk, mu, sig),
            // Portable, and x86_avx2's polynomial layer (portable so far, see the module docs).
            _ => dsa::verify::<P8, P, K, L>((), hs, vk, mu, sig),
        }
    }

    /// One vector-trait operation over a polynomial (equivalence tests).
    #[cfg(tessera_test_hooks)]
    pub(crate) fn run_op(
        self,
        op: crate::testing::Op,
        a: &crate::poly::Poly,
        b: &crate::poly::Poly,
        bytes: &[u8],
        out: &mut crate::testing::OpOut,
    ) {
        match self {
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::run_op(t, op, a, b, bytes, out),
            // Portable, and x86_avx2's polynomial layer (portable so far, see the module docs).
            _ => crate::testing::apply::<P8>((), op, a, b, bytes, out),
        }
    }
}
