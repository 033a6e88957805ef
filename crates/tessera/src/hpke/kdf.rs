//! The KDFs: the labeled functions (RFC 9180 section 4; LabeledDerive of draft-ietf-hpke-hpke
//! for the one-stage KDFs of draft-ietf-hpke-pq) and the key schedule built on them. One
//! implementation over a run-time [`KdfId`]: the typed API passes a constant, so the match
//! folds away there.

use tessera_keccak::{Shake128, Shake256, TurboShake128, TurboShake256};
use tessera_sha2::{Sha256, Sha384, Sha512, hkdf};
use zeroize::Zeroize;

use super::{Error, KdfId};

/// The version label of every labeled function.
pub(crate) const VERSION: &[u8] = b"HPKE-v1";

/// The most parts a labeled call concatenates after its fixed prefix.
const MAX_PARTS: usize = 8;

/// The domain-separation byte of TurboSHAKE as an HPKE KDF (the default `0x1F`).
const TURBOSHAKE_DOMAIN: u8 = 0x1F;

/// A two-stage KDF: HKDF over one of the three hashes (`pub` in this private module: the
/// sealed `DhGroup` names it, no user can).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hkdf {
    Sha256,
    Sha384,
    Sha512,
}

/// A one-stage KDF: an XOF used through `LabeledDerive`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OneStage {
    Shake128,
    Shake256,
    TurboShake128,
    TurboShake256,
}

/// A KDF codepoint by its kind. Every match over [`KdfId`] in the KDF code goes through this
/// one exhaustive match, so a newly added KDF fails to compile here instead of running as
/// another one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    Two(Hkdf),
    One(OneStage),
}

impl Stage {
    pub(crate) const fn of(kdf: KdfId) -> Stage {
        match kdf {
            KdfId::HkdfSha256 => Stage::Two(Hkdf::Sha256),
            KdfId::HkdfSha384 => Stage::Two(Hkdf::Sha384),
            KdfId::HkdfSha512 => Stage::Two(Hkdf::Sha512),
            KdfId::Shake128 => Stage::One(OneStage::Shake128),
            KdfId::Shake256 => Stage::One(OneStage::Shake256),
            KdfId::TurboShake128 => Stage::One(OneStage::TurboShake128),
            KdfId::TurboShake256 => Stage::One(OneStage::TurboShake256),
        }
    }
}

/// An HKDF pseudorandom key of one of the three hashes (wiped on drop by `hkdf::Prk`).
pub(crate) enum Prk {
    S256(hkdf::Prk<Sha256>),
    S384(hkdf::Prk<Sha384>),
    S512(hkdf::Prk<Sha512>),
}

impl Prk {
    fn expand(&self, info: &[&[u8]], out: &mut [u8]) -> Result<(), Error> {
        match self {
            Prk::S256(p) => p.expand(info, out),
            Prk::S384(p) => p.expand(info, out),
            Prk::S512(p) => p.expand(info, out),
        }
        .map_err(|_| Error::ExportTooLong)
    }
}

/// Copies `prefix` then `rest` into one array of slices (no allocation).
fn join<'a>(prefix: &[&'a [u8]], rest: &[&'a [u8]]) -> ([&'a [u8]; MAX_PARTS], usize) {
    let mut parts: [&[u8]; MAX_PARTS] = [&[]; MAX_PARTS];
    let n = prefix.len() + rest.len();
    assert!(n <= MAX_PARTS, "internal: too many parts");
    parts[..prefix.len()].copy_from_slice(prefix);
    parts[prefix.len()..n].copy_from_slice(rest);
    (parts, n)
}

/// `LabeledExtract(salt, label, ikm)` with `ikm` the concatenation of `ikm` (two-stage KDFs).
pub(crate) fn labeled_extract(
    kdf: Hkdf,
    suite_id: &[u8],
    salt: &[u8],
    label: &[u8],
    ikm: &[&[u8]],
) -> Prk {
    let (parts, n) = join(&[VERSION, suite_id, label], ikm);
    let parts = &parts[..n];
    match kdf {
        Hkdf::Sha256 => Prk::S256(hkdf::extract_parts::<Sha256>(salt, parts)),
        Hkdf::Sha384 => Prk::S384(hkdf::extract_parts::<Sha384>(salt, parts)),
        Hkdf::Sha512 => Prk::S512(hkdf::extract_parts::<Sha512>(salt, parts)),
    }
}

