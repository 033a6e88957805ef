//! Key generation and key parsing (FIPS 204 Algorithms 6, 23 and 25).
#![forbid(unsafe_code)]

use zeroize::Zeroize;

use super::declassify::*;
use super::expand::*;
use super::params::*;
use crate::hash::{Hashes, h};
use crate::poly::{self, Poly, UNITS, ld};
use crate::unit::Unit;

/// `p = ntt(p)` for every polynomial of a vector.
#[inline(always)]
pub(crate) fn ntt_all<U: Unit>(t: U::Token, v: &mut [Poly]) {
    for p in v {
        U::ntt_poly(t, p);
    }
}

/// `p = caddq(p)`: `(-q, q)` to `[0, q)`.
#[inline(always)]
pub(crate) fn caddq<U: Unit>(t: U::Token, p: &mut Poly) {
    for u in 0..UNITS {
        ld::<U>(t, p, u).caddq().store(poly::chunk_mut(p, u));
    }
}

/// `2^64 mod q`: a Montgomery product with it multiplies by `2^32`.
pub(crate) const R2: i32 = 2_365_951;

/// The key states from A-hat (already in `vk`), s1 and s2: `t = NTT^-1(A-hat o NTT(s1)) + s2`
/// split by Power2Round into t1 and `t0` (Algorithm 6, lines 5-6), `pk = pkEncode(rho, t1)`
/// (Algorithm 22), `vk.tr = H(pk)`, and the NTT forms the keys keep. NTT(t) is A-hat o
/// NTT(s1) + NTT(s2), so `vk.t1_hat = NTT(t1 2^d)` is NTT(t) - NTT(t0) and the packed
/// `sk.s12_hat` is NTT(s1) + 2^S NTT(s2) (NTT is linear mod q), without transforms of their
/// own: L + 2K forward transforms in all. Key generation keeps `t0`; parsing an expanded key
/// compares it with the stored one. In: `|s1|, |s2| < q` (at most 11 for a rejected expanded
/// key).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn derive_keys<U: Unit, P: Params, const K: usize, const L: usize>(
    t: U::Token,
    hs: Hashes,
    rho: &[u8; 32],
    s1: &[Poly; L],
    s2: &[Poly; K],
    t0: &mut [Poly; K],
    pk: &mut [u8],
    vk: &mut VkState<K, L>,
    sk: &mut SkState<K, L>,
) {
    const { assert!(K >= L && K - L <= S2_TAIL) };
    let mut s1_hat = *s1;
    ntt_all::<U>(t, &mut s1_hat);
    let mut s2_hat = *s2;
    ntt_all::<U>(t, &mut s2_hat);
    let mut t1 = [[0i32; 256]; K];
    for i in 0..K {
        let mut ti = [0i32; 256];
        poly::dot::<U>(t, &vk.a_hat[i], &s1_hat, &mut ti);
        // NTT(t)[i] (the dot product carries 2^-32; |.| < q + 9q before reduce32), kept in
        // `vk.t1_hat` until NTT(t0) is known.
        for u in 0..UNITS {
            ld::<U>(t, &ti, u)
                .mont_mul_const(R2)
                .add(ld(t, &s2_hat[i], u))
                .reduce32()
                .store(poly::chunk_mut(&mut vk.t1_hat[i], u));
        }
        U::invntt_poly(t, &mut ti);
        for u in 0..UNITS {
            let x = ld::<U>(t, &ti, u).add(ld(t, &s2[i], u)).reduce32().caddq();
            let (hi, lo) = x.power2round();
            hi.store(poly::chunk_mut(&mut t1[i], u));
            lo.store(poly::chunk_mut(&mut t0[i], u));
        }
        U::wipe_coeffs(t, &mut ti);
    }
    pk[..32].copy_from_slice(rho);
    for (p, o) in t1.iter().zip(pk[32..].chunks_exact_mut(320)) {
        poly::pack::<U, 10>(t, p, None, o);
    }
    h(hs.x1, &[pk], &mut vk.tr);
    // NTT(t0), then NTT(t1 2^d) = NTT(t) - NTT(t0) (|.| < q + 9q before reduce32).
    sk.t0_hat = *t0;
    ntt_all::<U>(t, &mut sk.t0_hat);
    for (o, z) in vk.t1_hat.iter_mut().zip(&sk.t0_hat) {
        for u in 0..UNITS {
            ld::<U>(t, o, u)
                .sub(ld(t, z, u))
                .reduce32()
                .store(poly::chunk_mut(o, u));
        }
    }
    // s12-hat = NTT(s1) + 2^S NTT(s2) (the Montgomery product with 2^(S+32) mod q gives
    // 2^S NTT(s2) with |.| < q; the sum is below 10q before reduce32); the unpaired NTT(s2)
    // as they are.
    let c = const { mod_q_i64(1i64 << (32 + pack_shift::<P>())) };
    for (r, o) in sk.s12_hat.iter_mut().enumerate() {
        for u in 0..UNITS {
            ld::<U>(t, &s1_hat[r], u)
                .add(ld::<U>(t, &s2_hat[r], u).mont_mul_const(c))
                .reduce32()
                .store(poly::chunk_mut(o, u));
        }
    }
    for (o, b) in sk.s2_tail.iter_mut().zip(&s2_hat[L..]) {
        *o = *b;
    }
    U::wipe_coeffs(t, s1_hat.as_flattened_mut());
    U::wipe_coeffs(t, s2_hat.as_flattened_mut());
}

