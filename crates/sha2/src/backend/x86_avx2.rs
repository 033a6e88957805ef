//! SHA-384/512 on x86_64 with AVX2 + BMI2: the message schedule (FIPS 180-4 6.4.2 step 1) runs
//! in vector registers, interleaved with the scalar rounds, which use RORX.
//!
//! Two words at a time because `W[t]` and `W[t+1]` both depend only on words at least two back:
//! for the pair `P[j] = (W[2j], W[2j+1])`,
//! `P[j] = P[j-8] + s0((W[2j-15], W[2j-14])) + (W[2j-7], W[2j-6]) + s1(P[j-1])`.
//! The vector unit computes `P[j+8]` and `P[j+8] + K` while the scalar unit does the rounds of
//! `P[j]`, taking the schedule off the scalar ports.
//!
//! Two blocks at a time when the input has them: each 128-bit lane of a ymm register holds the
//! same pair of one block, so one schedule instruction serves both blocks. The schedule of both
//! runs during the rounds of the first block; the rounds of the second read their `W + K` from
//! the stack array. An odd last block (and a one-block call) takes the xmm path.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_add_epi64, _mm_alignr_epi8, _mm_loadu_si128, _mm_or_si128,
    _mm_set_epi64x, _mm_shuffle_epi8, _mm_slli_epi64, _mm_srli_epi64, _mm_storeu_si128,
    _mm_xor_si128, _mm256_add_epi64, _mm256_alignr_epi8, _mm256_loadu_si256, _mm256_loadu2_m128i,
    _mm256_or_si256, _mm256_set_epi64x, _mm256_shuffle_epi8, _mm256_slli_epi64, _mm256_srli_epi64,
    _mm256_storeu_si256, _mm256_xor_si256,
};

use crate::backend::B512;
use crate::consts::K512;

/// The token pair this backend needs.
pub(crate) type Token = (tessera_cpu::X86Avx2, tessera_cpu::X86Bmi);

/// `K512` with each pair repeated, `(K[2j], K[2j+1], K[2j], K[2j+1])`: the addend of a ymm
/// register holding pair `j` of two blocks.
static K512X2: [[u64; 4]; 40] = {
    let mut t = [[0u64; 4]; 40];
    let mut j = 0;
    while j < 40 {
        t[j] = [K512[2 * j], K512[2 * j + 1], K512[2 * j], K512[2 * j + 1]];
        j += 1;
    }
    t
};

/// SHA-512 compression of whole 128-byte blocks.
#[target_feature(enable = "avx2,bmi1,bmi2")]
#[inline]
fn compress512(state: &mut [u64; 8], blocks: &[u8]) {
    compress512_impl::<false>(state, blocks)
}

/// The same for key-derived input (HMAC key setup and the HMAC hashes): the `W + K` arrays on
/// the stack are wiped afterwards. The vector registers holding the schedule are not.
#[target_feature(enable = "avx2,bmi1,bmi2")]
#[inline]
fn compress512_secret(state: &mut [u64; 8], blocks: &[u8]) {
    compress512_impl::<true>(state, blocks)
}

#[target_feature(enable = "avx2,bmi1,bmi2")]
#[inline]
fn compress512_impl<const WIPE: bool>(state: &mut [u64; 8], blocks: &[u8]) {
    let pairs = blocks.len() / 256 * 256;
    if pairs > 0 {
        compress512_x2::<WIPE>(state, &blocks[..pairs]);
    }
    if blocks.len() - pairs >= 128 {
        compress512_x1::<WIPE>(state, &blocks[pairs..pairs + 128]);
    }
}

/// One SHA-512 round (FIPS 180-4 6.4.2 step 3) with the register roles rotated by the caller.
/// `$hk` is this round's `h + W + K`, and is left holding the next round's (this round's `g`
/// is the next round's `h`; `$wkn` is the next round's `W + K`). `$bc` carries `b ^ c`.
///
/// Two choices, both measured on Zen 3 (together about 4% on long inputs):
/// - `h + W + K` one round ahead: the load is then out of the way, and the compiler orders
///   `T1 = ((hk + (e & f)) + (!e & g)) + S1(e)` with the slowest operand, `S1`, last. With the
///   load in the round it added `Ch` and `S1` first, one more addition on the `e` chain.
/// - `Ch(e, f, g) = (e & f) + (!e & g)`: the two terms have no bit in common, so their sum is
///   their OR; both are one operation away from `e` and fold into the additions of `T1`.
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident,
     $bc:ident, $hk:ident, $wkn:expr) => {
        let sig1 = $e.rotate_right(14) ^ $e.rotate_right(18) ^ $e.rotate_right(41);
        let t1 = $hk
            .wrapping_add($e & $f)
            .wrapping_add(!$e & $g)
            .wrapping_add(sig1);
        $d = $d.wrapping_add(t1);
        let sig0 = $a.rotate_right(28) ^ $a.rotate_right(34) ^ $a.rotate_right(39);
        // Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b, and this round's b ^ c is the previous
        // round's a ^ b: one carried value saves two operations per round.
        let ab = $a ^ $b;
        let maj = (ab & $bc) ^ $b;
        $bc = ab;
        $h = t1.wrapping_add(sig0.wrapping_add(maj));
        $hk = $g.wrapping_add($wkn);
    };
}

