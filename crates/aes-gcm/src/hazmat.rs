//! The raw AES block cipher (FIPS 197), for other crates' modes. Most users want the AEADs.

#![forbid(unsafe_code)]

use crate::backend::{self, Backend};

macro_rules! cipher {
    ($(#[$doc:meta])* $name:ident, $n:literal) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name {
            key: backend::Key,
        }

        impl $name {
            /// Expands a key for the best backend of this CPU.
            pub fn new(key: &[u8; $n]) -> Self {
                Self::new_with_backend(Backend::detect(), key)
            }

            /// Expands a key for a given backend (tests and benches).
            pub fn new_with_backend(backend: Backend, key: &[u8; $n]) -> Self {
                Self { key: backend::Key::new(backend, key) }
            }

            /// The backend this key was expanded for.
            pub fn backend(&self) -> Backend {
                self.key.backend()
            }

            /// Encrypts one block in place.
            pub fn encrypt_block(&self, block: &mut [u8; 16]) {
                self.key.encrypt_blocks(core::slice::from_mut(block));
            }

            /// Decrypts one block in place.
            pub fn decrypt_block(&self, block: &mut [u8; 16]) {
                self.key.decrypt_blocks(core::slice::from_mut(block));
            }

            /// Encrypts many independent blocks in place (ECB; several in flight).
            pub fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
                self.key.encrypt_blocks(blocks);
            }

            /// Decrypts many independent blocks in place.
            pub fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
                self.key.decrypt_blocks(blocks);
            }
        }

        impl zeroize::ZeroizeOnDrop for $name {}

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                self.key.fmt_debug(stringify!($name), f)
            }
        }
    };
}

cipher!(
    /// AES-128 block cipher.
    ///
    /// ```
    /// use tessera_aes_gcm::hazmat::Aes128;
    /// // FIPS 197 appendix C.1
    /// let aes = Aes128::new(&core::array::from_fn(|i| i as u8));
    /// let mut b: [u8; 16] = core::array::from_fn(|i| i as u8 * 0x11);
    /// aes.encrypt_block(&mut b);
    /// assert_eq!(b[..4], [0x69, 0xc4, 0xe0, 0xd8]);
    /// aes.decrypt_block(&mut b);
    /// assert_eq!(b[1], 0x11);
    /// ```
    Aes128, 16
);
cipher!(
    /// AES-192 block cipher.
    Aes192, 24
);
cipher!(
    /// AES-256 block cipher.
    Aes256, 32
);
