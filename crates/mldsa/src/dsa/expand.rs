//! ExpandA, ExpandS and ExpandMask (FIPS 204 Algorithms 32-34), one-way and four-way.
#![forbid(unsafe_code)]

use tessera_keccak::{Shake128, Shake256, X1Backend, X4Backend};
use zeroize::Zeroize;

use super::params::*;
use super::sample::*;
use crate::hash::{Hashes, h};
use crate::poly::Poly;
use crate::unit::Unit;
use crate::xof4::X4;

/// RejNTTPoly (Algorithm 30) of `SHAKE128(rho || IntegerToBytes(key, 2))` on one-way SHAKE.
/// Out: `[0, q)`.
#[inline(always)]
pub(crate) fn rej_ntt_poly<U: Unit>(
    t: U::Token,
    x1: X1Backend,
    rho: &[u8; 32],
    key: u16,
    a: &mut Poly,
) {
    let mut xof = Shake128::new_with_backend(x1)
        .update(rho)
        .update(&key.to_le_bytes())
        .finalize_xof();
    // Five blocks (280 candidates) almost always suffice; more come one at a time.
    let mut buf = [0u8; 5 * RATE128];
    xof.read(&mut buf);
    let mut n = 0;
    U::rej_uniform(t, &buf, a, &mut n);
    while n < 256 {
        xof.read(&mut buf[..RATE128]);
        U::rej_uniform(t, &buf[..RATE128], a, &mut n);
    }
}

/// ExpandA (Algorithm 32): `a_hat[r][s] = RejNTTPoly(rho || s || r)`, four entries at a time
/// when `hs.x4` is set and the backend samples four-way ([`Unit::FOUR_WAY`]). The XOF output
/// is public (rejections may branch). Out: `[0, q)`.
#[inline(always)]
pub(crate) fn expand_a<U: Unit, const K: usize, const L: usize>(
    t: U::Token,
    hs: Hashes,
    rho: &[u8; 32],
    a_hat: &mut [[Poly; L]; K],
) {
    match hs.x4 {
        Some(k4) if U::FOUR_WAY => expand_a_x4::<U, K, L>(t, hs.x1, k4, rho, a_hat),
        _ => expand_a_x1::<U, K, L>(t, hs.x1, rho, a_hat),
    }
}

/// The entries of A-hat with their ExpandA keys `s + 256 r`.
#[inline(always)]
pub(crate) fn a_entries<const K: usize, const L: usize>(
    a_hat: &mut [[Poly; L]; K],
) -> impl Iterator<Item = (u16, &mut Poly)> {
    a_hat.iter_mut().enumerate().flat_map(|(r, row)| {
        row.iter_mut()
            .enumerate()
            .map(move |(s, a)| (u16::from_le_bytes([s as u8, r as u8]), a))
    })
}

/// ExpandA one entry at a time (FIPS 204 as written).
#[inline(always)]
pub(crate) fn expand_a_x1<U: Unit, const K: usize, const L: usize>(
    t: U::Token,
    x1: X1Backend,
    rho: &[u8; 32],
    a_hat: &mut [[Poly; L]; K],
) {
    for (key, a) in a_entries(a_hat) {
        rej_ntt_poly::<U>(t, x1, rho, key, a);
    }
}

/// ExpandA four entries at a time on `k4` (a lone last entry on `x1`).
#[inline(always)]
pub(crate) fn expand_a_x4<U: Unit, const K: usize, const L: usize>(
    t: U::Token,
    x1: X1Backend,
    k4: X4Backend,
    rho: &[u8; 32],
    a_hat: &mut [[Poly; L]; K],
) {
    in_fours_with(a_entries(a_hat), &mut ASampler::<U> { t, x1, k4, rho });
}

/// ExpandA's samplers, as methods so that the rejection step compiles into the calling island
/// (see [`in_fours_with`]).
pub(crate) struct ASampler<'a, U: Unit> {
    t: U::Token,
    x1: X1Backend,
    k4: X4Backend,
    rho: &'a [u8; 32],
}

