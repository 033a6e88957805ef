//! Signing keys: loading private keys for certificates ([`KEY_PROVIDER`]).
//!
//! | key | encodings | implementation | TLS schemes (in order of preference) |
//! |---|---|---|---|
//! | ECDSA P-256 | PKCS#8, SEC 1 `ECPrivateKey` | `tessera-p256`, hedged RFC 6979 nonces (section 3.6), DER signatures | `ecdsa_secp256r1_sha256` |
//! | ECDSA P-384 | PKCS#8, SEC 1 | RustCrypto `p384` 0.14, hedged nonces, SHA-384 by `tessera-sha2` | `ecdsa_secp384r1_sha384` |
//! | Ed25519 | PKCS#8 (RFC 8410) | `ed25519-dalek` 3 | `ed25519` |
//! | RSA, 2048 to 4096 bits | PKCS#1, PKCS#8 | RustCrypto `rsa` 0.10 (blinded) over `tessera-sha2` | `rsa_pss_rsae_sha512`, `_sha384`, `_sha256`, `rsa_pkcs1_sha512`, `_sha384`, `_sha256` |
//! | ML-DSA-44/65/87 | PKCS#8 seed form (RFC 9881) | `tessera-mldsa`, hedged, empty context | `mldsa44`, `mldsa65`, `mldsa87` |
//!
//! The RSA order is that of rustls' own providers (PSS before PKCS#1 v1.5, the longer hash
//! first). Another key type, an unknown curve or a malformed encoding is
//! [`rustls::Error::General`] naming what was refused; nothing panics. The keys wipe their
//! secrets on drop (the crates' own `ZeroizeOnDrop`), and the DER the key was loaded from is
//! wiped when loading returns.
#![forbid(unsafe_code)]

use alloc::boxed::Box;
use alloc::format;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use rsa::traits::PublicKeyParts;
use rustls::crypto::KeyProvider;
use rustls::pki_types::{PrivateKeyDer, SubjectPublicKeyInfoDer, alg_id};
use rustls::sign::{Signer, SigningKey, public_key_to_spki};
use rustls::{Error, SignatureAlgorithm, SignatureScheme};
use tessera_mldsa::generic::{self as mldsa, MlDsa44, MlDsa65, MlDsa87, ParameterSet};
use tessera_mldsa::pkcs8::PrivateKeyInfoRef;
use tessera_mldsa::pkcs8::der::Decode;
use tessera_mldsa::pkcs8::der::asn1::ObjectIdentifier;

use crate::verify::{Hash, RSA_MAX_BITS, RSA_MIN_BITS};

/// The key types held here wipe their secrets on drop (checked at compile time; the ML-DSA
/// signing key's secret part wipes itself in its `Drop`, the same part
/// `tessera_mldsa::ml_dsa::SigningKey` declares `ZeroizeOnDrop` for).
const _: () = {
    fn wiped<T: zeroize::ZeroizeOnDrop>() {}
    #[allow(dead_code)]
    fn check() {
        wiped::<tessera_p256::ecdsa::SigningKey>();
        wiped::<p384::ecdsa::SigningKey>();
        wiped::<ed25519_dalek::SigningKey>();
        wiped::<rsa::PrivateKey>();
        wiped::<tessera_mldsa::ml_dsa::SigningKey<MlDsa65>>();
    }
};

/// Loads PKCS#8 / SEC 1 / PKCS#1 private keys.
#[derive(Debug)]
struct Keys;

/// The key provider of [`crate::provider`].
pub static KEY_PROVIDER: &dyn KeyProvider = &Keys;

const ID_EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const SECP256R1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.3.1.7");
const SECP384R1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.132.0.34");
const ID_ED25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");
const RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
const ID_ML_DSA_44: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.3.17");
const ID_ML_DSA_65: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.3.18");
const ID_ML_DSA_87: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.3.19");

