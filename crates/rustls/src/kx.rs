//! Key-exchange groups: X25519MLKEM768, X25519, secp256r1, secp384r1, MLKEM768 and MLKEM1024.
//!
//! Every peer share is checked before use: its length, the ML-KEM encapsulation key's modulus
//! check (FIPS 203 section 7.2), the P-256 and P-384 points' encoding and curve equation
//! (uncompressed SEC 1 only, as RFC 8446 section 4.2.8.2 requires), and a non-zero X25519 result (RFC 8446
//! section 7.4.2). A failed check is `PeerMisbehaved::InvalidKeyShare`, never a panic.
//! Ephemeral secrets come from the operating system (`getrandom`) and are wiped on drop (by
//! the primitive crates' key types; seeds and shared secrets held here are wiped explicitly).
#![forbid(unsafe_code)]

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::convert::Infallible;

use rustls::crypto::{ActiveKeyExchange, CompletedKeyExchange, SharedSecret, SupportedKxGroup};
use rustls::{Error, NamedGroup, PeerMisbehaved, ProtocolVersion};
use tessera_mlkem::generic::{Ciphertext, DecapsulationKey, EncapsulationKey, SEED_LEN};
use tessera_mlkem::{MlKem768, MlKem1024, ml_kem_768, ml_kem_1024};
use zeroize::Zeroizing;

/// The X25519MLKEM768 hybrid (0x11EC, draft-ietf-tls-ecdhe-mlkem): shares and secret put the
/// ML-KEM-768 part first, then X25519.
pub static X25519MLKEM768: &dyn SupportedKxGroup = &Hybrid;
/// X25519 (RFC 7748, RFC 8446).
pub static X25519: &dyn SupportedKxGroup = &X25519Group;
/// secp256r1 (NIST P-256) ECDHE with uncompressed points.
pub static SECP256R1: &dyn SupportedKxGroup = &P256Group;
/// secp384r1 (NIST P-384) ECDHE with uncompressed points, on RustCrypto's `p384` (Tessera has
/// no P-384 of its own).
pub static SECP384R1: &dyn SupportedKxGroup = &P384Group;
/// ML-KEM-768 alone (0x0201, draft-ietf-tls-mlkem).
pub static MLKEM768: &dyn SupportedKxGroup = &MlKem::<MlKem768>::GROUP;
/// ML-KEM-1024 alone (0x0202, draft-ietf-tls-mlkem).
pub static MLKEM1024: &dyn SupportedKxGroup = &MlKem::<MlKem1024>::GROUP;

fn bad_share() -> Error {
    Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare)
}

fn random<const N: usize>() -> Result<Zeroizing<[u8; N]>, Error> {
    let mut b = Zeroizing::new([0u8; N]);
    getrandom::fill(b.as_mut()).map_err(|_| Error::FailedToGetRandomBytes)?;
    Ok(b)
}

// ---------------------------------------------------------------------------------------------
// X25519

#[derive(Debug)]
struct X25519Group;

/// An X25519 key pair: the secret scalar (wiped on drop) and its public key.
struct X25519Pair {
    secret: tessera_x25519::StaticSecret,
    public: [u8; 32],
}

impl X25519Pair {
    fn generate() -> Result<Self, Error> {
        let secret = tessera_x25519::StaticSecret::from(*random::<32>()?);
        let public = tessera_x25519::PublicKey::from(&secret).to_bytes();
        Ok(Self { secret, public })
    }

    /// The shared secret with `peer` (32 bytes, else an error); an all-zero result (a
    /// small-order peer point) is refused.
    fn agree(&self, peer: &[u8]) -> Result<Zeroizing<[u8; 32]>, Error> {
        let peer = tessera_x25519::PublicKey::try_from(peer).map_err(|_| bad_share())?;
        let ss = self.secret.diffie_hellman(&peer).map_err(|_| bad_share())?;
        Ok(Zeroizing::new(*ss.as_bytes()))
    }
}

impl SupportedKxGroup for X25519Group {
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, Error> {
        Ok(Box::new(X25519Pair::generate()?))
    }

    fn name(&self) -> NamedGroup {
        NamedGroup::X25519
    }
}

