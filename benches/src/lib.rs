//! Shared pieces of the benches in `benches/`: the AES-GCM inputs and the RustCrypto wrapper
//! that `aes_gcm` and `aes_gcm_soft` both time, the criterion AEAD groups of `aes_gcm` and
//! `chacha20poly1305` (`aead`) (Tessera's side is `tessera_aes_gcm::AesGcm`;
//! 64-byte aligned buffers come from `tessera_testkit::aligned`); the interleaved harness,
//! report and plots of the `compare` bench (`cargo xtask bench`).
#![allow(missing_docs)]

pub mod aead;
pub mod interleave;
pub mod load;
pub mod plot;
pub mod report;

/// The nonce of every AES-GCM row: 96 bits, the fast path of every implementation.
pub const NONCE: [u8; 12] = [7; 12];
/// The AAD of every AES-GCM row: 13 bytes, a TLS record header.
pub const AAD: [u8; 13] = [0x17; 13];

/// Tessera AES-GCM (AES-128 or AES-256 by key length) on a chosen backend; panics if the key
/// was expanded for another one.
pub fn tessera_gcm(key: &[u8], be: tessera_aes_gcm::testing::Backend) -> tessera_aes_gcm::AesGcm {
    let t = tessera_aes_gcm::AesGcm::new_with_backend(be, key).unwrap();
    assert_eq!(t.backend(), be, "the key was expanded for another backend");
    t
}

/// RustCrypto `aes-gcm` AES-128-GCM or AES-256-GCM (by key length).
#[allow(clippy::large_enum_variant)]
pub enum RustCryptoGcm {
    A128(aes_gcm::Aes128Gcm),
    A256(aes_gcm::Aes256Gcm),
}

impl RustCryptoGcm {
    pub fn new(key: &[u8]) -> Self {
        use aes_gcm::aead::KeyInit;
        match key.len() {
            16 => RustCryptoGcm::A128(aes_gcm::Aes128Gcm::new_from_slice(key).unwrap()),
            _ => RustCryptoGcm::A256(aes_gcm::Aes256Gcm::new_from_slice(key).unwrap()),
        }
    }
    /// Seals `buf` in place under [`NONCE`] and [`AAD`]; returns the tag.
    pub fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        aead::DetachedAead::seal(self, &NONCE, &AAD, buf)
    }
    /// Opens `buf` in place under [`NONCE`] and [`AAD`]; panics on a bad tag.
    pub fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        aead::DetachedAead::open(self, &NONCE, &AAD, buf, tag)
    }
}

/// libcrux-sha3's x4 code is all `#[inline(always)]` and expects its caller to be compiled with
/// AVX2 (as libcrux-ml-kem's AVX2 code is); calling it from an AVX2 function is how it runs there
/// (the `keccak` and `compare` benches' four-way SHAKE256 rows).
///
/// # Safety
///
/// The CPU must have AVX2 (`is_x86_feature_detected!("avx2")`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
pub fn libcrux_x4_avx2(
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
