//! The ML-DSA operations [`Backend::run`](crate::backend::Backend::run) runs: each a small
//! struct holding its arguments whose `#[inline(always)]` [`DsaOp::run`] calls the generic
//! algorithm of `crate::dsa` on the row's unit type, with the Keccak backends that unit hashes
//! with ([`Unit::hashes`]). Compiled into the row's target-feature island.
#![forbid(unsafe_code)]

use core::marker::PhantomData;

use crate::backend::DsaOp;
use crate::dsa::{self, Params, SkState, VkState};
use crate::unit::Unit;

/// H (SHAKE256) of the concatenation of `parts` into `out`, on the backend's single-state
/// Keccak.
pub(crate) struct Hash<'a> {
    /// The strings hashed, in order.
    pub(crate) parts: &'a [&'a [u8]],
    /// The output (its length is the output length).
    pub(crate) out: &'a mut [u8],
}

impl DsaOp for Hash<'_> {
    type Out = ();
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) {
        dsa::h(U::hashes(t).x1, self.parts, self.out)
    }
}

/// H of the concatenation of `head` then `tail` into `out` (a message given in parts, after
/// its prefix), on the backend's single-state Keccak.
pub(crate) struct Hash2<'a> {
    /// The strings hashed first, in order.
    pub(crate) head: &'a [&'a [u8]],
    /// The strings hashed after them, in order.
    pub(crate) tail: &'a [&'a [u8]],
    /// The output (its length is the output length).
    pub(crate) out: &'a mut [u8],
}

impl DsaOp for Hash2<'_> {
    type Out = ();
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) {
        crate::hash::h2(U::hashes(t).x1, self.head, self.tail, self.out)
    }
}

/// The single-state Keccak backend this backend hashes with (for hashing done outside an
/// operation, a message absorbed piece by piece).
pub(crate) struct HashBackend;

impl DsaOp for HashBackend {
    type Out = tessera_keccak::X1Backend;
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> tessera_keccak::X1Backend {
        U::hashes(t).x1
    }
}

/// ML-DSA.KeyGen_internal (see [`dsa::keygen`]).
pub(crate) struct KeyGen<'a, P, const K: usize, const L: usize> {
    pub(crate) xi: &'a [u8; 32],
    pub(crate) pk: &'a mut [u8],
    pub(crate) sk_bytes: &'a mut [u8],
    pub(crate) vk: &'a mut VkState<K, L>,
    pub(crate) sk: &'a mut SkState<K, L>,
    pub(crate) set: PhantomData<P>,
}

impl<P: Params, const K: usize, const L: usize> DsaOp for KeyGen<'_, P, K, L> {
    type Out = ();
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) {
        let hs = U::hashes(t);
        dsa::keygen::<U, P, K, L>(t, hs, self.xi, self.pk, self.sk_bytes, self.vk, self.sk)
    }
}

/// pkDecode and expansion (see [`dsa::parse_pk`]).
pub(crate) struct ParsePk<'a, const K: usize, const L: usize> {
    pub(crate) pk: &'a [u8],
    pub(crate) vk: &'a mut VkState<K, L>,
}

impl<const K: usize, const L: usize> DsaOp for ParsePk<'_, K, L> {
    type Out = ();
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) {
        dsa::parse_pk::<U, K, L>(t, U::hashes(t), self.pk, self.vk)
    }
}

/// skDecode with its checks (see [`dsa::parse_sk`]): whether the key is well formed.
pub(crate) struct ParseSk<'a, P, const K: usize, const L: usize> {
    pub(crate) sk_bytes: &'a [u8],
    pub(crate) pk: &'a mut [u8],
    pub(crate) vk: &'a mut VkState<K, L>,
    pub(crate) sk: &'a mut SkState<K, L>,
    pub(crate) set: PhantomData<P>,
}

impl<P: Params, const K: usize, const L: usize> DsaOp for ParseSk<'_, P, K, L> {
    type Out = bool;
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> bool {
        let hs = U::hashes(t);
        dsa::parse_sk::<U, P, K, L>(t, hs, self.sk_bytes, self.pk, self.vk, self.sk)
    }
}

/// ML-DSA.Sign_internal from mu (see [`dsa::sign`]): whether a signature was found within
/// the iteration bound.
pub(crate) struct Sign<'a, P, const K: usize, const L: usize> {
    pub(crate) vk: &'a VkState<K, L>,
    pub(crate) sk: &'a SkState<K, L>,
    pub(crate) mu: &'a [u8; 64],
    pub(crate) rnd: &'a [u8; 32],
    pub(crate) sig: &'a mut [u8],
    pub(crate) set: PhantomData<P>,
}

impl<P: Params, const K: usize, const L: usize> DsaOp for Sign<'_, P, K, L> {
    type Out = bool;
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> bool {
        let hs = U::hashes(t);
        dsa::sign::<U, P, K, L>(t, hs, self.vk, self.sk, self.mu, self.rnd, self.sig)
    }
}

/// ML-DSA.Verify_internal from mu (see [`dsa::verify`]): whether the signature is valid.
pub(crate) struct Verify<'a, P, const K: usize, const L: usize> {
    pub(crate) vk: &'a VkState<K, L>,
    pub(crate) mu: &'a [u8; 64],
    pub(crate) sig: &'a [u8],
    pub(crate) set: PhantomData<P>,
}

impl<P: Params, const K: usize, const L: usize> DsaOp for Verify<'_, P, K, L> {
    type Out = bool;
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) -> bool {
        dsa::verify::<U, P, K, L>(t, U::hashes(t), self.vk, self.mu, self.sig)
    }
}
