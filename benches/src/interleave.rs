//! The interleaved harness behind `cargo xtask bench`: every contestant of one race (Tessera's
//! best backend and each peer, or Tessera's best backend and its other backends) runs in short
//! batches, one after the other, round after round, inside one process, so a slow or fast
//! stretch of a shared machine falls on all of them. The ratios are medians of per-round
//! ratios, with their spread.
//!
//! One round times one batch of every contestant, in an order that rotates (and reverses every
//! other cycle) from round to round, so no contestant always follows the same one. Each batch
//! is preceded by an untimed pre-roll of the same contestant (a quarter of a batch, at least
//! ~20 µs): it brings back the contestant's code and data into the caches and branch predictors
//! after the others ran, and lets a wide-vector contestant get past the core's AVX power-up
//! (at half throughput for some µs on Intel) before the clock starts. Batches are calibrated to
//! about `Config::batch_ns` of work per contestant, whatever its speed, so every contestant gets
//! the same share of each round. Each round also runs every contestant at another stack offset
//! (see `at_depth`), so the set of offsets measured is the same in every run.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Which clock times a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// `std::time::Instant` (monotonic wall time).
    Wall,
    /// The calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`; wall time outside Linux): time
    /// other processes hold the core is not charged to the batch it interrupted.
    ThreadCpu,
}

impl Clock {
    /// The name used in reports and on the command line (`wall`, `thread-cpu`).
    pub fn name(self) -> &'static str {
        match self {
            Clock::Wall => "wall",
            Clock::ThreadCpu => "thread-cpu",
        }
    }

    /// Parses [`Clock::name`].
    pub fn parse(s: &str) -> Option<Clock> {
        match s {
            "wall" => Some(Clock::Wall),
            "thread-cpu" | "cpu" => Some(Clock::ThreadCpu),
            _ => None,
        }
    }

    /// Nanoseconds `f` takes on this clock.
    #[inline(always)]
    fn time(self, f: impl FnOnce()) -> f64 {
        match self {
            Clock::Wall => {
                let t = Instant::now();
                f();
                t.elapsed().as_nanos() as f64
            }
            Clock::ThreadCpu => {
                let t = thread_cpu_now();
                f();
                thread_cpu_now().saturating_sub(t).as_nanos() as f64
            }
        }
    }
}

/// The CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`): time other processes hold
/// the core is not counted. Also the clock of the `aes_gcm_soft` criterion bench.
#[cfg(target_os = "linux")]
pub fn thread_cpu_now() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Elsewhere: wall time since the first call.
#[cfg(not(target_os = "linux"))]
pub fn thread_cpu_now() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// What a contestant is to the row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Tessera's best backend (what `detect()` picks): every ratio of the row is against it.
    Reference,
    /// Another Tessera backend (the per-backend table).
    Backend,
    /// Another library.
    Peer,
}

impl Role {
    /// `reference`, `backend` or `peer` (the JSON `role` field).
    pub fn name(self) -> &'static str {
        match self {
            Role::Reference => "reference",
            Role::Backend => "backend",
            Role::Peer => "peer",
        }
    }
}

/// One implementation in a row: a closure over pre-built state that runs the operation once per
/// call (its inputs through `black_box`), kept behind a boxed batch loop so the operation itself
/// is inlined into that loop and the dynamic call happens once per batch, not per iteration.
pub struct Contestant {
    /// `tessera/<backend>` or the peer's name (`ring`, `aws-lc-rs`, `sha2`, ...).
    pub name: String,
    /// Its role in the row.
    pub role: Role,
    /// Runs `n` iterations; the second argument is the index of the first one's input (see
    /// [`Contestant::indexed`]).
    run: Box<dyn FnMut(u64, u64)>,
    /// Iterations per timed batch when fixed (see [`Contestant::fixed_batch`]); calibrated
    /// when `None`.
    fixed: Option<u64>,
}

impl Contestant {
    /// A contestant that runs `op` once per iteration.
    pub fn new(name: impl Into<String>, role: Role, mut op: impl FnMut() + 'static) -> Self {
        Contestant {
            name: name.into(),
            role,
            run: Box::new(move |n, _| {
                for _ in 0..n {
                    op();
                }
            }),
            fixed: None,
        }
    }

