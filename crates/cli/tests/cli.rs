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
