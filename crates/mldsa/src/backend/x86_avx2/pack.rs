//! SimpleBitPack and SimpleBitUnpack (FIPS 204 Algorithms 16 and 18) on AVX2 units.

use core::arch::x86_64::*;

use tessera_cpu::X86Avx2;

use super::arith::*;
use crate::backend::portable::P8;
use crate::unit::{N, Unit};

/// Whether [`encode`] and [`decode`] vectorise `BITS` (every width ML-DSA uses: even widths up
/// to 24, odd ones up to 16).
#[inline(always)]
pub(super) const fn vector_width<const BITS: u32>() -> bool {
    BITS > 0 && BITS <= 24 && (BITS & 1 == 0 || BITS <= 16)
}

/// Lanes `(c0, c1)` of each qword to `c0 + c1 2^BITS` (`2 BITS` bits). In: `[0, 2^BITS)`.
#[inline(always)]
pub(super) fn pairs_to_qwords<const BITS: u32>(x: V) -> __m256i {
    let c = count(x.1, 32 - BITS);
    // SAFETY: AVX2 proven by the token in `x`.
    unsafe {
        let lo = _mm256_set1_epi64x(0xFFFF_FFFF);
        _mm256_or_si256(
            _mm256_and_si256(x.0, lo),
            _mm256_srl_epi64(_mm256_andnot_si256(lo, x.0), c),
        )
    }
}

/// The inverse of [`pairs_to_qwords`]: qwords of `2 BITS` bits to lane pairs.
#[inline(always)]
pub(super) fn qwords_to_pairs<const BITS: u32>(t: X86Avx2, q: __m256i) -> V {
    let c = count(t, BITS);
    // SAFETY: AVX2 proven by `t`.
    V(
        unsafe {
            _mm256_or_si256(
                _mm256_and_si256(q, _mm256_set1_epi64x((1i64 << BITS) - 1)),
                _mm256_slli_epi64(_mm256_srl_epi64(q, c), 32),
            )
        },
        t,
    )
}

/// FIPS 204 SimpleBitPack (Algorithm 16) of 8 lanes into `BITS` bytes: lane pairs into
/// qwords, then each 128-bit half's two qwords into its low `4 BITS` bits. Even `BITS`: each
/// half is `BITS / 2` whole bytes, copied out; odd `BITS <= 16`: the halves are joined in a
/// `u128`. Other widths take the portable loop. In: `[0, 2^BITS)`. No data-dependent branch or
/// index.
#[inline(always)]
pub(super) fn encode<const BITS: u32>(x: V, out: &mut [u8]) {
    debug_assert_eq!(out.len(), BITS as usize);
    if !vector_width::<BITS>() {
        let mut a = [0i32; N];
        x.store(&mut a);
        P8(a).encode::<BITS>(out);
        return;
    }
    let t = x.1;
    let b = BITS as usize;
    let (c2, c2r) = (count(t, 2 * BITS), count(t, 64 - 2 * BITS));
    let q = pairs_to_qwords::<BITS>(x);
    let mut tmp = [0u8; 32];
    // SAFETY: AVX2 proven by `t`; `tmp` is 32 writable bytes, unaligned store.
    unsafe {
        // Qword pair (q0, q1) -> 128 bits q0 + q1 2^(2 BITS): low qword q0 | q1 << 2 BITS,
        // high qword q1 >> (64 - 2 BITS).
        let up = _mm256_bsrli_epi128::<8>(_mm256_sll_epi64(q, c2));
        let r = _mm256_blend_epi32::<0xCC>(_mm256_or_si256(q, up), _mm256_srl_epi64(q, c2r));
        _mm256_storeu_si256(tmp.as_mut_ptr().cast(), r);
    }
    if BITS & 1 == 0 {
        let h = b >> 1;
        out[..h].copy_from_slice(&tmp[..h]);
        out[h..b].copy_from_slice(&tmp[16..16 + h]);
    } else {
        let mut lo = [0u8; 8];
        let mut hi = [0u8; 8];
        lo.copy_from_slice(&tmp[..8]);
        hi.copy_from_slice(&tmp[16..24]);
        let v =
            u128::from(u64::from_le_bytes(lo)) | u128::from(u64::from_le_bytes(hi)) << (4 * BITS);
        out.copy_from_slice(&v.to_le_bytes()[..b]);
    }
}

