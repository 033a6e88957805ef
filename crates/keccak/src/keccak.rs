//! Keccak-p[1600, n_r] (FIPS 202 section 3.3), generic over the lane type so the same code is
//! compiled once per backend inside that backend's target-feature island.
#![forbid(unsafe_code)]

/// A 64-bit Keccak lane, or several independent lanes packed in one SIMD register.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // x86 backends only (and tests)
pub(crate) trait Lane: Copy {
    fn xor(self, o: Self) -> Self;
    /// `!self & o`
    fn andnot(self, o: Self) -> Self;
    fn rotl(self, n: u32) -> Self;
    fn xor_rc(self, rc: u64) -> Self;
}

impl Lane for u64 {
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        self ^ o
    }
    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        !self & o
    }
    #[inline(always)]
    fn rotl(self, n: u32) -> Self {
        self.rotate_left(n)
    }
    #[inline(always)]
    fn xor_rc(self, rc: u64) -> Self {
        self ^ rc
    }
}

/// Round constants `RC[i_r]` of the iota step (FIPS 202 section 3.2.5).
pub(crate) const RC: [u64; 24] = [
    0x0000000000000001,
    0x0000000000008082,
    0x800000000000808A,
    0x8000000080008000,
    0x000000000000808B,
    0x0000000080000001,
    0x8000000080008081,
    0x8000000000008009,
    0x000000000000008A,
    0x0000000000000088,
    0x0000000080008009,
    0x000000008000000A,
    0x000000008000808B,
    0x800000000000008B,
    0x8000000000008089,
    0x8000000000008003,
    0x8000000000008002,
    0x8000000000000080,
    0x000000000000800A,
    0x800000008000000A,
    0x8000000080008081,
    0x8000000000008080,
    0x0000000080000001,
    0x8000000080008008,
];

/// Rotation offsets of the rho step, indexed by `x + 5*y` (FIPS 202 table 2).
#[cfg(test)]
const RHO: [u32; 25] = [
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
];

/// Reference Keccak-p[1600, rounds] (tests only; backends use [`keccak_p_unrolled`]) on a state indexed by `x + 5*y`; `rounds` is 24 (Keccak-f) or 12
/// (TurboSHAKE). Uses the last `rounds` round constants, as Keccak-p specifies.
#[cfg(test)]
#[inline(always)]
pub(crate) fn keccak_p<L: Lane>(a: &mut [L; 25], rounds: usize) {
    for &rc in &RC[24 - rounds..] {
        // theta
        let mut c = [a[0]; 5];
        for x in 0..5 {
            c[x] = a[x]
                .xor(a[x + 5])
                .xor(a[x + 10])
                .xor(a[x + 15])
                .xor(a[x + 20]);
        }
        for x in 0..5 {
            let d = c[(x + 4) % 5].xor(c[(x + 1) % 5].rotl(1));
            for y in 0..5 {
                a[x + 5 * y] = a[x + 5 * y].xor(d);
            }
        }
        // rho and pi: B[y, 2x+3y] = ROT(A[x, y], r[x, y])
        let mut b = [a[0]; 25];
        for x in 0..5 {
            for y in 0..5 {
                b[y + 5 * ((2 * x + 3 * y) % 5)] = a[x + 5 * y].rotl(RHO[x + 5 * y]);
            }
        }
        // chi
        for y in 0..5 {
            for x in 0..5 {
                a[x + 5 * y] =
                    b[x + 5 * y].xor(b[(x + 1) % 5 + 5 * y].andnot(b[(x + 2) % 5 + 5 * y]));
            }
        }
        // iota
        a[0] = a[0].xor_rc(rc);
    }
}

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

/// One output plane of [`round_unrolled`]: the five lanes `B[X] = rotl(A[src] ^ D[x], r)`
/// (theta's XOR, rho and pi, one `(src, x, r)` per output lane `X`), then chi,
/// `E[X, Y] = B[X] ^ (!B[X + 1] & B[X + 2])`, into lanes `5Y..5Y + 5` of `$e`.
macro_rules! plane {
    ($a:ident, $d:ident, $e:ident, $y:literal; $(($src:literal, $x:literal, $r:literal)),*) => {
        let b = [$($a[$src].xor($d[$x]).rotl($r)),*];
        $e[5 * $y] = b[0].xor(b[1].andnot(b[2]));
        $e[5 * $y + 1] = b[1].xor(b[2].andnot(b[3]));
        $e[5 * $y + 2] = b[2].xor(b[3].andnot(b[4]));
        $e[5 * $y + 3] = b[3].xor(b[4].andnot(b[0]));
        $e[5 * $y + 4] = b[4].xor(b[0].andnot(b[1]));
    };
}

