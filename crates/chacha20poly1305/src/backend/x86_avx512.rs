//! AVX-512 backend: ChaCha20 on whole 1 KiB pieces in the "vertical" layout (zmm `w` holds
//! word `w` of sixteen blocks: the rounds are adds, XORs and `vprold` with no shuffles, then
//! one 16x16 transpose of 32-bit words); the rest four blocks per zmm register (one per 128-bit
//! lane, rows in the "horizontal" layout of [`crate::chacha::Row`]); tails under 256 bytes run
//! the ymm code with `vprold`. Poly1305 over whole 128-byte groups is 8-way ([`WideMac`]):
//! radix 2^26 ([`crate::wide`]) on AVX-512 F/VL, radix 2^44 with IFMA (`Wide52` in
//! `x86_avx512_ifma.rs`, the `x86_avx512_ifma` backend: [`Ops`] with the IFMA token), over
//! whole 1 KiB pieces one group per double round inside the vertical rounds
//! ([`xor_mac_words`]); the rest the shared scalar code, in the same one-pass loop
//! ([`crate::construction`]).
//!
//! The IFMA code builds on this file (which does not name it).

use core::arch::x86_64::*;

use super::x86_avx2;
use crate::chacha::{Row, Rows, Side, rounds_rows, rounds_words};
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

/// The input rows of `S` groups of four blocks from counter `st[12]`: rows 0..3 (the same in
/// every group) and row 3 of each group (block `4i + j` in lane `j` of group `i`).
#[inline(always)]
fn rows_in<const S: usize>(t: X86Avx512, st: &[u32; 16]) -> ([Zmm; 3], [Zmm; S]) {
    let d0 = row(t, st, 3);
    // (Loops, not closures, in SIMD code: see `x86_avx2::groups`.)
    let mut d_in = [d0; S];
    for (i, d) in d_in.iter_mut().enumerate() {
        let k = 4 * i as i32;
        // SAFETY: AVX-512F proven by `t`.
        let inc = unsafe {
            _mm512_setr_epi32(k, 0, 0, 0, k + 1, 0, 0, 0, k + 2, 0, 0, 0, k + 3, 0, 0, 0)
        };
        *d = d0.add(Zmm(inc, t));
    }
    ([row(t, st, 0), row(t, st, 1), row(t, st, 2)], d_in)
}

/// A 4x4 transpose of 128-bit lanes: lane `j` of `a`, `b`, `c`, `d` becomes vector `j`.
#[inline(always)]
fn transpose_lanes(t: X86Avx512, a: __m512i, b: __m512i, c: __m512i, d: __m512i) -> [__m512i; 4] {
    let _ = t;
    // SAFETY: AVX-512F proven by `t`.
    unsafe {
        let t0 = _mm512_shuffle_i64x2::<0x44>(a, b);
        let t1 = _mm512_shuffle_i64x2::<0x44>(c, d);
        let t2 = _mm512_shuffle_i64x2::<0xee>(a, b);
        let t3 = _mm512_shuffle_i64x2::<0xee>(c, d);
        [
            _mm512_shuffle_i64x2::<0x88>(t0, t1),
            _mm512_shuffle_i64x2::<0xdd>(t0, t1),
            _mm512_shuffle_i64x2::<0x88>(t2, t3),
            _mm512_shuffle_i64x2::<0xdd>(t2, t3),
        ]
    }
}

/// XORs one block of keystream `o` into `data[off..off + 64]`, or into what is left of `data`
/// from `off` (nothing when `off >= data.len()`).
#[inline(always)]
fn xor_block(t: X86Avx512, data: &mut [u8], off: usize, o: __m512i) {
    if off + 64 <= data.len() {
        let p = data[off..off + 64].as_mut_ptr();
        // SAFETY: AVX-512F proven by `t`; `p` points at 64 bytes of `data` (bounds checked by
        // the slice above), unaligned loads and stores.
        unsafe {
            let x = _mm512_loadu_si512(p.cast());
            _mm512_storeu_si512(p.cast(), _mm512_xor_si512(x, o));
        }
    } else if off < data.len() {
        let mut tmp = [0u8; 64];
        // SAFETY: AVX-512F proven by `t`; `tmp` is 64 writable bytes.
        unsafe { _mm512_storeu_si512(tmp.as_mut_ptr().cast(), o) };
        for (x, k) in data[off..].iter_mut().zip(&tmp) {
            *x ^= k;
        }
        let (lo, hi) = tmp.split_at_mut(32);
        x86_avx2::wipe32(t.avx2(), lo.try_into().unwrap());
        x86_avx2::wipe32(t.avx2(), hi.try_into().unwrap());
    }
}

