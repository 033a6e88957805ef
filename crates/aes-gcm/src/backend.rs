//! Backend selection. AES and GHASH are decided together when a key is expanded: the round keys
//! and the table of `H` powers have a backend-specific layout ([`Layout`]).
//!
//! This file is the backend table: each row names its [`Unit`] type, and the generated
//! `Backend::run` runs a [`GcmOp`] ([`NewKey`], [`Gcm`], [`CryptBlocks`]) on it, in one
//! target-feature island per row. It calls only safe functions; `unsafe` appears only in the
//! SIMD backend files, at pointer loads and stores.

#![deny(unsafe_code)]

#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
mod aarch64_aes;
mod portable;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86_aesni;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86_clmul;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86_vaes;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86_vaes512;

use crate::gcm::{Iv, Unit};

tessera_cpu::backends! {
    /// An AES-GCM backend, carrying the capability token that proves it can run.
    pub enum Backend {
        /// Constant-time plain Rust: bitsliced AES, GHASH by masked integer multiplications.
        Portable = "portable" => portable::Bitsliced,
        /// x86_64 VAES + VPCLMULQDQ on 512-bit vectors (AVX-512 F/BW/VL): thirty-two blocks in
        /// flight, one reduction per 512 bytes; inputs under 512 bytes and tails run the 256-bit
        /// VAES code (and below 256 bytes the AES-NI code).
        #[cfg(target_arch = "x86_64")]
        X86Vaes512(X86Vaes512) = "x86_vaes512" => x86_vaes512::Vaes512,
        /// x86_64 VAES + VPCLMULQDQ on 256-bit vectors: sixteen blocks in flight, one reduction
        /// per 512 bytes; tails and inputs under 256 bytes run the AES-NI code.
        #[cfg(target_arch = "x86_64")]
        X86Vaes(X86VaesClmul) = "x86_vaes" => x86_vaes::Vaes256,
        /// x86_64 AES-NI + PCLMULQDQ: eight blocks in flight, GHASH reduced once per eight
        /// blocks.
        #[cfg(target_arch = "x86_64")]
        X86Aesni(X86AesClmul) = "x86_aesni" => x86_aesni::AesNi,
        /// aarch64 AES + PMULL: eight blocks in flight, GHASH reduced once per eight blocks.
        #[cfg(target_arch = "aarch64")]
        Aarch64Aes(Aarch64AesPmull) = "aarch64_aes" => aarch64_aes::ArmAes,
    }
    /// Runs an operation on this backend.
    pub(crate) fn run: GcmOp;
}

/// An expanded key in the layout of its backend (each variant wiped on drop). Stored inline (no
/// allocation in the core), so the variants differ in size.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub(crate) enum Layout {
    Portable(portable::Key),
    #[cfg(target_arch = "x86_64")]
    X86Aesni(x86_aesni::Key),
    /// The AES-NI key layout (all thirty-two `H` powers used) plus the 256-bit tables: both
    /// VAES rows (the 512-bit one runs the 256-bit code below 512 bytes).
    #[cfg(target_arch = "x86_64")]
    X86Vaes(x86_vaes::VaesKey),
    #[cfg(target_arch = "aarch64")]
    Aarch64Aes(aarch64_aes::Key),
}

/// A row's [`Unit`] with its key stored in a [`Layout`] variant.
pub(crate) trait Row: Unit {
    fn wrap(k: Self::Key) -> Layout;
    /// The key of this row's variant. A [`Key`] is expanded by its own backend, so its layout
    /// is always this row's: any other variant is unreachable.
    fn unwrap(l: &Layout) -> &Self::Key;
}

