//! AVX-512 F+VL backend: the AVX2 code of `x86_avx2.rs` on the same 256-bit vectors, compiled
//! (in the row's island) with AVX-512 F+VL, where the compiler turns the rotations into VPROLQ
//! and chi's AND-NOT/XOR into VPTERNLOGQ and has 32 registers, so far less state is spilled.
#![forbid(unsafe_code)]

use super::x86_avx2::{absorb_x4_body, permute_x4_body};
use crate::perm::X4Perm;

/// The four-way permutation for the `X86Avx512` token (whose `avx2()` gives the AVX2 token the
/// lanes carry).
pub(crate) struct Avx512X4;

impl X4Perm for Avx512X4 {
    type Token = tessera_cpu::X86Avx512;

    #[inline(always)]
    fn permute_x4(t: tessera_cpu::X86Avx512, state: &mut [[u64; 4]; 25], rounds: usize, _: usize) {
        permute_x4_body(t.avx2(), state, rounds)
    }

    #[inline(always)]
    fn absorb_x4(
        t: tessera_cpu::X86Avx512,
        state: &mut [[u64; 4]; 25],
        inputs: [&[u8]; 4],
        rate: usize,
    ) -> usize {
        absorb_x4_body(t.avx2(), state, inputs, rate)
    }
}
