//! Backend selection: ChaCha20 and Poly1305 are decided together, once, when a key object is
//! built. This file is the backend table: each row names its [`Keystream`](crate::construction::Keystream) type, and the
//! generated `Backend::run` runs an [`AeadOp`] (`crate::construction::Aead`,
//! `crate::construction::Xor`) on it, in one target-feature island per row. `unsafe` appears
//! only in the SIMD backend files, at pointer loads and stores.

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
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86_avx512_ifma;

use crate::construction::AeadOp;

tessera_cpu::backends! {
    /// A ChaCha20-Poly1305 backend, carrying the capability token that proves it can run.
    pub enum Backend {
        /// Plain Rust: the u32 block function one block at a time, Poly1305 in radix 2^64.
        Portable = "portable" => portable::Ops,
        /// x86_64 AVX-512 (F/VL) with IFMA: as `x86_avx512`, with Poly1305 in radix 2^44 on
        /// the 52-bit multiply-adds.
        #[cfg(target_arch = "x86_64")]
        X86Avx512Ifma(X86Avx512Ifma) = "x86_avx512_ifma" => x86_avx512_ifma::Ops,
        /// x86_64 AVX-512 (F/VL): sixteen blocks in flight (vertical: one word of sixteen
        /// blocks per zmm register, `vprold` rotations); tails on ymm; 8-way Poly1305 in the
        /// same loop.
        #[cfg(target_arch = "x86_64")]
        X86Avx512(X86Avx512) = "x86_avx512" => x86_avx512::Ops<tessera_cpu::X86Avx512>,
        /// x86_64 AVX2: eight blocks in flight (two per ymm register); scalar Poly1305
        /// stitched into the rounds of whole 512-byte pieces.
        #[cfg(target_arch = "x86_64")]
        X86Avx2(X86Avx2) = "x86_avx2" => x86_avx2::Ops,
        /// aarch64 NEON: four blocks in flight (one per 128-bit register); scalar Poly1305
        /// stitched into the same loop.
        #[cfg(target_arch = "aarch64")]
        Aarch64Neon(Aarch64Neon) = "aarch64_neon" => aarch64_neon::Ops,
    }
    /// Runs an operation (the AEAD, the raw keystream) on this backend.
    pub(crate) fn run: AeadOp;
}
