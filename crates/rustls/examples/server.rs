//! A minimal HTTPS file server on the Tessera crypto provider: plain rustls over `std::net`.
//!
//! ```text
//! cargo run -p tessera-rustls --example server -- \
//!     --cert cert.pem --key key.pem --addr 127.0.0.1:8443 --dir ./public
//! curl --cacert ca.pem https://localhost:8443/index.html
//! ```
//!
//! `cert.pem` holds the certificate chain (leaf first), `key.pem` its private key (PKCS#8,
//! SEC 1 or PKCS#1 PEM). Each `GET /name` is answered with the file `name` of `--dir`.

use std::error::Error;
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;

use rustls::ServerConfig;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

// The accept loop and request handling, shared with the interop test.
#[path = "../tests/interop/server_common.rs"]
mod server_common;

/// The crypto provider: every algorithm rustls uses comes from here.
fn provider() -> CryptoProvider {
    tessera_rustls::provider()
}

fn main() -> Result<(), Box<dyn Error>> {
    let (mut cert, mut key, mut addr, mut dir) = (None, None, None, None);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let slot = match flag.as_str() {
            "--cert" => &mut cert,
            "--key" => &mut key,
            "--addr" => &mut addr,
            "--dir" => &mut dir,
            _ => return Err(format!("unknown argument {flag}").into()),
        };
        *slot = Some(args.next().ok_or(format!("{flag} needs a value"))?);
    }
    let usage = "usage: server --cert cert.pem --key key.pem --addr 127.0.0.1:8443 --dir DIR";
    let (Some(cert), Some(key), Some(addr), Some(dir)) = (cert, key, addr, dir) else {
        return Err(usage.into());
    };

    // PEM files to DER: every certificate of the chain, and the one private key.
    let certs = CertificateDer::pem_file_iter(&cert)?.collect::<Result<Vec<_>, _>>()?;
    let key = PrivateKeyDer::from_pem_file(&key)?;

    // TLS 1.3 and 1.2 with every suite, group and signature scheme of the provider.
    let config = ServerConfig::builder_with_provider(Arc::new(provider()))
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(certs, key)?;

    let listener = TcpListener::bind(&addr)?;
    eprintln!("serving {dir} on https://{}", listener.local_addr()?);
    server_common::serve(listener, Arc::new(config), PathBuf::from(dir))?;
    Ok(())
}
