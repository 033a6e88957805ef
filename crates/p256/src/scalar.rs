//! Integers modulo the group order `n`: the ECDSA scalar arithmetic (portable: a signature
//! takes a handful of these operations and one inversion, next to a scalar multiplication of
//! thousands of field operations) and the signed-digit recodings the scalar multiplications
//! walk.
//!
//! A [`Scalar`] holds the canonical integer (below `n`) as four little-endian words. Products go
//! through the Montgomery code of [`crate::fe`] (`a b = mont(mont(a, b), R^2)`).
#![forbid(unsafe_code)]

use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroize;

use crate::fe::{self, Limbs, N};
use crate::inverse;

/// An integer modulo `n`, canonical (below `n`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Scalar(pub(crate) Limbs);

impl Zeroize for Scalar {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl ConstantTimeEq for Scalar {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.0.ct_eq(&other.0)
    }
}

impl ConditionallySelectable for Scalar {
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        let mut r = *a;
        for i in 0..4 {
            r.0[i].conditional_assign(&b.0[i], c);
        }
        r
    }
}

/// `n - 2`, the exponent of the Fermat inversion (the tests' reference).
#[cfg(test)]
const N_MINUS_2: Limbs = [
    0xf3b9_cac2_fc63_254f,
    0xbce6_faad_a717_9e84,
    0xffff_ffff_ffff_ffff,
    0xffff_ffff_0000_0000,
];

/// `(n - 1) / 2`: the largest "low" `s` (the low-s rule: `s <= n/2`).
#[allow(dead_code)] // ECDSA (next)
pub(crate) const HALF_N: Limbs = [
    0x79dc_e561_7e31_92a8,
    0xde73_7d56_d38b_cf42,
    0x7fff_ffff_ffff_ffff,
    0x7fff_ffff_8000_0000,
];

#[allow(dead_code)] // ECDSA (next)
impl Scalar {
    /// 0.
    pub(crate) const ZERO: Scalar = Scalar([0; 4]);
    /// 1.
    pub(crate) const ONE: Scalar = Scalar([1, 0, 0, 0]);

    /// The integer of 32 big-endian bytes if it is below `n`; the choice says whether it is.
    /// The value returned when it is not is unspecified (the caller discards it).
    #[inline]
    pub(crate) fn from_be_bytes_checked(b: &[u8; 32]) -> (Scalar, Choice) {
        let a = fe::from_be_bytes(b);
        (Scalar(a), Choice::from(fe::lt(&a, &N.m) as u8))
    }

    /// The integer of 32 big-endian bytes modulo `n` (the integer is below `2^256 < 2n`, so one
    /// masked subtraction reduces it): `bits2int` then mod `n` for a 256-bit hash (SEC 1
    /// section 4.1.3 step 5, FIPS 186-5 section 6.4.1).
    #[inline]
    pub(crate) fn reduce_be_bytes(b: &[u8; 32]) -> Scalar {
        Scalar(fe::sub_if_ge(&fe::from_be_bytes(b), 0, &N.m))
    }

    /// The 32-byte big-endian encoding.
    #[inline]
    pub(crate) fn to_be_bytes(self) -> [u8; 32] {
        fe::to_be_bytes(&self.0)
    }

    /// Whether this is 0, in constant time.
    #[inline]
    pub(crate) fn is_zero(&self) -> Choice {
        Choice::from(fe::is_zero(&self.0) as u8)
    }

    /// Whether this is above `(n - 1) / 2` (a "high" `s`), in constant time.
    #[inline]
    pub(crate) fn is_high(&self) -> Choice {
        Choice::from(fe::lt(&HALF_N, &self.0) as u8)
    }

    /// `self + b mod n`.
    #[inline]
    pub(crate) fn add(&self, b: &Scalar) -> Scalar {
        Scalar(fe::add(&self.0, &b.0, &N.m))
    }

    /// `self - b mod n`.
    #[inline]
    pub(crate) fn sub(&self, b: &Scalar) -> Scalar {
        Scalar(fe::sub(&self.0, &b.0, &N.m))
    }

    /// `-self mod n`.
    #[inline]
    pub(crate) fn neg(&self) -> Scalar {
        Scalar(fe::neg(&self.0, &N.m))
    }

    /// `self b mod n`.
    #[inline]
    pub(crate) fn mul(&self, b: &Scalar) -> Scalar {
        Scalar(fe::mont_mul(&fe::mont_mul(&self.0, &b.0, &N), &N.r2, &N))
    }

    /// `self^(-1) mod n`, and 0 for 0 (no inverse; the callers never pass 0 for a secret:
    /// ECDSA's `k` and the verifier's `s` are checked nonzero first): the constant-time
    /// divsteps of [`crate::inverse`] on the canonical integer.
    #[inline]
    pub(crate) fn invert(&self) -> Scalar {
        let mut r = Scalar::ZERO;
        inverse::invert_into(&inverse::N, &self.0, &mut r.0);
        r
    }