impl<U: Unit> RejStep for ASampler<'_, U> {
    #[inline(always)]
    fn step(&self, bytes: &[u8], p: &mut Poly, n: &mut usize) {
        U::rej_uniform(self.t, bytes, p, n)
    }
    #[inline(always)]
    fn wipe(&self, _b: &mut [u8]) {}
}

impl<U: Unit> FourWay for ASampler<'_, U> {
    const SECRET: bool = false;
    #[inline(always)]
    fn one(&mut self, key: u16, a: &mut Poly) {
        rej_ntt_poly::<U>(self.t, self.x1, self.rho, key, a)
    }
    #[inline(always)]
    fn four(&mut self, keys: [u16; 4], out: &mut [Poly; 4]) {
        let s = seeds::<34>(self.rho, keys);
        rej_x4::<34, { 5 * RATE128 }, false>(self.k4, RATE128, &s, 5 * RATE128, out, &*self);
    }
    #[inline(always)]
    fn wipe(&self, _p: &mut [i32]) {}
}

/// RejBoundedPoly (Algorithm 31) of `SHAKE256(rho' || IntegerToBytes(nonce, 2))`.
/// Out: `[-eta, eta]`.
#[inline(always)]
pub(crate) fn rej_bounded<U: Unit, P: Params>(
    t: U::Token,
    x1: X1Backend,
    rho1: &[u8; 64],
    nonce: u16,
    p: &mut Poly,
) {
    let mut xof = Shake256::new_with_backend(x1)
        .update(rho1)
        .update(&nonce.to_le_bytes())
        .finalize_xof();
    let mut buf = [0u8; 2 * RATE256];
    // eta 2 accepts 15/16 half-bytes (about 137 bytes needed), eta 4 accepts 9/16 (about 228).
    let first = if P::ETA == 2 { RATE256 } else { 2 * RATE256 };
    xof.read(&mut buf[..first]);
    let mut n = 0;
    P::rej_eta::<U>(t, &buf[..first], p, &mut n);
    while n < 256 {
        xof.read(&mut buf[..RATE256]);
        P::rej_eta::<U>(t, &buf[..RATE256], p, &mut n);
    }
    U::wipe_bytes(t, &mut buf);
}

/// ExpandS (Algorithm 33): `s1[r] = RejBoundedPoly(rho' || r)`, `s2[r] = RejBoundedPoly(rho' ||
/// L + r)`, four polynomials at a time when `hs.x4` is set and the backend samples four-way
/// ([`Unit::FOUR_WAY`]). The output is secret. The
/// rejection step ([`Params::rej_eta`]) is the same as the one-way sampler's; the four-way
/// sampler squeezes two blocks per way first (for eta 2 too, where one block falls short about
/// half the time, so a batch of four nearly always needs the second) and branches only on
/// whether all four polynomials are full, as the one-way sampler branches on whether its one
/// is: the number of blocks squeezed depends on the count of rejected half-bytes, never on the
/// accepted values. Out: `[-eta, eta]`.
#[inline(always)]
pub(crate) fn expand_s<U: Unit, P: Params, const K: usize, const L: usize>(
    t: U::Token,
    hs: Hashes,
    rho1: &[u8; 64],
    s1: &mut [Poly; L],
    s2: &mut [Poly; K],
) {
    match hs.x4 {
        Some(k4) if U::FOUR_WAY => expand_s_x4::<U, P, K, L>(t, hs.x1, k4, rho1, s1, s2),
        _ => expand_s_x1::<U, P, K, L>(t, hs.x1, rho1, s1, s2),
    }
}

/// The polynomials of s1 then s2 with their ExpandS nonces.
#[inline(always)]
pub(crate) fn s_entries<'a, const K: usize, const L: usize>(
    s1: &'a mut [Poly; L],
    s2: &'a mut [Poly; K],
) -> impl Iterator<Item = (u16, &'a mut Poly)> {
    s1.iter_mut()
        .chain(s2.iter_mut())
        .enumerate()
        .map(|(r, p)| (r as u16, p))
}

