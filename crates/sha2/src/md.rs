//! The Merkle-Damgard construction shared by every backend: each family's parameters, FIPS
//! 180-4 section 5.1 padding, and the whole-operation helpers (one-shot hash, one-shot HMAC),
//! generic over the block function and `#[inline(always)]` so each backend compiles them into
//! its own target-feature island.
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

/// A SHA-2 family's parameters: [`Sha256Family`] (SHA-224/256) or [`Sha512Family`]
/// (SHA-384/512, SHA-512/256).
pub trait Family: 'static {
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
}

/// The parameters of a family of `$w` words and `$block`-byte blocks.
macro_rules! family {
    ($(#[$m:meta])* $name:ident: $w:ty, block $block:literal, length $len:literal) => {
        $(#[$m])*
        pub enum $name {}

        impl Family for $name {
            type Word = $w;
            type Block = [u8; $block];
            const BLOCK: usize = $block;
            const LEN_BYTES: usize = $len;
            const ZERO: [u8; $block] = [0; $block];
            type Tail = [u8; 2 * $block];
            const ZERO_TAIL: [u8; 2 * $block] = [0; 2 * $block];
        }
    };
}

family!(
    /// SHA-224/256: 32-bit words, 64-byte blocks, a 64-bit length field.
    Sha256Family: u32, block 64, length 8
);
family!(
    /// SHA-384/512 and SHA-512/256: 64-bit words, 128-byte blocks, a 128-bit length field.
    Sha512Family: u64, block 128, length 16
);

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
/// tail is wiped afterwards (all of it, with a few wide stores).
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
        // The whole buffer with 16-byte volatile stores: a fixed number of wide stores instead
        // of one volatile store per copied input byte.
        tessera_cpu::wipe_wide::<u8, 16>(tail.as_mut());
    }
}

/// HMAC of `msg` from the precomputed key states, in one go (see `BlockFn::hmac`).
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
