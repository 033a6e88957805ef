//! NIST CAVP SHA-3 / SHAKE vectors (Short, Long, Monte, VariableOut) from the official set, on
//! every single-state backend this CPU has (not only the detected one), plus the public
//! one-shots on the detected backend.

#[path = "data/common.rs"]
mod common;

use common::multi_one_shot;
use tessera_keccak::testing::{X1Backend, X4Backend};
use tessera_keccak::{
    Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake128x2, Shake128x4, Shake256, Shake256x2,
    Shake256x4, XofReader,
};
use tessera_testkit::cavp;

fn backends() -> Vec<X1Backend> {
    let b: Vec<X1Backend> = tessera_testkit::available::<X1Backend>();
    eprintln!(
        "CAVP on single-state backends {:?}",
        b.iter().map(|b| b.name()).collect::<Vec<_>>()
    );
    b
}

/// SHA3-`bits` of `m` on `be`, absorbed in pieces of `chunk` bytes.
fn sha3(be: X1Backend, bits: usize, m: &[u8], chunk: usize) -> Vec<u8> {
    macro_rules! run {
        ($h:ident) => {{
            let mut h = $h::new_with_backend(be);
            for p in m.chunks(chunk) {
                h.update(p);
            }
            h.finalize().to_vec()
        }};
    }
    match bits {
        224 => run!(Sha3_224),
        256 => run!(Sha3_256),
        384 => run!(Sha3_384),
        512 => run!(Sha3_512),
        _ => unreachable!(),
    }
}

/// The public one-shot SHA3-`bits` (detected backend).
fn sha3_one_shot(bits: usize, m: &[u8]) -> Vec<u8> {
    match bits {
        224 => tessera_keccak::sha3_224(m).to_vec(),
        256 => tessera_keccak::sha3_256(m).to_vec(),
        384 => tessera_keccak::sha3_384(m).to_vec(),
        512 => tessera_keccak::sha3_512(m).to_vec(),
        _ => unreachable!(),
    }
}

fn shake_reader(be: X1Backend, bits: usize, m: &[u8], chunk: usize) -> XofReader {
    macro_rules! run {
        ($h:ident) => {{
            let mut h = $h::new_with_backend(be);
            for p in m.chunks(chunk) {
                h.update(p);
            }
            h.finalize_xof()
        }};
    }
    match bits {
        128 => run!(Shake128),
        256 => run!(Shake256),
        _ => unreachable!(),
    }
}

/// SHAKE`bits` of `m` on `be`: `out_len` bytes, absorbed in pieces of `chunk`, read in pieces of
/// `read`.
fn shake(
    be: X1Backend,
    bits: usize,
    m: &[u8],
    out_len: usize,
    chunk: usize,
    read: usize,
) -> Vec<u8> {
    let mut r = shake_reader(be, bits, m, chunk);
    let mut out = vec![0u8; out_len];
    for c in out.chunks_mut(read) {
        r.read(c);
    }
    out
}

fn shake_one_shot(bits: usize, m: &[u8], out_len: usize) -> Vec<u8> {
    let mut out = vec![0u8; out_len];
    match bits {
        128 => tessera_keccak::shake128(m, &mut out),
        256 => tessera_keccak::shake256(m, &mut out),
        _ => unreachable!(),
    }
    out
}

/// The records of the CAVP file `{prefix}{bits}{kind}.rsp` for each of `bits` whose file is
/// present (`cavp::load` reports a missing one, and fails the test under CI).
fn files<'a>(
    prefix: &'a str,
    bits: &'a [usize],
    kind: &'a str,
) -> impl Iterator<Item = (usize, Vec<cavp::Record>)> + 'a {
    bits.iter()
        .filter_map(move |&b| Some((b, cavp::load(&format!("{prefix}{b}{kind}.rsp"))?)))
}

fn msg(r: &cavp::Record) -> Vec<u8> {
    let mut m = r.hex("Msg");
    m.truncate(r.int("Len") / 8);
    m
}

