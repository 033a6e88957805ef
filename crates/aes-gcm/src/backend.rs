//! Backend selection. AES and GHASH are decided together when a key is expanded: the round keys
//! and the table of `H` powers have a backend-specific layout.
//!
//! This file is the backend table and its match arms; it calls only safe functions (each SIMD
//! backend's entry points are `tessera_cpu::island!`s taking the backend's token). `unsafe`
//! appears only in the SIMD backend files, at pointer loads and stores.

#![deny(unsafe_code)]

/// Implements [`gcm::GcmOps`] for a SIMD backend's per-operation `Ops` type (which holds its
/// token in a field `t`) from its target-feature methods `encrypt_block_tf`, `ghash_v` and
/// `ctr_ghash::<SEAL>`. Each trait method is an island taking the token (the generic framing
/// in `gcm` cannot call target-feature functions itself); called from the backend's `run`
/// island, which has the same features, it is inlined there or stays one plain call, as the
/// target-feature methods were before. `x86` / `aarch64` say how `ghash_v` takes the running
/// hash (a byte-reflected `__m128i`, or a `u128`).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! simd_gcm_ops {
    ($ops:ident, $token:ident, x86) => {
        tessera_cpu::with_features! { $token;
            impl $ops<'_> {
                #[inline]
                fn ghash_tf(&self, y: &mut [u8; 16], data: &[u8]) {
                    use super::x86_clmul::{bswap, load, store};
                    store(y, bswap(self.ghash_v(bswap(load(y)), data)))
                }
            }
        }
        simd_gcm_ops!($ops, $token);
    };
    ($ops:ident, $token:ident, aarch64) => {
        tessera_cpu::with_features! { $token;
            impl $ops<'_> {
                #[inline]
                fn ghash_tf(&self, y: &mut [u8; 16], data: &[u8]) {
                    *y = self.ghash_v(u128::from_be_bytes(*y), data).to_be_bytes();
                }
            }
        }
        simd_gcm_ops!($ops, $token);
    };
    ($ops:ident, $token:ident) => {
        tessera_cpu::island! {
            fn ops_encrypt_block(_t: $token, o: &$ops<'_>, block: &mut [u8; 16]) {
                o.encrypt_block_tf(block)
            }
        }
        tessera_cpu::island! {
            fn ops_ghash(_t: $token, o: &$ops<'_>, y: &mut [u8; 16], data: &[u8]) {
                o.ghash_tf(y, data)
            }
        }
        tessera_cpu::island! {
            fn ops_ctr_ghash<const SEAL: bool>(
                _t: $token,
                o: &$ops<'_>,
                ctr: &[u8; 16],
                y: &mut [u8; 16],
                buf: &mut [u8],
            ) {
                o.ctr_ghash::<SEAL>(ctr, y, buf)
            }
        }

        impl crate::gcm::GcmOps for $ops<'_> {
            #[inline(always)]
            fn encrypt_block(&self, block: &mut [u8; 16]) {
                ops_encrypt_block(self.t, self, block)
            }

            #[inline(always)]
            fn ghash(&self, y: &mut [u8; 16], data: &[u8]) {
                ops_ghash(self.t, self, y, data)
            }

            #[inline(always)]
            fn ctr_ghash<const SEAL: bool>(
                &self,
                ctr: &[u8; 16],
                y: &mut [u8; 16],
                buf: &mut [u8],
            ) {
                ops_ctr_ghash::<SEAL>(self.t, self, ctr, y, buf)
            }
        }
    };
}

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

use crate::gcm::{self, Iv};

tessera_cpu::backends! {
    /// An AES-GCM backend, carrying the capability token that proves it can run.
    pub enum Backend {
        /// Constant-time plain Rust: bitsliced AES, GHASH by masked integer multiplications.
        Portable = "portable",
        /// x86_64 VAES + VPCLMULQDQ on 512-bit vectors (AVX-512 F/BW/VL): thirty-two blocks in
        /// flight, one reduction per 512 bytes; inputs under 512 bytes and tails run the 256-bit
        /// VAES code (and below 256 bytes the AES-NI code).
        #[cfg(target_arch = "x86_64")]
        X86Vaes512(X86Vaes512) = "x86_vaes512",
        /// x86_64 VAES + VPCLMULQDQ on 256-bit vectors: sixteen blocks in flight, one reduction
        /// per 512 bytes; tails and inputs under 256 bytes run the AES-NI code.
        #[cfg(target_arch = "x86_64")]
        X86Vaes(X86VaesClmul) = "x86_vaes",
        /// x86_64 AES-NI + PCLMULQDQ: eight blocks in flight, GHASH reduced once per eight
        /// blocks.
        #[cfg(target_arch = "x86_64")]
        X86Aesni(X86AesClmul) = "x86_aesni",
        /// aarch64 AES + PMULL: eight blocks in flight, GHASH reduced once per eight blocks.
        #[cfg(target_arch = "aarch64")]
        Aarch64Aes(Aarch64AesPmull) = "aarch64_aes",
    }
}

