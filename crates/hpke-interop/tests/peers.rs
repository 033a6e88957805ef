//! Interoperability of `tessera::hpke` with the peer HPKE libraries: hpke-ng, rust-hpke (crate
//! `hpke`) and hpke-rs on its libcrux and RustCrypto providers.
//!
//! Every library sits behind one byte-level interface ([`Party`]): keys, encapsulated keys and
//! ciphertexts cross between libraries only as bytes, each side serializing what it made and
//! parsing what it receives. For every suite a peer shares with Tessera, and in both
//! directions (Tessera seals, the peer opens; the peer seals, Tessera opens), on seeded random
//! inputs (info, aad, plaintexts, psk ids of random lengths, empty included): context
//! seal/open of several messages, a tampered ciphertext that must not open, exports of both
//! contexts compared, single-shot seal/open with a wrong aad that must not open, and
//! `DeriveKeyPair` of both sides compared. Modes: Base and PSK everywhere, Auth and AuthPSK
//! with DHKEM(X25519). Tessera runs both its typed (`Hpke<K, F, A>`) and its runtime-agile
//! (`Suite`) API.
//!
//! Suites: DHKEM(X25519) with every HKDF and every AEAD (export-only included); ML-KEM-512
//! (hpke-rs on libcrux only), ML-KEM-768, ML-KEM-1024 and X-Wing with each HKDF and each AEAD
//! at least once; the one-stage KDFs of draft-ietf-hpke-hpke with the peers that have them
//! (rust-hpke: SHAKE128/256 and TurboSHAKE128/256; hpke-rs on libcrux: SHAKE128/256).
//!
//! What each peer lacks (so is not run): ML-KEM-512 in hpke-ng, rust-hpke and hpke-rs on
//! RustCrypto (none implements it); the one-stage KDFs in hpke-ng and hpke-rs on RustCrypto,
//! TurboSHAKE in hpke-rs on libcrux; a one-stage KDF with the export-only AEAD in rust-hpke
//! 0.15.1 (it panics); Auth and AuthPSK with the PQ KEMs in every library (the drafts define
//! none; Tessera refuses them too).
//!
//! Needs `--ignore-rust-version` (hpke-ng 0.2 declares rust-version 1.96):
//! `cargo test --ignore-rust-version -p tessera --test interop`.

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};

/// The HPKE mode of one exchange, with its inputs as bytes.
#[derive(Clone, Copy, Debug)]
enum Mode<'a> {
    Base,
    Psk {
        psk: &'a [u8],
        psk_id: &'a [u8],
    },
    /// The sender's key pair (each side parses the half it needs).
    Auth {
        sk_s: &'a [u8],
        pk_s: &'a [u8],
    },
    AuthPsk {
        sk_s: &'a [u8],
        pk_s: &'a [u8],
        psk: &'a [u8],
        psk_id: &'a [u8],
    },
}

impl<'a> Mode<'a> {
    pub fn name(&self) -> &'static str {
        match self {
            Mode::Base => "base",
            Mode::Psk { .. } => "psk",
            Mode::Auth { .. } => "auth",
            Mode::AuthPsk { .. } => "auth-psk",
        }
    }
    fn psk(&self) -> Option<(&'a [u8], &'a [u8])> {
        match *self {
            Mode::Psk { psk, psk_id } | Mode::AuthPsk { psk, psk_id, .. } => Some((psk, psk_id)),
            _ => None,
        }
    }
    fn sender_key(&self) -> Option<(&'a [u8], &'a [u8])> {
        match *self {
            Mode::Auth { sk_s, pk_s } | Mode::AuthPsk { sk_s, pk_s, .. } => Some((sk_s, pk_s)),
            _ => None,
        }
    }
}

/// A sender context: `seal` is never called on an export-only suite.
trait Sender {
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Vec<u8>;
    fn export(&self, exporter_context: &[u8], len: usize) -> Vec<u8>;
}

/// A receiver context; `open` is `None` when the ciphertext does not authenticate.
trait Receiver {
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> Option<Vec<u8>>;
    fn export(&self, exporter_context: &[u8], len: usize) -> Vec<u8>;
}

/// The (sk, pk) bytes of a key pair.
type KeyPair = (Vec<u8>, Vec<u8>);

