//! HPKE keys on disk: private keys as PKCS#8 PEM and public keys as SPKI PEM, through the
//! primitive crates' `pkcs8` encodings (X-Wing, ML-KEM-512/768/1024, X25519, P-256), turned
//! into the agile HPKE keys of `tessera::hpke` by their HPKE serialization.

use pkcs8::der::pem::LineEnding;
use pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey};
use tessera::hpke::{AeadId, AgilePrivateKey, AgilePublicKey, KdfId, KemId, Suite};
use tessera::mlkem::ml_kem::{self, KeyExport};
use zeroize::{Zeroize, Zeroizing};

/// The KEMs whose keys this command can write and read.
pub const KEMS: &[(&str, KemId)] = &[
    ("x-wing", KemId::XWing),
    ("ml-kem-512", KemId::MlKem512),
    ("ml-kem-768", KemId::MlKem768),
    ("ml-kem-1024", KemId::MlKem1024),
    ("x25519", KemId::DhKemX25519HkdfSha256),
    ("p256", KemId::DhKemP256HkdfSha256),
];

/// The KEM of a `--kem` name.
pub fn kem_from_name(name: &str) -> Result<KemId, String> {
    KEMS.iter()
        .find(|(n, _)| *n == name.to_ascii_lowercase())
        .map(|(_, k)| *k)
        .ok_or_else(|| {
            let names: Vec<&str> = KEMS.iter().map(|(n, _)| *n).collect();
            format!("unknown KEM '{name}' (one of: {})", names.join(", "))
        })
}

/// The `--kem` name of a KEM (its codepoint for one this command has no keys for).
pub fn kem_name(kem: KemId) -> String {
    KEMS.iter().find(|(_, k)| *k == kem).map_or_else(
        || format!("KEM 0x{:04x}", kem.id()),
        |(n, _)| (*n).to_string(),
    )
}

/// Any suite of `kem` (key parsing depends on the KEM alone).
fn kem_suite(kem: KemId) -> Suite {
    Suite::new(kem, KdfId::HkdfSha256, AeadId::ChaCha20Poly1305)
}

fn enc_err(e: impl std::fmt::Display) -> String {
    format!("key encoding failed: {e}")
}

/// A new key pair of `kem`: (PKCS#8 PEM private key, SPKI PEM public key).
pub fn generate(kem: KemId) -> Result<(Zeroizing<String>, String), String> {
    let (sk, _) = kem_suite(kem)
        .generate_key_pair(&mut crate::rng::OsRng)
        .map_err(|e| format!("key generation failed: {e:?}"))?;
    let b = sk.as_bytes();
    let lf = LineEnding::LF;
    Ok(match kem {
        KemId::XWing => {
            let dk = tessera::xwing::DecapsulationKey::from_bytes(b).map_err(enc_err)?;
            let pk = dk
                .encapsulation_key()
                .to_public_key_pem(lf)
                .map_err(enc_err)?;
            (dk.to_pkcs8_pem(lf).map_err(enc_err)?, pk)
        }
        KemId::MlKem512 => mlkem_pems::<ml_kem::MlKem512>(b)?,
        KemId::MlKem768 => mlkem_pems::<ml_kem::MlKem768>(b)?,
        KemId::MlKem1024 => mlkem_pems::<ml_kem::MlKem1024>(b)?,
        KemId::DhKemX25519HkdfSha256 => {
            let arr = Zeroizing::new(<[u8; 32]>::try_from(b).map_err(enc_err)?);
            let s = tessera::x25519::StaticSecret::from(*arr);
            let pk = tessera::x25519::PublicKey::from(&s)
                .to_public_key_pem(lf)
                .map_err(enc_err)?;
            (s.to_pkcs8_pem(lf).map_err(enc_err)?, pk)
        }
        KemId::DhKemP256HkdfSha256 => {
            let s = tessera::p256::SecretKey::from_slice(b).map_err(enc_err)?;
            let pk = s.public_key().to_public_key_pem(lf).map_err(enc_err)?;
            (s.to_pkcs8_pem(lf).map_err(enc_err)?, pk)
        }
        other => return Err(format!("no key file format for {}", kem_name(other))),
    })
}

fn mlkem_pems<P>(seed: &[u8]) -> Result<(Zeroizing<String>, String), String>
where
    P: ml_kem::ParameterSet + pkcs8::AssociatedOid,
    ml_kem::DecapsulationKey<P>: EncodePrivateKey,
    ml_kem::EncapsulationKey<P>: EncodePublicKey,
{
    let mut seed = ml_kem::Seed::try_from(seed).map_err(enc_err)?;
    let dk = ml_kem::DecapsulationKey::<P>::from_seed(seed);
    seed[..].zeroize();
    let pk = dk
        .encapsulation_key()
        .to_public_key_pem(LineEnding::LF)
        .map_err(enc_err)?;
    Ok((dk.to_pkcs8_pem(LineEnding::LF).map_err(enc_err)?, pk))
}

