//! A parameter set's dimensions (`K`, `ETA1`, `DU`, `DV`) as a type, [`Dims`], and what the
//! generic public API (`crate::generic`) needs at those dimensions: the `K`-dependent state
//! types and the `crate::ops` operations, each built and run on the key's backend in an
//! `#[inline(always)]` method, so that a generic method compiles to the same operation as a
//! method written for one set.
#![forbid(unsafe_code)]

use zeroize::Zeroize;

use crate::backend::Backend;
use crate::mlkem::EkState;
use crate::ops::{Decaps, DecodeS, Encaps, EncodeS, KeyGen, ParseEk, hashes};
use crate::poly::Poly;

/// The dimensions of a parameter set (FIPS 203 section 8, Table 2): `k`, `eta1`, `du`, `dv`.
pub struct Dims<const K: usize, const ETA1: usize, const DU: u32, const DV: u32>;

/// The state types and operations of a parameter set at its dimensions. Implemented once, for
/// every [`Dims`]; not nameable outside the crate.
pub trait Ops {
    /// `k`, the module rank.
    const K: usize;
    /// What an encapsulation key keeps: t-hat, A-hat, rho, H(ek) (`EkState<K>`).
    type EkState: Clone;
    /// s-hat, `K` polynomials.
    type SHat: Clone + Zeroize;
    /// The all-zero encapsulation-key state (filled by `keygen` or `parse_ek`).
    const EK_STATE_ZERO: Self::EkState;
    /// The all-zero s-hat (filled by `keygen` or `decode_s`).
    const S_HAT_ZERO: Self::SHat;

    /// H(ek), kept in the state.
    fn h(st: &Self::EkState) -> &[u8; 32];
    /// FIPS 203 ML-KEM.KeyGen_internal, K-PKE part ([`KeyGen`]), plus H(ek).
    fn keygen(
        be: Backend,
        d: &[u8; 32],
        ek: &mut [u8],
        st: &mut Self::EkState,
        s_hat: &mut Self::SHat,
    );
    /// Parses and expands an encapsulation key ([`ParseEk`], the section 7.2 check) and
    /// sets H(ek).
    fn parse_ek(be: Backend, ek: &[u8], st: &mut Self::EkState) -> bool;
    /// Encodes s-hat, 384 K bytes ([`EncodeS`]).
    fn encode_s(be: Backend, s_hat: &Self::SHat, out: &mut [u8]);
    /// Decodes s-hat, 384 K bytes mod q ([`DecodeS`]).
    fn decode_s(be: Backend, bytes: &[u8], s_hat: &mut Self::SHat);
    /// ML-KEM.Encaps_internal ([`Encaps`]).
    fn encaps(be: Backend, st: &Self::EkState, m: &[u8; 32], ct: &mut [u8]) -> [u8; 32];
    /// ML-KEM.Decaps_internal ([`Decaps`]).
    fn decaps(
        be: Backend,
        st: &Self::EkState,
        s_hat: &Self::SHat,
        z: &[u8; 32],
        ct: &[u8],
    ) -> [u8; 32];
}

impl<const K: usize, const ETA1: usize, const DU: u32, const DV: u32> Ops
    for Dims<K, ETA1, DU, DV>
{
    const K: usize = K;
    type EkState = EkState<K>;
    type SHat = [Poly; K];
    const EK_STATE_ZERO: EkState<K> = EkState::ZERO;
    const S_HAT_ZERO: [Poly; K] = [[0; 256]; K];

    #[inline(always)]
    fn h(st: &EkState<K>) -> &[u8; 32] {
        &st.h
    }
    #[inline(always)]
    fn keygen(
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
    #[inline(always)]
    fn parse_ek(be: Backend, ek: &[u8], st: &mut EkState<K>) -> bool {
        let hs = hashes(be);
        let ok = be.run(ParseEk::<K> { ek, st: &mut *st });
        if ok {
            st.h = hs.h(ek);
        }
        ok
    }
    #[inline(always)]
    fn encode_s(be: Backend, s_hat: &[Poly; K], out: &mut [u8]) {
        be.run(EncodeS::<K> { s_hat, out })
    }
    #[inline(always)]
    fn decode_s(be: Backend, bytes: &[u8], s_hat: &mut [Poly; K]) {
        be.run(DecodeS::<K> { bytes, s_hat })
    }
    #[inline(always)]
    fn encaps(be: Backend, st: &EkState<K>, m: &[u8; 32], ct: &mut [u8]) -> [u8; 32] {
        be.run(Encaps::<K, ETA1, DU, DV> {
            hs: hashes(be),
            st,
            m,
            ct,
        })
    }
    #[inline(always)]
    fn decaps(
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
}
