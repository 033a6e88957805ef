//! The field GF(2^255 - 19) as each backend provides it, and the generic code written once
//! over it: the exponentiation chains (inversion) shared by the ladder and the fixed-base path.
//!
//! A backend is a zero-sized value implementing [`Field`] (the portable marker, or a capability
//! token, so the methods of a backend whose instructions need a CPU feature can only be called
//! with the proof in hand). Every method is `#[inline(always)]`: the generic ladder and
//! fixed-base code are compiled into each backend's target-feature island.
#![forbid(unsafe_code)]

use subtle::Choice;
use zeroize::Zeroize;

/// A precomputed multiple `(x, y)` of the Ed25519 base point in the form mixed additions use
/// (ref10's "precomp" / "niels" coordinates): `y + x`, `y - x`, `2 d x y`, each reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Niels<Fe> {
    pub(crate) ypx: Fe,
    pub(crate) ymx: Fe,
    pub(crate) xy2d: Fe,
}

/// The fixed-base table: row `j` holds `k * 256^j * B` for `k = 1..=8`.
pub(crate) type Table<Fe> = [[Niels<Fe>; 8]; 32];

/// GF(2^255 - 19) in one backend's representation.
///
/// Bounds are the backend's contract (documented on its implementation); the generic code
/// keeps to the shape every backend accepts: the inputs of `mul`, `sqr`, `sub`, `mul_a24` are
/// outputs of any operation or the sum (`add`) of two outputs of `mul`, `sqr`, `sub`,
/// `mul_a24`, `neg`, `from_bytes` or a table entry, or of one such sum and one such output.
pub(crate) trait Field: Copy {
    /// A field element (not necessarily reduced).
    type Fe: Copy + Zeroize + tap::Raw + 'static;

    /// 0.
    fn zero(self) -> Self::Fe;
    /// 1.
    fn one(self) -> Self::Fe;
    /// The little-endian integer of `b` with bit 255 cleared (RFC 7748 section 5: the
    /// u-coordinate's top bit is masked; values in `[p, 2^255)` are accepted as they are).
    fn decode(self, b: &[u8; 32]) -> Self::Fe;
    /// The canonical (fully reduced, `< p`) little-endian encoding.
    fn encode(self, a: &Self::Fe) -> [u8; 32];
    /// `r = a + b`.
    fn add(self, r: &mut Self::Fe, a: &Self::Fe, b: &Self::Fe);
    /// `r = a - b`.
    fn sub(self, r: &mut Self::Fe, a: &Self::Fe, b: &Self::Fe);
    /// `r = -a`.
    fn neg(self, r: &mut Self::Fe, a: &Self::Fe);
    /// `r = a * b`.
    fn mul(self, r: &mut Self::Fe, a: &Self::Fe, b: &Self::Fe);
    /// `a = a * b`.
    fn mul_assign(self, a: &mut Self::Fe, b: &Self::Fe);
    /// `r = a^2`.
    fn sqr(self, r: &mut Self::Fe, a: &Self::Fe);
    /// `a = a^2`.
    fn sqr_assign(self, a: &mut Self::Fe);
    /// `r = a^(2^n)` (`n >= 1`).
    #[cfg(test)]
    #[inline(always)]
    fn sqr_n(self, r: &mut Self::Fe, a: &Self::Fe, n: usize) {
        self.sqr(r, a);
        for _ in 1..n {
            self.sqr_assign(r);
        }
    }
    /// `r = 121666 a` (`(A + 2) / 4` for curve25519's `A = 486662`).
    fn mul_a24(self, r: &mut Self::Fe, a: &Self::Fe);
    /// Swaps `a` and `b` when `c` is set, in constant time.
    fn cswap(self, a: &mut Self::Fe, b: &mut Self::Fe, c: Choice);
    /// Sets `a = b` when `c` is set, in constant time.
    fn cmov(self, a: &mut Self::Fe, b: &Self::Fe, c: Choice);
    /// One Montgomery-ladder step (see [`crate::ladder::step`], the default).
    #[inline(always)]
    fn ladder_step(self, st: &mut crate::ladder::LadderState<Self::Fe>, swap: Choice) {
        crate::ladder::step(self, st, swap)
    }
    /// Entry `abs - 1` of `row` for `abs in 1..=8`, the identity `(1, 1, 0)` for `abs = 0`,
    /// in constant time: every entry is read and the match kept by mask (`abs <= 8`).
    #[inline(always)]
    fn lookup(self, row: &[Niels<Self::Fe>; 8], abs: u8) -> Niels<Self::Fe> {
        use subtle::ConstantTimeEq;
        let mut t = Niels {
            ypx: self.one(),
            ymx: self.one(),
            xy2d: self.zero(),
        };
        for (k, e) in row.iter().enumerate() {
            let c = abs.ct_eq(&(k as u8 + 1));
            self.cmov(&mut t.ypx, &e.ypx, c);
            self.cmov(&mut t.ymx, &e.ymx, c);
            self.cmov(&mut t.xy2d, &e.xy2d, c);
        }
        t
    }
    /// The fixed-base table in this representation.
    fn table(self) -> &'static Table<Self::Fe>;
    /// Any integer below 2^256 (four little-endian words) as an element (the inversion's
    /// result; the test hooks' inputs over the whole range).
    fn load_words(self, w: &[u64; 4]) -> Self::Fe;
}

