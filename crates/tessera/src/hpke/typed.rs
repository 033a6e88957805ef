//! The typed API: `Hpke<K, F, A>` over zero-sized suite types, and the setup core the
//! runtime-agile API shares (the key schedule, the setup order, the encapsulation sources).
//! Every mode function is generated from the mode rows of `modes!` by `typed_mode!`.

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

/// Where an encapsulation's randomness comes from: an RNG, or (test builds only) the `ikmE`
/// of the deterministic form.
pub(crate) trait EncapSource {
    /// `Encap(pkR)`.
    fn encap<K: Kem>(self, pk: &K::PublicKey) -> Result<(SharedSecret, K::EncappedKey), Error>;
    /// `AuthEncap(pkR, skS)`.
    fn auth_encap<K: AuthKem>(
        self,
        pk: &K::PublicKey,
        sk_s: &K::PrivateKey,
    ) -> Result<(SharedSecret, K::EncappedKey), Error>;
}

/// Fresh randomness from an RNG.
pub(crate) struct FromRng<'a, R>(pub(crate) &'a mut R);

impl<R: rand_core::CryptoRng> EncapSource for FromRng<'_, R> {
    fn encap<K: Kem>(self, pk: &K::PublicKey) -> Result<(SharedSecret, K::EncappedKey), Error> {
        K::encap(pk, self.0)
    }
    fn auth_encap<K: AuthKem>(
        self,
        pk: &K::PublicKey,
        sk_s: &K::PrivateKey,
    ) -> Result<(SharedSecret, K::EncappedKey), Error> {
        K::auth_encap(pk, sk_s, self.0)
    }
}

/// `ikmE` of the deterministic form (test builds only).
#[cfg(tessera_test_hooks)]
pub(crate) struct FromIkm<'a>(pub(crate) &'a [u8]);

#[cfg(tessera_test_hooks)]
impl EncapSource for FromIkm<'_> {
    fn encap<K: Kem>(self, pk: &K::PublicKey) -> Result<(SharedSecret, K::EncappedKey), Error> {
        K::encap_derand(pk, self.0)
    }
    fn auth_encap<K: AuthKem>(
        self,
        pk: &K::PublicKey,
        sk_s: &K::PrivateKey,
    ) -> Result<(SharedSecret, K::EncappedKey), Error> {
        K::auth_encap_derand(pk, sk_s, self.0)
    }
}

/// `Encap` (no sender key) or `AuthEncap` (a sender key) of `K` from a source.
macro_rules! encap_from {
    ($src:expr, $pk:ident) => {
        $src.encap::<K>($pk)
    };
    ($src:expr, $pk:ident, $sk_s:ident) => {
        $src.auth_encap::<K>($pk, $sk_s)
    };
}

/// `Decap` (no sender key) or `AuthDecap` (a sender key) of `K`.
macro_rules! decap_of {
    ($enc:ident, $sk_r:ident) => {
        K::decap($enc, $sk_r)
    };
    ($enc:ident, $sk_r:ident, $pk_s:ident) => {
        K::auth_decap($enc, $sk_r, $pk_s)
    };
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
        (psk, psk_id): (&[u8], &[u8]),
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
        (psk, psk_id): (&[u8], &[u8]),
        decap: impl FnOnce() -> Result<SharedSecret, Error>,
    ) -> Result<ReceiverContext<A>, Error> {
        let ctx = setup_receiver(Self::IDS, mode, info, psk, psk_id, decap)?;
        Ok(ReceiverContext {
            ctx,
            _aead: PhantomData,
        })
    }
}

