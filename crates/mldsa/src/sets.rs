//! The three sets: each marker's associated types and its public module, which names the
//! set's lengths and the generic types of `crate::generic` at its marker (type aliases only;
//! the methods are written once there).
#![forbid(unsafe_code)]

use crate::dims::Dim;
use crate::params::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, Set, Table};

/// One set: its marker's associated types (dimension marker, parameter [`Table`], byte
/// arrays) and its public module of lengths and aliases (nothing else).
macro_rules! set_module {
    (
        $(#[$doc:meta])* $module:ident, $set:ident, $label:literal,
        dims = $dims:ty, params = $params:ty, oid = $oid:literal, pk = $pk:literal, sk = $sk:literal, sig = $sig:literal
    ) => {
        impl Set for $set {
            type Dims = $dims;
            type Params = $params;
            const OID_ARC: u8 = $oid;
        }

        impl ParameterSet for $set {
            type PkBytes = [u8; $pk];
            type SkBytes = [u8; $sk];
            type SigBytes = [u8; $sig];
        }

        /// The encoded signature (sigEncode).
        impl From<crate::generic::Signature<$set>> for [u8; $sig] {
            fn from(sig: crate::generic::Signature<$set>) -> Self {
                *sig.as_bytes()
            }
        }

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
    ml_dsa_44, MlDsa44, "ML-DSA-44",
    dims = Dim<4, 4>, params = Table<4, 4, 2, 39, 32, 17, 88, 80, 3, 18, 6>, oid = 17,
    pk = 1312, sk = 2560, sig = 2420
);
set_module!(
    /// ML-DSA-65 (security category 3): k = 6, l = 5, eta = 4, tau = 49, gamma1 = 2^19,
    /// gamma2 = (q-1)/32, omega = 55.
    ml_dsa_65, MlDsa65, "ML-DSA-65",
    dims = Dim<6, 5>, params = Table<6, 5, 4, 49, 48, 19, 32, 55, 4, 20, 4>, oid = 18,
    pk = 1952, sk = 4032, sig = 3309
);
set_module!(
    /// ML-DSA-87 (security category 5): k = 8, l = 7, eta = 2, tau = 60, gamma1 = 2^19,
    /// gamma2 = (q-1)/32, omega = 75.
    ml_dsa_87, MlDsa87, "ML-DSA-87",
    dims = Dim<8, 7>, params = Table<8, 7, 2, 60, 64, 19, 32, 75, 3, 20, 4>, oid = 19,
    pk = 2592, sk = 4896, sig = 4627
);
