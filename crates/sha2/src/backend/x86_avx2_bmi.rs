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

use tessera_cpu::X86Avx2Bmi;

use crate::block::BlockFn;
use crate::consts::K512;
use crate::md::Sha512Family;

/// The SHA-512 block function for the `X86Avx2Bmi` token. The `W + K` arrays on the stack are
/// wiped by the secret block function (for key-derived input: HMAC key setup and the HMAC
/// hashes); the vector registers holding the schedule are not. The one-shot hash and HMAC are
/// the generic ones, in the row's island.
pub(crate) struct Avx2Bmi;

impl BlockFn<Sha512Family> for Avx2Bmi {
    type Token = X86Avx2Bmi;

    #[inline(always)]
    fn compress(t: X86Avx2Bmi, state: &mut [u64; 8], blocks: &[u8]) {
        compress(t, state, blocks)
    }

    #[inline(always)]
    fn compress_secret(t: X86Avx2Bmi, state: &mut [u64; 8], blocks: &[u8]) {
        compress_secret(t, state, blocks)
    }
}

tessera_cpu::island! {
    /// Compression of whole blocks.
    fn compress(_t: X86Avx2Bmi, state: &mut [u64; 8], blocks: &[u8]) {
        compress512::<false>(state, blocks)
    }
}

tessera_cpu::island! {
    /// The same for key-derived input, with the wiping block function.
    fn compress_secret(_t: X86Avx2Bmi, state: &mut [u64; 8], blocks: &[u8]) {
        compress512::<true>(state, blocks)
    }
}

/// `K512` as pairs, `(K[2j], K[2j+1])`: the addend of an xmm register holding pair `j`.
static K512X1: [[u64; 2]; 40] = {
    let mut t = [[0u64; 2]; 40];
    let mut j = 0;
    while j < 40 {
        t[j] = [K512[2 * j], K512[2 * j + 1]];
        j += 1;
    }
    t
};

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

/// Eight rounds, the register roles coming back to where they started. Round `t` of the eight
/// reads its `W + K` from `$wk[$row + t / 2][$lane + t % 2]` (`t = 8`: the first round of the
/// next eight); the four blocks `$x0..$x3` (the schedule, or nothing) run after rounds 2, 4, 6
/// and 8.
macro_rules! rounds8 {
    ($s:ident, $bc:ident, $hk:ident, $wk:ident, $row:expr, $lane:literal,
     $x0:block, $x1:block, $x2:block, $x3:block) => {
        // `h` is only written before it is read: its `h + W + K` is in `$hk`.
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, _] = $s;
        let mut h: u64;
        let r = $row;
        round!(a, b, c, d, e, f, g, h, $bc, $hk, $wk[r][$lane + 1]);
        round!(h, a, b, c, d, e, f, g, $bc, $hk, $wk[r + 1][$lane]);
        $x0
        round!(g, h, a, b, c, d, e, f, $bc, $hk, $wk[r + 1][$lane + 1]);
        round!(f, g, h, a, b, c, d, e, $bc, $hk, $wk[r + 2][$lane]);
        $x1
        round!(e, f, g, h, a, b, c, d, $bc, $hk, $wk[r + 2][$lane + 1]);
        round!(d, e, f, g, h, a, b, c, $bc, $hk, $wk[r + 3][$lane]);
        $x2
        round!(c, d, e, f, g, h, a, b, $bc, $hk, $wk[r + 3][$lane + 1]);
        round!(b, c, d, e, f, g, h, a, $bc, $hk, $wk[r + 4][$lane]);
        $x3
        $s = [a, b, c, d, e, f, g, h];
    };
}

