//! `tessera info`: the CPU features Tessera detects and, for each crate, the backend it chose
//! here next to every backend this CPU could run.

/// One crate's line: its chosen backend, then the ones available on this CPU.
fn line(crate_name: &str, chosen: &str, available: &[&str]) {
    println!(
        "{crate_name:<28} {chosen:<20} (available: {})",
        available.join(", ")
    );
}

macro_rules! table {
    ($name:literal, $ty:ty) => {{
        let all: Vec<&str> = <$ty>::all_available().map(|b| b.name()).collect();
        line($name, <$ty>::detect().name(), &all);
    }};
}

/// `tessera info`.
pub fn run() -> Result<(), String> {
    println!("tessera {}", env!("CARGO_PKG_VERSION"));
    println!("hardware: {}", tessera_cpu::features());
    println!("{:<28} backend", "crate");
    table!(
        "tessera-sha2 (SHA-256)",
        tessera_sha2::testing::Sha256Backend
    );
    table!(
        "tessera-sha2 (SHA-512)",
        tessera_sha2::testing::Sha512Backend
    );
    table!("tessera-keccak (x1)", tessera_keccak::testing::X1Backend);
    table!("tessera-keccak (x4)", tessera_keccak::testing::X4Backend);
    table!("tessera-aes-gcm", tessera::aes_gcm::testing::Backend);
    table!(
        "tessera-chacha20poly1305",
        tessera::chacha20poly1305::testing::Backend
    );
    table!("tessera-x25519", tessera::x25519::testing::Backend);
    table!("tessera-p256", tessera::p256::testing::Backend);
    table!("tessera-mlkem", tessera::mlkem::testing::Backend);
    table!("tessera-mldsa", tessera::mldsa::testing::Backend);
    Ok(())
}
