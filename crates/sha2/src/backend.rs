//! Backend selection. SHA-224/256 and SHA-384/512 have their own backend sets; each hasher
//! picks one when it is created ([`B256::detect`], [`B512::detect`]) and keeps it.

use crate::engine::Family;

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64_sha2;
#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64_sha3;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_shani;

/// A SHA-2 backend, carrying the capability token that proves it can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// Plain Rust (SHA-224/256 and SHA-384/512).
    Portable,
    /// x86_64 SHA extensions (SHA-224/256).
    #[cfg(target_arch = "x86_64")]
    X86ShaNi(tessera_cpu::X86ShaNi),
    /// x86_64 AVX2 + BMI1/BMI2 (SHA-384/512: vector message schedule, RORX rounds); needs
    /// both tokens.
    #[cfg(target_arch = "x86_64")]
    X86Avx2(tessera_cpu::X86Avx2, tessera_cpu::X86Bmi),
    /// aarch64 SHA-256 extension (SHA-224/256).
    #[cfg(target_arch = "aarch64")]
    Aarch64Sha2(tessera_cpu::Aarch64Sha2),
    /// aarch64 SHA-512 extension (SHA-384/512; part of the `Aarch64Sha3` token).
    #[cfg(target_arch = "aarch64")]
    Aarch64Sha3(tessera_cpu::Aarch64Sha3),
}

impl Backend {
    /// Every backend name this crate can have on any CPU.
    #[doc(hidden)]
    pub const KNOWN: &'static [&'static str] = &[
        "portable",
        "x86_shani",
        "x86_avx2",
        "aarch64_sha2",
        "aarch64_sha3",
    ];

    /// Every backend this CPU can run (portable first), for tests and benches (not a stable
    /// API).
    #[doc(hidden)]
    pub fn all_available() -> impl Iterator<Item = Backend> {
        #[cfg(target_arch = "x86_64")]
        let x86 = [
            tessera_cpu::X86ShaNi::detect().map(Backend::X86ShaNi),
            tessera_cpu::X86Avx2::detect()
                .zip(tessera_cpu::X86Bmi::detect())
                .map(|(a, b)| Backend::X86Avx2(a, b)),
        ];
        #[cfg(target_arch = "aarch64")]
        let arm = [
            tessera_cpu::Aarch64Sha2::detect().map(Backend::Aarch64Sha2),
            tessera_cpu::Aarch64Sha3::detect().map(Backend::Aarch64Sha3),
        ];
        #[cfg(not(target_arch = "x86_64"))]
        let x86: [Option<Backend>; 0] = [];
        #[cfg(not(target_arch = "aarch64"))]
        let arm: [Option<Backend>; 0] = [];
        [Some(Backend::Portable)]
            .into_iter()
            .chain(x86)
            .chain(arm)
            .flatten()
    }

    /// The backend SHA-224/256 hashers created now would use.
    pub fn detect_sha256() -> Self {
        B256::detect().into()
    }

    /// The backend SHA-384/512 hashers created now would use.
    pub fn detect_sha512() -> Self {
        B512::detect().into()
    }

    /// The backend's stable name (`portable`, `x86_shani`, `x86_avx2`, `aarch64_sha2`,
    /// `aarch64_sha3`).
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Backend::X86ShaNi(_) => "x86_shani",
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(..) => "x86_avx2",
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Sha2(_) => "aarch64_sha2",
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Sha3(_) => "aarch64_sha3",
        }
    }

    /// Whether this backend implements SHA-224/256.
    pub fn supports_sha256(&self) -> bool {
        B256::try_from(*self).is_ok()
    }

    /// Whether this backend implements SHA-384/512.
    pub fn supports_sha512(&self) -> bool {
        B512::try_from(*self).is_ok()
    }
}

/// Backends of the SHA-256 block function.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum B256 {
    Portable,
    #[cfg(target_arch = "x86_64")]
    X86ShaNi(tessera_cpu::X86ShaNi),
    #[cfg(target_arch = "aarch64")]
    Aarch64Sha2(tessera_cpu::Aarch64Sha2),
}

