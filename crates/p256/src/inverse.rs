//! Constant-time inversion modulo an odd `m < 2^256` by Bernstein-Yang divsteps ("Fast
//! constant-time gcd computation and modular inversion", TCHES 2019), in the half-delta form
//! of libsecp256k1 (its `doc/safegcd_implementation.md`): ten batches of 59 divsteps on the
//! low 64 bits of `f` and `g`, each batch's 2x2 transition matrix (scaled by 2^62) then applied
//! to the full-width `f, g` and to the Bezout coefficients `d, e` (divided by 2^62 modulo `m`
//! by adding a multiple of `m`).
//!
//! Step count: for an odd modulus `f = m < 2^256` and any input `0 <= g < m`, 590 half-delta
//! divsteps bring `g` to 0 (Wuille's bound, `sipa/safegcd-bounds`: 590 for inputs of 256
//! bits), so ten batches of 59 are enough for both instances here, the field prime [`P`] and
//! the group order [`N`].
//!
//! Numbers are five signed 62-bit limbs (`sum v[i] 2^(62 i)`, `i64` each, `i128` products).
//! Every step is arithmetic on masks (no branch, no index depends on the input); the number of
//! steps is fixed. The invariant `f = d x`, `g = e x (mod m)` holds throughout, with `d, e` in
//! `(-2m, m)`; at the end `g = 0`, `f = +-1`, and `x^-1 = d f`. Input 0 gives 0 (as
//! `x^(m-2)` does).
//!
//! The modulus constants (the signed-62 limbs and `m^-1 mod 2^62`) are computed from
//! [`crate::fe`]'s moduli at compile time and checked by `const` assertions.
#![forbid(unsafe_code)]

use zeroize::Zeroize;

use crate::fe::{self, Limbs};

const M62: u64 = u64::MAX >> 2;

/// An odd modulus below `2^256` in the form the divsteps use.
pub(crate) struct Modulus62 {
    /// `m` in five 62-bit limbs (each in `[0, 2^62)`, the top one below `2^8`).
    m: [i64; 5],
    /// `m^-1 mod 2^62`.
    inv62: u64,
}

/// Four little-endian words as five 62-bit limbs.
#[inline(always)]
const fn to_62(x: &Limbs) -> [i64; 5] {
    [
        (x[0] & M62) as i64,
        (((x[0] >> 62) | (x[1] << 2)) & M62) as i64,
        (((x[1] >> 60) | (x[2] << 4)) & M62) as i64,
        (((x[2] >> 58) | (x[3] << 6)) & M62) as i64,
        (x[3] >> 56) as i64,
    ]
}

/// Five limbs in `[0, 2^62)` (the top one below `2^8`) as four little-endian words.
#[inline(always)]
const fn from_62(r: &[i64; 5]) -> Limbs {
    [
        r[0] as u64 | (r[1] as u64) << 62,
        (r[1] as u64 >> 2) | (r[2] as u64) << 60,
        (r[2] as u64 >> 4) | (r[3] as u64) << 58,
        (r[3] as u64 >> 6) | (r[4] as u64) << 56,
    ]
}

/// The divsteps constants of an odd `m`: its limbs, and `m^-1 mod 2^62` by Newton's iteration
/// (`x = m` is right to 3 bits for odd `m`; each step doubles that: 3, 6, ..., 96).
const fn modulus62(m: &Limbs) -> Modulus62 {
    assert!(m[0] & 1 == 1);
    let mut x = m[0];
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u64.wrapping_sub(m[0].wrapping_mul(x)));
        i += 1;
    }
    let inv62 = x & M62;
    assert!(m[0].wrapping_mul(inv62) & M62 == 1);
    let l = to_62(m);
    let back = from_62(&l);
    assert!(back[0] == m[0] && back[1] == m[1] && back[2] == m[2] && back[3] == m[3]);
    assert!(l[4] < 1 << 8);
    Modulus62 { m: l, inv62 }
}

/// The field prime `p`.
pub(crate) const P: Modulus62 = modulus62(&fe::P.m);
/// The group order `n`.
pub(crate) const N: Modulus62 = modulus62(&fe::N.m);

// The constants against the Montgomery ones of `fe` (`m0 = -m^-1 mod 2^64`).
const _: () = {
    assert!(fe::P.m0.wrapping_neg() & M62 == P.inv62);
    assert!(fe::N.m0.wrapping_neg() & M62 == N.inv62);
};

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