/// An expanded AES key in the layout of its backend (zeroized on drop by each variant).
/// Stored inline (no allocation in the core), so the variants differ in size.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Key {
    Portable(portable::Key),
    #[cfg(target_arch = "x86_64")]
    X86Aesni(tessera_cpu::X86AesClmul, x86_aesni::Key),
    /// The AES-NI key layout (all thirty-two `H` powers used) plus the 256-bit tables.
    #[cfg(target_arch = "x86_64")]
    X86Vaes(tessera_cpu::X86VaesClmul, x86_aesni::Key, x86_vaes::Wide),
    /// The AES-NI key layout (all thirty-two `H` powers used) plus the 256-bit tables (for
    /// inputs and tails below 512 bytes).
    #[cfg(target_arch = "x86_64")]
    X86Vaes512(tessera_cpu::X86Vaes512, x86_aesni::Key, x86_vaes::Wide),
    #[cfg(target_arch = "aarch64")]
    Aarch64Aes(tessera_cpu::Aarch64AesPmull, aarch64_aes::Key),
}

/// Below this many bytes of message and of AAD the VAES backend runs the AES-NI island (same
/// key layout): the 256-bit path only starts at a whole 256-byte chunk, and entering it costs
/// more than it saves on short inputs (benchmarked at 64 B).
#[cfg(target_arch = "x86_64")]
const VAES_MIN_LEN: usize = 256;

/// Below this many bytes of message and of AAD the 512-bit backend runs the 256-bit VAES
/// dispatch (same key layout): its stride is a whole 512-byte chunk.
#[cfg(target_arch = "x86_64")]
const VAES512_MIN_LEN: usize = 512;

/// Whether the message or the AAD reaches `min` bytes: the wide x86 paths take only inputs
/// that do (both lengths are public).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn reaches(min: usize, aad: &[u8], buf: &[u8]) -> bool {
    buf.len() >= min || aad.len() >= min
}

impl Key {
    /// `key` is 16, 24 or 32 bytes (checked by the constructors).
    pub(crate) fn new(backend: Backend, key: &[u8]) -> Self {
        match backend {
            Backend::Portable => Key::Portable(portable::Key::new(key)),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Aesni(t) => Key::X86Aesni(t, x86_aesni::new_key(t, key)),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Vaes(t) => {
                let k = x86_aesni::new_key(t.aes_clmul(), key);
                let w = x86_vaes::new_wide(t, &k);
                Key::X86Vaes(t, k, w)
            }
            #[cfg(target_arch = "x86_64")]
            Backend::X86Vaes512(t) => {
                let k = x86_aesni::new_key(t.aes_clmul(), key);
                let w = x86_vaes::new_wide(t.vaes_clmul(), &k);
                Key::X86Vaes512(t, k, w)
            }
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Aes(t) => Key::Aarch64Aes(t, aarch64_aes::new_key(t, key)),
        }
    }

    /// `Debug` for a type holding this key: its name and backend, never the key.
    pub(crate) fn fmt_debug(
        &self,
        name: &str,
        f: &mut core::fmt::Formatter<'_>,
    ) -> core::fmt::Result {
        f.debug_struct(name)
            .field("backend", &self.backend().name())
            .finish_non_exhaustive()
    }

