//! `tessera sum -c`: reads checksum lists (GNU `hex  name` / `hex *name` lines and BSD
//! `TAG (name) = hex` lines, `\`-escaped names) and prints coreutils' per-file results,
//! warnings and exit code.

use std::ffi::OsString;
use std::io::{self, Read, Write};

use super::{Algo, hash_in_order, warn};
use crate::SumArgs;
use crate::quote::{io_error, name_bytes, name_from_bytes, quotef};

/// A line of a checksum list.
enum Entry {
    /// An improperly formatted line (its 1-based number).
    Bad(usize),
    /// A file to check: its name and expected digest.
    File { name: Vec<u8>, digest: Vec<u8> },
}

/// Checks every list in `lists`; true when all of them passed.
pub fn run(
    algo: Algo,
    args: &SumArgs,
    lists: &[OsString],
    jobs: usize,
    out: &mut impl Write,
) -> bool {
    let mut ok = true;
    for list in lists {
        ok &= check_list(algo, args, list, jobs, out);
    }
    ok
}

fn read_list(list: &OsString) -> io::Result<Vec<u8>> {
    let mut data = Vec::new();
    if list == "-" {
        io::stdin().lock().read_to_end(&mut data)?;
    } else {
        std::fs::File::open(list)?.read_to_end(&mut data)?;
    }
    Ok(data)
}

fn check_list(
    algo: Algo,
    args: &SumArgs,
    list: &OsString,
    jobs: usize,
    out: &mut impl Write,
) -> bool {
    let list_name = if list == "-" {
        "standard input".to_string()
    } else {
        quotef(&name_bytes(list))
    };
    let data = match read_list(list) {
        Ok(d) => d,
        Err(e) => {
            warn(&format!("{list_name}: {}", io_error(&e)));
            return false;
        }
    };
    let mut entries = Vec::new();
    // Blank lines (the piece after the final newline among them) are skipped by `parse_line`.
    for (i, line) in data.split(|&c| c == b'\n').enumerate() {
        if let Some(e) = parse_line(algo, line, i + 1) {
            entries.push(e);
        }
    }
    let files: Vec<usize> = (0..entries.len())
        .filter(|&i| matches!(entries[i], Entry::File { .. }))
        .collect();
    let names: Vec<OsString> = files
        .iter()
        .map(|&i| match &entries[i] {
            Entry::File { name, .. } => name_from_bytes(name),
            Entry::Bad(_) => OsString::new(),
        })
        .collect();

    let mut st = Stats {
        properly_formatted: files.len(),
        ..Stats::default()
    };
    let mut next_entry = 0;
    let report_bad = |upto: usize, next_entry: &mut usize, st: &mut Stats| {
        while *next_entry < upto {
            if let Entry::Bad(n) = entries[*next_entry] {
                st.misformatted += 1;
                if args.warn {
                    warn(&format!(
                        "{list_name}: {n}: improperly formatted {} checksum line",
                        algo.tag()
                    ));
                }
            }
            *next_entry += 1;
        }
    };
    let status = args.status;
    let mut write_err = false;
    hash_in_order(algo, &names, jobs, None, |k, r| {
        let idx = files[k];
        report_bad(idx, &mut next_entry, &mut st);
        next_entry = idx + 1;
        let Entry::File { name, digest } = &entries[idx] else {
            return;
        };
        let result: &[u8] = match r {
            Err(e) => {
                if args.ignore_missing && e.kind() == io::ErrorKind::NotFound {
                    return;
                }
                warn(&format!("{}: {}", quotef(name), io_error(&e)));
                st.open_failures += 1;
                b"FAILED open or read"
            }
            Ok(d) if d == *digest => {
                st.matched += 1;
                if args.quiet {
                    return;
                }
                b"OK"
            }
            Ok(_) => {
                st.mismatched += 1;
                b"FAILED"
            }
        };
        if !status {
            let mut line = Vec::new();
            if name.contains(&b'\n') {
                line.push(b'\\');
                line.extend_from_slice(&super::escape_name(name));
            } else {
                line.extend_from_slice(name);
            }
            line.extend_from_slice(b": ");
            line.extend_from_slice(result);
            line.push(b'\n');
            write_err |= out.write_all(&line).is_err();
        }
    });
    report_bad(entries.len(), &mut next_entry, &mut st);

    if st.properly_formatted == 0 {
        warn(&format!(
            "{list_name}: no properly formatted checksum lines found"
        ));
        return false;
    }
    if !status {
        // Let the results on stdout come before the summary on stderr.
        let _ = out.flush();
        if st.misformatted > 0 {
            warn(&plural(
                st.misformatted,
                "line is improperly formatted",
                "lines are improperly formatted",
            ));
        }
        if st.open_failures > 0 {
            warn(&plural(
                st.open_failures,
                "listed file could not be read",
                "listed files could not be read",
            ));
        }
        if st.mismatched > 0 {
            warn(&plural(
                st.mismatched,
                "computed checksum did NOT match",
                "computed checksums did NOT match",
            ));
        }
        if args.ignore_missing && st.matched + st.mismatched == 0 {
            warn(&format!("{list_name}: no file was verified"));
        }
    }
    !write_err
        && st.matched > 0
        && st.mismatched == 0
        && st.open_failures == 0
        && !(args.strict && st.misformatted > 0)
}

