//! Bad input: every wrong length of ek, dk and ciphertext; an ek with one coefficient >= q at
//! every coefficient position (values q and 4095); a dk whose stored H(ek) (or embedded ek) is
//! wrong; a flipped ciphertext bit gives the implicit-rejection key J(z || c).

use tessera_mlkem::Error;
use tessera_mlkem::testing::Backend;
use tessera_testkit::backends::for_each_backend;

/// Sets 12-bit coefficient `i` of a ByteEncode_12 string to `x`.
fn set_coeff(b: &mut [u8], i: usize, x: u16) {
    let o = 3 * (i / 2);
    if i.is_multiple_of(2) {
        b[o] = x as u8;
        b[o + 1] = (b[o + 1] & 0xF0) | (x >> 8) as u8;
    } else {
        b[o + 1] = (b[o + 1] & 0x0F) | ((x & 0xF) << 4) as u8;
        b[o + 2] = (x >> 4) as u8;
    }
}

/// Every length from 0 to one past `good`'s, but its own: a prefix of `good` (then a zero
/// byte) that `parse` must refuse with `InvalidLength`.
fn every_wrong_length<T: std::fmt::Debug>(
    good: &[u8],
    what: &str,
    parse: impl Fn(&[u8]) -> Result<T, Error>,
) {
    for n in 0..=good.len() + 1 {
        if n != good.len() {
            let input = good
                .iter()
                .chain(&[0u8])
                .copied()
                .take(n)
                .collect::<Vec<_>>();
            assert_eq!(
                parse(&input).unwrap_err(),
                Error::InvalidLength,
                "{what} length {n}"
            );
        }
    }
}

macro_rules! bad_input {
    ($fn:ident, $m:ident, $k:literal) => {
        #[test]
        fn $fn() {
            use tessera_mlkem::$m::*;
            for_each_backend::<Backend>(|be| {
                let mut seed = [0u8; 64];
                for (i, s) in seed.iter_mut().enumerate() {
                    *s = i as u8;
                }
                let dk = DecapsulationKey::from_seed_with_backend(be, &seed);
                let ek = dk.encapsulation_key().to_bytes();
                let dkb = dk.to_expanded_bytes();
                let (ct, k) = dk.encapsulation_key().encapsulate_deterministic(&[9; 32]);

                // Every wrong length.
                every_wrong_length(&ek, "ek", |b| {
                    EncapsulationKey::from_bytes_with_backend(be, b)
                });
                every_wrong_length(&dkb, "dk", |b| {
                    DecapsulationKey::from_expanded_bytes_with_backend(be, b)
                });
                every_wrong_length(ct.as_bytes(), "ct", Ciphertext::from_bytes);

                // One coefficient >= q at every position (each position of the 12-bit packing
                // and every polynomial of t-hat), in ek and in the ek embedded in dk.
                for i in 0..256 * $k {
                    for x in [3329u16, 4095] {
                        let mut bad = ek;
                        set_coeff(&mut bad, i, x);
                        assert_eq!(
                            EncapsulationKey::from_bytes_with_backend(be, &bad).unwrap_err(),
                            Error::InvalidKey,
                            "coefficient {i} = {x}"
                        );
                    }
                }
                let mut bad = dkb;
                set_coeff(&mut bad[384 * $k..], 0, 3329);
                // Keep the stored hash consistent, so only the modulus check can fail.
                let h = tessera_keccak::sha3_256(&bad[384 * $k..768 * $k + 32]);
                bad[768 * $k + 32..768 * $k + 64].copy_from_slice(&h);
                assert_eq!(
                    DecapsulationKey::from_expanded_bytes_with_backend(be, &bad).unwrap_err(),
                    Error::InvalidKey
                );
                // q - 1 everywhere is fine.
                let mut ok = ek;
                for i in 0..256 * $k {
                    set_coeff(&mut ok, i, 3328);
                }
                assert!(EncapsulationKey::from_bytes_with_backend(be, &ok).is_ok());

                // A wrong stored H(ek): every byte of it.
                for i in 0..32 {
                    let mut bad = dkb;
                    bad[768 * $k + 32 + i] ^= 0x01;
                    assert_eq!(
                        DecapsulationKey::from_expanded_bytes_with_backend(be, &bad).unwrap_err(),
                        Error::InvalidKey,
                        "hash byte {i}"
                    );
                }
                // A modified ek part (hash then mismatches).
                let mut bad = dkb;
                bad[384 * $k + 5] ^= 0x10;
                assert_eq!(
                    DecapsulationKey::from_expanded_bytes_with_backend(be, &bad).unwrap_err(),
                    Error::InvalidKey
                );

                // A flipped ciphertext bit: the implicit-rejection key J(z || c), no error.
                assert_eq!(dk.decapsulate(&ct), k);
                for bit in [
                    0,
                    7,
                    8 * CT_LEN / 2 + 3,
                    8 * (CT_LEN - 32 * 4),
                    8 * CT_LEN - 1,
                ] {
                    let mut c = *ct.as_bytes();
                    c[bit / 8] ^= 1 << (bit % 8);
                    let got = dk.decapsulate(&Ciphertext::from_bytes(&c).unwrap());
                    let mut want = [0u8; 32];
                    let mut zc = seed[32..].to_vec();
                    zc.extend_from_slice(&c);
                    tessera_keccak::shake256(&zc, &mut want);
                    assert_eq!(got.as_bytes(), &want, "bit {bit}");
                    assert_ne!(got, k);
                }
            });
        }
    };
}

bad_input!(bad_input_512, ml_kem_512, 2);
bad_input!(bad_input_768, ml_kem_768, 3);
bad_input!(bad_input_1024, ml_kem_1024, 4);
