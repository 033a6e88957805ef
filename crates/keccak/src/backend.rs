//! Backend selection for the multi-way permutation (the x1 path is portable everywhere).

pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_bmi;

/// Backend of the single-state permutation (SHA-3, SHAKE, TurboSHAKE), decided when a hasher
/// is created.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum X1 {
    Portable,
    #[cfg(target_arch = "x86_64")]
    X86Bmi(tessera_cpu::X86Bmi),
}

impl X1 {
    #[inline]
    pub(crate) fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = tessera_cpu::X86Bmi::detect() {
            return X1::X86Bmi(t);
        }
        X1::Portable
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            X1::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            X1::X86Bmi(_) => "x86_bmi",
        }
    }

    /// Absorbs whole blocks of `data` with the state kept in registers; returns the bytes
    /// consumed (0 when this backend leaves it to the caller's block loop).
    #[inline(always)]
    pub(crate) fn absorb_blocks(
        self,
        state: &mut [u64; 25],
        data: &[u8],
        rate: usize,
        rounds: usize,
    ) -> usize {
        match self {
            X1::Portable => {
                let _ = (state, data, rate, rounds);
                0
            }
            #[cfg(target_arch = "x86_64")]
            X1::X86Bmi(t) => x86_bmi::absorb_blocks(t, state, data, rate, rounds),
        }
    }

    #[inline(always)]
    pub(crate) fn permute(self, state: &mut [u64; 25], rounds: usize) {
        match self {
            X1::Portable => portable::permute(state, rounds),
            #[cfg(target_arch = "x86_64")]
            X1::X86Bmi(t) => x86_bmi::permute(t, state, rounds),
        }
    }
}

/// A Keccak backend, carrying the capability token that proves it can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// Plain Rust, one state at a time.
    Portable,
    /// AVX2: four independent states in the four 64-bit lanes of ymm registers.
    #[cfg(target_arch = "x86_64")]
    X86Avx2(tessera_cpu::X86Avx2),
}

impl Backend {
    /// The best backend this CPU can run.
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = tessera_cpu::X86Avx2::detect() {
            return Backend::X86Avx2(t);
        }
        Backend::Portable
    }

    /// Every backend this CPU can run (portable first), for tests and benches.
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

    /// Every backend name this crate can have on any CPU.
    pub const KNOWN: &'static [&'static str] = &["portable", "x86_avx2"];

    /// The backend's stable name (`portable`, `x86_avx2`).
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(_) => "x86_avx2",
        }
    }

    /// Keccak-p[1600, rounds] on four interleaved states (`state[lane][way]`).
    #[inline]
    pub(crate) fn permute_x4(&self, state: &mut [[u64; 4]; 25], rounds: usize) {
        match self {
            Backend::Portable => portable::permute_x4(state, rounds),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::permute_x4(*t, state, rounds),
        }
    }
}
