//! Round trips over every KEM x KDF x AEAD x mode this crate supports, typed round trips of
//! one suite per KEM, and the negative matrix: every way a caller or an attacker can get an
//! input wrong gives its typed error, never a panic, and releases nothing.

use rand::SeedableRng;
use rand::rngs::StdRng;
use tessera::hpke::{
    Aead, AeadId, Aes128Gcm, Aes256Gcm, AgilePrivateKey, AgilePublicKey, AuthKem, ChaCha20Poly1305,
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, DhKemSecp256k1HkdfSha256,
    DhKemX448HkdfSha512, DhKemX25519HkdfSha256, Error, ExportOnly, HkdfSha256, HkdfSha384,
    HkdfSha512, Hpke, Kdf, KdfId, Kem, KemId, MlKem512, MlKem768, MlKem768P256, MlKem1024,
    MlKem1024P384, Shake256, Suite, TurboShake128, XWing,
};

mod common;
mod misuse;

use common::*;

/// Every supported combination: seal and open three messages in sequence, export on both
/// sides; Auth modes with a post-quantum KEM are `UnsupportedMode` on both sides.
#[test]
fn every_suite_and_mode_round_trips() {
    let mut rng = rng();
    let mut runs = 0;
    let mut refused = 0;
    for kem in KEMS {
        for kdf in KDFS {
            for aead in AEADS {
                let suite = Suite::new(kem, kdf, aead);
                let (sk_r, pk_r) = suite.generate_key_pair(&mut rng).unwrap();
                let (sk_s, pk_s) = suite.generate_key_pair(&mut rng).unwrap();
                for m in [M::Base, M::Psk, M::Auth, M::AuthPsk] {
                    let info = b"round trip info";
                    let auth = matches!(m, M::Auth | M::AuthPsk);
                    let sent = send(&suite, m, &pk_r, &sk_s, info, &mut rng);
                    if auth && !kem.supports_auth() {
                        assert_eq!(sent.err(), Some(Error::UnsupportedMode), "{suite:?} {m:?}");
                        let r = receive(&suite, m, &[0; 32], &sk_r, &pk_s, info, PSK, PSK_ID);
                        assert_eq!(r.err(), Some(Error::UnsupportedMode));
                        refused += 1;
                        continue;
                    }
                    let Setup { enc, mut s } = sent.unwrap();
                    let mut r = receive(&suite, m, &enc, &sk_r, &pk_s, info, PSK, PSK_ID).unwrap();
                    if aead == AeadId::ExportOnly {
                        assert_eq!(s.seal(b"", b"x"), Err(Error::ExportOnly));
                        assert_eq!(r.open(b"", &[0; 17]), Err(Error::ExportOnly));
                    } else {
                        for i in 0..3u8 {
                            let pt = vec![i; 17 * i as usize];
                            let ct = s.seal(&[i], &pt).unwrap();
                            assert_eq!(ct.len(), pt.len() + 16);
                            assert_eq!(r.open(&[i], &ct).unwrap(), pt, "{suite:?} {m:?} #{i}");
                        }
                    }
                    let (mut a, mut b) = ([0u8; 77], [0u8; 77]);
                    s.export(b"ctx", &mut a).unwrap();
                    r.export(b"ctx", &mut b).unwrap();
                    assert_eq!(a, b, "{suite:?} {m:?} export");
                    assert_ne!(a, [0u8; 77]);
                    runs += 1;
                }
            }
        }
    }
    // Each DHKEM: 7 KDFs x 4 AEADs x 4 modes; each PQ KEM: 7 x 4 x 2.
    let n_pq = KEMS.len() - N_DHKEMS;
    assert_eq!(runs, N_DHKEMS * 7 * 4 * 4 + n_pq * 7 * 4 * 2);
    assert_eq!(refused, n_pq * 7 * 4 * 2);
    println!(
        "round trips: {runs} KEM x KDF x AEAD x mode combinations run, {refused} Auth refusals"
    );
}

