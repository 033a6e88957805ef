//! The portable unit: 8 x i32 in an array, i64 intermediates, no secret-dependent branch,
//! index or division (shifts and multiplications only).
#![forbid(unsafe_code)]

use tessera_cpu::Portable;

pub(crate) use crate::unit::gamma2;
use crate::unit::{N, Q, Unit};

/// q^-1 mod 2^32, as i32.
const QINV: i32 = 58_728_449;

/// Montgomery reduction: `a * 2^-32 mod q`. In: `|a| < q * 2^31`. Out: `|r| < q`.
#[inline(always)]
pub(crate) fn mont_reduce(a: i64) -> i32 {
    debug_assert!(a.unsigned_abs() < (Q as u64) << 31);
    let t = (a as i32).wrapping_mul(QINV);
    ((a - i64::from(t) * i64::from(Q)) >> 32) as i32
}

/// Montgomery product `a * b * 2^-32 mod q`. In: `|a * b| < q * 2^31`. Out: `|r| < q`.
#[inline(always)]
pub(crate) fn fqmul(a: i32, b: i32) -> i32 {
    mont_reduce(i64::from(a) * i64::from(b))
}

/// `a - round(a / 2^23) q`. In: `a <= 2^31 - 2^22 - 1`. Out: `[-6283009, 6283008]`.
#[inline(always)]
pub(crate) fn reduce32(a: i32) -> i32 {
    debug_assert!(a <= i32::MAX - (1 << 22));
    let t = (a + (1 << 22)) >> 23;
    a - t * Q
}

/// `(-q, q)` to `[0, q)`.
#[inline(always)]
pub(crate) fn caddq(a: i32) -> i32 {
    debug_assert!(a > -Q && a < Q);
    a + ((a >> 31) & Q)
}

/// Decompose (FIPS 204 Algorithm 36) of one canonical coefficient. `r1 = ceil(r / 128)`
/// scaled by a multiply-shift approximation of `1 / (2 gamma2 / 128)` (4092 for G2 = 32, 1488
/// for G2 = 88), exact over `[0, q)` (checked exhaustively in the unit tests); the top value
/// `(q-1)/(2 gamma2)` wraps to 0, where `r0` becomes `r - q` (the `r0 - 1` case of the spec).
#[inline(always)]
pub(crate) fn decompose_one<const G2: i32>(a: i32) -> (i32, i32) {
    debug_assert!((0..Q).contains(&a));
    let g2 = gamma2::<G2>();
    let mut a1 = (a + 127) >> 7;
    if G2 == 32 {
        a1 = (a1 * 1025 + (1 << 21)) >> 22;
        a1 &= 15;
    } else {
        a1 = (a1 * 11275 + (1 << 23)) >> 24;
        a1 ^= ((43 - a1) >> 31) & a1;
    }
    let mut a0 = a - a1 * 2 * g2;
    a0 -= ((((Q - 1) >> 1) - a0) >> 31) & Q;
    (a1, a0)
}

/// UseHint (FIPS 204 Algorithm 40) of one coefficient, branch-free.
#[inline(always)]
pub(crate) fn use_hint_one<const G2: i32>(a: i32, h: i32) -> i32 {
    debug_assert!(h == 0 || h == 1);
    let m = if G2 == 32 { 16 } else { 44 };
    let (r1, r0) = decompose_one::<G2>(a);
    // +1 when r0 > 0, -1 otherwise, only where the hint is set.
    let pos = ((-r0) >> 31) & 1;
    let mut x = r1 + h * (2 * pos - 1);
    x += (x >> 31) & m;
    x -= ((m - 1 - x) >> 31) & m;
    x
}

/// The NTT on portable units, compiled once.
#[inline(never)]
fn ntt_poly(p: &mut [i32; 256]) {
    crate::poly::ntt::<P8>(tessera_cpu::Portable, p)
}

/// The inverse NTT on portable units, compiled once.
#[inline(never)]
fn invntt_poly(p: &mut [i32; 256]) {
    crate::poly::invntt::<P8>(tessera_cpu::Portable, p)
}

/// 8 coefficients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct P8(pub(crate) [i32; N]);

