//! Every fact is read once per run and shared by every step: counted and ordered in the fake
//! ARM server's request log (never timed). A request's `round` is its round trip: reads sent
//! at once share one, and a request that had to wait for an answer is in a later one.

use std::path::Path;

use crate::fake_arm::{cluster_path, FakeArm, LroStyle, Recorded, SUB};
use crate::support::{aksgpu_arm, aksgpu_with, temp_dir, CreatePool, Run};

/// Far longer than concurrent requests take to arrive, so that rounds are told apart.
const LATENCY: std::time::Duration = std::time::Duration::from_millis(150);

/// A fake that adds `LATENCY` to every answer, answers each list in one page and creates
/// pools synchronously (no polls).
fn slow_arm() -> FakeArm {
    let arm = FakeArm::start();
    arm.with(|s| {
        s.latency = LATENCY;
        s.page_size = 100;
        s.trailing_empty_page = false;
        s.lro_style = LroStyle::Sync;
    });
    arm
}

fn create(arm: &FakeArm, cache: &Path, pool: &'static str, extra: &[&str]) -> Run {
    let create = CreatePool::new().name(pool).with(extra);
    let r = aksgpu_arm(&arm.base, &create.args(), &[("AKSGPU_CACHE_DIR", cache.to_str().expect("utf-8"))]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r
}

/// The round of the one request whose method is `method` and whose target contains `what`.
fn round_of(log: &[Recorded], method: &str, what: &str) -> usize {
    let hits: Vec<&Recorded> = log.iter().filter(|r| r.method == method && r.target.contains(what)).collect();
    assert_eq!(hits.len(), 1, "{method} {what}: {:?}", log.iter().map(|r| &r.target).collect::<Vec<_>>());
    hits[0].round
}

fn locations_file(cache: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(cache.join("locations.json")).expect("locations.json");
    serde_json::from_str(&text).expect("JSON")
}

/// With `--location`, preflight's four reads go out at once and the PUT follows: one round
/// trip before the PUT.
#[test]
fn preflight_with_location_is_one_round_trip_before_the_put() {
    let arm = slow_arm();
    let cache = temp_dir("facts-with-location");
    create(&arm, &cache, "gpu", &["--location", "eastus"]);
    let log = arm.log();
    // The fifth read: the pools, for the GPU Operator's no-driver label.
    assert_eq!(log.len(), 6, "{:?}", arm.calls());
    for (what, _) in
        [("managedClusters/c1?", 0), ("agentPools/gpu?", 0), ("/skus?", 0), ("/usages?", 0), ("agentPools?", 0)]
    {
        assert_eq!(round_of(&log, "GET", what), 1, "{what}");
    }
    assert_eq!(round_of(&log, "PUT", "agentPools/gpu?"), 2);
}

/// Without `--location`, the first run against a cluster reads the cluster before the SKUs
/// and usages (two round trips before the PUT) and remembers its location; the next run
/// reads everything at once (one round trip), like `--location`.
#[test]
fn a_remembered_location_makes_preflight_one_round_trip() {
    let arm = slow_arm();
    let cache = temp_dir("facts-remembered");
    create(&arm, &cache, "gpu", &[]);
    let cold = arm.log();
    assert_eq!(round_of(&cold, "GET", "managedClusters/c1?"), 1);
    assert_eq!(round_of(&cold, "GET", "/skus?"), 2, "the SKUs need the location");
    assert_eq!(round_of(&cold, "PUT", "agentPools/gpu?"), 3);
    let key = format!("{SUB}/rg/c1");
    assert_eq!(locations_file(&cache)["clusters"][&key]["location"], "eastus");

    // Another run (a fresh server with the same cluster), with the same cache directory.
    let arm = slow_arm();
    create(&arm, &cache, "gpu2", &[]);
    let warm = arm.log();
    assert_eq!(warm.len(), 6, "{:?}", arm.calls());
    for what in ["managedClusters/c1?", "agentPools/gpu2?", "locations/eastus/usages?", "eastus%27", "agentPools?"] {
        assert_eq!(round_of(&warm, "GET", what), 1, "{what}");
    }
    assert_eq!(round_of(&warm, "PUT", "agentPools/gpu2?"), 2);
}

/// A remembered location the cluster contradicts is not trusted: the reads made for it are
/// discarded, the SKUs and usages are read for the cluster's own location, and the file is
/// corrected.
#[test]
fn a_wrong_remembered_location_is_read_again_and_corrected() {
    let arm = slow_arm();
    let cache = temp_dir("facts-wrong");
    let key = format!("{SUB}/rg/c1");
    let stale = serde_json::json!({"version": 1, "clusters": {key.clone(): {"location": "westus2", "written": 1}}});
    std::fs::write(cache.join("locations.json"), stale.to_string()).expect("write");
    create(&arm, &cache, "gpu", &[]);
    let log = arm.log();
    assert_eq!(round_of(&log, "GET", "locations/westus2/usages?"), 1, "the guess is read at once");
    assert_eq!(round_of(&log, "GET", "locations/eastus/usages?"), 2, "then the cluster's own location");
    assert_eq!(round_of(&log, "GET", "eastus%27"), 2);
    assert_eq!(round_of(&log, "PUT", "agentPools/gpu?"), 3);
    assert_eq!(locations_file(&cache)["clusters"][&key]["location"], "eastus");
}

/// A corrupt locations file is ignored (preflight reads the cluster first) and replaced.
#[test]
fn a_corrupt_locations_file_is_ignored_and_replaced() {
    let arm = slow_arm();
    let cache = temp_dir("facts-corrupt");
    std::fs::write(cache.join("locations.json"), "{\"version\": 1, \"clusters\": [tru").expect("write");
    create(&arm, &cache, "gpu", &[]);
    assert_eq!(round_of(&arm.log(), "GET", "/skus?"), 2);
    assert_eq!(locations_file(&cache)["clusters"][format!("{SUB}/rg/c1")]["location"], "eastus");
}

/// Room for ten one-node T4 pools together: 80 vCPUs of the T4 family (the fake's default
/// limit is 64).
fn room_for_ten(arm: &FakeArm) {
    arm.with(|s| s.set_usage_limit("standardNCASv3_T4Family", 80));
}

/// `apply -f` of ten new pools: one cluster GET, one agentPools list (which says whether each
/// pool exists), one SKU list, one usages list, then the ten PUTs: 14 requests.
#[test]
fn apply_of_ten_new_pools_sends_fourteen_requests() {
    let arm = slow_arm();
    room_for_ten(&arm);
    let dir = temp_dir("facts-apply-ten");
    let file = crate::support::ten_pool_config(&dir);
    let f = file.to_str().expect("utf-8");
    let r = aksgpu_arm(&arm.base, &["apply", "-f", f, "--yes", "-o", "json"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let log = arm.log();
    let calls: Vec<String> = log.iter().map(|r| format!("{} {}", r.method, r.target)).collect();
    assert_eq!(log.len(), 14, "{calls:#?}");
    let pools = format!("{}/agentPools?", cluster_path("c1"));
    assert_eq!(round_of(&log, "GET", &pools), 1, "{calls:#?}");
    assert_eq!(round_of(&log, "GET", "managedClusters/c1?"), 1);
    assert_eq!(round_of(&log, "GET", "/skus?"), round_of(&log, "GET", "/usages?"));
    let reads = log.iter().filter(|r| r.method == "GET").map(|r| r.round).max().expect("reads");
    let puts: Vec<&Recorded> = log.iter().filter(|r| r.method == "PUT").collect();
    assert_eq!(puts.len(), 10, "{calls:#?}");
    assert!(puts.iter().all(|p| p.round == reads + 1), "the PUTs go out together after the reads: {calls:#?}");

    // The dry run of the same file makes the same four reads, and its steps list exactly
    // them (each once) and the ten PUTs.
    let arm = slow_arm();
    room_for_ten(&arm);
    let r = aksgpu_arm(&arm.base, &["apply", "-f", f, "--dry-run", "-o", "json"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut read: Vec<String> = arm.log().iter().map(|x| format!("{} {}{}", x.method, arm.base, x.target)).collect();
    let steps = r.json()["steps"].as_array().expect("steps").clone();
    let mut shown: Vec<String> = steps
        .iter()
        // A repeated read is a wait after a write (the pool when its operation ends), not a fact.
        .filter(|s| s["method"] == "GET" && s.get("repeat").is_none())
        .map(|s| format!("GET {}", s["url"].as_str().expect("url")))
        .collect();
    read.sort();
    shown.sort();
    assert_eq!(read.len(), 4, "{read:#?}");
    assert_eq!(shown, read);
    assert_eq!(steps.iter().filter(|s| s["method"] == "PUT").count(), 10);
}

/// A dry run that needs no network builds no HTTP client (and so never loads the TLS root
/// certificates); one that reads builds exactly one.
#[test]
fn offline_dry_runs_build_no_http_client() {
    const BUILT: &str = "HTTP client built";
    let dir = temp_dir("facts-offline");
    let file = crate::support::ten_pool_config(&dir);
    let f = file.to_str().expect("utf-8");
    let create = CreatePool::new().with(&["--dry-run", "-vv"]);
    let offline = [
        vec!["apply", "-f", f, "--dry-run", "-vv"],
        create.args(),
        vec!["install-operator", "-g", "rg", "--cluster", "c1", "--dry-run", "-vv"],
    ];
    for args in &offline {
        let r = aksgpu_with(args, &[]);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains(BUILT), "{args:?}: {}", r.stderr);
    }
    let arm = FakeArm::start();
    room_for_ten(&arm);
    let r = aksgpu_arm(&arm.base, &["apply", "-f", f, "--dry-run", "-vv"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr.matches(BUILT).count(), 1, "{}", r.stderr);
}

/// A failed read is not remembered: the pool that waited on it reads again for itself.
/// Two new pools share the SKU list. Its first read (the check of the pools' quota together)
/// fails for good (4 × HTTP 500, the client's 3 retries spent): that check takes the families
/// from the catalog. The pools' own read fails for good too (4 more), so that pool fails, and
/// the other reads the list once more and is created.
#[test]
fn a_failed_read_is_not_shared() {
    let arm = FakeArm::start();
    arm.with(|s| {
        s.page_size = 100;
        s.trailing_empty_page = false;
        s.lro_style = LroStyle::Sync;
    });
    let boom = crate::fake_arm::respond(500, serde_json::json!({"error": {"code": "InternalError", "message": "x"}}));
    arm.fault("GET", "/skus?", 8, boom);
    let dir = temp_dir("facts-failed-read");
    let file = dir.join("two.yaml");
    let text = "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n  - {name: a, vmSize: Standard_NC4as_T4_v3, count: 1}\n  - {name: b, vmSize: Standard_NC4as_T4_v3, count: 1}\n";
    std::fs::write(&file, text).expect("write");
    let r = aksgpu_arm(&arm.base, &["apply", "-f", file.to_str().expect("utf-8"), "--yes", "-o", "json"], &[]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(arm.count("GET", "/skus?"), 9, "{:?}", arm.calls());
    assert_eq!(arm.count("GET", "/usages?"), 1, "the usages read succeeded and is shared");
    assert_eq!(arm.count("PUT", "/agentPools/"), 1, "{:?}", arm.calls());
}
