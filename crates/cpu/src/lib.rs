#![doc = include_str!("../README.md")]
#![no_std]

#[cfg(any(feature = "std", tessera_test_hooks))]
extern crate std;

#[cfg(target_arch = "aarch64")]
mod aarch64;
mod macros;
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
mod x86;

use core::sync::atomic::{AtomicU8, Ordering};

/// A crate's backend table, as generic test and bench code sees it (implemented by
/// [`backends!`]; not a stable API).
#[doc(hidden)]
pub trait BackendSet: Copy + core::fmt::Debug + PartialEq + 'static {
    /// Every backend name of the table, on any CPU.
    const KNOWN: &'static [&'static str];
    /// The portable backend (always available).
    fn portable() -> Self;
    /// The best backend this CPU can run.
    fn detect() -> Self;
    /// Every backend this CPU can run, portable first.
    fn all_available() -> impl Iterator<Item = Self>;
    /// The backend's stable name.
    fn name(&self) -> &'static str;
}

/// True when detection must report nothing: under Miri, in a build with
/// `--cfg tessera_backend="portable"`, and in this workspace's own test builds
/// (`--cfg tessera_test_hooks`) when `TESSERA_FORCE_BACKEND=portable` is set.
#[inline]
fn forced_portable() -> bool {
    if cfg!(miri) || cfg!(tessera_backend = "portable") {
        return true;
    }
    #[cfg(tessera_test_hooks)]
    {
        test_hooks::forced_portable()
    }
    #[cfg(not(tessera_test_hooks))]
    {
        false
    }
}

/// The environment override of test builds. `--cfg tessera_test_hooks` is set only by this
/// workspace's `.cargo/config.toml` and by xtask; no Cargo feature turns it on, so no crate in
/// a user's dependency graph can make a release build read the environment.
#[cfg(tessera_test_hooks)]
mod test_hooks {
    use super::{AtomicU8, Ordering};

    static FORCED: AtomicU8 = AtomicU8::new(0);

    /// Whether the kernel's x86 CPU flags list every feature of `names` (rustc's spelling).
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    pub(super) fn cpuinfo_has_all(names: &[&str]) -> bool {
        let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else {
            return false;
        };
        let Some(flags) = info.lines().find(|l| l.starts_with("flags")) else {
            return false;
        };
        let flags: std::vec::Vec<&str> = flags.split_whitespace().collect();
        names.iter().all(|n| {
            let kernel = match *n {
                "sse4.1" => "sse4_1",
                "sha" => "sha_ni",
                other => other,
            };
            flags.contains(&kernel)
        })
    }

    /// The x86_64 features of a CPU-profile cap (`TESSERA_CPU_CAP`), rustc's spelling.
    /// `avx2`: AMD Zen 3 (AVX2, BMI1/2, ADX, AES-NI, PCLMULQDQ, VAES, VPCLMULQDQ on 256-bit
    /// vectors, SHA-NI; no AVX-512, no GFNI). `aesni`: a Westmere-class x86-64 (SSE up to
    /// SSE4.1, AES-NI, PCLMULQDQ; no AVX).
    pub(super) fn cap_profile(name: &str) -> Option<&'static [&'static str]> {
        const AESNI: &[&str] = &["sse2", "ssse3", "sse4.1", "pclmulqdq", "aes"];
        const AVX2: &[&str] = &[
            "sse2",
            "ssse3",
            "sse4.1",
            "pclmulqdq",
            "aes",
            "avx",
            "avx2",
            "bmi1",
            "bmi2",
            "adx",
            "sha",
            "vaes",
            "vpclmulqdq",
        ];
        match name {
            "avx2" => Some(AVX2),
            "aesni" => Some(AESNI),
            _ => None,
        }
    }

    /// Whether `cap` (the value of `TESSERA_CPU_CAP`) lets detection report every feature of
    /// `names`: unset, empty or `native`, no cap; a profile name of [`cap_profile`]; else a
    /// comma-separated list of target features (rustc's spelling), the only ones detection may
    /// report. The cap only removes features: a feature the CPU lacks stays absent.
    pub(super) fn cap_allows(cap: &str, names: &[&str]) -> bool {
        let cap = cap.trim();
        if cap.is_empty() || cap == "native" {
            return true;
        }
        match cap_profile(cap) {
            Some(list) => names.iter().all(|n| list.contains(n)),
            None => names.iter().all(|n| cap.split(',').any(|c| c.trim() == *n)),
        }
    }

    /// [`cap_allows`] with the environment's `TESSERA_CPU_CAP` (test builds only: the
    /// `--cpu` profiles of `cargo xtask bench`, which measure a smaller CPU on this one).
    pub(super) fn env_cap_allows(names: &[&str]) -> bool {
        match std::env::var("TESSERA_CPU_CAP") {
            Ok(cap) => cap_allows(&cap, names),
            Err(_) => true,
        }
    }

    /// `TESSERA_FORCE_BACKEND`: unset or empty, detection as usual; `portable`, every token
    /// absent; anything else is a mistake in a test setup and panics.
    pub(super) fn forced_portable() -> bool {
        match FORCED.load(Ordering::Relaxed) {
            1 => false,
            2 => true,
            _ => {
                let forced = match std::env::var("TESSERA_FORCE_BACKEND") {
                    Err(std::env::VarError::NotPresent) => false,
                    Ok(v) if v.is_empty() => false,
                    Ok(v) if v == "portable" => true,
                    other => panic!(
                        "TESSERA_FORCE_BACKEND={other:?}: the only accepted value is `portable`"
                    ),
                };
                FORCED.store(if forced { 2 } else { 1 }, Ordering::Relaxed);
                forced
            }
        }
    }
}

