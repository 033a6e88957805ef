//! QUIC: RFC 9001 appendix A vectors for our header and packet protection, and QUIC
//! handshakes (rustls' `quic` connections) against aws-lc-rs with the derived 1-RTT keys used
//! across the two implementations.

#[path = "support/common.rs"]
mod common;

use std::sync::Arc;

use common::*;
use rustls::crypto::cipher::{AeadKey, Iv};
use rustls::quic::{self, KeyChange, Keys, Version};
use rustls::{CipherSuite, NamedGroup, Side, SupportedCipherSuite, Tls13CipherSuite};

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn ours13(suite: CipherSuite) -> &'static Tls13CipherSuite {
    tessera_rustls::ALL_CIPHER_SUITES
        .iter()
        .find(|s| s.suite() == suite)
        .and_then(|s| s.tls13())
        .unwrap()
}

/// RFC 9001 A.2: the client Initial's header protection (AES-128) from the initial keys
/// derived for DCID 0x8394c8f03e515708 (HKDF and header protection both ours).
#[test]
fn rfc9001_initial_header_protection() {
    let suite = ours13(CipherSuite::TLS13_AES_128_GCM_SHA256);
    let keys = Keys::initial(
        Version::V1,
        suite,
        suite.quic.unwrap(),
        &hex("8394c8f03e515708"),
        Side::Client,
    );
    let sample = hex("d1b1c98dd7689fb8ec11d242b123dc9b");
    let mut first = 0xc3u8;
    let mut pn = hex("00000002");
    keys.local
        .header
        .encrypt_in_place(&sample, &mut first, &mut pn)
        .unwrap();
    assert_eq!((first, pn.clone()), (0xc0, hex("7b9aec34")));
    keys.local
        .header
        .decrypt_in_place(&sample, &mut first, &mut pn)
        .unwrap();
    assert_eq!((first, pn), (0xc3, hex("00000002")));
}

/// RFC 9001 A.5: a ChaCha20-Poly1305 short-header packet (packet and header protection).
#[test]
fn rfc9001_chacha20_short_header() {
    let suite = ours13(CipherSuite::TLS13_CHACHA20_POLY1305_SHA256);
    let q = suite.quic.unwrap();
    let key: [u8; 32] = hex("c6d98ff3441c3fe1b2182094f69caa2ed4b716b65488960a7a984979fb23e1c8")
        .try_into()
        .unwrap();
    let iv: [u8; 12] = hex("e0459b3474bdd0e44a41c144").try_into().unwrap();
    let hp: [u8; 32] = hex("25a282b9e82f06f21f488917a4fc8f1b73573685608597d0efcb076b0ab7a7a4")
        .try_into()
        .unwrap();
    let packet = q.packet_key(AeadKey::from(key), Iv::from(iv));
    let header = hex("4200bff4");
    let mut payload = vec![0x01u8];
    let tag = packet
        .encrypt_in_place(654360564, &header, &mut payload)
        .unwrap();
    payload.extend_from_slice(tag.as_ref());
    assert_eq!(payload, hex("655e5cd55c41f69080575d7999c25a5bfb"));
    let h = q.header_protection_key(AeadKey::from(hp));
    let mut first = header[0];
    let mut pn = header[1..].to_vec();
    h.encrypt_in_place(&payload[1..17], &mut first, &mut pn)
        .unwrap();
    let mut protected = vec![first];
    protected.extend_from_slice(&pn);
    protected.extend_from_slice(&payload);
    assert_eq!(protected, hex("4cfe4189655e5cd55c41f69080575d7999c25a5bfb"));
    // And back.
    let mut ct = payload.clone();
    assert_eq!(
        packet
            .decrypt_in_place(654360564, &header, &mut ct)
            .unwrap(),
        &[0x01]
    );
}

/// The 1-RTT keys each side derived, after a QUIC handshake.
struct OneRtt {
    keys: Keys,
    next: quic::Secrets,
}

