//! The markdown report of a bench run, from criterion's `target/criterion/**/new/*.json`:
//! a summary (best Tessera row of each group against every peer), then one table per group.
//! Written to `target/tessera-bench/report.md`.

use std::path::Path;

use tessera_testkit::fmt_time;

use crate::cmd::root;

/// Prints the report of the runs in `crit` and writes it to `target/tessera-bench/report.md`.
pub fn write_report(crit: &Path) -> bool {
    let report = report(crit);
    println!("\n{report}");
    let dir = root().join("target/tessera-bench");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("report.md"), &report);
    println!("written to target/tessera-bench/report.md");
    true
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

/// The report of the runs in `crit`.
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