/// Eight rounds, the register roles coming back to where they started. `$wk!(t)` gives
/// `W + K` of round `t` of the eight (`t = 8`: the first round of the next eight); the four
/// blocks `$x0..$x3` (the schedule, or nothing) run after rounds 2, 4, 6 and 8.
macro_rules! rounds8 {
    ($s:ident, $bc:ident, $hk:ident, $wk:ident, $x0:block, $x1:block, $x2:block, $x3:block) => {
        // `h` is only written before it is read: its `h + W + K` is in `$hk`.
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, _] = $s;
        let mut h: u64;
        round!(a, b, c, d, e, f, g, h, $bc, $hk, $wk!(1));
        round!(h, a, b, c, d, e, f, g, $bc, $hk, $wk!(2));
        $x0
        round!(g, h, a, b, c, d, e, f, $bc, $hk, $wk!(3));
        round!(f, g, h, a, b, c, d, e, $bc, $hk, $wk!(4));
        $x1
        round!(e, f, g, h, a, b, c, d, $bc, $hk, $wk!(5));
        round!(d, e, f, g, h, a, b, c, $bc, $hk, $wk!(6));
        $x2
        round!(c, d, e, f, g, h, a, b, $bc, $hk, $wk!(7));
        round!(b, c, d, e, f, g, h, a, $bc, $hk, $wk!(8));
        $x3
        $s = [a, b, c, d, e, f, g, h];
    };
}