impl ActiveKeyExchange for X25519Pair {
    fn complete(self: Box<Self>, peer_pub_key: &[u8]) -> Result<SharedSecret, Error> {
        let ss = self.agree(peer_pub_key)?;
        Ok(SharedSecret::from(&ss[..]))
    }

    fn pub_key(&self) -> &[u8] {
        &self.public
    }

    fn group(&self) -> NamedGroup {
        NamedGroup::X25519
    }
}

// ---------------------------------------------------------------------------------------------
// secp256r1

#[derive(Debug)]
struct P256Group;

struct P256Pair {
    secret: tessera_p256::SecretKey,
    public: [u8; 65],
}

impl SupportedKxGroup for P256Group {
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, Error> {
        let secret = tessera_p256::SecretKey::try_random(&mut getrandom::SysRng)
            .map_err(|_| Error::FailedToGetRandomBytes)?;
        let public = secret.public_key().to_uncompressed();
        Ok(Box::new(P256Pair { secret, public }))
    }

    fn name(&self) -> NamedGroup {
        NamedGroup::secp256r1
    }
}

impl ActiveKeyExchange for P256Pair {
    fn complete(self: Box<Self>, peer_pub_key: &[u8]) -> Result<SharedSecret, Error> {
        // RFC 8446 section 4.2.8.2: only the uncompressed form (65 bytes, 0x04 first);
        // `from_sec1_bytes` then checks the coordinates are below p and on the curve.
        if peer_pub_key.len() != 65 || peer_pub_key[0] != 4 {
            return Err(bad_share());
        }
        let peer =
            tessera_p256::PublicKey::from_sec1_bytes(peer_pub_key).map_err(|_| bad_share())?;
        let ss = self.secret.diffie_hellman(&peer);
        Ok(SharedSecret::from(&ss.as_bytes()[..]))
    }

    fn pub_key(&self) -> &[u8] {
        &self.public
    }

    fn group(&self) -> NamedGroup {
        NamedGroup::secp256r1
    }
}

// ---------------------------------------------------------------------------------------------
// secp384r1

#[derive(Debug)]
struct P384Group;

struct P384Pair {
    secret: p384::SecretKey,
    public: [u8; 97],
}

impl SupportedKxGroup for P384Group {
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, Error> {
        use p384::elliptic_curve::sec1::ToSec1Point;
        // A uniformly random 48-byte string is a valid scalar (in [1, n - 1]) except with
        // probability below 2^-189; draw again in that case.
        let secret = loop {
            let bytes = random::<48>()?;
            if let Ok(sk) = p384::SecretKey::from_slice(&bytes[..]) {
                break sk;
            }
        };
        let point = secret.public_key().to_sec1_point(false);
        let public: [u8; 97] = point
            .as_bytes()
            .try_into()
            .map_err(|_| Error::General("P-384 public key encoding".into()))?;
        Ok(Box::new(P384Pair { secret, public }))
    }

    fn name(&self) -> NamedGroup {
        NamedGroup::secp384r1
    }
}

impl ActiveKeyExchange for P384Pair {
    fn complete(self: Box<Self>, peer_pub_key: &[u8]) -> Result<SharedSecret, Error> {
        // Uncompressed only (RFC 8446 section 4.2.8.2); `from_sec1_bytes` checks the
        // coordinates and the curve equation and refuses the identity.
        if peer_pub_key.len() != 97 || peer_pub_key[0] != 4 {
            return Err(bad_share());
        }
        let peer = p384::PublicKey::from_sec1_bytes(peer_pub_key).map_err(|_| bad_share())?;
        let ss = p384::ecdh::diffie_hellman(self.secret.to_nonzero_scalar(), peer.as_affine());
        Ok(SharedSecret::from(&ss.raw_secret_bytes()[..]))
    }

    fn pub_key(&self) -> &[u8] {
        &self.public
    }

    fn group(&self) -> NamedGroup {
        NamedGroup::secp384r1
    }
}

// ---------------------------------------------------------------------------------------------
// ML-KEM

/// The ML-KEM parameter sets this module offers.
trait Params: tessera_mlkem::generic::ParameterSet + Send + Sync + 'static {
    const GROUP_ID: NamedGroup;
    const EK_LEN: usize;
    const CT_LEN: usize;
}

