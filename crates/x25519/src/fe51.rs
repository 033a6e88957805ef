//! GF(2^255 - 19) in radix 2^51: five `u64` limbs, `u128` products, the wrap-around
//! `2^255 = 19` folded in during each product. The arithmetic of the portable backend, of the
//! fixed-base table's builder and of the AVX-512 IFMA backend's scalar part.
//!
//! Bounds (the contract the generic code keeps; `debug_assert!`ed here):
//! - *tight*: every limb `< 2^52`. Outputs of `mul`, `sqr`, `sub`, `neg`, `mul_a24`,
//!   `from_bytes` and the table entries are tight.
//! - `add` does not carry: inputs whose limb sums stay `< 2^54` (two tight values, or a tight
//!   value and the sum of two tight values).
//! - `mul`, `sqr`, `sub`, `mul_a24`: inputs with limbs `< 2^54`.
//!
//! The functions are `const fn` so that the fixed-base table is computed at compile time with
//! this same arithmetic (see `table.rs`).
#![forbid(unsafe_code)]

/// A field element: `l[0] + l[1] 2^51 + l[2] 2^102 + l[3] 2^153 + l[4] 2^204`.
pub(crate) type Fe = [u64; 5];

/// The low 51 bits of a limb.
pub(crate) const MASK: u64 = (1 << 51) - 1;
/// Limit of every limb of an input to `mul`, `sqr`, `sub`, `mul_a24`.
pub(crate) const INPUT_LIMB_LIMIT: u64 = 1 << 54;
/// Limit of every limb of a tight element.
pub(crate) const TIGHT_LIMB_LIMIT: u64 = 1 << 52;

pub(crate) const ZERO: Fe = [0; 5];
pub(crate) const ONE: Fe = [1, 0, 0, 0, 0];

/// `16 p` in radix 2^51, added before subtracting so no limb goes negative.
const SIXTEEN_P: Fe = [
    16 * ((1 << 51) - 19),
    16 * MASK,
    16 * MASK,
    16 * MASK,
    16 * MASK,
];

#[inline(always)]
const fn m(a: u64, b: u64) -> u128 {
    (a as u128) * (b as u128)
}

#[inline(always)]
const fn within(a: &Fe, limit: u64) -> bool {
    a[0] < limit && a[1] < limit && a[2] < limit && a[3] < limit && a[4] < limit
}

/// One parallel carry pass: limb `i` keeps its low 51 bits and passes the rest to limb `i+1`
/// (limb 4's to limb 0, times 19). Any limbs `< 2^64` in, tight out (limb 0 `< 2^51 + 19 *
/// 2^13`, the others `< 2^51 + 2^13`).
#[inline(always)]
const fn carry(a: Fe) -> Fe {
    let c = [a[0] >> 51, a[1] >> 51, a[2] >> 51, a[3] >> 51, a[4] >> 51];
    let r = [
        (a[0] & MASK) + c[4] * 19,
        (a[1] & MASK) + c[0],
        (a[2] & MASK) + c[1],
        (a[3] & MASK) + c[2],
        (a[4] & MASK) + c[3],
    ];
    debug_assert!(within(&r, TIGHT_LIMB_LIMIT));
    r
}

/// Reduces five 128-bit column sums (each `< 2^115`, column 4 `< 2^110.4` as it has no factor
/// 19) to a tight element.
#[inline(always)]
const fn reduce_wide(mut t: [u128; 5]) -> Fe {
    t[1] += t[0] >> 51;
    t[2] += t[1] >> 51;
    t[3] += t[2] >> 51;
    t[4] += t[3] >> 51;
    // t[4] < 2^110.4 + 2^64, so this carry is < 2^59.5 and 19 times it fits a u64.
    let c = (t[4] >> 51) as u64;
    let r0 = (t[0] as u64 & MASK) + c * 19;
    let r1 = (t[1] as u64 & MASK) + (r0 >> 51);
    let r = [
        r0 & MASK,
        r1,
        t[2] as u64 & MASK,
        t[3] as u64 & MASK,
        t[4] as u64 & MASK,
    ];
    debug_assert!(within(&r, TIGHT_LIMB_LIMIT));
    r
}

