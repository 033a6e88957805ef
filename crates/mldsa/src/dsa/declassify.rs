//! Declassification of the values ML-DSA releases for the valgrind constant-time check.
#![forbid(unsafe_code)]

/// Marks `b` public for the valgrind constant-time check; nothing outside this workspace's test
/// builds (`--cfg tessera_test_hooks`, which no Cargo feature can turn on).
///
/// The check (`tessera-ct-valgrind`'s `mldsa` example) marks the seed xi, the expanded signing
/// key and rnd undefined and installs a hook that marks bytes defined
/// (`tessera_cpu::hooks::set_declassify`, shared by every Tessera crate). ML-DSA calls it on
/// exactly the values that are public by design or whose release FIPS 204's security argument
/// allows, right before it branches or indexes on them:
/// - rho, computed from xi in key generation (it is the first 32 bytes of pk; ExpandA's
///   rejection loop branches on its XOF output);
/// - the accept pattern of RejBoundedPoly (which half-bytes of the XOF output were rejected:
///   independent of the accepted values, so of s1 and s2);
/// - whether SampleInBall's fixed block of candidates held all `tau` positions (the stream is
///   read on past it with probability below 2^-87; `crate::dsa::sample_in_ball`);
/// - the signing loop's decision (accept or reject; not which check failed) and, once accepted,
///   c-tilde and the hint (parts of the signature). The c-tilde of a rejected iteration stays
///   secret: SampleInBall is constant time;
/// - the accept/reject decision of expanded signing-key parsing.
#[inline(always)]
pub(crate) fn public(b: &[u8]) {
    #[cfg(tessera_test_hooks)]
    tessera_cpu::hooks::declassify(b);
    #[cfg(not(tessera_test_hooks))]
    let _ = b;
}

/// [`public`] for a decision (see [`tessera_cpu::public_bool`]: in test builds, the value as it
/// is in memory after the hook, read back through an opaque reference).
pub(crate) use tessera_cpu::public_bool;

/// [`public`] for coefficients, in place (each read back after the hook, see [`public_bool`]).
#[inline(always)]
pub(crate) fn public_i32s(v: &mut [i32]) {
    #[cfg(tessera_test_hooks)]
    for c in v.chunks_mut(8) {
        let mut cell = [0u8; 32];
        for (d, x) in cell.chunks_exact_mut(4).zip(c.iter()) {
            d.copy_from_slice(&x.to_le_bytes());
        }
        public(&cell);
        for (x, d) in c
            .iter_mut()
            .zip(core::hint::black_box(&cell).chunks_exact(4))
        {
            *x = i32::from_le_bytes([d[0], d[1], d[2], d[3]]);
        }
    }
    #[cfg(not(tessera_test_hooks))]
    let _ = v;
}

/// [`public`] for a 64-bit mask (see [`public_bool`]).
#[inline(always)]
pub(crate) fn public_u64(v: u64) -> u64 {
    let cell = v.to_le_bytes();
    public(&cell);
    u64::from_le_bytes(*core::hint::black_box(&cell))
}
