//! `tessera info`: the CPU features Tessera detects and, for each crate, the backend it chose
//! here next to every backend this CPU could run.

use std::io::{self, Write};

/// One crate's line: its chosen backend, then the ones available on this CPU.
fn line(
    out: &mut impl Write,
    crate_name: &str,
    chosen: &str,
    available: &[&str],
) -> io::Result<()> {
    writeln!(
        out,
        "{crate_name:<28} {chosen:<20} (available: {})",
        available.join(", ")
    )
}

macro_rules! table {
    ($out:expr, $name:literal, $ty:ty) => {{
        let all: Vec<&str> = <$ty>::all_available().map(|b| b.name()).collect();
        line($out, $name, <$ty>::detect().name(), &all)?;
    }};
}

/// `tessera info`; a write error (a closed standard output) is an error, not a panic.
pub fn run() -> Result<(), String> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    write_all(&mut out).map_err(|e| crate::stdout_error(&e))
}

fn write_all(out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "tessera {}", env!("CARGO_PKG_VERSION"))?;
    writeln!(out, "hardware: {}", tessera_cpu::features())?;
    writeln!(out, "{:<28} backend", "crate")?;
    table!(
        out,
        "tessera-sha2 (SHA-256)",
        tessera_sha2::testing::Sha256Backend
    );
    table!(
        out,
        "tessera-sha2 (SHA-512)",
        tessera_sha2::testing::Sha512Backend
    );
    table!(
        out,
        "tessera-keccak (x1)",
        tessera_keccak::testing::X1Backend
    );
    table!(
        out,
        "tessera-keccak (x4)",
        tessera_keccak::testing::X4Backend
    );
    table!(out, "tessera-aes-gcm", tessera::aes_gcm::testing::Backend);
    table!(
        out,
        "tessera-chacha20poly1305",
        tessera::chacha20poly1305::testing::Backend
    );
    table!(out, "tessera-x25519", tessera::x25519::testing::Backend);
    table!(out, "tessera-p256", tessera::p256::testing::Backend);
    table!(out, "tessera-mlkem", tessera::mlkem::testing::Backend);
    table!(out, "tessera-mldsa", tessera::mldsa::testing::Backend);
    out.flush()
}
