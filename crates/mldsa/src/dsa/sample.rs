//! The four-way sampling framework: seeds, batching of polynomials four at a time, and the four-way rejection loop.
#![forbid(unsafe_code)]

use tessera_keccak::X4Backend;

use crate::poly::Poly;
use crate::xof4::X4;

/// SHAKE128 block size.
pub(crate) const RATE128: usize = 168;
/// SHAKE256 block size.
pub(crate) const RATE256: usize = 136;

/// The sampler seeds `prefix || IntegerToBytes(key, 2)` of four ways (`prefix` is `N - 2`
/// bytes). Every sampler of FIPS 204 appends two bytes: ExpandA `s || r` (key `s + 256 r`),
/// ExpandS and ExpandMask a little-endian nonce.
#[inline(always)]
pub(crate) fn seeds<const N: usize>(prefix: &[u8], keys: [u16; 4]) -> [[u8; N]; 4] {
    let mut out = [[0u8; N]; 4];
    for (o, k) in out.iter_mut().zip(keys) {
        o[..N - 2].copy_from_slice(prefix);
        o[N - 2..].copy_from_slice(&k.to_le_bytes());
    }
    out
}

/// The four ways' inputs of [`seeds`], for [`X4::absorb`].
#[inline(always)]
pub(crate) fn ins<const N: usize>(s: &[[u8; N]; 4]) -> [&[u8]; 4] {
    [&s[0], &s[1], &s[2], &s[3]]
}

/// The first `len` bytes of four buffers, for [`X4::squeeze`].
#[inline(always)]
pub(crate) fn ways<const B: usize>(buf: &mut [[u8; B]; 4], len: usize) -> [&mut [u8]; 4] {
    let [a, b, c, d] = buf;
    [&mut a[..len], &mut b[..len], &mut c[..len], &mut d[..len]]
}

/// The two samplers [`in_fours_with`] runs: one polynomial, or four side by side. Samplers
/// are structs with `#[inline(always)]` methods, not closures: a closure is compiled as a
/// function of its own without the calling island's target features (SIMD intrinsics in it
/// become calls), while inlined trait methods compile into the island.
pub(crate) trait FourWay {
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
pub(crate) fn in_fours_with<'a, S: FourWay>(
    polys: impl Iterator<Item = (u16, &'a mut Poly)>,
    s: &mut S,
) {
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
pub(crate) trait RejStep {
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
pub(crate) fn rej_x4<const N: usize, const B: usize, const SECRET: bool>(
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
