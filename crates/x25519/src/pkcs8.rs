//! PKCS#8 private keys and SPKI public keys for X25519 (RFC 8410): `id-X25519` (1.3.101.110)
//! with absent parameters, a private key `CurvePrivateKey ::= OCTET STRING` (32 bytes) inside the
//! `OneAsymmetricKey`'s `privateKey` OCTET STRING, and a public key as the 32 bytes of the
//! `subjectPublicKey` BIT STRING.
//!
//! Decoding is strict: another OID, present parameters, another length, unused bits in a BIT
//! STRING and trailing bytes are errors. A version 2 key with an attached public key is
//! accepted only if that key is the one derived from the private key (RFC 8410 section 7).
//! Attributes, which RFC 8410 allows, are ignored. Encoding writes version 1 (no public key),
//! the form OpenSSL writes.
#![forbid(unsafe_code)]

use ::pkcs8::der::{self, Decode, asn1::OctetStringRef};
use ::pkcs8::spki::{self, AlgorithmIdentifierRef, ObjectIdentifier, SubjectPublicKeyInfoRef};
use ::pkcs8::{KeyError, PrivateKeyInfoRef};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

#[cfg(feature = "alloc")]
use ::pkcs8::{
    Document, EncodePrivateKey, EncodePublicKey, SecretDocument, der::asn1::BitStringRef,
};

use crate::{PublicKey, StaticSecret};

/// `id-X25519` (RFC 8410 section 3): 1.3.101.110.
pub const ID_X25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.110");

/// The algorithm identifier of RFC 8410 section 3: `id-X25519`, parameters absent.
pub const ALGORITHM_ID: AlgorithmIdentifierRef<'static> = AlgorithmIdentifierRef {
    oid: ID_X25519,
    parameters: None,
};

/// The OID must be `id-X25519` and the parameters absent.
fn check_algorithm(alg: &AlgorithmIdentifierRef<'_>) -> Result<(), AlgError> {
    if alg.oid != ID_X25519 {
        return Err(AlgError::Oid(alg.oid));
    }
    if alg.parameters.is_some() {
        return Err(AlgError::Parameters);
    }
    Ok(())
}

/// Why an algorithm identifier was refused.
enum AlgError {
    Oid(ObjectIdentifier),
    Parameters,
}

/// The public key bits: a whole number of bytes (no unused bits), 32 of them.
fn public_key_bytes(bits: &der::asn1::BitStringRef<'_>) -> Option<[u8; 32]> {
    bits.as_bytes()?.try_into().ok()
}

impl TryFrom<PrivateKeyInfoRef<'_>> for StaticSecret {
    type Error = ::pkcs8::Error;

    fn try_from(info: PrivateKeyInfoRef<'_>) -> Result<Self, ::pkcs8::Error> {
        check_algorithm(&info.algorithm).map_err(|e| match e {
            AlgError::Oid(oid) => ::pkcs8::Error::PublicKey(spki::Error::OidUnknown { oid }),
            AlgError::Parameters => ::pkcs8::Error::ParametersMalformed,
        })?;
        // `CurvePrivateKey ::= OCTET STRING`, DER inside the outer OCTET STRING, nothing after.
        let inner = <&OctetStringRef>::from_der(info.private_key.as_bytes())?;
        let bytes: zeroize::Zeroizing<[u8; 32]> = match inner.as_bytes().len() {
            32 => {
                zeroize::Zeroizing::new(inner.as_bytes().try_into().map_err(|_| KeyError::Invalid)?)
            }
            n if n < 32 => return Err(KeyError::TooShort.into()),
            _ => return Err(KeyError::TooLong.into()),
        };
        let secret = StaticSecret::from(*bytes);
        if let Some(bits) = &info.public_key {
            let attached = public_key_bytes(bits).ok_or(KeyError::Invalid)?;
            let derived = PublicKey::from(&secret);
            // The derived key is public; the comparison is constant time all the same.
            if !bool::from(derived.0.ct_eq(&attached)) {
                return Err(KeyError::Invalid.into());
            }
        }
        Ok(secret)
    }
}

impl TryFrom<SubjectPublicKeyInfoRef<'_>> for PublicKey {
    type Error = spki::Error;

    fn try_from(info: SubjectPublicKeyInfoRef<'_>) -> Result<Self, spki::Error> {
        check_algorithm(&info.algorithm).map_err(|e| match e {
            AlgError::Oid(oid) => spki::Error::OidUnknown { oid },
            AlgError::Parameters => spki::Error::Asn1(der::Tag::Sequence.value_error().into()),
        })?;
        public_key_bytes(&info.subject_public_key)
            .map(PublicKey)
            .ok_or(spki::Error::KeyMalformed)
    }
}

#[cfg(feature = "alloc")]
impl EncodePrivateKey for StaticSecret {
    /// The version 1 `OneAsymmetricKey` of RFC 8410 section 7 (48 bytes).
    fn to_pkcs8_der(&self) -> ::pkcs8::Result<SecretDocument> {
        // `CurvePrivateKey`: OCTET STRING of length 32, written on the stack and wiped.
        let mut inner = Zeroizing::new([0u8; 34]);
        inner[0] = 0x04;
        inner[1] = 0x20;
        inner[2..].copy_from_slice(self.as_bytes());
        let info = PrivateKeyInfoRef::new(ALGORITHM_ID, OctetStringRef::new(&inner[..])?);
        Ok(SecretDocument::encode_msg(&info)?)
    }
}

#[cfg(feature = "alloc")]
impl EncodePublicKey for PublicKey {
    /// The `SubjectPublicKeyInfo` of RFC 8410 section 4 (44 bytes).
    fn to_public_key_der(&self) -> spki::Result<Document> {
        let info = SubjectPublicKeyInfoRef {
            algorithm: ALGORITHM_ID,
            subject_public_key: BitStringRef::from_bytes(&self.0)?,
        };
        Ok(Document::encode_msg(&info)?)
    }
}

#[cfg(feature = "alloc")]
impl EncodePublicKey for StaticSecret {
    /// The SPKI of this secret's public key.
    fn to_public_key_der(&self) -> spki::Result<Document> {
        PublicKey::from(self).to_public_key_der()
    }
}
