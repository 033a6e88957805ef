//! Software against software: Tessera's `portable` AES-GCM backend (forced with
//! `new_with_backend(key, Backend::Portable)`) against RustCrypto `aes-gcm` 0.10 running its
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
//! On Linux the times are the benchmark thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), not wall
//! time: the dev machine is shared, and the two implementations are timed one after the other,
//! so wall time would charge each with whatever share of the core other processes took during
//! its own seconds. Both are single-threaded and do no I/O, so their CPU time is the time they
//! compute (cache and memory contention from neighbours still show).
#![allow(missing_docs)]

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use tessera_aes_gcm::Backend;

const SIZES: [(usize, &str); 3] = [(64, "64B"), (1024, "1KiB"), (16384, "16KiB")];
const NONCE: [u8; 12] = [7; 12];
const AAD: [u8; 13] = [0x17; 13];
const RUSTFLAGS: &str = "--cfg aes_force_soft --cfg polyval_force_soft";

/// Criterion measurement: CPU time of the calling thread (see the crate comment), formatted
/// like wall time.
struct ThreadCpuTime;

#[cfg(target_os = "linux")]
fn thread_cpu_now() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Elsewhere: wall time.
#[cfg(not(target_os = "linux"))]
fn thread_cpu_now() -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

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

/// A 64-byte aligned buffer of `len` bytes (see the memcpy note in the README): the backing
/// vector and the offset of the aligned start.
fn aligned(len: usize) -> (Vec<u8>, usize) {
    let v: Vec<u8> = (0..len + 64).map(|i| (i * 131 + 7) as u8).collect();
    let off = v.as_ptr().align_offset(64);
    (v, off)
}

#[allow(clippy::large_enum_variant)]
enum Tessera {
    A128(tessera_aes_gcm::Aes128Gcm),
    A256(tessera_aes_gcm::Aes256Gcm),
}

impl Tessera {
    fn portable(key: &[u8]) -> Self {
        let be = Backend::Portable;
        let t = match key.len() {
            16 => Tessera::A128(tessera_aes_gcm::Aes128Gcm::new_with_backend(
                key.try_into().unwrap(),
                be,
            )),
            _ => Tessera::A256(tessera_aes_gcm::Aes256Gcm::new_with_backend(
                key.try_into().unwrap(),
                be,
            )),
        };
        let got = match &t {
            Tessera::A128(k) => k.backend(),
            Tessera::A256(k) => k.backend(),
        };
        assert_eq!(got.name(), "portable");
        t
    }
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        match self {
            Tessera::A128(k) => k.encrypt_in_place_detached(&NONCE, &AAD, buf).unwrap(),
            Tessera::A256(k) => k.encrypt_in_place_detached(&NONCE, &AAD, buf).unwrap(),
        }
    }
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        match self {
            Tessera::A128(k) => k.decrypt_in_place_detached(&NONCE, &AAD, buf, tag).unwrap(),
            Tessera::A256(k) => k.decrypt_in_place_detached(&NONCE, &AAD, buf, tag).unwrap(),
        }
    }
}

#[allow(clippy::large_enum_variant)]
enum RustCrypto {
    A128(aes_gcm::Aes128Gcm),
    A256(aes_gcm::Aes256Gcm),
}

impl RustCrypto {
    fn new(key: &[u8]) -> Self {
        use aes_gcm::aead::KeyInit;
        match key.len() {
            16 => RustCrypto::A128(aes_gcm::Aes128Gcm::new_from_slice(key).unwrap()),
            _ => RustCrypto::A256(aes_gcm::Aes256Gcm::new_from_slice(key).unwrap()),
        }
    }
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        use aes_gcm::aead::AeadInPlace;
        let n = aes_gcm::Nonce::from_slice(&NONCE);
        match self {
            RustCrypto::A128(k) => k.encrypt_in_place_detached(n, &AAD, buf).unwrap(),
            RustCrypto::A256(k) => k.encrypt_in_place_detached(n, &AAD, buf).unwrap(),
        }
        .into()
    }
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        use aes_gcm::aead::AeadInPlace;
        let n = aes_gcm::Nonce::from_slice(&NONCE);
        let tag = aes_gcm::Tag::from_slice(tag);
        match self {
            RustCrypto::A128(k) => k.decrypt_in_place_detached(n, &AAD, buf, tag).unwrap(),
            RustCrypto::A256(k) => k.decrypt_in_place_detached(n, &AAD, buf, tag).unwrap(),
        }
    }
}

fn bench_soft(c: &mut Criterion<ThreadCpuTime>, bits: usize) {
    let key: Vec<u8> = (0..bits / 8).map(|i| i as u8 * 3 + 1).collect();
    let t = Tessera::portable(&key);
    let rc = RustCrypto::new(&key);

    for (size, label) in SIZES {
        let (mut v, off) = aligned(size);
        // The two must agree before either is timed.
        let pt: Vec<u8> = (0..size).map(|i| i as u8).collect();
        let (mut ct, mut ct_rc) = (pt.clone(), pt.clone());
        let tag_c = t.seal(&mut ct);
        assert_eq!(rc.seal(&mut ct_rc), tag_c);
        assert_eq!(ct, ct_rc);

        let mut g = c.benchmark_group(format!("op=aes{bits}-gcm-seal-soft,size={label}"));
        g.throughput(Throughput::Bytes(size as u64));
        g.warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_millis(1500))
            .sample_size(20);
        g.bench_function("impl=tessera/portable", |b| {
            let buf = &mut v[off..off + size];
            b.iter(|| black_box(t.seal(black_box(buf))))
        });
        g.bench_function("impl=aes-gcm/soft", |b| {
            let buf = &mut v[off..off + size];
            b.iter(|| black_box(rc.seal(black_box(buf))))
        });
        g.finish();

        // Open in place with no per-iteration set-up, as in `aes_gcm.rs`: with one nonce the
        // keystream is fixed, so opening `C` (tag `tag_c`) leaves `P` and opening `P` (tag
        // `tag_p`, the tag of sealing `C`) leaves `C` again.
        let mut g = c.benchmark_group(format!("op=aes{bits}-gcm-open-soft,size={label}"));
        g.throughput(Throughput::Bytes(size as u64));
        g.warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_millis(1500))
            .sample_size(20);
        let mut again = ct.clone();
        let tag_p = t.seal(&mut again);
        assert_eq!(again, pt);
        let tags = [tag_c, tag_p];
        let reset = |v: &mut [u8]| {
            v[off..off + size].copy_from_slice(&ct);
            0usize
        };
        g.bench_function("impl=tessera/portable", |b| {
            let mut s = reset(&mut v);
            let buf = &mut v[off..off + size];
            b.iter(|| {
                t.open(black_box(&mut *buf), &tags[s]);
                s ^= 1;
            })
        });
        g.bench_function("impl=aes-gcm/soft", |b| {
            let mut s = reset(&mut v);
            let buf = &mut v[off..off + size];
            b.iter(|| {
                rc.open(black_box(&mut *buf), &tags[s]);
                s ^= 1;
            })
        });
        g.finish();
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
