//! The Merkle-Damgard engine shared by every backend: buffering, FIPS 180-4 section 5.1
//! padding, and the whole-operation helpers (one-shot hash, one-shot HMAC) that each backend
//! compiles inside its own target-feature island.
#![forbid(unsafe_code)]

use zeroize::Zeroize;

/// A SHA-2 word (`u32` for SHA-224/256, `u64` for SHA-384/512).
pub trait Word: Copy + Zeroize + 'static {
    /// Bytes per word.
    const BYTES: usize;
    /// Writes the word big-endian into `out` (`out.len() == BYTES`).
    fn store_be(self, out: &mut [u8]);
}

impl Word for u32 {
    const BYTES: usize = 4;
    #[inline(always)]
    fn store_be(self, out: &mut [u8]) {
        out.copy_from_slice(&self.to_be_bytes());
    }
}

impl Word for u64 {
    const BYTES: usize = 8;
    #[inline(always)]
    fn store_be(self, out: &mut [u8]) {
        out.copy_from_slice(&self.to_be_bytes());
    }
}

/// A SHA-2 family (SHA-256 or SHA-512 block function) together with the backend that runs it.
/// Implemented by the backend tables ([`crate::Sha256Backend`], [`crate::Sha512Backend`]), so a
/// value of the type is the choice made at creation.
pub trait Family: tessera_cpu::BackendSet {
    /// The word type.
    type Word: Word;
    /// One block, `[u8; BLOCK]`.
    type Block: Copy + Zeroize + AsRef<[u8]> + AsMut<[u8]>;
    /// Block length in bytes.
    const BLOCK: usize;
    /// Length of the message-length field in the last block (8 or 16 bytes).
    const LEN_BYTES: usize;
    /// An all-zero block.
    const ZERO: Self::Block;
    /// Two blocks, `[u8; 2 * BLOCK]` (room for a padded tail).
    type Tail: AsRef<[u8]> + AsMut<[u8]> + Zeroize;
    /// An all-zero `Tail`.
    const ZERO_TAIL: Self::Tail;

    /// Compresses whole blocks (`blocks.len()` is a multiple of `BLOCK`).
    fn compress(self, state: &mut [Self::Word; 8], blocks: &[u8]);

    /// [`Family::compress`] for key-derived input (HMAC key setup, HMAC inner and outer
    /// hashes): also wipes the message-schedule words a backend keeps in a stack array.
    fn compress_secret(self, state: &mut [Self::Word; 8], blocks: &[u8]);

    /// Hashes `data` to the end (padding included), `prefix` bytes having already been
    /// compressed into `state`.
    fn oneshot(self, state: &mut [Self::Word; 8], data: &[u8], prefix: u64);

    /// HMAC from precomputed ipad/opad states: `out = H(opad || H(ipad || msg))`, the inner
    /// digest truncated to `words` words (RFC 2104 with the FIPS 180-4 truncations).
    fn hmac(
        self,
        ipad: &[Self::Word; 8],
        opad: &[Self::Word; 8],
        msg: &[u8],
        words: usize,
        out: &mut [Self::Word; 8],
    );
}

/// Pads the partial block `block[..used]` of a message of `total` bytes and compresses the
/// last one or two blocks (FIPS 180-4 5.1.1 / 5.1.2).
///
/// `S` is the chaining value as the backend keeps it (an array, or registers inside an island).
/// `ZEROED`: `block[used..]` is already zero (a fresh stack block), so only the marker and
/// the length are written.
#[inline(always)]
pub(crate) fn pad<F: Family, S, const ZEROED: bool>(
    compress: impl Fn(&mut S, &[u8]),
    state: &mut S,
    block: &mut F::Block,
    used: usize,
    total: u64,
) {
    let b = block.as_mut();
    let len_at = F::BLOCK - F::LEN_BYTES;
    b[used] = 0x80;
    if used + 1 > len_at {
        if !ZEROED {
            b[used + 1..].fill(0);
        }
        compress(state, b);
        b[..len_at].fill(0);
    } else if !ZEROED {
        b[used + 1..len_at].fill(0);
    }
    let bits = (u128::from(total) << 3).to_be_bytes();
    b[len_at..].copy_from_slice(&bits[16 - F::LEN_BYTES..]);
    compress(state, b);
}

