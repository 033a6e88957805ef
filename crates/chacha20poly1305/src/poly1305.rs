//! Poly1305 (RFC 8439 section 2.5) in radix 2^64: the 130-bit accumulator in two 64-bit limbs
//! and a small third one, products as `u128` (one `mul`/`mulx` each on 64-bit targets). Shared
//! by every backend (`#[inline(always)]`, so each island compiles it for its features).

#![forbid(unsafe_code)]

use zeroize::Zeroize;

/// The Poly1305 state: clamped `r`, `s1 = 5 * (r1 >> 2)`, accumulator `h`, and `s` (the pad).
///
/// `Clone` is kept (crate-private type; no public type of this crate is `Clone`) for the AVX2
/// backend alone: its stitched loop carries a copy of the state through each 512-byte piece
/// (`x86_avx2::Ops::mac_new`, and a local copy in `xor_mac_tf`, so that the accumulator stays
/// in registers) and moves it back at the end. Every copy is a `State`, so it is wiped by the
/// `Drop` below like the original.
#[derive(Clone)]
pub(crate) struct State {
    r0: u64,
    r1: u64,
    s1: u64,
    h0: u64,
    h1: u64,
    h2: u64,
    pad: [u64; 2],
}

#[inline(always)]
fn le64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b[..8].try_into().unwrap())
}

impl State {
    /// `key` is `r || s` (RFC 8439 section 2.5); `r` is clamped here.
    #[inline(always)]
    pub(crate) fn new(key: &[u8; 32]) -> Self {
        let r0 = le64(&key[0..8]) & 0x0fff_fffc_0fff_ffff;
        let r1 = le64(&key[8..16]) & 0x0fff_fffc_0fff_fffc;
        State {
            r0,
            r1,
            s1: r1 + (r1 >> 2),
            h0: 0,
            h1: 0,
            h2: 0,
            pad: [le64(&key[16..24]), le64(&key[24..32])],
        }
    }

    /// Absorbs one 16-byte block with the 2^128 bit `hibit` (1 for full blocks, 0 for a
    /// padded final partial block of the raw MAC).
    ///
    /// Bounds: on entry `h2 <= 4` (so `h < 2^131`); `r0, r1 < 2^60` and `s1 < 2^61` after
    /// clamping, so each 128-bit sum below stays under `2^126`. On exit `h2 <= 4` again.
    #[inline(always)]
    pub(crate) fn block(&mut self, m: &[u8; 16], hibit: u64) {
        self.block_words(le64(&m[0..8]), le64(&m[8..16]), hibit);
    }

    /// [`State::block`] on the block's two little-endian 64-bit words.
    #[inline(always)]
    fn block_words(&mut self, m0: u64, m1: u64, hibit: u64) {
        let (h0, c) = self.h0.overflowing_add(m0);
        let (h1, c1) = self.h1.overflowing_add(m1);
        let (h1, c2) = h1.overflowing_add(c as u64);
        let h2 = self.h2 + c1 as u64 + c2 as u64 + hibit;
        self.mul_reduce(h0, h1, h2);
    }

    /// `h = (h0 + h1 2^64 + h2 2^128) * r`, partially reduced mod `2^130 - 5`, using
    /// `2^128 r1 = 2^130 (r1 / 4) = 5 (r1 / 4) mod p` (`r1` is a multiple of 4).
    #[inline(always)]
    fn mul_reduce(&mut self, h0: u64, h1: u64, h2: u64) {
        let m = |a: u64, b: u64| (a as u128) * (b as u128);
        let d0 = m(h0, self.r0) + m(h1, self.s1);
        // h2 <= 7 and s1 < 1.25 * 2^60, so h2 * s1 < 2^64: one 64-bit multiply.
        let d1 = m(h0, self.r1) + m(h1, self.r0) + (h2 * self.s1) as u128;
        let d2 = h2 * self.r0;
        let d1 = d1 + (d0 >> 64);
        let t2 = d2 + (d1 >> 64) as u64;
        // t2 holds bits 128 and up; fold bits 130+ back in as 5 * (t2 >> 2).
        let c = (t2 & !3) + (t2 >> 2);
        let (h0, k) = (d0 as u64).overflowing_add(c);
        let (h1, k) = (d1 as u64).overflowing_add(k as u64);
        self.h0 = h0;
        self.h1 = h1;
        self.h2 = (t2 & 3) + k as u64;
    }

