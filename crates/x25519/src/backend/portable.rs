//! The portable backend: the radix-2^51 field of [`crate::fe51`] as a [`Field`], implemented on
//! [`tessera_cpu::Portable`] (the token of the `Portable` row, which every CPU has). Bounds are
//! those of `fe51`; the generic code keeps to them.
#![forbid(unsafe_code)]

use subtle::{Choice, ConditionallySelectable};
use tessera_cpu::Portable;

use crate::fe51::{Fe, MASK, ONE, ZERO, add, from_bytes, mul, mul_a24, neg, sqr, sub, to_bytes};
use crate::field::{Field, Table};
use crate::table::TABLE51;

impl Field for Portable {
    type Fe = Fe;

    #[inline(always)]
    fn zero(self) -> Fe {
        ZERO
    }
    #[inline(always)]
    fn one(self) -> Fe {
        ONE
    }
    #[inline(always)]
    fn decode(self, b: &[u8; 32]) -> Fe {
        from_bytes(b)
    }
    #[inline(always)]
    fn encode(self, a: &Fe) -> [u8; 32] {
        to_bytes(a)
    }
    #[inline(always)]
    fn add(self, r: &mut Fe, a: &Fe, b: &Fe) {
        *r = add(a, b);
    }
    #[inline(always)]
    fn sub(self, r: &mut Fe, a: &Fe, b: &Fe) {
        *r = sub(a, b);
    }
    #[inline(always)]
    fn neg(self, r: &mut Fe, a: &Fe) {
        *r = neg(a);
    }
    #[inline(always)]
    fn mul(self, r: &mut Fe, a: &Fe, b: &Fe) {
        *r = mul(a, b);
    }
    #[inline(always)]
    fn mul_assign(self, a: &mut Fe, b: &Fe) {
        *a = mul(a, b);
    }
    #[inline(always)]
    fn sqr(self, r: &mut Fe, a: &Fe) {
        *r = sqr(a);
    }
    #[inline(always)]
    fn sqr_assign(self, a: &mut Fe) {
        *a = sqr(a);
    }
    #[inline(always)]
    fn mul_a24(self, r: &mut Fe, a: &Fe) {
        *r = mul_a24(a);
    }
    #[inline(always)]
    fn cswap(self, a: &mut Fe, b: &mut Fe, c: Choice) {
        for (x, y) in a.iter_mut().zip(b.iter_mut()) {
            u64::conditional_swap(x, y, c);
        }
    }
    #[inline(always)]
    fn cmov(self, a: &mut Fe, b: &Fe, c: Choice) {
        for (x, y) in a.iter_mut().zip(b) {
            x.conditional_assign(y, c);
        }
    }
    #[inline(always)]
    fn table(self) -> &'static Table<Fe> {
        &TABLE51
    }
    #[inline(always)]
    fn load_words(self, w: &[u64; 4]) -> Fe {
        // Bits 204..256 in limb 4: 52 bits, still tight.
        [
            w[0] & MASK,
            ((w[0] >> 51) | (w[1] << 13)) & MASK,
            ((w[1] >> 38) | (w[2] << 26)) & MASK,
            ((w[2] >> 25) | (w[3] << 39)) & MASK,
            w[3] >> 12,
        ]
    }
}
