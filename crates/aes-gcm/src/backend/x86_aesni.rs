//! x86_64 AES-NI + PCLMULQDQ backend.
//!
//! CTR runs eight blocks in flight. GHASH uses the reflected representation of
//! [`super::x86_clmul`]: eight blocks are multiplied by `H^8 .. H^1`, summed unreduced and
//! reduced once (aggregated reduction).

use super::x86_clmul::{bswap, gf_mul, load, mul_acc, mul_xinv, reduce, store};
use crate::gcm::{self, GcmOps, Iv, Unit};
use core::arch::x86_64::*;
use tessera_cpu::X86AesClmul;
use zeroize::Zeroize;

/// Round keys and `R(H^i x^-1)` for `i = 1..=32` (raw register bytes). Shared with the VAES
/// backend, which uses all 32 powers; this one uses the first eight.
#[derive(Clone)]
pub(crate) struct Key {
    rk: [[u8; 16]; 15],
    pub(super) nr: usize,
    pub(super) hp: [[u8; 16]; 32],
}

impl Drop for Key {
    fn drop(&mut self) {
        self.rk.zeroize();
        self.hp.zeroize();
    }
}

tessera_cpu::island! {
    /// Expands `key` (16, 24 or 32 bytes) and derives the thirty-two `H` powers.
    pub(crate) fn new_key(_t: X86AesClmul, key: &[u8]) -> Key {
        let (rk, nr) = crate::aes::expand(key);
        let mut k = Key {
            rk,
            nr,
            hp: [[0; 16]; 32],
        };
        let mut rks = k.round_keys();
        let mut h = [0u8; 16];
        let mut hb = aes1(&rks, nr, load(&h));
        store(&mut h, hb);
        let mut rh = u128::from_be_bytes(h);
        let mut h1 = mul_xinv(rh);
        k.hp[0] = h1.to_le_bytes();
        let mut h1v = load(&k.hp[0]);
        let mut p = load(&rh.to_le_bytes());
        let mut b = [0u8; 16];
        for i in 1..32 {
            // R(h^(i+1)) = R(h^i) * R(h x^-1)
            p = gf_mul(p, h1v);
            store(&mut b, p);
            k.hp[i] = mul_xinv(u128::from_le_bytes(b)).to_le_bytes();
        }
        // Every temporary holds H or one of its powers.
        b.zeroize();
        h.zeroize();
        hb.zeroize();
        rh.zeroize();
        h1.zeroize();
        h1v.zeroize();
        p.zeroize();
        rks.zeroize();
        k
    }
}

tessera_cpu::with_features! { X86AesClmul;
    impl Key {
        #[inline]
        pub(super) fn round_keys(&self) -> [__m128i; 15] {
            let mut r = [_mm_setzero_si128(); 15];
            for (d, s) in r.iter_mut().zip(&self.rk) {
                *d = load(s);
            }
            r
        }
    }
}

tessera_cpu::with_features! { X86AesClmul;
    /// Loads 16 bytes at `s[..16]` (the caller passes a slice of at least 16 bytes).
    #[inline]
    pub(super) fn load_s(s: &[u8]) -> __m128i {
        assert!(s.len() >= 16);
        // SAFETY: at least 16 readable bytes (checked above); unaligned load.
        unsafe { _mm_loadu_si128(s.as_ptr().cast()) }
    }

    #[inline]
    pub(super) fn store_s(s: &mut [u8], v: __m128i) {
        assert!(s.len() >= 16);
        // SAFETY: at least 16 writable bytes (checked above); unaligned store.
        unsafe { _mm_storeu_si128(s.as_mut_ptr().cast(), v) }
    }

    /// Loads `s` (at most `16 * out.len()` bytes) into blocks, zero-padding the last one.
    #[inline]
    fn load_blocks(s: &[u8], out: &mut [__m128i]) {
        let mut chunks = s.chunks_exact(16);
        let mut n = 0;
        for (c, o) in (&mut chunks).zip(out.iter_mut()) {
            *o = load_s(c);
            n += 1;
        }
        let r = chunks.remainder();
        if !r.is_empty() {
            let mut b = [0u8; 16];
            b[..r.len()].copy_from_slice(r);
            out[n] = load(&b);
        }
    }

    /// Stores blocks into `s` (the last one truncated to what `s` has left).
    #[inline]
    fn store_blocks(v: &[__m128i], s: &mut [u8]) {
        for (o, c) in v.iter().zip(s.chunks_mut(16)) {
            if c.len() == 16 {
                store_s(c, *o);
            } else {
                let mut b = [0u8; 16];
                store(&mut b, *o);
                c.copy_from_slice(&b[..c.len()]);
            }
        }
    }

    #[inline]
    pub(super) fn aes1(rk: &[__m128i; 15], nr: usize, b: __m128i) -> __m128i {
        let mut x = _mm_xor_si128(b, rk[0]);
        for k in &rk[1..nr] {
            x = _mm_aesenc_si128(x, *k);
        }
        _mm_aesenclast_si128(x, rk[nr])
    }

    /// AES on `N` independent blocks, round by round (the blocks' rounds overlap in the pipeline).
    #[inline]
    fn aes_n<const N: usize>(rk: &[__m128i; 15], nr: usize, b: &mut [__m128i; N]) {
        for x in b.iter_mut() {
            *x = _mm_xor_si128(*x, rk[0]);
        }
        for k in &rk[1..nr] {
            for x in b.iter_mut() {
                *x = _mm_aesenc_si128(*x, *k);
            }
        }
        for x in b.iter_mut() {
            *x = _mm_aesenclast_si128(*x, rk[nr]);
        }
    }
}

