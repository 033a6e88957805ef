//! SampleInBall (FIPS 204 Algorithm 29).
#![forbid(unsafe_code)]

use tessera_keccak::{Shake256, X1Backend};

use super::declassify::*;
use super::params::*;
use super::sample::*;
use crate::poly::Poly;

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
pub(crate) const BALL_BLOCKS: usize = 1;

/// `[0, 1, ..., N - 1]` as bytes: lane numbers for the masked writes of SampleInBall.
pub(crate) const fn lanes<const N: usize>() -> [u8; N] {
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
pub(crate) fn eq_mask(a: u8, b: u8) -> u8 {
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
pub(crate) fn ball_from_stream<P: Params>(mut read: impl FnMut(&mut [u8]), c: &mut Poly) {
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
