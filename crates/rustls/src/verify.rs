//! Signature verification algorithms for rustls-webpki.
use rustls::crypto::WebPkiSupportedAlgorithms;

/// Every verification algorithm of this provider, and the TLS signature-scheme mapping.
pub static SUPPORTED_SIG_ALGS: WebPkiSupportedAlgorithms = WebPkiSupportedAlgorithms {
    all: &[],
    mapping: &[],
};