/// Per-operation view of the key with registers loaded. Its methods are compiled for AES-NI,
/// PCLMULQDQ and SSSE3 (callable from this backend's islands); it holds the token, which the
/// [`crate::gcm::GcmOps`] implementation hands to the islands that bridge to them.
pub(super) struct Ops<'a> {
    t: X86AesClmul,
    pub(super) rk: [__m128i; 15],
    hp: [__m128i; 8],
    pub(super) key: &'a Key,
}

tessera_cpu::with_features! { X86AesClmul;
    impl Ops<'_> {
        #[inline]
        pub(super) fn new(t: X86AesClmul, key: &Key) -> Ops<'_> {
            let mut hp = [_mm_setzero_si128(); 8];
            for (d, s) in hp.iter_mut().zip(&key.hp) {
                *d = load(s);
            }
            Ops {
                t,
                rk: key.round_keys(),
                hp,
                key,
            }
        }

        /// Absorbs `x.len() <= 8` byte-reflected blocks into `y` with one reduction: block `i` is
        /// multiplied by `H^(n-i)`.
        #[inline]
        pub(super) fn ghash_n(&self, y: __m128i, x: &[__m128i]) -> __m128i {
            let n = x.len();
            debug_assert!((1..=8).contains(&n));
            let mut acc = [_mm_setzero_si128(); 3];
            mul_acc(_mm_xor_si128(y, x[0]), self.hp[n - 1], &mut acc);
            for (xi, h) in x[1..].iter().zip(self.hp[..n - 1].iter().rev()) {
                mul_acc(*xi, *h, &mut acc);
            }
            reduce(&acc)
        }

        /// Absorbs a tail of fewer than 128 bytes (zero-padded to whole blocks).
        #[inline]
        fn ghash_tail(&self, y: __m128i, tail: &[u8]) -> __m128i {
            if tail.is_empty() {
                return y;
            }
            let n = tail.len().div_ceil(16);
            let mut x = [_mm_setzero_si128(); 8];
            load_blocks(tail, &mut x[..n]);
            for v in x[..n].iter_mut() {
                *v = bswap(*v);
            }
            self.ghash_n(y, &x[..n])
        }

        #[inline]
        pub(super) fn ghash_v(&self, y: __m128i, data: &[u8]) -> __m128i {
            let mut y = y;
            let mut chunks = data.chunks_exact(128);
            for c in &mut chunks {
                let mut x = [_mm_setzero_si128(); 8];
                for (i, v) in x.iter_mut().enumerate() {
                    *v = bswap(load_s(&c[16 * i..]));
                }
                y = self.ghash_n(y, &x);
            }
            self.ghash_tail(y, chunks.remainder())
        }

        /// CTR (+ GHASH of the ciphertext) over `buf`; `SEAL` says whether GHASH reads the output
        /// (sealing) or the input (opening). The GHASH multiplications of a chunk (the previous
        /// one when sealing) are interleaved with the AES rounds of the current one.
        #[inline]
        pub(super) fn ctr_ghash<const SEAL: bool>(
            &self,
            ctr: &[u8; 16],
            y: &mut [u8; 16],
            buf: &mut [u8],
        ) {
            let nr = self.key.nr;
            let mut yv = bswap(load(y));
            // Counter with the 32-bit big-endian word in lane 0 as a little-endian integer.
            let mut c = bswap(load(ctr));
            let one = _mm_set_epi32(0, 0, 0, 1);
            let mut chunks = buf.chunks_exact_mut(128);
            // Sealing: reflected ciphertext of the previous chunk, not yet absorbed.
            let mut pending = [_mm_setzero_si128(); 8];
            let mut have = false;
            for ch in &mut chunks {
                let mut x = pending;
                let mut hash = have;
                if !SEAL {
                    for (i, v) in x.iter_mut().enumerate() {
                        *v = bswap(load_s(&ch[16 * i..]));
                    }
                    hash = true;
                }
                x[0] = _mm_xor_si128(x[0], yv);
                let mut ks = [_mm_setzero_si128(); 8];
                for k in ks.iter_mut() {
                    *k = _mm_xor_si128(bswap(c), self.rk[0]);
                    c = _mm_add_epi32(c, one);
                }
                let mut acc = [_mm_setzero_si128(); 3];
                for (r, rk) in self.rk[1..nr].iter().enumerate() {
                    for k in ks.iter_mut() {
                        *k = _mm_aesenc_si128(*k, *rk);
                    }
                    // Block 0 (which carries the running hash) goes last, so the chain from one
                    // chunk's reduction to the next is as short as possible.
                    if hash && r < 8 {
                        let j = (r + 1) % 8;
                        mul_acc(x[j], self.hp[7 - j], &mut acc);
                    }
                }
                if hash {
                    yv = reduce(&acc);
                }
                for (i, k) in ks.iter().enumerate() {
                    let input = load_s(&ch[16 * i..]);
                    let out = _mm_xor_si128(input, _mm_aesenclast_si128(*k, self.rk[nr]));
                    store_s(&mut ch[16 * i..], out);
                    pending[i] = bswap(out);
                }
                have = SEAL;
            }
            if have {
                yv = self.ghash_n(yv, &pending);
            }
            let rem = chunks.into_remainder();
            if !rem.is_empty() {
                // At most 127 bytes: all blocks at once, one GHASH reduction.
                let n = rem.len().div_ceil(16);
                let mut x = [_mm_setzero_si128(); 8];
                if n <= 4 {
                    let mut ks = [_mm_setzero_si128(); 4];
                    for k in ks.iter_mut() {
                        *k = bswap(c);
                        c = _mm_add_epi32(c, one);
                    }
                    aes_n(&self.rk, nr, &mut ks);
                    x[..4].copy_from_slice(&ks);
                } else {
                    for k in x.iter_mut() {
                        *k = bswap(c);
                        c = _mm_add_epi32(c, one);
                    }
                    aes_n(&self.rk, nr, &mut x);
                }
                let mut input = [_mm_setzero_si128(); 8];
                load_blocks(rem, &mut input[..n]);
                for (k, i) in x[..n].iter_mut().zip(&input) {
                    *k = _mm_xor_si128(*k, *i);
                }
                store_blocks(&x[..n], rem);
                if SEAL {
                    // GHASH sees the ciphertext zero-padded to a block: reload what was stored.
                    load_blocks(rem, &mut x[..n]);
                } else {
                    x = input;
                }
                for v in x[..n].iter_mut() {
                    *v = bswap(*v);
                }
                yv = self.ghash_n(yv, &x[..n]);
            }
            store(y, bswap(yv));
        }
    }
}

