//! The interleaved comparison behind `cargo xtask bench`: every row (one operation at one size)
//! races Tessera's best backend against each peer library and, in a second race, against
//! Tessera's other backends (see `races`), in alternating short batches inside this process
//! (see `tessera_benches::interleave`), then writes the markdown report, the JSON copy and the
//! SVG plots.
//!
//! ```text
//! cargo bench -p tessera-benches --bench compare -- [--full] [--smoke] [--list] [FILTER]
//!     [--out DIR] [--merge FILE] [--clock thread-cpu|wall] [--row-secs S] [--batch-us U]
//! ```
//!
//! FILTER is a substring of row ids (`op=sha256,size=64B`). The default run (no filter, no
//! `--full`) leaves out the HPKE detail rows (see `hpke_in_default_run`) and the key-parsing
//! (`-from-bytes`) rows to stay under 10 minutes; `--full` or a filter that matches them runs
//! them. Run without `--bench` (as
//! `cargo test --benches` does) it is a smoke run. Built with RUSTFLAGS='--cfg aes_force_soft
//! --cfg polyval_force_soft --cfg chacha20_force_soft --cfg poly1305_force_soft' (xtask does it
//! in `target/soft`) it runs only the `-soft` rows (Tessera portable against RustCrypto's software
//! AES-GCM and ChaCha20-Poly1305) and writes `DIR/soft.json`, which
//! the main build's run then merges with `--merge`.
#![allow(missing_docs)]

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;
use tessera_benches::interleave::{
    AlignedBuf, Clock, Config, Contestant, Measured, Role, RowResult, Samples, SplitMix64, measure,
};
use tessera_benches::report::{self, Meta, RowRecord, size_label};
use tessera_benches::{AAD, NONCE, RustCryptoGcm, plot};

/// Every Tessera call of this file (the crates' APIs as of a9cd7eb). A Tessera implementation in
/// a row is an [`tessera::Impl`]: the backend's name and, for every backend but the best one, the
/// handle that forces it; the best one (`backend: None`) goes through the public API, as users
/// call it, which runs what `detect()` picks.
mod tessera {
    /// One Tessera backend of a row.
    pub struct Impl<B> {
        pub name: &'static str,
        /// `None`: the public API (the best backend).
        pub backend: Option<B>,
    }

    /// The best backend first (as `None`), then every other available one.
    fn impls<B: Copy + PartialEq>(
        best: B,
        all: impl Iterator<Item = B>,
        name: fn(&B) -> &'static str,
    ) -> Vec<Impl<B>> {
        let mut v = vec![Impl {
            name: name(&best),
            backend: None,
        }];
        v.extend(all.filter(|b| *b != best).map(|b| Impl {
            name: name(&b),
            backend: Some(b),
        }));
        v
    }

    /// The HW line of the report.
    pub fn hw_line() -> String {
        tessera_cpu::features().to_string()
    }

    // --- SHA-2 ---
    pub type Sha256Backend = tessera_sha2::testing::Sha256Backend;
    pub type Sha512Backend = tessera_sha2::testing::Sha512Backend;

    pub fn sha256_impls() -> Vec<Impl<Sha256Backend>> {
        impls(
            Sha256Backend::detect(),
            Sha256Backend::all_available(),
            Sha256Backend::name,
        )
    }
    pub fn sha512_impls() -> Vec<Impl<Sha512Backend>> {
        impls(
            Sha512Backend::detect(),
            Sha512Backend::all_available(),
            Sha512Backend::name,
        )
    }
    #[inline(always)]
    pub fn sha256(be: Option<Sha256Backend>, data: &[u8]) -> [u8; 32] {
        match be {
            None => tessera_sha2::sha256(data),
            Some(be) => tessera_sha2::Sha256::digest_with_backend(be, data),
        }
    }
    #[inline(always)]
    pub fn sha512(be: Option<Sha512Backend>, data: &[u8]) -> [u8; 64] {
        match be {
            None => tessera_sha2::sha512(data),
            Some(be) => tessera_sha2::Sha512::digest_with_backend(be, data),
        }
    }
    pub type HmacSha256Key = tessera_sha2::HmacKey<tessera_sha2::Sha256>;
    pub fn hmac_sha256_key(be: Option<Sha256Backend>, key: &[u8]) -> HmacSha256Key {
        match be {
            None => HmacSha256Key::new(key),
            Some(be) => HmacSha256Key::new_with_backend(be, key),
        }
    }
    #[inline(always)]
    pub fn hmac_sha256(k: &HmacSha256Key, msg: &[u8]) -> [u8; 32] {
        k.sign(msg)
    }

    // --- Keccak: single state (SHA-3, SHAKE) and four-way ---
    pub type X1Backend = tessera_keccak::X1Backend;
    pub type X4Backend = tessera_keccak::X4Backend;

    pub fn x1_impls() -> Vec<Impl<X1Backend>> {
        impls(
            X1Backend::detect(),
            X1Backend::all_available(),
            X1Backend::name,
        )
    }
    pub fn x4_impls() -> Vec<Impl<X4Backend>> {
        impls(
            X4Backend::detect(),
            X4Backend::all_available(),
            X4Backend::name,
        )
    }
    #[inline(always)]
    pub fn sha3_256(be: Option<X1Backend>, data: &[u8]) -> [u8; 32] {
        match be {
            None => tessera_keccak::sha3_256(data),
            Some(be) => {
                let mut h = tessera_keccak::Sha3_256::new_with_backend(be);
                h.update(data);
                h.finalize()
            }
        }
    }
    #[inline(always)]
    pub fn shake128(be: Option<X1Backend>, data: &[u8], out: &mut [u8]) {
        match be {
            None => tessera_keccak::shake128(data, out),
            Some(be) => tessera_keccak::Shake128::new_with_backend(be)
                .update(data)
                .finalize_xof()
                .read(out),
        }
    }
    #[inline(always)]
    pub fn shake256(be: Option<X1Backend>, data: &[u8], out: &mut [u8]) {
        match be {
            None => tessera_keccak::shake256(data, out),
            Some(be) => tessera_keccak::Shake256::new_with_backend(be)
                .update(data)
                .finalize_xof()
                .read(out),
        }
    }
    /// SHAKE256 of four equal-length inputs, one block-multiple output each.
    #[inline(always)]
    pub fn shake256_x4(be: Option<X4Backend>, ins: [&[u8]; 4], outs: [&mut [u8]; 4]) {
        let mut x = match be {
            None => tessera_keccak::Shake256x4::new(ins),
            Some(be) => tessera_keccak::Shake256x4::new_with_backend(be, ins),
        }
        .unwrap();
        x.squeeze_blocks(outs).unwrap();
    }

    // --- AES-GCM ---
    pub type GcmBackend = tessera_aes_gcm::testing::Backend;

    pub fn gcm_impls() -> Vec<Impl<GcmBackend>> {
        impls(
            GcmBackend::detect(),
            GcmBackend::all_available(),
            GcmBackend::name,
        )
    }
    /// The portable backend (the soft rows' reference).
    pub fn gcm_portable() -> Impl<GcmBackend> {
        Impl {
            name: GcmBackend::Portable.name(),
            backend: Some(GcmBackend::Portable),
        }
    }

    /// An expanded AES-128-GCM or AES-256-GCM key (by key length).
    pub type GcmKey = tessera_aes_gcm::AesGcm;
    pub fn gcm_key(be: Option<GcmBackend>, key: &[u8]) -> GcmKey {
        match be {
            None => GcmKey::new(key),
            Some(be) => GcmKey::new_with_backend(be, key),
        }
        .expect("AES key length")
    }
    #[inline(always)]
    pub fn gcm_seal(k: &GcmKey, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
        k.encrypt_in_place_detached(nonce, aad, buf).unwrap()
    }
    #[inline(always)]
    pub fn gcm_open(k: &GcmKey, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8], tag: &[u8; 16]) {
        k.decrypt_in_place_detached(nonce, aad, buf, tag).unwrap()
    }

    /// The portable backend of a crate, forced through its handle.
    fn portable<B>(b: B, name: fn(&B) -> &'static str) -> Impl<B> {
        Impl {
            name: name(&b),
            backend: Some(b),
        }
    }

    // --- ChaCha20-Poly1305 ---
    pub type ChachaBackend = tessera_chacha20poly1305::testing::Backend;
    pub type ChachaKey = tessera_chacha20poly1305::ChaCha20Poly1305;

    pub fn chacha_impls() -> Vec<Impl<ChachaBackend>> {
        impls(
            ChachaBackend::detect(),
            ChachaBackend::all_available(),
            ChachaBackend::name,
        )
    }
    pub fn chacha_portable() -> Impl<ChachaBackend> {
        portable(ChachaBackend::Portable, ChachaBackend::name)
    }
    pub fn chacha_key(be: Option<ChachaBackend>, key: &[u8; 32]) -> ChachaKey {
        match be {
            None => ChachaKey::new(key),
            Some(be) => ChachaKey::new_with_backend(be, key),
        }
    }
    #[inline(always)]
    pub fn chacha_seal(k: &ChachaKey, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
        k.encrypt_in_place_detached(nonce, aad, buf).unwrap()
    }
    #[inline(always)]
    pub fn chacha_open(
        k: &ChachaKey,
        nonce: &[u8; 12],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8; 16],
    ) {
        k.decrypt_in_place_detached(nonce, aad, buf, tag).unwrap()
    }

    // --- X25519 ---
    pub type X25519Backend = tessera_x25519::testing::Backend;

    pub fn x25519_impls() -> Vec<Impl<X25519Backend>> {
        impls(
            X25519Backend::detect(),
            X25519Backend::all_available(),
            X25519Backend::name,
        )
    }
    pub fn x25519_portable() -> Impl<X25519Backend> {
        portable(X25519Backend::Portable, X25519Backend::name)
    }
    /// A static secret (the backend chosen when it is made, as users get it).
    pub fn x25519_secret(
        be: Option<X25519Backend>,
        bytes: [u8; 32],
    ) -> tessera_x25519::StaticSecret {
        match be {
            None => tessera_x25519::StaticSecret::from(bytes),
            Some(be) => tessera_x25519::StaticSecret::new_with_backend(be, bytes),
        }
    }
    /// One variable-base scalar multiplication through the key-agreement API (with its
    /// all-zero check).
    #[inline(always)]
    pub fn x25519_dh(
        sk: &tessera_x25519::StaticSecret,
        peer: &tessera_x25519::PublicKey,
    ) -> [u8; 32] {
        sk.diffie_hellman(peer).unwrap().to_bytes()
    }
    /// Key generation from secret bytes: the public key of a new static secret (fixed base).
    #[inline(always)]
    pub fn x25519_keygen(be: Option<X25519Backend>, bytes: [u8; 32]) -> [u8; 32] {
        tessera_x25519::PublicKey::from(&x25519_secret(be, bytes)).to_bytes()
    }

    // --- ML-KEM ---
    pub type MlKemBackend = tessera_mlkem::__private::Backend;

    pub fn mlkem_impls() -> Vec<Impl<MlKemBackend>> {
        impls(
            MlKemBackend::detect(),
            MlKemBackend::all_available(),
            MlKemBackend::name,
        )
    }
    pub fn mlkem_portable() -> Impl<MlKemBackend> {
        portable(MlKemBackend::Portable, MlKemBackend::name)
    }

    // --- ML-DSA ---
    pub type MlDsaBackend = tessera_mldsa::testing::Backend;

    pub fn mldsa_impls() -> Vec<Impl<MlDsaBackend>> {
        impls(
            MlDsaBackend::detect(),
            MlDsaBackend::all_available(),
            MlDsaBackend::name,
        )
    }
    pub fn mldsa_portable() -> Impl<MlDsaBackend> {
        portable(MlDsaBackend::Portable, MlDsaBackend::name)
    }
}

// ---------------------------------------------------------------------------------------------
// Rows.

/// A row before it runs.
struct Spec {
    op: &'static str,
    /// Message bytes (per lane for the x4 row).
    size: usize,
    /// Messages per call (4 for the x4 row).
    ways: usize,
    /// Runs only in the RustCrypto-soft build.
    soft: bool,
    /// This row's time budget relative to the configured one (1, or [`HPKE_BUDGET`]).
    budget: f64,
    /// Left out of the default run (`cargo xtask bench` without a filter), which must finish in
    /// under 10 minutes; `--full` or a filter that matches it runs it.
    full_only: bool,
    build: fn(usize) -> Built,
}

impl Spec {
    fn id(&self) -> String {
        if self.size == 0 {
            format!("op={}", self.op)
        } else {
            format!("op={},size={}", self.op, size_label(self.size))
        }
    }
}

/// A row's contestants (the reference first) and its notes.
struct Built {
    contestants: Vec<Contestant>,
    notes: Vec<String>,
}

const HASH_SIZES: [usize; 3] = [64, 1024, 16384];
const AEAD_SIZES: [usize; 4] = [64, 1024, 16384, 65536];
/// The software-only rows (a second build): the shortest and a long message.
const SOFT_SIZES: [usize; 2] = [64, 16384];

/// Where a row runs: `Main` in the default run (`cargo xtask bench`); `Detail` only with
/// `--full` or a filter that matches it (the key-parsing `-from-bytes` rows: the default run
/// keeps the reused-key rows and stays under 10 minutes); `Soft` in the RustCrypto-soft build.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Main,
    Detail,
    Soft,
}

fn specs() -> Vec<Spec> {
    let mut v = Vec::new();
    use Kind::{Detail, Main, Soft};
    let mut add = |op, sizes: &[usize], ways, kind: Kind, build: fn(usize) -> Built| {
        for &size in sizes {
            v.push(Spec {
                op,
                size,
                ways,
                soft: kind == Soft,
                budget: 1.0,
                full_only: kind == Detail,
                build,
            });
        }
    };
    add("sha256", &HASH_SIZES, 1, Main, build_sha256);
    add("sha512", &HASH_SIZES, 1, Main, build_sha512);
    add("hmac-sha256", &[64, 1024], 1, Main, build_hmac_sha256);
    add("sha3-256", &HASH_SIZES, 1, Main, build_sha3_256);
    add("shake128", &[64, 16384], 1, Main, build_shake128);
    add("shake256", &[64, 16384], 1, Main, build_shake256);
    add("shake256-x4", &[4096], 4, Main, build_shake256_x4);
    add("aes128-gcm-seal", &AEAD_SIZES, 1, Main, |n| {
        build_gcm(16, n, true)
    });
    add("aes128-gcm-open", &AEAD_SIZES, 1, Main, |n| {
        build_gcm(16, n, false)
    });
    add("aes256-gcm-seal", &AEAD_SIZES, 1, Main, |n| {
        build_gcm(32, n, true)
    });
    add("aes256-gcm-open", &AEAD_SIZES, 1, Main, |n| {
        build_gcm(32, n, false)
    });
    add("chacha20poly1305-seal", &AEAD_SIZES, 1, Main, |n| {
        build_chacha(n, true)
    });
    add("chacha20poly1305-open", &AEAD_SIZES, 1, Main, |n| {
        build_chacha(n, false)
    });
    // Rows without a message size (size 0): one operation per iteration.
    add("x25519-dh", &[0], 1, Main, |_| build_x25519(false, false));
    add("x25519-keygen", &[0], 1, Main, |_| {
        build_x25519(true, false)
    });
    add("x25519-dh-portable", &[0], 1, Main, |_| {
        build_x25519(false, true)
    });
    add("x25519-keygen-portable", &[0], 1, Main, |_| {
        build_x25519(true, true)
    });
    add("mlkem512-keygen", &[0], 1, Main, |_| {
        build_mlkem512(KemOp::KeyGen, false)
    });
    add("mlkem512-encaps", &[0], 1, Main, |_| {
        build_mlkem512(KemOp::Encaps, false)
    });
    add("mlkem512-decaps", &[0], 1, Main, |_| {
        build_mlkem512(KemOp::Decaps, false)
    });
    add("mlkem768-keygen", &[0], 1, Main, |_| {
        build_mlkem768(KemOp::KeyGen, false)
    });
    add("mlkem768-encaps", &[0], 1, Main, |_| {
        build_mlkem768(KemOp::Encaps, false)
    });
    add("mlkem768-decaps", &[0], 1, Main, |_| {
        build_mlkem768(KemOp::Decaps, false)
    });
    add("mlkem1024-keygen", &[0], 1, Main, |_| {
        build_mlkem1024(KemOp::KeyGen, false)
    });
    add("mlkem1024-encaps", &[0], 1, Main, |_| {
        build_mlkem1024(KemOp::Encaps, false)
    });
    add("mlkem1024-decaps", &[0], 1, Main, |_| {
        build_mlkem1024(KemOp::Decaps, false)
    });
    add("mlkem512-encaps-from-bytes", &[0], 1, Detail, |_| {
        build_mlkem512(KemOp::EncapsFromBytes, false)
    });
    add("mlkem512-decaps-from-bytes", &[0], 1, Detail, |_| {
        build_mlkem512(KemOp::DecapsFromBytes, false)
    });
    add("mlkem768-encaps-from-bytes", &[0], 1, Detail, |_| {
        build_mlkem768(KemOp::EncapsFromBytes, false)
    });
    add("mlkem768-decaps-from-bytes", &[0], 1, Detail, |_| {
        build_mlkem768(KemOp::DecapsFromBytes, false)
    });
    add("mlkem1024-encaps-from-bytes", &[0], 1, Detail, |_| {
        build_mlkem1024(KemOp::EncapsFromBytes, false)
    });
    add("mlkem1024-decaps-from-bytes", &[0], 1, Detail, |_| {
        build_mlkem1024(KemOp::DecapsFromBytes, false)
    });
    add("mlkem768-keygen-portable", &[0], 1, Main, |_| {
        build_mlkem768(KemOp::KeyGen, true)
    });
    add("mlkem768-encaps-portable", &[0], 1, Main, |_| {
        build_mlkem768(KemOp::Encaps, true)
    });
    add("mlkem768-decaps-portable", &[0], 1, Main, |_| {
        build_mlkem768(KemOp::Decaps, true)
    });
    add("mldsa44-keygen", &[0], 1, Main, |_| {
        build_mldsa44(DsaOp::KeyGen, false)
    });
    add("mldsa44-sign", &[0], 1, Main, |_| {
        build_mldsa44(DsaOp::Sign, false)
    });
    add("mldsa44-verify", &[0], 1, Main, |_| {
        build_mldsa44(DsaOp::Verify, false)
    });
    add("mldsa65-keygen", &[0], 1, Main, |_| {
        build_mldsa65(DsaOp::KeyGen, false)
    });
    add("mldsa65-sign", &[0], 1, Main, |_| {
        build_mldsa65(DsaOp::Sign, false)
    });
    add("mldsa65-verify", &[0], 1, Main, |_| {
        build_mldsa65(DsaOp::Verify, false)
    });
    add("mldsa87-keygen", &[0], 1, Main, |_| {
        build_mldsa87(DsaOp::KeyGen, false)
    });
    add("mldsa87-sign", &[0], 1, Main, |_| {
        build_mldsa87(DsaOp::Sign, false)
    });
    add("mldsa87-verify", &[0], 1, Main, |_| {
        build_mldsa87(DsaOp::Verify, false)
    });
    add("mldsa44-verify-from-bytes", &[0], 1, Detail, |_| {
        build_mldsa44(DsaOp::VerifyFromBytes, false)
    });
    add("mldsa65-verify-from-bytes", &[0], 1, Detail, |_| {
        build_mldsa65(DsaOp::VerifyFromBytes, false)
    });
    add("mldsa87-verify-from-bytes", &[0], 1, Detail, |_| {
        build_mldsa87(DsaOp::VerifyFromBytes, false)
    });
    add("mldsa65-keygen-portable", &[0], 1, Main, |_| {
        build_mldsa65(DsaOp::KeyGen, true)
    });
    add("mldsa65-sign-portable", &[0], 1, Main, |_| {
        build_mldsa65(DsaOp::Sign, true)
    });
    add("mldsa65-verify-portable", &[0], 1, Main, |_| {
        build_mldsa65(DsaOp::Verify, true)
    });
    add("aes128-gcm-seal-soft", &SOFT_SIZES, 1, Soft, |n| {
        build_gcm_soft(16, n, true)
    });
    add("aes128-gcm-open-soft", &SOFT_SIZES, 1, Soft, |n| {
        build_gcm_soft(16, n, false)
    });
    add("aes256-gcm-seal-soft", &SOFT_SIZES, 1, Soft, |n| {
        build_gcm_soft(32, n, true)
    });
    add("aes256-gcm-open-soft", &SOFT_SIZES, 1, Soft, |n| {
        build_gcm_soft(32, n, false)
    });
    add("chacha20poly1305-seal-soft", &SOFT_SIZES, 1, Soft, |n| {
        build_chacha_soft(n, true)
    });
    add("chacha20poly1305-open-soft", &SOFT_SIZES, 1, Soft, |n| {
        build_chacha_soft(n, false)
    });
    hpke_specs(&mut v);
    v
}

