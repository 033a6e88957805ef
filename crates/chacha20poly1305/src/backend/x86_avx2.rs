//! AVX2 backend: ChaCha20 two blocks per ymm register (one per 128-bit lane, rows in the
//! "horizontal" layout of [`crate::chacha::Row`]), four register groups (eight blocks, 512
//! bytes) in flight. Poly1305 is the shared scalar code, stitched into the rounds: over whole
//! 512-byte pieces, three of its blocks go between the steps of each double round
//! ([`ScalarSide`]), so that its multiplications and carries run on the integer ports in the
//! gaps the rounds' dependency chains leave (the rounds alone issue about 2.4 vector
//! instructions per cycle on Emerald Rapids, of the three its vector ports can take).

use core::arch::x86_64::*;

use crate::chacha::{Row, Side, rounds_rows_with};
use crate::construction::{self, Keystream};
use crate::poly1305;
use tessera_cpu::{X86Avx2, X86Avx512};

/// A ymm register holding one row of two blocks, and the capability token `T` it was made
/// with. The token field (zero-sized) makes the safe `Row` methods sound by construction: a
/// `Ymm<T>` cannot exist without a `T`, and every [`YmmToken`] converts into an `X86Avx2`
/// (proof of AVX2). The rotations by 12 and 7 bits are the token's ([`YmmToken::rotl12`]): a
/// `Ymm<X86Avx512>`, whose token proves AVX-512 F/VL, rotates with `vprold`; a `Ymm<X86Avx2>`
/// with two shifts and an OR. No `Ymm` can emit an AVX-512 instruction without holding an
/// `X86Avx512`.
#[derive(Clone, Copy)]
pub(crate) struct Ymm<T: YmmToken>(__m256i, T);

/// A token a [`Ymm`] may carry: it proves AVX2 (`Into<X86Avx2>`: tessera-cpu's narrowing,
/// checked at compile time against the tokens' feature lists), and it picks the rotations by
/// 12 and 7 bits it can prove (byte rotations are one `vpshufb` either way).
pub(crate) trait YmmToken: Copy + Into<X86Avx2> {
    /// Each 32-bit word of `x` rotated left by 12 bits.
    fn rotl12(self, x: __m256i) -> __m256i;
    /// Each 32-bit word of `x` rotated left by 7 bits.
    fn rotl7(self, x: __m256i) -> __m256i;
}

impl YmmToken for X86Avx2 {
    #[inline(always)]
    fn rotl12(self, x: __m256i) -> __m256i {
        // SAFETY: AVX2 proven by `self`.
        unsafe { _mm256_or_si256(_mm256_slli_epi32(x, 12), _mm256_srli_epi32(x, 20)) }
    }
    #[inline(always)]
    fn rotl7(self, x: __m256i) -> __m256i {
        // SAFETY: AVX2 proven by `self`.
        unsafe { _mm256_or_si256(_mm256_slli_epi32(x, 7), _mm256_srli_epi32(x, 25)) }
    }
}

impl YmmToken for X86Avx512 {
    #[inline(always)]
    fn rotl12(self, x: __m256i) -> __m256i {
        // SAFETY: AVX-512 F and VL (`vprold` on a ymm register) proven by `self`.
        unsafe { _mm256_rol_epi32::<12>(x) }
    }
    #[inline(always)]
    fn rotl7(self, x: __m256i) -> __m256i {
        // SAFETY: AVX-512 F and VL (`vprold` on a ymm register) proven by `self`.
        unsafe { _mm256_rol_epi32::<7>(x) }
    }
}

