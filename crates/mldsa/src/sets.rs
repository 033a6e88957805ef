//! The per-set modules of the public API: each names the set's lengths and the generic types
//! of `crate::generic` at its marker (type aliases only; the methods are written once there).
#![forbid(unsafe_code)]

/// One per-set module: its lengths and its aliases (nothing else).
macro_rules! set_module {
    ($(#[$doc:meta])* $module:ident, $set:ident, $label:literal) => {
        $(#[$doc])*
        pub mod $module {
            use crate::generic::{$set, ParameterSet};

            /// Length of an encoded verifying key (pkEncode).
            pub const PK_LEN: usize = <$set as ParameterSet>::PK_LEN;
            /// Length of an expanded signing key (skEncode).
            pub const SK_LEN: usize = <$set as ParameterSet>::SK_LEN;
            /// Length of a signature (sigEncode).
            pub const SIG_LEN: usize = <$set as ParameterSet>::SIG_LEN;
            /// Length of the seed xi, the canonical private key.
            pub const SEED_LEN: usize = <$set as ParameterSet>::SEED_LEN;

            #[doc = concat!("An ", $label, " verifying key, parsed: it keeps A-hat, NTT(t1 * 2^d) and tr = H(pk), so repeated verifications do not redo ExpandA.")]
            pub type VerifyingKey = crate::generic::VerifyingKey<$set>;
            #[doc = concat!("An ", $label, " signing key: the NTT forms of s1 + 2^S s2 (packed), the remaining s2 and t0, K, the expanded encoding, the verifying key (with A-hat and tr), and the seed xi when built from one. Secrets are wiped on drop.")]
            pub type SigningKey = crate::generic::SigningKey<$set>;
            #[doc = concat!("An ", $label, " signature (sigEncode). Parsing checks the length only; the hint encoding is checked by verification (FIPS 204 HintBitUnpack).")]
            pub type Signature = crate::generic::Signature<$set>;
        }
    };
}

set_module!(
    /// ML-DSA-44 (security category 2): k = 4, l = 4, eta = 2, tau = 39, gamma1 = 2^17,
    /// gamma2 = (q-1)/88, omega = 80.
    ml_dsa_44, MlDsa44, "ML-DSA-44"
);
set_module!(
    /// ML-DSA-65 (security category 3): k = 6, l = 5, eta = 4, tau = 49, gamma1 = 2^19,
    /// gamma2 = (q-1)/32, omega = 55.
    ml_dsa_65, MlDsa65, "ML-DSA-65"
);
set_module!(
    /// ML-DSA-87 (security category 5): k = 8, l = 7, eta = 2, tau = 60, gamma1 = 2^19,
    /// gamma2 = (q-1)/32, omega = 75.
    ml_dsa_87, MlDsa87, "ML-DSA-87"
);
