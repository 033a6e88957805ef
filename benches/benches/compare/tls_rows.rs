//! The TLS rows: the same rustls 0.23 on Tessera's provider (`tessera-rustls`) against rustls
//! on its own aws-lc-rs and ring providers and on graviola's (`rustls-graviola`). Every
//! contestant is a client and a server of one provider in this process, joined by a buffer:
//!
//! - `tls13-data-*` (size 16 KiB): one application-data record sent by the client and received
//!   by the server (seal, framing, open), the connection pair set up once;
//! - `tls13-handshake-*`: a full TLS 1.3 handshake (new connections, both sides, ECDSA P-256
//!   certificate chain verified by the client), no tickets;
//! - `tls13-resume-*`: a TLS 1.3 resumption handshake (a ticket from the server's in-memory
//!   session store, a fresh (EC)DHE share), the first one made outside the timing.

use crate::*;
use rustls::client::Resumption;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName};
use rustls::server::NoServerSessionStorage;
use rustls::{
    CipherSuite, ClientConfig, ClientConnection, HandshakeKind, NamedGroup, RootCertStore,
    ServerConfig, ServerConnection,
};
use std::io::{Read, Write};
use std::sync::{Arc, OnceLock};

pub(crate) const TLS_NOTES: [&str; 3] = [
    "every contestant is rustls 0.23 with one CryptoProvider on both sides (client and server in this process, joined by an in-memory buffer); tessera is tessera-rustls, graviola is rustls-graviola",
    "data rows: one 16 KiB application-data record client to server per iteration (the client's write and seal, the server's read, open and copy out); rustls' own buffer copies are in every contestant's time",
    "handshake rows: a CA-signed ECDSA P-256 leaf (rcgen), verified by the client through rustls' WebPKI verifier on the provider's signature algorithms; full rows have resumption off, the resumption row resumes from the server's session store",
];

/// The contestants of the TLS rows: (name, role, provider).
fn tls_providers() -> Vec<(&'static str, Role, CryptoProvider)> {
    vec![
        (
            "tessera/tessera-rustls",
            Role::Reference,
            tessera_rustls::provider(),
        ),
        (
            "aws-lc-rs",
            Role::Peer,
            rustls::crypto::aws_lc_rs::default_provider(),
        ),
        // Deprecated in rustls only because it lacks the post-quantum groups (the ML-KEM
        // handshake row leaves ring out).
        #[allow(deprecated)]
        ("ring", Role::Peer, rustls::crypto::ring::default_provider()),
        ("graviola", Role::Peer, rustls_graviola::default_provider()),
    ]
}

/// A CA-signed ECDSA P-256 leaf for `localhost` and its CA (made once per process).
struct Pki {
    ca: CertificateDer<'static>,
    chain: Vec<CertificateDer<'static>>,
    key: Vec<u8>,
}

fn pki() -> &'static Pki {
    static PKI: OnceLock<Pki> = OnceLock::new();
    PKI.get_or_init(|| {
        let alg = &rcgen::PKCS_ECDSA_P256_SHA256;
        let ca_key = rcgen::KeyPair::generate_for(alg).expect("CA key");
        let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("CA");
        ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        ca_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "tessera bench CA");
        let ca = ca_params.self_signed(&ca_key).expect("CA certificate");
        let issuer = rcgen::Issuer::new(ca_params, ca_key);
        let leaf_key = rcgen::KeyPair::generate_for(alg).expect("leaf key");
        let leaf = rcgen::CertificateParams::new(vec!["localhost".to_string()])
            .expect("leaf")
            .signed_by(&leaf_key, &issuer)
            .expect("leaf certificate");
        Pki {
            ca: ca.der().clone(),
            chain: vec![leaf.der().clone()],
            key: leaf_key.serialize_der(),
        }
    })
}

/// The client and server configurations of `provider` restricted to one TLS 1.3 suite and one
/// group; `resume` keeps rustls' default session stores and tickets, else both are off.
fn tls_configs(
    provider: &CryptoProvider,
    suite: CipherSuite,
    group: NamedGroup,
    resume: bool,
) -> (Arc<ClientConfig>, Arc<ServerConfig>) {
    let mut p = provider.clone();
    p.cipher_suites.retain(|s| s.suite() == suite);
    p.kx_groups.retain(|g| g.name() == group);
    assert_eq!(p.cipher_suites.len(), 1, "the provider lacks {suite:?}");
    assert_eq!(p.kx_groups.len(), 1, "the provider lacks {group:?}");
    let p = Arc::new(p);
    let pki = pki();
    let mut roots = RootCertStore::empty();
    roots.add(pki.ca.clone()).expect("CA as a root");
    let mut client = ClientConfig::builder_with_provider(p.clone())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .expect("TLS 1.3")
        .with_root_certificates(roots)
        .with_no_client_auth();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(pki.key.clone()));
    let mut server = ServerConfig::builder_with_provider(p)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .expect("TLS 1.3")
        .with_no_client_auth()
        .with_single_cert(pki.chain.clone(), key)
        .expect("server certificate");
    if !resume {
        client.resumption = Resumption::disabled();
        server.session_storage = Arc::new(NoServerSessionStorage {});
        server.send_tls13_tickets = 0;
    }
    (Arc::new(client), Arc::new(server))
}

