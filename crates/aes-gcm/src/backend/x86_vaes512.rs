//! x86_64 VAES + VPCLMULQDQ backend on 512-bit vectors (AVX-512 F/BW/VL).
//!
//! Thirty-two blocks are in flight, four per zmm register; GHASH multiplies a 512-byte chunk
//! by `H^32 .. H^1` lane-wise (four multiplications per register), reduces the three lane-wise
//! partial products once per chunk and then adds the lanes (the reflected representation of the
//! AES-NI backend, whose key layout all three x86 backends share). The multiplications of a
//! chunk run between the AES rounds of a later one (opening: of the same chunk; sealing: two
//! chunks on). What is left after the 512-byte chunks goes through the 256-bit VAES code (and its AES-NI tail),
//! compiled into the same island.
//!
//! # Throughput bound
//!
//! On the Intel cores with VAES-512 (Ice Lake and later; Emerald Rapids for the figures here)
//! only two ports execute 512-bit uops and `VAESENC` runs on one of them at one per cycle,
//! beside the `VPCLMULQDQ` multiplications on the other. The AES rounds are the bound: per
//! 512-byte chunk 80 `VAESENC zmm` for AES-128 (10 cycles per 64-byte block, about 0.16
//! cycles/byte) and 112 for AES-256. Every other vector uop of the schedule (the 32
//! multiplications, byte swaps, lane extracts: about 46 that only the second port runs, and
//! about 38 XORs and adds that either can) competes for the second port, so the schedule is
//! counted in uops and kept to one uop per step where it can be (see
//! `Ops::ctr_ghash_chunks`); AES-128 is then bound at about 82 cycles per chunk, AES-256 stays
//! at 112.
//!
//! The 256-bit loop of `x86_vaes` lowers the clock of these cores for a few milliseconds after
//! it runs; this loop, the AES-NI code and the peers' do not. The bench therefore races
//! Tessera's other backends apart from the peers. Reproduce the figures with
//! `cargo xtask bench gcm` (rows `aes128-gcm-seal`, `aes256-gcm-open`, ...; 16 and 64 KiB for
//! the bound).
//!
//! On Zen 3 (AVX2 only, the 256-bit code of `x86_vaes.rs`) `VPCLMULQDQ ymm` issues once every
//! two cycles on the same two pipes as `VAESENC ymm`: a 256-byte AES-128 chunk costs 80
//! `VAESENC` plus 24 multiplications (48 pipe-cycles) over two pipes, about 64 cycles (derived
//! from those rates).

