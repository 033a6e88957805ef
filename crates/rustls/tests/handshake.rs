//! In-memory handshakes against rustls' aws-lc-rs and ring providers, application data,
//! resumption, HelloRetryRequest and key update.

#[path = "support/common.rs"]
mod common;

use std::sync::Arc;

use common::*;
use rustls::{CipherSuite, HandshakeKind, NamedGroup, SupportedCipherSuite};

/// Outcome counts of a matrix run.
#[derive(Default, Debug)]
struct Counts {
    passed: usize,
    skipped_peer_lacks_group: usize,
    /// ML-DSA certificates with a peer that has no ML-DSA (ring).
    skipped_peer_lacks_signature: usize,
    not_applicable: usize,
}

fn our_groups() -> Vec<NamedGroup> {
    tessera_rustls::ALL_KX_GROUPS
        .iter()
        .map(|g| g.name())
        .collect()
}

/// One handshake: `ours_is_client` decides the direction. Returns false when the peer lacks
/// the group (skipped, not passed).
fn one(
    peer: &rustls::crypto::CryptoProvider,
    suite: SupportedCipherSuite,
    group: NamedGroup,
    kt: KeyType,
    ours_is_client: bool,
) -> bool {
    let id = [suite.suite()];
    let versions = [version_of(suite)];
    let mine = restrict(ours(), &id, &[group]).expect("our suite and group");
    let Some(theirs) = restrict(peer.clone(), &id, &[group]) else {
        return false;
    };
    let (client, server) = if ours_is_client {
        (mine, theirs)
    } else {
        (theirs, mine)
    };
    let cc = Arc::new(client_config(client, &versions, kt));
    let sc = Arc::new(server_config(server, &versions, kt));
    let (mut c, mut s) = connect(&cc, &sc);
    let what = format!(
        "{:?} {group:?} {kt:?} ours_is_client={ours_is_client}",
        suite.suite()
    );
    handshake(&mut c, &mut s).unwrap_or_else(|e| panic!("{what}: {e}"));
    // Our side really runs our suite and group (the same statics, not equal-named peers').
    let our_conn = if ours_is_client { &c } else { &s };
    let peer_conn = if ours_is_client { &s } else { &c };
    assert!(is_ours(our_conn), "{what}");
    assert!(!is_ours(peer_conn), "{what}");
    for conn in [&c, &s] {
        assert_eq!(
            conn.negotiated_cipher_suite().unwrap().suite(),
            suite.suite(),
            "{what}"
        );
        assert_eq!(
            conn.negotiated_key_exchange_group().unwrap().name(),
            group,
            "{what}"
        );
        assert_eq!(conn.handshake_kind(), Some(HandshakeKind::Full), "{what}");
    }
    // A little data each way through the negotiated record protection.
    let a = pattern(300, 1);
    assert_eq!(send(&mut c, &mut s, &a).unwrap(), a, "{what}");
    let b = pattern(301, 2);
    assert_eq!(send(&mut s, &mut c, &b).unwrap(), b, "{what}");
    true
}

/// Whether the negotiated suite and group of `conn` are this crate's objects.
fn is_ours(conn: &rustls::Connection) -> bool {
    let g = conn.negotiated_key_exchange_group().unwrap();
    let group_ours = tessera_rustls::ALL_KX_GROUPS
        .iter()
        .any(|o| std::ptr::addr_eq(*o as *const _, g as *const _));
    let s = conn.negotiated_cipher_suite().unwrap();
    let suite_ours = tessera_rustls::ALL_CIPHER_SUITES
        .iter()
        .any(|o| match (o, &s) {
            (SupportedCipherSuite::Tls13(a), SupportedCipherSuite::Tls13(b)) => {
                std::ptr::eq(*a, *b)
            }
            (SupportedCipherSuite::Tls12(a), SupportedCipherSuite::Tls12(b)) => {
                std::ptr::eq(*a, *b)
            }
            _ => false,
        });
    group_ours && suite_ours
}

