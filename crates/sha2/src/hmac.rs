//! HMAC (RFC 2104, FIPS 198-1) over any SHA-2 function of this crate.
//!
//! The ipad and opad chaining values are computed once per key ([`HmacKey`]), so each MAC under
//! that key costs only the message blocks plus one outer block.
#![forbid(unsafe_code)]

use subtle::ConstantTimeEq;
use tessera_cpu::BackendSet;
use zeroize::Zeroize;

use crate::block::{self, Compress, Table};
use crate::engine::Engine;
use crate::error::Error;
use crate::hash::sealed::Variant;
use crate::hash::{Sha2, Sha224, Sha256, Sha384, Sha512, Sha512_256};
use crate::md::{self, Family};

type State<H> = block::State<<<H as Variant>::F as Table>::Fam>;

/// A precomputed HMAC key: the chaining values after `K ^ ipad` and `K ^ opad`.
/// Wiped on drop.
///
/// ```
/// use tessera_sha2::{HmacKey, Sha256};
///
/// let key = HmacKey::<Sha256>::new(b"key");
/// let tag = key.sign(b"The quick brown fox jumps over the lazy dog");
/// assert_eq!(tag[..4], [0xf7, 0xbc, 0x83, 0xf4]);
/// assert!(key.verify(b"The quick brown fox jumps over the lazy dog", &tag).is_ok());
/// assert!(key.verify(b"the quick brown fox jumps over the lazy dog", &tag).is_err());
/// ```
pub struct HmacKey<H: Sha2> {
    ipad: State<H>,
    opad: State<H>,
    backend: H::F,
}

impl<H: Sha2> Clone for HmacKey<H> {
    fn clone(&self) -> Self {
        Self {
            ipad: self.ipad,
            opad: self.opad,
            backend: self.backend,
        }
    }
}

impl<H: Sha2> Drop for HmacKey<H> {
    fn drop(&mut self) {
        self.ipad.zeroize();
        self.opad.zeroize();
    }
}

impl<H: Sha2> core::fmt::Debug for HmacKey<H> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("HmacKey { .. }")
    }
}

impl<H: Sha2> HmacKey<H> {
    /// Precomputes the key states on the best backend of this CPU. Any key length is accepted;
    /// keys longer than the block are hashed first (RFC 2104 section 2).
    #[inline]
    pub fn new(key: &[u8]) -> Self {
        Self::new_with_backend(H::Backend::detect(), key)
    }

    /// The same on `backend` (a row of `H`'s table, `Sha256Backend` or `Sha512Backend`). For
    /// tests and benches.
    #[doc(hidden)]
    pub fn new_with_backend(backend: H::Backend, key: &[u8]) -> Self {
        let mut k = <<H::F as Table>::Fam as Family>::ZERO;
        if key.len() > H::BLOCK_LEN {
            // Through an engine (not the one-shot path) so the buffered key tail is wiped too.
            // (Wiped when it drops.)
            let mut e: Engine<H::F, true> = Engine::with_state(backend, H::IV, 0);
            e.update(key);
            e.finish_in_place();
            md::store(&e.state, &mut k.as_mut()[..H::OUTPUT_LEN]);
        } else {
            k.as_mut()[..key.len()].copy_from_slice(key);
        }
        let mut pad = k;
        let mut ipad = H::IV;
        let mut opad = H::IV;
        for (p, x) in pad.as_mut().iter_mut().zip(k.as_ref()) {
            *p = x ^ 0x36;
        }
        backend.dispatch(Compress::<_, true> {
            state: &mut ipad,
            blocks: pad.as_ref(),
        });
        for (p, x) in pad.as_mut().iter_mut().zip(k.as_ref()) {
            *p = x ^ 0x5c;
        }
        backend.dispatch(Compress::<_, true> {
            state: &mut opad,
            blocks: pad.as_ref(),
        });
        k.zeroize();
        pad.zeroize();
        Self {
            ipad,
            opad,
            backend,
        }
    }

    /// The backend this key runs on (for tests and benches).
    #[doc(hidden)]
    pub fn backend(&self) -> H::Backend {
        self.backend
    }

