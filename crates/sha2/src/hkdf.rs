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
#![forbid(unsafe_code)]

use zeroize::Zeroize;

use crate::error::Error;
use crate::hash::Sha2;
use crate::hmac::{Hmac, HmacKey};

/// A pseudorandom key (the output of HKDF-Extract), kept as precomputed HMAC key states.
/// Wiped on drop.
///
/// # Examples
///
/// ```
/// use tessera_sha2::{hkdf, Sha256};
///
/// let prk = hkdf::extract::<Sha256>(b"salt", b"input keying material");
/// // The same PRK from its bytes (e.g. a PRK another party derived).
/// let again = hkdf::Prk::<Sha256>::from_bytes(prk.as_bytes())?;
/// let (mut a, mut b) = ([0u8; 40], [0u8; 40]);
/// prk.expand(&[b"info"], &mut a)?;
/// again.expand(&[b"in", b"fo"], &mut b)?; // `info` in pieces: the same bytes
/// assert_eq!(a, b);
/// # Ok::<(), tessera_sha2::Error>(())
/// ```
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
///
/// # Examples
///
/// RFC 5869 test case 1:
///
/// ```
/// use tessera_sha2::{hkdf, Sha256};
///
/// let salt: Vec<u8> = (0u8..=0x0c).collect();
/// let prk = hkdf::extract::<Sha256>(&salt, &[0x0b; 22]);
/// assert_eq!(prk.as_bytes()[..4], [0x07, 0x77, 0x09, 0x36]);
/// // An empty salt is HashLen zero bytes.
/// let a = hkdf::extract::<Sha256>(&[], b"ikm");
/// let b = hkdf::extract::<Sha256>(&[0; 32], b"ikm");
/// assert_eq!(a.as_bytes(), b.as_bytes());
/// ```
pub fn extract<H: Sha2>(salt: &[u8], ikm: &[u8]) -> Prk<H> {
    extract_parts(salt, &[ikm])
}

/// HKDF-Extract with `ikm` the concatenation of the given slices (HPKE's `LabeledExtract`).
///
/// # Examples
///
/// ```
/// use tessera_sha2::{hkdf, Sha384};
///
/// let whole = hkdf::extract::<Sha384>(b"salt", b"HPKE-v1 label ikm");
/// let parts = hkdf::extract_parts::<Sha384>(b"salt", &[b"HPKE-v1", b" label", b" ikm"]);
/// assert_eq!(whole.as_bytes(), parts.as_bytes());
/// ```
pub fn extract_parts<H: Sha2>(salt: &[u8], ikm: &[&[u8]]) -> Prk<H> {
    extract_on(HmacKey::new(salt), ikm)
}

/// [`extract_parts`] on a pinned backend (the returned PRK expands on it too), for tests and
/// benches.
#[doc(hidden)]
pub fn extract_parts_with_backend<H: Sha2>(
    backend: H::Backend,
    salt: &[u8],
    ikm: &[&[u8]],
) -> Prk<H> {
    extract_on(HmacKey::new_with_backend(backend, salt), ikm)
}

fn extract_on<H: Sha2>(salt: HmacKey<H>, ikm: &[&[u8]]) -> Prk<H> {
    let mut m = salt.hasher();
    for part in ikm {
        m.update(part);
    }
    let bytes = m.finalize();
    Prk {
        key: HmacKey::new_with_backend(salt.backend(), bytes.as_ref()),
        bytes,
    }
}

/// HKDF-Expand from PRK bytes (at least `HashLen` long, RFC 5869 section 2.3). Errors leave
/// `out` untouched.
///
/// # Examples
///
/// RFC 5869 test case 1 from its PRK:
///
/// ```
/// use tessera_sha2::{hkdf, Error, Sha256};
///
/// let prk = [
///     0x07, 0x77, 0x09, 0x36, 0x2c, 0x2e, 0x32, 0xdf, 0x0d, 0xdc, 0x3f, 0x0d, 0xc4, 0x7b,
///     0xba, 0x63, 0x90, 0xb6, 0xc7, 0x3b, 0xb5, 0x0f, 0x9c, 0x31, 0x22, 0xec, 0x84, 0x4a,
///     0xd7, 0xc2, 0xb3, 0xe5,
/// ];
/// let info: Vec<u8> = (0xf0u8..=0xf9).collect();
/// let mut okm = [0u8; 42];
/// hkdf::expand::<Sha256>(&prk, &[&info], &mut okm)?;
/// assert_eq!(okm[..4], [0x3c, 0xb2, 0x5f, 0x25]);
/// assert_eq!(hkdf::expand::<Sha256>(&prk[..31], &[], &mut okm), Err(Error::InvalidPrkLength));
/// # Ok::<(), Error>(())
/// ```
pub fn expand<H: Sha2>(prk: &[u8], info: &[&[u8]], out: &mut [u8]) -> Result<(), Error> {
    if prk.len() < H::OUTPUT_LEN {
        return Err(Error::InvalidPrkLength);
    }
    expand_with_key(&HmacKey::<H>::new(prk), info, out)
}

/// Extract then expand. Errors leave `out` untouched.
///
/// # Examples
///
/// RFC 5869 test case 1:
///
/// ```
/// use tessera_sha2::{hkdf, Error, Sha256};
///
/// let salt: Vec<u8> = (0u8..=0x0c).collect();
/// let info: Vec<u8> = (0xf0u8..=0xf9).collect();
/// let mut okm = [0u8; 42];
/// hkdf::hkdf::<Sha256>(&salt, &[0x0b; 22], &[&info], &mut okm)?;
/// assert_eq!(okm[..4], [0x3c, 0xb2, 0x5f, 0x25]);
/// assert_eq!(okm[40..], [0x58, 0x65]);
///
/// let mut too_long = [0u8; 255 * 32 + 1];
/// assert_eq!(hkdf::hkdf::<Sha256>(&salt, b"ikm", &[], &mut too_long), Err(Error::OutputTooLong));
/// # Ok::<(), Error>(())
/// ```
pub fn hkdf<H: Sha2>(salt: &[u8], ikm: &[u8], info: &[&[u8]], out: &mut [u8]) -> Result<(), Error> {
    if out.len() > 255 * H::OUTPUT_LEN {
        return Err(Error::OutputTooLong);
    }
    extract::<H>(salt, ikm).expand(info, out)
}