use super::x86_aesni::{AesNi, Key};
use super::x86_clmul::{bswap, load, store};
use super::x86_vaes as v256;
use crate::gcm::{self, GcmOps, Iv, Unit};
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
    /// The counter is public: it comes from a 96-bit nonce. With other nonce lengths `J0` is
    /// `GHASH_H(IV)`, derived from the key, and no branch may depend on it.
    public_counter: bool,
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

    /// Three-way XOR (one `VPTERNLOGD`).
    #[inline]
    fn xor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
        _mm512_ternarylogic_epi32::<0x96>(a, b, c)
    }

    /// Accumulates the lane-wise unreduced products `xa * ha + xb * hb` into `(lo, mid, hi)`
    /// (eight multiplications, four three-way XORs); `first` starts the accumulators instead.
    #[inline]
    fn mul_pair(
        xa: __m512i,
        ha: __m512i,
        xb: __m512i,
        hb: __m512i,
        acc: &mut [__m512i; 3],
        first: bool,
    ) {
        let lo_a = _mm512_clmulepi64_epi128(xa, ha, 0x00);
        let lo_b = _mm512_clmulepi64_epi128(xb, hb, 0x00);
        let m0_a = _mm512_clmulepi64_epi128(xa, ha, 0x01);
        let m1_a = _mm512_clmulepi64_epi128(xa, ha, 0x10);
        let m0_b = _mm512_clmulepi64_epi128(xb, hb, 0x01);
        let m1_b = _mm512_clmulepi64_epi128(xb, hb, 0x10);
        let hi_a = _mm512_clmulepi64_epi128(xa, ha, 0x11);
        let hi_b = _mm512_clmulepi64_epi128(xb, hb, 0x11);
        if first {
            acc[0] = _mm512_xor_si512(lo_a, lo_b);
            acc[1] = xor3(m0_a, m1_a, _mm512_xor_si512(m0_b, m1_b));
            acc[2] = _mm512_xor_si512(hi_a, hi_b);
        } else {
            acc[0] = xor3(acc[0], lo_a, lo_b);
            acc[1] = xor3(acc[1], m0_a, m1_a);
            acc[1] = xor3(acc[1], m0_b, m1_b);
            acc[2] = xor3(acc[2], hi_a, hi_b);
        }
    }

    /// Reduces the lane-wise products `(lo, mid, hi)` modulo `P` in every lane and adds the four
    /// lanes (reduction is linear). The folds of `x86_clmul::reduce`, with the middle product kept
    /// apart: the low 64 bits of `lo` times `x^-1 mod P` (plus the swap for its `1` term) land
    /// on the middle words, then the low 64 bits of the middle on the high words.
    #[inline]
    fn reduce4(acc: &[__m512i; 3]) -> __m128i {
        let c = _mm512_set1_epi64(0xC200_0000_0000_0000u64 as i64);
        let t = _mm512_clmulepi64_epi128(acc[0], c, 0x00);
        let mid = xor3(acc[1], t, _mm512_shuffle_epi32::<0x4e>(acc[0]));
        let t = _mm512_clmulepi64_epi128(mid, c, 0x00);
        let r = xor3(acc[2], t, _mm512_shuffle_epi32::<0x4e>(mid));
        let h = _mm256_xor_si256(_mm512_castsi512_si256(r), _mm512_extracti64x4_epi64::<1>(r));
        _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256::<1>(h))
    }

    /// `y` in lane 0, zero in the others.
    #[inline]
    fn lane0(y: __m128i) -> __m512i {
        _mm512_zextsi128_si512(y)
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
            // `hp[i]` holds `H^(i+1)`: the four powers of `hv[j]` are `hp[28 - 4j ..= 31 - 4j]`,
            // one 64-byte load with its lanes reversed (built per operation: one load and one
            // lane shuffle per register).
            let hp = key.hp.as_flattened();
            let mut hv = [_mm512_setzero_si512(); 8];
            for (j, h) in hv.iter_mut().enumerate() {
                let v = load4(&hp[16 * (28 - 4 * j)..]);
                *h = _mm512_shuffle_i64x2::<0x1b>(v, v);
            }
            Ops {
                t,
                v,
                rk,
                hv,
                public_counter: matches!(iv, Iv::Nonce(n) if n.len() == 12),
            }
        }

        /// Absorbs thirty-two byte-reflected blocks (four per register) into `y`.
        #[inline]
        fn ghash32(&self, y: __m128i, x: &[__m512i; 8]) -> __m128i {
            let mut acc = [_mm512_setzero_si512(); 3];
            let x0 = _mm512_xor_si512(x[0], lane0(y));
            let hv = &self.hv;
            mul_pair(x[1], hv[1], x[2], hv[2], &mut acc, true);
            mul_pair(x[3], hv[3], x[4], hv[4], &mut acc, false);
            mul_pair(x[5], hv[5], x[6], hv[6], &mut acc, false);
            mul_pair(x[7], hv[7], x0, hv[0], &mut acc, false);
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
        /// code.
        #[inline]
        fn ctr_ghash<const SEAL: bool>(&self, ctr: &[u8; 16], y: &mut [u8; 16], buf: &mut [u8]) {
            let (chunks, tail) = buf.as_chunks_mut::<512>();
            if chunks.is_empty() {
                return self.v.ctr_ghash::<SEAL>(ctr, y, tail);
            }
            // One instance per round count (the rounds and the GHASH slots between them are laid
            // out at compile time) and per counter kind. `ALIGNED`: the counter is public (a
            // 96-bit nonce) and starts at 2 modulo 32, as every message's first counter block
            // `J0 + 1` does; the branch reads the public counter only. With a secret counter
            // (`J0 = GHASH_H(IV)`) the general instance runs and no comparison of its value is
            // compiled.
            let aligned = self.public_counter && ctr[15] & 31 == 2;
            let next = match (aligned, self.v.ni.key.nr) {
                (true, 10) => self.ctr_ghash_chunks::<SEAL, true, 10>(ctr, y, chunks),
                (true, 12) => self.ctr_ghash_chunks::<SEAL, true, 12>(ctr, y, chunks),
                (true, _) => self.ctr_ghash_chunks::<SEAL, true, 14>(ctr, y, chunks),
                (false, 10) => self.ctr_ghash_chunks::<SEAL, false, 10>(ctr, y, chunks),
                (false, 12) => self.ctr_ghash_chunks::<SEAL, false, 12>(ctr, y, chunks),
                (false, _) => self.ctr_ghash_chunks::<SEAL, false, 14>(ctr, y, chunks),
            };
            self.v.ctr_ghash::<SEAL>(&next, y, tail);
        }

        /// The GHASH of one 512-byte chunk as four register pairs, `(1, 2)`, `(3, 4)`, `(5, 6)`,
        /// `(7, 0)`: pair `Q` (eight multiplications, four three-way XORs) into `acc`. Register 0
        /// carries the running hash `yv` and goes last, so the chain from one chunk's reduction
        /// to the next is as short as possible. `Q` is a constant so that every index and branch
        /// here folds away.
        #[inline]
        fn ghash_pair<const Q: usize>(&self, c: &[u8; 512], yv: __m128i, acc: &mut [__m512i; 3]) {
            let (a, b) = (2 * Q + 1, (2 * Q + 2) % 8);
            let xa = bswap4(load4(&c[64 * a..]));
            let mut xb = bswap4(load4(&c[64 * b..]));
            if b == 0 {
                xb = _mm512_xor_si512(xb, lane0(yv));
            }
            mul_pair(xa, self.hv[a], xb, self.hv[b], acc, Q == 0);
        }

        /// [`Self::ctr_ghash`] over whole 512-byte chunks with `NR` rounds; returns the next
        /// counter block.
        ///
        /// Chunk `i`'s AES rounds run with the GHASH of chunk `i - 2` (sealing: its ciphertext,
        /// stored one whole chunk earlier) or of chunk `i` (opening: loaded before its
        /// plaintext is stored over it) between them, one register pair at a time (sealing:
        /// spread over all the rounds; opening: every two rounds from the start); a sealed
        /// message's last two chunks are hashed after the loop. Sealing two chunks behind
        /// rather than one: the ciphertext of chunk `i - 1` is ready only when that chunk's last
        /// round is, so its products wait on the AES rounds, while chunk `i - 2`'s are ready
        /// throughout and fill the second port whenever it is free (`cargo xtask bench
        /// aes256-gcm-seal`, 64 KiB rows). The schedule is counted in 512-bit vector uops, which this
        /// core issues on two ports only, `VAESENC` on one of them (see the module docs):
        /// besides the `VAESENC` and the 32 `VPCLMULQDQ` of a chunk everything is kept to one
        /// uop where possible: three-way XORs (`VPTERNLOGD`) to accumulate products, the
        /// message folded into the last round key (`VAESENCLAST` ends with that XOR), the
        /// reduction done lane-wise on the three accumulators before the lanes are added, and
        /// (`ALIGNED`) counter blocks made by one XOR each from the chunk's first one.
        #[inline]
        fn ctr_ghash_chunks<const SEAL: bool, const ALIGNED: bool, const NR: usize>(
            &self,
            ctr: &[u8; 16],
            y: &mut [u8; 16],
            chunks: &mut [[u8; 512]],
        ) -> [u8; 16] {
            let mut yv = bswap(load(y));
            let c0 = bswap(load(ctr));
            // Lanes hold counters n .. n + 3 (32-bit word in dword 0 of each lane, wrapping).
            let mut c = _mm512_add_epi32(
                _mm512_broadcast_i32x4(c0),
                _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0),
            );
            let four = _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4);
            let thirty_two = _mm512_set_epi32(0, 0, 0, 32, 0, 0, 0, 32, 0, 0, 0, 32, 0, 0, 0, 32);
            let twenty_eight = _mm512_set_epi32(0, 0, 0, 28, 0, 0, 0, 28, 0, 0, 0, 28, 0, 0, 0, 28);
            // `ALIGNED` counter steps: `steps[j - 1]` has `(2 + l) ^ (2 + l + 4j)` in the last
            // byte of lane `l` (see below), built once.
            let mut steps = [_mm512_setzero_si512(); 6];
            for (j, d) in (1..7).zip(steps.iter_mut()) {
                let e = |l: usize| (((2 + l) ^ (2 + l + 4 * j)) << 24) as i32;
                *d = _mm512_set_epi32(e(3), 0, 0, 0, e(2), 0, 0, 0, e(1), 0, 0, 0, e(0), 0, 0, 0);
            }
            // Sealing hashes two chunks behind: the first two chunks (of at most two) run their
            // rounds alone, in a loop of their own, so that each loop's body is one path.
            let n = chunks.len();
            let first = if SEAL { n.min(2) } else { 0 };
            let cst = (four, twenty_eight, thirty_two, &steps);
            for i in 0..first {
                self.chunk::<SEAL, ALIGNED, NR, false>(chunks, i, &mut c, &mut yv, cst);
            }
            for i in first..n {
                self.chunk::<SEAL, ALIGNED, NR, true>(chunks, i, &mut c, &mut yv, cst);
            }
            if SEAL {
                for src in &chunks[chunks.len().saturating_sub(2)..] {
                    let mut acc = [_mm512_setzero_si512(); 3];
                    self.ghash_pair::<0>(src, yv, &mut acc);
                    self.ghash_pair::<1>(src, yv, &mut acc);
                    self.ghash_pair::<2>(src, yv, &mut acc);
                    self.ghash_pair::<3>(src, yv, &mut acc);
                    yv = reduce4(&acc);
                }
            }
            // Lane 0 holds the next counter.
            let mut next = [0u8; 16];
            store(&mut next, bswap(_mm512_castsi512_si128(c)));
            store(y, bswap(yv));
            next
        }

        /// Chunk `i` of [`Self::ctr_ghash_chunks`]: its counter blocks from `c` (advanced), its
        /// AES rounds with (`HASH`) the GHASH of the chunk absorbed meanwhile into `yv`, its
        /// output stored over it. `cst`: the counter steps (see the caller).
        #[inline]
        #[allow(clippy::type_complexity)]
        fn chunk<const SEAL: bool, const ALIGNED: bool, const NR: usize, const HASH: bool>(
            &self,
            chunks: &mut [[u8; 512]],
            i: usize,
            c: &mut __m512i,
            yv: &mut __m128i,
            cst: (__m512i, __m512i, __m512i, &[__m512i; 6]),
        ) {
            let (four, twenty_eight, thirty_two, steps) = cst;
            let rk: &[__m512i; 15] = &self.rk;
            let mut ks = [_mm512_setzero_si512(); 8];
            if ALIGNED {
                // Lane `l` of register `j` takes counter `n + 4j + l` with `n = 2 mod 32`:
                // for `j < 7` the sum stays below the next multiple of 32, so adding
                // `4j` to the last byte is XORing `(2 + l) ^ (2 + l + 4j)` into it. One
                // byte swap and one XOR per register; register 7 (whose last two lanes
                // carry) is computed in full.
                let b = _mm512_xor_si512(bswap4(*c), rk[0]);
                ks[0] = b;
                for (k, d) in ks[1..7].iter_mut().zip(steps) {
                    *k = _mm512_xor_si512(b, *d);
                }
                ks[7] = _mm512_xor_si512(bswap4(_mm512_add_epi32(*c, twenty_eight)), rk[0]);
                *c = _mm512_add_epi32(*c, thirty_two);
            } else {
                for k in ks.iter_mut() {
                    *k = _mm512_xor_si512(bswap4(*c), rk[0]);
                    *c = _mm512_add_epi32(*c, four);
                }
            }
            let (done, rest) = chunks.split_at_mut(i);
            let cur = &mut rest[0];
            macro_rules! round {
                ($k:expr) => {{
                    let k: __m512i = $k;
                    for b in ks.iter_mut() {
                        *b = _mm512_aesenc_epi128(*b, k);
                    }
                }};
            }
            // The chunk absorbed during this one's rounds (sealing: two chunks behind).
            if HASH {
                let src: &[u8; 512] = if SEAL { &done[i - 2] } else { &*cur };
                let mut acc = [_mm512_setzero_si512(); 3];
                // Written out round by round; every condition in `step!` is a constant,
                // so each instance is straight-line code.
                macro_rules! step {
                    ($($r:literal)*) => {$(
                        if $r < NR {
                            round!(rk[$r]);
                        }
                        if $r == pair_slot::<SEAL, NR>(0) {
                            self.ghash_pair::<0>(src, *yv, &mut acc);
                        }
                        if $r == pair_slot::<SEAL, NR>(1) {
                            self.ghash_pair::<1>(src, *yv, &mut acc);
                        }
                        if $r == pair_slot::<SEAL, NR>(2) {
                            self.ghash_pair::<2>(src, *yv, &mut acc);
                        }
                        if $r == pair_slot::<SEAL, NR>(3) {
                            self.ghash_pair::<3>(src, *yv, &mut acc);
                            *yv = reduce4(&acc);
                        }
                    )*};
                }
                step!(1 2 3 4 5 6 7 8 9 10 11 12 13);
            } else {
                for k in &rk[1..NR] {
                    round!(*k);
                }
            }
            let last = rk[NR];
            for (j, k) in ks.iter().enumerate() {
                // AESENCLAST ends with the XOR of the round key: folding the input into the
                // key gives the output directly.
                let input = load4(&cur[64 * j..]);
                let out = _mm512_aesenclast_epi128(*k, _mm512_xor_si512(input, last));
                store4(&mut cur[64 * j..], out);
            }
        }

        #[inline]
        fn encrypt_block_tf(&self, block: &mut [u8; 16]) {
            self.v.encrypt_block_tf(block)
        }
    }
}

