//! The RustCrypto `digest` 0.11 traits (feature `digest`), with the public shapes of RustCrypto
//! `sha3` 0.12 (`Sha3_224` ... `Sha3_512`), `shake` 0.1 (`Shake128`, `Shake256` and their
//! readers) and `turboshake` 0.7 (`TurboShake128`, `CTurboShake128<DS>`, ...), so code written
//! against those types, or generic over `D: Digest`, `D: EagerHash` (`hmac::Hmac<D>`,
//! `hkdf::Hkdf<D>`) or `X: ExtendableOutput`, compiles with these.
//!
//! The SHA-3 hashers are `digest::buffer_fixed!` around the block-level cores of
//! [`block_api`] (so, unlike RustCrypto's `sha3` 0.12, they are `EagerHash` and
//! `hmac::Hmac<Sha3_256>` works, not only `SimpleHmac`); the core absorbs each run of whole
//! blocks in one backend call. They also implement `FixedOutputReset`, `SerializableState` (the
//! core's 25 lanes, then `digest`'s buffer; not the byte layout of `sha3` 0.12, whose state has
//! no separate buffer) and `AssociatedOid`. The XOFs implement the traits directly on the crate's byte-
//! granular sponge (no block buffer). All of them are types of their own beside the native
//! hashers (`tessera_keccak::Sha3_256`, whose inherent `update` and `finalize` return other
//! types than the trait methods of the same names), on the backend chosen at creation, and
//! wipe their state on drop.
//!
//! ```
//! use hmac::{Hmac, KeyInit, Mac};
//! use tessera_keccak::digest::{Digest, ExtendableOutput, Sha3_256, Shake128, Update, XofReader};
//!
//! assert_eq!(Sha3_256::digest(b"abc")[..], tessera_keccak::sha3_256(b"abc"));
//!
//! let mut mac = Hmac::<Sha3_256>::new_from_slice(b"key").unwrap();
//! Mac::update(&mut mac, b"message");
//! let _tag = mac.finalize().into_bytes();
//!
//! let mut x = Shake128::default();
//! x.update(b"seed");
//! let mut out = [0u8; 40];
//! x.finalize_xof().read(&mut out);
//! let mut native = [0u8; 40];
//! tessera_keccak::shake128(b"seed", &mut native);
//! assert_eq!(out, native);
//! ```
//!
//! A TurboSHAKE domain byte outside `0x01..=0x7F` does not compile:
//!
//! ```compile_fail
//! let _ = tessera_keccak::digest::CTurboShake128::<0x80>::default();
//! ```
//!
//! ```compile_fail
//! let _ = tessera_keccak::digest::CTurboShake256::<0x00>::default();
//! ```
#![forbid(unsafe_code)]

pub mod block_api;

pub use ::digest::{Digest, ExtendableOutput, ExtendableOutputReset, Update, XofReader};

use core::fmt;

use ::digest::common::AlgorithmName;
use ::digest::const_oid::{AssociatedOid, ObjectIdentifier};
use ::digest::consts::{U16, U32};
use ::digest::{CollisionResistance, HashMarker, Reset};

use crate::backend::X1Backend;
use crate::sponge::Sponge;

