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

/// What a leg does.
enum Action {
    /// Passes when the command exits 0.
    Run(Cmd),
    /// Not run, for this reason (a missing tool or target).
    Skip(String),
    /// Fails without running anything, for this reason.
    Fail(String),
    /// Builds a constant-time example (release) and records its executable for the
    /// [`Action::Valgrind`] legs after it.
    BuildExample {
        package: &'static str,
        example: &'static str,
        cmd: Cmd,
    },
    /// Runs a built constant-time example under valgrind with one argument.
    Valgrind {
        package: &'static str,
        example: &'static str,
        probe: Probe,
    },
    /// Runs a built timing example (dudect) natively with one argument: passes on exit 0; exit
    /// 2 (backend absent) is judged as for valgrind.
    Timing {
        package: &'static str,
        example: &'static str,
        arg: &'static str,
    },
    /// Runs the test executables of `packages` from a build of a larger selection: `build` is
    /// `cargo test --no-run --message-format=json...` of the selection an earlier leg already
    /// built (so nothing is compiled again: Cargo unifies dependency features over the
    /// selected packages, and a `-p` subset rebuilds most of the workspace with other
    /// features); each executable of those packages (unit and integration tests) then runs
    /// under `runner` with `env`, from its package's directory, as `cargo test` runs it. Passes
    /// when the build and every executable exit 0 and every package had an executable.
    RunTests {
        build: Cmd,
        packages: Vec<&'static str>,
        runner: Vec<String>,
        env: Vec<(String, String)>,
    },
    /// Legs whose commands run at the same time, each one passing when it exits 0: for
    /// single-threaded work (Miri interprets on one core) on this 2-core machine. Each command
    /// needs a build directory of its own (cargo locks one for the whole run); its output goes
    /// to a log file, printed when all have ended. Each is one row of the table.
    Concurrent(Vec<(String, Cmd)>),
}

/// The argument of a valgrind leg.
#[derive(Clone, Copy)]
enum Probe {
    /// A backend argument from the table: must exit 0. Exit 2 (this CPU lacks the backend) is
    /// a failure when `TESSERA_EXPECT_BACKENDS` lists the backend, a skip otherwise.
    Arg(&'static str),
    /// The negative control: memcheck must report it (exit 1).
    Canary,
}

impl Probe {
    fn arg(self) -> &'static str {
        match self {
            Probe::Arg(a) => a,
            Probe::Canary => "canary",
        }
    }
}

struct Leg {
    name: String,
    action: Action,
}

/// `cargo test --tests` of the whole workspace but the benches: the selection the native leg
/// builds, which the Haswell leg runs under qemu and the other x86 CPUs reuse.
const WORKSPACE_TESTS: [&str; 5] = [
    "test",
    "--tests",
    "--workspace",
    "--exclude",
    "tessera-benches",
];

/// `c` (a `cargo test` selection) as the build of an [`Action::RunTests`] leg: compile only,
/// and list the test executables as JSON.
fn no_run(c: Cmd) -> Cmd {
    c.args(["--no-run", "--message-format=json-render-diagnostics"])
}

fn leg(name: impl Into<String>, action: Action) -> Leg {
    Leg {
        name: name.into(),
        action,
    }
}

enum Outcome {
    Pass,
    Fail,
    /// Not run. `ci_failure`: whether it fails a CI run (every skip does, except a valgrind
    /// backend this CPU lacks when `TESSERA_EXPECT_BACKENDS` says it lacks it).
    Skip {
        why: String,
        ci_failure: bool,
    },
}

struct Done {
    name: String,
    outcome: Outcome,
    secs: f64,
}

/// `valgrind` memcheck on `bin ARG`: any branch or index on secret data exits 1. Superblocks
/// of at most 20 guest instructions (default 50): ML-DSA's AVX2 signing island is long
/// straight-line vector code whose instrumented translation exhausted VEX's temporary storage
/// ("the 'impossible' happened") at the default; the limit changes how code is cut into
/// translations, not what memcheck checks.
fn valgrind_cmd(bin: &str, arg: &str) -> Cmd {
    Cmd::tool(
        "valgrind",
        &[
            "-q",
            "--tool=memcheck",
            "--error-exitcode=1",
            "--vex-guest-max-insns=20",
            bin,
            arg,
        ],
    )
}

