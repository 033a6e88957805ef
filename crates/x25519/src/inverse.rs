//! Constant-time inversion modulo p = 2^255 - 19 by Bernstein-Yang divsteps ("Fast
//! constant-time gcd computation and modular inversion", TCHES 2019), in the half-delta form
//! whose 590-step bound for 256-bit inputs was proved by Wuille (the form libsecp256k1 uses):
//! ten batches of 59 divsteps on the low 64 bits of `f` and `g`, each batch's 2x2 transition
//! matrix (scaled by 2^62) then applied to the full-width `f, g` and to the Bezout
//! coefficients `d, e` (divided by 2^62 modulo p by adding a multiple of p).
//!
//! Numbers are five signed 62-bit limbs (`sum v[i] 2^(62 i)`, `i64` each, `i128` products).
//! Every step is arithmetic on masks (no branch, no index depends on the input); the number of
//! steps is fixed. The invariant `f = d x`, `g = e x (mod p)` holds throughout; at the end
//! `g = 0`, `f = +-1`, and `x^-1 = d f`. Input 0 gives 0, as `x^(p-2)` does.
//!
//! [`invert`] applies it to an element of any [`Field`] through its canonical encoding (the
//! ladder's final division, the fixed-base path's `1 / (1 - y)`); the unit tests hold it to the
//! exponentiation chain `invert_fermat`.
#![forbid(unsafe_code)]

use zeroize::Zeroize;

use crate::fe64;
use crate::field::Field;
#[cfg(test)]
use crate::tap;

const M62: u64 = u64::MAX >> 2;

/// p in signed-62 limbs: `(2^62 - 19) + (2^62 - 1)(2^62 + 2^124 + 2^186) + 127 * 2^248`.
const P: [i64; 5] = [
    (1 << 62) - 19,
    (1 << 62) - 1,
    (1 << 62) - 1,
    (1 << 62) - 1,
    127,
];
/// `p^-1 mod 2^62`.
const P_INV62: u64 = 0x3943_5e50_d794_35e5;

const _: () = assert!((P[0] as u64).wrapping_mul(P_INV62) & M62 == 1);

/// The transition matrix of 59 divsteps, scaled by 2^62: `f' 2^62 = u f + v g`,
/// `g' 2^62 = q f + r g`.
#[derive(Clone, Copy)]
struct Trans {
    u: i64,
    v: i64,
    q: i64,
    r: i64,
}

/// 59 divsteps on the low 64 bits of `f` (odd) and `g`; `zeta = -(delta + 1/2)`.
#[inline(always)]
fn divsteps_59(mut zeta: i64, mut f: u64, mut g: u64) -> (i64, Trans) {
    // Start at 2^3 so that 59 doublings end at 2^62.
    let (mut u, mut v, mut q, mut r): (u64, u64, u64, u64) = (8, 0, 0, 8);
    for _ in 3..62 {
        // c1: all ones when zeta < 0 (delta > 0); c2: all ones when g is odd.
        let c1 = (zeta >> 63) as u64;
        let c2 = (g & 1).wrapping_neg();
        // x, y, z: f, u, v negated when zeta < 0.
        let x = (f ^ c1).wrapping_sub(c1);
        let y = (u ^ c1).wrapping_sub(c1);
        let z = (v ^ c1).wrapping_sub(c1);
        // g odd: g += x (g - f when swapping, g + f otherwise), its coefficients likewise.
        g = g.wrapping_add(x & c2);
        q = q.wrapping_add(y & c2);
        r = r.wrapping_add(z & c2);
        // Swap when zeta < 0 and g odd: zeta = -zeta - 2, f = old g; else zeta - 1.
        let c1 = c1 & c2;
        zeta = (zeta ^ c1 as i64).wrapping_sub(1);
        f = f.wrapping_add(g & c1);
        u = u.wrapping_add(q & c1);
        v = v.wrapping_add(r & c1);
        // g is even now: halve it (the other coefficients double instead).
        g >>= 1;
        u <<= 1;
        v <<= 1;
    }
    (
        zeta,
        Trans {
            u: u as i64,
            v: v as i64,
            q: q as i64,
            r: r as i64,
        },
    )
}

/// `(f, g) = (u f + v g, q f + r g) / 2^62` (exact: the low 62 bits of both are zero).
#[inline(always)]
fn update_fg(f: &mut [i64; 5], g: &mut [i64; 5], t: Trans) {
    let (u, v, q, r) = (t.u as i128, t.v as i128, t.q as i128, t.r as i128);
    let mut cf = u * f[0] as i128 + v * g[0] as i128;
    let mut cg = q * f[0] as i128 + r * g[0] as i128;
    debug_assert!(cf as u64 & M62 == 0 && cg as u64 & M62 == 0);
    cf >>= 62;
    cg >>= 62;
    for i in 1..5 {
        cf += u * f[i] as i128 + v * g[i] as i128;
        cg += q * f[i] as i128 + r * g[i] as i128;
        f[i - 1] = (cf as u64 & M62) as i64;
        g[i - 1] = (cg as u64 & M62) as i64;
        cf >>= 62;
        cg >>= 62;
    }
    f[4] = cf as i64;
    g[4] = cg as i64;
}

