//! The hash rows: SHA-256, SHA-512, HMAC-SHA256, SHA3-256, SHAKE and four-way SHAKE256.

use crate::*;

pub(crate) const NO_SHA3_RING: &str = "ring has no SHA-3/SHAKE";

pub(crate) fn build_sha256(size: usize) -> Built {
    let msg = input(size, 0x256);
    let expect = tessera::sha256(None, &msg);
    let mut cs: Vec<Contestant> = tessera::sha256_impls()
        .into_iter()
        .map(|t| {
            let be = t.backend;
            let role = tessera_role(be.is_none());
            hash(
                format!("tessera/{}", t.name),
                role,
                &msg,
                &expect,
                move |d| tessera::sha256(be, d),
            )
        })
        .collect();
    cs.push(hash("ring", Role::Peer, &msg, &expect, |d| {
        ring::digest::digest(&ring::digest::SHA256, d)
    }));
    cs.push(hash("aws-lc-rs", Role::Peer, &msg, &expect, |d| {
        aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, d)
    }));
    cs.push(hash("sha2", Role::Peer, &msg, &expect, |d| {
        <sha2::Sha256 as sha2::Digest>::digest(d)
    }));
    Built {
        contestants: cs,
        notes: vec![],
    }
}

pub(crate) fn build_sha512(size: usize) -> Built {
    let msg = input(size, 0x512);
    let expect = tessera::sha512(None, &msg);
    let mut cs: Vec<Contestant> = tessera::sha512_impls()
        .into_iter()
        .map(|t| {
            let be = t.backend;
            let role = tessera_role(be.is_none());
            hash(
                format!("tessera/{}", t.name),
                role,
                &msg,
                &expect,
                move |d| tessera::sha512(be, d),
            )
        })
        .collect();
    cs.push(hash("ring", Role::Peer, &msg, &expect, |d| {
        ring::digest::digest(&ring::digest::SHA512, d)
    }));
    cs.push(hash("aws-lc-rs", Role::Peer, &msg, &expect, |d| {
        aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA512, d)
    }));
    cs.push(hash("sha2", Role::Peer, &msg, &expect, |d| {
        <sha2::Sha512 as sha2::Digest>::digest(d)
    }));
    Built {
        contestants: cs,
        notes: vec![],
    }
}

pub(crate) fn build_hmac_sha256(size: usize) -> Built {
    let msg = input(size, 0x4d4ac);
    let key = input(32, 0x6b6579);
    let expect = tessera::hmac_sha256(&tessera::hmac_sha256_key(None, &key), &msg);
    let mut cs: Vec<Contestant> = tessera::sha256_impls()
        .into_iter()
        .map(|t| {
            let k = tessera::hmac_sha256_key(t.backend, &key);
            let role = tessera_role(t.backend.is_none());
            hash(
                format!("tessera/{}", t.name),
                role,
                &msg,
                &expect,
                move |d| tessera::hmac_sha256(&k, d),
            )
        })
        .collect();
    // Every library signs with a key prepared once (its inner and outer states).
    let rk = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, &key);
    cs.push(hash("ring", Role::Peer, &msg, &expect, move |d| {
        ring::hmac::sign(&rk, d)
    }));
    let ak = aws_lc_rs::hmac::Key::new(aws_lc_rs::hmac::HMAC_SHA256, &key);
    cs.push(hash("aws-lc-rs", Role::Peer, &msg, &expect, move |d| {
        aws_lc_rs::hmac::sign(&ak, d)
    }));
    let hk = <hmac::Hmac<sha2::Sha256> as hmac::Mac>::new_from_slice(&key).unwrap();
    cs.push(hash("hmac", Role::Peer, &msg, &expect, move |d| {
        use hmac::Mac;
        let mut m = hk.clone();
        m.update(d);
        m.finalize().into_bytes()
    }));
    Built {
        contestants: cs,
        notes: vec![
            "RustCrypto is `hmac` 0.12 over `sha2`, the keyed state cloned per message".into(),
        ],
    }
}

pub(crate) fn build_sha3_256(size: usize) -> Built {
    let msg = input(size, 0x3256);
    let expect = tessera::sha3_256(None, &msg);
    let mut cs: Vec<Contestant> = tessera::x1_impls()
        .into_iter()
        .map(|t| {
            let be = t.backend;
            let role = tessera_role(be.is_none());
            hash(
                format!("tessera/{}", t.name),
                role,
                &msg,
                &expect,
                move |d| tessera::sha3_256(be, d),
            )
        })
        .collect();
    cs.push(hash("aws-lc-rs", Role::Peer, &msg, &expect, |d| {
        aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA3_256, d)
    }));
    cs.push(hash("sha3", Role::Peer, &msg, &expect, |d| {
        <sha3::Sha3_256 as sha3::Digest>::digest(d)
    }));
    cs.push(hash("libcrux-sha3", Role::Peer, &msg, &expect, |d| {
        libcrux_sha3::sha256(d)
    }));
    Built {
        contestants: cs,
        notes: vec![NO_SHA3_RING.into()],
    }
}

/// SHAKE output length of the single-state rows.
pub(crate) const XOF_OUT: usize = 32;

