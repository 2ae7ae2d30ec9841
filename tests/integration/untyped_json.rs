//! Azure's answers are read through the typed resources in `src/resources`: no
//! `serde_json::Value` is indexed (`.pointer(`, `["key"]`, `.get("key")`) in the code outside
//! them. The one exception is ARM's error envelope, which `arm/error.rs` parses whatever shape
//! a service sends (ARM's `ErrorResponse` nests `error` or not, and carries `details` of any
//! depth). No other file indexes JSON in its non-test code.

use std::collections::BTreeMap;
use std::path::Path;

use crate::architecture::rust_files;

/// Where indexing raw JSON is the job: the typed resources, and ARM's error parsing.
const ALLOWED: &[(&str, &str)] = &[
    ("src/resources.rs", "the typed resources"),
    ("src/resources/", "the typed resources"),
    ("src/arm/error.rs", "ARM's error envelope, parsed whatever shape a service sends"),
];

/// The code of a file without its test module (`#[cfg(test)]` and what follows) and comments.
fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .take_while(|l| l.trim() != "#[cfg(test)]")
        .map(|l| l.trim())
        .filter(|l| !l.starts_with("//"))
        .map(|l| l.split(" // ").next().unwrap_or(l))
}

/// True when a line indexes JSON: `.pointer(`, `.get("…")` (not on HTTP headers) or `["key"]`.
fn indexes_json(line: &str) -> bool {
    let get = line
        .match_indices(".get(\"")
        .any(|(i, _)| !line[..i].ends_with("headers") && !line[..i].ends_with("headers()"));
    let key = line.match_indices("[\"").any(|(i, _)| {
        // `v["key"]` indexes; `(["a"]` or `= ["a"]` is an array literal.
        let indexed = line[..i].chars().last().is_some_and(|c| c.is_ascii_alphanumeric() || "_])".contains(c));
        let rest = &line[i + 2..];
        let word: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$').collect();
        indexed && !word.is_empty() && rest[word.len()..].starts_with("\"]")
    });
    line.contains(".pointer(") || get || key
}

/// Untyped lines per file (relative paths), outside `ALLOWED`.
fn untyped() -> BTreeMap<String, usize> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut out = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(root).expect("under the crate").to_string_lossy().replace('\\', "/");
        if ALLOWED.iter().any(|(p, _)| rel.starts_with(p)) {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("read source");
        let n = code_lines(&text).filter(|l| indexes_json(l)).count();
        if n > 0 {
            out.insert(rel, n);
        }
    }
    out
}

#[test]
fn raw_json_is_read_only_through_the_typed_resources() {
    let found = untyped();
    let table: Vec<String> =
        found.iter().map(|(f, n)| format!("{f}: {n} line(s) index raw JSON: read it through src/resources")).collect();
    assert!(found.is_empty(), "{}", table.join("\n"));
}

#[test]
fn the_scanner_sees_each_way_of_indexing() {
    for hit in [
        r#"let s = v.pointer("/properties/x");"#,
        r#"let s = v["name"].as_str();"#,
        r#"let s = v.get("status");"#,
        r#"b["query"] = json!(q);"#,
    ] {
        assert!(indexes_json(hit), "{hit}");
    }
    for miss in [
        r#"let r = resp.headers.get("retry-after");"#,
        r#"let r = resp.headers().get("x-error-code");"#,
        r#"let v = json!(["a"]);"#,
        r#"let m = map[key];"#,
    ] {
        assert!(!indexes_json(miss), "{miss}");
    }
    let code: Vec<&str> = code_lines("let a = v[\"x\"];\n// v[\"y\"]\n#[cfg(test)]\nlet b = v[\"z\"];").collect();
    assert_eq!(code, ["let a = v[\"x\"];"]);
}
