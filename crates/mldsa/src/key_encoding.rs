//! PKCS#8 private keys and SPKI public keys on the types of [`crate::ml_dsa`] (feature `pkcs8`; encoding with `alloc`, PEM with
//! `pem`) as RFC 9881 (X.509 algorithm identifiers for ML-DSA) defines them:
//!
//! - AlgorithmIdentifier: id-ml-dsa-44 / 65 / 87 (2.16.840.1.101.3.4.3.17 / 18 / 19), parameters
//!   absent.
//! - Public key: the SPKI BIT STRING is pk (pkEncode), no unused bits.
//! - Private key: the PKCS#8 privateKey OCTET STRING holds the DER of
//!   `ML-DSA-PrivateKey ::= CHOICE { seed [0] IMPLICIT OCTET STRING (SIZE (32)),
//!   expandedKey OCTET STRING, both SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING } }`.
//!   Encoding writes the seed form. Decoding accepts the seed form, and the `both` form only
//!   when its expanded key equals the one the seed gives (compared in constant time), as
//!   RFC 9881 section 8 asks; the expanded-only form is rejected (a key without its seed
//!   cannot be checked and is not what this crate stores as the private key).
//!
//! Errors, all typed (`pkcs8::Error` / `spki::Error`), never a panic:
//!
//! | input | error |
//! |---|---|
//! | another algorithm's OID | `PublicKey(OidUnknown)` / `OidUnknown` |
//! | parameters present | `ParametersMalformed` / `KeyMalformed` |
//! | expanded-only private key | `Asn1` (tag unexpected: the seed form's `[0]` expected) |
//! | seed of the wrong length | `KeyMalformed(TooShort / TooLong)` |
//! | expanded key of the wrong length or not matching the seed, public key (PKCS#8 v2) not matching | `KeyMalformed(Invalid)` |
//! | public key of the wrong length or with unused bits | `KeyMalformed` |
//! | malformed DER, trailing bytes (outside or inside the privateKey OCTET STRING) | `Asn1` |
//!
#![forbid(unsafe_code)]

use pkcs8::der::asn1::{AnyRef, ObjectIdentifier, OctetStringRef};
use pkcs8::der::{Decode, Header, Reader, SliceReader, Tag, TagNumber};
use pkcs8::spki::{
    self, AlgorithmIdentifier, AlgorithmIdentifierRef, AssociatedAlgorithmIdentifier,
    SignatureAlgorithmIdentifier, SubjectPublicKeyInfoRef,
};
use pkcs8::{KeyError, PrivateKeyInfoRef};
use subtle::ConstantTimeEq;

use crate::generic::{self, MlDsa44, MlDsa65, MlDsa87, ParameterSet};
use crate::ml_dsa::{Signature, SigningKey, VerifyingKey};
use crate::params::SEED_LEN;

/// id-ml-dsa-44, -65, -87 by the last arc of `P`.
const fn oid_of<P: ParameterSet>() -> ObjectIdentifier {
    match P::OID_ARC {
        17 => ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.3.17"),
        18 => ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.3.18"),
        _ => ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.3.19"),
    }
}

/// The AlgorithmIdentifier of `P`: its OID, parameters absent.
const fn algorithm_of<P: ParameterSet>() -> AlgorithmIdentifierRef<'static> {
    AlgorithmIdentifierRef {
        oid: oid_of::<P>(),
        parameters: None,
    }
}

macro_rules! associated_algorithm {
    ($($set:ty),*) => {$(
        /// id-ml-dsa-* of RFC 9881, parameters absent.
        impl AssociatedAlgorithmIdentifier for $set {
            type Params = AnyRef<'static>;
            const ALGORITHM_IDENTIFIER: AlgorithmIdentifierRef<'static> = algorithm_of::<$set>();
        }
    )*};
}
associated_algorithm!(MlDsa44, MlDsa65, MlDsa87);

/// The signature algorithm of `P` (id-ml-dsa-*, parameters absent).
impl<P: ParameterSet> AssociatedAlgorithmIdentifier for Signature<P> {
    type Params = AnyRef<'static>;
    const ALGORITHM_IDENTIFIER: AlgorithmIdentifierRef<'static> = algorithm_of::<P>();
}

/// The signature algorithm this key signs with (id-ml-dsa-*, parameters absent).
impl<P: ParameterSet> SignatureAlgorithmIdentifier for SigningKey<P> {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmIdentifier<AnyRef<'static>> =
        algorithm_of::<P>();
}

/// The signature algorithm this key verifies (id-ml-dsa-*, parameters absent).
impl<P: ParameterSet> SignatureAlgorithmIdentifier for VerifyingKey<P> {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmIdentifier<AnyRef<'static>> =
        algorithm_of::<P>();
}

/// The signature as an X.509 signatureValue BIT STRING (no unused bits).
#[cfg(feature = "alloc")]
impl<P: ParameterSet> spki::SignatureBitStringEncoding for Signature<P> {
    fn to_bitstring(&self) -> pkcs8::der::Result<pkcs8::der::asn1::BitString> {
        pkcs8::der::asn1::BitString::new(0, alloc::vec::Vec::from(self.encode().as_ref()))
    }
}

/// The OID and the absent parameters of a private key's AlgorithmIdentifier.
fn check_algorithm<P: ParameterSet>(alg: &AlgorithmIdentifierRef<'_>) -> spki::Result<()> {
    alg.assert_algorithm_oid(oid_of::<P>())?;
    Ok(())
}

