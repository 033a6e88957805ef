//! HPKE: RFC 9180 (all four modes) with the post-quantum KEMs and one-stage KDFs of
//! draft-ietf-hpke-pq.
//!
//! Two APIs share one implementation:
//!
//! - **Typed**: [`Hpke<K, F, A>`] over zero-sized suite types. Keys are typed per KEM (a key of
//!   another KEM does not compile), Auth modes exist only when `K` is an [`AuthKem`], and
//!   contexts of the [`ExportOnly`] AEAD have no `seal`/`open`.
//! - **Runtime-agile**: [`Suite`], built from [`KemId`], [`KdfId`] and [`AeadId`] (or from
//!   the wire codepoints with [`Suite::from_ids`]), with the same operations; what the typed
//!   API refuses at compile time is a typed [`Error`] here.
//!
//! | KEM | id | KDF | id | AEAD | id |
//! |---|---|---|---|---|---|
//! | `DhKemP256HkdfSha256` (`nist`) | 0x0010 | [`HkdfSha256`] | 0x0001 | [`Aes128Gcm`] | 0x0001 |
//! | `DhKemP384HkdfSha384` (`nist`) | 0x0011 | [`HkdfSha384`] | 0x0002 | [`Aes256Gcm`] | 0x0002 |
//! | `DhKemP521HkdfSha512` (`nist`) | 0x0012 | [`HkdfSha512`] | 0x0003 | [`ChaCha20Poly1305`] | 0x0003 |
//! | `DhKemSecp256k1HkdfSha256` (`secp256k1`) | 0x0016 | [`Shake128`] | 0x0010 | [`ExportOnly`] | 0xFFFF |
//! | [`DhKemX25519HkdfSha256`] | 0x0020 | [`Shake256`] | 0x0011 | | |
//! | `DhKemX448HkdfSha512` (`x448`) | 0x0021 | [`TurboShake128`] | 0x0012 | | |
//! | [`MlKem512`] | 0x0040 | [`TurboShake256`] | 0x0013 | | |
//! | [`MlKem768`] | 0x0041 | | | | |
//! | [`MlKem1024`] | 0x0042 | | | | |
//! | `MlKem768P256` (`nist`) | 0x0050 | | | | |
//! | `MlKem1024P384` (`nist`) | 0x0051 | | | | |
//! | [`XWing`] (MLKEM768-X25519) | 0x647A | | | | |
//!
//! The KEMs marked with a feature (all default on) need more than X25519: P-256 runs on
//! Tessera's own `tessera-p256`, P-384 / P-521 / secp256k1 on RustCrypto's `p384` / `p521` /
//! `k256`, and X448 on Tessera's own ladder over `crypto-bigint`.
//! Every DHKEM has the Auth and AuthPSK modes.
//!
//! # Examples
//!
//! Typed, single-shot:
//!
//! ```
//! use tessera::hpke::{ChaCha20Poly1305, DhKemX25519HkdfSha256, HkdfSha256, Hpke, Kem};
//! type Suite = Hpke<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>;
//!
//! let mut rng = rand::rngs::StdRng::from_seed([7; 32]);
//! # use rand::SeedableRng;
//! let (sk, pk) = DhKemX25519HkdfSha256::generate_key_pair(&mut rng);
//! let (enc, ct) = Suite::seal_base(&pk, b"info", b"aad", b"hello", &mut rng)?;
//! let pt = Suite::open_base(enc.as_ref(), &sk, b"info", b"aad", &ct)?;
//! assert_eq!(pt, b"hello");
//! # Ok::<(), tessera::hpke::Error>(())
//! ```
//!
//! Typed, Auth mode with DHKEM(P-256) (feature `nist`; the Auth functions exist for the
//! DHKEMs only):
//!
//! ```
//! use tessera::hpke::{Aes128Gcm, DhKemP256HkdfSha256, HkdfSha256, Hpke, Kem};
//! type Suite = Hpke<DhKemP256HkdfSha256, HkdfSha256, Aes128Gcm>;
//! # use rand::SeedableRng;
//! let mut rng = rand::rngs::StdRng::from_seed([7; 32]);
//! let (sk_r, pk_r) = DhKemP256HkdfSha256::generate_key_pair(&mut rng);
//! let (sk_s, pk_s) = DhKemP256HkdfSha256::derive_key_pair(b"sender ikm of 32 bytes or more..")?;
//! let (enc, ct) = Suite::seal_auth(&pk_r, b"info", b"aad", b"from S", &sk_s, &mut rng)?;
//! let pt = Suite::open_auth(enc.as_ref(), &sk_r, b"info", b"aad", &ct, &pk_s)?;
//! assert_eq!(pt, b"from S");
//! # Ok::<(), tessera::hpke::Error>(())
//! ```
//!
//! Runtime-agile, with a context:
//!
//! ```
//! use tessera::hpke::Suite;
//! # use rand::SeedableRng;
//! let mut rng = rand::rngs::StdRng::from_seed([7; 32]);
//! // ML-KEM-768, HKDF-SHA256, AES-128-GCM, as read from the wire.
//! let suite = Suite::from_ids(0x0041, 0x0001, 0x0001)?;
//! let (sk, pk) = suite.generate_key_pair(&mut rng)?;
//! let pk = suite.public_key_from_bytes(pk.as_bytes())?;
//! let (enc, mut sender) = suite.setup_sender_base(&pk, b"info", &mut rng)?;
//! let mut receiver = suite.setup_receiver_base(enc.as_ref(), &sk, b"info")?;
//! let mut msg = *b"in place";
//! let tag = sender.seal_in_place_detached(b"aad", &mut msg)?;
//! receiver.open_in_place_detached(b"aad", &mut msg, &tag)?;
//! assert_eq!(&msg, b"in place");
//! # Ok::<(), tessera::hpke::Error>(())
//! ```

