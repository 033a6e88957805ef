//! GF(2^255 - 19) in four 64-bit limbs, shared by the 64-bit backends (`x86_bmi2_adx` replaces
//! `mul` and `sqr` with MULX/ADCX/ADOX assembly; `aarch64` uses everything here, which LLVM
//! compiles to MUL/UMULH and ADDS/ADCS chains).
//!
//! Representation: any integer in `[0, 2^256)` stands for itself mod p (`2^256 = 38`), so
//! every operation accepts every input (no limb bounds to track) and returns a value in
//! `[0, 2^256)`; only [`to_bytes`] reduces fully.
#![forbid(unsafe_code)]

use subtle::{Choice, ConditionallySelectable};

use crate::field::Niels;

/// A field element: `l[0] + l[1] 2^64 + l[2] 2^128 + l[3] 2^192`, any value below 2^256.
pub(crate) type Fe = [u64; 4];

pub(crate) const ZERO: Fe = [0; 4];
pub(crate) const ONE: Fe = [1, 0, 0, 0];

/// `a + b + c` with carries as `bool` (the shape LLVM turns into ADC chains).
#[inline(always)]
fn adc(a: u64, b: u64, c: bool) -> (u64, bool) {
    let (s, c1) = a.overflowing_add(b);
    let (s, c2) = s.overflowing_add(c as u64);
    (s, c1 | c2)
}

/// `a - b - borrow` with borrows as `bool` (SBB chains).
#[inline(always)]
fn sbb(a: u64, b: u64, borrow: bool) -> (u64, bool) {
    let (s, b1) = a.overflowing_sub(b);
    let (s, b2) = s.overflowing_sub(borrow as u64);
    (s, b1 | b2)
}

/// `38` when `k` is set, else 0, by mask: a carry is secret, and LLVM turns `k as u64 * 38`
/// into a select that x86 may compile to a branch; `subtle`'s `Choice` hides that the value
/// is 0 or 1, so this stays arithmetic.
#[inline(always)]
fn fold38(k: bool) -> u64 {
    u64::conditional_select(&0, &38, Choice::from(k as u8))
}

/// `a + x` for a word `x`: a wrap past 2^256 (possible only when `x` is large enough to
/// carry through) is `+38`, and leaves the low limb below `x`, so the last fold of `38`
/// cannot carry when `x <= 2^64 - 39`.
#[inline(always)]
pub(crate) fn add_word(a: Fe, x: u64) -> Fe {
    let (r0, k) = a[0].overflowing_add(x);
    let (r1, k) = adc(a[1], 0, k);
    let (r2, k) = adc(a[2], 0, k);
    let (r3, k) = adc(a[3], 0, k);
    [r0.wrapping_add(fold38(k)), r1, r2, r3]
}

/// `a + b` mod p, in `[0, 2^256)`: a carry out of 2^256 is `+38`.
#[inline(always)]
pub(crate) fn add(a: &Fe, b: &Fe) -> Fe {
    let (r0, c) = a[0].overflowing_add(b[0]);
    let (r1, c) = adc(a[1], b[1], c);
    let (r2, c) = adc(a[2], b[2], c);
    let (r3, c) = adc(a[3], b[3], c);
    add_word([r0, r1, r2, r3], fold38(c))
}

/// `a - b` mod p, in `[0, 2^256)`: a borrow out of 2^256 is `-2^256 = -38`.
#[inline(always)]
pub(crate) fn sub(a: &Fe, b: &Fe) -> Fe {
    let (r0, c) = a[0].overflowing_sub(b[0]);
    let (r1, c) = sbb(a[1], b[1], c);
    let (r2, c) = sbb(a[2], b[2], c);
    let (r3, c) = sbb(a[3], b[3], c);
    let (r0, k) = r0.overflowing_sub(fold38(c));
    let (r1, k) = sbb(r1, 0, k);
    let (r2, k) = sbb(r2, 0, k);
    let (r3, k) = sbb(r3, 0, k);
    // A second borrow leaves r0 above 2^64 - 38: subtracting 38 more cannot borrow.
    [r0.wrapping_sub(fold38(k)), r1, r2, r3]
}

