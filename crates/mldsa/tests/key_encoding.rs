//! PKCS#8 / SPKI on the types of `tessera_mldsa::ml_dsa` (features `pkcs8` + `alloc`; the
//! LAMPS PEM examples with `pem`): the RFC 9881
//! examples shipped in RustCrypto `ml-dsa` 0.1's package, byte-identical round trips with
//! `ml-dsa`'s pkcs8 support in both directions, the `both` and expanded-only private key forms
//! (built here from `ml-dsa`'s expanded key), and malformed encodings rejected with typed
//! errors.
//!
//! Not built under Miri or with `--cfg tessera_backend="portable"` (the peer is not a
//! dev-dependency there, see Cargo.toml).
#![cfg(all(
    feature = "pkcs8",
    feature = "alloc",
    not(any(miri, tessera_backend = "portable"))
))]

use proptest::prelude::*;
use tessera_mldsa::ml_dsa::pkcs8::{
    DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey,
};
use tessera_mldsa::ml_dsa::{self as T, Keypair};
use tessera_mldsa::pkcs8::der::ErrorKind;
use tessera_mldsa::pkcs8::{self, KeyError, spki};
use tessera_testkit::der::tlv;

/// The DER of OID 2.16.840.1.101.3.4.3.`arc`.
fn oid(arc: u8) -> Vec<u8> {
    tlv(0x06, &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, arc])
}

/// A PKCS#8 PrivateKeyInfo (v1) / OneAsymmetricKey (v2 when `pk` is given) around
/// `private_key` (the DER of ML-DSA-PrivateKey), with an optional parameters field.
fn pkcs8_der(arc: u8, params: Option<&[u8]>, private_key: &[u8], pk: Option<&[u8]>) -> Vec<u8> {
    let mut alg = oid(arc);
    if let Some(p) = params {
        alg.extend_from_slice(p);
    }
    let mut body = tlv(0x02, &[u8::from(pk.is_some())]);
    body.extend(tlv(0x30, &alg));
    body.extend(tlv(0x04, private_key));
    if let Some(pk) = pk {
        let mut bits = vec![0u8];
        bits.extend_from_slice(pk);
        body.extend(tlv(0x81, &bits));
    }
    tlv(0x30, &body)
}

/// An SPKI with the given OID arc, parameters and BIT STRING contents (unused-bits byte first).
fn spki_der(arc: u8, params: Option<&[u8]>, bit_string: &[u8]) -> Vec<u8> {
    let mut alg = oid(arc);
    if let Some(p) = params {
        alg.extend_from_slice(p);
    }
    let mut body = tlv(0x30, &alg);
    body.extend(tlv(0x03, bit_string));
    tlv(0x30, &body)
}