impl KeyProvider for Keys {
    fn load_private_key(
        &self,
        key_der: PrivateKeyDer<'static>,
    ) -> Result<Arc<dyn SigningKey>, Error> {
        // The encoding holds the secret: wiped however loading ends.
        let key_der = zeroize::Zeroizing::new(key_der);
        match &*key_der {
            PrivateKeyDer::Pkcs8(der) => load_pkcs8(der.secret_pkcs8_der()),
            PrivateKeyDer::Sec1(der) => load_sec1(der.secret_sec1_der()),
            PrivateKeyDer::Pkcs1(der) => {
                use rsa::pkcs1::DecodeRsaPrivateKey;
                let key = rsa::PrivateKey::from_pkcs1_der(der.secret_pkcs1_der())
                    .map_err(|e| general(format!("RSA PKCS#1 private key refused: {e}")))?;
                RsaKey::load(key)
            }
            _ => Err(general("unsupported private key encoding".into())),
        }
    }

    fn fips(&self) -> bool {
        false
    }
}

fn general(msg: alloc::string::String) -> Error {
    Error::General(msg)
}

/// A PKCS#8 `PrivateKeyInfo` / `OneAsymmetricKey`, dispatched on its algorithm identifier.
fn load_pkcs8(der: &[u8]) -> Result<Arc<dyn SigningKey>, Error> {
    let info = PrivateKeyInfoRef::from_der(der)
        .map_err(|e| general(format!("PKCS#8 private key refused: {e}")))?;
    let oid = info.algorithm.oid;
    if oid == ID_EC_PUBLIC_KEY {
        let curve = info
            .algorithm
            .parameters_oid()
            .map_err(|_| general("EC private key without a named curve".into()))?;
        if curve == SECP256R1 {
            let secret = tessera_p256::SecretKey::try_from_private_key_info(info)
                .map_err(|e| general(format!("P-256 private key refused: {e}")))?;
            Ok(Arc::new(P256Key::new(secret)))
        } else if curve == SECP384R1 {
            use p384::pkcs8::DecodePrivateKey;
            let secret = p384::SecretKey::from_pkcs8_der(der)
                .map_err(|e| general(format!("P-384 private key refused: {e}")))?;
            Ok(Arc::new(P384Key::new(secret)))
        } else {
            Err(general(format!("unsupported elliptic curve {curve}")))
        }
    } else if oid == ID_ED25519 {
        use ed25519_dalek::pkcs8::DecodePrivateKey;
        let key = ed25519_dalek::SigningKey::from_pkcs8_der(der)
            .map_err(|e| general(format!("Ed25519 private key refused: {e}")))?;
        Ok(Arc::new(Ed25519Key(Arc::new(key))))
    } else if oid == RSA_ENCRYPTION {
        use rsa::pkcs8::DecodePrivateKey;
        let key = rsa::PrivateKey::from_pkcs8_der(der)
            .map_err(|e| general(format!("RSA PKCS#8 private key refused: {e}")))?;
        RsaKey::load(key)
    } else if oid == ID_ML_DSA_44 {
        MlDsaKey::<MlDsa44>::load(info, SignatureScheme::ML_DSA_44)
    } else if oid == ID_ML_DSA_65 {
        MlDsaKey::<MlDsa65>::load(info, SignatureScheme::ML_DSA_65)
    } else if oid == ID_ML_DSA_87 {
        MlDsaKey::<MlDsa87>::load(info, SignatureScheme::ML_DSA_87)
    } else {
        Err(general(format!("unsupported private key algorithm {oid}")))
    }
}

/// A SEC 1 `ECPrivateKey`: P-256, else P-384 (the curve is in its parameters, or its length).
fn load_sec1(der: &[u8]) -> Result<Arc<dyn SigningKey>, Error> {
    if let Ok(secret) = tessera_p256::SecretKey::from_sec1_der(der) {
        return Ok(Arc::new(P256Key::new(secret)));
    }
    match p384::SecretKey::from_sec1_der(der) {
        Ok(secret) => Ok(Arc::new(P384Key::new(secret))),
        Err(_) => Err(general(
            "SEC 1 private key refused (not a valid P-256 or P-384 ECPrivateKey)".into(),
        )),
    }
}

