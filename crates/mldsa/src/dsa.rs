//! ML-DSA (FIPS 204 Algorithms 6-8 and their subroutines), generic over the backend's
//! [`Unit`] and the parameter set ([`Params`], plus `K` and `L` as const generics for the
//! array sizes). Byte strings whose length depends on the set are slices; the typed wrappers
//! in `crate::params` size them.
#![forbid(unsafe_code)]

use tessera_keccak::{Shake128, Shake256, X1Backend};
use zeroize::Zeroize;

use crate::poly::{self, Poly, UNITS, ld};
use crate::unit::Unit;

/// The largest number of iterations of the signing loop (FIPS 204 Algorithm 7 lines 10-32)
/// before [`crate::Error::SigningLoopBound`]. The expected count is 4.25 (ML-DSA-44), 5.1
/// (65) and 3.85 (87); the probability of needing more than 814 iterations is below 2^-256
/// for every set (FIPS 204 Appendix C). The count of iterations a signature took is public.
pub const MAX_SIGN_ITERATIONS: u32 = 814;

/// The FIPS 204 parameters of one set (Table 1) and the operations whose widths depend on
/// them (written with literal const arguments per set in `crate::params`).
pub(crate) trait Params {
    const K: usize;
    const L: usize;
    const ETA: i32;
    const TAU: usize;
    /// `lambda / 4`: bytes of c-tilde.
    const CT_LEN: usize;
    const GAMMA1: i32;
    const GAMMA2: i32;
    const OMEGA: usize;
    const BETA: i32;
    /// Bits of a packed s1/s2 coefficient (`bitlen(2 eta)`).
    const ETA_BITS: usize;
    /// Bits of a packed z coefficient (`1 + bitlen(gamma1 - 1)`).
    const Z_BITS: usize;
    /// Bits of a packed w1 coefficient (`bitlen((q-1)/(2 gamma2) - 1)`).
    const W1_BITS: usize;

    /// Decompose (Algorithm 36) with this set's gamma2.
    fn decompose<U: Unit>(x: U) -> (U, U);
    /// UseHint (Algorithm 40) with this set's gamma2.
    fn use_hint<U: Unit>(x: U, h: U) -> U;
    /// The rejection step of RejBoundedPoly with this set's eta.
    fn rej_eta<U: Unit>(t: U::Token, bytes: &[u8], out: &mut Poly, n: &mut usize);
    /// BitPack(s, eta, eta) into `32 * ETA_BITS` bytes. In: `[-eta, eta]`.
    fn pack_eta<U: Unit>(t: U::Token, p: &Poly, out: &mut [u8]);
    /// BitUnpack(bytes, eta, eta). Out: `[eta - 2^ETA_BITS + 1, eta]` (range checked apart).
    fn unpack_eta<U: Unit>(t: U::Token, bytes: &[u8], p: &mut Poly);
    /// BitPack(z, gamma1 - 1, gamma1) into `32 * Z_BITS` bytes. In: `(-gamma1, gamma1]`.
    fn pack_z<U: Unit>(t: U::Token, p: &Poly, out: &mut [u8]);
    /// BitUnpack(bytes, gamma1 - 1, gamma1). Out: `(-gamma1, gamma1]`.
    fn unpack_z<U: Unit>(t: U::Token, bytes: &[u8], p: &mut Poly);
    /// SimpleBitPack(w1, (q-1)/(2 gamma2) - 1) into `32 * W1_BITS` bytes.
    fn pack_w1<U: Unit>(t: U::Token, p: &Poly, out: &mut [u8]);
}

/// What a verifying key keeps for repeated use: A-hat (NTT domain, `a_hat[i][j]` as in FIPS
/// 204), NTT(t1 * 2^d) and tr = H(pk).
#[derive(Clone)]
pub(crate) struct VkState<const K: usize, const L: usize> {
    pub(crate) a_hat: [[Poly; L]; K],
    pub(crate) t1_hat: [Poly; K],
    pub(crate) tr: [u8; 64],
}

impl<const K: usize, const L: usize> VkState<K, L> {
    pub(crate) const ZERO: Self = VkState {
        a_hat: [[[0; 256]; L]; K],
        t1_hat: [[0; 256]; K],
        tr: [0; 64],
    };
}

