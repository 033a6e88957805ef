//! `cargo xtask bench [--full] [FILTER]`: the interleaved comparison (the `compare` bench of
//! `tessera-benches`). Two builds: the rows of Tessera portable against RustCrypto's software
//! AES-GCM and ChaCha20-Poly1305 need RUSTFLAGS that reach RustCrypto's `aes`, `polyval`,
//! `chacha20` and `poly1305` crates, so they run first
//! in a build of their own (`target/soft`) and leave `soft.json`; the main build then runs every
//! other row, merges those, and writes `target/tessera-bench/` (report.md, results.json, SVG
//! plots). The summary table is printed at the end. FILTER is a substring of row ids
//! (`op=aes128-gcm-seal,size=16KiB`); a build none of whose rows match is skipped. Without a
//! filter or `--full`, the rows the bench marks `full` (HPKE detail rows) are left out, so the
//! default run stays under 10 minutes once built.
//!
//! `cargo xtask bench --smoke`: one tiny row with very few rounds (no timing is asserted), then
//! checks that every output file was written; part of `cargo xtask test`.
//!
//! Self-contained (its own `root` and `cargo` helpers) so it can move into a refactored xtask.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// RustCrypto's software-only switches (see `benches/benches/aes_gcm_soft.rs`).
const SOFT_RUSTFLAGS: &str = "--cfg aes_force_soft --cfg polyval_force_soft --cfg chacha20_force_soft --cfg poly1305_force_soft";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `cargo bench --ignore-rust-version -p tessera-benches --bench compare -- <args>` (the flag:
/// hpke-ng 0.2, an HPKE peer, declares rust-version 1.96 and builds on the pinned 1.95).
fn compare_cmd(args: &[&str]) -> Command {
    compare_cmd_profile("bench", args)
}

/// [`compare_cmd`] built with the cargo profile `profile`.
fn compare_cmd_profile(profile: &str, args: &[&str]) -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.args([
        "bench",
        "--ignore-rust-version",
        "--profile",
        profile,
        "-p",
        "tessera-benches",
        "--bench",
        "compare",
        "--",
    ])
    .args(args)
    .current_dir(root());
    c
}

fn status(name: &str, c: &mut Command) -> bool {
    eprintln!("\n=== {name}\n    {c:?}");
    c.status().map(|s| s.success()).unwrap_or(false)
}

/// The row ids of both builds: (id, is_soft, is_full_only).
fn list_rows() -> Option<Vec<(String, bool, bool)>> {
    let out = compare_cmd(&["--list"]).output().ok()?;
    if !out.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| {
                let mut f = l.split('\t');
                Some((f.next()?, f.next()?, f.next()?))
            })
            .map(|(id, b, tier)| (id.to_string(), b == "soft", tier == "full"))
            .collect(),
    )
}

/// Removes the previous run's files so a filtered run leaves no stale plot behind.
fn clean(dir: &Path) {
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            let stale = p
                .extension()
                .is_some_and(|x| x == "svg" || x == "json" || x == "md");
            if p.is_file() && stale {
                let _ = std::fs::remove_file(p);
            }
        }
    }
}