/// `-a` mod p.
#[inline(always)]
pub(crate) fn neg(a: &Fe) -> Fe {
    sub(&ZERO, a)
}

/// Folds an 8-limb product (`< 2^512`) to `[0, 2^256)`: `lo + 38 hi`.
#[inline(always)]
pub(crate) fn reduce_wide(t: [u64; 8]) -> Fe {
    let mut r = [0u64; 4];
    let mut c: u128 = 0;
    for i in 0..4 {
        c += t[i] as u128 + (t[i + 4] as u128) * 38;
        r[i] = c as u64;
        c >>= 64;
    }
    // c <= 38: fold it in (38 * 38 < 2^64).
    add_word(r, c as u64 * 38)
}

/// `a * b` mod p, schoolbook on `u128` products.
#[inline(always)]
pub(crate) fn mul(a: &Fe, b: &Fe) -> Fe {
    let mut t = [0u64; 8];
    for i in 0..4 {
        let mut c: u128 = 0;
        for j in 0..4 {
            c += (a[j] as u128) * (b[i] as u128) + t[i + j] as u128;
            t[i + j] = c as u64;
            c >>= 64;
        }
        t[i + 4] = c as u64;
    }
    reduce_wide(t)
}

/// `a^2` mod p: the six cross products once, doubled, plus the four squares.
#[inline(always)]
pub(crate) fn sqr(a: &Fe) -> Fe {
    let p = |x: u64, y: u64| (x as u128) * (y as u128);
    // Cross products a_i a_j (i < j) accumulated by column.
    let mut t = [0u64; 8];
    let mut c: u128 = p(a[0], a[1]);
    t[1] = c as u64;
    c = (c >> 64) + p(a[0], a[2]);
    t[2] = c as u64;
    c = (c >> 64) + p(a[0], a[3]);
    t[3] = c as u64;
    t[4] = (c >> 64) as u64;
    c = t[3] as u128 + p(a[1], a[2]);
    t[3] = c as u64;
    c = (c >> 64) + t[4] as u128 + p(a[1], a[3]);
    t[4] = c as u64;
    t[5] = (c >> 64) as u64;
    c = t[5] as u128 + p(a[2], a[3]);
    t[5] = c as u64;
    t[6] = (c >> 64) as u64;
    // Double and add the squares.
    t[7] = t[6] >> 63;
    t[6] = (t[6] << 1) | (t[5] >> 63);
    t[5] = (t[5] << 1) | (t[4] >> 63);
    t[4] = (t[4] << 1) | (t[3] >> 63);
    t[3] = (t[3] << 1) | (t[2] >> 63);
    t[2] = (t[2] << 1) | (t[1] >> 63);
    t[1] <<= 1;
    let mut k: u128 = 0;
    for i in 0..4 {
        let s = p(a[i], a[i]);
        k += t[2 * i] as u128 + (s as u64) as u128;
        t[2 * i] = k as u64;
        k >>= 64;
        k += t[2 * i + 1] as u128 + (s >> 64);
        t[2 * i + 1] = k as u64;
        k >>= 64;
    }
    reduce_wide(t)
}

/// `a * 121666` mod p.
#[inline(always)]
pub(crate) fn mul_a24(a: &Fe) -> Fe {
    const A24: u128 = 121_666;
    let mut r = [0u64; 4];
    let mut c: u128 = 0;
    for i in 0..4 {
        c += a[i] as u128 * A24;
        r[i] = c as u64;
        c >>= 64;
    }
    // c < 121666: 38 c < 2^64.
    add_word(r, c as u64 * 38)
}

