//! Welch's t-test on the two classes' cycle counts, uncropped and cropped at pooled
//! percentiles (dudect's preprocessing).

/// Running mean and variance (Welford's algorithm: no catastrophic cancellation on large
/// cycle counts).
#[derive(Clone, Copy, Debug, Default)]
pub struct Welford {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Welford {
    /// Adds one value.
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    /// How many values were added.
    pub fn n(&self) -> u64 {
        self.n
    }

    /// Their mean.
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// Their sample variance (0 below two values).
    pub fn var(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.m2 / (self.n - 1) as f64
        }
    }
}

/// Welch's t statistic of `a` against `b`: `(mean_a - mean_b) / sqrt(var_a/n_a + var_b/n_b)`.
/// Zero when either side has fewer than two values or both variances are zero.
pub fn welch_t(a: &Welford, b: &Welford) -> f64 {
    if a.n < 2 || b.n < 2 {
        return 0.0;
    }
    let se = (a.var() / a.n as f64 + b.var() / b.n as f64).sqrt();
    if se == 0.0 {
        return 0.0;
    }
    (a.mean - b.mean) / se
}

/// The value at quantile `q` (0 to 1) of `sorted` (nearest rank; `sorted` non-empty).
pub fn quantile(sorted: &[u64], q: f64) -> u64 {
    let i = ((sorted.len() - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize;
    sorted[i]
}

/// The pooled percentiles at which the measurements are cropped (values above are dropped)
/// before a t-test, besides the uncropped test. dudect spreads its crops as
/// `1 - 0.5^(10 (k + 1) / 100)`; these are a few points of that range: the body of the
/// distribution (where a leak of a few cycles stands out of little noise) up to almost all of
/// it.
pub const CROPS: [f64; 6] = [0.5, 0.75, 0.9, 0.95, 0.99, 0.999];

/// The fewest measurements of each class a test needs to be counted.
pub const MIN_PER_CLASS: u64 = 1000;

/// One t-test of the two classes.
#[derive(Clone, Debug)]
pub struct TTest {
    /// `all` or the crop (`p50`, ..., `p99.9`).
    pub label: String,
    /// The cycle count above which measurements were dropped (`u64::MAX` for `all`).
    pub cutoff: u64,
    /// Measurements of class 0 (fixed) and class 1 (random) kept.
    pub n: [u64; 2],
    /// Class means, in cycles.
    pub mean: [f64; 2],
    /// Welch's t of class 0 against class 1.
    pub t: f64,
}

/// The t-tests of `samples` (class 0 or 1, cycles): uncropped, then one per [`CROPS`] entry
/// (cut at that pooled percentile). Tests with fewer than [`MIN_PER_CLASS`] measurements of a
/// class are left out.
pub fn analyse(samples: &[(u8, u64)]) -> Vec<TTest> {
    if samples.is_empty() {
        return Vec::new();
    }
    let mut sorted: Vec<u64> = samples.iter().map(|&(_, c)| c).collect();
    sorted.sort_unstable();
    let cuts = core::iter::once(("all".to_string(), u64::MAX)).chain(CROPS.iter().map(|&q| {
        let label = format!("p{}", q * 100.0);
        (label, quantile(&sorted, q))
    }));
    let mut out = Vec::new();
    for (label, cutoff) in cuts {
        let mut w = [Welford::default(); 2];
        for &(class, cycles) in samples {
            if cycles <= cutoff {
                w[usize::from(class & 1)].push(cycles as f64);
            }
        }
        if w[0].n() < MIN_PER_CLASS || w[1].n() < MIN_PER_CLASS {
            continue;
        }
        out.push(TTest {
            label,
            cutoff,
            n: [w[0].n(), w[1].n()],
            mean: [w[0].mean(), w[1].mean()],
            t: welch_t(&w[0], &w[1]),
        });
    }
    out
}

/// The test with the largest |t| (`None` when there is none).
pub fn max_abs(tests: &[TTest]) -> Option<&TTest> {
    tests.iter().max_by(|a, b| a.t.abs().total_cmp(&b.t.abs()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn welford_matches_two_pass() {
        let xs = [3.0, 7.0, 7.0, 19.0, 1e9, 1e9 + 1.0];
        let mut w = Welford::default();
        xs.iter().for_each(|&x| w.push(x));
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (xs.len() - 1) as f64;
        assert!((w.mean() - mean).abs() < 1e-6);
        assert!((w.var() - var).abs() / var < 1e-12);
    }

    /// A textbook case: means 10 and 12, variances 4 and 9, 50 and 30 values give
    /// t = -2 / sqrt(4/50 + 9/30) = -3.244.
    #[test]
    fn welch_t_value() {
        let a = Welford {
            n: 50,
            mean: 10.0,
            m2: 4.0 * 49.0,
        };
        let b = Welford {
            n: 30,
            mean: 12.0,
            m2: 9.0 * 29.0,
        };
        let t = welch_t(&a, &b);
        assert!((t + 3.2444).abs() < 1e-3, "{t}");
        assert_eq!(welch_t(&a, &Welford::default()), 0.0);
    }

    /// Noisy synthetic cycle counts (a body plus rare large outliers): equal classes stay far
    /// below the threshold, a shift of 2 cycles is flagged, and only once the crops remove the
    /// outliers' variance.
    #[test]
    fn analyse_flags_a_small_shift_under_outliers() {
        let sample = |rng: &mut Rng, shift: u64| {
            let body = 1000 + rng.next_u64() % 16 + shift;
            if rng.next_u64().is_multiple_of(100) {
                body + 50_000 + rng.next_u64() % 100_000
            } else {
                body
            }
        };
        let mut rng = Rng::new(42);
        let make = |rng: &mut Rng, shift: u64| -> Vec<(u8, u64)> {
            (0..40_000)
                .map(|_| {
                    let class = u8::from(rng.bit());
                    let s = if class == 0 { shift } else { 0 };
                    (class, sample(rng, s))
                })
                .collect()
        };
        let same = analyse(&make(&mut rng, 0));
        assert_eq!(same.len(), 1 + CROPS.len());
        let m = max_abs(&same).unwrap();
        assert!(m.t.abs() < 6.0, "equal classes: {m:?}");

        let shifted = analyse(&make(&mut rng, 2));
        let all = &shifted[0];
        assert_eq!(all.label, "all");
        assert!(all.t.abs() < crate::THRESHOLD, "uncropped: {all:?}");
        let m = max_abs(&shifted).unwrap();
        assert!(m.t > crate::THRESHOLD, "cropped: {m:?}");
    }

    #[test]
    fn quantile_nearest_rank() {
        let v: Vec<u64> = (0..=100).collect();
        assert_eq!(quantile(&v, 0.5), 50);
        assert_eq!(quantile(&v, 0.999), 100);
        assert_eq!(quantile(&v, 0.0), 0);
    }
}