    /// A contestant whose operation takes an input index: a batch that starts at index `s` runs
    /// `op(s)`, `op(s + 1)`, ... and round `r` of [`measure`] starts every contestant's batch
    /// at `s = r` (calibration and warm-up at 0). So in each round every contestant of the row
    /// works on the same inputs, and the rounds cycle through the inputs the same way in every
    /// run: for an operation whose time depends on its input (ML-DSA signing's rejection loop
    /// runs a number of iterations that depends on the message), per-contestant counters would
    /// pair one library's slow message with another's fast one, a pairing that shifted with
    /// each run's calibration and moved the row's median by several percent between runs.
    pub fn indexed(
        name: impl Into<String>,
        role: Role,
        mut op: impl FnMut(usize) + 'static,
    ) -> Self {
        Contestant {
            name: name.into(),
            role,
            run: Box::new(move |n, start| {
                for i in start..start + n {
                    op(i as usize);
                }
            }),
            fixed: None,
        }
    }

    /// Times exactly `n` iterations per batch (at least 1) instead of a calibrated count, with a
    /// one-iteration pre-roll, and starts round `r`'s batch at input index `r * n`. Give every
    /// contestant of a row the same `n`: then each round times every library on the same `n`
    /// inputs (for [`Contestant::indexed`] operations whose time depends on the input, such as
    /// ML-DSA signing), so the per-round ratio is a ratio of times over identical work.
    pub fn fixed_batch(mut self, n: u64) -> Self {
        self.fixed = Some(n.max(1));
        self
    }
}

/// How long to measure.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Work per batch, per contestant (ns).
    pub batch_ns: f64,
    /// Untimed run of every contestant before calibration (ns each).
    pub warmup_ns: f64,
    /// Time budget for the rounds of one pass over a row (ns); the rounds are this divided by
    /// the time of one round, within `min_rounds..=max_rounds`, and stop at twice this in wall
    /// time once `min_rounds` are in.
    pub row_ns: f64,
    /// Fewest rounds per pass.
    pub min_rounds: usize,
    /// Most rounds per pass.
    pub max_rounds: usize,
    /// Bootstrap resamples for the interval of each median ratio.
    pub resamples: usize,
    /// The clock that times batches.
    pub clock: Clock,
}

/// Summary statistics of one series.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// Median.
    pub median: f64,
    /// First quartile.
    pub q1: f64,
    /// Third quartile.
    pub q3: f64,
}

/// One contestant's result in a row.
#[derive(Clone, Debug)]
pub struct Measured {
    /// The contestant's name.
    pub name: String,
    /// Its role.
    pub role: Role,
    /// Iterations per timed batch.
    pub batch: u64,
    /// Per-iteration time over the rounds (ns): median and quartiles.
    pub time_ns: Spread,
    /// Per-round ratio of this contestant's time to the reference's (`>1`: the reference is
    /// faster): median and quartiles. Exactly 1 for the reference.
    pub ratio: Spread,
    /// 95% bootstrap interval of the median ratio.
    pub ci95: (f64, f64),
    /// Rounds of the race this result comes from (a row's two races can differ).
    pub rounds: usize,
}

impl Measured {
    /// Whether the interval contains 1.0: no measured difference from the reference.
    pub fn tie(&self) -> bool {
        self.ci95.0 <= 1.0 && 1.0 <= self.ci95.1
    }
}

/// One race's result (a row's, once its races are merged).
#[derive(Clone, Debug)]
pub struct RowResult {
    /// Rounds measured (of the race against the peers, in a merged row).
    pub rounds: usize,
    /// Wall time the row took, calibration and statistics included (s).
    pub secs: f64,
    /// One entry per contestant, in the order given (the reference first).
    pub contestants: Vec<Measured>,
}

/// Runs `n` iterations of contestant `c`, the first on input index `start` (see
/// [`Contestant::indexed`]).
#[inline(always)]
fn run_at(c: &mut Contestant, n: u64, start: u64) {
    (c.run)(black_box(n), black_box(start));
}

/// Runs `n` iterations of contestant `c` from input index 0.
#[inline(always)]
fn run(c: &mut Contestant, n: u64) {
    run_at(c, n, 0);
}

