//! Portable Montgomery arithmetic on four 64-bit limbs, as `const fn` so that the fixed-base
//! table is computed by the compiler with the same code the portable backend runs.
//!
//! An element is four little-endian 64-bit words. Montgomery form with `R = 2^256`: the
//! element `a` is held as `a R mod m`. Every function here takes operands below the modulus
//! `m` and returns a result below `m` (fully reduced); the final conditional subtraction is a
//! mask, never a branch. The same functions serve the field (`m = p`) and the scalars
//! (`m = n`), each with its constant `m' = -m^(-1) mod 2^64`.
#![forbid(unsafe_code)]

/// Four little-endian 64-bit limbs.
pub(crate) type Limbs = [u64; 4];

/// A modulus below `2^256` with its Montgomery constants.
#[derive(Clone, Copy)]
pub(crate) struct Modulus {
    /// The modulus `m`, odd, `2^255 < m < 2^256`.
    pub(crate) m: Limbs,
    /// `-m^(-1) mod 2^64`.
    pub(crate) m0: u64,
    /// `R^2 mod m` (the factor that moves an integer below `m` into Montgomery form).
    pub(crate) r2: Limbs,
}

/// The field prime `p = 2^256 - 2^224 + 2^192 + 2^96 - 1` (SEC 2 section 2.4.2, FIPS 186-5 /
/// SP 800-186 section 3.2.1.3).
pub(crate) const P: Modulus = Modulus {
    m: [
        0xffff_ffff_ffff_ffff,
        0x0000_0000_ffff_ffff,
        0x0000_0000_0000_0000,
        0xffff_ffff_0000_0001,
    ],
    // p = -1 mod 2^64, so -p^(-1) = 1.
    m0: 1,
    r2: [
        0x0000_0000_0000_0003,
        0xffff_fffb_ffff_ffff,
        0xffff_ffff_ffff_fffe,
        0x0000_0004_ffff_fffd,
    ],
};

/// The group order `n` (SEC 2 section 2.4.2).
pub(crate) const N: Modulus = Modulus {
    m: [
        0xf3b9_cac2_fc63_2551,
        0xbce6_faad_a717_9e84,
        0xffff_ffff_ffff_ffff,
        0xffff_ffff_0000_0000,
    ],
    m0: 0xccd1_c8aa_ee00_bc4f,
    r2: [
        0x83244c95be79eea2,
        0x4699799c49bd6fa6,
        0x2845b2392b6bec59,
        0x66e12d94f3d95620,
    ],
};

/// `a + b + carry` and the carry out.
#[inline(always)]
pub(crate) const fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + b as u128 + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// `a - b - borrow` and the borrow out (0 or 1).
#[inline(always)]
pub(crate) const fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let t = (a as u128).wrapping_sub(b as u128 + borrow as u128);
    (t as u64, (t >> 127) as u64)
}

