//! SHA-2, SHA-3, SHAKE, TurboSHAKE (single and multi-way), HMAC and HKDF: every backend of
//! this CPU against portable and against RustCrypto (`sha2`, `sha3`, `shake`, `turboshake`,
//! `hmac`, `hkdf`), streaming with arbitrary split points and XOF reads of arbitrary lengths.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use sha2::Digest as _;
use sha3::digest::{ExtendableOutput, Update, XofReader};
use tessera_fuzz::{backends, pieces, read_lengths, same};
use tessera_keccak::testing::{X1Backend, X4Backend};
use tessera_sha2::testing::{Sha256Backend, Sha512Backend};

#[derive(Arbitrary, Debug)]
enum Case {
    Sha2 {
        which: u8,
        msg: Vec<u8>,
        splits: Vec<u16>,
    },
    Sha3 {
        which: u8,
        msg: Vec<u8>,
        splits: Vec<u16>,
    },
    Xof {
        which: u8,
        domain: u8,
        msg: Vec<u8>,
        splits: Vec<u16>,
        out: u16,
        reads: Vec<u16>,
    },
    Multi {
        shake256: bool,
        four: bool,
        msgs: [Vec<u8>; 4],
        blocks: u8,
    },
    Hmac {
        which: u8,
        key: Vec<u8>,
        msg: Vec<u8>,
        splits: Vec<u16>,
        trunc: u8,
    },
    Hkdf {
        which: u8,
        salt: Vec<u8>,
        ikm: Vec<u8>,
        info: Vec<Vec<u8>>,
        len: u16,
    },
}

/// A SHA-2 hasher on every backend of its family, fed `parts`, against RustCrypto one-shot.
macro_rules! sha2_case {
    ($ours:ty, $table:ty, $theirs:ty, $msg:expr, $parts:expr) => {{
        let want = <$theirs>::digest($msg);
        for be in backends::<$table>() {
            let mut h = <$ours>::new_with_backend(be);
            for p in $parts {
                h.update(p);
            }
            same(be.name(), &h.finalize()[..], &want[..]);
            same(
                "one-shot",
                &<$ours>::digest_with_backend(be, $msg)[..],
                &want[..],
            );
        }
    }};
}

macro_rules! sha3_case {
    ($ours:ty, $theirs:ty, $msg:expr, $parts:expr) => {{
        let want = <$theirs>::digest($msg);
        for be in backends::<X1Backend>() {
            let mut h = <$ours>::new_with_backend(be);
            for p in $parts {
                h.update(p);
            }
            same(be.name(), &h.finalize()[..], &want[..]);
        }
    }};
}

/// Reads `lens` from `r` one after another into one buffer.
fn read_all(mut read: impl FnMut(&mut [u8]), lens: &[usize]) -> Vec<u8> {
    let mut out = vec![0u8; lens.iter().sum()];
    let mut at = 0;
    for &n in lens {
        read(&mut out[at..at + n]);
        at += n;
    }
    out
}

fn peer_xof<X: Default + Update + ExtendableOutput>(msg: &[u8], n: usize) -> Vec<u8> {
    let mut x = X::default();
    x.update(msg);
    let mut out = vec![0u8; n];
    x.finalize_xof().read(&mut out);
    out
}

/// TurboSHAKE of RustCrypto for the domain bytes it is instantiated with here.
fn peer_turbo(wide: bool, domain: u8, msg: &[u8], n: usize) -> Option<Vec<u8>> {
    use turboshake::{CTurboShake128 as T128, CTurboShake256 as T256};
    Some(match (wide, domain) {
        (false, 0x01) => peer_xof::<T128<0x01>>(msg, n),
        (false, 0x06) => peer_xof::<T128<0x06>>(msg, n),
        (false, 0x0B) => peer_xof::<T128<0x0B>>(msg, n),
        (false, 0x1F) => peer_xof::<T128<0x1F>>(msg, n),
        (false, 0x7F) => peer_xof::<T128<0x7F>>(msg, n),
        (true, 0x01) => peer_xof::<T256<0x01>>(msg, n),
        (true, 0x06) => peer_xof::<T256<0x06>>(msg, n),
        (true, 0x0B) => peer_xof::<T256<0x0B>>(msg, n),
        (true, 0x1F) => peer_xof::<T256<0x1F>>(msg, n),
        (true, 0x7F) => peer_xof::<T256<0x7F>>(msg, n),
        _ => return None,
    })
}

