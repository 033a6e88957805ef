//! Random inputs against RustCrypto `sha3` (SHA-3, SHAKE, TurboSHAKE), on every single-state
//! backend, plus an accumulated chain over every length around the block sizes.

#[path = "data/common.rs"]
mod common;

use common::{bytes_near_every_rate, every_x1, len_near_every_rate};
use proptest::prelude::*;
use sha3::digest::{Digest, ExtendableOutput, Update, XofReader};
use tessera_keccak::TurboShake128;
use tessera_keccak::testing::X1Backend;

fn rc_xof<X: Update + ExtendableOutput>(mut x: X, m: &[u8], n: usize) -> Vec<u8> {
    x.update(m);
    let mut out = vec![0u8; n];
    x.finalize_xof().read(&mut out);
    out
}

fn rc_turbo128(d: u8) -> sha3::TurboShake128 {
    sha3::TurboShake128::from_core(sha3::TurboShake128Core::new(d))
}

fn rc_turbo256(d: u8) -> sha3::TurboShake256 {
    sha3::TurboShake256::from_core(sha3::TurboShake256Core::new(d))
}

/// What [`every_x1`] computes for one piece `m` with domain `d` for both TurboSHAKEs (the four
/// SHA-3 digests, then `n` bytes of SHAKE128, SHAKE256, TurboSHAKE128 and TurboSHAKE256),
/// computed by RustCrypto `sha3`.
fn theirs(m: &[u8], n: usize, d: u8) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend(sha3::Sha3_224::digest(m));
    out.extend(sha3::Sha3_256::digest(m));
    out.extend(sha3::Sha3_384::digest(m));
    out.extend(sha3::Sha3_512::digest(m));
    out.extend(rc_xof(sha3::Shake128::default(), m, n));
    out.extend(rc_xof(sha3::Shake256::default(), m, n));
    out.extend(rc_xof(rc_turbo128(d), m, n));
    out.extend(rc_xof(rc_turbo256(d), m, n));
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_function_on_every_backend_matches(
        m in bytes_near_every_rate(3 * 168 + 1),
        n in len_near_every_rate(599),
        d in 1u8..=0x7f,
    ) {
        let expect = theirs(&m, n, d);
        for be in tessera_testkit::available::<X1Backend>() {
            prop_assert_eq!(&every_x1(be, &[&m], n, [d, d]), &expect, "backend {}", be.name());
        }
    }

    /// The public one-shots (detected backend).
    #[test]
    fn one_shots_match(
        m in bytes_near_every_rate(3 * 168 + 1),
        n in len_near_every_rate(599),
        d in 1u8..=0x7f,
    ) {
        prop_assert_eq!(&tessera_keccak::sha3_224(&m)[..], &sha3::Sha3_224::digest(&m)[..]);
        prop_assert_eq!(&tessera_keccak::sha3_256(&m)[..], &sha3::Sha3_256::digest(&m)[..]);
        prop_assert_eq!(&tessera_keccak::sha3_384(&m)[..], &sha3::Sha3_384::digest(&m)[..]);
        prop_assert_eq!(&tessera_keccak::sha3_512(&m)[..], &sha3::Sha3_512::digest(&m)[..]);
        let mut o = vec![0u8; n];
        tessera_keccak::shake128(&m, &mut o);
        prop_assert_eq!(&o, &rc_xof(sha3::Shake128::default(), &m, n));
        tessera_keccak::shake256(&m, &mut o);
        prop_assert_eq!(&o, &rc_xof(sha3::Shake256::default(), &m, n));
        tessera_keccak::turboshake128(&m, d, &mut o).unwrap();
        prop_assert_eq!(&o, &rc_xof(rc_turbo128(d), &m, n));
        tessera_keccak::turboshake256(&m, d, &mut o).unwrap();
        prop_assert_eq!(&o, &rc_xof(rc_turbo256(d), &m, n));
    }
}

/// Accumulated digest: for every message length 0..=3*168+1, the message is the previous step's
/// outputs stretched to that length; all outputs are absorbed into one running SHA3-256 chain.
/// Ours on every backend must end at RustCrypto's value (any divergence anywhere changes it).
#[test]
fn accumulated_chain_matches_rustcrypto() {
    fn chain(step: impl Fn(&[u8], usize, u8) -> Vec<u8>) -> Vec<u8> {
        let mut acc = sha3::Sha3_256::new();
        let mut seed = b"tessera-keccak accumulated".to_vec();
        for len in 0..=3 * 168 + 1 {
            let m: Vec<u8> = seed.iter().copied().cycle().take(len).collect();
            let d = (len % 0x7f) as u8 + 1;
            let out = step(&m, len % 300, d);
            Digest::update(&mut acc, &out);
            seed = out;
            if seed.is_empty() {
                seed.push(len as u8);
            }
        }
        acc.finalize().to_vec()
    }
    let expect = chain(theirs);
    for be in tessera_testkit::available::<X1Backend>() {
        assert_eq!(
            chain(|m, n, d| every_x1(be, &[m], n, [d, d])),
            expect,
            "{}",
            be.name()
        );
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
        for be in tessera_testkit::available::<X1Backend>() {
            assert!(TurboShake128::new_with_backend(be, d).is_err());
        }
    }
}
