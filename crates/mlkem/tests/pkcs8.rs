//! PKCS#8 / SPKI (features `pkcs8`, `alloc`, `pem`): the LAMPS ML-KEM key examples shipped in
//! RustCrypto `ml-kem`'s package (decode, derived public key equals the `.pub` one, byte-identical
//! re-encoding), round trips with `ml-kem`'s `pkcs8` support in both directions, the both and
//! expanded-only private key forms built from `ml-kem`'s expanded key (a peer's, not ours), and
//! bad encodings rejected with their typed errors. The keys are the trait-facing types of
//! `tessera_mlkem::ml_kem`; the native types' typed parsers are checked to agree.
#![cfg(all(
    feature = "pkcs8",
    feature = "alloc",
    feature = "pem",
    not(any(miri, tessera_backend = "portable"))
))]
#![allow(deprecated)] // ml-kem's `ExpandedKeyEncoding`, the source of the expanded forms.

use ml_kem::ExpandedKeyEncoding;
use ml_kem::kem::{Kem, KeyExport};
use rand::SeedableRng;
use rand::rngs::StdRng;
use tessera_mlkem::KeyEncodingError;
use tessera_mlkem::ml_kem::ExpandedKeyEncoding as TesseraExpanded;
use tessera_mlkem::ml_kem::{DecapsulationKey, EncapsulationKey, ParameterSet};
use tessera_mlkem::pkcs8::der::asn1::{AnyRef, BitStringRef, OctetStringRef};
use tessera_mlkem::pkcs8::der::{Encode, Tag};
use tessera_mlkem::pkcs8::spki::{self, AlgorithmIdentifierRef};
use tessera_mlkem::pkcs8::{
    AssociatedOid, DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey, KeyError,
    LineEnding, ObjectIdentifier, PrivateKeyInfoRef, SubjectPublicKeyInfoRef,
};
use tessera_mlkem::{MlKem512, MlKem768, MlKem1024};
use tessera_testkit::der::tlv;
use tessera_testkit::registry::package_file;

fn example(name: &str) -> String {
    String::from_utf8(package_file(
        "ml-kem",
        "0.3.",
        &format!("tests/examples/{name}"),
    ))
    .unwrap()
}

fn lamps_example<P: ParameterSet + AssociatedOid>(label: &str) {
    use tessera_mlkem::generic;
    let priv_pem = example(&format!("ML-KEM-{label}-seed.priv"));
    let pub_pem = example(&format!("ML-KEM-{label}.pub"));
    let dk = DecapsulationKey::<P>::from_pkcs8_pem(&priv_pem).unwrap();
    let ek = EncapsulationKey::<P>::from_public_key_pem(&pub_pem).unwrap();
    assert_eq!(dk.encapsulation_key(), &ek);
    // The examples' seed is 00 01 .. 3f.
    let seed: Vec<u8> = (0u8..64).collect();
    assert_eq!(&dk.to_seed().unwrap()[..], &seed[..]);
    assert_eq!(*dk.to_pkcs8_pem(LineEnding::LF).unwrap(), priv_pem);
    assert_eq!(ek.to_public_key_pem(LineEnding::LF).unwrap(), pub_pem);
    // DER: the typed entry points agree with the traits.
    let der = dk.to_pkcs8_der().unwrap();
    let dk2 = DecapsulationKey::<P>::try_from_pkcs8_der(der.as_bytes()).unwrap();
    assert_eq!(dk2.encapsulation_key(), &ek);
    // The native types' typed parsers give the same keys.
    let native = generic::DecapsulationKey::<P>::try_from_pkcs8_der(der.as_bytes()).unwrap();
    assert!(DecapsulationKey::from(native) == dk);
    let spki = ek.to_public_key_der().unwrap();
    let native = generic::EncapsulationKey::<P>::try_from_spki_der(spki.as_bytes()).unwrap();
    assert_eq!(EncapsulationKey::from(native), ek);
    assert_eq!(
        EncapsulationKey::<P>::try_from_spki_der(spki.as_bytes()).unwrap(),
        ek
    );
}

#[test]
fn lamps_examples() {
    lamps_example::<MlKem512>("512");
    lamps_example::<MlKem768>("768");
    lamps_example::<MlKem1024>("1024");
}

