//! aarch64 backend: four 64-bit limbs ([`super::fe64`]), products by MUL/UMULH and carries by
//! ADDS/ADCS as LLVM compiles the `u128` arithmetic, the ladder and the Edwards arithmetic in
//! one island each. (NEON gives no gain for a single scalar multiplication here: the ladder
//! is one serial dependency chain of 64x64-bit products.)
#![allow(unsafe_code)]

use tessera_cpu::Aarch64Neon;

super::fe64::impl_field_fe64!(Aarch64Neon);

tessera_cpu::island! {
    /// `X25519(k, u)`: the whole ladder in one island.
    pub(crate) fn x25519(t: Aarch64Neon, k: &[u8; 32], u: &[u8; 32]) -> [u8; 32] {
        crate::ladder::x25519(t, k, u)
    }
}

tessera_cpu::island! {
    /// `X25519(k, 9)` through the fixed-base table.
    pub(crate) fn x25519_base(t: Aarch64Neon, k: &[u8; 32]) -> [u8; 32] {
        crate::base::x25519_base(t, k)
    }
}

#[cfg(tessera_test_hooks)]
tessera_cpu::island! {
    /// One field operation (test hook; see `crate::test_hooks`).
    pub(crate) fn field_op(t: Aarch64Neon, op: u8, a: &[u64; 4], b: &[u64; 4]) -> [u8; 32] {
        super::field_op_generic(t, op, a, b)
    }
}
