//! SHA-256 with the x86 SHA extensions (SHA256RNDS2, SHA256MSG1, SHA256MSG2).
//!
//! The chaining value lives in two registers in the order the instructions want, ABEF and
//! CDGH (a in the top lane); each SHA256RNDS2 does two rounds with the low two words of
//! `W[t] + K[t]`. Message schedule (FIPS 180-4 6.2.2 step 1), four words at a time:
//! `W[t..t+4] = MSG2(MSG1(W[t-16..], W[t-12..]) + W[t-7..t-3], W[t-4..])`.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_blend_epi16, _mm_loadu_si128, _mm_set_epi32,
    _mm_set_epi64x, _mm_sha256msg1_epu32, _mm_sha256msg2_epu32, _mm_sha256rnds2_epu32,
    _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_storeu_si128,
};

use tessera_cpu::X86ShaNi;

use crate::block::BlockFn;
use crate::consts::K256;
use crate::md::{self, Sha256Family};

/// The chaining value in the instructions' layout, `[ABEF, CDGH]`.
type Regs = [__m128i; 2];

/// The SHA-256 block function for the `X86ShaNi` token. Its message schedule stays in vector
/// registers, so it is its own wiping block function (the default `compress_secret`); the
/// one-shot hash and HMAC keep the chaining value in registers from the first block to the
/// last.
pub(crate) struct ShaNi;

impl BlockFn<Sha256Family> for ShaNi {
    type Token = X86ShaNi;

    #[inline(always)]
    fn compress(t: X86ShaNi, state: &mut [u32; 8], blocks: &[u8]) {
        compress(t, state, blocks)
    }

    #[inline(always)]
    fn oneshot<const WIPE: bool>(t: X86ShaNi, state: &mut [u32; 8], data: &[u8], prefix: u64) {
        oneshot::<WIPE>(t, state, data, prefix)
    }

    #[inline(always)]
    fn hmac(
        t: X86ShaNi,
        ipad: &[u32; 8],
        opad: &[u32; 8],
        msg: &[u8],
        words: usize,
        out: &mut [u32; 8],
    ) {
        hmac(t, ipad, opad, msg, words, out)
    }
}

tessera_cpu::island! {
    /// Compression of whole blocks of an in-memory chaining value.
    fn compress(_t: X86ShaNi, state: &mut [u32; 8], blocks: &[u8]) {
        let mut regs = load(state);
        compress_regs(&mut regs, blocks);
        store(&regs, state);
    }
}

tessera_cpu::island! {
    /// The one-shot hash after `prefix` compressed bytes, with the chaining value in registers
    /// from the first block to the last.
    fn oneshot<const WIPE: bool>(_t: X86ShaNi, state: &mut [u32; 8], data: &[u8], prefix: u64) {
        let mut regs = load(state);
        let compress = |r: &mut Regs, b: &[u8]| compress_regs(r, b);
        md::oneshot::<Sha256Family, _, WIPE>(compress, &mut regs, data, prefix);
        store(&regs, state);
    }
}

tessera_cpu::island! {
    /// HMAC from the key states: the inner hash as in the one-shot, then the outer block built
    /// in registers from the inner chaining value (its words are the outer message words,
    /// already in big-endian order), so nothing goes through memory between the two hashes.
    fn hmac(
        _t: X86ShaNi,
        ipad: &[u32; 8],
        opad: &[u32; 8],
        msg: &[u8],
        words: usize,
        out: &mut [u32; 8],
    ) {
        // SHA-256 (8 words) or SHA-224 (7 words): anything else would be taken for SHA-224.
        debug_assert!(words == 7 || words == 8, "words = {words}");
        let mut regs = load(ipad);
        let compress = |r: &mut Regs, b: &[u8]| compress_regs(r, b);
        md::oneshot::<Sha256Family, _, true>(compress, &mut regs, msg, 64);
        let [dcba, hgfe] = to_words(&regs);
        // Outer message: the `words`-word inner digest, 0x80 marker, zeros, and the bit length
        // of one key block plus the digest (FIPS 180-4 5.1.1).
        let bits = ((64 + 4 * words) * 8) as i32;
        let marker = 0x8000_0000u32 as i32;
        let (w1, w2) = if words == 8 {
            (hgfe, _mm_set_epi32(0, 0, 0, marker))
        } else {
            // SHA-224: seven words, the marker in the eighth.
            (
                _mm_blend_epi16(hgfe, _mm_set_epi32(marker, 0, 0, 0), 0xC0),
                _mm_set_epi32(0, 0, 0, 0),
            )
        };
        let w3 = _mm_set_epi32(bits, 0, 0, 0);
        let mut o = load(opad);
        compress_words(&mut o, [dcba, w1, w2, w3]);
        store(&o, out);
    }
}