/// Unit tests only: the values of a scalar multiplication's temporaries, recorded on request,
/// for the zeroization tests (`crate::tests::wipe`), which then look for them in the stack
/// memory the operation used. Outside `cfg(test)` only the empty [`tap::Raw`] bound remains.
pub(crate) mod tap {
    /// The bytes of a field element as its backend stores it (in unit tests).
    #[cfg(test)]
    pub(crate) trait Raw {
        fn raw(&self) -> std::vec::Vec<u8>;
    }
    #[cfg(test)]
    impl<const N: usize> Raw for [u64; N] {
        fn raw(&self) -> std::vec::Vec<u8> {
            self.iter().flat_map(|w| w.to_le_bytes()).collect()
        }
    }
    /// Nothing outside unit tests.
    #[cfg(not(test))]
    pub(crate) trait Raw {}
    #[cfg(not(test))]
    impl<T> Raw for T {}

    #[cfg(test)]
    use std::{
        cell::{Cell, RefCell},
        vec::Vec,
    };

    #[cfg(test)]
    std::thread_local! {
        /// Whether a [`capture`] runs on this thread: a plain flag (no destructor, so reading
        /// it is an inline thread-local load, not a call) so that the operations a test scans
        /// run the same machine code apart from one untaken branch.
        static ON: Cell<bool> = const { Cell::new(false) };
        static TAP: RefCell<Vec<(&'static str, Vec<u8>)>> = const { RefCell::new(Vec::new()) };
    }

    /// Whether [`record`] keeps anything (test `if tap::on() { ... }` before recording).
    #[cfg(test)]
    #[inline(always)]
    pub(crate) fn on() -> bool {
        ON.with(Cell::get)
    }

    /// Records `value` as `what` (during a [`capture`]).
    #[cfg(test)]
    #[inline(never)]
    pub(crate) fn record(what: &'static str, value: Vec<u8>) {
        TAP.with(|t| t.borrow_mut().push((what, value)));
    }

    /// Runs `f` and returns what it recorded.
    #[cfg(test)]
    pub(crate) fn capture(f: impl FnOnce()) -> Vec<(&'static str, Vec<u8>)> {
        TAP.with(|t| t.borrow_mut().clear());
        ON.with(|o| o.set(true));
        f();
        ON.with(|o| o.set(false));
        TAP.with(|t| core::mem::take(&mut *t.borrow_mut()))
    }
}

/// `z^-1` (0 for 0): the canonical value of `z` through the constant-time divsteps of
/// [`crate::inverse`], back into this representation.
#[inline(always)]
pub(crate) fn invert<F: Field>(f: F, z: &F::Fe) -> F::Fe {
    let mut b = f.encode(z);
    let mut w: [u64; 4] =
        core::array::from_fn(|i| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap()));
    let mut r = [0u64; 4];
    crate::inverse::invert_words_into(&w, &mut r);
    #[cfg(test)]
    if tap::on() {
        tap::record("invert input (canonical)", b.to_vec());
        tap::record("inverse (canonical)", tap::Raw::raw(&r));
    }
    let inv = f.load_words(&r);
    // The canonical copies of the secret input and of its inverse (the caller wipes `inv`).
    b.zeroize();
    w.zeroize();
    r.zeroize();
    inv
}

/// `z^(p-2) = z^(2^255 - 21)`, the inverse of `z` (0 for 0), by the fixed addition chain of
/// 254 squarings and 11 multiplications (the one of curve25519's reference code): the
/// reference the divsteps inversion is tested against.
#[cfg(test)]
#[inline(always)]
pub(crate) fn invert_fermat<F: Field>(f: F, z: &F::Fe) -> F::Fe {
    let mut z2 = f.zero();
    let mut z9 = f.zero();
    let mut z11 = f.zero();
    let mut z_5_0 = f.zero();
    let mut z_10_0 = f.zero();
    let mut z_20_0 = f.zero();
    let mut z_50_0 = f.zero();
    let mut z_100_0 = f.zero();
    let mut t = f.zero();
    f.sqr(&mut z2, z); // 2
    f.sqr_n(&mut t, &z2, 2); // 8
    f.mul(&mut z9, &t, z); // 9
    f.mul(&mut z11, &z9, &z2); // 11
    f.sqr(&mut t, &z11); // 22
    f.mul(&mut z_5_0, &t, &z9); // 2^5 - 1
    f.sqr_n(&mut t, &z_5_0, 5);
    f.mul(&mut z_10_0, &t, &z_5_0); // 2^10 - 1
    f.sqr_n(&mut t, &z_10_0, 10);
    f.mul(&mut z_20_0, &t, &z_10_0); // 2^20 - 1
    f.sqr_n(&mut t, &z_20_0, 20);
    f.mul_assign(&mut t, &z_20_0); // 2^40 - 1
    for _ in 0..10 {
        f.sqr_assign(&mut t);
    }
    f.mul(&mut z_50_0, &t, &z_10_0); // 2^50 - 1
    f.sqr_n(&mut t, &z_50_0, 50);
    f.mul(&mut z_100_0, &t, &z_50_0); // 2^100 - 1
    f.sqr_n(&mut t, &z_100_0, 100);
    f.mul_assign(&mut t, &z_100_0); // 2^200 - 1
    for _ in 0..50 {
        f.sqr_assign(&mut t);
    }
    f.mul_assign(&mut t, &z_50_0); // 2^250 - 1
    for _ in 0..5 {
        f.sqr_assign(&mut t); // 2^255 - 2^5
    }
    f.mul_assign(&mut t, &z11); // 2^255 - 21
    t
}
