//! Misuse resistance of the public HPKE API: the sender setups draw fresh randomness on every
//! call (no two give the same `enc`, so no two contexts share a key and nonce), and a sealed
//! message opens only under the mode and suite it was sealed with.

use super::common::{KDFS, KEMS, M, PSK, PSK_ID};
use rand::SeedableRng;
use rand::rngs::StdRng;
use tessera::hpke::{
    AeadId, AgilePrivateKey, AgilePublicKey, ChaCha20Poly1305, DhKemX25519HkdfSha256, Error,
    HkdfSha256, Hpke, KdfId, Kem, KemId, MlKem768, Suite, XWing,
};

/// The AEADs that seal (every one but the export-only one).
const SEALING_AEADS: [AeadId; 3] = [
    AeadId::Aes128Gcm,
    AeadId::Aes256Gcm,
    AeadId::ChaCha20Poly1305,
];

const MODES: [M; 4] = [M::Base, M::Psk, M::Auth, M::AuthPsk];

fn modes(kem: KemId) -> &'static [M] {
    if kem.supports_auth() {
        &MODES
    } else {
        &MODES[..2]
    }
}

struct Keys {
    sk_r: AgilePrivateKey,
    pk_r: AgilePublicKey,
    sk_s: AgilePrivateKey,
    pk_s: AgilePublicKey,
}

fn keys(suite: &Suite, rng: &mut StdRng) -> Keys {
    let (sk_r, pk_r) = suite.generate_key_pair(rng).unwrap();
    let (sk_s, pk_s) = suite.generate_key_pair(rng).unwrap();
    Keys {
        sk_r,
        pk_r,
        sk_s,
        pk_s,
    }
}

/// Single-shot seal in mode `m`: `(enc, ct)`.
fn seal(suite: &Suite, m: M, k: &Keys, pt: &[u8], rng: &mut StdRng) -> (Vec<u8>, Vec<u8>) {
    let (info, aad) = (b"info".as_slice(), b"aad".as_slice());
    let (enc, ct) = match m {
        M::Base => suite.seal_base(&k.pk_r, info, aad, pt, rng),
        M::Psk => suite.seal_psk(&k.pk_r, info, aad, pt, PSK, PSK_ID, rng),
        M::Auth => suite.seal_auth(&k.pk_r, info, aad, pt, &k.sk_s, rng),
        M::AuthPsk => suite.seal_auth_psk(&k.pk_r, info, aad, pt, PSK, PSK_ID, &k.sk_s, rng),
    }
    .unwrap();
    (enc.as_bytes().to_vec(), ct)
}

