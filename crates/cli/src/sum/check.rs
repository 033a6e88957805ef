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
    let mut reversed = Reversed::Unknown;
    for list in lists {
        ok &= check_list(algo, args, list, jobs, &mut reversed, out);
    }
    ok
}

/// coreutils' "BSD reversed" state: a GNU-form line whose name does not start with a space or
/// `*` (`hex name`, `hex<TAB>name`) is read as `hex` + separator + name. The first GNU-form
/// line decides for the whole run (every list): after a `hex  name` line such a line is
/// improperly formatted; after a `hex name` line, `hex  name` means the name ` name`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Reversed {
    Unknown,
    No,
    Yes,
}

/// Why a list could not be read: opening it (the OS error is printed) or reading it
/// (coreutils prints `read error` alone).
enum ListError {
    Open(io::Error),
    Read,
}

fn read_list(list: &OsString) -> Result<Vec<u8>, ListError> {
    let mut data = Vec::new();
    if list == "-" {
        io::stdin()
            .lock()
            .read_to_end(&mut data)
            .map_err(|_| ListError::Read)?;
    } else {
        std::fs::File::open(list)
            .map_err(ListError::Open)?
            .read_to_end(&mut data)
            .map_err(|_| ListError::Read)?;
    }
    Ok(data)
}

fn check_list(
    algo: Algo,
    args: &SumArgs,
    list: &OsString,
    jobs: usize,
    reversed: &mut Reversed,
    out: &mut impl Write,
) -> bool {
    let is_stdin = list == "-";
    let list_name = if is_stdin {
        quotef(b"standard input")
    } else {
        quotef(&name_bytes(list))
    };
    let data = match read_list(list) {
        Ok(d) => d,
        Err(ListError::Open(e)) => {
            warn(&format!("{list_name}: {}", io_error(&e)));
            return false;
        }
        Err(ListError::Read) => {
            warn(&format!("{list_name}: read error"));
            return false;
        }
    };
    let mut entries = Vec::new();
    // Empty lines (the piece after the final newline among them) are skipped by `parse_line`.
    for (i, line) in data.split(|&c| c == b'\n').enumerate() {
        if let Some(e) = parse_line(algo, line, i + 1, is_stdin, reversed) {
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
        // As in coreutils 9.1: whenever nothing matched (a mismatch or a read failure too).
        if args.ignore_missing && st.matched == 0 {
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

/// One line as coreutils 9.1 reads it: `None` for a comment (`#` in the first column) or an
/// empty line (after one trailing carriage return); an indented `#` or a line of blanks is
/// improperly formatted, and so is the name `-` in a list read from standard input.
fn parse_line(
    algo: Algo,
    line: &[u8],
    number: usize,
    is_stdin: bool,
    reversed: &mut Reversed,
) -> Option<Entry> {
    if line.first() == Some(&b'#') {
        return None;
    }
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.is_empty() {
        return None;
    }
    match split_3(algo, line, reversed) {
        Some((name, digest)) if !(is_stdin && name == b"-") => Some(Entry::File { name, digest }),
        _ => Some(Entry::Bad(number)),
    }
}

fn is_white(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

/// A name as C reads it: up to its first NUL.
fn c_str(s: &[u8]) -> &[u8] {
    s.iter().position(|&c| c == 0).map_or(s, |n| &s[..n])
}

/// A name, `\`-unescaped when the line started with a backslash.
fn file_name(s: &[u8], escaped: bool) -> Option<Vec<u8>> {
    if escaped {
        unescape(s)
    } else {
        Some(c_str(s).to_vec())
    }
}

/// coreutils' `split_3`: `[blanks][\]TAG[ ](name)[blanks]=[blanks]hex`, or
/// `[blanks][\]hex<blank>[ |*]name` (see [`Reversed`] for the one-blank form).
fn split_3(algo: Algo, s: &[u8], reversed: &mut Reversed) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut i = s.iter().position(|&c| !is_white(c)).unwrap_or(s.len());
    let escaped = s.get(i) == Some(&b'\\');
    if escaped {
        i += 1;
    }
    let tag = algo.tag().as_bytes();
    if s[i..].starts_with(tag) {
        i += tag.len();
        if s.get(i) == Some(&b' ') {
            i += 1;
        }
        if s.get(i) == Some(&b'(') {
            return bsd_split_3(algo, &s[i + 1..], escaped);
        }
        return None;
    }
    let hex_len = 2 * algo.len();
    if s.len() - i < hex_len + 2 + usize::from(s.get(i) == Some(&b'\\')) {
        return None;
    }
    let hex = &s[i..i + hex_len];
    i += hex_len;
    if !is_white(s[i]) {
        return None;
    }
    i += 1;
    let digest = parse_hex(hex, algo.len())?;
    if s.len() - i == 1 || (s[i] != b' ' && s[i] != b'*') {
        if *reversed == Reversed::No {
            return None;
        }
        *reversed = Reversed::Yes;
    } else if *reversed != Reversed::Yes {
        *reversed = Reversed::No;
        i += 1;
    }
    Some((file_name(&s[i..], escaped)?, digest))
}

/// The part after `TAG (`: the name up to the last `)`, then `=` between optional blanks, then
/// exactly the digest's hex digits.
fn bsd_split_3(algo: Algo, s: &[u8], escaped: bool) -> Option<(Vec<u8>, Vec<u8>)> {
    let close = s.iter().rposition(|&c| c == b')')?;
    let name = file_name(&s[..close], escaped)?;
    let mut i = close + 1;
    while s.get(i).is_some_and(|&c| is_white(c)) {
        i += 1;
    }
    if s.get(i) != Some(&b'=') {
        return None;
    }
    i += 1;
    while s.get(i).is_some_and(|&c| is_white(c)) {
        i += 1;
    }
    let hex = c_str(&s[i..]);
    Some((name, parse_hex(hex, algo.len())?))
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

/// `\\` to `\`, `\n` to newline, `\r` to carriage return; any other escape, a trailing
/// backslash or a NUL is an error.
fn unescape(s: &[u8]) -> Option<Vec<u8>> {
    let mut v = Vec::with_capacity(s.len());
    let mut it = s.iter();
    while let Some(&c) = it.next() {
        if c == 0 {
            return None;
        }
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