/// Round trips with `ml-kem`'s PKCS#8 / SPKI support, both directions, identical documents.
fn peer_round_trip<P, K>(rng: &mut StdRng)
where
    P: ParameterSet + AssociatedOid,
    EncapsulationKey<P>: KeyExport,
    K: Kem,
    K::DecapsulationKey: EncodePrivateKey + DecodePrivateKey + KeyExport,
    K::EncapsulationKey: EncodePublicKey + DecodePublicKey,
{
    // ml-kem -> Tessera
    let (peer_dk, peer_ek) = K::generate_keypair_from_rng(rng);
    let der = peer_dk.to_pkcs8_der().unwrap();
    let dk = DecapsulationKey::<P>::from_pkcs8_der(der.as_bytes()).unwrap();
    assert_eq!(&dk.to_seed().unwrap()[..], peer_dk.to_bytes().as_slice());
    assert_eq!(dk.to_pkcs8_der().unwrap().as_bytes(), der.as_bytes());
    let spki = peer_ek.to_public_key_der().unwrap();
    let ek = EncapsulationKey::<P>::from_public_key_der(spki.as_bytes()).unwrap();
    assert_eq!(ek.to_bytes().as_slice(), peer_ek.to_bytes().as_slice());
    assert_eq!(ek.to_public_key_der().unwrap().as_bytes(), spki.as_bytes());
    // Tessera -> ml-kem
    let mut seed = [0u8; 64];
    rand::Rng::fill_bytes(rng, &mut seed);
    let dk = DecapsulationKey::<P>::from_seed(seed.into());
    let der = dk.to_pkcs8_der().unwrap();
    let peer_dk = K::DecapsulationKey::from_pkcs8_der(der.as_bytes()).unwrap();
    assert_eq!(peer_dk.to_bytes().as_slice(), &seed[..]);
    assert_eq!(peer_dk.to_pkcs8_der().unwrap().as_bytes(), der.as_bytes());
    let pem = dk
        .encapsulation_key()
        .to_public_key_pem(LineEnding::LF)
        .unwrap();
    let peer_ek = K::EncapsulationKey::from_public_key_pem(&pem).unwrap();
    assert_eq!(
        peer_ek.to_bytes().as_slice(),
        dk.encapsulation_key().to_bytes().as_slice()
    );
    assert_eq!(peer_ek.to_public_key_pem(LineEnding::LF).unwrap(), pem);
}

#[test]
fn round_trip_with_ml_kem_pkcs8() {
    let mut rng = StdRng::from_seed([11; 32]);
    for _ in 0..3 {
        peer_round_trip::<MlKem512, ml_kem::MlKem512>(&mut rng);
        peer_round_trip::<MlKem768, ml_kem::MlKem768>(&mut rng);
        peer_round_trip::<MlKem1024, ml_kem::MlKem1024>(&mut rng);
    }
}

/// A PKCS#8 document around `private_key`, with the given OID, parameters and public key.
fn pkcs8_doc(
    oid: ObjectIdentifier,
    params: Option<AnyRef<'_>>,
    private_key: &[u8],
    public_key: Option<&[u8]>,
) -> Vec<u8> {
    let mut info = PrivateKeyInfoRef::new(
        AlgorithmIdentifierRef {
            oid,
            parameters: params,
        },
        OctetStringRef::new(private_key).unwrap(),
    );
    info.public_key = public_key.map(|pk| BitStringRef::new(0, pk).unwrap());
    info.to_der().unwrap()
}

fn spki_doc(oid: ObjectIdentifier, params: Option<AnyRef<'_>>, ek: &[u8], unused: u8) -> Vec<u8> {
    SubjectPublicKeyInfoRef {
        algorithm: AlgorithmIdentifierRef {
            oid,
            parameters: params,
        },
        subject_public_key: BitStringRef::new(unused, ek).unwrap(),
    }
    .to_der()
    .unwrap()
}

fn key_error<T: std::fmt::Debug>(
    r: Result<T, tessera_mlkem::pkcs8::Error>,
) -> tessera_mlkem::pkcs8::Error {
    r.unwrap_err()
}

