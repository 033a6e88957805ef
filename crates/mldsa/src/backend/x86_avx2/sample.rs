//! The rejection steps of RejNTTPoly and RejBoundedPoly on AVX2, and the RejNTTPoly island.

use core::arch::x86_64::*;

use tessera_cpu::X86Avx2;

use crate::backend::portable::P8;
use crate::unit::{N, Q, Unit};

/// `vpermd` indices that move the lanes selected by an 8-bit mask to the front, in order, as
/// eight 4-bit fields of a `u32` (unused fields 0): the compaction step of RejNTTPoly. Built
/// at compile time.
pub(super) const REJ_IDX: [u32; 256] = {
    let mut tab = [0u32; 256];
    let mut m = 0;
    while m < 256 {
        let (pos, n) = tessera_cpu::compaction::lanes(m);
        let mut k = 0;
        while k < n {
            tab[m] |= (pos[k] as u32) << (4 * k);
            k += 1;
        }
        m += 1;
    }
    tab
};

/// The rejection step of RejNTTPoly (FIPS 204 Algorithm 30 with CoeffFromThreeBytes,
/// Algorithm 14) on AVX2: 24 bytes (8 candidates) per step, spread to one candidate per dword
/// (`vpermd` then `vpshufb`), masked to 23 bits, compared with q, and the accepted ones
/// compacted with [`REJ_IDX`] (indexed by the acceptance mask: public data, the matrix is
/// public) and stored 8 lanes at a time, the lanes past the accepted ones zeroed. The
/// remaining bytes (fewer than 24, or when fewer than 8 free slots remain) go through the
/// portable loop, which stops at 256. Same results as the portable loop; lanes of `out` past
/// the final `*n` (up to 7) may be overwritten with zeros. Out: `[0, q)`.
#[inline(always)]
pub(super) fn rej_uniform(_t: X86Avx2, bytes: &[u8], out: &mut [i32; 256], n: &mut usize) {
    let mut pos = 0;
    while pos + 24 <= bytes.len() && *n + 8 <= 256 {
        let mut tail = [0u8; 32];
        let win: &[u8; 32] = match bytes.get(pos..pos + 32) {
            Some(s) => s.try_into().unwrap_or(&tail),
            None => {
                tail[..24].copy_from_slice(&bytes[pos..pos + 24]);
                &tail
            }
        };
        // SAFETY: AVX2 proven by `_t`; `win` is 32 readable bytes, unaligned load.
        let (c, good) = unsafe {
            let v = _mm256_loadu_si256(win.as_ptr().cast());
            // Bytes 0..12 to the low half, 12..24 to the high half.
            let v = _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0));
            let z = -1;
            let v = _mm256_shuffle_epi8(
                v,
                _mm256_setr_epi8(
                    0, 1, 2, z, 3, 4, 5, z, 6, 7, 8, z, 9, 10, 11, z, //
                    0, 1, 2, z, 3, 4, 5, z, 6, 7, 8, z, 9, 10, 11, z,
                ),
            );
            let c = _mm256_and_si256(v, _mm256_set1_epi32(0x7F_FFFF));
            let good = _mm256_cmpgt_epi32(_mm256_set1_epi32(Q), c);
            (c, _mm256_movemask_ps(_mm256_castsi256_ps(good)) as u32)
        };
        let m = good as usize & 0xFF;
        let k = good.count_ones() as i32;
        let dst: &mut [i32; 8] = (&mut out[*n..*n + 8])
            .try_into()
            .unwrap_or_else(|_| unreachable!());
        // SAFETY: AVX2 proven by `_t`; `dst` is 32 writable bytes, unaligned store.
        unsafe {
            let idx = _mm256_srlv_epi32(
                _mm256_set1_epi32(REJ_IDX[m] as i32),
                _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28),
            );
            let idx = _mm256_and_si256(idx, _mm256_set1_epi32(7));
            let r = _mm256_permutevar8x32_epi32(c, idx);
            let keep = _mm256_cmpgt_epi32(
                _mm256_set1_epi32(k),
                _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
            );
            _mm256_storeu_si256(dst.as_mut_ptr().cast(), _mm256_and_si256(r, keep));
        }
        *n += k as usize;
        pos += 24;
    }
    P8::rej_uniform(tessera_cpu::Portable, &bytes[pos..], out, n)
}