fn matrix(peer_name: &str, tls13: bool) -> Counts {
    let peer = peers()
        .into_iter()
        .find(|(n, _)| *n == peer_name)
        .unwrap()
        .1;
    let mut counts = Counts::default();
    for &suite in tessera_rustls::ALL_CIPHER_SUITES {
        let is13 = matches!(suite, SupportedCipherSuite::Tls13(_));
        if is13 != tls13 {
            continue;
        }
        for group in our_groups() {
            for kt in KEY_TYPES {
                for ours_is_client in [true, false] {
                    if kt == KeyType::MlDsa65 {
                        // ML-DSA signs TLS 1.3 handshakes only; ring has no ML-DSA.
                        if !is13 {
                            counts.not_applicable += 1;
                            continue;
                        }
                        if peer_name == "ring" {
                            counts.skipped_peer_lacks_signature += 1;
                            continue;
                        }
                    }
                    // TLS 1.2 suites are bound to the certificate's key type, and the ML-KEM
                    // groups are TLS 1.3 only: such combinations cannot be negotiated at all.
                    if let SupportedCipherSuite::Tls12(s12) = suite {
                        let rsa_suite = s12.sign.contains(&rustls::SignatureScheme::RSA_PSS_SHA256);
                        let kem = !matches!(
                            group,
                            NamedGroup::X25519 | NamedGroup::secp256r1 | NamedGroup::secp384r1
                        );
                        if rsa_suite != kt.is_rsa() || kem {
                            counts.not_applicable += 1;
                            continue;
                        }
                    }
                    if one(&peer, suite, group, kt, ours_is_client) {
                        counts.passed += 1;
                    } else {
                        counts.skipped_peer_lacks_group += 1;
                    }
                }
            }
        }
    }
    println!("{peer_name} tls13={tls13}: {counts:?}");
    counts
}

#[test]
fn matrix_aws_tls13() {
    let c = matrix("aws-lc-rs", true);
    // 3 suites x 6 groups x 5 key types x 2 directions, all supported by aws-lc-rs.
    assert_eq!((c.passed, c.skipped_peer_lacks_group), (180, 0));
    assert_eq!(c.skipped_peer_lacks_signature, 0);
}

#[test]
fn matrix_ring_tls13() {
    let c = matrix("ring", true);
    // ring has X25519, secp256r1 and secp384r1 but no ML-KEM and no ML-DSA: 3 x 3 x 4 x 2 =
    // 72 passed, 3 x 3 x 4 x 2 = 72 skipped for the group, 3 x 6 x 2 = 36 for the ML-DSA
    // certificate, each explicitly.
    assert_eq!((c.passed, c.skipped_peer_lacks_group), (72, 72));
    assert_eq!(c.skipped_peer_lacks_signature, 36);
}

#[cfg(feature = "tls12")]
#[test]
fn matrix_aws_tls12() {
    let c = matrix("aws-lc-rs", false);
    // (3 ECDSA suites x 3 ECDSA/EdDSA keys + 3 RSA suites x 1 RSA key) x 3 groups x 2 directions.
    assert_eq!((c.passed, c.skipped_peer_lacks_group), (72, 0));
}

#[cfg(feature = "tls12")]
#[test]
fn matrix_ring_tls12() {
    let c = matrix("ring", false);
    assert_eq!((c.passed, c.skipped_peer_lacks_group), (72, 0));
}

/// A connected pair with `suite` (ours on one side, aws-lc-rs on the other), default groups.
fn pair(
    suite: SupportedCipherSuite,
    ours_is_client: bool,
) -> (rustls::Connection, rustls::Connection) {
    let kt = match suite {
        SupportedCipherSuite::Tls12(s)
            if s.sign.contains(&rustls::SignatureScheme::RSA_PSS_SHA256) =>
        {
            KeyType::Rsa2048
        }
        _ => KeyType::EcdsaP256,
    };
    let id = [suite.suite()];
    let versions = [version_of(suite)];
    let groups = [NamedGroup::X25519];
    let mine = restrict(ours(), &id, &groups).unwrap();
    let theirs = restrict(aws(), &id, &groups).unwrap();
    let (client, server) = if ours_is_client {
        (mine, theirs)
    } else {
        (theirs, mine)
    };
    let cc = Arc::new(client_config(client, &versions, kt));
    let sc = Arc::new(server_config(server, &versions, kt));
    let (mut c, mut s) = connect(&cc, &sc);
    handshake(&mut c, &mut s).unwrap();
    (c, s)
}

#[test]
fn application_data_sizes() {
    let sizes = [0usize, 1, 16383, 16384, 16385];
    let mut checked = 0;
    for &suite in tessera_rustls::ALL_CIPHER_SUITES {
        for ours_is_client in [true, false] {
            let (mut c, mut s) = pair(suite, ours_is_client);
            for (i, &n) in sizes.iter().enumerate() {
                let a = pattern(n, i as u8);
                assert_eq!(
                    send(&mut c, &mut s, &a).unwrap(),
                    a,
                    "{:?} {n}",
                    suite.suite()
                );
                let b = pattern(n, 100 + i as u8);
                assert_eq!(
                    send(&mut s, &mut c, &b).unwrap(),
                    b,
                    "{:?} {n}",
                    suite.suite()
                );
                checked += 2;
            }
        }
    }
    // 9 suites x 2 directions x 5 sizes x 2 ways.
    assert_eq!(checked, 180);
}