/// `0xff` bytes then zeroes: 16 bytes from offset `16 - r` keep the first `r` bytes of a
/// block. Indexed by a (public) length only.
static KEEP: [u8; 32] = {
    let mut m = [0u8; 32];
    let mut i = 0;
    while i < 16 {
        m[i] = 0xff;
        i += 1;
    }
    m
};

tessera_cpu::with_features! { X86AesClmul;
    impl Ops<'_> {
        /// Whole GCM operation for a 96-bit nonce when AAD blocks + message blocks + the length
        /// block fit one aggregated GHASH (at most eight blocks): `E_K(J0)` runs in the same AES
        /// batch as the keystream, and the length block is absorbed with the data under the one
        /// reduction. Returns `None` (nothing touched) when the inputs do not fit.
        #[inline]
        fn short<const SEAL: bool>(
            &self,
            iv: Iv<'_>,
            aad: &[u8],
            buf: &mut [u8],
        ) -> Option<[u8; 16]> {
            let Iv::Nonce(nonce) = iv else {
                return None;
            };
            let nct = buf.len().div_ceil(16);
            let naad = aad.len().div_ceil(16);
            if nonce.len() != 12 || nct > 7 || naad + nct + 1 > 8 {
                return None;
            }
            Some(match nct {
                0 => self.short_n::<SEAL, 1>(nonce, aad, buf),
                1 => self.short_n::<SEAL, 2>(nonce, aad, buf),
                2 => self.short_n::<SEAL, 3>(nonce, aad, buf),
                3 => self.short_n::<SEAL, 4>(nonce, aad, buf),
                4 => self.short_n::<SEAL, 5>(nonce, aad, buf),
                5 => self.short_n::<SEAL, 6>(nonce, aad, buf),
                6 => self.short_n::<SEAL, 7>(nonce, aad, buf),
                _ => self.short_n::<SEAL, 8>(nonce, aad, buf),
            })
        }

        /// [`Self::short`] with `N - 1` message blocks: block 0 of the AES batch is `J0`, blocks
        /// `1..N` the counters `inc32^i(J0)`. A 12-byte nonce starts the counter at 1, so at most
        /// seven increments never wrap.
        #[inline]
        fn short_n<const SEAL: bool, const N: usize>(
            &self,
            nonce: &[u8],
            aad: &[u8],
            buf: &mut [u8],
        ) -> [u8; 16] {
            let nr = self.key.nr;
            let mut j = [0u8; 16];
            j[..12].copy_from_slice(nonce);
            j[15] = 1;
            let mut c = bswap(load(&j));
            let one = _mm_set_epi32(0, 0, 0, 1);
            let mut ks = [_mm_setzero_si128(); N];
            for k in ks.iter_mut() {
                *k = _mm_xor_si128(bswap(c), self.rk[0]);
                c = _mm_add_epi32(c, one);
            }
            // GHASH input: AAD blocks, message blocks, the length block (all reflected).
            let mut x = [_mm_setzero_si128(); 8];
            let naad = aad.len().div_ceil(16);
            load_blocks(aad, &mut x[..naad]);
            let nct = N - 1;
            let mut input = [_mm_setzero_si128(); 8];
            load_blocks(buf, &mut input[..nct]);
            if !SEAL {
                x[naad..naad + nct].copy_from_slice(&input[..nct]);
            }
            for k in &self.rk[1..nr] {
                for v in ks.iter_mut() {
                    *v = _mm_aesenc_si128(*v, *k);
                }
            }
            for v in ks.iter_mut() {
                *v = _mm_aesenclast_si128(*v, self.rk[nr]);
            }
            let mut out = [_mm_setzero_si128(); 8];
            for ((o, k), i) in out[..nct].iter_mut().zip(&ks[1..]).zip(&input) {
                *o = _mm_xor_si128(*k, *i);
            }
            store_blocks(&out[..nct], buf);
            if SEAL {
                let r = buf.len() % 16;
                if r != 0 {
                    // GHASH sees the last ciphertext block zero-padded.
                    // SAFETY: `16 - r + 16 <= 32` bytes of `KEEP`; unaligned load.
                    let m = unsafe { _mm_loadu_si128(KEEP[16 - r..].as_ptr().cast()) };
                    out[nct - 1] = _mm_and_si128(out[nct - 1], m);
                }
                x[naad..naad + nct].copy_from_slice(&out[..nct]);
            }
            let m = naad + nct + 1;
            for v in x[..m - 1].iter_mut() {
                *v = bswap(*v);
            }
            // The reflected length block `len(A)_64 || len(C)_64` is that 128-bit integer.
            x[m - 1] =
                _mm_set_epi64x((aad.len() as u64 * 8) as i64, (buf.len() as u64 * 8) as i64);
            let y = self.ghash_n(_mm_setzero_si128(), &x[..m]);
            let mut tag = [0u8; 16];
            store(&mut tag, _mm_xor_si128(bswap(y), ks[0]));
            tag
        }

        #[inline]
        pub(super) fn encrypt_block_tf(&self, block: &mut [u8; 16]) {
            store(block, aes1(&self.rk, self.key.nr, load(block)))
        }
    }
}

