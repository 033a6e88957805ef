//! ML-DSA (FIPS 204 Algorithms 6-8 and their subroutines), generic over the backend's
//! [`Unit`] and the parameter set ([`Params`], plus `K` and `L` as const generics for the
//! array sizes). Byte strings whose length depends on the set are slices; the typed wrappers
//! in `crate::params` size them.
#![forbid(unsafe_code)]

use tessera_keccak::{Shake128, Shake256, X1Backend, X4Backend};
use zeroize::Zeroize;

pub(crate) use crate::hash::{Hashes, h};
use crate::poly::{self, Poly, UNITS, ld};
use crate::unit::Unit;
use crate::xof4::X4;

/// The largest number of iterations of the signing loop (FIPS 204 Algorithm 7 lines 10-32)
/// before [`crate::Error::SigningLoopBound`]. The expected count is 4.25 (ML-DSA-44), 5.1
/// (65) and 3.85 (87); the probability of needing more than 814 iterations is below 2^-256
/// for every set (FIPS 204 Appendix C). The count of iterations a signature took is public.
pub const MAX_SIGN_ITERATIONS: u32 = 814;

/// Marks `b` public for the valgrind constant-time check; nothing outside this workspace's test
/// builds (`--cfg tessera_test_hooks`, which no Cargo feature can turn on).
///
/// The check (`tessera-ct-valgrind`'s `mldsa` example) marks the seed xi, the expanded signing
/// key and rnd undefined and installs a hook that marks bytes defined
/// (`tessera_cpu::hooks::set_declassify`, shared by every Tessera crate). ML-DSA calls it on
/// exactly the values that are public by design or whose release FIPS 204's security argument
/// allows, right before it branches or indexes on them:
/// - rho, computed from xi in key generation (it is the first 32 bytes of pk; ExpandA's
///   rejection loop branches on its XOF output);
/// - the accept pattern of RejBoundedPoly (which half-bytes of the XOF output were rejected:
///   independent of the accepted values, so of s1 and s2);
/// - whether SampleInBall's fixed block of candidates held all `tau` positions (the stream is
///   read on past it with probability below 2^-87; `crate::dsa::sample_in_ball`);
/// - the signing loop's decision (accept or reject; not which check failed) and, once accepted,
///   c-tilde and the hint (parts of the signature). The c-tilde of a rejected iteration stays
///   secret: SampleInBall is constant time;
/// - the accept/reject decision of expanded signing-key parsing.
#[inline(always)]
pub(crate) fn public(b: &[u8]) {
    #[cfg(tessera_test_hooks)]
    tessera_cpu::hooks::declassify(b);
    #[cfg(not(tessera_test_hooks))]
    let _ = b;
}

/// [`public`] for a decision: returns `v` as it is in memory after the hook, read back through
/// an opaque reference (so the branch that follows does not use a register copy from before).
#[inline(always)]
pub(crate) fn public_bool(v: bool) -> bool {
    let cell = [u8::from(v)];
    public(&cell);
    core::hint::black_box(&cell)[0] != 0
}

/// [`public`] for coefficients, in place (each read back after the hook, see [`public_bool`]).
#[inline(always)]
pub(crate) fn public_i32s(v: &mut [i32]) {
    #[cfg(tessera_test_hooks)]
    for c in v.chunks_mut(8) {
        let mut cell = [0u8; 32];
        for (d, x) in cell.chunks_exact_mut(4).zip(c.iter()) {
            d.copy_from_slice(&x.to_le_bytes());
        }
        public(&cell);
        for (x, d) in c
            .iter_mut()
            .zip(core::hint::black_box(&cell).chunks_exact(4))
        {
            *x = i32::from_le_bytes([d[0], d[1], d[2], d[3]]);
        }
    }
    #[cfg(not(tessera_test_hooks))]
    let _ = v;
}

/// [`public`] for a 64-bit mask (see [`public_bool`]).
#[inline(always)]
pub(crate) fn public_u64(v: u64) -> u64 {
    let cell = v.to_le_bytes();
    public(&cell);
    u64::from_le_bytes(*core::hint::black_box(&cell))
}

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

/// The most `s2` polynomials without an `s1` partner (`K - L`) of any parameter set.
pub(crate) const S2_TAIL: usize = 1;

/// What a signing key keeps: NTT forms of s1 and s2 (packed, see [`derive_keys`]) and t0, and
/// K. Wiped on drop; not `Clone` (no copy of the secret to wipe apart).
pub(crate) struct SkState<const K: usize, const L: usize> {
    /// `NTT(s1[r] + 2^S s2[r])` for `r < L` (`S` = [`pack_shift`]): one inverse NTT of its
    /// product with c gives both `c s1[r]` and `c s2[r]`.
    pub(crate) s12_hat: [Poly; L],
    /// `NTT(s2[L + i])` for `L + i < K`: the `s2` polynomials without an `s1` partner (one
    /// for ML-DSA-65 and -87, none for ML-DSA-44, whose entry stays zero; stable Rust cannot
    /// size an array `K - L`).
    pub(crate) s2_tail: [Poly; S2_TAIL],
    pub(crate) t0_hat: [Poly; K],
    pub(crate) key: [u8; 32],
}

impl<const K: usize, const L: usize> SkState<K, L> {
    pub(crate) const ZERO: Self = SkState {
        s12_hat: [[0; 256]; L],
        s2_tail: [[0; 256]; S2_TAIL],
        t0_hat: [[0; 256]; K],
        key: [0; 32],
    };
}

