//! Statistical constant-time test of one target (see the crate docs), run by `cargo xtask test`
//! in release mode, one leg per target:
//!
//! ```sh
//! cargo build --release -p tessera-ct-dudect --example dudect
//! target/release/examples/dudect list                     # the targets and operations
//! target/release/examples/dudect x25519:x86_avx512_ifma   # one target
//! target/release/examples/dudect control                  # the negative controls
//! ```
//!
//! Every run measures the quick negative control first (an early-exit comparison, which must be
//! flagged). Exit codes: 0 the target showed no leak (for `control`: both controls were
//! flagged); 1 a leak, confirmed by a second run; 2 this CPU lacks the backend the target names;
//! 3 a negative control was not flagged (the harness cannot see a leak here, so its silence
//! proves nothing); 4 an unknown argument.
//!
//! `TESSERA_DUDECT_SEED` (a number) changes the seed of the class order and the random inputs.

use std::process::exit;

#[cfg(target_arch = "x86_64")]
fn main() {
    use tessera_ct_dudect::harness::{self, QuickControl, Verdict};
    use tessera_ct_dudect::targets::{self, LeakyX25519, Lookup};
    use tessera_ct_dudect::{THRESHOLD, stats};

    let arg = std::env::args().nth(1).unwrap_or_default();
    let seed: u64 = match std::env::var("TESSERA_DUDECT_SEED") {
        Ok(s) => s.parse().unwrap_or_else(|_| {
            eprintln!("TESSERA_DUDECT_SEED={s:?}: not a number");
            exit(4)
        }),
        Err(_) => 0x7e55_e7a0,
    };
    if arg == "list" || arg.is_empty() {
        println!("targets run by cargo xtask test:");
        for t in targets::TARGETS {
            println!("  {t}");
        }
        println!("operations (any backend name of the crate may follow the colon):");
        for (op, what) in targets::OPERATIONS {
            println!("  {op}: {what}");
        }
        println!("  control: the negative controls (must be flagged)");
        exit(if arg.is_empty() { 4 } else { 0 });
    }
    let ready = if arg == "control" {
        None
    } else {
        match targets::lookup(&arg) {
            Lookup::Ready(r) => Some(r),
            Lookup::Absent(why) => {
                println!("SKIPPED: {arg}: {why}");
                exit(2);
            }
            Lookup::Unknown => {
                eprintln!("{arg}: unknown target (try `list`)");
                exit(4);
            }
        }
    };
    println!(
        "dudect: threshold |t| > {THRESHOLD}, crops at pooled percentiles {:?}; {}",
        stats::CROPS,
        tessera_cpu::features()
    );

    // The quick control: the timer must see an early exit of 64 bytes against one.
    let quick = harness::control(
        "quick control (early-exit 64-byte compare)",
        &mut QuickControl::new(seed),
        QuickControl::BUDGET,
        seed,
    );
    if !quick {
        println!("FAIL: the quick negative control was not flagged: this harness sees no leak");
        exit(3);
    }

    let Some(ready) = ready else {
        let mut c = LeakyX25519::new();
        let name = format!(
            "control (X25519 on {} + early-exit 32-byte compare)",
            c.backend()
        );
        if harness::control(&name, &mut c, LeakyX25519::BUDGET, seed) {
            println!("PASS: both negative controls flagged (|t| > {THRESHOLD})");
            exit(0);
        }
        println!("FAIL: the X25519-sized negative control was not flagged");
        exit(3);
    };
    let mut target = ready.target;
    println!("{arg}: {}", ready.about);
    let (leak, runs) = match harness::check(&arg, target.as_mut(), ready.budget, seed) {
        Verdict::ConstantTime(runs) => (false, runs),
        Verdict::Leak(runs) => (true, runs),
    };
    let ts: Vec<String> = runs
        .iter()
        .map(|r| format!("{:.2}", r.max_abs_t()))
        .collect();
    let ts = ts.join(", ");
    if leak {
        println!(
            "FAIL: {arg}: timing depends on the secret class (max|t| per run: {ts}; threshold \
             {THRESHOLD})"
        );
        exit(1);
    }
    println!("PASS: {arg}: no leak (max|t| per run: {ts}; threshold {THRESHOLD})");
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    println!("SKIPPED: the dudect targets are x86_64 backends");
    exit(2);
}
