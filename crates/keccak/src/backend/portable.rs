//! Portable backend: one state at a time.
#![forbid(unsafe_code)]

use crate::keccak::keccak_p_complemented;

/// Keccak-p on one state, in the lane-complemented form (no AND-NOT instruction is assumed).
#[inline]
pub(crate) fn permute(state: &mut [u64; 25], rounds: usize) {
    keccak_p_complemented(state, rounds);
}

/// Keccak-p on the first `ways` of four interleaved states, one after the other (the idle ways
/// of `Shake128x2` are not computed).
#[inline]
pub(crate) fn permute_x4(state: &mut [[u64; 4]; 25], rounds: usize, ways: usize) {
    for w in 0..ways.min(4) {
        let mut s = [0u64; 25];
        for (d, l) in s.iter_mut().zip(state.iter()) {
            *d = l[w];
        }
        keccak_p_complemented(&mut s, rounds);
        for (l, v) in state.iter_mut().zip(s) {
            l[w] = v;
        }
    }
}
