//! Polynomials (`[i16; 256]`, 16 units) and the FIPS 203 operations on them, generic over the
//! backend's [`Unit`]. Everything is `#[inline(always)]` so that it compiles into the calling
//! island.
#![forbid(unsafe_code)]

use crate::unit::{N, Q, Unit};

/// A polynomial: 256 coefficients, natural order (NTT-domain polynomials in the bit-reversed
/// order of FIPS 203 section 4.3).
pub(crate) type Poly = [i16; 256];

/// `2^16 mod q` as a centered representative: Montgomery form of 1.
const MONT: i64 = 2285;

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

/// Centered Montgomery form of `x`: `x * 2^16 mod q` in `(-q/2, q/2]`.
const fn mont_centered(x: i64) -> i16 {
    let m = modq(x * MONT);
    (if m > (Q as i64 - 1) >> 1 {
        m - Q as i64
    } else {
        m
    }) as i16
}

/// `zetas[i] = 17^BitRev7(i)` (FIPS 203 section 4.3, Appendix A) in centered Montgomery form.
pub(crate) const ZETAS: [i16; 128] = {
    let mut z = [0i16; 128];
    let mut i = 0;
    while i < 128 {
        let br = (i as u8).reverse_bits() >> 1;
        z[i] = mont_centered(pow_mod(17, br as u32));
        i += 1;
    }
    z
};

/// The inverse NTT's final factor: `2^32 / 128 mod q` (Montgomery form of 128^-1, times the
/// extra 2^16 that undoes the 2^-16 of the base-case products before it).
const INVNTT_F: i16 = {
    let inv128 = pow_mod(128, (Q - 2) as u32);
    mont_centered(modq(inv128 * MONT))
};

/// `2^32 mod q`: `mont_mul_const` by it converts to Montgomery form.
const TOMONT: i16 = mont_centered(MONT);

#[inline(always)]
fn chunk(p: &Poly, u: usize) -> &[i16; N] {
    p[N * u..N * u + N].try_into().unwrap_or(&[0; N])
}

#[inline(always)]
fn chunk_mut(p: &mut Poly, u: usize) -> &mut [i16; N] {
    let s: &mut [i16] = &mut p[N * u..N * u + N];
    s.try_into().unwrap_or_else(|_| unreachable!())
}

/// Loads a polynomial into 16 units.
#[inline(always)]
pub(crate) fn load<U: Unit>(t: U::Token, p: &Poly) -> [U; 16] {
    core::array::from_fn(|u| U::load(t, chunk(p, u)))
}

/// Stores 16 units.
#[inline(always)]
pub(crate) fn store<U: Unit>(v: &[U; 16], p: &mut Poly) {
    for (u, x) in v.iter().enumerate() {
        x.store(chunk_mut(p, u));
    }
}