/// `a + b`, no carry (see the module bounds).
#[inline(always)]
pub(crate) const fn add(a: &Fe, b: &Fe) -> Fe {
    let r = [
        a[0] + b[0],
        a[1] + b[1],
        a[2] + b[2],
        a[3] + b[3],
        a[4] + b[4],
    ];
    debug_assert!(within(&r, INPUT_LIMB_LIMIT));
    r
}

/// `a - b` as `(a + 16 p) - b`, carried: inputs `< 2^54`, tight out.
#[inline(always)]
pub(crate) const fn sub(a: &Fe, b: &Fe) -> Fe {
    debug_assert!(within(a, INPUT_LIMB_LIMIT) && within(b, INPUT_LIMB_LIMIT));
    carry([
        a[0] + SIXTEEN_P[0] - b[0],
        a[1] + SIXTEEN_P[1] - b[1],
        a[2] + SIXTEEN_P[2] - b[2],
        a[3] + SIXTEEN_P[3] - b[3],
        a[4] + SIXTEEN_P[4] - b[4],
    ])
}

/// `-a` (input `< 2^54`, tight out).
#[inline(always)]
pub(crate) const fn neg(a: &Fe) -> Fe {
    sub(&ZERO, a)
}

/// `a * b`: inputs `< 2^54`, tight out. Schoolbook with the products of limbs whose indices
/// sum to 5 or more folded by 19 (`2^255 = 19`).
#[inline(always)]
pub(crate) const fn mul(a: &Fe, b: &Fe) -> Fe {
    debug_assert!(within(a, INPUT_LIMB_LIMIT) && within(b, INPUT_LIMB_LIMIT));
    // b[i] * 19 < 2^59: still a u64.
    let b1 = b[1] * 19;
    let b2 = b[2] * 19;
    let b3 = b[3] * 19;
    let b4 = b[4] * 19;
    reduce_wide([
        m(a[0], b[0]) + m(a[1], b4) + m(a[2], b3) + m(a[3], b2) + m(a[4], b1),
        m(a[0], b[1]) + m(a[1], b[0]) + m(a[2], b4) + m(a[3], b3) + m(a[4], b2),
        m(a[0], b[2]) + m(a[1], b[1]) + m(a[2], b[0]) + m(a[3], b4) + m(a[4], b3),
        m(a[0], b[3]) + m(a[1], b[2]) + m(a[2], b[1]) + m(a[3], b[0]) + m(a[4], b4),
        m(a[0], b[4]) + m(a[1], b[3]) + m(a[2], b[2]) + m(a[3], b[1]) + m(a[4], b[0]),
    ])
}

/// `a^2`: input `< 2^54`, tight out (the cross products computed once, doubled).
#[inline(always)]
pub(crate) const fn sqr(a: &Fe) -> Fe {
    debug_assert!(within(a, INPUT_LIMB_LIMIT));
    let d0 = a[0] * 2;
    let d1 = a[1] * 2;
    let d3_19 = a[3] * 2 * 19;
    let a3_19 = a[3] * 19;
    let a4_19 = a[4] * 19;
    reduce_wide([
        m(a[0], a[0]) + m(d1, a4_19) + m(a[2] * 2, a3_19),
        m(d0, a[1]) + m(a[2] * 2, a4_19) + m(a[3], a3_19),
        m(d0, a[2]) + m(a[1], a[1]) + m(d3_19, a[4]),
        m(d0, a[3]) + m(d1, a[2]) + m(a[4], a4_19),
        m(d0, a[4]) + m(d1, a[3]) + m(a[2], a[2]),
    ])
}

/// `a * 121666`: input `< 2^54`, tight out.
#[inline(always)]
pub(crate) const fn mul_a24(a: &Fe) -> Fe {
    debug_assert!(within(a, INPUT_LIMB_LIMIT));
    const A24: u64 = 121_666;
    reduce_wide([
        m(a[0], A24),
        m(a[1], A24),
        m(a[2], A24),
        m(a[3], A24),
        m(a[4], A24),
    ])
}

