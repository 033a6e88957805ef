#![doc = include_str!("../README.md")]
#![no_std]
// Unsafe code lives only in `backend/` (pointer loads and stores of the SIMD backends); every
// other module also forbids it itself.
#![deny(unsafe_code)]

#[cfg(feature = "std")]
extern crate std;

mod backend;
#[cfg(feature = "digest")]
pub mod digest;
mod error;
mod keccak;
mod multi;
mod perm;
mod sponge;
pub mod x4;

// The backend tables at the root: ML-KEM and ML-DSA keep an `X1Backend` in their key state and
// pick an `X4Backend` for their samplers (library code, so these stay reachable here). Not a
// stable API; tests and benches use `testing`.
#[doc(hidden)]
pub use backend::X1Backend;
#[doc(hidden)]
pub use backend::X4Backend;
pub use error::Error;
pub use multi::{Shake128x2, Shake128x4, Shake256x2, Shake256x4};

use sponge::Sponge;

/// For tests and benches (not a stable API): the backend tables, whose rows every hasher's
/// `new_with_backend` takes, and the backend name for bench reports.
#[doc(hidden)]
pub mod testing {
    pub use crate::backend::{X1Backend, X4Backend};

    /// The backend a new SHA-3 / SHAKE / TurboSHAKE hasher would use here (`portable`,
    /// `x86_bmi`, `aarch64_sha3`), for bench reports.
    pub fn x1_backend_name() -> &'static str {
        X1Backend::detect().name()
    }
}

/// `Debug` that names the type and never prints the state (which is secret-derived).
macro_rules! impl_debug {
    ($name:ident) => {
        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name)).finish_non_exhaustive()
            }
        }
    };
}

