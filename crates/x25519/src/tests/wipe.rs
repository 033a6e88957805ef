//! Zeroization (issue 30, item 3): after a scalar multiplication, the stack memory its frames
//! used holds none of its secrets. The probe is `tessera_testkit::wipe` (x86_64 only: the tests
//! are ignored elsewhere, never passed). Needles are the clamped scalar and its digits, the
//! table entries the secret digits select (from the public table, in each backend's
//! representation), and the values `crate::tap` records from the operation itself on a
//! first run (`p2`, the scratch elements, the inversion's input and output); the second run,
//! not recorded, is the one scanned.
#![forbid(unsafe_code)]

use std::format;
use std::string::String;
use std::vec::Vec;

use tessera_testkit::wipe::{assert_wiped, check_all, chunks};

use crate::backend::{Backend, BaseMult, ScalarMult};
use crate::field::Field;
use crate::scalar::{clamp, recode};
use crate::tap::{self, Raw};

type Needles = Vec<(String, Vec<u8>)>;

/// A scalar whose clamping changes its first and last bytes (so the clamped copy differs from
/// the caller's copy) and whose digits use every table column, both signs.
const K: [u8; 32] = [
    0xff, 0x3c, 0x9a, 0x71, 0x08, 0xe5, 0x5d, 0x42, 0xb7, 0x13, 0xc9, 0x6e, 0x2a, 0xf4, 0x87, 0x50,
    0xd1, 0x39, 0xa6, 0x0b, 0x7f, 0xe2, 0x94, 0x1c, 0x65, 0xcb, 0x28, 0x8e, 0x43, 0xfa, 0x17, 0xff,
];

/// A u-coordinate for the ladder (any point: the ladder's secrets do not depend on it).
const U: [u8; 32] = [
    0xe6, 0xdb, 0x68, 0x67, 0x58, 0x30, 0x30, 0xdb, 0x35, 0x94, 0xc1, 0xa4, 0x24, 0xb1, 0x5f, 0x7c,
    0x72, 0x66, 0x24, 0xec, 0x26, 0xb3, 0x35, 0x3b, 0x10, 0xa9, 0x03, 0xa6, 0xd0, 0xab, 0x1c, 0x4c,
];

/// The clamped scalar and its signed digits (16-byte pieces, so partial copies count too).
fn scalar_needles() -> Needles {
    let s = clamp(&K);
    assert_ne!(s[0], K[0]);
    assert_ne!(s[31], K[31]);
    let e = recode(&s);
    let mut n = chunks("clamped scalar", &s, 16);
    n.extend(chunks("digits", &e.map(|d| d as u8), 16));
    n
}

/// A 32-byte canonical value as the five signed 62-bit limbs of `crate::inverse` (in memory).
fn limbs62(b: &[u8]) -> Vec<u8> {
    let w: [u64; 4] =
        core::array::from_fn(|i| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap()));
    let m = u64::MAX >> 2;
    let l = [
        w[0] & m,
        ((w[0] >> 62) | (w[1] << 2)) & m,
        ((w[1] >> 60) | (w[2] << 4)) & m,
        ((w[2] >> 58) | (w[3] << 6)) & m,
        w[3] >> 56,
    ];
    l.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// What the tap recorded while `op` ran, as needles (the inversion's values also in its signed
/// 62-bit limbs); values without enough distinct bytes to be told from chance (zero, one) are
/// left out.
fn tapped(op: impl FnOnce()) -> Needles {
    let mut n = Needles::new();
    for (what, v) in tap::capture(op) {
        let mut distinct = v.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() < 8 {
            continue;
        }
        if what.starts_with("inver") {
            n.push((format!("{what}, signed-62 limbs"), limbs62(&v)));
        }
        n.extend(chunks(what, &v, 16));
    }
    assert!(!n.is_empty(), "nothing recorded");
    n
}

