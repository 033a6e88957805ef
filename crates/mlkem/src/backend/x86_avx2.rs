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
//! Compression (exact 32 x 32 -> 64-bit products), decompression (`vpmulhrsw`), byte packing
//! (each 128-bit half packs or unpacks 8 coefficients), CBD (`vpshufb` plus bit sums) and
//! rejection sampling (`vpshufb` compaction, on public data only) are SIMD as well. The
//! four-way Keccak of the samplers runs `tessera_keccak::x4::f1600_x4_avx2` inside this
//! backend's islands, or, on a CPU with AVX-512 F+VL, tessera-keccak's `x86_avx512` x4
//! backend (the same code with VPROLQ, VPTERNLOGQ and 32 registers: 2.3x the AVX2 permutation
//! on an Intel Xeon, where the samplers' permutations are most of keygen and of ExpandA),
//! chosen once per XOF through [`Unit::x4_keccak`].

use core::arch::x86_64::*;

use tessera_cpu::X86Avx2;

use super::portable::P16;
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

/// The twiddles of a gathered distance-4 layer (forward or inverse): `z[0]` and `z[1]` each on
/// four lanes of the upper half (the lower half is the other butterfly input).
#[inline(always)]
fn zetas4(t: X86Avx2, z: [i16; 2]) -> V {
    let (a, b) = (z[0], z[1]);
    V::from_array(t, [0, 0, 0, 0, 0, 0, 0, 0, a, a, a, a, b, b, b, b])
}

/// The twiddles of a gathered distance-2 layer: `z[0..4]` each on two lanes of the upper half.
#[inline(always)]
fn zetas2(t: X86Avx2, z: [i16; 4]) -> V {
    let [a, b, c, d] = z;
    V::from_array(t, [0, 0, 0, 0, 0, 0, 0, 0, a, a, b, b, c, c, d, d])
}

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
        self.ct_gathered(Some(P4), zetas4(self.1, z))
    }
    #[inline(always)]
    fn ntt_layer_2(self, z: [i16; 4]) -> Self {
        self.ct_gathered(Some(P2), zetas2(self.1, z))
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
        self.gs_gathered(Some(P4), zetas4(self.1, z))
    }
    #[inline(always)]
    fn invntt_layer_2(self, z: [i16; 4]) -> Self {
        self.gs_gathered(Some(P2), zetas2(self.1, z))
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
        compress::<D>(self)
    }
    #[inline(always)]
    fn decompress<const D: u32>(self) -> Self {
        decompress::<D>(self)
    }
    #[inline(always)]
    fn encode<const D: u32>(self, out: &mut [u8]) {
        encode::<D>(self, out)
    }
    #[inline(always)]
    fn decode<const D: u32>(t: X86Avx2, bytes: &[u8]) -> Self {
        decode::<D>(t, bytes)
    }
    #[inline(always)]
    fn cbd<const ETA: usize>(t: X86Avx2, bytes: &[u8]) -> Self {
        if ETA == 2 {
            cbd2(t, bytes)
        } else {
            cbd3(t, bytes)
        }
    }
    #[inline(always)]
    fn rej_sample(t: X86Avx2, bytes: &[u8], out: &mut [i16; 256], n: &mut usize) {
        rej_sample(t, bytes, out, n)
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
    fn wipe_coeffs(_t: X86Avx2, p: &mut [i16]) {
        super::wipe_wide::<i16, 16>(p)
    }
    #[inline(always)]
    fn wipe_bytes(_t: X86Avx2, b: &mut [u8]) {
        super::wipe_wide::<u8, 32>(b)
    }
    #[inline(always)]
    fn f1600_x4(t: X86Avx2, state: &mut [[u64; 4]; 25]) {
        f1600_x4(t, state)
    }
    #[inline(always)]
    fn x4_keccak(t: X86Avx2) -> Option<tessera_keccak::X4Backend> {
        let _ = t;
        tessera_cpu::X86Avx512::detect().map(tessera_keccak::X4Backend::X86Avx512)
    }
}

