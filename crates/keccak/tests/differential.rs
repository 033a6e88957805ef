//! Random inputs against RustCrypto `sha3` (SHA-3, SHAKE, TurboSHAKE).

use proptest::prelude::*;
use sha3::digest::{Digest, ExtendableOutput, Update, XofReader};
use tessera_testkit::strategies::bytes_near_blocks;

fn rc_xof<X: Update + ExtendableOutput>(mut x: X, m: &[u8], n: usize) -> Vec<u8> {
    x.update(m);
    let mut out = vec![0u8; n];
    x.finalize_xof().read(&mut out);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn sha3_matches(m in bytes_near_blocks(136, 3 * 144 + 1)) {
        prop_assert_eq!(&tessera_keccak::sha3_224(&m)[..], &sha3::Sha3_224::digest(&m)[..]);
        prop_assert_eq!(&tessera_keccak::sha3_256(&m)[..], &sha3::Sha3_256::digest(&m)[..]);
        prop_assert_eq!(&tessera_keccak::sha3_384(&m)[..], &sha3::Sha3_384::digest(&m)[..]);
        prop_assert_eq!(&tessera_keccak::sha3_512(&m)[..], &sha3::Sha3_512::digest(&m)[..]);
    }

    #[test]
    fn shake_matches(m in bytes_near_blocks(168, 3 * 168 + 1), n in 0usize..600) {
        let mut o = vec![0u8; n];
        tessera_keccak::shake128(&m, &mut o);
        prop_assert_eq!(&o, &rc_xof(sha3::Shake128::default(), &m, n));
        tessera_keccak::shake256(&m, &mut o);
        prop_assert_eq!(&o, &rc_xof(sha3::Shake256::default(), &m, n));
    }

    #[test]
    fn turboshake_matches(m in bytes_near_blocks(168, 3 * 168 + 1), n in 0usize..600, d in 1u8..=0x7f) {
        let mut o = vec![0u8; n];
        tessera_keccak::turboshake128(&m, d, &mut o).unwrap();
        prop_assert_eq!(&o, &rc_xof(sha3::TurboShake128::from_core(sha3::TurboShake128Core::new(d)), &m, n));
        tessera_keccak::turboshake256(&m, d, &mut o).unwrap();
        prop_assert_eq!(&o, &rc_xof(sha3::TurboShake256::from_core(sha3::TurboShake256Core::new(d)), &m, n));
    }
}

#[test]
fn turboshake_rejects_bad_domain() {
    for d in [0u8, 0x80, 0xff] {
        let mut o = [0xAAu8; 8];
        assert_eq!(
            tessera_keccak::turboshake128(b"x", d, &mut o),
            Err(tessera_keccak::Error::InvalidDomain)
        );
        assert_eq!(o, [0xAA; 8], "output must be untouched on error");
        assert!(tessera_keccak::TurboShake256::new(d).is_err());
    }
}
