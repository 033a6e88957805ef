//! BMI1/BMI2 backend for the single-state permutation: the same generic Keccak-p, compiled with
//! ANDN (chi) and RORX (rho, theta) available.

use crate::keccak::keccak_p;

#[target_feature(enable = "bmi1,bmi2")]
fn permute_island(state: &mut [u64; 25], rounds: usize) {
    keccak_p(state, rounds);
}

/// Keccak-p on one state.
#[inline(always)]
pub(crate) fn permute(_t: tessera_cpu::X86Bmi, state: &mut [u64; 25], rounds: usize) {
    // SAFETY: the token proves BMI1 and BMI2 are available on this CPU.
    unsafe { permute_island(state, rounds) }
}
