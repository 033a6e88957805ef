//! Every vector-trait operation on a whole polynomial (unit by unit), on a chosen backend: the
//! entry point of the equivalence tests (`tests/equivalence.rs`). All backends produce
//! bit-identical results (no permuted or non-canonical representation leaves a unit), so
//! outputs are compared raw.
#![forbid(unsafe_code)]

use crate::backend::{Backend, DsaOp};
use crate::poly::{self, Poly, UNITS, ZETAS, chunk_mut, ld};
use crate::unit::Unit;

/// A vector-trait operation, applied to every unit of the input polynomial(s). The input
/// bounds are those documented on the trait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Op {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `c - a`.
    RsubConst(i32),
    /// `a << 13`.
    Shl13,
    /// `a << s` (negative `a` too).
    Shl(u32),
    /// `split_low(a, s)`: `lo` to `poly`, `hi` to `poly2`.
    SplitLow(u32),
    /// Montgomery product of `a` and `b`.
    MontMul,
    /// Montgomery product of `a` and a constant.
    MontMulConst(i32),
    /// reduce32 of `a`.
    Reduce32,
    /// `(-q, q)` to `[0, q)`.
    Caddq,
    /// `(-q, q)` to the centered representative.
    Centered,
    /// The between-unit NTT butterfly on unit pairs `(a_u, b_u)`; `b'` goes to `poly2`.
    NttButterfly(i32),
    /// The between-unit inverse-NTT butterfly; `b'` goes to `poly2`.
    InvNttButterfly(i32),
    /// In-unit NTT layers of distance 4, 2 and 1 (zetas of unit u as in the NTT), each alone:
    /// `poly` the distance-4 layer, `poly2` distance 2 applied to `a` too, and the
    /// distance-1 layer in `poly3`.
    NttLayers,
    /// In-unit inverse-NTT layers of distance 1, 2 and 4, each alone (as [`Op::NttLayers`]).
    InvNttLayers,
    /// The whole NTT.
    Ntt,
    /// The whole inverse NTT.
    InvNtt,
    /// Power2Round: `r1` to `poly`, `r0` to `poly2`.
    Power2Round,
    /// Decompose with gamma2 = (q-1)/G2 (`G2` in {32, 88}): `r1`, `r0`.
    Decompose(i32),
    /// UseHint with gamma2 = (q-1)/G2 of `a` and hints `b`.
    UseHint(i32),
    /// `a != b` as 0/1.
    NeMask,
    /// The infinity-norm check of each unit against a bound (flags to `n`, bit u).
    Exceeds(i32),
    /// SimpleBitPack of `a` with the given bit width into `bytes`.
    Encode(u32),
    /// SimpleBitUnpack of `bytes` with the given bit width.
    Decode(u32),
    /// RejNTTPoly's rejection step on `bytes` (multiple of 3); count to `n`.
    RejUniform,
    /// RejBoundedPoly's rejection step with eta 2 or 4 on `bytes`; count to `n`.
    RejEta(i32),
}

/// The outputs of an [`Op`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpOut {
    /// Main polynomial output.
    pub poly: [i32; 256],
    /// Second polynomial output.
    pub poly2: [i32; 256],
    /// Third polynomial output.
    pub poly3: [i32; 256],
    /// Byte output (encode).
    pub bytes: [u8; 32 * 24],
    /// Count or flags output.
    pub n: u64,
}

macro_rules! with_bits {
    ($d:expr, $f:ident, $($args:tt)*) => {
        match $d {
            3 => $f::<U, 3>($($args)*),
            4 => $f::<U, 4>($($args)*),
            6 => $f::<U, 6>($($args)*),
            10 => $f::<U, 10>($($args)*),
            13 => $f::<U, 13>($($args)*),
            18 => $f::<U, 18>($($args)*),
            20 => $f::<U, 20>($($args)*),
            _ => panic!("unsupported width"),
        }
    };
}

