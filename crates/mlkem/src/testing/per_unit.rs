//! Every vector-trait operation on a whole polynomial (unit by unit), on a chosen backend: the
//! entry point of the equivalence tests (`tests/equivalence.rs`). All backends produce bit-identical results (no permuted or non-canonical
//! representation leaves a unit), so outputs are compared raw.
#![forbid(unsafe_code)]

use crate::backend::Backend;
use crate::poly::{self, Poly, ZETAS};
use crate::unit::{KemOp, N, Unit};

/// A vector-trait operation, applied to every unit of the input polynomial(s). The input
/// bounds are those documented on the trait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Op {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// Barrett reduction of `a`.
    Barrett,
    /// Montgomery product of `a` and a constant.
    MontMul(i16),
    /// `(-q, q)` to `[0, q)`.
    ToCanonical,
    /// `[0, 2^12)` to `[0, q)`.
    ReduceOnce,
    /// The between-unit NTT butterfly on unit pairs `(a_u, b_u)`; `b'` goes to `poly2`.
    NttButterfly(i16),
    /// The between-unit inverse-NTT butterfly; `b'` goes to `poly2`.
    InvNttButterfly(i16),
    /// In-unit NTT layer, distance 8 (zetas of unit u as in the NTT).
    NttLayer8,
    /// In-unit NTT layer, distance 4.
    NttLayer4,
    /// In-unit NTT layer, distance 2.
    NttLayer2,
    /// In-unit inverse-NTT layer, distance 8.
    InvNttLayer8,
    /// In-unit inverse-NTT layer, distance 4.
    InvNttLayer4,
    /// In-unit inverse-NTT layer, distance 2.
    InvNttLayer2,
    /// The whole NTT (Algorithm 9 + reduction).
    Ntt,
    /// The whole inverse NTT (Algorithm 10).
    InvNtt,
    /// Base-case multiplication of `a` and `b` (raw, not reduced).
    Basemul,
    /// Compress_d of `a`.
    Compress(u32),
    /// Decompress_d of `a`.
    Decompress(u32),
    /// ByteEncode_d of `a` into `bytes`.
    Encode(u32),
    /// ByteDecode_d of `bytes`.
    Decode(u32),
    /// SamplePolyCBD_eta of `bytes`.
    Cbd(usize),
    /// Rejection sampling of `bytes` (504 bytes); the count goes to `n`.
    RejSample,
}

/// The outputs of an [`Op`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpOut {
    /// Main polynomial output.
    pub poly: [i16; 256],
    /// Second polynomial output (butterflies).
    pub poly2: [i16; 256],
    /// Byte output (encode).
    pub bytes: [u8; 384],
    /// Count output (rejection sampling).
    pub n: usize,
}

#[inline(always)]
fn unit<U: Unit>(t: U::Token, p: &Poly, u: usize) -> U {
    let mut c = [0i16; N];
    c.copy_from_slice(&p[N * u..N * u + N]);
    U::load(t, &c)
}

#[inline(always)]
fn put<U: Unit>(x: U, p: &mut Poly, u: usize) {
    let mut c = [0i16; N];
    x.store(&mut c);
    p[N * u..N * u + N].copy_from_slice(&c);
}

macro_rules! with_d {
    ($d:expr, $f:ident, $($args:tt)*) => {
        match $d {
            1 => $f::<U, 1>($($args)*),
            4 => $f::<U, 4>($($args)*),
            5 => $f::<U, 5>($($args)*),
            10 => $f::<U, 10>($($args)*),
            11 => $f::<U, 11>($($args)*),
            12 => $f::<U, 12>($($args)*),
            _ => panic!("unsupported d"),
        }
    };
}

