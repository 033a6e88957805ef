//! The results of an interleaved run (`compare` bench): the markdown report and the JSON copy
//! (written, and read back to merge the rows of the separate RustCrypto-soft build).

use crate::interleave::{Measured, Role, Spread};
use crate::load::{Load, RunLoad};
use serde_json::{Value, json};

/// One measured row.
#[derive(Clone, Debug)]
pub struct RowRecord {
    /// Machine-parseable id: `op=sha256,size=64B`.
    pub id: String,
    /// The operation (`sha256`, `aes128-gcm-seal`, ...): one plot per operation.
    pub op: String,
    /// Message length in bytes (per lane for multi-way rows).
    pub size: usize,
    /// Bytes processed per iteration (the throughput numerator).
    pub bytes: usize,
    /// Why a peer is missing from the row, or how a peer runs it differently.
    pub notes: Vec<String>,
    /// Rounds measured.
    pub rounds: usize,
    /// Wall time of the row (s).
    pub secs: f64,
    /// The reference (Tessera's best backend) first.
    pub contestants: Vec<Measured>,
}

impl RowRecord {
    /// The reference contestant (Tessera's best backend).
    pub fn reference(&self) -> &Measured {
        &self.contestants[0]
    }

    /// The reference's backend name (`x86_shani`, ...).
    pub fn tessera_backend(&self) -> &str {
        self.reference()
            .name
            .strip_prefix("tessera/")
            .unwrap_or(&self.reference().name)
    }

    /// The first cells of its line in the report's tables: `| label | backend | time |`, the
    /// reference's backend and median time.
    fn lead_cells(&self) -> String {
        format!(
            "| {} | {} | {} |",
            self.label(),
            self.tessera_backend(),
            fmt_time(self.reference().time_ns.median)
        )
    }

    /// A short label: `sha256 64B`.
    pub fn label(&self) -> String {
        if self.size == 0 {
            self.op.clone()
        } else {
            format!("{} {}", self.op, size_label(self.size))
        }
    }
}

/// About the run.
#[derive(Clone, Debug)]
pub struct Meta {
    /// `/proc/cpuinfo` model name and logical CPU count.
    pub cpu: String,
    /// `tessera_cpu::features()`.
    pub hw: String,
    /// `wall` or `thread-cpu`.
    pub clock: String,
    /// `default`, `full` or `smoke`.
    pub mode: String,
    /// Target work per batch (µs).
    pub batch_us: f64,
    /// Passes over every row (each row's rounds are spread over the run in this many parts).
    pub passes: usize,
    /// Time budget of one pass over one row (s).
    pub row_secs: f64,
    /// Wall time of the whole run (s), both builds.
    pub total_secs: f64,
    /// Rows the default run leaves out (`--full` or a filter runs them).
    pub left_out: usize,
    /// The CPU profile: `native`, or the cap `cargo xtask bench --cpu` set (with the peers'
    /// caps).
    pub profile: String,
    /// The background load, one entry per pass (of every process, in an aggregated report).
    pub load: RunLoad,
    /// Whether the load makes the run noisy (in an aggregated report: any process was).
    pub noisy: bool,
    /// Processes whose medians the ratios come from: 1 for one process; more for a report
    /// aggregated by `--aggregate`, where a ratio's interval is the range of the processes'
    /// medians and a ratio whose range contains 1 is parity.
    pub processes: usize,
    /// More header lines (`- ...`): the builds and processes of an aggregated report.
    pub extra: Vec<String>,
}

/// `64B`, `1KiB`, `16KiB`, `1MiB`.
pub fn size_label(n: usize) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{}MiB", n >> 20)
    } else if n >= 1024 && n.is_multiple_of(1024) {
        format!("{}KiB", n >> 10)
    } else {
        format!("{n}B")
    }
}