/// `(d, e) = (u d + v e, q d + r e) / 2^62 mod p`, keeping both in `(-2p, p)`: a negative
/// `d` or `e` is first counted as `+p` (through `md`, `me`), then `md`, `me` are adjusted so
/// that adding `md p`, `me p` clears the low 62 bits.
#[inline(always)]
fn update_de(d: &mut [i64; 5], e: &mut [i64; 5], t: Trans) {
    let (u, v, q, r) = (t.u, t.v, t.q, t.r);
    let sd = d[4] >> 63;
    let se = e[4] >> 63;
    let mut md = (u & sd).wrapping_add(v & se);
    let mut me = (q & sd).wrapping_add(r & se);
    let (ui, vi, qi, ri) = (u as i128, v as i128, q as i128, r as i128);
    let mut cd = ui * d[0] as i128 + vi * e[0] as i128;
    let mut ce = qi * d[0] as i128 + ri * e[0] as i128;
    md = md.wrapping_sub((P_INV62.wrapping_mul(cd as u64).wrapping_add(md as u64) & M62) as i64);
    me = me.wrapping_sub((P_INV62.wrapping_mul(ce as u64).wrapping_add(me as u64) & M62) as i64);
    let (mdi, mei) = (md as i128, me as i128);
    cd += P[0] as i128 * mdi;
    ce += P[0] as i128 * mei;
    debug_assert!(cd as u64 & M62 == 0 && ce as u64 & M62 == 0);
    cd >>= 62;
    ce >>= 62;
    for i in 1..5 {
        cd += ui * d[i] as i128 + vi * e[i] as i128 + P[i] as i128 * mdi;
        ce += qi * d[i] as i128 + ri * e[i] as i128 + P[i] as i128 * mei;
        d[i - 1] = (cd as u64 & M62) as i64;
        e[i - 1] = (ce as u64 & M62) as i64;
        cd >>= 62;
        ce >>= 62;
    }
    d[4] = cd as i64;
    e[4] = ce as i64;
}

/// Carries signed limbs into limbs `0..4` in `[0, 2^62)` (the top limb keeps the sign).
#[inline(always)]
fn carry(a: &mut [i64; 5]) {
    for i in 0..4 {
        a[i + 1] += a[i] >> 62;
        a[i] &= M62 as i64;
    }
}

/// `x^-1 mod p` (0 for 0) of a canonical `x < p` given as four little-endian words; the
/// result is canonical too.
#[cfg(test)]
pub(crate) fn invert_words(x: &[u64; 4]) -> [u64; 4] {
    let mut out = [0; 4];
    invert_words_into(x, &mut out);
    out
}

/// `invert_words` into `out`, which the caller owns and wipes (no by-value copy of the
/// inverse is left in a frame of its own).
#[inline(always)]
pub(crate) fn invert_words_into(x: &[u64; 4], out: &mut [u64; 4]) {
    let mut g = [
        (x[0] & M62) as i64,
        (((x[0] >> 62) | (x[1] << 2)) & M62) as i64,
        (((x[1] >> 60) | (x[2] << 4)) & M62) as i64,
        (((x[2] >> 58) | (x[3] << 6)) & M62) as i64,
        (x[3] >> 56) as i64,
    ];
    let mut f = P;
    let mut d = [0i64; 5];
    let mut e = [1i64, 0, 0, 0, 0];
    let mut zeta = -1i64;
    for _ in 0..10 {
        let (z, t) = divsteps_59(zeta, f[0] as u64, g[0] as u64);
        zeta = z;
        update_de(&mut d, &mut e, t);
        update_fg(&mut f, &mut g, t);
    }
    // f = +-1 (0 mod p only for x = 0, where d = 0): x^-1 = d f. Negate d by f's sign
    // (limb-wise: the representation is linear), lift from (-2p, 2p) to (0, 4p) by adding p
    // twice (carrying in between, so no limb overflows), and fold bits 255 and up (2^255 =
    // 19).
    let s = f[4] >> 63;
    let mut r = [0i64; 5];
    for i in 0..5 {
        r[i] = (d[i] ^ s).wrapping_sub(s);
    }
    for _ in 0..2 {
        carry(&mut r);
        for i in 0..5 {
            r[i] += P[i];
        }
    }
    carry(&mut r);
    let hi = r[4] >> 7;
    r[4] &= 0x7f;
    r[0] += 19 * hi;
    carry(&mut r);
    // Now r < 2^255 + 2^6; one more conditional subtraction of p, by mask.
    let mut w = [
        r[0] as u64 | (r[1] as u64) << 62,
        (r[1] as u64 >> 2) | (r[2] as u64) << 60,
        (r[2] as u64 >> 4) | (r[3] as u64) << 58,
        (r[3] as u64 >> 6) | (r[4] as u64) << 56,
    ];
    *out = fe64::to_words(&w);
    // Every limb array held the secret input, its inverse or a step between them (once per
    // inversion, not per batch; the caller wipes `out`).
    for a in [&mut f, &mut g, &mut d, &mut e, &mut r] {
        a.zeroize();
    }
    w.zeroize();
}

