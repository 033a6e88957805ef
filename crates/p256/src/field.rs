//! The field GF(p) as each backend provides it ([`Field`]), with the generic algorithms on
//! top of its operations: inversion by the constant-time divsteps of [`crate::inverse`] on the
//! Montgomery limbs (then one product by `R^3`), and the square root by a fixed addition chain
//! (Fermat; the exponent is a public constant, so the sequence of operations is the same for
//! every input; the tests keep the Fermat inversion as the divsteps' reference).
//!
//! Every backend keeps the same representation: four little-endian 64-bit limbs in Montgomery
//! form (`a R mod p`, `R = 2^256`), fully reduced (`< p`) after every operation. A backend is
//! implemented on a zero-sized capability token, so the methods of one whose instructions need
//! a CPU feature can only be called with the proof in hand. Every method is `#[inline(always)]`:
//! the point arithmetic is compiled into each backend's target-feature island.
#![forbid(unsafe_code)]

use subtle::{Choice, ConditionallySelectable};
use zeroize::Zeroize;

use crate::fe::{self, Limbs};
use crate::inverse;

/// A field element: four limbs, Montgomery form, below `p`.
pub(crate) type Fe = Limbs;

/// `1` in Montgomery form (`R mod p = 2^256 - p`).
pub(crate) const ONE: Fe = fe::to_mont(&[1, 0, 0, 0], &fe::P);

/// The curve coefficient `b` (SEC 2 section 2.4.2) in Montgomery form.
pub(crate) const B: Fe = fe::to_mont(
    &fe::from_be_bytes(&[
        0x5a, 0xc6, 0x35, 0xd8, 0xaa, 0x3a, 0x93, 0xe7, 0xb3, 0xeb, 0xbd, 0x55, 0x76, 0x98, 0x86,
        0xbc, 0x65, 0x1d, 0x06, 0xb0, 0xcc, 0x53, 0xb0, 0xf6, 0x3b, 0xce, 0x3c, 0x3e, 0x27, 0xd2,
        0x60, 0x4b,
    ]),
    &fe::P,
);

// R^2 mod p and R^2 mod n as the modulus constants state them: R mod m = 2^256 - m
// (m > 2^255), doubled 256 more times.
const _: () = {
    let mut k = 0;
    while k < 2 {
        let md = if k == 0 { fe::P } else { fe::N };
        let (a0, b) = fe::sbb(0, md.m[0], 0);
        let (a1, b) = fe::sbb(0, md.m[1], b);
        let (a2, b) = fe::sbb(0, md.m[2], b);
        let (a3, _) = fe::sbb(0, md.m[3], b);
        let mut r = [a0, a1, a2, a3];
        let mut i = 0;
        while i < 256 {
            r = fe::add(&r, &r, &md.m);
            i += 1;
        }
        assert!(r[0] == md.r2[0] && r[1] == md.r2[1] && r[2] == md.r2[2] && r[3] == md.r2[3]);
        // m * m' = -1 mod 2^64.
        assert!(md.m[0].wrapping_mul(md.m0) == u64::MAX);
        k += 1;
    }
};

/// GF(p) in one backend's implementation. Inputs below `p`, outputs below `p`, all in
/// Montgomery form.
pub(crate) trait Field: Copy {
    /// `a b`.
    fn mul(self, a: &Fe, b: &Fe) -> Fe;
    /// `a^2`.
    fn sqr(self, a: &Fe) -> Fe;
    /// `a + b`.
    fn add(self, a: &Fe, b: &Fe) -> Fe;
    /// `a - b`.
    fn sub(self, a: &Fe, b: &Fe) -> Fe;

