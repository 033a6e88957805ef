//! Backend table and dispatch: each public ML-KEM operation is one match on [`Backend`] that
//! calls the generic code (`crate::kem`) instantiated with that backend's [`Unit`](crate::unit::Unit),
//! inside one target-feature island for SIMD backends.
// Only the SIMD backend files may hold `unsafe` (pointer loads and stores); the portable one
// forbids it itself.
#![allow(unsafe_code)]

/// The islands every SIMD backend file compiles for its token `$tok` and unit type `$unit`
/// (`$what` names the backend in their docs): the NTT and inverse NTT (compiled once, called
/// from the other islands), the K-PKE / ML-KEM operations the dispatch in this file calls, and
/// the per-operation island of the equivalence tests. Written once here so the backends differ
/// only in their units.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! simd_islands {
    ($tok:ident, $unit:ty, $what:literal) => {
        tessera_cpu::island! {
            #[doc = concat!("The NTT on ", $what, " units, compiled once (called from this backend's islands).")]
            fn ntt_poly(t: $tok, p: &mut $crate::poly::Poly) {
                $crate::poly::ntt::<$unit>(t, p)
            }
        }

        tessera_cpu::island! {
            #[doc = concat!("The inverse NTT on ", $what, " units, compiled once.")]
            fn invntt_poly(t: $tok, p: &mut $crate::poly::Poly) {
                $crate::poly::invntt::<$unit>(t, p)
            }
        }

        tessera_cpu::island! {
            #[doc = concat!("ML-KEM.KeyGen_internal's K-PKE part on ", $what, " (see `kem::keygen`).")]
            pub(crate) fn keygen<const K: usize, const ETA1: usize>(
                t: $tok,
                hs: $crate::kem::Hashes,
                d: &[u8; 32],
                ek: &mut [u8],
                st: &mut $crate::kem::EkState<K>,
                s_hat: &mut [$crate::poly::Poly; K],
            ) {
                $crate::kem::keygen::<$unit, K, ETA1>(t, hs, d, ek, st, s_hat)
            }
        }

        tessera_cpu::island! {
            #[doc = concat!("Encapsulation-key parsing and ExpandA on ", $what, ".")]
            pub(crate) fn parse_ek<const K: usize>(
                t: $tok,
                ek: &[u8],
                st: &mut $crate::kem::EkState<K>,
            ) -> bool {
                $crate::kem::parse_ek::<$unit, K>(t, ek, st)
            }
        }

        tessera_cpu::island! {
            #[doc = concat!("s-hat encoding on ", $what, ".")]
            pub(crate) fn encode_s<const K: usize>(
                t: $tok,
                s_hat: &[$crate::poly::Poly; K],
                out: &mut [u8],
            ) {
                $crate::kem::encode_s::<$unit, K>(t, s_hat, out)
            }
        }

        tessera_cpu::island! {
            #[doc = concat!("s-hat decoding on ", $what, ".")]
            pub(crate) fn decode_s<const K: usize>(
                t: $tok,
                bytes: &[u8],
                s_hat: &mut [$crate::poly::Poly; K],
            ) {
                $crate::kem::decode_s::<$unit, K>(t, bytes, s_hat)
            }
        }

        tessera_cpu::island! {
            #[doc = concat!("ML-KEM.Encaps_internal on ", $what, ".")]
            pub(crate) fn encaps<const K: usize, const ETA1: usize, const DU: u32, const DV: u32>(
                t: $tok,
                hs: $crate::kem::Hashes,
                st: &$crate::kem::EkState<K>,
                m: &[u8; 32],
                ct: &mut [u8],
            ) -> [u8; 32] {
                $crate::kem::encaps::<$unit, K, ETA1, DU, DV>(t, hs, st, m, ct)
            }
        }

        tessera_cpu::island! {
            #[doc = concat!("ML-KEM.Decaps_internal on ", $what, ".")]
            pub(crate) fn decaps<const K: usize, const ETA1: usize, const DU: u32, const DV: u32>(
                t: $tok,
                hs: $crate::kem::Hashes,
                st: &$crate::kem::EkState<K>,
                s_hat: &[$crate::poly::Poly; K],
                z: &[u8; 32],
                ct: &[u8],
            ) -> [u8; 32] {
                $crate::kem::decaps::<$unit, K, ETA1, DU, DV>(t, hs, st, s_hat, z, ct)
            }
        }

        #[cfg(tessera_test_hooks)]
        tessera_cpu::island! {
            #[doc = concat!("One vector-trait operation over a polynomial on ", $what, " (equivalence tests).")]
            pub(crate) fn run_op(
                t: $tok,
                op: $crate::testing::Op,
                a: &$crate::poly::Poly,
                b: &$crate::poly::Poly,
                bytes: &[u8],
                out: &mut $crate::testing::OpOut,
            ) {
                $crate::testing::apply::<$unit>(t, op, a, b, bytes, out)
            }
        }
    };
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use tessera_cpu::wipe_wide;

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64_neon;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_avx2;

use crate::kem::{self, EkState, Hashes};
use crate::poly::Poly;
use portable::P16;
use tessera_keccak::X1Backend;