/// Iterations of `c` that take about `target` ns, and the time of one (ns), from the fastest
/// of a few timings.
fn calibrate(c: &mut Contestant, target: f64, clock: Clock) -> (u64, f64) {
    // Grow until one batch is long against the clock's resolution and overhead.
    let mut n = 1u64;
    loop {
        let t = clock.time(|| run(c, n));
        if t >= target / 8.0 || n >= 1 << 40 {
            break;
        }
        n *= 2;
    }
    let per_iter = (0..5)
        .map(|_| clock.time(|| run(c, n)) / n as f64)
        .fold(f64::INFINITY, f64::min)
        .max(0.01);
    (((target / per_iter).round() as u64).max(1), per_iter)
}

/// Stack offsets the rounds cycle through, 16 bytes apart: every 16-byte offset within a 4 KiB
/// page (see [`at_depth`]).
const STACK_DEPTHS: usize = 256;

/// Runs `f` with the stack `N` bytes deeper (the frame holds an `N`-byte array, `N` a multiple
/// of 16, so frames of two instances differ by exactly their `N`).
#[inline(never)]
fn padded<const N: usize>(f: &mut dyn FnMut()) {
    let pad = [0u8; N];
    black_box(&pad);
    f();
    // Keeps the frame (and `pad`) alive across the call: no tail call.
    black_box(&pad);
}

/// Sixteen consecutive offsets: `padded` at `16 * (16 * $h + 0..16)` bytes.
macro_rules! pads16 {
    ($h:literal) => {
        [
            padded::<{ (16 * $h) * 16 }>,
            padded::<{ (16 * $h + 1) * 16 }>,
            padded::<{ (16 * $h + 2) * 16 }>,
            padded::<{ (16 * $h + 3) * 16 }>,
            padded::<{ (16 * $h + 4) * 16 }>,
            padded::<{ (16 * $h + 5) * 16 }>,
            padded::<{ (16 * $h + 6) * 16 }>,
            padded::<{ (16 * $h + 7) * 16 }>,
            padded::<{ (16 * $h + 8) * 16 }>,
            padded::<{ (16 * $h + 9) * 16 }>,
            padded::<{ (16 * $h + 10) * 16 }>,
            padded::<{ (16 * $h + 11) * 16 }>,
            padded::<{ (16 * $h + 12) * 16 }>,
            padded::<{ (16 * $h + 13) * 16 }>,
            padded::<{ (16 * $h + 14) * 16 }>,
            padded::<{ (16 * $h + 15) * 16 }>,
        ]
    };
}

type Pad = fn(&mut dyn FnMut());

/// `PADS[d / 16][d % 16]` runs its argument `16 * d` bytes deeper on the stack.
static PADS: [[Pad; 16]; 16] = [
    pads16!(0),
    pads16!(1),
    pads16!(2),
    pads16!(3),
    pads16!(4),
    pads16!(5),
    pads16!(6),
    pads16!(7),
    pads16!(8),
    pads16!(9),
    pads16!(10),
    pads16!(11),
    pads16!(12),
    pads16!(13),
    pads16!(14),
    pads16!(15),
];

/// Runs `f` `16 * depth` bytes deeper on the stack than the caller (`depth < 256`).
///
/// Some implementations are much slower (1.6x was seen for a 64-byte AES-GCM seal, and
/// libcrux's x4 SHAKE has two speeds) at some offsets of their stack frame relative to their
/// heap data modulo 4 KiB (a store to the stack and a later load from the heap that agree in
/// their low 12 address bits look dependent to the core: "4K aliasing"). Linux randomizes the
/// stack at a finer grain than a page, so one process can land on a slow offset and the next on
/// a fast one. Cycling every contestant through all 256 16-byte offsets of a page within each
/// run samples the same set of offsets in every run, whatever the random stack base, so the
/// medians, and the ratios, are the same from run to run.
fn at_depth(depth: u32, f: &mut dyn FnMut()) {
    let d = depth as usize % STACK_DEPTHS;
    PADS[d / 16][d % 16](f);
}

/// The raw rounds of one race, from one or more passes.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Contestant names, the reference first.
    pub names: Vec<String>,
    /// Their roles.
    pub roles: Vec<Role>,
    /// Iterations per batch (of the last pass).
    pub batch: Vec<u64>,
    /// `times[i][r]`: contestant `i`'s time per iteration in round `r` (ns).
    pub times: Vec<Vec<f64>>,
    /// Wall time spent measuring (s).
    pub secs: f64,
}

impl Samples {
    /// Adds the rounds of another pass over the same contestants.
    pub fn append(&mut self, other: Samples) {
        if self.names.is_empty() {
            *self = other;
            return;
        }
        assert_eq!(self.names, other.names, "a pass over other contestants");
        for (t, o) in self.times.iter_mut().zip(other.times) {
            t.extend(o);
        }
        self.batch = other.batch;
        self.secs += other.secs;
    }

