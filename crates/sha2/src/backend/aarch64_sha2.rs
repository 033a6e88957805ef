//! SHA-224/256 with the ARMv8 SHA-256 instructions (SHA256H, SHA256H2, SHA256SU0, SHA256SU1).
//!
//! The chaining value is kept as `abcd` and `efgh` (lane 0 = a, e). Per four rounds,
//! `SHA256H(abcd, efgh, W+K)` gives the new `abcd` and `SHA256H2(efgh, old abcd, W+K)` the new
//! `efgh`; the schedule is `W[t..t+4] = SU1(SU0(W[t-16..], W[t-12..]), W[t-8..], W[t-4..])`
//! (FIPS 180-4 6.2.2 step 1).

use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vld1q_u8, vld1q_u32, vreinterpretq_u32_u8, vrev32q_u8, vsha256h2q_u32,
    vsha256hq_u32, vsha256su0q_u32, vsha256su1q_u32, vst1q_u32,
};

use tessera_cpu::Aarch64Sha2;

use crate::block::BlockFn;
use crate::consts::K256;
use crate::md::{self, Sha256Family};

/// The chaining value as `[abcd, efgh]`.
type Regs = [uint32x4_t; 2];

/// The SHA-256 block function for the `Aarch64Sha2` token. Its message schedule stays in
/// vector registers, so it is its own wiping block function (the default `compress_secret`);
/// the one-shot hash keeps the chaining value in registers from the first block to the last.
/// HMAC is the generic one.
pub(crate) struct Sha2Ext;

impl BlockFn<Sha256Family> for Sha2Ext {
    type Token = Aarch64Sha2;

    #[inline(always)]
    fn compress(t: Aarch64Sha2, state: &mut [u32; 8], blocks: &[u8]) {
        compress(t, state, blocks)
    }

    #[inline(always)]
    fn oneshot<const WIPE: bool>(t: Aarch64Sha2, state: &mut [u32; 8], data: &[u8], prefix: u64) {
        oneshot::<WIPE>(t, state, data, prefix)
    }
}

tessera_cpu::island! {
    /// Compression of whole blocks of an in-memory chaining value.
    fn compress(_t: Aarch64Sha2, state: &mut [u32; 8], blocks: &[u8]) {
        let mut regs = load(state);
        compress_regs(&mut regs, blocks);
        store(&regs, state);
    }
}

tessera_cpu::island! {
    /// The one-shot hash after `prefix` compressed bytes, with the chaining value in registers
    /// from the first block to the last.
    fn oneshot<const WIPE: bool>(_t: Aarch64Sha2, state: &mut [u32; 8], data: &[u8], prefix: u64) {
        let mut regs = load(state);
        let compress = |r: &mut Regs, b: &[u8]| compress_regs(r, b);
        md::oneshot::<Sha256Family, _, WIPE>(compress, &mut regs, data, prefix);
        store(&regs, state);
    }
}

tessera_cpu::with_features! { Aarch64Sha2;
    /// The chaining value into registers.
    #[inline]
    fn load(state: &[u32; 8]) -> Regs {
        // SAFETY: `state` is 8 words: two 4-word loads.
        unsafe { [vld1q_u32(state.as_ptr()), vld1q_u32(state.as_ptr().add(4))] }
    }

    /// The chaining value back to memory.
    #[inline]
    fn store(regs: &Regs, state: &mut [u32; 8]) {
        // SAFETY: `state` is 8 words: two 4-word stores.
        unsafe {
            vst1q_u32(state.as_mut_ptr(), regs[0]);
            vst1q_u32(state.as_mut_ptr().add(4), regs[1]);
        }
    }

    /// Compression of whole 64-byte blocks on the register state.
    #[inline]
    fn compress_regs(regs: &mut Regs, blocks: &[u8]) {
        let [mut abcd, mut efgh] = *regs;
        for block in blocks.chunks_exact(64) {
            let (abcd0, efgh0) = (abcd, efgh);
            let p = block.as_ptr();
            // Words byte-swapped (big-endian).
            let mut w: [uint32x4_t; 4] = core::array::from_fn(|i| {
                // SAFETY: `block` is 64 bytes: four 16-byte loads (`i < 4`).
                let v = unsafe { vld1q_u8(p.add(16 * i)) };
                vreinterpretq_u32_u8(vrev32q_u8(v))
            });
            macro_rules! rounds4 {
                ($w:expr, $i:expr) => {
                    // SAFETY: `4 * i + 4 <= 64`: a 4-word load inside `K256`.
                    let wk = vaddq_u32($w, unsafe { vld1q_u32(K256.as_ptr().add(4 * $i)) });
                    let prev = abcd;
                    abcd = vsha256hq_u32(abcd, efgh, wk);
                    efgh = vsha256h2q_u32(efgh, prev, wk);
                };
            }
            macro_rules! schedule {
                ($a:expr, $b:expr, $c:expr, $d:expr) => {
                    $a = vsha256su1q_u32(vsha256su0q_u32($a, $b), $c, $d);
                };
            }
            let [w0, w1, w2, w3] = &mut w;
            rounds4!(*w0, 0);
            rounds4!(*w1, 1);
            rounds4!(*w2, 2);
            rounds4!(*w3, 3);
            for j in 1..4 {
                schedule!(*w0, *w1, *w2, *w3);
                rounds4!(*w0, 4 * j);
                schedule!(*w1, *w2, *w3, *w0);
                rounds4!(*w1, 4 * j + 1);
                schedule!(*w2, *w3, *w0, *w1);
                rounds4!(*w2, 4 * j + 2);
                schedule!(*w3, *w0, *w1, *w2);
                rounds4!(*w3, 4 * j + 3);
            }
            abcd = vaddq_u32(abcd, abcd0);
            efgh = vaddq_u32(efgh, efgh0);
        }
        *regs = [abcd, efgh];
    }
}
