//! Cost, live prices, catalog drift and cluster cost hygiene against the fake servers.

use serde_json::{json, Value};

use crate::fake_arm::{respond_h, FakeArm};
use crate::support::{aksgpu, aksgpu_arm, aksgpu_with, bundled_linux_price, size_entry, temp_dir, Run};

fn run(arm: &FakeArm, cache: &std::path::Path, args: &[&str]) -> Run {
    let cache = cache.display().to_string();
    aksgpu_arm(&arm.base, args, &[("AKSGPU_PRICES_ENDPOINT", &arm.base), ("AKSGPU_CACHE_DIR", &cache)])
}

/// The price cache `prices refresh` wrote, unpacked, as JSON.
fn saved_cache(path: &std::path::Path) -> Value {
    let packed = aksgpu::pricing::read_cache(path).expect("a valid cache").expect("a cache");
    serde_json::to_value(packed.unpack()).expect("json")
}

fn item(sku: &str, region: &str, product: &str, sku_name: &str, price: f64) -> Value {
    json!({"armSkuName": sku, "armRegionName": region, "productName": product, "skuName": sku_name, "unitPrice": price,
           "retailPrice": price, "type": "Consumption", "unitOfMeasure": "1 Hour", "currencyCode": "USD", "serviceName": "Virtual Machines"})
}

fn retail_items() -> Vec<Value> {
    let mut v = vec![
        item("Standard_NC24ads_A100_v4", "eastus", "Virtual Machines NCadsA100v4 Series", "NC24ads A100 v4", 3.5),
        item("Standard_NC24ads_A100_v4", "eastus", "Virtual Machines NCadsA100v4 Series", "NC24ads A100 v4 Spot", 0.42),
        item(
            "Standard_NC24ads_A100_v4",
            "eastus",
            "Virtual Machines NCadsA100v4 Series Windows",
            "NC24ads A100 v4",
            4.42,
        ),
        item(
            "Standard_NC24ads_A100_v4",
            "eastus",
            "Virtual Machines NCadsA100v4 Series Windows",
            "NC24ads A100 v4 Spot",
            1.1,
        ),
        item(
            "Standard_NC24ads_A100_v4",
            "eastus",
            "Virtual Machines NCadsA100v4 Series",
            "NC24ads A100 v4 Low Priority",
            0.3,
        ),
        item("Standard_NC24ads_A100_v4", "westeurope", "Virtual Machines NCadsA100v4 Series", "NC24ads A100 v4", 3.9),
    ];
    // 230 rows for another size: three pages of 100.
    for i in 0..230 {
        v.push(item(
            "Standard_NC4as_T4_v3",
            &format!("region{i:03}"),
            "Virtual Machines NCasT4 v3 Series",
            "NC4as T4 v3",
            0.5 + f64::from(i) / 1000.0,
        ));
    }
    v
}

