//! `tessera hpke keygen | seal | open`: round trips at the chunk boundaries for several
//! suites, every tampering the format must catch (each refused with a non-zero exit, one line
//! on stderr and no output file, not even a temporary one), wrong keys, OpenSSL reading the
//! X25519 / P-256 key files, and a flat peak RSS on large files.

mod common;
use common::data;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_tessera");
/// The chunk size of the tampering tests (the smallest the format allows).
const CHUNK: usize = 1024;
const TAG: usize = 16;

fn tessera(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run tessera")
}

fn ok(dir: &Path, args: &[&str]) {
    let out = tessera(dir, args);
    assert!(
        out.status.success(),
        "tessera {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The files of a directory (to prove that nothing, not even a temporary file, was left).
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn keygen(dir: &Path, kem: &str, name: &str) {
    ok(dir, &["hpke", "keygen", "--kem", kem, "-o", name]);
    assert!(dir.join(name).exists() && dir.join(format!("{name}.pub")).exists());
}

#[test]
fn round_trips_at_chunk_boundaries_for_several_suites() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    // With each KEM's `enc` length (Nenc: X-Wing draft 1120, FIPS 203 ciphertexts 768 / 1088 /
    // 1568, RFC 9180 DHKEM(X25519) 32 and DHKEM(P-256) 65).
    let suites: &[(&str, &str, &str, usize)] = &[
        ("x-wing", "hkdf-sha256", "chacha20-poly1305", 1120),
        ("ml-kem-768", "hkdf-sha384", "aes-256-gcm", 1088),
        ("ml-kem-512", "shake128", "aes-128-gcm", 768),
        ("ml-kem-1024", "turboshake256", "chacha20-poly1305", 1568),
        ("x25519", "shake256", "aes-128-gcm", 32),
        ("p256", "hkdf-sha512", "aes-256-gcm", 65),
    ];
    for &(kem, kdf, aead, nenc) in suites {
        keygen(d, kem, kem);
        for chunk in [CHUNK, 64 * 1024] {
            for len in [0, 1, chunk - 1, chunk, chunk + 1, 3 * chunk, 3 * chunk + 7] {
                let pt = data(len, len as u64 + 3);
                std::fs::write(d.join("pt"), &pt).expect("write");
                let cs = chunk.to_string();
                ok(
                    d,
                    &[
                        "hpke",
                        "seal",
                        "--to",
                        &format!("{kem}.pub"),
                        "--kdf",
                        kdf,
                        "--aead",
                        aead,
                        "--chunk-size",
                        &cs,
                        "-o",
                        "ct",
                        "pt",
                    ],
                );
                let ct = std::fs::read(d.join("ct")).expect("ct");
                // Header (21 bytes + enc), the plaintext, one tag per chunk: `len / C + 1`
                // chunks (the last one shorter, empty when C divides the length).
                let chunks = len / chunk + 1;
                assert_eq!(
                    ct.len(),
                    21 + nenc + len + chunks * TAG,
                    "{kem} {len} {chunk}: ciphertext length"
                );
                assert_eq!(usize::from(u16::from_be_bytes([ct[19], ct[20]])), nenc);
                ok(d, &["hpke", "open", "--key", kem, "-o", "back", "ct"]);
                assert_eq!(
                    std::fs::read(d.join("back")).expect("back"),
                    pt,
                    "{kem} {kdf} {aead} {len}"
                );
            }
        }
    }
}

#[test]
fn stdin_to_stdout_round_trip() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    keygen(d, "x-wing", "k");
    let pt = data(200_001, 9);
    let seal = run_piped(d, &["hpke", "seal", "--to", "k.pub"], &pt);
    assert!(seal.status.success());
    let open = run_piped(d, &["hpke", "open", "--key", "k"], &seal.stdout);
    assert!(
        open.status.success(),
        "{}",
        String::from_utf8_lossy(&open.stderr)
    );
    assert_eq!(open.stdout, pt);
    // Corrupted on stdin, to stdout: nothing at all on stdout.
    let mut bad = seal.stdout.clone();
    let n = bad.len();
    bad[n - 1] ^= 1;
    let open = run_piped(d, &["hpke", "open", "--key", "k"], &bad);
    assert!(!open.status.success());
    assert!(open.stdout.is_empty(), "partial plaintext on stdout");
}