/// The backends `TESSERA_EXPECT_BACKENDS` lists, if it is set.
fn expected_backends() -> Option<Vec<String>> {
    std::env::var("TESSERA_EXPECT_BACKENDS")
        .ok()
        .map(|v| v.split(',').map(|b| b.trim().to_string()).collect())
}

/// Every leg of the matrix on this machine, in order.
fn plan(quick: bool) -> Vec<Leg> {
    let mut legs = vec![
        leg(
            "fmt --check",
            Action::Run(Cmd::cargo(&["fmt", "--all", "--check"])),
        ),
        leg(
            "clippy host (workspace, all targets, incl. benches check)",
            Action::Run(Cmd::cargo(&[
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ])),
        ),
    ];

    // Native: every backend this CPU has must be exercised (CI names them).
    let mut native = Cmd::cargo(&["test", "--workspace", "--exclude", "tessera-benches"]);
    if let Ok(v) = std::env::var("TESSERA_EXPECT_BACKENDS") {
        native = native.env("TESSERA_EXPECT_BACKENDS", v);
    } else if ci() {
        legs.push(leg(
            "native expectations",
            Action::Fail(
                "CI without TESSERA_EXPECT_BACKENDS: the native leg cannot prove its backends ran"
                    .into(),
            ),
        ));
    }
    legs.push(leg(
        "native tests (expected backends asserted)",
        Action::Run(native),
    ));
    if quick {
        return legs;
    }

    // Long tests: once, natively, release-like test profile.
    for c in crates::CRATES {
        for (target, name) in c.long_tests {
            legs.push(leg(
                format!("long test {} {target}::{name}", c.package),
                Action::Run(
                    Cmd::cargo(&[
                        "test", "-p", c.package, "--test", target, name, "--", "--exact",
                    ])
                    .env("TESSERA_LONG_TESTS", "1"),
                ),
            ));
        }
    }

    let portable = crates::packages(|c| c.portable);
    // The native leg's package selection: Cargo unifies dependency features over the selected
    // packages, so a subset (without hpke-interop's peers, say) would rebuild some fifty crates
    // with other features; the whole selection reuses the native build and adds only a few
    // seconds of tooling tests.
    legs.push(leg(
        "forced portable (TESSERA_FORCE_BACKEND)",
        Action::Run(
            Cmd::cargo(&[
                "test",
                "--tests",
                "--workspace",
                "--exclude",
                "tessera-benches",
            ])
            .env("TESSERA_FORCE_BACKEND", "portable")
            .env("TESSERA_EXPECT_BACKENDS", "portable"),
        ),
    ));
    // The build-time switch a user would set: every token compiled out. RUSTFLAGS replaces the
    // config's flags, hence the test hooks again.
    legs.push(leg(
        "cfg portable (--cfg tessera_backend=\"portable\")",
        Action::Run(
            Cmd::cargo(&["test", "--tests"])
                .packages(&portable)
                .env(
                    "RUSTFLAGS",
                    cmd::rustflags_with_hooks("--cfg tessera_backend=\"portable\""),
                )
                .env(
                    "CARGO_TARGET_DIR",
                    root().join("target/cfg-portable").display().to_string(),
                )
                .env("TESSERA_EXPECT_BACKENDS", "portable"),
        ),
    ));

    // A user's build (no test hooks): warning-free, and no test-only entry point (the
    // derandomized HPKE and KEM calls, FIPS 203/204 internal functions) can be named.
    legs.push(leg(
        "user build: test-only entry points unreachable",
        Action::Run(Cmd::cargo(&["xtask", "user-build"])),
    ));

    // The slot of the bench harness smoke leg (see BENCH_SMOKE).
    if BENCH_SMOKE {
        legs.push(leg(
            BENCH_SMOKE_NAME,
            Action::Run(Cmd::cargo(&["xtask", "bench", "--smoke"])),
        ));
    }

    // Emulated x86 CPUs run the real dispatcher; the expected set is exact.
    let have_qemu_x86 = have("qemu-x86_64", "--version");
    for (cpu, expect) in [
        ("Nehalem", X86_NEHALEM),
        ("Westmere", X86_WESTMERE),
        ("Haswell", X86_HASWELL),
        ("Broadwell", X86_BROADWELL),
    ] {
        let name = format!("qemu-x86_64 -cpu {cpu}");
        // Haswell runs every crate's tests (the umbrella's too) through cargo with the native
        // leg's whole selection and build (see the forced-portable leg); the other CPUs run
        // their crates' test executables from that same build (`Action::RunTests`) rather than
        // a `-p` subset, which would rebuild with other dependency features.
        let every = crates::CRATES
            .iter()
            .all(|c| c.qemu_x86 == crates::QemuX86::No || c.qemu_x86.runs_on(cpu));
        let runner = format!("qemu-x86_64 -cpu {cpu}");
        let action = if every {
            Action::Run(
                Cmd::cargo(&WORKSPACE_TESTS)
                    .env("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER", runner)
                    .env("TESSERA_EXPECT_BACKENDS", expect),
            )
        } else {
            Action::RunTests {
                build: no_run(Cmd::cargo(&WORKSPACE_TESTS)),
                packages: crates::packages(|c| c.qemu_x86.runs_on(cpu)),
                runner: runner.split(' ').map(String::from).collect(),
                env: vec![("TESSERA_EXPECT_BACKENDS".into(), expect.into())],
            }
        };
        legs.push(if have_qemu_x86 {
            leg(name, action)
        } else {
            leg(
                name,
                Action::Skip("qemu-x86_64 not installed (apt-get install qemu-user)".into()),
            )
        });
    }

    // no_std: the primitives build for a bare-metal target (no std, no allocator), so a stray
    // `std::` outside the `std` feature fails here and not in a user's firmware. The config's
    // test hooks apply to hosted targets only, so this is the build a user gets.
    let name = format!("no_std build ({NO_STD})");
    legs.push(if has_target(NO_STD) {
        let features: Vec<String> = CRATES
            .iter()
            .filter_map(|c| c.no_std.map(|f| (c.package, f)))
            .flat_map(|(p, fs)| fs.iter().map(move |f| format!("{p}/{f}")))
            .collect();
        let mut c = Cmd::cargo(&["check", "--lib", "--target", NO_STD])
            .packages(&crates::packages(|c| c.no_std.is_some()));
        if !features.is_empty() {
            c = c.args(["--features".to_string(), features.join(",")]);
        }
        leg(name, Action::Run(c))
    } else {
        leg(name, Action::Skip(format!("rustup target add {NO_STD}")))
    });

    let aarch64_ok = has_target(AARCH64)
        && have("aarch64-linux-gnu-gcc", "--version")
        && have("qemu-aarch64", "--version");
    let qemu_names = [("max", AARCH64_MAX), ("cortex-a53", AARCH64_A53)]
        .map(|(cpu, expect)| (format!("aarch64 qemu QEMU_CPU={cpu}"), cpu, expect));
    if aarch64_ok {
        legs.push(leg(
            "clippy aarch64",
            Action::Run(
                Cmd::cargo(&["clippy", "--target", AARCH64, "--all-targets"])
                    .packages(&crates::packages(|c| c.aarch64 != Aarch64::No))
                    .args(["--", "-D", "warnings"]),
            ),
        ));
        // QEMU_CPU=max runs the largest selection through cargo (the runner is
        // `.cargo/config.toml`'s); the other CPUs run their crates' executables from that build.
        let max_packages = crates::packages(|c| c.aarch64.runs_on("max"));
        for (name, cpu, expect) in qemu_names {
            let packages = crates::packages(|c| c.aarch64.runs_on(cpu));
            let action = if packages == max_packages {
                Action::Run(
                    Cmd::cargo(&["test", "--tests", "--target", AARCH64])
                        .packages(&packages)
                        .env("QEMU_CPU", cpu)
                        .env("TESSERA_EXPECT_BACKENDS", expect),
                )
            } else {
                Action::RunTests {
                    build: no_run(
                        Cmd::cargo(&["test", "--tests", "--target", AARCH64])
                            .packages(&max_packages),
                    ),
                    packages,
                    runner: AARCH64_RUNNER.iter().map(|w| w.to_string()).collect(),
                    env: vec![
                        ("QEMU_CPU".into(), cpu.into()),
                        ("TESSERA_EXPECT_BACKENDS".into(), expect.into()),
                    ],
                }
            };
            legs.push(leg(name, action));
        }
    } else {
        let why =
            "needs rustup target aarch64-unknown-linux-gnu, aarch64-linux-gnu-gcc, qemu-aarch64";
        legs.push(leg("clippy aarch64", Action::Skip(why.into())));
        for (name, ..) in qemu_names {
            legs.push(leg(name, Action::Skip(why.into())));
        }
    }

    valgrind_legs(&mut legs);
    timing_legs(&mut legs);

    // `cargo miri` applies `.cargo/config.toml`'s rustflags (checked with `-v`: the rustc
    // lines of both the host and the s390x build carry `--cfg tessera_test_hooks`, and an
    // explicit RUSTFLAGS with the same flags leaves the build fresh), so the test hooks reach
    // Miri without a RUSTFLAGS of its own.
    // The two Miri legs run at the same time: Miri interprets on one core, so together they
    // take about as long as the longer one. The s390x one builds in a directory of its own.
    let miri_ok = cmd::have_miri();
    let mut miri = Vec::new();
    for (name, target) in [
        ("miri host", None),
        ("miri s390x (big-endian)", Some(S390X)),
    ] {
        if !miri_ok {
            legs.push(leg(
                name,
                Action::Skip(
                    "nightly miri not installed (rustup component add miri rust-src --toolchain nightly)"
                        .into(),
                ),
            ));
            continue;
        }
        let mut c = Cmd::tool("cargo", &["+nightly", "miri", "test", "--lib"]);
        if let Some(t) = target {
            c = c.args(["--target", t]).env(
                "CARGO_TARGET_DIR",
                root().join("target/miri-s390x").display().to_string(),
            );
        }
        miri.push((name.to_string(), c.packages(&portable)));
    }
    if !miri.is_empty() {
        legs.push(leg(
            "miri host and s390x, concurrently",
            Action::Concurrent(miri),
        ));
    }
    legs
}

