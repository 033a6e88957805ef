//! Every Tessera call of this bench, in one place (see the module's doc in `main.rs`).

/// One Tessera backend of a row.
pub struct Impl<B> {
    pub name: &'static str,
    /// `None`: the public API (the best backend).
    pub backend: Option<B>,
}

/// The best backend first (as `None`), then every other available one.
fn impls<B: Copy + PartialEq>(
    best: B,
    all: impl Iterator<Item = B>,
    name: fn(&B) -> &'static str,
) -> Vec<Impl<B>> {
    let mut v = vec![Impl {
        name: name(&best),
        backend: None,
    }];
    v.extend(all.filter(|b| *b != best).map(|b| Impl {
        name: name(&b),
        backend: Some(b),
    }));
    v
}

/// The HW line of the report.
pub fn hw_line() -> String {
    tessera_cpu::features().to_string()
}

// --- SHA-2 ---
pub type Sha256Backend = tessera_sha2::testing::Sha256Backend;
pub type Sha512Backend = tessera_sha2::testing::Sha512Backend;

pub fn sha256_impls() -> Vec<Impl<Sha256Backend>> {
    impls(
        Sha256Backend::detect(),
        Sha256Backend::all_available(),
        Sha256Backend::name,
    )
}
pub fn sha512_impls() -> Vec<Impl<Sha512Backend>> {
    impls(
        Sha512Backend::detect(),
        Sha512Backend::all_available(),
        Sha512Backend::name,
    )
}
#[inline(always)]
pub fn sha256(be: Option<Sha256Backend>, data: &[u8]) -> [u8; 32] {
    match be {
        None => tessera_sha2::sha256(data),
        Some(be) => tessera_sha2::Sha256::digest_with_backend(be, data),
    }
}
#[inline(always)]
pub fn sha512(be: Option<Sha512Backend>, data: &[u8]) -> [u8; 64] {
    match be {
        None => tessera_sha2::sha512(data),
        Some(be) => tessera_sha2::Sha512::digest_with_backend(be, data),
    }
}
pub type HmacSha256Key = tessera_sha2::HmacKey<tessera_sha2::Sha256>;
pub fn hmac_sha256_key(be: Option<Sha256Backend>, key: &[u8]) -> HmacSha256Key {
    match be {
        None => HmacSha256Key::new(key),
        Some(be) => HmacSha256Key::new_with_backend(be, key),
    }
}
#[inline(always)]
pub fn hmac_sha256(k: &HmacSha256Key, msg: &[u8]) -> [u8; 32] {
    k.sign(msg)
}

// --- Keccak: single state (SHA-3, SHAKE) and four-way ---
pub type X1Backend = tessera_keccak::X1Backend;
pub type X4Backend = tessera_keccak::X4Backend;

pub fn x1_impls() -> Vec<Impl<X1Backend>> {
    impls(
        X1Backend::detect(),
        X1Backend::all_available(),
        X1Backend::name,
    )
}
pub fn x4_impls() -> Vec<Impl<X4Backend>> {
    impls(
        X4Backend::detect(),
        X4Backend::all_available(),
        X4Backend::name,
    )
}
#[inline(always)]
pub fn sha3_256(be: Option<X1Backend>, data: &[u8]) -> [u8; 32] {
    match be {
        None => tessera_keccak::sha3_256(data),
        Some(be) => {
            let mut h = tessera_keccak::Sha3_256::new_with_backend(be);
            h.update(data);
            h.finalize()
        }
    }
}
#[inline(always)]
pub fn shake128(be: Option<X1Backend>, data: &[u8], out: &mut [u8]) {
    match be {
        None => tessera_keccak::shake128(data, out),
        Some(be) => tessera_keccak::Shake128::new_with_backend(be)
            .update(data)
            .finalize_xof()
            .read(out),
    }
}
#[inline(always)]
pub fn shake256(be: Option<X1Backend>, data: &[u8], out: &mut [u8]) {
    match be {
        None => tessera_keccak::shake256(data, out),
        Some(be) => tessera_keccak::Shake256::new_with_backend(be)
            .update(data)
            .finalize_xof()
            .read(out),
    }
}
/// SHAKE256 of four equal-length inputs, one block-multiple output each.
#[inline(always)]
pub fn shake256_x4(be: Option<X4Backend>, ins: [&[u8]; 4], outs: [&mut [u8]; 4]) {
    let mut x = match be {
        None => tessera_keccak::Shake256x4::new(ins),
        Some(be) => tessera_keccak::Shake256x4::new_with_backend(be, ins),
    }
    .unwrap();
    x.squeeze_blocks(outs).unwrap();
}