/// The KEMs of this crate, one row each: `Name = codepoint, has Auth, cfg, doc`. `Name` is
/// at once the [`KemId`] variant and the KEM's type (re-exported below). Everything that names
/// every KEM is generated from these rows (`$then!` over them): [`KemId`] with `id`, `from_id`
/// and `supports_auth` (`kem_id!`, here), and in `agile::keys` the runtime-agile key enums,
/// the `AgileKem` impls, the visitor that hands the typed KEM of a [`KemId`] to generic code,
/// and the longest `enc`. Adding a KEM = its [`Kem`] impl, its re-export and one row here.
macro_rules! kems {
    ($then:ident) => {
        $then! {
            DhKemX25519HkdfSha256 = 0x0020, true, all(), "DHKEM(X25519, HKDF-SHA256), 0x0020.";
            MlKem512 = 0x0040, false, all(), "ML-KEM-512, 0x0040.";
            MlKem768 = 0x0041, false, all(), "ML-KEM-768, 0x0041.";
            MlKem1024 = 0x0042, false, all(), "ML-KEM-1024, 0x0042.";
            XWing = 0x647A, false, all(), "MLKEM768-X25519 (X-Wing), 0x647A.";
            DhKemP256HkdfSha256 = 0x0010, true, feature = "nist",
                "DHKEM(P-256, HKDF-SHA256), 0x0010 (feature `nist`).";
            DhKemP384HkdfSha384 = 0x0011, true, feature = "nist",
                "DHKEM(P-384, HKDF-SHA384), 0x0011 (feature `nist`).";
            DhKemP521HkdfSha512 = 0x0012, true, feature = "nist",
                "DHKEM(P-521, HKDF-SHA512), 0x0012 (feature `nist`).";
            DhKemSecp256k1HkdfSha256 = 0x0016, true, feature = "secp256k1",
                "DHKEM(secp256k1, HKDF-SHA256), 0x0016 (feature `secp256k1`).";
            DhKemX448HkdfSha512 = 0x0021, true, feature = "x448",
                "DHKEM(X448, HKDF-SHA512), 0x0021 (feature `x448`).";
            MlKem768P256 = 0x0050, false, feature = "nist", "MLKEM768-P256, 0x0050 (feature `nist`).";
            MlKem1024P384 = 0x0051, false, feature = "nist",
                "MLKEM1024-P384, 0x0051 (feature `nist`).";
        }
    };
}

