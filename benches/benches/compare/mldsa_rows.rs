//! The ML-DSA rows (and AWS-LC's deterministic signing entry points).

use crate::*;

// --- ML-DSA ---

#[derive(Clone, Copy)]
pub(crate) enum DsaOp {
    KeyGen,
    Sign,
    Verify,
    /// Verification with the verifying key and the signature parsed from their bytes on
    /// every call.
    VerifyFromBytes,
}

pub(crate) const MLDSA_NOTES: [&str; 4] = [
    "keygen: Tessera, libcrux, RustCrypto and aws-lc-rs derive the key from a fixed 32-byte seed xi (Tessera's key also caches A-hat and the NTT forms of its secret vectors)",
    "sign: 64-byte messages, empty context, cycling over 64 messages, every library on the same 4 messages in each round (the rejection loop varies with the message); every library signs deterministically (rnd = 0) and gives the same signatures (checked): Tessera, libcrux and RustCrypto through their APIs, aws-lc-rs (whose API signs only hedged) through AWS-LC's exported ml_dsa_*_sign_internal, which calls the same mldsa-native signing function as its hedged sign does after drawing rnd; every library reuses its key",
    "verify: 64-byte messages, empty context, cycling over 64 signatures, every library on the same 4 in each round; Tessera (A-hat, NTT(t1 2^d) and tr cached), RustCrypto and aws-lc-rs (ParsedPublicKey) reuse a parsed key; libcrux takes the encoded key on every call",
    "verify from bytes: 64-byte messages, empty context, cycling over 64 signatures, every library on the same 4 in each round; every library parses the 1312/1952/2592-byte verifying key (pkDecode; Tessera and RustCrypto also ExpandA, NTT(t1 2^d) and tr = H(pk)) and decodes the signature on every call (aws-lc-rs through UnparsedPublicKey::verify, libcrux from its encoded key and signature types)",
];

/// Messages each library signs per round in the ML-DSA sign rows: the same 4 for every library
/// (`Contestant::fixed_batch`), 16 windows of 4 over the 64 messages, so each round compares
/// the same work (the signing loop's iteration count depends on the message).
pub(crate) const SIGN_BATCH: u64 = 4;

/// Signatures each library verifies per round in the ML-DSA verify rows: the same 4 for every
/// library, so each round's ratio compares verifications of the same messages.
pub(crate) const VERIFY_BATCH: u64 = 4;

/// `cs` with every contestant timing exactly `batch` inputs per round (`None`: unchanged).
pub(crate) fn with_batch(cs: Vec<Contestant>, batch: Option<u64>) -> Vec<Contestant> {
    match batch {
        Some(n) => cs.into_iter().map(|c| c.fixed_batch(n)).collect(),
        None => cs,
    }
}

/// Seed xi and the 64 messages of the ML-DSA rows.
pub(crate) fn mldsa_inputs() -> ([u8; 32], Vec<[u8; 64]>) {
    let mut seed = [0u8; 32];
    SplitMix64(0x6d6c647361).fill(&mut seed);
    let msgs = (0..64u64)
        .map(|i| {
            let mut m = [0u8; 64];
            SplitMix64(0x6d736700 + i).fill(&mut m);
            m
        })
        .collect();
    (seed, msgs)
}

