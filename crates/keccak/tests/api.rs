//! Behaviour of the public API on every backend: multi-way error paths (nothing written),
//! squeezing in several calls, clones taken mid-stream, repeated finalization and `std::io`.

use std::io::{self, Read, Write};

use tessera_keccak::testing::{X1Backend, X4Backend};
use tessera_keccak::{
    Error, Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake128x2, Shake128x4, Shake256,
    Shake256x2, Shake256x4, TurboShake128, TurboShake256,
};

/// A deterministic, non-periodic message.
fn msg(n: usize, seed: u32) -> Vec<u8> {
    (0..n as u32)
        .map(|i| ((i ^ seed).wrapping_mul(0x9E37_79B9) >> 13) as u8)
        .collect()
}

/// SHAKE on the portable single-state backend: the reference for the multi-way types.
fn shake_ref(rate: usize, m: &[u8], n: usize) -> Vec<u8> {
    let mut o = vec![0u8; n];
    match rate {
        168 => Shake128::new_with_backend(X1Backend::Portable)
            .update(m)
            .finalize_xof()
            .read(&mut o),
        136 => Shake256::new_with_backend(X1Backend::Portable)
            .update(m)
            .finalize_xof()
            .read(&mut o),
        _ => unreachable!(),
    }
    o
}

/// Runs the same checks on each multi-way type: `$ways` ways, rate `$rate`.
macro_rules! multi_checks {
    ($module:ident: $name:ident, $ways:literal, $rate:literal) => {
        /// The checks of one multi-way type.
        mod $module {
            use super::*;

            /// Squeeze errors: outputs of differing lengths (`LengthMismatch`, even when each is a
            /// whole number of blocks) and equal lengths that are not whole blocks
            /// (`NotBlockMultiple`); on each error no output is written, and the state is not
            /// advanced (the next good squeeze still gives the first block).
            #[test]
            fn errors_write_nothing() {
                const R: usize = $rate;
                let ins: Vec<Vec<u8>> = (0..$ways).map(|w| msg(50, w)).collect();
                let arr: [&[u8]; $ways] = core::array::from_fn(|w| &ins[w][..]);
                for be in tessera_testkit::available::<X4Backend>() {
                    // Absorb: inputs of differing lengths.
                    let mut uneven = arr;
                    let long = msg(51, 9);
                    uneven[$ways - 1] = &long;
                    assert!(
                        matches!(
                            $name::new_with_backend(be, uneven),
                            Err(Error::LengthMismatch)
                        ),
                        "{}",
                        be.name()
                    );

                    let mut x = $name::new_with_backend(be, arr).unwrap();
                    // Each length set: (per-way lengths, expected error).
                    let mut mismatch = [R; $ways];
                    mismatch[$ways - 1] = 2 * R;
                    let mut mismatch_partial = [R; $ways];
                    mismatch_partial[0] = R + 1;
                    let cases: [([usize; $ways], Error); 4] = [
                        (mismatch, Error::LengthMismatch),
                        (mismatch_partial, Error::LengthMismatch),
                        ([R + 1; $ways], Error::NotBlockMultiple),
                        ([R - 8; $ways], Error::NotBlockMultiple),
                    ];
                    for (lens, err) in cases {
                        let mut outs: Vec<Vec<u8>> =
                            lens.iter().map(|&n| vec![0x55u8; n]).collect();
                        let res = {
                            let mut it = outs.iter_mut();
                            let refs: [&mut [u8]; $ways] =
                                core::array::from_fn(|_| &mut it.next().unwrap()[..]);
                            x.squeeze_blocks(refs)
                        };
                        assert_eq!(res, Err(err), "{} {lens:?}", be.name());
                        for (w, o) in outs.iter().enumerate() {
                            assert!(
                                o.iter().all(|&b| b == 0x55),
                                "{} {lens:?}: way {w} written on error",
                                be.name()
                            );
                        }
                    }
                    // The failed calls did not advance the state.
                    let mut outs = [[0u8; R]; $ways];
                    {
                        let mut it = outs.iter_mut();
                        let refs: [&mut [u8]; $ways] =
                            core::array::from_fn(|_| &mut it.next().unwrap()[..]);
                        x.squeeze_blocks(refs).unwrap();
                    }
                    for w in 0..$ways {
                        assert_eq!(
                            &outs[w][..],
                            &shake_ref(R, &ins[w], R)[..],
                            "{} way {w}",
                            be.name()
                        );
                    }
                }
            }

            /// Squeezing 0, 1, 2, 0, 1 blocks in five calls gives the same stream as one call
            /// (and as single-state SHAKE).
            #[test]
            fn squeeze_in_several_calls() {
                const R: usize = $rate;
                let plan = [0usize, 1, 2, 0, 1];
                let total: usize = plan.iter().sum();
                for n in [0usize, R - 1, R, 2 * R + 3] {
                    let ins: Vec<Vec<u8>> = (0..$ways).map(|w| msg(n, 100 + w)).collect();
                    let arr: [&[u8]; $ways] = core::array::from_fn(|w| &ins[w][..]);
                    for be in tessera_testkit::available::<X4Backend>() {
                        let mut whole: Vec<Vec<u8>> = vec![vec![0u8; total * R]; $ways];
                        {
                            let mut it = whole.iter_mut();
                            let refs: [&mut [u8]; $ways] =
                                core::array::from_fn(|_| &mut it.next().unwrap()[..]);
                            $name::new_with_backend(be, arr)
                                .unwrap()
                                .squeeze_blocks(refs)
                                .unwrap();
                        }
                        let mut x = $name::new_with_backend(be, arr).unwrap();
                        let mut parts: Vec<Vec<u8>> = vec![Vec::new(); $ways];
                        for &blocks in &plan {
                            let mut outs: Vec<Vec<u8>> = vec![vec![0u8; blocks * R]; $ways];
                            {
                                let mut it = outs.iter_mut();
                                let refs: [&mut [u8]; $ways] =
                                    core::array::from_fn(|_| &mut it.next().unwrap()[..]);
                                x.squeeze_blocks(refs).unwrap();
                            }
                            for (p, o) in parts.iter_mut().zip(&outs) {
                                p.extend_from_slice(o);
                            }
                        }
                        assert_eq!(parts, whole, "{} n={n}", be.name());
                        for w in 0..$ways {
                            assert_eq!(
                                parts[w],
                                shake_ref(R, &ins[w], total * R),
                                "{} n={n} way {w}",
                                be.name()
                            );
                        }
                    }
                }
            }
        }
    };
}

