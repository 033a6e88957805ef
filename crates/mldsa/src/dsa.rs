//! ML-DSA (FIPS 204 Algorithms 6-8 and their subroutines), generic over the backend's
//! [`Unit`](crate::unit::Unit) and the parameter set ([`Params`], plus `K` and `L` as const generics for the
//! array sizes). Byte strings whose length depends on the set are slices; the generic typed
//! API of `crate::generic` sizes them (with the array types of `crate::params`).
#![forbid(unsafe_code)]

pub(crate) use crate::hash::h;

mod ball;
mod declassify;
mod expand;
mod keygen;
mod params;
mod sample;
mod sign;
mod verify;

pub(crate) use declassify::public_u64;
pub(crate) use keygen::{keygen, parse_pk, parse_sk};
pub(crate) use params::{Params, SkState, VkState};
pub use sign::MAX_SIGN_ITERATIONS;
pub(crate) use sign::sign;
pub(crate) use verify::verify;

#[cfg(test)]
mod tests {
    use super::ball::*;
    use super::expand::*;
    use super::sample::*;
    use super::*;
    use crate::backend::portable::P8;
    use crate::params::Set;
    // The algorithms' parameters of each set.
    type MlDsa44 = <crate::params::MlDsa44 as Set>::Params;
    type MlDsa65 = <crate::params::MlDsa65 as Set>::Params;
    type MlDsa87 = <crate::params::MlDsa87 as Set>::Params;
    use crate::poly::Poly;
    use tessera_keccak::{Shake256, X1Backend, X4Backend};

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
            mask::<MlDsa44, 1>(k4, &seed, 0);
            mask::<MlDsa44, 2>(k4, &seed, 7);
            mask::<MlDsa44, 4>(k4, &seed, 8);
            mask::<MlDsa65, 3>(k4, &seed, 5);
            mask::<MlDsa65, 5>(k4, &seed, 813 * 5);
            mask::<MlDsa87, 7>(k4, &seed, 14);
            mask::<MlDsa87, 9>(k4, &seed, 0);
            expand::<MlDsa44, 4, 4>(k4, &seed);
            expand::<MlDsa65, 6, 5>(k4, &seed);
            expand::<MlDsa87, 8, 7>(k4, &seed);
            expand::<MlDsa44, 1, 1>(k4, &seed);
            expand::<MlDsa65, 1, 2>(k4, &seed);
            expand::<MlDsa87, 3, 2>(k4, &seed);
            continuation::<MlDsa44>(k4, &seed);
            continuation::<MlDsa65>(k4, &seed);
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
            ball_matches::<MlDsa44>(&ct, &head);
            if !cfg!(miri) {
                ball_matches::<MlDsa65>(&ct, &head);
                ball_matches::<MlDsa87>(&ct, &head);
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
            ball_matches::<MlDsa44>(&c_tilde, &head);
            ball_matches::<MlDsa65>(&c_tilde, &head);
            ball_matches::<MlDsa87>(&c_tilde, &head);
        }
    }
}