/// A markdown table's header line, the `fixed` columns then `cols`, and its separator line.
fn table_header<'a>(fixed: &[&str], cols: impl Iterator<Item = &'a str>) -> String {
    let mut n = fixed.len();
    let mut out = String::from("|");
    for c in fixed {
        out += &format!(" {c} |");
    }
    for c in cols {
        out += &format!(" {c} |");
        n += 1;
    }
    out + "\n|" + &"---|".repeat(n) + "\n"
}

/// `12.3 ns`, `4.56 µs`, `1.23 ms`.
pub use tessera_testkit::fmt_time;

/// GB/s (10^9 bytes per second) of `bytes` in `ns`.
pub fn gbps(bytes: usize, ns: f64) -> f64 {
    bytes as f64 / ns
}

/// The throughput cell of a row: GB/s, or operations per second for rows without a message
/// size (`bytes == 0`: key agreement, KEM operations).
pub fn throughput(bytes: usize, ns: f64, digits: usize) -> String {
    if bytes == 0 {
        let ops = 1e9 / ns;
        if ops >= 1e6 {
            format!("{:.2} M op/s", ops / 1e6)
        } else {
            format!("{:.1} k op/s", ops / 1e3)
        }
    } else {
        format!("{:.digits$} GB/s", gbps(bytes, ns))
    }
}

/// The summary column of a peer: one per library family.
pub fn peer_column(name: &str) -> &'static str {
    match name {
        "ring" => "ring",
        "aws-lc-rs" => "aws-lc-rs",
        "x25519-dalek" => "dalek",
        n if n.starts_with("libcrux") => "libcrux",
        // PQClean's C code through its Rust bindings (pqcrypto-mlkem).
        n if n.starts_with("pqcrypto") => "PQClean",
        // The HPKE libraries (hpke-rs: both its providers in one cell, each named).
        "hpke-ng" => "hpke-ng",
        "rust-hpke" => "rust-hpke",
        n if n.starts_with("hpke-rs") => "hpke-rs",
        _ => "RustCrypto",
    }
}

const COLUMNS: [&str; 9] = [
    "ring",
    "aws-lc-rs",
    "RustCrypto",
    "libcrux",
    "PQClean",
    "dalek",
    "hpke-ng",
    "rust-hpke",
    "hpke-rs",
];

/// `1.234x [1.200, 1.250]`, marked `tie` (one process: the interval contains 1) or `parity`
/// (aggregated: the processes' medians fall on both sides of 1).
fn ratio_cell(m: &Measured, processes: usize) -> String {
    let r = format!("{:.3}x [{:.3}, {:.3}]", m.ratio.median, m.ci95.0, m.ci95.1);
    if !m.tie() {
        r
    } else if processes > 1 {
        format!("parity ({r})")
    } else {
        format!("tie ({r})")
    }
}

fn spread_json(s: &Spread) -> Value {
    json!({ "median": s.median, "q1": s.q1, "q3": s.q3 })
}

/// The JSON copy: `meta`, `rows` (id, notes, rounds) and `records`, one per implementation per
/// row, each with its median time, quartiles, ratio to Tessera's best backend and the interval.
pub fn to_json(meta: &Meta, rows: &[RowRecord]) -> Value {
    let records: Vec<Value> = rows
        .iter()
        .flat_map(|r| {
            r.contestants.iter().map(move |m| {
                json!({
                    "row": r.id,
                    "op": r.op,
                    "size_bytes": r.size,
                    "bytes_per_iter": r.bytes,
                    "impl": m.name,
                    "role": m.role.name(),
                    "reference": r.reference().name,
                    "batch_iters": m.batch,
                    "rounds": m.rounds,
                    "time_ns": spread_json(&m.time_ns),
                    "throughput_gbps": (r.bytes > 0).then(|| gbps(r.bytes, m.time_ns.median)),
                    "ratio": spread_json(&m.ratio),
                    "ratio_ci95": [m.ci95.0, m.ci95.1],
                    "tie": m.role != Role::Reference && m.tie(),
                })
            })
        })
        .collect();
    let row_list: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "row": r.id, "op": r.op, "size_bytes": r.size, "bytes_per_iter": r.bytes,
                "rounds": r.rounds, "secs": r.secs, "notes": r.notes,
            })
        })
        .collect();
    json!({
        "meta": {
            "cpu": meta.cpu, "hw": meta.hw, "clock": meta.clock, "mode": meta.mode,
            "left_out": meta.left_out,
            "batch_us": meta.batch_us, "passes": meta.passes, "row_secs": meta.row_secs,
            "total_secs": meta.total_secs,
            "profile": meta.profile,
            "processes": meta.processes,
            "extra": meta.extra,
            "load": {
                "passes": meta.load.passes.iter().map(|l| [l.others_cpu, l.steal_pct]).collect::<Vec<_>>(),
                "others_cpu_mean": meta.load.others_mean(),
                "others_cpu_max": meta.load.others_max(),
                "steal_pct_mean": meta.load.steal_mean(),
                "noisy": meta.noisy,
            },
            "ratio": "time of impl / time of the reference (Tessera's best backend); >1: Tessera faster",
        },
        "rows": row_list,
        "records": records,
    })
}