/// The framing's view of this backend ([`GcmOps`]): each method an island of this backend's
/// token (the generic framing cannot call target-feature methods itself); called from this
/// backend's `run` island, which has the same features, it is inlined there or stays one plain
/// call.
impl GcmOps for Ops<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: &mut [u8; 16]) {
        tessera_cpu::island! {
            fn encrypt_block(_t: X86AesClmul, o: &Ops<'_>, block: &mut [u8; 16]) {
                o.encrypt_block_tf(block)
            }
        }
        encrypt_block(self.t, self, block)
    }

    #[inline(always)]
    fn ghash(&self, y: &mut [u8; 16], data: &[u8]) {
        tessera_cpu::island! {
            fn ghash(_t: X86AesClmul, o: &Ops<'_>, y: &mut [u8; 16], data: &[u8]) {
                store(y, bswap(o.ghash_v(bswap(load(y)), data)))
            }
        }
        ghash(self.t, self, y, data)
    }

    #[inline(always)]
    fn ctr_ghash<const SEAL: bool>(&self, ctr: &[u8; 16], y: &mut [u8; 16], buf: &mut [u8]) {
        tessera_cpu::island! {
            fn ctr_ghash<const SEAL: bool>(
                _t: X86AesClmul,
                o: &Ops<'_>,
                ctr: &[u8; 16],
                y: &mut [u8; 16],
                buf: &mut [u8],
            ) {
                o.ctr_ghash::<SEAL>(ctr, y, buf)
            }
        }
        ctr_ghash::<SEAL>(self.t, self, ctr, y, buf)
    }
}

