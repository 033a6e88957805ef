//! `cargo xtask test [--quick]`: the whole test matrix, ending with one table.
//! `cargo xtask bench [--full] [FILTER]`: criterion benches against peers, as markdown tables
//! (`cargo xtask bench soft`: only Tessera portable against RustCrypto's software AES-GCM).
//! `cargo xtask vectors`: checks the sha256 of the official vector files against the manifest.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Crates with portable code that Miri and the emulated legs run.
const PRIMITIVES: &[&str] = &[
    "tessera-cpu",
    "tessera-keccak",
    "tessera-sha2",
    "tessera-aes-gcm",
];
/// Crates that have x86 backends (run under qemu-x86_64 CPUs).
/// A bare-metal target without std or an allocator.
const NO_STD: &str = "thumbv7em-none-eabihf";

const X86_CRATES: &[&str] = &[
    "tessera-cpu",
    "tessera-keccak",
    "tessera-sha2",
    "tessera-aes-gcm",
];

// Backend names are shared across crates; each crate checks only the names it knows
// (its `Backend::KNOWN`), so one exact list per CPU covers the whole workspace.
/// qemu-x86_64 -cpu Westmere: AES-NI + PCLMULQDQ, no AVX, no BMI.
const X86_WESTMERE: &str = "portable,x86_aesni";
/// qemu-x86_64 -cpu Haswell: AVX2, BMI1/2, AES-NI; no SHA-NI (qemu 7.2), no VAES.
const X86_HASWELL: &str = "portable,x86_avx2,x86_bmi,x86_aesni";
/// QEMU_CPU=max: every aarch64 extension Tessera uses.
const AARCH64_MAX: &str = "portable,aarch64_neon,aarch64_sha2,aarch64_sha3,aarch64_aes";
/// QEMU_CPU=cortex-a53: ARMv8.0 crypto (AES/PMULL, SHA-256), no SHA3/SHA512.
const AARCH64_A53: &str = "portable,aarch64_neon,aarch64_sha2,aarch64_aes";
const AARCH64: &str = "aarch64-unknown-linux-gnu";
/// Constant-time checks under valgrind memcheck: (package, example, features, backends). Each
/// example marks keys and plaintexts undefined with client requests, refuses to run outside
/// valgrind, and takes `canary` as a negative control that branches on a secret byte (memcheck
/// must report it: exit code 1).
const VALGRIND_CT: &[(&str, &str, &str, &[&str])] = &[(
    "tessera-aes-gcm",
    "ct_valgrind",
    "__testing",
    &["portable", "x86_aesni"],
)];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn ci() -> bool {
    std::env::var_os("CI").is_some()
}

fn have(tool: &str, arg: &str) -> bool {
    Command::new(tool)
        .arg(arg)
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn has_target(t: &str) -> bool {
    Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .any(|l| l.trim() == t)
        })
        .unwrap_or(false)
}

enum Outcome {
    Pass,
    Fail,
    Skip(String),
}

struct Leg {
    name: String,
    outcome: Outcome,
    secs: f64,
}

fn run(name: &str, cmd: &mut Command) -> Leg {
    eprintln!("\n=== leg: {name}\n    {cmd:?}");
    let t = Instant::now();
    let ok = cmd
        .current_dir(root())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    Leg {
        name: name.into(),
        outcome: if ok { Outcome::Pass } else { Outcome::Fail },
        secs: t.elapsed().as_secs_f64(),
    }
}

fn skip(name: &str, why: &str) -> Leg {
    eprintln!("\n!!! WARNING: leg {name} SKIPPED: {why}");
    Leg {
        name: name.into(),
        outcome: Outcome::Skip(why.into()),
        secs: 0.0,
    }
}

fn cargo(args: &[&str]) -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.args(args);
    c
}

fn with_pkgs(mut c: Command, pkgs: &[&str]) -> Command {
    for p in pkgs {
        c.args(["-p", p]);
    }
    c
}

