//! aarch64 backend: four 64-bit limbs ([`crate::fe64`]), products by MUL/UMULH and carries by
//! ADDS/ADCS as LLVM compiles the `u128` arithmetic, implemented on the [`Aarch64Neon`] token so
//! that the generic ladder and Edwards arithmetic compile into its row's island. (NEON gives no
//! gain for a single scalar multiplication here: the ladder is one serial dependency chain of
//! 64x64-bit products.)
#![forbid(unsafe_code)]

use tessera_cpu::Aarch64Neon;

crate::fe64::impl_field_fe64!(Aarch64Neon);
