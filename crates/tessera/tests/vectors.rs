//! Official vectors: RFC 9180 (`hpke-rfc9180`), draft-ietf-hpke-pq (`hpke-pq`) and the X-Wing
//! KEM vectors (`xwing`), read from `../shared/vectors` (never copied into the repository).
//!
//! Every vector whose suite this crate covers runs through the runtime-agile API (key
//! derivation and serialization, deterministic encapsulation from `ikmE`, the KEM shared
//! secret, the exporter secret, every encryption in sequence on both sides, every export) and,
//! for every RFC 9180 suite, through the typed API as well (all four DHKEMs of the file:
//! P-256, P-521, X25519, X448). A vector of a KEM this build lacks (a curve feature turned
//! off) is counted and reported, never passed; with the default features none is.

use tessera::hpke::{
    Aead, Aes128Gcm, Aes256Gcm, AgileReceiverContext, AgileSenderContext, AuthKem,
    ChaCha20Poly1305, DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512,
    DhKemX448HkdfSha512, DhKemX25519HkdfSha256, Error, ExportOnly, HkdfSha256, HkdfSha512, Hpke,
    Kdf, Kem, KemId, MlKem512, MlKem768, MlKem768P256, MlKem1024, MlKem1024P384, ReceiverContext,
    SealingAead, SenderContext, Suite, XWing,
};
use tessera_testkit::hex;
use tessera_testkit::hpke::{Vector, load_pq, load_rfc9180};

fn label(v: &Vector) -> String {
    format!(
        "mode {} kem {:#06x} kdf {:#06x} aead {:#06x}",
        v.mode, v.kem_id, v.kdf_id, v.aead_id
    )
}

/// The KEM shared secret of the deterministic encapsulation, through the typed KEM.
fn shared_secret_of<K: Kem>(v: &Vector) -> Vec<u8> {
    let (_, pk_r) = K::derive_key_pair(v.get("ikmR")).unwrap();
    let (ss, enc) = K::encap_derand(&pk_r, v.get("ikmE")).unwrap();
    assert_eq!(enc.as_ref(), v.get("enc"), "{}: typed enc", label(v));
    ss.as_bytes().to_vec()
}

fn auth_shared_secret<K: AuthKem>(v: &Vector) -> Vec<u8> {
    let (_, pk_r) = K::derive_key_pair(v.get("ikmR")).unwrap();
    let (sk_s, _) = K::derive_key_pair(v.get("ikmS")).unwrap();
    let (ss, enc) = K::auth_encap_derand(&pk_r, &sk_s, v.get("ikmE")).unwrap();
    assert_eq!(enc.as_ref(), v.get("enc"), "{}: typed auth enc", label(v));
    ss.as_bytes().to_vec()
}

/// RFC 7748 clamping of an X25519 / X448 private key (other KEMs: unchanged).
fn clamped(kem: u16, sk: &[u8]) -> Vec<u8> {
    let mut k = sk.to_vec();
    match kem {
        0x0020 => {
            k[0] &= 248;
            k[31] &= 127;
            k[31] |= 64;
        }
        0x0021 => {
            k[0] &= 252;
            k[55] |= 128;
        }
        _ => {}
    }
    k
}

/// `skXm` of a vector against ours. X25519 and X448 keys are one key in clamped and unclamped
/// form; Tessera serializes them as derived (unclamped, as the RFC 9180 vectors do), while the
/// hpke-pq reference implementation's X448 serializes the clamped form: compare clamped.
fn assert_sk(v: &Vector, ours: &[u8], field: &str) {
    assert_eq!(
        clamped(v.kem_id, ours),
        clamped(v.kem_id, v.get(field)),
        "{}: {field}",
        label(v)
    );
}

