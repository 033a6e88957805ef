//! Backend selection: the table of backends, decided once per key object (a
//! `StaticSecret`/`EphemeralSecret` keeps the backend it was created with) or per call of the
//! free functions, and the dispatch of the two operations to each backend's island.
//!
//! Unsafe code here is the `unsafe` call inside each `tessera_cpu::island!` (justified by the
//! token) and the MULX/ADCX/ADOX assembly of `x86_bmi2_adx`.
#![allow(unsafe_code)]

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
// The x86 backend uses part of it (the rest is the aarch64 field and the tests' reference).
#[cfg_attr(not(any(target_arch = "aarch64", test)), allow(dead_code))]
pub(crate) mod fe64;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_avx512_ifma;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_bmi2_adx;

use portable::Portable;

tessera_cpu::backends! {
    /// The X25519 backends, best first. Public only for tests and benches (`#[doc(hidden)]`,
    /// not a stable API).
    pub enum Backend {
        /// Radix 2^51 with `u128` products (any target; Miri; forced builds).
        Portable = "portable",
        /// x86_64 AVX-512 IFMA: the ladder's multiplications four at a time (one field element
        /// per lane, radix 2^51, 52-bit multiply-adds), and the fixed-base path's mixed
        /// additions and doublings likewise.
        #[cfg(target_arch = "x86_64")]
        X86Avx512Ifma(X86Avx512Ifma) = "x86_avx512_ifma",
        /// x86_64 BMI2 + ADX: four 64-bit limbs, MULX/ADCX/ADOX multiplication and squaring.
        #[cfg(target_arch = "x86_64")]
        X86Bmi2Adx(X86Bmi2Adx) = "x86_bmi2_adx",
        /// aarch64: four 64-bit limbs with MUL/UMULH.
        #[cfg(target_arch = "aarch64")]
        Aarch64(Aarch64Neon) = "aarch64",
    }
}

impl Backend {
    /// `X25519(k, u)` (RFC 7748 section 5) on this backend.
    #[inline]
    pub(crate) fn x25519(self, k: &[u8; 32], u: &[u8; 32]) -> [u8; 32] {
        match self {
            Backend::Portable => portable_x25519(k, u),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Bmi2Adx(t) => x86_bmi2_adx::x25519(t, k, u),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx512Ifma(t) => x86_avx512_ifma::x25519(t, k, u),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64(t) => aarch64::x25519(t, k, u),
        }
    }

    /// `X25519(k, 9)` through the fixed-base table on this backend.
    #[inline]
    pub(crate) fn x25519_base(self, k: &[u8; 32]) -> [u8; 32] {
        match self {
            Backend::Portable => portable_x25519_base(k),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Bmi2Adx(t) => x86_bmi2_adx::x25519_base(t, k),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx512Ifma(t) => x86_avx512_ifma::x25519_base(t, k),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64(t) => aarch64::x25519_base(t, k),
        }
    }

    /// One field operation (test hook).
    #[cfg(tessera_test_hooks)]
    pub(crate) fn field_op(self, op: u8, a: &[u64; 4], b: &[u64; 4]) -> [u8; 32] {
        match self {
            Backend::Portable => field_op_generic(Portable, op, a, b),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Bmi2Adx(t) => x86_bmi2_adx::field_op(t, op, a, b),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx512Ifma(t) => x86_avx512_ifma::field_op(t, op, a, b),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64(t) => aarch64::field_op(t, op, a, b),
        }
    }
}

#[inline(never)]
fn portable_x25519(k: &[u8; 32], u: &[u8; 32]) -> [u8; 32] {
    crate::ladder::x25519(Portable, k, u)
}

#[inline(never)]
fn portable_x25519_base(k: &[u8; 32]) -> [u8; 32] {
    crate::base::x25519_base(Portable, k)
}

/// The operations of `crate::test_hooks::FieldOp`, by number, on inputs given as integers
/// below 2^256; the result is the canonical encoding.
#[cfg(tessera_test_hooks)]
#[inline(always)]
pub(crate) fn field_op_generic<F: crate::field::Field>(
    f: F,
    op: u8,
    a: &[u64; 4],
    b: &[u64; 4],
) -> [u8; 32] {
    use crate::test_hooks::FieldOp;
    let (x, y) = (f.load_words(a), f.load_words(b));
    let mut r = f.zero();
    match op {
        o if o == FieldOp::Add as u8 => f.add(&mut r, &x, &y),
        o if o == FieldOp::Sub as u8 => f.sub(&mut r, &x, &y),
        o if o == FieldOp::Mul as u8 => f.mul(&mut r, &x, &y),
        o if o == FieldOp::Sqr as u8 => f.sqr(&mut r, &x),
        o if o == FieldOp::MulA24 as u8 => f.mul_a24(&mut r, &x),
        o if o == FieldOp::Neg as u8 => f.neg(&mut r, &x),
        o if o == FieldOp::Invert as u8 => r = crate::field::invert(f, &x),
        o if o == FieldOp::Reduce as u8 => r = x,
        // The shapes the ladder feeds to mul and sqr: sums of two outputs and of an output
        // and a sum (the portable backend's loosest inputs), and the in-place forms.
        o if o == FieldOp::MulOfSums as u8 => {
            let (mut p, mut q, mut s, mut t) = (x, x, x, x);
            f.mul(&mut p, &x, &y);
            f.sqr(&mut q, &y);
            f.add(&mut s, &p, &q);
            f.mul_a24(&mut p, &x);
            f.add(&mut t, &s, &p);
            f.sqr_assign(&mut t);
            f.mul(&mut r, &s, &t);
            f.mul_assign(&mut r, &y);
        }
        _ => {
            let mut p = x;
            let mut q = y;
            f.cswap(&mut p, &mut q, subtle::Choice::from(1));
            f.sub(&mut r, &p, &q);
        }
    }
    f.encode(&r)
}