/// The private key forms: seed (accepted), expanded-only (rejected), both (accepted only when
/// consistent), plus lengths, OIDs, parameters, public keys, truncation and trailing bytes.
fn private_key_forms<P, Other, K>(seed: [u8; 64])
where
    P: ParameterSet + AssociatedOid,
    EncapsulationKey<P>: KeyExport,
    DecapsulationKey<P>: TesseraExpanded,
    Other: AssociatedOid,
    K: Kem,
    K::DecapsulationKey: ExpandedKeyEncoding + From<ml_kem::Seed>,
{
    let oid = P::OID;
    let peer = K::DecapsulationKey::from(seed.into());
    let expanded = peer.to_expanded_bytes().to_vec();
    let reference = DecapsulationKey::<P>::from_seed(seed.into());
    let ek_bytes = reference.encapsulation_key().to_bytes();
    let ek_bytes = ek_bytes.as_slice();

    let seed_form = tlv(0x80, &seed);
    let expanded_form = tlv(0x04, &expanded);
    let both = |s: &[u8], e: &[u8]| tlv(0x30, &[tlv(0x04, s), tlv(0x04, e)].concat());

    // Seed form.
    let dk =
        DecapsulationKey::<P>::try_from_pkcs8_der(&pkcs8_doc(oid, None, &seed_form, None)).unwrap();
    assert_eq!(dk.encapsulation_key().to_bytes().as_slice(), ek_bytes);
    // Both, consistent: accepted, the same key (its expanded form is the peer's).
    let doc = pkcs8_doc(oid, None, &both(&seed, &expanded), None);
    let dk = DecapsulationKey::<P>::try_from_pkcs8_der(&doc).unwrap();
    assert_eq!(dk.to_expanded_bytes().as_slice(), &expanded[..]);
    assert!(DecapsulationKey::<P>::from_pkcs8_der(&doc).is_ok());
    // Both, inconsistent: any byte of the expanded key changed (in dk_pke, ek, H(ek), z).
    for pos in [
        0,
        expanded.len() / 3,
        expanded.len() - 64,
        expanded.len() - 1,
    ] {
        let mut bad = expanded.clone();
        bad[pos] ^= 1;
        let doc = pkcs8_doc(oid, None, &both(&seed, &bad), None);
        assert_eq!(
            DecapsulationKey::<P>::try_from_pkcs8_der(&doc).unwrap_err(),
            KeyEncodingError::Inconsistent
        );
        assert_eq!(
            key_error(DecapsulationKey::<P>::from_pkcs8_der(&doc)),
            tessera_mlkem::pkcs8::Error::KeyMalformed(KeyError::Invalid)
        );
    }
    // Both, with the seed of another key.
    let mut other_seed = seed;
    other_seed[0] ^= 0x80;
    let doc = pkcs8_doc(oid, None, &both(&other_seed, &expanded), None);
    assert_eq!(
        DecapsulationKey::<P>::try_from_pkcs8_der(&doc).unwrap_err(),
        KeyEncodingError::Inconsistent
    );
    // Both, wrong lengths; both with a third element.
    let doc = pkcs8_doc(oid, None, &both(&seed[..63], &expanded), None);
    assert_eq!(
        DecapsulationKey::<P>::try_from_pkcs8_der(&doc).unwrap_err(),
        KeyEncodingError::InvalidLength
    );
    let doc = pkcs8_doc(oid, None, &both(&seed, &expanded[1..]), None);
    assert_eq!(
        DecapsulationKey::<P>::try_from_pkcs8_der(&doc).unwrap_err(),
        KeyEncodingError::InvalidLength
    );
    let three = tlv(
        0x30,
        &[tlv(0x04, &seed), tlv(0x04, &expanded), tlv(0x04, &[])].concat(),
    );
    assert!(matches!(
        DecapsulationKey::<P>::try_from_pkcs8_der(&pkcs8_doc(oid, None, &three, None)).unwrap_err(),
        KeyEncodingError::Der(_)
    ));
    // Expanded-only.
    let doc = pkcs8_doc(oid, None, &expanded_form, None);
    assert_eq!(
        DecapsulationKey::<P>::try_from_pkcs8_der(&doc).unwrap_err(),
        KeyEncodingError::ExpandedOnly
    );
    assert_eq!(
        key_error(DecapsulationKey::<P>::from_pkcs8_der(&doc)),
        tessera_mlkem::pkcs8::Error::KeyMalformed(KeyError::Invalid)
    );
    // Seed form of the wrong length; a seed in a plain OCTET STRING; the seed not wrapped at all.
    for s in [&seed[..63], &[seed.as_slice(), &[0]].concat()[..]] {
        let doc = pkcs8_doc(oid, None, &tlv(0x80, s), None);
        assert_eq!(
            DecapsulationKey::<P>::try_from_pkcs8_der(&doc).unwrap_err(),
            KeyEncodingError::InvalidLength
        );
    }
    let doc = pkcs8_doc(oid, None, &tlv(0x04, &seed), None);
    assert_eq!(
        DecapsulationKey::<P>::try_from_pkcs8_der(&doc).unwrap_err(),
        KeyEncodingError::ExpandedOnly
    );
    let doc = pkcs8_doc(oid, None, &seed, None);
    assert!(matches!(
        DecapsulationKey::<P>::try_from_pkcs8_der(&doc).unwrap_err(),
        KeyEncodingError::Der(_)
    ));
    // A trailing byte inside the private key OCTET STRING.
    let doc = pkcs8_doc(oid, None, &[seed_form.as_slice(), &[0]].concat(), None);
    assert!(matches!(
        DecapsulationKey::<P>::try_from_pkcs8_der(&doc).unwrap_err(),
        KeyEncodingError::Der(_)
    ));
    // Wrong OID (another parameter set), and the trait's error for it.
    let doc = pkcs8_doc(Other::OID, None, &seed_form, None);
    assert_eq!(
        DecapsulationKey::<P>::try_from_pkcs8_der(&doc).unwrap_err(),
        KeyEncodingError::WrongAlgorithm(Other::OID)
    );
    assert!(matches!(
        key_error(DecapsulationKey::<P>::from_pkcs8_der(&doc)),
        tessera_mlkem::pkcs8::Error::PublicKey(spki::Error::OidUnknown { .. })
    ));
    // Parameters present (NULL).
    let null = AnyRef::new(Tag::Null, &[]).unwrap();
    let doc = pkcs8_doc(oid, Some(null), &seed_form, None);
    assert_eq!(
        DecapsulationKey::<P>::try_from_pkcs8_der(&doc).unwrap_err(),
        KeyEncodingError::ParametersPresent
    );
    assert_eq!(
        key_error(DecapsulationKey::<P>::from_pkcs8_der(&doc)),
        tessera_mlkem::pkcs8::Error::ParametersMalformed
    );
    // Version 2 with the matching public key: accepted; another public key: rejected.
    let doc = pkcs8_doc(oid, None, &seed_form, Some(ek_bytes));
    assert!(DecapsulationKey::<P>::try_from_pkcs8_der(&doc).is_ok());
    let mut other_ek = ek_bytes.to_vec();
    other_ek[5] ^= 1;
    let doc = pkcs8_doc(oid, None, &seed_form, Some(&other_ek));
    assert_eq!(
        DecapsulationKey::<P>::try_from_pkcs8_der(&doc).unwrap_err(),
        KeyEncodingError::PublicKeyMismatch
    );
    // Truncated documents and a trailing byte after the document.
    let good = pkcs8_doc(oid, None, &seed_form, None);
    for n in [0, 1, 10, good.len() - 1] {
        assert!(matches!(
            DecapsulationKey::<P>::try_from_pkcs8_der(&good[..n]).unwrap_err(),
            KeyEncodingError::Der(_)
        ));
        assert!(matches!(
            key_error(DecapsulationKey::<P>::from_pkcs8_der(&good[..n])),
            tessera_mlkem::pkcs8::Error::Asn1(_)
        ));
    }
    let trailing = [good.as_slice(), &[0]].concat();
    assert!(matches!(
        DecapsulationKey::<P>::try_from_pkcs8_der(&trailing).unwrap_err(),
        KeyEncodingError::Der(_)
    ));
    assert!(DecapsulationKey::<P>::from_pkcs8_der(&trailing).is_err());
    // A key without a seed (from the expanded encoding) has no PKCS#8 form.
    let no_seed =
        DecapsulationKey::<P>::from_expanded_bytes(expanded.as_slice().try_into().unwrap())
            .unwrap();
    assert!(no_seed.to_pkcs8_der().is_err());
}

