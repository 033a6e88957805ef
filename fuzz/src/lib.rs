//! Shared helpers of the fuzz targets: every backend of a table, arbitrary split points of a
//! message, and the check that reports a differential mismatch as a crash.
//!
//! The targets need this workspace's test hooks (`--cfg tessera_test_hooks`: the derandomized
//! KEM and HPKE entry points); `cargo xtask fuzz` sets them.

#[cfg(not(tessera_test_hooks))]
compile_error!(
    "build the fuzz targets with `cargo xtask fuzz` (RUSTFLAGS needs --cfg tessera_test_hooks)"
);

use tessera_cpu::BackendSet;

/// Every backend of table `B` this CPU runs, portable first.
pub fn backends<B: BackendSet>() -> Vec<B> {
    B::all_available().collect()
}

/// `data` cut at the given split points (each taken modulo the remaining length + 1), the
/// rest as the last piece: the updates of a streaming hasher.
pub fn pieces<'a>(data: &'a [u8], splits: &[u16]) -> Vec<&'a [u8]> {
    let mut out = Vec::with_capacity(splits.len() + 1);
    let mut rest = data;
    for &s in splits {
        let n = s as usize % (rest.len() + 1);
        let (a, b) = rest.split_at(n);
        out.push(a);
        rest = b;
    }
    out.push(rest);
    out
}

/// Lengths of successive reads of an XOF: each split point taken modulo `total + 1`, capped
/// so that the reads add up to `total`.
pub fn read_lengths(total: usize, splits: &[u16]) -> Vec<usize> {
    let mut out = Vec::with_capacity(splits.len() + 1);
    let mut left = total;
    for &s in splits {
        let n = s as usize % (left + 1);
        out.push(n);
        left -= n;
    }
    out.push(left);
    out
}

/// Fails the run (a libFuzzer crash) when `ours != theirs`, naming the case.
#[track_caller]
pub fn same<T: PartialEq + core::fmt::Debug + ?Sized>(what: &str, ours: &T, theirs: &T) {
    assert!(
        ours == theirs,
        "mismatch: {what}\n ours:   {ours:?}\n theirs: {theirs:?}"
    );
}

/// The bytes of a parsed input: `data` XORed over `genuine` (the genuine length, unless op bits
/// 5-6 ask for one byte less or more), or `data` itself when op bit 7 is set.
pub fn tampered(op: u8, genuine: &[u8], data: &[u8]) -> Vec<u8> {
    if op & 0x80 != 0 {
        return data.to_vec();
    }
    let mut v = genuine.to_vec();
    for (a, b) in v.iter_mut().zip(data) {
        *a ^= b;
    }
    match (op >> 5) & 3 {
        1 => {
            v.pop();
        }
        2 => v.push(data.first().copied().unwrap_or(0)),
        _ => {}
    }
    v
}
