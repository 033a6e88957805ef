//! Constant-time check, run under valgrind memcheck by `cargo xtask test`:
//!
//! ```sh
//! cargo build --release -p tessera-ct-valgrind --example x25519
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/x25519 portable
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/x25519 x86_bmi2_adx
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/x25519 canary # exits 1
//! ```
//!
//! The argument names a backend (`portable`, `x86_bmi2_adx`, `aarch64`). The scalar is marked
//! undefined, so memcheck reports any branch or memory index that depends on it: the ladder
//! (`x25519`, also with low-order and non-canonical u), the fixed-base path (`x25519_base`)
//! and the key API (`PublicKey::from`, and `diffie_hellman` up to its final branch, through
//! the test hook that returns the shared value and the constant-time all-zero flag) all run
//! on secret scalars. Outputs are marked defined before they are compared with the portable
//! results. Needs `--cfg tessera_test_hooks` (this workspace's builds set it).

use tessera_testkit::ct;
use tessera_x25519::testing::{self, Backend, x25519_base_with_backend, x25519_with_backend};
use tessera_x25519::{PublicKey, StaticSecret, X25519_BASEPOINT_BYTES};

/// A copy of `k` marked secret. The copy is read back through `black_box(&mut ..)`, so the
/// compiler cannot reuse the (known) value it had before the marking.
fn secret_copy(k: [u8; 32]) -> [u8; 32] {
    let mut s = k;
    ct::secret(&s);
    *std::hint::black_box(&mut s)
}

/// The backend called `name`: detected as usual, or, for `x86_bmi2_adx` under valgrind (whose
/// virtual CPUID hides ADX although its JIT executes MULX, ADCX and ADOX), taken from the host
/// kernel's CPU flags.
fn backend(name: &str) -> Option<Backend> {
    if let Some(be) = Backend::from_name(name) {
        return Some(be);
    }
    #[cfg(target_arch = "x86_64")]
    if name == "x86_bmi2_adx" {
        let t = tessera_cpu::X86Bmi2Adx::from_host_cpuinfo()?;
        eprintln!("x86_bmi2_adx: hidden by valgrind's CPUID, present in /proc/cpuinfo");
        return Some(Backend::X86Bmi2Adx(t));
    }
    None
}

fn main() {
    ct::main_by_name("x25519 ct_valgrind", |name| Some(run(backend(name)?)));
}

fn run(be: Backend) -> usize {
    {
        let mut runs = 0;
        let mut u = X25519_BASEPOINT_BYTES;
        let low_order = {
            let mut b = [0u8; 32];
            b[0] = 1;
            b
        };
        let non_canonical = [0xffu8; 32];
        for i in 0..6u8 {
            let k: [u8; 32] = core::array::from_fn(|j| (j as u8).wrapping_mul(29) ^ (i * 71));
            let want = x25519_with_backend(Backend::Portable, k, u);
            let want_base = x25519_base_with_backend(Backend::Portable, k);

            let secret = secret_copy(k);
            let mut got = x25519_with_backend(be, secret, u);
            ct::public(&got);
            assert_eq!(got, want, "x25519 {i}");
            let mut got_base = x25519_base_with_backend(be, secret);
            ct::public(&got_base);
            assert_eq!(got_base, want_base, "x25519_base {i}");
            for special in [low_order, non_canonical] {
                got = x25519_with_backend(be, secret, special);
                ct::public(&got);
                assert_eq!(got, x25519_with_backend(Backend::Portable, k, special));
            }

            let sk = StaticSecret::new_with_backend(be, secret);
            let pk = PublicKey::from(&sk);
            got_base = pk.to_bytes();
            ct::public(&got_base);
            assert_eq!(got_base, want_base, "PublicKey::from {i}");
            // `diffie_hellman` up to its branch: the all-zero test runs on the secret result in
            // constant time; its outcome is public (it depends on the public key alone).
            for (peer, zero) in [(u, 0u8), (low_order, 1)] {
                let (shared, mut flag) = testing::diffie_hellman_parts(&sk, &PublicKey::from(peer));
                ct::public(&shared);
                ct::public(core::slice::from_mut(&mut flag));
                assert_eq!(flag, zero);
                assert_eq!(shared, x25519_with_backend(Backend::Portable, k, peer));
            }
            runs += 8;
            u = want;
        }
        runs
    }
}