/// `std::io::Write` for a hasher, so `std::io::copy(&mut reader, &mut hasher)` hashes a stream.
macro_rules! impl_write {
    ($name:ident) => {
        #[cfg(feature = "std")]
        impl std::io::Write for $name {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.update(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
    };
}

macro_rules! sha3 {
    ($(#[$doc:meta])* $name:ident, $func:ident, $n:literal) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name(Sponge);

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl $name {
            /// Digest length in bytes.
            pub const OUTPUT_LEN: usize = $n;
            /// Rate (block size) in bytes.
            pub const RATE: usize = 200 - 2 * $n;

            /// A fresh hasher.
            pub fn new() -> Self {
                Self::new_with_backend(X1Backend::detect())
            }
            /// As [`Self::new`] on an explicit single-state backend (tests and benches).
            #[doc(hidden)]
            pub fn new_with_backend(backend: X1Backend) -> Self {
                Self(Sponge::new(200 - 2 * $n, 24, backend))
            }
            /// Absorbs more input.
            pub fn update(&mut self, data: &[u8]) -> &mut Self {
                self.0.absorb(data);
                self
            }
            /// The digest of everything absorbed so far (the hasher is left unchanged).
            pub fn finalize(&self) -> [u8; $n] {
                let mut s = self.0.clone();
                s.pad(0x06);
                let mut out = [0u8; $n];
                s.squeeze(&mut out);
                out
            }
            /// The digest, then the hasher is reset to its fresh state.
            ///
            /// ```
            #[doc = concat!("use tessera_keccak::{", stringify!($name), ", ", stringify!($func), "};")]
            ///
            #[doc = concat!("let mut h = ", stringify!($name), "::new();")]
            /// h.update(b"first message");
            #[doc = concat!("assert_eq!(h.finalize_reset(), ", stringify!($func), "(b\"first message\"));")]
            /// // Fresh again: the next digest covers only what follows.
            /// h.update(b"second");
            #[doc = concat!("assert_eq!(h.finalize_reset(), ", stringify!($func), "(b\"second\"));")]
            #[doc = concat!("assert_eq!(h.finalize(), ", stringify!($func), "(b\"\"));")]
            /// ```
            pub fn finalize_reset(&mut self) -> [u8; $n] {
                let out = self.finalize();
                self.0.reset();
                out
            }
        }

        #[doc = concat!("One-shot ", stringify!($name), ": the digest of `data`.")]
        ///
        /// The same digest as the incremental hasher, however the input is split (here across
        /// block boundaries):
        ///
        /// ```
        #[doc = concat!("use tessera_keccak::{", stringify!($name), ", ", stringify!($func), "};")]
        ///
        /// let msg = [0x5Au8; 500];
        #[doc = concat!("let d = ", stringify!($func), "(&msg);")]
        #[doc = concat!("assert_eq!(d.len(), ", stringify!($name), "::OUTPUT_LEN);")]
        #[doc = concat!("let mut h = ", stringify!($name), "::new();")]
        /// for chunk in msg.chunks(77) {
        ///     h.update(chunk);
        /// }
        /// assert_eq!(h.finalize(), d);
        #[doc = concat!("assert_ne!(", stringify!($func), "(&msg[..499]), d);")]
        /// ```
        pub fn $func(data: &[u8]) -> [u8; $n] {
            let mut s = Sponge::new(200 - 2 * $n, 24, X1Backend::detect());
            s.absorb(data);
            s.pad(0x06);
            let mut out = [0u8; $n];
            s.squeeze(&mut out);
            out
        }

        impl_write!($name);
        impl_debug!($name);
    };
}

sha3!(
    /// SHA3-224 (FIPS 202).
    Sha3_224, sha3_224, 28);
sha3!(
    /// SHA3-256 (FIPS 202).
    ///
    /// ```
    /// let d = tessera_keccak::Sha3_256::new().update(b"ab").update(b"c").finalize();
    /// assert_eq!(d, tessera_keccak::sha3_256(b"abc"));
    /// ```
    Sha3_256, sha3_256, 32);
sha3!(
    /// SHA3-384 (FIPS 202).
    Sha3_384, sha3_384, 48);
sha3!(
    /// SHA3-512 (FIPS 202).
    Sha3_512, sha3_512, 64);

/// Output reader of an extendable-output function: squeezes any length in any chunking.
///
/// Reads continue where the previous one stopped, so any split of the output gives the same
/// bytes; a clone continues independently from the same point.
///
/// ```
/// use tessera_keccak::{shake256, Shake256};
///
/// let mut whole = [0u8; 300];
/// shake256(b"seed", &mut whole);
///
/// let mut r = Shake256::new().update(b"seed").finalize_xof();
/// let mut first = [0u8; 100];
/// r.read(&mut first);
/// let mut r2 = r.clone();
/// let mut rest = [0u8; 200];
/// r.read(&mut rest[..1]);
/// r.read(&mut rest[1..]);
/// assert_eq!(first, whole[..100]);
/// assert_eq!(rest, whole[100..]);
///
/// let mut rest2 = [0u8; 200];
/// r2.read(&mut rest2);
/// assert_eq!(rest2, rest);
/// ```
#[derive(Clone)]
pub struct XofReader(Sponge);

impl_debug!(XofReader);

impl XofReader {
    /// Fills `out` with the next output bytes.
    ///
    /// This inherent method returns `()`: an XOF never runs out. With the `std` feature,
    /// `XofReader` also implements `std::io::Read`; when that trait is in scope, `r.read(..)`
    /// still calls this inherent method (inherent methods win over trait methods), so write
    /// `io::Read::read(&mut r, ..)` (or use `read_exact`, which has no inherent namesake) to get
    /// the trait's `io::Result<usize>`:
    ///
    /// ```
    /// use std::io::{self, Read};
    ///
    /// let mut r = tessera_keccak::Shake128::new().update(b"seed").finalize_xof();
    /// let mut a = [0u8; 16];
    /// r.read(&mut a); // inherent: returns ()
    /// let mut b = [0u8; 16];
    /// let n = io::Read::read(&mut r, &mut b).unwrap(); // the trait method
    /// assert_eq!(n, 16);
    ///
    /// let mut both = [0u8; 32];
    /// tessera_keccak::shake128(b"seed", &mut both);
    /// assert_eq!(both[..16], a);
    /// assert_eq!(both[16..], b);
    /// ```
    pub fn read(&mut self, out: &mut [u8]) {
        self.0.squeeze(out);
    }
}

#[cfg(feature = "std")]
impl std::io::Read for XofReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.squeeze(buf);
        Ok(buf.len())
    }
}

macro_rules! xof {
    ($(#[$doc:meta])* $name:ident, $rate:literal, $rounds:literal, $ctor:literal) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name {
            sponge: Sponge,
            ds: u8,
        }

        impl $name {
            /// Rate (block size) in bytes.
            pub const RATE: usize = $rate;

            /// Absorbs more input.
            pub fn update(&mut self, data: &[u8]) -> &mut Self {
                self.sponge.absorb(data);
                self
            }
            /// Pads and returns a reader over the output (the absorbing state is left unchanged,
            /// so more input can follow and be finalized again).
            ///
            /// ```
            #[doc = concat!("use tessera_keccak::", stringify!($name), ";")]
            ///
            #[doc = concat!("let mut x = ", $ctor, ";")]
            /// x.update(b"ab");
            /// let mut a = [0u8; 32];
            /// x.finalize_xof().read(&mut a);
            /// x.update(b"c"); // still absorbing
            /// let mut b = [0u8; 32];
            /// x.finalize_xof().read(&mut b);
            ///
            /// let mut expected = [0u8; 32];
            #[doc = concat!($ctor, ".update(b\"abc\").finalize_xof().read(&mut expected);")]
            /// assert_eq!(b, expected);
            /// assert_ne!(a, b);
            /// ```
            pub fn finalize_xof(&self) -> XofReader {
                let mut s = self.sponge.clone();
                s.pad(self.ds);
                XofReader(s)
            }
        }

        impl_write!($name);
        impl_debug!($name);
    };
}

xof!(
    /// SHAKE128 (FIPS 202), incremental.
    ///
    /// ```
    /// use tessera_keccak::{shake128, Shake128};
    ///
    /// let mut h = Shake128::new();
    /// h.update(b"hello ").update(b"world");
    /// let mut out = [0u8; 200]; // longer than one 168-byte block
    /// h.finalize_xof().read(&mut out);
    ///
    /// let mut one_shot = [0u8; 200];
    /// shake128(b"hello world", &mut one_shot);
    /// assert_eq!(out, one_shot);
    /// ```
    Shake128, 168, 24, "Shake128::new()");
xof!(
    /// SHAKE256 (FIPS 202), incremental.
    ///
    /// ```
    /// use tessera_keccak::{shake256, Shake256};
    ///
    /// let mut h = Shake256::new();
    /// h.update(b"hello ").update(b"world");
    /// let mut out = [0u8; 200]; // longer than one 136-byte block
    /// h.finalize_xof().read(&mut out);
    ///
    /// let mut one_shot = [0u8; 200];
    /// shake256(b"hello world", &mut one_shot);
    /// assert_eq!(out, one_shot);
    /// ```
    Shake256, 136, 24, "Shake256::new()");
xof!(
    /// TurboSHAKE128 (RFC 9861): Keccak-p[1600, 12] with a 168-byte rate.
    ///
    /// The domain-separation byte is chosen at creation; outputs under different domains are
    /// unrelated.
    ///
    /// ```
    /// use tessera_keccak::{turboshake128, Error, TurboShake128};
    ///
    /// let mut h = TurboShake128::new(0x1F)?;
    /// h.update(b"hello ").update(b"world");
    /// let mut out = [0u8; 64];
    /// h.finalize_xof().read(&mut out);
    ///
    /// let mut one_shot = [0u8; 64];
    /// turboshake128(b"hello world", 0x1F, &mut one_shot)?;
    /// assert_eq!(out, one_shot);
    ///
    /// let mut other = [0u8; 64];
    /// turboshake128(b"hello world", 0x0B, &mut other)?;
    /// assert_ne!(other, out);
    ///
    /// assert_eq!(TurboShake128::new(0x00).unwrap_err(), Error::InvalidDomain);
    /// assert_eq!(TurboShake128::new(0x80).unwrap_err(), Error::InvalidDomain);
    /// # Ok::<(), Error>(())
    /// ```
    TurboShake128, 168, 12, "TurboShake128::new(0x1F).unwrap()");
xof!(
    /// TurboSHAKE256 (RFC 9861): Keccak-p[1600, 12] with a 136-byte rate.
    ///
    /// The domain-separation byte is chosen at creation; outputs under different domains are
    /// unrelated.
    ///
    /// ```
    /// use tessera_keccak::{turboshake256, Error, TurboShake256};
    ///
    /// let mut h = TurboShake256::new(0x1F)?;
    /// h.update(b"hello ").update(b"world");
    /// let mut out = [0u8; 64];
    /// h.finalize_xof().read(&mut out);
    ///
    /// let mut one_shot = [0u8; 64];
    /// turboshake256(b"hello world", 0x1F, &mut one_shot)?;
    /// assert_eq!(out, one_shot);
    ///
    /// let mut other = [0u8; 64];
    /// turboshake256(b"hello world", 0x0B, &mut other)?;
    /// assert_ne!(other, out);
    ///
    /// assert_eq!(TurboShake256::new(0x00).unwrap_err(), Error::InvalidDomain);
    /// assert_eq!(TurboShake256::new(0x80).unwrap_err(), Error::InvalidDomain);
    /// # Ok::<(), Error>(())
    /// ```
    TurboShake256, 136, 12, "TurboShake256::new(0x1F).unwrap()");

macro_rules! shake_ctor {
    ($name:ident, $func:ident) => {
        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }
        impl $name {
            /// A fresh XOF.
            pub fn new() -> Self {
                Self::new_with_backend(X1Backend::detect())
            }
            /// As [`Self::new`] on an explicit single-state backend (tests and benches).
            #[doc(hidden)]
            pub fn new_with_backend(backend: X1Backend) -> Self {
                Self {
                    sponge: Sponge::new(Self::RATE, 24, backend),
                    ds: 0x1F,
                }
            }
        }
        #[doc = concat!("One-shot ", stringify!($name), ": fills `out`.")]
        ///
        /// The output is a prefix of any longer output for the same input, and matches the
        /// incremental XOF read in any chunking:
        ///
        /// ```
        #[doc = concat!("use tessera_keccak::{", stringify!($func), ", ", stringify!($name), "};")]
        ///
        /// let mut long = [0u8; 400];
        #[doc = concat!(stringify!($func), "(b\"input\", &mut long);")]
        /// let mut short = [0u8; 32];
        #[doc = concat!(stringify!($func), "(b\"input\", &mut short);")]
        /// assert_eq!(short, long[..32]);
        ///
        #[doc = concat!("let mut r = ", stringify!($name), "::new().update(b\"in\").update(b\"put\").finalize_xof();")]
        /// let mut chunked = [0u8; 400];
        /// for c in chunked.chunks_mut(50) {
        ///     r.read(c);
        /// }
        /// assert_eq!(chunked, long);
        /// ```
        pub fn $func(input: &[u8], out: &mut [u8]) {
            $name::new().update(input).finalize_xof().read(out);
        }
    };
}
shake_ctor!(Shake128, shake128);
shake_ctor!(Shake256, shake256);

