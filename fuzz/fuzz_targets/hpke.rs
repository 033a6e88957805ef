//! HPKE (RFC 9180 and the post-quantum KEMs) through the agile `Suite` API: `Suite::from_ids`
//! on arbitrary codepoints; public-key, private-key and `enc` parsing of every KEM on arbitrary
//! bytes; and, for every mode, an arbitrary sequence of seal / open / tampered open /
//! arbitrary open / export calls on a sender and a receiver context, which must stay in step
//! (a refused open leaves the receiver's sequence number where it was).
//!
//! Input layout: the three codepoints, a byte that maps them onto known ones (or not), the mode,
//! two 32-byte key-derivation inputs and 128 bytes of encapsulation randomness, then (length-prefixed by `arbitrary`) info, PSK, PSK id,
//! the bytes handed to the parsers, and the calls.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tessera::hpke::{AeadId, AgilePrivateKey, AgilePublicKey, Error, Suite};
use tessera_fuzz::same;

const KEMS: [u16; 12] = [
    0x10, 0x11, 0x12, 0x16, 0x20, 0x21, 0x40, 0x41, 0x42, 0x50, 0x51, 0x647A,
];
const KDFS: [u16; 7] = [1, 2, 3, 0x10, 0x11, 0x12, 0x13];
const AEADS: [u16; 4] = [1, 2, 3, 0xFFFF];

#[derive(Arbitrary, Debug)]
enum Call {
    Seal {
        aad: Vec<u8>,
        pt: Vec<u8>,
    },
    /// Seal, then open with one bit of the ciphertext or the AAD flipped, then the genuine one.
    Tampered {
        aad: Vec<u8>,
        pt: Vec<u8>,
        at: u16,
        bit: u8,
        in_aad: bool,
    },
    /// Open of arbitrary bytes (refused), then a genuine message still opens.
    Junk {
        aad: Vec<u8>,
        ct: Vec<u8>,
    },
    Export {
        ctx: Vec<u8>,
        len: u16,
    },
}

#[derive(Arbitrary, Debug)]
struct Case {
    ids: (u16, u16, u16),
    known: u8,
    mode: u8,
    ikm_r: [u8; 32],
    ikm_s: [u8; 32],
    ikm_e: [u8; 128],
    info: Vec<u8>,
    psk: Vec<u8>,
    psk_id: Vec<u8>,
    bytes: Vec<u8>,
    calls: Vec<Call>,
}

fn suite(c: &Case) -> Option<Suite> {
    let (mut kem, mut kdf, mut aead) = c.ids;
    // Mostly known codepoints, so the rest of the input reaches a suite.
    if c.known % 8 != 0 {
        kem = KEMS[kem as usize % KEMS.len()];
        kdf = KDFS[kdf as usize % KDFS.len()];
        aead = AEADS[aead as usize % AEADS.len()];
    }
    let (k, d, a) = (
        KEMS.contains(&kem),
        KDFS.contains(&kdf),
        AEADS.contains(&aead),
    );
    match Suite::from_ids(kem, kdf, aead) {
        Ok(s) => {
            assert!(
                k && d && a,
                "unknown codepoint accepted: {:?}",
                (kem, kdf, aead)
            );
            same(
                "codepoints",
                &(s.kem().id(), s.kdf().id(), s.aead().id()),
                &(kem, kdf, aead),
            );
            Some(s)
        }
        Err(Error::UnknownKem(x)) => {
            assert!(!k && x == kem);
            None
        }
        Err(Error::UnknownKdf(x)) => {
            assert!(k && !d && x == kdf);
            None
        }
        Err(Error::UnknownAead(x)) => {
            assert!(k && d && !a && x == aead);
            None
        }
        Err(e) => panic!("from_ids: {e:?}"),
    }
}

/// The group orders of P-256 and P-384 (SEC 2), big-endian.
const N_P256: [u8; 32] = hex(b"FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551");
const N_P384: [u8; 48] = hex(
    b"FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973",
);

/// Upper-case hex digits to bytes (at compile time).
const fn hex<const N: usize>(h: &[u8]) -> [u8; N] {
    const fn nibble(c: u8) -> u8 {
        match c {
            b'0'..=b'9' => c - b'0',
            _ => c - b'A' + 10,
        }
    }
    assert!(h.len() == 2 * N);
    let mut o = [0u8; N];
    let mut i = 0;
    while i < N {
        o[i] = nibble(h[2 * i]) << 4 | nibble(h[2 * i + 1]);
        i += 1;
    }
    o
}

/// Whether the encapsulation randomness of a NIST hybrid KEM (`m`, 32 bytes, then the scalar
/// candidates: three of 32 bytes for P-256, one of 48 for P-384) has no candidate in [1, n).
fn no_scalar_candidate(kem: u16, ikm_e: &[u8]) -> bool {
    let (n, cands): (&[u8], &[u8]) = match kem {
        0x50 => (&N_P256, &ikm_e[32..128]),
        0x51 => (&N_P384, &ikm_e[32..80]),
        _ => return false,
    };
    cands
        .chunks_exact(n.len())
        .all(|c| c >= n || c.iter().all(|&b| b == 0))
}

