//! The vector trait: a unit of 8 coefficients of a polynomial in `Z_q[X]/(X^256 + 1)`
//! (`q = 8380417`, 32-bit lanes: one ymm register in an AVX2 backend), with the operations
//! ML-DSA needs, implemented once per backend (ARCHITECTURE section 2). Polynomials, vectors,
//! and the FIPS 204 algorithms (`crate::poly`, `crate::dsa`) are generic over it.
//!
//! Each operation states the bound it expects on its inputs and the bound it guarantees on its
//! outputs. The portable implementation checks input bounds with `debug_assert!`; the
//! equivalence tests drive every operation of every backend to the edges of these bounds.
//! Unit `u` of a polynomial holds coefficients `8u..8u + 8` in natural order.
#![forbid(unsafe_code)]

/// The modulus q of FIPS 204.
pub(crate) const Q: i32 = 8_380_417;

/// Coefficients per unit.
pub(crate) const N: usize = 8;

/// gamma2 of FIPS 204 Table 1 for `G2` in {88, 32} (no division).
#[inline(always)]
pub(crate) const fn gamma2<const G2: i32>() -> i32 {
    match G2 {
        88 => 95_232,
        32 => 261_888,
        _ => panic!("gamma2 is (q-1)/88 or (q-1)/32"),
    }
}

/// Unit `u` of a polynomial (coefficients `8u..8u + 8`).
#[inline(always)]
fn chunk(p: &[i32; 256], u: usize) -> &[i32; N] {
    p[N * u..N * u + N].try_into().unwrap_or(&[0; N])
}

/// Unit `u` of `p`.
#[inline(always)]
pub(crate) fn ld<U: Unit>(t: U::Token, p: &[i32; 256], u: usize) -> U {
    U::load(t, chunk(p, u))
}

/// A unit of 8 coefficients. All methods are `#[inline(always)]` in the implementations so
/// that they compile into the calling target-feature island.
pub(crate) trait Unit: Copy {
    /// What proves the CPU can run this backend (the capability token; `()` for portable).
    type Token: Copy;
    /// Whether this backend's samplers may run on four-way Keccak (`Hashes::x4`). False for
    /// portable, which hashes one SHAKE at a time: its instantiations then do not compile the
    /// four-way code at all (the dead four-way paths changed the inlining and layout of the
    /// portable signing loop, 255 -> 300 us for ML-DSA-65).
    const FOUR_WAY: bool = true;

    /// The Keccak backends this backend hashes with (portable: portable Keccak only), decided
    /// once per operation, never per block.
    fn hashes(t: Self::Token) -> crate::hash::Hashes;

    /// Loads 8 coefficients (any `i32`).
    fn load(t: Self::Token, a: &[i32; N]) -> Self;
    /// Stores 8 coefficients.
    fn store(self, a: &mut [i32; N]);

    /// Lane-wise `a + b`. Bound: the caller keeps `|a + b| < 2^31`.
    fn add(self, b: Self) -> Self;
    /// Lane-wise `a - b`. Bound: the caller keeps `|a - b| < 2^31`.
    fn sub(self, b: Self) -> Self;
    /// Lane-wise `c - a` (the offset of FIPS 204 BitPack, Algorithm 17). In: `|c - a| < 2^31`.
    fn rsub_const(self, c: i32) -> Self;
    /// Lane-wise `a << s`, that is `a * 2^s` (t1 * 2^d, s2 * 2^s). In: `|a| < 2^(31 - s)`.
    fn shl(self, s: u32) -> Self;
    /// Splits `a = lo + 2^s hi`: `lo` the low `s` bits sign-extended (`[-2^(s-1), 2^(s-1))`),
    /// `hi = (a - lo) / 2^s` (exact). Unpacks two small products computed in one inverse NTT
    /// (`crate::dsa::sign`). In: `|a| < 2^30`, `1 <= s <= 16`.
    fn split_low(self, s: u32) -> (Self, Self);

