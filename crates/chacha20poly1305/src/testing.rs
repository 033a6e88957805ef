//! Test-only hooks: compiled only with `--cfg tessera_test_hooks`, which this workspace's
//! `.cargo/config.toml` and xtask set for its own builds and no Cargo feature can turn on (so no
//! crate in a user's dependency graph can enable them in a release build).

#![forbid(unsafe_code)]

use std::sync::OnceLock;

static DECLASSIFY: OnceLock<fn(&[u8])> = OnceLock::new();

/// Installs a function that `decrypt_in_place_detached` calls on the one-byte result of its
/// constant-time tag comparison before branching on it (the valgrind constant-time check marks
/// that byte defined there: the result is public by design). The first function installed in a
/// process stays.
pub fn set_declassify(f: fn(&[u8])) {
    let _ = DECLASSIFY.set(f);
}

/// Runs the installed hook on `v` and returns the byte as it is in memory afterwards.
#[inline]
pub(crate) fn declassify(v: u8) -> u8 {
    let Some(f) = DECLASSIFY.get() else {
        return v;
    };
    let cell = [v];
    f(&cell);
    // Read back through an opaque reference, so the branch that follows uses the byte the hook
    // just declassified in memory, not a register copy from before the call.
    core::hint::black_box(&cell)[0]
}
