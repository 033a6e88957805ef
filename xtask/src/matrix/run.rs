//! Running the plan: concurrent commands, test executables under a runner, example builds,
//! the result table.

use super::*;

/// Runs `cmds` at the same time, each with its output in `target/xtask-logs/<leg>.log`
/// (printed after all have ended, one after another); returns each one's row.
pub(super) fn run_concurrently(cmds: Vec<(String, Cmd)>) -> Vec<Done> {
    let dir = root().join("target/xtask-logs");
    let _ = std::fs::create_dir_all(&dir);
    let started: Vec<_> = cmds
        .into_iter()
        .map(|(name, c)| {
            let file: String = name
                .chars()
                .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' })
                .collect();
            let log = dir.join(format!("{file}.log"));
            eprintln!(
                "\n=== leg (concurrent): {name}\n    {c}\n    output: {}",
                log.display()
            );
            let child = std::fs::File::create(&log).and_then(|f| {
                let e = f.try_clone()?;
                c.command().stdout(f).stderr(e).spawn()
            });
            (name, log, Instant::now(), child)
        })
        .collect();
    let mut done = Vec::new();
    for (name, log, t, child) in started {
        let code = match child {
            Ok(mut ch) => ch.wait().ok().and_then(|s| s.code()),
            Err(e) => {
                eprintln!("    {name}: could not start: {e}");
                None
            }
        };
        let secs = t.elapsed().as_secs_f64();
        eprintln!("\n=== output of leg {name} (exit {code:?}, {secs:.0} s):");
        eprintln!("{}", std::fs::read_to_string(&log).unwrap_or_default());
        done.push(Done {
            name,
            outcome: pass_if(code == Some(0)),
            secs,
        });
    }
    done
}

/// The package name in a Cargo package id: `path+file:///dir/keccak#tessera-keccak@0.1.0`
/// (name after `#`), or `path+file:///dir/tessera#0.1.0` (the name is the directory's).
pub(super) fn package_of(id: &str) -> Option<&str> {
    let (url, frag) = id.split_once('#')?;
    match frag.split_once('@') {
        Some((name, _)) => Some(name),
        None => url.rsplit('/').next(),
    }
}

/// [`Action::RunTests`]: the build, then the packages' dispatch test executables (their unit
/// tests and [`DISPATCH_TESTS`]) under the runner.
pub(super) fn run_tests(name: &str, t: &TestRun) -> bool {
    let (build, packages, runner, env) = (&t.build, &t.packages, &t.runner, &t.env);
    eprintln!("\n=== leg: {name}\n    {build}");
    let Ok(out) = build
        .command()
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .output()
    else {
        return false;
    };
    if !out.status.success() {
        return false;
    }
    // (package, manifest directory, executable), in build order, each executable once.
    let mut exes: Vec<(String, PathBuf, PathBuf)> = Vec::new();
    for m in String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
    {
        if m["reason"] != "compiler-artifact" || m["profile"]["test"] != true {
            continue;
        }
        let (Some(id), Some(exe), Some(manifest)) = (
            m["package_id"].as_str(),
            m["executable"].as_str(),
            m["manifest_path"].as_str(),
        ) else {
            continue;
        };
        let Some(pkg) = package_of(id).filter(|p| packages.contains(p)) else {
            continue;
        };
        let lib = m["target"]["kind"]
            .as_array()
            .is_some_and(|k| k.iter().any(|k| k == "lib"));
        let dispatch = m["target"]["name"]
            .as_str()
            .is_some_and(|n| DISPATCH_TESTS.contains(&n));
        if !lib && !dispatch {
            continue;
        }
        let exe = PathBuf::from(exe);
        if exes.iter().any(|(_, _, e)| *e == exe) {
            continue;
        }
        let dir = PathBuf::from(manifest)
            .parent()
            .map(PathBuf::from)
            .unwrap_or_else(root);
        exes.push((pkg.to_string(), dir, exe));
    }
    let mut ok = true;
    for p in packages {
        if !exes.iter().any(|(q, _, _)| q == p) {
            eprintln!("    no test executable of {p} in the build");
            ok = false;
        }
    }
    for (pkg, dir, exe) in &exes {
        let mut c = std::process::Command::new(&runner[0]);
        c.args(&runner[1..]).arg(exe).current_dir(dir);
        c.env("CARGO_MANIFEST_DIR", dir).env("CARGO_PKG_NAME", pkg);
        for (k, v) in env {
            c.env(k, v);
        }
        eprintln!(
            "     Running {} ({pkg}) under {}",
            exe.display(),
            runner.join(" ")
        );
        let passed = c.status().is_ok_and(|s| s.success());
        if !passed {
            eprintln!("    FAILED: {} ({pkg})", exe.display());
        }
        ok &= passed;
    }
    ok
}

