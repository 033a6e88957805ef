//! tessera-rustls against real peers: `openssl s_server`, `openssl s_client` and `curl`.
//!
//! Certificates are made here with rcgen: an ECDSA P-256 CA, and ECDSA P-256 and RSA 2048
//! leaves for `localhost` and `127.0.0.1`. Each combination of protocol version, cipher suite,
//! key-exchange group and leaf key is forced on both sides (the provider cut down to one suite
//! and one group; OpenSSL restricted with `-ciphersuites`/`-cipher` and `-groups`), and both
//! sides' view of what was negotiated is checked. (One exception, from TLS 1.2 itself: with an
//! ECDSA leaf the client also offers P-256, the leaf's curve; the server stays restricted.)
//! curl and the example client fetch a file from the example server's code, compared byte for
//! byte; a certificate with a forged issuer signature must be refused.
//!
//! A combination is skipped, with its reason printed, only when one side lacks it by design:
//! a group this OpenSSL does not have (ML-KEM before OpenSSL 3.5), or an RSA leaf when the
//! provider cannot sign with RSA (our server) or verify RSA-PSS (our client). A suite or group
//! of the list below that the provider lacks is a failure. `openssl` and `curl` must be
//! installed: without them the tests fail.
//!
//! Every child process is killed after at most [`DEADLINE`]; ports come from binding
//! `127.0.0.1:0`.
//!
//! Built where the rcgen dev-dependency is (Cargo.toml: it needs aws-lc-rs): x86_64, neither
//! Miri nor the compile-time portable leg.
#![cfg(all(target_arch = "x86_64", not(any(miri, tessera_backend = "portable"))))]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{
    CipherSuite, ClientConfig, NamedGroup, ProtocolVersion, RootCertStore, ServerConfig,
    SignatureScheme, SupportedProtocolVersion,
};

#[path = "interop/client_common.rs"]
mod client_common;
#[path = "interop/server_common.rs"]
mod server_common;

/// The provider under test. (Returning `rustls::crypto::aws_lc_rs::default_provider()` runs the
/// same matrix on rustls' aws-lc-rs provider, a check of the test itself.)
fn provider() -> CryptoProvider {
    tessera_rustls::provider()
}

/// The longest any child process or connection may run.
const DEADLINE: Duration = Duration::from_secs(10);

// ---------------------------------------------------------------------------------------------
// The combinations

#[derive(Clone, Copy, PartialEq, Debug)]
enum Version {
    Tls13,
    Tls12,
}

/// Which end of the connection tessera-rustls is.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Side {
    Client,
    Server,
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum LeafKind {
    Ecdsa,
    Rsa,
}

struct Suite {
    suite: CipherSuite,
    /// OpenSSL's name (`-ciphersuites` for TLS 1.3, `-cipher` for TLS 1.2).
    openssl: &'static str,
    version: Version,
    leaf: LeafKind,
}

struct Group {
    group: NamedGroup,
    /// OpenSSL's `-groups` name.
    openssl: &'static str,
    /// How s_client's `Server Temp Key:` line starts for this group.
    temp_key: &'static str,
    /// The name of s_server's `Shared groups:` line.
    shared: &'static str,
    /// An ML-KEM group (hybrid or not): TLS 1.3 only, and OpenSSL has them from 3.5 on.
    mlkem: bool,
}

const fn suite(
    suite: CipherSuite,
    openssl: &'static str,
    version: Version,
    leaf: LeafKind,
) -> Suite {
    Suite {
        suite,
        openssl,
        version,
        leaf,
    }
}

