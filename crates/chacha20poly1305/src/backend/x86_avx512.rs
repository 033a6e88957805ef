//! AVX-512 backend: ChaCha20 four blocks per zmm register (one per 128-bit lane, rows in the
//! "horizontal" layout of [`crate::chacha::Row`], `vprold` rotations), four register groups
//! (sixteen blocks, 1024 bytes) in flight; tails under 256 bytes run the AVX2 code. Poly1305
//! is the shared scalar code, stitched into the same loop ([`crate::construction`]).

use core::arch::x86_64::*;

use super::x86_avx2;
use crate::chacha::{Row, rounds_rows};
use crate::construction::{self, Keystream, MEDIUM_BUF};
use crate::poly1305;
use crate::wide::{Lanes, Wide};
use tessera_cpu::X86Avx512;

/// A zmm register holding one row of four blocks; carries the AVX-512 token (see
/// `x86_avx2::Ymm`).
#[derive(Clone, Copy)]
struct Zmm(__m512i, X86Avx512);

impl Row for Zmm {
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        // SAFETY: AVX-512F proven by the token in `self`.
        Zmm(unsafe { _mm512_add_epi32(self.0, o.0) }, self.1)
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        // SAFETY: AVX-512F proven by the token in `self`.
        Zmm(unsafe { _mm512_xor_si512(self.0, o.0) }, self.1)
    }
    #[inline(always)]
    fn rotl16(self) -> Self {
        // SAFETY: AVX-512F proven by the token in `self`.
        Zmm(unsafe { _mm512_rol_epi32::<16>(self.0) }, self.1)
    }
    #[inline(always)]
    fn rotl12(self) -> Self {
        // SAFETY: AVX-512F proven by the token in `self`.
        Zmm(unsafe { _mm512_rol_epi32::<12>(self.0) }, self.1)
    }
    #[inline(always)]
    fn rotl8(self) -> Self {
        // SAFETY: AVX-512F proven by the token in `self`.
        Zmm(unsafe { _mm512_rol_epi32::<8>(self.0) }, self.1)
    }
    #[inline(always)]
    fn rotl7(self) -> Self {
        // SAFETY: AVX-512F proven by the token in `self`.
        Zmm(unsafe { _mm512_rol_epi32::<7>(self.0) }, self.1)
    }
    #[inline(always)]
    fn rot_words1(self) -> Self {
        // SAFETY: AVX-512F proven by the token in `self`.
        Zmm(unsafe { _mm512_shuffle_epi32::<0x39>(self.0) }, self.1)
    }
    #[inline(always)]
    fn rot_words2(self) -> Self {
        // SAFETY: AVX-512F proven by the token in `self`.
        Zmm(unsafe { _mm512_shuffle_epi32::<0x4e>(self.0) }, self.1)
    }
    #[inline(always)]
    fn rot_words3(self) -> Self {
        // SAFETY: AVX-512F proven by the token in `self`.
        Zmm(unsafe { _mm512_shuffle_epi32::<0x93>(self.0) }, self.1)
    }
}

/// Row `r` of the state in all four lanes.
#[inline(always)]
fn row(t: X86Avx512, st: &[u32; 16], r: usize) -> Zmm {
    let w = &st[4 * r..4 * r + 4];
    // SAFETY: AVX-512F proven by `t`; `w` is four readable `u32`s (16 bytes, unaligned load).
    Zmm(
        unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(w.as_ptr().cast())) },
        t,
    )
}

