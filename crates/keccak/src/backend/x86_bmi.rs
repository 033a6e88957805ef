//! BMI1/BMI2 backend for the single-state permutation: Keccak-p with the state in 25 locals and
//! two rounds per loop iteration, compiled with ANDN (chi) and RORX (rho, theta) available.
//!
//! [`keccak_p_unrolled`] is generic over the lane type: the AVX2 x4 backend uses the same round
//! structure on ymm registers.

use crate::keccak::{Lane, RC};

/// Column parities `C[x]` of theta (FIPS 202 section 3.2.1).
#[inline(always)]
fn parities<L: Lane>(a: &[L; 25]) -> [L; 5] {
    let mut c = [a[0], a[1], a[2], a[3], a[4]];
    let mut i = 5;
    while i < 25 {
        c[i % 5] = c[i % 5].xor(a[i]);
        i += 1;
    }
    c
}

/// One round from `a` into `e`: theta, rho, pi, chi and iota, computed output plane by output
/// plane. Output lane `(X, Y)` of pi comes from input lane `(x, y) = ((3*Y + X) % 5, X)`
/// (pi maps `(x, y)` to `(y, 2x + 3y)`), so each output plane reads one lane of every input
/// plane. Written out with literal indices and rotation counts (a loop over planes is not
/// always unrolled, and then the arrays stay in memory and the rotations stay generic).
#[inline(always)]
fn round<L: Lane>(a: &[L; 25], e: &mut [L; 25], rc: u64) {
    let c = parities(a);
    let d = [
        c[4].xor(c[1].rotl(1)),
        c[0].xor(c[2].rotl(1)),
        c[1].xor(c[3].rotl(1)),
        c[2].xor(c[4].rotl(1)),
        c[3].xor(c[0].rotl(1)),
    ];
    // output plane y = 0
    let b = [
        a[0].xor(d[0]),
        a[6].xor(d[1]).rotl(44),
        a[12].xor(d[2]).rotl(43),
        a[18].xor(d[3]).rotl(21),
        a[24].xor(d[4]).rotl(14),
    ];
    e[0] = b[0].xor(b[1].andnot(b[2])).xor_rc(rc);
    e[1] = b[1].xor(b[2].andnot(b[3]));
    e[2] = b[2].xor(b[3].andnot(b[4]));
    e[3] = b[3].xor(b[4].andnot(b[0]));
    e[4] = b[4].xor(b[0].andnot(b[1]));
    // output plane y = 1
    let b = [
        a[3].xor(d[3]).rotl(28),
        a[9].xor(d[4]).rotl(20),
        a[10].xor(d[0]).rotl(3),
        a[16].xor(d[1]).rotl(45),
        a[22].xor(d[2]).rotl(61),
    ];
    e[5] = b[0].xor(b[1].andnot(b[2]));
    e[6] = b[1].xor(b[2].andnot(b[3]));
    e[7] = b[2].xor(b[3].andnot(b[4]));
    e[8] = b[3].xor(b[4].andnot(b[0]));
    e[9] = b[4].xor(b[0].andnot(b[1]));
    // output plane y = 2
    let b = [
        a[1].xor(d[1]).rotl(1),
        a[7].xor(d[2]).rotl(6),
        a[13].xor(d[3]).rotl(25),
        a[19].xor(d[4]).rotl(8),
        a[20].xor(d[0]).rotl(18),
    ];
    e[10] = b[0].xor(b[1].andnot(b[2]));
    e[11] = b[1].xor(b[2].andnot(b[3]));
    e[12] = b[2].xor(b[3].andnot(b[4]));
    e[13] = b[3].xor(b[4].andnot(b[0]));
    e[14] = b[4].xor(b[0].andnot(b[1]));
    // output plane y = 3
    let b = [
        a[4].xor(d[4]).rotl(27),
        a[5].xor(d[0]).rotl(36),
        a[11].xor(d[1]).rotl(10),
        a[17].xor(d[2]).rotl(15),
        a[23].xor(d[3]).rotl(56),
    ];
    e[15] = b[0].xor(b[1].andnot(b[2]));
    e[16] = b[1].xor(b[2].andnot(b[3]));
    e[17] = b[2].xor(b[3].andnot(b[4]));
    e[18] = b[3].xor(b[4].andnot(b[0]));
    e[19] = b[4].xor(b[0].andnot(b[1]));
    // output plane y = 4
    let b = [
        a[2].xor(d[2]).rotl(62),
        a[8].xor(d[3]).rotl(55),
        a[14].xor(d[4]).rotl(39),
        a[15].xor(d[0]).rotl(41),
        a[21].xor(d[1]).rotl(2),
    ];
    e[20] = b[0].xor(b[1].andnot(b[2]));
    e[21] = b[1].xor(b[2].andnot(b[3]));
    e[22] = b[2].xor(b[3].andnot(b[4]));
    e[23] = b[3].xor(b[4].andnot(b[0]));
    e[24] = b[4].xor(b[0].andnot(b[1]));
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