/// One library on one suite.
trait Party {
    fn name(&self) -> String;
    /// A fresh key pair from `rng`, serialized.
    fn generate(&self, rng: &mut ChaCha20Rng) -> KeyPair;
    /// `DeriveKeyPair(ikm)`, serialized.
    fn derive(&self, ikm: &[u8]) -> KeyPair;
    fn setup_sender(
        &self,
        mode: Mode,
        pk_r: &[u8],
        info: &[u8],
        rng: &mut ChaCha20Rng,
    ) -> (Vec<u8>, Box<dyn Sender>);
    fn setup_receiver(&self, mode: Mode, enc: &[u8], sk_r: &[u8], info: &[u8])
    -> Box<dyn Receiver>;
    /// Single-shot `Seal<MODE>` (never called on an export-only suite).
    fn seal(
        &self,
        mode: Mode,
        pk_r: &[u8],
        info: &[u8],
        aad: &[u8],
        pt: &[u8],
        rng: &mut ChaCha20Rng,
    ) -> (Vec<u8>, Vec<u8>);
    /// Single-shot `Open<MODE>`.
    fn open(
        &self,
        mode: Mode,
        enc: &[u8],
        sk_r: &[u8],
        info: &[u8],
        aad: &[u8],
        ct: &[u8],
    ) -> Option<Vec<u8>>;
}

// ---------------------------------------------------------------------------------------------
// hpke-ng

