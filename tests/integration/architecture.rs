//! The layers of ARCHITECTURE.md, enforced: every `crate::…` path in `src/` is checked against
//! what its module may import. Data flows one way, from the commands down to the domain types.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What each module of `src/` may import (besides itself). The front end (`commands`, `cli`,
/// `output`, `error`, `wizard`, `main`, `lib`) may import anything and is not listed.
const RULES: &[(&str, &[&str])] = &[
    ("domain", &[]),
    ("resources", &[]),
    ("secret", &[]),
    ("cache", &["domain"]),
    ("catalog", &["domain"]),
    ("units", &["domain"]),
    ("pricing", &["cache", "catalog", "domain", "resources", "units"]),
    ("drift", &["catalog", "domain", "units", "pricing", "resources"]),
    ("arm", &["domain", "resources", "secret"]),
    ("hub", &["arm", "cache", "catalog", "domain", "resources", "secret", "units"]),
    ("recommend", &["catalog", "domain", "resources", "units"]),
    ("cost", &["cache", "catalog", "domain", "pricing", "recommend", "resources", "units"]),
    ("fleet", &["catalog", "cost", "domain", "pricing", "recommend", "resources", "units"]),
    ("plan", &["catalog", "domain", "pricing", "resources", "secret", "units"]),
    ("provision", &["arm", "cache", "catalog", "domain", "plan", "resources", "secret", "units"]),
    (
        "ops",
        &[
            "arm",
            "cache",
            "catalog",
            "cost",
            "domain",
            "drift",
            "error",
            "fleet",
            "hub",
            "plan",
            "pricing",
            "provision",
            "recommend",
            "resources",
            "secret",
            "units",
        ],
    ),
];

/// What `ops` may not name although it may import `error`: the workflows return typed errors,
/// and only the front end maps them to exit codes (`error::exit`, `exit_code`).
const OPS_FORBIDDEN: &[&str] = &["error::exit", "exit_code", "diff_exit_code", "crate::output", "crate::cli"];

const FRONT: &[&str] = &["commands", "cli", "output", "error", "wizard", "main", "lib"];

/// Every `.rs` file under `dir` (shared with the untyped-JSON check).
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules a source text names through `crate::` (also inside nested
/// `crate::{a::{B, C}, d}` groups). Comments and string contents are not code and are skipped.
fn imports(text: &str) -> BTreeSet<String> {
    crate_paths(&code_only(text)).iter().filter_map(|p| p.first().cloned()).collect()
}

/// The text with comments and the contents of string and char literals blanked to spaces
/// (newlines kept, so line numbers still hold). Handles `//`, nested `/* */`, `"…"` with
/// escapes, raw strings `r#"…"#`, byte strings, char literals and lifetimes.
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |ch: char| if ch == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(c[i]));
                    i += 1;
                }
            }
        } else if c[i] == 'r' && (next == Some('#') || next == Some('"')) && !ident_before(&c, i) {
            let mut j = i + 1;
            while c.get(j) == Some(&'#') {
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            let hashes = j - i - 1;
            out.extend(std::iter::repeat_n(' ', j - i + 1));
            i = j + 1;
            while i < c.len() {
                if c[i] == '"' && (1..=hashes).all(|k| c.get(i + k) == Some(&'#')) {
                    out.extend(std::iter::repeat_n(' ', hashes + 1));
                    i += hashes + 1;
                    break;
                }
                out.push(blank(c[i]));
                i += 1;
            }
        } else if c[i] == '"' {
            out.push(' ');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if let Some(&ch) = c.get(i) {
                    out.push(blank(ch));
                }
                i += 1;
            }
            out.push(' ');
            i += 1;
        } else if c[i] == '\'' && next == Some('\\') {
            // A char literal with an escape: '\n', '\'', '\u{..}'.
            let mut j = i + 2;
            while j < c.len() && c[j] != '\'' {
                j += 1;
            }
            out.extend(std::iter::repeat_n(' ', j + 1 - i));
            i = j + 1;
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            out.push_str("   ");
            i += 3;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn ident_before(c: &[char], i: usize) -> bool {
    i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_')
}

/// Every `crate::…` path of some code (from `code_only`), as its segments; a group
/// `crate::a::{b::C, d}` gives `[a, b, C]` and `[a, d]`.
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        if code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let rest: Vec<char> = code[i + "crate::".len()..].chars().collect();
        let mut at = 0;
        path_tree(&rest, &mut at, Vec::new(), &mut found);
    }
    found
}