fn xof(which: u8, domain: u8, msg: &[u8], parts: &[&[u8]], out: usize, lens: &[usize]) {
    use tessera_keccak::{Shake128, Shake256, TurboShake128, TurboShake256};
    // Domain bytes: arbitrary, with the common ones more likely.
    let domain = match domain % 4 {
        0 => 0x1F,
        1 => 0x06,
        _ => domain >> 1,
    };
    let (want, turbo_ok) = match which % 4 {
        0 => (Some(peer_xof::<shake::Shake128>(msg, out)), true),
        1 => (Some(peer_xof::<shake::Shake256>(msg, out)), true),
        w => (
            peer_turbo(w == 3, domain, msg, out),
            (0x01..=0x7F).contains(&domain),
        ),
    };
    let mut portable: Option<Vec<u8>> = None;
    for be in backends::<X1Backend>() {
        let got = match which % 4 {
            0 => {
                let mut h = Shake128::new_with_backend(be);
                for p in parts {
                    h.update(p);
                }
                let mut r = h.finalize_xof();
                read_all(|o| r.read(o), lens)
            }
            1 => {
                let mut h = Shake256::new_with_backend(be);
                for p in parts {
                    h.update(p);
                }
                let mut r = h.finalize_xof();
                read_all(|o| r.read(o), lens)
            }
            w => {
                let r = if w == 2 {
                    TurboShake128::new_with_backend(be, domain).map(|mut h| {
                        for p in parts {
                            h.update(p);
                        }
                        h.finalize_xof()
                    })
                } else {
                    TurboShake256::new_with_backend(be, domain).map(|mut h| {
                        for p in parts {
                            h.update(p);
                        }
                        h.finalize_xof()
                    })
                };
                match r {
                    Ok(mut r) => {
                        assert!(turbo_ok, "domain {domain:#x} accepted");
                        read_all(|o| r.read(o), lens)
                    }
                    Err(e) => {
                        assert!(!turbo_ok, "domain {domain:#x} refused: {e:?}");
                        return;
                    }
                }
            }
        };
        if let Some(w) = &want {
            same(be.name(), &got, w);
        }
        match &portable {
            None => portable = Some(got),
            Some(p) => same(be.name(), &got, p),
        }
    }
}