/// A shift count in the low 64 bits of an xmm register, for the `vpsllw/d/q`-by-register
/// shifts (the counts below depend on the const generic `D`, which an immediate cannot).
#[inline(always)]
fn count(t: X86Avx2, c: u32) -> __m128i {
    let _ = t;
    // SAFETY: AVX2 (hence SSE2) proven by `t`.
    unsafe { _mm_cvtsi32_si128(c as i32) }
}

/// `((w << (d+1)) + q) * m >> 40` for the eight dwords of `w` (`sh` = d + 1, `m` splat in every
/// dword): the even dwords' products, shifted right by 40, land in their own dword; the odd
/// ones', shifted right by 8, put bits 40..72 in the odd dword. In: `w < 2^12`, `m < 2^28`.
#[inline(always)]
fn compress_dwords(t: X86Avx2, w: __m256i, sh: __m128i, m: __m256i) -> __m256i {
    let _ = t;
    // SAFETY: AVX2 proven by `t`.
    unsafe {
        let num = _mm256_add_epi32(_mm256_sll_epi32(w, sh), _mm256_set1_epi32(Q.into()));
        let even = _mm256_srli_epi64(_mm256_mul_epu32(num, m), 40);
        let odd = _mm256_srli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(num, 32), m), 8);
        _mm256_blend_epi32(even, odd, 0xAA)
    }
}

/// FIPS 203 Compress_d (equation 4.7) of 16 lanes, `d <= 11`: the portable formula
/// `((x << (d+1)) + q) * ceil(2^40 / 2q) >> 40`, masked to `d` bits, evaluated exactly with
/// 32 x 32 -> 64-bit products (`vpmuludq`) on the even and odd dwords.
/// In: canonical `[0, q)`. Out: `[0, 2^d)`.
#[inline(always)]
fn compress<const D: u32>(x: V) -> V {
    const M: i32 = (1u64 << 40).div_ceil(2 * Q as u64) as i32;
    let t = x.1;
    let sh = count(t, D + 1);
    // SAFETY: AVX2 proven by the token in `x`.
    V(
        unsafe {
            let m = _mm256_set1_epi32(M);
            let lo = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(x.0));
            let hi = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(x.0, 1));
            let lo = compress_dwords(t, lo, sh, m);
            let hi = compress_dwords(t, hi, sh, m);
            // packus works per 128-bit half: restore the coefficient order with the qword
            // permutation (0, 2, 1, 3).
            let r = _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi), 0xD8);
            _mm256_and_si256(r, _mm256_set1_epi16(((1u32 << D) - 1) as i16))
        },
        t,
    )
}

/// FIPS 203 Decompress_d (equation 4.8) of 16 lanes: `(q y + 2^(d-1)) >> d`, computed as
/// `vpmulhrsw(y << (15 - d), q)` = `(y 2^(15-d) q + 2^14) >> 15`, the same value exactly.
/// In: `[0, 2^d)`, `1 <= d <= 11`. Out: `[0, q)`.
#[inline(always)]
fn decompress<const D: u32>(y: V) -> V {
    let t = y.1;
    let sh = count(t, 15 - D);
    // SAFETY: AVX2 proven by the token in `y`.
    V(
        unsafe { _mm256_mulhrs_epi16(_mm256_sll_epi16(y.0, sh), _mm256_set1_epi16(Q)) },
        t,
    )
}

