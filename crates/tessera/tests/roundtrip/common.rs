//! The suites, modes and helpers the round-trip and negative tests share.

use super::*;

pub(crate) const KEMS: [KemId; 12] = [
    KemId::DhKemX25519HkdfSha256,
    KemId::DhKemP256HkdfSha256,
    KemId::DhKemP384HkdfSha384,
    KemId::DhKemP521HkdfSha512,
    KemId::DhKemSecp256k1HkdfSha256,
    KemId::DhKemX448HkdfSha512,
    KemId::MlKem512,
    KemId::MlKem768,
    KemId::MlKem1024,
    KemId::XWing,
    KemId::MlKem768P256,
    KemId::MlKem1024P384,
];
/// The DHKEMs of [`KEMS`] (the ones with Auth and AuthPSK).
pub(crate) const N_DHKEMS: usize = 6;
pub(crate) const KDFS: [KdfId; 7] = [
    KdfId::HkdfSha256,
    KdfId::HkdfSha384,
    KdfId::HkdfSha512,
    KdfId::Shake128,
    KdfId::Shake256,
    KdfId::TurboShake128,
    KdfId::TurboShake256,
];
pub(crate) const AEADS: [AeadId; 4] = [
    AeadId::Aes128Gcm,
    AeadId::Aes256Gcm,
    AeadId::ChaCha20Poly1305,
    AeadId::ExportOnly,
];

pub(crate) const PSK: &[u8] = b"a pre-shared key of at least 32 bytes";
pub(crate) const PSK_ID: &[u8] = b"psk id";

pub(crate) fn rng() -> StdRng {
    StdRng::from_seed([0x42; 32])
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum M {
    Base,
    Psk,
    Auth,
    AuthPsk,
}

pub(crate) struct Setup {
    pub(crate) enc: Vec<u8>,
    pub(crate) s: tessera::hpke::AgileSenderContext,
}

pub(crate) fn send(
    suite: &Suite,
    m: M,
    pk_r: &AgilePublicKey,
    sk_s: &AgilePrivateKey,
    info: &[u8],
    rng: &mut StdRng,
) -> Result<Setup, Error> {
    let (enc, s) = match m {
        M::Base => suite.setup_sender_base(pk_r, info, rng)?,
        M::Psk => suite.setup_sender_psk(pk_r, info, PSK, PSK_ID, rng)?,
        M::Auth => suite.setup_sender_auth(pk_r, info, sk_s, rng)?,
        M::AuthPsk => suite.setup_sender_auth_psk(pk_r, info, PSK, PSK_ID, sk_s, rng)?,
    };
    Ok(Setup {
        enc: enc.as_bytes().to_vec(),
        s,
    })
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn receive(
    suite: &Suite,
    m: M,
    enc: &[u8],
    sk_r: &AgilePrivateKey,
    pk_s: &AgilePublicKey,
    info: &[u8],
    psk: &[u8],
    psk_id: &[u8],
) -> Result<tessera::hpke::AgileReceiverContext, Error> {
    match m {
        M::Base => suite.setup_receiver_base(enc, sk_r, info),
        M::Psk => suite.setup_receiver_psk(enc, sk_r, info, psk, psk_id),
        M::Auth => suite.setup_receiver_auth(enc, sk_r, info, pk_s),
        M::AuthPsk => suite.setup_receiver_auth_psk(enc, sk_r, info, psk, psk_id, pk_s),
    }
}

/// The typed Auth and AuthPSK single-shot and export functions of a DHKEM.
pub(crate) fn check_auth<K: AuthKem>() {
    type H<K> = Hpke<K, HkdfSha256, Aes256Gcm>;
    let mut rng = rng();
    let (sk_r, pk_r) = K::generate_key_pair(&mut rng);
    let (sk_s, pk_s) = K::generate_key_pair(&mut rng);
    let (enc, ct) = H::<K>::seal_auth(&pk_r, b"i", b"a", b"auth", &sk_s, &mut rng).unwrap();
    assert_eq!(
        H::<K>::open_auth(enc.as_ref(), &sk_r, b"i", b"a", &ct, &pk_s).unwrap(),
        b"auth"
    );
    // A different sender key does not authenticate.
    let (_, other) = K::generate_key_pair(&mut rng);
    assert_eq!(
        H::<K>::open_auth(enc.as_ref(), &sk_r, b"i", b"a", &ct, &other),
        Err(Error::OpenError)
    );
    let (enc, ct) =
        H::<K>::seal_auth_psk(&pk_r, b"i", b"a", b"authpsk", PSK, PSK_ID, &sk_s, &mut rng).unwrap();
    assert_eq!(
        H::<K>::open_auth_psk(enc.as_ref(), &sk_r, b"i", b"a", &ct, PSK, PSK_ID, &pk_s).unwrap(),
        b"authpsk"
    );
    let (mut x, mut y) = ([0u8; 16], [0u8; 16]);
    let enc = H::<K>::send_export_auth(&pk_r, b"i", &sk_s, b"c", &mut x, &mut rng).unwrap();
    H::<K>::receive_export_auth(enc.as_ref(), &sk_r, b"i", &pk_s, b"c", &mut y).unwrap();
    assert_eq!(x, y);
}

/// One sealed message and everything needed to open it, for the negative matrix.
pub(crate) struct Sealed {
    pub(crate) suite: Suite,
    pub(crate) sk_r: AgilePrivateKey,
    pub(crate) enc: Vec<u8>,
    pub(crate) ct: Vec<u8>,
}

pub(crate) fn sealed(kem: KemId, m: M) -> Sealed {
    let suite = Suite::new(kem, KdfId::HkdfSha256, AeadId::ChaCha20Poly1305);
    let mut rng = rng();
    let (sk_r, pk_r) = suite.generate_key_pair(&mut rng).unwrap();
    let (enc, ct) = match m {
        M::Psk => suite.seal_psk(&pk_r, b"info", b"aad", b"secret", PSK, PSK_ID, &mut rng),
        _ => suite.seal_base(&pk_r, b"info", b"aad", b"secret", &mut rng),
    }
    .unwrap();
    Sealed {
        suite,
        sk_r,
        enc: enc.as_bytes().to_vec(),
        ct,
    }
}
