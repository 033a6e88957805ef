//! Tessera, typed (`Hpke<K, F, A>`) and runtime-agile (`Suite`).

use super::*;
use std::marker::PhantomData;
use tessera::hpke::{
    Aead, DhKemX25519HkdfSha256, ExportOnly, Hpke, Kdf, Kem, ReceiverContext, SealingAead,
    SenderContext, Suite,
};

/// The Auth modes exist only for Tessera's `AuthKem`s: dispatched here for the DHKEM and
/// refused for the PQ KEMs (the tests never ask).
pub trait TKem: Kem + 'static {
    fn sender_auth<F: Kdf, A: Aead>(
        _pk_r: &Self::PublicKey,
        _info: &[u8],
        _psk: Option<(&[u8], &[u8])>,
        _sk_s: &Self::PrivateKey,
        _rng: &mut ChaCha20Rng,
    ) -> (Self::EncappedKey, SenderContext<A>) {
        unreachable!("no Auth mode for a KEM without AuthEncap")
    }
    fn receiver_auth<F: Kdf, A: Aead>(
        _enc: &[u8],
        _sk_r: &Self::PrivateKey,
        _info: &[u8],
        _psk: Option<(&[u8], &[u8])>,
        _pk_s: &Self::PublicKey,
    ) -> ReceiverContext<A> {
        unreachable!("no Auth mode for a KEM without AuthEncap")
    }
    #[allow(clippy::too_many_arguments)]
    fn seal_auth<F: Kdf, A: SealingAead>(
        _pk_r: &Self::PublicKey,
        _info: &[u8],
        _aad: &[u8],
        _pt: &[u8],
        _psk: Option<(&[u8], &[u8])>,
        _sk_s: &Self::PrivateKey,
        _rng: &mut ChaCha20Rng,
    ) -> (Self::EncappedKey, Vec<u8>) {
        unreachable!("no Auth mode for a KEM without AuthEncap")
    }
    #[allow(clippy::too_many_arguments)]
    fn open_auth<F: Kdf, A: SealingAead>(
        _enc: &[u8],
        _sk_r: &Self::PrivateKey,
        _info: &[u8],
        _aad: &[u8],
        _ct: &[u8],
        _psk: Option<(&[u8], &[u8])>,
        _pk_s: &Self::PublicKey,
    ) -> Option<Vec<u8>> {
        unreachable!("no Auth mode for a KEM without AuthEncap")
    }
}

impl TKem for DhKemX25519HkdfSha256 {
    fn sender_auth<F: Kdf, A: Aead>(
        pk_r: &Self::PublicKey,
        info: &[u8],
        psk: Option<(&[u8], &[u8])>,
        sk_s: &Self::PrivateKey,
        rng: &mut ChaCha20Rng,
    ) -> (Self::EncappedKey, SenderContext<A>) {
        match psk {
            None => Hpke::<Self, F, A>::setup_sender_auth(pk_r, info, sk_s, rng),
            Some((psk, id)) => {
                Hpke::<Self, F, A>::setup_sender_auth_psk(pk_r, info, psk, id, sk_s, rng)
            }
        }
        .expect("tessera setup_sender_auth")
    }
    fn receiver_auth<F: Kdf, A: Aead>(
        enc: &[u8],
        sk_r: &Self::PrivateKey,
        info: &[u8],
        psk: Option<(&[u8], &[u8])>,
        pk_s: &Self::PublicKey,
    ) -> ReceiverContext<A> {
        match psk {
            None => Hpke::<Self, F, A>::setup_receiver_auth(enc, sk_r, info, pk_s),
            Some((psk, id)) => {
                Hpke::<Self, F, A>::setup_receiver_auth_psk(enc, sk_r, info, psk, id, pk_s)
            }
        }
        .expect("tessera setup_receiver_auth")
    }
    fn seal_auth<F: Kdf, A: SealingAead>(
        pk_r: &Self::PublicKey,
        info: &[u8],
        aad: &[u8],
        pt: &[u8],
        psk: Option<(&[u8], &[u8])>,
        sk_s: &Self::PrivateKey,
        rng: &mut ChaCha20Rng,
    ) -> (Self::EncappedKey, Vec<u8>) {
        match psk {
            None => Hpke::<Self, F, A>::seal_auth(pk_r, info, aad, pt, sk_s, rng),
            Some((psk, id)) => {
                Hpke::<Self, F, A>::seal_auth_psk(pk_r, info, aad, pt, psk, id, sk_s, rng)
            }
        }
        .expect("tessera seal_auth")
    }
    fn open_auth<F: Kdf, A: SealingAead>(
        enc: &[u8],
        sk_r: &Self::PrivateKey,
        info: &[u8],
        aad: &[u8],
        ct: &[u8],
        psk: Option<(&[u8], &[u8])>,
        pk_s: &Self::PublicKey,
    ) -> Option<Vec<u8>> {
        match psk {
            None => Hpke::<Self, F, A>::open_auth(enc, sk_r, info, aad, ct, pk_s),
            Some((psk, id)) => {
                Hpke::<Self, F, A>::open_auth_psk(enc, sk_r, info, aad, ct, psk, id, pk_s)
            }
        }
        .ok()
    }
}
impl TKem for tessera::hpke::MlKem512 {}
impl TKem for tessera::hpke::MlKem768 {}
impl TKem for tessera::hpke::MlKem1024 {}
impl TKem for tessera::hpke::XWing {}