impl Params for MlKem768 {
    const GROUP_ID: NamedGroup = NamedGroup::MLKEM768;
    const EK_LEN: usize = ml_kem_768::EK_LEN;
    const CT_LEN: usize = ml_kem_768::CT_LEN;
}

impl Params for MlKem1024 {
    const GROUP_ID: NamedGroup = NamedGroup::MLKEM1024;
    const EK_LEN: usize = ml_kem_1024::EK_LEN;
    const CT_LEN: usize = ml_kem_1024::CT_LEN;
}

/// An `rand_core` generator that serves bytes fetched from the OS beforehand: ML-KEM
/// encapsulation takes an infallible generator, while `getrandom` can fail. The bytes are
/// fetched (with the failure reported) before the call; a request beyond them marks the
/// generator `overdrawn` and is answered with zeros, and the caller then discards the result.
struct Prefetched {
    bytes: Zeroizing<[u8; 32]>,
    used: usize,
    overdrawn: bool,
}

impl Prefetched {
    fn new() -> Result<Self, Error> {
        Ok(Self {
            bytes: random::<32>()?,
            used: 0,
            overdrawn: false,
        })
    }
}

impl rand_core::TryRng for Prefetched {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        let avail = &self.bytes[self.used..];
        if dst.len() > avail.len() {
            self.overdrawn = true;
            dst.fill(0);
        } else {
            dst.copy_from_slice(&avail[..dst.len()]);
            self.used += dst.len();
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for Prefetched {}

/// ML-KEM encapsulation to `ek` (already parsed and checked) with OS randomness; returns the
/// ciphertext bytes and the shared secret.
fn encapsulate<P: Params>(
    ek: &EncapsulationKey<P>,
) -> Result<(Vec<u8>, Zeroizing<[u8; 32]>), Error> {
    let mut rng = Prefetched::new()?;
    let (ct, ss) = ek.encapsulate(&mut rng);
    if rng.overdrawn {
        return Err(Error::FailedToGetRandomBytes);
    }
    Ok((
        ct.as_bytes().as_ref().to_vec(),
        Zeroizing::new(*ss.as_bytes()),
    ))
}

/// A fresh decapsulation key from an OS seed (the seed is wiped).
fn generate<P: Params>() -> Result<DecapsulationKey<P>, Error> {
    let seed = random::<SEED_LEN>()?;
    Ok(DecapsulationKey::from_seed(&seed))
}

/// Decapsulates `ct` (which must be `CT_LEN` bytes long).
fn decapsulate<P: Params>(
    dk: &DecapsulationKey<P>,
    ct: &[u8],
) -> Result<Zeroizing<[u8; 32]>, Error> {
    let ct = Ciphertext::<P>::from_bytes(ct).map_err(|_| bad_share())?;
    Ok(Zeroizing::new(*dk.decapsulate(&ct).as_bytes()))
}

/// A pure ML-KEM group.
struct MlKem<P>(core::marker::PhantomData<fn() -> P>);

impl<P> MlKem<P> {
    const GROUP: Self = MlKem(core::marker::PhantomData);
}

impl<P: Params> core::fmt::Debug for MlKem<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:?}", P::GROUP_ID)
    }
}

struct MlKemClient<P: Params> {
    dk: DecapsulationKey<P>,
    public: Vec<u8>,
}

impl<P: Params> SupportedKxGroup for MlKem<P>
where
    DecapsulationKey<P>: Send + Sync,
{
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, Error> {
        let dk = generate::<P>()?;
        let public = dk.encapsulation_key().to_bytes().as_ref().to_vec();
        Ok(Box::new(MlKemClient { dk, public }))
    }

    fn start_and_complete(&self, peer_pub_key: &[u8]) -> Result<CompletedKeyExchange, Error> {
        if peer_pub_key.len() != P::EK_LEN {
            return Err(bad_share());
        }
        let ek = EncapsulationKey::<P>::from_bytes(peer_pub_key).map_err(|_| bad_share())?;
        let (ct, ss) = encapsulate(&ek)?;
        Ok(CompletedKeyExchange {
            group: P::GROUP_ID,
            pub_key: ct,
            secret: SharedSecret::from(&ss[..]),
        })
    }

    fn name(&self) -> NamedGroup {
        P::GROUP_ID
    }

    fn usable_for_version(&self, version: ProtocolVersion) -> bool {
        version == ProtocolVersion::TLSv1_3
    }
}

