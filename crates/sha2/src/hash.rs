//! The SHA-2 hash functions: the [`Sha2`] trait, and the hashers and one-shot functions of
//! each variant on the incremental engine of its family's backend table.
#![forbid(unsafe_code)]

use tessera_cpu::BackendSet;

use crate::backend::{Sha256Backend, Sha512Backend};
use crate::block::{Oneshot, Table};
use crate::consts;
use crate::engine::Engine;
use crate::md::{self, Family};

/// The word type of a table's family.
type Word<T> = <<T as Table>::Fam as Family>::Word;

pub(crate) mod sealed {
    use crate::block::Table;
    use crate::md::Family;

    /// The internals of a SHA-2 variant (sealed: only this crate's hashers implement it).
    pub trait Variant: Clone {
        /// The family's backend table (the same type as `Sha2::Backend`).
        type F: Table;
        /// Initial hash value.
        const IV: [<<Self::F as Table>::Fam as Family>::Word; 8];
        /// Digest length in words.
        const WORDS: usize;
    }
}

/// A SHA-2 hash function of this crate (`Sha224`, `Sha256`, `Sha384`, `Sha512`,
/// `Sha512_256`), the parameter of `Hmac`, `HmacKey` and `hkdf`.
pub trait Sha2: sealed::Variant<F = <Self as Sha2>::Backend> {
    /// The backend table of this function's family, `testing::Sha256Backend` or
    /// `testing::Sha512Backend` (what `HmacKey::new_with_backend` and
    /// `hkdf::extract_parts_with_backend` take). For tests and benches; not a stable API.
    #[doc(hidden)]
    type Backend: Table;
    /// Digest length in bytes (`HashLen`).
    const OUTPUT_LEN: usize;
    /// Block length in bytes (64 or 128).
    const BLOCK_LEN: usize;
    /// The digest, `[u8; OUTPUT_LEN]`.
    ///
    /// **`==` on digests and tags is not constant time.** To check an HMAC tag use
    /// `HmacKey::verify` / `Hmac::verify` (or `verify_truncated`), which compare with
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
        const _: () = assert!($n % core::mem::size_of::<Word<$fam>>() == 0);

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
            pub const BLOCK_LEN: usize = <<$fam as Table>::Fam as Family>::BLOCK;

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
                backend.run(Oneshot { state: &mut st, data, prefix: 0 });
                let mut out = [0u8; $n];
                md::store(&st, &mut out);
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
                md::store(&e.state, &mut out);
                out
            }

            /// The digest, then the hasher is reset to its fresh state (same backend).
            #[inline]
            pub fn finalize_reset(&mut self) -> [u8; $n] {
                self.0.finish_in_place();
                let mut out = [0u8; $n];
                md::store(&self.0.state, &mut out);
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
            <$fam as BackendSet>::detect().run(Oneshot { state: &mut st, data, prefix: 0 });
            let mut out = [0u8; $n];
            md::store(&st, &mut out);
            out
        }

        impl sealed::Variant for $name {
            type F = $fam;
            const IV: [Word<$fam>; 8] = $iv;
            const WORDS: usize = $n / core::mem::size_of::<Word<$fam>>();
        }

        impl Sha2 for $name {
            type Backend = $fam;
            const OUTPUT_LEN: usize = $n;
            const BLOCK_LEN: usize = <<$fam as Table>::Fam as Family>::BLOCK;
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