#[test]
fn prices_refresh_pages_retries_and_feeds_recommend_and_cost() {
    let arm = FakeArm::start();
    let cache = temp_dir("prices-cache");
    arm.with(|s| {
        s.retail_items = retail_items();
        s.retail_drop_next_link = true;
    });
    arm.fault("GET", "/api/retail/prices", 1, respond_h(429, &[("retry-after", "1")], "{}"));
    let r = run(&arm, &cache, &["prices", "refresh", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["items"], 236);
    // The T4 query needed three pages through the $skip fallback (plus an empty fourth).
    let t4 = arm.log().into_iter().filter(|x| x.target.contains("Standard_NC4as_T4_v3")).count();
    assert!(t4 >= 3, "{t4}");
    let saved = saved_cache(&cache.join("prices.bin"));
    let p = &saved["sizes"]["Standard_NC24ads_A100_v4"]["eastus"];
    assert_eq!(
        (p["linux"].clone(), p["linux_spot"].clone(), p["windows"].clone(), p["windows_spot"].clone()),
        (json!(3.5), json!(0.42), json!(4.42), json!(1.1))
    );
    assert_eq!(saved["sizes"]["Standard_NC4as_T4_v3"].as_object().expect("regions").len(), 230);

    let rec = run(&arm, &cache, &["recommend", "--gpu-model", "A100", "--region", "eastus", "-o", "json"]);
    assert_eq!(rec.code, 0, "{}", rec.stderr);
    let j = rec.json();
    let a100 = size_entry(&j, "recommendations", "Standard_NC24ads_A100_v4");
    assert_eq!(a100["price_per_hour"], 3.5);
    assert!(j["requirements"]["price_source"].as_str().expect("source").contains("live prices cached"));
    // Windows prices now exist where the bundled table had none.
    let cost = run(
        &arm,
        &cache,
        &["cost", "--vm-size", "Standard_NC24ads_A100_v4", "--region", "eastus", "--os", "windows", "-o", "json"],
    );
    assert_eq!(cost.code, 0, "{}", cost.stderr);
    assert_eq!(cost.json()["pools"][0]["price_per_node_hour"], 4.42);
}

/// `prices refresh` sends its plan (`plan::prices::refresh`: one first page per size), the
/// `$skip` pages that plan builds for a full page without a link, and the `NextPageLink`s the
/// API returned; nothing else. Against a server that links its pages, and one that does not.
#[test]
fn prices_refresh_sends_its_plans_steps_and_the_links_the_api_returns() {
    use aksgpu::plan::prices;
    let catalog = aksgpu::catalog::Catalog::bundled().expect("catalog");
    let sizes: Vec<&str> = catalog
        .sizes
        .iter()
        .filter(|s| s.status != aksgpu::catalog::Status::Retired)
        .map(|s| s.name.as_str())
        .collect();
    let plan = prices::refresh(&sizes, &[], "USD");
    for drop_links in [false, true] {
        let arm = FakeArm::start();
        let cache = temp_dir(&format!("prices-plan-{drop_links}"));
        arm.with(|s| {
            s.retail_items = retail_items();
            s.retail_drop_next_link = drop_links;
        });
        let r = run(&arm, &cache, &["prices", "refresh", "-o", "json"]);
        assert_eq!((r.code, r.json()["items"].as_u64()), (0, Some(236)), "{}", r.stderr);
        let given: Vec<String> = arm.given().into_iter().filter(|(h, _)| *h == "next-link").map(|(_, u)| u).collect();
        let skips = |s: &aksgpu::plan::Step| -> Vec<String> {
            (1..=5).map(|k| prices::skipped(s, k * prices::PAGE).url).collect()
        };
        let mut unplanned = Vec::new();
        for x in arm.log() {
            let planned = plan.steps.iter().any(|s| s.url == x.target || skips(s).contains(&x.target));
            if !(planned || given.contains(&x.target)) {
                unplanned.push(x.target);
            }
        }
        assert!(unplanned.is_empty(), "links dropped: {drop_links}: requests no step plans: {unplanned:#?}");
        let sent = |u: &str| arm.log().iter().any(|x| x.target == u);
        assert!(plan.steps.iter().all(|s| sent(&s.url)), "a size's first page was not sent");
        // The T4 rows span three pages: through the links, or through the plan's $skip steps.
        let t4 = plan.steps.iter().find(|s| s.url.contains("Standard_NC4as_T4_v3%27")).expect("T4 query");
        assert_eq!(sent(&prices::skipped(t4, 200).url), drop_links, "{:?}", arm.calls());
        assert_eq!(given.is_empty(), drop_links);
    }
}

#[test]
fn prices_refresh_follows_next_page_links_and_region_filters() {
    let arm = FakeArm::start();
    let cache = temp_dir("prices-cache-2");
    arm.with(|s| s.retail_items = retail_items());
    let r = run(&arm, &cache, &["prices", "refresh", "--region", "eastus,westeurope", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // eastus has five rows (the low-priority one is read and skipped), westeurope one.
    assert_eq!(r.json()["items"], 6);
    assert!(arm.log().iter().all(|x| x.target.contains("armRegionName")));
    // Without a region the T4 rows span three pages, followed through NextPageLink.
    let all = run(&arm, &cache, &["prices", "refresh", "-o", "json"]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    assert_eq!(all.json()["items"], 236);
    assert!(arm.log().iter().any(|x| x.target.contains("$skip=200")), "NextPageLink was not followed");
}

#[test]
fn corrupt_cache_is_ignored_with_a_warning() {
    let cache = temp_dir("prices-corrupt");
    std::fs::write(cache.join("prices.bin"), "{ not json").expect("write");
    let r =
        aksgpu_with(&["recommend", "--model", "llama-3.1-8b"], &[("AKSGPU_CACHE_DIR", cache.to_str().expect("utf8"))]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("ignoring the price cache") && r.stderr.contains("corrupt"), "{}", r.stderr);
    assert!(r.stdout.contains("Standard_NV36ads_A10_v5"));
}

/// The arithmetic on a fixture price ($3.673/h for the A100 in eastus, from a price cache
/// written as `prices refresh` writes it), so the hand-worked figures hold whatever the
/// bundled table says.
#[test]
fn cost_for_a_size_is_hand_checkable() {
    let cache = temp_dir("cost-size");
    let fixture = aksgpu::catalog::RegionPrice { linux: Some(3.673), ..Default::default() };
    let fetched_at = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("clock").as_secs();
    let sizes = [("Standard_NC24ads_A100_v4".to_owned(), [("eastus".to_owned(), fixture)].into())].into();
    let fixture = aksgpu::pricing::PriceCache { fetched_at, currency: "USD".into(), source: "fixture".into(), sizes };
    aksgpu::pricing::write_cache(&cache.join("prices.bin"), &fixture).expect("fixture cache");
    let r = aksgpu_with(
        &[
            "cost",
            "--vm-size",
            "Standard_NC24ads_A100_v4",
            "--min-count",
            "1",
            "--max-count",
            "3",
            "--region",
            "eastus",
            "--hours-per-day",
            "8",
            "-o",
            "json",
        ],
        &[("AKSGPU_CACHE_DIR", cache.to_str().expect("utf8"))],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let p = &r.json()["pools"][0];
    assert_eq!(p["price_per_node_hour"], 3.673, "the fixture price is used");
    // $3.673/h: 8 h/day → $29.38/day; × 30.4167 → $893.76/month at one node.
    assert_eq!(p["at_min"]["daily"], 29.38);
    assert_eq!(p["at_min"]["monthly"], 893.76);
    assert_eq!(p["at_max"]["hourly"], 11.02);
    // The idle minimum runs the same 8 h a day: the month at one node, not 730 h of it.
    assert_eq!(p["idle_monthly"], 893.76);
    let table = aksgpu_with(
        // austriaeast: an Azure region with no GPU list price in the bundled table.
        &["cost", "--vm-size", "Standard_NC24ads_A100_v4", "--region", "austriaeast"],
        &[("AKSGPU_CACHE_DIR", cache.to_str().expect("utf8"))],
    );
    assert_eq!(table.code, 0);
    assert!(table.stdout.contains("price unknown"), "{}", table.stdout);
    let bad = aksgpu_with(&["cost", "--vm-size", "Standard_NC24ads_A100_v4", "--hours-per-day", "30"], &[]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--hours-per-day"));
}

#[test]
fn cost_for_a_cluster_reads_its_gpu_pools() {
    let arm = FakeArm::start();
    let cache = temp_dir("cost-cluster");
    arm.put_pool(
        "c1",
        "system",
        json!({"name": "system", "properties": {"vmSize": "Standard_D4ds_v5", "count": 2, "mode": "System"}}),
    );
    arm.put_pool("c1", "gpu", json!({"name": "gpu", "properties": {"vmSize": "Standard_NC24ads_A100_v4", "count": 1, "enableAutoScaling": true, "minCount": 1, "maxCount": 4, "scaleDownMode": "Deallocate"}}));
    arm.put_pool("c1", "spot", json!({"name": "spot", "properties": {"vmSize": "Standard_NC4as_T4_v3", "count": 2, "scaleSetPriority": "Spot", "scaleSetEvictionPolicy": "Delete"}}));
    let r = run(&arm, &cache, &["cost", "-g", "rg", "--cluster", "c1", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    let pools = v["pools"].as_array().expect("pools");
    assert_eq!(pools.len(), 2, "{v}");
    let gpu = pools.iter().find(|p| p["pool"] == "gpu").expect("gpu pool");
    assert_eq!(gpu["region"], "eastus");
    assert_eq!(gpu["at_max"]["nodes"], 4);
    assert!(gpu["advice"].to_string().contains("OS disks"));
    let spot = pools.iter().find(|p| p["pool"] == "spot").expect("spot pool");
    assert_eq!(spot["price_kind"], "linux spot");
    let total = v["total_monthly_at_min"].as_f64().expect("total");
    let sum = gpu["at_min"]["monthly"].as_f64().expect("g") + spot["at_min"]["monthly"].as_f64().expect("s");
    assert!((total - sum).abs() < 0.01);
}

/// A pool Azure sent without `count` is not zero nodes at $0: the error names the field.
#[test]
fn cost_for_a_pool_without_count_names_the_missing_field() {
    let arm = FakeArm::start();
    let cache = temp_dir("cost-no-count");
    arm.put_pool(
        "c1",
        "gpu",
        json!({"name": "gpu", "properties": {"vmSize": "Standard_NC24ads_A100_v4", "mode": "User"}}),
    );
    let r = run(&arm, &cache, &["cost", "-g", "rg", "--cluster", "c1", "-o", "json"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("agent pool gpu has no properties.count"), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
}

/// A cluster Azure sent without `powerState` is not taken as Running: start exits 1 naming
/// the field, and nothing is sent.
#[test]
fn cluster_start_without_power_state_names_the_field() {
    let arm = FakeArm::start();
    let cache = temp_dir("power-missing");
    arm.edit_cluster("c1", |c| {
        if let Some(p) = c["properties"].as_object_mut() {
            p.remove("powerState");
        }
    });
    let r = run(&arm, &cache, &["cluster", "start", "--yes", "-g", "rg", "--cluster", "c1"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("properties.powerState.code"), "{}", r.stderr);
    assert_eq!(arm.count("POST", "/"), 0);
}

/// After the stop operation succeeds, a read that still says Running is stale: it is polled
/// again until powerState is Stopped, never reported as success before.
#[test]
fn cluster_stop_checks_power_state_and_polls_a_stale_read() {
    let arm = FakeArm::start();
    let cache = temp_dir("power-stale");
    arm.with(|s| s.stale_power_reads = 2);
    let r = run(&arm, &cache, &["cluster", "stop", "--yes", "-g", "rg", "--cluster", "c1", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["resource"]["properties"]["powerState"]["code"], "Stopped", "{}", r.stdout);
    assert_eq!(arm.count("POST", "/stop"), 1);

    // A cluster that never reports Stopped ends at --timeout with exit 4, not "stopped".
    let arm = FakeArm::start();
    arm.with(|s| s.stale_power_reads = 1_000_000);
    let r = run(&arm, &cache, &["cluster", "stop", "--yes", "-g", "rg", "--cluster", "c1", "--timeout", "3s"]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(!r.stdout.contains("Stopped"), "{}", r.stdout);
    assert!(r.stderr.contains("powerState"), "{}", r.stderr);
}

#[test]
fn cluster_stop_and_start_poll_the_location() {
    let arm = FakeArm::start();
    let cache = temp_dir("power");
    let r = run(&arm, &cache, &["cluster", "stop", "-g", "rg", "--cluster", "c1", "--yes"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Stopped"), "{}", r.stdout);
    assert_eq!(arm.count("POST", "/stop"), 1);
    assert!(arm.count("GET", "operationresults/") >= 2);
    let again = run(&arm, &cache, &["cluster", "stop", "-g", "rg", "--cluster", "c1", "--yes"]);
    assert!(again.stdout.contains("already Stopped"), "{}", again.stdout);
    assert_eq!(arm.count("POST", "/stop"), 1);
    let start = run(&arm, &cache, &["cluster", "start", "-g", "rg", "--cluster", "c1", "--yes", "-o", "json"]);
    assert_eq!(start.code, 0, "{}", start.stderr);
    assert_eq!(start.json()["resource"]["properties"]["powerState"]["code"], "Running");
    assert_eq!(arm.count("DELETE", "/"), 0);
}

#[test]
fn cost_analysis_refuses_free_tier_and_changes_only_the_metrics_profile() {
    let arm = FakeArm::start();
    let cache = temp_dir("cost-analysis");
    arm.edit_cluster("c1", |c| c["sku"]["tier"] = json!("Free"));
    let r = run(&arm, &cache, &["cost-analysis", "enable", "-g", "rg", "--cluster", "c1", "--yes"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("Standard or Premium"), "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 0);
    arm.edit_cluster("c1", |c| c["sku"]["tier"] = json!("Standard"));
    let before = arm.with(|s| s.clusters.values().next().cloned().expect("cluster"));
    let r = run(&arm, &cache, &["cost-analysis", "enable", "-g", "rg", "--cluster", "c1", "--yes"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let put = arm.log().into_iter().find(|x| x.method == "PUT").expect("put");
    let d = aksgpu::plan::cluster::differences(
        &aksgpu::plan::cluster::writable(&aksgpu::resources::AsRead::parse(before, "cluster").expect("typed")),
        &put.json(),
    );
    assert_eq!(d, ["/properties/metricsProfile"]);
    let again = run(&arm, &cache, &["cost-analysis", "enable", "-g", "rg", "--cluster", "c1", "--yes"]);
    assert!(again.stdout.contains("already enabled"), "{}", again.stdout);
    assert_eq!(arm.count("PUT", "/"), 1);
}

/// `cost-analysis enable` and `kaito enable` read the cluster typed but send back the JSON
/// Azure sent: fields `ManagedCluster` does not model (a whole profile, a key inside a profile
/// the change sets, a top-level field) are in the PUT as read.
#[test]
fn cluster_puts_keep_the_fields_the_tool_does_not_model() {
    let arm = FakeArm::start();
    let cache = temp_dir("unmodeled");
    let network = json!({"networkPlugin": "azure", "outboundType": "userDefinedRouting", "futureKnob": [1, 2]});
    arm.edit_cluster("c1", |c| {
        c["properties"]["networkProfile"] = network.clone();
        c["properties"]["metricsProfile"] = json!({"costAnalysis": {"enabled": false, "futureKnob": "m"}});
        c["properties"]["aiToolchainOperatorProfile"] = json!({"enabled": false, "futureKnob": "k"});
        c["futureTopLevel"] = json!({"kept": true});
    });
    for (args, changed, want) in [
        (
            &["cost-analysis", "enable", "-g", "rg", "--cluster", "c1", "--yes"][..],
            "/properties/metricsProfile",
            json!({"costAnalysis": {"enabled": true, "futureKnob": "m"}}),
        ),
        (
            &["kaito", "enable", "-g", "rg", "--cluster", "c1", "--yes"][..],
            "/properties/aiToolchainOperatorProfile",
            json!({"enabled": true, "futureKnob": "k"}),
        ),
    ] {
        let r = run(&arm, &cache, args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let put = arm.log().into_iter().rev().find(|x| x.method == "PUT").expect("a PUT");
        let body = put.json();
        assert_eq!(body.pointer("/properties/networkProfile"), Some(&network), "{body}");
        assert_eq!(body.pointer("/futureTopLevel"), Some(&json!({"kept": true})), "{body}");
        assert_eq!(body.pointer(changed), Some(&want), "{body}");
    }
    assert_eq!(arm.count("PUT", "/"), 2);
}

/// The cluster is read typed once, before anything is decided: a field of another type is an
/// error naming it (a tier is not read as the Free tier), and nothing is sent.
#[test]
fn cluster_writes_name_a_cluster_field_of_another_type() {
    let arm = FakeArm::start();
    let cache = temp_dir("cost-analysis-shape");
    arm.edit_cluster("c1", |c| c["sku"]["tier"] = json!(2));
    let r = run(&arm, &cache, &["cost-analysis", "enable", "-g", "rg", "--cluster", "c1", "--yes"]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(r.stderr.contains("sku.tier"), "{}", r.stderr);
    assert!(!r.stderr.contains("Standard or Premium"), "{}", r.stderr);
    // The same read for `kaito enable`.
    arm.edit_cluster("c1", |c| {
        c["sku"]["tier"] = json!("Standard");
        c["properties"]["aiToolchainOperatorProfile"] = json!({"enabled": "yes"});
    });
    let r = run(&arm, &cache, &["kaito", "enable", "-g", "rg", "--cluster", "c1", "--yes"]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(r.stderr.contains("properties.aiToolchainOperatorProfile.enabled"), "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 0);
}

/// `pool scale -g rg --cluster c1 --name gpu EXTRA`.
fn scale(arm: &FakeArm, cache: &std::path::Path, extra: &[&str]) -> Run {
    let mut args = vec!["pool", "scale", "-g", "rg", "--cluster", "c1", "--yes", "--name", "gpu"];
    args.extend_from_slice(extra);
    run(arm, cache, &args)
}

#[test]
fn pool_scale_changes_only_counts() {
    let arm = FakeArm::start();
    let cache = temp_dir("scale");
    arm.put_pool("c1", "gpu", json!({"id": crate::fake_arm::pool_path("c1", "gpu"), "name": "gpu", "properties": {
        "vmSize": "Standard_NC24ads_A100_v4", "count": 3, "mode": "User", "nodeTaints": ["sku=gpu:NoSchedule"],
        "provisioningState": "Succeeded", "eTag": "pool-etag", "nodeImageVersion": "AKSUbuntu-2204gen2-2026.11", "enableAutoScaling": false}}));
    let r = scale(&arm, &cache, &["--count", "0"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let put = arm.log().into_iter().find(|x| x.method == "PUT").expect("put");
    assert_eq!(put.headers.get("if-match").map(String::as_str), Some("pool-etag"));
    let body = put.json();
    assert_eq!(body["properties"]["count"], 0);
    assert!(
        body.pointer("/properties/nodeImageVersion").is_none()
            && body.pointer("/properties/provisioningState").is_none()
    );
    assert_eq!(body["properties"]["nodeTaints"], json!(["sku=gpu:NoSchedule"]));
    let auto = scale(&arm, &cache, &["--min-count", "1", "--max-count", "4", "-o", "json"]);
    assert_eq!(auto.code, 0, "{}", auto.stderr);
    let last = arm.log().into_iter().rfind(|x| x.method == "PUT").expect("put").json();
    assert_eq!(
        (
            last["properties"]["enableAutoScaling"].clone(),
            last["properties"]["minCount"].clone(),
            last["properties"]["maxCount"].clone()
        ),
        (json!(true), json!(1), json!(4))
    );
    let refused = scale(&arm, &cache, &["--count", "2"]);
    assert_eq!(refused.code, 1, "{}", refused.stderr);
    assert!(refused.stderr.contains("autoscaler"), "{}", refused.stderr);
    let dry = scale(&arm, &cache, &["--min-count", "0", "--max-count", "2", "--dry-run", "-o", "json"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert_eq!(arm.count("PUT", "/"), 2);
}

#[test]
fn catalog_diff_reports_drift() {
    let arm = FakeArm::start();
    let cache = temp_dir("diff");
    arm.with(|s| {
        s.skus.push(json!({"resourceType": "virtualMachines", "name": "Standard_ND96is_H100_v5", "capabilities": [{"name": "vCPUs", "value": "96"}, {"name": "MemoryGB", "value": "1900"}, {"name": "GPUs", "value": "8"}], "restrictions": []}));
        for sku in s.skus.iter_mut() {
            if sku["name"] == "Standard_NC4as_T4_v3" {
                sku["capabilities"] = json!([{"name": "vCPUs", "value": "4"}, {"name": "MemoryGB", "value": "28"}, {"name": "GPUs", "value": "1"}]);
            }
            if sku["name"] == "Standard_NC24ads_A100_v4" {
                sku["capabilities"] = json!([{"name": "vCPUs", "value": "24"}, {"name": "MemoryGB", "value": "220"}, {"name": "GPUs", "value": "2"}]);
            }
        }
    });
    let r = run(&arm, &cache, &["catalog", "diff", "--location", "eastus", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["missing_from_catalog"], json!(["Standard_ND96is_H100_v5"]));
    assert_eq!(v["mismatches"][0]["vm_size"], "Standard_NC24ads_A100_v4");
    assert_eq!(v["mismatches"][0]["field"], "gpu_count");
    assert!(v["gpu_count_not_compared"].as_array().expect("list").iter().any(|x| x == "Standard_NV36ads_A10_v5"));
    let fail = run(&arm, &cache, &["catalog", "diff", "--location", "eastus", "--fail-on-drift"]);
    assert_eq!(fail.code, 1);
    assert!(fail.stdout.contains("Standard_NC8ads_A10_v4"));
}

/// `cost`'s cheaper-size advice counts memory as `recommend` does (USABLE/GPU: 0.92 × 80 GiB =
/// 73.6 GiB on an A100 80GB): a workload needing 80 GiB per GPU is not sent to an A100.
#[test]
fn cost_and_recommend_agree_on_usable_memory() {
    let usable = aksgpu(&["recommend", "--gpu-model", "A100-80GB-PCIe", "--top", "1", "-o", "json"]);
    let a100 = usable.json()["recommendations"][0]["fit"]["available_per_gpu_gib"].as_f64().expect("usable");
    assert!((a100 - 73.6).abs() < 0.05, "{a100}");
    let need80 = aksgpu(&["cost", "--vm-size", "Standard_NC40ads_H100_v5", "--need-gpu-memory", "80"]);
    assert_eq!(need80.code, 0, "{}", need80.stderr);
    assert!(!need80.stdout.contains("Standard_NC24ads_A100_v4"), "{}", need80.stdout);
    let need70 = aksgpu(&["cost", "--vm-size", "Standard_NC40ads_H100_v5", "--need-gpu-memory", "70"]);
    assert!(need70.stdout.contains("Standard_NC24ads_A100_v4 also gives ≥ 70 GiB usable per GPU"), "{}", need70.stdout);
}

fn euro(mut v: Value) -> Value {
    v["currencyCode"] = json!("EUR");
    v
}

/// `--currency EUR`: `prices refresh --currency EUR` asks the Retail Prices API for euros
/// (`currencyCode`) and keeps them in their own cache, which records its currency; `cost
/// --currency EUR` prices from that cache alone. Without it, the command says to refresh:
/// bundled USD prices are never relabelled as euros.
#[test]
fn cost_in_euros_comes_from_a_euro_cache_only() {
    let arm = FakeArm::start();
    let cache = temp_dir("prices-eur");
    let a100 = "Standard_NC24ads_A100_v4";
    let product = "Virtual Machines NCadsA100v4 Series";
    let cost = ["cost", "--vm-size", a100, "--region", "eastus", "--min-count", "1", "--max-count", "3"];
    let none = run(&arm, &cache, &[&cost[..], &["--currency", "EUR"]].concat());
    assert_eq!(none.code, 2, "{}", none.stderr);
    assert!(none.stderr.contains("no EUR prices are cached"), "{}", none.stderr);
    assert!(none.stderr.contains("aksgpu prices refresh --currency EUR"), "{}", none.stderr);

    arm.with(|s| {
        s.retail_items = vec![
            item(a100, "eastus", product, "NC24ads A100 v4", 3.5),
            euro(item(a100, "eastus", product, "NC24ads A100 v4", 3.21)),
        ];
    });
    let r = run(&arm, &cache, &["prices", "refresh", "--currency", "eur", "--region", "eastus", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(arm
        .log()
        .iter()
        .all(|x| !x.target.contains("/api/retail/") || x.target.contains("currencyCode=%27EUR%27")));
    let saved = saved_cache(&cache.join("prices-EUR.bin"));
    assert_eq!(saved["currency"], "EUR");
    assert_eq!(saved["sizes"][a100]["eastus"]["linux"], 3.21);
    assert!(!cache.join("prices.bin").exists(), "a EUR refresh must not write the USD cache");

    let eur = run(&arm, &cache, &[&cost[..], &["--currency", "EUR", "-o", "json"]].concat());
    assert_eq!(eur.code, 0, "{}", eur.stderr);
    let v = eur.json();
    assert_eq!((v["currency"].clone(), v["pools"][0]["currency"].clone()), (json!("EUR"), json!("EUR")));
    assert_eq!(v["pools"][0]["price_per_node_hour"], 3.21);
    // 3 × €3.21 = €9.63 an hour; × 730 h = €7,029.90 a month (exact).
    assert_eq!(
        (v["pools"][0]["at_max"]["hourly"].clone(), v["pools"][0]["at_max"]["monthly"].clone()),
        (json!(9.63), json!(7029.9))
    );
    let table = run(&arm, &cache, &[&cost[..], &["--currency", "eur"]].concat());
    assert!(table.stdout.contains("€9.63") && !table.stdout.contains('$'), "{}", table.stdout);
    // A region the euro cache lacks has no price: the bundled USD figure is not relabelled.
    let west =
        run(&arm, &cache, &["cost", "--vm-size", a100, "--region", "westeurope", "--currency", "EUR", "-o", "json"]);
    assert_eq!(west.code, 0, "{}", west.stderr);
    assert_eq!(west.json()["pools"][0]["price_per_node_hour"], Value::Null);
    assert!(west.stdout.contains("prices refresh --currency EUR"), "{}", west.stdout);
    // USD is untouched: the bundled table.
    let usd = run(&arm, &cache, &[&cost[..], &["-o", "json"]].concat());
    assert_eq!(usd.json()["pools"][0]["price_per_node_hour"], bundled_linux_price(a100, "eastus"));
}

/// `pool scale --dry-run` ends with the cost of the new counts: with credentials it reads
/// (GETs only) the pool for its size, OS and priority and the cluster for its region; without
/// them the price is unknown and says what it needs, never a guess.
#[test]
fn pool_scale_dry_run_is_priced() {
    let arm = FakeArm::start();
    let cache = temp_dir("scale-dry-priced");
    arm.put_pool(
        "c1",
        "gpu",
        json!({"id": crate::fake_arm::pool_path("c1", "gpu"), "name": "gpu", "properties": {
        "vmSize": "Standard_NC24ads_A100_v4", "count": 3, "mode": "User", "osType": "Linux",
        "provisioningState": "Succeeded", "eTag": "pool-etag", "enableAutoScaling": false}}),
    );
    let r = scale(&arm, &cache, &["--min-count", "1", "--max-count", "4", "--dry-run", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(arm.log().iter().all(|x| x.method == "GET"), "{:?}", arm.calls());
    assert_eq!(arm.count("GET", "/agentPools/gpu"), 1);
    let v = r.json();
    let c = &v["cost"]["pools"][0];
    let catalog = aksgpu::catalog::Catalog::bundled().expect("catalog");
    let per_node = catalog.price("Standard_NC24ads_A100_v4", "eastus").and_then(|p| p.linux).expect("bundled price");
    assert_eq!(
        (&c["pool"], &c["vm_size"], &c["region"], &c["price_kind"], &c["min_nodes"], &c["max_nodes"]),
        (
            &json!("gpu"),
            &json!("Standard_NC24ads_A100_v4"),
            &json!("eastus"),
            &json!("linux on-demand"),
            &json!(1),
            &json!(4)
        )
    );
    assert_eq!(c["price_per_node_hour"], json!(per_node));
    assert_eq!(c["hourly_at_max"], json!(aksgpu::cost::hourly(Some(per_node), 4).expect("priced")));
    assert!(c["unknown"].is_null(), "{c}");
    // The table ends with the cost rows.
    let t = scale(&arm, &cache, &["--count", "2", "--dry-run"]);
    assert_eq!(t.code, 0, "{}", t.stderr);
    assert!(t.stdout.contains("Cost (list prices") && t.stdout.contains("min 2"), "{}", t.stdout);
    // A pool that is not there: refused as the real run would, after reading.
    let gone = run(
        &arm,
        &cache,
        &["pool", "scale", "-g", "rg", "--cluster", "c1", "--name", "nope", "--count", "1", "--dry-run"],
    );
    assert_eq!(gone.code, 1, "{}", gone.stderr);
    assert!(gone.stderr.contains("pool nope does not exist"), "{}", gone.stderr);
    assert_eq!(arm.count("PUT", "/"), 0);
    // No credentials: nothing is read, and the cost says why it is unknown.
    let args = ["pool", "scale", "-g", "rg", "--cluster", "c1", "--name", "gpu", "--count", "2", "--dry-run"];
    let before = arm.calls().len();
    let off = aksgpu_with(&[&args[..], &["-o", "json"]].concat(), &[("AKSGPU_ARM_ENDPOINT", &arm.base)]);
    assert_eq!(off.code, 0, "{}", off.stderr);
    assert_eq!(arm.calls().len(), before, "an offline dry run reads nothing");
    let why = off.json()["cost"]["pools"][0]["unknown"].as_str().unwrap_or_default().to_owned();
    assert_eq!(why, "needs the pool's size and region (read with credentials)");
    let off = aksgpu_with(&args, &[("AKSGPU_ARM_ENDPOINT", &arm.base)]);
    assert!(
        off.stdout.contains("gpu: price unknown: needs the pool's size and region (read with credentials)"),
        "{}",
        off.stdout
    );
}

/// `apply --dry-run` without credentials cannot know the cluster's region: the cost says so
/// and why, and does not point at a flag apply does not have.
#[test]
fn apply_offline_says_why_the_region_is_unknown() {
    let dir = temp_dir("apply-offline-region");
    let file = dir.join("gpu.yaml");
    std::fs::write(&file, "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n  - {name: gpu, vmSize: Standard_NC24ads_A100_v4, count: 1}\n").expect("write");
    let arm = FakeArm::start();
    let r = aksgpu_with(
        &["apply", "-f", file.to_str().expect("utf8"), "--dry-run", "-o", "json"],
        &[("AKSGPU_ARM_ENDPOINT", &arm.base)],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let why = r.json()["cost"]["pools"][0]["unknown"].as_str().unwrap_or_default().to_owned();
    assert!(why.contains("region") && why.contains("credentials"), "{why}");
    assert!(!why.contains("--location") && !why.contains("--region"), "{why}");
}

/// `recommend --currency EUR` and the plans' cost lines price from the EUR cache alone, with
/// € in the table headers and `currency` in the JSON; `--max-price-per-hour` is then in euros
/// (a note says so). Without a EUR cache: exit 2 and the refresh command. Bundled USD prices
/// are never relabelled.
#[test]
fn recommend_and_plans_in_euros_come_from_a_euro_cache_only() {
    let arm = FakeArm::start();
    let cache = temp_dir("prices-eur-recommend");
    let a100 = "Standard_NC24ads_A100_v4";
    let product = "Virtual Machines NCadsA100v4 Series";
    let rec = ["recommend", "--gpu-model", "A100", "-l", "eastus", "--currency", "EUR"];
    let none = run(&arm, &cache, &rec);
    assert_eq!(none.code, 2, "{}", none.stderr);
    assert!(none.stderr.contains("aksgpu prices refresh --currency EUR"), "{}", none.stderr);
    let dry = ["create-pool", "-g", "rg", "--cluster", "c1", "--name", "gpu", "--vm-size", a100, "-l", "eastus"];
    let dry = [&dry[..], &["--dry-run", "--skip-preflight", "--currency", "EUR"]].concat();
    let none = run(&arm, &cache, &dry);
    assert_eq!(none.code, 2, "{}", none.stderr);
    assert!(none.stderr.contains("aksgpu prices refresh --currency EUR"), "{}", none.stderr);

    arm.with(|s| s.retail_items = vec![euro(item(a100, "eastus", product, "NC24ads A100 v4", 3.21))]);
    let r = run(&arm, &cache, &["prices", "refresh", "--currency", "EUR", "--region", "eastus", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);

    let table = run(&arm, &cache, &rec);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(table.stdout.contains("€/HOUR") && table.stdout.contains("€3.21"), "{}", table.stdout);
    assert!(!table.stdout.contains("$/HOUR"), "{}", table.stdout);
    let json = run(&arm, &cache, &[&rec[..], &["-o", "json"]].concat());
    let v = json.json();
    assert_eq!(v["currency"], "EUR");
    assert_eq!(v["recommendations"][0]["vm_size"], a100);
    assert_eq!(v["recommendations"][0]["price_per_hour"], 3.21);
    // The limit is in euros: €3.20 rules the €3.21 size out, and a note says which currency.
    let capped = run(&arm, &cache, &[&rec[..], &["--max-price-per-hour", "3.2"]].concat());
    assert!(capped.stderr.contains("--max-price-per-hour is in EUR"), "{}", capped.stderr);
    assert!(!capped.stdout.contains(a100), "{}", capped.stdout);
    // The dry run's cost line is in euros.
    let plan = run(&arm, &cache, &dry);
    assert_eq!(plan.code, 0, "{}", plan.stderr);
    let usd = format!("${:.2}", bundled_linux_price(a100, "eastus"));
    assert!(plan.stdout.contains("€3.21") && !plan.stdout.contains(&usd), "{}", plan.stdout);
    // diff and apply --dry-run price the file's pools in the cluster's region (eastus) in euros.
    let file = cache.join("gpu.yaml");
    std::fs::write(&file, format!("apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {{resourceGroup: rg, name: c1}}\npools:\n  - {{name: gpu, vmSize: {a100}, count: 1}}\n")).expect("write");
    let f = file.to_str().expect("utf8");
    for verb in [&["diff", "-f", f][..], &["apply", "-f", f, "--dry-run"][..]] {
        let r = run(&arm, &cache, &[verb, &["--currency", "EUR", "-o", "json"]].concat());
        assert!(r.code == 0 || r.code == 1, "{verb:?}: {}", r.stderr);
        let c = &r.json()["cost"]["pools"][0];
        assert_eq!((c["currency"].clone(), c["hourly_at_max"].clone()), (json!("EUR"), json!(3.21)), "{verb:?}: {c}");
    }
    // USD stays the bundled table, with no cache read.
    let usd = run(&arm, &cache, &["recommend", "--gpu-model", "A100", "-l", "eastus", "-o", "json"]);
    assert_eq!(usd.json()["currency"], "USD");
}
