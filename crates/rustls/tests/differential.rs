//! Our hash, HMAC, HKDF, TLS 1.2 PRF, record protection and QUIC keys against rustls'
//! aws-lc-rs provider on the same inputs.

use rustls::crypto::cipher::{AeadKey, Iv, OutboundChunks, OutboundPlainMessage};
use rustls::crypto::hash::Hash;
use rustls::crypto::hmac::Hmac;
use rustls::crypto::tls13::{Hkdf, OkmBlock};
use rustls::{
    ContentType, ProtocolVersion, SupportedCipherSuite, Tls12CipherSuite, Tls13CipherSuite,
};
use tessera_rustls::hash_impl;

/// A small deterministic generator (xorshift) for test inputs.
struct Gen(u64);

impl Gen {
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n)
            .map(|_| {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                self.0 as u8
            })
            .collect()
    }
}

/// Input lengths around the SHA-256 and SHA-512 block sizes.
const LENS: [usize; 14] = [0, 1, 31, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 1000];

fn aws13(suite: rustls::CipherSuite) -> &'static Tls13CipherSuite {
    rustls::crypto::aws_lc_rs::ALL_CIPHER_SUITES
        .iter()
        .find(|s| s.suite() == suite)
        .and_then(|s| s.tls13())
        .unwrap()
}

fn aws12(suite: rustls::CipherSuite) -> &'static Tls12CipherSuite {
    match rustls::crypto::aws_lc_rs::ALL_CIPHER_SUITES
        .iter()
        .find(|s| s.suite() == suite)
        .unwrap()
    {
        SupportedCipherSuite::Tls12(s) => s,
        _ => unreachable!(),
    }
}

/// (ours, theirs) for SHA-256 and SHA-384, by way of the TLS 1.3 suites' hash providers.
fn hash_pairs() -> [(&'static dyn Hash, &'static dyn Hash); 2] {
    [
        (
            &hash_impl::SHA256,
            aws13(rustls::CipherSuite::TLS13_AES_128_GCM_SHA256)
                .common
                .hash_provider,
        ),
        (
            &hash_impl::SHA384,
            aws13(rustls::CipherSuite::TLS13_AES_256_GCM_SHA384)
                .common
                .hash_provider,
        ),
    ]
}

#[test]
fn hash_matches_aws_lc_rs() {
    let mut g = Gen(1);
    let mut cases = 0;
    for (ours, theirs) in hash_pairs() {
        assert_eq!(ours.output_len(), theirs.output_len());
        assert_eq!(ours.algorithm(), theirs.algorithm());
        for len in LENS {
            let m = g.bytes(len);
            assert_eq!(
                ours.hash(&m).as_ref(),
                theirs.hash(&m).as_ref(),
                "len {len}"
            );
            // Streaming in two pieces, with fork / fork_finish along the way.
            let (a, b) = m.split_at(len / 3);
            let mut c = ours.start();
            let mut d = theirs.start();
            c.update(a);
            d.update(a);
            assert_eq!(c.fork_finish().as_ref(), d.fork_finish().as_ref());
            let f = c.fork();
            c.update(b);
            d.update(b);
            assert_eq!(f.finish().as_ref(), theirs.hash(a).as_ref());
            assert_eq!(c.finish().as_ref(), d.finish().as_ref());
            cases += 1;
        }
    }
    assert_eq!(cases, 28);
}