/// What a signing key keeps: NTT forms of s1, s2 and t0, and K. Wiped on drop.
#[derive(Clone)]
pub(crate) struct SkState<const K: usize, const L: usize> {
    pub(crate) s1_hat: [Poly; L],
    pub(crate) s2_hat: [Poly; K],
    pub(crate) t0_hat: [Poly; K],
    pub(crate) key: [u8; 32],
}

impl<const K: usize, const L: usize> SkState<K, L> {
    pub(crate) const ZERO: Self = SkState {
        s1_hat: [[0; 256]; L],
        s2_hat: [[0; 256]; K],
        t0_hat: [[0; 256]; K],
        key: [0; 32],
    };
}

impl<const K: usize, const L: usize> Drop for SkState<K, L> {
    fn drop(&mut self) {
        self.s1_hat.zeroize();
        self.s2_hat.zeroize();
        self.t0_hat.zeroize();
        self.key.zeroize();
    }
}

/// H = SHAKE256 over the concatenation of `parts` (FIPS 204 section 3.7), `out.len()` bytes.
#[inline(always)]
pub(crate) fn h(x1: X1Backend, parts: &[&[u8]], out: &mut [u8]) {
    let mut s = Shake256::new_with_backend(x1);
    for p in parts {
        s.update(p);
    }
    s.finalize_xof().read(out);
}

/// ExpandA (Algorithm 32): `a_hat[r][s] = RejNTTPoly(rho || s || r)`. Out: `[0, q)`.
#[inline(always)]
pub(crate) fn expand_a<U: Unit, const K: usize, const L: usize>(
    t: U::Token,
    x1: X1Backend,
    rho: &[u8; 32],
    a_hat: &mut [[Poly; L]; K],
) {
    for (r, row) in a_hat.iter_mut().enumerate() {
        for (s, a) in row.iter_mut().enumerate() {
            let mut seed = [0u8; 34];
            seed[..32].copy_from_slice(rho);
            seed[32] = s as u8;
            seed[33] = r as u8;
            let mut xof = Shake128::new_with_backend(x1).update(&seed).finalize_xof();
            // Five blocks (280 candidates) almost always suffice; more come one at a time.
            let mut buf = [0u8; 5 * 168];
            xof.read(&mut buf);
            let mut n = 0;
            U::rej_uniform(t, &buf, a, &mut n);
            while n < 256 {
                xof.read(&mut buf[..168]);
                U::rej_uniform(t, &buf[..168], a, &mut n);
            }
        }
    }
}

/// RejBoundedPoly (Algorithm 31) of `SHAKE256(rho' || IntegerToBytes(nonce, 2))`.
/// Out: `[-eta, eta]`.
#[inline(always)]
fn rej_bounded<U: Unit, P: Params>(
    t: U::Token,
    x1: X1Backend,
    rho1: &[u8; 64],
    nonce: u16,
    p: &mut Poly,
) {
    let mut xof = Shake256::new_with_backend(x1)
        .update(rho1)
        .update(&nonce.to_le_bytes())
        .finalize_xof();
    let mut buf = [0u8; 2 * 136];
    // eta 2 accepts 15/16 half-bytes (about 137 bytes needed), eta 4 accepts 9/16 (about 228).
    let first = if P::ETA == 2 { 136 } else { 272 };
    xof.read(&mut buf[..first]);
    let mut n = 0;
    P::rej_eta::<U>(t, &buf[..first], p, &mut n);
    while n < 256 {
        xof.read(&mut buf[..136]);
        P::rej_eta::<U>(t, &buf[..136], p, &mut n);
    }
    buf.zeroize();
}

/// SampleInBall (Algorithm 29): the challenge polynomial with `TAU` coefficients in `{-1, 1}`.
/// The positions come from c-tilde, which the signature publishes: they are not secret.
#[inline(always)]
pub(crate) fn sample_in_ball<P: Params>(x1: X1Backend, c_tilde: &[u8], c: &mut Poly) {
    let mut xof = Shake256::new_with_backend(x1)
        .update(c_tilde)
        .finalize_xof();
    let mut buf = [0u8; 136];
    xof.read(&mut buf);
    let signs = u64::from_le_bytes(buf[..8].try_into().unwrap_or([0; 8]));
    let mut pos = 8;
    *c = [0; 256];
    for i in 256 - P::TAU..256 {
        let j = loop {
            if pos == buf.len() {
                xof.read(&mut buf);
                pos = 0;
            }
            let j = usize::from(buf[pos]);
            pos += 1;
            if j <= i {
                break j;
            }
        };
        c[i] = c[j];
        c[j] = 1 - 2 * ((signs >> (i + P::TAU - 256)) & 1) as i32;
    }
}

