//! Valgrind memcheck client requests for the constant-time examples (one example per crate in
//! `crates/ct-valgrind/examples/`, run by `cargo xtask test` under `valgrind --error-exitcode=1`).
//!
//! Secrets are marked undefined ([`secret`]); memcheck then reports any branch or memory index
//! that depends on them as a use of uninitialised data. Outputs that are public by design are
//! marked defined ([`public`]) before they are inspected. [`main`] refuses to run outside
//! valgrind, so a check cannot pass vacuously, and runs the negative control [`canary`] when
//! asked: it branches on a secret byte, so memcheck must report it.

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

/// Marks `b` as secret (undefined for memcheck).
pub fn secret(b: &[u8]) {
    client_request(MAKE_MEM_UNDEFINED, b.as_ptr() as u64, b.len() as u64);
}

/// Marks `b` as public (defined for memcheck): outputs that may be inspected.
pub fn public(b: &[u8]) {
    client_request(MAKE_MEM_DEFINED, b.as_ptr() as u64, b.len() as u64);
}

/// Whether the process runs under valgrind.
pub fn running_on_valgrind() -> bool {
    client_request(RUNNING_ON_VALGRIND, 0, 0) != 0
}

/// The negative control: a branch on a secret byte, which memcheck must report.
pub fn canary() {
    let key = [0x5au8; 16];
    secret(&key);
    // `black_box` hides the key's (constant) contents from the optimiser, so the comparison is
    // a real conditional jump on the byte in memory, which memcheck considers undefined.
    if core::hint::black_box(&key)[0] > 0x40 {
        println!("ct canary: branched on a secret byte");
    } else {
        println!("ct canary: took the other branch");
    }
}

/// The entry point of a `ct_valgrind` example whose backends are those of table `B`: the first
/// argument names a backend (or `canary` for the negative control); `run` exercises it on
/// secret inputs and returns how many operations it ran. See [`main_by_name`].
pub fn main<B: tessera_cpu::BackendSet>(example: &str, run: impl FnOnce(B) -> usize) {
    main_by_name(example, |want| {
        let be = B::all_available().find(|b| b.name() == want)?;
        Some(run(be))
    })
}

/// The statistical (dudect) timing targets, `operation:backend`, one `cargo xtask test` leg
/// each: every AVX-512, IFMA and VAES-512 island of the workspace that handles secrets (valgrind
/// cannot execute them), and ML-KEM decapsulation on its best backend (AVX2, with AVX-512
/// Keccak x4 where the CPU has it). `tessera-ct-dudect` implements them; xtask runs them.
pub const DUDECT_TARGETS: &[&str] = &[
    "x25519:x86_avx512_ifma",
    "x25519_base:x86_avx512_ifma",
    "p256_ecdh:x86_avx512_ifma",
    "p256_keygen:x86_avx512_ifma",
    "chacha20poly1305_seal:x86_avx512",
    "chacha20poly1305_seal:x86_avx512_ifma",
    "aes128gcm_seal:x86_vaes512",
    "aes256gcm_seal:x86_vaes512",
    "mlkem768_decaps_validity:x86_avx2",
    "mlkem768_decaps_key:x86_avx2",
];

/// [`main`] for the examples of crates that declassify on purpose (rejection sampling, tag
/// comparisons): points `tessera_cpu::hooks`' declassify hook at [`public`] first. The hook
/// exists only under the workspace's `--cfg tessera_test_hooks` (see [`needs_test_hooks`]).
#[cfg(tessera_test_hooks)]
pub fn main_declassified<B: tessera_cpu::BackendSet>(example: &str, run: impl FnOnce(B) -> usize) {
    tessera_cpu::hooks::set_declassify(public);
    main::<B>(example, run)
}

/// The `main` of an example built without `--cfg tessera_test_hooks` (its declassify hook and
/// backend entry points are missing): says so and exits 4.
pub fn needs_test_hooks(example: &str) -> ! {
    eprintln!(
        "{example}: built without --cfg tessera_test_hooks (the declassify hook is missing); \
         build it inside this workspace, whose .cargo/config.toml sets it"
    );
    std::process::exit(4);
}

/// The entry point of a `ct_valgrind` example: the first argument (default `portable`) is
/// handed to `run`, which exercises that backend on secret inputs and returns how many
/// operations it ran, or `None` when this CPU (or the example) has no such backend. `canary`
/// runs the negative control instead. Exits 3 outside valgrind (the check would prove
/// nothing), 2 for a backend that is not available.
pub fn main_by_name(example: &str, run: impl FnOnce(&str) -> Option<usize>) {
    let want = std::env::args().nth(1).unwrap_or_else(|| "portable".into());
    if !running_on_valgrind() {
        eprintln!("{example}: not running under valgrind; the check would prove nothing");
        std::process::exit(3);
    }
    if want == "canary" {
        canary();
        return;
    }
    let Some(runs) = run(&want) else {
        eprintln!("{example}: backend {want} is not available on this CPU");
        std::process::exit(2);
    };
    println!("{example}: {runs} operations on {want} with secret inputs");
}
