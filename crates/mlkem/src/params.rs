//! The three parameter sets (FIPS 203 section 8, Table 2): their marker types for the generic
//! API (`crate::generic`) and their public modules `ml_kem_512`, `ml_kem_768`, `ml_kem_1024`
//! (lengths and type aliases).
#![forbid(unsafe_code)]

use crate::dims::Dims;
use crate::parameter_set::{ParameterSet, sealed::Sealed};

/// ML-KEM-512 (a marker type: the parameter set of the generic API).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MlKem512;
/// ML-KEM-768 (a marker type: the parameter set of the generic API).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MlKem768;
/// ML-KEM-1024 (a marker type: the parameter set of the generic API).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MlKem1024;

/// One parameter set: its `ParameterSet` impl (associated types only) and its public module of
/// lengths and type aliases of the generic types.
macro_rules! parameter_set_aliases {
    (
        $(#[$doc:meta])*
        $module:ident, $set:ident, $label:literal, k = $k:literal, eta1 = $eta1:literal, du = $du:literal, dv = $dv:literal
    ) => {
        $(#[$doc])*
        pub mod $module {
            use crate::generic;

            const K: usize = $k;
            const DU: usize = $du;
            const DV: usize = $dv;

            /// Length of an encoded encapsulation key.
            pub const EK_LEN: usize = 384 * K + 32;
            /// Length of an expanded decapsulation key (FIPS 203 format).
            pub const DK_LEN: usize = 768 * K + 96;
            /// Length of a ciphertext.
            pub const CT_LEN: usize = 32 * (DU * K + DV);
            /// Length of the seed `d || z`, the canonical private key.
            pub const SEED_LEN: usize = generic::SEED_LEN;
            /// Length of a shared secret.
            pub const SHARED_SECRET_LEN: usize = generic::SHARED_SECRET_LEN;

            #[doc = concat!("An ", $label, " encapsulation key, parsed: it keeps t-hat, the expanded matrix A-hat (NTT form) and H(ek), so repeated encapsulations do not redo ExpandA.")]
            pub type EncapsulationKey = generic::EncapsulationKey<super::$set>;
            #[doc = concat!("An ", $label, " decapsulation key: s-hat, the encapsulation key (with A-hat and H(ek)), z, and the seed when built from one. Wiped on drop.")]
            pub type DecapsulationKey = generic::DecapsulationKey<super::$set>;
            #[doc = concat!("An ", $label, " ciphertext.")]
            pub type Ciphertext = generic::Ciphertext<super::$set>;
            /// A 32-byte shared secret, wiped on drop; `==` is constant time (one type for the
            /// three parameter sets).
            pub type SharedSecret = generic::SharedSecret;
        }

        impl Sealed for $set {
            type Dims = Dims<$k, $eta1, $du, $dv>;
        }

        impl ParameterSet for $set {
            type EkBytes = [u8; $module::EK_LEN];
            type DkBytes = [u8; $module::DK_LEN];
            type CtBytes = [u8; $module::CT_LEN];
        }
    };
}

parameter_set_aliases!(
    /// ML-KEM-512 (security category 1): k = 2, eta1 = 3, du = 10, dv = 4.
    ml_kem_512, MlKem512, "ML-KEM-512", k = 2, eta1 = 3, du = 10, dv = 4
);
parameter_set_aliases!(
    /// ML-KEM-768 (security category 3): k = 3, eta1 = 2, du = 10, dv = 4.
    ml_kem_768, MlKem768, "ML-KEM-768", k = 3, eta1 = 2, du = 10, dv = 4
);
parameter_set_aliases!(
    /// ML-KEM-1024 (security category 5): k = 4, eta1 = 2, du = 11, dv = 5.
    ml_kem_1024, MlKem1024, "ML-KEM-1024", k = 4, eta1 = 2, du = 11, dv = 5
);

#[cfg(test)]
mod tests {
    // Small enough for Miri (one ML-KEM-512 round trip on the portable backend): keygen,
    // encaps, decaps, the expanded-key round trip and implicit rejection; ACVP/Wycheproof
    // run natively in `tests/`.
    #[test]
    fn round_trip_512() {
        use super::ml_kem_512::*;
        use crate::backend::Backend;
        let be = Backend::Portable;
        let dk = DecapsulationKey::from_seed_with_backend(be, &[3; 64]);
        let ek = EncapsulationKey::from_bytes_with_backend(be, &dk.encapsulation_key().to_bytes())
            .unwrap();
        let (ct, k) = ek.encapsulate_deterministic(&[5; 32]);
        assert_eq!(dk.decapsulate(&ct), k);
        let dk2 = DecapsulationKey::from_expanded_bytes_with_backend(be, &dk.to_expanded_bytes())
            .unwrap();
        let mut bad = *ct.as_bytes();
        bad[0] ^= 1;
        let bad = Ciphertext::from_bytes(&bad).unwrap();
        assert_ne!(dk2.decapsulate(&bad), k);
        // Pinned first bytes of the shared secret (the same on little- and big-endian hosts).
        assert_eq!(k.as_bytes()[..4], KNOWN_K[..]);
    }

    const KNOWN_K: [u8; 4] = [211, 96, 19, 46];
}