/// Parses a PKCS#8 PEM private key of any KEM of [`KEMS`].
pub fn read_private(pem: &str) -> Result<AgilePrivateKey, String> {
    let hpke = |kem: KemId, bytes: &[u8]| {
        kem_suite(kem)
            .private_key_from_bytes(bytes)
            .map_err(|e| format!("invalid {} private key: {e:?}", kem_name(kem)))
    };
    if let Ok(k) = tessera::xwing::DecapsulationKey::from_pkcs8_pem(pem) {
        return hpke(KemId::XWing, k.as_bytes());
    }
    if let Ok(k) = ml_kem::DecapsulationKey::<ml_kem::MlKem768>::from_pkcs8_pem(pem) {
        return hpke(KemId::MlKem768, &mlkem_seed(k.to_seed())?);
    }
    if let Ok(k) = ml_kem::DecapsulationKey::<ml_kem::MlKem1024>::from_pkcs8_pem(pem) {
        return hpke(KemId::MlKem1024, &mlkem_seed(k.to_seed())?);
    }
    if let Ok(k) = ml_kem::DecapsulationKey::<ml_kem::MlKem512>::from_pkcs8_pem(pem) {
        return hpke(KemId::MlKem512, &mlkem_seed(k.to_seed())?);
    }
    if let Ok(k) = tessera::x25519::StaticSecret::from_pkcs8_pem(pem) {
        return hpke(KemId::DhKemX25519HkdfSha256, k.as_bytes());
    }
    if let Ok(k) = tessera::p256::SecretKey::from_pkcs8_pem(pem) {
        return hpke(KemId::DhKemP256HkdfSha256, &*Zeroizing::new(k.to_bytes()));
    }
    if DecodePublicKey::from_public_key_pem(pem)
        .map(|_: pkcs8::Document| ())
        .is_ok()
    {
        return Err("this is a public key (SPKI); opening needs the private key".into());
    }
    Err("not a PKCS#8 PEM private key of a supported KEM (x-wing, ml-kem-512/768/1024, x25519, p256)".into())
}

/// The seed's bytes in a zeroizing buffer (the seed itself is wiped).
fn mlkem_seed(seed: Option<ml_kem::Seed>) -> Result<Zeroizing<Vec<u8>>, String> {
    let Some(mut s) = seed else {
        return Err("an ML-KEM private key without its seed is not supported".to_string());
    };
    let v = Zeroizing::new(s.to_vec());
    s[..].zeroize();
    Ok(v)
}

/// Parses an SPKI PEM public key of any KEM of [`KEMS`].
pub fn read_public(pem: &str) -> Result<AgilePublicKey, String> {
    let hpke = |kem: KemId, bytes: &[u8]| {
        kem_suite(kem)
            .public_key_from_bytes(bytes)
            .map_err(|e| format!("invalid {} public key: {e:?}", kem_name(kem)))
    };
    if let Ok(k) = tessera::xwing::EncapsulationKey::from_public_key_pem(pem) {
        return hpke(KemId::XWing, k.as_bytes());
    }
    if let Ok(k) = ml_kem::EncapsulationKey::<ml_kem::MlKem768>::from_public_key_pem(pem) {
        return hpke(KemId::MlKem768, &k.to_bytes());
    }
    if let Ok(k) = ml_kem::EncapsulationKey::<ml_kem::MlKem1024>::from_public_key_pem(pem) {
        return hpke(KemId::MlKem1024, &k.to_bytes());
    }
    if let Ok(k) = ml_kem::EncapsulationKey::<ml_kem::MlKem512>::from_public_key_pem(pem) {
        return hpke(KemId::MlKem512, &k.to_bytes());
    }
    if let Ok(k) = tessera::x25519::PublicKey::from_public_key_pem(pem) {
        return hpke(KemId::DhKemX25519HkdfSha256, k.as_bytes());
    }
    if let Ok(k) = tessera::p256::PublicKey::from_public_key_pem(pem) {
        return hpke(KemId::DhKemP256HkdfSha256, &k.to_uncompressed());
    }
    if pem.contains("PRIVATE KEY") {
        return Err("this is a private key; sealing needs the public key (KEY.pub)".into());
    }
    Err(
        "not an SPKI PEM public key of a supported KEM (x-wing, ml-kem-512/768/1024, x25519, p256)"
            .into(),
    )
}
