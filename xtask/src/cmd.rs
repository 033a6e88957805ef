//! Commands and their runs: the workspace root, the `CI` switch, tool and target probes, and
//! [`Cmd`], a command that can be printed (`cargo xtask test --list`) as well as run.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The test hooks of this workspace's own builds. `.cargo/config.toml` sets them for every
/// build on a hosted target; a `RUSTFLAGS` variable replaces that list, so every command that
/// sets `RUSTFLAGS` starts from [`rustflags_with_hooks`].
pub const TEST_HOOKS: &str = "--cfg tessera_test_hooks";

/// The workspace root (the parent of this crate's manifest directory).
pub fn root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// Whether this is a CI run (`CI` set): a skipped leg is then a failure.
pub fn ci() -> bool {
    std::env::var_os("CI").is_some()
}

/// Whether `tool arg` runs and exits 0 (e.g. `qemu-x86_64 --version`).
pub fn have(tool: &str, arg: &str) -> bool {
    Command::new(tool)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether `cargo +nightly miri` is installed.
pub fn have_miri() -> bool {
    Command::new("cargo")
        .args(["+nightly", "miri", "--version"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether rustup has the standard library of target `t`.
pub fn has_target(t: &str) -> bool {
    Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .is_ok_and(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .any(|l| l.trim() == t)
        })
}

/// The `RUSTFLAGS` of a command that must set them: the caller's own `RUSTFLAGS` (if any), the
/// test hooks (which the variable would otherwise drop), then `extra`.
pub fn rustflags_with_hooks(extra: &str) -> String {
    join_rustflags(&std::env::var("RUSTFLAGS").unwrap_or_default(), extra)
}

fn join_rustflags(own: &str, extra: &str) -> String {
    let mut parts: Vec<&str> = vec![own.trim()];
    if !own.contains("tessera_test_hooks") {
        parts.push(TEST_HOOKS);
    }
    parts.push(extra.trim());
    parts.retain(|p| !p.is_empty());
    parts.join(" ")
}

/// Warns when the caller's environment replaces `.cargo/config.toml`'s rustflags without the
/// test hooks: then every command that does not set `RUSTFLAGS` itself builds without them.
pub fn warn_if_hooks_dropped() {
    for var in ["CARGO_ENCODED_RUSTFLAGS", "RUSTFLAGS"] {
        if std::env::var(var).is_ok_and(|f| !f.contains("tessera_test_hooks")) {
            eprintln!(
                "warning: {var} is set and replaces .cargo/config.toml's `{TEST_HOOKS}`: the \
                 commands that do not set RUSTFLAGS themselves build without the test hooks"
            );
        }
    }
}

/// The cargo subcommands that get `--ignore-rust-version`: the peer HPKE library hpke-ng 0.2
/// (a dev-dependency of the test-only `tessera-hpke-interop`, a dependency of `tessera-benches`) declares rust-version
/// 1.96 and builds on the pinned 1.95, and cargo refuses to build it without the flag.
pub const IGNORE_RUST_VERSION: [&str; 6] = ["build", "check", "test", "bench", "clippy", "run"];

/// The program of a [`Cmd`].
#[derive(Clone, Debug)]
enum Program {
    /// The cargo running xtask (`$CARGO`), printed as `cargo`.
    Cargo,
    /// A program looked up in `PATH` (including `cargo` itself, for `cargo +nightly`).
    Tool(String),
}

/// A command run in the workspace root: program, arguments and the environment variables it
/// sets. Prints as a shell command line.
#[derive(Clone, Debug)]
pub struct Cmd {
    program: Program,
    args: Vec<String>,
    env: Vec<(String, String)>,
}

impl Cmd {
    /// `cargo ARGS` with the cargo that runs xtask (same toolchain). A command that builds
    /// (see [`IGNORE_RUST_VERSION`]) gets `--ignore-rust-version` after its subcommand.
    pub fn cargo(args: &[&str]) -> Self {
        let mut v: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        if v.first()
            .is_some_and(|sub| IGNORE_RUST_VERSION.contains(&sub.as_str()))
        {
            v.insert(1, "--ignore-rust-version".into());
        }
        Cmd {
            program: Program::Cargo,
            args: v,
            env: Vec::new(),
        }
    }

    /// `PROGRAM ARGS`, the program looked up in `PATH`.
    pub fn tool(program: &str, args: &[&str]) -> Self {
        Cmd {
            program: Program::Tool(program.into()),
            args: args.iter().map(|a| a.to_string()).collect(),
            env: Vec::new(),
        }
    }

    /// Appends arguments.
    pub fn args<S: Into<String>>(mut self, a: impl IntoIterator<Item = S>) -> Self {
        self.args.extend(a.into_iter().map(Into::into));
        self
    }

    /// `-p P` for each package.
    pub fn packages(mut self, pkgs: &[&str]) -> Self {
        for p in pkgs {
            self.args.extend(["-p".to_string(), p.to_string()]);
        }
        self
    }

    /// Sets an environment variable for the command.
    pub fn env(mut self, k: &str, v: impl Into<String>) -> Self {
        self.env.push((k.into(), v.into()));
        self
    }

    /// The `std::process::Command`, in the workspace root.
    pub fn command(&self) -> Command {
        let mut c = match &self.program {
            Program::Cargo => {
                Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            }
            Program::Tool(p) => Command::new(p),
        };
        c.args(&self.args).current_dir(root());
        for (k, v) in &self.env {
            c.env(k, v);
        }
        c
    }

    /// Runs the command (stdout and stderr inherited) after a `=== leg:` banner; returns its
    /// exit code (`None`: not started or killed by a signal) and the seconds it took.
    pub fn run(&self, name: &str) -> (Option<i32>, f64) {
        eprintln!("\n=== leg: {name}\n    {self}");
        let t = Instant::now();
        let code = self.command().status().ok().and_then(|s| s.code());
        (code, t.elapsed().as_secs_f64())
    }

    /// Runs the command and reports whether it exited 0.
    pub fn run_ok(&self, name: &str) -> bool {
        self.run(name).0 == Some(0)
    }
}

/// Quotes a word for a POSIX shell when it needs it.
fn quote(w: &str) -> String {
    let plain = !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c));
    if plain {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

impl fmt::Display for Cmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in &self.env {
            write!(f, "{k}={} ", quote(v))?;
        }
        match &self.program {
            Program::Cargo => f.write_str("cargo")?,
            Program::Tool(p) => f.write_str(&quote(p))?,
        }
        for a in &self.args {
            write!(f, " {}", quote(a))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rustflags_keep_the_callers_and_add_the_hooks_once() {
        assert_eq!(join_rustflags("", ""), "--cfg tessera_test_hooks");
        assert_eq!(
            join_rustflags(" -C target-cpu=native ", "--cfg aes_force_soft"),
            "-C target-cpu=native --cfg tessera_test_hooks --cfg aes_force_soft"
        );
        assert_eq!(
            join_rustflags("--cfg tessera_test_hooks", "--cfg x"),
            "--cfg tessera_test_hooks --cfg x"
        );
    }

    #[test]
    fn display_is_a_shell_line() {
        let c = Cmd::cargo(&["test", "-p", "a"])
            .env("RUSTFLAGS", "--cfg tessera_backend=\"portable\"")
            .env("R", "qemu-x86_64 -cpu Haswell")
            .args(["--", "it's"]);
        assert_eq!(
            c.to_string(),
            "RUSTFLAGS='--cfg tessera_backend=\"portable\"' R='qemu-x86_64 -cpu Haswell' \
             cargo test --ignore-rust-version -p a -- 'it'\\''s'"
        );
    }
}
