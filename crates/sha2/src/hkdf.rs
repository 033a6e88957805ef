//! HKDF (RFC 5869) over any SHA-2 function of this crate, without allocation: `info` (and the
//! input keying material of [`extract_parts`]) come as several slices, as HPKE's labeled
//! functions need.
//!
//! ```
//! use tessera_sha2::{hkdf, Sha256};
//!
//! let prk = hkdf::extract::<Sha256>(b"salt", b"input keying material");
//! let mut okm = [0u8; 42];
//! prk.expand(&[b"context", b"-label"], &mut okm)?;
//!
//! let mut too_long = [0u8; 255 * 32 + 1];
//! assert_eq!(prk.expand(&[], &mut too_long), Err(tessera_sha2::Error::OutputTooLong));
//! assert!(too_long.iter().all(|&b| b == 0)); // left untouched
//! # Ok::<(), tessera_sha2::Error>(())
//! ```

use zeroize::Zeroize;

use crate::{Error, Hmac, HmacKey, Sha2};

/// A pseudorandom key (the output of HKDF-Extract), kept as precomputed HMAC key states.
/// Wiped on drop.
pub struct Prk<H: Sha2> {
    key: HmacKey<H>,
    bytes: H::Digest,
}

impl<H: Sha2> Clone for Prk<H> {
    fn clone(&self) -> Self {
        Self {
            key: self.key.clone(),
            bytes: self.bytes,
        }
    }
}

impl<H: Sha2> Drop for Prk<H> {
    fn drop(&mut self) {
        self.bytes.zeroize();
    }
}

impl<H: Sha2> core::fmt::Debug for Prk<H> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Prk { .. }")
    }
}

impl<H: Sha2> Prk<H> {
    /// A PRK from its bytes, which must be exactly `HashLen` long.
    pub fn from_bytes(prk: &[u8]) -> Result<Self, Error> {
        if prk.len() != H::OUTPUT_LEN {
            return Err(Error::InvalidPrkLength);
        }
        let mut bytes = H::ZERO_DIGEST;
        bytes.as_mut().copy_from_slice(prk);
        Ok(Self {
            key: HmacKey::new(prk),
            bytes,
        })
    }

    /// The PRK bytes (`HashLen` long).
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    /// HKDF-Expand (RFC 5869 section 2.3) with `info` the concatenation of the given slices.
    /// `out.len()` over `255 * HashLen` is [`Error::OutputTooLong`] and leaves `out` untouched.
    pub fn expand(&self, info: &[&[u8]], out: &mut [u8]) -> Result<(), Error> {
        expand_with_key(&self.key, info, out)
    }
}

fn expand_with_key<H: Sha2>(key: &HmacKey<H>, info: &[&[u8]], out: &mut [u8]) -> Result<(), Error> {
    if out.len() > 255 * H::OUTPUT_LEN {
        return Err(Error::OutputTooLong);
    }
    // T(i) = HMAC(PRK, T(i-1) || info || i), T(0) empty.
    let mut t = H::ZERO_DIGEST;
    let mut prev: usize = 0;
    for (i, chunk) in out.chunks_mut(H::OUTPUT_LEN).enumerate() {
        let mut m = Hmac::from_key(key);
        m.update(&t.as_ref()[..prev]);
        for part in info {
            m.update(part);
        }
        m.update(&[(i + 1) as u8]);
        t = m.finalize();
        chunk.copy_from_slice(&t.as_ref()[..chunk.len()]);
        prev = H::OUTPUT_LEN;
    }
    t.zeroize();
    Ok(())
}

/// HKDF-Extract (RFC 5869 section 2.2): `PRK = HMAC(salt, ikm)`. An empty salt is the
/// RFC's default of `HashLen` zero bytes (the same HMAC key).
pub fn extract<H: Sha2>(salt: &[u8], ikm: &[u8]) -> Prk<H> {
    extract_parts(salt, &[ikm])
}

/// HKDF-Extract with `ikm` the concatenation of the given slices (HPKE's `LabeledExtract`).
pub fn extract_parts<H: Sha2>(salt: &[u8], ikm: &[&[u8]]) -> Prk<H> {
    extract_on(HmacKey::new(salt), ikm)
}

/// [`extract_parts`] on a pinned backend (the returned PRK expands on it too), for tests and
/// benches; an error when the backend does not implement `H`.
#[doc(hidden)]
pub fn extract_parts_with_backend<H: Sha2>(
    backend: crate::Backend,
    salt: &[u8],
    ikm: &[&[u8]],
) -> Result<Prk<H>, Error> {
    Ok(extract_on(HmacKey::new_with_backend(backend, salt)?, ikm))
}

fn extract_on<H: Sha2>(salt: HmacKey<H>, ikm: &[&[u8]]) -> Prk<H> {
    let mut m = salt.hasher();
    for part in ikm {
        m.update(part);
    }
    let bytes = m.finalize();
    let backend = salt.backend();
    Prk {
        // The salt key's backend implements `H`, so this cannot fail.
        key: HmacKey::new_with_backend(backend, bytes.as_ref())
            .unwrap_or_else(|_| HmacKey::new(bytes.as_ref())),
        bytes,
    }
}

/// HKDF-Expand from PRK bytes (at least `HashLen` long, RFC 5869 section 2.3). Errors leave
/// `out` untouched.
pub fn expand<H: Sha2>(prk: &[u8], info: &[&[u8]], out: &mut [u8]) -> Result<(), Error> {
    if prk.len() < H::OUTPUT_LEN {
        return Err(Error::InvalidPrkLength);
    }
    expand_with_key(&HmacKey::<H>::new(prk), info, out)
}

/// Extract then expand. Errors leave `out` untouched.
pub fn hkdf<H: Sha2>(salt: &[u8], ikm: &[u8], info: &[&[u8]], out: &mut [u8]) -> Result<(), Error> {
    if out.len() > 255 * H::OUTPUT_LEN {
        return Err(Error::OutputTooLong);
    }
    extract::<H>(salt, ikm).expand(info, out)
}
