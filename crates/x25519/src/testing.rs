//! Test and bench entry points (`#[doc(hidden)]`, not a stable API): the backend table, the
//! scalar multiplications on an explicit backend, and, in this workspace's test builds only
//! (`--cfg tessera_test_hooks`, which no Cargo feature sets), the field operations per backend
//! for the equivalence tests and the key agreement's parts for the valgrind check.
#![forbid(unsafe_code)]

use zeroize::Zeroize;

pub use crate::backend::Backend;
use crate::backend::{BaseMult, ScalarMult};
#[cfg(tessera_test_hooks)]
pub use crate::field_op::{ALL, FieldOp};

/// [`x25519`](crate::x25519) on an explicit backend.
pub fn x25519_with_backend(backend: Backend, scalar: [u8; 32], u: [u8; 32]) -> [u8; 32] {
    let mut k = scalar;
    let out = backend.run(ScalarMult { k: &k, u: &u });
    k.zeroize();
    out
}

/// [`x25519_base`](crate::x25519_base) on an explicit backend.
pub fn x25519_base_with_backend(backend: Backend, scalar: [u8; 32]) -> [u8; 32] {
    let mut k = scalar;
    let out = backend.run(BaseMult { k: &k });
    k.zeroize();
    out
}

/// `secret.diffie_hellman(pk)` up to its final branch: the shared value and the
/// constant-time all-zero flag (1 when zero), for the valgrind check, which marks the flag
/// public before looking at it.
#[cfg(tessera_test_hooks)]
pub fn diffie_hellman_parts(secret: &crate::StaticSecret, pk: &crate::PublicKey) -> ([u8; 32], u8) {
    let (s, zero) = crate::shared_ct(secret.0.backend, &secret.0.bytes, pk);
    (s.to_bytes(), zero.unwrap_u8())
}

/// `op(a, b)` on `backend`.
#[cfg(tessera_test_hooks)]
pub fn field_op(backend: Backend, op: FieldOp, a: [u64; 4], b: [u64; 4]) -> [u8; 32] {
    backend.run(crate::backend::OneFieldOp { op, a, b })
}

/// Largest limb the portable `mul`/`sqr`/`sub`/`mul_a24` accept (exclusive).
#[cfg(tessera_test_hooks)]
pub const PORTABLE_INPUT_LIMB_LIMIT: u64 = crate::fe51::INPUT_LIMB_LIMIT;

/// `op(a, b)` on the portable backend with raw radix-2^51 limbs (each below
/// [`PORTABLE_INPUT_LIMB_LIMIT`]; `Add` needs the sums below it too). `Invert`, `MulOfSums`,
/// `SwapSub` are not offered at these bounds (`Reduce` is: canonical value).
#[cfg(tessera_test_hooks)]
pub fn portable_limbs_op(op: FieldOp, a: [u64; 5], b: [u64; 5]) -> [u8; 32] {
    use crate::fe51 as p;
    let r = match op {
        FieldOp::Add => p::add(&a, &b),
        FieldOp::Sub => p::sub(&a, &b),
        FieldOp::Mul => p::mul(&a, &b),
        FieldOp::Sqr => p::sqr(&a),
        FieldOp::MulA24 => p::mul_a24(&a),
        FieldOp::Neg => p::neg(&a),
        FieldOp::Reduce => a,
        other => panic!("{other:?} is not a limb-level portable operation"),
    };
    p::to_bytes(&r)
}
