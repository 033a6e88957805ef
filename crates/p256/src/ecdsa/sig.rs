//! The two signature encodings: fixed-size `r || s` (IEEE P1363, 64 bytes) and the DER
//! `ECDSA-Sig-Value` of SEC 1 appendix C.5 / RFC 3279 section 2.2.3
//! (`SEQUENCE { r INTEGER, s INTEGER }`), parsed strictly: definite short-form lengths (the
//! longest encoding is 72 bytes, so a long form is never minimal), minimal positive INTEGERs,
//! nothing after the SEQUENCE. Both types hold only values with `r` and `s` in `[1, n - 1]`.
#![forbid(unsafe_code)]

use crate::Error;
use crate::scalar::Scalar;

/// An ECDSA P-256 signature `(r, s)` in its fixed-size form `r || s` (32 bytes each,
/// big-endian; IEEE P1363, the form of WebCrypto, JOSE and COSE). Both halves are in
/// `[1, n - 1]` (every constructor checks).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Signature {
    bytes: [u8; 64],
}

/// The scalar of a signature half, if it is in `[1, n - 1]`.
fn half(b: &[u8; 32]) -> Option<Scalar> {
    let (s, in_range) = Scalar::from_be_bytes_checked(b);
    (bool::from(in_range) && !bool::from(s.is_zero())).then_some(s)
}

impl Signature {
    /// The signature of its 64-byte `r || s` form; [`Error::SignatureOutOfRange`] unless both
    /// halves are in `[1, n - 1]`.
    pub fn from_bytes(bytes: &[u8; 64]) -> Result<Self, Error> {
        let sig = Signature { bytes: *bytes };
        let (r, s) = sig.halves();
        if half(r).is_some() && half(s).is_some() {
            Ok(sig)
        } else {
            Err(Error::SignatureOutOfRange)
        }
    }

    /// [`Signature::from_bytes`] from a slice ([`Error::InvalidLength`] unless 64 bytes).
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_bytes(bytes.try_into().map_err(|_| Error::InvalidLength)?)
    }

    /// The signature with `r` and `s` given as 32-byte big-endian integers.
    pub fn from_scalars(r: &[u8; 32], s: &[u8; 32]) -> Result<Self, Error> {
        let mut b = [0u8; 64];
        b[..32].copy_from_slice(r);
        b[32..].copy_from_slice(s);
        Self::from_bytes(&b)
    }

    /// The 64-byte `r || s` form.
    pub fn to_bytes(&self) -> [u8; 64] {
        self.bytes
    }

    /// `r`, 32 bytes big-endian.
    pub fn r(&self) -> [u8; 32] {
        let mut r = [0u8; 32];
        r.copy_from_slice(&self.bytes[..32]);
        r
    }

    /// `s`, 32 bytes big-endian.
    pub fn s(&self) -> [u8; 32] {
        let mut s = [0u8; 32];
        s.copy_from_slice(&self.bytes[32..]);
        s
    }

    /// `(r, s)` as scalars (in range by construction).
    pub(crate) fn scalars(&self) -> (Scalar, Scalar) {
        let (r, s) = self.halves();
        (
            Scalar::from_be_bytes_checked(r).0,
            Scalar::from_be_bytes_checked(s).0,
        )
    }

    fn halves(&self) -> (&[u8; 32], &[u8; 32]) {
        let (r, s) = self.bytes.split_at(32);
        // Both halves are 32 bytes of a 64-byte array.
        (
            r.try_into().unwrap_or(&[0; 32]),
            s.try_into().unwrap_or(&[0; 32]),
        )
    }

    /// The signature of two scalars the signer computed (both nonzero and below `n`).
    pub(crate) fn from_scalar_values(r: &Scalar, s: &Scalar) -> Self {
        let mut bytes = [0u8; 64];
        bytes[..32].copy_from_slice(&r.to_be_bytes());
        bytes[32..].copy_from_slice(&s.to_be_bytes());
        Signature { bytes }
    }

    /// Whether `s` is "high" (above `(n - 1) / 2`). Every signature `(r, s)` has the twin
    /// `(r, n - s)`, which verifies as well; the low-s rule (BIP 62, Bitcoin and some other
    /// protocols) accepts only the one with `s <= (n - 1) / 2`.
    pub fn is_high_s(&self) -> bool {
        bool::from(self.scalars().1.is_high())
    }

    /// The low-s form: `(r, n - s)` when `s` is high, else the signature itself. This is how
    /// to get low-s signatures: signing returns the RFC 6979 signature as computed (the
    /// form the RFC's vectors and other implementations produce), and `sign(msg).normalize_s()`
    /// is its low-s form. Verification accepts both forms.
    #[must_use]
    pub fn normalize_s(&self) -> Self {
        let (r, s) = self.scalars();
        if s.is_high().into() {
            Self::from_scalar_values(&r, &s.neg())
        } else {
            *self
        }
    }

    /// The signature of its strict DER encoding (see the module docs):
    /// [`Error::InvalidDer`] for a malformed encoding (wrong tags, long-form or wrong lengths,
    /// negative or non-minimal integers, trailing bytes), [`Error::SignatureOutOfRange`] for
    /// well-formed integers outside `[1, n - 1]`.
    pub fn from_der(der: &[u8]) -> Result<Self, Error> {
        let body = match der {
            [0x30, len, body @ ..] if *len < 0x80 && usize::from(*len) == body.len() => body,
            _ => return Err(Error::InvalidDer),
        };
        let (r, rest) = der_integer(body)?;
        let (s, rest) = der_integer(rest)?;
        if !rest.is_empty() {
            return Err(Error::InvalidDer);
        }
        Self::from_scalars(&r, &s)
    }

    /// The DER encoding (at most 72 bytes, held inline).
    pub fn to_der(&self) -> DerSignature {
        DerSignature::from(*self)
    }
}

