//! The RustCrypto-soft rows (a second build with the soft cfgs).

use crate::*;

pub(crate) const SOFT_RUSTFLAGS: &str = "--cfg aes_force_soft --cfg polyval_force_soft --cfg chacha20_force_soft --cfg poly1305_force_soft";

/// Whether this binary was built with RustCrypto's software-only switches (the soft build).
pub(crate) fn soft_build() -> bool {
    cfg!(all(
        aes_force_soft,
        polyval_force_soft,
        chacha20_force_soft,
        poly1305_force_soft
    ))
}

/// In the soft build, RustCrypto's AES and POLYVAL must really be the software ones: the
/// AES-NI/CLMUL variants hold `__m128i` values, which raise the key types' alignment to 16.
pub(crate) fn assert_rustcrypto_soft() {
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
pub(crate) fn build_gcm_soft(key_len: usize, size: usize, seal: bool) -> Built {
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
pub(crate) fn soft_row(
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
pub(crate) fn build_chacha_soft(size: usize, seal: bool) -> Built {
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
