//! X448 (RFC 7748 section 5): the Montgomery ladder over GF(2^448 - 2^224 - 1), with the
//! field arithmetic of `crypto-bigint`'s constant-time Montgomery form. The ladder walks all
//! 448 bits of the clamped scalar (no reduction modulo the group order, so points of any
//! order and points on the twist give the RFC 7748 result) and swaps with masks, not
//! branches.

use crypto_bigint::modular::ConstMontyForm;
use crypto_bigint::{U448, Word};
use zeroize::Zeroize;

crypto_bigint::const_monty_params!(
    P448,
    U448,
    "fffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "The X448 field prime 2^448 - 2^224 - 1."
);

type Fe = ConstMontyForm<P448, { U448::LIMBS }>;

/// The base point, u = 5.
pub(crate) const BASE: [u8; 56] = {
    let mut b = [0u8; 56];
    b[0] = 5;
    b
};

/// `(A - 2) / 4` for Curve448.
const A24: u64 = 39081;

/// Swaps `a` and `b` when `swap` is 1, by masks (no branch on `swap`).
fn cswap(swap: Word, a: &mut Fe, b: &mut Fe) {
    let mask = swap.wrapping_neg();
    let mut x = *a.as_montgomery().as_words();
    let mut y = *b.as_montgomery().as_words();
    for (xi, yi) in x.iter_mut().zip(y.iter_mut()) {
        let t = mask & (*xi ^ *yi);
        *xi ^= t;
        *yi ^= t;
    }
    *a = Fe::from_montgomery(U448::from_words(x));
    *b = Fe::from_montgomery(U448::from_words(y));
    x.zeroize();
    y.zeroize();
}

/// The ladder's working values (RFC 7748 section 5): the two points and every temporary of a
/// step, kept in one place (written in place each step) so that they are wiped once, when the
/// ladder is done, not per step. Wiped on drop.
#[derive(Default)]
struct Ladder {
    x2: Fe,
    z2: Fe,
    x3: Fe,
    z3: Fe,
    a: Fe,
    aa: Fe,
    b: Fe,
    bb: Fe,
    e: Fe,
    c: Fe,
    d: Fe,
    da: Fe,
    cb: Fe,
}

impl Drop for Ladder {
    fn drop(&mut self) {
        for v in [
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
        ] {
            v.zeroize();
        }
    }
}

/// The ladder over all 448 bits of the clamped `k` from `u`, leaving `(x2 : z2)` (after the
/// final swap) in `st`.
fn ladder(k: &[u8; 56], u: &[u8; 56], st: &mut Ladder) {
    let mut k = *k;
    k[0] &= 252;
    k[55] |= 128;

    let x1 = Fe::new(&U448::from_le_slice(u));
    st.x2 = Fe::ONE;
    st.z2 = Fe::ZERO;
    st.x3 = x1;
    st.z3 = Fe::ONE;
    let a24 = Fe::new(&U448::from_u64(A24));
    let mut swap: Word = 0;

    for t in (0..448).rev() {
        let bit = Word::from((k[t / 8] >> (t % 8)) & 1);
        swap ^= bit;
        cswap(swap, &mut st.x2, &mut st.x3);
        cswap(swap, &mut st.z2, &mut st.z3);
        swap = bit;

        st.a = st.x2 + st.z2;
        st.aa = st.a.square();
        st.b = st.x2 - st.z2;
        st.bb = st.b.square();
        st.e = st.aa - st.bb;
        st.c = st.x3 + st.z3;
        st.d = st.x3 - st.z3;
        st.da = st.d * st.a;
        st.cb = st.c * st.b;
        st.x3 = (st.da + st.cb).square();
        st.z3 = x1 * (st.da - st.cb).square();
        st.x2 = st.aa * st.bb;
        st.z2 = st.e * (st.aa + a24 * st.e);
    }
    cswap(swap, &mut st.x2, &mut st.x3);
    cswap(swap, &mut st.z2, &mut st.z3);
    k.zeroize();
    swap.zeroize();
}

/// `X448(k, u)`: the 56-byte little-endian u-coordinate of `clamp(k) * u`. Non-canonical
/// `u` (at least p) is reduced, as RFC 7748 says. The ladder state, the result in Montgomery
/// form and its canonical copies here are wiped before returning (the caller owns the bytes
/// returned): crypto-bigint's arithmetic takes its operands by value and leaves copies of them
/// (ladder values, powers of `z2`) in frames of its own, out of reach of any wipe of ours, so
/// [`scrub_stack`] overwrites the stack where [`x448_inner`]'s frames were.
pub(crate) fn x448(k: &[u8; 56], u: &[u8; 56]) -> [u8; 56] {
    let out = x448_inner(k, u);
    scrub_stack();
    out
}

crate::hpke::scrub::scrub_stack_here!(u64, 1024);

/// [`x448`] before the scrub (never inlined: its frames must lie where [`scrub_stack`]'s will).
#[inline(never)]
fn x448_inner(k: &[u8; 56], u: &[u8; 56]) -> [u8; 56] {
    let mut st = Ladder::default();
    ladder(k, u, &mut st);
    let mut inv = invert(&st.z2);
    let mut r = st.x2 * inv;
    let mut out = r.retrieve();
    let mut bytes = [0u8; 56];
    for (b, w) in bytes.chunks_exact_mut(8).zip(out.as_words()) {
        b.copy_from_slice(&w.to_le_bytes());
    }
    inv.zeroize();
    r.zeroize();
    out.zeroize();
    bytes
}

