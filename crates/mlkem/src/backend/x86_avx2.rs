//! AVX2 backend: a unit is one ymm register of 16 x i16 in natural coefficient order.
//!
//! Montgomery multiplication is `mulhi(a, b) - mulhi(mullo(mullo(a, b), q^-1), q)` (exactly
//! the portable `(a b - t q) >> 16`, since the low halves cancel); Barrett reduction is
//! `a - q * ((mulhi(a, 20159) + 512) >> 10)` (exactly the portable `(20159 a + 2^25) >> 26`).
//! Results are bit-identical to the portable backend, so the equivalence tests compare raw
//! outputs. The in-unit NTT layers (distances 8, 4, 2) gather the butterfly operands into the
//! two 128-bit halves with one `vpermd`, do the butterfly with a half swap and a blend, and
//! scatter back. Lazy reduction follows the portable bounds documented on
//! [`Unit`](crate::unit::Unit): the NTT grows coefficients by < q per layer (< 8q after seven
//! layers from |a| < q, inside i16) and reduces at the end; the inverse NTT reduces the sum
//! side every layer.
//!
//! Compression, byte packing, CBD and rejection sampling go through the portable scalar code
//! on the stored lanes for now (same results; the SIMD versions are future speed work). The
//! four-way Keccak of the samplers runs `tessera_keccak::x4::f1600_x4_avx2` inside this
//! backend's islands.

use core::arch::x86_64::*;

use tessera_cpu::X86Avx2;

use super::portable::P16;
use crate::kem::{self, EkState, Hashes};
use crate::poly::Poly;
use crate::unit::{N, Q, Unit};

/// 16 coefficients in a ymm register, with the token that proves AVX2 (so the safe trait
/// methods are sound by construction).
#[derive(Clone, Copy)]
pub(crate) struct V(__m256i, X86Avx2);

/// q^-1 mod 2^16 as i16.
const QINV: i16 = -3327;

impl V {
    #[inline(always)]
    fn splat(t: X86Avx2, x: i16) -> Self {
        // SAFETY: the token proves AVX2.
        V(unsafe { _mm256_set1_epi16(x) }, t)
    }
    #[inline(always)]
    fn from_array(t: X86Avx2, a: [i16; N]) -> Self {
        Self::load(t, &a)
    }
    #[inline(always)]
    fn to_array(self) -> [i16; N] {
        let mut a = [0i16; N];
        self.store(&mut a);
        a
    }
    #[inline(always)]
    fn scalar(self) -> P16 {
        P16(self.to_array())
    }
    /// Montgomery product lane-wise. In: `|a b| < q 2^15`. Out: `|r| < q`.
    #[inline(always)]
    fn mont_mul(self, b: Self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        V(
            unsafe {
                let lo = _mm256_mullo_epi16(self.0, b.0);
                let hi = _mm256_mulhi_epi16(self.0, b.0);
                let t = _mm256_mullo_epi16(lo, _mm256_set1_epi16(QINV));
                let t = _mm256_mulhi_epi16(t, _mm256_set1_epi16(Q));
                _mm256_sub_epi16(hi, t)
            },
            self.1,
        )
    }
    /// Exchanges the two 128-bit halves.
    #[inline(always)]
    fn swap_halves(self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        V(
            unsafe { _mm256_permute2x128_si256(self.0, self.0, 0x01) },
            self.1,
        )
    }
    /// `out.dword[i] = self.dword[idx[i]]`.
    #[inline(always)]
    fn permd(self, idx: [i32; 8]) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        V(
            unsafe {
                _mm256_permutevar8x32_epi32(
                    self.0,
                    _mm256_setr_epi32(
                        idx[0], idx[1], idx[2], idx[3], idx[4], idx[5], idx[6], idx[7],
                    ),
                )
            },
            self.1,
        )
    }
    /// Low 128 bits from `self`, high 128 bits from `hi`.
    #[inline(always)]
    fn blend_halves(self, hi: Self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        V(unsafe { _mm256_blend_epi32(self.0, hi.0, 0xF0) }, self.1)
    }
    /// Swaps the two i16 of every dword.
    #[inline(always)]
    fn swap_pairs(self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        V(
            unsafe { _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(self.0, 0xB1), 0xB1) },
            self.1,
        )
    }
    /// The Cooley-Tukey layer on operands gathered by `p` (a operands in the low half, b in
    /// the high half), `z` holding each b operand's zeta at its gathered position.
    #[inline(always)]
    fn ct_gathered(self, p: Option<([i32; 8], [i32; 8])>, z: Self) -> Self {
        let x = match p {
            Some((p, _)) => self.permd(p),
            None => self,
        };
        let m = x.mont_mul(z);
        let lo = x.add(m.swap_halves());
        let hi = x.swap_halves().sub(m);
        let r = lo.blend_halves(hi);
        match p {
            Some((_, inv)) => r.permd(inv),
            None => r,
        }
    }
    /// The Gentleman-Sande layer on operands gathered by `p`.
    #[inline(always)]
    fn gs_gathered(self, p: Option<([i32; 8], [i32; 8])>, z: Self) -> Self {
        let x = match p {
            Some((p, _)) => self.permd(p),
            None => self,
        };
        let y = x.swap_halves();
        let s = x.add(y).barrett_reduce();
        let d = x.sub(y).mont_mul(z);
        let r = s.blend_halves(d);
        match p {
            Some((_, inv)) => r.permd(inv),
            None => r,
        }
    }
}

