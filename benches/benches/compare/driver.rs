//! The driver: arguments, the races of a row, the measured passes, the outputs.

use crate::*;

// ---------------------------------------------------------------------------------------------
// Driver.

pub(crate) struct Args {
    pub(crate) smoke: bool,
    pub(crate) full: bool,
    pub(crate) list: bool,
    pub(crate) filter: Option<String>,
    pub(crate) out: PathBuf,
    pub(crate) merge: Option<PathBuf>,
    pub(crate) clock: Clock,
    pub(crate) row_secs: Option<f64>,
    pub(crate) batch_us: Option<f64>,
    /// `--passes N`: passes over every row (the mode's number otherwise).
    pub(crate) passes: Option<usize>,
    /// `--aggregate DIR` (repeated): no measuring; one report from these runs' results.json.
    pub(crate) aggregate: Vec<PathBuf>,
}

pub(crate) fn parse_args() -> Args {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let default_out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/tessera-bench");
    let mut a = Args {
        // Without `--bench` (a `cargo test --benches` run) only the smoke run makes sense.
        smoke: !raw.iter().any(|x| x == "--bench"),
        full: false,
        list: false,
        filter: None,
        out: default_out,
        merge: None,
        clock: Clock::ThreadCpu,
        row_secs: None,
        batch_us: None,
        passes: None,
        aggregate: Vec::new(),
    };
    let mut it = raw.into_iter();
    while let Some(x) = it.next() {
        let mut value = |flag: &str| it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match x.as_str() {
            "--bench" => {}
            "--smoke" => a.smoke = true,
            "--full" => a.full = true,
            "--list" => a.list = true,
            "--out" => a.out = PathBuf::from(value("--out")),
            "--merge" => a.merge = Some(PathBuf::from(value("--merge"))),
            "--clock" => {
                let v = value("--clock");
                a.clock = Clock::parse(&v).unwrap_or_else(|| panic!("unknown clock {v}"));
            }
            "--row-secs" => a.row_secs = Some(value("--row-secs").parse().expect("--row-secs")),
            "--batch-us" => a.batch_us = Some(value("--batch-us").parse().expect("--batch-us")),
            "--passes" => a.passes = Some(value("--passes").parse().expect("--passes")),
            "--aggregate" => a.aggregate.push(PathBuf::from(value("--aggregate"))),
            f if f.starts_with("--") => panic!("unknown flag {f}"),
            f => a.filter = Some(f.to_string()),
        }
    }
    a
}

