//! Poly1305 vectorized over `N` lanes (radix 2^26, one 32x32->64-bit multiply per limb
//! product: `vpmuludq`), generic over a backend's vector of 64-bit lanes, which carries its
//! capability token. Compiled into each backend's island (`#[inline(always)]`).

#![forbid(unsafe_code)]

use crate::poly1305::{self, M26, mul26};

/// A vector of `N` 64-bit lanes (the AVX-512 backend's zmm: 8), with the operations of the
/// radix-2^26 multiply. `Zeroize`: overwrites the register image with zeros by volatile stores
/// (what [`Wide`]'s `Drop` uses).
pub(crate) trait Lanes: Copy + zeroize::Zeroize {
    type Token: Copy;
    const N: usize;
    fn splat(t: Self::Token, x: u64) -> Self;
    /// Lanes from the first `N` entries.
    fn from_lanes(t: Self::Token, x: &[u64; 8]) -> Self;
    /// The lanes in the first `N` entries (the rest zero).
    fn lanes(self) -> [u64; 8];
    fn token(self) -> Self::Token;
    /// Low 32 bits of each lane times low 32 bits of `o`'s.
    fn mul(self, o: Self) -> Self;
    fn add(self, o: Self) -> Self;
    fn shr<const S: u32>(self) -> Self;
    fn shl<const S: u32>(self) -> Self;
    fn or(self, o: Self) -> Self;
    fn and(self, o: Self) -> Self;
    /// The low and high 64 bits of the `N` blocks of `16 N` bytes, block `block_of_lane(j)`
    /// in lane `j`.
    fn load_blocks(t: Self::Token, g: &[u8]) -> (Self, Self);
    fn block_of_lane(j: usize) -> usize;
}

/// `r^1..=r^n` (`n` = 4 or 8) of `poly`'s key in radix 2^26 (limbs after one carry pass; the
/// rest zero): r^2, then r^3 and r^4 from it, then r^5..r^8 from r^4, three multiplies deep.
#[inline(always)]
pub(crate) fn powers26(poly: &poly1305::State, n: usize) -> [[u64; 5]; 8] {
    let r1 = poly.r26();
    let mut pw = [[0u64; 5]; 8];
    pw[0] = r1;
    pw[1] = mul26(&r1, &r1);
    pw[2] = mul26(&pw[1], &r1);
    pw[3] = mul26(&pw[1], &pw[1]);
    for i in 4..n {
        pw[i] = mul26(&pw[3], &pw[i - 4]);
    }
    pw
}

/// `h * r mod 2^130 - 5` lane-wise in radix 2^26 (`h` limbs `< 2^27`, `r` limbs `< 2^26 + 2^8`,
/// `s = 5 r`), one carry pass: limbs on exit `< 2^26` except limb 1 (`< 2^26 + 2^8`).
#[inline(always)]
fn vmul<Q: Lanes>(h: &[Q; 5], r: &[Q; 5], s: &[Q; 5], mask: Q) -> [Q; 5] {
    let d0 = h[0]
        .mul(r[0])
        .add(h[1].mul(s[4]))
        .add(h[2].mul(s[3]))
        .add(h[3].mul(s[2]))
        .add(h[4].mul(s[1]));
    let d1 = h[0]
        .mul(r[1])
        .add(h[1].mul(r[0]))
        .add(h[2].mul(s[4]))
        .add(h[3].mul(s[3]))
        .add(h[4].mul(s[2]));
    let d2 = h[0]
        .mul(r[2])
        .add(h[1].mul(r[1]))
        .add(h[2].mul(r[0]))
        .add(h[3].mul(s[4]))
        .add(h[4].mul(s[3]));
    let d3 = h[0]
        .mul(r[3])
        .add(h[1].mul(r[2]))
        .add(h[2].mul(r[1]))
        .add(h[3].mul(r[0]))
        .add(h[4].mul(s[4]));
    let d4 = h[0]
        .mul(r[4])
        .add(h[1].mul(r[3]))
        .add(h[2].mul(r[2]))
        .add(h[3].mul(r[1]))
        .add(h[4].mul(r[0]));
    let d1 = d1.add(d0.shr::<26>());
    let d0 = d0.and(mask);
    let d2 = d2.add(d1.shr::<26>());
    let d1 = d1.and(mask);
    let d3 = d3.add(d2.shr::<26>());
    let d2 = d2.and(mask);
    let d4 = d4.add(d3.shr::<26>());
    let d3 = d3.and(mask);
    let c = d4.shr::<26>();
    let d4 = d4.and(mask);
    let d0 = d0.add(c).add(c.shl::<2>());
    let d1 = d1.add(d0.shr::<26>());
    let d0 = d0.and(mask);
    [d0, d1, d2, d3, d4]
}

