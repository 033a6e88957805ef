//! The AEAD rows: AES-GCM and ChaCha20-Poly1305 seal and open.

use crate::*;
use tessera_benches::aead::TagAtEnd;

/// The AEAD operations of one implementation (AES-GCM, ChaCha20-Poly1305): seal in place returning the tag, and open in
/// place with a detached tag (panicking on a bad tag: the rows only open valid ciphertexts).
pub(crate) trait Aead: 'static {
    fn seal(&self, buf: &mut [u8]) -> [u8; 16];
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]);
}

pub(crate) struct TesseraGcmKey(pub(crate) tessera::GcmKey);
impl Aead for TesseraGcmKey {
    #[inline(always)]
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        tessera::gcm_seal(&self.0, &NONCE, &AAD, buf)
    }
    #[inline(always)]
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        tessera::gcm_open(&self.0, &NONCE, &AAD, buf, tag)
    }
}

impl Aead for ring::aead::LessSafeKey {
    #[inline(always)]
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        TagAtEnd::seal(self, NONCE, &AAD, buf)
    }
    #[inline(always)]
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        let n = ring::aead::Nonce::assume_unique_for_key(NONCE);
        self.open_in_place_separate_tag(
            n,
            ring::aead::Aad::from(AAD),
            ring::aead::Tag::from(*tag),
            buf,
            0..,
        )
        .unwrap();
    }
}

impl Aead for aws_lc_rs::aead::LessSafeKey {
    #[inline(always)]
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        TagAtEnd::seal(self, NONCE, &AAD, buf)
    }
    #[inline(always)]
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        let n = aws_lc_rs::aead::Nonce::assume_unique_for_key(NONCE);
        self.open_in_place_separate_tag(n, aws_lc_rs::aead::Aad::from(AAD), tag, buf)
            .unwrap();
    }
}

impl Aead for RustCryptoGcm {
    #[inline(always)]
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        RustCryptoGcm::seal(self, buf)
    }
    #[inline(always)]
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        RustCryptoGcm::open(self, buf, tag)
    }
}

/// The fixed message and its two ciphertext states for the open rows: with one nonce the
/// keystream is fixed, so opening `C` (tag `tags[0]`, the tag of sealing `P`) leaves `P`, and
/// opening `P` as a ciphertext (tag `tags[1]`, the tag of sealing `C`) leaves `C` again. Each
/// iteration opens whatever the buffer holds with the matching tag: the same work every time (one
/// full, successful open) with no set-up per iteration.
pub(crate) struct AeadCase {
    pub(crate) pt: Vec<u8>,
    pub(crate) ct: Vec<u8>,
    pub(crate) tags: [[u8; 16]; 2],
}

pub(crate) fn aead_case(reference: &dyn Aead, size: usize) -> AeadCase {
    let pt = input(size, 0xae5);
    let mut ct = pt.clone();
    let tag_c = reference.seal(&mut ct);
    let mut again = ct.clone();
    let tag_p = reference.seal(&mut again);
    assert_eq!(again, pt);
    AeadCase {
        pt,
        ct,
        tags: [tag_c, tag_p],
    }
}

/// A seal or open contestant on its own aligned buffer, checked against `case` first.
pub(crate) fn aead_contestant(
    name: impl Into<String>,
    role: Role,
    imp: impl Aead,
    case: &AeadCase,
    seal: bool,
) -> Contestant {
    let name = name.into();
    let mut buf = AlignedBuf::from_slice(&case.pt);
    assert_eq!(imp.seal(&mut buf), case.tags[0], "{name}: tag");
    assert_eq!(&*buf, &case.ct[..], "{name}: ciphertext");
    imp.open(&mut buf, &case.tags[0]);
    assert_eq!(&*buf, &case.pt[..], "{name}: open");
    if seal {
        // Seal in place, repeatedly (the buffer's content does not matter).
        Contestant::new(name, role, move || {
            black_box(imp.seal(black_box(&mut buf)));
        })
    } else {
        buf.copy_from_slice(&case.ct);
        let tags = case.tags;
        let mut s = 0usize;
        Contestant::new(name, role, move || {
            imp.open(black_box(&mut buf), &tags[s]);
            s ^= 1;
        })
    }
}

