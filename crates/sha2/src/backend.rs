//! The backend tables. SHA-224/256 and SHA-384/512 have one table each; a hasher picks a row
//! when it is created ([`Sha256Backend::detect`], [`Sha512Backend::detect`]) and keeps it.
//!
//! Every backend module has the same four entry points, `compress`, `compress_secret`,
//! `oneshot` and `hmac` (see [`Family`]); an ISA file writes its block function and generates
//! them with [`islands!`] as `tessera_cpu::island!`s taking the row's capability token. The
//! dispatch below is plain safe code.

use crate::engine::Family;

/// The entry points of an ISA backend file, generated from its block function (compiled for
/// `$token` with `tessera_cpu::with_features!`) around the generic engine:
/// - `block: f` compresses an in-memory chaining value; `secret: g` is the wiping block
///   function (key-derived input) where it differs from `f`.
/// - `regs: (Regs, load, compress_regs, store)` keeps the chaining value in registers
///   (`Regs`) from the first block of an operation to the last; such a block function keeps
///   its message schedule in vector registers, so it is its own wiping function.
/// - `hmac: generic` is the generic one-pass HMAC on the wiping block function; `hmac: own`
///   leaves the `hmac` island to the file.
// Used by the x86_64 and aarch64 backend files only.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(unused_macros)
)]
macro_rules! islands {
    (
        $token:ident, $family:ident, $w:ty;
        regs: ($regs:ty, $load:ident, $compress:ident, $store:ident),
        hmac: $hmac:ident $(,)?
    ) => {
        tessera_cpu::with_features! { $token;
            /// Compression of whole blocks of an in-memory chaining value.
            #[inline]
            fn compress_mem(state: &mut [$w; 8], blocks: &[u8]) {
                let mut regs = $load(state);
                $compress(&mut regs, blocks);
                $store(&regs, state);
            }
        }
        $crate::backend::islands!(@compress $token, $w, compress_mem);
        /// The wiping block function is [`compress`]: the message schedule stays in vector
        /// registers, with no stack array to wipe.
        #[inline]
        pub(super) fn compress_secret(t: tessera_cpu::$token, state: &mut [$w; 8], blocks: &[u8]) {
            compress(t, state, blocks)
        }
        tessera_cpu::island! {
            /// The one-shot hash after `prefix` compressed bytes, with the chaining value in
            /// registers from the first block to the last.
            pub(super) fn oneshot(_t: $token, state: &mut [$w; 8], data: &[u8], prefix: u64) {
                let mut regs = $load(state);
                let compress = |r: &mut $regs, b: &[u8]| $compress(r, b);
                $crate::engine::oneshot::<$family, _, false>(compress, &mut regs, data, prefix);
                $store(&regs, state);
            }
        }
        $crate::backend::islands!(@hmac $hmac, $token, $family, $w, compress_mem);
    };
    (
        $token:ident, $family:ident, $w:ty;
        block: $block:path,
        $(secret: $secret:path,)?
        hmac: $hmac:ident $(,)?
    ) => {
        $crate::backend::islands!(@compress $token, $w, $block);
        $crate::backend::islands!(@secret $token, $w, [$($secret)?]);
        tessera_cpu::island! {
            /// The one-shot hash after `prefix` compressed bytes (the generic one on this
            /// backend's block function).
            pub(super) fn oneshot(_t: $token, state: &mut [$w; 8], data: &[u8], prefix: u64) {
                let compress = |s: &mut [$w; 8], b: &[u8]| $block(s, b);
                $crate::engine::oneshot::<$family, _, false>(compress, state, data, prefix)
            }
        }
        $crate::backend::islands!(@hmac $hmac, $token, $family, $w, [$($secret)?], $block);
    };
    (@compress $token:ident, $w:ty, $block:path) => {
        tessera_cpu::island! {
            /// Compression of whole blocks.
            pub(super) fn compress(_t: $token, state: &mut [$w; 8], blocks: &[u8]) {
                $block(state, blocks)
            }
        }
    };
    (@secret $token:ident, $w:ty, [$secret:path]) => {
        tessera_cpu::island! {
            /// The same for key-derived input (HMAC key setup and the HMAC hashes), with the
            /// wiping block function.
            pub(super) fn compress_secret(_t: $token, state: &mut [$w; 8], blocks: &[u8]) {
                $secret(state, blocks)
            }
        }
    };
    (@secret $token:ident, $w:ty, []) => {
        /// The wiping block function is [`compress`]: the message schedule stays in vector
        /// registers, with no stack array to wipe.
        #[inline]
        pub(super) fn compress_secret(t: tessera_cpu::$token, state: &mut [$w; 8], blocks: &[u8]) {
            compress(t, state, blocks)
        }
    };
    (@hmac own, $($rest:tt)*) => {};
    (@hmac generic, $token:ident, $family:ident, $w:ty, [$secret:path], $block:path) => {
        $crate::backend::islands!(@hmac generic, $token, $family, $w, $secret);
    };
    (@hmac generic, $token:ident, $family:ident, $w:ty, [], $block:path) => {
        $crate::backend::islands!(@hmac generic, $token, $family, $w, $block);
    };
    (@hmac generic, $token:ident, $family:ident, $w:ty, $secret:path) => {
        tessera_cpu::island! {
            /// HMAC from the key states (the generic one-pass HMAC on the wiping block
            /// function).
            pub(super) fn hmac(
                _t: $token,
                ipad: &[$w; 8],
                opad: &[$w; 8],
                msg: &[u8],
                words: usize,
                out: &mut [$w; 8],
            ) {
                let compress = |s: &mut [$w; 8], b: &[u8]| $secret(s, b);
                $crate::engine::hmac::<$family>(compress, ipad, opad, msg, words, out)
            }
        }
    };
}
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(unused_imports)
)]
pub(crate) use islands;

