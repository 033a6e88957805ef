//! `tessera hpke keygen | seal | open`: files encrypted to a public key, streamed in chunks
//! sealed with one HPKE context (format in the crate README, "File format").
//!
//! Header (all integers big-endian):
//! `magic "TSR-HPKE" (8) | version 1 (1) | kem (2) | kdf (2) | aead (2) | chunk size (4) |
//! enc length (2) | enc`. HPKE Base mode, `info` = the header up to and including the chunk size.
//! Then chunks: the plaintext in pieces of `chunk size` bytes, the last one shorter (possibly
//! empty), each sealed as `ciphertext || tag` with `aad = index (8) || last (1)`.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use tessera::hpke::{AeadId, KdfId, Suite};
use zeroize::Zeroizing;

use crate::keys;
use crate::quote::io_error;
use crate::rng::OsRng;

/// The file magic.
pub const MAGIC: &[u8; 8] = b"TSR-HPKE";
/// The format version.
pub const VERSION: u8 = 1;
/// Header bytes before `enc`.
const FIXED: usize = 8 + 1 + 2 + 2 + 2 + 4 + 2;
/// The default plaintext bytes per chunk.
pub const DEFAULT_CHUNK: u32 = 64 * 1024;
/// Chunk sizes accepted (the open side allocates one chunk).
const MIN_CHUNK: u32 = 1024;
const MAX_CHUNK: u32 = 16 * 1024 * 1024;
/// The AEAD tag of every suite with sealing.
const TAG: usize = 16;
/// The longest `enc` of any KEM (MLKEM1024-P384: 1665 bytes), with room.
const MAX_ENC: usize = 4096;

/// What `tessera hpke seal` got on its command line.
pub struct SealOptions<'a> {
    pub to: &'a Path,
    pub kdf: &'a str,
    pub aead: &'a str,
    pub chunk_size: u32,
    pub out: Option<&'a Path>,
    pub input: Option<&'a Path>,
}

fn kdf_from_name(s: &str) -> Result<KdfId, String> {
    Ok(match s.to_ascii_lowercase().as_str() {
        "hkdf-sha256" => KdfId::HkdfSha256,
        "hkdf-sha384" => KdfId::HkdfSha384,
        "hkdf-sha512" => KdfId::HkdfSha512,
        "shake128" => KdfId::Shake128,
        "shake256" => KdfId::Shake256,
        "turboshake128" => KdfId::TurboShake128,
        "turboshake256" => KdfId::TurboShake256,
        _ => {
            return Err(format!(
                "unknown KDF '{s}' (hkdf-sha256, hkdf-sha384, hkdf-sha512, shake128, shake256, turboshake128, turboshake256)"
            ));
        }
    })
}

fn aead_from_name(s: &str) -> Result<AeadId, String> {
    Ok(match s.to_ascii_lowercase().as_str() {
        "chacha20-poly1305" | "chacha20poly1305" => AeadId::ChaCha20Poly1305,
        "aes-128-gcm" | "aes128-gcm" => AeadId::Aes128Gcm,
        "aes-256-gcm" | "aes256-gcm" => AeadId::Aes256Gcm,
        _ => {
            return Err(format!(
                "unknown AEAD '{s}' (chacha20-poly1305, aes-128-gcm, aes-256-gcm)"
            ));
        }
    })
}

fn read_text(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("{}: {}", path.display(), io_error(&e)))
}

/// A private key file's text, in a buffer wiped on drop (sized from the file's length so that
/// reading does not leave copies behind in reallocated memory).
fn read_secret_text(path: &Path) -> Result<Zeroizing<String>, String> {
    let err = |e: io::Error| format!("{}: {}", path.display(), io_error(&e));
    let mut f = File::open(path).map_err(err)?;
    let len = f.metadata().map_err(err)?.len();
    let cap = usize::try_from(len).unwrap_or(0).min(1 << 20);
    let mut s = Zeroizing::new(String::with_capacity(cap + 1));
    f.read_to_string(&mut s).map_err(err)?;
    Ok(s)
}

