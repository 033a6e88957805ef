//! Token detection checked against the standard library's own feature detection, and the
//! forced-portable paths (`--cfg tessera_backend="portable"`, and `TESSERA_FORCE_BACKEND=portable`
//! in this workspace's test builds, `--cfg tessera_test_hooks`).

#[cfg(all(target_arch = "x86_64", not(tessera_backend = "portable")))]
#[test]
fn x86_tokens_match_std_detection() {
    use std::arch::is_x86_feature_detected as has;
    use tessera_cpu::*;
    if forced_portable_checked() {
        return;
    }
    assert_eq!(X86Avx2::detect().is_some(), has!("avx2"));
    assert_eq!(
        X86AesClmul::detect().is_some(),
        has!("aes") && has!("pclmulqdq") && has!("ssse3")
    );
    assert_eq!(
        X86VaesClmul::detect().is_some(),
        has!("avx2")
            && has!("aes")
            && has!("pclmulqdq")
            && has!("ssse3")
            && has!("vaes")
            && has!("vpclmulqdq")
    );
    assert_eq!(
        X86Vaes512::detect().is_some(),
        has!("avx2")
            && has!("aes")
            && has!("pclmulqdq")
            && has!("ssse3")
            && has!("avx512f")
            && has!("avx512bw")
            && has!("avx512vl")
            && has!("vaes")
            && has!("vpclmulqdq")
    );
    assert_eq!(
        X86ShaNi::detect().is_some(),
        has!("sha") && has!("sse2") && has!("ssse3") && has!("sse4.1")
    );
    assert_eq!(X86Bmi2Adx::detect().is_some(), has!("bmi2") && has!("adx"));
    assert_eq!(X86Bmi::detect().is_some(), has!("bmi1") && has!("bmi2"));
    assert_eq!(
        X86Avx512::detect().is_some(),
        has!("avx2") && has!("avx512f") && has!("avx512vl")
    );
    assert_eq!(
        X86Avx512Ifma::detect().is_some(),
        has!("avx2")
            && has!("avx512f")
            && has!("avx512vl")
            && has!("avx512ifma")
            && has!("bmi2")
            && has!("adx")
    );
    assert_eq!(
        X86Avx2Bmi::detect().is_some(),
        has!("avx2") && has!("bmi1") && has!("bmi2")
    );
    println!("{}", tessera_cpu::features());
}

#[cfg(all(target_arch = "aarch64", not(tessera_backend = "portable")))]
#[test]
fn aarch64_tokens_match_std_detection() {
    use std::arch::is_aarch64_feature_detected as has;
    use tessera_cpu::*;
    if forced_portable_checked() {
        return;
    }
    assert_eq!(Aarch64Neon::detect().is_some(), has!("neon"));
    assert_eq!(Aarch64AesPmull::detect().is_some(), has!("aes"));
    assert_eq!(Aarch64Sha2::detect().is_some(), has!("sha2"));
    assert_eq!(Aarch64Sha3::detect().is_some(), has!("sha3"));
    println!("{}", tessera_cpu::features());
}

/// Every token's feature list is what the unit of `#[target_feature]` islands enables: no
/// empty list, no duplicate, and (through `ALL_TOKENS`) every token is listed.
#[test]
fn token_feature_lists_are_well_formed() {
    assert_eq!(tessera_cpu::ALL_TOKENS.len(), 14);
    for (name, feats) in tessera_cpu::ALL_TOKENS {
        assert!(!feats.is_empty(), "{name}");
        for (i, f) in feats.iter().enumerate() {
            assert!(!feats[..i].contains(f), "{name}: {f} twice");
        }
    }
}

/// Under `TESSERA_FORCE_BACKEND=portable` (honoured in test builds): checks that every token
/// reports absent and returns true, so the caller skips its comparison with std's detection.
#[cfg(all(
    any(target_arch = "x86_64", target_arch = "aarch64"),
    not(tessera_backend = "portable")
))]
fn forced_portable_checked() -> bool {
    let forced = std::env::var("TESSERA_FORCE_BACKEND").as_deref() == Ok("portable");
    if forced {
        forced_portable_detects_nothing();
    }
    forced
}

/// Every token reports absent.
fn forced_portable_detects_nothing() {
    use tessera_cpu::*;
    assert!(X86Avx2::detect().is_none());
    assert!(X86AesClmul::detect().is_none());
    assert!(X86VaesClmul::detect().is_none());
    assert!(X86ShaNi::detect().is_none());
    assert!(X86Bmi2Adx::detect().is_none());
    assert!(X86Bmi::detect().is_none());
    assert!(X86Avx512::detect().is_none());
    assert!(X86Avx512Ifma::detect().is_none());
    assert!(X86Avx2Bmi::detect().is_none());
    assert!(X86Vaes512::detect().is_none());
    assert!(Aarch64Neon::detect().is_none());
    assert!(Aarch64AesPmull::detect().is_none());
    assert!(Aarch64Sha2::detect().is_none());
    assert!(Aarch64Sha3::detect().is_none());
}

#[cfg(tessera_backend = "portable")]
#[test]
fn cfg_portable_detects_nothing() {
    forced_portable_detects_nothing();
}

/// `TESSERA_CPU_CAP=avx2` (test builds: the `--cpu avx2` profile of `cargo xtask bench`) hides
/// every AVX-512 token and keeps the others as the CPU has them. Runs this test binary again in
/// a child process with the cap set (detection is cached per process).
#[cfg(all(
    target_arch = "x86_64",
    tessera_test_hooks,
    not(tessera_backend = "portable"),
    not(miri)
))]
#[test]
fn cpu_cap_avx2_hides_avx512() {
    use std::arch::is_x86_feature_detected as has;
    use tessera_cpu::*;
    if std::env::var("TESSERA_FORCE_BACKEND").as_deref() == Ok("portable") {
        return;
    }
    if std::env::var("TESSERA_CPU_CAP").as_deref() == Ok("avx2") {
        // The child.
        assert!(X86Avx512::detect().is_none());
        assert!(X86Avx512Ifma::detect().is_none());
        assert!(X86Vaes512::detect().is_none());
        assert_eq!(X86Avx2::detect().is_some(), has!("avx2"));
        assert_eq!(X86Bmi2Adx::detect().is_some(), has!("bmi2") && has!("adx"));
        assert_eq!(
            X86ShaNi::detect().is_some(),
            has!("sha") && has!("sse4.1") && has!("ssse3")
        );
        let line = features().to_string();
        assert!(line.contains("AVX-512 no"), "{line}");
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "cpu_cap_avx2_hides_avx512", "--nocapture"])
        .env("TESSERA_CPU_CAP", "avx2")
        .output()
        .expect("run the test binary again");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "child failed or ran nothing:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
