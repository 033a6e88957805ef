//! The HTTPS file server of `examples/server.rs`, shared with `tests/interop.rs` (which runs it
//! in-process against curl and `openssl s_client`).
//!
//! One thread per connection; each connection carries one `GET /name` request, answered with
//! the file `name` of the served directory (HTTP/1.1, `Content-Length`, `Connection: close`),
//! then a TLS close_notify.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use rustls::{ServerConfig, ServerConnection, StreamOwned};

/// A TLS stream over TCP, as the server sees it.
pub type TlsStream = StreamOwned<ServerConnection, TcpStream>;

/// Longest request head (request line and headers) we read.
const MAX_HEAD: usize = 8 * 1024;

/// Accepts connections forever and serves each on its own thread.
pub fn serve(listener: TcpListener, config: Arc<ServerConfig>, dir: PathBuf) -> io::Result<()> {
    let dir = Arc::new(dir);
    for sock in listener.incoming() {
        let sock = match sock {
            Ok(sock) => sock,
            // A failed accept (e.g. the peer reset it) is that peer's problem, not the server's.
            Err(e) => {
                eprintln!("accept: {e}");
                continue;
            }
        };
        let (config, dir) = (Arc::clone(&config), Arc::clone(&dir));
        thread::spawn(move || {
            if let Err(e) = accept(config, sock).and_then(|mut tls| handle(&mut tls, &dir)) {
                eprintln!("connection: {e}");
            }
        });
    }
    Ok(())
}

/// Wraps a freshly accepted socket in a server-side TLS stream. The handshake itself runs on
/// the first read or write.
pub fn accept(config: Arc<ServerConfig>, sock: TcpStream) -> io::Result<TlsStream> {
    // A silent peer must not hold a thread forever.
    sock.set_read_timeout(Some(Duration::from_secs(10)))?;
    sock.set_write_timeout(Some(Duration::from_secs(10)))?;
    let conn = ServerConnection::new(config).map_err(io::Error::other)?;
    Ok(StreamOwned::new(conn, sock))
}

/// Reads one request from `tls`, answers it from `dir`, and closes the TLS session.
pub fn handle(tls: &mut TlsStream, dir: &Path) -> io::Result<()> {
    let (status, body) = match read_request_target(tls)? {
        Ok(target) => match file_name(&target) {
            Some(name) => match std::fs::read(dir.join(name)) {
                Ok(body) => ("200 OK", body),
                Err(_) => ("404 Not Found", b"not found\n".to_vec()),
            },
            None => ("404 Not Found", b"not found\n".to_vec()),
        },
        Err(status) => (status, Vec::new()),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/octet-stream\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    tls.write_all(head.as_bytes())?;
    tls.write_all(&body)?;
    // close_notify tells the client the response is complete (and not truncated by an attacker).
    tls.conn.send_close_notify();
    tls.flush()
}

/// Reads the request head. The outer error is an I/O or TLS failure; the inner one an HTTP
/// status for a request we refuse.
fn read_request_target(tls: &mut TlsStream) -> io::Result<Result<String, &'static str>> {
    let mut reader = BufReader::new(tls);
    let mut request_line = String::new();
    let mut total = 0;
    let mut line = String::new();
    loop {
        line.clear();
        let n = (&mut reader)
            .take((MAX_HEAD - total) as u64)
            .read_line(&mut line)?;
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "truncated request head",
            ));
        }
        total += n;
        if request_line.is_empty() {
            request_line = line.clone();
        } else if line == "\r\n" || line == "\n" {
            break;
        }
        if total >= MAX_HEAD {
            return Ok(Err("431 Request Header Fields Too Large"));
        }
    }
    let mut parts = request_line.split_whitespace();
    match (parts.next(), parts.next(), parts.next()) {
        (Some("GET"), Some(target), Some(version)) if version.starts_with("HTTP/1.") => {
            Ok(Ok(target.to_string()))
        }
        (Some(_), Some(_), Some(_)) => Ok(Err("405 Method Not Allowed")),
        _ => Ok(Err("400 Bad Request")),
    }
}

/// The file a request target names: a single path component, so nothing outside the served
/// directory (no `..`, no subdirectories, no hidden files).
fn file_name(target: &str) -> Option<&str> {
    let name = target.strip_prefix('/')?;
    let ok = !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    ok.then_some(name)
}