/// FIPS 203 ByteEncode_d (Algorithm 5) of 16 lanes into `2 d` bytes, `1 <= d <= 12`: each
/// 128-bit half packs its 8 coefficients into its low `d` bytes (pairs into dwords with
/// `vpmaddwd`, dword pairs into qwords, the two qwords into one 128-bit value), then the two
/// halves are copied out. In: `[0, 2^d)`. No data-dependent branch or index.
#[inline(always)]
fn encode<const D: u32>(x: V, out: &mut [u8]) {
    debug_assert_eq!(out.len(), 2 * D as usize);
    let t = x.1;
    let d = D as usize;
    let (c2, c4, c4r) = (count(t, 2 * D), count(t, 4 * D), count(t, 64 - 4 * D));
    let mut tmp = [0u8; 32];
    // SAFETY: AVX2 proven by the token in `x`; `tmp` is 32 writable bytes, unaligned store.
    unsafe {
        // Pair (c0, c1) -> c0 + c1 2^d in a dword (2d bits).
        let p = _mm256_madd_epi16(x.0, _mm256_set1_epi32(((1i32 << D) << 16) | 1));
        // Dword pair -> qword of 4d bits.
        let lo32 = _mm256_and_si256(p, _mm256_set1_epi64x(0xFFFF_FFFF));
        let q = _mm256_or_si256(lo32, _mm256_sll_epi64(_mm256_srli_epi64(p, 32), c2));
        // Qword pair (q0, q1) -> 128 bits q0 + q1 2^4d: low qword q0 | q1 << 4d, high
        // qword q1 >> (64 - 4d).
        let up = _mm256_bsrli_epi128(_mm256_sll_epi64(q, c4), 8);
        let r = _mm256_blend_epi32(_mm256_or_si256(q, up), _mm256_srl_epi64(q, c4r), 0xCC);
        _mm256_storeu_si256(tmp.as_mut_ptr().cast(), r);
    }
    out[..d].copy_from_slice(&tmp[..d]);
    out[d..2 * d].copy_from_slice(&tmp[16..16 + d]);
}

/// FIPS 203 ByteDecode_d (Algorithm 6) of `2 d` bytes into 16 lanes, without the mod-q step of
/// d = 12: the inverse of [`encode`] (each 128-bit half unpacks `d` bytes into 8
/// coefficients). Out: `[0, 2^d)`. No data-dependent branch or index.
#[inline(always)]
fn decode<const D: u32>(t: X86Avx2, bytes: &[u8]) -> V {
    debug_assert_eq!(bytes.len(), 2 * D as usize);
    let d = D as usize;
    let (c1, c2, c4, c4r) = (
        count(t, D),
        count(t, 2 * D),
        count(t, 4 * D),
        count(t, 64 - 4 * D),
    );
    let mut tmp = [0u8; 32];
    tmp[..d].copy_from_slice(&bytes[..d]);
    tmp[16..16 + d].copy_from_slice(&bytes[d..2 * d]);
    // SAFETY: AVX2 proven by `t`; `tmp` is 32 readable bytes, unaligned load.
    V(
        unsafe {
            let v = _mm256_loadu_si256(tmp.as_ptr().cast());
            // 128 bits -> (low 4d bits, next 4d bits) in the two qwords.
            let next = _mm256_or_si256(
                _mm256_bslli_epi128(_mm256_srl_epi64(v, c4), 8),
                _mm256_sll_epi64(v, c4r),
            );
            let q = _mm256_blend_epi32(v, next, 0xCC);
            let q = _mm256_and_si256(q, _mm256_set1_epi64x((1i64 << (4 * D)) - 1));
            // Qword -> two dwords of 2d bits.
            let dw = _mm256_or_si256(
                _mm256_and_si256(q, _mm256_set1_epi64x((1i64 << (2 * D)) - 1)),
                _mm256_slli_epi64(_mm256_srl_epi64(q, c2), 32),
            );
            // Dword -> two words of d bits.
            _mm256_or_si256(
                _mm256_and_si256(dw, _mm256_set1_epi32((1i32 << D) - 1)),
                _mm256_slli_epi32(_mm256_srl_epi32(dw, c1), 16),
            )
        },
        t,
    )
}