/// One round from `a` into `e`: theta, rho, pi, chi and iota, computed output plane by output
/// plane. Output lane `(X, Y)` of pi comes from input lane `(x, y) = ((3*Y + X) % 5, X)`
/// (pi maps `(x, y)` to `(y, 2x + 3y)`), so each output plane reads one lane of every input
/// plane. Written out with literal indices and rotation counts (a loop over planes is not
/// always unrolled, and then the arrays stay in memory and the rotations stay generic).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // x86 backends only (and tests)
#[inline(always)]
fn round_unrolled<L: Lane>(a: &[L; 25], e: &mut [L; 25], rc: u64) {
    let c = parities(a);
    let d = [
        c[4].xor(c[1].rotl(1)),
        c[0].xor(c[2].rotl(1)),
        c[1].xor(c[3].rotl(1)),
        c[2].xor(c[4].rotl(1)),
        c[3].xor(c[0].rotl(1)),
    ];
    // Plane 0: lane (0, 0) has rho offset 0, so it is not rotated; iota on its first lane.
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
    plane!(a, d, e, 1; (3, 3, 28), (9, 4, 20), (10, 0, 3), (16, 1, 45), (22, 2, 61));
    plane!(a, d, e, 2; (1, 1, 1), (7, 2, 6), (13, 3, 25), (19, 4, 8), (20, 0, 18));
    plane!(a, d, e, 3; (4, 4, 27), (5, 0, 36), (11, 1, 10), (17, 2, 15), (23, 3, 56));
    plane!(a, d, e, 4; (2, 2, 62), (8, 3, 55), (14, 4, 39), (15, 0, 41), (21, 1, 2));
}

/// Keccak-p[1600, rounds] for `rounds` 24 (Keccak-f) or 12 (TurboSHAKE): the last `rounds`
/// round constants, as Keccak-p specifies. Two rounds per iteration, so the state alternates
/// between two sets of locals instead of being copied back after every round.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // x86 backends only (and tests)
#[inline(always)]
pub(crate) fn keccak_p_unrolled<L: Lane>(state: &mut [L; 25], rounds: usize) {
    let mut a = *state;
    let mut e = a;
    let mut r = 24 - rounds;
    while r < 24 {
        round_unrolled(&a, &mut e, RC[r]);
        round_unrolled(&e, &mut a, RC[r + 1]);
        r += 2;
    }
    *state = a;
}

/// The lanes kept complemented by [`keccak_p_complemented`] (`(x, y)` = (1, 0), (2, 0),
/// (3, 1), (2, 2), (2, 3), (0, 4): the lane-complementing transform of the Keccak
/// implementation overview, section 2.2).
const COMPLEMENTED: [usize; 6] = [1, 2, 8, 12, 17, 20];

/// Keccak-p[1600, rounds] for a CPU without an AND-NOT instruction: the state is held with
/// the [`COMPLEMENTED`] lanes inverted, which turns chi's 25 NOTs per round into 5 (each
/// output plane mixes AND and OR instead); the six lanes are inverted on entry and on exit.
/// Same results as [`keccak_p_unrolled`].
#[inline(always)]
pub(crate) fn keccak_p_complemented(state: &mut [u64; 25], rounds: usize) {
    let mut a = *state;
    complement(&mut a);
    permute_complemented(&mut a, rounds);
    complement(&mut a);
    *state = a;
}

/// Inverts the [`COMPLEMENTED`] lanes.
#[inline(always)]
fn complement(a: &mut [u64; 25]) {
    for i in COMPLEMENTED {
        a[i] = !a[i];
    }
}

/// The rounds of [`keccak_p_complemented`] on a state already in complemented form.
#[inline(always)]
fn permute_complemented(a: &mut [u64; 25], rounds: usize) {
    let mut e = *a;
    let mut r = 24 - rounds;
    while r < 24 {
        round_complemented(a, &mut e, RC[r]);
        round_complemented(&e, a, RC[r + 1]);
        r += 2;
    }
}

