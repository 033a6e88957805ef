//! Backend selection. Two decisions, each made once when state is created: [`X1Backend`] for
//! the single-state permutation (SHA-3, SHAKE, TurboSHAKE hashers) and [`X4Backend`] for the
//! multi-way permutation (`Shake128x4` and friends, and the lattice crates through
//! [`crate::x4`]).
#![allow(unsafe_code)]

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64_neon;
#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64_sha3;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_avx512;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_bmi;

tessera_cpu::backends! {
    /// Backend of the single-state permutation (SHA-3, SHAKE, TurboSHAKE), decided when a
    /// hasher is created. Public only for tests and benches (`#[doc(hidden)]`, not a stable API).
    pub enum X1Backend {
        /// Plain Rust.
        Portable = "portable",
        /// BMI1/BMI2 (ANDN, RORX) scalar code.
        #[cfg(target_arch = "x86_64")]
        X86Bmi(X86Bmi) = "x86_bmi",
        /// Armv8.2 SHA3 extension (EOR3, RAX1, XAR, BCAX), the state in one element of each
        /// 128-bit register.
        #[cfg(target_arch = "aarch64")]
        Aarch64Sha3(Aarch64Sha3) = "aarch64_sha3",
    }
}

impl X1Backend {
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
            X1Backend::Portable => {
                crate::keccak::absorb_blocks_complemented(state, data, rate, rounds)
            }
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

tessera_cpu::backends! {
    /// Backend of the four-way permutation, decided when a multi-way XOF is created (or by a
    /// lattice crate, see [`crate::x4`]).
    pub enum X4Backend {
        /// Plain Rust, one state at a time.
        Portable = "portable",
        /// The AVX2 code compiled for AVX-512 F+VL: the same four states in ymm lanes, with
        /// VPROLQ rotations, VPTERNLOGQ logic and 32 registers.
        #[cfg(target_arch = "x86_64")]
        X86Avx512(X86Avx512) = "x86_avx512",
        /// AVX2: four independent states in the four 64-bit lanes of ymm registers.
        #[cfg(target_arch = "x86_64")]
        X86Avx2(X86Avx2) = "x86_avx2",
        /// Armv8.2 SHA3 extension: as `Aarch64Neon` with EOR3, RAX1, XAR and BCAX.
        #[cfg(target_arch = "aarch64")]
        Aarch64Sha3(Aarch64Sha3) = "aarch64_sha3",
        /// Plain NEON: two states in the two 64-bit elements of 128-bit registers (x4 = two x2).
        #[cfg(target_arch = "aarch64")]
        Aarch64Neon(Aarch64Neon) = "aarch64_neon",
    }
}

impl X4Backend {
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
            X4Backend::X86Avx2(t) => match equal_x4(inputs) {
                Some(ins) => x86_avx2::absorb_x4(*t, state, ins, rate),
                None => 0,
            },
            #[cfg(target_arch = "x86_64")]
            X4Backend::X86Avx512(t) => match equal_x4(inputs) {
                Some(ins) => x86_avx512::absorb_x4(*t, state, ins, rate),
                None => 0,
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
            X4Backend::Portable => portable::permute_x4(state, rounds, ways),
            #[cfg(target_arch = "x86_64")]
            X4Backend::X86Avx2(t) => x86_avx2::permute_x4(*t, state, rounds),
            #[cfg(target_arch = "x86_64")]
            X4Backend::X86Avx512(t) => x86_avx512::permute_x4(*t, state, rounds),
            #[cfg(target_arch = "aarch64")]
            X4Backend::Aarch64Neon(t) => aarch64_neon::permute_x4(*t, state, rounds, ways),
            #[cfg(target_arch = "aarch64")]
            X4Backend::Aarch64Sha3(t) => aarch64_sha3::permute_x4(*t, state, rounds, ways),
        }
    }
}

/// Four inputs of one length, for the register-resident x4 absorb (`None` otherwise).
#[cfg(target_arch = "x86_64")]
#[inline]
fn equal_x4<'a>(inputs: &[&'a [u8]]) -> Option<[&'a [u8]; 4]> {
    match *inputs {
        [a, b, c, d] if [b, c, d].iter().all(|x| x.len() == a.len()) => Some([a, b, c, d]),
        _ => None,
    }
}
