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

/// Round constants RC[i_r] of the iota step (FIPS 202 section 3.2.5).
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
