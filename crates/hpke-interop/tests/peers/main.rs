//! Interoperability of `tessera::hpke` with the peer HPKE libraries: hpke-ng, rust-hpke (crate
//! `hpke`) and hpke-rs on its libcrux and RustCrypto providers.
//!
//! Every library sits behind one byte-level interface ([`Party`]): keys, encapsulated keys and
//! ciphertexts cross between libraries only as bytes, each side serializing what it made and
//! parsing what it receives. For every suite a peer shares with Tessera, and in both
//! directions (Tessera seals, the peer opens; the peer seals, Tessera opens), on seeded random
//! inputs (info, aad, plaintexts, psk ids of random lengths, empty included): context
//! seal/open of several messages, a tampered ciphertext that must not open, exports of both
//! contexts compared, single-shot seal/open with a wrong aad that must not open, and
//! `DeriveKeyPair` of both sides compared. Modes: Base and PSK everywhere, Auth and AuthPSK
//! with DHKEM(X25519). Tessera runs both its typed (`Hpke<K, F, A>`) and its runtime-agile
//! (`Suite`) API.
//!
//! Suites: DHKEM(X25519) with every HKDF and every AEAD (export-only included); ML-KEM-512
//! (hpke-rs on libcrux only), ML-KEM-768, ML-KEM-1024 and X-Wing with each HKDF and each AEAD
//! at least once; the one-stage KDFs of draft-ietf-hpke-hpke with the peers that have them
//! (rust-hpke: SHAKE128/256 and TurboSHAKE128/256; hpke-rs on libcrux: SHAKE128/256).
//!
//! What each peer lacks (so is not run): ML-KEM-512 in hpke-ng, rust-hpke and hpke-rs on
//! RustCrypto (none implements it); the one-stage KDFs in hpke-ng and hpke-rs on RustCrypto,
//! TurboSHAKE in hpke-rs on libcrux; a one-stage KDF with the export-only AEAD in rust-hpke
//! 0.15.1 (it panics); Auth and AuthPSK with the PQ KEMs in every library (the drafts define
//! none; Tessera refuses them too).
//!
//! Needs `--ignore-rust-version` (hpke-ng 0.2 declares rust-version 1.96):
//! `cargo test --ignore-rust-version -p tessera-hpke-interop --test peers`.

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};

/// The HPKE mode of one exchange, with its inputs as bytes.
#[derive(Clone, Copy, Debug)]
enum Mode<'a> {
    Base,
    Psk {
        psk: &'a [u8],
        psk_id: &'a [u8],
    },
    /// The sender's key pair (each side parses the half it needs).
    Auth {
        sk_s: &'a [u8],
        pk_s: &'a [u8],
    },
    AuthPsk {
        sk_s: &'a [u8],
        pk_s: &'a [u8],
        psk: &'a [u8],
        psk_id: &'a [u8],
    },
}

impl<'a> Mode<'a> {
    pub fn name(&self) -> &'static str {
        match self {
            Mode::Base => "base",
            Mode::Psk { .. } => "psk",
            Mode::Auth { .. } => "auth",
            Mode::AuthPsk { .. } => "auth-psk",
        }
    }
    fn psk(&self) -> Option<(&'a [u8], &'a [u8])> {
        match *self {
            Mode::Psk { psk, psk_id } | Mode::AuthPsk { psk, psk_id, .. } => Some((psk, psk_id)),
            _ => None,
        }
    }
    fn sender_key(&self) -> Option<(&'a [u8], &'a [u8])> {
        match *self {
            Mode::Auth { sk_s, pk_s } | Mode::AuthPsk { sk_s, pk_s, .. } => Some((sk_s, pk_s)),
            _ => None,
        }
    }
}

/// What a sender sets up with: (mode, the recipient's public key, `info`).
#[derive(Clone, Copy)]
struct To<'a>(Mode<'a>, &'a [u8], &'a [u8]);

