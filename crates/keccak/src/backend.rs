//! Backend selection. Two decisions, each made once when state is created: [`X1Backend`] for
//! the single-state permutation (SHA-3, SHAKE, TurboSHAKE hashers) and [`Backend`] for the
//! multi-way permutation (`Shake128x4` and friends).

pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_bmi;

/// Backend of the single-state permutation (SHA-3, SHAKE, TurboSHAKE), decided when a hasher is
/// created. Public only for tests and benches (`#[doc(hidden)]`, not a stable API).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum X1Backend {
    /// Plain Rust.
    Portable,
    /// BMI1/BMI2 (ANDN, RORX) scalar code.
    #[cfg(target_arch = "x86_64")]
    X86Bmi(tessera_cpu::X86Bmi),
}

impl X1Backend {
    /// The best single-state backend this CPU can run.
    #[inline]
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = tessera_cpu::X86Bmi::detect() {
            return X1Backend::X86Bmi(t);
        }
        X1Backend::Portable
    }

    /// Every single-state backend this CPU can run (portable first), for tests and benches.
    pub fn all_available() -> impl Iterator<Item = X1Backend> {
        let bmi: Option<X1Backend> = {
            #[cfg(target_arch = "x86_64")]
            {
                tessera_cpu::X86Bmi::detect().map(X1Backend::X86Bmi)
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                None
            }
        };
        core::iter::once(X1Backend::Portable).chain(bmi)
    }

    /// The backend's stable name (`portable`, `x86_bmi`).
    pub fn name(&self) -> &'static str {
        match self {
            X1Backend::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            X1Backend::X86Bmi(_) => "x86_bmi",
        }
    }

    /// Keccak-p[1600, rounds] on one state.
    #[inline(always)]
    pub(crate) fn permute(self, state: &mut [u64; 25], rounds: usize) {
        match self {
            X1Backend::Portable => portable::permute(state, rounds),
            #[cfg(target_arch = "x86_64")]
            X1Backend::X86Bmi(t) => x86_bmi::permute(t, state, rounds),
        }
    }
}

/// A multi-way Keccak backend, carrying the capability token that proves it can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// Plain Rust, one state at a time.
    Portable,
    /// AVX2: four independent states in the four 64-bit lanes of ymm registers.
    #[cfg(target_arch = "x86_64")]
    X86Avx2(tessera_cpu::X86Avx2),
}

impl Backend {
    /// The best multi-way backend this CPU can run.
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = tessera_cpu::X86Avx2::detect() {
            return Backend::X86Avx2(t);
        }
        Backend::Portable
    }

    /// Every multi-way backend this CPU can run (portable first), for tests and benches.
    pub fn all_available() -> impl Iterator<Item = Backend> {
        let avx2: Option<Backend> = {
            #[cfg(target_arch = "x86_64")]
            {
                tessera_cpu::X86Avx2::detect().map(Backend::X86Avx2)
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                None
            }
        };
        core::iter::once(Backend::Portable).chain(avx2)
    }

    /// Every backend name this crate can have on any CPU, multi-way ([`Backend`]) and
    /// single-state (`X1Backend`) together.
    pub const KNOWN: &'static [&'static str] = &[
        "portable",
        "x86_avx2",
        "x86_bmi",
        "aarch64_neon",
        "aarch64_sha3",
    ];

    /// The backend's stable name (`portable`, `x86_avx2`).
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(_) => "x86_avx2",
        }
    }

    /// Keccak-p[1600, rounds] on the first `ways` (1..=4) of four interleaved states
    /// (`state[lane][way]`); the other ways may be permuted too or left as they are.
    #[inline]
    pub(crate) fn permute_x4(&self, state: &mut [[u64; 4]; 25], rounds: usize, ways: usize) {
        match self {
            Backend::Portable => portable::permute_x4(state, rounds, ways),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::permute_x4(*t, state, rounds),
        }
    }
}