/// The typed API: single-shot seal/open and export for one suite of every KEM, and the four
/// modes of X25519 (whose Auth functions exist only there).
#[test]
fn typed_single_shot_every_kem() {
    fn check<K: Kem>() {
        type A = ChaCha20Poly1305;
        let mut rng = rng();
        let (sk, pk) = K::generate_key_pair(&mut rng);
        // Keys survive serialization.
        let pk2 = K::public_key_from_bytes(K::public_key_to_bytes(&pk)).unwrap();
        assert_eq!(pk2, pk);
        let sk2 = K::private_key_from_bytes(K::private_key_to_bytes(&sk)).unwrap();
        assert_eq!(K::public_key(&sk2), &pk);
        let (enc, ct) =
            Hpke::<K, HkdfSha384, A>::seal_base(&pk, b"i", b"a", b"msg", &mut rng).unwrap();
        assert_eq!(enc.as_ref().len(), K::N_ENC);
        let pt = Hpke::<K, HkdfSha384, A>::open_base(enc.as_ref(), &sk2, b"i", b"a", &ct).unwrap();
        assert_eq!(pt, b"msg");
        let (enc, ct) =
            Hpke::<K, Shake256, A>::seal_psk(&pk, b"i", b"a", b"msg", PSK, PSK_ID, &mut rng)
                .unwrap();
        let pt = Hpke::<K, Shake256, A>::open_psk(enc.as_ref(), &sk, b"i", b"a", &ct, PSK, PSK_ID)
            .unwrap();
        assert_eq!(pt, b"msg");
        let mut x = [0u8; 40];
        let mut y = [0u8; 40];
        let enc = Hpke::<K, TurboShake128, ExportOnly>::send_export_base(
            &pk, b"i", b"c", &mut x, &mut rng,
        )
        .unwrap();
        Hpke::<K, TurboShake128, ExportOnly>::receive_export_base(
            enc.as_ref(),
            &sk,
            b"i",
            b"c",
            &mut y,
        )
        .unwrap();
        assert_eq!(x, y);
    }
    check::<DhKemX25519HkdfSha256>();
    check::<DhKemP256HkdfSha256>();
    check::<DhKemP384HkdfSha384>();
    check::<DhKemP521HkdfSha512>();
    check::<DhKemSecp256k1HkdfSha256>();
    check::<DhKemX448HkdfSha512>();
    check::<MlKem512>();
    check::<MlKem768>();
    check::<MlKem1024>();
    check::<XWing>();
    check::<MlKem768P256>();
    check::<MlKem1024P384>();

    check_auth::<DhKemX25519HkdfSha256>();
    check_auth::<DhKemP256HkdfSha256>();
    check_auth::<DhKemP384HkdfSha384>();
    check_auth::<DhKemP521HkdfSha512>();
    check_auth::<DhKemSecp256k1HkdfSha256>();
    check_auth::<DhKemX448HkdfSha512>();
}