impl<const K: usize, const L: usize> Drop for SkState<K, L> {
    fn drop(&mut self) {
        self.s12_hat.zeroize();
        self.s2_tail.zeroize();
        self.t0_hat.zeroize();
        self.key.zeroize();
    }
}

/// The shift `S` that packs `c s2` above `c s1` (FIPS 204 Algorithm 7 lines 17-18 and 21):
/// every coefficient of `c s` is a sum of `tau` terms `+-s_j` with `|s_j| <= eta`, so
/// `|c s| <= tau eta`: 39 * 2 = 78 (ML-DSA-44), 49 * 4 = 196 (65), 60 * 2 = 120 (87), below
/// `2^(S-1)` with S = 8 for eta 2 and 9 for eta 4. The packed product `c s1 + 2^S c s2` is
/// then below `tau eta (2^S + 1) < 2^(2S) <= 2^18 < (q-1)/2` in absolute value: its centered
/// representative mod q is the integer itself, and [`Unit::split_low`] recovers both parts.
#[inline(always)]
pub(crate) const fn pack_shift<P: Params>() -> u32 {
    if P::ETA == 2 { 8 } else { 9 }
}

/// SHAKE128 block size.
const RATE128: usize = 168;
/// SHAKE256 block size.
const RATE256: usize = 136;

/// The sampler seeds `prefix || IntegerToBytes(key, 2)` of four ways (`prefix` is `N - 2`
/// bytes). Every sampler of FIPS 204 appends two bytes: ExpandA `s || r` (key `s + 256 r`),
/// ExpandS and ExpandMask a little-endian nonce.
#[inline(always)]
fn seeds<const N: usize>(prefix: &[u8], keys: [u16; 4]) -> [[u8; N]; 4] {
    let mut out = [[0u8; N]; 4];
    for (o, k) in out.iter_mut().zip(keys) {
        o[..N - 2].copy_from_slice(prefix);
        o[N - 2..].copy_from_slice(&k.to_le_bytes());
    }
    out
}

/// The four ways' inputs of [`seeds`], for [`X4::absorb`].
#[inline(always)]
fn ins<const N: usize>(s: &[[u8; N]; 4]) -> [&[u8]; 4] {
    [&s[0], &s[1], &s[2], &s[3]]
}

/// The first `len` bytes of four buffers, for [`X4::squeeze`].
#[inline(always)]
fn ways<const B: usize>(buf: &mut [[u8; B]; 4], len: usize) -> [&mut [u8]; 4] {
    let [a, b, c, d] = buf;
    [&mut a[..len], &mut b[..len], &mut c[..len], &mut d[..len]]
}

/// The two samplers [`in_fours_with`] runs: one polynomial, or four side by side. Samplers
/// are structs with `#[inline(always)]` methods, not closures: a closure is compiled as a
/// function of its own without the calling island's target features (SIMD intrinsics in it
/// become calls), while inlined trait methods compile into the island.
trait FourWay {
    /// Whether the samples are secret (ExpandS, ExpandMask): the batch buffer is wiped.
    const SECRET: bool;
    fn one(&mut self, key: u16, p: &mut Poly);
    fn four(&mut self, keys: [u16; 4], out: &mut [Poly; 4]);
    /// Wipes secret samples (called when `SECRET`).
    fn wipe(&self, p: &mut [i32]);
}

/// Runs a sampler over `(key, polynomial)` pairs four at a time: `s.four(keys, out)` samples
/// four polynomials into `out` (a batch of two or three repeats its first key in the idle
/// ways, whose output is dropped), `s.one(key, p)` samples a polynomial left alone. How the
/// pairs are grouped depends only on their number (public). `out` is wiped at the end when the
/// samples are secret (ExpandS and ExpandMask).
#[inline(always)]
fn in_fours_with<'a, S: FourWay>(polys: impl Iterator<Item = (u16, &'a mut Poly)>, s: &mut S) {
    let mut polys = polys.peekable();
    let mut out = [[0i32; 256]; 4];
    while polys.peek().is_some() {
        let mut group: [Option<&mut Poly>; 4] = [None, None, None, None];
        let mut keys = [0u16; 4];
        let mut cnt = 0;
        for (g, k) in group.iter_mut().zip(keys.iter_mut()) {
            if let Some((key, p)) = polys.next() {
                *g = Some(p);
                *k = key;
                cnt += 1;
            }
        }
        if cnt == 1 {
            if let Some(p) = group[0].take() {
                s.one(keys[0], p);
            }
            continue;
        }
        let k0 = keys[0];
        for k in keys.iter_mut().skip(cnt) {
            *k = k0;
        }
        s.four(keys, &mut out);
        for (g, o) in group.iter_mut().zip(&out) {
            if let Some(p) = g.take() {
                *p = *o;
            }
        }
    }
    if S::SECRET {
        s.wipe(out.as_flattened_mut());
    }
}

/// A rejection step for [`rej_x4`] (RejNTTPoly's or RejBoundedPoly's), as a method so that it
/// compiles into the calling island (see [`in_fours_with`]).
trait RejStep {
    fn step(&self, bytes: &[u8], p: &mut Poly, n: &mut usize);
    /// Wipes a buffer of secret XOF output.
    fn wipe(&self, b: &mut [u8]);
}

