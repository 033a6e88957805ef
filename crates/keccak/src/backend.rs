//! The backend tables. Two decisions, each made once when state is created: [`X1Backend`] for
//! the single-state permutation (SHA-3, SHAKE, TurboSHAKE hashers) and [`X4Backend`] for the
//! four-way permutation (`Shake128x4` and friends, and the lattice crates through the `x4`
//! module).
//!
//! Each row names its implementation type: an [`X1Perm`](crate::perm::X1Perm) or
//! [`X4Perm`](crate::perm::X4Perm) in the backend file. An operation is a struct implementing
//! [`X1Op`] or [`X4Op`]; the generated `run` is the only `match` over each table, and compiles
//! the operation into one target-feature island per row. Adding a backend is one row and one
//! file implementing the trait; adding an operation is an op struct, with no edit here.
#![allow(unsafe_code)]

use crate::perm::{X1Op, X4Op};

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64_neon;
#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64_sha3;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_avx512;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_bmi;

tessera_cpu::backends! {
    /// Backend of the single-state permutation (SHA-3, SHAKE, TurboSHAKE), decided when a
    /// hasher is created.
    pub enum X1Backend {
        /// Plain Rust.
        Portable = "portable" => portable::PortableX1,
        /// BMI1/BMI2 (ANDN, RORX) scalar code.
        #[cfg(target_arch = "x86_64")]
        X86Bmi(X86Bmi) = "x86_bmi" => x86_bmi::BmiX1,
        /// Armv8.2 SHA3 extension (EOR3, RAX1, XAR, BCAX), the state in one element of each
        /// 128-bit register.
        #[cfg(target_arch = "aarch64")]
        Aarch64Sha3(Aarch64Sha3) = "aarch64_sha3" => aarch64_sha3::Sha3X1,
    }
    /// Runs a single-state operation on this backend (in the row's island).
    pub(crate) fn run: X1Op;
}

tessera_cpu::backends! {
    /// Backend of the four-way permutation, decided when a multi-way XOF is created (or by a
    /// lattice crate, through the `x4` module).
    pub enum X4Backend {
        /// Plain Rust, one state at a time.
        Portable = "portable" => portable::PortableX4,
        /// The AVX2 code compiled for AVX-512 F+VL: the same four states in ymm lanes, with
        /// VPROLQ rotations, VPTERNLOGQ logic and 32 registers.
        #[cfg(target_arch = "x86_64")]
        X86Avx512(X86Avx512) = "x86_avx512" => x86_avx512::Avx512X4,
        /// AVX2: four independent states in the four 64-bit lanes of ymm registers.
        #[cfg(target_arch = "x86_64")]
        X86Avx2(X86Avx2) = "x86_avx2" => x86_avx2::Avx2X4,
        /// Armv8.2 SHA3 extension: as `Aarch64Neon` with EOR3, RAX1, XAR and BCAX.
        #[cfg(target_arch = "aarch64")]
        Aarch64Sha3(Aarch64Sha3) = "aarch64_sha3" => aarch64_sha3::Sha3X4,
        /// Plain NEON: two states in the two 64-bit elements of 128-bit registers (x4 = two x2).
        #[cfg(target_arch = "aarch64")]
        Aarch64Neon(Aarch64Neon) = "aarch64_neon" => aarch64_neon::NeonX4,
    }
    /// Runs a four-way operation on this backend (in the row's island).
    pub(crate) fn run: X4Op;
}
