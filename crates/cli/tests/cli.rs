//! The command line itself: usage errors are one line on stderr with exit code 1, `--help` and
//! `--version` exit 0.

use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_tessera");

fn tessera(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run tessera")
}

#[test]
fn usage_errors_are_one_line_and_exit_1() {
    let cases: &[(&[&str], &str)] = &[
        (
            &[],
            "tessera: a subcommand is required (see 'tessera --help')\n",
        ),
        (
            &["hpke"],
            "tessera: a subcommand is required (see 'tessera hpke --help')\n",
        ),
        (&["bogus"], "tessera: unrecognized subcommand 'bogus'\n"),
        (
            &["sum", "--bogus"],
            "tessera: unexpected argument '--bogus' found\n",
        ),
        (
            &["hpke", "seal"],
            "tessera: the following required arguments were not provided: --to <TO>\n",
        ),
        (
            &["sum", "-j", "x"],
            "tessera: invalid value 'x' for '--jobs <JOBS>': invalid digit found in string\n",
        ),
        (&["hpke", "seal", "--chunk-size", "-5", "--to", "k"], ""),
    ];
    for (args, want) in cases {
        let out = tessera(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("tessera: "), "{args:?}: {err}");
        if !want.is_empty() {
            assert_eq!(err, *want, "{args:?}");
        }
    }
}

#[test]
fn help_and_version_exit_0() {
    for args in [
        &["--help"][..],
        &["-h"],
        &["--version"],
        &["-V"],
        &["help"],
        &["sum", "--help"],
        &["hpke", "open", "--help"],
    ] {
        let out = tessera(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(out.stderr.is_empty(), "{args:?}");
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
    let v = tessera(&["--version"]);
    assert_eq!(
        String::from_utf8_lossy(&v.stdout),
        format!("tessera {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// Runs `tessera ARGS` with standard output a pipe whose reading end is already closed.
fn to_closed_pipe(dir: &std::path::Path, args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("TESSERA_SPEED_MS", "1")
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("run tessera")
}

/// A closed standard output (`tessera info | head -0`) is a one-line error and exit 1 in every
/// command that prints, never a panic.
#[test]
fn closed_stdout_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::write(d.join("f"), b"some bytes").expect("write");
    let ok = Command::new(BIN)
        .args(["hpke", "keygen", "--kem", "x25519", "-o", "k"])
        .current_dir(d)
        .output()
        .expect("keygen");
    assert!(ok.status.success());
    let ok = Command::new(BIN)
        .args(["hpke", "seal", "--to", "k.pub", "-o", "f.ct", "f"])
        .current_dir(d)
        .output()
        .expect("seal");
    assert!(ok.status.success());
    let cases: &[(&[&str], &str)] = &[
        (
            &["info"],
            "tessera: standard output: write error: Broken pipe\n",
        ),
        (
            &["speed", "sha3-256"],
            "tessera: standard output: write error: Broken pipe\n",
        ),
        (
            &["speed", "--json", "sha3-256"],
            "tessera: standard output: write error: Broken pipe\n",
        ),
        (
            &["hpke", "seal", "--to", "k.pub", "f"],
            "tessera: standard output: write error: Broken pipe\n",
        ),
        (
            &["hpke", "open", "--key", "k", "f.ct"],
            "tessera: standard output: write error: Broken pipe\n",
        ),
        // coreutils' own message for this case (`sha256sum f | ...` with SIGPIPE ignored).
        (&["sum", "f"], "tessera: write error\n"),
    ];
    for (args, want) in cases {
        let out = to_closed_pipe(d, args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        if !want.is_empty() {
            assert_eq!(err, *want, "{args:?}");
        }
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