/// Adds the input rows back to `S` groups after the rounds and XORs their blocks into `data`
/// (`data.len() <= 256 * S`; a shorter `data` uses the first bytes of the keystream).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn rows_out<const S: usize>(
    t: X86Avx512,
    rows_in: &([Zmm; 3], [Zmm; S]),
    a: &[Zmm; S],
    b: &[Zmm; S],
    c: &[Zmm; S],
    d: &[Zmm; S],
    data: &mut [u8],
) {
    let ([a0, b0, c0], d_in) = rows_in;
    for i in 0..S {
        let (a, b, c, d) = (
            a[i].add(*a0),
            b[i].add(*b0),
            c[i].add(*c0),
            d[i].add(d_in[i]),
        );
        for (j, o) in transpose_lanes(t, a.0, b.0, c.0, d.0)
            .into_iter()
            .enumerate()
        {
            xor_block(t, data, 256 * i + 64 * j, o);
        }
    }
}

/// XORs the keystream of `4 * S` blocks from counter `st[12]` into `data` (`data.len() <=
/// 256 * S`; a shorter `data` uses the first bytes of the keystream).
#[inline(always)]
fn xor_groups<const S: usize>(t: X86Avx512, st: &[u32; 16], data: &mut [u8]) {
    debug_assert!(data.len() <= 256 * S && S <= 5);
    let input = rows_in::<S>(t, st);
    let ([a0, b0, c0], d_in) = input;
    let (mut a, mut b, mut c, mut d) = ([a0; S], [b0; S], [c0; S], d_in);
    rounds_rows(&mut a, &mut b, &mut c, &mut d);
    rows_out(t, &input, &a, &b, &c, &d, data);
}

/// XORs the keystream of the sixteen blocks from counter `st[12]` into `data[..1024]` in the
/// vertical layout ([`crate::chacha::rounds_words`]: zmm `w` holds word `w` of all sixteen
/// blocks, so the rounds need no shuffles; one 16x16 transpose of 32-bit words at the end),
/// and, in the same loop, of the `4 * S` blocks after them into `data[1024..]` in the
/// horizontal layout (`1024 <= data.len() <= 1024 + 256 * S`).
#[inline(always)]
fn xor_words<const S: usize>(t: X86Avx512, st: &[u32; 16], data: &mut [u8]) {
    debug_assert!(data.len() >= 1024 && data.len() <= 1024 + 256 * S);
    let (mut x, x12) = words_in(t, st);
    let mut s = *st;
    s[12] = s[12].wrapping_add(16);
    let input = rows_in::<S>(t, &s);
    zeroize::Zeroize::zeroize(&mut s);
    let ([a0, b0, c0], d_in) = input;
    let (mut a, mut b, mut c, mut d) = ([a0; S], [b0; S], [c0; S], d_in);
    let rows = Rows {
        a: &mut a,
        b: &mut b,
        c: &mut c,
        d: &mut d,
    };
    rounds_words(&mut x, rows, &mut ());
    words_add(t, st, x12, &mut x);
    let (head, tail) = data.split_at_mut(1024);
    words_out(t, &x, head);
    rows_out(t, &input, &a, &b, &c, &d, tail);
}

