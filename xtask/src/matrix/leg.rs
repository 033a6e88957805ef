//! A leg of the matrix: what it does, its outcome, and the selection by name.

use super::*;

/// What a leg does.
pub(super) enum Action {
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
    /// Runs the dispatch test executables from an earlier build ([`TestRun`]).
    RunTests(TestRun),
    /// Legs whose commands run at the same time, each one passing when it exits 0: for
    /// single-threaded work (Miri interprets on one core) on this 2-core machine. Each command
    /// needs a build directory of its own (cargo locks one for the whole run); its output goes
    /// to a log file, printed when all have ended. Each is one row of the table.
    Concurrent(Vec<(String, Cmd)>),
}

/// Runs the test executables of `packages` from a build of a larger selection: `build` is
/// `cargo test --no-run --message-format=json...` of the selection an earlier leg already
/// built (so nothing is compiled again: Cargo unifies dependency features over the
/// selected packages, and a `-p` subset rebuilds most of the workspace with other
/// features); each executable of those packages (unit and integration tests) then runs
/// under `runner` with `env`, from its package's directory, as `cargo test` runs it. Passes
/// when the build and every executable exit 0 and every package had an executable.
pub(super) struct TestRun {
    pub(super) build: Cmd,
    pub(super) packages: Vec<&'static str>,
    pub(super) runner: Vec<String>,
    pub(super) env: Vec<(String, String)>,
}

/// The argument of a valgrind leg.
#[derive(Clone, Copy)]
pub(super) enum Probe {
    /// A backend argument from the table: must exit 0. Exit 2 (this CPU lacks the backend) is
    /// a failure when `TESSERA_EXPECT_BACKENDS` lists the backend, a skip otherwise.
    Arg(&'static str),
    /// The negative control: memcheck must report it (exit 1).
    Canary,
}

impl Probe {
    pub(super) fn arg(self) -> &'static str {
        match self {
            Probe::Arg(a) => a,
            Probe::Canary => "canary",
        }
    }
}

pub(super) struct Leg {
    pub(super) name: String,
    pub(super) action: Action,
}

/// The umbrella crate's trait features (RustCrypto `digest`, `aead`, `kem`, `signature`, PKCS#8 /
/// SPKI with PEM), which turn on the same features of every primitive crate. The host clippy leg,
/// the native and forced-portable legs and the emulated x86 CPUs build with them (one build, so
/// every trait impl runs on every x86 backend); the cfg-portable, no_std, aarch64 and Miri legs
/// build the primitives' default features, without them.
pub(super) const TRAIT_FEATURES: &str =
    "tessera/digest,tessera/aead,tessera/kem,tessera/signature,tessera/pkcs8,tessera/pem";

/// `cargo test --tests` of the whole workspace but the benches, trait features on: the
/// selection the native leg builds, which the Haswell leg runs under qemu and the other x86 CPUs
/// reuse.
pub(super) const WORKSPACE_TESTS: [&str; 7] = [
    "test",
    "--tests",
    "--workspace",
    "--exclude",
    "tessera-benches",
    "--features",
    TRAIT_FEATURES,
];

/// `c` (a `cargo test` selection) as the build of an [`Action::RunTests`] leg: compile only,
/// and list the test executables as JSON.
pub(super) fn no_run(c: Cmd) -> Cmd {
    c.args(["--no-run", "--message-format=json-render-diagnostics"])
}

pub(super) fn leg(name: impl Into<String>, action: Action) -> Leg {
    Leg {
        name: name.into(),
        action,
    }
}

pub(super) enum Outcome {
    Pass,
    Fail,
    /// Not run. `ci_failure`: whether it fails a CI run (every skip does, except a valgrind
    /// backend this CPU lacks when `TESSERA_EXPECT_BACKENDS` says it lacks it).
    Skip {
        why: String,
        ci_failure: bool,
    },
}

pub(super) struct Done {
    pub(super) name: String,
    pub(super) outcome: Outcome,
    pub(super) secs: f64,
}

/// The legs whose name contains `only` (all without it). A valgrind leg keeps the build leg
/// of its example, which it needs.
pub(super) fn select(legs: Vec<Leg>, only: Option<&str>) -> Vec<Leg> {
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

pub(super) fn pass_if(ok: bool) -> Outcome {
    if ok { Outcome::Pass } else { Outcome::Fail }
}
