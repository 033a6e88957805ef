//! hpke-rs, on its libcrux and RustCrypto providers (runtime-agile: one `Hpke` per mode).

use super::*;
use hpke_rs::{Context, Hpke, HpkePrivateKey, HpkePublicKey};
use hpke_rs_crypto::HpkeCrypto;
use hpke_rs_crypto::types::{AeadAlgorithm, KdfAlgorithm, KemAlgorithm};
use hpke_rs_libcrux::HpkeLibcrux;
use hpke_rs_rust_crypto::HpkeRustCrypto;

#[derive(Clone, Copy)]
pub enum Provider {
    /// `HpkeLibcrux<ChaCha20Rng>`: the caller's RNG (seeded from the test's).
    Libcrux,
    /// `HpkeRustCrypto`: its own ChaCha20Rng, seeded from the OS when the `Hpke` is made
    /// (the provider has no constructor taking a caller's RNG or seed).
    RustCrypto,
}

pub struct Hrs {
    provider: Provider,
    kem: KemAlgorithm,
    kdf: KdfAlgorithm,
    aead: AeadAlgorithm,
}

pub fn party(provider: Provider, kem: u16, kdf: u16, aead: u16) -> Box<dyn Party> {
    Box::new(Hrs {
        provider,
        kem: KemAlgorithm::try_from(kem).expect("hpke-rs kem id"),
        kdf: KdfAlgorithm::try_from(kdf).expect("hpke-rs kdf id"),
        aead: AeadAlgorithm::try_from(aead).expect("hpke-rs aead id"),
    })
}

fn hmode(mode: &Mode) -> hpke_rs::Mode {
    match mode {
        Mode::Base => hpke_rs::Mode::Base,
        Mode::Psk { .. } => hpke_rs::Mode::Psk,
        Mode::Auth { .. } => hpke_rs::Mode::Auth,
        Mode::AuthPsk { .. } => hpke_rs::Mode::AuthPsk,
    }
}

struct Ctx<C: HpkeCrypto + 'static>(Context<C>);
impl<C: HpkeCrypto + 'static> Sender for Ctx<C> {
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Vec<u8> {
        self.0.seal(aad, pt).expect("hpke-rs seal")
    }
    fn export(&self, ctx: &[u8], len: usize) -> Vec<u8> {
        self.0.export(ctx, len).expect("hpke-rs export")
    }
}
impl<C: HpkeCrypto + 'static> Receiver for Ctx<C> {
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> Option<Vec<u8>> {
        self.0.open(aad, ct).ok()
    }
    fn export(&self, ctx: &[u8], len: usize) -> Vec<u8> {
        self.0.export(ctx, len).expect("hpke-rs export")
    }
}

/// Runs `f` on an `Hpke` of this party's provider for `mode`.
macro_rules! with_hpke {
    ($self:ident, $mode:expr, $rng:expr, |$h:ident| $body:expr) => {
        match $self.provider {
            Provider::Libcrux => {
                let seeded = ChaCha20Rng::from_rng($rng);
                #[allow(unused_mut)]
                let mut $h = Hpke::<HpkeLibcrux<ChaCha20Rng>>::new_with_rng(
                    $mode, $self.kem, $self.kdf, $self.aead, seeded,
                );
                $body
            }
            Provider::RustCrypto => {
                #[allow(unused_mut)]
                let mut $h = Hpke::<HpkeRustCrypto>::new($mode, $self.kem, $self.kdf, $self.aead);
                $body
            }
        }
    };
}

impl Party for Hrs {
    fn name(&self) -> String {
        match self.provider {
            Provider::Libcrux => "hpke-rs/libcrux".into(),
            Provider::RustCrypto => "hpke-rs/rustcrypto".into(),
        }
    }
    fn generate(&self, rng: &mut ChaCha20Rng) -> KeyPair {
        with_hpke!(self, hpke_rs::Mode::Base, rng, |h| {
            let kp = h.generate_key_pair().expect("hpke-rs generate_key_pair");
            (
                kp.private_key().as_slice().to_vec(),
                kp.public_key().as_slice().to_vec(),
            )
        })
    }
    fn derive(&self, ikm: &[u8]) -> KeyPair {
        let mut rng = ChaCha20Rng::from_seed([0; 32]); // unused by DeriveKeyPair
        with_hpke!(self, hpke_rs::Mode::Base, &mut rng, |h| {
            let kp = h.derive_key_pair(ikm).expect("hpke-rs derive_key_pair");
            (
                kp.private_key().as_slice().to_vec(),
                kp.public_key().as_slice().to_vec(),
            )
        })
    }
    fn setup_sender(
        &self,
        To(mode, pk_r, info): To,
        rng: &mut ChaCha20Rng,
    ) -> (Vec<u8>, Box<dyn Sender>) {
        let pk_r = HpkePublicKey::from(pk_r);
        let (psk, psk_id) = mode.psk().unzip();
        let sk_s = mode.sender_key().map(|(sk, _)| HpkePrivateKey::from(sk));
        with_hpke!(self, hmode(&mode), rng, |h| {
            let (enc, ctx) = h
                .setup_sender(&pk_r, info, psk, psk_id, sk_s.as_ref())
                .expect("hpke-rs setup_sender");
            (enc, Box::new(Ctx(ctx)) as Box<dyn Sender>)
        })
    }
    fn setup_receiver(&self, At(mode, enc, sk_r, info): At) -> Box<dyn Receiver> {
        let sk_r = HpkePrivateKey::from(sk_r);
        let (psk, psk_id) = mode.psk().unzip();
        let pk_s = mode.sender_key().map(|(_, pk)| HpkePublicKey::from(pk));
        let mut rng = ChaCha20Rng::from_seed([0; 32]); // a receiver draws no randomness
        with_hpke!(self, hmode(&mode), &mut rng, |h| {
            let ctx = h
                .setup_receiver(enc, &sk_r, info, psk, psk_id, pk_s.as_ref())
                .expect("hpke-rs setup_receiver");
            Box::new(Ctx(ctx)) as Box<dyn Receiver>
        })
    }
    fn seal(&self, to: To, aad: &[u8], pt: &[u8], rng: &mut ChaCha20Rng) -> (Vec<u8>, Vec<u8>) {
        let To(mode, pk_r, info) = to;
        let pk_r = HpkePublicKey::from(pk_r);
        let (psk, psk_id) = mode.psk().unzip();
        let sk_s = mode.sender_key().map(|(sk, _)| HpkePrivateKey::from(sk));
        with_hpke!(self, hmode(&mode), rng, |h| {
            h.seal(&pk_r, info, aad, pt, psk, psk_id, sk_s.as_ref())
                .expect("hpke-rs seal")
        })
    }
    fn open(&self, At(mode, enc, sk_r, info): At, aad: &[u8], ct: &[u8]) -> Option<Vec<u8>> {
        let sk_r = HpkePrivateKey::from(sk_r);
        let (psk, psk_id) = mode.psk().unzip();
        let pk_s = mode.sender_key().map(|(_, pk)| HpkePublicKey::from(pk));
        let mut rng = ChaCha20Rng::from_seed([0; 32]);
        with_hpke!(self, hmode(&mode), &mut rng, |h| {
            h.open(enc, &sk_r, info, aad, ct, psk, psk_id, pk_s.as_ref())
                .ok()
        })
    }
}