/// Gather/scatter of the distance-4 layer: a = dwords 0,1,4,5; b = 2,3,6,7 (an involution).
const P4: ([i32; 8], [i32; 8]) = ([0, 1, 4, 5, 2, 3, 6, 7], [0, 1, 4, 5, 2, 3, 6, 7]);
/// Gather/scatter of the distance-2 layer: a = even dwords, b = odd dwords.
const P2: ([i32; 8], [i32; 8]) = ([0, 2, 4, 6, 1, 3, 5, 7], [0, 4, 1, 5, 2, 6, 3, 7]);

impl Unit for V {
    type Token = X86Avx2;

    #[inline(always)]
    fn load(t: X86Avx2, a: &[i16; N]) -> Self {
        // SAFETY: AVX2 proven by `t`; `a` is 32 readable bytes and the load is unaligned.
        V(unsafe { _mm256_loadu_si256(a.as_ptr().cast()) }, t)
    }
    #[inline(always)]
    fn store(self, a: &mut [i16; N]) {
        // SAFETY: AVX2 proven by the token; `a` is 32 writable bytes, unaligned store.
        unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        V(unsafe { _mm256_add_epi16(self.0, b.0) }, self.1)
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        V(unsafe { _mm256_sub_epi16(self.0, b.0) }, self.1)
    }
    #[inline(always)]
    fn barrett_reduce(self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        V(
            unsafe {
                let t = _mm256_mulhi_epi16(self.0, _mm256_set1_epi16(20159));
                let t = _mm256_srai_epi16(_mm256_add_epi16(t, _mm256_set1_epi16(512)), 10);
                _mm256_sub_epi16(self.0, _mm256_mullo_epi16(t, _mm256_set1_epi16(Q)))
            },
            self.1,
        )
    }
    #[inline(always)]
    fn mont_mul_const(self, c: i16) -> Self {
        self.mont_mul(V::splat(self.1, c))
    }
    #[inline(always)]
    fn to_canonical(self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        V(
            unsafe {
                let m = _mm256_and_si256(_mm256_srai_epi16(self.0, 15), _mm256_set1_epi16(Q));
                _mm256_add_epi16(self.0, m)
            },
            self.1,
        )
    }
    #[inline(always)]
    fn reduce_once(self) -> Self {
        self.sub(V::splat(self.1, Q)).to_canonical()
    }
    #[inline(always)]
    fn ntt_butterfly(a: &mut Self, b: &mut Self, zeta: i16) {
        let t = b.mont_mul(V::splat(b.1, zeta));
        *b = a.sub(t);
        *a = a.add(t);
    }
    #[inline(always)]
    fn ntt_layer_8(self, zeta: i16) -> Self {
        self.ct_gathered(None, V::splat(self.1, zeta))
    }
    #[inline(always)]
    fn ntt_layer_4(self, z: [i16; 2]) -> Self {
        let zv = [
            0, 0, 0, 0, 0, 0, 0, 0, z[0], z[0], z[0], z[0], z[1], z[1], z[1], z[1],
        ];
        self.ct_gathered(Some(P4), V::from_array(self.1, zv))
    }
    #[inline(always)]
    fn ntt_layer_2(self, z: [i16; 4]) -> Self {
        let zv = [
            0, 0, 0, 0, 0, 0, 0, 0, z[0], z[0], z[1], z[1], z[2], z[2], z[3], z[3],
        ];
        self.ct_gathered(Some(P2), V::from_array(self.1, zv))
    }
    #[inline(always)]
    fn invntt_butterfly(a: &mut Self, b: &mut Self, zeta: i16) {
        let t = *a;
        *a = t.add(*b).barrett_reduce();
        *b = b.sub(t).mont_mul(V::splat(t.1, zeta));
    }
    #[inline(always)]
    fn invntt_layer_8(self, zeta: i16) -> Self {
        self.gs_gathered(None, V::splat(self.1, zeta))
    }
    #[inline(always)]
    fn invntt_layer_4(self, z: [i16; 2]) -> Self {
        let zv = [
            0, 0, 0, 0, 0, 0, 0, 0, z[0], z[0], z[0], z[0], z[1], z[1], z[1], z[1],
        ];
        self.gs_gathered(Some(P4), V::from_array(self.1, zv))
    }
    #[inline(always)]
    fn invntt_layer_2(self, z: [i16; 4]) -> Self {
        let zv = [
            0, 0, 0, 0, 0, 0, 0, 0, z[0], z[0], z[1], z[1], z[2], z[2], z[3], z[3],
        ];
        self.gs_gathered(Some(P2), V::from_array(self.1, zv))
    }
    #[inline(always)]
    fn basemul(self, b: Self, z: [i16; 4]) -> Self {
        // Even lanes: a0 b0 + (a1 b1) gamma; odd lanes: a0 b1 + a1 b0 (the portable order of
        // Montgomery products, so the results are identical).
        let gamma = V::from_array(
            self.1,
            [
                z[0], 0, -z[0], 0, z[1], 0, -z[1], 0, z[2], 0, -z[2], 0, z[3], 0, -z[3], 0,
            ],
        );
        let p = self.mont_mul(b);
        let q = self.mont_mul(b.swap_pairs());
        let r0 = p.swap_pairs().mont_mul(gamma).add(p);
        let r1 = q.add(q.swap_pairs());
        // SAFETY: AVX2 proven by the token in `self`.
        V(unsafe { _mm256_blend_epi16(r0.0, r1.0, 0xAA) }, self.1)
    }
    #[inline(always)]
    fn compress<const D: u32>(self) -> Self {
        V::from_array(self.1, self.scalar().compress::<D>().0)
    }
    #[inline(always)]
    fn decompress<const D: u32>(self) -> Self {
        V::from_array(self.1, self.scalar().decompress::<D>().0)
    }
    #[inline(always)]
    fn encode<const D: u32>(self, out: &mut [u8]) {
        self.scalar().encode::<D>(out)
    }
    #[inline(always)]
    fn decode<const D: u32>(t: X86Avx2, bytes: &[u8]) -> Self {
        V::from_array(t, P16::decode::<D>((), bytes).0)
    }
    #[inline(always)]
    fn cbd<const ETA: usize>(t: X86Avx2, bytes: &[u8]) -> Self {
        V::from_array(t, P16::cbd::<ETA>((), bytes).0)
    }
    #[inline(always)]
    fn rej_sample(_t: X86Avx2, bytes: &[u8], out: &mut [i16; 256], n: &mut usize) {
        P16::rej_sample((), bytes, out, n)
    }
    #[inline(always)]
    fn ntt_poly(t: X86Avx2, p: &mut [i16; 256]) {
        ntt_poly(t, p)
    }
    #[inline(always)]
    fn invntt_poly(t: X86Avx2, p: &mut [i16; 256]) {
        invntt_poly(t, p)
    }
    #[inline(always)]
    fn f1600_x4(t: X86Avx2, state: &mut [[u64; 4]; 25]) {
        f1600_x4(t, state)
    }
}