/// `z^(p - 2) = 1 / z` (0 for 0, giving the all-zero output of small-order inputs), by a fixed
/// addition chain for `p - 2 = 2^448 - 2^224 - 3` (453 squarings, 13 multiplications) whose
/// every power of `z` is wiped before returning (crypto-bigint's `pow` keeps its table of powers
/// in a frame of its own, out of reach). `x_n = z^(2^n - 1)`.
fn invert(z: &Fe) -> Fe {
    /// `a^(2^n)`.
    fn sqn(a: &Fe, n: usize) -> Fe {
        let mut r = *a;
        for _ in 0..n {
            r = r.square();
        }
        r
    }
    let mut x = [Fe::ZERO; 11];
    let [x2, x3, x6, x12, x24, x30, x48, x96, x192, x222, x223] = &mut x;
    *x2 = sqn(z, 1) * z;
    *x3 = sqn(x2, 1) * z;
    *x6 = sqn(x3, 3) * *x3;
    *x12 = sqn(x6, 6) * *x6;
    *x24 = sqn(x12, 12) * *x12;
    *x30 = sqn(x24, 6) * *x6;
    *x48 = sqn(x24, 24) * *x24;
    *x96 = sqn(x48, 48) * *x48;
    *x192 = sqn(x96, 96) * *x96;
    *x222 = sqn(x192, 30) * *x30;
    *x223 = sqn(x222, 1) * z;
    // Bits 447..225 (223 ones), bit 224 (0), bits 223..2 (222 ones), bit 1 (0), bit 0 (1).
    let mut r = sqn(x223, 223) * *x222;
    r = sqn(&r, 2) * z;
    for v in x.iter_mut() {
        v.zeroize();
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> [u8; 56] {
        let mut out = [0u8; 56];
        for (i, o) in out.iter_mut().enumerate() {
            *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap();
        }
        out
    }

    /// RFC 7748 section 5.2, the two single-call vectors.
    #[test]
    fn rfc7748_vectors() {
        let k = h(
            "3d262fddf9ec8e88495266fea19a34d28882acef045104d0d1aae121700a779c984c24f8cdd78fbff44943eba368f54b29259a4f1c600ad3",
        );
        let u = h(
            "06fce640fa3487bfda5f6cf2d5263f8aad88334cbd07437f020f08f9814dc031ddbdc38c19c6da2583fa5429db94ada18aa7a7fb4ef8a086",
        );
        let r = h(
            "ce3e4ff95a60dc6697da1db1d85e6afbdf79b50a2412d7546d5f239fe14fbaadeb445fc66a01b0779d98223961111e21766282f73dd96b6f",
        );
        assert_eq!(x448(&k, &u), r);
        if cfg!(miri) {
            // One ladder is enough under Miri (the unit suite runs there).
            return;
        }
        let k = h(
            "203d494428b8399352665ddca42f9de8fef600908e0d461cb021f8c538345dd77c3e4806e25f46d3315c44e0a5b4371282dd2c8d5be3095f",
        );
        let u = h(
            "0fbcc2f993cd56d3305b0b7d9e55d4c1a8fb5dbb52f8e9a1e9b6201b165d015894e56c4d3570bee52fe205e28a78b91cdfbde71ce8d157db",
        );
        let r = h(
            "884a02576239ff7a2f2f63b2db6a9ff37047ac13568e1e30fe63c4a7ad1b3ee3a5700df34321d62077e63633c575c1c954514e99da7c179d",
        );
        assert_eq!(x448(&k, &u), r);
    }

    /// Zeroization (issue 30, item 3): after `x448`, the stack memory its frames used holds
    /// neither the ladder's final state (`x2`, `z2`, `x3`, `z3` in Montgomery form, as the
    /// ladder leaves them) nor the result in Montgomery form. Probe:
    /// `tessera_testkit::wipe` (x86_64 only; ignored elsewhere, never passed).
    #[test]
    #[cfg_attr(
        not(all(target_arch = "x86_64", not(miri))),
        ignore = "stack scanner: x86_64 only"
    )]
    fn x448_wipes_ladder_state_and_result() {
        extern crate std;
        use std::{boxed::Box, format, vec::Vec};
        use tessera_testkit::wipe::{assert_wiped, chunks};
        let k = h(
            "3d262fddf9ec8e88495266fea19a34d28882acef045104d0d1aae121700a779c984c24f8cdd78fbff44943eba368f54b29259a4f1c600ad3",
        );
        let u = h(
            "06fce640fa3487bfda5f6cf2d5263f8aad88334cbd07437f020f08f9814dc031ddbdc38c19c6da2583fa5429db94ada18aa7a7fb4ef8a086",
        );
        let result = x448(&k, &u);
        let mut st = Ladder::default();
        ladder(&k, &u, &mut st);
        let words = |f: &Fe| f.as_montgomery().to_le_bytes().as_ref().to_vec();
        let mut needles = Vec::new();
        for (what, v) in [
            ("x2", &st.x2),
            ("z2", &st.z2),
            ("x3", &st.x3),
            ("z3", &st.z3),
        ] {
            needles.extend(chunks(&format!("ladder {what}"), &words(v), 16));
        }
        let r = Fe::new(&U448::from_le_slice(&result));
        needles.extend(chunks("result (Montgomery form)", &words(&r), 16));
        // Not the canonical result: those bytes are returned (the caller, the DHKEM, wipes
        // them), so this closure's own frame holds them.
        let mut out = Box::new([0u8; 56]);
        assert_wiped("x448", || *out = x448(&k, &u), &needles);
        assert_eq!(*out, result);
    }
}
