//! Encryption contexts (RFC 9180 section 5.2) and secret export (section 5.3).

use core::marker::PhantomData;

use zeroize::Zeroize;

use super::kdf::{Exporter, Schedule, export};
use super::{Aead, AeadId, Error, Ids, KdfId, SealingAead};

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// An AEAD tag (`Nt = 16` for every AEAD of this crate).
pub type Tag = [u8; 16];

/// The context's AEAD key, expanded once (each AEAD crate wipes its key on drop).
enum AeadKey {
    Aes128(tessera_aes_gcm::Aes128Gcm),
    Aes256(tessera_aes_gcm::Aes256Gcm),
    ChaCha(tessera_chacha20poly1305::ChaCha20Poly1305),
    ExportOnly,
}

/// The state both roles share: AEAD key, base nonce, sequence number, exporter secret.
pub(crate) struct Ctx {
    aead: AeadKey,
    base_nonce: [u8; 12],
    seq: u64,
    exporter: Exporter,
    kdf: KdfId,
    suite_id: [u8; 10],
}

impl Drop for Ctx {
    fn drop(&mut self) {
        self.base_nonce.zeroize();
    }
}

fn aead_error_seal(e: impl Into<AeadFailure>) -> Error {
    match e.into() {
        AeadFailure::Length => Error::MessageTooLong,
        AeadFailure::Auth => Error::OpenError,
    }
}

enum AeadFailure {
    Length,
    Auth,
}

impl From<tessera_aes_gcm::Error> for AeadFailure {
    fn from(e: tessera_aes_gcm::Error) -> Self {
        match e {
            tessera_aes_gcm::Error::Authentication => AeadFailure::Auth,
            _ => AeadFailure::Length,
        }
    }
}

impl From<tessera_chacha20poly1305::Error> for AeadFailure {
    fn from(e: tessera_chacha20poly1305::Error) -> Self {
        match e {
            tessera_chacha20poly1305::Error::Authentication => AeadFailure::Auth,
            _ => AeadFailure::Length,
        }
    }
}

impl Ctx {
    pub(crate) fn new(ids: Ids, s: &Schedule) -> Self {
        let aead = match ids.aead {
            AeadId::Aes128Gcm => {
                let mut k = [0u8; 16];
                k.copy_from_slice(&s.key[..16]);
                let key = tessera_aes_gcm::Aes128Gcm::new(&k);
                k.zeroize();
                AeadKey::Aes128(key)
            }
            AeadId::Aes256Gcm => AeadKey::Aes256(tessera_aes_gcm::Aes256Gcm::new(&s.key)),
            AeadId::ChaCha20Poly1305 => {
                AeadKey::ChaCha(tessera_chacha20poly1305::ChaCha20Poly1305::new(&s.key))
            }
            AeadId::ExportOnly => AeadKey::ExportOnly,
        };
        Ctx {
            aead,
            base_nonce: s.base_nonce,
            seq: 0,
            exporter: Exporter::new(ids.kdf, s),
            kdf: ids.kdf,
            suite_id: ids.suite_id(),
        }
    }

    /// `ComputeNonce(seq)`, or [`Error::MessageLimitReached`] when `seq` is at its limit
    /// (the increment after this message would overflow), checked before the AEAD runs.
    fn nonce(&self) -> Result<[u8; 12], Error> {
        if self.seq == u64::MAX {
            return Err(Error::MessageLimitReached);
        }
        let mut n = self.base_nonce;
        for (b, s) in n[4..].iter_mut().zip(self.seq.to_be_bytes()) {
            *b ^= s;
        }
        Ok(n)
    }