    /// Rounds so far.
    pub fn rounds(&self) -> usize {
        self.times.first().map_or(0, Vec::len)
    }

    /// Per contestant: median and quartiles of its times and of its per-round ratios to the
    /// reference, and the bootstrap interval (`resamples` resamples, fixed seed) of the median
    /// ratio.
    pub fn summarize(&self, resamples: usize) -> RowResult {
        let mut rng = SplitMix64(0x7e55_e7a0_b0f5_eed5);
        let reference = &self.times[0];
        let out = (0..self.names.len())
            .map(|i| {
                let ratios: Vec<f64> = self.times[i]
                    .iter()
                    .zip(reference)
                    .map(|(t, r)| t / r)
                    .collect();
                let ci95 = if i == 0 {
                    (1.0, 1.0)
                } else {
                    bootstrap_median_ci(&ratios, resamples, &mut rng)
                };
                Measured {
                    name: self.names[i].clone(),
                    role: self.roles[i],
                    batch: self.batch[i],
                    time_ns: spread(&self.times[i]),
                    ratio: spread(&ratios),
                    ci95,
                    rounds: self.times[i].len(),
                }
            })
            .collect();
        RowResult {
            rounds: self.rounds(),
            secs: self.secs,
            contestants: out,
        }
    }
}

/// Measures one pass over a row: warm-up, calibration, then interleaved rounds for about
/// `cfg.row_ns`. `contestants[0]` must be the reference. `progress` is called now and then with
/// the share of rounds done.
pub fn measure(
    contestants: &mut [Contestant],
    cfg: &Config,
    mut progress: impl FnMut(f64),
) -> Samples {
    assert!(
        contestants
            .first()
            .is_some_and(|c| c.role == Role::Reference),
        "the first contestant of a row is the reference"
    );
    let start = Instant::now();
    let k = contestants.len();
    // Warm-up: each contestant runs for `warmup_ns` (twice, interleaved, so the caches and the
    // clock speed have settled for all of them), then its batch is calibrated.
    for _ in 0..2 {
        for c in contestants.iter_mut() {
            let (n, _) = calibrate(c, cfg.batch_ns, cfg.clock);
            let reps = (cfg.warmup_ns / 2.0 / cfg.batch_ns).ceil().max(1.0) as u64;
            for _ in 0..reps {
                run(c, n);
            }
        }
    }
    let (batch, per_iter): (Vec<u64>, Vec<f64>) = contestants
        .iter_mut()
        .map(|c| {
            let (n, t) = calibrate(c, cfg.batch_ns, cfg.clock);
            (c.fixed.unwrap_or(n), t)
        })
        .unzip();
    // A quarter batch of pre-roll, and at least ~20 µs: longer than the AVX power-up of the
    // cores that have one. One iteration for a fixed batch.
    let preroll: Vec<u64> = contestants
        .iter()
        .zip(batch.iter().zip(&per_iter))
        .map(|(c, (&b, &t))| match c.fixed {
            Some(_) => 1,
            None => (b / 4).max((20_000.0 / t).ceil() as u64).max(1),
        })
        .collect();
    let round_ns: f64 = (0..k)
        .map(|i| (batch[i] + preroll[i]) as f64 * per_iter[i])
        .sum();
    let rounds = ((cfg.row_ns / round_ns) as usize).clamp(cfg.min_rounds, cfg.max_rounds);
    // Whole sweeps of the stack offsets, so every offset has the same weight.
    let rounds = if rounds >= STACK_DEPTHS {
        rounds.div_ceil(STACK_DEPTHS) * STACK_DEPTHS
    } else {
        rounds
    };
    // On a loaded machine the rounds take longer in wall time than the calibration (on the
    // thread's CPU time) says: stop at twice the budget, once `min_rounds` are in.
    let deadline = start + Duration::from_secs_f64(2.0 * cfg.row_ns / 1e9);
    // And at four times the budget whatever the sweep (a row whose iterations slow down as it
    // runs, or a machine far busier than at calibration, must not hold the run for minutes).
    let hard_deadline = start + Duration::from_secs_f64(4.0 * cfg.row_ns / 1e9);

    // times[i][r]: contestant i's time per iteration in round r.
    let mut times: Vec<Vec<f64>> = (0..k).map(|_| Vec::with_capacity(rounds)).collect();
    let mut order: Vec<usize> = (0..k).collect();
    for r in 0..rounds {
        if r >= cfg.min_rounds {
            let now = Instant::now();
            if (r % STACK_DEPTHS == 0 && now > deadline) || now > hard_deadline {
                break;
            }
        }
        // Rotate by one each round; reverse the cycle every other time round.
        for (j, o) in order.iter_mut().enumerate() {
            *o = (j + r) % k;
        }
        if (r / k) % 2 == 1 {
            order.reverse();
        }
        for &i in &order {
            let c = &mut contestants[i];
            let (pre, n) = (preroll[i], batch[i]);
            let mut t = 0.0;
            // Each round at another stack offset (all 256 in turn), so that the row's medians
            // cover every offset within a page: see `at_depth`.
            let depth = ((r * 97 + i * 13) % STACK_DEPTHS) as u32;
            // Every contestant's batch of this round starts at input index `r` (`r * n` for a
            // fixed batch of `n`).
            let start = r as u64 * c.fixed.unwrap_or(1);
            at_depth(depth, &mut || {
                run_at(c, pre, start);
                t = cfg.clock.time(|| run_at(c, n, start));
            });
            times[i].push(t / n as f64);
        }
        if r % 64 == 63 {
            progress((r + 1) as f64 / rounds as f64);
        }
    }

    Samples {
        names: contestants.iter().map(|c| c.name.clone()).collect(),
        roles: contestants.iter().map(|c| c.role).collect(),
        batch,
        times,
        secs: start.elapsed().as_secs_f64(),
    }
}

