//! Four SHAKE instances side by side on tessera-keccak's four-way permutation
//! ([`X4Backend::f1600_x4`], the backend picked once when the ML-DSA backend is), for the FIPS
//! 204 samplers: ExpandA's SHAKE128 of 34 bytes, ExpandS's and ExpandMask's SHAKE256 of 66
//! bytes. Inputs are shorter than one block, so absorbing is one XOR of the padded input;
//! output comes block by block, each block permuting first (so no permutation runs for a block
//! nobody reads). tessera-keccak's multi-state SHAKE permutes when squeezing starts and again
//! after each block it hands out (one permutation more than the blocks read), which the
//! samplers, stopping as soon as their polynomials are full, would pay on every call; hence
//! this thin layer over the public four-way permutation instead.
#![forbid(unsafe_code)]

use tessera_keccak::X4Backend;
use zeroize::Zeroize;

/// SHAKE domain and padding first byte.
const SHAKE_DS: u64 = 0x1F;

/// Four sponges after absorbing, ready to squeeze. The state is wiped on drop (ExpandS and
/// ExpandMask absorb secret seeds).
pub(crate) struct X4 {
    state: [[u64; 4]; 25],
    rate: usize,
    keccak: X4Backend,
}

impl Drop for X4 {
    fn drop(&mut self) {
        for l in self.state.iter_mut() {
            l.zeroize();
        }
    }
}

impl X4 {
    /// Absorbs one input per way (each shorter than `rate`; SHAKE padding). The permutation
    /// that ends absorbing runs in the first [`Self::squeeze`].
    #[inline(always)]
    pub(crate) fn absorb(keccak: X4Backend, rate: usize, inputs: [&[u8]; 4]) -> Self {
        let mut state = [[0u64; 4]; 25];
        for (w, inp) in inputs.iter().enumerate() {
            debug_assert!(inp.len() < rate);
            // Whole lanes at once, the tail gathered in a register (a byte-wise XOR into
            // the state chains each byte's load on the previous byte's store).
            let n = inp.len();
            let full = n >> 3;
            for (lane, c) in state.iter_mut().zip(inp.chunks_exact(8)) {
                let mut b = [0u8; 8];
                b.copy_from_slice(c);
                lane[w] ^= u64::from_le_bytes(b);
            }
            let mut last = 0u64;
            for (k, &b) in inp[full << 3..].iter().enumerate() {
                last |= u64::from(b) << (8 * k);
            }
            state[full][w] ^= last;
            state[n >> 3][w] ^= SHAKE_DS << (8 * (n & 7));
            state[(rate - 1) >> 3][w] ^= 0x80u64 << (8 * ((rate - 1) & 7));
        }
        X4 {
            state,
            rate,
            keccak,
        }
    }

    /// Squeezes the next `outs[0].len()` bytes of every way (all outputs of one length, a
    /// multiple of the rate), one permutation of the four states per block.
    #[inline(always)]
    pub(crate) fn squeeze(&mut self, mut outs: [&mut [u8]; 4]) {
        let n = outs[0].len();
        debug_assert!(outs.iter().all(|o| o.len() == n) && n.is_multiple_of(self.rate));
        let mut off = 0;
        while off < n {
            self.keccak.f1600_x4(&mut self.state);
            for (w, out) in outs.iter_mut().enumerate() {
                let block = &mut out[off..off + self.rate];
                for (c, lane) in block.chunks_exact_mut(8).zip(self.state.iter()) {
                    c.copy_from_slice(&lane[w].to_le_bytes());
                }
            }
            off += self.rate;
        }
    }
}
