//! The AEAD construction of RFC 8439 section 2.8, generic over a backend's keystream: the
//! Poly1305 key from block 0, then the message from block 1 on, one pass over `CHUNK`-byte
//! pieces (seal: encrypt a piece, MAC it while it is in cache, over whole pieces one piece
//! behind, beside the next piece's encryption; open: MAC a piece, then decrypt it).
//! Compiled into each backend's island (`#[inline(always)]`): the operations ([`Aead`],
//! [`Xor`]) are [`AeadOp`]s, which the generated `Backend::run` runs on a row's [`Keystream`].

#![forbid(unsafe_code)]

use crate::{chacha, poly1305};
use zeroize::Zeroize;

/// A backend's ChaCha20 keystream: the implementation type of a row of the backend table
/// (`Backend` in `backend.rs`), built from the row's capability token inside the row's island.
pub(crate) trait Keystream {
    /// The row's capability token ([`tessera_cpu::Portable`] for the portable backend).
    type Token: Copy;

    /// The keystream of the backend whose features `t` proves.
    fn new(t: Self::Token) -> Self;

    /// Bytes per piece of the one-pass loop (a multiple of 64: the backend's widest group).
    const CHUNK: usize;

    /// XORs the keystream of consecutive blocks, the first with counter `state[12]`, into
    /// `data` (any length; the last block may be partial). The caller guarantees that the
    /// counter does not pass `2^32 - 1`.
    fn xor(&self, state: &[u32; 16], data: &mut [u8]);

    /// The Poly1305 key: the first 32 bytes of block `state[12] = 0`.
    #[inline(always)]
    fn otk(&self, state: &[u32; 16]) -> [u8; 32] {
        let mut b = [0u8; 64];
        self.xor(state, &mut b);
        let mut k = [0u8; 32];
        k.copy_from_slice(&b[..32]);
        b.zeroize();
        k
    }

    /// Messages of at most this many bytes (at most 192) take the short path: the blocks from
    /// 0 that cover the Poly1305 key and the message, from one call to [`Keystream::short`]
    /// (0: never).
    const SHORT: usize = 0;

    /// The raw keystream of blocks `state[12]..state[12] + N / 64` written over `ks` (all
    /// zeros; `N` is 128 or 256).
    #[inline(always)]
    fn short<const N: usize>(&self, state: &[u32; 16], ks: &mut [u8; N]) {
        self.xor(state, ks)
    }

    /// Whether [`Keystream::seal_first`] computes the key block alongside the first piece's
    /// blocks (sealing a message of at least one whole piece then starts with it).
    const FOLD_KEY: bool = false;

    /// Sealing: the Poly1305 key (the first 32 bytes of block `state[12] = 0`) written to
    /// `otk`, and the keystream from block 1 XORed into `piece`, one whole piece of `CHUNK`
    /// bytes.
    #[inline(always)]
    fn seal_first(&self, state: &[u32; 16], piece: &mut [u8], otk: &mut [u8; 32]) {
        *otk = self.otk(state);
        let mut st = *state;
        st[12] = 1;
        self.xor(&st, piece);
        self.wipe_state(&mut st);
    }

    /// Messages of more than [`Keystream::SHORT`] and at most this many bytes (at most
    /// `MEDIUM_BUF - 64`) take the medium path: the Poly1305 key and the message keystream
    /// from one call to [`Keystream::medium`], so that the key block is not a pass of its own
    /// (0: never).
    const MEDIUM: usize = 0;

    /// The raw keystream of blocks `state[12]..` covering at least `64 + len` bytes written
    /// over the start of `ks` (all zeros; `len <= MEDIUM`).
    #[inline(always)]
    fn medium(&self, state: &[u32; 16], ks: &mut [u8; MEDIUM_BUF], len: usize) {
        self.xor(state, &mut ks[..64 + len])
    }

