//! `tessera speed` and `tessera info` run and print what they promise (the smoke test of the
//! issue: no timing is asserted). The whole speed table runs with 2 ms per row.

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_tessera");

fn tessera(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("TESSERA_SPEED_MS", "2")
        .output()
        .expect("run tessera")
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).expect("utf-8")
}

#[test]
fn info_names_features_and_a_backend_per_crate() {
    let out = stdout(&tessera(&["info"]));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[1].starts_with("hardware: "), "{out}");
    for krate in [
        "tessera-sha2 (SHA-256)",
        "tessera-sha2 (SHA-512)",
        "tessera-keccak (x1)",
        "tessera-aes-gcm",
        "tessera-chacha20poly1305",
        "tessera-x25519",
        "tessera-p256",
        "tessera-mlkem",
        "tessera-mldsa",
    ] {
        let line = lines
            .iter()
            .find(|l| l.starts_with(krate))
            .unwrap_or_else(|| panic!("no line for {krate}: {out}"));
        // The chosen backend is one of the available ones, and portable is always available.
        let chosen = line[krate.len()..]
            .split_whitespace()
            .next()
            .expect("backend");
        let avail = line.split("(available: ").nth(1).expect("available");
        assert!(avail.contains(chosen), "{line}");
        assert!(avail.contains("portable"), "{line}");
    }
}

#[test]
fn speed_prints_every_group_with_backends() {
    let out = stdout(&tessera(&["speed"]));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("hardware: "), "{out}");
    for row in [
        "sha256 64 B",
        "sha512 16 KiB",
        "sha3-256 1 KiB",
        "aes-128-gcm seal 16 KiB",
        "chacha20-poly1305 seal 64 B",
        "x25519 dh",
        "p256 ecdsa verify",
        "ml-kem-768 decaps",
        "ml-dsa-65 sign",
        "x-wing encaps",
        "hpke x-wing/hkdf-sha256/chacha20-poly1305 seal+open 1 KiB",
    ] {
        let line = lines
            .iter()
            .find(|l| l.starts_with(row))
            .unwrap_or_else(|| panic!("no row {row}: {out}"));
        let fields: Vec<&str> = line[row.len()..].split_whitespace().collect();
        assert!(fields.len() >= 3, "{line}");
        let ops: f64 = fields[1].parse().expect("ops/s");
        assert!(ops > 0.0, "{line}");
    }
}

#[test]
fn speed_filter_and_json() {
    let out = stdout(&tessera(&["speed", "--json", "x25519"]));
    assert!(out.starts_with("{\"hardware\":\""), "{out}");
    assert!(out.contains("\"name\":\"x25519 keygen\""), "{out}");
    assert!(out.contains("\"name\":\"x25519 dh\""), "{out}");
    assert!(!out.contains("\"name\":\"sha256"), "filter ignored: {out}");
    assert!(!out.contains("ml-dsa"), "filter ignored: {out}");
    let no = tessera(&["speed", "no-such-primitive"]);
    assert_eq!(no.status.code(), Some(1));
}
