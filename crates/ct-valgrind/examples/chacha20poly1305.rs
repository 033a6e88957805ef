//! Constant-time check, run under valgrind memcheck by `cargo xtask test`:
//!
//! ```sh
//! cargo build --release -p tessera-ct-valgrind --example chacha20poly1305
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/chacha20poly1305 portable
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/chacha20poly1305 x86_avx2
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/chacha20poly1305 canary # exits 1
//! ```
//!
//! Keys and plaintexts are marked secret (undefined for memcheck, `tessera_testkit::ct`), so any
//! branch or memory index that depends on them (ChaCha20, HChaCha20, Poly1305, sealing,
//! opening, the tag comparison, the clearing of the buffer when the tag is wrong) is reported
//! as a use of uninitialised data. Outputs that are public by design (ciphertexts, tags, the
//! comparison's result, through the test-only declassify hook) are marked public before they
//! are checked. `tessera_testkit::ct::main` refuses to run outside valgrind and runs the
//! negative control for `canary` (a branch on a secret byte, which memcheck must report).
//! Valgrind cannot run AVX-512 code, so `x86_avx512` is not checked here.

#[cfg(tessera_test_hooks)]
use tessera_chacha20poly1305::testing::Backend;
use tessera_chacha20poly1305::{ChaCha20Poly1305, Error, XChaCha20Poly1305, hazmat};
#[cfg(tessera_test_hooks)]
use tessera_testkit::ct;

#[cfg(tessera_test_hooks)]
macro_rules! round {
    ($t:ty, $nlen:literal, $be:expr, $seed:expr) => {{
        let mut key: [u8; 32] = core::array::from_fn(|i| (i as u8).wrapping_mul(29) ^ $seed);
        ct::secret(&key);
        let a = <$t>::new_with_backend($be, &key);
        let mut runs = 0;
        for len in [
            0usize, 1, 63, 64, 65, 127, 128, 129, 300, 512, 1000, 1024, 1500, 2100,
        ] {
            let nonce = [0x5au8; $nlen];
            let aad: Vec<u8> = (0..(len % 37)).map(|i| i as u8).collect();
            let pt: Vec<u8> = (0..len).map(|i| (i * 31 + 7) as u8).collect();
            let mut buf = pt.clone();
            ct::secret(&buf);
            let tag = a.encrypt_in_place_detached(&nonce, &aad, &mut buf).unwrap();
            ct::public(&buf);
            ct::public(&tag);
            a.decrypt_in_place_detached(&nonce, &aad, &mut buf, &tag)
                .expect("tag mismatch");
            ct::public(&buf);
            assert_eq!(buf, pt, "round trip");
            // A wrong tag: the unauthenticated plaintext (secret) must be cleared; not marked
            // public, so any byte left over would be reported by the comparison below.
            let mut forged = buf.clone();
            a.encrypt_in_place_detached(&nonce, &aad, &mut forged)
                .unwrap();
            ct::public(&forged);
            let mut bad = tag;
            bad[15] ^= 0x80;
            let r = a.decrypt_in_place_detached(&nonce, &aad, &mut forged, &bad);
            assert_eq!(r, Err(Error::Authentication));
            assert!(forged.iter().all(|&x| x == 0), "buffer not cleared");
            runs += 1;
        }
        key.fill(0);
        runs
    }};
}

#[cfg(tessera_test_hooks)]
fn hazmat_round(be: Backend) -> usize {
    let key = [0x33u8; 32];
    ct::secret(&key);
    let mut c = hazmat::ChaCha20::new_with_backend(be, &key, &[1; 12], 5);
    let mut buf = vec![0u8; 1100];
    ct::secret(&buf);
    c.apply_keystream(&mut buf[..77]).unwrap();
    c.apply_keystream(&mut buf[77..]).unwrap();
    ct::public(&buf);
    let mut p = hazmat::Poly1305::new(&key);
    let msg = vec![0xffu8; 333];
    ct::secret(&msg);
    p.update(&msg);
    let t = p.finalize();
    ct::public(&t);
    let sub = hazmat::hchacha20(&key, &[2; 16]);
    ct::public(&sub);
    assert_ne!(sub[..16], t);
    1
}

#[cfg(tessera_test_hooks)]
fn main() {
    ct::main_declassified::<Backend>("ct_valgrind", |be| {
        round!(ChaCha20Poly1305, 12, be, 0x11)
            + round!(XChaCha20Poly1305, 24, be, 0x22)
            + hazmat_round(be)
    });
}

#[cfg(not(tessera_test_hooks))]
fn main() {
    ct::needs_test_hooks("ct_valgrind")
}
