//! Software GHASH (NIST SP 800-38D section 6.4) for the portable backend.
//!
//! GHASH multiplies in GF(2^128) with a carry-less multiplication built from ordinary integer
//! 64x64->128-bit multiplications of operands with 3-bit holes (each partial product's carries
//! fall into the holes and are masked away), so its timing does not depend on the data either.
//! It works on blocks as big-endian integers (the reflected bit order, no bit reversal), and
//! eight blocks share one reduction (precomputed `H^1..H^8`, already split into masked parts).
//!
//! That last claim assumes the target's 64-bit multiplier takes the same time for every operand.
//! It is true of current x86_64, aarch64 and most application cores, but not everywhere: some
//! Cortex-M3, ARM7/ARM9 and PowerPC cores finish a multiply early for small operands, and 32-bit
//! targets build each 64x64->128 multiply from several 32-bit ones (whose timing may in turn
//! depend on the operands). On such cores the portable GHASH can leak information about `H` and
//! the data.

#![forbid(unsafe_code)]

use zeroize::Zeroize;

/// Blocks absorbed per GHASH reduction: `Y = (Y + X_1) H^n + X_2 H^(n-1) + ... + X_n H` is
/// summed unreduced, so the Karatsuba recombination and the reduction are paid once per group
/// (SP 800-38D's GHASH, rearranged by linearity).
const AGG: usize = 8;

/// One power of `H` (reflected: the block as a big-endian integer) prepared for [`clmul`]:
/// the split of each Karatsuba operand (low word, high word, their sum).
#[derive(Clone, Copy, Default)]
struct HPow([Split; 3]);

impl HPow {
    fn new(h: u128) -> Self {
        let (h0, h1) = (h as u64, (h >> 64) as u64);
        HPow([split(h0), split(h1), split(h0 ^ h1)])
    }

    fn zeroize(&mut self) {
        for p in self.0.iter_mut() {
            p.parts.zeroize();
            p.top.zeroize();
        }
    }
}

/// `H^1..=H^AGG`, `pw[k] = H^(k+1)`.
#[derive(Clone)]
pub(super) struct Hkey {
    pw: [HPow; AGG],
}

impl Default for Hkey {
    fn default() -> Self {
        Hkey {
            pw: [HPow::default(); AGG],
        }
    }
}

impl Hkey {
    /// From `H = E_K(0^128)` as a big-endian integer.
    pub(super) fn new(h: u128) -> Self {
        let mut k = Hkey::default();
        k.pw[0] = HPow::new(h);
        let mut p = h;
        for i in 1..AGG {
            let mut a = Acc::default();
            a.mul_add(p, &k.pw[0]);
            p = a.reduce();
            k.pw[i] = HPow::new(p);
        }
        p.zeroize();
        k
    }

    /// `(acc + X_1) H^n + X_2 H^(n-1) + ... + X_n H` for the `n = blocks.len() <= AGG` blocks,
    /// with one reduction.
    #[inline(always)]
    fn absorb(&self, acc: u128, blocks: &[[u8; 16]]) -> u128 {
        let n = blocks.len();
        let mut a = Acc::default();
        for (i, (b, hp)) in blocks.iter().zip(self.pw[..n].iter().rev()).enumerate() {
            let mut x = u128::from_be_bytes(*b);
            if i == 0 {
                x ^= acc;
            }
            a.mul_add(x, hp);
        }
        a.reduce()
    }

    /// `y = GHASH_H(y, data || 0-pad to a multiple of 16)`, `AGG` blocks per reduction.
    pub(super) fn ghash(&self, y: &mut [u8; 16], data: &[u8]) {
        let mut acc = u128::from_be_bytes(*y);
        let (blocks, rem) = data.as_chunks::<16>();
        let mut groups = blocks.chunks_exact(AGG);
        for g in &mut groups {
            let g: &[[u8; 16]; AGG] = g.try_into().expect("chunks_exact");
            acc = self.absorb(acc, g);
        }
        let tail = groups.remainder();
        if rem.is_empty() {
            if !tail.is_empty() {
                acc = self.absorb(acc, tail);
            }
        } else {
            // The partial block, zero-padded, joins the last group. (GHASH inputs are public:
            // AAD, ciphertext, lengths, nonce.)
            let mut last = [[0u8; 16]; AGG];
            last[..tail.len()].copy_from_slice(tail);
            last[tail.len()][..rem.len()].copy_from_slice(rem);
            acc = self.absorb(acc, &last[..=tail.len()]);
        }
        *y = acc.to_be_bytes();
    }
}

