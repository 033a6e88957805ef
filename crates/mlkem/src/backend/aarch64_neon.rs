//! NEON backend: a unit is two 128-bit registers of 8 x i16 (`int16x8_t`), coefficients
//! `0..8` in the first and `8..16` in the second, natural order.
//!
//! Montgomery multiplication (FIPS 203 section 4.3 arithmetic, the `fqmul` of the portable
//! backend) is `vhsub(vqdmulh(a, b), vqdmulh(mul(mul(a, b), q^-1), q))`: the doubling high
//! halves of `a b` and `t q` differ by exactly `2 (a b - t q) / 2^16` (their low 16 bits agree
//! since `a b = t q mod 2^16`), and the halving subtract gives the portable
//! `(a b - t q) >> 16` bit for bit. `vqdmulh` saturates only for `(-2^15)^2 = 2^30`, which the
//! Montgomery input bound `|a b| < q 2^15 < 2^30` excludes (and `t q` has `|q| < 2^15`). Barrett reduction is `a - q * vrshr_11(vqdmulh(a, 20159))`
//! = `a - q ((20159 a + 2^25) >> 26)`, again the portable value exactly. So every result is
//! bit-identical to the portable backend and the equivalence tests compare raw outputs.
//!
//! The in-unit NTT layers gather their butterfly operands across the two registers with one
//! `trn1/trn2` (distance 4, 64-bit lanes) or `uzp1/uzp2` (distance 2, 32-bit lanes) and
//! scatter back with `trn`/`zip`; distance 8 is the two registers themselves. Base-case
//! multiplication deinterleaves the degree-1 pairs with `uzp1/uzp2`. Compression uses exact
//! 32 x 32 -> 64-bit products (`umull`), decompression `sqrdmulh`, CBD and the rejection
//! sampler's 12-bit split use `tbl` with constant indices (the secret bytes are the table, never
//! the index), and the rejection sampler compacts accepted candidates with a `tbl` whose
//! index row is chosen by the acceptance mask: public data (the XOF output of rho).
//!
//! The four-way Keccak of the samplers is `tessera_keccak::x4::f1600_x4_neon` (two NEON x2
//! permutations) compiled into this backend's island; the single hashes (G, H, J) use
//! tessera-keccak's detected x1 backend (the SHA3 extension where the CPU has it).
//!
//! Speed: no aarch64 hardware was available when this was written, only qemu-user, which
//! measures nothing useful; the backend is tested for equality with portable, not timed.

use core::arch::aarch64::*;

use tessera_cpu::Aarch64Neon;

use super::portable::P16;
use crate::unit::{N, Q, Unit};

/// 16 coefficients in two NEON registers (coefficients 0..8, 8..16), with the token that
/// proves NEON (so the safe trait methods are sound by construction).
#[derive(Clone, Copy)]
pub(crate) struct V(int16x8_t, int16x8_t, Aarch64Neon);

/// q^-1 mod 2^16 as i16.
const QINV: i16 = -3327;

/// Loads 8 lanes from an array.
#[inline(always)]
fn ld8(t: Aarch64Neon, a: &[i16; 8]) -> int16x8_t {
    let _ = t;
    // SAFETY: NEON proven by `t`; `a` is 8 readable `i16` (`ld1` needs only 2-byte alignment).
    unsafe { vld1q_s16(a.as_ptr()) }
}

/// Montgomery product lane-wise (the portable `fqmul`, FIPS 203 arithmetic mod q in
/// Montgomery form). In: `|a b| < q 2^15` (so never `a = b = -2^15`, the one saturating case
/// of `sqdmulh`). Out: `|r| < q`, congruent to `a b 2^-16`, bit-identical to the portable value.
#[inline(always)]
fn mont8(t: Aarch64Neon, a: int16x8_t, b: int16x8_t) -> int16x8_t {
    let _ = t;
    // SAFETY: NEON proven by `t`.
    unsafe {
        let hi = vqdmulhq_s16(a, b);
        let m = vmulq_n_s16(vmulq_s16(a, b), QINV);
        vhsubq_s16(hi, vqdmulhq_n_s16(m, Q))
    }
}

