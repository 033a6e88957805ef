//! The runtime-agile API: a [`Suite`] chosen from codepoints, keys that carry their KEM
//! ([`keys`]), and the same operations as the typed API, dispatched once per operation onto
//! the typed KEM code ([`keys::visit`]) and the shared key schedule. Every mode function is
//! generated from the mode rows of `modes!` by `agile_mode!`.

mod keys;

pub use keys::{AgileEncappedKey, AgilePrivateKey, AgilePublicKey};
use keys::{AgileKem, KemVisitor, visit};

use super::context::{AgileReceiverContext, AgileSenderContext};
use super::kem::SharedSecret;
#[cfg(tessera_test_hooks)]
use super::typed::FromIkm;
use super::typed::{EncapSource, FromRng, setup_receiver, setup_sender};
use super::{AeadId, Error, Ids, KdfId, KemId, Mode};

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// `GenerateKeyPair()`: the KEM's own (not every `Nsk`-byte string is a private key: the
/// prime-order curves reject scalars at least the group order).
struct Generate<'a, R>(&'a mut R);

impl<R: rand_core::CryptoRng> KemVisitor for Generate<'_, R> {
    type Out = (AgilePrivateKey, AgilePublicKey);
    fn visit<K: AgileKem>(self) -> Self::Out {
        let (sk, pk) = K::generate_key_pair(self.0);
        K::wrap(sk, pk)
    }
}

/// `DeriveKeyPair(ikm)`.
struct Derive<'a>(&'a [u8]);

impl KemVisitor for Derive<'_> {
    type Out = Result<(AgilePrivateKey, AgilePublicKey), Error>;
    fn visit<K: AgileKem>(self) -> Self::Out {
        let (sk, pk) = K::derive_key_pair(self.0)?;
        Ok(K::wrap(sk, pk))
    }
}

/// `DeserializePublicKey`.
struct PublicFromBytes<'a>(&'a [u8]);

impl KemVisitor for PublicFromBytes<'_> {
    type Out = Result<AgilePublicKey, Error>;
    fn visit<K: AgileKem>(self) -> Self::Out {
        Ok(K::wrap_pk(K::public_key_from_bytes(self.0)?))
    }
}

/// `DeserializePrivateKey`.
struct PrivateFromBytes<'a>(&'a [u8]);

impl KemVisitor for PrivateFromBytes<'_> {
    type Out = Result<AgilePrivateKey, Error>;
    fn visit<K: AgileKem>(self) -> Self::Out {
        let sk = K::private_key_from_bytes(self.0)?;
        let pk = K::public_key(&sk).clone();
        Ok(K::wrap(sk, pk).0)
    }
}

/// `Encap(pkR)` or, with a sender key, `AuthEncap(pkR, skS)`, from `r`.
struct Encap<'a, R> {
    pk_r: &'a AgilePublicKey,
    sk_s: Option<&'a AgilePrivateKey>,
    r: R,
}

impl<R: EncapSource> KemVisitor for Encap<'_, R> {
    type Out = Result<(SharedSecret, AgileEncappedKey), Error>;
    fn visit<K: AgileKem>(self) -> Self::Out {
        match self.sk_s {
            None => {
                let (ss, enc) = self.r.encap::<K>(K::pk(self.pk_r)?)?;
                Ok((ss, AgileEncappedKey::new(enc.as_ref())))
            }
            Some(sk_s) => K::auth_encap_any(self.pk_r, sk_s, self.r),
        }
    }
}

/// `Decap(enc, skR)` or, with a sender key, `AuthDecap(enc, skR, pkS)`.
struct Decap<'a> {
    enc: &'a [u8],
    sk_r: &'a AgilePrivateKey,
    pk_s: Option<&'a AgilePublicKey>,
}

impl KemVisitor for Decap<'_> {
    type Out = Result<SharedSecret, Error>;
    fn visit<K: AgileKem>(self) -> Self::Out {
        match self.pk_s {
            None => K::decap(self.enc, K::sk(self.sk_r)?),
            Some(pk_s) => K::auth_decap_any(self.enc, self.sk_r, pk_s),
        }
    }
}

/// A runtime-agile HPKE ciphersuite: for code that reads the suite from the wire (ECH, MLS,
/// OHTTP). Same operations as [`super::Hpke`], over [`AgilePublicKey`] /
/// [`AgilePrivateKey`]; what the typed API rejects at compile time is an [`Error`] here
/// (Auth with a post-quantum KEM, `seal` on an export-only suite, a key of another KEM).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suite {
    ids: Ids,
}

impl Suite {
    /// The suite of a KEM, KDF and AEAD (every combination of this crate is supported).
    pub const fn new(kem: KemId, kdf: KdfId, aead: AeadId) -> Self {
        Suite {
            ids: Ids { kem, kdf, aead },
        }
    }

