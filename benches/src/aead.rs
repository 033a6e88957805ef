//! The criterion seal and open groups that the `aes_gcm` and `chacha20poly1305` benches share:
//! Tessera on every available backend against ring, aws-lc-rs and the RustCrypto crate, at
//! every size of [`SIZES`], in place on one 64-byte aligned buffer.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;
use tessera_testkit::aligned;

use crate::{NONCE, RustCryptoGcm};

/// The message sizes of every AEAD group: (bytes, label in the group name).
pub const SIZES: [(usize, &str); 4] = [
    (64, "64B"),
    (1024, "1KiB"),
    (16384, "16KiB"),
    (65536, "64KiB"),
];

/// An AEAD with detached tags, as the benches call it: seal in place returning the tag, open in
/// place checking it (panicking on a bad tag: the benches only open valid ciphertexts).
pub trait DetachedAead {
    fn seal(&self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> [u8; 16];
    fn open(&self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8], tag: &[u8; 16]);
}

/// [`DetachedAead`] for a Tessera AEAD type (the same inherent methods in both crates).
macro_rules! tessera_detached {
    ($t:ty) => {
        impl DetachedAead for $t {
            #[inline(always)]
            fn seal(&self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
                self.encrypt_in_place_detached(nonce, aad, buf).unwrap()
            }
            #[inline(always)]
            fn open(&self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8], tag: &[u8; 16]) {
                self.decrypt_in_place_detached(nonce, aad, buf, tag)
                    .unwrap()
            }
        }
    };
}
tessera_detached!(tessera_aes_gcm::AesGcm);
tessera_detached!(tessera_chacha20poly1305::ChaCha20Poly1305);

impl DetachedAead for RustCryptoGcm {
    #[inline(always)]
    fn seal(&self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
        use aes_gcm::aead::AeadInPlace;
        let n = aes_gcm::Nonce::from_slice(nonce);
        match self {
            RustCryptoGcm::A128(k) => k.encrypt_in_place_detached(n, aad, buf).unwrap(),
            RustCryptoGcm::A256(k) => k.encrypt_in_place_detached(n, aad, buf).unwrap(),
        }
        .into()
    }
    #[inline(always)]
    fn open(&self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8], tag: &[u8; 16]) {
        use aes_gcm::aead::AeadInPlace;
        let n = aes_gcm::Nonce::from_slice(nonce);
        let tag = aes_gcm::Tag::from_slice(tag);
        match self {
            RustCryptoGcm::A128(k) => k.decrypt_in_place_detached(n, aad, buf, tag).unwrap(),
            RustCryptoGcm::A256(k) => k.decrypt_in_place_detached(n, aad, buf, tag).unwrap(),
        }
    }
}

impl DetachedAead for chacha20poly1305::ChaCha20Poly1305 {
    #[inline(always)]
    fn seal(&self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
        use chacha20poly1305::aead::AeadInPlace;
        self.encrypt_in_place_detached(nonce.into(), aad, buf)
            .unwrap()
            .into()
    }
    #[inline(always)]
    fn open(&self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8], tag: &[u8; 16]) {
        use chacha20poly1305::aead::AeadInPlace;
        self.decrypt_in_place_detached(nonce.into(), aad, buf, tag.into())
            .unwrap()
    }
}

/// One AEAD's groups: `op=OP-seal,size=S` and `op=OP-open,size=S` for every size, with the
/// rows `impl=tessera/BACKEND`, `impl=ring`, `impl=aws-lc-rs` and `impl=RUST_CRYPTO`. Every
/// implementation uses [`NONCE`] and `aad`.
pub struct AeadGroups<'a> {
    /// The operation in the group names: `aes128-gcm`, `chacha20poly1305`.
    pub op: &'a str,
    /// The key of every implementation.
    pub key: &'a [u8],
    /// The additional data of every seal and open.
    pub aad: &'a [u8],
    /// The algorithm in ring and in aws-lc-rs.
    pub ring: &'static ring::aead::Algorithm,
    pub aws: &'static aws_lc_rs::aead::Algorithm,
    /// The RustCrypto crate's name in its row (`aes-gcm`, `chacha20poly1305`).
    pub rust_crypto: &'a str,
}

/// ring's and aws-lc-rs's in-place API (the same in both crates): seal with a separate tag,
/// open with the tag read from the end of the buffer.
pub trait TagAtEnd {
    fn seal(&self, nonce: [u8; 12], aad: &[u8], buf: &mut [u8]) -> [u8; 16];
    /// Opens `buf`: the ciphertext followed by its 16-byte tag.
    fn open(&self, nonce: [u8; 12], aad: &[u8], buf: &mut [u8]);
}

/// [`TagAtEnd`] for the `LessSafeKey` of `$c` (`ring`, `aws_lc_rs`: the same API in both).
macro_rules! tag_at_end {
    ($c:ident) => {
        impl TagAtEnd for $c::aead::LessSafeKey {
            #[inline(always)]
            fn seal(&self, nonce: [u8; 12], aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
                let n = $c::aead::Nonce::assume_unique_for_key(nonce);
                let t = self
                    .seal_in_place_separate_tag(n, $c::aead::Aad::from(aad), buf)
                    .unwrap();
                t.as_ref().try_into().unwrap()
            }
            #[inline(always)]
            fn open(&self, nonce: [u8; 12], aad: &[u8], buf: &mut [u8]) {
                let n = $c::aead::Nonce::assume_unique_for_key(nonce);
                self.open_in_place(n, $c::aead::Aad::from(aad), buf)
                    .unwrap();
            }
        }
    };
}
tag_at_end!(ring);
tag_at_end!(aws_lc_rs);

