//! ML-KEM-512/768/1024 against RustCrypto `ml-kem`, every backend of this CPU: encapsulation
//! key parsing (the FIPS 203 modulus check must agree) and encapsulation, decapsulation of
//! arbitrary and tampered ciphertexts (implicit rejection must give the same key), expanded
//! decapsulation key parsing (the hash check must agree), and the PKCS#8 / SPKI decoders
//! (an error, or a key that encapsulates to itself).
//!
//! Input layout: op byte, parameter-set byte, 64-byte seed, 32-byte message `m`, then the
//! bytes of the op: XORed over the genuine encoding of the seed's key (op bit 7 clear) or
//! taken as they are (set).
#![no_main]
// The expanded key form is deprecated in `ml-kem` (seeds are preferred); it is still parsed here.
#![allow(deprecated)]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use ml_kem::{Decapsulate as _, ExpandedKeyEncoding as _, KeyExport as _};
use tessera_fuzz::{backends, same, tampered as input};
use tessera_mlkem::testing::Backend;

#[derive(Arbitrary, Debug)]
struct Case {
    op: u8,
    set: u8,
    seed: [u8; 64],
    m: [u8; 32],
    data: Vec<u8>,
}

macro_rules! set {
    ($c:expr, $ours:ident, $theirs:ident) => {{
        use tessera_mlkem::$ours::{Ciphertext, DecapsulationKey, EncapsulationKey};
        type TDk = ml_kem::$theirs::DecapsulationKey;
        type TEk = ml_kem::$theirs::EncapsulationKey;
        let c = $c;
        let tdk = TDk::from_seed(c.seed.into());
        match c.op % 4 {
            // Encapsulation key parsing and encapsulation.
            0 => {
                let bytes = input(c.op, &tdk.encapsulation_key().to_bytes(), &c.data);
                let theirs = bytes
                    .as_slice()
                    .try_into()
                    .ok()
                    .and_then(|a| TEk::new(&a).ok());
                let want = theirs
                    .as_ref()
                    .map(|t| t.encapsulate_deterministic(&c.m.into()));
                for be in backends::<Backend>() {
                    let ours = EncapsulationKey::from_bytes_with_backend(be, &bytes);
                    same(be.name(), &ours.is_ok(), &theirs.is_some());
                    if let (Ok(ek), Some((tct, tk))) = (ours, &want) {
                        same(be.name(), &ek.to_bytes()[..], &bytes[..]);
                        let (ct, k) = ek.encapsulate_deterministic(&c.m);
                        same(be.name(), &ct.as_bytes()[..], &tct[..]);
                        same(be.name(), &k.as_bytes()[..], &tk[..]);
                    }
                }
            }
            // Decapsulation of an arbitrary or tampered ciphertext.
            1 => {
                let (gct, _) = tdk
                    .encapsulation_key()
                    .encapsulate_deterministic(&c.m.into());
                let bytes = input(c.op, &gct, &c.data);
                let theirs = bytes
                    .as_slice()
                    .try_into()
                    .ok()
                    .map(|a: ml_kem::$theirs::Ciphertext| tdk.decapsulate(&a));
                for be in backends::<Backend>() {
                    let dk = DecapsulationKey::from_seed_with_backend(be, &c.seed);
                    let ct = Ciphertext::from_bytes(&bytes);
                    same(be.name(), &ct.is_ok(), &theirs.is_some());
                    if let (Ok(ct), Some(tk)) = (ct, &theirs) {
                        same(be.name(), &dk.decapsulate(&ct).as_bytes()[..], &tk[..]);
                    }
                }
            }
            // Expanded decapsulation key parsing, then decapsulation.
            2 => {
                let bytes = input(c.op, &tdk.to_expanded_bytes(), &c.data);
                let theirs = bytes
                    .as_slice()
                    .try_into()
                    .ok()
                    .and_then(|a| TDk::from_expanded_bytes(&a).ok());
                let (gct, _) = tdk
                    .encapsulation_key()
                    .encapsulate_deterministic(&c.m.into());
                for be in backends::<Backend>() {
                    let ours = DecapsulationKey::from_expanded_bytes_with_backend(be, &bytes);
                    same(be.name(), &ours.is_ok(), &theirs.is_some());
                    if let (Ok(dk), Some(tdk)) = (ours, &theirs) {
                        // FIPS 203 checks the hash of ek, not the range of s-hat: an
                        // out-of-range coefficient is accepted and written back reduced, as
                        // RustCrypto writes it back.
                        same(
                            be.name(),
                            &dk.to_expanded_bytes()[..],
                            &tdk.to_expanded_bytes()[..],
                        );
                        let ct = Ciphertext::from_bytes(&gct).unwrap();
                        same(
                            be.name(),
                            &dk.decapsulate(&ct).as_bytes()[..],
                            &tdk.decapsulate(&gct)[..],
                        );
                    }
                }
            }
            // PKCS#8 and SPKI documents.
            _ => {
                if let Ok(dk) = DecapsulationKey::try_from_pkcs8_der(&c.data) {
                    let (ct, k) = dk.encapsulation_key().encapsulate_deterministic(&c.m);
                    same("pkcs8 key", dk.decapsulate(&ct).as_bytes(), k.as_bytes());
                }
                if let Ok(ek) = EncapsulationKey::try_from_spki_der(&c.data) {
                    same(
                        "spki key",
                        &EncapsulationKey::from_bytes(&ek.to_bytes()).unwrap(),
                        &ek,
                    );
                }
            }
        }
    }};
}

fuzz_target!(|c: Case| match c.set % 3 {
    0 => set!(&c, ml_kem_512, ml_kem_512),
    1 => set!(&c, ml_kem_768, ml_kem_768),
    _ => set!(&c, ml_kem_1024, ml_kem_1024),
});