/// `tessera hpke keygen --kem KEM -o KEY`: `KEY` (PKCS#8 PEM, mode 0600) and `KEY.pub`.
pub fn keygen(kem: &str, out: &Path) -> Result<(), String> {
    let kem = keys::kem_from_name(kem)?;
    let (sk_pem, pk_pem) = keys::generate(kem)?;
    let mut pub_path = out.as_os_str().to_owned();
    pub_path.push(".pub");
    let pub_path = PathBuf::from(pub_path);
    for p in [out, pub_path.as_path()] {
        if p.exists() {
            return Err(format!("{}: already exists (not overwritten)", p.display()));
        }
    }
    write_new(out, sk_pem.as_bytes(), true)?;
    if let Err(e) = write_new(&pub_path, pk_pem.as_bytes(), false) {
        let _ = fs::remove_file(out);
        return Err(e);
    }
    Ok(())
}

/// Writes a new file (mode 0600 if `private`); on any error after it was created, removes it.
fn write_new(path: &Path, data: &[u8], private: bool) -> Result<(), String> {
    let mut o = OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    if private {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = private;
    let err = |e: io::Error| format!("{}: {}", path.display(), io_error(&e));
    let mut f = o.open(path).map_err(err)?;
    let r = f.write_all(data).and_then(|()| f.sync_all());
    drop(f);
    if let Err(e) = r {
        let _ = fs::remove_file(path);
        return Err(err(e));
    }
    Ok(())
}

/// Where the output goes: a temporary file beside the destination, renamed into place by
/// [`TempOut::commit`] (removed on drop otherwise), or, for standard output, a temporary file
/// in the temp directory that is unlinked right after it is created (nothing is left whatever
/// happens to the process) and copied out from the same handle by [`TempOut::commit`].
pub(crate) struct TempOut {
    /// The temporary path while it exists on disk (empty once renamed or unlinked).
    tmp: PathBuf,
    /// The destination file (`None`: standard output).
    dest: Option<PathBuf>,
    file: Option<BufWriter<File>>,
}

/// A short temporary name (`.tessera-<16 hex>.tmp`), whatever the length of the destination's.
fn temp_name() -> String {
    let mut r = [0u8; 8];
    rand_core::Rng::fill_bytes(&mut OsRng, &mut r);
    format!(".tessera-{}.tmp", crate::sum::hex(&r))
}

impl TempOut {
    /// A temporary file beside `dest` (or in the temp directory for standard output).
    pub(crate) fn new(dest: Option<&Path>) -> Result<Self, String> {
        let dir = match dest {
            Some(d) => match d.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            },
            None => std::env::temp_dir(),
        };
        let label = dest.map_or_else(
            || "standard output".to_string(),
            |d| d.display().to_string(),
        );
        for _ in 0..16 {
            let tmp = dir.join(temp_name());
            let mut o = OpenOptions::new();
            o.read(true).write(true).create_new(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                o.mode(0o600);
            }
            match o.open(&tmp) {
                Ok(f) => {
                    let mut t = TempOut {
                        tmp,
                        dest: dest.map(Path::to_path_buf),
                        file: None,
                    };
                    // Unlinked at once: the plaintext lives only behind this handle. (Where an
                    // open file cannot be unlinked, it is removed on drop instead.)
                    if t.dest.is_none() && fs::remove_file(&t.tmp).is_ok() {
                        t.tmp = PathBuf::new();
                    }
                    t.file = Some(BufWriter::with_capacity(256 * 1024, f));
                    return Ok(t);
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(match dest {
                        Some(_) => format!("{label}: {}", io_error(&e)),
                        None => format!(
                            "{label}: temporary file in {}: {}",
                            dir.display(),
                            io_error(&e)
                        ),
                    });
                }
            }
        }
        Err(format!(
            "{label}: cannot create a temporary file in {}",
            dir.display()
        ))
    }

    /// The destination as messages name it.
    fn label(&self) -> String {
        self.dest.as_ref().map_or_else(
            || "standard output".to_string(),
            |d| d.display().to_string(),
        )
    }

    /// A write error naming the destination.
    fn err(&self, e: &io::Error) -> String {
        format!("{}: write error: {}", self.label(), io_error(e))
    }

    /// Writes to the temporary file; errors name the destination.
    pub(crate) fn write_all(&mut self, data: &[u8]) -> Result<(), String> {
        let r = match self.file.as_mut() {
            Some(f) => f.write_all(data),
            None => Err(io::Error::other("closed")),
        };
        r.map_err(|e| self.err(&e))
    }

    /// Flushes and syncs, then renames into place (or rewinds and copies to standard output).
    pub(crate) fn commit(mut self) -> Result<(), String> {
        let Some(f) = self.file.take() else {
            return Err(self.err(&io::Error::other("closed")));
        };
        let mut f = f.into_inner().map_err(|e| self.err(e.error()))?;
        match self.dest.clone() {
            Some(dest) => {
                f.sync_all().map_err(|e| self.err(&e))?;
                drop(f);
                fs::rename(&self.tmp, &dest)
                    .map_err(|e| format!("{}: {}", dest.display(), io_error(&e)))?;
                self.tmp = PathBuf::new();
            }
            None => {
                f.seek(SeekFrom::Start(0)).map_err(|e| self.err(&e))?;
                let stdout = io::stdout();
                let mut lock = stdout.lock();
                io::copy(&mut f, &mut lock).map_err(|e| self.err(&e))?;
                lock.flush().map_err(|e| self.err(&e))?;
            }
        }
        Ok(())
    }
}

