//! Signature verification algorithms for rustls-webpki (certificate chains) and rustls (the
//! handshake's `CertificateVerify` / `ServerKeyExchange` signatures).
//!
//! | algorithm | implementation | public key | signature |
//! |---|---|---|---|
//! | ECDSA P-256 with SHA-256, SHA-384 | `tessera-p256` (digest by `tessera-sha2`, leftmost 256 bits) | SEC 1 point | DER `Ecdsa-Sig-Value` |
//! | ECDSA P-384 with SHA-384, SHA-256 | RustCrypto `p384` 0.14 (digest by `tessera-sha2`) | SEC 1 point | DER |
//! | Ed25519 | `ed25519-dalek` 3 (`verify_strict`: small-order keys and `R` refused) | 32 bytes | 64 bytes |
//! | RSA PKCS#1 v1.5, RSA-PSS (salt = digest length, MGF1 with the same hash), SHA-256/384/512 | RustCrypto `rsa` 0.10 over `tessera-sha2` | PKCS#1 `RSAPublicKey`, 2048 to 4096 bits | modulus length |
//! | ML-DSA-44/65/87, empty context | `tessera-mldsa` | pkEncode | sigEncode |
//!
//! Every failure (unparsable key, wrong length, key outside the allowed size, bad encoding,
//! signature that does not verify) is [`InvalidSignature`]; no input panics. A key of another
//! type than an algorithm's is refused by webpki before the algorithm is called (the SPKI
//! algorithm identifier must equal [`SignatureVerificationAlgorithm::public_key_alg_id`]),
//! which rustls reports as `UnsupportedSignatureAlgorithmForPublicKeyContext`.
//!
//! [`SUPPORTED_SIG_ALGS`] maps TLS signature schemes to algorithms in the order of rustls'
//! aws-lc-rs provider, restricted to the algorithms above. None of it is FIPS-validated
//! ([`SignatureVerificationAlgorithm::fips`] is `false`).
#![forbid(unsafe_code)]

use core::fmt;

use rsa::traits::PublicKeyParts;
use rustls::SignatureScheme;
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::{
    AlgorithmIdentifier, InvalidSignature, SignatureVerificationAlgorithm, alg_id,
};
use tessera_mldsa::generic::{self as mldsa, MlDsa44, MlDsa65, MlDsa87, ParameterSet};

/// The smallest RSA modulus accepted, in bits.
pub const RSA_MIN_BITS: u32 = 2048;
/// The largest RSA modulus accepted, in bits.
pub const RSA_MAX_BITS: u32 = 4096;

/// The hash of a signature algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hash {
    Sha256,
    Sha384,
    Sha512,
}

/// A digest of up to 64 bytes.
pub(crate) struct Digest {
    buf: [u8; 64],
    len: usize,
}

impl Digest {
    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl Hash {
    /// The digest of `msg` (by `tessera-sha2`).
    pub(crate) fn digest(self, msg: &[u8]) -> Digest {
        let mut buf = [0u8; 64];
        let len = match self {
            Hash::Sha256 => {
                buf[..32].copy_from_slice(&tessera_sha2::sha256(msg));
                32
            }
            Hash::Sha384 => {
                buf[..48].copy_from_slice(&tessera_sha2::sha384(msg));
                48
            }
            Hash::Sha512 => {
                buf.copy_from_slice(&tessera_sha2::sha512(msg));
                64
            }
        };
        Digest { buf, len }
    }
}

/// What an algorithm computes.
#[derive(Clone, Copy, Debug)]
enum Kind {
    EcdsaP256(Hash),
    EcdsaP384(Hash),
    Ed25519,
    RsaPkcs1(Hash),
    RsaPss(Hash),
    MlDsa44,
    MlDsa65,
    MlDsa87,
}

/// One verification algorithm: what it computes and the two algorithm identifiers webpki
/// matches it by.
struct Algorithm {
    name: &'static str,
    kind: Kind,
    public_key_alg_id: AlgorithmIdentifier,
    signature_alg_id: AlgorithmIdentifier,
}

impl fmt::Debug for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tessera-rustls {}", self.name)
    }
}

