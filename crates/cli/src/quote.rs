//! File names and errors in messages as coreutils prints them: names in its shell-escape
//! quoting (`'a b'`, `"it's"`, `'a'$'\n''b'`), the OS error's text without Rust's
//! ` (os error N)` suffix.

use std::ffi::OsStr;

/// The bytes of a name (on Unix the exact bytes; elsewhere its UTF-8 form).
pub fn name_bytes(name: &OsStr) -> Vec<u8> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        name.as_bytes().to_vec()
    }
    #[cfg(not(unix))]
    {
        name.to_string_lossy().into_owned().into_bytes()
    }
}

/// The name of bytes read from a checksum list.
pub fn name_from_bytes(b: &[u8]) -> std::ffi::OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        OsStr::from_bytes(b).to_os_string()
    }
    #[cfg(not(unix))]
    {
        String::from_utf8_lossy(b).into_owned().into()
    }
}

/// Characters that make coreutils quote a name in a message (with `:`, which `quotef` adds).
fn needs_quote(c: u8, first: bool) -> bool {
    match c {
        b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => false,
        b'%' | b'+' | b',' | b'-' | b'.' | b'/' | b'@' | b']' | b'_' | b'{' | b'}' => false,
        b'#' | b'~' => first,
        0x80..=0xff => false,
        _ => true,
    }
}

fn is_control(c: u8) -> bool {
    c < 0x20 || c == 0x7f
}

/// The escape of a control character inside `$'...'`.
fn control_escape(c: u8, out: &mut String) {
    match c {
        7 => out.push_str("\\a"),
        8 => out.push_str("\\b"),
        9 => out.push_str("\\t"),
        10 => out.push_str("\\n"),
        11 => out.push_str("\\v"),
        12 => out.push_str("\\f"),
        13 => out.push_str("\\r"),
        _ => out.push_str(&format!("\\{c:03o}")),
    }
}

/// `quotef(name)`: the name as coreutils prints it in an error message.
pub fn quotef(name: &[u8]) -> String {
    if name.is_empty() {
        return "''".into();
    }
    let invalid_utf8 = std::str::from_utf8(name).is_err();
    let plain = !invalid_utf8
        && name
            .iter()
            .enumerate()
            .all(|(i, &c)| !needs_quote(c, i == 0));
    if plain {
        return String::from_utf8_lossy(name).into_owned();
    }
    let has_control = name.iter().any(|&c| is_control(c));
    let dq_hostile = name
        .iter()
        .any(|&c| matches!(c, b'$' | b'`' | b'\\' | b'"' | b'!'));
    if name.contains(&b'\'') && !has_control && !dq_hostile && !invalid_utf8 {
        return format!("\"{}\"", String::from_utf8_lossy(name));
    }
    // Single quotes; a control byte (or a byte of invalid UTF-8) closes them for `$'\n'`.
    let mut out = String::from("'");
    let mut in_dollar = false;
    let text = String::from_utf8_lossy(name);
    let valid = !invalid_utf8;
    let mut i = 0;
    while i < name.len() {
        let c = name[i];
        let special = is_control(c) || (!valid && c >= 0x80);
        if special {
            if !in_dollar {
                out.push_str("'$'");
                in_dollar = true;
            }
            if c >= 0x80 {
                out.push_str(&format!("\\{c:03o}"));
            } else {
                control_escape(c, &mut out);
            }
            i += 1;
            continue;
        }
        if in_dollar {
            out.push_str("''");
            in_dollar = false;
        }
        if c == b'\'' {
            out.push_str("'\\''");
            i += 1;
        } else if valid && c >= 0x80 {
            // Copy the whole UTF-8 character.
            let ch = text[i..].chars().next().unwrap_or('\u{fffd}');
            out.push(ch);
            i += ch.len_utf8().max(1);
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out.push('\'');
    out
}

/// The OS error's text as `strerror` gives it ("No such file or directory").
pub fn io_error(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.rfind(" (os error ") {
        Some(i) if s.ends_with(')') => s[..i].to_string(),
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::quotef;

    /// The forms coreutils 9.1 prints (checked against `sha256sum` on missing files).
    #[test]
    fn quoting_matches_coreutils() {
        assert_eq!(quotef(b"plain-name_1.txt"), "plain-name_1.txt");
        assert_eq!(quotef(b"a b"), "'a b'");
        assert_eq!(quotef(b"a\\b"), "'a\\b'");
        assert_eq!(quotef(b"x'y"), "\"x'y\"");
        assert_eq!(quotef(b"x'$y"), "'x'\\''$y'");
        assert_eq!(quotef(b"\ny"), "''$'\\n''y'");
        assert_eq!(quotef(b"y\n"), "'y'$'\\n'");
        assert_eq!(quotef(b"x\n\ny"), "'x'$'\\n\\n''y'");
        assert_eq!(quotef(b"x\x01y"), "'x'$'\\001''y'");
        assert_eq!(quotef(b"#y"), "'#y'");
        assert_eq!(quotef(b"x#y"), "x#y");
        assert_eq!(quotef(b"x:y"), "'x:y'");
        assert_eq!(quotef(b""), "''");
    }
}