// --- AES-GCM ---
pub type GcmBackend = tessera_aes_gcm::testing::Backend;

pub fn gcm_impls() -> Vec<Impl<GcmBackend>> {
    impls(
        GcmBackend::detect(),
        GcmBackend::all_available(),
        GcmBackend::name,
    )
}
/// The portable backend (the soft rows' reference).
pub fn gcm_portable() -> Impl<GcmBackend> {
    Impl {
        name: GcmBackend::Portable.name(),
        backend: Some(GcmBackend::Portable),
    }
}

/// SHA-256 behind the RustCrypto `digest` 0.11 traits (the `sha256-digest-trait` and
/// `hmac-sha256-trait` rows).
pub type DigestSha256 = tessera_sha2::digest::Sha256;
/// AES-128-GCM behind the RustCrypto `aead` 0.6 traits (the `aes128-gcm-aeadinout` rows).
pub type AeadAes128Gcm = tessera_aes_gcm::aead::Aes128Gcm;

/// An expanded AES-128-GCM or AES-256-GCM key (by key length).
pub type GcmKey = tessera_aes_gcm::AesGcm;
pub fn gcm_key(be: Option<GcmBackend>, key: &[u8]) -> GcmKey {
    match be {
        None => GcmKey::new(key),
        Some(be) => GcmKey::new_with_backend(be, key),
    }
    .expect("AES key length")
}
#[inline(always)]
pub fn gcm_seal(k: &GcmKey, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
    k.encrypt_in_place_detached(nonce, aad, buf).unwrap()
}
#[inline(always)]
pub fn gcm_open(k: &GcmKey, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8], tag: &[u8; 16]) {
    k.decrypt_in_place_detached(nonce, aad, buf, tag).unwrap()
}

/// The portable backend of a crate, forced through its handle.
fn portable<B>(b: B, name: fn(&B) -> &'static str) -> Impl<B> {
    Impl {
        name: name(&b),
        backend: Some(b),
    }
}

// --- ChaCha20-Poly1305 ---
pub type ChachaBackend = tessera_chacha20poly1305::testing::Backend;
pub type ChachaKey = tessera_chacha20poly1305::ChaCha20Poly1305;

pub fn chacha_impls() -> Vec<Impl<ChachaBackend>> {
    impls(
        ChachaBackend::detect(),
        ChachaBackend::all_available(),
        ChachaBackend::name,
    )
}
pub fn chacha_portable() -> Impl<ChachaBackend> {
    portable(ChachaBackend::Portable, ChachaBackend::name)
}
pub fn chacha_key(be: Option<ChachaBackend>, key: &[u8; 32]) -> ChachaKey {
    match be {
        None => ChachaKey::new(key),
        Some(be) => ChachaKey::new_with_backend(be, key),
    }
}
#[inline(always)]
pub fn chacha_seal(k: &ChachaKey, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
    k.encrypt_in_place_detached(nonce, aad, buf).unwrap()
}
#[inline(always)]
pub fn chacha_open(k: &ChachaKey, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8], tag: &[u8; 16]) {
    k.decrypt_in_place_detached(nonce, aad, buf, tag).unwrap()
}

// --- X25519 ---
pub type X25519Backend = tessera_x25519::testing::Backend;