/// What a receiver sets up with: (mode, the sender's `enc`, the recipient's private key,
/// `info`).
#[derive(Clone, Copy)]
struct At<'a>(Mode<'a>, &'a [u8], &'a [u8], &'a [u8]);

/// A sender context: `seal` is never called on an export-only suite.
trait Sender {
    fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Vec<u8>;
    fn export(&self, exporter_context: &[u8], len: usize) -> Vec<u8>;
}

/// A receiver context; `open` is `None` when the ciphertext does not authenticate.
trait Receiver {
    fn open(&mut self, aad: &[u8], ct: &[u8]) -> Option<Vec<u8>>;
    fn export(&self, exporter_context: &[u8], len: usize) -> Vec<u8>;
}

/// The (sk, pk) bytes of a key pair.
type KeyPair = (Vec<u8>, Vec<u8>);

/// One library on one suite.
trait Party {
    fn name(&self) -> String;
    /// A fresh key pair from `rng`, serialized.
    fn generate(&self, rng: &mut ChaCha20Rng) -> KeyPair;
    /// `DeriveKeyPair(ikm)`, serialized.
    fn derive(&self, ikm: &[u8]) -> KeyPair;
    fn setup_sender(&self, to: To, rng: &mut ChaCha20Rng) -> (Vec<u8>, Box<dyn Sender>);
    fn setup_receiver(&self, at: At) -> Box<dyn Receiver>;
    /// Single-shot `Seal<MODE>` (never called on an export-only suite).
    fn seal(&self, to: To, aad: &[u8], pt: &[u8], rng: &mut ChaCha20Rng) -> (Vec<u8>, Vec<u8>);
    /// Single-shot `Open<MODE>`.
    fn open(&self, at: At, aad: &[u8], ct: &[u8]) -> Option<Vec<u8>>;
}

// ---------------------------------------------------------------------------------------------
// hpke-ng

mod ng;

// ---------------------------------------------------------------------------------------------
// rust-hpke (crate `hpke`)

mod rh;

// ---------------------------------------------------------------------------------------------
// hpke-rs, on its libcrux and RustCrypto providers (runtime-agile: one `Hpke` per mode).

mod hrs;

// ---------------------------------------------------------------------------------------------
// Tessera, typed (`Hpke<K, F, A>`) and runtime-agile (`Suite`).

mod tess;

// ---------------------------------------------------------------------------------------------
// The exchanges.

fn bytes(rng: &mut ChaCha20Rng, max: usize) -> Vec<u8> {
    let len = (rng.next_u32() as usize) % (max + 1);
    let mut v = vec![0u8; len];
    rng.fill_bytes(&mut v);
    v
}

/// An X25519 private key with its clamping applied (some libraries serialize it clamped, some
/// as derived, RFC 9180's vectors unclamped; both are the same scalar); other keys unchanged.
fn x25519_clamped(sk: &[u8], pk: &[u8]) -> Vec<u8> {
    let mut sk = sk.to_vec();
    if sk.len() == 32 && pk.len() == 32 {
        sk[0] &= 248;
        sk[31] &= 127;
        sk[31] |= 64;
    }
    sk
}

/// Which modes a suite is checked in.
#[derive(Clone, Copy)]
enum Modes {
    /// Base and PSK (the KEMs without AuthEncap).
    BasePsk,
    /// All four.
    All,
}

