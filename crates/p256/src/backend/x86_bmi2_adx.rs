//! BMI2/ADX backend: the field GF(p) of [`crate::field`] (four 64-bit limbs, Montgomery form,
//! `R = 2^256`, fully reduced) in inline assembly. The product is the schoolbook 4x4 with MULX
//! (BMI2) and the two independent carry chains of ADCX/ADOX (ADX), which the compiler does not
//! keep apart by itself; the squaring computes the six cross products once, doubles them on one
//! chain and adds the four squares on the other. The Montgomery reduction then exploits the
//! shape of `p = 2^256 - 2^224 + 2^192 + 2^96 - 1`: `-p^(-1) = 1 mod 2^64`, so the reduction
//! word `u` is the low limb itself, and `u p = u 2^96 - u + u p_3 2^192` with
//! `p_3 = 0xffffffff00000001`, so a step is two shifts of `u` (the `u 2^96` term, whose `-u`
//! cancels the low limb) and one MULX by `p_3`.
//!
//! Addition and subtraction are assembly too, for constant time: their final corrections are
//! CMOV (conditional subtraction of `p`) and an SBB mask (`p` added back on a borrow), where
//! LLVM may compile the Rust masks of [`crate::fe`] to a conditional jump.
//!
//! The field is implemented on the [`X86Bmi2Adx`] token: a value of it proves that the CPU
//! executes MULX, ADCX and ADOX, so the methods that run them are safe to call.
#![allow(unsafe_code)]

use core::arch::asm;

use tessera_cpu::X86Bmi2Adx;

use crate::field::{Fe, Field};

/// `p_1 = 2^32 - 1`.
const P1: u64 = 0x0000_0000_ffff_ffff;
/// `p_3 = 2^64 - 2^32 + 1`.
const P3: u64 = 0xffff_ffff_0000_0001;

/// One row `i >= 1` of the schoolbook product: `t_i.. += a * b[i]`, the low halves on the
/// CF chain (ADCX) and the high halves on the OF chain (ADOX); the row's top limb `t_{i+4}`
/// starts as the last high half and takes both final carries (the partial product stays
/// below `2^(64 (i + 5))`, so it cannot overflow).
macro_rules! mul_row {
    ($off:literal, $ti:literal, $ti1:literal, $ti2:literal, $ti3:literal, $ti4:literal) => {
        concat!(
            "mov rdx, [{b} + ",
            $off,
            "]\n",
            "xor {lo:e}, {lo:e}\n",
            "mulx {hi}, {lo}, [{a}]\n",
            "adcx {",
            $ti,
            "}, {lo}\n",
            "adox {",
            $ti1,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{a} + 8]\n",
            "adcx {",
            $ti1,
            "}, {lo}\n",
            "adox {",
            $ti2,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{a} + 16]\n",
            "adcx {",
            $ti2,
            "}, {lo}\n",
            "adox {",
            $ti3,
            "}, {hi}\n",
            "mulx {",
            $ti4,
            "}, {lo}, [{a} + 24]\n",
            "adcx {",
            $ti3,
            "}, {lo}\n",
            "mov {lo:e}, 0\n",
            "adox {",
            $ti4,
            "}, {lo}\n",
            "adcx {",
            $ti4,
            "}, {lo}\n",
        )
    };
}

/// One Montgomery reduction step on the four limbs `u, x1, x2, x3` (value `x < 2^256`, `u`
/// the lowest): `(x + u p) / 2^64`, which is below `2^192 + p < 2^256`. With
/// `u p = u 2^96 - u + u p_3 2^192` and the low limb equal to `u`, the quotient is
/// `(x1 + (u << 32), x2 + (u >> 32), x3 + lo(u p_3), hi(u p_3))` with the carries, its top limb
/// written to `u`'s register. Needs `rdx = p_3`; clobbers `lo`, `hi` and the scratch register named `$s`.
macro_rules! reduce_step {
    ($s:literal, $u:literal, $x1:literal, $x2:literal, $x3:literal) => {
        concat!(
            "mov {lo}, {",
            $u,
            "}\n",
            "shl {lo}, 32\n",
            "mov {hi}, {",
            $u,
            "}\n",
            "shr {hi}, 32\n",
            "mulx {",
            $u,
            "}, {",
            $s,
            "}, {",
            $u,
            "}\n",
            "add {",
            $x1,
            "}, {lo}\n",
            "adc {",
            $x2,
            "}, {hi}\n",
            "adc {",
            $x3,
            "}, {",
            $s,
            "}\n",
            "adc {",
            $u,
            "}, 0\n",
        )
    };
}

