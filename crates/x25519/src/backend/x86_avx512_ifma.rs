//! AVX-512 IFMA backend for the variable-base ladder: the four multiplications of each stage of
//! a ladder step run as one four-way multiplication, one field element per 64-bit lane of a
//! ymm register, in radix 2^51 with the 52-bit multiply-adds (`vpmadd52luq`/`vpmadd52huq`).
//!
//! A ladder step is three four-way multiplications:
//! 1. `[AA, BB, DA, CB] = [A, B, D, C] * [A, B, A, B]` from `[A, B, C, D] = [x2 + z2,
//!    x2 - z2, x3 + z3, x3 - z3]`;
//! 2. `[x2', x3', G^2, 121666 E] = [AA, F, G, E] * [BB, F, G, 121666]` with `E = AA - BB`,
//!    `F = DA + CB`, `G = DA - CB`;
//! 3. `z2' = E (BB + 121666 E)` and `z3' = x1 G^2` in lanes 1 and 3 (lanes 0 and 2 idle),
//!
//! the conditional swap of the ladder being a masked move of the two 128-bit halves
//! `(x2, z2)`, `(x3, z3)` (a mask register computed from the swap bit, no branch). The last
//! swap and the three final doublings are three more steps, the first with that swap and the
//! other two without (the doubling half of a step reads only `x2`, `z2`); `x2 / z2` is then
//! computed with the portable field (one inversion by divsteps, one multiplication). The
//! fixed-base path (key generation) runs the schedule of `crate::base` with each mixed
//! addition and doubling as two four-way multiplications.
//!
//! Bounds. A product reads 52 bits of each limb, so every multiplication input has limbs
//! `< 2^52`. Outputs of [`mul4`] and of [`carry`] are *reduced*: limbs `< 2^51 + 2^15`. Sums and
//! differences of reduced values go through [`carry`] before they are multiplied.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use subtle::Choice;

use tessera_cpu::{Portable, X86Avx512Ifma};

use crate::fe51;
use crate::field::Field;
#[cfg(tessera_test_hooks)]
use crate::field_op::{FieldOp, field_op_generic};
use crate::inverse::invert;
use crate::scalar::{clamp, last_swap, recode, swap_before};
use crate::table::TABLE_X4;

/// Limb `k` of four field elements, one per lane: `F4[k]` lane `j` is limb `k` of element `j`,
/// the element being `sum l_k 2^(51 k)`.
type F4 = [__m256i; 5];

const M51: u64 = (1 << 51) - 1;

/// `2 p` in radix 2^51: added before a subtraction of a reduced value (limbs `< 2^52 - 38`),
/// so no limb goes negative.
const TWO_P: [u64; 5] = [2 * ((1 << 51) - 19), 2 * M51, 2 * M51, 2 * M51, 2 * M51];

/// The broadcast `x` (compiled into the island).
#[inline(always)]
fn splat(t: X86Avx512Ifma, x: u64) -> __m256i {
    let _ = t;
    // SAFETY: AVX proven by `t`.
    unsafe { _mm256_set1_epi64x(x as i64) }
}

/// One parallel carry pass: limb `k` keeps its low 51 bits and passes the rest to limb
/// `k + 1` (limb 4's to limb 0, times 19). Limbs `< 2^61` in: carries `< 2^10`, so the output
/// is reduced (limb 0 `< 2^51 + 19 * 2^10`, the others `< 2^51 + 2^10`).
#[inline(always)]
fn carry(t: X86Avx512Ifma, w: &F4) -> F4 {
    let m = splat(t, M51);
    // SAFETY: AVX2 proven by `t`.
    unsafe {
        let mut c = [_mm256_setzero_si256(); 5];
        for (c, w) in c.iter_mut().zip(w) {
            *c = _mm256_srli_epi64::<51>(*w);
        }
        let c19 = _mm256_add_epi64(
            c[4],
            _mm256_add_epi64(_mm256_slli_epi64::<1>(c[4]), _mm256_slli_epi64::<4>(c[4])),
        );
        [
            _mm256_add_epi64(_mm256_and_si256(w[0], m), c19),
            _mm256_add_epi64(_mm256_and_si256(w[1], m), c[0]),
            _mm256_add_epi64(_mm256_and_si256(w[2], m), c[1]),
            _mm256_add_epi64(_mm256_and_si256(w[3], m), c[2]),
            _mm256_add_epi64(_mm256_and_si256(w[4], m), c[3]),
        ]
    }
}

