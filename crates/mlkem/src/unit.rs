//! The vector trait: a unit of 16 coefficients of a polynomial in `Z_q[X]/(X^256 + 1)`, with the
//! operations ML-KEM needs, implemented once per backend (ARCHITECTURE section 2). Polynomials,
//! vectors, matrices, K-PKE and ML-KEM (`crate::poly`, `crate::mlkem`) are generic over it.
//!
//! Coefficients are `i16` representatives; each operation states the bound it expects on its
//! inputs and the bound it guarantees on its outputs (`q = 3329`). The portable implementation
//! checks the input bounds with `debug_assert!`; the equivalence tests drive every operation
//! of every backend to the edges of these bounds.
//!
//! Unit `u` of a polynomial holds coefficients `16u..16u + 16` in natural order (a backend may
//! keep a permuted register layout internally, but `load`/`store` use this order).
#![forbid(unsafe_code)]

/// The modulus q of FIPS 203.
pub(crate) const Q: i16 = 3329;

/// Coefficients per unit.
pub(crate) const N: usize = 16;

/// An ML-KEM operation, run by `Backend::run` (`crate::backend`) on one backend's
/// unit type `U` inside that backend's target-feature island. Implementations are small structs
/// holding the arguments, with an `#[inline(always)]` `run` so that the generic code compiles into
/// the island.
pub(crate) trait KemOp {
    /// The operation's result.
    type Out;
    /// Runs the operation with unit type `U`.
    fn run<U: Unit>(self, t: U::Token) -> Self::Out;
}

/// A unit of 16 coefficients. All methods are `#[inline(always)]` in the implementations so
/// that they compile into the calling target-feature island.
pub(crate) trait Unit: Copy {
    /// What proves the CPU can run this backend (the capability token; `tessera_cpu::Portable` for portable).
    type Token: Copy;

    /// Loads 16 coefficients (any `i16`).
    fn load(t: Self::Token, a: &[i16; N]) -> Self;
    /// Stores 16 coefficients.
    fn store(self, a: &mut [i16; N]);

    /// Lane-wise `a + b`. Bound: the caller keeps `|a + b| < 2^15`.
    fn add(self, b: Self) -> Self;
    /// Lane-wise `a - b`. Bound: the caller keeps `|a - b| < 2^15`.
    fn sub(self, b: Self) -> Self;

    /// Barrett reduction: any `i16` in, the centered representative in
    /// `-(q-1)/2..=(q-1)/2` out.
    fn barrett_reduce(self) -> Self;
    /// Montgomery multiplication by a constant: `a * c * 2^-16 mod q`.
    /// In: `|a * c| < q * 2^15`. Out: `|r| < q`.
    fn mont_mul_const(self, c: i16) -> Self;
    /// From `(-q, q)` to the canonical `[0, q)` (adds q to negative lanes, without a branch).
    fn to_canonical(self) -> Self;
    /// Reduces a canonical-or-not value in `[0, 2^12)` to `[0, q)` (FIPS 203 ByteDecode_12
    /// takes its output mod q): subtracts q from lanes >= q, without a branch.
    fn reduce_once(self) -> Self;

    /// Cooley-Tukey butterfly between two units (NTT layers with distance >= 16, FIPS 203
    /// Algorithm 9 inner loop): `t = zeta * b`, `(a, b) = (a + t, a - t)`, with `zeta` in
    /// Montgomery form. In: `|b| < 2^15`, `|a| + q < 2^15`. Out: `|a|, |b|` grow by < q.
    fn ntt_butterfly(a: &mut Self, b: &mut Self, zeta: i16);
    /// NTT layer of distance 8 inside the unit (one zeta). Bounds as [`Unit::ntt_butterfly`].
    fn ntt_layer_8(self, zeta: i16) -> Self;
    /// NTT layer of distance 4 inside the unit (zetas of its two blocks).
    fn ntt_layer_4(self, zetas: [i16; 2]) -> Self;
    /// NTT layer of distance 2 inside the unit (zetas of its four blocks).
    fn ntt_layer_2(self, zetas: [i16; 4]) -> Self;