/// The ML-DSA rows of one parameter set: `$t` Tessera's module, `$lc` libcrux's, `$lcsig`
/// libcrux's signature type, `$rc` RustCrypto ml-dsa's parameter type, `$aws`/`$awsv`
/// aws-lc-rs's signing and verification algorithms. `portable`: Tessera's portable backend
/// against RustCrypto ml-dsa only (both portable Rust).
macro_rules! mldsa_builder {
    ($fn:ident, $t:ident, $lc:ident, $lcsig:ident, $rc:ident, $aws:ident, $awsv:ident, $awsfn:ident) => {
        pub(crate) fn $fn(op: DsaOp, portable: bool) -> Built {
            use tessera_mldsa::$t::{Signature, SigningKey, VerifyingKey};
            // The batch is a property of the row: every contestant times the same inputs per
            // round, applied to all of them at the end ([`with_batch`]).
            let batch = match op {
                DsaOp::KeyGen => None,
                DsaOp::Sign => Some(SIGN_BATCH),
                DsaOp::Verify | DsaOp::VerifyFromBytes => Some(VERIFY_BATCH),
            };
            let (seed, msgs) = mldsa_inputs();
            let sk0 = SigningKey::from_seed(&seed);
            let vk_bytes = sk0.verifying_key().to_bytes();
            let sigs: Vec<Signature> = msgs
                .iter()
                .map(|m| sk0.sign_deterministic(m, &[]).unwrap())
                .collect();
            let impls = if portable {
                vec![tessera::mldsa_portable()]
            } else {
                tessera::mldsa_impls()
            };
            let mut cs = Vec::new();
            for (i, t) in impls.into_iter().enumerate() {
                let be = t.backend;
                let role = if i == 0 { Role::Reference } else { Role::Backend };
                let name = format!("tessera/{}", t.name);
                let keygen = move |s: &[u8; 32]| match be {
                    None => SigningKey::from_seed(s),
                    Some(be) => SigningKey::from_seed_with_backend(be, s),
                };
                let (msgs, sigs) = (msgs.clone(), sigs.clone());
                cs.push(match op {
                    DsaOp::KeyGen => {
                        assert_eq!(keygen(&seed).verifying_key().to_bytes(), vk_bytes, "{name}");
                        Contestant::new(name, role, move || {
                            black_box(keygen(black_box(&seed)));
                        })
                    }
                    DsaOp::Sign => {
                        let sk = keygen(&seed);
                        for (m, s) in msgs.iter().zip(&sigs) {
                            assert!(sk.sign_deterministic(m, &[]).unwrap() == *s, "{name}");
                        }
                        Contestant::indexed(name, role, move |n| {
                            let n = n & 63;
                            black_box(sk.sign_deterministic(black_box(&msgs[n]), &[]).unwrap());
                        })
                    }
                    DsaOp::Verify => {
                        let vk = match be {
                            None => VerifyingKey::from_bytes(&vk_bytes),
                            Some(be) => VerifyingKey::from_bytes_with_backend(be, &vk_bytes),
                        }
                        .unwrap();
                        for (m, s) in msgs.iter().zip(&sigs) {
                            vk.verify(m, &[], s).unwrap();
                        }
                        Contestant::indexed(name, role, move |n| {
                            let n = n & 63;
                            vk.verify(black_box(&msgs[n]), &[], black_box(&sigs[n])).unwrap();
                        })
                    }
                    DsaOp::VerifyFromBytes => {
                        let parse = move |b: &[u8]| match be {
                            None => VerifyingKey::from_bytes(b),
                            Some(be) => VerifyingKey::from_bytes_with_backend(be, b),
                        };
                        let sig_bytes: Vec<Vec<u8>> = sigs.iter().map(|s| s.as_bytes().to_vec()).collect();
                        for (m, s) in msgs.iter().zip(&sig_bytes) {
                            parse(&vk_bytes).unwrap().verify(m, &[], &Signature::from_bytes(s).unwrap()).unwrap();
                        }
                        Contestant::indexed(name, role, move |n| {
                            let n = n & 63;
                            let vk = parse(black_box(&vk_bytes)).unwrap();
                            let s = Signature::from_bytes(black_box(&sig_bytes[n])).unwrap();
                            vk.verify(black_box(&msgs[n]), &[], &s).unwrap();
                        })
                    }
                });
            }
            // RustCrypto ml-dsa (portable Rust): in every row.
            let rc = ml_dsa::SigningKey::<ml_dsa::$rc>::from_seed(&seed.into());
            assert_eq!(
                rc.expanded_key().verifying_key().encode()[..],
                vk_bytes[..],
                "ml-dsa keygen"
            );
            {
                let (msgs, sigs) = (msgs.clone(), sigs.clone());
                cs.push(match op {
                    DsaOp::KeyGen => Contestant::new("ml-dsa", Role::Peer, move || {
                        black_box(ml_dsa::SigningKey::<ml_dsa::$rc>::from_seed(&black_box(seed).into()));
                    }),
                    DsaOp::Sign => {
                        for (m, s) in msgs.iter().zip(&sigs) {
                            let r = rc.expanded_key().sign_deterministic(m, &[]).unwrap();
                            assert_eq!(r.encode()[..], s.as_bytes()[..], "ml-dsa sign");
                        }
                        Contestant::indexed("ml-dsa", Role::Peer, move |n| {
                            let n = n & 63;
                            black_box(rc.expanded_key().sign_deterministic(black_box(&msgs[n]), &[]).unwrap());
                        })
                    }
                    DsaOp::Verify => {
                        let vk = rc.expanded_key().verifying_key();
                        let rsigs: Vec<ml_dsa::Signature<ml_dsa::$rc>> = sigs
                            .iter()
                            .map(|s| {
                                let e = ml_dsa::EncodedSignature::<ml_dsa::$rc>::try_from(&s.as_bytes()[..]).unwrap();
                                ml_dsa::Signature::<ml_dsa::$rc>::decode(&e).unwrap()
                            })
                            .collect();
                        for (m, s) in msgs.iter().zip(&rsigs) {
                            assert!(vk.verify_with_context(m, &[], s), "ml-dsa verify");
                        }
                        Contestant::indexed("ml-dsa", Role::Peer, move |n| {
                            let n = n & 63;
                            assert!(vk.verify_with_context(black_box(&msgs[n]), &[], black_box(&rsigs[n])));
                        })
                    }
                    DsaOp::VerifyFromBytes => {
                        let vkb = ml_dsa::EncodedVerifyingKey::<ml_dsa::$rc>::try_from(&vk_bytes[..]).unwrap();
                        let esigs: Vec<ml_dsa::EncodedSignature<ml_dsa::$rc>> = sigs
                            .iter()
                            .map(|s| ml_dsa::EncodedSignature::<ml_dsa::$rc>::try_from(&s.as_bytes()[..]).unwrap())
                            .collect();
                        for (m, s) in msgs.iter().zip(&esigs) {
                            let vk = ml_dsa::VerifyingKey::<ml_dsa::$rc>::decode(&vkb);
                            let s = ml_dsa::Signature::<ml_dsa::$rc>::decode(s).unwrap();
                            assert!(vk.verify_with_context(m, &[], &s), "ml-dsa verify");
                        }
                        Contestant::indexed("ml-dsa", Role::Peer, move |n| {
                            let n = n & 63;
                            let vk = ml_dsa::VerifyingKey::<ml_dsa::$rc>::decode(black_box(&vkb));
                            let s = ml_dsa::Signature::<ml_dsa::$rc>::decode(black_box(&esigs[n])).unwrap();
                            assert!(vk.verify_with_context(black_box(&msgs[n]), &[], &s));
                        })
                    }
                });
            }
            if portable {
                return Built {
                    contestants: with_batch(cs, batch),
                    notes: vec!["portable only: Tessera portable against RustCrypto ml-dsa (both portable Rust)".into()],
                };
            }
            // libcrux-ml-dsa (its AVX2 code where the CPU has it).
            let lc = libcrux_ml_dsa::$lc::generate_key_pair(seed);
            assert_eq!(lc.verification_key.as_slice()[..], vk_bytes[..], "libcrux keygen");
            {
                let (msgs, sigs) = (msgs.clone(), sigs.clone());
                cs.push(match op {
                    DsaOp::KeyGen => Contestant::new("libcrux-ml-dsa", Role::Peer, move || {
                        black_box(libcrux_ml_dsa::$lc::generate_key_pair(black_box(seed)));
                    }),
                    DsaOp::Sign => {
                        for (m, s) in msgs.iter().zip(&sigs) {
                            let r = libcrux_ml_dsa::$lc::sign(&lc.signing_key, m, &[], [0; 32]).unwrap();
                            assert_eq!(r.as_slice(), &s.as_bytes()[..], "libcrux sign");
                        }
                        Contestant::indexed("libcrux-ml-dsa", Role::Peer, move |n| {
                            let n = n & 63;
                            black_box(libcrux_ml_dsa::$lc::sign(&lc.signing_key, black_box(&msgs[n]), &[], [0; 32]).unwrap());
                        })
                    }
                    DsaOp::Verify => {
                        let lsigs: Vec<_> = sigs
                            .iter()
                            .map(|s| libcrux_ml_dsa::$lc::$lcsig::new(*s.as_bytes()))
                            .collect();
                        for (m, s) in msgs.iter().zip(&lsigs) {
                            libcrux_ml_dsa::$lc::verify(&lc.verification_key, m, &[], s).unwrap();
                        }
                        Contestant::indexed("libcrux-ml-dsa", Role::Peer, move |n| {
                            let n = n & 63;
                            libcrux_ml_dsa::$lc::verify(&lc.verification_key, black_box(&msgs[n]), &[], black_box(&lsigs[n])).unwrap();
                        })
                    }
                    DsaOp::VerifyFromBytes => {
                        // libcrux verifies from the encoded key (parsed inside verify); its
                        // signature type is built from the bytes on every call.
                        for (m, s) in msgs.iter().zip(&sigs) {
                            let s = libcrux_ml_dsa::$lc::$lcsig::new(*s.as_bytes());
                            libcrux_ml_dsa::$lc::verify(&lc.verification_key, m, &[], &s).unwrap();
                        }
                        Contestant::indexed("libcrux-ml-dsa", Role::Peer, move |n| {
                            let n = n & 63;
                            let s = libcrux_ml_dsa::$lc::$lcsig::new(*black_box(sigs[n].as_bytes()));
                            libcrux_ml_dsa::$lc::verify(black_box(&lc.verification_key), black_box(&msgs[n]), &[], &s).unwrap();
                        })
                    }
                });
            }
            // aws-lc-rs (mldsa-native): seed API; hedged signing only.
            use aws_lc_rs::signature::{self as aws, KeyPair as _};
            let akp = aws::PqdsaKeyPair::from_seed(&aws::$aws, &seed).unwrap();
            assert_eq!(akp.public_key().as_ref(), &vk_bytes[..], "aws-lc-rs keygen");
            let apk = aws::UnparsedPublicKey::new(&aws::$awsv, vk_bytes.to_vec())
                .parse()
                .unwrap();
            let mut asig = vec![0u8; sigs[0].as_bytes().len()];
            {
                let vk = VerifyingKey::from_bytes(&vk_bytes).unwrap();
                for m in &msgs {
                    assert_eq!(akp.sign(m, &mut asig).unwrap(), asig.len());
                    vk.verify(m, &[], &Signature::from_bytes(&asig).unwrap()).expect("aws-lc-rs sign");
                }
                for (m, s) in msgs.iter().zip(&sigs) {
                    apk.verify_sig(m, s.as_bytes()).expect("aws-lc-rs verify");
                }
            }
            let (msgs, sigs) = (msgs.clone(), sigs.clone());
            cs.push(match op {
                DsaOp::KeyGen => Contestant::new("aws-lc-rs", Role::Peer, move || {
                    black_box(aws::PqdsaKeyPair::from_seed(&aws::$aws, black_box(&seed)).unwrap());
                }),
                DsaOp::Sign => {
                    // aws-lc-rs's public API signs hedged only, so its iteration counts would
                    // be random and its per-round ratios noisy. Its code is timed through
                    // AWS-LC's exported `ml_dsa_*_sign_internal`, which calls the same
                    // mldsa-native signing function as the hedged sign does after drawing
                    // rnd, here with rnd = 0 and the pure-ML-DSA prefix of an
                    // empty context: the signatures must equal Tessera's byte for byte, so all
                    // four libraries do the same signing loops in every round.
                    let skb = sk0.to_expanded_bytes();
                    let sign = move |m: &[u8], sig: &mut [u8]| -> usize {
                        const PRE: [u8; 2] = [0, 0];
                        const RND: [u8; 32] = [0; 32];
                        let mut len = sig.len();
                        // SAFETY: the C function reads SK_LEN bytes of `skb`, `m.len()` bytes
                        // of `m`, 2 of PRE and 32 of RND, and writes at most `len` (the
                        // signature length, the size of `sig`) bytes to `sig`.
                        let r = unsafe {
                            $awsfn(
                                skb.as_ptr(),
                                sig.as_mut_ptr(),
                                &mut len,
                                m.as_ptr(),
                                m.len(),
                                PRE.as_ptr(),
                                PRE.len(),
                                RND.as_ptr(),
                            )
                        };
                        assert_eq!(r, 1, "aws-lc ml_dsa sign_internal");
                        len
                    };
                    for (m, s) in msgs.iter().zip(&sigs) {
                        assert_eq!(sign(m, &mut asig), asig.len());
                        assert_eq!(asig[..], s.as_bytes()[..], "aws-lc-rs deterministic sign");
                    }
                    Contestant::indexed("aws-lc-rs", Role::Peer, move |n| {
                        let n = n & 63;
                        black_box(sign(black_box(&msgs[n]), &mut asig));
                    })
                }
                DsaOp::Verify => Contestant::indexed("aws-lc-rs", Role::Peer, move |n| {
                    let n = n & 63;
                    apk.verify_sig(black_box(&msgs[n]), black_box(sigs[n].as_bytes())).unwrap();
                }),
                DsaOp::VerifyFromBytes => {
                    let b = vk_bytes.to_vec();
                    for (m, s) in msgs.iter().zip(&sigs) {
                        aws::UnparsedPublicKey::new(&aws::$awsv, &b)
                            .verify(m, s.as_bytes())
                            .expect("aws-lc-rs verify");
                    }
                    Contestant::indexed("aws-lc-rs", Role::Peer, move |n| {
                        let n = n & 63;
                        aws::UnparsedPublicKey::new(&aws::$awsv, black_box(&b))
                            .verify(black_box(&msgs[n]), black_box(sigs[n].as_bytes()))
                            .unwrap();
                    })
                }
            });
            let cs = with_batch(cs, batch);
            let note = match op {
                DsaOp::KeyGen => MLDSA_NOTES[0],
                DsaOp::Sign => MLDSA_NOTES[1],
                DsaOp::Verify => MLDSA_NOTES[2],
                DsaOp::VerifyFromBytes => MLDSA_NOTES[3],
            };
            Built {
                contestants: cs,
                notes: vec![note.into()],
            }
        }
    };
}

