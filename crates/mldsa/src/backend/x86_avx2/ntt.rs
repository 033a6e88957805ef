//! The NTT and inverse NTT on AVX2 units, with compile-time zeta tables, and their islands.

use core::arch::x86_64::*;

use tessera_cpu::X86Avx2;

use super::arith::*;
use crate::poly::{self, INVNTT_F, Poly, UNITS, ZETAS};
use crate::unit::{N, Unit};

/// `z * q^-1 mod 2^32` lane-wise: the second operand of [`V::mont_mul_pairs`].
#[inline(always)]
pub(super) const fn zq(z: [i32; N]) -> [i32; N] {
    let mut r = [0; N];
    let mut i = 0;
    while i < N {
        r[i] = z[i].wrapping_mul(QINV);
        i += 1;
    }
    r
}

/// The zeta vectors of the in-unit layers of unit `u` for [`ntt`] and [`invntt`], as the
/// generic [`crate::poly::ntt`] passes them to the trait methods (`[z; 4]` per block for
/// distance 2, each zeta twice for distance 1; the inverse NTT's negated), built at compile
/// time with their `zq` products so the NTT loads them instead of assembling them.
pub(super) struct LayerZetas {
    z: [[i32; N]; UNITS],
    zq: [[i32; N]; UNITS],
}

impl LayerZetas {
    const fn new(f: [[i32; N]; UNITS]) -> Self {
        let mut zq_all = [[0; N]; UNITS];
        let mut u = 0;
        while u < UNITS {
            zq_all[u] = zq(f[u]);
            u += 1;
        }
        LayerZetas { z: f, zq: zq_all }
    }
    /// The two operands for unit `u`.
    #[inline(always)]
    fn get(&self, t: X86Avx2, u: usize) -> (__m256i, __m256i) {
        (V::load(t, &self.z[u]).0, V::load(t, &self.zq[u]).0)
    }
}

/// Lane `i` of unit `u` takes `ZETAS[base + k]` (or `-ZETAS[base - k]` when `neg`), with
/// `k = per u + b` and `b` the block of lane `i` among the unit's `per` blocks (`per` = 2:
/// blocks of 4 lanes; `per` = 4: blocks of 2).
pub(super) const fn layer_table(base: usize, per: usize, neg: bool) -> [[i32; N]; UNITS] {
    let mut r = [[0; N]; UNITS];
    let mut u = 0;
    while u < UNITS {
        let mut i = 0;
        while i < N {
            let k = u * per + (i >> if per == 2 { 2 } else { 1 });
            let z = if neg {
                -ZETAS[base - k]
            } else {
                ZETAS[base + k]
            };
            r[u][i] = z;
            i += 1;
        }
        u += 1;
    }
    r
}

pub(super) const NTT_Z2: LayerZetas = LayerZetas::new(layer_table(64, 2, false));
pub(super) const NTT_Z1: LayerZetas = LayerZetas::new(layer_table(128, 4, false));
pub(super) const INV_Z1: LayerZetas = LayerZetas::new(layer_table(255, 4, true));
pub(super) const INV_Z2: LayerZetas = LayerZetas::new(layer_table(127, 2, true));

/// FIPS 204 Algorithm 41 (NTT) on AVX2 units: [`crate::poly::ntt`] with the in-unit layers'
/// zeta vectors loaded from [`LayerZetas`] tables (the same twiddles and reduction points,
/// so the same outputs). In: `|a| < q`. Out: `|a| < 9q`.
#[inline(always)]
pub(super) fn ntt(t: X86Avx2, p: &mut Poly) {
    let mut v = load_poly(t, p);
    // Distances 16..1 units: block b of each layer takes the next zeta, as in poly::ntt.
    ct_layer::<16>(&mut v, 1);
    ct_layer::<8>(&mut v, 2);
    ct_layer::<4>(&mut v, 4);
    ct_layer::<2>(&mut v, 8);
    ct_layer::<1>(&mut v, 16);
    for (u, x) in v.iter_mut().enumerate() {
        let (z2, z2q) = NTT_Z2.get(t, u);
        let (z1, z1q) = NTT_Z1.get(t, u);
        *x = x.ntt_layer_4(ZETAS[32 + u]).ntt_l2(z2, z2q).ntt_l1(z1, z1q);
    }
    poly::store(&v, p);
}

