//! Multi-way SHAKE: N independent sponges absorbed and squeezed together, for lattice sampling.
//! The backend is chosen when the state is created.
#![forbid(unsafe_code)]

use crate::backend::X4Backend;
use crate::error::Error;
use crate::x4::{AbsorbX4, PermuteX4};
use zeroize::Zeroize;

/// Four interleaved states plus the backend that permutes them.
#[derive(Clone)]
struct X4 {
    state: [[u64; 4]; 25],
    rate: usize,
    /// Ways in use (2 or 4); the backend may skip the idle ones.
    ways: usize,
    backend: X4Backend,
}

impl Drop for X4 {
    fn drop(&mut self) {
        for l in self.state.iter_mut() {
            l.zeroize();
        }
    }
}

impl X4 {
    fn absorb_all(
        backend: X4Backend,
        rate: usize,
        inputs: &[&[u8]],
        ds: u8,
    ) -> Result<Self, Error> {
        let n = inputs.first().map_or(0, |i| i.len());
        if inputs.iter().any(|i| i.len() != n) {
            return Err(Error::LengthMismatch);
        }
        let mut s = X4 {
            state: [[0; 4]; 25],
            rate,
            ways: inputs.len(),
            backend,
        };
        // Whole blocks of four inputs (of one length, checked above) in the backend's own loop
        // where it has one, the rest below.
        let mut off = match *inputs {
            [a, b, c, d] => s.backend.run(AbsorbX4 {
                state: &mut s.state,
                inputs: [a, b, c, d],
                rate,
            }),
            _ => 0,
        };
        loop {
            let take = (n - off).min(rate);
            for (w, inp) in inputs.iter().enumerate() {
                let block = &inp[off..off + take];
                let mut lanes = block.chunks_exact(8);
                for (l, c) in s.state.iter_mut().zip(&mut lanes) {
                    l[w] ^= u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
                }
                let tail = lanes.remainder();
                let base = take - tail.len();
                for (i, &b) in tail.iter().enumerate() {
                    s.state[(base + i) / 8][w] ^= u64::from(b) << (8 * ((base + i) % 8));
                }
            }
            off += take;
            if take < rate {
                // Final (possibly empty) partial block: pad10*1 with domain bits.
                for w in 0..inputs.len() {
                    s.state[take / 8][w] ^= u64::from(ds) << (8 * (take % 8));
                    s.state[(rate - 1) / 8][w] ^= 0x80u64 << (8 * ((rate - 1) % 8));
                }
                s.permute();
                return Ok(s);
            }
            s.permute();
        }
    }

    fn squeeze_blocks(&mut self, outs: &mut [&mut [u8]]) -> Result<(), Error> {
        let n = outs.first().map_or(0, |o| o.len());
        if outs.iter().any(|o| o.len() != n) {
            return Err(Error::LengthMismatch);
        }
        if !n.is_multiple_of(self.rate) {
            return Err(Error::NotBlockMultiple);
        }
        for blk in 0..n / self.rate {
            for (w, out) in outs.iter_mut().enumerate() {
                let dst = &mut out[blk * self.rate..(blk + 1) * self.rate];
                for (c, lane) in dst.chunks_exact_mut(8).zip(self.state.iter()) {
                    c.copy_from_slice(&lane[w].to_le_bytes());
                }
            }
            self.permute();
        }
        Ok(())
    }

    /// Keccak-f\[1600\] on the ways in use.
    #[inline]
    fn permute(&mut self) {
        self.backend.run(PermuteX4 {
            state: &mut self.state,
            rounds: 24,
            ways: self.ways,
        })
    }
}