/// The Montgomery reduction of the eight-limb `t = t0..t7 < p^2`: four [`reduce_step!`]s turn
/// the low half into `r = (t_lo + m p) / 2^256 <= p` (the limbs rotate back to `t0..t3`), then
/// `t_hi + r < 2p` (with `t_hi < p`) loses one `p` by CMOV when that does not go negative.
/// Result in `t0..t3`. Clobbers `rdx`, `lo`, `hi`, the scratch register named `$s`, `t4..t7`.
macro_rules! mont_reduce {
    ($s:literal) => {
        concat!(
            "mov rdx, {p3}\n",
            reduce_step!($s, "t0", "t1", "t2", "t3"),
            reduce_step!($s, "t1", "t2", "t3", "t0"),
            reduce_step!($s, "t2", "t3", "t0", "t1"),
            reduce_step!($s, "t3", "t0", "t1", "t2"),
            // t4..t7:lo = t_hi + r (lo is the carry, 0 or 1).
            "xor {lo:e}, {lo:e}\n",
            "add {t4}, {t0}\n",
            "adc {t5}, {t1}\n",
            "adc {t6}, {t2}\n",
            "adc {t7}, {t3}\n",
            "adc {lo}, 0\n",
            // t0..t3 = that - p; keep the sum where the subtraction borrows.
            "mov {hi:e}, 0xffffffff\n",
            "mov {t0}, {t4}\n",
            "sub {t0}, -1\n",
            "mov {t1}, {t5}\n",
            "sbb {t1}, {hi}\n",
            "mov {t2}, {t6}\n",
            "sbb {t2}, 0\n",
            "mov {t3}, {t7}\n",
            "sbb {t3}, rdx\n",
            "sbb {lo}, 0\n",
            "cmovc {t0}, {t4}\n",
            "cmovc {t1}, {t5}\n",
            "cmovc {t2}, {t6}\n",
            "cmovc {t3}, {t7}\n",
        )
    };
}

