//! Constant-time check, run under valgrind memcheck by `cargo xtask test`:
//!
//! ```sh
//! cargo build --release -p tessera-ct-valgrind --example keccak
//! valgrind --tool=memcheck --error-exitcode=1 target/release/examples/keccak portable
//! valgrind --tool=memcheck --error-exitcode=1 target/release/examples/keccak canary # exits 1
//! ```
//!
//! The argument names a backend of either table: a single-state one (`x86_bmi`,
//! `aarch64_sha3`) runs every single-state function (SHA3-224/256/384/512, SHAKE128/256,
//! TurboSHAKE128/256: the tests' `every_x1`) over secret input, absorbed whole and in pieces;
//! a four-way one (`x86_avx2`, `aarch64_neon`) runs `Shake128x4` and `Shake256x2` over four
//! secret inputs; `portable` runs both. Inputs (and the XOF output buffers) are marked
//! undefined, so any branch or index on them is reported; outputs are marked defined before
//! they are compared with the portable results.

#[path = "../../keccak/tests/data/common.rs"]
mod common;

use tessera_keccak::testing::{X1Backend, X4Backend};
use tessera_keccak::{Shake128x4, Shake256x2};
use tessera_testkit::ct;

/// Every single-state function (the four SHA-3 digests, 300 bytes of each XOF) of a secret
/// message on `be`, absorbed whole and in two pieces at three split points; returns the
/// outputs (made public).
fn x1_outputs(be: X1Backend, m: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for split in [0, 1, m.len() / 2, m.len()] {
        let (a, b) = m.split_at(split.min(m.len()));
        let d = common::every_x1(be, &[a, b], 300, [0x1F, 0x1F]);
        ct::public(&d);
        out.push(d);
    }
    out
}

/// Four-way SHAKE of four secret inputs on `be`; returns the outputs (made public).
fn x4_outputs(be: X4Backend, ins: &[Vec<u8>; 4]) -> Vec<u8> {
    let refs: [&[u8]; 4] = core::array::from_fn(|w| &ins[w][..]);
    let mut x = Shake128x4::new_with_backend(be, refs).expect("equal lengths");
    let mut o = [[0u8; 2 * 168]; 4];
    x.squeeze_blocks(o.each_mut().map(|r| &mut r[..]))
        .expect("whole blocks");
    let mut y = Shake256x2::new_with_backend(be, [refs[0], refs[1]]).expect("equal lengths");
    let mut p = [[0u8; 136]; 2];
    y.squeeze_blocks(p.each_mut().map(|r| &mut r[..]))
        .expect("whole blocks");
    let mut d: Vec<u8> = o.as_flattened().to_vec();
    d.extend_from_slice(p.as_flattened());
    ct::public(&d);
    d
}

fn main() {
    ct::main_by_name("keccak ct_valgrind", |want| {
        let x1 = X1Backend::from_name(want);
        let x4 = X4Backend::from_name(want);
        if x1.is_none() && x4.is_none() {
            return None;
        }
        let mut runs = 0;
        for len in [0usize, 1, 71, 72, 135, 136, 137, 168, 500] {
            let m: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            if let Some(be) = x1 {
                let reference = x1_outputs(X1Backend::Portable, &m);
                let secret = m.clone();
                ct::secret(&secret);
                assert_eq!(x1_outputs(be, &secret), reference, "x1 len {len}");
                runs += 8 * 4;
            }
            if let Some(be) = x4 {
                let ins: [Vec<u8>; 4] =
                    core::array::from_fn(|w| m.iter().map(|b| b ^ (w as u8 * 0x55)).collect());
                let reference = x4_outputs(X4Backend::Portable, &ins);
                let secret = ins.clone();
                for s in &secret {
                    ct::secret(s);
                }
                assert_eq!(x4_outputs(be, &secret), reference, "x4 len {len}");
                runs += 2;
            }
        }
        Some(runs)
    });
}
