//! Unit tests only: the values of a scalar multiplication's temporaries, recorded on request,
//! for the zeroization tests (`crate::tests::wipe`), which then look for them in the stack
//! memory the operation used. Outside `cfg(test)` only the empty [`Raw`] bound remains (the
//! bound every field element type carries).
#![forbid(unsafe_code)]

/// The bytes of a field element as its backend stores it (in unit tests).
#[cfg(test)]
pub(crate) trait Raw {
    fn raw(&self) -> std::vec::Vec<u8>;
}
#[cfg(test)]
impl<const N: usize> Raw for [u64; N] {
    fn raw(&self) -> std::vec::Vec<u8> {
        self.iter().flat_map(|w| w.to_le_bytes()).collect()
    }
}
/// Nothing outside unit tests.
#[cfg(not(test))]
pub(crate) trait Raw {}
#[cfg(not(test))]
impl<T> Raw for T {}

#[cfg(test)]
use std::{
    cell::{Cell, RefCell},
    vec::Vec,
};

#[cfg(test)]
std::thread_local! {
    /// Whether a [`capture`] runs on this thread: a plain flag (no destructor, so reading
    /// it is an inline thread-local load, not a call) so that the operations a test scans
    /// run the same machine code apart from one untaken branch.
    static ON: Cell<bool> = const { Cell::new(false) };
    static TAP: RefCell<Vec<(&'static str, Vec<u8>)>> = const { RefCell::new(Vec::new()) };
}

/// Whether [`record`] keeps anything (test `if tap::on() { ... }` before recording).
#[cfg(test)]
#[inline(always)]
pub(crate) fn on() -> bool {
    ON.with(Cell::get)
}

/// Records `value` as `what` (during a [`capture`]).
#[cfg(test)]
#[inline(never)]
pub(crate) fn record(what: &'static str, value: Vec<u8>) {
    TAP.with(|t| t.borrow_mut().push((what, value)));
}

/// Runs `f` and returns what it recorded.
#[cfg(test)]
pub(crate) fn capture(f: impl FnOnce()) -> Vec<(&'static str, Vec<u8>)> {
    TAP.with(|t| t.borrow_mut().clear());
    ON.with(|o| o.set(true));
    f();
    ON.with(|o| o.set(false));
    TAP.with(|t| core::mem::take(&mut *t.borrow_mut()))
}