impl Drop for Hkey {
    fn drop(&mut self) {
        for p in self.pw.iter_mut() {
            p.zeroize();
        }
    }
}

/// The four interleaved residue classes of bit positions (`i mod 4 = k` in `M[k]`).
const M: [u64; 4] = [
    0x1111_1111_1111_1111,
    0x2222_2222_2222_2222,
    0x4444_4444_4444_4444,
    0x8888_8888_8888_8888,
];

/// One 64-bit operand of [`clmul`]: its bits `0..60` split into the four residue classes
/// mod 4 (each class then has at most 15 bits set), and bits `60..64` as all-ones/all-zeros
/// masks.
#[derive(Clone, Copy, Default)]
struct Split {
    parts: [u64; 4],
    top: [u64; 4],
}

fn split(y: u64) -> Split {
    let low = y & !(0xf << 60);
    Split {
        parts: M.map(|m| low & m),
        top: core::array::from_fn(|k| 0u64.wrapping_sub((y >> (60 + k)) & 1)),
    }
}

/// The 128-bit carry-less product of `x` and `y` (given as `split(y)`) from sixteen ordinary
/// 64x64->128-bit multiplications. Both operands are split into the residue classes mod 4 of
/// their bit positions (three zero bits between set bits): in the integer product of a class
/// of `x` and a class of `y`, column `k` sums at most 15 ones (the classes of `y` hold at
/// most 15 bits), so its count fits in the four bits up to the next column of the same class
/// and that column's bit is the parity. The products of each output class are XORed and
/// masked. Bits `60..64` of `y` are left out of the classes (a class of 16 set bits could
/// count 16 in column 63) and added as shifted copies of `x`.
#[inline(always)]
fn clmul(x: u64, y: &Split) -> u128 {
    const R: [u128; 4] = [
        0x1111_1111_1111_1111_1111_1111_1111_1111,
        0x2222_2222_2222_2222_2222_2222_2222_2222,
        0x4444_4444_4444_4444_4444_4444_4444_4444,
        0x8888_8888_8888_8888_8888_8888_8888_8888,
    ];
    let m = |a: u64, b: u64| u128::from(a) * u128::from(b);
    let [x0, x1, x2, x3] = M.map(|k| x & k);
    let [y0, y1, y2, y3] = y.parts;
    let z0 = m(x0, y0) ^ m(x1, y3) ^ m(x2, y2) ^ m(x3, y1);
    let z1 = m(x0, y1) ^ m(x1, y0) ^ m(x2, y3) ^ m(x3, y2);
    let z2 = m(x0, y2) ^ m(x1, y1) ^ m(x2, y0) ^ m(x3, y3);
    let z3 = m(x0, y3) ^ m(x1, y2) ^ m(x2, y1) ^ m(x3, y0);
    let z = (z0 & R[0]) | (z1 & R[1]) | (z2 & R[2]) | (z3 & R[3]);
    let [t0, t1, t2, t3] = y.top.map(|t| x & t);
    let lo = (t0 << 60) ^ (t1 << 61) ^ (t2 << 62) ^ (t3 << 63);
    let hi = (t0 >> 4) ^ (t1 >> 3) ^ (t2 >> 2) ^ (t3 >> 1);
    z ^ (u128::from(lo) | (u128::from(hi) << 64))
}

/// Unreduced sum of products `X * H^k` in the reflected representation (SP 800-38D's bit
/// order: a block read as a big-endian integer holds the coefficient of `x^i` in bit
/// `127 - i`), as the three Karatsuba products of the low words, the high words and the sums
/// of the words.
#[derive(Default)]
struct Acc {
    l: u128,
    h: u128,
    m: u128,
}

/// Sums of `X * H^k` reveal `H^k` to anyone who knows one block: wiped when dropped (the
/// H-power derivation in `Hkey::new` and every GHASH group).
impl Drop for Acc {
    fn drop(&mut self) {
        self.l.zeroize();
        self.h.zeroize();
        self.m.zeroize();
    }
}

impl Acc {
    /// Not inlined: one copy of the three products serves every block of a group (an
    /// eight-fold unrolled copy per call site made the code larger than it was faster).
    #[inline(never)]
    fn mul_add(&mut self, x: u128, hp: &HPow) {
        let (x0, x1) = (x as u64, (x >> 64) as u64);
        self.l ^= clmul(x0, &hp.0[0]);
        self.h ^= clmul(x1, &hp.0[1]);
        self.m ^= clmul(x0 ^ x1, &hp.0[2]);
    }