impl SignatureVerificationAlgorithm for Algorithm {
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        match self.kind {
            Kind::EcdsaP256(hash) => verify_p256(hash, public_key, message, signature),
            Kind::EcdsaP384(hash) => verify_p384(hash, public_key, message, signature),
            Kind::Ed25519 => verify_ed25519(public_key, message, signature),
            Kind::RsaPkcs1(hash) => verify_rsa(false, hash, public_key, message, signature),
            Kind::RsaPss(hash) => verify_rsa(true, hash, public_key, message, signature),
            Kind::MlDsa44 => verify_mldsa::<MlDsa44>(public_key, message, signature),
            Kind::MlDsa65 => verify_mldsa::<MlDsa65>(public_key, message, signature),
            Kind::MlDsa87 => verify_mldsa::<MlDsa87>(public_key, message, signature),
        }
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        self.public_key_alg_id
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        self.signature_alg_id
    }

    fn fips(&self) -> bool {
        false
    }
}

/// RFC 5480 section 2.2: the first octet of an EC public key is 0x04 (uncompressed) or
/// 0x02 / 0x03 (compressed); anything else is refused before the point is parsed.
fn ec_point_prefix_ok(public_key: &[u8]) -> bool {
    matches!(public_key.first(), Some(0x02..=0x04))
}

fn verify_p256(
    hash: Hash,
    public_key: &[u8],
    message: &[u8],
    signature: &[u8],
) -> Result<(), InvalidSignature> {
    use tessera_p256::ecdsa::{Signature, VerifyingKey};
    if !ec_point_prefix_ok(public_key) {
        return Err(InvalidSignature);
    }
    let key = VerifyingKey::from_sec1_bytes(public_key).map_err(|_| InvalidSignature)?;
    let sig = Signature::from_der(signature).map_err(|_| InvalidSignature)?;
    key.verify_prehash(hash.digest(message).as_slice(), &sig)
        .map_err(|_| InvalidSignature)
}

fn verify_p384(
    hash: Hash,
    public_key: &[u8],
    message: &[u8],
    signature: &[u8],
) -> Result<(), InvalidSignature> {
    use p384::ecdsa::signature::hazmat::PrehashVerifier;
    use p384::ecdsa::{Signature, VerifyingKey};
    if !ec_point_prefix_ok(public_key) {
        return Err(InvalidSignature);
    }
    let key = VerifyingKey::from_sec1_bytes(public_key).map_err(|_| InvalidSignature)?;
    let sig = Signature::from_der(signature).map_err(|_| InvalidSignature)?;
    key.verify_prehash(hash.digest(message).as_slice(), &sig)
        .map_err(|_| InvalidSignature)
}

fn verify_ed25519(
    public_key: &[u8],
    message: &[u8],
    signature: &[u8],
) -> Result<(), InvalidSignature> {
    use ed25519_dalek::{Signature, VerifyingKey};
    let key = VerifyingKey::try_from(public_key).map_err(|_| InvalidSignature)?;
    let sig = Signature::from_slice(signature).map_err(|_| InvalidSignature)?;
    key.verify_strict(message, &sig)
        .map_err(|_| InvalidSignature)
}

/// An RSA public key (PKCS#1 `RSAPublicKey` DER) of [`RSA_MIN_BITS`] to [`RSA_MAX_BITS`] bits.
pub(crate) fn rsa_public_key(der: &[u8]) -> Option<rsa::PublicKey> {
    use rsa::pkcs1::DecodeRsaPublicKey;
    let key = rsa::PublicKey::from_pkcs1_der(der).ok()?;
    let bits = key.n().bit_width();
    (RSA_MIN_BITS..=RSA_MAX_BITS).contains(&bits).then_some(key)
}