fn multi(shake256: bool, four: bool, msgs: &[Vec<u8>; 4], blocks: usize) {
    use tessera_keccak::{Shake128, Shake128x2, Shake128x4, Shake256, Shake256x2, Shake256x4};
    let rate = if shake256 { 136 } else { 168 };
    let ways = if four { 4 } else { 2 };
    let ins: Vec<&[u8]> = msgs[..ways].iter().map(Vec::as_slice).collect();
    let equal = ins.iter().all(|m| m.len() == ins[0].len());
    let n = blocks * rate;
    let want: Vec<Vec<u8>> = ins
        .iter()
        .map(|m| {
            let mut o = vec![0u8; n];
            if shake256 {
                Shake256::new_with_backend(X1Backend::Portable)
                    .update(m)
                    .finalize_xof()
                    .read(&mut o);
            } else {
                Shake128::new_with_backend(X1Backend::Portable)
                    .update(m)
                    .finalize_xof()
                    .read(&mut o);
            }
            o
        })
        .collect();
    for be in backends::<X4Backend>() {
        let mut outs = vec![vec![0u8; n]; ways];
        let r = match (shake256, four) {
            (false, true) => Shake128x4::new_with_backend(be, [ins[0], ins[1], ins[2], ins[3]])
                .and_then(|mut x| {
                    let [a, b, c, d] = &mut outs[..] else {
                        unreachable!()
                    };
                    x.squeeze_blocks([a, b, c, d])
                }),
            (true, true) => Shake256x4::new_with_backend(be, [ins[0], ins[1], ins[2], ins[3]])
                .and_then(|mut x| {
                    let [a, b, c, d] = &mut outs[..] else {
                        unreachable!()
                    };
                    x.squeeze_blocks([a, b, c, d])
                }),
            (false, false) => {
                Shake128x2::new_with_backend(be, [ins[0], ins[1]]).and_then(|mut x| {
                    let [a, b] = &mut outs[..] else {
                        unreachable!()
                    };
                    x.squeeze_blocks([a, b])
                })
            }
            (true, false) => {
                Shake256x2::new_with_backend(be, [ins[0], ins[1]]).and_then(|mut x| {
                    let [a, b] = &mut outs[..] else {
                        unreachable!()
                    };
                    x.squeeze_blocks([a, b])
                })
            }
        };
        match r {
            Ok(()) => {
                assert!(equal, "{}: inputs of different lengths accepted", be.name());
                same(be.name(), &outs, &want);
            }
            Err(e) => assert!(!equal, "{}: equal lengths refused: {e:?}", be.name()),
        }
    }
}

macro_rules! hmac_case {
    ($ours:ty, $theirs:ty, $key:expr, $msg:expr, $parts:expr, $trunc:expr) => {{
        use hmac::{KeyInit, Mac};
        let mut m = <hmac::Hmac<$theirs>>::new_from_slice($key).unwrap();
        Mac::update(&mut m, $msg);
        let want = m.finalize().into_bytes();
        for be in backends::<<$ours as tessera_sha2::Sha2>::Backend>() {
            let key = tessera_sha2::HmacKey::<$ours>::new_with_backend(be, $key);
            same(be.name(), &key.sign($msg)[..], &want[..]);
            let mut h = key.hasher();
            for p in $parts {
                h.update(p);
            }
            same(be.name(), &h.finalize()[..], &want[..]);
            assert!(key.verify($msg, &want).is_ok());
            let mut bad = want.to_vec();
            let i = $trunc as usize % bad.len();
            bad[i] ^= 1;
            assert!(key.verify($msg, &bad).is_err());
            // Truncated tags: accepted exactly when the length is allowed and the bytes match.
            let t = ($trunc as usize) % (want.len() + 1);
            let ok = key.verify_truncated($msg, &want[..t], t).is_ok();
            assert_eq!(
                ok,
                t >= tessera_sha2::min_truncated_len(want.len()),
                "truncated to {t}"
            );
        }
    }};
}

macro_rules! hkdf_case {
    ($ours:ty, $theirs:ty, $salt:expr, $ikm:expr, $info:expr, $len:expr) => {{
        let info: Vec<&[u8]> = $info.iter().map(Vec::as_slice).collect();
        let joined: Vec<u8> = info.concat();
        let hk = hkdf::Hkdf::<$theirs>::new(Some($salt), $ikm);
        let mut want = vec![0u8; $len];
        let theirs = hk.expand(&joined, &mut want).is_ok();
        let mut got = vec![0u8; $len];
        let ours = tessera_sha2::hkdf::hkdf::<$ours>($salt, $ikm, &info, &mut got).is_ok();
        same("hkdf accepts", &ours, &theirs);
        if ours {
            same("hkdf", &got, &want);
        }
        for be in backends::<<$ours as tessera_sha2::Sha2>::Backend>() {
            let prk = tessera_sha2::hkdf::extract_parts_with_backend::<$ours>(be, $salt, &[$ikm]);
            let mut got = vec![0u8; $len];
            same(be.name(), &prk.expand(&info, &mut got).is_ok(), &theirs);
            if theirs {
                same(be.name(), &got, &want);
            }
        }
    }};
}