/// `a` sends to `b` on one suite in every mode of `modes`, `cases` times with fresh random
/// inputs: context seal/open of a few messages of random lengths (empty included), exports of
/// both sides compared, single-shot seal/open, and a tampered ciphertext that must not open.
/// Keys are made by the side that owns them and cross as bytes. Returns the exchanges run.
fn exchange(
    a: &dyn Party,
    b: &dyn Party,
    sealing: bool,
    modes: Modes,
    cases: usize,
    rng: &mut ChaCha20Rng,
) -> usize {
    let mut n = 0;
    for case in 0..cases {
        // Alternate who makes the receiver's key pair: the receiver (its own GenerateKeyPair)
        // or the sender (DeriveKeyPair, whose result both must agree on).
        let (sk_r, pk_r) = if case % 2 == 0 {
            b.generate(rng)
        } else {
            let ikm = bytes(rng, 64);
            let ikm = if ikm.len() < 32 {
                vec![ikm.len() as u8; 32]
            } else {
                ikm
            };
            let ka = a.derive(&ikm);
            let kb = b.derive(&ikm);
            assert_eq!(
                ka.1,
                kb.1,
                "{} and {} disagree on DeriveKeyPair (pk)",
                a.name(),
                b.name()
            );
            assert_eq!(
                x25519_clamped(&ka.0, &ka.1),
                x25519_clamped(&kb.0, &kb.1),
                "{} and {} disagree on DeriveKeyPair (sk)",
                a.name(),
                b.name()
            );
            kb
        };
        let (sk_s, pk_s) = a.generate(rng);
        let mut psk = vec![0u8; 32 + (rng.next_u32() % 33) as usize];
        rng.fill_bytes(&mut psk);
        let mut psk_id = bytes(rng, 16);
        if psk_id.is_empty() {
            psk_id.push(0x2a);
        }
        let all = [
            Mode::Base,
            Mode::Psk {
                psk: &psk,
                psk_id: &psk_id,
            },
            Mode::Auth {
                sk_s: &sk_s,
                pk_s: &pk_s,
            },
            Mode::AuthPsk {
                sk_s: &sk_s,
                pk_s: &pk_s,
                psk: &psk,
                psk_id: &psk_id,
            },
        ];
        let modes = match modes {
            Modes::BasePsk => &all[..2],
            Modes::All => &all[..],
        };
        for &mode in modes {
            let what = format!("{} -> {} ({})", a.name(), b.name(), mode.name());
            let info = bytes(rng, 80);
            let (enc, mut s) = a.setup_sender(To(mode, &pk_r, &info), rng);
            let mut r = b.setup_receiver(At(mode, &enc, &sk_r, &info));
            if sealing {
                for _ in 0..3 {
                    let aad = bytes(rng, 48);
                    let pt = bytes(rng, 300);
                    let ct = s.seal(&aad, &pt);
                    assert_eq!(ct.len(), pt.len() + 16, "{what}: ciphertext length");
                    assert_eq!(
                        r.open(&aad, &ct).as_deref(),
                        Some(&pt[..]),
                        "{what}: context open"
                    );
                }
                let aad = bytes(rng, 48);
                let pt = bytes(rng, 64);
                let mut ct = s.seal(&aad, &pt);
                let i = (rng.next_u32() as usize) % ct.len();
                ct[i] ^= 1 << (rng.next_u32() % 8);
                assert_eq!(
                    r.open(&aad, &ct),
                    None,
                    "{what}: a tampered ciphertext opened"
                );
            }
            for _ in 0..2 {
                let ctx = bytes(rng, 40);
                let len = 1 + (rng.next_u32() % 96) as usize;
                let e = s.export(&ctx, len);
                assert_eq!(e.len(), len, "{what}: export length");
                assert_eq!(e, r.export(&ctx, len), "{what}: exports differ");
            }
            if sealing {
                let info = bytes(rng, 80);
                let aad = bytes(rng, 48);
                let pt = bytes(rng, 300);
                let (enc, ct) = a.seal(To(mode, &pk_r, &info), &aad, &pt, rng);
                assert_eq!(
                    b.open(At(mode, &enc, &sk_r, &info), &aad, &ct).as_deref(),
                    Some(&pt[..]),
                    "{what}: single-shot open"
                );
                let mut bad = aad.clone();
                bad.push(0);
                assert_eq!(
                    b.open(At(mode, &enc, &sk_r, &info), &bad, &ct),
                    None,
                    "{what}: wrong aad opened"
                );
            }
            n += 1;
        }
    }
    n
}

