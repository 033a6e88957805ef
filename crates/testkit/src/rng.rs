//! SplitMix64 (Steele, Lea and Flood 2014): a small deterministic generator for bench inputs,
//! the benches' bootstrap and the dudect class sequences (statistical quality is all that is
//! needed there, not unpredictability).

/// SplitMix64 with its state in the open (`SplitMix64(seed)`).
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`; the modulo bias is negligible for the small `n` used here).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Fills `out` with random bytes.
    pub fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let b = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&b[..chunk.len()]);
        }
    }

    /// A random bit.
    pub fn bit(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference output of SplitMix64 from seed 1234567 (the algorithm's published C code).
    #[test]
    fn splitmix64_reference() {
        let mut r = SplitMix64::new(1234567);
        assert_eq!(r.next_u64(), 6457827717110365317);
        assert_eq!(r.next_u64(), 3203168211198807973);
    }

    #[test]
    fn fill_covers_odd_lengths() {
        let mut a = SplitMix64::new(5);
        let mut b = SplitMix64::new(5);
        let mut x = [0u8; 13];
        a.fill(&mut x);
        let w0 = b.next_u64().to_le_bytes();
        let w1 = b.next_u64().to_le_bytes();
        assert_eq!(x[..8], w0);
        assert_eq!(x[8..], w1[..5]);
    }
}

/// A `rand_core` 0.10 `TryCryptoRng` that hands out `left` bytes of `7` and then fails with
/// [`RngDown`] (a request larger than what is left fails whole; `next_u32`/`next_u64` always
/// fail). For the tests that a generator's error comes back as a typed error, never a panic.
#[derive(Clone, Debug)]
pub struct FailingRng {
    /// Bytes still served before the generator fails.
    pub left: usize,
}

impl FailingRng {
    /// A generator that serves `left` bytes, then fails.
    pub fn after(left: usize) -> Self {
        FailingRng { left }
    }
}

/// The error of [`FailingRng`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RngDown;

impl core::fmt::Display for RngDown {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("rng down")
    }
}

impl core::error::Error for RngDown {}

impl rand_core::TryRng for FailingRng {
    type Error = RngDown;
    fn try_next_u32(&mut self) -> Result<u32, RngDown> {
        Err(RngDown)
    }
    fn try_next_u64(&mut self) -> Result<u64, RngDown> {
        Err(RngDown)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), RngDown> {
        if dst.len() > self.left {
            return Err(RngDown);
        }
        self.left -= dst.len();
        dst.fill(7);
        Ok(())
    }
}

impl rand_core::TryCryptoRng for FailingRng {}
