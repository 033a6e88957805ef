//! The RustCrypto `digest` 0.11 traits (feature `digest`): hashers with the public shape of
//! RustCrypto `sha2` 0.11, so code written against `sha2::Sha256` (or generic over
//! `D: Digest`, `D: EagerHash` as `hmac::Hmac<D>` and `hkdf::Hkdf<D>` are) compiles with
//! `tessera_sha2::digest::Sha256`.
//!
//! Each hasher is `digest::buffer_fixed!` around a block-level core of [`block_api`]: the
//! `digest` block buffer keeps the partial block, and the core hands every run of whole blocks
//! to the backend chosen when the hasher was created in one call. These are types of their own
//! beside the crate's native hashers (`tessera_sha2::Sha256`, whose inherent `update` and
//! `finalize` return other types than the trait methods of the same names), so both APIs keep
//! their meaning. Besides `Digest`, each hasher implements `FixedOutputReset`, `Reset`,
//! `SerializableState` (the byte layout of RustCrypto sha2 0.11), `AssociatedOid`,
//! `EagerHash` (through `CoreProxy`) and `ZeroizeOnDrop`; the chaining value and the buffered
//! input are wiped on drop.
//!
//! ```
//! use hmac::{Hmac, KeyInit, Mac};
//! use tessera_sha2::digest::{Digest, Sha256};
//!
//! let d = Sha256::digest(b"abc"); // as with sha2::Sha256
//! assert_eq!(d[..], tessera_sha2::sha256(b"abc"));
//!
//! let mut mac = Hmac::<Sha256>::new_from_slice(b"secret key").unwrap();
//! mac.update(b"message");
//! let tag = mac.finalize().into_bytes();
//! assert_eq!(tag[..], tessera_sha2::hmac_sha256(b"secret key", b"message"));
//!
//! let (prk, _hk) = hkdf::Hkdf::<Sha256>::extract(Some(b"salt"), b"input keying material");
//! let native = tessera_sha2::hkdf::extract::<tessera_sha2::Sha256>(b"salt", b"input keying material");
//! assert_eq!(prk[..], native.as_bytes()[..]);
//! ```
#![forbid(unsafe_code)]

pub mod block_api;

pub use ::digest::Digest;

use ::digest::const_oid::{AssociatedOid, ObjectIdentifier};

macro_rules! hasher {
    ($(#[$doc:meta])* $name:ident, $core:ident, $oid:literal) => {
        ::digest::buffer_fixed!(
            $(#[$doc])*
            ///
            /// The chaining value and the buffered input are wiped when the hasher drops.
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

hasher!(
    /// SHA-224 (FIPS 180-4) with the `digest` traits.
    Sha224, Sha224Core, "2.16.840.1.101.3.4.2.4");
hasher!(
    /// SHA-256 (FIPS 180-4) with the `digest` traits.
    ///
    /// ```
    /// use tessera_sha2::digest::{Digest, Sha256};
    ///
    /// let mut h = Sha256::new();
    /// h.update(b"ab");
    /// h.update(b"c");
    /// assert_eq!(h.finalize()[..], tessera_sha2::sha256(b"abc"));
    /// ```
    Sha256, Sha256Core, "2.16.840.1.101.3.4.2.1");
hasher!(
    /// SHA-384 (FIPS 180-4) with the `digest` traits.
    Sha384, Sha384Core, "2.16.840.1.101.3.4.2.2");
hasher!(
    /// SHA-512 (FIPS 180-4) with the `digest` traits.
    Sha512, Sha512Core, "2.16.840.1.101.3.4.2.3");
hasher!(
    /// SHA-512/224 (FIPS 180-4 section 6.6) with the `digest` traits.
    Sha512_224, Sha512_224Core, "2.16.840.1.101.3.4.2.5");
hasher!(
    /// SHA-512/256 (FIPS 180-4 section 6.7) with the `digest` traits.
    Sha512_256, Sha512_256Core, "2.16.840.1.101.3.4.2.6");