/// Whether this CPU has every target feature in `names` (uncached).
fn cpu_has_all(names: &[&str]) -> bool {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        // Read at each token's first `detect()` only: the token caches its answer.
        x86::Regs::read(&x86::Native).has_all(names)
    }
    #[cfg(all(target_arch = "aarch64", not(miri)))]
    {
        aarch64::has_all(names)
    }
    #[cfg(not(all(any(target_arch = "x86_64", target_arch = "aarch64"), not(miri))))]
    {
        let _ = names;
        false
    }
}

/// Whether the test builds' CPU cap (`TESSERA_CPU_CAP`, `--cfg tessera_test_hooks` only)
/// allows every feature of `names`; always true in a user's build.
#[inline]
fn cap_allows(names: &[&str]) -> bool {
    #[cfg(tessera_test_hooks)]
    {
        test_hooks::env_cap_allows(names)
    }
    #[cfg(not(tessera_test_hooks))]
    {
        let _ = names;
        true
    }
}

/// `UNKNOWN` until the first `detect()`, then `ABSENT` or `PRESENT`.
const UNKNOWN: u8 = 0;
const ABSENT: u8 = 1;
const PRESENT: u8 = 2;

/// A token's cached detection result.
#[inline]
fn detect_cached(cache: &AtomicU8, features: &[&str]) -> bool {
    if forced_portable() {
        return false;
    }
    match cache.load(Ordering::Relaxed) {
        PRESENT => true,
        ABSENT => false,
        _ => {
            let yes = cpu_has_all(features) && cap_allows(features);
            cache.store(if yes { PRESENT } else { ABSENT }, Ordering::Relaxed);
            yes
        }
    }
}

/// The portable backend's token: every CPU has it. The implementation type of a
/// [`backends!`] table's `Portable` row takes it where SIMD rows take their capability token.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Portable;

