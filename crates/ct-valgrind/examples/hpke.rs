//! Constant-time check of `tessera::hpke`, run under valgrind memcheck by `cargo xtask test`:
//!
//! ```sh
//! cargo build --release -p tessera-ct-valgrind --example hpke
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/hpke portable
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/hpke detected
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/hpke canary # exits 1
//! ```
//!
//! HPKE picks its primitives' backends itself (`detect()`), so the argument says how:
//! `portable` sets `TESSERA_FORCE_BACKEND=portable` (a test-build switch) before anything is
//! detected, `detected` keeps what the dispatcher picks on the CPU valgrind presents (AVX2
//! ML-KEM and Keccak, AES-NI; valgrind's CPUID hides AVX-512, VAES, SHA-NI and ADX). With the
//! secrets marked undefined (`tessera_testkit::ct`), memcheck reports any branch or memory index
//! that depends on them in:
//!
//! - DHKEM(X25519, HKDF-SHA256): `DeriveKeyPair` (labeled HKDF of the secret `ikm`, the
//!   fixed-base scalar multiplication), `DeserializePrivateKey`, and the four encapsulation
//!   operations (below);
//! - ML-KEM-512/768/1024 as HPKE KEMs: `DeriveKeyPair` (SHAKE256 labeled derive, key
//!   generation), `DeserializePrivateKey`, `Decap` of valid and of invalid encapsulations
//!   (implicit rejection), and `SetupBaseR` / `SetupPSKR` with a sealed message opened and a
//!   secret exported (the two-stage HKDF and the one-stage SHAKE256 key schedules; AES-128-GCM,
//!   AES-256-GCM and ChaCha20-Poly1305 contexts), against a sender set up with secret ephemeral
//!   randomness (`setup_sender_*_derand`, test builds only);
//! - X-Wing (MLKEM768-X25519): `DeriveKeyPair` (the seed expansion, ML-KEM key generation and
//!   the X25519 public key), `DeserializePrivateKey`, `Decap` (ML-KEM decapsulation, X25519 on
//!   the secret key, the SHA3-256 combiner) and `SetupBaseR` with an open and an export.
//!
//! Outputs that are public by design (public keys, encapsulations, ciphertexts and tags) are
//! marked public before they are compared or passed on; shared secrets, plaintexts and exports
//! only once computed, to compare them with the sender's side or with the values computed
//! beforehand from the same, still defined, inputs. The AEAD tag comparisons and ML-KEM's rho
//! are declassified by the crates' own test hooks, as in their examples.
//!
//! - DHKEM(X25519) also: `Encap` and `AuthEncap` with secret ephemeral randomness and a secret
//!   sender key, `Decap` and `AuthDecap` with the secret recipient key. The all-zero check of
//!   each Diffie-Hellman output (RFC 9180 section 7.1.4) is released by `tessera::hpke`'s own
//!   test hook: its outcome depends on the peer's public key alone.
//!
use std::hint::black_box;

use tessera::hpke::{
    Aes128Gcm, Aes256Gcm, AuthKem, ChaCha20Poly1305, DhKemX25519HkdfSha256, HkdfSha256, Hpke, Kdf,
    Kem, MlKem512, MlKem768, MlKem1024, SealingAead, Shake256, XWing,
};
use tessera_testkit::ct;

const INFO: &[u8] = b"ct_valgrind hpke info";
const AAD: &[u8] = b"aad";
const PSK: &[u8] = b"a pre-shared key of 32 bytes or more, secret";
const PSK_ID: &[u8] = b"psk id";

fn main() {
    ct::main_by_name("hpke ct_valgrind", |name| {
        match name {
            "portable" => {
                // SAFETY: the process is single-threaded here, and nothing has read the
                // environment or detected a backend yet (the override is read once, at the
                // first detection).
                unsafe { std::env::set_var("TESSERA_FORCE_BACKEND", "portable") };
            }
            "detected" => {}
            _ => return None,
        }
        tessera_cpu::hooks::set_declassify(ct::public);
        println!("hpke ct_valgrind: {}", tessera_cpu::features());
        Some(run())
    });
}

