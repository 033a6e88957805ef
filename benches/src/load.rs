//! The machine's background load during a run: CPU time used by other processes and time
//! stolen by the hypervisor, from `/proc/stat` and `/proc/self/stat` (Linux), sampled around
//! every pass of the comparison. A run is marked noisy above [`NOISY_OTHERS_CPU`] or
//! [`NOISY_STEAL_PCT`].
//!
//! Why those thresholds: the bench measures on one thread of a 2-vCPU guest whose vCPUs share
//! a core's caches and execution units with each other (and with other guests, which steal
//! time). A quiet machine shows about 0.01-0.03 CPUs of other work (daemons, the shell) and no
//! steal; a compile on the other vCPU shows about 0.9-1.0 CPU, and moved about a third of the
//! ratios by more than 5% against a quiet run of the same build (docs/perf/bench-stability.md).
//! A quarter of a CPU on average (or any one pass above 0.6) is far above the quiet level and
//! well below a compile: work on that scale (a test suite, a second bench, an indexer) is what
//! the report must not be silent about. Steal above 2% of the time means the host itself is
//! contended.

/// Average CPUs used by other processes over the run above which the run is noisy.
pub const NOISY_OTHERS_CPU: f64 = 0.25;
/// CPUs used by other processes in any single pass above which the run is noisy.
pub const NOISY_PASS_CPU: f64 = 0.6;
/// Hypervisor steal (% of all CPU time) above which the run is noisy.
pub const NOISY_STEAL_PCT: f64 = 2.0;

/// Cumulative counters at one instant (USER_HZ ticks).
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// All CPUs' ticks of every state (user, nice, system, idle, iowait, irq, softirq, steal).
    total: u64,
    /// All CPUs' busy ticks (user, nice, system, irq, softirq).
    busy: u64,
    /// All CPUs' steal ticks.
    steal: u64,
    /// This process's user + system ticks.
    own: u64,
    /// Logical CPUs in the `cpu` line's total.
    cpus: usize,
}

/// The load of one stretch between two samples.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Load {
    /// CPUs' worth of time other processes used (0.0 = none, 1.0 = one CPU busy throughout).
    pub others_cpu: f64,
    /// Steal, % of all CPU time.
    pub steal_pct: f64,
}

/// The counters now; `None` where `/proc` is missing (not Linux).
pub fn sample() -> Option<Sample> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let own = std::fs::read_to_string("/proc/self/stat").ok()?;
    parse(&stat, &own)
}

