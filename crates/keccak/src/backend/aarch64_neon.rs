//! Plain NEON backend (no SHA3 extension, e.g. Cortex-A53/A72): two independent Keccak states,
//! lane `i` of state `w` in 64-bit element `w` of 128-bit register `i`. Rotations are SHL +
//! SRI, AND-NOT is BIC.

use core::arch::aarch64::*;

use crate::keccak::{FusedLane, keccak_p_fused};

/// The lane type `Q` of an aarch64 backend file: lane `i` of two states in one 128-bit
/// register, with the backend's token in a zero-sized field, which makes the safe `FusedLane`
/// methods sound by construction: a `Q` cannot exist unless the token's features were proven
/// available (it is only built from the token an island receives). `xor` and `xor_rc` are plain
/// NEON, which every aarch64 token includes; the file gives the fused operations (`xor3`,
/// `rax1`, `xar`, `bcax`).
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
                // SAFETY: a `Q` carries a token that proves NEON (see the type).
                self.xor(Q(unsafe { vdupq_n_u64(rc) }, self.1))
            }
            $($fused)*
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

/// The x4 entry point of an aarch64 backend, generated once per lane type: the body that runs
/// four interleaved states as two x2 permutations on the file's `Q` (inlined into whatever
/// island calls it), and the island `permute_x4` compiled for the backend's token. The plain
/// NEON backend here and the SHA3-extension backend differ only in `Q`'s `FusedLane` methods.
macro_rules! x4_entry_point {
    ($token:ident) => {
        /// Keccak-p on the first `ways` (1..=4) of four interleaved states: the two states in
        /// ways `2h` and `2h + 1` for each needed `h`. Compiled into the calling island.
        #[inline(always)]
        pub(crate) fn permute_x4_body(
            t: tessera_cpu::$token,
            state: &mut [[u64; 4]; 25],
            rounds: usize,
            ways: usize,
        ) {
            for h in 0..ways.div_ceil(2).min(2) {
                // SAFETY: the token `t` proves NEON (every aarch64 backend token includes it).
                let mut a = [Q(unsafe { vdupq_n_u64(0) }, t); 25];
                for (r, l) in a.iter_mut().zip(state.iter()) {
                    let src = &l[2 * h..2 * h + 2];
                    // SAFETY: `src` is two readable u64s; vld1q_u64 needs only 8-byte alignment.
                    r.0 = unsafe { vld1q_u64(src.as_ptr()) };
                }
                keccak_p_fused(&mut a, rounds);
                for (r, l) in a.iter().zip(state.iter_mut()) {
                    let dst = &mut l[2 * h..2 * h + 2];
                    // SAFETY: `dst` is two writable u64s; vst1q_u64 needs only 8-byte alignment.
                    unsafe { vst1q_u64(dst.as_mut_ptr(), r.0) };
                }
            }
        }

        tessera_cpu::island! {
            /// Keccak-p on the first `ways` of four interleaved states (two x2 permutations for
            /// 3 or 4 ways, one for 1 or 2).
            pub(crate) fn permute_x4(
                t: $token,
                state: &mut [[u64; 4]; 25],
                rounds: usize,
                ways: usize,
            ) {
                permute_x4_body(t, state, rounds, ways)
            }
        }
    };
}
pub(super) use x4_entry_point;

x4_entry_point!(Aarch64Neon);
