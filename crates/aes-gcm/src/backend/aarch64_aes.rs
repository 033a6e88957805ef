//! aarch64 AES + PMULL backend (ARMv8 Cryptography Extension).
//!
//! AES runs eight blocks in flight with `AESE`/`AESMC`. GHASH uses the same reflected
//! representation as the x86_64 backends (blocks read big-endian, multiplication by
//! `H^i * x^-1`, two 64-bit folds by `0xC2 << 56` per reduction) on 64x64-bit `PMULL`/`PMULL2`
//! products kept in vector registers, and reduces once per eight blocks; on whole 128-byte
//! chunks its multiplications run between the AES rounds (of the current chunk when opening,
//! of the previous one when sealing). Tails under 128 bytes go block by block.

use crate::gcm::{self, GcmOps, Iv, Unit};
use core::arch::aarch64::*;
use tessera_cpu::Aarch64AesPmull;
use zeroize::Zeroize;

/// Round keys and `R(H^i x^-1)` for `i = 1..=8`.
#[derive(Clone)]
pub(crate) struct Key {
    rk: [[u8; 16]; 15],
    nr: usize,
    hp: [u128; 8],
}

impl Drop for Key {
    fn drop(&mut self) {
        self.rk.zeroize();
        self.hp.zeroize();
    }
}

/// `x^-1 mod P` in the reflected representation.
const XINV: u128 = 0xC200_0000_0000_0000_0000_0000_0000_0001;

fn mul_xinv(r: u128) -> u128 {
    let mask = (r >> 127).wrapping_neg();
    (r << 1) ^ (mask & XINV)
}