/// Four rejection samplers on four-way SHAKE: absorbs `seeds`, squeezes `first` bytes per way
/// (a multiple of `rate`, at most `B`), runs `rej` on each way, then one more block of every way
/// at a time until all four polynomials are full (`rej` does nothing to a full one). Whether a
/// further block is squeezed depends on how many candidates were rejected: as in the one-way
/// sampler (`while n < 256`), and no other branch on the output is added here.
#[inline(always)]
fn rej_x4<const N: usize, const B: usize, const SECRET: bool>(
    k4: X4Backend,
    rate: usize,
    seeds: &[[u8; N]; 4],
    first: usize,
    out: &mut [Poly; 4],
    rej: &impl RejStep,
) {
    let mut x = X4::absorb(k4, rate, ins(seeds));
    let mut buf = [[0u8; B]; 4];
    let mut ns = [0usize; 4];
    let mut len = first;
    loop {
        x.squeeze(ways(&mut buf, len));
        for ((b, p), n) in buf.iter().zip(out.iter_mut()).zip(ns.iter_mut()) {
            rej.step(&b[..len], p, n);
        }
        if ns.iter().all(|&n| n >= 256) {
            break;
        }
        len = rate;
    }
    // ExpandA's output is public (the matrix): only secret output is wiped (zeroize writes
    // byte by byte, 3360 bytes per batch of ExpandA).
    if SECRET {
        rej.wipe(buf.as_flattened_mut());
    }
}

/// RejNTTPoly (Algorithm 30) of `SHAKE128(rho || IntegerToBytes(key, 2))` on one-way SHAKE.
/// Out: `[0, q)`.
#[inline(always)]
fn rej_ntt_poly<U: Unit>(t: U::Token, x1: X1Backend, rho: &[u8; 32], key: u16, a: &mut Poly) {
    let mut xof = Shake128::new_with_backend(x1)
        .update(rho)
        .update(&key.to_le_bytes())
        .finalize_xof();
    // Five blocks (280 candidates) almost always suffice; more come one at a time.
    let mut buf = [0u8; 5 * RATE128];
    xof.read(&mut buf);
    let mut n = 0;
    U::rej_uniform(t, &buf, a, &mut n);
    while n < 256 {
        xof.read(&mut buf[..RATE128]);
        U::rej_uniform(t, &buf[..RATE128], a, &mut n);
    }
}

/// ExpandA (Algorithm 32): `a_hat[r][s] = RejNTTPoly(rho || s || r)`, four entries at a time
/// when `hs.x4` is set and the backend samples four-way ([`Unit::FOUR_WAY`]). The XOF output
/// is public (rejections may branch). Out: `[0, q)`.
#[inline(always)]
pub(crate) fn expand_a<U: Unit, const K: usize, const L: usize>(
    t: U::Token,
    hs: Hashes,
    rho: &[u8; 32],
    a_hat: &mut [[Poly; L]; K],
) {
    match hs.x4 {
        Some(k4) if U::FOUR_WAY => expand_a_x4::<U, K, L>(t, hs.x1, k4, rho, a_hat),
        _ => expand_a_x1::<U, K, L>(t, hs.x1, rho, a_hat),
    }
}

/// The entries of A-hat with their ExpandA keys `s + 256 r`.
#[inline(always)]
fn a_entries<const K: usize, const L: usize>(
    a_hat: &mut [[Poly; L]; K],
) -> impl Iterator<Item = (u16, &mut Poly)> {
    a_hat.iter_mut().enumerate().flat_map(|(r, row)| {
        row.iter_mut()
            .enumerate()
            .map(move |(s, a)| (u16::from_le_bytes([s as u8, r as u8]), a))
    })
}

/// ExpandA one entry at a time (FIPS 204 as written).
#[inline(always)]
fn expand_a_x1<U: Unit, const K: usize, const L: usize>(
    t: U::Token,
    x1: X1Backend,
    rho: &[u8; 32],
    a_hat: &mut [[Poly; L]; K],
) {
    for (key, a) in a_entries(a_hat) {
        rej_ntt_poly::<U>(t, x1, rho, key, a);
    }
}

/// ExpandA four entries at a time on `k4` (a lone last entry on `x1`).
#[inline(always)]
fn expand_a_x4<U: Unit, const K: usize, const L: usize>(
    t: U::Token,
    x1: X1Backend,
    k4: X4Backend,
    rho: &[u8; 32],
    a_hat: &mut [[Poly; L]; K],
) {
    in_fours_with(a_entries(a_hat), &mut ASampler::<U> { t, x1, k4, rho });
}

/// ExpandA's samplers, as methods so that the rejection step compiles into the calling island
/// (see [`in_fours_with`]).
struct ASampler<'a, U: Unit> {
    t: U::Token,
    x1: X1Backend,
    k4: X4Backend,
    rho: &'a [u8; 32],
}

impl<U: Unit> RejStep for ASampler<'_, U> {
    #[inline(always)]
    fn step(&self, bytes: &[u8], p: &mut Poly, n: &mut usize) {
        U::rej_uniform(self.t, bytes, p, n)
    }
    #[inline(always)]
    fn wipe(&self, _b: &mut [u8]) {}
}

