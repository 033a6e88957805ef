//! PKCS#8 private keys and SPKI public keys (feature `pkcs8`; encoding also needs `alloc`, PEM
//! `pem`), as the LAMPS ML-KEM certificate document (draft-ietf-lamps-kyber-certificates)
//! specifies them: the algorithm identifiers id-alg-ml-kem-512/768/1024
//! (2.16.840.1.101.3.4.4.1/2/3) with absent parameters, the encapsulation key as the BIT
//! STRING of the SPKI, and the private key as
//!
//! ```text
//! ML-KEM-PrivateKey ::= CHOICE {
//!   seed [0] IMPLICIT OCTET STRING (SIZE (64)),
//!   expandedKey OCTET STRING (SIZE (1632 | 2400 | 3168)),
//!   both SEQUENCE {
//!     seed OCTET STRING (SIZE (64)),
//!     expandedKey OCTET STRING (SIZE (1632 | 2400 | 3168)) } }
//! ```
//!
//! Encoding writes the seed form only. Decoding accepts the seed form, rejects the
//! expanded-only form ([`KeyEncodingError::ExpandedOnly`]: a key must carry its seed here), and
//! accepts the both form only when the expanded key equals the one derived from the seed
//! (compared in constant time; [`KeyEncodingError::Inconsistent`] otherwise), as the document's
//! consistency check asks. A public key in a version-2 `OneAsymmetricKey` must equal the
//! derived one. The encapsulation key of an SPKI passes the FIPS 203 section 7.2 modulus check.
//!
//! This module holds the parsers with the typed [`KeyEncodingError`]
//! ([`DecapsulationKey::try_from_pkcs8_der`], [`EncapsulationKey::try_from_spki_der`], ...) on
//! the native types, and the OIDs of the markers. The `pkcs8` / `spki` traits
//! (`DecodePrivateKey`, `EncodePrivateKey`, ... which report `pkcs8::Error` / `spki::Error`) are
//! implemented on the trait-facing key types of [`crate::ml_kem`] (with the same parsers under
//! them, also available there with the typed error).
#![forbid(unsafe_code)]

use pkcs8::der::asn1::{AnyRef, OctetStringRef};
use pkcs8::der::{Decode, Reader, SliceReader, Tag, TagNumber, Tagged};
use pkcs8::spki::{
    self, AlgorithmIdentifier, AlgorithmIdentifierRef, AssociatedAlgorithmIdentifier,
};
use pkcs8::{
    AssociatedOid, KeyError, ObjectIdentifier, PrivateKeyInfoRef, SubjectPublicKeyInfoRef,
};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use super::{Bytes, DecapsulationKey, EncapsulationKey, ParameterSet, SEED_LEN};
use crate::{MlKem512, MlKem768, MlKem1024};

/// Why a PKCS#8 private key or SPKI public key was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyEncodingError {
    /// Not DER of the expected structure: truncated, trailing bytes, wrong tags, non-minimal
    /// lengths, ...
    Der(pkcs8::der::Error),
    /// The algorithm identifier names another algorithm (or another ML-KEM parameter set).
    WrongAlgorithm(ObjectIdentifier),
    /// The algorithm identifier has parameters (they must be absent).
    ParametersPresent,
    /// The private key is the expanded-only form; the seed form is required.
    ExpandedOnly,
    /// The both form whose expanded key is not the one derived from its seed.
    Inconsistent,
    /// The public key of a version-2 `OneAsymmetricKey` is not the one derived from the seed.
    PublicKeyMismatch,
    /// A seed, expanded key or encapsulation key of the wrong length, or a BIT STRING with
    /// unused bits.
    InvalidLength,
    /// An encapsulation key failing the FIPS 203 section 7.2 modulus check.
    InvalidKey,
}

impl core::fmt::Display for KeyEncodingError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Der(e) => write!(f, "ML-KEM key encoding: {e}"),
            Self::WrongAlgorithm(oid) => {
                write!(f, "not an ML-KEM key of this parameter set: {oid}")
            }
            Self::ParametersPresent => f.write_str("ML-KEM algorithm identifier with parameters"),
            Self::ExpandedOnly => {
                f.write_str("ML-KEM private key without its seed (expanded-only form)")
            }
            Self::Inconsistent => {
                f.write_str("ML-KEM private key: expanded key does not match the seed")
            }
            Self::PublicKeyMismatch => {
                f.write_str("ML-KEM private key: public key does not match the seed")
            }
            Self::InvalidLength => f.write_str("ML-KEM key of the wrong length"),
            Self::InvalidKey => f.write_str("invalid ML-KEM encapsulation key (modulus check)"),
        }
    }
}

impl core::error::Error for KeyEncodingError {}

impl From<pkcs8::der::Error> for KeyEncodingError {
    fn from(e: pkcs8::der::Error) -> Self {
        Self::Der(e)
    }
}

impl From<KeyEncodingError> for pkcs8::Error {
    fn from(e: KeyEncodingError) -> Self {
        match e {
            KeyEncodingError::Der(e) => pkcs8::Error::Asn1(e),
            KeyEncodingError::WrongAlgorithm(oid) => {
                pkcs8::Error::PublicKey(spki::Error::OidUnknown { oid })
            }
            KeyEncodingError::ParametersPresent => pkcs8::Error::ParametersMalformed,
            KeyEncodingError::ExpandedOnly
            | KeyEncodingError::Inconsistent
            | KeyEncodingError::PublicKeyMismatch
            | KeyEncodingError::InvalidLength
            | KeyEncodingError::InvalidKey => pkcs8::Error::KeyMalformed(KeyError::Invalid),
        }
    }
}