fn verify_rsa(
    pss: bool,
    hash: Hash,
    public_key: &[u8],
    message: &[u8],
    signature: &[u8],
) -> Result<(), InvalidSignature> {
    use tessera_sha2::digest::{Sha256, Sha384, Sha512};
    let key = rsa_public_key(public_key).ok_or(InvalidSignature)?;
    // RFC 8017 sections 8.1.2 and 8.2.2 step 1: the signature is exactly k octets.
    if signature.len() != key.size() {
        return Err(InvalidSignature);
    }
    let digest = hash.digest(message);
    let h = digest.as_slice();
    let r = match (pss, hash) {
        (false, Hash::Sha256) => key.pkcs1v15_verify_prehash::<Sha256>(h, signature),
        (false, Hash::Sha384) => key.pkcs1v15_verify_prehash::<Sha384>(h, signature),
        (false, Hash::Sha512) => key.pkcs1v15_verify_prehash::<Sha512>(h, signature),
        (true, Hash::Sha256) => key.pss_verify_prehash::<Sha256>(h, signature),
        (true, Hash::Sha384) => key.pss_verify_prehash::<Sha384>(h, signature),
        (true, Hash::Sha512) => key.pss_verify_prehash::<Sha512>(h, signature),
    };
    r.map_err(|_| InvalidSignature)
}

fn verify_mldsa<P: ParameterSet>(
    public_key: &[u8],
    message: &[u8],
    signature: &[u8],
) -> Result<(), InvalidSignature> {
    let key = mldsa::VerifyingKey::<P>::from_bytes(public_key).map_err(|_| InvalidSignature)?;
    let sig = mldsa::Signature::<P>::from_bytes(signature).map_err(|_| InvalidSignature)?;
    // Pure ML-DSA with the empty context (draft-ietf-tls-mldsa).
    key.verify(message, &[], &sig).map_err(|_| InvalidSignature)
}

/// `sha256WithRSAEncryption` with its parameters absent (RFC 4055: "implementations MUST
/// accept the parameters being absent as well as present").
const RSA_PKCS1_SHA256_ABSENT_PARAMS: AlgorithmIdentifier = AlgorithmIdentifier::from_slice(&[
    0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b,
]);
/// `sha384WithRSAEncryption`, parameters absent.
const RSA_PKCS1_SHA384_ABSENT_PARAMS: AlgorithmIdentifier = AlgorithmIdentifier::from_slice(&[
    0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0c,
]);
/// `sha512WithRSAEncryption`, parameters absent.
const RSA_PKCS1_SHA512_ABSENT_PARAMS: AlgorithmIdentifier = AlgorithmIdentifier::from_slice(&[
    0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0d,
]);

