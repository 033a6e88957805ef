//! The three parameter sets (FIPS 204 section 4, Table 1): one zero-sized marker type per set
//! ([`MlDsa44`], [`MlDsa65`], [`MlDsa87`]) implementing the sealed [`ParameterSet`] (the
//! set's byte-array types and lengths) and, crate-private, [`Set`]: the set's `K` x `L`
//! dimension marker (see [`crate::dims`]) and its algorithms' [`Params`], a [`Table`] of the
//! Table 1 values as const arguments.
#![forbid(unsafe_code)]

use zeroize::Zeroize;

use crate::dims::Dims;
use crate::dsa::Params;
use crate::poly::{self, Poly};
use crate::unit::{Unit, gamma2};

/// Length of the seed xi, the canonical private key (every set).
pub(crate) const SEED_LEN: usize = 32;

/// ML-DSA-44 (security category 2): k = 4, l = 4, eta = 2, tau = 39, gamma1 = 2^17,
/// gamma2 = (q-1)/88, omega = 80.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MlDsa44;

/// ML-DSA-65 (security category 3): k = 6, l = 5, eta = 4, tau = 49, gamma1 = 2^19,
/// gamma2 = (q-1)/32, omega = 55.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MlDsa65;

/// ML-DSA-87 (security category 5): k = 8, l = 7, eta = 2, tau = 60, gamma1 = 2^19,
/// gamma2 = (q-1)/32, omega = 75.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MlDsa87;

mod sealed {
    /// Seals [`Bytes`](super::Bytes): implemented for byte arrays only.
    pub trait Sealed {}
    impl<const N: usize> Sealed for [u8; N] {}
}

/// A byte array of a parameter set (`[u8; N]`, the only implementation): what the generic
/// keys and signatures store and return.
pub trait Bytes:
    sealed::Sealed
    + Copy
    + Eq
    + core::hash::Hash
    + Send
    + Sync
    + 'static
    + AsRef<[u8]>
    + AsMut<[u8]>
    + Zeroize
    + for<'a> TryFrom<&'a [u8]>
{
    /// The all-zero array.
    fn zeroed() -> Self;
}

impl<const N: usize> Bytes for [u8; N] {
    #[inline(always)]
    fn zeroed() -> Self {
        [0; N]
    }
}

/// What the generic API needs of a set besides its public face: the algorithms' parameters
/// ([`Params`]) and the dimension marker of its `K` and `L` ([`Dims`]). Crate-private, so
/// [`ParameterSet`] (its subtrait) is sealed.
pub(crate) trait Set: Sized {
    /// `Dim<K, L>`.
    type Dims: Dims;
    /// The algorithms' parameters: a [`Table`].
    type Params: Params;
    /// The last arc of the set's OID id-ml-dsa-* (2.16.840.1.101.3.4.3.17 / 18 / 19, NIST
    /// signature algorithms; FIPS 204, RFC 9881).
    #[cfg_attr(not(feature = "pkcs8"), allow(dead_code))]
    const OID_ARC: u8;
}

/// The algorithms' parameters of `P`.
type Of<P> = <P as Set>::Params;

/// An ML-DSA parameter set: [`MlDsa44`], [`MlDsa65`] or [`MlDsa87`] (sealed: no other crate
/// can implement it). Its byte-array types are concrete per set (`[u8; 1312]` for an ML-DSA-44
/// verifying key, ...), so a key's `to_bytes` returns an array of the set's length.
// The supertrait is crate-private on purpose (it seals the trait and keeps the algorithms'
// parameters out of the API); other crates only use the bound.
#[allow(private_bounds)]
pub trait ParameterSet: Set {
    /// An encoded verifying key (pkEncode): `[u8; PK_LEN]`.
    type PkBytes: Bytes;
    /// An expanded signing key (skEncode): `[u8; SK_LEN]`.
    type SkBytes: Bytes;
    /// A signature (sigEncode): `[u8; SIG_LEN]`.
    type SigBytes: Bytes + From<crate::generic::Signature<Self>>;
    /// Length of an encoded verifying key (pkEncode).
    const PK_LEN: usize = 32 + 320 * Of::<Self>::K;
    /// Length of an expanded signing key (skEncode).
    const SK_LEN: usize =
        128 + 32 * Of::<Self>::ETA_BITS * (Of::<Self>::K + Of::<Self>::L) + 416 * Of::<Self>::K;
    /// Length of a signature (sigEncode).
    const SIG_LEN: usize = Of::<Self>::CT_LEN
        + 32 * Of::<Self>::Z_BITS * Of::<Self>::L
        + Of::<Self>::OMEGA
        + Of::<Self>::K;
    /// Length of the seed xi, the canonical private key.
    const SEED_LEN: usize = SEED_LEN;
}

/// Whether `P`'s array types have its lengths and its dimension marker its `K` and `L`.
const fn consistent<P: ParameterSet>() -> bool {
    size_of::<P::PkBytes>() == P::PK_LEN
        && size_of::<P::SkBytes>() == P::SK_LEN
        && size_of::<P::SigBytes>() == P::SIG_LEN
        && <P::Dims as Dims>::K == Of::<P>::K
        && <P::Dims as Dims>::L == Of::<P>::L
}

const _: () =
    assert!(consistent::<MlDsa44>() && consistent::<MlDsa65>() && consistent::<MlDsa87>());

