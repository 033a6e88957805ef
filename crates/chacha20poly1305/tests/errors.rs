//! Bad input: typed errors, never a panic, nothing written on error.

use tessera_chacha20poly1305::testing::Backend;
use tessera_chacha20poly1305::{
    ChaCha20Poly1305, Error, MAX_MESSAGE_LEN, TAG_LEN, XChaCha20Poly1305,
};
use tessera_testkit::available;

#[test]
fn short_ciphertext_and_limits() {
    assert_eq!(MAX_MESSAGE_LEN, (1 << 38) - 64);
    for be in available::<Backend>() {
        let a = ChaCha20Poly1305::new_with_backend(be, &[1; 32]);
        for n in 0..TAG_LEN {
            assert_eq!(
                a.decrypt(&[0; 12], b"", &vec![0; n]),
                Err(Error::CiphertextTooShort)
            );
        }
        let x = XChaCha20Poly1305::new_with_backend(be, &[1; 32]);
        assert_eq!(
            x.decrypt(&[0; 24], b"", &[0; 15]),
            Err(Error::CiphertextTooShort)
        );
        // Exactly a tag: the empty message; a wrong one is an authentication error.
        let sealed = a.encrypt(&[0; 12], b"x", b"").unwrap();
        assert_eq!(a.decrypt(&[0; 12], b"x", &sealed).unwrap(), b"");
        assert_eq!(
            a.decrypt(&[0; 12], b"y", &sealed),
            Err(Error::Authentication)
        );
        assert_eq!(
            x.decrypt(&[0; 24], b"", &[0; 16]),
            Err(Error::Authentication)
        );
    }
    // The errors format and are `core::error::Error`s.
    let e: &dyn core::error::Error = &Error::MessageTooLong;
    assert!(e.to_string().contains("longer"));
    assert!(!Error::Authentication.to_string().is_empty());
    assert!(!Error::CiphertextTooShort.to_string().is_empty());
    assert!(format!("{:?}", ChaCha20Poly1305::new(&[0; 32])).contains("backend"));
}