fn test(quick: bool) -> bool {
    println!("{}", tessera_cpu::features());
    let mut legs = Vec::new();
    legs.push(run("fmt --check", &mut cargo(&["fmt", "--all", "--check"])));
    legs.push(run(
        "clippy host (workspace, all targets, incl. benches check)",
        &mut cargo(&[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
    ));
    // Native: every backend this CPU has must be exercised (CI names them).
    let mut native = cargo(&["test", "--workspace", "--exclude", "tessera-benches"]);
    if let Ok(v) = std::env::var("TESSERA_EXPECT_BACKENDS") {
        native.env("TESSERA_EXPECT_BACKENDS", v);
    } else if ci() {
        eprintln!(
            "CI without TESSERA_EXPECT_BACKENDS: the native leg cannot prove its backends ran"
        );
        legs.push(Leg {
            name: "native expectations".into(),
            outcome: Outcome::Fail,
            secs: 0.0,
        });
    }
    legs.push(run(
        "native tests (expected backends asserted)",
        &mut native,
    ));
    if !quick {
        let mut forced = with_pkgs(cargo(&["test", "--tests"]), PRIMITIVES);
        forced
            .env("TESSERA_FORCE_BACKEND", "portable")
            .env("TESSERA_EXPECT_BACKENDS", "portable");
        legs.push(run("forced portable (TESSERA_FORCE_BACKEND)", &mut forced));

        // The build-time switch a user would set: every token compiled out.
        let mut cfg = with_pkgs(cargo(&["test", "--tests"]), PRIMITIVES);
        cfg.env("RUSTFLAGS", "--cfg tessera_backend=\"portable\"")
            .env("CARGO_TARGET_DIR", root().join("target/cfg-portable"))
            .env("TESSERA_EXPECT_BACKENDS", "portable");
        legs.push(run(
            "cfg portable (--cfg tessera_backend=\"portable\")",
            &mut cfg,
        ));

        // Emulated x86 CPUs run the real dispatcher; the expected set is exact.
        for (cpu, expect) in [
            ("Nehalem", "portable"),
            ("Westmere", X86_WESTMERE),
            ("Haswell", X86_HASWELL),
        ] {
            let name = format!("qemu-x86_64 -cpu {cpu}");
            if !have("qemu-x86_64", "--version") {
                legs.push(skip(
                    &name,
                    "qemu-x86_64 not installed (apt-get install qemu-user)",
                ));
                continue;
            }
            let mut c = with_pkgs(cargo(&["test", "--tests"]), X86_CRATES);
            c.env(
                "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER",
                format!("qemu-x86_64 -cpu {cpu}"),
            )
            .env("TESSERA_EXPECT_BACKENDS", expect);
            legs.push(run(&name, &mut c));
        }

        // no_std: the primitives build for a bare-metal target (no std, no allocator), so a
        // stray `std::` outside the `std` feature fails here and not in a user's firmware.
        if has_target(NO_STD) {
            legs.push(run(
                "no_std build (thumbv7em-none-eabihf)",
                &mut with_pkgs(cargo(&["check", "--lib", "--target", NO_STD]), PRIMITIVES),
            ));
        } else {
            legs.push(skip(
                "no_std build (thumbv7em-none-eabihf)",
                "rustup target add thumbv7em-none-eabihf",
            ));
        }

        let aarch64_ok = has_target(AARCH64)
            && have("aarch64-linux-gnu-gcc", "--version")
            && have("qemu-aarch64", "--version");
        if aarch64_ok {
            let mut c = with_pkgs(
                cargo(&["clippy", "--target", AARCH64, "--all-targets"]),
                &[
                    "tessera-cpu",
                    "tessera-testkit",
                    "tessera-keccak",
                    "tessera-sha2",
                    "tessera-aes-gcm",
                ],
            );
            c.args(["--", "-D", "warnings"]);
            legs.push(run("clippy aarch64", &mut c));
            for (cpu, expect) in [("max", AARCH64_MAX), ("cortex-a53", AARCH64_A53)] {
                let mut c = with_pkgs(cargo(&["test", "--tests", "--target", AARCH64]), PRIMITIVES);
                c.env("QEMU_CPU", cpu)
                    .env("TESSERA_EXPECT_BACKENDS", expect);
                legs.push(run(&format!("aarch64 qemu QEMU_CPU={cpu}"), &mut c));
            }
        } else {
            let why = "needs rustup target aarch64-unknown-linux-gnu, aarch64-linux-gnu-gcc, qemu-aarch64";
            legs.push(skip("clippy aarch64", why));
            legs.push(skip("aarch64 qemu QEMU_CPU=max", why));
            legs.push(skip("aarch64 qemu QEMU_CPU=cortex-a53", why));
        }

        valgrind_legs(&mut legs);

        let miri_ok = Command::new("cargo")
            .args(["+nightly", "miri", "--version"])
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        for (name, target) in [
            ("miri host", None),
            ("miri s390x (big-endian)", Some("s390x-unknown-linux-gnu")),
        ] {
            if !miri_ok {
                legs.push(skip(name, "nightly miri not installed (rustup component add miri rust-src --toolchain nightly)"));
                continue;
            }
            let mut c = Command::new("cargo");
            c.args(["+nightly", "miri", "test", "--lib"]);
            if let Some(t) = target {
                c.args(["--target", t]);
            }
            for p in PRIMITIVES {
                c.args(["-p", p]);
            }
            legs.push(run(name, &mut c));
        }
    }

    println!("\n| leg | result | time |\n|---|---|---|");
    let mut ok = true;
    let (mut pass, mut fail, mut skipped) = (0, 0, 0);
    for l in &legs {
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
            Outcome::Skip(why) => {
                skipped += 1;
                if ci() {
                    ok = false;
                }
                format!(
                    "SKIPPED ({why}){}",
                    if ci() { " - a failure under CI" } else { "" }
                )
            }
        };
        println!("| {} | {} | {:.0} s |", l.name, r, l.secs);
    }
    println!("\nlegs: {pass} passed, {fail} failed, {skipped} skipped");
    ok
}

/// Builds each constant-time example (release) and runs it under
/// `valgrind --error-exitcode=1` once per backend: any branch or index on secret data fails.
fn valgrind_legs(legs: &mut Vec<Leg>) {
    for (pkg, example, features, backends) in VALGRIND_CT {
        let names: Vec<String> = backends
            .iter()
            .map(|b| format!("valgrind constant time {pkg} {b}"))
            .chain([format!(
                "valgrind negative control {pkg} canary (must be reported)"
            )])
            .collect();
        if !cfg!(target_arch = "x86_64") {
            for n in &names {
                legs.push(skip(n, "the client request helper is x86_64-only"));
            }
            continue;
        }
        if !have("valgrind", "--version") {
            for n in &names {
                legs.push(skip(n, "valgrind not installed (apt-get install valgrind)"));
            }
            continue;
        }
        let mut args = vec!["build", "--release", "-p", pkg, "--example", example];
        if !features.is_empty() {
            args.extend(["--features", features]);
        }
        let build = run(
            &format!("valgrind: build {pkg} example {example}"),
            &mut cargo(&args),
        );
        let built = build.outcome.is_pass();
        legs.push(build);
        if !built {
            continue;
        }
        let bin = root().join("target/release/examples").join(example);
        let valgrind = |arg: &str| {
            let mut c = Command::new("valgrind");
            c.args(["-q", "--tool=memcheck", "--error-exitcode=1"])
                .arg(&bin)
                .arg(arg);
            c
        };
        for (b, n) in backends.iter().zip(&names) {
            legs.push(run(n, &mut valgrind(b)));
        }
        // The negative control passes only if memcheck reported the secret branch (exit 1):
        // exit 0 would mean the harness detects nothing.
        let n = names.last().expect("canary leg name");
        eprintln!("\n=== leg: {n} (expects exit code 1)");
        let t = Instant::now();
        let code = valgrind("canary")
            .current_dir(root())
            .status()
            .ok()
            .and_then(|s| s.code());
        legs.push(Leg {
            name: n.clone(),
            outcome: if code == Some(1) {
                Outcome::Pass
            } else {
                eprintln!("    canary exited with {code:?}, expected Some(1)");
                Outcome::Fail
            },
            secs: t.elapsed().as_secs_f64(),
        });
    }
}

/// RustCrypto's software-only switches, for the `aes_gcm_soft` bench (Tessera `portable` against
/// RustCrypto `aes-gcm` on its software AES and POLYVAL). They must reach the `aes` and
/// `polyval` crates, so they are RUSTFLAGS of a build of their own (`target/soft`), which leaves
/// the main build's artefacts alone.
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
fn bench(full: bool, filter: Option<&str>) -> bool {
    let crit = root().join("target/criterion");
    let _ = std::fs::remove_dir_all(&crit);
    let soft_only = filter == Some("soft");
    if !soft_only {
        let mut c = cargo(&["bench", "-p", "tessera-benches", "--"]);
        c.args(bench_args(full));
        if let Some(f) = filter {
            c.arg(f);
        }
        if !run("bench", &mut c).outcome.is_pass() {
            return false;
        }
    }
    if filter.is_some_and(|f| !soft_may_match(f)) {
        eprintln!(
            "\n=== leg: bench (RustCrypto soft: aes_gcm_soft) skipped: filter matches none of its rows"
        );
        return write_report(&crit);
    }
    let mut c = cargo(&[
        "bench",
        "-p",
        "tessera-benches",
        "--bench",
        "aes_gcm_soft",
        "--",
    ]);
    c.args(bench_args(full));
    if let Some(f) = filter.filter(|_| !soft_only) {
        c.arg(f);
    }
    let flags = match std::env::var("RUSTFLAGS") {
        Ok(f) if !f.trim().is_empty() => format!("{f} {SOFT_RUSTFLAGS}"),
        _ => SOFT_RUSTFLAGS.to_string(),
    };
    c.env("RUSTFLAGS", flags)
        .env("CARGO_TARGET_DIR", root().join("target/soft"))
        .env("CRITERION_HOME", &crit);
    if !run("bench (RustCrypto soft: aes_gcm_soft)", &mut c)
        .outcome
        .is_pass()
    {
        return false;
    }
    write_report(&crit)
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

fn write_report(crit: &Path) -> bool {
    let report = report(crit);
    println!("\n{report}");
    let dir = root().join("target/tessera-bench");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("report.md"), &report);
    println!("written to target/tessera-bench/report.md");
    true
}

impl Outcome {
    fn is_pass(&self) -> bool {
        matches!(self, Outcome::Pass)
    }
}

struct Row {
    group: String,
    func: String,
    median_ns: f64,
    bytes: Option<f64>,
}

fn collect(dir: &Path, rows: &mut Vec<Row>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "new") {
                let b = std::fs::read_to_string(p.join("benchmark.json")).ok();
                let s = std::fs::read_to_string(p.join("estimates.json")).ok();
                if let (Some(b), Some(s)) = (b, s) {
                    let b: serde_json::Value = serde_json::from_str(&b).unwrap_or_default();
                    let s: serde_json::Value = serde_json::from_str(&s).unwrap_or_default();
                    rows.push(Row {
                        group: b["group_id"].as_str().unwrap_or("?").into(),
                        func: b["function_id"]
                            .as_str()
                            .or(b["value_str"].as_str())
                            .unwrap_or("?")
                            .into(),
                        median_ns: s["median"]["point_estimate"].as_f64().unwrap_or(f64::NAN),
                        bytes: b["throughput"]["Bytes"].as_f64(),
                    });
                }
            } else {
                collect(&p, rows);
            }
        }
    }
}