/// The HPKE rows (see the HPKE section for the choice of rows and their budget).
fn hpke_specs(v: &mut Vec<Spec>) {
    let mut add = |op: &'static str, sizes: &[usize], build: fn(usize) -> Built| {
        for &size in sizes {
            v.push(Spec {
                op,
                size,
                ways: 1,
                soft: false,
                budget: HPKE_BUDGET,
                full_only: !hpke_in_default_run(op, size),
                build,
            });
        }
    };
    macro_rules! kem_rows {
        ($kem:literal, $m:ident) => {
            add(concat!("hpke-kem-keygen-", $kem), &[0], |_| {
                $m::build(HpkeOp::Generate, 0)
            });
            add(concat!("hpke-kem-derive-", $kem), &[0], |_| {
                $m::build(HpkeOp::Derive, 0)
            });
            add(concat!("hpke-kem-encap-", $kem), &[0], |_| {
                $m::build(HpkeOp::Encap, 0)
            });
            add(concat!("hpke-kem-decap-", $kem), &[0], |_| {
                $m::build(HpkeOp::Decap, 0)
            });
        };
    }
    kem_rows!("x25519", hpke_x25519_chacha);
    kem_rows!("mlkem768", hpke_mlkem768_chacha);
    kem_rows!("mlkem1024", hpke_mlkem1024_aes256);
    kem_rows!("xwing", hpke_xwing_chacha);
    kem_rows!("p256", hpke_p256_aes128);
    kem_rows!("p521", hpke_p521_aes256);
    kem_rows!("mlkem768p256", hpke_mlkem768p256_aes128);
    macro_rules! setup_rows {
        ($suite:literal, $m:ident) => {
            add(concat!("hpke-setup-sender-", $suite), &[0], |_| {
                $m::build(HpkeOp::SetupSender, 0)
            });
            add(concat!("hpke-setup-receiver-", $suite), &[0], |_| {
                $m::build(HpkeOp::SetupReceiver, 0)
            });
        };
    }
    setup_rows!("x25519-sha256-chacha", hpke_x25519_chacha);
    setup_rows!("mlkem768-sha256-chacha", hpke_mlkem768_chacha);
    setup_rows!("mlkem1024-sha384-aes256", hpke_mlkem1024_aes256);
    setup_rows!("xwing-sha256-chacha", hpke_xwing_chacha);
    setup_rows!("p256-sha256-aes128", hpke_p256_aes128);
    setup_rows!("p521-sha512-aes256", hpke_p521_aes256);
    setup_rows!("mlkem768p256-sha256-aes128", hpke_mlkem768p256_aes128);
    macro_rules! round_trip {
        ($suite:literal, $m:ident) => {
            add(concat!("hpke-round-trip-", $suite), &[1024], |n| {
                $m::build(HpkeOp::RoundTrip, n)
            });
        };
    }
    round_trip!("x25519-sha256-chacha", hpke_x25519_chacha);
    round_trip!("x25519-sha256-aes128", hpke_x25519_aes128);
    round_trip!("mlkem768-sha256-chacha", hpke_mlkem768_chacha);
    round_trip!("mlkem1024-sha384-aes256", hpke_mlkem1024_aes256);
    round_trip!("xwing-sha256-chacha", hpke_xwing_chacha);
    round_trip!("p256-sha256-aes128", hpke_p256_aes128);
    round_trip!("p521-sha512-aes256", hpke_p521_aes256);
    round_trip!("mlkem768p256-sha256-aes128", hpke_mlkem768p256_aes128);
    macro_rules! context_rows {
        ($suite:literal, $m:ident, $sizes:expr) => {
            add(concat!("hpke-context-seal-", $suite), &$sizes, |n| {
                $m::build(HpkeOp::ContextSeal, n)
            });
            add(concat!("hpke-context-open-", $suite), &$sizes, |n| {
                $m::build(HpkeOp::ContextOpen, n)
            });
        };
    }
    context_rows!("x25519-sha256-chacha", hpke_x25519_chacha, AEAD_SIZES);
    context_rows!(
        "x25519-sha256-aes128",
        hpke_x25519_aes128,
        HPKE_CONTEXT_SIZES
    );
    context_rows!(
        "mlkem1024-sha384-aes256",
        hpke_mlkem1024_aes256,
        HPKE_CONTEXT_SIZES
    );
    add("hpke-export-x25519-sha256-chacha", &[0], |_| {
        hpke_x25519_chacha::build(HpkeOp::Export, 0)
    });
    add("hpke-export-mlkem1024-sha384-aes256", &[0], |_| {
        hpke_mlkem1024_aes256::build(HpkeOp::Export, 0)
    });
    add("hpke-export-p521-sha512-aes256", &[0], |_| {
        hpke_p521_aes256::build(HpkeOp::Export, 0)
    });
}

/// The HPKE rows of the default run: what a user choosing a suite looks at (every round trip
/// but P-521's, the setup rows but P-521's, the X25519 + ChaCha20-Poly1305 context rows at 64 B and 16 KiB
/// and its export). The KEM rows (the setup rows' main cost), the other context and export
/// rows and P-521's setup rows (milliseconds per call: the minimum rounds, not the budget, set
/// their length) run with `--full` or a filter.
fn hpke_in_default_run(op: &str, size: usize) -> bool {
    let x25519_chacha = op.ends_with("-x25519-sha256-chacha");
    if op.starts_with("hpke-round-trip-") || op.starts_with("hpke-setup-") {
        !op.contains("-p521-")
    } else if op.starts_with("hpke-context-") {
        x25519_chacha && (size == 64 || size == 16384)
    } else if op.starts_with("hpke-export-") {
        x25519_chacha
    } else {
        false
    }
}

/// Deterministic input bytes: one generator, seeded once per row, outside any timing.
fn input(len: usize, seed: u64) -> Vec<u8> {
    let mut v = vec![0u8; len];
    SplitMix64(seed ^ len as u64).fill(&mut v);
    v
}

fn tessera_role(best: bool) -> Role {
    if best { Role::Reference } else { Role::Backend }
}

/// A one-shot hash contestant: `f` is checked against `expect` once, then timed on its own
/// aligned copy of `msg`, input and output through `black_box`.
fn hash<O: AsRef<[u8]>>(
    name: impl Into<String>,
    role: Role,
    msg: &[u8],
    expect: &[u8],
    f: impl Fn(&[u8]) -> O + 'static,
) -> Contestant {
    let name = name.into();
    let d = AlignedBuf::from_slice(msg);
    assert_eq!(f(&d).as_ref(), expect, "{name} disagrees with Tessera");
    Contestant::new(name, role, move || {
        black_box(f(black_box(&d)));
    })
}

/// An XOF contestant writing `out_len` bytes into its own aligned output buffer.
fn xof(
    name: impl Into<String>,
    role: Role,
    msg: &[u8],
    expect: &[u8],
    f: impl Fn(&[u8], &mut [u8]) + 'static,
) -> Contestant {
    let name = name.into();
    let d = AlignedBuf::from_slice(msg);
    let mut out = AlignedBuf::zeroed(expect.len());
    f(&d, &mut out);
    assert_eq!(&*out, expect, "{name} disagrees with Tessera");
    Contestant::new(name, role, move || {
        f(black_box(&d), black_box(&mut out));
        black_box(&*out);
    })
}

const NO_SHA3_RING: &str = "ring has no SHA-3/SHAKE";

fn build_sha256(size: usize) -> Built {
    let msg = input(size, 0x256);
    let expect = tessera::sha256(None, &msg);
    let mut cs: Vec<Contestant> = tessera::sha256_impls()
        .into_iter()
        .map(|t| {
            let be = t.backend;
            let role = tessera_role(be.is_none());
            hash(
                format!("tessera/{}", t.name),
                role,
                &msg,
                &expect,
                move |d| tessera::sha256(be, d),
            )
        })
        .collect();
    cs.push(hash("ring", Role::Peer, &msg, &expect, |d| {
        ring::digest::digest(&ring::digest::SHA256, d)
    }));
    cs.push(hash("aws-lc-rs", Role::Peer, &msg, &expect, |d| {
        aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, d)
    }));
    cs.push(hash("sha2", Role::Peer, &msg, &expect, |d| {
        <sha2::Sha256 as sha2::Digest>::digest(d)
    }));
    Built {
        contestants: cs,
        notes: vec![],
    }
}

fn build_sha512(size: usize) -> Built {
    let msg = input(size, 0x512);
    let expect = tessera::sha512(None, &msg);
    let mut cs: Vec<Contestant> = tessera::sha512_impls()
        .into_iter()
        .map(|t| {
            let be = t.backend;
            let role = tessera_role(be.is_none());
            hash(
                format!("tessera/{}", t.name),
                role,
                &msg,
                &expect,
                move |d| tessera::sha512(be, d),
            )
        })
        .collect();
    cs.push(hash("ring", Role::Peer, &msg, &expect, |d| {
        ring::digest::digest(&ring::digest::SHA512, d)
    }));
    cs.push(hash("aws-lc-rs", Role::Peer, &msg, &expect, |d| {
        aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA512, d)
    }));
    cs.push(hash("sha2", Role::Peer, &msg, &expect, |d| {
        <sha2::Sha512 as sha2::Digest>::digest(d)
    }));
    Built {
        contestants: cs,
        notes: vec![],
    }
}

fn build_hmac_sha256(size: usize) -> Built {
    let msg = input(size, 0x4d4ac);
    let key = input(32, 0x6b6579);
    let expect = tessera::hmac_sha256(&tessera::hmac_sha256_key(None, &key), &msg);
    let mut cs: Vec<Contestant> = tessera::sha256_impls()
        .into_iter()
        .map(|t| {
            let k = tessera::hmac_sha256_key(t.backend, &key);
            let role = tessera_role(t.backend.is_none());
            hash(
                format!("tessera/{}", t.name),
                role,
                &msg,
                &expect,
                move |d| tessera::hmac_sha256(&k, d),
            )
        })
        .collect();
    // Every library signs with a key prepared once (its inner and outer states).
    let rk = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, &key);
    cs.push(hash("ring", Role::Peer, &msg, &expect, move |d| {
        ring::hmac::sign(&rk, d)
    }));
    let ak = aws_lc_rs::hmac::Key::new(aws_lc_rs::hmac::HMAC_SHA256, &key);
    cs.push(hash("aws-lc-rs", Role::Peer, &msg, &expect, move |d| {
        aws_lc_rs::hmac::sign(&ak, d)
    }));
    let hk = <hmac::Hmac<sha2::Sha256> as hmac::Mac>::new_from_slice(&key).unwrap();
    cs.push(hash("hmac", Role::Peer, &msg, &expect, move |d| {
        use hmac::Mac;
        let mut m = hk.clone();
        m.update(d);
        m.finalize().into_bytes()
    }));
    Built {
        contestants: cs,
        notes: vec![
            "RustCrypto is `hmac` 0.12 over `sha2`, the keyed state cloned per message".into(),
        ],
    }
}

fn build_sha3_256(size: usize) -> Built {
    let msg = input(size, 0x3256);
    let expect = tessera::sha3_256(None, &msg);
    let mut cs: Vec<Contestant> = tessera::x1_impls()
        .into_iter()
        .map(|t| {
            let be = t.backend;
            let role = tessera_role(be.is_none());
            hash(
                format!("tessera/{}", t.name),
                role,
                &msg,
                &expect,
                move |d| tessera::sha3_256(be, d),
            )
        })
        .collect();
    cs.push(hash("aws-lc-rs", Role::Peer, &msg, &expect, |d| {
        aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA3_256, d)
    }));
    cs.push(hash("sha3", Role::Peer, &msg, &expect, |d| {
        <sha3::Sha3_256 as sha3::Digest>::digest(d)
    }));
    cs.push(hash("libcrux-sha3", Role::Peer, &msg, &expect, |d| {
        libcrux_sha3::sha256(d)
    }));
    Built {
        contestants: cs,
        notes: vec![NO_SHA3_RING.into()],
    }
}

/// SHAKE output length of the single-state rows.
const XOF_OUT: usize = 32;

fn build_shake(size: usize, wide: bool) -> Built {
    use sha3::digest::{ExtendableOutput, Update, XofReader};
    let msg = input(size, if wide { 0x5256 } else { 0x5128 });
    let mut expect = [0u8; XOF_OUT];
    let t_xof = if wide {
        tessera::shake256
    } else {
        tessera::shake128
    };
    t_xof(None, &msg, &mut expect);
    let mut cs: Vec<Contestant> = tessera::x1_impls()
        .into_iter()
        .map(|t| {
            let be = t.backend;
            let role = tessera_role(be.is_none());
            xof(
                format!("tessera/{}", t.name),
                role,
                &msg,
                &expect,
                move |d, o| t_xof(be, d, o),
            )
        })
        .collect();
    if wide {
        cs.push(xof("sha3", Role::Peer, &msg, &expect, |d, o| {
            let mut h = sha3::Shake256::default();
            h.update(d);
            h.finalize_xof().read(o)
        }));
        cs.push(xof("libcrux-sha3", Role::Peer, &msg, &expect, |d, o| {
            libcrux_sha3::shake256_ema(o, d)
        }));
    } else {
        cs.push(xof("sha3", Role::Peer, &msg, &expect, |d, o| {
            let mut h = sha3::Shake128::default();
            h.update(d);
            h.finalize_xof().read(o)
        }));
        cs.push(xof("libcrux-sha3", Role::Peer, &msg, &expect, |d, o| {
            libcrux_sha3::shake128_ema(o, d)
        }));
    }
    Built {
        contestants: cs,
        notes: vec![
            format!("{XOF_OUT}-byte output"),
            format!("{NO_SHA3_RING}; aws-lc-rs has no SHAKE (XOF) API"),
        ],
    }
}

fn build_shake128(size: usize) -> Built {
    build_shake(size, false)
}

fn build_shake256(size: usize) -> Built {
    build_shake(size, true)
}

/// Output per lane of the x4 row: one SHAKE256 block.
const X4_OUT: usize = 136;