impl P8 {
    #[inline(always)]
    fn map(self, f: impl Fn(i32) -> i32) -> Self {
        let mut r = self.0;
        for x in r.iter_mut() {
            *x = f(*x);
        }
        P8(r)
    }
    #[inline(always)]
    fn zip(self, b: Self, f: impl Fn(i32, i32) -> i32) -> Self {
        let mut r = self.0;
        for (x, y) in r.iter_mut().zip(b.0) {
            *x = f(*x, y);
        }
        P8(r)
    }
    /// Cooley-Tukey butterflies of distance `len` inside the unit, block `g` using `zetas[g]`.
    #[inline(always)]
    fn ct_inner(mut self, len: usize, zetas: &[i32]) -> Self {
        for (g, &z) in zetas.iter().enumerate() {
            let start = 2 * len * g;
            for j in start..start + len {
                let t = fqmul(z, self.0[j + len]);
                self.0[j + len] = self.0[j] - t;
                self.0[j] += t;
            }
        }
        self
    }
    /// Gentleman-Sande butterflies of distance `len` inside the unit.
    #[inline(always)]
    fn gs_inner(mut self, len: usize, zetas: &[i32]) -> Self {
        for (g, &z) in zetas.iter().enumerate() {
            let start = 2 * len * g;
            for j in start..start + len {
                let t = self.0[j];
                self.0[j] = t + self.0[j + len];
                self.0[j + len] = fqmul(z, t - self.0[j + len]);
            }
        }
        self
    }
}

impl Unit for P8 {
    type Token = Portable;
    const FOUR_WAY: bool = false;

    #[inline(always)]
    fn hashes(_t: Portable) -> crate::hash::Hashes {
        crate::hash::Hashes {
            x1: tessera_keccak::X1Backend::Portable,
            x4: None,
        }
    }