multi_checks!(x4_128: Shake128x4, 4, 168);
multi_checks!(x4_256: Shake256x4, 4, 136);
multi_checks!(x2_128: Shake128x2, 2, 168);
multi_checks!(x2_256: Shake256x2, 2, 136);

/// Prefix lengths that leave the sponge at different positions within a block of each rate.
const PREFIXES: [usize; 4] = [0, 71, 150, 337];

/// A hasher cloned mid-stream, on every backend and after each prefix length `p` of
/// [`PREFIXES`]: `new` makes it and `update` absorbs `msg(p, seeds[0])`; then the original
/// absorbs `msg(lens[0], seeds[1])` and the clone `msg(lens[1], seeds[2])`. `check(be, p, hasher,
/// whole message)` runs on the original, then on the clone.
fn check_clone_mid_stream<H: Clone>(
    seeds: [u32; 3],
    lens: [usize; 2],
    new: impl Fn(X1Backend) -> H,
    update: impl Fn(&mut H, &[u8]),
    check: impl Fn(X1Backend, usize, &H, &[u8]),
) {
    for be in tessera_testkit::available::<X1Backend>() {
        for p in PREFIXES {
            let prefix = msg(p, seeds[0]);
            let (a, b) = (msg(lens[0], seeds[1]), msg(lens[1], seeds[2]));
            let mut h = new(be);
            update(&mut h, &prefix);
            let mut g = h.clone();
            update(&mut h, &a);
            update(&mut g, &b);
            for (x, t) in [(&h, &a), (&g, &b)] {
                check(be, p, x, &[&prefix[..], t].concat());
            }
        }
    }
}

macro_rules! sha3_checks {
    ($module:ident: $name:ident) => {
        /// The checks of one hasher (`$module` is also its one-shot function).
        mod $module {
            use super::*;

            /// A hasher cloned mid-stream: original and clone continue with different input and
            /// each ends at the one-shot digest of its own whole message.
            #[test]
            fn clone_mid_stream() {
                check_clone_mid_stream(
                    [1, 2, 3],
                    [200, 13],
                    $name::new_with_backend,
                    |h: &mut $name, m: &[u8]| {
                        h.update(m);
                    },
                    |be, _, h: &$name, whole: &[u8]| {
                        assert_eq!(
                            h.finalize(),
                            tessera_keccak::$module(whole),
                            "{}",
                            be.name()
                        );
                    },
                );
            }

            /// `finalize` leaves the hasher unchanged: twice in a row gives the same digest, and
            /// absorbing afterwards continues the same message.
            #[test]
            fn finalize_twice() {
                for be in tessera_testkit::available::<X1Backend>() {
                    let m = msg(300, 4);
                    let mut h = $name::new_with_backend(be);
                    h.update(&m[..150]);
                    let d1 = h.finalize();
                    assert_eq!(h.finalize(), d1, "{}", be.name());
                    assert_eq!(d1, tessera_keccak::$module(&m[..150]), "{}", be.name());
                    h.update(&m[150..]);
                    assert_eq!(h.finalize(), tessera_keccak::$module(&m), "{}", be.name());
                }
            }

            /// `io::Write` (through `io::copy`, `write_all` and `write`) absorbs like `update`.
            #[test]
            fn io_write() {
                for be in tessera_testkit::available::<X1Backend>() {
                    let m = msg(1000, 5);
                    let mut h = $name::new_with_backend(be);
                    io::copy(&mut &m[..600], &mut h).unwrap();
                    h.write_all(&m[600..900]).unwrap();
                    assert_eq!(h.write(&m[900..]).unwrap(), 100);
                    h.flush().unwrap();
                    assert_eq!(h.finalize(), tessera_keccak::$module(&m), "{}", be.name());
                }
            }
        }
    };
}

