//! The interleaved comparison behind `cargo xtask bench`: every row (one operation at one size)
//! races Tessera's best backend against each peer library and, in a second race, against
//! Tessera's other backends (see `races`), in alternating short batches inside this process
//! (see `tessera_benches::interleave`), then writes the markdown report, the JSON copy and the
//! SVG plots.
//!
//! ```text
//! cargo bench -p tessera-benches --bench compare -- [--full] [--smoke] [--list] [FILTER]
//!     [--out DIR] [--merge FILE] [--clock thread-cpu|wall] [--row-secs S] [--batch-us U]
//! ```
//!
//! FILTER is a substring of row ids (`op=sha256,size=64B`). The default run (no filter, no
//! `--full`) leaves out the HPKE detail rows (see `hpke_in_default_run`) and the key-parsing
//! (`-from-bytes`) rows to stay under 10 minutes; `--full` or a filter that matches them runs
//! them. Run without `--bench` (as
//! `cargo test --benches` does) it is a smoke run. Built with RUSTFLAGS='--cfg aes_force_soft
//! --cfg polyval_force_soft --cfg chacha20_force_soft --cfg poly1305_force_soft' (xtask does it
//! in `target/soft`) it runs only the `-soft` rows (Tessera portable against RustCrypto's software
//! AES-GCM and ChaCha20-Poly1305) and writes `DIR/soft.json`, which
//! the main build's run then merges with `--merge`.
#![allow(missing_docs)]

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;
use tessera_benches::interleave::{
    AlignedBuf, Clock, Config, Contestant, Measured, Role, RowResult, Samples, SplitMix64, Spread,
    measure,
};
use tessera_benches::load::RunLoad;
use tessera_benches::report::{self, Meta, RowRecord, size_label};
use tessera_benches::{AAD, NONCE, RustCryptoGcm, plot};

/// Every Tessera call of this bench, in one place. A Tessera implementation in
/// a row is an [`tessera::Impl`]: the backend's name and, for every backend but the best one, the
/// handle that forces it; the best one (`backend: None`) goes through the public API, as users
/// call it, which runs what `detect()` picks.
mod tessera;

mod aead_rows;
mod driver;
mod hash_rows;
mod helpers;
#[macro_use]
mod hpke_suite;
mod hpke_rows;
mod mldsa_rows;
mod mlkem_rows;
mod p256_rows;
mod rows;
mod soft_rows;
mod tls_rows;
mod trait_rows;
mod x25519_rows;

pub(crate) use aead_rows::*;
pub(crate) use driver::*;
pub(crate) use hash_rows::*;
pub(crate) use helpers::*;
pub(crate) use hpke_rows::*;
pub(crate) use mldsa_rows::*;
pub(crate) use mlkem_rows::*;
pub(crate) use p256_rows::*;
pub(crate) use rows::*;
pub(crate) use soft_rows::*;
pub(crate) use tls_rows::*;
pub(crate) use trait_rows::*;
pub(crate) use x25519_rows::*;

fn main() {
    let args = parse_args();
    if !args.aggregate.is_empty() {
        aggregate(&args.out, &args.aggregate);
        return;
    }
    let soft = soft_build();
    let all = specs();
    if args.list {
        list_rows(&all);
        return;
    }
    let (selected, left_out) = select_rows(&all, &args, soft);
    let (mode, passes, cfg) = run_config(&args);
    let hw = tessera::hw_line();
    announce(&selected, mode, passes, &cfg, soft, &hw);
    let start = Instant::now();
    let (samples, backend_samples, mut notes, load) = measure_rows(&selected, &cfg, passes);
    let summaries = summarize_rows(&samples, &backend_samples, cfg.resamples);
    let mut rows = records(&selected, summaries, &mut notes);
    let mut meta = Meta {
        cpu: cpu_model(),
        hw,
        clock: cfg.clock.name().to_string(),
        mode: mode.to_string(),
        batch_us: cfg.batch_ns / 1e3,
        passes,
        row_secs: cfg.row_ns / 1e9,
        total_secs: start.elapsed().as_secs_f64(),
        left_out,
        profile: profile_line(),
        noisy: load.noisy(),
        load,
        processes: 1,
        extra: Vec::new(),
    };
    std::fs::create_dir_all(&args.out).expect("create the output directory");
    if soft {
        write_soft(&args.out, &meta, &rows);
        return;
    }
    if let Some(m) = &args.merge {
        merge_soft(m, &mut meta, &mut rows);
    }
    write_outputs(&args.out, &meta, &rows, args.smoke);
}