tessera_cpu::with_features! { Aarch64AesPmull;
    #[inline]
    fn clmul(a: u64, b: u64) -> u128 {
        vmull_p64(a, b)
    }

    /// Accumulates the unreduced product `a * b` into `(lo, mid, hi)`.
    #[inline]
    fn mul_acc(a: u128, b: u128, acc: &mut [u128; 3]) {
        let (a0, a1) = (a as u64, (a >> 64) as u64);
        let (b0, b1) = (b as u64, (b >> 64) as u64);
        acc[0] ^= clmul(a0, b0);
        acc[1] ^= clmul(a0, b1) ^ clmul(a1, b0);
        acc[2] ^= clmul(a1, b1);
    }

    /// Reduction of a reflected 256-bit product modulo `P` (two 64-bit folds of the low half).
    #[inline]
    fn reduce(acc: &[u128; 3]) -> u128 {
        const C: u64 = 0xC200_0000_0000_0000;
        let lo = acc[0] ^ (acc[1] << 64);
        let hi = acc[2] ^ (acc[1] >> 64);
        let t = lo.rotate_left(64) ^ clmul(lo as u64, C);
        let t = t.rotate_left(64) ^ clmul(t as u64, C);
        hi ^ t
    }

    #[inline]
    fn gf_mul(a: u128, b: u128) -> u128 {
        let mut acc = [0u128; 3];
        mul_acc(a, b, &mut acc);
        reduce(&acc)
    }

    /// The whole-register byte reversal: a block as loaded <-> its reflected value with the low
    /// 64 bits in lane 0 (the vector form of `u128::from_be_bytes`).
    #[inline]
    fn rev(v: uint8x16_t) -> uint8x16_t {
        let r = vrev64q_u8(v);
        vextq_u8::<8>(r, r)
    }

    /// One 64x64-bit `PMULL` of the low lanes.
    #[inline]
    fn pmull_lo(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        vreinterpretq_u8_p128(vmull_p64(
            vgetq_lane_u64::<0>(vreinterpretq_u64_u8(a)),
            vgetq_lane_u64::<0>(vreinterpretq_u64_u8(b)),
        ))
    }

    /// `PMULL2`: the high lanes.
    #[inline]
    fn pmull_hi(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        vreinterpretq_u8_p128(vmull_high_p64(
            vreinterpretq_p64_u8(a),
            vreinterpretq_p64_u8(b),
        ))
    }

    /// [`mul_acc`] in vector registers; `b_sw` is `b` with its halves swapped.
    #[inline]
    fn mul_acc_v(a: uint8x16_t, b: uint8x16_t, b_sw: uint8x16_t, acc: &mut [uint8x16_t; 3]) {
        acc[0] = veorq_u8(acc[0], pmull_lo(a, b));
        acc[1] = veorq_u8(acc[1], veorq_u8(pmull_lo(a, b_sw), pmull_hi(a, b_sw)));
        acc[2] = veorq_u8(acc[2], pmull_hi(a, b));
    }

    /// [`reduce`] in vector registers.
    #[inline]
    fn reduce_v(acc: &[uint8x16_t; 3]) -> uint8x16_t {
        let z = vdupq_n_u8(0);
        let c = vreinterpretq_u8_u64(vdupq_n_u64(0xC200_0000_0000_0000));
        let lo = veorq_u8(acc[0], vextq_u8::<8>(z, acc[1]));
        let hi = veorq_u8(acc[2], vextq_u8::<8>(acc[1], z));
        let t = veorq_u8(vextq_u8::<8>(lo, lo), pmull_lo(lo, c));
        let t = veorq_u8(vextq_u8::<8>(t, t), pmull_lo(t, c));
        veorq_u8(hi, t)
    }

    #[inline]
    fn load(b: &[u8; 16]) -> uint8x16_t {
        // SAFETY: `b` is 16 readable bytes.
        unsafe { vld1q_u8(b.as_ptr()) }
    }

    #[inline]
    fn store(b: &mut [u8; 16], v: uint8x16_t) {
        // SAFETY: `b` is 16 writable bytes.
        unsafe { vst1q_u8(b.as_mut_ptr(), v) }
    }

    #[inline]
    fn round_keys(k: &Key) -> [uint8x16_t; 15] {
        let mut r = [vdupq_n_u8(0); 15];
        for (d, s) in r.iter_mut().zip(&k.rk) {
            *d = load(s);
        }
        r
    }

    /// FIPS 197 cipher: `AESE` is AddRoundKey + SubBytes + ShiftRows, `AESMC` MixColumns.
    #[inline]
    fn aes1(rk: &[uint8x16_t; 15], nr: usize, mut x: uint8x16_t) -> uint8x16_t {
        for k in &rk[..nr - 1] {
            x = vaesmcq_u8(vaeseq_u8(x, *k));
        }
        veorq_u8(vaeseq_u8(x, rk[nr - 1]), rk[nr])
    }

    #[inline]
    fn aes8(rk: &[uint8x16_t; 15], nr: usize, b: &mut [uint8x16_t; 8]) {
        for k in &rk[..nr - 1] {
            for x in b.iter_mut() {
                *x = vaesmcq_u8(vaeseq_u8(*x, *k));
            }
        }
        for x in b.iter_mut() {
            *x = veorq_u8(vaeseq_u8(*x, rk[nr - 1]), rk[nr]);
        }
    }
}

tessera_cpu::island! {
    /// Expands `key` (16, 24 or 32 bytes) and derives the eight `H` powers.
    pub(crate) fn new_key(_t: Aarch64AesPmull, key: &[u8]) -> Key {
        let (rk, nr) = crate::aes::expand(key);
        let mut k = Key { rk, nr, hp: [0; 8] };
        let mut rks = round_keys(&k);
        let mut h = [0u8; 16];
        let mut hv = aes1(&rks, nr, load(&h));
        store(&mut h, hv);
        let mut rh = u128::from_be_bytes(h);
        let mut h1 = mul_xinv(rh);
        k.hp[0] = h1;
        let mut p = rh;
        for i in 1..8 {
            p = gf_mul(p, h1);
            k.hp[i] = mul_xinv(p);
        }
        // Every temporary holds H or one of its powers.
        h.zeroize();
        hv.zeroize();
        rh.zeroize();
        h1.zeroize();
        p.zeroize();
        rks.zeroize();
        k
    }
}