/// Runs `cmds` at the same time, each with its output in `target/xtask-logs/<leg>.log`
/// (printed after all have ended, one after another); returns each one's row.
fn run_concurrently(cmds: Vec<(String, Cmd)>) -> Vec<Done> {
    let dir = root().join("target/xtask-logs");
    let _ = std::fs::create_dir_all(&dir);
    let started: Vec<_> = cmds
        .into_iter()
        .map(|(name, c)| {
            let file: String = name
                .chars()
                .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' })
                .collect();
            let log = dir.join(format!("{file}.log"));
            eprintln!(
                "\n=== leg (concurrent): {name}\n    {c}\n    output: {}",
                log.display()
            );
            let child = std::fs::File::create(&log).and_then(|f| {
                let e = f.try_clone()?;
                c.command().stdout(f).stderr(e).spawn()
            });
            (name, log, Instant::now(), child)
        })
        .collect();
    let mut done = Vec::new();
    for (name, log, t, child) in started {
        let code = match child {
            Ok(mut ch) => ch.wait().ok().and_then(|s| s.code()),
            Err(e) => {
                eprintln!("    {name}: could not start: {e}");
                None
            }
        };
        let secs = t.elapsed().as_secs_f64();
        eprintln!("\n=== output of leg {name} (exit {code:?}, {secs:.0} s):");
        eprintln!("{}", std::fs::read_to_string(&log).unwrap_or_default());
        done.push(Done {
            name,
            outcome: pass_if(code == Some(0)),
            secs,
        });
    }
    done
}

