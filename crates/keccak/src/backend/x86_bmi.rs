//! BMI1/BMI2 backend for the single-state permutation: the generic unrolled Keccak-p compiled
//! with ANDN (chi) and RORX (rho, theta) available.

use crate::keccak::keccak_p_unrolled;

tessera_cpu::island! {
    /// Keccak-p on one state.
    pub(crate) fn permute(_t: X86Bmi, state: &mut [u64; 25], rounds: usize) {
        keccak_p_unrolled(state, rounds);
    }
}

tessera_cpu::island! {
    /// Absorbs the whole `rate`-byte blocks of `data` into `state`; returns the bytes consumed
    /// (0 for a rate no Keccak function here uses, leaving the caller's generic path to do it).
    pub(crate) fn absorb_blocks(
        _t: X86Bmi,
        state: &mut [u64; 25],
        data: &[u8],
        rate: usize,
        rounds: usize,
    ) -> usize {
        crate::keccak::absorb_blocks(state, data, rate, rounds)
    }
}
