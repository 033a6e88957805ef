//! x86_64 VAES + VPCLMULQDQ backend on 256-bit vectors (AVX2-class CPUs with VAES, no AVX-512
//! needed).
//!
//! Sixteen blocks are in flight, two per ymm register; GHASH multiplies them by `H^16 .. H^1`
//! lane-wise, adds the two lanes and reduces once per 256 bytes (the same reflected
//! representation and reduction as the AES-NI backend, whose key layout this backend shares).
//! What is left after the 256-byte chunks (and short messages entirely) goes through the
//! AES-NI code, compiled into the same island.

use super::x86_aesni::{self as ni, Key};
use crate::gcm::{self, GcmOps, Iv};
use core::arch::x86_64::*;
use tessera_cpu::X86VaesClmul;

/// Per-operation view: the AES-NI view for tails, broadcast round keys and the `H` powers
/// paired for the lanes of a 16-block chunk (`hv[j]` = `(H^(16-2j), H^(15-2j))`).
struct Ops<'a> {
    ni: ni::Ops<'a>,
    rk: [__m256i; 15],
    hv: [__m256i; 8],
}

#[target_feature(enable = "avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3")]
#[inline]
fn load2(s: &[u8]) -> __m256i {
    assert!(s.len() >= 32);
    // SAFETY: at least 32 readable bytes (checked above); unaligned load.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
}

#[target_feature(enable = "avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3")]
#[inline]
fn store2(s: &mut [u8], v: __m256i) {
    assert!(s.len() >= 32);
    // SAFETY: at least 32 writable bytes (checked above); unaligned store.
    unsafe { _mm256_storeu_si256(s.as_mut_ptr().cast(), v) }
}

#[target_feature(enable = "avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3")]
#[inline]
fn bswap2(v: __m256i) -> __m256i {
    let m = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    _mm256_shuffle_epi8(v, _mm256_broadcastsi128_si256(m))
}

impl<'a> Ops<'a> {
    #[target_feature(enable = "avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3")]
    #[inline]
    fn new(key: &'a Key) -> Self {
        let ni = ni::Ops::new(key);
        let mut rk = [_mm256_setzero_si256(); 15];
        for (d, s) in rk.iter_mut().zip(ni.rk.iter()) {
            *d = _mm256_broadcastsi128_si256(*s);
        }
        let mut hv = [_mm256_setzero_si256(); 8];
        for (j, h) in hv.iter_mut().enumerate() {
            // Block 2j (low lane) takes H^(16-2j) = hp[15-2j]; block 2j+1 takes hp[14-2j].
            *h = _mm256_set_m128i(ni::load(&key.hp[14 - 2 * j]), ni::load(&key.hp[15 - 2 * j]));
        }
        Ops { ni, rk, hv }
    }

    /// Absorbs sixteen byte-reflected blocks (two per register) into `y`.
    #[target_feature(enable = "avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3")]
    #[inline]
    fn ghash16(&self, y: __m128i, x: &[__m256i; 8]) -> __m128i {
        let mut lo = _mm256_setzero_si256();
        let mut mid = _mm256_setzero_si256();
        let mut hi = _mm256_setzero_si256();
        let first = _mm256_xor_si256(x[0], _mm256_set_m128i(_mm_setzero_si128(), y));
        for (i, h) in self.hv.iter().enumerate() {
            let v = if i == 0 { first } else { x[i] };
            lo = _mm256_xor_si256(lo, _mm256_clmulepi64_epi128(v, *h, 0x00));
            mid = _mm256_xor_si256(mid, _mm256_clmulepi64_epi128(v, *h, 0x01));
            mid = _mm256_xor_si256(mid, _mm256_clmulepi64_epi128(v, *h, 0x10));
            hi = _mm256_xor_si256(hi, _mm256_clmulepi64_epi128(v, *h, 0x11));
        }
        let fold =
            |v: __m256i| _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        ni::reduce(&[fold(lo), fold(mid), fold(hi)])
    }

