//! stub
pub const DEFAULT_CHUNK: u32 = 64 * 1024;
pub struct SealOptions<'a> {
    pub to: &'a std::path::Path,
    pub kdf: &'a str,
    pub aead: &'a str,
    pub chunk_size: u32,
    pub out: Option<&'a std::path::Path>,
    pub input: Option<&'a std::path::Path>,
}
pub fn keygen(_: &str, _: &std::path::Path) -> Result<(), String> {
    Err("todo".into())
}
pub fn seal(_: &SealOptions<'_>) -> Result<(), String> {
    Err("todo".into())
}
pub fn open(
    _: &std::path::Path,
    _: Option<&std::path::Path>,
    _: Option<&std::path::Path>,
) -> Result<(), String> {
    Err("todo".into())
}
