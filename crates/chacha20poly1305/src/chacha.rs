//! ChaCha20 (RFC 8439 section 2.3) and HChaCha20 (draft-irtf-cfrg-xchacha section 2.2): the
//! state layout, the scalar block function and the round structure shared by the SIMD
//! backends (generic over a row vector type, compiled into each backend's island).

#![forbid(unsafe_code)]

/// "expand 32-byte k" as four little-endian words (RFC 8439 section 2.3).
pub(crate) const SIGMA: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

/// The 256-bit key as eight little-endian words.
#[inline(always)]
pub(crate) fn key_words(key: &[u8; 32]) -> [u32; 8] {
    core::array::from_fn(|i| u32::from_le_bytes(key[4 * i..4 * i + 4].try_into().unwrap()))
}

/// The RFC 8439 state: constants, key, 32-bit block counter (word 12), 96-bit nonce.
#[inline(always)]
pub(crate) fn state(key: &[u32; 8], counter: u32, nonce: &[u8; 12]) -> [u32; 16] {
    let mut s = [0u32; 16];
    s[..4].copy_from_slice(&SIGMA);
    s[4..12].copy_from_slice(key);
    s[12] = counter;
    for i in 0..3 {
        s[13 + i] = u32::from_le_bytes(nonce[4 * i..4 * i + 4].try_into().unwrap());
    }
    s
}

/// The quarter round of RFC 8439 section 2.1 on words `a`, `b`, `c`, `d` of `x`.
#[inline(always)]
fn quarter_round(x: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    x[a] = x[a].wrapping_add(x[b]);
    x[d] = (x[d] ^ x[a]).rotate_left(16);
    x[c] = x[c].wrapping_add(x[d]);
    x[b] = (x[b] ^ x[c]).rotate_left(12);
    x[a] = x[a].wrapping_add(x[b]);
    x[d] = (x[d] ^ x[a]).rotate_left(8);
    x[c] = x[c].wrapping_add(x[d]);
    x[b] = (x[b] ^ x[c]).rotate_left(7);
}

/// The twenty rounds (ten column + diagonal double rounds) without the final addition.
#[inline(always)]
pub(crate) fn rounds(x: &mut [u32; 16]) {
    for _ in 0..10 {
        quarter_round(x, 0, 4, 8, 12);
        quarter_round(x, 1, 5, 9, 13);
        quarter_round(x, 2, 6, 10, 14);
        quarter_round(x, 3, 7, 11, 15);
        quarter_round(x, 0, 5, 10, 15);
        quarter_round(x, 1, 6, 11, 12);
        quarter_round(x, 2, 7, 8, 13);
        quarter_round(x, 3, 4, 9, 14);
    }
}

/// The ChaCha20 block function (RFC 8439 section 2.3): rounds, then the input added back.
#[inline(always)]
pub(crate) fn block(input: &[u32; 16]) -> [u32; 16] {
    let mut x = *input;
    rounds(&mut x);
    for (o, i) in x.iter_mut().zip(input) {
        *o = o.wrapping_add(*i);
    }
    x
}

/// HChaCha20 (draft-irtf-cfrg-xchacha section 2.2): the rounds over constants, key and the
/// 128-bit input, no final addition; words 0..4 and 12..16 are the subkey.
pub(crate) fn hchacha20(key: &[u8; 32], input: &[u8; 16]) -> [u8; 32] {
    let mut x = [0u32; 16];
    x[..4].copy_from_slice(&SIGMA);
    x[4..12].copy_from_slice(&key_words(key));
    for i in 0..4 {
        x[12 + i] = u32::from_le_bytes(input[4 * i..4 * i + 4].try_into().unwrap());
    }
    rounds(&mut x);
    let mut out = [0u8; 32];
    for i in 0..4 {
        out[4 * i..4 * i + 4].copy_from_slice(&x[i].to_le_bytes());
        out[16 + 4 * i..16 + 4 * i + 4].copy_from_slice(&x[12 + i].to_le_bytes());
    }
    zeroize::Zeroize::zeroize(&mut x);
    out
}

