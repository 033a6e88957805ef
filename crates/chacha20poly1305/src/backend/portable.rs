//! Portable backend: the scalar block function, one block at a time.

#![forbid(unsafe_code)]

use crate::chacha;
use crate::construction::Keystream;

/// The portable keystream.
pub(crate) struct Ops;

impl Keystream for Ops {
    type Token = tessera_cpu::Portable;
    #[inline(always)]
    fn new(_: tessera_cpu::Portable) -> Self {
        Ops
    }

    type Mac = ();
    const CHUNK: usize = 256;

    #[inline(always)]
    fn xor(&self, state: &[u32; 16], data: &mut [u8]) {
        let mut s = *state;
        for piece in data.chunks_mut(64) {
            let mut ks = chacha::block(&s);
            s[12] = s[12].wrapping_add(1);
            if piece.len() == 64 {
                for (w, k) in piece.chunks_exact_mut(4).zip(&ks) {
                    let x = u32::from_le_bytes(w.try_into().unwrap()) ^ k;
                    w.copy_from_slice(&x.to_le_bytes());
                }
            } else {
                for (j, b) in piece.iter_mut().enumerate() {
                    *b ^= (ks[j / 4] >> (8 * (j % 4))) as u8;
                }
            }
            zeroize::Zeroize::zeroize(&mut ks);
        }
        zeroize::Zeroize::zeroize(&mut s);
    }

    /// The key block's first eight words as bytes (no 64-byte keystream buffer to XOR into
    /// and wipe).
    #[inline(always)]
    fn otk(&self, state: &[u32; 16]) -> [u8; 32] {
        let mut ks = chacha::block(state);
        let mut k = [0u8; 32];
        for (o, w) in k.chunks_exact_mut(4).zip(&ks) {
            o.copy_from_slice(&w.to_le_bytes());
        }
        zeroize::Zeroize::zeroize(&mut ks);
        k
    }
}
