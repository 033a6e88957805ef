//! The measurement loop and the verdict of one target.

use std::hint::black_box;
use std::time::{Duration, Instant};

use crate::rng::Rng;
use crate::stats::{self, TTest};
use crate::{THRESHOLD, timer};

/// The input class of one measurement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// The fixed secret (class 0).
    Fixed,
    /// A fresh random secret (class 1).
    Random,
}

/// Writes the input of `class` into `dst`: `fixed` or `random`, blended byte by byte under a
/// mask (`dst = fixed & !m | random & m`, `m` all zeros or all ones), so that both classes run
/// the same instructions over the same memory and only the data differs.
pub fn blend(class: Class, dst: &mut [u8], fixed: &[u8], random: &[u8]) {
    assert!(dst.len() == fixed.len() && dst.len() == random.len());
    let m: u8 = black_box(match class {
        Class::Fixed => 0,
        Class::Random => 0xff,
    });
    for ((d, f), r) in dst.iter_mut().zip(fixed).zip(random) {
        *d = (f & !m) | (r & m);
    }
}

/// One operation under test.
pub trait Target {
    /// Untimed: loads the input of `class` into the place [`Target::run`] reads it from. Both
    /// classes must do the same work here (draw the random input into a scratch buffer, then
    /// [`blend`] the class's input into place), so that the caches, the TLB, the store buffer
    /// and the branch predictors are left alike: a class that wrote more before the timed call
    /// was measured slower by a few cycles here (|t| about 15 to 20 on 100,000 measurements).
    fn prepare(&mut self, class: Class, rng: &mut Rng);
    /// Timed: the operation on the prepared input. Results must go through `black_box`.
    fn run(&mut self);
}

/// How much to measure.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Measurements counted (after the warm-up).
    pub measurements: usize,
    /// Measurements run first and discarded (caches, predictors, clock ramp-up).
    pub warmup: usize,
    /// Wall-clock limit of one run: it stops early, with what it has, when this is reached.
    pub max_time: Duration,
}

/// The result of one run.
#[derive(Clone, Debug)]
pub struct Run {
    /// The t-tests ([`stats::analyse`]).
    pub tests: Vec<TTest>,
    /// Measurements of each class.
    pub n: [u64; 2],
    /// Median cycles of each class.
    pub median: [u64; 2],
    /// Wall-clock time of the run.
    pub elapsed: Duration,
}

impl Run {
    /// The largest |t| (0 without tests).
    pub fn max_abs_t(&self) -> f64 {
        stats::max_abs(&self.tests).map_or(0.0, |t| t.t.abs())
    }

    /// Whether the largest |t| is over [`THRESHOLD`].
    pub fn flagged(&self) -> bool {
        self.max_abs_t() > THRESHOLD
    }

    /// One line: the classes' sizes and medians, then every test's t.
    pub fn summary(&self) -> String {
        let ts: Vec<String> = self
            .tests
            .iter()
            .map(|t| format!("{}={:+.2}", t.label, t.t))
            .collect();
        let detail = stats::max_abs(&self.tests).map_or(String::new(), |t| {
            format!(" at {}: means {:.1}/{:.1}", t.label, t.mean[0], t.mean[1])
        });
        format!(
            "max|t| = {:.2}{detail} (n = {}/{}, median {}/{} cycles fixed/random, {:.1} s): {}",
            self.max_abs_t(),
            self.n[0],
            self.n[1],
            self.median[0],
            self.median[1],
            self.elapsed.as_secs_f64(),
            ts.join(" ")
        )
    }
}

