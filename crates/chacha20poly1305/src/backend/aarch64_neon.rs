//! NEON backend: ChaCha20 one block per 128-bit register (rows in the "horizontal" layout of
//! [`crate::chacha::Row`], so a block's four rows are its 64 keystream bytes, no transpose),
//! four blocks (256 bytes) in flight. Rotations: `rev32` (16), `tbl` (8), shift right +
//! shift-left-insert (12, 7); the diagonal word rotations are `ext`. Poly1305 is the shared
//! scalar code (radix 2^64, `mul`/`umulh`), stitched into the same loop
//! ([`crate::construction`]).

use core::arch::aarch64::*;

use crate::chacha::{Row, rounds_rows};
use crate::construction::Keystream;
use tessera_cpu::Aarch64Neon;

/// A NEON register holding one row of one block. The zero-sized token field makes the safe
/// `Row` methods sound by construction: an `N` cannot exist unless NEON was proven available.
#[derive(Clone, Copy)]
struct N(uint32x4_t, Aarch64Neon);

/// `tbl` indices of a left rotation of each 32-bit word by 8 bits (byte `i` of the result is
/// byte `ROT8[i]` of the input).
const ROT8: [u8; 16] = [3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14];

impl Row for N {
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        // SAFETY: NEON proven by the token in `self`.
        N(unsafe { vaddq_u32(self.0, o.0) }, self.1)
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        // SAFETY: NEON proven by the token in `self`.
        N(unsafe { veorq_u32(self.0, o.0) }, self.1)
    }
    #[inline(always)]
    fn rotl16(self) -> Self {
        // SAFETY: NEON proven by the token in `self`. Swapping the 16-bit halves of each word
        // is a rotation by 16: one `rev32`.
        N(
            unsafe { vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(self.0))) },
            self.1,
        )
    }
    #[inline(always)]
    fn rotl12(self) -> Self {
        // SAFETY: NEON proven by the token in `self`. `sli` inserts `x << 12` above the low 12
        // bits of `x >> 20`; the immediates are checked at compile time by the intrinsics.
        N(
            unsafe { vsliq_n_u32::<12>(vshrq_n_u32::<20>(self.0), self.0) },
            self.1,
        )
    }
    #[inline(always)]
    fn rotl8(self) -> Self {
        // SAFETY: NEON proven by the token in `self`; `ROT8` is 16 readable bytes. Whole-byte
        // rotation: one table lookup (the table load is loop-invariant and hoisted).
        N(
            unsafe {
                let idx = vld1q_u8(ROT8.as_ptr());
                vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(self.0), idx))
            },
            self.1,
        )
    }
    #[inline(always)]
    fn rotl7(self) -> Self {
        // SAFETY: NEON proven by the token in `self`; as `rotl12`.
        N(
            unsafe { vsliq_n_u32::<7>(vshrq_n_u32::<25>(self.0), self.0) },
            self.1,
        )
    }
    #[inline(always)]
    fn rot_words1(self) -> Self {
        // SAFETY: NEON proven by the token in `self`. `ext` by one word: [x1, x2, x3, x0].
        N(unsafe { vextq_u32::<1>(self.0, self.0) }, self.1)
    }
    #[inline(always)]
    fn rot_words2(self) -> Self {
        // SAFETY: NEON proven by the token in `self`.
        N(unsafe { vextq_u32::<2>(self.0, self.0) }, self.1)
    }
    #[inline(always)]
    fn rot_words3(self) -> Self {
        // SAFETY: NEON proven by the token in `self`.
        N(unsafe { vextq_u32::<3>(self.0, self.0) }, self.1)
    }
}

/// Row `r` of the state.
#[inline(always)]
fn row(t: Aarch64Neon, st: &[u32; 16], r: usize) -> N {
    let w = &st[4 * r..4 * r + 4];
    // SAFETY: NEON proven by `t`; `w` is four readable `u32`s (`ld1` needs 4-byte alignment,
    // which `&[u32]` has).
    N(unsafe { vld1q_u32(w.as_ptr()) }, t)
}