/// Constant-time checks under valgrind memcheck: per example of the table, a release build,
/// then one leg per argument and the negative control.
fn valgrind_legs(legs: &mut Vec<Leg>) {
    let unavailable = if !cfg!(target_arch = "x86_64") {
        Some("the client request helper is x86_64-only")
    } else if !have("valgrind", "--version") {
        Some("valgrind not installed (apt-get install valgrind)")
    } else {
        None
    };
    for c in CRATES {
        let package = c.package;
        for &crates::CtExample { example, args } in c.valgrind {
            let probes = args.iter().map(|&a| Probe::Arg(a)).chain([Probe::Canary]);
            if let Some(why) = unavailable {
                for p in probes {
                    legs.push(leg(
                        valgrind_name(package, example, p),
                        Action::Skip(why.into()),
                    ));
                }
                continue;
            }
            legs.push(leg(
                format!("valgrind: build {package} example {example}"),
                Action::BuildExample {
                    package,
                    example,
                    cmd: Cmd::cargo(&[
                        "build",
                        "--release",
                        "-p",
                        package,
                        "--example",
                        example,
                        "--message-format=json-render-diagnostics",
                    ]),
                },
            ));
            for probe in probes {
                legs.push(leg(
                    valgrind_name(package, example, probe),
                    Action::Valgrind {
                        package,
                        example,
                        probe,
                    },
                ));
            }
        }
    }
}

