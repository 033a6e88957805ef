//! Test-only hooks: compiled only with `--cfg tessera_test_hooks`, which this workspace's
//! `.cargo/config.toml` and xtask set for its own builds and no Cargo feature can turn on (so no
//! crate in a user's dependency graph can enable them in a release build).
#![forbid(unsafe_code)]

use std::sync::OnceLock;

static DECLASSIFY: OnceLock<fn(&[u8])> = OnceLock::new();

/// Installs a function that key generation calls on rho right after computing
/// `(rho, sigma) = G(d || k)`: rho is public by design (it is the last 32 bytes of ek), and
/// SampleNTT's rejection loop branches on the XOF output of rho. The valgrind constant-time
/// check marks it defined there, so every other value derived from the secret `d` stays
/// undefined. The first function installed in a process stays.
pub fn set_declassify(f: fn(&[u8])) {
    let _ = DECLASSIFY.set(f);
}

/// Runs the installed hook on `b`.
#[inline]
pub(crate) fn declassify(b: &[u8]) {
    if let Some(f) = DECLASSIFY.get() {
        f(b);
    }
}
