//! Backend selection and dispatch: the table of backends (one row per backend, naming the type
//! that implements it), the [`Unit`] trait those types implement, and the operations
//! ([`P256Op`]) that the generated `Backend::run` runs on a row, compiled into that row's
//! target-feature island.
//!
//! A backend is decided once per key object (a key keeps the backend it was created with) or
//! per call of the free functions. Every row keeps the same field representation (four 64-bit
//! limbs, Montgomery form, [`crate::field`]), so points cross the dispatch boundary as
//! [`Affine`] values whatever the row.

#[cfg(target_arch = "aarch64")]
mod aarch64;
mod portable;
#[cfg(target_arch = "x86_64")]
mod x86_avx512_ifma;
#[cfg(target_arch = "x86_64")]
mod x86_bmi2_adx;

use subtle::Choice;
#[cfg(target_arch = "aarch64")]
use tessera_cpu::Aarch64Neon;
use tessera_cpu::Portable;
#[cfg(target_arch = "x86_64")]
use tessera_cpu::{X86Avx512Ifma, X86Bmi2Adx};

use crate::field::{Fe, Field};
use crate::point::{Affine, into_affine, to_affine};
use crate::scalar::Scalar;

tessera_cpu::backends! {
    /// The P-256 backends, best first. Public only for tests and benches (`#[doc(hidden)]`
    /// `crate::testing::Backend`, not a stable API).
    pub enum Backend {
        /// Four 64-bit limbs, Montgomery multiplication with `u128` products (any target;
        /// Miri; forced builds).
        Portable = "portable" => Portable,
        /// x86_64 AVX-512 IFMA (+ BMI2/ADX): eight field elements per multiplication (one per
        /// lane, radix 2^52, Montgomery `R = 2^260`) for the fixed-base path, as eight parallel
        /// chains of mixed additions; the variable-base and double-base paths are the
        /// `x86_bmi2_adx` row's.
        #[cfg(target_arch = "x86_64")]
        X86Avx512Ifma(X86Avx512Ifma) = "x86_avx512_ifma" => X86Avx512Ifma,
        /// x86_64 BMI2 + ADX: four 64-bit limbs, MULX/ADCX/ADOX Montgomery multiplication and
        /// squaring specialised to the shape of `p`, CMOV/SBB-masked addition and subtraction.
        #[cfg(target_arch = "x86_64")]
        X86Bmi2Adx(X86Bmi2Adx) = "x86_bmi2_adx" => X86Bmi2Adx,
        /// aarch64: four 64-bit limbs, MUL/UMULH products and ADDS/ADCS carry chains, CSEL
        /// corrections.
        #[cfg(target_arch = "aarch64")]
        Aarch64(Aarch64Neon) = "aarch64" => Aarch64Neon,
    }
    /// Runs an operation on this backend (in its row's island).
    pub(crate) fn run: P256Op;
}

/// What a row's implementation type provides: the field the generic point code runs on, and
/// the point operations, which are the generic algorithms unless the backend has its own.
/// Every method is `#[inline(always)]`: it compiles into the row's island.
pub(crate) trait Unit {
    /// The row's capability token.
    type Token: Copy;
    /// The field of the generic algorithms on this row.
    type F: Field;
    /// The field, from the token that proves its instructions.
    fn field(t: Self::Token) -> Self::F;

    /// `k G`, affine, and whether it is the identity (`k = 0`).
    #[inline(always)]
    fn mul_base(t: Self::Token, k: &Scalar) -> (Affine, Choice) {
        let f = Self::field(t);
        into_affine(f, crate::mul::mul_base(f, k))
    }

    /// `k p`, affine, and whether it is the identity.
    #[inline(always)]
    fn mul_var(t: Self::Token, k: &Scalar, p: &Affine) -> (Affine, Choice) {
        let f = Self::field(t);
        into_affine(f, crate::mul::mul_var(f, k, p))
    }

    /// `u1 G + u2 q` (variable time), affine, and whether it is the identity.
    #[inline(always)]
    fn mul_double_vartime(
        t: Self::Token,
        u1: &Scalar,
        u2: &Scalar,
        q: &Affine,
    ) -> (Affine, Choice) {
        let f = Self::field(t);
        to_affine(f, &crate::mul::mul_double_vartime(f, u1, u2, q))
    }

    /// ECDSA's check of `x(u1 G + u2 q) mod n = r` (variable time, public inputs), without
    /// the final inversion.
    #[inline(always)]
    fn verify_vartime(t: Self::Token, u1: &Scalar, u2: &Scalar, q: &Affine, r: &Scalar) -> bool {
        crate::mul::verify_vartime(Self::field(t), u1, u2, q, r)
    }

    /// The `y` of the point with abscissa `x` whose parity is `odd`, and whether there is one
    /// (`x^3 - 3x + b` is a square).
    #[inline(always)]
    fn decompress(t: Self::Token, x: &Fe, odd: Choice) -> (Fe, Choice) {
        crate::point::decompress(Self::field(t), x, odd)
    }
}

