//! SHA-256/384 for the transcript hash, HMAC for the TLS 1.2 PRF, and HKDF for the TLS 1.3 key
//! schedule, all on `tessera-sha2`.
//!
//! HKDF implements [`rustls::crypto::tls13::Hkdf`] directly: an expander holds the PRK as a
//! pre-keyed HMAC (`tessera_sha2::hkdf::Prk`, inner and outer pads hashed once), so each
//! `expand` costs two compression calls per output block and writes straight into the caller's
//! buffer.
#![forbid(unsafe_code)]

use alloc::boxed::Box;
use core::marker::PhantomData;

use rustls::crypto::hash::{self, HashAlgorithm};
use rustls::crypto::hmac;
use rustls::crypto::tls13::{Hkdf, HkdfExpander, OkmBlock, OutputLengthError};
use tessera_sha2::{HmacKey, Sha2, Sha256, Sha384, hkdf::Prk};
use zeroize::Zeroize;

/// A SHA-2 function as a rustls [`hash::Hash`].
pub struct Hash<H>(PhantomData<fn() -> H>);

/// SHA-256.
pub static SHA256: Hash<Sha256> = Hash(PhantomData);
/// SHA-384.
pub static SHA384: Hash<Sha384> = Hash(PhantomData);

/// What a hasher of this crate needs besides [`Sha2`]: its rustls name and a streaming state.
pub trait Family: Sha2 + Clone + Send + Sync + 'static {
    /// The TLS name of the function.
    const ALGORITHM: HashAlgorithm;
    /// A fresh streaming state.
    fn fresh() -> Self;
    /// Absorbs `data`.
    fn absorb(&mut self, data: &[u8]);
    /// The digest of what was absorbed so far (the state stays usable).
    fn current(&self) -> Self::Digest;
}

macro_rules! family {
    ($t:ty, $alg:expr) => {
        impl Family for $t {
            const ALGORITHM: HashAlgorithm = $alg;
            fn fresh() -> Self {
                <$t>::new()
            }
            fn absorb(&mut self, data: &[u8]) {
                self.update(data);
            }
            fn current(&self) -> Self::Digest {
                self.finalize()
            }
        }
    };
}
family!(Sha256, HashAlgorithm::SHA256);
family!(Sha384, HashAlgorithm::SHA384);

impl<H: Family> hash::Hash for Hash<H> {
    fn start(&self) -> Box<dyn hash::Context> {
        Box::new(Context(H::fresh()))
    }

    fn hash(&self, data: &[u8]) -> hash::Output {
        hash::Output::new(H::digest(data).as_ref())
    }

    fn output_len(&self) -> usize {
        H::OUTPUT_LEN
    }

    fn algorithm(&self) -> HashAlgorithm {
        H::ALGORITHM
    }
}

struct Context<H>(H);

impl<H: Family> hash::Context for Context<H> {
    fn fork_finish(&self) -> hash::Output {
        hash::Output::new(self.0.current().as_ref())
    }

    fn fork(&self) -> Box<dyn hash::Context> {
        Box::new(Context(self.0.clone()))
    }

    fn finish(self: Box<Self>) -> hash::Output {
        hash::Output::new(self.0.current().as_ref())
    }

    fn update(&mut self, data: &[u8]) {
        self.0.absorb(data);
    }
}

/// HMAC on a SHA-2 function as a rustls [`hmac::Hmac`].
pub struct Hmac<H>(PhantomData<fn() -> H>);

/// HMAC-SHA256.
pub static HMAC_SHA256: Hmac<Sha256> = Hmac(PhantomData);
/// HMAC-SHA384.
pub static HMAC_SHA384: Hmac<Sha384> = Hmac(PhantomData);

impl<H: Family> hmac::Hmac for Hmac<H>
where
    HmacKey<H>: Send + Sync,
{
    fn with_key(&self, key: &[u8]) -> Box<dyn hmac::Key> {
        Box::new(Key(HmacKey::<H>::new(key)))
    }

    fn hash_output_len(&self) -> usize {
        H::OUTPUT_LEN
    }
}