macro_rules! sha3 {
    ($(#[$doc:meta])* $name:ident, $core:ident, $oid:literal) => {
        ::digest::buffer_fixed!(
            $(#[$doc])*
            ///
            /// The state and the buffered input are wiped when the hasher drops.
            pub struct $name(block_api::$core);
            impl: BaseFixedTraits AlgorithmName Default Clone HashMarker Reset FixedOutputReset
                SerializableState;
        );

        impl AssociatedOid for $name {
            const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap($oid);
        }

        impl zeroize::ZeroizeOnDrop for $name {}
    };
}

sha3!(
    /// SHA3-224 (FIPS 202) with the `digest` traits.
    Sha3_224, Sha3_224Core, "2.16.840.1.101.3.4.2.7");
sha3!(
    /// SHA3-256 (FIPS 202) with the `digest` traits.
    Sha3_256, Sha3_256Core, "2.16.840.1.101.3.4.2.8");
sha3!(
    /// SHA3-384 (FIPS 202) with the `digest` traits.
    Sha3_384, Sha3_384Core, "2.16.840.1.101.3.4.2.9");
sha3!(
    /// SHA3-512 (FIPS 202) with the `digest` traits.
    Sha3_512, Sha3_512Core, "2.16.840.1.101.3.4.2.10");

/// An XOF with the `digest` traits: a sponge of rate `$rate` and `$rounds` rounds padded with
/// domain byte `$ds`, and its reader.
macro_rules! xof {
    (
        $(#[$doc:meta])* $name:ident $(<const $g:ident: u8>)?,
        $(#[$rdoc:meta])* $reader:ident,
        rate $rate:literal, rounds $rounds:literal, ds $ds:expr, $alg:literal, $cr:ty
    ) => {
        $(#[$doc])*
        ///
        /// The state is wiped when the hasher drops.
        #[derive(Clone)]
        pub struct $name $(<const $g: u8>)? {
            sponge: Sponge,
        }

        impl $(<const $g: u8>)? $name $(<$g>)? {
            /// A fresh XOF on `backend` (tests and benches; `Default` picks the best backend
            /// of this CPU).
            #[doc(hidden)]
            pub fn new_with_backend(backend: X1Backend) -> Self {
                $( const { assert!($g >= 0x01 && $g <= 0x7F, "invalid domain separator") }; )?
                Self { sponge: Sponge::new($rate, $rounds, backend) }
            }

            /// The padded sponge, ready to squeeze.
            #[inline]
            fn reader(mut sponge: Sponge) -> $reader {
                sponge.pad($ds);
                $reader { sponge }
            }
        }

        impl $(<const $g: u8>)? Default for $name $(<$g>)? {
            #[inline]
            fn default() -> Self {
                Self::new_with_backend(X1Backend::detect())
            }
        }

        impl $(<const $g: u8>)? HashMarker for $name $(<$g>)? {}

        impl $(<const $g: u8>)? Update for $name $(<$g>)? {
            #[inline]
            fn update(&mut self, data: &[u8]) {
                self.sponge.absorb(data);
            }
        }

        impl $(<const $g: u8>)? Reset for $name $(<$g>)? {
            /// Back to the empty state, on the same backend (the old state is wiped).
            #[inline]
            fn reset(&mut self) {
                self.sponge.reset();
            }
        }

        impl $(<const $g: u8>)? ExtendableOutput for $name $(<$g>)? {
            type Reader = $reader;

            #[inline]
            fn finalize_xof(self) -> $reader {
                Self::reader(self.sponge)
            }
        }

        impl $(<const $g: u8>)? ExtendableOutputReset for $name $(<$g>)? {
            #[inline]
            fn finalize_xof_reset(&mut self) -> $reader {
                let r = Self::reader(self.sponge.clone());
                self.sponge.reset();
                r
            }
        }

        impl $(<const $g: u8>)? AlgorithmName for $name $(<$g>)? {
            fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str($alg)
            }
        }

        impl $(<const $g: u8>)? CollisionResistance for $name $(<$g>)? {
            type CollisionResistance = $cr;
        }

        impl $(<const $g: u8>)? fmt::Debug for $name $(<$g>)? {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!(stringify!($name), " { ... }"))
            }
        }

        impl $(<const $g: u8>)? zeroize::ZeroizeOnDrop for $name $(<$g>)? {}

        $(#[$rdoc])*
        ///
        /// Reads continue where the previous one stopped; a clone continues independently. The
        /// state is wiped when the reader drops.
        #[derive(Clone)]
        pub struct $reader {
            sponge: Sponge,
        }

        impl XofReader for $reader {
            #[inline]
            fn read(&mut self, buf: &mut [u8]) {
                self.sponge.squeeze(buf);
            }
        }

        impl fmt::Debug for $reader {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!(stringify!($reader), " { ... }"))
            }
        }

        impl zeroize::ZeroizeOnDrop for $reader {}
    };
}

xof!(
    /// SHAKE128 (FIPS 202) with the `digest` traits.
    Shake128,
    /// The output reader of [`Shake128`].
    Shake128Reader,
    rate 168, rounds 24, ds 0x1F, "SHAKE128", U16
);
xof!(
    /// SHAKE256 (FIPS 202) with the `digest` traits.
    Shake256,
    /// The output reader of [`Shake256`].
    Shake256Reader,
    rate 136, rounds 24, ds 0x1F, "SHAKE256", U32
);
xof!(
    /// TurboSHAKE128 (RFC 9861) with domain-separation byte `DS` (`0x01..=0x7F`, checked at
    /// compile time), with the `digest` traits; [`TurboShake128`] is the default domain `0x1F`.
    CTurboShake128<const DS: u8>,
    /// The output reader of [`CTurboShake128`].
    TurboShake128Reader,
    rate 168, rounds 12, ds DS, "TurboSHAKE128", U16
);
xof!(
    /// TurboSHAKE256 (RFC 9861) with domain-separation byte `DS` (`0x01..=0x7F`, checked at
    /// compile time), with the `digest` traits; [`TurboShake256`] is the default domain `0x1F`.
    CTurboShake256<const DS: u8>,
    /// The output reader of [`CTurboShake256`].
    TurboShake256Reader,
    rate 136, rounds 12, ds DS, "TurboSHAKE256", U32
);

/// The default TurboSHAKE domain-separation byte (RFC 9861).
pub const DEFAULT_DS: u8 = 0x1F;
/// TurboSHAKE128 with the default domain-separation byte `0x1F`.
pub type TurboShake128 = CTurboShake128<DEFAULT_DS>;
/// TurboSHAKE256 with the default domain-separation byte `0x1F`.
pub type TurboShake256 = CTurboShake256<DEFAULT_DS>;

impl AssociatedOid for Shake128 {
    const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.11");
}

impl AssociatedOid for Shake256 {
    const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.12");
}