/// The whole hash of `data` after `prefix` already-compressed bytes: full blocks straight from
/// the input, only the tail copied into a stack buffer. `WIPE`: the input is secret (the HMAC
/// inner hash: HKDF passes its IKM and output blocks as the message), so the stack copy of the
/// tail is wiped afterwards.
///
/// The padded tail is written before the first block is compressed: its stores then retire
/// early, and the vector loads of the last block (which cannot be forwarded from narrower
/// stores) do not wait for the whole chain of the earlier blocks.
#[inline(always)]
pub(crate) fn oneshot<F: Family, S, const WIPE: bool>(
    compress: impl Fn(&mut S, &[u8]),
    state: &mut S,
    data: &[u8],
    prefix: u64,
) {
    let full = data.len() - data.len() % F::BLOCK;
    let rest = &data[full..];
    let mut tail = F::ZERO_TAIL;
    let t = tail.as_mut();
    if !rest.is_empty() {
        t[..rest.len()].copy_from_slice(rest);
    }
    t[rest.len()] = 0x80;
    let n = if rest.len() + 1 + F::LEN_BYTES > F::BLOCK {
        2 * F::BLOCK
    } else {
        F::BLOCK
    };
    let bits = (u128::from(prefix.wrapping_add(data.len() as u64)) << 3).to_be_bytes();
    t[n - F::LEN_BYTES..n].copy_from_slice(&bits[16 - F::LEN_BYTES..]);
    if full > 0 {
        compress(state, &data[..full]);
    }
    compress(state, &t[..n]);
    if WIPE {
        tail.zeroize();
    }
}

/// HMAC of `msg` from the precomputed key states, in one go (see [`Family::hmac`]).
/// `compress` should be the backend's wiping block function: both hashes carry key-derived
/// state, and the outer block is the inner digest. The tail and the outer block are wiped.
#[inline(always)]
pub(crate) fn hmac<F: Family>(
    compress: impl Fn(&mut [F::Word; 8], &[u8]),
    ipad: &[F::Word; 8],
    opad: &[F::Word; 8],
    msg: &[u8],
    words: usize,
    out: &mut [F::Word; 8],
) {
    let mut inner = *ipad;
    oneshot::<F, _, true>(&compress, &mut inner, msg, F::BLOCK as u64);
    // The outer message is the inner digest after one block of opad: it fits in one block.
    let mut block = F::ZERO;
    let n = words * <F::Word as Word>::BYTES;
    let b = block.as_mut();
    for (c, w) in b[..n]
        .chunks_exact_mut(<F::Word as Word>::BYTES)
        .zip(inner.iter())
    {
        w.store_be(c);
    }
    inner.zeroize();
    *out = *opad;
    pad::<F, _, true>(&compress, out, &mut block, n, (F::BLOCK + n) as u64);
    block.zeroize();
}

/// Writes the first `out.len() / BYTES` words of `state` big-endian. A partial word would be
/// dropped: every digest length is a whole number of words (asserted at compile time per
/// hasher in `lib.rs`).
#[inline(always)]
pub(crate) fn store<W: Word>(state: &[W; 8], out: &mut [u8]) {
    debug_assert!(out.len().is_multiple_of(W::BYTES) && out.len() <= 8 * W::BYTES);
    for (c, w) in out.chunks_exact_mut(W::BYTES).zip(state.iter()) {
        w.store_be(c);
    }
}

/// Incremental state: chaining value, partial block, byte count, and the backend. Wiped on
/// drop (every hasher, HMAC and clone of one holds its input in an engine).
/// `SECRET`: the input is key-derived (HMAC), so blocks go through [`Family::compress_secret`].
#[derive(Clone)]
pub struct Engine<F: Family, const SECRET: bool = false> {
    pub(crate) state: [F::Word; 8],
    buf: F::Block,
    used: usize,
    total: u64,
    pub(crate) backend: F,
}

impl<F: Family, const SECRET: bool> Engine<F, SECRET> {
    /// The block function for this engine's input (wiping when `SECRET`).
    #[inline(always)]
    fn compress(be: F, state: &mut [F::Word; 8], blocks: &[u8]) {
        if SECRET {
            be.compress_secret(state, blocks);
        } else {
            be.compress(state, blocks);
        }
    }

    /// An engine at `state` after `total` bytes (a multiple of the block length).
    #[inline(always)]
    pub(crate) fn with_state(backend: F, state: [F::Word; 8], total: u64) -> Self {
        Self {
            state,
            buf: F::ZERO,
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
            let take = (F::BLOCK - self.used).min(data.len());
            self.buf.as_mut()[self.used..self.used + take].copy_from_slice(&data[..take]);
            self.used += take;
            data = &data[take..];
            if self.used < F::BLOCK {
                return;
            }
            Self::compress(self.backend, &mut self.state, self.buf.as_ref());
            self.used = 0;
        }
        let full = data.len() - data.len() % F::BLOCK;
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
        pad::<F, _, false>(
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

impl<F: Family, const SECRET: bool> Drop for Engine<F, SECRET> {
    fn drop(&mut self) {
        self.wipe();
    }
}