    /// HMAC of `msg` under this key, in one pass.
    ///
    /// To check a received tag use [`HmacKey::verify`]: `==` on the returned array is not
    /// constant time.
    #[inline]
    pub fn sign(&self, msg: &[u8]) -> H::Digest {
        let mut st = H::IV;
        self.backend.dispatch(block::Hmac {
            ipad: &self.ipad,
            opad: &self.opad,
            msg,
            words: H::WORDS,
            out: &mut st,
        });
        let mut out = H::ZERO_DIGEST;
        md::store(&st, out.as_mut());
        out
    }

    /// Checks a full-length tag of `msg` in constant time.
    pub fn verify(&self, msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        let mut d = self.sign(msg);
        let r = check(d.as_ref(), tag, H::OUTPUT_LEN);
        d.zeroize();
        r
    }

    /// Checks a tag truncated to its leftmost `expected_len` bytes, in constant time.
    ///
    /// The caller states the truncation its protocol uses: a tag whose length is not exactly
    /// `expected_len` is rejected, so an attacker cannot pick a shorter (easier to forge)
    /// truncation. `expected_len` must be in [`min_truncated_len`]`(H::OUTPUT_LEN)..=H::OUTPUT_LEN`
    /// (16 bytes, or 14 for SHA-224); any other value is an error ([`Error::Authentication`]).
    /// RFC 2104 section 5 recommends keeping at least half the hash output (and never fewer
    /// than 80 bits).
    ///
    /// ```
    /// use tessera_sha2::{HmacKey, Sha256};
    ///
    /// let key = HmacKey::<Sha256>::new(b"key");
    /// let tag = key.sign(b"msg");
    /// assert!(key.verify_truncated(b"msg", &tag[..16], 16).is_ok());
    /// // A shorter tag than the protocol's truncation is refused.
    /// assert!(key.verify_truncated(b"msg", &tag[..16], 20).is_err());
    /// // So is a truncation below the minimum.
    /// assert!(key.verify_truncated(b"msg", &tag[..8], 8).is_err());
    /// ```
    pub fn verify_truncated(
        &self,
        msg: &[u8],
        tag: &[u8],
        expected_len: usize,
    ) -> Result<(), Error> {
        let mut d = self.sign(msg);
        let r = check_truncated(d.as_ref(), tag, expected_len);
        d.zeroize();
        r
    }

    /// An incremental HMAC under this key.
    #[inline]
    pub fn hasher(&self) -> Hmac<H> {
        Hmac::from_key(self)
    }
}

/// Shortest truncation [`HmacKey::verify_truncated`] accepts for a digest of `output_len`
/// bytes: 16 bytes (128 bits, the truncation RFC 4231 test case 5 uses for every hash), or half
/// the digest when that is shorter (SHA-224: 14 bytes, which Wycheproof's truncated
/// HMAC-SHA-224 cases use). RFC 2104 section 5 recommends at least half the output and never
/// fewer than 80 bits; both bounds hold for every SHA-2 digest length except SHA-384/512, where
/// 16 bytes is below half (still the RFC 4231 truncation).
pub const fn min_truncated_len(output_len: usize) -> usize {
    if output_len / 2 < 16 {
        output_len / 2
    } else {
        16
    }
}

/// [`check`] for a caller-stated truncation: `tag.len()` must equal `expected_len`, which must
/// be in `min_truncated_len(full.len())..=full.len()`.
fn check_truncated(full: &[u8], tag: &[u8], expected_len: usize) -> Result<(), Error> {
    if expected_len < min_truncated_len(full.len())
        || expected_len > full.len()
        || tag.len() != expected_len
    {
        return Err(Error::Authentication);
    }
    check(full, tag, expected_len)
}

/// Constant-time comparison of `tag` with the leading bytes of `full`; the tag length (public)
/// must be in `min..=full.len()`.
fn check(full: &[u8], tag: &[u8], min: usize) -> Result<(), Error> {
    if tag.len() < min || tag.len() > full.len() {
        return Err(Error::Authentication);
    }
    if bool::from(full[..tag.len()].ct_eq(tag)) {
        Ok(())
    } else {
        Err(Error::Authentication)
    }
}

/// Incremental HMAC. Wiped on drop (the inner engine, and the key states it holds).
///
/// ```
/// use tessera_sha2::{Hmac, Sha512};
///
/// let mut m = Hmac::<Sha512>::new(b"key");
/// m.update(b"The quick brown fox ").update(b"jumps over the lazy dog");
/// let tag = m.finalize();
/// assert_eq!(tag[..4], [0xb4, 0x2a, 0xf0, 0x90]);
/// assert!(m.verify(&tag).is_ok());
/// ```
pub struct Hmac<H: Sha2> {
    inner: Engine<H::F, true>,
    key: HmacKey<H>,
}

