//! The hashes of `tessera sum`: names, BSD tags, output lengths, and one streaming hasher type.

/// A hash of `tessera sum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    Sha224,
    Sha256,
    Sha384,
    Sha512,
    Sha512_256,
    Sha3_256,
    Sha3_384,
    Sha3_512,
    Shake128,
    Shake256,
}

impl Algo {
    /// The algorithm of a `-a` name.
    pub fn from_name(s: &str) -> Option<Self> {
        Some(match s.to_ascii_lowercase().as_str() {
            "sha224" => Algo::Sha224,
            "sha256" => Algo::Sha256,
            "sha384" => Algo::Sha384,
            "sha512" => Algo::Sha512,
            "sha512-256" => Algo::Sha512_256,
            "sha3-256" => Algo::Sha3_256,
            "sha3-384" => Algo::Sha3_384,
            "sha3-512" => Algo::Sha3_512,
            "shake128" => Algo::Shake128,
            "shake256" => Algo::Shake256,
            _ => return None,
        })
    }

    /// The name in BSD-style lines and in check messages (`SHA256`, `SHA3-256`).
    pub fn tag(self) -> &'static str {
        match self {
            Algo::Sha224 => "SHA224",
            Algo::Sha256 => "SHA256",
            Algo::Sha384 => "SHA384",
            Algo::Sha512 => "SHA512",
            Algo::Sha512_256 => "SHA512-256",
            Algo::Sha3_256 => "SHA3-256",
            Algo::Sha3_384 => "SHA3-384",
            Algo::Sha3_512 => "SHA3-512",
            Algo::Shake128 => "SHAKE128",
            Algo::Shake256 => "SHAKE256",
        }
    }

    /// Digest bytes (SHAKE128: 32, SHAKE256: 64, their full security levels).
    pub fn len(self) -> usize {
        match self {
            Algo::Sha224 => 28,
            Algo::Sha256 | Algo::Sha512_256 | Algo::Sha3_256 | Algo::Shake128 => 32,
            Algo::Sha384 | Algo::Sha3_384 => 48,
            Algo::Sha512 | Algo::Sha3_512 | Algo::Shake256 => 64,
        }
    }

    /// A fresh hasher.
    pub fn hasher(self) -> Hasher {
        match self {
            Algo::Sha224 => Hasher::Sha224(tessera_sha2::Sha224::new()),
            Algo::Sha256 => Hasher::Sha256(tessera_sha2::Sha256::new()),
            Algo::Sha384 => Hasher::Sha384(tessera_sha2::Sha384::new()),
            Algo::Sha512 => Hasher::Sha512(tessera_sha2::Sha512::new()),
            Algo::Sha512_256 => Hasher::Sha512_256(tessera_sha2::Sha512_256::new()),
            Algo::Sha3_256 => Hasher::Sha3_256(tessera_keccak::Sha3_256::new()),
            Algo::Sha3_384 => Hasher::Sha3_384(tessera_keccak::Sha3_384::new()),
            Algo::Sha3_512 => Hasher::Sha3_512(tessera_keccak::Sha3_512::new()),
            Algo::Shake128 => Hasher::Shake128(tessera_keccak::Shake128::new()),
            Algo::Shake256 => Hasher::Shake256(tessera_keccak::Shake256::new()),
        }
    }
}

/// A streaming hasher of any [`Algo`].
pub enum Hasher {
    Sha224(tessera_sha2::Sha224),
    Sha256(tessera_sha2::Sha256),
    Sha384(tessera_sha2::Sha384),
    Sha512(tessera_sha2::Sha512),
    Sha512_256(tessera_sha2::Sha512_256),
    Sha3_256(tessera_keccak::Sha3_256),
    Sha3_384(tessera_keccak::Sha3_384),
    Sha3_512(tessera_keccak::Sha3_512),
    Shake128(tessera_keccak::Shake128),
    Shake256(tessera_keccak::Shake256),
}

impl Hasher {
    /// Absorbs `data`.
    pub fn update(&mut self, data: &[u8]) {
        match self {
            Hasher::Sha224(h) => drop(h.update(data)),
            Hasher::Sha256(h) => drop(h.update(data)),
            Hasher::Sha384(h) => drop(h.update(data)),
            Hasher::Sha512(h) => drop(h.update(data)),
            Hasher::Sha512_256(h) => drop(h.update(data)),
            Hasher::Sha3_256(h) => drop(h.update(data)),
            Hasher::Sha3_384(h) => drop(h.update(data)),
            Hasher::Sha3_512(h) => drop(h.update(data)),
            Hasher::Shake128(h) => drop(h.update(data)),
            Hasher::Shake256(h) => drop(h.update(data)),
        }
    }

    /// The digest.
    pub fn finalize(&self) -> Vec<u8> {
        match self {
            Hasher::Sha224(h) => h.finalize().to_vec(),
            Hasher::Sha256(h) => h.finalize().to_vec(),
            Hasher::Sha384(h) => h.finalize().to_vec(),
            Hasher::Sha512(h) => h.finalize().to_vec(),
            Hasher::Sha512_256(h) => h.finalize().to_vec(),
            Hasher::Sha3_256(h) => h.finalize().to_vec(),
            Hasher::Sha3_384(h) => h.finalize().to_vec(),
            Hasher::Sha3_512(h) => h.finalize().to_vec(),
            Hasher::Shake128(h) => {
                let mut out = vec![0u8; 32];
                h.finalize_xof().read(&mut out);
                out
            }
            Hasher::Shake256(h) => {
                let mut out = vec![0u8; 64];
                h.finalize_xof().read(&mut out);
                out
            }
        }
    }
}

/// Lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    const H: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(H[usize::from(b >> 4)] as char);
        s.push(H[usize::from(b & 15)] as char);
    }
    s
}
