#![doc = include_str!("../README.md")]
#![no_std]
#![deny(unsafe_op_in_unsafe_fn)]
// `unsafe` is denied crate-wide and forbidden in every module outside `backend/`; only the ISA
// files there allow it (pointer loads and stores around the intrinsics). The crate root cannot
// say `forbid` without forbidding it in those files too, and `deny` cannot be lifted silently:
// an exception needs a visible `#[allow(unsafe_code)]` (see `backend.rs`).
#![deny(unsafe_code)]

#[cfg(any(feature = "std", test))]
extern crate std;

mod backend;
mod consts;
mod engine;
pub mod hkdf;
mod hmac;

/// The backend tables, for tests and benches (not a stable API): every hasher of a family
/// takes its family's table (`Sha256::new_with_backend(Sha256Backend::..)`), HMAC and HKDF
/// take `<H as Sha2>::Backend`.
#[doc(hidden)]
pub use backend::{Sha256Backend, Sha512Backend};
pub use hmac::{
    Hmac, HmacKey, hmac_sha224, hmac_sha256, hmac_sha384, hmac_sha512, hmac_sha512_256,
    min_truncated_len,
};

use engine::{Engine, Family};
use tessera_cpu::BackendSet;

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

pub(crate) mod sealed {
    #![forbid(unsafe_code)]
    use crate::engine::Family;

    /// The internals of a SHA-2 variant (sealed: only this crate's hashers implement it).
    pub trait Variant: Clone {
        /// Block function family and backend table (the same type as [`crate::Sha2::Backend`]).
        type F: Family;
        /// Initial hash value.
        const IV: [<Self::F as Family>::Word; 8];
        /// Digest length in words.
        const WORDS: usize;
    }
}

/// A SHA-2 hash function of this crate (`Sha224`, `Sha256`, `Sha384`, `Sha512`,
/// `Sha512_256`), the parameter of [`Hmac`], [`HmacKey`] and [`hkdf`].
pub trait Sha2: sealed::Variant<F = <Self as Sha2>::Backend> {
    /// The backend table of this function's family, [`Sha256Backend`] or [`Sha512Backend`]
    /// (what `HmacKey::new_with_backend` and `hkdf::extract_parts_with_backend` take). For
    /// tests and benches; not a stable API.
    #[doc(hidden)]
    type Backend: Family;
    /// Digest length in bytes (`HashLen`).
    const OUTPUT_LEN: usize;
    /// Block length in bytes (64 or 128).
    const BLOCK_LEN: usize;
    /// The digest, `[u8; OUTPUT_LEN]`.
    ///
    /// **`==` on digests and tags is not constant time.** To check an HMAC tag use
    /// [`HmacKey::verify`] / [`Hmac::verify`] (or `verify_truncated`), which compare with
    /// `subtle`; never compare a received tag with `==`.
    type Digest: Copy
        + AsRef<[u8]>
        + AsMut<[u8]>
        + core::fmt::Debug
        + PartialEq
        + Eq
        + zeroize::Zeroize;
    /// An all-zero digest (a buffer to write into).
    const ZERO_DIGEST: Self::Digest;
    /// One-shot hash of `data`.
    fn digest(data: &[u8]) -> Self::Digest;
}

/// `std::io::Write` for a hasher, so `std::io::copy(&mut reader, &mut hasher)` hashes a stream.
macro_rules! impl_write {
    ($name:ident) => {
        #[cfg(feature = "std")]
        impl std::io::Write for $name {
            #[inline]
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.update(buf);
                Ok(buf.len())
            }
            #[inline]
            fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
                self.update(buf);
                Ok(())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
    };
}

