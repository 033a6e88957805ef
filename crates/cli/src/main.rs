//! The `tessera` command: `sum` (coreutils-compatible file hashing), `hpke` (file encryption
//! to a public key), `speed` (a one-screen throughput summary) and `info` (CPU features and the
//! backend each crate chose). See the crate README.
#![forbid(unsafe_code)]

mod hpke;
mod info;
mod keys;
mod quote;
mod rng;
mod speed;
mod sum;

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

/// Tessera: constant-time cryptography from the command line.
#[derive(Parser)]
#[command(name = "tessera", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print or check file digests, byte-identical to coreutils' sha256sum and friends.
    Sum(SumArgs),
    /// Encrypt files to a public key with HPKE (RFC 9180) in a streamed, chunked format.
    #[command(subcommand)]
    Hpke(HpkeCommand),
    /// Throughput of every primitive on this machine, with the backend each row ran on.
    Speed(SpeedArgs),
    /// The CPU features detected and the backend each crate chose.
    Info,
}

/// `tessera sum`.
#[derive(Args)]
pub struct SumArgs {
    /// The hash: sha256, sha224, sha384, sha512, sha512-256, sha3-256, sha3-384, sha3-512,
    /// shake128 (32-byte output), shake256 (64-byte output).
    #[arg(short = 'a', long = "algorithm", default_value = "sha256")]
    pub algorithm: String,
    /// Read checksums from the FILEs and check them.
    #[arg(short = 'c', long = "check")]
    pub check: bool,
    /// Create a BSD-style checksum line (`SHA256 (name) = hex`).
    #[arg(long = "tag")]
    pub tag: bool,
    /// Mark the files as read in binary mode (`*` before the name).
    #[arg(short = 'b', long = "binary", overrides_with = "text")]
    pub binary: bool,
    /// Read in text mode (the default; the same bytes on this system).
    #[arg(short = 't', long = "text", overrides_with = "binary")]
    pub text: bool,
    /// End each output line with NUL instead of a newline, and do not escape names.
    #[arg(short = 'z', long = "zero")]
    pub zero: bool,
    /// With --check: skip files that do not exist instead of failing.
    #[arg(long = "ignore-missing")]
    pub ignore_missing: bool,
    /// With --check: do not print OK for each verified file (as in coreutils, the last of
    /// --quiet, --status and --warn wins).
    #[arg(long = "quiet", overrides_with_all = ["status", "warn"])]
    pub quiet: bool,
    /// With --check: print nothing, the exit code tells.
    #[arg(long = "status", overrides_with_all = ["quiet", "warn"])]
    pub status: bool,
    /// With --check: exit non-zero for improperly formatted lines.
    #[arg(long = "strict")]
    pub strict: bool,
    /// With --check: warn about improperly formatted lines.
    #[arg(short = 'w', long = "warn", overrides_with_all = ["quiet", "status"])]
    pub warn: bool,
    /// Hash this many files at once (default: the number of cores; at most 4 per core).
    #[arg(short = 'j', long = "jobs")]
    pub jobs: Option<usize>,
    /// Files to hash (or checksum lists with --check); `-` or none: standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<OsString>,
}

