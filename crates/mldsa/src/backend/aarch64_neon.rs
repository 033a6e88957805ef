//! NEON backend: a unit is two 128-bit registers of 4 x i32 (`int32x4_t`), coefficients `0..4`
//! in the first and `4..8` in the second, natural order.
//!
//! Montgomery multiplication (the portable `fqmul`, `(a b - t q) >> 32` with
//! `t = lo32(a b) q^-1`) is `vhsub(vqdmulh(a, b), vqdmulh(mul(mul(a, b), q^-1), q))`: the
//! doubling high halves `floor(2 a b / 2^32)` and `floor(2 t q / 2^32)` differ by exactly
//! `2 (a b - t q) / 2^32` (`a b = t q mod 2^32`, so `2 a b` and `2 t q` agree in their low 33
//! bits), and the halving subtract (computed in 33 bits) gives `(a b - t q) / 2^32`, the
//! portable value bit for bit. `vqdmulh` saturates only for `a = b = -2^31`, which the
//! Montgomery input bound `|a b| < q 2^31 < 2^62` excludes (and `|q| < 2^31` for `t q`).
//! reduce32's `(a + 2^22) >> 23` is the rounding shift `vrshr #23` (exact, no overflow);
//! every other operation is the portable formula lane by lane with the same shifts, masks and
//! wrapping adds. So every result is bit-identical to the portable backend and the equivalence
//! tests compare raw outputs.
//!
//! The in-unit NTT layers: distance 4 is the two registers themselves; distance 2 gathers its
//! butterfly operands with a 64-bit `trn1/trn2` (coefficients 0-1, 4-5 against 2-3, 6-7; the
//! transpose is an involution, so the same `trn` scatters back); distance 1 with a 32-bit
//! `uzp1/uzp2` (even against odd coefficients), scattered back with `zip1/zip2`.
//!
//! The infinity-norm check (`exceeds`) compares `|a|` with the bound on every lane and folds
//! the masks with `umaxv`; MakeHint's comparison is `cmeq` + `mvn`. Bit packing, unpacking and
//! the two rejection samplers go through the portable code on an `[i32; 8]`: `rej_uniform` works
//! on public data (the XOF output of rho), `rej_eta` on secret-derived bytes and stays exactly the
//! portable loop (no table lookup indexed by them).
//!
//! The samplers hash on tessera-keccak's four-way Keccak (the SHA3 extension where the CPU has
//! it, else two NEON x2 permutations), the other hashes on its detected single-state Keccak
//! (see `Backend::hashes`).
//!
//! Speed: no aarch64 hardware was available when this was written, only qemu-user, which
//! measures nothing useful; the backend is tested for equality with portable, not timed.

use core::arch::aarch64::*;

use tessera_cpu::Aarch64Neon;

use super::portable::P8;
use crate::poly::Poly;
use crate::unit::{N, Q, Unit};

/// 8 coefficients in two NEON registers (coefficients 0..4, 4..8), with the token that proves
/// NEON (so the safe trait methods are sound by construction).
#[derive(Clone, Copy)]
pub(crate) struct V(int32x4_t, int32x4_t, Aarch64Neon);

/// q^-1 mod 2^32, as i32 (the portable `QINV`).
const QINV: i32 = 58_728_449;

/// Four copies of `c`.
#[inline(always)]
fn dup(t: Aarch64Neon, c: i32) -> int32x4_t {
    let _ = t;
    // SAFETY: NEON proven by `t`.
    unsafe { vdupq_n_s32(c) }
}

/// Loads 4 lanes from an array.
#[inline(always)]
fn ld4(t: Aarch64Neon, a: &[i32; 4]) -> int32x4_t {
    let _ = t;
    // SAFETY: NEON proven by `t`; `a` is 4 readable `i32` (`ld1` needs only 4-byte alignment).
    unsafe { vld1q_s32(a.as_ptr()) }
}

