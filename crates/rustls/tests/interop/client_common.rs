//! The HTTPS client of `examples/client.rs`, shared with `tests/interop.rs` (which runs it
//! in-process against `openssl s_server` and the example server).

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::ServerName;
use rustls::{ClientConfig, ClientConnection, StreamOwned};

/// A TLS stream over TCP, as the client sees it.
pub type TlsStream = StreamOwned<ClientConnection, TcpStream>;

/// An HTTP response.
pub struct Response {
    /// The status code (200, 404, ...).
    pub status: u16,
    /// The status line and headers, as received.
    pub head: String,
    /// The body.
    pub body: Vec<u8>,
}

/// The parts of an `https://host[:port]/path` URL.
pub fn parse_url(url: &str) -> Option<(String, u16, String)> {
    let rest = url.strip_prefix("https://")?;
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let (host, port) = match authority.rsplit_once(':') {
        // `[::1]:443` and `host:443`; a bare `[::1]` has no port.
        Some((host, port)) if !port.contains(']') => (host, port.parse().ok()?),
        _ => (authority, 443),
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    (!host.is_empty()).then(|| (host.to_string(), port, path.to_string()))
}

/// `GET path` from `host:port` over TLS; reads the whole response (the server closes the
/// connection). Returns the response and the TLS stream, whose `conn` tells what was negotiated.
pub fn get(
    config: Arc<ClientConfig>,
    host: &str,
    port: u16,
    path: &str,
) -> io::Result<(Response, TlsStream)> {
    // The name the certificate must carry: a DNS name or an IP address.
    let server_name = ServerName::try_from(host.to_string()).map_err(io::Error::other)?;
    let conn = ClientConnection::new(config, server_name).map_err(io::Error::other)?;
    let sock = TcpStream::connect((host, port))?;
    sock.set_read_timeout(Some(Duration::from_secs(10)))?;
    sock.set_write_timeout(Some(Duration::from_secs(10)))?;
    let mut tls = StreamOwned::new(conn, sock);

    let host_header = if host.contains(':') {
        format!("[{host}]")
    } else {
        host.to_string()
    };
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {host_header}\r\nConnection: close\r\n\r\n");
    // The handshake runs inside the first write.
    tls.write_all(request.as_bytes())?;
    tls.flush()?;

    // Until the server's close_notify; a connection cut without it is an error (truncation).
    let mut raw = Vec::new();
    tls.read_to_end(&mut raw)?;
    Ok((parse_response(raw)?, tls))
}

/// Splits a response into status, head and body; checks `Content-Length` when present.
fn parse_response(raw: Vec<u8>) -> io::Result<Response> {
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_string());
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| bad("no end of response head"))?;
    let head =
        String::from_utf8(raw[..end].to_vec()).map_err(|_| bad("response head not UTF-8"))?;
    let body = raw[end + 4..].to_vec();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("no status code"))?;
    for line in head.lines().skip(1) {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let len: usize = value
                .trim()
                .parse()
                .map_err(|_| bad("bad Content-Length"))?;
            if len != body.len() {
                return Err(bad("body length differs from Content-Length"));
            }
        }
    }
    Ok(Response { status, head, body })
}