/// ExpandS one polynomial at a time (FIPS 204 as written).
#[inline(always)]
pub(crate) fn expand_s_x1<U: Unit, P: Params, const K: usize, const L: usize>(
    t: U::Token,
    x1: X1Backend,
    rho1: &[u8; 64],
    s1: &mut [Poly; L],
    s2: &mut [Poly; K],
) {
    for (nonce, p) in s_entries(s1, s2) {
        rej_bounded::<U, P>(t, x1, rho1, nonce, p);
    }
}

/// ExpandS four polynomials at a time on `k4` (a lone last one on `x1`).
#[inline(always)]
pub(crate) fn expand_s_x4<U: Unit, P: Params, const K: usize, const L: usize>(
    t: U::Token,
    x1: X1Backend,
    k4: X4Backend,
    rho1: &[u8; 64],
    s1: &mut [Poly; L],
    s2: &mut [Poly; K],
) {
    in_fours_with(
        s_entries(s1, s2),
        &mut SSampler::<U, P> {
            t,
            x1,
            k4,
            rho1,
            _p: core::marker::PhantomData,
        },
    );
}

/// ExpandS's samplers, as methods so that the rejection step compiles into the calling island
/// (see [`in_fours_with`]).
pub(crate) struct SSampler<'a, U: Unit, P: Params> {
    pub(crate) t: U::Token,
    pub(crate) x1: X1Backend,
    pub(crate) k4: X4Backend,
    pub(crate) rho1: &'a [u8; 64],
    pub(crate) _p: core::marker::PhantomData<P>,
}

impl<U: Unit, P: Params> RejStep for SSampler<'_, U, P> {
    #[inline(always)]
    fn step(&self, bytes: &[u8], p: &mut Poly, n: &mut usize) {
        P::rej_eta::<U>(self.t, bytes, p, n)
    }
    #[inline(always)]
    fn wipe(&self, b: &mut [u8]) {
        U::wipe_bytes(self.t, b)
    }
}

impl<U: Unit, P: Params> FourWay for SSampler<'_, U, P> {
    const SECRET: bool = true;
    #[inline(always)]
    fn one(&mut self, nonce: u16, p: &mut Poly) {
        rej_bounded::<U, P>(self.t, self.x1, self.rho1, nonce, p)
    }
    #[inline(always)]
    fn four(&mut self, nonces: [u16; 4], out: &mut [Poly; 4]) {
        let mut s = seeds::<66>(self.rho1, nonces);
        rej_x4::<66, { 2 * RATE256 }, true>(self.k4, RATE256, &s, 2 * RATE256, out, &*self);
        s.zeroize();
    }
    #[inline(always)]
    fn wipe(&self, p: &mut [i32]) {
        U::wipe_coeffs(self.t, p)
    }
}

/// ExpandMask (Algorithm 34): `y[r] = BitUnpack(H(rho'' || IntegerToBytes(kappa + r, 2)),
/// gamma1 - 1, gamma1)`, four polynomials at a time when `hs.x4` is set and the backend
/// samples four-way ([`Unit::FOUR_WAY`]) (no rejection: every polynomial takes the same fixed
/// number of blocks). Out: `(-gamma1, gamma1]`.
#[inline(always)]
pub(crate) fn expand_mask<U: Unit, P: Params, const L: usize>(
    t: U::Token,
    hs: Hashes,
    rho2: &[u8; 64],
    kappa: u32,
    y: &mut [Poly; L],
) {
    match hs.x4 {
        Some(k4) if U::FOUR_WAY => expand_mask_x4::<U, P, L>(t, hs.x1, k4, rho2, kappa, y),
        _ => expand_mask_x1::<U, P, L>(t, hs.x1, rho2, kappa, y),
    }
}

