//! Turns the bundled YAML catalog into JSON at build time.
//!
//! The binary then parses compact JSON once per run (far cheaper than YAML), and a malformed
//! bundled file fails the build with its file and line instead of failing at run time.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, base: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, base, out);
        } else if path.extension().is_some_and(|x| x == "yaml") {
            out.push(path.strip_prefix(base).expect("under base").to_path_buf());
        }
    }
}

/// Drop `null` members: every optional field defaults to `None`, and less JSON parses faster.
fn strip_nulls(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(map) => {
            map.retain(|_, x| !x.is_null());
            map.values_mut().for_each(strip_nulls);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strip_nulls),
        _ => {}
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("manifest dir"));
    let catalog = root.join("catalog");
    println!("cargo:rerun-if-changed=catalog");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("out dir"));
    let mut files = Vec::new();
    collect(&catalog, &catalog, &mut files);
    let mut code = String::from(
        "/// Bundled catalog files: (path relative to catalog/, JSON text).\npub static FILES: &[(&str, &str)] = &[\n",
    );
    for rel in &files {
        let path = catalog.join(rel);
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        let mut value: serde_json::Value =
            serde_yaml_ng::from_str(&text).unwrap_or_else(|e| panic!("catalog/{}: {e}", rel.display()));
        strip_nulls(&mut value);
        let json = serde_json::to_string(&value).expect("json");
        let name = rel.to_string_lossy().replace('\\', "/");
        let out = out_dir.join(name.replace('/', "__") + ".json");
        std::fs::write(&out, json).expect("write json");
        writeln!(code, "    ({name:?}, include_str!({:?})),", out.display().to_string()).expect("fmt");
    }
    code.push_str("];\n");
    std::fs::write(out_dir.join("bundled_catalog.rs"), code).expect("write rs");
}
