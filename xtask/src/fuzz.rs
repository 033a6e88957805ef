//! `cargo xtask fuzz [TARGET] [--seconds N] [--jobs J] [--sanitizer S]`: coverage-guided and
//! differential fuzzing of the `fuzz/` crate (cargo-fuzz, libFuzzer, nightly).
//!
//! 1. Installs what is missing: cargo-fuzz (`cargo install cargo-fuzz --locked`) and the
//!    nightly toolchain; a failed install is a failure, never a skip.
//! 2. Builds every target in one `cargo +nightly fuzz build` (one dependency build for all),
//!    optimized, with debug assertions, the sanitizer `S` (`address` by default, `none` for a
//!    faster build) and this workspace's test hooks (`--cfg tessera_test_hooks`, which a
//!    `RUSTFLAGS` variable would otherwise drop).
//! 3. Runs each target (or TARGET alone) for N seconds (default 20), J at a time (default: the
//!    number of cores; libFuzzer runs on one), from the seed corpus `fuzz/corpus/<target>`
//!    into the working corpus `target/fuzz/corpus/<target>` (kept between runs). A crash,
//!    sanitizer report, per-input timeout (`-timeout`, 30 s) or differential mismatch (an
//!    assertion in the target) exits non-zero: the target fails, its input is saved under
//!    `target/fuzz/artifacts/<target>/` and its log (`target/fuzz/logs/<target>.log`) is
//!    printed.
//! 4. Prints one row per target: executions, coverage (libFuzzer's `cov`: edges; `ft`:
//!    features) and corpus size, from libFuzzer's final `DONE` line.
//!
//! `cargo xtask fuzz --seconds 3600` is the long run; `cargo xtask test` runs the short one.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::Instant;

use crate::cmd::{Cmd, root, rustflags_with_hooks};

/// The fuzz targets (`fuzz/fuzz_targets/<name>.rs`, one `[[bin]]` each in fuzz/Cargo.toml).
pub const TARGETS: [&str; 8] = [
    "hash", "aead", "x25519", "p256", "mlkem", "mldsa", "hpke", "rustls",
];

/// The per-target budget of `cargo xtask test`'s fuzz leg, in seconds.
pub const CI_SECONDS: u32 = 20;

/// The sanitizer of `cargo xtask test`'s fuzz leg.
pub const CI_SANITIZER: &str = "address";

/// The options of one run.
pub struct Options<'a> {
    pub target: Option<&'a str>,
    pub seconds: u32,
    pub jobs: usize,
    pub sanitizer: &'a str,
}

impl<'a> Options<'a> {
    /// Parses `[TARGET] [--seconds N] [--jobs J] [--sanitizer S]` (the arguments after `fuzz`).
    pub fn parse(args: &'a [String]) -> Result<Self, String> {
        let mut o = Options {
            target: None,
            seconds: CI_SECONDS,
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            sanitizer: "address",
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = || {
                it.next()
                    .map(String::as_str)
                    .ok_or(format!("{a} needs a value"))
            };
            match a.as_str() {
                "--seconds" => {
                    o.seconds = value()?.parse().map_err(|e| format!("--seconds: {e}"))?
                }
                "--jobs" => o.jobs = value()?.parse().map_err(|e| format!("--jobs: {e}"))?,
                "--sanitizer" => o.sanitizer = value()?,
                t if !t.starts_with("--") && o.target.is_none() => {
                    if !TARGETS.contains(&t) {
                        return Err(format!(
                            "unknown target {t} (targets: {})",
                            TARGETS.join(", ")
                        ));
                    }
                    o.target = Some(t);
                }
                other => return Err(format!("unexpected argument {other}")),
            }
        }
        o.jobs = o.jobs.max(1);
        Ok(o)
    }
}

/// The `cargo +nightly fuzz build` of every target, with the test hooks.
pub fn build_cmd(sanitizer: &str) -> Cmd {
    Cmd::tool(
        "cargo",
        &[
            "+nightly",
            "fuzz",
            "build",
            "-O",
            "--debug-assertions",
            "--sanitizer",
            sanitizer,
            "--fuzz-dir",
            "fuzz",
        ],
    )
    .env("RUSTFLAGS", rustflags_with_hooks(""))
}

