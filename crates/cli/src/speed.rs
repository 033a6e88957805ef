//! `tessera speed [--json] [FILTER]`: ops/s and µs/op (MB/s for bulk rows) of every primitive
//! on the backend this machine selects, under a hardware line. Each row runs for about
//! [`ROW_TIME`]; the whole table takes well under 30 s. For users; `cargo xtask bench` is the
//! comparison against other libraries.

use std::hint::black_box;
use std::io::Write;
use std::time::{Duration, Instant};

use tessera::hpke::{AeadId, KdfId, KemId, Suite};

use crate::SpeedArgs;
use crate::rng::OsRng;

/// The measuring time of one row (after a warm-up call); `TESSERA_SPEED_MS` overrides it
/// (the tests run the whole table with a few milliseconds per row).
const ROW_TIME: Duration = Duration::from_millis(200);

fn row_time() -> Duration {
    std::env::var("TESSERA_SPEED_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(ROW_TIME, Duration::from_millis)
}

/// One measured row.
struct Row {
    name: String,
    backend: String,
    ops_per_sec: f64,
    /// Bytes per operation, for the MB/s column of bulk rows.
    bytes: Option<usize>,
}

/// Calls `f` repeatedly for about the row time; operations per second.
fn measure(mut f: impl FnMut()) -> f64 {
    let target = row_time();
    f();
    let mut n: u64 = 1;
    loop {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        let el = t.elapsed();
        if el >= target {
            return n as f64 / el.as_secs_f64();
        }
        // Aim past the target from the rate seen so far (at most 100x more at a time).
        let secs = el.as_secs_f64().max(1e-7);
        let want = (n as f64 * target.as_secs_f64() / secs * 1.1).ceil() as u64;
        n = want.clamp(n + 1, n.saturating_mul(100));
    }
}

/// The rows, built lazily so that a filter skips the work of the others.
struct Table<'a> {
    filter: Option<&'a str>,
    rows: Vec<Row>,
}

impl Table<'_> {
    fn row(&mut self, name: &str, backend: &str, bytes: Option<usize>, f: impl FnMut()) {
        if let Some(flt) = self.filter
            && !name
                .to_ascii_lowercase()
                .contains(&flt.to_ascii_lowercase())
        {
            return;
        }
        let ops_per_sec = measure(f);
        self.rows.push(Row {
            name: name.to_string(),
            backend: backend.to_string(),
            ops_per_sec,
            bytes,
        });
    }
}

const SIZES: [(usize, &str); 3] = [(64, "64 B"), (1024, "1 KiB"), (16 * 1024, "16 KiB")];

fn hashes(t: &mut Table<'_>) {
    let sha256 = tessera_sha2::testing::Sha256Backend::detect().name();
    let sha512 = tessera_sha2::testing::Sha512Backend::detect().name();
    let keccak = tessera_keccak::testing::x1_backend_name();
    for (n, label) in SIZES {
        let buf = vec![0x5au8; n];
        t.row(&format!("sha256 {label}"), sha256, Some(n), || {
            black_box(tessera_sha2::sha256(black_box(&buf)));
        });
        t.row(&format!("sha512 {label}"), sha512, Some(n), || {
            black_box(tessera_sha2::sha512(black_box(&buf)));
        });
        t.row(&format!("sha3-256 {label}"), keccak, Some(n), || {
            black_box(tessera_keccak::sha3_256(black_box(&buf)));
        });
        t.row(&format!("shake128 {label}"), keccak, Some(n), || {
            let mut out = [0u8; 32];
            tessera_keccak::shake128(black_box(&buf), &mut out);
            black_box(out);
        });
    }
}

fn aeads(t: &mut Table<'_>) -> Result<(), String> {
    let gcm_be = tessera::aes_gcm::testing::Backend::detect().name();
    let chacha_be = tessera::chacha20poly1305::testing::Backend::detect().name();
    let a128 = tessera::aes_gcm::Aes128Gcm::new(&[7u8; 16]);
    let a256 = tessera::aes_gcm::Aes256Gcm::new(&[7u8; 32]);
    let c20 = tessera::chacha20poly1305::ChaCha20Poly1305::new(&[7u8; 32]);
    let mut failed = false;
    for (n, label) in SIZES {
        let mut buf = vec![0u8; n];
        t.row(
            &format!("aes-128-gcm seal {label}"),
            gcm_be,
            Some(n),
            || {
                failed |=
                    black_box(a128.encrypt_in_place_detached(&[1u8; 12], b"", &mut buf)).is_err();
            },
        );
        t.row(
            &format!("aes-256-gcm seal {label}"),
            gcm_be,
            Some(n),
            || {
                failed |=
                    black_box(a256.encrypt_in_place_detached(&[1u8; 12], b"", &mut buf)).is_err();
            },
        );
        t.row(
            &format!("chacha20-poly1305 seal {label}"),
            chacha_be,
            Some(n),
            || {
                failed |=
                    black_box(c20.encrypt_in_place_detached(&[1u8; 12], b"", &mut buf)).is_err();
            },
        );
    }
    if failed {
        return Err("an AEAD row failed".into());
    }
    Ok(())
}

