//! The fixed-base table, computed at compile time by `const fn` from the base point `G` with
//! the portable field arithmetic and the same complete formulas the run-time code uses: row
//! `j` holds `k 2^(6j) G` for `k = 1..=32`, affine (one batch inversion for the whole table), Montgomery
//! form. No number in it is copied from elsewhere; the tests check rows against the
//! variable-base multiplication and `G` against SEC 2.
#![forbid(unsafe_code)]

use crate::fe::{self, P};
use crate::field::{Fe, ONE};
use crate::point::{Affine, IDENTITY, add_const, double_const};

/// Window width of the fixed-base recoding (signed digits `-32..=32`).
pub(crate) const W: usize = 6;
/// Number of windows (`6 * 43 = 258 >= 257`).
pub(crate) const ROWS: usize = 43;
/// Entries per row (digit magnitudes `1..=32`).
pub(crate) const COLS: usize = 32;

/// The base point `G` (SEC 2 section 2.4.2), affine, Montgomery form.
pub(crate) const G: Affine = Affine {
    x: fe::to_mont(
        &fe::from_be_bytes(&[
            0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6, 0xe5, 0x63, 0xa4,
            0x40, 0xf2, 0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb, 0x33, 0xa0, 0xf4, 0xa1, 0x39, 0x45,
            0xd8, 0x98, 0xc2, 0x96,
        ]),
        &P,
    ),
    y: fe::to_mont(
        &fe::from_be_bytes(&[
            0x4f, 0xe3, 0x42, 0xe2, 0xfe, 0x1a, 0x7f, 0x9b, 0x8e, 0xe7, 0xeb, 0x4a, 0x7c, 0x0f,
            0x9e, 0x16, 0x2b, 0xce, 0x33, 0x57, 0x6b, 0x31, 0x5e, 0xce, 0xcb, 0xb6, 0x40, 0x68,
            0x37, 0xbf, 0x51, 0xf5,
        ]),
        &P,
    ),
};

/// `p - 2`, the inversion exponent.
const P_MINUS_2: [u64; 4] = [
    0xffff_ffff_ffff_fffd,
    0x0000_0000_ffff_ffff,
    0x0000_0000_0000_0000,
    0xffff_ffff_0000_0001,
];

/// The table (a `static`: one copy in the binary, read by every backend).
// Evaluating `build` runs about 25,000 field multiplications in the const evaluator (a few
// seconds of compile time), past the step count at which rustc asks whether it loops.
#[allow(long_running_const_eval)]
pub(crate) static TABLE: [[Affine; COLS]; ROWS] = build();

const fn build() -> [[Affine; COLS]; ROWS] {
    // Every multiple, projective: m[j][k] = (k + 1) 2^(6j) G.
    let mut m = [[IDENTITY; COLS]; ROWS];
    let mut base = G.to_projective();
    let mut j = 0;
    while j < ROWS {
        m[j][0] = base;
        let mut k = 1;
        while k < COLS {
            m[j][k] = if (k + 1) % 2 == 0 {
                double_const(&m[j][k / 2])
            } else {
                add_const(&m[j][k - 1], &base)
            };
            k += 1;
        }
        // Next row: 2^6 base = 2 (32 base).
        base = double_const(&m[j][COLS - 1]);
        j += 1;
    }
    // One batch inversion of all Z coordinates (Montgomery's trick): pre = the product of the
    // Z before this one, in row-major order.
    let mut pre: [[Fe; COLS]; ROWS] = [[[0; 4]; COLS]; ROWS];
    let mut acc = ONE;
    j = 0;
    while j < ROWS {
        let mut k = 0;
        while k < COLS {
            pre[j][k] = acc;
            acc = fe::mont_mul(&acc, &m[j][k].z, &P);
            k += 1;
        }
        j += 1;
    }
    let mut inv = fe::pow_public(&acc, &P_MINUS_2, &P);
    let zero = Affine {
        x: [0; 4],
        y: [0; 4],
    };
    let mut t = [[zero; COLS]; ROWS];
    j = ROWS;
    while j > 0 {
        j -= 1;
        let mut k = COLS;
        while k > 0 {
            k -= 1;
            let zi = fe::mont_mul(&inv, &pre[j][k], &P);
            inv = fe::mont_mul(&inv, &m[j][k].z, &P);
            t[j][k] = Affine {
                x: fe::mont_mul(&m[j][k].x, &zi, &P),
                y: fe::mont_mul(&m[j][k].y, &zi, &P),
            };
        }
    }
    t
}
