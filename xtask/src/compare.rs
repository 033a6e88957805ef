//! `cargo xtask bench [--full] [--cpu PROFILE] [--processes N] [--builds 1|2] [FILTER]`: the
//! interleaved comparison (the `compare` bench of `tessera-benches`), in N processes (default
//! 4) alternating between two builds of different code layout (the second compiled from a copy
//! of the sources at another path, `target/layout-b/`, so every symbol hash and the function
//! placement differ), each process writing `runs/<build><n>/`; the report aggregates them:
//! per ratio the median of the processes' medians and their range, a win or a loss only where
//! every process agrees. `--cpu avx2|aesni` caps Tessera's detection (`TESSERA_CPU_CAP`) and
//! AWS-LC's (`OPENSSL_ia32cap`) to a smaller CPU (see [`CpuProfile`]). Two builds: the rows of Tessera portable against RustCrypto's software
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
    compare_cmd_in(&root(), profile, args)
}

/// [`compare_cmd_profile`] for the source tree at `tree` (a layout build: its own copy of the
/// workspace, built into this workspace's target directory).
fn compare_cmd_in(tree: &Path, profile: &str, args: &[&str]) -> Command {
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
    .current_dir(tree);
    if tree != root() {
        // Both builds share one target directory: the peers' artefacts (registry crates: the
        // same package ids) are reused, the workspace's crates (path packages: the path is part
        // of their id, so of their symbol hashes) are built again beside the first build's.
        c.env("CARGO_TARGET_DIR", root().join("target"));
    }
    c
}

fn status(name: &str, c: &mut Command) -> bool {
    eprintln!("\n=== {name}\n    {c:?}");
    c.status().map(|s| s.success()).unwrap_or(false)
}

/// The row ids of both builds: (id, is_soft, is_full_only).
fn list_rows() -> Option<Vec<(String, bool, bool)>> {
    list_rows_in(&root())
}

/// [`list_rows`] of the tree at `tree` (building it first).
fn list_rows_in(tree: &Path) -> Option<Vec<(String, bool, bool)>> {
    let out = compare_cmd_in(tree, "bench", &["--list"]).output().ok()?;
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

/// A CPU profile of `cargo xtask bench --cpu`: what Tessera's detection and the peers that
/// allow it are capped to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CpuProfile {
    /// The machine as it is.
    Native,
    /// AMD Zen 3's feature set: AVX2, BMI1/2, ADX, AES-NI, PCLMULQDQ, VAES, VPCLMULQDQ,
    /// SHA-NI; no AVX-512, no GFNI.
    Avx2,
    /// A Westmere-class x86-64: SSE up to 4.1, AES-NI, PCLMULQDQ; no AVX.
    AesNi,
}

/// AWS-LC's `OPENSSL_ia32cap` masks (`~`: clear these bits of the CPUID words it read; the
/// first value is leaf 1 EDX (low half) and ECX (high half), the second leaf 7 EBX (low) and
/// ECX (high)).
/// avx2: leaf 7 EBX bits 16, 17, 21, 26, 27, 28, 30, 31 (AVX-512 F, DQ, IFMA, PF, ER, CD, BW,
/// VL) and ECX bits 1, 6, 8, 11, 12, 14 (AVX-512 VBMI, VBMI2, GFNI, VNNI, BITALG, VPOPCNTDQ).
const IA32CAP_AVX2: &str = "~0x0:~0x00005942DC230000";
/// aesni: leaf 1 ECX bits 12, 22, 26, 27, 28, 29 (FMA, MOVBE, XSAVE, OSXSAVE, AVX, F16C) and
/// every leaf 7 bit (AVX2, BMI1/2, ADX, SHA, AVX-512, VAES, ...).
const IA32CAP_AESNI: &str = "~0x3C40100000000000:~0xFFFFFFFFFFFFFFFF";

