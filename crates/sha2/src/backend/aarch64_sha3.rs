//! SHA-384/512 with the ARMv8.2 SHA-512 instructions (SHA512H, SHA512H2, SHA512SU0, SHA512SU1;
//! the `sha3` target feature, covered by the `Aarch64Sha3` token).
//!
//! The chaining value is four vectors `ab, cd, ef, gh` (lane 0 = a, c, e, g). For two rounds
//! with `wk = (W[t] + K[t], W[t+1] + K[t+1])`:
//! `t1 = SHA512H(gh + swap(wk), (f, g), (d, e))` holds both rounds' T1 (FIPS 180-4 6.4.2),
//! the new `ef` is `cd + t1` and the new `ab` is `SHA512H2(t1, cd, ab)`; then the old `ab`
//! becomes `cd` and the old `ef` becomes `gh`. Schedule, for the pair
//! `P[j] = (W[2j], W[2j+1])`: `P[j] = SU1(SU0(P[j-8], P[j-7]), P[j-1], (W[2j-7], W[2j-6]))`.

use core::arch::aarch64::{
    uint64x2_t, vaddq_u64, vextq_u64, vld1q_u8, vld1q_u64, vreinterpretq_u64_u8, vrev64q_u8,
    vsha512h2q_u64, vsha512hq_u64, vsha512su0q_u64, vsha512su1q_u64, vst1q_u64,
};

use tessera_cpu::Aarch64Sha3;

use crate::block::BlockFn;
use crate::consts::K512;
use crate::md::Sha512Family;

/// The SHA-512 block function for the `Aarch64Sha3` token. The message schedule stays in
/// vector registers, so it is its own wiping block function (the default `compress_secret`);
/// the one-shot hash and HMAC are the generic ones, in the row's island.
pub(crate) struct Sha512Ext;

impl BlockFn<Sha512Family> for Sha512Ext {
    type Token = Aarch64Sha3;

    #[inline(always)]
    fn compress(t: Aarch64Sha3, state: &mut [u64; 8], blocks: &[u8]) {
        compress(t, state, blocks)
    }
}

tessera_cpu::island! {
    /// Compression of whole blocks.
    fn compress(_t: Aarch64Sha3, state: &mut [u64; 8], blocks: &[u8]) {
        compress512(state, blocks)
    }
}

tessera_cpu::with_features! { Aarch64Sha3;
    /// SHA-512 compression of whole 128-byte blocks.
    #[inline]
    fn compress512(state: &mut [u64; 8], blocks: &[u8]) {
        let sp = state.as_ptr();
        // SAFETY: `state` is 8 words: four 2-word loads.
        let [mut ab, mut cd, mut ef, mut gh]: [uint64x2_t; 4] =
            core::array::from_fn(|i| unsafe { vld1q_u64(sp.add(2 * i)) });
        for block in blocks.chunks_exact(128) {
            let saved = [ab, cd, ef, gh];
            let p = block.as_ptr();
            // Words byte-swapped (big-endian).
            let mut m: [uint64x2_t; 8] = core::array::from_fn(|i| {
                // SAFETY: `block` is 128 bytes: eight 16-byte loads (`i < 8`).
                let v = unsafe { vld1q_u8(p.add(16 * i)) };
                vreinterpretq_u64_u8(vrev64q_u8(v))
            });
            for j in 0..40 {
                if j >= 8 {
                    let i = j % 8;
                    let y = vextq_u64::<1>(m[(i + 4) % 8], m[(i + 5) % 8]);
                    let s0 = vsha512su0q_u64(m[i], m[(i + 1) % 8]);
                    m[i] = vsha512su1q_u64(s0, m[(i + 7) % 8], y);
                }
                // SAFETY: `2 * j + 2 <= 80`: a 2-word load inside `K512`.
                let wk = vaddq_u64(m[j % 8], unsafe { vld1q_u64(K512.as_ptr().add(2 * j)) });
                let wk = vextq_u64::<1>(wk, wk);
                let fg = vextq_u64::<1>(ef, gh);
                let de = vextq_u64::<1>(cd, ef);
                let t1 = vsha512hq_u64(vaddq_u64(gh, wk), fg, de);
                let new_ef = vaddq_u64(cd, t1);
                let new_ab = vsha512h2q_u64(t1, cd, ab);
                gh = ef;
                ef = new_ef;
                cd = ab;
                ab = new_ab;
            }
            ab = vaddq_u64(ab, saved[0]);
            cd = vaddq_u64(cd, saved[1]);
            ef = vaddq_u64(ef, saved[2]);
            gh = vaddq_u64(gh, saved[3]);
        }
        let out = state.as_mut_ptr();
        // SAFETY: `state` is 8 words: four 2-word stores.
        unsafe {
            vst1q_u64(out, ab);
            vst1q_u64(out.add(2), cd);
            vst1q_u64(out.add(4), ef);
            vst1q_u64(out.add(6), gh);
        }
    }
}