/// Montgomery product lane-wise (the portable `fqmul`). In: `|a b| < q 2^31` (so never
/// `a = b = -2^31`, the one saturating case of `sqdmulh`). Out: `|r| < q`, bit-identical to
/// the portable value (see the module docs).
#[inline(always)]
fn mont4(t: Aarch64Neon, a: int32x4_t, b: int32x4_t) -> int32x4_t {
    let _ = t;
    // SAFETY: NEON proven by `t`.
    unsafe {
        let hi = vqdmulhq_s32(a, b);
        let m = vmulq_n_s32(vmulq_s32(a, b), QINV);
        vhsubq_s32(hi, vqdmulhq_n_s32(m, Q))
    }
}

/// `a - round(a / 2^23) q` lane-wise (the portable `reduce32`). In: `a <= 2^31 - 2^22 - 1`.
/// Out: `[-6283009, 6283008]`.
#[inline(always)]
fn reduce4(t: Aarch64Neon, a: int32x4_t) -> int32x4_t {
    let _ = t;
    // SAFETY: NEON proven by `t`. `vrshr #23` is `(a + 2^22) >> 23` without overflow; `t q`
    // fits in i32 (`|t| <= 256`).
    unsafe { vmlsq_n_s32(a, vrshrq_n_s32::<23>(a), Q) }
}

/// Adds q to the negative lanes (the portable `caddq`). In: `(-q, q)`. Out: `[0, q)`.
#[inline(always)]
fn caddq4(t: Aarch64Neon, a: int32x4_t) -> int32x4_t {
    let _ = t;
    // SAFETY: NEON proven by `t`.
    unsafe { vaddq_s32(a, vandq_s32(vshrq_n_s32::<31>(a), vdupq_n_s32(Q))) }
}

/// Subtracts q from the lanes above `(q-1)/2`: `a - ((((q-1)/2 - a) >> 31) & q)`. In: `[0, q)`.
/// Out: `[-(q-1)/2, (q-1)/2]`.
#[inline(always)]
fn center4(t: Aarch64Neon, a: int32x4_t) -> int32x4_t {
    let _ = t;
    // SAFETY: NEON proven by `t`.
    unsafe {
        let d = vsubq_s32(vdupq_n_s32((Q - 1) >> 1), a);
        vsubq_s32(a, vandq_s32(vshrq_n_s32::<31>(d), vdupq_n_s32(Q)))
    }
}

/// Cooley-Tukey butterflies lane-wise (FIPS 204 Algorithm 41, lines 8-10): `t = z b`,
/// `(a + t, a - t)`. Bounds as [`Unit::ntt_butterfly`].
#[inline(always)]
fn ct4(t: Aarch64Neon, a: int32x4_t, b: int32x4_t, z: int32x4_t) -> (int32x4_t, int32x4_t) {
    let m = mont4(t, z, b);
    // SAFETY: NEON proven by `t`.
    unsafe { (vaddq_s32(a, m), vsubq_s32(a, m)) }
}

/// Gentleman-Sande butterflies lane-wise (FIPS 204 Algorithm 42, lines 8-11):
/// `(a + b, z (a - b))`. Bounds as [`Unit::invntt_butterfly`].
#[inline(always)]
fn gs4(t: Aarch64Neon, a: int32x4_t, b: int32x4_t, z: int32x4_t) -> (int32x4_t, int32x4_t) {
    // SAFETY: NEON proven by `t`.
    let (s, d) = unsafe { (vaddq_s32(a, b), vsubq_s32(a, b)) };
    (s, mont4(t, z, d))
}

/// Operand gathers of the distance-2 layer: `(a operands, b operands)` =
/// `([x0, x1, x4, x5], [x2, x3, x6, x7])` (64-bit `trn1/trn2`). The transpose is an involution:
/// applied to `(a, b)` it puts the coefficients back.
#[inline(always)]
fn trn64(t: Aarch64Neon, lo: int32x4_t, hi: int32x4_t) -> (int32x4_t, int32x4_t) {
    let _ = t;
    // SAFETY: NEON proven by `t`.
    unsafe {
        let (l, h) = (vreinterpretq_s64_s32(lo), vreinterpretq_s64_s32(hi));
        (
            vreinterpretq_s32_s64(vtrn1q_s64(l, h)),
            vreinterpretq_s32_s64(vtrn2q_s64(l, h)),
        )
    }
}