fn build_shake256_x4(size: usize) -> Built {
    let msgs: Vec<Vec<u8>> = (0..4).map(|i| input(size, 0x4444 + i)).collect();
    let mut expect = [[0u8; X4_OUT]; 4];
    for (m, e) in msgs.iter().zip(&mut expect) {
        tessera::shake256(None, m, e);
    }
    type X4Fn = Box<dyn Fn([&[u8]; 4], [&mut [u8]; 4])>;
    let contestant = |name: String, role: Role, f: X4Fn| {
        let ins: Vec<AlignedBuf> = msgs.iter().map(|m| AlignedBuf::from_slice(m)).collect();
        let mut outs: Vec<AlignedBuf> = (0..4).map(|_| AlignedBuf::zeroed(X4_OUT)).collect();
        {
            let [o0, o1, o2, o3] = &mut outs[..] else {
                unreachable!()
            };
            f([&ins[0], &ins[1], &ins[2], &ins[3]], [o0, o1, o2, o3]);
        }
        for (o, e) in outs.iter().zip(&expect) {
            assert_eq!(&**o, e, "{name} disagrees with Tessera x1");
        }
        Contestant::new(name, role, move || {
            let [o0, o1, o2, o3] = &mut outs[..] else {
                unreachable!()
            };
            let i = black_box([&*ins[0], &*ins[1], &*ins[2], &*ins[3]]);
            f(i, [o0, o1, o2, o3]);
            black_box(&outs);
        })
    };
    // The four-way functions are boxed for every contestant alike (one dynamic call per
    // iteration of ~10 µs).
    let mut cs: Vec<Contestant> = tessera::x4_impls()
        .into_iter()
        .map(|t| {
            let be = t.backend;
            contestant(
                format!("tessera/{}", t.name),
                tessera_role(be.is_none()),
                Box::new(move |i, o| tessera::shake256_x4(be, i, o)),
            )
        })
        .collect();
    let mut notes = vec![format!(
        "four {} inputs, {X4_OUT} bytes out each",
        size_label(size)
    )];
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        cs.push(contestant(
            "libcrux-sha3".into(),
            Role::Peer,
            Box::new(|i, o| {
                let [o0, o1, o2, o3] = o;
                // SAFETY: AVX2 was detected above.
                unsafe { libcrux_x4_avx2(i[0], i[1], i[2], i[3], o0, o1, o2, o3) }
            }),
        ));
    } else {
        notes.push("libcrux-sha3's x4 needs AVX2, not on this CPU".into());
    }
    #[cfg(not(target_arch = "x86_64"))]
    notes.push("libcrux-sha3's x4 runs only on x86_64 AVX2 here".into());
    cs.push(contestant(
        "sha3".into(),
        Role::Peer,
        Box::new(|i, o| {
            use sha3::digest::{ExtendableOutput, Update, XofReader};
            for (d, o) in i.into_iter().zip(o) {
                let mut h = sha3::Shake256::default();
                h.update(d);
                h.finalize_xof().read(o);
            }
        }),
    ));
    notes.push(
        "RustCrypto sha3 has no multi-way API: four sequential SHAKE256 calls; ring has no \
         SHA-3, aws-lc-rs no SHAKE"
            .into(),
    );
    Built {
        contestants: cs,
        notes,
    }
}

/// libcrux-sha3's x4 code is all `#[inline(always)]` and expects its caller to be compiled with
/// AVX2 (as libcrux-ml-kem's AVX2 code is); calling it from an AVX2 function is how it runs there.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
fn libcrux_x4_avx2(
    i0: &[u8],
    i1: &[u8],
    i2: &[u8],
    i3: &[u8],
    o0: &mut [u8],
    o1: &mut [u8],
    o2: &mut [u8],
    o3: &mut [u8],
) {
    libcrux_sha3::avx2::x4::shake256(i0, i1, i2, i3, o0, o1, o2, o3);
}

/// The AEAD operations of one implementation (AES-GCM, ChaCha20-Poly1305): seal in place returning the tag, and open in
/// place with a detached tag (panicking on a bad tag: the rows only open valid ciphertexts).
trait Aead: 'static {
    fn seal(&self, buf: &mut [u8]) -> [u8; 16];
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]);
}

struct TesseraGcmKey(tessera::GcmKey);
impl Aead for TesseraGcmKey {
    #[inline(always)]
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        tessera::gcm_seal(&self.0, &NONCE, &AAD, buf)
    }
    #[inline(always)]
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        tessera::gcm_open(&self.0, &NONCE, &AAD, buf, tag)
    }
}

impl Aead for ring::aead::LessSafeKey {
    #[inline(always)]
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        let n = ring::aead::Nonce::assume_unique_for_key(NONCE);
        let t = self
            .seal_in_place_separate_tag(n, ring::aead::Aad::from(AAD), buf)
            .unwrap();
        t.as_ref().try_into().unwrap()
    }
    #[inline(always)]
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        let n = ring::aead::Nonce::assume_unique_for_key(NONCE);
        self.open_in_place_separate_tag(
            n,
            ring::aead::Aad::from(AAD),
            ring::aead::Tag::from(*tag),
            buf,
            0..,
        )
        .unwrap();
    }
}

impl Aead for aws_lc_rs::aead::LessSafeKey {
    #[inline(always)]
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        let n = aws_lc_rs::aead::Nonce::assume_unique_for_key(NONCE);
        let t = self
            .seal_in_place_separate_tag(n, aws_lc_rs::aead::Aad::from(AAD), buf)
            .unwrap();
        t.as_ref().try_into().unwrap()
    }
    #[inline(always)]
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        let n = aws_lc_rs::aead::Nonce::assume_unique_for_key(NONCE);
        self.open_in_place_separate_tag(n, aws_lc_rs::aead::Aad::from(AAD), tag, buf)
            .unwrap();
    }
}

impl Aead for RustCryptoGcm {
    #[inline(always)]
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        RustCryptoGcm::seal(self, buf)
    }
    #[inline(always)]
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        RustCryptoGcm::open(self, buf, tag)
    }
}

/// The fixed message and its two ciphertext states for the open rows: with one nonce the
/// keystream is fixed, so opening `C` (tag `tags[0]`, the tag of sealing `P`) leaves `P`, and
/// opening `P` as a ciphertext (tag `tags[1]`, the tag of sealing `C`) leaves `C` again. Each
/// iteration opens whatever the buffer holds with the matching tag: the same work every time (one
/// full, successful open) with no set-up per iteration.
struct AeadCase {
    pt: Vec<u8>,
    ct: Vec<u8>,
    tags: [[u8; 16]; 2],
}

fn aead_case(reference: &dyn Aead, size: usize) -> AeadCase {
    let pt = input(size, 0xae5);
    let mut ct = pt.clone();
    let tag_c = reference.seal(&mut ct);
    let mut again = ct.clone();
    let tag_p = reference.seal(&mut again);
    assert_eq!(again, pt);
    AeadCase {
        pt,
        ct,
        tags: [tag_c, tag_p],
    }
}

/// A seal or open contestant on its own aligned buffer, checked against `case` first.
fn aead_contestant(
    name: impl Into<String>,
    role: Role,
    imp: impl Aead,
    case: &AeadCase,
    seal: bool,
) -> Contestant {
    let name = name.into();
    let mut buf = AlignedBuf::from_slice(&case.pt);
    assert_eq!(imp.seal(&mut buf), case.tags[0], "{name}: tag");
    assert_eq!(&*buf, &case.ct[..], "{name}: ciphertext");
    imp.open(&mut buf, &case.tags[0]);
    assert_eq!(&*buf, &case.pt[..], "{name}: open");
    if seal {
        // Seal in place, repeatedly (the buffer's content does not matter).
        Contestant::new(name, role, move || {
            black_box(imp.seal(black_box(&mut buf)));
        })
    } else {
        buf.copy_from_slice(&case.ct);
        let tags = case.tags;
        let mut s = 0usize;
        Contestant::new(name, role, move || {
            imp.open(black_box(&mut buf), &tags[s]);
            s ^= 1;
        })
    }
}

fn gcm_key_bytes(len: usize) -> Vec<u8> {
    input(len, 0x6b)
}

fn build_gcm(key_len: usize, size: usize, seal: bool) -> Built {
    let key = gcm_key_bytes(key_len);
    let case = aead_case(&TesseraGcmKey(tessera::gcm_key(None, &key)), size);
    let mut cs: Vec<Contestant> = tessera::gcm_impls()
        .into_iter()
        .map(|t| {
            let k = TesseraGcmKey(tessera::gcm_key(t.backend, &key));
            let role = tessera_role(t.backend.is_none());
            aead_contestant(format!("tessera/{}", t.name), role, k, &case, seal)
        })
        .collect();
    let (ring_alg, aws_alg) = if key_len == 16 {
        (&ring::aead::AES_128_GCM, &aws_lc_rs::aead::AES_128_GCM)
    } else {
        (&ring::aead::AES_256_GCM, &aws_lc_rs::aead::AES_256_GCM)
    };
    let rk = ring::aead::LessSafeKey::new(ring::aead::UnboundKey::new(ring_alg, &key).unwrap());
    cs.push(aead_contestant("ring", Role::Peer, rk, &case, seal));
    let ak =
        aws_lc_rs::aead::LessSafeKey::new(aws_lc_rs::aead::UnboundKey::new(aws_alg, &key).unwrap());
    cs.push(aead_contestant("aws-lc-rs", Role::Peer, ak, &case, seal));
    cs.push(aead_contestant(
        "aes-gcm",
        Role::Peer,
        RustCryptoGcm::new(&key),
        &case,
        seal,
    ));
    Built {
        contestants: cs,
        notes: vec![],
    }
}

// --- ChaCha20-Poly1305 ---

struct TesseraChachaKey(tessera::ChachaKey);
impl Aead for TesseraChachaKey {
    #[inline(always)]
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        tessera::chacha_seal(&self.0, &NONCE, &AAD, buf)
    }
    #[inline(always)]
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        tessera::chacha_open(&self.0, &NONCE, &AAD, buf, tag)
    }
}

impl Aead for chacha20poly1305::ChaCha20Poly1305 {
    #[inline(always)]
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        use chacha20poly1305::aead::AeadInPlace;
        self.encrypt_in_place_detached(&NONCE.into(), &AAD, buf)
            .unwrap()
            .into()
    }
    #[inline(always)]
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        use chacha20poly1305::aead::AeadInPlace;
        self.decrypt_in_place_detached(&NONCE.into(), &AAD, buf, tag.into())
            .unwrap()
    }
}

fn chacha_key_bytes() -> [u8; 32] {
    let mut k = [0u8; 32];
    SplitMix64(0xc4ac4a).fill(&mut k);
    k
}

fn rustcrypto_chacha(key: &[u8; 32]) -> chacha20poly1305::ChaCha20Poly1305 {
    use chacha20poly1305::KeyInit;
    chacha20poly1305::ChaCha20Poly1305::new(key.into())
}

fn build_chacha(size: usize, seal: bool) -> Built {
    let key = chacha_key_bytes();
    let case = aead_case(&TesseraChachaKey(tessera::chacha_key(None, &key)), size);
    let mut cs: Vec<Contestant> = tessera::chacha_impls()
        .into_iter()
        .map(|t| {
            let k = TesseraChachaKey(tessera::chacha_key(t.backend, &key));
            let role = tessera_role(t.backend.is_none());
            aead_contestant(format!("tessera/{}", t.name), role, k, &case, seal)
        })
        .collect();
    let rk = ring::aead::LessSafeKey::new(
        ring::aead::UnboundKey::new(&ring::aead::CHACHA20_POLY1305, &key).unwrap(),
    );
    cs.push(aead_contestant("ring", Role::Peer, rk, &case, seal));
    let ak = aws_lc_rs::aead::LessSafeKey::new(
        aws_lc_rs::aead::UnboundKey::new(&aws_lc_rs::aead::CHACHA20_POLY1305, &key).unwrap(),
    );
    cs.push(aead_contestant("aws-lc-rs", Role::Peer, ak, &case, seal));
    cs.push(aead_contestant(
        "chacha20poly1305",
        Role::Peer,
        rustcrypto_chacha(&key),
        &case,
        seal,
    ));
    Built {
        contestants: cs,
        notes: vec![],
    }
}

// --- X25519 ---

/// The secret every X25519 contestant uses: ring's only X25519 private key is ephemeral and
/// drawn from a random source, so ring gets a source that returns this byte, repeated.
const X25519_SECRET_BYTE: u8 = 0x5a;
const X25519_SECRET: [u8; 32] = [X25519_SECRET_BYTE; 32];

/// The peer's public key of the DH rows (an ordinary point, not low order).
fn x25519_peer() -> [u8; 32] {
    let mut s = [0u8; 32];
    SplitMix64(0x25519).fill(&mut s);
    tessera_x25519::x25519_base(s)
}

#[allow(deprecated)] // ring's fixed random source lives in its (deprecated) `test` module
fn ring_fixed_rng() -> ring::test::rand::FixedByteRandom {
    ring::test::rand::FixedByteRandom {
        byte: X25519_SECRET_BYTE,
    }
}

/// A key-agreement contestant: `f` is checked against `expect` once, then timed.
fn kex(
    name: impl Into<String>,
    role: Role,
    expect: &[u8; 32],
    f: impl Fn() -> [u8; 32] + 'static,
) -> Contestant {
    let name = name.into();
    assert_eq!(&f(), expect, "{name} disagrees with Tessera");
    Contestant::new(name, role, move || {
        black_box(f());
    })
}

const X25519_NOTES: [&str; 2] = [
    "ring's X25519 private keys are ephemeral only: each iteration makes one from a fixed-byte random source (no OS call), then agrees or computes its public key",
    "aws-lc-rs parses the peer's 32-byte public key on every agreement (`agree` with an `UnparsedPublicKey`), as an HPKE implementation calls it; Tessera and x25519-dalek take a `PublicKey` built once",
];

/// `base`: key generation (the public key of a secret, fixed-base); otherwise one
/// variable-base Diffie-Hellman with a fixed peer key. `portable`: Tessera's portable backend
/// against x25519-dalek only (both portable Rust, 64-bit limbs).
fn build_x25519(base: bool, portable: bool) -> Built {
    let peer = x25519_peer();
    let tpk = tessera_x25519::PublicKey::from(peer);
    let expect = if base {
        tessera::x25519_keygen(None, X25519_SECRET)
    } else {
        tessera::x25519_dh(&tessera::x25519_secret(None, X25519_SECRET), &tpk)
    };
    let impls = if portable {
        vec![tessera::x25519_portable()]
    } else {
        tessera::x25519_impls()
    };
    let mut cs: Vec<Contestant> = impls
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            let be = t.backend;
            let role = if i == 0 {
                Role::Reference
            } else {
                Role::Backend
            };
            let name = format!("tessera/{}", t.name);
            if base {
                kex(name, role, &expect, move || {
                    tessera::x25519_keygen(be, black_box(X25519_SECRET))
                })
            } else {
                let sk = tessera::x25519_secret(be, X25519_SECRET);
                let pk = tpk;
                kex(name, role, &expect, move || {
                    tessera::x25519_dh(&sk, black_box(&pk))
                })
            }
        })
        .collect();
    if !portable {
        use aws_lc_rs::agreement as aws;
        use ring::agreement as rg;
        if base {
            cs.push(kex("aws-lc-rs", Role::Peer, &expect, || {
                let sk = aws::PrivateKey::from_private_key(&aws::X25519, black_box(&X25519_SECRET))
                    .unwrap();
                sk.compute_public_key()
                    .unwrap()
                    .as_ref()
                    .try_into()
                    .unwrap()
            }));
            cs.push(kex("ring", Role::Peer, &expect, || {
                let sk = rg::EphemeralPrivateKey::generate(&rg::X25519, &ring_fixed_rng()).unwrap();
                sk.compute_public_key()
                    .unwrap()
                    .as_ref()
                    .try_into()
                    .unwrap()
            }));
        } else {
            let ask = aws::PrivateKey::from_private_key(&aws::X25519, &X25519_SECRET).unwrap();
            cs.push(kex("aws-lc-rs", Role::Peer, &expect, move || {
                aws::agree(
                    &ask,
                    aws::UnparsedPublicKey::new(&aws::X25519, black_box(&peer)),
                    (),
                    |s| Ok::<[u8; 32], ()>(s.try_into().unwrap()),
                )
                .unwrap()
            }));
            cs.push(kex("ring", Role::Peer, &expect, move || {
                let sk = rg::EphemeralPrivateKey::generate(&rg::X25519, &ring_fixed_rng()).unwrap();
                rg::agree_ephemeral(
                    sk,
                    &rg::UnparsedPublicKey::new(&rg::X25519, black_box(&peer)),
                    |s| <[u8; 32]>::try_from(s).unwrap(),
                )
                .unwrap()
            }));
        }
    }
    if base {
        cs.push(kex("x25519-dalek", Role::Peer, &expect, || {
            x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(black_box(
                X25519_SECRET,
            )))
            .to_bytes()
        }));
    } else {
        let dsk = x25519_dalek::StaticSecret::from(X25519_SECRET);
        let dpk = x25519_dalek::PublicKey::from(peer);
        cs.push(kex("x25519-dalek", Role::Peer, &expect, move || {
            dsk.diffie_hellman(black_box(&dpk)).to_bytes()
        }));
    }
    let notes = if portable {
        vec!["portable only: Tessera portable (radix 2^51) against x25519-dalek (its serial field arithmetic; its SIMD backends serve Edwards, not the Montgomery ladder)".into()]
    } else {
        X25519_NOTES.iter().map(|n| n.to_string()).collect()
    };
    Built {
        contestants: cs,
        notes,
    }
}

// --- ML-KEM ---

#[derive(Clone, Copy, PartialEq, Eq)]
enum KemOp {
    KeyGen,
    Encaps,
    Decaps,
    /// Encapsulation with the key parsed from its bytes on every call.
    EncapsFromBytes,
    /// Decapsulation with the key parsed from its expanded FIPS 203 bytes on every call.
    DecapsFromBytes,
}

const MLKEM_NOTES: [&str; 5] = [
    "keygen: Tessera, libcrux and RustCrypto derive the key from a fixed 64-byte seed; aws-lc-rs and pqcrypto-mlkem have no seed API in Rust, so their rows include an OS RNG call (64 bytes)",
    "encaps (reused key): Tessera, RustCrypto and aws-lc-rs reuse a parsed key; libcrux and pqcrypto-mlkem have no parsed-key form here and take the encoded key on every call (their rows include parsing it and ExpandA); aws-lc-rs and pqcrypto-mlkem draw m from the OS RNG on every call, the others take a fixed m",
    "decaps (reused key): Tessera (A-hat in NTT form, s-hat and H(ek) kept), RustCrypto and aws-lc-rs reuse a parsed key; libcrux and pqcrypto-mlkem take the key bytes on every call (their rows include parsing them and ExpandA)",
    "encaps from bytes: every library parses the 1184/800/1568-byte encapsulation key (modulus check, ExpandA) on every call; aws-lc-rs and pqcrypto-mlkem draw m from the OS RNG, the others take a fixed m",
    "decaps from bytes: every library parses the expanded FIPS 203 decapsulation key (Tessera and RustCrypto with the section 7.3 hash check) on every call",
];

