//! `cargo xtask test [--quick] [--list]`: the whole test matrix, ending with one table
//! (`--list`: every leg's name and command, nothing run).
//! `cargo xtask bench [--full] [FILTER]`: criterion benches against peers, as markdown tables
//! (`cargo xtask bench soft`: only Tessera portable against RustCrypto's software AES-GCM).
//! `cargo xtask vectors`: checks the sha256 of the official vector files against the manifest.
//!
//! The crates and the legs that cover them are one table, in `crates.rs`.

mod bench;
mod cmd;
mod crates;
mod matrix;
mod report;
mod vectors;

const USAGE: &str =
    "usage: cargo xtask test [--quick] [--list] | bench [--full] [FILTER] | vectors";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let ok = match args.first().map(String::as_str) {
        Some("test") if flag("--list") => matrix::list(flag("--quick")),
        Some("test") => matrix::test(flag("--quick")),
        Some("bench") => bench::bench(
            flag("--full"),
            args.iter()
                .skip(1)
                .find(|a| !a.starts_with("--"))
                .map(String::as_str),
        ),
        Some("vectors") => vectors::vectors(),
        _ => {
            eprintln!("{USAGE}");
            false
        }
    };
    std::process::exit(if ok { 0 } else { 1 });
}
