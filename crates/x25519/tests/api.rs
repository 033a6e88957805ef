//! The public API: key types, conversions, errors for bad input, the contributory check, and
//! randomness through `rand_core` 0.10.

use rand::SeedableRng;
use tessera_x25519::{
    EphemeralSecret, Error, PublicKey, SharedSecret, StaticSecret, X25519_BASEPOINT_BYTES, x25519,
    x25519_base,
};

#[test]
fn key_agreement_round_trip() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let a = StaticSecret::random(&mut rng);
    let b = EphemeralSecret::random(&mut rng);
    let pa = PublicKey::from(&a);
    let pb = PublicKey::from(&b);
    assert_ne!(pa, pb);
    let kb = b.diffie_hellman(&pa).unwrap();
    let ka = a.diffie_hellman(&pb).unwrap();
    assert_eq!(ka.as_bytes(), kb.as_bytes());
    assert_eq!(ka.to_bytes(), *kb.as_bytes());
    // StaticSecret serializes to what it was made from.
    let bytes = a.to_bytes();
    assert_eq!(StaticSecret::from(bytes).to_bytes(), bytes);
    assert_eq!(a.as_bytes(), &bytes);
    assert_eq!(PublicKey::from(&StaticSecret::from(bytes)), pa);
    assert_eq!(x25519_base(bytes), pa.to_bytes());
}

#[test]
fn random_secrets_differ() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let a = StaticSecret::random(&mut rng);
    let b = StaticSecret::random(&mut rng);
    assert_ne!(a.to_bytes(), b.to_bytes());
}

#[test]
fn public_key_from_slice_checks_length() {
    for n in [0usize, 1, 31, 33, 64] {
        let v = vec![9u8; n];
        assert_eq!(
            PublicKey::try_from(&v[..]),
            Err(Error::InvalidLength),
            "len {n}"
        );
    }
    let pk = PublicKey::try_from(&X25519_BASEPOINT_BYTES[..]).unwrap();
    assert_eq!(pk.as_bytes(), &X25519_BASEPOINT_BYTES);
    assert_eq!(pk.as_ref(), &X25519_BASEPOINT_BYTES[..]);
    assert_eq!(PublicKey::from(X25519_BASEPOINT_BYTES), pk);
}

/// The points of order 1, 2, 4 and 8 and their non-canonical encodings (u + p), and the same
/// with the top bit set: every scalar gives the all-zero output, which `x25519` returns as it
/// is and `diffie_hellman` rejects.
#[test]
fn low_order_points_are_non_contributory() {
    let p = {
        let mut b = [0xffu8; 32];
        b[0] = 0xed;
        b[31] = 0x7f;
        b
    };
    let add_p = |u: [u8; 32]| {
        let mut out = [0u8; 32];
        let mut c = 0u16;
        for i in 0..32 {
            let s = u[i] as u16 + p[i] as u16 + c;
            out[i] = s as u8;
            c = s >> 8;
        }
        out
    };
    let mut order8 = Vec::new();
    for h in [
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000000",
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
        "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    ] {
        let u = tessera_testkit::hex::array::<32>(h);
        order8.push(u);
        // u + p < 2^255 for the small ones (0, 1): non-canonical forms.
        let np = add_p(u);
        if np[31] & 0x80 == 0 {
            order8.push(np);
        }
        let mut top = u;
        top[31] |= 0x80;
        order8.push(top);
    }
    let secret = StaticSecret::from([0x42; 32]);
    for u in order8 {
        assert_eq!(x25519([0x42; 32], u), [0u8; 32], "{u:x?}");
        assert_eq!(
            secret.diffie_hellman(&PublicKey::from(u)).err(),
            Some(Error::NonContributory),
            "{u:x?}"
        );
        let e =
            EphemeralSecret::new_with_backend(tessera_x25519::testing::Backend::detect(), [7; 32]);
        assert_eq!(
            e.diffie_hellman(&PublicKey::from(u)).err(),
            Some(Error::NonContributory)
        );
    }
}

#[test]
fn error_and_debug_output() {
    let e: &dyn core::error::Error = &Error::NonContributory;
    assert!(e.to_string().contains("zero"));
    assert!(Error::InvalidLength.to_string().contains("32"));
    // Secrets never print their bytes.
    let s = StaticSecret::from([0xab; 32]);
    let dbg = format!("{s:?}");
    assert!(
        !dbg.contains("171") && !dbg.to_lowercase().contains("ab,"),
        "{dbg}"
    );
    let k: SharedSecret = s
        .diffie_hellman(&PublicKey::from(x25519_base([1; 32])))
        .unwrap();
    assert_eq!(format!("{k:?}"), "SharedSecret { .. }");
    let e = EphemeralSecret::random(&mut rand::rngs::StdRng::seed_from_u64(3));
    assert_eq!(format!("{e:?}"), "EphemeralSecret { .. }");
}

#[test]
fn clamping_and_top_bit() {
    // Bits 0..2 and 255 of the scalar are ignored, bit 254 is forced.
    let k = [0x5au8; 32];
    let mut k2 = k;
    k2[0] ^= 0x07;
    k2[31] ^= 0xc0;
    let u = x25519_base([3; 32]);
    assert_eq!(x25519(k, u), x25519(k2, u));
    assert_eq!(x25519_base(k), x25519_base(k2));
    // The top bit of u is masked.
    let mut u2 = u;
    u2[31] ^= 0x80;
    assert_eq!(x25519(k, u), x25519(k, u2));
}