/// Barrett reduction lane-wise (the portable `barrett`). In: any i16.
/// Out: `-(q-1)/2..=(q-1)/2`, congruent to the input.
#[inline(always)]
fn barrett8(t: Aarch64Neon, a: int16x8_t) -> int16x8_t {
    let _ = t;
    // SAFETY: NEON proven by `t`. `vqdmulh(a, 20159)` = `floor(20159 a / 2^15)` (never
    // saturates: 20159 < 2^15), and the rounding shift by 11 makes `(20159 a + 2^25) >> 26`.
    unsafe {
        let x = vrshrq_n_s16::<11>(vqdmulhq_n_s16(a, 20159));
        vmlsq_n_s16(a, x, Q)
    }
}

/// Adds q to the negative lanes. In: `(-q, q)`. Out: `[0, q)`.
#[inline(always)]
fn canon8(t: Aarch64Neon, a: int16x8_t) -> int16x8_t {
    let _ = t;
    // SAFETY: NEON proven by `t`.
    unsafe { vaddq_s16(a, vandq_s16(vshrq_n_s16::<15>(a), vdupq_n_s16(Q))) }
}

/// Cooley-Tukey butterflies lane-wise (FIPS 203 Algorithm 9, lines 8-10): `t = z b`,
/// `(a + t, a - t)`. Bounds as [`Unit::ntt_butterfly`].
#[inline(always)]
fn ct8(t: Aarch64Neon, a: int16x8_t, b: int16x8_t, z: int16x8_t) -> (int16x8_t, int16x8_t) {
    let m = mont8(t, b, z);
    // SAFETY: NEON proven by `t`.
    unsafe { (vaddq_s16(a, m), vsubq_s16(a, m)) }
}

/// Gentleman-Sande butterflies lane-wise (FIPS 203 Algorithm 10, lines 8-10):
/// `(barrett(a + b), z (b - a))`. Bounds as [`Unit::invntt_butterfly`].
#[inline(always)]
fn gs8(t: Aarch64Neon, a: int16x8_t, b: int16x8_t, z: int16x8_t) -> (int16x8_t, int16x8_t) {
    // SAFETY: NEON proven by `t`.
    let (s, d) = unsafe { (vaddq_s16(a, b), vsubq_s16(b, a)) };
    (barrett8(t, s), mont8(t, d, z))
}

/// Operand gathers of the in-unit layers: `(a operands, b operands)` of the butterflies of
/// distance 4 (64-bit `trn1/trn2`: coefficients 0-3, 8-11 against 4-7, 12-15) and their
/// inverse.
#[inline(always)]
fn gather4(t: Aarch64Neon, lo: int16x8_t, hi: int16x8_t) -> (int16x8_t, int16x8_t) {
    let _ = t;
    // SAFETY: NEON proven by `t`.
    unsafe {
        let (l, h) = (vreinterpretq_s64_s16(lo), vreinterpretq_s64_s16(hi));
        (
            vreinterpretq_s16_s64(vtrn1q_s64(l, h)),
            vreinterpretq_s16_s64(vtrn2q_s64(l, h)),
        )
    }
}

/// Operand gathers of distance 2 (32-bit `uzp1/uzp2`: coefficient pairs 0-1, 4-5, 8-9,
/// 12-13 against 2-3, 6-7, 10-11, 14-15).
#[inline(always)]
fn gather2(t: Aarch64Neon, lo: int16x8_t, hi: int16x8_t) -> (int16x8_t, int16x8_t) {
    let _ = t;
    // SAFETY: NEON proven by `t`.
    unsafe {
        let (l, h) = (vreinterpretq_s32_s16(lo), vreinterpretq_s32_s16(hi));
        (
            vreinterpretq_s16_s32(vuzp1q_s32(l, h)),
            vreinterpretq_s16_s32(vuzp2q_s32(l, h)),
        )
    }
}

/// The inverse of [`gather2`] (`zip1/zip2` of 32-bit lanes).
#[inline(always)]
fn scatter2(t: Aarch64Neon, a: int16x8_t, b: int16x8_t) -> (int16x8_t, int16x8_t) {
    let _ = t;
    // SAFETY: NEON proven by `t`.
    unsafe {
        let (a, b) = (vreinterpretq_s32_s16(a), vreinterpretq_s32_s16(b));
        (
            vreinterpretq_s16_s32(vzip1q_s32(a, b)),
            vreinterpretq_s16_s32(vzip2q_s32(a, b)),
        )
    }
}