/// A family's backend table (`tessera_cpu::backends!`) and its [`Family`] implementation: each
/// operation is dispatched to the entry point of the same name in the module named after
/// `=>` on the row.
macro_rules! family {
    (
        $(#[$m:meta])*
        pub enum $enum:ident: $w:ty, block $block:literal, length $len:literal {
            $(#[doc = $pd:literal])*
            Portable = $pname:literal => portable::$p:ident,
            $(
                $(#[doc = $d:literal])*
                #[cfg($c:meta)]
                $variant:ident($token:ident) = $name:literal => $module:ident,
            )*
        }
    ) => {
        tessera_cpu::backends! {
            $(#[$m])*
            pub enum $enum {
                $(#[doc = $pd])*
                Portable = $pname,
                $(
                    $(#[doc = $d])*
                    #[cfg($c)]
                    $variant($token) = $name,
                )*
            }
        }

        impl Family for $enum {
            type Word = $w;
            type Block = [u8; $block];
            const BLOCK: usize = $block;
            const LEN_BYTES: usize = $len;
            const ZERO: [u8; $block] = [0; $block];
            type Tail = [u8; 2 * $block];
            const ZERO_TAIL: [u8; 2 * $block] = [0; 2 * $block];

            #[inline]
            fn compress(self, state: &mut [$w; 8], blocks: &[u8]) {
                match self {
                    Self::Portable => portable::$p::compress(state, blocks),
                    $(#[cfg($c)] Self::$variant(t) => $module::compress(t, state, blocks),)*
                }
            }

            #[inline]
            fn compress_secret(self, state: &mut [$w; 8], blocks: &[u8]) {
                match self {
                    Self::Portable => portable::$p::compress_secret(state, blocks),
                    $(#[cfg($c)] Self::$variant(t) => $module::compress_secret(t, state, blocks),)*
                }
            }

            #[inline]
            fn oneshot(self, state: &mut [$w; 8], data: &[u8], prefix: u64) {
                match self {
                    Self::Portable => portable::$p::oneshot(state, data, prefix),
                    $(#[cfg($c)] Self::$variant(t) => $module::oneshot(t, state, data, prefix),)*
                }
            }

            #[inline]
            fn hmac(self, ipad: &[$w; 8], opad: &[$w; 8], msg: &[u8], n: usize, out: &mut [$w; 8]) {
                match self {
                    Self::Portable => portable::$p::hmac(ipad, opad, msg, n, out),
                    $(#[cfg($c)] Self::$variant(t) => $module::hmac(t, ipad, opad, msg, n, out),)*
                }
            }
        }
    };
}

#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
mod aarch64_sha2;
#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
mod aarch64_sha3;
mod portable;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86_avx2_bmi;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86_shani;

family! {
    /// The SHA-224/256 backends (for tests and benches; not a stable API).
    pub enum Sha256Backend: u32, block 64, length 8 {
        /// Plain Rust.
        Portable = "portable" => portable::sha256,
        /// x86_64 SHA extensions (SHA256RNDS2/MSG1/MSG2).
        #[cfg(target_arch = "x86_64")]
        X86ShaNi(X86ShaNi) = "x86_shani" => x86_shani,
        /// aarch64 SHA-256 extension (SHA256H/H2/SU0/SU1).
        #[cfg(target_arch = "aarch64")]
        Aarch64Sha2(Aarch64Sha2) = "aarch64_sha2" => aarch64_sha2,
    }
}

family! {
    /// The SHA-384/512 backends (for tests and benches; not a stable API).
    pub enum Sha512Backend: u64, block 128, length 16 {
        /// Plain Rust.
        Portable = "portable" => portable::sha512,
        /// x86_64 AVX2 message schedule with BMI1/BMI2 (RORX) rounds.
        #[cfg(target_arch = "x86_64")]
        X86Avx2Bmi(X86Avx2Bmi) = "x86_avx2_bmi" => x86_avx2_bmi,
        /// aarch64 SHA-512 extension (SHA512H/H2/SU0/SU1; part of the `Aarch64Sha3` token).
        #[cfg(target_arch = "aarch64")]
        Aarch64Sha3(Aarch64Sha3) = "aarch64_sha3" => aarch64_sha3,
    }
}