/// One DER INTEGER at the start of `b`, as a 32-byte big-endian value, and the bytes after it.
/// A positive integer of up to 32 significant bytes (else out of range), minimally encoded.
fn der_integer(b: &[u8]) -> Result<([u8; 32], &[u8]), Error> {
    let (len, rest) = match b {
        [0x02, len, rest @ ..] if *len < 0x80 => (usize::from(*len), rest),
        _ => return Err(Error::InvalidDer),
    };
    if len == 0 || len > rest.len() {
        return Err(Error::InvalidDer);
    }
    let (v, rest) = rest.split_at(len);
    // Negative (sign bit set), or a leading zero byte that is not needed for the sign.
    if v[0] & 0x80 != 0 || (v.len() > 1 && v[0] == 0 && v[1] & 0x80 == 0) {
        return Err(Error::InvalidDer);
    }
    let v = if v[0] == 0 { &v[1..] } else { v };
    if v.len() > 32 {
        return Err(Error::SignatureOutOfRange);
    }
    let mut out = [0u8; 32];
    out[32 - v.len()..].copy_from_slice(v);
    Ok((out, rest))
}

/// The DER encoding of an INTEGER of 32 big-endian bytes into `out`; the bytes written.
fn put_der_integer(out: &mut [u8], v: &[u8; 32]) -> usize {
    let skip = v.iter().take_while(|&&b| b == 0).count().min(31);
    let v = &v[skip..];
    let pad = usize::from(v[0] & 0x80 != 0);
    let len = v.len() + pad;
    out[0] = 0x02;
    out[1] = len as u8;
    out[2] = 0;
    out[2 + pad..2 + len].copy_from_slice(v);
    2 + len
}

impl core::fmt::Debug for Signature {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Signature(")?;
        for b in self.bytes {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

impl TryFrom<&[u8]> for Signature {
    type Error = Error;
    /// [`Signature::from_slice`] (the 64-byte form).
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_slice(bytes)
    }
}

impl From<Signature> for [u8; 64] {
    fn from(sig: Signature) -> [u8; 64] {
        sig.bytes
    }
}

/// The longest DER signature: `30 46 (02 21 00 r) (02 21 00 s)`.
pub const MAX_DER_LEN: usize = 72;

/// An ECDSA P-256 signature in its DER form (SEC 1 appendix C.5; X.509, TLS 1.2 and 1.3,
/// CMS): at most [`MAX_DER_LEN`] bytes held inline (no allocation), next to the fixed-size
/// signature it encodes. Built from a [`Signature`] or parsed strictly
/// ([`Signature::from_der`]).
#[derive(Clone, Copy)]
pub struct DerSignature {
    sig: Signature,
    buf: [u8; MAX_DER_LEN],
    len: u8,
}

impl DerSignature {
    /// A DER signature from its strict encoding ([`Signature::from_der`]'s rules and errors).
    pub fn from_bytes(der: &[u8]) -> Result<Self, Error> {
        Signature::from_der(der).map(Self::from)
    }

    /// The DER bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..usize::from(self.len)]
    }

    /// The fixed-size signature it encodes.
    pub fn signature(&self) -> &Signature {
        &self.sig
    }
}

impl From<Signature> for DerSignature {
    fn from(sig: Signature) -> Self {
        let mut buf = [0u8; MAX_DER_LEN];
        let (r, s) = sig.halves();
        let n = put_der_integer(&mut buf[2..], r);
        let m = put_der_integer(&mut buf[2 + n..], s);
        buf[0] = 0x30;
        buf[1] = (n + m) as u8;
        DerSignature {
            sig,
            buf,
            len: (2 + n + m) as u8,
        }
    }
}

impl From<DerSignature> for Signature {
    fn from(der: DerSignature) -> Signature {
        der.sig
    }
}

impl TryFrom<&[u8]> for DerSignature {
    type Error = Error;
    /// [`DerSignature::from_bytes`].
    fn try_from(der: &[u8]) -> Result<Self, Error> {
        Self::from_bytes(der)
    }
}

impl AsRef<[u8]> for DerSignature {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl PartialEq for DerSignature {
    fn eq(&self, other: &Self) -> bool {
        self.sig == other.sig
    }
}

impl Eq for DerSignature {}

impl core::hash::Hash for DerSignature {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.sig.hash(state);
    }
}

impl core::fmt::Debug for DerSignature {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("DerSignature(")?;
        for b in self.as_bytes() {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}
