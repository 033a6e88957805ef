//! aarch64 backend: the field GF(p) of [`crate::field`] (four 64-bit limbs, Montgomery form,
//! `R = 2^256`, fully reduced) in inline assembly: the schoolbook product by MUL/UMULH with
//! ADDS/ADCS carry chains (one row's low halves, then its high halves, on the one carry flag),
//! the squaring with the six cross products once, doubled, plus the four squares.
//!
//! The Montgomery reduction exploits the shape of `p = 2^256 - 2^224 + 2^192 + 2^96 - 1`:
//! `-p^(-1) = 1 mod 2^64`, so the reduction word `u` is the low limb itself, and
//! `u p = u 2^96 - u + u p_3 2^192` with `p_3 = 2^64 - 2^32 + 1`; the product `u p_3` is itself
//! `u 2^64 - u 2^32 + u`, so a step takes two shifts and subtractions and no multiplication.
//!
//! The final corrections (subtract `p` unless that goes negative; add `p` back after a borrow)
//! are CSEL and a borrow mask, so every instruction sequence is fixed: the carries never reach
//! a branch, whatever LLVM would make of the Rust masks.
//!
//! Against LLVM's code for the portable `u128` Montgomery product (CIOS, [`crate::fe`]) on
//! aarch64, a chain of dependent products compiles to 115 instructions per product here (16 MUL,
//! 16 UMULH) against 156 (16 MUL, 20 UMULH), and a chain of squarings to 96 (10 MUL, 10 UMULH)
//! against 144 (10 MUL, 14 UMULH); both are branch-free.
//!
//! The field is implemented on the [`Aarch64Neon`] token (the baseline aarch64 token; the
//! instructions used are base A64).
#![allow(unsafe_code)]

use core::arch::asm;

use tessera_cpu::Aarch64Neon;

use crate::field::{Fe, Field};

/// `p_1 = 2^32 - 1`.
const P1: u64 = 0x0000_0000_ffff_ffff;
/// `p_3 = 2^64 - 2^32 + 1`.
const P3: u64 = 0xffff_ffff_0000_0001;

/// One Montgomery reduction step on the four limbs `u, x1, x2, x3` (value `x < 2^256`, `u` the
/// lowest): `(x + u p) / 2^64`, below `2^192 + p < 2^256`. With `u p = u 2^96 - u +
/// u p_3 2^192` and the low limb equal to `u`, the quotient is `(x1 + (u << 32),
/// x2 + (u >> 32), x3 + lo(u p_3), hi(u p_3))` with the carries, where
/// `u p_3 = (u - (u >> 32)) 2^64 + u - (u << 32)` (the low difference's borrow taken from the
/// high one). The top limb is written to `u`'s register. Clobbers `l0`, `l1`, `l2`.
macro_rules! reduce_step {
    ($u:literal, $x1:literal, $x2:literal, $x3:literal) => {
        concat!(
            "lsl {l0}, {",
            $u,
            "}, #32\n",
            "lsr {l1}, {",
            $u,
            "}, #32\n",
            "subs {l2}, {",
            $u,
            "}, {l0}\n",
            "sbc {",
            $u,
            "}, {",
            $u,
            "}, {l1}\n",
            "adds {",
            $x1,
            "}, {",
            $x1,
            "}, {l0}\n",
            "adcs {",
            $x2,
            "}, {",
            $x2,
            "}, {l1}\n",
            "adcs {",
            $x3,
            "}, {",
            $x3,
            "}, {l2}\n",
            "adc {",
            $u,
            "}, {",
            $u,
            "}, xzr\n",
        )
    };
}