#[test]
fn negative_matrix_open() {
    for kem in KEMS {
        let x = sealed(kem, M::Base);
        let s = &x.suite;
        let open = |enc: &[u8], sk: &AgilePrivateKey, info: &[u8], aad: &[u8], ct: &[u8]| {
            s.open_base(enc, sk, info, aad, ct)
        };
        assert_eq!(
            open(&x.enc, &x.sk_r, b"info", b"aad", &x.ct).unwrap(),
            b"secret"
        );
        // Wrong recipient key (ML-KEM's implicit rejection gives a wrong key, not an error).
        let (other, _) = s
            .generate_key_pair(&mut StdRng::from_seed([9; 32]))
            .unwrap();
        assert_eq!(
            open(&x.enc, &other, b"info", b"aad", &x.ct),
            Err(Error::OpenError),
            "{kem:?}"
        );
        assert_eq!(
            open(&x.enc, &x.sk_r, b"infx", b"aad", &x.ct),
            Err(Error::OpenError)
        );
        assert_eq!(
            open(&x.enc, &x.sk_r, b"info", b"aax", &x.ct),
            Err(Error::OpenError)
        );
        // Truncated and extended enc.
        let n = x.enc.len();
        assert_eq!(
            open(&x.enc[..n - 1], &x.sk_r, b"info", b"aad", &x.ct),
            Err(Error::InvalidEncappedKey)
        );
        let mut long = x.enc.clone();
        long.push(0);
        assert_eq!(
            open(&long, &x.sk_r, b"info", b"aad", &x.ct),
            Err(Error::InvalidEncappedKey)
        );
        assert_eq!(
            open(&[], &x.sk_r, b"info", b"aad", &x.ct),
            Err(Error::InvalidEncappedKey)
        );
        // A changed enc byte: a different shared secret, or (an uncompressed point of a
        // prime-order curve with its x changed) a point off the curve.
        let mut bad = x.enc.clone();
        bad[n / 2] ^= 1;
        let weierstrass = matches!(
            kem,
            KemId::DhKemP256HkdfSha256
                | KemId::DhKemP384HkdfSha384
                | KemId::DhKemP521HkdfSha512
                | KemId::DhKemSecp256k1HkdfSha256
        );
        assert_eq!(
            open(&bad, &x.sk_r, b"info", b"aad", &x.ct),
            Err(if weierstrass {
                Error::InvalidEncappedKey
            } else {
                Error::OpenError
            }),
            "{kem:?}"
        );
        // Tampered tag, tampered body, truncated and extended ciphertext.
        let c = x.ct.len();
        for (i, bit) in [(c - 1, 0x80u8), (0, 1)] {
            let mut t = x.ct.clone();
            t[i] ^= bit;
            assert_eq!(
                open(&x.enc, &x.sk_r, b"info", b"aad", &t),
                Err(Error::OpenError)
            );
        }
        assert_eq!(
            open(&x.enc, &x.sk_r, b"info", b"aad", &x.ct[..c - 1]),
            Err(Error::OpenError)
        );
        assert_eq!(
            open(&x.enc, &x.sk_r, b"info", b"aad", &x.ct[..15]),
            Err(Error::OpenError)
        );
        let mut ext = x.ct.clone();
        ext.push(0);
        assert_eq!(
            open(&x.enc, &x.sk_r, b"info", b"aad", &ext),
            Err(Error::OpenError)
        );

        // PSK mode: wrong psk, wrong psk_id, missing one of them, a short psk.
        let p = sealed(kem, M::Psk);
        let openp = |psk: &[u8], id: &[u8]| {
            p.suite
                .open_psk(&p.enc, &p.sk_r, b"info", b"aad", &p.ct, psk, id)
        };
        assert_eq!(openp(PSK, PSK_ID).unwrap(), b"secret");
        let mut wrong = PSK.to_vec();
        wrong[0] ^= 1;
        assert_eq!(openp(&wrong, PSK_ID), Err(Error::OpenError));
        assert_eq!(openp(PSK, b"other id"), Err(Error::OpenError));
        assert_eq!(openp(PSK, b""), Err(Error::InconsistentPsk));
        assert_eq!(openp(b"", PSK_ID), Err(Error::InconsistentPsk));
        assert_eq!(openp(b"", b""), Err(Error::InconsistentPsk));
        assert_eq!(openp(&PSK[..31], PSK_ID), Err(Error::PskTooShort));
        // A key of another KEM.
        let other_kem = if kem == KemId::MlKem768 {
            KemId::XWing
        } else {
            KemId::MlKem768
        };
        let (foreign, _) = Suite::new(other_kem, KdfId::HkdfSha256, AeadId::ChaCha20Poly1305)
            .generate_key_pair(&mut rng())
            .unwrap();
        assert_eq!(
            open(&x.enc, &foreign, b"info", b"aad", &x.ct),
            Err(Error::KemMismatch)
        );
    }
}

#[test]
fn failed_open_releases_nothing_and_keeps_the_counter() {
    let suite = Suite::new(KemId::XWing, KdfId::HkdfSha256, AeadId::Aes128Gcm);
    let mut rng = rng();
    let (sk, pk) = suite.generate_key_pair(&mut rng).unwrap();
    let (enc, mut s) = suite.setup_sender_base(&pk, b"", &mut rng).unwrap();
    let mut r = suite.setup_receiver_base(enc.as_ref(), &sk, b"").unwrap();
    let mut buf = *b"first message...";
    let tag = s.seal_in_place_detached(b"", &mut buf).unwrap();
    let mut forged = buf;
    let mut bad_tag = tag;
    bad_tag[3] ^= 4;
    assert_eq!(
        r.open_in_place_detached(b"", &mut forged, &bad_tag),
        Err(Error::OpenError)
    );
    assert_eq!(
        forged, [0u8; 16],
        "no unauthenticated plaintext is left in the buffer"
    );
    // The counter did not move: the genuine message still opens, then the next one.
    r.open_in_place_detached(b"", &mut buf, &tag).unwrap();
    assert_eq!(&buf, b"first message...");
    let ct2 = s.seal(b"2", b"second").unwrap();
    assert_eq!(r.open(b"2", &ct2).unwrap(), b"second");
}

