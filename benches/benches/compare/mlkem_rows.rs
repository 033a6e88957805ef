//! The ML-KEM rows.

use crate::*;

// --- ML-KEM ---

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum KemOp {
    KeyGen,
    Encaps,
    Decaps,
    /// Encapsulation with the key parsed from its bytes on every call.
    EncapsFromBytes,
    /// Decapsulation with the key parsed from its expanded FIPS 203 bytes on every call.
    DecapsFromBytes,
}

pub(crate) const MLKEM_NOTES: [&str; 5] = [
    "keygen: Tessera, libcrux and RustCrypto derive the key from a fixed 64-byte seed; aws-lc-rs and pqcrypto-mlkem have no seed API in Rust, so their rows include an OS RNG call (64 bytes)",
    "encaps (reused key): Tessera, RustCrypto and aws-lc-rs reuse a parsed key; libcrux and pqcrypto-mlkem have no parsed-key form here and take the encoded key on every call (their rows include parsing it and ExpandA); aws-lc-rs and pqcrypto-mlkem draw m from the OS RNG on every call, the others take a fixed m",
    "decaps (reused key): Tessera (A-hat in NTT form, s-hat and H(ek) kept), RustCrypto and aws-lc-rs reuse a parsed key; libcrux and pqcrypto-mlkem take the key bytes on every call (their rows include parsing them and ExpandA)",
    "encaps from bytes: every library parses the 1184/800/1568-byte encapsulation key (modulus check, ExpandA) on every call; aws-lc-rs and pqcrypto-mlkem draw m from the OS RNG, the others take a fixed m",
    "decaps from bytes: every library parses the expanded FIPS 203 decapsulation key (Tessera and RustCrypto with the section 7.3 hash check) on every call",
];

/// Seed (d || z) and message m of the ML-KEM rows.
pub(crate) fn mlkem_inputs() -> ([u8; 64], [u8; 32]) {
    let (mut seed, mut m) = ([0u8; 64], [0u8; 32]);
    SplitMix64(0x6d6c6b656d).fill(&mut seed);
    SplitMix64(0x6d).fill(&mut m);
    (seed, m)
}

