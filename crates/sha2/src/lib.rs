#![doc = include_str!("../README.md")]
#![no_std]
// `unsafe` is denied crate-wide and forbidden in every module outside `backend/`; only the ISA
// files there allow it (pointer loads and stores around the intrinsics). The crate root cannot
// say `forbid` without forbidding it in those files too, and `deny` cannot be lifted silently:
// an exception needs a visible `#[allow(unsafe_code)]` (see `backend.rs`).
#![deny(unsafe_code)]

#[cfg(any(feature = "std", test))]
extern crate std;

mod backend;
mod block;
mod consts;
#[cfg(feature = "digest")]
pub mod digest;
mod engine;
mod error;
mod hash;
pub mod hkdf;
mod hmac;
mod md;

pub use error::Error;
pub use hash::{
    Sha2, Sha224, Sha256, Sha384, Sha512, Sha512_256, sha224, sha256, sha384, sha512, sha512_256,
};
pub use hmac::{
    Hmac, HmacKey, hmac_sha224, hmac_sha256, hmac_sha384, hmac_sha512, hmac_sha512_256,
    min_truncated_len,
};

/// For tests and benches (not a stable API): the backend tables. Every hasher of a family takes
/// its family's table (`Sha256::new_with_backend(Sha256Backend::..)`), HMAC and HKDF take
/// `<H as Sha2>::Backend`.
#[doc(hidden)]
pub mod testing {
    pub use crate::backend::{Sha256Backend, Sha512Backend};
}

/// Small checks that Miri runs on the portable path (the vector sets are in `tests/`); natively
/// on every backend of both tables.
#[cfg(test)]
mod tests {
    use super::testing::{Sha256Backend, Sha512Backend};
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