/// Every classical suite of rustls that OpenSSL also has, with the leaf key it needs (TLS 1.3
/// suites with both).
fn suites() -> Vec<Suite> {
    use CipherSuite as C;
    use LeafKind::{Ecdsa, Rsa};
    use Version::{Tls12, Tls13};
    let mut all = Vec::new();
    for leaf in [Ecdsa, Rsa] {
        all.push(suite(
            C::TLS13_AES_128_GCM_SHA256,
            "TLS_AES_128_GCM_SHA256",
            Tls13,
            leaf,
        ));
        all.push(suite(
            C::TLS13_AES_256_GCM_SHA384,
            "TLS_AES_256_GCM_SHA384",
            Tls13,
            leaf,
        ));
        all.push(suite(
            C::TLS13_CHACHA20_POLY1305_SHA256,
            "TLS_CHACHA20_POLY1305_SHA256",
            Tls13,
            leaf,
        ));
    }
    all.extend([
        suite(
            C::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
            "ECDHE-ECDSA-AES128-GCM-SHA256",
            Tls12,
            Ecdsa,
        ),
        suite(
            C::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
            "ECDHE-ECDSA-AES256-GCM-SHA384",
            Tls12,
            Ecdsa,
        ),
        suite(
            C::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
            "ECDHE-ECDSA-CHACHA20-POLY1305",
            Tls12,
            Ecdsa,
        ),
        suite(
            C::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
            "ECDHE-RSA-AES128-GCM-SHA256",
            Tls12,
            Rsa,
        ),
        suite(
            C::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
            "ECDHE-RSA-AES256-GCM-SHA384",
            Tls12,
            Rsa,
        ),
        suite(
            C::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
            "ECDHE-RSA-CHACHA20-POLY1305",
            Tls12,
            Rsa,
        ),
    ]);
    all
}

fn groups() -> [Group; 6] {
    let classical = |group, openssl, temp_key, shared| Group {
        group,
        openssl,
        temp_key,
        shared,
        mlkem: false,
    };
    // ML-KEM groups: OpenSSL's names from 3.5 on; TLS 1.3 only.
    let mlkem = |group, openssl| Group {
        group,
        openssl,
        temp_key: openssl,
        shared: openssl,
        mlkem: true,
    };
    [
        classical(NamedGroup::X25519, "X25519", "X25519", "x25519"),
        classical(
            NamedGroup::secp256r1,
            "P-256",
            "ECDH, prime256v1",
            "secp256r1",
        ),
        classical(
            NamedGroup::secp384r1,
            "P-384",
            "ECDH, secp384r1",
            "secp384r1",
        ),
        mlkem(NamedGroup::X25519MLKEM768, "X25519MLKEM768"),
        mlkem(NamedGroup::MLKEM768, "MLKEM768"),
        mlkem(NamedGroup::MLKEM1024, "MLKEM1024"),
    ]
}

enum Outcome {
    Passed,
    Skipped(String),
    Failed(String),
}

/// Runs `run` on every (suite, group) combination, prints a table, and fails on any failure.
fn run_matrix(
    title: &str,
    side: Side,
    run: impl Fn(&Fixture, &Suite, &Group) -> Result<(), String>,
) {
    let fx = fixture();
    let mut rows = Vec::new();
    for suite in suites() {
        for group in groups() {
            if suite.version == Version::Tls12 && group.mlkem {
                continue; // ML-KEM groups are TLS 1.3 only: not a combination at all
            }
            let name = format!("{:?} {:?} {:?} leaf", suite.suite, group.group, suite.leaf);
            let outcome = match skip_reason(fx, side, &suite, &group) {
                Some(reason) => Outcome::Skipped(reason),
                None => match run(fx, &suite, &group) {
                    Ok(()) => Outcome::Passed,
                    Err(e) => Outcome::Failed(e),
                },
            };
            rows.push((name, outcome));
        }
    }
    report(title, &rows);
}

fn report(title: &str, rows: &[(String, Outcome)]) {
    let count = |f: fn(&Outcome) -> bool| rows.iter().filter(|(_, o)| f(o)).count();
    let passed = count(|o| matches!(o, Outcome::Passed));
    let skipped = count(|o| matches!(o, Outcome::Skipped(_)));
    let failed = count(|o| matches!(o, Outcome::Failed(_)));
    println!("{title}: {passed} passed, {skipped} skipped, {failed} failed");
    for (name, outcome) in rows {
        match outcome {
            Outcome::Passed => println!("  pass  {name}"),
            Outcome::Skipped(why) => println!("  SKIP  {name}: {why}"),
            Outcome::Failed(why) => println!("  FAIL  {name}: {why}"),
        }
    }
    assert_eq!(
        failed, 0,
        "{title}: {failed} combinations failed (table above)"
    );
    assert!(passed > 0, "{title}: nothing ran");
}

