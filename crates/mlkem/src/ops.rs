//! The ML-KEM operations the public API (`crate::generic`, through `crate::dims`) runs on a
//! key's backend: each is a small struct holding its arguments whose [`KemOp::run`] calls the
//! generic code of `crate::kem` with the backend's unit type, so that it compiles into the
//! backend's island.
//! The functions here build the operation, run it with [`Backend::run`] and add what happens
//! outside the island (H(ek) on the backend's single-state Keccak).
#![forbid(unsafe_code)]

use crate::backend::Backend;
use crate::kem::{self, EkState, Hashes};
use crate::poly::Poly;
use crate::unit::{KemOp, Unit};

/// The hash functions of `be`.
#[inline(always)]
fn hashes(be: Backend) -> Hashes {
    Hashes { x1: be.keccak_x1() }
}

/// ML-KEM.KeyGen_internal's K-PKE part (see [`kem::keygen`]).
struct KeyGen<'a, const K: usize, const ETA1: usize> {
    hs: Hashes,
    d: &'a [u8; 32],
    ek: &'a mut [u8],
    st: &'a mut EkState<K>,
    s_hat: &'a mut [Poly; K],
}

impl<const K: usize, const ETA1: usize> KemOp for KeyGen<'_, K, ETA1> {
    type Out = ();
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) {
        kem::keygen::<U, K, ETA1>(t, self.hs, self.d, self.ek, self.st, self.s_hat)
    }
}

/// Encapsulation-key parsing and ExpandA (see [`kem::parse_ek`]).
struct ParseEk<'a, const K: usize> {
    ek: &'a [u8],
    st: &'a mut EkState<K>,
}

impl<const K: usize> KemOp for ParseEk<'_, K> {
    type Out = bool;
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> bool {
        kem::parse_ek::<U, K>(t, self.ek, self.st)
    }
}

/// s-hat encoding (see [`kem::encode_s`]).
struct EncodeS<'a, const K: usize> {
    s_hat: &'a [Poly; K],
    out: &'a mut [u8],
}

impl<const K: usize> KemOp for EncodeS<'_, K> {
    type Out = ();
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) {
        kem::encode_s::<U, K>(t, self.s_hat, self.out)
    }
}

/// s-hat decoding (see [`kem::decode_s`]).
struct DecodeS<'a, const K: usize> {
    bytes: &'a [u8],
    s_hat: &'a mut [Poly; K],
}

impl<const K: usize> KemOp for DecodeS<'_, K> {
    type Out = ();
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) {
        kem::decode_s::<U, K>(t, self.bytes, self.s_hat)
    }
}

/// ML-KEM.Encaps_internal (see [`kem::encaps`]).
struct Encaps<'a, const K: usize, const ETA1: usize, const DU: u32, const DV: u32> {
    hs: Hashes,
    st: &'a EkState<K>,
    m: &'a [u8; 32],
    ct: &'a mut [u8],
}

impl<const K: usize, const ETA1: usize, const DU: u32, const DV: u32> KemOp
    for Encaps<'_, K, ETA1, DU, DV>
{
    type Out = [u8; 32];
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> [u8; 32] {
        kem::encaps::<U, K, ETA1, DU, DV>(t, self.hs, self.st, self.m, self.ct)
    }
}

/// ML-KEM.Decaps_internal (see [`kem::decaps`]).
struct Decaps<'a, const K: usize, const ETA1: usize, const DU: u32, const DV: u32> {
    hs: Hashes,
    st: &'a EkState<K>,
    s_hat: &'a [Poly; K],
    z: &'a [u8; 32],
    ct: &'a [u8],
}

impl<const K: usize, const ETA1: usize, const DU: u32, const DV: u32> KemOp
    for Decaps<'_, K, ETA1, DU, DV>
{
    type Out = [u8; 32];
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> [u8; 32] {
        kem::decaps::<U, K, ETA1, DU, DV>(t, self.hs, self.st, self.s_hat, self.z, self.ct)
    }
}

/// FIPS 203 ML-KEM.KeyGen_internal, K-PKE part (see [`kem::keygen`]), plus H(ek).
pub(crate) fn keygen<const K: usize, const ETA1: usize>(
    be: Backend,
    d: &[u8; 32],
    ek: &mut [u8],
    st: &mut EkState<K>,
    s_hat: &mut [Poly; K],
) {
    let hs = hashes(be);
    be.run(KeyGen::<K, ETA1> {
        hs,
        d,
        ek: &mut *ek,
        st: &mut *st,
        s_hat,
    });
    st.h = hs.h(ek);
}

/// Parses and expands an encapsulation key (section 7.2 check) and sets H(ek).
pub(crate) fn parse_ek<const K: usize>(be: Backend, ek: &[u8], st: &mut EkState<K>) -> bool {
    let hs = hashes(be);
    let ok = be.run(ParseEk::<K> { ek, st: &mut *st });
    if ok {
        st.h = hs.h(ek);
    }
    ok
}

/// Encodes s-hat (384 K bytes).
pub(crate) fn encode_s<const K: usize>(be: Backend, s_hat: &[Poly; K], out: &mut [u8]) {
    be.run(EncodeS::<K> { s_hat, out })
}

/// Decodes s-hat (384 K bytes, mod q).
pub(crate) fn decode_s<const K: usize>(be: Backend, bytes: &[u8], s_hat: &mut [Poly; K]) {
    be.run(DecodeS::<K> { bytes, s_hat })
}

/// ML-KEM.Encaps_internal.
pub(crate) fn encaps<const K: usize, const ETA1: usize, const DU: u32, const DV: u32>(
    be: Backend,
    st: &EkState<K>,
    m: &[u8; 32],
    ct: &mut [u8],
) -> [u8; 32] {
    be.run(Encaps::<K, ETA1, DU, DV> {
        hs: hashes(be),
        st,
        m,
        ct,
    })
}

/// ML-KEM.Decaps_internal.
pub(crate) fn decaps<const K: usize, const ETA1: usize, const DU: u32, const DV: u32>(
    be: Backend,
    st: &EkState<K>,
    s_hat: &[Poly; K],
    z: &[u8; 32],
    ct: &[u8],
) -> [u8; 32] {
    be.run(Decaps::<K, ETA1, DU, DV> {
        hs: hashes(be),
        st,
        s_hat,
        z,
        ct,
    })
}