/// Read one path (or group) at `at`, with `prefix` before it, into `out`.
fn path_tree(c: &[char], at: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let skip_ws = |at: &mut usize| {
        while *at < c.len() && c[*at].is_whitespace() {
            *at += 1;
        }
    };
    let mut path = prefix;
    loop {
        skip_ws(at);
        if c.get(*at) == Some(&'{') {
            *at += 1;
            loop {
                path_tree(c, at, path.clone(), out);
                skip_ws(at);
                match c.get(*at) {
                    Some(',') => *at += 1,
                    Some('}') => {
                        *at += 1;
                        return;
                    }
                    _ => return,
                }
                skip_ws(at);
                if c.get(*at) == Some(&'}') {
                    *at += 1;
                    return;
                }
            }
        }
        let start = *at;
        while *at < c.len() && (c[*at].is_alphanumeric() || c[*at] == '_') {
            *at += 1;
        }
        if *at > start {
            path.push(c[start..*at].iter().collect());
        }
        if c.get(*at) == Some(&':') && c.get(*at + 1) == Some(&':') {
            *at += 2;
            continue;
        }
        // `self` in a group names the prefix itself; `as x` renames it.
        if path.last().is_some_and(|s| s == "self") {
            path.pop();
        }
        skip_ws(at);
        if c[*at..].starts_with(&['a', 's', ' ']) {
            *at += 3;
            skip_ws(at);
            while *at < c.len() && (c[*at].is_alphanumeric() || c[*at] == '_') {
                *at += 1;
            }
        }
        if !path.is_empty() {
            out.push(path);
        }
        return;
    }
}

fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next().expect("a component").as_os_str().to_string_lossy().into_owned();
    first.trim_end_matches(".rs").to_owned()
}

#[test]
fn every_import_follows_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 30, "found only {} files under src", files.len());
    let mut broken = Vec::new();
    for file in &files {
        let module = module_of(&src, file);
        if FRONT.contains(&module.as_str()) {
            continue;
        }
        let Some((_, allowed)) = RULES.iter().find(|(m, _)| *m == module) else {
            broken.push(format!(
                "{}: module `{module}` has no layer in RULES (add it, and to ARCHITECTURE.md)",
                file.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).expect("read source");
        if module == "ops" {
            for name in OPS_FORBIDDEN.iter().filter(|n| text.contains(**n)) {
                broken.push(format!(
                    "{}: `ops` may not use `{name}` (exit codes and output are the front end's)",
                    file.display()
                ));
            }
        }
        for dep in imports(&text) {
            if dep != module && !allowed.contains(&dep.as_str()) {
                broken.push(format!("{}: `{module}` may not import `crate::{dep}`", file.display()));
            }
        }
    }
    assert!(broken.is_empty(), "imports against ARCHITECTURE.md:\n{}", broken.join("\n"));
}

/// Below the front end, `crate::error` gives the typed `Error` (and its variants) only: exit
/// codes, wording and runtimes are the front end's or the layer's own.
#[test]
fn below_the_front_end_error_gives_only_the_typed_error() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut broken = Vec::new();
    for file in &files {
        if FRONT.contains(&module_of(&src, file).as_str()) {
            continue;
        }
        let code = code_only(&std::fs::read_to_string(file).expect("read source"));
        for path in crate_paths(&non_test(&code)) {
            if path.first().is_some_and(|m| m == "error") && path.get(1).is_some_and(|n| n != "Error") {
                broken.push(format!("{}: crate::{}", file.display(), path.join("::")));
            }
        }
    }
    assert!(broken.is_empty(), "below the front end, use only crate::error::Error:\n{}", broken.join("\n"));
}

