//! The `x86_avx512_ifma` backend: the AVX-512 keystream of `x86_avx512.rs` ([`Ops`] with the
//! IFMA token) with Poly1305 eight lanes in radix 2^44 on `vpmadd52luq`/`vpmadd52huq`
//! ([`Wide52`]), stitched into the vertical rounds of whole 1 KiB pieces like the radix-2^26
//! code ([`xor_mac_words`]).

use core::arch::x86_64::*;

use super::x86_avx512::{Groups, Q, WideMac, xor_mac_words};
use crate::poly1305::{self, M44};
use crate::wide::Lanes;
#[cfg(doc)]
use crate::wide::Wide;
use tessera_cpu::{X86Avx512, X86Avx512Ifma};

/// The keystream type of the `x86_avx512_ifma` row.
pub(crate) type Ops = super::x86_avx512::Ops<X86Avx512Ifma>;

impl WideMac for X86Avx512Ifma {
    type Wide = Wide52;
    #[inline(always)]
    fn avx512(self) -> X86Avx512 {
        X86Avx512Ifma::avx512(self)
    }
    #[inline(always)]
    fn wide_new(self, poly: &poly1305::State) -> Wide52 {
        Wide52::new(self, poly)
    }
    #[inline(always)]
    fn wide_blocks(self, w: &mut Wide52, data: &[u8]) {
        // SAFETY: `wide52_blocks_tf` is compiled for the features of `X86Avx512Ifma`, which
        // `self` proves.
        unsafe { wide52_blocks_tf(w, data) }
    }
    #[inline(always)]
    fn wide_finish(self, w: Wide52, poly: &mut poly1305::State) {
        w.finish(poly)
    }

    #[inline(always)]
    fn xor_mac<const OWN: bool>(
        self,
        st: &[u32; 16],
        data: &mut [u8],
        w: &mut Wide52,
        prev: &[u8],
    ) {
        // SAFETY: `xor_mac52_tf` is compiled for the features of `X86Avx512Ifma`, which `self`
        // proves.
        unsafe { xor_mac52_tf::<OWN>(self, st, data.try_into().unwrap(), w, prev) }
    }
}

tessera_cpu::with_features! { X86Avx512Ifma;
    /// [`Wide52::blocks`] out of line (as the radix-2^26 `wide_blocks_tf`: its state, inlined
    /// beside the horizontal rows of a piece's end, would be spilled).
    #[inline(never)]
    fn wide52_blocks_tf(w: &mut Wide52, data: &[u8]) {
        w.blocks(data)
    }

    /// [`xor_mac_words`] for the radix-2^44 MAC.
    #[inline(never)]
    fn xor_mac52_tf<const OWN: bool>(
        t: X86Avx512Ifma,
        st: &[u32; 16],
        data: &mut [u8; 1024],
        w: &mut Wide52,
        prev: &[u8],
    ) {
        xor_mac_words::<OWN, _>(t.avx512(), st, data, w, prev)
    }
}

impl Groups for Wide52 {
    #[inline(always)]
    fn groups(&mut self, data: &[u8]) {
        self.blocks(data)
    }
}

/// Poly1305 over eight blocks at a time in radix 2^44 with AVX-512 IFMA, regrouped as in
/// [`Wide`] (lane `j` accumulates blocks `8i + j`, times `r^8` per group; the finish multiplies
/// lane `j` by `r^(8 - j)` and sums the lanes): three limbs of 44, 44 and 42 bits per lane,
/// each limb product one `vpmadd52luq` (bits 0..52) and one `vpmadd52huq` (bits 52..104).
pub(crate) struct Wide52 {
    t: X86Avx512Ifma,
    h: [__m512i; 3],
    /// `r^8` in every lane, and `20 r^8` of limbs 1 and 2 (`2^132 = 20 mod p`).
    r8: [__m512i; 3],
    s8: [__m512i; 2],
    /// The lane of block `j`: `r^(8 - j)`, and 20 times limbs 1 and 2.
    rl: [__m512i; 3],
    sl: [__m512i; 2],
    /// No group absorbed yet: the first one is added without multiplying.
    first: bool,
}

