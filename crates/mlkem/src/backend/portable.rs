//! The portable unit: 16 x i16 in an array, i32 intermediates, no secret-dependent branch,
//! index or division (shifts and multiplications only).
#![forbid(unsafe_code)]

use zeroize::Zeroize;

use crate::unit::{N, Q, Unit};
use tessera_cpu::Portable;

/// q^-1 mod 2^16, as i16.
const QINV: i16 = -3327;
/// Barrett constant round(2^26 / q).
const BARRETT_V: i32 = 20159;

/// Montgomery reduction: `a * 2^-16 mod q`. In: `|a| < q * 2^15`. Out: `|r| < q`.
#[inline(always)]
pub(crate) fn mont_reduce(a: i32) -> i16 {
    debug_assert!(a.unsigned_abs() < (Q as u32) << 15);
    let t = (a as i16).wrapping_mul(QINV);
    ((a - i32::from(t) * i32::from(Q)) >> 16) as i16
}

/// Montgomery product `a * b * 2^-16 mod q`. In: `|a * b| < q * 2^15`. Out: `|r| < q`.
#[inline(always)]
pub(crate) fn fqmul(a: i16, b: i16) -> i16 {
    mont_reduce(i32::from(a) * i32::from(b))
}

/// Barrett reduction. In: any i16. Out: `-(q-1)/2..=(q-1)/2`, congruent to `a`.
#[inline(always)]
pub(crate) fn barrett(a: i16) -> i16 {
    let t = ((BARRETT_V * i32::from(a) + (1 << 25)) >> 26) as i16;
    a.wrapping_sub(t.wrapping_mul(Q))
}

/// Compress_d of one canonical coefficient: `round(2^d * x / q) mod 2^d`, computed as
/// `floor((2^(d+1) x + q) / (2q))` with a multiply by `ceil(2^40 / 2q)` and a shift (exact for
/// every `x < q`, `d <= 11`; checked exhaustively in the unit tests).
#[inline(always)]
pub(crate) fn compress_one<const D: u32>(x: i16) -> i16 {
    debug_assert!((0..Q).contains(&x));
    const M: u64 = (1u64 << 40).div_ceil(2 * Q as u64);
    let num = ((x as u64) << (D + 1)) + Q as u64;
    (((num * M) >> 40) as i16) & ((1i16 << D) - 1)
}

/// Decompress_d of one coefficient: `round(q * y / 2^d)` = `(q y + 2^(d-1)) >> d`.
#[inline(always)]
pub(crate) fn decompress_one<const D: u32>(y: i16) -> i16 {
    debug_assert!((0..1i16 << D).contains(&y));
    ((i32::from(y) * i32::from(Q) + (1 << (D - 1))) >> D) as i16
}

/// Keccak-f\[1600\] x4, portable, compiled once (not inlined at every sampler call site).
#[inline(never)]
fn f1600_x4(state: &mut [[u64; 4]; 25]) {
    tessera_keccak::x4::f1600_x4_portable(state)
}

/// The NTT on portable units, compiled once.
#[inline(never)]
fn ntt_poly(p: &mut [i16; 256]) {
    crate::poly::ntt::<P16>(Portable, p)
}

/// The inverse NTT on portable units, compiled once.
#[inline(never)]
fn invntt_poly(p: &mut [i16; 256]) {
    crate::poly::invntt::<P16>(Portable, p)
}

/// 16 coefficients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct P16(pub(crate) [i16; N]);

impl P16 {
    #[inline(always)]
    fn map(self, f: impl Fn(i16) -> i16) -> Self {
        let mut r = self.0;
        for x in r.iter_mut() {
            *x = f(*x);
        }
        P16(r)
    }
    /// Butterflies of distance `len` inside the unit, block `g` (of `2 len` coefficients)
    /// using `zetas[g]`.
    #[inline(always)]
    fn ct_inner(mut self, len: usize, zetas: &[i16]) -> Self {
        for (g, &z) in zetas.iter().enumerate() {
            let start = 2 * len * g;
            for j in start..start + len {
                let t = fqmul(z, self.0[j + len]);
                debug_assert!((i32::from(self.0[j]) + i32::from(Q)).abs() < 1 << 15);
                self.0[j + len] = self.0[j] - t;
                self.0[j] += t;
            }
        }
        self
    }
    #[inline(always)]
    fn gs_inner(mut self, len: usize, zetas: &[i16]) -> Self {
        for (g, &z) in zetas.iter().enumerate() {
            let start = 2 * len * g;
            for j in start..start + len {
                let t = self.0[j];
                self.0[j] = barrett(t + self.0[j + len]);
                self.0[j + len] = fqmul(z, self.0[j + len] - t);
            }
        }
        self
    }
}

