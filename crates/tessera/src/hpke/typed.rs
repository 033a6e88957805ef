//! The typed API: `Hpke<K, F, A>` over zero-sized suite types, and the setup core the
//! runtime-agile API shares.

use core::marker::PhantomData;

#[cfg(feature = "alloc")]
use super::SealingAead;
use super::context::{Ctx, ReceiverContext, SenderContext};
use super::kdf::combine_secrets;
use super::kem::SharedSecret;
use super::{Aead, AuthKem, Error, Ids, Kdf, Kem, Mode, verify_inputs};

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// `KeySchedule<ROLE>(mode, shared_secret, info, psk, psk_id)` (inputs already verified).
pub(crate) fn schedule(
    ids: Ids,
    mode: Mode,
    ss: &SharedSecret,
    info: &[u8],
    psk: &[u8],
    psk_id: &[u8],
) -> Result<Ctx, Error> {
    let suite_id = ids.suite_id();
    let s = combine_secrets(
        ids.kdf,
        &suite_id,
        mode as u8,
        ss.as_bytes(),
        info,
        psk,
        psk_id,
        ids.aead.nk(),
        ids.aead.nn(),
    )?;
    Ok(Ctx::new(ids, &s))
}

/// `Setup<MODE>S`: input checks, then the (auth) encapsulation, then the key schedule.
pub(crate) fn setup_sender<E>(
    ids: Ids,
    mode: Mode,
    info: &[u8],
    psk: &[u8],
    psk_id: &[u8],
    encap: impl FnOnce() -> Result<(SharedSecret, E), Error>,
) -> Result<(E, Ctx), Error> {
    verify_inputs(ids, mode, info, psk, psk_id)?;
    let (ss, enc) = encap()?;
    Ok((enc, schedule(ids, mode, &ss, info, psk, psk_id)?))
}

/// `Setup<MODE>R`: input checks, then the (auth) decapsulation, then the key schedule.
pub(crate) fn setup_receiver(
    ids: Ids,
    mode: Mode,
    info: &[u8],
    psk: &[u8],
    psk_id: &[u8],
    decap: impl FnOnce() -> Result<SharedSecret, Error>,
) -> Result<Ctx, Error> {
    verify_inputs(ids, mode, info, psk, psk_id)?;
    let ss = decap()?;
    schedule(ids, mode, &ss, info, psk, psk_id)
}

/// A typed HPKE suite: KEM `K`, KDF `F`, AEAD `A`, all zero-sized. Every operation is an
/// associated function; see the [module documentation](super) for an example.
///
/// Keys are `K::PublicKey` / `K::PrivateKey`; `enc` comes back as `K::EncappedKey` (an
/// array) and goes in as bytes. The Auth and AuthPSK modes exist only for an [`AuthKem`]:
///
/// ```compile_fail
/// use tessera::hpke::{Aes128Gcm, HkdfSha256, Hpke, Kem, MlKem768};
/// # use rand::SeedableRng;
/// let mut rng = rand::rngs::StdRng::from_seed([1; 32]);
/// let (sk, pk) = MlKem768::generate_key_pair(&mut rng);
/// // ML-KEM has no AuthEncap: this does not compile.
/// Hpke::<MlKem768, HkdfSha256, Aes128Gcm>::setup_sender_auth(&pk, b"", &sk, &mut rng);
/// ```
///
/// and an export-only context has no `seal`:
///
/// ```compile_fail
/// use tessera::hpke::{DhKemX25519HkdfSha256, ExportOnly, HkdfSha256, Hpke, Kem};
/// # use rand::SeedableRng;
/// let mut rng = rand::rngs::StdRng::from_seed([1; 32]);
/// let (_, pk) = DhKemX25519HkdfSha256::generate_key_pair(&mut rng);
/// let (_, mut ctx) = Hpke::<DhKemX25519HkdfSha256, HkdfSha256, ExportOnly>::setup_sender_base(&pk, b"", &mut rng).unwrap();
/// ctx.seal(b"", b"no AEAD here");
/// ```
pub struct Hpke<K, F, A>(PhantomData<(K, F, A)>);

impl<K: Kem, F: Kdf, A: Aead> Hpke<K, F, A> {
    const IDS: Ids = Ids {
        kem: K::ID,
        kdf: F::ID,
        aead: A::ID,
    };