/// `p = ntt(p)` for every polynomial of a vector.
#[inline(always)]
fn ntt_all<U: Unit>(t: U::Token, v: &mut [Poly]) {
    for p in v {
        U::ntt_poly(t, p);
    }
}

/// `p = caddq(p)`: `(-q, q)` to `[0, q)`.
#[inline(always)]
fn caddq<U: Unit>(t: U::Token, p: &mut Poly) {
    poly::map::<U>(t, p, |x| x.caddq());
}

/// ML-DSA.KeyGen_internal (Algorithm 6). Writes `pk` and the expanded `sk` and fills the
/// states (`vk.tr`, `vk.a_hat`, `vk.t1_hat`; `sk` from the expanded encoding).
#[inline(always)]
pub(crate) fn keygen<U: Unit, P: Params, const K: usize, const L: usize>(
    t: U::Token,
    x1: X1Backend,
    xi: &[u8; 32],
    pk: &mut [u8],
    sk_bytes: &mut [u8],
    vk: &mut VkState<K, L>,
    sk: &mut SkState<K, L>,
) {
    debug_assert!(P::K == K && P::L == L);
    let mut seeds = [0u8; 128];
    h(x1, &[xi, &[K as u8, L as u8]], &mut seeds);
    let mut rho = [0u8; 32];
    let mut rho1 = [0u8; 64];
    rho.copy_from_slice(&seeds[..32]);
    rho1.copy_from_slice(&seeds[32..96]);
    sk.key.copy_from_slice(&seeds[96..]);
    expand_a::<U, K, L>(t, x1, &rho, &mut vk.a_hat);
    // ExpandS (Algorithm 33).
    let mut s1 = [[0i32; 256]; L];
    let mut s2 = [[0i32; 256]; K];
    for (r, p) in s1.iter_mut().enumerate() {
        rej_bounded::<U, P>(t, x1, &rho1, r as u16, p);
    }
    for (r, p) in s2.iter_mut().enumerate() {
        rej_bounded::<U, P>(t, x1, &rho1, (L + r) as u16, p);
    }
    sk.s1_hat = s1;
    ntt_all::<U>(t, &mut sk.s1_hat);
    let mut t0 = [[0i32; 256]; K];
    let mut t1 = [[0i32; 256]; K];
    for i in 0..K {
        let mut ti = [0i32; 256];
        poly::dot::<U>(t, &vk.a_hat[i], &sk.s1_hat, &mut ti);
        U::invntt_poly(t, &mut ti);
        for u in 0..UNITS {
            let x = ld::<U>(t, &ti, u).add(ld(t, &s2[i], u)).reduce32().caddq();
            let (hi, lo) = x.power2round();
            hi.store(poly::chunk_mut(&mut t1[i], u));
            lo.store(poly::chunk_mut(&mut t0[i], u));
        }
        ti.zeroize();
    }
    // pkEncode (Algorithm 22).
    pk[..32].copy_from_slice(&rho);
    for (p, o) in t1.iter().zip(pk[32..].chunks_exact_mut(320)) {
        poly::pack::<U, 10>(t, p, None, o);
    }
    h(x1, &[pk], &mut vk.tr);
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
    set_t1_hat::<U, K>(t, &t1, &mut vk.t1_hat);
    sk.s2_hat = s2;
    ntt_all::<U>(t, &mut sk.s2_hat);
    sk.t0_hat = t0;
    ntt_all::<U>(t, &mut sk.t0_hat);
    s1.zeroize();
    s2.zeroize();
    t0.zeroize();
    seeds.zeroize();
    rho1.zeroize();
}

/// `t1_hat = NTT(t1 * 2^d)`. In: `t1` in `[0, 2^10)`.
#[inline(always)]
fn set_t1_hat<U: Unit, const K: usize>(t: U::Token, t1: &[Poly; K], t1_hat: &mut [Poly; K]) {
    for (p, o) in t1.iter().zip(t1_hat.iter_mut()) {
        *o = *p;
        poly::map::<U>(t, o, |x| x.shl(13));
        U::ntt_poly(t, o);
    }
}