/// The popcount-style sums of SamplePolyCBD (FIPS 203 Algorithm 8) on lanes that hold the
/// `2 eta` bits of one coefficient each (`x` = the low `eta` bits, `y` = the next `eta`):
/// with `m` = the bits at stride `eta` (0b0101 for eta = 2, 0b1001 for eta = 3),
/// `s = sum_k (n >> k) & m` holds `x` in its low `eta` bits and `y` above; out `x - y`.
#[inline(always)]
fn cbd_sums<const ETA: u32>(n: __m256i, t: X86Avx2) -> V {
    let m = if ETA == 2 { 0b0101 } else { 0b1001 };
    // SAFETY: AVX2 proven by `t`.
    V(
        unsafe {
            let mv = _mm256_set1_epi16(m);
            let mut s = _mm256_and_si256(n, mv);
            s = _mm256_add_epi16(s, _mm256_and_si256(_mm256_srli_epi16(n, 1), mv));
            if ETA == 3 {
                s = _mm256_add_epi16(s, _mm256_and_si256(_mm256_srli_epi16(n, 2), mv));
            }
            let x = _mm256_and_si256(s, _mm256_set1_epi16((1 << ETA) - 1));
            let y = _mm256_srl_epi16(s, count(t, ETA));
            _mm256_sub_epi16(x, y)
        },
        t,
    )
}

/// FIPS 203 SamplePolyCBD_2 (Algorithm 8) of 8 bytes into 16 lanes: lane i takes byte i/2
/// (`vpshufb`), keeps its low or high nibble (even or odd lane), and sums the bits.
/// Out: `[-2, 2]`. No data-dependent branch or index (the bytes are secret).
#[inline(always)]
fn cbd2(t: X86Avx2, bytes: &[u8]) -> V {
    debug_assert_eq!(bytes.len(), 8);
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[..8]);
    let w = u64::from_le_bytes(w);
    // SAFETY: AVX2 proven by `t`.
    let n = unsafe {
        let v = _mm256_broadcastsi128_si256(_mm_cvtsi64_si128(w as i64));
        let z = -1;
        let v = _mm256_shuffle_epi8(
            v,
            _mm256_setr_epi8(
                0, z, 0, z, 1, z, 1, z, 2, z, 2, z, 3, z, 3, z, //
                4, z, 4, z, 5, z, 5, z, 6, z, 6, z, 7, z, 7, z,
            ),
        );
        let lo = _mm256_and_si256(v, _mm256_set1_epi16(0x0F));
        _mm256_blend_epi16(lo, _mm256_srli_epi16(v, 4), 0xAA)
    };
    cbd_sums::<2>(n, t)
}

/// FIPS 203 SamplePolyCBD_3 (Algorithm 8) of 12 bytes into 16 lanes: lane i takes the two
/// bytes holding bits `6i..6i+6` (`vpshufb`), moves them to the top with a per-lane
/// power-of-two multiply (bit offsets 0, 6, 4, 2 repeating), shifts down and sums the bits.
/// Out: `[-3, 3]`. No data-dependent branch or index (the bytes are secret).
#[inline(always)]
fn cbd3(t: X86Avx2, bytes: &[u8]) -> V {
    debug_assert_eq!(bytes.len(), 12);
    let mut lo = [0u8; 8];
    lo.copy_from_slice(&bytes[..8]);
    let mut hi = [0u8; 4];
    hi.copy_from_slice(&bytes[8..12]);
    let (lo, hi) = (u64::from_le_bytes(lo), u32::from_le_bytes(hi));
    // SAFETY: AVX2 proven by `t`.
    let n = unsafe {
        let v = _mm256_broadcastsi128_si256(_mm_set_epi64x(i64::from(hi), lo as i64));
        let v = _mm256_shuffle_epi8(
            v,
            _mm256_setr_epi8(
                0, 1, 0, 1, 1, 2, 2, 3, 3, 4, 3, 4, 4, 5, 5, 6, //
                6, 7, 6, 7, 7, 8, 8, 9, 9, 10, 9, 10, 10, 11, 11, 12,
            ),
        );
        let v = _mm256_mullo_epi16(
            v,
            _mm256_setr_epi16(
                1 << 10,
                1 << 4,
                1 << 6,
                1 << 8,
                1 << 10,
                1 << 4,
                1 << 6,
                1 << 8,
                1 << 10,
                1 << 4,
                1 << 6,
                1 << 8,
                1 << 10,
                1 << 4,
                1 << 6,
                1 << 8,
            ),
        );
        _mm256_srli_epi16(v, 10)
    };
    cbd_sums::<3>(n, t)
}

