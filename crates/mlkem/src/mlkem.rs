//! K-PKE and ML-KEM (FIPS 203 Algorithms 13-18), generic over the backend's [`Unit`] and the
//! parameter set (`K`, `ETA1`, `DU`, `DV`; `ETA2` is 2 in every set). Byte strings whose
//! length depends on `K` are slices; the typed wrappers in `crate::generic` size them.
#![forbid(unsafe_code)]

use subtle::{ConditionallySelectable, ConstantTimeEq};
use tessera_keccak::{Sha3_256, Sha3_512, Shake256, X1Backend};
use zeroize::Zeroize;

use crate::poly::{self, Poly};
use crate::unit::Unit;
use crate::xof4::X4;

/// The Keccak backends an ML-KEM backend runs its hashes on (decided with the ML-KEM backend:
/// portable ML-KEM uses portable Keccak).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hashes {
    pub(crate) x1: X1Backend,
}

impl Hashes {
    /// G = SHA3-512 of `a || b` (FIPS 203 equation 4.5).
    #[inline(always)]
    fn g(&self, a: &[u8], b: &[u8]) -> [u8; 64] {
        Sha3_512::new_with_backend(self.x1)
            .update(a)
            .update(b)
            .finalize()
    }
    /// H = SHA3-256 (equation 4.4).
    #[inline(always)]
    pub(crate) fn h(&self, a: &[u8]) -> [u8; 32] {
        Sha3_256::new_with_backend(self.x1).update(a).finalize()
    }
    /// J = SHAKE256(z || c, 32) (equation 4.4), into `out` (the caller's, which it wipes: no
    /// returned copy is left in a frame of its own).
    #[inline(always)]
    fn j(&self, z: &[u8; 32], c: &[u8], out: &mut [u8; 32]) {
        Shake256::new_with_backend(self.x1)
            .update(z)
            .update(c)
            .finalize_xof()
            .read(out);
    }
}

/// What an encapsulation key keeps for repeated use: t-hat (canonical), A-hat (canonical, NTT
/// domain, `a_hat[i][j]` as in FIPS 203), rho and H(ek). `pub` (in this private module, so
/// unnameable outside the crate) because it is the `EkState` of `crate::dims::Ops`, the private
/// supertrait's bridge of the public `ParameterSet`.
#[derive(Clone)]
pub struct EkState<const K: usize> {
    pub(crate) t_hat: [Poly; K],
    pub(crate) a_hat: [[Poly; K]; K],
    pub(crate) rho: [u8; 32],
    pub(crate) h: [u8; 32],
}

impl<const K: usize> EkState<K> {
    pub(crate) const ZERO: Self = EkState {
        t_hat: [[0; 256]; K],
        a_hat: [[[0; 256]; K]; K],
        rho: [0; 32],
        h: [0; 32],
    };
}

/// SampleNTT (FIPS 203 Algorithm 7) of every `a_hat[i][j] = SampleNTT(rho || j || i)`, four
/// at a time on the four-way SHAKE128 ([`X4`]). Out: canonical `[0, q)`.
#[inline(always)]
pub(crate) fn expand_a<U: Unit, const K: usize>(
    t: U::Token,
    rho: &[u8; 32],
    a_hat: &mut [[Poly; K]; K],
) {
    const R: usize = 168;
    // Three blocks (504 bytes, 168 candidates per way) suffice with probability > 1 - 2^-40 or
    // so; further blocks come one at a time.
    const BLOCKS: usize = 3;
    let total = K * K;
    // (i, j) of entry e, row-major (no division of the entry index).
    let mut pos = [(0usize, 0usize); 16];
    for i in 0..K {
        for j in 0..K {
            pos[i * K + j] = (i, j);
        }
    }
    let mut first = 0;
    while first < total {
        // Entries first..first+4 (the last group repeats its final entry in the idle ways).
        let idx: [usize; 4] = core::array::from_fn(|w| (first + w).min(total - 1));
        let inputs: [[u8; 34]; 4] = core::array::from_fn(|w| {
            let (i, j) = pos[idx[w]];
            let mut x = [0u8; 34];
            x[..32].copy_from_slice(rho);
            x[32] = j as u8;
            x[33] = i as u8;
            x
        });
        let mut xof = X4::<U>::absorb(t, R, [&inputs[0], &inputs[1], &inputs[2], &inputs[3]]);
        let mut buf = [[0u8; BLOCKS * R]; 4];
        let mut out = [[0i16; 256]; 4];
        // Idle ways (past the last entry) count as full: no rejection sampling for them.
        let mut n: [usize; 4] = core::array::from_fn(|w| if first + w < total { 0 } else { 256 });
        let mut blocks = BLOCKS;
        loop {
            for b in 0..blocks {
                let [b0, b1, b2, b3] = &mut buf;
                let r = b * R..b * R + R;
                xof.squeeze_block([
                    &mut b0[r.clone()],
                    &mut b1[r.clone()],
                    &mut b2[r.clone()],
                    &mut b3[r],
                ]);
            }
            for w in 0..4 {
                U::rej_sample(t, &buf[w][..blocks * R], &mut out[w], &mut n[w]);
            }
            if n.iter().all(|&c| c >= 256) {
                break;
            }
            blocks = 1;
        }
        for w in 0..4 {
            if first + w < total {
                let (i, j) = pos[idx[w]];
                a_hat[i][j] = out[w];
            }
        }
        first += 4;
    }
}