    /// The suite of three codepoints; an unknown one is [`Error::UnknownKem`],
    /// [`Error::UnknownKdf`] or [`Error::UnknownAead`].
    pub const fn from_ids(kem: u16, kdf: u16, aead: u16) -> Result<Self, Error> {
        let kem = match KemId::from_id(kem) {
            Ok(k) => k,
            Err(e) => return Err(e),
        };
        let kdf = match KdfId::from_id(kdf) {
            Ok(k) => k,
            Err(e) => return Err(e),
        };
        let aead = match AeadId::from_id(aead) {
            Ok(a) => a,
            Err(e) => return Err(e),
        };
        Ok(Self::new(kem, kdf, aead))
    }

    /// The KEM.
    pub const fn kem(&self) -> KemId {
        self.ids.kem
    }
    /// The KDF.
    pub const fn kdf(&self) -> KdfId {
        self.ids.kdf
    }
    /// The AEAD.
    pub const fn aead(&self) -> AeadId {
        self.ids.aead
    }

    /// `GenerateKeyPair()` of the suite's KEM.
    pub fn generate_key_pair(
        &self,
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(AgilePrivateKey, AgilePublicKey), Error> {
        Ok(visit(self.ids.kem, Generate(rng)))
    }

    /// `DeriveKeyPair(ikm)` of the suite's KEM.
    pub fn derive_key_pair(&self, ikm: &[u8]) -> Result<(AgilePrivateKey, AgilePublicKey), Error> {
        visit(self.ids.kem, Derive(ikm))
    }

    /// `DeserializePublicKey` of the suite's KEM, with validation.
    pub fn public_key_from_bytes(&self, bytes: &[u8]) -> Result<AgilePublicKey, Error> {
        visit(self.ids.kem, PublicFromBytes(bytes))
    }

    /// `DeserializePrivateKey` of the suite's KEM.
    pub fn private_key_from_bytes(&self, bytes: &[u8]) -> Result<AgilePrivateKey, Error> {
        visit(self.ids.kem, PrivateFromBytes(bytes))
    }

    /// `Setup<MODE>S`: the mode and KEM checks, then the shared setup.
    fn sender(
        &self,
        mode: Mode,
        pk_r: &AgilePublicKey,
        info: &[u8],
        (psk, psk_id): (&[u8], &[u8]),
        sk_s: Option<&AgilePrivateKey>,
        r: impl EncapSource,
    ) -> Result<(AgileEncappedKey, AgileSenderContext), Error> {
        let kem = self.ids.kem;
        if sk_s.is_some() && !kem.supports_auth() {
            return Err(Error::UnsupportedMode);
        }
        if pk_r.kem() != kem || sk_s.is_some_and(|s| s.kem() != kem) {
            return Err(Error::KemMismatch);
        }
        let (enc, ctx) = setup_sender(self.ids, mode, info, psk, psk_id, || {
            visit(kem, Encap { pk_r, sk_s, r })
        })?;
        Ok((enc, AgileSenderContext { ctx }))
    }

    /// `Setup<MODE>R`: the mode and KEM checks, then the shared setup.
    fn receiver(
        &self,
        mode: Mode,
        enc: &[u8],
        sk_r: &AgilePrivateKey,
        info: &[u8],
        (psk, psk_id): (&[u8], &[u8]),
        pk_s: Option<&AgilePublicKey>,
    ) -> Result<AgileReceiverContext, Error> {
        let kem = self.ids.kem;
        if pk_s.is_some() && !kem.supports_auth() {
            return Err(Error::UnsupportedMode);
        }
        if sk_r.kem() != kem || pk_s.is_some_and(|p| p.kem() != kem) {
            return Err(Error::KemMismatch);
        }
        let ctx = setup_receiver(self.ids, mode, info, psk, psk_id, || {
            visit(kem, Decap { enc, sk_r, pk_s })
        })?;
        Ok(AgileReceiverContext { ctx })
    }

    /// [`Error::ExportOnly`] for a suite of the export-only AEAD (before `seal` / `open`).
    #[cfg(feature = "alloc")]
    fn sealing(&self) -> Result<(), Error> {
        if self.ids.aead == AeadId::ExportOnly {
            return Err(Error::ExportOnly);
        }
        Ok(())
    }
}

/// The agile functions of one mode row of `modes!` (the Auth modes are
/// [`Error::UnsupportedMode`] for a KEM without Auth).
macro_rules! agile_mode {
    ($mode:ident, $bound:ident, $rfc:literal, [$($psk:ident $psk_id:ident)?], [$($sk_s:ident)?],
     [$($pk_s:ident)?], $setup_s:ident, $setup_s_derand:ident, $setup_r:ident, $seal:ident,
     $open:ident, $send_export:ident, $receive_export:ident) => {
        impl Suite {
            #[doc = concat!("`Setup", $rfc, "S`: the encapsulated key and the sender's context.")]
            #[allow(clippy::too_many_arguments)]
            pub fn $setup_s(
                &self,
                pk_r: &AgilePublicKey,
                info: &[u8],
                $($psk: &[u8], $psk_id: &[u8],)?
                $($sk_s: &AgilePrivateKey,)?
                rng: &mut impl rand_core::CryptoRng,
            ) -> Result<(AgileEncappedKey, AgileSenderContext), Error> {
                let psk = psk_pair!($($psk $psk_id)?);
                self.sender(Mode::$mode, pk_r, info, psk, auth_key!($($sk_s)?), FromRng(rng))
            }

            #[doc = concat!("`Setup", $rfc, "S`, deterministic by `ikm_e`: test vectors only, in test builds (`--cfg tessera_test_hooks`). A repeated `ikm_e` repeats the AEAD key and nonce.")]
            #[cfg(tessera_test_hooks)]
            #[doc(hidden)]
            #[allow(clippy::too_many_arguments)]
            pub fn $setup_s_derand(
                &self,
                pk_r: &AgilePublicKey,
                info: &[u8],
                $($psk: &[u8], $psk_id: &[u8],)?
                $($sk_s: &AgilePrivateKey,)?
                ikm_e: &[u8],
            ) -> Result<(AgileEncappedKey, AgileSenderContext), Error> {
                let psk = psk_pair!($($psk $psk_id)?);
                self.sender(Mode::$mode, pk_r, info, psk, auth_key!($($sk_s)?), FromIkm(ikm_e))
            }

            #[doc = concat!("`Setup", $rfc, "R`: the recipient's context.")]
            #[allow(clippy::too_many_arguments)]
            pub fn $setup_r(
                &self,
                enc: &[u8],
                sk_r: &AgilePrivateKey,
                info: &[u8],
                $($psk: &[u8], $psk_id: &[u8],)?
                $($pk_s: &AgilePublicKey,)?
            ) -> Result<AgileReceiverContext, Error> {
                let psk = psk_pair!($($psk $psk_id)?);
                self.receiver(Mode::$mode, enc, sk_r, info, psk, auth_key!($($pk_s)?))
            }

            #[doc = concat!("`Seal", $rfc, "`: `(enc, ciphertext || tag)`; [`Error::ExportOnly`] for an export-only suite.")]
            #[cfg(feature = "alloc")]
            #[allow(clippy::too_many_arguments)]
            pub fn $seal(
                &self,
                pk_r: &AgilePublicKey,
                info: &[u8],
                aad: &[u8],
                pt: &[u8],
                $($psk: &[u8], $psk_id: &[u8],)?
                $($sk_s: &AgilePrivateKey,)?
                rng: &mut impl rand_core::CryptoRng,
            ) -> Result<(AgileEncappedKey, Vec<u8>), Error> {
                self.sealing()?;
                let (enc, mut ctx) = self.$setup_s(pk_r, info, $($psk, $psk_id,)? $($sk_s,)? rng)?;
                Ok((enc, ctx.seal(aad, pt)?))
            }

            #[doc = concat!("`Open", $rfc, "`; [`Error::ExportOnly`] for an export-only suite.")]
            #[cfg(feature = "alloc")]
            #[allow(clippy::too_many_arguments)]
            pub fn $open(
                &self,
                enc: &[u8],
                sk_r: &AgilePrivateKey,
                info: &[u8],
                aad: &[u8],
                ct: &[u8],
                $($psk: &[u8], $psk_id: &[u8],)?
                $($pk_s: &AgilePublicKey,)?
            ) -> Result<Vec<u8>, Error> {
                self.sealing()?;
                self.$setup_r(enc, sk_r, info, $($psk, $psk_id,)? $($pk_s,)?)?
                    .open(aad, ct)
            }

            #[doc = concat!("`SendExport", $rfc, "`: sets up a sender context and exports `out.len()` bytes from it.")]
            #[allow(clippy::too_many_arguments)]
            pub fn $send_export(
                &self,
                pk_r: &AgilePublicKey,
                info: &[u8],
                $($psk: &[u8], $psk_id: &[u8],)?
                $($sk_s: &AgilePrivateKey,)?
                exporter_context: &[u8],
                out: &mut [u8],
                rng: &mut impl rand_core::CryptoRng,
            ) -> Result<AgileEncappedKey, Error> {
                let (enc, ctx) = self.$setup_s(pk_r, info, $($psk, $psk_id,)? $($sk_s,)? rng)?;
                ctx.export(exporter_context, out)?;
                Ok(enc)
            }

            #[doc = concat!("`ReceiveExport", $rfc, "`.")]
            #[allow(clippy::too_many_arguments)]
            pub fn $receive_export(
                &self,
                enc: &[u8],
                sk_r: &AgilePrivateKey,
                info: &[u8],
                $($psk: &[u8], $psk_id: &[u8],)?
                $($pk_s: &AgilePublicKey,)?
                exporter_context: &[u8],
                out: &mut [u8],
            ) -> Result<(), Error> {
                self.$setup_r(enc, sk_r, info, $($psk, $psk_id,)? $($pk_s,)?)?
                    .export(exporter_context, out)
            }
        }
    };
}

modes!(agile_mode);

#[cfg(test)]
mod tests {
    use super::super::tests::Counter;
    use super::*;
    use crate::hpke::{
        ChaCha20Poly1305, DhKemX25519HkdfSha256, HkdfSha256, Hpke, Kem, KemId, MlKem768,
    };

