#![doc = include_str!("../README.md")]
#![no_std]
#![deny(unsafe_op_in_unsafe_fn)]

#[cfg(feature = "std")]
extern crate std;

/// True when detection must report nothing (Miri, forced-portable build, test override).
#[inline]
fn forced_portable() -> bool {
    if cfg!(miri) || cfg!(tessera_backend = "portable") {
        return true;
    }
    #[cfg(feature = "test-override")]
    {
        if let Ok(v) = std::env::var("TESSERA_FORCE_BACKEND") {
            return v == "portable";
        }
    }
    false
}

macro_rules! token {
    ($(#[$doc:meta])* $name:ident, $arch:literal, $modname:ident, [$($feat:tt),+]) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name {
            _private: (),
        }

        #[cfg(target_arch = $arch)]
        cpufeatures::new!($modname, $($feat),+);

        impl $name {
            /// Returns the token when the running CPU supports every feature it stands for.
            #[inline]
            pub fn detect() -> Option<Self> {
                if forced_portable() {
                    return None;
                }
                #[cfg(target_arch = $arch)]
                {
                    if $modname::get() && extra::$modname() {
                        return Some(Self { _private: () });
                    }
                }
                None
            }

            /// Creates the token without checking the CPU.
            ///
            /// # Safety
            /// The caller guarantees that the CPU supports every feature of this token.
            #[inline]
            pub const unsafe fn new_unchecked() -> Self {
                Self { _private: () }
            }
        }
    };
}