/// FIPS 203 Algorithm 9 (NTT), followed by a Barrett reduction.
/// In: `|a| < q` (CBD output or a decompressed/canonical polynomial).
/// Out: `|a| <= (q-1)/2`, NTT domain, not Montgomery.
#[inline(always)]
pub(crate) fn ntt<U: Unit>(t: U::Token, p: &mut Poly) {
    let mut v: [U; 16] = load(t, p);
    // Distances 128, 64, 32, 16: between units. Layer of distance 16 * d uses zetas
    // 128 / (16 d) + block.
    let mut k = 1;
    let mut d = 8;
    while d >= 1 {
        let mut start = 0;
        while start < 16 {
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
            .ntt_layer_8(ZETAS[16 + u])
            .ntt_layer_4([ZETAS[32 + 2 * u], ZETAS[33 + 2 * u]])
            .ntt_layer_2([
                ZETAS[64 + 4 * u],
                ZETAS[65 + 4 * u],
                ZETAS[66 + 4 * u],
                ZETAS[67 + 4 * u],
            ])
            .barrett_reduce();
    }
    store(&v, p);
}

/// FIPS 203 Algorithm 10 (NTT^-1), times 2^16 (it follows base-case products, which carry
/// 2^-16). In: any `i16` of magnitude `< q` (reduced accumulations). Out: `|a| < q`.
#[inline(always)]
pub(crate) fn invntt<U: Unit>(t: U::Token, p: &mut Poly) {
    let mut v: [U; 16] = load(t, p);
    for (u, x) in v.iter_mut().enumerate() {
        *x = x
            .invntt_layer_2([
                ZETAS[127 - 4 * u],
                ZETAS[126 - 4 * u],
                ZETAS[125 - 4 * u],
                ZETAS[124 - 4 * u],
            ])
            .invntt_layer_4([ZETAS[63 - 2 * u], ZETAS[62 - 2 * u]])
            .invntt_layer_8(ZETAS[31 - u]);
    }
    let mut k = 15;
    let mut d = 1;
    while d <= 8 {
        let mut start = 0;
        while start < 16 {
            let z = ZETAS[k];
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

/// Sum over `j` of the base-case products `a[j] * b[j] * 2^-16` (FIPS 203 Algorithm 11 and the
/// inner products of Algorithms 13-15), Barrett-reduced.
/// In: `|a|, |b| <= q`. Out: `|r| <= (q-1)/2`.
#[inline(always)]
pub(crate) fn basemul_acc<U: Unit, const K: usize>(
    t: U::Token,
    a: &[&Poly; K],
    b: &[Poly; K],
    out: &mut Poly,
) {
    for u in 0..16 {
        let z = [
            ZETAS[64 + 4 * u],
            ZETAS[65 + 4 * u],
            ZETAS[66 + 4 * u],
            ZETAS[67 + 4 * u],
        ];
        let mut acc = U::load(t, chunk(a[0], u)).basemul(U::load(t, chunk(&b[0], u)), z);
        for j in 1..K {
            acc = acc.add(U::load(t, chunk(a[j], u)).basemul(U::load(t, chunk(&b[j], u)), z));
        }
        acc.barrett_reduce().store(chunk_mut(out, u));
    }
}

/// `a = canonical(barrett(a * 2^32 * 2^-16 + e))`: converts a base-case accumulation (which
/// carries 2^-16) back to plain form and adds `e` (FIPS 203 Algorithm 13 line 18). In: `|a| <= (q-1)/2`, `|e| <= (q-1)/2`.
/// Out: canonical `[0, q)`.
#[inline(always)]
pub(crate) fn tomont_add_canonical<U: Unit>(t: U::Token, a: &mut Poly, e: &Poly) {
    for u in 0..16 {
        let x = U::load(t, chunk(a, u)).mont_mul_const(TOMONT);
        x.add(U::load(t, chunk(e, u)))
            .barrett_reduce()
            .to_canonical()
            .store(chunk_mut(a, u));
    }
}

/// `a = canonical(barrett(a + b + c))`. In: `|a| < q`, `|b|, |c| < q`. Out: `[0, q)`.
#[inline(always)]
pub(crate) fn add3_canonical<U: Unit>(t: U::Token, a: &mut Poly, b: &Poly, c: Option<&Poly>) {
    for u in 0..16 {
        let mut x = U::load(t, chunk(a, u))
            .add(U::load(t, chunk(b, u)))
            .barrett_reduce();
        if let Some(c) = c {
            x = x.add(U::load(t, chunk(c, u))).barrett_reduce();
        }
        x.to_canonical().store(chunk_mut(a, u));
    }
}

/// `a = canonical(barrett(b - a))`. In: `|a| < q`, `b` in `[0, q)`. Out: `[0, q)`.
#[inline(always)]
pub(crate) fn rsub_canonical<U: Unit>(t: U::Token, a: &mut Poly, b: &Poly) {
    for u in 0..16 {
        U::load(t, chunk(b, u))
            .sub(U::load(t, chunk(a, u)))
            .barrett_reduce()
            .to_canonical()
            .store(chunk_mut(a, u));
    }
}

/// ByteEncode_D(Compress_D(p)) into `32 * D` bytes (Compress skipped for D = 12).
/// In: canonical `[0, q)`.
#[inline(always)]
pub(crate) fn compress_encode<U: Unit, const D: u32>(t: U::Token, p: &Poly, out: &mut [u8]) {
    let w = 2 * D as usize;
    for (u, o) in out.chunks_exact_mut(w).enumerate() {
        let x = U::load(t, chunk(p, u));
        let x = if D == 12 { x } else { x.compress::<D>() };
        x.encode::<D>(o);
    }
}

/// Decompress_D(ByteDecode_D(bytes)) from `32 * D` bytes (D < 12). Out: `[0, q)`.
#[inline(always)]
pub(crate) fn decode_decompress<U: Unit, const D: u32>(t: U::Token, bytes: &[u8], p: &mut Poly) {
    let w = 2 * D as usize;
    for (u, b) in bytes.chunks_exact(w).enumerate() {
        U::decode::<D>(t, b)
            .decompress::<D>()
            .store(chunk_mut(p, u));
    }
}

/// ByteDecode_12 (Algorithm 6) of 384 bytes with its mod-q step. Out: `[0, q)`.
#[inline(always)]
pub(crate) fn decode12_reduce<U: Unit>(t: U::Token, bytes: &[u8], p: &mut Poly) {
    for (u, b) in bytes.chunks_exact(24).enumerate() {
        U::decode::<12>(t, b).reduce_once().store(chunk_mut(p, u));
    }
}

/// ByteDecode_12 of 384 bytes of an encapsulation key with the FIPS 203 section 7.2 modulus
/// check: returns false when a coefficient is `>= q` (public data: may branch).
#[inline(always)]
pub(crate) fn decode12_checked<U: Unit>(t: U::Token, bytes: &[u8], p: &mut Poly) -> bool {
    for (u, b) in bytes.chunks_exact(24).enumerate() {
        U::decode::<12>(t, b).store(chunk_mut(p, u));
    }
    p.iter().all(|&x| x < Q)
}

/// SamplePolyCBD_ETA (Algorithm 8) of `64 * ETA` PRF bytes. Out: `[-ETA, ETA]`.
#[inline(always)]
pub(crate) fn cbd<U: Unit, const ETA: usize>(t: U::Token, bytes: &[u8], p: &mut Poly) {
    for (u, b) in bytes.chunks_exact(4 * ETA).enumerate() {
        U::cbd::<ETA>(t, b).store(chunk_mut(p, u));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants() {
        // Known values of the reference tables.
        assert_eq!(ZETAS[0], -1044);
        assert_eq!(ZETAS[1], -758);
        assert_eq!(ZETAS[127], 1628);
        assert_eq!(INVNTT_F, 1441);
        assert_eq!(TOMONT, 1353);
    }
}