/// pkDecode (Algorithm 23) into a verifying-key state (A-hat, NTT(t1 2^d), tr). Every
/// 10-bit value is a valid t1 coefficient: no check can fail past the length.
#[inline(always)]
pub(crate) fn parse_pk<U: Unit, const K: usize, const L: usize>(
    t: U::Token,
    x1: X1Backend,
    pk: &[u8],
    vk: &mut VkState<K, L>,
) {
    let rho: [u8; 32] = pk[..32].try_into().unwrap_or([0; 32]);
    expand_a::<U, K, L>(t, x1, &rho, &mut vk.a_hat);
    let mut t1 = [[0i32; 256]; K];
    for (p, b) in t1.iter_mut().zip(pk[32..].chunks_exact(320)) {
        poly::unpack::<U, 10>(t, b, None, p);
    }
    set_t1_hat::<U, K>(t, &t1, &mut vk.t1_hat);
    h(x1, &[pk], &mut vk.tr);
}

/// skDecode (Algorithm 25) with range checks, then the consistency checks a key parsed from
/// bytes needs: s1 and s2 in `[-eta, eta]`, and t0 and tr equal to what s1, s2 and rho give
/// (`t = A s1 + s2`, Power2Round, `tr = H(pkEncode(rho, t1))`). Writes the matching `pk`.
/// Returns false on any failure (the result, not where it failed, is what leaks).
#[inline(always)]
pub(crate) fn parse_sk<U: Unit, P: Params, const K: usize, const L: usize>(
    t: U::Token,
    x1: X1Backend,
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
    expand_a::<U, K, L>(t, x1, &rho, &mut vk.a_hat);
    sk.s1_hat = s1;
    ntt_all::<U>(t, &mut sk.s1_hat);
    let mut t1 = [[0i32; 256]; K];
    let mut diff = 0i32;
    for i in 0..K {
        let mut ti = [0i32; 256];
        poly::dot::<U>(t, &vk.a_hat[i], &sk.s1_hat, &mut ti);
        U::invntt_poly(t, &mut ti);
        for u in 0..UNITS {
            let x = ld::<U>(t, &ti, u).add(ld(t, &s2[i], u)).reduce32().caddq();
            let (hi, lo) = x.power2round();
            hi.store(poly::chunk_mut(&mut t1[i], u));
            let mut d = [0i32; 8];
            lo.ne_mask01(ld(t, &t0[i], u)).store(&mut d);
            diff |= d.iter().fold(0, |a, &b| a | b);
        }
        ti.zeroize();
    }
    pk[..32].copy_from_slice(&rho);
    for (p, o) in t1.iter().zip(pk[32..].chunks_exact_mut(320)) {
        poly::pack::<U, 10>(t, p, None, o);
    }
    h(x1, &[pk], &mut vk.tr);
    let tr_ok: bool = subtle::ConstantTimeEq::ct_eq(&vk.tr[..], &sk_bytes[64..128]).into();
    set_t1_hat::<U, K>(t, &t1, &mut vk.t1_hat);
    sk.s2_hat = s2;
    ntt_all::<U>(t, &mut sk.s2_hat);
    sk.t0_hat = t0;
    ntt_all::<U>(t, &mut sk.t0_hat);
    s1.zeroize();
    s2.zeroize();
    t0.zeroize();
    !bad && diff == 0 && tr_ok
}

