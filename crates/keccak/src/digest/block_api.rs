//! The block-level cores of the SHA-3 `digest` hashers (`digest::block_api`): a sponge at a
//! block boundary on the backend chosen when the core was created. `UpdateCore::update_blocks`
//! absorbs all the blocks it is given in one backend call (the backend's block loop);
//! `FixedOutputCore` absorbs the buffered tail, pads and squeezes.
//!
//! These make the hashers `EagerHash`, so `hmac::Hmac<Sha3_256>` (not only `SimpleHmac`) takes
//! them; code hashing data uses the wrappers in [`crate::digest`].
#![forbid(unsafe_code)]

use core::fmt;

use ::digest::array::Array;
use ::digest::block_api::{
    AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, Eager, FixedOutputCore,
    OutputSizeUser, Reset, UpdateCore,
};
use ::digest::common::hazmat::{DeserializeStateError, SerializableState, SerializedState};
use ::digest::consts::{U28, U32, U48, U64, U72, U104, U136, U144, U200};
use ::digest::{HashMarker, Output};

use zeroize::Zeroize;

use crate::backend::X1Backend;
use crate::sponge::Sponge;

/// SHA-3's domain bits and first padding bit (FIPS 202 section 6.1).
const SHA3_DS: u8 = 0x06;

macro_rules! core {
    ($(#[$doc:meta])* $core:ident, $name:literal, $rate:ty, $out:ty, $n:literal) => {
        $(#[$doc])*
        ///
        /// The state is wiped when the core drops.
        #[derive(Clone)]
        pub struct $core(Sponge);

        impl $core {
            /// A fresh core on `backend` (tests and benches; `Default` picks the best backend
            /// of this CPU).
            #[doc(hidden)]
            #[inline]
            pub fn new_with_backend(backend: X1Backend) -> Self {
                Self(Sponge::new(200 - 2 * $n, 24, backend))
            }
        }

        impl Default for $core {
            #[inline]
            fn default() -> Self {
                Self::new_with_backend(X1Backend::detect())
            }
        }

        impl HashMarker for $core {}

        impl BlockSizeUser for $core {
            type BlockSize = $rate;
        }

        impl BufferKindUser for $core {
            type BufferKind = Eager;
        }

        impl OutputSizeUser for $core {
            type OutputSize = $out;
        }

        impl UpdateCore for $core {
            /// All of `blocks` in one backend call (the sponge is at a block boundary).
            #[inline]
            fn update_blocks(&mut self, blocks: &[Block<Self>]) {
                self.0.absorb(Array::cast_slice_to_core(blocks).as_flattened());
            }
        }

        impl FixedOutputCore for $core {
            #[inline]
            fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
                self.0.absorb(buffer.get_data());
                self.0.pad(SHA3_DS);
                self.0.squeeze(out);
            }
        }

        impl Reset for $core {
            /// Back to the empty state, on the same backend (the old state is wiped).
            #[inline]
            fn reset(&mut self) {
                self.0.reset();
            }
        }

        impl AlgorithmName for $core {
            fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str($name)
            }
        }

        impl fmt::Debug for $core {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!(stringify!($core), " { ... }"))
            }
        }

        impl zeroize::ZeroizeOnDrop for $core {}

        impl SerializableState for $core {
            /// The 25 lanes, little-endian (the core is always at a block boundary).
            type SerializedStateSize = U200;

            fn serialize(&self) -> SerializedState<Self> {
                let mut res = SerializedState::<Self>::default();
                for (c, l) in res.chunks_exact_mut(8).zip(self.0.lanes()) {
                    c.copy_from_slice(&l.to_le_bytes());
                }
                res
            }

            /// Restores a state on the best backend of this CPU (every 200-byte string is a
            /// state).
            fn deserialize(
                serialized: &SerializedState<Self>,
            ) -> Result<Self, DeserializeStateError> {
                let mut lanes = [0u64; 25];
                for (l, c) in lanes.iter_mut().zip(serialized.chunks_exact(8)) {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(c);
                    *l = u64::from_le_bytes(b);
                }
                let mut core = Self::default();
                core.0.set_lanes(&lanes);
                lanes.zeroize();
                Ok(core)
            }
        }
    };
}

core!(
    /// The SHA3-224 block-level core.
    Sha3_224Core, "Sha3_224", U144, U28, 28);
core!(
    /// The SHA3-256 block-level core.
    Sha3_256Core, "Sha3_256", U136, U32, 32);
core!(
    /// The SHA3-384 block-level core.
    Sha3_384Core, "Sha3_384", U104, U48, 48);
core!(
    /// The SHA3-512 block-level core.
    Sha3_512Core, "Sha3_512", U72, U64, 64);
