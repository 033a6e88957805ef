//! The [`ParameterSet`] trait of the generic API (`crate::generic`): a set's byte-array types
//! (stable Rust cannot write `[u8; P::EK_LEN]`, so each set names its arrays) and, through a
//! private supertrait, its dimensions ([`Dims`](crate::dims::Dims)). Sealed: the sets are the
//! three of `crate::params`.
#![forbid(unsafe_code)]

use crate::dims::Ops;

/// The private supertraits: nameable inside the crate only, so no other crate can implement
/// [`ParameterSet`] or [`Bytes`].
pub(crate) mod sealed {
    /// A parameter set's dimensions: its [`Ops`](crate::dims::Ops) (state types and `ops`
    /// calls at its `K`, `ETA1`, `DU`, `DV`).
    pub trait Sealed {
        /// The set's [`Dims`](crate::dims::Dims).
        type Dims: super::Ops;
    }

    /// The byte arrays of [`Bytes`](super::Bytes).
    pub trait SealedBytes {}
}

/// An ML-KEM parameter set (FIPS 203 section 8): implemented by the zero-sized markers
/// `MlKem512`, `MlKem768` and `MlKem1024` only.
pub trait ParameterSet:
    sealed::Sealed + Copy + Eq + core::fmt::Debug + Default + Send + Sync + 'static
{
    /// An encoded encapsulation key, `[u8; 384 k + 32]`.
    type EkBytes: Bytes;
    /// An expanded decapsulation key (FIPS 203 format), `[u8; 768 k + 96]`.
    type DkBytes: Bytes;
    /// A ciphertext, `[u8; 32 (du k + dv)]`.
    type CtBytes: Bytes;
}

/// A byte array `[u8; N]` (the only implementations).
pub trait Bytes:
    sealed::SealedBytes
    + Copy
    + Eq
    + core::fmt::Debug
    + AsRef<[u8]>
    + AsMut<[u8]>
    + Send
    + Sync
    + 'static
{
    /// The length `N`.
    const LEN: usize;
    /// `[0; N]`.
    fn zeroed() -> Self;
    /// The array holding `bytes`, `None` unless `bytes` is `N` long.
    fn try_from_slice(bytes: &[u8]) -> Option<Self>;
}

impl<const N: usize> sealed::SealedBytes for [u8; N] {}

impl<const N: usize> Bytes for [u8; N] {
    const LEN: usize = N;
    #[inline(always)]
    fn zeroed() -> Self {
        [0; N]
    }
    #[inline(always)]
    fn try_from_slice(bytes: &[u8]) -> Option<Self> {
        bytes.try_into().ok()
    }
}

/// The dimensions of `P` (its `Ops`).
pub(crate) type DimsOf<P> = <P as sealed::Sealed>::Dims;
/// What an encapsulation key of `P` keeps.
pub(crate) type EkState<P> = <DimsOf<P> as Ops>::EkState;
/// s-hat of `P`.
pub(crate) type SHat<P> = <DimsOf<P> as Ops>::SHat;