/// One base-case product (FIPS 203 Algorithm 12) in Montgomery form:
/// `(a0 + a1 X)(b0 + b1 X) mod (X^2 - gamma)`, times 2^-16.
#[inline(always)]
fn basemul_pair(a: [i16; 2], b: [i16; 2], gamma: i16) -> [i16; 2] {
    let r0 = fqmul(fqmul(a[1], b[1]), gamma) + fqmul(a[0], b[0]);
    let r1 = fqmul(a[0], b[1]) + fqmul(a[1], b[0]);
    [r0, r1]
}

impl Unit for P16 {
    type Token = Portable;

    #[inline(always)]
    fn load(_t: Portable, a: &[i16; N]) -> Self {
        P16(*a)
    }
    #[inline(always)]
    fn store(self, a: &mut [i16; N]) {
        *a = self.0;
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        let mut r = self.0;
        for (x, y) in r.iter_mut().zip(b.0) {
            *x += y;
        }
        P16(r)
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        let mut r = self.0;
        for (x, y) in r.iter_mut().zip(b.0) {
            *x -= y;
        }
        P16(r)
    }
    #[inline(always)]
    fn barrett_reduce(self) -> Self {
        self.map(barrett)
    }
    #[inline(always)]
    fn mont_mul_const(self, c: i16) -> Self {
        self.map(|x| fqmul(x, c))
    }
    #[inline(always)]
    fn to_canonical(self) -> Self {
        self.map(|x| {
            debug_assert!(x > -Q && x < Q);
            x + ((x >> 15) & Q)
        })
    }
    #[inline(always)]
    fn reduce_once(self) -> Self {
        self.map(|x| {
            debug_assert!((0..1 << 12).contains(&x));
            let y = x - Q;
            y + ((y >> 15) & Q)
        })
    }
    #[inline(always)]
    fn ntt_butterfly(a: &mut Self, b: &mut Self, zeta: i16) {
        for (x, y) in a.0.iter_mut().zip(b.0.iter_mut()) {
            let t = fqmul(zeta, *y);
            debug_assert!((i32::from(*x) + i32::from(Q)).abs() < 1 << 15);
            *y = *x - t;
            *x += t;
        }
    }
    #[inline(always)]
    fn ntt_layer_8(self, zeta: i16) -> Self {
        self.ct_inner(8, &[zeta])
    }
    #[inline(always)]
    fn ntt_layer_4(self, zetas: [i16; 2]) -> Self {
        self.ct_inner(4, &zetas)
    }
    #[inline(always)]
    fn ntt_layer_2(self, zetas: [i16; 4]) -> Self {
        self.ct_inner(2, &zetas)
    }
    #[inline(always)]
    fn invntt_butterfly(a: &mut Self, b: &mut Self, zeta: i16) {
        for (x, y) in a.0.iter_mut().zip(b.0.iter_mut()) {
            let t = *x;
            *x = barrett(t + *y);
            *y = fqmul(zeta, *y - t);
        }
    }
    #[inline(always)]
    fn invntt_layer_8(self, zeta: i16) -> Self {
        self.gs_inner(8, &[zeta])
    }
    #[inline(always)]
    fn invntt_layer_4(self, zetas: [i16; 2]) -> Self {
        self.gs_inner(4, &zetas)
    }
    #[inline(always)]
    fn invntt_layer_2(self, zetas: [i16; 4]) -> Self {
        self.gs_inner(2, &zetas)
    }
    #[inline(always)]
    fn basemul(self, b: Self, zetas: [i16; 4]) -> Self {
        let (a, b) = (self.0, b.0);
        let mut r = [0i16; N];
        for (g, &z) in zetas.iter().enumerate() {
            for (h, gamma) in [z, -z].into_iter().enumerate() {
                let i = 4 * g + 2 * h;
                let p = basemul_pair([a[i], a[i + 1]], [b[i], b[i + 1]], gamma);
                r[i] = p[0];
                r[i + 1] = p[1];
            }
        }
        P16(r)
    }
    #[inline(always)]
    fn compress<const D: u32>(self) -> Self {
        self.map(compress_one::<D>)
    }
    #[inline(always)]
    fn decompress<const D: u32>(self) -> Self {
        self.map(decompress_one::<D>)
    }
    #[inline(always)]
    fn encode<const D: u32>(self, out: &mut [u8]) {
        debug_assert_eq!(out.len(), 2 * D as usize);
        let mut acc = 0u32;
        let mut bits = 0u32;
        let mut o = 0;
        for &x in &self.0 {
            debug_assert!((0..1i32 << D).contains(&i32::from(x)));
            acc |= (x as u32) << bits;
            bits += D;
            while bits >= 8 {
                out[o] = acc as u8;
                o += 1;
                acc >>= 8;
                bits -= 8;
            }
        }
    }
    #[inline(always)]
    fn decode<const D: u32>(_t: Portable, bytes: &[u8]) -> Self {
        debug_assert_eq!(bytes.len(), 2 * D as usize);
        let mut r = [0i16; N];
        let mut acc = 0u32;
        let mut bits = 0u32;
        let mut it = bytes.iter();
        for x in r.iter_mut() {
            while bits < D {
                acc |= u32::from(*it.next().unwrap_or(&0)) << bits;
                bits += 8;
            }
            *x = (acc & ((1 << D) - 1)) as i16;
            acc >>= D;
            bits -= D;
        }
        P16(r)
    }
    #[inline(always)]
    fn cbd<const ETA: usize>(_t: Portable, bytes: &[u8]) -> Self {
        debug_assert_eq!(bytes.len(), 4 * ETA);
        let mut w = [0u8; 16];
        w[..4 * ETA].copy_from_slice(bytes);
        let v = u128::from_le_bytes(w);
        let mut r = [0i16; N];
        for (i, x) in r.iter_mut().enumerate() {
            let c = v >> (2 * ETA * i);
            let mut a = 0i16;
            let mut b = 0i16;
            for k in 0..ETA {
                a += ((c >> k) & 1) as i16;
                b += ((c >> (ETA + k)) & 1) as i16;
            }
            *x = a - b;
        }
        P16(r)
    }
    #[inline(always)]
    fn ntt_poly(_t: Portable, p: &mut [i16; 256]) {
        ntt_poly(p)
    }
    #[inline(always)]
    fn invntt_poly(_t: Portable, p: &mut [i16; 256]) {
        invntt_poly(p)
    }
    #[inline(always)]
    fn wipe_coeffs(_t: Portable, p: &mut [i16]) {
        p.zeroize();
    }
    #[inline(always)]
    fn wipe_bytes(_t: Portable, b: &mut [u8]) {
        b.zeroize();
    }
    #[inline(always)]
    fn f1600_x4(_t: Portable, state: &mut [[u64; 4]; 25]) {
        f1600_x4(state)
    }
    #[inline(always)]
    fn rej_sample(_t: Portable, bytes: &[u8], out: &mut [i16; 256], n: &mut usize) {
        for c in bytes.chunks_exact(3) {
            if *n >= 256 {
                return;
            }
            let d1 = u16::from(c[0]) | (u16::from(c[1] & 0x0F) << 8);
            let d2 = u16::from(c[1] >> 4) | (u16::from(c[2]) << 4);
            if d1 < Q as u16 {
                out[*n] = d1 as i16;
                *n += 1;
            }
            if d2 < Q as u16 && *n < 256 {
                out[*n] = d2 as i16;
                *n += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::integer_division_remainder_used)]
    fn compress_matches_the_definition() {
        fn check<const D: u32>() {
            for x in 0..Q {
                // round(2^d x / q) mod 2^d, exactly, in integers.
                let want = ((((x as u32) << (D + 1)) + Q as u32) / (2 * Q as u32)) & ((1 << D) - 1);
                assert_eq!(compress_one::<D>(x) as u32, want, "d={D} x={x}");
            }
            for y in 0..1i16 << D {
                let want = ((y as u32 * Q as u32 * 2 + (1 << D)) / (2 << D)) as i16;
                assert_eq!(decompress_one::<D>(y), want, "d={D} y={y}");
            }
        }
        check::<1>();
        check::<4>();
        check::<5>();
        check::<10>();
        check::<11>();
    }

    #[test]
    #[allow(clippy::integer_division_remainder_used)]
    fn reductions() {
        for a in [i16::MIN, -30000, -Q, -1, 0, 1, Q, Q + 1, 30000, i16::MAX] {
            let r = barrett(a);
            assert!(r.abs() <= (Q - 1) / 2);
            assert_eq!((i32::from(a) - i32::from(r)) % i32::from(Q), 0);
        }
        for (a, b) in [
            (Q - 1, Q - 1),
            (-Q + 1, Q - 1),
            (0, 5),
            (1, 1),
            (3000, -3000),
        ] {
            let r = fqmul(a, b);
            assert!(r.abs() < Q);
            // r * 2^16 == a * b mod q
            let lhs = (i64::from(r) << 16) - i64::from(a) * i64::from(b);
            assert_eq!(lhs % i64::from(Q), 0);
        }
    }
}
