//! SHA-384/512 on x86_64 with AVX2 + BMI2: the message schedule (FIPS 180-4 6.4.2 step 1) runs
//! two words at a time in vector registers, interleaved with the scalar rounds, which use RORX.
//!
//! Two words at a time because `W[t]` and `W[t+1]` both depend only on words at least two back:
//! for the pair `P[j] = (W[2j], W[2j+1])`,
//! `P[j] = P[j-8] + s0((W[2j-15], W[2j-14])) + (W[2j-7], W[2j-6]) + s1(P[j-1])`.
//! The vector unit computes `P[j+8]` and `P[j+8] + K` while the scalar unit does the rounds of
//! `P[j]`, taking the schedule off the scalar ports.

use core::arch::x86_64::{
    __m128i, _mm_add_epi64, _mm_alignr_epi8, _mm_loadu_si128, _mm_or_si128, _mm_set_epi64x,
    _mm_shuffle_epi8, _mm_slli_epi64, _mm_srli_epi64, _mm_storeu_si128, _mm_xor_si128,
};

use crate::backend::B512;
use crate::consts::K512;

/// The token pair this backend needs.
pub(crate) type Token = (tessera_cpu::X86Avx2, tessera_cpu::X86Bmi);

/// SHA-512 compression of whole 128-byte blocks.
#[target_feature(enable = "avx2,bmi1,bmi2")]
#[inline]
fn compress512(state: &mut [u64; 8], blocks: &[u8]) {
    compress512_impl::<false>(state, blocks)
}

/// The same for key-derived input (HMAC key setup and the HMAC hashes): the `W + K` array on
/// the stack is wiped afterwards. The vector registers holding the schedule are not.
#[target_feature(enable = "avx2,bmi1,bmi2")]
#[inline]
fn compress512_secret(state: &mut [u64; 8], blocks: &[u8]) {
    compress512_impl::<true>(state, blocks)
}

#[target_feature(enable = "avx2,bmi1,bmi2")]
#[inline]
fn compress512_impl<const WIPE: bool>(state: &mut [u64; 8], blocks: &[u8]) {
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

        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
        // Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b, and this round's b ^ c is the previous
        // round's a ^ b: one carried value saves two operations per round.
        let mut bc = b ^ c;
        macro_rules! round {
            ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident,
             $t:expr) => {
                // The new e is d + (h + W + K) + Ch + S1: summed in that order so that only
                // the last two additions wait for e (latency, not throughput, bounds the rounds).
                let hk = $h.wrapping_add(wk[$t]);
                let ch = $g ^ ($e & ($f ^ $g));
                let sig1 = $e.rotate_right(14) ^ $e.rotate_right(18) ^ $e.rotate_right(41);
                let t1 = hk.wrapping_add(ch).wrapping_add(sig1);
                $d = $d.wrapping_add(hk).wrapping_add(ch).wrapping_add(sig1);
                let sig0 = $a.rotate_right(28) ^ $a.rotate_right(34) ^ $a.rotate_right(39);
                let ab = $a ^ $b;
                let maj = (ab & bc) ^ $b;
                bc = ab;
                $h = t1.wrapping_add(sig0.wrapping_add(maj));
            };
        }
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
        macro_rules! step {
            ($jj:expr, $i:literal, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident,
             $g:ident, $h:ident) => {
                let j = 8 * $jj + $i;
                round!($a, $b, $c, $d, $e, $f, $g, $h, 2 * j);
                round!($h, $a, $b, $c, $d, $e, $f, $g, 2 * j + 1);
                if $jj < 4 {
                    schedule!(j, $i);
                }
            };
        }
        for jj in 0..5 {
            step!(jj, 0, a, b, c, d, e, f, g, h);
            step!(jj, 1, g, h, a, b, c, d, e, f);
            step!(jj, 2, e, f, g, h, a, b, c, d);
            step!(jj, 3, c, d, e, f, g, h, a, b);
            step!(jj, 4, a, b, c, d, e, f, g, h);
            step!(jj, 5, g, h, a, b, c, d, e, f);
            step!(jj, 6, e, f, g, h, a, b, c, d);
            step!(jj, 7, c, d, e, f, g, h, a, b);
        }
        for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *s = s.wrapping_add(v);
        }
    }
    if WIPE {
        zeroize::Zeroize::zeroize(&mut wk);
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