/// Moves everything `from` wants to write into `to`, through `wire`.
fn flight(
    from: &mut rustls::ConnectionCommon<impl rustls::SideData>,
    to: &mut rustls::ConnectionCommon<impl rustls::SideData>,
    wire: &mut Vec<u8>,
) -> bool {
    wire.clear();
    while from.wants_write() {
        from.write_tls(wire).expect("write_tls");
    }
    let mut rest = &wire[..];
    while !rest.is_empty() {
        to.read_tls(&mut rest).expect("read_tls");
        to.process_new_packets().expect("process_new_packets");
    }
    !wire.is_empty()
}

/// Runs a handshake (and the tickets after it) to the end.
fn handshake(c: &mut ClientConnection, s: &mut ServerConnection, wire: &mut Vec<u8>) {
    loop {
        let a = flight(c, s, wire);
        let b = flight(s, c, wire);
        if !a && !b && !c.is_handshaking() && !s.is_handshaking() {
            break;
        }
    }
}

fn connect(
    client: &Arc<ClientConfig>,
    server: &Arc<ServerConfig>,
    wire: &mut Vec<u8>,
) -> (ClientConnection, ServerConnection) {
    let name = ServerName::try_from("localhost").expect("server name");
    let mut c = ClientConnection::new(client.clone(), name).expect("client connection");
    let mut s = ServerConnection::new(server.clone()).expect("server connection");
    handshake(&mut c, &mut s, wire);
    (c, s)
}

/// Checks the suite and the group a pair negotiated.
fn check_negotiated(name: &str, c: &ClientConnection, suite: CipherSuite, group: NamedGroup) {
    assert_eq!(
        c.negotiated_cipher_suite().map(|s| s.suite()),
        Some(suite),
        "{name}: suite"
    );
    assert_eq!(
        c.negotiated_key_exchange_group().map(|g| g.name()),
        Some(group),
        "{name}: group"
    );
}

/// `tls13-data-*`: one `size`-byte record client to server per iteration.
pub(crate) fn build_tls_data(suite: CipherSuite, size: usize) -> Built {
    let msg = input(size, 0x715);
    let mut cs = Vec::new();
    for (name, role, provider) in tls_providers() {
        let (client, server) = tls_configs(&provider, suite, NamedGroup::X25519, false);
        let mut wire = Vec::with_capacity(2 * size + 1024);
        let (mut c, mut s) = connect(&client, &server, &mut wire);
        check_negotiated(name, &c, suite, NamedGroup::X25519);
        let msg = AlignedBuf::from_slice(&msg);
        let mut out = AlignedBuf::zeroed(size);
        let mut send = move |out: &mut [u8]| {
            c.writer().write_all(&msg).expect("write");
            flight(&mut c, &mut s, &mut wire);
            s.reader().read_exact(out).expect("read");
            black_box(&*out);
        };
        send(&mut out);
        assert_eq!(&*out, &input(size, 0x715)[..], "{name}: data differs");
        cs.push(Contestant::new(name, role, move || send(&mut out)));
    }
    Built {
        contestants: cs,
        notes: TLS_NOTES.iter().map(|n| n.to_string()).collect(),
    }
}

/// `tls13-handshake-*` (`resume` false) and `tls13-resume-*`: one handshake per iteration.
pub(crate) fn build_tls_handshake(group: NamedGroup, resume: bool) -> Built {
    let suite = CipherSuite::TLS13_AES_128_GCM_SHA256;
    let mut cs = Vec::new();
    for (name, role, provider) in tls_providers() {
        if !provider.kx_groups.iter().any(|g| g.name() == group) {
            continue; // ring has no ML-KEM group
        }
        let (client, server) = tls_configs(&provider, suite, group, resume);
        let mut wire = Vec::with_capacity(16384);
        let (c, _) = connect(&client, &server, &mut wire);
        check_negotiated(name, &c, suite, group);
        assert_eq!(c.handshake_kind(), Some(HandshakeKind::Full), "{name}");
        if resume {
            let (c, _) = connect(&client, &server, &mut wire);
            assert_eq!(
                c.handshake_kind(),
                Some(HandshakeKind::Resumed),
                "{name}: no resumption"
            );
        }
        cs.push(Contestant::new(name, role, move || {
            black_box(connect(&client, &server, &mut wire));
        }));
    }
    Built {
        contestants: cs,
        notes: TLS_NOTES.iter().map(|n| n.to_string()).collect(),
    }
}

/// The TLS rows, in table order.
pub(crate) fn tls_specs(v: &mut Vec<Spec>) {
    let mut add = |op: &'static str, size: usize, build: fn(usize) -> Built| {
        v.push(Spec {
            op,
            size,
            ways: 1,
            soft: false,
            budget: 1.0,
            full_only: false,
            build,
        });
    };
    add("tls13-data-aes128-gcm", 16384, |n| {
        build_tls_data(CipherSuite::TLS13_AES_128_GCM_SHA256, n)
    });
    add("tls13-data-aes256-gcm", 16384, |n| {
        build_tls_data(CipherSuite::TLS13_AES_256_GCM_SHA384, n)
    });
    add("tls13-data-chacha20poly1305", 16384, |n| {
        build_tls_data(CipherSuite::TLS13_CHACHA20_POLY1305_SHA256, n)
    });
    add("tls13-handshake-x25519mlkem768-p256", 0, |_| {
        build_tls_handshake(NamedGroup::X25519MLKEM768, false)
    });
    add("tls13-handshake-x25519-p256", 0, |_| {
        build_tls_handshake(NamedGroup::X25519, false)
    });
    add("tls13-resume-x25519-p256", 0, |_| {
        build_tls_handshake(NamedGroup::X25519, true)
    });
}
