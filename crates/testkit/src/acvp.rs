//! NIST ACVP JSON: a vector set's `prompt.json` and `expectedResults.json` (and, where present,
//! `internalProjection.json`), joined on `tgId` / `tcId`.

use serde_json::{Map, Value};

/// One test case: the group's fields (`parameterSet`, `testType`, ...), the prompt's case
/// fields and the expected results' fields, each looked up in that order by [`Case::get`].
#[derive(Debug, Clone)]
pub struct Case {
    /// The test group id.
    pub tg_id: u64,
    /// The test case id.
    pub tc_id: u64,
    /// Group-level fields of the prompt (everything but `tests`).
    pub group: Map<String, Value>,
    /// The prompt's fields of this case.
    pub prompt: Map<String, Value>,
    /// The expected results (and internal projection) of this case.
    pub expected: Map<String, Value>,
}

impl Case {
    /// A field from the expected results, the prompt or the group (first found); panics if
    /// absent.
    pub fn get(&self, k: &str) -> &Value {
        self.expected
            .get(k)
            .or_else(|| self.prompt.get(k))
            .or_else(|| self.group.get(k))
            .unwrap_or_else(|| panic!("tgId {} tcId {}: no field {k}", self.tg_id, self.tc_id))
    }
    /// A field as a string.
    pub fn str(&self, k: &str) -> &str {
        self.get(k)
            .as_str()
            .unwrap_or_else(|| panic!("tcId {}: {k} is not a string", self.tc_id))
    }
    /// A hex field decoded.
    pub fn hex(&self, k: &str) -> Vec<u8> {
        super::hex::decode(self.str(k))
    }
    /// A boolean field.
    pub fn bool(&self, k: &str) -> bool {
        self.get(k)
            .as_bool()
            .unwrap_or_else(|| panic!("tcId {}: {k} is not a boolean", self.tc_id))
    }
}

/// Joins the prompt and expected results (and an internal projection, when given) on
/// `(tgId, tcId)`. Panics when a prompt case has no expected result.
pub fn join(prompt: &str, expected: &str, projection: Option<&str>) -> Vec<Case> {
    let parse = |t: &str| -> Value { serde_json::from_str(t).expect("ACVP JSON") };
    let prompt = parse(prompt);
    let index = |v: &Value| {
        let mut m = std::collections::HashMap::new();
        for g in v["testGroups"].as_array().into_iter().flatten() {
            let tg = g["tgId"].as_u64().expect("tgId");
            for t in g["tests"].as_array().into_iter().flatten() {
                let tc = t["tcId"].as_u64().expect("tcId");
                m.insert((tg, tc), t.as_object().expect("test case").clone());
            }
        }
        m
    };
    let expected = index(&parse(expected));
    let projection = projection.map(|p| index(&parse(p)));
    let mut out = Vec::new();
    for g in prompt["testGroups"].as_array().expect("testGroups") {
        let tg_id = g["tgId"].as_u64().expect("tgId");
        let mut group = g.as_object().expect("group").clone();
        group.remove("tests");
        for t in g["tests"].as_array().expect("tests") {
            let tc_id = t["tcId"].as_u64().expect("tcId");
            let mut exp = expected
                .get(&(tg_id, tc_id))
                .unwrap_or_else(|| panic!("tgId {tg_id} tcId {tc_id}: no expected result"))
                .clone();
            if let Some(p) = projection.as_ref().and_then(|p| p.get(&(tg_id, tc_id))) {
                for (k, v) in p {
                    exp.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
            out.push(Case {
                tg_id,
                tc_id,
                group: group.clone(),
                prompt: t.as_object().expect("test case").clone(),
                expected: exp,
            });
        }
    }
    out
}

/// Loads the ACVP set in folder `nist-acvp/<set>`; `None` (printed) when the files are absent
/// outside CI (see [`crate::vector_file`]).
pub fn load(set: &str) -> Option<Vec<Case>> {
    let dir = format!("nist-acvp/{set}");
    let read = |f: &str| std::fs::read_to_string(f).expect("read ACVP file");
    let prompt = crate::vector_file(&dir, "prompt.json")?;
    let expected = crate::vector_file(&dir, "expectedResults.json")?;
    let projection = prompt.with_file_name("internalProjection.json");
    let projection = projection
        .is_file()
        .then(|| read(projection.to_str().expect("utf-8 path")));
    Some(join(
        &read(prompt.to_str().expect("utf-8 path")),
        &read(expected.to_str().expect("utf-8 path")),
        projection.as_deref(),
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn joins_on_group_and_case() {
        let prompt = r#"{"testGroups":[{"tgId":1,"parameterSet":"P","tests":[{"tcId":1,"d":"00"},{"tcId":2,"d":"01"}]},
            {"tgId":2,"parameterSet":"Q","tests":[{"tcId":1,"d":"02"}]}]}"#;
        let expected = r#"{"testGroups":[{"tgId":2,"tests":[{"tcId":1,"ek":"ff"}]},
            {"tgId":1,"tests":[{"tcId":2,"ek":"ee"},{"tcId":1,"ek":"dd"}]}]}"#;
        let cases = super::join(prompt, expected, None);
        assert_eq!(cases.len(), 3);
        let ek: Vec<(&str, Vec<u8>, Vec<u8>)> = cases
            .iter()
            .map(|c| (c.str("parameterSet"), c.hex("d"), c.hex("ek")))
            .collect();
        assert_eq!(
            ek,
            [
                ("P", vec![0], vec![0xdd]),
                ("P", vec![1], vec![0xee]),
                ("Q", vec![2], vec![0xff])
            ]
        );
    }

    #[test]
    #[should_panic(expected = "no expected result")]
    fn missing_result_is_an_error() {
        let prompt = r#"{"testGroups":[{"tgId":1,"tests":[{"tcId":1}]}]}"#;
        super::join(prompt, r#"{"testGroups":[]}"#, None);
    }
}