/// `a * b` lane-wise, inputs with limbs `< 2^52`, output reduced.
///
/// Product `a_i b_k` has weight `2^(51 (i + k))`; its low 52 bits go to column `i + k` and
/// its high 52 bits, at weight `2^(51 (i + k) + 52) = 2 * 2^(51 (i + k + 1))`, to column
/// `i + k + 1` doubled. Columns 5..9 come back times 19 (`2^255 = 19 mod p`). A column holds
/// at most five low halves and five doubled high halves of 52 bits (the largest, column 5:
/// four and five), `< 14 * 2^52 < 2^56`; with the fold (`column + 19 column'`) `< 267 * 2^52 <
/// 2^61`, the bound of [`carry`].
#[inline(always)]
fn mul4(t: X86Avx512Ifma, a: &F4, b: &F4) -> F4 {
    let _ = t;
    // SAFETY: AVX-512 F/VL and IFMA proven by `t`.
    unsafe {
        let z = _mm256_setzero_si256();
        // The sums of columns 3, 4 and 5 (four or five products) in two chains, even and odd
        // `i`, the others in one: multiply-add chains at most three deep.
        let mut lo = [[z; 9]; 2];
        let mut hi = [[z; 9]; 2];
        for i in 0..5 {
            for k in 0..5 {
                let s = if (3..=5).contains(&(i + k)) { i & 1 } else { 0 };
                lo[s][i + k] = _mm256_madd52lo_epu64(lo[s][i + k], a[i], b[k]);
                hi[s][i + k] = _mm256_madd52hi_epu64(hi[s][i + k], a[i], b[k]);
            }
        }
        let mut col = [z; 10];
        for j in 0..10 {
            let mut c = z;
            if j < 9 {
                c = lo[0][j];
                if (3..=5).contains(&j) {
                    c = _mm256_add_epi64(c, lo[1][j]);
                }
            }
            if j > 0 {
                let mut h = hi[0][j - 1];
                if (3..=5).contains(&(j - 1)) {
                    h = _mm256_add_epi64(h, hi[1][j - 1]);
                }
                c = _mm256_add_epi64(c, _mm256_add_epi64(h, h));
            }
            col[j] = c;
        }
        let mut w = [z; 5];
        for j in 0..5 {
            let u = col[j + 5];
            let u19 = _mm256_add_epi64(
                u,
                _mm256_add_epi64(_mm256_slli_epi64::<1>(u), _mm256_slli_epi64::<4>(u)),
            );
            w[j] = _mm256_add_epi64(col[j], u19);
        }
        carry(t, &w)
    }
}

/// `a + b` lane-wise, no carry (limbs of reduced inputs sum below `2^53`).
#[inline(always)]
fn add(t: X86Avx512Ifma, a: &F4, b: &F4) -> F4 {
    let _ = t;
    let mut r = *a;
    for (r, b) in r.iter_mut().zip(b) {
        // SAFETY: AVX2 proven by `t`.
        *r = unsafe { _mm256_add_epi64(*r, *b) };
    }
    r
}

/// `2 p - b` in the lanes where `k` is set, `b` in the others (`b` reduced), no carry; limbs
/// `< 2^52`.
#[inline(always)]
fn neg_lanes(t: X86Avx512Ifma, k: __mmask8, b: &F4) -> F4 {
    let mut r = *b;
    for (r, p) in r.iter_mut().zip(TWO_P) {
        // SAFETY: AVX-512 F/VL proven by `t`.
        *r = unsafe { _mm256_mask_sub_epi64(*r, k, splat(t, p), *r) };
    }
    r
}