    /// Gentleman-Sande butterfly between two units (inverse NTT layers with distance >= 16,
    /// FIPS 203 Algorithm 10 inner loop): `(a, b) = (barrett(a + b), zeta * (b - a))`.
    /// In: `|a|, |b| < q` (`a` is Barrett-reduced each layer, `b` is a Montgomery product).
    /// Out: `|a| <= (q-1)/2`, `|b| < q`.
    fn invntt_butterfly(a: &mut Self, b: &mut Self, zeta: i16);
    /// Inverse NTT layer of distance 8 inside the unit. Bounds as [`Unit::invntt_butterfly`].
    fn invntt_layer_8(self, zeta: i16) -> Self;
    /// Inverse NTT layer of distance 4 inside the unit.
    fn invntt_layer_4(self, zetas: [i16; 2]) -> Self;
    /// Inverse NTT layer of distance 2 inside the unit.
    fn invntt_layer_2(self, zetas: [i16; 4]) -> Self;

    /// Base-case multiplication (FIPS 203 Algorithms 11 and 12) of the eight degree-1 pairs of
    /// the unit, `gamma` of pair `2g` being `zetas[g]` and of pair `2g + 1` being `-zetas[g]`
    /// (Montgomery form). Out: `a * b * 2^-16` per pair, `|r| < 2q`.
    /// In: `|a|, |b| <= q` (NTT-domain values after a Barrett reduction or canonical).
    fn basemul(self, b: Self, zetas: [i16; 4]) -> Self;

    /// FIPS 203 Compress_d (equation 4.7), `d` in {1, 4, 5, 10, 11}. In: canonical `[0, q)`.
    /// Out: `[0, 2^d)`.
    fn compress<const D: u32>(self) -> Self;
    /// FIPS 203 Decompress_d (equation 4.8). In: `[0, 2^d)`. Out: `[0, q)`.
    fn decompress<const D: u32>(self) -> Self;

    /// FIPS 203 ByteEncode_d (Algorithm 5) of the 16 coefficients into `2 * D` bytes.
    /// In: `[0, 2^d)` (canonical `[0, q)` for d = 12).
    fn encode<const D: u32>(self, out: &mut [u8]);
    /// FIPS 203 ByteDecode_d (Algorithm 6) of `2 * D` bytes, without the mod-q step of
    /// d = 12. Out: `[0, 2^d)`.
    fn decode<const D: u32>(t: Self::Token, bytes: &[u8]) -> Self;

    /// FIPS 203 SamplePolyCBD_eta (Algorithm 8) for 16 coefficients from `4 * ETA` bytes,
    /// `ETA` in {2, 3}. Out: `[-ETA, ETA]`.
    fn cbd<const ETA: usize>(t: Self::Token, bytes: &[u8]) -> Self;

    /// The rejection step of FIPS 203 SampleNTT (Algorithm 7): parses `bytes` (a multiple of 3
    /// bytes of XOF output) as 12-bit candidates and appends those `< q` to `out[*n..]` until
    /// it is full. Public data only (the matrix is public): may branch on the candidates.
    /// Out: `[0, q)`.
    fn rej_sample(t: Self::Token, bytes: &[u8], out: &mut [i16; 256], n: &mut usize);

    /// The whole NTT of a polynomial ([`crate::poly::ntt`] on this unit type), compiled once per
    /// backend rather than inlined (fully unrolled) at every call site.
    fn ntt_poly(t: Self::Token, p: &mut [i16; 256]);
    /// The whole inverse NTT ([`crate::poly::invntt`] on this unit type), compiled once.
    fn invntt_poly(t: Self::Token, p: &mut [i16; 256]);

    /// Wipes secret intermediates (`i16` coefficients) with volatile stores the compiler cannot
    /// elide (what `zeroize` does, in wide stores where the backend has them).
    fn wipe_coeffs(t: Self::Token, p: &mut [i16]);
    /// Wipes secret bytes likewise.
    fn wipe_bytes(t: Self::Token, b: &mut [u8]);

    /// Keccak-f\[1600\] on four interleaved states (`state[lane][way]`) on the Keccak
    /// backend that matches this one, compiled into the caller's island
    /// (`tessera_keccak::x4`): no second dispatch per block.
    fn f1600_x4(t: Self::Token, state: &mut [[u64; 4]; 25]);

    /// A faster four-way Keccak the samplers' XOFs ([`crate::xof4::X4`]) should run on
    /// instead of [`Unit::f1600_x4`], decided once when each XOF is created (`None`, the
    /// default: [`Unit::f1600_x4`] in the caller's island). The result is the same either way.
    #[inline(always)]
    fn x4_keccak(t: Self::Token) -> Option<tessera_keccak::X4Backend> {
        let _ = t;
        None
    }
}
