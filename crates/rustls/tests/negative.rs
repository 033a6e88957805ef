//! Bad input: peer key shares at the `SupportedKxGroup` / `ActiveKeyExchange` level, and
//! tampered or truncated records, at the record-protection level and between connections.
//! Every case must be an error (an alert on the wire), never a panic. Positive controls
//! show that the same paths accept good input.

#[path = "support/common.rs"]
mod common;

use common::*;
use rustls::crypto::SupportedKxGroup;
use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, Iv, OutboundChunks, OutboundPlainMessage,
};
use rustls::{
    ContentType, Error, NamedGroup, PeerMisbehaved, ProtocolVersion, SupportedCipherSuite,
};
use tessera_rustls::kx_group;

fn is_bad_share<T>(r: Result<T, Error>) -> bool {
    matches!(
        r,
        Err(Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare))
    )
}

fn aws_group(name: NamedGroup) -> &'static dyn SupportedKxGroup {
    *rustls::crypto::aws_lc_rs::ALL_KX_GROUPS
        .iter()
        .find(|g| g.name() == name)
        .unwrap()
}

/// Positive control and differential check: each of our groups agrees with aws-lc-rs's in
/// both roles (ours starting, theirs completing, and the reverse).
#[test]
fn kx_agrees_with_aws_lc_rs() {
    for &ours in tessera_rustls::ALL_KX_GROUPS {
        let theirs = aws_group(ours.name());
        // Ours as the initiator (client side).
        let a = ours.start().unwrap();
        let done = theirs.start_and_complete(a.pub_key()).unwrap();
        let s = a.complete(&done.pub_key).unwrap();
        assert_eq!(
            s.secret_bytes(),
            done.secret.secret_bytes(),
            "{:?}",
            ours.name()
        );
        // Theirs as the initiator, ours completing (server side).
        let b = theirs.start().unwrap();
        let done = ours.start_and_complete(b.pub_key()).unwrap();
        assert_eq!(done.group, ours.name());
        let s = b.complete(&done.pub_key).unwrap();
        assert_eq!(
            s.secret_bytes(),
            done.secret.secret_bytes(),
            "{:?}",
            ours.name()
        );
    }
}

/// Small-order and zero X25519 points: the shared secret would be all zero.
fn low_order_x25519() -> Vec<[u8; 32]> {
    let mut pts = Vec::new();
    let mut zero = [0u8; 32];
    pts.push(zero);
    zero[0] = 1; // u = 1 (order 4)
    pts.push(zero);
    // A point of order 8 (u = 325606250916557431795983626356110631294008115727848805560023387167927233504).
    let h = "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800";
    let mut p8 = [0u8; 32];
    for i in 0..32 {
        p8[i] = u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap();
    }
    pts.push(p8);
    // u = p = 2^255 - 19 (non-canonical zero) and p + 1 (non-canonical one).
    let mut p = [0xffu8; 32];
    p[0] = 0xed;
    p[31] = 0x7f;
    pts.push(p);
    let mut p1 = p;
    p1[0] = 0xee;
    pts.push(p1);
    pts
}

#[test]
fn x25519_bad_shares() {
    let mut cases = 0;
    for pt in low_order_x25519() {
        assert!(
            is_bad_share(kx_group::X25519.start().unwrap().complete(&pt)),
            "{pt:02x?}"
        );
        assert!(is_bad_share(kx_group::X25519.start_and_complete(&pt)));
        cases += 2;
    }
    let good = kx_group::X25519.start().unwrap().pub_key().to_vec();
    for len in [0, 1, 31, 33, 64] {
        let mut v = good.clone();
        v.resize(len, 7);
        assert!(
            is_bad_share(kx_group::X25519.start().unwrap().complete(&v)),
            "len {len}"
        );
        cases += 1;
    }
    assert_eq!(cases, 15);
}

