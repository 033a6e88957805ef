//! Shared by the integration tests: the hashers' inherent API behind one trait, so one generic
//! test function serves all five.

#![allow(dead_code)]

use tessera_sha2::{Sha2, Sha224, Sha256, Sha384, Sha512, Sha512_256};

/// A hasher of this crate, by its inherent methods.
pub trait Hasher: Sha2 + Clone {
    fn new_with_backend(be: Self::Backend) -> Self;
    fn update(&mut self, data: &[u8]);
    fn finalize(&self) -> Self::Digest;
    fn digest_with_backend(be: Self::Backend, data: &[u8]) -> Self::Digest;
}

macro_rules! hasher {
    ($($h:ident),*) => {$(
        impl Hasher for $h {
            fn new_with_backend(be: Self::Backend) -> Self {
                $h::new_with_backend(be)
            }
            fn update(&mut self, data: &[u8]) {
                $h::update(self, data);
            }
            fn finalize(&self) -> Self::Digest {
                $h::finalize(self)
            }
            fn digest_with_backend(be: Self::Backend, data: &[u8]) -> Self::Digest {
                $h::digest_with_backend(be, data)
            }
        }
    )*};
}

hasher!(Sha224, Sha256, Sha384, Sha512, Sha512_256);

/// Incremental hashing of `m` on `be` in the pieces given by `cuts` (then the rest).
pub fn chunked<H: Hasher>(be: H::Backend, m: &[u8], cuts: &[usize]) -> H::Digest {
    let mut h = H::new_with_backend(be);
    let mut at = 0;
    for &c in cuts {
        let end = (at + c).min(m.len());
        h.update(&m[at..end]);
        at = end;
    }
    h.update(&m[at..]);
    h.finalize()
}
