//! The rustls provider's entry points that take bytes from the peer: the key-exchange groups
//! (a client completing with an arbitrary or tampered server share, a server completing an
//! arbitrary client share; a genuine exchange agrees on the secret) and the record layer of
//! every TLS 1.3 and TLS 1.2 cipher suite (a sealed record opens to its content type and
//! payload; a tampered one, the wrong sequence number or an arbitrary record is refused
//! without a panic).
//!
//! Input layout: op byte, group/suite byte, 32-byte key, 12-byte IV, 8-byte sequence number,
//! content-type byte, where and which bit to tamper (3 bytes), then the share, payload or
//! record bytes.
//!
//! The AES-128-GCM suites take 16-byte keys, which rustls's `AeadKey` only makes from its own
//! key schedule: with a 32-byte key they must refuse every record (checked here), so their
//! record path is fuzzed through tessera-aes-gcm's own target.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, Iv, MessageDecrypter, MessageEncrypter, OutboundChunks,
    OutboundPlainMessage,
};
use rustls::{ContentType, ProtocolVersion, SupportedCipherSuite};
use tessera_fuzz::same;

#[derive(Arbitrary, Debug)]
struct Case {
    op: u8,
    which: u8,
    key: [u8; 32],
    iv: [u8; 12],
    seq: u64,
    typ: u8,
    tamper: (u16, u8),
    data: Vec<u8>,
}

fn kx(c: &Case) {
    let groups = tessera_rustls::ALL_KX_GROUPS;
    let g = groups[c.which as usize % groups.len()];
    // A server completing an arbitrary client share.
    let _ = g.start_and_complete(&c.data);
    // A client completing an arbitrary server share.
    let _ = g.start().expect("start").complete(&c.data);
    // A genuine exchange, then the client completing a tampered server share.
    let client = g.start().expect("start");
    let server = g
        .start_and_complete(client.pub_key())
        .expect("genuine client share");
    let secret = client
        .complete(&server.pub_key)
        .expect("genuine server share");
    same(
        "shared secret",
        secret.secret_bytes(),
        server.secret.secret_bytes(),
    );
    let mut share = server.pub_key.clone();
    let i = c.tamper.0 as usize % share.len();
    share[i] ^= 1 << (c.tamper.1 & 7);
    let _ = g.start().expect("start").complete(&share);
}

/// Seals `payload` as record `seq`: the record's outer content type (part of the TLS 1.2
/// additional data) and its payload (header stripped).
fn seal(
    enc: &mut dyn MessageEncrypter,
    typ: ContentType,
    payload: &[u8],
    seq: u64,
) -> Option<(ContentType, Vec<u8>)> {
    let msg = OutboundPlainMessage {
        typ,
        version: ProtocolVersion::TLSv1_2,
        payload: OutboundChunks::Single(payload),
    };
    let rec = enc.encrypt(msg, seq).ok()?;
    Some((rec.typ, rec.encode()[5..].to_vec()))
}

fn open(
    dec: &mut dyn MessageDecrypter,
    outer: ContentType,
    rec: &[u8],
    seq: u64,
) -> Option<(ContentType, Vec<u8>)> {
    let mut buf = rec.to_vec();
    let msg = InboundOpaqueMessage::new(outer, ProtocolVersion::TLSv1_2, &mut buf);
    dec.decrypt(msg, seq)
        .ok()
        .map(|m| (m.typ, m.payload.to_vec()))
}

fn record(c: &Case) {
    let suites = tessera_rustls::ALL_CIPHER_SUITES;
    let suite = suites[c.which as usize % suites.len()];
    let (mut enc, mut dec, key_len): (Box<dyn MessageEncrypter>, Box<dyn MessageDecrypter>, usize) =
        match suite {
            SupportedCipherSuite::Tls13(s) => (
                s.aead_alg.encrypter(AeadKey::from(c.key), Iv::new(c.iv)),
                s.aead_alg.decrypter(AeadKey::from(c.key), Iv::new(c.iv)),
                s.aead_alg.key_len(),
            ),
            SupportedCipherSuite::Tls12(s) => {
                let iv_len = s.aead_alg.key_block_shape().fixed_iv_len;
                let extra_len = s.aead_alg.key_block_shape().explicit_nonce_len;
                let (iv, extra) = (&c.iv[..iv_len], &c.iv[iv_len..iv_len + extra_len]);
                (
                    s.aead_alg.encrypter(AeadKey::from(c.key), iv, extra),
                    s.aead_alg.decrypter(AeadKey::from(c.key), iv),
                    s.aead_alg.key_block_shape().enc_key_len,
                )
            }
        };
    let typ = [
        ContentType::ApplicationData,
        ContentType::Handshake,
        ContentType::Alert,
    ][c.typ as usize % 3];
    // An arbitrary record: refused (a forgery would need the key), never a panic.
    let junk = open(dec.as_mut(), typ, &c.data, c.seq);
    if key_len != 32 {
        // A 32-byte key for a 16-byte-key suite: every record refused.
        assert!(
            seal(enc.as_mut(), typ, &c.data, c.seq).is_none(),
            "sealed under a wrong-length key"
        );
        assert!(junk.is_none(), "opened under a wrong-length key");
        return;
    }
    let payload = &c.data[..c.data.len().min(1 << 14)];
    let (outer, rec) = seal(enc.as_mut(), typ, payload, c.seq).expect("seal");
    same(
        "open",
        &open(dec.as_mut(), outer, &rec, c.seq),
        &Some((typ, payload.to_vec())),
    );
    assert!(
        open(dec.as_mut(), outer, &rec, c.seq.wrapping_add(1)).is_none(),
        "opened under the next sequence number"
    );
    let mut bad = rec.clone();
    let i = c.tamper.0 as usize % bad.len();
    bad[i] ^= 1 << (c.tamper.1 & 7);
    assert!(
        open(dec.as_mut(), outer, &bad, c.seq).is_none(),
        "tampered record opened"
    );
    assert!(
        open(dec.as_mut(), outer, &rec[..rec.len() - 1], c.seq).is_none(),
        "truncated record opened"
    );
}

fuzz_target!(|c: Case| match c.op % 2 {
    0 => kx(&c),
    _ => record(&c),
});