/// `x mod q` for `0 <= x < 2^43` (the constants of [`derive_keys`], `2^40` and `2^41`,
/// evaluated at compile time): subtraction of `q 2^k` for k from 20 down, no division.
pub(crate) const fn mod_q_i64(mut x: i64) -> i32 {
    const Q: i64 = 8_380_417;
    let mut k = 20;
    while k >= 0 {
        if x >= Q << k {
            x -= Q << k;
        }
        k -= 1;
    }
    x as i32
}

/// ML-DSA.KeyGen_internal (Algorithm 6). Writes `pk` and the expanded `sk` and fills the
/// states (`vk.tr`, `vk.a_hat`, `vk.t1_hat`; `sk` from the expanded encoding).
#[inline(always)]
pub(crate) fn keygen<U: Unit, P: Params, const K: usize, const L: usize>(
    t: U::Token,
    hs: Hashes,
    xi: &[u8; 32],
    pk: &mut [u8],
    sk_bytes: &mut [u8],
    vk: &mut VkState<K, L>,
    sk: &mut SkState<K, L>,
) {
    debug_assert!(P::K == K && P::L == L);
    let mut seeds = [0u8; 128];
    h(hs.x1, &[xi, &[K as u8, L as u8]], &mut seeds);
    let mut rho = [0u8; 32];
    let mut rho1 = [0u8; 64];
    rho.copy_from_slice(&seeds[..32]);
    // rho is public (the first 32 bytes of pk).
    public(&rho);
    rho1.copy_from_slice(&seeds[32..96]);
    sk.key.copy_from_slice(&seeds[96..]);
    expand_a::<U, K, L>(t, hs, &rho, &mut vk.a_hat);
    let mut s1 = [[0i32; 256]; L];
    let mut s2 = [[0i32; 256]; K];
    expand_s::<U, P, K, L>(t, hs, &rho1, &mut s1, &mut s2);
    let mut t0 = [[0i32; 256]; K];
    derive_keys::<U, P, K, L>(t, hs, &rho, &s1, &s2, &mut t0, pk, vk, sk);
    // skEncode (Algorithm 24).
    sk_bytes[..32].copy_from_slice(&rho);
    sk_bytes[32..64].copy_from_slice(&sk.key);
    sk_bytes[64..128].copy_from_slice(&vk.tr);
    let e = 32 * P::ETA_BITS;
    let mut off = 128;
    for p in s1.iter().chain(s2.iter()) {
        P::pack_eta::<U>(t, p, &mut sk_bytes[off..off + e]);
        off += e;
    }
    for p in &t0 {
        poly::pack::<U, 13>(t, p, Some(1 << 12), &mut sk_bytes[off..off + 416]);
        off += 416;
    }
    U::wipe_coeffs(t, s1.as_flattened_mut());
    U::wipe_coeffs(t, s2.as_flattened_mut());
    U::wipe_coeffs(t, t0.as_flattened_mut());
    seeds.zeroize();
    rho1.zeroize();
}

