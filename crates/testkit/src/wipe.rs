//! The stack-residue probe of the zeroization tests: did an operation leave a secret behind in
//! the stack memory its frames used?
//!
//! [`scan_stack`] paints `depth` bytes below the current stack pointer with [`PATTERN`], runs the
//! operation (its frames live in that region), then copies the region out to the heap, where
//! [`StackImage::find`] looks for the secret's bytes. The painting and the copy are inline
//! assembly (`rep stosb` / `rep movsb`), so no Rust code reads or writes memory that belongs to
//! no live object. [`assert_wiped`] is the one-call form the tests use.
//!
//! A needle must be something the operation really holds as a secret and the test knows (the
//! clamped scalar, a table entry a secret digit selects, a derived seed), at least
//! [`MIN_NEEDLE`] bytes so that it cannot match by chance; [`StackImage::used`] shows that the
//! operation's frames lay inside the scanned region.
//!
//! x86_64 only (and not under Miri, which has no inline assembly): elsewhere [`SUPPORTED`] is
//! false and [`scan_stack`] returns `None`. Tests mark themselves
//! `#[cfg_attr(not(all(target_arch = "x86_64", not(miri))), ignore = "stack scanner: x86_64 only")]`
//! so that they are reported as ignored there, never as passed; [`assert_wiped`] panics if it is
//! called anyway.

/// Whether [`scan_stack`] works on this target.
pub const SUPPORTED: bool = cfg!(all(target_arch = "x86_64", not(miri)));

/// The byte the scanned region is painted with (not 0: wiped memory counts as used).
pub const PATTERN: u8 = 0xa5;

/// The shortest needle accepted: 16 bytes cannot match by chance in a few hundred KiB.
pub const MIN_NEEDLE: usize = 16;

/// The default region: 256 KiB below the caller's stack pointer (test threads have 2 MiB).
pub const DEFAULT_DEPTH: usize = 256 * 1024;

/// Unused bytes that must remain at the bottom of the region, the evidence that the
/// operation's frames did not run past it.
const MARGIN: usize = 4096;

/// The stack region below the probe's stack pointer as the operation left it.
pub struct StackImage {
    /// `bytes[i]` was at address `base - bytes.len() + i` (`base`: the probe's stack pointer).
    bytes: Vec<u8>,
}

impl StackImage {
    /// The distances below the probe's stack pointer at which `needle` starts (the distance of
    /// its first byte's address).
    pub fn find(&self, needle: &[u8]) -> Vec<usize> {
        assert!(
            needle.len() >= MIN_NEEDLE,
            "needle of {} bytes: at least {MIN_NEEDLE} are needed to rule out chance matches",
            needle.len()
        );
        let n = self.bytes.len();
        self.bytes
            .windows(needle.len())
            .enumerate()
            .filter(|(_, w)| *w == needle)
            .map(|(i, _)| n - i)
            .collect()
    }

    /// How many bytes below the probe's stack pointer the operation wrote (the deepest byte that
    /// is no longer [`PATTERN`]).
    pub fn used(&self) -> usize {
        let n = self.bytes.len();
        n - self.bytes.iter().position(|&b| b != PATTERN).unwrap_or(n)
    }

    /// The size of the region.
    pub fn depth(&self) -> usize {
        self.bytes.len()
    }
}

/// Paints `depth` bytes below the stack pointer, runs `op`, and returns that region as `op` left
/// it; `None` where the scanner is not supported ([`SUPPORTED`]). Panics when `op` used the
/// region down to its last 4 KiB (its frames may have run past the end: scan deeper).
pub fn scan_stack(depth: usize, op: &mut dyn FnMut()) -> Option<StackImage> {
    if !SUPPORTED {
        return None;
    }
    assert!((2 * MARGIN..=1024 * 1024).contains(&depth), "depth {depth}");
    // Allocated before painting, so that the allocator's frames do not disturb the region.
    let mut bytes = vec![0u8; depth];
    // Through `black_box`: no inlining of `op` into `paint_run_copy`'s own frame (which lies
    // above the region).
    paint_run_copy(depth, core::hint::black_box(op), &mut bytes);
    let image = StackImage { bytes };
    assert!(
        image.used() + MARGIN <= depth,
        "the operation used {} of the {depth} bytes scanned: scan deeper",
        image.used()
    );
    Some(image)
}

