//! x86_64 feature detection from CPUID and XCR0.
//!
//! Read once into [`Regs`] through a [`Cpuid`] source (the real instruction, or a fake one in
//! the unit tests), then asked per feature name. Leaf 7 is read only when the maximum basic
//! leaf (leaf 0, EAX) reaches it: a CPU (or hypervisor) whose CPUID level is capped answers a
//! higher leaf with the highest leaf's data, which could otherwise claim AVX2, BMI2, ADX or
//! SHA-NI on a CPU without them.

/// Where CPUID and XGETBV answers come from.
pub(crate) trait Cpuid {
    /// `[eax, ebx, ecx, edx]` of leaf `leaf`, sub-leaf `sub`.
    fn cpuid(&self, leaf: u32, sub: u32) -> [u32; 4];
    /// XCR0 (XGETBV with ECX = 0); only called when CPUID reports OSXSAVE.
    fn xcr0(&self) -> u64;
}

/// The running CPU.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Native;

#[cfg(target_arch = "x86_64")]
impl Cpuid for Native {
    fn cpuid(&self, leaf: u32, sub: u32) -> [u32; 4] {
        let r = core::arch::x86_64::__cpuid_count(leaf, sub);
        [r.eax, r.ebx, r.ecx, r.edx]
    }

    fn xcr0(&self) -> u64 {
        #[target_feature(enable = "xsave")]
        fn xgetbv0() -> u64 {
            // SAFETY: XGETBV with ECX = 0 reads XCR0, which every XSAVE-capable CPU has.
            unsafe { core::arch::x86_64::_xgetbv(0) }
        }
        // SAFETY: only called when CPUID.1:ECX.OSXSAVE[27] is set (see `Regs::read`), so the
        // OS has enabled XSAVE and XGETBV executes.
        unsafe { xgetbv0() }
    }
}

/// The CPUID words the feature names are decided from.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Regs {
    l1_ecx: u32,
    l1_edx: u32,
    l7_ebx: u32,
    l7_ecx: u32,
    xcr0: u64,
}

impl Regs {
    pub(crate) fn read(src: &impl Cpuid) -> Self {
        let max_leaf = src.cpuid(0, 0)[0];
        let mut r = Regs::default();
        if max_leaf >= 1 {
            let l1 = src.cpuid(1, 0);
            r.l1_ecx = l1[2];
            r.l1_edx = l1[3];
        }
        if max_leaf >= 7 {
            let l7 = src.cpuid(7, 0);
            r.l7_ebx = l7[1];
            r.l7_ecx = l7[2];
        }
        if r.l1_ecx >> 27 & 1 == 1 {
            r.xcr0 = src.xcr0();
        }
        r
    }

    /// Whether the CPU and the OS support the target feature `name` (rustc's spelling).
    /// `None` for a name this table does not know.
    pub(crate) fn has(&self, name: &str) -> Option<bool> {
        let bit = |w: u32, b: u32| w >> b & 1 == 1;
        // The OS saves XMM and YMM state (XCR0 bits 1, 2) and the CPU has AVX.
        let ymm = self.xcr0 & 0b110 == 0b110 && bit(self.l1_ecx, 28);
        // ... and the opmask and ZMM state (XCR0 bits 5, 6, 7).
        let zmm = ymm && self.xcr0 & 0xE0 == 0xE0;
        Some(match name {
            "sse2" => bit(self.l1_edx, 26),
            "ssse3" => bit(self.l1_ecx, 9),
            "sse4.1" => bit(self.l1_ecx, 19),
            "pclmulqdq" => bit(self.l1_ecx, 1),
            "aes" => bit(self.l1_ecx, 25),
            "avx" => ymm,
            "avx2" => ymm && bit(self.l7_ebx, 5),
            "bmi1" => bit(self.l7_ebx, 3),
            "bmi2" => bit(self.l7_ebx, 8),
            "adx" => bit(self.l7_ebx, 19),
            "sha" => bit(self.l7_ebx, 29),
            "avx512f" => zmm && bit(self.l7_ebx, 16),
            "avx512dq" => zmm && bit(self.l7_ebx, 17),
            "avx512ifma" => zmm && bit(self.l7_ebx, 21),
            "avx512bw" => zmm && bit(self.l7_ebx, 30),
            "avx512vl" => zmm && bit(self.l7_ebx, 31),
            "avx512vbmi" => zmm && bit(self.l7_ecx, 1),
            "gfni" => bit(self.l7_ecx, 8),
            // VEX-encoded 256-bit forms need only the YMM state.
            "vaes" => ymm && bit(self.l7_ecx, 9),
            "vpclmulqdq" => ymm && bit(self.l7_ecx, 10),
            _ => return None,
        })
    }