// `read_hs` (deprecated for `read_hs_in_space`) is fine here: each flight is handed over
// whole and in order, as rustls' own QUIC tests do.
#[allow(deprecated)]
fn quic_handshake(
    client: &mut quic::ClientConnection,
    server: &mut quic::ServerConnection,
) -> (OneRtt, OneRtt) {
    let (mut ck, mut sk) = (None, None);
    for _ in 0..16 {
        let mut buf = Vec::new();
        if let Some(KeyChange::OneRtt { keys, next }) = client.write_hs(&mut buf) {
            ck = Some(OneRtt { keys, next });
        }
        let a = buf.len();
        if !buf.is_empty() {
            server.read_hs(&buf).unwrap();
        }
        let mut buf = Vec::new();
        if let Some(KeyChange::OneRtt { keys, next }) = server.write_hs(&mut buf) {
            sk = Some(OneRtt { keys, next });
        }
        let b = buf.len();
        if !buf.is_empty() {
            client.read_hs(&buf).unwrap();
        }
        if a == 0 && b == 0 && !client.is_handshaking() && !server.is_handshaking() {
            break;
        }
    }
    (
        ck.expect("client 1-RTT keys"),
        sk.expect("server 1-RTT keys"),
    )
}

/// One 1-RTT packet from `from` to `to`: header protection and packet protection.
fn exchange(from: &Keys, to: &Keys, pn: u64) {
    let header = [0x41u8, 0, 0, 0, 0x2a];
    let body = pattern(300, pn as u8);
    let mut ct = body.clone();
    let tag = from
        .local
        .packet
        .encrypt_in_place(pn, &header, &mut ct)
        .unwrap();
    ct.extend_from_slice(tag.as_ref());
    let (mut first, mut pnb) = (header[0], header[1..].to_vec());
    from.local
        .header
        .encrypt_in_place(&ct[..16], &mut first, &mut pnb)
        .unwrap();
    to.remote
        .header
        .decrypt_in_place(&ct[..16], &mut first, &mut pnb)
        .unwrap();
    assert_eq!((first, &pnb[..]), (header[0], &header[1..]));
    assert_eq!(
        to.remote
            .packet
            .decrypt_in_place(pn, &header, &mut ct)
            .unwrap(),
        &body[..]
    );
}

#[test]
fn quic_handshakes_against_aws_lc_rs() {
    let mut cases = 0;
    for &suite in tessera_rustls::ALL_CIPHER_SUITES {
        let SupportedCipherSuite::Tls13(_) = suite else {
            continue;
        };
        // QUIC Initial packets always use TLS13_AES_128_GCM_SHA256, so it stays in the list.
        let mut ids = vec![suite.suite()];
        if suite.suite() != CipherSuite::TLS13_AES_128_GCM_SHA256 {
            ids.push(CipherSuite::TLS13_AES_128_GCM_SHA256);
        }
        for ours_is_client in [true, false] {
            let groups = [NamedGroup::X25519MLKEM768];
            let mine = restrict(ours(), &ids, &groups).unwrap();
            let theirs = restrict(aws(), &ids, &groups).unwrap();
            let (cp, sp) = if ours_is_client {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            let versions = [&rustls::version::TLS13];
            let mut cc = client_config(cp, &versions, KeyType::EcdsaP256);
            cc.alpn_protocols = vec![b"h3".to_vec()];
            let mut sc = server_config(sp, &versions, KeyType::EcdsaP256);
            sc.alpn_protocols = vec![b"h3".to_vec()];
            let mut c = quic::ClientConnection::new(
                Arc::new(cc),
                Version::V1,
                "localhost".try_into().unwrap(),
                b"client params".to_vec(),
            )
            .unwrap();
            let mut s =
                quic::ServerConnection::new(Arc::new(sc), Version::V1, b"server params".to_vec())
                    .unwrap();
            let (mut ck, mut sk) = quic_handshake(&mut c, &mut s);
            assert_eq!(c.negotiated_cipher_suite().unwrap().suite(), suite.suite());
            assert_eq!(c.quic_transport_parameters(), Some(&b"server params"[..]));
            exchange(&ck.keys, &sk.keys, 1);
            exchange(&sk.keys, &ck.keys, 2);
            // A QUIC key update: both sides move to the next packet keys.
            let (cn, sn) = (ck.next.next_packet_keys(), sk.next.next_packet_keys());
            let body = pattern(50, 3);
            let mut ct = body.clone();
            let tag = cn.local.encrypt_in_place(3, b"hdr", &mut ct).unwrap();
            ct.extend_from_slice(tag.as_ref());
            assert_eq!(
                sn.remote.decrypt_in_place(3, b"hdr", &mut ct).unwrap(),
                &body[..]
            );
            cases += 1;
        }
    }
    assert_eq!(cases, 6);
}
