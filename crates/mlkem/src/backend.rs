//! The backend table: one row per backend, naming its capability token and its
//! [`Unit`](crate::unit::Unit) type. `tessera_cpu::backends!` generates the enum and its one
//! dispatch, [`Backend::run`], which runs a [`KemOp`] on the row's unit inside that row's
//! target-feature island (the operations themselves are in `crate::ops`).
// Only the SIMD backend files may hold `unsafe` (pointer loads and stores); the portable one
// forbids it itself.
#![allow(unsafe_code)]

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use tessera_cpu::wipe_wide;

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64_neon;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_avx2;

use crate::unit::KemOp;
use tessera_keccak::X1Backend;

tessera_cpu::backends! {
    /// The ML-KEM backends. Chosen when a key is built (`from_seed`, `from_bytes`, ...) and kept
    /// in the key. Public only for tests and benches (`#[doc(hidden)]`, not a stable API).
    pub enum Backend {
        /// Plain Rust (i16/i32), portable Keccak.
        Portable = "portable" => portable::P16,
        /// AVX2: 16 x i16 per ymm register, x4 Keccak (AVX2) for the samplers.
        #[cfg(target_arch = "x86_64")]
        X86Avx2(X86Avx2) = "x86_avx2" => x86_avx2::V,
        /// NEON: a unit is two registers of 8 x i16, x4 Keccak (NEON, two x2) for the samplers.
        #[cfg(target_arch = "aarch64")]
        Aarch64Neon(Aarch64Neon) = "aarch64_neon" => aarch64_neon::V,
    }
    /// Runs an ML-KEM operation on this backend's unit, inside its target-feature island.
    pub(crate) fn run: KemOp;
}

impl Backend {
    /// The single-state Keccak backend this ML-KEM backend hashes with (G, H, J, PRF): the
    /// portable one for `Portable`, the best available one otherwise.
    #[inline]
    pub(crate) fn keccak_x1(self) -> X1Backend {
        match self {
            Backend::Portable => X1Backend::Portable,
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            _ => X1Backend::detect(),
        }
    }
}