/// Checks one vector through the agile API. `Ok(false)`: a KEM this crate lacks.
fn check_agile(v: &Vector) -> bool {
    let suite = match Suite::from_ids(v.kem_id, v.kdf_id, v.aead_id) {
        Ok(s) => s,
        Err(Error::UnknownKem(_)) => return false,
        Err(e) => panic!("{}: {e:?}", label(v)),
    };
    let l = label(v);
    let (sk_r, pk_r) = suite.derive_key_pair(v.get("ikmR")).unwrap();
    assert_sk(v, sk_r.as_bytes(), "skRm");
    assert_eq!(pk_r.as_bytes(), v.get("pkRm"), "{l}: pkRm");
    // Serialized forms parse back to the same keys.
    let pk_parsed = suite.public_key_from_bytes(v.get("pkRm")).unwrap();
    assert_eq!(pk_parsed, pk_r, "{l}: pkRm parse");
    let sk_parsed = suite.private_key_from_bytes(v.get("skRm")).unwrap();
    assert_eq!(sk_parsed.public_key(), pk_r, "{l}: skRm parse");

    let sender_keys = v.field("ikmS").map(|ikm| {
        let (sk_s, pk_s) = suite.derive_key_pair(ikm).unwrap();
        assert_sk(v, sk_s.as_bytes(), "skSm");
        assert_eq!(pk_s.as_bytes(), v.get("pkSm"), "{l}: pkSm");
        (sk_s, pk_s)
    });

    let ss = match (suite.kem(), v.mode) {
        (KemId::DhKemX25519HkdfSha256, 2 | 3) => auth_shared_secret::<DhKemX25519HkdfSha256>(v),
        (KemId::DhKemX25519HkdfSha256, _) => shared_secret_of::<DhKemX25519HkdfSha256>(v),
        (KemId::DhKemP256HkdfSha256, 2 | 3) => auth_shared_secret::<DhKemP256HkdfSha256>(v),
        (KemId::DhKemP256HkdfSha256, _) => shared_secret_of::<DhKemP256HkdfSha256>(v),
        (KemId::DhKemP384HkdfSha384, 2 | 3) => auth_shared_secret::<DhKemP384HkdfSha384>(v),
        (KemId::DhKemP384HkdfSha384, _) => shared_secret_of::<DhKemP384HkdfSha384>(v),
        (KemId::DhKemP521HkdfSha512, 2 | 3) => auth_shared_secret::<DhKemP521HkdfSha512>(v),
        (KemId::DhKemP521HkdfSha512, _) => shared_secret_of::<DhKemP521HkdfSha512>(v),
        (KemId::DhKemX448HkdfSha512, 2 | 3) => auth_shared_secret::<DhKemX448HkdfSha512>(v),
        (KemId::DhKemX448HkdfSha512, _) => shared_secret_of::<DhKemX448HkdfSha512>(v),
        (KemId::MlKem768P256, _) => shared_secret_of::<MlKem768P256>(v),
        (KemId::MlKem1024P384, _) => shared_secret_of::<MlKem1024P384>(v),
        (KemId::MlKem512, _) => shared_secret_of::<MlKem512>(v),
        (KemId::MlKem768, _) => shared_secret_of::<MlKem768>(v),
        (KemId::MlKem1024, _) => shared_secret_of::<MlKem1024>(v),
        (KemId::XWing, _) => shared_secret_of::<XWing>(v),
        (k, _) => panic!("{l}: no shared-secret check for {k:?}"),
    };
    assert_eq!(ss, v.get("shared_secret"), "{l}: shared_secret");

    let (info, ikm_e, enc) = (v.get("info"), v.get("ikmE"), v.get("enc"));
    let (psk, psk_id) = (
        v.field("psk").unwrap_or(&[]),
        v.field("psk_id").unwrap_or(&[]),
    );
    let (enc_s, mut s, mut r): (_, AgileSenderContext, AgileReceiverContext) = match v.mode {
        0 => {
            let (e, s) = suite.setup_sender_base_derand(&pk_r, info, ikm_e).unwrap();
            (e, s, suite.setup_receiver_base(enc, &sk_r, info).unwrap())
        }
        1 => {
            let (e, s) = suite
                .setup_sender_psk_derand(&pk_r, info, psk, psk_id, ikm_e)
                .unwrap();
            (
                e,
                s,
                suite
                    .setup_receiver_psk(enc, &sk_r, info, psk, psk_id)
                    .unwrap(),
            )
        }
        2 => {
            let (sk_s, pk_s) = sender_keys.as_ref().unwrap();
            let (e, s) = suite
                .setup_sender_auth_derand(&pk_r, info, sk_s, ikm_e)
                .unwrap();
            (
                e,
                s,
                suite.setup_receiver_auth(enc, &sk_r, info, pk_s).unwrap(),
            )
        }
        3 => {
            let (sk_s, pk_s) = sender_keys.as_ref().unwrap();
            let (e, s) = suite
                .setup_sender_auth_psk_derand(&pk_r, info, psk, psk_id, sk_s, ikm_e)
                .unwrap();
            (
                e,
                s,
                suite
                    .setup_receiver_auth_psk(enc, &sk_r, info, psk, psk_id, pk_s)
                    .unwrap(),
            )
        }
        m => panic!("mode {m}"),
    };
    assert_eq!(enc_s.as_bytes(), enc, "{l}: enc");
    assert_eq!(
        s.__exporter_secret(),
        v.get("exporter_secret"),
        "{l}: sender exporter_secret"
    );
    assert_eq!(
        r.__exporter_secret(),
        v.get("exporter_secret"),
        "{l}: receiver exporter_secret"
    );

    for (i, e) in v.encryptions.iter().enumerate() {
        assert_eq!(s.seal(&e.aad, &e.pt).unwrap(), e.ct, "{l}: seal #{i}");
        assert_eq!(r.open(&e.aad, &e.ct).unwrap(), e.pt, "{l}: open #{i}");
    }
    if v.encryptions.is_empty() {
        assert_eq!(
            s.seal(b"", b"x"),
            Err(Error::ExportOnly),
            "{l}: export-only seal"
        );
    }
    for (i, x) in v.exports.iter().enumerate() {
        let mut a = vec![0u8; x.len];
        let mut b = vec![0u8; x.len];
        s.export(&x.exporter_context, &mut a).unwrap();
        r.export(&x.exporter_context, &mut b).unwrap();
        assert_eq!(a, x.exported_value, "{l}: sender export #{i}");
        assert_eq!(b, x.exported_value, "{l}: receiver export #{i}");
    }
    true
}