#[test]
fn p256_bad_shares() {
    let good = kx_group::SECP256R1.start().unwrap().pub_key().to_vec();
    assert_eq!(good.len(), 65);
    // Control: the good share works.
    assert!(kx_group::SECP256R1.start().unwrap().complete(&good).is_ok());
    let mut bad: Vec<Vec<u8>> = Vec::new();
    let mut v = good.clone();
    v[64] ^= 1; // y + 1 or y - 1: off the curve
    bad.push(v);
    let mut v = good.clone();
    v[10] ^= 0x40; // x changed: off the curve (with overwhelming probability for this y)
    bad.push(v);
    // Compressed form of a valid point: refused (TLS 1.3 uses uncompressed points only).
    let mut c = vec![2 + (good[64] & 1)];
    c.extend_from_slice(&good[1..33]);
    bad.push(c);
    // Hybrid-form prefix 0x06/0x07 and a wrong prefix.
    for prefix in [0u8, 3, 6, 7] {
        let mut v = good.clone();
        v[0] = prefix;
        bad.push(v);
    }
    // x = p (not below the field prime), x = 2^256 - 1.
    let p = [
        0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    ];
    let mut v = good.clone();
    v[1..33].copy_from_slice(&p);
    bad.push(v);
    let mut v = good.clone();
    v[1..33].fill(0xff);
    bad.push(v);
    // All-zero coordinates, the identity encoding, and wrong lengths.
    let mut v = vec![4u8];
    v.resize(65, 0);
    bad.push(v);
    bad.push(vec![0]);
    bad.push(vec![]);
    bad.push(good[..64].to_vec());
    let mut v = good.clone();
    v.push(0);
    bad.push(v);
    for b in &bad {
        assert!(
            is_bad_share(kx_group::SECP256R1.start().unwrap().complete(b)),
            "{b:02x?}"
        );
    }
    assert_eq!(bad.len(), 14);
}

#[test]
fn p384_bad_shares() {
    let good = kx_group::SECP384R1.start().unwrap().pub_key().to_vec();
    assert_eq!(good.len(), 97);
    // Control: the good share works (kx_agrees_with_aws_lc_rs checks the secret).
    assert!(kx_group::SECP384R1.start().unwrap().complete(&good).is_ok());
    let mut bad: Vec<Vec<u8>> = Vec::new();
    let mut v = good.clone();
    v[96] ^= 1; // y changed: off the curve
    bad.push(v);
    // Compressed form of a valid point, hybrid and wrong prefixes.
    let mut c = vec![2 + (good[96] & 1)];
    c.extend_from_slice(&good[1..49]);
    bad.push(c);
    for prefix in [0u8, 3, 6, 7] {
        let mut v = good.clone();
        v[0] = prefix;
        bad.push(v);
    }
    // x = 2^384 - 1 (above the field prime), all-zero coordinates, wrong lengths.
    let mut v = good.clone();
    v[1..49].fill(0xff);
    bad.push(v);
    let mut v = vec![4u8];
    v.resize(97, 0);
    bad.push(v);
    bad.push(vec![]);
    bad.push(good[..96].to_vec());
    let mut v = good.clone();
    v.push(0);
    bad.push(v);
    for b in &bad {
        assert!(
            is_bad_share(kx_group::SECP384R1.start().unwrap().complete(b)),
            "{b:02x?}"
        );
    }
    assert_eq!(bad.len(), 11);
}

/// A valid encapsulation key with its first coefficient set to 4095 (>= q = 3329).
fn ek_with_big_coefficient(ek: &[u8]) -> Vec<u8> {
    let mut v = ek.to_vec();
    v[0] = 0xff;
    v[1] |= 0x0f;
    v
}

#[test]
fn mlkem_bad_shares() {
    let mut cases = 0;
    for (group, ek_len, ct_len) in [
        (kx_group::MLKEM768, 1184usize, 1088usize),
        (kx_group::MLKEM1024, 1568, 1568),
    ] {
        let client = group.start().unwrap();
        let ek = client.pub_key().to_vec();
        assert_eq!(ek.len(), ek_len);
        // Server side: the client's encapsulation key.
        for len in [0, 1, ek_len - 1, ek_len + 1] {
            let mut v = ek.clone();
            v.resize(len, 0);
            assert!(
                is_bad_share(group.start_and_complete(&v)),
                "{:?} len {len}",
                group.name()
            );
            cases += 1;
        }
        assert!(is_bad_share(
            group.start_and_complete(&ek_with_big_coefficient(&ek))
        ));
        // The last coefficient of the last polynomial (just before rho) too.
        let mut v = ek.clone();
        let end = ek_len - 32;
        v[end - 1] = 0xff;
        v[end - 2] |= 0xf0;
        assert!(is_bad_share(group.start_and_complete(&v)));
        cases += 2;
        // Client side: the server's ciphertext.
        let done = group.start_and_complete(&ek).unwrap();
        assert_eq!(done.pub_key.len(), ct_len);
        for len in [0, ct_len - 1, ct_len + 1] {
            let mut v = done.pub_key.clone();
            v.resize(len, 0);
            assert!(
                is_bad_share(group.start().unwrap().complete(&v)),
                "ct len {len}"
            );
            cases += 1;
        }
        // Control: the right ciphertext gives the server's secret.
        let s = client.complete(&done.pub_key).unwrap();
        assert_eq!(s.secret_bytes(), done.secret.secret_bytes());
    }
    assert_eq!(cases, 18);
}