/// The sixteen vertical state vectors of blocks `st[12]..st[12] + 16`: word `w` of block `l`
/// in lane `l` of vector `w`. Returns them and the counter vector.
#[inline(always)]
fn words_in(t: X86Avx512, st: &[u32; 16]) -> ([Zmm; 16], Zmm) {
    // SAFETY: AVX-512F proven by `t`.
    let mut x = [Zmm(unsafe { _mm512_setzero_si512() }, t); 16];
    for (w, v) in x.iter_mut().enumerate() {
        // SAFETY: AVX-512F proven by `t`.
        *v = Zmm(unsafe { _mm512_set1_epi32(st[w] as i32) }, t);
    }
    // SAFETY: AVX-512F proven by `t`.
    x[12] = x[12].add(Zmm(
        unsafe { _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) },
        t,
    ));
    let x12 = x[12];
    (x, x12)
}

/// The final addition of the input (`x12`: the counter vector) after the rounds.
#[inline(always)]
fn words_add(t: X86Avx512, st: &[u32; 16], x12: Zmm, x: &mut [Zmm; 16]) {
    for (w, v) in x.iter_mut().enumerate() {
        let i = if w == 12 {
            x12
        } else {
            // SAFETY: AVX-512F proven by `t`.
            Zmm(unsafe { _mm512_set1_epi32(st[w] as i32) }, t)
        };
        *v = v.add(i);
    }
}

