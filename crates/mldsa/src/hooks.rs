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
//! - whether SampleInBall's fixed block of candidates held all `tau` positions (the stream is
//!   read on past it with probability below 2^-87; `crate::dsa::sample_in_ball`);
//! - the signing loop's decision (accept or reject; not which check failed) and, once accepted,
//!   c-tilde and the hint (parts of the signature). The c-tilde of a rejected iteration stays
//!   secret: SampleInBall is constant time;
//! - the accept/reject decision of expanded signing-key parsing.
#![forbid(unsafe_code)]

pub use tessera_cpu::hooks::set_declassify;

pub(crate) use tessera_cpu::hooks::declassify;
