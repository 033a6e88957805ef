//! Backend selection. Two decisions, each made once when state is created: [`X1Backend`] for
//! the single-state permutation (SHA-3, SHAKE, TurboSHAKE hashers) and [`Backend`] for the
//! multi-way permutation (`Shake128x4` and friends).

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64_neon;
#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64_sha3;
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
    /// Armv8.2 SHA3 extension (EOR3, RAX1, XAR, BCAX), the state in one element of each
    /// 128-bit register.
    #[cfg(target_arch = "aarch64")]
    Aarch64Sha3(tessera_cpu::Aarch64Sha3),
}

impl X1Backend {
    /// The best single-state backend this CPU can run.
    #[inline]
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = tessera_cpu::X86Bmi::detect() {
            return X1Backend::X86Bmi(t);
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(t) = tessera_cpu::Aarch64Sha3::detect() {
            return X1Backend::Aarch64Sha3(t);
        }
        X1Backend::Portable
    }

    /// Every single-state backend this CPU can run (portable first), for tests and benches.
    pub fn all_available() -> impl Iterator<Item = X1Backend> {
        let isa: Option<X1Backend> = {
            #[cfg(target_arch = "x86_64")]
            {
                tessera_cpu::X86Bmi::detect().map(X1Backend::X86Bmi)
            }
            #[cfg(target_arch = "aarch64")]
            {
                tessera_cpu::Aarch64Sha3::detect().map(X1Backend::Aarch64Sha3)
            }
            #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
            {
                None
            }
        };
        core::iter::once(X1Backend::Portable).chain(isa)
    }

    /// The backend's stable name (`portable`, `x86_bmi`, `aarch64_sha3`).
    pub fn name(&self) -> &'static str {
        match self {
            X1Backend::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            X1Backend::X86Bmi(_) => "x86_bmi",
            #[cfg(target_arch = "aarch64")]
            X1Backend::Aarch64Sha3(_) => "aarch64_sha3",
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
            X1Backend::Portable => portable::absorb_blocks(state, data, rate, rounds),
            #[cfg(target_arch = "x86_64")]
            X1Backend::X86Bmi(t) => x86_bmi::absorb_blocks(t, state, data, rate, rounds),
            #[cfg(target_arch = "aarch64")]
            X1Backend::Aarch64Sha3(_) => {
                let _ = (state, data, rate, rounds);
                0
            }
        }
    }

    /// Keccak-p[1600, rounds] on one state.
    #[inline(always)]
    pub(crate) fn permute(self, state: &mut [u64; 25], rounds: usize) {
        match self {
            X1Backend::Portable => portable::permute(state, rounds),
            #[cfg(target_arch = "x86_64")]
            X1Backend::X86Bmi(t) => x86_bmi::permute(t, state, rounds),
            #[cfg(target_arch = "aarch64")]
            X1Backend::Aarch64Sha3(t) => aarch64_sha3::permute(t, state, rounds),
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
    /// The AVX2 code compiled for AVX-512 F+VL: the same four states in ymm lanes, with VPROLQ
    /// rotations, VPTERNLOGQ logic and 32 registers.
    #[cfg(target_arch = "x86_64")]
    X86Avx512(tessera_cpu::X86Avx512),
    /// Plain NEON: two states in the two 64-bit elements of 128-bit registers (x4 = two x2).
    #[cfg(target_arch = "aarch64")]
    Aarch64Neon(tessera_cpu::Aarch64Neon),
    /// Armv8.2 SHA3 extension: as `Aarch64Neon` with EOR3, RAX1, XAR and BCAX.
    #[cfg(target_arch = "aarch64")]
    Aarch64Sha3(tessera_cpu::Aarch64Sha3),
}

impl Backend {
    /// The best multi-way backend this CPU can run.
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if let Some(t) = tessera_cpu::X86Avx512::detect() {
                return Backend::X86Avx512(t);
            }
            if let Some(t) = tessera_cpu::X86Avx2::detect() {
                return Backend::X86Avx2(t);
            }
        }
        #[cfg(target_arch = "aarch64")]
        {
            if let Some(t) = tessera_cpu::Aarch64Sha3::detect() {
                return Backend::Aarch64Sha3(t);
            }
            if let Some(t) = tessera_cpu::Aarch64Neon::detect() {
                return Backend::Aarch64Neon(t);
            }
        }
        Backend::Portable
    }

    /// Every multi-way backend this CPU can run (portable first), for tests and benches.
    pub fn all_available() -> impl Iterator<Item = Backend> {
        let isa: [Option<Backend>; 2] = {
            #[cfg(target_arch = "x86_64")]
            {
                [
                    tessera_cpu::X86Avx2::detect().map(Backend::X86Avx2),
                    tessera_cpu::X86Avx512::detect().map(Backend::X86Avx512),
                ]
            }
            #[cfg(target_arch = "aarch64")]
            {
                [
                    tessera_cpu::Aarch64Neon::detect().map(Backend::Aarch64Neon),
                    tessera_cpu::Aarch64Sha3::detect().map(Backend::Aarch64Sha3),
                ]
            }
            #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
            {
                [None, None]
            }
        };
        core::iter::once(Backend::Portable).chain(isa.into_iter().flatten())
    }

    /// Every backend name this crate can have on any CPU, multi-way ([`Backend`]) and
    /// single-state (`X1Backend`) together.
    pub const KNOWN: &'static [&'static str] = &[
        "portable",
        "x86_avx2",
        "x86_avx512",
        "x86_bmi",
        "aarch64_neon",
        "aarch64_sha3",
    ];

    /// The backend's stable name (`portable`, `x86_avx2`, `x86_avx512`, `aarch64_neon`, `aarch64_sha3`).
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(_) => "x86_avx2",
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx512(_) => "x86_avx512",
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(_) => "aarch64_neon",
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Sha3(_) => "aarch64_sha3",
        }
    }

    /// Absorbs the whole `rate`-byte blocks of every input (all of one length) with the states
    /// kept in registers; returns the bytes consumed per input (0 when the backend leaves it to
    /// the caller's block loop).
    #[inline]
    pub(crate) fn absorb_x4(
        &self,
        state: &mut [[u64; 4]; 25],
        inputs: &[&[u8]],
        rate: usize,
    ) -> usize {
        match self {
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => match inputs {
                [a, b, c, d] => x86_avx2::avx2::absorb_x4(*t, state, [a, b, c, d], rate),
                _ => 0,
            },
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx512(t) => match inputs {
                [a, b, c, d] => x86_avx2::avx512::absorb_x4(*t, state, [a, b, c, d], rate),
                _ => 0,
            },
            _ => {
                let _ = (state, inputs, rate);
                0
            }
        }
    }

    /// Keccak-p[1600, rounds] on the first `ways` (1..=4) of four interleaved states
    /// (`state[lane][way]`); the other ways may be permuted too or left as they are.
    #[inline]
    pub(crate) fn permute_x4(&self, state: &mut [[u64; 4]; 25], rounds: usize, ways: usize) {
        match self {
            Backend::Portable => portable::permute_x4(state, rounds, ways),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::avx2::permute_x4(*t, state, rounds),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx512(t) => x86_avx2::avx512::permute_x4(*t, state, rounds),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::permute_x4(*t, state, rounds, ways),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Sha3(t) => aarch64_sha3::permute_x4(*t, state, rounds, ways),
        }
    }
}
