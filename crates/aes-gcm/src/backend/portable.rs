//! Portable constant-time backend.
//!
//! AES is bitsliced: four blocks (64 bytes) are transposed into eight 64-bit planes, plane `b`
//! holding bit `b` of every byte, so SubBytes is a Boolean circuit evaluated on whole words
//! (Boyar and Peralta, "A depth-16 circuit for the AES S-box", 2011, figures 5-9) and there is no
//! table lookup anywhere. Inside a plane, bit `16r + 4c + j` belongs to row `r`, column `c` of
//! block `j` (row-major), so the row offsets of MixColumns are plain word rotations and only
//! the column offsets left by fixslicing need masks. The S-box constant is folded into the round
//! keys.
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

use crate::gcm::GcmOps;
use zeroize::Zeroize;

/// Eight bit planes of four blocks.
type State = [u64; 8];

/// Expanded key: bitsliced round keys and the powers of the GHASH key `H`.
pub(crate) struct Key {
    rk: [State; 15],
    nr: usize,
    h: Hkey,
}

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
struct Hkey {
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
    fn new(h: u128) -> Self {
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
}

impl Drop for Key {
    fn drop(&mut self) {
        self.rk.zeroize();
        for p in self.h.pw.iter_mut() {
            p.zeroize();
        }
    }
}

impl Key {
    pub(crate) fn new(key: &[u8]) -> Self {
        let (mut bytes, nr) = crate::aes::expand(key);
        let mut rk = [[0u64; 8]; 15];
        for (i, (dst, src)) in rk.iter_mut().zip(bytes.iter()).take(nr + 1).enumerate() {
            *dst = pack(&[*src; 4]);
            // Fixslicing: inner round keys are stored with ShiftRows^-(i mod 4) applied.
            if i < nr {
                for _ in 0..i % 4 {
                    inv_shift_rows(dst);
                }
            }
            // The S-box's affine constant 0x63 (a NOT of planes 0, 1, 5, 6) is left out of
            // `sub_bytes_core` and added with every round key after the first: a constant byte
            // in every position is unchanged by ShiftRows and MixColumns (2 + 3 + 1 + 1 = 1).
            if i > 0 {
                not_sbox_constant(dst);
            }
        }
        bytes.zeroize();
        let mut k = Key {
            rk,
            nr,
            h: Hkey::default(),
        };
        let mut h = [0u8; 16];
        k.encrypt_block(&mut h);
        k.h = Hkey::new(u128::from_be_bytes(h));
        h.zeroize();
        k
    }

    /// AES encryption of four blocks (FIPS 197 section 5.1), fixsliced (Adomnicai and Peyrin,
    /// "Fixslicing AES-like ciphers", TCHES 2021): ShiftRows is not applied; after round `i` the
    /// stored state is the true state with ShiftRows^-(i mod 4) applied, so round `i` uses the
    /// MixColumns conjugated by ShiftRows^(i mod 4) (rows taken from shifted columns) and a
    /// round key stored in the same shifted form. The last round applies the outstanding
    /// ShiftRows^(Nr mod 4) once.
    #[inline]
    pub(crate) fn encrypt4(&self, blocks: &mut [[u8; 16]; 4]) {
        let mut s = pack(blocks);
        add_round_key(&mut s, &self.rk[0]);
        self.rounds(&mut s);
        unpack(&mut s, blocks);
    }

    /// Rounds 1..=Nr on a state that already holds the first round key. Not inlined: one copy
    /// of the unrolled rounds serves `encrypt4` (and so `E_K(J0)`) and CTR, which keeps the hot
    /// code of a short message small.
    #[inline(never)]
    fn rounds(&self, s: &mut State) {
        let nr = self.nr;
        // Round `i` uses MixColumns conjugated by ShiftRows^(i mod 4); unrolled by four so
        // that every rotation distance and mask is a constant.
        let mut i = 1;
        while i < nr {
            round(s, &self.rk[i], 1);
            if i + 1 == nr {
                break;
            }
            round(s, &self.rk[i + 1], 2);
            if i + 2 == nr {
                break;
            }
            round(s, &self.rk[i + 2], 3);
            if i + 3 == nr {
                break;
            }
            round(s, &self.rk[i + 3], 0);
            i += 4;
        }
        sub_bytes_core(s);
        // Nr is 10, 12 or 14.
        if nr % 4 == 2 {
            shift_rows2(s);
        }
        add_round_key(s, &self.rk[nr]);
    }