/// Lanes where `k` is set from `b`, the others from `a` (`vpblendmq` / masked move).
#[inline(always)]
fn select(t: X86Avx512Ifma, a: &F4, k: __mmask8, b: &F4) -> F4 {
    let _ = t;
    let mut r = *a;
    for (r, b) in r.iter_mut().zip(b) {
        // SAFETY: AVX-512 F/VL proven by `t`.
        *r = unsafe { _mm256_mask_mov_epi64(*r, k, *b) };
    }
    r
}

/// Lanes where `k` is set from `a`, the others zero.
#[inline(always)]
fn keep(t: X86Avx512Ifma, k: __mmask8, a: &F4) -> F4 {
    let _ = t;
    let mut r = *a;
    for r in r.iter_mut() {
        // SAFETY: AVX-512 F/VL proven by `t`.
        *r = unsafe { _mm256_maskz_mov_epi64(k, *r) };
    }
    r
}

/// Lane `j` of the result is lane `IMM >> 2j & 3` of `a` (`vpermq`).
#[inline(always)]
fn perm<const IMM: i32>(t: X86Avx512Ifma, a: &F4) -> F4 {
    let _ = t;
    let mut r = *a;
    for r in r.iter_mut() {
        // SAFETY: AVX2 proven by `t`.
        *r = unsafe { _mm256_permute4x64_epi64::<IMM>(*r) };
    }
    r
}

/// The lane index bytes of [`perm`].
const fn lanes(l0: i32, l1: i32, l2: i32, l3: i32) -> i32 {
    l0 | l1 << 2 | l2 << 4 | l3 << 6
}

/// One ladder step on `p = [x2, z2, x3, z3]`: when `swap` is set the halves `(x2, z2)` and
/// `(x3, z3)` are exchanged first; `x1k = [.., .., .., x1]`, `a24 = [.., .., .., 121666]`.
#[inline(always)]
fn step(t: X86Avx512Ifma, p: &F4, swap: u8, x1k: &F4, a24: &F4) -> F4 {
    // The mask is all four lanes or none, from the bit by arithmetic; the bit goes through
    // `subtle`'s opaque `Choice` first, so the compiler cannot see that one bit decides every
    // lane and turn the masked moves into a select on it (which x86 lowers with a branch).
    let k = 0u8.wrapping_sub(Choice::from(swap & 1).unwrap_u8()) & 0x0f;
    let other = perm::<{ lanes(2, 3, 0, 1) }>(t, p);
    let p = select(t, p, k, &other);
    // [x2, x2, x3, x3] and [z2, -z2, z3, -z3] give [A, B, C, D].
    let x = perm::<{ lanes(0, 0, 2, 2) }>(t, &p);
    let z = perm::<{ lanes(1, 1, 3, 3) }>(t, &p);
    let abcd = carry(t, &add(t, &x, &neg_lanes(t, 0b1010, &z)));
    // [A, B, D, C] * [A, B, A, B] = [AA, BB, DA, CB].
    let m1 = mul4(
        t,
        &perm::<{ lanes(0, 1, 3, 2) }>(t, &abcd),
        &perm::<{ lanes(0, 1, 0, 1) }>(t, &abcd),
    );
    // [AA, DA, DA, AA] + [0, CB, -CB, -BB] = [AA, F, G, E].
    let u = perm::<{ lanes(0, 2, 2, 0) }>(t, &m1);
    let v = perm::<{ lanes(1, 3, 3, 1) }>(t, &m1);
    let vs = keep(t, 0b1110, &neg_lanes(t, 0b1100, &v));
    let afge = carry(t, &add(t, &u, &vs));
    // [AA, F, G, E] * [BB, F, G, 121666] = [x2', x3', G^2, 121666 E].
    let r2 = select(t, &select(t, &afge, 0b0001, &v), 0b1000, a24);
    let m2 = mul4(t, &afge, &r2);
    // [.., 121666 E + BB, .., G^2] * [.., E, .., x1] = [.., z2', .., z3'].
    let w = perm::<{ lanes(3, 3, 2, 2) }>(t, &m2);
    let bb = keep(t, 0b0010, &perm::<{ lanes(0, 0, 0, 0) }>(t, &v));
    let l3 = carry(t, &add(t, &w, &bb));
    let r3 = select(t, &perm::<{ lanes(3, 3, 3, 3) }>(t, &afge), 0b1000, x1k);
    let m3 = mul4(t, &l3, &r3);
    // [x2', z2', x3', z3'].
    select(t, &perm::<{ lanes(0, 0, 1, 1) }>(t, &m2), 0b1010, &m3)
}

