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
    ("catalog", &["domain"]),
    ("units", &["catalog", "domain"]),
    ("pricing", &["catalog", "domain", "units"]),
    ("drift", &["catalog", "domain", "units", "pricing", "resources"]),
    ("arm", &["domain", "resources", "secret"]),
    ("hub", &["arm", "catalog", "domain", "pricing", "secret", "units"]),
    ("recommend", &["catalog", "domain", "resources", "units"]),
    ("cost", &["catalog", "domain", "pricing", "recommend", "resources", "units"]),
    ("fleet", &["catalog", "cost", "domain", "pricing", "recommend", "resources", "units"]),
    ("plan", &["catalog", "domain", "pricing", "resources", "secret", "units"]),
    ("provision", &["arm", "catalog", "domain", "plan", "pricing", "resources", "secret", "units"]),
    (
        "ops",
        &[
            "arm",
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

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules a source text names through `crate::` (also inside `crate::{…}`).
fn imports(text: &str) -> BTreeSet<String> {
    let ident = |s: &str| s.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    let mut found = BTreeSet::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or("");
            found.extend(inner.split(',').map(ident).filter(|s| !s.is_empty()));
        } else {
            found.insert(ident(rest));
        }
    }
    found.remove("");
    found
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