impl B256 {
    #[inline]
    pub(crate) fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = tessera_cpu::X86ShaNi::detect() {
            return B256::X86ShaNi(t);
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(t) = tessera_cpu::Aarch64Sha2::detect() {
            return B256::Aarch64Sha2(t);
        }
        B256::Portable
    }
}

impl From<B256> for Backend {
    fn from(b: B256) -> Backend {
        match b {
            B256::Portable => Backend::Portable,
            #[cfg(target_arch = "x86_64")]
            B256::X86ShaNi(t) => Backend::X86ShaNi(t),
            #[cfg(target_arch = "aarch64")]
            B256::Aarch64Sha2(t) => Backend::Aarch64Sha2(t),
        }
    }
}

impl TryFrom<Backend> for B256 {
    type Error = crate::Error;
    fn try_from(b: Backend) -> Result<B256, crate::Error> {
        match b {
            Backend::Portable => Ok(B256::Portable),
            #[cfg(target_arch = "x86_64")]
            Backend::X86ShaNi(t) => Ok(B256::X86ShaNi(t)),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Sha2(t) => Ok(B256::Aarch64Sha2(t)),
            #[allow(unreachable_patterns)]
            _ => Err(crate::Error::UnsupportedBackend),
        }
    }
}

impl Family for B256 {
    type Word = u32;
    type Block = [u8; 64];
    const BLOCK: usize = 64;
    const LEN_BYTES: usize = 8;
    const ZERO: [u8; 64] = [0; 64];
    type Tail = [u8; 128];
    const ZERO_TAIL: [u8; 128] = [0; 128];

    fn into_backend(self) -> Backend {
        self.into()
    }
    fn try_from_backend(b: Backend) -> Result<Self, crate::Error> {
        b.try_into()
    }

    #[inline]
    fn compress(self, state: &mut [u32; 8], blocks: &[u8]) {
        match self {
            B256::Portable => portable::compress256(state, blocks),
            #[cfg(target_arch = "x86_64")]
            B256::X86ShaNi(t) => x86_shani::compress(t, state, blocks),
            #[cfg(target_arch = "aarch64")]
            B256::Aarch64Sha2(t) => aarch64_sha2::compress(t, state, blocks),
        }
    }

    #[inline]
    fn compress_secret(self, state: &mut [u32; 8], blocks: &[u8]) {
        match self {
            B256::Portable => portable::compress256_secret(state, blocks),
            #[cfg(target_arch = "x86_64")]
            B256::X86ShaNi(t) => x86_shani::compress_secret(t, state, blocks),
            #[cfg(target_arch = "aarch64")]
            B256::Aarch64Sha2(t) => aarch64_sha2::compress_secret(t, state, blocks),
        }
    }

    #[inline]
    fn oneshot(self, state: &mut [u32; 8], data: &[u8], prefix: u64) {
        match self {
            B256::Portable => portable::ops::oneshot256(state, data, prefix),
            #[cfg(target_arch = "x86_64")]
            B256::X86ShaNi(t) => x86_shani::oneshot(t, state, data, prefix),
            #[cfg(target_arch = "aarch64")]
            B256::Aarch64Sha2(t) => aarch64_sha2::oneshot(t, state, data, prefix),
        }
    }

    #[inline]
    fn hmac(self, ipad: &[u32; 8], opad: &[u32; 8], msg: &[u8], words: usize, out: &mut [u32; 8]) {
        match self {
            B256::Portable => portable::ops::hmac256(ipad, opad, msg, words, out),
            #[cfg(target_arch = "x86_64")]
            B256::X86ShaNi(t) => x86_shani::hmac(t, ipad, opad, msg, words, out),
            #[cfg(target_arch = "aarch64")]
            B256::Aarch64Sha2(t) => aarch64_sha2::hmac(t, ipad, opad, msg, words, out),
        }
    }
}

/// Backends of the SHA-512 block function.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum B512 {
    Portable,
    #[cfg(target_arch = "x86_64")]
    X86Avx2(x86_avx2::Token),
    #[cfg(target_arch = "aarch64")]
    Aarch64Sha3(tessera_cpu::Aarch64Sha3),
}