/// Applies `op` with unit type `U` (compiled into the caller's island).
#[inline(always)]
pub(crate) fn apply<U: Unit>(
    t: U::Token,
    op: Op,
    a: &Poly,
    b: &Poly,
    bytes: &[u8],
    out: &mut OpOut,
) {
    let mut r = [0i32; 256];
    let mut r2 = [0i32; 256];
    let mut r3 = [0i32; 256];
    macro_rules! each {
        (|$x:ident, $y:ident, $u:ident| $e:expr) => {
            for $u in 0..UNITS {
                let $x: U = ld(t, a, $u);
                let $y: U = ld(t, b, $u);
                let _ = &$y;
                $e.store(chunk_mut(&mut r, $u));
            }
        };
    }
    macro_rules! each2 {
        (|$x:ident, $y:ident| $e:expr) => {
            for u in 0..UNITS {
                let $x: U = ld(t, a, u);
                let $y: U = ld(t, b, u);
                let _ = &$y;
                let (p, q) = $e;
                p.store(chunk_mut(&mut r, u));
                q.store(chunk_mut(&mut r2, u));
            }
        };
    }
    #[inline(always)]
    fn encode<U: Unit, const D: u32>(x: U, o: &mut [u8]) {
        x.encode::<D>(&mut o[..D as usize])
    }
    #[inline(always)]
    fn decode<U: Unit, const D: u32>(t: U::Token, b: &[u8]) -> U {
        U::decode::<D>(t, &b[..D as usize])
    }
    match op {
        Op::Add => each!(|x, y, u| x.add(y)),
        Op::Sub => each!(|x, y, u| x.sub(y)),
        Op::RsubConst(c) => each!(|x, y, u| x.rsub_const(c)),
        Op::Shl13 => each!(|x, y, u| x.shl(13)),
        Op::Shl(s) => each!(|x, y, u| x.shl(s)),
        Op::SplitLow(s) => each2!(|x, y| x.split_low(s)),
        Op::MontMul => each!(|x, y, u| x.mont_mul(y)),
        Op::MontMulConst(c) => each!(|x, y, u| x.mont_mul_const(c)),
        Op::Reduce32 => each!(|x, y, u| x.reduce32()),
        Op::Caddq => each!(|x, y, u| x.caddq()),
        Op::Centered => each!(|x, y, u| x.centered()),
        Op::NttButterfly(z) | Op::InvNttButterfly(z) => each2!(|x, y| {
            let (mut x, mut y) = (x, y);
            if matches!(op, Op::NttButterfly(_)) {
                U::ntt_butterfly(&mut x, &mut y, z);
            } else {
                U::invntt_butterfly(&mut x, &mut y, z);
            }
            (x, y)
        }),
        Op::NttLayers => {
            for u in 0..UNITS {
                let x: U = ld(t, a, u);
                x.ntt_layer_4(ZETAS[32 + u]).store(chunk_mut(&mut r, u));
                x.ntt_layer_2([ZETAS[64 + 2 * u], ZETAS[65 + 2 * u]])
                    .store(chunk_mut(&mut r2, u));
                let z = core::array::from_fn(|i| ZETAS[128 + 4 * u + i]);
                x.ntt_layer_1(z).store(chunk_mut(&mut r3, u));
            }
        }
        Op::InvNttLayers => {
            for u in 0..UNITS {
                let x: U = ld(t, a, u);
                let z = core::array::from_fn(|i| -ZETAS[255 - 4 * u - i]);
                x.invntt_layer_1(z).store(chunk_mut(&mut r, u));
                x.invntt_layer_2([-ZETAS[127 - 2 * u], -ZETAS[126 - 2 * u]])
                    .store(chunk_mut(&mut r2, u));
                x.invntt_layer_4(-ZETAS[63 - u])
                    .store(chunk_mut(&mut r3, u));
            }
        }
        Op::Ntt => {
            r = *a;
            poly::ntt::<U>(t, &mut r);
        }
        Op::InvNtt => {
            r = *a;
            poly::invntt::<U>(t, &mut r);
        }
        Op::Power2Round => each2!(|x, y| x.power2round()),
        Op::Decompose(32) => each2!(|x, y| x.decompose::<32>()),
        Op::Decompose(_) => each2!(|x, y| x.decompose::<88>()),
        Op::UseHint(32) => each!(|x, y, u| x.use_hint::<32>(y)),
        Op::UseHint(_) => each!(|x, y, u| x.use_hint::<88>(y)),
        Op::NeMask => each!(|x, y, u| x.ne_mask01(y)),
        Op::Exceeds(bound) => {
            for u in 0..UNITS {
                let x: U = ld(t, a, u);
                out.n |= u64::from(x.exceeds(bound)) << u;
            }
        }
        Op::Encode(d) => {
            let w = d as usize;
            for u in 0..UNITS {
                let x: U = ld(t, a, u);
                with_bits!(d, encode, x, &mut out.bytes[w * u..w * u + w]);
            }
        }
        Op::Decode(d) => {
            let w = d as usize;
            for u in 0..UNITS {
                let x: U = with_bits!(d, decode, t, &bytes[w * u..w * u + w]);
                x.store(chunk_mut(&mut r, u));
            }
        }
        Op::RejUniform => {
            let mut n = 0;
            U::rej_uniform(t, bytes, &mut r, &mut n);
            out.n = n as u64;
        }
        Op::RejEta(eta) => {
            let mut n = 0;
            if eta == 2 {
                U::rej_eta::<2>(t, bytes, &mut r, &mut n);
            } else {
                U::rej_eta::<4>(t, bytes, &mut r, &mut n);
            }
            out.n = n as u64;
        }
    }
    out.poly = r;
    out.poly2 = r2;
    out.poly3 = r3;
}

/// Runs `op` on `backend`: `a`, `b` polynomial inputs, `bytes` byte input (decode: `32 d`
/// bytes, rejection sampling: any length, a multiple of 3 for [`Op::RejUniform`]).
pub fn run(backend: Backend, op: Op, a: &[i32; 256], b: &[i32; 256], bytes: &[u8]) -> OpOut {
    let mut out = OpOut {
        poly: [0; 256],
        poly2: [0; 256],
        poly3: [0; 256],
        bytes: [0; 32 * 24],
        n: 0,
    };
    backend.run(RunOp {
        op,
        a,
        b,
        bytes,
        out: &mut out,
    });
    out
}

/// One [`Op`] as a backend operation: [`apply`] on the row's unit type, in its island.
struct RunOp<'a> {
    op: Op,
    a: &'a Poly,
    b: &'a Poly,
    bytes: &'a [u8],
    out: &'a mut OpOut,
}

impl DsaOp for RunOp<'_> {
    type Out = ();
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) {
        apply::<U>(t, self.op, self.a, self.b, self.bytes, self.out)
    }
}
