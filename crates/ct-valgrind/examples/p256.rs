//! Constant-time check, run under valgrind memcheck by `cargo xtask test`:
//!
//! ```sh
//! cargo build --release -p tessera-ct-valgrind --example p256
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/p256 portable
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/p256 x86_bmi2_adx
//! valgrind -q --tool=memcheck --error-exitcode=1 target/release/examples/p256 canary # exits 1
//! ```
//!
//! The argument names a backend (`portable`, `x86_bmi2_adx`, `aarch64`). The secret scalar is
//! marked undefined, so memcheck reports any branch or memory index that depends on it: key
//! generation (`SecretKey::from_bytes` with its range check, whose outcome alone is public, and
//! `public_key`, the fixed-base path), ECDH (`diffie_hellman`, the variable-base path) and
//! ECDSA signing (`ecdsa::SigningKey::sign`: RFC 6979's HMAC-DRBG, whose candidate check's
//! outcome alone is public, `k G`, the constant-time inversion of `k`, `s`). The outcomes the
//! code declares public go through `tessera_cpu::public_bool`, whose hook marks them defined.
//! Outputs are marked defined before they are compared with the portable results. Needs
//! `--cfg tessera_test_hooks` (this workspace's builds set it).

use tessera_p256::ecdsa::SigningKey;
use tessera_p256::testing::Backend;
use tessera_p256::{PublicKey, SecretKey};
use tessera_testkit::ct;

/// A copy of `k` marked secret, read back through `black_box(&mut ..)`.
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
    tessera_cpu::hooks::set_declassify(ct::public);
    ct::main_by_name("p256 ct_valgrind", |name| Some(run(backend(name)?)));
}

fn run(be: Backend) -> usize {
    let peer = PublicKey::from_sec1_bytes(
        &SecretKey::from_bytes(&[0x42; 32])
            .unwrap()
            .public_key()
            .to_uncompressed(),
    )
    .unwrap();
    let mut runs = 0;
    for i in 0..4u8 {
        let k: [u8; 32] = core::array::from_fn(|j| (j as u8).wrapping_mul(29) ^ (i * 71));
        let want = SecretKey::from_bytes_with_backend(Backend::Portable, &k).unwrap();
        let want_pk = want.public_key().to_uncompressed();
        let want_ss = *want.diffie_hellman(&peer).as_bytes();

        let sk = SecretKey::from_bytes_with_backend(be, &secret_copy(k)).unwrap();
        let pk = sk.public_key().to_uncompressed();
        ct::public(&pk);
        assert_eq!(pk, want_pk, "public_key {i}");
        let ss = *sk.diffie_hellman(&peer).as_bytes();
        ct::public(&ss);
        assert_eq!(ss, want_ss, "diffie_hellman {i}");
        let msg = [i; 48];
        let want_sig = SigningKey::from_bytes_with_backend(Backend::Portable, &k)
            .unwrap()
            .sign(&msg)
            .to_bytes();
        let signer = SigningKey::from_bytes_with_backend(be, &secret_copy(k)).unwrap();
        let sig = signer.sign(&msg).to_bytes();
        ct::public(&sig);
        assert_eq!(sig, want_sig, "sign {i}");
        runs += 3;
    }
    runs
}