/// Operand gathers of the distance-1 layer: `([x0, x2, x4, x6], [x1, x3, x5, x7])` (`uzp1/uzp2`).
#[inline(always)]
fn gather1(t: Aarch64Neon, lo: int32x4_t, hi: int32x4_t) -> (int32x4_t, int32x4_t) {
    let _ = t;
    // SAFETY: NEON proven by `t`.
    unsafe { (vuzp1q_s32(lo, hi), vuzp2q_s32(lo, hi)) }
}

/// The inverse of [`gather1`] (`zip1/zip2`).
#[inline(always)]
fn scatter1(t: Aarch64Neon, a: int32x4_t, b: int32x4_t) -> (int32x4_t, int32x4_t) {
    let _ = t;
    // SAFETY: NEON proven by `t`.
    unsafe { (vzip1q_s32(a, b), vzip2q_s32(a, b)) }
}

/// FIPS 204 Decompose (Algorithm 36) lane-wise: the portable `decompose_one` formula
/// (multiply-shift in place of the division, see there). In: canonical `[0, q)`.
/// Out: `(r1, r0)` as [`Unit::decompose`].
#[inline(always)]
fn decompose4<const G2: i32>(t: Aarch64Neon, a: int32x4_t) -> (int32x4_t, int32x4_t) {
    let g2 = super::portable::gamma2::<G2>();
    let _ = t;
    // SAFETY: NEON proven by `t`.
    unsafe {
        let a1 = vshrq_n_s32::<7>(vaddq_s32(a, vdupq_n_s32(127)));
        let a1 = if G2 == 32 {
            // (a1 * 1025 + 2^21) >> 22, then & 15.
            let x = vshrq_n_s32::<22>(vmlaq_n_s32(vdupq_n_s32(1 << 21), a1, 1025));
            vandq_s32(x, vdupq_n_s32(15))
        } else {
            // (a1 * 11275 + 2^23) >> 24, then a1 ^= ((43 - a1) >> 31) & a1.
            let x = vshrq_n_s32::<24>(vmlaq_n_s32(vdupq_n_s32(1 << 23), a1, 11275));
            let m = vshrq_n_s32::<31>(vsubq_s32(vdupq_n_s32(43), x));
            veorq_s32(x, vandq_s32(m, x))
        };
        // a0 = a - a1 * 2 gamma2, then minus q where a0 > (q-1)/2.
        let a0 = vmlsq_n_s32(a, a1, 2 * g2);
        let d = vsubq_s32(vdupq_n_s32((Q - 1) >> 1), a0);
        let a0 = vsubq_s32(a0, vandq_s32(vshrq_n_s32::<31>(d), vdupq_n_s32(Q)));
        (a1, a0)
    }
}

/// FIPS 204 UseHint (Algorithm 40) lane-wise: the portable `use_hint_one` formula. In: `a`
/// canonical, `h` in `{0, 1}`. Out: `[0, (q-1)/(2 gamma2))`.
#[inline(always)]
fn use_hint4<const G2: i32>(t: Aarch64Neon, a: int32x4_t, h: int32x4_t) -> int32x4_t {
    let m = if G2 == 32 { 16 } else { 44 };
    let (r1, r0) = decompose4::<G2>(t, a);
    // SAFETY: NEON proven by `t`.
    unsafe {
        // pos = ((-r0) >> 31) & 1; x = r1 + h (2 pos - 1).
        let pos = vandq_s32(vshrq_n_s32::<31>(vnegq_s32(r0)), vdupq_n_s32(1));
        let step = vsubq_s32(vaddq_s32(pos, pos), vdupq_n_s32(1));
        let x = vmlaq_s32(r1, h, step);
        let mv = vdupq_n_s32(m);
        // x += (x >> 31) & m; x -= ((m - 1 - x) >> 31) & m.
        let x = vaddq_s32(x, vandq_s32(vshrq_n_s32::<31>(x), mv));
        let d = vsubq_s32(vdupq_n_s32(m - 1), x);
        vsubq_s32(x, vandq_s32(vshrq_n_s32::<31>(d), mv))
    }
}