/// `seal`/`open` (contexts and single-shot) exist only for Tessera's `SealingAead`s.
pub trait TAead: Aead + Sized + 'static {
    fn seal(_c: &mut SenderContext<Self>, _aad: &[u8], _pt: &[u8]) -> Vec<u8> {
        unreachable!("seal on an export-only context")
    }
    fn open(_c: &mut ReceiverContext<Self>, _aad: &[u8], _ct: &[u8]) -> Option<Vec<u8>> {
        unreachable!("open on an export-only context")
    }
    fn seal_single<K: TKem, F: Kdf>(
        _mode: Mode,
        _pk_r: &K::PublicKey,
        _info: &[u8],
        _aad: &[u8],
        _pt: &[u8],
        _rng: &mut ChaCha20Rng,
    ) -> (Vec<u8>, Vec<u8>) {
        unreachable!("seal on an export-only suite")
    }
    fn open_single<K: TKem, F: Kdf>(
        _mode: Mode,
        _enc: &[u8],
        _sk_r: &K::PrivateKey,
        _info: &[u8],
        _aad: &[u8],
        _ct: &[u8],
    ) -> Option<Vec<u8>> {
        unreachable!("open on an export-only suite")
    }
}
macro_rules! sealing {
    ($($a:ty),*) => {$(
        impl TAead for $a {
            fn seal(c: &mut SenderContext<Self>, aad: &[u8], pt: &[u8]) -> Vec<u8> {
                // Every other message through the in-place API, to cover both.
                if pt.len() % 2 == 0 {
                    c.seal(aad, pt).expect("tessera seal")
                } else {
                    let mut buf = pt.to_vec();
                    let tag = c.seal_in_place_detached(aad, &mut buf).expect("tessera seal");
                    buf.extend_from_slice(&tag);
                    buf
                }
            }
            fn open(c: &mut ReceiverContext<Self>, aad: &[u8], ct: &[u8]) -> Option<Vec<u8>> {
                if ct.len() % 2 == 0 || ct.len() < 16 {
                    c.open(aad, ct).ok()
                } else {
                    let (body, tag) = ct.split_at(ct.len() - 16);
                    let mut buf = body.to_vec();
                    c.open_in_place_detached(aad, &mut buf, tag.try_into().unwrap())
                        .ok()
                        .map(|()| buf)
                }
            }
            fn seal_single<K: TKem, F: Kdf>(
                mode: Mode,
                pk_r: &K::PublicKey,
                info: &[u8],
                aad: &[u8],
                pt: &[u8],
                rng: &mut ChaCha20Rng,
            ) -> (Vec<u8>, Vec<u8>) {
                let (enc, ct) = match mode {
                    Mode::Base => Hpke::<K, F, Self>::seal_base(pk_r, info, aad, pt, rng)
                        .expect("tessera seal_base"),
                    Mode::Psk { psk, psk_id } => {
                        Hpke::<K, F, Self>::seal_psk(pk_r, info, aad, pt, psk, psk_id, rng)
                            .expect("tessera seal_psk")
                    }
                    Mode::Auth { sk_s, .. } | Mode::AuthPsk { sk_s, .. } => {
                        let sk_s = K::private_key_from_bytes(sk_s).expect("tessera sk");
                        K::seal_auth::<F, Self>(pk_r, info, aad, pt, mode.psk(), &sk_s, rng)
                    }
                };
                (enc.as_ref().to_vec(), ct)
            }
            fn open_single<K: TKem, F: Kdf>(
                mode: Mode,
                enc: &[u8],
                sk_r: &K::PrivateKey,
                info: &[u8],
                aad: &[u8],
                ct: &[u8],
            ) -> Option<Vec<u8>> {
                match mode {
                    Mode::Base => Hpke::<K, F, Self>::open_base(enc, sk_r, info, aad, ct).ok(),
                    Mode::Psk { psk, psk_id } => {
                        Hpke::<K, F, Self>::open_psk(enc, sk_r, info, aad, ct, psk, psk_id).ok()
                    }
                    Mode::Auth { pk_s, .. } | Mode::AuthPsk { pk_s, .. } => {
                        let pk_s = K::public_key_from_bytes(pk_s).expect("tessera pk");
                        K::open_auth::<F, Self>(enc, sk_r, info, aad, ct, mode.psk(), &pk_s)
                    }
                }
            }
        }
    )*};
}
sealing!(
    tessera::hpke::Aes128Gcm,
    tessera::hpke::Aes256Gcm,
    tessera::hpke::ChaCha20Poly1305
);
impl TAead for ExportOnly {}