/// Applies `op` with unit type `U` (compiled into the caller's island).
#[inline(always)]
fn apply<U: Unit>(t: U::Token, op: Op, a: &Poly, b: &Poly, bytes: &[u8], out: &mut OpOut) {
    let mut r = [0i16; 256];
    let mut r2 = [0i16; 256];
    macro_rules! each {
        (|$x:ident, $y:ident, $u:ident| $e:expr) => {
            for $u in 0..16 {
                let $x: U = unit(t, a, $u);
                let $y: U = unit(t, b, $u);
                let _ = &$y;
                put($e, &mut r, $u);
            }
        };
    }
    #[inline(always)]
    fn compress<U: Unit, const D: u32>(x: U) -> U {
        x.compress::<D>()
    }
    #[inline(always)]
    fn decompress<U: Unit, const D: u32>(x: U) -> U {
        x.decompress::<D>()
    }
    #[inline(always)]
    fn encode<U: Unit, const D: u32>(x: U, o: &mut [u8]) {
        x.encode::<D>(&mut o[..2 * D as usize])
    }
    #[inline(always)]
    fn decode<U: Unit, const D: u32>(t: U::Token, b: &[u8]) -> U {
        U::decode::<D>(t, &b[..2 * D as usize])
    }
    match op {
        Op::Add => each!(|x, y, u| x.add(y)),
        Op::Sub => each!(|x, y, u| x.sub(y)),
        Op::Barrett => each!(|x, y, u| x.barrett_reduce()),
        Op::MontMul(c) => each!(|x, y, u| x.mont_mul_const(c)),
        Op::ToCanonical => each!(|x, y, u| x.to_canonical()),
        Op::ReduceOnce => each!(|x, y, u| x.reduce_once()),
        Op::NttButterfly(z) | Op::InvNttButterfly(z) => {
            for u in 0..16 {
                let mut x: U = unit(t, a, u);
                let mut y: U = unit(t, b, u);
                if matches!(op, Op::NttButterfly(_)) {
                    U::ntt_butterfly(&mut x, &mut y, z);
                } else {
                    U::invntt_butterfly(&mut x, &mut y, z);
                }
                put(x, &mut r, u);
                put(y, &mut r2, u);
            }
        }
        Op::NttLayer8 => each!(|x, y, u| x.ntt_layer_8(ZETAS[16 + u])),
        Op::NttLayer4 => each!(|x, y, u| x.ntt_layer_4([ZETAS[32 + 2 * u], ZETAS[33 + 2 * u]])),
        Op::NttLayer2 => each!(|x, y, u| x.ntt_layer_2([
            ZETAS[64 + 4 * u],
            ZETAS[65 + 4 * u],
            ZETAS[66 + 4 * u],
            ZETAS[67 + 4 * u]
        ])),
        Op::InvNttLayer8 => each!(|x, y, u| x.invntt_layer_8(ZETAS[31 - u])),
        Op::InvNttLayer4 => {
            each!(|x, y, u| x.invntt_layer_4([ZETAS[63 - 2 * u], ZETAS[62 - 2 * u]]))
        }
        Op::InvNttLayer2 => each!(|x, y, u| x.invntt_layer_2([
            ZETAS[127 - 4 * u],
            ZETAS[126 - 4 * u],
            ZETAS[125 - 4 * u],
            ZETAS[124 - 4 * u]
        ])),
        Op::Ntt => {
            r = *a;
            poly::ntt::<U>(t, &mut r);
        }
        Op::InvNtt => {
            r = *a;
            poly::invntt::<U>(t, &mut r);
        }
        Op::Basemul => each!(|x, y, u| x.basemul(
            y,
            [
                ZETAS[64 + 4 * u],
                ZETAS[65 + 4 * u],
                ZETAS[66 + 4 * u],
                ZETAS[67 + 4 * u]
            ]
        )),
        Op::Compress(d) => each!(|x, y, u| with_d!(d, compress, x)),
        Op::Decompress(d) => each!(|x, y, u| with_d!(d, decompress, x)),
        Op::Encode(d) => {
            let w = 2 * d as usize;
            for u in 0..16 {
                let x: U = unit(t, a, u);
                with_d!(d, encode, x, &mut out.bytes[w * u..w * u + w]);
            }
        }
        Op::Decode(d) => {
            let w = 2 * d as usize;
            for u in 0..16 {
                let x: U = with_d!(d, decode, t, &bytes[w * u..w * u + w]);
                put(x, &mut r, u);
            }
        }
        Op::Cbd(eta) => {
            for u in 0..16 {
                let x: U = match eta {
                    2 => U::cbd::<2>(t, &bytes[8 * u..8 * u + 8]),
                    3 => U::cbd::<3>(t, &bytes[12 * u..12 * u + 12]),
                    _ => panic!("unsupported eta"),
                };
                put(x, &mut r, u);
            }
        }
        Op::RejSample => {
            let mut n = 0;
            U::rej_sample(t, bytes, &mut r, &mut n);
            out.n = n;
        }
    }
    out.poly = r;
    out.poly2 = r2;
}

/// Runs `op` on `backend`: `a`, `b` polynomial inputs, `bytes` byte input (decode: `32 d`
/// bytes, CBD: `64 eta`, rejection sampling: any multiple of 3).
pub fn run(backend: Backend, op: Op, a: &[i16; 256], b: &[i16; 256], bytes: &[u8]) -> OpOut {
    let mut out = OpOut {
        poly: [0; 256],
        poly2: [0; 256],
        bytes: [0; 384],
        n: 0,
    };
    backend.run(PerUnit {
        op,
        a,
        b,
        bytes,
        out: &mut out,
    });
    out
}

/// The operation [`run`] dispatches: [`apply`] on the backend's unit type.
struct PerUnit<'a> {
    op: Op,
    a: &'a Poly,
    b: &'a Poly,
    bytes: &'a [u8],
    out: &'a mut OpOut,
}

impl KemOp for PerUnit<'_> {
    type Out = ();
    #[inline(always)]
    fn run<U: Unit>(self, t: U::Token) {
        apply::<U>(t, self.op, self.a, self.b, self.bytes, self.out)
    }
}
