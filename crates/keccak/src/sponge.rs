//! The sponge construction (FIPS 202 section 4) over Keccak-p\[1600\], with byte-granular
//! absorbing and squeezing so any chunking of input and output gives the same result.
#![forbid(unsafe_code)]

use crate::backend::X1Backend;
use zeroize::Zeroize;

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

    pub(crate) fn reset(&mut self) {
        self.state = [0; 25];
        self.pos = 0;
    }

    pub(crate) fn absorb(&mut self, mut data: &[u8]) {
        // Finish a partial block byte by byte.
        while self.pos != 0 && !data.is_empty() {
            xor_byte(&mut self.state, self.pos, data[0]);
            data = &data[1..];
            self.pos += 1;
            if self.pos == self.rate {
                self.backend.permute(&mut self.state, self.rounds);
                self.pos = 0;
            }
        }
        // Whole blocks, a lane at a time.
        let done = self
            .backend
            .absorb_blocks(&mut self.state, data, self.rate, self.rounds);
        data = &data[done..];
        while data.len() >= self.rate {
            let (block, rest) = data.split_at(self.rate);
            for (l, c) in self.state.iter_mut().zip(block.chunks_exact(8)) {
                *l ^= u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
            }
            self.backend.permute(&mut self.state, self.rounds);
            data = rest;
        }
        for &b in data {
            xor_byte(&mut self.state, self.pos, b);
            self.pos += 1;
        }
    }

    /// Appends the domain-separation bits `ds` (which include the first padding bit) and the
    /// final padding bit, then permutes: pad10*1 of FIPS 202 section 5.1.
    pub(crate) fn pad(&mut self, ds: u8) {
        xor_byte(&mut self.state, self.pos, ds);
        xor_byte(&mut self.state, self.rate - 1, 0x80);
        self.backend.permute(&mut self.state, self.rounds);
        self.pos = 0;
    }

    /// Squeezes after [`Sponge::pad`]; `pos` counts bytes already read from the current block.
    pub(crate) fn squeeze(&mut self, out: &mut [u8]) {
        for o in out {
            if self.pos == self.rate {
                self.backend.permute(&mut self.state, self.rounds);
                self.pos = 0;
            }
            *o = (self.state[self.pos / 8] >> (8 * (self.pos % 8))) as u8;
            self.pos += 1;
        }
    }
}
