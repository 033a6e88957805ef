//! The secret scalar as the algorithms read it: RFC 7748 clamping, the ladder's swap bits and
//! the fixed-base path's signed radix-16 digits. Arithmetic only: no branch and no index
//! depends on the scalar.
#![forbid(unsafe_code)]

/// RFC 7748 section 5 `decodeScalar25519`: clear bits 0, 1, 2 and 255, set bit 254.
#[inline(always)]
pub(crate) fn clamp(k: &[u8; 32]) -> [u8; 32] {
    let mut s = *k;
    s[0] &= 248;
    s[31] &= 127;
    s[31] |= 64;
    s
}

/// Bit `i` of the clamped scalar `s` (arithmetic only; `i` is public).
#[inline(always)]
fn bit(s: &[u8; 32], i: usize) -> u8 {
    (s[i >> 3] >> (i & 7)) & 1
}

/// The swap before the ladder step of bit `i` (`3 <= i <= 254`): bit `i` XOR bit `i + 1`, the
/// RFC's `swap ^= k_t` after the previous step's swap has been undone (bit 255 is clear after
/// clamping).
#[inline(always)]
pub(crate) fn swap_before(s: &[u8; 32], i: usize) -> u8 {
    bit(s, i) ^ bit(s, i + 1)
}

/// The swap after the last step (of bit 3), before the three doublings: bit 3.
#[inline(always)]
pub(crate) fn last_swap(s: &[u8; 32]) -> u8 {
    bit(s, 3)
}

/// The 64 signed radix-16 digits of a clamped scalar (`< 2^255`): `e_i in [-8, 7]` for
/// `i < 63`, `e_63 in [0, 8]`. Arithmetic only (no branch on the scalar).
#[inline(always)]
pub(crate) fn recode(s: &[u8; 32]) -> [i8; 64] {
    let mut e = [0i8; 64];
    for (i, b) in s.iter().enumerate() {
        e[2 * i] = (b & 15) as i8;
        e[2 * i + 1] = (b >> 4) as i8;
    }
    let mut carry = 0i8;
    for d in e.iter_mut().take(63) {
        *d += carry;
        carry = (*d + 8) >> 4;
        *d -= carry << 4;
    }
    e[63] += carry;
    e
}