/// The ML-KEM rows of one parameter set: `$t` Tessera's module, `$lc` libcrux's, `$rc`
/// RustCrypto ml-kem's, `$aws` aws-lc-rs's algorithm. `portable`: Tessera's portable backend
/// against RustCrypto ml-kem only (both portable Rust).
macro_rules! mlkem_builder {
    ($fn:ident, $t:ident, $lc:ident, $rc:ident, $aws:ident, $pq:ident) => {
        pub(crate) fn $fn(op: KemOp, portable: bool) -> Built {
            use ml_kem::{Decapsulate, KeyExport};
            use tessera_mlkem::$t::{Ciphertext, DecapsulationKey, EncapsulationKey};
            let (seed, m) = mlkem_inputs();
            let dk0 = DecapsulationKey::from_seed(&seed);
            let ek_bytes = dk0.encapsulation_key().to_bytes();
            let (ct, ss) = dk0.encapsulation_key().encapsulate_deterministic(&m);
            let ss = *ss.as_bytes();
            let impls = if portable {
                vec![tessera::mlkem_portable()]
            } else {
                tessera::mlkem_impls()
            };
            let mut cs = Vec::new();
            for (i, t) in impls.into_iter().enumerate() {
                let be = t.backend;
                let role = if i == 0 { Role::Reference } else { Role::Backend };
                let name = format!("tessera/{}", t.name);
                let keygen = move |s: &[u8; 64]| match be {
                    None => DecapsulationKey::from_seed(s),
                    Some(be) => DecapsulationKey::from_seed_with_backend(be, s),
                };
                cs.push(match op {
                    KemOp::KeyGen => {
                        assert_eq!(keygen(&seed).encapsulation_key().to_bytes(), ek_bytes, "{name}");
                        Contestant::new(name, role, move || {
                            black_box(keygen(black_box(&seed)));
                        })
                    }
                    KemOp::Encaps => {
                        let ek = match be {
                            None => EncapsulationKey::from_bytes(&ek_bytes),
                            Some(be) => EncapsulationKey::from_bytes_with_backend(be, &ek_bytes),
                        }
                        .unwrap();
                        assert!(ek.encapsulate_deterministic(&m).0 == ct, "{name}");
                        Contestant::new(name, role, move || {
                            black_box(ek.encapsulate_deterministic(black_box(&m)));
                        })
                    }
                    KemOp::Decaps => {
                        let dk = keygen(&seed);
                        let c = Ciphertext::from_bytes(ct.as_bytes()).unwrap();
                        assert_eq!(dk.decapsulate(&c).as_bytes(), &ss, "{name}");
                        Contestant::new(name, role, move || {
                            black_box(dk.decapsulate(black_box(&c)));
                        })
                    }
                    KemOp::EncapsFromBytes => {
                        let parse = move |b: &[u8]| match be {
                            None => EncapsulationKey::from_bytes(b),
                            Some(be) => EncapsulationKey::from_bytes_with_backend(be, b),
                        };
                        assert!(parse(&ek_bytes).unwrap().encapsulate_deterministic(&m).0 == ct, "{name}");
                        Contestant::new(name, role, move || {
                            let ek = parse(black_box(&ek_bytes)).unwrap();
                            black_box(ek.encapsulate_deterministic(black_box(&m)));
                        })
                    }
                    KemOp::DecapsFromBytes => {
                        let parse = move |b: &[u8]| match be {
                            None => DecapsulationKey::from_expanded_bytes(b),
                            Some(be) => DecapsulationKey::from_expanded_bytes_with_backend(be, b),
                        };
                        let dk_bytes = dk0.to_expanded_bytes();
                        let c = Ciphertext::from_bytes(ct.as_bytes()).unwrap();
                        assert_eq!(parse(&dk_bytes).unwrap().decapsulate(&c).as_bytes(), &ss, "{name}");
                        Contestant::new(name, role, move || {
                            let dk = parse(black_box(&dk_bytes)).unwrap();
                            black_box(dk.decapsulate(black_box(&c)));
                        })
                    }
                });
            }
            // RustCrypto ml-kem (portable Rust): in every row.
            let rc = ml_kem::$rc::DecapsulationKey::from_seed(seed.into());
            assert_eq!(rc.encapsulation_key().to_bytes()[..], ek_bytes[..], "ml-kem keygen");
            cs.push(match op {
                KemOp::KeyGen => Contestant::new("ml-kem", Role::Peer, move || {
                    black_box(ml_kem::$rc::DecapsulationKey::from_seed(black_box(seed).into()));
                }),
                KemOp::Encaps => {
                    let ek = rc.encapsulation_key().clone();
                    let (c, _) = ek.encapsulate_deterministic(&m.into());
                    assert_eq!(c[..], ct.as_bytes()[..], "ml-kem encaps");
                    Contestant::new("ml-kem", Role::Peer, move || {
                        black_box(ek.encapsulate_deterministic(&black_box(m).into()));
                    })
                }
                KemOp::Decaps => {
                    let c = ml_kem::array::Array::try_from(&ct.as_bytes()[..]).unwrap();
                    assert_eq!(rc.decapsulate(&c)[..], ss[..], "ml-kem decaps");
                    Contestant::new("ml-kem", Role::Peer, move || {
                        black_box(rc.decapsulate(black_box(&c)));
                    })
                }
                KemOp::EncapsFromBytes => {
                    let b = ml_kem::array::Array::try_from(&ek_bytes[..]).unwrap();
                    let ek = ml_kem::$rc::EncapsulationKey::new(&b).unwrap();
                    assert_eq!(ek.encapsulate_deterministic(&m.into()).0[..], ct.as_bytes()[..], "ml-kem encaps");
                    Contestant::new("ml-kem", Role::Peer, move || {
                        let ek = ml_kem::$rc::EncapsulationKey::new(black_box(&b)).unwrap();
                        black_box(ek.encapsulate_deterministic(&black_box(m).into()));
                    })
                }
                KemOp::DecapsFromBytes => {
                    // The expanded form is deprecated in ml-kem 0.3 (seeds are the canonical
                    // key) but still the FIPS 203 encoding the other libraries read.
                    #[allow(deprecated)]
                    let parse = |b: &ml_kem::$rc::ExpandedDecapsulationKey| {
                        ml_kem::$rc::DecapsulationKey::from_expanded(b).unwrap()
                    };
                    let b = ml_kem::array::Array::try_from(&dk0.to_expanded_bytes()[..]).unwrap();
                    let c = ml_kem::array::Array::try_from(&ct.as_bytes()[..]).unwrap();
                    assert_eq!(parse(&b).decapsulate(&c)[..], ss[..], "ml-kem decaps");
                    Contestant::new("ml-kem", Role::Peer, move || {
                        black_box(parse(black_box(&b)).decapsulate(black_box(&c)));
                    })
                }
            });
            if portable {
                return Built {
                    contestants: cs,
                    notes: vec!["portable only: Tessera portable against RustCrypto ml-kem (both portable Rust)".into()],
                };
            }
            // libcrux-ml-kem (its AVX2 code where the CPU has it).
            let lc = libcrux_ml_kem::$lc::generate_key_pair(seed);
            assert_eq!(lc.public_key().as_slice()[..], ek_bytes[..], "libcrux keygen");
            let (lc_ct, lc_ss) = libcrux_ml_kem::$lc::encapsulate(lc.public_key(), m);
            assert_eq!(lc_ct.as_slice()[..], ct.as_bytes()[..], "libcrux encaps");
            assert_eq!(lc_ss[..], ss[..], "libcrux shared secret");
            cs.push(match op {
                KemOp::KeyGen => Contestant::new("libcrux-ml-kem", Role::Peer, move || {
                    black_box(libcrux_ml_kem::$lc::generate_key_pair(black_box(seed)));
                }),
                KemOp::Encaps | KemOp::EncapsFromBytes => Contestant::new("libcrux-ml-kem", Role::Peer, move || {
                    black_box(libcrux_ml_kem::$lc::encapsulate(
                        black_box(lc.public_key()),
                        black_box(m),
                    ));
                }),
                KemOp::Decaps | KemOp::DecapsFromBytes => {
                    assert_eq!(
                        libcrux_ml_kem::$lc::decapsulate(lc.private_key(), &lc_ct)[..],
                        ss[..],
                        "libcrux decaps"
                    );
                    Contestant::new("libcrux-ml-kem", Role::Peer, move || {
                        black_box(libcrux_ml_kem::$lc::decapsulate(
                            black_box(lc.private_key()),
                            black_box(&lc_ct),
                        ));
                    })
                }
            });
            // aws-lc-rs (mlkem-native): no seed or fixed-m API.
            use aws_lc_rs::kem as aws;
            let adk = aws::DecapsulationKey::generate(&aws::$aws).unwrap();
            let aek = adk.encapsulation_key().unwrap();
            let (act, ass) = aek.encapsulate().unwrap();
            let act = act.as_ref().to_vec();
            assert_eq!(
                adk.decapsulate(act[..].into()).unwrap().as_ref(),
                ass.as_ref(),
                "aws-lc-rs round trip"
            );
            cs.push(match op {
                KemOp::KeyGen => Contestant::new("aws-lc-rs", Role::Peer, move || {
                    black_box(aws::DecapsulationKey::generate(&aws::$aws).unwrap());
                }),
                KemOp::Encaps => Contestant::new("aws-lc-rs", Role::Peer, move || {
                    black_box(aek.encapsulate().unwrap());
                }),
                KemOp::Decaps => Contestant::new("aws-lc-rs", Role::Peer, move || {
                    black_box(adk.decapsulate(black_box(&act[..]).into()).unwrap());
                }),
                KemOp::EncapsFromBytes => {
                    let b = aek.key_bytes().unwrap().as_ref().to_vec();
                    Contestant::new("aws-lc-rs", Role::Peer, move || {
                        let ek = aws::EncapsulationKey::new(&aws::$aws, black_box(&b)).unwrap();
                        black_box(ek.encapsulate().unwrap());
                    })
                }
                KemOp::DecapsFromBytes => {
                    // Tessera's expanded key bytes: aws-lc-rs decapsulates Tessera's ciphertext.
                    let b = dk0.to_expanded_bytes();
                    let k = aws::DecapsulationKey::new(&aws::$aws, &b).unwrap();
                    assert_eq!(k.decapsulate(ct.as_bytes()[..].into()).unwrap().as_ref(), &ss[..], "aws-lc-rs decaps");
                    let c = ct.as_bytes().to_vec();
                    Contestant::new("aws-lc-rs", Role::Peer, move || {
                        let k = aws::DecapsulationKey::new(&aws::$aws, black_box(&b)).unwrap();
                        black_box(k.decapsulate(black_box(&c[..]).into()).unwrap());
                    })
                }
            });
            // pqcrypto-mlkem (PQClean's AVX2 code where the CPU has it, else its clean C): no
            // seed or fixed-m API in Rust. Its secret key is the FIPS 203 expanded key, so it
            // decapsulates Tessera's ciphertext with Tessera's key bytes, and Tessera
            // decapsulates its ciphertexts.
            {
                use pqcrypto_mlkem::$pq as pq;
                use pqcrypto_traits::kem::{
                    Ciphertext as _, PublicKey as _, SecretKey as _, SharedSecret as _,
                };
                let ppk = pq::PublicKey::from_bytes(&ek_bytes).unwrap();
                let psk = pq::SecretKey::from_bytes(&dk0.to_expanded_bytes()).unwrap();
                let pct = pq::Ciphertext::from_bytes(ct.as_bytes()).unwrap();
                assert_eq!(pq::decapsulate(&pct, &psk).as_bytes(), &ss[..], "pqcrypto decaps");
                let (pss2, pct2) = pq::encapsulate(&ppk);
                let c2 = Ciphertext::from_bytes(pct2.as_bytes()).unwrap();
                assert_eq!(
                    dk0.decapsulate(&c2).as_bytes()[..],
                    pss2.as_bytes()[..],
                    "pqcrypto encaps"
                );
                let (kpk, ksk) = pq::keypair();
                assert_eq!(kpk.as_bytes().len(), ek_bytes.len(), "pqcrypto keygen");
                let kdk = DecapsulationKey::from_expanded_bytes(ksk.as_bytes()).unwrap();
                assert_eq!(kdk.encapsulation_key().to_bytes()[..], kpk.as_bytes()[..], "pqcrypto keygen");
                cs.push(match op {
                    KemOp::KeyGen => Contestant::new("pqcrypto-mlkem", Role::Peer, move || {
                        black_box(pq::keypair());
                    }),
                    KemOp::Encaps | KemOp::EncapsFromBytes => Contestant::new("pqcrypto-mlkem", Role::Peer, move || {
                        black_box(pq::encapsulate(black_box(&ppk)));
                    }),
                    KemOp::Decaps | KemOp::DecapsFromBytes => Contestant::new("pqcrypto-mlkem", Role::Peer, move || {
                        black_box(pq::decapsulate(black_box(&pct), black_box(&psk)));
                    }),
                });
            }
            let note = match op {
                KemOp::KeyGen => MLKEM_NOTES[0],
                KemOp::Encaps => MLKEM_NOTES[1],
                KemOp::Decaps => MLKEM_NOTES[2],
                KemOp::EncapsFromBytes => MLKEM_NOTES[3],
                KemOp::DecapsFromBytes => MLKEM_NOTES[4],
            };
            Built {
                contestants: cs,
                notes: vec![note.into()],
            }
        }
    };
}

mlkem_builder!(
    build_mlkem512,
    ml_kem_512,
    mlkem512,
    ml_kem_512,
    ML_KEM_512,
    mlkem512
);
mlkem_builder!(
    build_mlkem768,
    ml_kem_768,
    mlkem768,
    ml_kem_768,
    ML_KEM_768,
    mlkem768
);
mlkem_builder!(
    build_mlkem1024,
    ml_kem_1024,
    mlkem1024,
    ml_kem_1024,
    ML_KEM_1024,
    mlkem1024
);