/// Zetas of the distance-4 layer at the gathered positions (block 0 then block 1).
#[inline(always)]
fn zv4(t: Aarch64Neon, z: [i16; 2]) -> int16x8_t {
    ld8(t, &[z[0], z[0], z[0], z[0], z[1], z[1], z[1], z[1]])
}

/// Zetas of the distance-2 layer at the gathered positions (blocks 0..4).
#[inline(always)]
fn zv2(t: Aarch64Neon, z: [i16; 4]) -> int16x8_t {
    ld8(t, &[z[0], z[0], z[1], z[1], z[2], z[2], z[3], z[3]])
}

impl Unit for V {
    type Token = Aarch64Neon;

    #[inline(always)]
    fn load(t: Aarch64Neon, a: &[i16; N]) -> Self {
        // SAFETY: NEON proven by `t`; `a` is 16 readable `i16`, the two 8-lane loads read
        // `a[0..8]` and `a[8..16]` (`ld1` needs only 2-byte alignment).
        unsafe { V(vld1q_s16(a.as_ptr()), vld1q_s16(a.as_ptr().add(8)), t) }
    }
    #[inline(always)]
    fn store(self, a: &mut [i16; N]) {
        // SAFETY: NEON proven by the token; `a` is 16 writable `i16`, the stores write
        // `a[0..8]` and `a[8..16]`.
        unsafe {
            vst1q_s16(a.as_mut_ptr(), self.0);
            vst1q_s16(a.as_mut_ptr().add(8), self.1);
        }
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        // SAFETY: NEON proven by the token in `self`.
        unsafe { V(vaddq_s16(self.0, b.0), vaddq_s16(self.1, b.1), self.2) }
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        // SAFETY: NEON proven by the token in `self`.
        unsafe { V(vsubq_s16(self.0, b.0), vsubq_s16(self.1, b.1), self.2) }
    }
    #[inline(always)]
    fn barrett_reduce(self) -> Self {
        let t = self.2;
        V(barrett8(t, self.0), barrett8(t, self.1), t)
    }
    #[inline(always)]
    fn mont_mul_const(self, c: i16) -> Self {
        let t = self.2;
        // SAFETY: NEON proven by `t`.
        let c = unsafe { vdupq_n_s16(c) };
        V(mont8(t, self.0, c), mont8(t, self.1, c), t)
    }
    #[inline(always)]
    fn to_canonical(self) -> Self {
        let t = self.2;
        V(canon8(t, self.0), canon8(t, self.1), t)
    }
    #[inline(always)]
    fn reduce_once(self) -> Self {
        let t = self.2;
        // SAFETY: NEON proven by `t`.
        let (a, b) = unsafe {
            let q = vdupq_n_s16(Q);
            (vsubq_s16(self.0, q), vsubq_s16(self.1, q))
        };
        V(canon8(t, a), canon8(t, b), t)
    }
    #[inline(always)]
    fn ntt_butterfly(a: &mut Self, b: &mut Self, zeta: i16) {
        let t = a.2;
        // SAFETY: NEON proven by `t`.
        let z = unsafe { vdupq_n_s16(zeta) };
        let (a0, b0) = ct8(t, a.0, b.0, z);
        let (a1, b1) = ct8(t, a.1, b.1, z);
        *a = V(a0, a1, t);
        *b = V(b0, b1, t);
    }
    #[inline(always)]
    fn ntt_layer_8(self, zeta: i16) -> Self {
        let t = self.2;
        // SAFETY: NEON proven by `t`.
        let z = unsafe { vdupq_n_s16(zeta) };
        let (a, b) = ct8(t, self.0, self.1, z);
        V(a, b, t)
    }
    #[inline(always)]
    fn ntt_layer_4(self, zetas: [i16; 2]) -> Self {
        let t = self.2;
        let (a, b) = gather4(t, self.0, self.1);
        let (a, b) = ct8(t, a, b, zv4(t, zetas));
        // The 64-bit transpose is an involution.
        let (lo, hi) = gather4(t, a, b);
        V(lo, hi, t)
    }
    #[inline(always)]
    fn ntt_layer_2(self, zetas: [i16; 4]) -> Self {
        let t = self.2;
        let (a, b) = gather2(t, self.0, self.1);
        let (a, b) = ct8(t, a, b, zv2(t, zetas));
        let (lo, hi) = scatter2(t, a, b);
        V(lo, hi, t)
    }
    #[inline(always)]
    fn invntt_butterfly(a: &mut Self, b: &mut Self, zeta: i16) {
        let t = a.2;
        // SAFETY: NEON proven by `t`.
        let z = unsafe { vdupq_n_s16(zeta) };
        let (a0, b0) = gs8(t, a.0, b.0, z);
        let (a1, b1) = gs8(t, a.1, b.1, z);
        *a = V(a0, a1, t);
        *b = V(b0, b1, t);
    }
    #[inline(always)]
    fn invntt_layer_8(self, zeta: i16) -> Self {
        let t = self.2;
        // SAFETY: NEON proven by `t`.
        let z = unsafe { vdupq_n_s16(zeta) };
        let (a, b) = gs8(t, self.0, self.1, z);
        V(a, b, t)
    }
    #[inline(always)]
    fn invntt_layer_4(self, zetas: [i16; 2]) -> Self {
        let t = self.2;
        let (a, b) = gather4(t, self.0, self.1);
        let (a, b) = gs8(t, a, b, zv4(t, zetas));
        let (lo, hi) = gather4(t, a, b);
        V(lo, hi, t)
    }
    #[inline(always)]
    fn invntt_layer_2(self, zetas: [i16; 4]) -> Self {
        let t = self.2;
        let (a, b) = gather2(t, self.0, self.1);
        let (a, b) = gs8(t, a, b, zv2(t, zetas));
        let (lo, hi) = scatter2(t, a, b);
        V(lo, hi, t)
    }
    #[inline(always)]
    fn basemul(self, b: Self, z: [i16; 4]) -> Self {
        // FIPS 203 Algorithm 12 on the eight pairs at once: `uzp1/uzp2` put the a0 (b0) of
        // every pair in one register and the a1 (b1) in another. Same Montgomery products in
        // the same order as the portable `basemul_pair`, so the same values.
        let t = self.2;
        let gamma = ld8(t, &[z[0], -z[0], z[1], -z[1], z[2], -z[2], z[3], -z[3]]);
        // SAFETY: NEON proven by `t`.
        let (a0, a1, b0, b1) = unsafe {
            (
                vuzp1q_s16(self.0, self.1),
                vuzp2q_s16(self.0, self.1),
                vuzp1q_s16(b.0, b.1),
                vuzp2q_s16(b.0, b.1),
            )
        };
        let r0 = mont8(t, mont8(t, a1, b1), gamma);
        let p00 = mont8(t, a0, b0);
        let p01 = mont8(t, a0, b1);
        let p10 = mont8(t, a1, b0);
        // SAFETY: NEON proven by `t`.
        unsafe {
            let r0 = vaddq_s16(r0, p00);
            let r1 = vaddq_s16(p01, p10);
            V(vzip1q_s16(r0, r1), vzip2q_s16(r0, r1), t)
        }
    }
    #[inline(always)]
    fn compress<const D: u32>(self) -> Self {
        let t = self.2;
        V(compress8::<D>(t, self.0), compress8::<D>(t, self.1), t)
    }
    #[inline(always)]
    fn decompress<const D: u32>(self) -> Self {
        let t = self.2;
        V(decompress8::<D>(t, self.0), decompress8::<D>(t, self.1), t)
    }
    #[inline(always)]
    fn encode<const D: u32>(self, out: &mut [u8]) {
        debug_assert_eq!(out.len(), 2 * D as usize);
        let d = D as usize;
        let (o0, o1) = out.split_at_mut(d);
        encode8::<D>(self.2, self.0, o0);
        encode8::<D>(self.2, self.1, o1);
    }
    #[inline(always)]
    fn decode<const D: u32>(t: Aarch64Neon, bytes: &[u8]) -> Self {
        debug_assert_eq!(bytes.len(), 2 * D as usize);
        let d = D as usize;
        V(
            decode8::<D>(t, &bytes[..d]),
            decode8::<D>(t, &bytes[d..2 * d]),
            t,
        )
    }
    #[inline(always)]
    fn cbd<const ETA: usize>(t: Aarch64Neon, bytes: &[u8]) -> Self {
        if ETA == 2 {
            cbd2(t, bytes)
        } else {
            cbd3(t, bytes)
        }
    }
    #[inline(always)]
    fn rej_sample(t: Aarch64Neon, bytes: &[u8], out: &mut [i16; 256], n: &mut usize) {
        rej_sample(t, bytes, out, n)
    }
    #[inline(always)]
    fn ntt_poly(t: Aarch64Neon, p: &mut [i16; 256]) {
        ntt_poly(t, p)
    }
    #[inline(always)]
    fn invntt_poly(t: Aarch64Neon, p: &mut [i16; 256]) {
        invntt_poly(t, p)
    }
    #[inline(always)]
    fn wipe_coeffs(_t: Aarch64Neon, p: &mut [i16]) {
        super::wipe_wide::<i16, 8>(p)
    }
    #[inline(always)]
    fn wipe_bytes(_t: Aarch64Neon, b: &mut [u8]) {
        super::wipe_wide::<u8, 16>(b)
    }
    #[inline(always)]
    fn f1600_x4(t: Aarch64Neon, state: &mut [[u64; 4]; 25]) {
        f1600_x4(t, state)
    }
}