    /// Montgomery product `a * b * 2^-32 mod q`. In: `|a * b| < q * 2^31`. Out: `|r| < q`.
    fn mont_mul(self, b: Self) -> Self;
    /// Montgomery product with a constant. Bounds as [`Unit::mont_mul`].
    fn mont_mul_const(self, c: i32) -> Self;
    /// `a mod q` without division: `a - round(a / 2^23) q`. In: `a <= 2^31 - 2^22 - 1`.
    /// Out: `-6283009 <= r <= 6283008` (so `|r| < q`).
    fn reduce32(self) -> Self;
    /// From `(-q, q)` to the canonical `[0, q)` (adds q to negative lanes, without a branch).
    fn caddq(self) -> Self;
    /// From `(-q, q)` to the centered representative in `[-(q-1)/2, (q-1)/2]`.
    fn centered(self) -> Self;

    /// Cooley-Tukey butterfly between two units (NTT layers with distance >= 8, FIPS 204
    /// Algorithm 41 inner loop): `t = zeta * b`, `(a, b) = (a + t, a - t)`, `zeta` in
    /// Montgomery form (`|zeta| <= (q-1)/2`). In: `|a|, |b| < 8q` (the NTT's inputs are `< q`
    /// and each layer adds `< q`). Out: `|a|, |b|` grow by `< q`.
    fn ntt_butterfly(a: &mut Self, b: &mut Self, zeta: i32);
    /// NTT layer of distance 4 inside the unit (one zeta). Bounds as [`Unit::ntt_butterfly`].
    fn ntt_layer_4(self, zeta: i32) -> Self;
    /// NTT layer of distance 2 inside the unit (zetas of its two blocks).
    fn ntt_layer_2(self, zetas: [i32; 2]) -> Self;
    /// NTT layer of distance 1 inside the unit (zetas of its four blocks).
    fn ntt_layer_1(self, zetas: [i32; 4]) -> Self;

    /// Gentleman-Sande butterfly between two units (FIPS 204 Algorithm 42 inner loop):
    /// `(a, b) = (a + b, zeta * (a - b))`, with `zeta` the negated twiddle in Montgomery form.
    /// In: `|a|, |b| <= 128 (q - 1)` (sums of the earlier layers). Out: `|a|` doubles at most,
    /// `|b| < q`.
    fn invntt_butterfly(a: &mut Self, b: &mut Self, zeta: i32);
    /// Inverse NTT layer of distance 1 inside the unit. Bounds as [`Unit::invntt_butterfly`].
    fn invntt_layer_1(self, zetas: [i32; 4]) -> Self;
    /// Inverse NTT layer of distance 2 inside the unit.
    fn invntt_layer_2(self, zetas: [i32; 2]) -> Self;
    /// Inverse NTT layer of distance 4 inside the unit.
    fn invntt_layer_4(self, zeta: i32) -> Self;

    /// FIPS 204 Power2Round (Algorithm 35), d = 13. In: canonical `[0, q)`.
    /// Out: `(r1, r0)` with `r1` in `[0, 2^10)` and `r0` in `(-2^12, 2^12]`.
    fn power2round(self) -> (Self, Self);
    /// FIPS 204 Decompose (Algorithm 36) for `gamma2 = (q-1)/88` (`G2 = 88`) or `(q-1)/32`
    /// (`G2 = 32`), with multiply-shift in place of the division. In: canonical `[0, q)`.
    /// Out: `(r1, r0)`, `r1` in `[0, (q-1)/(2 gamma2))`, `r0` in `(-gamma2, gamma2]`
    /// (`[-gamma2, 0]` in the wrap-around case).
    fn decompose<const G2: i32>(self) -> (Self, Self);
    /// FIPS 204 UseHint (Algorithm 40). In: `self` canonical `[0, q)`, `h` in `{0, 1}`.
    /// Out: `[0, (q-1)/(2 gamma2))`.
    fn use_hint<const G2: i32>(self, h: Self) -> Self;
    /// 1 in every lane where `a != b`, else 0 (MakeHint, Algorithm 39, compares two HighBits).
    fn ne_mask01(self, b: Self) -> Self;
    /// Whether some lane has `|a| >= bound` (FIPS 204 infinity-norm check), computed on every
    /// lane without a branch. In: `|a| < 2^31 - 1`, `0 < bound`.
    fn exceeds(self, bound: i32) -> bool;
    /// Sum of the lanes (counts hint bits). In: lanes in `[0, 2^24)`.
    fn sum(self) -> i32;

