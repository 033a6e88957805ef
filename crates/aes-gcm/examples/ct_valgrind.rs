//! Constant-time check, run under valgrind memcheck by `cargo xtask test`:
//!
//! ```sh
//! cargo build --release -p tessera-aes-gcm --example ct_valgrind
//! valgrind --error-exitcode=1 target/release/examples/ct_valgrind portable
//! ```
//!
//! Keys and plaintexts are marked undefined with memcheck client requests, so any branch or
//! memory index that depends on them (key schedule, AES, GHASH, GCM sealing and the decryption
//! core, the tag comparison) is reported as a use of uninitialised data. Outputs that are public
//! by design (ciphertexts, tags, the comparison's result) are marked defined before they are
//! checked. Refuses to run outside valgrind, so the check cannot pass vacuously.

use subtle::ConstantTimeEq;
use tessera_aes_gcm::{Aes128Gcm, Aes192Gcm, Aes256Gcm, Backend, hazmat};

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
                // The decryption core on public ciphertext under the secret key.
                let expected = g.__decrypt_unverified(nonce, &aad, &mut buf).unwrap();
                // The tag comparison itself, on tags marked secret.
                let (mut a, mut b) = (expected, tag);
                undefined(&a);
                undefined(&b);
                let eq = [a.ct_eq(&b).unwrap_u8()];
                defined(&eq);
                // SAFETY: reads one initialised byte of `eq`; volatile so the check uses the
                // value valgrind now considers defined, not a register copy from before.
                let eq = unsafe { core::ptr::read_volatile(eq.as_ptr()) };
                assert_eq!(eq, 1, "tag mismatch");
                defined(&buf);
                assert_eq!(buf, pt, "round trip");
                a.fill(0);
                b.fill(0);
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

fn main() {
    let want = std::env::args().nth(1).unwrap_or_else(|| "portable".into());
    let Some(be) = Backend::all_available().find(|b| b.name() == want) else {
        eprintln!("ct_valgrind: backend {want} is not available on this CPU");
        std::process::exit(2);
    };
    if client_request(RUNNING_ON_VALGRIND, 0, 0) == 0 {
        eprintln!("ct_valgrind: not running under valgrind; the check would prove nothing");
        std::process::exit(3);
    }
    let mut runs = 0;
    runs += gcm_round!(Aes128Gcm, 16, be, 0x11);
    runs += gcm_round!(Aes192Gcm, 24, be, 0x22);
    runs += gcm_round!(Aes256Gcm, 32, be, 0x33);
    println!(
        "ct_valgrind: {runs} seal/open runs on {} with secret key and plaintext",
        be.name()
    );
}