macro_rules! turbo_ctor {
    ($name:ident, $func:ident) => {
        impl $name {
            /// A fresh TurboSHAKE with domain-separation byte `domain` (`0x01..=0x7F`).
            pub fn new(domain: u8) -> Result<Self, Error> {
                Self::new_with_backend(X1Backend::detect(), domain)
            }
            /// As [`Self::new`] on an explicit single-state backend (tests and benches).
            #[doc(hidden)]
            pub fn new_with_backend(backend: X1Backend, domain: u8) -> Result<Self, Error> {
                if domain == 0 || domain > 0x7F {
                    return Err(Error::InvalidDomain);
                }
                Ok(Self {
                    sponge: Sponge::new(Self::RATE, 12, backend),
                    ds: domain,
                })
            }
        }
        #[doc = concat!("One-shot ", stringify!($name), " with domain byte `domain`: fills `out`.")]
        ///
        /// On an invalid domain (`0x00` or above `0x7F`) the answer is
        /// [`Error::InvalidDomain`] and `out` is left untouched.
        ///
        /// ```
        #[doc = concat!("use tessera_keccak::{", stringify!($func), ", ", stringify!($name), ", Error};")]
        ///
        /// let mut out = [0u8; 32];
        #[doc = concat!(stringify!($func), "(b\"input\", 0x06, &mut out)?;")]
        /// let mut x = [0u8; 32];
        #[doc = concat!(stringify!($name), "::new(0x06)?.update(b\"input\").finalize_xof().read(&mut x);")]
        /// assert_eq!(x, out);
        ///
        /// let mut untouched = [0xAAu8; 32];
        /// assert_eq!(
        #[doc = concat!("    ", stringify!($func), "(b\"input\", 0x80, &mut untouched),")]
        ///     Err(Error::InvalidDomain)
        /// );
        /// assert_eq!(untouched, [0xAA; 32]);
        /// # Ok::<(), Error>(())
        /// ```
        pub fn $func(input: &[u8], domain: u8, out: &mut [u8]) -> Result<(), Error> {
            $name::new(domain)?.update(input).finalize_xof().read(out);
            Ok(())
        }
    };
}
turbo_ctor!(TurboShake128, turboshake128);
turbo_ctor!(TurboShake256, turboshake256);