fuzz_target!(|case: Case| match case {
    Case::Sha2 { which, msg, splits } => {
        let parts = pieces(&msg, &splits);
        match which % 5 {
            0 => sha2_case!(
                tessera_sha2::Sha224,
                Sha256Backend,
                sha2::Sha224,
                &msg,
                &parts
            ),
            1 => sha2_case!(
                tessera_sha2::Sha256,
                Sha256Backend,
                sha2::Sha256,
                &msg,
                &parts
            ),
            2 => sha2_case!(
                tessera_sha2::Sha384,
                Sha512Backend,
                sha2::Sha384,
                &msg,
                &parts
            ),
            3 => sha2_case!(
                tessera_sha2::Sha512,
                Sha512Backend,
                sha2::Sha512,
                &msg,
                &parts
            ),
            _ => sha2_case!(
                tessera_sha2::Sha512_256,
                Sha512Backend,
                sha2::Sha512_256,
                &msg,
                &parts
            ),
        }
    }
    Case::Sha3 { which, msg, splits } => {
        let parts = pieces(&msg, &splits);
        match which % 4 {
            0 => sha3_case!(tessera_keccak::Sha3_224, sha3::Sha3_224, &msg, &parts),
            1 => sha3_case!(tessera_keccak::Sha3_256, sha3::Sha3_256, &msg, &parts),
            2 => sha3_case!(tessera_keccak::Sha3_384, sha3::Sha3_384, &msg, &parts),
            _ => sha3_case!(tessera_keccak::Sha3_512, sha3::Sha3_512, &msg, &parts),
        }
    }
    Case::Xof {
        which,
        domain,
        msg,
        splits,
        out,
        reads,
    } => {
        let out = out as usize % 2048;
        xof(
            which,
            domain,
            &msg,
            &pieces(&msg, &splits),
            out,
            &read_lengths(out, &reads),
        );
    }
    Case::Multi {
        shake256,
        four,
        msgs,
        blocks,
    } => multi(shake256, four, &msgs, blocks as usize % 4),
    Case::Hmac {
        which,
        key,
        msg,
        splits,
        trunc,
    } => {
        let parts = pieces(&msg, &splits);
        match which % 5 {
            0 => hmac_case!(
                tessera_sha2::Sha224,
                sha2::Sha224,
                &key,
                &msg,
                &parts,
                trunc
            ),
            1 => hmac_case!(
                tessera_sha2::Sha256,
                sha2::Sha256,
                &key,
                &msg,
                &parts,
                trunc
            ),
            2 => hmac_case!(
                tessera_sha2::Sha384,
                sha2::Sha384,
                &key,
                &msg,
                &parts,
                trunc
            ),
            3 => hmac_case!(
                tessera_sha2::Sha512,
                sha2::Sha512,
                &key,
                &msg,
                &parts,
                trunc
            ),
            _ => hmac_case!(
                tessera_sha2::Sha512_256,
                sha2::Sha512_256,
                &key,
                &msg,
                &parts,
                trunc
            ),
        }
    }
    Case::Hkdf {
        which,
        salt,
        ikm,
        info,
        len,
    } => {
        // Up to just past the 255 * HashLen limit of the widest hash.
        let len = len as usize % (255 * 64 + 2);
        match which % 3 {
            0 => hkdf_case!(tessera_sha2::Sha256, sha2::Sha256, &salt, &ikm, &info, len),
            1 => hkdf_case!(tessera_sha2::Sha384, sha2::Sha384, &salt, &ikm, &info, len),
            _ => hkdf_case!(tessera_sha2::Sha512, sha2::Sha512, &salt, &ikm, &info, len),
        }
    }
});
