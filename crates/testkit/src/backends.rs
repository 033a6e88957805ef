//! The cross-backend checker: run a closure on every backend this CPU has, compare each
//! result with the portable backend's, and check the set of backends against
//! `TESSERA_EXPECT_BACKENDS` (comma-separated, set by CI and `cargo xtask test` per leg).

use std::collections::BTreeSet;
use std::fmt::Debug;
use std::sync::Mutex;

use tessera_cpu::BackendSet;

/// Tables already checked in this process (each is checked and reported once).
static CHECKED: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// Checks the backends of table `B` this CPU has against `TESSERA_EXPECT_BACKENDS`.
///
/// Among the names `B` knows, exactly the listed ones must be available: a listed backend that
/// is missing fails (a skipped backend never passes silently), and so does an unlisted one that
/// is present (the dispatcher must not pick what the emulated CPU lacks). A listed name that no
/// table of any crate knows is not this function's business (each crate checks its own names).
/// Prints the backends exercised, once per table and process.
pub fn expect_backends<B: BackendSet>() {
    let table = std::any::type_name::<B>();
    if !CHECKED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(table)
    {
        return;
    }
    let available: Vec<&str> = B::all_available().map(|b| b.name()).collect();
    assert_eq!(
        available.first(),
        Some(&"portable"),
        "{table}: portable must come first"
    );
    for a in &available {
        assert!(B::KNOWN.contains(a), "{table}: {a} missing from KNOWN");
    }
    eprintln!("{table}: backends exercised: {available:?}");
    let Ok(list) = std::env::var("TESSERA_EXPECT_BACKENDS") else {
        eprintln!("{table}: TESSERA_EXPECT_BACKENDS not set; not checking");
        CHECKED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(table);
        return;
    };
    let wanted: Vec<&str> = list.split(',').map(str::trim).collect();
    for k in B::KNOWN {
        let want = wanted.contains(k);
        let have = available.contains(k);
        assert_eq!(
            want,
            have,
            "{table}: backend {k}: expected {}, but it is {} (have {available:?}, expected {wanted:?})",
            if want { "present" } else { "absent" },
            if have { "present" } else { "absent" },
        );
    }
    CHECKED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(table);
}

/// Every available backend of `B` (portable first), after [`expect_backends`]: for loops that
/// need `continue`, `?` or early returns.
pub fn available<B: BackendSet>() -> Vec<B> {
    expect_backends::<B>();
    B::all_available().collect()
}

/// Runs `f` on every available backend of `B` (portable first), after [`expect_backends`].
pub fn for_each_backend<B: BackendSet>(mut f: impl FnMut(B)) {
    expect_backends::<B>();
    for b in B::all_available() {
        f(b);
    }
}

/// Runs `f` on every available backend of `B` and asserts that each result equals the
/// portable backend's; returns the portable result. `what` names the case in a failure.
pub fn check_backends<B: BackendSet, T: PartialEq + Debug>(
    what: impl std::fmt::Display,
    f: impl FnMut(B) -> T,
) -> T {
    expect_backends::<B>();
    let others: Vec<B> = B::all_available().skip(1).collect();
    check_backends_in(&others, what, f)
}

/// The backends among `targets` (names of table `B`) that this CPU has, portable excluded, for
/// a test aimed at those backends only: an exhaustive sweep of one backend's strides, which
/// would add nothing but time on the others (already covered by the proptest checks) and under
/// emulation. Runs [`expect_backends`] first, so a target CI expects but this CPU lacks still
/// fails. Prints to stderr which targets `test` sweeps and which it skips and why (absent on
/// this CPU; not targeted), so a skip is never silent. Every name must be one `B` knows.
pub fn targeted<B: BackendSet>(test: &str, targets: &[&str]) -> Vec<B> {
    expect_backends::<B>();
    let table = std::any::type_name::<B>();
    for t in targets {
        assert!(B::KNOWN.contains(t), "{table}: unknown target backend {t}");
    }
    let swept: Vec<B> = B::all_available()
        .skip(1)
        .filter(|b| targets.contains(&b.name()))
        .collect();
    let names: Vec<&str> = swept.iter().map(|b| b.name()).collect();
    let absent: Vec<&str> = targets
        .iter()
        .copied()
        .filter(|t| !names.contains(t))
        .collect();
    let untargeted: Vec<&str> = B::all_available()
        .skip(1)
        .map(|b| b.name())
        .filter(|n| !targets.contains(n))
        .collect();
    if swept.is_empty() {
        eprintln!(
            "SKIPPED: {test}: none of its target backends {targets:?} is available on this CPU \
             (not targeted: {untargeted:?})"
        );
    } else {
        eprintln!(
            "{test}: swept {names:?} against portable; skipped {absent:?} (not on this CPU) and \
             {untargeted:?} (not targeted)"
        );
    }
    swept
}

/// [`check_backends`] restricted to `backends` (from [`targeted`]): runs `f` on portable and on
/// each of `backends`, asserts that each result equals portable's and returns portable's.
pub fn check_backends_in<B: BackendSet, T: PartialEq + Debug>(
    backends: &[B],
    what: impl std::fmt::Display,
    mut f: impl FnMut(B) -> T,
) -> T {
    let reference = f(B::portable());
    for &b in backends {
        let got = f(b);
        assert_eq!(
            got,
            reference,
            "{what}: backend {} differs from portable",
            b.name()
        );
    }
    reference
}
