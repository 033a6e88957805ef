//! The AES S-box as a Boolean circuit on bit planes (Boyar and Peralta, "A depth-16 circuit
//! for the AES S-box", 2011, figures 5-9): no table lookup, so its timing does not depend on
//! the data. Plane `b` of a [`Planes`] value holds bit `b` of every byte it carries (64 bytes
//! at once). Used by the key schedule ([`super::sub_word`]) and by the portable backend's
//! bitsliced cipher.

#![forbid(unsafe_code)]

/// Eight bit planes: plane `b` holds bit `b` of up to 64 bytes.
pub(crate) type Planes = [u64; 8];

/// XOR of 0x63 into every byte: the planes of its set bits, complemented.
#[inline(always)]
pub(crate) fn not_sbox_constant(s: &mut Planes) {
    for b in [0, 1, 5, 6] {
        s[b] = !s[b];
    }
}

/// SubBytes (with its constant): used by the key schedule.
#[inline(always)]
pub(crate) fn sub_bytes(s: &mut Planes) {
    sub_bytes_core(s);
    not_sbox_constant(s);
}

/// SubBytes without the constant 0x63: Boyar-Peralta forward circuit (top linear part, shared
/// non-linear middle, bottom linear part) with the four output NOTs left out. `U0` is the most
/// significant bit, so `U0 = s[7]`, ..., `U7 = s[0]`.
#[inline(always)]
pub(crate) fn sub_bytes_core(s: &mut Planes) {
    let (u0, u1, u2, u3, u4, u5, u6, u7) = (s[7], s[6], s[5], s[4], s[3], s[2], s[1], s[0]);
    let t1 = u0 ^ u3;
    let t2 = u0 ^ u5;
    let t3 = u0 ^ u6;
    let t4 = u3 ^ u5;
    let t5 = u4 ^ u6;
    let t6 = t1 ^ t5;
    let t7 = u1 ^ u2;
    let t8 = u7 ^ t6;
    let t9 = u7 ^ t7;
    let t10 = t6 ^ t7;
    let t11 = u1 ^ u5;
    let t12 = u2 ^ u5;
    let t13 = t3 ^ t4;
    let t14 = t6 ^ t11;
    let t15 = t5 ^ t11;
    let t16 = t5 ^ t12;
    let t17 = t9 ^ t16;
    let t18 = u3 ^ u7;
    let t19 = t7 ^ t18;
    let t20 = t1 ^ t19;
    let t21 = u6 ^ u7;
    let t22 = t7 ^ t21;
    let t23 = t2 ^ t22;
    let t24 = t2 ^ t10;
    let t25 = t20 ^ t17;
    let t26 = t3 ^ t16;
    let t27 = t1 ^ t12;
    let m = Middle {
        t1,
        t2,
        t3,
        t4,
        t6,
        t8,
        t9,
        t10,
        t13,
        t14,
        t15,
        t16,
        t17,
        t19,
        t20,
        t22,
        t23,
        t24,
        t25,
        t26,
        t27,
        d: u7,
    }
    .eval();
    let l0 = m[61] ^ m[62];
    let l1 = m[50] ^ m[56];
    let l2 = m[46] ^ m[48];
    let l3 = m[47] ^ m[55];
    let l4 = m[54] ^ m[58];
    let l5 = m[49] ^ m[61];
    let l6 = m[62] ^ l5;
    let l7 = m[46] ^ l3;
    let l8 = m[51] ^ m[59];
    let l9 = m[52] ^ m[53];
    let l10 = m[53] ^ l4;
    let l11 = m[60] ^ l2;
    let l12 = m[48] ^ m[51];
    let l13 = m[50] ^ l0;
    let l14 = m[52] ^ m[61];
    let l15 = m[55] ^ l1;
    let l16 = m[56] ^ l0;
    let l17 = m[57] ^ l1;
    let l18 = m[58] ^ l8;
    let l19 = m[63] ^ l4;
    let l20 = l0 ^ l1;
    let l21 = l1 ^ l7;
    let l22 = l3 ^ l12;
    let l23 = l18 ^ l2;
    let l24 = l15 ^ l9;
    let l25 = l6 ^ l10;
    let l26 = l7 ^ l9;
    let l27 = l8 ^ l10;
    let l28 = l11 ^ l14;
    let l29 = l11 ^ l17;
    s[7] = l6 ^ l24;
    s[6] = l16 ^ l26;
    s[5] = l19 ^ l28;
    s[4] = l6 ^ l21;
    s[3] = l20 ^ l22;
    s[2] = l25 ^ l29;
    s[1] = l13 ^ l27;
    s[0] = l6 ^ l23;
}

