//! BMI1/BMI2 backend for the single-state permutation: the generic unrolled Keccak-p compiled
//! with ANDN (chi) and RORX (rho, theta) available.

use crate::keccak::{absorb_rate, keccak_p_unrolled};

#[target_feature(enable = "bmi1,bmi2")]
fn permute_island(state: &mut [u64; 25], rounds: usize) {
    keccak_p_unrolled(state, rounds);
}

#[target_feature(enable = "bmi1,bmi2")]
fn absorb_island(state: &mut [u64; 25], data: &[u8], rate: usize, rounds: usize) -> usize {
    match rate {
        168 => absorb_rate::<168>(state, data, rounds),
        144 => absorb_rate::<144>(state, data, rounds),
        136 => absorb_rate::<136>(state, data, rounds),
        104 => absorb_rate::<104>(state, data, rounds),
        72 => absorb_rate::<72>(state, data, rounds),
        _ => 0,
    }
}

/// Keccak-p on one state.
#[inline(always)]
pub(crate) fn permute(_t: tessera_cpu::X86Bmi, state: &mut [u64; 25], rounds: usize) {
    // SAFETY: the token proves BMI1 and BMI2 are available on this CPU.
    unsafe { permute_island(state, rounds) }
}

/// Absorbs the whole `rate`-byte blocks of `data` into `state`; returns the bytes consumed
/// (0 for a rate no Keccak function here uses, leaving the caller's generic path to do it).
#[inline(always)]
pub(crate) fn absorb_blocks(
    _t: tessera_cpu::X86Bmi,
    state: &mut [u64; 25],
    data: &[u8],
    rate: usize,
    rounds: usize,
) -> usize {
    // SAFETY: the token proves BMI1 and BMI2 are available on this CPU.
    unsafe { absorb_island(state, data, rate, rounds) }
}
