//! Software against software: Tessera's `portable` AES-GCM backend (forced with
//! `new_with_backend(Backend::Portable, key)`) against RustCrypto `aes-gcm` 0.10 running its
//! software AES (fixsliced) and software POLYVAL (BearSSL's constant-time multiplication).
//! AES-128 and AES-256, seal and open, 96-bit nonce, 13 bytes of AAD, 64-byte aligned buffers.
//!
//! RustCrypto picks AES-NI/PCLMULQDQ at run time unless the `aes` and `polyval` crates are
//! compiled with `--cfg aes_force_soft --cfg polyval_force_soft`. Those are RUSTFLAGS for the
//! whole build, so `cargo xtask bench` builds and runs this bench alone in a second cargo
//! invocation with those flags and its own `CARGO_TARGET_DIR` (`target/soft`):
//!
//! ```text
//! RUSTFLAGS='--cfg aes_force_soft --cfg polyval_force_soft' CARGO_TARGET_DIR=target/soft \
//!     cargo bench -p tessera-benches --bench aes_gcm_soft
//! ```
//!
//! The binary checks at start-up that RustCrypto really is on its software path (the cfgs are
//! set in this build, and `aes_gcm::Aes128Gcm`/`Aes256Gcm` have the 8-byte alignment of the
//! software key schedules: the AES-NI/CLMUL variants hold `__m128i`/`uint8x16_t` values, which
//! raise it to 16). Built without the cfgs (a plain `cargo bench`, clippy), it measures nothing
//! and says so, rather than comparing against the AES-NI code under a "soft" name.
//!
//! The dev machine is shared, and its pace changes from second to second. So the two rows of a
//! group are measured interleaved: each row's samples time its own implementation in batches
//! (about 50-150 us) that alternate with equal batches of the other implementation, untimed;
//! a slow stretch falls on both rows. And on Linux the times are the benchmark thread's CPU time
//! (`CLOCK_THREAD_CPUTIME_ID`), not wall time, so time other processes hold the core is not
//! charged to whichever batch it interrupted. Both implementations are single-threaded and do
//! no I/O, so their CPU time is the time they compute (cache and memory contention from
//! neighbours still show). A group takes twice its measurement time.
#![allow(missing_docs)]

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use tessera_aes_gcm::testing::Backend;
use tessera_benches::interleave::thread_cpu_now;
use tessera_benches::{AAD, NONCE, RustCryptoGcm, tessera_gcm};
use tessera_testkit::aligned;

const SIZES: [(usize, &str); 3] = [(64, "64B"), (1024, "1KiB"), (16384, "16KiB")];
const RUSTFLAGS: &str = "--cfg aes_force_soft --cfg polyval_force_soft";

/// Criterion measurement: CPU time of the calling thread (see the crate comment), formatted
/// like wall time.
struct ThreadCpuTime;

static WALL: WallTime = WallTime;

impl Measurement for ThreadCpuTime {
    type Intermediate = Duration;
    type Value = Duration;

    fn start(&self) -> Duration {
        thread_cpu_now()
    }
    fn end(&self, start: Duration) -> Duration {
        thread_cpu_now().saturating_sub(start)
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, d: &Duration) -> f64 {
        d.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        WALL.formatter()
    }
}

/// Whether RustCrypto's AES and POLYVAL are the software ones in this binary (see the crate
/// comment): the build says so, and the types agree.
fn rustcrypto_soft() -> bool {
    let cfgs = cfg!(all(aes_force_soft, polyval_force_soft));
    let align = (
        std::mem::align_of::<aes_gcm::Aes128Gcm>(),
        std::mem::align_of::<aes_gcm::Aes256Gcm>(),
    );
    let soft_layout = align.0 <= 8 && align.1 <= 8;
    if cfgs && !soft_layout {
        panic!(
            "built with {RUSTFLAGS} but aes_gcm::Aes128Gcm/Aes256Gcm are {align:?}-aligned: \
             RustCrypto still holds SIMD key schedules, refusing to bench it as software"
        );
    }
    if !cfgs {
        eprintln!(
            "aes_gcm_soft: skipped (RustCrypto aes-gcm would use AES-NI/CLMUL here; layout \
             alignment {align:?}). Run `cargo xtask bench`, or build this bench with \
             RUSTFLAGS='{RUSTFLAGS}' and its own CARGO_TARGET_DIR."
        );
    }
    cfgs && soft_layout
}