tessera_cpu::island! {
    /// GCM-AE (`SEAL`, returns the tag) or GCM-AD (returns the expected tag) in this island:
    /// the one-pass path when the inputs fit it, else the general one.
    pub(crate) fn run<const SEAL: bool>(
        t: X86AesClmul,
        key: &Key,
        iv: Iv<'_>,
        aad: &[u8],
        buf: &mut [u8],
    ) -> [u8; 16] {
        let ops = Ops::new(t, key);
        if let Some(tag) = ops.short::<SEAL>(iv, aad, buf) {
            return tag;
        }
        gcm::run::<SEAL, _>(&ops, iv, aad, buf)
    }
}

tessera_cpu::island! {
    /// The block cipher on independent blocks, eight in flight.
    pub(crate) fn encrypt_blocks(_t: X86AesClmul, key: &Key, blocks: &mut [[u8; 16]]) {
        let rk = key.round_keys();
        let mut chunks = blocks.chunks_exact_mut(8);
        for ch in &mut chunks {
            let mut x = [_mm_setzero_si128(); 8];
            for (v, b) in x.iter_mut().zip(ch.iter()) {
                *v = load(b);
            }
            aes_n(&rk, key.nr, &mut x);
            for (v, b) in x.iter().zip(ch.iter_mut()) {
                store(b, *v);
            }
        }
        for b in chunks.into_remainder() {
            store(b, aes1(&rk, key.nr, load(b)));
        }
    }
}

/// The AES-NI row of the backend table (its key layout and code also serve the VAES rows'
/// short inputs and tails).
pub(crate) struct AesNi;

impl Unit for AesNi {
    type Token = X86AesClmul;
    type Key = Key;

    #[inline(always)]
    fn new_key(t: X86AesClmul, key: &[u8]) -> Key {
        new_key(t, key)
    }

    #[inline(always)]
    fn gcm<const SEAL: bool>(
        t: X86AesClmul,
        key: &Key,
        iv: Iv<'_>,
        aad: &[u8],
        buf: &mut [u8],
    ) -> [u8; 16] {
        run::<SEAL>(t, key, iv, aad, buf)
    }

    #[inline(always)]
    fn crypt_blocks<const ENC: bool>(t: X86AesClmul, key: &Key, blocks: &mut [[u8; 16]]) {
        if ENC {
            encrypt_blocks(t, key, blocks)
        } else {
            decrypt_blocks(t, key, blocks)
        }
    }
}

tessera_cpu::island! {
    /// The inverse cipher, block by block.
    pub(crate) fn decrypt_blocks(_t: X86AesClmul, key: &Key, blocks: &mut [[u8; 16]]) {
        let rk = key.round_keys();
        let nr = key.nr;
        // Equivalent inverse cipher (FIPS 197 section 5.3.5): InvMixColumns on the inner keys.
        let mut dk = [_mm_setzero_si128(); 15];
        dk[0] = rk[nr];
        for i in 1..nr {
            dk[i] = _mm_aesimc_si128(rk[nr - i]);
        }
        dk[nr] = rk[0];
        for b in blocks.iter_mut() {
            let mut x = _mm_xor_si128(load(b), dk[0]);
            for k in &dk[1..nr] {
                x = _mm_aesdec_si128(x, *k);
            }
            store(b, _mm_aesdeclast_si128(x, dk[nr]));
        }
    }
}
