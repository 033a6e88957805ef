//! The RFC 9180 (`hpke-rfc9180/test-vectors.json`) and draft-ietf-hpke-pq
//! (`hpke-pq/test-vectors.json`) HPKE vectors: one [`Vector`] per suite and mode.

use serde_json::Value;

/// One sealed message of a vector's context, in sequence order.
#[derive(Debug, Clone)]
pub struct Encryption {
    /// Additional data.
    pub aad: Vec<u8>,
    /// The ciphertext (with tag).
    pub ct: Vec<u8>,
    /// The nonce of this sequence number.
    pub nonce: Vec<u8>,
    /// The plaintext.
    pub pt: Vec<u8>,
}

/// One exported secret.
#[derive(Debug, Clone)]
pub struct Export {
    /// The exporter context.
    pub exporter_context: Vec<u8>,
    /// The requested length.
    pub len: usize,
    /// The exported value.
    pub exported_value: Vec<u8>,
}

/// One HPKE test vector. Byte fields absent from a file (the PQ vectors have no `skEm`, the
/// RFC 9180 ones no `suite_id`; PSK and sender-key fields exist only in their modes) are `None`.
#[derive(Debug, Clone)]
pub struct Vector {
    /// Mode: 0 Base, 1 PSK, 2 Auth, 3 AuthPSK.
    pub mode: u8,
    /// KEM codepoint.
    pub kem_id: u16,
    /// KDF codepoint.
    pub kdf_id: u16,
    /// AEAD codepoint (0xFFFF: export only).
    pub aead_id: u16,
    /// Every hex field by its JSON name (`info`, `ikmE`, `ikmR`, `skRm`, `pkRm`, `enc`,
    /// `shared_secret`, `key`, `base_nonce`, `exporter_secret`, `psk`, `psk_id`, `ikmS`, ...).
    pub fields: std::collections::BTreeMap<String, Vec<u8>>,
    /// The sealed messages.
    pub encryptions: Vec<Encryption>,
    /// The exported secrets.
    pub exports: Vec<Export>,
}

impl Vector {
    /// A hex field; `None` when the vector does not have it.
    pub fn field(&self, k: &str) -> Option<&[u8]> {
        self.fields.get(k).map(Vec::as_slice)
    }
    /// A hex field that must be present.
    pub fn get(&self, k: &str) -> &[u8] {
        self.field(k).unwrap_or_else(|| {
            panic!(
                "HPKE vector mode {} kem {:#x} kdf {:#x} aead {:#x}: no field {k}",
                self.mode, self.kem_id, self.kdf_id, self.aead_id
            )
        })
    }
}

fn hex_of(v: &Value, k: &str) -> Vec<u8> {
    crate::hex::decode(
        v[k].as_str()
            .unwrap_or_else(|| panic!("HPKE vector: {k} not a string")),
    )
}

/// Parses a JSON array of HPKE vectors.
pub fn parse(text: &str) -> Vec<Vector> {
    let all: Value = serde_json::from_str(text).expect("HPKE vector JSON");
    let num = |v: &Value, k: &str| v[k].as_u64().unwrap_or_else(|| panic!("{k} not a number"));
    all.as_array()
        .expect("a JSON array of vectors")
        .iter()
        .map(|v| {
            let obj = v.as_object().expect("vector object");
            let fields = obj
                .iter()
                .filter_map(|(k, x)| Some((k.clone(), crate::hex::decode(x.as_str()?))))
                .collect();
            Vector {
                mode: num(v, "mode") as u8,
                kem_id: num(v, "kem_id") as u16,
                kdf_id: num(v, "kdf_id") as u16,
                aead_id: num(v, "aead_id") as u16,
                fields,
                encryptions: v["encryptions"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|e| Encryption {
                        aad: hex_of(e, "aad"),
                        ct: hex_of(e, "ct"),
                        nonce: hex_of(e, "nonce"),
                        pt: hex_of(e, "pt"),
                    })
                    .collect(),
                exports: v["exports"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|e| Export {
                        exporter_context: hex_of(e, "exporter_context"),
                        len: num(e, "L") as usize,
                        exported_value: hex_of(e, "exported_value"),
                    })
                    .collect(),
            }
        })
        .collect()
}

/// Loads `hpke-rfc9180/test-vectors.json`.
pub fn load_rfc9180() -> Option<Vec<Vector>> {
    load("hpke-rfc9180")
}

/// Loads `hpke-pq/test-vectors.json`.
pub fn load_pq() -> Option<Vec<Vector>> {
    load("hpke-pq")
}

fn load(set: &str) -> Option<Vec<Vector>> {
    let p = crate::vector_file(set, "test-vectors.json")?;
    Some(parse(
        &std::fs::read_to_string(p).expect("read HPKE vectors"),
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn parses_fields_encryptions_exports() {
        let v = super::parse(
            r#"[{"mode":1,"kem_id":32,"kdf_id":1,"aead_id":3,"info":"4f","psk":"0102",
                "encryptions":[{"aad":"","ct":"aa","nonce":"bb","pt":"cc"}],
                "exports":[{"exporter_context":"","L":32,"exported_value":"dd"}]}]"#,
        );
        assert_eq!(v.len(), 1);
        assert_eq!(
            (v[0].mode, v[0].kem_id, v[0].kdf_id, v[0].aead_id),
            (1, 32, 1, 3)
        );
        assert_eq!(v[0].get("psk"), [1, 2]);
        assert_eq!(v[0].field("skEm"), None);
        assert_eq!(v[0].encryptions[0].ct, [0xaa]);
        assert_eq!(v[0].exports[0].len, 32);
    }
}