/// The typed setup of a DHKEM vector with KEM `K`, KDF `F` and AEAD `A`.
fn typed_setup<K: AuthKem, F: Kdf, A: Aead>(v: &Vector) -> (SenderContext<A>, ReceiverContext<A>) {
    type H<K, F, A> = Hpke<K, F, A>;
    let (sk_r, pk_r) = K::derive_key_pair(v.get("ikmR")).unwrap();
    let (info, ikm_e, enc) = (v.get("info"), v.get("ikmE"), v.get("enc"));
    let (psk, psk_id) = (
        v.field("psk").unwrap_or(&[]),
        v.field("psk_id").unwrap_or(&[]),
    );
    let sender = v.field("ikmS").map(|ikm| K::derive_key_pair(ikm).unwrap());
    let (e, s, r) = match v.mode {
        0 => {
            let (e, s) = H::<K, F, A>::setup_sender_base_derand(&pk_r, info, ikm_e).unwrap();
            (
                e,
                s,
                H::<K, F, A>::setup_receiver_base(enc, &sk_r, info).unwrap(),
            )
        }
        1 => {
            let (e, s) =
                H::<K, F, A>::setup_sender_psk_derand(&pk_r, info, psk, psk_id, ikm_e).unwrap();
            (
                e,
                s,
                H::<K, F, A>::setup_receiver_psk(enc, &sk_r, info, psk, psk_id).unwrap(),
            )
        }
        2 => {
            let (sk_s, pk_s) = sender.as_ref().unwrap();
            let (e, s) = H::<K, F, A>::setup_sender_auth_derand(&pk_r, info, sk_s, ikm_e).unwrap();
            (
                e,
                s,
                H::<K, F, A>::setup_receiver_auth(enc, &sk_r, info, pk_s).unwrap(),
            )
        }
        _ => {
            let (sk_s, pk_s) = sender.as_ref().unwrap();
            let (e, s) =
                H::<K, F, A>::setup_sender_auth_psk_derand(&pk_r, info, psk, psk_id, sk_s, ikm_e)
                    .unwrap();
            (
                e,
                s,
                H::<K, F, A>::setup_receiver_auth_psk(enc, &sk_r, info, psk, psk_id, pk_s).unwrap(),
            )
        }
    };
    assert_eq!(e.as_ref(), enc, "{}: typed enc", label(v));
    for (i, x) in v.exports.iter().enumerate() {
        let mut a = vec![0u8; x.len];
        let mut b = vec![0u8; x.len];
        s.export(&x.exporter_context, &mut a).unwrap();
        r.export(&x.exporter_context, &mut b).unwrap();
        assert_eq!(
            a,
            x.exported_value,
            "{}: typed sender export #{i}",
            label(v)
        );
        assert_eq!(
            b,
            x.exported_value,
            "{}: typed receiver export #{i}",
            label(v)
        );
    }
    (s, r)
}

/// Every encryption through the typed contexts, in place.
fn typed_seal<K: AuthKem, F: Kdf, A: SealingAead>(v: &Vector) {
    let (mut s, mut r) = typed_setup::<K, F, A>(v);
    for (i, e) in v.encryptions.iter().enumerate() {
        let mut buf = e.pt.clone();
        let tag = s.seal_in_place_detached(&e.aad, &mut buf).unwrap();
        let n = buf.len();
        assert_eq!(buf, e.ct[..n], "{}: typed seal #{i}", label(v));
        assert_eq!(tag, e.ct[n..], "{}: typed tag #{i}", label(v));
        r.open_in_place_detached(&e.aad, &mut buf, &tag).unwrap();
        assert_eq!(buf, e.pt, "{}: typed open #{i}", label(v));
    }
}

