//! x86_64 VAES + VPCLMULQDQ backend on 256-bit vectors (AVX2-class CPUs with VAES, no AVX-512
//! needed).
//!
//! Sixteen blocks are in flight, two per ymm register; GHASH multiplies a pair of 256-byte
//! chunks by `H^32 .. H^1` lane-wise with Karatsuba (three carry-less multiplications per
//! register), adds the lanes and reduces once per 512 bytes (the same reflected representation
//! and reduction as the AES-NI backend, whose key layout this backend shares). The broadcast
//! round keys and paired `H` powers ([`Wide`]) are built once, when the key is expanded.
//!
//! On Zen 3 (the main AVX2-only VAES CPU) `VPCLMULQDQ` on ymm issues once every two cycles
//! and competes with `VAESENC` for the same two pipes, so a 256-byte chunk costs about
//! 80 `VAESENC` (AES-128) plus 24 multiplications whatever the order: the multiplication count
//! is what Karatsuba lowers.
//! What is left after the 256-byte chunks (and short messages entirely) goes through the
//! AES-NI code, compiled into the same island.
//!
//! On Intel cores with AVX-512 (where `detect()` picks `x86_vaes512` instead) this loop on long
//! messages lowers the core clock for a few milliseconds after it stops, which slows whatever
//! runs next (see `x86_vaes512.rs`).

use super::x86_aesni::{self as ni, Key};
use super::x86_clmul::{bswap, load, reduce, store};
use crate::gcm::{self, GcmOps, Iv, Unit};
use core::arch::x86_64::*;
use tessera_cpu::X86VaesClmul;
use zeroize::Zeroize;

/// Per-operation view: the AES-NI view (for tails and short inputs) and the key. Its methods
/// are compiled for the VAES token's features; it holds the token for the islands of its
/// [`crate::gcm::GcmOps`] implementation.
pub(super) struct Ops<'a> {
    t: X86VaesClmul,
    pub(super) ni: ni::Ops<'a>,
    /// The 256-bit tables, built once when the key was expanded.
    wide: &'a Wide,
    /// The counter is public: it comes from a 96-bit nonce. With other nonce lengths `J0` is
    /// `GHASH_H(IV)`, derived from the key, and no branch may depend on it.
    public_counter: bool,
}

tessera_cpu::with_features! { X86VaesClmul;
    impl Ops<'_> {
        #[inline]
        pub(super) fn new<'k>(
            t: X86VaesClmul,
            key: &'k Key,
            wide: &'k Wide,
            iv: Iv<'_>,
        ) -> Ops<'k> {
            let ni = ni::Ops::new(t.aes_clmul(), key);
            Ops {
                t,
                wide,
                ni,
                public_counter: matches!(iv, Iv::Nonce(n) if n.len() == 12),
            }
        }
    }
}

/// The 256-bit tables of a key, built once when the key is expanded (they are derived from the
/// key: zeroized on drop): broadcast round keys and the `H` powers paired for the lanes of a
/// 32-block group. About 2 KiB; building them per operation cost about as much as a 1 KiB
/// message's GHASH.
#[derive(Clone)]
pub(crate) struct Wide {
    rk: [__m256i; 15],
    /// `hv[g][j]` = `(H^(32-16g-2j), H^(31-16g-2j))` (low lane, high lane): `hv[0]` holds the
    /// powers for blocks `2j` and `2j + 1` of the first half of a 32-block group, `hv[1]` those
    /// of the second half (`H^16 .. H^1`, also the powers of a 16-block group on its own).
    hv: [[__m256i; 8]; 2],
    /// Karatsuba middle operands: the low 64 bits of each lane of `hk[g][j]` are the XOR of the
    /// two halves of that lane of `hv[g][j]`.
    hk: [[__m256i; 8]; 2],
    /// A copy of `hv`. Each block pair multiplies by its `hv` entry twice; reading the second
    /// operand from a different address lets both multiplications take it from memory instead
    /// of holding it in a register, which keeps the GHASH accumulators out of stack spills
    /// (AVX2 has sixteen vector registers and eight hold the AES state).
    hv2: [[__m256i; 8]; 2],
}

