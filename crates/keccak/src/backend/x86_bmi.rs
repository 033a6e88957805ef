//! BMI1/BMI2 backend for the single-state permutation: the generic unrolled Keccak-p compiled
//! (in the row's island) with ANDN (chi) and RORX (rho, theta) available.
#![forbid(unsafe_code)]

use crate::keccak::{absorb_blocks, keccak_p_unrolled};
use crate::perm::X1Perm;

/// The single-state permutation for the `X86Bmi` token.
pub(crate) struct BmiX1;

impl X1Perm for BmiX1 {
    type Token = tessera_cpu::X86Bmi;

    #[inline(always)]
    fn permute(_: tessera_cpu::X86Bmi, state: &mut [u64; 25], rounds: usize) {
        keccak_p_unrolled(state, rounds);
    }

    /// The whole blocks of any rate a Keccak function here uses (0 for another rate, leaving
    /// the caller's generic path to do it).
    #[inline(always)]
    fn absorb_blocks(
        _: tessera_cpu::X86Bmi,
        state: &mut [u64; 25],
        data: &[u8],
        rate: usize,
        rounds: usize,
    ) -> usize {
        absorb_blocks(state, data, rate, rounds)
    }
}
