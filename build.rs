//! Turns the bundled YAML catalog into compact forms at build time, so that start-up does no
//! YAML parsing and as little text parsing as it can:
//!
//! - sizes, GPU models, LLMs and regions are read into the catalog's own types
//!   (`src/catalog/model.rs`, compiled here too) and stored with postcard, a compact binary serde
//!   format that decodes without scanning text or matching field names;
//! - rules (an internally tagged enum, which needs a self-describing format) stay JSON;
//! - prices become a small binary table (`compact_prices`).
//!
//! A malformed bundled file fails the build with its file and line instead of failing at run time.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[allow(dead_code)]
#[path = "src/catalog/model.rs"]
mod model;

/// Read a bundled YAML file into the catalog type the binary decodes it as, and encode it.
fn typed<T: serde::de::DeserializeOwned + serde::Serialize>(rel: &str, text: &str) -> Vec<u8> {
    let value: T = serde_yaml_ng::from_str(text).unwrap_or_else(|e| panic!("catalog/{rel}: {e}"));
    postcard::to_allocvec(&value).unwrap_or_else(|e| panic!("catalog/{rel}: encoding: {e}"))
}

/// The postcard form of a bundled file, for the files the binary reads with postcard.
fn binary(rel: &str, text: &str) -> Option<Vec<u8>> {
    Some(match rel {
        _ if rel.starts_with("sizes/") => typed::<Vec<model::SeriesFile>>(rel, text),
        "gpus.yaml" => typed::<Vec<model::GpuModel>>(rel, text),
        "models.yaml" => typed::<Vec<model::LlmModel>>(rel, text),
        "regions.yaml" => typed::<model::RegionList>(rel, text),
        "serving-factors.yaml" => typed::<model::ServingFactors>(rel, text),
        _ => return None,
    })
}

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