/// `LabeledExpand(prk, label, info, L)` with `L = out.len()` and `info` the concatenation of
/// `info` (two-stage KDFs). `L` over `255 * Nh` is [`Error::ExportTooLong`], `out` untouched.
pub(crate) fn labeled_expand(
    prk: &Prk,
    suite_id: &[u8],
    label: &[u8],
    info: &[&[u8]],
    out: &mut [u8],
) -> Result<(), Error> {
    let l = u16::try_from(out.len()).map_err(|_| Error::ExportTooLong)?;
    let l = l.to_be_bytes();
    let (parts, n) = join(&[&l, VERSION, suite_id, label], info);
    prk.expand(&parts[..n], out)
}

enum Xof {
    S128(Shake128),
    S256(Shake256),
    T128(TurboShake128),
    T256(TurboShake256),
}

impl Xof {
    fn new(kdf: OneStage) -> Self {
        match kdf {
            OneStage::Shake128 => Xof::S128(Shake128::new()),
            OneStage::Shake256 => Xof::S256(Shake256::new()),
            OneStage::TurboShake128 => {
                Xof::T128(TurboShake128::new(TURBOSHAKE_DOMAIN).expect("valid domain"))
            }
            OneStage::TurboShake256 => {
                Xof::T256(TurboShake256::new(TURBOSHAKE_DOMAIN).expect("valid domain"))
            }
        }
    }

    fn update(&mut self, data: &[u8]) {
        match self {
            Xof::S128(x) => {
                x.update(data);
            }
            Xof::S256(x) => {
                x.update(data);
            }
            Xof::T128(x) => {
                x.update(data);
            }
            Xof::T256(x) => {
                x.update(data);
            }
        }
    }

    fn read(&self, out: &mut [u8]) {
        match self {
            Xof::S128(x) => x.finalize_xof().read(out),
            Xof::S256(x) => x.finalize_xof().read(out),
            Xof::T128(x) => x.finalize_xof().read(out),
            Xof::T256(x) => x.finalize_xof().read(out),
        }
    }
}

/// `LabeledDerive(ikm, label, context, L)` with `L = out.len()` (one-stage KDFs and the
/// SHAKE256 derivations of the post-quantum KEMs). `ikm` and `context` are concatenations of
/// their parts. `L` over 65,535 is [`Error::ExportTooLong`], `out` untouched.
pub(crate) fn labeled_derive(
    kdf: OneStage,
    suite_id: &[u8],
    ikm: &[&[u8]],
    label: &[u8],
    context: &[&[u8]],
    out: &mut [u8],
) -> Result<(), Error> {
    let l = u16::try_from(out.len()).map_err(|_| Error::ExportTooLong)?;
    let label_len = u16::try_from(label.len()).expect("labels are short");
    let mut x = Xof::new(kdf);
    for part in ikm {
        x.update(part);
    }
    x.update(VERSION);
    x.update(suite_id);
    x.update(&label_len.to_be_bytes());
    x.update(label);
    x.update(&l.to_be_bytes());
    for part in context {
        x.update(part);
    }
    x.read(out);
    Ok(())
}

/// The largest `Nh` (HKDF-SHA512, SHAKE256, TurboSHAKE256).
pub(crate) const MAX_NH: usize = 64;

/// What the key schedule produces: `key`, `base_nonce`, `exporter_secret` (wiped on drop).
pub(crate) struct Schedule {
    pub(crate) key: [u8; 32],
    pub(crate) base_nonce: [u8; 12],
    pub(crate) exporter_secret: [u8; MAX_NH],
}

impl Drop for Schedule {
    fn drop(&mut self) {
        self.key.zeroize();
        self.base_nonce.zeroize();
        self.exporter_secret.zeroize();
    }
}