impl Wide52 {
    /// `h * r + m mod 2^130 - 5` lane-wise (`h` and `m` limbs `< 2^46`; `r` limbs `< 2^44`,
    /// `2^44`, `2^43`; `s = 20 r` of limbs 1 and 2), one parallel carry pass: limbs on exit
    /// `< 2^44 + 2^15`, `2^44 + 2^13`, `2^42 + 2^13`.
    ///
    /// Bounds: the multiply-adds read 52 bits of `h`, `r` and `s` (all `< 2^49`); every product
    /// is `< 2^95`, its high half `< 2^43`. Limbs 1 and 2 are three low halves, `m` and
    /// `2^8` times a sum of three high halves, `< 2^54`; limb 0 takes the high halves of
    /// column 2 times `5 * 2^10`, and those products use `r` (`< 2^44`), not `s`: `< 2^90`,
    /// high halves `< 2^38`, so limb 0 is `< 2^54.1` too. No lane overflows, and each carry is
    /// `< 2^13` (limb 2's times 5 `< 2^15`). A product at weight `2^(44 k)` has its high half at
    /// `2^(44 k + 52) = 2^8 2^(44 (k + 1))`; for `k = 2` that is `2^140 = 5 2^10 mod p`.
    ///
    /// Latency (the loop carries `h`): the three multiply-adds of a limb half are a chain of two
    /// beside a single one (two deep, not three), and the carries of the three limbs are taken
    /// at once rather than one after another.
    #[inline(always)]
    fn mul(
        t: X86Avx512Ifma,
        h: &[__m512i; 3],
        r: &[__m512i; 3],
        s: &[__m512i; 2],
        m: &[__m512i; 3],
    ) -> [__m512i; 3] {
        let _ = t;
        // SAFETY: AVX-512 F and IFMA proven by `t`.
        unsafe {
            // (Functions, not closures: see `x86_avx2::xor_groups`.)
            #[inline(always)]
            unsafe fn lo(a: __m512i, x: __m512i, y: __m512i) -> __m512i {
                // SAFETY: IFMA proven by the caller's token.
                unsafe { _mm512_madd52lo_epu64(a, x, y) }
            }
            #[inline(always)]
            unsafe fn hi(a: __m512i, x: __m512i, y: __m512i) -> __m512i {
                // SAFETY: IFMA proven by the caller's token.
                unsafe { _mm512_madd52hi_epu64(a, x, y) }
            }
            let z = _mm512_setzero_si512();
            #[inline(always)]
            unsafe fn add(a: __m512i, b: __m512i) -> __m512i {
                // SAFETY: AVX-512F proven by the caller's token.
                unsafe { _mm512_add_epi64(a, b) }
            }
            let l0 = add(lo(m[0], h[0], r[0]), lo(lo(z, h[1], s[1]), h[2], s[0]));
            let h0 = add(hi(z, h[0], r[0]), hi(hi(z, h[1], s[1]), h[2], s[0]));
            let l1 = add(lo(m[1], h[0], r[1]), lo(lo(z, h[1], r[0]), h[2], s[1]));
            let h1 = add(hi(z, h[0], r[1]), hi(hi(z, h[1], r[0]), h[2], s[1]));
            let l2 = add(lo(m[2], h[0], r[2]), lo(lo(z, h[1], r[1]), h[2], r[0]));
            let h2 = add(hi(z, h[0], r[2]), hi(hi(z, h[1], r[1]), h[2], r[0]));
            let m44 = _mm512_set1_epi64(M44 as i64);
            let m42 = _mm512_set1_epi64(((1u64 << 42) - 1) as i64);
            let d0 = add(
                l0,
                add(_mm512_slli_epi64::<12>(h2), _mm512_slli_epi64::<10>(h2)),
            );
            let d1 = add(l1, _mm512_slli_epi64::<8>(h0));
            let d2 = add(l2, _mm512_slli_epi64::<8>(h1));
            let c0 = _mm512_srli_epi64::<44>(d0);
            let c1 = _mm512_srli_epi64::<44>(d1);
            let c2 = _mm512_srli_epi64::<42>(d2);
            [
                add(
                    _mm512_and_si512(d0, m44),
                    add(c2, _mm512_slli_epi64::<2>(c2)),
                ),
                add(_mm512_and_si512(d1, m44), c0),
                add(_mm512_and_si512(d2, m42), c1),
            ]
        }
    }

    /// Limbs in radix 2^44 of `r^1..=r^8`, and the vectors of `r^8` and of `r^(8 - j)` in
    /// lane `j`.
    #[inline(always)]
    fn new(t: X86Avx512Ifma, poly: &poly1305::State) -> Self {
        let mut pw = crate::wide::powers26(poly, 8);
        let mut p44 = [[0u64; 3]; 8];
        for (o, p) in p44.iter_mut().zip(&pw) {
            let (lo, hi, top) = poly1305::value26(p);
            *o = poly1305::to_limbs44(lo, hi, top);
        }
        let h0 = poly.h44();
        // SAFETY: AVX-512F proven by `t`; every array read is 64 bytes.
        let w = unsafe {
            let mut lane = [[0u64; 8]; 3];
            for (j, p) in p44.iter().rev().enumerate() {
                for k in 0..3 {
                    lane[k][j] = p[k];
                }
            }
            let z = _mm512_setzero_si512();
            let (mut rl, mut r8, mut h) = ([z; 3], [z; 3], [z; 3]);
            for k in 0..3 {
                rl[k] = _mm512_loadu_si512(lane[k].as_ptr().cast());
                r8[k] = _mm512_set1_epi64(p44[7][k] as i64);
                lane[k] = [0; 8];
                lane[k][0] = h0[k];
                h[k] = _mm512_loadu_si512(lane[k].as_ptr().cast());
            }
            zeroize::Zeroize::zeroize(lane.as_flattened_mut());
            // 20 v = 16 v + 4 v.
            let mut s = [[z; 2]; 2];
            for (o, v) in s.iter_mut().zip([&r8, &rl]) {
                for k in 0..2 {
                    o[k] = _mm512_add_epi64(
                        _mm512_slli_epi64::<4>(v[k + 1]),
                        _mm512_slli_epi64::<2>(v[k + 1]),
                    );
                }
            }
            Wide52 {
                t,
                h,
                r8,
                s8: s[0],
                rl,
                sl: s[1],
                first: true,
            }
        };
        zeroize::Zeroize::zeroize(pw.as_flattened_mut());
        zeroize::Zeroize::zeroize(p44.as_flattened_mut());
        w
    }