/// The four elements `e` (portable radix-2^51 limbs, each `< 2^52`) as lanes 0..4.
#[inline(always)]
fn load(t: X86Avx512Ifma, e: &[fe51::Fe; 4]) -> F4 {
    let _ = t;
    // SAFETY: AVX proven by `t`.
    let mut v = [unsafe { _mm256_setzero_si256() }; 5];
    for (k, v) in v.iter_mut().enumerate() {
        // SAFETY: AVX proven by `t`.
        *v = unsafe {
            _mm256_setr_epi64x(
                e[0][k] as i64,
                e[1][k] as i64,
                e[2][k] as i64,
                e[3][k] as i64,
            )
        };
    }
    v
}

/// Lanes 0..4 as portable radix-2^51 elements.
#[inline(always)]
fn store(t: X86Avx512Ifma, v: &F4) -> [fe51::Fe; 4] {
    let _ = t;
    let mut e = [[0u64; 5]; 4];
    for (k, x) in v.iter().enumerate() {
        let mut l = [0u64; 4];
        // SAFETY: AVX proven by `t`; `l` is 32 writable bytes (unaligned store).
        unsafe { _mm256_storeu_si256(l.as_mut_ptr().cast(), *x) };
        for j in 0..4 {
            e[j][k] = l[j];
        }
    }
    e
}

/// `X25519(k, u)` (RFC 7748 section 5) with the four-way ladder; the scalar schedule is the
/// one of `crate::ladder::x25519`. Compiled into the row's island (`#[inline(always)]`).
#[inline(always)]
pub(crate) fn ladder(t: X86Avx512Ifma, k: &[u8; 32], u: &[u8; 32]) -> [u8; 32] {
    let f = Portable;
    let mut s = clamp(k);
    let x1 = f.decode(u);
    let (zero, one) = (f.zero(), f.one());
    let mut p = load(t, &[one, zero, x1, one]);
    let x1k = load(t, &[zero, zero, zero, x1]);
    let a24 = load(t, &[zero, zero, zero, [121666, 0, 0, 0, 0]]);
    for i in (3..255).rev() {
        p = step(t, &p, swap_before(&s, i), &x1k, &a24);
    }
    // The last swap, then three doublings of (x2 : z2) (steps whose (x3 : z3) half is unused).
    p = step(t, &p, last_swap(&s), &x1k, &a24);
    p = step(t, &p, 0, &x1k, &a24);
    p = step(t, &p, 0, &x1k, &a24);
    let mut e = store(t, &p);
    let mut r = invert(f, &e[1]);
    f.mul_assign(&mut r, &e[0]);
    let out = f.encode(&r);
    zeroize::Zeroize::zeroize(&mut s);
    zeroize::Zeroize::zeroize(e.as_flattened_mut());
    zeroize::Zeroize::zeroize(&mut r);
    zeroize::Zeroize::zeroize(&mut p);
    out
}

/// Lanes `[X1, Y1, Z1, T1]` of a completed point (ref10's "p1p1") to `[X, Y, Z, T]` in
/// extended coordinates: `[X1, Y1, Z1, X1] * [T1, Z1, T1, Y1]`.
#[inline(always)]
fn completed_to_extended(t: X86Avx512Ifma, c: &F4) -> F4 {
    mul4(
        t,
        &perm::<{ lanes(0, 1, 2, 0) }>(t, c),
        &perm::<{ lanes(3, 2, 3, 1) }>(t, c),
    )
}