/// [`round_unrolled`] on complemented states. Theta, rho and pi are XORs and rotations, so
/// the inversions only move: with the [`COMPLEMENTED`] lanes inverted at the input, the chi
/// inputs `B` of each output plane arrive with a known set inverted, and each plane's chi
/// below (one explicit NOT per plane) writes its outputs with the same six lanes inverted.
#[inline(always)]
fn round_complemented(a: &[u64; 25], e: &mut [u64; 25], rc: u64) {
    let c = parities(a);
    let d = [
        c[4] ^ c[1].rotate_left(1),
        c[0] ^ c[2].rotate_left(1),
        c[1] ^ c[3].rotate_left(1),
        c[2] ^ c[4].rotate_left(1),
        c[3] ^ c[0].rotate_left(1),
    ];
    // Plane 0: B0, B2, B3 arrive inverted; E1, E2 leave inverted.
    let b0 = a[0] ^ d[0];
    let b1 = (a[6] ^ d[1]).rotate_left(44);
    let b2 = (a[12] ^ d[2]).rotate_left(43);
    let b3 = (a[18] ^ d[3]).rotate_left(21);
    let b4 = (a[24] ^ d[4]).rotate_left(14);
    e[0] = b0 ^ (b1 | b2) ^ rc;
    e[1] = b1 ^ (!b2 | b3);
    e[2] = b2 ^ (b3 & b4);
    e[3] = b3 ^ (b4 | b0);
    e[4] = b4 ^ (b0 & b1);
    // Plane 1: B0, B2 inverted in; E3 out.
    let b0 = (a[3] ^ d[3]).rotate_left(28);
    let b1 = (a[9] ^ d[4]).rotate_left(20);
    let b2 = (a[10] ^ d[0]).rotate_left(3);
    let b3 = (a[16] ^ d[1]).rotate_left(45);
    let b4 = (a[22] ^ d[2]).rotate_left(61);
    e[5] = b0 ^ (b1 | b2);
    e[6] = b1 ^ (b2 & b3);
    e[7] = b2 ^ (b3 | !b4);
    e[8] = b3 ^ (b4 | b0);
    e[9] = b4 ^ (b0 & b1);
    // Plane 2: B0, B2 inverted in; E2 out.
    let b0 = (a[1] ^ d[1]).rotate_left(1);
    let b1 = (a[7] ^ d[2]).rotate_left(6);
    let b2 = (a[13] ^ d[3]).rotate_left(25);
    let b3 = (a[19] ^ d[4]).rotate_left(8);
    let b4 = (a[20] ^ d[0]).rotate_left(18);
    let n3 = !b3;
    e[10] = b0 ^ (b1 | b2);
    e[11] = b1 ^ (b2 & b3);
    e[12] = b2 ^ (n3 & b4);
    e[13] = n3 ^ (b4 | b0);
    e[14] = b4 ^ (b0 & b1);
    // Plane 3: B1, B3, B4 inverted in; E2 out.
    let b0 = (a[4] ^ d[4]).rotate_left(27);
    let b1 = (a[5] ^ d[0]).rotate_left(36);
    let b2 = (a[11] ^ d[1]).rotate_left(10);
    let b3 = (a[17] ^ d[2]).rotate_left(15);
    let b4 = (a[23] ^ d[3]).rotate_left(56);
    let n3 = !b3;
    e[15] = b0 ^ (b1 & b2);
    e[16] = b1 ^ (b2 | b3);
    e[17] = b2 ^ (n3 | b4);
    e[18] = n3 ^ (b4 & b0);
    e[19] = b4 ^ (b0 | b1);
    // Plane 4: B0, B3 inverted in; E0 out.
    let b0 = (a[2] ^ d[2]).rotate_left(62);
    let b1 = (a[8] ^ d[3]).rotate_left(55);
    let b2 = (a[14] ^ d[4]).rotate_left(39);
    let b3 = (a[15] ^ d[0]).rotate_left(41);
    let b4 = (a[21] ^ d[1]).rotate_left(2);
    let n1 = !b1;
    e[20] = b0 ^ (n1 & b2);
    e[21] = n1 ^ (b2 | b3);
    e[22] = b2 ^ (b3 & b4);
    e[23] = b3 ^ (b4 | b0);
    e[24] = b4 ^ (b0 & b1);
}

/// [`absorb_blocks`] on [`keccak_p_complemented`] (the portable backend).
#[inline(always)]
pub(crate) fn absorb_blocks_complemented(
    state: &mut [u64; 25],
    data: &[u8],
    rate: usize,
    rounds: usize,
) -> usize {
    absorb_blocks_with::<true>(state, data, rate, rounds)
}

/// The block loop for the rate of any Keccak function of this crate (SHAKE128/256, SHA3-224
/// ... SHA3-512, TurboSHAKE) as a constant, on the lane-complemented permutation (`C`) or the
/// plain one; returns 0 for any other rate, leaving the caller's generic block loop to do it.
#[inline(always)]
fn absorb_blocks_with<const C: bool>(
    state: &mut [u64; 25],
    data: &[u8],
    rate: usize,
    rounds: usize,
) -> usize {
    match rate {
        168 => absorb_rate::<168, C>(state, data, rounds),
        144 => absorb_rate::<144, C>(state, data, rounds),
        136 => absorb_rate::<136, C>(state, data, rounds),
        104 => absorb_rate::<104, C>(state, data, rounds),
        72 => absorb_rate::<72, C>(state, data, rounds),
        _ => 0,
    }
}

