//! The hash rows: SHA-256, SHA-512, HMAC-SHA256, SHA3-256, SHAKE and four-way SHAKE256.

use crate::*;
#[cfg(target_arch = "x86_64")]
use tessera_benches::libcrux_x4_avx2;

pub(crate) const NO_SHA3_RING: &str = "ring has no SHA-3/SHAKE";

pub(crate) fn build_sha256(size: usize) -> Built {
    build_sha2::<sha2::Sha256, _, _, _>(
        size,
        0x256,
        tessera::sha256_impls(),
        tessera::sha256,
        (&ring::digest::SHA256, &aws_lc_rs::digest::SHA256),
    )
}

pub(crate) fn build_sha512(size: usize) -> Built {
    build_sha2::<sha2::Sha512, _, _, _>(
        size,
        0x512,
        tessera::sha512_impls(),
        tessera::sha512,
        (&ring::digest::SHA512, &aws_lc_rs::digest::SHA512),
    )
}

/// One SHA-2 row (the message from `seed`): Tessera's implementations `impls`, hashing with
/// `hash_with`, against ring and aws-lc-rs (their `algs`) and RustCrypto `sha2` (`D`).
fn build_sha2<D, B, O, F>(
    size: usize,
    seed: u64,
    impls: Vec<tessera::Impl<B>>,
    hash_with: F,
    algs: (
        &'static ring::digest::Algorithm,
        &'static aws_lc_rs::digest::Algorithm,
    ),
) -> Built
where
    D: sha2::Digest + 'static,
    B: Copy + 'static,
    O: AsRef<[u8]> + 'static,
    F: Fn(Option<B>, &[u8]) -> O + Copy + 'static,
{
    let msg = input(size, seed);
    let expect = hash_with(None, &msg);
    let expect = expect.as_ref();
    let mut cs = tessera_contestants(impls, |name, role, be| {
        hash(name, role, &msg, expect, move |d| hash_with(be, d))
    });
    let (ring_alg, aws_alg) = algs;
    cs.push(hash("ring", Role::Peer, &msg, expect, |d| {
        ring::digest::digest(ring_alg, d)
    }));
    cs.push(hash("aws-lc-rs", Role::Peer, &msg, expect, |d| {
        aws_lc_rs::digest::digest(aws_alg, d)
    }));
    cs.push(hash("sha2", Role::Peer, &msg, expect, |d| D::digest(d)));
    Built {
        contestants: cs,
        notes: vec![],
    }
}

pub(crate) fn build_hmac_sha256(size: usize) -> Built {
    let msg = input(size, 0x4d4ac);
    let key = input(32, 0x6b6579);
    let expect = tessera::hmac_sha256(&tessera::hmac_sha256_key(None, &key), &msg);
    let mut cs = tessera_contestants(tessera::sha256_impls(), |name, role, be| {
        let k = tessera::hmac_sha256_key(be, &key);
        hash(name, role, &msg, &expect, move |d| {
            tessera::hmac_sha256(&k, d)
        })
    });
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
    let mut cs = tessera_contestants(tessera::x1_impls(), |name, role, be| {
        hash(name, role, &msg, &expect, move |d| tessera::sha3_256(be, d))
    });
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

/// One SHAKE row (SHAKE256 when `wide`): RustCrypto's is `H`, libcrux's `libcrux`.
pub(crate) fn build_shake<H>(
    size: usize,
    wide: bool,
    libcrux: impl Fn(&[u8], &mut [u8]) + 'static,
) -> Built
where
    H: Default + sha3::digest::Update + sha3::digest::ExtendableOutput + 'static,
{
    let msg = input(size, if wide { 0x5256 } else { 0x5128 });
    let mut expect = [0u8; XOF_OUT];
    let t_xof = if wide {
        tessera::shake256
    } else {
        tessera::shake128
    };
    t_xof(None, &msg, &mut expect);
    let mut cs = tessera_contestants(tessera::x1_impls(), |name, role, be| {
        xof(name, role, &msg, &expect, move |d, o| t_xof(be, d, o))
    });
    cs.push(xof("sha3", Role::Peer, &msg, &expect, sha3_xof::<H>));
    cs.push(xof("libcrux-sha3", Role::Peer, &msg, &expect, libcrux));
    Built {
        contestants: cs,
        notes: vec![
            format!("{XOF_OUT}-byte output"),
            format!("{NO_SHA3_RING}; aws-lc-rs has no SHAKE (XOF) API"),
        ],
    }
}

/// RustCrypto `sha3`'s XOF `H` (SHAKE128 or SHAKE256) of `d`, filling `o`.
fn sha3_xof<H: Default + sha3::digest::Update + sha3::digest::ExtendableOutput>(
    d: &[u8],
    o: &mut [u8],
) {
    use sha3::digest::XofReader;
    let mut h = H::default();
    h.update(d);
    h.finalize_xof().read(o)
}

pub(crate) fn build_shake128(size: usize) -> Built {
    build_shake::<sha3::Shake128>(size, false, |d, o| libcrux_sha3::shake128_ema(o, d))
}

pub(crate) fn build_shake256(size: usize) -> Built {
    build_shake::<sha3::Shake256>(size, true, |d, o| libcrux_sha3::shake256_ema(o, d))
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
    let mut cs = tessera_contestants(tessera::x4_impls(), |name, role, be| {
        contestant(
            name,
            role,
            Box::new(move |i, o| tessera::shake256_x4(be, i, o)),
        )
    });
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
