//! `cargo xtask test [--quick] [--list]`: the test matrix, planned from the crate table
//! ([`crate::crates::CRATES`]) and the tools this machine has, then run leg by leg and ended
//! with one table. `--list` prints the plan (every leg's name and command) without running it.
//!
//! A leg whose tool is missing is skipped with its reason, and under `CI` a skipped leg is a
//! failure. Backend names are shared across crates and each crate checks only the names it
//! knows (its `Backend::KNOWN`), so one exact `TESSERA_EXPECT_BACKENDS` list per CPU covers the
//! whole workspace.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Instant;

use crate::cmd::{self, Cmd, ci, has_target, have, root};
use crate::crates::{self, Aarch64, CRATES};

/// A bare-metal target without std or an allocator.
const NO_STD: &str = "thumbv7em-none-eabihf";
const AARCH64: &str = "aarch64-unknown-linux-gnu";
/// Big-endian, for Miri.
const S390X: &str = "s390x-unknown-linux-gnu";

/// qemu-x86_64 -cpu Nehalem: no AES-NI, no AVX, no BMI.
const X86_NEHALEM: &str = "portable";
/// qemu-x86_64 -cpu Westmere: AES-NI + PCLMULQDQ (+ SSSE3), no AVX, no BMI.
const X86_WESTMERE: &str = "portable,x86_aesni";
/// qemu-x86_64 -cpu Haswell: AVX2, BMI1/2, AES-NI, PCLMULQDQ; no SHA-NI (qemu 7.2), no VAES,
/// no AVX-512.
const X86_HASWELL: &str = "portable,x86_avx2,x86_bmi,x86_avx2_bmi,x86_aesni";
/// qemu-x86_64 -cpu Broadwell: Haswell plus ADX (the first with BMI2 and ADX: x25519's MULX
/// backend).
const X86_BROADWELL: &str = "portable,x86_avx2,x86_bmi,x86_avx2_bmi,x86_aesni,x86_bmi2_adx";
/// The test targets an emulated CPU other than QEMU_CPU=max runs (with each crate's library
/// unit tests): the ones that check the dispatcher's choice against `TESSERA_EXPECT_BACKENDS`
/// and run every available backend against portable (`equivalence`, `ifma`, `field`), the
/// official vectors through the dispatched API (`kat`, `vectors`) and detection (`detect`).
/// The API-level suites (differential, traits, key encodings, bad input) run on the native
/// CPU, forced portable, and under QEMU_CPU=max.
const DISPATCH_TESTS: &[&str] = &["detect", "kat", "vectors", "equivalence", "ifma", "field"];
/// The runner of aarch64 test executables (`.cargo/config.toml`'s, for the legs that run them
/// without cargo).
const AARCH64_RUNNER: [&str; 3] = ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"];
/// QEMU_CPU=max: every aarch64 extension Tessera uses.
const AARCH64_MAX: &str = "portable,aarch64_neon,aarch64_sha2,aarch64_sha3,aarch64_aes,aarch64";
/// QEMU_CPU=cortex-a53: ARMv8.0 crypto (AES/PMULL, SHA-256), no SHA3/SHA512.
const AARCH64_A53: &str = "portable,aarch64_neon,aarch64_sha2,aarch64_aes,aarch64";

/// The "bench harness smoke" leg: `cargo xtask bench --smoke` (the interleaved comparison's
/// harness, run once on one tiny row with few rounds, and a check that the report, JSON and
/// plots were written; no timing is asserted).
const BENCH_SMOKE: bool = true;
const BENCH_SMOKE_NAME: &str = "bench harness smoke (cargo xtask bench --smoke)";

mod ct;
mod leg;
mod plan;
mod run;

use ct::*;
use leg::*;
use plan::*;
pub use run::test;

/// The backends `TESSERA_EXPECT_BACKENDS` lists, if it is set.
fn expected_backends() -> Option<Vec<String>> {
    std::env::var("TESSERA_EXPECT_BACKENDS")
        .ok()
        .map(|v| v.split(',').map(|b| b.trim().to_string()).collect())
}

