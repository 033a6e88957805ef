//! Polynomials (`[i32; 256]`, 32 units) and the FIPS 204 operations on them, generic over the
//! backend's [`Unit`]. Everything is `#[inline(always)]` so that it compiles into the calling
//! island.
#![forbid(unsafe_code)]

pub(crate) use crate::unit::ld;
use crate::unit::{N, Q, Unit};

/// A polynomial: 256 coefficients, natural order (NTT-domain polynomials in the bit-reversed
/// order of FIPS 204 section 7.5).
pub(crate) type Poly = [i32; 256];

/// Units per polynomial.
pub(crate) const UNITS: usize = 256 >> 3;
const _: () = assert!(UNITS * N == 256);

/// `2^32 mod q`: Montgomery form of 1.
const MONT: i64 = 4_193_792;

/// `x^e mod q`.
const fn pow_mod(x: i64, mut e: u32) -> i64 {
    let mut r = 1i64;
    let mut b = x;
    while e > 0 {
        if e & 1 == 1 {
            r = modq(r * b);
        }
        b = modq(b * b);
        e >>= 1;
    }
    r
}

/// Compile-time `x mod q` (public constants only).
#[allow(clippy::integer_division_remainder_used)]
const fn modq(x: i64) -> i64 {
    ((x % Q as i64) + Q as i64) % Q as i64
}

/// Centered Montgomery form of `x`: `x * 2^32 mod q` in `(-q/2, q/2]`.
const fn mont_centered(x: i64) -> i32 {
    let m = modq(modq(x) * MONT);
    (if m > (Q as i64 - 1) >> 1 {
        m - Q as i64
    } else {
        m
    }) as i32
}

/// `zetas[i] = 1753^BitRev8(i)` (FIPS 204 Appendix B) in centered Montgomery form.
pub(crate) const ZETAS: [i32; 256] = {
    let mut z = [0i32; 256];
    let mut i = 0;
    while i < 256 {
        let br = (i as u8).reverse_bits();
        z[i] = mont_centered(pow_mod(1753, br as u32));
        i += 1;
    }
    z
};

/// The inverse NTT's final factor: `2^64 / 256 mod q` (256^-1, in Montgomery form, times the
/// extra 2^32 that undoes the 2^-32 of the pointwise products before it).
pub(crate) const INVNTT_F: i32 = {
    let inv256 = pow_mod(256, (Q - 2) as u32);
    mont_centered(modq(inv256 * MONT))
};

#[inline(always)]
pub(crate) fn chunk_mut(p: &mut Poly, u: usize) -> &mut [i32; N] {
    let s: &mut [i32] = &mut p[N * u..N * u + N];
    s.try_into().unwrap_or_else(|_| unreachable!())
}

/// Loads a polynomial into 32 units.
#[inline(always)]
pub(crate) fn load<U: Unit>(t: U::Token, p: &Poly) -> [U; UNITS] {
    core::array::from_fn(|u| ld(t, p, u))
}

/// Stores 32 units.
#[inline(always)]
pub(crate) fn store<U: Unit>(v: &[U; UNITS], p: &mut Poly) {
    for (u, x) in v.iter().enumerate() {
        x.store(chunk_mut(p, u));
    }
}

/// FIPS 204 Algorithm 41 (NTT), without reductions.
/// In: `|a| < q`. Out: `|a| < 9q`, NTT domain, not Montgomery.
#[inline(always)]
pub(crate) fn ntt<U: Unit>(t: U::Token, p: &mut Poly) {
    let mut v: [U; UNITS] = load(t, p);
    // Distances 128..8 coefficients: between units (unit distance d).
    let mut k = 1;
    let mut d = UNITS >> 1;
    while d >= 1 {
        let mut start = 0;
        while start < UNITS {
            let z = ZETAS[k];
            k += 1;
            for j in start..start + d {
                let (lo, hi) = v.split_at_mut(j + d);
                U::ntt_butterfly(&mut lo[j], &mut hi[0], z);
            }
            start += 2 * d;
        }
        d >>= 1;
    }
    for (u, x) in v.iter_mut().enumerate() {
        *x = x
            .ntt_layer_4(ZETAS[32 + u])
            .ntt_layer_2([ZETAS[64 + 2 * u], ZETAS[65 + 2 * u]])
            .ntt_layer_1([
                ZETAS[128 + 4 * u],
                ZETAS[129 + 4 * u],
                ZETAS[130 + 4 * u],
                ZETAS[131 + 4 * u],
            ]);
    }
    store(&v, p);
}