sha3_checks!(sha3_224: Sha3_224);
sha3_checks!(sha3_256: Sha3_256);
sha3_checks!(sha3_384: Sha3_384);
sha3_checks!(sha3_512: Sha3_512);

macro_rules! xof_checks {
    ($module:ident: $name:ident, $new:expr, $one_shot:expr) => {
        /// The checks of one XOF.
        mod $module {
            use super::*;

            /// An XOF cloned mid-stream: original and clone continue with different input and each
            /// matches the one-shot output of its own whole message (300 bytes, over a block).
            #[test]
            fn clone_mid_stream() {
                check_clone_mid_stream(
                    [6, 7, 8],
                    [170, 1],
                    |be| -> $name { $new(be) },
                    |h: &mut $name, m: &[u8]| {
                        h.update(m);
                    },
                    |be, p, x: &$name, whole: &[u8]| {
                        let mut got = [0u8; 300];
                        x.finalize_xof().read(&mut got);
                        let mut expect = [0u8; 300];
                        $one_shot(whole, &mut expect);
                        assert_eq!(got, expect, "{} prefix {p}", be.name());
                    },
                );
            }

            /// `finalize_xof` leaves the XOF unchanged: two readers give the same stream, and a
            /// reader cloned part-way continues identically.
            #[test]
            fn finalize_xof_twice() {
                for be in tessera_testkit::available::<X1Backend>() {
                    let mut h: $name = $new(be);
                    h.update(&msg(150, 9));
                    let (mut a, mut b) = ([0u8; 400], [0u8; 400]);
                    h.finalize_xof().read(&mut a);
                    let mut r = h.finalize_xof();
                    r.read(&mut b[..170]);
                    let mut r2 = r.clone();
                    r.read(&mut b[170..]);
                    assert_eq!(a, b, "{}", be.name());
                    let mut c = [0u8; 230];
                    r2.read(&mut c);
                    assert_eq!(c, b[170..], "{}", be.name());
                }
            }

            /// `io::Write` absorbs like `update`; `io::Read` on the reader squeezes like `read`.
            #[test]
            fn io_write_read() {
                for be in tessera_testkit::available::<X1Backend>() {
                    let m = msg(1000, 10);
                    let mut h: $name = $new(be);
                    io::copy(&mut &m[..600], &mut h).unwrap();
                    h.write_all(&m[600..900]).unwrap();
                    assert_eq!(h.write(&m[900..]).unwrap(), 100);
                    h.flush().unwrap();
                    let mut got = [0u8; 200];
                    let mut r = h.finalize_xof();
                    assert_eq!(io::Read::read(&mut r, &mut got[..77]).unwrap(), 77);
                    r.read_exact(&mut got[77..]).unwrap();
                    let mut expect = [0u8; 200];
                    $one_shot(&m, &mut expect);
                    assert_eq!(got, expect, "{}", be.name());
                }
            }
        }
    };
}

xof_checks!(
    shake128: Shake128,
    Shake128::new_with_backend,
    tessera_keccak::shake128
);
xof_checks!(
    shake256: Shake256,
    Shake256::new_with_backend,
    tessera_keccak::shake256
);
xof_checks!(
    turboshake128: TurboShake128,
    |be| TurboShake128::new_with_backend(be, 0x0B).unwrap(),
    |m: &[u8], o: &mut [u8]| tessera_keccak::turboshake128(m, 0x0B, o).unwrap()
);
xof_checks!(
    turboshake256: TurboShake256,
    |be| TurboShake256::new_with_backend(be, 0x0B).unwrap(),
    |m: &[u8], o: &mut [u8]| tessera_keccak::turboshake256(m, 0x0B, o).unwrap()
);
