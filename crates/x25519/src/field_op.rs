//! Test hooks (`--cfg tessera_test_hooks`, which no Cargo feature sets): one field operation
//! by name, written once over [`Field`], for the equivalence tests of `crate::testing`.
#![forbid(unsafe_code)]

use crate::field::Field;
use crate::inverse::invert;

/// A field operation; inputs are integers below 2^256 in four little-endian words, the
/// result is the canonical encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum FieldOp {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `a^2`.
    Sqr,
    /// `121666 a`.
    MulA24,
    /// `-a`.
    Neg,
    /// `a^(p-2)`.
    Invert,
    /// `a mod p`.
    Reduce,
    /// `(ab + b^2) (ab + b^2 + 121666 a)^2 b`: products of sums, the loosest inputs the
    /// ladder gives `mul` and `sqr`, and the in-place forms.
    MulOfSums,
    /// `b - a` after a constant-time swap.
    SwapSub,
}

/// Every [`FieldOp`].
pub const ALL: [FieldOp; 10] = [
    FieldOp::Add,
    FieldOp::Sub,
    FieldOp::Mul,
    FieldOp::Sqr,
    FieldOp::MulA24,
    FieldOp::Neg,
    FieldOp::Invert,
    FieldOp::Reduce,
    FieldOp::MulOfSums,
    FieldOp::SwapSub,
];

/// `op(a, b)` on the field `f`, inputs given as integers below 2^256; the result is the
/// canonical encoding.
#[inline(always)]
pub(crate) fn field_op_generic<F: Field>(
    f: F,
    op: FieldOp,
    a: &[u64; 4],
    b: &[u64; 4],
) -> [u8; 32] {
    let (x, y) = (f.load_words(a), f.load_words(b));
    let mut r = f.zero();
    match op {
        FieldOp::Add => f.add(&mut r, &x, &y),
        FieldOp::Sub => f.sub(&mut r, &x, &y),
        FieldOp::Mul => f.mul(&mut r, &x, &y),
        FieldOp::Sqr => f.sqr(&mut r, &x),
        FieldOp::MulA24 => f.mul_a24(&mut r, &x),
        FieldOp::Neg => f.neg(&mut r, &x),
        FieldOp::Invert => r = invert(f, &x),
        FieldOp::Reduce => r = x,
        // The shapes the ladder feeds to mul and sqr: sums of two outputs and of an output
        // and a sum (the portable backend's loosest inputs), and the in-place forms.
        FieldOp::MulOfSums => {
            let (mut p, mut q, mut s, mut t) = (x, x, x, x);
            f.mul(&mut p, &x, &y);
            f.sqr(&mut q, &y);
            f.add(&mut s, &p, &q);
            f.mul_a24(&mut p, &x);
            f.add(&mut t, &s, &p);
            f.sqr_assign(&mut t);
            f.mul(&mut r, &s, &t);
            f.mul_assign(&mut r, &y);
        }
        FieldOp::SwapSub => {
            let mut p = x;
            let mut q = y;
            f.cswap(&mut p, &mut q, subtle::Choice::from(1));
            f.sub(&mut r, &p, &q);
        }
    }
    f.encode(&r)
}