tessera_cpu::with_features! { X86ShaNi;
    /// The chaining value from its word order into the instructions' layout.
    #[inline]
    fn load(state: &[u32; 8]) -> Regs {
        // SAFETY: `state` is 32 bytes; unaligned loads of two 16-byte halves.
        let (dcba, hgfe) = unsafe {
            (
                _mm_loadu_si128(state.as_ptr().cast::<__m128i>()),
                _mm_loadu_si128(state.as_ptr().add(4).cast::<__m128i>()),
            )
        };
        let badc = _mm_shuffle_epi32(dcba, 0xB1);
        let efgh = _mm_shuffle_epi32(hgfe, 0x1B);
        [
            _mm_alignr_epi8(badc, efgh, 8),
            _mm_blend_epi16(efgh, badc, 0xF0),
        ]
    }

    /// The chaining value in word order: `[(a, b, c, d), (e, f, g, h)]` (lane 0 first).
    #[inline]
    fn to_words(regs: &Regs) -> [__m128i; 2] {
        let feba = _mm_shuffle_epi32(regs[0], 0x1B);
        let dchg = _mm_shuffle_epi32(regs[1], 0xB1);
        [
            _mm_blend_epi16(feba, dchg, 0xF0),
            _mm_alignr_epi8(dchg, feba, 8),
        ]
    }

    /// The chaining value back in word order.
    #[inline]
    fn store(regs: &Regs, state: &mut [u32; 8]) {
        let [dcba, hgfe] = to_words(regs);
        // SAFETY: `state` is 32 bytes; unaligned stores of two 16-byte halves.
        unsafe {
            _mm_storeu_si128(state.as_mut_ptr().cast::<__m128i>(), dcba);
            _mm_storeu_si128(state.as_mut_ptr().add(4).cast::<__m128i>(), hgfe);
        }
    }

    /// Compression of whole blocks on the register state.
    #[inline]
    fn compress_regs(regs: &mut Regs, blocks: &[u8]) {
        // Byte swap of each 32-bit word (the message is big-endian).
        let bswap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);
        for block in blocks.chunks_exact(64) {
            let p = block.as_ptr().cast::<__m128i>();
            // SAFETY: `block` is 64 bytes; four unaligned 16-byte loads.
            let w: [__m128i; 4] = unsafe {
                [
                    _mm_loadu_si128(p),
                    _mm_loadu_si128(p.add(1)),
                    _mm_loadu_si128(p.add(2)),
                    _mm_loadu_si128(p.add(3)),
                ]
            };
            let w = [
                _mm_shuffle_epi8(w[0], bswap),
                _mm_shuffle_epi8(w[1], bswap),
                _mm_shuffle_epi8(w[2], bswap),
                _mm_shuffle_epi8(w[3], bswap),
            ];
            compress_words(regs, w);
        }
    }

    /// One block given as its sixteen message words (`W[0..4]`, ..., `W[12..16]`, lane 0 first).
    #[inline]
    fn compress_words(regs: &mut Regs, w: [__m128i; 4]) {
        let [mut abef, mut cdgh] = *regs;
        {
            let (abef0, cdgh0) = (abef, cdgh);
            let [mut w0, mut w1, mut w2, mut w3] = w;
            // Four rounds with W[4i..4i+4]. Two rounds turn (ABEF, CDGH) into (ABEF', old ABEF
            // as the new CDGH), so the first call writes the new ABEF over CDGH and the second
            // swaps the roles back.
            macro_rules! rounds4 {
                ($w:expr, $i:expr) => {
                    // SAFETY: `4 * i + 4 <= 64`, an unaligned 16-byte load inside `K256`.
                    let k = unsafe { _mm_loadu_si128(K256.as_ptr().add(4 * $i).cast::<__m128i>()) };
                    let wk = _mm_add_epi32($w, k);
                    cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
                    abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
                };
            }
            // W[t..t+4] from a = W[t-16..], b = W[t-12..], c = W[t-8..], d = W[t-4..], into a.
            macro_rules! schedule {
                ($a:ident, $b:ident, $c:ident, $d:ident) => {
                    $a = _mm_sha256msg2_epu32(
                        _mm_add_epi32(_mm_sha256msg1_epu32($a, $b), _mm_alignr_epi8($d, $c, 4)),
                        $d,
                    );
                };
            }
            rounds4!(w0, 0);
            rounds4!(w1, 1);
            rounds4!(w2, 2);
            rounds4!(w3, 3);
            for j in 1..4 {
                schedule!(w0, w1, w2, w3);
                rounds4!(w0, 4 * j);
                schedule!(w1, w2, w3, w0);
                rounds4!(w1, 4 * j + 1);
                schedule!(w2, w3, w0, w1);
                rounds4!(w2, 4 * j + 2);
                schedule!(w3, w0, w1, w2);
                rounds4!(w3, 4 * j + 3);
            }
            abef = _mm_add_epi32(abef, abef0);
            cdgh = _mm_add_epi32(cdgh, cdgh0);
        }

        *regs = [abef, cdgh];
    }
}
