//! The stack scrub of the operations whose temporaries no `Drop` reaches: the X25519 DHKEM's
//! key construction and encapsulation (`dhkem::x25519`), and the X448 ladder (`dhkem::x448`:
//! crypto-bigint's arithmetic takes its operands by value and leaves copies in frames of its
//! own).

/// Defines `scrub_stack()` in the module that invokes it: overwrites (with zeroize's volatile
/// writes) 8 KiB of the stack just below the caller's frame, where the frames of the
/// functions it called lay. 8 KiB covers the deepest of them (the X448 ladder's, about 3 KiB,
/// measured by its zeroization test) with margin.
///
/// One definition, expanded beside its callers: the X25519 wipe tests (`tests/wipe.rs`) find
/// a copy of the key when the scrub is a function of another module (or generic over its
/// size), so each user gets its own non-generic copy.
macro_rules! scrub_stack_here {
    () => {
        /// Overwrites 8 KiB of the stack below the caller's frame (see `scrub::scrub_stack_here`).
        #[inline(never)]
        fn scrub_stack() {
            let mut area = [0u8; 8192];
            zeroize::Zeroize::zeroize(&mut area);
            core::hint::black_box(&area);
        }
    };
}

pub(crate) use scrub_stack_here;