/// The FIPS 204 Table 1 parameters of a set as const arguments: `K`, `L`, `ETA`, `TAU`,
/// `CT_LEN` (`lambda / 4`), `GAMMA1_BITS` (`gamma1 = 2^GAMMA1_BITS`), `G2`
/// (`gamma2 = (q-1)/G2`), `OMEGA`, and the packing widths that follow from them (stable Rust
/// cannot compute a const argument): `ETA_BITS` = bitlen(2 eta), `Z_BITS` =
/// 1 + bitlen(gamma1 - 1), `W1_BITS` = bitlen((q-1)/(2 gamma2) - 1). The one implementation
/// of [`Params`], written once; `BETA` = tau eta.
pub(crate) struct Table<
    const K: usize,
    const L: usize,
    const ETA: i32,
    const TAU: usize,
    const CT_LEN: usize,
    const GAMMA1_BITS: u32,
    const G2: i32,
    const OMEGA: usize,
    const ETA_BITS: u32,
    const Z_BITS: u32,
    const W1_BITS: u32,
>;

impl<
    const K: usize,
    const L: usize,
    const ETA: i32,
    const TAU: usize,
    const CT_LEN: usize,
    const GAMMA1_BITS: u32,
    const G2: i32,
    const OMEGA: usize,
    const ETA_BITS: u32,
    const Z_BITS: u32,
    const W1_BITS: u32,
> Params for Table<K, L, ETA, TAU, CT_LEN, GAMMA1_BITS, G2, OMEGA, ETA_BITS, Z_BITS, W1_BITS>
{
    const K: usize = K;
    const L: usize = L;
    const ETA: i32 = ETA;
    const TAU: usize = TAU;
    const CT_LEN: usize = CT_LEN;
    const GAMMA1: i32 = 1 << GAMMA1_BITS;
    const GAMMA2: i32 = gamma2::<G2>();
    const OMEGA: usize = OMEGA;
    const BETA: i32 = TAU as i32 * ETA;
    const ETA_BITS: usize = ETA_BITS as usize;
    const Z_BITS: usize = Z_BITS as usize;
    const W1_BITS: usize = W1_BITS as usize;

    #[inline(always)]
    fn decompose<U: Unit>(x: U) -> (U, U) {
        x.decompose::<G2>()
    }
    #[inline(always)]
    fn use_hint<U: Unit>(x: U, h: U) -> U {
        x.use_hint::<G2>(h)
    }
    #[inline(always)]
    fn rej_eta<U: Unit>(t: U::Token, bytes: &[u8], out: &mut Poly, n: &mut usize) {
        U::rej_eta::<ETA>(t, bytes, out, n)
    }
    #[inline(always)]
    fn pack_eta<U: Unit>(t: U::Token, p: &Poly, out: &mut [u8]) {
        poly::pack::<U, ETA_BITS>(t, p, Some(ETA), out)
    }
    #[inline(always)]
    fn unpack_eta<U: Unit>(t: U::Token, bytes: &[u8], p: &mut Poly) {
        poly::unpack::<U, ETA_BITS>(t, bytes, Some(ETA), p)
    }
    #[inline(always)]
    fn pack_z<U: Unit>(t: U::Token, p: &Poly, out: &mut [u8]) {
        poly::pack::<U, Z_BITS>(t, p, Some(1 << GAMMA1_BITS), out)
    }
    #[inline(always)]
    fn unpack_z<U: Unit>(t: U::Token, bytes: &[u8], p: &mut Poly) {
        poly::unpack::<U, Z_BITS>(t, bytes, Some(1 << GAMMA1_BITS), p)
    }
    #[inline(always)]
    fn pack_w1<U: Unit>(t: U::Token, p: &Poly, out: &mut [u8]) {
        poly::pack::<U, W1_BITS>(t, p, None, out)
    }
}

#[cfg(test)]
mod tests {
    // Small enough for Miri (one ML-DSA-44 key generation, signature and verification on the
    // portable backend, with pinned signature bytes); natively also a from-bytes key, a rejected
    // context and the expanded-key round trip. ACVP and Wycheproof run natively in `tests/`.
    #[test]
    fn round_trip_44() {
        use crate::backend::Backend;
        use crate::ml_dsa_44::*;
        let be = Backend::Portable;
        let sk = SigningKey::from_seed_with_backend(be, &[3; 32]);
        let vk = sk.verifying_key();
        let sig = sk.sign_deterministic(b"message", b"ctx").unwrap();
        assert_eq!(vk.verify(b"message", b"ctx", &sig), Ok(()));
        // Pinned first bytes of the signature (the same on little- and big-endian hosts).
        assert_eq!(sig.as_bytes()[..4], KNOWN_SIG[..]);
        #[cfg(not(miri))]
        {
            let vk2 = VerifyingKey::from_bytes_with_backend(be, &vk.to_bytes()).unwrap();
            assert_eq!(
                vk2.verify(b"message", b"ctX", &sig),
                Err(crate::Error::Verification)
            );
            let sk2 =
                SigningKey::from_expanded_bytes_with_backend(be, &sk.to_expanded_bytes()).unwrap();
            assert_eq!(sk2.verifying_key(), vk);
            assert_eq!(sk2.sign_deterministic(b"message", b"ctx").unwrap(), sig);
        }
    }

    const KNOWN_SIG: [u8; 4] = [37, 27, 198, 152];

    /// Signing keys are not `Clone` (a compile-time check: `some_item` is ambiguous, a
    /// compile error, for a type that implements `Clone`).
    #[test]
    fn signing_keys_are_not_clone() {
        trait AmbiguousIfClone<A> {
            fn some_item() {}
        }
        impl<T> AmbiguousIfClone<()> for T {}
        impl<T: Clone> AmbiguousIfClone<u8> for T {}
        <crate::ml_dsa_44::SigningKey as AmbiguousIfClone<_>>::some_item();
        <crate::ml_dsa_65::SigningKey as AmbiguousIfClone<_>>::some_item();
        <crate::ml_dsa_87::SigningKey as AmbiguousIfClone<_>>::some_item();
        <crate::dsa::SkState<4, 4> as AmbiguousIfClone<_>>::some_item();
    }
}
