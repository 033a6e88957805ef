//! Portable block functions (FIPS 180-4 sections 6.2.2 and 6.4.2). Also compiled inside the
//! x86 BMI island, where the rotations become RORX.

use crate::consts::{K256, K512};

/// SHA-256 compression of whole 64-byte blocks (FIPS 180-4 6.2.2).
#[inline(always)]
pub(crate) fn compress256(state: &mut [u32; 8], blocks: &[u8]) {
    for block in blocks.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (wi, c) in w.iter_mut().zip(block.chunks_exact(4)) {
            *wi = u32::from_be_bytes([c[0], c[1], c[2], c[3]]);
        }
        for t in 16..64 {
            let s0 = w[t - 15].rotate_right(7) ^ w[t - 15].rotate_right(18) ^ (w[t - 15] >> 3);
            let s1 = w[t - 2].rotate_right(17) ^ w[t - 2].rotate_right(19) ^ (w[t - 2] >> 10);
            w[t] = s1
                .wrapping_add(w[t - 7])
                .wrapping_add(s0)
                .wrapping_add(w[t - 16]);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
        for t in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = h
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K256[t])
                .wrapping_add(w[t]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            h = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *s = s.wrapping_add(v);
        }
    }
}

/// SHA-512 compression of whole 128-byte blocks (FIPS 180-4 6.4.2).
#[inline(always)]
pub(crate) fn compress512(state: &mut [u64; 8], blocks: &[u8]) {
    for block in blocks.chunks_exact(128) {
        let mut w = [0u64; 80];
        for (wi, c) in w.iter_mut().zip(block.chunks_exact(8)) {
            *wi = u64::from_be_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        }
        for t in 16..80 {
            let s0 = w[t - 15].rotate_right(1) ^ w[t - 15].rotate_right(8) ^ (w[t - 15] >> 7);
            let s1 = w[t - 2].rotate_right(19) ^ w[t - 2].rotate_right(61) ^ (w[t - 2] >> 6);
            w[t] = s1
                .wrapping_add(w[t - 7])
                .wrapping_add(s0)
                .wrapping_add(w[t - 16]);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
        for t in 0..80 {
            let s1 = e.rotate_right(14) ^ e.rotate_right(18) ^ e.rotate_right(41);
            let ch = (e & f) ^ (!e & g);
            let t1 = h
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K512[t])
                .wrapping_add(w[t]);
            let s0 = a.rotate_right(28) ^ a.rotate_right(34) ^ a.rotate_right(39);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            h = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *s = s.wrapping_add(v);
        }
    }
}

/// Portable islands (no target features): the same generic operations as the ISA backends.
pub(crate) mod ops {
    use super::{compress256, compress512};
    use crate::backend::{B256, B512};

    #[inline(always)]
    pub(crate) fn oneshot256(state: &mut [u32; 8], data: &[u8], prefix: u64) {
        crate::engine::oneshot::<B256, _>(compress256, state, data, prefix)
    }
    #[inline(always)]
    pub(crate) fn hmac256(
        ipad: &[u32; 8],
        opad: &[u32; 8],
        msg: &[u8],
        words: usize,
        out: &mut [u32; 8],
    ) {
        crate::engine::hmac::<B256>(compress256, ipad, opad, msg, words, out)
    }
    #[inline(always)]
    pub(crate) fn oneshot512(state: &mut [u64; 8], data: &[u8], prefix: u64) {
        crate::engine::oneshot::<B512, _>(compress512, state, data, prefix)
    }
    #[inline(always)]
    pub(crate) fn hmac512(
        ipad: &[u64; 8],
        opad: &[u64; 8],
        msg: &[u8],
        words: usize,
        out: &mut [u64; 8],
    ) {
        crate::engine::hmac::<B512>(compress512, ipad, opad, msg, words, out)
    }
}
