//! The X25519 function of RFC 7748 section 5: scalar clamping and the Montgomery ladder with
//! constant-time conditional swaps, written once over [`Field`] and compiled into each
//! backend's island.
#![forbid(unsafe_code)]

use subtle::Choice;
use zeroize::Zeroize;

use crate::field::{Field, invert};

/// RFC 7748 section 5 `decodeScalar25519`: clear bits 0, 1, 2 and 255, set bit 254.
#[inline(always)]
pub(crate) fn clamp(k: &[u8; 32]) -> [u8; 32] {
    let mut s = *k;
    s[0] &= 248;
    s[31] &= 127;
    s[31] |= 64;
    s
}

/// `X25519(k, u)`: the u-coordinate of `clamp(k) * (u, .)`, encoded (RFC 7748 section 5).
///
/// The ladder runs over bits 254 down to 0 of the clamped scalar; each step swaps the two
/// working points by mask (the swap bit is the XOR of consecutive scalar bits, as the RFC
/// writes it), then does the combined differential addition and doubling
/// (`x_2 = AA BB`, `z_2 = E (BB + 121666 E)`, which equals the RFC's `E (AA + 121665 E)`).
/// The loop bounds and memory addresses never depend on the scalar; the final division is the
/// fixed exponentiation chain of [`invert`] (0 maps to 0, so the all-zero output of a
/// low-order `u` comes out as RFC 7748 describes).
#[inline(always)]
pub(crate) fn x25519<F: Field>(f: F, k: &[u8; 32], u: &[u8; 32]) -> [u8; 32] {
    let mut s = clamp(k);
    let x1 = f.decode(u);
    let mut x2 = f.one();
    let mut z2 = f.zero();
    let mut x3 = x1;
    let mut z3 = f.one();
    let mut swap = 0u8;
    for t in (0..255).rev() {
        let bit = (s[t >> 3] >> (t & 7)) & 1;
        swap ^= bit;
        let c = Choice::from(swap);
        f.cswap(&mut x2, &mut x3, c);
        f.cswap(&mut z2, &mut z3, c);
        swap = bit;

        let a = f.add(&x2, &z2);
        let aa = f.sqr(&a);
        let b = f.sub(&x2, &z2);
        let bb = f.sqr(&b);
        let e = f.sub(&aa, &bb);
        let c = f.add(&x3, &z3);
        let d = f.sub(&x3, &z3);
        let da = f.mul(&d, &a);
        let cb = f.mul(&c, &b);
        x3 = f.sqr(&f.add(&da, &cb));
        z3 = f.mul(&x1, &f.sqr(&f.sub(&da, &cb)));
        x2 = f.mul(&aa, &bb);
        z2 = f.mul(&e, &f.add(&bb, &f.mul_a24(&e)));
    }
    let c = Choice::from(swap);
    f.cswap(&mut x2, &mut x3, c);
    f.cswap(&mut z2, &mut z3, c);
    let mut r = f.mul(&x2, &invert(f, &z2));
    let out = f.encode(&r);
    s.zeroize();
    x2.zeroize();
    z2.zeroize();
    x3.zeroize();
    z3.zeroize();
    r.zeroize();
    out
}