/// The Cooley-Tukey butterflies of distance `D` units (constant, so the loops unroll and the
/// units stay in registers or fixed stack slots): block `b` (units `2 D b .. 2 D b + 2 D`)
/// with `ZETAS[k + b]`.
#[inline(always)]
pub(super) fn ct_layer<const D: usize>(v: &mut [V; UNITS], k: usize) {
    let blocks = (UNITS >> 1) >> D.trailing_zeros();
    for b in 0..blocks {
        let z = ZETAS[k + b];
        for j in 0..D {
            let (i, h) = (2 * D * b + j, 2 * D * b + j + D);
            let (mut x, mut y) = (v[i], v[h]);
            V::ntt_butterfly(&mut x, &mut y, z);
            v[i] = x;
            v[h] = y;
        }
    }
}

/// The Gentleman-Sande butterflies of distance `D` units: block `b` with `-ZETAS[k - b]`.
#[inline(always)]
pub(super) fn gs_layer<const D: usize>(v: &mut [V; UNITS], k: usize) {
    let blocks = (UNITS >> 1) >> D.trailing_zeros();
    for b in 0..blocks {
        let z = -ZETAS[k - b];
        for j in 0..D {
            let (i, h) = (2 * D * b + j, 2 * D * b + j + D);
            let (mut x, mut y) = (v[i], v[h]);
            V::invntt_butterfly(&mut x, &mut y, z);
            v[i] = x;
            v[h] = y;
        }
    }
}

/// FIPS 204 Algorithm 42 (NTT^-1) times 2^32 on AVX2 units: [`crate::poly::invntt`] with the
/// in-unit layers' zeta vectors loaded from [`LayerZetas`] tables. In: `|a| < q`.
/// Out: `|a| < q`.
#[inline(always)]
pub(super) fn invntt(t: X86Avx2, p: &mut Poly) {
    let mut v = load_poly(t, p);
    for (u, x) in v.iter_mut().enumerate() {
        let (z1, z1q) = INV_Z1.get(t, u);
        let (z2, z2q) = INV_Z2.get(t, u);
        *x = x
            .invntt_l1(z1, z1q)
            .invntt_l2(z2, z2q)
            .invntt_layer_4(-ZETAS[63 - u]);
    }
    // Distances 1..16 units, zetas from index 31 down, as in poly::invntt.
    gs_layer::<1>(&mut v, 31);
    gs_layer::<2>(&mut v, 15);
    gs_layer::<4>(&mut v, 7);
    gs_layer::<8>(&mut v, 3);
    // The last layer (distance 16, -ZETAS[1]) with the final factor applied to both outputs
    // of each butterfly in the same pass (the same products as a separate pass).
    let z = -ZETAS[1];
    for j in 0..UNITS >> 1 {
        let (mut x, mut y) = (v[j], v[j + (UNITS >> 1)]);
        V::invntt_butterfly(&mut x, &mut y, z);
        v[j] = x.mont_mul_const(INVNTT_F);
        v[j + (UNITS >> 1)] = y.mont_mul_const(INVNTT_F);
    }
    poly::store(&v, p);
}

/// The 32 units of `p`, loaded without the closure of `core::array::from_fn` (a closure does
/// not inherit the island's target features, so the loads would be calls).
#[inline(always)]
pub(super) fn load_poly(t: X86Avx2, p: &Poly) -> [V; UNITS] {
    // SAFETY: AVX2 proven by `t`.
    let mut v = [V(unsafe { _mm256_setzero_si256() }, t); UNITS];
    for (u, x) in v.iter_mut().enumerate() {
        *x = poly::ld(t, p, u);
    }
    v
}

tessera_cpu::island! {
    /// The NTT on AVX2 units, compiled once (called from this backend's islands through
    /// [`Unit::ntt_poly`]).
    pub(super) fn ntt_poly(t: X86Avx2, p: &mut Poly) {
        ntt(t, p)
    }
}

tessera_cpu::island! {
    /// The inverse NTT on AVX2 units, compiled once.
    pub(super) fn invntt_poly(t: X86Avx2, p: &mut Poly) {
        invntt(t, p)
    }
}
