//! The ML-KEM operations the public API (`crate::generic`, through `crate::dims`) runs on a
//! key's backend: each is a small struct holding its arguments whose [`KemOp::run`] calls the
//! generic code of `crate::mlkem` with the backend's unit type, so that it compiles into the
//! backend's island.
//! `crate::dims` builds them, runs them with [`Backend::run`] and adds what happens outside the
//! island (H(ek) on the backend's single-state Keccak).
#![forbid(unsafe_code)]

use crate::backend::Backend;
use crate::mlkem::{self, EkState, Hashes};
use crate::poly::Poly;
use crate::unit::{KemOp, Unit};

/// The hash functions of `be`.
#[inline(always)]
pub(crate) fn hashes(be: Backend) -> Hashes {
    Hashes { x1: be.keccak_x1() }
}

/// ML-KEM.KeyGen_internal's K-PKE part (see [`mlkem::keygen`]).
pub(crate) struct KeyGen<'a, const K: usize, const ETA1: usize> {
    pub(crate) hs: Hashes,
    pub(crate) d: &'a [u8; 32],
    pub(crate) ek: &'a mut [u8],
    pub(crate) st: &'a mut EkState<K>,
    pub(crate) s_hat: &'a mut [Poly; K],
}

impl<const K: usize, const ETA1: usize> KemOp for KeyGen<'_, K, ETA1> {
    type Out = ();
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) {
        mlkem::keygen::<U, K, ETA1>(t, self.hs, self.d, self.ek, self.st, self.s_hat)
    }
}

/// Encapsulation-key parsing and ExpandA (see [`mlkem::parse_ek`]).
pub(crate) struct ParseEk<'a, const K: usize> {
    pub(crate) ek: &'a [u8],
    pub(crate) st: &'a mut EkState<K>,
}

impl<const K: usize> KemOp for ParseEk<'_, K> {
    type Out = bool;
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> bool {
        mlkem::parse_ek::<U, K>(t, self.ek, self.st)
    }
}

/// s-hat encoding (see [`mlkem::encode_s`]).
pub(crate) struct EncodeS<'a, const K: usize> {
    pub(crate) s_hat: &'a [Poly; K],
    pub(crate) out: &'a mut [u8],
}

impl<const K: usize> KemOp for EncodeS<'_, K> {
    type Out = ();
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) {
        mlkem::encode_s::<U, K>(t, self.s_hat, self.out)
    }
}

/// s-hat decoding (see [`mlkem::decode_s`]).
pub(crate) struct DecodeS<'a, const K: usize> {
    pub(crate) bytes: &'a [u8],
    pub(crate) s_hat: &'a mut [Poly; K],
}

impl<const K: usize> KemOp for DecodeS<'_, K> {
    type Out = ();
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) {
        mlkem::decode_s::<U, K>(t, self.bytes, self.s_hat)
    }
}

/// ML-KEM.Encaps_internal (see [`mlkem::encaps`]).
pub(crate) struct Encaps<'a, const K: usize, const ETA1: usize, const DU: u32, const DV: u32> {
    pub(crate) hs: Hashes,
    pub(crate) st: &'a EkState<K>,
    pub(crate) m: &'a [u8; 32],
    pub(crate) ct: &'a mut [u8],
}

impl<const K: usize, const ETA1: usize, const DU: u32, const DV: u32> KemOp
    for Encaps<'_, K, ETA1, DU, DV>
{
    type Out = [u8; 32];
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> [u8; 32] {
        mlkem::encaps::<U, K, ETA1, DU, DV>(t, self.hs, self.st, self.m, self.ct)
    }
}

/// ML-KEM.Decaps_internal (see [`mlkem::decaps`]).
pub(crate) struct Decaps<'a, const K: usize, const ETA1: usize, const DU: u32, const DV: u32> {
    pub(crate) hs: Hashes,
    pub(crate) st: &'a EkState<K>,
    pub(crate) s_hat: &'a [Poly; K],
    pub(crate) z: &'a [u8; 32],
    pub(crate) ct: &'a [u8],
}

impl<const K: usize, const ETA1: usize, const DU: u32, const DV: u32> KemOp
    for Decaps<'_, K, ETA1, DU, DV>
{
    type Out = [u8; 32];
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> [u8; 32] {
        mlkem::decaps::<U, K, ETA1, DU, DV>(t, self.hs, self.st, self.s_hat, self.z, self.ct)
    }
}
