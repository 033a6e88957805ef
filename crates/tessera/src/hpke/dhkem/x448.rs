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

/// `X448(k, u)`: the 56-byte little-endian u-coordinate of `clamp(k) * u`. Non-canonical
/// `u` (at least p) is reduced, as RFC 7748 says.
pub(crate) fn x448(k: &[u8; 56], u: &[u8; 56]) -> [u8; 56] {
    let mut k = *k;
    k[0] &= 252;
    k[55] |= 128;

    let x1 = Fe::new(&U448::from_le_slice(u));
    let mut x2 = Fe::ONE;
    let mut z2 = Fe::ZERO;
    let mut x3 = x1;
    let mut z3 = Fe::ONE;
    let a24 = Fe::new(&U448::from_u64(A24));
    let mut swap: Word = 0;

    for t in (0..448).rev() {
        let bit = Word::from((k[t / 8] >> (t % 8)) & 1);
        swap ^= bit;
        cswap(swap, &mut x2, &mut x3);
        cswap(swap, &mut z2, &mut z3);
        swap = bit;

        let a = x2 + z2;
        let aa = a.square();
        let b = x2 - z2;
        let bb = b.square();
        let e = aa - bb;
        let c = x3 + z3;
        let d = x3 - z3;
        let da = d * a;
        let cb = c * b;
        x3 = (da + cb).square();
        z3 = x1 * (da - cb).square();
        x2 = aa * bb;
        z2 = e * (aa + a24 * e);
    }
    cswap(swap, &mut x2, &mut x3);
    cswap(swap, &mut z2, &mut z3);
    k.zeroize();

    // z2^(p - 2) = 1 / z2 (0 for z2 = 0, giving the all-zero output of small-order inputs).
    let p_minus_2 = P448_MINUS_2;
    let out = (x2 * z2.pow(&p_minus_2)).retrieve();
    let mut bytes = [0u8; 56];
    bytes.copy_from_slice(&out.to_le_bytes().as_ref()[..56]);
    bytes
}

const P448_MINUS_2: U448 = U448::from_be_hex(
    "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffffffffffffffffffffffffffffffffffffffffffffffffffffd",
);

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
}