/// The Montgomery reduction of the eight-limb `t = t0..t7 < p^2`: four [`reduce_step!`]s turn
/// the low half into `r = (t_lo + m p) / 2^256 <= p` (the limbs rotate back to `t0..t3`), then
/// `t_hi + r < 2p` (with `t_hi < p`) loses one `p` by CSEL when that does not go negative.
/// Result in `t0..t3`. Needs `p1`, `p3`; clobbers `l0..l3`, `t4..t7`.
macro_rules! mont_reduce {
    () => {
        concat!(
            reduce_step!("t0", "t1", "t2", "t3"),
            reduce_step!("t1", "t2", "t3", "t0"),
            reduce_step!("t2", "t3", "t0", "t1"),
            reduce_step!("t3", "t0", "t1", "t2"),
            // t4..t7:l3 = t_hi + r (l3 is the carry, 0 or 1).
            "adds {t4}, {t4}, {t0}\n",
            "adcs {t5}, {t5}, {t1}\n",
            "adcs {t6}, {t6}, {t2}\n",
            "adcs {t7}, {t7}, {t3}\n",
            "adc {l3}, xzr, xzr\n",
            // t0..t3 = that - p (`- p_0 = - (2^64 - 1)` is `+ 1` with the same carry out); keep the sum where the subtraction borrows (C clear).
            "adds {t0}, {t4}, #1\n",
            "sbcs {t1}, {t5}, {p1}\n",
            "sbcs {t2}, {t6}, xzr\n",
            "sbcs {t3}, {t7}, {p3}\n",
            "sbcs {l3}, {l3}, xzr\n",
            "csel {t0}, {t4}, {t0}, cc\n",
            "csel {t1}, {t5}, {t1}, cc\n",
            "csel {t2}, {t6}, {t2}, cc\n",
            "csel {t3}, {t7}, {t3}, cc\n",
        )
    };
}

/// One row `i >= 1` of the schoolbook product, `t_i..t_{i+4} += a * b_i`: the four low
/// halves on one carry chain (its carry starts `t_{i+4}`), then the four high halves on a
/// second (the partial product stays below `2^(64 (i + 5))`, so the last add cannot carry).
/// Clobbers `l0..l3`, `h0..h3`.
macro_rules! mul_row {
    ($bi:literal, $ti:literal, $ti1:literal, $ti2:literal, $ti3:literal, $ti4:literal) => {
        concat!(
            "mul {l0}, {a0}, {",
            $bi,
            "}\n",
            "mul {l1}, {a1}, {",
            $bi,
            "}\n",
            "mul {l2}, {a2}, {",
            $bi,
            "}\n",
            "mul {l3}, {a3}, {",
            $bi,
            "}\n",
            "umulh {h0}, {a0}, {",
            $bi,
            "}\n",
            "umulh {h1}, {a1}, {",
            $bi,
            "}\n",
            "umulh {h2}, {a2}, {",
            $bi,
            "}\n",
            "umulh {h3}, {a3}, {",
            $bi,
            "}\n",
            "adds {",
            $ti,
            "}, {",
            $ti,
            "}, {l0}\n",
            "adcs {",
            $ti1,
            "}, {",
            $ti1,
            "}, {l1}\n",
            "adcs {",
            $ti2,
            "}, {",
            $ti2,
            "}, {l2}\n",
            "adcs {",
            $ti3,
            "}, {",
            $ti3,
            "}, {l3}\n",
            "adc {",
            $ti4,
            "}, xzr, xzr\n",
            "adds {",
            $ti1,
            "}, {",
            $ti1,
            "}, {h0}\n",
            "adcs {",
            $ti2,
            "}, {",
            $ti2,
            "}, {h1}\n",
            "adcs {",
            $ti3,
            "}, {",
            $ti3,
            "}, {h2}\n",
            "adc {",
            $ti4,
            "}, {",
            $ti4,
            "}, {h3}\n",
        )
    };
}

