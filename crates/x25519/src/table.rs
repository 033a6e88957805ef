//! The fixed-base table, computed at compile time by `const fn` from the Ed25519 base point
//! with the portable field arithmetic: row `j`, entry `k` holds `(k + 1) 256^j B` in niels
//! form (`y + x`, `y - x`, `2 d x y`, affine, reduced). No number in it is copied from
//! elsewhere; the unit tests check it against an independent affine computation, and the
//! equivalence tests check the fixed-base path against the ladder on `u = 9`.
#![forbid(unsafe_code)]

use crate::fe51::{self as p, Fe as Fe51};
use crate::field::{Niels, Table};

/// The Ed25519 base point `B` (RFC 8032 section 5.1): `y = 4/5`, `x` the even square root
/// of `(y^2 - 1) / (d y^2 + 1)`, in radix 2^51. Its Montgomery image `u = (1 + y) / (1 - y)`
/// is 9, the X25519 base point; both facts are checked at compile time below.
pub(crate) const BASE_X: Fe51 = [
    0x62d608f25d51a,
    0x412a4b4f6592a,
    0x75b7171a4b31d,
    0x1ff60527118fe,
    0x216936d3cd6e5,
];
pub(crate) const BASE_Y: Fe51 = [
    0x6666666666658,
    0x4cccccccccccc,
    0x1999999999999,
    0x3333333333333,
    0x6666666666666,
];

/// `d = -121665 / 121666`, the Edwards curve constant of edwards25519.
pub(crate) const D: Fe51 = p::neg(&p::mul(
    &[121_665, 0, 0, 0, 0],
    &p::invert(&[121_666, 0, 0, 0, 0]),
));

const fn eq(a: &Fe51, b: &Fe51) -> bool {
    let (a, b) = (p::to_words(a), p::to_words(b));
    a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3]
}

// B is on the curve (-x^2 + y^2 = 1 + d x^2 y^2), y = 4/5, and it maps to u = 9.
const _: () = {
    let xx = p::sqr(&BASE_X);
    let yy = p::sqr(&BASE_Y);
    let lhs = p::sub(&yy, &xx);
    let rhs = p::add(&p::ONE, &p::mul(&D, &p::mul(&xx, &yy)));
    assert!(eq(&lhs, &rhs), "B not on edwards25519");
    assert!(
        eq(&p::mul(&BASE_Y, &[5, 0, 0, 0, 0]), &[4, 0, 0, 0, 0]),
        "y(B) != 4/5"
    );
    assert!(p::to_words(&BASE_X)[0] & 1 == 0, "x(B) not even");
    let u = p::mul(
        &p::add(&p::ONE, &BASE_Y),
        &p::invert(&p::sub(&p::ONE, &BASE_Y)),
    );
    assert!(eq(&u, &[9, 0, 0, 0, 0]), "u(B) != 9");
};

/// A point in extended coordinates (`x = X/Z`, `y = Y/Z`, `T = XY/Z`).
#[derive(Clone, Copy)]
struct Ext {
    x: Fe51,
    y: Fe51,
    z: Fe51,
    t: Fe51,
}

/// `P + Q` by the unified addition of Hisil-Wong-Carter-Dawson 2008 (section 3.1, `a = -1`),
/// complete on edwards25519, so it also doubles. `d2 = 2 d`.
const fn ext_add(a: &Ext, b: &Ext, d2: &Fe51) -> Ext {
    let aa = p::mul(&p::sub(&a.y, &a.x), &p::sub(&b.y, &b.x));
    let bb = p::mul(&p::add(&a.y, &a.x), &p::add(&b.y, &b.x));
    let cc = p::mul(&p::mul(&a.t, d2), &b.t);
    let zz = p::mul(&a.z, &b.z);
    let dd = p::add(&zz, &zz);
    let e = p::sub(&bb, &aa);
    let f = p::sub(&dd, &cc);
    let g = p::add(&dd, &cc);
    let h = p::add(&bb, &aa);
    Ext {
        x: p::mul(&e, &f),
        y: p::mul(&g, &h),
        t: p::mul(&e, &h),
        z: p::mul(&f, &g),
    }
}