/// XORs the keystream of `S` blocks from counter `st[12]` into `data` (`data.len() <= 64 *
/// S`; a shorter `data` uses the first bytes of the keystream).
#[inline(always)]
fn xor_groups<const S: usize>(t: Aarch64Neon, st: &[u32; 16], data: &mut [u8]) {
    debug_assert!(data.len() <= 64 * S && S <= 4);
    let (a0, b0, c0) = (row(t, st, 0), row(t, st, 1), row(t, st, 2));
    let d0 = row(t, st, 3);
    // (Loops, not closures, in SIMD code: a closure does not inherit the island's target
    // features.)
    let mut d_in = [d0; S];
    for (i, d) in d_in.iter_mut().enumerate() {
        let inc = [i as u32, 0, 0, 0];
        // SAFETY: NEON proven by `t`; `inc` is four readable `u32`s.
        *d = d0.add(N(unsafe { vld1q_u32(inc.as_ptr()) }, t));
    }
    let (mut a, mut b, mut c, mut d) = ([a0; S], [b0; S], [c0; S], d_in);
    rounds_rows(&mut a, &mut b, &mut c, &mut d);
    for i in 0..S {
        let out = [
            a[i].add(a0).0,
            b[i].add(b0).0,
            c[i].add(c0).0,
            d[i].add(d_in[i]).0,
        ];
        let off = 64 * i;
        if off + 64 <= data.len() {
            let blk = &mut data[off..off + 64];
            for (j, o) in out.iter().enumerate() {
                let p = blk[16 * j..16 * j + 16].as_mut_ptr();
                // SAFETY: NEON proven by `t`; `p` points at 16 bytes of `data` (bounds checked
                // by the slices above), byte loads and stores (no alignment needed).
                unsafe {
                    let x = vld1q_u8(p);
                    vst1q_u8(p, veorq_u8(x, vreinterpretq_u8_u32(*o)));
                }
            }
        } else if off < data.len() {
            let mut tmp = [0u8; 64];
            for (j, o) in out.iter().enumerate() {
                // SAFETY: NEON proven by `t`; `tmp[16 j..16 j + 16]` is 16 writable bytes.
                unsafe {
                    vst1q_u8(
                        tmp[16 * j..16 * j + 16].as_mut_ptr(),
                        vreinterpretq_u8_u32(*o),
                    )
                };
            }
            for (x, k) in data[off..].iter_mut().zip(&tmp) {
                *x ^= k;
            }
            zeroize::Zeroize::zeroize(&mut tmp);
        }
    }
}

/// XORs the keystream from counter `st[12]` into `data` of any length, four blocks at a time.
#[inline(always)]
fn xor_stream(t: Aarch64Neon, st: &[u32; 16], data: &mut [u8]) {
    let mut s = *st;
    let mut chunks = data.chunks_exact_mut(256);
    for c in &mut chunks {
        xor_groups::<4>(t, &s, c);
        s[12] = s[12].wrapping_add(4);
    }
    let rest = chunks.into_remainder();
    match rest.len() {
        0 => {}
        1..=64 => xor_groups::<1>(t, &s, rest),
        65..=128 => xor_groups::<2>(t, &s, rest),
        129..=192 => xor_groups::<3>(t, &s, rest),
        _ => xor_groups::<4>(t, &s, rest),
    }
    zeroize::Zeroize::zeroize(&mut s);
}

/// The NEON keystream of the one-pass AEAD loop (scalar Poly1305: no piece MAC).
pub(crate) struct Ops(Aarch64Neon);

impl Keystream for Ops {
    type Token = Aarch64Neon;
    #[inline(always)]
    fn new(t: Aarch64Neon) -> Self {
        Ops(t)
    }

    type Mac = ();
    const CHUNK: usize = 256;

    #[inline(always)]
    fn xor(&self, state: &[u32; 16], data: &mut [u8]) {
        xor_stream(self.0, state, data)
    }

    /// Blocks 0..4 cover the Poly1305 key and up to 192 bytes: one call.
    const SHORT: usize = 192;
}