/// The ShortMsg and LongMsg files `{prefix}{bits}{kind}.rsp` (the byte-oriented set). For each record, `check(record, message, expected)` runs it on every
/// backend. Returns the number of records checked.
fn short_and_long(
    prefix: &str,
    bits: usize,
    field: &str,
    mut check: impl FnMut(&cavp::Record, &[u8], &[u8]),
) -> usize {
    let mut n = 0;
    for kind in ["ShortMsg", "LongMsg"] {
        let Some((_, recs)) = files(prefix, &[bits], kind).next() else {
            continue;
        };
        let mut k = 0;
        for r in recs.iter().filter(|r| r.fields.contains_key(field)) {
            assert_eq!(
                r.int("Len") % 8,
                0,
                "bit-length records are not in the byte-oriented set"
            );
            check(r, &msg(r), &r.hex(field));
            k += 1;
        }
        assert!(k > 0, "{prefix}{bits}{kind}: no records");
        eprintln!("{prefix}{bits}{kind}: {k} records");
        n += k;
    }
    n
}

#[test]
fn sha3_short_and_long() {
    let bes = backends();
    let mut n = 0;
    for bits in [224, 256, 384, 512] {
        n += short_and_long("SHA3_", bits, "MD", |r, m, md| {
            let len = r.int("Len");
            assert_eq!(sha3_one_shot(bits, m), md, "SHA3-{bits} Len={len} one-shot");
            for &be in &bes {
                let name = be.name();
                assert_eq!(
                    sha3(be, bits, m, usize::MAX),
                    md,
                    "SHA3-{bits} Len={len} {name}"
                );
                // Incremental, in uneven pieces.
                let chunk = (m.len() / 3).max(1);
                assert_eq!(
                    sha3(be, bits, m, chunk),
                    md,
                    "SHA3-{bits} Len={len} {name} pieces"
                );
            }
        });
    }
    eprintln!(
        "sha3 short/long vectors checked: {n}, each on {} backends",
        bes.len()
    );
}

#[test]
fn shake_short_and_long() {
    let bes = backends();
    let mut n = 0;
    for bits in [128, 256] {
        n += short_and_long("SHAKE", bits, "Output", |r, m, out| {
            let len = r.int("Len");
            assert_eq!(
                shake_one_shot(bits, m, out.len()),
                out,
                "SHAKE{bits} Len={len} one-shot"
            );
            for &be in &bes {
                let name = be.name();
                let whole = shake(be, bits, m, out.len(), usize::MAX, usize::MAX);
                assert_eq!(whole, out, "SHAKE{bits} Len={len} {name}");
                let chunk = (m.len() / 3).max(1);
                let pieces = shake(be, bits, m, out.len(), chunk, 5);
                assert_eq!(pieces, out, "SHAKE{bits} Len={len} {name} pieces");
            }
        });
    }
    eprintln!(
        "shake short/long vectors checked: {n}, each on {} backends",
        bes.len()
    );
}

/// SHAKE`bits` of `m` in every way of the x4 and x2 APIs on multi-way backend `be`: `blocks`
/// squeezed blocks per way, x4 ways first.
fn shake_multi(be: X4Backend, bits: usize, m: &[u8], blocks: usize) -> [Vec<u8>; 6] {
    let (x4, x2) = if bits == 128 {
        (
            multi_one_shot::<4, Shake128x4>(be, [m; 4], blocks),
            multi_one_shot::<2, Shake128x2>(be, [m; 2], blocks),
        )
    } else {
        (
            multi_one_shot::<4, Shake256x4>(be, [m; 4], blocks),
            multi_one_shot::<2, Shake256x2>(be, [m; 2], blocks),
        )
    };
    let ([o0, o1, o2, o3], [o4, o5]) = (x4, x2);
    [o0, o1, o2, o3, o4, o5]
}

/// The SHAKE Short/Long records through the multi-way APIs (`Shake128x4`, `Shake128x2`, ...)
/// on every multi-way backend, the record's message in every way (the equivalence tests cover
/// different messages per way).
#[test]
fn shake_multi_way_short_and_long() {
    let bes: Vec<X4Backend> = tessera_testkit::available::<X4Backend>();
    eprintln!(
        "CAVP on multi-way backends {:?}",
        bes.iter().map(|b| b.name()).collect::<Vec<_>>()
    );
    let mut n = 0;
    for bits in [128, 256] {
        n += short_and_long("SHAKE", bits, "Output", |r, m, out| {
            let rate = if bits == 128 { 168 } else { 136 };
            for &be in &bes {
                for (w, got) in shake_multi(be, bits, m, out.len().div_ceil(rate))
                    .iter()
                    .enumerate()
                {
                    assert_eq!(
                        &got[..out.len()],
                        out,
                        "SHAKE{bits} Len={} {} way {w} (0..4: x4, 4..6: x2)",
                        r.int("Len"),
                        be.name()
                    );
                }
            }
        });
    }
    eprintln!(
        "shake multi-way vectors checked: {n}, each on {} backends",
        bes.len()
    );
}

