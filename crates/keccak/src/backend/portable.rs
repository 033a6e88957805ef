//! Portable backend: one state at a time, in the lane-complemented form (no AND-NOT
//! instruction is assumed).
#![forbid(unsafe_code)]

use crate::keccak::{absorb_blocks_complemented, keccak_p_complemented};
use crate::perm::{X1Perm, X4Perm};

/// The portable single-state permutation.
pub(crate) struct PortableX1;

impl X1Perm for PortableX1 {
    type Token = tessera_cpu::Portable;

    #[inline]
    fn permute(_: tessera_cpu::Portable, state: &mut [u64; 25], rounds: usize) {
        keccak_p_complemented(state, rounds);
    }

    #[inline(always)]
    fn absorb_blocks(
        _: tessera_cpu::Portable,
        state: &mut [u64; 25],
        data: &[u8],
        rate: usize,
        rounds: usize,
    ) -> usize {
        absorb_blocks_complemented(state, data, rate, rounds)
    }
}

/// The portable four-way permutation: the ways one after the other (the idle ways of
/// `Shake128x2` are not computed).
pub(crate) struct PortableX4;

impl X4Perm for PortableX4 {
    type Token = tessera_cpu::Portable;

    #[inline]
    fn permute_x4(
        _: tessera_cpu::Portable,
        state: &mut [[u64; 4]; 25],
        rounds: usize,
        ways: usize,
    ) {
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
}
