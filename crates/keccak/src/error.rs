//! The error type of this crate.
#![forbid(unsafe_code)]

/// Errors of this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// TurboSHAKE domain byte outside `0x01..=0x7F`.
    InvalidDomain,
    /// Multi-way inputs or outputs of differing lengths.
    LengthMismatch,
    /// Multi-way output length not a multiple of the rate.
    NotBlockMultiple,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::InvalidDomain => "TurboSHAKE domain byte must be in 0x01..=0x7F",
            Error::LengthMismatch => "multi-way inputs/outputs must have equal lengths",
            Error::NotBlockMultiple => "multi-way output length must be a multiple of the rate",
        })
    }
}

impl core::error::Error for Error {}
