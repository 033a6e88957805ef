//! The hashes of FIPS 204 section 3.7 as ML-DSA uses them: H (SHAKE256 over a concatenation)
//! and the Keccak backends ([`Hashes`]) a backend's unit hashes with. Bottom layer: depends on
//! tessera-keccak only.
#![forbid(unsafe_code)]

use tessera_keccak::{Shake256, X1Backend, X4Backend};

/// H = SHAKE256 over the concatenation of `parts` (FIPS 204 section 3.7), `out.len()` bytes.
#[inline(always)]
pub(crate) fn h(x1: X1Backend, parts: &[&[u8]], out: &mut [u8]) {
    let mut s = Shake256::new_with_backend(x1);
    for p in parts {
        s.update(p);
    }
    s.finalize_xof().read(out);
}

/// H over the concatenation of `head` then `tail` (a message in parts after its prefix).
#[inline(always)]
pub(crate) fn h2(x1: X1Backend, head: &[&[u8]], tail: &[&[u8]], out: &mut [u8]) {
    let mut s = Shake256::new_with_backend(x1);
    for p in head.iter().chain(tail) {
        s.update(p);
    }
    s.finalize_xof().read(out);
}

/// The Keccak backends an ML-DSA backend hashes with, decided with it (so a forced-portable
/// ML-DSA hashes on portable Keccak everywhere).
#[derive(Clone, Copy)]
pub(crate) struct Hashes {
    /// H, SampleInBall, and a sampler's polynomial left alone when fewer than two remain for a
    /// four-way batch.
    pub(crate) x1: X1Backend,
    /// ExpandA, ExpandS and ExpandMask four polynomials at a time; `None`: one at a time on
    /// `x1` (the portable backend, as FIPS 204 writes them).
    pub(crate) x4: Option<X4Backend>,
}