#[test]
fn sequence_number_limit() {
    type H = Hpke<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>;
    let mut rng = rng();
    let (sk, pk) = DhKemX25519HkdfSha256::generate_key_pair(&mut rng);
    let (enc, mut s) = H::setup_sender_base(&pk, b"", &mut rng).unwrap();
    let mut r = H::setup_receiver_base(enc.as_ref(), &sk, b"").unwrap();
    s.__set_sequence_number(u64::MAX - 1);
    r.__set_sequence_number(u64::MAX - 1);
    // The last sequence number works ...
    let ct = s.seal(b"", b"last").unwrap();
    assert_eq!(r.open(b"", &ct).unwrap(), b"last");
    // ... and then both sides refuse before the AEAD runs, leaving the buffer as it was.
    let mut buf = *b"untouched";
    assert_eq!(
        s.seal_in_place_detached(b"", &mut buf),
        Err(Error::MessageLimitReached)
    );
    assert_eq!(&buf, b"untouched");
    assert_eq!(s.seal(b"", b"x"), Err(Error::MessageLimitReached));
    assert_eq!(
        r.open_in_place_detached(b"", &mut buf, &[0; 16]),
        Err(Error::MessageLimitReached)
    );
    assert_eq!(&buf, b"untouched");
    assert_eq!(r.open(b"", &ct), Err(Error::MessageLimitReached));
    // Export still works at the limit.
    let (mut a, mut b) = ([0u8; 8], [0u8; 8]);
    s.export(b"", &mut a).unwrap();
    r.export(b"", &mut b).unwrap();
    assert_eq!(a, b);

    // The agile contexts too.
    let suite = Suite::new(KemId::MlKem512, KdfId::Shake128, AeadId::Aes128Gcm);
    let (sk, pk) = suite.generate_key_pair(&mut rng).unwrap();
    let (enc, mut s) = suite.setup_sender_base(&pk, b"", &mut rng).unwrap();
    let mut r = suite.setup_receiver_base(enc.as_ref(), &sk, b"").unwrap();
    s.__set_sequence_number(u64::MAX);
    r.__set_sequence_number(u64::MAX);
    assert_eq!(s.seal(b"", b"x"), Err(Error::MessageLimitReached));
    assert_eq!(r.open(b"", &[0; 20]), Err(Error::MessageLimitReached));
}

#[test]
fn export_length_limits() {
    let mut rng = rng();
    for (kdf, max) in [
        (KdfId::HkdfSha256, 255 * 32),
        (KdfId::HkdfSha384, 255 * 48),
        (KdfId::HkdfSha512, 255 * 64),
        (KdfId::Shake128, 65_535),
        (KdfId::TurboShake256, 65_535),
    ] {
        let suite = Suite::new(KemId::DhKemX25519HkdfSha256, kdf, AeadId::ExportOnly);
        let (_, pk) = suite.generate_key_pair(&mut rng).unwrap();
        let (_, s) = suite.setup_sender_base(&pk, b"", &mut rng).unwrap();
        let mut ok = vec![0u8; max];
        s.export(b"", &mut ok).unwrap();
        assert_ne!(&ok[max - 32..], &[0u8; 32]);
        let mut too_long = vec![0xAAu8; max + 1];
        assert_eq!(
            s.export(b"", &mut too_long),
            Err(Error::ExportTooLong),
            "{kdf:?}"
        );
        assert!(
            too_long.iter().all(|&b| b == 0xAA),
            "{kdf:?}: output untouched"
        );
    }
}

/// `suite` refuses `pk` as a public key and `sk` as a private key (both of a wrong length).
fn refuses_key_lengths(suite: &Suite, pk: &[u8], sk: &[u8]) {
    assert_eq!(
        suite.public_key_from_bytes(pk),
        Err(Error::InvalidPublicKey),
        "{suite:?}: public key of {} bytes",
        pk.len()
    );
    assert_eq!(
        suite.private_key_from_bytes(sk).err(),
        Some(Error::InvalidPrivateKey),
        "{suite:?}: private key of {} bytes",
        sk.len()
    );
}