struct S<A: Aead>(SenderContext<A>);
struct R<A: Aead>(ReceiverContext<A>);
impl<A: TAead> Sender for S<A> {
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Vec<u8> {
        A::seal(&mut self.0, aad, pt)
    }
    fn export(&self, ctx: &[u8], len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        self.0.export(ctx, &mut out).expect("tessera export");
        out
    }
}
impl<A: TAead> Receiver for R<A> {
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> Option<Vec<u8>> {
        A::open(&mut self.0, aad, ct)
    }
    fn export(&self, ctx: &[u8], len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        self.0.export(ctx, &mut out).expect("tessera export");
        out
    }
}

pub struct Typed<K, F, A>(PhantomData<(K, F, A)>);
pub fn typed<K: TKem, F: Kdf + 'static, A: TAead>() -> Box<dyn Party> {
    Box::new(Typed::<K, F, A>(PhantomData))
}

impl<K: TKem, F: Kdf + 'static, A: TAead> Party for Typed<K, F, A> {
    fn name(&self) -> String {
        "tessera".into()
    }
    fn generate(&self, rng: &mut ChaCha20Rng) -> KeyPair {
        let (sk, pk) = K::generate_key_pair(rng);
        (
            K::private_key_to_bytes(&sk).to_vec(),
            K::public_key_to_bytes(&pk).to_vec(),
        )
    }
    fn derive(&self, ikm: &[u8]) -> KeyPair {
        let (sk, pk) = K::derive_key_pair(ikm).expect("tessera derive_key_pair");
        (
            K::private_key_to_bytes(&sk).to_vec(),
            K::public_key_to_bytes(&pk).to_vec(),
        )
    }
    fn setup_sender(
        &self,
        To(mode, pk_r, info): To,
        rng: &mut ChaCha20Rng,
    ) -> (Vec<u8>, Box<dyn Sender>) {
        let pk_r = K::public_key_from_bytes(pk_r).expect("tessera public_key_from_bytes");
        let (enc, ctx) = match mode {
            Mode::Base => Hpke::<K, F, A>::setup_sender_base(&pk_r, info, rng)
                .expect("tessera setup_sender_base"),
            Mode::Psk { psk, psk_id } => {
                Hpke::<K, F, A>::setup_sender_psk(&pk_r, info, psk, psk_id, rng)
                    .expect("tessera setup_sender_psk")
            }
            Mode::Auth { sk_s, .. } | Mode::AuthPsk { sk_s, .. } => {
                let sk_s = K::private_key_from_bytes(sk_s).expect("tessera sk");
                K::sender_auth::<F, A>(&pk_r, info, mode.psk(), &sk_s, rng)
            }
        };
        (enc.as_ref().to_vec(), Box::new(S(ctx)))
    }
    fn setup_receiver(&self, At(mode, enc, sk_r, info): At) -> Box<dyn Receiver> {
        let sk_r = K::private_key_from_bytes(sk_r).expect("tessera private_key_from_bytes");
        let ctx = match mode {
            Mode::Base => Hpke::<K, F, A>::setup_receiver_base(enc, &sk_r, info)
                .expect("tessera setup_receiver_base"),
            Mode::Psk { psk, psk_id } => {
                Hpke::<K, F, A>::setup_receiver_psk(enc, &sk_r, info, psk, psk_id)
                    .expect("tessera setup_receiver_psk")
            }
            Mode::Auth { pk_s, .. } | Mode::AuthPsk { pk_s, .. } => {
                let pk_s = K::public_key_from_bytes(pk_s).expect("tessera pk");
                K::receiver_auth::<F, A>(enc, &sk_r, info, mode.psk(), &pk_s)
            }
        };
        Box::new(R(ctx))
    }
    fn seal(&self, to: To, aad: &[u8], pt: &[u8], rng: &mut ChaCha20Rng) -> (Vec<u8>, Vec<u8>) {
        let To(mode, pk_r, info) = to;
        let pk_r = K::public_key_from_bytes(pk_r).expect("tessera public_key_from_bytes");
        A::seal_single::<K, F>(mode, &pk_r, info, aad, pt, rng)
    }
    fn open(&self, At(mode, enc, sk_r, info): At, aad: &[u8], ct: &[u8]) -> Option<Vec<u8>> {
        let sk_r = K::private_key_from_bytes(sk_r).expect("tessera private_key_from_bytes");
        A::open_single::<K, F>(mode, enc, &sk_r, info, aad, ct)
    }
}