impl<P: Params> ActiveKeyExchange for MlKemClient<P>
where
    DecapsulationKey<P>: Send + Sync,
{
    fn complete(self: Box<Self>, peer_pub_key: &[u8]) -> Result<SharedSecret, Error> {
        if peer_pub_key.len() != P::CT_LEN {
            return Err(bad_share());
        }
        let ss = decapsulate(&self.dk, peer_pub_key)?;
        Ok(SharedSecret::from(&ss[..]))
    }

    fn pub_key(&self) -> &[u8] {
        &self.public
    }

    fn group(&self) -> NamedGroup {
        P::GROUP_ID
    }
}

// ---------------------------------------------------------------------------------------------
// X25519MLKEM768

#[derive(Debug)]
struct Hybrid;

const HYBRID_ID: NamedGroup = NamedGroup::X25519MLKEM768;

struct HybridClient {
    dk: DecapsulationKey<MlKem768>,
    x: X25519Pair,
    /// ek (1184) || x25519 public (32).
    public: Vec<u8>,
}

/// `a || b` in a buffer wiped on drop (the hybrid shared secret).
fn concat_secret(a: &[u8; 32], b: &[u8; 32]) -> SharedSecret {
    let mut s = Zeroizing::new([0u8; 64]);
    s[..32].copy_from_slice(a);
    s[32..].copy_from_slice(b);
    SharedSecret::from(&s[..])
}

impl SupportedKxGroup for Hybrid {
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, Error> {
        let dk = generate::<MlKem768>()?;
        let x = X25519Pair::generate()?;
        let mut public = Vec::with_capacity(ml_kem_768::EK_LEN + 32);
        public.extend_from_slice(dk.encapsulation_key().to_bytes().as_ref());
        public.extend_from_slice(&x.public);
        Ok(Box::new(HybridClient { dk, x, public }))
    }

    fn start_and_complete(&self, peer_pub_key: &[u8]) -> Result<CompletedKeyExchange, Error> {
        if peer_pub_key.len() != ml_kem_768::EK_LEN + 32 {
            return Err(bad_share());
        }
        let (ek, xpub) = peer_pub_key.split_at(ml_kem_768::EK_LEN);
        let ek = EncapsulationKey::<MlKem768>::from_bytes(ek).map_err(|_| bad_share())?;
        let x = X25519Pair::generate()?;
        let xs = x.agree(xpub)?;
        let (mut ct, ks) = encapsulate(&ek)?;
        ct.extend_from_slice(&x.public);
        Ok(CompletedKeyExchange {
            group: HYBRID_ID,
            pub_key: ct,
            secret: concat_secret(&ks, &xs),
        })
    }

    fn name(&self) -> NamedGroup {
        HYBRID_ID
    }

    fn usable_for_version(&self, version: ProtocolVersion) -> bool {
        version == ProtocolVersion::TLSv1_3
    }
}

impl ActiveKeyExchange for HybridClient {
    fn complete(self: Box<Self>, peer_pub_key: &[u8]) -> Result<SharedSecret, Error> {
        if peer_pub_key.len() != ml_kem_768::CT_LEN + 32 {
            return Err(bad_share());
        }
        let (ct, xpub) = peer_pub_key.split_at(ml_kem_768::CT_LEN);
        let ks = decapsulate(&self.dk, ct)?;
        let xs = self.x.agree(xpub)?;
        Ok(concat_secret(&ks, &xs))
    }

    /// The X25519 part, so a client offering both X25519MLKEM768 and X25519 can send one
    /// X25519 share for both (rustls' share reuse).
    fn hybrid_component(&self) -> Option<(NamedGroup, &[u8])> {
        Some((NamedGroup::X25519, &self.x.public))
    }

    fn complete_hybrid_component(
        self: Box<Self>,
        peer_pub_key: &[u8],
    ) -> Result<SharedSecret, Error> {
        let ss = self.x.agree(peer_pub_key)?;
        Ok(SharedSecret::from(&ss[..]))
    }

    fn pub_key(&self) -> &[u8] {
        &self.public
    }

    fn group(&self) -> NamedGroup {
        HYBRID_ID
    }
}
