//! Constant-time check, run under valgrind memcheck by `cargo xtask test`:
//!
//! ```sh
//! cargo build --release -p tessera-ct-valgrind --example mlkem
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/mlkem portable
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/mlkem x86_avx2
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/mlkem canary # exits 1
//! ```
//!
//! The seed `d || z`, the message `m` and the secret parts of the expanded decapsulation key
//! (`dk_pke` and `z`) are marked secret (undefined for memcheck, `tessera_testkit::ct`), so any
//! branch or memory index that depends on them in key generation, encapsulation,
//! decapsulation (the re-encryption compare and the implicit-rejection select included) and
//! expanded-key parsing is reported. Outputs that are public by design (ek, ciphertexts, and
//! the shared secrets before they are compared) are marked public first; rho, public by
//! design but derived from `d` inside key generation, is declassified through the test-only
//! hook (`tessera_cpu::hooks`, `--cfg tessera_test_hooks`, which this workspace's
//! `.cargo/config.toml` sets). `canary` is the negative control (must exit 1).

#[cfg(tessera_test_hooks)]
use tessera_mlkem::testing::Backend;
#[cfg(tessera_test_hooks)]
use tessera_testkit::ct;

#[cfg(tessera_test_hooks)]
macro_rules! round {
    ($m:ident, $k:literal, $be:expr, $salt:expr) => {{
        use tessera_mlkem::$m::*;
        let be: Backend = $be;
        let seed: [u8; 64] = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ $salt);
        ct::secret(&seed);
        let dk = DecapsulationKey::from_seed_with_backend(be, &seed);
        let ek = dk.encapsulation_key().to_bytes();
        ct::public(&ek);
        let ek = EncapsulationKey::from_bytes_with_backend(be, &ek).expect("ek");
        let m: [u8; 32] = core::array::from_fn(|i| (i as u8) ^ $salt ^ 0x5a);
        ct::secret(&m);
        let (c, k) = ek.encapsulate_deterministic(&m);
        ct::public(c.as_bytes());
        let k2 = dk.decapsulate(&c);
        ct::public(k.as_bytes());
        ct::public(k2.as_bytes());
        assert_eq!(k, k2, "round trip");
        let mut bad = *c.as_bytes();
        bad[7] ^= 0x10;
        let bad = Ciphertext::from_bytes(&bad).unwrap();
        let k3 = dk.decapsulate(&bad);
        ct::public(k3.as_bytes());
        assert_ne!(k3, k, "implicit rejection");
        // The expanded encoding: dk_pke and z secret, ek and H(ek) public.
        let mut dkb = dk.to_expanded_bytes();
        ct::public(&dkb);
        ct::secret(&dkb[..384 * $k]);
        ct::secret(&dkb[DK_LEN - 32..]);
        let dk2 = DecapsulationKey::from_expanded_bytes_with_backend(be, &dkb).expect("dk");
        let k4 = dk2.decapsulate(&c);
        let k5 = dk2.decapsulate(&bad);
        ct::public(k4.as_bytes());
        ct::public(k5.as_bytes());
        assert_eq!(k4, k);
        assert_eq!(k5, k3);
        dkb.fill(0);
        6
    }};
}

#[cfg(tessera_test_hooks)]
fn main() {
    ct::main_declassified::<Backend>("tessera-mlkem ct_valgrind", |be| {
        [0u8, 0x9c]
            .into_iter()
            .map(|salt| {
                round!(ml_kem_512, 2, be, salt)
                    + round!(ml_kem_768, 3, be, salt)
                    + round!(ml_kem_1024, 4, be, salt)
            })
            .sum()
    });
}

#[cfg(not(tessera_test_hooks))]
fn main() {
    ct::needs_test_hooks("tessera-mlkem ct_valgrind")
}