pub fn x25519_impls() -> Vec<Impl<X25519Backend>> {
    impls(
        X25519Backend::detect(),
        X25519Backend::all_available(),
        X25519Backend::name,
    )
}
pub fn x25519_portable() -> Impl<X25519Backend> {
    portable(X25519Backend::Portable, X25519Backend::name)
}
/// A static secret (the backend chosen when it is made, as users get it).
pub fn x25519_secret(be: Option<X25519Backend>, bytes: [u8; 32]) -> tessera_x25519::StaticSecret {
    match be {
        None => tessera_x25519::StaticSecret::from(bytes),
        Some(be) => tessera_x25519::StaticSecret::new_with_backend(be, bytes),
    }
}
/// One variable-base scalar multiplication through the key-agreement API (with its
/// all-zero check).
#[inline(always)]
pub fn x25519_dh(sk: &tessera_x25519::StaticSecret, peer: &tessera_x25519::PublicKey) -> [u8; 32] {
    sk.diffie_hellman(peer).unwrap().to_bytes()
}
/// Key generation from secret bytes: the public key of a new static secret (fixed base).
#[inline(always)]
pub fn x25519_keygen(be: Option<X25519Backend>, bytes: [u8; 32]) -> [u8; 32] {
    tessera_x25519::PublicKey::from(&x25519_secret(be, bytes)).to_bytes()
}

// --- P-256 ---
pub type P256Backend = tessera_p256::testing::Backend;

pub fn p256_impls() -> Vec<Impl<P256Backend>> {
    impls(
        P256Backend::detect(),
        P256Backend::all_available(),
        P256Backend::name,
    )
}
/// A secret key (the backend chosen when it is made, as users get it).
pub fn p256_secret(be: Option<P256Backend>, bytes: &[u8; 32]) -> tessera_p256::SecretKey {
    match be {
        None => tessera_p256::SecretKey::from_bytes(bytes).unwrap(),
        Some(be) => tessera_p256::SecretKey::from_bytes_with_backend(be, bytes).unwrap(),
    }
}
/// ECDH with the peer's uncompressed key parsed and validated per call.
#[inline(always)]
pub fn p256_ecdh(sk: &tessera_p256::SecretKey, peer: &[u8; 65]) -> [u8; 32] {
    let pk = tessera_p256::PublicKey::from_sec1_bytes(peer).unwrap();
    *sk.diffie_hellman(&pk).as_bytes()
}

/// An ECDSA signing key (the backend chosen when it is made).
pub fn p256_signing_key(
    be: Option<P256Backend>,
    bytes: &[u8; 32],
) -> tessera_p256::ecdsa::SigningKey {
    match be {
        None => tessera_p256::ecdsa::SigningKey::from_bytes(bytes).unwrap(),
        Some(be) => tessera_p256::ecdsa::SigningKey::from_bytes_with_backend(be, bytes).unwrap(),
    }
}
/// ECDSA verification with the key and the signature parsed per call.
#[inline(always)]
pub fn p256_verify(be: Option<P256Backend>, pk: &[u8; 65], msg: &[u8], sig: &[u8; 64]) -> bool {
    use tessera_p256::ecdsa::{Signature, VerifyingKey};
    let vk = match be {
        None => VerifyingKey::from_sec1_bytes(pk),
        Some(be) => VerifyingKey::from_sec1_bytes_with_backend(be, pk),
    };
    let Ok(vk) = vk else { return false };
    Signature::from_bytes(sig).is_ok_and(|s| vk.verify(msg, &s).is_ok())
}

// --- ML-KEM ---
pub type MlKemBackend = tessera_mlkem::testing::Backend;

pub fn mlkem_impls() -> Vec<Impl<MlKemBackend>> {
    impls(
        MlKemBackend::detect(),
        MlKemBackend::all_available(),
        MlKemBackend::name,
    )
}
pub fn mlkem_portable() -> Impl<MlKemBackend> {
    portable(MlKemBackend::Portable, MlKemBackend::name)
}

// --- ML-DSA ---
pub type MlDsaBackend = tessera_mldsa::testing::Backend;

pub fn mldsa_impls() -> Vec<Impl<MlDsaBackend>> {
    impls(
        MlDsaBackend::detect(),
        MlDsaBackend::all_available(),
        MlDsaBackend::name,
    )
}
pub fn mldsa_portable() -> Impl<MlDsaBackend> {
    portable(MlDsaBackend::Portable, MlDsaBackend::name)
}
