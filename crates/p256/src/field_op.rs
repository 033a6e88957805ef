//! Test hooks (`--cfg tessera_test_hooks`, which no Cargo feature sets): one field operation
//! by name, written once over [`Field`], for the equivalence tests of `crate::testing`, and a
//! chain of dependent products for timing a backend's multiplication.
#![forbid(unsafe_code)]

use crate::backend::{P256Op, Unit};
use crate::fe::{self, Limbs, P};
use crate::field::{self, Field};

/// A field operation on canonical integers (below `p`, four little-endian words); the result
/// is the canonical integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum FieldOp {
    /// `a b`.
    Mul,
    /// `a^2`.
    Sqr,
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `-a`.
    Neg,
    /// `a^(-1)` (0 for 0).
    Invert,
    /// `a^((p + 1) / 4)` (a square root of `a` when `a` is a square).
    SqrtCandidate,
}

/// Every [`FieldOp`].
pub const ALL: [FieldOp; 7] = [
    FieldOp::Mul,
    FieldOp::Sqr,
    FieldOp::Add,
    FieldOp::Sub,
    FieldOp::Neg,
    FieldOp::Invert,
    FieldOp::SqrtCandidate,
];

/// `op(a, b)` on the field `f`, the operands already in Montgomery form.
#[inline(always)]
fn field_op_generic<F: Field>(f: F, op: FieldOp, a: &Limbs, b: &Limbs) -> Limbs {
    match op {
        FieldOp::Mul => f.mul(a, b),
        FieldOp::Sqr => f.sqr(a),
        FieldOp::Add => f.add(a, b),
        FieldOp::Sub => f.sub(a, b),
        FieldOp::Neg => f.neg(a),
        FieldOp::Invert => field::invert(f, a),
        FieldOp::SqrtCandidate => field::sqrt_candidate(f, a),
    }
}

/// One field operation on canonical integers: into Montgomery form by the portable code, the
/// operation on the row's field, back to the integer by the portable code.
pub(crate) struct OneFieldOp {
    pub(crate) op: FieldOp,
    pub(crate) a: Limbs,
    pub(crate) b: Limbs,
}

impl P256Op for OneFieldOp {
    type Out = Limbs;
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> Limbs {
        assert!(
            fe::lt(&self.a, &P.m) == 1 && fe::lt(&self.b, &P.m) == 1,
            "field_op operands must be below p"
        );
        let (a, b) = (fe::to_mont(&self.a, &P), fe::to_mont(&self.b, &P));
        let r = field_op_generic(U::field(t), self.op, &a, &b);
        fe::from_mont(&r, &P)
    }
}

/// `iterations` dependent products `x = x * a` (or squarings `x = x^2` when `square`) on the
/// row's field, starting at `x = a`; Montgomery form in and out (for timing only).
pub(crate) struct MulChain {
    pub(crate) a: Limbs,
    pub(crate) iterations: u64,
    pub(crate) square: bool,
}

impl P256Op for MulChain {
    type Out = Limbs;
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> Limbs {
        let f = U::field(t);
        let mut x = self.a;
        if self.square {
            for _ in 0..self.iterations {
                x = f.sqr(&x);
            }
        } else {
            for _ in 0..self.iterations {
                x = f.mul(&x, &self.a);
            }
        }
        x
    }
}