    /// Absorbs whole 16-byte blocks of `data` (its length a multiple of 16).
    #[inline(always)]
    pub(crate) fn blocks(&mut self, data: &[u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        for m in data.chunks_exact(16) {
            self.block(m.try_into().unwrap(), 1);
        }
    }

    /// Absorbs `data` zero-padded to a multiple of 16 bytes (the AEAD's `pad16`, RFC 8439
    /// section 2.8: padded blocks still carry the 2^128 bit).
    #[inline(always)]
    pub(crate) fn padded(&mut self, data: &[u8]) {
        let whole = data.len() & !15;
        self.blocks(&data[..whole]);
        if whole < data.len() {
            // The zero-padded last block assembled in two words (registers: no stack copy of
            // the data to wipe); the loop runs over the public length only.
            let (mut m0, mut m1) = (0u64, 0u64);
            for (i, &b) in data[whole..].iter().enumerate() {
                if i < 8 {
                    m0 |= (b as u64) << (8 * i);
                } else {
                    m1 |= (b as u64) << (8 * (i - 8));
                }
            }
            self.block_words(m0, m1, 1);
        }
    }

    /// The tag: `h` fully reduced mod `2^130 - 5` (constant time), plus `s` mod 2^128.
    #[inline(always)]
    pub(crate) fn finalize(&self) -> [u8; 16] {
        let (h0, h1, h2) = (self.h0, self.h1, self.h2);
        // h < 2^131 is not yet < p: h - p = h + 5 - 2^130; select it when it does not borrow.
        let (g0, c) = h0.overflowing_add(5);
        let (g1, c) = h1.overflowing_add(c as u64);
        let g2 = h2 + c as u64;
        // h2 <= 4, so one subtraction of p suffices (h < 2^130 + 2^128 < 2p); mask all ones
        // when g >= 2^130.
        let mask = 0u64.wrapping_sub(g2 >> 2);
        let h0 = (h0 & !mask) | (g0 & mask);
        let h1 = (h1 & !mask) | (g1 & mask);
        let (t0, c) = h0.overflowing_add(self.pad[0]);
        let t1 = h1.wrapping_add(self.pad[1]).wrapping_add(c as u64);
        let mut out = [0u8; 16];
        out[..8].copy_from_slice(&t0.to_le_bytes());
        out[8..].copy_from_slice(&t1.to_le_bytes());
        out
    }
}

/// Radix 2^26 (five limbs in `u64`s), the representation of the vectorized Poly1305 of the
/// SIMD backends: products of a limb (`< 2^27`) and a limb or `5 * limb` (`< 2^29.4`) fit in
/// 32x32->64-bit multiplies, and five of them sum below 2^59.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the SIMD backends
pub(crate) const M26: u64 = (1 << 26) - 1;

/// The 26-bit limbs of `lo + hi 2^64 + top 2^128` (`top < 8`; the top limb is then `< 2^27`).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the SIMD backends
#[inline(always)]
pub(crate) fn to_limbs26(lo: u64, hi: u64, top: u64) -> [u64; 5] {
    [
        lo & M26,
        (lo >> 26) & M26,
        ((lo >> 52) | (hi << 12)) & M26,
        (hi >> 14) & M26,
        (hi >> 40) | (top << 24),
    ]
}

/// The value `lo + 2^64 hi + 2^128 top` of radix-2^26 limbs (after one carry pass).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the SIMD backends
#[inline(always)]
pub(crate) fn value26(l: &[u64; 5]) -> (u64, u64, u64) {
    let l = carry26(*l);
    let t = l[0] as u128 + ((l[1] as u128) << 26) + ((l[2] as u128) << 52);
    let t2 = (t >> 64) + ((l[3] as u128) << 14) + ((l[4] as u128) << 40);
    (t as u64, t2 as u64, (t2 >> 64) as u64)
}

/// The 44-bit limb mask of radix 2^44.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the SIMD backends
pub(crate) const M44: u64 = (1 << 44) - 1;

/// Limbs in radix 2^44 (44, 44 and 40 bits plus `2^40 top`: the top one `< 2^40 (1 + top)`) of
/// `lo + 2^64 hi + 2^128 top`.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the SIMD backends
#[inline(always)]
pub(crate) fn to_limbs44(lo: u64, hi: u64, top: u64) -> [u64; 3] {
    [
        lo & M44,
        ((lo >> 44) | (hi << 20)) & M44,
        (hi >> 24) | (top << 40),
    ]
}

/// One carry pass over five limbs `< 2^63`, folding bits 130 and up back in times 5: on exit
/// every limb is `< 2^26` except limb 1, `< 2^26 + 2^(k-26)` for inputs `< 2^k`.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the SIMD backends
#[inline(always)]
pub(crate) fn carry26(mut d: [u64; 5]) -> [u64; 5] {
    d[1] += d[0] >> 26;
    d[0] &= M26;
    d[2] += d[1] >> 26;
    d[1] &= M26;
    d[3] += d[2] >> 26;
    d[2] &= M26;
    d[4] += d[3] >> 26;
    d[3] &= M26;
    let c = d[4] >> 26;
    d[4] &= M26;
    d[0] += c * 5;
    d[1] += d[0] >> 26;
    d[0] &= M26;
    d
}

/// `a * b mod 2^130 - 5` in radix 2^26 (limbs `< 2^27`), carried.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the SIMD backends
#[inline(always)]
pub(crate) fn mul26(a: &[u64; 5], b: &[u64; 5]) -> [u64; 5] {
    let s: [u64; 5] = core::array::from_fn(|i| b[i] * 5);
    carry26([
        a[0] * b[0] + a[1] * s[4] + a[2] * s[3] + a[3] * s[2] + a[4] * s[1],
        a[0] * b[1] + a[1] * b[0] + a[2] * s[4] + a[3] * s[3] + a[4] * s[2],
        a[0] * b[2] + a[1] * b[1] + a[2] * b[0] + a[3] * s[4] + a[4] * s[3],
        a[0] * b[3] + a[1] * b[2] + a[2] * b[1] + a[3] * b[0] + a[4] * s[4],
        a[0] * b[4] + a[1] * b[3] + a[2] * b[2] + a[3] * b[1] + a[4] * b[0],
    ])
}

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the SIMD backends
impl State {
    /// The clamped `r` in radix 2^26.
    #[inline(always)]
    pub(crate) fn r26(&self) -> [u64; 5] {
        to_limbs26(self.r0, self.r1, 0)
    }