fn curves(t: &mut Table<'_>) {
    use tessera::x25519::{PublicKey, StaticSecret};
    let be = tessera::x25519::testing::Backend::detect().name();
    let a = StaticSecret::from([3u8; 32]);
    let b = PublicKey::from(&StaticSecret::from([5u8; 32]));
    t.row("x25519 keygen", be, None, || {
        black_box(PublicKey::from(black_box(&a)));
    });
    t.row("x25519 dh", be, None, || {
        let _ = black_box(a.diffie_hellman(black_box(&b)));
    });
    let be = tessera::p256::testing::Backend::detect().name();
    let sk = tessera::p256::SecretKey::random(&mut OsRng);
    let pk = tessera::p256::SecretKey::random(&mut OsRng).public_key();
    t.row("p256 keygen", be, None, || {
        black_box(black_box(&sk).public_key());
    });
    t.row("p256 ecdh", be, None, || {
        black_box(sk.diffie_hellman(black_box(&pk)));
    });
    let sig_key = tessera::p256::ecdsa::SigningKey::random(&mut OsRng);
    let sig = sig_key.sign(b"message");
    let vk = *sig_key.verifying_key();
    t.row("p256 ecdsa sign", be, None, || {
        black_box(sig_key.sign(black_box(b"message")));
    });
    t.row("p256 ecdsa verify", be, None, || {
        let _ = black_box(vk.verify(black_box(b"message"), &sig));
    });
}

macro_rules! mlkem_rows {
    ($t:expr, $label:literal, $m:ident) => {{
        use tessera::mlkem::$m::DecapsulationKey;
        let be = tessera::mlkem::testing::Backend::detect().name();
        let seed = [9u8; 64];
        let dk = DecapsulationKey::from_seed(&seed);
        let ek = dk.encapsulation_key().clone();
        let (ct, _) = ek.encapsulate(&mut OsRng);
        $t.row(concat!($label, " keygen"), be, None, || {
            black_box(DecapsulationKey::from_seed(black_box(&seed)));
        });
        $t.row(concat!($label, " encaps"), be, None, || {
            black_box(ek.encapsulate(&mut OsRng));
        });
        $t.row(concat!($label, " decaps"), be, None, || {
            black_box(dk.decapsulate(black_box(&ct)));
        });
    }};
}

macro_rules! mldsa_rows {
    ($t:expr, $label:literal, $m:ident) => {{
        use tessera::mldsa::$m::SigningKey;
        let be = tessera::mldsa::testing::Backend::detect().name();
        let seed = [4u8; 32];
        let sk = SigningKey::from_seed(&seed);
        let vk = sk.verifying_key().clone();
        let msg = [0x42u8; 64];
        let sig = sk.sign_deterministic(&msg, b"");
        $t.row(concat!($label, " keygen"), be, None, || {
            black_box(SigningKey::from_seed(black_box(&seed)));
        });
        $t.row(concat!($label, " sign"), be, None, || {
            let _ = black_box(sk.sign(black_box(&msg), b"", &mut OsRng));
        });
        if let Ok(sig) = sig {
            $t.row(concat!($label, " verify"), be, None, || {
                let _ = black_box(vk.verify(black_box(&msg), b"", &sig));
            });
        }
    }};
}

fn lattices(t: &mut Table<'_>) {
    mlkem_rows!(t, "ml-kem-512", ml_kem_512);
    mlkem_rows!(t, "ml-kem-768", ml_kem_768);
    mlkem_rows!(t, "ml-kem-1024", ml_kem_1024);
    mldsa_rows!(t, "ml-dsa-44", ml_dsa_44);
    mldsa_rows!(t, "ml-dsa-65", ml_dsa_65);
    mldsa_rows!(t, "ml-dsa-87", ml_dsa_87);
    let be = format!(
        "{}+{}+{}",
        tessera::mlkem::testing::Backend::detect().name(),
        tessera::x25519::testing::Backend::detect().name(),
        tessera_keccak::testing::x1_backend_name()
    );
    let dk = tessera::xwing::DecapsulationKey::from_seed(&[6u8; 32]);
    let ek = dk.encapsulation_key().clone();
    let (ct, _) = ek.encapsulate(&mut OsRng);
    t.row("x-wing keygen", &be, None, || {
        black_box(tessera::xwing::DecapsulationKey::from_seed(black_box(
            &[6u8; 32],
        )));
    });
    t.row("x-wing encaps", &be, None, || {
        let _ = black_box(ek.encapsulate(&mut OsRng));
    });
    t.row("x-wing decaps", &be, None, || {
        black_box(dk.decapsulate(black_box(&ct)));
    });
}