/// ML-DSA.Sign_internal (Algorithm 7) from mu = H(tr || M', 64) (computed by the caller) and
/// `rnd`. Writes the signature `sigEncode(c_tilde, z, h)` (Algorithm 26) into `sig`; returns
/// false when [`MAX_SIGN_ITERATIONS`] iterations were rejected (nothing useful is written).
#[inline(always)]
pub(crate) fn sign<U: Unit, P: Params, const K: usize, const L: usize>(
    t: U::Token,
    x1: X1Backend,
    vk: &VkState<K, L>,
    sk: &SkState<K, L>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> bool {
    debug_assert!(P::K == K && P::L == L);
    let mut rho2 = [0u8; 64];
    h(x1, &[&sk.key, rnd, mu], &mut rho2);
    let mut y = [[0i32; 256]; L];
    let mut z = [[0i32; 256]; L];
    let mut w = [[0i32; 256]; K];
    let mut hint = [[0i32; 256]; K];
    let mut tmp = [0i32; 256];
    let mut c = [0i32; 256];
    let mut c_tilde = [0u8; 64];
    let zb = 32 * P::Z_BITS;
    let mut ok = false;
    let mut kappa: u32 = 0;
    for _ in 0..MAX_SIGN_ITERATIONS {
        // ExpandMask (Algorithm 34).
        let mut buf = [0u8; 32 * 20];
        for (r, p) in y.iter_mut().enumerate() {
            let n = (kappa + r as u32) as u16;
            h(x1, &[&rho2, &n.to_le_bytes()], &mut buf[..zb]);
            P::unpack_z::<U>(t, &buf[..zb], p);
        }
        buf.zeroize();
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
        let mut hs = Shake256::new_with_backend(x1);
        hs.update(mu);
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
            hs.update(&enc[..wb]);
        }
        hs.finalize_xof().read(&mut c_tilde[..P::CT_LEN]);
        sample_in_ball::<P>(x1, &c_tilde[..P::CT_LEN], &mut c);
        U::ntt_poly(t, &mut c);
        // z = y + <<c s1>>.
        let mut reject = false;
        for r in 0..L {
            poly::pointwise::<U>(t, &c, &sk.s1_hat[r], &mut tmp);
            U::invntt_poly(t, &mut tmp);
            for u in 0..UNITS {
                ld::<U>(t, &y[r], u)
                    .add(ld::<U>(t, &tmp, u).centered())
                    .store(poly::chunk_mut(&mut z[r], u));
            }
            reject |= poly::exceeds::<U>(t, &z[r], P::GAMMA1 - P::BETA);
        }
        let mut count = 0;
        for i in 0..K {
            // r = w - <<c s2>> (canonical); (r1, r0) = Decompose(r).
            poly::pointwise::<U>(t, &c, &sk.s2_hat[i], &mut tmp);
            U::invntt_poly(t, &mut tmp);
            let mut r = [0i32; 256];
            for u in 0..UNITS {
                ld::<U>(t, &w[i], u)
                    .sub(ld::<U>(t, &tmp, u))
                    .reduce32()
                    .caddq()
                    .store(poly::chunk_mut(&mut r, u));
            }
            // <<c t0>>, centered.
            poly::pointwise::<U>(t, &c, &sk.t0_hat[i], &mut tmp);
            U::invntt_poly(t, &mut tmp);
            poly::map::<U>(t, &mut tmp, |x| x.centered());
            reject |= poly::exceeds::<U>(t, &tmp, P::GAMMA2);
            for u in 0..UNITS {
                let ru = ld::<U>(t, &r, u);
                let (r1, r0) = P::decompose(ru);
                reject |= r0.exceeds(P::GAMMA2 - P::BETA);
                // h = MakeHint(-ct0, r + ct0) = HighBits(r + ct0) != HighBits(r).
                let v = ru.add(ld(t, &tmp, u)).reduce32().caddq();
                let hb = r1.ne_mask01(P::decompose(v).0);
                count += hb.sum();
                hb.store(poly::chunk_mut(&mut hint[i], u));
            }
            r.zeroize();
        }
        // The decision (not which check failed) leaves the loop: the iteration count is public.
        if !reject && count as usize <= P::OMEGA {
            ok = true;
            break;
        }
    }
    if ok {
        // sigEncode (Algorithm 26).
        sig[..P::CT_LEN].copy_from_slice(&c_tilde[..P::CT_LEN]);
        let mut off = P::CT_LEN;
        for p in &z {
            P::pack_z::<U>(t, p, &mut sig[off..off + zb]);
            off += zb;
        }
        // HintBitPack (Algorithm 20): the hint is part of the signature, public from here.
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
    y.zeroize();
    z.zeroize();
    w.zeroize();
    tmp.zeroize();
    c.zeroize();
    ok
}

/// HintBitUnpack (Algorithm 21): false when the encoding is malformed (a count decreasing or
/// past omega, indices not strictly increasing within a polynomial, or nonzero padding).
#[inline(always)]
fn hint_unpack<P: Params, const K: usize>(y: &[u8], h: &mut [Poly; K]) -> bool {
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
    x1: X1Backend,
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
    sample_in_ball::<P>(x1, c_tilde, &mut c);
    U::ntt_poly(t, &mut c);
    ntt_all::<U>(t, &mut z);
    let mut hs = Shake256::new_with_backend(x1);
    hs.update(mu);
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
        hs.update(&enc[..wb]);
    }
    let mut c2 = [0u8; 64];
    hs.finalize_xof().read(&mut c2[..P::CT_LEN]);
    c2[..P::CT_LEN] == *c_tilde
}
