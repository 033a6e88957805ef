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
//! multiplications of operands with 3-bit holes (each partial product's carries fall into the
//! holes and are masked away), so its timing does not depend on the data either. Eight blocks
//! share one reduction (precomputed `H^1..H^8`, already split into masked parts).
//!
//! That last claim assumes the target's 64-bit multiplier takes the same time for every operand.
//! It is true of current x86_64, aarch64 and most application cores, but not everywhere: some
//! Cortex-M3, ARM7/ARM9 and PowerPC cores finish a multiply early for small operands, and 32-bit
//! targets build each `u64` multiply from several 32-bit ones (whose timing may in turn depend on
//! the operands). On such cores the portable GHASH can leak information about `H` and the data.

use crate::gcm::GcmOps;
use zeroize::Zeroize;

/// Eight bit planes of four blocks.
type State = [u64; 8];

/// Expanded key: bitsliced round keys and the GHASH key `H` (bit `i` = coefficient of `x^i`).
pub(crate) struct Key {
    rk: [State; 15],
    nr: usize,
    h: Hkey,
}

/// Blocks absorbed per GHASH reduction: `Y = (Y + X_1) H^n + X_2 H^(n-1) + ... + X_n H` is
/// summed unreduced, so the bit reversal of the high halves and the reduction are paid once per
/// group (SP 800-38D's GHASH, rearranged by linearity).
const AGG: usize = 8;

/// One power of `H` prepared for [`bmul64`]: for each Karatsuba operand (low half, high half,
/// their sum) and then for their bit reversals, the four masked parts.
#[derive(Clone, Copy, Default)]
struct HPow([[u64; 4]; 6]);

impl HPow {
    fn new(h: u128) -> Self {
        let (h0, h1) = (h as u64, (h >> 64) as u64);
        let k = [h0, h1, h0 ^ h1];
        let mut p = [[0u64; 4]; 6];
        for (i, x) in k.iter().enumerate() {
            p[i] = split(*x);
            p[i + 3] = split(x.reverse_bits());
        }
        HPow(p)
    }
}

