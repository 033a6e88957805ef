//! Portable block functions (FIPS 180-4 sections 6.2.2 and 6.4.2), one per family; the
//! whole operations (one-shot hash, one-shot HMAC) are the generic ones of `BlockFn` on them.
#![forbid(unsafe_code)]

use crate::block::BlockFn;
use crate::consts::{K256, K512};
use crate::md::{self, Sha256Family, Sha512Family};

/// A family's portable block-function type `$name`: its block function over `$w` words
/// (rounds unrolled 16 at a time with the eight working variables renamed instead of moved,
/// and the message schedule kept as a 16-word window), plain and wiping.
macro_rules! family {
    (
        $(#[$m:meta])*
        $name:ident: $family:ident, $w:ty, $block:literal, $rounds:literal,
        $k:ident,
        big: [$b0:literal, $b1:literal, $b2:literal, $b3:literal, $b4:literal, $b5:literal],
        small: [$s0:literal, $s1:literal, $s2:literal, $s3:literal, $s4:literal, $s5:literal]
    ) => {
        $(#[$m])*
        pub(crate) struct $name;

        impl BlockFn<$family> for $name {
            type Token = tessera_cpu::Portable;

            #[inline(always)]
            fn compress(_: tessera_cpu::Portable, state: &mut [$w; 8], blocks: &[u8]) {
                Self::compress_wipe::<false>(state, blocks)
            }

            /// The wiping block function: the message-schedule window is wiped after each
            /// block.
            #[inline(always)]
            fn compress_secret(_: tessera_cpu::Portable, state: &mut [$w; 8], blocks: &[u8]) {
                Self::compress_wipe::<true>(state, blocks)
            }

            /// The generic one-shot hash on the block function as a function item, which is
            /// `#[inline(always)]` (a closure would not be), so both calls inline.
            #[inline(always)]
            fn oneshot<const WIPE: bool>(
                _: tessera_cpu::Portable,
                state: &mut [$w; 8],
                data: &[u8],
                prefix: u64,
            ) {
                md::oneshot::<$family, _, WIPE>(Self::compress_wipe::<false>, state, data, prefix)
            }

            /// The generic one-shot HMAC on the wiping block function as a function item.
            #[inline(always)]
            fn hmac(
                _: tessera_cpu::Portable,
                ipad: &[$w; 8],
                opad: &[$w; 8],
                msg: &[u8],
                words: usize,
                out: &mut [$w; 8],
            ) {
                md::hmac::<$family>(Self::compress_wipe::<true>, ipad, opad, msg, words, out)
            }
        }

        impl $name {
            /// The block function; with `WIPE`, the message-schedule window is wiped after each
            /// block (for key-derived input: HMAC key setup and the HMAC hashes).
            #[inline(always)]
            fn compress_wipe<const WIPE: bool>(state: &mut [$w; 8], blocks: &[u8]) {
                const N: usize = core::mem::size_of::<$w>();
                for block in blocks.chunks_exact($block) {
                    let mut w = [0 as $w; 16];
                    for (wi, c) in w.iter_mut().zip(block.chunks_exact(N)) {
                        let mut b = [0u8; N];
                        b.copy_from_slice(c);
                        *wi = <$w>::from_be_bytes(b);
                    }
                    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
                    // Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b; this round's b ^ c is the previous
                    // round's a ^ b.
                    let mut bc = b ^ c;
                    // One round (FIPS 180-4 6.2.2 / 6.4.2 step 3); the caller renames the
                    // variables.
                    macro_rules! round {
                        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident,
                         $h:ident, $t:expr, $i:literal, $sched:expr) => {
                            if $sched {
                                // W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16]
                                let x = w[($i + 1) % 16];
                                let y = w[($i + 14) % 16];
                                let s0 = x.rotate_right($s0) ^ x.rotate_right($s1) ^ (x >> $s2);
                                let s1 = y.rotate_right($s3) ^ y.rotate_right($s4) ^ (y >> $s5);
                                w[$i] = w[$i]
                                    .wrapping_add(s0)
                                    .wrapping_add(w[($i + 9) % 16])
                                    .wrapping_add(s1);
                            }
                            // The new e is d + (h + K + W) + Ch + S1, summed so that only the
                            // last two additions wait for e (the rounds are latency-bound).
                            let hk = $h.wrapping_add($k[$t + $i]).wrapping_add(w[$i]);
                            let ch = $g ^ ($e & ($f ^ $g));
                            let sig1 = $e.rotate_right($b3) ^ $e.rotate_right($b4) ^ $e.rotate_right($b5);
                            let t1 = hk.wrapping_add(ch).wrapping_add(sig1);
                            let sig0 = $a.rotate_right($b0) ^ $a.rotate_right($b1) ^ $a.rotate_right($b2);
                            let ab = $a ^ $b;
                            let maj = (ab & bc) ^ $b;
                            bc = ab;
                            $d = $d.wrapping_add(hk).wrapping_add(ch).wrapping_add(sig1);
                            $h = t1.wrapping_add(sig0.wrapping_add(maj));
                        };
                    }
                    let mut t = 0;
                    while t < $rounds {
                        let sched = t > 0;
                        round!(a, b, c, d, e, f, g, h, t, 0, sched);
                        round!(h, a, b, c, d, e, f, g, t, 1, sched);
                        round!(g, h, a, b, c, d, e, f, t, 2, sched);
                        round!(f, g, h, a, b, c, d, e, t, 3, sched);
                        round!(e, f, g, h, a, b, c, d, t, 4, sched);
                        round!(d, e, f, g, h, a, b, c, t, 5, sched);
                        round!(c, d, e, f, g, h, a, b, t, 6, sched);
                        round!(b, c, d, e, f, g, h, a, t, 7, sched);
                        round!(a, b, c, d, e, f, g, h, t, 8, sched);
                        round!(h, a, b, c, d, e, f, g, t, 9, sched);
                        round!(g, h, a, b, c, d, e, f, t, 10, sched);
                        round!(f, g, h, a, b, c, d, e, t, 11, sched);
                        round!(e, f, g, h, a, b, c, d, t, 12, sched);
                        round!(d, e, f, g, h, a, b, c, t, 13, sched);
                        round!(c, d, e, f, g, h, a, b, t, 14, sched);
                        round!(b, c, d, e, f, g, h, a, t, 15, sched);
                        t += 16;
                    }
                    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
                        *s = s.wrapping_add(v);
                    }
                    if WIPE {
                        zeroize::Zeroize::zeroize(&mut w);
                    }
                }
            }
        }
    };
}

family!(
    /// SHA-224/256 (FIPS 180-4 6.2.2; functions 4.1.2).
    Sha256Portable: Sha256Family, u32, 64, 64, K256,
    big: [2, 13, 22, 6, 11, 25],
    small: [7, 18, 3, 17, 19, 10]
);

family!(
    /// SHA-384/512 (FIPS 180-4 6.4.2; functions 4.1.3).
    Sha512Portable: Sha512Family, u64, 128, 80, K512,
    big: [28, 34, 39, 14, 18, 41],
    small: [1, 8, 7, 19, 61, 6]
);