/// Decoding of a PKCS#8 `PrivateKeyInfo` / `OneAsymmetricKey` (RFC 9881 section 6): the seed
/// form, or the `both` form when consistent; see the module documentation for the errors.
impl<P: ParameterSet> TryFrom<PrivateKeyInfoRef<'_>> for SigningKey<P> {
    type Error = pkcs8::Error;

    fn try_from(info: PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        check_algorithm::<P>(&info.algorithm)?;
        if info.algorithm.parameters.is_some() {
            return Err(pkcs8::Error::ParametersMalformed);
        }
        let sk = parse_private_key::<P>(info.private_key.as_bytes())?;
        if let Some(pk) = info.public_key {
            let ours = sk.verifying_key().to_bytes();
            if pk.as_bytes() != Some(ours.as_ref()) {
                return Err(KeyError::Invalid.into());
            }
        }
        // The parser builds keys from their seed only.
        SigningKey::try_from(sk).map_err(|_| KeyError::Invalid.into())
    }
}

/// The seed of a seed string's contents (exactly [`SEED_LEN`] bytes).
fn seed_of(bytes: &[u8]) -> pkcs8::Result<&[u8; SEED_LEN]> {
    match bytes.len() {
        SEED_LEN => Ok(bytes.try_into().map_err(|_| KeyError::Invalid)?),
        n if n < SEED_LEN => Err(KeyError::TooShort.into()),
        _ => Err(KeyError::TooLong.into()),
    }
}

/// `ML-DSA-PrivateKey` (the contents of the privateKey OCTET STRING), DER, nothing after it.
fn parse_private_key<P: ParameterSet>(der: &[u8]) -> pkcs8::Result<generic::SigningKey<P>> {
    let mut r = SliceReader::new(der)?;
    let header = Header::decode(&mut r)?;
    let body = r.read_slice(header.length())?;
    r.finish()?;
    let seed_tag = Tag::ContextSpecific {
        constructed: false,
        number: TagNumber(0),
    };
    match header.tag() {
        t if t == seed_tag => Ok(generic::SigningKey::from_seed(seed_of(body)?)),
        Tag::Sequence => {
            let mut r = SliceReader::new(body)?;
            let seed = <&OctetStringRef>::decode(&mut r)?;
            let expanded = <&OctetStringRef>::decode(&mut r)?;
            r.finish()?;
            let sk = generic::SigningKey::<P>::from_seed(seed_of(seed.as_bytes())?);
            // The expanded signing key is secret: wiped when the check is done.
            let ours = zeroize::Zeroizing::new(sk.to_expanded_bytes());
            let theirs = expanded.as_bytes();
            // Lengths are public; the contents are compared in constant time.
            if theirs.len() == P::SK_LEN && bool::from(ours.as_ref().ct_eq(theirs)) {
                Ok(sk)
            } else {
                Err(KeyError::Invalid.into())
            }
        }
        actual => Err(pkcs8::der::ErrorKind::TagUnexpected {
            expected: Some(seed_tag),
            actual,
        }
        .into()),
    }
}

/// Encoding as a PKCS#8 v1 `PrivateKeyInfo` with the seed form of RFC 9881.
#[cfg(feature = "alloc")]
impl<P: ParameterSet> pkcs8::EncodePrivateKey for SigningKey<P> {
    fn to_pkcs8_der(&self) -> pkcs8::Result<pkcs8::der::SecretDocument> {
        let seed: &[u8; SEED_LEN] = self.as_seed().into();
        // [0] IMPLICIT OCTET STRING (SIZE (32)): tag 0x80, length 32, the seed; on the stack
        // and wiped after use (the document itself is a zeroizing SecretDocument).
        let mut inner = [0u8; 2 + SEED_LEN];
        inner[0] = 0x80;
        inner[1] = 0x20;
        inner[2..].copy_from_slice(seed);
        let r = OctetStringRef::new(&inner)
            .map_err(pkcs8::Error::from)
            .and_then(|key| {
                let info = PrivateKeyInfoRef::new(algorithm_of::<P>(), key);
                pkcs8::der::SecretDocument::encode_msg(&info).map_err(pkcs8::Error::from)
            });
        zeroize::Zeroize::zeroize(&mut inner);
        r
    }
}

/// Decoding of an SPKI: the OID of `P`, parameters absent, a BIT STRING of `PK_LEN` bytes
/// without unused bits.
impl<P: ParameterSet> TryFrom<SubjectPublicKeyInfoRef<'_>> for VerifyingKey<P> {
    type Error = spki::Error;

    fn try_from(info: SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        check_algorithm::<P>(&info.algorithm)?;
        if info.algorithm.parameters.is_some() {
            return Err(spki::Error::KeyMalformed);
        }
        let pk = info
            .subject_public_key
            .as_bytes()
            .ok_or(spki::Error::KeyMalformed)?;
        generic::VerifyingKey::from_bytes(pk)
            .map(VerifyingKey::from)
            .map_err(|_| spki::Error::KeyMalformed)
    }
}

/// Encoding as an SPKI (RFC 9881 section 5).
#[cfg(feature = "alloc")]
impl<P: ParameterSet> spki::EncodePublicKey for VerifyingKey<P> {
    fn to_public_key_der(&self) -> spki::Result<pkcs8::der::Document> {
        let pk = self.encode();
        let info = SubjectPublicKeyInfoRef {
            algorithm: algorithm_of::<P>(),
            subject_public_key: pkcs8::der::asn1::BitStringRef::new(0, pk.as_ref())?,
        };
        pkcs8::der::Document::try_from(info)
    }
}