impl<T: YmmToken> Row for Ymm<T> {
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        // SAFETY: AVX2 proven by the token in `self` (a `YmmToken`).
        Ymm(unsafe { _mm256_add_epi32(self.0, o.0) }, self.1)
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        // SAFETY: AVX2 proven by the token in `self` (a `YmmToken`).
        Ymm(unsafe { _mm256_xor_si256(self.0, o.0) }, self.1)
    }
    #[inline(always)]
    fn rotl16(self) -> Self {
        // SAFETY: AVX2 proven by the token in `self` (a `YmmToken`). Whole-byte rotation: one
        // byte shuffle.
        Ymm(
            unsafe { _mm256_shuffle_epi8(self.0, opaque(self.1, &ROTL16)) },
            self.1,
        )
    }
    #[inline(always)]
    fn rotl12(self) -> Self {
        Ymm(self.1.rotl12(self.0), self.1)
    }
    #[inline(always)]
    fn rotl8(self) -> Self {
        // SAFETY: AVX2 proven by the token in `self` (a `YmmToken`). Whole-byte rotation: one
        // byte shuffle.
        Ymm(
            unsafe { _mm256_shuffle_epi8(self.0, opaque(self.1, &ROTL8)) },
            self.1,
        )
    }
    #[inline(always)]
    fn rotl7(self) -> Self {
        Ymm(self.1.rotl7(self.0), self.1)
    }
    #[inline(always)]
    fn rot_words1(self) -> Self {
        // SAFETY: AVX2 proven by the token in `self` (a `YmmToken`).
        Ymm(unsafe { _mm256_shuffle_epi32::<0x39>(self.0) }, self.1)
    }
    #[inline(always)]
    fn rot_words2(self) -> Self {
        // SAFETY: AVX2 proven by the token in `self` (a `YmmToken`).
        Ymm(unsafe { _mm256_shuffle_epi32::<0x4e>(self.0) }, self.1)
    }
    #[inline(always)]
    fn rot_words3(self) -> Self {
        // SAFETY: AVX2 proven by the token in `self` (a `YmmToken`).
        Ymm(unsafe { _mm256_shuffle_epi32::<0x93>(self.0) }, self.1)
    }
}

/// The byte shuffles that rotate each 32-bit word left by 16 and by 8 bits.
#[repr(C, align(32))]
struct Shuffle([u8; 32]);
static ROTL16: Shuffle = Shuffle([
    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14,
    15, 12, 13,
]);
static ROTL8: Shuffle = Shuffle([
    3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15,
    12, 13, 14,
]);

/// A shuffle mask, read so that the optimizer cannot see its value. Seen as a constant, LLVM
/// merges the diagonal round's `vpshufd` into the next rotation's `vpshufb` and pushes the
/// rotation through the XOR before it, which leaves a `vpshuflw` + `vpshufhw` pair on the other
/// operand: one more shuffle per rotation by 16. Opaque, the rotation stays one `vpshufb`; the
/// extra load per rotation goes to a load port, not a vector ALU port
/// (`cargo xtask bench chacha20poly1305-seal`, 16 KiB rows).
#[inline(always)]
fn opaque<T: YmmToken>(t: T, m: &'static Shuffle) -> __m256i {
    let _ = t;
    // SAFETY: AVX2 proven by `t` (a `YmmToken`; a 256-bit load); `m` is a 32-byte-aligned static of 32
    // initialized bytes, read through a valid pointer.
    unsafe { core::ptr::read_volatile((&raw const m.0).cast::<__m256i>()) }
}

/// Row `r` of the state in both lanes.
#[inline(always)]
fn row<T: YmmToken>(t: T, st: &[u32; 16], r: usize) -> Ymm<T> {
    let w = &st[4 * r..4 * r + 4];
    // SAFETY: AVX2 proven by `t` (a `YmmToken`); `w` is four readable `u32`s (16 bytes, unaligned load).
    Ymm(
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(w.as_ptr().cast())) },
        t,
    )
}

/// XORs the keystream of `2 * S` blocks from counter `st[12]` into `data` (`data.len() <=
/// 128 * S`; a shorter `data` uses the first bytes of the keystream).
#[inline(always)]
fn xor_groups<T: YmmToken, const S: usize>(t: T, st: &[u32; 16], data: &mut [u8]) {
    let ks = groups::<T, S, _>(t, st, &mut (), core::array::from_fn(|i| 2 * i as i32));
    xor_out(t.into(), &ks, data);
}