/// Parsers on arbitrary bytes: an error of the right kind or a key that serializes back.
fn parsers(s: &Suite, sk_r: &AgilePrivateKey, bytes: &[u8]) {
    match s.public_key_from_bytes(bytes) {
        Ok(pk) => same("public key", pk.as_bytes(), bytes),
        Err(e) => same("public key error", &e, &Error::InvalidPublicKey),
    }
    match s.private_key_from_bytes(bytes) {
        Ok(sk) => {
            same("private key", sk.as_bytes(), bytes);
            let pk = sk.public_key();
            same(
                "its public key",
                &s.public_key_from_bytes(pk.as_bytes()).unwrap(),
                &pk,
            );
        }
        Err(e) => same("private key error", &e, &Error::InvalidPrivateKey),
    }
    if let Err(e) = s.setup_receiver_base(bytes, sk_r, b"") {
        assert!(
            matches!(e, Error::InvalidEncappedKey | Error::NonContributory),
            "enc parsing: {e:?}"
        );
    }
}

fuzz_target!(|c: Case| {
    let Some(s) = suite(&c) else { return };
    let (sk_r, pk_r) = s.derive_key_pair(&c.ikm_r).expect("32-byte ikm");
    let (sk_s, pk_s): (AgilePrivateKey, AgilePublicKey) = s.derive_key_pair(&c.ikm_s).unwrap();
    parsers(&s, &sk_r, &c.bytes);

    let (info, psk, id) = (&c.info[..], &c.psk[..], &c.psk_id[..]);
    let send = |ikm_e: &[u8]| match c.mode % 4 {
        0 => s.setup_sender_base_derand(&pk_r, info, ikm_e),
        1 => s.setup_sender_psk_derand(&pk_r, info, psk, id, ikm_e),
        2 => s.setup_sender_auth_derand(&pk_r, info, &sk_s, ikm_e),
        _ => s.setup_sender_auth_psk_derand(&pk_r, info, psk, id, &sk_s, ikm_e),
    };
    // The derandomized setup takes exactly the KEM's randomness length (`Nsk` of a DHKEM,
    // 32 for ML-KEM, 64 for X-Wing, 32 + 96 or 48 for the NIST hybrids).
    let sent = [32, 48, 56, 64, 66, 80, 128]
        .into_iter()
        .map(|n| send(&c.ikm_e[..n]))
        .find(|r| !matches!(r, Err(Error::InvalidRandomnessLength)))
        .expect("one of the randomness lengths");
    let recv = |enc: &[u8]| match c.mode % 4 {
        0 => s.setup_receiver_base(enc, &sk_r, info),
        1 => s.setup_receiver_psk(enc, &sk_r, info, psk, id),
        2 => s.setup_receiver_auth(enc, &sk_r, info, &pk_s),
        _ => s.setup_receiver_auth_psk(enc, &sk_r, info, psk, id, &pk_s),
    };
    let (enc, mut tx) = match sent {
        Ok(x) => x,
        // A NIST hybrid's `RandomScalar` with no candidate in [1, n): only then.
        Err(Error::DeriveKeyPair) => {
            assert!(
                no_scalar_candidate(s.kem().id(), &c.ikm_e),
                "DeriveKeyPair with a valid scalar candidate"
            );
            return;
        }
        Err(e) => {
            assert!(
                matches!(
                    e,
                    Error::UnsupportedMode | Error::InconsistentPsk | Error::PskTooShort
                ),
                "sender setup: {e:?}"
            );
            // The receiver refuses the same parameters the same way.
            same("receiver setup error", &recv(&[0u8; 32]).err(), &Some(e));
            return;
        }
    };
    let mut rx = recv(enc.as_ref()).expect("receiver of a genuine enc");
    let export_only = s.aead() == AeadId::ExportOnly;
    for call in c.calls.iter().take(16) {
        match call {
            Call::Seal { aad, pt } => {
                let ct = tx.seal(aad, pt);
                if export_only {
                    same("export-only seal", &ct, &Err(Error::ExportOnly));
                    same(
                        "export-only open",
                        &rx.open(aad, pt),
                        &Err(Error::ExportOnly),
                    );
                    continue;
                }
                same("open", &rx.open(aad, &ct.unwrap()), &Ok(pt.clone()));
            }
            Call::Tampered {
                aad,
                pt,
                at,
                bit,
                in_aad,
            } => {
                let Ok(ct) = tx.seal(aad, pt) else { continue };
                let (mut ct2, mut aad2) = (ct.clone(), aad.clone());
                let target = if *in_aad && !aad2.is_empty() {
                    &mut aad2
                } else {
                    &mut ct2
                };
                let i = *at as usize % target.len();
                target[i] ^= 1 << (bit & 7);
                same(
                    "tampered open",
                    &rx.open(&aad2, &ct2),
                    &Err(Error::OpenError),
                );
                same("open after a refusal", &rx.open(aad, &ct), &Ok(pt.clone()));
            }
            Call::Junk { aad, ct } => {
                let want = if export_only {
                    Error::ExportOnly
                } else {
                    Error::OpenError
                };
                same("junk open", &rx.open(aad, ct), &Err(want));
            }
            Call::Export { ctx, len } => {
                let n = *len as usize % 20000;
                let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
                let ra = tx.export(ctx, &mut a);
                same("export outcome", &rx.export(ctx, &mut b), &ra);
                match ra {
                    Ok(()) => same("export", &a, &b),
                    Err(e) => same("export error", &e, &Error::ExportTooLong),
                }
            }
        }
    }
});