/// The group `name` of one size: throughput in bytes, 0.5 s of warm-up, 2 s of measurement in
/// 20 samples.
fn group<'c>(c: &'c mut Criterion, name: &str, size: usize) -> BenchmarkGroup<'c, WallTime> {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(size as u64));
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    g
}

/// A seal row: `seal` on the first `size` bytes at `off` of `v`, in place, repeatedly (the
/// buffer's content does not matter).
fn seal_row<O>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    v: &mut [u8],
    (off, size): (usize, usize),
    seal: impl Fn(&mut [u8]) -> O,
) {
    g.bench_function(name, |b| {
        let buf = &mut v[off..off + size];
        b.iter(|| black_box(seal(black_box(buf))))
    });
}

/// An open row: `open` on the first `len` bytes at `off` of `v` (the message, and room for the
/// tag where the library reads it from the end), which [`OpenCase::reset`] first fills with
/// `C`; each iteration opens what the buffer holds with the matching tag of `case`.
fn open_row(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    v: &mut [u8],
    (off, len): (usize, usize),
    case: &OpenCase,
    open: impl Fn(&mut [u8], &[u8; 16]),
) {
    g.bench_function(name, |b| {
        let mut s = case.reset(&mut v[off..]);
        let buf = &mut v[off..off + len];
        b.iter(|| {
            open(black_box(&mut *buf), &case.tags[s]);
            s ^= 1;
        })
    });
}

/// The open rows' message states. In place on the same reused, 64-byte aligned (hot) buffer as
/// seal, with no set-up per iteration: with one nonce the keystream is fixed, so opening `C`
/// (tag `tags[0]`) leaves `P`, and opening `P` as a ciphertext (tag `tags[1]`, the tag of
/// sealing `C`) leaves `C` again: each iteration opens whatever the buffer holds, with the
/// matching tag. Every iteration is the same work (one full, successful open).
struct OpenCase {
    ct: Vec<u8>,
    tags: [[u8; 16]; 2],
}

impl OpenCase {
    /// Puts `C` at the start of `v`; returns the state index (0: holds `C`).
    fn reset(&self, v: &mut [u8]) -> usize {
        v[..self.ct.len()].copy_from_slice(&self.ct);
        0
    }
}

impl AeadGroups<'_> {
    /// Runs every group: `tessera` gives (backend name, keyed instance) for every available
    /// backend (called once a group); `rc` is the keyed RustCrypto instance.
    pub fn bench<T: DetachedAead, R: DetachedAead>(
        &self,
        c: &mut Criterion,
        tessera: impl Fn() -> Vec<(&'static str, T)>,
        rc: &R,
    ) {
        let (key, aad) = (self.key, self.aad);
        let ring_key =
            ring::aead::LessSafeKey::new(ring::aead::UnboundKey::new(self.ring, key).unwrap());
        let aws_key = aws_lc_rs::aead::LessSafeKey::new(
            aws_lc_rs::aead::UnboundKey::new(self.aws, key).unwrap(),
        );
        let rc_row = format!("impl={}", self.rust_crypto);

        for (size, label) in SIZES {
            let (mut v, off) = aligned(size + 16);
            let msg = (off, size);
            let mut g = group(c, &format!("op={}-seal,size={label}", self.op), size);
            for (name, t) in tessera() {
                let name = format!("impl=tessera/{name}");
                seal_row(&mut g, &name, &mut v, msg, |buf| t.seal(&NONCE, aad, buf));
            }
            seal_row(&mut g, "impl=ring", &mut v, msg, |buf| {
                TagAtEnd::seal(&ring_key, NONCE, aad, buf)
            });
            seal_row(&mut g, "impl=aws-lc-rs", &mut v, msg, |buf| {
                TagAtEnd::seal(&aws_key, NONCE, aad, buf)
            });
            seal_row(&mut g, &rc_row, &mut v, msg, |buf| {
                rc.seal(&NONCE, aad, buf)
            });
            g.finish();

            let mut g = group(c, &format!("op={}-open,size={label}", self.op), size);
            let pt: Vec<u8> = (0..size).map(|i| i as u8).collect();
            let mut ct = pt.clone();
            let tag_c = rc.seal(&NONCE, aad, &mut ct);
            let mut again = ct.clone();
            let tag_p = rc.seal(&NONCE, aad, &mut again);
            assert_eq!(again, pt);
            let case = OpenCase {
                ct,
                tags: [tag_c, tag_p],
            };
            for (name, t) in tessera() {
                let name = format!("impl=tessera/{name}");
                open_row(&mut g, &name, &mut v, msg, &case, |buf, tag| {
                    t.open(&NONCE, aad, buf, tag)
                });
            }
            // ring and aws-lc-rs read the tag from the end of the buffer.
            let with_tag = (off, size + 16);
            open_row(&mut g, "impl=ring", &mut v, with_tag, &case, |buf, tag| {
                buf[size..].copy_from_slice(tag);
                TagAtEnd::open(&ring_key, NONCE, aad, buf)
            });
            open_row(
                &mut g,
                "impl=aws-lc-rs",
                &mut v,
                with_tag,
                &case,
                |buf, tag| {
                    buf[size..].copy_from_slice(tag);
                    TagAtEnd::open(&aws_key, NONCE, aad, buf)
                },
            );
            open_row(&mut g, &rc_row, &mut v, msg, &case, |buf, tag| {
                rc.open(&NONCE, aad, buf, tag)
            });
            g.finish();
        }
    }
}