/// InvSubBytes: Boyar-Peralta inverse circuit (own top and bottom, the same middle).
#[inline(always)]
pub(crate) fn inv_sub_bytes(s: &mut Planes) {
    let (u0, u1, u2, u3, u4, u5, u6, u7) = (s[7], s[6], s[5], s[4], s[3], s[2], s[1], s[0]);
    let t23 = u0 ^ u3;
    let t22 = !(u1 ^ u3);
    let t2 = !(u0 ^ u1);
    let t1 = u3 ^ u4;
    let t24 = !(u4 ^ u7);
    let r5 = u6 ^ u7;
    let t8 = !(u1 ^ t23);
    let t19 = t22 ^ r5;
    let t9 = !(u7 ^ t1);
    let t10 = t2 ^ t24;
    let t13 = t2 ^ r5;
    let t3 = t1 ^ r5;
    let t25 = !(u2 ^ t1);
    let r13 = u1 ^ u6;
    let t17 = !(u2 ^ t19);
    let t20 = t24 ^ r13;
    let t4 = u4 ^ t8;
    let r17 = !(u2 ^ u5);
    let r18 = !(u5 ^ u6);
    let r19 = !(u2 ^ u4);
    let y5 = u0 ^ r17;
    let t6 = t22 ^ r17;
    let t16 = r13 ^ r19;
    let t27 = t1 ^ r18;
    let t15 = t10 ^ t27;
    let t14 = t10 ^ r18;
    let t26 = t3 ^ t16;
    let m = Middle {
        t1,
        t2,
        t3,
        t4,
        t6,
        t8,
        t9,
        t10,
        t13,
        t14,
        t15,
        t16,
        t17,
        t19,
        t20,
        t22,
        t23,
        t24,
        t25,
        t26,
        t27,
        d: y5,
    }
    .eval();
    let p0 = m[52] ^ m[61];
    let p1 = m[58] ^ m[59];
    let p2 = m[54] ^ m[62];
    let p3 = m[47] ^ m[50];
    let p4 = m[48] ^ m[56];
    let p5 = m[46] ^ m[51];
    let p6 = m[49] ^ m[60];
    let p7 = p0 ^ p1;
    let p8 = m[50] ^ m[53];
    let p9 = m[55] ^ m[63];
    let p10 = m[57] ^ p4;
    let p11 = p0 ^ p3;
    let p12 = m[46] ^ m[48];
    let p13 = m[49] ^ m[51];
    let p14 = m[49] ^ m[62];
    let p15 = m[54] ^ m[59];
    let p16 = m[57] ^ m[61];
    let p17 = m[58] ^ p2;
    let p18 = m[63] ^ p5;
    let p19 = p2 ^ p3;
    let p20 = p4 ^ p6;
    let p22 = p2 ^ p7;
    let p23 = p7 ^ p8;
    let p24 = p5 ^ p7;
    let p25 = p6 ^ p10;
    let p26 = p9 ^ p11;
    let p27 = p10 ^ p18;
    let p28 = p11 ^ p25;
    let p29 = p15 ^ p20;
    s[7] = p13 ^ p22;
    s[6] = p26 ^ p29;
    s[5] = p17 ^ p28;
    s[4] = p12 ^ p22;
    s[3] = p23 ^ p27;
    s[2] = p19 ^ p24;
    s[1] = p14 ^ p23;
    s[0] = p9 ^ p16;
}

/// Inputs of the shared non-linear middle part (Boyar-Peralta figure 7).
struct Middle {
    t1: u64,
    t2: u64,
    t3: u64,
    t4: u64,
    t6: u64,
    t8: u64,
    t9: u64,
    t10: u64,
    t13: u64,
    t14: u64,
    t15: u64,
    t16: u64,
    t17: u64,
    t19: u64,
    t20: u64,
    t22: u64,
    t23: u64,
    t24: u64,
    t25: u64,
    t26: u64,
    t27: u64,
    d: u64,
}

impl Middle {
    /// Returns `M1..M63` at their indices (index 0 unused); the bottom parts read `M46..M63`.
    #[inline(always)]
    fn eval(&self) -> [u64; 64] {
        let Middle {
            t1,
            t2,
            t3,
            t4,
            t6,
            t8,
            t9,
            t10,
            t13,
            t14,
            t15,
            t16,
            t17,
            t19,
            t20,
            t22,
            t23,
            t24,
            t25,
            t26,
            t27,
            d,
        } = *self;
        let m1 = t13 & t6;
        let m2 = t23 & t8;
        let m3 = t14 ^ m1;
        let m4 = t19 & d;
        let m5 = m4 ^ m1;
        let m6 = t3 & t16;
        let m7 = t22 & t9;
        let m8 = t26 ^ m6;
        let m9 = t20 & t17;
        let m10 = m9 ^ m6;
        let m11 = t1 & t15;
        let m12 = t4 & t27;
        let m13 = m12 ^ m11;
        let m14 = t2 & t10;
        let m15 = m14 ^ m11;
        let m16 = m3 ^ m2;
        let m17 = m5 ^ t24;
        let m18 = m8 ^ m7;
        let m19 = m10 ^ m15;
        let m20 = m16 ^ m13;
        let m21 = m17 ^ m15;
        let m22 = m18 ^ m13;
        let m23 = m19 ^ t25;
        let m24 = m22 ^ m23;
        let m25 = m22 & m20;
        let m26 = m21 ^ m25;
        let m27 = m20 ^ m21;
        let m28 = m23 ^ m25;
        let m29 = m28 & m27;
        let m30 = m26 & m24;
        let m31 = m20 & m23;
        let m32 = m27 & m31;
        let m33 = m27 ^ m25;
        let m34 = m21 & m22;
        let m35 = m24 & m34;
        let m36 = m24 ^ m25;
        let m37 = m21 ^ m29;
        let m38 = m32 ^ m33;
        let m39 = m23 ^ m30;
        let m40 = m35 ^ m36;
        let m41 = m38 ^ m40;
        let m42 = m37 ^ m39;
        let m43 = m37 ^ m38;
        let m44 = m39 ^ m40;
        let m45 = m42 ^ m41;
        let mut m = [0u64; 64];
        m[46] = m44 & t6;
        m[47] = m40 & t8;
        m[48] = m39 & d;
        m[49] = m43 & t16;
        m[50] = m38 & t9;
        m[51] = m37 & t17;
        m[52] = m42 & t15;
        m[53] = m45 & t27;
        m[54] = m41 & t10;
        m[55] = m44 & t13;
        m[56] = m40 & t23;
        m[57] = m39 & t19;
        m[58] = m43 & t3;
        m[59] = m38 & t22;
        m[60] = m37 & t20;
        m[61] = m42 & t1;
        m[62] = m45 & t4;
        m[63] = m41 & t2;
        m
    }
}
