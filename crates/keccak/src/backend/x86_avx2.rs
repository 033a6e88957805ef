//! AVX2 backend: four independent Keccak states, lane `i` of state `w` in 64-bit element `w`
//! of ymm register `i`.

use core::arch::x86_64::*;

use crate::keccak::{Lane, keccak_p};

#[derive(Clone, Copy)]
struct Ymm(__m256i);

impl Lane for Ymm {
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        // SAFETY: only reached from `permute_x4_island`, compiled with AVX2 enabled.
        Ymm(unsafe { _mm256_xor_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        // SAFETY: as above.
        Ymm(unsafe { _mm256_andnot_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn rotl(self, n: u32) -> Self {
        // SAFETY: as above; shift counts of 0 and 64 are defined (64 gives zero).
        Ymm(unsafe {
            _mm256_or_si256(
                _mm256_sll_epi64(self.0, _mm_cvtsi32_si128(n as i32)),
                _mm256_srl_epi64(self.0, _mm_cvtsi32_si128(64 - n as i32)),
            )
        })
    }
    #[inline(always)]
    fn xor_rc(self, rc: u64) -> Self {
        // SAFETY: as above.
        Ymm(unsafe { _mm256_xor_si256(self.0, _mm256_set1_epi64x(rc as i64)) })
    }
}

#[target_feature(enable = "avx2")]
fn permute_x4_island(state: &mut [[u64; 4]; 25], rounds: usize) {
    let mut a = [Ymm(_mm256_setzero_si256()); 25];
    for (r, l) in a.iter_mut().zip(state.iter()) {
        // SAFETY: `l` is a valid, readable [u64; 4] (32 bytes); loadu has no alignment need.
        r.0 = unsafe { _mm256_loadu_si256(l.as_ptr().cast()) };
    }
    keccak_p(&mut a, rounds);
    for (r, l) in a.iter().zip(state.iter_mut()) {
        // SAFETY: `l` is a valid, writable [u64; 4]; storeu has no alignment need.
        unsafe { _mm256_storeu_si256(l.as_mut_ptr().cast(), r.0) };
    }
}

/// Keccak-p on four interleaved states.
#[inline]
pub(crate) fn permute_x4(_t: tessera_cpu::X86Avx2, state: &mut [[u64; 4]; 25], rounds: usize) {
    // SAFETY: the token proves AVX2 is available on this CPU.
    unsafe { permute_x4_island(state, rounds) }
}