#[cfg(all(target_arch = "x86_64", not(miri)))]
#[inline(never)]
fn paint_run_copy(depth: usize, op: &mut dyn FnMut(), out: &mut [u8]) {
    use core::arch::asm;
    assert_eq!(out.len(), depth);
    let before: usize;
    // SAFETY: writes the `depth` bytes below the stack pointer, memory that belongs to no live
    // object: the frames of calls that have returned. Without `nostack`, the compiler keeps no
    // live data in the red zone across the block (and this function is not a leaf). The region
    // lies within this thread's stack: callers keep `depth` <= 1 MiB, test threads have 2 MiB
    // and are not deep in it. The direction flag is clear (SysV ABI); rdi, rcx, al are declared.
    unsafe {
        asm!(
            "mov {sp}, rsp",
            "mov rdi, rsp",
            "sub rdi, rcx",
            "rep stosb",
            sp = out(reg) before,
            inout("rcx") depth => _,
            out("rdi") _,
            in("al") PATTERN,
        );
    }
    op();
    let after: usize;
    // SAFETY: reads the same `depth` bytes below the stack pointer (no live object is written)
    // into `out`, `depth` writable bytes (checked above). rsi, rdi, rcx are declared.
    unsafe {
        asm!(
            "mov {sp}, rsp",
            "mov rsi, rsp",
            "sub rsi, rcx",
            "rep movsb",
            sp = out(reg) after,
            inout("rcx") depth => _,
            inout("rdi") out.as_mut_ptr() => _,
            out("rsi") _,
        );
    }
    assert_eq!(
        before, after,
        "stack pointer moved between painting and copying"
    );
}

#[cfg(not(all(target_arch = "x86_64", not(miri))))]
fn paint_run_copy(_depth: usize, _op: &mut dyn FnMut(), _out: &mut [u8]) {
    unreachable!("stack scanner: x86_64 only")
}

/// Runs `op` under [`scan_stack`] (at [`DEFAULT_DEPTH`]) and returns the needles (label,
/// bytes) found in the stack region `op` used, each with the distances below the probe's stack
/// pointer where it is. `what` names the operation in the summary printed. Panics where the
/// scanner is not supported (the test should be `ignore`d there, see the module documentation).
pub fn residue(
    what: &str,
    mut op: impl FnMut(),
    needles: &[(String, Vec<u8>)],
) -> Vec<(String, Vec<usize>)> {
    assert!(!needles.is_empty(), "{what}: no needles");
    let Some(image) = scan_stack(DEFAULT_DEPTH, &mut op) else {
        panic!(
            "{what}: skipped: stack scanner x86_64 only (this test must be ignored on this target)"
        );
    };
    let found: Vec<(String, Vec<usize>)> = needles
        .iter()
        .map(|(label, n)| (format!("{label} ({} bytes)", n.len()), image.find(n)))
        .filter(|(_, at)| !at.is_empty())
        .collect();
    eprintln!(
        "{what}: {} needles, {} of {} stack bytes used, {} found",
        needles.len(),
        image.used(),
        image.depth(),
        found.len()
    );
    found
}