/// Small unit tests, cheap enough for Miri (on big-endian s390x, where they are the only
/// check that lanes are loaded and stored little-endian). Expected values are published ones,
/// never computed with this crate: the NIST example digests for FIPS 202 (`""`, `"abc"`, the
/// 1600-bit message of 200 bytes `A3`) and RFC 9861 Section 5 for TurboSHAKE; each was also
/// checked against RustCrypto `sha3` when it was added.
#[cfg(test)]
mod tests {
    use super::*;

    use tessera_testkit::hex::array as hex;

    #[test]
    fn sha3_256_examples() {
        assert_eq!(
            sha3_256(b""),
            hex("a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a")
        );
        assert_eq!(
            sha3_256(b"abc"),
            hex("3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532")
        );
    }

    #[test]
    fn sha3_224_384_512_abc() {
        assert_eq!(
            sha3_224(b"abc"),
            hex("e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf")
        );
        assert_eq!(
            sha3_384(b"abc"),
            hex(concat!(
                "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c25",
                "96da7cf0e49be4b298d88cea927ac7f539f1edf228376d25"
            ))
        );
        assert_eq!(
            sha3_512(b"abc"),
            hex(concat!(
                "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e",
                "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0"
            ))
        );
    }

    /// NIST example SHA3-256 of the 1600-bit message (200 bytes `A3`): two blocks at the
    /// 136-byte rate, so a permutation runs between absorbed blocks.
    #[test]
    fn sha3_256_two_blocks() {
        let expect = hex("79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787");
        assert_eq!(sha3_256(&[0xA3; 200]), expect);
        let mut h = Sha3_256::new();
        h.update(&[0xA3; 99]).update(&[0xA3; 101]);
        assert_eq!(h.finalize(), expect);
    }