/// The Montgomery product `a b R^(-1) mod p` (`a, b < p`; result `< p`).
#[inline(always)]
fn mul(_t: X86Bmi2Adx, a: &Fe, b: &Fe) -> Fe {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: the token proves BMI2 (MULX) and ADX (ADCX, ADOX). The assembly only reads the
    // 32 bytes behind `a` and `b` (live references to `[u64; 4]`), writes only the declared
    // output and scratch registers (rdx included) and the flags, and touches no stack.
    unsafe {
        asm!(
            // Row 0: t0..t4 = a * b[0] on one carry chain.
            "mov rdx, [{b}]",
            "mulx {t1}, {t0}, [{a}]",
            "mulx {t2}, {lo}, [{a} + 8]",
            "add {t1}, {lo}",
            "mulx {t3}, {lo}, [{a} + 16]",
            "adc {t2}, {lo}",
            "mulx {t4}, {lo}, [{a} + 24]",
            "adc {t3}, {lo}",
            "adc {t4}, 0",
            mul_row!("8", "t1", "t2", "t3", "t4", "t5"),
            mul_row!("16", "t2", "t3", "t4", "t5", "t6"),
            mul_row!("24", "t3", "t4", "t5", "t6", "t7"),
            // `b` is spent: its register is the reduction's scratch.
            mont_reduce!("b"),
            a = in(reg) a.as_ptr(),
            b = inout(reg) b.as_ptr() => _,
            p3 = const P3,
            t0 = out(reg) r0,
            t1 = out(reg) r1,
            t2 = out(reg) r2,
            t3 = out(reg) r3,
            t4 = out(reg) _,
            t5 = out(reg) _,
            t6 = out(reg) _,
            t7 = out(reg) _,
            lo = out(reg) _,
            hi = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// The Montgomery square `a^2 R^(-1) mod p` (`a < p`; result `< p`): the six cross products
/// once (one carry chain), doubled on the CF chain while the four squares go in on the OF
/// chain, then the reduction of [`mul`].
#[inline(always)]
fn sqr(_t: X86Bmi2Adx, a: &Fe) -> Fe {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: the token proves BMI2 (MULX) and ADX (ADCX, ADOX). The assembly only reads the
    // 32 bytes behind `a` (a live reference to `[u64; 4]`), writes only the declared output
    // and scratch registers (rdx included) and the flags, and touches no stack.
    unsafe {
        asm!(
            // Cross products a_i a_j (i < j) into t1..t6.
            "mov rdx, [{a}]",
            "mulx {t2}, {t1}, [{a} + 8]",
            "mulx {t3}, {lo}, [{a} + 16]",
            "add {t2}, {lo}",
            "mulx {t4}, {lo}, [{a} + 24]",
            "adc {t3}, {lo}",
            "mov rdx, [{a} + 8]",
            "mulx {t5}, {lo}, [{a} + 24]",
            "adc {t4}, {lo}",
            "mov rdx, [{a} + 16]",
            "mulx {t6}, {lo}, [{a} + 24]",
            "adc {t5}, {lo}",
            "adc {t6}, 0",
            "mov rdx, [{a} + 8]",
            "mulx {hi}, {lo}, [{a} + 16]",
            "add {t3}, {lo}",
            "adc {t4}, {hi}",
            "adc {t5}, 0",
            "adc {t6}, 0",
            // Double (CF chain) and add the squares a_i^2 (OF chain); t7 starts at 0.
            "xor {t7:e}, {t7:e}",
            "mov rdx, [{a}]",
            "mulx {hi}, {t0}, rdx",
            "adcx {t1}, {t1}",
            "adox {t1}, {hi}",
            "mov rdx, [{a} + 8]",
            "mulx {hi}, {lo}, rdx",
            "adcx {t2}, {t2}",
            "adox {t2}, {lo}",
            "adcx {t3}, {t3}",
            "adox {t3}, {hi}",
            "mov rdx, [{a} + 16]",
            "mulx {hi}, {lo}, rdx",
            "adcx {t4}, {t4}",
            "adox {t4}, {lo}",
            "adcx {t5}, {t5}",
            "adox {t5}, {hi}",
            "mov rdx, [{a} + 24]",
            "mulx {hi}, {lo}, rdx",
            "adcx {t6}, {t6}",
            "adox {t6}, {lo}",
            "adcx {t7}, {t7}",
            "adox {t7}, {hi}",
            mont_reduce!("s"),
            a = in(reg) a.as_ptr(),
            p3 = const P3,
            t0 = out(reg) r0,
            t1 = out(reg) r1,
            t2 = out(reg) r2,
            t3 = out(reg) r3,
            t4 = out(reg) _,
            t5 = out(reg) _,
            t6 = out(reg) _,
            t7 = out(reg) _,
            lo = out(reg) _,
            hi = out(reg) _,
            s = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a + b mod p` (`a, b < p`; result `< p`): the sum with its carry, `p` subtracted into
/// scratch registers, and the sum kept by CMOV where that borrows.
#[inline(always)]
fn add(a: &Fe, b: &Fe) -> Fe {
    let [mut r0, mut r1, mut r2, mut r3] = *a;
    // SAFETY: register-only arithmetic (base x86_64 instructions), no memory, no stack.
    unsafe {
        asm!(
            "xor {c:e}, {c:e}",
            "add {r0}, {s0}",
            "adc {r1}, {s1}",
            "adc {r2}, {s2}",
            "adc {r3}, {s3}",
            "adc {c}, 0",
            "mov {s0}, {r0}",
            "sub {s0}, -1",
            "mov {s1}, {r1}",
            "sbb {s1}, {p1}",
            "mov {s2}, {r2}",
            "sbb {s2}, 0",
            "mov {s3}, {r3}",
            "sbb {s3}, {p3}",
            "sbb {c}, 0",
            "cmovnc {r0}, {s0}",
            "cmovnc {r1}, {s1}",
            "cmovnc {r2}, {s2}",
            "cmovnc {r3}, {s3}",
            r0 = inout(reg) r0,
            r1 = inout(reg) r1,
            r2 = inout(reg) r2,
            r3 = inout(reg) r3,
            s0 = inout(reg) b[0] => _,
            s1 = inout(reg) b[1] => _,
            s2 = inout(reg) b[2] => _,
            s3 = inout(reg) b[3] => _,
            p1 = in(reg) P1,
            p3 = in(reg) P3,
            c = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a - b mod p` (`a, b < p`; result `< p`): the difference, then `p AND mask` added back,
/// the mask being the borrow spread by SBB (`p_0 = mask`, `p_1 = mask >> 32`, `p_2 = 0`,
/// `p_3 = mask AND p_3`).
#[inline(always)]
fn sub(a: &Fe, b: &Fe) -> Fe {
    let [mut r0, mut r1, mut r2, mut r3] = *a;
    // SAFETY: register-only arithmetic (base x86_64 instructions), no memory, no stack.
    unsafe {
        asm!(
            "sub {r0}, {b0}",
            "sbb {r1}, {b1}",
            "sbb {r2}, {b2}",
            "sbb {r3}, {b3}",
            "sbb {m}, {m}",
            "mov {h}, {m}",
            "shr {h}, 32",
            "and {p3}, {m}",
            "add {r0}, {m}",
            "adc {r1}, {h}",
            "adc {r2}, 0",
            "adc {r3}, {p3}",
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

impl Field for X86Bmi2Adx {
    #[inline(always)]
    fn mul(self, a: &Fe, b: &Fe) -> Fe {
        mul(self, a, b)
    }
    #[inline(always)]
    fn sqr(self, a: &Fe) -> Fe {
        sqr(self, a)
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