macro_rules! algorithms {
    ($($(#[$doc:meta])* $name:ident: $kind:expr, $pk:expr, $sig:expr;)*) => {$(
        $(#[$doc])*
        pub static $name: &dyn SignatureVerificationAlgorithm = &Algorithm {
            name: stringify!($name),
            kind: $kind,
            public_key_alg_id: $pk,
            signature_alg_id: $sig,
        };
    )*};
}

algorithms! {
    /// ECDSA on P-256 with SHA-256 (`tessera-p256`).
    ECDSA_P256_SHA256: Kind::EcdsaP256(Hash::Sha256), alg_id::ECDSA_P256, alg_id::ECDSA_SHA256;
    /// ECDSA on P-256 with SHA-384 (its leftmost 256 bits; `tessera-p256`).
    ECDSA_P256_SHA384: Kind::EcdsaP256(Hash::Sha384), alg_id::ECDSA_P256, alg_id::ECDSA_SHA384;
    /// ECDSA on P-384 with SHA-256 (RustCrypto `p384`).
    ECDSA_P384_SHA256: Kind::EcdsaP384(Hash::Sha256), alg_id::ECDSA_P384, alg_id::ECDSA_SHA256;
    /// ECDSA on P-384 with SHA-384 (RustCrypto `p384`).
    ECDSA_P384_SHA384: Kind::EcdsaP384(Hash::Sha384), alg_id::ECDSA_P384, alg_id::ECDSA_SHA384;
    /// Ed25519 (RFC 8032 / RFC 8410; `ed25519-dalek`, strict verification).
    ED25519: Kind::Ed25519, alg_id::ED25519, alg_id::ED25519;
    /// RSA-PSS with SHA-256 on an `rsaEncryption` key of 2048 to 4096 bits.
    RSA_PSS_SHA256: Kind::RsaPss(Hash::Sha256), alg_id::RSA_ENCRYPTION, alg_id::RSA_PSS_SHA256;
    /// RSA-PSS with SHA-384 on an `rsaEncryption` key of 2048 to 4096 bits.
    RSA_PSS_SHA384: Kind::RsaPss(Hash::Sha384), alg_id::RSA_ENCRYPTION, alg_id::RSA_PSS_SHA384;
    /// RSA-PSS with SHA-512 on an `rsaEncryption` key of 2048 to 4096 bits.
    RSA_PSS_SHA512: Kind::RsaPss(Hash::Sha512), alg_id::RSA_ENCRYPTION, alg_id::RSA_PSS_SHA512;
    /// RSA PKCS#1 v1.5 with SHA-256, 2048 to 4096 bits.
    RSA_PKCS1_SHA256: Kind::RsaPkcs1(Hash::Sha256), alg_id::RSA_ENCRYPTION, alg_id::RSA_PKCS1_SHA256;
    /// RSA PKCS#1 v1.5 with SHA-384, 2048 to 4096 bits.
    RSA_PKCS1_SHA384: Kind::RsaPkcs1(Hash::Sha384), alg_id::RSA_ENCRYPTION, alg_id::RSA_PKCS1_SHA384;
    /// RSA PKCS#1 v1.5 with SHA-512, 2048 to 4096 bits.
    RSA_PKCS1_SHA512: Kind::RsaPkcs1(Hash::Sha512), alg_id::RSA_ENCRYPTION, alg_id::RSA_PKCS1_SHA512;
    /// [`RSA_PKCS1_SHA256`] for certificates whose signature algorithm omits the NULL
    /// parameters.
    RSA_PKCS1_SHA256_ABSENT: Kind::RsaPkcs1(Hash::Sha256), alg_id::RSA_ENCRYPTION, RSA_PKCS1_SHA256_ABSENT_PARAMS;
    /// [`RSA_PKCS1_SHA384`], NULL parameters omitted.
    RSA_PKCS1_SHA384_ABSENT: Kind::RsaPkcs1(Hash::Sha384), alg_id::RSA_ENCRYPTION, RSA_PKCS1_SHA384_ABSENT_PARAMS;
    /// [`RSA_PKCS1_SHA512`], NULL parameters omitted.
    RSA_PKCS1_SHA512_ABSENT: Kind::RsaPkcs1(Hash::Sha512), alg_id::RSA_ENCRYPTION, RSA_PKCS1_SHA512_ABSENT_PARAMS;
    /// ML-DSA-44 (FIPS 204, `tessera-mldsa`), empty context; OID 2.16.840.1.101.3.4.3.17.
    ML_DSA_44: Kind::MlDsa44, alg_id::ML_DSA_44, alg_id::ML_DSA_44;
    /// ML-DSA-65, empty context; OID 2.16.840.1.101.3.4.3.18.
    ML_DSA_65: Kind::MlDsa65, alg_id::ML_DSA_65, alg_id::ML_DSA_65;
    /// ML-DSA-87, empty context; OID 2.16.840.1.101.3.4.3.19.
    ML_DSA_87: Kind::MlDsa87, alg_id::ML_DSA_87, alg_id::ML_DSA_87;
}

/// Every verification algorithm of this provider, and the TLS signature-scheme mapping (the
/// order of rustls' aws-lc-rs provider: for TLS 1.3 the first algorithm of a scheme is the one
/// used, so P-384 keys come first for `ecdsa_secp384r1_sha384` and P-256 keys for
/// `ecdsa_secp256r1_sha256`).
pub static SUPPORTED_SIG_ALGS: WebPkiSupportedAlgorithms = WebPkiSupportedAlgorithms {
    all: &[
        ECDSA_P256_SHA256,
        ECDSA_P256_SHA384,
        ECDSA_P384_SHA256,
        ECDSA_P384_SHA384,
        ED25519,
        RSA_PSS_SHA256,
        RSA_PSS_SHA384,
        RSA_PSS_SHA512,
        RSA_PKCS1_SHA256,
        RSA_PKCS1_SHA384,
        RSA_PKCS1_SHA512,
        RSA_PKCS1_SHA256_ABSENT,
        RSA_PKCS1_SHA384_ABSENT,
        RSA_PKCS1_SHA512_ABSENT,
        ML_DSA_44,
        ML_DSA_65,
        ML_DSA_87,
    ],
    mapping: &[
        (
            SignatureScheme::ECDSA_NISTP384_SHA384,
            &[ECDSA_P384_SHA384, ECDSA_P256_SHA384],
        ),
        (
            SignatureScheme::ECDSA_NISTP256_SHA256,
            &[ECDSA_P256_SHA256, ECDSA_P384_SHA256],
        ),
        (SignatureScheme::ED25519, &[ED25519]),
        (SignatureScheme::RSA_PSS_SHA512, &[RSA_PSS_SHA512]),
        (SignatureScheme::RSA_PSS_SHA384, &[RSA_PSS_SHA384]),
        (SignatureScheme::RSA_PSS_SHA256, &[RSA_PSS_SHA256]),
        (SignatureScheme::RSA_PKCS1_SHA512, &[RSA_PKCS1_SHA512]),
        (SignatureScheme::RSA_PKCS1_SHA384, &[RSA_PKCS1_SHA384]),
        (SignatureScheme::RSA_PKCS1_SHA256, &[RSA_PKCS1_SHA256]),
        (SignatureScheme::ML_DSA_44, &[ML_DSA_44]),
        (SignatureScheme::ML_DSA_65, &[ML_DSA_65]),
        (SignatureScheme::ML_DSA_87, &[ML_DSA_87]),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The DER of `RSAPublicKey { n, e = 65537 }` for a modulus of `bits` bits (top bit set,
    /// odd; not a product of two primes, which key parsing cannot tell).
    fn rsa_public_key_der(bits: usize) -> alloc::vec::Vec<u8> {
        let len = bits.div_ceil(8);
        let mut n = alloc::vec![0x5au8; len];
        n[0] = 1 << ((bits - 1) % 8);
        n[len - 1] |= 1;
        // DER INTEGER: a zero octet in front only when the top bit is set.
        let pad = usize::from(n[0] & 0x80 != 0);
        let mut int_n = alloc::vec![0x02];
        push_len(&mut int_n, len + pad);
        int_n.extend(core::iter::repeat_n(0, pad));
        int_n.extend_from_slice(&n);
        let int_e = [0x02, 0x03, 0x01, 0x00, 0x01];
        let mut der = alloc::vec![0x30];
        push_len(&mut der, int_n.len() + int_e.len());
        der.extend_from_slice(&int_n);
        der.extend_from_slice(&int_e);
        der
    }

    /// A DER length (minimal form).
    fn push_len(out: &mut alloc::vec::Vec<u8>, len: usize) {
        match len {
            0..0x80 => out.push(len as u8),
            0x80..0x100 => out.extend_from_slice(&[0x81, len as u8]),
            _ => out.extend_from_slice(&[0x82, (len >> 8) as u8, len as u8]),
        }
    }

    /// The modulus window is 2048 to 4096 bits inclusive, whatever the `rsa` crate accepts
    /// (1024 to 8192).
    #[test]
    fn rsa_modulus_window() {
        for (bits, ok) in [
            (1024, false),
            (2047, false),
            (2048, true),
            (3072, true),
            (4096, true),
            (4097, false),
            (8192, false),
        ] {
            let der = rsa_public_key_der(bits);
            use rsa::pkcs1::DecodeRsaPublicKey;
            let parsed = rsa::PublicKey::from_pkcs1_der(&der).expect("the rsa crate parses it");
            assert_eq!(parsed.n().bit_width() as usize, bits);
            assert_eq!(rsa_public_key(&der).is_some(), ok, "{bits} bits");
        }
    }

    /// Garbage and empty input are refused by every algorithm (no panic).
    #[test]
    fn garbage_is_invalid_signature() {
        for alg in SUPPORTED_SIG_ALGS.all {
            assert!(alg.verify_signature(&[], b"m", &[]).is_err(), "{alg:?}");
            assert!(
                alg.verify_signature(&[0xff; 97], b"m", &[0x30; 64])
                    .is_err(),
                "{alg:?}"
            );
        }
    }
}