/// Operating-system randomness as a `rand_core` 0.10 generator (for hedged signatures, RSA
/// salts and blinding).
struct OsRng;

impl rand_core::TryRng for OsRng {
    type Error = getrandom::Error;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        getrandom::fill(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        getrandom::fill(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        getrandom::fill(dst)
    }
}

impl rand_core::TryCryptoRng for OsRng {}

/// Picks `scheme` if it was offered.
fn offered_one(
    offered: &[SignatureScheme],
    scheme: SignatureScheme,
    signer: impl FnOnce() -> Box<dyn Signer>,
) -> Option<Box<dyn Signer>> {
    offered.contains(&scheme).then(signer)
}

// ---------------------------------------------------------------- P-256

/// An ECDSA P-256 key (`tessera-p256`).
struct P256Key(Arc<tessera_p256::ecdsa::SigningKey>);

impl P256Key {
    fn new(secret: tessera_p256::SecretKey) -> Self {
        Self(Arc::new(tessera_p256::ecdsa::SigningKey::from(secret)))
    }
}

impl fmt::Debug for P256Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("P256Key { scheme: ECDSA_NISTP256_SHA256 }")
    }
}

impl SigningKey for P256Key {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        offered_one(offered, SignatureScheme::ECDSA_NISTP256_SHA256, || {
            Box::new(P256Signer(self.0.clone()))
        })
    }

    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        Some(public_key_to_spki(
            &alg_id::ECDSA_P256,
            self.0.verifying_key().to_uncompressed(),
        ))
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::ECDSA
    }
}

struct P256Signer(Arc<tessera_p256::ecdsa::SigningKey>);

impl fmt::Debug for P256Signer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("P256Signer { scheme: ECDSA_NISTP256_SHA256 }")
    }
}

impl Signer for P256Signer {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        let sig = self
            .0
            .try_sign_with_rng(&mut OsRng, message)
            .map_err(|_| Error::FailedToGetRandomBytes)?;
        Ok(sig.to_der().as_bytes().to_vec())
    }

    fn scheme(&self) -> SignatureScheme {
        SignatureScheme::ECDSA_NISTP256_SHA256
    }
}

// ---------------------------------------------------------------- P-384

/// An ECDSA P-384 key (RustCrypto `p384`).
struct P384Key(Arc<p384::ecdsa::SigningKey>);

impl P384Key {
    fn new(secret: p384::SecretKey) -> Self {
        Self(Arc::new(p384::ecdsa::SigningKey::from(secret)))
    }
}

impl fmt::Debug for P384Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("P384Key { scheme: ECDSA_NISTP384_SHA384 }")
    }
}

impl SigningKey for P384Key {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        offered_one(offered, SignatureScheme::ECDSA_NISTP384_SHA384, || {
            Box::new(P384Signer(self.0.clone()))
        })
    }

    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        Some(public_key_to_spki(
            &alg_id::ECDSA_P384,
            self.0.verifying_key().to_sec1_point(false).as_bytes(),
        ))
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::ECDSA
    }
}

struct P384Signer(Arc<p384::ecdsa::SigningKey>);

impl fmt::Debug for P384Signer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("P384Signer { scheme: ECDSA_NISTP384_SHA384 }")
    }
}

impl Signer for P384Signer {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        use p384::ecdsa::signature::hazmat::RandomizedPrehashSigner;
        let digest = Hash::Sha384.digest(message);
        let sig: p384::ecdsa::DerSignature = self
            .0
            .sign_prehash_with_rng(&mut OsRng, digest.as_slice())
            .map_err(|_| Error::FailedToGetRandomBytes)?;
        Ok(sig.as_bytes().to_vec())
    }

    fn scheme(&self) -> SignatureScheme {
        SignatureScheme::ECDSA_NISTP384_SHA384
    }
}