/// Single-shot open in mode `m` with every other input right.
fn open(suite: &Suite, m: M, k: &Keys, enc: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error> {
    let (info, aad) = (b"info".as_slice(), b"aad".as_slice());
    match m {
        M::Base => suite.open_base(enc, &k.sk_r, info, aad, ct),
        M::Psk => suite.open_psk(enc, &k.sk_r, info, aad, ct, PSK, PSK_ID),
        M::Auth => suite.open_auth(enc, &k.sk_r, info, aad, ct, &k.pk_s),
        M::AuthPsk => suite.open_auth_psk(enc, &k.sk_r, info, aad, ct, PSK, PSK_ID, &k.pk_s),
    }
}

/// `n` typed base-mode sender setups (KEM `K`, HKDF-SHA256, ChaCha20-Poly1305) to the key
/// derived from `ikm`: no `enc` comes twice.
fn typed_encs_never_repeat<K: Kem>(ikm: &[u8], label: &str, n: usize, rng: &mut StdRng) {
    let (_, pk) = K::derive_key_pair(ikm).unwrap();
    let mut encs = Vec::new();
    for _ in 0..n {
        let (enc, _) =
            Hpke::<K, HkdfSha256, ChaCha20Poly1305>::setup_sender_base(&pk, b"", rng).unwrap();
        assert!(!encs.contains(&enc), "typed {label}: enc repeated");
        encs.push(enc);
    }
}

/// Every KEM and mode: many sender setups from one RNG, no `enc` twice, and the first
/// messages sealed under them (same plaintext, same everything else) all differ.
#[test]
fn sender_setups_never_repeat_enc() {
    const N: usize = 16;
    let mut rng = StdRng::from_seed([0x11; 32]);
    let mut setups = 0;
    for kem in KEMS {
        let suite = Suite::new(kem, KdfId::HkdfSha256, AeadId::Aes128Gcm);
        let k = keys(&suite, &mut rng);
        for &m in modes(kem) {
            let mut seen: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
            for _ in 0..N {
                let (enc, ct) = seal(&suite, m, &k, b"the same plaintext", &mut rng);
                assert!(
                    seen.iter().all(|(e, _)| *e != enc),
                    "{kem:?} {m:?}: enc repeated"
                );
                assert!(
                    seen.iter().all(|(_, c)| *c != ct),
                    "{kem:?} {m:?}: ciphertext repeated"
                );
                assert_eq!(
                    open(&suite, m, &k, &enc, &ct).unwrap(),
                    b"the same plaintext"
                );
                seen.push((enc, ct));
                setups += 1;
            }
        }
    }
    // The typed API, including the ML-KEM and X-Wing paths that draw their randomness in two
    // parts.
    typed_encs_never_repeat::<DhKemX25519HkdfSha256>(&[1; 32], "X25519", N, &mut rng);
    typed_encs_never_repeat::<MlKem768>(&[2; 64], "ML-KEM-768", N, &mut rng);
    typed_encs_never_repeat::<XWing>(&[3; 32], "X-Wing", N, &mut rng);
    println!(
        "{setups} agile sender setups and {} typed ones, no enc twice",
        3 * N
    );
}

/// A message sealed in one mode does not open in any other mode (same keys, PSK and sender
/// key), nor under any other KDF or AEAD of the same KEM, nor under another KEM's key.
#[test]
fn sealed_message_opens_only_in_its_own_mode_and_suite() {
    let mut rng = StdRng::from_seed([0x22; 32]);
    let (mut own, mut refused) = (0, 0);
    for kem in KEMS {
        let home = Suite::new(kem, KdfId::HkdfSha256, AeadId::ChaCha20Poly1305);
        let k = keys(&home, &mut rng);
        for &m in modes(kem) {
            let (enc, ct) = seal(&home, m, &k, b"secret", &mut rng);
            assert_eq!(open(&home, m, &k, &enc, &ct).unwrap(), b"secret");
            own += 1;
            for &other in modes(kem).iter().filter(|&&o| o != m) {
                assert_eq!(
                    open(&home, other, &k, &enc, &ct),
                    Err(Error::OpenError),
                    "{kem:?}: sealed {m:?}, opened {other:?}"
                );
                refused += 1;
            }
            for kdf in KDFS {
                for aead in SEALING_AEADS {
                    if (kdf, aead) == (KdfId::HkdfSha256, AeadId::ChaCha20Poly1305) {
                        continue;
                    }
                    let suite = Suite::new(kem, kdf, aead);
                    assert_eq!(
                        open(&suite, m, &k, &enc, &ct),
                        Err(Error::OpenError),
                        "{kem:?} {m:?}: opened under {kdf:?}/{aead:?}"
                    );
                    refused += 1;
                }
            }
        }
    }
    // A key of another KEM is refused before any decryption.
    let x = Suite::new(KemId::XWing, KdfId::HkdfSha256, AeadId::ChaCha20Poly1305);
    let kx = keys(&x, &mut rng);
    let (enc, ct) = seal(&x, M::Base, &kx, b"secret", &mut rng);
    let m = Suite::new(KemId::MlKem768, KdfId::HkdfSha256, AeadId::ChaCha20Poly1305);
    let km = keys(&m, &mut rng);
    assert_eq!(
        m.open_base(&enc, &km.sk_r, b"info", b"aad", &ct),
        Err(Error::InvalidEncappedKey)
    );
    assert_eq!(
        x.open_base(&enc, &km.sk_r, b"info", b"aad", &ct),
        Err(Error::KemMismatch)
    );
    println!("{own} messages opened in their own mode and suite, {refused} other openings refused");
}

/// The umbrella crate re-exports every primitive crate, ML-DSA included (`mldsa` feature).
#[test]
fn umbrella_reexports_mldsa() {
    use tessera::mldsa::ml_dsa_44::SigningKey;
    let sk = SigningKey::from_seed(&[5; 32]);
    let sig = sk
        .sign(b"message", b"", &mut StdRng::from_seed([6; 32]))
        .unwrap();
    assert!(sk.verifying_key().verify(b"message", b"", &sig).is_ok());
    assert!(sk.verifying_key().verify(b"messagf", b"", &sig).is_err());
}