/// XORs the sixteen blocks of keystream in the vertical vectors `x` into `head` (1024 bytes,
/// or fewer: a shorter `head` uses the first bytes).
#[inline(always)]
fn words_out(t: X86Avx512, x: &[Zmm; 16], head: &mut [u8]) {
    // SAFETY: AVX-512F proven by `t`. Within each 128-bit lane, a 4x4 transpose of 32-bit
    // words per group of four rows (words 4g..4g+4): `y[j][g]` holds, in lane `l`, words
    // 4g..4g+4 of block 4l + j. Then per `j` a 4x4 transpose of 128-bit lanes over
    // `y[j][0..4]` gives blocks j, 4 + j, 8 + j, 12 + j whole.
    let y = unsafe {
        let mut y = [[_mm512_setzero_si512(); 4]; 4];
        for g in 0..4 {
            let (a, b, c, d) = (x[4 * g].0, x[4 * g + 1].0, x[4 * g + 2].0, x[4 * g + 3].0);
            let ab_lo = _mm512_unpacklo_epi32(a, b);
            let ab_hi = _mm512_unpackhi_epi32(a, b);
            let cd_lo = _mm512_unpacklo_epi32(c, d);
            let cd_hi = _mm512_unpackhi_epi32(c, d);
            y[0][g] = _mm512_unpacklo_epi64(ab_lo, cd_lo);
            y[1][g] = _mm512_unpackhi_epi64(ab_lo, cd_lo);
            y[2][g] = _mm512_unpacklo_epi64(ab_hi, cd_hi);
            y[3][g] = _mm512_unpackhi_epi64(ab_hi, cd_hi);
        }
        y
    };
    for (j, [a, b, c, d]) in y.into_iter().enumerate() {
        let out = transpose_lanes(t, a, b, c, d);
        for (l, o) in out.into_iter().enumerate() {
            xor_block(t, head, 64 * (4 * l + j), o);
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
        xor_words::<0>(t, &s, c);
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

/// The vectorized Poly1305 of a token: radix 2^26 (`vpmuludq`, [`Wide`]) on AVX-512 F/VL,
/// radix 2^44 (`Wide52`, implemented in `x86_avx512_ifma.rs`) with IFMA.
pub(crate) trait WideMac: Copy {
    type Wide;
    fn avx512(self) -> X86Avx512;
    fn wide_new(self, poly: &poly1305::State) -> Self::Wide;
    fn wide_blocks(self, w: &mut Self::Wide, data: &[u8]);
    fn wide_finish(self, w: Self::Wide, poly: &mut poly1305::State);

    /// [`Keystream::xor_mac`] over one whole 1 KiB piece (the MAC stitched into the rounds).
    fn xor_mac<const OWN: bool>(
        self,
        st: &[u32; 16],
        data: &mut [u8],
        w: &mut Self::Wide,
        prev: &[u8],
    );
}

impl WideMac for X86Avx512 {
    type Wide = Wide<Q>;
    #[inline(always)]
    fn avx512(self) -> X86Avx512 {
        self
    }
    #[inline(always)]
    fn wide_new(self, poly: &poly1305::State) -> Wide<Q> {
        Wide::new(self, poly)
    }
    #[inline(always)]
    fn wide_blocks(self, w: &mut Wide<Q>, data: &[u8]) {
        // SAFETY: `wide_blocks_tf` is compiled for the features of `X86Avx512`, which `self`
        // proves.
        unsafe { wide_blocks_tf(w, data) }
    }
    #[inline(always)]
    fn wide_finish(self, w: Wide<Q>, poly: &mut poly1305::State) {
        w.finish(poly)
    }

    #[inline(always)]
    fn xor_mac<const OWN: bool>(
        self,
        st: &[u32; 16],
        data: &mut [u8],
        w: &mut Wide<Q>,
        prev: &[u8],
    ) {
        // SAFETY: `xor_mac26_tf` is compiled for the features of `X86Avx512`, which `self`
        // proves.
        unsafe { xor_mac26_tf::<OWN>(self, st, data.try_into().unwrap(), w, prev) }
    }
}

/// The AVX-512 keystream of the one-pass AEAD loop; messages up to 192 bytes run the ymm code
/// with `vprold`, messages up to 1216 bytes the medium path (see [`construction::run`]). The
/// token `T` picks the vectorized Poly1305 ([`WideMac`]): the keystream type of the
/// `x86_avx512` row (`T = X86Avx512`) and of the `x86_avx512_ifma` row (`T = X86Avx512Ifma`).
pub(crate) struct Ops<T>(T);

impl<T: WideMac> Keystream for Ops<T> {
    type Token = T;
    #[inline(always)]
    fn new(t: T) -> Self {
        Ops(t)
    }

    type Mac = T::Wide;
    const CHUNK: usize = 1024;

    #[inline(always)]
    fn xor(&self, state: &[u32; 16], data: &mut [u8]) {
        // SAFETY: `xor_stream_tf` is compiled for the features of `X86Avx512`, which the token
        // in `self` proves.
        unsafe { xor_stream_tf(self.0.avx512(), state, data) }
    }

    #[inline(always)]
    fn otk(&self, state: &[u32; 16]) -> [u8; 32] {
        let mut b = [0u8; 32];
        x86_avx2::xor_tail_vl(self.0.avx512(), state, &mut b);
        b
    }

    const SHORT: usize = 192;

    #[inline(always)]
    fn short<const N: usize>(&self, state: &[u32; 16], ks: &mut [u8; N]) {
        x86_avx2::xor_tail_vl(self.0.avx512(), state, ks)
    }

    const MEDIUM: usize = MEDIUM_MAX;

    #[inline(always)]
    fn medium(&self, state: &[u32; 16], ks: &mut [u8; MEDIUM_BUF], len: usize) {
        // SAFETY: `medium_tf` is compiled for the features of `X86Avx512`, which the token in
        // `self` proves.
        unsafe { medium_tf(self.0.avx512(), state, ks, len) }
    }

    #[inline(always)]
    fn mac_new(&self, poly: &poly1305::State, len: usize) -> Option<T::Wide> {
        if len >= WIDE_MIN_LEN {
            Some(self.0.wide_new(poly))
        } else {
            None
        }
    }

    #[inline(always)]
    fn mac_blocks(&self, w: &mut T::Wide, data: &[u8]) {
        self.0.wide_blocks(w, data)
    }

    #[inline(always)]
    fn xor_mac<const OWN: bool>(
        &self,
        state: &[u32; 16],
        data: &mut [u8],
        w: &mut T::Wide,
        prev: &[u8],
    ) {
        self.0.xor_mac::<OWN>(state, data, w, prev)
    }

    #[inline(always)]
    fn mac_finish(&self, w: T::Wide, poly: &mut poly1305::State) {
        self.0.wide_finish(w, poly)
    }

    /// One 64-byte volatile store per block (`N` is a multiple of 64: 128, 256 or
    /// `MEDIUM_BUF`).
    #[inline(always)]
    fn wipe<const N: usize>(&self, ks: &mut [u8; N]) {
        const { assert!(N.is_multiple_of(64)) };
        for c in ks.chunks_exact_mut(64) {
            wipe64(self.0.avx512(), c.try_into().unwrap());
        }
    }

    #[inline(always)]
    fn wipe_state(&self, st: &mut [u32; 16]) {
        x86_avx2::wipe_state(self.0.avx512().avx2(), st)
    }
}

tessera_cpu::with_features! { X86Avx512;
    /// [`Wide::blocks`] out of line (the groups after the whole pieces): its 25 vector
    /// registers of state, inlined beside the horizontal rows of a piece's end, made the
    /// register allocator spill them.
    #[inline(never)]
    fn wide_blocks_tf(w: &mut Wide<Q>, data: &[u8]) {
        w.blocks(data)
    }

    /// [`xor_stream`] out of line, for the same reason.
    #[inline(never)]
    fn xor_stream_tf(t: X86Avx512, st: &[u32; 16], data: &mut [u8]) {
        xor_stream(t, st, data)
    }

    /// [`xor_mac_words`] for the radix-2^26 MAC.
    #[inline(never)]
    fn xor_mac26_tf<const OWN: bool>(
        t: X86Avx512,
        st: &[u32; 16],
        data: &mut [u8; 1024],
        w: &mut Wide<Q>,
        prev: &[u8],
    ) {
        xor_mac_words::<OWN, _>(t, st, data, w, prev)
    }

    /// The keystream of the medium path: blocks 0 (the Poly1305 key) to `len / 64 + 1`, in
    /// one pass: up to twelve blocks as two or three horizontal zmm groups, thirteen to
    /// sixteen as one vertical group, seventeen to twenty as a vertical group and a horizontal
    /// one in the same round loop (faster at 1 KiB than five horizontal groups: `cargo xtask
    /// bench chacha20poly1305-seal`; one horizontal group after the vertical one, in its own
    /// loop, is latency bound and slower than five).
    #[inline(never)]
    fn medium_tf(t: X86Avx512, st: &[u32; 16], ks: &mut [u8; MEDIUM_BUF], len: usize) {
        match (64 + len).div_ceil(256) {
            0..=2 => xor_groups::<2>(t, st, &mut ks[..512]),
            3 => xor_groups::<3>(t, st, &mut ks[..768]),
            4 => xor_words::<0>(t, st, &mut ks[..1024]),
            _ => xor_words::<1>(t, st, ks),
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
pub(crate) struct Q(pub(super) __m512i, X86Avx512);

/// One volatile store of zeros over the register image (`zeroize`'s `__m512i` impl), for
/// [`Wide`]'s `Drop`.
impl zeroize::Zeroize for Q {
    #[inline(always)]
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

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

/// One whole 1 KiB piece: the keystream of its sixteen blocks in the vertical layout XORed
/// into `data`, with the 128-byte groups of `data` before the XOR (`OWN`) or of `prev` (unless
/// empty) absorbed into `w` in the first eight double rounds ([`WideSide`]): the MAC's latency-bound
/// chain fills the gaps of the rounds instead of running after the keystream
/// (`cargo xtask bench chacha20poly1305-seal`, 16 KiB rows).
#[inline(always)]
pub(super) fn xor_mac_words<const OWN: bool, W: Groups>(
    t: X86Avx512,
    st: &[u32; 16],
    data: &mut [u8; 1024],
    w: &mut W,
    prev: &[u8],
) {
    let src = construction::mac_source::<OWN, 1024>(data, prev);
    let (mut x, x12) = words_in(t, st);
    let rows = Rows::<Zmm, 0> {
        a: &mut [],
        b: &mut [],
        c: &mut [],
        d: &mut [],
    };
    match src {
        Some(src) => rounds_words(&mut x, rows, &mut WideSide { w, src }),
        None => rounds_words(&mut x, rows, &mut ()),
    }
    words_add(t, st, x12, &mut x);
    words_out(t, &x, data);
}

/// The vectorized Poly1305 of one 1 KiB piece as side work of the vertical rounds: one
/// 128-byte group (eight blocks, one per lane) at the start of each of the first eight double
/// rounds. The multiplications and carries of a group form one dependency chain through `h`,
/// which alone leaves most of the core idle (the loops of [`Wide::blocks`] and
/// `Wide52::blocks` are latency bound); beside the rounds' sixteen independent chains it
/// fills their gaps.
struct WideSide<'a, W: Groups> {
    w: &'a mut W,
    src: &'a [u8; 1024],
}

/// A vectorized Poly1305 that absorbs whole 128-byte groups.
pub(super) trait Groups {
    fn groups(&mut self, data: &[u8]);
}

impl Groups for Wide<Q> {
    #[inline(always)]
    fn groups(&mut self, data: &[u8]) {
        self.blocks(data)
    }
}

impl<W: Groups> Side for WideSide<'_, W> {
    #[inline(always)]
    fn step(&mut self, dr: usize, phase: usize) {
        if phase == 0 && dr < 8 {
            self.w.groups(&self.src[128 * dr..128 * dr + 128]);
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    extern crate std;

    use super::*;
    use core::mem::{MaybeUninit, size_of};
    use std::eprintln;

    /// Nonzero bytes of `w`'s secret `fields` ((offset, length) of each) before and after
    /// `core::ptr::drop_in_place`.
    ///
    /// Why reading after the drop is sound: `w` lives in a `MaybeUninit` that this function
    /// owns until it returns, so its storage stays allocated after `drop_in_place` (which runs
    /// the state's `Drop` exactly once and never frees memory; `MaybeUninit` does not drop it
    /// again). The bytes read are those of the fields only (vectors of 64-bit lanes: no
    /// padding), never the padding after the `bool`: they are initialized either way, still
    /// the state's values if no `Drop` wrote them (the failure this probe exists to catch) or
    /// the zeros `Drop` wrote with volatile stores. They are read as `u8` through a raw
    /// pointer derived from the `MaybeUninit`, never as a typed (dropped) `W`.
    pub(in super::super) fn nonzero_before_after_drop<W>(
        w: W,
        fields: [(usize, usize); 5],
    ) -> (usize, usize) {
        let mut slot = MaybeUninit::new(w);
        let p = slot.as_mut_ptr();
        let count = |p: *const W| {
            let mut n = 0;
            for (off, len) in fields {
                assert!(off + len <= size_of::<W>());
                for i in off..off + len {
                    // SAFETY: byte `i` is inside one field of the `W` at `p` (checked just
                    // above), in `slot`, which is still allocated, and initialized (see above).
                    n += usize::from(unsafe { p.cast::<u8>().add(i).read_volatile() } != 0);
                }
            }
            n
        };
        let before = count(p);
        // SAFETY: `slot` holds an initialized `W` (`MaybeUninit::new`), dropped exactly once
        // here and never used as a `W` afterwards.
        unsafe { core::ptr::drop_in_place(p) };
        (before, count(p))
    }

    /// A Poly1305 state with a known one-time key and a nonzero accumulator.
    pub(in super::super) fn poly() -> poly1305::State {
        let mut p = poly1305::State::new(&[0xa5; 32]);
        p.blocks(&[0x3c; 48]);
        p
    }

    /// `Wide<Q>` (radix 2^26) wipes its powers of `r` and accumulators when it drops.
    #[test]
    fn wide26_wiped_on_drop() {
        let Some(t) = X86Avx512::detect() else {
            eprintln!("no AVX-512 F/VL on this CPU: wide26_wiped_on_drop skipped");
            return;
        };
        let mut w = Wide::<Q>::new(t, &poly());
        w.blocks(&[0xff; 256]);
        let (before, after) = nonzero_before_after_drop(w, Wide::<Q>::SECRET_FIELDS);
        assert!(before > 0, "the probe saw no secret bytes to wipe");
        assert_eq!(
            after, 0,
            "{after} of {before} nonzero secret bytes left after drop"
        );
    }
}