/// `KeySchedule` of RFC 9180 section 5.1 (two-stage KDFs) and `CombineSecrets_OneStage` of
/// draft-ietf-hpke-hpke (one-stage KDFs). The PSK inputs are checked by the caller.
#[allow(clippy::too_many_arguments)]
pub(crate) fn combine_secrets(
    kdf: KdfId,
    suite_id: &[u8; 10],
    mode: u8,
    shared_secret: &[u8],
    info: &[u8],
    psk: &[u8],
    psk_id: &[u8],
    nk: usize,
    nn: usize,
) -> Result<Schedule, Error> {
    let nh = kdf.nh();
    let mut s = Schedule {
        key: [0; 32],
        base_nonce: [0; 12],
        exporter_secret: [0; MAX_NH],
    };
    match Stage::of(kdf) {
        Stage::One(xof) => {
            let len = |x: &[u8]| u16::try_from(x.len()).map_err(|_| Error::InputTooLong);
            let (psk_len, psk_id_len, info_len) = (len(psk)?, len(psk_id)?, len(info)?);
            let ss_len = len(shared_secret)?;
            let mut secret = [0u8; 32 + 12 + MAX_NH];
            let total = nk + nn + nh;
            labeled_derive(
                xof,
                suite_id,
                &[
                    &psk_len.to_be_bytes(),
                    psk,
                    &ss_len.to_be_bytes(),
                    shared_secret,
                ],
                b"secret",
                &[
                    &[mode],
                    &psk_id_len.to_be_bytes(),
                    psk_id,
                    &info_len.to_be_bytes(),
                    info,
                ],
                &mut secret[..total],
            )?;
            s.key[..nk].copy_from_slice(&secret[..nk]);
            s.base_nonce[..nn].copy_from_slice(&secret[nk..nk + nn]);
            s.exporter_secret[..nh].copy_from_slice(&secret[nk + nn..total]);
            secret.zeroize();
        }
        Stage::Two(hkdf) => {
            let psk_id_hash = labeled_extract(hkdf, suite_id, &[], b"psk_id_hash", &[psk_id]);
            let info_hash = labeled_extract(hkdf, suite_id, &[], b"info_hash", &[info]);
            let (p, i) = (prk_bytes(&psk_id_hash), prk_bytes(&info_hash));
            let ctx: [&[u8]; 3] = [&[mode], p, i];
            let secret = labeled_extract(hkdf, suite_id, shared_secret, b"secret", &[psk]);
            if nk != 0 {
                labeled_expand(&secret, suite_id, b"key", &ctx, &mut s.key[..nk])?;
                labeled_expand(
                    &secret,
                    suite_id,
                    b"base_nonce",
                    &ctx,
                    &mut s.base_nonce[..nn],
                )?;
            }
            labeled_expand(
                &secret,
                suite_id,
                b"exp",
                &ctx,
                &mut s.exporter_secret[..nh],
            )?;
        }
    }
    Ok(s)
}

fn prk_bytes(p: &Prk) -> &[u8] {
    match p {
        Prk::S256(p) => p.as_bytes(),
        Prk::S384(p) => p.as_bytes(),
        Prk::S512(p) => p.as_bytes(),
    }
}

/// The exporter secret in the form `Context.Export` needs: a ready HKDF PRK (two-stage) or the
/// bytes (one-stage).
pub(crate) enum Exporter {
    Two(Prk),
    One {
        xof: OneStage,
        secret: [u8; MAX_NH],
        nh: usize,
    },
}

impl Drop for Exporter {
    fn drop(&mut self) {
        if let Exporter::One { secret, .. } = self {
            secret.zeroize();
        }
    }
}

impl Exporter {
    pub(crate) fn new(kdf: KdfId, s: &Schedule) -> Self {
        let nh = kdf.nh();
        let bytes = &s.exporter_secret[..nh];
        match Stage::of(kdf) {
            Stage::Two(Hkdf::Sha256) => Exporter::Two(Prk::S256(prk_from(bytes))),
            Stage::Two(Hkdf::Sha384) => Exporter::Two(Prk::S384(prk_from(bytes))),
            Stage::Two(Hkdf::Sha512) => Exporter::Two(Prk::S512(prk_from(bytes))),
            Stage::One(xof) => Exporter::One {
                xof,
                secret: s.exporter_secret,
                nh,
            },
        }
    }

    /// The exporter secret's bytes (`Nh` long; vector tests).
    #[cfg(tessera_test_hooks)]
    pub(crate) fn secret(&self) -> &[u8] {
        match self {
            Exporter::Two(p) => prk_bytes(p),
            Exporter::One { secret, nh, .. } => &secret[..*nh],
        }
    }
}

fn prk_from<H: tessera_sha2::Sha2>(bytes: &[u8]) -> hkdf::Prk<H> {
    hkdf::Prk::from_bytes(bytes).expect("the schedule makes Nh bytes")
}

/// `Context.Export`: `LabeledExpand(exporter_secret, "sec", exporter_context, L)` (two-stage,
/// `L <= 255 * Nh`) or `LabeledDerive(exporter_secret, "sec", exporter_context, L)` (one-stage,
/// `L <= 65,535`). Too long is [`Error::ExportTooLong`] with `out` untouched.
pub(crate) fn export(
    kdf: KdfId,
    suite_id: &[u8; 10],
    exporter: &Exporter,
    exporter_context: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    match exporter {
        Exporter::One { xof, secret, nh } => labeled_derive(
            *xof,
            suite_id,
            &[&secret[..*nh]],
            b"sec",
            &[exporter_context],
            out,
        ),
        Exporter::Two(prk) => {
            if out.len() > 255 * kdf.nh() {
                return Err(Error::ExportTooLong);
            }
            labeled_expand(prk, suite_id, b"sec", &[exporter_context], out)
        }
    }
}