/// The Montgomery product `a b R^(-1) mod p` (`a, b < p`; result `< p`).
#[inline(always)]
fn mul(a: &Fe, b: &Fe) -> Fe {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: register-only arithmetic (base A64 instructions), no memory, no stack; writes
    // only the declared output and scratch registers and the flags.
    unsafe {
        asm!(
            // Row 0: t0..t4 = a * b0.
            "mul {t0}, {a0}, {b0}",
            "umulh {t1}, {a0}, {b0}",
            "mul {l1}, {a1}, {b0}",
            "umulh {t2}, {a1}, {b0}",
            "mul {l2}, {a2}, {b0}",
            "umulh {t3}, {a2}, {b0}",
            "mul {l3}, {a3}, {b0}",
            "umulh {t4}, {a3}, {b0}",
            "adds {t1}, {t1}, {l1}",
            "adcs {t2}, {t2}, {l2}",
            "adcs {t3}, {t3}, {l3}",
            "adc {t4}, {t4}, xzr",
            mul_row!("b1", "t1", "t2", "t3", "t4", "t5"),
            mul_row!("b2", "t2", "t3", "t4", "t5", "t6"),
            mul_row!("b3", "t3", "t4", "t5", "t6", "t7"),
            mont_reduce!(),
            a0 = in(reg) a[0],
            a1 = in(reg) a[1],
            a2 = in(reg) a[2],
            a3 = in(reg) a[3],
            b0 = in(reg) b[0],
            b1 = in(reg) b[1],
            b2 = in(reg) b[2],
            b3 = in(reg) b[3],
            p1 = in(reg) P1,
            p3 = in(reg) P3,
            t0 = out(reg) r0,
            t1 = out(reg) r1,
            t2 = out(reg) r2,
            t3 = out(reg) r3,
            t4 = out(reg) _,
            t5 = out(reg) _,
            t6 = out(reg) _,
            t7 = out(reg) _,
            l0 = out(reg) _,
            l1 = out(reg) _,
            l2 = out(reg) _,
            l3 = out(reg) _,
            h0 = out(reg) _,
            h1 = out(reg) _,
            h2 = out(reg) _,
            h3 = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// The Montgomery square `a^2 R^(-1) mod p` (`a < p`; result `< p`): the six cross products
/// `a_i a_j` (`i < j`) summed once (below `2^448`, seven limbs), doubled, plus the four
/// squares, then the reduction of [`mul`].
#[inline(always)]
fn sqr(a: &Fe) -> Fe {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: register-only arithmetic (base A64 instructions), no memory, no stack; writes
    // only the declared output and scratch registers and the flags.
    unsafe {
        asm!(
            // a0 a1 at 1, a0 a2 at 2, a0 a3 at 3.
            "mul {t1}, {a0}, {a1}",
            "umulh {t2}, {a0}, {a1}",
            "mul {l0}, {a0}, {a2}",
            "umulh {t3}, {a0}, {a2}",
            "mul {l1}, {a0}, {a3}",
            "umulh {t4}, {a0}, {a3}",
            "adds {t2}, {t2}, {l0}",
            "adcs {t3}, {t3}, {l1}",
            "adc {t4}, {t4}, xzr",
            // a1 a2 at 3, a1 a3 at 4, a2 a3 at 5.
            "mul {l0}, {a1}, {a2}",
            "umulh {h0}, {a1}, {a2}",
            "mul {l1}, {a1}, {a3}",
            "umulh {t5}, {a1}, {a3}",
            "mul {l2}, {a2}, {a3}",
            "umulh {t6}, {a2}, {a3}",
            "adds {t3}, {t3}, {l0}",
            "adcs {t4}, {t4}, {l1}",
            "adcs {t5}, {t5}, {l2}",
            "adc {t6}, {t6}, xzr",
            "adds {t4}, {t4}, {h0}",
            "adcs {t5}, {t5}, xzr",
            "adc {t6}, {t6}, xzr",
            // Double (t7 takes the top bit).
            "adds {t1}, {t1}, {t1}",
            "adcs {t2}, {t2}, {t2}",
            "adcs {t3}, {t3}, {t3}",
            "adcs {t4}, {t4}, {t4}",
            "adcs {t5}, {t5}, {t5}",
            "adcs {t6}, {t6}, {t6}",
            "adc {t7}, xzr, xzr",
            // The squares a_i^2 at 2i.
            "mul {t0}, {a0}, {a0}",
            "umulh {h0}, {a0}, {a0}",
            "mul {l1}, {a1}, {a1}",
            "umulh {h1}, {a1}, {a1}",
            "mul {l2}, {a2}, {a2}",
            "umulh {h2}, {a2}, {a2}",
            "mul {l3}, {a3}, {a3}",
            "umulh {h3}, {a3}, {a3}",
            "adds {t1}, {t1}, {h0}",
            "adcs {t2}, {t2}, {l1}",
            "adcs {t3}, {t3}, {h1}",
            "adcs {t4}, {t4}, {l2}",
            "adcs {t5}, {t5}, {h2}",
            "adcs {t6}, {t6}, {l3}",
            "adc {t7}, {t7}, {h3}",
            mont_reduce!(),
            a0 = in(reg) a[0],
            a1 = in(reg) a[1],
            a2 = in(reg) a[2],
            a3 = in(reg) a[3],
            p1 = in(reg) P1,
            p3 = in(reg) P3,
            t0 = out(reg) r0,
            t1 = out(reg) r1,
            t2 = out(reg) r2,
            t3 = out(reg) r3,
            t4 = out(reg) _,
            t5 = out(reg) _,
            t6 = out(reg) _,
            t7 = out(reg) _,
            l0 = out(reg) _,
            l1 = out(reg) _,
            l2 = out(reg) _,
            l3 = out(reg) _,
            h0 = out(reg) _,
            h1 = out(reg) _,
            h2 = out(reg) _,
            h3 = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a + b mod p` (`a, b < p`; result `< p`): the sum with its carry, `p` subtracted, and the
/// sum kept by CSEL where that borrows.
#[inline(always)]
fn add(a: &Fe, b: &Fe) -> Fe {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: register-only arithmetic (base A64 instructions), no memory, no stack.
    unsafe {
        asm!(
            "adds {x0}, {a0}, {b0}",
            "adcs {x1}, {a1}, {b1}",
            "adcs {x2}, {a2}, {b2}",
            "adcs {x3}, {a3}, {b3}",
            "adc {c}, xzr, xzr",
            "adds {r0}, {x0}, #1",
            "sbcs {r1}, {x1}, {p1}",
            "sbcs {r2}, {x2}, xzr",
            "sbcs {r3}, {x3}, {p3}",
            "sbcs {c}, {c}, xzr",
            "csel {r0}, {x0}, {r0}, cc",
            "csel {r1}, {x1}, {r1}, cc",
            "csel {r2}, {x2}, {r2}, cc",
            "csel {r3}, {x3}, {r3}, cc",
            a0 = in(reg) a[0],
            a1 = in(reg) a[1],
            a2 = in(reg) a[2],
            a3 = in(reg) a[3],
            b0 = in(reg) b[0],
            b1 = in(reg) b[1],
            b2 = in(reg) b[2],
            b3 = in(reg) b[3],
            p1 = in(reg) P1,
            p3 = in(reg) P3,
            x0 = out(reg) _,
            x1 = out(reg) _,
            x2 = out(reg) _,
            x3 = out(reg) _,
            c = out(reg) _,
            r0 = out(reg) r0,
            r1 = out(reg) r1,
            r2 = out(reg) r2,
            r3 = out(reg) r3,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a - b mod p` (`a, b < p`; result `< p`): the difference, then `p AND mask` added back,
/// the mask being the borrow spread by SBC (`p_0 = mask`, `p_1 = mask >> 32`, `p_2 = 0`,
/// `p_3 = mask AND p_3`).
#[inline(always)]
fn sub(a: &Fe, b: &Fe) -> Fe {
    let [mut r0, mut r1, mut r2, mut r3] = *a;
    // SAFETY: register-only arithmetic (base A64 instructions), no memory, no stack.
    unsafe {
        asm!(
            "subs {r0}, {r0}, {b0}",
            "sbcs {r1}, {r1}, {b1}",
            "sbcs {r2}, {r2}, {b2}",
            "sbcs {r3}, {r3}, {b3}",
            "sbc {m}, xzr, xzr",
            "lsr {h}, {m}, #32",
            "and {p3}, {p3}, {m}",
            "adds {r0}, {r0}, {m}",
            "adcs {r1}, {r1}, {h}",
            "adcs {r2}, {r2}, xzr",
            "adc {r3}, {r3}, {p3}",
            r0 = inout(reg) r0,
            r1 = inout(reg) r1,
            r2 = inout(reg) r2,
            r3 = inout(reg) r3,
            b0 = in(reg) b[0],
            b1 = in(reg) b[1],
            b2 = in(reg) b[2],
            b3 = in(reg) b[3],
            p3 = inout(reg) P3 => _,
            m = out(reg) _,
            h = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

impl Field for Aarch64Neon {
    #[inline(always)]
    fn mul(self, a: &Fe, b: &Fe) -> Fe {
        mul(a, b)
    }
    #[inline(always)]
    fn sqr(self, a: &Fe) -> Fe {
        sqr(a)
    }
    #[inline(always)]
    fn add(self, a: &Fe, b: &Fe) -> Fe {
        add(a, b)
    }
    #[inline(always)]
    fn sub(self, a: &Fe, b: &Fe) -> Fe {
        sub(a, b)
    }
}
