//! GCM framing (NIST SP 800-38D section 7), generic over a backend's AES and GHASH.
//!
//! Everything here is `#[inline(always)]` so that a backend's target-feature island compiles the
//! whole operation for its ISA.

#![forbid(unsafe_code)]

/// What a backend provides: one AES block, GHASH, and the bulk CTR + GHASH pass.
pub(crate) trait GcmOps {
    /// `block = E_K(block)`.
    fn encrypt_block(&self, block: &mut [u8; 16]);
    /// `y = GHASH_H(y, data || 0-pad to a multiple of 16)`.
    fn ghash(&self, y: &mut [u8; 16], data: &[u8]);
    /// CTR mode over `buf` from counter block `ctr` (32-bit wrapping increment of the last four
    /// bytes, big-endian) with the ciphertext (zero-padded) absorbed into `y`: sealing (`SEAL`)
    /// encrypts `buf` and absorbs the result, opening absorbs `buf` and decrypts it.
    fn ctr_ghash<const SEAL: bool>(&self, ctr: &[u8; 16], y: &mut [u8; 16], buf: &mut [u8]);
}

/// The pre-counter block `J0` (SP 800-38D algorithm 4 step 2).
#[inline(always)]
fn j0<O: GcmOps>(o: &O, nonce: &[u8]) -> [u8; 16] {
    let mut j = [0u8; 16];
    if nonce.len() == 12 {
        j[..12].copy_from_slice(nonce);
        j[15] = 1;
    } else {
        o.ghash(&mut j, nonce);
        let mut len = [0u8; 16];
        len[8..].copy_from_slice(&((nonce.len() as u64) * 8).to_be_bytes());
        o.ghash(&mut j, &len);
    }
    j
}

#[inline(always)]
fn inc32(mut b: [u8; 16]) -> [u8; 16] {
    let c = u32::from_be_bytes([b[12], b[13], b[14], b[15]]).wrapping_add(1);
    b[12..].copy_from_slice(&c.to_be_bytes());
    b
}

#[inline(always)]
fn finish<O: GcmOps>(
    o: &O,
    j0: [u8; 16],
    mut y: [u8; 16],
    aad_len: usize,
    ct_len: usize,
) -> [u8; 16] {
    let mut len = [0u8; 16];
    len[..8].copy_from_slice(&((aad_len as u64) * 8).to_be_bytes());
    len[8..].copy_from_slice(&((ct_len as u64) * 8).to_be_bytes());
    o.ghash(&mut y, &len);
    let mut ek = j0;
    o.encrypt_block(&mut ek);
    for (t, e) in y.iter_mut().zip(ek) {
        *t ^= e;
    }
    y
}

/// Where the pre-counter block comes from: a nonce (the API), or given directly (tests that
/// need a counter about to wrap).
#[derive(Clone, Copy)]
pub(crate) enum Iv<'a> {
    Nonce(&'a [u8]),
    /// Built only by the test hook `__seal_with_j0` (`--cfg tessera_test_hooks`) and unit tests.
    #[cfg_attr(not(any(test, tessera_test_hooks)), allow(dead_code))]
    J0(&'a [u8; 16]),
}

#[inline(always)]
fn pre_counter<O: GcmOps>(o: &O, iv: Iv<'_>) -> [u8; 16] {
    match iv {
        Iv::Nonce(n) => j0(o, n),
        Iv::J0(j) => *j,
    }
}

/// GCM-AE (`SEAL`; SP 800-38D algorithm 4): encrypts `buf` in place and returns the tag; or
/// GCM-AD (algorithm 5) without the comparison: decrypts `buf` in place and returns the
/// expected tag, which the caller compares in constant time (clearing `buf` on mismatch).
/// Lengths are checked by the caller. One entry point for a backend island that serves both.
#[inline(always)]
pub(crate) fn run<const SEAL: bool, O: GcmOps>(
    o: &O,
    iv: Iv<'_>,
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    let j = pre_counter(o, iv);
    let mut y = [0u8; 16];
    o.ghash(&mut y, aad);
    o.ctr_ghash::<SEAL>(&inc32(j), &mut y, buf);
    finish(o, j, y, aad.len(), buf.len())
}
