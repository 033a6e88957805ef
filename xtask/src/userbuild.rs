//! `cargo xtask user-build`: the build a user of Tessera gets, i.e. without this workspace's
//! `--cfg tessera_test_hooks` (`.cargo/config.toml` sets it for the workspace's own builds; a
//! `RUSTFLAGS` variable replaces that list, so an explicit one drops it).
//!
//! 1. The umbrella crate with every feature (and so every primitive crate) checks with
//!    `-D warnings`: nothing the test hooks use is left dead in a user's build.
//! 2. `crates/user-build-probe` names each test-only entry point (derandomized HPKE sender
//!    setup, `encap_derand`, ML-KEM `Encaps_internal`, ML-DSA `Sign_internal`, ...), one per
//!    function, each marked `// gated: NAME`. Its user build must fail, with at least as many
//!    errors naming `NAME` as there are markers for it: every entry point is out of reach, not
//!    just the first one the compiler met. The workspace's own builds (clippy, tests) compile
//!    the same file, so each call there is well-formed: it fails here for the missing cfg only.

use std::collections::BTreeMap;

use crate::cmd::{Cmd, root};

const PROBE: &str = "crates/user-build-probe/src/lib.rs";

/// The `// gated: NAME` markers of the probe, counted per name.
fn markers(src: &str) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for line in src.lines() {
        if let Some(name) = line.trim().strip_prefix("// gated: ") {
            *m.entry(name.trim().to_string()).or_insert(0) += 1;
        }
    }
    m
}

/// How many error lines (`--message-format=short`) name `` `name` ``.
fn errors_naming(stderr: &str, name: &str) -> usize {
    let quoted = format!("`{name}`");
    stderr
        .lines()
        .filter(|l| l.contains("error[") && l.contains(&quoted))
        .count()
}

fn user_cmd(args: &[&str]) -> Cmd {
    Cmd::cargo(args).env("RUSTFLAGS", "-D warnings").env(
        "CARGO_TARGET_DIR",
        root().join("target/user-build").display().to_string(),
    )
}

pub fn run() -> bool {
    let check = user_cmd(&[
        "check",
        "-p",
        "tessera",
        "--all-features",
        "--message-format=short",
    ]);
    if !check.run_ok("user build: tessera, every feature, -D warnings") {
        eprintln!("FAIL: the user build of tessera (every feature) does not check cleanly");
        return false;
    }

    let src = match std::fs::read_to_string(root().join(PROBE)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("FAIL: cannot read {PROBE}: {e}");
            return false;
        }
    };
    let want = markers(&src);
    if want.is_empty() {
        eprintln!("FAIL: {PROBE} has no `// gated:` markers");
        return false;
    }
    let probe = user_cmd(&[
        "check",
        "-p",
        "tessera-user-build-probe",
        "--message-format=short",
    ]);
    eprintln!("\n=== user build of the probe (must fail)\n    {probe}");
    let out = match probe.command().output() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("FAIL: cannot run cargo: {e}");
            return false;
        }
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        eprintln!(
            "FAIL: the probe compiled without the test hooks: test-only entry points are public"
        );
        return false;
    }
    let mut ok = true;
    for (name, n) in &want {
        let got = errors_naming(&stderr, name);
        let verdict = if got >= *n {
            "unreachable"
        } else {
            "REACHABLE"
        };
        eprintln!("  {name}: {got} error(s) for {n} use(s): {verdict}");
        ok &= got >= *n;
    }
    let probe_errors = stderr
        .lines()
        .filter(|l| l.starts_with(PROBE) && l.contains("error"))
        .count();
    let other: Vec<&str> = stderr
        .lines()
        .filter(|l| {
            l.contains("error")
                && !l.starts_with(PROBE)
                && !l.starts_with("error: could not compile")
        })
        .collect();
    if !other.is_empty() {
        eprintln!("FAIL: errors outside the probe (the user build itself is broken):");
        for l in other {
            eprintln!("  {l}");
        }
        ok = false;
    }
    if !ok {
        eprintln!("--- cargo's output ---\n{stderr}");
    }
    eprintln!(
        "{} test-only entry points, {probe_errors} errors in the probe: {}",
        want.len(),
        if ok { "none reachable" } else { "FAIL" }
    );
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_and_errors_are_counted() {
        let src = "// gated: a\nfn x() {}\n  // gated: a\n// gated: b_c\n";
        let m = markers(src);
        assert_eq!(m.get("a"), Some(&2));
        assert_eq!(m.get("b_c"), Some(&1));
        let err = "p.rs:1:1: error[E0599]: no method named `a` found\n\
                   p.rs:2:1: error[E0599]: no method named `ab` found\n\
                   p.rs:3:1: warning: `a` unused\n";
        assert_eq!(errors_naming(err, "a"), 1);
        assert_eq!(errors_naming(err, "b_c"), 0);
    }
}