/// Runs the comparison and prints the report's summary; false when a build or run failed or
/// the filter selects no row.
pub fn run(full: bool, filter: Option<&str>) -> bool {
    let t = Instant::now();
    let dir = root().join("target/tessera-bench");
    let _ = std::fs::create_dir_all(&dir);
    clean(&dir);
    eprintln!("=== building the comparison (main build)");
    let Some(rows) = list_rows() else {
        eprintln!("compare: the main build failed");
        return false;
    };
    let matches = |soft: bool| {
        rows.iter()
            .filter(|(id, s, full_only)| {
                *s == soft
                    && match filter {
                        Some(f) => id.contains(f),
                        None => full || !full_only,
                    }
            })
            .count()
    };
    let (main_rows, soft_rows) = (matches(false), matches(true));
    if main_rows + soft_rows == 0 {
        eprintln!("compare: filter {filter:?} matches no row; the rows are:");
        for (id, ..) in &rows {
            eprintln!("  {id}");
        }
        return false;
    }
    let out = dir.to_string_lossy().into_owned();
    let mut common: Vec<&str> = vec!["--out", &out];
    if full {
        common.push("--full");
    }
    if let Some(f) = filter {
        common.push(f);
    }
    let soft_json = dir.join("soft.json");
    let soft_json_s = soft_json.to_string_lossy().into_owned();
    if soft_rows > 0 {
        // RUSTFLAGS replaces the config's test hooks, which the bench harness needs (it
        // drives the derandomized HPKE entry points): add them back.
        let flags = crate::cmd::rustflags_with_hooks(SOFT_RUSTFLAGS);
        let mut c = compare_cmd(&common);
        c.env("RUSTFLAGS", flags)
            .env("CARGO_TARGET_DIR", root().join("target/soft"));
        if !status(
            &format!("compare: {soft_rows} RustCrypto-soft rows (build with {SOFT_RUSTFLAGS})"),
            &mut c,
        ) {
            return false;
        }
    } else {
        eprintln!(
            "\n=== compare: the RustCrypto-soft build skipped (the filter matches none of its rows)"
        );
    }
    let mut args = common.clone();
    if soft_rows > 0 {
        args.extend(["--merge", &soft_json_s]);
    }
    if !status(
        &format!("compare: {main_rows} rows (main build)"),
        &mut compare_cmd(&args),
    ) {
        return false;
    }
    let report = dir.join("report.md");
    let Ok(text) = std::fs::read_to_string(&report) else {
        eprintln!("compare: {} was not written", report.display());
        return false;
    };
    // The summary, notes and backend table: everything before the per-row details.
    let head = text.split("\n## Rows in detail").next().unwrap_or(&text);
    println!("\n{head}");
    println!(
        "full report: {} (JSON: results.json, plots: *.svg); {:.0} s",
        report.display(),
        t.elapsed().as_secs_f64()
    );
    true
}

/// One tiny row, very few rounds, then a check of every output file (no timing asserted).
///
/// Built with the test profile (opt-level 2, what the test legs build), not the release one:
/// the smoke checks the harness and its outputs, not speed, and in `cargo xtask test` it then
/// reuses the peers' C builds (aws-lc-sys, ring) of the native leg instead of building every
/// peer a second time in release (about 4 minutes of CI on 2 cores).
pub fn smoke() -> bool {
    let dir = root().join("target/tessera-bench/smoke");
    let _ = std::fs::create_dir_all(&dir);
    clean(&dir);
    let out = dir.to_string_lossy().into_owned();
    if !status(
        "compare --smoke (test profile)",
        &mut compare_cmd_profile("test", &["--smoke", "--out", &out]),
    ) {
        return false;
    }
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_default();
    let json: serde_json::Value = serde_json::from_str(&read("results.json")).unwrap_or_default();
    let records = json["records"].as_array().map_or(0, |r| r.len());
    let checks = [
        (
            "results.json has a reference and at least one peer record",
            records >= 2
                && json["records"][0]["role"] == "reference"
                && json["records"][0]["time_ns"]["median"].as_f64().is_some(),
        ),
        (
            "report.md has the summary table",
            read("report.md").contains("## Summary"),
        ),
        ("ratios.svg is an SVG", read("ratios.svg").contains("<svg")),
    ];
    let mut ok = true;
    for (what, good) in checks {
        eprintln!("smoke: {} {what}", if good { "ok  " } else { "FAIL" });
        ok &= good;
    }
    ok
}

/// One ratio of a run: (row, impl, median ratio, tie).
type Ratio = (String, String, f64, bool);