/// Seed (d || z) and message m of the ML-KEM rows.
fn mlkem_inputs() -> ([u8; 64], [u8; 32]) {
    let (mut seed, mut m) = ([0u8; 64], [0u8; 32]);
    SplitMix64(0x6d6c6b656d).fill(&mut seed);
    SplitMix64(0x6d).fill(&mut m);
    (seed, m)
}

/// The ML-KEM rows of one parameter set: `$t` Tessera's module, `$lc` libcrux's, `$rc`
/// RustCrypto ml-kem's, `$aws` aws-lc-rs's algorithm. `portable`: Tessera's portable backend
/// against RustCrypto ml-kem only (both portable Rust).
macro_rules! mlkem_builder {
    ($fn:ident, $t:ident, $lc:ident, $rc:ident, $aws:ident, $pq:ident) => {
        fn $fn(op: KemOp, portable: bool) -> Built {
            use ml_kem::{Decapsulate, KeyExport};
            use tessera_mlkem::$t::{Ciphertext, DecapsulationKey, EncapsulationKey};
            let (seed, m) = mlkem_inputs();
            let dk0 = DecapsulationKey::from_seed(&seed);
            let ek_bytes = dk0.encapsulation_key().to_bytes();
            let (ct, ss) = dk0.encapsulation_key().encapsulate_deterministic(&m);
            let ss = *ss.as_bytes();
            let impls = if portable {
                vec![tessera::mlkem_portable()]
            } else {
                tessera::mlkem_impls()
            };
            let mut cs = Vec::new();
            for (i, t) in impls.into_iter().enumerate() {
                let be = t.backend;
                let role = if i == 0 { Role::Reference } else { Role::Backend };
                let name = format!("tessera/{}", t.name);
                let keygen = move |s: &[u8; 64]| match be {
                    None => DecapsulationKey::from_seed(s),
                    Some(be) => DecapsulationKey::from_seed_with_backend(be, s),
                };
                cs.push(match op {
                    KemOp::KeyGen => {
                        assert_eq!(keygen(&seed).encapsulation_key().to_bytes(), ek_bytes, "{name}");
                        Contestant::new(name, role, move || {
                            black_box(keygen(black_box(&seed)));
                        })
                    }
                    KemOp::Encaps => {
                        let ek = match be {
                            None => EncapsulationKey::from_bytes(&ek_bytes),
                            Some(be) => EncapsulationKey::from_bytes_with_backend(be, &ek_bytes),
                        }
                        .unwrap();
                        assert!(ek.encapsulate_deterministic(&m).0 == ct, "{name}");
                        Contestant::new(name, role, move || {
                            black_box(ek.encapsulate_deterministic(black_box(&m)));
                        })
                    }
                    KemOp::Decaps => {
                        let dk = keygen(&seed);
                        let c = Ciphertext::from_bytes(ct.as_bytes()).unwrap();
                        assert_eq!(dk.decapsulate(&c).as_bytes(), &ss, "{name}");
                        Contestant::new(name, role, move || {
                            black_box(dk.decapsulate(black_box(&c)));
                        })
                    }
                    KemOp::EncapsFromBytes => {
                        let parse = move |b: &[u8]| match be {
                            None => EncapsulationKey::from_bytes(b),
                            Some(be) => EncapsulationKey::from_bytes_with_backend(be, b),
                        };
                        assert!(parse(&ek_bytes).unwrap().encapsulate_deterministic(&m).0 == ct, "{name}");
                        Contestant::new(name, role, move || {
                            let ek = parse(black_box(&ek_bytes)).unwrap();
                            black_box(ek.encapsulate_deterministic(black_box(&m)));
                        })
                    }
                    KemOp::DecapsFromBytes => {
                        let parse = move |b: &[u8]| match be {
                            None => DecapsulationKey::from_expanded_bytes(b),
                            Some(be) => DecapsulationKey::from_expanded_bytes_with_backend(be, b),
                        };
                        let dk_bytes = dk0.to_expanded_bytes();
                        let c = Ciphertext::from_bytes(ct.as_bytes()).unwrap();
                        assert_eq!(parse(&dk_bytes).unwrap().decapsulate(&c).as_bytes(), &ss, "{name}");
                        Contestant::new(name, role, move || {
                            let dk = parse(black_box(&dk_bytes)).unwrap();
                            black_box(dk.decapsulate(black_box(&c)));
                        })
                    }
                });
            }
            // RustCrypto ml-kem (portable Rust): in every row.
            let rc = ml_kem::$rc::DecapsulationKey::from_seed(seed.into());
            assert_eq!(rc.encapsulation_key().to_bytes()[..], ek_bytes[..], "ml-kem keygen");
            cs.push(match op {
                KemOp::KeyGen => Contestant::new("ml-kem", Role::Peer, move || {
                    black_box(ml_kem::$rc::DecapsulationKey::from_seed(black_box(seed).into()));
                }),
                KemOp::Encaps => {
                    let ek = rc.encapsulation_key().clone();
                    let (c, _) = ek.encapsulate_deterministic(&m.into());
                    assert_eq!(c[..], ct.as_bytes()[..], "ml-kem encaps");
                    Contestant::new("ml-kem", Role::Peer, move || {
                        black_box(ek.encapsulate_deterministic(&black_box(m).into()));
                    })
                }
                KemOp::Decaps => {
                    let c = ml_kem::array::Array::try_from(&ct.as_bytes()[..]).unwrap();
                    assert_eq!(rc.decapsulate(&c)[..], ss[..], "ml-kem decaps");
                    Contestant::new("ml-kem", Role::Peer, move || {
                        black_box(rc.decapsulate(black_box(&c)));
                    })
                }
                KemOp::EncapsFromBytes => {
                    let b = ml_kem::array::Array::try_from(&ek_bytes[..]).unwrap();
                    let ek = ml_kem::$rc::EncapsulationKey::new(&b).unwrap();
                    assert_eq!(ek.encapsulate_deterministic(&m.into()).0[..], ct.as_bytes()[..], "ml-kem encaps");
                    Contestant::new("ml-kem", Role::Peer, move || {
                        let ek = ml_kem::$rc::EncapsulationKey::new(black_box(&b)).unwrap();
                        black_box(ek.encapsulate_deterministic(&black_box(m).into()));
                    })
                }
                KemOp::DecapsFromBytes => {
                    // The expanded form is deprecated in ml-kem 0.3 (seeds are the canonical
                    // key) but still the FIPS 203 encoding the other libraries read.
                    #[allow(deprecated)]
                    let parse = |b: &ml_kem::$rc::ExpandedDecapsulationKey| {
                        ml_kem::$rc::DecapsulationKey::from_expanded(b).unwrap()
                    };
                    let b = ml_kem::array::Array::try_from(&dk0.to_expanded_bytes()[..]).unwrap();
                    let c = ml_kem::array::Array::try_from(&ct.as_bytes()[..]).unwrap();
                    assert_eq!(parse(&b).decapsulate(&c)[..], ss[..], "ml-kem decaps");
                    Contestant::new("ml-kem", Role::Peer, move || {
                        black_box(parse(black_box(&b)).decapsulate(black_box(&c)));
                    })
                }
            });
            if portable {
                return Built {
                    contestants: cs,
                    notes: vec!["portable only: Tessera portable against RustCrypto ml-kem (both portable Rust)".into()],
                };
            }
            // libcrux-ml-kem (its AVX2 code where the CPU has it).
            let lc = libcrux_ml_kem::$lc::generate_key_pair(seed);
            assert_eq!(lc.public_key().as_slice()[..], ek_bytes[..], "libcrux keygen");
            let (lc_ct, lc_ss) = libcrux_ml_kem::$lc::encapsulate(lc.public_key(), m);
            assert_eq!(lc_ct.as_slice()[..], ct.as_bytes()[..], "libcrux encaps");
            assert_eq!(lc_ss[..], ss[..], "libcrux shared secret");
            cs.push(match op {
                KemOp::KeyGen => Contestant::new("libcrux-ml-kem", Role::Peer, move || {
                    black_box(libcrux_ml_kem::$lc::generate_key_pair(black_box(seed)));
                }),
                KemOp::Encaps | KemOp::EncapsFromBytes => Contestant::new("libcrux-ml-kem", Role::Peer, move || {
                    black_box(libcrux_ml_kem::$lc::encapsulate(
                        black_box(lc.public_key()),
                        black_box(m),
                    ));
                }),
                KemOp::Decaps | KemOp::DecapsFromBytes => {
                    assert_eq!(
                        libcrux_ml_kem::$lc::decapsulate(lc.private_key(), &lc_ct)[..],
                        ss[..],
                        "libcrux decaps"
                    );
                    Contestant::new("libcrux-ml-kem", Role::Peer, move || {
                        black_box(libcrux_ml_kem::$lc::decapsulate(
                            black_box(lc.private_key()),
                            black_box(&lc_ct),
                        ));
                    })
                }
            });
            // aws-lc-rs (mlkem-native): no seed or fixed-m API.
            use aws_lc_rs::kem as aws;
            let adk = aws::DecapsulationKey::generate(&aws::$aws).unwrap();
            let aek = adk.encapsulation_key().unwrap();
            let (act, ass) = aek.encapsulate().unwrap();
            let act = act.as_ref().to_vec();
            assert_eq!(
                adk.decapsulate(act[..].into()).unwrap().as_ref(),
                ass.as_ref(),
                "aws-lc-rs round trip"
            );
            cs.push(match op {
                KemOp::KeyGen => Contestant::new("aws-lc-rs", Role::Peer, move || {
                    black_box(aws::DecapsulationKey::generate(&aws::$aws).unwrap());
                }),
                KemOp::Encaps => Contestant::new("aws-lc-rs", Role::Peer, move || {
                    black_box(aek.encapsulate().unwrap());
                }),
                KemOp::Decaps => Contestant::new("aws-lc-rs", Role::Peer, move || {
                    black_box(adk.decapsulate(black_box(&act[..]).into()).unwrap());
                }),
                KemOp::EncapsFromBytes => {
                    let b = aek.key_bytes().unwrap().as_ref().to_vec();
                    Contestant::new("aws-lc-rs", Role::Peer, move || {
                        let ek = aws::EncapsulationKey::new(&aws::$aws, black_box(&b)).unwrap();
                        black_box(ek.encapsulate().unwrap());
                    })
                }
                KemOp::DecapsFromBytes => {
                    // Tessera's expanded key bytes: aws-lc-rs decapsulates Tessera's ciphertext.
                    let b = dk0.to_expanded_bytes();
                    let k = aws::DecapsulationKey::new(&aws::$aws, &b).unwrap();
                    assert_eq!(k.decapsulate(ct.as_bytes()[..].into()).unwrap().as_ref(), &ss[..], "aws-lc-rs decaps");
                    let c = ct.as_bytes().to_vec();
                    Contestant::new("aws-lc-rs", Role::Peer, move || {
                        let k = aws::DecapsulationKey::new(&aws::$aws, black_box(&b)).unwrap();
                        black_box(k.decapsulate(black_box(&c[..]).into()).unwrap());
                    })
                }
            });
            // pqcrypto-mlkem (PQClean's AVX2 code where the CPU has it, else its clean C): no
            // seed or fixed-m API in Rust. Its secret key is the FIPS 203 expanded key, so it
            // decapsulates Tessera's ciphertext with Tessera's key bytes, and Tessera
            // decapsulates its ciphertexts.
            {
                use pqcrypto_mlkem::$pq as pq;
                use pqcrypto_traits::kem::{
                    Ciphertext as _, PublicKey as _, SecretKey as _, SharedSecret as _,
                };
                let ppk = pq::PublicKey::from_bytes(&ek_bytes).unwrap();
                let psk = pq::SecretKey::from_bytes(&dk0.to_expanded_bytes()).unwrap();
                let pct = pq::Ciphertext::from_bytes(ct.as_bytes()).unwrap();
                assert_eq!(pq::decapsulate(&pct, &psk).as_bytes(), &ss[..], "pqcrypto decaps");
                let (pss2, pct2) = pq::encapsulate(&ppk);
                let c2 = Ciphertext::from_bytes(pct2.as_bytes()).unwrap();
                assert_eq!(
                    dk0.decapsulate(&c2).as_bytes()[..],
                    pss2.as_bytes()[..],
                    "pqcrypto encaps"
                );
                let (kpk, ksk) = pq::keypair();
                assert_eq!(kpk.as_bytes().len(), ek_bytes.len(), "pqcrypto keygen");
                let kdk = DecapsulationKey::from_expanded_bytes(ksk.as_bytes()).unwrap();
                assert_eq!(kdk.encapsulation_key().to_bytes()[..], kpk.as_bytes()[..], "pqcrypto keygen");
                cs.push(match op {
                    KemOp::KeyGen => Contestant::new("pqcrypto-mlkem", Role::Peer, move || {
                        black_box(pq::keypair());
                    }),
                    KemOp::Encaps | KemOp::EncapsFromBytes => Contestant::new("pqcrypto-mlkem", Role::Peer, move || {
                        black_box(pq::encapsulate(black_box(&ppk)));
                    }),
                    KemOp::Decaps | KemOp::DecapsFromBytes => Contestant::new("pqcrypto-mlkem", Role::Peer, move || {
                        black_box(pq::decapsulate(black_box(&pct), black_box(&psk)));
                    }),
                });
            }
            let note = match op {
                KemOp::KeyGen => MLKEM_NOTES[0],
                KemOp::Encaps => MLKEM_NOTES[1],
                KemOp::Decaps => MLKEM_NOTES[2],
                KemOp::EncapsFromBytes => MLKEM_NOTES[3],
                KemOp::DecapsFromBytes => MLKEM_NOTES[4],
            };
            Built {
                contestants: cs,
                notes: vec![note.into()],
            }
        }
    };
}

mlkem_builder!(
    build_mlkem512,
    ml_kem_512,
    mlkem512,
    ml_kem_512,
    ML_KEM_512,
    mlkem512
);
mlkem_builder!(
    build_mlkem768,
    ml_kem_768,
    mlkem768,
    ml_kem_768,
    ML_KEM_768,
    mlkem768
);
mlkem_builder!(
    build_mlkem1024,
    ml_kem_1024,
    mlkem1024,
    ml_kem_1024,
    ML_KEM_1024,
    mlkem1024
);

// --- ML-DSA ---

#[derive(Clone, Copy)]
enum DsaOp {
    KeyGen,
    Sign,
    Verify,
    /// Verification with the verifying key and the signature parsed from their bytes on
    /// every call.
    VerifyFromBytes,
}

const MLDSA_NOTES: [&str; 4] = [
    "keygen: Tessera, libcrux, RustCrypto and aws-lc-rs derive the key from a fixed 32-byte seed xi (Tessera's key also caches A-hat and the NTT forms of its secret vectors)",
    "sign: 64-byte messages, empty context, cycling over 64 messages, every library on the same 4 messages in each round (the rejection loop varies with the message); every library signs deterministically (rnd = 0) and gives the same signatures (checked): Tessera, libcrux and RustCrypto through their APIs, aws-lc-rs (whose API signs only hedged) through AWS-LC's exported ml_dsa_*_sign_internal, which calls the same mldsa-native signing function as its hedged sign does after drawing rnd; every library reuses its key",
    "verify: 64-byte messages, empty context, cycling over 64 signatures, every library on the same 4 in each round; Tessera (A-hat, NTT(t1 2^d) and tr cached), RustCrypto and aws-lc-rs (ParsedPublicKey) reuse a parsed key; libcrux takes the encoded key on every call",
    "verify from bytes: 64-byte messages, empty context, cycling over 64 signatures, every library on the same 4 in each round; every library parses the 1312/1952/2592-byte verifying key (pkDecode; Tessera and RustCrypto also ExpandA, NTT(t1 2^d) and tr = H(pk)) and decodes the signature on every call (aws-lc-rs through UnparsedPublicKey::verify, libcrux from its encoded key and signature types)",
];

/// Messages each library signs per round in the ML-DSA sign rows: the same 4 for every library
/// (`Contestant::fixed_batch`), 16 windows of 4 over the 64 messages, so each round compares
/// the same work (the signing loop's iteration count depends on the message).
const SIGN_BATCH: u64 = 4;

/// Signatures each library verifies per round in the ML-DSA verify rows: the same 4 for every
/// library, so each round's ratio compares verifications of the same messages.
const VERIFY_BATCH: u64 = 4;

/// `cs` with every contestant timing exactly `batch` inputs per round (`None`: unchanged).
fn with_batch(cs: Vec<Contestant>, batch: Option<u64>) -> Vec<Contestant> {
    match batch {
        Some(n) => cs.into_iter().map(|c| c.fixed_batch(n)).collect(),
        None => cs,
    }
}

/// Seed xi and the 64 messages of the ML-DSA rows.
fn mldsa_inputs() -> ([u8; 32], Vec<[u8; 64]>) {
    let mut seed = [0u8; 32];
    SplitMix64(0x6d6c647361).fill(&mut seed);
    let msgs = (0..64u64)
        .map(|i| {
            let mut m = [0u8; 64];
            SplitMix64(0x6d736700 + i).fill(&mut m);
            m
        })
        .collect();
    (seed, msgs)
}