/// A vector holding one row (four words) of `LANES` consecutive blocks, one block per 128-bit
/// lane: the "horizontal" layout, in which a diagonal round is a rotation of the words within
/// each lane. Implemented by each SIMD backend on a type that carries its token.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)] // used by the SIMD backends
pub(crate) trait Row: Copy {
    /// Lane-wise wrapping addition of 32-bit words.
    fn add(self, o: Self) -> Self;
    /// Exclusive or.
    fn xor(self, o: Self) -> Self;
    /// Rotations of each 32-bit word left by 16, 12, 8 and 7 bits.
    fn rotl16(self) -> Self;
    fn rotl12(self) -> Self;
    fn rotl8(self) -> Self;
    fn rotl7(self) -> Self;
    /// Word `i` of each lane moves to word `i - N` (mod 4): `pshufd` 0x39, 0x4e, 0x93.
    fn rot_words1(self) -> Self;
    fn rot_words2(self) -> Self;
    fn rot_words3(self) -> Self;
}

/// Rows `a`, `b`, `c`, `d` of `S` groups of blocks (see [`Row`]).
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)] // used by the SIMD backends
pub(crate) struct Rows<'a, R: Row, const S: usize> {
    pub(crate) a: &'a mut [R; S],
    pub(crate) b: &'a mut [R; S],
    pub(crate) c: &'a mut [R; S],
    pub(crate) d: &'a mut [R; S],
}

#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)] // used by the SIMD backends
impl<R: Row, const S: usize> Rows<'_, R, S> {
    /// The four quarter rounds of a column (or, after [`Rows::diagonalize`], diagonal) round
    /// on every group, the groups interleaved for instruction-level parallelism.
    #[inline(always)]
    fn half(&mut self) {
        self.half_with::<_, 0>(&mut (), 0);
    }

    /// [`Rows::half`] with `side`'s steps `(dr, H * 4 + k)` before its four steps `k`.
    #[inline(always)]
    fn half_with<X: Side, const H: usize>(&mut self, side: &mut X, dr: usize) {
        let Rows { a, b, c, d } = self;
        side.step(dr, 4 * H);
        for i in 0..S {
            a[i] = a[i].add(b[i]);
            d[i] = d[i].xor(a[i]).rotl16();
        }
        side.step(dr, 4 * H + 1);
        for i in 0..S {
            c[i] = c[i].add(d[i]);
            b[i] = b[i].xor(c[i]).rotl12();
        }
        side.step(dr, 4 * H + 2);
        for i in 0..S {
            a[i] = a[i].add(b[i]);
            d[i] = d[i].xor(a[i]).rotl8();
        }
        side.step(dr, 4 * H + 3);
        for i in 0..S {
            c[i] = c[i].add(d[i]);
            b[i] = b[i].xor(c[i]).rotl7();
        }
    }

    /// Moves the diagonals into the columns (`UNDO`: back).
    #[inline(always)]
    fn diagonalize<const UNDO: bool>(&mut self) {
        for i in 0..S {
            if UNDO {
                self.b[i] = self.b[i].rot_words3();
                self.d[i] = self.d[i].rot_words1();
            } else {
                self.b[i] = self.b[i].rot_words1();
                self.d[i] = self.d[i].rot_words3();
            }
            self.c[i] = self.c[i].rot_words2();
        }
    }
}

/// Twenty rounds over `S` independent groups of rows (`a`, `b`, `c`, `d` are rows 0..4 of each
/// group): the quarter rounds of all groups interleaved, for instruction-level parallelism.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)] // used by the SIMD backends
#[inline(always)]
pub(crate) fn rounds_rows<R: Row, const S: usize>(
    a: &mut [R; S],
    b: &mut [R; S],
    c: &mut [R; S],
    d: &mut [R; S],
) {
    rounds_rows_with(a, b, c, d, &mut ());
}

/// Independent work done beside the ChaCha20 rounds, its pieces placed between the rounds'
/// steps in program order, so that its dependency chains fill the gaps of the rounds'.
pub(crate) trait Side {
    /// Called before each of the eight steps (`phase` 0..8, a constant once inlined) of
    /// double round `dr` (0..10).
    fn step(&mut self, dr: usize, phase: usize);
}