/// 1 MiB both ways, once per AEAD (TLS 1.3 suites), ours as client against aws-lc-rs.
#[test]
fn application_data_one_mebibyte() {
    let big = pattern(1 << 20, 7);
    for suite in [
        tessera_rustls::cipher_suite::TLS13_AES_128_GCM_SHA256,
        tessera_rustls::cipher_suite::TLS13_AES_256_GCM_SHA384,
        tessera_rustls::cipher_suite::TLS13_CHACHA20_POLY1305_SHA256,
    ] {
        let (mut c, mut s) = pair(suite, true);
        assert!(
            send(&mut c, &mut s, &big).unwrap() == big,
            "{:?}",
            suite.suite()
        );
        assert!(
            send(&mut s, &mut c, &big).unwrap() == big,
            "{:?}",
            suite.suite()
        );
    }
}

/// Resumption: two connections on the same configs; the second must resume.
fn resume(suite: SupportedCipherSuite, ours_is_client: bool, tickets: bool) {
    let id = [suite.suite()];
    let versions = [version_of(suite)];
    let groups = [NamedGroup::X25519];
    let mine = restrict(ours(), &id, &groups).unwrap();
    let theirs = restrict(aws(), &id, &groups).unwrap();
    let (client, server) = if ours_is_client {
        (mine, theirs)
    } else {
        (theirs, mine)
    };
    let cc = Arc::new(client_config(client, &versions, KeyType::EcdsaP256));
    let mut sc = server_config(server, &versions, KeyType::EcdsaP256);
    if tickets {
        // The ticketer of the server's side: ours when we are the server.
        sc.ticketer = if ours_is_client {
            rustls::crypto::aws_lc_rs::Ticketer::new().unwrap()
        } else {
            tessera_rustls::Ticketer::new().unwrap()
        };
        sc.send_tls13_tickets = 2;
        // No server-side session cache: resumption can only come from the ticket.
        sc.session_storage = Arc::new(rustls::server::NoServerSessionStorage {});
    } else {
        // The default ticketer never issues tickets: resumption can only come from the
        // server's session cache (TLS 1.2 session IDs, TLS 1.3 stateful PSKs).
        sc.send_tls13_tickets = 0;
    }
    let sc = Arc::new(sc);
    let what = format!(
        "{:?} ours_is_client={ours_is_client} tickets={tickets}",
        suite.suite()
    );
    let (mut c, mut s) = connect(&cc, &sc);
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(c.handshake_kind(), Some(HandshakeKind::Full), "{what}");
    let (mut c, mut s) = connect(&cc, &sc);
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(c.handshake_kind(), Some(HandshakeKind::Resumed), "{what}");
    assert_eq!(s.handshake_kind(), Some(HandshakeKind::Resumed), "{what}");
    let a = pattern(1000, 3);
    assert_eq!(send(&mut c, &mut s, &a).unwrap(), a, "{what}");
}

#[test]
fn resumption_tls13_tickets() {
    for suite in [
        tessera_rustls::cipher_suite::TLS13_AES_128_GCM_SHA256,
        tessera_rustls::cipher_suite::TLS13_AES_256_GCM_SHA384,
        tessera_rustls::cipher_suite::TLS13_CHACHA20_POLY1305_SHA256,
    ] {
        for ours_is_client in [true, false] {
            resume(suite, ours_is_client, true);
        }
    }
}

#[cfg(feature = "tls12")]
#[test]
fn resumption_tls12_tickets_and_session_ids() {
    use tessera_rustls::cipher_suite as cs;
    for suite in [
        cs::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
        cs::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        cs::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
    ] {
        for ours_is_client in [true, false] {
            resume(suite, ours_is_client, true);
            resume(suite, ours_is_client, false);
        }
    }
}

/// HelloRetryRequest: the client's first group is one the server lacks.
#[test]
fn hello_retry_request() {
    let cases: [(&[NamedGroup], NamedGroup); 3] = [
        (
            &[NamedGroup::X25519MLKEM768, NamedGroup::secp256r1],
            NamedGroup::secp256r1,
        ),
        (
            &[NamedGroup::MLKEM1024, NamedGroup::X25519],
            NamedGroup::X25519,
        ),
        (
            &[NamedGroup::secp256r1, NamedGroup::MLKEM768],
            NamedGroup::MLKEM768,
        ),
    ];
    for (client_groups, server_group) in cases {
        for ours_is_client in [true, false] {
            let id = [CipherSuite::TLS13_AES_128_GCM_SHA256];
            let versions = [&rustls::version::TLS13];
            let (cp, sp) = if ours_is_client {
                (ours(), aws())
            } else {
                (aws(), ours())
            };
            let cp = restrict(cp, &id, client_groups).unwrap();
            let sp = restrict(sp, &id, &[server_group]).unwrap();
            let cc = Arc::new(client_config(cp, &versions, KeyType::Ed25519));
            let sc = Arc::new(server_config(sp, &versions, KeyType::Ed25519));
            let (mut c, mut s) = connect(&cc, &sc);
            handshake(&mut c, &mut s).unwrap();
            let what =
                format!("{client_groups:?} -> {server_group:?} ours_is_client={ours_is_client}");
            assert_eq!(
                c.handshake_kind(),
                Some(HandshakeKind::FullWithHelloRetryRequest),
                "{what}"
            );
            assert_eq!(
                c.negotiated_key_exchange_group().unwrap().name(),
                server_group,
                "{what}"
            );
            let a = pattern(100, 9);
            assert_eq!(send(&mut c, &mut s, &a).unwrap(), a, "{what}");
        }
    }
}