macro_rules! multi {
    ($(#[$doc:meta])* $name:ident, $ways:literal, $rate:expr) => {
        $(#[$doc])*
        ///
        /// Output comes in whole blocks of [`Self::RATE`] bytes per way
        /// ([`Self::squeeze_blocks`]): the ways are squeezed together, one permutation of all
        /// states per block, so there is no per-way read position to keep and no partial block
        /// to buffer. The lattice samplers this is for (FIPS 203 `SampleNTT`, FIPS 204
        /// `RejNTTPoly`/`RejBoundedPoly`) consume SHAKE output block by block anyway. For
        /// byte-granular output use the single-state XOFs.
        #[derive(Clone)]
        pub struct $name(X4);

        /// Names the type and never prints the states (which are secret-derived).
        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name)).finish_non_exhaustive()
            }
        }

        impl $name {
            /// Bytes per squeezed block.
            pub const RATE: usize = $rate;

            /// Absorbs one input per way (all of the same length) with the best backend.
            pub fn new(inputs: [&[u8]; $ways]) -> Result<Self, Error> {
                Self::new_with_backend(X4Backend::detect(), inputs)
            }

            /// As [`Self::new`] with an explicit backend (tests and benches).
            #[doc(hidden)]
            pub fn new_with_backend(backend: X4Backend, inputs: [&[u8]; $ways]) -> Result<Self, Error> {
                X4::absorb_all(backend, $rate, &inputs, 0x1F).map(Self)
            }

            /// Squeezes whole blocks into each output; all outputs must have the same length,
            /// a multiple of [`Self::RATE`]. On error nothing is written.
            pub fn squeeze_blocks(&mut self, outs: [&mut [u8]; $ways]) -> Result<(), Error> {
                let mut outs = outs;
                self.0.squeeze_blocks(&mut outs)
            }
        }
    };
}

multi!(
    /// SHAKE128 on four inputs at once.
    ///
    /// ```
    /// let mut x = tessera_keccak::Shake128x4::new([b"a", b"b", b"c", b"d"]).unwrap();
    /// let mut o = [[0u8; 168]; 4];
    /// let [o0, o1, o2, o3] = &mut o;
    /// x.squeeze_blocks([o0, o1, o2, o3]).unwrap();
    /// let mut one = [0u8; 168];
    /// tessera_keccak::shake128(b"c", &mut one);
    /// assert_eq!(o[2], one);
    /// ```
    Shake128x4, 4, 168);
multi!(
    /// SHAKE256 on four inputs at once.
    ///
    /// Way `w` gives exactly the SHAKE256 output of input `w`, block after block:
    ///
    /// ```
    /// use tessera_keccak::{shake256, Shake256x4};
    ///
    /// let ins: [&[u8]; 4] = [&[0; 200], &[1; 200], &[2; 200], &[3; 200]];
    /// let mut x = Shake256x4::new(ins)?;
    /// let mut o = [[0u8; 2 * Shake256x4::RATE]; 4];
    /// let [o0, o1, o2, o3] = &mut o;
    /// x.squeeze_blocks([&mut o0[..136], &mut o1[..136], &mut o2[..136], &mut o3[..136]])?;
    /// x.squeeze_blocks([&mut o0[136..], &mut o1[136..], &mut o2[136..], &mut o3[136..]])?;
    /// for w in 0..4 {
    ///     let mut one = [0u8; 272];
    ///     shake256(ins[w], &mut one);
    ///     assert_eq!(o[w], one);
    /// }
    /// # Ok::<(), tessera_keccak::Error>(())
    /// ```
    Shake256x4, 4, 136);
multi!(
    /// SHAKE128 on two inputs at once (the four-way state with two ways idle, which the backend may skip).
    ///
    /// ```
    /// use tessera_keccak::{shake128, Error, Shake128x2};
    ///
    /// let mut x = Shake128x2::new([b"seed|0", b"seed|1"])?;
    /// let (mut a, mut b) = ([0u8; 168], [0u8; 168]);
    /// x.squeeze_blocks([&mut a, &mut b])?;
    /// let mut one = [0u8; 168];
    /// shake128(b"seed|1", &mut one);
    /// assert_eq!(b, one);
    ///
    /// // Inputs of different lengths, or an output that is not whole blocks, are errors.
    /// assert_eq!(Shake128x2::new([b"a", b"bc"]).unwrap_err(), Error::LengthMismatch);
    /// let (mut c, mut d) = ([0u8; 100], [0u8; 100]);
    /// assert_eq!(x.squeeze_blocks([&mut c, &mut d]), Err(Error::NotBlockMultiple));
    /// # Ok::<(), Error>(())
    /// ```
    Shake128x2, 2, 168);
multi!(
    /// SHAKE256 on two inputs at once (the four-way state with two ways idle, which the backend may skip).
    ///
    /// ```
    /// use tessera_keccak::{shake256, Shake256x2};
    ///
    /// let mut x = Shake256x2::new([b"seed|0", b"seed|1"])?;
    /// let (mut a, mut b) = ([0u8; 272], [0u8; 272]);
    /// x.squeeze_blocks([&mut a, &mut b])?;
    /// let mut one = [0u8; 272];
    /// shake256(b"seed|0", &mut one);
    /// assert_eq!(a, one);
    /// # Ok::<(), tessera_keccak::Error>(())
    /// ```
    Shake256x2, 2, 136);