impl Drop for TempOut {
    fn drop(&mut self) {
        self.file = None;
        if !self.tmp.as_os_str().is_empty() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// Where `seal` writes: a temporary file renamed at the end, or standard output streamed.
enum Sink<'a> {
    Temp(TempOut),
    Stdout(BufWriter<io::StdoutLock<'a>>),
}

impl Sink<'_> {
    fn write_all(&mut self, data: &[u8]) -> Result<(), String> {
        match self {
            Sink::Temp(t) => t.write_all(data),
            Sink::Stdout(w) => w
                .write_all(data)
                .map_err(|e| format!("standard output: write error: {}", io_error(&e))),
        }
    }

    fn finish(self) -> Result<(), String> {
        match self {
            Sink::Temp(t) => t.commit(),
            Sink::Stdout(mut w) => w
                .flush()
                .map_err(|e| format!("standard output: write error: {}", io_error(&e))),
        }
    }
}

fn open_input(input: Option<&Path>) -> Result<Box<dyn Read>, String> {
    match input {
        Some(p) if p.as_os_str() != "-" => {
            Ok(Box::new(File::open(p).map_err(|e| {
                format!("{}: {}", p.display(), io_error(&e))
            })?))
        }
        _ => Ok(Box::new(io::stdin().lock())),
    }
}

/// Reads until `buf` is full or the input ends; the number of bytes read.
fn read_full(r: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// A chunk's associated data: its index and whether it is the last.
fn chunk_aad(index: u64, last: bool) -> [u8; 9] {
    let mut a = [0u8; 9];
    a[..8].copy_from_slice(&index.to_be_bytes());
    a[8] = u8::from(last);
    a
}

/// The header up to the chunk size: the HPKE `info`.
fn header_prefix(suite: &Suite, chunk: u32) -> [u8; FIXED - 2] {
    let mut h = [0u8; FIXED - 2];
    h[..8].copy_from_slice(MAGIC);
    h[8] = VERSION;
    h[9..11].copy_from_slice(&suite.kem().id().to_be_bytes());
    h[11..13].copy_from_slice(&suite.kdf().id().to_be_bytes());
    h[13..15].copy_from_slice(&suite.aead().id().to_be_bytes());
    h[15..19].copy_from_slice(&chunk.to_be_bytes());
    h
}

/// `tessera hpke seal`.
pub fn seal(o: &SealOptions<'_>) -> Result<(), String> {
    if !(MIN_CHUNK..=MAX_CHUNK).contains(&o.chunk_size) {
        return Err(format!(
            "--chunk-size must be between {MIN_CHUNK} and {MAX_CHUNK}"
        ));
    }
    let pk =
        keys::read_public(&read_text(o.to)?).map_err(|e| format!("{}: {e}", o.to.display()))?;
    let suite = Suite::new(pk.kem(), kdf_from_name(o.kdf)?, aead_from_name(o.aead)?);
    let mut input = open_input(o.input)?;
    let info = header_prefix(&suite, o.chunk_size);
    let (enc, mut ctx) = suite
        .setup_sender_base(&pk, &info, &mut OsRng)
        .map_err(|e| format!("HPKE setup failed: {e:?}"))?;
    let enc = enc.as_bytes();

    // To a file: through a temporary file renamed at the end; to stdout: streamed.
    let mut w = match o.out {
        Some(p) if p.as_os_str() != "-" => Sink::Temp(TempOut::new(Some(p))?),
        _ => Sink::Stdout(BufWriter::with_capacity(256 * 1024, io::stdout().lock())),
    };
    w.write_all(&info)?;
    let enc_len = u16::try_from(enc.len()).map_err(|_| "enc too long".to_string())?;
    w.write_all(&enc_len.to_be_bytes())?;
    w.write_all(enc)?;

    let chunk = o.chunk_size as usize;
    let mut buf = vec![0u8; chunk];
    let mut index: u64 = 0;
    loop {
        let n =
            read_full(&mut input, &mut buf).map_err(|e| format!("read error: {}", io_error(&e)))?;
        let last = n < chunk;
        let tag = ctx
            .seal_in_place_detached(&chunk_aad(index, last), &mut buf[..n])
            .map_err(|e| format!("seal failed at chunk {index}: {e:?}"))?;
        w.write_all(&buf[..n])?;
        w.write_all(&tag)?;
        if last {
            break;
        }
        index += 1;
    }
    w.finish()?;
    Ok(())
}

/// `tessera hpke open`.
pub fn open(key: &Path, out: Option<&Path>, input: Option<&Path>) -> Result<(), String> {
    let sk = keys::read_private(&read_secret_text(key)?)
        .map_err(|e| format!("{}: {e}", key.display()))?;
    let mut input = open_input(input)?;
    let rerr = |e: io::Error| format!("read error: {}", io_error(&e));
    let mut h = [0u8; FIXED];
    if read_full(&mut input, &mut h).map_err(rerr)? < FIXED || &h[..8] != MAGIC {
        return Err("not a tessera HPKE file (bad magic or truncated header)".into());
    }
    if h[8] != VERSION {
        return Err(format!("unsupported format version {}", h[8]));
    }
    let id = |i: usize| u16::from_be_bytes([h[i], h[i + 1]]);
    let suite = Suite::from_ids(id(9), id(11), id(13))
        .map_err(|e| format!("unsupported suite in the header: {e:?}"))?;
    let chunk = u32::from_be_bytes([h[15], h[16], h[17], h[18]]);
    if !(MIN_CHUNK..=MAX_CHUNK).contains(&chunk) {
        return Err(format!("invalid chunk size {chunk} in the header"));
    }
    if sk.kem() != suite.kem() {
        return Err(format!(
            "wrong key type: the file is encrypted to a {} key, the key is {}",
            keys::kem_name(suite.kem()),
            keys::kem_name(sk.kem())
        ));
    }
    let enc_len = usize::from(id(19));
    if enc_len > MAX_ENC {
        return Err("invalid header (enc too long)".into());
    }
    let mut enc = vec![0u8; enc_len];
    if read_full(&mut input, &mut enc).map_err(rerr)? < enc_len {
        return Err("truncated header".into());
    }
    let mut ctx = suite
        .setup_receiver_base(&enc, &sk, &h[..FIXED - 2])
        .map_err(|_| "decryption failed: invalid encapsulated key in the header".to_string())?;

    let mut tmp = TempOut::new(out.filter(|p| p.as_os_str() != "-"))?;
    let chunk = chunk as usize;
    let mut buf = vec![0u8; chunk + TAG];
    let mut index: u64 = 0;
    loop {
        let n = read_full(&mut input, &mut buf).map_err(rerr)?;
        if n < TAG {
            return Err(format!(
                "truncated ciphertext (chunk {index} is missing or cut)"
            ));
        }
        let last = n < chunk + TAG;
        let (ct, tag) = buf[..n].split_at_mut(n - TAG);
        let tag: &[u8; TAG] = (&*tag)
            .try_into()
            .map_err(|_| "internal: tag length".to_string())?;
        ctx.open_in_place_detached(&chunk_aad(index, last), ct, tag)
            .map_err(|_| {
                format!("decryption failed at chunk {index}: wrong key, or the file is corrupted, truncated or reordered")
            })?;
        tmp.write_all(ct)?;
        if last {
            break;
        }
        index += 1;
    }
    tmp.commit()
}