impl V {
    /// The coefficients as an array (for the portable packing and sampling code).
    #[inline(always)]
    fn to_array(self) -> [i32; N] {
        let mut a = [0i32; N];
        self.store(&mut a);
        a
    }
    /// Applies `f` to both registers.
    #[inline(always)]
    fn map(self, f: impl Fn(Aarch64Neon, int32x4_t) -> int32x4_t) -> Self {
        let t = self.2;
        V(f(t, self.0), f(t, self.1), t)
    }
    /// Applies `f` to both register pairs of `self` and `b`.
    #[inline(always)]
    fn zip(self, b: Self, f: impl Fn(Aarch64Neon, int32x4_t, int32x4_t) -> int32x4_t) -> Self {
        let t = self.2;
        V(f(t, self.0, b.0), f(t, self.1, b.1), t)
    }
}

impl Unit for V {
    type Token = Aarch64Neon;

    #[inline(always)]
    fn hashes(t: Aarch64Neon) -> crate::hash::Hashes {
        use tessera_keccak::{X1Backend, X4Backend};
        crate::hash::Hashes {
            x1: X1Backend::detect(),
            x4: Some(
                tessera_cpu::Aarch64Sha3::detect()
                    .map_or(X4Backend::Aarch64Neon(t), X4Backend::Aarch64Sha3),
            ),
        }
    }