/// The keystream of `2 * S` blocks, 32 bytes per register in order: group `i` holds blocks
/// `st[12] + first[i]` and the one after. `side`'s steps go between those of the rounds.
#[inline(always)]
fn groups<T: YmmToken, const S: usize, X: Side>(
    t: T,
    st: &[u32; 16],
    side: &mut X,
    first: [i32; S],
) -> [[__m256i; 4]; S] {
    debug_assert!(S <= 5);
    let (a0, b0, c0) = (row(t, st, 0), row(t, st, 1), row(t, st, 2));
    let d0 = row(t, st, 3);
    // (Loops, not closures, in SIMD code: a closure does not inherit the island's target
    // features, so the intrinsics inside it would become calls.)
    let mut d_in = [d0; S];
    for (d, &k) in d_in.iter_mut().zip(&first) {
        // SAFETY: AVX2 proven by `t` (a `YmmToken`).
        *d = d0.add(Ymm(
            unsafe { _mm256_setr_epi32(k, 0, 0, 0, k + 1, 0, 0, 0) },
            t,
        ));
    }
    let (mut a, mut b, mut c, mut d) = ([a0; S], [b0; S], [c0; S], d_in);
    rounds_rows_with(&mut a, &mut b, &mut c, &mut d, side);
    // SAFETY: AVX2 proven by `t` (a `YmmToken`).
    let mut out = [[unsafe { _mm256_setzero_si256() }; 4]; S];
    for i in 0..S {
        let (a, b, c, d) = (a[i].add(a0), b[i].add(b0), c[i].add(c0), d[i].add(d_in[i]));
        // SAFETY: AVX2 proven by `t` (a `YmmToken`).
        out[i] = unsafe {
            [
                _mm256_permute2x128_si256::<0x20>(a.0, b.0),
                _mm256_permute2x128_si256::<0x20>(c.0, d.0),
                _mm256_permute2x128_si256::<0x31>(a.0, b.0),
                _mm256_permute2x128_si256::<0x31>(c.0, d.0),
            ]
        };
    }
    out
}

/// XORs keystream registers (32 bytes each, in order) into `data` (`data.len() <= 128 * S`).
#[inline(always)]
fn xor_out<const S: usize>(t: X86Avx2, ks: &[[__m256i; 4]; S], data: &mut [u8]) {
    for (j, o) in ks.as_flattened().iter().enumerate() {
        let off = 32 * j;
        if off + 32 <= data.len() {
            let p = data[off..off + 32].as_mut_ptr();
            // SAFETY: AVX2 proven by `t`; `p` points at 32 bytes of `data` (bounds checked by
            // the slice above), unaligned loads and stores.
            unsafe {
                let x = _mm256_loadu_si256(p.cast());
                _mm256_storeu_si256(p.cast(), _mm256_xor_si256(x, *o));
            }
        } else if off < data.len() {
            let mut tmp = [0u8; 32];
            // SAFETY: AVX2 proven by `t`; `tmp` is 32 writable bytes.
            unsafe { _mm256_storeu_si256(tmp.as_mut_ptr().cast(), *o) };
            for (x, k) in data[off..].iter_mut().zip(&tmp) {
                *x ^= k;
            }
            wipe32(t, &mut tmp);
        }
    }
}

/// Scalar Poly1305 over one whole 512-byte piece as side work of eight blocks' rounds: blocks
/// 0 and 1 before them, then three per double round, before its steps 0, 3 and 6 (an even
/// spread; the placement measured within noise of the others tried).
struct ScalarSide<'a> {
    poly: &'a mut poly1305::State,
    src: &'a [u8; 512],
}

impl Side for ScalarSide<'_> {
    #[inline(always)]
    fn step(&mut self, dr: usize, phase: usize) {
        let k = match phase {
            0 => 0,
            3 => 1,
            6 => 2,
            _ => return,
        };
        let j = 2 + 3 * dr + k;
        let m: &[u8; 16] = self.src[16 * j..16 * j + 16].try_into().unwrap();
        // `black_box` of the block's address (no data moves): the optimizer may not hoist the
        // block's loads across it, which keeps each block's work between the steps it was
        // written between. Without it LLVM's scheduler gathers the three blocks at the end of
        // the loop body, and the 16 KiB seal takes 5% longer.
        self.poly.block(core::hint::black_box(m), 1);
    }
}

