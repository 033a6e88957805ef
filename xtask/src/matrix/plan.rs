//! The plan: every leg of the matrix on this machine, in order (the constant-time legs in
//! `ct.rs`).

use super::*;

/// Every leg of the matrix on this machine, in order.
pub(super) fn plan(quick: bool) -> Vec<Leg> {
    let mut legs = vec![
        leg(
            "fmt --check",
            Action::Run(Cmd::cargo(&["fmt", "--all", "--check"])),
        ),
        leg(
            "clippy host (workspace, all targets, incl. benches check, trait features on)",
            Action::Run(Cmd::cargo(&[
                "clippy",
                "--workspace",
                "--all-targets",
                "--features",
                TRAIT_FEATURES,
                "--",
                "-D",
                "warnings",
            ])),
        ),
    ];

    // Native: every backend this CPU has must be exercised (CI names them).
    // Doctests too (no `--tests`); otherwise the build of WORKSPACE_TESTS.
    let mut native = Cmd::cargo(&[
        "test",
        "--workspace",
        "--exclude",
        "tessera-benches",
        "--features",
        TRAIT_FEATURES,
    ]);
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
        "native tests (expected backends asserted, trait features on)",
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
        "forced portable (TESSERA_FORCE_BACKEND, trait features on)",
        Action::Run(
            Cmd::cargo(&WORKSPACE_TESTS)
                .env("TESSERA_FORCE_BACKEND", "portable")
                .env("TESSERA_EXPECT_BACKENDS", "portable"),
        ),
    ));
    // The build-time switch a user would set: every token compiled out. The switch changes
    // only what detection answers (`tessera-cpu`'s `forced_portable`, a `cfg!`) and which test
    // files are built (the peers' differential tests are left out), so what runs under it is
    // what the forced-portable leg runs: here every portable crate and its tests compile with
    // it (a check, in a target directory of its own: RUSTFLAGS changes every crate's hash),
    // and tessera-cpu's tests prove that detection reports no token at all. RUSTFLAGS replaces
    // the config's flags, hence the test hooks again.
    let cfg_portable = |c: Cmd| {
        c.env(
            "RUSTFLAGS",
            cmd::rustflags_with_hooks("--cfg tessera_backend=\"portable\""),
        )
        .env(
            "CARGO_TARGET_DIR",
            root().join("target/cfg-portable").display().to_string(),
        )
        .env("TESSERA_EXPECT_BACKENDS", "portable")
    };
    legs.push(leg(
        "cfg portable (--cfg tessera_backend=\"portable\"): every portable crate and its tests compile",
        Action::Run(cfg_portable(
            Cmd::cargo(&["check", "--tests"]).packages(&portable),
        )),
    ));
    legs.push(leg(
        "cfg portable (--cfg tessera_backend=\"portable\"): detection reports no token",
        Action::Run(cfg_portable(Cmd::cargo(&["test", "-p", "tessera-cpu"]))),
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
        // Each CPU runs its crates' dispatch tests (see `DISPATCH_TESTS`) from the native
        // leg's build (`Action::RunTests`) rather than a `-p` subset, which would rebuild with
        // other dependency features.
        let runner = format!("qemu-x86_64 -cpu {cpu}");
        let action = Action::RunTests(TestRun {
            build: no_run(Cmd::cargo(&WORKSPACE_TESTS)),
            packages: crates::packages(|c| c.qemu_x86.runs_on(cpu)),
            runner: runner.split(' ').map(String::from).collect(),
            env: vec![("TESSERA_EXPECT_BACKENDS".into(), expect.into())],
        });
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
                Action::RunTests(TestRun {
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
                })
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
    // lines of the s390x build carry `--cfg tessera_test_hooks`), so the test hooks reach Miri
    // without a RUSTFLAGS of its own.
    // Miri runs the portable path of every crate (`detect()` is `None` under Miri on every
    // target), on big-endian s390x: a host (x86_64) run would interpret the same code with the
    // same checks, little-endian only, so the s390x run covers it. Miri interprets on one core:
    // the crates are split into two halves of about equal time, run at the same time, each
    // building in a directory of its own.
    let miri_ok = cmd::have_miri();
    let halves = [
        (
            "miri s390x (big-endian), first half",
            "a",
            miri_half(&portable, true),
        ),
        (
            "miri s390x (big-endian), second half",
            "b",
            miri_half(&portable, false),
        ),
    ];
    if !miri_ok {
        for (name, ..) in halves {
            legs.push(leg(
                name,
                Action::Skip(
                    "nightly miri not installed (rustup component add miri rust-src --toolchain nightly)"
                        .into(),
                ),
            ));
        }
    } else {
        let miri = halves
            .into_iter()
            .map(|(name, dir, packages)| {
                let c = Cmd::tool("cargo", &["+nightly", "miri", "test", "--lib"])
                    .args(["--target", S390X])
                    .env(
                        "CARGO_TARGET_DIR",
                        root()
                            .join(format!("target/miri-s390x-{dir}"))
                            .display()
                            .to_string(),
                    )
                    .packages(&packages);
                (name.to_string(), c)
            })
            .collect();
        legs.push(leg(
            "miri s390x, both halves concurrently",
            Action::Concurrent(miri),
        ));
    }

    // Coverage-guided and differential fuzzing (`fuzz/`, cargo-fuzz on nightly): one build of
    // every target, then each for a short fixed budget. `cargo xtask fuzz` installs cargo-fuzz
    // when it is missing and fails when it cannot, so the leg never passes without running.
    let secs = crate::fuzz::CI_SECONDS.to_string();
    legs.push(leg(
        format!(
            "fuzz: every target {secs} s ({} sanitizer)",
            crate::fuzz::CI_SANITIZER
        ),
        Action::Run(Cmd::cargo(&[
            "xtask",
            "fuzz",
            "--seconds",
            &secs,
            "--sanitizer",
            crate::fuzz::CI_SANITIZER,
        ])),
    ));
    legs
}

/// The crates of the first Miri half (the rest of `portable` is the second), about equal in
/// Miri time: ML-DSA's unit tests (one key generation and signature, the longest of any crate)
/// with the hashes, the AEADs, X25519 and X-Wing, against the umbrella's HPKE unit tests, P-256
/// and ML-KEM.
const MIRI_FIRST_HALF: [&str; 8] = [
    "tessera-cpu",
    "tessera-keccak",
    "tessera-sha2",
    "tessera-aes-gcm",
    "tessera-x25519",
    "tessera-chacha20poly1305",
    "tessera-xwing",
    "tessera-mldsa",
];

/// The `first` or the second Miri half of `portable`; a crate in neither list goes to the
/// second half.
fn miri_half(portable: &[&'static str], first: bool) -> Vec<&'static str> {
    portable
        .iter()
        .copied()
        .filter(|p| MIRI_FIRST_HALF.contains(p) == first)
        .collect()
}