/// `z^-1` (0 for 0): the canonical value of `z` through the constant-time divsteps of
/// [`invert_words_into`], back into this representation.
#[inline(always)]
pub(crate) fn invert<F: Field>(f: F, z: &F::Fe) -> F::Fe {
    let mut b = f.encode(z);
    let mut w: [u64; 4] =
        core::array::from_fn(|i| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap()));
    let mut r = [0u64; 4];
    invert_words_into(&w, &mut r);
    #[cfg(test)]
    if tap::on() {
        tap::record("invert input (canonical)", b.to_vec());
        tap::record("inverse (canonical)", tap::Raw::raw(&r));
    }
    let inv = f.load_words(&r);
    // The canonical copies of the secret input and of its inverse (the caller wipes `inv`).
    b.zeroize();
    w.zeroize();
    r.zeroize();
    inv
}

/// `z^(p-2) = z^(2^255 - 21)`, the inverse of `z` (0 for 0), by the fixed addition chain of
/// 254 squarings and 11 multiplications (the one of curve25519's reference code): the
/// reference the divsteps inversion is tested against.
#[cfg(test)]
#[inline(always)]
pub(crate) fn invert_fermat<F: Field>(f: F, z: &F::Fe) -> F::Fe {
    let mut z2 = f.zero();
    let mut z9 = f.zero();
    let mut z11 = f.zero();
    let mut z_5_0 = f.zero();
    let mut z_10_0 = f.zero();
    let mut z_20_0 = f.zero();
    let mut z_50_0 = f.zero();
    let mut z_100_0 = f.zero();
    let mut t = f.zero();
    f.sqr(&mut z2, z); // 2
    f.sqr_n(&mut t, &z2, 2); // 8
    f.mul(&mut z9, &t, z); // 9
    f.mul(&mut z11, &z9, &z2); // 11
    f.sqr(&mut t, &z11); // 22
    f.mul(&mut z_5_0, &t, &z9); // 2^5 - 1
    f.sqr_n(&mut t, &z_5_0, 5);
    f.mul(&mut z_10_0, &t, &z_5_0); // 2^10 - 1
    f.sqr_n(&mut t, &z_10_0, 10);
    f.mul(&mut z_20_0, &t, &z_10_0); // 2^20 - 1
    f.sqr_n(&mut t, &z_20_0, 20);
    f.mul_assign(&mut t, &z_20_0); // 2^40 - 1
    for _ in 0..10 {
        f.sqr_assign(&mut t);
    }
    f.mul(&mut z_50_0, &t, &z_10_0); // 2^50 - 1
    f.sqr_n(&mut t, &z_50_0, 50);
    f.mul(&mut z_100_0, &t, &z_50_0); // 2^100 - 1
    f.sqr_n(&mut t, &z_100_0, 100);
    f.mul_assign(&mut t, &z_100_0); // 2^200 - 1
    for _ in 0..50 {
        f.sqr_assign(&mut t);
    }
    f.mul_assign(&mut t, &z_50_0); // 2^250 - 1
    for _ in 0..5 {
        f.sqr_assign(&mut t); // 2^255 - 2^5
    }
    f.mul_assign(&mut t, &z11); // 2^255 - 21
    t
}

#[cfg(test)]
mod tests {
    use super::{invert_fermat, invert_words};
    use crate::fe64;
    use crate::field::Field;

    fn mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        fe64::to_words(&fe64::mul(a, b))
    }

    #[test]
    fn inverts_edge_values() {
        let m = u64::MAX;
        let pm1 = [m - 19, m, m, m >> 1];
        let cases = [
            [1, 0, 0, 0],
            [2, 0, 0, 0],
            [19, 0, 0, 0],
            pm1,
            [m - 20, m, m, m >> 1],
            [0, 0, 0, 1 << 62],
            [m, m, m, (m >> 1) - 1],
            [
                0x1234_5678_9abc_def0,
                0x0fed_cba9_8765_4321,
                0xdead_beef,
                0x7000_0000_0000_0001,
            ],
        ];
        for x in cases {
            let inv = invert_words(&x);
            assert_eq!(mul(&x, &inv), [1, 0, 0, 0], "{x:x?}");
        }
        assert_eq!(invert_words(&[0; 4]), [0; 4]);
        assert_eq!(invert_words(&pm1), pm1);
    }

    /// Pseudo-random canonical inputs against the Fermat chain (a few under Miri).
    #[test]
    fn matches_fermat() {
        let f = fe64::Fe64Generic;
        let n = if cfg!(miri) { 2 } else { 2000 };
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..n {
            let w: [u64; 4] = core::array::from_fn(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s ^ (s >> 29)
            });
            let x = fe64::to_words(&w);
            assert_eq!(
                invert_words(&x),
                f.load_words(&fe64::to_words(&invert_fermat(f, &x)))
            );
        }
    }
}
