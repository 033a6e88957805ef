//! Constant-time check, run under valgrind memcheck by `cargo xtask test`:
//!
//! ```sh
//! cargo build --release -p tessera-ct-valgrind --example sha2
//! valgrind --error-exitcode=1 target/release/examples/sha2 portable      # both tables
//! valgrind --error-exitcode=1 target/release/examples/sha2 x86_shani     # SHA-224/256
//! valgrind --error-exitcode=1 target/release/examples/sha2 x86_avx2_bmi  # SHA-384/512
//! valgrind --error-exitcode=1 target/release/examples/sha2 canary        # must exit 1
//! ```
//!
//! The one argument is a backend name. SHA-224/256 and SHA-384/512 have separate tables
//! (`Sha256Backend`, `Sha512Backend`) whose names overlap only in `portable`: a name runs the
//! table(s) that know it, so `portable` checks the portable code of both families.
//!
//! Keys, messages, salts and IKM are marked secret (undefined for memcheck) with
//! `tessera_testkit::ct::secret`, and so is the HKDF output buffer before it is written; any
//! branch or memory index that depends on them (key setup, long-key hashing, the block
//! functions, padding, the one-pass and incremental HMAC, HKDF extract and expand) is then
//! reported. Tags, digests and HKDF outputs are marked public (`ct::public`) before they are
//! compared with the results computed beforehand on the same, still defined, inputs.
//!
//! Not covered: `verify` / `verify_truncated`. The comparison itself is `subtle`'s, but its
//! result (a secret-dependent bit until then) is turned into `Ok`/`Err` by a branch inside the
//! crate, which memcheck reports; checking it needs a declassification hook in the crate.

use tessera_sha2::testing::{Sha256Backend, Sha512Backend};
use tessera_sha2::{HmacKey, Sha2, Sha224, Sha256, Sha384, Sha512, Sha512_256, hkdf};
use tessera_testkit::ct;

/// Key lengths: empty, short, one word below/at/above each block length, long (hashed first).
const KEY_LENS: &[usize] = &[0, 1, 32, 63, 64, 65, 127, 128, 129, 200];
/// Message lengths around the padding and block boundaries of both families.
const MSG_LENS: &[usize] = &[
    0, 1, 55, 56, 63, 64, 65, 111, 112, 119, 127, 128, 129, 300, 1000,
];

fn bytes(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(29).wrapping_add(seed) ^ (i >> 8) as u8)
        .collect()
}

/// A digest or tag computed on secret inputs, declassified and compared with the expected one.
fn check(what: &str, got: &[u8], want: &[u8]) {
    ct::public(got);
    assert_eq!(got, want, "{what}");
}

/// HMAC under `H` on `be` for every key and message length: one-pass `sign`, the incremental
/// `Hmac` in two pieces; key and message secret.
fn hmac_runs<H: Sha2>(be: H::Backend, name: &str) -> usize {
    let mut runs = 0;
    for &kl in KEY_LENS {
        for &ml in MSG_LENS {
            let key = bytes(kl, 0x11);
            let msg = bytes(ml, 0x22);
            // The expected tag, while everything is still defined.
            let want = HmacKey::<H>::new_with_backend(be, &key).sign(&msg);
            ct::secret(&key);
            ct::secret(&msg);
            let k = HmacKey::<H>::new_with_backend(be, &key);
            let tag = k.sign(&msg);
            check(name, tag.as_ref(), want.as_ref());
            let mut m = k.hasher();
            m.update(&msg[..ml / 3]).update(&msg[ml / 3..]);
            let tag = m.finalize();
            check(name, tag.as_ref(), want.as_ref());
            runs += 2;
        }
    }
    runs
}

