//! Shared test plumbing: providers, certificates, configs and an in-memory transport.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::sync::{Arc, OnceLock};

use rustls::crypto::{CryptoProvider, SupportedKxGroup};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName};
use rustls::{
    ClientConfig, ClientConnection, Connection, NamedGroup, RootCertStore, ServerConfig,
    ServerConnection, SupportedCipherSuite, SupportedProtocolVersion,
};

/// Our provider, as the tests use it.
///
/// The provider under test, unmodified: every part (suites, groups, hashes, HKDF, PRF, record
/// layer, randomness, signature verification and signing keys) is this crate's.
pub fn ours() -> CryptoProvider {
    tessera_rustls::provider()
}

/// The peers.
pub fn peers() -> Vec<(&'static str, CryptoProvider)> {
    vec![
        ("aws-lc-rs", aws()),
        // Deprecated in rustls only for lacking post-quantum groups, which the matrix counts.
        #[allow(deprecated)]
        ("ring", rustls::crypto::ring::default_provider()),
    ]
}

/// rustls' aws-lc-rs provider with all its groups (including MLKEM768 and MLKEM1024 alone).
pub fn aws() -> CryptoProvider {
    let mut p = rustls::crypto::aws_lc_rs::default_provider();
    p.kx_groups = rustls::crypto::aws_lc_rs::ALL_KX_GROUPS.to_vec();
    p
}

/// Certificate key types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyType {
    EcdsaP256,
    EcdsaP384,
    Ed25519,
    Rsa2048,
    /// ML-DSA-65 (signature scheme 0x0905; TLS 1.3 only).
    MlDsa65,
}

pub const KEY_TYPES: [KeyType; 5] = [
    KeyType::EcdsaP256,
    KeyType::EcdsaP384,
    KeyType::Ed25519,
    KeyType::Rsa2048,
    KeyType::MlDsa65,
];

impl KeyType {
    pub fn is_rsa(self) -> bool {
        self == KeyType::Rsa2048
    }
}

/// A CA and an end-entity certificate for `localhost` of one key type.
pub struct Identity {
    pub chain: Vec<CertificateDer<'static>>,
    pub key: PrivatePkcs8KeyDer<'static>,
    pub roots: Arc<RootCertStore>,
}

fn keypair(kt: KeyType) -> rcgen::KeyPair {
    match kt {
        KeyType::EcdsaP256 => rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256),
        KeyType::EcdsaP384 => rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P384_SHA384),
        KeyType::Ed25519 => rcgen::KeyPair::generate_for(&rcgen::PKCS_ED25519),
        KeyType::Rsa2048 => {
            rcgen::KeyPair::generate_rsa_for(&rcgen::PKCS_RSA_SHA256, rcgen::RsaKeySize::_2048)
        }
        KeyType::MlDsa65 => rcgen::KeyPair::generate_for(&rcgen::PKCS_ML_DSA_65),
    }
    .expect("key generation")
}

fn make_identity(kt: KeyType) -> Identity {
    let ca_key = keypair(kt);
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, format!("test CA {kt:?}"));
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let issuer = rcgen::Issuer::new(ca_params, ca_key);
    let ee_key = keypair(kt);
    let ee = rcgen::CertificateParams::new(vec!["localhost".to_string()])
        .unwrap()
        .signed_by(&ee_key, &issuer)
        .unwrap();
    let mut roots = RootCertStore::empty();
    roots.add(ca.der().clone()).unwrap();
    Identity {
        chain: vec![ee.der().clone(), ca.der().clone()],
        key: PrivatePkcs8KeyDer::from(ee_key.serialize_der()),
        roots: Arc::new(roots),
    }
}

/// The identity of each key type, generated once per test binary.
pub fn identity(kt: KeyType) -> &'static Identity {
    static IDS: OnceLock<Vec<Identity>> = OnceLock::new();
    let ids = IDS.get_or_init(|| KEY_TYPES.iter().map(|&k| make_identity(k)).collect());
    &ids[KEY_TYPES.iter().position(|&k| k == kt).unwrap()]
}

/// `provider` restricted to the suites `suites` and the groups `groups` (by id, in that
/// order); `None` when the provider lacks one.
pub fn restrict(
    mut provider: CryptoProvider,
    suites: &[rustls::CipherSuite],
    groups: &[NamedGroup],
) -> Option<CryptoProvider> {
    // In the order of `suites` (the preference order).
    provider.cipher_suites = suites
        .iter()
        .filter_map(|id| {
            provider
                .cipher_suites
                .iter()
                .find(|s| s.suite() == *id)
                .copied()
        })
        .collect();
    let mut kx: Vec<&'static dyn SupportedKxGroup> = Vec::new();
    for g in groups {
        kx.push(*provider.kx_groups.iter().find(|k| k.name() == *g)?);
    }
    provider.kx_groups = kx;
    if provider.cipher_suites.len() != suites.len() {
        return None;
    }
    Some(provider)
}