fn run() -> usize {
    let mut runs = dhkem_x25519();
    runs += kem::<MlKem512>(&[0x21; 32], &[0x31; 32]);
    runs += kem::<MlKem768>(&[0x22; 40], &[0x32; 32]);
    runs += kem::<MlKem1024>(&[0x23; 64], &[0x33; 32]);
    runs += kem::<XWing>(&[0x24; 32], &[0x34; 64]);
    runs += contexts::<MlKem768, HkdfSha256, Aes128Gcm>(&[0x25; 32], &[0x35; 32]);
    runs += contexts::<MlKem1024, Shake256, ChaCha20Poly1305>(&[0x26; 32], &[0x36; 32]);
    runs += contexts::<MlKem512, HkdfSha256, Aes256Gcm>(&[0x27; 32], &[0x37; 32]);
    runs += contexts::<XWing, HkdfSha256, ChaCha20Poly1305>(&[0x28; 32], &[0x38; 64]);
    runs
}

/// A copy of `v` marked secret, read back through `black_box` so that the compiler cannot reuse
/// the (known) value it had before the marking.
fn secret_vec(v: &[u8]) -> Vec<u8> {
    let mut s = v.to_vec();
    ct::secret(&s);
    black_box(&mut s);
    s
}

/// `DeriveKeyPair` of a secret `ikm` and `DeserializePrivateKey` of the secret key: the public
/// keys (marked public) must equal those from the defined inputs. Returns the key pair from the
/// secret ikm and the public key's bytes.
fn derive<K: Kem>(ikm: &[u8]) -> (K::PrivateKey, Vec<u8>) {
    let (sk_ref, pk_ref) = K::derive_key_pair(ikm).expect("DeriveKeyPair");
    let pk_ref = K::public_key_to_bytes(&pk_ref).to_vec();
    let sk_bytes = K::private_key_to_bytes(&sk_ref).to_vec();

    let ikm_s = secret_vec(ikm);
    let (sk, pk) = K::derive_key_pair(&ikm_s).expect("DeriveKeyPair");
    ct::public(K::public_key_to_bytes(&pk));
    assert_eq!(K::public_key_to_bytes(&pk), &pk_ref[..], "DeriveKeyPair");

    let sk2 = K::private_key_from_bytes(&secret_vec(&sk_bytes)).expect("private key");
    ct::public(K::public_key_to_bytes(K::public_key(&sk2)));
    assert_eq!(
        K::public_key_to_bytes(K::public_key(&sk2)),
        &pk_ref[..],
        "DeserializePrivateKey"
    );
    (sk, pk_ref)
}

/// DHKEM(X25519): key derivation and deserialization, then `Encap` / `Decap` and `AuthEncap` /
/// `AuthDecap` with secret keys and secret ephemeral randomness.
fn dhkem_x25519() -> usize {
    type X = DhKemX25519HkdfSha256;
    for ikm in [&[0x01u8; 32][..], &[0xfe; 7][..], &[0x42; 80][..]] {
        derive::<X>(ikm);
    }
    let (sk_r, pk_r_bytes) = derive::<X>(&[0x51; 32]);
    let (sk_s, pk_s_bytes) = derive::<X>(&[0x52; 32]);
    let pk_r = X::public_key_from_bytes(&pk_r_bytes).expect("public key");
    let pk_s = X::public_key_from_bytes(&pk_s_bytes).expect("public key");

    let (ss_e, enc) = X::encap_derand(&pk_r, &secret_vec(&[0x53; 32])).expect("Encap");
    ct::public(enc.as_ref());
    ct::public(ss_e.as_bytes());
    let ss = X::decap(enc.as_ref(), &sk_r).expect("Decap");
    ct::public(ss.as_bytes());
    assert_eq!(ss.as_bytes(), ss_e.as_bytes(), "Decap");

    let (ss_e, enc) =
        X::auth_encap_derand(&pk_r, &sk_s, &secret_vec(&[0x54; 32])).expect("AuthEncap");
    ct::public(enc.as_ref());
    ct::public(ss_e.as_bytes());
    let ss = X::auth_decap(enc.as_ref(), &sk_r, &pk_s).expect("AuthDecap");
    ct::public(ss.as_bytes());
    assert_eq!(ss.as_bytes(), ss_e.as_bytes(), "AuthDecap");
    10
}