/// The typed functions of one mode row of `modes!`: an impl block bounded by the row's KEM
/// bound (the Auth modes need an [`AuthKem`]), and one bounded by [`SealingAead`] for `seal` /
/// `open`.
macro_rules! typed_mode {
    ($mode:ident, $bound:ident, $rfc:literal, [$($psk:ident $psk_id:ident)?], [$($sk_s:ident)?],
     [$($pk_s:ident)?], $setup_s:ident, $setup_s_derand:ident, $setup_r:ident, $seal:ident,
     $open:ident, $send_export:ident, $receive_export:ident) => {
        impl<K: $bound, F: Kdf, A: Aead> Hpke<K, F, A> {
            #[doc = concat!("`Setup", $rfc, "S`: the encapsulated key and the sender's context.")]
            #[allow(clippy::too_many_arguments)]
            pub fn $setup_s(
                pk_r: &K::PublicKey,
                info: &[u8],
                $($psk: &[u8], $psk_id: &[u8],)?
                $($sk_s: &K::PrivateKey,)?
                rng: &mut impl rand_core::CryptoRng,
            ) -> Result<(K::EncappedKey, SenderContext<A>), Error> {
                Self::sender(Mode::$mode, info, psk_pair!($($psk $psk_id)?), || {
                    encap_from!(FromRng(rng), pk_r $(, $sk_s)?)
                })
            }

            #[doc = concat!("`Setup", $rfc, "S` with the encapsulation made deterministic by `ikm_e`: test vectors only, in test builds (`--cfg tessera_test_hooks`). A repeated `ikm_e` repeats the AEAD key and nonce.")]
            #[cfg(tessera_test_hooks)]
            #[doc(hidden)]
            #[allow(clippy::too_many_arguments)]
            pub fn $setup_s_derand(
                pk_r: &K::PublicKey,
                info: &[u8],
                $($psk: &[u8], $psk_id: &[u8],)?
                $($sk_s: &K::PrivateKey,)?
                ikm_e: &[u8],
            ) -> Result<(K::EncappedKey, SenderContext<A>), Error> {
                Self::sender(Mode::$mode, info, psk_pair!($($psk $psk_id)?), || {
                    encap_from!(FromIkm(ikm_e), pk_r $(, $sk_s)?)
                })
            }

            #[doc = concat!("`Setup", $rfc, "R`: the recipient's context.")]
            #[allow(clippy::too_many_arguments)]
            pub fn $setup_r(
                enc: &[u8],
                sk_r: &K::PrivateKey,
                info: &[u8],
                $($psk: &[u8], $psk_id: &[u8],)?
                $($pk_s: &K::PublicKey,)?
            ) -> Result<ReceiverContext<A>, Error> {
                Self::receiver(Mode::$mode, info, psk_pair!($($psk $psk_id)?), || {
                    decap_of!(enc, sk_r $(, $pk_s)?)
                })
            }

            #[doc = concat!("`SendExport", $rfc, "`: sets up a sender context and exports `out.len()` bytes from it.")]
            #[allow(clippy::too_many_arguments)]
            pub fn $send_export(
                pk_r: &K::PublicKey,
                info: &[u8],
                $($psk: &[u8], $psk_id: &[u8],)?
                $($sk_s: &K::PrivateKey,)?
                exporter_context: &[u8],
                out: &mut [u8],
                rng: &mut impl rand_core::CryptoRng,
            ) -> Result<K::EncappedKey, Error> {
                let (enc, ctx) = Self::$setup_s(pk_r, info, $($psk, $psk_id,)? $($sk_s,)? rng)?;
                ctx.export(exporter_context, out)?;
                Ok(enc)
            }

            #[doc = concat!("`ReceiveExport", $rfc, "`.")]
            #[allow(clippy::too_many_arguments)]
            pub fn $receive_export(
                enc: &[u8],
                sk_r: &K::PrivateKey,
                info: &[u8],
                $($psk: &[u8], $psk_id: &[u8],)?
                $($pk_s: &K::PublicKey,)?
                exporter_context: &[u8],
                out: &mut [u8],
            ) -> Result<(), Error> {
                Self::$setup_r(enc, sk_r, info, $($psk, $psk_id,)? $($pk_s,)?)?
                    .export(exporter_context, out)
            }
        }

        #[cfg(feature = "alloc")]
        impl<K: $bound, F: Kdf, A: SealingAead> Hpke<K, F, A> {
            #[doc = concat!("`Seal", $rfc, "`: `(enc, ciphertext || tag)`.")]
            #[allow(clippy::too_many_arguments)]
            pub fn $seal(
                pk_r: &K::PublicKey,
                info: &[u8],
                aad: &[u8],
                pt: &[u8],
                $($psk: &[u8], $psk_id: &[u8],)?
                $($sk_s: &K::PrivateKey,)?
                rng: &mut impl rand_core::CryptoRng,
            ) -> Result<(K::EncappedKey, Vec<u8>), Error> {
                let (enc, mut ctx) = Self::$setup_s(pk_r, info, $($psk, $psk_id,)? $($sk_s,)? rng)?;
                Ok((enc, ctx.seal(aad, pt)?))
            }

            #[doc = concat!("`Open", $rfc, "`.")]
            #[allow(clippy::too_many_arguments)]
            pub fn $open(
                enc: &[u8],
                sk_r: &K::PrivateKey,
                info: &[u8],
                aad: &[u8],
                ct: &[u8],
                $($psk: &[u8], $psk_id: &[u8],)?
                $($pk_s: &K::PublicKey,)?
            ) -> Result<Vec<u8>, Error> {
                Self::$setup_r(enc, sk_r, info, $($psk, $psk_id,)? $($pk_s,)?)?.open(aad, ct)
            }
        }
    };
}

modes!(typed_mode);
