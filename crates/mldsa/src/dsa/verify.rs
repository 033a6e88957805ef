//! ML-DSA.Verify_internal (FIPS 204 Algorithm 8) from mu.
#![forbid(unsafe_code)]

use tessera_keccak::Shake256;

use super::ball::*;
use super::keygen::*;
use super::params::*;
use crate::hash::Hashes;
use crate::poly::{self, Poly, UNITS, ld};
use crate::unit::Unit;

/// HintBitUnpack (Algorithm 21): false when the encoding is malformed (a count decreasing or
/// past omega, indices not strictly increasing within a polynomial, or nonzero padding).
#[inline(always)]
pub(crate) fn hint_unpack<P: Params, const K: usize>(y: &[u8], h: &mut [Poly; K]) -> bool {
    let mut index = 0usize;
    for (i, hi) in h.iter_mut().enumerate() {
        *hi = [0; 256];
        let end = usize::from(y[P::OMEGA + i]);
        if end < index || end > P::OMEGA {
            return false;
        }
        let first = index;
        while index < end {
            if index > first && y[index - 1] >= y[index] {
                return false;
            }
            hi[usize::from(y[index])] = 1;
            index += 1;
        }
    }
    y[index..P::OMEGA].iter().all(|&b| b == 0)
}

/// ML-DSA.Verify_internal (Algorithm 8) from mu = H(tr || M', 64) and a signature of the
/// right length.
#[inline(always)]
pub(crate) fn verify<U: Unit, P: Params, const K: usize, const L: usize>(
    t: U::Token,
    hs: Hashes,
    vk: &VkState<K, L>,
    mu: &[u8; 64],
    sig: &[u8],
) -> bool {
    let c_tilde = &sig[..P::CT_LEN];
    let zb = 32 * P::Z_BITS;
    let mut z = [[0i32; 256]; L];
    for (p, b) in z.iter_mut().zip(sig[P::CT_LEN..].chunks_exact(zb)) {
        P::unpack_z::<U>(t, b, p);
    }
    let mut hint = [[0i32; 256]; K];
    if !hint_unpack::<P, K>(&sig[P::CT_LEN + L * zb..], &mut hint) {
        return false;
    }
    if z.iter()
        .any(|p| poly::exceeds::<U>(t, p, P::GAMMA1 - P::BETA))
    {
        return false;
    }
    let mut c = [0i32; 256];
    sample_in_ball::<P>(hs.x1, c_tilde, &mut c);
    U::ntt_poly(t, &mut c);
    ntt_all::<U>(t, &mut z);
    let mut hc = Shake256::new_with_backend(hs.x1);
    hc.update(mu);
    let wb = 32 * P::W1_BITS;
    for ((a_row, t1_hat), hi) in vk.a_hat.iter().zip(&vk.t1_hat).zip(&hint) {
        let mut w = [0i32; 256];
        let mut ct1 = [0i32; 256];
        poly::dot::<U>(t, a_row, &z, &mut w);
        poly::pointwise::<U>(t, &c, t1_hat, &mut ct1);
        for u in 0..UNITS {
            ld::<U>(t, &w, u)
                .sub(ld(t, &ct1, u))
                .reduce32()
                .store(poly::chunk_mut(&mut w, u));
        }
        U::invntt_poly(t, &mut w);
        for u in 0..UNITS {
            let x = ld::<U>(t, &w, u).caddq();
            P::use_hint(x, ld(t, hi, u)).store(poly::chunk_mut(&mut w, u));
        }
        let mut enc = [0u8; 32 * 6];
        P::pack_w1::<U>(t, &w, &mut enc[..wb]);
        hc.update(&enc[..wb]);
    }
    let mut c2 = [0u8; 64];
    hc.finalize_xof().read(&mut c2[..P::CT_LEN]);
    c2[..P::CT_LEN] == *c_tilde
}
