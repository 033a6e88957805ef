//! AES-128/192/256-GCM (any nonce length), ChaCha20-Poly1305 and XChaCha20-Poly1305: seal and
//! open on every backend of this CPU against portable and RustCrypto (`aes-gcm`,
//! `chacha20poly1305`), then open of a tampered ciphertext, tag, nonce or AAD (refused by
//! every side, the detached buffer wiped) and of an arbitrary ciphertext (the same outcome
//! as RustCrypto).
#![no_main]

use aes_gcm::aead::{Aead, KeyInit, Payload};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tessera_fuzz::{backends, same};

#[derive(Arbitrary, Debug)]
struct Case {
    alg: u8,
    key: [u8; 32],
    nonce: Vec<u8>,
    aad: Vec<u8>,
    msg: Vec<u8>,
    /// What to tamper with (ciphertext, tag, nonce, AAD), where, and which bit.
    tamper: (u8, u16, u8),
    junk: Vec<u8>,
}

type Res = Result<Vec<u8>, ()>;

/// One AEAD on one backend (or the peer): seal and open of `ciphertext || tag`, and the
/// detached open of `buf` in place.
trait Cipher {
    fn seal(&self, nonce: &[u8], aad: &[u8], msg: &[u8]) -> Res;
    fn open(&self, nonce: &[u8], aad: &[u8], ct: &[u8]) -> Res;
    /// `None` for the peer (not checked).
    fn open_detached(
        &self,
        _nonce: &[u8],
        _aad: &[u8],
        _buf: &mut [u8],
        _tag: &[u8; 16],
    ) -> Option<bool> {
        None
    }
}

struct Peer<C>(C);
impl<C: Aead> Cipher for Peer<C> {
    fn seal(&self, nonce: &[u8], aad: &[u8], msg: &[u8]) -> Res {
        let n = aes_gcm::aead::Nonce::<C>::try_from(nonce).map_err(|_| ())?;
        self.0.encrypt(&n, Payload { msg, aad }).map_err(|_| ())
    }
    fn open(&self, nonce: &[u8], aad: &[u8], ct: &[u8]) -> Res {
        let n = aes_gcm::aead::Nonce::<C>::try_from(nonce).map_err(|_| ())?;
        self.0.decrypt(&n, Payload { msg: ct, aad }).map_err(|_| ())
    }
}

impl Cipher for tessera_aes_gcm::AesGcm {
    fn seal(&self, nonce: &[u8], aad: &[u8], msg: &[u8]) -> Res {
        let ct = self.encrypt(nonce, aad, msg).map_err(|_| ())?;
        let mut buf = msg.to_vec();
        let tag = self
            .encrypt_in_place_detached(nonce, aad, &mut buf)
            .map_err(|_| ())?;
        same("detached seal", &[&buf[..], &tag[..]].concat(), &ct);
        Ok(ct)
    }
    fn open(&self, nonce: &[u8], aad: &[u8], ct: &[u8]) -> Res {
        self.decrypt(nonce, aad, ct).map_err(|_| ())
    }
    fn open_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8; 16],
    ) -> Option<bool> {
        Some(self.decrypt_in_place_detached(nonce, aad, buf, tag).is_ok())
    }
}

macro_rules! chacha {
    ($t:ty, $n:literal) => {
        impl Cipher for $t {
            fn seal(&self, nonce: &[u8], aad: &[u8], msg: &[u8]) -> Res {
                let nonce: &[u8; $n] = nonce.try_into().map_err(|_| ())?;
                let ct = self.encrypt(nonce, aad, msg).map_err(|_| ())?;
                let mut buf = msg.to_vec();
                let tag = self
                    .encrypt_in_place_detached(nonce, aad, &mut buf)
                    .map_err(|_| ())?;
                same("detached seal", &[&buf[..], &tag[..]].concat(), &ct);
                Ok(ct)
            }
            fn open(&self, nonce: &[u8], aad: &[u8], ct: &[u8]) -> Res {
                let nonce: &[u8; $n] = nonce.try_into().map_err(|_| ())?;
                self.decrypt(nonce, aad, ct).map_err(|_| ())
            }
            fn open_detached(
                &self,
                nonce: &[u8],
                aad: &[u8],
                buf: &mut [u8],
                tag: &[u8; 16],
            ) -> Option<bool> {
                let nonce: &[u8; $n] = nonce.try_into().ok()?;
                Some(self.decrypt_in_place_detached(nonce, aad, buf, tag).is_ok())
            }
        }
    };
}
chacha!(tessera_chacha20poly1305::ChaCha20Poly1305, 12);
chacha!(tessera_chacha20poly1305::XChaCha20Poly1305, 24);

