//! x86_64 VAES + VPCLMULQDQ backend on 512-bit vectors (AVX-512 F/BW/VL).
//!
//! Thirty-two blocks are in flight, four per zmm register; GHASH multiplies a 512-byte chunk
//! by `H^32 .. H^1` lane-wise, adds the lanes and reduces once per chunk (the reflected
//! representation and reduction of the AES-NI backend, whose key layout all three x86 backends
//! share). The multiplications of a chunk (the previous one when sealing) run between the AES
//! rounds of the current one. What is left after the 512-byte chunks goes through the 256-bit
//! VAES code (and its AES-NI tail), compiled into the same island.

use super::x86_aesni::Key;
use super::x86_clmul::{bswap, load, reduce, store};
use super::x86_vaes as v256;
use crate::gcm::{self, Iv};
use core::arch::x86_64::*;
use tessera_cpu::X86Vaes512;

/// Per-operation view: the 256-bit view (for tails) and the 512-bit tables. Its methods are
/// compiled for the VAES-512 token's features; it holds the token for the islands of its
/// [`crate::gcm::GcmOps`] implementation.
struct Ops<'a> {
    t: X86Vaes512,
    v: v256::Ops<'a>,
    /// Broadcast round keys.
    rk: [__m512i; 15],
    /// `hv[j]` lane `l` = `R(H^(32-4j-l) x^-1)`: the powers for block `4j + l` of a chunk.
    hv: [__m512i; 8],
}

tessera_cpu::with_features! { X86Vaes512;
    #[inline]
    fn load4(s: &[u8]) -> __m512i {
        assert!(s.len() >= 64);
        // SAFETY: at least 64 readable bytes (checked above); unaligned load.
        unsafe { _mm512_loadu_si512(s.as_ptr().cast()) }
    }

    #[inline]
    fn store4(s: &mut [u8], v: __m512i) {
        assert!(s.len() >= 64);
        // SAFETY: at least 64 writable bytes (checked above); unaligned store.
        unsafe { _mm512_storeu_si512(s.as_mut_ptr().cast(), v) }
    }

    #[inline]
    fn bswap4(v: __m512i) -> __m512i {
        let m = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        _mm512_shuffle_epi8(v, _mm512_broadcast_i32x4(m))
    }

    /// Accumulates the lane-wise unreduced products `x * h` into `(lo, mid, hi)`.
    #[inline]
    fn mul_acc4(x: __m512i, h: __m512i, acc: &mut [__m512i; 3]) {
        acc[0] = _mm512_xor_si512(acc[0], _mm512_clmulepi64_epi128(x, h, 0x00));
        acc[1] = _mm512_xor_si512(acc[1], _mm512_clmulepi64_epi128(x, h, 0x01));
        acc[1] = _mm512_xor_si512(acc[1], _mm512_clmulepi64_epi128(x, h, 0x10));
        acc[2] = _mm512_xor_si512(acc[2], _mm512_clmulepi64_epi128(x, h, 0x11));
    }

    /// Adds the four lanes of each partial product and reduces.
    #[inline]
    fn reduce4(acc: &[__m512i; 3]) -> __m128i {
        let fold = |v: __m512i| {
            let h = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v));
            _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256::<1>(h))
        };
        reduce(&[fold(acc[0]), fold(acc[1]), fold(acc[2])])
    }

    /// `y` in lane 0, zero in the others.
    #[inline]
    fn lane0(y: __m128i) -> __m512i {
        _mm512_zextsi128_si512(y)
    }

    #[inline]
    fn set4(a: __m128i, b: __m128i, c: __m128i, d: __m128i) -> __m512i {
        let v = _mm512_castsi128_si512(a);
        let v = _mm512_inserti32x4::<1>(v, b);
        let v = _mm512_inserti32x4::<2>(v, c);
        _mm512_inserti32x4::<3>(v, d)
    }
}

