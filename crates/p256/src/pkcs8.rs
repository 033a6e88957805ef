//! The standard key encodings of P-256 (feature `pkcs8`; encoding also needs `alloc`, PEM
//! `pem`):
//!
//! - public keys as a `SubjectPublicKeyInfo` (RFC 5280 section 4.1, RFC 5480 section 2): the
//!   algorithm identifier `id-ecPublicKey` (1.2.840.10045.2.1) with the parameters
//!   `namedCurve prime256v1` (1.2.840.10045.3.1.7), the `subjectPublicKey` BIT STRING holding
//!   the SEC 1 point (section 2.3.3; compressed or uncompressed on input, uncompressed on
//!   output);
//! - private keys as PKCS#8 (RFC 5208, RFC 5958) with the same algorithm identifier, whose
//!   `privateKey` OCTET STRING holds an RFC 5915 (SEC 1 appendix C.4) `ECPrivateKey`:
//!
//! ```text
//! ECPrivateKey ::= SEQUENCE {
//!   version        INTEGER { ecPrivkeyVer1(1) },
//!   privateKey     OCTET STRING,                      -- 32 bytes, d in [1, n - 1]
//!   parameters [0] EXPLICIT ECParameters OPTIONAL,    -- namedCurve prime256v1 only
//!   publicKey  [1] EXPLICIT BIT STRING OPTIONAL }     -- the SEC 1 point d G
//! ```
//!
//! - the `ECPrivateKey` alone (the `EC PRIVATE KEY` PEM label), by
//!   [`SecretKey::from_sec1_der`] / [`SecretKey::to_sec1_der`].
//!
//! Decoding is strict: another algorithm or curve (or parameters that are not a named curve),
//! missing parameters in an algorithm identifier, another `ECPrivateKey` version, a private key
//! other than 32 bytes or outside `[1, n - 1]`, a BIT STRING with unused bits, a point that
//! fails SEC 1 validation, and trailing bytes are errors ([`KeyEncodingError`]). An attached
//! public key (the `ECPrivateKey`'s `[1]`, or the `OneAsymmetricKey`'s `publicKey` of a version
//! 2 PKCS#8 document) must be `d G` ([`KeyEncodingError::PublicKeyMismatch`] otherwise).
//! Attributes of a PKCS#8 document are ignored.
//!
//! Encoding writes what OpenSSL writes: PKCS#8 version 1 with an `ECPrivateKey` carrying the
//! `[1]` public key and no `[0]` parameters (they are in the algorithm identifier), and a
//! standalone `ECPrivateKey` carrying both. Buffers that hold `d` are wiped.
#![forbid(unsafe_code)]

use ::pkcs8::der::asn1::{AnyRef, BitStringRef, ContextSpecific, OctetStringRef};
use ::pkcs8::der::{self, Decode, Reader, SliceReader, Tag, TagNumber, Tagged};
use ::pkcs8::spki::{self, AlgorithmIdentifierRef, ObjectIdentifier, SubjectPublicKeyInfoRef};
use ::pkcs8::{KeyError, PrivateKeyInfoRef};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

#[cfg(feature = "alloc")]
use ::pkcs8::{Document, EncodePrivateKey, EncodePublicKey, SecretDocument};

use crate::{PublicKey, SecretKey};

/// `id-ecPublicKey` (RFC 5480 section 2.1.1): 1.2.840.10045.2.1.
pub const ID_EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");

/// `secp256r1` / `prime256v1` (RFC 5480 section 2.1.1.1): 1.2.840.10045.3.1.7.
pub const SECP256R1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.3.1.7");

/// The contents octets of [`SECP256R1`].
const SECP256R1_DER: [u8; 8] = [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];

/// The algorithm identifier of RFC 5480 section 2.1.1: `id-ecPublicKey` with the parameters
/// `namedCurve secp256r1`.
pub const ALGORITHM_ID: AlgorithmIdentifierRef<'static> = AlgorithmIdentifierRef {
    oid: ID_EC_PUBLIC_KEY,
    parameters: Some(match AnyRef::new(Tag::ObjectIdentifier, &SECP256R1_DER) {
        Ok(a) => a,
        Err(_) => panic!("the OID's contents are short"),
    }),
};

/// The PEM label of a standalone `ECPrivateKey` (RFC 5915 section 4).
pub const SEC1_PEM_LABEL: &str = "EC PRIVATE KEY";

