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

/// Lists of raw JSON that `plan/`, `ops/` and `provision/` may still pass around: what the user
/// writes or what is sent, never an answer of Azure's read and decided on.
const JSON_LISTS_ALLOWED: &[(&str, &str)] = &[
    (
        "src/plan/gitops/config/mod.rs",
        "the KAITO Workspace manifests a GpuConfig file holds, passed on as the user wrote them",
    ),
    (
        "src/provision/prices.rs",
        "a Retail Prices page (not ARM): each item's text is fingerprinted (a repeated page) and its size \
         checked before it is read as a RetailPrice",
    ),
];

/// True when a line is a signature (a `fn` line, a return type, a parameter or a field) that
/// takes or holds a list of raw JSON.
fn json_list_signature(line: &str) -> bool {
    let lists = ["Vec<Value>", "&[Value]", "Vec<serde_json::Value>", "&[serde_json::Value]"];
    let word: String =
        line.trim_start_matches("pub ").chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    let field = !word.is_empty() && line.trim_start_matches("pub ")[word.len()..].starts_with(": ") && word != "let";
    let signature = line.contains("fn ") || line.contains("->") || field;
    signature && !line.starts_with("let ") && lists.iter().any(|l| line.contains(l))
}

/// Signature lines per file (relative paths) of `plan/`, `ops/` and `provision/` that pass raw
/// JSON lists, outside `JSON_LISTS_ALLOWED`.
fn json_lists() -> BTreeMap<String, usize> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = BTreeMap::new();
    for dir in ["src/plan", "src/ops", "src/provision"] {
        let mut files = Vec::new();
        rust_files(&root.join(dir), &mut files);
        for file in files {
            let rel = file.strip_prefix(root).expect("under the crate").to_string_lossy().replace('\\', "/");
            if JSON_LISTS_ALLOWED.iter().any(|(p, _)| rel == *p) {
                continue;
            }
            let text = std::fs::read_to_string(&file).expect("read source");
            let n = code_lines(&text).filter(|l| json_list_signature(l)).count();
            if n > 0 {
                out.insert(rel, n);
            }
        }
    }
    out
}

#[test]
fn plan_ops_and_provision_take_typed_lists() {
    let found = json_lists();
    let table: Vec<String> = found
        .iter()
        .map(|(f, n)| {
            format!("{f}: {n} signature(s) pass a list of raw JSON: take the typed resources of src/resources")
        })
        .collect();
    assert!(found.is_empty(), "{}", table.join("\n"));
}

#[test]
fn the_list_scanner_sees_signatures_only() {
    for hit in [
        "pub fn usage(usages: &[Value], name: &str) -> Result<Option<Usage>, MissingField> {",
        "usages: &[Value],",
        "pub pools: Vec<Value>,",
        ") -> Result<(Value, Vec<serde_json::Value>), ArmError> {",
        "skus: Option<&[serde_json::Value]>,",
    ] {
        assert!(json_list_signature(hit), "{hit}");
    }
    for miss in ["let rows: Vec<Value> = Vec::new();", "pools: Vec<AsRead<AgentPool>>,", "fn f(v: &Value) {"] {
        assert!(!json_list_signature(miss), "{miss}");
    }
}
