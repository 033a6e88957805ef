//! The sponge construction (FIPS 202 section 4) over Keccak-p\[1600\], with byte-granular
//! absorbing and squeezing so any chunking of input and output gives the same result.
#![forbid(unsafe_code)]

use crate::backend::X1Backend;
use crate::perm::{X1Op, X1Perm};
use zeroize::Zeroize;

/// Keccak-p\[1600, rounds\] on one state (an [`X1Op`]).
struct Permute<'a> {
    state: &'a mut [u64; 25],
    rounds: usize,
}

impl X1Op for Permute<'_> {
    type Out = ();
    #[inline(always)]
    fn run<P: X1Perm>(self, t: P::Token) {
        P::permute(t, self.state, self.rounds)
    }
}

/// Every whole block of `data` absorbed in one backend call: the backend's register-resident
/// loop where it has one for this rate, then XOR and permute per block inside the same island
/// for the rest; returns the bytes consumed (all the whole blocks; an [`X1Op`]).
struct AbsorbBlocks<'a> {
    state: &'a mut [u64; 25],
    data: &'a [u8],
    rate: usize,
    rounds: usize,
}

impl X1Op for AbsorbBlocks<'_> {
    type Out = usize;
    #[inline(always)]
    fn run<P: X1Perm>(self, t: P::Token) -> usize {
        let done = P::absorb_blocks(t, self.state, self.data, self.rate, self.rounds);
        let mut rest = self.data[done..].chunks_exact(self.rate);
        for block in &mut rest {
            for (l, c) in self.state.iter_mut().zip(block.chunks_exact(8)) {
                *l ^= u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
            }
            P::permute(t, self.state, self.rounds);
        }
        self.data.len() - rest.remainder().len()
    }
}

#[derive(Clone)]
pub(crate) struct Sponge {
    state: [u64; 25],
    /// Byte offset within the current rate block.
    pos: usize,
    rate: usize,
    rounds: usize,
    backend: X1Backend,
}

impl Drop for Sponge {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

#[inline(always)]
fn xor_byte(state: &mut [u64; 25], i: usize, b: u8) {
    state[i / 8] ^= u64::from(b) << (8 * (i % 8));
}

impl Sponge {
    /// A fresh sponge on `backend` (decided once, by the caller, when the hasher is created).
    pub(crate) fn new(rate: usize, rounds: usize, backend: X1Backend) -> Self {
        Sponge {
            state: [0; 25],
            pos: 0,
            rate,
            rounds,
            backend,
        }
    }

    /// The lanes, for a caller that serializes a state at a block boundary (`pos == 0`).
    #[cfg(feature = "digest")]
    pub(crate) fn lanes(&self) -> &[u64; 25] {
        debug_assert_eq!(self.pos, 0);
        &self.state
    }

    /// Sets the lanes of a sponge at a block boundary (the inverse of [`Sponge::lanes`]).
    #[cfg(feature = "digest")]
    pub(crate) fn set_lanes(&mut self, lanes: &[u64; 25]) {
        self.state = *lanes;
        self.pos = 0;
    }

    pub(crate) fn reset(&mut self) {
        self.state = [0; 25];
        self.pos = 0;
    }

    pub(crate) fn absorb(&mut self, mut data: &[u8]) {
        // Up to a lane boundary, byte by byte.
        while !self.pos.is_multiple_of(8) && !data.is_empty() {
            xor_byte(&mut self.state, self.pos, data[0]);
            data = &data[1..];
            self.pos += 1;
            if self.pos == self.rate {
                self.permute();
            }
        }
        // The rest of a partial block, a lane at a time (rates are whole lanes).
        if self.pos != 0 {
            self.xor_lanes(&mut data);
            if self.pos == self.rate {
                self.permute();
            }
        }
        if self.pos == 0 {
            // Whole blocks: one backend call (its block loop, else XOR and permute per block
            // in the same island).
            if data.len() >= self.rate {
                let done = self.backend.run(AbsorbBlocks {
                    state: &mut self.state,
                    data,
                    rate: self.rate,
                    rounds: self.rounds,
                });
                data = &data[done..];
            }
            // A final partial block (fewer than `rate` bytes: `pos` stays below `rate`).
            self.xor_lanes(&mut data);
        }
        // Fewer than 8 bytes, at a lane boundary below `rate`.
        for &b in data {
            xor_byte(&mut self.state, self.pos, b);
            self.pos += 1;
        }
    }