fn spread_from(v: &Value) -> Spread {
    let f = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
    Spread {
        median: f("median"),
        q1: f("q1"),
        q3: f("q3"),
    }
}

/// Reads back the meta of [`to_json`] (an aggregated report combines the processes').
pub fn meta_from_json(v: &Value) -> Meta {
    let m = &v["meta"];
    let s = |k: &str| m[k].as_str().unwrap_or("").to_string();
    let f = |k: &str| m[k].as_f64().unwrap_or(0.0);
    Meta {
        cpu: s("cpu"),
        hw: s("hw"),
        clock: s("clock"),
        mode: s("mode"),
        batch_us: f("batch_us"),
        passes: m["passes"].as_u64().unwrap_or(0) as usize,
        row_secs: f("row_secs"),
        total_secs: f("total_secs"),
        left_out: m["left_out"].as_u64().unwrap_or(0) as usize,
        profile: s("profile"),
        load: RunLoad {
            passes: m["load"]["passes"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| Load {
                    others_cpu: p[0].as_f64().unwrap_or(0.0),
                    steal_pct: p[1].as_f64().unwrap_or(0.0),
                })
                .collect(),
        },
        noisy: m["load"]["noisy"].as_bool().unwrap_or(false),
        processes: m["processes"].as_u64().unwrap_or(1) as usize,
        extra: m["extra"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|x| x.as_str().map(String::from))
            .collect(),
    }
}

/// Reads back the rows of [`to_json`] (the soft build's file, merged into the main report).
pub fn rows_from_json(v: &Value) -> Vec<RowRecord> {
    let mut rows: Vec<RowRecord> = v["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| RowRecord {
            id: r["row"].as_str().unwrap_or("?").into(),
            op: r["op"].as_str().unwrap_or("?").into(),
            size: r["size_bytes"].as_u64().unwrap_or(0) as usize,
            bytes: r["bytes_per_iter"].as_u64().unwrap_or(0) as usize,
            notes: r["notes"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|n| n.as_str().map(String::from))
                .collect(),
            rounds: r["rounds"].as_u64().unwrap_or(0) as usize,
            secs: r["secs"].as_f64().unwrap_or(0.0),
            contestants: Vec::new(),
        })
        .collect();
    for rec in v["records"].as_array().into_iter().flatten() {
        let Some(row) = rows
            .iter_mut()
            .find(|r| Some(r.id.as_str()) == rec["row"].as_str())
        else {
            continue;
        };
        let role = match rec["role"].as_str() {
            Some("reference") => Role::Reference,
            Some("backend") => Role::Backend,
            _ => Role::Peer,
        };
        let ci = &rec["ratio_ci95"];
        row.contestants.push(Measured {
            name: rec["impl"].as_str().unwrap_or("?").into(),
            role,
            batch: rec["batch_iters"].as_u64().unwrap_or(0),
            time_ns: spread_from(&rec["time_ns"]),
            ratio: spread_from(&rec["ratio"]),
            ci95: (
                ci[0].as_f64().unwrap_or(f64::NAN),
                ci[1].as_f64().unwrap_or(f64::NAN),
            ),
            rounds: rec["rounds"].as_u64().unwrap_or(0) as usize,
        });
    }
    rows.retain(|r| {
        r.contestants
            .first()
            .is_some_and(|c| c.role == Role::Reference)
    });
    rows
}

