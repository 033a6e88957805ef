//! Keccak-f\[1600\] on four states, for crates built on this one (ML-KEM and ML-DSA sample
//! their matrices and noise with four SHAKE instances at once).
//!
//! A crate that dispatches on its own backend runs Keccak on the matching one:
//! - a forced-portable or portable caller uses [`f1600_x4_portable`];
//! - a caller inside its own AVX2 island (a `tessera_cpu::island!` whose token is
//!   `X86Avx2` or implies it) calls [`f1600_x4_avx2`] with that token: the permutation is
//!   `#[inline(always)]` and compiles into the caller's island, so there is no second
//!   dispatch and no island boundary per block;
//! - on aarch64, `f1600_x4_neon` (or `f1600_x4_sha3` under an `Aarch64Sha3` token) does
//!   the same;
//! - a caller outside any island picks an [`X4Backend`] once and calls
//!   [`X4Backend::f1600_x4`], which enters this crate's island for that backend.
//!
//! The state layout is `state[lane][way]`: lane `i` (0..25, `x + 5y`) of each of the four
//! states side by side, the layout the AVX2 code loads into one ymm register per lane.
//!
//! ```
//! use tessera_keccak::x4::{X4Backend, f1600_x4_portable};
//! let mut a = [[0u64; 4]; 25];
//! let mut b = a;
//! f1600_x4_portable(&mut a);
//! X4Backend::detect().f1600_x4(&mut b);
//! assert_eq!(a, b);
//! // Keccak-f[1600] of the zero state, lane 0 (the known first word of the permuted state).
//! assert_eq!(a[0], [0xF1258F7940E1DDE7; 4]);
//! ```
#![forbid(unsafe_code)]

pub use crate::backend::X4Backend;
use crate::backend::portable::PortableX4;
use crate::perm::{X4Op, X4Perm};

/// Keccak-p\[1600, rounds\] on the first `ways` of four interleaved states (an [`X4Op`]).
pub(crate) struct PermuteX4<'a> {
    pub(crate) state: &'a mut [[u64; 4]; 25],
    pub(crate) rounds: usize,
    pub(crate) ways: usize,
}

impl X4Op for PermuteX4<'_> {
    type Out = ();
    #[inline(always)]
    fn run<P: X4Perm>(self, t: P::Token) {
        P::permute_x4(t, self.state, self.rounds, self.ways)
    }
}

/// The whole `rate`-byte blocks of four inputs of one length absorbed by the backend's
/// register-resident loop; returns the bytes consumed per input (an [`X4Op`]).
pub(crate) struct AbsorbX4<'a> {
    pub(crate) state: &'a mut [[u64; 4]; 25],
    pub(crate) inputs: [&'a [u8]; 4],
    pub(crate) rate: usize,
}

impl X4Op for AbsorbX4<'_> {
    type Out = usize;
    #[inline(always)]
    fn run<P: X4Perm>(self, t: P::Token) -> usize {
        P::absorb_x4(t, self.state, self.inputs, self.rate)
    }
}

/// Keccak-f\[1600\] (24 rounds) on four interleaved states, portable, inlined into the caller.
#[inline(always)]
pub fn f1600_x4_portable(state: &mut [[u64; 4]; 25]) {
    PortableX4::permute_x4(tessera_cpu::Portable, state, 24, 4)
}

/// Keccak-f\[1600\] on four interleaved states with AVX2, compiled into the calling island.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn f1600_x4_avx2(t: tessera_cpu::X86Avx2, state: &mut [[u64; 4]; 25]) {
    crate::backend::x86_avx2::Avx2X4::permute_x4(t, state, 24, 4)
}

/// Keccak-f\[1600\] on four interleaved states with NEON (two x2), compiled into the calling
/// island.
#[cfg(target_arch = "aarch64")]
#[inline(always)]
pub fn f1600_x4_neon(t: tessera_cpu::Aarch64Neon, state: &mut [[u64; 4]; 25]) {
    crate::backend::aarch64_neon::NeonX4::permute_x4(t, state, 24, 4)
}

/// Keccak-f\[1600\] on four interleaved states with the SHA3 extension, compiled into the
/// calling island.
#[cfg(target_arch = "aarch64")]
#[inline(always)]
pub fn f1600_x4_sha3(t: tessera_cpu::Aarch64Sha3, state: &mut [[u64; 4]; 25]) {
    crate::backend::aarch64_sha3::Sha3X4::permute_x4(t, state, 24, 4)
}

impl X4Backend {
    /// Keccak-f\[1600\] (24 rounds) on four interleaved states on this backend (one dispatch per
    /// call: pick the backend once, outside the block loop).
    #[inline]
    pub fn f1600_x4(&self, state: &mut [[u64; 4]; 25]) {
        self.run(PermuteX4 {
            state,
            rounds: 24,
            ways: 4,
        })
    }
}