/// The hybrid's X25519 share doubles as the X25519 share: a server with X25519 only answers
/// it without a HelloRetryRequest.
#[test]
fn hybrid_component_share_avoids_hrr() {
    let id = [CipherSuite::TLS13_AES_128_GCM_SHA256];
    let versions = [&rustls::version::TLS13];
    let cp = restrict(
        ours(),
        &id,
        &[NamedGroup::X25519MLKEM768, NamedGroup::X25519],
    )
    .unwrap();
    let sp = restrict(aws(), &id, &[NamedGroup::X25519]).unwrap();
    let cc = Arc::new(client_config(cp, &versions, KeyType::EcdsaP256));
    let sc = Arc::new(server_config(sp, &versions, KeyType::EcdsaP256));
    let (mut c, mut s) = connect(&cc, &sc);
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(c.handshake_kind(), Some(HandshakeKind::Full));
    assert_eq!(
        c.negotiated_key_exchange_group().unwrap().name(),
        NamedGroup::X25519
    );
}

/// TLS 1.3 key update from either side, then data both ways under the new keys.
#[test]
fn key_update() {
    for suite in [
        tessera_rustls::cipher_suite::TLS13_AES_128_GCM_SHA256,
        tessera_rustls::cipher_suite::TLS13_AES_256_GCM_SHA384,
        tessera_rustls::cipher_suite::TLS13_CHACHA20_POLY1305_SHA256,
    ] {
        for ours_is_client in [true, false] {
            let (mut c, mut s) = pair(suite, ours_is_client);
            for round in 0..3u8 {
                if round % 2 == 0 {
                    c.refresh_traffic_keys().unwrap();
                } else {
                    s.refresh_traffic_keys().unwrap();
                }
                let a = pattern(5000, round);
                assert_eq!(send(&mut c, &mut s, &a).unwrap(), a);
                let b = pattern(5001, round + 50);
                assert_eq!(send(&mut s, &mut c, &b).unwrap(), b);
            }
        }
    }
}

/// Both sides ours (no peer at all, apart from the temporary signature substitution), every
/// suite with every group it can use.
#[test]
fn ours_against_ours() {
    let mut cases = 0;
    for &suite in tessera_rustls::ALL_CIPHER_SUITES {
        let kt = match suite {
            SupportedCipherSuite::Tls12(s)
                if s.sign.contains(&rustls::SignatureScheme::RSA_PSS_SHA256) =>
            {
                KeyType::Rsa2048
            }
            _ => KeyType::Ed25519,
        };
        let versions = [version_of(suite)];
        for group in our_groups() {
            let tls12 = matches!(suite, SupportedCipherSuite::Tls12(_));
            if tls12
                && !matches!(
                    group,
                    NamedGroup::X25519 | NamedGroup::secp256r1 | NamedGroup::secp384r1
                )
            {
                continue;
            }
            let p = restrict(ours(), &[suite.suite()], &[group]).unwrap();
            let cc = Arc::new(client_config(p.clone(), &versions, kt));
            let mut sc = server_config(p, &versions, kt);
            sc.ticketer = tessera_rustls::Ticketer::new().unwrap();
            let sc = Arc::new(sc);
            let (mut c, mut s) = connect(&cc, &sc);
            handshake(&mut c, &mut s).unwrap();
            assert!(is_ours(&c) && is_ours(&s));
            assert_eq!(c.negotiated_key_exchange_group().unwrap().name(), group);
            let a = pattern(20000, 4);
            assert_eq!(send(&mut c, &mut s, &a).unwrap(), a);
            assert_eq!(send(&mut s, &mut c, &a).unwrap(), a);
            cases += 1;
        }
    }
    // 3 TLS 1.3 suites x 6 groups + 6 TLS 1.2 suites x 3 groups.
    assert_eq!(cases, 36);
}