/// How the ratios are measured: a section of the report (and of the README).
pub const METHOD: &str = "\
Every row (one operation at one size) is a race inside one process between Tessera's best
backend (what `detect()` picks, called through the public API) and each peer library; a row
that also has other Tessera backends runs them in a second race of their own against the best
backend, the row's time shared between the two races by their numbers of contestants (a
forced backend can slow the machine for the contestants after it, e.g. a wide AES backend
lowering the core clock; docs/perf/bench-stability.md has a measured case). After a warm-up,
each contestant's batch is calibrated to about the same work time (the batch target below),
then the run goes round after round: in each round every contestant runs one untimed pre-roll
(a quarter batch, to bring its code and data back into the caches and past the AVX power-up)
and one timed batch, in an order that rotates from round to round, and at another stack offset
(each round moves every contestant's stack by 16 bytes, all 256 offsets of a 4 KiB page in
turn: some implementations have a fast and a slow speed depending on where their stack falls
against their data, and Linux places the stack at random per process). A round takes about a
millisecond, so a slower or faster stretch of a shared machine
falls on all contestants alike; and each row's rounds are measured in several passes spread
over the whole run (every row, then every row again), so a disturbed stretch of seconds falls
on one part of a row's rounds only. Each round gives a ratio (peer time per iteration / Tessera time
per iteration, >1: Tessera faster); the row's ratio is the median of the per-round ratios, with
their interquartile range and a 95% interval of the median from a moving-block bootstrap
(blocks of consecutive rounds, fixed seed). A row whose interval contains 1.0 is a tie. Times
are the calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`) unless the report says `wall`.
Inputs pass through `black_box`, buffers are 64-byte aligned, inputs are generated once from a
fixed seed outside the timed loop, and nothing allocates in a timed loop. Rows whose time depends
on the input give every contestant the same inputs in each round, in a fixed batch: ML-DSA
verification the same 4 signatures, ML-DSA signing the same 4 messages, every library
deterministically (the signing loop's iteration count depends on the message and rnd; aws-lc-rs,
whose API signs only hedged, through AWS-LC's exported deterministic signing function). Before a
row is timed, every contestant's output is checked against Tessera's.

What this cannot remove: where the linker puts code and static data in one binary (a rebuild that
changes no measured code can move a row; docs/perf/bench-stability.md has a measured case), and neighbours
competing for the same core's caches and execution units on a shared host. The interval covers
the noise within one run only; `cargo xtask bench --stability RUN1 RUN2` shows how far each ratio
moved between two runs.";

/// The markdown report: header, summary (ratios against peers), per-backend table, plots,
/// per-row details, method.
pub fn markdown(meta: &Meta, rows: &[RowRecord], plots: &[(String, String)]) -> String {
    let mut out = String::from("# Tessera benchmarks: interleaved comparison\n\n");
    out += &format!("- CPU: {}\n- HW: {}\n", meta.cpu, meta.hw);
    out += &format!(
        "- Run: `{}` mode, clock `{}`, batches of ~{:.0} µs, {} passes of ~{:.1} s per row, {} rows, {:.0} s in all\n",
        meta.mode,
        meta.clock,
        meta.batch_us,
        meta.passes,
        meta.row_secs,
        rows.len(),
        meta.total_secs
    );
    out += &format!(
        "- CPU profile: {}\n- Load: {}\n",
        if meta.profile.is_empty() {
            "native"
        } else {
            &meta.profile
        },
        meta.load.line()
    );
    if meta.noisy {
        out += "- **NOISY RUN**: other processes or the hypervisor took CPU time above the \
                thresholds (see `benches/src/load.rs`); its ratios are not for the README \
                (`cargo xtask bench --readme` refuses it)\n";
    }
    for l in &meta.extra {
        out += &format!("- {l}\n");
    }
    if meta.left_out > 0 {
        out += &format!(
            "- Left out of this default run: {} detail rows (HPKE KEM, context and export rows, P-521 \
             setup and round trip, the `-from-bytes` rows that parse keys on every call; \
             `cargo xtask bench --full` or a filter such as `cargo xtask bench hpke-` runs them)\n",
            meta.left_out
        );
    }

    // Summary: one column per peer family that appears.
    let cols: Vec<&str> = COLUMNS
        .iter()
        .copied()
        .filter(|c| {
            rows.iter().any(|r| {
                r.contestants
                    .iter()
                    .any(|m| m.role == Role::Peer && peer_column(&m.name) == *c)
            })
        })
        .collect();
    out += if meta.processes > 1 {
        "\n## Summary\n\nPeer time / Tessera time: the median over the processes of each \
         process's median of per-round ratios [lowest, highest process]; >1: Tessera faster; \
         *parity*: the processes disagree on the side of 1, so the row is neither a win nor a \
         loss. A dash is a row the peer cannot run (see the notes).\n\n"
    } else {
        "\n## Summary\n\nPeer time / Tessera time, median of per-round ratios [95% interval]; \
         >1: Tessera faster; *tie*: the interval contains 1. A dash is a row the peer cannot \
         run (see the notes).\n\n"
    };
    out += &table_header(
        &["row", "tessera backend", "tessera time", "throughput"],
        cols.iter().copied(),
    );
    for r in rows {
        let t = r.reference().time_ns.median;
        out += &r.lead_cells();
        out += &format!(" {} |", throughput(r.bytes, t, 2));
        for c in &cols {
            let cells: Vec<String> = r
                .contestants
                .iter()
                .filter(|m| m.role == Role::Peer && peer_column(&m.name) == *c)
                .map(|m| {
                    // Name the crate when the family has several (sha2, sha3, aes-gcm, hmac).
                    if *c == "RustCrypto" || *c == "hpke-rs" {
                        format!("{}: {}", m.name, ratio_cell(m, meta.processes))
                    } else {
                        ratio_cell(m, meta.processes)
                    }
                })
                .collect();
            out += &format!(
                " {} |",
                if cells.is_empty() {
                    "—".to_string()
                } else {
                    cells.join("; ")
                }
            );
        }
        out += "\n";
    }
    // Notes, one line per note text, with the rows (operation and sizes) it applies to.
    // (note, [(operation, [size])])
    type OpSizes<'a> = Vec<(&'a str, Vec<String>)>;
    let mut notes: Vec<(&str, OpSizes)> = Vec::new();
    for r in rows {
        for n in &r.notes {
            let i = match notes.iter().position(|(t, _)| *t == n) {
                Some(i) => i,
                None => {
                    notes.push((n, Vec::new()));
                    notes.len() - 1
                }
            };
            let ops = &mut notes[i].1;
            let size = (r.size > 0).then(|| size_label(r.size));
            match ops.iter_mut().find(|(op, _)| *op == r.op) {
                Some((_, sizes)) => sizes.extend(size),
                None => ops.push((&r.op, size.into_iter().collect())),
            }
        }
    }
    if !notes.is_empty() {
        out += "\nNotes (rows a peer cannot run, or runs differently):\n\n";
        for (n, ops) in notes {
            let ops: Vec<String> = ops
                .iter()
                .map(|(op, sizes)| {
                    if sizes.is_empty() {
                        op.to_string()
                    } else {
                        format!("{op} ({})", sizes.join(", "))
                    }
                })
                .collect();
            out += &format!("- {}: {n}\n", ops.join("; "));
        }
    }
    if let Some((_, f)) = plots.iter().find(|(k, _)| k == "ratios") {
        out += &format!("\n![summary ratios]({f})\n");
    }

    // Per-backend table: every other Tessera backend against the best one.
    let mut backends: Vec<&str> = Vec::new();
    for r in rows {
        for m in &r.contestants {
            if m.role == Role::Backend && !backends.contains(&m.name.as_str()) {
                backends.push(&m.name);
            }
        }
    }
    if !backends.is_empty() {
        out += "\n## Tessera backends\n\nTime of each other backend / time of the best backend, \
                interleaved in a race of their own, apart from the peers (a backend that slows the \
                clock, as `x86_vaes` AES-GCM does on Intel, still slows the others of that race); \
                >1: the best backend is faster. The time column is the best backend's in the race \
                against the peers, each backend's own time (in parentheses) is from its race.\n\n";
        out += &table_header(
            &["row", "best backend", "time"],
            backends.iter().map(|b| b.trim_start_matches("tessera/")),
        );
        for r in rows {
            out += &r.lead_cells();
            for b in &backends {
                let cell = r
                    .contestants
                    .iter()
                    .find(|m| m.role == Role::Backend && m.name == *b)
                    .map(|m| {
                        format!(
                            "{} ({})",
                            ratio_cell(m, meta.processes),
                            fmt_time(m.time_ns.median)
                        )
                    })
                    .unwrap_or_else(|| "—".into());
                out += &format!(" {cell} |");
            }
            out += "\n";
        }
    }

    let curves: Vec<&(String, String)> = plots.iter().filter(|(k, _)| k != "ratios").collect();
    if !curves.is_empty() {
        out += "\n## Throughput against message size\n\nOne line per implementation \
                (median time per iteration over the rounds); the thick red line is Tessera's best \
                backend.\n\n";
        for (k, f) in curves {
            out += &format!("[![{k}]({f})]({f})\n");
        }
    }

    out += "\n## Rows in detail\n\nTime per iteration: median over the rounds [interquartile \
            range]; ratio to Tessera's best backend: median [IQR] and 95% interval.\n";
    for r in rows {
        out += &format!(
            "\n### {}\n\n`{}`: {} rounds{}, {:.1} s\n\n| impl | role | batch | time | throughput | ratio | ratio IQR | 95% interval |\n|---|---|---|---|---|---|---|---|\n",
            r.label(),
            r.id,
            r.rounds,
            r.contestants
                .iter()
                .find(|m| m.role == Role::Backend && m.rounds != r.rounds)
                .map(|m| format!(" (the other Tessera backends, raced apart: {})", m.rounds))
                .unwrap_or_default(),
            r.secs
        );
        for m in &r.contestants {
            out += &format!(
                "| {} | {} | {} | {} [{}, {}] | {} | {:.3}x{} | [{:.3}, {:.3}] | [{:.3}, {:.3}] |\n",
                m.name,
                m.role.name(),
                m.batch,
                fmt_time(m.time_ns.median),
                fmt_time(m.time_ns.q1),
                fmt_time(m.time_ns.q3),
                throughput(r.bytes, m.time_ns.median, 3),
                m.ratio.median,
                if m.role != Role::Reference && m.tie() {
                    " (tie)"
                } else {
                    ""
                },
                m.ratio.q1,
                m.ratio.q3,
                m.ci95.0,
                m.ci95.1
            );
        }
    }
    out += "\n## How the ratios are measured\n\n";
    out += METHOD;
    out += "\n";
    out
}

#[cfg(test)]
mod tests {
    use super::table_header;

    #[test]
    fn table_header_is_markdown() {
        assert_eq!(
            table_header(&["row", "time"], ["ring", "aws-lc-rs"].into_iter()),
            "| row | time | ring | aws-lc-rs |\n|---|---|---|---|\n"
        );
        assert_eq!(
            table_header(&["row"], std::iter::empty()),
            "| row |\n|---|\n"
        );
    }
}