/// The non-reference ratios of a run's `results.json`.
fn ratios_of(path: &Path) -> Option<Vec<Ratio>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| eprintln!("stability: cannot read {}: {e}", path.display()))
        .ok()?;
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| eprintln!("stability: {} is not JSON: {e}", path.display()))
        .ok()?;
    let records = json["records"].as_array()?;
    Some(
        records
            .iter()
            .filter(|r| r["role"] != "reference")
            .filter_map(|r| {
                Some((
                    r["row"].as_str()?.to_string(),
                    r["impl"].as_str()?.to_string(),
                    r["ratio"]["median"].as_f64()?,
                    r["tie"].as_bool().unwrap_or(false),
                ))
            })
            .collect(),
    )
}

/// The comparison of two runs.
#[derive(Debug, Default, PartialEq)]
struct Judged {
    /// Markdown table lines, one per ratio both runs have.
    lines: Vec<String>,
    /// Ratios judged (a tie in neither run).
    judged: usize,
    /// Ratios that are a tie in one run or both (listed, not judged).
    ties: usize,
    /// Judged ratios that moved more than the limit.
    over: usize,
    /// Ratios of run 1 that run 2 lacks.
    missing: usize,
    /// The largest move of a judged ratio (%).
    worst: f64,
}

fn judge(ra: &[Ratio], rb: &[Ratio], percent: f64) -> Judged {
    let mut j = Judged::default();
    for (row, imp, r1, t1) in ra {
        let Some((_, _, r2, t2)) = rb.iter().find(|(r, i, ..)| r == row && i == imp) else {
            j.missing += 1;
            continue;
        };
        let moved = (r2 / r1 - 1.0).abs() * 100.0;
        let verdict = if *t1 || *t2 {
            j.ties += 1;
            "tie"
        } else {
            j.judged += 1;
            j.worst = j.worst.max(moved);
            if moved > percent {
                j.over += 1;
                "MOVED"
            } else {
                "ok"
            }
        };
        j.lines.push(format!(
            "| {row} | {imp} | {r1:.3} | {r2:.3} | {moved:.1}% | {verdict} |"
        ));
    }
    j
}

/// `cargo xtask bench --stability RUN1 RUN2 [PERCENT]`: compares the summary ratios of two
/// runs (their `results.json`, or the directories holding them) and prints one line per
/// ratio that both runs measured: both medians and how far they moved. A ratio that is a tie
/// in either run (its interval contains 1.0) is listed but not judged. False (exit status 1)
/// when a ratio that is not a tie moved more than PERCENT (default 5) or when the runs share
/// no judged ratio.
pub fn stability(a: &str, b: &str, percent: f64) -> bool {
    let file = |p: &str| {
        let p = PathBuf::from(p);
        if p.is_dir() {
            p.join("results.json")
        } else {
            p
        }
    };
    let (Some(ra), Some(rb)) = (ratios_of(&file(a)), ratios_of(&file(b))) else {
        return false;
    };
    let j = judge(&ra, &rb, percent);
    println!("| row | impl | run 1 | run 2 | move | verdict |");
    println!("|---|---|---|---|---|---|");
    for l in &j.lines {
        println!("{l}");
    }
    println!(
        "\n{} ratios judged ({} ties listed, not judged; {} only in run 1): {} moved more than \
         {percent}%; the largest move of a judged ratio is {:.1}%",
        j.judged, j.ties, j.missing, j.over, j.worst
    );
    j.judged > 0 && j.over == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(row: &str, imp: &str, ratio: f64, tie: bool) -> Ratio {
        (row.into(), imp.into(), ratio, tie)
    }

    #[test]
    fn judge_flags_moves_over_the_limit_and_skips_ties() {
        let a = [
            r("x", "ring", 1.50, false),
            r("x", "sha2", 2.00, false),
            r("y", "ring", 1.00, true),
            r("z", "ring", 3.00, false),
        ];
        let b = [
            r("x", "ring", 1.56, false),
            r("x", "sha2", 2.20, false),
            r("y", "ring", 1.20, false),
        ];
        let j = judge(&a, &b, 5.0);
        assert_eq!((j.judged, j.ties, j.over, j.missing), (2, 1, 1, 1));
        assert!((j.worst - 10.0).abs() < 1e-9, "{}", j.worst);
        assert!(j.lines[0].ends_with("| ok |"), "{}", j.lines[0]);
        assert!(j.lines[1].ends_with("| MOVED |"), "{}", j.lines[1]);
        assert!(j.lines[2].ends_with("| tie |"), "{}", j.lines[2]);
    }
}

