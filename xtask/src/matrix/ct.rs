//! The constant-time legs: valgrind memcheck of the examples and the statistical (dudect)
//! timing tests, with the outcome of each run.

use super::*;

/// `valgrind` memcheck on `bin ARG`: any branch or index on secret data exits 1. Superblocks
/// of at most 20 guest instructions (default 50): ML-DSA's AVX2 signing island is long
/// straight-line vector code whose instrumented translation exhausted VEX's temporary storage
/// ("the 'impossible' happened") at the default; the limit changes how code is cut into
/// translations, not what memcheck checks.
pub(super) fn valgrind_cmd(bin: &str, arg: &str) -> Cmd {
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

/// The release build of `package`'s example `example` that the `kind` (`valgrind`,
/// `dudect`) legs after it run; the build's JSON messages name the binary. Each builds every
/// example of the package (`--examples`): the first one compiles them all in parallel, and
/// the ones after it find theirs fresh.
fn build_example_leg(kind: &str, package: &'static str, example: &'static str) -> Leg {
    leg(
        format!("{kind}: build {package} example {example}"),
        Action::BuildExample {
            package,
            example,
            cmd: Cmd::cargo(&[
                "build",
                "--release",
                "-p",
                package,
                "--examples",
                "--message-format=json-render-diagnostics",
            ]),
        },
    )
}

/// Constant-time checks under valgrind memcheck: per example of the table, a release build,
/// then one leg per argument and the negative control.
pub(super) fn valgrind_legs(legs: &mut Vec<Leg>) {
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
            legs.push(build_example_leg("valgrind", package, example));
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

pub(super) fn valgrind_name(package: &str, example: &str, p: Probe) -> String {
    match p {
        Probe::Arg(a) => format!("valgrind constant time {package} {example} {a}"),
        Probe::Canary => {
            format!("valgrind negative control {package} {example} canary (must be reported)")
        }
    }
}

/// The argument of a timing example that runs its negative controls (exit 0 when flagged).
pub(super) const TIMING_CONTROL: &str = "control";

/// Statistical constant-time tests (dudect) of the backends valgrind cannot run: per example of
/// the table, a release build, the negative controls, then one leg per target. Native runs on
/// x86_64 only (the targets are x86 backends; each leg measures for a few seconds).
pub(super) fn timing_legs(legs: &mut Vec<Leg>) {
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
            legs.push(build_example_leg("dudect", package, example));
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

pub(super) fn timing_name(package: &str, arg: &str) -> String {
    if arg == TIMING_CONTROL {
        format!("dudect negative controls {package} {arg} (must be flagged)")
    } else {
        format!("dudect constant time {package} {arg}")
    }
}

/// The outcome of a timing leg whose example exited with `code` (see [`Action::Timing`]).
pub(super) fn timing_outcome(
    arg: &'static str,
    code: Option<i32>,
    expected: Option<&[String]>,
) -> Outcome {
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

/// The outcome of a valgrind run of `probe` that exited with `code`, given the backends
/// `TESSERA_EXPECT_BACKENDS` lists (`None`: not set).
pub(super) fn valgrind_outcome(
    probe: Probe,
    code: Option<i32>,
    expected: Option<&[String]>,
) -> Outcome {
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