/// `P + Q` as a completed point, `P = [X, Y, Z, T]` extended, `Q = [y + x, y - x, 2 d x y, 2]`
/// (madd-2008-hwcd-3, as the scalar `crate::base`): `[a, b, c, d] = [Y + X, Y - X, T, Z] * Q`,
/// then `[a - b, a + b, d + c, d - c]`.
#[inline(always)]
fn madd(t: X86Avx512Ifma, p: &F4, q: &F4) -> F4 {
    let yytz = perm::<{ lanes(1, 1, 3, 2) }>(t, p);
    let xx = keep(
        t,
        0b0011,
        &neg_lanes(t, 0b0010, &perm::<{ lanes(0, 0, 0, 0) }>(t, p)),
    );
    let m = mul4(t, &carry(t, &add(t, &yytz, &xx)), q);
    let aadd = perm::<{ lanes(0, 0, 3, 3) }>(t, &m);
    let bbcc = neg_lanes(t, 0b1001, &perm::<{ lanes(1, 1, 2, 2) }>(t, &m));
    carry(t, &add(t, &aadd, &bbcc))
}

/// `2 P` as a completed point, `P = [X, Y, Z, ..]` (dbl-2008-hwcd, as the scalar
/// `crate::base`): `[XX, YY, ZZ, AA] = [X, Y, Z, X + Y]^2`, then `[AA - XX - YY, YY + XX,
/// YY - XX, 2 ZZ - YY + XX]`.
#[inline(always)]
fn dbl(t: X86Avx512Ifma, p: &F4) -> F4 {
    let xyzx = perm::<{ lanes(0, 1, 2, 0) }>(t, p);
    let y3 = keep(t, 0b1000, &perm::<{ lanes(1, 1, 1, 1) }>(t, p));
    let v = carry(t, &add(t, &xyzx, &y3));
    let m = mul4(t, &v, &v);
    let t1 = perm::<{ lanes(3, 1, 1, 2) }>(t, &m);
    let t2 = neg_lanes(t, 0b0101, &perm::<{ lanes(0, 0, 0, 0) }>(t, &m));
    let t3 = neg_lanes(
        t,
        0b1001,
        &keep(t, 0b1001, &perm::<{ lanes(1, 1, 1, 1) }>(t, &m)),
    );
    let t4 = keep(t, 0b1000, &perm::<{ lanes(2, 2, 2, 2) }>(t, &m));
    carry(t, &add(t, &add(t, &t1, &t2), &add(t, &t3, &t4)))
}

/// `[y + x, y - x, 2 d x y, 2]` of `d 256^j B` from row `row` of the four-way table, `d` in
/// `[-8, 8]`: every entry is loaded and the match kept by mask, then negated by mask for
/// `d < 0` (swap the first two lanes, negate the third); `d = 0` gives the identity
/// `[1, 1, 0, 2]`. No branch or address depends on `d`.
#[inline(always)]
fn select_x4(t: X86Avx512Ifma, row: &[[u64; 20]; 8], d: i8) -> F4 {
    use subtle::ConstantTimeEq;
    let m = d >> 7; // 0 or -1
    let abs = (d ^ m).wrapping_sub(m) as u8;
    let mut q = load(
        t,
        &[[1, 0, 0, 0, 0], [1, 0, 0, 0, 0], [0; 5], [2, 0, 0, 0, 0]],
    );
    for (k, e) in row.iter().enumerate() {
        let hit = 0u8.wrapping_sub(abs.ct_eq(&(k as u8 + 1)).unwrap_u8()) & 0x0f;
        for (l, v) in q.iter_mut().enumerate() {
            // SAFETY: AVX-512 F/VL proven by `t`; `e[4 l..4 l + 4]` is 32 readable bytes
            // (`l < 5`, 20 words), unaligned load.
            *v = unsafe {
                _mm256_mask_mov_epi64(*v, hit, _mm256_loadu_si256(e[4 * l..].as_ptr().cast()))
            };
        }
    }
    // Through `Choice` for the reason given in `step`.
    let neg = 0u8.wrapping_sub(Choice::from((m & 1) as u8).unwrap_u8()) & 0x0f;
    let minus = neg_lanes(t, 0b0100, &perm::<{ lanes(1, 0, 2, 3) }>(t, &q));
    select(t, &q, neg, &minus)
}

