//! The backends' block functions and the operations run on them.
//!
//! A row of a backend table names its block-function type, a [`BlockFn`] of the row's family.
//! An operation is a struct implementing [`Op`] (one operation trait, instantiated per family);
//! the table's generated `run` compiles it into the row's target-feature island for the row's
//! block function. [`Table`] is what the engine, HMAC and HKDF hold: a table of either family.
#![forbid(unsafe_code)]

use crate::md::{self, Family};

/// A chaining value of family `F`.
pub type State<F> = [<F as Family>::Word; 8];

/// One backend's block function for the family `F`, and the whole operations on it. The
/// defaults are the generic ones (`md::oneshot`, `md::hmac`) on [`BlockFn::compress`] and
/// [`BlockFn::compress_secret`]; a backend overrides one to keep its chaining value in
/// registers from the first block of an operation to the last.
pub trait BlockFn<F: Family> {
    /// The capability token (`tessera_cpu::Portable` for the portable block function).
    type Token: Copy;

    /// Compresses whole blocks (`blocks.len()` is a multiple of `F::BLOCK`).
    fn compress(t: Self::Token, state: &mut State<F>, blocks: &[u8]);

    /// [`BlockFn::compress`] for key-derived input (HMAC key setup, HMAC inner and outer
    /// hashes): also wipes the message-schedule words a backend keeps in a stack array. The
    /// default is `compress`, for a block function that keeps its schedule in vector registers.
    #[inline(always)]
    fn compress_secret(t: Self::Token, state: &mut State<F>, blocks: &[u8]) {
        Self::compress(t, state, blocks)
    }

    /// Hashes `data` to the end (padding included), `prefix` bytes having already been
    /// compressed into `state`. `WIPE`: the stack copy of the tail is wiped (`md::oneshot`).
    #[inline(always)]
    fn oneshot<const WIPE: bool>(t: Self::Token, state: &mut State<F>, data: &[u8], prefix: u64) {
        let compress = |s: &mut State<F>, b: &[u8]| Self::compress(t, s, b);
        md::oneshot::<F, _, WIPE>(compress, state, data, prefix)
    }

    /// HMAC from precomputed ipad/opad states: `out = H(opad || H(ipad || msg))`, the inner
    /// digest truncated to `words` words (RFC 2104 with the FIPS 180-4 truncations).
    #[inline(always)]
    fn hmac(
        t: Self::Token,
        ipad: &State<F>,
        opad: &State<F>,
        msg: &[u8],
        words: usize,
        out: &mut State<F>,
    ) {
        let compress = |s: &mut State<F>, b: &[u8]| Self::compress_secret(t, s, b);
        md::hmac::<F>(compress, ipad, opad, msg, words, out)
    }
}

/// An operation on a block function of family `F`, run by a table's `run`.
pub trait Op<F: Family> {
    type Out;
    fn run<B: BlockFn<F>>(self, t: B::Token) -> Self::Out;
}

/// A backend table of one family (`Sha256Backend`, `Sha512Backend`): a value is the backend
/// chosen when a hasher or key was created.
pub trait Table: tessera_cpu::BackendSet + 'static {
    /// The family whose block functions the rows name.
    type Fam: Family;
    /// Runs `op` on this backend (the table's generated `run`).
    fn dispatch<O: Op<Self::Fam>>(self, op: O) -> O::Out;
}

/// [`BlockFn::compress`], or [`BlockFn::compress_secret`] when `SECRET`.
pub(crate) struct Compress<'a, F: Family, const SECRET: bool> {
    pub(crate) state: &'a mut State<F>,
    pub(crate) blocks: &'a [u8],
}

impl<F: Family, const SECRET: bool> Op<F> for Compress<'_, F, SECRET> {
    type Out = ();
    #[inline(always)]
    fn run<B: BlockFn<F>>(self, t: B::Token) {
        if SECRET {
            B::compress_secret(t, self.state, self.blocks)
        } else {
            B::compress(t, self.state, self.blocks)
        }
    }
}

/// [`BlockFn::oneshot`].
pub(crate) struct Oneshot<'a, F: Family> {
    pub(crate) state: &'a mut State<F>,
    pub(crate) data: &'a [u8],
    pub(crate) prefix: u64,
}

impl<F: Family> Op<F> for Oneshot<'_, F> {
    type Out = ();
    #[inline(always)]
    fn run<B: BlockFn<F>>(self, t: B::Token) {
        B::oneshot::<false>(t, self.state, self.data, self.prefix)
    }
}

/// [`BlockFn::hmac`].
pub(crate) struct Hmac<'a, F: Family> {
    pub(crate) ipad: &'a State<F>,
    pub(crate) opad: &'a State<F>,
    pub(crate) msg: &'a [u8],
    pub(crate) words: usize,
    pub(crate) out: &'a mut State<F>,
}

impl<F: Family> Op<F> for Hmac<'_, F> {
    type Out = ();
    #[inline(always)]
    fn run<B: BlockFn<F>>(self, t: B::Token) {
        B::hmac(t, self.ipad, self.opad, self.msg, self.words, self.out)
    }
}

/// The end of a message for the `digest` cores: `data` (fewer than `F::BLOCK` bytes, the
/// partial block) padded and compressed after `prefix` bytes, in one backend call: the
/// backend's [`BlockFn::oneshot`], which keeps the chaining value in registers from the state
/// load to the digest store where it can. The stack copy of the tail is wiped (the input may be
/// key-derived: `hmac::Hmac` over these cores).
#[cfg(feature = "digest")]
pub(crate) struct Finish<'a, F: Family> {
    pub(crate) state: &'a mut State<F>,
    pub(crate) data: &'a [u8],
    pub(crate) prefix: u64,
}

#[cfg(feature = "digest")]
impl<F: Family> Op<F> for Finish<'_, F> {
    type Out = ();
    #[inline(always)]
    fn run<B: BlockFn<F>>(self, t: B::Token) {
        B::oneshot::<true>(t, self.state, self.data, self.prefix)
    }
}