tessera_cpu::backends! {
    /// The ML-KEM backends. Chosen when a key is built (`from_seed`, `from_bytes`, ...) and kept
    /// in the key. Public only for tests and benches (`#[doc(hidden)]`, not a stable API).
    pub enum Backend {
        /// Plain Rust (i16/i32), portable Keccak.
        Portable = "portable",
        /// AVX2: 16 x i16 per ymm register, x4 Keccak (AVX2) for the samplers.
        #[cfg(target_arch = "x86_64")]
        X86Avx2(X86Avx2) = "x86_avx2",
        /// NEON: a unit is two registers of 8 x i16, x4 Keccak (NEON, two x2) for the samplers.
        #[cfg(target_arch = "aarch64")]
        Aarch64Neon(Aarch64Neon) = "aarch64_neon",
    }
}

impl Backend {
    /// The Keccak backends this ML-KEM backend hashes with.
    fn hashes(self) -> Hashes {
        match self {
            Backend::Portable => Hashes {
                x1: X1Backend::Portable,
            },
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(_) => Hashes {
                x1: X1Backend::detect(),
            },
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(_) => Hashes {
                x1: X1Backend::detect(),
            },
        }
    }

    /// FIPS 203 ML-KEM.KeyGen_internal, K-PKE part (see [`kem::keygen`]), plus H(ek).
    pub(crate) fn keygen<const K: usize, const ETA1: usize>(
        self,
        d: &[u8; 32],
        ek: &mut [u8],
        st: &mut EkState<K>,
        s_hat: &mut [Poly; K],
    ) {
        let hs = self.hashes();
        match self {
            Backend::Portable => {
                kem::keygen::<P16, K, ETA1>((), hs, d, ek, st, s_hat);
            }
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::keygen::<K, ETA1>(t, hs, d, ek, st, s_hat),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::keygen::<K, ETA1>(t, hs, d, ek, st, s_hat),
        }
        st.h = hs.h(ek);
    }

    /// Parses and expands an encapsulation key (section 7.2 check) and sets H(ek).
    pub(crate) fn parse_ek<const K: usize>(self, ek: &[u8], st: &mut EkState<K>) -> bool {
        let hs = self.hashes();
        let ok = match self {
            Backend::Portable => kem::parse_ek::<P16, K>((), ek, st),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::parse_ek::<K>(t, ek, st),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::parse_ek::<K>(t, ek, st),
        };
        if ok {
            st.h = hs.h(ek);
        }
        ok
    }

    /// Encodes s-hat (384 K bytes).
    pub(crate) fn encode_s<const K: usize>(self, s_hat: &[Poly; K], out: &mut [u8]) {
        match self {
            Backend::Portable => kem::encode_s::<P16, K>((), s_hat, out),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::encode_s::<K>(t, s_hat, out),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::encode_s::<K>(t, s_hat, out),
        }
    }

    /// Decodes s-hat (384 K bytes, mod q).
    pub(crate) fn decode_s<const K: usize>(self, bytes: &[u8], s_hat: &mut [Poly; K]) {
        match self {
            Backend::Portable => kem::decode_s::<P16, K>((), bytes, s_hat),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::decode_s::<K>(t, bytes, s_hat),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::decode_s::<K>(t, bytes, s_hat),
        }
    }

    /// ML-KEM.Encaps_internal.
    pub(crate) fn encaps<const K: usize, const ETA1: usize, const DU: u32, const DV: u32>(
        self,
        st: &EkState<K>,
        m: &[u8; 32],
        ct: &mut [u8],
    ) -> [u8; 32] {
        let hs = self.hashes();
        match self {
            Backend::Portable => kem::encaps::<P16, K, ETA1, DU, DV>((), hs, st, m, ct),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::encaps::<K, ETA1, DU, DV>(t, hs, st, m, ct),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::encaps::<K, ETA1, DU, DV>(t, hs, st, m, ct),
        }
    }

    /// ML-KEM.Decaps_internal.
    pub(crate) fn decaps<const K: usize, const ETA1: usize, const DU: u32, const DV: u32>(
        self,
        st: &EkState<K>,
        s_hat: &[Poly; K],
        z: &[u8; 32],
        ct: &[u8],
    ) -> [u8; 32] {
        let hs = self.hashes();
        match self {
            Backend::Portable => kem::decaps::<P16, K, ETA1, DU, DV>((), hs, st, s_hat, z, ct),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::decaps::<K, ETA1, DU, DV>(t, hs, st, s_hat, z, ct),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => {
                aarch64_neon::decaps::<K, ETA1, DU, DV>(t, hs, st, s_hat, z, ct)
            }
        }
    }

    /// One vector-trait operation over a polynomial (equivalence tests).
    #[cfg(tessera_test_hooks)]
    pub(crate) fn run_op(
        self,
        op: crate::testing::Op,
        a: &Poly,
        b: &Poly,
        bytes: &[u8],
        out: &mut crate::testing::OpOut,
    ) {
        match self {
            Backend::Portable => crate::testing::apply::<P16>((), op, a, b, bytes, out),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2(t) => x86_avx2::run_op(t, op, a, b, bytes, out),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon(t) => aarch64_neon::run_op(t, op, a, b, bytes, out),
        }
    }
}
