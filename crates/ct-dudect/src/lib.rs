//! Statistical constant-time tests (dudect, Reparaz, Balasch and Verbauwhede, "Dude, is my code
//! constant time?", DATE 2017) of the Tessera backends that valgrind cannot execute: AVX-512
//! (ChaCha20-Poly1305 `x86_avx512`), AVX-512 IFMA (X25519 and ChaCha20-Poly1305
//! `x86_avx512_ifma`), VAES on 512-bit vectors (AES-GCM `x86_vaes512`), and ML-KEM
//! decapsulation on its best backend (`x86_avx2`, whose Keccak x4 runs on AVX-512 where the CPU
//! has it).
//!
//! # Method
//!
//! Each target is one secret-handling operation with two input classes: a fixed secret (all
//! zeros, or valid ciphertexts against random ones for ML-KEM's rejection) and fresh random
//! secrets. For every measurement the class is drawn at random ([`harness::measure`]), the
//! input is loaded untimed ([`harness::Target::prepare`]: the same instructions over the same
//! memory for both classes, [`harness::blend`], so that caches, TLB, store buffer and
//! predictors are left alike), and the one call is timed with the time-stamp counter between
//! fences ([`timer`]). The cycle counts of the two classes are compared with Welch's t-test, on
//! all measurements and after cropping at several pooled percentiles (the long upper tail is
//! interrupts and preemptions, which dominate the variance; [`stats::analyse`]), as dudect
//! does.
//!
//! # Verdict
//!
//! A target fails when the largest |t| exceeds [`THRESHOLD`] (10, dudect's "definitely not
//! constant time") in a first run and again in a second run on fresh measurements (another
//! seed). With the classes interleaved at random, t is close to standard normal without a leak
//! at these sample sizes whatever the noise does over time (|t| > 10 by chance: below 1e-20 per
//! test); the margin is for what is not chance, a burst of contention on the shared cores that
//! happens to last through a run. What did cross it without a leak was the harness itself: a
//! preparation that touched 2 KiB more for one class before the timed call made that class a few
//! cycles slower (|t| 15 to 40), hence the fence before the start and the blended inputs.
//!
//! Sensitivity: the second negative control (below) adds an early exit worth about 60 cycles to
//! an X25519 call of about 42,000 and reaches |t| about 200 (the crops remove most of the
//! noise), so a secret-dependent difference of a few cycles on the targets here would cross the
//! threshold.
//!
//! Every run first measures a deliberately leaky operation, an early-exit comparison of a
//! secret with a public value ([`harness::QuickControl`]), which must exceed the threshold: a
//! harness that cannot see that leak (a broken or constant timer) fails the run instead of
//! passing it. The `control` target is a second negative control of a target's size: the X25519
//! ladder followed by a short secret-dependent loop ([`targets::LeakyX25519`]), which the
//! harness must also flag.
//!
//! The example `dudect` (`cargo xtask test` runs each target as a leg of its own):
//!
//! ```sh
//! cargo build --release -p tessera-ct-dudect --example dudect
//! target/release/examples/dudect list
//! target/release/examples/dudect x25519:x86_avx512_ifma   # exit 0 pass, 1 leak, 2 backend absent
//! target/release/examples/dudect control                  # exit 0 when the leak is flagged
//! ```
//!
//! Timing is never asserted elsewhere in the workspace (speed is for benches); these tests
//! assert only that two classes of secrets take the same time.

pub mod harness;
pub mod rng;
pub mod stats;
#[cfg(target_arch = "x86_64")]
pub mod targets;
pub mod timer;

/// The |t| above which a target is reported as leaking (dudect's "definitely not constant
/// time"), and which the negative controls must exceed.
pub const THRESHOLD: f64 = 10.0;
