//! The deterministic generator of the class sequence and the random-class inputs: testkit's
//! SplitMix64 (statistical quality is all that is needed here, not unpredictability).

pub use tessera_testkit::SplitMix64 as Rng;