#[test]
fn the_scanner_sees_plain_and_grouped_imports() {
    let found = imports("use crate::arm::api;\nuse crate::{recommend::Os, domain};\nlet x = crate::units::money(1);");
    let want: BTreeSet<String> = ["arm", "recommend", "domain", "units"].iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(found, want);
    assert!(RULES.iter().all(|(m, deps)| !deps.contains(m)), "a module listed as its own dependency");
    let plan = RULES.iter().find(|(m, _)| *m == "plan").map(|(_, d)| *d).unwrap_or_default();
    assert!(!plan.contains(&"arm") && !plan.contains(&"recommend"), "plan must not import arm or recommend");
    let arm = RULES.iter().find(|(m, _)| *m == "arm").map(|(_, d)| *d).unwrap_or_default();
    assert!(!arm.iter().any(|d| FRONT.contains(d)), "arm must not import the front end");
    let ops = RULES.iter().find(|(m, _)| *m == "ops").map(|(_, d)| *d).unwrap_or_default();
    assert!(!ops.iter().any(|d| ["commands", "cli", "output"].contains(d)), "ops must not import the front end");
}

/// What `commands/` may import (non-test code; a test may build what it checks from below):
/// the front end renders what `ops` returns, and goes no lower.
/// `Error` is the crate-root re-export of `error::Error`; `wizard` is the interactive half of
/// the front end (it asks what `cli` parses, and `confirm` shares its prompt handling).
const COMMANDS_MAY_IMPORT: &[&str] = &["cli", "commands", "domain", "error", "ops", "output", "wizard", "Error"];

#[test]
fn commands_import_only_cli_ops_output_error_and_domain() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("commands"), &mut files);
    assert!(files.len() > 10, "found only {} files under src/commands", files.len());
    let mut broken = Vec::new();
    for file in &files {
        let text = non_test(&code_only(&std::fs::read_to_string(file).expect("read source")));
        for dep in imports(&text) {
            if !COMMANDS_MAY_IMPORT.contains(&dep.as_str()) {
                broken.push(format!("{}: `commands` may not import `crate::{dep}` (go through `ops`)", file.display()));
            }
        }
    }
    assert!(broken.is_empty(), "commands/ below ops:\n{}", broken.join("\n"));
}

/// The module path of a file under `src/` (`commands/pool/failover.rs` → `commands::pool::failover`,
/// `ops/mod.rs` → `ops`, `lib.rs` → ``).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !["mod", "lib", "main"].contains(&stem) {
        parts.push(stem.to_owned());
    }
    parts
}