/// `t1_hat = NTT(t1 * 2^d)`. In: `t1` in `[0, 2^10)`.
#[inline(always)]
pub(crate) fn set_t1_hat<U: Unit, const K: usize>(
    t: U::Token,
    t1: &[Poly; K],
    t1_hat: &mut [Poly; K],
) {
    for (p, o) in t1.iter().zip(t1_hat.iter_mut()) {
        for u in 0..UNITS {
            ld::<U>(t, p, u).shl(13).store(poly::chunk_mut(o, u));
        }
        U::ntt_poly(t, o);
    }
}

/// pkDecode (Algorithm 23) into a verifying-key state (A-hat, NTT(t1 2^d), tr). Every
/// 10-bit value is a valid t1 coefficient: no check can fail past the length.
#[inline(always)]
pub(crate) fn parse_pk<U: Unit, const K: usize, const L: usize>(
    t: U::Token,
    hs: Hashes,
    pk: &[u8],
    vk: &mut VkState<K, L>,
) {
    let rho: [u8; 32] = pk[..32].try_into().unwrap_or([0; 32]);
    expand_a::<U, K, L>(t, hs, &rho, &mut vk.a_hat);
    let mut t1 = [[0i32; 256]; K];
    for (p, b) in t1.iter_mut().zip(pk[32..].chunks_exact(320)) {
        poly::unpack::<U, 10>(t, b, None, p);
    }
    set_t1_hat::<U, K>(t, &t1, &mut vk.t1_hat);
    h(hs.x1, &[pk], &mut vk.tr);
}

/// skDecode (Algorithm 25) with range checks, then the consistency checks a key parsed from
/// bytes needs: s1 and s2 in `[-eta, eta]`, and t0 and tr equal to what s1, s2 and rho give
/// (`t = A s1 + s2`, Power2Round, `tr = H(pkEncode(rho, t1))`). Writes the matching `pk`.
/// Returns false on any failure (the result, not where it failed, is what leaks).
#[inline(always)]
pub(crate) fn parse_sk<U: Unit, P: Params, const K: usize, const L: usize>(
    t: U::Token,
    hs: Hashes,
    sk_bytes: &[u8],
    pk: &mut [u8],
    vk: &mut VkState<K, L>,
    sk: &mut SkState<K, L>,
) -> bool {
    debug_assert!(P::K == K && P::L == L);
    let rho: [u8; 32] = sk_bytes[..32].try_into().unwrap_or([0; 32]);
    sk.key.copy_from_slice(&sk_bytes[32..64]);
    let e = 32 * P::ETA_BITS;
    let mut off = 128;
    let mut s1 = [[0i32; 256]; L];
    let mut s2 = [[0i32; 256]; K];
    let mut t0 = [[0i32; 256]; K];
    let mut bad = false;
    for p in s1.iter_mut().chain(s2.iter_mut()) {
        P::unpack_eta::<U>(t, &sk_bytes[off..off + e], p);
        bad |= poly::exceeds::<U>(t, p, P::ETA + 1);
        off += e;
    }
    for p in t0.iter_mut() {
        poly::unpack::<U, 13>(t, &sk_bytes[off..off + 416], Some(1 << 12), p);
        off += 416;
    }
    expand_a::<U, K, L>(t, hs, &rho, &mut vk.a_hat);
    // The states (sk.t0_hat from the derived t0, equal to the stored one when the key is
    // accepted). s1 and s2 are in range when `bad` is false; out of range (a rejected key)
    // they stay within `[-11, 4]`, far inside the NTT's input bound.
    let mut t0_derived = [[0i32; 256]; K];
    derive_keys::<U, P, K, L>(t, hs, &rho, &s1, &s2, &mut t0_derived, pk, vk, sk);
    let mut diff = 0i32;
    for (a, b) in t0_derived.iter().zip(&t0) {
        for u in 0..UNITS {
            let mut d = [0i32; 8];
            ld::<U>(t, a, u).ne_mask01(ld(t, b, u)).store(&mut d);
            diff |= d.iter().fold(0, |a, &b| a | b);
        }
    }
    t0_derived.zeroize();
    let tr_ok: bool = subtle::ConstantTimeEq::ct_eq(&vk.tr[..], &sk_bytes[64..128]).into();
    U::wipe_coeffs(t, s1.as_flattened_mut());
    U::wipe_coeffs(t, s2.as_flattened_mut());
    U::wipe_coeffs(t, t0.as_flattened_mut());
    // The accept/reject decision is public (the caller returns an error on it).
    public_bool(!bad & (diff == 0) & tr_ok)
}