tessera_cpu::island! {
    /// Keccak-f\[1600\] x4 on AVX2 (`tessera_keccak::x4::f1600_x4_avx2`), compiled once: the
    /// samplers call it per block from inside this backend's islands (a plain call, no
    /// dispatch), rather than inlining the unrolled permutation at every call site.
    fn f1600_x4(t: X86Avx2, state: &mut [[u64; 4]; 25]) {
        tessera_keccak::x4::f1600_x4_avx2(t, state)
    }
}

tessera_cpu::island! {
    /// The NTT on AVX2 units, compiled once (called from this backend's islands).
    fn ntt_poly(t: X86Avx2, p: &mut Poly) {
        crate::poly::ntt::<V>(t, p)
    }
}

tessera_cpu::island! {
    /// The inverse NTT on AVX2 units, compiled once.
    fn invntt_poly(t: X86Avx2, p: &mut Poly) {
        crate::poly::invntt::<V>(t, p)
    }
}

tessera_cpu::island! {
    /// ML-KEM.KeyGen_internal's K-PKE part on AVX2 (see `kem::keygen`).
    pub(crate) fn keygen<const K: usize, const ETA1: usize>(
        t: X86Avx2,
        hs: Hashes,
        d: &[u8; 32],
        ek: &mut [u8],
        st: &mut EkState<K>,
        s_hat: &mut [Poly; K],
    ) {
        kem::keygen::<V, K, ETA1>(t, hs, d, ek, st, s_hat)
    }
}

