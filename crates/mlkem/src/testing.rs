//! Test and bench entry points (`#[doc(hidden)]`, not a stable API): the [`Backend`] handle,
//! and, with `--cfg tessera_test_hooks` (set only by this workspace's own builds), the
//! per-operation runs of the equivalence tests. The declassification hook of the valgrind
//! constant-time check is `tessera_cpu::hooks::set_declassify`: ML-KEM declassifies exactly one
//! value, rho, right after key generation computes `(rho, sigma) = G(d || k)` (rho is public by
//! design, the last 32 bytes of ek, and SampleNTT's rejection loop branches on its XOF output).
#![forbid(unsafe_code)]

pub use crate::backend::Backend;

#[cfg(tessera_test_hooks)]
mod per_unit;
#[cfg(tessera_test_hooks)]
pub use per_unit::{Op, OpOut, run};