fn valgrind_name(package: &str, example: &str, p: Probe) -> String {
    match p {
        Probe::Arg(a) => format!("valgrind constant time {package} {example} {a}"),
        Probe::Canary => {
            format!("valgrind negative control {package} {example} canary (must be reported)")
        }
    }
}

/// The argument of a timing example that runs its negative controls (exit 0 when flagged).
const TIMING_CONTROL: &str = "control";

/// Statistical constant-time tests (dudect) of the backends valgrind cannot run: per example of
/// the table, a release build, the negative controls, then one leg per target. Native runs on
/// x86_64 only (the targets are x86 backends; each leg measures for a few seconds).
fn timing_legs(legs: &mut Vec<Leg>) {
    for c in CRATES {
        let package = c.package;
        for &crates::CtExample { example, args } in c.timing {
            let all = std::iter::once(TIMING_CONTROL).chain(args.iter().copied());
            if !cfg!(target_arch = "x86_64") {
                for a in all {
                    legs.push(leg(
                        timing_name(package, a),
                        Action::Skip("the timing targets are x86_64 backends".into()),
                    ));
                }
                continue;
            }
            legs.push(leg(
                format!("dudect: build {package} example {example}"),
                Action::BuildExample {
                    package,
                    example,
                    cmd: Cmd::cargo(&[
                        "build",
                        "--release",
                        "-p",
                        package,
                        "--example",
                        example,
                        "--message-format=json-render-diagnostics",
                    ]),
                },
            ));
            for arg in all {
                legs.push(leg(
                    timing_name(package, arg),
                    Action::Timing {
                        package,
                        example,
                        arg,
                    },
                ));
            }
        }
    }
}

fn timing_name(package: &str, arg: &str) -> String {
    if arg == TIMING_CONTROL {
        format!("dudect negative controls {package} {arg} (must be flagged)")
    } else {
        format!("dudect constant time {package} {arg}")
    }
}

/// The outcome of a timing leg whose example exited with `code` (see [`Action::Timing`]).
fn timing_outcome(arg: &'static str, code: Option<i32>, expected: Option<&[String]>) -> Outcome {
    let why = match code {
        Some(1) => "a leak: |t| over the threshold in two runs",
        Some(3) => "a negative control was not flagged: the harness cannot see a leak here",
        _ => "",
    };
    if !why.is_empty() {
        eprintln!("    exit {}: {why}", code.unwrap_or_default());
    }
    valgrind_outcome(Probe::Arg(arg), code, expected)
}

/// Runs `cargo build --message-format=json-render-diagnostics` and returns the executable of
/// example `example` (diagnostics go to stderr as usual).
/// The package name in a Cargo package id: `path+file:///dir/keccak#tessera-keccak@0.1.0`
/// (name after `#`), or `path+file:///dir/tessera#0.1.0` (the name is the directory's).
fn package_of(id: &str) -> Option<&str> {
    let (url, frag) = id.split_once('#')?;
    match frag.split_once('@') {
        Some((name, _)) => Some(name),
        None => url.rsplit('/').next(),
    }
}

/// [`Action::RunTests`]: the build, then each test executable of `packages` under `runner`.
fn run_tests(
    name: &str,
    build: &Cmd,
    packages: &[&str],
    runner: &[String],
    env: &[(String, String)],
) -> bool {
    eprintln!("\n=== leg: {name}\n    {build}");
    let Ok(out) = build
        .command()
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .output()
    else {
        return false;
    };
    if !out.status.success() {
        return false;
    }
    // (package, manifest directory, executable), in build order, each executable once.
    let mut exes: Vec<(String, PathBuf, PathBuf)> = Vec::new();
    for m in String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
    {
        if m["reason"] != "compiler-artifact" || m["profile"]["test"] != true {
            continue;
        }
        let (Some(id), Some(exe), Some(manifest)) = (
            m["package_id"].as_str(),
            m["executable"].as_str(),
            m["manifest_path"].as_str(),
        ) else {
            continue;
        };
        let Some(pkg) = package_of(id).filter(|p| packages.contains(p)) else {
            continue;
        };
        let exe = PathBuf::from(exe);
        if exes.iter().any(|(_, _, e)| *e == exe) {
            continue;
        }
        let dir = PathBuf::from(manifest)
            .parent()
            .map(PathBuf::from)
            .unwrap_or_else(root);
        exes.push((pkg.to_string(), dir, exe));
    }
    let mut ok = true;
    for p in packages {
        if !exes.iter().any(|(q, _, _)| q == p) {
            eprintln!("    no test executable of {p} in the build");
            ok = false;
        }
    }
    for (pkg, dir, exe) in &exes {
        let mut c = std::process::Command::new(&runner[0]);
        c.args(&runner[1..]).arg(exe).current_dir(dir);
        c.env("CARGO_MANIFEST_DIR", dir).env("CARGO_PKG_NAME", pkg);
        for (k, v) in env {
            c.env(k, v);
        }
        eprintln!(
            "     Running {} ({pkg}) under {}",
            exe.display(),
            runner.join(" ")
        );
        let passed = c.status().is_ok_and(|s| s.success());
        if !passed {
            eprintln!("    FAILED: {} ({pkg})", exe.display());
        }
        ok &= passed;
    }
    ok
}