    /// RFC 9861 Section 5: TurboSHAKE128(M = empty, D = `1F`, 32 bytes).
    #[test]
    fn turboshake128_empty() {
        let mut o = [0u8; 32];
        turboshake128(b"", 0x1F, &mut o).unwrap();
        assert_eq!(
            o,
            hex("1e415f1c5983aff2169217277d17bb538cd945a397ddec541f1ce41af2c1b74c")
        );
    }

    #[test]
    fn shake128_empty_and_chunked() {
        let mut o = [0u8; 32];
        shake128(b"", &mut o);
        assert_eq!(
            o,
            hex("7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26")
        );
        // Multi-block absorb and squeeze, in odd chunks, against one-shot.
        let m = [0x5Au8; 400];
        let mut a = [0u8; 400];
        shake128(&m, &mut a);
        let mut h = Shake128::new();
        for c in m.chunks(37) {
            h.update(c);
        }
        let mut r = h.finalize_xof();
        let mut b = [0u8; 400];
        for c in b.chunks_mut(41) {
            r.read(c);
        }
        assert_eq!(a, b);
    }

    #[cfg(feature = "std")]
    #[test]
    fn io_write_and_read() {
        use std::io::{Read, Write};
        let mut h = Sha3_256::new();
        h.write_all(b"abc").unwrap();
        assert_eq!(h.finalize(), sha3_256(b"abc"));
        let mut r = Shake128::new().finalize_xof();
        let mut o = [0u8; 32];
        r.read_exact(&mut o).unwrap();
        assert_eq!(
            o,
            hex("7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26")
        );
    }

    #[cfg(feature = "std")]
    #[test]
    fn debug_never_prints_state() {
        use std::format;
        assert_eq!(format!("{:?}", Sha3_256::new()), "Sha3_256 { .. }");
        assert_eq!(
            format!("{:?}", Shake128::new().finalize_xof()),
            "XofReader { .. }"
        );
        assert_eq!(
            format!("{:?}", TurboShake256::new(1).unwrap()),
            "TurboShake256 { .. }"
        );
        let x = Shake256x2::new_with_backend(X4Backend::Portable, [b"a", b"b"]).unwrap();
        assert_eq!(format!("{x:?}"), "Shake256x2 { .. }");
    }

    #[test]
    fn x4_portable_matches_x1() {
        let ins: [&[u8]; 4] = [&[1; 170], &[2; 170], &[3; 170], &[4; 170]];
        let mut x = Shake128x4::new_with_backend(X4Backend::Portable, ins).unwrap();
        let mut o = [[0u8; 168]; 4];
        let [o0, o1, o2, o3] = &mut o;
        x.squeeze_blocks([o0, o1, o2, o3]).unwrap();
        for w in 0..4 {
            let mut e = [0u8; 168];
            shake128(ins[w], &mut e);
            assert_eq!(o[w], e);
        }
    }
}
