//! The AES key schedule (FIPS 197 section 5.2), shared by every backend.

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
            t = crate::backend::portable::sub_word(t.rotate_left(8)) ^ (rcon << 24);
            // xtime of the public round constant.
            rcon = (rcon << 1) ^ (0x11b & 0u32.wrapping_sub(rcon >> 7));
        } else if nk > 6 && i % nk == 4 {
            t = crate::backend::portable::sub_word(t);
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
