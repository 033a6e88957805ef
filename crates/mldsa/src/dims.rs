//! The bridge from a parameter set to the const-generic operations: the key states sized by
//! `K` and `L` and one `#[inline(always)]` method per operation of [`crate::ops`], written
//! once for every dimension marker [`Dim<K, L>`]. A parameter set names its marker
//! (`crate::params::Set::Dims`), so the generic API of `crate::generic` reaches the
//! operations with the set's `K` and `L` without a const generic of its own (stable Rust
//! cannot size an array by an associated constant).
#![forbid(unsafe_code)]

use core::marker::PhantomData;

use crate::backend::Backend;
use crate::dsa::{Params, SkState, VkState};
use crate::ops;

/// The `K`- and `L`-dependent part of a parameter set: its parsed key states and its
/// operations on them (each the `backend.run` of one operation of [`crate::ops`]).
pub(crate) trait Dims {
    /// Rows of A (`k`).
    const K: usize;
    /// Columns of A (`l`).
    const L: usize;
    /// What a verifying key keeps ([`VkState<K, L>`]).
    type Vk: Clone;
    /// What a signing key keeps ([`SkState<K, L>`]).
    type Sk;
    /// The all-zero verifying-key state (filled by the operations).
    const VK_ZERO: Self::Vk;
    /// The all-zero signing-key state (filled by the operations).
    const SK_ZERO: Self::Sk;

    /// tr = H(pk) of a parsed verifying key.
    fn tr(vk: &Self::Vk) -> &[u8; 64];
    /// pkDecode and expansion ([`ops::ParsePk`]).
    fn parse_pk(backend: Backend, pk: &[u8], vk: &mut Self::Vk);
    /// ML-DSA.KeyGen_internal ([`ops::KeyGen`]).
    fn keygen<P: Params>(
        backend: Backend,
        xi: &[u8; 32],
        pk: &mut [u8],
        sk_bytes: &mut [u8],
        vk: &mut Self::Vk,
        sk: &mut Self::Sk,
    );
    /// skDecode with its checks ([`ops::ParseSk`]): whether the key is well formed.
    fn parse_sk<P: Params>(
        backend: Backend,
        sk_bytes: &[u8],
        pk: &mut [u8],
        vk: &mut Self::Vk,
        sk: &mut Self::Sk,
    ) -> bool;
    /// ML-DSA.Sign_internal from mu ([`ops::Sign`]): whether a signature was found within the
    /// iteration bound.
    fn sign<P: Params>(
        backend: Backend,
        vk: &Self::Vk,
        sk: &Self::Sk,
        mu: &[u8; 64],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> bool;
    /// ML-DSA.Verify_internal from mu ([`ops::Verify`]): whether the signature is valid.
    fn verify<P: Params>(backend: Backend, vk: &Self::Vk, mu: &[u8; 64], sig: &[u8]) -> bool;
}

/// The dimension marker of the sets with `k = K` and `l = L`.
pub(crate) struct Dim<const K: usize, const L: usize>;

impl<const K: usize, const L: usize> Dims for Dim<K, L> {
    const K: usize = K;
    const L: usize = L;
    type Vk = VkState<K, L>;
    type Sk = SkState<K, L>;
    const VK_ZERO: Self::Vk = VkState::ZERO;
    const SK_ZERO: Self::Sk = SkState::ZERO;

    #[inline(always)]
    fn tr(vk: &Self::Vk) -> &[u8; 64] {
        &vk.tr
    }

    #[inline(always)]
    fn parse_pk(backend: Backend, pk: &[u8], vk: &mut Self::Vk) {
        backend.run(ops::ParsePk::<K, L> { pk, vk })
    }

    #[inline(always)]
    fn keygen<P: Params>(
        backend: Backend,
        xi: &[u8; 32],
        pk: &mut [u8],
        sk_bytes: &mut [u8],
        vk: &mut Self::Vk,
        sk: &mut Self::Sk,
    ) {
        backend.run(ops::KeyGen::<P, K, L> {
            xi,
            pk,
            sk_bytes,
            vk,
            sk,
            set: PhantomData,
        })
    }

    #[inline(always)]
    fn parse_sk<P: Params>(
        backend: Backend,
        sk_bytes: &[u8],
        pk: &mut [u8],
        vk: &mut Self::Vk,
        sk: &mut Self::Sk,
    ) -> bool {
        backend.run(ops::ParseSk::<P, K, L> {
            sk_bytes,
            pk,
            vk,
            sk,
            set: PhantomData,
        })
    }

    #[inline(always)]
    fn sign<P: Params>(
        backend: Backend,
        vk: &Self::Vk,
        sk: &Self::Sk,
        mu: &[u8; 64],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> bool {
        backend.run(ops::Sign::<P, K, L> {
            vk,
            sk,
            mu,
            rnd,
            sig,
            set: PhantomData,
        })
    }

    #[inline(always)]
    fn verify<P: Params>(backend: Backend, vk: &Self::Vk, mu: &[u8; 64], sig: &[u8]) -> bool {
        backend.run(ops::Verify::<P, K, L> {
            vk,
            mu,
            sig,
            set: PhantomData,
        })
    }
}