/// SPKI: OID, parameters, BIT STRING, lengths, the modulus check, truncation, trailing bytes.
fn spki_forms<P: ParameterSet + AssociatedOid, Other: AssociatedOid>(seed: [u8; 64])
where
    EncapsulationKey<P>: KeyExport,
{
    let oid = P::OID;
    let dk = DecapsulationKey::<P>::from_seed(seed.into());
    let ek = dk.encapsulation_key().to_bytes();
    let ek = ek.as_slice();
    assert!(EncapsulationKey::<P>::try_from_spki_der(&spki_doc(oid, None, ek, 0)).is_ok());
    let doc = spki_doc(Other::OID, None, ek, 0);
    assert_eq!(
        EncapsulationKey::<P>::try_from_spki_der(&doc).unwrap_err(),
        KeyEncodingError::WrongAlgorithm(Other::OID)
    );
    assert!(matches!(
        EncapsulationKey::<P>::from_public_key_der(&doc).unwrap_err(),
        spki::Error::OidUnknown { .. }
    ));
    let null = AnyRef::new(Tag::Null, &[]).unwrap();
    let doc = spki_doc(oid, Some(null), ek, 0);
    assert_eq!(
        EncapsulationKey::<P>::try_from_spki_der(&doc).unwrap_err(),
        KeyEncodingError::ParametersPresent
    );
    assert_eq!(
        EncapsulationKey::<P>::from_public_key_der(&doc).unwrap_err(),
        spki::Error::KeyMalformed
    );
    for bad_len in [&ek[1..], &[ek, &[0]].concat()[..]] {
        let doc = spki_doc(oid, None, bad_len, 0);
        assert_eq!(
            EncapsulationKey::<P>::try_from_spki_der(&doc).unwrap_err(),
            KeyEncodingError::InvalidLength
        );
    }
    // A BIT STRING with unused bits.
    let mut last_zero = ek.to_vec();
    *last_zero.last_mut().unwrap() &= 0xf0;
    let doc = spki_doc(oid, None, &last_zero, 4);
    assert_eq!(
        EncapsulationKey::<P>::try_from_spki_der(&doc).unwrap_err(),
        KeyEncodingError::InvalidLength
    );
    // The modulus check: a coefficient 4095 >= q.
    let mut bad = ek.to_vec();
    bad[0] = 0xff;
    bad[1] |= 0x0f;
    let doc = spki_doc(oid, None, &bad, 0);
    assert_eq!(
        EncapsulationKey::<P>::try_from_spki_der(&doc).unwrap_err(),
        KeyEncodingError::InvalidKey
    );
    assert_eq!(
        EncapsulationKey::<P>::from_public_key_der(&doc).unwrap_err(),
        spki::Error::KeyMalformed
    );
    let good = spki_doc(oid, None, ek, 0);
    for n in [0, 2, 20, good.len() - 1] {
        assert!(matches!(
            EncapsulationKey::<P>::try_from_spki_der(&good[..n]).unwrap_err(),
            KeyEncodingError::Der(_)
        ));
        assert!(matches!(
            EncapsulationKey::<P>::from_public_key_der(&good[..n]).unwrap_err(),
            spki::Error::Asn1(_)
        ));
    }
    let trailing = [good.as_slice(), &[0]].concat();
    assert!(matches!(
        EncapsulationKey::<P>::try_from_spki_der(&trailing).unwrap_err(),
        KeyEncodingError::Der(_)
    ));
    assert!(EncapsulationKey::<P>::from_public_key_der(&trailing).is_err());
}

#[test]
fn private_key_forms_and_bad_encodings() {
    let seeds = [[0x42u8; 64], core::array::from_fn(|i| (i * 7) as u8)];
    for seed in seeds {
        private_key_forms::<MlKem512, MlKem768, ml_kem::MlKem512>(seed);
        private_key_forms::<MlKem768, MlKem1024, ml_kem::MlKem768>(seed);
        private_key_forms::<MlKem1024, MlKem512, ml_kem::MlKem1024>(seed);
    }
}

#[test]
fn spki_bad_encodings() {
    spki_forms::<MlKem512, MlKem1024>([1; 64]);
    spki_forms::<MlKem768, MlKem512>([2; 64]);
    spki_forms::<MlKem1024, MlKem768>([3; 64]);
}