tessera_cpu::with_features! { X86VaesClmul;
    #[inline]
    fn load2(s: &[u8]) -> __m256i {
        assert!(s.len() >= 32);
        // SAFETY: at least 32 readable bytes (checked above); unaligned load.
        unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
    }

    #[inline]
    fn bswap2(v: __m256i) -> __m256i {
        let m = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        _mm256_shuffle_epi8(v, _mm256_broadcastsi128_si256(m))
    }

    /// Accumulates the lane-wise unreduced products `x * h` into `(lo, karatsuba middle, hi)`:
    /// three carry-less multiplications instead of four (on Zen 3 `VPCLMULQDQ` is the scarce
    /// unit: one 256-bit multiplication every two cycles). `h2` equals `h`; `hk` holds
    /// `h_lo ^ h_hi` in the low 64 bits of each lane.
    #[inline]
    fn mul_acc2(x: __m256i, h: __m256i, h2: __m256i, hk: __m256i, acc: &mut [__m256i; 3]) {
        acc[0] = _mm256_xor_si256(acc[0], _mm256_clmulepi64_epi128(x, h, 0x00));
        acc[2] = _mm256_xor_si256(acc[2], _mm256_clmulepi64_epi128(x, h2, 0x11));
        let t = _mm256_xor_si256(x, _mm256_shuffle_epi32(x, 0x4e));
        acc[1] = _mm256_xor_si256(acc[1], _mm256_clmulepi64_epi128(t, hk, 0x00));
    }

    /// Adds the two lanes of each partial product, recovers the cross terms from the Karatsuba
    /// middle product (`mid ^ lo ^ hi`) and reduces.
    #[inline]
    fn reduce2(acc: &[__m256i; 3]) -> __m128i {
        let fold =
            |v: __m256i| _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        let (lo, hi) = (fold(acc[0]), fold(acc[2]));
        let mid = _mm_xor_si128(fold(acc[1]), _mm_xor_si128(lo, hi));
        reduce(&[lo, mid, hi])
    }

    /// `y` in the low lane, zero in the high one.
    #[inline]
    fn low_lane(y: __m128i) -> __m256i {
        _mm256_set_m128i(_mm_setzero_si128(), y)
    }
}

tessera_cpu::island! {
    /// Builds the 256-bit tables of an expanded key.
    pub(crate) fn new_wide(_t: X86VaesClmul, key: &Key) -> Wide {
        let mut rk128 = key.round_keys();
        let mut rk = [_mm256_setzero_si256(); 15];
        for (d, s) in rk.iter_mut().zip(rk128.iter()) {
            *d = _mm256_broadcastsi128_si256(*s);
        }
        rk128.zeroize();
        let hp = &key.hp;
        let mut hv = [[_mm256_setzero_si256(); 8]; 2];
        let mut hk = [[_mm256_setzero_si256(); 8]; 2];
        for g in 0..2 {
            for j in 0..8 {
                // Block 2j (low lane) of half g takes H^(32-16g-2j) = hp[31-16g-2j]; block
                // 2j+1 takes hp[30-16g-2j].
                let i = 16 * g + 2 * j;
                let h = _mm256_set_m128i(load(&hp[30 - i]), load(&hp[31 - i]));
                hv[g][j] = h;
                hk[g][j] = _mm256_xor_si256(h, _mm256_shuffle_epi32(h, 0x4e));
            }
        }
        Wide {
            rk,
            hv,
            hk,
            hv2: hv,
        }
    }
}

impl Drop for Wide {
    fn drop(&mut self) {
        self.rk.zeroize();
        self.hv.zeroize();
        self.hk.zeroize();
        self.hv2.zeroize();
    }
}

tessera_cpu::with_features! { X86VaesClmul;
    impl Wide {
        /// Absorbs the sixteen blocks of a 256-byte chunk into `y` (one reduction).
        #[inline]
        fn ghash16(&self, y: __m128i, c: &[u8]) -> __m128i {
            let mut acc = [_mm256_setzero_si256(); 3];
            for j in 0..8 {
                let mut x = bswap2(load2(&c[32 * j..]));
                if j == 0 {
                    x = _mm256_xor_si256(x, low_lane(y));
                }
                mul_acc2(x, self.hv[1][j], self.hv2[1][j], self.hk[1][j], &mut acc);
            }
            reduce2(&acc)
        }
    }
}

