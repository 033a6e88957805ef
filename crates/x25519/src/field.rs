//! The field GF(2^255 - 19) as each backend provides it ([`Field`]), and the shapes the generic
//! algorithms hand to a backend: the ladder's working state with its generic step, and the
//! fixed-base table's entries.
//!
//! A field is implemented on a zero-sized capability token (`tessera_cpu::Portable` for the
//! portable field), so the methods of a backend whose instructions need a CPU feature can only
//! be called with the proof in hand. Every method is `#[inline(always)]`: the generic ladder and
//! fixed-base code are compiled into each backend's target-feature island.
#![forbid(unsafe_code)]

use subtle::Choice;
use zeroize::Zeroize;

use crate::tap;

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
    /// One Montgomery-ladder step (the default: [`step`], from the field operations).
    #[inline(always)]
    fn ladder_step(self, st: &mut LadderState<Self::Fe>, swap: Choice) {
        step(self, st, swap)
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

/// The working state of the ladder: the input `x1`, the two points `(x2 : z2)`,
/// `(x3 : z3)`, and the temporaries of one step (`repr(C)`: a backend's assembly addresses
/// the fields by offset, 32 bytes each for four 64-bit limbs, in this order).
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct LadderState<Fe> {
    pub(crate) x1: Fe,
    pub(crate) x2: Fe,
    pub(crate) z2: Fe,
    pub(crate) x3: Fe,
    pub(crate) z3: Fe,
    pub(crate) a: Fe,
    pub(crate) aa: Fe,
    pub(crate) b: Fe,
    pub(crate) bb: Fe,
    pub(crate) e: Fe,
    pub(crate) c: Fe,
    pub(crate) d: Fe,
    pub(crate) da: Fe,
    pub(crate) cb: Fe,
    pub(crate) t: Fe,
}

impl<Fe: Zeroize> LadderState<Fe> {
    /// Wipes every element (once, at the end of a scalar multiplication).
    pub(crate) fn zeroize(&mut self) {
        for v in [
            &mut self.x1,
            &mut self.x2,
            &mut self.z2,
            &mut self.x3,
            &mut self.z3,
            &mut self.a,
            &mut self.aa,
            &mut self.b,
            &mut self.bb,
            &mut self.e,
            &mut self.c,
            &mut self.d,
            &mut self.da,
            &mut self.cb,
            &mut self.t,
        ] {
            v.zeroize();
        }
    }
}

/// One ladder step from the field operations: swap `(x2, z2)` with `(x3, z3)` when `swap`
/// is set, then the combined differential addition and doubling of RFC 7748 section 5.
#[inline(always)]
pub(crate) fn step<F: Field>(f: F, st: &mut LadderState<F::Fe>, swap: Choice) {
    f.cswap(&mut st.x2, &mut st.x3, swap);
    f.cswap(&mut st.z2, &mut st.z3, swap);
    f.add(&mut st.a, &st.x2, &st.z2);
    f.sqr(&mut st.aa, &st.a);
    f.sub(&mut st.b, &st.x2, &st.z2);
    f.sqr(&mut st.bb, &st.b);
    f.sub(&mut st.e, &st.aa, &st.bb);
    f.add(&mut st.c, &st.x3, &st.z3);
    f.sub(&mut st.d, &st.x3, &st.z3);
    f.mul(&mut st.da, &st.d, &st.a);
    f.mul(&mut st.cb, &st.c, &st.b);
    f.add(&mut st.t, &st.da, &st.cb);
    f.sqr(&mut st.x3, &st.t);
    f.sub(&mut st.t, &st.da, &st.cb);
    f.sqr_assign(&mut st.t);
    f.mul(&mut st.z3, &st.x1, &st.t);
    f.mul(&mut st.x2, &st.aa, &st.bb);
    f.mul_a24(&mut st.t, &st.e);
    f.add(&mut st.a, &st.bb, &st.t);
    f.mul(&mut st.z2, &st.e, &st.a);
}