    /// `self^(n - 2)` (the inverse, 0 for 0) by a fixed 4-bit window over the public
    /// exponent (every step is the same sequence of products for every input; the table index
    /// is a digit of `n - 2`, not of the secret).
    #[cfg(test)]
    pub(crate) fn invert_fermat(&self) -> Scalar {
        let a = fe::to_mont(&self.0, &N);
        // t[i] = a^i, i = 0..16, in Montgomery form.
        let mut t = [[0u64; 4]; 16];
        t[0] = fe::to_mont(&[1, 0, 0, 0], &N);
        t[1] = a;
        for i in 2..16 {
            t[i] = fe::mont_mul(&t[i - 1], &a, &N);
        }
        let mut r = t[0];
        for nib in (0..64).rev() {
            for _ in 0..4 {
                r = fe::mont_sqr(&r, &N);
            }
            let d = ((N_MINUS_2[nib / 16] >> ((nib % 16) * 4)) & 0xf) as usize;
            r = fe::mont_mul(&r, &t[d], &N);
        }
        t.zeroize();
        Scalar(fe::from_mont(&r, &N))
    }

    /// Bit `i` (public position) of the integer.
    #[inline(always)]
    fn bit(&self, i: usize) -> u64 {
        if i >= 256 {
            0
        } else {
            (self.0[i / 64] >> (i % 64)) & 1
        }
    }

    /// The `w + 1` bits `i - 1 ..= i + w - 1` (bit `-1` is 0) as an integer, for the signed
    /// windows (positions are public).
    #[inline(always)]
    fn window(&self, i: usize, w: usize) -> u64 {
        let mut v = if i == 0 { 0 } else { self.bit(i - 1) };
        for j in 0..w {
            v |= self.bit(i + j) << (j + 1);
        }
        v
    }

    /// The signed radix-`2^W` digits (Booth recoding): `self = sum d_i 2^(W i)` with
    /// `d_i = b_(Wi-1) + sum_(j<W-1) 2^j b_(Wi+j) - 2^(W-1) b_(Wi+W-1)`, so
    /// `-2^(W-1) <= d_i <= 2^(W-1)`, returned as magnitude and sign (1 = negative). `D` is the
    /// number of windows (`W D >= 257`, so the top digit is not negative). Constant time: no
    /// branch or index depends on the bits.
    #[inline(always)]
    pub(crate) fn booth<const W: usize, const D: usize>(&self) -> [(u8, u8); D] {
        let mut out = [(0u8, 0u8); D];
        let top = 1u64 << W;
        for (i, o) in out.iter_mut().enumerate() {
            let v = self.window(W * i, W);
            // v in [0, 2^(W+1)): d = (v >> 1) + (v & 1) - 2^W * (v >> W)
            //                      = ((v + 1) >> 1) - (top if the top bit is set).
            let s = v >> W; // 1: negative digit
            let d = ((v + 1) >> 1).wrapping_sub(top & 0u64.wrapping_sub(s));
            // |d| in constant time: d is in (-2^(W-1) - 1, 2^(W-1)].
            let m = 0u64.wrapping_sub(s);
            let mag = (d ^ m).wrapping_add(s);
            *o = (mag as u8, s as u8);
        }
        out
    }

    /// The width-`W` non-adjacent form, least significant first: every nonzero digit odd,
    /// `|d| < 2^(W-1)`, at most one nonzero in any `W` consecutive positions. Variable time:
    /// only for public scalars (verification).
    pub(crate) fn wnaf_vartime<const W: usize>(&self) -> [i8; 257] {
        let mut out = [0i8; 257];
        // A 5-word copy, shifted right as digits are taken.
        let mut k = [self.0[0], self.0[1], self.0[2], self.0[3], 0u64];
        let mut i = 0;
        while k.iter().any(|&w| w != 0) {
            if k[0] & 1 == 1 {
                let mut d = (k[0] & ((1 << W) - 1)) as i64;
                if d >= 1 << (W - 1) {
                    d -= 1 << W;
                }
                out[i] = d as i8;
                // k -= d
                if d > 0 {
                    let (r, mut b) = k[0].overflowing_sub(d as u64);
                    k[0] = r;
                    for w in k.iter_mut().skip(1) {
                        let (r, bb) = w.overflowing_sub(b as u64);
                        *w = r;
                        b = bb;
                    }
                } else {
                    let (r, mut c) = k[0].overflowing_add((-d) as u64);
                    k[0] = r;
                    for w in k.iter_mut().skip(1) {
                        let (r, cc) = w.overflowing_add(c as u64);
                        *w = r;
                        c = cc;
                    }
                }
            }
            // k >>= 1
            for j in 0..4 {
                k[j] = (k[j] >> 1) | (k[j + 1] << 63);
            }
            k[4] >>= 1;
            i += 1;
        }
        out
    }
}