/// Whole blocks one at a time (`blocks.len()` a multiple of 128), the schedule in xmm
/// registers.
#[target_feature(enable = "avx2,bmi1,bmi2")]
#[inline]
// The last round's `b ^ c` carry and next `h + W + K` are not read.
#[allow(unused_assignments)]
fn compress512_x1<const WIPE: bool>(state: &mut [u64; 8], blocks: &[u8]) {
    // Byte swap of each 64-bit word (the message is big-endian).
    let bswap = _mm_set_epi64x(0x0809_0a0b_0c0d_0e0f, 0x0001_0203_0405_0607);
    let mut wk = [0u64; 80];
    for block in blocks.chunks_exact(128) {
        let p = block.as_ptr().cast::<__m128i>();
        // SAFETY: `block` is 128 bytes: eight unaligned 16-byte loads.
        let mut m: [__m128i; 8] =
            core::array::from_fn(|i| unsafe { _mm_shuffle_epi8(_mm_loadu_si128(p.add(i)), bswap) });
        for (i, mi) in m.iter().enumerate() {
            // SAFETY: `2 * i + 2 <= 16 <= 80`: loads inside `K512`, stores inside `wk`.
            unsafe {
                let k = _mm_loadu_si128(K512.as_ptr().add(2 * i).cast::<__m128i>());
                _mm_storeu_si128(
                    wk.as_mut_ptr().add(2 * i).cast::<__m128i>(),
                    _mm_add_epi64(*mi, k),
                );
            }
        }

        let mut s = *state;
        let mut bc = s[1] ^ s[2];
        let mut hk = s[7].wrapping_add(wk[0]);
        macro_rules! ror {
            ($x:expr, $n:literal) => {
                _mm_or_si128(_mm_srli_epi64::<$n>($x), _mm_slli_epi64::<{ 64 - $n }>($x))
            };
        }
        // P[j+8] into m[i] (i = j % 8, which held P[j]) and W + K into `wk`.
        macro_rules! schedule {
            ($j:expr, $i:literal) => {
                let x = _mm_alignr_epi8(m[($i + 1) % 8], m[$i], 8);
                let s0 = _mm_xor_si128(
                    _mm_xor_si128(ror!(x, 1), ror!(x, 8)),
                    _mm_srli_epi64::<7>(x),
                );
                let z = m[($i + 7) % 8];
                let s1 = _mm_xor_si128(
                    _mm_xor_si128(ror!(z, 19), ror!(z, 61)),
                    _mm_srli_epi64::<6>(z),
                );
                let y = _mm_alignr_epi8(m[($i + 5) % 8], m[($i + 4) % 8], 8);
                let n = _mm_add_epi64(_mm_add_epi64(m[$i], s0), _mm_add_epi64(y, s1));
                m[$i] = n;
                let at = 2 * ($j + 8);
                // SAFETY: `j + 8 < 40`, so `at + 2 <= 80`: inside `K512` and `wk`.
                unsafe {
                    let k = _mm_loadu_si128(K512.as_ptr().add(at).cast::<__m128i>());
                    _mm_storeu_si128(
                        wk.as_mut_ptr().add(at).cast::<__m128i>(),
                        _mm_add_epi64(n, k),
                    );
                }
            };
        }
        // Rounds 0..64 with the schedule of P[8..40], then rounds 64..80.
        for jj in 0..4 {
            let base = 16 * jj;
            macro_rules! wk0 {
                ($t:expr) => {
                    wk[base + $t]
                };
            }
            macro_rules! wk1 {
                ($t:expr) => {
                    wk[base + 8 + $t]
                };
            }
            let j = 8 * jj;
            rounds8!(
                s,
                bc,
                hk,
                wk0,
                {
                    schedule!(j, 0);
                },
                {
                    schedule!(j + 1, 1);
                },
                {
                    schedule!(j + 2, 2);
                },
                {
                    schedule!(j + 3, 3);
                }
            );
            rounds8!(
                s,
                bc,
                hk,
                wk1,
                {
                    schedule!(j + 4, 4);
                },
                {
                    schedule!(j + 5, 5);
                },
                {
                    schedule!(j + 6, 6);
                },
                {
                    schedule!(j + 7, 7);
                }
            );
        }
        macro_rules! wk8 {
            ($t:expr) => {
                wk[64 + $t]
            };
        }
        rounds8!(s, bc, hk, wk8, {}, {}, {}, {});
        // The last round's next `W + K` is not used (the clamp keeps the index in bounds).
        macro_rules! wk9 {
            ($t:expr) => {
                wk[(72 + $t).min(79)]
            };
        }
        rounds8!(s, bc, hk, wk9, {}, {}, {}, {});
        for (st, v) in state.iter_mut().zip(s) {
            *st = st.wrapping_add(v);
        }
    }
    if WIPE {
        zeroize::Zeroize::zeroize(&mut wk);
    }
}

