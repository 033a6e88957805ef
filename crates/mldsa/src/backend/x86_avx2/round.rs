//! Decompose (FIPS 204 Algorithm 36) lane-wise.

use core::arch::x86_64::*;

use super::arith::*;
use crate::unit::Q;

/// FIPS 204 Decompose (Algorithm 36) lane-wise, the portable `decompose_one` formula:
/// `a1 = ceil(a / 128)` times a multiply-shift approximation of `128 / (2 gamma2)`, the top
/// value wrapped to 0 (a mask for G2 = 32, a compare-free select for G2 = 88), and
/// `a0 = a - 2 gamma2 a1`, minus q above `(q-1)/2`. In: canonical `[0, q)`.
#[inline(always)]
pub(super) fn decompose<const G2: i32>(x: V) -> (V, V) {
    let g2 = crate::unit::gamma2::<G2>();
    // SAFETY: AVX2 proven by the token in `x`.
    let (a1, a0) = unsafe {
        let a1 = _mm256_srai_epi32(_mm256_add_epi32(x.0, _mm256_set1_epi32(127)), 7);
        let a1 = if G2 == 32 {
            let a1 = _mm256_add_epi32(
                _mm256_mullo_epi32(a1, _mm256_set1_epi32(1025)),
                _mm256_set1_epi32(1 << 21),
            );
            _mm256_and_si256(_mm256_srai_epi32(a1, 22), _mm256_set1_epi32(15))
        } else {
            let a1 = _mm256_add_epi32(
                _mm256_mullo_epi32(a1, _mm256_set1_epi32(11275)),
                _mm256_set1_epi32(1 << 23),
            );
            let a1 = _mm256_srai_epi32(a1, 24);
            let wrap = _mm256_srai_epi32(_mm256_sub_epi32(_mm256_set1_epi32(43), a1), 31);
            _mm256_xor_si256(a1, _mm256_and_si256(wrap, a1))
        };
        let a0 = _mm256_sub_epi32(x.0, _mm256_mullo_epi32(a1, _mm256_set1_epi32(2 * g2)));
        let hi = _mm256_srai_epi32(_mm256_sub_epi32(_mm256_set1_epi32((Q - 1) >> 1), a0), 31);
        (
            a1,
            _mm256_sub_epi32(a0, _mm256_and_si256(hi, _mm256_set1_epi32(Q))),
        )
    };
    (x.with(a1), x.with(a0))
}
