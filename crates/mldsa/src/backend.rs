//! Backend table and dispatch: each public ML-DSA operation is one match on [`Backend`] that
//! calls the generic code (`crate::dsa`) instantiated with that backend's
//! [`Unit`](crate::unit::Unit) (inside one target-feature island for SIMD backends, when one
//! is added).
#![forbid(unsafe_code)]

pub(crate) mod portable;

use crate::dsa::{self, Params, SkState, VkState};
use portable::P8;
use tessera_keccak::X1Backend;

tessera_cpu::backends! {
    /// The ML-DSA backends. Chosen when a key is built (`from_seed`, `from_bytes`, ...) and kept
    /// in the key. Public only for tests and benches (`#[doc(hidden)]`, not a stable API).
    pub enum Backend {
        /// Plain Rust (i32/i64), portable Keccak.
        Portable = "portable",
    }
}

impl Backend {
    /// The Keccak backend this ML-DSA backend hashes with (portable ML-DSA: portable Keccak).
    fn x1(self) -> X1Backend {
        match self {
            Backend::Portable => X1Backend::Portable,
        }
    }

    /// H (SHAKE256) of the concatenation of `parts` on this backend's Keccak.
    pub(crate) fn h(self, parts: &[&[u8]], out: &mut [u8]) {
        dsa::h(self.x1(), parts, out)
    }

    /// ML-DSA.KeyGen_internal (see [`dsa::keygen`]).
    pub(crate) fn keygen<P: Params, const K: usize, const L: usize>(
        self,
        xi: &[u8; 32],
        pk: &mut [u8],
        sk_bytes: &mut [u8],
        vk: &mut VkState<K, L>,
        sk: &mut SkState<K, L>,
    ) {
        let x1 = self.x1();
        match self {
            Backend::Portable => dsa::keygen::<P8, P, K, L>((), x1, xi, pk, sk_bytes, vk, sk),
        }
    }

    /// pkDecode and expansion (see [`dsa::parse_pk`]).
    pub(crate) fn parse_pk<const K: usize, const L: usize>(
        self,
        pk: &[u8],
        vk: &mut VkState<K, L>,
    ) {
        let x1 = self.x1();
        match self {
            Backend::Portable => dsa::parse_pk::<P8, K, L>((), x1, pk, vk),
        }
    }

    /// skDecode with its checks (see [`dsa::parse_sk`]).
    pub(crate) fn parse_sk<P: Params, const K: usize, const L: usize>(
        self,
        sk_bytes: &[u8],
        pk: &mut [u8],
        vk: &mut VkState<K, L>,
        sk: &mut SkState<K, L>,
    ) -> bool {
        let x1 = self.x1();
        match self {
            Backend::Portable => dsa::parse_sk::<P8, P, K, L>((), x1, sk_bytes, pk, vk, sk),
        }
    }

    /// ML-DSA.Sign_internal from mu (see [`dsa::sign`]).
    pub(crate) fn sign<P: Params, const K: usize, const L: usize>(
        self,
        vk: &VkState<K, L>,
        sk: &SkState<K, L>,
        mu: &[u8; 64],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> bool {
        let x1 = self.x1();
        match self {
            Backend::Portable => dsa::sign::<P8, P, K, L>((), x1, vk, sk, mu, rnd, sig),
        }
    }

    /// ML-DSA.Verify_internal from mu (see [`dsa::verify`]).
    pub(crate) fn verify<P: Params, const K: usize, const L: usize>(
        self,
        vk: &VkState<K, L>,
        mu: &[u8; 64],
        sig: &[u8],
    ) -> bool {
        let x1 = self.x1();
        match self {
            Backend::Portable => dsa::verify::<P8, P, K, L>((), x1, vk, mu, sig),
        }
    }

    /// One vector-trait operation over a polynomial (equivalence tests).
    #[cfg(tessera_test_hooks)]
    pub(crate) fn run_op(
        self,
        op: crate::testing::Op,
        a: &crate::poly::Poly,
        b: &crate::poly::Poly,
        bytes: &[u8],
        out: &mut crate::testing::OpOut,
    ) {
        match self {
            Backend::Portable => crate::testing::apply::<P8>((), op, a, b, bytes, out),
        }
    }
}