/// The 80 rounds of one block whose `W + K` pairs are rows `0..40` of `$wk` at `$lane` (row
/// 40 is padding: the last round's next `W + K`, loaded but not used), adding the result into
/// `$state`. `$sched!(j, i)`, if given, runs after every two of the first 64 rounds: the
/// schedule of pair `j + 8` into `m[i]` and row `j + 8` (without it the rows are already
/// there).
macro_rules! block80 {
    ($state:ident, $wk:ident, $lane:literal) => {
        let mut s = *$state;
        let mut bc = s[1] ^ s[2];
        let mut hk = s[7].wrapping_add($wk[0][$lane]);
        for jj in 0..10 {
            rounds8!(s, bc, hk, $wk, 4 * jj, $lane, {}, {}, {}, {});
        }
        for (st, v) in $state.iter_mut().zip(s) {
            *st = st.wrapping_add(v);
        }
    };
    ($state:ident, $wk:ident, $lane:literal, $sched:ident) => {
        let mut s = *$state;
        let mut bc = s[1] ^ s[2];
        let mut hk = s[7].wrapping_add($wk[0][$lane]);
        for jj in 0..4 {
            let j = 8 * jj;
            rounds8!(
                s,
                bc,
                hk,
                $wk,
                j,
                $lane,
                {
                    $sched!(j, 0);
                },
                {
                    $sched!(j + 1, 1);
                },
                {
                    $sched!(j + 2, 2);
                },
                {
                    $sched!(j + 3, 3);
                }
            );
            rounds8!(
                s,
                bc,
                hk,
                $wk,
                j + 4,
                $lane,
                {
                    $sched!(j + 4, 4);
                },
                {
                    $sched!(j + 5, 5);
                },
                {
                    $sched!(j + 6, 6);
                },
                {
                    $sched!(j + 7, 7);
                }
            );
        }
        rounds8!(s, bc, hk, $wk, 32, $lane, {}, {}, {}, {});
        rounds8!(s, bc, hk, $wk, 36, $lane, {}, {}, {}, {});
        for (st, v) in $state.iter_mut().zip(s) {
            *st = st.wrapping_add(v);
        }
    };
}

/// `P[j+8]` into `m[i]` (`i = j % 8`, which held `P[j]`) and `P[j+8] + K` into row `j + 8` of
/// `wk`, with the vector operations of one width: `$k` is the matching table of `K` pairs
/// (one row per pair, as `wk`), `$v` the vector type and the bracket its intrinsics.
macro_rules! schedule_pair {
    ($m:ident, $wk:ident, xmm, $j:expr, $i:literal) => {
        schedule_pair!(
            $m,
            $wk,
            K512X1,
            __m128i,
            [
                _mm_alignr_epi8,
                _mm_xor_si128,
                _mm_or_si128,
                _mm_srli_epi64,
                _mm_slli_epi64,
                _mm_add_epi64,
                _mm_loadu_si128,
                _mm_storeu_si128
            ],
            $j,
            $i
        )
    };
    ($m:ident, $wk:ident, ymm, $j:expr, $i:literal) => {
        schedule_pair!(
            $m,
            $wk,
            K512X2,
            __m256i,
            [
                _mm256_alignr_epi8,
                _mm256_xor_si256,
                _mm256_or_si256,
                _mm256_srli_epi64,
                _mm256_slli_epi64,
                _mm256_add_epi64,
                _mm256_loadu_si256,
                _mm256_storeu_si256
            ],
            $j,
            $i
        )
    };
    ($m:ident, $wk:ident, $k:ident, $v:ty,
     [$alignr:ident, $xor:ident, $or:ident, $srli:ident, $slli:ident, $add:ident,
      $load:ident, $store:ident], $j:expr, $i:literal) => {
        macro_rules! ror {
            ($x:expr, $n:literal) => {
                $or($srli::<$n>($x), $slli::<{ 64 - $n }>($x))
            };
        }
        let x = $alignr($m[($i + 1) % 8], $m[$i], 8);
        let s0 = $xor($xor(ror!(x, 1), ror!(x, 8)), $srli::<7>(x));
        let z = $m[($i + 7) % 8];
        let s1 = $xor($xor(ror!(z, 19), ror!(z, 61)), $srli::<6>(z));
        let y = $alignr($m[($i + 5) % 8], $m[($i + 4) % 8], 8);
        let n = $add($add($m[$i], s0), $add(y, s1));
        $m[$i] = n;
        let at = $j + 8;
        // SAFETY: `j + 8 < 40`: one row of `$k` (one vector).
        let k = unsafe { $load($k.as_ptr().add(at).cast::<$v>()) };
        let nk = $add(n, k);
        // SAFETY: `j + 8 < 41`: one row of `wk` (one vector).
        unsafe { $store($wk.as_mut_ptr().add(at).cast::<$v>(), nk) };
    };
}