/// A KEM without Auth: key derivation, then `Decap` of a valid encapsulation (made with secret
/// randomness `ikm_e`) and of a corrupted one.
fn kem<K: Kem>(ikm: &[u8], ikm_e: &[u8]) -> usize {
    let (sk, pk_bytes) = derive::<K>(ikm);
    // The sender parses the public key from public bytes (its validity check branches).
    let pk = K::public_key_from_bytes(&pk_bytes).expect("public key");
    let (ss_e, enc) = K::encap_derand(&pk, &secret_vec(ikm_e)).expect("Encap");
    let enc = enc.as_ref().to_vec();
    ct::public(&enc);
    ct::public(ss_e.as_bytes());

    let ss = K::decap(&enc, &sk).expect("Decap");
    ct::public(ss.as_bytes());
    assert_eq!(ss.as_bytes(), ss_e.as_bytes(), "Decap");

    // Implicit rejection: a flipped bit gives another (pseudorandom) secret, not an error.
    let mut bad = enc.clone();
    bad[3] ^= 0x40;
    let ss_bad = K::decap(&bad, &sk).expect("Decap (implicit rejection)");
    ct::public(ss_bad.as_bytes());
    assert_ne!(ss_bad.as_bytes(), ss.as_bytes(), "implicit rejection");
    4
}

/// `SetupBaseR` and `SetupPSKR` of suite (K, F, A) against senders set up with secret
/// randomness: a sealed message opened, a wrong tag refused, a secret exported.
fn contexts<K: Kem, F: Kdf, A: SealingAead>(ikm: &[u8], ikm_e: &[u8]) -> usize {
    type Suite<K, F, A> = Hpke<K, F, A>;
    let (sk, pk_bytes) = derive::<K>(ikm);
    let pk = K::public_key_from_bytes(&pk_bytes).expect("public key");
    let mut runs = 0;
    for psk in [false, true] {
        let psk_s = secret_vec(PSK);
        let (enc, mut sender) = if psk {
            Suite::<K, F, A>::setup_sender_psk_derand(&pk, INFO, &psk_s, PSK_ID, &secret_vec(ikm_e))
        } else {
            Suite::<K, F, A>::setup_sender_base_derand(&pk, INFO, &secret_vec(ikm_e))
        }
        .expect("SetupS");
        let enc = enc.as_ref().to_vec();
        ct::public(&enc);
        let pt: Vec<u8> = (0..100u8).map(|i| i.wrapping_mul(7)).collect();
        let mut buf = secret_vec(&pt);
        let tag = sender.seal_in_place_detached(AAD, &mut buf).expect("Seal");
        ct::public(&buf);
        ct::public(&tag);
        let mut exp_s = [0u8; 48];
        sender
            .export(b"exporter context", &mut exp_s)
            .expect("export");
        ct::public(&exp_s);

        let mut receiver = if psk {
            Suite::<K, F, A>::setup_receiver_psk(&enc, &sk, INFO, &psk_s, PSK_ID)
        } else {
            Suite::<K, F, A>::setup_receiver_base(&enc, &sk, INFO)
        }
        .expect("SetupR");
        let mut exp_r = [0u8; 48];
        receiver
            .export(b"exporter context", &mut exp_r)
            .expect("export");
        ct::public(&exp_r);
        assert_eq!(exp_r, exp_s, "export");

        // A wrong tag first: refused (the comparison's result is declassified by the AEAD
        // crate's hook), the buffer cleared, the sequence number unchanged.
        let mut forged = buf.clone();
        let mut bad = tag;
        bad[0] ^= 1;
        assert!(
            receiver
                .open_in_place_detached(AAD, &mut forged, &bad)
                .is_err(),
            "wrong tag accepted"
        );
        assert!(forged.iter().all(|&b| b == 0), "buffer not cleared");
        receiver
            .open_in_place_detached(AAD, &mut buf, &tag)
            .expect("Open");
        ct::public(&buf);
        assert_eq!(buf, pt, "round trip");
        runs += 3;
    }
    runs
}
