//! `cargo xtask bench [--full] [FILTER]`: the criterion benches of `tessera-benches` against
//! peers, reported as markdown tables (`cargo xtask bench soft`: only Tessera portable against
//! RustCrypto's software AES-GCM).

use crate::cmd::{self, Cmd, root};
use crate::report;

/// RustCrypto's software-only switches, for the `aes_gcm_soft` bench (Tessera `portable` against
/// RustCrypto `aes-gcm` on its software AES and POLYVAL). They must reach the `aes` and
/// `polyval` crates, so they are RUSTFLAGS of a build of their own (`target/soft`), which leaves
/// the main build's artefacts alone. RUSTFLAGS replaces the config's flags, so the build also
/// gets the test hooks again ([`cmd::rustflags_with_hooks`]).
const SOFT_RUSTFLAGS: &str = "--cfg aes_force_soft --cfg polyval_force_soft";

/// Criterion's timing arguments for every bench run.
fn bench_args(full: bool) -> Vec<&'static str> {
    if full {
        vec!["--warm-up-time", "3", "--measurement-time", "10"]
    } else {
        // Short enough that the ~200 rows of all primitives finish in under 10 minutes.
        vec![
            "--warm-up-time",
            "0.5",
            "--measurement-time",
            "1.5",
            "--sample-size",
            "20",
        ]
    }
}

/// Runs the benches (criterion writes to `target/criterion`) and prints one report. Two cargo
/// invocations: every bench of `tessera-benches` in the main build (where `aes_gcm_soft` skips
/// itself), then `aes_gcm_soft` alone in the `SOFT_RUSTFLAGS` build, writing to the same
/// criterion directory so its rows join the same tables. The filter `soft` runs only the
/// second one; a filter that cannot match its rows skips it (and its separate build).
pub fn bench(full: bool, filter: Option<&str>) -> bool {
    cmd::warn_if_hooks_dropped();
    let crit = root().join("target/criterion");
    let _ = std::fs::remove_dir_all(&crit);
    let soft_only = filter == Some("soft");
    if !soft_only {
        let c = Cmd::cargo(&["bench", "-p", "tessera-benches", "--"])
            .args(bench_args(full))
            .args(filter);
        if !c.run_ok("bench") {
            return false;
        }
    }
    if filter.is_none_or(soft_may_match) {
        let c = Cmd::cargo(&[
            "bench",
            "-p",
            "tessera-benches",
            "--bench",
            "aes_gcm_soft",
            "--",
        ])
        .args(bench_args(full))
        .args(filter.filter(|_| !soft_only))
        .env("RUSTFLAGS", cmd::rustflags_with_hooks(SOFT_RUSTFLAGS))
        .env(
            "CARGO_TARGET_DIR",
            root().join("target/soft").display().to_string(),
        )
        .env("CRITERION_HOME", crit.display().to_string());
        if !c.run_ok("bench (RustCrypto soft: aes_gcm_soft)") {
            return false;
        }
    } else {
        eprintln!(
            "\n=== leg: bench (RustCrypto soft: aes_gcm_soft) skipped: filter matches none of its rows"
        );
    }
    // The interleaved comparison (`compare.rs`: min-of-N rounds against the peers, alternating
    // implementations) runs here, after the criterion runs and before the report, so that its
    // tables can join the same report.
    report::write_report(&crit)
}

/// Whether a criterion filter (a regex) may select rows of `aes_gcm_soft`: anything with regex
/// syntax, or a substring of one of its benchmark ids (kept in step with the groups and
/// functions of `benches/benches/aes_gcm_soft.rs`).
fn soft_may_match(filter: &str) -> bool {
    if filter.chars().any(|c| "\\^$.*+?()[]{}|".contains(c)) {
        return true;
    }
    ["128", "256"].iter().any(|bits| {
        ["seal", "open"].iter().any(|op| {
            ["64B", "1KiB", "16KiB"].iter().any(|size| {
                ["tessera/portable", "aes-gcm/soft"].iter().any(|imp| {
                    format!("op=aes{bits}-gcm-{op}-soft,size={size}/impl={imp}").contains(filter)
                })
            })
        })
    })
}