/// The ML-DSA rows of one parameter set: `$t` Tessera's module, `$lc` libcrux's, `$lcsig`
/// libcrux's signature type, `$rc` RustCrypto ml-dsa's parameter type, `$aws`/`$awsv`
/// aws-lc-rs's signing and verification algorithms. `portable`: Tessera's portable backend
/// against RustCrypto ml-dsa only (both portable Rust).
macro_rules! mldsa_builder {
    ($fn:ident, $t:ident, $lc:ident, $lcsig:ident, $rc:ident, $aws:ident, $awsv:ident, $awsfn:ident) => {
        fn $fn(op: DsaOp, portable: bool) -> Built {
            use tessera_mldsa::$t::{Signature, SigningKey, VerifyingKey};
            // The batch is a property of the row: every contestant times the same inputs per
            // round, applied to all of them at the end ([`with_batch`]).
            let batch = match op {
                DsaOp::KeyGen => None,
                DsaOp::Sign => Some(SIGN_BATCH),
                DsaOp::Verify | DsaOp::VerifyFromBytes => Some(VERIFY_BATCH),
            };
            let (seed, msgs) = mldsa_inputs();
            let sk0 = SigningKey::from_seed(&seed);
            let vk_bytes = sk0.verifying_key().to_bytes();
            let sigs: Vec<Signature> = msgs
                .iter()
                .map(|m| sk0.sign_deterministic(m, &[]).unwrap())
                .collect();
            let impls = if portable {
                vec![tessera::mldsa_portable()]
            } else {
                tessera::mldsa_impls()
            };
            let mut cs = Vec::new();
            for (i, t) in impls.into_iter().enumerate() {
                let be = t.backend;
                let role = if i == 0 { Role::Reference } else { Role::Backend };
                let name = format!("tessera/{}", t.name);
                let keygen = move |s: &[u8; 32]| match be {
                    None => SigningKey::from_seed(s),
                    Some(be) => SigningKey::from_seed_with_backend(be, s),
                };
                let (msgs, sigs) = (msgs.clone(), sigs.clone());
                cs.push(match op {
                    DsaOp::KeyGen => {
                        assert_eq!(keygen(&seed).verifying_key().to_bytes(), vk_bytes, "{name}");
                        Contestant::new(name, role, move || {
                            black_box(keygen(black_box(&seed)));
                        })
                    }
                    DsaOp::Sign => {
                        let sk = keygen(&seed);
                        for (m, s) in msgs.iter().zip(&sigs) {
                            assert!(sk.sign_deterministic(m, &[]).unwrap() == *s, "{name}");
                        }
                        Contestant::indexed(name, role, move |n| {
                            let n = n & 63;
                            black_box(sk.sign_deterministic(black_box(&msgs[n]), &[]).unwrap());
                        })
                    }
                    DsaOp::Verify => {
                        let vk = match be {
                            None => VerifyingKey::from_bytes(&vk_bytes),
                            Some(be) => VerifyingKey::from_bytes_with_backend(be, &vk_bytes),
                        }
                        .unwrap();
                        for (m, s) in msgs.iter().zip(&sigs) {
                            vk.verify(m, &[], s).unwrap();
                        }
                        Contestant::indexed(name, role, move |n| {
                            let n = n & 63;
                            vk.verify(black_box(&msgs[n]), &[], black_box(&sigs[n])).unwrap();
                        })
                    }
                    DsaOp::VerifyFromBytes => {
                        let parse = move |b: &[u8]| match be {
                            None => VerifyingKey::from_bytes(b),
                            Some(be) => VerifyingKey::from_bytes_with_backend(be, b),
                        };
                        let sig_bytes: Vec<Vec<u8>> = sigs.iter().map(|s| s.as_bytes().to_vec()).collect();
                        for (m, s) in msgs.iter().zip(&sig_bytes) {
                            parse(&vk_bytes).unwrap().verify(m, &[], &Signature::from_bytes(s).unwrap()).unwrap();
                        }
                        Contestant::indexed(name, role, move |n| {
                            let n = n & 63;
                            let vk = parse(black_box(&vk_bytes)).unwrap();
                            let s = Signature::from_bytes(black_box(&sig_bytes[n])).unwrap();
                            vk.verify(black_box(&msgs[n]), &[], &s).unwrap();
                        })
                    }
                });
            }
            // RustCrypto ml-dsa (portable Rust): in every row.
            let rc = ml_dsa::SigningKey::<ml_dsa::$rc>::from_seed(&seed.into());
            assert_eq!(
                rc.expanded_key().verifying_key().encode()[..],
                vk_bytes[..],
                "ml-dsa keygen"
            );
            {
                let (msgs, sigs) = (msgs.clone(), sigs.clone());
                cs.push(match op {
                    DsaOp::KeyGen => Contestant::new("ml-dsa", Role::Peer, move || {
                        black_box(ml_dsa::SigningKey::<ml_dsa::$rc>::from_seed(&black_box(seed).into()));
                    }),
                    DsaOp::Sign => {
                        for (m, s) in msgs.iter().zip(&sigs) {
                            let r = rc.expanded_key().sign_deterministic(m, &[]).unwrap();
                            assert_eq!(r.encode()[..], s.as_bytes()[..], "ml-dsa sign");
                        }
                        Contestant::indexed("ml-dsa", Role::Peer, move |n| {
                            let n = n & 63;
                            black_box(rc.expanded_key().sign_deterministic(black_box(&msgs[n]), &[]).unwrap());
                        })
                    }
                    DsaOp::Verify => {
                        let vk = rc.expanded_key().verifying_key();
                        let rsigs: Vec<ml_dsa::Signature<ml_dsa::$rc>> = sigs
                            .iter()
                            .map(|s| {
                                let e = ml_dsa::EncodedSignature::<ml_dsa::$rc>::try_from(&s.as_bytes()[..]).unwrap();
                                ml_dsa::Signature::<ml_dsa::$rc>::decode(&e).unwrap()
                            })
                            .collect();
                        for (m, s) in msgs.iter().zip(&rsigs) {
                            assert!(vk.verify_with_context(m, &[], s), "ml-dsa verify");
                        }
                        Contestant::indexed("ml-dsa", Role::Peer, move |n| {
                            let n = n & 63;
                            assert!(vk.verify_with_context(black_box(&msgs[n]), &[], black_box(&rsigs[n])));
                        })
                    }
                    DsaOp::VerifyFromBytes => {
                        let vkb = ml_dsa::EncodedVerifyingKey::<ml_dsa::$rc>::try_from(&vk_bytes[..]).unwrap();
                        let esigs: Vec<ml_dsa::EncodedSignature<ml_dsa::$rc>> = sigs
                            .iter()
                            .map(|s| ml_dsa::EncodedSignature::<ml_dsa::$rc>::try_from(&s.as_bytes()[..]).unwrap())
                            .collect();
                        for (m, s) in msgs.iter().zip(&esigs) {
                            let vk = ml_dsa::VerifyingKey::<ml_dsa::$rc>::decode(&vkb);
                            let s = ml_dsa::Signature::<ml_dsa::$rc>::decode(s).unwrap();
                            assert!(vk.verify_with_context(m, &[], &s), "ml-dsa verify");
                        }
                        Contestant::indexed("ml-dsa", Role::Peer, move |n| {
                            let n = n & 63;
                            let vk = ml_dsa::VerifyingKey::<ml_dsa::$rc>::decode(black_box(&vkb));
                            let s = ml_dsa::Signature::<ml_dsa::$rc>::decode(black_box(&esigs[n])).unwrap();
                            assert!(vk.verify_with_context(black_box(&msgs[n]), &[], &s));
                        })
                    }
                });
            }
            if portable {
                return Built {
                    contestants: with_batch(cs, batch),
                    notes: vec!["portable only: Tessera portable against RustCrypto ml-dsa (both portable Rust)".into()],
                };
            }
            // libcrux-ml-dsa (its AVX2 code where the CPU has it).
            let lc = libcrux_ml_dsa::$lc::generate_key_pair(seed);
            assert_eq!(lc.verification_key.as_slice()[..], vk_bytes[..], "libcrux keygen");
            {
                let (msgs, sigs) = (msgs.clone(), sigs.clone());
                cs.push(match op {
                    DsaOp::KeyGen => Contestant::new("libcrux-ml-dsa", Role::Peer, move || {
                        black_box(libcrux_ml_dsa::$lc::generate_key_pair(black_box(seed)));
                    }),
                    DsaOp::Sign => {
                        for (m, s) in msgs.iter().zip(&sigs) {
                            let r = libcrux_ml_dsa::$lc::sign(&lc.signing_key, m, &[], [0; 32]).unwrap();
                            assert_eq!(r.as_slice(), &s.as_bytes()[..], "libcrux sign");
                        }
                        Contestant::indexed("libcrux-ml-dsa", Role::Peer, move |n| {
                            let n = n & 63;
                            black_box(libcrux_ml_dsa::$lc::sign(&lc.signing_key, black_box(&msgs[n]), &[], [0; 32]).unwrap());
                        })
                    }
                    DsaOp::Verify => {
                        let lsigs: Vec<_> = sigs
                            .iter()
                            .map(|s| libcrux_ml_dsa::$lc::$lcsig::new(*s.as_bytes()))
                            .collect();
                        for (m, s) in msgs.iter().zip(&lsigs) {
                            libcrux_ml_dsa::$lc::verify(&lc.verification_key, m, &[], s).unwrap();
                        }
                        Contestant::indexed("libcrux-ml-dsa", Role::Peer, move |n| {
                            let n = n & 63;
                            libcrux_ml_dsa::$lc::verify(&lc.verification_key, black_box(&msgs[n]), &[], black_box(&lsigs[n])).unwrap();
                        })
                    }
                    DsaOp::VerifyFromBytes => {
                        // libcrux verifies from the encoded key (parsed inside verify); its
                        // signature type is built from the bytes on every call.
                        for (m, s) in msgs.iter().zip(&sigs) {
                            let s = libcrux_ml_dsa::$lc::$lcsig::new(*s.as_bytes());
                            libcrux_ml_dsa::$lc::verify(&lc.verification_key, m, &[], &s).unwrap();
                        }
                        Contestant::indexed("libcrux-ml-dsa", Role::Peer, move |n| {
                            let n = n & 63;
                            let s = libcrux_ml_dsa::$lc::$lcsig::new(*black_box(sigs[n].as_bytes()));
                            libcrux_ml_dsa::$lc::verify(black_box(&lc.verification_key), black_box(&msgs[n]), &[], &s).unwrap();
                        })
                    }
                });
            }
            // aws-lc-rs (mldsa-native): seed API; hedged signing only.
            use aws_lc_rs::signature::{self as aws, KeyPair as _};
            let akp = aws::PqdsaKeyPair::from_seed(&aws::$aws, &seed).unwrap();
            assert_eq!(akp.public_key().as_ref(), &vk_bytes[..], "aws-lc-rs keygen");
            let apk = aws::UnparsedPublicKey::new(&aws::$awsv, vk_bytes.to_vec())
                .parse()
                .unwrap();
            let mut asig = vec![0u8; sigs[0].as_bytes().len()];
            {
                let vk = VerifyingKey::from_bytes(&vk_bytes).unwrap();
                for m in &msgs {
                    assert_eq!(akp.sign(m, &mut asig).unwrap(), asig.len());
                    vk.verify(m, &[], &Signature::from_bytes(&asig).unwrap()).expect("aws-lc-rs sign");
                }
                for (m, s) in msgs.iter().zip(&sigs) {
                    apk.verify_sig(m, s.as_bytes()).expect("aws-lc-rs verify");
                }
            }
            let (msgs, sigs) = (msgs.clone(), sigs.clone());
            cs.push(match op {
                DsaOp::KeyGen => Contestant::new("aws-lc-rs", Role::Peer, move || {
                    black_box(aws::PqdsaKeyPair::from_seed(&aws::$aws, black_box(&seed)).unwrap());
                }),
                DsaOp::Sign => {
                    // aws-lc-rs's public API signs hedged only, so its iteration counts would
                    // be random and its per-round ratios noisy. Its code is timed through
                    // AWS-LC's exported `ml_dsa_*_sign_internal`, which calls the same
                    // mldsa-native signing function as the hedged sign does after drawing
                    // rnd, here with rnd = 0 and the pure-ML-DSA prefix of an
                    // empty context: the signatures must equal Tessera's byte for byte, so all
                    // four libraries do the same signing loops in every round.
                    let skb = sk0.to_expanded_bytes();
                    let sign = move |m: &[u8], sig: &mut [u8]| -> usize {
                        const PRE: [u8; 2] = [0, 0];
                        const RND: [u8; 32] = [0; 32];
                        let mut len = sig.len();
                        // SAFETY: the C function reads SK_LEN bytes of `skb`, `m.len()` bytes
                        // of `m`, 2 of PRE and 32 of RND, and writes at most `len` (the
                        // signature length, the size of `sig`) bytes to `sig`.
                        let r = unsafe {
                            $awsfn(
                                skb.as_ptr(),
                                sig.as_mut_ptr(),
                                &mut len,
                                m.as_ptr(),
                                m.len(),
                                PRE.as_ptr(),
                                PRE.len(),
                                RND.as_ptr(),
                            )
                        };
                        assert_eq!(r, 1, "aws-lc ml_dsa sign_internal");
                        len
                    };
                    for (m, s) in msgs.iter().zip(&sigs) {
                        assert_eq!(sign(m, &mut asig), asig.len());
                        assert_eq!(asig[..], s.as_bytes()[..], "aws-lc-rs deterministic sign");
                    }
                    Contestant::indexed("aws-lc-rs", Role::Peer, move |n| {
                        let n = n & 63;
                        black_box(sign(black_box(&msgs[n]), &mut asig));
                    })
                }
                DsaOp::Verify => Contestant::indexed("aws-lc-rs", Role::Peer, move |n| {
                    let n = n & 63;
                    apk.verify_sig(black_box(&msgs[n]), black_box(sigs[n].as_bytes())).unwrap();
                }),
                DsaOp::VerifyFromBytes => {
                    let b = vk_bytes.to_vec();
                    for (m, s) in msgs.iter().zip(&sigs) {
                        aws::UnparsedPublicKey::new(&aws::$awsv, &b)
                            .verify(m, s.as_bytes())
                            .expect("aws-lc-rs verify");
                    }
                    Contestant::indexed("aws-lc-rs", Role::Peer, move |n| {
                        let n = n & 63;
                        aws::UnparsedPublicKey::new(&aws::$awsv, black_box(&b))
                            .verify(black_box(&msgs[n]), black_box(sigs[n].as_bytes()))
                            .unwrap();
                    })
                }
            });
            let cs = with_batch(cs, batch);
            let note = match op {
                DsaOp::KeyGen => MLDSA_NOTES[0],
                DsaOp::Sign => MLDSA_NOTES[1],
                DsaOp::Verify => MLDSA_NOTES[2],
                DsaOp::VerifyFromBytes => MLDSA_NOTES[3],
            };
            Built {
                contestants: cs,
                notes: vec![note.into()],
            }
        }
    };
}

// AWS-LC's deterministic ML-DSA signing (`ml_dsa_*_sign_internal` of
// crypto/fipsmodule/ml_dsa/ml_dsa.h, exported from the library aws-lc-sys links, under its
// symbol prefix; aws-lc-sys has no binding for it). See the aws-lc-rs sign contestant.
/// Declares AWS-LC's `ml_dsa_*_sign_internal` functions under their prefixed symbols.
macro_rules! aws_lc_sign_internal {
    ($($name:ident = $sym:literal),* $(,)?) => {
        unsafe extern "C" {
            $(
                #[link_name = $sym]
                fn $name(
                    sk: *const u8,
                    sig: *mut u8,
                    sig_len: *mut usize,
                    msg: *const u8,
                    msg_len: usize,
                    pre: *const u8,
                    pre_len: usize,
                    rnd: *const u8,
                ) -> core::ffi::c_int;
            )*
        }
    };
}
aws_lc_sign_internal!(
    aws_lc_ml_dsa_44_sign_internal = "aws_lc_0_47_0_ml_dsa_44_sign_internal",
    aws_lc_ml_dsa_65_sign_internal = "aws_lc_0_47_0_ml_dsa_65_sign_internal",
    aws_lc_ml_dsa_87_sign_internal = "aws_lc_0_47_0_ml_dsa_87_sign_internal",
);

mldsa_builder!(
    build_mldsa44,
    ml_dsa_44,
    ml_dsa_44,
    MLDSA44Signature,
    MlDsa44,
    ML_DSA_44_SIGNING,
    ML_DSA_44,
    aws_lc_ml_dsa_44_sign_internal
);
mldsa_builder!(
    build_mldsa65,
    ml_dsa_65,
    ml_dsa_65,
    MLDSA65Signature,
    MlDsa65,
    ML_DSA_65_SIGNING,
    ML_DSA_65,
    aws_lc_ml_dsa_65_sign_internal
);
mldsa_builder!(
    build_mldsa87,
    ml_dsa_87,
    ml_dsa_87,
    MLDSA87Signature,
    MlDsa87,
    ML_DSA_87_SIGNING,
    ML_DSA_87,
    aws_lc_ml_dsa_87_sign_internal
);

// --- HPKE ---
//
// Tessera's typed HPKE (`tessera::hpke::Hpke<K, F, A>`, whatever backends `detect()` picks for
// each primitive) against hpke-ng, rust-hpke and hpke-rs (on libcrux and on RustCrypto), base
// mode. Every library derives the same receiver key pair from one fixed IKM (checked), every
// library that takes an RNG gets its own ChaCha20Rng seeded from [0x42; 32] per row, built with
// the contestant (outside the timed loop), and every contestant is checked against Tessera
// before it is timed (its public key, shared secret, exports or plaintexts, or Tessera opening
// what it sealed). Keys, contexts and parsed inputs are set up outside the timed loop.
//
// Row budget. The first 47 of these rows add about 3.5 minutes to `cargo xtask bench` (4 passes of
// 0.75 s, plus the contestants' setup): the KEM rows per KEM (not per suite: a suite's KDF and
// AEAD do not enter them); setup rows per KEM (the AEAD only changes a key length), so not for
// X25519 with AES-128-GCM; context rows per AEAD (the KEM does not enter them), at 64 B and
// 16 KiB, plus 1 KiB and 64 KiB for X25519 + ChaCha20-Poly1305 only; export rows per KDF.
// Round trips (the single-shot seal + open of 1 KiB) run on all five suites.

use ::tessera::hpke as th;
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;

/// The budget of an HPKE row relative to the others' (see above).
const HPKE_BUDGET: f64 = 0.75;
/// The context rows' sizes but for X25519 + ChaCha20-Poly1305 (which has [`AEAD_SIZES`]).
const HPKE_CONTEXT_SIZES: [usize; 2] = [64, 16384];

#[derive(Clone, Copy, PartialEq, Eq)]
enum HpkeOp {
    Generate,
    Derive,
    Encap,
    Decap,
    SetupSender,
    SetupReceiver,
    RoundTrip,
    ContextSeal,
    ContextOpen,
    Export,
}

