//! Test-only hooks: compiled only with `--cfg tessera_test_hooks`, which this workspace's
//! `.cargo/config.toml` and xtask set for its own builds and no Cargo feature can turn on (so no
//! crate in a user's dependency graph can enable them in a release build).
//!
//! [`set_declassify`] installs the function (shared by every Tessera crate: it is
//! `tessera_cpu::hooks`'s) that ML-KEM calls on exactly one value: rho, right after key
//! generation computes `(rho, sigma) = G(d || k)`. rho is public by design (the last 32 bytes of
//! ek), and SampleNTT's rejection loop branches on its XOF output. The valgrind constant-time
//! check marks it defined there, so every other value derived from the secret `d` stays
//! undefined. The first function installed in a process stays.
#![forbid(unsafe_code)]

pub use tessera_cpu::hooks::set_declassify;

pub(crate) use tessera_cpu::hooks::declassify;