/// Runs `cargo build --message-format=json-render-diagnostics` and returns the executable of
/// example `example` (diagnostics go to stderr as usual).
pub(super) fn build_example(name: &str, cmd: &Cmd, example: &str) -> (Option<PathBuf>, f64) {
    eprintln!("\n=== leg: {name}\n    {cmd}");
    let t = Instant::now();
    let out = cmd
        .command()
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .output();
    let secs = t.elapsed().as_secs_f64();
    let Ok(out) = out else {
        return (None, secs);
    };
    if !out.status.success() {
        return (None, secs);
    }
    let exe = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| {
            m["reason"] == "compiler-artifact"
                && m["target"]["name"] == example
                && m["target"]["kind"]
                    .as_array()
                    .is_some_and(|k| k.iter().any(|k| k == "example"))
        })
        .find_map(|m| m["executable"].as_str().map(PathBuf::from));
    if exe.is_none() {
        eprintln!("    the build reported no executable for example {example}");
    }
    (exe, secs)
}

/// Runs the matrix and prints the table; true when every leg passed (and, under `CI`, none
/// was skipped).
pub fn test(quick: bool, only: Option<&str>) -> bool {
    println!("{}", tessera_cpu::features());
    cmd::warn_if_hooks_dropped();
    let mut built: HashMap<(&str, &str), PathBuf> = HashMap::new();
    let mut done = Vec::new();
    for l in select(plan(quick), only) {
        let t = Instant::now();
        let (outcome, secs) = match l.action {
            Action::Concurrent(cmds) => {
                done.extend(run_concurrently(cmds));
                continue;
            }
            Action::Run(c) => {
                let (code, secs) = c.run(&l.name);
                (pass_if(code == Some(0)), secs)
            }
            Action::RunTests(tests) => {
                let ok = run_tests(&l.name, &tests);
                (pass_if(ok), t.elapsed().as_secs_f64())
            }
            Action::Skip(why) => {
                eprintln!("\n!!! WARNING: leg {} SKIPPED: {why}", l.name);
                (
                    Outcome::Skip {
                        why,
                        ci_failure: true,
                    },
                    0.0,
                )
            }
            Action::Fail(why) => {
                eprintln!("\n!!! leg {} FAILED: {why}", l.name);
                (Outcome::Fail, 0.0)
            }
            Action::BuildExample {
                package,
                example,
                cmd,
            } => {
                let (exe, secs) = build_example(&l.name, &cmd, example);
                let ok = exe.is_some();
                if let Some(exe) = exe {
                    built.insert((package, example), exe);
                }
                (pass_if(ok), secs)
            }
            Action::Valgrind {
                package,
                example,
                probe,
            } => run_built(
                &l.name,
                &built,
                (package, example),
                t,
                |bin| valgrind_cmd(bin, probe.arg()),
                |code| valgrind_outcome(probe, code, expected_backends().as_deref()),
            ),
            Action::Timing {
                package,
                example,
                arg,
            } => run_built(
                &l.name,
                &built,
                (package, example),
                t,
                |bin| Cmd::tool(bin, &[arg]),
                |code| timing_outcome(arg, code, expected_backends().as_deref()),
            ),
        };
        done.push(Done {
            name: l.name,
            outcome,
            secs,
        });
    }
    table(&done)
}

/// Runs the command `cmd` makes of the executable `built` holds for the example `key`
/// (package, example) as the leg `name`, judged by `judge` on its exit code. When that example
/// did not build, the leg is a skip that fails CI, timed from `t`.
fn run_built(
    name: &str,
    built: &HashMap<(&str, &str), PathBuf>,
    key: (&str, &str),
    t: Instant,
    cmd: impl FnOnce(&str) -> Cmd,
    judge: impl FnOnce(Option<i32>) -> Outcome,
) -> (Outcome, f64) {
    match built.get(&key) {
        Some(bin) => {
            let (code, secs) = cmd(&bin.display().to_string()).run(name);
            (judge(code), secs)
        }
        None => (
            Outcome::Skip {
                why: format!("{} example {} did not build", key.0, key.1),
                ci_failure: true,
            },
            t.elapsed().as_secs_f64(),
        ),
    }
}

/// Prints the result table and the `legs:` line; true when the run passed.
pub(super) fn table(done: &[Done]) -> bool {
    println!("\n| leg | result | time |\n|---|---|---|");
    let mut ok = true;
    let (mut pass, mut fail, mut skipped) = (0, 0, 0);
    for l in done {
        let r = match &l.outcome {
            Outcome::Pass => {
                pass += 1;
                "pass".to_string()
            }
            Outcome::Fail => {
                fail += 1;
                ok = false;
                "FAIL".to_string()
            }
            Outcome::Skip { why, ci_failure } => {
                skipped += 1;
                let fails_ci = ci() && *ci_failure;
                ok &= !fails_ci;
                format!(
                    "SKIPPED ({why}){}",
                    if fails_ci {
                        " - a failure under CI"
                    } else {
                        ""
                    }
                )
            }
        };
        println!("| {} | {} | {:.0} s |", l.name, r, l.secs);
    }
    println!("\nlegs: {pass} passed, {fail} failed, {skipped} skipped");
    ok
}
