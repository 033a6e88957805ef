//! Keccak-p[1600, n_r] (FIPS 202 section 3.3), generic over the lane type so the same code is
//! compiled once per backend inside that backend's target-feature island.
#![forbid(unsafe_code)]

/// A 64-bit Keccak lane, or several independent lanes packed in one SIMD register.
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
const RHO: [u32; 25] = [
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
];

/// Keccak-p[1600, rounds] on a state indexed by `x + 5*y`; `rounds` is 24 (Keccak-f) or 12
/// (TurboSHAKE). Uses the last `rounds` round constants, as Keccak-p specifies.
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

    #[test]
    fn fused_matches_reference() {
        for rounds in [12, 24] {
            let mut x = [0u64; 25];
            for (i, l) in x.iter_mut().enumerate() {
                *l = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            }
            let mut y = x;
            keccak_p(&mut x, rounds);
            keccak_p_fused(&mut y, rounds);
            assert_eq!(x, y, "rounds {rounds}");
        }
    }
}