macro_rules! hasher {
    ($(#[$doc:meta])* $name:ident, $func:ident, $fam:ident, $iv:path, $n:literal, $title:literal,
     $abc:literal) => {
        // `engine::store` writes whole words only: the digest must be a whole number of words.
        const _: () = assert!($n % core::mem::size_of::<<$fam as Family>::Word>() == 0);

        $(#[$doc])*
        ///
        /// The chaining value and the buffered input are wiped when the hasher drops (and
        /// when it is reset).
        #[derive(Clone)]
        pub struct $name(Engine<$fam>);

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("backend", &self.backend().name())
                    .finish_non_exhaustive()
            }
        }

        impl $name {
            /// Digest length in bytes.
            pub const OUTPUT_LEN: usize = $n;
            /// Block length in bytes.
            pub const BLOCK_LEN: usize = <$fam as Family>::BLOCK;

            /// A fresh hasher on the best backend of this CPU.
            #[inline]
            pub fn new() -> Self {
                Self(Engine::with_state(<$fam as BackendSet>::detect(), $iv, 0))
            }

            /// A fresh hasher on `backend` (one of `all_available()` of the table). For tests
            /// and benches.
            #[doc(hidden)]
            #[inline]
            pub fn new_with_backend(backend: $fam) -> Self {
                Self(Engine::with_state(backend, $iv, 0))
            }

            #[doc = concat!("One-shot ", $title, " on `backend` (the path [`", stringify!($func), "`] takes). For tests and benches.")]
            #[doc(hidden)]
            #[inline]
            pub fn digest_with_backend(backend: $fam, data: &[u8]) -> [u8; $n] {
                let mut st = $iv;
                backend.oneshot(&mut st, data, 0);
                let mut out = [0u8; $n];
                engine::store(&st, &mut out);
                out
            }

            /// The backend this hasher runs on (for tests and benches).
            #[doc(hidden)]
            pub fn backend(&self) -> $fam {
                self.0.backend
            }

            /// Absorbs more input.
            #[inline]
            pub fn update(&mut self, data: &[u8]) -> &mut Self {
                self.0.update(data);
                self
            }

            /// The digest of everything absorbed so far (the hasher is left unchanged).
            /// `==` on the result is not constant time (see [`Sha2::Digest`]).
            #[inline]
            pub fn finalize(&self) -> [u8; $n] {
                // The padded copy is wiped when it drops.
                let mut e = self.0.clone();
                e.finish_in_place();
                let mut out = [0u8; $n];
                engine::store(&e.state, &mut out);
                out
            }

            /// The digest, then the hasher is reset to its fresh state (same backend).
            #[inline]
            pub fn finalize_reset(&mut self) -> [u8; $n] {
                self.0.finish_in_place();
                let mut out = [0u8; $n];
                engine::store(&self.0.state, &mut out);
                self.reset();
                out
            }

            /// Resets to the fresh state, keeping the backend (the old state is wiped).
            pub fn reset(&mut self) {
                self.0 = Engine::with_state(self.0.backend, $iv, 0);
            }
        }

        #[doc = concat!("One-shot ", $title, " (FIPS 180-4).")]
        ///
        /// `==` on digests is not constant time (see [`Sha2::Digest`]).
        ///
        /// # Examples
        ///
        /// ```
        #[doc = concat!("use tessera_sha2::{", stringify!($func), ", ", stringify!($name), "};")]
        ///
        #[doc = concat!("let d = ", stringify!($func), "(b\"abc\");")]
        #[doc = concat!("assert_eq!(d.len(), ", stringify!($n), ");")]
        #[doc = concat!("assert_eq!(d[..4], ", $abc, "); // FIPS 180-4 example")]
        #[doc = concat!("assert_eq!(d, ", stringify!($name), "::new().update(b\"ab\").update(b\"c\").finalize());")]
        /// ```
        #[inline]
        pub fn $func(data: &[u8]) -> [u8; $n] {
            let mut st = $iv;
            <$fam as BackendSet>::detect().oneshot(&mut st, data, 0);
            let mut out = [0u8; $n];
            engine::store(&st, &mut out);
            out
        }

        impl sealed::Variant for $name {
            type F = $fam;
            const IV: [<$fam as Family>::Word; 8] = $iv;
            const WORDS: usize = $n / core::mem::size_of::<<$fam as Family>::Word>();
        }

        impl Sha2 for $name {
            type Backend = $fam;
            const OUTPUT_LEN: usize = $n;
            const BLOCK_LEN: usize = <$fam as Family>::BLOCK;
            type Digest = [u8; $n];
            const ZERO_DIGEST: [u8; $n] = [0; $n];
            #[inline]
            fn digest(data: &[u8]) -> [u8; $n] {
                $func(data)
            }
        }

        impl_write!($name);
    };
}