// AWS-LC's deterministic ML-DSA signing (`ml_dsa_*_sign_internal` of
// crypto/fipsmodule/ml_dsa/ml_dsa.h, exported from the library aws-lc-sys links, under its
// symbol prefix; aws-lc-sys has no binding for it). See the aws-lc-rs sign contestant.
/// Declares AWS-LC's `ml_dsa_*_sign_internal` functions under their prefixed symbols.
macro_rules! aws_lc_sign_internal {
    ($($name:ident = $sym:literal),* $(,)?) => {
        unsafe extern "C" {
            $(
                #[link_name = $sym]
                fn $name(
                    sk: *const u8,
                    sig: *mut u8,
                    sig_len: *mut usize,
                    msg: *const u8,
                    msg_len: usize,
                    pre: *const u8,
                    pre_len: usize,
                    rnd: *const u8,
                ) -> core::ffi::c_int;
            )*
        }
    };
}
aws_lc_sign_internal!(
    aws_lc_ml_dsa_44_sign_internal = "aws_lc_0_47_0_ml_dsa_44_sign_internal",
    aws_lc_ml_dsa_65_sign_internal = "aws_lc_0_47_0_ml_dsa_65_sign_internal",
    aws_lc_ml_dsa_87_sign_internal = "aws_lc_0_47_0_ml_dsa_87_sign_internal",
);

mldsa_builder!(
    build_mldsa44,
    ml_dsa_44,
    ml_dsa_44,
    MLDSA44Signature,
    MlDsa44,
    ML_DSA_44_SIGNING,
    ML_DSA_44,
    aws_lc_ml_dsa_44_sign_internal
);
mldsa_builder!(
    build_mldsa65,
    ml_dsa_65,
    ml_dsa_65,
    MLDSA65Signature,
    MlDsa65,
    ML_DSA_65_SIGNING,
    ML_DSA_65,
    aws_lc_ml_dsa_65_sign_internal
);
mldsa_builder!(
    build_mldsa87,
    ml_dsa_87,
    ml_dsa_87,
    MLDSA87Signature,
    MlDsa87,
    ML_DSA_87_SIGNING,
    ML_DSA_87,
    aws_lc_ml_dsa_87_sign_internal
);
