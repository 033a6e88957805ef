//! The one table of the workspace's crates. Every leg of `cargo xtask test` that names crates
//! takes them from [`CRATES`]: adding a crate (or a valgrind check) is adding one row.
//!
//! The legs that are not per crate (fmt, host clippy, native tests) run over the whole
//! workspace and need no row.

/// What the aarch64 legs do with a crate.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Aarch64 {
    /// Not built for aarch64.
    No,
    /// `cargo clippy --target aarch64-unknown-linux-gnu --all-targets` only (no tests to run
    /// under qemu, e.g. the testkit).
    Clippy,
    /// Clippy, and its tests under `qemu-aarch64` (`QEMU_CPU=max` and `cortex-a53`).
    ClippyAndQemu,
    /// Clippy, and its tests under `QEMU_CPU=max` only: a crate with no backends of its own, or
    /// whose backends run the same code on both CPUs (NEON is on both) and differ there only in
    /// the Keccak they call (the `cortex-a53` leg's point is the primitives' dispatch without
    /// SHA3/SHA512, which their own rows cover).
    ClippyAndQemuMax,
}

impl Aarch64 {
    /// Whether the crate's tests run under `QEMU_CPU=cpu`.
    pub fn runs_on(self, cpu: &str) -> bool {
        match self {
            Aarch64::No | Aarch64::Clippy => false,
            Aarch64::ClippyAndQemu => true,
            Aarch64::ClippyAndQemuMax => cpu == "max",
        }
    }
}

/// Which emulated x86 CPUs (`qemu-x86_64 -cpu ...`) run a crate's tests.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum QemuX86 {
    /// None.
    No,
    /// Every CPU of the matrix (Nehalem, Westmere, Haswell, Broadwell): the crates that
    /// dispatch, whose detection and backends each CPU exercises differently.
    Every,
    /// `-cpu Haswell` only (AVX2 without AVX-512 under every primitive): a crate with no
    /// backends of its own, whose other CPUs would only repeat the primitives' rows at several
    /// minutes a leg.
    HaswellOnly,
    /// `-cpu Broadwell` only (the first with BMI2 + ADX): a crate whose only emulable x86
    /// backend is `x86_bmi2_adx` (its other one is AVX-512, which qemu cannot run); the native
    /// leg runs every backend explicitly, Broadwell its dispatch without AVX-512.
    BroadwellOnly,
}

impl QemuX86 {
    /// Whether the crate's tests run under `qemu-x86_64 -cpu cpu`.
    pub fn runs_on(self, cpu: &str) -> bool {
        match self {
            QemuX86::No => false,
            QemuX86::Every => true,
            QemuX86::HaswellOnly => cpu == "Haswell",
            QemuX86::BroadwellOnly => cpu == "Broadwell",
        }
    }
}

/// A constant-time example run under `valgrind --tool=memcheck --error-exitcode=1`.
///
/// The example (see `tessera_testkit::ct::main`) marks secrets undefined with client requests,
/// refuses to run outside valgrind (exit 3) and exits 2 when this CPU, as valgrind presents
/// it, lacks the backend an argument names. Every argument in `args` must pass (exit 0); the
/// implicit argument `canary` is the negative control, a branch on a secret byte that memcheck
/// must report (exit 1).
pub struct CtExample {
    /// The `[[example]]` name.
    pub example: &'static str,
    /// The arguments that must pass. The backend an argument names is its last `:`-separated
    /// part (`sha256:x86_shani` names `x86_shani`), looked up in `TESSERA_EXPECT_BACKENDS`.
    pub args: &'static [&'static str],
}

/// One crate of the workspace and the legs that cover it.
pub struct Crate {
    /// The Cargo package name.
    pub package: &'static str,
    /// Has portable code: its tests run in the forced-portable (`TESSERA_FORCE_BACKEND`) and
    /// compile-time portable (`--cfg tessera_backend`) legs, and its unit tests under Miri on
    /// the host and on big-endian s390x.
    pub portable: bool,
    /// The emulated x86 CPUs its tests run under.
    pub qemu_x86: QemuX86,
    /// Its place in the aarch64 legs.
    pub aarch64: Aarch64,
    /// `Some(features)`: its library is checked for a bare-metal target (no std, no
    /// allocator) with default features plus these (the trait features that need no
    /// allocator); `None`: not a `no_std` crate.
    pub no_std: Option<&'static [&'static str]>,
    /// Its constant-time examples under valgrind.
    pub valgrind: &'static [CtExample],
    /// Its statistical timing examples (dudect): one leg per argument (a target named
    /// `operation:backend`), run natively from a release build, each passing when it exits 0.
    /// Exit 2 is a backend this CPU lacks (a failure when `TESSERA_EXPECT_BACKENDS` lists it,
    /// as for valgrind); the implicit argument `control` runs the negative controls, which exit
    /// 0 only when the harness flags them. See `crates/ct-dudect`.
    pub timing: &'static [CtExample],
    /// Long tests run once natively with `TESSERA_LONG_TESTS=1` (never under qemu or Miri),
    /// as `(test target, test name)`; without the variable such a test prints SKIPPED.
    pub long_tests: &'static [(&'static str, &'static str)],
}