impl CpuProfile {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "native" => Some(Self::Native),
            "avx2" => Some(Self::Avx2),
            "aesni" => Some(Self::AesNi),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Native => "native",
            Self::Avx2 => "avx2",
            Self::AesNi => "aesni",
        }
    }

    /// The output directory of a run of this profile.
    fn dir(self) -> PathBuf {
        match self {
            Self::Native => root().join("target/tessera-bench"),
            p => root().join(format!("target/tessera-bench-{}", p.name())),
        }
    }

    /// The environment of every bench process, and the report's profile line.
    fn env(self) -> (Vec<(&'static str, &'static str)>, String) {
        match self {
            Self::Native => (Vec::new(), "native (no cap)".into()),
            Self::Avx2 => (
                vec![
                    ("TESSERA_CPU_CAP", "avx2"),
                    ("OPENSSL_ia32cap", IA32CAP_AVX2),
                ],
                format!(
                    "`avx2` (AMD Zen 3's features: AVX2, BMI1/2, ADX, AES-NI, PCLMULQDQ, VAES and \
                     VPCLMULQDQ on 256-bit vectors, SHA-NI; no AVX-512, no GFNI). Tessera: \
                     `TESSERA_CPU_CAP=avx2` (test builds only). aws-lc-rs: \
                     `OPENSSL_ia32cap={IA32CAP_AVX2}` (clears AVX-512 F/DQ/IFMA/PF/ER/CD/BW/VL, \
                     VBMI/VBMI2, GFNI, VNNI, BITALG, VPOPCNTDQ). ring 0.17: not capped, and has \
                     no AVX-512 code (no zmm instruction in its x86_64 assembly). RustCrypto, \
                     libcrux, PQClean, dalek and the HPKE crates read CPUID themselves, not \
                     capped; none of the code their measured rows run has AVX-512 paths \
                     (RustCrypto `sha2`/`aes`/`polyval`/`chacha20`/`poly1305`: SHA-NI, AES-NI, \
                     CLMUL and AVX2 at most; libcrux and PQClean ML-KEM: AVX2; curve25519-dalek's \
                     IFMA code serves Edwards points, not the X25519 ladder). Not capped and \
                     with AVX-512 code: graviola (the TLS rows), whose AES-GCM takes its \
                     AVX-512 path on this machine (its switch is read in debug builds only), \
                     so its AES-GCM TLS ratios are not an AVX2 machine's"
                ),
            ),
            Self::AesNi => (
                vec![
                    ("TESSERA_CPU_CAP", "aesni"),
                    ("OPENSSL_ia32cap", IA32CAP_AESNI),
                ],
                format!(
                    "`aesni` (a Westmere-class x86-64: SSE up to 4.1, AES-NI, PCLMULQDQ; no AVX, \
                     no BMI, no SHA-NI). Tessera: `TESSERA_CPU_CAP=aesni`. aws-lc-rs: \
                     `OPENSSL_ia32cap={IA32CAP_AESNI}` (clears FMA, MOVBE, XSAVE, OSXSAVE, AVX, \
                     F16C and every leaf 7 feature). ring, RustCrypto, libcrux, PQClean, dalek \
                     and the HPKE crates cannot be capped: they still run their AVX2, BMI2/ADX \
                     and SHA-NI code here, so their ratios are not those of a real Westmere"
                ),
            ),
        }
    }
}

/// What `cargo xtask bench` runs.
#[derive(Clone, Debug)]
pub struct Opts {
    pub full: bool,
    pub filter: Option<String>,
    pub cpu: CpuProfile,
    /// Bench processes; 1: one process, its report as it is.
    pub processes: usize,
    /// Builds of different code layout the processes alternate between (1 or 2).
    pub builds: usize,
}