/// HKDF under `H` on `be`: extract (salt and IKM secret) and expand into a secret-marked
/// buffer, at output lengths of zero, less than one, one and several hash lengths.
fn hkdf_runs<H: Sha2>(be: H::Backend, name: &str) -> usize {
    let mut runs = 0;
    for &sl in &[0usize, 13, 64, 200] {
        for &il in &[0usize, 22, 80, 300] {
            for &ol in &[0usize, 1, H::OUTPUT_LEN, 3 * H::OUTPUT_LEN + 5] {
                let salt = bytes(sl, 0x33);
                let ikm = bytes(il, 0x44);
                let info = bytes(10, 0x55);
                let mut want = vec![0u8; ol];
                let prk = hkdf::extract_parts_with_backend::<H>(be, &salt, &[&ikm]);
                prk.expand(&[&info], &mut want).expect("expand");
                let prk_want = prk.as_bytes().to_vec();
                drop(prk);
                ct::secret(&salt);
                ct::secret(&ikm);
                let prk = hkdf::extract_parts_with_backend::<H>(
                    be,
                    &salt,
                    &[&ikm[..il / 2], &ikm[il / 2..]],
                );
                let mut out = vec![0u8; ol];
                ct::secret(&out);
                // The length check is on public lengths only.
                prk.expand(&[&info[..4], &info[4..]], &mut out)
                    .expect("expand");
                check(name, &out, &want);
                check(name, prk.as_bytes(), &prk_want);
                runs += 1;
            }
        }
    }
    runs
}

/// One-shot and incremental hashing of secret messages (what hashing a long key or a secret
/// input does).
macro_rules! digests {
    ($h:ident, $be:expr) => {{
        let mut runs = 0;
        for &ml in MSG_LENS {
            let msg = bytes(ml, 0x66);
            let want = $h::digest_with_backend($be, &msg);
            ct::secret(&msg);
            check(stringify!($h), &$h::digest_with_backend($be, &msg), &want);
            let mut h = $h::new_with_backend($be);
            h.update(&msg[..ml / 2]).update(&msg[ml / 2..]);
            check(stringify!($h), &h.finalize(), &want);
            runs += 2;
        }
        runs
    }};
}

fn run256(be: Sha256Backend) -> usize {
    digests!(Sha224, be)
        + digests!(Sha256, be)
        + hmac_runs::<Sha224>(be, "HMAC-SHA-224")
        + hmac_runs::<Sha256>(be, "HMAC-SHA-256")
        + hkdf_runs::<Sha256>(be, "HKDF-SHA-256")
}

fn run512(be: Sha512Backend) -> usize {
    digests!(Sha384, be)
        + digests!(Sha512, be)
        + digests!(Sha512_256, be)
        + hmac_runs::<Sha384>(be, "HMAC-SHA-384")
        + hmac_runs::<Sha512>(be, "HMAC-SHA-512")
        + hmac_runs::<Sha512_256>(be, "HMAC-SHA-512/256")
        + hkdf_runs::<Sha384>(be, "HKDF-SHA-384")
        + hkdf_runs::<Sha512>(be, "HKDF-SHA-512")
}

fn main() {
    let want = std::env::args().nth(1).unwrap_or_else(|| "portable".into());
    let in256 = Sha256Backend::KNOWN.contains(&want.as_str());
    let in512 = Sha512Backend::KNOWN.contains(&want.as_str());
    if want == "canary" {
        // `ct::main` runs the negative control (a branch on a secret byte) for this argument.
        ct::main::<Sha256Backend>("ct_valgrind", run256);
        return;
    }
    if !in256 && !in512 {
        eprintln!(
            "ct_valgrind: unknown backend {want} (SHA-256: {:?}, SHA-512: {:?}, or canary)",
            Sha256Backend::KNOWN,
            Sha512Backend::KNOWN
        );
        std::process::exit(2);
    }
    if in256 {
        ct::main::<Sha256Backend>("ct_valgrind SHA-224/256", run256);
    }
    if in512 {
        ct::main::<Sha512Backend>("ct_valgrind SHA-384/512", run512);
    }
}