/// The AES round (of `1 .. NR`) after which GHASH register pair `q` of a 512-byte chunk runs:
/// sealing spreads the pairs over all the rounds, `(q + 1) (NR - 1) / 4`; opening runs them
/// every two rounds from the start, `2q + 2`, as early as the data allows. Pair 3 is followed by
/// the chunk's reduction.
const fn pair_slot<const SEAL: bool, const NR: usize>(q: usize) -> usize {
    if SEAL {
        (q + 1) * (NR - 1) / 4
    } else {
        2 * q + 2
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
            fn encrypt_block(_t: X86Vaes512, o: &Ops<'_>, block: &mut [u8; 16]) {
                o.encrypt_block_tf(block)
            }
        }
        encrypt_block(self.t, self, block)
    }

    #[inline(always)]
    fn ghash(&self, y: &mut [u8; 16], data: &[u8]) {
        tessera_cpu::island! {
            fn ghash(_t: X86Vaes512, o: &Ops<'_>, y: &mut [u8; 16], data: &[u8]) {
                store(y, bswap(o.ghash_v(bswap(load(y)), data)))
            }
        }
        ghash(self.t, self, y, data)
    }

    #[inline(always)]
    fn ctr_ghash<const SEAL: bool>(&self, ctr: &[u8; 16], y: &mut [u8; 16], buf: &mut [u8]) {
        tessera_cpu::island! {
            fn ctr_ghash<const SEAL: bool>(
                _t: X86Vaes512,
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

/// Below this many bytes of message and of AAD this backend runs the 256-bit VAES code (same
/// key layout): its stride is a whole 512-byte chunk.
const VAES512_MIN_LEN: usize = 512;

/// The 512-bit VAES row of the backend table (key layout shared with the 256-bit row).
pub(crate) struct Vaes512;

impl Unit for Vaes512 {
    type Token = X86Vaes512;
    type Key = v256::VaesKey;

    #[inline(always)]
    fn new_key(t: X86Vaes512, key: &[u8]) -> v256::VaesKey {
        v256::Vaes256::new_key(t.vaes_clmul(), key)
    }

    /// The 512-bit code from [`VAES512_MIN_LEN`] bytes of message or AAD, else the 256-bit
    /// row's choice (256-bit or AES-NI code).
    #[inline(always)]
    fn gcm<const SEAL: bool>(
        t: X86Vaes512,
        key: &v256::VaesKey,
        iv: Iv<'_>,
        aad: &[u8],
        buf: &mut [u8],
    ) -> [u8; 16] {
        if v256::reaches(VAES512_MIN_LEN, aad, buf) {
            run::<SEAL>(t, &key.ni, &key.wide, iv, aad, buf)
        } else {
            v256::Vaes256::gcm::<SEAL>(t.vaes_clmul(), key, iv, aad, buf)
        }
    }

    /// The AES-NI block cipher (same key layout).
    #[inline(always)]
    fn crypt_blocks<const ENC: bool>(t: X86Vaes512, key: &v256::VaesKey, blocks: &mut [[u8; 16]]) {
        AesNi::crypt_blocks::<ENC>(t.aes_clmul(), &key.ni, blocks)
    }
}

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