/// One polynomial to sample with CBD_eta (Algorithm 8): where it goes, `eta` (2 or 3) and
/// whether to transform it with the NTT afterwards.
type NoiseTarget<'a> = (&'a mut Poly, usize, bool);

/// Samples every target in turn with CBD_eta (Algorithm 8) from PRF_eta(sigma, n0),
/// PRF_eta(sigma, n0 + 1), ... (four at a time on the four-way SHAKE256, whatever their eta,
/// so that e.g. y, e1 and e2 of K-PKE.Encrypt share permutations) and transforms those marked
/// for the NTT. Out: `[-eta, eta]`, or after the NTT `|a| <= (q-1)/2`.
#[inline(always)]
fn sample_noise<'a, U: Unit>(
    t: U::Token,
    sigma: &[u8; 32],
    n0: u8,
    targets: impl Iterator<Item = NoiseTarget<'a>>,
) {
    const R: usize = 136;
    let mut targets = targets;
    let mut buf = [[0u8; 2 * R]; 4];
    // The four PRF inputs `sigma || n`: four copies of the seed, written in place each round and
    // wiped once at the end.
    let mut inputs = [[0u8; 33]; 4];
    let mut nonce = n0;
    loop {
        let mut group: [Option<NoiseTarget<'a>>; 4] = core::array::from_fn(|_| targets.next());
        if group[0].is_none() {
            break;
        }
        for (w, x) in inputs.iter_mut().enumerate() {
            x[..32].copy_from_slice(sigma);
            x[32] = nonce.wrapping_add(w as u8);
        }
        let mut xof = X4::<U>::absorb(t, R, [&inputs[0], &inputs[1], &inputs[2], &inputs[3]]);
        // 64 eta bytes: one block for eta = 2, two for eta = 3.
        let len = group.iter().flatten().map(|g| 64 * g.1).max().unwrap_or(0);
        let mut off = 0;
        while off < len {
            let [b0, b1, b2, b3] = &mut buf;
            let r = off..off + R;
            xof.squeeze_block([
                &mut b0[r.clone()],
                &mut b1[r.clone()],
                &mut b2[r.clone()],
                &mut b3[r],
            ]);
            off += R;
        }
        for (w, g) in group.iter_mut().enumerate() {
            if let Some((p, eta, ntt)) = g {
                if *eta == 2 {
                    poly::cbd::<U, 2>(t, &buf[w][..128], p);
                } else {
                    poly::cbd::<U, 3>(t, &buf[w][..192], p);
                }
                if *ntt {
                    U::ntt_poly(t, p);
                }
            }
        }
        nonce = nonce.wrapping_add(4);
    }
    U::wipe_bytes(t, buf.as_flattened_mut());
    inputs.as_flattened_mut().zeroize();
}

/// K-PKE.KeyGen (FIPS 203 Algorithm 13) from `d`: fills `ek` (`384 K + 32` bytes), the key
/// state (t-hat, A-hat, rho; not H(ek)) and s-hat (canonical).
#[inline(always)]
pub(crate) fn keygen<U: Unit, const K: usize, const ETA1: usize>(
    t: U::Token,
    hs: Hashes,
    d: &[u8; 32],
    ek: &mut [u8],
    st: &mut EkState<K>,
    s_hat: &mut [Poly; K],
) {
    let mut rs = hs.g(d, &[K as u8]);
    st.rho.copy_from_slice(&rs[..32]);
    #[cfg(tessera_test_hooks)]
    tessera_cpu::hooks::declassify(&st.rho);
    let mut sigma = [0u8; 32];
    sigma.copy_from_slice(&rs[32..]);
    rs.zeroize();
    expand_a::<U, K>(t, &st.rho, &mut st.a_hat);
    let mut e_hat = [[0i16; 256]; K];
    // s (nonces 0..K) and e (K..2K), both NTT-transformed.
    let targets = s_hat.iter_mut().chain(e_hat.iter_mut());
    sample_noise::<U>(t, &sigma, 0, targets.map(|p| (p, ETA1, true)));
    sigma.zeroize();
    for ((t_i, a_i), e_i) in st.t_hat.iter_mut().zip(&st.a_hat).zip(&e_hat) {
        let row: [&Poly; K] = core::array::from_fn(|j| &a_i[j]);
        poly::basemul_acc::<U, K>(t, &row, s_hat, t_i);
        poly::tomont_add_canonical::<U>(t, t_i, e_i);
    }
    U::wipe_coeffs(t, e_hat.as_flattened_mut());
    for (i, s) in s_hat.iter_mut().enumerate() {
        // s-hat after the NTT is in (-q/2, q/2): canonical for the key encoding.
        for u in 0..16 {
            let c: &mut [i16; 16] = (&mut s[16 * u..16 * u + 16])
                .try_into()
                .unwrap_or_else(|_| unreachable!());
            U::load(t, c).to_canonical().store(c);
        }
        poly::compress_encode::<U, 12>(t, &st.t_hat[i], &mut ek[384 * i..384 * i + 384]);
    }
    ek[384 * K..].copy_from_slice(&st.rho);
}

/// Encodes s-hat (canonical) as the K-PKE decryption key (`384 K` bytes, Algorithm 13 line 20).
#[inline(always)]
pub(crate) fn encode_s<U: Unit, const K: usize>(t: U::Token, s_hat: &[Poly; K], out: &mut [u8]) {
    for (i, s) in s_hat.iter().enumerate() {
        poly::compress_encode::<U, 12>(t, s, &mut out[384 * i..384 * i + 384]);
    }
}

/// Decodes the K-PKE decryption key (ByteDecode_12 with its mod-q step). Out: canonical.
#[inline(always)]
pub(crate) fn decode_s<U: Unit, const K: usize>(t: U::Token, bytes: &[u8], s_hat: &mut [Poly; K]) {
    for (i, s) in s_hat.iter_mut().enumerate() {
        poly::decode12_reduce::<U>(t, &bytes[384 * i..384 * i + 384], s);
    }
}

/// Parses an encapsulation key (FIPS 203 section 7.2 modulus check; false when it fails) and
/// expands A-hat. Does not compute H(ek).
#[inline(always)]
pub(crate) fn parse_ek<U: Unit, const K: usize>(
    t: U::Token,
    ek: &[u8],
    st: &mut EkState<K>,
) -> bool {
    let mut ok = true;
    for (i, p) in st.t_hat.iter_mut().enumerate() {
        ok &= poly::decode12_checked::<U>(t, &ek[384 * i..384 * i + 384], p);
    }
    if !ok {
        return false;
    }
    st.rho.copy_from_slice(&ek[384 * K..384 * K + 32]);
    expand_a::<U, K>(t, &st.rho, &mut st.a_hat);
    true
}

/// K-PKE.Encrypt (FIPS 203 Algorithm 14) of `m` with randomness `r` into `ct`
/// (`32 (DU K + DV)` bytes).
#[inline(always)]
fn encrypt<U: Unit, const K: usize, const ETA1: usize, const DU: u32, const DV: u32>(
    t: U::Token,
    st: &EkState<K>,
    m: &[u8; 32],
    r: &[u8; 32],
    ct: &mut [u8],
) {
    let mut y_hat = [[0i16; 256]; K];
    let mut e1 = [[0i16; 256]; K];
    let mut e2 = [[0i16; 256]; 1];
    // y (nonces 0..K, eta1, NTT), e1 (K..2K, eta2 = 2) and e2 (2K, eta2) in one stream of
    // four-way PRF calls.
    let targets = (y_hat.iter_mut().map(|p| (p, ETA1, true)))
        .chain(e1.iter_mut().map(|p| (p, 2, false)))
        .chain(e2.iter_mut().map(|p| (p, 2, false)));
    sample_noise::<U>(t, r, 0, targets);
    let du = 32 * DU as usize;
    let mut p = [0i16; 256];
    for (i, e) in e1.iter().enumerate() {
        let col: [&Poly; K] = core::array::from_fn(|j| &st.a_hat[j][i]);
        poly::basemul_acc::<U, K>(t, &col, &y_hat, &mut p);
        U::invntt_poly(t, &mut p);
        poly::add3_canonical::<U>(t, &mut p, e, None);
        poly::compress_encode::<U, DU>(t, &p, &mut ct[du * i..du * i + du]);
    }
    let mut mu = [0i16; 256];
    poly::decode_decompress::<U, 1>(t, m, &mut mu);
    let row: [&Poly; K] = core::array::from_fn(|j| &st.t_hat[j]);
    poly::basemul_acc::<U, K>(t, &row, &y_hat, &mut p);
    U::invntt_poly(t, &mut p);
    poly::add3_canonical::<U>(t, &mut p, &e2[0], Some(&mu));
    poly::compress_encode::<U, DV>(t, &p, &mut ct[du * K..]);
    U::wipe_coeffs(t, y_hat.as_flattened_mut());
    U::wipe_coeffs(t, e1.as_flattened_mut());
    U::wipe_coeffs(t, e2.as_flattened_mut());
    U::wipe_coeffs(t, &mut mu);
    U::wipe_coeffs(t, &mut p);
}

/// K-PKE.Decrypt (FIPS 203 Algorithm 15).
#[inline(always)]
fn decrypt<U: Unit, const K: usize, const DU: u32, const DV: u32>(
    t: U::Token,
    s_hat: &[Poly; K],
    ct: &[u8],
) -> [u8; 32] {
    let du = 32 * DU as usize;
    let mut u = [[0i16; 256]; K];
    for (i, p) in u.iter_mut().enumerate() {
        poly::decode_decompress::<U, DU>(t, &ct[du * i..du * i + du], p);
        U::ntt_poly(t, p);
    }
    let mut w = [0i16; 256];
    let row: [&Poly; K] = core::array::from_fn(|j| &s_hat[j]);
    poly::basemul_acc::<U, K>(t, &row, &u, &mut w);
    U::invntt_poly(t, &mut w);
    let mut v = [0i16; 256];
    poly::decode_decompress::<U, DV>(t, &ct[du * K..], &mut v);
    poly::rsub_canonical::<U>(t, &mut w, &v);
    let mut m = [0u8; 32];
    poly::compress_encode::<U, 1>(t, &w, &mut m);
    U::wipe_coeffs(t, &mut w);
    m
}

/// ML-KEM.Encaps_internal (FIPS 203 Algorithm 17): writes the ciphertext, returns K.
#[inline(always)]
pub(crate) fn encaps<U: Unit, const K: usize, const ETA1: usize, const DU: u32, const DV: u32>(
    t: U::Token,
    hs: Hashes,
    st: &EkState<K>,
    m: &[u8; 32],
    ct: &mut [u8],
) -> [u8; 32] {
    let mut kr = hs.g(m, &st.h);
    let mut key = [0u8; 32];
    let mut r = [0u8; 32];
    key.copy_from_slice(&kr[..32]);
    r.copy_from_slice(&kr[32..]);
    kr.zeroize();
    encrypt::<U, K, ETA1, DU, DV>(t, st, m, &r, ct);
    r.zeroize();
    key
}

/// ML-KEM.Decaps_internal (FIPS 203 Algorithm 18) with implicit rejection: the re-encryption
/// compare and the choice of K' or K-bar are constant time (`subtle`).
#[inline(always)]
pub(crate) fn decaps<U: Unit, const K: usize, const ETA1: usize, const DU: u32, const DV: u32>(
    t: U::Token,
    hs: Hashes,
    st: &EkState<K>,
    s_hat: &[Poly; K],
    z: &[u8; 32],
    ct: &[u8],
) -> [u8; 32] {
    let mut m = decrypt::<U, K, DU, DV>(t, s_hat, ct);
    let mut kr = hs.g(&m, &st.h);
    let mut key = [0u8; 32];
    let mut r = [0u8; 32];
    key.copy_from_slice(&kr[..32]);
    r.copy_from_slice(&kr[32..]);
    kr.zeroize();
    let mut k_bar = [0u8; 32];
    hs.j(z, ct, &mut k_bar);
    let mut ct2 = [0u8; 1568];
    let ct2 = &mut ct2[..ct.len()];
    encrypt::<U, K, ETA1, DU, DV>(t, st, &m, &r, ct2);
    let equal = ct.ct_eq(ct2);
    // By reference: `zip(k_bar)` would move a copy of K-bar into the iterator, out of reach of
    // the wipe below.
    for (k, b) in key.iter_mut().zip(&k_bar) {
        *k = u8::conditional_select(b, k, equal);
    }
    U::wipe_bytes(t, ct2);
    m.zeroize();
    r.zeroize();
    k_bar.zeroize();
    key
}