/// `H^1..=H^AGG` (bit `i` = coefficient of `x^i`), `pw[k] = H^(k+1)`.
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
    fn new(h: u128) -> Self {
        let mut k = Hkey::default();
        k.pw[0] = HPow::new(h);
        let mut p = h;
        for i in 1..AGG {
            let mut a = Acc::default();
            a.mul_add(Half::from_elem(p), &k.pw[0]);
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
            p.0.zeroize();
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
        k.h = Hkey::new(to_elem(&h));
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

    /// Rounds 1..=Nr on a state that already holds the first round key.
    #[inline(always)]
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
    fn absorb(&self, acc: Running, blocks: &[[u8; 16]]) -> u128 {
        let n = blocks.len();
        let mut a = Acc::default();
        for (i, (b, hp)) in blocks.iter().zip(self.h.pw[..n].iter().rev()).enumerate() {
            let x = match (i, acc) {
                (0, Running::Block(y)) => Half::from_word(u128::from_be_bytes(*b) ^ y),
                (0, Running::Elem(y)) => Half::from_block(b).add_elem(y),
                _ => Half::from_block(b),
            };
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
        let mut acc = Running::Block(u128::from_be_bytes(*y));
        let (blocks, rem) = data.as_chunks::<16>();
        let mut groups = blocks.chunks_exact(AGG);
        for g in &mut groups {
            let g: &[[u8; 16]; AGG] = g.try_into().expect("chunks_exact");
            acc = Running::Elem(self.absorb(acc, g));
        }
        let tail = groups.remainder();
        if rem.is_empty() {
            if !tail.is_empty() {
                acc = Running::Elem(self.absorb(acc, tail));
            }
        } else {
            // The partial block, zero-padded, joins the last group. (GHASH inputs are public:
            // AAD, ciphertext, lengths, nonce.)
            let mut last = [[0u8; 16]; AGG];
            last[..tail.len()].copy_from_slice(tail);
            last[tail.len()][..rem.len()].copy_from_slice(rem);
            acc = Running::Elem(self.absorb(acc, &last[..=tail.len()]));
        }
        if let Running::Elem(e) = acc {
            *y = from_elem(e);
        }
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

/// A GCM block as a field element: bit `i` is the coefficient of `x^i` (SP 800-38D section 6.3:
/// the leftmost bit of the block is the constant term).
#[inline(always)]
fn to_elem(b: &[u8; 16]) -> u128 {
    u128::from_be_bytes(*b).reverse_bits()
}

#[inline(always)]
fn from_elem(e: u128) -> [u8; 16] {
    e.reverse_bits().to_be_bytes()
}

/// The four interleaved parts of `y` that [`bmul64`] multiplies: bits `i = k mod 4` in part `k`.
#[inline(always)]
fn split(y: u64) -> [u64; 4] {
    const M0: u64 = 0x1111_1111_1111_1111;
    [y & M0, y & (M0 << 1), y & (M0 << 2), y & (M0 << 3)]
}

/// Low 64 bits of the carry-less product of `x` and `y` (given as `split(y)`). Operands are
/// split into four interleaved parts with three zero bits between set bits; a column of an
/// integer product then sums at most 16 ones, and its carries stay in the holes (or leave the
/// low 64 bits), so the masked result is the XOR of the partial products.
#[inline(always)]
fn bmul64(x: u64, y: &[u64; 4]) -> u64 {
    const M0: u64 = 0x1111_1111_1111_1111;
    const M1: u64 = M0 << 1;
    const M2: u64 = M0 << 2;
    const M3: u64 = M0 << 3;
    let (x0, x1, x2, x3) = (x & M0, x & M1, x & M2, x & M3);
    let [y0, y1, y2, y3] = *y;
    let z0 = x0.wrapping_mul(y0) ^ x1.wrapping_mul(y3) ^ x2.wrapping_mul(y2) ^ x3.wrapping_mul(y1);
    let z1 = x0.wrapping_mul(y1) ^ x1.wrapping_mul(y0) ^ x2.wrapping_mul(y3) ^ x3.wrapping_mul(y2);
    let z2 = x0.wrapping_mul(y2) ^ x1.wrapping_mul(y1) ^ x2.wrapping_mul(y0) ^ x3.wrapping_mul(y3);
    let z3 = x0.wrapping_mul(y3) ^ x1.wrapping_mul(y2) ^ x2.wrapping_mul(y1) ^ x3.wrapping_mul(y0);
    (z0 & M0) | (z1 & M1) | (z2 & M2) | (z3 & M3)
}

/// Full 128-bit carry-less product `(low, high)`; the high half is the bit-reversed low half
/// of the product of the bit-reversed operands, shifted by one.
#[cfg(test)]
fn clmul64(x: u64, y: u64) -> (u64, u64) {
    let lo = bmul64(x, &split(y));
    let hi = bmul64(x.reverse_bits(), &split(y.reverse_bits())).reverse_bits() >> 1;
    (lo, hi)
}

/// The running GHASH value: still the caller's block (big-endian integer) until the first
/// reduction of a call, which XORs it into the first block before any bit reversal, then a
/// field element.
#[derive(Clone, Copy)]
enum Running {
    Block(u128),
    Elem(u128),
}

/// A field element's Karatsuba operands: its 64-bit halves `a0`, `a1` (coefficients of
/// `x^0..x^63`, `x^64..x^127`) and their bit reversals `r0`, `r1`.
#[derive(Clone, Copy)]
struct Half {
    a0: u64,
    a1: u64,
    r0: u64,
    r1: u64,
}

impl Half {
    /// From a GCM block (first bit = constant term): the big-endian halves of the block are
    /// already the reversed halves, so only `a0`, `a1` need a reversal.
    #[inline(always)]
    fn from_block(b: &[u8; 16]) -> Self {
        Half::from_word(u128::from_be_bytes(*b))
    }

    /// From a block read as a big-endian integer.
    #[inline(always)]
    fn from_word(x: u128) -> Self {
        let (r0, r1) = ((x >> 64) as u64, x as u64);
        Half {
            a0: r0.reverse_bits(),
            a1: r1.reverse_bits(),
            r0,
            r1,
        }
    }

    #[inline(always)]
    fn from_elem(e: u128) -> Self {
        let (a0, a1) = (e as u64, (e >> 64) as u64);
        Half {
            a0,
            a1,
            r0: a0.reverse_bits(),
            r1: a1.reverse_bits(),
        }
    }

    /// `self + e`.
    #[inline(always)]
    fn add_elem(self, e: u128) -> Self {
        Half::from_elem(e ^ (u128::from(self.a0) | (u128::from(self.a1) << 64)))
    }
}

/// Unreduced sum of carry-less products `a * H^k`, as Karatsuba parts: low halves of the
/// products of the low halves, high halves and sums (`l`, `h`, `m`), and the same for the
/// bit-reversed operands (`rl`, `rh`, `rm`), whose reversal gives the high 64 bits. Bit
/// reversal is linear, so it is applied once, to the sums.
#[derive(Default)]
struct Acc {
    l: u64,
    h: u64,
    m: u64,
    rl: u64,
    rh: u64,
    rm: u64,
}

impl Acc {
    #[inline(always)]
    fn mul_add(&mut self, a: Half, hp: &HPow) {
        let p = &hp.0;
        self.l ^= bmul64(a.a0, &p[0]);
        self.h ^= bmul64(a.a1, &p[1]);
        self.m ^= bmul64(a.a0 ^ a.a1, &p[2]);
        self.rl ^= bmul64(a.r0, &p[3]);
        self.rh ^= bmul64(a.r1, &p[4]);
        self.rm ^= bmul64(a.r0 ^ a.r1, &p[5]);
    }

    /// The 256-bit product assembled from the Karatsuba parts, reduced modulo
    /// `x^128 + x^7 + x^2 + x + 1`.
    #[inline(always)]
    fn reduce(&self) -> u128 {
        let (l0, h0) = (self.l, self.h);
        let m0 = self.m ^ l0 ^ h0;
        let l1 = self.rl.reverse_bits() >> 1;
        let h1 = self.rh.reverse_bits() >> 1;
        let m1 = (self.rm ^ self.rl ^ self.rh).reverse_bits() >> 1;
        let lo = u128::from(l0) | (u128::from(l1 ^ m0) << 64);
        let hi = u128::from(h0 ^ m1) | (u128::from(h1) << 64);
        // x^128 = x^7 + x^2 + x + 1; the bits pushed past x^127 by the shifts are folded once
        // more.
        let t = hi ^ (hi << 1) ^ (hi << 2) ^ (hi << 7);
        let c = (hi >> 127) ^ (hi >> 126) ^ (hi >> 121);
        lo ^ t ^ c ^ (c << 1) ^ (c << 2) ^ (c << 7)
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
            let mut y = from_elem(0x0123_4567_89ab_cdef_u128);
            k.ghash(&mut y, &data[..len]);
            assert_eq!(to_elem(&y), want, "{len}");
        }
    }

    /// The carry-less product against the schoolbook definition on a few operands.
    #[test]
    fn clmul64_schoolbook() {
        let vals = [
            0u64,
            1,
            u64::MAX,
            0x8000_0000_0000_0001,
            0x0123_4567_89ab_cdef,
        ];
        for &x in &vals {
            for &y in &vals {
                let mut want = 0u128;
                for i in 0..64 {
                    if (y >> i) & 1 == 1 {
                        want ^= u128::from(x) << i;
                    }
                }
                let (lo, hi) = clmul64(x, y);
                assert_eq!(u128::from(lo) | (u128::from(hi) << 64), want, "{x:x} {y:x}");
            }
        }
    }
}