tessera_cpu::island! {
    /// Encapsulation-key parsing and ExpandA on AVX2.
    pub(crate) fn parse_ek<const K: usize>(t: X86Avx2, ek: &[u8], st: &mut EkState<K>) -> bool {
        kem::parse_ek::<V, K>(t, ek, st)
    }
}

tessera_cpu::island! {
    /// s-hat encoding on AVX2.
    pub(crate) fn encode_s<const K: usize>(t: X86Avx2, s_hat: &[Poly; K], out: &mut [u8]) {
        kem::encode_s::<V, K>(t, s_hat, out)
    }
}

tessera_cpu::island! {
    /// s-hat decoding on AVX2.
    pub(crate) fn decode_s<const K: usize>(t: X86Avx2, bytes: &[u8], s_hat: &mut [Poly; K]) {
        kem::decode_s::<V, K>(t, bytes, s_hat)
    }
}

tessera_cpu::island! {
    /// ML-KEM.Encaps_internal on AVX2.
    pub(crate) fn encaps<const K: usize, const ETA1: usize, const DU: u32, const DV: u32>(
        t: X86Avx2,
        hs: Hashes,
        st: &EkState<K>,
        m: &[u8; 32],
        ct: &mut [u8],
    ) -> [u8; 32] {
        kem::encaps::<V, K, ETA1, DU, DV>(t, hs, st, m, ct)
    }
}

tessera_cpu::island! {
    /// ML-KEM.Decaps_internal on AVX2.
    pub(crate) fn decaps<const K: usize, const ETA1: usize, const DU: u32, const DV: u32>(
        t: X86Avx2,
        hs: Hashes,
        st: &EkState<K>,
        s_hat: &[Poly; K],
        z: &[u8; 32],
        ct: &[u8],
    ) -> [u8; 32] {
        kem::decaps::<V, K, ETA1, DU, DV>(t, hs, st, s_hat, z, ct)
    }
}

#[cfg(tessera_test_hooks)]
tessera_cpu::island! {
    /// One vector-trait operation over a polynomial on AVX2 (equivalence tests).
    pub(crate) fn run_op(
        t: X86Avx2,
        op: crate::testing::Op,
        a: &Poly,
        b: &Poly,
        bytes: &[u8],
        out: &mut crate::testing::OpOut,
    ) {
        crate::testing::apply::<V>(t, op, a, b, bytes, out)
    }
}