/// [`KemId`] from the [`kems!`] rows.
macro_rules! kem_id {
    ($($name:ident = $id:literal, $auth:literal, $cfg:meta, $doc:literal;)*) => {
        /// KEM codepoints of this crate.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum KemId {
            $(
                #[doc = $doc]
                #[cfg($cfg)]
                $name,
            )*
        }

        impl KemId {
            /// The codepoint.
            pub const fn id(self) -> u16 {
                match self {
                    $(#[cfg($cfg)] KemId::$name => $id,)*
                }
            }

            /// The KEM of a codepoint ([`Error::UnknownKem`] otherwise).
            pub const fn from_id(id: u16) -> Result<Self, Error> {
                Ok(match id {
                    $(#[cfg($cfg)] $id => KemId::$name,)*
                    _ => return Err(Error::UnknownKem(id)),
                })
            }

            /// Whether the KEM has AuthEncap/AuthDecap (the DHKEMs).
            pub const fn supports_auth(self) -> bool {
                match self {
                    $(#[cfg($cfg)] KemId::$name => $auth,)*
                }
            }
        }
    };
}

/// The four modes of RFC 9180, one row each: the mode, the bound on the KEM, the RFC's name,
/// the PSK parameters (if any), the sender's and the recipient's key parameter (Auth modes),
/// then the names of its functions (setup sender, its deterministic form, setup recipient,
/// seal, open, send export, receive export). `$then!` runs once per row: the typed API
/// (`typed_mode!`) and the runtime-agile API (`agile_mode!`) generate every mode function of
/// both roles from these rows.
macro_rules! modes {
    ($then:ident) => {
        $then! { Base, Kem, "Base", [], [], [],
        setup_sender_base, setup_sender_base_derand, setup_receiver_base,
        seal_base, open_base, send_export_base, receive_export_base }
        $then! { Psk, Kem, "PSK", [psk psk_id], [], [],
        setup_sender_psk, setup_sender_psk_derand, setup_receiver_psk,
        seal_psk, open_psk, send_export_psk, receive_export_psk }
        $then! { Auth, AuthKem, "Auth", [], [sk_s], [pk_s],
        setup_sender_auth, setup_sender_auth_derand, setup_receiver_auth,
        seal_auth, open_auth, send_export_auth, receive_export_auth }
        $then! { AuthPsk, AuthKem, "AuthPSK", [psk psk_id], [sk_s], [pk_s],
        setup_sender_auth_psk, setup_sender_auth_psk_derand, setup_receiver_auth_psk,
        seal_auth_psk, open_auth_psk, send_export_auth_psk, receive_export_auth_psk }
    };
}

/// `(psk, psk_id)` of a mode row, `(&[], &[])` for a mode without PSK.
macro_rules! psk_pair {
    ($psk:ident $psk_id:ident) => {
        ($psk, $psk_id)
    };
    () => {
        (&[][..], &[][..])
    };
}

/// `Some(key)` of a mode row's key parameter, `None` for a mode without Auth.
macro_rules! auth_key {
    ($k:ident) => {
        Some($k)
    };
    () => {
        None
    };
}

mod agile;
mod context;
mod dhkem;
#[cfg(feature = "nist")]
mod hybrid;
// Every match over a KDF, AEAD or KEM id names each id: a newly added one fails to compile
// instead of running as another (clippy enforces it for the KDF code).
#[deny(clippy::wildcard_enum_match_arm)]
mod kdf;
mod kem;
mod scrub;
mod typed;

pub use agile::{AgileEncappedKey, AgilePrivateKey, AgilePublicKey, Suite};
pub use context::{AgileReceiverContext, AgileSenderContext, ReceiverContext, SenderContext, Tag};
pub use dhkem::x25519::{DhKemX25519HkdfSha256, X25519PrivateKey, X25519PublicKey};
pub use kem::{
    MlKem512, MlKem512PrivateKey, MlKem512PublicKey, MlKem768, MlKem768PrivateKey,
    MlKem768PublicKey, MlKem1024, MlKem1024PrivateKey, MlKem1024PublicKey, SharedSecret, XWing,
    XWingPrivateKey, XWingPublicKey,
};
pub use typed::Hpke;

#[cfg(all(
    tessera_test_hooks,
    any(feature = "nist", feature = "secp256k1", feature = "x448")
))]
#[doc(hidden)]
pub use dhkem::curves::{__derive_key_pair_counter, __dh};
#[cfg(feature = "nist")]
pub use dhkem::curves::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, P256PrivateKey, P256PublicKey,
    P384PrivateKey, P384PublicKey, P521PrivateKey, P521PublicKey,
};
#[cfg(feature = "secp256k1")]
pub use dhkem::curves::{DhKemSecp256k1HkdfSha256, Secp256k1PrivateKey, Secp256k1PublicKey};
#[cfg(feature = "x448")]
pub use dhkem::curves::{DhKemX448HkdfSha512, X448PrivateKey, X448PublicKey};
#[cfg(any(feature = "nist", feature = "secp256k1", feature = "x448"))]
pub use dhkem::curves::{DhPrivateKey, DhPublicKey};
#[cfg(feature = "nist")]
pub use hybrid::{
    MlKem768P256, MlKem768P256PrivateKey, MlKem768P256PublicKey, MlKem1024P384,
    MlKem1024P384PrivateKey, MlKem1024P384PublicKey,
};

