//! Shared by the integration tests: the length strategies, every single-state function on one
//! backend in one call, and the multi-way SHAKE types behind one generic interface.

#![allow(dead_code)]

use proptest::prelude::*;
use tessera_keccak::testing::{X1Backend, X4Backend};
use tessera_keccak::{
    Error, Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake128x2, Shake128x4, Shake256,
    Shake256x2, Shake256x4, TurboShake128, TurboShake256,
};
use tessera_testkit::strategies::len_near_blocks;

/// Lengths in `0..=max` weighted at the block boundaries of every Keccak rate this crate uses:
/// 168 (SHAKE128, TurboSHAKE128), 144 (SHA3-224), 136 (SHA3-256, SHAKE256, TurboSHAKE256),
/// 104 (SHA3-384) and 72 (SHA3-512).
pub fn len_near_every_rate(max: usize) -> impl Strategy<Value = usize> {
    prop_oneof![
        len_near_blocks(168, max),
        len_near_blocks(144, max),
        len_near_blocks(136, max),
        len_near_blocks(104, max),
        len_near_blocks(72, max),
    ]
}

/// Byte strings whose length follows [`len_near_every_rate`].
pub fn bytes_near_every_rate(max: usize) -> impl Strategy<Value = Vec<u8>> {
    len_near_every_rate(max).prop_flat_map(|n| proptest::collection::vec(any::<u8>(), n))
}

/// Every single-state function on backend `be`, the message absorbed as the pieces of `parts`
/// (one `update` each): the four SHA-3 digests, then `n` bytes each of SHAKE128, SHAKE256,
/// TurboSHAKE128 with domain `domains[0]` and TurboSHAKE256 with domain `domains[1]`,
/// concatenated.
pub fn every_x1(be: X1Backend, parts: &[&[u8]], n: usize, domains: [u8; 2]) -> Vec<u8> {
    // `$h` with every piece absorbed.
    macro_rules! absorbed {
        ($h:expr) => {{
            let mut h = $h;
            for p in parts {
                h.update(p);
            }
            h
        }};
    }
    let mut out = Vec::new();
    out.extend(absorbed!(Sha3_224::new_with_backend(be)).finalize());
    out.extend(absorbed!(Sha3_256::new_with_backend(be)).finalize());
    out.extend(absorbed!(Sha3_384::new_with_backend(be)).finalize());
    out.extend(absorbed!(Sha3_512::new_with_backend(be)).finalize());
    let [d128, d256] = domains;
    let xofs = [
        absorbed!(Shake128::new_with_backend(be)).finalize_xof(),
        absorbed!(Shake256::new_with_backend(be)).finalize_xof(),
        absorbed!(TurboShake128::new_with_backend(be, d128).unwrap()).finalize_xof(),
        absorbed!(TurboShake256::new_with_backend(be, d256).unwrap()).finalize_xof(),
    ];
    for mut xof in xofs {
        let mut o = vec![0u8; n];
        xof.read(&mut o);
        out.extend(o);
    }
    out
}

/// A multi-way SHAKE type (`Shake128x4`, `Shake256x2`, ...) as a `W`-way sponge of rate
/// `RATE`, so that one generic helper serves every width and rate.
pub trait MultiShake<const W: usize>: Sized {
    /// Bytes per squeezed block: 168 for SHAKE128, 136 for SHAKE256.
    const RATE: usize;
    fn new_with_backend(be: X4Backend, inputs: [&[u8]; W]) -> Result<Self, Error>;
    fn squeeze_blocks(&mut self, outs: [&mut [u8]; W]) -> Result<(), Error>;
}

macro_rules! multi_shake {
    ($($t:ty: $ways:literal ways, rate $rate:literal;)*) => {$(
        impl MultiShake<$ways> for $t {
            const RATE: usize = $rate;
            fn new_with_backend(be: X4Backend, inputs: [&[u8]; $ways]) -> Result<Self, Error> {
                <$t>::new_with_backend(be, inputs)
            }
            fn squeeze_blocks(&mut self, outs: [&mut [u8]; $ways]) -> Result<(), Error> {
                <$t>::squeeze_blocks(self, outs)
            }
        }
    )*};
}

multi_shake! {
    Shake128x4: 4 ways, rate 168;
    Shake256x4: 4 ways, rate 136;
    Shake128x2: 2 ways, rate 168;
    Shake256x2: 2 ways, rate 136;
}

/// `blocks` blocks squeezed from every way of `X` on backend `be`, way `w` absorbing
/// `inputs[w]`.
pub fn multi_one_shot<const W: usize, X: MultiShake<W>>(
    be: X4Backend,
    inputs: [&[u8]; W],
    blocks: usize,
) -> [Vec<u8>; W] {
    let mut o: [Vec<u8>; W] = core::array::from_fn(|_| vec![0u8; blocks * X::RATE]);
    X::new_with_backend(be, inputs)
        .unwrap()
        .squeeze_blocks(o.each_mut().map(|v| v.as_mut_slice()))
        .unwrap();
    o
}
