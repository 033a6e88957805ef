//! AVX2 backend: a unit is one ymm register of 8 x i32 in natural coefficient order.
//!
//! Montgomery multiplication uses `vpmuldq` (signed 32 x 32 -> 64-bit products of the even
//! dwords) on the even lanes and on the odd lanes shifted down: `t = lo32(a b) q^-1`, then
//! `a b - t q`, whose low 32 bits cancel, so its high dword is exactly the portable
//! `(a b - t q) >> 32`. Every other operation evaluates the portable formula lane-wise with
//! the same intermediate values (the same representatives come out, not merely congruent
//! ones), so the equivalence tests compare raw outputs with the portable backend.
//!
//! The NTT and inverse NTT ([`ntt`], [`invntt`], compiled once in the `ntt_poly` and
//! `invntt_poly` islands) follow [`crate::poly::ntt`] and [`crate::poly::invntt`] with the
//! portable twiddles and reduction points: the polynomial is loaded once into 32 units, the
//! layers of distance >= 8 are butterflies between units (constant distances, unrolled), and
//! the layers of distance 4, 2 and 1 work inside a unit (`vpermd`, `vperm2i128`,
//! `vpunpck*qdq`, `vpshufd` and blends), multiplying only the 4 lanes of their butterflies,
//! with zeta vectors loaded from compile-time tables. The per-layer trait methods compute the
//! same in-unit layers from zeta arrays (the equivalence tests check them one by one).
//!
//! Closures compile without the calling island's target features, so intrinsics in them are
//! calls: [`rej_uniform`], which ExpandA calls from closures, runs in an island of its own.
//!
//! Decompose, UseHint, Power2Round and the norm check are branch-free lane-wise formulas; bit
//! packing of even widths is vectorised (pairs of lanes into qwords, qword pairs into the low
//! bytes of each 128-bit half), odd widths combine the two halves in a `u128`. The rejection
//! step of RejNTTPoly compacts the accepted candidates with `vpermd` and a table indexed by
//! the acceptance mask (public data: the matrix is public); the rejection step of
//! RejBoundedPoly, whose input is secret, computes its values without a branch and compacts
//! them the same way, indexed by its accept mask only once that mask (which half-bytes are
//! rejected, independent of the accepted values) is released as public.

use core::arch::x86_64::*;

use tessera_cpu::X86Avx2;

use super::portable::P8;
use crate::poly::{self, INVNTT_F, Poly, UNITS, ZETAS};
use crate::unit::{N, Q, Unit};

/// 8 coefficients in a ymm register, with the token that proves AVX2 (so the safe trait
/// methods are sound by construction).
#[derive(Clone, Copy)]
pub(crate) struct V(__m256i, X86Avx2);

/// q^-1 mod 2^32, as i32.
const QINV: i32 = 58_728_449;

/// A shift count in the low 64 bits of an xmm register, for the shifts by register (the
/// counts below depend on const generics, which an immediate cannot).
#[inline(always)]
fn count(t: X86Avx2, c: u32) -> __m128i {
    let _ = t;
    // SAFETY: AVX2 (hence SSE2) proven by `t`.
    unsafe { _mm_cvtsi32_si128(c as i32) }
}