#[derive(Default)]
struct Stats {
    properly_formatted: usize,
    misformatted: usize,
    open_failures: usize,
    mismatched: usize,
    matched: usize,
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("WARNING: {n} {}", if n == 1 { one } else { many })
}

/// One line: `None` for a blank or comment line.
fn parse_line(algo: Algo, line: &[u8], number: usize) -> Option<Entry> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let start = line
        .iter()
        .position(|&c| c != b' ' && c != b'\t')
        .unwrap_or(line.len());
    let mut s = &line[start..];
    if s.is_empty() || s[0] == b'#' {
        return None;
    }
    let escaped = s[0] == b'\\';
    if escaped {
        s = &s[1..];
    }
    let parsed = parse_bsd(algo, s).or_else(|| parse_gnu(algo, s));
    let Some((name, digest)) = parsed else {
        return Some(Entry::Bad(number));
    };
    let name = if escaped {
        match unescape(name) {
            Some(n) => n,
            None => return Some(Entry::Bad(number)),
        }
    } else {
        name.to_vec()
    };
    if name.is_empty() {
        return Some(Entry::Bad(number));
    }
    Some(Entry::File { name, digest })
}

/// `TAG (name) = hex`.
fn parse_bsd(algo: Algo, s: &[u8]) -> Option<(&[u8], Vec<u8>)> {
    let rest = s.strip_prefix(algo.tag().as_bytes())?;
    let rest = rest.strip_prefix(b" (")?;
    let sep = rest.windows(4).rposition(|w| w == b") = ")?;
    let digest = parse_hex(&rest[sep + 4..], algo.len())?;
    Some((&rest[..sep], digest))
}

/// `hex  name` or `hex *name`.
fn parse_gnu(algo: Algo, s: &[u8]) -> Option<(&[u8], Vec<u8>)> {
    let n = algo.len() * 2;
    if s.len() < n + 2 {
        return None;
    }
    let digest = parse_hex(&s[..n], algo.len())?;
    if s[n] != b' ' || !matches!(s[n + 1], b' ' | b'*') {
        return None;
    }
    Some((&s[n + 2..], digest))
}

fn parse_hex(s: &[u8], len: usize) -> Option<Vec<u8>> {
    if s.len() != 2 * len {
        return None;
    }
    let val = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    };
    s.chunks(2)
        .map(|p| Some(val(p[0])? << 4 | val(p[1])?))
        .collect()
}

/// `\\` to `\`, `\n` to newline, `\r` to carriage return; any other escape is an error.
fn unescape(s: &[u8]) -> Option<Vec<u8>> {
    let mut v = Vec::with_capacity(s.len());
    let mut it = s.iter();
    while let Some(&c) = it.next() {
        if c == b'\\' {
            match it.next()? {
                b'\\' => v.push(b'\\'),
                b'n' => v.push(b'\n'),
                b'r' => v.push(b'\r'),
                _ => return None,
            }
        } else {
            v.push(c);
        }
    }
    Some(v)
}