impl B512 {
    #[inline]
    pub(crate) fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        if let (Some(a), Some(b)) = (
            tessera_cpu::X86Avx2::detect(),
            tessera_cpu::X86Bmi::detect(),
        ) {
            return B512::X86Avx2((a, b));
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(t) = tessera_cpu::Aarch64Sha3::detect() {
            return B512::Aarch64Sha3(t);
        }
        B512::Portable
    }
}

impl From<B512> for Backend {
    fn from(b: B512) -> Backend {
        match b {
            B512::Portable => Backend::Portable,
            #[cfg(target_arch = "x86_64")]
            B512::X86Avx2((a, b)) => Backend::X86Avx2(a, b),
            #[cfg(target_arch = "aarch64")]
            B512::Aarch64Sha3(t) => Backend::Aarch64Sha3(t),
        }
    }
}

impl TryFrom<Backend> for B512 {
    type Error = crate::Error;
    fn try_from(b: Backend) -> Result<B512, crate::Error> {
        match b {
            Backend::Portable => Ok(B512::Portable),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(a, b) => Ok(B512::X86Avx2((a, b))),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Sha3(t) => Ok(B512::Aarch64Sha3(t)),
            #[allow(unreachable_patterns)]
            _ => Err(crate::Error::UnsupportedBackend),
        }
    }
}

impl Family for B512 {
    type Word = u64;
    type Block = [u8; 128];
    const BLOCK: usize = 128;
    const LEN_BYTES: usize = 16;
    const ZERO: [u8; 128] = [0; 128];
    type Tail = [u8; 256];
    const ZERO_TAIL: [u8; 256] = [0; 256];

    fn into_backend(self) -> Backend {
        self.into()
    }
    fn try_from_backend(b: Backend) -> Result<Self, crate::Error> {
        b.try_into()
    }

    #[inline]
    fn compress(self, state: &mut [u64; 8], blocks: &[u8]) {
        match self {
            B512::Portable => portable::compress512(state, blocks),
            #[cfg(target_arch = "x86_64")]
            B512::X86Avx2(t) => x86_avx2::compress(t, state, blocks),
            #[cfg(target_arch = "aarch64")]
            B512::Aarch64Sha3(t) => aarch64_sha3::compress(t, state, blocks),
        }
    }

    #[inline]
    fn compress_secret(self, state: &mut [u64; 8], blocks: &[u8]) {
        match self {
            B512::Portable => portable::compress512_secret(state, blocks),
            #[cfg(target_arch = "x86_64")]
            B512::X86Avx2(t) => x86_avx2::compress_secret(t, state, blocks),
            #[cfg(target_arch = "aarch64")]
            B512::Aarch64Sha3(t) => aarch64_sha3::compress_secret(t, state, blocks),
        }
    }

    #[inline]
    fn oneshot(self, state: &mut [u64; 8], data: &[u8], prefix: u64) {
        match self {
            B512::Portable => portable::ops::oneshot512(state, data, prefix),
            #[cfg(target_arch = "x86_64")]
            B512::X86Avx2(t) => x86_avx2::oneshot(t, state, data, prefix),
            #[cfg(target_arch = "aarch64")]
            B512::Aarch64Sha3(t) => aarch64_sha3::oneshot(t, state, data, prefix),
        }
    }

    #[inline]
    fn hmac(self, ipad: &[u64; 8], opad: &[u64; 8], msg: &[u8], words: usize, out: &mut [u64; 8]) {
        match self {
            B512::Portable => portable::ops::hmac512(ipad, opad, msg, words, out),
            #[cfg(target_arch = "x86_64")]
            B512::X86Avx2(t) => x86_avx2::hmac(t, ipad, opad, msg, words, out),
            #[cfg(target_arch = "aarch64")]
            B512::Aarch64Sha3(t) => aarch64_sha3::hmac(t, ipad, opad, msg, words, out),
        }
    }
}