impl<U: Unit> FourWay for ASampler<'_, U> {
    const SECRET: bool = false;
    #[inline(always)]
    fn one(&mut self, key: u16, a: &mut Poly) {
        rej_ntt_poly::<U>(self.t, self.x1, self.rho, key, a)
    }
    #[inline(always)]
    fn four(&mut self, keys: [u16; 4], out: &mut [Poly; 4]) {
        let s = seeds::<34>(self.rho, keys);
        rej_x4::<34, { 5 * RATE128 }, false>(self.k4, RATE128, &s, 5 * RATE128, out, &*self);
    }
    #[inline(always)]
    fn wipe(&self, _p: &mut [i32]) {}
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
    let mut buf = [0u8; 2 * RATE256];
    // eta 2 accepts 15/16 half-bytes (about 137 bytes needed), eta 4 accepts 9/16 (about 228).
    let first = if P::ETA == 2 { RATE256 } else { 2 * RATE256 };
    xof.read(&mut buf[..first]);
    let mut n = 0;
    P::rej_eta::<U>(t, &buf[..first], p, &mut n);
    while n < 256 {
        xof.read(&mut buf[..RATE256]);
        P::rej_eta::<U>(t, &buf[..RATE256], p, &mut n);
    }
    U::wipe_bytes(t, &mut buf);
}

/// ExpandS (Algorithm 33): `s1[r] = RejBoundedPoly(rho' || r)`, `s2[r] = RejBoundedPoly(rho' ||
/// L + r)`, four polynomials at a time when `hs.x4` is set and the backend samples four-way
/// ([`Unit::FOUR_WAY`]). The output is secret. The
/// rejection step ([`Params::rej_eta`]) is the same as the one-way sampler's; the four-way
/// sampler squeezes two blocks per way first (for eta 2 too, where one block falls short about
/// half the time, so a batch of four nearly always needs the second) and branches only on
/// whether all four polynomials are full, as the one-way sampler branches on whether its one
/// is: the number of blocks squeezed depends on the count of rejected half-bytes, never on the
/// accepted values. Out: `[-eta, eta]`.
#[inline(always)]
fn expand_s<U: Unit, P: Params, const K: usize, const L: usize>(
    t: U::Token,
    hs: Hashes,
    rho1: &[u8; 64],
    s1: &mut [Poly; L],
    s2: &mut [Poly; K],
) {
    match hs.x4 {
        Some(k4) if U::FOUR_WAY => expand_s_x4::<U, P, K, L>(t, hs.x1, k4, rho1, s1, s2),
        _ => expand_s_x1::<U, P, K, L>(t, hs.x1, rho1, s1, s2),
    }
}

/// The polynomials of s1 then s2 with their ExpandS nonces.
#[inline(always)]
fn s_entries<'a, const K: usize, const L: usize>(
    s1: &'a mut [Poly; L],
    s2: &'a mut [Poly; K],
) -> impl Iterator<Item = (u16, &'a mut Poly)> {
    s1.iter_mut()
        .chain(s2.iter_mut())
        .enumerate()
        .map(|(r, p)| (r as u16, p))
}

/// ExpandS one polynomial at a time (FIPS 204 as written).
#[inline(always)]
fn expand_s_x1<U: Unit, P: Params, const K: usize, const L: usize>(
    t: U::Token,
    x1: X1Backend,
    rho1: &[u8; 64],
    s1: &mut [Poly; L],
    s2: &mut [Poly; K],
) {
    for (nonce, p) in s_entries(s1, s2) {
        rej_bounded::<U, P>(t, x1, rho1, nonce, p);
    }
}

/// ExpandS four polynomials at a time on `k4` (a lone last one on `x1`).
#[inline(always)]
fn expand_s_x4<U: Unit, P: Params, const K: usize, const L: usize>(
    t: U::Token,
    x1: X1Backend,
    k4: X4Backend,
    rho1: &[u8; 64],
    s1: &mut [Poly; L],
    s2: &mut [Poly; K],
) {
    in_fours_with(
        s_entries(s1, s2),
        &mut SSampler::<U, P> {
            t,
            x1,
            k4,
            rho1,
            _p: core::marker::PhantomData,
        },
    );
}

/// ExpandS's samplers, as methods so that the rejection step compiles into the calling island
/// (see [`in_fours_with`]).
struct SSampler<'a, U: Unit, P: Params> {
    t: U::Token,
    x1: X1Backend,
    k4: X4Backend,
    rho1: &'a [u8; 64],
    _p: core::marker::PhantomData<P>,
}

impl<U: Unit, P: Params> RejStep for SSampler<'_, U, P> {
    #[inline(always)]
    fn step(&self, bytes: &[u8], p: &mut Poly, n: &mut usize) {
        P::rej_eta::<U>(self.t, bytes, p, n)
    }
    #[inline(always)]
    fn wipe(&self, b: &mut [u8]) {
        U::wipe_bytes(self.t, b)
    }
}

impl<U: Unit, P: Params> FourWay for SSampler<'_, U, P> {
    const SECRET: bool = true;
    #[inline(always)]
    fn one(&mut self, nonce: u16, p: &mut Poly) {
        rej_bounded::<U, P>(self.t, self.x1, self.rho1, nonce, p)
    }
    #[inline(always)]
    fn four(&mut self, nonces: [u16; 4], out: &mut [Poly; 4]) {
        let mut s = seeds::<66>(self.rho1, nonces);
        rej_x4::<66, { 2 * RATE256 }, true>(self.k4, RATE256, &s, 2 * RATE256, out, &*self);
        s.zeroize();
    }
    #[inline(always)]
    fn wipe(&self, p: &mut [i32]) {
        U::wipe_coeffs(self.t, p)
    }
}