tessera_cpu::with_features! { X86Vaes512;
    impl Ops<'_> {
        #[inline]
        fn new<'k>(t: X86Vaes512, key: &'k Key, wide: &'k v256::Wide, iv: Iv<'_>) -> Ops<'k> {
            let v = v256::Ops::new(t.vaes_clmul(), key, wide, iv);
            let mut rk = [_mm512_setzero_si512(); 15];
            for (d, s) in rk.iter_mut().zip(v.ni.rk.iter()) {
                *d = _mm512_broadcast_i32x4(*s);
            }
            let hp = &key.hp;
            let mut hv = [_mm512_setzero_si512(); 8];
            for (j, h) in hv.iter_mut().enumerate() {
                *h = set4(
                    load(&hp[31 - 4 * j]),
                    load(&hp[30 - 4 * j]),
                    load(&hp[29 - 4 * j]),
                    load(&hp[28 - 4 * j]),
                );
            }
            Ops { t, v, rk, hv }
        }

        /// Absorbs thirty-two byte-reflected blocks (four per register) into `y`.
        #[inline]
        fn ghash32(&self, y: __m128i, x: &[__m512i; 8]) -> __m128i {
            let mut acc = [_mm512_setzero_si512(); 3];
            mul_acc4(_mm512_xor_si512(x[0], lane0(y)), self.hv[0], &mut acc);
            for (xi, h) in x[1..].iter().zip(&self.hv[1..]) {
                mul_acc4(*xi, *h, &mut acc);
            }
            reduce4(&acc)
        }

        #[inline]
        fn ghash_v(&self, y: __m128i, data: &[u8]) -> __m128i {
            let mut y = y;
            let mut chunks = data.chunks_exact(512);
            for c in &mut chunks {
                let mut x = [_mm512_setzero_si512(); 8];
                for (i, v) in x.iter_mut().enumerate() {
                    *v = bswap4(load4(&c[64 * i..]));
                }
                y = self.ghash32(y, &x);
            }
            self.v.ghash_v(y, chunks.remainder())
        }

        /// CTR + GHASH, thirty-two blocks per step; the tail (under 512 bytes) runs the 256-bit
        /// code. Counters are incremented lane-wise on the little-endian form and byte-swapped
        /// per register: no branch on the counter value (which is secret for non-96-bit nonces).
        #[inline]
        fn ctr_ghash<const SEAL: bool>(&self, ctr: &[u8; 16], y: &mut [u8; 16], buf: &mut [u8]) {
            if buf.len() < 512 {
                return self.v.ctr_ghash::<SEAL>(ctr, y, buf);
            }
            let nr = self.v.ni.key.nr;
            let rk = &self.rk;
            let mut yv = bswap(load(y));
            let c0 = bswap(load(ctr));
            // Lanes hold counters n .. n + 3 (32-bit word in dword 0 of each lane, wrapping).
            let mut c = _mm512_add_epi32(
                _mm512_broadcast_i32x4(c0),
                _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0),
            );
            let four = _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4);
            let mut chunks = buf.chunks_exact_mut(512);
            // Sealing: reflected ciphertext of the previous chunk, not yet absorbed.
            let mut pending = [_mm512_setzero_si512(); 8];
            let mut have = false;
            for ch in &mut chunks {
                let mut x = pending;
                let mut hash = have;
                if !SEAL {
                    for (j, v) in x.iter_mut().enumerate() {
                        *v = bswap4(load4(&ch[64 * j..]));
                    }
                    hash = true;
                }
                x[0] = _mm512_xor_si512(x[0], lane0(yv));
                let mut ks = [_mm512_setzero_si512(); 8];
                for k in ks.iter_mut() {
                    *k = _mm512_xor_si512(bswap4(c), rk[0]);
                    c = _mm512_add_epi32(c, four);
                }
                let mut acc = [_mm512_setzero_si512(); 3];
                for (r, k) in rk[1..nr].iter().enumerate() {
                    for b in ks.iter_mut() {
                        *b = _mm512_aesenc_epi128(*b, *k);
                    }
                    // Register 0 (which carries the running hash) goes last, so the chain from one
                    // chunk's reduction to the next is as short as possible.
                    if hash && r < 8 {
                        let j = (r + 1) % 8;
                        mul_acc4(x[j], self.hv[j], &mut acc);
                    }
                }
                if hash {
                    yv = reduce4(&acc);
                }
                for (j, k) in ks.iter().enumerate() {
                    let input = load4(&ch[64 * j..]);
                    let out = _mm512_xor_si512(input, _mm512_aesenclast_epi128(*k, rk[nr]));
                    store4(&mut ch[64 * j..], out);
                    if SEAL {
                        pending[j] = bswap4(out);
                    }
                }
                have = SEAL;
            }
            if have {
                yv = self.ghash32(yv, &pending);
            }
            // Lane 0 holds the next counter.
            let mut next = [0u8; 16];
            store(&mut next, bswap(_mm512_castsi512_si128(c)));
            store(y, bswap(yv));
            self.v.ctr_ghash::<SEAL>(&next, y, chunks.into_remainder());
        }

        #[inline]
        fn encrypt_block_tf(&self, block: &mut [u8; 16]) {
            self.v.encrypt_block_tf(block)
        }
    }
}

simd_gcm_ops!(Ops, X86Vaes512, x86);

tessera_cpu::island! {
    /// GCM-AE (`SEAL`, returns the tag) or GCM-AD (returns the expected tag) in this island.
    pub(crate) fn run<const SEAL: bool>(
        t: X86Vaes512,
        key: &Key,
        wide: &v256::Wide,
        iv: Iv<'_>,
        aad: &[u8],
        buf: &mut [u8],
    ) -> [u8; 16] {
        gcm::run::<SEAL, _>(&Ops::new(t, key, wide, iv), iv, aad, buf)
    }
}