/// Median and quartiles (linear interpolation between order statistics).
pub fn spread(xs: &[f64]) -> Spread {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    Spread {
        median: quantile_sorted(&v, 0.5),
        q1: quantile_sorted(&v, 0.25),
        q3: quantile_sorted(&v, 0.75),
    }
}

/// The `q` quantile of sorted `v` (linear interpolation; NaN when empty).
pub fn quantile_sorted(v: &[f64], q: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let pos = q * (v.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    v[lo] + (v[hi] - v[lo]) * (pos - lo as f64)
}

/// The median of `v`, reordering it.
fn median_in_place(v: &mut [f64]) -> f64 {
    let n = v.len();
    let mid = n / 2;
    let (_, m, _) = v.select_nth_unstable_by(mid, f64::total_cmp);
    let m = *m;
    if n % 2 == 1 {
        m
    } else {
        let lower = v[..mid].iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (lower + m) / 2.0
    }
}

/// 95% interval of the median of `xs` by a moving-block bootstrap: resamples of `xs.len()`
/// values made of blocks of consecutive rounds (length about the cube root of the count), so
/// that a slow stretch spanning a few rounds counts as one event, not as independent ones.
/// Percentile interval over `resamples` resamples; deterministic for a given `rng` state.
pub fn bootstrap_median_ci(xs: &[f64], resamples: usize, rng: &mut SplitMix64) -> (f64, f64) {
    let n = xs.len();
    if n < 2 || resamples == 0 {
        let m = spread(xs).median;
        return (m, m);
    }
    let block = ((n as f64).cbrt().round() as usize).clamp(1, n);
    let starts = n - block + 1;
    let mut sample = Vec::with_capacity(n + block);
    let mut medians = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        sample.clear();
        while sample.len() < n {
            let s = rng.below(starts as u64) as usize;
            sample.extend_from_slice(&xs[s..s + block]);
        }
        sample.truncate(n);
        medians.push(median_in_place(&mut sample));
    }
    medians.sort_by(f64::total_cmp);
    (
        quantile_sorted(&medians, 0.025),
        quantile_sorted(&medians, 0.975),
    )
}

/// SplitMix64: the fixed-seed generator of the bootstrap (deterministic reports) and of the
/// bench inputs.
pub use tessera_testkit::SplitMix64;

/// A heap buffer whose start is 64-byte aligned (glibc's `rep movsb` memcpy and the vector
/// loads are sensitive to the alignment, so every implementation gets the same one).
pub struct AlignedBuf {
    v: Vec<u8>,
    off: usize,
    len: usize,
}

impl AlignedBuf {
    /// `len` zero bytes.
    pub fn zeroed(len: usize) -> Self {
        let v = vec![0u8; len + 64];
        let off = v.as_ptr().align_offset(64);
        AlignedBuf { v, off, len }
    }