    /// AES decryption of four blocks (FIPS 197 section 5.3, the inverse cipher), on the round
    /// keys brought back from their fixsliced form.
    #[inline]
    pub(crate) fn decrypt4(&self, blocks: &mut [[u8; 16]; 4]) {
        let mut s = pack(blocks);
        let mut rk = self.rk[self.nr];
        not_sbox_constant(&mut rk);
        add_round_key(&mut s, &rk);
        for i in (1..self.nr).rev() {
            rk = self.rk[i];
            not_sbox_constant(&mut rk);
            for _ in 0..i % 4 {
                shift_rows(&mut rk);
            }
            inv_shift_rows(&mut s);
            inv_sub_bytes(&mut s);
            add_round_key(&mut s, &rk);
            inv_mix_columns(&mut s);
        }
        rk.zeroize();
        inv_shift_rows(&mut s);
        inv_sub_bytes(&mut s);
        add_round_key(&mut s, &self.rk[0]);
        unpack(&mut s, blocks);
    }

    pub(crate) fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        self.blocks4(blocks, Self::encrypt4);
    }

    pub(crate) fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        self.blocks4(blocks, Self::decrypt4);
    }

    fn blocks4(&self, blocks: &mut [[u8; 16]], f: fn(&Self, &mut [[u8; 16]; 4])) {
        for chunk in blocks.chunks_mut(4) {
            let mut b = [[0u8; 16]; 4];
            b[..chunk.len()].copy_from_slice(chunk);
            f(self, &mut b);
            chunk.copy_from_slice(&b[..chunk.len()]);
            b.zeroize();
        }
    }

    /// CTR mode with a 32-bit big-endian counter in the last four bytes (SP 800-38D `GCTR`):
    /// XORs the key stream starting at `ctr` into `buf`.
    ///
    /// Packing is linear, so the four counter blocks of a pass are packed as the fixed part
    /// (the first 12 bytes, with the first round key added, once per call) plus the packed
    /// counters, which occupy only the last column.
    fn ctr32(&self, ctr: &[u8; 16], buf: &mut [u8]) {
        let mut c = u32::from_be_bytes([ctr[12], ctr[13], ctr[14], ctr[15]]);
        let mut fixed = [*ctr; 4];
        for b in fixed.iter_mut() {
            b[12..].fill(0);
        }
        let mut base = pack(&fixed);
        add_round_key(&mut base, &self.rk[0]);
        for chunk in buf.chunks_mut(64) {
            let mut s = [0u64; 8];
            for j in 0..4 {
                // Bytes 12..16 (row r, column 3) are the odd bytes of the upper word.
                s[j + 4] = zip_bytes(u64::from(c.swap_bytes()) << 32);
                c = c.wrapping_add(1);
            }
            ortho(&mut s);
            add_round_key(&mut s, &base);
            self.rounds(&mut s);
            let mut ks = unpack_words(&mut s);
            if let Ok(chunk) = <&mut [u8; 64]>::try_from(&mut *chunk) {
                for (d, k) in chunk.as_chunks_mut::<8>().0.iter_mut().zip(ks.iter()) {
                    *d = (u64::from_le_bytes(*d) ^ k).to_le_bytes();
                }
            } else {
                let mut b = [0u8; 64];
                for (d, k) in b.as_chunks_mut::<8>().0.iter_mut().zip(ks.iter()) {
                    *d = k.to_le_bytes();
                }
                for (d, k) in chunk.iter_mut().zip(b.iter()) {
                    *d ^= k;
                }
                b.zeroize();
            }
            ks.zeroize();
        }
        base.zeroize();
    }

    /// `(acc + X_1) H^n + X_2 H^(n-1) + ... + X_n H` for the `n = blocks.len() <= AGG` blocks,
    /// with one reduction.
    #[inline(always)]
    fn absorb(&self, acc: u128, blocks: &[[u8; 16]]) -> u128 {
        let n = blocks.len();
        let mut a = Acc::default();
        for (i, (b, hp)) in blocks.iter().zip(self.h.pw[..n].iter().rev()).enumerate() {
            let mut x = u128::from_be_bytes(*b);
            if i == 0 {
                x ^= acc;
            }
            a.mul_add(x, hp);
        }
        a.reduce()
    }
}