/// RFC 7748 section 5 decoding: the little-endian integer with bit 255 cleared.
#[inline(always)]
pub(crate) fn from_bytes(b: &[u8; 32]) -> Fe {
    let w = |i: usize| {
        u64::from_le_bytes([
            b[8 * i],
            b[8 * i + 1],
            b[8 * i + 2],
            b[8 * i + 3],
            b[8 * i + 4],
            b[8 * i + 5],
            b[8 * i + 6],
            b[8 * i + 7],
        ])
    };
    [w(0), w(1), w(2), w(3) & (u64::MAX >> 1)]
}

/// The canonical value (`< p`) of any `a < 2^256`.
#[inline(always)]
pub(crate) fn to_words(a: &Fe) -> Fe {
    // Fold bit 255 (2^255 = 19): now below 2^255 + 19 < 2p.
    let top = a[3] >> 63;
    let (r0, c) = a[0].overflowing_add(top * 19);
    let (r1, c) = adc(a[1], 0, c);
    let (r2, c) = adc(a[2], 0, c);
    let r3 = (a[3] & (u64::MAX >> 1)) + c as u64;
    // r >= p exactly when r + 19 reaches 2^255; then the answer is r + 19 - 2^255.
    let (s0, c) = r0.overflowing_add(19);
    let (s1, c) = adc(r1, 0, c);
    let (s2, c) = adc(r2, 0, c);
    let s3 = r3 + c as u64;
    let ge = Choice::from((s3 >> 63) as u8);
    [
        u64::conditional_select(&r0, &s0, ge),
        u64::conditional_select(&r1, &s1, ge),
        u64::conditional_select(&r2, &s2, ge),
        u64::conditional_select(&r3, &(s3 & (u64::MAX >> 1)), ge),
    ]
}

/// The canonical little-endian encoding.
#[inline(always)]
pub(crate) fn to_bytes(a: &Fe) -> [u8; 32] {
    let w = to_words(a);
    let mut out = [0u8; 32];
    for (o, x) in out.chunks_exact_mut(8).zip(w) {
        o.copy_from_slice(&x.to_le_bytes());
    }
    out
}

/// Swaps `a` and `b` when `c` is set.
#[inline(always)]
pub(crate) fn cswap(a: &mut Fe, b: &mut Fe, c: Choice) {
    for (x, y) in a.iter_mut().zip(b.iter_mut()) {
        u64::conditional_swap(x, y, c);
    }
}

/// The table lookup of [`crate::field::Field::lookup`] on whole entries: each entry is
/// twelve words (`y + x`, `y - x`, `2 d x y`), OR-accumulated under an all-ones/zero mask
/// (`abs == k + 1`, computed arithmetically, then passed through `black_box` so that LLVM
/// cannot see they are one-hot), which LLVM vectorizes; `abs = 0` matches no entry and its
/// mask puts in the identity `(1, 1, 0)`. Nine masks per lookup instead of a `subtle` call
/// and three masked moves per entry. Requires `abs <= 8`. Used by `x86_bmi2_adx` (where the
/// valgrind leg checks it); the aarch64 backend keeps the `subtle` default until it can be
/// checked there, so off x86_64 only the unit test calls it.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn lookup(row: &[Niels<Fe>; 8], abs: u8) -> Niels<Fe> {
    // All ones when x == 0 (x < 2^63), else 0.
    #[inline(always)]
    fn zero_mask(x: u64) -> u64 {
        ((x | x.wrapping_neg()) >> 63).wrapping_sub(1)
    }
    let abs = u64::from(abs);
    let masks: [u64; 9] = core::array::from_fn(|k| zero_mask(abs ^ k as u64));
    // Without the barrier LLVM sees that exactly one mask is set and turns the whole lookup
    // into a load at a secret index (valgrind's check caught it).
    let masks = core::hint::black_box(masks);
    let mut acc = [0u64; 12];
    acc[0] = masks[0] & 1;
    acc[4] = masks[0] & 1;
    for (e, &m) in row.iter().zip(&masks[1..]) {
        for i in 0..4 {
            acc[i] |= m & e.ypx[i];
            acc[4 + i] |= m & e.ymx[i];
            acc[8 + i] |= m & e.xy2d[i];
        }
    }
    Niels {
        ypx: [acc[0], acc[1], acc[2], acc[3]],
        ymx: [acc[4], acc[5], acc[6], acc[7]],
        xy2d: [acc[8], acc[9], acc[10], acc[11]],
    }
}