fn build_example(name: &str, cmd: &Cmd, example: &str) -> (Option<PathBuf>, f64) {
    eprintln!("\n=== leg: {name}\n    {cmd}");
    let t = Instant::now();
    let out = cmd
        .command()
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .output();
    let secs = t.elapsed().as_secs_f64();
    let Ok(out) = out else {
        return (None, secs);
    };
    if !out.status.success() {
        return (None, secs);
    }
    let exe = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| {
            m["reason"] == "compiler-artifact"
                && m["target"]["name"] == example
                && m["target"]["kind"]
                    .as_array()
                    .is_some_and(|k| k.iter().any(|k| k == "example"))
        })
        .find_map(|m| m["executable"].as_str().map(PathBuf::from));
    if exe.is_none() {
        eprintln!("    the build reported no executable for example {example}");
    }
    (exe, secs)
}

/// The outcome of a valgrind run of `probe` that exited with `code`, given the backends
/// `TESSERA_EXPECT_BACKENDS` lists (`None`: not set).
fn valgrind_outcome(probe: Probe, code: Option<i32>, expected: Option<&[String]>) -> Outcome {
    match (probe, code) {
        (Probe::Canary, Some(1)) | (Probe::Arg(_), Some(0)) => Outcome::Pass,
        (Probe::Arg(arg), Some(2)) => {
            let backend = arg.rsplit(':').next().unwrap_or(arg);
            match expected {
                Some(exp) if exp.iter().any(|b| b == backend) => {
                    eprintln!(
                        "    exit 2: backend {backend} is not available under valgrind, but \
                         TESSERA_EXPECT_BACKENDS lists it"
                    );
                    Outcome::Fail
                }
                Some(_) => Outcome::Skip {
                    why: format!(
                        "this CPU, as valgrind presents it, lacks {backend}; \
                         TESSERA_EXPECT_BACKENDS does not list it"
                    ),
                    ci_failure: false,
                },
                None => Outcome::Skip {
                    why: format!(
                        "this CPU, as valgrind presents it, lacks {backend} \
                         (TESSERA_EXPECT_BACKENDS not set)"
                    ),
                    ci_failure: true,
                },
            }
        }
        (p, code) => {
            let want = if matches!(p, Probe::Canary) {
                "1 (memcheck must report the negative control)"
            } else {
                "0"
            };
            eprintln!("    exited with {code:?}, expected {want}");
            Outcome::Fail
        }
    }
}