/// ExpandMask (Algorithm 34): `y[r] = BitUnpack(H(rho'' || IntegerToBytes(kappa + r, 2)),
/// gamma1 - 1, gamma1)`, four polynomials at a time when `hs.x4` is set and the backend
/// samples four-way ([`Unit::FOUR_WAY`]) (no rejection: every polynomial takes the same fixed
/// number of blocks). Out: `(-gamma1, gamma1]`.
#[inline(always)]
fn expand_mask<U: Unit, P: Params, const L: usize>(
    t: U::Token,
    hs: Hashes,
    rho2: &[u8; 64],
    kappa: u32,
    y: &mut [Poly; L],
) {
    match hs.x4 {
        Some(k4) if U::FOUR_WAY => expand_mask_x4::<U, P, L>(t, hs.x1, k4, rho2, kappa, y),
        _ => expand_mask_x1::<U, P, L>(t, hs.x1, rho2, kappa, y),
    }
}

/// The polynomials of y with their ExpandMask nonces `kappa + r`.
#[inline(always)]
fn mask_entries<const L: usize>(
    y: &mut [Poly; L],
    kappa: u32,
) -> impl Iterator<Item = (u16, &mut Poly)> {
    y.iter_mut()
        .enumerate()
        .map(move |(r, p)| ((kappa + r as u32) as u16, p))
}

/// ExpandMask one polynomial at a time (FIPS 204 as written).
#[inline(always)]
fn expand_mask_x1<U: Unit, P: Params, const L: usize>(
    t: U::Token,
    x1: X1Backend,
    rho2: &[u8; 64],
    kappa: u32,
    y: &mut [Poly; L],
) {
    for (nonce, p) in mask_entries(y, kappa) {
        mask_one::<U, P>(t, x1, rho2, nonce, p);
    }
}

/// ExpandMask four polynomials at a time on `k4` (a lone last one on `x1`).
#[inline(always)]
fn expand_mask_x4<U: Unit, P: Params, const L: usize>(
    t: U::Token,
    x1: X1Backend,
    k4: X4Backend,
    rho2: &[u8; 64],
    kappa: u32,
    y: &mut [Poly; L],
) {
    in_fours_with(
        mask_entries(y, kappa),
        &mut MaskSampler::<U, P> {
            t,
            x1,
            k4,
            rho2,
            _p: core::marker::PhantomData,
        },
    );
}

/// One polynomial of ExpandMask on one-way SHAKE256 (z takes 576 or 640 bytes: at most five
/// blocks).
#[inline(always)]
fn mask_one<U: Unit, P: Params>(
    t: U::Token,
    x1: X1Backend,
    rho2: &[u8; 64],
    nonce: u16,
    p: &mut Poly,
) {
    let zb = 32 * P::Z_BITS;
    debug_assert!(zb <= MASK_BLOCKS * RATE256);
    let mut buf = [0u8; 32 * 20];
    h(x1, &[rho2, &nonce.to_le_bytes()], &mut buf[..zb]);
    P::unpack_z::<U>(t, &buf[..zb], p);
    U::wipe_bytes(t, &mut buf);
}

/// ExpandMask's four-way samplers (z takes 576 or 640 bytes: five SHAKE256 blocks), as
/// methods so that the unpacking compiles into the calling island (see [`in_fours_with`]).
struct MaskSampler<'a, U: Unit, P: Params> {
    t: U::Token,
    x1: X1Backend,
    k4: X4Backend,
    rho2: &'a [u8; 64],
    _p: core::marker::PhantomData<P>,
}

/// SHAKE256 blocks of one ExpandMask polynomial.
const MASK_BLOCKS: usize = 5;

impl<U: Unit, P: Params> FourWay for MaskSampler<'_, U, P> {
    const SECRET: bool = true;
    #[inline(always)]
    fn one(&mut self, nonce: u16, p: &mut Poly) {
        mask_one::<U, P>(self.t, self.x1, self.rho2, nonce, p)
    }
    #[inline(always)]
    fn four(&mut self, nonces: [u16; 4], out: &mut [Poly; 4]) {
        let zb = 32 * P::Z_BITS;
        let mut s = seeds::<66>(self.rho2, nonces);
        let mut x = X4::absorb(self.k4, RATE256, ins(&s));
        let mut buf = [[0u8; MASK_BLOCKS * RATE256]; 4];
        x.squeeze(ways(&mut buf, MASK_BLOCKS * RATE256));
        for (b, p) in buf.iter().zip(out.iter_mut()) {
            P::unpack_z::<U>(self.t, &b[..zb], p);
        }
        U::wipe_bytes(self.t, buf.as_flattened_mut());
        s.zeroize();
    }
    #[inline(always)]
    fn wipe(&self, p: &mut [i32]) {
        U::wipe_coeffs(self.t, p)
    }
}

/// SHAKE256 blocks SampleInBall squeezes whatever c-tilde is: one (8 sign bytes and 128
/// candidate positions). The chance that the 128 candidates hold fewer than `tau` accepted
/// positions, computed exactly (a Markov chain over the number `k` of accepted positions: a
/// candidate is accepted with probability `(257 - tau + k) / 256`), is 2^-202.9 for tau 39,
/// 2^-140.3 for tau 49 and 2^-87.7 for tau 60; the expected number of candidates needed is 42,
/// 54 and 68. In that case the stream is read on (FIPS 204 has no bound), and the one bit
/// "the block did not suffice" is what the timing shows. A second block for tau 60 (2^-364.6)
/// would cost a Keccak permutation in every signing iteration (about 2% of ML-DSA-87 signing)
/// to hide a bit that is set once in 2^87 iterations and says nothing about s1 or s2 beyond a
/// property of one hash output.
const BALL_BLOCKS: usize = 1;

