//! The AVX2 unit type and its lane-wise arithmetic (Montgomery products, reductions).

use core::arch::x86_64::*;

use tessera_cpu::X86Avx2;

use crate::unit::{N, Q, Unit};

/// 8 coefficients in a ymm register, with the token that proves AVX2 (so the safe trait
/// methods are sound by construction).
#[derive(Clone, Copy)]
pub(crate) struct V(pub(super) __m256i, pub(super) X86Avx2);

/// q^-1 mod 2^32, as i32.
pub(super) const QINV: i32 = 58_728_449;

/// A shift count in the low 64 bits of an xmm register, for the shifts by register (the
/// counts below depend on const generics, which an immediate cannot).
#[inline(always)]
pub(super) fn count(t: X86Avx2, c: u32) -> __m128i {
    let _ = t;
    // SAFETY: AVX2 (hence SSE2) proven by `t`.
    unsafe { _mm_cvtsi32_si128(c as i32) }
}

impl V {
    #[inline(always)]
    pub(super) fn splat(t: X86Avx2, x: i32) -> Self {
        // SAFETY: AVX2 proven by `t`.
        V(unsafe { _mm256_set1_epi32(x) }, t)
    }
    #[inline(always)]
    pub(super) fn from_array(t: X86Avx2, a: [i32; N]) -> Self {
        Self::load(t, &a)
    }
    /// Wraps a register computed under this value's token.
    #[inline(always)]
    pub(super) fn with(self, x: __m256i) -> Self {
        V(x, self.1)
    }
    /// Montgomery reduction of the products `pe` (even lanes' 64-bit products) and `po` (odd
    /// lanes'), with `te`/`to` the products whose low dword is `t = lo32(a b) q^-1` of each
    /// lane: `(a b - t q) >> 32` in every lane.
    #[inline(always)]
    pub(super) fn mont_reduce_pairs(
        self,
        pe: __m256i,
        po: __m256i,
        te: __m256i,
        to: __m256i,
    ) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        self.with(unsafe {
            let q = _mm256_set1_epi32(Q);
            let re = _mm256_sub_epi64(pe, _mm256_mul_epi32(te, q));
            let ro = _mm256_sub_epi64(po, _mm256_mul_epi32(to, q));
            // The low dwords are zero: keep the high dword of each qword.
            _mm256_blend_epi32(_mm256_srli_epi64(re, 32), ro, 0xAA)
        })
    }
    /// Montgomery product with a zeta vector whose odd lanes equal its even lanes (`z2[2i] =
    /// z2[2i+1]`), `zq` the same vector times q^-1 mod 2^32 (one multiplication less).
    #[inline(always)]
    pub(super) fn mont_mul_pairs(self, z: __m256i, zq: __m256i) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        let (pe, po, te, to) = unsafe {
            let odd = _mm256_srli_epi64(self.0, 32);
            (
                _mm256_mul_epi32(self.0, z),
                _mm256_mul_epi32(odd, z),
                _mm256_mul_epi32(self.0, zq),
                _mm256_mul_epi32(odd, zq),
            )
        };
        self.mont_reduce_pairs(pe, po, te, to)
    }
    /// NTT layer of distance 2 with the zeta vector `z` (`[z0; 4]`, `[z1; 4]`) and `zq`.
    #[inline(always)]
    pub(super) fn ntt_l2(self, z: __m256i, zq: __m256i) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        let (a, t) = unsafe {
            // b operands (lanes 2, 3 of each half) to the even dwords; products back in
            // the odd dwords (1, 3), spread to lanes (2, 3) and (0, 1) alike.
            let m = self.mont_mul_even(_mm256_shuffle_epi32::<0x32>(self.0), z, zq);
            (
                _mm256_unpacklo_epi64(self.0, self.0),
                _mm256_shuffle_epi32::<0xDD>(m),
            )
        };
        V::add_sub_blend::<0xCC>(self.with(a), self.with(t))
    }
    /// NTT layer of distance 1 with the zeta vector `z` (each zeta twice) and `zq`.
    #[inline(always)]
    pub(super) fn ntt_l1(self, z: __m256i, zq: __m256i) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        let (a, t) = unsafe {
            // b operands (odd lanes) to the even dwords; products back in the odd dwords.
            let m = self.mont_mul_even(_mm256_srli_epi64(self.0, 32), z, zq);
            (
                _mm256_shuffle_epi32::<0xA0>(self.0),
                _mm256_shuffle_epi32::<0xF5>(m),
            )
        };
        V::add_sub_blend::<0xAA>(self.with(a), self.with(t))
    }
    /// Inverse NTT layer of distance 1 with the zeta vector `z` (each zeta twice) and `zq`.
    #[inline(always)]
    pub(super) fn invntt_l1(self, z: __m256i, zq: __m256i) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        let sw = self.with(unsafe { _mm256_shuffle_epi32::<0xB1>(self.0) });
        let d = sw.sub(self);
        // SAFETY: AVX2 proven by the token in `self`.
        let m = unsafe { self.mont_mul_even(_mm256_srli_epi64(d.0, 32), z, zq) };
        self.add(sw).blend::<0xAA>(self.with(m))
    }
    /// Inverse NTT layer of distance 2 with the zeta vector `z` (`[z0; 4]`, `[z1; 4]`) and `zq`.
    #[inline(always)]
    pub(super) fn invntt_l2(self, z: __m256i, zq: __m256i) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        let sw = self.with(unsafe { _mm256_shuffle_epi32::<0x4E>(self.0) });
        let d = sw.sub(self);
        // SAFETY: AVX2 proven by the token in `self`.
        let m = unsafe {
            let m = self.mont_mul_even(_mm256_shuffle_epi32::<0x32>(d.0), z, zq);
            _mm256_shuffle_epi32::<0xD0>(m)
        };
        self.add(sw).blend::<0xCC>(self.with(m))
    }
    /// The Montgomery products of lanes 4..8 with `c`, in lanes 4..8 and again in 0..4.
    #[inline(always)]
    pub(super) fn mont_mul_high_const(self, c: i32) -> Self {
        let t = self.1;
        // SAFETY: AVX2 proven by the token in `self`.
        self.with(unsafe {
            let a = _mm256_permutevar8x32_epi32(self.0, _mm256_setr_epi32(4, 4, 5, 5, 6, 6, 7, 7));
            let m = self.mont_mul_even(a, V::splat(t, c).0, V::splat(t, c.wrapping_mul(QINV)).0);
            _mm256_permutevar8x32_epi32(m, _mm256_setr_epi32(1, 3, 5, 7, 1, 3, 5, 7))
        })
    }
    /// Montgomery products of the even dwords of `a` with the even dwords of `z` (`zq` = `z`
    /// q^-1 mod 2^32), left in the odd dwords (the even dwords are garbage): the in-unit NTT
    /// layers multiply only the 4 lanes of their butterflies, gathered into the even dwords,
    /// with 3 `vpmuldq` instead of 6.
    #[inline(always)]
    pub(super) fn mont_mul_even(self, a: __m256i, z: __m256i, zq: __m256i) -> __m256i {
        let _ = self;
        // SAFETY: AVX2 proven by the token in `self`.
        unsafe {
            let p = _mm256_mul_epi32(a, z);
            let t = _mm256_mul_epi32(a, zq);
            _mm256_sub_epi64(p, _mm256_mul_epi32(t, _mm256_set1_epi32(Q)))
        }
    }
    /// Lane-wise select: lanes whose bit in `M` is set come from `b`.
    #[inline(always)]
    pub(super) fn blend<const M: i32>(self, b: Self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        self.with(unsafe { _mm256_blend_epi32::<M>(self.0, b.0) })
    }
    /// `(x + t, x - t)` blended by `M` (lanes set in `M` take the difference).
    #[inline(always)]
    pub(super) fn add_sub_blend<const M: i32>(x: Self, t: Self) -> Self {
        x.add(t).blend::<M>(x.sub(t))
    }
}