/// The code of a file without its `#[cfg(test)]` items (test modules may import what they test).
fn non_test(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(i) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        // The item ends at the `;` or the brace closing its first block.
        let (mut depth, mut end) = (0usize, after.len());
        for (j, ch) in after.char_indices() {
            match ch {
                ';' if depth == 0 => {
                    end = j + 1;
                    break;
                }
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = j + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.extend(after[..end].chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Which file each file of `src/` names (non-test code): a `crate::a::b::C` path is an edge to
/// the deepest file module it goes through, `super::x` resolves against the file's module, and
/// a child declared with `mod x;` named as `x::…` is an edge to that child. A module and its
/// own submodules are one unit (a child sees its parent's private items, and `use super::*`
/// is how Rust shares them), so edges between a file and its ancestors or descendants do not
/// count: a cycle is between files of different modules (siblings, cousins, or other layers).
fn file_edges(src: &Path) -> std::collections::BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: std::collections::BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| (module_path(src, f), f.strip_prefix(src).expect("under src").display().to_string()))
        .collect();
    let owner = |path: &[String]| -> Option<(Vec<String>, String)> {
        (0..=path.len()).rev().find_map(|n| modules.get(&path[..n]).map(|f| (path[..n].to_vec(), f.clone())))
    };
    let mut edges = std::collections::BTreeMap::new();
    for file in &files {
        let me = module_path(src, file);
        let name = file.strip_prefix(src).expect("under src").display().to_string();
        let code = non_test(&code_only(&std::fs::read_to_string(file).expect("read source")));
        let mut to = BTreeSet::new();
        let mut add = |path: Vec<String>| {
            if let Some((m, f)) = owner(&path) {
                let down = m.len() > me.len() && m.starts_with(&me);
                let up = me.len() > m.len() && me.starts_with(&m);
                if f != name && !up && !down {
                    to.insert(f);
                }
            }
        };
        for stmt in code.split(';') {
            for p in crate_paths(stmt) {
                add(p);
            }
            for (i, _) in stmt.match_indices("super::") {
                if stmt[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                let rest: Vec<char> = stmt[i + "super::".len()..].chars().collect();
                let mut found = Vec::new();
                path_tree(&rest, &mut 0, Vec::new(), &mut found);
                let parent = &me[..me.len().saturating_sub(1)];
                for p in found {
                    add(parent.iter().cloned().chain(p).collect());
                }
            }
        }
        for child in declared_children(&code) {
            let pattern = format!("{child}::");
            let named = code
                .match_indices(&pattern)
                .any(|(i, _)| !code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':'));
            if named {
                let mut path = me.clone();
                path.push(child);
                add(path);
            }
        }
        edges.insert(name, to);
    }
    edges
}

/// The names of the `mod x;` declarations of some code.
fn declared_children(code: &str) -> Vec<String> {
    code.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("pub(crate) ").or_else(|| l.strip_prefix("pub ")).unwrap_or(l);
            let name = l.strip_prefix("mod ")?.strip_suffix(';')?;
            Some(name.trim().to_owned())
        })
        .collect()
}

/// Every cycle of files (as the files of one strongly connected group), Tarjan's algorithm.
fn cycles(edges: &std::collections::BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a std::collections::BTreeMap<String, BTreeSet<String>>,
        index: std::collections::BTreeMap<&'a str, usize>,
        low: std::collections::BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        groups: Vec<Vec<String>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, v: &'a str) {
        let n = w.index.len();
        w.index.insert(v, n);
        w.low.insert(v, n);
        w.stack.push(v);
        w.on_stack.insert(v);
        for u in w.edges.get(v).into_iter().flatten() {
            let u = u.as_str();
            if !w.index.contains_key(u) {
                visit(w, u);
                let l = w.low[u].min(w.low[v]);
                w.low.insert(v, l);
            } else if w.on_stack.contains(u) {
                let l = w.index[u].min(w.low[v]);
                w.low.insert(v, l);
            }
        }
        if w.low[v] == w.index[v] {
            let mut group = Vec::new();
            while let Some(u) = w.stack.pop() {
                w.on_stack.remove(u);
                group.push(u.to_owned());
                if u == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                w.groups.push(group);
            }
        }
    }
    let mut w = Walk {
        edges,
        index: Default::default(),
        low: Default::default(),
        stack: vec![],
        on_stack: Default::default(),
        groups: vec![],
    };
    for v in edges.keys() {
        if !w.index.contains_key(v.as_str()) {
            visit(&mut w, v);
        }
    }
    w.groups
}