    /// The MAC carried through whole pieces ([`Keystream::xor_mac`]): a vectorized Poly1305
    /// over whole 128-byte groups, or a copy of the scalar state for a backend that stitches
    /// it into the rounds (`()` for neither).
    type Mac;

    /// Starts the MAC of whole pieces for a message of `len` bytes from `poly`'s key and
    /// accumulator, or `None` where the plain scalar code is faster.
    #[inline(always)]
    fn mac_new(&self, poly: &poly1305::State, len: usize) -> Option<Self::Mac> {
        let _ = (poly, len);
        None
    }

    /// Absorbs `data` (a multiple of 128 bytes) into `w`.
    #[inline(always)]
    fn mac_blocks(&self, w: &mut Self::Mac, data: &[u8]) {
        let _ = (w, data);
    }

    /// The keystream XORed into `data`, one whole piece of `CHUNK` bytes, and whole 128-byte
    /// groups absorbed into `w`: `data` itself before the XOR when `OWN` (opening), else
    /// `prev`, the piece before (sealing; may be empty). Backends that interleave the two
    /// override it; by default one runs after the other.
    #[inline(always)]
    fn xor_mac<const OWN: bool>(
        &self,
        state: &[u32; 16],
        data: &mut [u8],
        w: &mut Self::Mac,
        prev: &[u8],
    ) {
        if OWN {
            self.mac_blocks(w, data);
            self.xor(state, data);
        } else {
            self.xor(state, data);
            self.mac_blocks(w, prev);
        }
    }

    /// Folds `w` into `poly`'s accumulator.
    #[inline(always)]
    fn mac_finish(&self, w: Self::Mac, poly: &mut poly1305::State) {
        let _ = (w, poly);
    }

    /// Wipes a ChaCha20 state (it holds the key).
    #[inline(always)]
    fn wipe_state(&self, st: &mut [u32; 16]) {
        st.zeroize();
    }

    /// Wipes a keystream buffer of [`Keystream::short`].
    #[inline(always)]
    fn wipe<const N: usize>(&self, ks: &mut [u8; N]) {
        ks.zeroize();
    }
}

/// Seals (`SEAL`: encrypts `buf`, returns the tag) or opens (returns the expected tag of the
/// ciphertext in `buf` and decrypts it; the caller compares and wipes on a mismatch).
/// `buf.len() <= 2^38 - 64` (checked by the callers).
#[inline(always)]
pub(crate) fn run<const SEAL: bool, K: Keystream>(
    k: &K,
    key: &[u32; 8],
    nonce: &[u8; 12],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    let mut st = chacha::state(key, 0, nonce);
    if buf.len() <= K::SHORT {
        // Blocks 0 and 1 (the key and up to 64 bytes) are one group of the narrowest vectors;
        // longer short messages take blocks 0..4. (The length is public.)
        return if buf.len() <= 64 {
            short::<SEAL, K, 128>(k, &mut st, aad, buf)
        } else {
            short::<SEAL, K, 256>(k, &mut st, aad, buf)
        };
    }
    if K::MEDIUM > 0 && buf.len() <= K::MEDIUM {
        return medium::<SEAL, K>(k, &mut st, aad, buf);
    }
    // Sealing with `FOLD_KEY`: the first piece is encrypted with the key block, MACed later.
    let fold = SEAL && K::FOLD_KEY && buf.len() >= K::CHUNK;
    let mut otk = [0u8; 32];
    if fold {
        k.seal_first(&st, &mut buf[..K::CHUNK], &mut otk);
    } else {
        otk = k.otk(&st);
    }
    let mut poly = poly1305::State::new(&otk);
    otk.zeroize();
    poly.padded(aad);
    let first = if fold { K::CHUNK } else { 0 };
    st[12] = 1 + (first / 64) as u32;
    let mut pm = k.mac_new(&poly, buf.len());
    let start = match pm.as_mut() {
        Some(w) => whole_pieces::<SEAL, K>(k, &mut st, w, buf, first),
        None => {
            poly.padded(&buf[..first]);
            first
        }
    };
    for piece in buf[start..].chunks_mut(K::CHUNK) {
        if SEAL {
            k.xor(&st, piece);
            mac(k, &mut pm, &mut poly, piece);
        } else {
            mac(k, &mut pm, &mut poly, piece);
            k.xor(&st, piece);
        }
        // Past the last piece the counter is not used again (it may wrap there).
        st[12] = st[12].wrapping_add((K::CHUNK / 64) as u32);
    }
    if let Some(w) = pm.take() {
        k.mac_finish(w, &mut poly);
    }
    k.wipe_state(&mut st);
    finish(poly, aad.len(), buf.len())
}