/// Per-operation view with the round keys in registers. Its methods are compiled for AES and
/// PMULL; it holds the token for the islands of its [`crate::gcm::GcmOps`] implementation.
struct Ops<'a> {
    t: Aarch64AesPmull,
    rk: [uint8x16_t; 15],
    /// `R(H^(i+1) x^-1)` in vector form, and the same with the halves swapped.
    hv: [uint8x16_t; 8],
    hsw: [uint8x16_t; 8],
    key: &'a Key,
}

#[inline(always)]
fn block_at(s: &[u8]) -> [u8; 16] {
    let mut b = [0u8; 16];
    b.copy_from_slice(&s[..16]);
    b
}

tessera_cpu::with_features! { Aarch64AesPmull;
    impl Ops<'_> {
        #[inline]
        fn new(t: Aarch64AesPmull, key: &Key) -> Ops<'_> {
            let mut hv = [vdupq_n_u8(0); 8];
            let mut hsw = [vdupq_n_u8(0); 8];
            for ((v, w), h) in hv.iter_mut().zip(hsw.iter_mut()).zip(&key.hp) {
                *v = load(&h.to_le_bytes());
                *w = vextq_u8::<8>(*v, *v);
            }
            Ops {
                t,
                rk: round_keys(key),
                hv,
                hsw,
                key,
            }
        }

        /// Absorbs eight reflected blocks (vector form) into `y` with one reduction.
        #[inline]
        fn ghash8_v(&self, y: uint8x16_t, x: &[uint8x16_t; 8]) -> uint8x16_t {
            let z = vdupq_n_u8(0);
            let mut acc = [z; 3];
            mul_acc_v(veorq_u8(y, x[0]), self.hv[7], self.hsw[7], &mut acc);
            for (i, xi) in x[1..].iter().enumerate() {
                mul_acc_v(*xi, self.hv[6 - i], self.hsw[6 - i], &mut acc);
            }
            reduce_v(&acc)
        }

        #[inline]
        fn ghash_v(&self, mut y: u128, data: &[u8]) -> u128 {
            let mut chunks = data.chunks_exact(128);
            if data.len() >= 128 {
                let mut yv = load(&y.to_le_bytes());
                for c in &mut chunks {
                    let x: [uint8x16_t; 8] =
                        core::array::from_fn(|i| rev(load(&block_at(&c[16 * i..]))));
                    yv = self.ghash8_v(yv, &x);
                }
                let mut b = [0u8; 16];
                store(&mut b, yv);
                y = u128::from_le_bytes(b);
            }
            for b in chunks.remainder().chunks(16) {
                let mut p = [0u8; 16];
                p[..b.len()].copy_from_slice(b);
                y = gf_mul(y ^ u128::from_be_bytes(p), self.key.hp[0]);
            }
            y
        }

        #[inline]
        fn ctr_ghash<const SEAL: bool>(&self, ctr: &[u8; 16], y: &mut [u8; 16], buf: &mut [u8]) {
            let nr = self.key.nr;
            let buf_len = buf.len();
            let mut yv = u128::from_be_bytes(*y);
            let mut cb = *ctr;
            let mut c = u32::from_be_bytes([ctr[12], ctr[13], ctr[14], ctr[15]]);
            let mut chunks = buf.chunks_exact_mut(128);
            if buf_len >= 128 {
                // GHASH in vector registers, its multiplications interleaved with the AES rounds:
                // of the current chunk when opening, of the previous one when sealing.
                let z = vdupq_n_u8(0);
                let mut y8 = load(&yv.to_le_bytes());
                let mut pending = [z; 8];
                let mut have = false;
                for ch in &mut chunks {
                    let mut x = pending;
                    let mut hash = have;
                    if !SEAL {
                        for (i, v) in x.iter_mut().enumerate() {
                            *v = rev(load(&block_at(&ch[16 * i..])));
                        }
                        hash = true;
                    }
                    x[0] = veorq_u8(x[0], y8);
                    let mut ks = [z; 8];
                    for k in ks.iter_mut() {
                        cb[12..].copy_from_slice(&c.to_be_bytes());
                        *k = load(&cb);
                        c = c.wrapping_add(1);
                    }
                    let mut acc = [z; 3];
                    for (r, rk) in self.rk[..nr - 1].iter().enumerate() {
                        for k in ks.iter_mut() {
                            *k = vaesmcq_u8(vaeseq_u8(*k, *rk));
                        }
                        // Block 0 (which carries the running hash) goes last.
                        if hash && r < 8 {
                            let j = (r + 1) % 8;
                            mul_acc_v(x[j], self.hv[7 - j], self.hsw[7 - j], &mut acc);
                        }
                    }
                    if hash {
                        y8 = reduce_v(&acc);
                    }
                    for (i, k) in ks.iter().enumerate() {
                        let out = veorq_u8(
                            load(&block_at(&ch[16 * i..])),
                            veorq_u8(vaeseq_u8(*k, self.rk[nr - 1]), self.rk[nr]),
                        );
                        let mut o = [0u8; 16];
                        store(&mut o, out);
                        ch[16 * i..16 * i + 16].copy_from_slice(&o);
                        pending[i] = rev(out);
                    }
                    have = SEAL;
                }
                if have {
                    y8 = self.ghash8_v(y8, &pending);
                }
                let mut b = [0u8; 16];
                store(&mut b, y8);
                yv = u128::from_le_bytes(b);
            }
            for blk in chunks.into_remainder().chunks_mut(16) {
                cb[12..].copy_from_slice(&c.to_be_bytes());
                c = c.wrapping_add(1);
                let ks = aes1(&self.rk, nr, load(&cb));
                let mut input = [0u8; 16];
                input[..blk.len()].copy_from_slice(blk);
                let mut out = [0u8; 16];
                store(&mut out, veorq_u8(load(&input), ks));
                blk.copy_from_slice(&out[..blk.len()]);
                out[blk.len()..].fill(0);
                let ct = if SEAL { out } else { input };
                yv = gf_mul(yv ^ u128::from_be_bytes(ct), self.key.hp[0]);
                out.zeroize();
                input.zeroize();
            }
            *y = yv.to_be_bytes();
        }

        #[inline]
        fn encrypt_block_tf(&self, block: &mut [u8; 16]) {
            store(block, aes1(&self.rk, self.key.nr, load(block)))
        }
    }
}