    pub(crate) fn backend(&self) -> Backend {
        match self {
            Key::Portable(_) => Backend::Portable,
            #[cfg(target_arch = "x86_64")]
            Key::X86Aesni(t, _) => Backend::X86Aesni(*t),
            #[cfg(target_arch = "x86_64")]
            Key::X86Vaes(t, ..) => Backend::X86Vaes(*t),
            #[cfg(target_arch = "x86_64")]
            Key::X86Vaes512(t, ..) => Backend::X86Vaes512(*t),
            #[cfg(target_arch = "aarch64")]
            Key::Aarch64Aes(t, _) => Backend::Aarch64Aes(*t),
        }
    }

    /// GCM-AE (`SEAL`, returns the tag) or GCM-AD (returns the expected tag) on this key's
    /// backend.
    pub(crate) fn run<const SEAL: bool>(&self, iv: Iv<'_>, aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
        match self {
            Key::Portable(k) => gcm::run::<SEAL, _>(k, iv, aad, buf),
            // The VAES backends fall back by length: 512-bit, then 256-bit, then AES-NI code
            // (one key layout).
            #[cfg(target_arch = "x86_64")]
            Key::X86Vaes512(t, k, w) if reaches(VAES512_MIN_LEN, aad, buf) => {
                x86_vaes512::run::<SEAL>(*t, k, w, iv, aad, buf)
            }
            #[cfg(target_arch = "x86_64")]
            Key::X86Vaes512(t, k, w) if reaches(VAES_MIN_LEN, aad, buf) => {
                x86_vaes::run::<SEAL>(t.vaes_clmul(), k, w, iv, aad, buf)
            }
            #[cfg(target_arch = "x86_64")]
            Key::X86Vaes(t, k, w) if reaches(VAES_MIN_LEN, aad, buf) => {
                x86_vaes::run::<SEAL>(*t, k, w, iv, aad, buf)
            }
            #[cfg(target_arch = "x86_64")]
            Key::X86Vaes512(t, k, _) => x86_aesni::run::<SEAL>(t.aes_clmul(), k, iv, aad, buf),
            #[cfg(target_arch = "x86_64")]
            Key::X86Vaes(t, k, _) => x86_aesni::run::<SEAL>(t.aes_clmul(), k, iv, aad, buf),
            #[cfg(target_arch = "x86_64")]
            Key::X86Aesni(t, k) => x86_aesni::run::<SEAL>(*t, k, iv, aad, buf),
            #[cfg(target_arch = "aarch64")]
            Key::Aarch64Aes(t, k) => aarch64_aes::run::<SEAL>(*t, k, iv, aad, buf),
        }
    }

    pub(crate) fn seal(&self, iv: Iv<'_>, aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
        self.run::<true>(iv, aad, buf)
    }

    pub(crate) fn open(&self, iv: Iv<'_>, aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
        self.run::<false>(iv, aad, buf)
    }

    pub(crate) fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        self.crypt_blocks::<true>(blocks)
    }

    pub(crate) fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        self.crypt_blocks::<false>(blocks)
    }

    /// The raw block cipher, forward (`ENC`) or inverse; every x86 backend runs the AES-NI code
    /// (same key layout).
    fn crypt_blocks<const ENC: bool>(&self, blocks: &mut [[u8; 16]]) {
        match self {
            Key::Portable(k) if ENC => k.encrypt_blocks(blocks),
            Key::Portable(k) => k.decrypt_blocks(blocks),
            #[cfg(target_arch = "x86_64")]
            Key::X86Aesni(t, k) => aesni_blocks::<ENC>(*t, k, blocks),
            #[cfg(target_arch = "x86_64")]
            Key::X86Vaes(t, k, _) => aesni_blocks::<ENC>(t.aes_clmul(), k, blocks),
            #[cfg(target_arch = "x86_64")]
            Key::X86Vaes512(t, k, _) => aesni_blocks::<ENC>(t.aes_clmul(), k, blocks),
            #[cfg(target_arch = "aarch64")]
            Key::Aarch64Aes(t, k) => aarch64_aes::crypt_blocks::<ENC>(*t, k, blocks),
        }
    }
}

/// The AES-NI block cipher, forward (`ENC`) or inverse.
#[cfg(target_arch = "x86_64")]
fn aesni_blocks<const ENC: bool>(
    t: tessera_cpu::X86AesClmul,
    k: &x86_aesni::Key,
    blocks: &mut [[u8; 16]],
) {
    if ENC {
        x86_aesni::encrypt_blocks(t, k, blocks)
    } else {
        x86_aesni::decrypt_blocks(t, k, blocks)
    }
}