/// Copies the workspace's sources (not `target/`, not `.git/`) to `dst`, rewriting only the
/// files whose contents changed (so a second run rebuilds only what changed).
fn sync_tree(src: &Path, dst: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dst)?;
    for e in std::fs::read_dir(src)? {
        let e = e?;
        let name = e.file_name();
        if src == root() && (name == "target" || name == ".git") {
            continue;
        }
        let (from, to) = (e.path(), dst.join(&name));
        if e.file_type()?.is_dir() {
            sync_tree(&from, &to)?;
        } else if e.file_type()?.is_file() {
            let data = std::fs::read(&from)?;
            if std::fs::read(&to).ok().as_deref() != Some(&data[..]) {
                std::fs::write(&to, data)?;
            }
        }
    }
    Ok(())
}

/// The second build's source tree: a copy of this workspace at another path.
fn layout_tree() -> PathBuf {
    root().join("target/layout-b/tessera")
}

/// Runs the comparison and prints the report's summary; false when a build or run failed or
/// the filter selects no row. With several processes (the default: 4, alternating between
/// two builds of different code layout), each process writes `DIR/runs/<build><n>/`, and
/// the report in DIR aggregates them (see the bench's `--aggregate`).
pub fn run(o: &Opts) -> bool {
    let t = Instant::now();
    let dir = o.cpu.dir();
    let _ = std::fs::create_dir_all(&dir);
    clean(&dir);
    let _ = std::fs::remove_dir_all(dir.join("runs"));
    let filter = o.filter.as_deref();
    let full = o.full;
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
    let (main_rows, mut soft_rows) = (matches(false), matches(true));
    if o.cpu != CpuProfile::Native && soft_rows > 0 {
        // The soft rows race Tessera portable against RustCrypto's software-only AES-GCM and
        // ChaCha20-Poly1305: no CPU feature is involved, so a profile measures the same thing
        // as the native run, and its separate build would only cost time.
        eprintln!(
            "=== compare: the {soft_rows} RustCrypto-soft rows are left out of the {} profile \
             (software on both sides: the native run measures them)",
            o.cpu.name()
        );
        soft_rows = 0;
    }
    if main_rows + soft_rows == 0 {
        eprintln!("compare: filter {filter:?} matches no row; the rows are:");
        for (id, ..) in &rows {
            eprintln!("  {id}");
        }
        return false;
    }
    let builds = o.builds.clamp(1, 2);
    let processes = o.processes.max(1);
    let mut trees = vec![root()];
    if builds == 2 && processes > 1 {
        let tree = layout_tree();
        eprintln!(
            "=== the second build: a copy of the sources at {} (another path: other symbol \
             hashes, so another code layout)",
            tree.display()
        );
        if let Err(e) = sync_tree(&root(), &tree) {
            eprintln!("compare: cannot copy the sources: {e}");
            return false;
        }
        if list_rows_in(&tree).is_none() {
            eprintln!("compare: the second build failed");
            return false;
        }
        trees.push(tree);
    }
    let (env, profile_line) = o.cpu.env();
    // Per process: the passes and row time of the mode, shortened when several processes
    // share the budget (the default run stays under 15 minutes once built).
    let per_process: Vec<String> = if processes > 1 && !full {
        vec![
            "--passes".into(),
            "2".into(),
            "--row-secs".into(),
            "1.0".into(),
        ]
    } else if processes > 1 {
        vec![
            "--passes".into(),
            "4".into(),
            "--row-secs".into(),
            "5".into(),
        ]
    } else {
        Vec::new()
    };
    let mut run_dirs = Vec::new();
    for i in 0..processes {
        let b = i % trees.len();
        let label = format!("{}{}", (b'a' + b as u8) as char, i / trees.len() + 1);
        let out_dir = if processes == 1 {
            dir.clone()
        } else {
            dir.join("runs").join(&label)
        };
        let _ = std::fs::create_dir_all(&out_dir);
        let out = out_dir.to_string_lossy().into_owned();
        let mut common: Vec<&str> = vec!["--out", &out];
        common.extend(per_process.iter().map(String::as_str));
        if full {
            common.push("--full");
        }
        if let Some(f) = filter {
            common.push(f);
        }
        let soft_json = out_dir.join("soft.json").to_string_lossy().into_owned();
        let with_env = |c: &mut Command| {
            for (k, v) in &env {
                c.env(k, v);
            }
            c.env("TESSERA_BENCH_PROFILE", &profile_line);
        };
        if soft_rows > 0 {
            // RUSTFLAGS replaces the config's test hooks, which the bench harness needs (it
            // drives the derandomized HPKE entry points): add them back.
            let flags = crate::cmd::rustflags_with_hooks(SOFT_RUSTFLAGS);
            let mut c = compare_cmd_in(&trees[b], "bench", &common);
            c.env("RUSTFLAGS", flags)
                .env("CARGO_TARGET_DIR", root().join("target/soft"));
            with_env(&mut c);
            if !status(
                &format!(
                    "compare [{label}, process {}/{processes}, {}]: {soft_rows} RustCrypto-soft rows (build with {SOFT_RUSTFLAGS})",
                    i + 1,
                    o.cpu.name()
                ),
                &mut c,
            ) {
                return false;
            }
        }
        let mut args = common.clone();
        if soft_rows > 0 {
            args.extend(["--merge", &soft_json]);
        }
        let mut c = compare_cmd_in(&trees[b], "bench", &args);
        with_env(&mut c);
        if !status(
            &format!(
                "compare [{label}, process {}/{processes}, {}]: {main_rows} rows",
                i + 1,
                o.cpu.name()
            ),
            &mut c,
        ) {
            return false;
        }
        run_dirs.push(out_dir);
    }
    if processes > 1 {
        let out = dir.to_string_lossy().into_owned();
        let mut args: Vec<String> = vec!["--out".into(), out];
        for d in &run_dirs {
            args.push("--aggregate".into());
            args.push(d.to_string_lossy().into_owned());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        if !status(
            &format!("compare: one report from {processes} processes"),
            &mut compare_cmd(&args),
        ) {
            return false;
        }
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
        "full report: {} (JSON: results.json, plots: *.svg; each process: runs/); {:.0} s",
        report.display(),
        t.elapsed().as_secs_f64()
    );
    true
}

/// One tiny row, very few rounds, then a check of every output file (no timing asserted); then
/// the same in the `avx2` profile, checking that the cap took effect (the report's profile and
/// feature lines, and a backend without AVX-512 on the row).
///
/// Built with the test profile (opt-level 2, what the test legs build), not the release one:
/// the smoke checks the harness and its outputs, not speed, and in `cargo xtask test` it then
/// reuses the peers' C builds (aws-lc-sys, ring) of the native leg instead of building every
/// peer a second time in release (about 4 minutes of CI on 2 cores).
pub fn smoke() -> bool {
    const AVX2_SMOKE_ROW: &str = "op=aes128-gcm-seal,size=64B";
    // The harness library's own unit tests (the load parser, the report), in the same
    // profile and features as the smoke's build, so they reuse it.
    let mut unit = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    unit.args([
        "test",
        "--ignore-rust-version",
        "-p",
        "tessera-benches",
        "--lib",
    ])
    .current_dir(root());
    if !status("tessera-benches unit tests (test profile)", &mut unit) {
        return false;
    }
    let mut ok = true;
    for cpu in [CpuProfile::Native, CpuProfile::Avx2] {
        let dir = root().join("target/tessera-bench/smoke").join(cpu.name());
        let _ = std::fs::create_dir_all(&dir);
        clean(&dir);
        let out = dir.to_string_lossy().into_owned();
        // The avx2 smoke races AES-128-GCM, whose best backend on an AVX-512 machine is
        // `x86_vaes512`: capped, it must be another one.
        let mut args = vec!["--smoke", "--out", &out];
        if cpu == CpuProfile::Avx2 {
            args.push(AVX2_SMOKE_ROW);
        }
        let mut c = compare_cmd_profile("test", &args);
        let (env, line) = cpu.env();
        for (k, v) in env {
            c.env(k, v);
        }
        c.env("TESSERA_BENCH_PROFILE", line);
        if !status(
            &format!("compare --smoke (test profile, {})", cpu.name()),
            &mut c,
        ) {
            return false;
        }
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_default();
        let json: serde_json::Value =
            serde_json::from_str(&read("results.json")).unwrap_or_default();
        let records = json["records"].as_array().map_or(0, |r| r.len());
        let report = read("report.md");
        let reference = json["records"][0]["impl"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let mut checks = vec![
            (
                "results.json has a reference and at least one peer record",
                records >= 2
                    && json["records"][0]["role"] == "reference"
                    && json["records"][0]["time_ns"]["median"].as_f64().is_some(),
            ),
            (
                "report.md has the summary table",
                report.contains("## Summary"),
            ),
            (
                "report.md has the load line",
                report.contains("- Load: ") && json["meta"]["load"]["noisy"].is_boolean(),
            ),
            ("ratios.svg is an SVG", read("ratios.svg").contains("<svg")),
        ];
        if cpu == CpuProfile::Avx2 {
            checks.push((
                "the avx2 report names its profile and detects no AVX-512",
                report.contains("- CPU profile: `avx2`")
                    && (!cfg!(target_arch = "x86_64") || report.contains("AVX-512 no")),
            ));
            checks.push((
                "the avx2 row runs a backend without AVX-512",
                json["records"][0]["row"] == AVX2_SMOKE_ROW && !reference.contains("512"),
            ));
        }
        for (what, good) in checks {
            eprintln!(
                "smoke ({}): {} {what}",
                cpu.name(),
                if good { "ok  " } else { "FAIL" }
            );
            ok &= good;
        }
        eprintln!("smoke ({}): the row ran on {reference}", cpu.name());
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

/// The README's generated benchmark section of the native profile lies between these two lines.
const README_BEGIN: &str = "<!-- bench-report:begin (generated by `cargo xtask bench --readme`; edit the report, not this) -->";
const README_END: &str = "<!-- bench-report:end -->";
/// ... and that of the avx2 profile between these.
const README_AVX2_BEGIN: &str = "<!-- bench-report-avx2:begin (generated by `cargo xtask bench --cpu avx2` then `cargo xtask bench --readme target/tessera-bench-avx2`) -->";
const README_AVX2_END: &str = "<!-- bench-report-avx2:end -->";

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

/// Puts `section` between the markers `begin` and `end` of `readme`; None when a marker is
/// missing.
fn splice_between(readme: &str, section: &str, begin: &str, end: &str) -> Option<String> {
    let b = readme.find(begin)? + begin.len();
    let e = readme[b..].find(end)? + b;
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
    if report.contains("**NOISY RUN**") {
        eprintln!(
            "readme: {} is from a noisy run (other processes or steal above the thresholds): \
             measure again on a quiet machine",
            dir.join("report.md").display()
        );
        return false;
    }
    let (begin, end) = if report.contains("- CPU profile: `avx2`") {
        (README_AVX2_BEGIN, README_AVX2_END)
    } else {
        (README_BEGIN, README_END)
    };
    let path = root().join("README.md");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("readme: cannot read {}", path.display());
        return false;
    };
    let Some(new) = splice_between(&text, &readme_section(&report), begin, end) else {
        eprintln!("readme: README.md lacks the lines {begin} and {end}");
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
        let new = splice_between(&readme, "NEW", README_BEGIN, README_END).unwrap();
        assert_eq!(
            new,
            format!("intro\n{README_BEGIN}\n\nNEW\n\n{README_END}\ntail\n")
        );
        assert!(splice_between("no markers", "x", README_BEGIN, README_END).is_none());
        let both =
            format!("{README_BEGIN}\na\n{README_END}\n{README_AVX2_BEGIN}\nb\n{README_AVX2_END}\n");
        let new = splice_between(&both, "X", README_AVX2_BEGIN, README_AVX2_END).unwrap();
        assert!(new.contains("\na\n") && new.contains("\n\nX\n\n") && !new.contains("\nb\n"));
    }
}
