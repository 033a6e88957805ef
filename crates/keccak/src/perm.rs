//! The two implementation traits of the backends and their operation traits: a row of the
//! `X1Backend` table names an [`X1Perm`] type (the single-state permutation), a row of the
//! `X4Backend` table an [`X4Perm`] type (four interleaved states). An operation is a struct
//! implementing [`X1Op`] or [`X4Op`]; the table's generated `run` compiles it into the row's
//! target-feature island for the row's type.
#![forbid(unsafe_code)]

/// The single-state Keccak-p\[1600\] of one backend.
pub(crate) trait X1Perm {
    /// The capability token (`tessera_cpu::Portable` for the portable type).
    type Token: Copy;

    /// Keccak-p\[1600, rounds\] on one state.
    fn permute(t: Self::Token, state: &mut [u64; 25], rounds: usize);

    /// Absorbs whole `rate`-byte blocks of `data` with the state kept in registers; returns the
    /// bytes consumed (0, the default, leaves the blocks to the caller's loop).
    #[inline(always)]
    fn absorb_blocks(
        t: Self::Token,
        state: &mut [u64; 25],
        data: &[u8],
        rate: usize,
        rounds: usize,
    ) -> usize {
        let _ = (t, state, data, rate, rounds);
        0
    }
}

/// The four-way Keccak-p\[1600\] of one backend, on the interleaved layout `state[lane][way]`.
pub(crate) trait X4Perm {
    /// The capability token (`tessera_cpu::Portable` for the portable type).
    type Token: Copy;

    /// Keccak-p\[1600, rounds\] on the first `ways` (1..=4) of four interleaved states; the
    /// other ways may be permuted too or left as they are.
    fn permute_x4(t: Self::Token, state: &mut [[u64; 4]; 25], rounds: usize, ways: usize);

    /// Absorbs the whole `rate`-byte blocks of four inputs of one length (Keccak-f, 24 rounds)
    /// with the states kept in registers; returns the bytes consumed per input (0, the default,
    /// leaves the blocks to the caller's loop).
    #[inline(always)]
    fn absorb_x4(
        t: Self::Token,
        state: &mut [[u64; 4]; 25],
        inputs: [&[u8]; 4],
        rate: usize,
    ) -> usize {
        let _ = (t, state, inputs, rate);
        0
    }
}

/// An operation on the single-state permutation, run by `X1Backend::run`.
pub(crate) trait X1Op {
    type Out;
    fn run<P: X1Perm>(self, t: P::Token) -> Self::Out;
}

/// An operation on the four-way permutation, run by `X4Backend::run`.
pub(crate) trait X4Op {
    type Out;
    fn run<P: X4Perm>(self, t: P::Token) -> Self::Out;
}
