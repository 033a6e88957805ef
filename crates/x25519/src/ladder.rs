//! The X25519 function of RFC 7748 section 5: the Montgomery ladder with constant-time
//! conditional swaps on the clamped scalar, written once over [`Field`] and compiled into each
//! backend's island (the step itself is [`Field::ladder_step`], which a backend may replace).
#![forbid(unsafe_code)]

use subtle::Choice;
use zeroize::Zeroize;

use crate::field::{Field, LadderState};
use crate::inverse::invert;
use crate::scalar::{clamp, last_swap, swap_before};

/// `X25519(k, u)`: the u-coordinate of `clamp(k) * (u, .)`, encoded (RFC 7748 section 5).
///
/// The ladder runs over bits 254 down to 3 of the clamped scalar; each step swaps the two
/// working points by mask (the swap bit is the XOR of consecutive scalar bits, as the RFC
/// writes it), then does the combined differential addition and doubling
/// (`x_2 = AA BB`, `z_2 = E (BB + 121666 E)`, which equals the RFC's `E (AA + 121665 E)`).
/// Bits 2, 1, 0 are zero after clamping: three doublings of `(x2 : z2)` finish. The loop
/// bounds and memory addresses never depend on the scalar; the final division is the
/// fixed-length divsteps inversion of [`invert`] (0 maps to 0, so the all-zero output of a
/// low-order `u` comes out as RFC 7748 describes).
#[inline(always)]
pub(crate) fn x25519<F: Field>(f: F, k: &[u8; 32], u: &[u8; 32]) -> [u8; 32] {
    let mut s = clamp(k);
    let (zero, one) = (f.zero(), f.one());
    let x1 = f.decode(u);
    let mut st = LadderState {
        x1,
        x2: one,
        z2: zero,
        x3: x1,
        z3: one,
        a: zero,
        aa: zero,
        b: zero,
        bb: zero,
        e: zero,
        c: zero,
        d: zero,
        da: zero,
        cb: zero,
        t: zero,
    };
    // Bits 254 down to 3; clamping cleared bits 2, 1, 0, where the ladder step would only
    // double `(x2 : z2)` (the sum it also computes is never used), so those three steps are
    // plain doublings after the last swap.
    for i in (3..255).rev() {
        f.ladder_step(&mut st, Choice::from(swap_before(&s, i)));
    }
    let k = Choice::from(last_swap(&s));
    f.cswap(&mut st.x2, &mut st.x3, k);
    f.cswap(&mut st.z2, &mut st.z3, k);
    for _ in 0..3 {
        double(f, &mut st);
    }
    let mut r = invert(f, &st.z2);
    f.mul_assign(&mut r, &st.x2);
    let out = f.encode(&r);
    s.zeroize();
    r.zeroize();
    st.zeroize();
    out
}

/// `(x2 : z2) = 2 (x2 : z2)`, the doubling half of the ladder step (RFC 7748 section 5:
/// `x_2 = AA BB`, `z_2 = E (BB + 121666 E)`), through the generic field operations.
#[inline(always)]
fn double<F: Field>(f: F, st: &mut LadderState<F::Fe>) {
    f.add(&mut st.a, &st.x2, &st.z2);
    f.sqr(&mut st.aa, &st.a);
    f.sub(&mut st.b, &st.x2, &st.z2);
    f.sqr(&mut st.bb, &st.b);
    f.sub(&mut st.e, &st.aa, &st.bb);
    f.mul(&mut st.x2, &st.aa, &st.bb);
    f.mul_a24(&mut st.t, &st.e);
    f.add(&mut st.a, &st.bb, &st.t);
    f.mul(&mut st.z2, &st.e, &st.a);
}
