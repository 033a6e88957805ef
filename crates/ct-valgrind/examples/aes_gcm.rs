//! Constant-time check, run under valgrind memcheck by `cargo xtask test`:
//!
//! ```sh
//! cargo build --release -p tessera-ct-valgrind --example aes_gcm
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/aes_gcm portable
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/aes_gcm x86_aesni
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/aes_gcm canary # exits 1
//! ```
//!
//! Keys and plaintexts are marked secret (undefined for memcheck, `tessera_testkit::ct`), so any
//! branch or memory index that depends on them (key schedule, AES, GHASH, GCM sealing,
//! decryption, the tag comparison, the clearing of the buffer when the tag is wrong) is
//! reported as a use of uninitialised data. Outputs that are public by design (ciphertexts,
//! tags, the comparison's result, through the test-only declassify hook) are marked public
//! before they are checked. `tessera_testkit::ct::main` refuses to run outside valgrind, so the
//! check cannot pass vacuously, and runs the negative control for `canary`: a branch on a
//! secret byte, which memcheck must report (exit code 1; exit 0 means the harness detects
//! nothing).
//!
//! The declassify hook exists only with `--cfg tessera_test_hooks`, which this workspace's
//! `.cargo/config.toml` sets for every build; without it the example says so and fails.

#[cfg(tessera_test_hooks)]
use tessera_aes_gcm::testing::Backend;
use tessera_aes_gcm::{Aes128Gcm, Aes192Gcm, Aes256Gcm, Error, hazmat};
#[cfg(tessera_test_hooks)]
use tessera_testkit::ct;

#[cfg(tessera_test_hooks)]
macro_rules! gcm_round {
    ($t:ty, $n:literal, $be:expr, $seed:expr) => {{
        let mut key: [u8; $n] = core::array::from_fn(|i| (i as u8).wrapping_mul(29) ^ $seed);
        ct::secret(&key);
        let g = <$t>::new_with_backend($be, &key);
        let mut runs = 0;
        for len in [0usize, 1, 15, 16, 17, 64, 127, 128, 129, 300, 1000] {
            for nonce in [&[0x5au8; 12][..], &[0xa5; 16][..], &[1; 1][..]] {
                let aad: Vec<u8> = (0..(len % 37)).map(|i| i as u8).collect();
                let pt: Vec<u8> = (0..len).map(|i| (i * 31 + 7) as u8).collect();
                let mut buf = pt.clone();
                ct::secret(&buf);
                let tag = g.encrypt_in_place_detached(nonce, &aad, &mut buf).unwrap();
                ct::public(&buf);
                ct::public(&tag);
                // Decryption through the public API: the tag comparison runs on the secret
                // expected tag; only its one-byte result is declassified (hook in the crate).
                g.decrypt_in_place_detached(nonce, &aad, &mut buf, &tag)
                    .expect("tag mismatch");
                ct::public(&buf);
                assert_eq!(buf, pt, "round trip");
                // A wrong tag: the unauthenticated plaintext (secret) must be cleared. The buffer
                // is not marked public here: zeroing writes constants, so any byte that were
                // left over would still be undefined and the comparison below would be reported.
                let mut forged = buf.clone();
                g.encrypt_in_place_detached(nonce, &aad, &mut forged)
                    .unwrap();
                ct::public(&forged);
                let mut bad = tag;
                bad[15] ^= 0x80;
                let r = g.decrypt_in_place_detached(nonce, &aad, &mut forged, &bad);
                assert_eq!(r, Err(Error::Authentication));
                assert!(forged.iter().all(|&x| x == 0), "buffer not cleared");
                runs += 1;
            }
        }
        // The raw block cipher, many blocks at once and one at a time.
        let c = <$t as Cipher>::Hazmat::new_with_backend($be, &key);
        let mut blocks: Vec<[u8; 16]> = (0..19).map(|i| [i as u8; 16]).collect();
        let orig = blocks.clone();
        ct::secret(blocks.as_flattened());
        c.encrypt_blocks(&mut blocks);
        c.decrypt_blocks(&mut blocks);
        ct::public(blocks.as_flattened());
        assert_eq!(blocks, orig);
        key.fill(0);
        runs
    }};
}

/// Maps an AEAD type to its block cipher.
#[cfg(tessera_test_hooks)]
trait Cipher {
    type Hazmat;
}
#[cfg(tessera_test_hooks)]
impl Cipher for Aes128Gcm {
    type Hazmat = hazmat::Aes128;
}
#[cfg(tessera_test_hooks)]
impl Cipher for Aes192Gcm {
    type Hazmat = hazmat::Aes192;
}
#[cfg(tessera_test_hooks)]
impl Cipher for Aes256Gcm {
    type Hazmat = hazmat::Aes256;
}

#[cfg(tessera_test_hooks)]
fn main() {
    ct::main_declassified::<Backend>("ct_valgrind", |be| {
        gcm_round!(Aes128Gcm, 16, be, 0x11)
            + gcm_round!(Aes192Gcm, 24, be, 0x22)
            + gcm_round!(Aes256Gcm, 32, be, 0x33)
    });
}

#[cfg(not(tessera_test_hooks))]
fn main() {
    ct::needs_test_hooks("ct_valgrind")
}
