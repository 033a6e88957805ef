//! The parameter-set trait of the generic algorithms and the parsed key states.
#![forbid(unsafe_code)]

use zeroize::Zeroize;

use crate::poly::Poly;
use crate::unit::Unit;

/// The FIPS 204 parameters of one set (Table 1) and the operations whose widths depend on
/// them (implemented once, over const arguments, by `crate::params::Table`).
pub(crate) trait Params {
    const K: usize;
    const L: usize;
    const ETA: i32;
    const TAU: usize;
    /// `lambda / 4`: bytes of c-tilde.
    const CT_LEN: usize;
    const GAMMA1: i32;
    const GAMMA2: i32;
    const OMEGA: usize;
    const BETA: i32;
    /// Bits of a packed s1/s2 coefficient (`bitlen(2 eta)`).
    const ETA_BITS: usize;
    /// Bits of a packed z coefficient (`1 + bitlen(gamma1 - 1)`).
    const Z_BITS: usize;
    /// Bits of a packed w1 coefficient (`bitlen((q-1)/(2 gamma2) - 1)`).
    const W1_BITS: usize;

    /// Decompose (Algorithm 36) with this set's gamma2.
    fn decompose<U: Unit>(x: U) -> (U, U);
    /// UseHint (Algorithm 40) with this set's gamma2.
    fn use_hint<U: Unit>(x: U, h: U) -> U;
    /// The rejection step of RejBoundedPoly with this set's eta.
    fn rej_eta<U: Unit>(t: U::Token, bytes: &[u8], out: &mut Poly, n: &mut usize);
    /// BitPack(s, eta, eta) into `32 * ETA_BITS` bytes. In: `[-eta, eta]`.
    fn pack_eta<U: Unit>(t: U::Token, p: &Poly, out: &mut [u8]);
    /// BitUnpack(bytes, eta, eta). Out: `[eta - 2^ETA_BITS + 1, eta]` (range checked apart).
    fn unpack_eta<U: Unit>(t: U::Token, bytes: &[u8], p: &mut Poly);
    /// BitPack(z, gamma1 - 1, gamma1) into `32 * Z_BITS` bytes. In: `(-gamma1, gamma1]`.
    fn pack_z<U: Unit>(t: U::Token, p: &Poly, out: &mut [u8]);
    /// BitUnpack(bytes, gamma1 - 1, gamma1). Out: `(-gamma1, gamma1]`.
    fn unpack_z<U: Unit>(t: U::Token, bytes: &[u8], p: &mut Poly);
    /// SimpleBitPack(w1, (q-1)/(2 gamma2) - 1) into `32 * W1_BITS` bytes.
    fn pack_w1<U: Unit>(t: U::Token, p: &Poly, out: &mut [u8]);
}

/// What a verifying key keeps for repeated use: A-hat (NTT domain, `a_hat[i][j]` as in FIPS
/// 204), NTT(t1 * 2^d) and tr = H(pk).
#[derive(Clone)]
pub(crate) struct VkState<const K: usize, const L: usize> {
    pub(crate) a_hat: [[Poly; L]; K],
    pub(crate) t1_hat: [Poly; K],
    pub(crate) tr: [u8; 64],
}

impl<const K: usize, const L: usize> VkState<K, L> {
    pub(crate) const ZERO: Self = VkState {
        a_hat: [[[0; 256]; L]; K],
        t1_hat: [[0; 256]; K],
        tr: [0; 64],
    };
}

/// The most `s2` polynomials without an `s1` partner (`K - L`) of any parameter set.
pub(crate) const S2_TAIL: usize = 1;

/// What a signing key keeps: NTT forms of s1 and s2 (packed, see [`derive_keys`](super::keygen::derive_keys)) and t0, and
/// K. Wiped on drop; not `Clone` (no copy of the secret to wipe apart).
pub(crate) struct SkState<const K: usize, const L: usize> {
    /// `NTT(s1[r] + 2^S s2[r])` for `r < L` (`S` = [`pack_shift`]): one inverse NTT of its
    /// product with c gives both `c s1[r]` and `c s2[r]`.
    pub(crate) s12_hat: [Poly; L],
    /// `NTT(s2[L + i])` for `L + i < K`: the `s2` polynomials without an `s1` partner (one
    /// for ML-DSA-65 and -87, none for ML-DSA-44, whose entry stays zero; stable Rust cannot
    /// size an array `K - L`).
    pub(crate) s2_tail: [Poly; S2_TAIL],
    pub(crate) t0_hat: [Poly; K],
    pub(crate) key: [u8; 32],
}

impl<const K: usize, const L: usize> SkState<K, L> {
    pub(crate) const ZERO: Self = SkState {
        s12_hat: [[0; 256]; L],
        s2_tail: [[0; 256]; S2_TAIL],
        t0_hat: [[0; 256]; K],
        key: [0; 32],
    };
}

impl<const K: usize, const L: usize> Drop for SkState<K, L> {
    fn drop(&mut self) {
        self.s12_hat.zeroize();
        self.s2_tail.zeroize();
        self.t0_hat.zeroize();
        self.key.zeroize();
    }
}

/// The shift `S` that packs `c s2` above `c s1` (FIPS 204 Algorithm 7 lines 17-18 and 21):
/// every coefficient of `c s` is a sum of `tau` terms `+-s_j` with `|s_j| <= eta`, so
/// `|c s| <= tau eta`: 39 * 2 = 78 (ML-DSA-44), 49 * 4 = 196 (65), 60 * 2 = 120 (87), below
/// `2^(S-1)` with S = 8 for eta 2 and 9 for eta 4. The packed product `c s1 + 2^S c s2` is
/// then below `tau eta (2^S + 1) < 2^(2S) <= 2^18 < (q-1)/2` in absolute value: its centered
/// representative mod q is the integer itself, and [`Unit::split_low`] recovers both parts.
#[inline(always)]
pub(crate) const fn pack_shift<P: Params>() -> u32 {
    if P::ETA == 2 { 8 } else { 9 }
}