/// Each row's [`Row`] impl: the [`Layout`] variant its keys are stored in.
macro_rules! rows {
    ($($(#[$cfg:meta])* $unit:ty => $variant:ident,)*) => {$(
        $(#[$cfg])*
        impl Row for $unit {
            #[inline(always)]
            fn wrap(k: Self::Key) -> Layout {
                Layout::$variant(k)
            }
            #[inline(always)]
            fn unwrap(l: &Layout) -> &Self::Key {
                match l {
                    Layout::$variant(k) => k,
                    #[allow(unreachable_patterns)]
                    _ => unreachable!("a key expanded by another backend"),
                }
            }
        }
    )*};
}

rows! {
    portable::Bitsliced => Portable,
    #[cfg(target_arch = "x86_64")]
    x86_aesni::AesNi => X86Aesni,
    #[cfg(target_arch = "x86_64")]
    x86_vaes::Vaes256 => X86Vaes,
    #[cfg(target_arch = "x86_64")]
    x86_vaes512::Vaes512 => X86Vaes,
    #[cfg(target_arch = "aarch64")]
    aarch64_aes::ArmAes => Aarch64Aes,
}

/// An operation on a backend's [`Row`]: [`Backend::run`] calls `run::<U>` with the row's unit
/// type, inside that row's target-feature island.
pub(crate) trait GcmOp {
    type Out;
    fn run<U: Row>(self, t: U::Token) -> Self::Out;
}

/// Expands a 16-, 24- or 32-byte key.
pub(crate) struct NewKey<'a>(pub(crate) &'a [u8]);

impl GcmOp for NewKey<'_> {
    type Out = Layout;
    #[inline(always)]
    fn run<U: Row>(self, t: U::Token) -> Layout {
        U::wrap(U::new_key(t, self.0))
    }
}

/// GCM-AE (`SEAL`, returns the tag) or GCM-AD (returns the expected tag).
pub(crate) struct Gcm<'a, const SEAL: bool> {
    key: &'a Layout,
    iv: Iv<'a>,
    aad: &'a [u8],
    buf: &'a mut [u8],
}

impl<const SEAL: bool> GcmOp for Gcm<'_, SEAL> {
    type Out = [u8; 16];
    #[inline(always)]
    fn run<U: Row>(self, t: U::Token) -> [u8; 16] {
        U::gcm::<SEAL>(t, U::unwrap(self.key), self.iv, self.aad, self.buf)
    }
}

/// The raw block cipher, forward (`ENC`) or inverse.
pub(crate) struct CryptBlocks<'a, const ENC: bool> {
    key: &'a Layout,
    blocks: &'a mut [[u8; 16]],
}

impl<const ENC: bool> GcmOp for CryptBlocks<'_, ENC> {
    type Out = ();
    #[inline(always)]
    fn run<U: Row>(self, t: U::Token) {
        U::crypt_blocks::<ENC>(t, U::unwrap(self.key), self.blocks)
    }
}

/// An expanded AES key and the backend it was expanded for.
#[derive(Clone)]
pub(crate) struct Key {
    backend: Backend,
    layout: Layout,
}

impl Key {
    /// `key` is 16, 24 or 32 bytes (checked by the constructors).
    pub(crate) fn new(backend: Backend, key: &[u8]) -> Self {
        Key {
            backend,
            layout: backend.run(NewKey(key)),
        }
    }

    /// `Debug` for a type holding this key: its name and backend, never the key.
    pub(crate) fn fmt_debug(
        &self,
        name: &str,
        f: &mut core::fmt::Formatter<'_>,
    ) -> core::fmt::Result {
        f.debug_struct(name)
            .field("backend", &self.backend.name())
            .finish_non_exhaustive()
    }

    pub(crate) fn backend(&self) -> Backend {
        self.backend
    }

    pub(crate) fn seal(&self, iv: Iv<'_>, aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
        self.gcm::<true>(iv, aad, buf)
    }

    pub(crate) fn open(&self, iv: Iv<'_>, aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
        self.gcm::<false>(iv, aad, buf)
    }

    fn gcm<const SEAL: bool>(&self, iv: Iv<'_>, aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
        self.backend.run(Gcm::<SEAL> {
            key: &self.layout,
            iv,
            aad,
            buf,
        })
    }

    pub(crate) fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        self.backend.run(CryptBlocks::<true> {
            key: &self.layout,
            blocks,
        })
    }

    pub(crate) fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        self.backend.run(CryptBlocks::<false> {
            key: &self.layout,
            blocks,
        })
    }
}