/// Prints every leg's name and command without running anything.
pub fn list(quick: bool, only: Option<&str>) -> bool {
    println!("{}", tessera_cpu::features());
    let legs = select(plan(quick), only);
    println!(
        "{} legs{}:",
        legs.len(),
        if quick { " (--quick)" } else { "" }
    );
    for (i, l) in legs.iter().enumerate() {
        println!("{:2}. {}", i + 1, l.name);
        match &l.action {
            Action::Run(c) | Action::BuildExample { cmd: c, .. } => println!("      {c}"),
            Action::RunTests(t) => {
                println!("      {}", t.build);
                let env: Vec<String> = t.env.iter().map(|(k, v)| format!("{k}={v} ")).collect();
                println!(
                    "      then, from each package's directory: {}{} <unit and {} test executables of {}>",
                    env.concat(),
                    t.runner.join(" "),
                    DISPATCH_TESTS.join("/"),
                    t.packages.join(", ")
                );
            }
            Action::Concurrent(cmds) => {
                for (name, c) in cmds {
                    println!("      [{name}] {c}");
                }
            }
            Action::Skip(why) => println!("      SKIP: {why}"),
            Action::Fail(why) => println!("      FAIL: {why}"),
            Action::Valgrind { example, probe, .. } => {
                let bin = format!("target/release/examples/{example}");
                let expect = match probe {
                    Probe::Arg(_) => "exit 0; exit 2 = backend absent",
                    Probe::Canary => "must exit 1",
                };
                println!("      {}    ({expect})", valgrind_cmd(&bin, probe.arg()));
            }
            Action::Timing { example, arg, .. } => {
                let expect = if *arg == TIMING_CONTROL {
                    "exit 0 = both controls flagged"
                } else {
                    "exit 0; 1 = leak; 2 = backend absent; 3 = control not flagged"
                };
                println!("      target/release/examples/{example} {arg}    ({expect})");
            }
        }
    }
    if !quick && !BENCH_SMOKE {
        println!("(off: {BENCH_SMOKE_NAME}; BENCH_SMOKE in xtask/src/matrix.rs)");
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(o: &Outcome) -> &'static str {
        match o {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Skip {
                ci_failure: true, ..
            } => "skip (a failure under CI)",
            Outcome::Skip {
                ci_failure: false, ..
            } => "skip",
        }
    }

    #[test]
    fn valgrind_exit_codes() {
        let exp: Vec<String> = ["portable", "x86_shani"].map(String::from).into();
        let arg = |a| Probe::Arg(a);
        let cases = [
            (arg("sha256:portable"), Some(0), Some(&exp[..]), "pass"),
            (arg("portable"), Some(1), Some(&exp[..]), "fail"),
            (arg("portable"), None, Some(&exp[..]), "fail"),
            // Exit 2: the CPU lacks the backend; a failure only if it is expected here.
            (arg("sha256:x86_shani"), Some(2), Some(&exp[..]), "fail"),
            (arg("sha512:x86_avx2_bmi"), Some(2), Some(&exp[..]), "skip"),
            (arg("x86_avx2"), Some(2), None, "skip (a failure under CI)"),
            // Exit 3: not under valgrind.
            (arg("portable"), Some(3), None, "fail"),
            (Probe::Canary, Some(1), None, "pass"),
            (Probe::Canary, Some(0), Some(&exp[..]), "fail"),
            (Probe::Canary, Some(2), Some(&exp[..]), "fail"),
        ];
        for (probe, code, exp, want) in cases {
            let got = valgrind_outcome(probe, code, exp);
            assert_eq!(kind(&got), want, "{} exit {code:?}", probe.arg());
        }
    }

    #[test]
    fn timing_exit_codes() {
        let exp: Vec<String> = ["portable", "x86_avx512_ifma"].map(String::from).into();
        let cases = [
            ("x25519:x86_avx512_ifma", Some(0), Some(&exp[..]), "pass"),
            ("x25519:x86_avx512_ifma", Some(1), Some(&exp[..]), "fail"),
            ("x25519:x86_avx512_ifma", Some(3), Some(&exp[..]), "fail"),
            // Exit 2: the CPU lacks the backend; a failure only if it is expected here.
            ("x25519:x86_avx512_ifma", Some(2), Some(&exp[..]), "fail"),
            (
                "aes128gcm_seal:x86_vaes512",
                Some(2),
                Some(&exp[..]),
                "skip",
            ),
            (
                "aes128gcm_seal:x86_vaes512",
                Some(2),
                None,
                "skip (a failure under CI)",
            ),
            (TIMING_CONTROL, Some(0), None, "pass"),
            (TIMING_CONTROL, Some(3), None, "fail"),
        ];
        for (arg, code, exp, want) in cases {
            let got = timing_outcome(arg, code, exp);
            assert_eq!(kind(&got), want, "{arg} exit {code:?}");
        }
    }

    /// A timing leg selected alone keeps the build of its example.
    #[test]
    fn timing_leg_keeps_its_build() {
        if !cfg!(target_arch = "x86_64") {
            return;
        }
        let legs = select(
            plan(false),
            Some("dudect constant time tessera-ct-dudect x25519:"),
        );
        let names: Vec<&str> = legs.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "dudect: build tessera-ct-dudect example dudect",
                "dudect constant time tessera-ct-dudect x25519:x86_avx512_ifma",
            ]
        );
    }

    #[test]
    fn plan_names_are_unique() {
        let legs = plan(false);
        let mut names: Vec<&str> = legs.iter().map(|l| l.name.as_str()).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "two legs share a name");
    }
}