    /// The agile Auth-mode exports agree with the typed ones (same KEM code, same draws) and
    /// between sender and recipient; a KEM without Auth is [`Error::UnsupportedMode`].
    #[test]
    fn auth_export_matches_typed() {
        type K = DhKemX25519HkdfSha256;
        type H = Hpke<K, HkdfSha256, ChaCha20Poly1305>;
        let suite = Suite::new(
            KemId::DhKemX25519HkdfSha256,
            KdfId::HkdfSha256,
            AeadId::ChaCha20Poly1305,
        );
        let (sk_r, pk_r) = K::derive_key_pair(&[1; 32]).unwrap();
        let (sk_s, pk_s) = K::derive_key_pair(&[2; 32]).unwrap();
        let a_sk_r = suite.private_key_from_bytes(sk_r.as_bytes()).unwrap();
        let a_sk_s = suite.private_key_from_bytes(sk_s.as_bytes()).unwrap();
        let (a_pk_r, a_pk_s) = (a_sk_r.public_key(), a_sk_s.public_key());
        let psk = [9u8; 32];

        let mut typed = [0u8; 24];
        let enc =
            H::send_export_auth(&pk_r, b"i", &sk_s, b"c", &mut typed, &mut Counter(3)).unwrap();
        let mut agile = [0u8; 24];
        let a_enc = suite
            .send_export_auth(&a_pk_r, b"i", &a_sk_s, b"c", &mut agile, &mut Counter(3))
            .unwrap();
        assert_eq!(a_enc.as_bytes(), enc.as_ref());
        assert_eq!(agile, typed);
        let mut back = [0u8; 24];
        suite
            .receive_export_auth(a_enc.as_bytes(), &a_sk_r, b"i", &a_pk_s, b"c", &mut back)
            .unwrap();
        assert_eq!(back, typed);

        let enc = H::send_export_auth_psk(
            &pk_r,
            b"i",
            &psk,
            b"id",
            &sk_s,
            b"c",
            &mut typed,
            &mut Counter(4),
        )
        .unwrap();
        let a_enc = suite
            .send_export_auth_psk(
                &a_pk_r,
                b"i",
                &psk,
                b"id",
                &a_sk_s,
                b"c",
                &mut agile,
                &mut Counter(4),
            )
            .unwrap();
        assert_eq!(a_enc.as_bytes(), enc.as_ref());
        assert_eq!(agile, typed);
        suite
            .receive_export_auth_psk(
                a_enc.as_bytes(),
                &a_sk_r,
                b"i",
                &psk,
                b"id",
                &a_pk_s,
                b"c",
                &mut back,
            )
            .unwrap();
        assert_eq!(back, typed);
        H::receive_export_auth_psk(
            enc.as_ref(),
            &sk_r,
            b"i",
            &psk,
            b"id",
            &pk_s,
            b"c",
            &mut back,
        )
        .unwrap();
        assert_eq!(back, typed);

        if cfg!(miri) {
            // ML-KEM key generation is slow under Miri; the X25519 part covers the code.
            return;
        }
        let pq = Suite::new(KemId::MlKem768, KdfId::HkdfSha256, AeadId::ChaCha20Poly1305);
        let (pq_sk, pq_pk) = pq.derive_key_pair(&[5; 32]).unwrap();
        assert_eq!(
            pq.send_export_auth(&pq_pk, b"", &pq_sk, b"", &mut agile, &mut Counter(1)),
            Err(Error::UnsupportedMode)
        );
        assert_eq!(
            pq.receive_export_auth(
                &[0; <MlKem768 as Kem>::N_ENC],
                &pq_sk,
                b"",
                &pq_pk,
                b"",
                &mut back
            ),
            Err(Error::UnsupportedMode)
        );
    }
}