/// Why a combination cannot run, when one side lacks it by design.
fn skip_reason(fx: &Fixture, side: Side, suite: &Suite, group: &Group) -> Option<String> {
    if group.mlkem && !fx.openssl_has_mlkem {
        return Some(format!(
            "{} has no ML-KEM (`openssl list -kem-algorithms`; ML-KEM groups arrived in 3.5)",
            fx.openssl_version
        ));
    }
    if suite.leaf != LeafKind::Rsa {
        return None;
    }
    let p = provider();
    match side {
        // Our server signs with the RSA leaf key.
        Side::Server
            if p.key_provider
                .load_private_key(fx.rsa.key.clone_key())
                .is_err() =>
        {
            Some("the provider loads no RSA private key".into())
        }
        // Our client verifies the RSA leaf's signatures (RSA-PSS, as TLS 1.3 requires and
        // OpenSSL prefers in TLS 1.2 too).
        Side::Client
            if !p
                .signature_verification_algorithms
                .supported_schemes()
                .contains(&SignatureScheme::RSA_PSS_SHA256) =>
        {
            Some("the provider verifies no RSA-PSS signature".into())
        }
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Fixture: certificates, served files, tool checks

struct Leaf {
    cert_pem: PathBuf,
    key_pem: PathBuf,
    cert: CertificateDer<'static>,
    key: PrivateKeyDer<'static>,
}

struct Fixture {
    dir: PathBuf,
    ca_pem: PathBuf,
    ca: CertificateDer<'static>,
    ecdsa: Leaf,
    rsa: Leaf,
    /// An ECDSA leaf whose issuer has the CA's name but not its key: its signature must not
    /// verify under the CA's key.
    forged: Leaf,
    /// `hello.txt`: a short file with a random token, for s_client.
    hello: Vec<u8>,
    /// `big.bin`: 1 MiB + 1 random bytes, for curl.
    big: Vec<u8>,
    openssl_version: String,
    openssl_has_mlkem: bool,
}

impl Fixture {
    fn leaf(&self, kind: LeafKind) -> &Leaf {
        match kind {
            LeafKind::Ecdsa => &self.ecdsa,
            LeafKind::Rsa => &self.rsa,
        }
    }

    fn roots(&self) -> RootCertStore {
        let mut roots = RootCertStore::empty();
        roots.add(self.ca.clone()).expect("CA certificate");
        roots
    }
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(make_fixture)
}

fn make_fixture() -> Fixture {
    // "OpenSSL 3.0.19 27 Jan 2026 (Library: ...)": the first two words.
    let version = tool_output("openssl", &["version"]);
    let openssl_version = version
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    let kems = tool_output("openssl", &["list", "-kem-algorithms"]);
    let openssl_has_mlkem = kems.contains("ML-KEM-768");
    tool_output("curl", &["--version"]);

    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    remove_stale_fixtures(tmp);
    let dir = tmp.join(format!("interop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");

    use rcgen::{
        BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer,
        KeyPair, KeyUsagePurpose, PKCS_ECDSA_P256_SHA256, PKCS_RSA_SHA256, RsaKeySize,
    };
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "tessera-rustls interop CA");
    ca_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let ca_key = KeyPair::generate_for(&PKCS_ECDSA_P256_SHA256).expect("CA key");
    let ca_cert = ca_params.self_signed(&ca_key).expect("CA certificate");
    // An impostor: the same name as the CA, another key.
    let impostor = Issuer::new(
        ca_params.clone(),
        KeyPair::generate_for(&PKCS_ECDSA_P256_SHA256).unwrap(),
    );
    let issuer = Issuer::new(ca_params, ca_key);
    let ca_pem = dir.join("ca.pem");
    std::fs::write(&ca_pem, ca_cert.pem()).unwrap();

    let make_leaf = |name: &str, key: KeyPair, issuer: &Issuer<'_, KeyPair>| {
        let mut params =
            CertificateParams::new(vec!["localhost".to_string(), "127.0.0.1".to_string()])
                .expect("leaf params");
        params
            .distinguished_name
            .push(DnType::CommonName, "localhost");
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let cert = params.signed_by(&key, issuer).expect("leaf certificate");
        let cert_pem = dir.join(format!("{name}.pem"));
        let key_pem = dir.join(format!("{name}.key.pem"));
        std::fs::write(&cert_pem, cert.pem()).unwrap();
        std::fs::write(&key_pem, key.serialize_pem()).unwrap();
        let key_der = PrivateKeyDer::try_from(key.serialize_der()).expect("PKCS#8 key");
        Leaf {
            cert_pem,
            key_pem,
            cert: cert.der().clone(),
            key: key_der,
        }
    };
    let p256_key = || KeyPair::generate_for(&PKCS_ECDSA_P256_SHA256).unwrap();
    let ecdsa = make_leaf("ecdsa", p256_key(), &issuer);
    let rsa_key = KeyPair::generate_rsa_for(&PKCS_RSA_SHA256, RsaKeySize::_2048).unwrap();
    let rsa = make_leaf("rsa", rsa_key, &issuer);
    let forged = make_leaf("forged", p256_key(), &impostor);

    let mut random = vec![0u8; 1024 * 1024 + 1 + 16];
    provider()
        .secure_random
        .fill(&mut random)
        .expect("randomness");
    let token: String = random[..16].iter().map(|b| format!("{b:02x}")).collect();
    let hello = format!("hello from tessera-rustls {token}\n").into_bytes();
    let big = random[16..].to_vec();
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(files.join("hello.txt"), &hello).unwrap();
    std::fs::write(files.join("big.bin"), &big).unwrap();

    Fixture {
        dir,
        ca_pem,
        ca: ca_cert.der().clone(),
        ecdsa,
        rsa,
        forged,
        hello,
        big,
        openssl_version,
        openssl_has_mlkem,
    }
}

/// Removes the fixture directories of earlier runs (over an hour old: no run lasts that long).
fn remove_stale_fixtures(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > Duration::from_secs(3600)));
        if old && entry.file_name().to_string_lossy().starts_with("interop-") {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Runs a tool that must be installed; fails the test with a clear message when it is not.
fn tool_output(tool: &str, args: &[&str]) -> String {
    let out = Command::new(tool)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "`{tool}` is required by the interop tests and could not be run ({e}); install it"
            )
        });
    assert!(
        out.status.success(),
        "`{tool} {}` failed: {:?}",
        args.join(" "),
        out
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

// ---------------------------------------------------------------------------------------------
// Configurations

fn versions(v: Version) -> &'static [&'static SupportedProtocolVersion] {
    static TLS13: [&SupportedProtocolVersion; 1] = [&rustls::version::TLS13];
    static TLS12: [&SupportedProtocolVersion; 1] = [&rustls::version::TLS12];
    match v {
        Version::Tls13 => &TLS13,
        Version::Tls12 => &TLS12,
    }
}