/// The reduced radix-2^51 limbs of `a`.
const fn canonical(a: &Fe51) -> Fe51 {
    let w = p::to_words(a);
    const M: u64 = (1 << 51) - 1;
    [
        w[0] & M,
        ((w[0] >> 51) | (w[1] << 13)) & M,
        ((w[1] >> 38) | (w[2] << 26)) & M,
        ((w[2] >> 25) | (w[3] << 39)) & M,
        w[3] >> 12,
    ]
}

const N: usize = 32 * 8;

const fn build() -> Table<Fe51> {
    let d2 = p::add(&D, &D);
    let b = Ext {
        x: BASE_X,
        y: BASE_Y,
        z: p::ONE,
        t: p::mul(&BASE_X, &BASE_Y),
    };
    // The 256 multiples, projective.
    let mut pts = [b; N];
    let mut row_base = b;
    let mut j = 0;
    while j < 32 {
        pts[8 * j] = row_base;
        let mut k = 1;
        while k < 8 {
            pts[8 * j + k] = ext_add(&pts[8 * j + k - 1], &row_base, &d2);
            k += 1;
        }
        let mut i = 0;
        while i < 8 {
            row_base = ext_add(&row_base, &row_base, &d2);
            i += 1;
        }
        j += 1;
    }
    // One inversion for all Z (Montgomery's trick): prefix[i] = Z_0 ... Z_{i-1}.
    let mut prefix = [p::ONE; N];
    let mut acc = p::ONE;
    let mut i = 0;
    while i < N {
        prefix[i] = acc;
        acc = p::mul(&acc, &pts[i].z);
        i += 1;
    }
    let mut inv = p::invert(&acc);
    let zero = Niels {
        ypx: p::ZERO,
        ymx: p::ZERO,
        xy2d: p::ZERO,
    };
    let mut out = [[zero; 8]; 32];
    let mut i = N;
    while i > 0 {
        i -= 1;
        let zinv = p::mul(&inv, &prefix[i]);
        inv = p::mul(&inv, &pts[i].z);
        let x = p::mul(&pts[i].x, &zinv);
        let y = p::mul(&pts[i].y, &zinv);
        out[i / 8][i % 8] = Niels {
            ypx: canonical(&p::add(&y, &x)),
            ymx: canonical(&p::sub(&y, &x)),
            xy2d: canonical(&p::mul(&p::mul(&x, &y), &d2)),
        };
        // Every entry's Z was nonzero (the inverse of the product is).
        assert!(!eq(&pts[i].z, &p::ZERO));
    }
    out
}

/// The reduced limbs of `a` as four 64-bit words.
const fn words(a: &Fe51) -> [u64; 4] {
    p::to_words(a)
}

const fn to64(t: &Table<Fe51>) -> Table<[u64; 4]> {
    let zero = Niels {
        ypx: [0u64; 4],
        ymx: [0; 4],
        xy2d: [0; 4],
    };
    let mut out = [[zero; 8]; 32];
    let mut j = 0;
    while j < 32 {
        let mut k = 0;
        while k < 8 {
            let e = &t[j][k];
            out[j][k] = Niels {
                ypx: words(&e.ypx),
                ymx: words(&e.ymx),
                xy2d: words(&e.xy2d),
            };
            k += 1;
        }
        j += 1;
    }
    out
}

/// The table in radix 2^51 (portable backend).
pub(crate) static TABLE51: Table<Fe51> = build();
/// The table in four 64-bit words (the 64-bit backends).
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64", test)),
    allow(dead_code)
)]
pub(crate) static TABLE64: Table<[u64; 4]> = to64(&TABLE51);

/// The table for four-way arithmetic (AVX-512 IFMA backend): entry `[j][k]` is five groups of
/// four words, group `l` holding limb `l` (radix 2^51, canonical: `< 2^51`) of `y + x`,
/// `y - x`, `2 d x y` and of the constant 2 (the factor of `Z` in a mixed addition).
#[cfg(target_arch = "x86_64")]
pub(crate) static TABLE_X4: [[[u64; 20]; 8]; 32] = to_x4(&TABLE51);

