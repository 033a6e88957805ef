//! Backend table and dispatch: each public ML-DSA operation calls the generic code
//! (`crate::dsa`) instantiated with the backend's [`Unit`](crate::unit::Unit) and the Keccak
//! backends ([`Hashes`]) the ML-DSA backend hashes with, inside one target-feature island per
//! public operation for SIMD backends.
//!
//! `x86_avx2` runs the AVX2 polynomial layer (`x86_avx2::V`, 8 x i32 per ymm register,
//! bit-identical to portable) and hashes on tessera-keccak's fast paths: four-way SHAKE for
//! ExpandA, ExpandS and ExpandMask (AVX-512 F+VL when the CPU has it, else AVX2, through the
//! safe [`X4Backend::f1600_x4`](tessera_keccak::X4Backend::f1600_x4), one dispatch per
//! permutation of four states) and the detected single-state Keccak (`x86_bmi` where BMI1/2
//! exist) for H, SampleInBall and a lone polynomial.
//!
//! `aarch64_neon` runs its own polynomial layer (two `int32x4_t` per unit, bit-identical to
//! portable) in the same islands (`dsa_islands!`), and hashes on tessera-keccak's four-way Keccak
//! for the samplers (the SHA3 extension where the CPU has it, else two NEON x2 permutations)
//! and the detected single-state Keccak (`aarch64_sha3` where it exists) for the other hashes.
//!
//! `portable` (and everything under `TESSERA_FORCE_BACKEND=portable` or
//! `--cfg tessera_backend="portable"`) runs the portable polynomial layer ([`P8`]) and hashes
//! on portable Keccak everywhere, one SHAKE at a time as FIPS 204 writes the samplers.
// Only the SIMD backend files may hold `unsafe` (pointer loads and stores); the portable one
// forbids it itself.
#![allow(unsafe_code)]