const HPKE_INFO: &[u8] = b"tessera bench: HPKE info";
const HPKE_EXPORT_CONTEXT: &[u8] = b"tessera bench: exporter context";
const HPKE_EXPORT_LEN: usize = 32;

/// The one RNG seed of every HPKE contestant that takes an RNG.
fn hpke_rng() -> ChaCha20Rng {
    ChaCha20Rng::from_seed([0x42; 32])
}

/// The IKM of the receiver's key pair (every library derives the same pair from it).
fn hpke_ikm() -> [u8; 64] {
    let mut ikm = [0u8; 64];
    SplitMix64(0x6870_6b65).fill(&mut ikm);
    ikm
}

/// A check function of [`HpkeRef`], on bytes.
type BytesFn = Box<dyn Fn(&[u8]) -> Vec<u8>>;

/// What the contestants are checked against, computed with Tessera.
struct HpkeRef {
    ikm: [u8; 64],
    pk: Vec<u8>,
    sk: Vec<u8>,
    /// An encapsulation to `pk` (the one every receiver-side row decapsulates), its shared
    /// secret and the export of its receiver context.
    enc: Vec<u8>,
    ss: Vec<u8>,
    export: Vec<u8>,
    /// The public key of serialized private-key bytes.
    pk_of_sk: BytesFn,
    /// The shared secret of an encapsulated key.
    decap: BytesFn,
    /// The export of the receiver context of an encapsulated key.
    export_of: BytesFn,
    /// Opens the first message (sequence number 0) sealed to an encapsulated key.
    #[allow(clippy::type_complexity)]
    open_first: Box<dyn Fn(&[u8], &[u8]) -> Option<Vec<u8>>>,
}

const HPKE_NOTE_HPKE_RS: &str = "hpke-rs: keys are byte vectors (`HpkePublicKey`, `HpkePrivateKey`) parsed on every call; its RustCrypto provider draws from its own ChaCha20Rng, seeded from the OS when its `Hpke` is made outside the timed loop (it takes no caller RNG or seed; libcrux's takes the shared ChaCha20Rng through `Hpke::new_with_rng`)";
const HPKE_NOTE_NO_KEM: &str = "hpke-rs: no row (its KEM encap/decap are not public; it encapsulates only inside `setup_sender`)";
const HPKE_NOTE_RUST_HPKE_KEM: &str = "rust-hpke: `Kem::encap_with_rng` and `Kem::decap`, which its setup calls (public but `#[doc(hidden)]`)";
const HPKE_NOTE_KEYGEN: &str = "keygen: rust-hpke (every KEM) and hpke-rs (the PQ KEMs) generate by DeriveKeyPair(random IKM), one labeled hash more than Tessera and hpke-ng, which take the random bytes as the key or seed";
const HPKE_NOTE_NG_NO_HYBRID: &str = "hpke-ng: no row (it has no ML-KEM/NIST-curve hybrid KEM)";
const HPKE_NOTE_CONTEXT: &str = "context rows: every library's allocating seal/open (a new Vec per message), contexts set up outside the timed loop; context-open is lockstep (each iteration seals, then opens that message)";

/// hpke-rs's contestants (runtime-agile, one `Hpke` per contestant).
mod hpke_rs_side {
    use super::*;
    use hpke_rs::{Hpke, HpkePrivateKey, HpkePublicKey, Mode};
    use hpke_rs_crypto::HpkeCrypto;
    use hpke_rs_crypto::types::{AeadAlgorithm, KdfAlgorithm, KemAlgorithm};

    pub fn ids(kem: u16, kdf: u16, aead: u16) -> (KemAlgorithm, KdfAlgorithm, AeadAlgorithm) {
        (
            KemAlgorithm::try_from(kem).unwrap(),
            KdfAlgorithm::try_from(kdf).unwrap(),
            AeadAlgorithm::try_from(aead).unwrap(),
        )
    }

    pub fn libcrux(
        kem: u16,
        kdf: u16,
        aead: u16,
    ) -> Hpke<hpke_rs_libcrux::HpkeLibcrux<ChaCha20Rng>> {
        let (k, f, a) = ids(kem, kdf, aead);
        Hpke::new_with_rng(Mode::Base, k, f, a, hpke_rng())
    }

    pub fn rustcrypto(kem: u16, kdf: u16, aead: u16) -> Hpke<hpke_rs_rust_crypto::HpkeRustCrypto> {
        let (k, f, a) = ids(kem, kdf, aead);
        Hpke::new(Mode::Base, k, f, a)
    }

    /// The contestant of `op` (not `Encap`/`Decap`: hpke-rs's KEM encap/decap are not public,
    /// the caller notes that), or why this provider has no row: a provider that lacks the
    /// suite's KEM (RustCrypto: P-521 and the ML-KEM/NIST hybrids) fails its DeriveKeyPair,
    /// whose error the note carries.
    pub fn contestant<C: HpkeCrypto + 'static>(
        name: &str,
        mut h: Hpke<C>,
        r: &HpkeRef,
        op: HpkeOp,
        pt: &[u8],
    ) -> Result<Contestant, String> {
        let kp = h
            .derive_key_pair(&r.ikm)
            .map_err(|e| format!("{name}: no row, it lacks this KEM (DeriveKeyPair: {e:?})"))?;
        assert_eq!(
            kp.public_key().as_slice(),
            &r.pk[..],
            "{name} DeriveKeyPair"
        );
        let pk = HpkePublicKey::from(r.pk.clone());
        let sk = HpkePrivateKey::from(r.sk.clone());
        let pt = pt.to_vec();
        let enc0 = r.enc.clone();
        Ok(match op {
            HpkeOp::Generate => {
                let kp = h.generate_key_pair().unwrap();
                assert_eq!(
                    (r.pk_of_sk)(kp.private_key().as_slice()),
                    kp.public_key().as_slice(),
                    "{name} keygen"
                );
                Contestant::new(name, Role::Peer, move || {
                    black_box(h.generate_key_pair().unwrap());
                })
            }
            HpkeOp::Derive => {
                let ikm = r.ikm;
                Contestant::new(name, Role::Peer, move || {
                    black_box(h.derive_key_pair(black_box(&ikm)).unwrap());
                })
            }
            HpkeOp::Encap | HpkeOp::Decap => unreachable!("the caller notes these"),
            HpkeOp::SetupSender => {
                let (enc, ctx) = h.setup_sender(&pk, HPKE_INFO, None, None, None).unwrap();
                let e = ctx.export(HPKE_EXPORT_CONTEXT, HPKE_EXPORT_LEN).unwrap();
                assert_eq!(e, (r.export_of)(&enc), "{name} setup_sender");
                Contestant::new(name, Role::Peer, move || {
                    black_box(
                        h.setup_sender(black_box(&pk), HPKE_INFO, None, None, None)
                            .unwrap(),
                    );
                })
            }
            HpkeOp::SetupReceiver => {
                let ctx = h
                    .setup_receiver(&enc0, &sk, HPKE_INFO, None, None, None)
                    .unwrap();
                let e = ctx.export(HPKE_EXPORT_CONTEXT, HPKE_EXPORT_LEN).unwrap();
                assert_eq!(e, r.export, "{name} setup_receiver");
                Contestant::new(name, Role::Peer, move || {
                    black_box(
                        h.setup_receiver(black_box(&enc0), &sk, HPKE_INFO, None, None, None)
                            .unwrap(),
                    );
                })
            }
            HpkeOp::RoundTrip => {
                let (enc, ct) = h.seal(&pk, HPKE_INFO, &AAD, &pt, None, None, None).unwrap();
                assert_eq!(
                    (r.open_first)(&enc, &ct).as_deref(),
                    Some(&pt[..]),
                    "{name} seal"
                );
                let back = h
                    .open(&enc, &sk, HPKE_INFO, &AAD, &ct, None, None, None)
                    .unwrap();
                assert_eq!(back, pt, "{name} open");
                Contestant::new(name, Role::Peer, move || {
                    let (enc, ct) = h
                        .seal(&pk, HPKE_INFO, &AAD, black_box(&pt), None, None, None)
                        .unwrap();
                    black_box(
                        h.open(&enc, &sk, HPKE_INFO, &AAD, &ct, None, None, None)
                            .unwrap(),
                    );
                })
            }
            HpkeOp::ContextSeal | HpkeOp::ContextOpen => {
                let (enc, mut s) = h.setup_sender(&pk, HPKE_INFO, None, None, None).unwrap();
                let mut rc = h
                    .setup_receiver(&enc, &sk, HPKE_INFO, None, None, None)
                    .unwrap();
                let ct = s.seal(&AAD, &pt).unwrap();
                assert_eq!(
                    (r.open_first)(&enc, &ct).as_deref(),
                    Some(&pt[..]),
                    "{name} seal"
                );
                assert_eq!(rc.open(&AAD, &ct).unwrap(), pt, "{name} open");
                if op == HpkeOp::ContextSeal {
                    Contestant::new(name, Role::Peer, move || {
                        black_box(s.seal(&AAD, black_box(&pt)).unwrap());
                    })
                } else {
                    Contestant::new(name, Role::Peer, move || {
                        let ct = s.seal(&AAD, black_box(&pt)).unwrap();
                        black_box(rc.open(&AAD, &ct).unwrap());
                    })
                }
            }
            HpkeOp::Export => {
                let ctx = h
                    .setup_receiver(&enc0, &sk, HPKE_INFO, None, None, None)
                    .unwrap();
                let e = ctx.export(HPKE_EXPORT_CONTEXT, HPKE_EXPORT_LEN).unwrap();
                assert_eq!(e, r.export, "{name} export");
                Contestant::new(name, Role::Peer, move || {
                    black_box(
                        ctx.export(black_box(HPKE_EXPORT_CONTEXT), HPKE_EXPORT_LEN)
                            .unwrap(),
                    );
                })
            }
        })
    }
}

