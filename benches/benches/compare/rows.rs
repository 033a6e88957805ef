//! The row table: a row before it runs ([`Spec`]), its contestants ([`Built`]), the sizes and
//! every row of the comparison in order ([`specs`]).

use crate::*;

/// A row before it runs.
pub(crate) struct Spec {
    pub(crate) op: &'static str,
    /// Message bytes (per lane for the x4 row).
    pub(crate) size: usize,
    /// Messages per call (4 for the x4 row).
    pub(crate) ways: usize,
    /// Runs only in the RustCrypto-soft build.
    pub(crate) soft: bool,
    /// This row's time budget relative to the configured one (1, or [`HPKE_BUDGET`]).
    pub(crate) budget: f64,
    /// Left out of the default run (`cargo xtask bench` without a filter), which must finish in
    /// under 10 minutes; `--full` or a filter that matches it runs it.
    pub(crate) full_only: bool,
    pub(crate) build: fn(usize) -> Built,
}

impl Spec {
    pub(crate) fn id(&self) -> String {
        if self.size == 0 {
            format!("op={}", self.op)
        } else {
            format!("op={},size={}", self.op, size_label(self.size))
        }
    }
}

/// A row's contestants (the reference first) and its notes.
pub(crate) struct Built {
    pub(crate) contestants: Vec<Contestant>,
    pub(crate) notes: Vec<String>,
}

pub(crate) const HASH_SIZES: [usize; 3] = [64, 1024, 16384];
pub(crate) const AEAD_SIZES: [usize; 4] = [64, 1024, 16384, 65536];
/// The software-only rows (a second build): the shortest and a long message.
pub(crate) const SOFT_SIZES: [usize; 2] = [64, 16384];

/// Where a row runs: `Main` in the default run (`cargo xtask bench`); `Detail` only with
/// `--full` or a filter that matches it (the key-parsing `-from-bytes` rows: the default run
/// keeps the reused-key rows and stays under 10 minutes); `Soft` in the RustCrypto-soft build.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Main,
    Detail,
    Soft,
}

/// The AEAD rows' builders as plain functions for the table: the key length (AES-GCM) and
/// seal (`true`) or open are parameters of the type.
fn gcm<const KEY_LEN: usize, const SEAL: bool>(size: usize) -> Built {
    build_gcm(KEY_LEN, size, SEAL)
}
fn gcm_soft<const KEY_LEN: usize, const SEAL: bool>(size: usize) -> Built {
    build_gcm_soft(KEY_LEN, size, SEAL)
}
fn chacha<const SEAL: bool>(size: usize) -> Built {
    build_chacha(size, SEAL)
}
fn chacha_soft<const SEAL: bool>(size: usize) -> Built {
    build_chacha_soft(size, SEAL)
}

/// What builds a row's contestants at a size ([`Spec::build`]).
type BuildFn = fn(usize) -> Built;

/// The AEAD rows of the main build, in table order (at [`AEAD_SIZES`]).
const AEAD_ROWS: [(&str, BuildFn); 6] = [
    ("aes128-gcm-seal", gcm::<16, true>),
    ("aes128-gcm-open", gcm::<16, false>),
    ("aes256-gcm-seal", gcm::<32, true>),
    ("aes256-gcm-open", gcm::<32, false>),
    ("chacha20poly1305-seal", chacha::<true>),
    ("chacha20poly1305-open", chacha::<false>),
];

/// The software-only AEAD rows of the RustCrypto-soft build, in table order (at
/// [`SOFT_SIZES`]).
const SOFT_ROWS: [(&str, BuildFn); 6] = [
    ("aes128-gcm-seal-soft", gcm_soft::<16, true>),
    ("aes128-gcm-open-soft", gcm_soft::<16, false>),
    ("aes256-gcm-seal-soft", gcm_soft::<32, true>),
    ("aes256-gcm-open-soft", gcm_soft::<32, false>),
    ("chacha20poly1305-seal-soft", chacha_soft::<true>),
    ("chacha20poly1305-open-soft", chacha_soft::<false>),
];

pub(crate) fn specs() -> Vec<Spec> {
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
    // The trait paths (RustCrypto `digest` / `hmac` / `aead` traits over Tessera).
    add(
        "sha256-digest-trait",
        &[64, 16384],
        1,
        Main,
        build_sha256_digest_trait,
    );
    add("hmac-sha256-trait", &[64], 1, Main, build_hmac_sha256_trait);
    add("sha3-256", &HASH_SIZES, 1, Main, build_sha3_256);
    add("shake128", &[64, 16384], 1, Main, build_shake128);
    add("shake256", &[64, 16384], 1, Main, build_shake256);
    add("shake256-x4", &[4096], 4, Main, build_shake256_x4);
    for (op, build) in AEAD_ROWS {
        add(op, &AEAD_SIZES, 1, Main, build);
    }
    add(
        "aes128-gcm-aeadinout",
        &[1024, 16384],
        1,
        Main,
        build_gcm_aeadinout,
    );
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
    add("p256-ecdh", &[0], 1, Main, |_| build_p256_kex(false));
    add("p256-keygen", &[0], 1, Main, |_| build_p256_kex(true));
    add("p256-sign", &[0], 1, Main, |_| build_p256_ecdsa(true));
    add("p256-verify", &[0], 1, Main, |_| build_p256_ecdsa(false));
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
    for (op, build) in SOFT_ROWS {
        add(op, &SOFT_SIZES, 1, Soft, build);
    }
    tls_specs(&mut v);
    hpke_specs(&mut v);
    v
}