/// Poly1305 over `N` blocks at a time: the lane of block `j` of each group accumulates blocks
/// `Ni + j`, multiplied by `r^N` per group (Horner in steps of `N`); [`Wide::finish`] multiplies
/// that lane by `r^(N - j)` and sums the lanes (RFC 8439 section 2.5's polynomial, regrouped).
pub(crate) struct Wide<Q: Lanes> {
    h: [Q; 5],
    /// `r^N` in every lane (and times 5).
    r8: [Q; 5],
    s8: [Q; 5],
    /// The lane of block `j`: the limbs of `r^(N - j)` (and times 5).
    rl: [Q; 5],
    sl: [Q; 5],
    /// No group absorbed yet: the first one is added without multiplying (lane 0 starts with
    /// the scalar accumulator).
    first: bool,
}

impl<Q: Lanes> Wide<Q> {
    #[inline(always)]
    pub(crate) fn new(t: Q::Token, poly: &poly1305::State) -> Self {
        let mut pw = powers26(poly, Q::N);
        let h0 = poly.h26();
        // (Loops, not closures: a closure does not inherit the island's target features.)
        let zero = Q::splat(t, 0);
        let (mut h, mut r8, mut s8, mut rl, mut sl) =
            ([zero; 5], [zero; 5], [zero; 5], [zero; 5], [zero; 5]);
        for k in 0..5 {
            let mut l = [0u64; 8];
            l[0] = h0[k];
            h[k] = Q::from_lanes(t, &l);
            r8[k] = Q::splat(t, pw[Q::N - 1][k]);
            s8[k] = r8[k].add(r8[k].shl::<2>());
            for (j, x) in l.iter_mut().enumerate().take(Q::N) {
                *x = pw[Q::N - 1 - Q::block_of_lane(j)][k];
            }
            rl[k] = Q::from_lanes(t, &l);
            sl[k] = rl[k].add(rl[k].shl::<2>());
            zeroize::Zeroize::zeroize(&mut l);
        }
        zeroize::Zeroize::zeroize(pw.as_flattened_mut());
        Wide {
            h,
            r8,
            s8,
            rl,
            sl,
            first: true,
        }
    }

    /// Absorbs `data` (a multiple of `16 N` bytes).
    #[inline(always)]
    pub(crate) fn blocks(&mut self, data: &[u8]) {
        let t = self.h[0].token();
        let mask = Q::splat(t, M26);
        let hibit = Q::splat(t, 1 << 24);
        for g in data.chunks_exact(16 * Q::N) {
            let (lo, hi) = Q::load_blocks(t, g);
            let m = [
                lo.and(mask),
                lo.shr::<26>().and(mask),
                lo.shr::<52>().or(hi.shl::<12>()).and(mask),
                hi.shr::<14>().and(mask),
                hi.shr::<40>().or(hibit),
            ];
            let h = if self.first {
                self.first = false;
                self.h
            } else {
                // Re-read opaquely in each group: LLVM otherwise hoists the `vpmuludq` operand
                // masks out of the loop and, no longer seeing them in the loop body, lowers
                // every product as a full 64-bit multiply (three `vpmuludq`, two shifts, two
                // adds).
                let (r8, s8) = core::hint::black_box((&self.r8, &self.s8));
                vmul(&self.h, r8, s8, mask)
            };
            for k in 0..5 {
                self.h[k] = h[k].add(m[k]);
            }
        }
    }

    /// Multiplies the lane of block `j` by `r^(N - j)`, sums the lanes into `poly`'s
    /// accumulator (the state is wiped when `self` drops at the end).
    #[inline(always)]
    pub(crate) fn finish(self, poly: &mut poly1305::State) {
        if self.first {
            return;
        }
        let mask = Q::splat(self.h[0].token(), M26);
        let h = vmul(&self.h, &self.rl, &self.sl, mask);
        let mut l = [0u64; 5];
        for k in 0..5 {
            let mut x = h[k].lanes();
            l[k] = x.iter().sum();
            zeroize::Zeroize::zeroize(&mut x);
        }
        poly.set_h26(&l);
        zeroize::Zeroize::zeroize(&mut l);
    }
}

#[cfg(test)]
impl<Q: Lanes> Wide<Q> {
    /// (Offset, length) of each secret field, for the drop probes of the backends' tests.
    pub(crate) const SECRET_FIELDS: [(usize, usize); 5] = {
        let n = core::mem::size_of::<[Q; 5]>();
        [
            (core::mem::offset_of!(Self, h), n),
            (core::mem::offset_of!(Self, r8), n),
            (core::mem::offset_of!(Self, s8), n),
            (core::mem::offset_of!(Self, rl), n),
            (core::mem::offset_of!(Self, sl), n),
        ]
    };
}

/// The powers of `r` and the accumulators are secret (the one-time key and a function of the
/// message under it): overwritten with zeros by volatile stores (`Zeroize` on each vector) when
/// the state drops.
impl<Q: Lanes> Drop for Wide<Q> {
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
