//! AVX-512 F+VL backend: the AVX2 code of `x86_avx2.rs` on the same 256-bit vectors, compiled
//! with AVX-512 F+VL, where the compiler turns the rotations into VPROLQ and chi's AND-NOT/XOR
//! into VPTERNLOGQ and has 32 registers, so far less state is spilled.

use super::x86_avx2::{absorb_x4_body, equal_lengths, permute_x4_body};

tessera_cpu::island! {
    /// Keccak-p on four interleaved states.
    pub(crate) fn permute_x4(t: X86Avx512, state: &mut [[u64; 4]; 25], rounds: usize) {
        permute_x4_body(t.avx2(), state, rounds)
    }
}

tessera_cpu::island! {
    fn absorb_island(
        t: X86Avx512,
        state: &mut [[u64; 4]; 25],
        inputs: [&[u8]; 4],
        rate: usize,
    ) -> usize {
        absorb_x4_body(t.avx2(), state, inputs, rate)
    }
}

/// Absorbs the whole `rate`-byte blocks of four inputs of equal length; see
/// `x86_avx2::absorb_x4`.
#[inline]
pub(crate) fn absorb_x4(
    t: tessera_cpu::X86Avx512,
    state: &mut [[u64; 4]; 25],
    inputs: [&[u8]; 4],
    rate: usize,
) -> usize {
    if !equal_lengths(&inputs) {
        return 0;
    }
    absorb_island(t, state, inputs, rate)
}