fn protocol(v: Version) -> ProtocolVersion {
    match v {
        Version::Tls13 => ProtocolVersion::TLSv1_3,
        Version::Tls12 => ProtocolVersion::TLSv1_2,
    }
}

/// The provider cut down to one suite and one group; an error when it has either not.
fn restricted(suite: &Suite, group: &Group) -> Result<Arc<CryptoProvider>, String> {
    let mut p = provider();
    p.cipher_suites.retain(|s| s.suite() == suite.suite);
    p.kx_groups.retain(|g| g.name() == group.group);
    if p.cipher_suites.is_empty() {
        return Err(format!("the provider has no {:?}", suite.suite));
    }
    if p.kx_groups.is_empty() {
        return Err(format!("the provider has no {:?}", group.group));
    }
    Ok(Arc::new(p))
}

/// In TLS 1.2 the client's supported groups also name the curves it accepts in ECDSA
/// certificates (RFC 8422, section 5.1), so a client that offers only X25519 rules out the
/// P-256 leaf ("wrong curve"). For those combinations the client also offers P-256 and the
/// server, which picks the group, stays restricted to the one under test.
fn client_needs_leaf_curve(suite: &Suite, group: &Group) -> bool {
    suite.version == Version::Tls12
        && suite.leaf == LeafKind::Ecdsa
        && group.group != NamedGroup::secp256r1
}

/// [`restricted`] for a client: with P-256 added where [`client_needs_leaf_curve`].
fn restricted_client(suite: &Suite, group: &Group) -> Result<Arc<CryptoProvider>, String> {
    let p = restricted(suite, group)?;
    if !client_needs_leaf_curve(suite, group) {
        return Ok(p);
    }
    let mut p = Arc::unwrap_or_clone(p);
    let p256 = provider()
        .kx_groups
        .into_iter()
        .find(|g| g.name() == NamedGroup::secp256r1);
    p.kx_groups
        .push(p256.ok_or("the provider has no secp256r1")?);
    Ok(Arc::new(p))
}

