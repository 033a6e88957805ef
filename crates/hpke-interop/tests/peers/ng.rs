//! hpke-ng behind [`Party`](super::Party).

use super::*;
use hpke_ng::{
    Aead, DhKemX25519HkdfSha256, ExportOnly, Hpke, Kdf, Kem, Psk, ReceiverContext, SenderContext,
};
use std::marker::PhantomData;

/// hpke-ng's Auth modes exist only for its `AuthKem`s: this dispatches them for the
/// DHKEM and refuses them for the PQ KEMs (the tests never ask).
pub trait NgKem: Kem + Sized + 'static {
    fn sender_auth<F: Kdf, A: Aead>(
        _rng: &mut ChaCha20Rng,
        _pk_r: &Self::PublicKey,
        _info: &[u8],
        _psk: Option<Psk>,
        _sk_s: &Self::PrivateKey,
    ) -> (Self::EncappedKey, SenderContext<Self, F, A>) {
        unreachable!("hpke-ng: no Auth mode for a KEM without AuthEncap")
    }
    fn receiver_auth<F: Kdf, A: Aead>(
        _enc: &Self::EncappedKey,
        _sk_r: &Self::PrivateKey,
        _info: &[u8],
        _psk: Option<Psk>,
        _pk_s: &Self::PublicKey,
    ) -> ReceiverContext<Self, F, A> {
        unreachable!("hpke-ng: no Auth mode for a KEM without AuthEncap")
    }
}

impl NgKem for DhKemX25519HkdfSha256 {
    fn sender_auth<F: Kdf, A: Aead>(
        rng: &mut ChaCha20Rng,
        pk_r: &Self::PublicKey,
        info: &[u8],
        psk: Option<Psk>,
        sk_s: &Self::PrivateKey,
    ) -> (Self::EncappedKey, SenderContext<Self, F, A>) {
        match psk {
            None => Hpke::<Self, F, A>::setup_sender_auth(rng, pk_r, info, sk_s),
            Some(p) => Hpke::<Self, F, A>::setup_sender_auth_psk(rng, pk_r, info, p, sk_s),
        }
        .expect("hpke-ng setup_sender_auth")
    }
    fn receiver_auth<F: Kdf, A: Aead>(
        enc: &Self::EncappedKey,
        sk_r: &Self::PrivateKey,
        info: &[u8],
        psk: Option<Psk>,
        pk_s: &Self::PublicKey,
    ) -> ReceiverContext<Self, F, A> {
        match psk {
            None => Hpke::<Self, F, A>::setup_receiver_auth(enc, sk_r, info, pk_s),
            Some(p) => Hpke::<Self, F, A>::setup_receiver_auth_psk(enc, sk_r, info, p, pk_s),
        }
        .expect("hpke-ng setup_receiver_auth")
    }
}
impl NgKem for hpke_ng::MlKem768 {}
impl NgKem for hpke_ng::MlKem1024 {}
impl NgKem for hpke_ng::XWingDraft06 {}

/// `seal`/`open` exist only on hpke-ng's `SealingAead` contexts.
pub trait NgAead: Aead + Sized + 'static {
    fn seal<K: Kem, F: Kdf>(
        _c: &mut SenderContext<K, F, Self>,
        _aad: &[u8],
        _pt: &[u8],
    ) -> Vec<u8> {
        unreachable!("seal on an export-only context")
    }
    fn open<K: Kem, F: Kdf>(
        _c: &mut ReceiverContext<K, F, Self>,
        _aad: &[u8],
        _ct: &[u8],
    ) -> Option<Vec<u8>> {
        unreachable!("open on an export-only context")
    }
}
macro_rules! sealing {
    ($($a:ty),*) => {$(
        impl NgAead for $a {
            fn seal<K: Kem, F: Kdf>(c: &mut SenderContext<K, F, Self>, aad: &[u8], pt: &[u8]) -> Vec<u8> {
                c.seal(aad, pt).expect("hpke-ng seal")
            }
            fn open<K: Kem, F: Kdf>(c: &mut ReceiverContext<K, F, Self>, aad: &[u8], ct: &[u8]) -> Option<Vec<u8>> {
                c.open(aad, ct).ok()
            }
        }
    )*};
}
sealing!(
    hpke_ng::Aes128Gcm,
    hpke_ng::Aes256Gcm,
    hpke_ng::ChaCha20Poly1305
);
impl NgAead for ExportOnly {}

pub struct Ng<K, F, A>(PhantomData<(K, F, A)>);
pub fn party<K: NgKem, F: Kdf + 'static, A: NgAead>() -> Box<dyn Party> {
    Box::new(Ng::<K, F, A>(PhantomData))
}