/// FIPS 203 Compress_d (equation 4.7) of 8 lanes, `d <= 11`: the portable formula
/// `((x << (d+1)) + q) * ceil(2^40 / 2q) >> 40`, masked to `d` bits, evaluated exactly with
/// 32 x 32 -> 64-bit products (`umull`, `umull2`); `shrn` by 32 and then by 8 take bits
/// 40.. of each product. In: canonical `[0, q)`. Out: `[0, 2^d)`.
#[inline(always)]
fn compress8<const D: u32>(t: Aarch64Neon, x: int16x8_t) -> int16x8_t {
    const M: u32 = (1u64 << 40).div_ceil(2 * Q as u64) as u32;
    let _ = t;
    // SAFETY: NEON proven by `t`.
    unsafe {
        let x = vreinterpretq_u16_s16(x);
        let sh = vdupq_n_s32((D + 1) as i32);
        let qv = vdupq_n_u32(Q as u32);
        // Numerators < 2^24, products < 2^52.
        let lo = vaddq_u32(vshlq_u32(vmovl_u16(vget_low_u16(x)), sh), qv);
        let hi = vaddq_u32(vshlq_u32(vmovl_high_u16(x), sh), qv);
        let lo = vcombine_u32(
            vshrn_n_u64::<32>(vmull_n_u32(vget_low_u32(lo), M)),
            vshrn_n_u64::<32>(vmull_high_n_u32(lo, M)),
        );
        let hi = vcombine_u32(
            vshrn_n_u64::<32>(vmull_n_u32(vget_low_u32(hi), M)),
            vshrn_n_u64::<32>(vmull_high_n_u32(hi, M)),
        );
        let r = vcombine_u16(vshrn_n_u32::<8>(lo), vshrn_n_u32::<8>(hi));
        vreinterpretq_s16_u16(vandq_u16(r, vdupq_n_u16(((1u32 << D) - 1) as u16)))
    }
}