#[test]
fn input_and_codepoint_errors() {
    let mut rng = rng();
    // Unknown codepoints.
    assert_eq!(
        Suite::from_ids(0x0013, 1, 1),
        Err(Error::UnknownKem(0x0013))
    );
    assert_eq!(Suite::from_ids(0x0020, 4, 1), Err(Error::UnknownKdf(4)));
    assert_eq!(Suite::from_ids(0x0020, 1, 4), Err(Error::UnknownAead(4)));
    assert_eq!(
        Suite::from_ids(0x647A, 0x0013, 0xFFFF),
        Ok(Suite::new(
            KemId::XWing,
            KdfId::TurboShake256,
            AeadId::ExportOnly
        ))
    );
    // One-stage KDFs: info, psk and psk_id at most 65,535 bytes.
    let suite = Suite::new(
        KemId::DhKemX25519HkdfSha256,
        KdfId::Shake256,
        AeadId::Aes128Gcm,
    );
    let (sk, pk) = suite.generate_key_pair(&mut rng).unwrap();
    let big = vec![1u8; 65_536];
    assert_eq!(
        suite.setup_sender_base(&pk, &big, &mut rng).err(),
        Some(Error::InputTooLong)
    );
    assert_eq!(
        suite
            .setup_sender_psk(&pk, b"", &big, PSK_ID, &mut rng)
            .err(),
        Some(Error::InputTooLong)
    );
    assert_eq!(
        suite.setup_sender_psk(&pk, b"", PSK, &big, &mut rng).err(),
        Some(Error::InputTooLong)
    );
    assert_eq!(
        suite.setup_receiver_base(&[9; 32], &sk, &big).err(),
        Some(Error::InputTooLong)
    );
    // ... while HKDF takes them.
    let hk = Suite::new(
        KemId::DhKemX25519HkdfSha256,
        KdfId::HkdfSha256,
        AeadId::Aes128Gcm,
    );
    assert!(hk.setup_sender_base(&pk, &big, &mut rng).is_ok());
    // PSK rules on the sender.
    assert_eq!(
        suite
            .setup_sender_psk(&pk, b"", &PSK[..31], PSK_ID, &mut rng)
            .err(),
        Some(Error::PskTooShort)
    );
    assert_eq!(
        suite.setup_sender_psk(&pk, b"", PSK, b"", &mut rng).err(),
        Some(Error::InconsistentPsk)
    );
    // Deterministic randomness of the wrong length.
    let mk = Suite::new(KemId::MlKem768, KdfId::HkdfSha256, AeadId::Aes128Gcm);
    let (_, mpk) = mk.generate_key_pair(&mut rng).unwrap();
    assert_eq!(
        mk.setup_sender_base_derand(&mpk, b"", &[0; 31]).err(),
        Some(Error::InvalidRandomnessLength)
    );
    assert!(mk.setup_sender_base_derand(&mpk, b"", &[0; 32]).is_ok());
    // Keys of another KEM, wrong-length keys.
    assert_eq!(
        mk.setup_sender_base(&pk, b"", &mut rng).err(),
        Some(Error::KemMismatch)
    );
    refuses_key_lengths(&mk, &[0; 32], &[0; 63]);
    refuses_key_lengths(&suite, &[0; 31], &[0; 33]);
    // Auth modes with a post-quantum KEM (the typed API does not compile them at all).
    let (msk, _) = mk.generate_key_pair(&mut rng).unwrap();
    assert_eq!(
        mk.setup_sender_auth(&mpk, b"", &msk, &mut rng).err(),
        Some(Error::UnsupportedMode)
    );
    assert_eq!(
        mk.setup_sender_auth_psk(&mpk, b"", PSK, PSK_ID, &msk, &mut rng)
            .err(),
        Some(Error::UnsupportedMode)
    );
    // Export-only: no seal or open, in the single-shot API either.
    let eo = Suite::new(
        KemId::DhKemX25519HkdfSha256,
        KdfId::HkdfSha256,
        AeadId::ExportOnly,
    );
    assert_eq!(
        eo.seal_base(&pk, b"", b"", b"x", &mut rng).err(),
        Some(Error::ExportOnly)
    );
    assert_eq!(
        eo.open_base(&[9; 32], &sk, b"", b"", &[0; 16]).err(),
        Some(Error::ExportOnly)
    );
}

