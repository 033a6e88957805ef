//! Row helpers shared by the primitive groups: inputs, roles, hash and XOF contestants.

use crate::*;

/// Deterministic input bytes: one generator, seeded once per row, outside any timing.
pub(crate) fn input(len: usize, seed: u64) -> Vec<u8> {
    let mut v = vec![0u8; len];
    SplitMix64(seed ^ len as u64).fill(&mut v);
    v
}

pub(crate) fn tessera_role(best: bool) -> Role {
    if best { Role::Reference } else { Role::Backend }
}

/// Tessera's contestants of a row, one per implementation of `impls` in order: `make(name, role,
/// backend)` with the name `tessera/NAME`, the role `Reference` for the best backend (`None`,
/// the public API) and `Backend` for every forced one.
pub(crate) fn tessera_contestants<B: Copy>(
    impls: Vec<tessera::Impl<B>>,
    make: impl Fn(String, Role, Option<B>) -> Contestant,
) -> Vec<Contestant> {
    impls
        .into_iter()
        .map(|t| {
            make(
                format!("tessera/{}", t.name),
                tessera_role(t.backend.is_none()),
                t.backend,
            )
        })
        .collect()
}

/// A one-shot hash contestant: `f` is checked against `expect` once, then timed on its own
/// aligned copy of `msg`, input and output through `black_box`.
pub(crate) fn hash<O: AsRef<[u8]>>(
    name: impl Into<String>,
    role: Role,
    msg: &[u8],
    expect: &[u8],
    f: impl Fn(&[u8]) -> O + 'static,
) -> Contestant {
    let name = name.into();
    let d = AlignedBuf::from_slice(msg);
    assert_eq!(f(&d).as_ref(), expect, "{name} disagrees with Tessera");
    Contestant::new(name, role, move || {
        black_box(f(black_box(&d)));
    })
}

/// An XOF contestant writing `out_len` bytes into its own aligned output buffer.
pub(crate) fn xof(
    name: impl Into<String>,
    role: Role,
    msg: &[u8],
    expect: &[u8],
    f: impl Fn(&[u8], &mut [u8]) + 'static,
) -> Contestant {
    let name = name.into();
    let d = AlignedBuf::from_slice(msg);
    let mut out = AlignedBuf::zeroed(expect.len());
    f(&d, &mut out);
    assert_eq!(&*out, expect, "{name} disagrees with Tessera");
    Contestant::new(name, role, move || {
        f(black_box(&d), black_box(&mut out));
        black_box(&*out);
    })
}