/// The block loop on [`keccak_p_unrolled`] (the x86 single-state backend; see
/// [`absorb_blocks_with`]).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // x86 backends only (and tests)
#[inline(always)]
pub(crate) fn absorb_blocks(
    state: &mut [u64; 25],
    data: &[u8],
    rate: usize,
    rounds: usize,
) -> usize {
    absorb_blocks_with::<false>(state, data, rate, rounds)
}

/// Absorbs every whole `R`-byte block of `data` (XOR then permute), keeping the state in
/// registers from one block to the next, on [`keccak_p_complemented`]'s rounds when `C` (the
/// state stays complemented from the first block to the last: XOR of input commutes with the
/// inversion) or on [`keccak_p_unrolled`]. Returns the number of bytes absorbed.
#[inline(always)]
fn absorb_rate<const R: usize, const C: bool>(
    state: &mut [u64; 25],
    data: &[u8],
    rounds: usize,
) -> usize {
    let mut a = *state;
    if C {
        complement(&mut a);
    }
    let mut blocks = data.chunks_exact(R);
    for block in &mut blocks {
        let mut i = 0;
        while i < R / 8 {
            let mut lane = [0u8; 8];
            lane.copy_from_slice(&block[8 * i..8 * i + 8]);
            a[i] ^= u64::from_le_bytes(lane);
            i += 1;
        }
        if C {
            permute_complemented(&mut a, rounds);
        } else {
            keccak_p_unrolled(&mut a, rounds);
        }
    }
    if C {
        complement(&mut a);
    }
    *state = a;
    data.len() - blocks.remainder().len()
}

#[cfg(any(test, target_arch = "aarch64"))]
/// A lane type offering the fused operations of the Armv8.2 SHA3 extension (EOR3, RAX1, XAR,
/// BCAX); without the extension each is two or three plain instructions. [`keccak_p_fused`]
/// is written in these terms so theta's final XOR merges into rho's rotation (XAR) and chi's
/// AND-NOT into its XOR (BCAX).
pub(crate) trait FusedLane: Copy {
    fn xor(self, o: Self) -> Self;
    /// `self ^ b ^ c` (EOR3).
    fn xor3(self, b: Self, c: Self) -> Self;
    /// `self ^ rotl(b, 1)` (RAX1).
    fn rax1(self, b: Self) -> Self;
    /// `rotl(self ^ b, L)` with `R = 64 - L`, `L` in `1..=63` (XAR rotates right by `R`; both
    /// are passed because a const generic cannot be computed from another on stable Rust).
    fn xar<const L: i32, const R: i32>(self, b: Self) -> Self;
    /// `self ^ (b & !c)` (BCAX).
    fn bcax(self, b: Self, c: Self) -> Self;
    fn xor_rc(self, rc: u64) -> Self;
}

#[cfg(any(test, target_arch = "aarch64"))]
impl FusedLane for u64 {
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        self ^ o
    }
    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        self ^ b ^ c
    }
    #[inline(always)]
    fn rax1(self, b: Self) -> Self {
        self ^ b.rotate_left(1)
    }
    #[inline(always)]
    fn xar<const L: i32, const R: i32>(self, b: Self) -> Self {
        (self ^ b).rotate_left(L as u32)
    }
    #[inline(always)]
    fn bcax(self, b: Self, c: Self) -> Self {
        self ^ (b & !c)
    }
    #[inline(always)]
    fn xor_rc(self, rc: u64) -> Self {
        self ^ rc
    }
}

#[cfg(any(test, target_arch = "aarch64"))]
/// Theta's XOR with D, rho and pi in one step: `b[dst] = rotl(a[src] ^ d[x], r)` for every lane
/// but (0, 0) (whose offset is 0), with `src = x + 5y`, `dst = y + 5((2x + 3y) mod 5)` and
/// `r` from FIPS 202 table 2.
macro_rules! theta_rho_pi {
    ($a:ident, $b:ident, $d:ident; $(($dst:literal, $src:literal, $x:literal, $l:literal, $r:literal)),* $(,)?) => {
        $( $b[$dst] = $a[$src].xar::<$l, $r>($d[$x]); )*
    };
}

