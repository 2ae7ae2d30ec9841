//! `aksgpu recommend` through the binary: exit codes, JSON contract, refusals.

use crate::support::{aksgpu, bundled_linux_price, size_entry};

fn names(v: &serde_json::Value) -> Vec<String> {
    v["recommendations"]
        .as_array()
        .expect("array")
        .iter()
        .map(|r| r["vm_size"].as_str().expect("name").to_owned())
        .collect()
}

#[test]
fn readme_example_recommends_an_a10_first_for_llama_8b() {
    let run = aksgpu(&["recommend", "--workload", "inference", "--model", "llama-3.1-8b", "-o", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    let first = &v["recommendations"][0];
    // KAITO's estimator on the 14.96 GiB checkpoint: 14.96 × 1.02 × 1.05 + 0.5 GiB KV (4096
    // tokens) + 1.5 GiB A10 overhead = 18.02 GiB; one A10 offers 0.82 × 24 = 19.68 GiB and the
    // cheapest one is the NCads_A10_v4 size with a whole A10.
    assert_eq!(first["vm_size"], "Standard_NC16ads_A10_v4");
    assert_eq!(first["gpu_model"], "A10");
    assert_eq!(first["gpu_count"], 1.0);
    assert_eq!(first["gpu_memory_gib"], 24.0);
    assert!(first["price_per_hour"].as_f64().expect("price") > 0.0);
    let monthly = first["monthly_cost"].as_f64().expect("monthly");
    let hourly = first["price_per_hour"].as_f64().expect("hourly");
    assert!((monthly - hourly * 730.0).abs() < 0.05, "{monthly} vs {hourly}");
    let fit = &first["fit"];
    assert!((fit["required_per_gpu_gib"].as_f64().expect("req") - 18.02).abs() < 0.01, "{fit}");
    assert!((fit["available_per_gpu_gib"].as_f64().expect("avail") - 19.68).abs() < 0.01);
    assert_eq!(fit["estimate"]["constants"]["usable_fraction"], 0.92);
    assert_eq!(fit["estimate"]["constants"]["weight_factor"], 1.02);
    assert_eq!(fit["estimate"]["constants"]["overhead_weight_factor"], 0.05);
    assert_eq!(fit["estimate"]["constants"]["overhead_per_gpu_gib"], 2.3);
    assert_eq!(fit["estimate"]["layout"]["usable_fraction"], 0.82);
    assert_eq!(fit["estimate"]["layout"]["overhead_per_gpu_gib"], 1.5);
    assert!(first["reasons"]
        .as_array()
        .expect("reasons")
        .iter()
        .any(|r| r.as_str().unwrap_or("").starts_with("fits:")));
    assert!(first["warnings"].is_array());
    // A single T4 cannot hold it: it is rejected with the memory numbers.
    let t4 = size_entry(&v, "rejected", "Standard_NC4as_T4_v3");
    assert!(t4["reason"].as_str().expect("reason").contains("GiB"), "{t4}");
    assert_eq!(v["requirements"]["workload"], "inference");
    assert_eq!(v["requirements"]["model"]["id"], "meta-llama/Llama-3.1-8B-Instruct");
}

#[test]
fn results_are_ranked_by_price_and_top_limits_them() {
    let v = aksgpu(&["recommend", "--model", "mistral-7b", "--top", "4", "-o", "json"]).json();
    let prices: Vec<f64> =
        v["recommendations"].as_array().expect("array").iter().filter_map(|r| r["price_per_hour"].as_f64()).collect();
    assert_eq!(v["recommendations"].as_array().expect("array").len(), 4);
    assert!(prices.windows(2).all(|w| w[0] <= w[1]), "{prices:?}");
}

#[test]
fn retired_and_unsupported_sizes_are_excluded_unless_asked() {
    let v = aksgpu(&["recommend", "--gpu-model", "V100", "--top", "50", "-o", "json"]);
    // Only NDv2 (V100 32GB) is current; NCv3 is retired.
    let v = v.json();
    assert!(!names(&v).iter().any(|n| n.ends_with("s_v3")), "{:?}", names(&v));
    let retired = size_entry(&v, "rejected", "Standard_NC6s_v3");
    assert!(retired["reason"].as_str().expect("reason").contains("retired"));
    let with = aksgpu(&["recommend", "--gpu-model", "V100", "--top", "50", "--include-retired", "-o", "json"]).json();
    assert!(names(&with).iter().any(|n| n == "Standard_NC6s_v3"), "{:?}", names(&with));
    let nvv4 = aksgpu(&["recommend", "--workload", "vdi", "--os", "linux", "--top", "50", "-o", "json"]).json();
    assert!(!names(&nvv4).iter().any(|n| n.contains("as_v4")));
}

#[test]
fn windows_below_1_29_is_refused_naming_the_version_and_feature() {
    let windows = |k8s_version: &str, extra: &[&str]| {
        let mut args =
            vec!["recommend", "--workload", "inference", "--gpu-memory-min", "16", "--os", "windows", "--k8s-version"];
        args.push(k8s_version);
        args.extend_from_slice(extra);
        aksgpu(&args)
    };
    let run = windows("1.28", &[]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("1.29"), "{}", run.stderr);
    assert!(run.stderr.contains("WindowsGPUPreview"), "{}", run.stderr);
    let ok = windows("1.30", &["-o", "json"]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    assert!(names(&ok.json()).iter().all(|n| !n.contains("MI300X")));
}

#[test]
fn nothing_fits_exits_1_naming_the_constraint_and_alternatives() {
    let run = aksgpu(&["recommend", "--model", "llama-3.1-70b", "--max-price-per-hour", "1"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("--max-price-per-hour"), "{}", run.stderr);
    assert!(run.stderr.contains("closest: Standard_"), "{}", run.stderr);
    let json = aksgpu(&["recommend", "--model", "llama-3.1-70b", "--max-price-per-hour", "1", "-o", "json"]);
    assert_eq!(json.code, 1);
    assert_eq!(json.json()["recommendations"].as_array().expect("array").len(), 0);
}

/// `--max-price-per-month` sits next to `--max-price-per-hour`: the same limit over 730 h.
#[test]
fn a_monthly_price_limit_is_the_hourly_one_over_730_hours() {
    let month = aksgpu(&["recommend", "--model", "llama-3.1-70b", "--max-price-per-month", "730", "-o", "json"]);
    let hour = aksgpu(&["recommend", "--model", "llama-3.1-70b", "--max-price-per-hour", "1", "-o", "json"]);
    assert_eq!((month.code, hour.code), (1, 1), "{}", month.stderr);
    assert_eq!(month.json()["recommendations"], hour.json()["recommendations"]);
    assert!(month.stderr.contains("the --max-price-per-month limit"), "{}", month.stderr);
    assert!(month.stderr.contains("/month is over --max-price-per-month 730"), "{}", month.stderr);
    // A roomy monthly budget keeps the sizes it allows, each within it.
    let ok = aksgpu(&[
        "recommend",
        "--model",
        "llama-3.1-8b",
        "--region",
        "eastus",
        "--max-price-per-month",
        "3000",
        "-o",
        "json",
    ]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let recs = ok.json()["recommendations"].as_array().cloned().expect("array");
    assert!(
        !recs.is_empty() && recs.iter().all(|r| r["monthly_cost"].as_f64().is_some_and(|m| m <= 3000.0)),
        "{recs:?}"
    );
}

#[test]
fn bad_input_exits_2_naming_the_flag() {
    for (args, flag) in [
        (vec!["recommend", "--workload", "mining"], "--workload"),
        (vec!["recommend", "--gpu-memory", "lots"], "--gpu-memory"),
        (vec!["recommend", "--gpus", "-2"], "--gpus"),
        (vec!["recommend", "--model-params", "seven"], "--model-params"),
        (vec!["recommend", "--concurrency", "0", "--model", "phi-4"], "--concurrency"),
        (vec!["recommend", "--model", "llama-9"], "--model"),
        (vec!["recommend", "--gpu-model", "Z9000"], "--gpu-model"),
        (vec!["recommend", "--gpu-memory-min", "80", "--gpu-memory-max", "16"], "--gpu-memory-min"),
        (vec!["recommend", "--model", "phi-4", "--k8s-version", "one"], "--kubernetes-version"),
        (vec!["recommend", "--model", "phi-4", "--region", "East US!"], "--location"),
        (vec!["recommend", "--model", "phi-4", "-l", "westeurope,nowhere"], "--location \"nowhere\""),
        (vec!["recommend", "--workload", "training", "--model", "phi-4", "--precision", "int4"], "--precision"),
    ] {
        let run = aksgpu(&args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(flag), "{args:?} should name {flag}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
}

#[test]
fn unknown_model_suggests_the_nearest_alias() {
    let run = aksgpu(&["recommend", "--model", "llama-3.1-8"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("did you mean") && run.stderr.contains("llama-3.1-8b"), "{}", run.stderr);
}

#[test]
fn no_flags_without_a_terminal_never_prompts() {
    let run = aksgpu(&["recommend"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--workload"), "{}", run.stderr);
}

#[test]
fn decimal_gb_is_read_and_explained() {
    // GB as GPU vendors and Azure's size tables write it: an A100 sold as 80 GB meets 80GB.
    let run = aksgpu(&["recommend", "--workload", "inference", "--gpu-memory-min", "80GB"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("80 GB = 80 GiB"), "{}", run.stderr);
    let json = aksgpu(&["recommend", "--workload", "inference", "--gpu-memory-min", "80GB", "-o", "json"]);
    assert!(names(&json.json()).iter().any(|n| n.contains("A100")), "{}", json.stdout);
    // Equivalent spellings give identical JSON.
    let a = aksgpu(&["recommend", "--workload", "inference", "--gpu-memory-min", "48GiB", "-o", "json"]).stdout;
    let b = aksgpu(&["recommend", "--workload", "inference", "--gpu-memory-min", "48g", "-o", "json"]).stdout;
    let c = aksgpu(&["recommend", "--workload", "inference", "--gpu-memory-min", "49152MiB", "-o", "json"]).stdout;
    assert_eq!(a, b);
    assert_eq!(a, c);
}

#[test]
fn workload_kinds_apply_their_defaults() {
    let video = aksgpu(&["recommend", "--workload", "video", "--top", "50", "-o", "json"]).json();
    for r in video["recommendations"].as_array().expect("array") {
        assert!(
            r["reasons"].as_array().expect("reasons").iter().any(|x| x.as_str().unwrap_or("").contains("NVENC")),
            "{r}"
        );
    }
    let vdi = aksgpu(&["recommend", "--workload", "vdi", "--os", "linux", "--top", "50", "-o", "json"]).json();
    assert!(vdi["recommendations"].as_array().expect("array").iter().all(|r| r["driver"] == "grid"));
    let hpc = aksgpu(&["recommend", "--workload", "hpc", "--top", "50", "-o", "json"]).json();
    let hpc_names = names(&hpc);
    assert!(!hpc_names.is_empty());
    assert!(hpc_names.iter().all(|n| n.starts_with("Standard_ND")), "{hpc_names:?}");
    // Among retired sizes only the RDMA ("r") ones have InfiniBand.
    let old = aksgpu(&["recommend", "--workload", "hpc", "--include-retired", "--top", "50", "-o", "json"]).json();
    let old_names = names(&old);
    assert!(old_names.contains(&"Standard_NC24r".to_owned()), "{old_names:?}");
    assert!(
        !old_names.iter().any(|n| n == "Standard_NC24" || n == "Standard_NC6s_v3" || n == "Standard_ND24s"),
        "{old_names:?}"
    );
    let ds = aksgpu(&["recommend", "--workload", "data-science", "--top", "50", "-o", "json"]).json();
    assert!(
        names(&ds).iter().all(|n| !n.contains("ads_A10_v5") || n.contains("36") || n.contains("72")),
        "{:?}",
        names(&ds)
    );
}

#[test]
fn mig_picks_a_slice_and_prices_per_instance() {
    let v = aksgpu(&["recommend", "--workload", "inference", "--model", "phi-3.5-mini", "--mig", "-o", "json"]).json();
    let first = &v["recommendations"][0];
    let mig = &first["fit"]["mig"];
    assert!(mig["profile"].as_str().expect("profile").starts_with("MIG"), "{first}");
    assert!(
        first["price_per_instance_hour"].as_f64().expect("per instance")
            < first["price_per_hour"].as_f64().expect("per hour")
    );
    for r in v["recommendations"].as_array().expect("array") {
        let g = r["gpu_model"].as_str().expect("gpu");
        assert!(g.starts_with("A100") || g.starts_with("H100") || g.starts_with("H200"), "{g}");
    }
}

#[test]
fn training_across_nodes_requires_infiniband() {
    let v = aksgpu(&["recommend", "--workload", "training", "--model", "llama-3.1-70b", "--top", "20", "-o", "json"])
        .json();
    let recs = v["recommendations"].as_array().expect("array");
    let multi: Vec<&serde_json::Value> =
        recs.iter().filter(|r| r["fit"]["nodes"].as_u64().expect("nodes") > 1).collect();
    // 70B training needs about 1.1 TiB sharded: more than any one node, so the check below runs.
    assert!(!multi.is_empty(), "no multi-node fit to check: {recs:?}");
    for r in multi {
        assert!(r["vm_size"].as_str().expect("name").starts_with("Standard_ND"), "{r}");
    }
}

#[test]
fn spot_uses_spot_prices_and_warns() {
    let on = aksgpu(&["recommend", "--model", "llama-3.1-8b", "--region", "eastus", "-o", "json"]).json();
    let spot = aksgpu(&["recommend", "--model", "llama-3.1-8b", "--region", "eastus", "--spot", "-o", "json"]).json();
    let a10 = |v: &serde_json::Value| size_entry(v, "recommendations", "Standard_NV36ads_A10_v5");
    assert!(
        a10(&spot)["price_per_hour"].as_f64().expect("spot") < a10(&on)["price_per_hour"].as_f64().expect("on-demand")
    );
    assert!(a10(&spot)["warnings"].to_string().contains("evict"));
    assert_eq!(a10(&spot)["price_region"], "eastus");
}

#[test]
fn table_output_shows_costs_reasons_and_warnings() {
    let run = aksgpu(&["recommend", "--workload", "inference", "--model", "llama-3.1-8b"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("VM SIZE") && run.stdout.contains("$/MONTH"), "{}", run.stdout);
    assert!(run.stdout.contains("1  Standard_NC16ads_A10_v4"), "{}", run.stdout);
    assert!(run.stdout.contains("+ fits:"));
}

#[test]
fn sizes_without_an_aks_driver_say_how_to_get_one() {
    let v = aksgpu(&["recommend", "--model", "gpt-oss-120b", "--gpu-model", "H100-NVL", "--top", "10", "-o", "json"])
        .json();
    let ncc = size_entry(&v, "recommendations", "Standard_NCC40ads_H100_v5");
    assert!(ncc["warnings"].to_string().contains("--gpu-driver none"), "{ncc}");
    let nc = size_entry(&v, "recommendations", "Standard_NC40ads_H100_v5");
    assert!(!nc["warnings"].to_string().contains("--gpu-driver none"), "{nc}");
}

/// Sizes AKS supports only without its GPU driver (confidential NCC H100) are left out by default,
/// with the reason and both ways to get them; `--gpu-driver none` or naming the GPU brings them back.
#[test]
fn driver_none_sizes_need_gpu_driver_none_or_a_named_gpu() {
    let ncc = "Standard_NCC40ads_H100_v5";
    let base = ["recommend", "--model", "gpt-oss-120b", "--top", "50", "-o", "json"];
    let v = aksgpu(&base).json();
    assert!(!names(&v).iter().any(|n| n == ncc), "{:?}", names(&v));
    assert!(names(&v).iter().any(|n| n == "Standard_NC40ads_H100_v5"), "same GPU with the AKS driver stays");
    let why = size_entry(&v, "rejected", ncc);
    assert_eq!(why["constraint"], "--gpu-driver");
    let reason = why["reason"].as_str().expect("reason");
    assert!(reason.contains("--gpu-driver none") && reason.contains("--gpu-model"), "{reason}");
    for extra in [&["--gpu-driver", "none"][..], &["--gpu-driver", "NONE"], &["--gpu-model", "H100-NVL"]] {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        let v = aksgpu(&args).json();
        assert!(names(&v).iter().any(|n| n == ncc), "{extra:?}: {:?}", names(&v));
    }
    let mut args = base.to_vec();
    args.extend(["--gpu-driver", "install"]);
    assert!(!names(&aksgpu(&args).json()).iter().any(|n| n == ncc));
    let bad = aksgpu(&["recommend", "--model", "gpt-oss-120b", "--gpu-driver", "grid"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("--gpu-driver"), "{}", bad.stderr);
}

fn rank_prices(v: &serde_json::Value) -> Vec<f64> {
    v["recommendations"]
        .as_array()
        .expect("array")
        .iter()
        .map(|r| {
            // A tight fit ranks as if it cost 25 % more (after comfortable fits of similar price).
            let tight = r["warnings"]
                .as_array()
                .is_some_and(|w| w.iter().any(|x| x.as_str().is_some_and(|x| x.starts_with("tight fit"))));
            r["rank_price_per_hour"].as_f64().expect("every result has a ranking price")
                * if tight { 1.25 } else { 1.0 }
        })
        .collect()
}

#[test]
fn unknown_region_exits_2_with_a_did_you_mean() {
    let run = aksgpu(&["recommend", "--model", "llama-3.1-8b", "--region", "westeu"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--location \"westeu\" is not an Azure region"), "{}", run.stderr);
    assert!(run.stderr.contains("did you mean westeurope"), "{}", run.stderr);
    // The display name is read as the ARM name.
    let v = aksgpu(&["recommend", "--model", "llama-3.1-8b", "--region", "West Europe", "-o", "json"]).json();
    assert_eq!(v["requirements"]["region"], "westeurope");
    // Same check wherever a region is taken offline.
    let cost = aksgpu(&["cost", "--vm-size", "Standard_NC24ads_A100_v4", "--region", "uksouht"]);
    assert_eq!(cost.code, 2);
    assert!(cost.stderr.contains("did you mean uksouth"), "{}", cost.stderr);
    let kaito = aksgpu(&["kaito", "workspace", "--model", "llama-3.1-8b", "--region", "eastus9"]);
    assert_eq!(kaito.code, 2, "{}", kaito.stderr);
    assert!(kaito.stderr.contains("not an Azure region"), "{}", kaito.stderr);
}

#[test]
fn with_a_region_unpriced_sizes_are_not_sold_there_unless_include_unpriced() {
    // West Europe: list prices from the 2026-06-18 table, so every result is priced there.
    let v =
        aksgpu(&["recommend", "--model", "llama-3.1-8b", "--region", "westeurope", "--top", "50", "-o", "json"]).json();
    let recs = v["recommendations"].as_array().expect("array");
    assert!(!recs.is_empty());
    assert!(recs.iter().all(|r| r["price_region"] == "westeurope" && r["price_per_hour"].as_f64().is_some()));
    let first = &v["recommendations"][0];
    let size = first["vm_size"].as_str().expect("size");
    assert_eq!(first["price_per_hour"], bundled_linux_price(size, "westeurope"), "{size} in westeurope");
    let p = rank_prices(&v);
    assert!(p.windows(2).all(|w| w[0] <= w[1]), "{p:?}");
    let rejected = v["rejected"].as_array().expect("rejected");
    assert!(
        rejected.iter().any(|r| r["constraint"] == "--region"
            && r["reason"].as_str().unwrap_or("").contains("no list price in westeurope")),
        "{rejected:?}"
    );

    // A real region with no GPU list price: nothing is sold there.
    let none = aksgpu(&["recommend", "--model", "llama-3.1-8b", "--region", "austriaeast"]);
    assert_eq!(none.code, 1, "{}", none.stderr);
    assert!(none.stderr.contains("the --location limit removed the last"), "{}", none.stderr);
    let v = aksgpu(&[
        "recommend",
        "--model",
        "llama-3.1-8b",
        "--region",
        "austriaeast",
        "--include-unpriced",
        "-o",
        "json",
    ])
    .json();
    let recs = v["recommendations"].as_array().expect("array");
    assert!(!recs.is_empty());
    assert!(recs.iter().all(|r| r["price_per_hour"].is_null() && r["price_basis"] == "unpriced"));
}

#[test]
fn without_a_region_each_size_is_priced_in_its_cheapest_region() {
    let v = aksgpu(&["recommend", "--model", "llama-3.1-70b", "--top", "10", "-o", "json"]).json();
    let recs = v["recommendations"].as_array().expect("array");
    assert!(recs.len() >= 3);
    assert!(recs.iter().all(|r| r["price_region"].is_string() && r["price_per_hour"].as_f64().is_some()));
    let p = rank_prices(&v);
    assert!(p.windows(2).all(|w| w[0] <= w[1]), "never alphabetical: {p:?}");
    let table = aksgpu(&["recommend", "--model", "llama-3.1-8b", "--top", "3"]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    let header = table.stdout.lines().find(|l| l.contains("VM SIZE")).expect("header");
    assert!(header.contains("REGION"), "{header}");
    // With --region the column goes away (the region is in the workload line).
    let table = aksgpu(&["recommend", "--model", "llama-3.1-8b", "--top", "3", "--region", "eastus"]);
    let header = table.stdout.lines().find(|l| l.contains("VM SIZE")).expect("header");
    assert!(!header.contains("REGION"), "{header}");
}

#[test]
fn windows_ranks_by_the_linux_price_and_never_invents_a_windows_price() {
    let v = aksgpu(&["recommend", "--workload", "vdi", "--top", "5", "-o", "json"]).json();
    let recs = v["recommendations"].as_array().expect("array");
    assert!(!recs.is_empty());
    for r in recs {
        assert!(r["price_per_hour"].is_null(), "{r}");
        assert!(r["monthly_cost"].is_null(), "{r}");
        assert_eq!(r["price_basis"], "linux on-demand (windows unknown)");
        assert_eq!(r["price_kind"], "windows on-demand");
    }
    let p = rank_prices(&v);
    assert!(p.windows(2).all(|w| w[0] <= w[1]), "{p:?}");
    let table = aksgpu(&["recommend", "--workload", "vdi", "--top", "3"]);
    assert!(table.stdout.contains("RANKED BY"), "{}", table.stdout);
    assert!(table.stdout.contains("linux on-demand $"), "{}", table.stdout);
    assert!(table.stdout.contains("unknown"), "{}", table.stdout);
}

/// GPU memory end to end: "at least" by default, read in the units Azure sells it in.
#[test]
fn gpu_memory_is_at_least_and_read_as_sold() {
    let v =
        aksgpu(&["recommend", "--workload", "inference", "--gpu-memory", "80GB", "--top", "50", "-o", "json"]).json();
    let got = names(&v);
    assert!(got.contains(&"Standard_NC24ads_A100_v4".to_owned()), "{got:?}");
    // "At least": the 94 GB H100 NVL and larger GPUs are in too.
    assert!(got.iter().any(|n| n.contains("H100")), "{got:?}");
    let nvl =
        aksgpu(&["recommend", "--workload", "inference", "--gpu-memory", "94GB", "--top", "50", "-o", "json"]).json();
    assert!(names(&nvl).contains(&"Standard_NC40ads_H100_v5".to_owned()), "{:?}", names(&nvl));
    // -max bounds it from above.
    let band = aksgpu(&[
        "recommend",
        "--workload",
        "inference",
        "--gpu-memory",
        "80GB",
        "--gpu-memory-max",
        "80GB",
        "--top",
        "50",
        "-o",
        "json",
    ])
    .json();
    for r in band["recommendations"].as_array().expect("array") {
        assert_eq!(r["fit"]["gpu_memory_per_gpu_gib"], 80.0, "{r}");
    }
    let both = aksgpu(&["recommend", "--workload", "inference", "--gpu-memory", "80GB", "--gpu-memory-min", "40"]);
    assert_eq!(both.code, 2, "{}", both.stderr);
}

#[test]
fn gpt_oss_20b_never_lands_on_a_t4() {
    let v = aksgpu(&["recommend", "--model", "gpt-oss-20b", "--top", "100", "-o", "json"]).json();
    assert_eq!(v["requirements"]["precision"], "mxfp4");
    for r in v["recommendations"].as_array().expect("array") {
        assert!(!["T4", "V100-16GB", "V100-32GB"].contains(&r["gpu_model"].as_str().unwrap_or("")), "{r}");
    }
    let t4 = size_entry(&v, "rejected", "Standard_NC4as_T4_v3");
    assert!(t4["reason"].as_str().unwrap_or("").contains("compute capability ≥ 8.0"), "{t4}");
    // Sized from the 12.8 GiB checkpoint (model card), not 21B × anything.
    let w = &v["recommendations"][0]["fit"]["estimate"]["breakdown"][0];
    assert!((w["gib"].as_f64().expect("gib") - 12.8 * 1.02).abs() < 0.01, "{w}");
    // Named explicitly, the T4 is refused with the reason.
    let run = aksgpu(&["recommend", "--model", "gpt-oss-20b", "--gpu-model", "T4"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("MXFP4") && run.stderr.contains("7.5"), "{}", run.stderr);
}

#[test]
fn kaito_workspace_puts_gpt_oss_120b_on_one_80_gb_gpu() {
    let run = aksgpu(&["kaito", "workspace", "--model", "gpt-oss-120b"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("instanceType: Standard_NC24ads_A100_v4"), "{}", run.stdout);
    assert!(run.stdout.contains("count: 1"), "{}", run.stdout);
    assert!(run.stderr.contains("mxfp4") && run.stderr.contains("60.8 GiB"), "{}", run.stderr);
    // The same resolution as `recommend`: the same first size.
    let v = aksgpu(&["recommend", "--model", "gpt-oss-120b", "--gpu-model", "A100", "-o", "json"]).json();
    assert_eq!(v["recommendations"][0]["vm_size"], "Standard_NC24ads_A100_v4");
    assert_eq!(v["recommendations"][0]["fit"]["gpus_used_per_node"], 1.0);
}

#[test]
fn seventy_b_full_training_takes_a_handful_of_nd_nodes() {
    let v = aksgpu(&["recommend", "--workload", "training", "--model", "llama-3.1-70b", "-o", "json"]).json();
    let first = &v["recommendations"][0];
    assert!(first["vm_size"].as_str().expect("name").starts_with("Standard_ND"), "{first}");
    let nodes = first["fit"]["nodes"].as_u64().expect("nodes");
    assert!((2..=4).contains(&nodes), "{nodes} nodes: {first}");
    let setup = first["fit"]["estimate"]["setup"].as_str().expect("setup");
    assert!(setup.contains("ZeRO-3") && setup.contains("recomputation"), "{setup}");
}

#[test]
fn qlora_65b_fits_one_gpu() {
    let v = aksgpu(&[
        "recommend",
        "--workload",
        "fine-tuning",
        "--model-params",
        "65B",
        "--precision",
        "int4",
        "--gpus",
        "1",
        "-o",
        "json",
    ])
    .json();
    let first = &v["recommendations"][0];
    assert_eq!(first["fit"]["estimate"]["method"], "qlora");
    assert_eq!(first["fit"]["gpus_used_per_node"], 1.0);
    assert_eq!(first["fit"]["nodes"], 1);
    // Under 48 GiB: a 48 GB GPU would hold it, as the QLoRA paper reports.
    assert!(first["fit"]["required_per_gpu_gib"].as_f64().expect("need") < 0.92 * 48.0, "{first}");
}

#[test]
fn falcon_7b_works_without_flags() {
    let run = aksgpu(&["recommend", "--model", "falcon-7b", "-o", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["requirements"]["context"], 2048);
    // 71 attention heads: never tensor-parallel over 2 or 4 GPUs …
    for r in v["recommendations"].as_array().expect("array") {
        assert_eq!(r["serving"]["tensor_parallel"], 1, "{r}");
    }
    // … so where one T4 cannot hold it, two T4s run it as two pipeline stages (vLLM), two
    // copies on the 4-GPU size.
    let four = aksgpu(&["recommend", "--model", "falcon-7b", "--gpu-model", "T4", "--gpus", "4", "-o", "json"]);
    assert_eq!(four.code, 0, "{}", four.stderr);
    let s = &four.json()["recommendations"][0]["serving"];
    assert_eq!(
        (s["tensor_parallel"].as_u64(), s["pipeline_parallel"].as_u64(), s["replicas"].as_u64()),
        (Some(1), Some(2), Some(2)),
        "{s}"
    );
}

#[test]
fn closest_lists_the_smallest_shortfall_not_the_cheapest_misfit() {
    // 405B on T4 or A10 fits nowhere. Four T4s × 8 nodes come closest (27.7 GiB needed per GPU,
    // 14.7 usable); the cheapest misfit, one T4, is far off and must not lead the list.
    let run = aksgpu(&["recommend", "--model", "llama-3.1-405b", "--gpu-model", "T4,A10"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let hint = run.stderr.lines().find(|l| l.starts_with("hint: closest:")).expect("hint");
    assert!(hint.starts_with("hint: closest: Standard_NC64as_T4_v3 "), "{hint}");
    assert!(!hint.contains("Standard_NC4as_T4_v3"), "{hint}");
}

#[test]
fn mig_sizes_that_price_alike_per_instance_rank_the_cheaper_node_first() {
    // NC24/48/96ads A100 v4 split into 7/14/28 MIG 1g.10gb instances at the same $/instance-hour.
    let r = aksgpu(&["recommend", "--mig", "--gpu-memory", "10", "--top", "3", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    let recs = v["recommendations"].as_array().expect("list");
    let per_node: Vec<f64> = recs.iter().map(|x| x["price_per_hour"].as_f64().expect("priced")).collect();
    let per_instance: Vec<f64> = recs.iter().map(|x| x["price_per_instance_hour"].as_f64().expect("mig")).collect();
    assert!(per_instance.windows(2).all(|w| (w[0] * 100.0).round() == (w[1] * 100.0).round()), "{per_instance:?}");
    assert!(per_node.windows(2).all(|w| w[0] < w[1]), "ties rank the cheaper node first: {per_node:?}");
}

#[test]
fn nothing_fits_json_carries_closest_and_the_table_says_it_once() {
    let args = ["recommend", "--model", "llama-3.1-405b", "--max-price-per-hour", "5"];
    let table = aksgpu(&args);
    assert_eq!(table.code, 1, "{}", table.stderr);
    let said = format!("{}{}", table.stdout, table.stderr).to_ascii_lowercase().matches("no size fits").count();
    assert_eq!(said, 1, "stdout:\n{}\nstderr:\n{}", table.stdout, table.stderr);
    let mut json_args = args.to_vec();
    json_args.extend(["-o", "json"]);
    let j = aksgpu(&json_args);
    assert_eq!(j.code, 1, "{}", j.stderr);
    let v = j.json();
    let closest = v["closest"].as_array().expect("closest[] when nothing fits");
    assert!(!closest.is_empty() && closest.len() <= 3, "{closest:?}");
    assert_eq!(closest[0]["constraint"], "--max-price-per-hour");
    assert!(j.stderr.contains(closest[0]["vm_size"].as_str().expect("name")), "{}", j.stderr);
    let fits = aksgpu(&["recommend", "--model", "llama-3.1-8b", "-o", "json"]);
    assert!(fits.json().get("closest").is_none(), "absent when something fits");
}

/// The catalog advises on `recommend` too: the Windows Kubernetes minimum and MIG's Linux-only
/// rule are refusals naming `--override RULE_ID`; with it they are warnings naming the rule,
/// its source and the risk. An unknown id lists the valid ones.
#[test]
fn recommend_overrides_catalog_refusals() {
    let win = ["recommend", "--gpu-model", "T4", "--os", "windows", "--k8s-version", "1.28"];
    let refused = aksgpu(&win);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("--override windows-gpu-min-kubernetes"), "{}", refused.stderr);
    let ok = aksgpu(&[&win[..], &["--override", "windows-gpu-min-kubernetes", "-o", "json"]].concat());
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let w = ok.json()["requirements"]["warnings"][0].as_str().unwrap_or_default().to_owned();
    assert!(w.contains("overriding catalog rule windows-gpu-min-kubernetes"), "{w}");
    assert!(w.contains("source: azure-aks-docs:") && w.contains("risk:"), "{w}");
    let table = aksgpu(&[&win[..], &["--override", "windows-gpu-min-kubernetes"]].concat());
    assert!(table.stderr.contains("warning: overriding catalog rule windows-gpu-min-kubernetes"), "{}", table.stderr);

    let mig = ["recommend", "--mig", "--os", "windows", "--gpu-model", "A100"];
    let refused = aksgpu(&mig);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("--override mig-models"), "{}", refused.stderr);
    let ok = aksgpu(&[&mig[..], &["--override", "mig-models"]].concat());
    assert_ne!(ok.code, 2, "{}", ok.stderr);
    assert!(ok.stderr.contains("warning: overriding catalog rule mig-models"), "{}", ok.stderr);

    let typo = aksgpu(&[&win[..], &["--override", "windows-min"]].concat());
    assert_eq!(typo.code, 2, "{}", typo.stderr);
    assert!(typo.stderr.contains("not a catalog rule id") && typo.stderr.contains("catalog-region"), "{}", typo.stderr);
}

/// A region missing from the catalog's regions.yaml is a refusal resting on catalog data:
/// `--override catalog-region` proceeds, warning that prices are unknown there and that Azure
/// decides.
#[test]
fn a_region_the_catalog_lacks_can_be_overridden() {
    let rec = ["recommend", "--gpu-model", "A100", "-l", "newzealandsouth", "--include-unpriced"];
    let refused = aksgpu(&rec);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("is not an Azure region"), "{}", refused.stderr);
    assert!(refused.stderr.contains("--override catalog-region"), "{}", refused.stderr);
    let ok = aksgpu(&[&rec[..], &["--override", "catalog-region"]].concat());
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    assert!(ok.stderr.contains("warning: overriding catalog rule catalog-region"), "{}", ok.stderr);
    assert!(ok.stderr.contains("prices are unknown there") && ok.stderr.contains("Azure decides"), "{}", ok.stderr);

    let cost = ["cost", "--vm-size", "Standard_NC24ads_A100_v4", "--region", "newzealandsouth"];
    assert_eq!(aksgpu(&cost).code, 2);
    let ok = aksgpu(&[&cost[..], &["--override", "catalog-region"]].concat());
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    assert!(ok.stderr.contains("warning: overriding catalog rule catalog-region"), "{}", ok.stderr);

    let pool = ["create-pool", "-g", "rg", "--cluster", "c1", "--name", "gpu", "--vm-size", "Standard_NC24ads_A100_v4"];
    let pool = [&pool[..], &["-l", "newzealandsouth", "--dry-run", "--skip-preflight"]].concat();
    let refused = aksgpu(&pool);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("--override catalog-region"), "{}", refused.stderr);
    let ok = aksgpu(&[&pool[..], &["--override", "catalog-region"]].concat());
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    assert!(ok.stderr.contains("warning: overriding catalog rule catalog-region"), "{}", ok.stderr);
}

#[test]
fn requirements_name_a_service_only_when_one_is_sized() {
    // No model and no serving target: the lengths would be defaults nobody asked about.
    let bare = aksgpu(&["recommend", "--gpu-memory-min", "40", "-o", "json"]);
    assert_eq!(bare.code, 0, "{}", bare.stderr);
    let v = bare.json();
    assert!(v["requirements"].get("serving").is_none(), "{}", v["requirements"]);
    // A training model sizes no service either.
    let train = aksgpu(&["recommend", "--workload", "training", "--model", "llama-3.1-8b", "-o", "json"]).json();
    assert!(train["requirements"].get("serving").is_none(), "{}", train["requirements"]);
    // An inference model does, with its lengths.
    let served = aksgpu(&["recommend", "--model", "llama-3.1-8b", "-o", "json"]).json();
    assert_eq!(served["requirements"]["serving"]["input_tokens"], 3072, "{}", served["requirements"]);
    // So does --rank-by alone.
    let ranked = aksgpu(&["recommend", "--gpu-memory-min", "40", "--rank-by", "price", "-o", "json"]).json();
    assert!(ranked["requirements"]["serving"].is_object(), "{}", ranked["requirements"]);
}
