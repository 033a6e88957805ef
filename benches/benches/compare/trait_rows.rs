//! The trait-path rows: Tessera behind the RustCrypto traits (`digest` 0.11 with `hmac` 0.13,
//! `aead` 0.6 `AeadInOut`) as the reference, raced against Tessera's native API (the trait
//! layer's cost: goal within 3%) and against RustCrypto's own crates through the same traits.

use crate::*;
use aead_rows::{AeadCase, aead_case, aead_contestant, gcm_key_bytes};

/// SHA-256 through `digest::Digest::digest` (Tessera's `tessera_sha2::digest::Sha256`) against
/// the native one-shot `tessera_sha2::sha256` and RustCrypto `sha2` 0.11's `Digest`.
pub(crate) fn build_sha256_digest_trait(size: usize) -> Built {
    use digest11::Digest;
    let msg = input(size, 0x256d);
    let expect = tessera::sha256(None, &msg);
    let cs = vec![
        hash("tessera/digest", Role::Reference, &msg, &expect, |d| {
            tessera::DigestSha256::digest(d)
        }),
        hash("tessera-native", Role::Peer, &msg, &expect, |d| {
            tessera::sha256(None, d)
        }),
        hash("sha2-0.11", Role::Peer, &msg, &expect, |d| {
            sha2_11::Sha256::digest(d)
        }),
    ];
    Built {
        contestants: cs,
        notes: vec![
            "tessera-native is the native one-shot `tessera_sha2::sha256`; sha2-0.11 is RustCrypto \
             through the same `Digest::digest`"
                .into(),
        ],
    }
}

/// HMAC-SHA256 as `hmac::Hmac<tessera_sha2::digest::Sha256>` (0.13, the keyed state cloned per
/// message) against the native `tessera_sha2::HmacKey` and `hmac::Hmac<sha2::Sha256>` 0.13.
pub(crate) fn build_hmac_sha256_trait(size: usize) -> Built {
    use hmac13::{KeyInit, Mac};
    let msg = input(size, 0x4d4ac);
    let key = input(32, 0x6b6579);
    let native = tessera::hmac_sha256_key(None, &key);
    let expect = tessera::hmac_sha256(&native, &msg);
    let ours = hmac13::Hmac::<tessera::DigestSha256>::new_from_slice(&key).unwrap();
    let theirs = hmac13::Hmac::<sha2_11::Sha256>::new_from_slice(&key).unwrap();
    let cs = vec![
        hash(
            "tessera/hmac-trait",
            Role::Reference,
            &msg,
            &expect,
            move |d| {
                let mut m = ours.clone();
                m.update(d);
                m.finalize().into_bytes()
            },
        ),
        hash("tessera-native", Role::Peer, &msg, &expect, move |d| {
            tessera::hmac_sha256(&native, d)
        }),
        hash("hmac-0.13/sha2-0.11", Role::Peer, &msg, &expect, move |d| {
            let mut m = theirs.clone();
            m.update(d);
            m.finalize().into_bytes()
        }),
    ];
    Built {
        contestants: cs,
        notes: vec![
            "hmac 0.13 over Tessera's and over RustCrypto's SHA-256, the keyed state cloned per \
             message; tessera-native is `HmacKey::sign`"
                .into(),
        ],
    }
}

/// Any `aead` 0.6 `AeadInOut` with 96-bit nonces as a bench AEAD: seal and open in place
/// (`InOutBuf` over one buffer, the in-place path).
struct InOut<A>(A);
impl<A> aead_rows::Aead for InOut<A>
where
    A: aead06::AeadInOut<NonceSize = aead06::consts::U12> + 'static,
{
    #[inline(always)]
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        let tag = self
            .0
            .encrypt_inout_detached(&NONCE.into(), &AAD, buf.into())
            .unwrap();
        let mut t = [0u8; 16];
        t.copy_from_slice(&tag);
        t
    }
    #[inline(always)]
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        let mut t = aead06::Tag::<A>::default();
        t.copy_from_slice(tag);
        self.0
            .decrypt_inout_detached(&NONCE.into(), &AAD, buf.into(), &t)
            .unwrap()
    }
}

/// AES-128-GCM seal through `AeadInOut` in place: Tessera's trait type against the native
/// in-place seal and RustCrypto `aes-gcm` 0.11 through the same trait.
pub(crate) fn build_gcm_aeadinout(size: usize) -> Built {
    use aead06::KeyInit;
    let key = gcm_key_bytes(16);
    let ours = tessera::AeadAes128Gcm::new_from_slice(&key).unwrap();
    let case: AeadCase = aead_case(&InOut(ours.clone()), size);
    let cs = vec![
        aead_contestant(
            "tessera/aeadinout",
            Role::Reference,
            InOut(ours),
            &case,
            true,
        ),
        aead_contestant(
            "tessera-native",
            Role::Peer,
            aead_rows::TesseraGcmKey(tessera::gcm_key(None, &key)),
            &case,
            true,
        ),
        aead_contestant(
            "aes-gcm-0.11",
            Role::Peer,
            InOut(aes_gcm_11::Aes128Gcm::new_from_slice(&key).unwrap()),
            &case,
            true,
        ),
    ];
    Built {
        contestants: cs,
        notes: vec![
            "seal in place through `AeadInOut::encrypt_inout_detached`; tessera-native is the \
             native in-place seal, aes-gcm-0.11 RustCrypto through the same trait"
                .into(),
        ],
    }
}