hasher!(
    /// SHA-224 (FIPS 180-4 section 6.3): SHA-256 with its own initial value, truncated to 28
    /// bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use tessera_sha2::{sha224, Sha224};
    ///
    /// let mut h = Sha224::new();
    /// h.update(b"ab").update(b"c");
    /// let d = h.finalize();
    /// assert_eq!(d.len(), 28);
    /// assert_eq!(d, sha224(b"abc"));
    /// assert_eq!(d[..4], [0x23, 0x09, 0x7d, 0x22]);
    /// ```
    Sha224, sha224, Sha256Backend, consts::IV224, 28, "SHA-224", "[0x23, 0x09, 0x7d, 0x22]");
hasher!(
    /// SHA-256 (FIPS 180-4 section 6.2).
    ///
    /// # Examples
    ///
    /// ```
    /// use tessera_sha2::{sha256, Sha256};
    ///
    /// let mut h = Sha256::new();
    /// h.update(b"ab").update(b"c");
    /// assert_eq!(h.finalize(), sha256(b"abc"));
    /// assert_eq!(sha256(b"abc")[..4], [0xba, 0x78, 0x16, 0xbf]);
    /// ```
    Sha256, sha256, Sha256Backend, consts::IV256, 32, "SHA-256", "[0xba, 0x78, 0x16, 0xbf]");
hasher!(
    /// SHA-384 (FIPS 180-4 section 6.5): SHA-512 with its own initial value, truncated to 48
    /// bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use tessera_sha2::{sha384, Sha384};
    ///
    /// let mut h = Sha384::new();
    /// h.update(b"a").update(b"bc");
    /// let d = h.finalize_reset();
    /// assert_eq!(d, sha384(b"abc"));
    /// assert_eq!(d[..4], [0xcb, 0x00, 0x75, 0x3f]);
    /// assert_eq!(h.finalize(), sha384(b"")); // reset to the empty message
    /// ```
    Sha384, sha384, Sha512Backend, consts::IV384, 48, "SHA-384", "[0xcb, 0x00, 0x75, 0x3f]");
hasher!(
    /// SHA-512 (FIPS 180-4 section 6.4).
    ///
    /// # Examples
    ///
    /// ```
    /// use tessera_sha2::{sha512, Sha512};
    ///
    /// let d = Sha512::new().update(b"a").update(b"bc").finalize();
    /// assert_eq!(d, sha512(b"abc"));
    /// assert_eq!(d[..4], [0xdd, 0xaf, 0x35, 0xa1]);
    /// ```
    Sha512, sha512, Sha512Backend, consts::IV512, 64, "SHA-512", "[0xdd, 0xaf, 0x35, 0xa1]");
hasher!(
    /// SHA-512/256 (FIPS 180-4 section 6.7): SHA-512 with its own initial value, truncated to
    /// 32 bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use tessera_sha2::{sha512_256, Sha512_256};
    ///
    /// let d = Sha512_256::new().update(b"abc").finalize();
    /// assert_eq!(d, sha512_256(b"abc"));
    /// assert_eq!(d[..4], [0x53, 0x04, 0x8e, 0x26]);
    /// ```
    Sha512_256, sha512_256, Sha512Backend, consts::IV512_256, 32, "SHA-512/256", "[0x53, 0x04, 0x8e, 0x26]");

/// Small checks that Miri runs on the portable path (the vector sets are in `tests/`); natively
/// on every backend of both tables.
#[cfg(test)]
mod tests {
    use super::*;
    use std::format;
    use tessera_testkit::{check_backends, for_each_backend, hex};