#[test]
fn x25519mlkem768_bad_shares() {
    let g = kx_group::X25519MLKEM768;
    let client = g.start().unwrap();
    let share = client.pub_key().to_vec();
    assert_eq!(share.len(), 1184 + 32);
    let mut bad: Vec<Vec<u8>> = Vec::new();
    for len in [0, 32, 1184, 1215, 1217] {
        let mut v = share.clone();
        v.resize(len, 0);
        bad.push(v);
    }
    bad.push(ek_with_big_coefficient(&share));
    for pt in low_order_x25519() {
        let mut v = share.clone();
        v[1184..].copy_from_slice(&pt);
        bad.push(v);
    }
    for b in &bad {
        assert!(is_bad_share(g.start_and_complete(b)), "len {}", b.len());
    }
    // Client side: wrong ciphertext lengths and a zero X25519 part.
    let done = g.start_and_complete(&share).unwrap();
    assert_eq!(done.pub_key.len(), 1088 + 32);
    let mut ct_bad = Vec::new();
    for len in [0, 1088, 1119, 1121] {
        let mut v = done.pub_key.clone();
        v.resize(len, 0);
        ct_bad.push(v);
    }
    for pt in low_order_x25519() {
        let mut v = done.pub_key.clone();
        v[1088..].copy_from_slice(&pt);
        ct_bad.push(v);
    }
    for b in &ct_bad {
        assert!(
            is_bad_share(g.start().unwrap().complete(b)),
            "len {}",
            b.len()
        );
    }
    // Control.
    let s = client.complete(&done.pub_key).unwrap();
    assert_eq!(s.secret_bytes(), done.secret.secret_bytes());
    assert_eq!(s.secret_bytes().len(), 64);
    assert_eq!(bad.len() + ct_bad.len(), 11 + 9);
}

/// Our record protection for `suite` (a 32-byte-key suite: rustls' public API builds only
/// 32-byte `AeadKey`s, so the AES-128 suites are covered between connections instead) with a
/// fixed key and IV: the sealed record and a decrypter.
fn seal(
    suite: SupportedCipherSuite,
    data: &[u8],
) -> (Vec<u8>, Box<dyn rustls::crypto::cipher::MessageDecrypter>) {
    let key = [0x42u8; 32];
    match suite {
        SupportedCipherSuite::Tls13(s) => {
            assert_eq!(s.aead_alg.key_len(), 32);
            let mk = || AeadKey::from(key);
            let iv = Iv::from([7u8; 12]);
            let mut enc = s.aead_alg.encrypter(mk(), iv);
            let dec = s.aead_alg.decrypter(mk(), Iv::from([7u8; 12]));
            let chunks = [data];
            let msg = OutboundPlainMessage {
                typ: ContentType::ApplicationData,
                version: ProtocolVersion::TLSv1_2,
                payload: OutboundChunks::new(&chunks),
            };
            (enc.encrypt(msg, 5).unwrap().encode(), dec)
        }
        SupportedCipherSuite::Tls12(s) => {
            let shape = s.aead_alg.key_block_shape();
            assert_eq!(shape.enc_key_len, 32);
            let mk = || AeadKey::from(key);
            let iv = vec![9u8; shape.fixed_iv_len];
            let extra = vec![3u8; shape.explicit_nonce_len];
            let mut enc = s.aead_alg.encrypter(mk(), &iv, &extra);
            let dec = s.aead_alg.decrypter(mk(), &iv);
            let chunks = [data];
            let msg = OutboundPlainMessage {
                typ: ContentType::ApplicationData,
                version: ProtocolVersion::TLSv1_2,
                payload: OutboundChunks::new(&chunks),
            };
            (enc.encrypt(msg, 5).unwrap().encode(), dec)
        }
    }
}

