//! aarch64 feature detection.
//!
//! On Linux and Android the kernel's AT_HWCAP bits are read directly: `cpufeatures` maps `aes`
//! to `HWCAP_AES | HWCAP_PMULL` and `sha3` to `HWCAP_SHA3 | HWCAP_SHA512` and accepts either
//! bit, so a (virtual) CPU exposing one half would get a token whose islands execute the other
//! half. Here both bits are required. Elsewhere (macOS, ...) `cpufeatures` answers.

#[cfg(any(target_os = "linux", target_os = "android"))]
mod hwcap {
    unsafe extern "C" {
        /// glibc, musl and bionic: the auxiliary vector entry `t`, 0 when absent.
        fn getauxval(t: core::ffi::c_ulong) -> core::ffi::c_ulong;
    }
    const AT_HWCAP: core::ffi::c_ulong = 16;
    const ASIMD: u64 = 1 << 1;
    const AES: u64 = 1 << 3;
    const PMULL: u64 = 1 << 4;
    const SHA2: u64 = 1 << 6;
    const SHA3: u64 = 1 << 17;
    const SHA512: u64 = 1 << 21;

    /// Whether the CPU and the kernel support the target feature `name` (rustc's spelling);
    /// `None` for a name this table does not know.
    pub(crate) fn has(name: &str) -> Option<bool> {
        // SAFETY: getauxval only reads the process's auxiliary vector; it takes and returns
        // plain integers and is thread-safe.
        let caps = unsafe { getauxval(AT_HWCAP) } as u64;
        let all = |bits: u64| caps & bits == bits;
        Some(match name {
            "neon" => all(ASIMD),
            "aes" => all(AES | PMULL),
            "sha2" => all(SHA2),
            "sha3" => all(SHA3 | SHA512),
            _ => return None,
        })
    }
}

#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) use hwcap::has;

#[cfg(not(any(target_os = "linux", target_os = "android")))]
mod other {
    cpufeatures::new!(cf_aes, "aes");
    cpufeatures::new!(cf_sha2, "sha2");
    cpufeatures::new!(cf_sha3, "sha3");

    pub(crate) fn has(name: &str) -> Option<bool> {
        Some(match name {
            // Advanced SIMD is part of every aarch64 target Rust supports outside Linux.
            "neon" => true,
            "aes" => cf_aes::get(),
            "sha2" => cf_sha2::get(),
            "sha3" => cf_sha3::get(),
            _ => return None,
        })
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) use other::has;

/// Every feature of `names` is present (an unknown name counts as absent).
pub(crate) fn has_all(names: &[&str]) -> bool {
    names.iter().all(|n| has(n) == Some(true))
}