/// The README's generated benchmark section lies between these two lines.
const README_BEGIN: &str = "<!-- bench-report:begin (generated by `cargo xtask bench --readme`; edit the report, not this) -->";
const README_END: &str = "<!-- bench-report:end -->";

/// The README section made from a run's `report.md`: its header, summary table and notes (up to
/// the per-backend table), headings moved one level down under the README's own, the plot
/// linked where a run leaves it.
fn readme_section(report: &str) -> String {
    let head = report
        .split("\n## Tessera backends")
        .next()
        .unwrap_or(report);
    let mut out = Vec::new();
    for line in head.lines() {
        if line.starts_with("# ") {
            continue;
        }
        if let Some(rest) = line.strip_prefix("## ") {
            out.push(format!("### {rest}"));
        } else if line.starts_with("![summary ratios](") {
            out.push(
                "(The ratio chart of this table is `target/tessera-bench/ratios.svg` after a run.)"
                    .to_string(),
            );
        } else {
            out.push(line.to_string());
        }
    }
    while out.first().is_some_and(|l| l.trim().is_empty()) {
        out.remove(0);
    }
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    out.join("\n")
}

/// Puts `section` between the README markers of `readme`; None when a marker is missing.
fn splice_readme(readme: &str, section: &str) -> Option<String> {
    let b = readme.find(README_BEGIN)? + README_BEGIN.len();
    let e = readme[b..].find(README_END)? + b;
    Some(format!("{}\n\n{section}\n\n{}", &readme[..b], &readme[e..]))
}

/// `cargo xtask bench --readme [DIR]`: regenerates the README's benchmark section from a run's
/// `report.md` (DIR, default `target/tessera-bench`, the last `cargo xtask bench`).
pub fn readme(dir: Option<&str>) -> bool {
    let dir = dir.map_or_else(|| root().join("target/tessera-bench"), PathBuf::from);
    let report = match std::fs::read_to_string(dir.join("report.md")) {
        Ok(r) => r,
        Err(e) => {
            eprintln!(
                "readme: cannot read {}: {e}",
                dir.join("report.md").display()
            );
            return false;
        }
    };
    let path = root().join("README.md");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("readme: cannot read {}", path.display());
        return false;
    };
    let Some(new) = splice_readme(&text, &readme_section(&report)) else {
        eprintln!("readme: README.md lacks the lines {README_BEGIN} and {README_END}");
        return false;
    };
    if std::fs::write(&path, new).is_err() {
        eprintln!("readme: cannot write {}", path.display());
        return false;
    }
    eprintln!(
        "readme: README.md's benchmark section is now {}",
        dir.join("report.md").display()
    );
    true
}

#[cfg(test)]
mod readme_tests {
    use super::*;

    #[test]
    fn section_and_splice() {
        let report = "# Title\n\n- CPU: x\n\n## Summary\n\n| a |\n\n![summary ratios](ratios.svg)\n\n## Tessera backends\n\nmore\n";
        let s = readme_section(report);
        assert_eq!(
            s,
            "- CPU: x\n\n### Summary\n\n| a |\n\n(The ratio chart of this table is `target/tessera-bench/ratios.svg` after a run.)"
        );
        let readme = format!("intro\n{README_BEGIN}\nold\n{README_END}\ntail\n");
        let new = splice_readme(&readme, "NEW").unwrap();
        assert_eq!(
            new,
            format!("intro\n{README_BEGIN}\n\nNEW\n\n{README_END}\ntail\n")
        );
        assert!(splice_readme("no markers", "x").is_none());
    }
}