/// FIPS 204 Algorithm 42 (NTT^-1), times 2^32 (it follows pointwise Montgomery products,
/// which carry 2^-32). In: `|a| < q`. Out: `|a| < q`.
#[inline(always)]
pub(crate) fn invntt<U: Unit>(t: U::Token, p: &mut Poly) {
    let mut v: [U; UNITS] = load(t, p);
    for (u, x) in v.iter_mut().enumerate() {
        *x = x
            .invntt_layer_1([
                -ZETAS[255 - 4 * u],
                -ZETAS[254 - 4 * u],
                -ZETAS[253 - 4 * u],
                -ZETAS[252 - 4 * u],
            ])
            .invntt_layer_2([-ZETAS[127 - 2 * u], -ZETAS[126 - 2 * u]])
            .invntt_layer_4(-ZETAS[63 - u]);
    }
    let mut k = 31;
    let mut d = 1;
    while d < UNITS {
        let mut start = 0;
        while start < UNITS {
            let z = -ZETAS[k];
            k -= 1;
            for j in start..start + d {
                let (lo, hi) = v.split_at_mut(j + d);
                U::invntt_butterfly(&mut lo[j], &mut hi[0], z);
            }
            start += 2 * d;
        }
        d <<= 1;
    }
    for x in v.iter_mut() {
        *x = x.mont_mul_const(INVNTT_F);
    }
    store(&v, p);
}

/// `out = sum_j a[j] * b[j] * 2^-32` reduced ([`Unit::dot_unit`]): one row of a
/// matrix-vector product in the NTT domain. In: `0 <= a < q` (A-hat), `|b| < 9q`, at most 8
/// terms. Out: `|r| < q`.
#[inline(always)]
pub(crate) fn dot<U: Unit>(t: U::Token, a: &[Poly], b: &[Poly], out: &mut Poly) {
    for u in 0..UNITS {
        U::dot_unit(t, a, b, u).store(chunk_mut(out, u));
    }
}

/// `out = c * b * 2^-32` pointwise. In: `|c|, |b| < 9q`. Out: `|r| < q`.
#[inline(always)]
pub(crate) fn pointwise<U: Unit>(t: U::Token, c: &Poly, b: &Poly, out: &mut Poly) {
    for u in 0..UNITS {
        ld::<U>(t, c, u)
            .mont_mul(ld(t, b, u))
            .store(chunk_mut(out, u));
    }
}

/// Encodes `p` with `BITS` bits per coefficient after the offset `c - x` when `OFFSET` is
/// given (FIPS 204 BitPack, Algorithm 17; SimpleBitPack, Algorithm 16, without it).
#[inline(always)]
pub(crate) fn pack<U: Unit, const BITS: u32>(
    t: U::Token,
    p: &Poly,
    offset: Option<i32>,
    out: &mut [u8],
) {
    let w = BITS as usize;
    for (u, o) in out.chunks_exact_mut(w).enumerate() {
        let x: U = ld(t, p, u);
        let x = match offset {
            Some(c) => x.rsub_const(c),
            None => x,
        };
        x.encode::<BITS>(o);
    }
}

/// The inverse of [`pack`] (BitUnpack, Algorithm 19 / SimpleBitUnpack, Algorithm 18).
#[inline(always)]
pub(crate) fn unpack<U: Unit, const BITS: u32>(
    t: U::Token,
    bytes: &[u8],
    offset: Option<i32>,
    p: &mut Poly,
) {
    let w = BITS as usize;
    for (u, b) in bytes.chunks_exact(w).enumerate() {
        let x = U::decode::<BITS>(t, b);
        let x = match offset {
            Some(c) => x.rsub_const(c),
            None => x,
        };
        x.store(chunk_mut(p, u));
    }
}

/// Whether some coefficient has `|a| >= bound` (FIPS 204 infinity norm), looking at every
/// coefficient. In: `|a| < 2^31 - 1`.
#[inline(always)]
pub(crate) fn exceeds<U: Unit>(t: U::Token, p: &Poly, bound: i32) -> bool {
    let mut any = false;
    for u in 0..UNITS {
        any |= ld::<U>(t, p, u).exceeds(bound);
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants() {
        // Known values of the reference tables.
        assert_eq!(ZETAS[1], 25847);
        assert_eq!(ZETAS[2], -2_608_894);
        assert_eq!(INVNTT_F, 41978);
    }
}