pub fn version_of(suite: SupportedCipherSuite) -> &'static SupportedProtocolVersion {
    match suite {
        SupportedCipherSuite::Tls13(_) => &rustls::version::TLS13,
        SupportedCipherSuite::Tls12(_) => &rustls::version::TLS12,
    }
}

pub fn server_config(
    provider: CryptoProvider,
    versions: &[&'static SupportedProtocolVersion],
    kt: KeyType,
) -> ServerConfig {
    let id = identity(kt);
    ServerConfig::builder_with_provider(Arc::new(provider))
        .with_protocol_versions(versions)
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(id.chain.clone(), PrivateKeyDer::Pkcs8(id.key.clone_key()))
        .unwrap()
}

pub fn client_config(
    provider: CryptoProvider,
    versions: &[&'static SupportedProtocolVersion],
    kt: KeyType,
) -> ClientConfig {
    ClientConfig::builder_with_provider(Arc::new(provider))
        .with_protocol_versions(versions)
        .unwrap()
        .with_root_certificates(identity(kt).roots.clone())
        .with_no_client_auth()
}

pub fn connect(client: &Arc<ClientConfig>, server: &Arc<ServerConfig>) -> (Connection, Connection) {
    let c =
        ClientConnection::new(client.clone(), ServerName::try_from("localhost").unwrap()).unwrap();
    let s = ServerConnection::new(server.clone()).unwrap();
    (Connection::Client(c), Connection::Server(s))
}

/// Moves everything `from` wants to write into `to`, letting `tamper` edit the bytes on the
/// way; `to` processes them and its plaintext is appended to `sink`. Returns `to`'s error.
pub fn pump_with(
    from: &mut Connection,
    to: &mut Connection,
    sink: &mut Vec<u8>,
    tamper: &mut dyn FnMut(&mut Vec<u8>),
) -> Result<usize, rustls::Error> {
    let mut buf = Vec::new();
    while from.wants_write() {
        from.write_tls(&mut buf).unwrap();
    }
    tamper(&mut buf);
    let n = buf.len();
    let mut rd = &buf[..];
    while !rd.is_empty() {
        to.read_tls(&mut rd).unwrap();
        to.process_new_packets()?;
        drain(to, sink);
    }
    Ok(n)
}

pub fn pump(
    from: &mut Connection,
    to: &mut Connection,
    sink: &mut Vec<u8>,
) -> Result<usize, rustls::Error> {
    pump_with(from, to, sink, &mut |_| {})
}

/// Reads all available plaintext of `conn` into `sink`.
pub fn drain(conn: &mut Connection, sink: &mut Vec<u8>) {
    let mut chunk = [0u8; 32 * 1024];
    loop {
        match conn.reader().read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => sink.extend_from_slice(&chunk[..n]),
            Err(_) => break, // WouldBlock: nothing more for now
        }
    }
}

/// Runs the handshake to completion (and delivers post-handshake messages such as tickets).
pub fn handshake(c: &mut Connection, s: &mut Connection) -> Result<(), rustls::Error> {
    let mut sink = Vec::new();
    for _ in 0..16 {
        let a = pump(c, s, &mut sink)?;
        let b = pump(s, c, &mut sink)?;
        if a == 0 && b == 0 && !c.is_handshaking() && !s.is_handshaking() {
            assert!(sink.is_empty(), "no application data during the handshake");
            return Ok(());
        }
    }
    panic!("handshake did not finish");
}

/// Sends `data` from `from` to `to` (in pieces as the buffers allow) and returns what `to`
/// received.
pub fn send(
    from: &mut Connection,
    to: &mut Connection,
    data: &[u8],
) -> Result<Vec<u8>, rustls::Error> {
    let mut got = Vec::new();
    let mut off = 0;
    // The writer buffers without limit; chunks keep memory flat for large transfers.
    while off < data.len() {
        let end = (off + 64 * 1024).min(data.len());
        from.writer().write_all(&data[off..end]).unwrap();
        off = end;
        pump(from, to, &mut got)?;
    }
    pump(from, to, &mut got)?;
    Ok(got)
}

/// Deterministic test bytes.
pub fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed) ^ (i >> 8) as u8)
        .collect()
}