#[test]
fn no_two_files_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = file_edges(&src);
    assert!(edges.len() > 30, "found only {} files under src", edges.len());
    let found: Vec<String> = cycles(&edges)
        .iter()
        .map(|g| {
            let why: Vec<String> = g
                .iter()
                .map(|f| {
                    let to: Vec<&str> = edges[f].iter().filter(|t| g.contains(t)).map(String::as_str).collect();
                    format!("{f} → {}", to.join(", "))
                })
                .collect();
            format!("{} ({})", g.join(" ↔ "), why.join("; "))
        })
        .collect();
    let (known, new): (Vec<&String>, Vec<&String>) =
        found.iter().partition(|c| KNOWN_CYCLES.iter().any(|k| c.starts_with(&format!("{k} ("))));
    assert!(new.is_empty(), "import cycles between files (non-test code):\n{}", join(&new));
    let stale: Vec<&&str> =
        KNOWN_CYCLES.iter().filter(|k| !known.iter().any(|c| c.starts_with(&format!("{k} (")))).collect();
    assert!(stale.is_empty(), "these cycles are gone: remove them from KNOWN_CYCLES: {stale:?}");
}

/// Cycles that exist and are being removed: each entry must still be a cycle (the test fails
/// once it is gone, so the entry goes with it). None is left.
const KNOWN_CYCLES: &[&str] = &[];

fn join(lines: &[&String]) -> String {
    lines.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
}

#[test]
fn the_cycle_check_finds_a_cycle_and_resolves_super_and_children() {
    let edges: std::collections::BTreeMap<String, BTreeSet<String>> =
        [("a.rs", vec!["b.rs"]), ("b.rs", vec!["c.rs"]), ("c.rs", vec!["a.rs"]), ("d.rs", vec!["a.rs"])]
            .into_iter()
            .map(|(f, to)| (f.to_owned(), to.into_iter().map(str::to_owned).collect()))
            .collect();
    assert_eq!(cycles(&edges), vec![vec!["a.rs".to_owned(), "b.rs".to_owned(), "c.rs".to_owned()]]);
    let code = code_only("mod render;\n// crate::hidden\nfn f() { render::x(); let s = \"crate::nope\"; }\n");
    assert_eq!(declared_children(&code), vec!["render".to_owned()]);
    assert!(imports(&code).is_empty(), "comments and strings are not imports: {:?}", imports(&code));
    let cut = non_test("use crate::a;\n#[cfg(test)]\nmod tests {\n    use crate::b::{c};\n}\n");
    assert_eq!(imports(&cut), ["a".to_owned()].into_iter().collect());
}

/// How long a function may be, in lines from `fn` to its closing brace.
const MAX_FUNCTION_LINES: usize = 80;

/// Every function of some code (from `code_only`) as (name, first line, lines).
fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let c: Vec<char> = code.chars().collect();
    let line_at = |i: usize| c[..i].iter().filter(|ch| **ch == '\n').count() + 1;
    let mut found = Vec::new();
    let mut i = 0;
    while i + 3 < c.len() {
        let is_fn = c[i] == 'f'
            && c[i + 1] == 'n'
            && c[i + 2].is_whitespace()
            && (i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_'));
        if !is_fn {
            i += 1;
            continue;
        }
        let mut j = i + 2;
        while j < c.len() && c[j].is_whitespace() {
            j += 1;
        }
        let name: String = c[j..].iter().take_while(|ch| ch.is_alphanumeric() || **ch == '_').collect();
        if name.is_empty() {
            i += 2;
            continue;
        }
        // The body is the first `{` outside parentheses and brackets; a `;` first means none.
        let (mut depth, mut body) = (0i32, None);
        for (k, ch) in c.iter().enumerate().skip(j) {
            match ch {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                ';' if depth == 0 => break,
                '{' if depth == 0 => {
                    body = Some(k);
                    break;
                }
                _ => {}
            }
        }
        let Some(open) = body else {
            i = j;
            continue;
        };
        let mut braces = 0;
        let mut close = c.len() - 1;
        for (k, ch) in c.iter().enumerate().skip(open) {
            match ch {
                '{' => braces += 1,
                '}' => {
                    braces -= 1;
                    if braces == 0 {
                        close = k;
                        break;
                    }
                }
                _ => {}
            }
        }
        let first = line_at(i);
        found.push((name, first, line_at(close) - first + 1));
        i = j;
    }
    found
}