/// FIPS 203 Decompress_d (equation 4.8) of 8 lanes: `(q y + 2^(d-1)) >> d`, computed as
/// `sqrdmulh(y << (15 - d), q)` = `(2 y 2^(15-d) q + 2^15) >> 16`, the same value exactly
/// (never saturates: `y 2^(15-d) < 2^15`). In: `[0, 2^d)`, `1 <= d <= 11`. Out: `[0, q)`.
#[inline(always)]
fn decompress8<const D: u32>(t: Aarch64Neon, y: int16x8_t) -> int16x8_t {
    let _ = t;
    // SAFETY: NEON proven by `t`.
    unsafe { vqrdmulhq_n_s16(vshlq_s16(y, vdupq_n_s16((15 - D) as i16)), Q) }
}

/// FIPS 203 ByteEncode_d (Algorithm 5) of 8 lanes into `d` bytes, `1 <= d <= 12`: pairs into
/// 32-bit lanes (`c0 | c1 << d`), those pairs into 64-bit lanes (`p0 | p1 << 2d`), then the
/// two 64-bit halves (4d bits each) joined in a `u128`. In: `[0, 2^d)`. Shifts by the public
/// `d` only: no data-dependent branch or index.
#[inline(always)]
fn encode8<const D: u32>(t: Aarch64Neon, x: int16x8_t, out: &mut [u8]) {
    debug_assert_eq!(out.len(), D as usize);
    let _ = t;
    // SAFETY: NEON proven by `t`.
    let (q0, q1) = unsafe {
        let w = vreinterpretq_u32_s16(x);
        let p = vorrq_u32(
            vandq_u32(w, vdupq_n_u32(0xFFFF)),
            vshlq_u32(vshrq_n_u32::<16>(w), vdupq_n_s32(D as i32)),
        );
        let p = vreinterpretq_u64_u32(p);
        let q = vorrq_u64(
            vandq_u64(p, vdupq_n_u64(0xFFFF_FFFF)),
            vshlq_u64(vshrq_n_u64::<32>(p), vdupq_n_s64(2 * D as i64)),
        );
        (vgetq_lane_u64::<0>(q), vgetq_lane_u64::<1>(q))
    };
    let v = u128::from(q0) | (u128::from(q1) << (4 * D));
    out.copy_from_slice(&v.to_le_bytes()[..D as usize]);
}

