//! Test-only hooks: compiled only with `--cfg tessera_test_hooks`, which this workspace's
//! `.cargo/config.toml` and xtask set for its own builds and no Cargo feature can turn on (so no
//! crate in a user's dependency graph can enable them in a release build).
//!
//! The valgrind constant-time check (`tessera-ct-valgrind`'s `mldsa` example) marks the seed
//! xi, the expanded signing key and rnd undefined and installs a hook that marks bytes defined
//! ([`set_declassify`]: the hook is shared by every Tessera crate, it is `tessera_cpu::hooks`'s).
//! ML-DSA calls it (through [`crate::dsa::public`]) on exactly the values that are public by
//! design or whose release FIPS 204's security argument allows, right before it branches or
//! indexes on them:
//! - rho, computed from xi in key generation (it is the first 32 bytes of pk; ExpandA's
//!   rejection loop branches on its XOF output);
//! - the accept pattern of RejBoundedPoly (which half-bytes of the XOF output were rejected:
//!   independent of the accepted values, so of s1 and s2);
//! - c-tilde of every signing iteration (a random-oracle output, released for rejected
//!   iterations too: CRYSTALS-Dilithium round-3 specification, section 5.5; SampleInBall
//!   branches on its XOF output);
//! - the signing loop's decision (accept or reject; not which check failed) and, once accepted,
//!   the hint (part of the signature);
//! - the accept/reject decision of expanded signing-key parsing.
#![forbid(unsafe_code)]

pub use tessera_cpu::hooks::set_declassify;

pub(crate) use tessera_cpu::hooks::declassify;