pub(crate) fn build_shake(size: usize, wide: bool) -> Built {
    use sha3::digest::{ExtendableOutput, Update, XofReader};
    let msg = input(size, if wide { 0x5256 } else { 0x5128 });
    let mut expect = [0u8; XOF_OUT];
    let t_xof = if wide {
        tessera::shake256
    } else {
        tessera::shake128
    };
    t_xof(None, &msg, &mut expect);
    let mut cs: Vec<Contestant> = tessera::x1_impls()
        .into_iter()
        .map(|t| {
            let be = t.backend;
            let role = tessera_role(be.is_none());
            xof(
                format!("tessera/{}", t.name),
                role,
                &msg,
                &expect,
                move |d, o| t_xof(be, d, o),
            )
        })
        .collect();
    if wide {
        cs.push(xof("sha3", Role::Peer, &msg, &expect, |d, o| {
            let mut h = sha3::Shake256::default();
            h.update(d);
            h.finalize_xof().read(o)
        }));
        cs.push(xof("libcrux-sha3", Role::Peer, &msg, &expect, |d, o| {
            libcrux_sha3::shake256_ema(o, d)
        }));
    } else {
        cs.push(xof("sha3", Role::Peer, &msg, &expect, |d, o| {
            let mut h = sha3::Shake128::default();
            h.update(d);
            h.finalize_xof().read(o)
        }));
        cs.push(xof("libcrux-sha3", Role::Peer, &msg, &expect, |d, o| {
            libcrux_sha3::shake128_ema(o, d)
        }));
    }
    Built {
        contestants: cs,
        notes: vec![
            format!("{XOF_OUT}-byte output"),
            format!("{NO_SHA3_RING}; aws-lc-rs has no SHAKE (XOF) API"),
        ],
    }
}

pub(crate) fn build_shake128(size: usize) -> Built {
    build_shake(size, false)
}

pub(crate) fn build_shake256(size: usize) -> Built {
    build_shake(size, true)
}

/// Output per lane of the x4 row: one SHAKE256 block.
pub(crate) const X4_OUT: usize = 136;

pub(crate) fn build_shake256_x4(size: usize) -> Built {
    let msgs: Vec<Vec<u8>> = (0..4).map(|i| input(size, 0x4444 + i)).collect();
    let mut expect = [[0u8; X4_OUT]; 4];
    for (m, e) in msgs.iter().zip(&mut expect) {
        tessera::shake256(None, m, e);
    }
    type X4Fn = Box<dyn Fn([&[u8]; 4], [&mut [u8]; 4])>;
    let contestant = |name: String, role: Role, f: X4Fn| {
        let ins: Vec<AlignedBuf> = msgs.iter().map(|m| AlignedBuf::from_slice(m)).collect();
        let mut outs: Vec<AlignedBuf> = (0..4).map(|_| AlignedBuf::zeroed(X4_OUT)).collect();
        {
            let [o0, o1, o2, o3] = &mut outs[..] else {
                unreachable!()
            };
            f([&ins[0], &ins[1], &ins[2], &ins[3]], [o0, o1, o2, o3]);
        }
        for (o, e) in outs.iter().zip(&expect) {
            assert_eq!(&**o, e, "{name} disagrees with Tessera x1");
        }
        Contestant::new(name, role, move || {
            let [o0, o1, o2, o3] = &mut outs[..] else {
                unreachable!()
            };
            let i = black_box([&*ins[0], &*ins[1], &*ins[2], &*ins[3]]);
            f(i, [o0, o1, o2, o3]);
            black_box(&outs);
        })
    };
    // The four-way functions are boxed for every contestant alike (one dynamic call per
    // iteration of ~10 µs).
    let mut cs: Vec<Contestant> = tessera::x4_impls()
        .into_iter()
        .map(|t| {
            let be = t.backend;
            contestant(
                format!("tessera/{}", t.name),
                tessera_role(be.is_none()),
                Box::new(move |i, o| tessera::shake256_x4(be, i, o)),
            )
        })
        .collect();
    let mut notes = vec![format!(
        "four {} inputs, {X4_OUT} bytes out each",
        size_label(size)
    )];
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        cs.push(contestant(
            "libcrux-sha3".into(),
            Role::Peer,
            Box::new(|i, o| {
                let [o0, o1, o2, o3] = o;
                // SAFETY: AVX2 was detected above.
                unsafe { libcrux_x4_avx2(i[0], i[1], i[2], i[3], o0, o1, o2, o3) }
            }),
        ));
    } else {
        notes.push("libcrux-sha3's x4 needs AVX2, not on this CPU".into());
    }
    #[cfg(not(target_arch = "x86_64"))]
    notes.push("libcrux-sha3's x4 runs only on x86_64 AVX2 here".into());
    cs.push(contestant(
        "sha3".into(),
        Role::Peer,
        Box::new(|i, o| {
            use sha3::digest::{ExtendableOutput, Update, XofReader};
            for (d, o) in i.into_iter().zip(o) {
                let mut h = sha3::Shake256::default();
                h.update(d);
                h.finalize_xof().read(o);
            }
        }),
    ));
    notes.push(
        "RustCrypto sha3 has no multi-way API: four sequential SHAKE256 calls; ring has no \
         SHA-3, aws-lc-rs no SHAKE"
            .into(),
    );
    Built {
        contestants: cs,
        notes,
    }
}

/// libcrux-sha3's x4 code is all `#[inline(always)]` and expects its caller to be compiled with
/// AVX2 (as libcrux-ml-kem's AVX2 code is); calling it from an AVX2 function is how it runs there.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
pub(crate) fn libcrux_x4_avx2(
    i0: &[u8],
    i1: &[u8],
    i2: &[u8],
    i3: &[u8],
    o0: &mut [u8],
    o1: &mut [u8],
    o2: &mut [u8],
    o3: &mut [u8],
) {
    libcrux_sha3::avx2::x4::shake256(i0, i1, i2, i3, o0, o1, o2, o3);
}