    /// The 256-bit product reduced modulo `x^128 + x^7 + x^2 + x + 1`, reflected. The
    /// carry-less product of two reflected operands is the reflected product shifted right by
    /// one bit; after shifting it back, the coefficient of `x^(128 + i)` sits in bit
    /// `127 - i`, and `x^128 = x^7 + x^2 + x + 1` adds it to the bits 128, 127, 126 and 121
    /// places higher, one 64-bit word at a time (the second word's terms land in the first's).
    #[inline(always)]
    fn reduce(&self) -> u128 {
        let mid = self.m ^ self.l ^ self.h;
        let v0 = self.l as u64;
        let v1 = (self.l >> 64) as u64 ^ mid as u64;
        let v2 = self.h as u64 ^ (mid >> 64) as u64;
        let v3 = (self.h >> 64) as u64;
        let (v3, v2, v1, v0) = (
            (v3 << 1) | (v2 >> 63),
            (v2 << 1) | (v1 >> 63),
            (v1 << 1) | (v0 >> 63),
            v0 << 1,
        );
        let v2 = v2 ^ v0 ^ (v0 >> 1) ^ (v0 >> 2) ^ (v0 >> 7);
        let v1 = v1 ^ (v0 << 63) ^ (v0 << 62) ^ (v0 << 57);
        let v3 = v3 ^ v1 ^ (v1 >> 1) ^ (v1 >> 2) ^ (v1 >> 7);
        let v2 = v2 ^ (v1 << 63) ^ (v1 << 62) ^ (v1 << 57);
        (u128::from(v3) << 64) | u128::from(v2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A GCM block as a field element: bit `i` is the coefficient of `x^i`.
    fn to_elem(b: &[u8; 16]) -> u128 {
        u128::from_be_bytes(*b).reverse_bits()
    }

    /// GHASH over lengths around the aggregation groups (one reduction per `AGG` blocks, a
    /// partial last block) against one schoolbook multiplication by `H` per block (whose
    /// powers `Hkey::new` derives with the same multiplication).
    #[test]
    fn ghash_groups_schoolbook() {
        fn mul(a: u128, b: u128) -> u128 {
            let (mut a, mut r) = (a, 0u128);
            for i in 0..128 {
                r ^= a & 0u128.wrapping_sub((b >> i) & 1);
                a = (a << 1) ^ (0x87 & 0u128.wrapping_sub(a >> 127));
            }
            r
        }
        // H = E_K(0^128) for the all-zero AES-128 key (GCM specification, test case 1); any
        // value would do.
        let hb = tessera_testkit::hex::array::<16>("66e94bd4ef8a2c3b884cfa59ca342b2e");
        let k = Hkey::new(u128::from_be_bytes(hb));
        let h = to_elem(&hb);
        let data: [u8; 16 * (2 * AGG + 1) + 5] = core::array::from_fn(|i| (i * 37 + 11) as u8);
        let lens = [
            0,
            1,
            15,
            16,
            17,
            16 * AGG - 1,
            16 * AGG,
            16 * AGG + 1,
            data.len(),
        ];
        for len in lens {
            let mut want = 0x0123_4567_89ab_cdef_u128;
            for c in data[..len].chunks(16) {
                let mut b = [0u8; 16];
                b[..c.len()].copy_from_slice(c);
                want = mul(want ^ to_elem(&b), h);
            }
            let mut y = 0x0123_4567_89ab_cdef_u128.reverse_bits().to_be_bytes();
            k.ghash(&mut y, &data[..len]);
            assert_eq!(to_elem(&y), want, "{len}");
        }
    }

    /// The carry-less product against the schoolbook definition on a few operands.
    #[test]
    fn clmul_schoolbook() {
        // Full residue classes (a column count of 16 without the top-bit split), the top
        // bits alone, and ordinary values.
        let vals = [
            0u64,
            1,
            u64::MAX,
            0x8000_0000_0000_0001,
            0x0123_4567_89ab_cdef,
            0x1111_1111_1111_1111,
            0x8888_8888_8888_8888,
            0xf000_0000_0000_0000,
            0x0fff_ffff_ffff_ffff,
            0xfedc_ba98_7654_3210,
        ];
        for &x in &vals {
            for &y in &vals {
                let mut want = 0u128;
                for i in 0..64 {
                    if (y >> i) & 1 == 1 {
                        want ^= u128::from(x) << i;
                    }
                }
                assert_eq!(clmul(x, &split(y)), want, "{x:x} {y:x}");
            }
        }
    }
}