/// `a + b * c + carry` and the high word.
#[inline(always)]
pub(crate) const fn mac(a: u64, b: u64, c: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + (b as u128) * (c as u128) + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// `(hi:a) - m` if that is not negative, else `a`: the final subtraction of an operation whose
/// exact result `hi * 2^256 + a` is below `2m` (`hi <= 1`). Masked, not branched.
#[inline(always)]
pub(crate) const fn sub_if_ge(a: &Limbs, hi: u64, m: &Limbs) -> Limbs {
    let (r0, b) = sbb(a[0], m[0], 0);
    let (r1, b) = sbb(a[1], m[1], b);
    let (r2, b) = sbb(a[2], m[2], b);
    let (r3, b) = sbb(a[3], m[3], b);
    let (_, b) = sbb(hi, 0, b);
    // b = 1: the subtraction went negative, keep `a`.
    let keep = 0u64.wrapping_sub(b);
    [
        (a[0] & keep) | (r0 & !keep),
        (a[1] & keep) | (r1 & !keep),
        (a[2] & keep) | (r2 & !keep),
        (a[3] & keep) | (r3 & !keep),
    ]
}

/// `a + b mod m` (`a, b < m`).
#[inline(always)]
pub(crate) const fn add(a: &Limbs, b: &Limbs, m: &Limbs) -> Limbs {
    let (r0, c) = adc(a[0], b[0], 0);
    let (r1, c) = adc(a[1], b[1], c);
    let (r2, c) = adc(a[2], b[2], c);
    let (r3, c) = adc(a[3], b[3], c);
    sub_if_ge(&[r0, r1, r2, r3], c, m)
}

/// `a - b mod m` (`a, b < m`).
#[inline(always)]
pub(crate) const fn sub(a: &Limbs, b: &Limbs, m: &Limbs) -> Limbs {
    let (r0, w) = sbb(a[0], b[0], 0);
    let (r1, w) = sbb(a[1], b[1], w);
    let (r2, w) = sbb(a[2], b[2], w);
    let (r3, w) = sbb(a[3], b[3], w);
    // Add m back when the difference went negative.
    let mask = 0u64.wrapping_sub(w);
    let (r0, c) = adc(r0, m[0] & mask, 0);
    let (r1, c) = adc(r1, m[1] & mask, c);
    let (r2, c) = adc(r2, m[2] & mask, c);
    let (r3, _) = adc(r3, m[3] & mask, c);
    [r0, r1, r2, r3]
}

/// `-a mod m` (`a < m`; 0 stays 0).
#[inline(always)]
pub(crate) const fn neg(a: &Limbs, m: &Limbs) -> Limbs {
    sub(&[0; 4], a, m)
}

/// The Montgomery product `a b R^(-1) mod m` (`a, b < m`), coarsely integrated operand
/// scanning (CIOS): one row of `a * b[i]` then one reduction step per word. The intermediate
/// stays below `2m`, so one masked subtraction finishes it.
#[inline(always)]
pub(crate) const fn mont_mul(a: &Limbs, b: &Limbs, md: &Modulus) -> Limbs {
    let m = &md.m;
    let mut t = [0u64; 4];
    let mut t4 = 0u64;
    let mut i = 0;
    while i < 4 {
        // t += a * b[i]
        let (x0, c) = mac(t[0], a[0], b[i], 0);
        let (x1, c) = mac(t[1], a[1], b[i], c);
        let (x2, c) = mac(t[2], a[2], b[i], c);
        let (x3, c) = mac(t[3], a[3], b[i], c);
        let (x4, x5) = adc(t4, c, 0);
        // t = (t + u m) / 2^64 with u = t0 m' mod 2^64.
        let u = x0.wrapping_mul(md.m0);
        let (_, c) = mac(x0, u, m[0], 0);
        let (y0, c) = mac(x1, u, m[1], c);
        let (y1, c) = mac(x2, u, m[2], c);
        let (y2, c) = mac(x3, u, m[3], c);
        let (y3, c) = adc(x4, c, 0);
        t = [y0, y1, y2, y3];
        t4 = x5 + c;
        i += 1;
    }
    sub_if_ge(&t, t4, m)
}

/// `a^2 R^(-1) mod m`.
#[inline(always)]
pub(crate) const fn mont_sqr(a: &Limbs, md: &Modulus) -> Limbs {
    mont_mul(a, a, md)
}

/// `a R mod m` for an integer `a < m`.
#[inline(always)]
pub(crate) const fn to_mont(a: &Limbs, md: &Modulus) -> Limbs {
    mont_mul(a, &md.r2, md)
}

/// `a R^(-1) mod m`: the integer of a Montgomery-form element.
#[inline(always)]
pub(crate) const fn from_mont(a: &Limbs, md: &Modulus) -> Limbs {
    mont_mul(a, &[1, 0, 0, 0], md)
}

/// `a^e` in Montgomery form, `e` a public exponent (square-and-multiply from the top bit;
/// the branches depend on `e` only). Used by the compile-time code and for `n - 2`.
pub(crate) const fn pow_public(a: &Limbs, e: &Limbs, md: &Modulus) -> Limbs {
    let mut r = to_mont(&[1, 0, 0, 0], md);
    let mut i = 256;
    while i > 0 {
        i -= 1;
        r = mont_sqr(&r, md);
        if (e[i / 64] >> (i % 64)) & 1 == 1 {
            r = mont_mul(&r, a, md);
        }
    }
    r
}

/// The 32-byte big-endian encoding (SEC 1 section 2.3.7) of an integer.
#[inline]
pub(crate) const fn to_be_bytes(a: &Limbs) -> [u8; 32] {
    let mut out = [0u8; 32];
    let mut i = 0;
    while i < 4 {
        let w = a[3 - i].to_be_bytes();
        let mut j = 0;
        while j < 8 {
            out[8 * i + j] = w[j];
            j += 1;
        }
        i += 1;
    }
    out
}

/// The integer of a 32-byte big-endian string (any value below `2^256`).
#[inline]
pub(crate) const fn from_be_bytes(b: &[u8; 32]) -> Limbs {
    let mut out = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let mut w = [0u8; 8];
        let mut j = 0;
        while j < 8 {
            w[j] = b[8 * i + j];
            j += 1;
        }
        out[3 - i] = u64::from_be_bytes(w);
        i += 1;
    }
    out
}

/// 1 when `a < m`, else 0, in constant time (the borrow of `a - m`).
#[inline(always)]
pub(crate) const fn lt(a: &Limbs, m: &Limbs) -> u64 {
    let (_, b) = sbb(a[0], m[0], 0);
    let (_, b) = sbb(a[1], m[1], b);
    let (_, b) = sbb(a[2], m[2], b);
    let (_, b) = sbb(a[3], m[3], b);
    b
}

/// 1 when `a` is zero, else 0, in constant time.
#[inline(always)]
pub(crate) const fn is_zero(a: &Limbs) -> u64 {
    let x = a[0] | a[1] | a[2] | a[3];
    // Top bit of (x | -x) is set exactly when x != 0.
    1 ^ ((x | x.wrapping_neg()) >> 63)
}
