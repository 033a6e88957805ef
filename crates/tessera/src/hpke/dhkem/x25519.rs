//! DHKEM(X25519, HKDF-SHA256) (RFC 9180 section 4.1) over Tessera's X25519: the generic DHKEM
//! code of the parent module with X25519's own key types, whose private keys are built in
//! place and whose key-building operations run under the stack scrub ([`DhGroup::guarded`]):
//! `tests/wipe.rs` checks that no copy of a private key is left behind.

use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use super::DhGroup;
use crate::hpke::kdf::Hkdf;
use crate::hpke::{Error, KemId};

/// DHKEM(X25519, HKDF-SHA256), KEM 0x0020: `Nsecret = Nenc = Npk = Nsk = 32`, with Auth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DhKemX25519HkdfSha256;

/// An X25519 public key (every 32-byte string is one, RFC 7748; small-order keys fail at the
/// Diffie-Hellman step with [`Error::NonContributory`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct X25519PublicKey([u8; 32]);

impl X25519PublicKey {
    /// The key from its 32 bytes ([`Error::InvalidPublicKey`] on another length).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        bytes
            .try_into()
            .map(Self)
            .map_err(|_| Error::InvalidPublicKey)
    }
    /// The 32 bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

/// An X25519 private key with its public key cached. Wiped on drop.
///
/// `Clone` is kept: an [`crate::hpke::AgilePrivateKey`] holding it is `Clone` for callers
/// that keep one key in several places (each copy is wiped on its own drop).
#[derive(Clone)]
pub struct X25519PrivateKey {
    sk: [u8; 32],
    pk: X25519PublicKey,
}

impl X25519PrivateKey {
    /// An all-zero key, filled in place by [`Self::fill`].
    const ZERO: Self = Self {
        sk: [0; 32],
        pk: X25519PublicKey([0; 32]),
    };

    /// `out` (holding [`Self::ZERO`]) made the key `sk` with public key `pk`. Everything that
    /// can fail or call out is done before `out` exists, so the compiler builds `out` in the
    /// caller's return slot: no struct is built in a temporary and moved, which would leave a
    /// copy of the secret in this frame (`tests/wipe.rs` checks it).
    #[inline(always)]
    fn fill(k: &mut Self, sk: &[u8; 32], pk: [u8; 32]) {
        k.sk = *sk;
        k.pk = X25519PublicKey(pk);
    }

    /// The key of the secret `sk`, built in the caller's slot (see [`Self::fill`]).
    #[inline(always)]
    fn of(sk: &[u8; 32]) -> Self {
        let mut pk = [0u8; 32];
        tessera_x25519::x25519_base_into(sk, &mut pk);
        let mut out = Self::ZERO;
        Self::fill(&mut out, sk, pk);
        out
    }

    /// The key from its 32 bytes ([`Error::InvalidPrivateKey`] on another length). Clamping
    /// happens in each scalar multiplication, so clamped and unclamped forms are one key.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        scrubbed(|| Self::from_bytes_unscrubbed(bytes))
    }

    fn from_bytes_unscrubbed(bytes: &[u8]) -> Result<Self, Error> {
        let sk: &[u8; 32] = bytes.try_into().map_err(|_| Error::InvalidPrivateKey)?;
        let mut pk = [0u8; 32];
        tessera_x25519::x25519_base_into(sk, &mut pk);
        let mut out = Ok(Self::ZERO);
        if let Ok(k) = &mut out {
            Self::fill(k, sk, pk);
        }
        out
    }

    /// The 32 secret bytes, as given or derived.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.sk
    }
    /// The public key.
    pub fn public_key(&self) -> &X25519PublicKey {
        &self.pk
    }
}

impl Drop for X25519PrivateKey {
    fn drop(&mut self) {
        self.sk.zeroize();
    }
}

impl core::fmt::Debug for X25519PrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("X25519PrivateKey")
            .field("pk", &self.pk)
            .finish_non_exhaustive()
    }
}

impl DhGroup for DhKemX25519HkdfSha256 {
    const KEM: KemId = KemId::DhKemX25519HkdfSha256;
    const KDF: Hkdf = Hkdf::Sha256;
    const N_SECRET: usize = 32;
    const N_PK: usize = 32;
    const N_SK: usize = 32;
    const N_DH: usize = 32;
    const BITMASK: Option<u8> = None;
    type Scalar = [u8; 32];
    type Point = [u8; 32];
    type PublicKey = X25519PublicKey;
    type PrivateKey = X25519PrivateKey;

    fn scalar_from_bytes(bytes: &[u8]) -> Option<Self::Scalar> {
        bytes.try_into().ok()
    }
    fn scalar_to_bytes(s: &Self::Scalar, out: &mut [u8]) {
        out.copy_from_slice(s);
    }
    fn point_from_bytes(bytes: &[u8]) -> Option<Self::Point> {
        bytes.try_into().ok()
    }
    fn point_to_bytes(p: &Self::Point, out: &mut [u8]) {
        out.copy_from_slice(p);
    }
    fn base_mul(s: &Self::Scalar) -> Self::Point {
        let mut pk = [0u8; 32];
        tessera_x25519::x25519_base_into(s, &mut pk);
        pk
    }
    /// X25519 with the all-zero check in constant time.
    fn dh(s: &Self::Scalar, p: &Self::Point, out: &mut [u8]) -> Result<(), Error> {
        let out: &mut [u8; 32] = out.try_into().expect("Ndh bytes");
        tessera_x25519::x25519_into(s, p, out);
        if crate::hpke::public_bool(bool::from(out.ct_eq(&[0u8; 32]))) {
            return Err(Error::NonContributory);
        }
        Ok(())
    }

    fn guarded<T>(f: impl FnOnce() -> T) -> T {
        scrubbed(f)
    }
    #[inline(always)]
    fn private_key(s: Self::Scalar) -> Self::PrivateKey {
        X25519PrivateKey::of(&s)
    }
    fn point(pk: &Self::PublicKey) -> &Self::Point {
        &pk.0
    }
    fn public_bytes(pk: &Self::PublicKey) -> &[u8] {
        &pk.0
    }
    fn scalar(sk: &Self::PrivateKey) -> &Self::Scalar {
        &sk.sk
    }
    fn public_of(sk: &Self::PrivateKey) -> &Self::PublicKey {
        &sk.pk
    }
}

dh_kem!(DhKemX25519HkdfSha256, X25519PublicKey, X25519PrivateKey, 32);

crate::hpke::scrub::scrub_stack_here!(u8, 1024);

/// `f()` run in a frame of its own, then [`scrub_stack`]: for the operations that build X25519
/// private keys (the frames above the X25519 crate, which wipes its own). Defined beside its
/// callers, as `scrub_stack` is: as functions of another module they leave a copy of the key
/// where `tests/wipe.rs` finds it.
fn scrubbed<T>(f: impl FnOnce() -> T) -> T {
    #[inline(never)]
    fn in_frame<T>(f: impl FnOnce() -> T) -> T {
        f()
    }
    let r = in_frame(f);
    scrub_stack();
    r
}
