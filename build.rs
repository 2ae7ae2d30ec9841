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

/// `prices.yaml` only: each size's `{REGION: {linux, linux_spot, windows, windows_spot}}` map
/// becomes one string `REGION=L,LS,W,WS;…` with prices in whole micro-dollars (empty =
/// unknown), which `catalog::load_prices` reads with a byte scan. A thousand small JSON objects
/// with decimal numbers cost far more to deserialize. n / 10⁶ as f64 is the same correctly
/// rounded value as parsing the decimal, so nothing changes but the speed.
fn compact_prices(v: &mut serde_json::Value) {
    const FIELDS: [&str; 4] = ["linux", "linux_spot", "windows", "windows_spot"];
    let Some(sizes) = v.get_mut("sizes").and_then(serde_json::Value::as_object_mut) else { return };
    for (size, regions) in sizes.iter_mut() {
        let map = regions.as_object().unwrap_or_else(|| panic!("catalog/prices.yaml: {size} is not a map"));
        let mut text = String::new();
        for (region, p) in map {
            assert!(
                region.chars().all(|c| c.is_ascii_alphanumeric()),
                "catalog/prices.yaml: {size}: bad region {region:?}"
            );
            let obj = p.as_object().unwrap_or_else(|| panic!("catalog/prices.yaml: {size} in {region} is not a map"));
            for k in obj.keys() {
                assert!(FIELDS.contains(&k.as_str()), "catalog/prices.yaml: {size} in {region}: unknown field {k}");
            }
            if !text.is_empty() {
                text.push(';');
            }
            text.push_str(region);
            text.push('=');
            let cells: Vec<String> = FIELDS
                .iter()
                .map(|f| match obj.get(*f) {
                    Some(serde_json::Value::Number(n)) => {
                        let v = n.as_f64().unwrap_or(f64::NAN);
                        let micro = (v * 1e6).round();
                        assert!(
                            v > 0.0 && (v * 1e6 - micro).abs() < 1e-3 && micro < 9e15,
                            "catalog/prices.yaml: {size} in {region}: {f} = {v} is not a positive price with at most 6 decimals"
                        );
                        format!("{micro:.0}")
                    }
                    None => String::new(),
                    Some(other) => panic!("catalog/prices.yaml: {size} in {region}: {f} = {other} is not a number"),
                })
                .collect();
            text.push_str(&cells.join(","));
        }
        *regions = serde_json::Value::String(text);
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
        if rel.to_string_lossy() == "prices.yaml" {
            compact_prices(&mut value);
        }
        let json = serde_json::to_string(&value).expect("json");
        let name = rel.to_string_lossy().replace('\\', "/");
        let out = out_dir.join(name.replace('/', "__") + ".json");
        std::fs::write(&out, json).expect("write json");
        writeln!(code, "    ({name:?}, include_str!({:?})),", out.display().to_string()).expect("fmt");
    }
    code.push_str("];\n");
    std::fs::write(out_dir.join("bundled_catalog.rs"), code).expect("write rs");
}