/// Whole pairs of blocks (`blocks.len()` a multiple of 256): lane 0 of each ymm register holds
/// a word pair of the first block, lane 1 the same pair of the second.
#[target_feature(enable = "avx2,bmi1,bmi2")]
#[inline]
// The last round's `b ^ c` carry and next `h + W + K` are not read.
#[allow(unused_assignments)]
fn compress512_x2<const WIPE: bool>(state: &mut [u64; 8], blocks: &[u8]) {
    let bswap = _mm256_set_epi64x(
        0x0809_0a0b_0c0d_0e0f,
        0x0001_0203_0405_0607,
        0x0809_0a0b_0c0d_0e0f,
        0x0001_0203_0405_0607,
    );
    // Row j: W + K of pair j, (first block: 2j, 2j + 1; second block: 2j, 2j + 1).
    let mut wk = [[0u64; 4]; 40];
    for pair in blocks.chunks_exact(256) {
        let p = pair.as_ptr().cast::<__m128i>();
        // SAFETY: `pair` is 256 bytes: sixteen unaligned 16-byte loads, pair i of the first
        // block at `p + i`, of the second at `p + 8 + i`.
        let mut m: [__m256i; 8] = core::array::from_fn(|i| unsafe {
            _mm256_shuffle_epi8(_mm256_loadu2_m128i(p.add(8 + i), p.add(i)), bswap)
        });
        for (i, mi) in m.iter().enumerate() {
            // SAFETY: `i < 8 < 40`: a 32-byte row of `K512X2` and of `wk`.
            unsafe {
                let k = _mm256_loadu_si256(K512X2.as_ptr().add(i).cast::<__m256i>());
                _mm256_storeu_si256(
                    wk.as_mut_ptr().add(i).cast::<__m256i>(),
                    _mm256_add_epi64(*mi, k),
                );
            }
        }

        macro_rules! ror {
            ($x:expr, $n:literal) => {
                _mm256_or_si256(
                    _mm256_srli_epi64::<$n>($x),
                    _mm256_slli_epi64::<{ 64 - $n }>($x),
                )
            };
        }
        // P[j+8] of both blocks into m[i] (i = j % 8, which held P[j]) and W + K into `wk`.
        macro_rules! schedule {
            ($j:expr, $i:literal) => {
                let x = _mm256_alignr_epi8(m[($i + 1) % 8], m[$i], 8);
                let s0 = _mm256_xor_si256(
                    _mm256_xor_si256(ror!(x, 1), ror!(x, 8)),
                    _mm256_srli_epi64::<7>(x),
                );
                let z = m[($i + 7) % 8];
                let s1 = _mm256_xor_si256(
                    _mm256_xor_si256(ror!(z, 19), ror!(z, 61)),
                    _mm256_srli_epi64::<6>(z),
                );
                let y = _mm256_alignr_epi8(m[($i + 5) % 8], m[($i + 4) % 8], 8);
                let n = _mm256_add_epi64(_mm256_add_epi64(m[$i], s0), _mm256_add_epi64(y, s1));
                m[$i] = n;
                let at = $j + 8;
                // SAFETY: `j + 8 < 40`: a 32-byte row of `K512X2` and of `wk`.
                unsafe {
                    let k = _mm256_loadu_si256(K512X2.as_ptr().add(at).cast::<__m256i>());
                    _mm256_storeu_si256(
                        wk.as_mut_ptr().add(at).cast::<__m256i>(),
                        _mm256_add_epi64(n, k),
                    );
                }
            };
        }

        // First block: rounds 0..64 with the schedule of P[8..40] of both blocks, then
        // rounds 64..80.
        let mut s = *state;
        let mut bc = s[1] ^ s[2];
        let mut hk = s[7].wrapping_add(wk[0][0]);
        for jj in 0..4 {
            let j = 8 * jj;
            macro_rules! wk0 {
                ($t:expr) => {
                    wk[j + $t / 2][$t % 2]
                };
            }
            macro_rules! wk1 {
                ($t:expr) => {
                    wk[j + 4 + $t / 2][$t % 2]
                };
            }
            rounds8!(
                s,
                bc,
                hk,
                wk0,
                {
                    schedule!(j, 0);
                },
                {
                    schedule!(j + 1, 1);
                },
                {
                    schedule!(j + 2, 2);
                },
                {
                    schedule!(j + 3, 3);
                }
            );
            rounds8!(
                s,
                bc,
                hk,
                wk1,
                {
                    schedule!(j + 4, 4);
                },
                {
                    schedule!(j + 5, 5);
                },
                {
                    schedule!(j + 6, 6);
                },
                {
                    schedule!(j + 7, 7);
                }
            );
        }
        macro_rules! wk8 {
            ($t:expr) => {
                wk[32 + $t / 2][$t % 2]
            };
        }
        rounds8!(s, bc, hk, wk8, {}, {}, {}, {});
        // The last round's next `W + K` is not used (the clamp keeps the index in bounds).
        macro_rules! wk9 {
            ($t:expr) => {
                wk[(36 + $t / 2).min(39)][$t % 2]
            };
        }
        rounds8!(s, bc, hk, wk9, {}, {}, {}, {});
        for (st, v) in state.iter_mut().zip(s) {
            *st = st.wrapping_add(v);
        }

        // Second block: its W + K is all in `wk` already.
        let mut s = *state;
        let mut bc = s[1] ^ s[2];
        let mut hk = s[7].wrapping_add(wk[0][2]);
        for jj in 0..9 {
            let j = 4 * jj;
            macro_rules! wkt {
                ($t:expr) => {
                    wk[j + $t / 2][2 + $t % 2]
                };
            }
            rounds8!(s, bc, hk, wkt, {}, {}, {}, {});
        }
        macro_rules! wk9 {
            ($t:expr) => {
                wk[(36 + $t / 2).min(39)][2 + $t % 2]
            };
        }
        rounds8!(s, bc, hk, wk9, {}, {}, {}, {});
        for (st, v) in state.iter_mut().zip(s) {
            *st = st.wrapping_add(v);
        }
    }
    if WIPE {
        zeroize::Zeroize::zeroize(wk.as_flattened_mut());
    }
}

crate::engine::islands!(
    B512,
    u64,
    Token,
    "avx2,bmi1,bmi2",
    compress512,
    compress512_secret
);
