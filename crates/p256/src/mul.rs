//! The scalar multiplications, generic over a backend's [`Field`]:
//!
//! - variable base (ECDH): signed radix-32 digits (Booth recoding of [`Scalar::booth`]), a
//!   table of `1..=16` times the point, 255 doublings and 52 additions, every table entry read
//!   for every digit (constant-time selection by mask) and the sign applied by a masked
//!   negation;
//! - fixed base (key generation, signing): signed radix-64 digits over the compile-time table
//!   of [`crate::table`], 43 mixed additions and no doubling, each row read whole;
//! - double base `u1 G + u2 Q` (verification, public inputs, variable time): width-5 NAF of
//!   `u2` over the odd multiples of `Q`, and the fixed-base rows for `u1` skipping zero digits.
#![forbid(unsafe_code)]

use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroize;

use crate::field::Field;
use crate::point::{Affine, IDENTITY, Projective, add, add_mixed, double, neg};
use crate::scalar::Scalar;
use crate::table::{COLS, ROWS, TABLE, W};

/// `table[mag - 1]` for `mag in 1..=N`, the identity for 0, negated when `sign` is 1; every
/// entry read.
#[inline(always)]
fn select_projective<F: Field, const N: usize>(
    f: F,
    table: &[Projective; N],
    mag: u8,
    sign: u8,
) -> Projective {
    let mut r = IDENTITY;
    for (i, e) in table.iter().enumerate() {
        r.conditional_assign(e, mag.ct_eq(&(i as u8 + 1)));
    }
    let ny = f.neg(&r.y);
    f.cmov(&mut r.y, &ny, Choice::from(sign));
    r
}

/// `k p` for a point `p` of the curve (not the identity), constant time in `k`.
#[inline(always)]
pub(crate) fn mul_var<F: Field>(f: F, k: &Scalar, p: &Affine) -> Projective {
    // t[i] = (i + 1) p.
    let mut t = [IDENTITY; 16];
    t[0] = p.to_projective();
    for i in 1..16 {
        t[i] = if (i + 1) % 2 == 0 {
            double(f, &t[i / 2])
        } else {
            add_mixed(f, &t[i - 1], p)
        };
    }
    let mut d = k.booth::<5, 52>();
    let mut r = select_projective(f, &t, d[51].0, d[51].1);
    for i in (0..51).rev() {
        for _ in 0..5 {
            r = double(f, &r);
        }
        let s = select_projective(f, &t, d[i].0, d[i].1);
        r = add(f, &r, &s);
    }
    d.zeroize();
    for e in t.iter_mut() {
        e.zeroize();
    }
    r
}

/// `k G`, constant time in `k`.
#[inline(always)]
pub(crate) fn mul_base<F: Field>(f: F, k: &Scalar) -> Projective {
    let mut d = k.booth::<W, ROWS>();
    let mut r = IDENTITY;
    for (row, &(mag, sign)) in TABLE.iter().zip(d.iter()) {
        let mut e = row[0];
        for (i, c) in row.iter().enumerate() {
            e.conditional_assign(c, mag.ct_eq(&(i as u8 + 1)));
        }
        let ny = f.neg(&e.y);
        f.cmov(&mut e.y, &ny, Choice::from(sign));
        let s = add_mixed(f, &r, &e);
        // A zero digit adds nothing (the mixed formula needs an affine point, so the sum is
        // computed and dropped).
        r.conditional_assign(&s, !mag.ct_eq(&0));
        e.zeroize();
    }
    d.zeroize();
    r
}

/// `u1 G + u2 q`, variable time (public inputs only).
#[inline(always)]
pub(crate) fn mul_double_vartime<F: Field>(
    f: F,
    u1: &Scalar,
    u2: &Scalar,
    q: &Affine,
) -> Projective {
    // Odd multiples q, 3q, ..., 15q.
    let mut t = [IDENTITY; 8];
    t[0] = q.to_projective();
    let q2 = double(f, &t[0]);
    for i in 1..8 {
        t[i] = add(f, &t[i - 1], &q2);
    }
    let naf = u2.wnaf_vartime::<5>();
    let mut r = IDENTITY;
    let mut started = false;
    for &d in naf.iter().rev() {
        if started {
            r = double(f, &r);
        }
        if d > 0 {
            r = add(f, &r, &t[(d as usize) / 2]);
            started = true;
        } else if d < 0 {
            r = add(f, &r, &neg(f, &t[(-d) as usize / 2]));
            started = true;
        }
    }
    let d1 = u1.booth::<W, ROWS>();
    for (row, &(mag, sign)) in TABLE.iter().zip(d1.iter()) {
        if mag != 0 {
            let mut e = row[mag as usize - 1];
            if sign == 1 {
                e.y = f.neg(&e.y);
            }
            r = add_mixed(f, &r, &e);
        }
    }
    r
}

const _: () = assert!(COLS == 1 << (W - 1));
