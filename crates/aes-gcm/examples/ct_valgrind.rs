//! Constant-time check, run under valgrind memcheck by `cargo xtask test`:
//!
//! ```sh
//! cargo build --release -p tessera-aes-gcm --features __testing --example ct_valgrind
//! valgrind --tool=memcheck --error-exitcode=1 target/release/examples/ct_valgrind portable
//! valgrind --tool=memcheck --error-exitcode=1 target/release/examples/ct_valgrind canary # exits 1
//! ```
//!
//! Keys and plaintexts are marked undefined with memcheck client requests, so any branch or
//! memory index that depends on them (key schedule, AES, GHASH, GCM sealing, decryption, the tag
//! comparison, the clearing of the buffer when the tag is wrong) is reported as a use of
//! uninitialised data. Outputs that are public by design (ciphertexts, tags, the comparison's
//! result, through the `__testing` declassify hook) are marked defined before they are checked.
//! Refuses to run outside valgrind, so the check cannot pass vacuously.
//!
//! `canary` is the negative control: it branches on a secret key byte, so memcheck must report
//! it and the process must exit with valgrind's error code 1. If it exits 0, the harness is not
//! detecting anything.

use tessera_aes_gcm::{Aes128Gcm, Aes192Gcm, Aes256Gcm, Backend, Error, hazmat};

/// Memcheck requests (valgrind's memcheck.h: `VG_USERREQ_TOOL_BASE('M','C') + n`).
const MAKE_MEM_UNDEFINED: u64 = 0x4d43_0001;
const MAKE_MEM_DEFINED: u64 = 0x4d43_0002;
/// Core request `VG_USERREQ__RUNNING_ON_VALGRIND`.
const RUNNING_ON_VALGRIND: u64 = 0x1001;

/// A valgrind client request: the documented amd64 magic sequence (rotations of `rdi` by 3, 13,
/// 61 and 51 bits, 128 in all, then `xchg rbx, rbx`), with `rax` pointing at
/// `[request, arg1..arg5]` and the result in `rdx` (the default when not under valgrind).
#[cfg(target_arch = "x86_64")]
fn client_request(request: u64, a1: u64, a2: u64) -> u64 {
    let args: [u64; 6] = [request, a1, a2, 0, 0, 0];
    let mut result: u64 = 0;
    // SAFETY: outside valgrind the sequence does nothing (rdi is rotated by a multiple of 64,
    // rbx exchanged with itself); under valgrind it reads the six words at `rax`, which point
    // to `args`, alive for the whole statement. rdi is declared clobbered, flags are clobbered
    // by default, and the asm may read memory (no `nomem`).
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") args.as_ptr(),
            inout("rdx") result,
            out("rdi") _,
            options(nostack),
        );
    }
    result
}

#[cfg(not(target_arch = "x86_64"))]
fn client_request(_request: u64, _a1: u64, _a2: u64) -> u64 {
    0
}

fn undefined(b: &[u8]) {
    client_request(MAKE_MEM_UNDEFINED, b.as_ptr() as u64, b.len() as u64);
}

fn defined(b: &[u8]) {
    client_request(MAKE_MEM_DEFINED, b.as_ptr() as u64, b.len() as u64);
}

macro_rules! gcm_round {
    ($t:ty, $n:literal, $be:expr, $seed:expr) => {{
        let mut key: [u8; $n] = core::array::from_fn(|i| (i as u8).wrapping_mul(29) ^ $seed);
        undefined(&key);
        let g = <$t>::new_with_backend(&key, $be);
        let mut runs = 0;
        for len in [0usize, 1, 15, 16, 17, 64, 127, 128, 129, 300, 1000] {
            for nonce in [&[0x5au8; 12][..], &[0xa5; 16][..], &[1; 1][..]] {
                let aad: Vec<u8> = (0..(len % 37)).map(|i| i as u8).collect();
                let pt: Vec<u8> = (0..len).map(|i| (i * 31 + 7) as u8).collect();
                let mut buf = pt.clone();
                undefined(&buf);
                let tag = g.encrypt_in_place_detached(nonce, &aad, &mut buf).unwrap();
                defined(&buf);
                defined(&tag);
                // Decryption through the public API: the tag comparison runs on the secret
                // expected tag; only its one-byte result is declassified (hook in the crate).
                g.decrypt_in_place_detached(nonce, &aad, &mut buf, &tag)
                    .expect("tag mismatch");
                defined(&buf);
                assert_eq!(buf, pt, "round trip");
                // A wrong tag: the unauthenticated plaintext (secret) must be cleared. The buffer
                // is not marked defined here: zeroing writes constants, so any byte that were
                // left over would still be undefined and the comparison below would be reported.
                let mut forged = buf.clone();
                g.encrypt_in_place_detached(nonce, &aad, &mut forged)
                    .unwrap();
                defined(&forged);
                let mut bad = tag;
                bad[15] ^= 0x80;
                let r = g.decrypt_in_place_detached(nonce, &aad, &mut forged, &bad);
                assert_eq!(r, Err(Error::Authentication));
                assert!(forged.iter().all(|&x| x == 0), "buffer not cleared");
                runs += 1;
            }
        }
        // The raw block cipher, many blocks at once and one at a time.
        let c = <$t as Cipher>::Hazmat::new_with_backend(&key, $be);
        let mut blocks: Vec<[u8; 16]> = (0..19).map(|i| [i as u8; 16]).collect();
        let orig = blocks.clone();
        undefined(blocks.as_flattened());
        c.encrypt_blocks(&mut blocks);
        c.decrypt_blocks(&mut blocks);
        defined(blocks.as_flattened());
        assert_eq!(blocks, orig);
        key.fill(0);
        runs
    }};
}

/// Maps an AEAD type to its block cipher.
trait Cipher {
    type Hazmat;
}
impl Cipher for Aes128Gcm {
    type Hazmat = hazmat::Aes128;
}
impl Cipher for Aes192Gcm {
    type Hazmat = hazmat::Aes192;
}
impl Cipher for Aes256Gcm {
    type Hazmat = hazmat::Aes256;
}

/// The negative control: a branch on a secret key byte, which memcheck must report.
fn canary() {
    let key = [0x5au8; 16];
    undefined(&key);
    // `black_box` hides the key's (constant) contents from the optimiser, so the comparison is
    // a real conditional jump on the byte in memory, which memcheck considers undefined.
    if core::hint::black_box(&key)[0] > 0x40 {
        println!("ct_valgrind canary: branched on a secret byte");
    } else {
        println!("ct_valgrind canary: took the other branch");
    }
}

fn main() {
    let want = std::env::args().nth(1).unwrap_or_else(|| "portable".into());
    if client_request(RUNNING_ON_VALGRIND, 0, 0) == 0 {
        eprintln!("ct_valgrind: not running under valgrind; the check would prove nothing");
        std::process::exit(3);
    }
    if want == "canary" {
        canary();
        return;
    }
    tessera_aes_gcm::testing::set_declassify(defined);
    let Some(be) = Backend::all_available().find(|b| b.name() == want) else {
        eprintln!("ct_valgrind: backend {want} is not available on this CPU");
        std::process::exit(2);
    };
    let mut runs = 0;
    runs += gcm_round!(Aes128Gcm, 16, be, 0x11);
    runs += gcm_round!(Aes192Gcm, 24, be, 0x22);
    runs += gcm_round!(Aes256Gcm, 32, be, 0x33);
    println!(
        "ct_valgrind: {runs} seal/open runs on {} with secret key and plaintext",
        be.name()
    );
}
