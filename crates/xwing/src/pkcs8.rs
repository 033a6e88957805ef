//! SPKI public keys and PKCS#8 private keys of X-Wing as the draft's ASN.1 module
//! (`X509-XWING-2024`) defines them: `id-XWing` (1.3.6.1.4.1.62253.25722) with absent
//! parameters; the `subjectPublicKey` BIT STRING is the raw 1216-byte encapsulation key and the
//! `privateKey` OCTET STRING the raw 32-byte seed (no inner ASN.1 wrapping).
//!
//! Decoding is strict: another OID, present parameters, another length, unused bits and
//! trailing bytes are errors, and the public key's ML-KEM part must pass the FIPS 203 modulus
//! check. A version 2 key with an attached public key is accepted only if that key is the one
//! the seed derives. Encoding writes version 1 (the seed alone).

use ::pkcs8::spki::{self, AlgorithmIdentifierRef, ObjectIdentifier, SubjectPublicKeyInfoRef};
use ::pkcs8::{KeyError, PrivateKeyInfoRef};
use subtle::ConstantTimeEq;

#[cfg(feature = "alloc")]
use ::pkcs8::{
    Document, EncodePrivateKey, EncodePublicKey, SecretDocument,
    der::asn1::{BitStringRef, OctetStringRef},
};

use crate::{DECAPSULATION_KEY_SIZE, DecapsulationKey, EncapsulationKey, Error};

/// `id-XWing`: 1.3.6.1.4.1.62253.25722.
pub const ID_XWING: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.4.1.62253.25722");

/// The algorithm identifier: `id-XWing`, parameters absent.
pub const ALGORITHM_ID: AlgorithmIdentifierRef<'static> = AlgorithmIdentifierRef {
    oid: ID_XWING,
    parameters: None,
};

/// Why an algorithm identifier was refused.
enum AlgError {
    Oid(ObjectIdentifier),
    Parameters,
}

/// The OID must be `id-XWing` and the parameters absent.
fn check_algorithm(alg: &AlgorithmIdentifierRef<'_>) -> Result<(), AlgError> {
    if alg.oid != ID_XWING {
        return Err(AlgError::Oid(alg.oid));
    }
    if alg.parameters.is_some() {
        return Err(AlgError::Parameters);
    }
    Ok(())
}

impl TryFrom<PrivateKeyInfoRef<'_>> for DecapsulationKey {
    type Error = ::pkcs8::Error;

    fn try_from(info: PrivateKeyInfoRef<'_>) -> Result<Self, ::pkcs8::Error> {
        check_algorithm(&info.algorithm).map_err(|e| match e {
            AlgError::Oid(oid) => ::pkcs8::Error::PublicKey(spki::Error::OidUnknown { oid }),
            AlgError::Parameters => ::pkcs8::Error::ParametersMalformed,
        })?;
        let seed = info.private_key.as_bytes();
        let seed: &[u8; DECAPSULATION_KEY_SIZE] = match seed.len() {
            DECAPSULATION_KEY_SIZE => seed.try_into().map_err(|_| KeyError::Invalid)?,
            n if n < DECAPSULATION_KEY_SIZE => return Err(KeyError::TooShort.into()),
            _ => return Err(KeyError::TooLong.into()),
        };
        let key = DecapsulationKey::from_seed(seed);
        if let Some(bits) = &info.public_key {
            let attached = bits.as_bytes().ok_or(KeyError::Invalid)?;
            // The derived key is public; the comparison is constant time all the same.
            if !bool::from(key.ek.as_bytes().as_slice().ct_eq(attached)) {
                return Err(KeyError::Invalid.into());
            }
        }
        Ok(key)
    }
}

impl TryFrom<SubjectPublicKeyInfoRef<'_>> for EncapsulationKey {
    type Error = spki::Error;

    fn try_from(info: SubjectPublicKeyInfoRef<'_>) -> Result<Self, spki::Error> {
        check_algorithm(&info.algorithm).map_err(|e| match e {
            AlgError::Oid(oid) => spki::Error::OidUnknown { oid },
            AlgError::Parameters => {
                spki::Error::Asn1(::pkcs8::der::Tag::Sequence.value_error().into())
            }
        })?;
        let bytes = info
            .subject_public_key
            .as_bytes()
            .ok_or(spki::Error::KeyMalformed)?;
        EncapsulationKey::from_bytes(bytes).map_err(|e| match e {
            Error::InvalidLength | Error::InvalidEncapsulationKey => spki::Error::KeyMalformed,
        })
    }
}

#[cfg(feature = "alloc")]
impl EncodePrivateKey for DecapsulationKey {
    /// The version 1 `OneAsymmetricKey`: the seed as the `privateKey` OCTET STRING (54 bytes).
    fn to_pkcs8_der(&self) -> ::pkcs8::Result<SecretDocument> {
        let info = PrivateKeyInfoRef::new(ALGORITHM_ID, OctetStringRef::new(self.as_bytes())?);
        Ok(SecretDocument::encode_msg(&info)?)
    }
}

#[cfg(feature = "alloc")]
impl EncodePublicKey for EncapsulationKey {
    /// The `SubjectPublicKeyInfo` with the raw key (1240 bytes).
    fn to_public_key_der(&self) -> spki::Result<Document> {
        let info = SubjectPublicKeyInfoRef {
            algorithm: ALGORITHM_ID,
            subject_public_key: BitStringRef::from_bytes(self.as_bytes())?,
        };
        Ok(Document::encode_msg(&info)?)
    }
}

#[cfg(feature = "alloc")]
impl EncodePublicKey for DecapsulationKey {
    /// The SPKI of this key's encapsulation key.
    fn to_public_key_der(&self) -> spki::Result<Document> {
        self.ek.to_public_key_der()
    }
}
