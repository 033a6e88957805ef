//! Backend selection: ChaCha20 and Poly1305 are decided together, once, when a key object is
//! built. This file is the backend table and its match arms; it calls only safe functions
//! (each SIMD backend's entry points are `tessera_cpu::island!`s taking its token). `unsafe`
//! appears only in the SIMD backend files, at pointer loads and stores.

#![deny(unsafe_code)]

#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
mod aarch64_neon;
mod portable;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86_avx2;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86_avx512;

use crate::construction;

tessera_cpu::backends! {
    /// A ChaCha20-Poly1305 backend, carrying the capability token that proves it can run.
    pub enum Backend {
        /// Plain Rust: the u32 block function one block at a time, Poly1305 in radix 2^64.
        Portable = "portable",
        /// x86_64 AVX-512 (F/VL) with IFMA: as `x86_avx512`, with Poly1305 in radix 2^44 on
        /// the 52-bit multiply-adds.
        #[cfg(target_arch = "x86_64")]
        X86Avx512Ifma(X86Avx512Ifma) = "x86_avx512_ifma",
        /// x86_64 AVX-512 (F/VL): sixteen blocks in flight (vertical: one word of sixteen
        /// blocks per zmm register, `vprold` rotations); tails on ymm; 8-way Poly1305 in the
        /// same loop.
        #[cfg(target_arch = "x86_64")]
        X86Avx512(X86Avx512) = "x86_avx512",
        /// x86_64 AVX2: eight blocks in flight (two per ymm register); scalar Poly1305
        /// stitched into the rounds of whole 512-byte pieces.
        #[cfg(target_arch = "x86_64")]
        X86Avx2(X86Avx2) = "x86_avx2",
        /// aarch64 NEON: four blocks in flight (one per 128-bit register); scalar Poly1305
        /// stitched into the same loop.
        #[cfg(target_arch = "aarch64")]
        Aarch64Neon(Aarch64Neon) = "aarch64_neon",
    }
}

impl Backend {
    /// The AEAD of RFC 8439 section 2.8 on this backend: seal (`SEAL`, returns the tag) or
    /// open (returns the expected tag and decrypts).
    #[inline]
    pub(crate) fn aead<const SEAL: bool>(
        self,
        key: &[u32; 8],
        nonce: &[u8; 12],
        aad: &[u8],
        buf: &mut [u8],
    ) -> [u8; 16] {
        match self {
            Backend::Portable => construction::run::<SEAL, _>(&portable::Ops, key, nonce, aad, buf),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::aead::<SEAL>(t, key, nonce, aad, buf),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx512(t) => x86_avx512::aead::<SEAL>(t, key, nonce, aad, buf),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx512Ifma(t) => x86_avx512::aead_ifma::<SEAL>(t, key, nonce, aad, buf),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::aead::<SEAL>(t, key, nonce, aad, buf),
        }
    }

    /// XORs the keystream starting at block `state[12]` into `data` (the counter must not
    /// pass `2^32 - 1`).
    #[inline]
    pub(crate) fn keystream(self, state: &[u32; 16], data: &mut [u8]) {
        use construction::Keystream;
        match self {
            Backend::Portable => portable::Ops.xor(state, data),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::keystream(t, state, data),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx512(t) => x86_avx512::keystream(t, state, data),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx512Ifma(t) => x86_avx512::keystream(t.avx512(), state, data),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::keystream(t, state, data),
        }
    }
}