impl GcmOps for Key {
    #[inline]
    fn encrypt_block(&self, block: &mut [u8; 16]) {
        let mut b = [*block, [0; 16], [0; 16], [0; 16]];
        self.encrypt4(&mut b);
        *block = b[0];
    }

    fn ghash(&self, y: &mut [u8; 16], data: &[u8]) {
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

    fn ctr_ghash_seal(&self, ctr: &[u8; 16], y: &mut [u8; 16], buf: &mut [u8]) {
        self.ctr32(ctr, buf);
        self.ghash(y, buf);
    }

    fn ctr_ghash_open(&self, ctr: &[u8; 16], y: &mut [u8; 16], buf: &mut [u8]) {
        self.ghash(y, buf);
        self.ctr32(ctr, buf);
    }
}

/// Exchanges the bits of `w[j]` selected by `mask` with the bits of `w[i]` selected by
/// `mask << n`.
#[inline(always)]
fn swap_move(w: &mut State, i: usize, j: usize, mask: u64, n: u32) {
    let t = ((w[i] >> n) ^ w[j]) & mask;
    w[j] ^= t;
    w[i] ^= t << n;
}

/// Transposes the 8x8 bit matrices formed by (word index, low three bits of the bit position):
/// bit `8m + b` of word `k` moves to bit `8m + k` of word `b`. An involution.
#[inline(always)]
fn ortho(w: &mut State) {
    for i in [0, 2, 4, 6] {
        swap_move(w, i, i + 1, 0x5555_5555_5555_5555, 1);
    }
    for i in [0, 1, 4, 5] {
        swap_move(w, i, i + 2, 0x3333_3333_3333_3333, 2);
    }
    for i in 0..4 {
        swap_move(w, i, i + 4, 0x0f0f_0f0f_0f0f_0f0f, 4);
    }
}

/// `[a0, a1, a2, a3, b0, b1, b2, b3]` (bytes, least significant first) to
/// `[a0, b0, a1, b1, a2, b2, a3, b3]`.
#[inline(always)]
fn zip_bytes(x: u64) -> u64 {
    let x = delta_swap(x, 0x0000_0000_ffff_0000, 16);
    delta_swap(x, 0x0000_ff00_0000_ff00, 8)
}

/// Inverse of [`zip_bytes`].
#[inline(always)]
fn unzip_bytes(x: u64) -> u64 {
    let x = delta_swap(x, 0x0000_ff00_0000_ff00, 8);
    delta_swap(x, 0x0000_0000_ffff_0000, 16)
}

/// Exchanges the bits of `x` selected by `mask` with those selected by `mask << n`.
#[inline(always)]
fn delta_swap(x: u64, mask: u64, n: u32) -> u64 {
    let t = ((x >> n) ^ x) & mask;
    x ^ t ^ (t << n)
}

/// Four blocks to bit planes, row-major: byte `p = r + 4c` (row `r`, column `c`) of block `j`
/// goes to plane bit `16r + 4c + j`. [`ortho`] puts byte `m` of word `k` at bit `8m + k`, so
/// word `j` holds the even columns of block `j` (bytes `b0 b8 b1 b9 b2 b10 b3 b11`) and word
/// `j + 4` the odd ones (`b4 b12 b5 b13 b6 b14 b7 b15`).
#[inline(always)]
fn pack(blocks: &[[u8; 16]; 4]) -> State {
    let mut w = [0u64; 8];
    for (j, b) in blocks.iter().enumerate() {
        let lo = u64::from_le_bytes(b[..8].try_into().unwrap());
        let hi = u64::from_le_bytes(b[8..].try_into().unwrap());
        w[j] = zip_bytes((lo & 0xffff_ffff) | (hi << 32));
        w[j + 4] = zip_bytes((lo >> 32) | (hi & 0xffff_ffff_0000_0000));
    }
    ortho(&mut w);
    w
}

/// Inverse of [`pack`] to little-endian words (bytes 0..8 and 8..16 of each block); clears
/// the planes.
#[inline(always)]
fn unpack_words(s: &mut State) -> [u64; 8] {
    ortho(s);
    let mut out = [0u64; 8];
    for j in 0..4 {
        let e = unzip_bytes(s[j]);
        let o = unzip_bytes(s[j + 4]);
        out[2 * j] = (e & 0xffff_ffff) | (o << 32);
        out[2 * j + 1] = (e >> 32) | (o & 0xffff_ffff_0000_0000);
    }
    s.zeroize();
    out
}

/// Inverse of [`pack`]; clears the planes.
#[inline(always)]
fn unpack(s: &mut State, blocks: &mut [[u8; 16]; 4]) {
    let mut w = unpack_words(s);
    for (b, w) in blocks.iter_mut().zip(w.as_chunks::<2>().0) {
        b[..8].copy_from_slice(&w[0].to_le_bytes());
        b[8..].copy_from_slice(&w[1].to_le_bytes());
    }
    w.zeroize();
}

#[inline(always)]
fn add_round_key(s: &mut State, rk: &State) {
    for (x, k) in s.iter_mut().zip(rk) {
        *x ^= k;
    }
}

/// XOR of 0x63 into every byte: the planes of its set bits, complemented.
#[inline(always)]
fn not_sbox_constant(s: &mut State) {
    for b in [0, 1, 5, 6] {
        s[b] = !s[b];
    }
}

/// Cells `c < n` of every 16-bit row.
const fn cells_below(n: u32) -> u64 {
    ((1u64 << (4 * n)) - 1) * 0x0001_0001_0001_0001
}

/// Plane bits of row `r`.
const ROW: [u64; 4] = [0xffff, 0xffff << 16, 0xffff << 32, 0xffff << 48];

/// Cell `(r, c)` takes cell `(r + dr, c + dc)` (indices mod 4): a rotation of the whole
/// word for the rows, and a rotation inside each 16-bit row for the columns (cells that wrap
/// around their row come from the rotation by one row less: `16 dr + 4 dc - 16`, mod 64).
#[inline(always)]
fn rot_cells(x: u64, dr: u32, dc: u32) -> u64 {
    if dc == 0 {
        return x.rotate_right(16 * dr);
    }
    let lo = cells_below(4 - dc);
    (x.rotate_right(16 * dr + 4 * dc) & lo) | (x.rotate_right(16 * dr + 4 * dc + 48) & !lo)
}

/// Row `r` moves left by `r` columns.
#[inline(always)]
fn shift_rows(s: &mut State) {
    for x in s.iter_mut() {
        *x = (*x & ROW[0])
            | (rot_cells(*x, 0, 1) & ROW[1])
            | (rot_cells(*x, 0, 2) & ROW[2])
            | (rot_cells(*x, 0, 3) & ROW[3]);
    }
}

/// ShiftRows twice: rows 1 and 3 move by two columns.
#[inline(always)]
fn shift_rows2(s: &mut State) {
    for x in s.iter_mut() {
        *x = (*x & (ROW[0] | ROW[2])) | (rot_cells(*x, 0, 2) & (ROW[1] | ROW[3]));
    }
}

#[inline(always)]
fn inv_shift_rows(s: &mut State) {
    for x in s.iter_mut() {
        *x = (*x & ROW[0])
            | (rot_cells(*x, 0, 3) & ROW[1])
            | (rot_cells(*x, 0, 2) & ROW[2])
            | (rot_cells(*x, 0, 1) & ROW[3]);
    }
}

/// Multiplication by `x` in GF(2^8) modulo `x^8 + x^4 + x^3 + x + 1`, on bit planes.
#[inline(always)]
fn xtime(a: &State) -> State {
    [
        a[7],
        a[0] ^ a[7],
        a[1],
        a[2] ^ a[7],
        a[3] ^ a[7],
        a[4],
        a[5],
        a[6],
    ]
}

/// One inner round of the fixsliced cipher: SubBytes (without its constant, which is in the
/// round key), MixColumns conjugated by ShiftRows^m, AddRoundKey.
#[inline(always)]
fn round(s: &mut State, rk: &State, m: u32) {
    sub_bytes_core(s);
    mix_columns_shifted(s, m);
    add_round_key(s, rk);
}

/// MixColumns conjugated by ShiftRows^m: `b(r, c) = 2 a(r, c) + 3 a(r+1, c+m) + a(r+2, c+2m) +
/// a(r+3, c+3m) = 2 t(r, c) + a(r+1, c+m) + t(r+2, c+2m)` with `t(r, c) = a(r, c) +
/// a(r+1, c+m)`. In the row-major planes the row offsets are word rotations; only the column
/// offsets (`m` and `2m` mod 4 when nonzero) cost masks.
#[inline(always)]
fn mix_columns_shifted(s: &mut State, m: u32) {
    let mut a1 = [0u64; 8];
    let mut t = [0u64; 8];
    for b in 0..8 {
        a1[b] = rot_cells(s[b], 1, m);
        t[b] = s[b] ^ a1[b];
    }
    let t2 = xtime(&t);
    for b in 0..8 {
        s[b] = t2[b] ^ a1[b] ^ rot_cells(t[b], 2, (2 * m) % 4);
    }
}

/// InvMixColumns = MixColumns after the circulant (5, 0, 4, 0):
/// `u_r = a_r + 4 (a_r + a_{r+2})`.
#[inline(always)]
fn inv_mix_columns(s: &mut State) {
    let mut t = [0u64; 8];
    for b in 0..8 {
        t[b] = s[b] ^ rot_cells(s[b], 2, 0);
    }
    let t4 = xtime(&xtime(&t));
    for b in 0..8 {
        s[b] ^= t4[b];
    }
    mix_columns_shifted(s, 0);
}

/// SubBytes (with its constant): used by the key schedule.
#[inline(always)]
fn sub_bytes(s: &mut State) {
    sub_bytes_core(s);
    not_sbox_constant(s);
}

/// SubBytes without the constant 0x63: Boyar-Peralta forward circuit (top linear part, shared
/// non-linear middle, bottom linear part) with the four output NOTs left out. `U0` is the most
/// significant bit, so `U0 = s[7]`, ..., `U7 = s[0]`.
#[inline(always)]
fn sub_bytes_core(s: &mut State) {
    let (u0, u1, u2, u3, u4, u5, u6, u7) = (s[7], s[6], s[5], s[4], s[3], s[2], s[1], s[0]);
    let t1 = u0 ^ u3;
    let t2 = u0 ^ u5;
    let t3 = u0 ^ u6;
    let t4 = u3 ^ u5;
    let t5 = u4 ^ u6;
    let t6 = t1 ^ t5;
    let t7 = u1 ^ u2;
    let t8 = u7 ^ t6;
    let t9 = u7 ^ t7;
    let t10 = t6 ^ t7;
    let t11 = u1 ^ u5;
    let t12 = u2 ^ u5;
    let t13 = t3 ^ t4;
    let t14 = t6 ^ t11;
    let t15 = t5 ^ t11;
    let t16 = t5 ^ t12;
    let t17 = t9 ^ t16;
    let t18 = u3 ^ u7;
    let t19 = t7 ^ t18;
    let t20 = t1 ^ t19;
    let t21 = u6 ^ u7;
    let t22 = t7 ^ t21;
    let t23 = t2 ^ t22;
    let t24 = t2 ^ t10;
    let t25 = t20 ^ t17;
    let t26 = t3 ^ t16;
    let t27 = t1 ^ t12;
    let m = Middle {
        t1,
        t2,
        t3,
        t4,
        t6,
        t8,
        t9,
        t10,
        t13,
        t14,
        t15,
        t16,
        t17,
        t19,
        t20,
        t22,
        t23,
        t24,
        t25,
        t26,
        t27,
        d: u7,
    }
    .eval();
    let l0 = m[61] ^ m[62];
    let l1 = m[50] ^ m[56];
    let l2 = m[46] ^ m[48];
    let l3 = m[47] ^ m[55];
    let l4 = m[54] ^ m[58];
    let l5 = m[49] ^ m[61];
    let l6 = m[62] ^ l5;
    let l7 = m[46] ^ l3;
    let l8 = m[51] ^ m[59];
    let l9 = m[52] ^ m[53];
    let l10 = m[53] ^ l4;
    let l11 = m[60] ^ l2;
    let l12 = m[48] ^ m[51];
    let l13 = m[50] ^ l0;
    let l14 = m[52] ^ m[61];
    let l15 = m[55] ^ l1;
    let l16 = m[56] ^ l0;
    let l17 = m[57] ^ l1;
    let l18 = m[58] ^ l8;
    let l19 = m[63] ^ l4;
    let l20 = l0 ^ l1;
    let l21 = l1 ^ l7;
    let l22 = l3 ^ l12;
    let l23 = l18 ^ l2;
    let l24 = l15 ^ l9;
    let l25 = l6 ^ l10;
    let l26 = l7 ^ l9;
    let l27 = l8 ^ l10;
    let l28 = l11 ^ l14;
    let l29 = l11 ^ l17;
    s[7] = l6 ^ l24;
    s[6] = l16 ^ l26;
    s[5] = l19 ^ l28;
    s[4] = l6 ^ l21;
    s[3] = l20 ^ l22;
    s[2] = l25 ^ l29;
    s[1] = l13 ^ l27;
    s[0] = l6 ^ l23;
}

/// InvSubBytes: Boyar-Peralta inverse circuit (own top and bottom, the same middle).
#[inline(always)]
fn inv_sub_bytes(s: &mut State) {
    let (u0, u1, u2, u3, u4, u5, u6, u7) = (s[7], s[6], s[5], s[4], s[3], s[2], s[1], s[0]);
    let t23 = u0 ^ u3;
    let t22 = !(u1 ^ u3);
    let t2 = !(u0 ^ u1);
    let t1 = u3 ^ u4;
    let t24 = !(u4 ^ u7);
    let r5 = u6 ^ u7;
    let t8 = !(u1 ^ t23);
    let t19 = t22 ^ r5;
    let t9 = !(u7 ^ t1);
    let t10 = t2 ^ t24;
    let t13 = t2 ^ r5;
    let t3 = t1 ^ r5;
    let t25 = !(u2 ^ t1);
    let r13 = u1 ^ u6;
    let t17 = !(u2 ^ t19);
    let t20 = t24 ^ r13;
    let t4 = u4 ^ t8;
    let r17 = !(u2 ^ u5);
    let r18 = !(u5 ^ u6);
    let r19 = !(u2 ^ u4);
    let y5 = u0 ^ r17;
    let t6 = t22 ^ r17;
    let t16 = r13 ^ r19;
    let t27 = t1 ^ r18;
    let t15 = t10 ^ t27;
    let t14 = t10 ^ r18;
    let t26 = t3 ^ t16;
    let m = Middle {
        t1,
        t2,
        t3,
        t4,
        t6,
        t8,
        t9,
        t10,
        t13,
        t14,
        t15,
        t16,
        t17,
        t19,
        t20,
        t22,
        t23,
        t24,
        t25,
        t26,
        t27,
        d: y5,
    }
    .eval();
    let p0 = m[52] ^ m[61];
    let p1 = m[58] ^ m[59];
    let p2 = m[54] ^ m[62];
    let p3 = m[47] ^ m[50];
    let p4 = m[48] ^ m[56];
    let p5 = m[46] ^ m[51];
    let p6 = m[49] ^ m[60];
    let p7 = p0 ^ p1;
    let p8 = m[50] ^ m[53];
    let p9 = m[55] ^ m[63];
    let p10 = m[57] ^ p4;
    let p11 = p0 ^ p3;
    let p12 = m[46] ^ m[48];
    let p13 = m[49] ^ m[51];
    let p14 = m[49] ^ m[62];
    let p15 = m[54] ^ m[59];
    let p16 = m[57] ^ m[61];
    let p17 = m[58] ^ p2;
    let p18 = m[63] ^ p5;
    let p19 = p2 ^ p3;
    let p20 = p4 ^ p6;
    let p22 = p2 ^ p7;
    let p23 = p7 ^ p8;
    let p24 = p5 ^ p7;
    let p25 = p6 ^ p10;
    let p26 = p9 ^ p11;
    let p27 = p10 ^ p18;
    let p28 = p11 ^ p25;
    let p29 = p15 ^ p20;
    s[7] = p13 ^ p22;
    s[6] = p26 ^ p29;
    s[5] = p17 ^ p28;
    s[4] = p12 ^ p22;
    s[3] = p23 ^ p27;
    s[2] = p19 ^ p24;
    s[1] = p14 ^ p23;
    s[0] = p9 ^ p16;
}

/// Inputs of the shared non-linear middle part (Boyar-Peralta figure 7).
struct Middle {
    t1: u64,
    t2: u64,
    t3: u64,
    t4: u64,
    t6: u64,
    t8: u64,
    t9: u64,
    t10: u64,
    t13: u64,
    t14: u64,
    t15: u64,
    t16: u64,
    t17: u64,
    t19: u64,
    t20: u64,
    t22: u64,
    t23: u64,
    t24: u64,
    t25: u64,
    t26: u64,
    t27: u64,
    d: u64,
}

impl Middle {
    /// Returns `M1..M63` at their indices (index 0 unused); the bottom parts read `M46..M63`.
    #[inline(always)]
    fn eval(&self) -> [u64; 64] {
        let Middle {
            t1,
            t2,
            t3,
            t4,
            t6,
            t8,
            t9,
            t10,
            t13,
            t14,
            t15,
            t16,
            t17,
            t19,
            t20,
            t22,
            t23,
            t24,
            t25,
            t26,
            t27,
            d,
        } = *self;
        let m1 = t13 & t6;
        let m2 = t23 & t8;
        let m3 = t14 ^ m1;
        let m4 = t19 & d;
        let m5 = m4 ^ m1;
        let m6 = t3 & t16;
        let m7 = t22 & t9;
        let m8 = t26 ^ m6;
        let m9 = t20 & t17;
        let m10 = m9 ^ m6;
        let m11 = t1 & t15;
        let m12 = t4 & t27;
        let m13 = m12 ^ m11;
        let m14 = t2 & t10;
        let m15 = m14 ^ m11;
        let m16 = m3 ^ m2;
        let m17 = m5 ^ t24;
        let m18 = m8 ^ m7;
        let m19 = m10 ^ m15;
        let m20 = m16 ^ m13;
        let m21 = m17 ^ m15;
        let m22 = m18 ^ m13;
        let m23 = m19 ^ t25;
        let m24 = m22 ^ m23;
        let m25 = m22 & m20;
        let m26 = m21 ^ m25;
        let m27 = m20 ^ m21;
        let m28 = m23 ^ m25;
        let m29 = m28 & m27;
        let m30 = m26 & m24;
        let m31 = m20 & m23;
        let m32 = m27 & m31;
        let m33 = m27 ^ m25;
        let m34 = m21 & m22;
        let m35 = m24 & m34;
        let m36 = m24 ^ m25;
        let m37 = m21 ^ m29;
        let m38 = m32 ^ m33;
        let m39 = m23 ^ m30;
        let m40 = m35 ^ m36;
        let m41 = m38 ^ m40;
        let m42 = m37 ^ m39;
        let m43 = m37 ^ m38;
        let m44 = m39 ^ m40;
        let m45 = m42 ^ m41;
        let mut m = [0u64; 64];
        m[46] = m44 & t6;
        m[47] = m40 & t8;
        m[48] = m39 & d;
        m[49] = m43 & t16;
        m[50] = m38 & t9;
        m[51] = m37 & t17;
        m[52] = m42 & t15;
        m[53] = m45 & t27;
        m[54] = m41 & t10;
        m[55] = m44 & t13;
        m[56] = m40 & t23;
        m[57] = m39 & t19;
        m[58] = m43 & t3;
        m[59] = m38 & t22;
        m[60] = m37 & t20;
        m[61] = m42 & t1;
        m[62] = m45 & t4;
        m[63] = m41 & t2;
        m
    }
}

/// SubWord of the key schedule (FIPS 197 section 5.2) through the same circuit: byte `j` of
/// `w` (big-endian) in bit `j` of each plane.
pub(crate) fn sub_word(w: u32) -> u32 {
    let bytes = w.to_be_bytes();
    let mut s = [0u64; 8];
    for (b, plane) in s.iter_mut().enumerate() {
        for (j, x) in bytes.iter().enumerate() {
            *plane |= u64::from((x >> b) & 1) << j;
        }
    }
    sub_bytes(&mut s);
    let mut out = [0u8; 4];
    for (b, plane) in s.iter().enumerate() {
        for (j, x) in out.iter_mut().enumerate() {
            *x |= (((plane >> j) & 1) as u8) << b;
        }
    }
    s.zeroize();
    u32::from_be_bytes(out)
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

    /// FIPS 197 appendix B (cipher example) and C.1 (AES-128), small enough for Miri.
    #[test]
    fn fips197_block() {
        let key: [u8; 16] = *b"\x2b\x7e\x15\x16\x28\xae\xd2\xa6\xab\xf7\x15\x88\x09\xcf\x4f\x3c";
        let pt = *b"\x32\x43\xf6\xa8\x88\x5a\x30\x8d\x31\x31\x98\xa2\xe0\x37\x07\x34";
        let ct = *b"\x39\x25\x84\x1d\x02\xdc\x09\xfb\xdc\x11\x85\x97\x19\x6a\x0b\x32";
        let k = Key::new(&key);
        let mut b = [pt, [0; 16], pt, [0; 16]];
        k.encrypt4(&mut b);
        assert_eq!(b[0], ct);
        assert_eq!(b[2], ct);
        k.decrypt4(&mut b);
        assert_eq!(b[0], pt);
        assert_eq!(b[1], [0; 16]);
    }

    /// FIPS 197 appendix C.3 (AES-256).
    #[test]
    fn fips197_c3() {
        let key: [u8; 32] = core::array::from_fn(|i| i as u8);
        let pt: [u8; 16] = core::array::from_fn(|i| (i as u8) * 0x11);
        let ct = *b"\x8e\xa2\xb7\xca\x51\x67\x45\xbf\xea\xfc\x49\x90\x4b\x49\x60\x89";
        let k = Key::new(&key);
        let mut b = [[0; 16], [0; 16], [0; 16], pt];
        k.encrypt4(&mut b);
        assert_eq!(b[3], ct);
        k.decrypt4(&mut b);
        assert_eq!(b[3], pt);
    }

    /// S-box entries from FIPS 197 figure 7.
    #[test]
    fn sub_word_fips197() {
        assert_eq!(sub_word(0x0001_5310), 0x637c_edca);
        assert_eq!(sub_word(0xffc9_8e2a), 0x16dd_19e5);
    }

    /// A GCM block as a field element: bit `i` is the coefficient of `x^i`.
    fn to_elem(b: &[u8; 16]) -> u128 {
        u128::from_be_bytes(*b).reverse_bits()
    }

    /// GHASH over lengths around the aggregation groups (one reduction per `AGG` blocks, a
    /// partial last block) against one schoolbook multiplication by `H` per block.
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
        let k = Key::new(&[0x42; 16]);
        let mut h = [0u8; 16];
        k.encrypt_block(&mut h);
        let h = to_elem(&h);
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