fn client_config(
    provider: Arc<CryptoProvider>,
    version: Version,
    fx: &Fixture,
) -> Result<Arc<ClientConfig>, String> {
    let config = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(versions(version))
        .map_err(|e| format!("client config: {e}"))?
        .with_root_certificates(fx.roots())
        .with_no_client_auth();
    Ok(Arc::new(config))
}

fn server_config(
    provider: Arc<CryptoProvider>,
    versions: &[&'static SupportedProtocolVersion],
    leaf: &Leaf,
) -> Result<Arc<ServerConfig>, String> {
    let config = ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(versions)
        .map_err(|e| format!("server config: {e}"))?
        .with_no_client_auth()
        .with_single_cert(vec![leaf.cert.clone()], leaf.key.clone_key())
        .map_err(|e| format!("server certificate: {e}"))?;
    Ok(Arc::new(config))
}

/// What a rustls connection negotiated, against what was asked for.
fn check_negotiated(
    side: &str,
    common: &rustls::CommonState,
    suite: &Suite,
    group: &Group,
) -> Result<(), String> {
    let got_suite = common.negotiated_cipher_suite().map(|s| s.suite());
    let got_group = common.negotiated_key_exchange_group().map(|g| g.name());
    let got_version = common.protocol_version();
    if got_suite != Some(suite.suite)
        || got_group != Some(group.group)
        || got_version != Some(protocol(suite.version))
    {
        return Err(format!(
            "{side} negotiated {got_version:?} {got_suite:?} {got_group:?}, expected {:?} {:?} {:?}",
            protocol(suite.version),
            suite.suite,
            group.group
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Child processes

/// A child process killed when dropped, with its output collected on threads (so it never
/// blocks on a full pipe).
struct Proc {
    child: Child,
    stdout_lines: mpsc::Receiver<String>,
    stdout: Option<thread::JoinHandle<String>>,
    stderr: Option<thread::JoinHandle<String>>,
    started: Instant,
}

impl Proc {
    fn spawn(cmd: &mut Command) -> Proc {
        let program = cmd.get_program().to_string_lossy().into_owned();
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("`{program}` is required and could not be run ({e})"));
        let (tx, stdout_lines) = mpsc::channel();
        let out = child.stdout.take().unwrap();
        let stdout = thread::spawn(move || {
            let (mut all, mut out) = (String::new(), BufReader::new(out));
            let mut line = Vec::new();
            while out.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
                let text = String::from_utf8_lossy(&line).into_owned();
                all.push_str(&text);
                let _ = tx.send(text);
                line.clear();
            }
            all
        });
        let mut err = child.stderr.take().unwrap();
        let stderr = thread::spawn(move || {
            let mut all = Vec::new();
            let _ = err.read_to_end(&mut all);
            String::from_utf8_lossy(&all).into_owned()
        });
        Proc {
            child,
            stdout_lines,
            stdout: Some(stdout),
            stderr: Some(stderr),
            started: Instant::now(),
        }
    }

    fn remaining(&self) -> Duration {
        DEADLINE.saturating_sub(self.started.elapsed())
    }

    /// Waits for a stdout line starting with `prefix`, at most until the deadline.
    fn wait_for_line(&self, prefix: &str) -> Result<(), String> {
        loop {
            match self.stdout_lines.recv_timeout(self.remaining()) {
                Ok(line) if line.starts_with(prefix) => return Ok(()),
                Ok(_) => {}
                Err(_) => return Err(format!("no `{prefix}` line from the child")),
            }
        }
    }

    /// Waits for the exit, killing the child at the deadline. Returns the status (`None` when
    /// killed), stdout and stderr.
    fn finish(mut self) -> (Option<ExitStatus>, String, String) {
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if self.remaining() > Duration::ZERO => {
                    thread::sleep(Duration::from_millis(5))
                }
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    break None;
                }
            }
        };
        // The pipes close with the child, so the readers end.
        let join = |h: Option<thread::JoinHandle<String>>| {
            h.map(|h| h.join().unwrap_or_default()).unwrap_or_default()
        };
        (status, join(self.stdout.take()), join(self.stderr.take()))
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    listener.local_addr().unwrap().port()
}

/// The value of the first `key : value` line of `text` whose key is `key`.
fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim() == key)
        .map(|(_, v)| v.trim())
}