/// FIPS 203 ByteDecode_d (Algorithm 6) of `d` bytes into 8 lanes, without the mod-q step of
/// d = 12: the inverse of [`encode8`] (a `u128` split into two 4d-bit halves, each split into
/// two 2d-bit 32-bit lanes, each into two d-bit 16-bit lanes). Out: `[0, 2^d)`. No
/// data-dependent branch or index.
#[inline(always)]
fn decode8<const D: u32>(t: Aarch64Neon, bytes: &[u8]) -> int16x8_t {
    debug_assert_eq!(bytes.len(), D as usize);
    let _ = t;
    let mut w = [0u8; 16];
    w[..D as usize].copy_from_slice(bytes);
    let v = u128::from_le_bytes(w);
    let m4 = (1u128 << (4 * D)) - 1;
    let q = [(v & m4) as u64, ((v >> (4 * D)) & m4) as u64];
    // SAFETY: NEON proven by `t`; `q` is two readable `u64`.
    unsafe {
        let q = vld1q_u64(q.as_ptr());
        let dw = vorrq_u64(
            vandq_u64(q, vdupq_n_u64((1u64 << (2 * D)) - 1)),
            vshlq_n_u64::<32>(vshlq_u64(q, vdupq_n_s64(-2 * D as i64))),
        );
        let dw = vreinterpretq_u32_u64(dw);
        let r = vorrq_u32(
            vandq_u32(dw, vdupq_n_u32((1u32 << D) - 1)),
            vshlq_n_u32::<16>(vshlq_u32(dw, vdupq_n_s32(-(D as i32)))),
        );
        vreinterpretq_s16_u32(r)
    }
}

/// The bit sums of SamplePolyCBD (FIPS 203 Algorithm 8) on lanes that hold the `2 eta` bits of
/// one coefficient each (`x` = the low `eta` bits, `y` = the next `eta`): with `m` = the bits
/// at stride `eta` (0b0101 for eta = 2, 0b1001 for eta = 3), `s = sum_k (n >> k) & m` holds
/// `x`'s popcount in its low `eta` bits and `y`'s above; out `x - y` in `[-eta, eta]`.
#[inline(always)]
fn cbd_sums<const ETA: u32>(t: Aarch64Neon, n: uint16x8_t) -> int16x8_t {
    let _ = t;
    let m: u16 = if ETA == 2 { 0b0101 } else { 0b1001 };
    // SAFETY: NEON proven by `t`.
    unsafe {
        let mv = vdupq_n_u16(m);
        let mut s = vandq_u16(n, mv);
        s = vaddq_u16(s, vandq_u16(vshrq_n_u16::<1>(n), mv));
        if ETA == 3 {
            s = vaddq_u16(s, vandq_u16(vshrq_n_u16::<2>(n), mv));
        }
        let x = vandq_u16(s, vdupq_n_u16((1 << ETA) - 1));
        let y = vshlq_u16(s, vdupq_n_s16(-(ETA as i16)));
        vreinterpretq_s16_u16(vsubq_u16(x, y))
    }
}

