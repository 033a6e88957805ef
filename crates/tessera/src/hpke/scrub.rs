//! The stack scrub of the operations whose temporaries no `Drop` reaches: the X25519 DHKEM's
//! key construction and encapsulation (`dhkem::x25519`), and the X448 ladder (`dhkem::x448`:
//! crypto-bigint's arithmetic takes its operands by value and leaves copies in frames of its
//! own).

/// Defines `scrub_stack()` in the module that invokes it: overwrites (with zeroize's volatile
/// writes) an array of `$n` `$t` on the stack just below the caller's frame, where the frames
/// of the functions it called lay. Each user names the depth its frames need: 1 KiB for the
/// X25519 DHKEM (its frames above the X25519 crate, which wipes its own), 8 KiB for the X448
/// ladder (its frames measure about 3 KiB; 1024 word stores against a ladder of ~4500 field
/// multiplications).
///
/// One definition, expanded beside its callers: with the scrub a function of another module
/// (or a function generic over its size), the X25519 wipe tests (`tests/wipe.rs`) find a copy
/// of the key; so each user gets its own non-generic function of a fixed size.
macro_rules! scrub_stack_here {
    ($t:ty, $n:literal) => {
        /// Overwrites the stack below the caller's frame (see `scrub::scrub_stack_here`).
        #[inline(never)]
        fn scrub_stack() {
            let mut area: [$t; $n] = [0; $n];
            zeroize::Zeroize::zeroize(&mut area);
            core::hint::black_box(&area);
        }
    };
}

pub(crate) use scrub_stack_here;