/// XORs the keystream of `4 * S` blocks from counter `st[12]` into `data` (`data.len() <=
/// 256 * S`; a shorter `data` uses the first bytes of the keystream).
#[inline(always)]
fn xor_groups<const S: usize>(t: X86Avx512, st: &[u32; 16], data: &mut [u8]) {
    debug_assert!(data.len() <= 256 * S && S <= 5);
    let (a0, b0, c0) = (row(t, st, 0), row(t, st, 1), row(t, st, 2));
    let d0 = row(t, st, 3);
    // (Loops, not closures, in SIMD code: see `x86_avx2::xor_groups`.)
    let mut d_in = [d0; S];
    for (i, d) in d_in.iter_mut().enumerate() {
        let k = 4 * i as i32;
        // SAFETY: AVX-512F proven by `t`.
        let inc = unsafe {
            _mm512_setr_epi32(k, 0, 0, 0, k + 1, 0, 0, 0, k + 2, 0, 0, 0, k + 3, 0, 0, 0)
        };
        *d = d0.add(Zmm(inc, t));
    }
    let (mut a, mut b, mut c, mut d) = ([a0; S], [b0; S], [c0; S], d_in);
    rounds_rows(&mut a, &mut b, &mut c, &mut d);
    for i in 0..S {
        let (a, b, c, d) = (a[i].add(a0), b[i].add(b0), c[i].add(c0), d[i].add(d_in[i]));
        // SAFETY: AVX-512F proven by `t`. A 4x4 transpose of 128-bit lanes: block `j` is lane
        // `j` of rows a, b, c, d.
        let out = unsafe {
            let t0 = _mm512_shuffle_i64x2::<0x44>(a.0, b.0);
            let t1 = _mm512_shuffle_i64x2::<0x44>(c.0, d.0);
            let t2 = _mm512_shuffle_i64x2::<0xee>(a.0, b.0);
            let t3 = _mm512_shuffle_i64x2::<0xee>(c.0, d.0);
            [
                _mm512_shuffle_i64x2::<0x88>(t0, t1),
                _mm512_shuffle_i64x2::<0xdd>(t0, t1),
                _mm512_shuffle_i64x2::<0x88>(t2, t3),
                _mm512_shuffle_i64x2::<0xdd>(t2, t3),
            ]
        };
        for (j, o) in out.iter().enumerate() {
            let off = 256 * i + 64 * j;
            if off + 64 <= data.len() {
                let p = data[off..off + 64].as_mut_ptr();
                // SAFETY: AVX-512F proven by `t`; `p` points at 64 bytes of `data` (bounds
                // checked by the slice above), unaligned loads and stores.
                unsafe {
                    let x = _mm512_loadu_si512(p.cast());
                    _mm512_storeu_si512(p.cast(), _mm512_xor_si512(x, *o));
                }
            } else if off < data.len() {
                let mut tmp = [0u8; 64];
                // SAFETY: AVX-512F proven by `t`; `tmp` is 64 writable bytes.
                unsafe { _mm512_storeu_si512(tmp.as_mut_ptr().cast(), *o) };
                for (x, k) in data[off..].iter_mut().zip(&tmp) {
                    *x ^= k;
                }
                let (lo, hi) = tmp.split_at_mut(32);
                x86_avx2::wipe32(t.avx2(), lo.try_into().unwrap());
                x86_avx2::wipe32(t.avx2(), hi.try_into().unwrap());
            }
        }
    }
}

