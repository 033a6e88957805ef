//! The block-level cores of the `digest` hashers (`digest::block_api`): chaining value, block
//! count and the backend chosen when the core was created. `UpdateCore::update_blocks` hands all
//! the blocks it is given to the backend in one call (one dispatch, the backend's block loop);
//! `FixedOutputCore` pads the buffered tail and compresses it in one more call.
//!
//! These are what `hmac::Hmac<D>` (through `EagerHash`) and `digest::block_api::CoreProxy`
//! users see; code hashing data uses the wrappers in [`crate::digest`].
#![forbid(unsafe_code)]

use core::fmt;

use ::digest::array::Array;
use ::digest::block_api::{
    AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, Eager, FixedOutputCore,
    OutputSizeUser, Reset, UpdateCore,
};
use ::digest::common::hazmat::{DeserializeStateError, SerializableState, SerializedState};
use ::digest::consts::{U28, U32, U40, U48, U64, U80, U128};
use ::digest::{HashMarker, Output};
use tessera_cpu::BackendSet;
use zeroize::Zeroize;

use crate::backend::{Sha256Backend, Sha512Backend};
use crate::block::{Compress, Finish, State, Table};
use crate::consts;
use crate::md::Family;

/// One core type per hash: `$w` words, `$bs` block size, `$out` digest size, `$ser` serialized
/// size (8 words and the block count as a `$count`, both little-endian: the layout of RustCrypto
/// sha2 0.11's cores, so serialized states move between the two).
macro_rules! core {
    ($(#[$doc:meta])* $core:ident, $name:literal, $table:ty, $w:ty, $iv:path, $bs:ty, $out:ty,
     $ser:ty, $count:ty) => {
        $(#[$doc])*
        ///
        /// The chaining value is wiped when the core drops.
        #[derive(Clone)]
        pub struct $core {
            state: State<<$table as Table>::Fam>,
            /// Whole blocks compressed so far.
            blocks: u64,
            backend: $table,
        }

        impl $core {
            /// A fresh core on `backend` (one of `all_available()` of the table). For tests and
            /// benches: `Default` picks the best backend of this CPU.
            #[doc(hidden)]
            #[inline]
            pub fn new_with_backend(backend: $table) -> Self {
                Self { state: $iv, blocks: 0, backend }
            }

            /// The backend this core runs on (for tests and benches).
            #[doc(hidden)]
            pub fn backend(&self) -> $table {
                self.backend
            }
        }

        impl Default for $core {
            #[inline]
            fn default() -> Self {
                Self::new_with_backend(<$table as BackendSet>::detect())
            }
        }

        impl HashMarker for $core {}

        impl BlockSizeUser for $core {
            type BlockSize = $bs;
        }

        impl BufferKindUser for $core {
            type BufferKind = Eager;
        }

        impl OutputSizeUser for $core {
            type OutputSize = $out;
        }

        impl UpdateCore for $core {
            /// All of `blocks` in one backend call (the backend's block loop keeps the chaining
            /// value in registers from the first block to the last).
            #[inline]
            fn update_blocks(&mut self, blocks: &[Block<Self>]) {
                if blocks.is_empty() {
                    return;
                }
                self.blocks = self.blocks.wrapping_add(blocks.len() as u64);
                let blocks = Array::cast_slice_to_core(blocks).as_flattened();
                self.backend.dispatch(Compress::<_, false> { state: &mut self.state, blocks });
            }
        }

        impl FixedOutputCore for $core {
            #[inline]
            fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
                let block = <<$table as Table>::Fam as Family>::BLOCK as u64;
                let prefix = self.blocks.wrapping_mul(block);
                self.backend.dispatch(Finish {
                    state: &mut self.state,
                    data: buffer.get_data(),
                    prefix,
                });
                // Big-endian words; SHA-512/224 ends on half a word.
                for (c, w) in out.chunks_mut(size_of::<$w>()).zip(self.state.iter()) {
                    c.copy_from_slice(&w.to_be_bytes()[..c.len()]);
                }
            }
        }

        impl Reset for $core {
            /// Back to the initial value, on the same backend (the old state is wiped).
            #[inline]
            fn reset(&mut self) {
                *self = Self::new_with_backend(self.backend);
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

        impl Drop for $core {
            fn drop(&mut self) {
                self.state.zeroize();
                self.blocks = 0;
            }
        }

        impl zeroize::ZeroizeOnDrop for $core {}

        impl SerializableState for $core {
            type SerializedStateSize = $ser;

            fn serialize(&self) -> SerializedState<Self> {
                let mut res = SerializedState::<Self>::default();
                let (words, count) = res.split_at_mut(8 * size_of::<$w>());
                for (c, w) in words.chunks_exact_mut(size_of::<$w>()).zip(self.state.iter()) {
                    c.copy_from_slice(&w.to_le_bytes());
                }
                count.copy_from_slice(&<$count>::from(self.blocks).to_le_bytes());
                res
            }

            /// Restores a state on the best backend of this CPU. A block count whose byte
            /// length does not fit in 64 bits (beyond what this crate's length field counts)
            /// is an error.
            fn deserialize(
                serialized: &SerializedState<Self>,
            ) -> Result<Self, DeserializeStateError> {
                let (words, count) = serialized.split_at(8 * size_of::<$w>());
                let mut state = $iv;
                for (w, c) in state.iter_mut().zip(words.chunks_exact(size_of::<$w>())) {
                    let mut b = [0u8; size_of::<$w>()];
                    b.copy_from_slice(c);
                    *w = <$w>::from_le_bytes(b);
                }
                let mut b = [0u8; size_of::<$count>()];
                b.copy_from_slice(count);
                let blocks = u64::try_from(<$count>::from_le_bytes(b))
                    .ok()
                    .filter(|n| {
                        n.checked_mul(<<$table as Table>::Fam as Family>::BLOCK as u64).is_some()
                    })
                    .ok_or(DeserializeStateError)?;
                let mut core = Self::default();
                core.state = state;
                core.blocks = blocks;
                state.zeroize();
                Ok(core)
            }
        }
    };
}

core!(
    /// The SHA-224 block-level core.
    Sha224Core, "Sha224", Sha256Backend, u32, consts::IV224, U64, U28, U40, u64);
core!(
    /// The SHA-256 block-level core.
    Sha256Core, "Sha256", Sha256Backend, u32, consts::IV256, U64, U32, U40, u64);
core!(
    /// The SHA-384 block-level core.
    Sha384Core, "Sha384", Sha512Backend, u64, consts::IV384, U128, U48, U80, u128);
core!(
    /// The SHA-512 block-level core.
    Sha512Core, "Sha512", Sha512Backend, u64, consts::IV512, U128, U64, U80, u128);
core!(
    /// The SHA-512/224 block-level core.
    Sha512_224Core, "Sha512_224", Sha512Backend, u64, consts::IV512_224, U128, U28, U80, u128);
core!(
    /// The SHA-512/256 block-level core.
    Sha512_256Core, "Sha512_256", Sha512Backend, u64, consts::IV512_256, U128, U32, U80, u128);