/// The islands every SIMD backend file compiles for its token `$tok` and unit type `$unit`
/// (`$what` names the backend in their docs): the NTT and inverse NTT (`$ntt` and `$invntt`,
/// `fn(token, &mut Poly)`: `crate::poly::ntt::<Unit>` or a backend's own; compiled once,
/// called from the other islands through [`Unit::ntt_poly`](crate::unit::Unit::ntt_poly)), the
/// ML-DSA operations the dispatch in this file calls, and the per-operation island of the
/// equivalence tests. Written once here so the backends differ only in their units.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! dsa_islands {
    ($tok:ident, $unit:ty, $what:literal, $ntt:path, $invntt:path) => {
        tessera_cpu::island! {
            #[doc = concat!("The NTT on ", $what, " units, compiled once (called from this backend's islands).")]
            fn ntt_poly(t: $tok, p: &mut $crate::poly::Poly) {
                $ntt(t, p)
            }
        }

        tessera_cpu::island! {
            #[doc = concat!("The inverse NTT on ", $what, " units, compiled once.")]
            fn invntt_poly(t: $tok, p: &mut $crate::poly::Poly) {
                $invntt(t, p)
            }
        }

        tessera_cpu::island! {
            #[doc = concat!("ML-DSA.KeyGen_internal on ", $what, " (see `dsa::keygen`).")]
            pub(crate) fn keygen<P: $crate::dsa::Params, const K: usize, const L: usize>(
                t: $tok,
                hs: $crate::dsa::Hashes,
                xi: &[u8; 32],
                pk: &mut [u8],
                sk_bytes: &mut [u8],
                vk: &mut $crate::dsa::VkState<K, L>,
                sk: &mut $crate::dsa::SkState<K, L>,
            ) {
                $crate::dsa::keygen::<$unit, P, K, L>(t, hs, xi, pk, sk_bytes, vk, sk)
            }
        }

        tessera_cpu::island! {
            #[doc = concat!("pkDecode and expansion on ", $what, " (see `dsa::parse_pk`).")]
            pub(crate) fn parse_pk<const K: usize, const L: usize>(
                t: $tok,
                hs: $crate::dsa::Hashes,
                pk: &[u8],
                vk: &mut $crate::dsa::VkState<K, L>,
            ) {
                $crate::dsa::parse_pk::<$unit, K, L>(t, hs, pk, vk)
            }
        }

        tessera_cpu::island! {
            #[doc = concat!("skDecode with its checks on ", $what, " (see `dsa::parse_sk`).")]
            pub(crate) fn parse_sk<P: $crate::dsa::Params, const K: usize, const L: usize>(
                t: $tok,
                hs: $crate::dsa::Hashes,
                sk_bytes: &[u8],
                pk: &mut [u8],
                vk: &mut $crate::dsa::VkState<K, L>,
                sk: &mut $crate::dsa::SkState<K, L>,
            ) -> bool {
                $crate::dsa::parse_sk::<$unit, P, K, L>(t, hs, sk_bytes, pk, vk, sk)
            }
        }

        tessera_cpu::island! {
            #[doc = concat!("ML-DSA.Sign_internal from mu on ", $what, " (see `dsa::sign`).")]
            pub(crate) fn sign<P: $crate::dsa::Params, const K: usize, const L: usize>(
                t: $tok,
                hs: $crate::dsa::Hashes,
                vk: &$crate::dsa::VkState<K, L>,
                sk: &$crate::dsa::SkState<K, L>,
                mu: &[u8; 64],
                rnd: &[u8; 32],
                sig: &mut [u8],
            ) -> bool {
                $crate::dsa::sign::<$unit, P, K, L>(t, hs, vk, sk, mu, rnd, sig)
            }
        }

        tessera_cpu::island! {
            #[doc = concat!("ML-DSA.Verify_internal from mu on ", $what, " (see `dsa::verify`).")]
            pub(crate) fn verify<P: $crate::dsa::Params, const K: usize, const L: usize>(
                t: $tok,
                hs: $crate::dsa::Hashes,
                vk: &$crate::dsa::VkState<K, L>,
                mu: &[u8; 64],
                sig: &[u8],
            ) -> bool {
                $crate::dsa::verify::<$unit, P, K, L>(t, hs, vk, mu, sig)
            }
        }

        #[cfg(tessera_test_hooks)]
        tessera_cpu::island! {
            #[doc = concat!("One vector-trait operation over a polynomial on ", $what, " (equivalence tests).")]
            pub(crate) fn run_op(
                t: $tok,
                op: $crate::testing::Op,
                a: &$crate::poly::Poly,
                b: &$crate::poly::Poly,
                bytes: &[u8],
                out: &mut $crate::testing::OpOut,
            ) {
                $crate::testing::apply::<$unit>(t, op, a, b, bytes, out)
            }
        }
    };
}

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64_neon;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_avx2;

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
        /// AVX2: 8 x i32 per ymm register; four-way Keccak (AVX-512 F+VL, else AVX2) for the
        /// samplers and the detected single-state Keccak for the other hashes.
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
            Backend::Portable => dsa::keygen::<P8, P, K, L>((), hs, xi, pk, sk_bytes, vk, sk),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::keygen::<P, K, L>(t, hs, xi, pk, sk_bytes, vk, sk),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => {
                aarch64_neon::keygen::<P, K, L>(t, hs, xi, pk, sk_bytes, vk, sk)
            }
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
            Backend::Portable => dsa::parse_pk::<P8, K, L>((), hs, pk, vk),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::parse_pk::<K, L>(t, hs, pk, vk),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::parse_pk::<K, L>(t, hs, pk, vk),
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
            Backend::Portable => dsa::parse_sk::<P8, P, K, L>((), hs, sk_bytes, pk, vk, sk),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::parse_sk::<P, K, L>(t, hs, sk_bytes, pk, vk, sk),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => {
                aarch64_neon::parse_sk::<P, K, L>(t, hs, sk_bytes, pk, vk, sk)
            }
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
            Backend::Portable => dsa::sign::<P8, P, K, L>((), hs, vk, sk, mu, rnd, sig),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::sign::<P, K, L>(t, hs, vk, sk, mu, rnd, sig),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::sign::<P, K, L>(t, hs, vk, sk, mu, rnd, sig),
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
            Backend::Portable => dsa::verify::<P8, P, K, L>((), hs, vk, mu, sig),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::verify::<P, K, L>(t, hs, vk, mu, sig),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::verify::<P, K, L>(t, hs, vk, mu, sig),
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
            Backend::Portable => crate::testing::apply::<P8>((), op, a, b, bytes, out),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::run_op(t, op, a, b, bytes, out),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::run_op(t, op, a, b, bytes, out),
        }
    }
}