/// The framing's view of this backend ([`GcmOps`]): each method an island of this backend's
/// token (the generic framing cannot call target-feature methods itself); called from this
/// backend's `run` island, which has the same features, it is inlined there or stays one plain
/// call.
impl GcmOps for Ops<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: &mut [u8; 16]) {
        tessera_cpu::island! {
            fn encrypt_block(_t: Aarch64AesPmull, o: &Ops<'_>, block: &mut [u8; 16]) {
                o.encrypt_block_tf(block)
            }
        }
        encrypt_block(self.t, self, block)
    }

    #[inline(always)]
    fn ghash(&self, y: &mut [u8; 16], data: &[u8]) {
        tessera_cpu::island! {
            fn ghash(_t: Aarch64AesPmull, o: &Ops<'_>, y: &mut [u8; 16], data: &[u8]) {
                *y = o.ghash_v(u128::from_be_bytes(*y), data).to_be_bytes();
            }
        }
        ghash(self.t, self, y, data)
    }

    #[inline(always)]
    fn ctr_ghash<const SEAL: bool>(&self, ctr: &[u8; 16], y: &mut [u8; 16], buf: &mut [u8]) {
        tessera_cpu::island! {
            fn ctr_ghash<const SEAL: bool>(
                _t: Aarch64AesPmull,
                o: &Ops<'_>,
                ctr: &[u8; 16],
                y: &mut [u8; 16],
                buf: &mut [u8],
            ) {
                o.ctr_ghash::<SEAL>(ctr, y, buf)
            }
        }
        ctr_ghash::<SEAL>(self.t, self, ctr, y, buf)
    }
}

