//! Session-ticket encryption for TLS servers.
//!
//! Design: each ticket key is a random 256-bit ChaCha20-Poly1305 key with a random 16-byte
//! name, both from the OS. A ticket is `name (16) || nonce (12) || ciphertext || tag (16)`,
//! with a fresh random nonce per ticket and the name as additional data. rustls'
//! [`TicketRotator`] replaces the key every six hours and keeps the previous one for
//! decryption only, so a ticket is accepted for at most twelve hours and a key is erased after
//! that. Random 96-bit nonces keep the collision probability below 2^-32 for up to 2^32 tickets
//! per key, far more than a six-hour key issues. Decryption refuses a wrong name, a short
//! ticket or a wrong tag with `None`, without panicking; a wrong tag releases no plaintext.
#![forbid(unsafe_code)]

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use rustls::Error;
use rustls::crypto::GetRandomFailed;
use rustls::server::ProducesTickets;
use rustls::ticketer::TicketRotator;
use tessera_chacha20poly1305::ChaCha20Poly1305;

const NAME_LEN: usize = 16;
const NONCE_LEN: usize = 12;
const TAG_LEN: usize = 16;
/// How long a key issues tickets (seconds).
const LIFETIME: u32 = 6 * 60 * 60;

/// A ticketer with key rotation (see the module documentation).
pub struct Ticketer;

impl Ticketer {
    /// A rotating ticketer: [`TicketRotator`] over [`ChaCha20Poly1305`] ticket keys.
    // The shape of rustls' own `Ticketer::new` (a shared trait object, not `Self`).
    #[allow(clippy::new_ret_no_self)]
    pub fn new() -> Result<Arc<dyn ProducesTickets>, Error> {
        Ok(Arc::new(TicketRotator::new(LIFETIME, make_key)?))
    }
}

fn make_key() -> Result<Box<dyn ProducesTickets>, GetRandomFailed> {
    Ok(Box::new(TicketKey::random()?))
}

/// One ticket key (the expanded key is wiped on drop by the AEAD crate).
pub(crate) struct TicketKey {
    name: [u8; NAME_LEN],
    key: ChaCha20Poly1305,
    lifetime: u32,
}

impl fmt::Debug for TicketKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TicketKey").finish_non_exhaustive()
    }
}

impl TicketKey {
    pub(crate) fn random() -> Result<Self, GetRandomFailed> {
        let mut key = zeroize::Zeroizing::new([0u8; 32]);
        let mut name = [0u8; NAME_LEN];
        getrandom::fill(key.as_mut()).map_err(|_| GetRandomFailed)?;
        getrandom::fill(&mut name).map_err(|_| GetRandomFailed)?;
        Ok(Self {
            name,
            key: ChaCha20Poly1305::new(&key),
            lifetime: LIFETIME,
        })
    }
}

impl ProducesTickets for TicketKey {
    fn enabled(&self) -> bool {
        true
    }

    fn lifetime(&self) -> u32 {
        self.lifetime
    }

    fn encrypt(&self, plain: &[u8]) -> Option<Vec<u8>> {
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).ok()?;
        let mut out = Vec::with_capacity(NAME_LEN + NONCE_LEN + plain.len() + TAG_LEN);
        out.extend_from_slice(&self.name);
        out.extend_from_slice(&nonce);
        out.extend_from_slice(plain);
        let tag = self
            .key
            .encrypt_in_place_detached(&nonce, &self.name, &mut out[NAME_LEN + NONCE_LEN..])
            .ok()?;
        out.extend_from_slice(&tag);
        Some(out)
    }

    fn decrypt(&self, cipher: &[u8]) -> Option<Vec<u8>> {
        if cipher.len() < NAME_LEN + NONCE_LEN + TAG_LEN {
            return None;
        }
        let (name, rest) = cipher.split_at(NAME_LEN);
        // The key name is public (it is sent in the clear); a plain comparison is fine.
        if name != self.name {
            return None;
        }
        let (nonce, rest) = rest.split_at(NONCE_LEN);
        let (ct, tag) = rest.split_at(rest.len() - TAG_LEN);
        let nonce: &[u8; NONCE_LEN] = nonce.try_into().ok()?;
        let tag: &[u8; TAG_LEN] = tag.try_into().ok()?;
        let mut plain = ct.to_vec();
        self.key
            .decrypt_in_place_detached(nonce, &self.name, &mut plain, tag)
            .ok()?;
        Some(plain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_fresh_nonces() {
        let k = TicketKey::random().unwrap();
        for len in [0usize, 1, 100, 5000] {
            let plain: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let a = k.encrypt(&plain).unwrap();
            let b = k.encrypt(&plain).unwrap();
            assert_eq!(a.len(), NAME_LEN + NONCE_LEN + len + TAG_LEN);
            assert_ne!(a, b, "a fresh nonce per ticket");
            assert_eq!(k.decrypt(&a).unwrap(), plain);
            assert_eq!(k.decrypt(&b).unwrap(), plain);
        }
    }

    #[test]
    fn refuses_tampered_truncated_and_foreign_tickets() {
        let k = TicketKey::random().unwrap();
        let other = TicketKey::random().unwrap();
        let t = k.encrypt(b"session state").unwrap();
        for i in 0..t.len() {
            let mut u = t.clone();
            u[i] ^= 0x01;
            assert!(k.decrypt(&u).is_none(), "byte {i}");
        }
        for len in 0..t.len() {
            assert!(k.decrypt(&t[..len]).is_none(), "len {len}");
        }
        assert!(other.decrypt(&t).is_none());
        // The other key's name on our ticket: still refused (wrong key, the tag fails).
        let mut u = t.clone();
        u[..NAME_LEN].copy_from_slice(&other.name);
        assert!(other.decrypt(&u).is_none());
    }

    #[test]
    fn rotator() {
        let t = Ticketer::new().unwrap();
        assert!(t.enabled());
        // The rotator advertises how long a ticket stays acceptable: two key periods.
        assert_eq!(t.lifetime(), 2 * LIFETIME);
        let c = t.encrypt(b"abc").unwrap();
        assert_eq!(t.decrypt(&c).unwrap(), b"abc");
        assert!(t.decrypt(&c[1..]).is_none());
    }
}