/// Overwrites 32 bytes of keystream with zeros: one volatile 32-byte store (kept by the
/// optimizer).
#[inline(always)]
pub(crate) fn wipe32(t: X86Avx2, b: &mut [u8; 32]) {
    let _ = t;
    // SAFETY: AVX2 proven by `t`; `b` is 32 writable bytes, written by one unaligned
    // (`[u8; 32]`-typed, so alignment 1) volatile store of a zero vector.
    unsafe {
        core::ptr::write_volatile(
            b.as_mut_ptr().cast::<[u8; 32]>(),
            core::mem::transmute::<__m256i, [u8; 32]>(_mm256_setzero_si256()),
        );
    }
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

/// Wipes a ChaCha20 state (key words, counter, nonce) with two 32-byte volatile stores.
#[inline(always)]
pub(crate) fn wipe_state(t: X86Avx2, st: &mut [u32; 16]) {
    let (lo, hi) = st.split_at_mut(8);
    for h in [lo, hi] {
        let h: &mut [u32; 8] = h.try_into().unwrap();
        // SAFETY: `h` is 32 writable bytes; `[u8; 32]` has alignment 1 and no invalid values.
        let b = unsafe { &mut *(h as *mut [u32; 8]).cast::<[u8; 32]>() };
        wipe32(t, b);
    }
}

/// XORs the keystream from counter `st[12]` into `data` of any length, eight blocks at a time.
#[inline(always)]
pub(crate) fn xor_stream(t: X86Avx2, st: &[u32; 16], data: &mut [u8]) {
    let mut s = *st;
    let mut chunks = data.chunks_exact_mut(512);
    for c in &mut chunks {
        xor_groups::<_, 4>(t, &s, c);
        s[12] = s[12].wrapping_add(8);
    }
    xor_tail(t, &s, chunks.into_remainder());
    zeroize::Zeroize::zeroize(&mut s);
}

/// The keystream for `data.len() < 512`, with as few groups as cover it.
#[inline(always)]
pub(crate) fn xor_tail(t: X86Avx2, st: &[u32; 16], data: &mut [u8]) {
    tail(t, st, data)
}

/// [`xor_tail`] on a `Ymm<T>`: the rotations `T` proves.
#[inline(always)]
fn tail<T: YmmToken>(t: T, st: &[u32; 16], data: &mut [u8]) {
    match data.len() {
        0 => {}
        1..=128 => xor_groups::<T, 1>(t, st, data),
        129..=256 => xor_groups::<T, 2>(t, st, data),
        _ => xor_groups::<T, 4>(t, st, data),
    }
}

/// [`xor_tail`] with `vprold` rotations, for the AVX-512 backend.
#[inline(always)]
pub(crate) fn xor_tail_vl(t: X86Avx512, st: &[u32; 16], data: &mut [u8]) {
    tail(t, st, data)
}

/// The AVX2 keystream of the one-pass AEAD loop.
pub(crate) struct Ops(X86Avx2);

impl Keystream for Ops {
    type Token = X86Avx2;
    #[inline(always)]
    fn new(t: X86Avx2) -> Self {
        Ops(t)
    }

    /// A copy of the scalar state, kept in registers through each stitched piece.
    type Mac = poly1305::State;
    const CHUNK: usize = 512;

    #[inline(always)]
    fn xor(&self, state: &[u32; 16], data: &mut [u8]) {
        // SAFETY: `xor_stream_tf` is compiled for the features of `X86Avx2`, which the token
        // in `self` proves.
        unsafe { xor_stream_tf(self.0, state, data) }
    }

    #[inline(always)]
    fn mac_new(&self, poly: &poly1305::State, len: usize) -> Option<poly1305::State> {
        (len >= Self::CHUNK).then(|| poly.clone())
    }

    #[inline(always)]
    fn mac_blocks(&self, w: &mut poly1305::State, data: &[u8]) {
        w.blocks(data)
    }

    #[inline(always)]
    fn xor_mac<const OWN: bool>(
        &self,
        state: &[u32; 16],
        data: &mut [u8],
        w: &mut poly1305::State,
        prev: &[u8],
    ) {
        // SAFETY: `xor_mac_tf` is compiled for the features of `X86Avx2`, which the token in
        // `self` proves.
        unsafe { xor_mac_tf::<OWN>(self.0, state, data.try_into().unwrap(), w, prev) }
    }

    #[inline(always)]
    fn mac_finish(&self, w: poly1305::State, poly: &mut poly1305::State) {
        *poly = w;
    }

    const FOLD_KEY: bool = true;

    #[inline(always)]
    fn seal_first(&self, state: &[u32; 16], piece: &mut [u8], otk: &mut [u8; 32]) {
        // SAFETY: `seal_first_tf` is compiled for the features of `X86Avx2`, which the token
        // in `self` proves.
        unsafe { seal_first_tf(self.0, state, piece.try_into().unwrap(), otk) }
    }

    #[inline(always)]
    fn otk(&self, state: &[u32; 16]) -> [u8; 32] {
        let mut b = [0u8; 32];
        xor_groups::<X86Avx2, 1>(self.0, state, &mut b);
        b
    }

    const SHORT: usize = 192;

    #[inline(always)]
    fn short<const N: usize>(&self, state: &[u32; 16], ks: &mut [u8; N]) {
        tail(self.0, state, ks)
    }

    #[inline(always)]
    fn wipe<const N: usize>(&self, ks: &mut [u8; N]) {
        for c in ks.chunks_exact_mut(32) {
            wipe32(self.0, c.try_into().unwrap());
        }
    }

    #[inline(always)]
    fn wipe_state(&self, st: &mut [u32; 16]) {
        wipe_state(self.0, st)
    }
}

tessera_cpu::with_features! { X86Avx2;
    /// One whole 512-byte piece: the keystream XORed into `data`, with the Poly1305 blocks of
    /// `data` before the XOR (`OWN`) or of `prev` (unless empty) absorbed between the steps of
    /// its double rounds ([`ScalarSide`]).
    #[inline(never)]
    fn xor_mac_tf<const OWN: bool>(
        t: X86Avx2,
        st: &[u32; 16],
        data: &mut [u8; 512],
        w: &mut poly1305::State,
        prev: &[u8],
    ) {
        let ks = match construction::mac_source::<OWN, 512>(data, prev) {
            Some(src) => {
                // A local copy: behind `w` the accumulator would be stored and reloaded around
                // each block (the `black_box` in `ScalarSide` may touch any memory it can reach).
                let mut poly = w.clone();
                poly.blocks(&src[..32]);
                let ks = groups::<X86Avx2, 4, _>(t, st, &mut ScalarSide { poly: &mut poly, src }, [0, 2, 4, 6]);
                *w = poly;
                ks
            }
            None => groups::<X86Avx2, 4, _>(t, st, &mut (), [0, 2, 4, 6]),
        };
        xor_out(t, &ks, data);
    }

    /// [`Keystream::seal_first`]: blocks 1..=8 and, as a fifth group beside them, blocks 0 and 1
    /// again (the key block's rounds alone would be a latency-bound pass of their own).
    #[inline(never)]
    fn seal_first_tf(t: X86Avx2, st: &[u32; 16], piece: &mut [u8; 512], otk: &mut [u8; 32]) {
        let ks = groups::<X86Avx2, 5, _>(t, st, &mut (), [1, 3, 5, 7, 0]);
        let (blocks, key) = ks.split_at(4);
        xor_out::<4>(t, blocks.try_into().unwrap(), piece);
        // SAFETY: AVX2 proven by `t`; `otk` is 32 writable bytes (the caller's, which it wipes).
        // The first register of the fifth group is its first lane's rows 0 and 1: the first
        // 32 bytes of block 0.
        unsafe { _mm256_storeu_si256(otk.as_mut_ptr().cast(), key[0][0]) };
    }

    /// [`xor_stream`] out of line like [`xor_mac_tf`], so that the round loop's registers
    /// are allocated apart from the AEAD's bookkeeping.
    #[inline(never)]
    fn xor_stream_tf(t: X86Avx2, st: &[u32; 16], data: &mut [u8]) {
        xor_stream(t, st, data)
    }
}