/// A pre-keyed HMAC (the key is wiped on drop by `HmacKey`).
struct Key<H: Sha2>(HmacKey<H>);

impl<H: Family> hmac::Key for Key<H>
where
    HmacKey<H>: Send + Sync,
{
    fn sign_concat(&self, first: &[u8], middle: &[&[u8]], last: &[u8]) -> hmac::Tag {
        let mut m = self.0.hasher();
        m.update(first);
        for part in middle {
            m.update(part);
        }
        m.update(last);
        let mut t = m.finalize();
        let tag = hmac::Tag::new(t.as_ref());
        t.zeroize();
        tag
    }

    fn tag_len(&self) -> usize {
        H::OUTPUT_LEN
    }
}

/// HKDF on a SHA-2 function as a rustls [`Hkdf`].
pub struct HkdfSha2<H>(PhantomData<fn() -> H>);

/// HKDF-SHA256.
pub static HKDF_SHA256: HkdfSha2<Sha256> = HkdfSha2(PhantomData);
/// HKDF-SHA384.
pub static HKDF_SHA384: HkdfSha2<Sha384> = HkdfSha2(PhantomData);

impl<H: Family> Hkdf for HkdfSha2<H>
where
    Prk<H>: Send + Sync,
    HmacKey<H>: Send + Sync,
{
    fn extract_from_zero_ikm(&self, salt: Option<&[u8]>) -> Box<dyn HkdfExpander> {
        // `HashLen` zero bytes (48 at most).
        let zeros = [0u8; 64];
        self.extract_from_secret(salt, &zeros[..H::OUTPUT_LEN])
    }

    fn extract_from_secret(&self, salt: Option<&[u8]>, secret: &[u8]) -> Box<dyn HkdfExpander> {
        // An absent salt is `HashLen` zero bytes, which as an HMAC key equals the empty key.
        Box::new(Expander(tessera_sha2::hkdf::extract::<H>(
            salt.unwrap_or(&[]),
            secret,
        )))
    }

    fn expander_for_okm(&self, okm: &OkmBlock) -> Box<dyn HkdfExpander> {
        Box::new(Expander(prk_from_okm::<H>(okm.as_ref())))
    }

    fn hmac_sign(&self, key: &OkmBlock, message: &[u8]) -> hmac::Tag {
        let mut t = HmacKey::<H>::new(key.as_ref()).sign(message);
        let tag = hmac::Tag::new(t.as_ref());
        t.zeroize();
        tag
    }
}

/// A PRK from an OKM block rustls hands back. rustls only passes blocks from `expand_block`
/// of the same hash, so the length is `HashLen`. To keep the function total for any other
/// length (no panic), such a block is first reduced by HKDF-Extract with it as the salt and an
/// empty input; rustls never reaches that branch.
fn prk_from_okm<H: Family>(okm: &[u8]) -> Prk<H> {
    match Prk::<H>::from_bytes(okm) {
        Ok(p) => p,
        Err(_) => tessera_sha2::hkdf::extract::<H>(okm, &[]),
    }
}

struct Expander<H: Sha2>(Prk<H>);

impl<H: Family> HkdfExpander for Expander<H>
where
    Prk<H>: Send + Sync,
{
    fn expand_slice(&self, info: &[&[u8]], output: &mut [u8]) -> Result<(), OutputLengthError> {
        self.0.expand(info, output).map_err(|_| OutputLengthError)
    }

    fn expand_block(&self, info: &[&[u8]]) -> OkmBlock {
        let mut out = [0u8; 64];
        let n = H::OUTPUT_LEN;
        // `HashLen` bytes are always within the 255 * HashLen bound.
        let _ = self.0.expand(info, &mut out[..n]);
        let block = OkmBlock::new(&out[..n]);
        out.zeroize();
        block
    }

    fn hash_len(&self) -> usize {
        H::OUTPUT_LEN
    }
}