struct S<K: Kem, F: Kdf, A: Aead>(SenderContext<K, F, A>);
struct R<K: Kem, F: Kdf, A: Aead>(ReceiverContext<K, F, A>);
impl<K: NgKem, F: Kdf, A: NgAead> Sender for S<K, F, A> {
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Vec<u8> {
        A::seal(&mut self.0, aad, pt)
    }
    fn export(&self, ctx: &[u8], len: usize) -> Vec<u8> {
        self.0.export(ctx, len).expect("hpke-ng export")
    }
}
impl<K: NgKem, F: Kdf, A: NgAead> Receiver for R<K, F, A> {
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> Option<Vec<u8>> {
        A::open(&mut self.0, aad, ct)
    }
    fn export(&self, ctx: &[u8], len: usize) -> Vec<u8> {
        self.0.export(ctx, len).expect("hpke-ng export")
    }
}

fn psk<'a>(mode: &Mode<'a>) -> Option<Psk<'a>> {
    match *mode {
        Mode::Psk { psk, psk_id } | Mode::AuthPsk { psk, psk_id, .. } => {
            Some(Psk::new(psk, psk_id).expect("hpke-ng psk"))
        }
        _ => None,
    }
}

impl<K: NgKem, F: Kdf + 'static, A: NgAead> Party for Ng<K, F, A> {
    fn name(&self) -> String {
        "hpke-ng".into()
    }
    fn generate(&self, rng: &mut ChaCha20Rng) -> KeyPair {
        let (sk, pk) = K::generate(rng).expect("hpke-ng generate");
        (K::sk_to_bytes(&sk).to_vec(), K::pk_to_bytes(&pk))
    }
    fn derive(&self, ikm: &[u8]) -> KeyPair {
        let (sk, pk) = K::derive_key_pair(ikm).expect("hpke-ng derive_key_pair");
        (K::sk_to_bytes(&sk).to_vec(), K::pk_to_bytes(&pk))
    }
    fn setup_sender(
        &self,
        To(mode, pk_r, info): To,
        rng: &mut ChaCha20Rng,
    ) -> (Vec<u8>, Box<dyn Sender>) {
        let pk_r = K::pk_from_bytes(pk_r).expect("hpke-ng pk_from_bytes");
        let (enc, ctx) = match (mode.sender_key(), psk(&mode)) {
            (None, None) => Hpke::<K, F, A>::setup_sender_base(rng, &pk_r, info),
            (None, Some(p)) => Hpke::<K, F, A>::setup_sender_psk(rng, &pk_r, info, p),
            (Some((sk_s, _)), p) => {
                let sk_s = K::sk_from_bytes(sk_s).expect("hpke-ng sk_from_bytes");
                Ok(K::sender_auth::<F, A>(rng, &pk_r, info, p, &sk_s))
            }
        }
        .expect("hpke-ng setup_sender");
        (enc.as_ref().to_vec(), Box::new(S(ctx)))
    }
    fn setup_receiver(&self, At(mode, enc, sk_r, info): At) -> Box<dyn Receiver> {
        let enc = K::enc_from_bytes(enc).expect("hpke-ng enc_from_bytes");
        let sk_r = K::sk_from_bytes(sk_r).expect("hpke-ng sk_from_bytes");
        let ctx = match (mode.sender_key(), psk(&mode)) {
            (None, None) => Hpke::<K, F, A>::setup_receiver_base(&enc, &sk_r, info),
            (None, Some(p)) => Hpke::<K, F, A>::setup_receiver_psk(&enc, &sk_r, info, p),
            (Some((_, pk_s)), p) => {
                let pk_s = K::pk_from_bytes(pk_s).expect("hpke-ng pk_from_bytes");
                Ok(K::receiver_auth::<F, A>(&enc, &sk_r, info, p, &pk_s))
            }
        }
        .expect("hpke-ng setup_receiver");
        Box::new(R(ctx))
    }
    // hpke-ng's single-shot calls are its setup plus one seal/open; going through the
    // context here keeps one code path for the four modes.
    fn seal(&self, to: To, aad: &[u8], pt: &[u8], rng: &mut ChaCha20Rng) -> (Vec<u8>, Vec<u8>) {
        let (enc, mut s) = self.setup_sender(to, rng);
        let ct = s.seal(aad, pt);
        (enc, ct)
    }
    fn open(&self, at: At, aad: &[u8], ct: &[u8]) -> Option<Vec<u8>> {
        self.setup_receiver(at).open(aad, ct)
    }
}