macro_rules! encodings {
    ($prop:ident, $forms:ident, $spki_bad:ident, $m:ident, $rc:ident, $arc:literal, $other:literal) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]
            /// Random seeds: our PKCS#8 and SPKI DER are byte-identical to ml-dsa's, each side
            /// decodes the other's, and the keys agree.
            #[test]
            fn $prop(seed in any::<[u8; 32]>()) {
                type SigningKey = T::SigningKey<T::$rc>;
                type VerifyingKey = T::VerifyingKey<T::$rc>;
                let ours = SigningKey::from_seed(&seed.into());
                let theirs = ml_dsa::SigningKey::<ml_dsa::$rc>::from_seed(&seed.into());

                let our_der = ours.to_pkcs8_der().unwrap();
                let their_der = theirs.to_pkcs8_der().unwrap();
                prop_assert_eq!(our_der.as_bytes(), their_der.as_bytes());
                let back = SigningKey::from_pkcs8_der(their_der.as_bytes()).unwrap();
                prop_assert_eq!(&back.to_seed()[..], &seed[..]);
                let theirs_back = ml_dsa::SigningKey::<ml_dsa::$rc>::from_pkcs8_der(our_der.as_bytes()).unwrap();
                prop_assert_eq!(&theirs_back.to_seed()[..], &seed[..]);

                let our_spki = ours.verifying_key().to_public_key_der().unwrap();
                let their_spki = ml_dsa::signature::Keypair::verifying_key(&theirs).to_public_key_der().unwrap();
                prop_assert_eq!(our_spki.as_bytes(), their_spki.as_bytes());
                let vk = VerifyingKey::from_public_key_der(their_spki.as_bytes()).unwrap();
                prop_assert_eq!(&vk, &ours.verifying_key());
                let their_vk = ml_dsa::VerifyingKey::<ml_dsa::$rc>::from_public_key_der(our_spki.as_bytes()).unwrap();
                prop_assert_eq!(&their_vk.encode()[..], &ours.verifying_key().encode()[..]);
            }
        }

        /// The private key forms of RFC 9881 and malformed private keys.
        #[test]
        fn $forms() {
            use tessera_mldsa::$m::SK_LEN;
            type SigningKey = T::SigningKey<T::$rc>;
            let seed = [0x42u8; 32];
            let theirs = ml_dsa::SigningKey::<ml_dsa::$rc>::from_seed(&seed.into());
            #[allow(deprecated)]
            let expanded = theirs.expanded_key().to_expanded().to_vec();
            assert_eq!(expanded.len(), SK_LEN);
            let pk = ml_dsa::signature::Keypair::verifying_key(&theirs).encode().to_vec();
            let seed_form = tlv(0x80, &seed);
            let both = |s: &[u8], e: &[u8]| {
                let mut b = tlv(0x04, s);
                b.extend(tlv(0x04, e));
                tlv(0x30, &b)
            };
            let parse = |der: &[u8]| SigningKey::from_pkcs8_der(der).map(|k| k.verifying_key().encode().to_vec());

            // Seed form (the hand-built DER equals ml-dsa's encoding).
            let der = pkcs8_der($arc, None, &seed_form, None);
            assert_eq!(der, theirs.to_pkcs8_der().unwrap().as_bytes());
            assert_eq!(parse(&der), Ok(pk.clone()));
            // v2 with the matching public key: accepted; another public key: rejected.
            assert_eq!(parse(&pkcs8_der($arc, None, &seed_form, Some(&pk))), Ok(pk.clone()));
            let mut other_pk = pk.clone();
            other_pk[5] ^= 1;
            assert_eq!(
                parse(&pkcs8_der($arc, None, &seed_form, Some(&other_pk))),
                Err(pkcs8::Error::KeyMalformed(KeyError::Invalid))
            );

            // Both forms: accepted when consistent, rejected otherwise.
            assert_eq!(parse(&pkcs8_der($arc, None, &both(&seed, &expanded), None)), Ok(pk.clone()));
            for i in [0, 32, 64, SK_LEN / 2, SK_LEN - 1] {
                let mut e = expanded.clone();
                e[i] ^= 0x01;
                assert_eq!(
                    parse(&pkcs8_der($arc, None, &both(&seed, &e), None)),
                    Err(pkcs8::Error::KeyMalformed(KeyError::Invalid)),
                    "both form with byte {i} of the expanded key changed"
                );
            }
            let mut other_seed = seed;
            other_seed[0] ^= 1;
            assert_eq!(
                parse(&pkcs8_der($arc, None, &both(&other_seed, &expanded), None)),
                Err(pkcs8::Error::KeyMalformed(KeyError::Invalid))
            );
            assert_eq!(
                parse(&pkcs8_der($arc, None, &both(&seed, &expanded[..SK_LEN - 1]), None)),
                Err(pkcs8::Error::KeyMalformed(KeyError::Invalid))
            );
            assert_eq!(
                parse(&pkcs8_der($arc, None, &both(&seed[..31], &expanded), None)),
                Err(pkcs8::Error::KeyMalformed(KeyError::TooShort))
            );

            // Expanded-only: rejected (the seed form's tag was expected).
            let e = parse(&pkcs8_der($arc, None, &tlv(0x04, &expanded), None)).unwrap_err();
            assert!(
                matches!(e, pkcs8::Error::Asn1(a) if matches!(a.kind(), ErrorKind::TagUnexpected { .. })),
                "{e:?}"
            );

            // Seed of the wrong length.
            assert_eq!(
                parse(&pkcs8_der($arc, None, &tlv(0x80, &seed[..31]), None)),
                Err(pkcs8::Error::KeyMalformed(KeyError::TooShort))
            );
            let mut long = seed.to_vec();
            long.push(0);
            assert_eq!(
                parse(&pkcs8_der($arc, None, &tlv(0x80, &long), None)),
                Err(pkcs8::Error::KeyMalformed(KeyError::TooLong))
            );
            // Constructed [0] instead of the primitive one.
            assert!(matches!(
                parse(&pkcs8_der($arc, None, &tlv(0xa0, &seed), None)),
                Err(pkcs8::Error::Asn1(_))
            ));
            // Another set's OID.
            assert!(matches!(
                parse(&pkcs8_der($other, None, &seed_form, None)),
                Err(pkcs8::Error::PublicKey(spki::Error::OidUnknown { .. }))
            ));
            // Parameters present (NULL).
            assert_eq!(
                parse(&pkcs8_der($arc, Some(&[0x05, 0x00]), &seed_form, None)),
                Err(pkcs8::Error::ParametersMalformed)
            );
            // Trailing bytes inside the privateKey OCTET STRING and after the document.
            let mut inner = seed_form.clone();
            inner.push(0);
            assert!(matches!(parse(&pkcs8_der($arc, None, &inner, None)), Err(pkcs8::Error::Asn1(_))));
            let mut trailing = pkcs8_der($arc, None, &both(&seed, &expanded), None);
            trailing.push(0);
            assert!(matches!(parse(&trailing), Err(pkcs8::Error::Asn1(_))));
            let mut b = tlv(0x04, &seed);
            b.extend(tlv(0x04, &expanded));
            b.extend([0x05, 0x00]);
            assert!(matches!(parse(&pkcs8_der($arc, None, &tlv(0x30, &b), None)), Err(pkcs8::Error::Asn1(_))));
            // Empty and truncated inputs.
            assert!(parse(&[]).is_err());
            assert!(parse(&der[..der.len() - 1]).is_err());

            // A native key without its seed has no trait-facing (seed-form) counterpart.
            let no_seed = tessera_mldsa::$m::SigningKey::from_expanded_bytes(&expanded).unwrap();
            assert_eq!(
                SigningKey::try_from(no_seed).err(),
                Some(tessera_mldsa::Error::InvalidKey)
            );
        }

        /// Malformed SPKIs.
        #[test]
        fn $spki_bad() {
            use tessera_mldsa::$m::PK_LEN;
            type SigningKey = T::SigningKey<T::$rc>;
            type VerifyingKey = T::VerifyingKey<T::$rc>;
            let sk = SigningKey::from_seed(&[9; 32].into());
            let pk = sk.verifying_key().encode();
            let mut bits = vec![0u8];
            bits.extend_from_slice(&pk);
            let good = spki_der($arc, None, &bits);
            assert_eq!(good, sk.verifying_key().to_public_key_der().unwrap().as_bytes());
            assert_eq!(VerifyingKey::from_public_key_der(&good), Ok(sk.verifying_key()));

            assert!(matches!(
                VerifyingKey::from_public_key_der(&spki_der($other, None, &bits)),
                Err(spki::Error::OidUnknown { .. })
            ));
            assert_eq!(
                VerifyingKey::from_public_key_der(&spki_der($arc, Some(&[0x05, 0x00]), &bits)),
                Err(spki::Error::KeyMalformed)
            );
            assert_eq!(
                VerifyingKey::from_public_key_der(&spki_der($arc, None, &bits[..PK_LEN])),
                Err(spki::Error::KeyMalformed)
            );
            let mut longer = bits.clone();
            longer.push(0);
            assert_eq!(
                VerifyingKey::from_public_key_der(&spki_der($arc, None, &longer)),
                Err(spki::Error::KeyMalformed)
            );
            // Unused bits in the BIT STRING.
            let mut unused = bits.clone();
            unused[0] = 1;
            assert!(VerifyingKey::from_public_key_der(&spki_der($arc, None, &unused)).is_err());
            let mut trailing = good.clone();
            trailing.push(0);
            assert!(matches!(
                VerifyingKey::from_public_key_der(&trailing),
                Err(spki::Error::Asn1(_))
            ));
        }
    };
}