/// One HPKE suite's rows: `$m::build(op, size)`. `tk, tf, ta`: Tessera's KEM, KDF and AEAD
/// types; `gk, gf, ga`: hpke-ng's; `rk, rf, ra`: rust-hpke's; `ids`: the codepoints (hpke-rs);
/// `backend`: Tessera's backends of the suite, for the report.
macro_rules! hpke_suite {
    ($m:ident, tessera($tk:ty, $tf:ty, $ta:ty), ng($($gk:ty, $gf:ty, $ga:ty)?),
     $(no_ng($no_ng:expr),)? rh($rk:ty, $rf:ty, $ra:ty),
     ids($kem:expr, $kdf:expr, $aead:expr), backend($backend:expr)) => {
        mod $m {
            use super::*;
            use hpke::{Deserializable as _, Serializable as _};
            type T = th::Hpke<$tk, $tf, $ta>;
            type TK = $tk;
            type RK = $rk;

            fn reference() -> HpkeRef {
                use th::Kem as _;
                let ikm = hpke_ikm();
                let (sk, pk) = TK::derive_key_pair(&ikm).unwrap();
                let (ss, enc) = TK::encap(&pk, &mut hpke_rng()).unwrap();
                let mut export = vec![0u8; HPKE_EXPORT_LEN];
                T::setup_receiver_base(enc.as_ref(), &sk, HPKE_INFO)
                    .unwrap()
                    .export(HPKE_EXPORT_CONTEXT, &mut export)
                    .unwrap();
                let sk_bytes = TK::private_key_to_bytes(&sk).to_vec();
                let (sk1, sk2, sk3) = (sk_bytes.clone(), sk_bytes.clone(), sk_bytes.clone());
                HpkeRef {
                    ikm,
                    pk: TK::public_key_to_bytes(&pk).to_vec(),
                    sk: sk_bytes,
                    enc: enc.as_ref().to_vec(),
                    ss: ss.as_bytes().to_vec(),
                    export,
                    pk_of_sk: Box::new(|b| {
                        let sk = TK::private_key_from_bytes(b).unwrap();
                        TK::public_key_to_bytes(TK::public_key(&sk)).to_vec()
                    }),
                    decap: Box::new(move |enc| {
                        let sk = TK::private_key_from_bytes(&sk1).unwrap();
                        TK::decap(enc, &sk).unwrap().as_bytes().to_vec()
                    }),
                    export_of: Box::new(move |enc| {
                        let sk = TK::private_key_from_bytes(&sk2).unwrap();
                        let mut out = vec![0u8; HPKE_EXPORT_LEN];
                        T::setup_receiver_base(enc, &sk, HPKE_INFO)
                            .unwrap()
                            .export(HPKE_EXPORT_CONTEXT, &mut out)
                            .unwrap();
                        out
                    }),
                    open_first: Box::new(move |enc, ct| {
                        let sk = TK::private_key_from_bytes(&sk3).unwrap();
                        T::setup_receiver_base(enc, &sk, HPKE_INFO)
                            .ok()?
                            .open(&AAD, ct)
                            .ok()
                    }),
                }
            }

            pub fn build(op: HpkeOp, size: usize) -> Built {
                let r = reference();
                let pt = input(size, 0x6870);
                let mut cs = Vec::new();
                let mut notes = Vec::new();

                // --- Tessera (the reference) ---
                {
                    use th::Kem as _;
                    let name = format!("tessera/{}", $backend);
                    let (sk, pk) = TK::derive_key_pair(&r.ikm).unwrap();
                    let mut rng = hpke_rng();
                    let pt = pt.clone();
                    let enc0 = r.enc.clone();
                    cs.push(match op {
                        HpkeOp::Generate => {
                            let (sk1, pk1) = TK::generate_key_pair(&mut rng);
                            assert_eq!(
                                (r.pk_of_sk)(TK::private_key_to_bytes(&sk1)),
                                TK::public_key_to_bytes(&pk1)
                            );
                            Contestant::new(name, Role::Reference, move || {
                                black_box(TK::generate_key_pair(&mut rng));
                            })
                        }
                        HpkeOp::Derive => {
                            let ikm = r.ikm;
                            Contestant::new(name, Role::Reference, move || {
                                black_box(TK::derive_key_pair(black_box(&ikm)).unwrap());
                            })
                        }
                        HpkeOp::Encap => {
                            let (ss, enc) = TK::encap(&pk, &mut rng).unwrap();
                            assert_eq!((r.decap)(enc.as_ref()), ss.as_bytes());
                            Contestant::new(name, Role::Reference, move || {
                                black_box(TK::encap(black_box(&pk), &mut rng).unwrap());
                            })
                        }
                        HpkeOp::Decap => Contestant::new(name, Role::Reference, move || {
                            black_box(TK::decap(black_box(&enc0), &sk).unwrap());
                        }),
                        HpkeOp::SetupSender => Contestant::new(name, Role::Reference, move || {
                            black_box(
                                T::setup_sender_base(black_box(&pk), HPKE_INFO, &mut rng).unwrap(),
                            );
                        }),
                        HpkeOp::SetupReceiver => {
                            Contestant::new(name, Role::Reference, move || {
                                black_box(
                                    T::setup_receiver_base(black_box(&enc0), &sk, HPKE_INFO)
                                        .unwrap(),
                                );
                            })
                        }
                        HpkeOp::RoundTrip => Contestant::new(name, Role::Reference, move || {
                            let (enc, ct) =
                                T::seal_base(&pk, HPKE_INFO, &AAD, black_box(&pt), &mut rng)
                                    .unwrap();
                            black_box(
                                T::open_base(enc.as_ref(), &sk, HPKE_INFO, &AAD, &ct).unwrap(),
                            );
                        }),
                        HpkeOp::ContextSeal | HpkeOp::ContextOpen => {
                            let (enc, mut s) =
                                T::setup_sender_base(&pk, HPKE_INFO, &mut rng).unwrap();
                            let mut rc =
                                T::setup_receiver_base(enc.as_ref(), &sk, HPKE_INFO).unwrap();
                            let ct = s.seal(&AAD, &pt).unwrap();
                            assert_eq!(rc.open(&AAD, &ct).unwrap(), pt);
                            if op == HpkeOp::ContextSeal {
                                Contestant::new(name, Role::Reference, move || {
                                    black_box(s.seal(&AAD, black_box(&pt)).unwrap());
                                })
                            } else {
                                Contestant::new(name, Role::Reference, move || {
                                    let ct = s.seal(&AAD, black_box(&pt)).unwrap();
                                    black_box(rc.open(&AAD, &ct).unwrap());
                                })
                            }
                        }
                        HpkeOp::Export => {
                            let ctx = T::setup_receiver_base(&enc0, &sk, HPKE_INFO).unwrap();
                            let mut out = [0u8; HPKE_EXPORT_LEN];
                            Contestant::new(name, Role::Reference, move || {
                                ctx.export(black_box(HPKE_EXPORT_CONTEXT), &mut out)
                                    .unwrap();
                                black_box(&out);
                            })
                        }
                    });
                }

                // --- hpke-ng (where it has the suite) ---
                $({
                    type G = hpke_ng::Hpke<$gk, $gf, $ga>;
                    type GK = $gk;
                    use hpke_ng::Kem as _;
                    let name = "hpke-ng";
                    let (sk, pk) = GK::derive_key_pair(&r.ikm).unwrap();
                    assert_eq!(GK::pk_to_bytes(&pk), r.pk, "hpke-ng DeriveKeyPair");
                    let mut rng = hpke_rng();
                    let pt = pt.clone();
                    let enc0 = GK::enc_from_bytes(&r.enc).unwrap();
                    cs.push(match op {
                        HpkeOp::Generate => {
                            let (sk1, pk1) = GK::generate(&mut rng).unwrap();
                            assert_eq!(
                                (r.pk_of_sk)(&GK::sk_to_bytes(&sk1)),
                                GK::pk_to_bytes(&pk1),
                                "{name} keygen"
                            );
                            Contestant::new(name, Role::Peer, move || {
                                black_box(GK::generate(&mut rng).unwrap());
                            })
                        }
                        HpkeOp::Derive => {
                            let ikm = r.ikm;
                            Contestant::new(name, Role::Peer, move || {
                                black_box(GK::derive_key_pair(black_box(&ikm)).unwrap());
                            })
                        }
                        HpkeOp::Encap => {
                            let (ss, enc) = GK::encap(&mut rng, &pk).unwrap();
                            assert_eq!((r.decap)(enc.as_ref()), ss.as_ref(), "{name} encap");
                            Contestant::new(name, Role::Peer, move || {
                                black_box(GK::encap(&mut rng, black_box(&pk)).unwrap());
                            })
                        }
                        HpkeOp::Decap => {
                            assert_eq!(
                                GK::decap(&enc0, &sk).unwrap().as_ref(),
                                &r.ss[..],
                                "{name} decap"
                            );
                            Contestant::new(name, Role::Peer, move || {
                                black_box(GK::decap(black_box(&enc0), &sk).unwrap());
                            })
                        }
                        HpkeOp::SetupSender => {
                            let (enc, ctx) =
                                G::setup_sender_base(&mut rng, &pk, HPKE_INFO).unwrap();
                            let e = ctx.export(HPKE_EXPORT_CONTEXT, HPKE_EXPORT_LEN).unwrap();
                            assert_eq!(e, (r.export_of)(enc.as_ref()), "{name} setup_sender");
                            Contestant::new(name, Role::Peer, move || {
                                black_box(
                                    G::setup_sender_base(&mut rng, black_box(&pk), HPKE_INFO)
                                        .unwrap(),
                                );
                            })
                        }
                        HpkeOp::SetupReceiver => {
                            let ctx = G::setup_receiver_base(&enc0, &sk, HPKE_INFO).unwrap();
                            let e = ctx.export(HPKE_EXPORT_CONTEXT, HPKE_EXPORT_LEN).unwrap();
                            assert_eq!(e, r.export, "{name} setup_receiver");
                            Contestant::new(name, Role::Peer, move || {
                                black_box(
                                    G::setup_receiver_base(black_box(&enc0), &sk, HPKE_INFO)
                                        .unwrap(),
                                );
                            })
                        }
                        HpkeOp::RoundTrip => {
                            let (enc, ct) =
                                G::seal_base(&mut rng, &pk, HPKE_INFO, &AAD, &pt).unwrap();
                            assert_eq!(
                                (r.open_first)(enc.as_ref(), &ct).as_deref(),
                                Some(&pt[..]),
                                "{name} seal"
                            );
                            assert_eq!(
                                G::open_base(&enc, &sk, HPKE_INFO, &AAD, &ct).unwrap(),
                                pt,
                                "{name} open"
                            );
                            Contestant::new(name, Role::Peer, move || {
                                let (enc, ct) =
                                    G::seal_base(&mut rng, &pk, HPKE_INFO, &AAD, black_box(&pt))
                                        .unwrap();
                                black_box(G::open_base(&enc, &sk, HPKE_INFO, &AAD, &ct).unwrap());
                            })
                        }
                        HpkeOp::ContextSeal | HpkeOp::ContextOpen => {
                            let (enc, mut s) =
                                G::setup_sender_base(&mut rng, &pk, HPKE_INFO).unwrap();
                            let mut rc = G::setup_receiver_base(&enc, &sk, HPKE_INFO).unwrap();
                            let ct = s.seal(&AAD, &pt).unwrap();
                            assert_eq!(
                                (r.open_first)(enc.as_ref(), &ct).as_deref(),
                                Some(&pt[..]),
                                "{name} seal"
                            );
                            assert_eq!(rc.open(&AAD, &ct).unwrap(), pt, "{name} open");
                            if op == HpkeOp::ContextSeal {
                                Contestant::new(name, Role::Peer, move || {
                                    black_box(s.seal(&AAD, black_box(&pt)).unwrap());
                                })
                            } else {
                                Contestant::new(name, Role::Peer, move || {
                                    let ct = s.seal(&AAD, black_box(&pt)).unwrap();
                                    black_box(rc.open(&AAD, &ct).unwrap());
                                })
                            }
                        }
                        HpkeOp::Export => {
                            let ctx = G::setup_receiver_base(&enc0, &sk, HPKE_INFO).unwrap();
                            let e = ctx.export(HPKE_EXPORT_CONTEXT, HPKE_EXPORT_LEN).unwrap();
                            assert_eq!(e, r.export, "{name} export");
                            Contestant::new(name, Role::Peer, move || {
                                black_box(
                                    ctx.export(black_box(HPKE_EXPORT_CONTEXT), HPKE_EXPORT_LEN)
                                        .unwrap(),
                                );
                            })
                        }
                    });
                })?
                $(notes.push($no_ng.to_string());)?

                // --- rust-hpke ---
                {
                    use hpke::Kem as _;
                    use hpke::{OpModeR, OpModeS};
                    let name = "rust-hpke";
                    let (sk, pk) = RK::derive_keypair(&r.ikm);
                    assert_eq!(&pk.to_bytes()[..], &r.pk[..], "rust-hpke DeriveKeyPair");
                    let mut rng = hpke_rng();
                    let pt = pt.clone();
                    let enc0 = <RK as hpke::Kem>::EncappedKey::from_bytes(&r.enc).unwrap();
                    cs.push(match op {
                        HpkeOp::Generate => {
                            let (sk1, pk1) = RK::gen_keypair_with_rng(&mut rng);
                            assert_eq!(
                                (r.pk_of_sk)(&sk1.to_bytes()),
                                &pk1.to_bytes()[..],
                                "{name} keygen"
                            );
                            Contestant::new(name, Role::Peer, move || {
                                black_box(RK::gen_keypair_with_rng(&mut rng));
                            })
                        }
                        HpkeOp::Derive => {
                            let ikm = r.ikm;
                            Contestant::new(name, Role::Peer, move || {
                                black_box(RK::derive_keypair(black_box(&ikm)));
                            })
                        }
                        HpkeOp::Encap => {
                            let (ss, enc) = RK::encap_with_rng(&pk, None, &mut rng).unwrap();
                            assert_eq!((r.decap)(&enc.to_bytes()), &ss.0[..], "{name} encap");
                            Contestant::new(name, Role::Peer, move || {
                                black_box(
                                    RK::encap_with_rng(black_box(&pk), None, &mut rng).unwrap(),
                                );
                            })
                        }
                        HpkeOp::Decap => {
                            assert_eq!(
                                &RK::decap(&sk, None, &enc0).unwrap().0[..],
                                &r.ss[..],
                                "{name} decap"
                            );
                            Contestant::new(name, Role::Peer, move || {
                                black_box(RK::decap(&sk, None, black_box(&enc0)).unwrap());
                            })
                        }
                        HpkeOp::SetupSender => {
                            let (enc, ctx) = hpke::setup_sender_with_rng::<$ra, $rf, RK>(
                                &OpModeS::Base,
                                &pk,
                                HPKE_INFO,
                                &mut rng,
                            )
                            .unwrap();
                            let mut e = vec![0u8; HPKE_EXPORT_LEN];
                            ctx.export(HPKE_EXPORT_CONTEXT, &mut e).unwrap();
                            assert_eq!(e, (r.export_of)(&enc.to_bytes()), "{name} setup_sender");
                            Contestant::new(name, Role::Peer, move || {
                                black_box(
                                    hpke::setup_sender_with_rng::<$ra, $rf, RK>(
                                        &OpModeS::Base,
                                        black_box(&pk),
                                        HPKE_INFO,
                                        &mut rng,
                                    )
                                    .unwrap(),
                                );
                            })
                        }
                        HpkeOp::SetupReceiver => {
                            let ctx = hpke::setup_receiver::<$ra, $rf, RK>(
                                &OpModeR::Base,
                                &sk,
                                &enc0,
                                HPKE_INFO,
                            )
                            .unwrap();
                            let mut e = vec![0u8; HPKE_EXPORT_LEN];
                            ctx.export(HPKE_EXPORT_CONTEXT, &mut e).unwrap();
                            assert_eq!(e, r.export, "{name} setup_receiver");
                            Contestant::new(name, Role::Peer, move || {
                                black_box(
                                    hpke::setup_receiver::<$ra, $rf, RK>(
                                        &OpModeR::Base,
                                        &sk,
                                        black_box(&enc0),
                                        HPKE_INFO,
                                    )
                                    .unwrap(),
                                );
                            })
                        }
                        HpkeOp::RoundTrip => {
                            let (enc, ct) = hpke::single_shot_seal_with_rng::<$ra, $rf, RK>(
                                &OpModeS::Base,
                                &pk,
                                HPKE_INFO,
                                &pt,
                                &AAD,
                                &mut rng,
                            )
                            .unwrap();
                            assert_eq!(
                                (r.open_first)(&enc.to_bytes(), &ct).as_deref(),
                                Some(&pt[..]),
                                "{name} seal"
                            );
                            let back = hpke::single_shot_open::<$ra, $rf, RK>(
                                &OpModeR::Base,
                                &sk,
                                &enc,
                                HPKE_INFO,
                                &ct,
                                &AAD,
                            )
                            .unwrap();
                            assert_eq!(back, pt, "{name} open");
                            Contestant::new(name, Role::Peer, move || {
                                let (enc, ct) = hpke::single_shot_seal_with_rng::<$ra, $rf, RK>(
                                    &OpModeS::Base,
                                    &pk,
                                    HPKE_INFO,
                                    black_box(&pt),
                                    &AAD,
                                    &mut rng,
                                )
                                .unwrap();
                                black_box(
                                    hpke::single_shot_open::<$ra, $rf, RK>(
                                        &OpModeR::Base,
                                        &sk,
                                        &enc,
                                        HPKE_INFO,
                                        &ct,
                                        &AAD,
                                    )
                                    .unwrap(),
                                );
                            })
                        }
                        HpkeOp::ContextSeal | HpkeOp::ContextOpen => {
                            let (enc, mut s) = hpke::setup_sender_with_rng::<$ra, $rf, RK>(
                                &OpModeS::Base,
                                &pk,
                                HPKE_INFO,
                                &mut rng,
                            )
                            .unwrap();
                            let mut rc = hpke::setup_receiver::<$ra, $rf, RK>(
                                &OpModeR::Base,
                                &sk,
                                &enc,
                                HPKE_INFO,
                            )
                            .unwrap();
                            // rust-hpke takes (plaintext, aad).
                            let ct = s.seal(&pt, &AAD).unwrap();
                            assert_eq!(
                                (r.open_first)(&enc.to_bytes(), &ct).as_deref(),
                                Some(&pt[..]),
                                "{name} seal"
                            );
                            assert_eq!(rc.open(&ct, &AAD).unwrap(), pt, "{name} open");
                            if op == HpkeOp::ContextSeal {
                                Contestant::new(name, Role::Peer, move || {
                                    black_box(s.seal(black_box(&pt), &AAD).unwrap());
                                })
                            } else {
                                Contestant::new(name, Role::Peer, move || {
                                    let ct = s.seal(black_box(&pt), &AAD).unwrap();
                                    black_box(rc.open(&ct, &AAD).unwrap());
                                })
                            }
                        }
                        HpkeOp::Export => {
                            let ctx = hpke::setup_receiver::<$ra, $rf, RK>(
                                &OpModeR::Base,
                                &sk,
                                &enc0,
                                HPKE_INFO,
                            )
                            .unwrap();
                            let mut out = [0u8; HPKE_EXPORT_LEN];
                            ctx.export(HPKE_EXPORT_CONTEXT, &mut out).unwrap();
                            assert_eq!(&out[..], &r.export[..], "{name} export");
                            Contestant::new(name, Role::Peer, move || {
                                ctx.export(black_box(HPKE_EXPORT_CONTEXT), &mut out)
                                    .unwrap();
                                black_box(&out);
                            })
                        }
                    });
                }

                // --- hpke-rs, libcrux then RustCrypto ---
                let (kem, kdf, aead) = ($kem, $kdf, $aead);
                if matches!(op, HpkeOp::Encap | HpkeOp::Decap) {
                    notes.push(HPKE_NOTE_NO_KEM.to_string());
                } else {
                    let lc = hpke_rs_side::libcrux(kem, kdf, aead);
                    let rc = hpke_rs_side::rustcrypto(kem, kdf, aead);
                    let mut any = false;
                    for c in [
                        hpke_rs_side::contestant("hpke-rs/libcrux", lc, &r, op, &pt),
                        hpke_rs_side::contestant("hpke-rs/rustcrypto", rc, &r, op, &pt),
                    ] {
                        match c {
                            Ok(c) => {
                                cs.push(c);
                                any = true;
                            }
                            Err(why) => notes.push(why),
                        }
                    }
                    if any {
                        notes.push(HPKE_NOTE_HPKE_RS.to_string());
                    }
                }
                match op {
                    HpkeOp::Generate => notes.push(HPKE_NOTE_KEYGEN.to_string()),
                    HpkeOp::Encap | HpkeOp::Decap => {
                        notes.push(HPKE_NOTE_RUST_HPKE_KEM.to_string())
                    }
                    HpkeOp::ContextSeal | HpkeOp::ContextOpen => {
                        notes.push(HPKE_NOTE_CONTEXT.to_string())
                    }
                    _ => {}
                }
                Built {
                    contestants: cs,
                    notes,
                }
            }
        }
    };
}

hpke_suite!(
    hpke_x25519_chacha,
    tessera(
        th::DhKemX25519HkdfSha256,
        th::HkdfSha256,
        th::ChaCha20Poly1305
    ),
    ng(
        hpke_ng::DhKemX25519HkdfSha256,
        hpke_ng::HkdfSha256,
        hpke_ng::ChaCha20Poly1305
    ),
    rh(
        hpke::kem::X25519HkdfSha256,
        hpke::kdf::HkdfSha256,
        hpke::aead::ChaCha20Poly1305
    ),
    ids(0x0020, 0x0001, 0x0003),
    backend(hpke_backends(&["x25519", "sha256", "chacha"]))
);
hpke_suite!(
    hpke_x25519_aes128,
    tessera(th::DhKemX25519HkdfSha256, th::HkdfSha256, th::Aes128Gcm),
    ng(
        hpke_ng::DhKemX25519HkdfSha256,
        hpke_ng::HkdfSha256,
        hpke_ng::Aes128Gcm
    ),
    rh(
        hpke::kem::X25519HkdfSha256,
        hpke::kdf::HkdfSha256,
        hpke::aead::AesGcm128
    ),
    ids(0x0020, 0x0001, 0x0001),
    backend(hpke_backends(&["x25519", "sha256", "gcm"]))
);
hpke_suite!(
    hpke_mlkem768_chacha,
    tessera(th::MlKem768, th::HkdfSha256, th::ChaCha20Poly1305),
    ng(
        hpke_ng::MlKem768,
        hpke_ng::HkdfSha256,
        hpke_ng::ChaCha20Poly1305
    ),
    rh(
        hpke::kem::MlKem768,
        hpke::kdf::HkdfSha256,
        hpke::aead::ChaCha20Poly1305
    ),
    ids(0x0041, 0x0001, 0x0003),
    backend(hpke_backends(&["mlkem", "sha256", "chacha"]))
);
hpke_suite!(
    hpke_mlkem1024_aes256,
    tessera(th::MlKem1024, th::HkdfSha384, th::Aes256Gcm),
    ng(hpke_ng::MlKem1024, hpke_ng::HkdfSha384, hpke_ng::Aes256Gcm),
    rh(
        hpke::kem::MlKem1024,
        hpke::kdf::HkdfSha384,
        hpke::aead::AesGcm256
    ),
    ids(0x0042, 0x0002, 0x0002),
    backend(hpke_backends(&["mlkem", "sha512", "gcm"]))
);
hpke_suite!(
    hpke_xwing_chacha,
    tessera(th::XWing, th::HkdfSha256, th::ChaCha20Poly1305),
    ng(
        hpke_ng::XWingDraft06,
        hpke_ng::HkdfSha256,
        hpke_ng::ChaCha20Poly1305
    ),
    rh(
        hpke::kem::XWing,
        hpke::kdf::HkdfSha256,
        hpke::aead::ChaCha20Poly1305
    ),
    ids(0x647a, 0x0001, 0x0003),
    backend(hpke_backends(&[
        "mlkem", "x25519", "sha3", "sha256", "chacha"
    ]))
);

hpke_suite!(
    hpke_p256_aes128,
    tessera(th::DhKemP256HkdfSha256, th::HkdfSha256, th::Aes128Gcm),
    ng(
        hpke_ng::DhKemP256HkdfSha256,
        hpke_ng::HkdfSha256,
        hpke_ng::Aes128Gcm
    ),
    rh(
        hpke::kem::DhP256HkdfSha256,
        hpke::kdf::HkdfSha256,
        hpke::aead::AesGcm128
    ),
    ids(0x0010, 0x0001, 0x0001),
    backend(hpke_backends(&["p256", "sha256", "gcm"]))
);
hpke_suite!(
    hpke_p521_aes256,
    tessera(th::DhKemP521HkdfSha512, th::HkdfSha512, th::Aes256Gcm),
    ng(
        hpke_ng::DhKemP521HkdfSha512,
        hpke_ng::HkdfSha512,
        hpke_ng::Aes256Gcm
    ),
    rh(
        hpke::kem::DhP521HkdfSha512,
        hpke::kdf::HkdfSha512,
        hpke::aead::AesGcm256
    ),
    ids(0x0012, 0x0003, 0x0002),
    backend(hpke_backends(&["p521", "sha512", "gcm"]))
);
hpke_suite!(
    hpke_mlkem768p256_aes128,
    tessera(th::MlKem768P256, th::HkdfSha256, th::Aes128Gcm),
    ng(),
    no_ng(HPKE_NOTE_NG_NO_HYBRID),
    rh(
        hpke::kem::MlKem768P256,
        hpke::kdf::HkdfSha256,
        hpke::aead::AesGcm128
    ),
    ids(0x0050, 0x0001, 0x0001),
    backend(hpke_backends(&["mlkem", "p256", "sha3", "sha256", "gcm"]))
);