    /// A copy of `data`.
    pub fn from_slice(data: &[u8]) -> Self {
        let mut b = Self::zeroed(data.len());
        b.copy_from_slice(data);
        b
    }
}

impl std::ops::Deref for AlignedBuf {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.v[self.off..self.off + self.len]
    }
}

impl std::ops::DerefMut for AlignedBuf {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.v[self.off..self.off + self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles() {
        let s = spread(&[5.0, 1.0, 3.0, 2.0, 4.0]);
        assert_eq!((s.q1, s.median, s.q3), (2.0, 3.0, 4.0));
        let mut v = [4.0, 1.0, 3.0, 2.0];
        assert_eq!(median_in_place(&mut v), 2.5);
    }

    #[test]
    fn bootstrap_is_deterministic_and_brackets_the_median() {
        let mut g = SplitMix64(1);
        let xs: Vec<f64> = (0..500)
            .map(|_| 1.0 + (g.below(1000) as f64) / 1e4)
            .collect();
        let a = bootstrap_median_ci(&xs, 300, &mut SplitMix64(9));
        let b = bootstrap_median_ci(&xs, 300, &mut SplitMix64(9));
        assert_eq!(a, b);
        let m = spread(&xs).median;
        assert!(a.0 <= m && m <= a.1, "{a:?} {m}");
    }

    #[test]
    fn aligned() {
        let b = AlignedBuf::from_slice(&[1, 2, 3]);
        assert_eq!(b.as_ptr() as usize % 64, 0);
        assert_eq!(&*b, &[1, 2, 3]);
    }

    #[test]
    fn indexed_batches_start_where_asked() {
        use std::cell::RefCell;
        use std::rc::Rc;
        let seen = Rc::new(RefCell::new(Vec::new()));
        let s2 = Rc::clone(&seen);
        let mut c = Contestant::indexed("a", Role::Reference, move |i| s2.borrow_mut().push(i));
        run_at(&mut c, 3, 5);
        run(&mut c, 2);
        assert_eq!(*seen.borrow(), [5, 6, 7, 0, 1]);
    }

    #[test]
    fn fixed_batches_tile_the_inputs() {
        use std::cell::RefCell;
        use std::rc::Rc;
        let cfg = Config {
            batch_ns: 20_000.0,
            warmup_ns: 0.0,
            row_ns: 0.0,
            min_rounds: 3,
            max_rounds: 3,
            resamples: 10,
            clock: Clock::Wall,
        };
        let seen = Rc::new(RefCell::new(Vec::new()));
        let s2 = Rc::clone(&seen);
        let mut cs = vec![
            Contestant::indexed("a", Role::Reference, move |i| s2.borrow_mut().push(i))
                .fixed_batch(4),
        ];
        let samples = measure(&mut cs, &cfg, |_| {});
        assert_eq!(samples.batch, [4]);
        // The last 3 rounds: a one-iteration pre-roll at `4 r`, then the batch `4 r .. 4 r + 4`.
        let seen = seen.borrow();
        let tail = &seen[seen.len() - 15..];
        assert_eq!(tail, [0, 0, 1, 2, 3, 4, 4, 5, 6, 7, 8, 8, 9, 10, 11]);
    }

    #[test]
    fn measures_two_contestants() {
        let cfg = Config {
            batch_ns: 20_000.0,
            warmup_ns: 100_000.0,
            row_ns: 2e6,
            min_rounds: 8,
            max_rounds: 50,
            resamples: 50,
            clock: Clock::Wall,
        };
        let mut x = 0u64;
        let mut y = 0u64;
        let mut cs = vec![
            Contestant::new("a", Role::Reference, move || {
                x = black_box(x.wrapping_add(1))
            }),
            Contestant::new("b", Role::Peer, move || {
                for _ in 0..2 {
                    y = black_box(y.wrapping_add(1))
                }
            }),
        ];
        let mut all = Samples::default();
        all.append(measure(&mut cs, &cfg, |_| {}));
        all.append(measure(&mut cs, &cfg, |_| {}));
        let r = all.summarize(cfg.resamples);
        assert!(r.rounds >= 16);
        assert_eq!(r.contestants.len(), 2);
        assert_eq!(r.contestants[0].ratio.median, 1.0);
        assert!(r.contestants[1].ratio.median > 0.0);
    }
}