fn hpke(t: &mut Table<'_>) -> Result<(), String> {
    let kem_be = |k: KemId| match k {
        KemId::DhKemX25519HkdfSha256 => tessera::x25519::testing::Backend::detect()
            .name()
            .to_string(),
        KemId::XWing => format!(
            "{}+{}",
            tessera::mlkem::testing::Backend::detect().name(),
            tessera::x25519::testing::Backend::detect().name()
        ),
        _ => tessera::mlkem::testing::Backend::detect()
            .name()
            .to_string(),
    };
    let suites = [
        (
            "hpke x25519/hkdf-sha256/chacha20-poly1305",
            Suite::new(
                KemId::DhKemX25519HkdfSha256,
                KdfId::HkdfSha256,
                AeadId::ChaCha20Poly1305,
            ),
        ),
        (
            "hpke x-wing/hkdf-sha256/chacha20-poly1305",
            Suite::new(KemId::XWing, KdfId::HkdfSha256, AeadId::ChaCha20Poly1305),
        ),
        (
            "hpke ml-kem-768/hkdf-sha256/aes-128-gcm",
            Suite::new(KemId::MlKem768, KdfId::HkdfSha256, AeadId::Aes128Gcm),
        ),
    ];
    let mut failed = false;
    for (name, suite) in suites {
        let (sk, pk) = suite
            .generate_key_pair(&mut OsRng)
            .map_err(|e| format!("{name}: {e:?}"))?;
        let (enc, _) = suite
            .setup_sender_base(&pk, b"speed", &mut OsRng)
            .map_err(|e| format!("{name}: {e:?}"))?;
        let be = kem_be(suite.kem());
        t.row(&format!("{name} setup sender"), &be, None, || {
            failed |= black_box(suite.setup_sender_base(&pk, b"speed", &mut OsRng)).is_err();
        });
        t.row(&format!("{name} setup receiver"), &be, None, || {
            failed |= black_box(suite.setup_receiver_base(enc.as_bytes(), &sk, b"speed")).is_err();
        });
        let msg = [0u8; 1024];
        t.row(&format!("{name} seal+open 1 KiB"), &be, None, || {
            let r = suite
                .seal_base(&pk, b"speed", b"", &msg, &mut OsRng)
                .and_then(|(enc, ct)| suite.open_base(enc.as_bytes(), &sk, b"speed", b"", &ct));
            failed |= black_box(r).is_err();
        });
    }
    if failed {
        return Err("an HPKE row failed".into());
    }
    Ok(())
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// `tessera speed`; a write error (a closed standard output) is an error, not a panic.
pub fn run(args: &SpeedArgs) -> Result<(), String> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let werr = |e: std::io::Error| crate::stdout_error(&e);
    let hardware = tessera_cpu::features().to_string();
    if !args.json {
        writeln!(out, "hardware: {hardware}").map_err(werr)?;
        writeln!(
            out,
            "{:<62} {:<34} {:>12} {:>12} {:>10}",
            "primitive", "backend", "ops/s", "µs/op", "MB/s"
        )
        .map_err(werr)?;
    }
    let mut t = Table {
        filter: args.filter.as_deref(),
        rows: Vec::new(),
    };
    let mut print = |rows: &[Row], from: usize| -> Result<(), String> {
        if args.json {
            return Ok(());
        }
        for r in &rows[from..] {
            let mbs = r.bytes.map_or_else(String::new, |b| {
                format!("{:.0}", r.ops_per_sec * b as f64 / 1e6)
            });
            writeln!(
                out,
                "{:<62} {:<34} {:>12.0} {:>12.3} {:>10}",
                r.name,
                r.backend,
                r.ops_per_sec,
                1e6 / r.ops_per_sec,
                mbs
            )
            .map_err(werr)?;
        }
        out.flush().map_err(werr)
    };
    // Print each group as it finishes (the table fills in while it runs).
    let mut shown = 0;
    hashes(&mut t);
    print(&t.rows, shown)?;
    shown = t.rows.len();
    aeads(&mut t)?;
    print(&t.rows, shown)?;
    shown = t.rows.len();
    curves(&mut t);
    print(&t.rows, shown)?;
    shown = t.rows.len();
    lattices(&mut t);
    print(&t.rows, shown)?;
    shown = t.rows.len();
    hpke(&mut t)?;
    print(&t.rows, shown)?;
    if t.rows.is_empty() {
        return Err(format!(
            "no row matches '{}'",
            args.filter.as_deref().unwrap_or_default()
        ));
    }
    if args.json {
        let rows: Vec<String> = t
            .rows
            .iter()
            .map(|r| {
                let mbs = r
                    .bytes
                    .map_or_else(|| "null".to_string(), |b| format!("{:.1}", r.ops_per_sec * b as f64 / 1e6));
                format!(
                    "{{\"name\":{},\"backend\":{},\"ops_per_sec\":{:.1},\"us_per_op\":{:.4},\"mb_per_sec\":{}}}",
                    json_str(&r.name),
                    json_str(&r.backend),
                    r.ops_per_sec,
                    1e6 / r.ops_per_sec,
                    mbs
                )
            })
            .collect();
        writeln!(
            out,
            "{{\"hardware\":{},\"rows\":[{}]}}",
            json_str(&hardware),
            rows.join(",")
        )
        .map_err(werr)?;
        out.flush().map_err(werr)?;
    }
    Ok(())
}