#[cfg(target_arch = "x86_64")]
const fn to_x4(t: &Table<Fe51>) -> [[[u64; 20]; 8]; 32] {
    let mut out = [[[0u64; 20]; 8]; 32];
    let mut j = 0;
    while j < 32 {
        let mut k = 0;
        while k < 8 {
            let e = &t[j][k];
            let mut l = 0;
            while l < 5 {
                assert!(e.ypx[l] < 1 << 51 && e.ymx[l] < 1 << 51 && e.xy2d[l] < 1 << 51);
                out[j][k][4 * l] = e.ypx[l];
                out[j][k][4 * l + 1] = e.ymx[l];
                out[j][k][4 * l + 2] = e.xy2d[l];
                out[j][k][4 * l + 3] = if l == 0 { 2 } else { 0 };
                l += 1;
            }
            k += 1;
        }
        j += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Affine addition on edwards25519 (RFC 8032 section 5.1.4's formulas in affine form,
    /// `x3 = (x1 y2 + x2 y1) / (1 + d x1 x2 y1 y2)`, `y3 = (y1 y2 + x1 x2) / (1 - d x1 x2 y1 y2)`),
    /// independent of the projective formulas and the batch inversion of the builder.
    fn affine_add(a: (Fe51, Fe51), b: (Fe51, Fe51)) -> (Fe51, Fe51) {
        let (x1, y1) = a;
        let (x2, y2) = b;
        let k = p::mul(&D, &p::mul(&p::mul(&x1, &x2), &p::mul(&y1, &y2)));
        let x = p::mul(
            &p::add(&p::mul(&x1, &y2), &p::mul(&x2, &y1)),
            &p::invert(&p::add(&p::ONE, &k)),
        );
        let y = p::mul(
            &p::add(&p::mul(&y1, &y2), &p::mul(&x1, &x2)),
            &p::invert(&p::sub(&p::ONE, &k)),
        );
        (x, y)
    }

    /// Decodes a niels entry back to affine `(x, y)`.
    fn decode(e: &Niels<Fe51>) -> (Fe51, Fe51) {
        let half = p::invert(&[2, 0, 0, 0, 0]);
        let x = p::mul(&p::sub(&e.ypx, &e.ymx), &half);
        let y = p::mul(&p::add(&e.ypx, &e.ymx), &half);
        (x, y)
    }

    /// Rows 0 and 1 and the last row entry by entry, against repeated affine additions (the
    /// whole table would be slow under Miri; every row is also exercised by the fixed-base
    /// equivalence tests).
    #[test]
    fn table_matches_affine_multiples() {
        let b = (BASE_X, BASE_Y);
        let mut row_base = b;
        for j in 0..32 {
            if j < 2 || j == 31 {
                let mut q = row_base;
                for (k, e) in TABLE51[j].iter().enumerate() {
                    let (x, y) = decode(e);
                    assert!(eq(&x, &q.0) && eq(&y, &q.1), "entry [{j}][{k}]");
                    let xy2d = p::mul(&p::mul(&x, &y), &p::add(&D, &D));
                    assert!(eq(&e.xy2d, &xy2d), "xy2d [{j}][{k}]");
                    q = affine_add(q, row_base);
                }
            }
            if j < 31 {
                // Next row base: 256 times this one, by doubling with the affine formula.
                if j < 1 || j == 30 {
                    for _ in 0..8 {
                        row_base = affine_add(row_base, row_base);
                    }
                } else {
                    row_base = decode(&TABLE51[j + 1][0]);
                }
            }
        }
    }

    #[test]
    fn table64_is_table51() {
        for j in 0..32 {
            for k in 0..8 {
                let (a, b) = (&TABLE51[j][k], &TABLE64[j][k]);
                assert_eq!(p::to_words(&a.ypx), b.ypx);
                assert_eq!(p::to_words(&a.ymx), b.ymx);
                assert_eq!(p::to_words(&a.xy2d), b.xy2d);
            }
        }
    }
}