/// Restricts OpenSSL to the version, suite and groups (the group under test, and for a client
/// also P-256 where [`client_needs_leaf_curve`]).
fn openssl_args(cmd: &mut Command, suite: &Suite, group: &Group, client: bool) {
    match suite.version {
        Version::Tls13 => cmd.args(["-tls1_3", "-ciphersuites", suite.openssl]),
        Version::Tls12 => cmd.args(["-tls1_2", "-cipher", suite.openssl]),
    };
    if client && client_needs_leaf_curve(suite, group) {
        cmd.args(["-groups", &format!("{}:P-256", group.openssl)]);
    } else {
        cmd.args(["-groups", group.openssl]);
    }
}

// ---------------------------------------------------------------------------------------------
// openssl s_server <-> tessera-rustls client

/// One connection of our client to `openssl s_server -www`, whose status page tells what the
/// server negotiated.
fn client_against_s_server(fx: &Fixture, suite: &Suite, group: &Group) -> Result<(), String> {
    let config = client_config(restricted_client(suite, group)?, suite.version, fx)?;
    let leaf = fx.leaf(suite.leaf);
    let port = free_port();
    let mut cmd = Command::new("openssl");
    cmd.arg("s_server")
        .arg("-accept")
        .arg(format!("127.0.0.1:{port}"));
    cmd.args(["-naccept", "1", "-www"])
        .arg("-cert")
        .arg(&leaf.cert_pem);
    cmd.arg("-key").arg(&leaf.key_pem);
    openssl_args(&mut cmd, suite, group, false);
    let server = Proc::spawn(cmd.stdin(Stdio::null()));

    let result = server.wait_for_line("ACCEPT").and_then(|()| {
        // By IP address: the certificate's IP SAN is what gets checked.
        let (response, tls) = client_common::get(config, "127.0.0.1", port, "/")
            .map_err(|e| format!("client: {e}"))?;
        check_negotiated("client", &tls.conn, suite, group)?;
        let page = String::from_utf8_lossy(&response.body).into_owned();
        let want_protocol = match suite.version {
            Version::Tls13 => "TLSv1.3",
            Version::Tls12 => "TLSv1.2",
        };
        let got = (
            field(&page, "Protocol"),
            field(&page, "Cipher"),
            field(&page, "Shared groups"),
        );
        if response.status != 200
            || got != (Some(want_protocol), Some(suite.openssl), Some(group.shared))
        {
            return Err(format!(
                "s_server reports {got:?}, expected {want_protocol} {} {} (status {})",
                suite.openssl, group.shared, response.status
            ));
        }
        Ok(())
    });
    let (status, _, stderr) = server.finish();
    result.map_err(|e| format!("{e}; s_server exit {status:?}, stderr: {}", stderr.trim()))
}

#[test]
fn openssl_s_server_with_tessera_client() {
    run_matrix(
        "openssl s_server <- tessera-rustls client",
        Side::Client,
        client_against_s_server,
    );
}

// ---------------------------------------------------------------------------------------------
// tessera-rustls server <-> openssl s_client

