//! The AES key schedule (FIPS 197 section 5.2), shared by every backend, and the constant-time
//! S-box circuit it (and the portable backend) evaluates.

#![forbid(unsafe_code)]

pub(crate) mod sbox;

use zeroize::Zeroize;

/// Expands a 16-, 24- or 32-byte key into `Nr + 1` round keys (bytes in state order) and
/// returns them with `Nr` (10, 12 or 14). SubWord is the constant-time bitsliced circuit.
pub(crate) fn expand(key: &[u8]) -> ([[u8; 16]; 15], usize) {
    let nk = key.len() / 4;
    debug_assert!(matches!(nk, 4 | 6 | 8));
    let nr = nk + 6;
    let mut w = [0u32; 60];
    for (i, c) in key.chunks_exact(4).enumerate() {
        w[i] = u32::from_be_bytes([c[0], c[1], c[2], c[3]]);
    }
    let mut rcon = 1u32;
    for i in nk..4 * (nr + 1) {
        let mut t = w[i - 1];
        if i % nk == 0 {
            t = sub_word(t.rotate_left(8)) ^ (rcon << 24);
            // xtime of the public round constant.
            rcon = (rcon << 1) ^ (0x11b & 0u32.wrapping_sub(rcon >> 7));
        } else if nk > 6 && i % nk == 4 {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    let mut rk = [[0u8; 16]; 15];
    for (r, k) in rk.iter_mut().enumerate().take(nr + 1) {
        for c in 0..4 {
            k[4 * c..4 * c + 4].copy_from_slice(&w[4 * r + c].to_be_bytes());
        }
    }
    w.zeroize();
    (rk, nr)
}

/// SubWord of the key schedule (FIPS 197 section 5.2) through the S-box circuit: byte `j` of
/// `w` (big-endian) in bit `j` of each plane.
fn sub_word(w: u32) -> u32 {
    let bytes = w.to_be_bytes();
    let mut s = [0u64; 8];
    for (b, plane) in s.iter_mut().enumerate() {
        for (j, x) in bytes.iter().enumerate() {
            *plane |= u64::from((x >> b) & 1) << j;
        }
    }
    sbox::sub_bytes(&mut s);
    let mut out = [0u8; 4];
    for (b, plane) in s.iter().enumerate() {
        for (j, x) in out.iter_mut().enumerate() {
            *x |= (((plane >> j) & 1) as u8) << b;
        }
    }
    s.zeroize();
    u32::from_be_bytes(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// S-box entries from FIPS 197 figure 7.
    #[test]
    fn sub_word_fips197() {
        assert_eq!(sub_word(0x0001_5310), 0x637c_edca);
        assert_eq!(sub_word(0xffc9_8e2a), 0x16dd_19e5);
    }
}