/// Both directions.
fn both(
    a: &dyn Party,
    b: &dyn Party,
    sealing: bool,
    modes: Modes,
    cases: usize,
    rng: &mut ChaCha20Rng,
) -> usize {
    exchange(a, b, sealing, modes, cases, rng) + exchange(b, a, sealing, modes, cases, rng)
}

// ---------------------------------------------------------------------------------------------
// Parties by codepoints.

const X25519: u16 = 0x0020;
const MLKEM512: u16 = 0x0040;
const MLKEM768: u16 = 0x0041;
const MLKEM1024: u16 = 0x0042;
const XWING: u16 = 0x647a;
const EXPORT_ONLY: u16 = 0xffff;

/// Every (KDF, AEAD) pair of RFC 9180: DHKEM(X25519) runs all of them.
const ALL_SUITES: [(u16, u16); 12] = [
    (1, 1),
    (1, 2),
    (1, 3),
    (1, EXPORT_ONLY),
    (2, 1),
    (2, 2),
    (2, 3),
    (2, EXPORT_ONLY),
    (3, 1),
    (3, 2),
    (3, 3),
    (3, EXPORT_ONLY),
];
/// The PQ KEMs (slower: fewer suites): each HKDF and each AEAD at least once.
const PQ_SUITES: [(u16, u16); 4] = [(1, 3), (2, 2), (3, 1), (1, EXPORT_ONLY)];
/// The one-stage KDFs of draft-ietf-hpke-hpke (SHAKE128, SHAKE256, TurboSHAKE128,
/// TurboSHAKE256), each with a sealing AEAD: rust-hpke has all four, but rust-hpke 0.15.1
/// panics (a slice out of range in its one-stage key schedule) with any of them and the
/// export-only AEAD, so that pair is not run with it.
const ONE_STAGE_SUITES: [(u16, u16); 4] = [(0x10, 3), (0x11, 2), (0x12, 1), (0x13, 3)];
/// hpke-rs on libcrux has SHAKE128 and SHAKE256 only.
const SHAKE_SUITES: [(u16, u16); 3] = [(0x10, 3), (0x11, 1), (0x11, EXPORT_ONLY)];

/// `$ctor::<K, F, A>()` for the types whose codepoints are `(kem, kdf, aead)`.
macro_rules! by_ids {
    ($ctor:ident, $ids:expr, kems [$($kid:expr => $k:ty),* $(,)?], kdfs $kdfs:tt, aeads $aeads:tt) => {{
        let (kem, kdf, aead): (u16, u16, u16) = $ids;
        match kem {
            $(x if x == $kid => by_ids!(@kdf $ctor, $k, kdf, aead, $kdfs, $aeads),)*
            x => panic!("{} has no KEM {x:#06x}", stringify!($ctor)),
        }
    }};
    (@kdf $ctor:ident, $k:ty, $kdf:ident, $aead:ident, [$($fid:expr => $f:ty),* $(,)?], $aeads:tt) => {
        match $kdf {
            $(x if x == $fid => by_ids!(@aead $ctor, $k, $f, $aead, $aeads),)*
            x => panic!("{} has no KDF {x:#06x}", stringify!($ctor)),
        }
    };
    (@aead $ctor:ident, $k:ty, $f:ty, $aead:ident, [$($aid:expr => $a:ty),* $(,)?]) => {
        match $aead {
            $(x if x == $aid => $ctor::<$k, $f, $a>(),)*
            x => panic!("{} has no AEAD {x:#06x}", stringify!($ctor)),
        }
    };
}

fn tessera_typed(kem: u16, kdf: u16, aead: u16) -> Box<dyn Party> {
    use tess::typed;
    use tessera::hpke as t;
    by_ids!(typed, (kem, kdf, aead),
        kems [X25519 => t::DhKemX25519HkdfSha256, MLKEM512 => t::MlKem512,
              MLKEM768 => t::MlKem768, MLKEM1024 => t::MlKem1024, XWING => t::XWing],
        kdfs [1 => t::HkdfSha256, 2 => t::HkdfSha384, 3 => t::HkdfSha512,
              0x10 => t::Shake128, 0x11 => t::Shake256,
              0x12 => t::TurboShake128, 0x13 => t::TurboShake256],
        aeads [1 => t::Aes128Gcm, 2 => t::Aes256Gcm, 3 => t::ChaCha20Poly1305,
               EXPORT_ONLY => t::ExportOnly])
}

