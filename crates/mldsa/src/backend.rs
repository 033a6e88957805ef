//! Backend table and dispatch: one row per backend naming its [`Unit`] type, and the one
//! operation trait ([`DsaOp`]) whose `run::<Unit>` the generated [`Backend::run`] calls inside
//! the row's target-feature island (the portable row calls it directly). The operations are in
//! `crate::ops`; a unit also names the Keccak backends it hashes with ([`Unit::hashes`]).
//!
//! `x86_avx2` runs the AVX2 polynomial layer (`x86_avx2::V`, 8 x i32 per ymm register,
//! bit-identical to portable) and hashes on tessera-keccak's fast paths: four-way SHAKE for
//! ExpandA, ExpandS and ExpandMask (AVX-512 F+VL when the CPU has it, else AVX2, through the
//! safe [`X4Backend::f1600_x4`](tessera_keccak::X4Backend::f1600_x4), one dispatch per
//! permutation of four states) and the detected single-state Keccak (`x86_bmi` where BMI1/2
//! exist) for H, SampleInBall and a lone polynomial.
//!
//! `aarch64_neon` runs its own polynomial layer (two `int32x4_t` per unit, bit-identical to
//! portable) in its row's island, and hashes on tessera-keccak's four-way Keccak
//! for the samplers (the SHA3 extension where the CPU has it, else two NEON x2 permutations)
//! and the detected single-state Keccak (`aarch64_sha3` where it exists) for the other hashes.
//!
//! `portable` (and everything under `TESSERA_FORCE_BACKEND=portable` or
//! `--cfg tessera_backend="portable"`) runs the portable polynomial layer (`P8`) and hashes
//! on portable Keccak everywhere, one SHAKE at a time as FIPS 204 writes the samplers.
// Only the SIMD backend files may hold `unsafe` (pointer loads and stores); the portable one
// forbids it itself.
#![allow(unsafe_code)]

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64_neon;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_avx2;

#[cfg(target_arch = "aarch64")]
use aarch64_neon::V as NeonV;
use portable::P8;
#[cfg(target_arch = "x86_64")]
use x86_avx2::V as Avx2V;

use crate::unit::Unit;

tessera_cpu::backends! {
    /// The ML-DSA backends. Chosen when a key is built (`from_seed`, `from_bytes`, ...) and kept
    /// in the key. Public only for tests and benches (`#[doc(hidden)]` `crate::testing::Backend`,
    /// not a stable API).
    pub enum Backend {
        /// Plain Rust (i32/i64), portable Keccak.
        Portable = "portable" => P8,
        /// AVX2: 8 x i32 per ymm register; four-way Keccak (AVX-512 F+VL, else AVX2) for the
        /// samplers and the detected single-state Keccak for the other hashes.
        #[cfg(target_arch = "x86_64")]
        X86Avx2(X86Avx2) = "x86_avx2" => Avx2V,
        /// NEON: a unit is two registers of 4 x i32; four-way Keccak (SHA3 extension, else
        /// NEON) for the samplers and the detected single-state Keccak for the other hashes.
        #[cfg(target_arch = "aarch64")]
        Aarch64Neon(Aarch64Neon) = "aarch64_neon" => NeonV,
    }
    /// Runs an operation on this backend (in its row's island).
    pub(crate) fn run: DsaOp;
}

/// An ML-DSA operation: generic code over the row's [`Unit`], run by [`Backend::run`] inside
/// the row's target-feature island. Implementations are small structs holding the arguments,
/// with an `#[inline(always)]` `run` (`crate::ops`, and the equivalence tests' operation in
/// `crate::testing`).
pub(crate) trait DsaOp {
    /// What the operation returns.
    type Out;
    /// Runs the operation on unit type `U`, whose instructions `t` proves.
    fn run<U: Unit>(self, t: U::Token) -> Self::Out;
}