// ---------------------------------------------------------------- Ed25519

/// An Ed25519 key (`ed25519-dalek`).
struct Ed25519Key(Arc<ed25519_dalek::SigningKey>);

impl fmt::Debug for Ed25519Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Ed25519Key { scheme: ED25519 }")
    }
}

impl SigningKey for Ed25519Key {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        offered_one(offered, SignatureScheme::ED25519, || {
            Box::new(Ed25519Signer(self.0.clone()))
        })
    }

    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        Some(public_key_to_spki(
            &alg_id::ED25519,
            self.0.verifying_key().to_bytes(),
        ))
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::ED25519
    }
}

struct Ed25519Signer(Arc<ed25519_dalek::SigningKey>);

impl fmt::Debug for Ed25519Signer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Ed25519Signer { scheme: ED25519 }")
    }
}

impl Signer for Ed25519Signer {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        use ed25519_dalek::Signer as _;
        Ok(self.0.sign(message).to_bytes().to_vec())
    }

    fn scheme(&self) -> SignatureScheme {
        SignatureScheme::ED25519
    }
}

// ---------------------------------------------------------------- RSA

/// The RSA schemes in rustls' order of preference.
static RSA_SCHEMES: &[SignatureScheme] = &[
    SignatureScheme::RSA_PSS_SHA512,
    SignatureScheme::RSA_PSS_SHA384,
    SignatureScheme::RSA_PSS_SHA256,
    SignatureScheme::RSA_PKCS1_SHA512,
    SignatureScheme::RSA_PKCS1_SHA384,
    SignatureScheme::RSA_PKCS1_SHA256,
];

/// An RSA key (RustCrypto `rsa`) of [`RSA_MIN_BITS`] to [`RSA_MAX_BITS`] bits, signing with
/// RSA-PSS and PKCS#1 v1.5.
struct RsaKey(Arc<rsa::PrivateKey>);

impl RsaKey {
    fn load(key: rsa::PrivateKey) -> Result<Arc<dyn SigningKey>, Error> {
        let bits = key.n().bit_width();
        if !(RSA_MIN_BITS..=RSA_MAX_BITS).contains(&bits) {
            return Err(general(format!(
                "RSA modulus of {bits} bits refused ({RSA_MIN_BITS} to {RSA_MAX_BITS} accepted)"
            )));
        }
        Ok(Arc::new(Self(Arc::new(key))))
    }
}

impl fmt::Debug for RsaKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RsaKey {{ bits: {} }}", self.0.n().bit_width())
    }
}

impl SigningKey for RsaKey {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        let scheme = *RSA_SCHEMES.iter().find(|s| offered.contains(s))?;
        Some(Box::new(RsaSigner {
            key: self.0.clone(),
            scheme,
        }))
    }

    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        use rsa::pkcs1::EncodeRsaPublicKey;
        let der = self.0.as_public_key().to_pkcs1_der().ok()?;
        Some(public_key_to_spki(&alg_id::RSA_ENCRYPTION, der.as_bytes()))
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::RSA
    }
}

struct RsaSigner {
    key: Arc<rsa::PrivateKey>,
    scheme: SignatureScheme,
}

impl fmt::Debug for RsaSigner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RsaSigner {{ scheme: {:?} }}", self.scheme)
    }
}