    fn sender(
        mode: Mode,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        encap: impl FnOnce() -> Result<(SharedSecret, K::EncappedKey), Error>,
    ) -> Result<(K::EncappedKey, SenderContext<A>), Error> {
        let (enc, ctx) = setup_sender(Self::IDS, mode, info, psk, psk_id, encap)?;
        Ok((
            enc,
            SenderContext {
                ctx,
                _aead: PhantomData,
            },
        ))
    }

    fn receiver(
        mode: Mode,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        decap: impl FnOnce() -> Result<SharedSecret, Error>,
    ) -> Result<ReceiverContext<A>, Error> {
        let ctx = setup_receiver(Self::IDS, mode, info, psk, psk_id, decap)?;
        Ok(ReceiverContext {
            ctx,
            _aead: PhantomData,
        })
    }

    /// `SetupBaseS(pkR, info)`.
    pub fn setup_sender_base(
        pk_r: &K::PublicKey,
        info: &[u8],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(K::EncappedKey, SenderContext<A>), Error> {
        Self::sender(Mode::Base, info, &[], &[], || K::encap(pk_r, rng))
    }

    /// `SetupBaseS` with the encapsulation made deterministic by `ikm_e`: test vectors only,
    /// in test builds (`--cfg tessera_test_hooks`). A repeated `ikm_e` repeats the AEAD key
    /// and nonce.
    #[cfg(tessera_test_hooks)]
    #[doc(hidden)]
    pub fn setup_sender_base_derand(
        pk_r: &K::PublicKey,
        info: &[u8],
        ikm_e: &[u8],
    ) -> Result<(K::EncappedKey, SenderContext<A>), Error> {
        Self::sender(Mode::Base, info, &[], &[], || K::encap_derand(pk_r, ikm_e))
    }

    /// `SetupBaseR(enc, skR, info)`.
    pub fn setup_receiver_base(
        enc: &[u8],
        sk_r: &K::PrivateKey,
        info: &[u8],
    ) -> Result<ReceiverContext<A>, Error> {
        Self::receiver(Mode::Base, info, &[], &[], || K::decap(enc, sk_r))
    }

    /// `SetupPSKS(pkR, info, psk, psk_id)`: `psk` at least 32 bytes, `psk_id` not empty.
    pub fn setup_sender_psk(
        pk_r: &K::PublicKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(K::EncappedKey, SenderContext<A>), Error> {
        Self::sender(Mode::Psk, info, psk, psk_id, || K::encap(pk_r, rng))
    }

    /// `SetupPSKS`, deterministic by `ikm_e`.
    #[cfg(tessera_test_hooks)]
    #[doc(hidden)]
    pub fn setup_sender_psk_derand(
        pk_r: &K::PublicKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        ikm_e: &[u8],
    ) -> Result<(K::EncappedKey, SenderContext<A>), Error> {
        Self::sender(Mode::Psk, info, psk, psk_id, || {
            K::encap_derand(pk_r, ikm_e)
        })
    }

    /// `SetupPSKR(enc, skR, info, psk, psk_id)`.
    pub fn setup_receiver_psk(
        enc: &[u8],
        sk_r: &K::PrivateKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
    ) -> Result<ReceiverContext<A>, Error> {
        Self::receiver(Mode::Psk, info, psk, psk_id, || K::decap(enc, sk_r))
    }

    /// `SendExportBase`: sets up a sender context and exports `out.len()` bytes from it.
    pub fn send_export_base(
        pk_r: &K::PublicKey,
        info: &[u8],
        exporter_context: &[u8],
        out: &mut [u8],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<K::EncappedKey, Error> {
        let (enc, ctx) = Self::setup_sender_base(pk_r, info, rng)?;
        ctx.export(exporter_context, out)?;
        Ok(enc)
    }

    /// `ReceiveExportBase`.
    pub fn receive_export_base(
        enc: &[u8],
        sk_r: &K::PrivateKey,
        info: &[u8],
        exporter_context: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        Self::setup_receiver_base(enc, sk_r, info)?.export(exporter_context, out)
    }

    /// `SendExportPSK`.
    pub fn send_export_psk(
        pk_r: &K::PublicKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        exporter_context: &[u8],
        out: &mut [u8],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<K::EncappedKey, Error> {
        let (enc, ctx) = Self::setup_sender_psk(pk_r, info, psk, psk_id, rng)?;
        ctx.export(exporter_context, out)?;
        Ok(enc)
    }

    /// `ReceiveExportPSK`.
    pub fn receive_export_psk(
        enc: &[u8],
        sk_r: &K::PrivateKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        exporter_context: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        Self::setup_receiver_psk(enc, sk_r, info, psk, psk_id)?.export(exporter_context, out)
    }
}

impl<K: AuthKem, F: Kdf, A: Aead> Hpke<K, F, A> {
    /// `SetupAuthS(pkR, info, skS)`.
    pub fn setup_sender_auth(
        pk_r: &K::PublicKey,
        info: &[u8],
        sk_s: &K::PrivateKey,
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(K::EncappedKey, SenderContext<A>), Error> {
        Self::sender(Mode::Auth, info, &[], &[], || {
            K::auth_encap(pk_r, sk_s, rng)
        })
    }

    /// `SetupAuthS`, deterministic by `ikm_e`.
    #[cfg(tessera_test_hooks)]
    #[doc(hidden)]
    pub fn setup_sender_auth_derand(
        pk_r: &K::PublicKey,
        info: &[u8],
        sk_s: &K::PrivateKey,
        ikm_e: &[u8],
    ) -> Result<(K::EncappedKey, SenderContext<A>), Error> {
        Self::sender(Mode::Auth, info, &[], &[], || {
            K::auth_encap_derand(pk_r, sk_s, ikm_e)
        })
    }

    /// `SetupAuthR(enc, skR, info, pkS)`.
    pub fn setup_receiver_auth(
        enc: &[u8],
        sk_r: &K::PrivateKey,
        info: &[u8],
        pk_s: &K::PublicKey,
    ) -> Result<ReceiverContext<A>, Error> {
        Self::receiver(Mode::Auth, info, &[], &[], || {
            K::auth_decap(enc, sk_r, pk_s)
        })
    }

    /// `SetupAuthPSKS(pkR, info, psk, psk_id, skS)`.
    pub fn setup_sender_auth_psk(
        pk_r: &K::PublicKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        sk_s: &K::PrivateKey,
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(K::EncappedKey, SenderContext<A>), Error> {
        Self::sender(Mode::AuthPsk, info, psk, psk_id, || {
            K::auth_encap(pk_r, sk_s, rng)
        })
    }

    /// `SetupAuthPSKS`, deterministic by `ikm_e`.
    #[cfg(tessera_test_hooks)]
    #[doc(hidden)]
    pub fn setup_sender_auth_psk_derand(
        pk_r: &K::PublicKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        sk_s: &K::PrivateKey,
        ikm_e: &[u8],
    ) -> Result<(K::EncappedKey, SenderContext<A>), Error> {
        Self::sender(Mode::AuthPsk, info, psk, psk_id, || {
            K::auth_encap_derand(pk_r, sk_s, ikm_e)
        })
    }

    /// `SetupAuthPSKR(enc, skR, info, psk, psk_id, pkS)`.
    pub fn setup_receiver_auth_psk(
        enc: &[u8],
        sk_r: &K::PrivateKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        pk_s: &K::PublicKey,
    ) -> Result<ReceiverContext<A>, Error> {
        Self::receiver(Mode::AuthPsk, info, psk, psk_id, || {
            K::auth_decap(enc, sk_r, pk_s)
        })
    }

    /// `SendExportAuth`.
    pub fn send_export_auth(
        pk_r: &K::PublicKey,
        info: &[u8],
        sk_s: &K::PrivateKey,
        exporter_context: &[u8],
        out: &mut [u8],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<K::EncappedKey, Error> {
        let (enc, ctx) = Self::setup_sender_auth(pk_r, info, sk_s, rng)?;
        ctx.export(exporter_context, out)?;
        Ok(enc)
    }

    /// `ReceiveExportAuth`.
    pub fn receive_export_auth(
        enc: &[u8],
        sk_r: &K::PrivateKey,
        info: &[u8],
        pk_s: &K::PublicKey,
        exporter_context: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        Self::setup_receiver_auth(enc, sk_r, info, pk_s)?.export(exporter_context, out)
    }

    /// `SendExportAuthPSK`.
    #[allow(clippy::too_many_arguments)]
    pub fn send_export_auth_psk(
        pk_r: &K::PublicKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        sk_s: &K::PrivateKey,
        exporter_context: &[u8],
        out: &mut [u8],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<K::EncappedKey, Error> {
        let (enc, ctx) = Self::setup_sender_auth_psk(pk_r, info, psk, psk_id, sk_s, rng)?;
        ctx.export(exporter_context, out)?;
        Ok(enc)
    }

    /// `ReceiveExportAuthPSK`.
    #[allow(clippy::too_many_arguments)]
    pub fn receive_export_auth_psk(
        enc: &[u8],
        sk_r: &K::PrivateKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        pk_s: &K::PublicKey,
        exporter_context: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        Self::setup_receiver_auth_psk(enc, sk_r, info, psk, psk_id, pk_s)?
            .export(exporter_context, out)
    }
}

#[cfg(feature = "alloc")]
impl<K: Kem, F: Kdf, A: SealingAead> Hpke<K, F, A> {
    /// `SealBase(pkR, info, aad, pt)`: `(enc, ciphertext || tag)`.
    pub fn seal_base(
        pk_r: &K::PublicKey,
        info: &[u8],
        aad: &[u8],
        pt: &[u8],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(K::EncappedKey, Vec<u8>), Error> {
        let (enc, mut ctx) = Self::setup_sender_base(pk_r, info, rng)?;
        Ok((enc, ctx.seal(aad, pt)?))
    }

    /// `OpenBase(enc, skR, info, aad, ct)`.
    pub fn open_base(
        enc: &[u8],
        sk_r: &K::PrivateKey,
        info: &[u8],
        aad: &[u8],
        ct: &[u8],
    ) -> Result<Vec<u8>, Error> {
        Self::setup_receiver_base(enc, sk_r, info)?.open(aad, ct)
    }

    /// `SealPSK(pkR, info, aad, pt, psk, psk_id)`.
    pub fn seal_psk(
        pk_r: &K::PublicKey,
        info: &[u8],
        aad: &[u8],
        pt: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(K::EncappedKey, Vec<u8>), Error> {
        let (enc, mut ctx) = Self::setup_sender_psk(pk_r, info, psk, psk_id, rng)?;
        Ok((enc, ctx.seal(aad, pt)?))
    }

    /// `OpenPSK(enc, skR, info, aad, ct, psk, psk_id)`.
    pub fn open_psk(
        enc: &[u8],
        sk_r: &K::PrivateKey,
        info: &[u8],
        aad: &[u8],
        ct: &[u8],
        psk: &[u8],
        psk_id: &[u8],
    ) -> Result<Vec<u8>, Error> {
        Self::setup_receiver_psk(enc, sk_r, info, psk, psk_id)?.open(aad, ct)
    }
}

#[cfg(feature = "alloc")]
impl<K: AuthKem, F: Kdf, A: SealingAead> Hpke<K, F, A> {
    /// `SealAuth(pkR, info, aad, pt, skS)`.
    pub fn seal_auth(
        pk_r: &K::PublicKey,
        info: &[u8],
        aad: &[u8],
        pt: &[u8],
        sk_s: &K::PrivateKey,
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(K::EncappedKey, Vec<u8>), Error> {
        let (enc, mut ctx) = Self::setup_sender_auth(pk_r, info, sk_s, rng)?;
        Ok((enc, ctx.seal(aad, pt)?))
    }

    /// `OpenAuth(enc, skR, info, aad, ct, pkS)`.
    pub fn open_auth(
        enc: &[u8],
        sk_r: &K::PrivateKey,
        info: &[u8],
        aad: &[u8],
        ct: &[u8],
        pk_s: &K::PublicKey,
    ) -> Result<Vec<u8>, Error> {
        Self::setup_receiver_auth(enc, sk_r, info, pk_s)?.open(aad, ct)
    }

    /// `SealAuthPSK(pkR, info, aad, pt, psk, psk_id, skS)`.
    #[allow(clippy::too_many_arguments)]
    pub fn seal_auth_psk(
        pk_r: &K::PublicKey,
        info: &[u8],
        aad: &[u8],
        pt: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        sk_s: &K::PrivateKey,
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(K::EncappedKey, Vec<u8>), Error> {
        let (enc, mut ctx) = Self::setup_sender_auth_psk(pk_r, info, psk, psk_id, sk_s, rng)?;
        Ok((enc, ctx.seal(aad, pt)?))
    }

    /// `OpenAuthPSK(enc, skR, info, aad, ct, psk, psk_id, pkS)`.
    #[allow(clippy::too_many_arguments)]
    pub fn open_auth_psk(
        enc: &[u8],
        sk_r: &K::PrivateKey,
        info: &[u8],
        aad: &[u8],
        ct: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        pk_s: &K::PublicKey,
    ) -> Result<Vec<u8>, Error> {
        Self::setup_receiver_auth_psk(enc, sk_r, info, psk, psk_id, pk_s)?.open(aad, ct)
    }
}
