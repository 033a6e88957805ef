//! Test-facing entry points (tests, benches, the constant-time harnesses): `#[doc(hidden)]`,
//! not a stable API. The backend table, the signing loop's iteration bound and, under
//! `--cfg tessera_test_hooks` only, every vector-trait operation on a chosen backend
//! (`Op`, `run`). The valgrind check installs its declassify hook through
//! `tessera_cpu::hooks::set_declassify` (see `crate::dsa::public` for what ML-DSA releases).
#![forbid(unsafe_code)]

#[cfg(tessera_test_hooks)]
mod unit_op;

pub use crate::backend::Backend;
pub use crate::dsa::MAX_SIGN_ITERATIONS;
#[cfg(tessera_test_hooks)]
pub use unit_op::{Op, OpOut, run};
