//! The error type of this crate.
#![forbid(unsafe_code)]

/// Errors of this crate.
///
/// # Examples
///
/// ```
/// use tessera_sha2::{hkdf, Error, HmacKey, Sha256};
///
/// let key = HmacKey::<Sha256>::new(b"key");
/// assert_eq!(key.verify(b"msg", &[0u8; 32]), Err(Error::Authentication));
/// let mut too_long = [0u8; 255 * 32 + 1];
/// assert_eq!(hkdf::expand::<Sha256>(&[0u8; 32], &[], &mut too_long), Err(Error::OutputTooLong));
/// assert_eq!(hkdf::Prk::<Sha256>::from_bytes(&[0u8; 31]).unwrap_err(), Error::InvalidPrkLength);
/// assert_eq!(Error::Authentication.to_string(), "HMAC authentication failed");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// An HMAC tag did not verify (wrong value, or a length the check does not accept).
    Authentication,
    /// HKDF-Expand was asked for more than `255 * HashLen` bytes (RFC 5869 section 2.3).
    OutputTooLong,
    /// An HKDF pseudorandom key of the wrong length (`Prk::from_bytes` wants exactly
    /// `HashLen` bytes, `hkdf::expand` at least `HashLen`).
    InvalidPrkLength,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::Authentication => "HMAC authentication failed",
            Error::OutputTooLong => "HKDF output longer than 255 * HashLen",
            Error::InvalidPrkLength => "HKDF pseudorandom key has the wrong length",
        })
    }
}

impl core::error::Error for Error {}
