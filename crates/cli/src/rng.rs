//! The operating system's random numbers (`getrandom`) as the `rand_core` RNG the HPKE API
//! takes. A failure of the OS generator ends the process with a message (no key or `enc` is
//! ever produced from anything else).

use core::convert::Infallible;

/// `getrandom` as a `rand_core::CryptoRng`.
pub struct OsRng;

impl OsRng {
    fn fill(dst: &mut [u8]) {
        if let Err(e) = getrandom::fill(dst) {
            crate::error_line(&format!(
                "the operating system's random number generator failed: {e}"
            ));
            std::process::exit(1);
        }
    }
}

impl rand_core::TryRng for OsRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        Self::fill(&mut b);
        Ok(u32::from_le_bytes(b))
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        Self::fill(&mut b);
        Ok(u64::from_le_bytes(b))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        Self::fill(dst);
        Ok(())
    }
}

impl rand_core::TryCryptoRng for OsRng {}