impl CtExample {
    /// The example `example`, which must pass with each of `args`.
    pub const fn new(example: &'static str, args: &'static [&'static str]) -> Self {
        CtExample { example, args }
    }
}

impl Crate {
    /// The usual row of a primitive crate that dispatches between backends: portable code,
    /// tests under every emulated x86 CPU and both aarch64 CPUs, a `no_std` library with
    /// default features, and no constant-time examples or long tests. A row that differs
    /// overrides fields with `Crate { field: ..., ..Crate::primitive(package) }`.
    pub const fn primitive(package: &'static str) -> Self {
        Crate {
            package,
            portable: true,
            qemu_x86: QemuX86::Every,
            aarch64: Aarch64::ClippyAndQemu,
            no_std: Some(&[]),
            valgrind: &[],
            timing: &[],
            long_tests: &[],
        }
    }

    /// A host-only tool crate (no portable code, no emulated or aarch64 legs, not `no_std`)
    /// that no leg covers until a row sets a field with `Crate { ..., ..Crate::tool(package) }`.
    pub const fn tool(package: &'static str) -> Self {
        Crate {
            package,
            portable: false,
            qemu_x86: QemuX86::No,
            aarch64: Aarch64::No,
            no_std: None,
            valgrind: &[],
            timing: &[],
            long_tests: &[],
        }
    }
}

/// Every crate of the workspace but the benches and xtask.
pub const CRATES: &[Crate] = &[
    Crate::primitive("tessera-cpu"),
    Crate {
        aarch64: Aarch64::Clippy,
        ..Crate::tool("tessera-testkit")
    },
    Crate {
        no_std: Some(&["digest"]),
        ..Crate::primitive("tessera-keccak")
    },
    Crate {
        no_std: Some(&["digest"]),
        ..Crate::primitive("tessera-sha2")
    },
    Crate {
        no_std: Some(&["aead"]),
        ..Crate::primitive("tessera-aes-gcm")
    },
    Crate {
        long_tests: &[("kat", "rfc7748_5_2_iterated_1000000")],
        no_std: Some(&["pkcs8", "kem"]),
        ..Crate::primitive("tessera-x25519")
    },
    Crate {
        no_std: Some(&["aead"]),
        ..Crate::primitive("tessera-chacha20poly1305")
    },
    Crate {
        no_std: Some(&["kem", "pkcs8"]),
        ..Crate::primitive("tessera-mlkem")
    },
    Crate {
        no_std: Some(&["kem", "pkcs8"]),
        ..Crate::primitive("tessera-xwing")
    },
    // Its rows: portable, x86_bmi2_adx, x86_avx512_ifma (native only) and aarch64 (the same
    // code on both emulated aarch64 CPUs): one emulated CPU of each architecture runs its
    // suite (Wycheproof and CAVP on every backend, the differential proptests).
    Crate {
        no_std: Some(&["pkcs8", "signature"]),
        qemu_x86: QemuX86::BroadwellOnly,
        aarch64: Aarch64::ClippyAndQemuMax,
        ..Crate::primitive("tessera-p256")
    },
    // Miri runs its unit tests: one ML-DSA-44 key generation and signature (and the
    // arithmetic unit tests; the exhaustive Decompose check is skipped there).
    // Every x86 CPU of the matrix runs its suite: Nehalem and Westmere the portable
    // polynomial layer, Haswell and Broadwell the AVX2 one (`x86_avx2`, with
    // tessera-keccak's x4/x1 backends); each emulated run takes tens of seconds (20 to 35 s
    // on Haswell here). Both aarch64 CPUs run its `aarch64_neon` polynomial layer (expected
    // through `TESSERA_EXPECT_BACKENDS`, so a run without it fails): on max with the SHA3
    // extension's x4 Keccak, on cortex-a53 with the NEON x4 Keccak and portable x1 (about
    // 15 s, from the max leg's build).
    Crate {
        no_std: Some(&["signature", "pkcs8"]),
        ..Crate::primitive("tessera-mldsa")
    },
    // The umbrella crate: HPKE over the primitives (no code of its own that dispatches: its
    // tests run with every backend choice of the crates below it; Miri runs its small unit
    // suite, one X25519 suite and one one-stage KDF). Under emulation its suite (Wycheproof's
    // curve sets, 24,672 RFC 9180 encryptions) takes about three minutes a CPU, so it runs on
    // one x86 CPU and one aarch64 CPU; native, forced portable and cfg portable run it whole.
    Crate {
        qemu_x86: QemuX86::HaswellOnly,
        aarch64: Aarch64::ClippyAndQemuMax,
        ..Crate::primitive("tessera")
    },
    // The rustls provider: no backends of its own (its primitives' are covered above); its
    // in-memory handshake matrix against rustls' aws-lc-rs and ring providers and its loopback
    // interop with OpenSSL and curl run natively and with every primitive forced portable.
    Crate::tool("tessera-rustls"),
    // The `tessera` command: its tests (against coreutils and OpenSSL; HPKE files) run in the
    // native leg; the 1 GiB flat-memory round trip is a long test.
    Crate {
        long_tests: &[("hpke", "peak_rss_is_flat_1gib")],
        ..Crate::tool("tessera-cli")
    },
    // The constant-time examples of every crate above, one per crate, in a crate of their own
    // whose release build compiles the checked crates without their test-only peer libraries.
    Crate {
        valgrind: &[
            // One backend name of either table (x1: portable, x86_bmi; x4: x86_avx2).
            CtExample::new("keccak", &["portable", "x86_bmi", "x86_avx2"]),
            // One backend name of either table (`portable` runs both families). Valgrind 3.19
            // hides SHA-NI from the program (its CPU model has none), so x86_shani cannot be
            // checked here; AVX2 and BMI are emulated.
            CtExample::new("sha2", &["portable", "x86_avx2_bmi"]),
            // Valgrind cannot run VAES code.
            CtExample::new("aes_gcm", &["portable", "x86_aesni"]),
            // Valgrind hides ADX from the program's CPUID but executes ADCX/ADOX; the example
            // takes the BMI2/ADX token after checking /proc/cpuinfo itself.
            // Valgrind cannot run AVX-512 code (x86_avx512_ifma).
            CtExample::new("x25519", &["portable", "x86_bmi2_adx"]),
            // P-256 key generation, ECDH and ECDSA signing; valgrind hides ADX as for x25519,
            // and cannot run AVX-512 code (x86_avx512_ifma: the dudect targets).
            CtExample::new("p256", &["portable", "x86_bmi2_adx"]),
            // Valgrind cannot run AVX-512 code.
            CtExample::new("chacha20poly1305", &["portable", "x86_avx2"]),
            CtExample::new("mlkem", &["portable", "x86_avx2"]),
            CtExample::new("mldsa", &["portable", "x86_avx2"]),
            // tessera::hpke's own X448 ladder (crypto-bigint arithmetic, one implementation):
            // DHKEM(X448) DeriveKeyPair and DeserializePrivateKey.
            CtExample::new("x448", &["portable"]),
            // tessera::hpke: DHKEM(X25519) key derivation, the ML-KEM KEMs and X-Wing (derive,
            // decap, SetupR with open and export). HPKE detects its primitives' backends
            // itself: `portable` forces them (TESSERA_FORCE_BACKEND, set by the example),
            // `detected` keeps the dispatcher's choice on valgrind's CPU (AVX2, AES-NI).
            CtExample::new("hpke", &["portable", "detected"]),
        ],
        ..Crate::tool("tessera-ct-valgrind")
    },
    // Statistical constant-time tests (dudect: fixed against random secrets, Welch's t-test
    // on rdtsc cycle counts) of the islands valgrind cannot execute, in a crate of their own
    // whose release build shares tessera-ct-valgrind's. Every target first has the harness flag
    // a deliberately leaky comparison (else it fails); about 20 s for all the legs together.
    Crate {
        // The targets: the AVX-512, IFMA and VAES-512 islands that handle secrets, and ML-KEM
        // decapsulation on its best backend (`tessera_testkit::ct::DUDECT_TARGETS`).
        timing: &[CtExample::new(
            "dudect",
            tessera_testkit::ct::DUDECT_TARGETS,
        )],
        ..Crate::tool("tessera-ct-dudect")
    },
];

/// The packages of the rows `keep` selects, in table order.
pub fn packages(keep: impl Fn(&Crate) -> bool) -> Vec<&'static str> {
    CRATES
        .iter()
        .filter(|c| keep(c))
        .map(|c| c.package)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row names a workspace member, once; every valgrind example has arguments.
    #[test]
    fn rows_are_members() {
        let manifest = std::fs::read_to_string(crate::cmd::root().join("Cargo.toml"))
            .expect("workspace Cargo.toml");
        let mut seen = Vec::new();
        for c in CRATES {
            assert!(!seen.contains(&c.package), "{} listed twice", c.package);
            seen.push(c.package);
            let dir = match c.package {
                "tessera" => "tessera",
                p => p.trim_start_matches("tessera-"),
            };
            assert!(
                manifest.contains(&format!("\"crates/{dir}\"")),
                "{} is not a member crates/{dir}",
                c.package
            );
            // Every example has arguments, and none names the implicit negative control.
            let kinds = [(c.valgrind, "canary"), (c.timing, "control")];
            for (examples, control) in kinds {
                for e in examples {
                    assert!(
                        !e.args.is_empty(),
                        "{} {}: no arguments",
                        c.package,
                        e.example
                    );
                    assert!(!e.args.contains(&control), "{control} is implicit");
                }
            }
            for e in c.timing {
                for a in e.args {
                    assert!(a.contains(':'), "{a}: a target is operation:backend");
                }
            }
        }
    }
}
