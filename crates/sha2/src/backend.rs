//! The backend tables. SHA-224/256 and SHA-384/512 have one table each; a hasher picks a row
//! when it is created ([`Sha256Backend::detect`], [`Sha512Backend::detect`]) and keeps it.
//!
//! Each ISA file compiles its operations as `tessera_cpu::island!`s taking the row's
//! capability token; the dispatch below is plain safe code.

use crate::engine::Family;

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
        Portable = "portable",
        /// x86_64 SHA extensions (SHA256RNDS2/MSG1/MSG2).
        #[cfg(target_arch = "x86_64")]
        X86ShaNi(X86ShaNi) = "x86_shani",
        /// aarch64 SHA-256 extension (SHA256H/H2/SU0/SU1).
        #[cfg(target_arch = "aarch64")]
        Aarch64Sha2(Aarch64Sha2) = "aarch64_sha2",
    }
}

tessera_cpu::backends! {
    /// The SHA-384/512 backends (for tests and benches; not a stable API).
    pub enum Sha512Backend {
        /// Plain Rust.
        Portable = "portable",
        /// x86_64 AVX2 message schedule with BMI1/BMI2 (RORX) rounds.
        #[cfg(target_arch = "x86_64")]
        X86Avx2Bmi(X86Avx2Bmi) = "x86_avx2_bmi",
        /// aarch64 SHA-512 extension (SHA512H/H2/SU0/SU1; part of the `Aarch64Sha3` token).
        #[cfg(target_arch = "aarch64")]
        Aarch64Sha3(Aarch64Sha3) = "aarch64_sha3",
    }
}

impl Family for Sha256Backend {
    type Word = u32;
    type Block = [u8; 64];
    const BLOCK: usize = 64;
    const LEN_BYTES: usize = 8;
    const ZERO: [u8; 64] = [0; 64];
    type Tail = [u8; 128];
    const ZERO_TAIL: [u8; 128] = [0; 128];

    #[inline]
    fn compress(self, state: &mut [u32; 8], blocks: &[u8]) {
        match self {
            Self::Portable => portable::compress256(state, blocks),
            #[cfg(target_arch = "x86_64")]
            Self::X86ShaNi(t) => x86_shani::compress(t, state, blocks),
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64Sha2(t) => aarch64_sha2::compress(t, state, blocks),
        }
    }

    #[inline]
    fn compress_secret(self, state: &mut [u32; 8], blocks: &[u8]) {
        match self {
            Self::Portable => portable::compress256_secret(state, blocks),
            // The schedule stays in vector registers: no stack array to wipe.
            #[cfg(target_arch = "x86_64")]
            Self::X86ShaNi(t) => x86_shani::compress(t, state, blocks),
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64Sha2(t) => aarch64_sha2::compress(t, state, blocks),
        }
    }

    #[inline]
    fn oneshot(self, state: &mut [u32; 8], data: &[u8], prefix: u64) {
        match self {
            Self::Portable => portable::oneshot256(state, data, prefix),
            #[cfg(target_arch = "x86_64")]
            Self::X86ShaNi(t) => x86_shani::oneshot(t, state, data, prefix),
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64Sha2(t) => aarch64_sha2::oneshot(t, state, data, prefix),
        }
    }

    #[inline]
    fn hmac(self, ipad: &[u32; 8], opad: &[u32; 8], msg: &[u8], words: usize, out: &mut [u32; 8]) {
        match self {
            Self::Portable => portable::hmac256(ipad, opad, msg, words, out),
            #[cfg(target_arch = "x86_64")]
            Self::X86ShaNi(t) => x86_shani::hmac(t, ipad, opad, msg, words, out),
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64Sha2(t) => aarch64_sha2::hmac(t, ipad, opad, msg, words, out),
        }
    }
}

impl Family for Sha512Backend {
    type Word = u64;
    type Block = [u8; 128];
    const BLOCK: usize = 128;
    const LEN_BYTES: usize = 16;
    const ZERO: [u8; 128] = [0; 128];
    type Tail = [u8; 256];
    const ZERO_TAIL: [u8; 256] = [0; 256];

    #[inline]
    fn compress(self, state: &mut [u64; 8], blocks: &[u8]) {
        match self {
            Self::Portable => portable::compress512(state, blocks),
            #[cfg(target_arch = "x86_64")]
            Self::X86Avx2Bmi(t) => x86_avx2_bmi::compress(t, state, blocks),
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64Sha3(t) => aarch64_sha3::compress(t, state, blocks),
        }
    }

    #[inline]
    fn compress_secret(self, state: &mut [u64; 8], blocks: &[u8]) {
        match self {
            Self::Portable => portable::compress512_secret(state, blocks),
            #[cfg(target_arch = "x86_64")]
            Self::X86Avx2Bmi(t) => x86_avx2_bmi::compress_secret(t, state, blocks),
            // The schedule stays in vector registers: no stack array to wipe.
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64Sha3(t) => aarch64_sha3::compress(t, state, blocks),
        }
    }

    #[inline]
    fn oneshot(self, state: &mut [u64; 8], data: &[u8], prefix: u64) {
        match self {
            Self::Portable => portable::oneshot512(state, data, prefix),
            #[cfg(target_arch = "x86_64")]
            Self::X86Avx2Bmi(t) => x86_avx2_bmi::oneshot(t, state, data, prefix),
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64Sha3(t) => aarch64_sha3::oneshot(t, state, data, prefix),
        }
    }

    #[inline]
    fn hmac(self, ipad: &[u64; 8], opad: &[u64; 8], msg: &[u8], words: usize, out: &mut [u64; 8]) {
        match self {
            Self::Portable => portable::hmac512(ipad, opad, msg, words, out),
            #[cfg(target_arch = "x86_64")]
            Self::X86Avx2Bmi(t) => x86_avx2_bmi::hmac(t, ipad, opad, msg, words, out),
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64Sha3(t) => aarch64_sha3::hmac(t, ipad, opad, msg, words, out),
        }
    }
}
