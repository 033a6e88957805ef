//! PKCS#8 private keys and SPKI public keys on the trait-facing key types (feature `pkcs8`;
//! encoding also needs `alloc`, PEM `pem`), as `ml-kem`'s module of this name: the traits are
//! re-exported here; [`DecodePrivateKey`] is implemented for [`DecapsulationKey`] and
//! [`DecodePublicKey`] for [`EncapsulationKey`] (through `TryFrom<PrivateKeyInfoRef>` /
//! `TryFrom<SubjectPublicKeyInfoRef>`), and with `alloc` `EncodePrivateKey` (the seed form only)
//! and `EncodePublicKey`.
//!
//! The encoding is that of the LAMPS ML-KEM certificate document; the rules of decoding (seed
//! form required, the both form only when consistent, strict DER) are those of the native
//! parsers ([`crate::generic::DecapsulationKey::try_from_pkcs8_der`], ...), which run under the
//! traits. The traits report `pkcs8::Error` / `spki::Error`; the inherent
//! [`DecapsulationKey::try_from_pkcs8_der`] / [`EncapsulationKey::try_from_spki_der`] (and
//! their forms on parsed structures) give the typed [`KeyEncodingError`].
#![forbid(unsafe_code)]

pub use ::pkcs8::spki::AssociatedAlgorithmIdentifier;
pub use ::pkcs8::{AssociatedOid, DecodePrivateKey, DecodePublicKey};
#[cfg(feature = "alloc")]
pub use ::pkcs8::{EncodePrivateKey, EncodePublicKey};

use ::pkcs8::der::asn1::AnyRef;
use ::pkcs8::spki::{self, AlgorithmIdentifier, AlgorithmIdentifierRef};
use ::pkcs8::{PrivateKeyInfoRef, SubjectPublicKeyInfoRef};

use super::{DecapsulationKey, EncapsulationKey, ParameterSet};
use crate::KeyEncodingError;
use crate::generic;

impl<P: ParameterSet + AssociatedOid> AssociatedAlgorithmIdentifier for EncapsulationKey<P> {
    type Params = AnyRef<'static>;
    const ALGORITHM_IDENTIFIER: AlgorithmIdentifierRef<'static> = AlgorithmIdentifier {
        oid: P::OID,
        parameters: None,
    };
}

impl<P: ParameterSet + AssociatedOid> AssociatedAlgorithmIdentifier for DecapsulationKey<P> {
    type Params = AnyRef<'static>;
    const ALGORITHM_IDENTIFIER: AlgorithmIdentifierRef<'static> = AlgorithmIdentifier {
        oid: P::OID,
        parameters: None,
    };
}

impl<P: ParameterSet + AssociatedOid> EncapsulationKey<P> {
    /// Parses an SPKI (DER) of this parameter set, with the typed error.
    pub fn try_from_spki_der(der: &[u8]) -> Result<Self, KeyEncodingError> {
        generic::EncapsulationKey::try_from_spki_der(der).map(Self::from)
    }

    /// The encapsulation key of a parsed SPKI, with the typed error.
    pub fn try_from_spki(spki: SubjectPublicKeyInfoRef<'_>) -> Result<Self, KeyEncodingError> {
        generic::EncapsulationKey::try_from_spki(spki).map(Self::from)
    }
}

impl<P: ParameterSet + AssociatedOid> TryFrom<SubjectPublicKeyInfoRef<'_>> for EncapsulationKey<P> {
    type Error = spki::Error;
    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> Result<Self, spki::Error> {
        Ok(Self::try_from_spki(spki)?)
    }
}

impl<P: ParameterSet + AssociatedOid> DecapsulationKey<P> {
    /// Parses a PKCS#8 private key (DER) of this parameter set, with the typed error.
    pub fn try_from_pkcs8_der(der: &[u8]) -> Result<Self, KeyEncodingError> {
        generic::DecapsulationKey::try_from_pkcs8_der(der).map(Self::from)
    }

    /// The decapsulation key of a parsed PKCS#8 `PrivateKeyInfo` / `OneAsymmetricKey`, with the
    /// typed error.
    pub fn try_from_private_key_info(
        info: PrivateKeyInfoRef<'_>,
    ) -> Result<Self, KeyEncodingError> {
        generic::DecapsulationKey::try_from_private_key_info(info).map(Self::from)
    }
}

impl<P: ParameterSet + AssociatedOid> TryFrom<PrivateKeyInfoRef<'_>> for DecapsulationKey<P> {
    type Error = ::pkcs8::Error;
    fn try_from(info: PrivateKeyInfoRef<'_>) -> Result<Self, ::pkcs8::Error> {
        Ok(Self::try_from_private_key_info(info)?)
    }
}

#[cfg(feature = "alloc")]
mod encode {
    use ::pkcs8::der::asn1::{BitStringRef, OctetStringRef};
    use ::pkcs8::der::zeroize::Zeroizing;
    use ::pkcs8::spki::AssociatedAlgorithmIdentifier;
    use ::pkcs8::{
        AssociatedOid, Document, EncodePrivateKey, EncodePublicKey, KeyError, PrivateKeyInfoRef,
        SecretDocument, SubjectPublicKeyInfoRef, spki,
    };

    use super::super::{DecapsulationKey, EncapsulationKey, ParameterSet};
    use crate::generic::SEED_LEN;

    /// The SPKI with the encoded key as its BIT STRING.
    impl<P: ParameterSet + AssociatedOid> EncodePublicKey for EncapsulationKey<P> {
        fn to_public_key_der(&self) -> spki::Result<Document> {
            let spki = SubjectPublicKeyInfoRef {
                algorithm: Self::ALGORITHM_IDENTIFIER,
                subject_public_key: BitStringRef::new(0, self.as_ref().bytes.as_ref())?,
            };
            Document::try_from(&spki)
        }
    }

    /// The seed form `[0] IMPLICIT OCTET STRING (SIZE (64))` in a version-1 `PrivateKeyInfo`.
    /// A key without a seed (parsed from the expanded encoding) has no such form:
    /// `KeyMalformed(Invalid)`.
    impl<P: ParameterSet + AssociatedOid> EncodePrivateKey for DecapsulationKey<P> {
        fn to_pkcs8_der(&self) -> ::pkcs8::Result<SecretDocument> {
            let seed = self.sk.seed.as_ref().ok_or(KeyError::Invalid)?;
            // Tag [0] primitive, length 64, the seed.
            let mut choice = Zeroizing::new([0u8; SEED_LEN + 2]);
            choice[0] = 0x80;
            choice[1] = SEED_LEN as u8;
            choice[2..].copy_from_slice(seed);
            let info = PrivateKeyInfoRef::new(
                Self::ALGORITHM_IDENTIFIER,
                OctetStringRef::new(&choice[..])?,
            );
            Ok(SecretDocument::encode_msg(&info)?)
        }
    }
}