fn check_typed_kem<K: AuthKem>(v: &Vector) {
    match (v.kdf_id, v.aead_id) {
        (1, 1) => typed_seal::<K, HkdfSha256, Aes128Gcm>(v),
        (1, 2) => typed_seal::<K, HkdfSha256, Aes256Gcm>(v),
        (1, 3) => typed_seal::<K, HkdfSha256, ChaCha20Poly1305>(v),
        (1, 0xFFFF) => drop(typed_setup::<K, HkdfSha256, ExportOnly>(v)),
        (3, 1) => typed_seal::<K, HkdfSha512, Aes128Gcm>(v),
        (3, 2) => typed_seal::<K, HkdfSha512, Aes256Gcm>(v),
        (3, 3) => typed_seal::<K, HkdfSha512, ChaCha20Poly1305>(v),
        (3, 0xFFFF) => drop(typed_setup::<K, HkdfSha512, ExportOnly>(v)),
        other => panic!("no typed suite for {other:?}"),
    }
}

fn check_typed(v: &Vector) {
    match v.kem_id {
        0x0010 => check_typed_kem::<DhKemP256HkdfSha256>(v),
        0x0012 => check_typed_kem::<DhKemP521HkdfSha512>(v),
        0x0020 => check_typed_kem::<DhKemX25519HkdfSha256>(v),
        0x0021 => check_typed_kem::<DhKemX448HkdfSha512>(v),
        k => panic!("no typed KEM for {k:#06x}"),
    }
}

#[test]
fn rfc9180_vectors() {
    let Some(vs) = load_rfc9180() else { return };
    assert_eq!(vs.len(), 128, "the RFC 9180 file has 128 vectors");
    let (mut passed, mut typed, mut encryptions) = (0, 0, 0);
    let mut later = std::collections::BTreeMap::<u16, usize>::new();
    for v in &vs {
        if check_agile(v) {
            passed += 1;
            encryptions += v.encryptions.len();
            check_typed(v);
            typed += 1;
        } else {
            *later.entry(v.kem_id).or_default() += 1;
        }
    }
    println!(
        "RFC 9180: {passed}/128 vectors ({encryptions} encryptions; {typed} also through the typed \
         API); not run (KEM not in this build): {later:x?} (kem id: count)"
    );
    // Every vector (P-256, P-521, X25519, X448; both KDFs, every AEAD, every mode).
    assert_eq!(passed, 128, "RFC 9180 vectors run");
    assert_eq!(typed, 128);
}

#[test]
fn hpke_pq_vectors() {
    let Some(vs) = load_pq() else { return };
    assert_eq!(vs.len(), 13, "the hpke-pq file has 13 vectors");
    let mut passed = 0;
    let mut later = Vec::new();
    for v in &vs {
        // The suite_id the file states is the one the key schedule uses.
        if let Ok(s) = Suite::from_ids(v.kem_id, v.kdf_id, v.aead_id) {
            let mut id = b"HPKE".to_vec();
            for x in [s.kem().id(), s.kdf().id(), s.aead().id()] {
                id.extend_from_slice(&x.to_be_bytes());
            }
            assert_eq!(id, v.get("suite_id"));
        }
        if check_agile(v) {
            passed += 1;
        } else {
            later.push(format!(
                "{:#06x}/{:#06x}/{:#06x}",
                v.kem_id, v.kdf_id, v.aead_id
            ));
        }
    }
    println!("hpke-pq: {passed}/13 vectors; not run (KEM not in this build): {later:?}");
    // ML-KEM-512/768/1024 (3 + 1 TurboSHAKE256), X-Wing (HKDF and SHAKE256), MLKEM768-P256
    // (HKDF-SHA256 and SHAKE128), MLKEM1024-P384, DHKEM P-256 (SHAKE128), P-384 (SHAKE256),
    // X25519 (TurboSHAKE128), X448 (TurboSHAKE256): all 13.
    assert_eq!(passed, 13, "hpke-pq vectors run");
}

#[test]
fn xwing_kem_vectors() {
    let Some(p) = tessera_testkit::vector_file("xwing", "test-vectors.json") else {
        return;
    };
    let all: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    let mut n = 0;
    for v in all.as_array().unwrap() {
        let h = |k: &str| hex::decode(v[k].as_str().unwrap());
        let sk = XWing::private_key_from_bytes(&h("seed")).unwrap();
        assert_eq!(XWing::public_key_to_bytes(XWing::public_key(&sk)), h("pk"));
        let pk = XWing::public_key_from_bytes(&h("pk")).unwrap();
        let (ss, ct) = XWing::encap_derand(&pk, &h("eseed")).unwrap();
        assert_eq!(ct.as_ref(), h("ct"));
        assert_eq!(ss.as_bytes(), h("ss"));
        assert_eq!(XWing::decap(&h("ct"), &sk).unwrap().as_bytes(), h("ss"));
        n += 1;
    }
    println!("X-Wing KEM: {n}/3 vectors");
    assert_eq!(n, 3);
}