/// `b` is not a public key of `K`.
#[track_caller]
fn refuses_public_key<K: Kem>(b: &[u8]) {
    assert_eq!(
        K::public_key_from_bytes(b).err(),
        Some(Error::InvalidPublicKey)
    );
}

/// `small`, a public key of small order, gives an all-zero DH result: the typed base-mode
/// sender (KEM `K`, KDF `F`, AEAD `A`) to it and the recipient of it as `enc` (key `sk`) both
/// refuse it.
fn small_order_refused<K: Kem, F: Kdf, A: Aead>(
    small: &[u8],
    sk: &K::PrivateKey,
    rng: &mut StdRng,
) {
    let pk = K::public_key_from_bytes(small).unwrap();
    assert_eq!(
        Hpke::<K, F, A>::setup_sender_base(&pk, b"", rng).err(),
        Some(Error::NonContributory)
    );
    assert_eq!(
        Hpke::<K, F, A>::setup_receiver_base(small, sk, b"").err(),
        Some(Error::NonContributory)
    );
}

#[test]
fn invalid_public_keys_and_enc() {
    let mut rng = rng();
    // ML-KEM: a coefficient >= q fails the FIPS 203 modulus check (the first 12-bit
    // coefficient set to 0xFFF).
    fn bad_ek<K: Kem>(rng: &mut StdRng) {
        let (_, pk) = K::generate_key_pair(rng);
        let mut b = K::public_key_to_bytes(&pk).to_vec();
        b[0] = 0xFF;
        b[1] |= 0x0F;
        refuses_public_key::<K>(&b);
        refuses_public_key::<K>(&b[1..]);
    }
    bad_ek::<MlKem512>(&mut rng);
    bad_ek::<MlKem768>(&mut rng);
    bad_ek::<MlKem1024>(&mut rng);
    bad_ek::<XWing>(&mut rng);
    // X25519: small-order public keys (0 and 1) give an all-zero DH result, refused in both
    // directions.
    type K = DhKemX25519HkdfSha256;
    let (sk, _) = K::generate_key_pair(&mut rng);
    for small in [[0u8; 32], {
        let mut one = [0u8; 32];
        one[0] = 1;
        one
    }] {
        small_order_refused::<K, HkdfSha256, Aes128Gcm>(&small, &sk, &mut rng);
    }
}