/// Checks that `cpufeatures` cannot make on its own.
#[allow(dead_code)]
mod extra {
    /// Default: nothing beyond what `cpufeatures` checked.
    macro_rules! none {
        ($($f:ident),*) => { $(#[inline] pub(crate) fn $f() -> bool { true })* };
    }
    none!(
        cpuid_avx2,
        cpuid_aesclmul,
        cpuid_shani,
        cpuid_bmi2adx,
        cpuid_bmi,
        cpuid_avx512,
        cpuid_vaes512,
        cpuid_neon,
        cpuid_sha2
    );

    /// On Linux/Android `cpufeatures` maps `aes` to `HWCAP_AES | HWCAP_PMULL` and `sha3` to
    /// `HWCAP_SHA3 | HWCAP_SHA512` and accepts either bit, so a (virtual) CPU exposing only one
    /// half would get a token whose islands execute the other half. Require both bits.
    #[cfg(all(
        target_arch = "aarch64",
        any(target_os = "linux", target_os = "android")
    ))]
    mod hwcap {
        unsafe extern "C" {
            /// glibc, musl and bionic: the auxiliary vector entry `t`, 0 when absent.
            fn getauxval(t: core::ffi::c_ulong) -> core::ffi::c_ulong;
        }
        const AT_HWCAP: core::ffi::c_ulong = 16;
        pub(super) const AES: u64 = 1 << 3;
        pub(super) const PMULL: u64 = 1 << 4;
        pub(super) const SHA3: u64 = 1 << 17;
        pub(super) const SHA512: u64 = 1 << 21;

        /// True when every bit of `bits` is set in AT_HWCAP.
        pub(super) fn all(bits: u64) -> bool {
            // SAFETY: getauxval only reads the process's auxiliary vector; it takes and returns
            // plain integers and is thread-safe.
            let caps = unsafe { getauxval(AT_HWCAP) } as u64;
            caps & bits == bits
        }
    }
    #[cfg(all(
        target_arch = "aarch64",
        any(target_os = "linux", target_os = "android")
    ))]
    pub(crate) fn cpuid_aes() -> bool {
        hwcap::all(hwcap::AES | hwcap::PMULL)
    }
    #[cfg(all(
        target_arch = "aarch64",
        any(target_os = "linux", target_os = "android")
    ))]
    pub(crate) fn cpuid_sha3() -> bool {
        hwcap::all(hwcap::SHA3 | hwcap::SHA512)
    }
    #[cfg(not(all(
        target_arch = "aarch64",
        any(target_os = "linux", target_os = "android")
    )))]
    none!(cpuid_aes, cpuid_sha3);

    /// VAES and VPCLMULQDQ on 256-bit vectors need only the YMM state (checked through the
    /// `avx2` feature), but `cpufeatures` 0.2 and 0.3 also require the AVX-512 ZMM state, so on
    /// AVX2-only CPUs with VAES (AMD Zen 3/4 client parts, Intel Alder Lake) they report it absent.
    /// Read CPUID leaf 7 ourselves; the token also lists `avx2`, so the OS has enabled YMM.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn cpuid_vaes() -> bool {
        use core::sync::atomic::{AtomicU8, Ordering};
        static CACHE: AtomicU8 = AtomicU8::new(0);
        match CACHE.load(Ordering::Relaxed) {
            1 => false,
            2 => true,
            _ => {
                let leaf7 = core::arch::x86_64::__cpuid_count(7, 0);
                let yes = (leaf7.ecx >> 9) & 1 == 1 && (leaf7.ecx >> 10) & 1 == 1;
                CACHE.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
                yes
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    none!(cpuid_vaes);
}

token!(
    /// x86_64 AVX2.
    X86Avx2, "x86_64", cpuid_avx2, ["avx2"]);
token!(
    /// x86_64 AES-NI + PCLMULQDQ + SSSE3.
    X86AesClmul, "x86_64", cpuid_aesclmul, ["aes", "pclmulqdq", "ssse3"]);
token!(
    /// x86_64 AVX2 + VAES + VPCLMULQDQ (256-bit vectors).
    X86VaesClmul, "x86_64", cpuid_vaes, ["avx2", "aes", "pclmulqdq", "ssse3"]);
token!(
    /// x86_64 VAES + VPCLMULQDQ on 512-bit vectors: AVX-512 F/BW/VL with the ZMM state enabled,
    /// plus everything [`X86VaesClmul`] stands for.
    X86Vaes512, "x86_64", cpuid_vaes512, ["avx2", "aes", "pclmulqdq", "ssse3", "avx512f", "avx512bw", "avx512vl", "vaes", "vpclmulqdq"]);

impl X86Vaes512 {
    /// Everything [`X86VaesClmul`] needs is part of this token's features.
    #[inline]
    pub fn vaes_clmul(self) -> X86VaesClmul {
        X86VaesClmul { _private: () }
    }
    /// Everything [`X86AesClmul`] needs is part of this token's features.
    #[inline]
    pub fn aes_clmul(self) -> X86AesClmul {
        X86AesClmul { _private: () }
    }
    /// Everything [`X86Avx512`] needs is part of this token's features.
    #[inline]
    pub fn avx512(self) -> X86Avx512 {
        X86Avx512 { _private: () }
    }
}

impl X86VaesClmul {
    /// Everything [`X86AesClmul`] needs is part of this token's features.
    #[inline]
    pub fn aes_clmul(self) -> X86AesClmul {
        X86AesClmul { _private: () }
    }
}
token!(
    /// x86_64 SHA extensions (+ SSE4.1 for the message schedule).
    X86ShaNi, "x86_64", cpuid_shani, ["sha", "sse2", "ssse3", "sse4.1"]);
token!(
    /// x86_64 BMI2 + ADX.
    X86Bmi2Adx, "x86_64", cpuid_bmi2adx, ["bmi2", "adx"]);
token!(
    /// x86_64 BMI1 + BMI2 (ANDN, RORX: scalar Keccak).
    X86Bmi, "x86_64", cpuid_bmi, ["bmi1", "bmi2"]);
token!(
    /// x86_64 AVX-512 F + VL (with AVX2): 32 vector registers, rotates (VPROLQ) and three-input
    /// logic (VPTERNLOGQ) on 256-bit vectors. The OS must have enabled the ZMM state.
    X86Avx512, "x86_64", cpuid_avx512, ["avx2", "avx512f", "avx512vl"]);

impl X86Avx512 {
    /// AVX-512 F implies AVX2 here: the token lists `avx2` among its features.
    #[inline]
    pub fn avx2(self) -> X86Avx2 {
        X86Avx2 { _private: () }
    }
}

impl From<X86Avx512> for X86Avx2 {
    #[inline]
    fn from(t: X86Avx512) -> Self {
        t.avx2()
    }
}
token!(
    /// aarch64 Advanced SIMD (baseline on every aarch64 Linux target).
    Aarch64Neon, "aarch64", cpuid_neon, ["neon"]);
token!(
    /// aarch64 AES + PMULL.
    Aarch64AesPmull, "aarch64", cpuid_aes, ["aes"]);
token!(
    /// aarch64 SHA-1/SHA-256 extension.
    Aarch64Sha2, "aarch64", cpuid_sha2, ["sha2"]);
token!(
    /// aarch64 SHA3 + SHA512 extensions.
    Aarch64Sha3, "aarch64", cpuid_sha3, ["sha3"]);

/// A human-readable report of the features Tessera cares about on this CPU.
pub fn features() -> Features {
    Features
}

/// Display wrapper returned by [`features`].
#[derive(Debug, Clone, Copy)]
pub struct Features;

impl core::fmt::Display for Features {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let yn = |b: bool| if b { "yes" } else { "no" };
        if cfg!(target_arch = "x86_64") {
            write!(
                f,
                "x86_64: AVX2 {}, AES-NI {}, VAES {}, SHA-NI {}, BMI2/ADX {}, AVX-512 {}, VAES-512 {}",
                yn(X86Avx2::detect().is_some()),
                yn(X86AesClmul::detect().is_some()),
                yn(X86VaesClmul::detect().is_some()),
                yn(X86ShaNi::detect().is_some()),
                yn(X86Bmi2Adx::detect().is_some()),
                yn(X86Avx512::detect().is_some()),
                yn(X86Vaes512::detect().is_some())
            )
        } else if cfg!(target_arch = "aarch64") {
            write!(
                f,
                "aarch64: NEON {}, AES/PMULL {}, SHA2 {}, SHA3/SHA512 {}",
                yn(Aarch64Neon::detect().is_some()),
                yn(Aarch64AesPmull::detect().is_some()),
                yn(Aarch64Sha2::detect().is_some()),
                yn(Aarch64Sha3::detect().is_some())
            )
        } else {
            f.write_str("this architecture: portable only")
        }
    }
}
