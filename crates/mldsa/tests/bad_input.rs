//! Bad input: wrong lengths everywhere, contexts of 256 bytes, digests of the wrong length,
//! out-of-range and inconsistent expanded signing keys, non-canonical hint encodings, and every
//! single-bit flip of a signature: each is a typed error, never a panic.
#![cfg(not(miri))]

use tessera_mldsa::{Error, PreHash};

const ALL_PREHASHES: [PreHash; 12] = [
    PreHash::Sha224,
    PreHash::Sha256,
    PreHash::Sha384,
    PreHash::Sha512,
    PreHash::Sha512_224,
    PreHash::Sha512_256,
    PreHash::Sha3_224,
    PreHash::Sha3_256,
    PreHash::Sha3_384,
    PreHash::Sha3_512,
    PreHash::Shake128,
    PreHash::Shake256,
];

macro_rules! bad_input {
    ($fn:ident, $m:ident, $eta_bits:expr, $omega:expr, $k:expr, $l:expr) => {
        #[test]
        fn $fn() {
            use tessera_mldsa::$m::*;
            let sk = SigningKey::from_seed(&[9; 32]);
            let vk = sk.verifying_key();
            let sig = sk.sign_deterministic(b"msg", b"ctx").unwrap();

            // Lengths.
            for n in [0, 1, PK_LEN - 1, PK_LEN + 1] {
                assert_eq!(
                    VerifyingKey::from_bytes(&vec![0; n]).unwrap_err(),
                    Error::InvalidLength
                );
            }
            for n in [0, 32, SK_LEN - 1, SK_LEN + 1] {
                assert_eq!(
                    SigningKey::from_expanded_bytes(&vec![0; n]).unwrap_err(),
                    Error::InvalidLength
                );
            }
            for n in [0, SIG_LEN - 1, SIG_LEN + 1] {
                assert_eq!(
                    Signature::from_bytes(&vec![0; n]).unwrap_err(),
                    Error::InvalidLength
                );
            }

            // Contexts: 255 bytes work, 256 do not.
            let ctx255 = [7u8; 255];
            let ctx256 = [7u8; 256];
            let s = sk.sign_deterministic(b"m", &ctx255).unwrap();
            assert_eq!(vk.verify(b"m", &ctx255, &s), Ok(()));
            assert_eq!(
                sk.sign_deterministic(b"m", &ctx256).unwrap_err(),
                Error::ContextTooLong
            );
            assert_eq!(
                vk.verify(b"m", &ctx256, &s).unwrap_err(),
                Error::ContextTooLong
            );
            assert_eq!(
                vk.compute_mu(b"m", &ctx256).unwrap_err(),
                Error::ContextTooLong
            );
            let mut rng = tessera_testkit_rng();
            assert_eq!(
                sk.sign(b"m", &ctx256, &mut rng).unwrap_err(),
                Error::ContextTooLong
            );

            // HashML-DSA: every pre-hash round-trips; a digest of another length, a context of
            // 256 bytes, or another pre-hash with the same digest is rejected.
            for ph in ALL_PREHASHES {
                let d = vec![0x5A; ph.digest_len()];
                let s = sk.sign_prehashed(ph, &d, b"c", &mut rng).unwrap();
                assert_eq!(vk.verify_prehashed(ph, &d, b"c", &s), Ok(()));
                assert_eq!(vk.verify(&d, b"c", &s), Err(Error::Verification));
                for other in ALL_PREHASHES {
                    if other != ph && other.digest_len() == ph.digest_len() {
                        assert_eq!(
                            vk.verify_prehashed(other, &d, b"c", &s),
                            Err(Error::Verification)
                        );
                    }
                }
                let short = &d[..d.len() - 1];
                assert_eq!(
                    sk.sign_prehashed(ph, short, b"c", &mut rng).unwrap_err(),
                    Error::InvalidDigestLength
                );
                assert_eq!(
                    vk.verify_prehashed(ph, short, b"c", &s).unwrap_err(),
                    Error::InvalidDigestLength
                );
                assert_eq!(
                    sk.sign_prehashed(ph, &d, &ctx256, &mut rng).unwrap_err(),
                    Error::ContextTooLong
                );
            }

            // Expanded keys: out-of-range s1 / s2 coefficients, a modified t0, K or tr.
            let good = sk.to_expanded_bytes();
            assert!(SigningKey::from_expanded_bytes(&good).is_ok());
            let s_len = 32 * $eta_bits;
            for off in [128, 128 + s_len * $l] {
                let mut bad = good;
                bad[off] = 0xFF; // first coefficient 7 (eta 2) or 15 (eta 4): out of range
                assert_eq!(
                    SigningKey::from_expanded_bytes(&bad).unwrap_err(),
                    Error::InvalidKey,
                    "s at {off}"
                );
            }
            let t0 = 128 + s_len * ($k + $l);
            for off in [64, 127, t0, SK_LEN - 1] {
                let mut bad = good;
                bad[off] ^= 1;
                assert_eq!(
                    SigningKey::from_expanded_bytes(&bad).unwrap_err(),
                    Error::InvalidKey,
                    "at {off}"
                );
            }
            // K is not checked (any 32 bytes are a valid K): the key signs differently.
            let mut other_k = good;
            other_k[32] ^= 1;
            let sk2 = SigningKey::from_expanded_bytes(&other_k).unwrap();
            assert_ne!(sk2.sign_deterministic(b"msg", b"ctx").unwrap(), sig);

            // Hints (the last omega + k bytes): non-canonical encodings are rejected.
            let h = SIG_LEN - $omega - $k;
            let bytes = *sig.as_bytes();
            let count = |b: &[u8; SIG_LEN], i: usize| b[h + $omega + i] as usize;
            let total = count(&bytes, $k - 1);
            let reject = |b: [u8; SIG_LEN], why: &str| {
                let s = Signature::from_bytes(&b).unwrap();
                assert_eq!(
                    vk.verify(b"msg", b"ctx", &s),
                    Err(Error::Verification),
                    "{why}"
                );
            };
            // A count past omega.
            let mut b = bytes;
            b[h + $omega + $k - 1] = $omega as u8 + 1;
            reject(b, "count > omega");
            // Decreasing counts.
            if count(&bytes, 0) > 0 {
                let mut b = bytes;
                b[h + $omega + 1] = count(&bytes, 0) as u8 - 1;
                reject(b, "decreasing counts");
            }
            // Nonzero padding after the last index.
            if total < $omega {
                let mut b = bytes;
                b[h + $omega - 1] = 1;
                reject(b, "padding");
            }
            // Indices out of order or repeated within a polynomial.
            let first = (0..$k).find(|&i| {
                let lo = if i == 0 { 0 } else { count(&bytes, i - 1) };
                count(&bytes, i) - lo >= 2
            });
            if let Some(i) = first {
                let lo = if i == 0 { 0 } else { count(&bytes, i - 1) };
                let mut b = bytes;
                b.swap(h + lo, h + lo + 1);
                reject(b, "unordered");
                let mut b = bytes;
                b[h + lo + 1] = b[h + lo];
                reject(b, "repeated");
            }

            // Every single-bit flip of the signature is rejected.
            for bit in 0..8 * SIG_LEN {
                let mut b = bytes;
                b[bit >> 3] ^= 1 << (bit & 7);
                let s = Signature::from_bytes(&b).unwrap();
                assert_eq!(
                    vk.verify(b"msg", b"ctx", &s),
                    Err(Error::Verification),
                    "bit {bit}"
                );
            }
        }
    };
}

/// A deterministic test RNG (ChaCha-free: SHAKE256 of a counter).
struct TestRng(u64);

impl rand_core::TryRng for TestRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.try_next_u64()? as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        Ok(self.0)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for c in dst.chunks_mut(8) {
            let v = self.try_next_u64()?.to_le_bytes();
            c.copy_from_slice(&v[..c.len()]);
        }
        Ok(())
    }
}
impl rand_core::TryCryptoRng for TestRng {}

fn tessera_testkit_rng() -> TestRng {
    TestRng(42)
}

bad_input!(bad_input_44, ml_dsa_44, 3, 80, 4, 4);
bad_input!(bad_input_65, ml_dsa_65, 4, 55, 6, 5);
bad_input!(bad_input_87, ml_dsa_87, 3, 75, 8, 7);