/// Tampered and truncated records at the record-protection level: `DecryptError`, and the
/// buffer holds no plaintext afterwards.
#[test]
fn record_tamper_and_truncation() {
    let data = pattern(200, 11);
    let mut cases = 0;
    for &suite in tessera_rustls::ALL_CIPHER_SUITES {
        let key_len = match suite {
            SupportedCipherSuite::Tls13(s) => s.aead_alg.key_len(),
            SupportedCipherSuite::Tls12(s) => s.aead_alg.key_block_shape().enc_key_len,
        };
        if key_len != 32 {
            continue;
        }
        let (record, mut dec) = seal(suite, &data);
        let body_len = record.len() - 5;
        // Control: the untouched record opens to the plaintext.
        let mut buf = record.clone();
        let plain = dec
            .decrypt(
                InboundOpaqueMessage::new(
                    ContentType::ApplicationData,
                    ProtocolVersion::TLSv1_2,
                    &mut buf[5..],
                ),
                5,
            )
            .unwrap();
        assert_eq!(plain.payload, &data[..]);
        // One flipped bit at several positions (explicit nonce, body, tag), and a wrong
        // sequence number.
        for pos in [
            0,
            1,
            8,
            body_len / 2,
            body_len - 17,
            body_len - 16,
            body_len - 1,
        ] {
            let mut buf = record.clone();
            buf[5 + pos] ^= 0x20;
            let r = dec.decrypt(
                InboundOpaqueMessage::new(
                    ContentType::ApplicationData,
                    ProtocolVersion::TLSv1_2,
                    &mut buf[5..],
                ),
                5,
            );
            assert!(
                matches!(r, Err(Error::DecryptError)),
                "{:?} pos {pos}",
                suite.suite()
            );
            assert!(
                !buf.windows(16).any(|w| w == &data[..16]),
                "plaintext left behind"
            );
            cases += 1;
        }
        let mut buf = record.clone();
        let r = dec.decrypt(
            InboundOpaqueMessage::new(
                ContentType::ApplicationData,
                ProtocolVersion::TLSv1_2,
                &mut buf[5..],
            ),
            6,
        );
        assert!(matches!(r, Err(Error::DecryptError)));
        cases += 1;
        // Truncations: shorter than the overhead, exactly the tag, one byte short.
        for len in [0, 1, 15, 16, 23, body_len - 1] {
            let mut buf = record.clone();
            let r = dec.decrypt(
                InboundOpaqueMessage::new(
                    ContentType::ApplicationData,
                    ProtocolVersion::TLSv1_2,
                    &mut buf[5..5 + len],
                ),
                5,
            );
            assert!(
                matches!(r, Err(Error::DecryptError)),
                "{:?} len {len}",
                suite.suite()
            );
            cases += 1;
        }
    }
    // AES-256-GCM and ChaCha20-Poly1305 in TLS 1.3 (2) and TLS 1.2 (4).
    assert_eq!(cases, 6 * 14);
}