    /// FIPS 180-4 examples: "abc" for every size, the two-block 448-bit message for SHA-256
    /// (one-shot and split).
    #[test]
    fn fips_abc() {
        let m448 = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        for_each_backend::<Sha256Backend>(|be| {
            let n = be.name();
            let d = hex::decode("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
            assert_eq!(Sha256::digest_with_backend(be, b"abc")[..], d[..], "{n}");
            let d = hex::decode("23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7");
            assert_eq!(Sha224::digest_with_backend(be, b"abc")[..], d[..], "{n}");
            let d = hex::decode("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
            assert_eq!(Sha256::digest_with_backend(be, m448)[..], d[..], "{n}");
            let mut h = Sha256::new_with_backend(be);
            h.update(&m448[..13]).update(&m448[13..]);
            assert_eq!(h.finalize()[..], d[..], "{n}");
        });
        for_each_backend::<Sha512Backend>(|be| {
            let n = be.name();
            let d = hex::decode(
                "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
            );
            assert_eq!(Sha384::digest_with_backend(be, b"abc")[..], d[..], "{n}");
            let d = hex::decode(
                "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
            );
            assert_eq!(Sha512::digest_with_backend(be, b"abc")[..], d[..], "{n}");
            let d = hex::decode("53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23");
            assert_eq!(
                Sha512_256::digest_with_backend(be, b"abc")[..],
                d[..],
                "{n}"
            );
        });
        // The public one-shots (default backend).
        assert_eq!(sha256(b"abc"), Sha256::new().update(b"abc").finalize());
        assert_eq!(sha512(b"abc"), Sha512::new().update(b"abc").finalize());
    }

    /// Padding edge lengths: one-shot against incremental byte-by-byte, every backend against
    /// portable.
    #[test]
    fn padding_edges_incremental() {
        let m = [0x61u8; 130];
        for n in [
            0usize, 55, 56, 63, 64, 65, 111, 112, 119, 120, 127, 128, 129,
        ] {
            check_backends::<Sha256Backend, _>(format!("SHA-256 len {n}"), |be| {
                let mut a = Sha256::new_with_backend(be);
                for byte in &m[..n] {
                    a.update(core::slice::from_ref(byte));
                }
                let one = Sha256::digest_with_backend(be, &m[..n]);
                assert_eq!(a.finalize(), one, "{n} on {}", be.name());
                one
            });
            check_backends::<Sha512Backend, _>(format!("SHA-512 len {n}"), |be| {
                let mut b = Sha512::new_with_backend(be);
                for byte in &m[..n] {
                    b.update(core::slice::from_ref(byte));
                }
                let one = Sha512::digest_with_backend(be, &m[..n]);
                assert_eq!(b.finalize(), one, "{n} on {}", be.name());
                one
            });
        }
    }

    /// RFC 4231 test case 2 (HMAC-SHA-256 and -512) and RFC 5869 A.3 (HKDF-SHA-256), every
    /// backend.
    #[test]
    fn rfc_hmac_hkdf() {
        let m = b"what do ya want for nothing?";
        let d256 = hex::decode("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        let d512 = hex::decode(
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
        );
        let okm = hex::decode(
            "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8",
        );
        assert_eq!(hmac_sha256(b"Jefe", m)[..], d256[..]);
        assert_eq!(hmac_sha512(b"Jefe", m)[..], d512[..]);
        for_each_backend::<Sha256Backend>(|be| {
            let k = HmacKey::<Sha256>::new_with_backend(be, b"Jefe");
            assert_eq!(k.sign(m)[..], d256[..], "{}", be.name());
            assert_eq!(k.verify(m, &d256), Ok(()), "{}", be.name());
            let prk = hkdf::extract_parts_with_backend::<Sha256>(be, &[], &[&[0x0b; 22]]);
            let mut out = [0u8; 42];
            prk.expand(&[], &mut out).unwrap();
            assert_eq!(out[..], okm[..], "{}", be.name());
        });
        for_each_backend::<Sha512Backend>(|be| {
            let k = HmacKey::<Sha512>::new_with_backend(be, b"Jefe");
            assert_eq!(k.sign(m)[..], d512[..], "{}", be.name());
            let mut bad = d512.clone();
            bad[63] ^= 1;
            assert_eq!(
                k.verify(m, &bad),
                Err(Error::Authentication),
                "{}",
                be.name()
            );
        });
        let mut okm2 = [0u8; 42];
        hkdf::hkdf::<Sha256>(&[], &[0x0b; 22], &[], &mut okm2).unwrap();
        assert_eq!(okm2[..], okm[..]);
        let mut big = [7u8; 255 * 32 + 1];
        assert_eq!(
            hkdf::hkdf::<Sha256>(&[], &[1], &[], &mut big),
            Err(Error::OutputTooLong)
        );
        assert!(big.iter().all(|&b| b == 7));
    }

    /// `reset` and `finalize_reset` bring a hasher back to the fresh state on its backend.
    #[test]
    fn reset_keeps_the_backend() {
        for_each_backend::<Sha512Backend>(|be| {
            let mut h = Sha384::new_with_backend(be);
            h.update(b"some input");
            assert_eq!(
                h.finalize_reset(),
                Sha384::digest_with_backend(be, b"some input")
            );
            assert_eq!(h.backend(), be);
            h.update(b"x");
            h.reset();
            assert_eq!(h.finalize(), Sha384::digest_with_backend(be, b""));
        });
    }
}
