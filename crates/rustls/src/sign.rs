//! Signing keys: loading private keys for certificates.
use alloc::sync::Arc;
use rustls::crypto::KeyProvider;
use rustls::pki_types::PrivateKeyDer;
use rustls::sign::SigningKey;

/// Loads PKCS#8 / SEC 1 / PKCS#1 private keys.
#[derive(Debug)]
struct Keys;

/// The key provider of [`crate::provider`].
pub static KEY_PROVIDER: &dyn KeyProvider = &Keys;

impl KeyProvider for Keys {
    fn load_private_key(
        &self,
        _key_der: PrivateKeyDer<'static>,
    ) -> Result<Arc<dyn SigningKey>, rustls::Error> {
        Err(rustls::Error::General("no signing key support yet".into()))
    }
}
