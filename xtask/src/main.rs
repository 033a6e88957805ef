//! `cargo xtask test [--quick] [--list] [--only SUBSTRING]`: the whole test matrix, ending
//! with one table (`--list`: every leg's name and command, nothing run; `--only`: the legs
//! whose name contains SUBSTRING, for working on one leg).
//! `cargo xtask bench [--full] [--cpu native|avx2|aesni] [--processes N] [--builds 1|2]
//! [FILTER]`: the interleaved comparison against peers (report, JSON and SVG plots in
//! target/tessera-bench, or target/tessera-bench-PROFILE; see `compare.rs`), by default in 4
//! processes alternating between two builds of different code layout, every ratio reported
//! with its spread across them; `--cpu` caps Tessera's detection (and AWS-LC's) to a smaller
//! CPU's features; `--smoke`: one tiny row (native, then the avx2 profile) and a check of the
//! output files. `cargo xtask bench --criterion [--full] [FILTER]`: the criterion
//! benches' detailed curves, as markdown tables (FILTER `soft`: only Tessera portable against
//! RustCrypto's software AES-GCM).
//! `cargo xtask bench --stability RUN1 RUN2 [PERCENT]`: the summary ratios of two runs side by
//! side (their results.json); fails when a ratio that is not a tie moved more than PERCENT (5).
//! `cargo xtask bench --readme [DIR]`: the README's benchmark section regenerated from a run's
//! report.md (DIR, default target/tessera-bench).
//! `cargo xtask vectors`: checks the sha256 of the official vector files against the manifest.
//! `cargo xtask user-build`: the build a user gets (no test hooks) checks cleanly and cannot
//! name any test-only entry point (see `userbuild.rs`).
//! `cargo xtask fuzz [TARGET] [--seconds N] [--jobs J] [--sanitizer S]`: builds the `fuzz/`
//! crate's targets and runs each for N seconds (see `fuzz.rs`).
//!
//! The crates and the legs that cover them are one table, in `crates.rs`.

mod bench;
mod cmd;
mod compare;
mod crates;
mod fuzz;
mod matrix;
mod report;
mod userbuild;
mod vectors;

const USAGE: &str = "usage: cargo xtask test [--quick] [--list] [--only SUBSTRING] | bench [--full] [--cpu native|avx2|aesni] [--processes N] [--builds 1|2] [FILTER] | bench [--smoke] [--criterion] [FILTER] | bench --stability RUN1 RUN2 [PERCENT] | bench --readme [DIR] | vectors | user-build | fuzz [TARGET] [--seconds N] [--jobs J] [--sanitizer S]";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(String::as_str);
    let ok = match args.first().map(String::as_str) {
        Some("test") if flag("--list") => matrix::list(flag("--quick"), only),
        Some("test") => matrix::test(flag("--quick"), only),
        Some("bench") if flag("--smoke") => compare::smoke(),
        Some("bench") if flag("--readme") => compare::readme(
            args.iter()
                .skip(1)
                .find(|a| !a.starts_with("--"))
                .map(String::as_str),
        ),
        Some("bench") if flag("--stability") => {
            let files: Vec<&str> = args
                .iter()
                .skip(1)
                .filter(|a| !a.starts_with("--"))
                .map(String::as_str)
                .collect();
            match files[..] {
                [a, b] => compare::stability(a, b, 5.0),
                [a, b, p] => compare::stability(a, b, p.parse().unwrap_or(5.0)),
                _ => {
                    eprintln!("usage: cargo xtask bench --stability RUN1 RUN2 [PERCENT]");
                    false
                }
            }
        }
        Some("bench") if !flag("--criterion") => match bench_opts(&args) {
            Some(o) => compare::run(&o),
            None => {
                eprintln!("{USAGE}");
                false
            }
        },
        Some("bench") => bench::bench(
            flag("--full"),
            args.iter()
                .skip(1)
                .find(|a| !a.starts_with("--"))
                .map(String::as_str),
        ),
        Some("vectors") => vectors::vectors(),
        Some("user-build") => userbuild::run(),
        Some("fuzz") => fuzz::run(&args[1..]),
        _ => {
            eprintln!("{USAGE}");
            false
        }
    };
    std::process::exit(if ok { 0 } else { 1 });
}

/// The options of `cargo xtask bench` (the interleaved comparison); None on a malformed one.
fn bench_opts(args: &[String]) -> Option<compare::Opts> {
    let mut o = compare::Opts {
        full: false,
        filter: None,
        cpu: compare::CpuProfile::Native,
        processes: 4,
        builds: 2,
    };
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--full" => o.full = true,
            "--cpu" => o.cpu = compare::CpuProfile::parse(it.next()?)?,
            "--processes" => o.processes = it.next()?.parse().ok().filter(|&n| n >= 1)?,
            "--builds" => o.builds = it.next()?.parse().ok().filter(|&n| n == 1 || n == 2)?,
            f if f.starts_with("--") => return None,
            f => o.filter = Some(f.to_string()),
        }
    }
    Some(o)
}