/// The whole `CHUNK`-byte pieces of `buf` with the piece MAC ([`Keystream::xor_mac`]):
/// encrypted and all MACed (sealing; the first `first` bytes, a whole piece or none, are
/// encrypted already), or MACed and decrypted (opening, `first = 0`), `st[12]` moved past
/// them. Returns how many bytes they cover.
#[inline(always)]
fn whole_pieces<const SEAL: bool, K: Keystream>(
    k: &K,
    st: &mut [u32; 16],
    w: &mut K::Mac,
    buf: &mut [u8],
    first: usize,
) -> usize {
    const { assert!(K::CHUNK % 128 == 0) };
    let end = buf.len() - buf.len() % K::CHUNK;
    debug_assert!(first <= end && (SEAL || first == 0));
    for off in (first..end).step_by(K::CHUNK) {
        let (done, rest) = buf.split_at_mut(off);
        let piece = &mut rest[..K::CHUNK];
        if SEAL {
            k.xor_mac::<false>(st, piece, w, &done[off.saturating_sub(K::CHUNK)..]);
        } else {
            k.xor_mac::<true>(st, piece, w, &[]);
        }
        st[12] = st[12].wrapping_add((K::CHUNK / 64) as u32);
    }
    if SEAL && end > 0 {
        k.mac_blocks(w, &buf[end - K::CHUNK..end]);
    }
    end
}

/// The bytes a piece's MAC reads in [`Keystream::xor_mac`]: the piece itself when `OWN`, else
/// the piece before it, `None` when there is none (`prev` empty; otherwise it is whole).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the x86 backends
#[inline(always)]
pub(crate) fn mac_source<'a, const OWN: bool, const N: usize>(
    data: &'a [u8; N],
    prev: &'a [u8],
) -> Option<&'a [u8; N]> {
    if OWN {
        Some(data)
    } else if prev.is_empty() {
        None
    } else {
        Some(prev.try_into().unwrap())
    }
}

/// The MAC of one piece: whole 128-byte groups through the piece MAC while it runs; the first
/// piece with a partial group (the last) finishes it and the plain scalar code takes over.
/// (A function, not a closure: closures do not inherit the island's target features.)
#[inline(always)]
fn mac<K: Keystream>(k: &K, pm: &mut Option<K::Mac>, poly: &mut poly1305::State, piece: &[u8]) {
    match pm.as_mut() {
        Some(w) => {
            let v = piece.len() & !127;
            k.mac_blocks(w, &piece[..v]);
            if v < piece.len() {
                k.mac_finish(pm.take().unwrap(), poly);
                poly.padded(&piece[v..]);
            }
        }
        None => poly.padded(piece),
    }
}

/// The length block of RFC 8439 section 2.8, then the tag.
#[inline(always)]
fn finish(mut poly: poly1305::State, aad_len: usize, len: usize) -> [u8; 16] {
    let mut lens = [0u8; 16];
    lens[..8].copy_from_slice(&(aad_len as u64).to_le_bytes());
    lens[8..].copy_from_slice(&(len as u64).to_le_bytes());
    poly.block(&lens, 1);
    poly.finalize()
}

