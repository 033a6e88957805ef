//! Plain NEON backend (no SHA3 extension, e.g. Cortex-A53/A72): two independent Keccak states,
//! lane `i` of state `w` in 64-bit element `w` of 128-bit register `i`. Rotations are SHL +
//! SRI, AND-NOT is BIC.

use core::arch::aarch64::*;

use tessera_cpu::Aarch64Neon;

use crate::keccak::{FusedLane, keccak_p_fused};
use crate::perm::X4Perm;

/// A lane type of an aarch64 backend file (its `Q`, made by [`neon_lane!`]): lane `i` of two
/// states in one 128-bit register, built only from the backend's token.
pub(super) trait X2Lane: FusedLane {
    /// The backend's capability token.
    type Token: Copy;
    /// `v` in both elements.
    fn splat(t: Self::Token, v: u64) -> Self;
    /// The two elements `src[0]`, `src[1]`.
    fn load(t: Self::Token, src: &[u64; 2]) -> Self;
    /// Both elements into `dst`.
    fn store(self, dst: &mut [u64; 2]);
    /// Element 0.
    fn low(self) -> u64;
}

/// The lane type `Q` of an aarch64 backend file: lane `i` of two states in one 128-bit
/// register, with the backend's token in a zero-sized field, which makes the safe `FusedLane`
/// and [`X2Lane`] methods sound by construction: a `Q` cannot exist unless the token's features
/// were proven available (it is only built from the token). `xor`, `xor_rc` and the
/// [`X2Lane`] loads and stores are plain NEON, which every aarch64 token includes; the file
/// gives the fused operations (`xor3`, `rax1`, `xar`, `bcax`).
macro_rules! neon_lane {
    ($token:ident; $($fused:item)*) => {
        #[derive(Clone, Copy)]
        struct Q(uint64x2_t, tessera_cpu::$token);

        impl FusedLane for Q {
            #[inline(always)]
            fn xor(self, o: Self) -> Self {
                // SAFETY: a `Q` carries a token that proves NEON (see the type).
                Q(unsafe { veorq_u64(self.0, o.0) }, self.1)
            }
            #[inline(always)]
            fn xor_rc(self, rc: u64) -> Self {
                self.xor(Q::splat(self.1, rc))
            }
            $($fused)*
        }

        impl super::aarch64_neon::X2Lane for Q {
            type Token = tessera_cpu::$token;
            #[inline(always)]
            fn splat(t: tessera_cpu::$token, v: u64) -> Self {
                // SAFETY: the token `t` proves NEON (every aarch64 backend token includes it).
                Q(unsafe { vdupq_n_u64(v) }, t)
            }
            #[inline(always)]
            fn load(t: tessera_cpu::$token, src: &[u64; 2]) -> Self {
                // SAFETY: NEON proven by `t`; `src` is two readable u64s and vld1q_u64 needs
                // only 8-byte alignment.
                Q(unsafe { vld1q_u64(src.as_ptr()) }, t)
            }
            #[inline(always)]
            fn store(self, dst: &mut [u64; 2]) {
                // SAFETY: NEON proven by the token in `self`; `dst` is two writable u64s and
                // vst1q_u64 needs only 8-byte alignment.
                unsafe { vst1q_u64(dst.as_mut_ptr(), self.0) }
            }
            #[inline(always)]
            fn low(self) -> u64 {
                // SAFETY: NEON proven by the token in `self`.
                unsafe { vgetq_lane_u64::<0>(self.0) }
            }
        }
    };
}
pub(super) use neon_lane;

// Without the SHA3 extension each fused operation is two or three plain instructions.
neon_lane! { Aarch64Neon;
    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        self.xor(b).xor(c)
    }
    #[inline(always)]
    fn rax1(self, b: Self) -> Self {
        // SAFETY: a `Q` carries the `Aarch64Neon` token, so NEON (SHL, SRI) is available.
        // self ^ rotl(b, 1); the immediates are checked at compile time by the intrinsics.
        self.xor(Q(
            unsafe { vsriq_n_u64::<63>(vshlq_n_u64::<1>(b.0), b.0) },
            self.1,
        ))
    }
    #[inline(always)]
    fn xar<const L: i32, const R: i32>(self, b: Self) -> Self {
        let t = self.xor(b).0;
        // SAFETY: a `Q` carries the `Aarch64Neon` token, so NEON (SHL, SRI) is available.
        // rotl(t, L) with R = 64 - L; the immediates (SHL 0..=63, SRI 1..=64) are checked at
        // compile time by the intrinsics, so a bad one is a build error, not UB.
        Q(unsafe { vsriq_n_u64::<R>(vshlq_n_u64::<L>(t), t) }, self.1)
    }
    #[inline(always)]
    fn bcax(self, b: Self, c: Self) -> Self {
        // SAFETY: a `Q` carries the `Aarch64Neon` token, so NEON (BIC) is available.
        // vbicq_u64(b, c) = b & !c.
        self.xor(Q(unsafe { vbicq_u64(b.0, c.0) }, self.1))
    }
}

/// Keccak-p on the first `ways` (1..=4) of four interleaved states as x2 permutations on the
/// lane type `Q`: the two states in ways `2h` and `2h + 1` for each needed `h`. Compiled into
/// the calling island (this file's and `aarch64_sha3.rs`'s rows differ only in `Q`).
#[inline(always)]
pub(super) fn permute_x4_x2<Q: X2Lane>(
    t: Q::Token,
    state: &mut [[u64; 4]; 25],
    rounds: usize,
    ways: usize,
) {
    for h in 0..ways.div_ceil(2).min(2) {
        let mut a = [Q::splat(t, 0); 25];
        for (r, l) in a.iter_mut().zip(state.iter()) {
            *r = Q::load(t, &l.as_chunks::<2>().0[h]);
        }
        keccak_p_fused(&mut a, rounds);
        for (r, l) in a.iter().zip(state.iter_mut()) {
            r.store(&mut l.as_chunks_mut::<2>().0[h]);
        }
    }
}

/// The four-way permutation for the `Aarch64Neon` token: two x2 permutations for 3 or 4 ways,
/// one for 1 or 2.
pub(crate) struct NeonX4;

impl X4Perm for NeonX4 {
    type Token = tessera_cpu::Aarch64Neon;

    #[inline(always)]
    fn permute_x4(t: Aarch64Neon, state: &mut [[u64; 4]; 25], rounds: usize, ways: usize) {
        permute_x4_x2::<Q>(t, state, rounds, ways)
    }
}