#[cfg(any(test, target_arch = "aarch64"))]
/// Keccak-p[1600, rounds] as [`keccak_p`], in the fused operations of [`FusedLane`].
#[inline(always)]
pub(crate) fn keccak_p_fused<L: FusedLane>(a: &mut [L; 25], rounds: usize) {
    for &rc in &RC[24 - rounds..] {
        // theta: C[x] = A[x, 0] ^ ... ^ A[x, 4]; D[x] = C[x - 1] ^ rotl(C[x + 1], 1)
        let mut c = [a[0]; 5];
        for x in 0..5 {
            c[x] = a[x].xor3(a[x + 5], a[x + 10]).xor3(a[x + 15], a[x + 20]);
        }
        let mut d = [a[0]; 5];
        for x in 0..5 {
            d[x] = c[(x + 4) % 5].rax1(c[(x + 1) % 5]);
        }
        let mut b = [a[0]; 25];
        b[0] = a[0].xor(d[0]);
        theta_rho_pi!(a, b, d;
            (16, 5, 0, 36, 28), (7, 10, 0, 3, 61), (23, 15, 0, 41, 23), (14, 20, 0, 18, 46),
            (10, 1, 1, 1, 63), (1, 6, 1, 44, 20), (17, 11, 1, 10, 54), (8, 16, 1, 45, 19),
            (24, 21, 1, 2, 62), (20, 2, 2, 62, 2), (11, 7, 2, 6, 58), (2, 12, 2, 43, 21),
            (18, 17, 2, 15, 49), (9, 22, 2, 61, 3), (5, 3, 3, 28, 36), (21, 8, 3, 55, 9),
            (12, 13, 3, 25, 39), (3, 18, 3, 21, 43), (19, 23, 3, 56, 8), (15, 4, 4, 27, 37),
            (6, 9, 4, 20, 44), (22, 14, 4, 39, 25), (13, 19, 4, 8, 56), (4, 24, 4, 14, 50),
        );
        // chi: A[x, y] = B[x, y] ^ (!B[x + 1, y] & B[x + 2, y])
        for y in 0..5 {
            for x in 0..5 {
                a[x + 5 * y] = b[x + 5 * y].bcax(b[(x + 2) % 5 + 5 * y], b[(x + 1) % 5 + 5 * y]);
            }
        }
        // iota
        a[0] = a[0].xor_rc(rc);
    }
}

/// Small enough for Miri: the fused formulation against the reference one.
#[cfg(test)]
mod tests {
    use super::*;

    /// `permute` against the reference `keccak_p` for both round counts, from the state
    /// `(i + start) * mul` in lane `i`.
    fn matches_reference(permute: fn(&mut [u64; 25], usize), start: u64, mul: u64) {
        for rounds in [12, 24] {
            let mut x = [0u64; 25];
            for (i, l) in x.iter_mut().enumerate() {
                *l = (i as u64 + start).wrapping_mul(mul);
            }
            let mut y = x;
            keccak_p(&mut x, rounds);
            permute(&mut y, rounds);
            assert_eq!(x, y, "rounds {rounds}");
        }
    }

    #[test]
    fn fused_matches_reference() {
        matches_reference(keccak_p_fused::<u64>, 1, 0x9E37_79B9_7F4A_7C15);
    }

    #[test]
    fn unrolled_matches_reference() {
        matches_reference(keccak_p_unrolled::<u64>, 3, 0xD6E8_FEB8_6659_FD93);
    }

    #[test]
    fn complemented_matches_reference() {
        for (start, mul) in [(5, 0xA076_1D64_78BD_642F), (0, 0), (0, 1), (1, u64::MAX)] {
            matches_reference(keccak_p_complemented, start, mul);
        }
    }

    /// The complemented block loop against XOR-then-permute on the reference, for every rate.
    #[test]
    fn complemented_absorb_matches_reference() {
        let data: [u8; 3 * 168 + 5] = core::array::from_fn(|i| (i as u8).wrapping_mul(151) ^ 0x5C);
        for rate in [168, 144, 136, 104, 72] {
            for rounds in [12, 24] {
                let mut x = [7u64; 25];
                let mut y = x;
                let done = absorb_blocks_complemented(&mut x, &data, rate, rounds);
                assert_eq!(done, data.len() / rate * rate);
                for block in data.chunks_exact(rate) {
                    for (l, c) in y.iter_mut().zip(block.chunks_exact(8)) {
                        *l ^= u64::from_le_bytes(c.try_into().unwrap());
                    }
                    keccak_p(&mut y, rounds);
                }
                assert_eq!(x, y, "rate {rate} rounds {rounds}");
            }
        }
    }
}