/// Why a PKCS#8 private key, SPKI public key or SEC 1 `ECPrivateKey` was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyEncodingError {
    /// Not DER of the expected structure: truncated, trailing bytes, wrong tags, non-minimal
    /// lengths, ...
    Der(der::Error),
    /// The algorithm identifier names another algorithm than `id-ecPublicKey`.
    WrongAlgorithm(ObjectIdentifier),
    /// The named curve is another curve than P-256 (`prime256v1`).
    WrongCurve(ObjectIdentifier),
    /// An algorithm identifier without the curve parameters.
    ParametersMissing,
    /// Curve parameters that are not a named curve (`implicitCurve`, `specifiedCurve`, ...).
    ParametersMalformed,
    /// An `ECPrivateKey` whose version is not 1.
    WrongVersion,
    /// A private key other than 32 bytes, or a BIT STRING with unused bits.
    InvalidLength,
    /// The private scalar or the public point is invalid (the reason is the crate's
    /// [`crate::Error`]: [`crate::Error::ScalarOutOfRange`], [`crate::Error::NotOnCurve`], ...).
    InvalidKey(crate::Error),
    /// The attached public key is not the one of the private key.
    PublicKeyMismatch,
    /// A PEM document with another label than [`SEC1_PEM_LABEL`].
    WrongLabel,
}

impl core::fmt::Display for KeyEncodingError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Der(e) => write!(f, "P-256 key encoding: {e}"),
            Self::WrongAlgorithm(oid) => write!(f, "not an EC key (algorithm {oid})"),
            Self::WrongCurve(oid) => write!(f, "not a P-256 key (curve {oid})"),
            Self::ParametersMissing => f.write_str("EC algorithm identifier without its curve"),
            Self::ParametersMalformed => f.write_str("EC parameters are not a named curve"),
            Self::WrongVersion => f.write_str("ECPrivateKey version is not 1"),
            Self::InvalidLength => f.write_str("P-256 key of the wrong length"),
            Self::InvalidKey(e) => write!(f, "invalid P-256 key: {e}"),
            Self::PublicKeyMismatch => {
                f.write_str("P-256 private key: public key does not match the private key")
            }
            Self::WrongLabel => f.write_str("PEM label is not EC PRIVATE KEY"),
        }
    }
}

impl core::error::Error for KeyEncodingError {}

impl From<der::Error> for KeyEncodingError {
    fn from(e: der::Error) -> Self {
        Self::Der(e)
    }
}

impl From<KeyEncodingError> for ::pkcs8::Error {
    fn from(e: KeyEncodingError) -> Self {
        match e {
            KeyEncodingError::Der(e) => ::pkcs8::Error::Asn1(e),
            KeyEncodingError::WrongAlgorithm(oid) => {
                ::pkcs8::Error::PublicKey(spki::Error::OidUnknown { oid })
            }
            KeyEncodingError::WrongCurve(_)
            | KeyEncodingError::ParametersMissing
            | KeyEncodingError::ParametersMalformed => ::pkcs8::Error::ParametersMalformed,
            KeyEncodingError::WrongVersion
            | KeyEncodingError::InvalidLength
            | KeyEncodingError::InvalidKey(_)
            | KeyEncodingError::PublicKeyMismatch
            | KeyEncodingError::WrongLabel => ::pkcs8::Error::KeyMalformed(KeyError::Invalid),
        }
    }
}

impl From<KeyEncodingError> for spki::Error {
    fn from(e: KeyEncodingError) -> Self {
        match e {
            KeyEncodingError::Der(e) => spki::Error::Asn1(e),
            KeyEncodingError::WrongAlgorithm(oid) | KeyEncodingError::WrongCurve(oid) => {
                spki::Error::OidUnknown { oid }
            }
            KeyEncodingError::ParametersMissing => spki::Error::AlgorithmParametersMissing,
            _ => spki::Error::KeyMalformed,
        }
    }
}

/// ECParameters (RFC 5480 section 2.1.1): must be `namedCurve prime256v1`.
fn check_curve(params: AnyRef<'_>) -> Result<(), KeyEncodingError> {
    if params.tag() != Tag::ObjectIdentifier {
        return Err(KeyEncodingError::ParametersMalformed);
    }
    let oid = params.decode_as::<ObjectIdentifier>()?;
    if oid != SECP256R1 {
        return Err(KeyEncodingError::WrongCurve(oid));
    }
    Ok(())
}

/// The algorithm identifier must be `id-ecPublicKey` with `namedCurve prime256v1`.
fn check_algorithm(alg: &AlgorithmIdentifierRef<'_>) -> Result<(), KeyEncodingError> {
    if alg.oid != ID_EC_PUBLIC_KEY {
        return Err(KeyEncodingError::WrongAlgorithm(alg.oid));
    }
    check_curve(alg.parameters.ok_or(KeyEncodingError::ParametersMissing)?)
}