pub(crate) fn gcm_key_bytes(len: usize) -> Vec<u8> {
    input(len, 0x6b)
}

pub(crate) fn build_gcm(key_len: usize, size: usize, seal: bool) -> Built {
    let key = gcm_key_bytes(key_len);
    let case = aead_case(&TesseraGcmKey(tessera::gcm_key(None, &key)), size);
    let mut cs = tessera_contestants(tessera::gcm_impls(), |name, role, be| {
        aead_contestant(
            name,
            role,
            TesseraGcmKey(tessera::gcm_key(be, &key)),
            &case,
            seal,
        )
    });
    let (ring_alg, aws_alg) = if key_len == 16 {
        (&ring::aead::AES_128_GCM, &aws_lc_rs::aead::AES_128_GCM)
    } else {
        (&ring::aead::AES_256_GCM, &aws_lc_rs::aead::AES_256_GCM)
    };
    let rk = ring::aead::LessSafeKey::new(ring::aead::UnboundKey::new(ring_alg, &key).unwrap());
    cs.push(aead_contestant("ring", Role::Peer, rk, &case, seal));
    let ak =
        aws_lc_rs::aead::LessSafeKey::new(aws_lc_rs::aead::UnboundKey::new(aws_alg, &key).unwrap());
    cs.push(aead_contestant("aws-lc-rs", Role::Peer, ak, &case, seal));
    cs.push(aead_contestant(
        "aes-gcm",
        Role::Peer,
        RustCryptoGcm::new(&key),
        &case,
        seal,
    ));
    Built {
        contestants: cs,
        notes: vec![],
    }
}

// --- ChaCha20-Poly1305 ---

pub(crate) struct TesseraChachaKey(pub(crate) tessera::ChachaKey);
impl Aead for TesseraChachaKey {
    #[inline(always)]
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        tessera::chacha_seal(&self.0, &NONCE, &AAD, buf)
    }
    #[inline(always)]
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        tessera::chacha_open(&self.0, &NONCE, &AAD, buf, tag)
    }
}

impl Aead for chacha20poly1305::ChaCha20Poly1305 {
    #[inline(always)]
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        use chacha20poly1305::aead::AeadInPlace;
        self.encrypt_in_place_detached(&NONCE.into(), &AAD, buf)
            .unwrap()
            .into()
    }
    #[inline(always)]
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        use chacha20poly1305::aead::AeadInPlace;
        self.decrypt_in_place_detached(&NONCE.into(), &AAD, buf, tag.into())
            .unwrap()
    }
}

pub(crate) fn chacha_key_bytes() -> [u8; 32] {
    let mut k = [0u8; 32];
    SplitMix64(0xc4ac4a).fill(&mut k);
    k
}

pub(crate) fn rustcrypto_chacha(key: &[u8; 32]) -> chacha20poly1305::ChaCha20Poly1305 {
    use chacha20poly1305::KeyInit;
    chacha20poly1305::ChaCha20Poly1305::new(key.into())
}

pub(crate) fn build_chacha(size: usize, seal: bool) -> Built {
    let key = chacha_key_bytes();
    let case = aead_case(&TesseraChachaKey(tessera::chacha_key(None, &key)), size);
    let mut cs = tessera_contestants(tessera::chacha_impls(), |name, role, be| {
        aead_contestant(
            name,
            role,
            TesseraChachaKey(tessera::chacha_key(be, &key)),
            &case,
            seal,
        )
    });
    let rk = ring::aead::LessSafeKey::new(
        ring::aead::UnboundKey::new(&ring::aead::CHACHA20_POLY1305, &key).unwrap(),
    );
    cs.push(aead_contestant("ring", Role::Peer, rk, &case, seal));
    let ak = aws_lc_rs::aead::LessSafeKey::new(
        aws_lc_rs::aead::UnboundKey::new(&aws_lc_rs::aead::CHACHA20_POLY1305, &key).unwrap(),
    );
    cs.push(aead_contestant("aws-lc-rs", Role::Peer, ak, &case, seal));
    cs.push(aead_contestant(
        "chacha20poly1305",
        Role::Peer,
        rustcrypto_chacha(&key),
        &case,
        seal,
    ));
    Built {
        contestants: cs,
        notes: vec![],
    }
}
