//! BMI2/ADX backend: four 64-bit limbs (the representation of [`crate::fe64`]), with the
//! field multiplication and squaring in inline assembly using MULX (BMI2) and the two
//! independent carry chains of ADCX/ADOX (ADX), which the compiler does not keep apart by
//! itself. Addition, subtraction and the multiplication by 121666 are assembly too, for
//! constant time: their final carry folds (`+38` when a carry left 2^256) are SBB/AND masks
//! here, where LLVM compiles the same Rust to a conditional jump on the carry. The ladder and
//! the Edwards arithmetic are the shared Rust code compiled in this backend's islands.
//!
//! The field is implemented on the [`X86Bmi2Adx`] token: a value of it proves that the CPU
//! executes MULX, ADCX and ADOX, so the methods that run them are safe to call.
#![allow(unsafe_code)]

use core::arch::asm;

use subtle::Choice;
use tessera_cpu::X86Bmi2Adx;

use crate::fe64::{self, Fe};
use crate::field::{Field, LadderState, Niels, Table};

/// Folds the eight-limb product in `t0..t7` to four limbs in `t0..t3`, below
/// `2^255 + 19 * 77` (the *folded* bound, which [`add_folded`] and [`sub_folded`] rely on):
/// `t0..t3 + 38 (t4..t7)` (`2^256 = 38 mod p`) with MULX and the two carry chains, leaving a
/// carry limb `t4 <= 38`; then the bits from 255 up (`t4:t3 >> 63`, at most 77) come back as
/// 19 each, and that sum cannot carry past bit 255. Clobbers `rdx`, `lo`, `hi`, `t4`.
macro_rules! reduce_38 {
    () => {
        concat!(
            "mov edx, 38\n",
            "xor {lo:e}, {lo:e}\n",
            "mulx {hi}, {lo}, {t4}\n",
            "adcx {t0}, {lo}\n",
            "adox {t1}, {hi}\n",
            "mulx {hi}, {lo}, {t5}\n",
            "adcx {t1}, {lo}\n",
            "adox {t2}, {hi}\n",
            "mulx {hi}, {lo}, {t6}\n",
            "adcx {t2}, {lo}\n",
            "adox {t3}, {hi}\n",
            "mulx {t4}, {lo}, {t7}\n",
            "adcx {t3}, {lo}\n",
            "mov {lo:e}, 0\n",
            "adox {t4}, {lo}\n",
            "adcx {t4}, {lo}\n",
            // t4 <= 38: fold bits 255.. of t4:t3 as 19 each (2^255 = 19).
            "shld {t4}, {t3}, 1\n",
            "mov {lo}, 0x7fffffffffffffff\n",
            "and {t3}, {lo}\n",
            "imul {t4}, {t4}, 19\n",
            "add {t0}, {t4}\n",
            "adc {t1}, 0\n",
            "adc {t2}, 0\n",
            "adc {t3}, 0\n",
        )
    };
}

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

/// `a * b` mod p, any inputs `< 2^256`, output `< 2^256`.
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
            reduce_38!(),
            a = in(reg) a.as_ptr(),
            b = in(reg) b.as_ptr(),
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

/// `a^2` mod p, any input `< 2^256`, output `< 2^256`: the six cross products once (one
/// carry chain), then doubled on the CF chain while the four squares go in on the OF chain.
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
            reduce_38!(),
            a = in(reg) a.as_ptr(),
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

