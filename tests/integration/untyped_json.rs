//! Azure's answers are read through the typed resources in `src/resources`: no
//! `serde_json::Value` is indexed (`.pointer(`, `["key"]`, `.get("key")`) in the code outside
//! them. The one exception is ARM's error envelope, which `arm/error.rs` parses whatever shape
//! a service sends (ARM's `ErrorResponse` nests `error` or not, and carries `details` of any
//! depth). No other file indexes JSON in its non-test code.
//!
//! Nor is raw JSON passed around where it should be read: `plan/`, `ops/` and `provision/`
//! take no list of raw JSON in a signature, and no function of theirs takes a `Value`
//! parameter but the ones `VALUE_PARAMS_ALLOWED` names with their reason (bodies sent, Helm
//! values, a write's answer shown as sent). A resource Azure sent is read typed once, at the
//! edge, and a read-modify-write takes it as `AsRead<T>`.

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
/// The Rust sources under `dirs`, as (path relative to the crate, text).
fn sources(dirs: &[&str]) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in dirs {
        rust_files(&root.join(dir), &mut files);
    }
    files
        .iter()
        .map(|file| {
            let rel = file.strip_prefix(root).expect("under the crate").to_string_lossy().replace('\\', "/");
            (rel, std::fs::read_to_string(file).expect("read source"))
        })
        .collect()
}

