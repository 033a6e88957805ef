//! The raw primitives: the ChaCha20 stream cipher (RFC 8439 section 2.4), HChaCha20
//! (draft-irtf-cfrg-xchacha section 2.2) and the one-time authenticator Poly1305 (RFC 8439
//! section 2.5). Most users want the AEADs.

#![forbid(unsafe_code)]

use crate::backend::Backend;
use crate::construction::Xor;
use crate::{Error, chacha, poly1305};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

/// HChaCha20: a 32-byte subkey from a key and a 16-byte input.
///
/// ```
/// let sub = tessera_chacha20poly1305::hazmat::hchacha20(&[0; 32], &[0; 16]);
/// assert_eq!(sub.len(), 32);
/// ```
pub fn hchacha20(key: &[u8; 32], input: &[u8; 16]) -> [u8; 32] {
    chacha::hchacha20(key, input)
}

/// The ChaCha20 stream cipher of RFC 8439 (32-bit block counter, 96-bit nonce).
///
/// The keystream ends with block `2^32 - 1`: a request that would need a later block is
/// [`Error::MessageTooLong`], with nothing written (the counter never wraps).
///
/// ```
/// use tessera_chacha20poly1305::hazmat::ChaCha20;
/// let mut c = ChaCha20::new(&[1; 32], &[2; 12], 0);
/// let mut buf = [0u8; 100];
/// c.apply_keystream(&mut buf).unwrap();
/// let mut d = ChaCha20::new(&[1; 32], &[2; 12], 1);
/// let mut tail = [0u8; 36];
/// d.apply_keystream(&mut tail).unwrap();
/// assert_eq!(buf[64..], tail);
/// ```
pub struct ChaCha20 {
    backend: Backend,
    state: [u32; 16],
    /// The next block to generate (`2^32` when the keystream is used up).
    block: u64,
    /// Keystream of the last generated block; bytes `pos..64` are still unused.
    buf: [u8; 64],
    pos: usize,
}

impl ChaCha20 {
    /// A stream starting at block `initial_counter`, on the best backend of this CPU.
    pub fn new(key: &[u8; 32], nonce: &[u8; 12], initial_counter: u32) -> Self {
        Self::new_with_backend(Backend::detect(), key, nonce, initial_counter)
    }

    /// A stream on a given backend (tests and benches).
    pub fn new_with_backend(
        backend: Backend,
        key: &[u8; 32],
        nonce: &[u8; 12],
        initial_counter: u32,
    ) -> Self {
        ChaCha20 {
            backend,
            state: chacha::state(&chacha::key_words(key), 0, nonce),
            block: initial_counter.into(),
            buf: [0; 64],
            pos: 64,
        }
    }

    /// The backend this stream runs on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Moves to the start of block `block` (drops any partly used block).
    pub fn seek(&mut self, block: u32) {
        self.block = block.into();
        self.buf.zeroize();
        self.pos = 64;
    }

    /// XORs the next `data.len()` keystream bytes into `data`.
    pub fn apply_keystream(&mut self, data: &mut [u8]) -> Result<(), Error> {
        let avail = ((1u64 << 32) - self.block) * 64 + (64 - self.pos) as u64;
        if data.len() as u64 > avail {
            return Err(Error::MessageTooLong);
        }
        let n = data.len().min(64 - self.pos);
        let (head, data) = data.split_at_mut(n);
        for (d, k) in head.iter_mut().zip(&self.buf[self.pos..]) {
            *d ^= k;
        }
        self.pos += n;
        let whole = data.len() & !63;
        let (body, rest) = data.split_at_mut(whole);
        if !body.is_empty() {
            self.state[12] = self.block as u32;
            self.backend.run(Xor {
                state: &self.state,
                data: body,
            });
            self.block += (whole / 64) as u64;
        }
        if !rest.is_empty() {
            self.state[12] = self.block as u32;
            self.buf = [0; 64];
            self.backend.run(Xor {
                state: &self.state,
                data: &mut self.buf,
            });
            self.block += 1;
            for (d, k) in rest.iter_mut().zip(&self.buf) {
                *d ^= k;
            }
            self.pos = rest.len();
        }
        Ok(())
    }
}

impl Drop for ChaCha20 {
    fn drop(&mut self) {
        self.state.zeroize();
        self.buf.zeroize();
    }
}

impl core::fmt::Debug for ChaCha20 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ChaCha20")
            .field("backend", &self.backend.name())
            .finish_non_exhaustive()
    }
}

/// Poly1305 (RFC 8439 section 2.5): a one-time key `r || s` (never reuse it), any number of
/// `update`s, then `finalize` or a constant-time `verify`.
///
/// ```
/// use tessera_chacha20poly1305::hazmat::Poly1305;
/// let mut p = Poly1305::new(&[3; 32]);
/// p.update(b"Cryptographic Forum ");
/// p.update(b"Research Group");
/// let tag = p.finalize();
/// let mut q = Poly1305::new(&[3; 32]);
/// q.update(b"Cryptographic Forum Research Group");
/// assert!(q.verify(&tag).is_ok());
/// ```
pub struct Poly1305 {
    state: poly1305::State,
    buf: [u8; 16],
    len: usize,
}

impl Poly1305 {
    /// A MAC under the one-time key `r || s` (`r` is clamped as RFC 8439 says).
    pub fn new(key: &[u8; 32]) -> Self {
        Poly1305 {
            state: poly1305::State::new(key),
            buf: [0; 16],
            len: 0,
        }
    }

    /// Absorbs `data`.
    pub fn update(&mut self, mut data: &[u8]) {
        if self.len > 0 {
            let n = data.len().min(16 - self.len);
            self.buf[self.len..self.len + n].copy_from_slice(&data[..n]);
            self.len += n;
            data = &data[n..];
            if self.len < 16 {
                return;
            }
            self.state.block(&self.buf, 1);
            self.len = 0;
        }
        let whole = data.len() & !15;
        self.state.blocks(&data[..whole]);
        let rest = &data[whole..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.len = rest.len();
    }

    /// The tag.
    pub fn finalize(mut self) -> [u8; 16] {
        if self.len > 0 {
            // A final partial block: its bytes, then 0x01, then zeros, without the 2^128 bit.
            self.buf[self.len] = 1;
            self.buf[self.len + 1..].fill(0);
            let b = self.buf;
            self.state.block(&b, 0);
        }
        self.state.finalize()
    }

    /// Checks `tag` in constant time.
    pub fn verify(self, tag: &[u8; 16]) -> Result<(), Error> {
        let mut t = self.finalize();
        let ok = bool::from(t.ct_eq(tag));
        t.zeroize();
        if ok {
            Ok(())
        } else {
            Err(Error::Authentication)
        }
    }
}

impl Drop for Poly1305 {
    fn drop(&mut self) {
        self.buf.zeroize();
    }
}

impl core::fmt::Debug for Poly1305 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Poly1305").finish_non_exhaustive()
    }
}