/// RFC 9180 section 7.1.4 on the prime-order curves: only uncompressed SEC1 points on the
/// curve are public keys or `enc`s; compressed, hybrid and identity encodings, off-curve
/// points, coordinates at least p and wrong lengths are typed errors, as are private keys 0,
/// at least the order or of the wrong length.
#[test]
fn invalid_ec_keys_enc_and_private_keys() {
    fn check<K: AuthKem>(order: &[u8]) {
        type H<K> = Hpke<K, HkdfSha512, Aes128Gcm>;
        let mut rng = rng();
        let (sk, pk) = K::generate_key_pair(&mut rng);
        let good = K::public_key_to_bytes(&pk).to_vec();
        let n = (good.len() - 1) / 2;
        let mut bad: Vec<Vec<u8>> = Vec::new();
        // Compressed, both tags.
        let mut c = good[..1 + n].to_vec();
        c[0] = 0x02 | (good[2 * n] & 1);
        bad.push(c.clone());
        c[0] ^= 1;
        bad.push(c);
        // Hybrid (0x06 / 0x07) with valid coordinates.
        for tag in [0x06, 0x07] {
            let mut h = good.clone();
            h[0] = tag;
            bad.push(h);
        }
        // The identity, alone and padded.
        bad.push(vec![0x00]);
        bad.push(vec![0u8; good.len()]);
        // Off the curve (y changed).
        let mut o = good.clone();
        *o.last_mut().unwrap() ^= 1;
        bad.push(o);
        // x at least p (all ones), and y at least p.
        let mut x = good.clone();
        x[1..1 + n].fill(0xFF);
        bad.push(x);
        let mut y = good.clone();
        y[1 + n..].fill(0xFF);
        bad.push(y);
        // Wrong lengths.
        bad.push(good[..good.len() - 1].to_vec());
        bad.push([&good[..], &[0]].concat());
        bad.push(Vec::new());
        for b in &bad {
            assert_eq!(
                K::public_key_from_bytes(b).err(),
                Some(Error::InvalidPublicKey),
                "{b:02x?}"
            );
            assert_eq!(
                H::<K>::setup_receiver_base(b, &sk, b"").err(),
                Some(Error::InvalidEncappedKey),
                "{b:02x?}"
            );
            assert_eq!(
                H::<K>::setup_receiver_auth(b, &sk, b"", &pk).err(),
                Some(Error::InvalidEncappedKey),
                "{b:02x?}"
            );
        }
        // Private keys: 0, the order, all ones, wrong lengths.
        let nsk = K::N_SK;
        for b in [
            vec![0u8; nsk],
            order.to_vec(),
            vec![0xFF; nsk],
            vec![1u8; nsk - 1],
            vec![1u8; nsk + 1],
        ] {
            assert_eq!(
                K::private_key_from_bytes(&b).err(),
                Some(Error::InvalidPrivateKey),
                "{b:02x?}"
            );
        }
        // order - 1 is the largest valid scalar.
        let mut top = order.to_vec();
        *top.last_mut().unwrap() -= 1;
        assert!(K::private_key_from_bytes(&top).is_ok());
        // DeriveKeyPair's rejection sampling only ever returns valid keys, counter 0 for these.
        for i in 0..32u8 {
            assert_eq!(
                tessera::hpke::__derive_key_pair_counter(K::ID, &[i; 32]),
                Ok(0)
            );
        }
    }
    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }
    check::<DhKemP256HkdfSha256>(&hex(
        "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
    ));
    check::<DhKemP384HkdfSha384>(&hex(
        "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973",
    ));
    check::<DhKemP521HkdfSha512>(&hex(
        "01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409",
    ));
    check::<DhKemSecp256k1HkdfSha256>(&hex(
        "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
    ));
}

/// X448: every 56-byte string is a public key; the small-order ones (u = 0, 1, p - 1) give
/// an all-zero DH result, refused in both directions; other lengths are typed errors.
#[test]
fn x448_small_order_and_lengths() {
    type K = DhKemX448HkdfSha512;
    type H = Hpke<K, HkdfSha512, Aes256Gcm>;
    let mut rng = rng();
    let (sk, pk) = K::generate_key_pair(&mut rng);
    let mut p_minus_1 = [0xFFu8; 56];
    p_minus_1[0] = 0xFE;
    p_minus_1[28] = 0xFE;
    let mut one = [0u8; 56];
    one[0] = 1;
    for small in [[0u8; 56], one, p_minus_1] {
        small_order_refused::<K, HkdfSha512, Aes256Gcm>(&small, &sk, &mut rng);
        assert_eq!(
            H::setup_receiver_auth(&small, &sk, b"", &pk).err(),
            Some(Error::NonContributory)
        );
    }
    for len in [0, 55, 57] {
        refuses_public_key::<K>(&vec![9; len]);
        assert_eq!(
            H::setup_receiver_base(&vec![9; len], &sk, b"").err(),
            Some(Error::InvalidEncappedKey)
        );
        assert_eq!(
            K::private_key_from_bytes(&vec![9; len]).err(),
            Some(Error::InvalidPrivateKey)
        );
    }
}

/// The NIST hybrids: a bad ML-KEM half or a bad curve half of a public key or `enc` is a
/// typed error.
#[test]
fn nist_hybrid_invalid_keys_and_enc() {
    fn check<K: Kem>(n_pq_ek: usize, n_pq_ct: usize) {
        let mut rng = rng();
        let (sk, pk) = K::generate_key_pair(&mut rng);
        let good = K::public_key_to_bytes(&pk).to_vec();
        // ML-KEM half: the first coefficient >= q.
        let mut b = good.clone();
        b[0] = 0xFF;
        b[1] |= 0x0F;
        refuses_public_key::<K>(&b);
        // Curve half: compressed tag, off-curve.
        let mut b = good.clone();
        b[n_pq_ek] = 0x02;
        refuses_public_key::<K>(&b);
        let mut b = good.clone();
        *b.last_mut().unwrap() ^= 1;
        refuses_public_key::<K>(&b);
        refuses_public_key::<K>(&good[1..]);
        // enc: a bad curve point, wrong lengths.
        let (_, enc) = K::encap(&pk, &mut rng).unwrap();
        let mut e = enc.as_ref().to_vec();
        e[n_pq_ct] = 0x04;
        *e.last_mut().unwrap() ^= 1;
        assert_eq!(K::decap(&e, &sk).err(), Some(Error::InvalidEncappedKey));
        assert_eq!(
            K::decap(&enc.as_ref()[1..], &sk).err(),
            Some(Error::InvalidEncappedKey)
        );
        assert!(K::decap(enc.as_ref(), &sk).is_ok());
        assert_eq!(
            K::private_key_from_bytes(&[0; 31]).err(),
            Some(Error::InvalidPrivateKey)
        );
    }
    check::<MlKem768P256>(1184, 1088);
    check::<MlKem1024P384>(1568, 1568);
}