/// Overwrites 64 bytes of keystream with zeros: one volatile 64-byte store (kept by the
/// optimizer).
#[inline(always)]
fn wipe64(t: X86Avx512, b: &mut [u8; 64]) {
    let _ = t;
    // SAFETY: AVX-512F proven by `t`; `b` is 64 writable bytes, written by one unaligned
    // (`[u8; 64]`-typed, so alignment 1) volatile store of a zero vector.
    unsafe {
        core::ptr::write_volatile(
            b.as_mut_ptr().cast::<[u8; 64]>(),
            core::mem::transmute::<__m512i, [u8; 64]>(_mm512_setzero_si512()),
        );
    }
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

/// XORs the keystream from counter `st[12]` into `data` of any length, sixteen blocks at a
/// time.
#[inline(always)]
fn xor_stream(t: X86Avx512, st: &[u32; 16], data: &mut [u8]) {
    let mut s = *st;
    let mut chunks = data.chunks_exact_mut(1024);
    for c in &mut chunks {
        xor_groups::<4>(t, &s, c);
        s[12] = s[12].wrapping_add(16);
    }
    let rest = chunks.into_remainder();
    match rest.len() {
        0..256 => x86_avx2::xor_tail_vl(t, &s, rest),
        256..=512 => xor_groups::<2>(t, &s, rest),
        _ => xor_groups::<4>(t, &s, rest),
    }
    zeroize::Zeroize::zeroize(&mut s);
}

/// The AVX-512 keystream of the one-pass AEAD loop; messages up to 192 bytes run the ymm code
/// with `vprold`, messages up to 1216 bytes the medium path (see [`construction::run`]).
struct Ops(X86Avx512);

impl Keystream for Ops {
    type Wide = Wide<Q>;
    const CHUNK: usize = 1024;

    #[inline(always)]
    fn xor(&self, state: &[u32; 16], data: &mut [u8]) {
        // SAFETY: `xor_stream_tf` is compiled for the features of `X86Avx512`, which the token
        // in `self` proves.
        unsafe { xor_stream_tf(self.0, state, data) }
    }

    #[inline(always)]
    fn otk(&self, state: &[u32; 16]) -> [u8; 32] {
        let mut b = [0u8; 32];
        x86_avx2::xor_tail_vl(self.0, state, &mut b);
        b
    }

    const SHORT: usize = 192;

    #[inline(always)]
    fn short<const N: usize>(&self, state: &[u32; 16], ks: &mut [u8; N]) {
        x86_avx2::xor_tail_vl(self.0, state, ks)
    }

    const MEDIUM: usize = MEDIUM_MAX;

    #[inline(always)]
    fn medium(&self, state: &[u32; 16], ks: &mut [u8; MEDIUM_BUF], len: usize) {
        // SAFETY: `medium_tf` is compiled for the features of `X86Avx512`, which the token in
        // `self` proves.
        unsafe { medium_tf(self.0, state, ks, len) }
    }

    #[inline(always)]
    fn wide_new(&self, poly: &poly1305::State, len: usize) -> Option<Wide<Q>> {
        if len >= WIDE_MIN_LEN {
            Some(Wide::new(self.0, poly))
        } else {
            None
        }
    }

    #[inline(always)]
    fn wide_blocks(&self, w: &mut Wide<Q>, data: &[u8]) {
        // SAFETY: `wide_blocks_tf` is compiled for the features of `X86Avx512`, which the
        // token in `self` proves.
        unsafe { wide_blocks_tf(w, data) }
    }

    #[inline(always)]
    fn wide_finish(&self, w: Wide<Q>, poly: &mut poly1305::State) {
        w.finish(poly)
    }

    /// One 64-byte volatile store per block (`N` is a multiple of 64: 128, 256 or
    /// `MEDIUM_BUF`).
    #[inline(always)]
    fn wipe<const N: usize>(&self, ks: &mut [u8; N]) {
        const { assert!(N.is_multiple_of(64)) };
        for c in ks.chunks_exact_mut(64) {
            wipe64(self.0, c.try_into().unwrap());
        }
    }

    #[inline(always)]
    fn wipe_state(&self, st: &mut [u32; 16]) {
        x86_avx2::wipe_state(self.0.avx2(), st)
    }
}

tessera_cpu::with_features! { X86Avx512;
    /// [`Wide::blocks`] out of line: inlined into the one-pass loop, its 25 vector registers of
    /// state make the register allocator spill the ChaCha20 rows (measured 30% slower).
    #[inline(never)]
    fn wide_blocks_tf(w: &mut Wide<Q>, data: &[u8]) {
        w.blocks(data)
    }

    /// [`xor_stream`] out of line, for the same reason.
    #[inline(never)]
    fn xor_stream_tf(t: X86Avx512, st: &[u32; 16], data: &mut [u8]) {
        xor_stream(t, st, data)
    }

    /// The keystream of the medium path: blocks 0 (the Poly1305 key) to `len / 64 + 1`, in
    /// one pass of as many zmm groups as cover them (up to five: twenty blocks).
    #[inline(never)]
    fn medium_tf(t: X86Avx512, st: &[u32; 16], ks: &mut [u8; MEDIUM_BUF], len: usize) {
        match (64 + len).div_ceil(256) {
            0..=2 => xor_groups::<2>(t, st, &mut ks[..512]),
            3 => xor_groups::<3>(t, st, &mut ks[..768]),
            4 => xor_groups::<4>(t, st, &mut ks[..1024]),
            _ => xor_groups::<5>(t, st, ks),
        }
    }
}

/// The longest message of the medium path: nineteen blocks after the key block.
const MEDIUM_MAX: usize = MEDIUM_BUF - 64;

/// Messages from this many bytes on take the vectorized Poly1305 (below it, computing
/// `r^1..r^8` and folding the lanes costs more than the scalar code spends).
const WIDE_MIN_LEN: usize = 512;

/// Eight 64-bit lanes (radix-2^26 limbs of eight Poly1305 accumulators, one per lane); carries
/// the AVX-512 token like [`Zmm`].
#[derive(Clone, Copy)]
struct Q(__m512i, X86Avx512);

impl Lanes for Q {
    type Token = X86Avx512;
    const N: usize = 8;

    #[inline(always)]
    fn splat(t: X86Avx512, x: u64) -> Q {
        // SAFETY: AVX-512F proven by `t`.
        Q(unsafe { _mm512_set1_epi64(x as i64) }, t)
    }
    #[inline(always)]
    fn from_lanes(t: X86Avx512, x: &[u64; 8]) -> Q {
        // SAFETY: AVX-512F proven by `t`; `x` is 64 readable bytes.
        Q(unsafe { _mm512_loadu_si512(x.as_ptr().cast()) }, t)
    }
    #[inline(always)]
    fn lanes(self) -> [u64; 8] {
        let mut x = [0u64; 8];
        // SAFETY: AVX-512F proven by the token in `self`; `x` is 64 writable bytes.
        unsafe { _mm512_storeu_si512(x.as_mut_ptr().cast(), self.0) };
        x
    }
    /// Low 32 bits of each lane times low 32 bits of `o`'s (`vpmuludq`).
    #[inline(always)]
    fn mul(self, o: Q) -> Q {
        // SAFETY: AVX-512F proven by the token in `self`.
        Q(unsafe { _mm512_mul_epu32(self.0, o.0) }, self.1)
    }
    #[inline(always)]
    fn add(self, o: Q) -> Q {
        // SAFETY: AVX-512F proven by the token in `self`.
        Q(unsafe { _mm512_add_epi64(self.0, o.0) }, self.1)
    }
    #[inline(always)]
    fn shr<const N: u32>(self) -> Q {
        // SAFETY: AVX-512F proven by the token in `self`.
        Q(unsafe { _mm512_srli_epi64::<N>(self.0) }, self.1)
    }
    #[inline(always)]
    fn shl<const N: u32>(self) -> Q {
        // SAFETY: AVX-512F proven by the token in `self`.
        Q(unsafe { _mm512_slli_epi64::<N>(self.0) }, self.1)
    }
    #[inline(always)]
    fn or(self, o: Q) -> Q {
        // SAFETY: AVX-512F proven by the token in `self`.
        Q(unsafe { _mm512_or_si512(self.0, o.0) }, self.1)
    }
    #[inline(always)]
    fn and(self, o: Q) -> Q {
        // SAFETY: AVX-512F proven by the token in `self`.
        Q(unsafe { _mm512_and_si512(self.0, o.0) }, self.1)
    }
    #[inline(always)]
    fn token(self) -> X86Avx512 {
        self.1
    }
    /// Lane `j` of `lo`/`hi`: the low/high 64 bits of block `j` of 128 bytes.
    #[inline(always)]
    fn load_blocks(t: X86Avx512, g: &[u8]) -> (Q, Q) {
        let g = &g[..128];
        // SAFETY: AVX-512F proven by `t`; `g` is 128 readable bytes (two unaligned 64-byte
        // loads).
        unsafe {
            let a = _mm512_loadu_si512(g.as_ptr().cast());
            let b = _mm512_loadu_si512(g[64..].as_ptr().cast());
            let ilo = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
            let ihi = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
            (
                Q(_mm512_permutex2var_epi64(a, ilo, b), t),
                Q(_mm512_permutex2var_epi64(a, ihi, b), t),
            )
        }
    }
    #[inline(always)]
    fn block_of_lane(j: usize) -> usize {
        j
    }
}

tessera_cpu::island! {
    /// The AEAD of RFC 8439 section 2.8 compiled for AVX-512 (see [`construction::run`]).
    pub(crate) fn aead<const SEAL: bool>(
        t: X86Avx512,
        key: &[u32; 8],
        nonce: &[u8; 12],
        aad: &[u8],
        buf: &mut [u8],
    ) -> [u8; 16] {
        construction::run::<SEAL, _>(&Ops(t), key, nonce, aad, buf)
    }
}

tessera_cpu::island! {
    /// The keystream from counter `state[12]` XORed into `data`.
    pub(crate) fn keystream(t: X86Avx512, state: &[u32; 16], data: &mut [u8]) {
        xor_stream(t, state, data)
    }
}