encodings!(
    peer_round_trip_44,
    private_key_forms_44,
    spki_malformed_44,
    ml_dsa_44,
    MlDsa44,
    0x11,
    0x12
);
encodings!(
    peer_round_trip_65,
    private_key_forms_65,
    spki_malformed_65,
    ml_dsa_65,
    MlDsa65,
    0x12,
    0x13
);
encodings!(
    peer_round_trip_87,
    private_key_forms_87,
    spki_malformed_87,
    ml_dsa_87,
    MlDsa87,
    0x13,
    0x11
);

/// The RFC 9881 examples (seed-form private keys and their public keys) shipped in the
/// `ml-dsa` 0.1 package: decode, the derived public key is the example's, and both re-encode
/// byte-identically (PEM and DER).
#[cfg(feature = "pem")]
#[test]
fn lamps_examples() {
    use tessera_mldsa::pkcs8::LineEnding;
    fn check<P: tessera_mldsa::generic::ParameterSet>(name: &str) {
        use tessera_mldsa::ml_dsa::{SigningKey, VerifyingKey};
        let file = |f: &str| {
            String::from_utf8(tessera_testkit::registry::package_file(
                "ml-dsa",
                "0.1.",
                &format!("tests/examples/{f}"),
            ))
            .unwrap()
        };
        let priv_pem = file(&format!("{name}-seed.priv"));
        let pub_pem = file(&format!("{name}.pub"));
        let sk = SigningKey::<P>::from_pkcs8_pem(&priv_pem).unwrap();
        let vk = VerifyingKey::<P>::from_public_key_pem(&pub_pem).unwrap();
        assert_eq!(sk.verifying_key(), vk, "{name}: derived public key");
        assert_eq!(
            *sk.to_pkcs8_pem(LineEnding::LF).unwrap(),
            priv_pem,
            "{name}"
        );
        assert_eq!(
            vk.to_public_key_pem(LineEnding::LF).unwrap(),
            pub_pem,
            "{name}"
        );
        // The example seed is 00 01 .. 1f.
        let expected_seed: [u8; 32] = core::array::from_fn(|i| i as u8);
        assert_eq!(sk.to_seed(), expected_seed, "{name}");
        // DER round trip through the PEM's document.
        let der = sk.to_pkcs8_der().unwrap();
        let again = SigningKey::<P>::from_pkcs8_der(der.as_bytes()).unwrap();
        assert_eq!(again.to_pkcs8_der().unwrap().as_bytes(), der.as_bytes());
        // Another set does not accept the example.
        assert!(
            SigningKey::<tessera_mldsa::ml_dsa::MlDsa44>::from_pkcs8_pem(&priv_pem).is_ok()
                == (name == "ML-DSA-44")
        );
    }
    check::<tessera_mldsa::generic::MlDsa44>("ML-DSA-44");
    check::<tessera_mldsa::generic::MlDsa65>("ML-DSA-65");
    check::<tessera_mldsa::generic::MlDsa87>("ML-DSA-87");
}