/// Formats [`residue`]'s findings, one line each.
pub fn describe(found: &[(String, Vec<usize>)]) -> String {
    found
        .iter()
        .map(|(label, at)| {
            let at: Vec<String> = at.iter().map(|d| format!("sp-{d:#x}")).collect();
            format!("  {label} at {}", at.join(", "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// [`residue`], failing (and naming every needle found, and where) when any needle is in the
/// stack region `op` used.
pub fn assert_wiped(what: &str, op: impl FnMut(), needles: &[(String, Vec<u8>)]) {
    let found = residue(what, op, needles);
    assert!(
        found.is_empty(),
        "{what}: secrets left on the stack:\n{}",
        describe(&found)
    );
}

/// Runs `check` on every item (e.g. every backend) and then fails with all the failures'
/// messages, each under `name(item)`: one backend's leak does not hide another's.
pub fn check_all<T>(
    items: impl IntoIterator<Item = T>,
    name: impl Fn(&T) -> String,
    check: impl Fn(T),
) {
    let mut failed = Vec::new();
    for item in items {
        let label = name(&item);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(item)));
        if let Err(e) = r {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failed.push(format!("{label}: {msg}"));
        }
    }
    assert!(failed.is_empty(), "\n{}", failed.join("\n"));
}

/// Every `len`-byte window of `bytes` at offsets `0, len, 2 len, ...` (and one ending at the
/// end), labelled `label[a..b]`: needles that still match a partial copy.
pub fn chunks(label: &str, bytes: &[u8], len: usize) -> Vec<(String, Vec<u8>)> {
    assert!(len >= MIN_NEEDLE && bytes.len() >= len);
    let mut starts: Vec<usize> = (0..=bytes.len() - len).step_by(len).collect();
    if starts.last() != Some(&(bytes.len() - len)) {
        starts.push(bytes.len() - len);
    }
    starts
        .into_iter()
        .map(|a| {
            (
                format!("{label}[{a}..{}]", a + len),
                bytes[a..a + len].to_vec(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Leaves `secret` in a stack slot of its own frame, unwiped.
    #[inline(never)]
    fn leave(secret: &[u8; 32]) -> u8 {
        let copy = core::hint::black_box(*secret);
        let r = core::hint::black_box(&copy);
        r[0] ^ r[31]
    }

    /// Leaves `secret` in a stack slot and wipes it.
    #[inline(never)]
    fn leave_wiped(secret: &[u8; 32]) -> u8 {
        let mut copy = core::hint::black_box(*secret);
        let x = core::hint::black_box(&copy)[0];
        for b in copy.iter_mut() {
            // SAFETY: `b` is a valid, aligned `&mut u8`.
            unsafe { core::ptr::write_volatile(b, 0) };
        }
        x
    }

    const SECRET: [u8; 32] = *b"0123456789abcdef-stack-residue-!";

    /// The negative control: an unwiped copy is found, a wiped one is not.
    #[test]
    #[cfg_attr(
        not(all(target_arch = "x86_64", not(miri))),
        ignore = "stack scanner: x86_64 only"
    )]
    fn finds_an_unwiped_copy_and_not_a_wiped_one() {
        // The secret is passed through a heap box so that the test's own frame (above the
        // scanned region) is the only other place it is.
        let secret = Box::new(SECRET);
        let image = scan_stack(DEFAULT_DEPTH, &mut || {
            leave(&secret);
        })
        .unwrap();
        assert!(!image.find(&SECRET).is_empty(), "unwiped copy not found");
        assert!(image.used() > 0);
        let image = scan_stack(DEFAULT_DEPTH, &mut || {
            leave_wiped(&secret);
        })
        .unwrap();
        assert!(image.find(&SECRET).is_empty(), "wiped copy found");
        let r = std::panic::catch_unwind(|| {
            assert_wiped(
                "leave",
                || {
                    leave(&secret);
                },
                &chunks("secret", &SECRET, 16),
            )
        });
        assert!(r.is_err(), "assert_wiped passed an unwiped copy");
    }

    #[test]
    fn chunks_cover_the_end() {
        let b: Vec<u8> = (0..40).collect();
        let c = chunks("b", &b, 16);
        let labels: Vec<&str> = c.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(labels, ["b[0..16]", "b[16..32]", "b[24..40]"]);
    }
}