    /// Absorbs `data` (a multiple of 128 bytes).
    #[inline(always)]
    fn blocks(&mut self, data: &[u8]) {
        let t = self.t;
        for g in data.chunks_exact(128) {
            let (lo, hi) = Q::load_blocks(t.avx512(), g);
            let (lo, hi) = (lo.0, hi.0);
            // SAFETY: AVX-512F proven by `t`.
            let m = unsafe {
                let m44 = _mm512_set1_epi64(M44 as i64);
                [
                    _mm512_and_si512(lo, m44),
                    _mm512_and_si512(
                        _mm512_or_si512(_mm512_srli_epi64::<44>(lo), _mm512_slli_epi64::<20>(hi)),
                        m44,
                    ),
                    _mm512_or_si512(_mm512_srli_epi64::<24>(hi), _mm512_set1_epi64(1 << 40)),
                ]
            };
            if self.first {
                self.first = false;
                for (h, m) in self.h.iter_mut().zip(m) {
                    // SAFETY: AVX-512F proven by `t`.
                    *h = unsafe { _mm512_add_epi64(*h, m) };
                }
            } else {
                self.h = Self::mul(t, &self.h, &self.r8, &self.s8, &m);
            }
        }
    }

    /// Multiplies the lane of block `j` by `r^(8 - j)`, sums the lanes into `poly`'s
    /// accumulator (the state is wiped when `self` drops at the end).
    #[inline(always)]
    fn finish(self, poly: &mut poly1305::State) {
        if self.first {
            return;
        }
        // SAFETY: AVX-512F proven by `self.t`.
        let z = unsafe { _mm512_setzero_si512() };
        let h = Self::mul(self.t, &self.h, &self.rl, &self.sl, &[z; 3]);
        let mut l = [0u64; 3];
        for (o, v) in l.iter_mut().zip(h) {
            // SAFETY: AVX-512F proven by `self.t`. Each lane is `< 2^45`, so the sum of eight is
            // `< 2^48`.
            *o = unsafe { _mm512_reduce_add_epi64(v) } as u64;
        }
        poly.set_h44(&l);
        zeroize::Zeroize::zeroize(&mut l);
    }
}

/// The powers of `r` and the accumulators are secret (as in [`Wide`]'s `Drop`): overwritten
/// with zeros by volatile stores when the state drops.
impl Drop for Wide52 {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        self.h.zeroize();
        self.r8.zeroize();
        self.s8.zeroize();
        self.rl.zeroize();
        self.sl.zeroize();
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use crate::backend::x86_avx512::tests::{nonzero_before_after_drop, poly};
    use core::mem::size_of;
    use std::eprintln;

    /// `Wide52` (radix 2^44, IFMA) wipes its powers of `r` and accumulators when it drops.
    #[test]
    fn wide52_wiped_on_drop() {
        let Some(t) = X86Avx512Ifma::detect() else {
            eprintln!("no AVX-512 IFMA on this CPU: wide52_wiped_on_drop skipped");
            return;
        };
        let mut w = Wide52::new(t, &poly());
        w.blocks(&[0xff; 256]);
        let (n3, n2) = (size_of::<[__m512i; 3]>(), size_of::<[__m512i; 2]>());
        let fields = [
            (core::mem::offset_of!(Wide52, h), n3),
            (core::mem::offset_of!(Wide52, r8), n3),
            (core::mem::offset_of!(Wide52, s8), n2),
            (core::mem::offset_of!(Wide52, rl), n3),
            (core::mem::offset_of!(Wide52, sl), n2),
        ];
        let (before, after) = nonzero_before_after_drop(w, fields);
        assert!(before > 0, "the probe saw no secret bytes to wipe");
        assert_eq!(
            after, 0,
            "{after} of {before} nonzero secret bytes left after drop"
        );
    }
}