    #[inline(always)]
    fn load(_t: Portable, a: &[i32; N]) -> Self {
        P8(*a)
    }
    #[inline(always)]
    fn store(self, a: &mut [i32; N]) {
        *a = self.0;
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        self.zip(b, |x, y| x + y)
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        self.zip(b, |x, y| x - y)
    }
    #[inline(always)]
    fn rsub_const(self, c: i32) -> Self {
        self.map(|x| c - x)
    }
    #[inline(always)]
    fn shl(self, s: u32) -> Self {
        self.map(|x| {
            debug_assert!(x.unsigned_abs() < 1 << (31 - s));
            x << s
        })
    }
    #[inline(always)]
    fn split_low(self, s: u32) -> (Self, Self) {
        debug_assert!((1..=16).contains(&s));
        let lo = self.map(|x| {
            debug_assert!(x.unsigned_abs() < 1 << 30);
            ((x as u32) << (32 - s)) as i32 >> (32 - s)
        });
        (lo, self.zip(lo, |x, l| (x - l) >> s))
    }
    #[inline(always)]
    fn mont_mul(self, b: Self) -> Self {
        self.zip(b, fqmul)
    }
    #[inline(always)]
    fn mont_mul_const(self, c: i32) -> Self {
        self.map(|x| fqmul(x, c))
    }
    /// The exact sum of the products, one Montgomery reduction per coefficient: at most
    /// `8 * q * 9q < q * 2^31` (within `mont_reduce`'s bound), so `|r| <= 72 q^2 / 2^32 + q / 2
    /// < q`.
    #[inline(always)]
    fn dot_unit(_t: Portable, a: &[[i32; 256]], b: &[[i32; 256]], u: usize) -> Self {
        let mut acc = [0i64; N];
        for (x, y) in a.iter().zip(b) {
            for (i, s) in acc.iter_mut().enumerate() {
                *s += i64::from(x[N * u + i]) * i64::from(y[N * u + i]);
            }
        }
        P8(acc.map(mont_reduce))
    }
    #[inline(always)]
    fn reduce32(self) -> Self {
        self.map(reduce32)
    }
    #[inline(always)]
    fn caddq(self) -> Self {
        self.map(caddq)
    }
    #[inline(always)]
    fn centered(self) -> Self {
        self.map(|x| {
            let x = caddq(x);
            x - (((((Q - 1) >> 1) - x) >> 31) & Q)
        })
    }
    #[inline(always)]
    fn ntt_butterfly(a: &mut Self, b: &mut Self, zeta: i32) {
        for (x, y) in a.0.iter_mut().zip(b.0.iter_mut()) {
            let t = fqmul(zeta, *y);
            *y = *x - t;
            *x += t;
        }
    }
    #[inline(always)]
    fn ntt_layer_4(self, zeta: i32) -> Self {
        self.ct_inner(4, &[zeta])
    }
    #[inline(always)]
    fn ntt_layer_2(self, zetas: [i32; 2]) -> Self {
        self.ct_inner(2, &zetas)
    }
    #[inline(always)]
    fn ntt_layer_1(self, zetas: [i32; 4]) -> Self {
        self.ct_inner(1, &zetas)
    }
    #[inline(always)]
    fn invntt_butterfly(a: &mut Self, b: &mut Self, zeta: i32) {
        for (x, y) in a.0.iter_mut().zip(b.0.iter_mut()) {
            let t = *x;
            *x = t + *y;
            *y = fqmul(zeta, t - *y);
        }
    }
    #[inline(always)]
    fn invntt_layer_1(self, zetas: [i32; 4]) -> Self {
        self.gs_inner(1, &zetas)
    }
    #[inline(always)]
    fn invntt_layer_2(self, zetas: [i32; 2]) -> Self {
        self.gs_inner(2, &zetas)
    }
    #[inline(always)]
    fn invntt_layer_4(self, zeta: i32) -> Self {
        self.gs_inner(4, &[zeta])
    }
    #[inline(always)]
    fn power2round(self) -> (Self, Self) {
        let r1 = self.map(|a| {
            debug_assert!((0..Q).contains(&a));
            (a + (1 << 12) - 1) >> 13
        });
        let r0 = self.zip(r1, |a, h| a - (h << 13));
        (r1, r0)
    }
    #[inline(always)]
    fn decompose<const G2: i32>(self) -> (Self, Self) {
        let mut r1 = [0; N];
        let mut r0 = [0; N];
        for i in 0..N {
            (r1[i], r0[i]) = decompose_one::<G2>(self.0[i]);
        }
        (P8(r1), P8(r0))
    }
    #[inline(always)]
    fn use_hint<const G2: i32>(self, h: Self) -> Self {
        self.zip(h, use_hint_one::<G2>)
    }
    #[inline(always)]
    fn ne_mask01(self, b: Self) -> Self {
        // (x | -x) >> 31 is -1 exactly when x != 0.
        self.zip(b, |x, y| {
            let d = x ^ y;
            ((d | d.wrapping_neg()) >> 31) & 1
        })
    }
    #[inline(always)]
    fn exceeds(self, bound: i32) -> bool {
        let mut flag = 0i32;
        for &x in &self.0 {
            debug_assert!(x != i32::MIN);
            let s = x >> 31;
            let abs = (x ^ s) - s;
            flag |= (bound - 1) - abs;
        }
        flag < 0
    }
    #[inline(always)]
    fn sum(self) -> i32 {
        self.0.iter().sum()
    }
    #[inline(always)]
    fn encode<const BITS: u32>(self, out: &mut [u8]) {
        debug_assert_eq!(out.len(), BITS as usize);
        let mut acc = 0u64;
        let mut bits = 0u32;
        let mut o = 0;
        for &x in &self.0 {
            debug_assert!((0..1i64 << BITS).contains(&i64::from(x)));
            acc |= u64::from(x as u32) << bits;
            bits += BITS;
            while bits >= 8 {
                out[o] = acc as u8;
                o += 1;
                acc >>= 8;
                bits -= 8;
            }
        }
    }
    #[inline(always)]
    fn decode<const BITS: u32>(_t: Portable, bytes: &[u8]) -> Self {
        debug_assert_eq!(bytes.len(), BITS as usize);
        let mut r = [0i32; N];
        let mut acc = 0u64;
        let mut bits = 0u32;
        let mut it = bytes.iter();
        for x in r.iter_mut() {
            while bits < BITS {
                acc |= u64::from(*it.next().unwrap_or(&0)) << bits;
                bits += 8;
            }
            *x = (acc & ((1 << BITS) - 1)) as i32;
            acc >>= BITS;
            bits -= BITS;
        }
        P8(r)
    }
    #[inline(always)]
    fn rej_uniform(_t: Portable, bytes: &[u8], out: &mut [i32; 256], n: &mut usize) {
        for c in bytes.chunks_exact(3) {
            if *n >= 256 {
                return;
            }
            let v = i32::from(c[0]) | (i32::from(c[1]) << 8) | (i32::from(c[2] & 0x7F) << 16);
            if v < Q {
                out[*n] = v;
                *n += 1;
            }
        }
    }
    #[inline(always)]
    fn rej_eta<const ETA: i32>(_t: Portable, bytes: &[u8], out: &mut [i32; 256], n: &mut usize) {
        // Half-bytes `>= BOUND` are rejected (15 for eta 2, 9 for eta 4).
        let bound: u64 = if ETA == 2 { 15 } else { 9 };
        for chunk in bytes.chunks(32) {
            if *n >= 256 {
                return;
            }
            // The accept pattern of up to 64 half-bytes (bit 2i: low half of byte i, bit
            // 2i + 1: high half), computed without a branch. Which half-bytes are rejected is
            // independent of the accepted values, so it is released as public (the valgrind
            // check's hook, see `crate::dsa::public`) and the loop below branches on it only.
            let mut accept = 0u64;
            for (i, &b) in chunk.iter().enumerate() {
                let lo = u64::from(b & 15).wrapping_sub(bound) >> 63;
                let hi = u64::from(b >> 4).wrapping_sub(bound) >> 63;
                accept |= (lo << (2 * i)) | (hi << (2 * i + 1));
            }
            let accept = crate::dsa::public_u64(accept);
            // Every half-byte is written at `out[*n]` and `*n` advances by its accept bit (no
            // branch to mispredict): a rejected one is overwritten by the next.
            for (i, &b) in chunk.iter().enumerate() {
                for (k, z) in [(2 * i, b & 15), (2 * i + 1, b >> 4)] {
                    if *n >= 256 {
                        return;
                    }
                    let z = i32::from(z);
                    out[*n] = if ETA == 2 {
                        // z mod 5 as z - 5 floor(z * 205 / 1024), exact for z < 15.
                        2 - (z - 5 * ((z * 205) >> 10))
                    } else {
                        4 - z
                    };
                    *n += ((accept >> k) & 1) as usize;
                }
            }
        }
        // The slot past the last accepted one may hold a rejected half-byte's value.
        if let Some(x) = out.get_mut(*n) {
            *x = 0;
        }
    }
    #[inline(always)]
    fn ntt_poly(_t: Portable, p: &mut [i32; 256]) {
        ntt_poly(p)
    }
    #[inline(always)]
    fn invntt_poly(_t: Portable, p: &mut [i32; 256]) {
        invntt_poly(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decompose and UseHint against FIPS 204 Algorithms 36 and 40 written with division, over
    /// every canonical input (too slow for Miri).
    #[test]
    #[cfg_attr(miri, ignore)]
    #[allow(clippy::integer_division_remainder_used)]
    fn decompose_matches_the_definition() {
        fn check<const G2: i32>() {
            let g2 = (Q - 1) / G2;
            let m = (Q - 1) / (2 * g2);
            for r in 0..Q {
                let mut r0 = r % (2 * g2);
                if r0 > g2 {
                    r0 -= 2 * g2;
                }
                let (r1, r0) = if r - r0 == Q - 1 {
                    (0, r0 - 1)
                } else {
                    ((r - r0) / (2 * g2), r0)
                };
                assert_eq!(decompose_one::<G2>(r), (r1, r0), "G2={G2} r={r}");
                let up = if r0 > 0 {
                    (r1 + 1) % m
                } else {
                    (r1 - 1 + m) % m
                };
                assert_eq!(use_hint_one::<G2>(r, 1), up, "G2={G2} r={r}");
                assert_eq!(use_hint_one::<G2>(r, 0), r1, "G2={G2} r={r}");
            }
        }
        check::<88>();
        check::<32>();
    }

    #[test]
    #[allow(clippy::integer_division_remainder_used)]
    fn reductions() {
        for a in [
            i32::MIN + 1,
            -(1 << 30),
            -Q,
            -1,
            0,
            1,
            Q,
            Q + 1,
            1 << 30,
            i32::MAX - (1 << 22),
        ] {
            let r = reduce32(a);
            assert!((-6_283_009..=6_283_008).contains(&r));
            assert_eq!((i64::from(a) - i64::from(r)) % i64::from(Q), 0);
        }
        for (a, b) in [
            (Q - 1, Q - 1),
            (-Q + 1, Q - 1),
            (0, 5),
            (1, 1),
            (9 * Q, -9 * Q),
        ] {
            let r = fqmul(a, b);
            assert!(r.abs() < Q);
            let lhs = (i128::from(r) << 32) - i128::from(a) * i128::from(b);
            assert_eq!(lhs % i128::from(Q), 0);
        }
    }
}
