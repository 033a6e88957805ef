//! The incremental state of every hasher and HMAC: buffering of a partial block, whole blocks
//! compressed straight from the input, and padding at the end, on the backend chosen when the
//! state was created.
#![forbid(unsafe_code)]

use zeroize::Zeroize;

use crate::block::{Compress, State, Table};
use crate::md::{Family, pad};

/// Incremental state: chaining value, partial block, byte count, and the backend. Wiped on
/// drop (every hasher, HMAC and clone of one holds its input in an engine).
/// `SECRET`: the input is key-derived (HMAC), so blocks go through `BlockFn::compress_secret`.
pub struct Engine<T: Table, const SECRET: bool = false> {
    pub(crate) state: State<T::Fam>,
    buf: <T::Fam as Family>::Block,
    used: usize,
    total: u64,
    pub(crate) backend: T,
}

impl<T: Table, const SECRET: bool> Clone for Engine<T, SECRET> {
    fn clone(&self) -> Self {
        Self {
            state: self.state,
            buf: self.buf,
            used: self.used,
            total: self.total,
            backend: self.backend,
        }
    }
}

impl<T: Table, const SECRET: bool> Engine<T, SECRET> {
    /// The block function for this engine's input (wiping when `SECRET`).
    #[inline(always)]
    fn compress(be: T, state: &mut State<T::Fam>, blocks: &[u8]) {
        be.dispatch(Compress::<_, SECRET> { state, blocks });
    }

    /// An engine at `state` after `total` bytes (a multiple of the block length).
    #[inline(always)]
    pub(crate) fn with_state(backend: T, state: State<T::Fam>, total: u64) -> Self {
        Self {
            state,
            buf: <T::Fam as Family>::ZERO,
            used: 0,
            total,
            backend,
        }
    }

    /// Absorbs `data`: tops up the partial block, then compresses whole blocks in place from
    /// the input (one backend call), then keeps the tail.
    #[inline]
    pub(crate) fn update(&mut self, mut data: &[u8]) {
        self.total = self.total.wrapping_add(data.len() as u64);
        if self.used > 0 {
            let take = (<T::Fam as Family>::BLOCK - self.used).min(data.len());
            self.buf.as_mut()[self.used..self.used + take].copy_from_slice(&data[..take]);
            self.used += take;
            data = &data[take..];
            if self.used < <T::Fam as Family>::BLOCK {
                return;
            }
            Self::compress(self.backend, &mut self.state, self.buf.as_ref());
            self.used = 0;
        }
        let full = data.len() - data.len() % <T::Fam as Family>::BLOCK;
        if full > 0 {
            Self::compress(self.backend, &mut self.state, &data[..full]);
        }
        let rest = &data[full..];
        self.buf.as_mut()[..rest.len()].copy_from_slice(rest);
        self.used = rest.len();
    }

    /// Pads in place and leaves the final chaining value in `self.state` (the engine must be
    /// reset or dropped afterwards).
    #[inline]
    pub(crate) fn finish_in_place(&mut self) {
        let be = self.backend;
        pad::<T::Fam, _, false>(
            |s, b| Self::compress(be, s, b),
            &mut self.state,
            &mut self.buf,
            self.used,
            self.total,
        );
    }

    /// Wipes the state and the buffered input.
    pub(crate) fn wipe(&mut self) {
        self.state.zeroize();
        self.buf.zeroize();
        self.used = 0;
        self.total = 0;
    }
}

impl<T: Table, const SECRET: bool> Drop for Engine<T, SECRET> {
    fn drop(&mut self) {
        self.wipe();
    }
}
