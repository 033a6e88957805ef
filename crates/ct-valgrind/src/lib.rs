//! Constant-time checks of every Tessera crate under valgrind memcheck.
//!
//! Each example (`examples/<crate>.rs`) marks a crate's secrets undefined through memcheck
//! client requests (`tessera_testkit::ct`) and runs its secret-handling operations on the
//! backend its first argument names; `canary` is the negative control that memcheck must
//! report. `cargo xtask test` builds them in release mode and runs every argument under
//! `valgrind --tool=memcheck --error-exitcode=1`:
//!
//! ```sh
//! cargo build --release -p tessera-ct-valgrind --examples
//! valgrind -q --error-exitcode=1 target/release/examples/mlkem x86_avx2
//! valgrind -q --error-exitcode=1 target/release/examples/mlkem canary   # must exit 1
//! ```
//!
//! Besides one example per primitive crate, `x448` checks `tessera::hpke`'s X448 ladder and
//! `hpke` the HPKE layer (DHKEM(X25519) key derivation, the ML-KEM KEMs and X-Wing, the key
//! schedules and AEAD contexts); each example's docs say what it does not cover and why.
//! Valgrind cannot execute AVX-512, IFMA or VAES code: those backends are checked statistically
//! by `tessera-ct-dudect` instead.
//!
//! The library is empty: the crate exists so that the release build of the examples compiles
//! the checked crates without their test-only dependencies.
#![no_std]