mod ng {
    use super::*;
    use hpke_ng::{
        Aead, DhKemX25519HkdfSha256, ExportOnly, Hpke, Kdf, Kem, Psk, ReceiverContext,
        SenderContext,
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
            mode: Mode,
            pk_r: &[u8],
            info: &[u8],
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
        fn setup_receiver(
            &self,
            mode: Mode,
            enc: &[u8],
            sk_r: &[u8],
            info: &[u8],
        ) -> Box<dyn Receiver> {
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
        fn seal(
            &self,
            mode: Mode,
            pk_r: &[u8],
            info: &[u8],
            aad: &[u8],
            pt: &[u8],
            rng: &mut ChaCha20Rng,
        ) -> (Vec<u8>, Vec<u8>) {
            let (enc, mut s) = self.setup_sender(mode, pk_r, info, rng);
            let ct = s.seal(aad, pt);
            (enc, ct)
        }
        fn open(
            &self,
            mode: Mode,
            enc: &[u8],
            sk_r: &[u8],
            info: &[u8],
            aad: &[u8],
            ct: &[u8],
        ) -> Option<Vec<u8>> {
            self.setup_receiver(mode, enc, sk_r, info).open(aad, ct)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// rust-hpke (crate `hpke`)

mod rh {
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
            mode: Mode,
            pk_r: &[u8],
            info: &[u8],
            rng: &mut ChaCha20Rng,
        ) -> (Vec<u8>, Box<dyn Sender>) {
            let pk_r = K::PublicKey::from_bytes(pk_r).expect("rust-hpke pk from_bytes");
            let (enc, ctx) =
                hpke::setup_sender_with_rng::<A, F, K>(&mode_s::<K>(&mode), &pk_r, info, rng)
                    .expect("rust-hpke setup_sender");
            (enc.to_bytes().to_vec(), Box::new(S(ctx)))
        }
        fn setup_receiver(
            &self,
            mode: Mode,
            enc: &[u8],
            sk_r: &[u8],
            info: &[u8],
        ) -> Box<dyn Receiver> {
            let enc = K::EncappedKey::from_bytes(enc).expect("rust-hpke enc from_bytes");
            let sk_r = K::PrivateKey::from_bytes(sk_r).expect("rust-hpke sk from_bytes");
            let ctx = hpke::setup_receiver::<A, F, K>(&mode_r::<K>(&mode), &sk_r, &enc, info)
                .expect("rust-hpke setup_receiver");
            Box::new(R(ctx))
        }
        fn seal(
            &self,
            mode: Mode,
            pk_r: &[u8],
            info: &[u8],
            aad: &[u8],
            pt: &[u8],
            rng: &mut ChaCha20Rng,
        ) -> (Vec<u8>, Vec<u8>) {
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
        fn open(
            &self,
            mode: Mode,
            enc: &[u8],
            sk_r: &[u8],
            info: &[u8],
            aad: &[u8],
            ct: &[u8],
        ) -> Option<Vec<u8>> {
            let enc = K::EncappedKey::from_bytes(enc).expect("rust-hpke enc from_bytes");
            let sk_r = K::PrivateKey::from_bytes(sk_r).expect("rust-hpke sk from_bytes");
            hpke::single_shot_open::<A, F, K>(&mode_r::<K>(&mode), &sk_r, &enc, info, ct, aad).ok()
        }
    }
}

// ---------------------------------------------------------------------------------------------
// hpke-rs, on its libcrux and RustCrypto providers (runtime-agile: one `Hpke` per mode).

mod hrs {
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
                    let mut $h =
                        Hpke::<HpkeRustCrypto>::new($mode, $self.kem, $self.kdf, $self.aead);
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
            mode: Mode,
            pk_r: &[u8],
            info: &[u8],
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
        fn setup_receiver(
            &self,
            mode: Mode,
            enc: &[u8],
            sk_r: &[u8],
            info: &[u8],
        ) -> Box<dyn Receiver> {
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
        fn seal(
            &self,
            mode: Mode,
            pk_r: &[u8],
            info: &[u8],
            aad: &[u8],
            pt: &[u8],
            rng: &mut ChaCha20Rng,
        ) -> (Vec<u8>, Vec<u8>) {
            let pk_r = HpkePublicKey::from(pk_r);
            let (psk, psk_id) = mode.psk().unzip();
            let sk_s = mode.sender_key().map(|(sk, _)| HpkePrivateKey::from(sk));
            with_hpke!(self, hmode(&mode), rng, |h| {
                h.seal(&pk_r, info, aad, pt, psk, psk_id, sk_s.as_ref())
                    .expect("hpke-rs seal")
            })
        }
        fn open(
            &self,
            mode: Mode,
            enc: &[u8],
            sk_r: &[u8],
            info: &[u8],
            aad: &[u8],
            ct: &[u8],
        ) -> Option<Vec<u8>> {
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
}

// ---------------------------------------------------------------------------------------------
// Tessera, typed (`Hpke<K, F, A>`) and runtime-agile (`Suite`).

mod tess {
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
            mode: Mode,
            pk_r: &[u8],
            info: &[u8],
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
        fn setup_receiver(
            &self,
            mode: Mode,
            enc: &[u8],
            sk_r: &[u8],
            info: &[u8],
        ) -> Box<dyn Receiver> {
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
        fn seal(
            &self,
            mode: Mode,
            pk_r: &[u8],
            info: &[u8],
            aad: &[u8],
            pt: &[u8],
            rng: &mut ChaCha20Rng,
        ) -> (Vec<u8>, Vec<u8>) {
            let pk_r = K::public_key_from_bytes(pk_r).expect("tessera public_key_from_bytes");
            A::seal_single::<K, F>(mode, &pk_r, info, aad, pt, rng)
        }
        fn open(
            &self,
            mode: Mode,
            enc: &[u8],
            sk_r: &[u8],
            info: &[u8],
            aad: &[u8],
            ct: &[u8],
        ) -> Option<Vec<u8>> {
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
            mode: Mode,
            pk_r: &[u8],
            info: &[u8],
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
        fn setup_receiver(
            &self,
            mode: Mode,
            enc: &[u8],
            sk_r: &[u8],
            info: &[u8],
        ) -> Box<dyn Receiver> {
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
        fn seal(
            &self,
            mode: Mode,
            pk_r: &[u8],
            info: &[u8],
            aad: &[u8],
            pt: &[u8],
            rng: &mut ChaCha20Rng,
        ) -> (Vec<u8>, Vec<u8>) {
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
        fn open(
            &self,
            mode: Mode,
            enc: &[u8],
            sk_r: &[u8],
            info: &[u8],
            aad: &[u8],
            ct: &[u8],
        ) -> Option<Vec<u8>> {
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
}

// ---------------------------------------------------------------------------------------------
// The exchanges.

fn bytes(rng: &mut ChaCha20Rng, max: usize) -> Vec<u8> {
    let len = (rng.next_u32() as usize) % (max + 1);
    let mut v = vec![0u8; len];
    rng.fill_bytes(&mut v);
    v
}

/// An X25519 private key with its clamping applied (some libraries serialize it clamped, some
/// as derived, RFC 9180's vectors unclamped; both are the same scalar); other keys unchanged.
fn x25519_clamped(sk: &[u8], pk: &[u8]) -> Vec<u8> {
    let mut sk = sk.to_vec();
    if sk.len() == 32 && pk.len() == 32 {
        sk[0] &= 248;
        sk[31] &= 127;
        sk[31] |= 64;
    }
    sk
}

/// Which modes a suite is checked in.
#[derive(Clone, Copy)]
enum Modes {
    /// Base and PSK (the KEMs without AuthEncap).
    BasePsk,
    /// All four.
    All,
}

/// `a` sends to `b` on one suite in every mode of `modes`, `cases` times with fresh random
/// inputs: context seal/open of a few messages of random lengths (empty included), exports of
/// both sides compared, single-shot seal/open, and a tampered ciphertext that must not open.
/// Keys are made by the side that owns them and cross as bytes. Returns the exchanges run.
fn exchange(
    a: &dyn Party,
    b: &dyn Party,
    sealing: bool,
    modes: Modes,
    cases: usize,
    rng: &mut ChaCha20Rng,
) -> usize {
    let mut n = 0;
    for case in 0..cases {
        // Alternate who makes the receiver's key pair: the receiver (its own GenerateKeyPair)
        // or the sender (DeriveKeyPair, whose result both must agree on).
        let (sk_r, pk_r) = if case % 2 == 0 {
            b.generate(rng)
        } else {
            let ikm = bytes(rng, 64);
            let ikm = if ikm.len() < 32 {
                vec![ikm.len() as u8; 32]
            } else {
                ikm
            };
            let ka = a.derive(&ikm);
            let kb = b.derive(&ikm);
            assert_eq!(
                ka.1,
                kb.1,
                "{} and {} disagree on DeriveKeyPair (pk)",
                a.name(),
                b.name()
            );
            assert_eq!(
                x25519_clamped(&ka.0, &ka.1),
                x25519_clamped(&kb.0, &kb.1),
                "{} and {} disagree on DeriveKeyPair (sk)",
                a.name(),
                b.name()
            );
            kb
        };
        let (sk_s, pk_s) = a.generate(rng);
        let mut psk = vec![0u8; 32 + (rng.next_u32() % 33) as usize];
        rng.fill_bytes(&mut psk);
        let mut psk_id = bytes(rng, 16);
        if psk_id.is_empty() {
            psk_id.push(0x2a);
        }
        let all = [
            Mode::Base,
            Mode::Psk {
                psk: &psk,
                psk_id: &psk_id,
            },
            Mode::Auth {
                sk_s: &sk_s,
                pk_s: &pk_s,
            },
            Mode::AuthPsk {
                sk_s: &sk_s,
                pk_s: &pk_s,
                psk: &psk,
                psk_id: &psk_id,
            },
        ];
        let modes = match modes {
            Modes::BasePsk => &all[..2],
            Modes::All => &all[..],
        };
        for &mode in modes {
            let what = format!("{} -> {} ({})", a.name(), b.name(), mode.name());
            let info = bytes(rng, 80);
            let (enc, mut s) = a.setup_sender(mode, &pk_r, &info, rng);
            let mut r = b.setup_receiver(mode, &enc, &sk_r, &info);
            if sealing {
                for _ in 0..3 {
                    let aad = bytes(rng, 48);
                    let pt = bytes(rng, 300);
                    let ct = s.seal(&aad, &pt);
                    assert_eq!(ct.len(), pt.len() + 16, "{what}: ciphertext length");
                    assert_eq!(
                        r.open(&aad, &ct).as_deref(),
                        Some(&pt[..]),
                        "{what}: context open"
                    );
                }
                let aad = bytes(rng, 48);
                let pt = bytes(rng, 64);
                let mut ct = s.seal(&aad, &pt);
                let i = (rng.next_u32() as usize) % ct.len();
                ct[i] ^= 1 << (rng.next_u32() % 8);
                assert_eq!(
                    r.open(&aad, &ct),
                    None,
                    "{what}: a tampered ciphertext opened"
                );
            }
            for _ in 0..2 {
                let ctx = bytes(rng, 40);
                let len = 1 + (rng.next_u32() % 96) as usize;
                let e = s.export(&ctx, len);
                assert_eq!(e.len(), len, "{what}: export length");
                assert_eq!(e, r.export(&ctx, len), "{what}: exports differ");
            }
            if sealing {
                let info = bytes(rng, 80);
                let aad = bytes(rng, 48);
                let pt = bytes(rng, 300);
                let (enc, ct) = a.seal(mode, &pk_r, &info, &aad, &pt, rng);
                assert_eq!(
                    b.open(mode, &enc, &sk_r, &info, &aad, &ct).as_deref(),
                    Some(&pt[..]),
                    "{what}: single-shot open"
                );
                let mut bad = aad.clone();
                bad.push(0);
                assert_eq!(
                    b.open(mode, &enc, &sk_r, &info, &bad, &ct),
                    None,
                    "{what}: wrong aad opened"
                );
            }
            n += 1;
        }
    }
    n
}

/// Both directions.
fn both(
    a: &dyn Party,
    b: &dyn Party,
    sealing: bool,
    modes: Modes,
    cases: usize,
    rng: &mut ChaCha20Rng,
) -> usize {
    exchange(a, b, sealing, modes, cases, rng) + exchange(b, a, sealing, modes, cases, rng)
}

// ---------------------------------------------------------------------------------------------
// Parties by codepoints.

const X25519: u16 = 0x0020;
const MLKEM512: u16 = 0x0040;
const MLKEM768: u16 = 0x0041;
const MLKEM1024: u16 = 0x0042;
const XWING: u16 = 0x647a;
const EXPORT_ONLY: u16 = 0xffff;

/// Every (KDF, AEAD) pair of RFC 9180: DHKEM(X25519) runs all of them.
const ALL_SUITES: [(u16, u16); 12] = [
    (1, 1),
    (1, 2),
    (1, 3),
    (1, EXPORT_ONLY),
    (2, 1),
    (2, 2),
    (2, 3),
    (2, EXPORT_ONLY),
    (3, 1),
    (3, 2),
    (3, 3),
    (3, EXPORT_ONLY),
];
/// The PQ KEMs (slower: fewer suites): each HKDF and each AEAD at least once.
const PQ_SUITES: [(u16, u16); 4] = [(1, 3), (2, 2), (3, 1), (1, EXPORT_ONLY)];
/// The one-stage KDFs of draft-ietf-hpke-hpke (SHAKE128, SHAKE256, TurboSHAKE128,
/// TurboSHAKE256), each with a sealing AEAD: rust-hpke has all four, but rust-hpke 0.15.1
/// panics (a slice out of range in its one-stage key schedule) with any of them and the
/// export-only AEAD, so that pair is not run with it.
const ONE_STAGE_SUITES: [(u16, u16); 4] = [(0x10, 3), (0x11, 2), (0x12, 1), (0x13, 3)];
/// hpke-rs on libcrux has SHAKE128 and SHAKE256 only.
const SHAKE_SUITES: [(u16, u16); 3] = [(0x10, 3), (0x11, 1), (0x11, EXPORT_ONLY)];

/// `$ctor::<K, F, A>()` for the types whose codepoints are `(kem, kdf, aead)`.
macro_rules! by_ids {
    ($ctor:ident, $ids:expr, kems [$($kid:expr => $k:ty),* $(,)?], kdfs $kdfs:tt, aeads $aeads:tt) => {{
        let (kem, kdf, aead): (u16, u16, u16) = $ids;
        match kem {
            $(x if x == $kid => by_ids!(@kdf $ctor, $k, kdf, aead, $kdfs, $aeads),)*
            x => panic!("{} has no KEM {x:#06x}", stringify!($ctor)),
        }
    }};
    (@kdf $ctor:ident, $k:ty, $kdf:ident, $aead:ident, [$($fid:expr => $f:ty),* $(,)?], $aeads:tt) => {
        match $kdf {
            $(x if x == $fid => by_ids!(@aead $ctor, $k, $f, $aead, $aeads),)*
            x => panic!("{} has no KDF {x:#06x}", stringify!($ctor)),
        }
    };
    (@aead $ctor:ident, $k:ty, $f:ty, $aead:ident, [$($aid:expr => $a:ty),* $(,)?]) => {
        match $aead {
            $(x if x == $aid => $ctor::<$k, $f, $a>(),)*
            x => panic!("{} has no AEAD {x:#06x}", stringify!($ctor)),
        }
    };
}

fn tessera_typed(kem: u16, kdf: u16, aead: u16) -> Box<dyn Party> {
    use tess::typed;
    use tessera::hpke as t;
    by_ids!(typed, (kem, kdf, aead),
        kems [X25519 => t::DhKemX25519HkdfSha256, MLKEM512 => t::MlKem512,
              MLKEM768 => t::MlKem768, MLKEM1024 => t::MlKem1024, XWING => t::XWing],
        kdfs [1 => t::HkdfSha256, 2 => t::HkdfSha384, 3 => t::HkdfSha512,
              0x10 => t::Shake128, 0x11 => t::Shake256,
              0x12 => t::TurboShake128, 0x13 => t::TurboShake256],
        aeads [1 => t::Aes128Gcm, 2 => t::Aes256Gcm, 3 => t::ChaCha20Poly1305,
               EXPORT_ONLY => t::ExportOnly])
}

fn hpke_ng(kem: u16, kdf: u16, aead: u16) -> Box<dyn Party> {
    use hpke_ng as g;
    use ng::party;
    by_ids!(party, (kem, kdf, aead),
        kems [X25519 => g::DhKemX25519HkdfSha256, MLKEM768 => g::MlKem768,
              MLKEM1024 => g::MlKem1024, XWING => g::XWingDraft06],
        kdfs [1 => g::HkdfSha256, 2 => g::HkdfSha384, 3 => g::HkdfSha512],
        aeads [1 => g::Aes128Gcm, 2 => g::Aes256Gcm, 3 => g::ChaCha20Poly1305,
               EXPORT_ONLY => g::ExportOnly])
}

fn rust_hpke(kem: u16, kdf: u16, aead: u16) -> Box<dyn Party> {
    use hpke::{aead as a, kdf as f, kem as k};
    use rh::party;
    by_ids!(party, (kem, kdf, aead),
        kems [X25519 => k::X25519HkdfSha256, MLKEM768 => k::MlKem768,
              MLKEM1024 => k::MlKem1024, XWING => k::XWing],
        kdfs [1 => f::HkdfSha256, 2 => f::HkdfSha384, 3 => f::HkdfSha512,
              0x10 => f::KdfShake128, 0x11 => f::KdfShake256,
              0x12 => f::KdfTurboShake128, 0x13 => f::KdfTurboShake256],
        aeads [1 => a::AesGcm128, 2 => a::AesGcm256, 3 => a::ChaCha20Poly1305,
               EXPORT_ONLY => a::ExportOnlyAead])
}

fn hpke_rs_libcrux(kem: u16, kdf: u16, aead: u16) -> Box<dyn Party> {
    hrs::party(hrs::Provider::Libcrux, kem, kdf, aead)
}

fn hpke_rs_rustcrypto(kem: u16, kdf: u16, aead: u16) -> Box<dyn Party> {
    hrs::party(hrs::Provider::RustCrypto, kem, kdf, aead)
}

/// Tessera (typed and agile) against `peer` on `kem` with each of `suites`, both directions,
/// `cases` key pairs per suite and mode.
fn against(
    peer: fn(u16, u16, u16) -> Box<dyn Party>,
    kem: u16,
    suites: &[(u16, u16)],
    cases: usize,
) {
    let mut seed = [0x42u8; 32];
    seed[..2].copy_from_slice(&kem.to_be_bytes());
    let mut rng = ChaCha20Rng::from_seed(seed);
    let modes = if kem == X25519 {
        Modes::All
    } else {
        Modes::BasePsk
    };
    let mut n = 0;
    for &(kdf, aead) in suites {
        let sealing = aead != EXPORT_ONLY;
        let p = peer(kem, kdf, aead);
        let t = tessera_typed(kem, kdf, aead);
        let g = tess::agile(kem, kdf, aead);
        n += both(&*t, &*p, sealing, modes, cases, &mut rng);
        n += both(&*g, &*p, sealing, modes, cases, &mut rng);
    }
    let per_suite = cases * 4 * if kem == X25519 { 4 } else { 2 };
    assert_eq!(n, suites.len() * per_suite, "exchanges run");
}

macro_rules! interop_tests {
    ($($name:ident: $peer:ident, $kem:ident, $suites:expr, $cases:expr;)*) => {$(
        #[test]
        fn $name() {
            against($peer, $kem, &$suites, $cases);
        }
    )*};
}

interop_tests! {
    hpke_ng_x25519: hpke_ng, X25519, ALL_SUITES, 4;
    hpke_ng_mlkem768: hpke_ng, MLKEM768, PQ_SUITES, 3;
    hpke_ng_mlkem1024: hpke_ng, MLKEM1024, PQ_SUITES, 3;
    hpke_ng_xwing: hpke_ng, XWING, PQ_SUITES, 3;
    rust_hpke_x25519: rust_hpke, X25519, ALL_SUITES, 4;
    rust_hpke_mlkem768: rust_hpke, MLKEM768, PQ_SUITES, 3;
    rust_hpke_mlkem1024: rust_hpke, MLKEM1024, PQ_SUITES, 3;
    rust_hpke_xwing: rust_hpke, XWING, PQ_SUITES, 3;
    hpke_rs_libcrux_x25519: hpke_rs_libcrux, X25519, ALL_SUITES, 4;
    hpke_rs_libcrux_mlkem512: hpke_rs_libcrux, MLKEM512, PQ_SUITES, 3;
    hpke_rs_libcrux_mlkem768: hpke_rs_libcrux, MLKEM768, PQ_SUITES, 3;
    hpke_rs_libcrux_mlkem1024: hpke_rs_libcrux, MLKEM1024, PQ_SUITES, 3;
    hpke_rs_libcrux_xwing: hpke_rs_libcrux, XWING, PQ_SUITES, 3;
    hpke_rs_rustcrypto_x25519: hpke_rs_rustcrypto, X25519, ALL_SUITES, 4;
    hpke_rs_rustcrypto_mlkem768: hpke_rs_rustcrypto, MLKEM768, PQ_SUITES, 3;
    hpke_rs_rustcrypto_mlkem1024: hpke_rs_rustcrypto, MLKEM1024, PQ_SUITES, 3;
    hpke_rs_rustcrypto_xwing: hpke_rs_rustcrypto, XWING, PQ_SUITES, 3;
    rust_hpke_one_stage_x25519: rust_hpke, X25519, ONE_STAGE_SUITES, 3;
    rust_hpke_one_stage_mlkem768: rust_hpke, MLKEM768, ONE_STAGE_SUITES, 2;
    rust_hpke_one_stage_mlkem1024: rust_hpke, MLKEM1024, ONE_STAGE_SUITES, 2;
    rust_hpke_one_stage_xwing: rust_hpke, XWING, ONE_STAGE_SUITES, 2;
    hpke_rs_libcrux_shake_x25519: hpke_rs_libcrux, X25519, SHAKE_SUITES, 3;
    hpke_rs_libcrux_shake_mlkem512: hpke_rs_libcrux, MLKEM512, SHAKE_SUITES, 2;
    hpke_rs_libcrux_shake_mlkem768: hpke_rs_libcrux, MLKEM768, SHAKE_SUITES, 2;
    hpke_rs_libcrux_shake_xwing: hpke_rs_libcrux, XWING, SHAKE_SUITES, 2;
}

/// The checks can fail: a receiver given another `info` than the sender's must neither open
/// the sender's messages nor export the same secrets (with every peer as the receiver).
#[test]
fn mismatched_info_is_caught() {
    let mut rng = ChaCha20Rng::from_seed([0x42; 32]);
    let t = tessera_typed(X25519, 1, 3);
    for peer in [hpke_ng, rust_hpke, hpke_rs_libcrux, hpke_rs_rustcrypto] {
        let p = peer(X25519, 1, 3);
        for (a, b) in [(&t, &p), (&p, &t)] {
            let (sk, pk) = b.generate(&mut rng);
            let (enc, mut s) = a.setup_sender(Mode::Base, &pk, b"info", &mut rng);
            let mut r = b.setup_receiver(Mode::Base, &enc, &sk, b"inf0");
            let ct = s.seal(b"", b"message");
            assert_eq!(r.open(b"", &ct), None, "{} -> {}", a.name(), b.name());
            assert_ne!(
                s.export(b"", 32),
                r.export(b"", 32),
                "{} -> {}",
                a.name(),
                b.name()
            );
        }
    }
}