/// HMAC against aws-lc-rs's `Hkdf::hmac_sign` (HMAC keyed by an OKM block, up to 64 bytes).
#[test]
fn hmac_matches_aws_lc_rs() {
    let mut g = Gen(2);
    let mut cases = 0;
    let pairs: [(&dyn Hmac, &dyn Hkdf); 2] = [
        (
            &hash_impl::HMAC_SHA256,
            aws13(rustls::CipherSuite::TLS13_AES_128_GCM_SHA256).hkdf_provider,
        ),
        (
            &hash_impl::HMAC_SHA384,
            aws13(rustls::CipherSuite::TLS13_AES_256_GCM_SHA384).hkdf_provider,
        ),
    ];
    for (ours, theirs) in pairs {
        for klen in [0usize, 1, 32, 48, 64] {
            for len in LENS {
                let k = g.bytes(klen);
                let m = g.bytes(len);
                let ours_tag = ours.with_key(&k).sign(&[&m[..len / 2], &m[len / 2..]]);
                let theirs_tag = theirs.hmac_sign(&OkmBlock::new(&k), &m);
                assert_eq!(
                    ours_tag.as_ref(),
                    theirs_tag.as_ref(),
                    "klen {klen} len {len}"
                );
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 2 * 5 * 14);
}

#[test]
fn hkdf_matches_aws_lc_rs() {
    let mut g = Gen(3);
    let mut cases = 0;
    let pairs: [(&dyn Hkdf, &dyn Hkdf); 2] = [
        (
            &hash_impl::HKDF_SHA256,
            aws13(rustls::CipherSuite::TLS13_AES_128_GCM_SHA256).hkdf_provider,
        ),
        (
            &hash_impl::HKDF_SHA384,
            aws13(rustls::CipherSuite::TLS13_AES_256_GCM_SHA384).hkdf_provider,
        ),
    ];
    for (ours, theirs) in pairs {
        for (salt_len, ikm_len) in [(0, 0), (0, 32), (13, 22), (32, 32), (48, 64), (100, 80)] {
            let salt = g.bytes(salt_len);
            let ikm = g.bytes(ikm_len);
            let info_a = g.bytes(10);
            let info_b = g.bytes(7);
            let info: [&[u8]; 2] = [&info_a, &info_b];
            let salt_opt = if salt_len == 0 { None } else { Some(&salt[..]) };
            let exps = [
                (
                    ours.extract_from_secret(salt_opt, &ikm),
                    theirs.extract_from_secret(salt_opt, &ikm),
                ),
                (
                    ours.extract_from_zero_ikm(salt_opt),
                    theirs.extract_from_zero_ikm(salt_opt),
                ),
            ];
            for (a, b) in exps {
                assert_eq!(a.hash_len(), b.hash_len());
                assert_eq!(
                    a.expand_block(&info).as_ref(),
                    b.expand_block(&info).as_ref()
                );
                for out_len in [0usize, 1, 32, 33, 48, 100, 255 * a.hash_len()] {
                    let (mut x, mut y) = (vec![0u8; out_len], vec![0u8; out_len]);
                    a.expand_slice(&info, &mut x).unwrap();
                    b.expand_slice(&info, &mut y).unwrap();
                    assert_eq!(x, y, "out {out_len}");
                    cases += 1;
                }
                // Over the RFC 5869 bound: an error on both, our buffer untouched.
                let mut x = vec![0xaau8; 255 * a.hash_len() + 1];
                assert!(a.expand_slice(&info, &mut x).is_err());
                assert!(x.iter().all(|&v| v == 0xaa));
                // expander_for_okm and hmac_sign.
                let okm = a.expand_block(&info);
                let a2 = ours.expander_for_okm(&okm);
                let b2 = theirs.expander_for_okm(&okm);
                assert_eq!(
                    a2.expand_block(&[b"x"]).as_ref(),
                    b2.expand_block(&[b"x"]).as_ref()
                );
                assert_eq!(
                    ours.hmac_sign(&okm, &ikm).as_ref(),
                    theirs.hmac_sign(&okm, &ikm).as_ref()
                );
            }
        }
    }
    assert_eq!(cases, 2 * 6 * 2 * 7);
}

#[cfg(feature = "tls12")]
#[test]
fn tls12_prf_matches_aws_lc_rs() {
    use tessera_rustls::cipher_suite as cs;
    let mut g = Gen(4);
    let mut cases = 0;
    for ours in [
        cs::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
        cs::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    ] {
        let SupportedCipherSuite::Tls12(ours) = ours else {
            unreachable!()
        };
        let theirs = aws12(ours.common.suite);
        // (aws-lc-rs refuses an empty secret, which TLS never uses.)
        for (slen, olen) in [(1, 12), (48, 48), (48, 104), (13, 200)] {
            let secret = g.bytes(slen);
            let seed = g.bytes(64);
            let (mut x, mut y) = (vec![0u8; olen], vec![0u8; olen]);
            ours.prf_provider
                .for_secret(&mut x, &secret, b"key expansion", &seed);
            theirs
                .prf_provider
                .for_secret(&mut y, &secret, b"key expansion", &seed);
            assert_eq!(x, y);
            cases += 1;
        }
    }
    assert_eq!(cases, 8);
}

/// Records sealed by our encrypter equal aws-lc-rs's for the same key, IV, sequence number and
/// content, and each side opens the other's (32-byte-key suites: rustls' public API builds
/// only 32-byte `AeadKey`s; AES-128 is covered by the handshake tests).
#[test]
fn records_match_aws_lc_rs() {
    let mut g = Gen(5);
    let mut cases = 0;
    for &suite in tessera_rustls::ALL_CIPHER_SUITES {
        let theirs_suite = *rustls::crypto::aws_lc_rs::ALL_CIPHER_SUITES
            .iter()
            .find(|s| s.suite() == suite.suite())
            .unwrap();
        let key: [u8; 32] = g.bytes(32).try_into().unwrap();
        let iv: [u8; 12] = g.bytes(12).try_into().unwrap();
        let (mut enc_o, mut enc_t, mut dec_o, mut dec_t) = match (suite, theirs_suite) {
            (SupportedCipherSuite::Tls13(o), SupportedCipherSuite::Tls13(t)) => {
                if o.aead_alg.key_len() != 32 {
                    continue;
                }
                (
                    o.aead_alg.encrypter(AeadKey::from(key), Iv::from(iv)),
                    t.aead_alg.encrypter(AeadKey::from(key), Iv::from(iv)),
                    o.aead_alg.decrypter(AeadKey::from(key), Iv::from(iv)),
                    t.aead_alg.decrypter(AeadKey::from(key), Iv::from(iv)),
                )
            }
            (SupportedCipherSuite::Tls12(o), SupportedCipherSuite::Tls12(t)) => {
                let shape = o.aead_alg.key_block_shape();
                if shape.enc_key_len != 32 {
                    continue;
                }
                let fixed = &iv[..shape.fixed_iv_len];
                let extra = &iv[shape.fixed_iv_len..shape.fixed_iv_len + shape.explicit_nonce_len];
                (
                    o.aead_alg.encrypter(AeadKey::from(key), fixed, extra),
                    t.aead_alg.encrypter(AeadKey::from(key), fixed, extra),
                    o.aead_alg.decrypter(AeadKey::from(key), fixed),
                    t.aead_alg.decrypter(AeadKey::from(key), fixed),
                )
            }
            _ => unreachable!(),
        };
        for (seq, len) in [
            (0u64, 0usize),
            (1, 1),
            (2, 100),
            (1 << 40, 16384),
            (u64::MAX - 1, 77),
        ] {
            let m = g.bytes(len);
            // Two chunks, as rustls hands over fragmented writes.
            let chunks: [&[u8]; 2] = [&m[..len / 2], &m[len / 2..]];
            let msg = || OutboundPlainMessage {
                typ: ContentType::ApplicationData,
                version: ProtocolVersion::TLSv1_2,
                payload: OutboundChunks::new(&chunks),
            };
            assert_eq!(
                enc_o.encrypted_payload_len(len),
                enc_t.encrypted_payload_len(len)
            );
            let a = enc_o.encrypt(msg(), seq).unwrap().encode();
            let b = enc_t.encrypt(msg(), seq).unwrap().encode();
            assert_eq!(a, b, "{:?} seq {seq} len {len}", suite.suite());
            // Each side opens the other's record.
            for (dec, rec) in [(&mut dec_o, &b), (&mut dec_t, &a)] {
                let mut buf = rec.clone();
                let p = dec
                    .decrypt(
                        rustls::crypto::cipher::InboundOpaqueMessage::new(
                            ContentType::ApplicationData,
                            ProtocolVersion::TLSv1_2,
                            &mut buf[5..],
                        ),
                        seq,
                    )
                    .unwrap();
                assert_eq!(p.payload, &m[..]);
            }
            cases += 1;
        }
    }
    assert_eq!(cases, 6 * 5);
}

/// QUIC packet protection and header protection against aws-lc-rs.
#[test]
fn quic_matches_aws_lc_rs() {
    let mut g = Gen(6);
    let mut cases = 0;
    for &suite in tessera_rustls::ALL_CIPHER_SUITES {
        let SupportedCipherSuite::Tls13(o) = suite else {
            continue;
        };
        let t = aws13(o.common.suite);
        let (oq, tq) = (o.quic.unwrap(), t.quic.unwrap());
        assert_eq!(oq.aead_key_len(), tq.aead_key_len());
        if oq.aead_key_len() != 32 {
            // rustls' public API builds only 32-byte keys (see `records_match_aws_lc_rs`).
            continue;
        }
        let key: [u8; 32] = g.bytes(32).try_into().unwrap();
        let iv: [u8; 12] = g.bytes(12).try_into().unwrap();
        let (po, pt) = (
            oq.packet_key(AeadKey::from(key), Iv::from(iv)),
            tq.packet_key(AeadKey::from(key), Iv::from(iv)),
        );
        assert_eq!(po.tag_len(), pt.tag_len());
        assert_eq!(po.confidentiality_limit(), pt.confidentiality_limit());
        assert_eq!(po.integrity_limit(), pt.integrity_limit());
        for (pn, len) in [(0u64, 0usize), (1, 20), (1 << 30, 1200)] {
            let header = g.bytes(20);
            let m = g.bytes(len);
            let (mut a, mut b) = (m.clone(), m.clone());
            let ta = po.encrypt_in_place(pn, &header, &mut a).unwrap();
            let tb = pt.encrypt_in_place(pn, &header, &mut b).unwrap();
            assert_eq!((&a, ta.as_ref()), (&b, tb.as_ref()));
            a.extend_from_slice(ta.as_ref());
            let mut c = a.clone();
            assert_eq!(po.decrypt_in_place(pn, &header, &mut a).unwrap(), &m[..]);
            c[0] ^= 1;
            assert!(po.decrypt_in_place(pn, &header, &mut c).is_err());
            // Multipath: the path ID enters the nonce.
            let path = 7u32;
            let (mut a, mut b) = (m.clone(), m.clone());
            let ta = po
                .encrypt_in_place_for_path(path, pn, &header, &mut a)
                .unwrap();
            let tb = pt
                .encrypt_in_place_for_path(path, pn, &header, &mut b)
                .unwrap();
            assert_eq!((&a, ta.as_ref()), (&b, tb.as_ref()));
            a.extend_from_slice(ta.as_ref());
            let mut c = a.clone();
            assert_eq!(
                po.decrypt_in_place_for_path(path, pn, &header, &mut a)
                    .unwrap(),
                &m[..]
            );
            assert!(
                po.decrypt_in_place_for_path(path + 1, pn, &header, &mut c)
                    .is_err()
            );
            cases += 1;
        }
        let hp_key: [u8; 32] = g.bytes(32).try_into().unwrap();
        let (ho, ht) = (
            oq.header_protection_key(AeadKey::from(hp_key)),
            tq.header_protection_key(AeadKey::from(hp_key)),
        );
        assert_eq!(ho.sample_len(), ht.sample_len());
        for first in [0xc3u8, 0x40, 0x41, 0xc0] {
            for pn_len in 1..=4 {
                let sample = g.bytes(16);
                let pn = g.bytes(pn_len);
                let (mut fa, mut fb) = (first, first);
                let (mut na, mut nb) = (pn.clone(), pn.clone());
                ho.encrypt_in_place(&sample, &mut fa, &mut na).unwrap();
                ht.encrypt_in_place(&sample, &mut fb, &mut nb).unwrap();
                assert_eq!((fa, &na), (fb, &nb));
                ho.decrypt_in_place(&sample, &mut fa, &mut na).unwrap();
                assert_eq!((fa, &na), (first, &pn));
                cases += 1;
            }
        }
        // A sample of the wrong length and an over-long packet number are errors.
        let (mut f, mut n) = (0xc3u8, vec![0u8; 4]);
        assert!(ho.encrypt_in_place(&[0u8; 15], &mut f, &mut n).is_err());
        assert!(
            ho.encrypt_in_place(&[0u8; 16], &mut f, &mut [0u8; 5])
                .is_err()
        );
    }
    // AES-256-GCM and ChaCha20-Poly1305: 3 packets + 16 header cases each.
    assert_eq!(cases, 2 * (3 + 16));
}
