//! The cipher suites: three TLS 1.3 suites and, with the `tls12` feature, six TLS 1.2 ECDHE
//! suites.
//!
//! Confidentiality limits follow RFC 8446 section 5.5 / draft-irtf-cfrg-aead-limits (2^24
//! full-size records for AES-GCM; ChaCha20-Poly1305 has no practical limit), and for QUIC
//! RFC 9001 section 6.6 (AES-GCM 2^23 packets protected and 2^52 forgery attempts;
//! ChaCha20-Poly1305 2^36 forgery attempts).

use rustls::crypto::CipherSuiteCommon;
use rustls::{CipherSuite, SupportedCipherSuite, Tls13CipherSuite};

use crate::aead::{Kind, Tls13Aead};
use crate::hash::{HKDF_SHA256, HKDF_SHA384, SHA256, SHA384};
use crate::quic;

/// TLS13_AES_128_GCM_SHA256.
pub static TLS13_AES_128_GCM_SHA256: SupportedCipherSuite =
    SupportedCipherSuite::Tls13(&Tls13CipherSuite {
        common: CipherSuiteCommon {
            suite: CipherSuite::TLS13_AES_128_GCM_SHA256,
            hash_provider: &SHA256,
            confidentiality_limit: 1 << 24,
        },
        hkdf_provider: &HKDF_SHA256,
        aead_alg: &Tls13Aead(Kind::Aes128Gcm),
        quic: Some(&quic::Algorithm {
            kind: Kind::Aes128Gcm,
            confidentiality_limit: 1 << 23,
            integrity_limit: 1 << 52,
        }),
    });

/// TLS13_AES_256_GCM_SHA384.
pub static TLS13_AES_256_GCM_SHA384: SupportedCipherSuite =
    SupportedCipherSuite::Tls13(&Tls13CipherSuite {
        common: CipherSuiteCommon {
            suite: CipherSuite::TLS13_AES_256_GCM_SHA384,
            hash_provider: &SHA384,
            confidentiality_limit: 1 << 24,
        },
        hkdf_provider: &HKDF_SHA384,
        aead_alg: &Tls13Aead(Kind::Aes256Gcm),
        quic: Some(&quic::Algorithm {
            kind: Kind::Aes256Gcm,
            confidentiality_limit: 1 << 23,
            integrity_limit: 1 << 52,
        }),
    });

/// TLS13_CHACHA20_POLY1305_SHA256.
pub static TLS13_CHACHA20_POLY1305_SHA256: SupportedCipherSuite =
    SupportedCipherSuite::Tls13(&Tls13CipherSuite {
        common: CipherSuiteCommon {
            suite: CipherSuite::TLS13_CHACHA20_POLY1305_SHA256,
            hash_provider: &SHA256,
            confidentiality_limit: u64::MAX,
        },
        hkdf_provider: &HKDF_SHA256,
        aead_alg: &Tls13Aead(Kind::ChaCha20Poly1305),
        quic: Some(&quic::Algorithm {
            kind: Kind::ChaCha20Poly1305,
            confidentiality_limit: u64::MAX,
            integrity_limit: 1 << 36,
        }),
    });

#[cfg(feature = "tls12")]
pub use tls12::*;

#[cfg(feature = "tls12")]
mod tls12 {
    use rustls::crypto::tls12::PrfUsingHmac;
    use rustls::crypto::{CipherSuiteCommon, KeyExchangeAlgorithm};
    use rustls::{CipherSuite, SignatureScheme, SupportedCipherSuite, Tls12CipherSuite};

    use crate::aead::{Kind, Tls12ChaCha, Tls12Gcm};
    use crate::hash::{HMAC_SHA256, HMAC_SHA384, SHA256, SHA384};

    /// The signature schemes of the ECDSA suites (what the certificate may be signed with).
    static ECDSA_SCHEMES: &[SignatureScheme] = &[
        SignatureScheme::ED25519,
        SignatureScheme::ECDSA_NISTP521_SHA512,
        SignatureScheme::ECDSA_NISTP384_SHA384,
        SignatureScheme::ECDSA_NISTP256_SHA256,
    ];

    /// The signature schemes of the RSA suites.
    static RSA_SCHEMES: &[SignatureScheme] = &[
        SignatureScheme::RSA_PSS_SHA512,
        SignatureScheme::RSA_PSS_SHA384,
        SignatureScheme::RSA_PSS_SHA256,
        SignatureScheme::RSA_PKCS1_SHA512,
        SignatureScheme::RSA_PKCS1_SHA384,
        SignatureScheme::RSA_PKCS1_SHA256,
    ];

    static PRF_SHA256: PrfUsingHmac<'static> = PrfUsingHmac(&HMAC_SHA256);
    static PRF_SHA384: PrfUsingHmac<'static> = PrfUsingHmac(&HMAC_SHA384);

    macro_rules! suite {
        ($(#[$doc:meta])* $name:ident, $hash:expr, $limit:expr, $sign:expr, $aead:expr, $prf:expr) => {
            $(#[$doc])*
            pub static $name: SupportedCipherSuite =
                SupportedCipherSuite::Tls12(&Tls12CipherSuite {
                    common: CipherSuiteCommon {
                        suite: CipherSuite::$name,
                        hash_provider: $hash,
                        confidentiality_limit: $limit,
                    },
                    kx: KeyExchangeAlgorithm::ECDHE,
                    sign: $sign,
                    aead_alg: $aead,
                    prf_provider: $prf,
                });
        };
    }

    suite!(
        /// TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256.
        TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, &SHA256, 1 << 24, ECDSA_SCHEMES,
        &Tls12Gcm(Kind::Aes128Gcm), &PRF_SHA256
    );
    suite!(
        /// TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384.
        TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, &SHA384, 1 << 24, ECDSA_SCHEMES,
        &Tls12Gcm(Kind::Aes256Gcm), &PRF_SHA384
    );
    suite!(
        /// TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256.
        TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, &SHA256, u64::MAX, ECDSA_SCHEMES,
        &Tls12ChaCha, &PRF_SHA256
    );
    suite!(
        /// TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256.
        TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, &SHA256, 1 << 24, RSA_SCHEMES,
        &Tls12Gcm(Kind::Aes128Gcm), &PRF_SHA256
    );
    suite!(
        /// TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384.
        TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, &SHA384, 1 << 24, RSA_SCHEMES,
        &Tls12Gcm(Kind::Aes256Gcm), &PRF_SHA384
    );
    suite!(
        /// TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256.
        TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, &SHA256, u64::MAX, RSA_SCHEMES,
        &Tls12ChaCha, &PRF_SHA256
    );
}