fn fmt_time(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.1} ns")
    }
}

fn report(crit: &Path) -> String {
    let mut rows = Vec::new();
    collect(crit, &mut rows);
    rows.sort_by(|a, b| (&a.group, &a.func).cmp(&(&b.group, &b.func)));
    let mut out = format!("# Tessera benchmarks\n\n{}\n", tessera_cpu::features());
    let mut groups: Vec<&str> = rows.iter().map(|r| r.group.as_str()).collect();
    groups.dedup();
    // Summary: the best Tessera row of each group against every peer, as peer time / Tessera.
    out += "\n## Summary (peer median / best Tessera median; >1: Tessera faster)\n\n\
             | op | best tessera | median | peers |\n|---|---|---|---|\n";
    for g in &groups {
        let rs: Vec<&Row> = rows.iter().filter(|r| r.group == *g).collect();
        let Some(best) = rs
            .iter()
            .filter(|r| r.func.starts_with("impl=tessera"))
            .min_by(|a, b| a.median_ns.total_cmp(&b.median_ns))
        else {
            continue;
        };
        let peers: Vec<String> = rs
            .iter()
            .filter(|r| !r.func.starts_with("impl=tessera"))
            .map(|r| {
                format!(
                    "{} {:.2}x",
                    r.func.trim_start_matches("impl="),
                    r.median_ns / best.median_ns
                )
            })
            .collect();
        out += &format!(
            "| {g} | {} | {} | {} |\n",
            best.func.trim_start_matches("impl="),
            fmt_time(best.median_ns),
            peers.join(", ")
        );
    }
    for g in groups {
        let rs: Vec<&Row> = rows.iter().filter(|r| r.group == g).collect();
        let best = rs
            .iter()
            .filter(|r| r.func.starts_with("impl=tessera"))
            .map(|r| r.median_ns)
            .fold(f64::INFINITY, f64::min);
        out += &format!(
            "\n## {g}\n\n| impl | median | throughput | time / best tessera (>1: tessera faster) |\n|---|---|---|---|\n"
        );
        for r in rs {
            let tp = r
                .bytes
                .map(|b| format!("{:.2} GB/s", b / r.median_ns))
                .unwrap_or_else(|| format!("{:.0} op/s", 1e9 / r.median_ns));
            out += &format!(
                "| {} | {} | {} | {:.2}x |\n",
                r.func,
                fmt_time(r.median_ns),
                tp,
                r.median_ns / best
            );
        }
    }
    out
}

fn vectors() -> bool {
    let manifest = root().join("vectors/manifest.tsv");
    let Ok(text) = std::fs::read_to_string(&manifest) else {
        eprintln!("missing {}", manifest.display());
        return false;
    };
    let base = std::env::var("TESSERA_VECTORS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root().join("../shared/vectors"));
    let mut ok = true;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (file, sha) = (f[0], f[f.len() - 1]);
        let p = base.join(file);
        let got = Command::new("sha256sum").arg(&p).output().ok().map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_string()
        });
        let good = got.as_deref() == Some(sha);
        ok &= good;
        println!(
            "{} {file}",
            if good { "ok     " } else { "MISMATCH/MISSING" }
        );
    }
    ok
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ok = match args.first().map(String::as_str) {
        Some("test") => test(args.iter().any(|a| a == "--quick")),
        Some("bench") => bench(
            args.iter().any(|a| a == "--full"),
            args.iter()
                .skip(1)
                .find(|a| !a.starts_with("--"))
                .map(String::as_str),
        ),
        Some("vectors") => vectors(),
        _ => {
            eprintln!("usage: cargo xtask test [--quick] | bench [--full] [FILTER] | vectors");
            false
        }
    };
    std::process::exit(if ok { 0 } else { 1 });
}