    #[target_feature(enable = "avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3")]
    #[inline]
    fn ghash_v(&self, y: __m128i, data: &[u8]) -> __m128i {
        let mut y = y;
        let mut chunks = data.chunks_exact(256);
        for c in &mut chunks {
            let mut x = [_mm256_setzero_si256(); 8];
            for (i, v) in x.iter_mut().enumerate() {
                *v = bswap2(load2(&c[32 * i..]));
            }
            y = self.ghash16(y, &x);
        }
        self.ni.ghash_v(y, chunks.remainder())
    }

    #[target_feature(enable = "avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3")]
    #[inline]
    fn ctr_ghash<const SEAL: bool>(&self, ctr: &[u8; 16], y: &mut [u8; 16], buf: &mut [u8]) {
        let nr = self.ni.key.nr;
        let mut yv = ni::bswap(ni::load(y));
        let c0 = ni::bswap(ni::load(ctr));
        // Lanes hold counters n and n + 1 (32-bit word in dword 0 of each lane, wrapping).
        let mut c = _mm256_set_m128i(_mm_add_epi32(c0, _mm_set_epi32(0, 0, 0, 1)), c0);
        let two = _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 2);
        let mut chunks = buf.chunks_exact_mut(256);
        for ch in &mut chunks {
            let mut ks = [_mm256_setzero_si256(); 8];
            for k in ks.iter_mut() {
                *k = _mm256_xor_si256(bswap2(c), self.rk[0]);
                c = _mm256_add_epi32(c, two);
            }
            for r in &self.rk[1..nr] {
                for k in ks.iter_mut() {
                    *k = _mm256_aesenc_epi128(*k, *r);
                }
            }
            for k in ks.iter_mut() {
                *k = _mm256_aesenclast_epi128(*k, self.rk[nr]);
            }
            let mut x = [_mm256_setzero_si256(); 8];
            for (i, (xi, k)) in x.iter_mut().zip(ks).enumerate() {
                let input = load2(&ch[32 * i..]);
                let out = _mm256_xor_si256(input, k);
                store2(&mut ch[32 * i..], out);
                *xi = bswap2(if SEAL { out } else { input });
            }
            yv = self.ghash16(yv, &x);
        }
        // The low lane holds the next counter.
        let mut next = [0u8; 16];
        ni::store(&mut next, ni::bswap(_mm256_castsi256_si128(c)));
        ni::store(y, ni::bswap(yv));
        self.ni.ctr_ghash::<SEAL>(&next, y, chunks.into_remainder());
    }
}

impl GcmOps for Ops<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: &mut [u8; 16]) {
        self.ni.encrypt_block(block)
    }

    #[inline(always)]
    fn ghash(&self, y: &mut [u8; 16], data: &[u8]) {
        // SAFETY: an `Ops` exists only inside this file's islands, entered with the token that
        // proves AVX2, VAES, VPCLMULQDQ, AES-NI and PCLMULQDQ (SSSE3 comes with AVX2).
        unsafe { ni::store(y, ni::bswap(self.ghash_v(ni::bswap(ni::load(y)), data))) }
    }

    #[inline(always)]
    fn ctr_ghash_seal(&self, ctr: &[u8; 16], y: &mut [u8; 16], buf: &mut [u8]) {
        // SAFETY: as in `ghash`.
        unsafe { self.ctr_ghash::<true>(ctr, y, buf) }
    }

    #[inline(always)]
    fn ctr_ghash_open(&self, ctr: &[u8; 16], y: &mut [u8; 16], buf: &mut [u8]) {
        // SAFETY: as in `ghash`.
        unsafe { self.ctr_ghash::<false>(ctr, y, buf) }
    }
}

#[target_feature(enable = "avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3")]
pub(crate) fn seal(
    _t: X86VaesClmul,
    key: &Key,
    iv: Iv<'_>,
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    gcm::seal(&Ops::new(key), iv, aad, buf)
}

#[target_feature(enable = "avx2,vaes,vpclmulqdq,aes,pclmulqdq,ssse3")]
pub(crate) fn open(
    _t: X86VaesClmul,
    key: &Key,
    iv: Iv<'_>,
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    gcm::open(&Ops::new(key), iv, aad, buf)
}
