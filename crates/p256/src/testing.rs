//! Test and bench entry points (`#[doc(hidden)]`, not a stable API): the backend table and the
//! scalar multiplications on an explicit backend, on encoded inputs and outputs.
#![forbid(unsafe_code)]

use subtle::Choice;

pub use crate::backend::Backend;
use crate::backend::{MulBase, MulDoubleVartime, MulVar};
use crate::point::Affine;
use crate::scalar::Scalar;
use crate::{Error, PublicKey};

fn scalar(k: &[u8; 32]) -> Result<Scalar, Error> {
    let (s, ok) = Scalar::from_be_bytes_checked(k);
    if bool::from(ok) {
        Ok(s)
    } else {
        Err(Error::ScalarOutOfRange)
    }
}

fn encode((p, identity): (Affine, Choice)) -> Option<[u8; 65]> {
    if bool::from(identity) {
        None
    } else {
        Some(PublicKey::from_point(p).to_uncompressed())
    }
}

/// `k G` on `backend` (`k < n`, else an error), uncompressed; `None` for the identity.
pub fn mul_base(backend: Backend, k: &[u8; 32]) -> Result<Option<[u8; 65]>, Error> {
    let k = scalar(k)?;
    Ok(encode(backend.run(MulBase(&k))))
}

/// `k P` on `backend` (`k < n`; `P` a SEC 1 encoding), uncompressed; `None` for the identity.
pub fn mul(backend: Backend, k: &[u8; 32], p: &[u8]) -> Result<Option<[u8; 65]>, Error> {
    let k = scalar(k)?;
    let p = PublicKey::from_sec1_bytes_with_backend(backend, p)?;
    Ok(encode(backend.run(MulVar(&k, p.point()))))
}

/// `u1 G + u2 P` on `backend` by the variable-time verification path.
pub fn mul_double_vartime(
    backend: Backend,
    u1: &[u8; 32],
    u2: &[u8; 32],
    p: &[u8],
) -> Result<Option<[u8; 65]>, Error> {
    let (u1, u2) = (scalar(u1)?, scalar(u2)?);
    let p = PublicKey::from_sec1_bytes_with_backend(backend, p)?;
    Ok(encode(backend.run(MulDoubleVartime(&u1, &u2, p.point()))))
}

#[cfg(tessera_test_hooks)]
pub use crate::field_op::{ALL, FieldOp};

/// `op(a, b)` on `backend`, on canonical integers below `p` (four little-endian words; a
/// larger operand panics): converted to Montgomery form by the portable code, the operation
/// run on the backend's field, the result converted back by the portable code.
#[cfg(tessera_test_hooks)]
pub fn field_op(backend: Backend, op: FieldOp, a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    backend.run(crate::field_op::OneFieldOp { op, a, b })
}

/// `iterations` dependent field multiplications `x = x a` (squarings `x = x^2` when `square`)
/// on `backend`, from `x = a` (`a < p`, taken as a Montgomery-form element): for timing.
#[cfg(tessera_test_hooks)]
pub fn field_mul_chain(backend: Backend, a: [u64; 4], iterations: u64, square: bool) -> [u64; 4] {
    backend.run(crate::field_op::MulChain {
        a,
        iterations,
        square,
    })
}

/// ECDSA signing with a given nonce `k` (the NIST SigGen vectors give `k`): the signature
/// `(r, s)` of `digest` (its `bits2int`, mod `n`) under the secret `d` on `backend`. Errors
/// for `d` or `k` outside `[1, n - 1]`; `None` when `r` or `s` is 0.
#[cfg(tessera_test_hooks)]
pub fn ecdsa_sign_with_nonce(
    backend: Backend,
    d: &[u8; 32],
    digest: &[u8],
    k: &[u8; 32],
) -> Result<Option<[u8; 64]>, Error> {
    let (d, k) = (scalar(d)?, scalar(k)?);
    if bool::from(d.is_zero() | k.is_zero()) {
        return Err(Error::ScalarOutOfRange);
    }
    let z = Scalar::reduce_be_bytes(&crate::ecdsa::bits2int(digest));
    Ok(crate::ecdsa::sign_with_k(backend, &d, &z, &k).map(|s| s.to_bytes()))
}