/// One connection of `openssl s_client` to our server (the example's request handling),
/// requesting `hello.txt`.
fn s_client_against_server(fx: &Fixture, suite: &Suite, group: &Group) -> Result<(), String> {
    let leaf = fx.leaf(suite.leaf);
    let config = server_config(restricted(suite, group)?, versions(suite.version), leaf)?;
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let port = listener.local_addr().unwrap().port();
    let dir = fx.dir.join("files");
    let server = thread::spawn(move || -> Result<server_common::TlsStream, String> {
        let sock = accept_within_deadline(&listener)?;
        let mut tls = server_common::accept(config, sock).map_err(|e| e.to_string())?;
        server_common::handle(&mut tls, &dir).map_err(|e| format!("server: {e}"))?;
        Ok(tls)
    });

    let mut cmd = Command::new("openssl");
    cmd.arg("s_client")
        .arg("-connect")
        .arg(format!("127.0.0.1:{port}"));
    cmd.args(["-servername", "localhost", "-verify_hostname", "localhost"]);
    cmd.arg("-CAfile")
        .arg(&fx.ca_pem)
        .args(["-verify_return_error", "-ign_eof"]);
    openssl_args(&mut cmd, suite, group, true);
    let mut client = Proc::spawn(cmd.stdin(Stdio::piped()));
    let request = b"GET /hello.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    let mut stdin = client.child.stdin.take().unwrap();
    let _ = stdin.write_all(request);
    drop(stdin);
    let (status, stdout, stderr) = client.finish();
    let server = server
        .join()
        .map_err(|_| "server thread panicked".to_string())?;

    let context = || format!("s_client exit {status:?}, stderr: {}", stderr.trim());
    let tls = server.map_err(|e| format!("{e}; {}", context()))?;
    check_negotiated("server", &tls.conn, suite, group)?;
    if !status.is_some_and(|s| s.success()) {
        return Err(format!("s_client failed; {}", context()));
    }
    let version_name = match suite.version {
        Version::Tls13 => "TLSv1.3",
        Version::Tls12 => "TLSv1.2",
    };
    let want_cipher = format!("New, {version_name}, Cipher is {}", suite.openssl);
    let checks = [
        (
            stdout.contains("HTTP/1.1 200 OK"),
            "a 200 response".to_string(),
        ),
        (
            stdout.contains(std::str::from_utf8(&fx.hello).unwrap()),
            "the file's content".into(),
        ),
        (stdout.contains(&want_cipher), want_cipher.clone()),
        (
            s_client_reports_group(&stdout, group),
            format!("the group {}", group.temp_key),
        ),
        (
            stdout.contains("Verify return code: 0 (ok)"),
            "a verified certificate".into(),
        ),
    ];
    for (ok, what) in checks {
        if !ok {
            return Err(format!(
                "s_client output lacks {what}: {stdout}; {}",
                context()
            ));
        }
    }
    Ok(())
}

/// Whether s_client's output names `group` as the key exchange: `Server Temp Key: X25519, 253
/// bits`; for ML-KEM groups (OpenSSL 3.5 on) also a `Negotiated TLS1.3 group:` line.
fn s_client_reports_group(stdout: &str, group: &Group) -> bool {
    let temp_key = field(stdout, "Server Temp Key");
    if temp_key.is_some_and(|v| {
        v.strip_prefix(group.temp_key)
            .is_some_and(|r| r.starts_with(','))
    }) {
        return true;
    }
    group.mlkem && field(stdout, "Negotiated TLS1.3 group") == Some(group.openssl)
}