fn run_piped(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut i = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let t = std::thread::spawn(move || {
        let _ = i.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait");
    t.join().expect("feeder");
    out
}

/// `tessera hpke open` of `ct` must fail: non-zero exit, one line on stderr, no `out` file and
/// no other new file in the directory.
fn refused(d: &Path, key: &str, ct: &[u8], what: &str) {
    std::fs::write(d.join("bad.ct"), ct).expect("write");
    let before = listing(d);
    let out = tessera(d, &["hpke", "open", "--key", key, "-o", "out", "bad.ct"]);
    assert!(!out.status.success(), "{what}: accepted");
    assert_eq!(out.status.code(), Some(1), "{what}: exit code");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{what}: {err}");
    assert!(err.starts_with("tessera: "), "{what}: {err}");
    assert!(!d.join("out").exists(), "{what}: output written");
    assert_eq!(listing(d), before, "{what}: a file was left behind");
}

/// The offsets of a file sealed with [`CHUNK`]: header length, chunk starts.
fn layout(ct: &[u8], pt_len: usize) -> (usize, Vec<usize>) {
    let enc_len = usize::from(u16::from_be_bytes([ct[19], ct[20]]));
    let header = 21 + enc_len;
    let chunks = pt_len / CHUNK + 1;
    let starts = (0..chunks).map(|i| header + i * (CHUNK + TAG)).collect();
    (header, starts)
}

#[test]
fn tampering_is_refused_without_output() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    keygen(d, "x-wing", "k");
    keygen(d, "x-wing", "other");
    keygen(d, "x25519", "x");
    let len = 5 * CHUNK + 100;
    std::fs::write(d.join("a"), data(len, 1)).expect("write");
    std::fs::write(d.join("b"), data(len, 2)).expect("write");
    let cs = CHUNK.to_string();
    for f in ["a", "b"] {
        ok(
            d,
            &[
                "hpke",
                "seal",
                "--to",
                "k.pub",
                "--chunk-size",
                &cs,
                "-o",
                &format!("{f}.ct"),
                f,
            ],
        );
    }
    let a = std::fs::read(d.join("a.ct")).expect("a.ct");
    let b = std::fs::read(d.join("b.ct")).expect("b.ct");
    assert_eq!(a.len(), b.len());
    let (header, starts) = layout(&a, len);
    assert_eq!(a.len(), starts[5] + 100 + TAG, "layout");
    // The untouched file opens (the refusals below are the tampering's doing).
    ok(d, &["hpke", "open", "--key", "k", "-o", "fine", "a.ct"]);
    std::fs::remove_file(d.join("fine")).expect("rm");

    // Truncation at every chunk boundary, inside the header, inside the last chunk, and one
    // byte short.
    for &cut in starts
        .iter()
        .chain([0, 5, 20, header - 1, starts[5] + 10, a.len() - 1].iter())
    {
        refused(d, "k", &a[..cut], &format!("truncated at {cut}"));
    }
    // Swapped chunks 1 and 2.
    let mut s = a.clone();
    let (c1, c2) = (starts[1], starts[2]);
    let chunk1 = a[c1..c2].to_vec();
    s.copy_within(c2..c2 + CHUNK + TAG, c1);
    s[c2..c2 + CHUNK + TAG].copy_from_slice(&chunk1);
    refused(d, "k", &s, "swapped chunks");
    // Chunk 2 duplicated over chunk 3; chunk 0 dropped.
    let mut s = a.clone();
    s.copy_within(starts[2]..starts[3], starts[3]);
    refused(d, "k", &s, "duplicated chunk");
    let mut s = a[..header].to_vec();
    s.extend_from_slice(&a[starts[1]..]);
    refused(d, "k", &s, "dropped chunk");
    // Chunk 2 of another file sealed to the same key, at the same index.
    let mut s = a.clone();
    s[starts[2]..starts[3]].copy_from_slice(&b[starts[2]..starts[3]]);
    refused(d, "k", &s, "chunk from another file");
    // The header of another file (its enc) on this file's chunks.
    let mut s = b[..header].to_vec();
    s.extend_from_slice(&a[header..]);
    refused(d, "k", &s, "header from another file");
    // A flipped bit in each header field, in a chunk's ciphertext and tag, and in the last tag.
    for pos in [0, 8, 10, 12, 14, 16, 18, 20, 21, header - 1] {
        let mut s = a.clone();
        s[pos] ^= 0x01;
        refused(d, "k", &s, &format!("header bit at {pos}"));
    }
    for pos in [
        starts[0],
        starts[2] + 17,
        starts[3] - 1,
        a.len() - TAG,
        a.len() - 1,
    ] {
        let mut s = a.clone();
        s[pos] ^= 0x80;
        refused(d, "k", &s, &format!("bit at {pos}"));
    }
    // Chunk sizes 0 and 2^32 - 1 and an enc length of 0xFFFF in the header: refused before
    // anything is allocated for them, with the reason.
    for (range, value, why) in [
        (15..19, &[0u8, 0, 0, 0][..], "invalid chunk size 0"),
        (15..19, &[0xff; 4][..], "invalid chunk size 4294967295"),
        (19..21, &[0xff; 2][..], "enc too long"),
    ] {
        let mut s = a.clone();
        s[range].copy_from_slice(value);
        refused(d, "k", &s, why);
        let out = tessera(d, &["hpke", "open", "--key", "k", "-o", "out", "bad.ct"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{why}: {err}");
    }
    // Bytes appended after the last chunk.
    let mut s = a.clone();
    s.push(0);
    refused(d, "k", &s, "appended byte");
    // The wrong key (same KEM), a key of another KEM, a public key, not a key.
    refused(d, "other", &a, "wrong key");
    refused(d, "x", &a, "key of another KEM");
    refused(d, "k.pub", &a, "public key as private key");
    refused(d, "a", &a, "not a key");
    // An empty file and one of garbage.
    refused(d, "k", b"", "empty file");
    refused(d, "k", &data(3000, 5), "garbage");
}

#[test]
fn errors_are_one_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    keygen(d, "x25519", "k");
    let one_line = |args: &[&str], what: &str| {
        let out = tessera(d, args);
        assert_eq!(out.status.code(), Some(1), "{what}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
        assert!(err.starts_with("tessera: "), "{what}: {err}");
    };
    one_line(
        &["hpke", "seal", "--to", "k.pub", "-o", "o", "missing"],
        "missing input",
    );
    one_line(
        &["hpke", "seal", "--to", "nokey.pub", "-o", "o", "k"],
        "missing key",
    );
    one_line(
        &["hpke", "seal", "--to", "k", "-o", "o", "k"],
        "private key given to --to",
    );
    one_line(
        &[
            "hpke", "seal", "--to", "k.pub", "--aead", "rot13", "-o", "o", "k",
        ],
        "unknown AEAD",
    );
    one_line(
        &[
            "hpke", "seal", "--to", "k.pub", "--kdf", "md5", "-o", "o", "k",
        ],
        "unknown KDF",
    );
    one_line(
        &[
            "hpke",
            "seal",
            "--to",
            "k.pub",
            "--chunk-size",
            "10",
            "-o",
            "o",
            "k",
        ],
        "chunk",
    );
    one_line(
        &["hpke", "keygen", "--kem", "rsa", "-o", "r"],
        "unknown KEM",
    );
    one_line(&["hpke", "keygen", "-o", "k"], "existing key file");
    assert!(!d.join("o").exists());
}

/// OpenSSL derives the same SPKI public key from our PKCS#8 private key (X25519, P-256).
#[test]
fn openssl_reads_the_key_files() {
    if Command::new("openssl").arg("version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "openssl is missing on CI");
        eprintln!("SKIPPED (not a pass): the `openssl` command is not installed");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    for kem in ["x25519", "p256"] {
        keygen(d, kem, kem);
        let out = Command::new("openssl")
            .args(["pkey", "-in", kem, "-pubout"])
            .current_dir(d)
            .output()
            .expect("openssl");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            out.stdout,
            std::fs::read(d.join(format!("{kem}.pub"))).expect("pub"),
            "{kem}"
        );
    }
}

/// Peak RSS (`VmHWM`, KiB) of a run, as the child reads it from /proc/self/status at its end
/// (`TESSERA_REPORT_PEAK_RSS`).
fn peak_rss_kib(dir: &Path, args: &[&str]) -> u64 {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("TESSERA_REPORT_PEAK_RSS", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run tessera");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "tessera {args:?}: {err}");
    let line = err
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .unwrap_or_else(|| panic!("no VmHWM line from {args:?}: {err}"));
    line.split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("bad VmHWM line {line}"))
}

/// Seal and open of a `size`-byte file (sparse: zeros), peak RSS of each.
fn rss_of(size: u64) -> (u64, u64) {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    keygen(d, "x-wing", "k");
    let f = std::fs::File::create(d.join("big")).expect("create");
    f.set_len(size).expect("set_len");
    drop(f);
    let seal = peak_rss_kib(d, &["hpke", "seal", "--to", "k.pub", "-o", "big.ct", "big"]);
    let open = peak_rss_kib(
        d,
        &["hpke", "open", "--key", "k", "-o", "big.back", "big.ct"],
    );
    let back = std::fs::metadata(d.join("big.back")).expect("opened").len();
    assert_eq!(back, size);
    (seal, open)
}

/// Memory stays flat: 256 MiB takes no more than 4 MiB above what 8 MiB takes, and stays
/// under 32 MiB in all (the file sizes would show up in full otherwise).
#[test]
fn peak_rss_is_flat() {
    if !Path::new("/proc/self/status").exists() {
        eprintln!("SKIPPED (not a pass): no /proc on this system");
        return;
    }
    let (s_small, o_small) = rss_of(8 << 20);
    let (s_big, o_big) = rss_of(256 << 20);
    eprintln!("peak RSS KiB: seal {s_small} -> {s_big}, open {o_small} -> {o_big}");
    assert!(
        s_big < 32 * 1024 && o_big < 32 * 1024,
        "peak RSS over 32 MiB"
    );
    assert!(s_big < s_small + 4096, "seal RSS grows with the file");
    assert!(o_big < o_small + 4096, "open RSS grows with the file");
}

/// 1 GiB round trip with flat memory (long test: `TESSERA_LONG_TESTS=1`).
#[test]
fn peak_rss_is_flat_1gib() {
    if std::env::var_os("TESSERA_LONG_TESTS").is_none() {
        eprintln!("SKIPPED: set TESSERA_LONG_TESTS=1 (peak_rss_is_flat_1gib)");
        return;
    }
    let (s_small, o_small) = rss_of(8 << 20);
    let (s_big, o_big) = rss_of(1 << 30);
    eprintln!("peak RSS KiB: seal {s_small} -> {s_big}, open {o_small} -> {o_big}");
    assert!(s_big < s_small + 4096 && o_big < o_small + 4096);
}

/// A 100 MiB file of random-looking bytes round trips (default suite and chunk size).
#[test]
fn large_file_round_trip() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    keygen(d, "x-wing", "k");
    let pt = data(100 << 20, 42);
    std::fs::write(d.join("big"), &pt).expect("write");
    ok(d, &["hpke", "seal", "--to", "k.pub", "-o", "big.ct", "big"]);
    ok(
        d,
        &["hpke", "open", "--key", "k", "-o", "big.back", "big.ct"],
    );
    assert!(std::fs::read(d.join("big.back")).expect("back") == pt);
}

/// `open` to standard output: its temporary file in `$TMPDIR` is unlinked as soon as it is
/// created (while the process is still reading, the directory is already empty and the file
/// is only an open descriptor), and nothing is left after a success or a failure.
#[test]
fn open_to_stdout_leaves_nothing_in_tmpdir() {
    use std::io::Write;
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let tmpdir = tempfile::tempdir().expect("tmpdir");
    let t = tmpdir.path().canonicalize().expect("canonical tmpdir");
    keygen(d, "x-wing", "k");
    let len = 5 * CHUNK + 10;
    let pt = data(len, 4);
    std::fs::write(d.join("pt"), &pt).expect("write");
    let cs = CHUNK.to_string();
    ok(
        d,
        &[
            "hpke",
            "seal",
            "--to",
            "k.pub",
            "--chunk-size",
            &cs,
            "-o",
            "ct",
            "pt",
        ],
    );
    let ct = std::fs::read(d.join("ct")).expect("ct");
    let open = |input: &[u8]| {
        let mut c = Command::new(BIN)
            .args(["hpke", "open", "--key", "k"])
            .current_dir(d)
            .env("TMPDIR", &t)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        c.stdin
            .take()
            .expect("stdin")
            .write_all(input)
            .expect("feed");
        c.wait_with_output().expect("wait")
    };
    // Success, then a failure (a truncated file): exit code, output, and an empty $TMPDIR.
    let good = open(&ct);
    assert!(
        good.status.success(),
        "{}",
        String::from_utf8_lossy(&good.stderr)
    );
    assert_eq!(good.stdout, pt);
    assert_eq!(listing(&t), Vec::<String>::new(), "left after success");
    let bad = open(&ct[..ct.len() - 1]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(bad.stdout.is_empty());
    assert_eq!(listing(&t), Vec::<String>::new(), "left after failure");

    // Mid-way: the header and two chunks sent, the process waiting for more. Its temporary
    // file must already be gone from the directory (only a descriptor to a deleted file).
    let fd_dir = Path::new("/proc/self/fd");
    if !fd_dir.exists() {
        eprintln!("SKIPPED (not a pass): no /proc to see the child's descriptors");
        return;
    }
    let (header, starts) = layout(&ct, len);
    assert!(header < starts[2]);
    let mut c = Command::new(BIN)
        .args(["hpke", "open", "--key", "k"])
        .current_dir(d)
        .env("TMPDIR", &t)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = c.stdin.take().expect("stdin");
    stdin.write_all(&ct[..starts[2]]).expect("feed");
    stdin.flush().expect("flush");
    let fds = std::path::PathBuf::from(format!("/proc/{}/fd", c.id()));
    let mut seen = None;
    for _ in 0..500 {
        if let Ok(rd) = std::fs::read_dir(&fds) {
            seen = rd
                .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
                .find(|l| l.starts_with(&t));
        }
        if seen.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let seen = seen.expect("the child never opened its temporary file");
    assert_eq!(
        listing(&t),
        Vec::<String>::new(),
        "temporary file visible while open runs ({})",
        seen.display()
    );
    assert!(
        seen.to_string_lossy().ends_with(" (deleted)"),
        "{}",
        seen.display()
    );
    drop(stdin);
    let out = c.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(1), "a truncated file must fail");
    assert!(out.stdout.is_empty());
    assert_eq!(listing(&t), Vec::<String>::new(), "left after the cut");
}

/// Output names near the 255-byte limit work (the temporary name does not grow with them),
/// and an output that cannot be created is named as the user gave it.
#[test]
fn long_output_names_and_errors_name_the_destination() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    keygen(d, "x25519", "k");
    std::fs::write(d.join("pt"), data(3000, 8)).expect("write");
    let long = "n".repeat(250);
    ok(d, &["hpke", "seal", "--to", "k.pub", "-o", &long, "pt"]);
    let long2 = "m".repeat(250);
    ok(d, &["hpke", "open", "--key", "k", "-o", &long2, &long]);
    assert_eq!(
        std::fs::read(d.join(&long2)).expect("opened"),
        std::fs::read(d.join("pt")).expect("pt")
    );
    for args in [
        &[
            "hpke",
            "seal",
            "--to",
            "k.pub",
            "-o",
            "no/such/dir/out",
            "pt",
        ][..],
        &["hpke", "open", "--key", "k", "-o", "no/such/dir/out", &long],
    ] {
        let out = tessera(d, args);
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            err, "tessera: no/such/dir/out: No such file or directory\n",
            "{args:?}"
        );
    }
}

/// Private key files are created with mode 0600 (owner read/write only), for every KEM.
#[cfg(unix)]
#[test]
fn private_key_files_are_mode_0600() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    for kem in [
        "x-wing",
        "ml-kem-512",
        "ml-kem-768",
        "ml-kem-1024",
        "x25519",
        "p256",
    ] {
        keygen(d, kem, kem);
        let mode = std::fs::metadata(d.join(kem))
            .expect("key")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{kem}: mode {mode:o}");
        let text = std::fs::read_to_string(d.join(kem)).expect("key text");
        assert!(text.starts_with("-----BEGIN PRIVATE KEY-----\n"), "{kem}");
    }
}