    /// FIPS 204 SimpleBitPack (Algorithm 16) of the 8 coefficients into `BITS` bytes.
    /// In: `[0, 2^BITS)`, `BITS <= 24`.
    fn encode<const BITS: u32>(self, out: &mut [u8]);
    /// FIPS 204 SimpleBitUnpack (Algorithm 18) of `BITS` bytes. Out: `[0, 2^BITS)`.
    fn decode<const BITS: u32>(t: Self::Token, bytes: &[u8]) -> Self;

    /// The rejection step of RejNTTPoly (FIPS 204 Algorithm 30 with CoeffFromThreeBytes,
    /// Algorithm 14): parses `bytes` (a multiple of 3 bytes of SHAKE128 output) and appends
    /// candidates `< q` to `out[*n..]` until it is full. Public data only (the matrix is
    /// public): may branch on the candidates. Out: `[0, q)`.
    fn rej_uniform(t: Self::Token, bytes: &[u8], out: &mut [i32; 256], n: &mut usize);
    /// The rejection step of RejBoundedPoly (Algorithm 31 with CoeffFromHalfByte, Algorithm
    /// 15), `ETA` in {2, 4}: appends the accepted half-bytes of `bytes` to `out[*n..]`. Which
    /// half-bytes are rejected (`>= 15` or `>= 9`) is independent of the accepted values; the
    /// values themselves (`b mod 5` for eta 2) are computed without division or branch.
    /// Coefficients of `out` past the final `*n` may be overwritten with zeros.
    /// Out: `[-ETA, ETA]`.
    fn rej_eta<const ETA: i32>(t: Self::Token, bytes: &[u8], out: &mut [i32; 256], n: &mut usize);

    /// Unit `u` of `reduce(sum_j a[j] * b[j] * 2^-32)`: one row of a matrix-vector product in
    /// the NTT domain (A-hat times a vector). In: `0 <= a < q`, `|b| < 9q`, at most 8 terms.
    /// Out: `|r| < q`, some representative (the default: a Montgomery product per term,
    /// summed, then reduce32; a backend may reduce the exact sum once instead).
    #[inline(always)]
    fn dot_unit(t: Self::Token, a: &[[i32; 256]], b: &[[i32; 256]], u: usize) -> Self {
        let mut acc = ld::<Self>(t, &a[0], u).mont_mul(ld(t, &b[0], u));
        for j in 1..a.len() {
            acc = acc.add(ld::<Self>(t, &a[j], u).mont_mul(ld(t, &b[j], u)));
        }
        acc.reduce32()
    }

    /// Wipes secret intermediates (coefficients) with volatile stores the compiler cannot
    /// elide (`zeroize`, in wide stores where the backend overrides this).
    #[inline(always)]
    fn wipe_coeffs(t: Self::Token, p: &mut [i32]) {
        let _ = t;
        zeroize::Zeroize::zeroize(p);
    }
    /// Wipes secret bytes likewise.
    #[inline(always)]
    fn wipe_bytes(t: Self::Token, b: &mut [u8]) {
        let _ = t;
        zeroize::Zeroize::zeroize(b);
    }

    /// The whole NTT of a polynomial ([`crate::poly::ntt`] on this unit type), compiled once
    /// per backend rather than inlined at every call site.
    fn ntt_poly(t: Self::Token, p: &mut [i32; 256]);
    /// The whole inverse NTT ([`crate::poly::invntt`] on this unit type), compiled once.
    fn invntt_poly(t: Self::Token, p: &mut [i32; 256]);
}