/// A decision computed from secret data whose outcome is public by design (the all-zero check
/// of a Diffie-Hellman output, RFC 9180 section 7.1.4: the output is zero exactly for a peer
/// key of small order, which depends on that public key alone): see
/// [`tessera_cpu::public_bool`].
pub(crate) use tessera_cpu::public_bool;

/// Errors of HPKE. Every failure is one of these; nothing panics on bad input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A public key of the wrong length or failing its KEM's validation (the FIPS 203
    /// modulus check for ML-KEM).
    InvalidPublicKey,
    /// A private key of the wrong length.
    InvalidPrivateKey,
    /// An encapsulated key (`enc`) of the wrong length or encoding.
    InvalidEncappedKey,
    /// A Diffie-Hellman result of all zeros (X25519, X448: a small-order public key) or the
    /// point at infinity (the prime-order curves).
    NonContributory,
    /// Auth or AuthPSK with a KEM that has no authenticated encapsulation.
    UnsupportedMode,
    /// An unknown KEM codepoint.
    UnknownKem(u16),
    /// An unknown KDF codepoint.
    UnknownKdf(u16),
    /// An unknown AEAD codepoint.
    UnknownAead(u16),
    /// A key of another KEM than the suite's (runtime-agile API).
    KemMismatch,
    /// `psk` and `psk_id` not both present (PSK modes) or not both absent (other modes).
    InconsistentPsk,
    /// A PSK shorter than 32 bytes.
    PskTooShort,
    /// `info`, `psk` or `psk_id` over 65,535 bytes with a one-stage KDF.
    InputTooLong,
    /// Deterministic encapsulation randomness (`ikmE`) of the wrong length for this KEM
    /// (ML-KEM takes 32 bytes, X-Wing 64, MLKEM768-P256 128, MLKEM1024-P384 80; a DHKEM takes
    /// any length). Only the derandomized entry points of test builds
    /// (`--cfg tessera_test_hooks`) take such input.
    InvalidRandomnessLength,
    /// An export longer than the KDF allows (`255 * Nh` for HKDF, 65,535 bytes otherwise).
    ExportTooLong,
    /// `seal` or `open` on a context of the export-only AEAD.
    ExportOnly,
    /// The sequence number is at its limit: no further message can be sealed or opened.
    MessageLimitReached,
    /// A message or associated data longer than the AEAD allows.
    MessageTooLong,
    /// The ciphertext did not authenticate.
    OpenError,
    /// `DeriveKeyPair` found no valid key (rejection sampling ran out of counters), or the
    /// scalar candidates of a NIST hybrid's encapsulation randomness were all outside
    /// `[1, n)` (`RandomScalar` failed: with random bytes, probability below 2^-96).
    DeriveKeyPair,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::InvalidPublicKey => f.write_str("invalid HPKE public key"),
            Error::InvalidPrivateKey => f.write_str("invalid HPKE private key"),
            Error::InvalidEncappedKey => f.write_str("invalid HPKE encapsulated key"),
            Error::NonContributory => f.write_str("all-zero Diffie-Hellman result"),
            Error::UnsupportedMode => f.write_str("this KEM has no Auth or AuthPSK mode"),
            Error::UnknownKem(id) => write!(f, "unknown HPKE KEM id {id:#06x}"),
            Error::UnknownKdf(id) => write!(f, "unknown HPKE KDF id {id:#06x}"),
            Error::UnknownAead(id) => write!(f, "unknown HPKE AEAD id {id:#06x}"),
            Error::KemMismatch => f.write_str("key belongs to another KEM than the suite's"),
            Error::InconsistentPsk => {
                f.write_str("psk and psk_id must be both present or both absent as the mode says")
            }
            Error::PskTooShort => f.write_str("psk shorter than 32 bytes"),
            Error::InputTooLong => f.write_str("info, psk or psk_id over 65535 bytes"),
            Error::InvalidRandomnessLength => {
                f.write_str("encapsulation randomness of the wrong length")
            }
            Error::ExportTooLong => f.write_str("export length over the KDF's limit"),
            Error::ExportOnly => f.write_str("seal/open on an export-only context"),
            Error::MessageLimitReached => f.write_str("HPKE sequence number at its limit"),
            Error::MessageTooLong => f.write_str("message or aad too long for the AEAD"),
            Error::OpenError => f.write_str("HPKE open failed"),
            Error::DeriveKeyPair => f.write_str("DeriveKeyPair failed"),
        }
    }
}

impl core::error::Error for Error {}

kems!(kem_id);

