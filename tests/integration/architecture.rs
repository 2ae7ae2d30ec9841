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

/// The layers below the front end, which name a setting by its id (`domain::setting::Setting`)
/// and never by the flag text the CLI gives it.
const BELOW_FRONT: &[&str] = &["ops", "plan", "recommend", "cost", "fleet", "provision"];

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
const FLAG_TEXT_LEFT: &[(&str, usize)] =
    &[("cost", 4), ("fleet", 0), ("ops", 37), ("plan", 75), ("provision", 6), ("recommend", 37)];

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
