//! Bitsliced AES (FIPS 197) for the portable backend: four blocks (64 bytes) are transposed
//! into eight 64-bit planes, plane `b` holding bit `b` of every byte, so SubBytes is the
//! Boolean circuit of [`crate::aes::sbox`] evaluated on whole words and there is no table lookup
//! anywhere. Inside a plane, bit `16r + 4c + j` belongs to row `r`, column `c` of block `j`
//! (row-major), so the row offsets of MixColumns are plain word rotations and only the column
//! offsets left by fixslicing need masks. The S-box constant is folded into the round keys.

#![forbid(unsafe_code)]

use crate::aes::sbox::{Planes as State, inv_sub_bytes, not_sbox_constant, sub_bytes_core};
use zeroize::Zeroize;

/// Bitsliced round keys: inner keys in fixsliced form, the S-box constant folded in.
#[derive(Clone)]
pub(crate) struct Key {
    rk: [State; 15],
    nr: usize,
}

impl Drop for Key {
    fn drop(&mut self) {
        self.rk.zeroize();
    }
}

impl Key {
    /// Expands a 16-, 24- or 32-byte key.
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
        Key { rk, nr }
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

    /// One block: the four-block cipher with three zero blocks beside it, of which only the
    /// first is unpacked. The other three come out as `E_K(0) = H`, the GHASH key: they exist
    /// only in the planes and words, which are wiped (no block temporary holds them).
    #[inline]
    pub(crate) fn encrypt1(&self, block: &mut [u8; 16]) {
        let mut s = pack1(block);
        add_round_key(&mut s, &self.rk[0]);
        self.rounds(&mut s);
        let mut w = unpack_words(&mut s);
        block[..8].copy_from_slice(&w[0].to_le_bytes());
        block[8..].copy_from_slice(&w[1].to_le_bytes());
        w.zeroize();
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
    pub(super) fn ctr32(&self, ctr: &[u8; 16], buf: &mut [u8]) {
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

/// [`pack`] of `block` followed by three zero blocks.
#[inline(always)]
fn pack1(block: &[u8; 16]) -> State {
    let lo = u64::from_le_bytes(block[..8].try_into().unwrap());
    let hi = u64::from_le_bytes(block[8..].try_into().unwrap());
    let mut w = [0u64; 8];
    w[0] = zip_bytes((lo & 0xffff_ffff) | (hi << 32));
    w[4] = zip_bytes((lo >> 32) | (hi & 0xffff_ffff_0000_0000));
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

/// ShiftRows (FIPS 197 section 5.1.2) applied `K` times: row `r` moves left by `K * r`
/// columns. `K = 1` is ShiftRows, `K = 3` InvShiftRows (left by `3r` is right by `r`).
#[inline(always)]
fn shift_rows_times<const K: u32>(s: &mut State) {
    for x in s.iter_mut() {
        *x = (*x & ROW[0])
            | (rot_cells(*x, 0, K % 4) & ROW[1])
            | (rot_cells(*x, 0, 2 * K % 4) & ROW[2])
            | (rot_cells(*x, 0, 3 * K % 4) & ROW[3]);
    }
}

/// Row `r` moves left by `r` columns.
#[inline(always)]
fn shift_rows(s: &mut State) {
    shift_rows_times::<1>(s)
}

/// ShiftRows twice: rows 1 and 3 move by two columns.
#[inline(always)]
fn shift_rows2(s: &mut State) {
    for x in s.iter_mut() {
        *x = (*x & (ROW[0] | ROW[2])) | (rot_cells(*x, 0, 2) & (ROW[1] | ROW[3]));
    }
}

/// Row `r` moves right by `r` columns.
#[inline(always)]
fn inv_shift_rows(s: &mut State) {
    shift_rows_times::<3>(s)
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

    /// The one-block cipher is block 0 of the four-block one (FIPS 197 appendix C.2 key,
    /// AES-192), including the all-zero block (`H`).
    #[test]
    fn encrypt1_is_block_0_of_encrypt4() {
        let key: [u8; 24] = core::array::from_fn(|i| i as u8);
        let k = Key::new(&key);
        for pt in [[0u8; 16], core::array::from_fn(|i| (i as u8) * 0x11)] {
            let mut four = [pt, [0x5a; 16], [0xa5; 16], pt];
            k.encrypt4(&mut four);
            let mut one = pt;
            k.encrypt1(&mut one);
            assert_eq!(one, four[0]);
            assert_eq!(one, four[3]);
        }
        let mut b: [u8; 16] = core::array::from_fn(|i| (i as u8) * 0x11);
        k.encrypt1(&mut b);
        assert_eq!(
            b,
            *b"\xdd\xa9\x7c\xa4\x86\x4c\xdf\xe0\x6e\xaf\x70\xa0\xec\x0d\x71\x91"
        );
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
}
