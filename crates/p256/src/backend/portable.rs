//! The portable backend: the `const fn` Montgomery arithmetic of [`crate::fe`] (`u128`
//! products, masked final subtractions) as a [`Field`], implemented on
//! [`tessera_cpu::Portable`], the token every CPU has.
#![forbid(unsafe_code)]

use tessera_cpu::Portable;

use crate::fe::{self, P};
use crate::field::{Fe, Field};

impl Field for Portable {
    #[inline(always)]
    fn mul(self, a: &Fe, b: &Fe) -> Fe {
        fe::mont_mul(a, b, &P)
    }
    #[inline(always)]
    fn sqr(self, a: &Fe) -> Fe {
        fe::mont_sqr(a, &P)
    }
    #[inline(always)]
    fn add(self, a: &Fe, b: &Fe) -> Fe {
        fe::add(a, b, &P.m)
    }
    #[inline(always)]
    fn sub(self, a: &Fe, b: &Fe) -> Fe {
        fe::sub(a, b, &P.m)
    }
}
