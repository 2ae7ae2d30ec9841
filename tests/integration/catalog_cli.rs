//! `aksgpu catalog` through the binary, and catalog overrides.

use crate::support::{aksgpu, aksgpu_env, temp_dir, Run};

#[test]
fn list_json_has_the_documented_fields() {
    let run = aksgpu(&["catalog", "list", "-o", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    let rows = v.as_array().expect("array");
    assert!(rows.len() > 30);
    for row in rows {
        for key in [
            "name",
            "family",
            "vcpus",
            "memory_gib",
            "gpu_vendor",
            "gpu_model",
            "gpu_count",
            "gpu_memory_gib",
            "gpu_memory_per_gpu_gib",
            "driver",
            "mig_capable",
            "aks_supported",
            "status",
            "retirement_date",
        ] {
            assert!(row.get(key).is_some(), "{key} missing in {row}");
        }
        assert_ne!(row["status"], "retired", "retired listed without --include-retired");
    }
    let partial = rows.iter().find(|r| r["name"] == "Standard_NV6ads_A10_v5").expect("partial A10");
    assert!((partial["gpu_count"].as_f64().expect("count") - 1.0 / 6.0).abs() < 1e-3);
    assert_eq!(partial["driver"], "grid");
    let mi300 = rows.iter().find(|r| r["name"] == "Standard_ND96isr_MI300X_v5").expect("MI300X");
    assert_eq!(mi300["driver"], "none");
    assert_eq!(mi300["gpu_vendor"], "AMD");
    let a100 = rows.iter().find(|r| r["name"] == "Standard_ND96amsr_A100_v4").expect("A100");
    assert_eq!(a100["mig_capable"], true);
    assert_eq!(a100["memory_gib"], 1900.0);
    let h100 = rows.iter().find(|r| r["name"] == "Standard_ND96isr_H100_v5").expect("H100");
    assert_eq!(h100["gpu_count"], 8.0);
}

#[test]
fn list_filters_and_formats() {
    let names = aksgpu(&["catalog", "list", "--family", "nd", "--gpu-model", "A100", "-o", "names"]);
    assert_eq!(names.code, 0);
    let lines: Vec<&str> = names.stdout.lines().collect();
    assert_eq!(lines, ["Standard_ND96asr_v4", "Standard_ND96amsr_A100_v4"]);
    let retired = aksgpu(&["catalog", "list", "--include-retired", "-o", "names"]);
    assert!(retired.stdout.lines().any(|l| l == "Standard_NC6s_v3"));
    let wide = aksgpu(&["catalog", "list", "-o", "wide"]);
    assert!(wide.stdout.contains("INTERCONNECT"));
    let yaml = aksgpu(&["catalog", "list", "--family", "NC", "-o", "yaml"]);
    let parsed: serde_json::Value = serde_yaml_ng::from_str(&yaml.stdout).expect("yaml parses");
    assert!(parsed.as_array().expect("list").iter().all(|r| r["family"] == "NC"));
    let bad = aksgpu(&["catalog", "list", "--family", "NX"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--family"));
}

#[test]
fn show_prints_facts_rules_mig_and_prices() {
    let run = aksgpu(&["catalog", "show", "ND96asr_v4"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("MIG1g") && run.stdout.contains("1g.5gb"), "{}", run.stdout);
    assert!(run.stdout.contains("gpu-multi-instance.md"));
    assert!(run.stdout.contains("eastus"));
    let json = aksgpu(&["catalog", "show", "standard_nv36ads_a10_v5", "-o", "json"]).json();
    assert_eq!(json["size"]["name"], "Standard_NV36ads_A10_v5");
    assert!(json["prices"].as_array().expect("prices").iter().all(|p| p["windows"].is_null()));
    let unknown = aksgpu(&["catalog", "show", "Standard_NC24ads_A100_v5"]);
    assert_eq!(unknown.code, 2);
    assert!(unknown.stderr.contains("did you mean Standard_NC24ads_A100_v4"), "{}", unknown.stderr);
}

#[test]
fn override_catalog_replaces_files_and_reports_bad_ones_with_line() {
    let dir = temp_dir("override");
    std::fs::write(
        dir.join("prices.yaml"),
        "currency: USD\nas_of: 2026-11-30\nsource: test\nsizes:\n  Standard_NV36ads_A10_v5:\n    eastus: {linux: 0.5}\n",
    )
    .expect("write");
    let run = aksgpu(&["--catalog", dir.to_str().expect("utf8"), "recommend", "--model", "llama-3.1-8b", "-o", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["recommendations"][0]["vm_size"], "Standard_NV36ads_A10_v5");
    assert_eq!(v["recommendations"][0]["price_per_hour"], 0.5);
    // Only one size has a list price now: the others are taken as not sold…
    assert_eq!(v["recommendations"].as_array().expect("array").len(), 1);
    assert!(v["rejected"].to_string().contains("no list price in any region"), "{}", v["rejected"]);
    // …unless --include-unpriced, which ranks them after the priced one and says so.
    let run = aksgpu(&[
        "--catalog",
        dir.to_str().expect("utf8"),
        "recommend",
        "--model",
        "llama-3.1-8b",
        "--include-unpriced",
        "-o",
        "json",
    ]);
    let v = run.json();
    assert_eq!(v["recommendations"][0]["vm_size"], "Standard_NV36ads_A10_v5");
    assert!(v["recommendations"][1]["price_per_hour"].is_null());
    assert_eq!(v["recommendations"][1]["price_basis"], "unpriced");
    assert!(v["recommendations"][1]["warnings"].to_string().contains("no list price"));

    let bad = temp_dir("override-bad");
    std::fs::write(bad.join("gpus.yaml"), "- id: T4\n  vendor: NVIDIA\n  name: T4\n  memory_gib: lots\n")
        .expect("write");
    let run = aksgpu_env(&["catalog", "list"], &[("AKSGPU_CATALOG", &bad)]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("gpus.yaml") && run.stderr.contains("line 4"), "{}", run.stderr);
    assert!(run.stderr.contains("hint:"));

    let inconsistent = temp_dir("override-inconsistent");
    std::fs::write(
        inconsistent.join("prices.yaml"),
        "currency: USD\nas_of: x\nsource: t\nsizes:\n  Standard_NC1_Nope: {eastus: {linux: 1}}\n  Standard_NV36ads_A10_v5: {westeu: {linux: 1}, eastus: {linux: -2}}\n",
    )
    .expect("write");
    let run = aksgpu(&["--catalog", inconsistent.to_str().expect("utf8"), "catalog", "list"]);
    assert_eq!(run.code, 2);
    // A price for a size the catalog lacks is allowed (ignored); a bad region or price is not.
    assert!(!run.stderr.contains("Standard_NC1_Nope"), "{}", run.stderr);
    assert!(run.stderr.contains("westeu: region not in regions.yaml"), "{}", run.stderr);
    assert!(run.stderr.contains("-2 is not a positive price"), "{}", run.stderr);
}

#[test]
fn broken_pipe_exits_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_aksgpu"))
        .args(["catalog", "list", "--include-retired", "-o", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take());
    let status = child.wait().expect("wait");
    let mut err = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut err).expect("read");
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn version_and_help_need_nothing() {
    let v = aksgpu(&["--version"]);
    assert_eq!(v.code, 0);
    assert!(v.stdout.starts_with("aksgpu "));
    let h = aksgpu(&["recommend", "--help"]);
    assert_eq!(h.code, 0);
    assert!(h.stdout.contains("--max-price-per-hour"));
    assert!(aksgpu(&["--help"]).stdout.contains("Exit codes:"));
}

/// `catalog WHAT` as a table, as JSON (parsed) and as YAML, each exiting 0.
fn three_formats(what: &str) -> (Run, serde_json::Value, Run) {
    let [t, j, y] = [&[][..], &["-o", "json"], &["-o", "yaml"]].map(|format| {
        let r = aksgpu(&[&["catalog", what][..], format].concat());
        assert_eq!(r.code, 0, "catalog {what} {format:?}: {}", r.stderr);
        r
    });
    (t, j.json(), y)
}

#[test]
fn models_gpus_and_regions_in_three_formats() {
    let (t, j, y) = three_formats("models");
    assert!(t.stdout.contains("llama-3.1-8b") && t.stdout.contains("meta-llama/Llama-3.1-8B-Instruct"), "{}", t.stdout);
    let m = j.as_array().expect("array").iter().find(|m| m["id"] == "meta-llama/Llama-3.1-8B-Instruct").expect("8b");
    assert_eq!(m["kv_heads"], 8);
    assert!(m["aliases"].to_string().contains("llama-3.1-8b"));
    assert!(y.stdout.contains("- id: meta-llama/Llama-3.1-8B-Instruct"), "{}", y.stdout);

    let (t, j, y) = three_formats("gpus");
    assert!(t.stdout.contains("H100-NVL") && t.stdout.contains("1g.10gb"), "{}", t.stdout);
    let a10 = j.as_array().expect("array").iter().find(|g| g["id"] == "A10").expect("A10");
    assert_eq!(a10["memory_gib"], 24.0);
    assert!(a10["sizes"].to_string().contains("Standard_NV36ads_A10_v5"));
    assert!(y.stdout.contains("- id: A10"), "{}", y.stdout);

    let (t, j, y) = three_formats("regions");
    assert!(t.stdout.contains("westeurope") && t.stdout.contains("austriaeast"), "{}", t.stdout);
    let regions = j.as_array().expect("array");
    assert!(regions.len() >= 59);
    let count = |name: &str| regions.iter().find(|r| r["name"] == name).expect("region")["priced_sizes"].clone();
    assert_eq!(count("austriaeast"), 0);
    assert!(count("eastus").as_u64().expect("n") > 20);
    assert!(y.stdout.contains("name: westeurope"), "{}", y.stdout);
}