/// `vpshufb` indices that move the 16-bit lanes selected by an 8-bit mask to the front of a
/// 128-bit half, in order, and zero the rest (index 0x80): the compaction step of rejection
/// sampling. Built at compile time (`tessera_cpu::compaction`).
const REJ_IDX: [[u8; 16]; 256] = tessera_cpu::compaction::PAIRS16;

/// The rejection step of FIPS 203 SampleNTT (Algorithm 7, lines 5-13) on AVX2: 24 bytes (16
/// candidates) per step, the 12-bit candidates split out with `vpshufb` and a blend, compared
/// with q, and the accepted ones compacted with [`REJ_IDX`] (indexed by the acceptance mask:
/// public data, the matrix is public) and stored 8 lanes at a time. The remaining bytes (fewer
/// than 24, or when fewer than 16 free slots remain) go through the portable loop, which
/// stops at 256. Same results as the portable loop; lanes of `out` past the final `*n` may be
/// overwritten with zeros. Out: `[0, q)`.
#[inline(always)]
fn rej_sample(_t: X86Avx2, bytes: &[u8], out: &mut [i16; 256], n: &mut usize) {
    let mut pos = 0;
    while pos + 24 <= bytes.len() && *n + 16 <= 256 {
        // Bytes pos..pos+24 in a 28-byte window (two 16-byte loads at 0 and 12).
        let mut tail = [0u8; 28];
        let win: &[u8; 28] = match bytes.get(pos..pos + 28) {
            Some(s) => s.try_into().unwrap_or(&tail),
            None => {
                tail[..24].copy_from_slice(&bytes[pos..pos + 24]);
                &tail
            }
        };
        // SAFETY: AVX2 proven by `t`; `win` is 28 readable bytes, so the unaligned 16-byte
        // loads at offsets 0 and 12 are in bounds.
        let (c, good) = unsafe {
            let lo = _mm_loadu_si128(win.as_ptr().cast());
            let hi = _mm_loadu_si128(win.as_ptr().add(12).cast());
            let v = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
            // Candidate 2k = b[3k] | (b[3k+1] & 15) << 8, 2k+1 = b[3k+1] >> 4 | b[3k+2] << 4.
            let v = _mm256_shuffle_epi8(
                v,
                _mm256_setr_epi8(
                    0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, //
                    0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11,
                ),
            );
            let c = _mm256_blend_epi16(
                _mm256_and_si256(v, _mm256_set1_epi16(0x0FFF)),
                _mm256_srli_epi16(v, 4),
                0xAA,
            );
            let good = _mm256_cmpgt_epi16(_mm256_set1_epi16(Q), c);
            let bits = _mm256_movemask_epi8(_mm256_packs_epi16(good, good)) as u32;
            (c, bits)
        };
        for h in 0..2 {
            let m = ((good >> (16 * h)) & 0xFF) as usize;
            let dst: &mut [i16; 8] = (&mut out[*n..*n + 8])
                .try_into()
                .unwrap_or_else(|_| unreachable!());
            // SAFETY: AVX2 proven by `t`; `dst` is 16 writable bytes and `REJ_IDX[m]` 16
            // readable bytes, unaligned load and store.
            unsafe {
                let half = if h == 0 {
                    _mm256_castsi256_si128(c)
                } else {
                    _mm256_extracti128_si256(c, 1)
                };
                let idx = _mm_loadu_si128(REJ_IDX[m].as_ptr().cast());
                _mm_storeu_si128(dst.as_mut_ptr().cast(), _mm_shuffle_epi8(half, idx));
            }
            *n += m.count_ones() as usize;
        }
        pos += 24;
    }
    P16::rej_sample(tessera_cpu::Portable, &bytes[pos..], out, n)
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
    fn ntt_poly(t: X86Avx2, p: &mut crate::poly::Poly) {
        crate::poly::ntt::<V>(t, p)
    }
}

tessera_cpu::island! {
    /// The inverse NTT on AVX2 units, compiled once.
    fn invntt_poly(t: X86Avx2, p: &mut crate::poly::Poly) {
        crate::poly::invntt::<V>(t, p)
    }
}