/// Measures `target`: the classes in random order (one draw per measurement from `seed`),
/// each call timed alone.
pub fn measure(target: &mut dyn Target, budget: Budget, seed: u64) -> Run {
    let mut rng = Rng::new(seed);
    let t0 = Instant::now();
    let total = budget.warmup + budget.measurements;
    let mut samples: Vec<(u8, u64)> = Vec::with_capacity(budget.measurements);
    for i in 0..total {
        let class = if rng.bit() {
            Class::Random
        } else {
            Class::Fixed
        };
        target.prepare(class, &mut rng);
        let a = timer::start();
        target.run();
        let b = timer::stop();
        if i >= budget.warmup {
            samples.push((u8::from(class == Class::Random), b.wrapping_sub(a)));
        }
        // The clock is read every 1024 measurements only (it costs more than some targets).
        if i % 1024 == 1023 && t0.elapsed() > budget.max_time {
            break;
        }
    }
    let median = [0u8, 1].map(|c| {
        let mut v: Vec<u64> = samples.iter().filter(|s| s.0 == c).map(|s| s.1).collect();
        v.sort_unstable();
        if v.is_empty() {
            0
        } else {
            stats::quantile(&v, 0.5)
        }
    });
    let n = [0u8, 1].map(|c| samples.iter().filter(|s| s.0 == c).count() as u64);
    Run {
        tests: stats::analyse(&samples),
        n,
        median,
        elapsed: t0.elapsed(),
    }
}

/// The verdict of a target.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// No run exceeded the threshold, or only the first did and the confirmation did not.
    ConstantTime(Vec<Run>),
    /// Both runs exceeded the threshold.
    Leak(Vec<Run>),
}

/// Measures `target` and, when the first run exceeds [`THRESHOLD`], confirms on a second run of
/// fresh measurements (another seed); a leak is reported only when both exceed it. Prints each
/// run's summary under `name`.
pub fn check(name: &str, target: &mut dyn Target, budget: Budget, seed: u64) -> Verdict {
    let first = measure(target, budget, seed);
    println!("{name}: run 1: {}", first.summary());
    if !first.flagged() {
        return Verdict::ConstantTime(vec![first]);
    }
    println!("{name}: |t| over {THRESHOLD} in run 1; confirming on fresh measurements");
    let second = measure(target, budget, seed ^ 0x5eed_5eed_5eed_5eed);
    println!("{name}: run 2: {}", second.summary());
    if second.flagged() {
        Verdict::Leak(vec![first, second])
    } else {
        Verdict::ConstantTime(vec![first, second])
    }
}

/// Measures a negative control (a target that leaks by construction): flagged when a run
/// exceeds [`THRESHOLD`]; a second run is measured when the first does not (the controls must
/// be seen, but a burst of noise may hide one run). Prints each run's summary under `name`.
pub fn control(name: &str, target: &mut dyn Target, budget: Budget, seed: u64) -> bool {
    let first = measure(target, budget, seed);
    println!("{name}: run 1: {}", first.summary());
    if first.flagged() {
        return true;
    }
    println!("{name}: not flagged in run 1; measuring again");
    let second = measure(target, budget, seed ^ 0x5eed_5eed_5eed_5eed);
    println!("{name}: run 2: {}", second.summary());
    second.flagged()
}

/// The quick negative control every run starts with: an early-exit comparison of a 64-byte
/// secret with a public value, byte by byte. The fixed secret equals the public value (all 64
/// bytes compared); a random one differs in its first byte 255 times in 256 (one compared). A
/// harness whose timer cannot see that difference proves nothing.
pub struct QuickControl {
    reference: [u8; 64],
    scratch: [u8; 64],
    secret: [u8; 64],
}

impl QuickControl {
    /// The control, with its public value drawn from `seed`.
    pub fn new(seed: u64) -> Self {
        let mut reference = [0u8; 64];
        Rng::new(seed).fill(&mut reference);
        QuickControl {
            reference,
            scratch: [0; 64],
            secret: [0; 64],
        }
    }

    /// The budget it needs (a few hundred milliseconds).
    pub const BUDGET: Budget = Budget {
        measurements: 50_000,
        warmup: 2_000,
        max_time: Duration::from_secs(5),
    };
}

/// An early-exit byte comparison (deliberately not constant time).
#[inline(never)]
pub fn leaky_eq(a: &[u8], b: &[u8]) -> bool {
    for (x, y) in a.iter().zip(b) {
        // `black_box` keeps the loop a byte-at-a-time loop (no vectorized compare).
        if black_box(*x) != black_box(*y) {
            return false;
        }
    }
    true
}

impl Target for QuickControl {
    fn prepare(&mut self, class: Class, rng: &mut Rng) {
        rng.fill(&mut self.scratch);
        blend(class, &mut self.secret, &self.reference, &self.scratch);
    }

    fn run(&mut self) {
        black_box(leaky_eq(black_box(&self.secret), &self.reference));
    }
}