impl Side for () {
    #[inline(always)]
    fn step(&mut self, _: usize, _: usize) {}
}

/// [`rounds_rows`] with `side`'s steps before each of the eight steps of every double round.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)] // used by the SIMD backends
#[inline(always)]
pub(crate) fn rounds_rows_with<R: Row, const S: usize, X: Side>(
    a: &mut [R; S],
    b: &mut [R; S],
    c: &mut [R; S],
    d: &mut [R; S],
    side: &mut X,
) {
    let mut rows = Rows { a, b, c, d };
    for dr in 0..10 {
        rows.half_with::<X, 0>(side, dr);
        rows.diagonalize::<false>();
        rows.half_with::<X, 1>(side, dr);
        rows.diagonalize::<true>();
    }
}

/// The quarter rounds on words `a[i]`, `b[i]`, `c[i]`, `d[i]` of `x` for `i` in 0..4, in
/// lockstep: the four words of each role gathered into a row group of four ([`Rows::half`]),
/// then put back (register moves only).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the AVX-512 backend
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn quarter4<R: Row, X: Side, const H: usize>(
    x: &mut [R; 16],
    a: [usize; 4],
    b: [usize; 4],
    c: [usize; 4],
    d: [usize; 4],
    side: &mut X,
    dr: usize,
) {
    let mut g = [[x[0]; 4]; 4];
    for (row, idx) in g.iter_mut().zip([a, b, c, d]) {
        for (v, i) in row.iter_mut().zip(idx) {
            *v = x[i];
        }
    }
    let [ga, gb, gc, gd] = &mut g;
    Rows {
        a: ga,
        b: gb,
        c: gc,
        d: gd,
    }
    .half_with::<X, H>(side, dr);
    for (row, idx) in g.iter().zip([a, b, c, d]) {
        for (v, i) in row.iter().zip(idx) {
            x[i] = *v;
        }
    }
}

/// Twenty rounds over sixteen vectors in the "vertical" layout: vector `w` holds word `w` of
/// as many blocks as it has 32-bit lanes, so a diagonal round only picks other vectors and no
/// word moves within a vector (no shuffles in the rounds; the caller transposes once at the
/// end). Alongside, in the same loop, twenty rounds over `S` groups of rows in the horizontal
/// layout (`S = 0`: none), independent work that fills the gaps of the vertical rounds, and
/// `side`'s steps (see [`Side`]) before the vertical rounds' steps.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the AVX-512 backend
#[inline(always)]
pub(crate) fn rounds_words<R: Row, const S: usize, X: Side>(
    x: &mut [R; 16],
    mut rows: Rows<'_, R, S>,
    side: &mut X,
) {
    for dr in 0..10 {
        quarter4::<R, X, 0>(
            x,
            [0, 1, 2, 3],
            [4, 5, 6, 7],
            [8, 9, 10, 11],
            [12, 13, 14, 15],
            side,
            dr,
        );
        rows.half();
        rows.diagonalize::<false>();
        quarter4::<R, X, 1>(
            x,
            [0, 1, 2, 3],
            [5, 6, 7, 4],
            [10, 11, 8, 9],
            [15, 12, 13, 14],
            side,
            dr,
        );
        rows.half();
        rows.diagonalize::<true>();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8439 section 2.3.2 (block function) and draft-irtf-cfrg-xchacha section 2.2.1
    /// (HChaCha20).
    #[test]
    fn block_and_hchacha_examples() {
        let key: [u8; 32] = core::array::from_fn(|i| i as u8);
        let nonce = [0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0];
        let out = block(&state(&key_words(&key), 1, &nonce));
        assert_eq!(out[0], 0xe4e7_f110);
        assert_eq!(out[15], 0x4e3c_50a2);
        let sub = hchacha20(
            &key,
            &[
                0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0, 0x31, 0x41, 0x59, 0x27,
            ],
        );
        assert_eq!(sub[..4], [0x82, 0x41, 0x3b, 0x42]);
        assert_eq!(sub[28..], [0x26, 0xd3, 0xec, 0xdc]);
    }
}
