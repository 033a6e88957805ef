//! The `hpke_suite!` macro: one HPKE suite's rows, every library's contestants.

/// One HPKE suite's rows: `$m::build(op, size)`. `tk, tf, ta`: Tessera's KEM, KDF and AEAD
/// types; `gk, gf, ga`: hpke-ng's; `rk, rf, ra`: rust-hpke's; `ids`: the codepoints (hpke-rs);
/// `backend`: Tessera's backends of the suite, for the report.
macro_rules! hpke_suite {
    ($m:ident, tessera($tk:ty, $tf:ty, $ta:ty), ng($($gk:ty, $gf:ty, $ga:ty)?),
     $(no_ng($no_ng:expr),)? rh($rk:ty, $rf:ty, $ra:ty),
     ids($kem:expr, $kdf:expr, $aead:expr), backend($backend:expr)) => {
        mod $m {
            use super::*;
            use hpke::{Deserializable as _, Serializable as _};
            type T = th::Hpke<$tk, $tf, $ta>;
            type TK = $tk;
            type RK = $rk;

            /// rust-hpke's base-mode receiver context for `enc` under `sk` (info [`HPKE_INFO`]).
            #[inline(always)]
            fn rh_receiver(
                sk: &<RK as hpke::Kem>::PrivateKey,
                enc: &<RK as hpke::Kem>::EncappedKey,
            ) -> hpke::aead::AeadCtxR<$ra, $rf, RK> {
                hpke::setup_receiver::<$ra, $rf, RK>(&hpke::OpModeR::Base, sk, enc, HPKE_INFO)
                    .unwrap()
            }

            fn reference() -> HpkeRef {
                use th::Kem as _;
                let ikm = hpke_ikm();
                let (sk, pk) = TK::derive_key_pair(&ikm).unwrap();
                let (ss, enc) = TK::encap(&pk, &mut hpke_rng()).unwrap();
                let mut export = vec![0u8; HPKE_EXPORT_LEN];
                T::setup_receiver_base(enc.as_ref(), &sk, HPKE_INFO)
                    .unwrap()
                    .export(HPKE_EXPORT_CONTEXT, &mut export)
                    .unwrap();
                let sk_bytes = TK::private_key_to_bytes(&sk).to_vec();
                let (sk1, sk2, sk3) = (sk_bytes.clone(), sk_bytes.clone(), sk_bytes.clone());
                HpkeRef {
                    ikm,
                    pk: TK::public_key_to_bytes(&pk).to_vec(),
                    sk: sk_bytes,
                    enc: enc.as_ref().to_vec(),
                    ss: ss.as_bytes().to_vec(),
                    export,
                    pk_of_sk: Box::new(|b| {
                        let sk = TK::private_key_from_bytes(b).unwrap();
                        TK::public_key_to_bytes(TK::public_key(&sk)).to_vec()
                    }),
                    decap: Box::new(move |enc| {
                        let sk = TK::private_key_from_bytes(&sk1).unwrap();
                        TK::decap(enc, &sk).unwrap().as_bytes().to_vec()
                    }),
                    export_of: Box::new(move |enc| {
                        let sk = TK::private_key_from_bytes(&sk2).unwrap();
                        let mut out = vec![0u8; HPKE_EXPORT_LEN];
                        T::setup_receiver_base(enc, &sk, HPKE_INFO)
                            .unwrap()
                            .export(HPKE_EXPORT_CONTEXT, &mut out)
                            .unwrap();
                        out
                    }),
                    open_first: Box::new(move |enc, ct| {
                        let sk = TK::private_key_from_bytes(&sk3).unwrap();
                        T::setup_receiver_base(enc, &sk, HPKE_INFO)
                            .ok()?
                            .open(&AAD, ct)
                            .ok()
                    }),
                }
            }

            pub fn build(op: HpkeOp, size: usize) -> Built {
                let r = reference();
                let pt = input(size, 0x6870);
                let mut cs = Vec::new();
                let mut notes = Vec::new();

                // --- Tessera (the reference) ---
                {
                    use th::Kem as _;
                    let name = format!("tessera/{}", $backend);
                    let (sk, pk) = TK::derive_key_pair(&r.ikm).unwrap();
                    let mut rng = hpke_rng();
                    let pt = pt.clone();
                    let enc0 = r.enc.clone();
                    cs.push(match op {
                        HpkeOp::Generate => {
                            let (sk1, pk1) = TK::generate_key_pair(&mut rng);
                            assert_eq!(
                                (r.pk_of_sk)(TK::private_key_to_bytes(&sk1)),
                                TK::public_key_to_bytes(&pk1)
                            );
                            Contestant::new(name, Role::Reference, move || {
                                black_box(TK::generate_key_pair(&mut rng));
                            })
                        }
                        HpkeOp::Derive => {
                            let ikm = r.ikm;
                            Contestant::new(name, Role::Reference, move || {
                                black_box(TK::derive_key_pair(black_box(&ikm)).unwrap());
                            })
                        }
                        HpkeOp::Encap => {
                            let (ss, enc) = TK::encap(&pk, &mut rng).unwrap();
                            assert_eq!((r.decap)(enc.as_ref()), ss.as_bytes());
                            Contestant::new(name, Role::Reference, move || {
                                black_box(TK::encap(black_box(&pk), &mut rng).unwrap());
                            })
                        }
                        HpkeOp::Decap => Contestant::new(name, Role::Reference, move || {
                            black_box(TK::decap(black_box(&enc0), &sk).unwrap());
                        }),
                        HpkeOp::SetupSender => Contestant::new(name, Role::Reference, move || {
                            black_box(
                                T::setup_sender_base(black_box(&pk), HPKE_INFO, &mut rng).unwrap(),
                            );
                        }),
                        HpkeOp::SetupReceiver => {
                            Contestant::new(name, Role::Reference, move || {
                                black_box(
                                    T::setup_receiver_base(black_box(&enc0), &sk, HPKE_INFO)
                                        .unwrap(),
                                );
                            })
                        }
                        HpkeOp::RoundTrip => Contestant::new(name, Role::Reference, move || {
                            let (enc, ct) =
                                T::seal_base(&pk, HPKE_INFO, &AAD, black_box(&pt), &mut rng)
                                    .unwrap();
                            black_box(
                                T::open_base(enc.as_ref(), &sk, HPKE_INFO, &AAD, &ct).unwrap(),
                            );
                        }),
                        HpkeOp::ContextSeal | HpkeOp::ContextOpen => {
                            let (enc, s) =
                                T::setup_sender_base(&pk, HPKE_INFO, &mut rng).unwrap();
                            let rc =
                                T::setup_receiver_base(enc.as_ref(), &sk, HPKE_INFO).unwrap();
                            context_contestant(
                                name,
                                Role::Reference,
                                (op, pt),
                                (s, rc),
                                |s, pt| s.seal(&AAD, pt).unwrap(),
                                |rc, ct| rc.open(&AAD, ct).unwrap(),
                                None,
                            )
                        }
                        HpkeOp::Export => {
                            let ctx = T::setup_receiver_base(&enc0, &sk, HPKE_INFO).unwrap();
                            let mut out = [0u8; HPKE_EXPORT_LEN];
                            Contestant::new(name, Role::Reference, move || {
                                ctx.export(black_box(HPKE_EXPORT_CONTEXT), &mut out)
                                    .unwrap();
                                black_box(&out);
                            })
                        }
                    });
                }

                // --- hpke-ng (where it has the suite) ---
                $({
                    type G = hpke_ng::Hpke<$gk, $gf, $ga>;
                    type GK = $gk;
                    use hpke_ng::Kem as _;
                    let name = "hpke-ng";
                    let (sk, pk) = GK::derive_key_pair(&r.ikm).unwrap();
                    assert_eq!(GK::pk_to_bytes(&pk), r.pk, "hpke-ng DeriveKeyPair");
                    let mut rng = hpke_rng();
                    let pt = pt.clone();
                    let enc0 = GK::enc_from_bytes(&r.enc).unwrap();
                    cs.push(match op {
                        HpkeOp::Generate => {
                            let (sk1, pk1) = GK::generate(&mut rng).unwrap();
                            assert_eq!(
                                (r.pk_of_sk)(&GK::sk_to_bytes(&sk1)),
                                GK::pk_to_bytes(&pk1),
                                "{name} keygen"
                            );
                            Contestant::new(name, Role::Peer, move || {
                                black_box(GK::generate(&mut rng).unwrap());
                            })
                        }
                        HpkeOp::Derive => {
                            let ikm = r.ikm;
                            Contestant::new(name, Role::Peer, move || {
                                black_box(GK::derive_key_pair(black_box(&ikm)).unwrap());
                            })
                        }
                        HpkeOp::Encap => {
                            let (ss, enc) = GK::encap(&mut rng, &pk).unwrap();
                            assert_eq!((r.decap)(enc.as_ref()), ss.as_ref(), "{name} encap");
                            Contestant::new(name, Role::Peer, move || {
                                black_box(GK::encap(&mut rng, black_box(&pk)).unwrap());
                            })
                        }
                        HpkeOp::Decap => {
                            assert_eq!(
                                GK::decap(&enc0, &sk).unwrap().as_ref(),
                                &r.ss[..],
                                "{name} decap"
                            );
                            Contestant::new(name, Role::Peer, move || {
                                black_box(GK::decap(black_box(&enc0), &sk).unwrap());
                            })
                        }
                        HpkeOp::SetupSender => {
                            let (enc, ctx) =
                                G::setup_sender_base(&mut rng, &pk, HPKE_INFO).unwrap();
                            let e = ctx.export(HPKE_EXPORT_CONTEXT, HPKE_EXPORT_LEN).unwrap();
                            assert_eq!(e, (r.export_of)(enc.as_ref()), "{name} setup_sender");
                            Contestant::new(name, Role::Peer, move || {
                                black_box(
                                    G::setup_sender_base(&mut rng, black_box(&pk), HPKE_INFO)
                                        .unwrap(),
                                );
                            })
                        }
                        HpkeOp::SetupReceiver => {
                            let ctx = G::setup_receiver_base(&enc0, &sk, HPKE_INFO).unwrap();
                            let e = ctx.export(HPKE_EXPORT_CONTEXT, HPKE_EXPORT_LEN).unwrap();
                            assert_eq!(e, r.export, "{name} setup_receiver");
                            Contestant::new(name, Role::Peer, move || {
                                black_box(
                                    G::setup_receiver_base(black_box(&enc0), &sk, HPKE_INFO)
                                        .unwrap(),
                                );
                            })
                        }
                        HpkeOp::RoundTrip => {
                            let (enc, ct) =
                                G::seal_base(&mut rng, &pk, HPKE_INFO, &AAD, &pt).unwrap();
                            assert_eq!(
                                (r.open_first)(enc.as_ref(), &ct).as_deref(),
                                Some(&pt[..]),
                                "{name} seal"
                            );
                            assert_eq!(
                                G::open_base(&enc, &sk, HPKE_INFO, &AAD, &ct).unwrap(),
                                pt,
                                "{name} open"
                            );
                            Contestant::new(name, Role::Peer, move || {
                                let (enc, ct) =
                                    G::seal_base(&mut rng, &pk, HPKE_INFO, &AAD, black_box(&pt))
                                        .unwrap();
                                black_box(G::open_base(&enc, &sk, HPKE_INFO, &AAD, &ct).unwrap());
                            })
                        }
                        HpkeOp::ContextSeal | HpkeOp::ContextOpen => {
                            let (enc, s) =
                                G::setup_sender_base(&mut rng, &pk, HPKE_INFO).unwrap();
                            let rc = G::setup_receiver_base(&enc, &sk, HPKE_INFO).unwrap();
                            context_contestant(
                                name,
                                Role::Peer,
                                (op, pt),
                                (s, rc),
                                |s, pt| s.seal(&AAD, pt).unwrap(),
                                |rc, ct| rc.open(&AAD, ct).unwrap(),
                                Some(&|ct| (r.open_first)(enc.as_ref(), ct)),
                            )
                        }
                        HpkeOp::Export => {
                            let ctx = G::setup_receiver_base(&enc0, &sk, HPKE_INFO).unwrap();
                            let e = ctx.export(HPKE_EXPORT_CONTEXT, HPKE_EXPORT_LEN).unwrap();
                            assert_eq!(e, r.export, "{name} export");
                            Contestant::new(name, Role::Peer, move || {
                                black_box(
                                    ctx.export(black_box(HPKE_EXPORT_CONTEXT), HPKE_EXPORT_LEN)
                                        .unwrap(),
                                );
                            })
                        }
                    });
                })?
                $(notes.push($no_ng.to_string());)?

                // --- rust-hpke ---
                {
                    use hpke::Kem as _;
                    use hpke::{OpModeR, OpModeS};
                    let name = "rust-hpke";
                    let (sk, pk) = RK::derive_keypair(&r.ikm);
                    assert_eq!(&pk.to_bytes()[..], &r.pk[..], "rust-hpke DeriveKeyPair");
                    let mut rng = hpke_rng();
                    let pt = pt.clone();
                    let enc0 = <RK as hpke::Kem>::EncappedKey::from_bytes(&r.enc).unwrap();
                    cs.push(match op {
                        HpkeOp::Generate => {
                            let (sk1, pk1) = RK::gen_keypair_with_rng(&mut rng);
                            assert_eq!(
                                (r.pk_of_sk)(&sk1.to_bytes()),
                                &pk1.to_bytes()[..],
                                "{name} keygen"
                            );
                            Contestant::new(name, Role::Peer, move || {
                                black_box(RK::gen_keypair_with_rng(&mut rng));
                            })
                        }
                        HpkeOp::Derive => {
                            let ikm = r.ikm;
                            Contestant::new(name, Role::Peer, move || {
                                black_box(RK::derive_keypair(black_box(&ikm)));
                            })
                        }
                        HpkeOp::Encap => {
                            let (ss, enc) = RK::encap_with_rng(&pk, None, &mut rng).unwrap();
                            assert_eq!((r.decap)(&enc.to_bytes()), &ss.0[..], "{name} encap");
                            Contestant::new(name, Role::Peer, move || {
                                black_box(
                                    RK::encap_with_rng(black_box(&pk), None, &mut rng).unwrap(),
                                );
                            })
                        }
                        HpkeOp::Decap => {
                            assert_eq!(
                                &RK::decap(&sk, None, &enc0).unwrap().0[..],
                                &r.ss[..],
                                "{name} decap"
                            );
                            Contestant::new(name, Role::Peer, move || {
                                black_box(RK::decap(&sk, None, black_box(&enc0)).unwrap());
                            })
                        }
                        HpkeOp::SetupSender => {
                            let (enc, ctx) = hpke::setup_sender_with_rng::<$ra, $rf, RK>(
                                &OpModeS::Base,
                                &pk,
                                HPKE_INFO,
                                &mut rng,
                            )
                            .unwrap();
                            let mut e = vec![0u8; HPKE_EXPORT_LEN];
                            ctx.export(HPKE_EXPORT_CONTEXT, &mut e).unwrap();
                            assert_eq!(e, (r.export_of)(&enc.to_bytes()), "{name} setup_sender");
                            Contestant::new(name, Role::Peer, move || {
                                black_box(
                                    hpke::setup_sender_with_rng::<$ra, $rf, RK>(
                                        &OpModeS::Base,
                                        black_box(&pk),
                                        HPKE_INFO,
                                        &mut rng,
                                    )
                                    .unwrap(),
                                );
                            })
                        }
                        HpkeOp::SetupReceiver => {
                            let ctx = rh_receiver(&sk, &enc0);
                            let mut e = vec![0u8; HPKE_EXPORT_LEN];
                            ctx.export(HPKE_EXPORT_CONTEXT, &mut e).unwrap();
                            assert_eq!(e, r.export, "{name} setup_receiver");
                            Contestant::new(name, Role::Peer, move || {
                                black_box(
                                    rh_receiver(&sk, black_box(&enc0)),
                                );
                            })
                        }
                        HpkeOp::RoundTrip => {
                            let (enc, ct) = hpke::single_shot_seal_with_rng::<$ra, $rf, RK>(
                                &OpModeS::Base,
                                &pk,
                                HPKE_INFO,
                                &pt,
                                &AAD,
                                &mut rng,
                            )
                            .unwrap();
                            assert_eq!(
                                (r.open_first)(&enc.to_bytes(), &ct).as_deref(),
                                Some(&pt[..]),
                                "{name} seal"
                            );
                            let back = hpke::single_shot_open::<$ra, $rf, RK>(
                                &OpModeR::Base,
                                &sk,
                                &enc,
                                HPKE_INFO,
                                &ct,
                                &AAD,
                            )
                            .unwrap();
                            assert_eq!(back, pt, "{name} open");
                            Contestant::new(name, Role::Peer, move || {
                                let (enc, ct) = hpke::single_shot_seal_with_rng::<$ra, $rf, RK>(
                                    &OpModeS::Base,
                                    &pk,
                                    HPKE_INFO,
                                    black_box(&pt),
                                    &AAD,
                                    &mut rng,
                                )
                                .unwrap();
                                black_box(
                                    hpke::single_shot_open::<$ra, $rf, RK>(
                                        &OpModeR::Base,
                                        &sk,
                                        &enc,
                                        HPKE_INFO,
                                        &ct,
                                        &AAD,
                                    )
                                    .unwrap(),
                                );
                            })
                        }
                        HpkeOp::ContextSeal | HpkeOp::ContextOpen => {
                            let (enc, s) = hpke::setup_sender_with_rng::<$ra, $rf, RK>(
                                &OpModeS::Base,
                                &pk,
                                HPKE_INFO,
                                &mut rng,
                            )
                            .unwrap();
                            let rc = rh_receiver(&sk, &enc);
                            // rust-hpke takes (plaintext, aad).
                            context_contestant(
                                name,
                                Role::Peer,
                                (op, pt),
                                (s, rc),
                                |s, pt| s.seal(pt, &AAD).unwrap(),
                                |rc, ct| rc.open(ct, &AAD).unwrap(),
                                Some(&|ct| (r.open_first)(&enc.to_bytes(), ct)),
                            )
                        }
                        HpkeOp::Export => {
                            let ctx = rh_receiver(&sk, &enc0);
                            let mut out = [0u8; HPKE_EXPORT_LEN];
                            ctx.export(HPKE_EXPORT_CONTEXT, &mut out).unwrap();
                            assert_eq!(&out[..], &r.export[..], "{name} export");
                            Contestant::new(name, Role::Peer, move || {
                                ctx.export(black_box(HPKE_EXPORT_CONTEXT), &mut out)
                                    .unwrap();
                                black_box(&out);
                            })
                        }
                    });
                }

                // --- hpke-rs, libcrux then RustCrypto ---
                let (kem, kdf, aead) = ($kem, $kdf, $aead);
                if matches!(op, HpkeOp::Encap | HpkeOp::Decap) {
                    notes.push(HPKE_NOTE_NO_KEM.to_string());
                } else {
                    let lc = hpke_rs_side::libcrux(kem, kdf, aead);
                    let rc = hpke_rs_side::rustcrypto(kem, kdf, aead);
                    let mut any = false;
                    for c in [
                        hpke_rs_side::contestant("hpke-rs/libcrux", lc, &r, op, &pt),
                        hpke_rs_side::contestant("hpke-rs/rustcrypto", rc, &r, op, &pt),
                    ] {
                        match c {
                            Ok(c) => {
                                cs.push(c);
                                any = true;
                            }
                            Err(why) => notes.push(why),
                        }
                    }
                    if any {
                        notes.push(HPKE_NOTE_HPKE_RS.to_string());
                    }
                }
                match op {
                    HpkeOp::Generate => notes.push(HPKE_NOTE_KEYGEN.to_string()),
                    HpkeOp::Encap | HpkeOp::Decap => {
                        notes.push(HPKE_NOTE_RUST_HPKE_KEM.to_string())
                    }
                    HpkeOp::ContextSeal | HpkeOp::ContextOpen => {
                        notes.push(HPKE_NOTE_CONTEXT.to_string())
                    }
                    _ => {}
                }
                Built {
                    contestants: cs,
                    notes,
                }
            }
        }
    };
}