macro_rules! tokens {
    ($($(#[doc = $d:literal])* $name:ident;)*) => {
        $(
            $(#[doc = $d])*
            ///
            /// A zero-sized proof that the CPU supports every feature in
            #[doc = concat!("[`", stringify!($name), "::FEATURES`]:")]
            /// obtained only from `detect()` or the `unsafe` `new_unchecked()`.
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct $name {
                _private: (),
            }

            impl $name {
                /// The target features this token proves, exactly as its islands enable them.
                pub const FEATURES: &'static [&'static str] = crate::__features_of!($name, list);

                /// The token, when the running CPU supports every feature it stands for
                /// (cached; `None` under Miri and in forced-portable builds).
                #[inline]
                pub fn detect() -> Option<Self> {
                    static CACHE: AtomicU8 = AtomicU8::new(UNKNOWN);
                    detect_cached(&CACHE, Self::FEATURES).then_some(Self { _private: () })
                }

                /// Test builds only (`--cfg tessera_test_hooks`): the token when the kernel's
                /// `/proc/cpuinfo` flags list every feature, for tools whose virtual CPUID hides
                /// features their JIT executes (valgrind 3.19 hides ADX and SHA-NI).
                #[cfg(all(tessera_test_hooks, target_os = "linux", target_arch = "x86_64"))]
                #[doc(hidden)]
                pub fn from_host_cpuinfo() -> Option<Self> {
                    test_hooks::cpuinfo_has_all(Self::FEATURES).then_some(Self { _private: () })
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
        )*

        /// Every token with its features, for tests and reports.
        #[doc(hidden)]
        pub const ALL_TOKENS: &[(&str, &[&str])] = &[$((stringify!($name), $name::FEATURES)),*];
    };
}

tokens! {
    /// x86_64 AVX2.
    X86Avx2;
    /// x86_64 AES-NI + PCLMULQDQ + SSSE3.
    X86AesClmul;
    /// x86_64 AVX2 + VAES + VPCLMULQDQ on 256-bit vectors (+ AES-NI, PCLMULQDQ, SSSE3).
    X86VaesClmul;
    /// x86_64 VAES + VPCLMULQDQ on 512-bit vectors: AVX-512 F/BW/VL with the ZMM state enabled,
    /// plus everything [`X86VaesClmul`] stands for.
    X86Vaes512;
    /// x86_64 SHA extensions (+ SSE4.1 for the message schedule).
    X86ShaNi;
    /// x86_64 BMI2 + ADX (MULX, ADCX, ADOX).
    X86Bmi2Adx;
    /// x86_64 BMI1 + BMI2 (ANDN, RORX).
    X86Bmi;
    /// x86_64 AVX2 + BMI1 + BMI2 (vector message schedule with RORX rounds).
    X86Avx2Bmi;
    /// x86_64 AVX-512 F + VL (with AVX2): 32 vector registers, rotates (VPROLQ) and
    /// three-input logic (VPTERNLOGQ) on 256-bit vectors. The OS must have enabled the ZMM state.
    X86Avx512;
    /// x86_64 AVX-512 F + VL + IFMA (52-bit multiply-add, `VPMADD52LUQ`/`VPMADD52HUQ`), with
    /// everything [`X86Avx512`] and [`X86Bmi2Adx`] stand for (every CPU with IFMA has MULX,
    /// ADCX and ADOX, so a backend can keep its scalar parts on them).
    X86Avx512Ifma;
    /// aarch64 Advanced SIMD (baseline on every aarch64 Linux target).
    Aarch64Neon;
    /// aarch64 AES + PMULL.
    Aarch64AesPmull;
    /// aarch64 SHA-1/SHA-256 extension.
    Aarch64Sha2;
    /// aarch64 SHA3 + SHA512 extensions.
    Aarch64Sha3;
}

/// The x86 tokens with their features (for the feature-table test).
#[cfg(test)]
pub(crate) const X86_TOKENS: &[(&str, &[&str])] = &[
    ("X86Avx2", X86Avx2::FEATURES),
    ("X86AesClmul", X86AesClmul::FEATURES),
    ("X86VaesClmul", X86VaesClmul::FEATURES),
    ("X86Vaes512", X86Vaes512::FEATURES),
    ("X86ShaNi", X86ShaNi::FEATURES),
    ("X86Bmi2Adx", X86Bmi2Adx::FEATURES),
    ("X86Bmi", X86Bmi::FEATURES),
    ("X86Avx2Bmi", X86Avx2Bmi::FEATURES),
    ("X86Avx512", X86Avx512::FEATURES),
    ("X86Avx512Ifma", X86Avx512Ifma::FEATURES),
];

#[cfg(all(test, tessera_test_hooks))]
mod cap_tests {
    use super::test_hooks::cap_allows;
    use super::*;

    #[test]
    fn avx2_profile_is_zen3() {
        for (token, feats) in X86_TOKENS {
            let want = !matches!(*token, "X86Avx512" | "X86Avx512Ifma" | "X86Vaes512");
            assert_eq!(cap_allows("avx2", feats), want, "{token}");
        }
    }

    #[test]
    fn aesni_profile_is_westmere() {
        for (token, feats) in X86_TOKENS {
            assert_eq!(
                cap_allows("aesni", feats),
                *token == "X86AesClmul",
                "{token}"
            );
        }
    }

    #[test]
    fn native_empty_and_lists() {
        for (_, feats) in X86_TOKENS {
            assert!(cap_allows("", feats));
            assert!(cap_allows("native", feats));
        }
        assert!(cap_allows("bmi2, adx", X86Bmi2Adx::FEATURES));
        assert!(!cap_allows("bmi2", X86Bmi2Adx::FEATURES));
        assert!(cap_allows("neon,aes", &["neon"]));
        assert!(!cap_allows("neon", &["neon", "aes"]));
    }
}

/// `a` is a subset of `b` (compile-time check of the narrowing conversions).
const fn subset(a: &[&str], b: &[&str]) -> bool {
    const fn eq(x: &str, y: &str) -> bool {
        let (x, y) = (x.as_bytes(), y.as_bytes());
        if x.len() != y.len() {
            return false;
        }
        let mut i = 0;
        while i < x.len() {
            if x[i] != y[i] {
                return false;
            }
            i += 1;
        }
        true
    }
    let mut i = 0;
    while i < a.len() {
        let mut j = 0;
        let mut found = false;
        while j < b.len() {
            found |= eq(a[i], b[j]);
            j += 1;
        }
        if !found {
            return false;
        }
        i += 1;
    }
    true
}

/// Narrowing: a token whose features include another's yields that one (checked at compile
/// time), as a method and as `From`.
macro_rules! implies {
    ($from:ident: $($method:ident -> $to:ident),+) => {
        impl $from {
            $(
                #[doc = concat!("Everything [`", stringify!($to), "`] needs is among this token's features.")]
                #[inline]
                pub fn $method(self) -> $to {
                    const _: () = assert!(subset($to::FEATURES, $from::FEATURES));
                    $to { _private: () }
                }
            )+
        }
        $(
            impl From<$from> for $to {
                #[inline]
                fn from(t: $from) -> $to {
                    t.$method()
                }
            }
        )+
    };
}

implies!(X86Vaes512: vaes_clmul -> X86VaesClmul, aes_clmul -> X86AesClmul, avx512 -> X86Avx512);
implies!(X86VaesClmul: aes_clmul -> X86AesClmul, avx2 -> X86Avx2);
implies!(X86Avx512: avx2 -> X86Avx2);
implies!(X86Avx512Ifma: avx512 -> X86Avx512, avx2 -> X86Avx2, bmi2_adx -> X86Bmi2Adx);
implies!(X86Avx2Bmi: avx2 -> X86Avx2, bmi -> X86Bmi);
implies!(Aarch64Sha3: sha2 -> Aarch64Sha2, neon -> Aarch64Neon);
implies!(Aarch64AesPmull: neon -> Aarch64Neon);

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
                "x86_64: AVX2 {}, AES-NI {}, VAES {}, SHA-NI {}, BMI2/ADX {}, AVX-512 {}, AVX-512 IFMA {}, VAES-512 {}",
                yn(X86Avx2::detect().is_some()),
                yn(X86AesClmul::detect().is_some()),
                yn(X86VaesClmul::detect().is_some()),
                yn(X86ShaNi::detect().is_some()),
                yn(X86Bmi2Adx::detect().is_some()),
                yn(X86Avx512::detect().is_some()),
                yn(X86Avx512Ifma::detect().is_some()),
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

/// Wipes `p` with volatile stores of `W` elements at a time (pick `W` so that `W` elements fill
/// one vector register: 32 bytes on AVX2, 16 on NEON), then the remainder element by element, and
/// ends with a compiler fence: the wipe of a dead buffer is not elided, and it costs one store
/// per vector instead of one per element (`zeroize` stores one element at a time). For the
/// lattice crates' secret polynomials and byte buffers (not a stable API).
#[doc(hidden)]
#[inline(always)]
pub fn wipe_wide<T: zeroize::DefaultIsZeroes, const W: usize>(p: &mut [T]) {
    use zeroize::Zeroize;
    let mut chunks = p.chunks_exact_mut(W);
    for c in &mut chunks {
        let c: &mut [T; W] = c.try_into().unwrap_or_else(|_| unreachable!());
        // SAFETY: `c` is a valid, aligned, writable `[T; W]` (a volatile store so that the
        // wipe of a dead buffer is not elided).
        unsafe { core::ptr::write_volatile(c, [T::default(); W]) };
    }
    chunks.into_remainder().zeroize();
    core::sync::atomic::compiler_fence(Ordering::SeqCst);
}

/// A decision computed from secret data whose outcome is public by design (an AEAD tag
/// comparison, a rejection-sampling verdict, a Diffie-Hellman all-zero check). In test builds
/// (`--cfg tessera_test_hooks`) it is released to the constant-time check ([`hooks::declassify`])
/// before the caller branches on it, and read back from memory through an opaque reference (so
/// the branch does not use a register copy from before the hook ran); elsewhere it is `v`.
#[inline(always)]
pub fn public_bool(v: bool) -> bool {
    #[cfg(tessera_test_hooks)]
    {
        let cell = [u8::from(v)];
        hooks::declassify(&cell);
        core::hint::black_box(&cell)[0] != 0
    }
    #[cfg(not(tessera_test_hooks))]
    {
        v
    }
}

/// The constant-time check's declassification hook, shared by every crate (test builds only:
/// `--cfg tessera_test_hooks`, which this workspace's `.cargo/config.toml` and xtask set and no
/// Cargo feature can turn on). The valgrind examples of `tessera-ct-valgrind` install a function
/// that marks bytes defined; a crate calls [`hooks::declassify`] on exactly the values it
/// releases by design, right before it branches or indexes on them (each crate's own `hooks`
/// module lists them). Not a stable API.
#[cfg(tessera_test_hooks)]
#[doc(hidden)]
pub mod hooks {
    #![forbid(unsafe_code)]
    use std::sync::OnceLock;

    static DECLASSIFY: OnceLock<fn(&[u8])> = OnceLock::new();

    /// Installs the function that marks bytes public (the first one installed in a process
    /// stays).
    pub fn set_declassify(f: fn(&[u8])) {
        let _ = DECLASSIFY.set(f);
    }

    /// Runs the installed hook on `b` (nothing when none is installed).
    #[inline]
    pub fn declassify(b: &[u8]) {
        if let Some(f) = DECLASSIFY.get() {
            f(b);
        }
    }
}

/// Compile-time tables of the compaction step of vectorized rejection sampling (keep the
/// accepted lanes of a register, in order, at its front), shared by the lattice crates. Their
/// index is an acceptance mask computed from public XOF output. Not a stable API.
#[doc(hidden)]
pub mod compaction {
    /// The positions of the set bits of `mask` (below 256), lowest first, in the first `count`
    /// entries of the array (the rest 0): `(positions, count)`.
    pub const fn lanes(mask: usize) -> ([u8; 8], usize) {
        let mut pos = [0u8; 8];
        let (mut k, mut i) = (0, 0);
        while i < 8 {
            if (mask >> i) & 1 == 1 {
                pos[k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        (pos, k)
    }

    /// Byte-shuffle indices (`vpshufb` within a 128-bit lane, NEON `tbl`) that move the 16-bit
    /// lanes selected by an 8-bit mask to the front, in order, and zero the rest (index 0x80:
    /// `vpshufb` zeroes on the top bit, `tbl` on an out-of-range index).
    pub const PAIRS16: [[u8; 16]; 256] = {
        let mut tab = [[0x80u8; 16]; 256];
        let mut m = 0;
        while m < 256 {
            let (pos, n) = lanes(m);
            let mut k = 0;
            while k < n {
                tab[m][2 * k] = 2 * pos[k];
                tab[m][2 * k + 1] = 2 * pos[k] + 1;
                k += 1;
            }
            m += 1;
        }
        tab
    };

    #[cfg(test)]
    mod tests {
        #[test]
        fn lanes_and_pairs() {
            assert_eq!(super::lanes(0b1010_0110), ([1, 2, 5, 7, 0, 0, 0, 0], 4));
            assert_eq!(super::lanes(0), ([0; 8], 0));
            let t = super::PAIRS16[0b1000_0001];
            assert_eq!(&t[..4], &[0, 1, 14, 15]);
            assert!(t[4..].iter().all(|&b| b == 0x80));
        }
    }
}