/// `[0, 1, ..., N - 1]` as bytes: lane numbers for the masked writes of SampleInBall.
const fn lanes<const N: usize>() -> [u8; N] {
    let mut a = [0u8; N];
    let mut i = 0;
    while i < N {
        a[i] = i as u8;
        i += 1;
    }
    a
}

/// `0xFF` when `a == b`, else `0`, in arithmetic (`d | -d` has its top bit set exactly when
/// `d != 0`): no comparison for the compiler to turn into a branch; the loops below compile
/// to vector compares.
#[inline(always)]
fn eq_mask(a: u8, b: u8) -> u8 {
    let d = a ^ b;
    !(((d | d.wrapping_neg()) as i8 >> 7) as u8)
}

/// SampleInBall (Algorithm 29): the challenge polynomial with `TAU` coefficients in `{-1, 1}`,
/// from the SHAKE256 stream of c-tilde. Out: `{-1, 0, 1}`.
///
/// Constant time: the c-tilde of a rejected signing iteration is secret (the signature
/// publishes only the accepted one; the challenges of rejected iterations leak s1 and s2
/// through side channels: Karabulut et al., HOST 2021; Zhou et al., TCHES 2025), so nothing
/// here branches on or indexes with the stream. See [`ball_from_stream`].
///
/// The buffers are not wiped: in signing the last call is the accepted iteration's, whose
/// c-tilde the signature publishes.
#[inline(always)]
pub(crate) fn sample_in_ball<P: Params>(x1: X1Backend, c_tilde: &[u8], c: &mut Poly) {
    let mut xof = Shake256::new_with_backend(x1)
        .update(c_tilde)
        .finalize_xof();
    ball_from_stream::<P>(|b| xof.read(b), c);
}