impl Signer for RsaSigner {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        use tessera_sha2::digest::{Sha256, Sha384, Sha512};
        let k = &*self.key;
        let rng = &mut OsRng;
        // PSS: salt of the digest's length (RFC 8446 section 4.2.3), MGF1 with the same hash.
        let r = match self.scheme {
            SignatureScheme::RSA_PSS_SHA512 => k.pss_sign_with_rng::<Sha512, _>(rng, message),
            SignatureScheme::RSA_PSS_SHA384 => k.pss_sign_with_rng::<Sha384, _>(rng, message),
            SignatureScheme::RSA_PSS_SHA256 => k.pss_sign_with_rng::<Sha256, _>(rng, message),
            SignatureScheme::RSA_PKCS1_SHA512 => {
                k.pkcs1v15_sign_with_rng::<Sha512, _>(rng, message)
            }
            SignatureScheme::RSA_PKCS1_SHA384 => {
                k.pkcs1v15_sign_with_rng::<Sha384, _>(rng, message)
            }
            SignatureScheme::RSA_PKCS1_SHA256 => {
                k.pkcs1v15_sign_with_rng::<Sha256, _>(rng, message)
            }
            other => return Err(general(format!("RSA cannot sign with {other:?}"))),
        };
        r.map_err(|e| general(format!("RSA signing failed: {e}")))
    }

    fn scheme(&self) -> SignatureScheme {
        self.scheme
    }
}

// ---------------------------------------------------------------- ML-DSA

/// An ML-DSA key of parameter set `P` (`tessera-mldsa`).
struct MlDsaKey<P: ParameterSet> {
    key: Arc<mldsa::SigningKey<P>>,
    scheme: SignatureScheme,
}

impl<P: ParameterSet + 'static> MlDsaKey<P>
where
    mldsa::SigningKey<P>: Send + Sync,
{
    fn load(
        info: PrivateKeyInfoRef<'_>,
        scheme: SignatureScheme,
    ) -> Result<Arc<dyn SigningKey>, Error> {
        let key = tessera_mldsa::ml_dsa::SigningKey::<P>::try_from(info)
            .map_err(|e| general(format!("ML-DSA private key refused: {e}")))?;
        Ok(Arc::new(Self {
            key: Arc::new(mldsa::SigningKey::from(key)),
            scheme,
        }))
    }

    fn alg_id(&self) -> rustls::pki_types::AlgorithmIdentifier {
        match self.scheme {
            SignatureScheme::ML_DSA_44 => alg_id::ML_DSA_44,
            SignatureScheme::ML_DSA_65 => alg_id::ML_DSA_65,
            _ => alg_id::ML_DSA_87,
        }
    }
}

impl<P: ParameterSet> fmt::Debug for MlDsaKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MlDsaKey {{ scheme: {:?} }}", self.scheme)
    }
}

impl<P: ParameterSet + 'static> SigningKey for MlDsaKey<P>
where
    mldsa::SigningKey<P>: Send + Sync,
{
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        offered_one(offered, self.scheme, || {
            Box::new(MlDsaSigner {
                key: self.key.clone(),
                scheme: self.scheme,
            })
        })
    }

    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        Some(public_key_to_spki(
            &self.alg_id(),
            self.key.verifying_key().to_bytes(),
        ))
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        // rustls has no `SignatureAlgorithm` for ML-DSA (a TLS 1.2 notion); its aws-lc-rs
        // provider answers the same.
        SignatureAlgorithm::Unknown(0)
    }
}

struct MlDsaSigner<P: ParameterSet> {
    key: Arc<mldsa::SigningKey<P>>,
    scheme: SignatureScheme,
}

impl<P: ParameterSet> fmt::Debug for MlDsaSigner<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MlDsaSigner {{ scheme: {:?} }}", self.scheme)
    }
}

impl<P: ParameterSet> Signer for MlDsaSigner<P>
where
    mldsa::SigningKey<P>: Send + Sync,
{
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        // Hedged ML-DSA.Sign, empty context (draft-ietf-tls-mldsa).
        let sig = self
            .key
            .sign_randomized(message, &[], &mut OsRng)
            .map_err(|e| match e {
                tessera_mldsa::Error::Rng => Error::FailedToGetRandomBytes,
                other => general(format!("ML-DSA signing failed: {other:?}")),
            })?;
        Ok(sig.as_bytes().as_ref().to_vec())
    }

    fn scheme(&self) -> SignatureScheme {
        self.scheme
    }
}