/// `portable 4.889, ring 1.903=, ...` (`=`: a tie) for a progress line.
pub(crate) fn ratios_line(cs: &[Measured]) -> String {
    cs.iter()
        .skip(1)
        .map(|m| {
            format!(
                "{} {:.3}{}",
                m.name.trim_start_matches("tessera/"),
                m.ratio.median,
                if m.tie() { "=" } else { "" }
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn cpu_model() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name") || l.starts_with("CPU part"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let cpus = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    format!("{model} ({cpus} logical CPUs)")
}

/// Splits a row's contestants into its races. A row with both peers and other Tessera backends
/// runs two races, each with the best backend as its reference: the best backend against the
/// peers (`contestants`, the first build) and, apart, against Tessera's other backends
/// (`rebuild`, a second build of the row). A forced backend that `detect()` does not pick can
/// change the machine for the contestants that run after it: on the Emerald Rapids guest,
/// `tessera-aes-gcm`'s 256-bit `x86_vaes` sealing 64 KiB messages lowers the core clock by about
/// 5% for some 3.5 ms after it stops (a scalar multiplication chain timed after a 0.5 ms burst:
/// 3.38 instead of 3.58 GHz, back after 3.5-3.9 ms; bursts of `x86_vaes512`, `x86_aesni` or
/// aws-lc-rs leave it at full speed). Batches of ~100 µs keep every contestant of a race
/// under that clock, and a contestant bound by the core clock loses more of its speed than
/// one that is not (in a race of `x86_vaes512`, aws-lc-rs and `x86_vaes`, AES-256-GCM sealing
/// 64 KiB measured 1.00x aws-lc-rs, against 1.06x without `x86_vaes`). The peer ratios are
/// therefore measured without the other backends. Any other row runs as one race.
pub(crate) fn races(
    contestants: Vec<Contestant>,
    rebuild: impl FnOnce() -> Vec<Contestant>,
) -> (Vec<Contestant>, Vec<Contestant>) {
    let has = |r: Role| contestants.iter().any(|c| c.role == r);
    if !(has(Role::Peer) && has(Role::Backend)) {
        return (contestants, Vec::new());
    }
    let peers = contestants
        .into_iter()
        .filter(|c| c.role != Role::Backend)
        .collect();
    let backends = rebuild()
        .into_iter()
        .filter(|c| c.role != Role::Peer)
        .collect();
    (peers, backends)
}

/// One row's result from its races ([`races`]): the reference and the peers from the first,
/// Tessera's other backends from the second, in the order of a single race (reference,
/// backends, peers). The rounds are those of the first race, the time that of both.
pub(crate) fn merged(peers: RowResult, backends: Option<RowResult>) -> RowResult {
    let Some(b) = backends else {
        return peers;
    };
    let mut it = peers.contestants.into_iter();
    let reference = it.next().expect("a race has its reference first");
    let contestants = std::iter::once(reference)
        .chain(b.contestants.into_iter().skip(1))
        .chain(it)
        .collect();
    RowResult {
        rounds: peers.rounds,
        secs: peers.secs + b.secs,
        contestants,
    }
}

/// Writes results.json, the SVG plots and report.md into `dir`; in a smoke run also checks that
/// each was written and is not empty.
pub(crate) fn write_outputs(dir: &std::path::Path, meta: &Meta, rows: &[RowRecord], check: bool) {
    let mut written = Vec::new();
    let json = dir.join("results.json");
    let text = serde_json::to_string_pretty(&report::to_json(meta, rows)).unwrap();
    std::fs::write(&json, text).expect("write results.json");
    written.push(json);

    let mut plots = Vec::new();
    let ratios = "ratios.svg".to_string();
    if let Err(e) = plot::ratios(&dir.join(&ratios), rows) {
        panic!("ratio plot: {e}");
    }
    written.push(dir.join(&ratios));
    plots.push(("ratios".to_string(), ratios));
    for op in plot::curve_ops(rows) {
        let f = format!("throughput-{op}.svg");
        if let Err(e) = plot::throughput(&dir.join(&f), &op, rows) {
            panic!("throughput plot {op}: {e}");
        }
        written.push(dir.join(&f));
        plots.push((op, f));
    }
    let md = dir.join("report.md");
    std::fs::write(&md, report::markdown(meta, rows, &plots)).expect("write report.md");
    written.push(md);
    for p in &written {
        if check {
            let len = std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
            assert!(len > 0, "smoke: {} was not written", p.display());
        }
        eprintln!("wrote {}", p.display());
    }
}

/// `--list`: every row's id, build (`main` or `soft`) and run (`default` or `full`).
pub(crate) fn list_rows(all: &[Spec]) {
    for s in all {
        println!(
            "{}\t{}\t{}",
            s.id(),
            if s.soft { "soft" } else { "main" },
            if s.full_only { "full" } else { "default" }
        );
    }
}

/// The rows this run measures (this build's, filtered) and how many detail rows the default run
/// leaves out.
pub(crate) fn select_rows<'a>(all: &'a [Spec], args: &Args, soft: bool) -> (Vec<&'a Spec>, usize) {
    let left_out = if args.full || args.filter.is_some() || args.smoke {
        0
    } else {
        all.iter().filter(|s| s.soft == soft && s.full_only).count()
    };
    let mut selected: Vec<&Spec> = all
        .iter()
        .filter(|s| s.soft == soft)
        .filter(|s| args.full || args.filter.is_some() || !s.full_only)
        .filter(|s| args.filter.as_deref().is_none_or(|f| s.id().contains(f)))
        .collect();
    if args.smoke {
        // One tiny row (the first selected one: `op=sha256,size=64B` by default).
        selected.truncate(1);
    }
    (selected, left_out)
}

/// The run's mode, passes and measurement configuration.
pub(crate) fn run_config(args: &Args) -> (&'static str, usize, Config) {
    // `row_ns` is the budget of one pass over a row; each row gets `passes` passes, spread
    // over the whole run (every row once, then every row again, ...), so that a few slow or
    // disturbed seconds of the machine fall on one pass of a row, not on all of it.
    let (mode, passes, mut cfg) = if args.smoke {
        (
            "smoke",
            1,
            Config {
                batch_ns: 20e3,
                warmup_ns: 1e6,
                row_ns: 20e6,
                min_rounds: 10,
                max_rounds: 40,
                resamples: 100,
                clock: args.clock,
            },
        )
    } else if args.full {
        (
            "full",
            8,
            Config {
                batch_ns: 100e3,
                warmup_ns: 20e6,
                row_ns: 2.5e9,
                min_rounds: 256,
                max_rounds: 1_000_000,
                resamples: 2000,
                clock: args.clock,
            },
        )
    } else {
        (
            "default",
            4,
            Config {
                batch_ns: 100e3,
                warmup_ns: 10e6,
                row_ns: 1e9,
                min_rounds: 256,
                max_rounds: 1_000_000,
                resamples: 1000,
                clock: args.clock,
            },
        )
    };
    let passes = args.passes.unwrap_or(passes).max(1);
    if let Some(s) = args.row_secs {
        cfg.row_ns = s * 1e9 / passes as f64;
    }
    if let Some(u) = args.batch_us {
        cfg.batch_ns = u * 1e3;
    }
    (mode, passes, cfg)
}

/// The run's first line: rows, mode, build, clock, batches, passes and the expected time.
pub(crate) fn announce(
    selected: &[&Spec],
    mode: &str,
    passes: usize,
    cfg: &Config,
    soft: bool,
    hw: &str,
) {
    let build = if soft {
        format!("RustCrypto-soft build ({SOFT_RUSTFLAGS})")
    } else {
        "main build".to_string()
    };
    eprintln!(
        "compare: {} rows ({mode}, {build}), clock {}, ~{:.0} µs batches, {passes} passes of \
         ~{:.1} s per row (about {:.0} s in all)\n{hw}",
        selected.len(),
        cfg.clock.name(),
        cfg.batch_ns / 1e3,
        cfg.row_ns / 1e9,
        selected
            .iter()
            .map(|s| passes as f64 * (cfg.row_ns * s.budget / 1e9 + 0.1))
            .sum::<f64>()
    );
}

/// Every pass over the selected rows: per row, the samples of its two races and its notes.
pub(crate) fn measure_rows(
    selected: &[&Spec],
    cfg: &Config,
    passes: usize,
) -> (Vec<Samples>, Vec<Samples>, Vec<Vec<String>>, RunLoad) {
    let cfg = *cfg;
    let n = selected.len();
    // Per row, the samples of its two races: the best backend against the peers (or against
    // everything, in a row without both peers and other backends) and, apart, the best backend
    // against Tessera's other backends (see `races`).
    let mut samples = vec![Samples::default(); n];
    let mut backend_samples = vec![Samples::default(); n];
    let mut notes = vec![Vec::new(); n];
    let mut load = RunLoad::default();
    for pass in 1..=passes {
        let before = tessera_benches::load::sample();
        for (i, s) in selected.iter().enumerate() {
            let built = (s.build)(s.size);
            notes[i] = built.notes;
            let (mut cs, mut bs) = races(built.contestants, || (s.build)(s.size).contestants);
            // The row's budget is shared in proportion to the contestants of each race, so a
            // split row takes about the time it took as one race (the reference runs in both,
            // with a warm-up and calibration in each).
            let share = |k: usize| k as f64 / (cs.len() + bs.len()) as f64;
            let row_ns = cfg.row_ns * s.budget;
            let (peer_ns, backend_ns) = (row_ns * share(cs.len()), row_ns * share(bs.len()));
            samples[i].append(measure(
                &mut cs,
                &Config {
                    row_ns: peer_ns,
                    ..cfg
                },
                |_| {},
            ));
            if !bs.is_empty() {
                backend_samples[i].append(measure(
                    &mut bs,
                    &Config {
                        row_ns: backend_ns,
                        ..cfg
                    },
                    |_| {},
                ));
            }
            if pass < passes {
                // A cheap look at the rounds so far (no bootstrap).
                let so_far = merged(
                    samples[i].summarize(0),
                    (!bs.is_empty()).then(|| backend_samples[i].summarize(0)),
                );
                eprintln!(
                    "[pass {pass}/{passes}] [{:>2}/{n}] {:<34} {}",
                    i + 1,
                    s.id(),
                    ratios_line(&so_far.contestants)
                );
            }
        }
        if let (Some(a), Some(b)) = (before, tessera_benches::load::sample()) {
            let l = tessera_benches::load::between(&a, &b);
            eprintln!(
                "[pass {pass}/{passes}] load: other processes {:.2} CPU, steal {:.1}%",
                l.others_cpu, l.steal_pct
            );
            load.passes.push(l);
        }
    }
    (samples, backend_samples, notes, load)
}

/// The bootstrap intervals, on both cores (the measuring is over; the results do not depend on
/// the split: each row's resampling has its own fixed seed).
pub(crate) fn summarize_rows(
    samples: &[Samples],
    backend_samples: &[Samples],
    resamples: usize,
) -> Vec<RowResult> {
    let n = samples.len();
    std::thread::scope(|sc| {
        let per = n.div_ceil(2).max(1);
        let handles: Vec<_> = samples
            .chunks(per)
            .zip(backend_samples.chunks(per))
            .map(|(chunk, backend_chunk)| {
                sc.spawn(move || {
                    chunk
                        .iter()
                        .zip(backend_chunk)
                        .map(|(s, b)| {
                            let b = (!b.names.is_empty()).then(|| b.summarize(resamples));
                            merged(s.summarize(resamples), b)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("bootstrap thread"))
            .collect()
    })
}

/// The rows' records, each printed as its result line.
pub(crate) fn records(
    selected: &[&Spec],
    summaries: Vec<RowResult>,
    notes: &mut [Vec<String>],
) -> Vec<RowRecord> {
    let n = selected.len();
    let mut rows = Vec::new();
    for ((i, s), r) in selected.iter().enumerate().zip(summaries) {
        let rec = RowRecord {
            id: s.id(),
            op: s.op.to_string(),
            size: s.size,
            bytes: s.size * s.ways,
            notes: std::mem::take(&mut notes[i]),
            rounds: r.rounds,
            secs: r.secs,
            contestants: r.contestants,
        };
        eprintln!(
            "[{:>2}/{n}] {:<34} {} {:>10} | {} | {} rounds, {:.1} s",
            i + 1,
            rec.id,
            rec.tessera_backend(),
            report::fmt_time(rec.reference().time_ns.median),
            ratios_line(&rec.contestants),
            rec.rounds,
            rec.secs
        );
        rows.push(rec);
    }
    rows
}

/// The RustCrypto-soft build's output: `DIR/soft.json`, for the main build to merge.
pub(crate) fn write_soft(dir: &std::path::Path, meta: &Meta, rows: &[RowRecord]) {
    let p = dir.join("soft.json");
    let text = serde_json::to_string_pretty(&report::to_json(meta, rows)).unwrap();
    std::fs::write(&p, text).expect("write soft.json");
    eprintln!("wrote {}", p.display());
}

/// `--merge FILE`: the soft build's rows and time added to this run's.
pub(crate) fn merge_soft(m: &std::path::Path, meta: &mut Meta, rows: &mut Vec<RowRecord>) {
    match std::fs::read_to_string(m) {
        Ok(text) => {
            let v: serde_json::Value = serde_json::from_str(&text).expect("parse soft results");
            meta.total_secs += v["meta"]["total_secs"].as_f64().unwrap_or(0.0);
            let soft = report::meta_from_json(&v);
            meta.load.passes.extend(soft.load.passes);
            meta.noisy = meta.load.noisy();
            rows.extend(report::rows_from_json(&v));
        }
        Err(e) => eprintln!("no soft results to merge ({}: {e})", m.display()),
    }
}

/// The CPU profile line of the report: what `cargo xtask bench --cpu` set (`TESSERA_BENCH_PROFILE`),
/// else the caps found in the environment, else `native`.
pub(crate) fn profile_line() -> String {
    if let Ok(p) = std::env::var("TESSERA_BENCH_PROFILE") {
        return p;
    }
    let cap = std::env::var("TESSERA_CPU_CAP").unwrap_or_default();
    let ossl = std::env::var("OPENSSL_ia32cap").unwrap_or_default();
    match (cap.is_empty(), ossl.is_empty()) {
        (true, true) => "native".into(),
        _ => format!("TESSERA_CPU_CAP={cap:?}, OPENSSL_ia32cap={ossl:?}"),
    }
}

/// `--aggregate DIR...`: one report from several processes' runs (their `results.json`): per
/// ratio, the median of the processes' medians, and as its interval the lowest and highest of
/// them, so that a ratio is a win or a loss only where every process agrees (else parity).
/// Times likewise: median [lowest, highest] of the processes' medians.
pub(crate) fn aggregate(out: &std::path::Path, dirs: &[PathBuf]) {
    let runs: Vec<(String, Meta, Vec<RowRecord>)> = dirs
        .iter()
        .map(|d| {
            let p = d.join("results.json");
            let text = std::fs::read_to_string(&p)
                .unwrap_or_else(|e| panic!("aggregate: cannot read {}: {e}", p.display()));
            let v: serde_json::Value = serde_json::from_str(&text).expect("aggregate: JSON");
            let label = d
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default();
            (
                label,
                report::meta_from_json(&v),
                report::rows_from_json(&v),
            )
        })
        .collect();
    let (_, first_meta, first_rows) = runs.first().expect("aggregate: no run given");
    let med = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let n = v.len();
        if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        }
    };
    let mut rows = Vec::new();
    let (mut wins, mut losses, mut parity) = (0, 0, 0);
    for r in first_rows {
        let mut row = r.clone();
        row.rounds = 0;
        row.secs = 0.0;
        let mut contestants = Vec::new();
        for m in &r.contestants {
            let found: Vec<&Measured> = runs
                .iter()
                .filter_map(|(_, _, rs)| {
                    rs.iter()
                        .find(|x| x.id == r.id)
                        .and_then(|x| x.contestants.iter().find(|c| c.name == m.name))
                })
                .collect();
            if found.len() != runs.len() {
                row.notes.push(format!(
                    "{} measured in {} of {} processes: left out of the aggregate",
                    m.name,
                    found.len(),
                    runs.len()
                ));
                continue;
            }
            let mut t: Vec<f64> = found.iter().map(|c| c.time_ns.median).collect();
            let mut q: Vec<f64> = found.iter().map(|c| c.ratio.median).collect();
            let (tlo, thi) = (
                t.iter().copied().fold(f64::INFINITY, f64::min),
                t.iter().copied().fold(0.0, f64::max),
            );
            let (qlo, qhi) = (
                q.iter().copied().fold(f64::INFINITY, f64::min),
                q.iter().copied().fold(0.0, f64::max),
            );
            let mut c = (*m).clone();
            c.time_ns = Spread {
                median: med(&mut t),
                q1: tlo,
                q3: thi,
            };
            c.ratio = Spread {
                median: med(&mut q),
                q1: qlo,
                q3: qhi,
            };
            c.ci95 = (qlo, qhi);
            c.rounds = found.iter().map(|c| c.rounds).sum();
            if c.role == Role::Peer {
                if c.tie() {
                    parity += 1;
                } else if qlo > 1.0 {
                    wins += 1;
                } else {
                    losses += 1;
                }
            }
            contestants.push(c);
        }
        for (_, _, rs) in &runs {
            if let Some(x) = rs.iter().find(|x| x.id == r.id) {
                row.rounds += x.rounds;
                row.secs += x.secs;
            }
        }
        row.contestants = contestants;
        rows.push(row);
    }
    let mut meta = first_meta.clone();
    meta.processes = runs.len();
    meta.total_secs = runs.iter().map(|(_, m, _)| m.total_secs).sum();
    meta.load = RunLoad {
        passes: runs
            .iter()
            .flat_map(|(_, m, _)| m.load.passes.clone())
            .collect(),
    };
    meta.noisy = runs.iter().any(|(_, m, _)| m.noisy);
    let mut builds: Vec<char> = runs.iter().filter_map(|(l, ..)| l.chars().next()).collect();
    builds.sort();
    builds.dedup();
    meta.extra = vec![format!(
        "Spread: {} processes ({}) in {} build{} of different code layout (each build compiled \
         from its own copy of the source tree, at another path: other symbol hashes, so other \
         function placement); every process has its own address layout. Ratios against peers: \
         {wins} wins and {losses} losses (every process agrees), {parity} parity",
        runs.len(),
        runs.iter()
            .map(|(l, ..)| l.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        builds.len(),
        if builds.len() == 1 { "" } else { "s" }
    )];
    for (l, m, _) in &runs {
        meta.extra.push(format!(
            "Process {l}: {:.0} s, load: {}",
            m.total_secs,
            m.load.line()
        ));
    }
    std::fs::create_dir_all(out).expect("create the output directory");
    write_outputs(out, &meta, &rows, false);
}
