//! AVX-512 backend: ChaCha20 four blocks per zmm register (one per 128-bit lane, rows in the
//! "horizontal" layout of [`crate::chacha::Row`], `vprold` rotations), four register groups
//! (sixteen blocks, 1024 bytes) in flight; tails under 256 bytes run the AVX2 code. Poly1305
//! is the shared scalar code, stitched into the same loop ([`crate::construction`]).

use core::arch::x86_64::*;

use super::x86_avx2;
use crate::chacha::{Row, rounds_rows};
use crate::construction::{self, Keystream};
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
    debug_assert!(data.len() <= 256 * S && S <= 4);
    let (a0, b0, c0) = (row(t, st, 0), row(t, st, 1), row(t, st, 2));
    let d0 = row(t, st, 3);
    let d_in: [Zmm; S] = core::array::from_fn(|i| {
        let k = 4 * i as i32;
        // SAFETY: AVX-512F proven by `t`.
        let inc = unsafe {
            _mm512_setr_epi32(k, 0, 0, 0, k + 1, 0, 0, 0, k + 2, 0, 0, 0, k + 3, 0, 0, 0)
        };
        d0.add(Zmm(inc, t))
    });
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
                x86_avx2::wipe32(lo.try_into().unwrap());
                x86_avx2::wipe32(hi.try_into().unwrap());
            }
        }
    }
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
        0..256 => x86_avx2::xor_tail(t.avx2(), &s, rest),
        256..=512 => xor_groups::<2>(t, &s, rest),
        _ => xor_groups::<4>(t, &s, rest),
    }
    zeroize::Zeroize::zeroize(&mut s);
}

/// The AVX-512 keystream of the one-pass AEAD loop; messages under 1 KiB run the AVX2 code
/// (see [`aead`]).
struct Ops(X86Avx512);

impl Keystream for Ops {
    const CHUNK: usize = 1024;

    #[inline(always)]
    fn xor(&self, state: &[u32; 16], data: &mut [u8]) {
        xor_stream(self.0, state, data)
    }

    #[inline(always)]
    fn otk(&self, state: &[u32; 16]) -> [u8; 32] {
        let mut b = [0u8; 32];
        x86_avx2::xor_tail(self.0.avx2(), state, &mut b);
        b
    }

    const SHORT: usize = 192;

    #[inline(always)]
    fn short(&self, state: &[u32; 16], ks: &mut [u8; 256]) {
        x86_avx2::xor_tail(self.0.avx2(), state, ks)
    }

    #[inline(always)]
    fn wipe(&self, ks: &mut [u8; 256]) {
        for c in ks.chunks_exact_mut(32) {
            x86_avx2::wipe32(c.try_into().unwrap());
        }
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
