//! Armv8.2 SHA3-extension backend: EOR3, RAX1, XAR and BCAX on 128-bit registers, each holding
//! lane `i` of two independent states (x2, the natural width of these instructions). The
//! single-state permutation runs the same code with both 64-bit elements holding the one state.

use core::arch::aarch64::*;

use tessera_cpu::Aarch64Sha3;

use super::aarch64_neon::{X2Lane, neon_lane, permute_x4_x2};
use crate::keccak::{FusedLane, keccak_p_fused};
use crate::perm::{X1Perm, X4Perm};

// The SHA3 intrinsics are `#[inline(always)]` with `target_feature(enable = "sha3")`, which the
// trait methods below (no target features of their own) may not inline directly. These
// `#[inline]` shims carry the token's features, like the x86 intrinsics do, and so inline into
// the islands, which are compiled with them.
tessera_cpu::with_features! { Aarch64Sha3;
    #[inline]
    fn eor3(a: uint64x2_t, b: uint64x2_t, c: uint64x2_t) -> uint64x2_t {
        veor3q_u64(a, b, c)
    }
    #[inline]
    fn rax1(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
        vrax1q_u64(a, b)
    }
    #[inline]
    fn xar<const R: i32>(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
        vxarq_u64::<R>(a, b)
    }
    #[inline]
    fn bcax(a: uint64x2_t, b: uint64x2_t, c: uint64x2_t) -> uint64x2_t {
        vbcaxq_u64(a, b, c)
    }
}

neon_lane! { Aarch64Sha3;
    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        // SAFETY: a `Q` carries the `Aarch64Sha3` token, so NEON and SHA3 (EOR3) are available.
        Q(unsafe { eor3(self.0, b.0, c.0) }, self.1)
    }
    #[inline(always)]
    fn rax1(self, b: Self) -> Self {
        // SAFETY: a `Q` carries the `Aarch64Sha3` token, so NEON and SHA3 (RAX1) are available.
        // RAX1: self ^ rotl(b, 1).
        Q(unsafe { rax1(self.0, b.0) }, self.1)
    }
    #[inline(always)]
    fn xar<const L: i32, const R: i32>(self, b: Self) -> Self {
        // SAFETY: a `Q` carries the `Aarch64Sha3` token, so NEON and SHA3 (XAR) are available.
        // XAR: rotr(self ^ b, R) = rotl(self ^ b, L); the immediate R must be in 0..=63, which
        // the intrinsic checks at compile time (a range error is a build error, not UB).
        Q(unsafe { xar::<R>(self.0, b.0) }, self.1)
    }
    #[inline(always)]
    fn bcax(self, b: Self, c: Self) -> Self {
        // SAFETY: a `Q` carries the `Aarch64Sha3` token, so NEON and SHA3 (BCAX) are available.
        // BCAX: self ^ (b & !c).
        Q(unsafe { bcax(self.0, b.0, c.0) }, self.1)
    }
}

/// The single-state permutation for the `Aarch64Sha3` token: the state duplicated in both
/// elements of each register.
pub(crate) struct Sha3X1;

impl X1Perm for Sha3X1 {
    type Token = Aarch64Sha3;

    #[inline(always)]
    fn permute(t: Aarch64Sha3, state: &mut [u64; 25], rounds: usize) {
        let mut a = [Q::splat(t, 0); 25];
        for (r, &l) in a.iter_mut().zip(state.iter()) {
            *r = Q::splat(t, l);
        }
        keccak_p_fused(&mut a, rounds);
        for (r, l) in a.iter().zip(state.iter_mut()) {
            *l = r.low();
        }
    }
}

/// The four-way permutation for the `Aarch64Sha3` token (as `NeonX4`, on this file's `Q`).
pub(crate) struct Sha3X4;

impl X4Perm for Sha3X4 {
    type Token = Aarch64Sha3;

    #[inline(always)]
    fn permute_x4(t: Aarch64Sha3, state: &mut [[u64; 4]; 25], rounds: usize, ways: usize) {
        permute_x4_x2::<Q>(t, state, rounds, ways)
    }
}