/// KDF codepoints of this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KdfId {
    /// HKDF-SHA256, 0x0001.
    HkdfSha256,
    /// HKDF-SHA384, 0x0002.
    HkdfSha384,
    /// HKDF-SHA512, 0x0003.
    HkdfSha512,
    /// SHAKE128 (one-stage), 0x0010.
    Shake128,
    /// SHAKE256 (one-stage), 0x0011.
    Shake256,
    /// TurboSHAKE128 (one-stage), 0x0012.
    TurboShake128,
    /// TurboSHAKE256 (one-stage), 0x0013.
    TurboShake256,
}

impl KdfId {
    /// The codepoint.
    pub const fn id(self) -> u16 {
        match self {
            KdfId::HkdfSha256 => 0x0001,
            KdfId::HkdfSha384 => 0x0002,
            KdfId::HkdfSha512 => 0x0003,
            KdfId::Shake128 => 0x0010,
            KdfId::Shake256 => 0x0011,
            KdfId::TurboShake128 => 0x0012,
            KdfId::TurboShake256 => 0x0013,
        }
    }

    /// The KDF of a codepoint ([`Error::UnknownKdf`] otherwise).
    pub const fn from_id(id: u16) -> Result<Self, Error> {
        Ok(match id {
            0x0001 => KdfId::HkdfSha256,
            0x0002 => KdfId::HkdfSha384,
            0x0003 => KdfId::HkdfSha512,
            0x0010 => KdfId::Shake128,
            0x0011 => KdfId::Shake256,
            0x0012 => KdfId::TurboShake128,
            0x0013 => KdfId::TurboShake256,
            _ => return Err(Error::UnknownKdf(id)),
        })
    }

    /// `Nh`: the HKDF hash length, or the security strength in bytes of a one-stage KDF.
    pub const fn nh(self) -> usize {
        match self {
            KdfId::HkdfSha256 | KdfId::Shake128 | KdfId::TurboShake128 => 32,
            KdfId::HkdfSha384 => 48,
            KdfId::HkdfSha512 | KdfId::Shake256 | KdfId::TurboShake256 => 64,
        }
    }

    /// Whether this is a one-stage KDF (`Derive`, not `Extract`/`Expand`).
    pub const fn is_one_stage(self) -> bool {
        match self {
            KdfId::HkdfSha256 | KdfId::HkdfSha384 | KdfId::HkdfSha512 => false,
            KdfId::Shake128 | KdfId::Shake256 | KdfId::TurboShake128 | KdfId::TurboShake256 => true,
        }
    }
}

/// AEAD codepoints of this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AeadId {
    /// AES-128-GCM, 0x0001.
    Aes128Gcm,
    /// AES-256-GCM, 0x0002.
    Aes256Gcm,
    /// ChaCha20Poly1305, 0x0003.
    ChaCha20Poly1305,
    /// Export-only, 0xFFFF.
    ExportOnly,
}

impl AeadId {
    /// The codepoint.
    pub const fn id(self) -> u16 {
        match self {
            AeadId::Aes128Gcm => 0x0001,
            AeadId::Aes256Gcm => 0x0002,
            AeadId::ChaCha20Poly1305 => 0x0003,
            AeadId::ExportOnly => 0xFFFF,
        }
    }

    /// The AEAD of a codepoint ([`Error::UnknownAead`] otherwise).
    pub const fn from_id(id: u16) -> Result<Self, Error> {
        Ok(match id {
            0x0001 => AeadId::Aes128Gcm,
            0x0002 => AeadId::Aes256Gcm,
            0x0003 => AeadId::ChaCha20Poly1305,
            0xFFFF => AeadId::ExportOnly,
            _ => return Err(Error::UnknownAead(id)),
        })
    }

    /// `Nk` (0 for export-only).
    pub const fn nk(self) -> usize {
        match self {
            AeadId::Aes128Gcm => 16,
            AeadId::Aes256Gcm | AeadId::ChaCha20Poly1305 => 32,
            AeadId::ExportOnly => 0,
        }
    }

    /// `Nn` (0 for export-only).
    pub const fn nn(self) -> usize {
        match self {
            AeadId::ExportOnly => 0,
            AeadId::Aes128Gcm | AeadId::Aes256Gcm | AeadId::ChaCha20Poly1305 => 12,
        }
    }
}

/// The HPKE modes (RFC 9180 section 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Mode {
    Base = 0,
    Psk = 1,
    Auth = 2,
    AuthPsk = 3,
}

pub(crate) mod sealed {
    pub trait Sealed {}
}