/// `a + b` mod p, any inputs `< 2^256`, output `< 2^256`: the carry out of 2^256 comes back
/// as `+38` (SBB/AND mask), and a second carry leaves the low limb below 38, so one more
/// masked `+38` cannot carry.
#[inline(always)]
fn add(a: &Fe, b: &Fe) -> Fe {
    let [mut r0, mut r1, mut r2, mut r3] = *a;
    // SAFETY: register-only arithmetic (base x86_64 instructions), no memory, no stack.
    unsafe {
        asm!(
            "add {r0}, {b0}",
            "adc {r1}, {b1}",
            "adc {r2}, {b2}",
            "adc {r3}, {b3}",
            "sbb {t}, {t}",
            "and {t:e}, 38",
            "add {r0}, {t}",
            "adc {r1}, 0",
            "adc {r2}, 0",
            "adc {r3}, 0",
            "sbb {t}, {t}",
            "and {t:e}, 38",
            "add {r0}, {t}",
            r0 = inout(reg) r0,
            r1 = inout(reg) r1,
            r2 = inout(reg) r2,
            r3 = inout(reg) r3,
            b0 = in(reg) b[0],
            b1 = in(reg) b[1],
            b2 = in(reg) b[2],
            b3 = in(reg) b[3],
            t = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a - b` mod p, any inputs `< 2^256`, output `< 2^256`: the borrow out of 2^256 comes back
/// as `-38` (masked), and a second borrow leaves the low limb above `2^64 - 38`, so one more
/// masked `-38` cannot borrow.
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
            "sbb {t}, {t}",
            "and {t:e}, 38",
            "sub {r0}, {t}",
            "sbb {r1}, 0",
            "sbb {r2}, 0",
            "sbb {r3}, 0",
            "sbb {t}, {t}",
            "and {t:e}, 38",
            "sub {r0}, {t}",
            r0 = inout(reg) r0,
            r1 = inout(reg) r1,
            r2 = inout(reg) r2,
            r3 = inout(reg) r3,
            b0 = in(reg) b[0],
            b1 = in(reg) b[1],
            b2 = in(reg) b[2],
            b3 = in(reg) b[3],
            t = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `121666 a` mod p, any input `< 2^256`, output below the folded bound `2^255 + 19 * 2^18`:
/// MULX per limb, then the bits from 255 up (`top:r3 >> 63`, below `2^18`) back as 19 each.
#[inline(always)]
fn mul_a24(_t: X86Bmi2Adx, a: &Fe) -> Fe {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: the token proves BMI2 (MULX); register-only arithmetic, no memory, no stack.
    unsafe {
        asm!(
            "mov edx, 121666",
            "mulx {r1}, {r0}, {a0}",
            "mulx {r2}, {t}, {a1}",
            "add {r1}, {t}",
            "mulx {r3}, {t}, {a2}",
            "adc {r2}, {t}",
            "mulx {top}, {t}, {a3}",
            "adc {r3}, {t}",
            "adc {top}, 0",
            // top < 121666: fold bits 255.. of top:r3 as 19 each.
            "shld {top}, {r3}, 1",
            "mov {t}, 0x7fffffffffffffff",
            "and {r3}, {t}",
            "imul {top}, {top}, 19",
            "add {r0}, {top}",
            "adc {r1}, 0",
            "adc {r2}, 0",
            "adc {r3}, 0",
            a0 = in(reg) a[0],
            a1 = in(reg) a[1],
            a2 = in(reg) a[2],
            a3 = in(reg) a[3],
            r0 = out(reg) r0,
            r1 = out(reg) r1,
            r2 = out(reg) r2,
            r3 = out(reg) r3,
            t = out(reg) _,
            top = out(reg) _,
            out("rdx") _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a + b` mod p for `a, b` below the folded bound (`< 2^255 + 2^23`: outputs of [`mul`],
/// [`sqr`], [`mul_a24`], or below 2^255): the sum is below `2^256 + 2^24`, so one carry out
/// of 2^256 leaves the sum below `2^24`, and adding the masked `38` (carried through the
/// limbs) cannot wrap again. Output `< 2^256`.
#[inline(always)]
fn add_folded(a: &Fe, b: &Fe) -> Fe {
    let [mut r0, mut r1, mut r2, mut r3] = *a;
    // SAFETY: register-only arithmetic (base x86_64 instructions), no memory, no stack.
    unsafe {
        asm!(
            "add {r0}, {b0}",
            "adc {r1}, {b1}",
            "adc {r2}, {b2}",
            "adc {r3}, {b3}",
            "sbb {t}, {t}",
            "and {t:e}, 38",
            "add {r0}, {t}",
            "adc {r1}, 0",
            "adc {r2}, 0",
            "adc {r3}, 0",
            r0 = inout(reg) r0,
            r1 = inout(reg) r1,
            r2 = inout(reg) r2,
            r3 = inout(reg) r3,
            b0 = in(reg) b[0],
            b1 = in(reg) b[1],
            b2 = in(reg) b[2],
            b3 = in(reg) b[3],
            t = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a - b` mod p for any `a < 2^256` and `b` below the folded bound (`< 2^255 + 2^23`): on a
/// borrow the wrapped difference is above `2^255 - 2^23`, so subtracting the masked `38`
/// (borrowed through the limbs) cannot wrap again.
/// Output `< 2^256`.
#[inline(always)]
fn sub_folded(a: &Fe, b: &Fe) -> Fe {
    let [mut r0, mut r1, mut r2, mut r3] = *a;
    // SAFETY: register-only arithmetic (base x86_64 instructions), no memory, no stack.
    unsafe {
        asm!(
            "sub {r0}, {b0}",
            "sbb {r1}, {b1}",
            "sbb {r2}, {b2}",
            "sbb {r3}, {b3}",
            "sbb {t}, {t}",
            "and {t:e}, 38",
            "sub {r0}, {t}",
            "sbb {r1}, 0",
            "sbb {r2}, 0",
            "sbb {r3}, 0",
            r0 = inout(reg) r0,
            r1 = inout(reg) r1,
            r2 = inout(reg) r2,
            r3 = inout(reg) r3,
            b0 = in(reg) b[0],
            b1 = in(reg) b[1],
            b2 = in(reg) b[2],
            b3 = in(reg) b[3],
            t = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// The ladder step of [`crate::field::step`] with the single-fold additions and
/// subtractions: every `add_folded` operand and every `sub_folded` subtrahend is an output of
/// `mul`, `sqr` or `mul_a24` (below the folded bound), or a starting value of the ladder (0,
/// 1, or the decoded `u < 2^255`), which the swap only exchanges.
///
/// The swap is applied to the sums and differences instead of the points: `x2 + z2`,
/// `x2 - z2` of the swapped points are `x3 + z3`, `x3 - z3` of the unswapped ones and vice
/// versa, and `x2, z2, x3, z3` are all overwritten by the step, so swapping `(a, b)` with
/// `(c, d)` gives the same step without writing the swapped points back.
#[inline(always)]
fn ladder_step(t: X86Bmi2Adx, st: &mut LadderState<Fe>, swap: Choice) {
    st.a = add_folded(&st.x2, &st.z2);
    st.b = sub_folded(&st.x2, &st.z2);
    st.c = add_folded(&st.x3, &st.z3);
    st.d = sub_folded(&st.x3, &st.z3);
    fe64::cswap(&mut st.a, &mut st.c, swap);
    fe64::cswap(&mut st.b, &mut st.d, swap);
    st.aa = sqr(t, &st.a);
    st.bb = sqr(t, &st.b);
    st.e = sub_folded(&st.aa, &st.bb);
    st.da = mul(t, &st.d, &st.a);
    st.cb = mul(t, &st.c, &st.b);
    st.t = add_folded(&st.da, &st.cb);
    st.x3 = sqr(t, &st.t);
    st.t = sub_folded(&st.da, &st.cb);
    st.t = sqr(t, &st.t);
    st.z3 = mul(t, &st.x1, &st.t);
    st.x2 = mul(t, &st.aa, &st.bb);
    st.t = mul_a24(t, &st.e);
    st.a = add_folded(&st.bb, &st.t);
    st.z2 = mul(t, &st.e, &st.a);
}

impl Field for X86Bmi2Adx {
    type Fe = Fe;

    #[inline(always)]
    fn zero(self) -> Fe {
        fe64::ZERO
    }
    #[inline(always)]
    fn one(self) -> Fe {
        fe64::ONE
    }
    #[inline(always)]
    fn decode(self, b: &[u8; 32]) -> Fe {
        fe64::from_bytes(b)
    }
    #[inline(always)]
    fn encode(self, a: &Fe) -> [u8; 32] {
        fe64::to_bytes(a)
    }
    #[inline(always)]
    fn add(self, r: &mut Fe, a: &Fe, b: &Fe) {
        *r = add(a, b);
    }
    #[inline(always)]
    fn sub(self, r: &mut Fe, a: &Fe, b: &Fe) {
        *r = sub(a, b);
    }
    #[inline(always)]
    fn neg(self, r: &mut Fe, a: &Fe) {
        *r = sub(&fe64::ZERO, a);
    }
    #[inline(always)]
    fn mul(self, r: &mut Fe, a: &Fe, b: &Fe) {
        *r = mul(self, a, b);
    }
    #[inline(always)]
    fn mul_assign(self, a: &mut Fe, b: &Fe) {
        *a = mul(self, a, b);
    }
    #[inline(always)]
    fn sqr(self, r: &mut Fe, a: &Fe) {
        *r = sqr(self, a);
    }
    #[inline(always)]
    fn sqr_assign(self, a: &mut Fe) {
        *a = sqr(self, a);
    }
    #[inline(always)]
    fn mul_a24(self, r: &mut Fe, a: &Fe) {
        *r = mul_a24(self, a);
    }
    #[inline(always)]
    fn cswap(self, a: &mut Fe, b: &mut Fe, c: Choice) {
        fe64::cswap(a, b, c)
    }
    #[inline(always)]
    fn cmov(self, a: &mut Fe, b: &Fe, c: Choice) {
        fe64::cmov(a, b, c)
    }
    #[inline(always)]
    fn ladder_step(self, st: &mut LadderState<Fe>, swap: Choice) {
        ladder_step(self, st, swap)
    }
    #[inline(always)]
    fn lookup(self, row: &[Niels<Fe>; 8], abs: u8) -> Niels<Fe> {
        fe64::lookup(row, abs)
    }
    #[inline(always)]
    fn table(self) -> &'static Table<Fe> {
        &crate::table::TABLE64
    }
    #[inline(always)]
    fn load_words(self, w: &[u64; 4]) -> Fe {
        *w
    }
}
