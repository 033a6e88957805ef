//! Constant-time check, run under valgrind memcheck by `cargo xtask test`:
//!
//! ```sh
//! cargo build --release -p tessera-ct-valgrind --example x448
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/x448 portable
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/x448 canary # exits 1
//! ```
//!
//! X448 is `tessera::hpke`'s own RFC 7748 ladder over `crypto-bigint`'s constant-time
//! Montgomery arithmetic (one implementation: the argument is `portable`). Through the public
//! DHKEM(X448, HKDF-SHA512) API, with the secrets marked undefined:
//!
//! - `DeriveKeyPair(ikm)`: HKDF-SHA512 extract and expand of the secret `ikm`, the scalar, and
//!   the 448-step ladder on the base point (clamping, the masked swaps, the final inversion by
//!   exponentiation);
//! - `DeserializePrivateKey(sk)` of a secret key: the ladder again on the given scalar.
//!
//! The public keys are marked public before they are compared with those computed beforehand
//! from the same, still defined, inputs.
//!
//! - `Encap` / `AuthEncap` with secret ephemeral randomness (and a secret sender key) and
//!   `Decap` / `AuthDecap` with the secret recipient key. The all-zero check of each
//!   Diffie-Hellman output (RFC 9180 section 7.1.4) is released by `tessera::hpke`'s own test
//!   hook: its outcome depends on the peer's public key alone.

use std::hint::black_box;

use tessera::hpke::{AuthKem, DhKemX448HkdfSha512 as X448, Kem};
use tessera_testkit::ct;

/// A copy of `v` marked secret, read back through `black_box` so that the compiler cannot reuse
/// the (known) value it had before the marking.
fn secret_copy<const N: usize>(v: [u8; N]) -> [u8; N] {
    let mut s = v;
    ct::secret(&s);
    *black_box(&mut s)
}

fn main() {
    ct::main_by_name("x448 ct_valgrind", |name| {
        (name == "portable").then(|| {
            tessera_cpu::hooks::set_declassify(ct::public);
            run() + encaps()
        })
    });
}

/// `Encap` / `Decap` and `AuthEncap` / `AuthDecap` with secret keys and secret ephemeral
/// randomness; the shared secrets are compared once computed.
fn encaps() -> usize {
    let ikm_r = [0x61u8; 56].to_vec();
    let ikm_s = [0x62u8; 56].to_vec();
    ct::secret(&ikm_r);
    ct::secret(&ikm_s);
    let (sk_r, pk_r) = X448::derive_key_pair(black_box(&ikm_r[..])).expect("DeriveKeyPair");
    let (sk_s, pk_s) = X448::derive_key_pair(black_box(&ikm_s[..])).expect("DeriveKeyPair");
    ct::public(X448::public_key_to_bytes(&pk_r));
    ct::public(X448::public_key_to_bytes(&pk_s));

    let ikm_e = secret_copy([0x63u8; 56]);
    let (ss_e, enc) = X448::encap_derand(&pk_r, &ikm_e).expect("Encap");
    ct::public(enc.as_ref());
    ct::public(ss_e.as_bytes());
    let ss = X448::decap(enc.as_ref(), &sk_r).expect("Decap");
    ct::public(ss.as_bytes());
    assert_eq!(ss.as_bytes(), ss_e.as_bytes(), "Decap");

    let ikm_e = secret_copy([0x64u8; 56]);
    let (ss_e, enc) = X448::auth_encap_derand(&pk_r, &sk_s, &ikm_e).expect("AuthEncap");
    ct::public(enc.as_ref());
    ct::public(ss_e.as_bytes());
    let ss = X448::auth_decap(enc.as_ref(), &sk_r, &pk_s).expect("AuthDecap");
    ct::public(ss.as_bytes());
    assert_eq!(ss.as_bytes(), ss_e.as_bytes(), "AuthDecap");
    4
}

fn run() -> usize {
    let mut runs = 0;
    // Short, Nsk-long and long ikm; the last two scalars hit the clamped extremes.
    let cases: [(&[u8], [u8; 56]); 3] = [
        (&[0x11; 32], [0; 56]),
        (&[0x5a; 56], [0xff; 56]),
        (
            &[0xc3; 100],
            core::array::from_fn(|i| (i as u8).wrapping_mul(97)),
        ),
    ];
    for (ikm, sk_bytes) in cases {
        // Reference values from defined inputs.
        let (sk_ref, pk_ref) = X448::derive_key_pair(ikm).expect("DeriveKeyPair");
        let sk_ref_bytes = X448::private_key_to_bytes(&sk_ref).to_vec();
        let pk_ref = X448::public_key_to_bytes(&pk_ref).to_vec();
        let pk2_ref = {
            let sk = X448::private_key_from_bytes(&sk_bytes).expect("56 bytes");
            X448::public_key_to_bytes(X448::public_key(&sk)).to_vec()
        };

        // DeriveKeyPair on a secret ikm.
        let mut ikm_s = ikm.to_vec();
        ct::secret(&ikm_s);
        let (sk, pk) = X448::derive_key_pair(black_box(&ikm_s[..])).expect("DeriveKeyPair");
        ct::public(X448::public_key_to_bytes(&pk));
        assert_eq!(
            X448::public_key_to_bytes(&pk),
            &pk_ref[..],
            "DeriveKeyPair pk"
        );
        // The derived private key itself, declassified only to check it.
        let mut skb = X448::private_key_to_bytes(&sk).to_vec();
        ct::public(&skb);
        assert_eq!(skb, sk_ref_bytes, "DeriveKeyPair sk");
        skb.fill(0);
        ikm_s.fill(0);

        // DeserializePrivateKey of a secret scalar (the ladder on the base point).
        let sk2 = X448::private_key_from_bytes(&secret_copy(sk_bytes)).expect("56 bytes");
        let pk2 = X448::public_key(&sk2);
        ct::public(X448::public_key_to_bytes(pk2));
        assert_eq!(
            X448::public_key_to_bytes(pk2),
            &pk2_ref[..],
            "public key of sk"
        );
        runs += 2;
    }
    runs
}