fn untyped() -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for (rel, text) in sources(&["src"]) {
        if ALLOWED.iter().any(|(p, _)| rel.starts_with(p)) {
            continue;
        }
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
/// The layers that take typed resources, not raw JSON.
const BELOW_OPS: [&str; 3] = ["src/plan", "src/ops", "src/provision"];

/// JSON lists, outside `JSON_LISTS_ALLOWED`.
fn json_lists() -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for (rel, text) in sources(&BELOW_OPS) {
        if JSON_LISTS_ALLOWED.iter().any(|(p, _)| rel == *p) {
            continue;
        }
        let n = code_lines(&text).filter(|l| json_list_signature(l)).count();
        if n > 0 {
            out.insert(rel, n);
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

/// Functions of `plan/`, `ops/` and `provision/` that may take raw JSON (`Value`) as a
/// parameter, by file and name, with the reason: what is sent (or a part of it), open documents
/// that are no ARM resource, and a write's answer the front end shows as Azure sent it. A
/// resource Azure sent and the tool decides on or sends back is never one: it is read typed at
/// the edge (`src/resources`; `AsRead<T>` when its JSON is sent back by a read-modify-write).
const VALUE_PARAMS_ALLOWED: &[(&str, &[&str], &str)] = &[
    ("src/plan/mod.rs", &["write"], "a step's body, as sent"),
    ("src/plan/cluster_ops.rs", &["put"], "a PUT's body, as sent"),
    (
        "src/plan/cluster.rs",
        &["without", "remove", "differences", "walk"],
        "a PUT body being built (the JSON an AsRead kept, minus read-only paths), and two bodies compared",
    ),
    (
        "src/plan/quota.rs",
        &["body_of", "shown_plan"],
        "the limit a quota request sends: a number, or a dry run's placeholder text",
    ),
    ("src/ops/quota.rs", &["plan_for"], "the limit a quota request sends: a number, or a dry run's placeholder text"),
    (
        "src/plan/agent_pool/diff.rs",
        &["same", "cmp"],
        "one field of the spec and of the pool read typed, as the JSON values the difference report shows",
    ),
    (
        "src/plan/operator.rs",
        &["driver_keys", "set_driver_keys"],
        "the GPU Operator's Helm values, an open document (no ARM resource) the tool writes",
    ),
    (
        "src/plan/install.rs",
        &[
            "install",
            "merge",
            "others_refusal",
            "get_path",
            "get_path_mut",
            "remove_path",
            "deep_merge",
            "leaves",
            "values_diff",
        ],
        "the GPU Operator's Helm values (no ARM resource): the release's are merged whole, so every key it has \
         is kept; what is decided on is read through resources::helm::OperatorValues",
    ),
    ("src/plan/gitops/release.rs", &["same"], "two Helm values documents compared"),
    (
        "src/ops/gitops/mod.rs",
        &["operator_plan"],
        "the Helm release's values as read, merged whole by plan::install::merge",
    ),
    (
        "src/ops/cluster.rs",
        &["power_state", "scaled_pool", "issuer_and_state", "node_image_warning"],
        "the resource a write returned, which the front end shows as Azure sent it (-o json) and cannot read \
         typed itself (it imports no resources): read typed here, for its text",
    ),
    (
        "src/ops/pool.rs",
        &["created_pool"],
        "the pool a create returned, which the front end shows as Azure sent it and cannot read typed itself: \
         read typed here, for its summary",
    ),
    (
        "src/provision/prices.rs",
        &["slim", "fingerprint"],
        "a Retail Prices page (not ARM): each item's text is fingerprinted (a repeated page) and its size \
         checked before it is read as a RetailPrice",
    ),
];

/// True when `c` may be part of an identifier.
fn ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// True when `ty` names `Value` as a whole word (`&Value`, `serde_json::Value`,
/// `Option<&Value>`, `dyn Fn(&Value) -> bool`), not `JsonValue` or `ValueKind`.
fn names_value(ty: &str) -> bool {
    ty.match_indices("Value").any(|(i, _)| {
        let before = ty[..i].chars().next_back().is_none_or(|c| !ident(c));
        let after = ty[i + "Value".len()..].chars().next().is_none_or(|c| !ident(c));
        before && after
    })
}

/// `text` split at the commas outside brackets (`->` is no bracket).
fn top_level(text: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out, mut prev) = (0i32, 0, Vec::new(), ' ');
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '<' => depth += 1,
            ')' | ']' => depth -= 1,
            '>' if prev != '-' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        prev = c;
    }
    out.push(&text[start..]);
    out
}

/// The functions in `code` (one string, comments and tests left out) that take a parameter
/// whose type names `Value`: (function, parameter).
fn value_params(code: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("fn ") {
        if code[..at].chars().next_back().is_some_and(ident) {
            continue;
        }
        let rest = &code[at + 3..];
        let name: String = rest.chars().take_while(|c| ident(*c)).collect();
        let after = rest[name.len()..].trim_start();
        // Generics (`<T: Fn(&str) -> bool>`) end at the `>` that closes the first `<`.
        let mut depth = 0i32;
        let mut prev = ' ';
        let Some(open) = after.char_indices().find_map(|(i, c)| {
            let found = match c {
                '<' => {
                    depth += 1;
                    None
                }
                '>' if prev != '-' => {
                    depth -= 1;
                    None
                }
                '(' if depth == 0 => Some(i),
                _ => None,
            };
            prev = c;
            found
        }) else {
            continue;
        };
        if name.is_empty() || after[..open].contains(['{', ';', '=']) {
            continue;
        }
        let mut depth = 0i32;
        let Some(close) = after[open..].char_indices().find_map(|(i, c)| {
            depth += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            (depth == 0).then_some(open + i)
        }) else {
            continue;
        };
        for param in top_level(&after[open + 1..close]) {
            // The type follows the first `:` outside the pattern's brackets.
            let Some(colon) = top_level_colon(param) else { continue };
            if names_value(&param[colon + 1..]) {
                out.push((name.clone(), param.trim().to_owned()));
            }
        }
    }
    out
}

/// The first `:` of a parameter outside brackets and not part of a `::` path.
fn top_level_colon(param: &str) -> Option<usize> {
    let bytes = param.as_bytes();
    let mut depth = 0i32;
    for (i, c) in param.char_indices() {
        match c {
            '(' | '[' | '<' => depth += 1,
            ')' | ']' | '>' => depth -= 1,
            ':' if depth == 0 && bytes.get(i + 1) != Some(&b':') && (i == 0 || bytes[i - 1] != b':') => return Some(i),
            _ => {}
        }
    }
    None
}

/// The functions of `plan/`, `ops/` and `provision/` that take raw JSON, by file (relative
/// path): (function, parameter).
fn json_params() -> BTreeMap<String, Vec<(String, String)>> {
    let mut out = BTreeMap::new();
    for (rel, text) in sources(&BELOW_OPS) {
        let code: Vec<&str> = code_lines(&text).collect();
        let found = value_params(&code.join(" "));
        if !found.is_empty() {
            out.insert(rel, found);
        }
    }
    out
}

#[test]
fn plan_ops_and_provision_take_typed_resources() {
    let found = json_params();
    let allowed = |file: &str, f: &str| VALUE_PARAMS_ALLOWED.iter().any(|(p, fs, _)| *p == file && fs.contains(&f));
    let table: Vec<String> = found
        .iter()
        .flat_map(|(file, params)| params.iter().map(move |(f, p)| (file, f, p)))
        .filter(|(file, f, _)| !allowed(file, f))
        .map(|(file, f, p)| {
            format!("{file}: fn {f} takes raw JSON ({p}): take the typed resource of src/resources (AsRead<T> to send it back)")
        })
        .collect();
    assert!(table.is_empty(), "{}", table.join("\n"));
    // An allowance outlives no function: each names one that still takes raw JSON.
    let stale: Vec<String> = VALUE_PARAMS_ALLOWED
        .iter()
        .flat_map(|(p, fs, _)| fs.iter().map(move |f| (*p, *f)))
        .filter(|(p, f)| !found.get(*p).is_some_and(|list| list.iter().any(|(g, _)| g == f)))
        .map(|(p, f)| format!("{p}: fn {f} is allowed raw JSON but takes none: drop it from VALUE_PARAMS_ALLOWED"))
        .collect();
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}

#[test]
fn the_parameter_scanner_sees_value_parameters_only() {
    let code = "pub fn a(cluster: &Value) -> Value { x } \
        fn b<T: Fn(&str) -> bool>(f: T, v: Option<&serde_json::Value>) {} \
        pub async fn c(client: &ArmClient, (p, c): (&Value, &str)) -> Result<Value, E> {} \
        fn d(carries: &(dyn Fn(&Value) -> bool + Sync)) {} \
        fn e(&self, pool: &AsRead<AgentPool>, n: ValueKind, m: JsonValue) -> Vec<Value> {} \
        let f = |v: &Value| true; \
        fn g(\n    body: Option<Value>,\n) {}";
    let names: Vec<String> = value_params(code).into_iter().map(|(f, _)| f).collect();
    assert_eq!(names, ["a", "b", "c", "d", "g"]);
}
