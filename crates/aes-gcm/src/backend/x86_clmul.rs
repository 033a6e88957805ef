//! The x86_64 GHASH arithmetic shared by the AES-NI, VAES and VAES-512 backends (compiled for
//! AES-NI + PCLMULQDQ + SSSE3, a subset of what every x86 backend's token proves).
//!
//! Blocks are byte-reflected (loaded big-endian, so the constant term is the top bit) and the
//! key powers are stored as `R(H^i * x^-1)`: the 256-bit carry-less product of two reflected
//! operands is then the reflection of the true product, without the one-bit shift. A product
//! is accumulated unreduced as `(lo, mid, hi)` partial products and reduced modulo
//! `P = x^128 + x^7 + x^2 + x + 1` by two 64-bit folds with the constant `x^-1 mod P`
//! (`0xC2 << 56` in the low half plus a swap for its `1` term).

use core::arch::x86_64::*;

/// `x^-1 mod P` in the reflected representation.
const XINV: u128 = 0xC200_0000_0000_0000_0000_0000_0000_0001;

/// `R(a) -> R(a * x^-1)`: a one-bit shift towards higher degree in reflected form, plus
/// `x^-1` when the constant term falls out (a mask, not a branch).
pub(super) fn mul_xinv(r: u128) -> u128 {
    let mask = (r >> 127).wrapping_neg();
    (r << 1) ^ (mask & XINV)
}

tessera_cpu::with_features! { X86AesClmul;
    #[inline]
    pub(super) fn load(b: &[u8; 16]) -> __m128i {
        // SAFETY: `b` is 16 readable bytes; unaligned load.
        unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
    }

    #[inline]
    pub(super) fn store(b: &mut [u8; 16], v: __m128i) {
        // SAFETY: `b` is 16 writable bytes; unaligned store.
        unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), v) }
    }

    /// Reverses the 16 bytes: a block as stored <-> its reflected value.
    #[inline]
    pub(super) fn bswap(v: __m128i) -> __m128i {
        _mm_shuffle_epi8(
            v,
            _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
        )
    }

    /// Accumulates the unreduced 256-bit product `x * h` into `(lo, mid, hi)`.
    #[inline]
    pub(super) fn mul_acc(x: __m128i, h: __m128i, acc: &mut [__m128i; 3]) {
        acc[0] = _mm_xor_si128(acc[0], _mm_clmulepi64_si128(x, h, 0x00));
        acc[1] = _mm_xor_si128(acc[1], _mm_clmulepi64_si128(x, h, 0x01));
        acc[1] = _mm_xor_si128(acc[1], _mm_clmulepi64_si128(x, h, 0x10));
        acc[2] = _mm_xor_si128(acc[2], _mm_clmulepi64_si128(x, h, 0x11));
    }

    /// Reduces a reflected 256-bit product, given as `(lo, mid, hi)` partial products, modulo
    /// `P`: two 64-bit folds of the low half.
    #[inline]
    pub(super) fn reduce(acc: &[__m128i; 3]) -> __m128i {
        let lo = _mm_xor_si128(acc[0], _mm_slli_si128(acc[1], 8));
        let hi = _mm_xor_si128(acc[2], _mm_srli_si128(acc[1], 8));
        let c = _mm_set_epi64x(0, 0xC200_0000_0000_0000u64 as i64);
        let t = _mm_clmulepi64_si128(lo, c, 0x00);
        let lo = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), t);
        let t = _mm_clmulepi64_si128(lo, c, 0x00);
        let lo = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), t);
        _mm_xor_si128(hi, lo)
    }

    /// `R(a) * R(b x^-1) = R(a b)`.
    #[inline]
    pub(super) fn gf_mul(a: __m128i, b: __m128i) -> __m128i {
        let mut acc = [_mm_setzero_si128(); 3];
        mul_acc(a, b, &mut acc);
        reduce(&acc)
    }
}