/// Each 128-bit half of `v` -> (its low `2 BITS` bits, its next `2 BITS` bits) in its two
/// qwords. Only the low `BITS / 2` bytes of each half are used (odd `BITS`: its first 8). A
/// function, not a closure, so it compiles into the caller's AVX2 island.
#[inline(always)]
pub(super) fn split_halves<const BITS: u32>(t: X86Avx2, v: __m256i) -> __m256i {
    let (c2, c2r) = (count(t, 2 * BITS), count(t, 64 - 2 * BITS));
    // SAFETY: AVX2 proven by `t`.
    unsafe {
        let next = _mm256_or_si256(
            _mm256_bslli_epi128::<8>(_mm256_srl_epi64(v, c2)),
            _mm256_sll_epi64(v, c2r),
        );
        let q = _mm256_blend_epi32::<0xCC>(v, next);
        _mm256_and_si256(q, _mm256_set1_epi64x((1i64 << (2 * BITS)) - 1))
    }
}

/// FIPS 204 SimpleBitUnpack (Algorithm 18) of `BITS` bytes into 8 lanes, the inverse of
/// [`encode`]. Out: `[0, 2^BITS)`. No data-dependent branch or index.
#[inline(always)]
pub(super) fn decode<const BITS: u32>(t: X86Avx2, bytes: &[u8]) -> V {
    debug_assert_eq!(bytes.len(), BITS as usize);
    if !vector_width::<BITS>() {
        return V::load(t, &P8::decode::<BITS>(tessera_cpu::Portable, bytes).0);
    }
    let b = BITS as usize;
    if BITS & 1 == 0 && b >= 16 {
        // z (18 and 20 bits): two 16-byte loads straight from `bytes` (the first and the
        // last 16 of its `BITS`; a byte shuffle brings the second half's start to byte 0),
        // no store-to-load forwarding stall through a stack buffer.
        let h = b >> 1;
        let idx: [u8; 16] = core::array::from_fn(|i| ((16 - h + i) & 15) as u8);
        let bytes = &bytes[..b];
        // SAFETY: AVX2 proven by `t`; `bytes` has `b >= 16` bytes, so both unaligned 16-byte
        // loads (at 0 and at `b - 16`) are in bounds; `idx` is 16 readable bytes.
        let v = unsafe {
            let lo = _mm_loadu_si128(bytes.as_ptr().cast());
            let hi = _mm_loadu_si128(bytes[b - 16..].as_ptr().cast());
            let hi = _mm_shuffle_epi8(hi, _mm_loadu_si128(idx.as_ptr().cast()));
            _mm256_set_m128i(hi, lo)
        };
        return qwords_to_pairs::<BITS>(t, split_halves::<BITS>(t, v));
    }
    let mut tmp = [0u8; 32];
    if BITS & 1 == 0 {
        let h = b >> 1;
        tmp[..h].copy_from_slice(&bytes[..h]);
        tmp[16..16 + h].copy_from_slice(&bytes[h..b]);
    } else {
        let mut w = [0u8; 16];
        w[..b].copy_from_slice(&bytes[..b]);
        let v = u128::from_le_bytes(w);
        let lo = (v & ((1u128 << (4 * BITS)) - 1)) as u64;
        let hi = (v >> (4 * BITS)) as u64;
        tmp[..8].copy_from_slice(&lo.to_le_bytes());
        tmp[16..24].copy_from_slice(&hi.to_le_bytes());
    }
    // SAFETY: AVX2 proven by `t`; `tmp` is 32 readable bytes, unaligned load.
    let v = unsafe { _mm256_loadu_si256(tmp.as_ptr().cast()) };
    qwords_to_pairs::<BITS>(t, split_halves::<BITS>(t, v))
}