/// Flipped and truncated records between two connections (ours receiving): the receiver
/// fails with `DecryptError` and sends an alert.
#[test]
fn tampered_records_between_connections() {
    use std::sync::Arc;
    let mut cases = 0;
    for &suite in tessera_rustls::ALL_CIPHER_SUITES {
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
        for ours_is_client in [true, false] {
            for mode in 0..3 {
                let mine = restrict(ours(), &id, &groups).unwrap();
                let theirs = restrict(aws(), &id, &groups).unwrap();
                let (cp, sp) = if ours_is_client {
                    (mine, theirs)
                } else {
                    (theirs, mine)
                };
                let cc = Arc::new(client_config(cp, &versions, kt));
                let sc = Arc::new(server_config(sp, &versions, kt));
                let (mut c, mut s) = connect(&cc, &sc);
                handshake(&mut c, &mut s).unwrap();
                // The peer sends; ours receives.
                let (ours_conn, peer_conn) = if ours_is_client {
                    (&mut c, &mut s)
                } else {
                    (&mut s, &mut c)
                };
                use std::io::Write;
                peer_conn.writer().write_all(&pattern(1000, 5)).unwrap();
                let mut sink = Vec::new();
                let r = pump_with(peer_conn, ours_conn, &mut sink, &mut |buf: &mut Vec<u8>| {
                    let body = buf.len() - 5;
                    match mode {
                        0 => buf[5 + body / 2] ^= 1, // body
                        1 => {
                            let last = buf.len() - 1;
                            buf[last] ^= 0x80; // tag
                        }
                        _ => {
                            // Truncate by one byte and fix the header length.
                            buf.pop();
                            let l = (body - 1) as u16;
                            buf[3..5].copy_from_slice(&l.to_be_bytes());
                        }
                    }
                });
                assert!(
                    matches!(r, Err(Error::DecryptError)),
                    "{:?} mode {mode}: {r:?}",
                    suite.suite()
                );
                assert!(sink.is_empty(), "no plaintext released");
                assert!(ours_conn.wants_write(), "an alert is queued");
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 9 * 2 * 3);
}

/// Applies `f` to the key-share bytes of `group` (the first `group id || length` in `buf`:
/// the share in a ClientHello or ServerHello). Returns whether it was found.
fn patch_share(buf: &mut [u8], group: NamedGroup, len: usize, f: &dyn Fn(&mut [u8])) -> bool {
    let id = u16::from(group).to_be_bytes();
    let l = (len as u16).to_be_bytes();
    let pat = [id[0], id[1], l[0], l[1]];
    match buf.windows(4).position(|w| w == pat) {
        Some(i) if i + 4 + len <= buf.len() => {
            f(&mut buf[i + 4..i + 4 + len]);
            true
        }
        _ => false,
    }
}

/// Bad key shares on the wire: the peer's ClientHello or ServerHello share is altered in the
/// buffer between the connections; our side refuses it (an error and an alert, no panic).
#[test]
fn bad_key_shares_on_the_wire() {
    use std::sync::Arc;
    let zero_x25519 = |s: &mut [u8]| {
        let n = s.len();
        s[n - 32..].fill(0);
    };
    let off_curve = |s: &mut [u8]| {
        let n = s.len();
        s[n - 1] ^= 1;
    };
    let big_coefficient = |s: &mut [u8]| {
        s[0] = 0xff;
        s[1] |= 0x0f;
    };
    let flip = |s: &mut [u8]| s[10] ^= 1;
    // (group, client share length, server share length, client-share edit, server-share edit,
    //  whether a bad server share is detectable at once: an ML-KEM ciphertext is not; a
    //  flipped one decapsulates to a different secret by implicit rejection, and the
    //  handshake then fails to decrypt).
    type Edit<'a> = &'a dyn Fn(&mut [u8]);
    let cases: [(NamedGroup, usize, usize, Edit, Edit, bool); 5] = [
        (NamedGroup::X25519, 32, 32, &zero_x25519, &zero_x25519, true),
        (NamedGroup::secp256r1, 65, 65, &off_curve, &off_curve, true),
        (
            NamedGroup::X25519MLKEM768,
            1216,
            1120,
            &big_coefficient,
            &zero_x25519,
            true,
        ),
        (
            NamedGroup::MLKEM768,
            1184,
            1088,
            &big_coefficient,
            &flip,
            false,
        ),
        (
            NamedGroup::MLKEM1024,
            1568,
            1568,
            &big_coefficient,
            &flip,
            false,
        ),
    ];
    let mut count = 0;
    for (group, client_len, server_len, client_edit, server_edit, immediate) in cases {
        for ours_is_client in [true, false] {
            let id = [rustls::CipherSuite::TLS13_AES_128_GCM_SHA256];
            let versions = [&rustls::version::TLS13];
            let mine = restrict(ours(), &id, &[group]).unwrap();
            let theirs = restrict(aws(), &id, &[group]).unwrap();
            let (cp, sp) = if ours_is_client {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            let cc = Arc::new(client_config(cp, &versions, KeyType::EcdsaP256));
            let sc = Arc::new(server_config(sp, &versions, KeyType::EcdsaP256));
            let (mut c, mut s) = connect(&cc, &sc);
            let mut sink = Vec::new();
            let mut found = false;
            let r = if ours_is_client {
                pump(&mut c, &mut s, &mut sink).unwrap();
                let r = pump_with(&mut s, &mut c, &mut sink, &mut |b: &mut Vec<u8>| {
                    found = patch_share(b, group, server_len, server_edit);
                });
                assert!(found, "{group:?} server share not found");
                if immediate {
                    r
                } else {
                    // Implicit rejection: no error yet at the share; the next record fails.
                    r.and_then(|_| pump(&mut s, &mut c, &mut sink).map(|_| 0))
                }
            } else {
                let r = pump_with(&mut c, &mut s, &mut sink, &mut |b: &mut Vec<u8>| {
                    found = patch_share(b, group, client_len, client_edit);
                });
                assert!(found, "{group:?} client share not found");
                r
            };
            let ours_conn = if ours_is_client { &c } else { &s };
            match r {
                Err(Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare)) => {
                    assert!(immediate || !ours_is_client)
                }
                Err(Error::DecryptError) => assert!(!immediate && ours_is_client, "{group:?}"),
                other => panic!("{group:?} ours_is_client={ours_is_client}: {other:?}"),
            }
            assert!(ours_conn.wants_write(), "an alert is queued");
            count += 1;
        }
    }
    assert_eq!(count, 10);
}

/// A key of the wrong length (rustls never passes one; its public API can only build 32-byte
/// keys, which is wrong for AES-128): every record and packet is an error, never a panic.
#[test]
fn wrong_key_length_is_an_error() {
    let suite = tessera_rustls::cipher_suite::TLS13_AES_128_GCM_SHA256
        .tls13()
        .unwrap();
    assert_eq!(suite.aead_alg.key_len(), 16);
    let mut enc = suite
        .aead_alg
        .encrypter(AeadKey::from([1u8; 32]), Iv::from([0u8; 12]));
    let chunks: [&[u8]; 1] = [b"hello"];
    let msg = OutboundPlainMessage {
        typ: ContentType::ApplicationData,
        version: ProtocolVersion::TLSv1_2,
        payload: OutboundChunks::new(&chunks),
    };
    assert!(matches!(enc.encrypt(msg, 0), Err(Error::EncryptError)));
    let mut dec = suite
        .aead_alg
        .decrypter(AeadKey::from([1u8; 32]), Iv::from([0u8; 12]));
    let mut buf = [0u8; 40];
    let r = dec.decrypt(
        InboundOpaqueMessage::new(
            ContentType::ApplicationData,
            ProtocolVersion::TLSv1_2,
            &mut buf,
        ),
        0,
    );
    assert!(matches!(r, Err(Error::DecryptError)));
    let q = suite.quic.unwrap();
    let pk = q.packet_key(AeadKey::from([1u8; 32]), Iv::from([0u8; 12]));
    assert!(pk.encrypt_in_place(0, b"h", &mut [0u8; 10]).is_err());
    assert!(pk.decrypt_in_place(0, b"h", &mut [0u8; 30]).is_err());
    let hp = q.header_protection_key(AeadKey::from([1u8; 32]));
    assert!(
        hp.encrypt_in_place(&[0u8; 16], &mut 0x40, &mut [0u8; 2])
            .is_err()
    );
    #[cfg(feature = "tls12")]
    {
        let SupportedCipherSuite::Tls12(s12) =
            tessera_rustls::cipher_suite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256
        else {
            unreachable!()
        };
        let mut enc = s12
            .aead_alg
            .encrypter(AeadKey::from([1u8; 32]), &[0u8; 4], &[0u8; 8]);
        let msg = OutboundPlainMessage {
            typ: ContentType::ApplicationData,
            version: ProtocolVersion::TLSv1_2,
            payload: OutboundChunks::new(&chunks),
        };
        assert!(matches!(enc.encrypt(msg, 0), Err(Error::EncryptError)));
        // A fixed IV of the wrong length, with a right-length key (AES-256).
        let SupportedCipherSuite::Tls12(s12) =
            tessera_rustls::cipher_suite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384
        else {
            unreachable!()
        };
        let mut dec = s12.aead_alg.decrypter(AeadKey::from([1u8; 32]), &[0u8; 3]);
        let mut buf = [0u8; 40];
        let r = dec.decrypt(
            InboundOpaqueMessage::new(
                ContentType::ApplicationData,
                ProtocolVersion::TLSv1_2,
                &mut buf,
            ),
            0,
        );
        assert!(matches!(r, Err(Error::DecryptError)));
        // Key extraction (for kTLS) with a fixed IV or an explicit nonce of the wrong length:
        // an error, not an all-zero IV; with the right lengths, the IV is salt || explicit.
        let x = |iv: &[u8], explicit: &[u8]| {
            s12.aead_alg
                .extract_keys(AeadKey::from([1u8; 32]), iv, explicit)
        };
        assert!(x(&[0u8; 3], &[0u8; 8]).is_err());
        assert!(x(&[0u8; 4], &[0u8; 7]).is_err());
        match x(&[1, 2, 3, 4], &[5, 6, 7, 8, 9, 10, 11, 12]) {
            Ok(rustls::ConnectionTrafficSecrets::Aes256Gcm { iv, .. }) => {
                assert_eq!(iv.as_ref(), &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
            }
            _ => panic!("AES-256-GCM secrets expected"),
        }
    }
}