tessera_cpu::with_features! { X86VaesClmul;
    impl Ops<'_> {
        #[inline]
        pub(super) fn ghash_v(&self, y: __m128i, data: &[u8]) -> __m128i {
            let mut y = y;
            let mut chunks = data.chunks_exact(256);
            if data.len() >= 256 {
                for c in &mut chunks {
                    y = self.wide.ghash16(y, c);
                }
            }
            self.ni.ghash_v(y, chunks.remainder())
        }

        /// As the AES-NI `ctr_ghash`, sixteen blocks per step: the GHASH multiplications of a
        /// chunk (the previous one when sealing) run between the AES rounds of the current one.
        #[inline]
        pub(super) fn ctr_ghash<const SEAL: bool>(
            &self,
            ctr: &[u8; 16],
            y: &mut [u8; 16],
            buf: &mut [u8],
        ) {
            if buf.len() < 256 {
                return self.ni.ctr_ghash::<SEAL>(ctr, y, buf);
            }
            let whole = buf.len() / 256 * 256;
            // The counter shortcut exists only in the public-counter instance: with a secret
            // counter (`J0 = GHASH_H(IV)`) no comparison of its value is even compiled.
            let next = if self.public_counter {
                self.ctr_ghash_chunks::<SEAL, true>(ctr, y, &mut buf[..whole])
            } else {
                self.ctr_ghash_chunks::<SEAL, false>(ctr, y, &mut buf[..whole])
            };
            self.ni.ctr_ghash::<SEAL>(&next, y, &mut buf[whole..]);
        }

        /// [`Self::ctr_ghash`] over whole 256-byte chunks; returns the next counter block.
        ///
        /// The round loop is deliberately not unrolled (the round count is read from the key at
        /// run time): each iteration is one round of all eight registers plus one block pair of
        /// GHASH, and that order reaches the CPU as written. Fully unrolled, LLVM regroups the
        /// rounds into one long chain per register and spills, which runs slower.
        #[inline]
        fn ctr_ghash_chunks<const SEAL: bool, const PUBLIC_COUNTER: bool>(
            &self,
            ctr: &[u8; 16],
            y: &mut [u8; 16],
            buf: &mut [u8],
        ) -> [u8; 16] {
            let w = self.wide;
            let nr = self.ni.key.nr;
            let mut yv = bswap(load(y));
            let c0 = bswap(load(ctr));
            // Lanes hold counters n and n + 1 (32-bit word in dword 0 of each lane, wrapping).
            let mut c = _mm256_set_m128i(_mm_add_epi32(c0, _mm_set_epi32(0, 0, 0, 1)), c0);
            let two = _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 2);
            let sixteen = _mm256_set_epi32(0, 0, 0, 16, 0, 0, 0, 16);
            let mut n = u32::from_be_bytes([ctr[12], ctr[13], ctr[14], ctr[15]]);
            // GHASH is reduced once per 32 blocks: chunk `i` of a pair is multiplied by
            // `H^32..H^17` (first, carrying the running hash; no reduction) or `H^16..H^1` (second,
            // then reduce). A last unpaired chunk is multiplied by `H^16..H^1` on its own.
            // Returns (half of the power table, first, reduce).
            let count = buf.len() / 256;
            let powers = |i: usize| -> (usize, bool, bool) {
                if count % 2 == 1 && i == count - 1 {
                    (1, true, true)
                } else if i.is_multiple_of(2) {
                    (0, true, false)
                } else {
                    (1, false, true)
                }
            };
            let len = buf.len();
            let p = buf.as_mut_ptr();
            // Loads and stores go through `p` with an explicit bound check: sealing reads chunk
            // `i - 1` for GHASH while chunk `i` is written, and one base pointer keeps the offsets
            // simple for the compiler. Macros rather than closures: the bodies must be inlined into
            // this island.
            macro_rules! ld {
                ($off:expr) => {{
                    let off: usize = $off;
                    assert!(off + 32 <= len);
                    // SAFETY: `off + 32 <= len` (checked above): 32 readable bytes of `buf`;
                    // unaligned load.
                    unsafe { _mm256_loadu_si256(p.add(off).cast()) }
                }};
            }
            macro_rules! st {
                ($off:expr, $v:expr) => {{
                    let off: usize = $off;
                    assert!(off + 32 <= len);
                    // SAFETY: `off + 32 <= len` (checked above): 32 writable bytes of `buf`
                    // (exclusively borrowed by this function); unaligned store.
                    unsafe { _mm256_storeu_si256(p.add(off).cast(), $v) }
                }};
            }
            macro_rules! aes8 {
                ($ks:expr, $rk:expr) => {
                    for k in $ks.iter_mut() {
                        *k = _mm256_aesenc_epi128(*k, *$rk);
                    }
                };
            }
            let mut acc = [_mm256_setzero_si256(); 3];
            for i in 0..count {
                let mut ks = [_mm256_setzero_si256(); 8];
                if PUBLIC_COUNTER && n & 0xff <= 0xf0 {
                    // No carry out of the last byte within this chunk: add to the big-endian
                    // counter blocks directly (one byte swap per chunk instead of eight). Only for
                    // public counters: the test is a branch on the counter value.
                    let cbe = bswap2(c);
                    for (j, k) in ks.iter_mut().enumerate() {
                        let d = ((2 * j) << 24) as i32;
                        let inc = _mm256_set_epi32(d, 0, 0, 0, d, 0, 0, 0);
                        *k = _mm256_xor_si256(_mm256_add_epi32(cbe, inc), w.rk[0]);
                    }
                    c = _mm256_add_epi32(c, sixteen);
                } else {
                    for k in ks.iter_mut() {
                        *k = _mm256_xor_si256(bswap2(c), w.rk[0]);
                        c = _mm256_add_epi32(c, two);
                    }
                }
                // The public counter value (only its low byte decides the path above).
                n = n.wrapping_add(16);
                // The chunk absorbed during this one's AES rounds: the previous one's ciphertext
                // when sealing (already stored in `buf`), this one's when opening (loaded before
                // this chunk's plaintext is stored over it).
                if SEAL && i == 0 {
                    for rk in &w.rk[1..nr] {
                        aes8!(ks, rk);
                    }
                } else {
                    let h = if SEAL { i - 1 } else { i };
                    let (g, first, reduce) = powers(h);
                    let (hv, hv2, hk) = (&w.hv[g], &w.hv2[g], &w.hk[g]);
                    let src = 256 * h;
                    if first {
                        acc = [_mm256_setzero_si256(); 3];
                    }
                    let mut rks = w.rk[1..nr].iter();
                    // Pairs 1..=7 in rounds 1..=7; pair 0 (which may carry the running hash) in
                    // round 8, so the chain from one reduction to the next is as short as possible.
                    for (j, rk) in (1..8).zip(&mut rks) {
                        aes8!(ks, rk);
                        mul_acc2(bswap2(ld!(src + 32 * j)), hv[j], hv2[j], hk[j], &mut acc);
                    }
                    if let Some(rk) = rks.next() {
                        aes8!(ks, rk);
                    }
                    let mut x = bswap2(ld!(src));
                    if first {
                        x = _mm256_xor_si256(x, low_lane(yv));
                    }
                    mul_acc2(x, hv[0], hv2[0], hk[0], &mut acc);
                    for rk in rks {
                        aes8!(ks, rk);
                    }
                    if reduce {
                        yv = reduce2(&acc);
                    }
                }
                let at = 256 * i;
                let last = w.rk[nr];
                for (j, k) in ks.iter().enumerate() {
                    // AESENCLAST ends with the XOR of the round key: folding the input into the
                    // key gives the output directly.
                    let input = ld!(at + 32 * j);
                    st!(
                        at + 32 * j,
                        _mm256_aesenclast_epi128(*k, _mm256_xor_si256(input, last))
                    );
                }
            }
            if SEAL && count > 0 {
                let (g, first, _) = powers(count - 1);
                if first {
                    acc = [_mm256_setzero_si256(); 3];
                }
                let src = 256 * (count - 1);
                for j in (1..8).chain(0..1) {
                    let mut x = bswap2(ld!(src + 32 * j));
                    if j == 0 && first {
                        x = _mm256_xor_si256(x, low_lane(yv));
                    }
                    mul_acc2(x, w.hv[g][j], w.hv2[g][j], w.hk[g][j], &mut acc);
                }
                yv = reduce2(&acc);
            }
            // The low lane holds the next counter.
            let mut next = [0u8; 16];
            store(&mut next, bswap(_mm256_castsi256_si128(c)));
            store(y, bswap(yv));
            next
        }

        #[inline]
        pub(super) fn encrypt_block_tf(&self, block: &mut [u8; 16]) {
            self.ni.encrypt_block_tf(block)
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
            fn encrypt_block(_t: X86VaesClmul, o: &Ops<'_>, block: &mut [u8; 16]) {
                o.encrypt_block_tf(block)
            }
        }
        encrypt_block(self.t, self, block)
    }

    #[inline(always)]
    fn ghash(&self, y: &mut [u8; 16], data: &[u8]) {
        tessera_cpu::island! {
            fn ghash(_t: X86VaesClmul, o: &Ops<'_>, y: &mut [u8; 16], data: &[u8]) {
                store(y, bswap(o.ghash_v(bswap(load(y)), data)))
            }
        }
        ghash(self.t, self, y, data)
    }

    #[inline(always)]
    fn ctr_ghash<const SEAL: bool>(&self, ctr: &[u8; 16], y: &mut [u8; 16], buf: &mut [u8]) {
        tessera_cpu::island! {
            fn ctr_ghash<const SEAL: bool>(
                _t: X86VaesClmul,
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

/// The key layout of both VAES rows: the AES-NI key (all thirty-two `H` powers used) and the
/// 256-bit tables.
#[derive(Clone)]
pub(crate) struct VaesKey {
    pub(super) ni: Key,
    pub(super) wide: Wide,
}

/// Below this many bytes of message and of AAD this backend runs the AES-NI code (same key
/// layout): the 256-bit path only starts at a whole 256-byte chunk, and entering it costs more
/// than it saves on short inputs (`cargo xtask bench aes128-gcm-seal`, 64-byte rows).
const VAES_MIN_LEN: usize = 256;

/// Whether the message or the AAD reaches `min` bytes: the wide x86 paths take only inputs
/// that do (both lengths are public).
#[inline(always)]
pub(super) fn reaches(min: usize, aad: &[u8], buf: &[u8]) -> bool {
    buf.len() >= min || aad.len() >= min
}

/// The 256-bit VAES row of the backend table.
pub(crate) struct Vaes256;

impl Unit for Vaes256 {
    type Token = X86VaesClmul;
    type Key = VaesKey;

    #[inline(always)]
    fn new_key(t: X86VaesClmul, key: &[u8]) -> VaesKey {
        let ni = ni::new_key(t.aes_clmul(), key);
        let wide = new_wide(t, &ni);
        VaesKey { ni, wide }
    }

    /// The 256-bit code from [`VAES_MIN_LEN`] bytes of message or AAD, else the AES-NI code.
    #[inline(always)]
    fn gcm<const SEAL: bool>(
        t: X86VaesClmul,
        key: &VaesKey,
        iv: Iv<'_>,
        aad: &[u8],
        buf: &mut [u8],
    ) -> [u8; 16] {
        if reaches(VAES_MIN_LEN, aad, buf) {
            run::<SEAL>(t, &key.ni, &key.wide, iv, aad, buf)
        } else {
            ni::run::<SEAL>(t.aes_clmul(), &key.ni, iv, aad, buf)
        }
    }

    /// The AES-NI block cipher (same key layout).
    #[inline(always)]
    fn crypt_blocks<const ENC: bool>(t: X86VaesClmul, key: &VaesKey, blocks: &mut [[u8; 16]]) {
        ni::AesNi::crypt_blocks::<ENC>(t.aes_clmul(), &key.ni, blocks)
    }
}

tessera_cpu::island! {
    /// GCM-AE (`SEAL`, returns the tag) or GCM-AD (returns the expected tag) in this island.
    pub(crate) fn run<const SEAL: bool>(
        t: X86VaesClmul,
        key: &Key,
        wide: &Wide,
        iv: Iv<'_>,
        aad: &[u8],
        buf: &mut [u8],
    ) -> [u8; 16] {
        gcm::run::<SEAL, _>(&Ops::new(t, key, wide, iv), iv, aad, buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    tessera_cpu::island! {
        /// Whether the view built for `iv` takes the public-counter shortcut.
        fn public_counter(t: X86VaesClmul, key: &Key, wide: &Wide, iv: Iv<'_>) -> bool {
            Ops::new(t, key, wide, iv).public_counter
        }
    }

    /// Only a 96-bit nonce makes the counter public; any other nonce length (and a `J0` given
    /// directly) derives the counter from the key, so the branchy shortcut must stay off.
    #[test]
    fn public_counter_only_for_96_bit_nonces() {
        // Without VAES there is nothing to check (CI's native leg has it).
        let Some(t) = X86VaesClmul::detect() else {
            return;
        };
        let key = ni::new_key(t.aes_clmul(), &[7u8; 16]);
        let wide = new_wide(t, &key);
        for n in 1..=64usize {
            let nonce = &[0xa5u8; 64][..n];
            assert_eq!(
                public_counter(t, &key, &wide, Iv::Nonce(nonce)),
                n == 12,
                "{n}-byte nonce"
            );
        }
        let j0 = [0u8; 16];
        assert!(
            !public_counter(t, &key, &wide, Iv::J0(&j0)),
            "J0 given directly"
        );
    }
}