/// `prices.yaml` only: the `sizes` map (size → region → {linux, linux_spot, windows,
/// windows_spot}) leaves the JSON and becomes a small binary table, which
/// `catalog::load_prices` decodes without parsing text or looking names up:
///
/// ```text
/// JSON:   "regions": [every region named, sorted]      (the rest of the file is unchanged)
/// binary: per size: u8 name length, name (UTF-8), u8 region count,
///         per region: u8 index into "regions", 4 × u32 little-endian micro-dollars
///         (linux, linux_spot, windows, windows_spot; u32::MAX = unknown)
/// ```
///
/// n / 10⁶ as f64 is the same correctly rounded value as parsing the decimal, so nothing
/// changes but the speed. Every price is checked here: positive, at most 6 decimals, under $4,294.
fn compact_prices(v: &mut serde_json::Value) -> Vec<u8> {
    const FIELDS: [&str; 4] = ["linux", "linux_spot", "windows", "windows_spot"];
    let obj = v.as_object_mut().expect("catalog/prices.yaml: not a map");
    let Some(serde_json::Value::Object(sizes)) = obj.remove("sizes") else {
        panic!("catalog/prices.yaml: no sizes map")
    };
    let mut regions: Vec<String> =
        sizes.values().filter_map(serde_json::Value::as_object).flat_map(|m| m.keys().cloned()).collect();
    regions.sort();
    regions.dedup();
    assert!(regions.len() <= usize::from(u8::MAX), "catalog/prices.yaml: more than 255 regions");
    let mut bin = Vec::new();
    for (size, per_region) in &sizes {
        let map = per_region.as_object().unwrap_or_else(|| panic!("catalog/prices.yaml: {size} is not a map"));
        let name_len =
            u8::try_from(size.len()).unwrap_or_else(|_| panic!("catalog/prices.yaml: {size}: name too long"));
        let count = u8::try_from(map.len()).unwrap_or_else(|_| panic!("catalog/prices.yaml: {size}: too many regions"));
        bin.push(name_len);
        bin.extend_from_slice(size.as_bytes());
        bin.push(count);
        for (region, p) in map {
            assert!(
                region.chars().all(|c| c.is_ascii_alphanumeric()),
                "catalog/prices.yaml: {size}: bad region {region:?}"
            );
            let idx = regions.binary_search(region).expect("collected above");
            bin.push(u8::try_from(idx).expect("checked above"));
            let cells = p.as_object().unwrap_or_else(|| panic!("catalog/prices.yaml: {size} in {region} is not a map"));
            for k in cells.keys() {
                assert!(FIELDS.contains(&k.as_str()), "catalog/prices.yaml: {size} in {region}: unknown field {k}");
            }
            for f in FIELDS {
                let micro = match cells.get(f) {
                    Some(serde_json::Value::Number(n)) => {
                        let v = n.as_f64().unwrap_or(f64::NAN);
                        let micro = (v * 1e6).round();
                        assert!(
                            v > 0.0 && (v * 1e6 - micro).abs() < 1e-3 && micro < f64::from(u32::MAX),
                            "catalog/prices.yaml: {size} in {region}: {f} = {v} is not a positive price under $4,294 with at most 6 decimals"
                        );
                        micro as u32
                    }
                    None => u32::MAX,
                    Some(other) => panic!("catalog/prices.yaml: {size} in {region}: {f} = {other} is not a number"),
                };
                bin.extend_from_slice(&micro.to_le_bytes());
            }
        }
    }
    obj.insert("regions".to_owned(), regions.into());
    bin
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("manifest dir"));
    let catalog = root.join("catalog");
    println!("cargo:rerun-if-changed=catalog");
    println!("cargo:rerun-if-changed=src/catalog/model.rs");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("out dir"));
    let mut files = Vec::new();
    collect(&catalog, &catalog, &mut files);
    let mut prices_bin = String::new();
    let mut code = String::from(
        "/// Bundled catalog files read as JSON: (path relative to catalog/, JSON text).\npub static JSON: &[(&str, &str)] = &[\n",
    );
    let mut bin_code = String::from(
        "/// Bundled catalog files read with postcard: (path relative to catalog/, bytes).\npub static BINARY: &[(&str, &[u8])] = &[\n",
    );
    for rel in &files {
        let path = catalog.join(rel);
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        let name = rel.to_string_lossy().replace('\\', "/");
        let stem = name.replace('/', "__");
        if let Some(bytes) = binary(&name, &text) {
            let out = out_dir.join(stem + ".bin");
            std::fs::write(&out, bytes).expect("write bin");
            writeln!(bin_code, "    ({name:?}, include_bytes!({:?})),", out.display().to_string()).expect("fmt");
            continue;
        }
        let mut value: serde_json::Value =
            serde_yaml_ng::from_str(&text).unwrap_or_else(|e| panic!("catalog/{}: {e}", rel.display()));
        strip_nulls(&mut value);
        if name == "prices.yaml" {
            let bin = compact_prices(&mut value);
            let out = out_dir.join("prices.bin");
            std::fs::write(&out, bin).expect("write prices.bin");
            writeln!(prices_bin, "pub static PRICES_BIN: &[u8] = include_bytes!({:?});", out.display().to_string())
                .expect("fmt");
        }
        let json = serde_json::to_string(&value).expect("json");
        let out = out_dir.join(stem + ".json");
        std::fs::write(&out, json).expect("write json");
        writeln!(code, "    ({name:?}, include_str!({:?})),", out.display().to_string()).expect("fmt");
    }
    code.push_str("];\n");
    bin_code.push_str("];\n");
    code.push_str(&bin_code);
    assert!(!prices_bin.is_empty(), "catalog/prices.yaml is missing");
    code.push_str("/// `prices.yaml`'s sizes, packed by build.rs (`compact_prices`).\n");
    code.push_str(&prices_bin);
    std::fs::write(out_dir.join("bundled_catalog.rs"), code).expect("write rs");
}