/// `X25519(k, 9)` on edwards25519 with the four-way arithmetic: the schedule of
/// `crate::base::x25519_base` (64 signed radix-16 digits, 64 mixed additions of table
/// entries, four doublings), each addition and doubling two four-way multiplications; the
/// Montgomery `u = (T + Y) / (T - Y)` of the last completed point with the portable field.
#[inline(always)]
pub(crate) fn base(t: X86Avx512Ifma, k: &[u8; 32]) -> [u8; 32] {
    let f = Portable;
    let table = &TABLE_X4;
    let mut sc = clamp(k);
    let mut e = recode(&sc);
    let (zero, one) = (f.zero(), f.one());
    let mut h = load(t, &[zero, one, one, zero]);
    // The selected entry (it names a secret digit), wiped once at the end.
    let mut q = h;
    for (j, row) in table.iter().enumerate() {
        q = select_x4(t, row, e[2 * j + 1]);
        h = completed_to_extended(t, &madd(t, &h, &q));
    }
    for _ in 0..4 {
        h = completed_to_extended(t, &dbl(t, &h));
    }
    let mut c = h;
    for (j, row) in table.iter().enumerate() {
        q = select_x4(t, row, e[2 * j]);
        c = madd(t, &h, &q);
        if j < 31 {
            h = completed_to_extended(t, &c);
        }
    }
    let mut l = store(t, &c);
    let (mut num, mut den) = (zero, zero);
    f.add(&mut num, &l[3], &l[1]);
    f.sub(&mut den, &l[3], &l[1]);
    let mut u = invert(f, &den);
    f.mul_assign(&mut u, &num);
    let out = f.encode(&u);
    zeroize::Zeroize::zeroize(&mut sc);
    zeroize::Zeroize::zeroize(&mut e);
    zeroize::Zeroize::zeroize(l.as_flattened_mut());
    for v in [&mut num, &mut den, &mut u] {
        zeroize::Zeroize::zeroize(v);
    }
    zeroize::Zeroize::zeroize(&mut h);
    zeroize::Zeroize::zeroize(&mut c);
    zeroize::Zeroize::zeroize(&mut q);
    out
}

/// One field operation (test hook; see `crate::testing`): addition, subtraction,
/// multiplication, squaring and the multiplication by 121666 run four-way (the same inputs in
/// every lane; the lanes must agree), the rest on the portable field.
#[cfg(tessera_test_hooks)]
#[inline(always)]
pub(crate) fn field_op(t: X86Avx512Ifma, op: FieldOp, a: &[u64; 4], b: &[u64; 4]) -> [u8; 32] {
    let f = Portable;
    let (x, y) = (f.load_words(a), f.load_words(b));
    let (xv, yv) = (load(t, &[x; 4]), load(t, &[y; 4]));
    let r = match op {
        FieldOp::Add => carry(t, &add(t, &xv, &yv)),
        // The subtrahend must be reduced (a loaded limb 4 can reach 2^52 - 1).
        FieldOp::Sub => carry(t, &add(t, &xv, &neg_lanes(t, 0x0f, &carry(t, &yv)))),
        FieldOp::Mul => mul4(t, &xv, &yv),
        FieldOp::Sqr => mul4(t, &xv, &xv),
        FieldOp::MulA24 => mul4(t, &xv, &load(t, &[[121666, 0, 0, 0, 0]; 4])),
        _ => return field_op_generic(f, op, a, b),
    };
    let e = store(t, &r);
    assert!(e.iter().all(|l| *l == e[0]), "lanes disagree");
    f.encode(&e[0])
}

/// The four-way field at its limits (run by `crate::tests`, which holds the backend table).
#[cfg(test)]
pub(crate) mod tests {
    extern crate std;
    use super::*;
    use std::{vec, vec::Vec};