impl V {
    #[inline(always)]
    fn splat(t: X86Avx2, x: i32) -> Self {
        // SAFETY: AVX2 proven by `t`.
        V(unsafe { _mm256_set1_epi32(x) }, t)
    }
    #[inline(always)]
    fn from_array(t: X86Avx2, a: [i32; N]) -> Self {
        Self::load(t, &a)
    }
    /// Wraps a register computed under this value's token.
    #[inline(always)]
    fn with(self, x: __m256i) -> Self {
        V(x, self.1)
    }
    /// Montgomery reduction of the products `pe` (even lanes' 64-bit products) and `po` (odd
    /// lanes'), with `te`/`to` the products whose low dword is `t = lo32(a b) q^-1` of each
    /// lane: `(a b - t q) >> 32` in every lane.
    #[inline(always)]
    fn mont_reduce_pairs(self, pe: __m256i, po: __m256i, te: __m256i, to: __m256i) -> Self {
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
    fn mont_mul_pairs(self, z: __m256i, zq: __m256i) -> Self {
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
    fn ntt_l2(self, z: __m256i, zq: __m256i) -> Self {
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
    fn ntt_l1(self, z: __m256i, zq: __m256i) -> Self {
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
    fn invntt_l1(self, z: __m256i, zq: __m256i) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        let sw = self.with(unsafe { _mm256_shuffle_epi32::<0xB1>(self.0) });
        let d = sw.sub(self);
        // SAFETY: AVX2 proven by the token in `self`.
        let m = unsafe { self.mont_mul_even(_mm256_srli_epi64(d.0, 32), z, zq) };
        self.add(sw).blend::<0xAA>(self.with(m))
    }
    /// Inverse NTT layer of distance 2 with the zeta vector `z` (`[z0; 4]`, `[z1; 4]`) and `zq`.
    #[inline(always)]
    fn invntt_l2(self, z: __m256i, zq: __m256i) -> Self {
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
    fn mont_mul_high_const(self, c: i32) -> Self {
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
    fn mont_mul_even(self, a: __m256i, z: __m256i, zq: __m256i) -> __m256i {
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
    fn blend<const M: i32>(self, b: Self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        self.with(unsafe { _mm256_blend_epi32::<M>(self.0, b.0) })
    }
    /// `(x + t, x - t)` blended by `M` (lanes set in `M` take the difference).
    #[inline(always)]
    fn add_sub_blend<const M: i32>(x: Self, t: Self) -> Self {
        x.add(t).blend::<M>(x.sub(t))
    }
}

impl Unit for V {
    type Token = X86Avx2;

    #[inline(always)]
    fn hashes(t: X86Avx2) -> crate::hash::Hashes {
        use tessera_keccak::{X1Backend, X4Backend};
        crate::hash::Hashes {
            x1: X1Backend::detect(),
            x4: Some(
                tessera_cpu::X86Avx512::detect()
                    .map_or(X4Backend::X86Avx2(t), X4Backend::X86Avx512),
            ),
        }
    }

    #[inline(always)]
    fn load(t: X86Avx2, a: &[i32; N]) -> Self {
        // SAFETY: AVX2 proven by `t`; `a` is 32 readable bytes and the load is unaligned.
        V(unsafe { _mm256_loadu_si256(a.as_ptr().cast()) }, t)
    }
    #[inline(always)]
    fn store(self, a: &mut [i32; N]) {
        // SAFETY: AVX2 proven by the token; `a` is 32 writable bytes, unaligned store.
        unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        self.with(unsafe { _mm256_add_epi32(self.0, b.0) })
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        self.with(unsafe { _mm256_sub_epi32(self.0, b.0) })
    }
    #[inline(always)]
    fn rsub_const(self, c: i32) -> Self {
        V::splat(self.1, c).sub(self)
    }
    #[inline(always)]
    fn shl(self, s: u32) -> Self {
        let c = count(self.1, s);
        // SAFETY: AVX2 proven by the token in `self`.
        self.with(unsafe { _mm256_sll_epi32(self.0, c) })
    }
    #[inline(always)]
    fn split_low(self, s: u32) -> (Self, Self) {
        let (up, down) = (count(self.1, 32 - s), count(self.1, s));
        // SAFETY: AVX2 proven by the token in `self`.
        let (lo, hi) = unsafe {
            let lo = _mm256_sra_epi32(_mm256_sll_epi32(self.0, up), up);
            (lo, _mm256_sra_epi32(_mm256_sub_epi32(self.0, lo), down))
        };
        (self.with(lo), self.with(hi))
    }
    #[inline(always)]
    fn mont_mul(self, b: Self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        let (pe, po, te, to) = unsafe {
            let qinv = _mm256_set1_epi32(QINV);
            let pe = _mm256_mul_epi32(self.0, b.0);
            let po = _mm256_mul_epi32(_mm256_srli_epi64(self.0, 32), _mm256_srli_epi64(b.0, 32));
            (
                pe,
                po,
                _mm256_mul_epi32(pe, qinv),
                _mm256_mul_epi32(po, qinv),
            )
        };
        self.mont_reduce_pairs(pe, po, te, to)
    }
    #[inline(always)]
    fn mont_mul_const(self, c: i32) -> Self {
        let t = self.1;
        self.mont_mul_pairs(V::splat(t, c).0, V::splat(t, c.wrapping_mul(QINV)).0)
    }
    #[inline(always)]
    fn reduce32(self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        self.with(unsafe {
            let t = _mm256_srai_epi32(_mm256_add_epi32(self.0, _mm256_set1_epi32(1 << 22)), 23);
            _mm256_sub_epi32(self.0, _mm256_mullo_epi32(t, _mm256_set1_epi32(Q)))
        })
    }
    #[inline(always)]
    fn caddq(self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        self.with(unsafe {
            let m = _mm256_and_si256(_mm256_srai_epi32(self.0, 31), _mm256_set1_epi32(Q));
            _mm256_add_epi32(self.0, m)
        })
    }
    #[inline(always)]
    fn centered(self) -> Self {
        let x = self.caddq();
        // SAFETY: AVX2 proven by the token in `self`.
        x.with(unsafe {
            let d = _mm256_sub_epi32(_mm256_set1_epi32((Q - 1) >> 1), x.0);
            let m = _mm256_and_si256(_mm256_srai_epi32(d, 31), _mm256_set1_epi32(Q));
            _mm256_sub_epi32(x.0, m)
        })
    }
    #[inline(always)]
    fn ntt_butterfly(a: &mut Self, b: &mut Self, zeta: i32) {
        let t = b.mont_mul_const(zeta);
        *b = a.sub(t);
        *a = a.add(t);
    }
    #[inline(always)]
    fn ntt_layer_4(self, zeta: i32) -> Self {
        let t = self.mont_mul_high_const(zeta);
        // SAFETY: AVX2 proven by the token in `self`.
        let a = unsafe { _mm256_permute2x128_si256::<0x00>(self.0, self.0) };
        V::add_sub_blend::<0xF0>(self.with(a), t)
    }
    #[inline(always)]
    fn ntt_layer_2(self, z: [i32; 2]) -> Self {
        let zv = [z[0], z[0], z[0], z[0], z[1], z[1], z[1], z[1]];
        let t = self.1;
        self.ntt_l2(V::from_array(t, zv).0, V::from_array(t, zq(zv)).0)
    }
    #[inline(always)]
    fn ntt_layer_1(self, z: [i32; 4]) -> Self {
        let zv = [z[0], z[0], z[1], z[1], z[2], z[2], z[3], z[3]];
        let t = self.1;
        self.ntt_l1(V::from_array(t, zv).0, V::from_array(t, zq(zv)).0)
    }
    #[inline(always)]
    fn invntt_butterfly(a: &mut Self, b: &mut Self, zeta: i32) {
        let t = *a;
        *a = t.add(*b);
        *b = t.sub(*b).mont_mul_const(zeta);
    }
    #[inline(always)]
    fn invntt_layer_1(self, z: [i32; 4]) -> Self {
        let zv = [z[0], z[0], z[1], z[1], z[2], z[2], z[3], z[3]];
        let t = self.1;
        self.invntt_l1(V::from_array(t, zv).0, V::from_array(t, zq(zv)).0)
    }
    #[inline(always)]
    fn invntt_layer_2(self, z: [i32; 2]) -> Self {
        let zv = [z[0], z[0], z[0], z[0], z[1], z[1], z[1], z[1]];
        let t = self.1;
        self.invntt_l2(V::from_array(t, zv).0, V::from_array(t, zq(zv)).0)
    }
    #[inline(always)]
    fn invntt_layer_4(self, zeta: i32) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        let sw = self.with(unsafe { _mm256_permute2x128_si256::<0x01>(self.0, self.0) });
        let d = sw.sub(self).mont_mul_high_const(zeta);
        self.add(sw).blend::<0xF0>(d)
    }
    #[inline(always)]
    fn power2round(self) -> (Self, Self) {
        // SAFETY: AVX2 proven by the token in `self`.
        let (r1, r0) = unsafe {
            let r1 = _mm256_srai_epi32(
                _mm256_add_epi32(self.0, _mm256_set1_epi32((1 << 12) - 1)),
                13,
            );
            (r1, _mm256_sub_epi32(self.0, _mm256_slli_epi32(r1, 13)))
        };
        (self.with(r1), self.with(r0))
    }
    #[inline(always)]
    fn decompose<const G2: i32>(self) -> (Self, Self) {
        decompose::<G2>(self)
    }
    #[inline(always)]
    fn use_hint<const G2: i32>(self, h: Self) -> Self {
        let m = if G2 == 32 { 16 } else { 44 };
        let (r1, r0) = decompose::<G2>(self);
        // SAFETY: AVX2 proven by the token in `self`.
        self.with(unsafe {
            // pos = 1 when r0 > 0 (the sign bit of -r0); delta = h (2 pos - 1).
            let pos = _mm256_srli_epi32(_mm256_sub_epi32(_mm256_setzero_si256(), r0.0), 31);
            let pm = _mm256_sub_epi32(_mm256_slli_epi32(pos, 1), _mm256_set1_epi32(1));
            let x = _mm256_add_epi32(r1.0, _mm256_mullo_epi32(h.0, pm));
            let mv = _mm256_set1_epi32(m);
            let x = _mm256_add_epi32(x, _mm256_and_si256(_mm256_srai_epi32(x, 31), mv));
            let over = _mm256_srai_epi32(_mm256_sub_epi32(_mm256_set1_epi32(m - 1), x), 31);
            _mm256_sub_epi32(x, _mm256_and_si256(over, mv))
        })
    }
    #[inline(always)]
    fn ne_mask01(self, b: Self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        self.with(unsafe {
            _mm256_andnot_si256(_mm256_cmpeq_epi32(self.0, b.0), _mm256_set1_epi32(1))
        })
    }
    #[inline(always)]
    fn exceeds(self, bound: i32) -> bool {
        // SAFETY: AVX2 proven by the token in `self`.
        let signs = unsafe {
            // (bound - 1) - |a| < 0 in some lane (|a| < 2^31 - 1, so `vpabsd` is exact); the
            // sign bits of all lanes in one mask, no branch per lane.
            let d = _mm256_sub_epi32(_mm256_set1_epi32(bound - 1), _mm256_abs_epi32(self.0));
            _mm256_movemask_ps(_mm256_castsi256_ps(d))
        };
        signs != 0
    }
    #[inline(always)]
    fn sum(self) -> i32 {
        // SAFETY: AVX2 proven by the token in `self`.
        unsafe {
            let s = _mm_add_epi32(
                _mm256_castsi256_si128(self.0),
                _mm256_extracti128_si256::<1>(self.0),
            );
            let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0x4E>(s));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0xB1>(s));
            _mm_cvtsi128_si32(s)
        }
    }
    #[inline(always)]
    fn encode<const BITS: u32>(self, out: &mut [u8]) {
        encode::<BITS>(self, out)
    }
    #[inline(always)]
    fn decode<const BITS: u32>(t: X86Avx2, bytes: &[u8]) -> Self {
        decode::<BITS>(t, bytes)
    }
    #[inline(always)]
    fn rej_uniform(t: X86Avx2, bytes: &[u8], out: &mut [i32; 256], n: &mut usize) {
        // Through its own island: the samplers call it from closures, which do not inherit
        // the calling island's target features (the intrinsics would not inline into them).
        rej_uniform_island(t, bytes, out, n)
    }
    #[inline(always)]
    fn rej_eta<const ETA: i32>(t: X86Avx2, bytes: &[u8], out: &mut [i32; 256], n: &mut usize) {
        rej_eta::<ETA>(t, bytes, out, n)
    }
    #[inline(always)]
    fn wipe_coeffs(_t: X86Avx2, p: &mut [i32]) {
        wipe_wide::<i32, 8>(p)
    }
    #[inline(always)]
    fn wipe_bytes(_t: X86Avx2, b: &mut [u8]) {
        wipe_wide::<u8, 32>(b)
    }
    #[inline(always)]
    fn ntt_poly(t: X86Avx2, p: &mut [i32; 256]) {
        ntt_poly(t, p)
    }
    #[inline(always)]
    fn invntt_poly(t: X86Avx2, p: &mut [i32; 256]) {
        invntt_poly(t, p)
    }
}

use tessera_cpu::wipe_wide;

/// `z * q^-1 mod 2^32` lane-wise: the second operand of [`V::mont_mul_pairs`].
#[inline(always)]
const fn zq(z: [i32; N]) -> [i32; N] {
    let mut r = [0; N];
    let mut i = 0;
    while i < N {
        r[i] = z[i].wrapping_mul(QINV);
        i += 1;
    }
    r
}

/// The zeta vectors of the in-unit layers of unit `u` for [`ntt`] and [`invntt`], as the
/// generic [`crate::poly::ntt`] passes them to the trait methods (`[z; 4]` per block for
/// distance 2, each zeta twice for distance 1; the inverse NTT's negated), built at compile
/// time with their `zq` products so the NTT loads them instead of assembling them.
struct LayerZetas {
    z: [[i32; N]; UNITS],
    zq: [[i32; N]; UNITS],
}

impl LayerZetas {
    const fn new(f: [[i32; N]; UNITS]) -> Self {
        let mut zq_all = [[0; N]; UNITS];
        let mut u = 0;
        while u < UNITS {
            zq_all[u] = zq(f[u]);
            u += 1;
        }
        LayerZetas { z: f, zq: zq_all }
    }
    /// The two operands for unit `u`.
    #[inline(always)]
    fn get(&self, t: X86Avx2, u: usize) -> (__m256i, __m256i) {
        (V::load(t, &self.z[u]).0, V::load(t, &self.zq[u]).0)
    }
}

/// Lane `i` of unit `u` takes `ZETAS[base + k]` (or `-ZETAS[base - k]` when `neg`), with
/// `k = per u + b` and `b` the block of lane `i` among the unit's `per` blocks (`per` = 2:
/// blocks of 4 lanes; `per` = 4: blocks of 2).
const fn layer_table(base: usize, per: usize, neg: bool) -> [[i32; N]; UNITS] {
    let mut r = [[0; N]; UNITS];
    let mut u = 0;
    while u < UNITS {
        let mut i = 0;
        while i < N {
            let k = u * per + (i >> if per == 2 { 2 } else { 1 });
            let z = if neg {
                -ZETAS[base - k]
            } else {
                ZETAS[base + k]
            };
            r[u][i] = z;
            i += 1;
        }
        u += 1;
    }
    r
}

const NTT_Z2: LayerZetas = LayerZetas::new(layer_table(64, 2, false));
const NTT_Z1: LayerZetas = LayerZetas::new(layer_table(128, 4, false));
const INV_Z1: LayerZetas = LayerZetas::new(layer_table(255, 4, true));
const INV_Z2: LayerZetas = LayerZetas::new(layer_table(127, 2, true));

/// FIPS 204 Algorithm 41 (NTT) on AVX2 units: [`crate::poly::ntt`] with the in-unit layers'
/// zeta vectors loaded from [`LayerZetas`] tables (the same twiddles and reduction points,
/// so the same outputs). In: `|a| < q`. Out: `|a| < 9q`.
#[inline(always)]
fn ntt(t: X86Avx2, p: &mut Poly) {
    let mut v = load_poly(t, p);
    // Distances 16..1 units: block b of each layer takes the next zeta, as in poly::ntt.
    ct_layer::<16>(&mut v, 1);
    ct_layer::<8>(&mut v, 2);
    ct_layer::<4>(&mut v, 4);
    ct_layer::<2>(&mut v, 8);
    ct_layer::<1>(&mut v, 16);
    for (u, x) in v.iter_mut().enumerate() {
        let (z2, z2q) = NTT_Z2.get(t, u);
        let (z1, z1q) = NTT_Z1.get(t, u);
        *x = x.ntt_layer_4(ZETAS[32 + u]).ntt_l2(z2, z2q).ntt_l1(z1, z1q);
    }
    poly::store(&v, p);
}

/// The Cooley-Tukey butterflies of distance `D` units (constant, so the loops unroll and the
/// units stay in registers or fixed stack slots): block `b` (units `2 D b .. 2 D b + 2 D`)
/// with `ZETAS[k + b]`.
#[inline(always)]
fn ct_layer<const D: usize>(v: &mut [V; UNITS], k: usize) {
    let blocks = (UNITS >> 1) >> D.trailing_zeros();
    for b in 0..blocks {
        let z = ZETAS[k + b];
        for j in 0..D {
            let (i, h) = (2 * D * b + j, 2 * D * b + j + D);
            let (mut x, mut y) = (v[i], v[h]);
            V::ntt_butterfly(&mut x, &mut y, z);
            v[i] = x;
            v[h] = y;
        }
    }
}

/// The Gentleman-Sande butterflies of distance `D` units: block `b` with `-ZETAS[k - b]`.
#[inline(always)]
fn gs_layer<const D: usize>(v: &mut [V; UNITS], k: usize) {
    let blocks = (UNITS >> 1) >> D.trailing_zeros();
    for b in 0..blocks {
        let z = -ZETAS[k - b];
        for j in 0..D {
            let (i, h) = (2 * D * b + j, 2 * D * b + j + D);
            let (mut x, mut y) = (v[i], v[h]);
            V::invntt_butterfly(&mut x, &mut y, z);
            v[i] = x;
            v[h] = y;
        }
    }
}

/// FIPS 204 Algorithm 42 (NTT^-1) times 2^32 on AVX2 units: [`crate::poly::invntt`] with the
/// in-unit layers' zeta vectors loaded from [`LayerZetas`] tables. In: `|a| < q`.
/// Out: `|a| < q`.
#[inline(always)]
fn invntt(t: X86Avx2, p: &mut Poly) {
    let mut v = load_poly(t, p);
    for (u, x) in v.iter_mut().enumerate() {
        let (z1, z1q) = INV_Z1.get(t, u);
        let (z2, z2q) = INV_Z2.get(t, u);
        *x = x
            .invntt_l1(z1, z1q)
            .invntt_l2(z2, z2q)
            .invntt_layer_4(-ZETAS[63 - u]);
    }
    // Distances 1..16 units, zetas from index 31 down, as in poly::invntt.
    gs_layer::<1>(&mut v, 31);
    gs_layer::<2>(&mut v, 15);
    gs_layer::<4>(&mut v, 7);
    gs_layer::<8>(&mut v, 3);
    // The last layer (distance 16, -ZETAS[1]) with the final factor applied to both outputs
    // of each butterfly in the same pass (the same products as a separate pass).
    let z = -ZETAS[1];
    for j in 0..UNITS >> 1 {
        let (mut x, mut y) = (v[j], v[j + (UNITS >> 1)]);
        V::invntt_butterfly(&mut x, &mut y, z);
        v[j] = x.mont_mul_const(INVNTT_F);
        v[j + (UNITS >> 1)] = y.mont_mul_const(INVNTT_F);
    }
    poly::store(&v, p);
}

/// FIPS 204 Decompose (Algorithm 36) lane-wise, the portable `decompose_one` formula:
/// `a1 = ceil(a / 128)` times a multiply-shift approximation of `128 / (2 gamma2)`, the top
/// value wrapped to 0 (a mask for G2 = 32, a compare-free select for G2 = 88), and
/// `a0 = a - 2 gamma2 a1`, minus q above `(q-1)/2`. In: canonical `[0, q)`.
#[inline(always)]
fn decompose<const G2: i32>(x: V) -> (V, V) {
    let g2 = super::portable::gamma2::<G2>();
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

/// Whether [`encode`] and [`decode`] vectorise `BITS` (every width ML-DSA uses: even widths up
/// to 24, odd ones up to 16).
#[inline(always)]
const fn vector_width<const BITS: u32>() -> bool {
    BITS > 0 && BITS <= 24 && (BITS & 1 == 0 || BITS <= 16)
}

/// Lanes `(c0, c1)` of each qword to `c0 + c1 2^BITS` (`2 BITS` bits). In: `[0, 2^BITS)`.
#[inline(always)]
fn pairs_to_qwords<const BITS: u32>(x: V) -> __m256i {
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
fn qwords_to_pairs<const BITS: u32>(t: X86Avx2, q: __m256i) -> V {
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
fn encode<const BITS: u32>(x: V, out: &mut [u8]) {
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
fn split_halves<const BITS: u32>(t: X86Avx2, v: __m256i) -> __m256i {
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
fn decode<const BITS: u32>(t: X86Avx2, bytes: &[u8]) -> V {
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

/// `vpermd` indices that move the lanes selected by an 8-bit mask to the front, in order, as
/// eight 4-bit fields of a `u32` (unused fields 0): the compaction step of RejNTTPoly. Built
/// at compile time.
const REJ_IDX: [u32; 256] = {
    let mut tab = [0u32; 256];
    let mut m = 0;
    while m < 256 {
        let (pos, n) = tessera_cpu::compaction::lanes(m);
        let mut k = 0;
        while k < n {
            tab[m] |= (pos[k] as u32) << (4 * k);
            k += 1;
        }
        m += 1;
    }
    tab
};

/// The rejection step of RejNTTPoly (FIPS 204 Algorithm 30 with CoeffFromThreeBytes,
/// Algorithm 14) on AVX2: 24 bytes (8 candidates) per step, spread to one candidate per dword
/// (`vpermd` then `vpshufb`), masked to 23 bits, compared with q, and the accepted ones
/// compacted with [`REJ_IDX`] (indexed by the acceptance mask: public data, the matrix is
/// public) and stored 8 lanes at a time, the lanes past the accepted ones zeroed. The
/// remaining bytes (fewer than 24, or when fewer than 8 free slots remain) go through the
/// portable loop, which stops at 256. Same results as the portable loop; lanes of `out` past
/// the final `*n` (up to 7) may be overwritten with zeros. Out: `[0, q)`.
#[inline(always)]
fn rej_uniform(_t: X86Avx2, bytes: &[u8], out: &mut [i32; 256], n: &mut usize) {
    let mut pos = 0;
    while pos + 24 <= bytes.len() && *n + 8 <= 256 {
        let mut tail = [0u8; 32];
        let win: &[u8; 32] = match bytes.get(pos..pos + 32) {
            Some(s) => s.try_into().unwrap_or(&tail),
            None => {
                tail[..24].copy_from_slice(&bytes[pos..pos + 24]);
                &tail
            }
        };
        // SAFETY: AVX2 proven by `_t`; `win` is 32 readable bytes, unaligned load.
        let (c, good) = unsafe {
            let v = _mm256_loadu_si256(win.as_ptr().cast());
            // Bytes 0..12 to the low half, 12..24 to the high half.
            let v = _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0));
            let z = -1;
            let v = _mm256_shuffle_epi8(
                v,
                _mm256_setr_epi8(
                    0, 1, 2, z, 3, 4, 5, z, 6, 7, 8, z, 9, 10, 11, z, //
                    0, 1, 2, z, 3, 4, 5, z, 6, 7, 8, z, 9, 10, 11, z,
                ),
            );
            let c = _mm256_and_si256(v, _mm256_set1_epi32(0x7F_FFFF));
            let good = _mm256_cmpgt_epi32(_mm256_set1_epi32(Q), c);
            (c, _mm256_movemask_ps(_mm256_castsi256_ps(good)) as u32)
        };
        let m = good as usize & 0xFF;
        let k = good.count_ones() as i32;
        let dst: &mut [i32; 8] = (&mut out[*n..*n + 8])
            .try_into()
            .unwrap_or_else(|_| unreachable!());
        // SAFETY: AVX2 proven by `_t`; `dst` is 32 writable bytes, unaligned store.
        unsafe {
            let idx = _mm256_srlv_epi32(
                _mm256_set1_epi32(REJ_IDX[m] as i32),
                _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28),
            );
            let idx = _mm256_and_si256(idx, _mm256_set1_epi32(7));
            let r = _mm256_permutevar8x32_epi32(c, idx);
            let keep = _mm256_cmpgt_epi32(
                _mm256_set1_epi32(k),
                _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
            );
            _mm256_storeu_si256(dst.as_mut_ptr().cast(), _mm256_and_si256(r, keep));
        }
        *n += k as usize;
        pos += 24;
    }
    P8::rej_uniform(tessera_cpu::Portable, &bytes[pos..], out, n)
}

/// The rejection step of RejBoundedPoly (FIPS 204 Algorithm 31 with CoeffFromHalfByte,
/// Algorithm 15) on AVX2, the portable loop's results: per 32-byte chunk, 4 bytes (8
/// half-bytes, low half first) per unit, the values (`2 - z mod 5` or `4 - z`) computed in
/// every lane without a branch, and the 64-bit accept mask of the chunk assembled from the
/// lane comparisons. As in the portable loop, the mask (which half-bytes are rejected, not
/// their values) is released as public (`crate::dsa::public_u64`) before anything branches on
/// it or indexes with it: the accepted lanes of each unit are then compacted with `vpermd`
/// and [`REJ_IDX`] indexed by the unit's 8 mask bits and stored with a lane mask (nothing
/// past the accepted lanes is written); a unit with fewer than 8 free slots left goes lane by
/// lane (indexed by the public lane number), stopping at 256. Out: `[-ETA, ETA]`.
#[inline(always)]
fn rej_eta<const ETA: i32>(_t: X86Avx2, bytes: &[u8], out: &mut [i32; 256], n: &mut usize) {
    use zeroize::Zeroize;
    // Half-bytes `>= BOUND` are rejected (15 for eta 2, 9 for eta 4).
    let bound = if ETA == 2 { 15 } else { 9 };
    let mut win = [0u8; 32];
    let mut vals = [[0i32; N]; 8];
    for chunk in bytes.chunks(32) {
        if *n >= 256 {
            break;
        }
        let len = chunk.len();
        win[..len].copy_from_slice(chunk);
        win[len..].fill(0);
        let units = len.div_ceil(4);
        let mut accept = 0u64;
        for (g, val) in vals.iter_mut().enumerate().take(units) {
            let mut w = [0u8; 4];
            w.copy_from_slice(&win[4 * g..4 * g + 4]);
            let w = u32::from_le_bytes(w);
            // SAFETY: AVX2 proven by `_t`; `val` is 32 writable bytes, unaligned store.
            let m = unsafe {
                let z = -1;
                // Lanes 2i and 2i + 1 take byte i of the 4; the odd lanes its high half.
                let v = _mm256_shuffle_epi8(
                    _mm256_set1_epi32(w as i32),
                    _mm256_setr_epi8(
                        0, z, z, z, 0, z, z, z, 1, z, z, z, 1, z, z, z, //
                        2, z, z, z, 2, z, z, z, 3, z, z, z, 3, z, z, z,
                    ),
                );
                let v = _mm256_srlv_epi32(v, _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4));
                let zv = _mm256_and_si256(v, _mm256_set1_epi32(15));
                let ok = _mm256_cmpgt_epi32(_mm256_set1_epi32(bound), zv);
                let r = if ETA == 2 {
                    // z mod 5 as z - 5 floor(z * 205 / 1024) (z * 205 < 2^16: a 16-bit
                    // product in the low half of each lane, whose high half is 0).
                    let q5 =
                        _mm256_srli_epi32::<10>(_mm256_mullo_epi16(zv, _mm256_set1_epi32(205)));
                    let m5 = _mm256_add_epi32(q5, _mm256_slli_epi32::<2>(q5));
                    _mm256_sub_epi32(_mm256_set1_epi32(2), _mm256_sub_epi32(zv, m5))
                } else {
                    _mm256_sub_epi32(_mm256_set1_epi32(4), zv)
                };
                _mm256_storeu_si256(val.as_mut_ptr().cast(), r);
                _mm256_movemask_ps(_mm256_castsi256_ps(ok)) as u32
            };
            accept |= u64::from(m) << (8 * g);
        }
        if len < 32 {
            accept &= (1u64 << (2 * len)) - 1;
        }
        // Which half-bytes are rejected is independent of the accepted values: released as
        // public (the valgrind check's hook, see `crate::dsa::public`) before any branch or index.
        let accept = crate::dsa::public_u64(accept);
        for (g, val) in vals.iter().enumerate().take(units) {
            let m = ((accept >> (8 * g)) & 0xFF) as usize;
            if *n + 8 <= 256 {
                let k = m.count_ones() as i32;
                let dst: &mut [i32; 8] = (&mut out[*n..*n + 8])
                    .try_into()
                    .unwrap_or_else(|_| unreachable!());
                // SAFETY: AVX2 proven by `_t`; `val` is 32 readable bytes and `dst` 32
                // writable bytes, unaligned load and masked store.
                unsafe {
                    let idx = _mm256_srlv_epi32(
                        _mm256_set1_epi32(REJ_IDX[m] as i32),
                        _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28),
                    );
                    let idx = _mm256_and_si256(idx, _mm256_set1_epi32(7));
                    let r =
                        _mm256_permutevar8x32_epi32(_mm256_loadu_si256(val.as_ptr().cast()), idx);
                    let keep = _mm256_cmpgt_epi32(
                        _mm256_set1_epi32(k),
                        _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                    );
                    _mm256_maskstore_epi32(dst.as_mut_ptr(), keep, r);
                }
                *n += k as usize;
            } else {
                for (j, &x) in val.iter().enumerate() {
                    if *n >= 256 {
                        break;
                    }
                    if (m >> j) & 1 == 1 {
                        out[*n] = x;
                        *n += 1;
                    }
                }
            }
        }
    }
    win.zeroize();
    vals.zeroize();
}

tessera_cpu::island! {
    /// [`rej_uniform`] compiled for AVX2 once (see [`Unit::rej_uniform`] on [`V`]).
    fn rej_uniform_island(t: X86Avx2, bytes: &[u8], out: &mut [i32; 256], n: &mut usize) {
        rej_uniform(t, bytes, out, n)
    }
}

/// The 32 units of `p`, loaded without the closure of `core::array::from_fn` (a closure does
/// not inherit the island's target features, so the loads would be calls).
#[inline(always)]
fn load_poly(t: X86Avx2, p: &Poly) -> [V; UNITS] {
    // SAFETY: AVX2 proven by `t`.
    let mut v = [V(unsafe { _mm256_setzero_si256() }, t); UNITS];
    for (u, x) in v.iter_mut().enumerate() {
        *x = poly::ld(t, p, u);
    }
    v
}

tessera_cpu::island! {
    /// The NTT on AVX2 units, compiled once (called from this backend's islands through
    /// [`Unit::ntt_poly`]).
    fn ntt_poly(t: X86Avx2, p: &mut Poly) {
        ntt(t, p)
    }
}

tessera_cpu::island! {
    /// The inverse NTT on AVX2 units, compiled once.
    fn invntt_poly(t: X86Avx2, p: &mut Poly) {
        invntt(t, p)
    }
}

#[cfg(test)]
mod tests {
    use super::super::portable::{decompose_one, use_hint_one};
    use super::*;

    tessera_cpu::island! {
        /// Decompose and UseHint (both hints) of every canonical coefficient on AVX2, compared
        /// with the portable per-coefficient functions; returns the first mismatch.
        fn decompose_all<const G2: i32>(t: X86Avx2) -> Option<i32> {
            let mut a = [0i32; N];
            let mut r = [[0i32; N]; 4];
            let mut base = 0;
            while base < Q {
                for (i, x) in a.iter_mut().enumerate() {
                    *x = (base + i as i32).min(Q - 1);
                }
                let v = V::load(t, &a);
                let (r1, r0) = v.decompose::<G2>();
                r1.store(&mut r[0]);
                r0.store(&mut r[1]);
                v.use_hint::<G2>(V::splat(t, 0)).store(&mut r[2]);
                v.use_hint::<G2>(V::splat(t, 1)).store(&mut r[3]);
                for i in 0..N {
                    let (e1, e0) = decompose_one::<G2>(a[i]);
                    if (r[0][i], r[1][i]) != (e1, e0)
                        || r[2][i] != use_hint_one::<G2>(a[i], 0)
                        || r[3][i] != use_hint_one::<G2>(a[i], 1)
                    {
                        return Some(a[i]);
                    }
                }
                base += N as i32;
            }
            None
        }
    }

    /// The whole-polynomial NTT and inverse NTT islands (this backend's own, with table-loaded
    /// zetas; the equivalence tests' `Op::Ntt` runs the generic `poly::ntt` on these units)
    /// against portable, on pseudo-random inputs over the whole bound `|a| < q` and its edges.
    #[test]
    #[allow(clippy::integer_division_remainder_used)]
    fn ntt_islands_match_portable() {
        let Some(t) = X86Avx2::detect() else {
            return;
        };
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut rnd = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for case in 0..200 {
            let mut a = [0i32; 256];
            for x in a.iter_mut() {
                let r = rnd();
                *x = match case % 4 {
                    0 => Q - 1,
                    1 => -(Q - 1),
                    2 => [Q - 1, -(Q - 1), 0][(r % 3) as usize],
                    _ => (r % (2 * Q as u64 - 1)) as i32 - (Q - 1),
                };
            }
            let (mut v, mut p) = (a, a);
            V::ntt_poly(t, &mut v);
            P8::ntt_poly(tessera_cpu::Portable, &mut p);
            assert_eq!(v, p, "ntt, case {case}");
            let (mut v, mut p) = (a, a);
            V::invntt_poly(t, &mut v);
            P8::invntt_poly(tessera_cpu::Portable, &mut p);
            assert_eq!(v, p, "invntt, case {case}");
        }
    }

    /// Decompose and UseHint over every canonical input against portable (the equivalence
    /// proptests sample this range; this covers all of it). Too slow for Miri, which has no
    /// AVX2 token anyway.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn decompose_every_input() {
        let Some(t) = X86Avx2::detect() else {
            return;
        };
        assert_eq!(decompose_all::<32>(t), None, "G2 = 32");
        assert_eq!(decompose_all::<88>(t), None, "G2 = 88");
    }
}