/// The polynomials of y with their ExpandMask nonces `kappa + r`.
#[inline(always)]
pub(crate) fn mask_entries<const L: usize>(
    y: &mut [Poly; L],
    kappa: u32,
) -> impl Iterator<Item = (u16, &mut Poly)> {
    y.iter_mut()
        .enumerate()
        .map(move |(r, p)| ((kappa + r as u32) as u16, p))
}

/// ExpandMask one polynomial at a time (FIPS 204 as written).
#[inline(always)]
pub(crate) fn expand_mask_x1<U: Unit, P: Params, const L: usize>(
    t: U::Token,
    x1: X1Backend,
    rho2: &[u8; 64],
    kappa: u32,
    y: &mut [Poly; L],
) {
    for (nonce, p) in mask_entries(y, kappa) {
        mask_one::<U, P>(t, x1, rho2, nonce, p);
    }
}

/// ExpandMask four polynomials at a time on `k4` (a lone last one on `x1`).
#[inline(always)]
pub(crate) fn expand_mask_x4<U: Unit, P: Params, const L: usize>(
    t: U::Token,
    x1: X1Backend,
    k4: X4Backend,
    rho2: &[u8; 64],
    kappa: u32,
    y: &mut [Poly; L],
) {
    in_fours_with(
        mask_entries(y, kappa),
        &mut MaskSampler::<U, P> {
            t,
            x1,
            k4,
            rho2,
            _p: core::marker::PhantomData,
        },
    );
}

/// One polynomial of ExpandMask on one-way SHAKE256 (z takes 576 or 640 bytes: at most five
/// blocks).
#[inline(always)]
pub(crate) fn mask_one<U: Unit, P: Params>(
    t: U::Token,
    x1: X1Backend,
    rho2: &[u8; 64],
    nonce: u16,
    p: &mut Poly,
) {
    let zb = 32 * P::Z_BITS;
    debug_assert!(zb <= MASK_BLOCKS * RATE256);
    let mut buf = [0u8; 32 * 20];
    h(x1, &[rho2, &nonce.to_le_bytes()], &mut buf[..zb]);
    P::unpack_z::<U>(t, &buf[..zb], p);
    U::wipe_bytes(t, &mut buf);
}

/// ExpandMask's four-way samplers (z takes 576 or 640 bytes: five SHAKE256 blocks), as
/// methods so that the unpacking compiles into the calling island (see [`in_fours_with`]).
pub(crate) struct MaskSampler<'a, U: Unit, P: Params> {
    t: U::Token,
    x1: X1Backend,
    k4: X4Backend,
    rho2: &'a [u8; 64],
    _p: core::marker::PhantomData<P>,
}

/// SHAKE256 blocks of one ExpandMask polynomial.
pub(crate) const MASK_BLOCKS: usize = 5;

impl<U: Unit, P: Params> FourWay for MaskSampler<'_, U, P> {
    const SECRET: bool = true;
    #[inline(always)]
    fn one(&mut self, nonce: u16, p: &mut Poly) {
        mask_one::<U, P>(self.t, self.x1, self.rho2, nonce, p)
    }
    #[inline(always)]
    fn four(&mut self, nonces: [u16; 4], out: &mut [Poly; 4]) {
        let zb = 32 * P::Z_BITS;
        let mut s = seeds::<66>(self.rho2, nonces);
        let mut x = X4::absorb(self.k4, RATE256, ins(&s));
        let mut buf = [[0u8; MASK_BLOCKS * RATE256]; 4];
        x.squeeze(ways(&mut buf, MASK_BLOCKS * RATE256));
        for (b, p) in buf.iter().zip(out.iter_mut()) {
            P::unpack_z::<U>(self.t, &b[..zb], p);
        }
        U::wipe_bytes(self.t, buf.as_flattened_mut());
        s.zeroize();
    }
    #[inline(always)]
    fn wipe(&self, p: &mut [i32]) {
        U::wipe_coeffs(self.t, p)
    }
}