    /// Every feature of `names` is present (an unknown name counts as absent).
    pub(crate) fn has_all(&self, names: &[&str]) -> bool {
        names.iter().all(|n| self.has(n) == Some(true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A CPU described by its leaves (index = leaf number) and XCR0.
    struct Fake {
        leaves: [[u32; 4]; 8],
        xcr0: u64,
    }

    impl Cpuid for Fake {
        fn cpuid(&self, leaf: u32, _sub: u32) -> [u32; 4] {
            // Like a capped CPU: a leaf above the maximum answers with the highest leaf's data.
            let max = self.leaves[0][0] as usize;
            self.leaves[(leaf as usize).min(max)]
        }
        fn xcr0(&self) -> u64 {
            self.xcr0
        }
    }

    /// Leaf 1 with SSE2, SSSE3, SSE4.1, PCLMULQDQ, AES, OSXSAVE, AVX; leaf 7 with everything.
    fn full(max_leaf: u32) -> Fake {
        let mut leaves = [[0u32; 4]; 8];
        leaves[0][0] = max_leaf;
        leaves[1] = [
            0,
            0,
            1 << 9 | 1 << 19 | 1 << 1 | 1 << 25 | 1 << 27 | 1 << 28,
            1 << 26,
        ];
        leaves[7] = [0, u32::MAX, u32::MAX, 0];
        Fake { leaves, xcr0: 0xE7 }
    }

    #[test]
    fn capped_cpuid_level_hides_leaf_7() {
        let mut f = full(1);
        // What a capped CPU returns for leaf 7: leaf 1's data, which has bits 5, 8, 19, 29 of
        // EBX set when read as leaf 7 (here: every bit).
        f.leaves[1][1] = u32::MAX;
        let r = Regs::read(&f);
        for n in [
            "avx2",
            "bmi1",
            "bmi2",
            "adx",
            "sha",
            "avx512f",
            "vaes",
            "vpclmulqdq",
        ] {
            assert_eq!(r.has(n), Some(false), "{n} claimed with max leaf 1");
        }
        assert_eq!(r.has("aes"), Some(true));
        assert_eq!(r.has("avx"), Some(true));
    }

    #[test]
    fn full_leaf_7_is_read() {
        let r = Regs::read(&full(7));
        for n in [
            "avx2", "bmi1", "bmi2", "adx", "sha", "avx512f", "avx512vl", "vaes",
        ] {
            assert_eq!(r.has(n), Some(true), "{n}");
        }
    }

    #[test]
    fn os_state_gates_vector_features() {
        let mut f = full(7);
        f.xcr0 = 0b111; // YMM but no ZMM state
        let r = Regs::read(&f);
        assert_eq!(r.has("avx2"), Some(true));
        assert_eq!(r.has("vaes"), Some(true));
        assert_eq!(r.has("avx512f"), Some(false));
        f.leaves[1][2] &= !(1 << 27); // no OSXSAVE: XCR0 is not read, no AVX at all
        let r = Regs::read(&f);
        assert_eq!(r.has("avx"), Some(false));
        assert_eq!(r.has("avx2"), Some(false));
        assert_eq!(r.has("bmi2"), Some(true));
    }

    #[test]
    fn every_token_feature_is_known() {
        let r = Regs::default();
        for (token, feats) in crate::X86_TOKENS {
            for f in *feats {
                assert!(r.has(f).is_some(), "{token}: feature {f} not in the table");
            }
        }
    }

    #[cfg(all(target_arch = "x86_64", not(miri)))]
    #[test]
    fn native_matches_std() {
        extern crate std;
        use std::arch::is_x86_feature_detected as has;
        let r = Regs::read(&Native);
        let pairs = [
            ("sse2", has!("sse2")),
            ("ssse3", has!("ssse3")),
            ("sse4.1", has!("sse4.1")),
            ("pclmulqdq", has!("pclmulqdq")),
            ("aes", has!("aes")),
            ("avx", has!("avx")),
            ("avx2", has!("avx2")),
            ("bmi1", has!("bmi1")),
            ("bmi2", has!("bmi2")),
            ("adx", has!("adx")),
            ("sha", has!("sha")),
            ("avx512f", has!("avx512f")),
            ("avx512dq", has!("avx512dq")),
            ("avx512ifma", has!("avx512ifma")),
            ("avx512bw", has!("avx512bw")),
            ("avx512vl", has!("avx512vl")),
            ("avx512vbmi", has!("avx512vbmi")),
            ("gfni", has!("gfni")),
            ("vaes", has!("vaes")),
            ("vpclmulqdq", has!("vpclmulqdq")),
        ];
        for (n, std_says) in pairs {
            // std requires the ZMM state for VAES/VPCLMULQDQ; on an AVX-512 machine they agree.
            if (n == "vaes" || n == "vpclmulqdq") && !has!("avx512f") {
                continue;
            }
            assert_eq!(r.has(n), Some(std_says), "{n}");
        }
    }
}