fuzz_target!(|c: Case| {
    let key = &c.key;
    // The ciphers on every backend, then the peer when it takes these parameters.
    let (ours, peer, nonce): (
        Vec<(&str, Box<dyn Cipher>)>,
        Option<Box<dyn Cipher>>,
        Vec<u8>,
    ) = match c.alg % 5 {
        a @ 0..=2 => {
            let k = &key[..[16, 24, 32][a as usize]];
            // Any nonce length from 1 byte; 12 (the fast path, and RustCrypto's) most often.
            let nonce = if c.nonce.len() > 12 && c.nonce[12] & 1 == 0 {
                c.nonce[..12].to_vec()
            } else {
                c.nonce.clone()
            };
            let ours = backends::<tessera_aes_gcm::testing::Backend>()
                .into_iter()
                .map(|b| {
                    let k = tessera_aes_gcm::AesGcm::new_with_backend(b, k).unwrap();
                    (b.name(), Box::new(k) as Box<dyn Cipher>)
                })
                .collect();
            let peer: Option<Box<dyn Cipher>> =
                match (a, nonce.len()) {
                    (0, 12) => Some(Box::new(Peer(
                        aes_gcm::Aes128Gcm::new_from_slice(k).unwrap(),
                    ))),
                    (1, 12) => {
                        Some(
                            Box::new(
                                Peer(
                                    aes_gcm::AesGcm::<
                                        aes_gcm::aes::Aes192,
                                        aes_gcm::aead::consts::U12,
                                    >::new_from_slice(k)
                                    .unwrap(),
                                ),
                            ),
                        )
                    }
                    (2, 12) => Some(Box::new(Peer(
                        aes_gcm::Aes256Gcm::new_from_slice(k).unwrap(),
                    ))),
                    _ => None,
                };
            (ours, peer, nonce)
        }
        a => {
            let x = a == 4;
            let n = if x { 24 } else { 12 };
            let mut nonce = c.nonce.clone();
            nonce.resize(n, 0);
            let ours = backends::<tessera_chacha20poly1305::testing::Backend>()
                .into_iter()
                .map(|b| {
                    let k: Box<dyn Cipher> = if x {
                        Box::new(
                            tessera_chacha20poly1305::XChaCha20Poly1305::new_with_backend(b, key),
                        )
                    } else {
                        Box::new(
                            tessera_chacha20poly1305::ChaCha20Poly1305::new_with_backend(b, key),
                        )
                    };
                    (b.name(), k)
                })
                .collect();
            let peer: Box<dyn Cipher> = if x {
                Box::new(Peer(
                    chacha20poly1305::XChaCha20Poly1305::new_from_slice(key).unwrap(),
                ))
            } else {
                Box::new(Peer(
                    chacha20poly1305::ChaCha20Poly1305::new_from_slice(key).unwrap(),
                ))
            };
            (ours, Some(peer), nonce)
        }
    };
    let (aad, msg) = (&c.aad[..], &c.msg[..]);

    let want = match &peer {
        Some(p) => p.seal(&nonce, aad, msg),
        None => ours[0].1.seal(&nonce, aad, msg),
    };
    let peer_junk = peer.as_ref().map(|p| p.open(&nonce, aad, &c.junk));
    // The tampered inputs: one bit of the ciphertext, the tag, the nonce or the AAD.
    let (what, at, bit) = c.tamper;
    let mask = 1u8 << (bit & 7);
    for (name, k) in &ours {
        let ct = k.seal(&nonce, aad, msg);
        same(name, &ct, &want);
        let Ok(ct) = ct else { continue };
        same(name, &k.open(&nonce, aad, &ct), &Ok(msg.to_vec()));
        let (mut ct2, mut n2, mut aad2) = (ct.clone(), nonce.clone(), aad.to_vec());
        // An empty message has no ciphertext byte to flip: the tag instead.
        let w = if what % 4 == 0 && msg.is_empty() {
            1
        } else {
            what % 4
        };
        match w {
            0 => {
                let i = at as usize % (ct2.len() - 16);
                ct2[i] ^= mask
            }
            1 => {
                let i = ct2.len() - 16 + at as usize % 16;
                ct2[i] ^= mask
            }
            2 => {
                let i = at as usize % n2.len();
                n2[i] ^= mask
            }
            _ => {
                if aad2.is_empty() {
                    aad2.push(0);
                } else {
                    let i = at as usize % aad2.len();
                    aad2[i] ^= mask
                }
            }
        }
        assert!(
            k.open(&n2, &aad2, &ct2).is_err(),
            "{name}: tampered input opened"
        );
        if let Some(p) = &peer {
            assert!(
                p.open(&n2, &aad2, &ct2).is_err(),
                "peer: tampered input opened"
            );
        }
        let (body, tag) = ct2.split_at(ct2.len() - 16);
        let mut buf = body.to_vec();
        if let Some(ok) = k.open_detached(&n2, &aad2, &mut buf, tag.try_into().unwrap()) {
            assert!(!ok, "{name}: tampered input opened in place");
            assert!(buf.iter().all(|&b| b == 0), "{name}: buffer not wiped");
        }
        // An arbitrary ciphertext: the peer's outcome (refused, unless the fuzzer forged a tag).
        let junk = k.open(&nonce, aad, &c.junk);
        if let Some(p) = &peer_junk {
            same(name, &junk, p);
        }
    }
});