tessera_cpu::with_features! { X86Avx2Bmi;
    /// Whole blocks, in pairs while there are two, the last odd one alone. With `WIPE` (for
    /// key-derived input) the `W + K` arrays are wiped afterwards.
    #[inline]
    fn compress512<const WIPE: bool>(state: &mut [u64; 8], blocks: &[u8]) {
        let pairs = blocks.len() / 256 * 256;
        if pairs > 0 {
            compress512_x2::<WIPE>(state, &blocks[..pairs]);
        }
        if blocks.len() - pairs >= 128 {
            compress512_x1::<WIPE>(state, &blocks[pairs..pairs + 128]);
        }
    }

    /// Whole blocks one at a time (`blocks.len()` a multiple of 128), the schedule in xmm
    /// registers.
    #[inline]
    // The last round's `b ^ c` carry and next `h + W + K` are not read.
    #[allow(unused_assignments)]
    fn compress512_x1<const WIPE: bool>(state: &mut [u64; 8], blocks: &[u8]) {
        // Byte swap of each 64-bit word (the message is big-endian).
        let bswap = _mm_set_epi64x(0x0809_0a0b_0c0d_0e0f, 0x0001_0203_0405_0607);
        // Row j: W + K of pair j (rounds 2j, 2j + 1); row 40 is padding.
        let mut wk = [[0u64; 2]; 41];
        for block in blocks.chunks_exact(128) {
            let p = block.as_ptr().cast::<__m128i>();
            let mut m: [__m128i; 8] = core::array::from_fn(|i| {
                // SAFETY: `block` is 128 bytes: eight unaligned 16-byte loads (`i < 8`).
                let v = unsafe { _mm_loadu_si128(p.add(i)) };
                _mm_shuffle_epi8(v, bswap)
            });
            for (i, mi) in m.iter().enumerate() {
                // SAFETY: `i < 8 < 40`: row `i` of `K512X1`.
                let k = unsafe { _mm_loadu_si128(K512X1.as_ptr().add(i).cast::<__m128i>()) };
                let v = _mm_add_epi64(*mi, k);
                // SAFETY: `i < 8 < 41`: row `i` of `wk`.
                unsafe { _mm_storeu_si128(wk.as_mut_ptr().add(i).cast::<__m128i>(), v) };
            }

            macro_rules! schedule {
                ($j:expr, $i:literal) => {
                    schedule_pair!(m, wk, xmm, $j, $i);
                };
            }
            block80!(state, wk, 0, schedule);
        }
        if WIPE {
            zeroize::Zeroize::zeroize(wk.as_flattened_mut());
        }
    }

    /// Whole pairs of blocks (`blocks.len()` a multiple of 256): lane 0 of each ymm register holds
    /// a word pair of the first block, lane 1 the same pair of the second.
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
        // Row j: W + K of pair j, (first block: 2j, 2j + 1; second block: 2j, 2j + 1); row 40 is
        // padding.
        let mut wk = [[0u64; 4]; 41];
        for pair in blocks.chunks_exact(256) {
            let p = pair.as_ptr().cast::<__m128i>();
            let mut m: [__m256i; 8] = core::array::from_fn(|i| {
                // SAFETY: `pair` is 256 bytes: sixteen unaligned 16-byte loads, pair `i < 8` of
                // the first block at `p + i`, of the second at `p + 8 + i`.
                let v = unsafe { _mm256_loadu2_m128i(p.add(8 + i), p.add(i)) };
                _mm256_shuffle_epi8(v, bswap)
            });
            for (i, mi) in m.iter().enumerate() {
                // SAFETY: `i < 8 < 40`: a 32-byte row of `K512X2`.
                let k = unsafe { _mm256_loadu_si256(K512X2.as_ptr().add(i).cast::<__m256i>()) };
                let v = _mm256_add_epi64(*mi, k);
                // SAFETY: `i < 8 < 41`: a 32-byte row of `wk`.
                unsafe { _mm256_storeu_si256(wk.as_mut_ptr().add(i).cast::<__m256i>(), v) };
            }

            // The schedule of both blocks at once.
            macro_rules! schedule {
                ($j:expr, $i:literal) => {
                    schedule_pair!(m, wk, ymm, $j, $i);
                };
            }
            // First block: its rounds run the schedule of both; the second reads lanes 2 and 3.
            block80!(state, wk, 0, schedule);
            block80!(state, wk, 2);
        }
        if WIPE {
            zeroize::Zeroize::zeroize(wk.as_flattened_mut());
        }
    }
}