/// One CAVP Monte Carlo run on one backend (`name`): from `seed`, each checkpoint record is
/// reached by 1000 applications of `step` and must equal its `field`; there are 100 of them.
fn monte(
    recs: &[cavp::Record],
    field: &str,
    what: &str,
    name: &str,
    seed: Vec<u8>,
    mut step: impl FnMut(&[u8]) -> Vec<u8>,
) {
    let mut value = seed;
    let mut checked = 0;
    for r in recs.iter().filter(|r| r.fields.contains_key(field)) {
        for _ in 0..1000 {
            value = step(&value);
        }
        assert_eq!(
            value,
            r.hex(field),
            "{what} Monte COUNT={} {name}",
            r.get("COUNT")
        );
        checked += 1;
    }
    assert_eq!(checked, 100);
}

#[test]
fn sha3_monte() {
    let bes = backends();
    for (bits, recs) in files("SHA3_", &[224, 256, 384, 512], "Monte") {
        for &be in &bes {
            let what = format!("SHA3-{bits}");
            monte(&recs, "MD", &what, be.name(), recs[0].hex("Seed"), |md| {
                sha3(be, bits, md, usize::MAX)
            });
        }
    }
}

#[test]
fn shake_variable_out() {
    let bes = backends();
    for (bits, recs) in files("SHAKE", &[128, 256], "VariableOut") {
        let mut n = 0;
        for r in recs.iter().filter(|r| r.fields.contains_key("Output")) {
            let expect = r.hex("Output");
            assert_eq!(r.int("Outputlen").div_ceil(8), expect.len());
            let m = r.hex("Msg");
            let count = r.get("COUNT");
            assert_eq!(
                shake_one_shot(bits, &m, expect.len()),
                expect,
                "SHAKE{bits} VariableOut COUNT={count} one-shot"
            );
            for &be in &bes {
                // The same output read whole and in 1-, 7- and 13-byte chunks.
                for read in [usize::MAX, 1, 7, 13] {
                    assert_eq!(
                        shake(be, bits, &m, expect.len(), usize::MAX, read),
                        expect,
                        "SHAKE{bits} VariableOut COUNT={count} {} read {read}",
                        be.name()
                    );
                }
            }
            n += 1;
        }
        assert!(n > 0);
        eprintln!(
            "SHAKE{bits}VariableOut: {n} records, each on {} backends",
            bes.len()
        );
    }
}

/// SHA3VS section 6.3.3 Monte Carlo test for SHAKE (output lengths in bytes).
#[test]
fn shake_monte() {
    let bes = backends();
    for (bits, recs) in files("SHAKE", &[128, 256], "Monte") {
        let hdr = |k: &str| -> usize {
            recs[0]
                .headers
                .iter()
                .find(|(h, _)| h.starts_with(k))
                .expect(k)
                .1
                .parse()
                .unwrap()
        };
        let min = hdr("Minimum Output Length") / 8;
        let max = hdr("Maximum Output Length") / 8;
        for &be in &bes {
            let what = format!("SHAKE{bits}");
            let mut out_len = max;
            monte(
                &recs,
                "Output",
                &what,
                be.name(),
                recs[0].hex("Msg"),
                |prev| {
                    // The leftmost 128 bits of the previous output, zero-padded when shorter.
                    let mut m = [0u8; 16];
                    let k = prev.len().min(16);
                    m[..k].copy_from_slice(&prev[..k]);
                    let output = shake(be, bits, &m, out_len, usize::MAX, usize::MAX);
                    let right =
                        u16::from_be_bytes([output[output.len() - 2], output[output.len() - 1]]);
                    out_len = min + (right as usize % (max - min + 1));
                    output
                },
            );
        }
    }
}
