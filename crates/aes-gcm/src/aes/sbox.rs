//! The AES S-box as a Boolean circuit on bit planes (Boyar and Peralta, "A depth-16 circuit
//! for the AES S-box", 2011, figures 5-9): no table lookup, so its timing does not depend on
//! the data. Plane `b` of a [`Planes`] value holds bit `b` of every byte it carries (64 bytes
//! at once). Used by the key schedule (`sub_word` in `aes.rs`) and by the portable backend's
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
    // `t[k]` is the paper's `Tk`.
    let mut t = [0u64; 28];
    t[1] = u0 ^ u3;
    t[2] = u0 ^ u5;
    t[3] = u0 ^ u6;
    t[4] = u3 ^ u5;
    t[5] = u4 ^ u6;
    t[6] = t[1] ^ t[5];
    t[7] = u1 ^ u2;
    t[8] = u7 ^ t[6];
    t[9] = u7 ^ t[7];
    t[10] = t[6] ^ t[7];
    t[11] = u1 ^ u5;
    t[12] = u2 ^ u5;
    t[13] = t[3] ^ t[4];
    t[14] = t[6] ^ t[11];
    t[15] = t[5] ^ t[11];
    t[16] = t[5] ^ t[12];
    t[17] = t[9] ^ t[16];
    t[18] = u3 ^ u7;
    t[19] = t[7] ^ t[18];
    t[20] = t[1] ^ t[19];
    t[21] = u6 ^ u7;
    t[22] = t[7] ^ t[21];
    t[23] = t[2] ^ t[22];
    t[24] = t[2] ^ t[10];
    t[25] = t[20] ^ t[17];
    t[26] = t[3] ^ t[16];
    t[27] = t[1] ^ t[12];
    let m = middle(&t, u7);
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
    // `t[k]` is the paper's `Tk` (the ones the middle part reads); `r*` and `y5` are the
    // inverse circuit's own intermediates.
    let mut t = [0u64; 28];
    t[23] = u0 ^ u3;
    t[22] = !(u1 ^ u3);
    t[2] = !(u0 ^ u1);
    t[1] = u3 ^ u4;
    t[24] = !(u4 ^ u7);
    let r5 = u6 ^ u7;
    t[8] = !(u1 ^ t[23]);
    t[19] = t[22] ^ r5;
    t[9] = !(u7 ^ t[1]);
    t[10] = t[2] ^ t[24];
    t[13] = t[2] ^ r5;
    t[3] = t[1] ^ r5;
    t[25] = !(u2 ^ t[1]);
    let r13 = u1 ^ u6;
    t[17] = !(u2 ^ t[19]);
    t[20] = t[24] ^ r13;
    t[4] = u4 ^ t[8];
    let r17 = !(u2 ^ u5);
    let r18 = !(u5 ^ u6);
    let r19 = !(u2 ^ u4);
    let y5 = u0 ^ r17;
    t[6] = t[22] ^ r17;
    t[16] = r13 ^ r19;
    t[27] = t[1] ^ r18;
    t[15] = t[10] ^ t[27];
    t[14] = t[10] ^ r18;
    t[26] = t[3] ^ t[16];
    let m = middle(&t, y5);
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

/// The shared non-linear middle part (Boyar-Peralta figure 7) on the top part's `T1..T27`
/// (`t[k]`, only those the figure reads) and `D` (`U7` forward, `Y5` inverse). Returns
/// `M1..M63` at their indices (index 0 unused); the bottom parts read `M46..M63`.
#[inline(always)]
fn middle(t: &[u64; 28], d: u64) -> [u64; 64] {
    let m1 = t[13] & t[6];
    let m2 = t[23] & t[8];
    let m3 = t[14] ^ m1;
    let m4 = t[19] & d;
    let m5 = m4 ^ m1;
    let m6 = t[3] & t[16];
    let m7 = t[22] & t[9];
    let m8 = t[26] ^ m6;
    let m9 = t[20] & t[17];
    let m10 = m9 ^ m6;
    let m11 = t[1] & t[15];
    let m12 = t[4] & t[27];
    let m13 = m12 ^ m11;
    let m14 = t[2] & t[10];
    let m15 = m14 ^ m11;
    let m16 = m3 ^ m2;
    let m17 = m5 ^ t[24];
    let m18 = m8 ^ m7;
    let m19 = m10 ^ m15;
    let m20 = m16 ^ m13;
    let m21 = m17 ^ m15;
    let m22 = m18 ^ m13;
    let m23 = m19 ^ t[25];
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
    m[46] = m44 & t[6];
    m[47] = m40 & t[8];
    m[48] = m39 & d;
    m[49] = m43 & t[16];
    m[50] = m38 & t[9];
    m[51] = m37 & t[17];
    m[52] = m42 & t[15];
    m[53] = m45 & t[27];
    m[54] = m41 & t[10];
    m[55] = m44 & t[13];
    m[56] = m40 & t[23];
    m[57] = m39 & t[19];
    m[58] = m43 & t[3];
    m[59] = m38 & t[22];
    m[60] = m37 & t[20];
    m[61] = m42 & t[1];
    m[62] = m45 & t[4];
    m[63] = m41 & t[2];
    m
}