/// Spreads bytes to 16-bit lanes with a constant `tbl` index (0xFF: zero) and shifts each lane
/// right by its constant count (given negative), masking to `mask`: the bit-field extraction
/// shared by CBD and the rejection sampler. The data is the table, the indices are constants,
/// so secret bytes are never an index.
#[inline(always)]
fn spread(
    t: Aarch64Neon,
    v: uint8x16_t,
    idx: &[u8; 16],
    shifts: &[i16; 8],
    mask: u16,
) -> uint16x8_t {
    let _ = t;
    // SAFETY: NEON proven by `t`; `idx` is 16 readable bytes, `shifts` 8 readable `i16`.
    unsafe {
        let x = vreinterpretq_u16_u8(vqtbl1q_u8(v, vld1q_u8(idx.as_ptr())));
        vandq_u16(vshlq_u16(x, vld1q_s16(shifts.as_ptr())), vdupq_n_u16(mask))
    }
}

/// Loads up to 16 bytes into a register, zero padded.
#[inline(always)]
fn load_bytes(t: Aarch64Neon, bytes: &[u8]) -> uint8x16_t {
    let _ = t;
    let mut w = [0u8; 16];
    w[..bytes.len()].copy_from_slice(bytes);
    // SAFETY: NEON proven by `t`; `w` is 16 readable bytes.
    unsafe { vld1q_u8(w.as_ptr()) }
}

/// FIPS 203 SamplePolyCBD_2 (Algorithm 8) of 8 bytes into 16 lanes: lane i takes byte i/2
/// (`tbl`) and keeps its low or high nibble (even or odd lane), then the bits are summed.
/// Out: `[-2, 2]`. No data-dependent branch or index (the bytes are secret).
#[inline(always)]
fn cbd2(t: Aarch64Neon, bytes: &[u8]) -> V {
    debug_assert_eq!(bytes.len(), 8);
    let v = load_bytes(t, &bytes[..8]);
    const Z: u8 = 0xFF;
    const SH: [i16; 8] = [0, -4, 0, -4, 0, -4, 0, -4];
    let lo = spread(
        t,
        v,
        &[0, Z, 0, Z, 1, Z, 1, Z, 2, Z, 2, Z, 3, Z, 3, Z],
        &SH,
        0xF,
    );
    let hi = spread(
        t,
        v,
        &[4, Z, 4, Z, 5, Z, 5, Z, 6, Z, 6, Z, 7, Z, 7, Z],
        &SH,
        0xF,
    );
    V(cbd_sums::<2>(t, lo), cbd_sums::<2>(t, hi), t)
}

/// FIPS 203 SamplePolyCBD_3 (Algorithm 8) of 12 bytes into 16 lanes: lane i takes the two
/// bytes holding bits `6i..6i+6` (`tbl`), shifts them right by `6i mod 8` (0, 6, 4, 2
/// repeating) and keeps 6 bits, then the bits are summed. Out: `[-3, 3]`. No data-dependent
/// branch or index (the bytes are secret).
#[inline(always)]
fn cbd3(t: Aarch64Neon, bytes: &[u8]) -> V {
    debug_assert_eq!(bytes.len(), 12);
    let v = load_bytes(t, &bytes[..12]);
    const SH: [i16; 8] = [0, -6, -4, -2, 0, -6, -4, -2];
    let lo = spread(
        t,
        v,
        &[0, 1, 0, 1, 1, 2, 2, 3, 3, 4, 3, 4, 4, 5, 5, 6],
        &SH,
        0x3F,
    );
    let hi = spread(
        t,
        v,
        &[6, 7, 6, 7, 7, 8, 8, 9, 9, 10, 9, 10, 10, 11, 11, 12],
        &SH,
        0x3F,
    );
    V(cbd_sums::<3>(t, lo), cbd_sums::<3>(t, hi), t)
}

/// `tbl` indices that move the 16-bit lanes selected by an 8-bit mask to the front of a
/// register, in order, and zero the rest (index 0x80, out of range): the compaction step of
/// rejection sampling. Built at compile time (`tessera_cpu::compaction`).
const REJ_IDX: [[u8; 16]; 256] = tessera_cpu::compaction::PAIRS16;