#[test]
fn no_function_is_longer_than_80_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut long = Vec::new();
    for file in &files {
        let code = code_only(&std::fs::read_to_string(file).expect("read source"));
        for (name, line, lines) in functions(&code) {
            if lines > MAX_FUNCTION_LINES {
                long.push(format!("{}:{line}: fn {name} is {lines} lines", file.display()));
            }
        }
    }
    let (known, new): (Vec<&String>, Vec<&String>) = long
        .iter()
        .partition(|l| KNOWN_LONG.iter().any(|(f, n)| l.contains(f) && l.contains(&format!(": fn {n} is "))));
    assert!(new.is_empty(), "functions over {MAX_FUNCTION_LINES} lines (split them):\n{}", join(&new));
    let stale: Vec<_> = KNOWN_LONG
        .iter()
        .filter(|(f, n)| !known.iter().any(|l| l.contains(f) && l.contains(&format!(": fn {n} is "))))
        .collect();
    assert!(stale.is_empty(), "these functions are short now: remove them from KNOWN_LONG: {stale:?}");
}

/// Functions over the limit that are being split (file, function): each must still be too long
/// (the test fails once it is not, so the entry goes with it). None is left.
const KNOWN_LONG: &[(&str, &str)] = &[];

#[test]
fn the_length_scan_counts_braces_in_code_only() {
    let text = "fn short() {\n    let s = \"}}}\";\n    let r = r#\"{ \"# ;\n    // }\n    let c = '{';\n}\n\
                trait T { fn decl(&self); }\nfn long<'a>(x: &'a str) -> Result<(), ()> where 'a: 'a {\n"
        .to_owned()
        + &"    x;\n".repeat(MAX_FUNCTION_LINES)
        + "}\n";
    let found = functions(&code_only(&text));
    let names: Vec<(&str, usize)> = found.iter().map(|(n, _, l)| (n.as_str(), *l)).collect();
    assert_eq!(names, vec![("short", 6), ("long", MAX_FUNCTION_LINES + 2)]);
}

/// The layers below the front end, which name a setting by its id (`domain::setting::Setting`)
/// and never by the flag text the CLI gives it: the workflows and everything under them.
const BELOW_FRONT: &[&str] = &[
    "ops",
    "plan",
    "recommend",
    "cost",
    "fleet",
    "provision",
    "arm",
    "catalog",
    "hub",
    "pricing",
    "drift",
    "cache",
    "domain",
    "units",
    "resources",
    "secret",
];

/// The string literals of a line of code (none in a comment line).
fn literals(line: &str) -> Vec<String> {
    let t = line.trim_start();
    if t.starts_with("//") {
        return Vec::new();
    }
    let (mut out, mut cur, mut inside, mut escaped) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match (inside, escaped, c) {
            (true, true, _) => {
                cur.push(c);
                escaped = false;
            }
            (true, false, '\\') => escaped = true,
            (true, false, '"') => {
                out.push(std::mem::take(&mut cur));
                inside = false;
            }
            (true, false, _) => cur.push(c),
            (false, _, '"') => inside = true,
            (false, _, _) => {}
        }
    }
    out
}