/// The NIST hybrids take `m` then `RandomScalar` candidates as encapsulation randomness
/// (P-256: three of 32 bytes, P-384: one of 48): the first candidate in `[1, n)` is the
/// ephemeral scalar, and none in range is `DeriveKeyPair` (draft-irtf-cfrg-concrete-hybrid-kems).
#[cfg(feature = "nist")]
#[test]
fn hybrid_scalar_candidates() {
    let rng = &mut rng();
    // P-256's order n = FFFFFFFF 00000000 FFFFFFFF FFFFFFFF BCE6FAAD A7179E84 F3B9CAC2 FC632551.
    let mut n_p256 = [0xFFu8; 32];
    n_p256[4..8].fill(0);
    n_p256[16..].copy_from_slice(&[
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25,
        0x51,
    ]);
    let s = Suite::new(KemId::MlKem768P256, KdfId::HkdfSha256, AeadId::Aes128Gcm);
    let (sk, pk) = s.generate_key_pair(rng).unwrap();
    let m = [7u8; 32];
    let good = [0x42u8; 32];
    // Candidates n, 0, good: the third is taken, as if it were the first.
    let mut third = [0u8; 128];
    third[..32].copy_from_slice(&m);
    third[32..64].copy_from_slice(&n_p256);
    third[96..].copy_from_slice(&good);
    let mut first = [0u8; 128];
    first[..32].copy_from_slice(&m);
    first[32..64].copy_from_slice(&good);
    first[64..].fill(0xFF);
    let (enc_a, mut tx) = s.setup_sender_base_derand(&pk, b"i", &third).unwrap();
    let (enc_b, _) = s.setup_sender_base_derand(&pk, b"i", &first).unwrap();
    assert_eq!(enc_a.as_bytes(), enc_b.as_bytes());
    let mut rx = s.setup_receiver_base(enc_a.as_bytes(), &sk, b"i").unwrap();
    assert_eq!(rx.open(b"", &tx.seal(b"", b"m").unwrap()).unwrap(), b"m");
    // n - 1 is in range; n, 0 and 2^256 - 1 are not.
    let mut n_minus_1 = n_p256;
    n_minus_1[31] -= 1;
    let mut last = first;
    last[32..64].copy_from_slice(&n_p256);
    last[64..96].fill(0xFF);
    last[96..].copy_from_slice(&n_minus_1);
    assert!(s.setup_sender_base_derand(&pk, b"i", &last).is_ok());
    last[96..].copy_from_slice(&n_p256);
    assert_eq!(
        s.setup_sender_base_derand(&pk, b"i", &last).err(),
        Some(Error::DeriveKeyPair)
    );
    // P-384: one candidate, all ones is above n.
    let s = Suite::new(KemId::MlKem1024P384, KdfId::HkdfSha384, AeadId::Aes256Gcm);
    let (_, pk) = s.generate_key_pair(rng).unwrap();
    let mut r = [0xFFu8; 80];
    assert_eq!(
        s.setup_sender_base_derand(&pk, b"", &r).err(),
        Some(Error::DeriveKeyPair)
    );
    r[32..80].fill(0);
    assert_eq!(
        s.setup_sender_base_derand(&pk, b"", &r).err(),
        Some(Error::DeriveKeyPair)
    );
    r[79] = 1;
    assert!(s.setup_sender_base_derand(&pk, b"", &r).is_ok());
}
