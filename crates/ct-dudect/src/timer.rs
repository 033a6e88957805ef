//! The cycle counter: `lfence; rdtsc; lfence` at both ends of a timed call (the first `lfence`
//! lets every earlier instruction finish before the read, the second keeps later ones from
//! starting before it), the ordered read of the time-stamp counter that Intel's and AMD's
//! manuals give (`lfence` is dispatch-serializing on AMD as Linux configures it). The start adds
//! an `mfence` first: `lfence` does not wait for the store buffer, and stores left there by the
//! untimed preparation would slow the start of the timed call by an amount that depends on how
//! much the preparation wrote.
//!
//! The TSC runs at a constant rate (`constant_tsc`): it counts reference cycles, not core
//! cycles, which is all a comparison of two classes needs (on the 2-vCPU EPYC dev VM it advances in
//! steps of 26; the t-test sees smaller differences through the averages). On other
//! architectures a monotonic clock in nanoseconds stands in (the targets are x86_64-only; the
//! statistics are tested everywhere).

/// The counter value before a timed call.
#[inline(always)]
pub fn start() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::_mm_mfence;
        // SAFETY: `mfence` is SSE2, part of the x86_64 baseline.
        unsafe { _mm_mfence() };
        read()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        fallback()
    }
}

/// The counter value after a timed call.
#[inline(always)]
pub fn stop() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        read()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        fallback()
    }
}

/// `lfence; rdtsc; lfence`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn read() -> u64 {
    use core::arch::x86_64::{_mm_lfence, _rdtsc};
    // SAFETY: `lfence` is SSE2, part of the x86_64 baseline; `rdtsc` is available on every
    // x86_64 CPU (user mode may read it unless the OS sets CR4.TSD, which Linux does not).
    unsafe {
        _mm_lfence();
        let t = _rdtsc();
        _mm_lfence();
        t
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn fallback() -> u64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static T0: OnceLock<Instant> = OnceLock::new();
    T0.get_or_init(Instant::now).elapsed().as_nanos() as u64
}