/// The SEC 1 point of a BIT STRING (a whole number of bytes), validated.
fn point_of(bits: &BitStringRef<'_>) -> Result<PublicKey, KeyEncodingError> {
    let bytes = bits.as_bytes().ok_or(KeyEncodingError::InvalidLength)?;
    PublicKey::from_sec1_bytes(bytes).map_err(KeyEncodingError::InvalidKey)
}

/// An attached public key must be `d G` (compared on the uncompressed encodings; the derived
/// key is public, the comparison constant time all the same).
fn check_public(secret: &SecretKey, bits: &BitStringRef<'_>) -> Result<(), KeyEncodingError> {
    let attached = point_of(bits)?;
    let derived = secret.public_key();
    if !bool::from(derived.to_uncompressed().ct_eq(&attached.to_uncompressed())) {
        return Err(KeyEncodingError::PublicKeyMismatch);
    }
    Ok(())
}

/// Parses a DER `ECPrivateKey` (RFC 5915), nothing after it.
fn parse_ec_private_key(der: &[u8]) -> Result<SecretKey, KeyEncodingError> {
    let mut r = SliceReader::new(der)?;
    let key = r.sequence(|r| {
        let version = r.decode::<i64>()?;
        if version != 1 {
            return Err(KeyEncodingError::WrongVersion);
        }
        let d = r.decode::<&OctetStringRef>()?;
        let params = ContextSpecific::<AnyRef<'_>>::decode_explicit(r, TagNumber(0))?;
        let public = ContextSpecific::<BitStringRef<'_>>::decode_explicit(r, TagNumber(1))?;
        if let Some(p) = params {
            check_curve(p.value)?;
        }
        let d: Zeroizing<[u8; 32]> = Zeroizing::new(
            d.as_bytes()
                .try_into()
                .map_err(|_| KeyEncodingError::InvalidLength)?,
        );
        let secret = SecretKey::from_bytes(&d).map_err(KeyEncodingError::InvalidKey)?;
        if let Some(p) = public {
            check_public(&secret, &p.value)?;
        }
        Ok(secret)
    })?;
    r.finish()?;
    Ok(key)
}

/// The length of a standalone `ECPrivateKey` with `[0]` and `[1]`.
const SEC1_LEN: usize = 121;
/// The length of an `ECPrivateKey` with `[1]` only (inside PKCS#8).
const SEC1_NO_PARAMS_LEN: usize = 109;

/// Writes the DER `ECPrivateKey` of `secret` into `out` (which is [`SEC1_LEN`] bytes with
/// `params`, else [`SEC1_NO_PARAMS_LEN`]): version 1, `d`, `[0] prime256v1` if `params`,
/// `[1]` the uncompressed public key.
#[cfg_attr(not(feature = "alloc"), allow(dead_code))]
fn write_ec_private_key(secret: &SecretKey, params: bool, out: &mut [u8]) {
    let body = if params { SEC1_LEN } else { SEC1_NO_PARAMS_LEN } - 2;
    let mut i = 0;
    let mut put = |b: &[u8]| {
        out[i..i + b.len()].copy_from_slice(b);
        i += b.len();
    };
    put(&[0x30, body as u8, 0x02, 0x01, 0x01, 0x04, 0x20]);
    let d = Zeroizing::new(secret.to_bytes());
    put(&d[..]);
    if params {
        put(&[0xa0, 0x0a, 0x06, 0x08]);
        put(&SECP256R1_DER);
    }
    put(&[0xa1, 0x44, 0x03, 0x42, 0x00]);
    put(&secret.public_key().to_uncompressed());
}

impl SecretKey {
    /// Parses a PKCS#8 private key (DER), with the typed error.
    pub fn try_from_pkcs8_der(der: &[u8]) -> Result<Self, KeyEncodingError> {
        Self::try_from_private_key_info(PrivateKeyInfoRef::from_der(der)?)
    }

    /// The key of a parsed PKCS#8 `PrivateKeyInfo` / `OneAsymmetricKey`, with the typed error
    /// (the rules of the module documentation).
    pub fn try_from_private_key_info(
        info: PrivateKeyInfoRef<'_>,
    ) -> Result<Self, KeyEncodingError> {
        check_algorithm(&info.algorithm)?;
        let secret = parse_ec_private_key(info.private_key.as_bytes())?;
        if let Some(bits) = &info.public_key {
            check_public(&secret, bits)?;
        }
        Ok(secret)
    }

