//! BMI1/BMI2 backend for the single-state permutation: Keccak-p with the state in 25 locals and
//! two rounds per loop iteration, compiled with ANDN (chi) and RORX (rho, theta) available.
//!
//! [`keccak_p_unrolled`] is generic over the lane type: the AVX2 x4 backend uses the same round
//! structure on ymm registers.

use crate::keccak::{Lane, RC};

/// Rotation offsets of the rho step, indexed by `x + 5*y` (FIPS 202 table 2).
const RHO: [u32; 25] = [
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
];

/// One round from `a` into `e`: theta, rho, pi, chi and iota, computed output plane by output
/// plane. Output lane `(X, Y)` of pi comes from input lane `(x, y) = ((3*Y + X) % 5, X)`
/// (pi maps `(x, y)` to `(y, 2x + 3y)`), so each output plane reads one lane of every input
/// plane. All indices are constants once this is inlined, so the arrays become registers.
#[inline(always)]
fn round<L: Lane>(a: &[L; 25], e: &mut [L; 25], rc: u64) {
    let c = [
        a[0].xor(a[5]).xor(a[10]).xor(a[15]).xor(a[20]),
        a[1].xor(a[6]).xor(a[11]).xor(a[16]).xor(a[21]),
        a[2].xor(a[7]).xor(a[12]).xor(a[17]).xor(a[22]),
        a[3].xor(a[8]).xor(a[13]).xor(a[18]).xor(a[23]),
        a[4].xor(a[9]).xor(a[14]).xor(a[19]).xor(a[24]),
    ];
    let d = [
        c[4].xor(c[1].rotl(1)),
        c[0].xor(c[2].rotl(1)),
        c[1].xor(c[3].rotl(1)),
        c[2].xor(c[4].rotl(1)),
        c[3].xor(c[0].rotl(1)),
    ];
    let mut oy = 0;
    while oy < 5 {
        let mut b = [a[0]; 5];
        let mut ox = 0;
        while ox < 5 {
            let x = (3 * oy + ox) % 5;
            let i = x + 5 * ox;
            let v = a[i].xor(d[x]);
            b[ox] = if RHO[i] == 0 { v } else { v.rotl(RHO[i]) };
            ox += 1;
        }
        let mut ox = 0;
        while ox < 5 {
            e[ox + 5 * oy] = b[ox].xor(b[(ox + 1) % 5].andnot(b[(ox + 2) % 5]));
            ox += 1;
        }
        oy += 1;
    }
    e[0] = e[0].xor_rc(rc);
}

/// Keccak-p[1600, rounds] for `rounds` 24 (Keccak-f) or 12 (TurboSHAKE): the last `rounds`
/// round constants, as Keccak-p specifies. Two rounds per iteration, so the state alternates
/// between two sets of locals instead of being copied back after every round.
#[inline(always)]
pub(crate) fn keccak_p_unrolled<L: Lane>(state: &mut [L; 25], rounds: usize) {
    let mut a = *state;
    let mut e = a;
    let mut r = 24 - rounds;
    while r < 24 {
        round(&a, &mut e, RC[r]);
        round(&e, &mut a, RC[r + 1]);
        r += 2;
    }
    *state = a;
}

#[target_feature(enable = "bmi1,bmi2")]
fn permute_island(state: &mut [u64; 25], rounds: usize) {
    keccak_p_unrolled(state, rounds);
}

/// Absorbs every whole `R`-byte block of `data` (XOR then permute), keeping the state in
/// registers from one block to the next. Returns the number of bytes absorbed.
#[inline(always)]
fn absorb_rate<const R: usize>(state: &mut [u64; 25], data: &[u8], rounds: usize) -> usize {
    let mut a = *state;
    let mut blocks = data.chunks_exact(R);
    for block in &mut blocks {
        let mut i = 0;
        while i < R / 8 {
            let mut lane = [0u8; 8];
            lane.copy_from_slice(&block[8 * i..8 * i + 8]);
            a[i] ^= u64::from_le_bytes(lane);
            i += 1;
        }
        keccak_p_unrolled(&mut a, rounds);
    }
    *state = a;
    data.len() - blocks.remainder().len()
}

#[target_feature(enable = "bmi1,bmi2")]
fn absorb_island(state: &mut [u64; 25], data: &[u8], rate: usize, rounds: usize) -> usize {
    match rate {
        168 => absorb_rate::<168>(state, data, rounds),
        144 => absorb_rate::<144>(state, data, rounds),
        136 => absorb_rate::<136>(state, data, rounds),
        104 => absorb_rate::<104>(state, data, rounds),
        72 => absorb_rate::<72>(state, data, rounds),
        _ => 0,
    }
}

/// Keccak-p on one state.
#[inline(always)]
pub(crate) fn permute(_t: tessera_cpu::X86Bmi, state: &mut [u64; 25], rounds: usize) {
    // SAFETY: the token proves BMI1 and BMI2 are available on this CPU.
    unsafe { permute_island(state, rounds) }
}

/// Absorbs the whole `rate`-byte blocks of `data` into `state`; returns the bytes consumed
/// (0 for a rate no Keccak function here uses, leaving the caller's generic path to do it).
#[inline(always)]
pub(crate) fn absorb_blocks(
    _t: tessera_cpu::X86Bmi,
    state: &mut [u64; 25],
    data: &[u8],
    rate: usize,
    rounds: usize,
) -> usize {
    // SAFETY: the token proves BMI1 and BMI2 are available on this CPU.
    unsafe { absorb_island(state, data, rate, rounds) }
}