    /// XORs whole lanes of `data` into the state from `pos` (a lane boundary) up to the end
    /// of the block or of the whole lanes in `data`, advancing both.
    #[inline(always)]
    fn xor_lanes(&mut self, data: &mut &[u8]) {
        let lanes = ((self.rate - self.pos) / 8).min(data.len() / 8);
        let (head, rest) = data.split_at(8 * lanes);
        for (l, c) in self.state[self.pos / 8..]
            .iter_mut()
            .zip(head.chunks_exact(8))
        {
            *l ^= u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
        }
        self.pos += 8 * lanes;
        *data = rest;
    }

    #[inline(always)]
    fn permute(&mut self) {
        self.backend.run(Permute {
            state: &mut self.state,
            rounds: self.rounds,
        });
        self.pos = 0;
    }

    /// Appends the domain-separation bits `ds` (which include the first padding bit) and the
    /// final padding bit, then permutes: pad10*1 of FIPS 202 section 5.1.
    pub(crate) fn pad(&mut self, ds: u8) {
        xor_byte(&mut self.state, self.pos, ds);
        xor_byte(&mut self.state, self.rate - 1, 0x80);
        self.permute();
    }

    /// Squeezes after [`Sponge::pad`]; `pos` counts bytes already read from the current block.
    pub(crate) fn squeeze(&mut self, mut out: &mut [u8]) {
        while !out.is_empty() {
            if self.pos == self.rate {
                self.permute();
            }
            if self.pos.is_multiple_of(8) && out.len() >= 8 {
                // Whole lanes up to the end of the block or of `out`.
                let lanes = ((self.rate - self.pos) / 8).min(out.len() / 8);
                let (head, rest) = core::mem::take(&mut out).split_at_mut(8 * lanes);
                for (o, l) in head.chunks_exact_mut(8).zip(&self.state[self.pos / 8..]) {
                    o.copy_from_slice(&l.to_le_bytes());
                }
                self.pos += 8 * lanes;
                out = rest;
            } else {
                out[0] = (self.state[self.pos / 8] >> (8 * (self.pos % 8))) as u8;
                self.pos += 1;
                out = &mut core::mem::take(&mut out)[1..];
            }
        }
    }
}

/// The whole-block operation on a permutation without a block loop (as `aarch64_sha3`'s
/// single-state row is) against the portable row's block loop: the in-island fallback loop
/// absorbs every block.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::portable::PortableX1;

    /// The reference permutation, without `absorb_blocks` (the trait's default: 0 bytes).
    struct NoLoop;
    impl X1Perm for NoLoop {
        type Token = tessera_cpu::Portable;
        fn permute(_: tessera_cpu::Portable, state: &mut [u64; 25], rounds: usize) {
            crate::keccak::keccak_p(state, rounds);
        }
    }

    #[test]
    fn absorb_blocks_fallback_matches_block_loop() {
        let data: [u8; 3 * 168 + 9] = core::array::from_fn(|i| (i as u8).wrapping_mul(83) ^ 0x3C);
        for (rate, rounds) in [(168, 24), (136, 12), (72, 24)] {
            let mut a = [5u64; 25];
            let mut b = a;
            let op = |state| AbsorbBlocks {
                state,
                data: &data,
                rate,
                rounds,
            };
            let na = op(&mut a).run::<NoLoop>(tessera_cpu::Portable);
            let nb = op(&mut b).run::<PortableX1>(tessera_cpu::Portable);
            assert_eq!(na, data.len() / rate * rate);
            assert_eq!(na, nb);
            assert_eq!(a, b, "rate {rate}");
        }
    }
}
