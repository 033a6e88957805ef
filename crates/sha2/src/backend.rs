//! The backend tables. SHA-224/256 and SHA-384/512 have one table each; a hasher picks a row
//! when it is created ([`Sha256Backend::detect`], [`Sha512Backend::detect`]) and keeps it.
//!
//! Each row names its block-function type, a [`BlockFn`](crate::block::BlockFn) of the table's
//! family in the backend file. An operation is a struct implementing [`Op`]; the generated
//! `run` is the only `match` over each table and compiles the operation into one target-feature
//! island per row. Adding a backend is one row and one file implementing `BlockFn`; adding an
//! operation is an op struct, with no edit here.

use crate::block::{Op, Table};
use crate::md::{Sha256Family, Sha512Family};

#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
mod aarch64_sha2;
#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
mod aarch64_sha3;
mod portable;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86_avx2_bmi;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86_shani;

tessera_cpu::backends! {
    /// The SHA-224/256 backends (for tests and benches; not a stable API).
    pub enum Sha256Backend {
        /// Plain Rust.
        Portable = "portable" => portable::Sha256Portable,
        /// x86_64 SHA extensions (SHA256RNDS2/MSG1/MSG2).
        #[cfg(target_arch = "x86_64")]
        X86ShaNi(X86ShaNi) = "x86_shani" => x86_shani::ShaNi,
        /// aarch64 SHA-256 extension (SHA256H/H2/SU0/SU1).
        #[cfg(target_arch = "aarch64")]
        Aarch64Sha2(Aarch64Sha2) = "aarch64_sha2" => aarch64_sha2::Sha2Ext,
    }
    /// Runs a SHA-256 operation on this backend (in the row's island).
    pub(crate) fn run: Op<Sha256Family>;
}

tessera_cpu::backends! {
    /// The SHA-384/512 backends (for tests and benches; not a stable API).
    pub enum Sha512Backend {
        /// Plain Rust.
        Portable = "portable" => portable::Sha512Portable,
        /// x86_64 AVX2 message schedule with BMI1/BMI2 (RORX) rounds.
        #[cfg(target_arch = "x86_64")]
        X86Avx2Bmi(X86Avx2Bmi) = "x86_avx2_bmi" => x86_avx2_bmi::Avx2Bmi,
        /// aarch64 SHA-512 extension (SHA512H/H2/SU0/SU1; part of the `Aarch64Sha3` token).
        #[cfg(target_arch = "aarch64")]
        Aarch64Sha3(Aarch64Sha3) = "aarch64_sha3" => aarch64_sha3::Sha512Ext,
    }
    /// Runs a SHA-512 operation on this backend (in the row's island).
    pub(crate) fn run: Op<Sha512Family>;
}

impl Table for Sha256Backend {
    type Fam = Sha256Family;
    #[inline(always)]
    fn dispatch<O: Op<Sha256Family>>(self, op: O) -> O::Out {
        self.run(op)
    }
}

impl Table for Sha512Backend {
    type Fam = Sha512Family;
    #[inline(always)]
    fn dispatch<O: Op<Sha512Family>>(self, op: O) -> O::Out {
        self.run(op)
    }
}