impl<H: Sha2> Clone for Hmac<H> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
            key: self.key.clone(),
        }
    }
}

impl<H: Sha2> core::fmt::Debug for Hmac<H> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Hmac { .. }")
    }
}

impl<H: Sha2> Hmac<H> {
    /// A MAC under `key` (any length; see [`HmacKey::new`]).
    #[inline]
    pub fn new(key: &[u8]) -> Self {
        Self::from_key(&HmacKey::new(key))
    }

    /// A MAC under a precomputed key (no key hashing).
    #[inline]
    pub fn from_key(key: &HmacKey<H>) -> Self {
        Self {
            inner: Engine::with_state(key.backend, key.ipad, H::BLOCK_LEN as u64),
            key: key.clone(),
        }
    }

    /// Absorbs more message.
    #[inline]
    pub fn update(&mut self, data: &[u8]) -> &mut Self {
        self.inner.update(data);
        self
    }

    /// The tag of everything absorbed so far (the MAC is left unchanged). To check a
    /// received tag use [`Hmac::verify`]: `==` is not constant time.
    pub fn finalize(&self) -> H::Digest {
        // The padded copy is wiped when it drops.
        let mut inner = self.inner.clone();
        self.finish(&mut inner)
    }

    fn finish(&self, inner: &mut Engine<H::F, true>) -> H::Digest {
        inner.finish_in_place();
        let mut d = H::ZERO_DIGEST;
        md::store(&inner.state, d.as_mut());
        let mut outer: Engine<H::F, true> =
            Engine::with_state(self.key.backend, self.key.opad, H::BLOCK_LEN as u64);
        outer.update(d.as_ref());
        outer.finish_in_place();
        md::store(&outer.state, d.as_mut());
        d
    }

    /// The tag, then the MAC is reset to its fresh state under the same key.
    pub fn finalize_reset(&mut self) -> H::Digest {
        let mut inner = core::mem::replace(
            &mut self.inner,
            Engine::with_state(self.key.backend, self.key.ipad, H::BLOCK_LEN as u64),
        );
        self.finish(&mut inner)
    }

    /// Back to the fresh state under the same key (the old state is wiped).
    pub fn reset(&mut self) {
        self.inner = Engine::with_state(self.key.backend, self.key.ipad, H::BLOCK_LEN as u64);
    }

    /// Checks a full-length tag in constant time.
    pub fn verify(&self, tag: &[u8]) -> Result<(), Error> {
        let mut d = self.finalize();
        let r = check(d.as_ref(), tag, H::OUTPUT_LEN);
        d.zeroize();
        r
    }

    /// Checks a tag truncated to `expected_len` bytes in constant time; `tag.len()` must equal
    /// `expected_len` (see [`HmacKey::verify_truncated`] for the accepted range).
    pub fn verify_truncated(&self, tag: &[u8], expected_len: usize) -> Result<(), Error> {
        let mut d = self.finalize();
        let r = check_truncated(d.as_ref(), tag, expected_len);
        d.zeroize();
        r
    }
}

#[cfg(feature = "std")]
impl<H: Sha2> std::io::Write for Hmac<H> {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

macro_rules! oneshot {
    ($func:ident, $h:ident, $n:literal, $title:literal) => {
        #[doc = concat!("One-shot ", $title, " of `msg` under `key` (compare tags with [`HmacKey::verify`], not `==`).")]
        #[inline]
        pub fn $func(key: &[u8], msg: &[u8]) -> [u8; $n] {
            HmacKey::<$h>::new(key).sign(msg)
        }
    };
}
oneshot!(hmac_sha224, Sha224, 28, "HMAC-SHA-224");
oneshot!(hmac_sha256, Sha256, 32, "HMAC-SHA-256");
oneshot!(hmac_sha384, Sha384, 48, "HMAC-SHA-384");
oneshot!(hmac_sha512, Sha512, 64, "HMAC-SHA-512");
oneshot!(hmac_sha512_256, Sha512_256, 32, "HMAC-SHA-512/256");