/// An HPKE KDF of this crate (the marker types [`HkdfSha256`] ... [`TurboShake256`]).
pub trait Kdf: sealed::Sealed {
    /// Its codepoint.
    const ID: KdfId;
}

/// An HPKE AEAD of this crate (the marker types [`Aes128Gcm`], [`Aes256Gcm`],
/// [`ChaCha20Poly1305`], [`ExportOnly`]).
pub trait Aead: sealed::Sealed {
    /// Its codepoint.
    const ID: AeadId;
}

/// An AEAD that encrypts (every [`Aead`] but [`ExportOnly`]): contexts over it have
/// `seal` / `open`.
pub trait SealingAead: Aead {}

macro_rules! marker {
    ($(#[$doc:meta])* $name:ident, $tr:ident, $ty:ident :: $v:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl $tr for $name {
            const ID: $ty = $ty::$v;
        }
    };
}

marker!(/// HKDF-SHA256 (0x0001).
    HkdfSha256, Kdf, KdfId::HkdfSha256);
marker!(/// HKDF-SHA384 (0x0002).
    HkdfSha384, Kdf, KdfId::HkdfSha384);
marker!(/// HKDF-SHA512 (0x0003).
    HkdfSha512, Kdf, KdfId::HkdfSha512);
marker!(/// SHAKE128 as a one-stage KDF (0x0010).
    Shake128, Kdf, KdfId::Shake128);
marker!(/// SHAKE256 as a one-stage KDF (0x0011).
    Shake256, Kdf, KdfId::Shake256);
marker!(/// TurboSHAKE128 as a one-stage KDF (0x0012).
    TurboShake128, Kdf, KdfId::TurboShake128);
marker!(/// TurboSHAKE256 as a one-stage KDF (0x0013).
    TurboShake256, Kdf, KdfId::TurboShake256);
marker!(/// AES-128-GCM (0x0001).
    Aes128Gcm, Aead, AeadId::Aes128Gcm);
marker!(/// AES-256-GCM (0x0002).
    Aes256Gcm, Aead, AeadId::Aes256Gcm);
marker!(/// ChaCha20Poly1305 (0x0003).
    ChaCha20Poly1305, Aead, AeadId::ChaCha20Poly1305);
marker!(/// The export-only AEAD (0xFFFF): contexts export secrets and have no `seal`/`open`.
    ExportOnly, Aead, AeadId::ExportOnly);

impl SealingAead for Aes128Gcm {}
impl SealingAead for Aes256Gcm {}
impl SealingAead for ChaCha20Poly1305 {}

/// An HPKE KEM of this crate. Keys are typed per KEM; the encapsulation entry points are
/// used through [`Hpke`] and public for use on their own. Every encapsulation draws fresh
/// randomness from the caller's RNG: the derandomized forms of the test vectors (a given
/// `ikmE`) exist only in this workspace's test builds (`--cfg tessera_test_hooks`), since
/// a repeated `ikmE` repeats the AEAD key and nonce.
pub trait Kem: sealed::Sealed + Sized {
    /// Its codepoint.
    const ID: KemId;
    /// `Nsecret`: length of the KEM shared secret.
    const N_SECRET: usize;
    /// `Nenc`: length of an encapsulated key.
    const N_ENC: usize;
    /// `Npk`: length of a serialized public key.
    const N_PK: usize;
    /// `Nsk`: length of a serialized private key.
    const N_SK: usize;
    /// Length of the randomness one encapsulation draws.
    const N_RANDOM: usize;
    /// A parsed, validated public key.
    type PublicKey: Clone + core::fmt::Debug + PartialEq;
    /// A private key with what decapsulation needs cached (its public key, expanded forms);
    /// wiped on drop.
    type PrivateKey;
    /// An encapsulated key, `[u8; N_ENC]`.
    type EncappedKey: AsRef<[u8]> + Clone + core::fmt::Debug + PartialEq;