/// `(d, e) = (u d + v e, q d + r e) / 2^62 mod m`, keeping both in `(-2m, m)`: a negative
/// `d` or `e` is first counted as `+m` (through `md`, `me`), then `md`, `me` are adjusted so
/// that adding `md m`, `me m` clears the low 62 bits.
#[inline(always)]
fn update_de(md_: &Modulus62, d: &mut [i64; 5], e: &mut [i64; 5], t: Trans) {
    let m = &md_.m;
    let (u, v, q, r) = (t.u, t.v, t.q, t.r);
    let sd = core::hint::black_box(d[4] >> 63);
    let se = core::hint::black_box(e[4] >> 63);
    let mut md = (u & sd).wrapping_add(v & se);
    let mut me = (q & sd).wrapping_add(r & se);
    let (ui, vi, qi, ri) = (u as i128, v as i128, q as i128, r as i128);
    let mut cd = ui * d[0] as i128 + vi * e[0] as i128;
    let mut ce = qi * d[0] as i128 + ri * e[0] as i128;
    md = md.wrapping_sub((md_.inv62.wrapping_mul(cd as u64).wrapping_add(md as u64) & M62) as i64);
    me = me.wrapping_sub((md_.inv62.wrapping_mul(ce as u64).wrapping_add(me as u64) & M62) as i64);
    let (mdi, mei) = (md as i128, me as i128);
    cd += m[0] as i128 * mdi;
    ce += m[0] as i128 * mei;
    debug_assert!(cd as u64 & M62 == 0 && ce as u64 & M62 == 0);
    cd >>= 62;
    ce >>= 62;
    for i in 1..5 {
        cd += ui * d[i] as i128 + vi * e[i] as i128 + m[i] as i128 * mdi;
        ce += qi * d[i] as i128 + ri * e[i] as i128 + m[i] as i128 * mei;
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

/// `a += m` when `a` (carried) is negative, by mask; carried again after.
#[inline(always)]
fn add_m_if_negative(md: &Modulus62, a: &mut [i64; 5]) {
    // The sign mask through `black_box`: LLVM turned `x += m & s` into a jump on the sign
    // (valgrind saw it on the inversion of ECDSA's `k`).
    let s = core::hint::black_box(a[4] >> 63);
    for (x, m) in a.iter_mut().zip(md.m) {
        *x += m & s;
    }
    carry(a);
}

/// `x^-1 mod m` (0 for 0) of a canonical `x < m` (four little-endian words) into `out`, which
/// the caller owns and wipes; the result is canonical.
#[inline(always)]
pub(crate) fn invert_into(md: &Modulus62, x: &Limbs, out: &mut Limbs) {
    let mut g = to_62(x);
    let mut f = md.m;
    let mut d = [0i64; 5];
    let mut e = [1i64, 0, 0, 0, 0];
    let mut zeta = -1i64;
    for _ in 0..10 {
        let (z, t) = divsteps_59(zeta, f[0] as u64, g[0] as u64);
        zeta = z;
        update_de(md, &mut d, &mut e, t);
        update_fg(&mut f, &mut g, t);
    }
    // f = +-1 (0 mod m only for x = 0, where d = 0): x^-1 = d f, d in (-2m, m). Lift d to
    // (-m, m), negate it by f's sign (limb-wise: the representation is linear), lift to
    // [0, m) (the normalization of libsecp256k1's `modinv64`).
    let mut r = d;
    carry(&mut r);
    add_m_if_negative(md, &mut r);
    let s = core::hint::black_box(f[4] >> 63);
    for x in r.iter_mut() {
        *x = (*x ^ s).wrapping_sub(s);
    }
    carry(&mut r);
    add_m_if_negative(md, &mut r);
    *out = from_62(&r);
    // Every limb array held the secret input, its inverse or a step between them (once per
    // inversion, not per batch; the caller wipes `out`).
    for a in [&mut f, &mut g, &mut d, &mut e, &mut r] {
        a.zeroize();
    }
}

/// `x^-1 mod m` (0 for 0) of a canonical `x < m`, by value (the tests).
#[cfg(test)]
pub(crate) fn invert(md: &Modulus62, x: &Limbs) -> Limbs {
    let mut out = [0; 4];
    invert_into(md, x, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::{N, P, invert};
    use crate::fe::{self, Limbs, Modulus};
    use crate::field;
    use crate::scalar::Scalar;
    use proptest::prelude::*;
    use tessera_cpu::Portable;

    /// `a b mod m` of canonical integers.
    fn mul(a: &Limbs, b: &Limbs, m: &Modulus) -> Limbs {
        fe::mont_mul(&fe::mont_mul(a, b, m), &m.r2, m)
    }

    /// Fermat for `p`: the field's addition chain on the Montgomery form.
    fn fermat_p(x: &Limbs) -> Limbs {
        let a = fe::to_mont(x, &fe::P);
        fe::from_mont(&field::invert_fermat(Portable, &a), &fe::P)
    }

    /// Fermat for `n`: the scalar's fixed-window chain.
    fn fermat_n(x: &Limbs) -> Limbs {
        Scalar(*x).invert_fermat().0
    }

    fn sub1(m: &Limbs) -> Limbs {
        [m[0] - 1, m[1], m[2], m[3]]
    }

    fn edge_values(m: &Limbs) -> [Limbs; 10] {
        let ones = u64::MAX;
        [
            [0; 4],
            [1, 0, 0, 0],
            [2, 0, 0, 0],
            [3, 0, 0, 0],
            sub1(m),
            [m[0] - 2, m[1], m[2], m[3]],
            [0, 0, 0, 1 << 63],
            // All-ones limbs reduced below m (2^256 - 1 - m), and the all-ones low words.
            [!m[0], !m[1], !m[2], !m[3]],
            [ones, ones, ones, 0],
            [
                0x1234_5678_9abc_def0,
                0x0fed_cba9_8765_4321,
                0xdead_beef,
                0x7000_0000_0000_0001,
            ],
        ]
    }

    #[test]
    fn inverts_edge_values() {
        for (md, m, fermat) in [
            (&P, &fe::P, fermat_p as fn(&Limbs) -> Limbs),
            (&N, &fe::N, fermat_n),
        ] {
            for x in edge_values(&m.m) {
                assert_eq!(fe::lt(&x, &m.m), 1);
                let inv = invert(md, &x);
                assert_eq!(inv, fermat(&x), "{x:x?}");
                assert_eq!(fe::lt(&inv, &m.m), 1);
                if x != [0; 4] {
                    assert_eq!(mul(&x, &inv, m), [1, 0, 0, 0], "{x:x?}");
                }
            }
            assert_eq!(invert(md, &[0; 4]), [0; 4]);
            assert_eq!(invert(md, &sub1(&m.m)), sub1(&m.m));
            assert_eq!(invert(md, &[1, 0, 0, 0]), [1, 0, 0, 0]);
        }
    }

    /// Pseudo-random canonical inputs against Fermat for both moduli (a few under Miri).
    #[test]
    fn matches_fermat() {
        let n = if cfg!(miri) { 2 } else { 500 };
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..n {
            let w: Limbs = core::array::from_fn(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s ^ (s >> 29)
            });
            let xp = fe::sub_if_ge(&w, 0, &fe::P.m);
            assert_eq!(invert(&P, &xp), fermat_p(&xp), "{xp:x?}");
            let xn = fe::sub_if_ge(&w, 0, &fe::N.m);
            assert_eq!(invert(&N, &xn), fermat_n(&xn), "{xn:x?}");
        }
    }

    /// The field inversion of Montgomery elements (divsteps then `R^3`) against Fermat.
    #[test]
    fn field_invert_matches_fermat() {
        let f = Portable;
        for x in edge_values(&fe::P.m) {
            let a = fe::to_mont(&x, &fe::P);
            assert_eq!(field::invert(f, &a), field::invert_fermat(f, &a), "{x:x?}");
            // Montgomery limbs at the edges too (any value below p is some a R).
            assert_eq!(field::invert(f, &x), field::invert_fermat(f, &x), "{x:x?}");
        }
    }

    // Not under Miri: proptest's failure persistence needs the file system (`getcwd`), which
    // Miri's isolation refuses; `matches_fermat` covers the inversion there.
    #[cfg(not(miri))]
    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn proptest_matches_fermat(w in any::<[u64; 4]>()) {
            let xp = fe::sub_if_ge(&w, 0, &fe::P.m);
            prop_assert_eq!(invert(&P, &xp), fermat_p(&xp));
            let a = fe::to_mont(&xp, &fe::P);
            prop_assert_eq!(field::invert(Portable, &a), field::invert_fermat(Portable, &a));
            let xn = fe::sub_if_ge(&w, 0, &fe::N.m);
            prop_assert_eq!(invert(&N, &xn), fermat_n(&xn));
            prop_assert_eq!(Scalar(xn).invert().0, fermat_n(&xn));
        }
    }
}
