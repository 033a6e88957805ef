//! Names every test-only entry point of Tessera, one per function.
//!
//! These entry points take the randomness of an operation from the caller (derandomized HPKE
//! sender setup, `encap_derand`, ML-KEM `Encaps_internal`, ML-DSA `Sign_internal`, ECDSA
//! with a given nonce) or expose a raw internal step (`__dh`): with a repeated input they
//! repeat an AEAD key and nonce, a signature nonce (which reveals the key), or skip FIPS 204's
//! domain separation. They exist only with `--cfg tessera_test_hooks`, which
//! this workspace's own builds set (`.cargo/config.toml`) and no Cargo feature can.
//!
//! So this crate compiles in the workspace's builds (the positive control: each call below is
//! well-formed), and `cargo xtask test` builds it a second time as a user would (without the
//! cfg) and requires that build to fail with one error naming each item marked `// gated:`
//! (leg "user build: test-only entry points"). A new test-only entry point gets a function
//! here.

// Each function is one probe, described by its marker.
#![allow(missing_docs)]

use tessera::hpke::{
    AgilePrivateKey, AgilePublicKey, AuthKem, ChaCha20Poly1305, DhKemX25519HkdfSha256, HkdfSha256,
    Hpke, Kem, KemId, MlKem768, Suite, X25519PrivateKey, X25519PublicKey,
};
use tessera_mldsa::ml_dsa_65;
use tessera_mlkem::ml_kem_768;

type X = DhKemX25519HkdfSha256;
type H = Hpke<X, HkdfSha256, ChaCha20Poly1305>;

// gated: setup_sender_base_derand
pub fn hpke_base(pk: &X25519PublicKey) -> bool {
    H::setup_sender_base_derand(pk, b"", b"").is_ok()
}

// gated: setup_sender_psk_derand
pub fn hpke_psk(pk: &X25519PublicKey) -> bool {
    H::setup_sender_psk_derand(pk, b"", &[0; 32], b"id", b"").is_ok()
}

// gated: setup_sender_auth_derand
pub fn hpke_auth(pk: &X25519PublicKey, sk: &X25519PrivateKey) -> bool {
    H::setup_sender_auth_derand(pk, b"", sk, b"").is_ok()
}

// gated: setup_sender_auth_psk_derand
pub fn hpke_auth_psk(pk: &X25519PublicKey, sk: &X25519PrivateKey) -> bool {
    H::setup_sender_auth_psk_derand(pk, b"", &[0; 32], b"id", sk, b"").is_ok()
}

// gated: setup_sender_base_derand
pub fn suite_base(s: &Suite, pk: &AgilePublicKey) -> bool {
    s.setup_sender_base_derand(pk, b"", b"").is_ok()
}

// gated: setup_sender_psk_derand
pub fn suite_psk(s: &Suite, pk: &AgilePublicKey) -> bool {
    s.setup_sender_psk_derand(pk, b"", &[0; 32], b"id", b"")
        .is_ok()
}

// gated: setup_sender_auth_derand
pub fn suite_auth(s: &Suite, pk: &AgilePublicKey, sk: &AgilePrivateKey) -> bool {
    s.setup_sender_auth_derand(pk, b"", sk, b"").is_ok()
}

// gated: setup_sender_auth_psk_derand
pub fn suite_auth_psk(s: &Suite, pk: &AgilePublicKey, sk: &AgilePrivateKey) -> bool {
    s.setup_sender_auth_psk_derand(pk, b"", &[0; 32], b"id", sk, b"")
        .is_ok()
}

// gated: encap_derand
pub fn kem_encap_derand(pk: &X25519PublicKey) -> bool {
    <X as Kem>::encap_derand(pk, b"").is_ok()
}

// gated: encap_with_randomness
pub fn kem_encap_with_randomness(pk: &<MlKem768 as Kem>::PublicKey) -> bool {
    <MlKem768 as Kem>::encap_with_randomness(pk, &[0; 32]).is_ok()
}

// gated: auth_encap_derand
pub fn kem_auth_encap_derand(pk: &X25519PublicKey, sk: &X25519PrivateKey) -> bool {
    <X as AuthKem>::auth_encap_derand(pk, sk, b"").is_ok()
}

// gated: auth_encap_with_randomness
pub fn kem_auth_encap_with_randomness(pk: &X25519PublicKey, sk: &X25519PrivateKey) -> bool {
    <X as AuthKem>::auth_encap_with_randomness(pk, sk, &[0; 32]).is_ok()
}

// gated: __dh
pub fn hpke_dh() -> bool {
    let mut out = [0u8; 66];
    tessera::hpke::__dh(KemId::DhKemP256HkdfSha256, &[1; 32], &[4; 65], &mut out).is_ok()
}

// gated: __derive_key_pair_counter
pub fn hpke_counter() -> bool {
    tessera::hpke::__derive_key_pair_counter(KemId::DhKemP256HkdfSha256, b"").is_ok()
}

// gated: encapsulate_deterministic
pub fn mlkem_encaps_internal(ek: &ml_kem_768::EncapsulationKey) -> bool {
    let (ct, _) = ek.encapsulate_deterministic(&[0; 32]);
    ct.as_bytes()[0] == 0
}

// gated: sign_internal
pub fn mldsa_sign_internal(sk: &ml_dsa_65::SigningKey) -> bool {
    sk.sign_internal(b"", &[0; 32]).is_ok()
}

// gated: verify_internal
pub fn mldsa_verify_internal(vk: &ml_dsa_65::VerifyingKey, sig: &ml_dsa_65::Signature) -> bool {
    vk.verify_internal(b"", sig).is_ok()
}

// gated: ecdsa_sign_with_nonce
pub fn p256_sign_with_nonce() -> bool {
    use tessera_p256::testing::{Backend, ecdsa_sign_with_nonce};
    ecdsa_sign_with_nonce(Backend::Portable, &[1; 32], &[0; 32], &[2; 32]).is_ok()
}