/// Sets `a = b` when `c` is set.
#[inline(always)]
pub(crate) fn cmov(a: &mut Fe, b: &Fe, c: Choice) {
    for (x, y) in a.iter_mut().zip(b) {
        x.conditional_assign(y, c);
    }
}

/// The generic 64-bit field (MUL/UMULH from `u128` products), for the aarch64 backend.
/// Implemented on the backend's token so that the operations compile inside its island.
#[cfg_attr(not(any(target_arch = "aarch64", test)), allow(unused_macros))]
macro_rules! impl_field_fe64 {
    ($token:ty) => {
        impl $crate::field::Field for $token {
            type Fe = $crate::fe64::Fe;

            #[inline(always)]
            fn zero(self) -> Self::Fe {
                $crate::fe64::ZERO
            }
            #[inline(always)]
            fn one(self) -> Self::Fe {
                $crate::fe64::ONE
            }
            #[inline(always)]
            fn decode(self, b: &[u8; 32]) -> Self::Fe {
                $crate::fe64::from_bytes(b)
            }
            #[inline(always)]
            fn encode(self, a: &Self::Fe) -> [u8; 32] {
                $crate::fe64::to_bytes(a)
            }
            #[inline(always)]
            fn add(self, r: &mut Self::Fe, a: &Self::Fe, b: &Self::Fe) {
                *r = $crate::fe64::add(a, b);
            }
            #[inline(always)]
            fn sub(self, r: &mut Self::Fe, a: &Self::Fe, b: &Self::Fe) {
                *r = $crate::fe64::sub(a, b);
            }
            #[inline(always)]
            fn neg(self, r: &mut Self::Fe, a: &Self::Fe) {
                *r = $crate::fe64::neg(a);
            }
            #[inline(always)]
            fn mul(self, r: &mut Self::Fe, a: &Self::Fe, b: &Self::Fe) {
                *r = $crate::fe64::mul(a, b);
            }
            #[inline(always)]
            fn mul_assign(self, a: &mut Self::Fe, b: &Self::Fe) {
                *a = $crate::fe64::mul(a, b);
            }
            #[inline(always)]
            fn sqr(self, r: &mut Self::Fe, a: &Self::Fe) {
                *r = $crate::fe64::sqr(a);
            }
            #[inline(always)]
            fn sqr_assign(self, a: &mut Self::Fe) {
                *a = $crate::fe64::sqr(a);
            }
            #[inline(always)]
            fn mul_a24(self, r: &mut Self::Fe, a: &Self::Fe) {
                *r = $crate::fe64::mul_a24(a);
            }
            #[inline(always)]
            fn cswap(self, a: &mut Self::Fe, b: &mut Self::Fe, c: subtle::Choice) {
                $crate::fe64::cswap(a, b, c)
            }
            #[inline(always)]
            fn cmov(self, a: &mut Self::Fe, b: &Self::Fe, c: subtle::Choice) {
                $crate::fe64::cmov(a, b, c)
            }
            #[inline(always)]
            fn table(self) -> &'static $crate::field::Table<Self::Fe> {
                &$crate::table::TABLE64
            }
            #[inline(always)]
            fn load_words(self, w: &[u64; 4]) -> Self::Fe {
                *w
            }
        }
    };
}
#[cfg_attr(not(target_arch = "aarch64"), allow(unused_imports))]
pub(crate) use impl_field_fe64;

/// The generic 64-bit field run by plain code (no token): the reference the unit tests hold
/// the assembly and the aarch64 build to.
#[cfg(test)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fe64Generic;

#[cfg(test)]
impl_field_fe64!(Fe64Generic);