/// [`sample_in_ball`] from the XOF stream `read` (successive calls give successive bytes),
/// in three passes over public lengths:
/// 1. [`BALL_BLOCKS`] blocks are squeezed whatever the data. Line 5's `i` is `h = 256 - tau
///    + k` at the `k`-th step; a candidate `b` is accepted when `b <= h`, which advances `h`.
///    The running `h` is recorded for every candidate (one add of a comparison per candidate:
///    the only serial part), then the accepted candidates are moved to their steps' slots
///    `js[h - (256 - tau)]` by a masked write over all 64 slots per candidate (a candidate at
///    `h >= 256`, past the last step, is not written).
/// 2. The steps `c_i = c_j; c_j = +-1` (lines 10-11, `i = 256 - tau + k` public, `j = js[k]`
///    secret) are replayed on the list of nonzero positions: the entry at `j`, if any, moves
///    to `i`, and entry `k` is at `j` (a mask over the 64 entries per step). Position `i` is
///    free before step `k`: every earlier position is at most `i - 1`.
/// 3. The polynomial is written from that list, each coefficient against each entry.
///
/// If the fixed candidates hold fewer than `tau` accepted positions (probability below
/// 2^-87, see [`BALL_BLOCKS`]), the stream is read on, candidate by candidate, until they do,
/// as FIPS 204 reads it: the only branch on the data, on that decision, which is released
/// as public ([`public_bool`]). The output is that of Algorithm 29 for every stream.
#[inline(always)]
fn ball_from_stream<P: Params>(mut read: impl FnMut(&mut [u8]), c: &mut Poly) {
    const { assert!(P::TAU < 64) };
    const FIRST: usize = BALL_BLOCKS * RATE256;
    const SLOTS: [u8; 64] = lanes::<64>();
    const POSITIONS: [u8; 256] = lanes::<256>();
    let base = (256 - P::TAU) as u32;
    let mut buf = [0u8; FIRST];
    read(&mut buf);
    let signs = u64::from_le_bytes(buf[..8].try_into().unwrap_or([0; 8]));
    let cand = &buf[8..];
    // Pass 1: h before each candidate.
    let mut hs = [0u16; FIRST - 8];
    let mut h = base;
    for (o, &b) in hs.iter_mut().zip(cand) {
        *o = h as u16;
        h += u32::from(u32::from(b) <= h);
    }
    let mut js = [0u8; 64];
    for (&hm, &b) in hs.iter().zip(cand) {
        // The slot of an accepted candidate (`h - base < 64`: at most 128 candidates), 0xFF
        // (no slot) for a rejected one or one past the last step.
        let hm = u32::from(hm);
        let ok = u32::from(u32::from(b) <= hm) & u32::from(hm < 256);
        let slot = ((hm - base) as u8) | (ok as u8).wrapping_sub(1);
        for (&e, x) in SLOTS.iter().zip(js.iter_mut()) {
            *x |= eq_mask(e, slot) & b;
        }
    }
    // Fewer than tau positions in the fixed candidates (probability below 2^-87).
    let mut k = h - base;
    while !public_bool(k as usize >= P::TAU) {
        let mut b = [0u8; 1];
        read(&mut b);
        let ok = u32::from(u32::from(b[0]) <= base + k);
        let slot = (k as u8) | (ok as u8).wrapping_sub(1);
        for (&e, x) in SLOTS.iter().zip(js.iter_mut()) {
            *x |= eq_mask(e, slot) & b[0];
        }
        k += ok;
    }
    // Pass 2: `pos[e]` is the position of the coefficient set at step e (the entries from
    // the current step on hold values that are overwritten at their own step).
    let mut pos = [0u8; 64];
    for (step, &j) in js[..P::TAU].iter().enumerate() {
        let i = (256 - P::TAU + step) as u8;
        let s = step as u8;
        for (&e, p) in SLOTS.iter().zip(pos.iter_mut()) {
            let moved = eq_mask(*p, j);
            let new = eq_mask(e, s);
            *p = (((*p & !moved) | (i & moved)) & !new) | (j & new);
        }
    }
    // Pass 3: the entries' positions are distinct; entry e is `(-1)^h[e]` (line 11), as the
    // byte 1 or 0xFF.
    let mut c8 = [0u8; 256];
    for (e, &p) in pos[..P::TAU].iter().enumerate() {
        let s = 1 | 0u8.wrapping_sub(((signs >> e) & 1) as u8);
        for (&x, o) in POSITIONS.iter().zip(c8.iter_mut()) {
            *o |= eq_mask(x, p) & s;
        }
    }
    for (o, &b) in c.iter_mut().zip(&c8) {
        *o = i32::from(b as i8);
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
    for u in 0..UNITS {
        ld::<U>(t, p, u).caddq().store(poly::chunk_mut(p, u));
    }
}

/// `2^64 mod q`: a Montgomery product with it multiplies by `2^32`.
const R2: i32 = 2_365_951;

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
fn derive_keys<U: Unit, P: Params, const K: usize, const L: usize>(
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
const fn mod_q_i64(mut x: i64) -> i32 {
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
fn set_t1_hat<U: Unit, const K: usize>(t: U::Token, t1: &[Poly; K], t1_hat: &mut [Poly; K]) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::portable::P8;
    use crate::params::{Params44, Params65, Params87};

    // The four-way samplers are called directly: portable units never take them
    // (`P8::FOUR_WAY` is false), the one-way ones are FIPS 204 as written.
    const X1: X1Backend = X1Backend::Portable;

    fn mask<P: Params, const L: usize>(k4: X4Backend, rho2: &[u8; 64], kappa: u32) {
        let (mut a, mut b) = ([[0i32; 256]; L], [[1i32; 256]; L]);
        expand_mask_x1::<P8, P, L>(tessera_cpu::Portable, X1, rho2, kappa, &mut a);
        expand_mask_x4::<P8, P, L>(tessera_cpu::Portable, X1, k4, rho2, kappa, &mut b);
        assert!(a == b, "ExpandMask L = {L} on {}", k4.name());
    }

    fn expand<P: Params, const K: usize, const L: usize>(k4: X4Backend, seed: &[u8; 64]) {
        let (mut a1, mut a2) = ([[[0i32; 256]; L]; K], [[[1i32; 256]; L]; K]);
        let rho: &[u8; 32] = seed[..32].try_into().unwrap_or(&[0; 32]);
        expand_a_x1::<P8, K, L>(tessera_cpu::Portable, X1, rho, &mut a1);
        expand_a_x4::<P8, K, L>(tessera_cpu::Portable, X1, k4, rho, &mut a2);
        assert!(a1 == a2, "ExpandA {K} x {L} on {}", k4.name());
        let (mut s1, mut s2) = ([[0i32; 256]; L], [[0i32; 256]; K]);
        let (mut u1, mut u2) = ([[1i32; 256]; L], [[1i32; 256]; K]);
        expand_s_x1::<P8, P, K, L>(tessera_cpu::Portable, X1, seed, &mut s1, &mut s2);
        expand_s_x4::<P8, P, K, L>(tessera_cpu::Portable, X1, k4, seed, &mut u1, &mut u2);
        assert!(s1 == u1 && s2 == u2, "ExpandS {K}, {L} on {}", k4.name());
    }

    /// The four-rejection loop past its first squeeze (started with one block, where eta 2
    /// falls short about half the time and eta 4 always), against the one-way sampler.
    fn continuation<P: Params>(k4: X4Backend, rho1: &[u8; 64]) {
        for base in (0u16..16).step_by(4) {
            let nonces = [base, base + 1, base + 2, base + 3];
            let s = seeds::<66>(rho1, nonces);
            let mut out = [[0i32; 256]; 4];
            let step = SSampler::<P8, P> {
                t: tessera_cpu::Portable,
                x1: X1Backend::Portable,
                k4,
                rho1,
                _p: core::marker::PhantomData,
            };
            rej_x4::<66, { 2 * RATE256 }, true>(k4, RATE256, &s, RATE256, &mut out, &step);
            for (nonce, o) in nonces.into_iter().zip(&out) {
                let mut e = [0i32; 256];
                rej_bounded::<P8, P>(
                    tessera_cpu::Portable,
                    X1Backend::Portable,
                    rho1,
                    nonce,
                    &mut e,
                );
                assert!(*o == e, "eta {} nonce {nonce} on {}", P::ETA, k4.name());
            }
        }
    }

    /// The four-way samplers equal the one-way ones (FIPS 204 as written) on every four-way
    /// Keccak this CPU has: batches of four, of two and three (idle ways), a lone polynomial,
    /// every eta and gamma1, and the rejection loop's continuation.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "hundreds of portable permutations; ACVP covers it natively"
    )]
    fn four_way_samplers_match_one_way() {
        let seed: [u8; 64] = core::array::from_fn(|i| (i as u8).wrapping_mul(29) ^ 0xA5);
        for k4 in X4Backend::all_available() {
            mask::<Params44, 1>(k4, &seed, 0);
            mask::<Params44, 2>(k4, &seed, 7);
            mask::<Params44, 4>(k4, &seed, 8);
            mask::<Params65, 3>(k4, &seed, 5);
            mask::<Params65, 5>(k4, &seed, 813 * 5);
            mask::<Params87, 7>(k4, &seed, 14);
            mask::<Params87, 9>(k4, &seed, 0);
            expand::<Params44, 4, 4>(k4, &seed);
            expand::<Params65, 6, 5>(k4, &seed);
            expand::<Params87, 8, 7>(k4, &seed);
            expand::<Params44, 1, 1>(k4, &seed);
            expand::<Params65, 1, 2>(k4, &seed);
            expand::<Params87, 3, 2>(k4, &seed);
            continuation::<Params44>(k4, &seed);
            continuation::<Params65>(k4, &seed);
        }
    }

    /// SampleInBall as FIPS 204 writes it (Algorithm 29, the implementation this crate had
    /// before it was made constant time: it branches on and indexes with the stream), from
    /// the stream `read`: the reference for [`ball_from_stream`].
    fn sample_in_ball_ref<P: Params>(mut read: impl FnMut(&mut [u8]), c: &mut Poly) {
        let mut buf = [0u8; 136];
        read(&mut buf);
        let signs = u64::from_le_bytes(buf[..8].try_into().unwrap_or([0; 8]));
        let mut pos = 8;
        *c = [0; 256];
        for i in 256 - P::TAU..256 {
            let j = loop {
                if pos == buf.len() {
                    read(&mut buf);
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

    /// The SHAKE256 stream of `c_tilde`, as [`sample_in_ball`] reads it.
    fn shake_reader(c_tilde: &[u8]) -> impl FnMut(&mut [u8]) {
        let mut xof = Shake256::new_with_backend(X1)
            .update(c_tilde)
            .finalize_xof();
        move |b: &mut [u8]| xof.read(b)
    }

    /// A stream that gives `head`, then bytes `17 m + 5` (m counting on from the end of the
    /// head; every residue mod 256, so every step ends).
    fn head_reader(head: &[u8]) -> impl FnMut(&mut [u8]) + '_ {
        let mut at = 0usize;
        move |b: &mut [u8]| {
            for x in b {
                *x = head
                    .get(at)
                    .copied()
                    .unwrap_or_else(|| (at.wrapping_mul(17) + 5) as u8);
                at += 1;
            }
        }
    }

    fn ball_matches<P: Params>(c_tilde: &[u8], head: &[u8]) {
        let (mut a, mut b) = ([7i32; 256], [9i32; 256]);
        sample_in_ball::<P>(X1, &c_tilde[..P::CT_LEN], &mut a);
        sample_in_ball_ref::<P>(shake_reader(&c_tilde[..P::CT_LEN]), &mut b);
        assert!(a == b, "SampleInBall tau {} c-tilde {c_tilde:02x?}", P::TAU);
        assert_eq!(a.iter().filter(|&&x| x != 0).count(), P::TAU);
        ball_from_stream::<P>(head_reader(head), &mut a);
        sample_in_ball_ref::<P>(head_reader(head), &mut b);
        assert!(a == b, "SampleInBall tau {} stream {head:02x?}", P::TAU);
    }

    /// Streams that exhaust the fixed candidates: 8 sign bytes, then 128 or more bytes above
    /// every step's bound until the last steps (255 is accepted only at the last step), so
    /// the stream is read on past the fixed block (the branch taken with probability below
    /// 2^-87).
    #[test]
    fn sample_in_ball_past_the_fixed_block() {
        // Miri interprets every masked step: one length there (the fallback path's code is
        // the same for every length).
        let extras: &[usize] = if cfg!(miri) {
            &[7]
        } else {
            &[0, 1, 7, 60, 200, 400]
        };
        for &extra in extras {
            let mut head = [0xA5u8; 8].to_vec();
            head.extend(core::iter::repeat_n(255u8, 128 + extra));
            let ct = [0u8; 64];
            ball_matches::<Params44>(&ct, &head);
            if !cfg!(miri) {
                ball_matches::<Params65>(&ct, &head);
                ball_matches::<Params87>(&ct, &head);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: if cfg!(miri) { 1 } else { 3000 },
            // No failure file: Miri's isolation has no current directory to resolve it in.
            failure_persistence: None,
            ..Default::default()
        })]

        /// The constant-time SampleInBall equals Algorithm 29 on random c-tilde of every
        /// parameter set (tau 39, 49, 60), and on random streams biased towards rejected
        /// candidates (bytes near 255) of any length up to 600 bytes, which run past the fixed
        /// block whenever they reject more than `128 - tau` candidates.
        #[test]
        fn sample_in_ball_matches_fips204(
            c_tilde in proptest::collection::vec(proptest::prelude::any::<u8>(), 64),
            head in proptest::collection::vec(
                proptest::prop_oneof![proptest::prelude::any::<u8>(), 190u8..=255u8, 250u8..=255u8],
                0..600,
            ),
        ) {
            ball_matches::<Params44>(&c_tilde, &head);
            ball_matches::<Params65>(&c_tilde, &head);
            ball_matches::<Params87>(&c_tilde, &head);
        }
    }
}