    pub(crate) fn seal_in_place_detached(
        &mut self,
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<Tag, Error> {
        if matches!(self.aead, AeadKey::ExportOnly) {
            return Err(Error::ExportOnly);
        }
        let mut nonce = self.nonce()?;
        let tag = match &self.aead {
            AeadKey::Aes128(k) => k
                .encrypt_in_place_detached(&nonce, aad, buf)
                .map_err(aead_error_seal),
            AeadKey::Aes256(k) => k
                .encrypt_in_place_detached(&nonce, aad, buf)
                .map_err(aead_error_seal),
            AeadKey::ChaCha(k) => k
                .encrypt_in_place_detached(&nonce, aad, buf)
                .map_err(aead_error_seal),
            AeadKey::ExportOnly => Err(Error::ExportOnly),
        };
        nonce.zeroize();
        let tag = tag?;
        self.seq += 1;
        Ok(tag)
    }

    pub(crate) fn open_in_place_detached(
        &mut self,
        aad: &[u8],
        buf: &mut [u8],
        tag: &Tag,
    ) -> Result<(), Error> {
        if matches!(self.aead, AeadKey::ExportOnly) {
            return Err(Error::ExportOnly);
        }
        let mut nonce = self.nonce()?;
        let r = match &self.aead {
            AeadKey::Aes128(k) => k
                .decrypt_in_place_detached(&nonce, aad, buf, tag)
                .map_err(aead_error_seal),
            AeadKey::Aes256(k) => k
                .decrypt_in_place_detached(&nonce, aad, buf, tag)
                .map_err(aead_error_seal),
            AeadKey::ChaCha(k) => k
                .decrypt_in_place_detached(&nonce, aad, buf, tag)
                .map_err(aead_error_seal),
            AeadKey::ExportOnly => Err(Error::ExportOnly),
        };
        nonce.zeroize();
        r?;
        self.seq += 1;
        Ok(())
    }

    #[cfg(feature = "alloc")]
    pub(crate) fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, Error> {
        if matches!(self.aead, AeadKey::ExportOnly) {
            return Err(Error::ExportOnly);
        }
        self.nonce()?;
        let mut out = Vec::with_capacity(pt.len() + 16);
        out.extend_from_slice(pt);
        match self.seal_in_place_detached(aad, &mut out) {
            Ok(tag) => {
                out.extend_from_slice(&tag);
                Ok(out)
            }
            Err(e) => {
                out.zeroize();
                Err(e)
            }
        }
    }

    #[cfg(feature = "alloc")]
    pub(crate) fn open(&mut self, aad: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error> {
        if matches!(self.aead, AeadKey::ExportOnly) {
            return Err(Error::ExportOnly);
        }
        self.nonce()?;
        if ct.len() < 16 {
            return Err(Error::OpenError);
        }
        let (body, tag) = ct.split_at(ct.len() - 16);
        let tag: Tag = tag.try_into().map_err(|_| Error::OpenError)?;
        let mut out = Vec::from(body);
        match self.open_in_place_detached(aad, &mut out, &tag) {
            Ok(()) => Ok(out),
            Err(e) => {
                out.zeroize();
                Err(e)
            }
        }
    }

    pub(crate) fn export(&self, exporter_context: &[u8], out: &mut [u8]) -> Result<(), Error> {
        export(
            self.kdf,
            &self.suite_id,
            &self.exporter,
            exporter_context,
            out,
        )
    }

    #[cfg(tessera_test_hooks)]
    pub(crate) fn set_seq(&mut self, seq: u64) {
        self.seq = seq;
    }

    #[cfg(tessera_test_hooks)]
    pub(crate) fn exporter_secret(&self) -> &[u8] {
        self.exporter.secret()
    }
}

macro_rules! test_hooks {
    () => {
        /// Sets the sequence number (tests of the message limit; test builds only).
        #[cfg(tessera_test_hooks)]
        #[doc(hidden)]
        pub fn __set_sequence_number(&mut self, seq: u64) {
            self.ctx.set_seq(seq);
        }

        /// The exporter secret (vector tests; test builds only).
        #[cfg(tessera_test_hooks)]
        #[doc(hidden)]
        pub fn __exporter_secret(&self) -> &[u8] {
            self.ctx.exporter_secret()
        }
    };
}

macro_rules! export_method {
    () => {
        /// `Context.Export(exporter_context, L)` with `L = out.len()`: at most `255 * Nh`
        /// bytes with HKDF, 65,535 with a one-stage KDF ([`Error::ExportTooLong`], `out`
        /// untouched).
        pub fn export(&self, exporter_context: &[u8], out: &mut [u8]) -> Result<(), Error> {
            self.ctx.export(exporter_context, out)
        }
    };
}

/// The sender's context of a typed suite with AEAD `A` (not `Clone`: a copy would reuse
/// nonces). Contexts of [`super::ExportOnly`] only export.
pub struct SenderContext<A: Aead> {
    pub(crate) ctx: Ctx,
    pub(crate) _aead: PhantomData<A>,
}

/// The recipient's context of a typed suite with AEAD `A` (not `Clone`).
pub struct ReceiverContext<A: Aead> {
    pub(crate) ctx: Ctx,
    pub(crate) _aead: PhantomData<A>,
}

impl<A: Aead> SenderContext<A> {
    export_method!();
    test_hooks!();
}

impl<A: Aead> ReceiverContext<A> {
    export_method!();
    test_hooks!();
}

impl<A: SealingAead> SenderContext<A> {
    /// `ContextS.Seal` in place: encrypts `buf` and returns the tag. At the sequence limit
    /// [`Error::MessageLimitReached`] before anything is written.
    pub fn seal_in_place_detached(&mut self, aad: &[u8], buf: &mut [u8]) -> Result<Tag, Error> {
        self.ctx.seal_in_place_detached(aad, buf)
    }

    /// `ContextS.Seal`: `ciphertext || tag`.
    #[cfg(feature = "alloc")]
    pub fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, Error> {
        self.ctx.seal(aad, pt)
    }
}

impl<A: SealingAead> ReceiverContext<A> {
    /// `ContextR.Open` in place. On [`Error::OpenError`] `buf` is zeroed and the sequence
    /// number does not advance.
    pub fn open_in_place_detached(
        &mut self,
        aad: &[u8],
        buf: &mut [u8],
        tag: &Tag,
    ) -> Result<(), Error> {
        self.ctx.open_in_place_detached(aad, buf, tag)
    }

    /// `ContextR.Open` of `ciphertext || tag`.
    #[cfg(feature = "alloc")]
    pub fn open(&mut self, aad: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error> {
        self.ctx.open(aad, ct)
    }
}

/// The sender's context of a runtime-agile [`super::Suite`] (not `Clone`). `seal` on an
/// export-only suite is [`Error::ExportOnly`].
pub struct AgileSenderContext {
    pub(crate) ctx: Ctx,
}

/// The recipient's context of a runtime-agile [`super::Suite`] (not `Clone`).
pub struct AgileReceiverContext {
    pub(crate) ctx: Ctx,
}

impl AgileSenderContext {
    export_method!();
    test_hooks!();

    /// `ContextS.Seal` in place (see [`SenderContext::seal_in_place_detached`]).
    pub fn seal_in_place_detached(&mut self, aad: &[u8], buf: &mut [u8]) -> Result<Tag, Error> {
        self.ctx.seal_in_place_detached(aad, buf)
    }

    /// `ContextS.Seal`: `ciphertext || tag`.
    #[cfg(feature = "alloc")]
    pub fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, Error> {
        self.ctx.seal(aad, pt)
    }
}

impl AgileReceiverContext {
    export_method!();
    test_hooks!();

    /// `ContextR.Open` in place (see [`ReceiverContext::open_in_place_detached`]).
    pub fn open_in_place_detached(
        &mut self,
        aad: &[u8],
        buf: &mut [u8],
        tag: &Tag,
    ) -> Result<(), Error> {
        self.ctx.open_in_place_detached(aad, buf, tag)
    }

    /// `ContextR.Open` of `ciphertext || tag`.
    #[cfg(feature = "alloc")]
    pub fn open(&mut self, aad: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error> {
        self.ctx.open(aad, ct)
    }
}

macro_rules! debug_ctx {
    ($($t:ty),*) => {$(
        impl core::fmt::Debug for $t {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($t)).field("seq", &self.ctx.seq).finish_non_exhaustive()
            }
        }
    )*};
}
debug_ctx!(AgileSenderContext, AgileReceiverContext);

impl<A: Aead> core::fmt::Debug for SenderContext<A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SenderContext")
            .field("seq", &self.ctx.seq)
            .finish_non_exhaustive()
    }
}

impl<A: Aead> core::fmt::Debug for ReceiverContext<A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ReceiverContext")
            .field("seq", &self.ctx.seq)
            .finish_non_exhaustive()
    }
}