tessera_cpu::island! {
    /// GCM-AE (`SEAL`, returns the tag) or GCM-AD (returns the expected tag) in this island.
    pub(crate) fn run<const SEAL: bool>(
        t: Aarch64AesPmull,
        key: &Key,
        iv: Iv<'_>,
        aad: &[u8],
        buf: &mut [u8],
    ) -> [u8; 16] {
        gcm::run::<SEAL, _>(&Ops::new(t, key), iv, aad, buf)
    }
}

/// The aarch64 row of the backend table.
pub(crate) struct ArmAes;

impl Unit for ArmAes {
    type Token = Aarch64AesPmull;
    type Key = Key;

    #[inline(always)]
    fn new_key(t: Aarch64AesPmull, key: &[u8]) -> Key {
        new_key(t, key)
    }

    #[inline(always)]
    fn gcm<const SEAL: bool>(
        t: Aarch64AesPmull,
        key: &Key,
        iv: Iv<'_>,
        aad: &[u8],
        buf: &mut [u8],
    ) -> [u8; 16] {
        run::<SEAL>(t, key, iv, aad, buf)
    }

    #[inline(always)]
    fn crypt_blocks<const ENC: bool>(t: Aarch64AesPmull, key: &Key, blocks: &mut [[u8; 16]]) {
        crypt_blocks::<ENC>(t, key, blocks)
    }
}

tessera_cpu::island! {
    /// The raw block cipher, forward (`ENC`) or inverse.
    pub(crate) fn crypt_blocks<const ENC: bool>(
        _t: Aarch64AesPmull,
        key: &Key,
        blocks: &mut [[u8; 16]],
    ) {
        if ENC {
            encrypt_blocks(key, blocks)
        } else {
            decrypt_blocks(key, blocks)
        }
    }
}

tessera_cpu::with_features! { Aarch64AesPmull;
    #[inline]
    fn encrypt_blocks(key: &Key, blocks: &mut [[u8; 16]]) {
        let rk = round_keys(key);
        let mut chunks = blocks.chunks_exact_mut(8);
        for ch in &mut chunks {
            let mut x = [vdupq_n_u8(0); 8];
            for (v, b) in x.iter_mut().zip(ch.iter()) {
                *v = load(b);
            }
            aes8(&rk, key.nr, &mut x);
            for (v, b) in x.iter().zip(ch.iter_mut()) {
                store(b, *v);
            }
        }
        for b in chunks.into_remainder() {
            store(b, aes1(&rk, key.nr, load(b)));
        }
    }

    #[inline]
    fn decrypt_blocks(key: &Key, blocks: &mut [[u8; 16]]) {
        let rk = round_keys(key);
        let nr = key.nr;
        // Equivalent inverse cipher (FIPS 197 section 5.3.5): `AESD` is AddRoundKey + InvShiftRows
        // + InvSubBytes, `AESIMC` InvMixColumns, applied to the inner round keys as well.
        let mut dk = [vdupq_n_u8(0); 15];
        dk[0] = rk[nr];
        for i in 1..nr {
            dk[i] = vaesimcq_u8(rk[nr - i]);
        }
        dk[nr] = rk[0];
        for b in blocks.iter_mut() {
            let mut x = load(b);
            for k in &dk[..nr - 1] {
                x = vaesimcq_u8(vaesdq_u8(x, *k));
            }
            store(b, veorq_u8(vaesdq_u8(x, dk[nr - 1]), dk[nr]));
        }
    }
}
