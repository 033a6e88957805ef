//! Four SHAKE instances side by side on the backend's four-way Keccak permutation
//! ([`Unit::f1600_x4`], or the faster one of [`Unit::x4_keccak`] when the backend names one),
//! for the FIPS 203 samplers: SampleNTT's XOF (SHAKE128 of 34 bytes) and
//! PRF_eta (SHAKE256 of 33 bytes). Inputs are shorter than one block, so absorbing is one
//! XOR of the padded input; output comes block by block, each block permuting first (so no
//! permutation runs for a block nobody reads). Built here on `tessera_keccak::x4` so that the
//! permutation compiles into the caller's island (tessera-keccak's `Shake128x4` dispatches on
//! its own backend per block).
#![forbid(unsafe_code)]

use tessera_keccak::X4Backend;
use zeroize::Zeroize;

use crate::unit::Unit;

/// SHAKE domain and padding first byte.
const SHAKE_DS: u64 = 0x1F;

/// Four sponges after absorbing, ready to squeeze.
pub(crate) struct X4<U: Unit> {
    state: [[u64; 4]; 25],
    rate: usize,
    t: U::Token,
    /// [`Unit::x4_keccak`], decided when the XOF is created.
    keccak: Option<X4Backend>,
}

impl<U: Unit> Drop for X4<U> {
    fn drop(&mut self) {
        for l in self.state.iter_mut() {
            l.zeroize();
        }
    }
}

impl<U: Unit> X4<U> {
    /// Absorbs one input per way (each shorter than `rate`; SHAKE padding). The permutation
    /// that ends absorbing runs in the first [`Self::squeeze_block`].
    #[inline(always)]
    pub(crate) fn absorb(t: U::Token, rate: usize, inputs: [&[u8]; 4]) -> Self {
        let mut state = [[0u64; 4]; 25];
        for (w, inp) in inputs.iter().enumerate() {
            debug_assert!(inp.len() < rate);
            for (i, &b) in inp.iter().enumerate() {
                state[i >> 3][w] ^= u64::from(b) << (8 * (i & 7));
            }
            let n = inp.len();
            state[n >> 3][w] ^= SHAKE_DS << (8 * (n & 7));
            state[(rate - 1) >> 3][w] ^= 0x80u64 << (8 * ((rate - 1) & 7));
        }
        X4 {
            state,
            rate,
            t,
            keccak: U::x4_keccak(t),
        }
    }

    /// Permutes, then writes the next `rate` bytes of every way into `outs[w][..rate]`.
    #[inline(always)]
    pub(crate) fn squeeze_block(&mut self, outs: [&mut [u8]; 4]) {
        match self.keccak {
            Some(k) => k.f1600_x4(&mut self.state),
            None => U::f1600_x4(self.t, &mut self.state),
        }
        for (w, out) in outs.into_iter().enumerate() {
            for (c, lane) in out[..self.rate].chunks_exact_mut(8).zip(self.state.iter()) {
                c.copy_from_slice(&lane[w].to_le_bytes());
            }
        }
    }
}
