//! A minimal HTTPS client on the Tessera crypto provider: plain rustls over `std::net`.
//!
//! ```text
//! cargo run -p tessera-rustls --example client -- https://localhost:8443/index.html --ca ca.pem
//! ```
//!
//! The server's certificate must chain to a certificate of `ca.pem` (no system roots) and name
//! the URL's host. The response body goes to stdout.

use std::error::Error;
use std::io::Write;
use std::sync::Arc;

use rustls::crypto::CryptoProvider;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use rustls::{ClientConfig, RootCertStore};

// Connecting, requesting and reading the response, shared with the interop test.
#[path = "../tests/interop/client_common.rs"]
mod client_common;

/// The crypto provider: every algorithm rustls uses comes from here.
fn provider() -> CryptoProvider {
    tessera_rustls::provider()
}

fn main() -> Result<(), Box<dyn Error>> {
    let (mut url, mut ca) = (None, None);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--ca" => ca = Some(args.next().ok_or("--ca needs a value")?),
            _ if url.is_none() => url = Some(arg),
            _ => return Err(format!("unexpected argument {arg}").into()),
        }
    }
    let (Some(url), Some(ca)) = (url, ca) else {
        return Err("usage: client https://HOST:PORT/PATH --ca ca.pem".into());
    };
    let (host, port, path) = client_common::parse_url(&url).ok_or("not an https:// URL")?;

    // Trust exactly the certificates of the --ca file.
    let mut roots = RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(&ca)? {
        roots.add(cert?)?;
    }
    let config = ClientConfig::builder_with_provider(Arc::new(provider()))
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();

    let (response, _tls) = client_common::get(Arc::new(config), &host, port, &path)?;
    if response.status != 200 {
        return Err(response
            .head
            .lines()
            .next()
            .unwrap_or("no status line")
            .into());
    }
    std::io::stdout().write_all(&response.body)?;
    Ok(())
}
