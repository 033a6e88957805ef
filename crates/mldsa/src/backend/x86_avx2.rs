//! AVX2 backend: a unit is one ymm register of 8 x i32 in natural coefficient order.
//!
//! Montgomery multiplication uses `vpmuldq` (signed 32 x 32 -> 64-bit products of the even
//! dwords) on the even lanes and on the odd lanes shifted down: `t = lo32(a b) q^-1`, then
//! `a b - t q`, whose low 32 bits cancel, so its high dword is exactly the portable
//! `(a b - t q) >> 32`. Every other operation evaluates the portable formula lane-wise with
//! the same intermediate values (the same representatives come out, not merely congruent
//! ones), so the equivalence tests compare raw outputs with the portable backend.
//!
//! The NTT and inverse NTT ([`ntt`](ntt::ntt), [`invntt`], compiled once in the `ntt_poly` and
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

mod arith;
mod ntt;
mod pack;
mod round;
mod sample;

use core::arch::x86_64::*;

use tessera_cpu::{X86Avx2, wipe_wide};

use crate::unit::{N, Q, Unit};

pub(crate) use arith::V;
use arith::*;
use ntt::*;
use pack::*;
use round::*;
use sample::*;

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

#[cfg(test)]
mod tests {
    use super::super::portable::{P8, decompose_one, use_hint_one};
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