    /// The accumulator in radix 2^26.
    #[inline(always)]
    pub(crate) fn h26(&self) -> [u64; 5] {
        to_limbs26(self.h0, self.h1, self.h2)
    }

    /// Replaces the accumulator with a radix-2^26 value (limbs `< 2^32`), partially reduced
    /// to `h2 <= 4` (the bound [`State::block`] expects).
    #[inline(always)]
    pub(crate) fn set_h26(&mut self, l: &[u64; 5]) {
        let (h0, h1, h2) = value26(l);
        self.set_h(h0, h1, h2);
    }

    /// The accumulator in radix 2^44 (limbs of 44, 44 and 42 bits; the top one may exceed).
    #[inline(always)]
    pub(crate) fn h44(&self) -> [u64; 3] {
        to_limbs44(self.h0, self.h1, self.h2)
    }

    /// Replaces the accumulator with a radix-2^44 value (limbs `< 2^63`), partially reduced to
    /// `h2 <= 4`.
    #[inline(always)]
    pub(crate) fn set_h44(&mut self, l: &[u64; 3]) {
        let a = l[0] as u128 + ((l[1] as u128) << 44);
        let t2 = (a >> 64) + ((l[2] as u128) << 24);
        self.set_h(a as u64, t2 as u64, (t2 >> 64) as u64);
    }

    /// Sets the accumulator to `h0 + 2^64 h1 + 2^128 h2` (`h2 < 2^62`), folding the bits from
    /// 130 up back in (times 5).
    #[inline(always)]
    fn set_h(&mut self, h0: u64, h1: u64, h2: u64) {
        let c = (h2 >> 2) * 5;
        let (h0, k) = h0.overflowing_add(c);
        let (h1, k) = h1.overflowing_add(k as u64);
        self.h0 = h0;
        self.h1 = h1;
        self.h2 = (h2 & 3) + k as u64;
    }
}

impl Drop for State {
    fn drop(&mut self) {
        self.r0.zeroize();
        self.r1.zeroize();
        self.s1.zeroize();
        self.h0.zeroize();
        self.h1.zeroize();
        self.h2.zeroize();
        self.pad.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8439 section 2.5.2.
    #[test]
    fn rfc8439_2_5_2() {
        let key: [u8; 32] = [
            0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe, 0x42, 0xd5,
            0x06, 0xa8, 0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf,
            0x41, 0x49, 0xf5, 0x1b,
        ];
        let msg = b"Cryptographic Forum Research Group";
        let mut s = State::new(&key);
        s.blocks(&msg[..32]);
        let mut last = [0u8; 16];
        last[..2].copy_from_slice(&msg[32..]);
        last[2] = 1;
        s.block(&last, 0);
        assert_eq!(
            s.finalize(),
            [
                0xa8, 0x06, 0x1d, 0xc1, 0x30, 0x51, 0x36, 0xc6, 0xc2, 0x2b, 0x8b, 0xaf, 0x0c, 0x01,
                0x27, 0xa9
            ]
        );
    }
}