impl From<KeyEncodingError> for spki::Error {
    fn from(e: KeyEncodingError) -> Self {
        match e {
            KeyEncodingError::Der(e) => spki::Error::Asn1(e),
            KeyEncodingError::WrongAlgorithm(oid) => spki::Error::OidUnknown { oid },
            _ => spki::Error::KeyMalformed,
        }
    }
}

macro_rules! oid {
    ($set:ty, $oid:literal) => {
        impl AssociatedOid for $set {
            const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap($oid);
        }
        impl AssociatedAlgorithmIdentifier for $set {
            type Params = AnyRef<'static>;
            const ALGORITHM_IDENTIFIER: AlgorithmIdentifierRef<'static> = AlgorithmIdentifier {
                oid: <$set as AssociatedOid>::OID,
                parameters: None,
            };
        }
    };
}
oid!(MlKem512, "2.16.840.1.101.3.4.4.1");
oid!(MlKem768, "2.16.840.1.101.3.4.4.2");
oid!(MlKem1024, "2.16.840.1.101.3.4.4.3");

/// The algorithm identifier must be `P`'s OID without parameters.
fn check_algorithm<P: AssociatedOid>(
    alg: &AlgorithmIdentifierRef<'_>,
) -> Result<(), KeyEncodingError> {
    if alg.oid != P::OID {
        return Err(KeyEncodingError::WrongAlgorithm(alg.oid));
    }
    if alg.parameters.is_some() {
        return Err(KeyEncodingError::ParametersPresent);
    }
    Ok(())
}

/// The context-specific tag `[0]` (primitive) of the seed form.
const SEED_TAG: Tag = Tag::ContextSpecific {
    constructed: false,
    number: TagNumber(0),
};

impl<P: ParameterSet + AssociatedOid> EncapsulationKey<P> {
    /// Parses an SPKI (DER) of this parameter set, with the typed error.
    pub fn try_from_spki_der(der: &[u8]) -> Result<Self, KeyEncodingError> {
        Self::try_from_spki(SubjectPublicKeyInfoRef::from_der(der)?)
    }

    /// The encapsulation key of a parsed SPKI, with the typed error.
    pub fn try_from_spki(spki: SubjectPublicKeyInfoRef<'_>) -> Result<Self, KeyEncodingError> {
        check_algorithm::<P>(&spki.algorithm)?;
        let bytes = spki
            .subject_public_key
            .as_bytes()
            .ok_or(KeyEncodingError::InvalidLength)?;
        Self::from_bytes(bytes).map_err(|e| match e {
            crate::Error::InvalidLength => KeyEncodingError::InvalidLength,
            crate::Error::InvalidKey => KeyEncodingError::InvalidKey,
        })
    }
}

impl<P: ParameterSet + AssociatedOid> DecapsulationKey<P> {
    /// Parses a PKCS#8 private key (DER) of this parameter set, with the typed error.
    pub fn try_from_pkcs8_der(der: &[u8]) -> Result<Self, KeyEncodingError> {
        Self::try_from_private_key_info(PrivateKeyInfoRef::from_der(der)?)
    }

    /// The decapsulation key of a parsed PKCS#8 `PrivateKeyInfo` / `OneAsymmetricKey`, with the
    /// typed error (the rules of the module documentation).
    pub fn try_from_private_key_info(
        info: PrivateKeyInfoRef<'_>,
    ) -> Result<Self, KeyEncodingError> {
        check_algorithm::<P>(&info.algorithm)?;
        let choice = AnyRef::from_der(info.private_key.as_bytes())?;
        let dk = if choice.tag() == SEED_TAG {
            Self::from_seed(seed_of(choice.value())?)
        } else if choice.tag() == Tag::OctetString {
            return Err(KeyEncodingError::ExpandedOnly);
        } else if choice.tag() == Tag::Sequence {
            let mut r = SliceReader::new(choice.value())?;
            let seed = r.decode::<&OctetStringRef>()?;
            let expanded = r.decode::<&OctetStringRef>()?;
            r.finish()?;
            let dk = Self::from_seed(seed_of(seed.as_bytes())?);
            let expanded = expanded.as_bytes();
            if expanded.len() != P::DkBytes::LEN {
                return Err(KeyEncodingError::InvalidLength);
            }
            let mut derived = dk.to_expanded_bytes();
            let same = derived.as_ref().ct_eq(expanded);
            derived.as_mut().zeroize();
            if !bool::from(same) {
                return Err(KeyEncodingError::Inconsistent);
            }
            dk
        } else {
            return Err(KeyEncodingError::Der(
                pkcs8::der::ErrorKind::TagUnexpected {
                    expected: Some(SEED_TAG),
                    actual: choice.tag(),
                }
                .into(),
            ));
        };
        if let Some(pk) = info.public_key
            && pk.as_bytes() != Some(dk.ek.bytes.as_ref())
        {
            return Err(KeyEncodingError::PublicKeyMismatch);
        }
        Ok(dk)
    }
}

/// The 64-byte seed of a seed OCTET STRING's contents.
fn seed_of(bytes: &[u8]) -> Result<&[u8; SEED_LEN], KeyEncodingError> {
    bytes
        .try_into()
        .map_err(|_| KeyEncodingError::InvalidLength)
}