/// The legs whose name contains `only` (all without it). A valgrind leg keeps the build leg
/// of its example, which it needs.
fn select(legs: Vec<Leg>, only: Option<&str>) -> Vec<Leg> {
    let Some(only) = only else {
        return legs;
    };
    let keep: Vec<bool> = legs.iter().map(|l| l.name.contains(only)).collect();
    let needed: Vec<(&str, &str)> = legs
        .iter()
        .zip(&keep)
        .filter_map(|(l, k)| match (&l.action, k) {
            (
                Action::Valgrind {
                    package, example, ..
                }
                | Action::Timing {
                    package, example, ..
                },
                true,
            ) => Some((*package, *example)),
            _ => None,
        })
        .collect();
    legs.into_iter()
        .zip(keep)
        .filter(|(l, k)| {
            *k || matches!(&l.action, Action::BuildExample { package, example, .. }
                if needed.contains(&(*package, *example)))
        })
        .map(|(l, _)| l)
        .collect()
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
            Action::RunTests {
                build,
                packages,
                runner,
                env,
            } => {
                println!("      {build}");
                let env: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v} ")).collect();
                println!(
                    "      then, from each package's directory: {}{} <each test executable of {}>",
                    env.concat(),
                    runner.join(" "),
                    packages.join(", ")
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

/// Runs the matrix and prints the table; true when every leg passed (and, under `CI`, none
/// was skipped).
pub fn test(quick: bool, only: Option<&str>) -> bool {
    println!("{}", tessera_cpu::features());
    cmd::warn_if_hooks_dropped();
    let mut built: HashMap<(&str, &str), PathBuf> = HashMap::new();
    let mut done = Vec::new();
    for l in select(plan(quick), only) {
        let t = Instant::now();
        let (outcome, secs) = match l.action {
            Action::Concurrent(cmds) => {
                done.extend(run_concurrently(cmds));
                continue;
            }
            Action::Run(c) => {
                let (code, secs) = c.run(&l.name);
                (pass_if(code == Some(0)), secs)
            }
            Action::RunTests {
                build,
                packages,
                runner,
                env,
            } => {
                let ok = run_tests(&l.name, &build, &packages, &runner, &env);
                (pass_if(ok), t.elapsed().as_secs_f64())
            }
            Action::Skip(why) => {
                eprintln!("\n!!! WARNING: leg {} SKIPPED: {why}", l.name);
                (
                    Outcome::Skip {
                        why,
                        ci_failure: true,
                    },
                    0.0,
                )
            }
            Action::Fail(why) => {
                eprintln!("\n!!! leg {} FAILED: {why}", l.name);
                (Outcome::Fail, 0.0)
            }
            Action::BuildExample {
                package,
                example,
                cmd,
            } => {
                let (exe, secs) = build_example(&l.name, &cmd, example);
                let ok = exe.is_some();
                if let Some(exe) = exe {
                    built.insert((package, example), exe);
                }
                (pass_if(ok), secs)
            }
            Action::Valgrind {
                package,
                example,
                probe,
            } => match built.get(&(package, example)) {
                Some(bin) => {
                    let c = valgrind_cmd(&bin.display().to_string(), probe.arg());
                    let (code, secs) = c.run(&l.name);
                    (
                        valgrind_outcome(probe, code, expected_backends().as_deref()),
                        secs,
                    )
                }
                None => (
                    Outcome::Skip {
                        why: format!("{package} example {example} did not build"),
                        ci_failure: true,
                    },
                    t.elapsed().as_secs_f64(),
                ),
            },
            Action::Timing {
                package,
                example,
                arg,
            } => match built.get(&(package, example)) {
                Some(bin) => {
                    let c = Cmd::tool(&bin.display().to_string(), &[arg]);
                    let (code, secs) = c.run(&l.name);
                    (
                        timing_outcome(arg, code, expected_backends().as_deref()),
                        secs,
                    )
                }
                None => (
                    Outcome::Skip {
                        why: format!("{package} example {example} did not build"),
                        ci_failure: true,
                    },
                    t.elapsed().as_secs_f64(),
                ),
            },
        };
        done.push(Done {
            name: l.name,
            outcome,
            secs,
        });
    }
    table(&done)
}

fn pass_if(ok: bool) -> Outcome {
    if ok { Outcome::Pass } else { Outcome::Fail }
}

/// Prints the result table and the `legs:` line; true when the run passed.
fn table(done: &[Done]) -> bool {
    println!("\n| leg | result | time |\n|---|---|---|");
    let mut ok = true;
    let (mut pass, mut fail, mut skipped) = (0, 0, 0);
    for l in done {
        let r = match &l.outcome {
            Outcome::Pass => {
                pass += 1;
                "pass".to_string()
            }
            Outcome::Fail => {
                fail += 1;
                ok = false;
                "FAIL".to_string()
            }
            Outcome::Skip { why, ci_failure } => {
                skipped += 1;
                let fails_ci = ci() && *ci_failure;
                ok &= !fails_ci;
                format!(
                    "SKIPPED ({why}){}",
                    if fails_ci {
                        " - a failure under CI"
                    } else {
                        ""
                    }
                )
            }
        };
        println!("| {} | {} | {:.0} s |", l.name, r, l.secs);
    }
    println!("\nlegs: {pass} passed, {fail} failed, {skipped} skipped");
    ok
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