fn have_cargo_fuzz() -> bool {
    Command::new("cargo")
        .args(["+nightly", "fuzz", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Installs the nightly toolchain and cargo-fuzz when missing; false when that fails.
fn install() -> bool {
    let nightly = Command::new("cargo")
        .args(["+nightly", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !nightly
        && !Cmd::tool(
            "rustup",
            &["toolchain", "install", "nightly", "--profile", "minimal"],
        )
        .run_ok("fuzz: install the nightly toolchain")
    {
        eprintln!("FAIL: the nightly toolchain is missing and could not be installed");
        return false;
    }
    if !have_cargo_fuzz()
        && !Cmd::tool("cargo", &["install", "cargo-fuzz", "--locked"])
            .run_ok("fuzz: install cargo-fuzz")
    {
        eprintln!("FAIL: cargo-fuzz is missing and `cargo install cargo-fuzz --locked` failed");
        return false;
    }
    have_cargo_fuzz()
}

/// The host triple (cargo-fuzz builds for it, under `fuzz/target/<triple>/release`).
fn host() -> Option<String> {
    let out = Command::new("rustc")
        .args(["+nightly", "-vV"])
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
}

/// One target's outcome.
struct Row {
    target: &'static str,
    ok: bool,
    secs: f64,
    /// libFuzzer's final `#N DONE cov: C ft: F corp: K/...` line, parsed.
    execs: Option<u64>,
    cov: Option<u64>,
    ft: Option<u64>,
    corp: Option<u64>,
}

/// The number after `key` (`cov: 123` -> 123) in a libFuzzer status line.
fn field(line: &str, key: &str) -> Option<u64> {
    let rest = &line[line.find(key)? + key.len()..];
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Whether `line` is libFuzzer's final status line (`#N<TAB>DONE   cov: ...`): the run ended
/// by its time budget, not by a crash.
fn finished(line: &str) -> bool {
    line.starts_with('#') && line.split_whitespace().nth(1) == Some("DONE")
}

/// The executions, `cov`, `ft` and corpus size of the last status line of a log.
fn stats(log: &str) -> (Option<u64>, Option<u64>, Option<u64>, Option<u64>) {
    let execs = log
        .lines()
        .rev()
        .find_map(|l| field(l, "stat::number_of_executed_units:"));
    let last = log
        .lines()
        .rev()
        .find(|l| l.starts_with('#') && l.contains("cov: "));
    match last {
        Some(l) => (
            execs.or_else(|| field(l, "#")),
            field(l, "cov:"),
            field(l, "ft:"),
            field(l, "corp:"),
        ),
        None => (execs, None, None, None),
    }
}

/// Runs one built target for `seconds`, its output in `target/fuzz/logs/<t>.log`.
fn run_one(bin: &Path, t: &'static str, seconds: u32) -> Row {
    let work = root().join("target/fuzz");
    let corpus = work.join("corpus").join(t);
    let artifacts = work.join("artifacts").join(t);
    let logs = work.join("logs");
    for d in [&corpus, &artifacts, &logs] {
        let _ = std::fs::create_dir_all(d);
    }
    let seeds = root().join("fuzz/corpus").join(t);
    let log = logs.join(format!("{t}.log"));
    let mut c = Command::new(bin);
    c.arg(format!("-max_total_time={seconds}"))
        .arg("-timeout=30")
        .arg("-print_final_stats=1")
        .arg(format!("-artifact_prefix={}/", artifacts.display()))
        .arg(&corpus);
    if seeds.is_dir() {
        c.arg(&seeds);
    }
    eprintln!("    {t}: {}", log.display());
    let start = Instant::now();
    let status = std::fs::File::create(&log).and_then(|f| {
        let e = f.try_clone()?;
        c.current_dir(root()).stdout(f).stderr(e).status()
    });
    let secs = start.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let (execs, cov, ft, corp) = stats(&text);
    let done = text.lines().any(finished);
    let ok = status.is_ok_and(|s| s.success()) && done;
    if !ok {
        let tail: Vec<&str> = text.lines().rev().take(60).collect();
        eprintln!("\n=== FAILED fuzz target {t} (log {}):", log.display());
        for l in tail.iter().rev() {
            eprintln!("{l}");
        }
    }
    Row {
        target: t,
        ok,
        secs,
        execs,
        cov,
        ft,
        corp,
    }
}

/// `cargo xtask fuzz`: install, build, run, print the table; true when every target passed.
pub fn run(args: &[String]) -> bool {
    let o = match Options::parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!(
                "{e}\nusage: cargo xtask fuzz [TARGET] [--seconds N] [--jobs J] [--sanitizer address|none]"
            );
            return false;
        }
    };
    if !install() {
        return false;
    }
    let t = Instant::now();
    if !build_cmd(o.sanitizer).run_ok("fuzz: build every target") {
        eprintln!("FAIL: the fuzz targets did not build");
        return false;
    }
    let build_secs = t.elapsed().as_secs_f64();
    let Some(host) = host() else {
        eprintln!("FAIL: no host triple from `rustc +nightly -vV`");
        return false;
    };
    let dir: PathBuf = root().join("fuzz/target").join(host).join("release");
    let targets: Vec<&'static str> = TARGETS
        .iter()
        .copied()
        .filter(|t| o.target.is_none_or(|x| x == *t))
        .collect();
    eprintln!(
        "\n=== fuzz: {} target(s), {} s each, {} at a time",
        targets.len(),
        o.seconds,
        o.jobs
    );
    let queue = Mutex::new(targets.clone());
    let rows = Mutex::new(Vec::new());
    let t = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..o.jobs.min(targets.len()) {
            s.spawn(|| {
                loop {
                    let next = queue.lock().unwrap_or_else(|e| e.into_inner()).pop();
                    let Some(tg) = next else { break };
                    let row = run_one(&dir.join(tg), tg, o.seconds);
                    rows.lock().unwrap_or_else(|e| e.into_inner()).push(row);
                }
            });
        }
    });
    let run_secs = t.elapsed().as_secs_f64();
    let mut rows = rows.into_inner().unwrap_or_else(|e| e.into_inner());
    rows.sort_by_key(|r| TARGETS.iter().position(|t| *t == r.target));
    let show = |v: Option<u64>| v.map_or("?".to_string(), |v| v.to_string());
    println!(
        "\n| fuzz target | result | seconds | executions | cov (edges) | ft | corpus |\n|---|---|---|---|---|---|---|"
    );
    for r in &rows {
        println!(
            "| {} | {} | {:.0} | {} | {} | {} | {} |",
            r.target,
            if r.ok { "pass" } else { "FAIL" },
            r.secs,
            show(r.execs),
            show(r.cov),
            show(r.ft),
            show(r.corp)
        );
    }
    println!(
        "\nfuzz: build {build_secs:.0} s, runs {run_secs:.0} s ({} sanitizer)",
        o.sanitizer
    );
    rows.iter().all(|r| r.ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_of_a_libfuzzer_log() {
        let log = "INFO: Seed: 1\n\
                   #2\tINITED cov: 10 ft: 11 corp: 1/1b exec/s: 0 rss: 30Mb\n\
                   #81316\tDONE   cov: 3422 ft: 5695 corp: 276/24Kb lim: 191 exec/s: 5082 rss: 406Mb\n\
                   stat::number_of_executed_units: 81317\n";
        assert_eq!(stats(log), (Some(81317), Some(3422), Some(5695), Some(276)));
        assert_eq!(stats("no status"), (None, None, None, None));
        assert!(log.lines().any(finished));
        assert!(!"#2\tINITED cov: 10".lines().any(finished));
    }

    #[test]
    fn options() {
        let args: Vec<String> = ["mlkem", "--seconds", "600", "--jobs", "1"]
            .map(String::from)
            .into();
        let o = Options::parse(&args).unwrap();
        assert_eq!((o.target, o.seconds, o.jobs), (Some("mlkem"), 600, 1));
        let bad: Vec<String> = ["nope".to_string()].into();
        assert!(Options::parse(&bad).is_err());
    }

    /// Every target of the list has its source, and every source is listed.
    #[test]
    fn targets_match_the_fuzz_crate() {
        let dir = root().join("fuzz/fuzz_targets");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| {
                let p = e.ok()?.path();
                (p.extension()? == "rs").then(|| p.file_stem()?.to_str().map(String::from))?
            })
            .collect();
        files.sort();
        let mut listed: Vec<String> = TARGETS.map(String::from).into();
        listed.sort();
        assert_eq!(files, listed);
    }
}