/// Accepts one connection, giving up at the deadline.
fn accept_within_deadline(listener: &TcpListener) -> Result<std::net::TcpStream, String> {
    listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    let start = Instant::now();
    loop {
        match listener.accept() {
            Ok((sock, _)) => {
                sock.set_nonblocking(false).map_err(|e| e.to_string())?;
                return Ok(sock);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock && start.elapsed() < DEADLINE => {
                thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Err(format!("accept: {e}")),
        }
    }
}

#[test]
fn openssl_s_client_with_tessera_server() {
    run_matrix(
        "openssl s_client -> tessera-rustls server",
        Side::Server,
        s_client_against_server,
    );
}

// ---------------------------------------------------------------------------------------------
// curl and the example client against the example server

/// The example server's configuration (every suite and group of the provider), ECDSA leaf,
/// serving the fixture's files on a background thread. Returns the port.
fn start_example_server(fx: &'static Fixture) -> u16 {
    let config = server_config(Arc::new(provider()), rustls::DEFAULT_VERSIONS, &fx.ecdsa)
        .expect("server configuration");
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().unwrap().port();
    let dir = fx.dir.join("files");
    // Runs until the test process exits.
    thread::spawn(move || server_common::serve(listener, config, dir));
    port
}

#[test]
fn curl_fetches_from_example_server() {
    let fx = fixture();
    let port = start_example_server(fx);
    let mut rows = Vec::new();
    let cases: [(&str, &[&str], &str); 4] = [
        ("localhost", &[], "TLSv1.3"),
        ("127.0.0.1", &[], "TLSv1.3"),
        ("localhost", &["--tlsv1.2", "--tls-max", "1.2"], "TLSv1.2"),
        ("127.0.0.1", &["--tlsv1.2", "--tls-max", "1.2"], "TLSv1.2"),
    ];
    for (i, (host, extra, version)) in cases.into_iter().enumerate() {
        let out = fx.dir.join(format!("curl-{i}.bin"));
        let _ = std::fs::remove_file(&out);
        let mut cmd = Command::new("curl");
        cmd.args(["-sS", "-v", "--fail", "--max-time", "10"])
            .args(extra);
        cmd.arg("--cacert").arg(&fx.ca_pem).arg("-o").arg(&out);
        // `localhost` pinned to 127.0.0.1 (the server listens there only).
        cmd.arg("--resolve")
            .arg(format!("localhost:{port}:127.0.0.1"));
        cmd.arg(format!("https://{host}:{port}/big.bin"));
        let (status, _, stderr) = Proc::spawn(cmd.stdin(Stdio::null())).finish();
        let name = format!("curl {} https://{host}/big.bin", extra.join(" "));
        let got = std::fs::read(&out).unwrap_or_default();
        let want_line = format!("SSL connection using {version} / ");
        let outcome = if !status.is_some_and(|s| s.success()) {
            Outcome::Failed(format!("curl exit {status:?}: {}", stderr.trim()))
        } else if got != fx.big {
            Outcome::Failed(format!(
                "{} bytes received, {} served",
                got.len(),
                fx.big.len()
            ))
        } else if !stderr.contains(&want_line) {
            Outcome::Failed(format!(
                "curl -v does not report {version}: {}",
                stderr.trim()
            ))
        } else {
            Outcome::Passed
        };
        rows.push((name, outcome));
    }
    report("curl -> example server", &rows);
}

#[test]
fn example_client_fetches_from_example_server() {
    let fx = fixture();
    let port = start_example_server(fx);
    let config = ClientConfig::builder_with_provider(Arc::new(provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(fx.roots())
        .with_no_client_auth();
    let config = Arc::new(config);

    let url = format!("https://localhost:{port}/big.bin");
    let (host, port_parsed, path) = client_common::parse_url(&url).expect("URL");
    assert_eq!(
        (host.as_str(), port_parsed, path.as_str()),
        ("localhost", port, "/big.bin")
    );
    let (response, tls) = client_common::get(Arc::clone(&config), &host, port, &path).unwrap();
    assert_eq!(response.status, 200, "{}", response.head);
    assert!(response.body == fx.big, "body differs from the served file");
    assert_eq!(tls.conn.protocol_version(), Some(ProtocolVersion::TLSv1_3));

    // Only plain names of the served directory.
    for path in [
        "/missing",
        "/../ca.pem",
        "/%2e%2e/ca.pem",
        "/",
        "/files/big.bin",
    ] {
        let (response, _) = client_common::get(Arc::clone(&config), "127.0.0.1", port, path)
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(response.status, 404, "{path}: {}", response.head);
    }
}

// ---------------------------------------------------------------------------------------------
// Rejection: the provider's signature verification is what refuses a forged certificate

/// `openssl s_server` presents a leaf signed by an impostor carrying the CA's name: the chain
/// builds by name, so only the provider's ECDSA verification of the leaf's signature under the
/// real CA key can refuse it.
#[test]
fn tessera_client_rejects_forged_certificate_signature() {
    let fx = fixture();
    let config = ClientConfig::builder_with_provider(Arc::new(provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(fx.roots())
        .with_no_client_auth();
    let port = free_port();
    let mut cmd = Command::new("openssl");
    cmd.arg("s_server")
        .arg("-accept")
        .arg(format!("127.0.0.1:{port}"));
    cmd.args(["-naccept", "1", "-www"]);
    cmd.arg("-cert")
        .arg(&fx.forged.cert_pem)
        .arg("-key")
        .arg(&fx.forged.key_pem);
    let server = Proc::spawn(cmd.stdin(Stdio::null()));
    server.wait_for_line("ACCEPT").expect("s_server started");

    let result = client_common::get(Arc::new(config), "127.0.0.1", port, "/");
    let _ = server.finish();
    let err = match result {
        Ok((response, _)) => panic!("forged certificate accepted: {}", response.head),
        Err(e) => e,
    };
    let tls_error = err
        .get_ref()
        .and_then(|e| e.downcast_ref::<rustls::Error>());
    assert!(
        matches!(
            tls_error,
            Some(rustls::Error::InvalidCertificate(
                rustls::CertificateError::BadSignature
            ))
        ),
        "expected a bad certificate signature, got {err:?}"
    );
}
