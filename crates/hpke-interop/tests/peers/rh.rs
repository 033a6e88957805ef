//! rust-hpke (crate `hpke`) behind [`Party`](super::Party).

use super::*;
use hpke::{
    Deserializable, Kem, OpModeR, OpModeS, PskBundle, Serializable, aead::Aead, aead::AeadCtxR,
    aead::AeadCtxS, kdf::Kdf,
};
use std::marker::PhantomData;

pub struct Rh<K, F, A>(PhantomData<(K, F, A)>);
pub fn party<K: Kem + 'static, F: Kdf + 'static, A: Aead + 'static>() -> Box<dyn Party> {
    Box::new(Rh::<K, F, A>(PhantomData))
}

struct S<A: Aead, F: Kdf, K: Kem>(AeadCtxS<A, F, K>);
struct R<A: Aead, F: Kdf, K: Kem>(AeadCtxR<A, F, K>);
impl<A: Aead, F: Kdf, K: Kem> Sender for S<A, F, K> {
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Vec<u8> {
        // rust-hpke takes (plaintext, aad).
        self.0.seal(pt, aad).expect("rust-hpke seal")
    }
    fn export(&self, ctx: &[u8], len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        self.0.export(ctx, &mut out).expect("rust-hpke export");
        out
    }
}
impl<A: Aead, F: Kdf, K: Kem> Receiver for R<A, F, K> {
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> Option<Vec<u8>> {
        self.0.open(ct, aad).ok()
    }
    fn export(&self, ctx: &[u8], len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        self.0.export(ctx, &mut out).expect("rust-hpke export");
        out
    }
}

fn bundle<'a>(mode: &Mode<'a>) -> Option<PskBundle<'a>> {
    mode.psk()
        .map(|(psk, id)| PskBundle::new(psk, id).expect("rust-hpke PskBundle"))
}
fn mode_s<'a, K: Kem>(mode: &Mode<'a>) -> OpModeS<'a, K> {
    let keys = mode.sender_key().map(|(sk, pk)| {
        (
            K::PrivateKey::from_bytes(sk).expect("rust-hpke sk from_bytes"),
            K::PublicKey::from_bytes(pk).expect("rust-hpke pk from_bytes"),
        )
    });
    match (keys, bundle(mode)) {
        (None, None) => OpModeS::Base,
        (None, Some(b)) => OpModeS::Psk(b),
        (Some(k), None) => OpModeS::Auth(k),
        (Some(k), Some(b)) => OpModeS::AuthPsk(k, b),
    }
}
fn mode_r<'a, K: Kem>(mode: &Mode<'a>) -> OpModeR<'a, K> {
    let pk = mode
        .sender_key()
        .map(|(_, pk)| K::PublicKey::from_bytes(pk).expect("rust-hpke pk from_bytes"));
    match (pk, bundle(mode)) {
        (None, None) => OpModeR::Base,
        (None, Some(b)) => OpModeR::Psk(b),
        (Some(k), None) => OpModeR::Auth(k),
        (Some(k), Some(b)) => OpModeR::AuthPsk(k, b),
    }
}

impl<K: Kem + 'static, F: Kdf + 'static, A: Aead + 'static> Party for Rh<K, F, A> {
    fn name(&self) -> String {
        "rust-hpke".into()
    }
    fn generate(&self, rng: &mut ChaCha20Rng) -> KeyPair {
        let (sk, pk) = K::gen_keypair_with_rng(rng);
        (sk.to_bytes().to_vec(), pk.to_bytes().to_vec())
    }
    fn derive(&self, ikm: &[u8]) -> KeyPair {
        let (sk, pk) = K::derive_keypair(ikm);
        (sk.to_bytes().to_vec(), pk.to_bytes().to_vec())
    }
    fn setup_sender(
        &self,
        To(mode, pk_r, info): To,
        rng: &mut ChaCha20Rng,
    ) -> (Vec<u8>, Box<dyn Sender>) {
        let pk_r = K::PublicKey::from_bytes(pk_r).expect("rust-hpke pk from_bytes");
        let (enc, ctx) =
            hpke::setup_sender_with_rng::<A, F, K>(&mode_s::<K>(&mode), &pk_r, info, rng)
                .expect("rust-hpke setup_sender");
        (enc.to_bytes().to_vec(), Box::new(S(ctx)))
    }
    fn setup_receiver(&self, At(mode, enc, sk_r, info): At) -> Box<dyn Receiver> {
        let enc = K::EncappedKey::from_bytes(enc).expect("rust-hpke enc from_bytes");
        let sk_r = K::PrivateKey::from_bytes(sk_r).expect("rust-hpke sk from_bytes");
        let ctx = hpke::setup_receiver::<A, F, K>(&mode_r::<K>(&mode), &sk_r, &enc, info)
            .expect("rust-hpke setup_receiver");
        Box::new(R(ctx))
    }
    fn seal(&self, to: To, aad: &[u8], pt: &[u8], rng: &mut ChaCha20Rng) -> (Vec<u8>, Vec<u8>) {
        let To(mode, pk_r, info) = to;
        let pk_r = K::PublicKey::from_bytes(pk_r).expect("rust-hpke pk from_bytes");
        let (enc, ct) = hpke::single_shot_seal_with_rng::<A, F, K>(
            &mode_s::<K>(&mode),
            &pk_r,
            info,
            pt,
            aad,
            rng,
        )
        .expect("rust-hpke single_shot_seal");
        (enc.to_bytes().to_vec(), ct)
    }
    fn open(&self, At(mode, enc, sk_r, info): At, aad: &[u8], ct: &[u8]) -> Option<Vec<u8>> {
        let enc = K::EncappedKey::from_bytes(enc).expect("rust-hpke enc from_bytes");
        let sk_r = K::PrivateKey::from_bytes(sk_r).expect("rust-hpke sk from_bytes");
        hpke::single_shot_open::<A, F, K>(&mode_r::<K>(&mode), &sk_r, &enc, info, ct, aad).ok()
    }
}
