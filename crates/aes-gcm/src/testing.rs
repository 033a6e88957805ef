//! Test- and bench-facing entry points (not a stable API): the backend table, which
//! `new_with_backend` takes and `backend()` returns. The constant-time check's declassification
//! hook is `tessera_cpu::hooks` (shared by every crate; test builds only).

#![forbid(unsafe_code)]

pub use crate::backend::Backend;