    #[inline(always)]
    fn load(t: Aarch64Neon, a: &[i32; N]) -> Self {
        // SAFETY: NEON proven by `t`; `a` is 8 readable `i32`, the two 4-lane loads read
        // `a[0..4]` and `a[4..8]` (`ld1` needs only 4-byte alignment).
        unsafe { V(vld1q_s32(a.as_ptr()), vld1q_s32(a.as_ptr().add(4)), t) }
    }
    #[inline(always)]
    fn store(self, a: &mut [i32; N]) {
        // SAFETY: NEON proven by the token; `a` is 8 writable `i32`, the stores write
        // `a[0..4]` and `a[4..8]`.
        unsafe {
            vst1q_s32(a.as_mut_ptr(), self.0);
            vst1q_s32(a.as_mut_ptr().add(4), self.1);
        }
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        // SAFETY: NEON proven by the token in `self`.
        self.zip(b, |_, x, y| unsafe { vaddq_s32(x, y) })
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        // SAFETY: NEON proven by the token in `self`.
        self.zip(b, |_, x, y| unsafe { vsubq_s32(x, y) })
    }
    #[inline(always)]
    fn rsub_const(self, c: i32) -> Self {
        let cv = dup(self.2, c);
        // SAFETY: NEON proven by the token in `self`.
        self.map(|_, x| unsafe { vsubq_s32(cv, x) })
    }
    #[inline(always)]
    fn shl(self, s: u32) -> Self {
        debug_assert!(s < 31);
        let sv = dup(self.2, s as i32);
        // SAFETY: NEON proven by the token in `self` (`sshl` by a positive count is `<<`).
        self.map(|_, x| unsafe { vshlq_s32(x, sv) })
    }
    #[inline(always)]
    fn split_low(self, s: u32) -> (Self, Self) {
        let t = self.2;
        let (up, down, back) = (
            dup(t, 32 - s as i32),
            dup(t, s as i32 - 32),
            dup(t, -(s as i32)),
        );
        // SAFETY: NEON proven by the token in `self` (`sshl` by a negative count is an
        // arithmetic shift right).
        let lo = self.map(|_, x| unsafe { vshlq_s32(vshlq_s32(x, up), down) });
        // SAFETY: as above.
        let hi = self.zip(lo, |_, x, l| unsafe { vshlq_s32(vsubq_s32(x, l), back) });
        (lo, hi)
    }
    #[inline(always)]
    fn mont_mul(self, b: Self) -> Self {
        self.zip(b, mont4)
    }
    #[inline(always)]
    fn mont_mul_const(self, c: i32) -> Self {
        let cv = dup(self.2, c);
        self.map(|t, x| mont4(t, x, cv))
    }
    #[inline(always)]
    fn reduce32(self) -> Self {
        self.map(reduce4)
    }
    #[inline(always)]
    fn caddq(self) -> Self {
        self.map(caddq4)
    }
    #[inline(always)]
    fn centered(self) -> Self {
        self.map(|t, x| center4(t, caddq4(t, x)))
    }
    #[inline(always)]
    fn ntt_butterfly(a: &mut Self, b: &mut Self, zeta: i32) {
        let t = a.2;
        let z = dup(t, zeta);
        let (a0, b0) = ct4(t, a.0, b.0, z);
        let (a1, b1) = ct4(t, a.1, b.1, z);
        *a = V(a0, a1, t);
        *b = V(b0, b1, t);
    }
    #[inline(always)]
    fn ntt_layer_4(self, zeta: i32) -> Self {
        let t = self.2;
        let (a, b) = ct4(t, self.0, self.1, dup(t, zeta));
        V(a, b, t)
    }
    #[inline(always)]
    fn ntt_layer_2(self, zetas: [i32; 2]) -> Self {
        let t = self.2;
        let (a, b) = trn64(t, self.0, self.1);
        let z = ld4(t, &[zetas[0], zetas[0], zetas[1], zetas[1]]);
        let (a, b) = ct4(t, a, b, z);
        let (lo, hi) = trn64(t, a, b);
        V(lo, hi, t)
    }
    #[inline(always)]
    fn ntt_layer_1(self, zetas: [i32; 4]) -> Self {
        let t = self.2;
        let (a, b) = gather1(t, self.0, self.1);
        let (a, b) = ct4(t, a, b, ld4(t, &zetas));
        let (lo, hi) = scatter1(t, a, b);
        V(lo, hi, t)
    }
    #[inline(always)]
    fn invntt_butterfly(a: &mut Self, b: &mut Self, zeta: i32) {
        let t = a.2;
        let z = dup(t, zeta);
        let (a0, b0) = gs4(t, a.0, b.0, z);
        let (a1, b1) = gs4(t, a.1, b.1, z);
        *a = V(a0, a1, t);
        *b = V(b0, b1, t);
    }
    #[inline(always)]
    fn invntt_layer_1(self, zetas: [i32; 4]) -> Self {
        let t = self.2;
        let (a, b) = gather1(t, self.0, self.1);
        let (a, b) = gs4(t, a, b, ld4(t, &zetas));
        let (lo, hi) = scatter1(t, a, b);
        V(lo, hi, t)
    }
    #[inline(always)]
    fn invntt_layer_2(self, zetas: [i32; 2]) -> Self {
        let t = self.2;
        let (a, b) = trn64(t, self.0, self.1);
        let z = ld4(t, &[zetas[0], zetas[0], zetas[1], zetas[1]]);
        let (a, b) = gs4(t, a, b, z);
        let (lo, hi) = trn64(t, a, b);
        V(lo, hi, t)
    }
    #[inline(always)]
    fn invntt_layer_4(self, zeta: i32) -> Self {
        let t = self.2;
        let (a, b) = gs4(t, self.0, self.1, dup(t, zeta));
        V(a, b, t)
    }
    #[inline(always)]
    fn power2round(self) -> (Self, Self) {
        // r1 = (a + 2^12 - 1) >> 13, r0 = a - (r1 << 13).
        // SAFETY: NEON proven by the token in `self`.
        let r1 =
            self.map(|_, a| unsafe { vshrq_n_s32::<13>(vaddq_s32(a, vdupq_n_s32((1 << 12) - 1))) });
        // SAFETY: NEON proven by the token in `self`.
        let r0 = self.zip(r1, |_, a, h| unsafe { vsubq_s32(a, vshlq_n_s32::<13>(h)) });
        (r1, r0)
    }
    #[inline(always)]
    fn decompose<const G2: i32>(self) -> (Self, Self) {
        let t = self.2;
        let (h0, l0) = decompose4::<G2>(t, self.0);
        let (h1, l1) = decompose4::<G2>(t, self.1);
        (V(h0, h1, t), V(l0, l1, t))
    }
    #[inline(always)]
    fn use_hint<const G2: i32>(self, h: Self) -> Self {
        self.zip(h, use_hint4::<G2>)
    }
    #[inline(always)]
    fn ne_mask01(self, b: Self) -> Self {
        // SAFETY: NEON proven by the token in `self`. `cmeq` is all-ones where equal; its
        // complement shifted right by 31 (unsigned) is 1 exactly where the lanes differ.
        self.zip(b, |_, x, y| unsafe {
            vreinterpretq_s32_u32(vshrq_n_u32::<31>(vmvnq_u32(vceqq_s32(x, y))))
        })
    }
    #[inline(always)]
    fn exceeds(self, bound: i32) -> bool {
        // SAFETY: NEON proven by the token in `self`. `|a|` does not wrap (`a != i32::MIN` by
        // the input bound); the lane masks are or-ed and folded with `umaxv`, every lane
        // looked at, no branch before the final flag.
        let any = unsafe {
            let b = vdupq_n_s32(bound);
            let m0 = vcgeq_s32(vabsq_s32(self.0), b);
            let m1 = vcgeq_s32(vabsq_s32(self.1), b);
            vmaxvq_u32(vorrq_u32(m0, m1))
        };
        any != 0
    }
    #[inline(always)]
    fn sum(self) -> i32 {
        // SAFETY: NEON proven by the token in `self`.
        unsafe { vaddvq_s32(vaddq_s32(self.0, self.1)) }
    }
    #[inline(always)]
    fn encode<const BITS: u32>(self, out: &mut [u8]) {
        P8(self.to_array()).encode::<BITS>(out)
    }
    #[inline(always)]
    fn decode<const BITS: u32>(t: Aarch64Neon, bytes: &[u8]) -> Self {
        let mut a = [0i32; N];
        P8::decode::<BITS>(tessera_cpu::Portable, bytes).store(&mut a);
        V::load(t, &a)
    }
    #[inline(always)]
    fn rej_uniform(_t: Aarch64Neon, bytes: &[u8], out: &mut [i32; 256], n: &mut usize) {
        P8::rej_uniform(tessera_cpu::Portable, bytes, out, n)
    }
    #[inline(always)]
    fn rej_eta<const ETA: i32>(_t: Aarch64Neon, bytes: &[u8], out: &mut [i32; 256], n: &mut usize) {
        P8::rej_eta::<ETA>(tessera_cpu::Portable, bytes, out, n)
    }
    #[inline(always)]
    fn ntt_poly(t: Aarch64Neon, p: &mut [i32; 256]) {
        ntt_poly(t, p)
    }
    #[inline(always)]
    fn invntt_poly(t: Aarch64Neon, p: &mut [i32; 256]) {
        invntt_poly(t, p)
    }
}

/// The NTT on NEON units (the generic layer order of `crate::poly::ntt`).
#[inline(always)]
fn ntt(t: Aarch64Neon, p: &mut Poly) {
    crate::poly::ntt::<V>(t, p)
}

/// The inverse NTT on NEON units.
#[inline(always)]
fn invntt(t: Aarch64Neon, p: &mut Poly) {
    crate::poly::invntt::<V>(t, p)
}

tessera_cpu::island! {
    /// The NTT on NEON units, compiled once (called from this backend's islands through
    /// [`Unit::ntt_poly`]).
    fn ntt_poly(t: Aarch64Neon, p: &mut Poly) {
        ntt(t, p)
    }
}

tessera_cpu::island! {
    /// The inverse NTT on NEON units, compiled once.
    fn invntt_poly(t: Aarch64Neon, p: &mut Poly) {
        invntt(t, p)
    }
}