/// The entries the scalar's digits select, as the generic `crate::base` path holds them:
/// `y + x` and `y - x` of row `j`'s entry `|d| - 1` (swapped for a negative digit, but each
/// whole).
fn selected_entries<F: Field>(f: F) -> Needles {
    let e = recode(&clamp(&K));
    let mut n = Needles::new();
    for (i, &d) in e.iter().enumerate() {
        if d == 0 {
            continue;
        }
        let entry = &f.table()[i / 2][usize::from(d.unsigned_abs()) - 1];
        n.push((format!("entry of digit {i} = {d}: y + x"), entry.ypx.raw()));
        n.push((format!("entry of digit {i} = {d}: y - x"), entry.ymx.raw()));
    }
    n
}

/// The entries as the AVX-512 IFMA path holds them: limb `l` of `[y + x, y - x, 2 d x y, 2]`
/// in one 32-byte group, the first two swapped for a negative digit (16-byte needles).
#[cfg(target_arch = "x86_64")]
fn selected_entries_x4() -> Needles {
    let e = recode(&clamp(&K));
    let mut n = Needles::new();
    for (i, &d) in e.iter().enumerate() {
        if d == 0 {
            continue;
        }
        let entry = &crate::table::TABLE_X4[i / 2][usize::from(d.unsigned_abs()) - 1];
        for l in 0..5 {
            let pair = if d > 0 {
                [entry[4 * l], entry[4 * l + 1]]
            } else {
                [entry[4 * l + 1], entry[4 * l]]
            };
            n.push((
                format!("entry of digit {i} = {d}: limb {l}"),
                pair.iter().flat_map(|x| x.to_le_bytes()).collect(),
            ));
        }
    }
    n
}

fn entries_for(b: Backend) -> Needles {
    match b {
        Backend::Portable => selected_entries(tessera_cpu::Portable),
        #[cfg(target_arch = "x86_64")]
        Backend::X86Bmi2Adx(t) => selected_entries(t),
        #[cfg(target_arch = "x86_64")]
        Backend::X86Avx512Ifma(_) => selected_entries_x4(),
        #[cfg(target_arch = "aarch64")]
        Backend::Aarch64(t) => selected_entries(t),
    }
}

fn base(b: Backend) -> impl FnMut() {
    move || {
        core::hint::black_box(b.run(BaseMult {
            k: core::hint::black_box(&K),
        }));
    }
}

fn ladder(b: Backend) -> impl FnMut() {
    move || {
        core::hint::black_box(b.run(ScalarMult {
            k: core::hint::black_box(&K),
            u: &U,
        }));
    }
}

/// Runs `check` on every backend and fails at the end with every backend's failure.
fn on_every_backend(check: impl Fn(Backend)) {
    check_all(Backend::all_available(), |b| String::from(b.name()), check);
}

macro_rules! wipe_test {
    ($(#[$doc:meta])* $name:ident, $body:expr) => {
        $(#[$doc])*
        #[test]
        #[cfg_attr(
            not(all(target_arch = "x86_64", not(miri))),
            ignore = "stack scanner: x86_64 only"
        )]
        fn $name() {
            on_every_backend($body);
        }
    };
}

wipe_test!(
    /// The fixed-base path leaves neither the clamped scalar, its digits, nor any table entry a
    /// digit selected (each one names a secret digit).
    fixed_base_wipes_scalar_and_selected_entries,
    |b| {
        let mut n = scalar_needles();
        n.extend(entries_for(b));
        assert_wiped(&format!("{} x25519_base", b.name()), base(b), &n);
    }
);

wipe_test!(
    /// The fixed-base path leaves neither its last projective point `p2` nor its scratch
    /// elements (which end as the numerator and denominator of `u`) nor the inversion's input,
    /// output and limbs.
    fixed_base_wipes_p2_scratch_and_inversion,
    |b| {
        let n = tapped(|| {
            base(b)();
        });
        assert_wiped(&format!("{} x25519_base", b.name()), base(b), &n);
    }
);

wipe_test!(
    /// The ladder leaves neither the clamped scalar nor the inversion's input, output and limbs
    /// (its state is wiped at the end, once, not per step).
    ladder_wipes_scalar_and_inversion,
    |b| {
        let mut n = scalar_needles();
        n.extend(tapped(|| {
            ladder(b)();
        }));
        assert_wiped(&format!("{} x25519", b.name()), ladder(b), &n);
    }
);