    /// `GenerateKeyPair()`: a fresh key pair from `rng`.
    fn generate_key_pair(
        rng: &mut impl rand_core::CryptoRng,
    ) -> (Self::PrivateKey, Self::PublicKey);
    /// `DeriveKeyPair(ikm)`: the key pair determined by `ikm` (which should hold at least
    /// `Nsk` bytes of entropy).
    fn derive_key_pair(ikm: &[u8]) -> Result<(Self::PrivateKey, Self::PublicKey), Error>;
    /// `DeserializePublicKey` with validation.
    fn public_key_from_bytes(bytes: &[u8]) -> Result<Self::PublicKey, Error>;
    /// `SerializePublicKey`.
    fn public_key_to_bytes(pk: &Self::PublicKey) -> &[u8];
    /// `DeserializePrivateKey`.
    fn private_key_from_bytes(bytes: &[u8]) -> Result<Self::PrivateKey, Error>;
    /// `SerializePrivateKey` (secret bytes: wipe copies of them).
    fn private_key_to_bytes(sk: &Self::PrivateKey) -> &[u8];
    /// The public key of a private key (cached, no computation).
    fn public_key(sk: &Self::PrivateKey) -> &Self::PublicKey;
    /// `Encap(pkR)` with randomness from `rng` (`N_RANDOM` bytes are drawn).
    fn encap(
        pk: &Self::PublicKey,
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(SharedSecret, Self::EncappedKey), Error>;
    /// `Encap(pkR)` with `N_RANDOM` bytes of randomness taken as given (a DHKEM takes them as
    /// the ephemeral private key). Test builds only (`--cfg tessera_test_hooks`): reusing
    /// the randomness reuses the AEAD key and nonce.
    #[cfg(tessera_test_hooks)]
    #[doc(hidden)]
    fn encap_with_randomness(
        pk: &Self::PublicKey,
        randomness: &[u8],
    ) -> Result<(SharedSecret, Self::EncappedKey), Error>;
    /// `Encap(pkR)` made deterministic by `ikmE`, as in the test vectors: a DHKEM derives
    /// its ephemeral key pair with `DeriveKeyPair(ikmE)`; ML-KEM takes `ikmE` as its 32-byte
    /// `m`, X-Wing as its 64-byte `eseed`, a NIST hybrid as `m` then its scalar candidates
    /// ([`Error::DeriveKeyPair`] when none is in `[1, n)`). Test builds only
    /// (`--cfg tessera_test_hooks`).
    #[cfg(tessera_test_hooks)]
    #[doc(hidden)]
    fn encap_derand(
        pk: &Self::PublicKey,
        ikm_e: &[u8],
    ) -> Result<(SharedSecret, Self::EncappedKey), Error>;
    /// `Decap(enc, skR)`.
    fn decap(enc: &[u8], sk: &Self::PrivateKey) -> Result<SharedSecret, Error>;
}

/// A KEM with authenticated encapsulation (`AuthEncap` / `AuthDecap`, RFC 9180 section
/// 4.1): the DHKEMs. Only these have the Auth and AuthPSK modes in the typed API.
pub trait AuthKem: Kem {
    /// `AuthEncap(pkR, skS)` with randomness from `rng`.
    fn auth_encap(
        pk_r: &Self::PublicKey,
        sk_s: &Self::PrivateKey,
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(SharedSecret, Self::EncappedKey), Error>;
    /// `AuthEncap(pkR, skS)` with the ephemeral private key given. Test builds only.
    #[cfg(tessera_test_hooks)]
    #[doc(hidden)]
    fn auth_encap_with_randomness(
        pk_r: &Self::PublicKey,
        sk_s: &Self::PrivateKey,
        randomness: &[u8],
    ) -> Result<(SharedSecret, Self::EncappedKey), Error>;
    /// `AuthEncap(pkR, skS)` with the ephemeral key pair `DeriveKeyPair(ikmE)`. Test builds
    /// only.
    #[cfg(tessera_test_hooks)]
    #[doc(hidden)]
    fn auth_encap_derand(
        pk_r: &Self::PublicKey,
        sk_s: &Self::PrivateKey,
        ikm_e: &[u8],
    ) -> Result<(SharedSecret, Self::EncappedKey), Error>;
    /// `AuthDecap(enc, skR, pkS)`.
    fn auth_decap(
        enc: &[u8],
        sk_r: &Self::PrivateKey,
        pk_s: &Self::PublicKey,
    ) -> Result<SharedSecret, Error>;
}

/// The ciphersuite identifiers of a key schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ids {
    pub(crate) kem: KemId,
    pub(crate) kdf: KdfId,
    pub(crate) aead: AeadId,
}

impl Ids {
    /// `suite_id = "HPKE" || kem_id || kdf_id || aead_id`.
    pub(crate) fn suite_id(&self) -> [u8; 10] {
        let mut s = *b"HPKE\0\0\0\0\0\0";
        s[4..6].copy_from_slice(&self.kem.id().to_be_bytes());
        s[6..8].copy_from_slice(&self.kdf.id().to_be_bytes());
        s[8..10].copy_from_slice(&self.aead.id().to_be_bytes());
        s
    }
}

/// `VerifyPSKInputs` plus the length rules: both or neither of `psk`/`psk_id` as the mode
/// says, a PSK of at least 32 bytes, and the one-stage 65,535-byte limit on `info`, `psk`,
/// `psk_id`. Checked before any public-key work.
pub(crate) fn verify_inputs(
    ids: Ids,
    mode: Mode,
    info: &[u8],
    psk: &[u8],
    psk_id: &[u8],
) -> Result<(), Error> {
    let got_psk = !psk.is_empty();
    let got_psk_id = !psk_id.is_empty();
    let psk_mode = matches!(mode, Mode::Psk | Mode::AuthPsk);
    if got_psk != got_psk_id || got_psk != psk_mode {
        return Err(Error::InconsistentPsk);
    }
    if got_psk && psk.len() < 32 {
        return Err(Error::PskTooShort);
    }
    if ids.kdf.is_one_stage()
        && (info.len() > 0xFFFF || psk.len() > 0xFFFF || psk_id.len() > 0xFFFF)
    {
        return Err(Error::InputTooLong);
    }
    Ok(())
}

/// Small enough for Miri (the `miri` legs run these): one X25519 suite end to end, one
/// one-stage KDF, the PSK rules.
#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed-output "RNG" for the unit tests (rand is a dev-dependency of the integration
    /// tests; here the bytes only need to differ between calls).
    pub(super) struct Counter(pub(super) u8);
    impl rand_core::TryRng for Counter {
        type Error = core::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            let mut b = [0u8; 4];
            self.try_fill_bytes(&mut b)?;
            Ok(u32::from_le_bytes(b))
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            let mut b = [0u8; 8];
            self.try_fill_bytes(&mut b)?;
            Ok(u64::from_le_bytes(b))
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            for b in dst {
                self.0 = self.0.wrapping_mul(73).wrapping_add(41);
                *b = self.0;
            }
            Ok(())
        }
    }
    impl rand_core::TryCryptoRng for Counter {}

    #[test]
    fn x25519_chacha_round_trip_and_export() {
        type K = DhKemX25519HkdfSha256;
        type H = Hpke<K, HkdfSha256, ChaCha20Poly1305>;
        let mut rng = Counter(1);
        let (sk, pk) = K::generate_key_pair(&mut rng);
        let (enc, mut s) = H::setup_sender_base(&pk, b"info", &mut rng).unwrap();
        let mut r = H::setup_receiver_base(enc.as_ref(), &sk, b"info").unwrap();
        let mut buf = *b"miri message";
        let tag = s.seal_in_place_detached(b"aad", &mut buf).unwrap();
        assert_ne!(&buf, b"miri message");
        r.open_in_place_detached(b"aad", &mut buf, &tag).unwrap();
        assert_eq!(&buf, b"miri message");
        let mut bad = tag;
        bad[0] ^= 1;
        assert_eq!(
            r.open_in_place_detached(b"aad", &mut buf, &bad),
            Err(Error::OpenError)
        );
        let (mut a, mut b) = ([0u8; 40], [0u8; 40]);
        s.export(b"ctx", &mut a).unwrap();
        r.export(b"ctx", &mut b).unwrap();
        assert_eq!(a, b);
        // The sender's and receiver's DH agree only with the right key.
        let (other, _) = K::generate_key_pair(&mut rng);
        let r2 = H::setup_receiver_base(enc.as_ref(), &other, b"info").unwrap();
        let mut c = [0u8; 40];
        r2.export(b"ctx", &mut c).unwrap();
        assert_ne!(a, c);
    }

    #[test]
    fn one_stage_export_and_psk_rules() {
        type K = DhKemX25519HkdfSha256;
        type H = Hpke<K, TurboShake128, ExportOnly>;
        let mut rng = Counter(9);
        let (sk, pk) = K::generate_key_pair(&mut rng);
        let psk = [7u8; 32];
        let mut a = [0u8; 24];
        let enc = H::send_export_psk(&pk, b"", &psk, b"id", b"c", &mut a, &mut rng).unwrap();
        let mut b = [0u8; 24];
        H::receive_export_psk(enc.as_ref(), &sk, b"", &psk, b"id", b"c", &mut b).unwrap();
        assert_eq!(a, b);
        let mut c = [0u8; 24];
        assert_eq!(
            H::receive_export_psk(enc.as_ref(), &sk, b"", &psk[..31], b"id", b"c", &mut c),
            Err(Error::PskTooShort)
        );
        assert_eq!(
            H::receive_export_psk(enc.as_ref(), &sk, b"", &psk, b"", b"c", &mut c),
            Err(Error::InconsistentPsk)
        );
        assert_eq!(c, [0u8; 24]);
    }
}