/// RFC 7748 section 5 decoding: the low 255 bits of the little-endian integer (tight out).
#[inline(always)]
pub(crate) const fn from_bytes(b: &[u8; 32]) -> Fe {
    let mut w = [0u64; 4];
    let mut i = 0;
    while i < 32 {
        w[i / 8] |= (b[i] as u64) << (8 * (i % 8));
        i += 1;
    }
    [
        w[0] & MASK,
        ((w[0] >> 51) | (w[1] << 13)) & MASK,
        ((w[1] >> 38) | (w[2] << 26)) & MASK,
        ((w[2] >> 25) | (w[3] << 39)) & MASK,
        (w[3] >> 12) & MASK,
    ]
}

/// The canonical value (`< p`) as four 64-bit words. Input `< 2^54`.
#[inline(always)]
pub(crate) const fn to_words(a: &Fe) -> [u64; 4] {
    debug_assert!(within(a, INPUT_LIMB_LIMIT));
    // Two carry passes: limbs < 2^51 + 2^4 * 19 ... in effect < 2^52, value < 2p.
    let l = carry(carry(*a));
    // q = 1 exactly when l >= p: l + 19 reaches 2^255.
    let mut q = (l[0] + 19) >> 51;
    q = (l[1] + q) >> 51;
    q = (l[2] + q) >> 51;
    q = (l[3] + q) >> 51;
    q = (l[4] + q) >> 51;
    // l - q p = l + 19 q - q 2^255: add 19 q, carry, drop bit 255.
    let mut r = l;
    r[0] += 19 * q;
    r[1] += r[0] >> 51;
    r[0] &= MASK;
    r[2] += r[1] >> 51;
    r[1] &= MASK;
    r[3] += r[2] >> 51;
    r[2] &= MASK;
    r[4] += r[3] >> 51;
    r[3] &= MASK;
    r[4] &= MASK;
    [
        r[0] | (r[1] << 51),
        (r[1] >> 13) | (r[2] << 38),
        (r[2] >> 26) | (r[3] << 25),
        (r[3] >> 39) | (r[4] << 12),
    ]
}

/// The canonical little-endian encoding. Input `< 2^54`.
#[inline(always)]
pub(crate) const fn to_bytes(a: &Fe) -> [u8; 32] {
    let w = to_words(a);
    let mut out = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        out[i] = (w[i / 8] >> (8 * (i % 8))) as u8;
        i += 1;
    }
    out
}

/// `a^(p-2)`, the inverse (0 for 0), as a `const fn` for the table builder (the runtime paths
/// use the divsteps of `crate::inverse`; the unit tests hold both to the same results).
pub(crate) const fn invert(z: &Fe) -> Fe {
    const fn sqr_n(a: &Fe, n: usize) -> Fe {
        let mut r = sqr(a);
        let mut i = 1;
        while i < n {
            r = sqr(&r);
            i += 1;
        }
        r
    }
    let z2 = sqr(z);
    let t = sqr_n(&z2, 2);
    let z9 = mul(&t, z);
    let z11 = mul(&z9, &z2);
    let t = sqr(&z11);
    let z_5_0 = mul(&t, &z9);
    let t = sqr_n(&z_5_0, 5);
    let z_10_0 = mul(&t, &z_5_0);
    let t = sqr_n(&z_10_0, 10);
    let z_20_0 = mul(&t, &z_10_0);
    let t = sqr_n(&z_20_0, 20);
    let t = mul(&t, &z_20_0);
    let t = sqr_n(&t, 10);
    let z_50_0 = mul(&t, &z_10_0);
    let t = sqr_n(&z_50_0, 50);
    let z_100_0 = mul(&t, &z_50_0);
    let t = sqr_n(&z_100_0, 100);
    let t = mul(&t, &z_100_0);
    let t = sqr_n(&t, 50);
    let t = mul(&t, &z_50_0);
    let t = sqr_n(&t, 5);
    mul(&t, &z11)
}