#[derive(Subcommand)]
enum HpkeCommand {
    /// Generate a key pair: KEY (PKCS#8 PEM private key) and KEY.pub (SPKI PEM public key).
    Keygen {
        /// The KEM: x-wing, ml-kem-512, ml-kem-768, ml-kem-1024, x25519, p256.
        #[arg(long, default_value = "x-wing")]
        kem: String,
        /// Where to write the private key (the public key goes to the same name + `.pub`).
        #[arg(short = 'o', long = "out")]
        out: PathBuf,
    },
    /// Encrypt FILE (or standard input) to a public key.
    Seal {
        /// The recipient's public key (SPKI PEM, as written by `keygen`).
        #[arg(long = "to")]
        to: PathBuf,
        /// The KDF: hkdf-sha256, hkdf-sha384, hkdf-sha512, shake128, shake256,
        /// turboshake128, turboshake256.
        #[arg(long, default_value = "hkdf-sha256")]
        kdf: String,
        /// The AEAD: chacha20-poly1305, aes-128-gcm, aes-256-gcm.
        #[arg(long, default_value = "chacha20-poly1305")]
        aead: String,
        /// Plaintext bytes per chunk (1 KiB to 16 MiB).
        #[arg(long = "chunk-size", default_value_t = hpke::DEFAULT_CHUNK)]
        chunk_size: u32,
        /// Output file (default: standard output).
        #[arg(short = 'o', long = "out")]
        out: Option<PathBuf>,
        /// Input file (default: standard input).
        file: Option<PathBuf>,
    },
    /// Decrypt FILE (or standard input) with a private key; nothing is written unless every
    /// chunk verifies.
    Open {
        /// The private key (PKCS#8 PEM, as written by `keygen`).
        #[arg(long = "key")]
        key: PathBuf,
        /// Output file (default: standard output, written only after everything verified).
        #[arg(short = 'o', long = "out")]
        out: Option<PathBuf>,
        /// Input file (default: standard input).
        file: Option<PathBuf>,
    },
}

/// `tessera speed`.
#[derive(Args)]
pub struct SpeedArgs {
    /// Print JSON (one object with a `hardware` string and a `rows` array).
    #[arg(long)]
    pub json: bool,
    /// Run only the rows whose name contains this string.
    pub filter: Option<String>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    let code = run(cli);
    // For the tests' flat-memory check: the peak RSS from the kernel, read at the very end.
    if std::env::var_os("TESSERA_REPORT_PEAK_RSS").is_some()
        && let Ok(status) = std::fs::read_to_string("/proc/self/status")
        && let Some(line) = status.lines().find(|l| l.starts_with("VmHWM:"))
    {
        let _ = writeln!(io::stderr().lock(), "{line}");
    }
    code
}

fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Sum(args) => sum::run(&args),
        Command::Hpke(cmd) => {
            let r = match cmd {
                HpkeCommand::Keygen { kem, out } => hpke::keygen(&kem, &out),
                HpkeCommand::Seal {
                    to,
                    kdf,
                    aead,
                    chunk_size,
                    out,
                    file,
                } => hpke::seal(&hpke::SealOptions {
                    to: &to,
                    kdf: &kdf,
                    aead: &aead,
                    chunk_size,
                    out: out.as_deref(),
                    input: file.as_deref(),
                }),
                HpkeCommand::Open { key, out, file } => {
                    hpke::open(&key, out.as_deref(), file.as_deref())
                }
            };
            finish(r)
        }
        Command::Speed(args) => finish(speed::run(&args)),
        Command::Info => finish(info::run()),
    }
}

/// `--help` and `--version` print and exit 0; any other command-line error is one line on
/// stderr (`tessera: <what is wrong>`) and exit code 1.
fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        return if e.print().is_ok() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    let text = e.render().to_string();
    error_line(&usage_error_line(e.kind(), &text));
    ExitCode::FAILURE
}

/// The one-line form of clap's message: its first paragraph on one line without `error: `,
/// or for a missing subcommand, where to look.
fn usage_error_line(kind: clap::error::ErrorKind, text: &str) -> String {
    if kind == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let cmd = text
            .lines()
            .find_map(|l| l.strip_prefix("Usage: "))
            .map_or("tessera", |u| u.split(" <").next().unwrap_or("tessera"));
        return format!("a subcommand is required (see '{cmd} --help')");
    }
    let para: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let line = para.join(" ");
    line.strip_prefix("error: ").unwrap_or(&line).to_string()
}

/// One line on stderr and exit code 1 for an error.
fn finish(r: Result<(), String>) -> ExitCode {
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            error_line(&e);
            ExitCode::FAILURE
        }
    }
}

/// Writes `tessera: <msg>` on stderr (a closed stderr is ignored, never a panic).
pub fn error_line(msg: &str) {
    let _ = writeln!(io::stderr().lock(), "tessera: {msg}");
}

/// The message of a failed write to standard output (a closed pipe, a full disk).
pub fn stdout_error(e: &io::Error) -> String {
    format!("standard output: write error: {}", quote::io_error(e))
}