impl Unit for Portable {
    type Token = Portable;
    type F = Portable;
    #[inline(always)]
    fn field(t: Portable) -> Portable {
        t
    }
    // The portable arm of `run` is not an island: one out-of-line copy of each operation,
    // not one inlined into every caller of `run`.
    #[inline(never)]
    fn mul_base(t: Portable, k: &Scalar) -> (Affine, Choice) {
        into_affine(t, crate::mul::mul_base(t, k))
    }
    #[inline(never)]
    fn mul_var(t: Portable, k: &Scalar, p: &Affine) -> (Affine, Choice) {
        into_affine(t, crate::mul::mul_var(t, k, p))
    }
    #[inline(never)]
    fn mul_double_vartime(t: Portable, u1: &Scalar, u2: &Scalar, q: &Affine) -> (Affine, Choice) {
        to_affine(t, &crate::mul::mul_double_vartime(t, u1, u2, q))
    }
}

/// The lane-parallel fixed-base path; the rest (variable-base and double-base multiplications,
/// inversion, square roots) on the BMI2/ADX field, which every IFMA CPU has (the token
/// implies it) and whose Jacobian formulas beat one point packed per vector. The variable-base
/// and double-base multiplications run in the BMI2/ADX row's own island, not inlined into
/// this one: the same generic code compiled for the AVX-512 features measured about 9% slower
/// (`cargo xtask bench op=p256-ecdh`, which also times the forced `x86_bmi2_adx` row).
#[cfg(target_arch = "x86_64")]
impl Unit for X86Avx512Ifma {
    type Token = X86Avx512Ifma;
    type F = X86Bmi2Adx;
    #[inline(always)]
    fn field(t: X86Avx512Ifma) -> X86Bmi2Adx {
        t.bmi2_adx()
    }
    #[inline(always)]
    fn mul_base(t: X86Avx512Ifma, k: &Scalar) -> (Affine, Choice) {
        x86_avx512_ifma::mul_base(t, k)
    }
    #[inline(always)]
    fn mul_var(t: X86Avx512Ifma, k: &Scalar, p: &Affine) -> (Affine, Choice) {
        Backend::X86Bmi2Adx(t.bmi2_adx()).run(MulVar(k, p))
    }
    #[inline(always)]
    fn mul_double_vartime(
        t: X86Avx512Ifma,
        u1: &Scalar,
        u2: &Scalar,
        q: &Affine,
    ) -> (Affine, Choice) {
        Backend::X86Bmi2Adx(t.bmi2_adx()).run(MulDoubleVartime(u1, u2, q))
    }
    #[inline(always)]
    fn verify_vartime(t: X86Avx512Ifma, u1: &Scalar, u2: &Scalar, q: &Affine, r: &Scalar) -> bool {
        Backend::X86Bmi2Adx(t.bmi2_adx()).run(VerifyVartime { u1, u2, q, r })
    }
}

#[cfg(target_arch = "x86_64")]
impl Unit for X86Bmi2Adx {
    type Token = X86Bmi2Adx;
    type F = X86Bmi2Adx;
    #[inline(always)]
    fn field(t: X86Bmi2Adx) -> X86Bmi2Adx {
        t
    }
}

#[cfg(target_arch = "aarch64")]
impl Unit for Aarch64Neon {
    type Token = Aarch64Neon;
    type F = Aarch64Neon;
    #[inline(always)]
    fn field(t: Aarch64Neon) -> Aarch64Neon {
        t
    }
}

/// The crate's operation: arguments held by a struct, run on a row's implementation type.
pub(crate) trait P256Op {
    /// The result.
    type Out;
    /// Runs on `U` (compiled into the row's island).
    fn run<U: Unit>(self, t: U::Token) -> Self::Out;
}

/// `k G`.
pub(crate) struct MulBase<'a>(pub(crate) &'a Scalar);

impl P256Op for MulBase<'_> {
    type Out = (Affine, Choice);
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> Self::Out {
        U::mul_base(t, self.0)
    }
}

/// `k p`.
pub(crate) struct MulVar<'a>(pub(crate) &'a Scalar, pub(crate) &'a Affine);

impl P256Op for MulVar<'_> {
    type Out = (Affine, Choice);
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> Self::Out {
        U::mul_var(t, self.0, self.1)
    }
}

/// `u1 G + u2 q` (variable time).
pub(crate) struct MulDoubleVartime<'a>(
    pub(crate) &'a Scalar,
    pub(crate) &'a Scalar,
    pub(crate) &'a Affine,
);

impl P256Op for MulDoubleVartime<'_> {
    type Out = (Affine, Choice);
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> Self::Out {
        U::mul_double_vartime(t, self.0, self.1, self.2)
    }
}

/// ECDSA's final check (variable time).
pub(crate) struct VerifyVartime<'a> {
    pub(crate) u1: &'a Scalar,
    pub(crate) u2: &'a Scalar,
    pub(crate) q: &'a Affine,
    pub(crate) r: &'a Scalar,
}

impl P256Op for VerifyVartime<'_> {
    type Out = bool;
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> bool {
        U::verify_vartime(t, self.u1, self.u2, self.q, self.r)
    }
}

/// Point decompression's square root.
pub(crate) struct Decompress<'a>(pub(crate) &'a Fe, pub(crate) Choice);

impl P256Op for Decompress<'_> {
    type Out = (Fe, Choice);
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> Self::Out {
        U::decompress(t, self.0, self.1)
    }
}