/// The rejection step of RejBoundedPoly (FIPS 204 Algorithm 31 with CoeffFromHalfByte,
/// Algorithm 15) on AVX2, the portable loop's results: per 32-byte chunk, 4 bytes (8
/// half-bytes, low half first) per unit, the values (`2 - z mod 5` or `4 - z`) computed in
/// every lane without a branch, and the 64-bit accept mask of the chunk assembled from the
/// lane comparisons. As in the portable loop, the mask (which half-bytes are rejected, not
/// their values) is released as public (`crate::dsa::public_u64`) before anything branches on
/// it or indexes with it: the accepted lanes of each unit are then compacted with `vpermd`
/// and [`REJ_IDX`] indexed by the unit's 8 mask bits and stored with a lane mask (nothing
/// past the accepted lanes is written); a unit with fewer than 8 free slots left goes lane by
/// lane (indexed by the public lane number), stopping at 256. Out: `[-ETA, ETA]`.
#[inline(always)]
pub(super) fn rej_eta<const ETA: i32>(
    _t: X86Avx2,
    bytes: &[u8],
    out: &mut [i32; 256],
    n: &mut usize,
) {
    use zeroize::Zeroize;
    // Half-bytes `>= BOUND` are rejected (15 for eta 2, 9 for eta 4).
    let bound = if ETA == 2 { 15 } else { 9 };
    let mut win = [0u8; 32];
    let mut vals = [[0i32; N]; 8];
    for chunk in bytes.chunks(32) {
        if *n >= 256 {
            break;
        }
        let len = chunk.len();
        win[..len].copy_from_slice(chunk);
        win[len..].fill(0);
        let units = len.div_ceil(4);
        let mut accept = 0u64;
        for (g, val) in vals.iter_mut().enumerate().take(units) {
            let mut w = [0u8; 4];
            w.copy_from_slice(&win[4 * g..4 * g + 4]);
            let w = u32::from_le_bytes(w);
            // SAFETY: AVX2 proven by `_t`; `val` is 32 writable bytes, unaligned store.
            let m = unsafe {
                let z = -1;
                // Lanes 2i and 2i + 1 take byte i of the 4; the odd lanes its high half.
                let v = _mm256_shuffle_epi8(
                    _mm256_set1_epi32(w as i32),
                    _mm256_setr_epi8(
                        0, z, z, z, 0, z, z, z, 1, z, z, z, 1, z, z, z, //
                        2, z, z, z, 2, z, z, z, 3, z, z, z, 3, z, z, z,
                    ),
                );
                let v = _mm256_srlv_epi32(v, _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4));
                let zv = _mm256_and_si256(v, _mm256_set1_epi32(15));
                let ok = _mm256_cmpgt_epi32(_mm256_set1_epi32(bound), zv);
                let r = if ETA == 2 {
                    // z mod 5 as z - 5 floor(z * 205 / 1024) (z * 205 < 2^16: a 16-bit
                    // product in the low half of each lane, whose high half is 0).
                    let q5 =
                        _mm256_srli_epi32::<10>(_mm256_mullo_epi16(zv, _mm256_set1_epi32(205)));
                    let m5 = _mm256_add_epi32(q5, _mm256_slli_epi32::<2>(q5));
                    _mm256_sub_epi32(_mm256_set1_epi32(2), _mm256_sub_epi32(zv, m5))
                } else {
                    _mm256_sub_epi32(_mm256_set1_epi32(4), zv)
                };
                _mm256_storeu_si256(val.as_mut_ptr().cast(), r);
                _mm256_movemask_ps(_mm256_castsi256_ps(ok)) as u32
            };
            accept |= u64::from(m) << (8 * g);
        }
        if len < 32 {
            accept &= (1u64 << (2 * len)) - 1;
        }
        // Which half-bytes are rejected is independent of the accepted values: released as
        // public (the valgrind check's hook, see `crate::dsa::public`) before any branch or index.
        let accept = crate::dsa::public_u64(accept);
        for (g, val) in vals.iter().enumerate().take(units) {
            let m = ((accept >> (8 * g)) & 0xFF) as usize;
            if *n + 8 <= 256 {
                let k = m.count_ones() as i32;
                let dst: &mut [i32; 8] = (&mut out[*n..*n + 8])
                    .try_into()
                    .unwrap_or_else(|_| unreachable!());
                // SAFETY: AVX2 proven by `_t`; `val` is 32 readable bytes and `dst` 32
                // writable bytes, unaligned load and masked store.
                unsafe {
                    let idx = _mm256_srlv_epi32(
                        _mm256_set1_epi32(REJ_IDX[m] as i32),
                        _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28),
                    );
                    let idx = _mm256_and_si256(idx, _mm256_set1_epi32(7));
                    let r =
                        _mm256_permutevar8x32_epi32(_mm256_loadu_si256(val.as_ptr().cast()), idx);
                    let keep = _mm256_cmpgt_epi32(
                        _mm256_set1_epi32(k),
                        _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                    );
                    _mm256_maskstore_epi32(dst.as_mut_ptr(), keep, r);
                }
                *n += k as usize;
            } else {
                for (j, &x) in val.iter().enumerate() {
                    if *n >= 256 {
                        break;
                    }
                    if (m >> j) & 1 == 1 {
                        out[*n] = x;
                        *n += 1;
                    }
                }
            }
        }
    }
    win.zeroize();
    vals.zeroize();
}

tessera_cpu::island! {
    /// [`rej_uniform`] compiled for AVX2 once (see [`Unit::rej_uniform`] on [`V`]).
    pub(super) fn rej_uniform_island(t: X86Avx2, bytes: &[u8], out: &mut [i32; 256], n: &mut usize) {
        rej_uniform(t, bytes, out, n)
    }
}
