//! `tessera sum`: the output, check mode, messages and exit codes of coreutils' `sha256sum`
//! (9.x), with the files hashed on several threads and printed in argument order.

mod algo;
mod check;

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError, mpsc};

use indicatif::{ProgressBar, ProgressStyle};

pub use algo::{Algo, hex};

use crate::SumArgs;
use crate::quote::{io_error, name_bytes, quotef};

/// The read buffer of one hashing thread (a fixed buffer: `read` into it, hash, repeat).
const BUF: usize = 256 * 1024;

/// A progress bar is shown (on a terminal only) when the named files add up to this much.
const PROGRESS_MIN: u64 = 64 * 1024 * 1024;

/// Prints `tessera: <message>` on stderr.
pub fn warn(msg: &str) {
    crate::error_line(msg);
}

/// `tessera sum`.
pub fn run(args: &SumArgs) -> ExitCode {
    let Some(algo) = Algo::from_name(&args.algorithm) else {
        warn(&format!(
            "unknown algorithm '{}' (sha224, sha256, sha384, sha512, sha512-256, sha3-256, sha3-384, sha3-512, shake128, shake256)",
            args.algorithm
        ));
        return ExitCode::FAILURE;
    };
    if !args.check && (args.quiet || args.status || args.strict || args.ignore_missing || args.warn)
    {
        warn(
            "the --ignore-missing, --quiet, --status, --strict and --warn options are meaningful only when verifying checksums",
        );
        return ExitCode::FAILURE;
    }
    if args.check && args.tag {
        warn("the --tag option is meaningless when verifying checksums");
        return ExitCode::FAILURE;
    }
    let files: Vec<OsString> = if args.files.is_empty() {
        vec![OsString::from("-")]
    } else {
        args.files.clone()
    };
    let jobs = thread_count(args.jobs);
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let ok = if args.check {
        check::run(algo, args, &files, jobs, &mut out)
    } else {
        hash_mode(algo, args, &files, jobs, &mut out)
    };
    if out.flush().is_err() {
        warn("write error");
        return ExitCode::FAILURE;
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Prints one line per file; false if a file could not be read.
fn hash_mode(
    algo: Algo,
    args: &SumArgs,
    files: &[OsString],
    jobs: usize,
    out: &mut impl Write,
) -> bool {
    let pb = progress_bar(files);
    let mut ok = true;
    let mut write_ok = true;
    hash_in_order(algo, files, jobs, pb.as_ref(), |i, r| match r {
        Ok(d) => {
            let line = format_line(
                algo,
                &d,
                &name_bytes(&files[i]),
                args.tag,
                args.binary,
                args.zero,
            );
            if out.write_all(&line).is_err() {
                write_ok = false;
            }
        }
        Err(e) => {
            ok = false;
            warn(&format!(
                "{}: {}",
                quotef(&name_bytes(&files[i])),
                io_error(&e)
            ));
        }
    });
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    ok && write_ok
}

/// One output line: `[\]hex  name`, `[\]hex *name` or `[\]TAG (name) = hex`, names with a
/// backslash, newline or carriage return escaped (not with `-z`).
pub fn format_line(
    algo: Algo,
    digest: &[u8],
    name: &[u8],
    tag: bool,
    binary: bool,
    zero: bool,
) -> Vec<u8> {
    let escape = !zero && name.iter().any(|&c| matches!(c, b'\\' | b'\n' | b'\r'));
    let name = if escape {
        escape_name(name)
    } else {
        name.to_vec()
    };
    let mut line = Vec::with_capacity(name.len() + 2 * digest.len() + 16);
    if escape {
        line.push(b'\\');
    }
    if tag {
        line.extend_from_slice(algo.tag().as_bytes());
        line.extend_from_slice(b" (");
        line.extend_from_slice(&name);
        line.extend_from_slice(b") = ");
        line.extend_from_slice(hex(digest).as_bytes());
    } else {
        line.extend_from_slice(hex(digest).as_bytes());
        line.extend_from_slice(if binary { b" *" } else { b"  " });
        line.extend_from_slice(&name);
    }
    line.push(if zero { 0 } else { b'\n' });
    line
}

/// `\` as `\\`, newline as `\n`, carriage return as `\r`.
pub fn escape_name(name: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(name.len() + 4);
    for &c in name {
        match c {
            b'\\' => v.extend_from_slice(b"\\\\"),
            b'\n' => v.extend_from_slice(b"\\n"),
            b'\r' => v.extend_from_slice(b"\\r"),
            _ => v.push(c),
        }
    }
    v
}

/// A byte-count progress bar on stderr when stderr is a terminal and the files are large.
fn progress_bar(files: &[OsString]) -> Option<ProgressBar> {
    if !io::stderr().is_terminal() {
        return None;
    }
    let total: u64 = files
        .iter()
        .filter(|f| f.as_os_str() != "-")
        .filter_map(|f| std::fs::metadata(f).ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum();
    if total < PROGRESS_MIN {
        return None;
    }
    let pb = ProgressBar::new(total);
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40} {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}",
    ) {
        pb.set_style(style);
    }
    Some(pb)
}

/// Hashes a file (`-`: standard input) with a fixed buffer.
pub fn hash_path(
    algo: Algo,
    name: &OsStr,
    buf: &mut [u8],
    pb: Option<&ProgressBar>,
) -> io::Result<Vec<u8>> {
    if name == "-" {
        let stdin = io::stdin();
        let mut lock = stdin.lock();
        hash_reader(algo, &mut lock, buf, pb)
    } else {
        let mut f = File::open(name)?;
        hash_reader(algo, &mut f, buf, pb)
    }
}

fn hash_reader(
    algo: Algo,
    r: &mut impl Read,
    buf: &mut [u8],
    pb: Option<&ProgressBar>,
) -> io::Result<Vec<u8>> {
    let mut h = algo.hasher();
    loop {
        let n = match r.read(buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        h.update(&buf[..n]);
        if let Some(pb) = pb {
            pb.inc(n as u64);
        }
    }
    Ok(h.finalize())
}

/// The most hashing threads `-j` can ask for, per core (more only adds memory and contention).
const THREADS_PER_CORE: usize = 4;

/// The thread count for `-j jobs` (default: the number of cores), capped at
/// [`THREADS_PER_CORE`] per core.
pub fn thread_count(jobs: Option<usize>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    jobs.unwrap_or(cores)
        .clamp(1, cores.saturating_mul(THREADS_PER_CORE))
}

/// Hashes `names` on up to `jobs` threads and calls `emit(i, result)` in index order (as soon
/// as every earlier result is in). If the system refuses threads, the ones it gave do the work
/// (none: this thread alone).
pub fn hash_in_order(
    algo: Algo,
    names: &[OsString],
    jobs: usize,
    pb: Option<&ProgressBar>,
    emit: impl FnMut(usize, io::Result<Vec<u8>>),
) {
    hash_in_order_spawning(algo, names, jobs, pb, emit, usize::MAX);
}

/// [`hash_in_order`], with every thread spawn after the first `spawn_limit` taken as refused
/// by the system (the unit tests' way to reach the fallback).
fn hash_in_order_spawning(
    algo: Algo,
    names: &[OsString],
    jobs: usize,
    pb: Option<&ProgressBar>,
    mut emit: impl FnMut(usize, io::Result<Vec<u8>>),
    spawn_limit: usize,
) {
    let jobs = jobs.clamp(1, names.len().max(1));
    let sequential = |emit: &mut dyn FnMut(usize, io::Result<Vec<u8>>)| {
        let mut buf = vec![0u8; BUF];
        for (i, n) in names.iter().enumerate() {
            emit(i, hash_path(algo, n, &mut buf, pb));
        }
    };
    if jobs == 1 {
        sequential(&mut emit);
        return;
    }
    let next = AtomicUsize::new(0);
    // Standard input goes to the `-` names in argument order (the first reads it all, as in
    // coreutils): the k-th `-` waits until the ones before it are done. Names are taken in
    // index order, so those are already running and no wait can deadlock.
    let mut stdin_rank = vec![None; names.len()];
    for (k, i) in (0..names.len()).filter(|&i| names[i] == "-").enumerate() {
        stdin_rank[i] = Some(k);
    }
    let stdin_turn = (Mutex::new(0usize), Condvar::new());
    let (tx, rx) = mpsc::channel::<(usize, io::Result<Vec<u8>>)>();
    std::thread::scope(|s| {
        let mut spawned = 0;
        for _ in 0..jobs {
            let tx = tx.clone();
            let next = &next;
            let stdin_rank = &stdin_rank;
            let stdin_turn = &stdin_turn;
            let worker = move || {
                let mut buf = vec![0u8; BUF];
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= names.len() {
                        break;
                    }
                    let r = match stdin_rank[i] {
                        None => hash_path(algo, &names[i], &mut buf, pb),
                        Some(k) => {
                            let (turn, cv) = stdin_turn;
                            let mut t = turn.lock().unwrap_or_else(PoisonError::into_inner);
                            while *t != k {
                                t = cv.wait(t).unwrap_or_else(PoisonError::into_inner);
                            }
                            let r = hash_path(algo, &names[i], &mut buf, pb);
                            *t += 1;
                            cv.notify_all();
                            r
                        }
                    };
                    if tx.send((i, r)).is_err() {
                        break;
                    }
                }
            };
            if spawned >= spawn_limit
                || std::thread::Builder::new().spawn_scoped(s, worker).is_err()
            {
                break;
            }
            spawned += 1;
        }
        drop(tx);
        if spawned == 0 {
            sequential(&mut emit);
            return;
        }
        let mut pending = BTreeMap::new();
        let mut want = 0;
        for (i, r) in rx {
            pending.insert(i, r);
            while let Some(r) = pending.remove(&want) {
                emit(want, r);
                want += 1;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    use super::{Algo, hash_in_order_spawning, hex};

    /// SHA-256 of "abc" and of "" (FIPS 180-2 example, and the empty-message digest).
    const ABC: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    const EMPTY: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    /// Refused thread spawns (none, or one of four allowed): every file is still hashed, and
    /// the results come in index order.
    #[test]
    fn refused_spawns_fall_back() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut names = Vec::new();
        let mut want = Vec::new();
        for i in 0..20 {
            let p = dir.path().join(format!("f{i}"));
            let (data, digest): (&[u8], &str) = if i % 3 == 0 {
                (b"", EMPTY)
            } else {
                (b"abc", ABC)
            };
            std::fs::write(&p, data).expect("write");
            names.push(OsString::from(p));
            want.push(digest.to_string());
        }
        let algo = Algo::from_name("sha256").expect("sha256");
        for limit in [0, 1, usize::MAX] {
            let mut got = Vec::new();
            hash_in_order_spawning(
                algo,
                &names,
                4,
                None,
                |i, r| got.push((i, hex(&r.expect("hash")))),
                limit,
            );
            let indices: Vec<usize> = got.iter().map(|(i, _)| *i).collect();
            assert_eq!(indices, (0..20).collect::<Vec<_>>(), "limit {limit}: order");
            let digests: Vec<String> = got.into_iter().map(|(_, d)| d).collect();
            assert_eq!(digests, want, "limit {limit}");
        }
    }
}
