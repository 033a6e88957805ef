//! Constant-time check, run under valgrind memcheck by `cargo xtask test`:
//!
//! ```sh
//! cargo build --release -p tessera-ct-valgrind --example mldsa
//! V="valgrind -q --tool=memcheck --error-exitcode=1 --vex-guest-max-insns=20"
//! $V target/release/examples/mldsa portable
//! $V target/release/examples/mldsa x86_avx2
//! $V target/release/examples/mldsa canary # exits 1
//! ```
//!
//! (`--vex-guest-max-insns=20`: the AVX2 signing island's translation exhausts VEX's temporary
//! storage at the default of 50; xtask passes it to every valgrind leg.)
//!
//! The seed xi, rnd and the secret parts of the expanded signing key (K, s1, s2, t0) are marked
//! secret (undefined for memcheck, `tessera_testkit::ct`), so any branch or memory index that
//! depends on them in key generation (ExpandA, ExpandS, t = A s1 + s2, Power2Round, the
//! encodings), signing (every iteration of the rejection loop: ExpandMask, w, w1Encode,
//! c-tilde, SampleInBall, the products with s1, s2 and t0, the norm checks, MakeHint) and
//! expanded-key parsing (the range checks and the comparison with the derived t0 and tr) is
//! reported.
//! Outputs that are public by design (pk, signatures) are marked public before they are used.
//! Inside the crate, the values FIPS 204's security argument lets go are released through the
//! test-only hook (`tessera_cpu::hooks::declassify`, `--cfg tessera_test_hooks`, which this workspace's
//! `.cargo/config.toml` sets): rho, RejBoundedPoly's accept pattern, whether SampleInBall's
//! fixed block sufficed, the signing loop's accept/reject decision and the accepted
//! signature's c-tilde and hint, and the parse decision; nothing else. The c-tilde of a
//! rejected iteration stays undefined through SampleInBall (a branch on it is reported).
//! `canary` is the negative control (must exit 1).

#[cfg(tessera_test_hooks)]
use tessera_mldsa::testing::Backend;
#[cfg(tessera_test_hooks)]
use tessera_testkit::ct;

#[cfg(tessera_test_hooks)]
macro_rules! round {
    ($m:ident, $be:expr, $salt:expr) => {{
        use tessera_mldsa::$m::*;
        let be: Backend = $be;
        let xi: [u8; 32] = core::array::from_fn(|i| (i as u8).wrapping_mul(41) ^ $salt);
        ct::secret(&xi);
        let sk = SigningKey::from_seed_with_backend(be, &xi);
        let pk = sk.verifying_key().to_bytes();
        ct::public(&pk);
        let vk = VerifyingKey::from_bytes_with_backend(be, &pk).expect("vk");
        let msg: [u8; 64] = core::array::from_fn(|i| (i as u8) ^ $salt ^ 0x33);
        let ctx = b"ct-valgrind";
        let rnd: [u8; 32] = core::array::from_fn(|i| (i as u8).wrapping_mul(7) ^ $salt ^ 0xa5);
        ct::secret(&rnd);
        // Hedged signing from mu (computed from the public key).
        let mu = vk.compute_mu(&msg, ctx).expect("mu");
        let sig = sk.sign_mu(&mu, &rnd).expect("sign");
        ct::public(sig.as_bytes());
        vk.verify_mu(&mu, &sig).expect("verify");
        // Pure deterministic signing (mu from the key's own tr, derived from xi).
        let sig2 = sk.sign_deterministic(&msg, ctx).expect("sign");
        ct::public(sig2.as_bytes());
        vk.verify(&msg, ctx, &sig2).expect("verify");
        // The expanded encoding: rho and tr public, K, s1, s2 and t0 secret.
        let mut skb = sk.to_expanded_bytes();
        ct::public(&skb);
        ct::secret(&skb[32..64]);
        ct::secret(&skb[128..]);
        let sk2 = SigningKey::from_expanded_bytes_with_backend(be, &skb).expect("sk");
        let sig3 = sk2.sign_mu(&mu, &rnd).expect("sign");
        ct::public(sig3.as_bytes());
        assert!(sig3 == sig, "expanded key signs as the seed key");
        skb.fill(0);
        4
    }};
}

#[cfg(tessera_test_hooks)]
fn main() {
    ct::main_declassified::<Backend>("tessera-mldsa ct_valgrind", |be| {
        [0u8, 0x6e]
            .into_iter()
            .map(|salt| {
                round!(ml_dsa_44, be, salt)
                    + round!(ml_dsa_65, be, salt)
                    + round!(ml_dsa_87, be, salt)
            })
            .sum()
    });
}

#[cfg(not(tessera_test_hooks))]
fn main() {
    ct::needs_test_hooks("tessera-mldsa ct_valgrind")
}