    /// The value of radix-2^51 limbs `< 2^64` mod p, canonical, from the portable field: each
    /// limb split into 51-bit pieces, times the power of two of its place.
    fn reference(l: &[u64; 5]) -> [u8; 32] {
        let f = Portable;
        let mut acc = f.zero();
        for (k, &x) in l.iter().enumerate() {
            // x 2^(51 k): the low 51 bits of `x` at limb `k`, the other 13 at limb `k + 1`.
            let mut e = [0u64; 5];
            let place = |j: usize, v: u64, e: &mut [u64; 5]| {
                // Limb position j >= 5 wraps around times 19 (2^255 = 19 mod p).
                if j < 5 { e[j] += v } else { e[j - 5] += 19 * v }
            };
            place(k, x & M51, &mut e);
            place(k + 1, x >> 51, &mut e);
            let mut s = f.zero();
            f.add(&mut s, &acc, &e);
            f.mul(&mut acc, &s, &f.one());
        }
        f.encode(&acc)
    }

    /// Deterministic limbs below `limit`, and the patterns at the limit.
    fn samples(limit: u64) -> Vec<[u64; 5]> {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut v = vec![
            [limit - 1; 5],
            [0; 5],
            [limit - 1, 0, limit - 1, 0, limit - 1],
        ];
        v.push([0, limit - 1, 0, limit - 1, 0]);
        for _ in 0..200 {
            let mut e = [0u64; 5];
            for l in e.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Half the limbs near the limit, where carries are largest.
                *l = if x & 1 == 0 {
                    limit - 1 - (x >> 40) % 64
                } else {
                    x % limit
                };
            }
            v.push(e);
        }
        v
    }

    tessera_cpu::island! {
        /// The four-way operations at their documented input limits against the portable field:
        /// `mul4` with limbs up to `2^52 - 1`, `carry` with limbs up to `2^61 - 1`, the
        /// subtraction of a reduced value (limbs up to `2^51 + 19 * 2^10`) through `neg_lanes`.
        pub(crate) fn check_limits(t: X86Avx512Ifma) -> usize {
            let f = Portable;
            let mul_in = samples(1 << 52);
            let carry_in = samples(1 << 61);
            let reduced = samples((1 << 51) + (19 << 10));
            let mut n = 0;
            for (i, a) in mul_in.iter().enumerate() {
                let b = &mul_in[(7 * i + 3) % mul_in.len()];
                let c = &mul_in[(5 * i + 1) % mul_in.len()];
                let d = &mul_in[(11 * i + 2) % mul_in.len()];
                let r = store(t, &mul4(t, &load(t, &[*a, *b, *c, *d]), &load(t, &[*b, *c, *d, *a])));
                for (j, (x, y)) in [(a, b), (b, c), (c, d), (d, a)].into_iter().enumerate() {
                    let mut want = f.zero();
                    f.mul(&mut want, x, y);
                    assert_eq!(f.encode(&r[j]), f.encode(&want), "mul4 {x:x?} {y:x?}");
                    assert!(r[j].iter().all(|&l| l < (1 << 51) + (19 << 10)), "mul4 bound");
                }
                let w = &carry_in[i];
                let r = store(t, &carry(t, &load(t, &[*w; 4])));
                assert_eq!(f.encode(&r[0]), reference(w), "carry {w:x?}");
                assert!(r[0].iter().all(|&l| l < (1 << 51) + (19 << 10)), "carry bound");
                let (x, y) = (&reduced[i], &reduced[(3 * i + 1) % reduced.len()]);
                let diff = carry(t, &add(t, &load(t, &[*x; 4]), &neg_lanes(t, 0b0101, &load(t, &[*y; 4]))));
                let r = store(t, &diff);
                let mut want = f.zero();
                f.sub(&mut want, x, y);
                assert_eq!(f.encode(&r[0]), f.encode(&want), "sub {x:x?} {y:x?}");
                let mut sum = f.zero();
                f.add(&mut sum, x, y);
                let mut sum_t = f.zero();
                f.mul(&mut sum_t, &sum, &f.one());
                assert_eq!(f.encode(&r[1]), f.encode(&sum_t), "add {x:x?} {y:x?}");
                n += 1;
            }
            n
        }
    }
}