fn parse(stat: &str, own: &str) -> Option<Sample> {
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .take(8)
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    if v.len() < 8 {
        return None;
    }
    let cpus = stat
        .lines()
        .filter(|l| l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
        .count()
        .max(1);
    // /proc/self/stat: fields after the command name in parentheses; utime and stime are
    // fields 14 and 15 of the whole line, so 12 and 13 after the `)`.
    let rest = &own[own.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = f.get(11)?.parse().ok()?;
    let stime: u64 = f.get(12)?.parse().ok()?;
    Some(Sample {
        total: v.iter().sum(),
        busy: v[0] + v[1] + v[2] + v[5] + v[6],
        steal: v[7],
        own: utime + stime,
        cpus,
    })
}

/// The load between `a` and a later `b`.
pub fn between(a: &Sample, b: &Sample) -> Load {
    let total = b.total.saturating_sub(a.total);
    if total == 0 {
        return Load::default();
    }
    let busy = b.busy.saturating_sub(a.busy);
    let own = b.own.saturating_sub(a.own);
    let steal = b.steal.saturating_sub(a.steal);
    Load {
        // `total` advances by cpus x HZ per second, so busy / total x cpus is in CPUs.
        others_cpu: busy.saturating_sub(own) as f64 / total as f64 * a.cpus as f64,
        steal_pct: steal as f64 / total as f64 * 100.0,
    }
}

/// A run's load: one [`Load`] per pass, with its verdict.
#[derive(Clone, Debug, Default)]
pub struct RunLoad {
    /// One per pass, in order (empty where `/proc` is missing).
    pub passes: Vec<Load>,
}

impl RunLoad {
    /// Mean CPUs of other processes over the passes.
    pub fn others_mean(&self) -> f64 {
        mean(self.passes.iter().map(|l| l.others_cpu))
    }
    /// The largest pass.
    pub fn others_max(&self) -> f64 {
        self.passes.iter().map(|l| l.others_cpu).fold(0.0, f64::max)
    }
    /// Mean steal (%).
    pub fn steal_mean(&self) -> f64 {
        mean(self.passes.iter().map(|l| l.steal_pct))
    }
    /// Above a threshold of this module.
    pub fn noisy(&self) -> bool {
        self.others_mean() > NOISY_OTHERS_CPU
            || self.others_max() > NOISY_PASS_CPU
            || self.steal_mean() > NOISY_STEAL_PCT
    }
    /// One line for a report header.
    pub fn line(&self) -> String {
        if self.passes.is_empty() {
            return "not measured (no /proc)".into();
        }
        format!(
            "other processes {:.2} CPU on average (largest pass {:.2}), steal {:.1}% over {} \
             passes: {}",
            self.others_mean(),
            self.others_max(),
            self.steal_mean(),
            self.passes.len(),
            if self.noisy() { "NOISY" } else { "quiet" }
        )
    }
}

fn mean(it: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = it.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 { 0.0 } else { s / n as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAT_A: &str = "cpu  100 0 50 1000 0 0 0 0 0 0\ncpu0 50 0 25 500 0 0 0 0 0 0\ncpu1 50 0 25 500 0 0 0 0 0 0\nintr 1\n";
    // 100 ticks later on 2 CPUs (200 ticks in all): 150 busy, 10 steal, 40 idle.
    const STAT_B: &str = "cpu  200 0 100 1040 0 0 0 10 0 0\ncpu0 100 0 50 520 0 0 0 5 0 0\ncpu1 100 0 50 520 0 0 0 5 0 0\nintr 1\n";
    const OWN_A: &str = "42 (my (odd) name) R 1 2 3 4 5 6 7 8 9 10 30 20 0 0 20 0 1 0 5 6 7";
    const OWN_B: &str = "42 (my (odd) name) R 1 2 3 4 5 6 7 8 9 10 100 50 0 0 20 0 1 0 5 6 7";

    #[test]
    fn others_and_steal() {
        let a = parse(STAT_A, OWN_A).unwrap();
        let b = parse(STAT_B, OWN_B).unwrap();
        assert_eq!(a.cpus, 2);
        let l = between(&a, &b);
        // busy 150, own 100: 50 of 200 ticks on 2 CPUs = 0.5 CPU.
        assert!((l.others_cpu - 0.5).abs() < 1e-12, "{l:?}");
        assert!((l.steal_pct - 5.0).abs() < 1e-12, "{l:?}");
        let run = RunLoad {
            passes: vec![l, Load::default()],
        };
        assert!((run.others_mean() - 0.25).abs() < 1e-12);
        assert!(run.noisy(), "steal 2.5% on average is over the threshold");
        let quiet = RunLoad {
            passes: vec![Load {
                others_cpu: 0.02,
                steal_pct: 0.0,
            }],
        };
        assert!(!quiet.noisy());
        assert!(quiet.line().ends_with("quiet"), "{}", quiet.line());
    }

    #[test]
    fn malformed_is_none() {
        assert!(parse("intr 1\n", OWN_A).is_none());
        assert!(parse(STAT_A, "42 (x) R 1").is_none());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn reads_this_machine() {
        let a = sample().expect("/proc is readable");
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        let b = sample().unwrap();
        assert!(b.own >= a.own && b.total >= a.total);
        let l = between(&a, &b);
        assert!(l.others_cpu >= 0.0 && l.steal_pct >= 0.0, "{l:?}");
    }
}