    /// Parses a SEC 1 `ECPrivateKey` (RFC 5915, DER; the contents of an `EC PRIVATE KEY` PEM
    /// document). Parameters, when present, must be `prime256v1`.
    pub fn from_sec1_der(der: &[u8]) -> Result<Self, KeyEncodingError> {
        parse_ec_private_key(der)
    }

    /// The SEC 1 `ECPrivateKey` (DER, 121 bytes) with the `[0]` parameters and the `[1]`
    /// public key, as `openssl ec -outform DER` writes it.
    #[cfg(feature = "alloc")]
    pub fn to_sec1_der(&self) -> Result<SecretDocument, der::Error> {
        let mut buf = Zeroizing::new([0u8; SEC1_LEN]);
        write_ec_private_key(self, true, &mut buf[..]);
        SecretDocument::try_from(&buf[..])
    }

    /// Parses a PEM `EC PRIVATE KEY` document ([`SecretKey::from_sec1_der`] of its contents).
    #[cfg(feature = "pem")]
    pub fn from_sec1_pem(pem: &str) -> Result<Self, KeyEncodingError> {
        let (label, doc) = SecretDocument::from_pem(pem)?;
        if label != SEC1_PEM_LABEL {
            return Err(KeyEncodingError::WrongLabel);
        }
        Self::from_sec1_der(doc.as_bytes())
    }

    /// The PEM `EC PRIVATE KEY` document of [`SecretKey::to_sec1_der`].
    #[cfg(feature = "pem")]
    pub fn to_sec1_pem(
        &self,
        line_ending: der::pem::LineEnding,
    ) -> Result<Zeroizing<alloc::string::String>, der::Error> {
        self.to_sec1_der()?.to_pem(SEC1_PEM_LABEL, line_ending)
    }
}

impl PublicKey {
    /// Parses an SPKI public key (DER), with the typed error.
    pub fn try_from_spki_der(der: &[u8]) -> Result<Self, KeyEncodingError> {
        Self::try_from_spki(SubjectPublicKeyInfoRef::from_der(der)?)
    }

    /// The key of a parsed SPKI, with the typed error.
    pub fn try_from_spki(spki: SubjectPublicKeyInfoRef<'_>) -> Result<Self, KeyEncodingError> {
        check_algorithm(&spki.algorithm)?;
        point_of(&spki.subject_public_key)
    }
}

impl TryFrom<PrivateKeyInfoRef<'_>> for SecretKey {
    type Error = ::pkcs8::Error;

    fn try_from(info: PrivateKeyInfoRef<'_>) -> Result<Self, ::pkcs8::Error> {
        Ok(Self::try_from_private_key_info(info)?)
    }
}

impl TryFrom<SubjectPublicKeyInfoRef<'_>> for PublicKey {
    type Error = spki::Error;

    fn try_from(info: SubjectPublicKeyInfoRef<'_>) -> Result<Self, spki::Error> {
        Ok(Self::try_from_spki(info)?)
    }
}

#[cfg(feature = "alloc")]
impl EncodePrivateKey for SecretKey {
    /// PKCS#8 version 1 whose `ECPrivateKey` carries the `[1]` public key (138 bytes).
    fn to_pkcs8_der(&self) -> ::pkcs8::Result<SecretDocument> {
        let mut inner = Zeroizing::new([0u8; SEC1_NO_PARAMS_LEN]);
        write_ec_private_key(self, false, &mut inner[..]);
        let info = PrivateKeyInfoRef::new(ALGORITHM_ID, OctetStringRef::new(&inner[..])?);
        Ok(SecretDocument::encode_msg(&info)?)
    }
}

#[cfg(feature = "alloc")]
impl EncodePublicKey for PublicKey {
    /// The `SubjectPublicKeyInfo` with the uncompressed point (91 bytes).
    fn to_public_key_der(&self) -> spki::Result<Document> {
        let point = self.to_uncompressed();
        let info = SubjectPublicKeyInfoRef {
            algorithm: ALGORITHM_ID,
            subject_public_key: BitStringRef::from_bytes(&point)?,
        };
        Ok(Document::encode_msg(&info)?)
    }
}

#[cfg(feature = "alloc")]
impl EncodePublicKey for SecretKey {
    /// The SPKI of this secret's public key.
    fn to_public_key_der(&self) -> spki::Result<Document> {
        self.public_key().to_public_key_der()
    }
}
