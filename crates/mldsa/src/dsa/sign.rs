//! ML-DSA.Sign_internal (FIPS 204 Algorithm 7) from mu.
#![forbid(unsafe_code)]

use tessera_keccak::Shake256;
use zeroize::Zeroize;

use super::ball::*;
use super::declassify::*;
use super::expand::*;
use super::keygen::*;
use super::params::*;
use crate::hash::{Hashes, h};
use crate::poly::{self, UNITS, ld};
use crate::unit::Unit;

/// The largest number of iterations of the signing loop (FIPS 204 Algorithm 7 lines 10-32)
/// before [`crate::Error::SigningLoopBound`]. The expected count is 4.25 (ML-DSA-44), 5.1
/// (65) and 3.85 (87); the probability of needing more than 814 iterations is below 2^-256
/// for every set (FIPS 204 Appendix C). The count of iterations a signature took is public.
pub const MAX_SIGN_ITERATIONS: u32 = 814;

/// ML-DSA.Sign_internal (Algorithm 7) from mu = H(tr || M', 64) (computed by the caller) and
/// `rnd`. Writes the signature `sigEncode(c_tilde, z, h)` (Algorithm 26) into `sig`; returns
/// false when [`MAX_SIGN_ITERATIONS`] iterations were rejected (nothing useful is written).
#[inline(always)]
pub(crate) fn sign<U: Unit, P: Params, const K: usize, const L: usize>(
    t: U::Token,
    hs: Hashes,
    vk: &VkState<K, L>,
    sk: &SkState<K, L>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> bool {
    debug_assert!(P::K == K && P::L == L);
    let mut rho2 = [0u8; 64];
    h(hs.x1, &[&sk.key, rnd, mu], &mut rho2);
    let mut y = [[0i32; 256]; L];
    let mut z = [[0i32; 256]; L];
    let mut w = [[0i32; 256]; K];
    let mut hint = [[0i32; 256]; K];
    let mut cs2 = [[0i32; 256]; K];
    let mut tmp = [0i32; 256];
    let mut c = [0i32; 256];
    let sh = pack_shift::<P>();
    let mut c_tilde = [0u8; 64];
    let zb = 32 * P::Z_BITS;
    let mut ok = false;
    let mut kappa: u32 = 0;
    for _ in 0..MAX_SIGN_ITERATIONS {
        expand_mask::<U, P, L>(t, hs, &rho2, kappa, &mut y);
        kappa += L as u32;
        // w = NTT^-1(A-hat o NTT(y)), canonical.
        z = y;
        ntt_all::<U>(t, &mut z);
        for (i, wi) in w.iter_mut().enumerate() {
            poly::dot::<U>(t, &vk.a_hat[i], &z, wi);
            U::invntt_poly(t, wi);
            caddq::<U>(t, wi);
        }
        // c_tilde = H(mu || w1Encode(w1)).
        let mut hc = Shake256::new_with_backend(hs.x1);
        hc.update(mu);
        let wb = 32 * P::W1_BITS;
        for wi in &w {
            let mut w1 = [0i32; 256];
            for u in 0..UNITS {
                P::decompose(ld::<U>(t, wi, u))
                    .0
                    .store(poly::chunk_mut(&mut w1, u));
            }
            let mut enc = [0u8; 32 * 6];
            P::pack_w1::<U>(t, &w1, &mut enc[..wb]);
            hc.update(&enc[..wb]);
        }
        hc.finalize_xof().read(&mut c_tilde[..P::CT_LEN]);
        // c-tilde stays secret until the iteration is accepted (a rejected iteration's
        // challenge is never published); SampleInBall is constant time.
        sample_in_ball::<P>(hs.x1, &c_tilde[..P::CT_LEN], &mut c);
        U::ntt_poly(t, &mut c);
        // z = y + <<c s1>>, with <<c s2>> from the same inverse NTT for the first L
        // polynomials (c s1 + 2^S c s2, centered: the exact integer, see `pack_shift`).
        let mut reject = false;
        for r in 0..L {
            poly::pointwise::<U>(t, &c, &sk.s12_hat[r], &mut tmp);
            U::invntt_poly(t, &mut tmp);
            for u in 0..UNITS {
                let (cs1, hi) = ld::<U>(t, &tmp, u).centered().split_low(sh);
                ld::<U>(t, &y[r], u)
                    .add(cs1)
                    .store(poly::chunk_mut(&mut z[r], u));
                hi.store(poly::chunk_mut(&mut cs2[r], u));
            }
            reject |= poly::exceeds::<U>(t, &z[r], P::GAMMA1 - P::BETA);
        }
        // The rest of <<c s2>> (|.| < q).
        for (o, s) in cs2[L..].iter_mut().zip(&sk.s2_tail) {
            poly::pointwise::<U>(t, &c, s, o);
            U::invntt_poly(t, o);
        }
        let mut count = 0;
        for i in 0..K {
            // r = w - <<c s2>> (canonical: |w - c s2| < 2q, within reduce32's input bound);
            // (r1, r0) = Decompose(r).
            let mut r = [0i32; 256];
            for u in 0..UNITS {
                ld::<U>(t, &w[i], u)
                    .sub(ld::<U>(t, &cs2[i], u))
                    .reduce32()
                    .caddq()
                    .store(poly::chunk_mut(&mut r, u));
            }
            // <<c t0>>, centered.
            poly::pointwise::<U>(t, &c, &sk.t0_hat[i], &mut tmp);
            U::invntt_poly(t, &mut tmp);
            for u in 0..UNITS {
                let x = ld::<U>(t, &tmp, u).centered();
                x.store(poly::chunk_mut(&mut tmp, u));
            }
            reject |= poly::exceeds::<U>(t, &tmp, P::GAMMA2);
            // The hint bits summed lane-wise (at most 32 per lane), added up once.
            let mut ones = U::load(t, &[0; 8]);
            for u in 0..UNITS {
                let ru = ld::<U>(t, &r, u);
                let (r1, r0) = P::decompose(ru);
                reject |= r0.exceeds(P::GAMMA2 - P::BETA);
                // h = MakeHint(-ct0, r + ct0) = HighBits(r + ct0) != HighBits(r).
                let v = ru.add(ld(t, &tmp, u)).reduce32().caddq();
                let hb = r1.ne_mask01(P::decompose(v).0);
                ones = ones.add(hb);
                hb.store(poly::chunk_mut(&mut hint[i], u));
            }
            count += ones.sum();
            U::wipe_coeffs(t, &mut r);
        }
        // The decision (not which check failed) leaves the loop: the iteration count is public.
        if public_bool(!reject & (count as usize <= P::OMEGA)) {
            ok = true;
            break;
        }
    }
    if ok {
        // sigEncode (Algorithm 26). The accepted c-tilde is part of the signature, public
        // from here.
        public(&c_tilde[..P::CT_LEN]);
        sig[..P::CT_LEN].copy_from_slice(&c_tilde[..P::CT_LEN]);
        let mut off = P::CT_LEN;
        for p in &z {
            P::pack_z::<U>(t, p, &mut sig[off..off + zb]);
            off += zb;
        }
        // HintBitPack (Algorithm 20): the hint is part of the signature, public from here.
        for hi in hint.iter_mut() {
            public_i32s(hi);
        }
        let hints = &mut sig[off..];
        hints.fill(0);
        let mut index = 0;
        for (i, hi) in hint.iter().enumerate() {
            for (j, &b) in hi.iter().enumerate() {
                if b != 0 {
                    hints[index] = j as u8;
                    index += 1;
                }
            }
            hints[P::OMEGA + i] = index as u8;
        }
    }
    rho2.zeroize();
    U::wipe_coeffs(t, y.as_flattened_mut());
    U::wipe_coeffs(t, z.as_flattened_mut());
    U::wipe_coeffs(t, w.as_flattened_mut());
    U::wipe_coeffs(t, cs2.as_flattened_mut());
    U::wipe_coeffs(t, &mut tmp);
    U::wipe_coeffs(t, &mut c);
    ok
}
