//! The nonce generator of RFC 6979 section 3.2: HMAC_DRBG with HMAC-SHA256, seeded with the
//! private key and the reduced message hash, and (section 3.6) optionally with additional data
//! `k'` appended to the seed (hedged signing).
//!
//! For P-256 with SHA-256, `qlen = hlen = 256`, so one HMAC output is one candidate: `T = V`
//! and `k = bits2int(T)`, accepted when `1 <= k <= n - 1` (step h.3), else the state is
//! updated (`K = HMAC_K(V || 0x00)`, `V = HMAC_K(V)`) and a new candidate drawn. The state `K`,
//! `V` and every HMAC output are wiped.
#![forbid(unsafe_code)]

use tessera_sha2::{Hmac, HmacKey, Sha256};
use zeroize::Zeroize;

use crate::scalar::Scalar;

/// `HMAC_K(parts[0] || parts[1] || ...)`, `K` given by its key schedule.
fn hmac(key: &HmacKey<Sha256>, parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Hmac::from_key(key);
    for p in parts {
        h.update(p);
    }
    h.finalize()
}

/// The key schedule of `K` (the bytes are wiped; the schedule wipes itself on drop).
fn key(mut k: [u8; 32]) -> HmacKey<Sha256> {
    let key = HmacKey::new(&k);
    k.zeroize();
    key
}

/// The HMAC_DRBG state `(K, V)` of RFC 6979 section 3.2, `K` held as its HMAC key schedule.
/// Wiped on drop.
pub(crate) struct Drbg {
    k: HmacKey<Sha256>,
    v: [u8; 32],
    /// Whether a candidate was drawn: the next draw first applies step h.3's update.
    drawn: bool,
}

impl Drbg {
    /// Steps b to g: `x` is `int2octets(d)`, `h` is `bits2octets(h1)` (the hash reduced mod
    /// `n`), `extra` the additional data `k'` of section 3.6 (empty for deterministic
    /// signatures).
    pub(crate) fn new(x: &[u8; 32], h: &[u8; 32], extra: &[u8]) -> Self {
        let mut d = Drbg {
            k: key([0u8; 32]),
            v: [1u8; 32],
            drawn: false,
        };
        for sep in [0u8, 1u8] {
            d.k = key(hmac(&d.k, &[&d.v, &[sep], x, h, extra]));
            d.v = hmac(&d.k, &[&d.v]);
        }
        d
    }

    /// Step h: the next candidate `k` in `[1, n - 1]`. A later call (the signature needed
    /// another `k`: r = 0 or s = 0, section 3.4) first updates the state as step h.3 does. The
    /// rejection of a candidate outside the range (probability below 2^-32) is the only branch
    /// on it, and it releases nothing about the accepted one.
    pub(crate) fn next_k(&mut self) -> Scalar {
        loop {
            if self.drawn {
                self.k = key(hmac(&self.k, &[&self.v, &[0u8]]));
                self.v = hmac(&self.k, &[&self.v]);
            }
            self.drawn = true;
            self.v = hmac(&self.k, &[&self.v]);
            let (mut k, in_range) = Scalar::from_be_bytes_checked(&self.v);
            let ok = in_range & !k.is_zero();
            if tessera_cpu::public_bool(bool::from(ok)) {
                return k;
            }
            k.zeroize();
        }
    }
}

impl Drop for Drbg {
    fn drop(&mut self) {
        self.v.zeroize();
    }
}