    /// `-a`.
    #[inline(always)]
    fn neg(self, a: &Fe) -> Fe {
        self.sub(&[0; 4], a)
    }
    /// `a^(2^k)` (`k >= 1`).
    #[inline(always)]
    fn sqr_n(self, a: &Fe, k: usize) -> Fe {
        let mut r = self.sqr(a);
        for _ in 1..k {
            r = self.sqr(&r);
        }
        r
    }
    /// `a / 2`: `a` when it is even, else `a + p` (257 bits), shifted right by one, in
    /// constant time (the parity is spread into a mask that selects `p`).
    #[inline(always)]
    fn half(self, a: &Fe) -> Fe {
        // Through `black_box`, so the compiler cannot turn the mask back into a select on the
        // parity.
        let m = core::hint::black_box((a[0] & 1).wrapping_neg());
        let (s0, c) = fe::adc(a[0], fe::P.m[0] & m, 0);
        let (s1, c) = fe::adc(a[1], fe::P.m[1] & m, c);
        let (s2, c) = fe::adc(a[2], fe::P.m[2] & m, c);
        let (s3, c) = fe::adc(a[3], fe::P.m[3] & m, c);
        [
            (s0 >> 1) | (s1 << 63),
            (s1 >> 1) | (s2 << 63),
            (s2 >> 1) | (s3 << 63),
            (s3 >> 1) | (c << 63),
        ]
    }
    /// `a = b` when `c` is set, in constant time.
    #[inline(always)]
    fn cmov(self, a: &mut Fe, b: &Fe, c: Choice) {
        for (x, y) in a.iter_mut().zip(b) {
            x.conditional_assign(y, c);
        }
    }
}

/// `a^(2^k - 1)` chain pieces: `a^(2^30 - 1)` and `a^(2^32 - 1)`.
#[inline(always)]
fn pow_x30_x32<F: Field>(f: F, a: &Fe) -> (Fe, Fe, Fe) {
    let x2 = f.mul(&f.sqr(a), a);
    let x3 = f.mul(&f.sqr(&x2), a);
    let x6 = f.mul(&f.sqr_n(&x3, 3), &x3);
    let x12 = f.mul(&f.sqr_n(&x6, 6), &x6);
    let x15 = f.mul(&f.sqr_n(&x12, 3), &x3);
    let x30 = f.mul(&f.sqr_n(&x15, 15), &x15);
    let x32 = f.mul(&f.sqr_n(&x30, 2), &x2);
    (x2, x30, x32)
}

/// `R^3 mod p` (`R = 2^256`): `R^2` in Montgomery form.
const R3: Fe = fe::mont_mul(&fe::P.r2, &fe::P.r2, &fe::P);

/// `a^(-1)` for `a != 0` and 0 for 0, in Montgomery form. The limbs of `a R mod p` are a
/// canonical integer, so the divsteps give `(a R)^(-1)`; one Montgomery product by `R^3`
/// turns that into `a^(-1) R`, the Montgomery form of `a^(-1)` (0 stays 0). Constant time.
#[inline(always)]
pub(crate) fn invert<F: Field>(f: F, a: &Fe) -> Fe {
    let mut t = [0u64; 4];
    inverse::invert_into(&inverse::P, a, &mut t);
    let r = f.mul(&t, &R3);
    // `(a R)^(-1)`, a secret like `a` (the caller owns and wipes the result).
    t.zeroize();
    r
}

/// `a^(p - 2)`, which is `a^(-1)` for `a != 0` and 0 for 0 (Fermat). The exponent
/// `p - 2 = 0xffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff fffffffd` (32-bit
/// words, most significant first), walked with the chain `x32 . 1 . 0^3 . x32 . x32 . x30 . 01`:
/// 255 squarings and 13 multiplications.
#[cfg(test)]
#[inline(always)]
pub(crate) fn invert_fermat<F: Field>(f: F, a: &Fe) -> Fe {
    let (_, x30, x32) = pow_x30_x32(f, a);
    let mut r = f.mul(&f.sqr_n(&x32, 32), a);
    r = f.mul(&f.sqr_n(&r, 128), &x32);
    r = f.mul(&f.sqr_n(&r, 32), &x32);
    r = f.mul(&f.sqr_n(&r, 30), &x30);
    f.mul(&f.sqr_n(&r, 2), a)
}

/// `a^((p + 1) / 4)`: a square root of `a` when `a` is a square (`p = 3 mod 4`); the caller
/// squares the result to tell. `(p + 1) / 4 = 2^254 - 2^222 + 2^190 + 2^94`, as the chain
/// `((x32 . 2^32 + 1) . 2^96 + 1) . 2^94`.
#[inline(always)]
pub(crate) fn sqrt_candidate<F: Field>(f: F, a: &Fe) -> Fe {
    let (_, _, x32) = pow_x30_x32(f, a);
    let mut r = f.mul(&f.sqr_n(&x32, 32), a);
    r = f.mul(&f.sqr_n(&r, 96), a);
    f.sqr_n(&r, 94)
}

/// The canonical integer (below `p`) of a field element.
#[inline(always)]
pub(crate) fn to_canonical<F: Field>(f: F, a: &Fe) -> Limbs {
    f.mul(a, &[1, 0, 0, 0])
}