fn hpke_ng(kem: u16, kdf: u16, aead: u16) -> Box<dyn Party> {
    use hpke_ng as g;
    use ng::party;
    by_ids!(party, (kem, kdf, aead),
        kems [X25519 => g::DhKemX25519HkdfSha256, MLKEM768 => g::MlKem768,
              MLKEM1024 => g::MlKem1024, XWING => g::XWingDraft06],
        kdfs [1 => g::HkdfSha256, 2 => g::HkdfSha384, 3 => g::HkdfSha512],
        aeads [1 => g::Aes128Gcm, 2 => g::Aes256Gcm, 3 => g::ChaCha20Poly1305,
               EXPORT_ONLY => g::ExportOnly])
}

fn rust_hpke(kem: u16, kdf: u16, aead: u16) -> Box<dyn Party> {
    use hpke::{aead as a, kdf as f, kem as k};
    use rh::party;
    by_ids!(party, (kem, kdf, aead),
        kems [X25519 => k::X25519HkdfSha256, MLKEM768 => k::MlKem768,
              MLKEM1024 => k::MlKem1024, XWING => k::XWing],
        kdfs [1 => f::HkdfSha256, 2 => f::HkdfSha384, 3 => f::HkdfSha512,
              0x10 => f::KdfShake128, 0x11 => f::KdfShake256,
              0x12 => f::KdfTurboShake128, 0x13 => f::KdfTurboShake256],
        aeads [1 => a::AesGcm128, 2 => a::AesGcm256, 3 => a::ChaCha20Poly1305,
               EXPORT_ONLY => a::ExportOnlyAead])
}

fn hpke_rs_libcrux(kem: u16, kdf: u16, aead: u16) -> Box<dyn Party> {
    hrs::party(hrs::Provider::Libcrux, kem, kdf, aead)
}

fn hpke_rs_rustcrypto(kem: u16, kdf: u16, aead: u16) -> Box<dyn Party> {
    hrs::party(hrs::Provider::RustCrypto, kem, kdf, aead)
}

/// Tessera (typed and agile) against `peer` on `kem` with each of `suites`, both directions,
/// `cases` key pairs per suite and mode.
fn against(
    peer: fn(u16, u16, u16) -> Box<dyn Party>,
    kem: u16,
    suites: &[(u16, u16)],
    cases: usize,
) {
    let mut seed = [0x42u8; 32];
    seed[..2].copy_from_slice(&kem.to_be_bytes());
    let mut rng = ChaCha20Rng::from_seed(seed);
    let modes = if kem == X25519 {
        Modes::All
    } else {
        Modes::BasePsk
    };
    let mut n = 0;
    for &(kdf, aead) in suites {
        let sealing = aead != EXPORT_ONLY;
        let p = peer(kem, kdf, aead);
        let t = tessera_typed(kem, kdf, aead);
        let g = tess::agile(kem, kdf, aead);
        n += both(&*t, &*p, sealing, modes, cases, &mut rng);
        n += both(&*g, &*p, sealing, modes, cases, &mut rng);
    }
    let per_suite = cases * 4 * if kem == X25519 { 4 } else { 2 };
    assert_eq!(n, suites.len() * per_suite, "exchanges run");
}

macro_rules! interop_tests {
    ($($name:ident: $peer:ident, $kem:ident, $suites:expr, $cases:expr;)*) => {$(
        #[test]
        fn $name() {
            against($peer, $kem, &$suites, $cases);
        }
    )*};
}