/// Times `timed` in batches of `batch` iterations, each followed by as many untimed iterations
/// of `other`: the two rows of a group are measured over the same seconds, so a slower or
/// faster stretch of the shared machine falls on both.
fn interleaved(
    iters: u64,
    batch: u64,
    timed: &mut dyn FnMut(),
    other: &mut dyn FnMut(),
) -> Duration {
    let mut t = Duration::ZERO;
    let mut done = 0;
    while done < iters {
        let n = batch.min(iters - done);
        let start = thread_cpu_now();
        for _ in 0..n {
            timed();
        }
        t += thread_cpu_now().saturating_sub(start);
        for _ in 0..n {
            other();
        }
        done += n;
    }
    t
}

/// One group: the Tessera row and the RustCrypto row, each timed interleaved with the other.
fn pair(
    c: &mut Criterion<ThreadCpuTime>,
    name: String,
    size: usize,
    ours: &mut dyn FnMut(),
    theirs: &mut dyn FnMut(),
) {
    // About 50-150 us per batch: long against the clock reads, short against the machine's
    // changes of pace.
    let batch = (4096 / size as u64).max(1);
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(size as u64));
    // Short: a group runs both implementations for twice these times, and `cargo xtask bench`
    // must stay under about ten minutes in all.
    g.warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(800))
        .sample_size(20);
    g.bench_function("impl=tessera/portable", |b| {
        b.iter_custom(|iters| interleaved(iters, batch, &mut *ours, &mut *theirs))
    });
    g.bench_function("impl=aes-gcm/soft", |b| {
        b.iter_custom(|iters| interleaved(iters, batch, &mut *theirs, &mut *ours))
    });
    g.finish();
}

fn bench_soft(c: &mut Criterion<ThreadCpuTime>, bits: usize) {
    let key: Vec<u8> = (0..bits / 8).map(|i| i as u8 * 3 + 1).collect();
    let t = tessera_gcm(&key, Backend::Portable);
    let seal = |buf: &mut [u8]| t.encrypt_in_place_detached(&NONCE, &AAD, buf).unwrap();
    let open = |buf: &mut [u8], tag: &[u8; 16]| {
        t.decrypt_in_place_detached(&NONCE, &AAD, buf, tag).unwrap()
    };
    let rc = RustCryptoGcm::new(&key);

    for (size, label) in SIZES {
        // Each implementation gets its own buffer (they run interleaved).
        let (mut va, offa) = aligned(size);
        let (mut vb, offb) = aligned(size);
        // The two must agree before either is timed.
        let pt: Vec<u8> = (0..size).map(|i| i as u8).collect();
        let (mut ct, mut ct_rc) = (pt.clone(), pt.clone());
        let tag_c = seal(&mut ct);
        assert_eq!(rc.seal(&mut ct_rc), tag_c);
        assert_eq!(ct, ct_rc);

        pair(
            c,
            format!("op=aes{bits}-gcm-seal-soft,size={label}"),
            size,
            &mut || {
                black_box(seal(black_box(&mut va[offa..offa + size])));
            },
            &mut || {
                black_box(rc.seal(black_box(&mut vb[offb..offb + size])));
            },
        );

        // Open in place with no per-iteration set-up, as in `aes_gcm.rs`: with one nonce the
        // keystream is fixed, so opening `C` (tag `tag_c`) leaves `P` and opening `P` (tag
        // `tag_p`, the tag of sealing `C`) leaves `C` again.
        let mut again = ct.clone();
        let tag_p = seal(&mut again);
        assert_eq!(again, pt);
        let tags = [tag_c, tag_p];
        va[offa..offa + size].copy_from_slice(&ct);
        vb[offb..offb + size].copy_from_slice(&ct);
        let (mut sa, mut sb) = (0usize, 0usize);
        pair(
            c,
            format!("op=aes{bits}-gcm-open-soft,size={label}"),
            size,
            &mut || {
                open(black_box(&mut va[offa..offa + size]), &tags[sa]);
                sa ^= 1;
            },
            &mut || {
                rc.open(black_box(&mut vb[offb..offb + size]), &tags[sb]);
                sb ^= 1;
            },
        );
    }
}

fn aes_gcm_soft(c: &mut Criterion<ThreadCpuTime>) {
    if rustcrypto_soft() {
        bench_soft(c, 128);
        bench_soft(c, 256);
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(ThreadCpuTime);
    targets = aes_gcm_soft
}
criterion_main!(benches);
