//! The HPKE rows: the shared inputs and notes, hpke-rs's contestants, the suites (see
//! `hpke_suite.rs`) and which rows the default run keeps.

use crate::*;

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
pub(crate) const HPKE_BUDGET: f64 = 0.75;
/// The context rows' sizes but for X25519 + ChaCha20-Poly1305 (which has [`AEAD_SIZES`]).
pub(crate) const HPKE_CONTEXT_SIZES: [usize; 2] = [64, 16384];

/// Tessera's receiver opening a peer's first ciphertext (`None`: it does not open).
pub(crate) type OpenFirst<'a> = dyn Fn(&[u8]) -> Option<Vec<u8>> + 'a;

/// The contestant of a context row from a sender context `s` and the receiver context `rc`
/// set up for it: `ContextSeal` times sealing `pt`; `ContextOpen` times a seal and the open of
/// its ciphertext (each open needs the ciphertext of the next sequence number). `seal` and
/// `open` call the library's contexts with [`AAD`], in its argument order. Checked first: `rc`
/// opens what `s` seals, and so does Tessera's receiver (`open_first`, for a peer: the
/// ciphertext under that peer's encapsulation).
pub(crate) fn context_contestant<S: 'static, R: 'static>(
    name: impl Into<String>,
    role: Role,
    (op, pt): (HpkeOp, Vec<u8>),
    (mut s, mut rc): (S, R),
    seal: impl Fn(&mut S, &[u8]) -> Vec<u8> + 'static,
    open: impl Fn(&mut R, &[u8]) -> Vec<u8> + 'static,
    open_first: Option<&OpenFirst>,
) -> Contestant {
    let name = name.into();
    let ct = seal(&mut s, &pt);
    if let Some(open_first) = open_first {
        assert_eq!(open_first(&ct).as_deref(), Some(&pt[..]), "{name} seal");
    }
    assert_eq!(open(&mut rc, &ct), pt, "{name} open");
    if op == HpkeOp::ContextSeal {
        Contestant::new(name, role, move || {
            black_box(seal(&mut s, black_box(&pt)));
        })
    } else {
        Contestant::new(name, role, move || {
            let ct = seal(&mut s, black_box(&pt));
            black_box(open(&mut rc, &ct));
        })
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum HpkeOp {
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

pub(crate) const HPKE_INFO: &[u8] = b"tessera bench: HPKE info";
pub(crate) const HPKE_EXPORT_CONTEXT: &[u8] = b"tessera bench: exporter context";
pub(crate) const HPKE_EXPORT_LEN: usize = 32;

/// The one RNG seed of every HPKE contestant that takes an RNG.
pub(crate) fn hpke_rng() -> ChaCha20Rng {
    ChaCha20Rng::from_seed([0x42; 32])
}

/// The IKM of the receiver's key pair (every library derives the same pair from it).
pub(crate) fn hpke_ikm() -> [u8; 64] {
    let mut ikm = [0u8; 64];
    SplitMix64(0x6870_6b65).fill(&mut ikm);
    ikm
}

/// A check function of [`HpkeRef`], on bytes.
pub(crate) type BytesFn = Box<dyn Fn(&[u8]) -> Vec<u8>>;

/// What the contestants are checked against, computed with Tessera.
pub(crate) struct HpkeRef {
    pub(crate) ikm: [u8; 64],
    pub(crate) pk: Vec<u8>,
    pub(crate) sk: Vec<u8>,
    /// An encapsulation to `pk` (the one every receiver-side row decapsulates), its shared
    /// secret and the export of its receiver context.
    pub(crate) enc: Vec<u8>,
    pub(crate) ss: Vec<u8>,
    pub(crate) export: Vec<u8>,
    /// The public key of serialized private-key bytes.
    pub(crate) pk_of_sk: BytesFn,
    /// The shared secret of an encapsulated key.
    pub(crate) decap: BytesFn,
    /// The export of the receiver context of an encapsulated key.
    pub(crate) export_of: BytesFn,
    /// Opens the first message (sequence number 0) sealed to an encapsulated key.
    #[allow(clippy::type_complexity)]
    pub(crate) open_first: Box<dyn Fn(&[u8], &[u8]) -> Option<Vec<u8>>>,
}

pub(crate) const HPKE_NOTE_HPKE_RS: &str = "hpke-rs: keys are byte vectors (`HpkePublicKey`, `HpkePrivateKey`) parsed on every call; its RustCrypto provider draws from its own ChaCha20Rng, seeded from the OS when its `Hpke` is made outside the timed loop (it takes no caller RNG or seed; libcrux's takes the shared ChaCha20Rng through `Hpke::new_with_rng`)";
pub(crate) const HPKE_NOTE_NO_KEM: &str = "hpke-rs: no row (its KEM encap/decap are not public; it encapsulates only inside `setup_sender`)";
pub(crate) const HPKE_NOTE_RUST_HPKE_KEM: &str = "rust-hpke: `Kem::encap_with_rng` and `Kem::decap`, which its setup calls (public but `#[doc(hidden)]`)";
pub(crate) const HPKE_NOTE_KEYGEN: &str = "keygen: rust-hpke (every KEM) and hpke-rs (the PQ KEMs) generate by DeriveKeyPair(random IKM), one labeled hash more than Tessera and hpke-ng, which take the random bytes as the key or seed";
pub(crate) const HPKE_NOTE_NG_NO_HYBRID: &str =
    "hpke-ng: no row (it has no ML-KEM/NIST-curve hybrid KEM)";
pub(crate) const HPKE_NOTE_CONTEXT: &str = "context rows: every library's allocating seal/open (a new Vec per message), contexts set up outside the timed loop; context-open is lockstep (each iteration seals, then opens that message)";

/// hpke-rs's contestants (runtime-agile, one `Hpke` per contestant).
pub(crate) mod hpke_rs_side {
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
                let (enc, s) = h.setup_sender(&pk, HPKE_INFO, None, None, None).unwrap();
                let rc = h
                    .setup_receiver(&enc, &sk, HPKE_INFO, None, None, None)
                    .unwrap();
                context_contestant(
                    name,
                    Role::Peer,
                    (op, pt),
                    (s, rc),
                    |s, pt| s.seal(&AAD, pt).unwrap(),
                    |rc, ct| rc.open(&AAD, ct).unwrap(),
                    Some(&|ct| (r.open_first)(&enc, ct)),
                )
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

/// The HPKE rows (see the HPKE section for the choice of rows and their budget).
pub(crate) fn hpke_specs(v: &mut Vec<Spec>) {
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
pub(crate) fn hpke_in_default_run(op: &str, size: usize) -> bool {
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
/// column (`x86_bmi2adx+x86_shani+x86_avx2`): `x25519`, `p256`, `mlkem`, `sha3` (X-Wing's SHA3-256 and
/// SHAKE), `sha256`, `sha512` (HKDF-SHA384), `gcm`, `chacha`.
pub(crate) fn hpke_backends(parts: &[&str]) -> String {
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
            "p256" => tessera::P256Backend::detect().name(),
            // RustCrypto's curve crate (one backend; Tessera's own DH step on top).
            "p521" => "p521-crate",
            other => unreachable!("{other}"),
        })
        .collect();
    names.join("+")
}