/// The rejection step of FIPS 203 SampleNTT (Algorithm 7, lines 5-13) on NEON: 24 bytes (16
/// candidates) per step, as two groups of 12 bytes (8 candidates each). A group's 12-bit
/// candidates are split out with a constant `tbl` and per-lane shifts, compared with q, the
/// comparison folded into an 8-bit mask (`and` with the lane bits, `addv`), and the accepted
/// candidates compacted with [`REJ_IDX`] (indexed by the mask: public data, the matrix is
/// public) and stored 8 lanes at a time. The remaining bytes (fewer than 24, or when fewer
/// than 16 free slots remain) go through the portable loop, which stops at 256. Same results
/// as the portable loop; lanes of `out` past the final `*n` may be overwritten with zeros.
/// Out: `[0, q)`.
#[inline(always)]
fn rej_sample(t: Aarch64Neon, bytes: &[u8], out: &mut [i16; 256], n: &mut usize) {
    const IDX: [u8; 16] = [0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11];
    const IDX_HI: [u8; 16] = [4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15];
    const SH: [i16; 8] = [0, -4, 0, -4, 0, -4, 0, -4];
    const BITS: [u16; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
    let mut pos = 0;
    while pos + 24 <= bytes.len() && *n + 16 <= 256 {
        let win: &[u8; 24] = bytes[pos..pos + 24]
            .try_into()
            .unwrap_or_else(|_| unreachable!());
        // SAFETY: NEON proven by `t`; `win` is 24 readable bytes, so the 16-byte loads at
        // offsets 0 and 8 are in bounds.
        let (v0, v1) = unsafe { (vld1q_u8(win.as_ptr()), vld1q_u8(win.as_ptr().add(8))) };
        // Group 0 is bytes 0..12 (offset 0 of v0), group 1 bytes 12..24 (offset 4 of v1).
        for (v, idx) in [(v0, &IDX), (v1, &IDX_HI)] {
            let c = spread(t, v, idx, &SH, 0x0FFF);
            // SAFETY: NEON proven by `t`; `BITS` is 8 readable `u16`.
            let m = unsafe {
                let good = vcltq_u16(c, vdupq_n_u16(Q as u16));
                usize::from(vaddvq_u16(vandq_u16(good, vld1q_u16(BITS.as_ptr()))))
            };
            let dst: &mut [i16; 8] = (&mut out[*n..*n + 8])
                .try_into()
                .unwrap_or_else(|_| unreachable!());
            // SAFETY: NEON proven by `t`; `REJ_IDX[m]` is 16 readable bytes (m < 256) and
            // `dst` 8 writable `i16`.
            unsafe {
                let idx = vld1q_u8(REJ_IDX[m & 0xFF].as_ptr());
                let r = vqtbl1q_u8(vreinterpretq_u8_u16(c), idx);
                vst1q_s16(dst.as_mut_ptr(), vreinterpretq_s16_u8(r));
            }
            *n += m.count_ones() as usize;
        }
        pos += 24;
    }
    P16::rej_sample(tessera_cpu::Portable, &bytes[pos..], out, n)
}

tessera_cpu::island! {
    /// Keccak-f\[1600\] x4 on NEON (`tessera_keccak::x4::f1600_x4_neon`), compiled once: the
    /// samplers call it per block from inside this backend's islands (a plain call, no
    /// dispatch), rather than inlining the unrolled permutation at every call site.
    fn f1600_x4(t: Aarch64Neon, state: &mut [[u64; 4]; 25]) {
        tessera_keccak::x4::f1600_x4_neon(t, state)
    }
}

tessera_cpu::island! {
    /// The NTT on NEON units, compiled once (called from this backend's islands).
    fn ntt_poly(t: Aarch64Neon, p: &mut crate::poly::Poly) {
        crate::poly::ntt::<V>(t, p)
    }
}

tessera_cpu::island! {
    /// The inverse NTT on NEON units, compiled once.
    fn invntt_poly(t: Aarch64Neon, p: &mut crate::poly::Poly) {
        crate::poly::invntt::<V>(t, p)
    }
}