/// The keystream buffer of [`Keystream::medium`]: twenty blocks.
pub(crate) const MEDIUM_BUF: usize = 1280;

/// [`run`] for `K::SHORT < buf.len() <= K::MEDIUM`: the Poly1305 key and the message
/// keystream from one call (blocks from 0), then one MAC pass (vectorized where the backend
/// says so) before (open) or after (seal) the XOR.
#[inline(always)]
fn medium<const SEAL: bool, K: Keystream>(
    k: &K,
    st: &mut [u32; 16],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    const { assert!(K::MEDIUM + 64 <= MEDIUM_BUF) };
    debug_assert!(buf.len() <= K::MEDIUM);
    let mut ks = [0u8; MEDIUM_BUF];
    k.medium(st, &mut ks, buf.len());
    k.wipe_state(st);
    let mut poly = poly1305::State::new(ks[..32].try_into().unwrap());
    poly.padded(aad);
    let mut pm = k.mac_new(&poly, buf.len());
    if !SEAL {
        mac(k, &mut pm, &mut poly, buf);
    }
    for (b, x) in buf.iter_mut().zip(&ks[64..]) {
        *b ^= x;
    }
    if SEAL {
        mac(k, &mut pm, &mut poly, buf);
    }
    if let Some(w) = pm.take() {
        k.mac_finish(w, &mut poly);
    }
    k.wipe(&mut ks);
    finish(poly, aad.len(), buf.len())
}

/// [`run`] for `buf.len() <= min(K::SHORT, N - 64)`: the Poly1305 key and the message
/// keystream from one group of `N / 64` blocks.
#[inline(always)]
fn short<const SEAL: bool, K: Keystream, const N: usize>(
    k: &K,
    st: &mut [u32; 16],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    debug_assert!(buf.len() + 64 <= N);
    let mut ks = [0u8; N];
    k.short(st, &mut ks);
    k.wipe_state(st);
    let mut poly = poly1305::State::new(ks[..32].try_into().unwrap());
    poly.padded(aad);
    if !SEAL {
        poly.padded(buf);
    }
    for (b, x) in buf.iter_mut().zip(&ks[64..]) {
        *b ^= x;
    }
    if SEAL {
        poly.padded(buf);
    }
    k.wipe(&mut ks);
    finish(poly, aad.len(), buf.len())
}

/// An operation on a backend's keystream: `Backend::run` of `backend.rs` (generated by
/// `tessera_cpu::backends!`) calls `run::<K>` with the keystream type `K` of the backend's row,
/// inside that row's target-feature island.
pub(crate) trait AeadOp {
    type Out;
    fn run<K: Keystream>(self, t: K::Token) -> Self::Out;
}

/// The AEAD of RFC 8439 section 2.8: seal (`SEAL`, returns the tag) or open (returns the
/// expected tag and decrypts); see [`run`].
pub(crate) struct Aead<'a, const SEAL: bool> {
    pub(crate) key: &'a [u32; 8],
    pub(crate) nonce: &'a [u8; 12],
    pub(crate) aad: &'a [u8],
    pub(crate) buf: &'a mut [u8],
}

impl<const SEAL: bool> AeadOp for Aead<'_, SEAL> {
    type Out = [u8; 16];
    #[inline(always)]
    fn run<K: Keystream>(self, t: K::Token) -> [u8; 16] {
        run::<SEAL, K>(&K::new(t), self.key, self.nonce, self.aad, self.buf)
    }
}

/// The keystream starting at block `state[12]` XORed into `data` (the counter must not pass
/// `2^32 - 1`).
pub(crate) struct Xor<'a> {
    pub(crate) state: &'a [u32; 16],
    pub(crate) data: &'a mut [u8],
}

impl AeadOp for Xor<'_> {
    type Out = ();
    #[inline(always)]
    fn run<K: Keystream>(self, t: K::Token) {
        K::new(t).xor(self.state, self.data)
    }
}