/// The `--flag`s of aksgpu a literal names (`--{` counts too: a flag built from an id), with
/// `az`, `helm` and `kubectl` command lines left out (their flags are theirs).
fn flags_named(lit: &str, own: &BTreeSet<String>) -> Vec<String> {
    if ["az ", "helm ", "kubectl "].iter().any(|tool| lit.contains(tool)) {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (i, _) in lit.match_indices("--") {
        let name: String =
            lit[i + 2..].chars().take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-').collect();
        if lit[i + 2..].starts_with('{') || own.contains(name.trim_end_matches('-')) {
            found.push(format!("--{name}"));
        }
    }
    found
}

/// Every long flag and alias of every command.
fn own_flags() -> BTreeSet<String> {
    use clap::CommandFactory;
    fn walk(cmd: &clap::Command, out: &mut BTreeSet<String>) {
        for arg in cmd.get_arguments() {
            out.extend(arg.get_long().map(str::to_owned));
            out.extend(arg.get_all_aliases().unwrap_or_default().into_iter().map(str::to_owned));
        }
        for sub in cmd.get_subcommands() {
            walk(sub, out);
        }
    }
    let mut out = BTreeSet::new();
    walk(&aksgpu::cli::Cli::command(), &mut out);
    out
}

/// Lines below the front end whose strings still name a CLI flag, per module (so a file split
/// keeps its count): the debt that is left. A count may only go down (then lower it here); a
/// higher one fails, and so does a module not listed that starts naming flags.
const FLAG_TEXT_LEFT: &[(&str, usize)] = &[
    ("cost", 0),
    ("fleet", 0),
    ("ops", 0),
    ("plan", 0),
    ("provision", 0),
    ("recommend", 0),
    ("arm", 0),
    ("domain", 0),
];

/// Per module, the non-test lines below the front end naming a flag (each with its file).
fn flag_text_below_the_front_end() -> std::collections::BTreeMap<String, Vec<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let own = own_flags();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = std::collections::BTreeMap::new();
    for file in files {
        let module = module_of(&src, &file);
        if !BELOW_FRONT.contains(&module.as_str()) {
            continue;
        }
        let rel = file.strip_prefix(&src).expect("under src").to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&file).expect("read source");
        // Test code is not the debt: a file's `#[cfg(test)]` part, and a test module's own file.
        if file.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        let hits: Vec<String> = code
            .lines()
            .enumerate()
            .filter(|(_, l)| literals(l).iter().any(|lit| !flags_named(lit, &own).is_empty()))
            .map(|(n, l)| format!("{rel}:{}: {}", n + 1, l.trim()))
            .collect();
        found.entry(module).or_insert_with(Vec::new).extend(hits);
    }
    found
}

#[test]
fn no_flag_text_below_the_front_end_beyond_what_is_left() {
    let found = flag_text_below_the_front_end();
    let mut broken = Vec::new();
    for (module, hits) in &found {
        let left = FLAG_TEXT_LEFT.iter().find(|(m, _)| m == module).map_or(0, |(_, n)| *n);
        if hits.len() > left {
            broken.push(format!(
                "{module}: {} lines name a CLI flag (at most {left}); return a typed error with a `Setting` and let the front end word it:\n  {}",
                hits.len(),
                hits.join("\n  ")
            ));
        } else if hits.len() < left {
            broken.push(format!("{module}: {} lines left, lower FLAG_TEXT_LEFT from {left}", hits.len()));
        }
    }
    for (module, left) in FLAG_TEXT_LEFT {
        assert!(BELOW_FRONT.contains(module), "{module} is not below the front end");
        if *left > 0 && !found.contains_key(*module) {
            broken.push(format!("{module}: no line names a flag any more: set its FLAG_TEXT_LEFT to 0"));
        }
    }
    assert!(broken.is_empty(), "flag text below the front end:\n{}", broken.join("\n"));
}

/// The scanner sees a flag in a string, built from an id, and not in comments or az commands.
#[test]
fn the_flag_scanner_sees_flags_in_strings_only() {
    let own: BTreeSet<String> = ["location", "vm-size"].iter().map(|s| (*s).to_owned()).collect();
    let hit = |line: &str| literals(line).iter().any(|l| !flags_named(l, &own).is_empty());
    assert!(hit(r#"    Err(usage("--location is required", None))"#));
    assert!(hit(r#"    format!("--{}", s.long())"#));
    assert!(hit(r#"    let m = format!("use \"--vm-size\" here");"#));
    assert!(!hit(r#"    /// takes "--location""#));
    assert!(!hit(r#"    "az vm list-usage --location L -o table""#));
    assert!(!hit(r#"    "--nothing-of-ours""#));
    assert!(!hit(r#"    let x = a -- b; // "--location""#) || hit(r#"    "--location""#));
}
