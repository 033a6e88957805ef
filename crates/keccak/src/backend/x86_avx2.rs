//! AVX2 backend: four independent Keccak states, lane `i` of state `w` in 64-bit element `w`
//! of ymm register `i`. The bodies here are `#[inline(always)]` and compile into the calling
//! island: the `X86Avx2` row's, the `X86Avx512` row's (`x86_avx512.rs`, the same code with
//! AVX-512 F+VL), and a lattice crate's own AVX2 island through `x4::f1600_x4_avx2`.

use core::arch::x86_64::*;

use crate::keccak::{Lane, keccak_p_unrolled};
use crate::perm::X4Perm;

/// Little-endian lane `i` of a block.
#[inline(always)]
fn lane(block: &[u8], i: usize) -> i64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&block[8 * i..8 * i + 8]);
    i64::from_le_bytes(b)
}

/// Four lanes in a ymm register. The zero-sized token field makes the safe `Lane` methods
/// sound by construction: a `Ymm` cannot exist unless AVX2 was proven available.
#[derive(Clone, Copy)]
struct Ymm(__m256i, tessera_cpu::X86Avx2);

impl Lane for Ymm {
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        // SAFETY: a `Ymm` carries the AVX2 token (see the type), so AVX2 is available.
        Ymm(unsafe { _mm256_xor_si256(self.0, o.0) }, self.1)
    }
    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        Ymm(unsafe { _mm256_andnot_si256(self.0, o.0) }, self.1)
    }
    #[inline(always)]
    fn rotl(self, n: u32) -> Self {
        // SAFETY: AVX2 proven by the token in `self`. `n` is a constant once inlined into the round (rho offsets and 1),
        // so the shifts become immediate forms; rotations by whole bytes are one byte shuffle.
        Ymm(
            unsafe {
                match n {
                    8 => _mm256_shuffle_epi8(
                        self.0,
                        _mm256_set_epi8(
                            14, 13, 12, 11, 10, 9, 8, 15, 6, 5, 4, 3, 2, 1, 0, 7, 14, 13, 12, 11,
                            10, 9, 8, 15, 6, 5, 4, 3, 2, 1, 0, 7,
                        ),
                    ),
                    56 => _mm256_shuffle_epi8(
                        self.0,
                        _mm256_set_epi8(
                            8, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5, 4, 3, 2, 1, 8, 15, 14, 13,
                            12, 11, 10, 9, 0, 7, 6, 5, 4, 3, 2, 1,
                        ),
                    ),
                    _ => _mm256_or_si256(
                        _mm256_sll_epi64(self.0, _mm_cvtsi32_si128(n as i32)),
                        _mm256_srl_epi64(self.0, _mm_cvtsi32_si128(64 - n as i32)),
                    ),
                }
            },
            self.1,
        )
    }
    #[inline(always)]
    fn xor_rc(self, rc: u64) -> Self {
        // SAFETY: AVX2 proven by the token in `self`.
        Ymm(
            unsafe { _mm256_xor_si256(self.0, _mm256_set1_epi64x(rc as i64)) },
            self.1,
        )
    }
}

impl Ymm {
    #[inline(always)]
    fn zero(t: tessera_cpu::X86Avx2) -> Self {
        // SAFETY: the token proves AVX2 is available.
        Ymm(unsafe { _mm256_setzero_si256() }, t)
    }
    /// Lanes `[w0, w1, w2, w3]` (element `w` of the register).
    #[inline(always)]
    fn from_lanes(t: tessera_cpu::X86Avx2, w: [i64; 4]) -> Self {
        // SAFETY: the token proves AVX2 is available.
        Ymm(unsafe { _mm256_set_epi64x(w[3], w[2], w[1], w[0]) }, t)
    }
}

/// Loads the four interleaved states into registers.
#[inline(always)]
fn load(t: tessera_cpu::X86Avx2, state: &[[u64; 4]; 25]) -> [Ymm; 25] {
    let mut a = [Ymm::zero(t); 25];
    for (r, l) in a.iter_mut().zip(state.iter()) {
        // SAFETY: AVX2 proven by `t`; `l` is a valid, readable [u64; 4] (32 bytes) and loadu
        // has no alignment requirement.
        r.0 = unsafe { _mm256_loadu_si256(l.as_ptr().cast()) };
    }
    a
}

/// Stores the registers back into the four interleaved states.
#[inline(always)]
fn store(a: &[Ymm; 25], state: &mut [[u64; 4]; 25]) {
    for (r, l) in a.iter().zip(state.iter_mut()) {
        // SAFETY: AVX2 proven by the token in `r`; `l` is a valid, writable [u64; 4] and
        // storeu has no alignment requirement.
        unsafe { _mm256_storeu_si256(l.as_mut_ptr().cast(), r.0) };
    }
}

/// Keccak-p on four interleaved states, compiled into the calling island.
#[inline(always)]
pub(crate) fn permute_x4_body(t: tessera_cpu::X86Avx2, state: &mut [[u64; 4]; 25], rounds: usize) {
    let mut a = load(t, state);
    keccak_p_unrolled(&mut a, rounds);
    store(&a, state);
}

/// Absorbs the whole `R`-byte blocks of four equal-length inputs, the states kept in ymm
/// registers from one block to the next; returns the bytes consumed per input.
#[inline(always)]
fn absorb_x4_rate<const R: usize>(
    t: tessera_cpu::X86Avx2,
    state: &mut [[u64; 4]; 25],
    inputs: [&[u8]; 4],
) -> usize {
    let mut a = load(t, state);
    let blocks = inputs[0].len() / R;
    for k in 0..blocks {
        let [b0, b1, b2, b3] = inputs.map(|inp| &inp[k * R..(k + 1) * R]);
        let mut i = 0;
        while i < R / 8 {
            let v = Ymm::from_lanes(t, [lane(b0, i), lane(b1, i), lane(b2, i), lane(b3, i)]);
            a[i] = a[i].xor(v);
            i += 1;
        }
        keccak_p_unrolled(&mut a, 24);
    }
    store(&a, state);
    blocks * R
}

/// Absorbs the whole `rate`-byte blocks of four equal-length inputs (Keccak-f, 24 rounds);
/// returns the bytes consumed per input (0 for a rate other than SHAKE's). Compiled into the
/// calling island.
#[inline(always)]
pub(crate) fn absorb_x4_body(
    t: tessera_cpu::X86Avx2,
    state: &mut [[u64; 4]; 25],
    inputs: [&[u8]; 4],
    rate: usize,
) -> usize {
    match rate {
        168 => absorb_x4_rate::<168>(t, state, inputs),
        136 => absorb_x4_rate::<136>(t, state, inputs),
        _ => 0,
    }
}

/// The four-way permutation for the `X86Avx2` token.
pub(crate) struct Avx2X4;

impl X4Perm for Avx2X4 {
    type Token = tessera_cpu::X86Avx2;

    /// All four ways are permuted (one ymm register per lane holds them all).
    #[inline(always)]
    fn permute_x4(t: tessera_cpu::X86Avx2, state: &mut [[u64; 4]; 25], rounds: usize, _: usize) {
        permute_x4_body(t, state, rounds)
    }

    #[inline(always)]
    fn absorb_x4(
        t: tessera_cpu::X86Avx2,
        state: &mut [[u64; 4]; 25],
        inputs: [&[u8]; 4],
        rate: usize,
    ) -> usize {
        absorb_x4_body(t, state, inputs, rate)
    }
}