interop_tests! {
    hpke_ng_x25519: hpke_ng, X25519, ALL_SUITES, 4;
    hpke_ng_mlkem768: hpke_ng, MLKEM768, PQ_SUITES, 3;
    hpke_ng_mlkem1024: hpke_ng, MLKEM1024, PQ_SUITES, 3;
    hpke_ng_xwing: hpke_ng, XWING, PQ_SUITES, 3;
    rust_hpke_x25519: rust_hpke, X25519, ALL_SUITES, 4;
    rust_hpke_mlkem768: rust_hpke, MLKEM768, PQ_SUITES, 3;
    rust_hpke_mlkem1024: rust_hpke, MLKEM1024, PQ_SUITES, 3;
    rust_hpke_xwing: rust_hpke, XWING, PQ_SUITES, 3;
    hpke_rs_libcrux_x25519: hpke_rs_libcrux, X25519, ALL_SUITES, 4;
    hpke_rs_libcrux_mlkem512: hpke_rs_libcrux, MLKEM512, PQ_SUITES, 3;
    hpke_rs_libcrux_mlkem768: hpke_rs_libcrux, MLKEM768, PQ_SUITES, 3;
    hpke_rs_libcrux_mlkem1024: hpke_rs_libcrux, MLKEM1024, PQ_SUITES, 3;
    hpke_rs_libcrux_xwing: hpke_rs_libcrux, XWING, PQ_SUITES, 3;
    hpke_rs_rustcrypto_x25519: hpke_rs_rustcrypto, X25519, ALL_SUITES, 4;
    hpke_rs_rustcrypto_mlkem768: hpke_rs_rustcrypto, MLKEM768, PQ_SUITES, 3;
    hpke_rs_rustcrypto_mlkem1024: hpke_rs_rustcrypto, MLKEM1024, PQ_SUITES, 3;
    hpke_rs_rustcrypto_xwing: hpke_rs_rustcrypto, XWING, PQ_SUITES, 3;
    rust_hpke_one_stage_x25519: rust_hpke, X25519, ONE_STAGE_SUITES, 3;
    rust_hpke_one_stage_mlkem768: rust_hpke, MLKEM768, ONE_STAGE_SUITES, 2;
    rust_hpke_one_stage_mlkem1024: rust_hpke, MLKEM1024, ONE_STAGE_SUITES, 2;
    rust_hpke_one_stage_xwing: rust_hpke, XWING, ONE_STAGE_SUITES, 2;
    hpke_rs_libcrux_shake_x25519: hpke_rs_libcrux, X25519, SHAKE_SUITES, 3;
    hpke_rs_libcrux_shake_mlkem512: hpke_rs_libcrux, MLKEM512, SHAKE_SUITES, 2;
    hpke_rs_libcrux_shake_mlkem768: hpke_rs_libcrux, MLKEM768, SHAKE_SUITES, 2;
    hpke_rs_libcrux_shake_xwing: hpke_rs_libcrux, XWING, SHAKE_SUITES, 2;
}

/// The checks can fail: a receiver given another `info` than the sender's must neither open
/// the sender's messages nor export the same secrets (with every peer as the receiver).
#[test]
fn mismatched_info_is_caught() {
    let mut rng = ChaCha20Rng::from_seed([0x42; 32]);
    let t = tessera_typed(X25519, 1, 3);
    for peer in [hpke_ng, rust_hpke, hpke_rs_libcrux, hpke_rs_rustcrypto] {
        let p = peer(X25519, 1, 3);
        for (a, b) in [(&t, &p), (&p, &t)] {
            let (sk, pk) = b.generate(&mut rng);
            let (enc, mut s) = a.setup_sender(To(Mode::Base, &pk, b"info"), &mut rng);
            let mut r = b.setup_receiver(At(Mode::Base, &enc, &sk, b"inf0"));
            let ct = s.seal(b"", b"message");
            assert_eq!(r.open(b"", &ct), None, "{} -> {}", a.name(), b.name());
            assert_ne!(
                s.export(b"", 32),
                r.export(b"", 32),
                "{} -> {}",
                a.name(),
                b.name()
            );
        }
    }
}