// --- The runtime-agile API ---

pub struct Agile(Suite);
pub fn agile(kem: u16, kdf: u16, aead: u16) -> Box<dyn Party> {
    Box::new(Agile(
        Suite::from_ids(kem, kdf, aead).expect("tessera Suite::from_ids"),
    ))
}

struct AS(tessera::hpke::AgileSenderContext);
struct AR(tessera::hpke::AgileReceiverContext);
impl Sender for AS {
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Vec<u8> {
        self.0.seal(aad, pt).expect("tessera agile seal")
    }
    fn export(&self, ctx: &[u8], len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        self.0.export(ctx, &mut out).expect("tessera agile export");
        out
    }
}
impl Receiver for AR {
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> Option<Vec<u8>> {
        self.0.open(aad, ct).ok()
    }
    fn export(&self, ctx: &[u8], len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        self.0.export(ctx, &mut out).expect("tessera agile export");
        out
    }
}

impl Party for Agile {
    fn name(&self) -> String {
        "tessera/agile".into()
    }
    fn generate(&self, rng: &mut ChaCha20Rng) -> KeyPair {
        let (sk, pk) = self
            .0
            .generate_key_pair(rng)
            .expect("tessera agile generate");
        (sk.as_bytes().to_vec(), pk.as_bytes().to_vec())
    }
    fn derive(&self, ikm: &[u8]) -> KeyPair {
        let (sk, pk) = self.0.derive_key_pair(ikm).expect("tessera agile derive");
        (sk.as_bytes().to_vec(), pk.as_bytes().to_vec())
    }
    fn setup_sender(
        &self,
        To(mode, pk_r, info): To,
        rng: &mut ChaCha20Rng,
    ) -> (Vec<u8>, Box<dyn Sender>) {
        let s = &self.0;
        let pk_r = s.public_key_from_bytes(pk_r).expect("tessera agile pk");
        let (enc, ctx) = match mode {
            Mode::Base => s.setup_sender_base(&pk_r, info, rng),
            Mode::Psk { psk, psk_id } => s.setup_sender_psk(&pk_r, info, psk, psk_id, rng),
            Mode::Auth { sk_s, .. } => {
                let sk_s = s.private_key_from_bytes(sk_s).expect("tessera agile sk");
                s.setup_sender_auth(&pk_r, info, &sk_s, rng)
            }
            Mode::AuthPsk {
                sk_s, psk, psk_id, ..
            } => {
                let sk_s = s.private_key_from_bytes(sk_s).expect("tessera agile sk");
                s.setup_sender_auth_psk(&pk_r, info, psk, psk_id, &sk_s, rng)
            }
        }
        .expect("tessera agile setup_sender");
        (enc.as_bytes().to_vec(), Box::new(AS(ctx)))
    }
    fn setup_receiver(&self, At(mode, enc, sk_r, info): At) -> Box<dyn Receiver> {
        let s = &self.0;
        let sk_r = s.private_key_from_bytes(sk_r).expect("tessera agile sk");
        let ctx = match mode {
            Mode::Base => s.setup_receiver_base(enc, &sk_r, info),
            Mode::Psk { psk, psk_id } => s.setup_receiver_psk(enc, &sk_r, info, psk, psk_id),
            Mode::Auth { pk_s, .. } => {
                let pk_s = s.public_key_from_bytes(pk_s).expect("tessera agile pk");
                s.setup_receiver_auth(enc, &sk_r, info, &pk_s)
            }
            Mode::AuthPsk {
                pk_s, psk, psk_id, ..
            } => {
                let pk_s = s.public_key_from_bytes(pk_s).expect("tessera agile pk");
                s.setup_receiver_auth_psk(enc, &sk_r, info, psk, psk_id, &pk_s)
            }
        }
        .expect("tessera agile setup_receiver");
        Box::new(AR(ctx))
    }
    fn seal(&self, to: To, aad: &[u8], pt: &[u8], rng: &mut ChaCha20Rng) -> (Vec<u8>, Vec<u8>) {
        let To(mode, pk_r, info) = to;
        let s = &self.0;
        let pk_r = s.public_key_from_bytes(pk_r).expect("tessera agile pk");
        let (enc, ct) = match mode {
            Mode::Base => s.seal_base(&pk_r, info, aad, pt, rng),
            Mode::Psk { psk, psk_id } => s.seal_psk(&pk_r, info, aad, pt, psk, psk_id, rng),
            Mode::Auth { sk_s, .. } => {
                let sk_s = s.private_key_from_bytes(sk_s).expect("tessera agile sk");
                s.seal_auth(&pk_r, info, aad, pt, &sk_s, rng)
            }
            Mode::AuthPsk {
                sk_s, psk, psk_id, ..
            } => {
                let sk_s = s.private_key_from_bytes(sk_s).expect("tessera agile sk");
                s.seal_auth_psk(&pk_r, info, aad, pt, psk, psk_id, &sk_s, rng)
            }
        }
        .expect("tessera agile seal");
        (enc.as_bytes().to_vec(), ct)
    }
    fn open(&self, At(mode, enc, sk_r, info): At, aad: &[u8], ct: &[u8]) -> Option<Vec<u8>> {
        let s = &self.0;
        let sk_r = s.private_key_from_bytes(sk_r).expect("tessera agile sk");
        match mode {
            Mode::Base => s.open_base(enc, &sk_r, info, aad, ct),
            Mode::Psk { psk, psk_id } => s.open_psk(enc, &sk_r, info, aad, ct, psk, psk_id),
            Mode::Auth { pk_s, .. } => {
                let pk_s = s.public_key_from_bytes(pk_s).expect("tessera agile pk");
                s.open_auth(enc, &sk_r, info, aad, ct, &pk_s)
            }
            Mode::AuthPsk {
                pk_s, psk, psk_id, ..
            } => {
                let pk_s = s.public_key_from_bytes(pk_s).expect("tessera agile pk");
                s.open_auth_psk(enc, &sk_r, info, aad, ct, psk, psk_id, &pk_s)
            }
        }
        .ok()
    }
}