/// Tessera's detected backends of an HPKE suite's primitives, for the report's backend
/// column (`x86_bmi2adx+x86_shani+x86_avx2`): `x25519`, `mlkem`, `sha3` (X-Wing's SHA3-256 and
/// SHAKE), `sha256`, `sha512` (HKDF-SHA384), `gcm`, `chacha`.
fn hpke_backends(parts: &[&str]) -> String {
    let names: Vec<&str> = parts
        .iter()
        .map(|p| match *p {
            "x25519" => tessera::X25519Backend::detect().name(),
            "mlkem" => tessera::MlKemBackend::detect().name(),
            "sha3" => tessera::X1Backend::detect().name(),
            "sha256" => tessera::Sha256Backend::detect().name(),
            "sha512" => tessera::Sha512Backend::detect().name(),
            "gcm" => tessera::GcmBackend::detect().name(),
            "chacha" => tessera::ChachaBackend::detect().name(),
            // RustCrypto's curve crates (one backend; Tessera's own DH step on top).
            "p256" => "p256-crate",
            "p521" => "p521-crate",
            other => unreachable!("{other}"),
        })
        .collect();
    names.join("+")
}

const SOFT_RUSTFLAGS: &str = "--cfg aes_force_soft --cfg polyval_force_soft --cfg chacha20_force_soft --cfg poly1305_force_soft";

/// Whether this binary was built with RustCrypto's software-only switches (the soft build).
fn soft_build() -> bool {
    cfg!(all(
        aes_force_soft,
        polyval_force_soft,
        chacha20_force_soft,
        poly1305_force_soft
    ))
}

/// In the soft build, RustCrypto's AES and POLYVAL must really be the software ones: the
/// AES-NI/CLMUL variants hold `__m128i` values, which raise the key types' alignment to 16.
fn assert_rustcrypto_soft() {
    let align = (
        std::mem::align_of::<aes_gcm::Aes128Gcm>(),
        std::mem::align_of::<aes_gcm::Aes256Gcm>(),
    );
    assert!(
        align.0 <= 8 && align.1 <= 8,
        "built with {SOFT_RUSTFLAGS} but aes_gcm::Aes128Gcm/Aes256Gcm are {align:?}-aligned: \
         RustCrypto still holds SIMD key schedules, refusing to bench it as software"
    );
}

/// Software against software: Tessera's portable backend (the row's reference) against
/// RustCrypto `aes-gcm` on its software AES (fixsliced) and POLYVAL (only in the soft build).
fn build_gcm_soft(key_len: usize, size: usize, seal: bool) -> Built {
    assert!(
        soft_build(),
        "the -soft rows run only in the {SOFT_RUSTFLAGS} build"
    );
    assert_rustcrypto_soft();
    let key = gcm_key_bytes(key_len);
    let t = tessera::gcm_portable();
    let reference = TesseraGcmKey(tessera::gcm_key(t.backend, &key));
    soft_row(
        t.name,
        reference,
        "aes-gcm/soft",
        RustCryptoGcm::new(&key),
        size,
        seal,
        format!(
            "software only: Tessera portable against RustCrypto aes-gcm built with {SOFT_RUSTFLAGS} \
             (its own build); ring and aws-lc-rs have no software-only switch"
        ),
    )
}

/// A software-only row: Tessera's portable backend `reference` (named `tessera/<name>`)
/// against one RustCrypto implementation `peer`, on the same fixed message.
fn soft_row(
    name: &str,
    reference: impl Aead,
    peer_name: &str,
    peer: impl Aead,
    size: usize,
    seal: bool,
    note: String,
) -> Built {
    let case = aead_case(&reference, size);
    let cs = vec![
        aead_contestant(
            format!("tessera/{name}"),
            Role::Reference,
            reference,
            &case,
            seal,
        ),
        aead_contestant(peer_name, Role::Peer, peer, &case, seal),
    ];
    Built {
        contestants: cs,
        notes: vec![note],
    }
}

/// Software against software: Tessera's portable ChaCha20-Poly1305 (the row's reference)
/// against RustCrypto `chacha20poly1305` on its software ChaCha20 and Poly1305 (only in the
/// soft build: `chacha20_force_soft` and `poly1305_force_soft` reach every crate of that build,
/// as RUSTFLAGS do, so RustCrypto's AVX2 and SSE2 paths are compiled out).
fn build_chacha_soft(size: usize, seal: bool) -> Built {
    assert!(
        soft_build(),
        "the -soft rows run only in the {SOFT_RUSTFLAGS} build"
    );
    let key = chacha_key_bytes();
    let t = tessera::chacha_portable();
    let reference = TesseraChachaKey(tessera::chacha_key(t.backend, &key));
    soft_row(
        t.name,
        reference,
        "chacha20poly1305/soft",
        rustcrypto_chacha(&key),
        size,
        seal,
        "software only: Tessera portable against RustCrypto chacha20poly1305 built with --cfg \
         chacha20_force_soft --cfg poly1305_force_soft (its own build); ring and aws-lc-rs have \
         no software-only switch"
            .into(),
    )
}

// ---------------------------------------------------------------------------------------------
// Driver.

struct Args {
    smoke: bool,
    full: bool,
    list: bool,
    filter: Option<String>,
    out: PathBuf,
    merge: Option<PathBuf>,
    clock: Clock,
    row_secs: Option<f64>,
    batch_us: Option<f64>,
}

fn parse_args() -> Args {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let default_out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/tessera-bench");
    let mut a = Args {
        // Without `--bench` (a `cargo test --benches` run) only the smoke run makes sense.
        smoke: !raw.iter().any(|x| x == "--bench"),
        full: false,
        list: false,
        filter: None,
        out: default_out,
        merge: None,
        clock: Clock::ThreadCpu,
        row_secs: None,
        batch_us: None,
    };
    let mut it = raw.into_iter();
    while let Some(x) = it.next() {
        let mut value = |flag: &str| it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match x.as_str() {
            "--bench" => {}
            "--smoke" => a.smoke = true,
            "--full" => a.full = true,
            "--list" => a.list = true,
            "--out" => a.out = PathBuf::from(value("--out")),
            "--merge" => a.merge = Some(PathBuf::from(value("--merge"))),
            "--clock" => {
                let v = value("--clock");
                a.clock = Clock::parse(&v).unwrap_or_else(|| panic!("unknown clock {v}"));
            }
            "--row-secs" => a.row_secs = Some(value("--row-secs").parse().expect("--row-secs")),
            "--batch-us" => a.batch_us = Some(value("--batch-us").parse().expect("--batch-us")),
            f if f.starts_with("--") => panic!("unknown flag {f}"),
            f => a.filter = Some(f.to_string()),
        }
    }
    a
}

/// `portable 4.889, ring 1.903=, ...` (`=`: a tie) for a progress line.
fn ratios_line(cs: &[Measured]) -> String {
    cs.iter()
        .skip(1)
        .map(|m| {
            format!(
                "{} {:.3}{}",
                m.name.trim_start_matches("tessera/"),
                m.ratio.median,
                if m.tie() { "=" } else { "" }
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn cpu_model() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name") || l.starts_with("CPU part"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let cpus = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    format!("{model} ({cpus} logical CPUs)")
}

/// Splits a row's contestants into its races. A row with both peers and other Tessera backends
/// runs two races, each with the best backend as its reference: the best backend against the
/// peers (`contestants`, the first build) and, apart, against Tessera's other backends
/// (`rebuild`, a second build of the row). A forced backend that `detect()` does not pick can
/// change the machine for the contestants that run after it: on the Emerald Rapids guest,
/// `tessera-aes-gcm`'s 256-bit `x86_vaes` sealing 64 KiB messages lowers the core clock by about
/// 5% for some 3.5 ms after it stops (a scalar multiplication chain timed after a 0.5 ms burst:
/// 3.38 instead of 3.58 GHz, back after 3.5-3.9 ms; bursts of `x86_vaes512`, `x86_aesni` or
/// aws-lc-rs leave it at full speed). Batches of ~100 µs keep every contestant of a race
/// under that clock, and a contestant bound by the core clock loses more of its speed than
/// one that is not (in a race of `x86_vaes512`, aws-lc-rs and `x86_vaes`, AES-256-GCM sealing
/// 64 KiB measured 1.00x aws-lc-rs, against 1.06x without `x86_vaes`). The peer ratios are
/// therefore measured without the other backends. Any other row runs as one race.
fn races(
    contestants: Vec<Contestant>,
    rebuild: impl FnOnce() -> Vec<Contestant>,
) -> (Vec<Contestant>, Vec<Contestant>) {
    let has = |r: Role| contestants.iter().any(|c| c.role == r);
    if !(has(Role::Peer) && has(Role::Backend)) {
        return (contestants, Vec::new());
    }
    let peers = contestants
        .into_iter()
        .filter(|c| c.role != Role::Backend)
        .collect();
    let backends = rebuild()
        .into_iter()
        .filter(|c| c.role != Role::Peer)
        .collect();
    (peers, backends)
}

/// One row's result from its races ([`races`]): the reference and the peers from the first,
/// Tessera's other backends from the second, in the order of a single race (reference,
/// backends, peers). The rounds are those of the first race, the time that of both.
fn merged(peers: RowResult, backends: Option<RowResult>) -> RowResult {
    let Some(b) = backends else {
        return peers;
    };
    let mut it = peers.contestants.into_iter();
    let reference = it.next().expect("a race has its reference first");
    let contestants = std::iter::once(reference)
        .chain(b.contestants.into_iter().skip(1))
        .chain(it)
        .collect();
    RowResult {
        rounds: peers.rounds,
        secs: peers.secs + b.secs,
        contestants,
    }
}

fn main() {
    let args = parse_args();
    let soft = soft_build();
    let all = specs();
    if args.list {
        for s in &all {
            println!(
                "{}\t{}\t{}",
                s.id(),
                if s.soft { "soft" } else { "main" },
                if s.full_only { "full" } else { "default" }
            );
        }
        return;
    }
    let left_out = if args.full || args.filter.is_some() || args.smoke {
        0
    } else {
        all.iter().filter(|s| s.soft == soft && s.full_only).count()
    };
    let mut selected: Vec<&Spec> = all
        .iter()
        .filter(|s| s.soft == soft)
        .filter(|s| args.full || args.filter.is_some() || !s.full_only)
        .filter(|s| args.filter.as_deref().is_none_or(|f| s.id().contains(f)))
        .collect();
    if args.smoke {
        // One tiny row (the first selected one: `op=sha256,size=64B` by default).
        selected.truncate(1);
    }
    // `row_ns` is the budget of one pass over a row; each row gets `passes` passes, spread
    // over the whole run (every row once, then every row again, ...), so that a few slow or
    // disturbed seconds of the machine fall on one pass of a row, not on all of it.
    let (mode, passes, mut cfg) = if args.smoke {
        (
            "smoke",
            1,
            Config {
                batch_ns: 20e3,
                warmup_ns: 1e6,
                row_ns: 20e6,
                min_rounds: 10,
                max_rounds: 40,
                resamples: 100,
                clock: args.clock,
            },
        )
    } else if args.full {
        (
            "full",
            8,
            Config {
                batch_ns: 100e3,
                warmup_ns: 20e6,
                row_ns: 2.5e9,
                min_rounds: 256,
                max_rounds: 1_000_000,
                resamples: 2000,
                clock: args.clock,
            },
        )
    } else {
        (
            "default",
            4,
            Config {
                batch_ns: 100e3,
                warmup_ns: 10e6,
                row_ns: 1e9,
                min_rounds: 256,
                max_rounds: 1_000_000,
                resamples: 1000,
                clock: args.clock,
            },
        )
    };
    if let Some(s) = args.row_secs {
        cfg.row_ns = s * 1e9 / passes as f64;
    }
    if let Some(u) = args.batch_us {
        cfg.batch_ns = u * 1e3;
    }
    let hw = tessera::hw_line();
    let build = if soft {
        format!("RustCrypto-soft build ({SOFT_RUSTFLAGS})")
    } else {
        "main build".to_string()
    };
    eprintln!(
        "compare: {} rows ({mode}, {build}), clock {}, ~{:.0} µs batches, {passes} passes of \
         ~{:.1} s per row (about {:.0} s in all)\n{hw}",
        selected.len(),
        cfg.clock.name(),
        cfg.batch_ns / 1e3,
        cfg.row_ns / 1e9,
        selected
            .iter()
            .map(|s| passes as f64 * (cfg.row_ns * s.budget / 1e9 + 0.1))
            .sum::<f64>()
    );
    let start = Instant::now();
    let n = selected.len();
    // Per row, the samples of its two races: the best backend against the peers (or against
    // everything, in a row without both peers and other backends) and, apart, the best backend
    // against Tessera's other backends (see `races`).
    let mut samples = vec![Samples::default(); n];
    let mut backend_samples = vec![Samples::default(); n];
    let mut notes = vec![Vec::new(); n];
    for pass in 1..=passes {
        for (i, s) in selected.iter().enumerate() {
            let built = (s.build)(s.size);
            notes[i] = built.notes;
            let (mut cs, mut bs) = races(built.contestants, || (s.build)(s.size).contestants);
            // The row's budget is shared in proportion to the contestants of each race, so a
            // split row takes about the time it took as one race (the reference runs in both,
            // with a warm-up and calibration in each).
            let share = |k: usize| k as f64 / (cs.len() + bs.len()) as f64;
            let row_ns = cfg.row_ns * s.budget;
            let (peer_ns, backend_ns) = (row_ns * share(cs.len()), row_ns * share(bs.len()));
            samples[i].append(measure(
                &mut cs,
                &Config {
                    row_ns: peer_ns,
                    ..cfg
                },
                |_| {},
            ));
            if !bs.is_empty() {
                backend_samples[i].append(measure(
                    &mut bs,
                    &Config {
                        row_ns: backend_ns,
                        ..cfg
                    },
                    |_| {},
                ));
            }
            if pass < passes {
                // A cheap look at the rounds so far (no bootstrap).
                let so_far = merged(
                    samples[i].summarize(0),
                    (!bs.is_empty()).then(|| backend_samples[i].summarize(0)),
                );
                eprintln!(
                    "[pass {pass}/{passes}] [{:>2}/{n}] {:<34} {}",
                    i + 1,
                    s.id(),
                    ratios_line(&so_far.contestants)
                );
            }
        }
    }
    // The bootstrap intervals, on both cores (the measuring is over; the results do not
    // depend on the split: each row's resampling has its own fixed seed).
    let resamples = cfg.resamples;
    let summaries: Vec<_> = std::thread::scope(|sc| {
        let per = n.div_ceil(2).max(1);
        let handles: Vec<_> = samples
            .chunks(per)
            .zip(backend_samples.chunks(per))
            .map(|(chunk, backend_chunk)| {
                sc.spawn(move || {
                    chunk
                        .iter()
                        .zip(backend_chunk)
                        .map(|(s, b)| {
                            let b = (!b.names.is_empty()).then(|| b.summarize(resamples));
                            merged(s.summarize(resamples), b)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("bootstrap thread"))
            .collect()
    });
    let mut rows = Vec::new();
    for ((i, s), r) in selected.iter().enumerate().zip(summaries) {
        let rec = RowRecord {
            id: s.id(),
            op: s.op.to_string(),
            size: s.size,
            bytes: s.size * s.ways,
            notes: std::mem::take(&mut notes[i]),
            rounds: r.rounds,
            secs: r.secs,
            contestants: r.contestants,
        };
        eprintln!(
            "[{:>2}/{n}] {:<34} {} {:>10} | {} | {} rounds, {:.1} s",
            i + 1,
            rec.id,
            rec.tessera_backend(),
            report::fmt_time(rec.reference().time_ns.median),
            ratios_line(&rec.contestants),
            rec.rounds,
            rec.secs
        );
        rows.push(rec);
    }
    let mut meta = Meta {
        cpu: cpu_model(),
        hw,
        clock: cfg.clock.name().to_string(),
        mode: mode.to_string(),
        batch_us: cfg.batch_ns / 1e3,
        passes,
        row_secs: cfg.row_ns / 1e9,
        total_secs: start.elapsed().as_secs_f64(),
        left_out,
    };
    std::fs::create_dir_all(&args.out).expect("create the output directory");
    if soft {
        let p = args.out.join("soft.json");
        let text = serde_json::to_string_pretty(&report::to_json(&meta, &rows)).unwrap();
        std::fs::write(&p, text).expect("write soft.json");
        eprintln!("wrote {}", p.display());
        return;
    }
    if let Some(m) = &args.merge {
        match std::fs::read_to_string(m) {
            Ok(text) => {
                let v: serde_json::Value = serde_json::from_str(&text).expect("parse soft results");
                meta.total_secs += v["meta"]["total_secs"].as_f64().unwrap_or(0.0);
                rows.extend(report::rows_from_json(&v));
            }
            Err(e) => eprintln!("no soft results to merge ({}: {e})", m.display()),
        }
    }
    write_outputs(&args.out, &meta, &rows, args.smoke);
}

/// Writes results.json, the SVG plots and report.md into `dir`; in a smoke run also checks that
/// each was written and is not empty.
fn write_outputs(dir: &std::path::Path, meta: &Meta, rows: &[RowRecord], check: bool) {
    let mut written = Vec::new();
    let json = dir.join("results.json");
    let text = serde_json::to_string_pretty(&report::to_json(meta, rows)).unwrap();
    std::fs::write(&json, text).expect("write results.json");
    written.push(json);

    let mut plots = Vec::new();
    let ratios = "ratios.svg".to_string();
    if let Err(e) = plot::ratios(&dir.join(&ratios), rows) {
        panic!("ratio plot: {e}");
    }
    written.push(dir.join(&ratios));
    plots.push(("ratios".to_string(), ratios));
    for op in plot::curve_ops(rows) {
        let f = format!("throughput-{op}.svg");
        if let Err(e) = plot::throughput(&dir.join(&f), &op, rows) {
            panic!("throughput plot {op}: {e}");
        }
        written.push(dir.join(&f));
        plots.push((op, f));
    }
    let md = dir.join("report.md");
    std::fs::write(&md, report::markdown(meta, rows, &plots)).expect("write report.md");
    written.push(md);
    for p in &written {
        if check {
            let len = std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
            assert!(len > 0, "smoke: {} was not written", p.display());
        }
        eprintln!("wrote {}", p.display());
    }
}
