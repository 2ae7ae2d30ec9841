//! Getting the GPUs: `create-pool` failover across sizes, zones and priority, preflight
//! skips, clean-up of failed pools this run created, capacity reservation groups, and
//! `quota show|request`, all against the fake ARM server.

use serde_json::{json, Value};

use crate::fake_arm::{pool_path, FakeArm, PutFailure, SUB};
use crate::support::{aksgpu_arm, CreatePool, Run};

const A100: &str = "Standard_NC24ads_A100_v4";
const T4_SIZE: &str = "Standard_NC4as_T4_v3";
const A10: &str = "Standard_NV36ads_A10_v5";
const CAPACITY: [&str; 5] = [
    "AllocationFailed",
    "ZonalAllocationFailed",
    "OverconstrainedAllocationRequest",
    "OverconstrainedZonalAllocationRequest",
    "SkuNotAvailable",
];

fn create(arm: &FakeArm, extra: &[&str]) -> Run {
    aksgpu_arm(&arm.base, &CreatePool::new().with(extra).args(), &[])
}

fn puts(arm: &FakeArm) -> Vec<Value> {
    arm.log().iter().filter(|r| r.method == "PUT").map(|r| r.json()).collect()
}

fn put_sizes(arm: &FakeArm) -> Vec<String> {
    puts(arm).iter().map(|b| b["properties"]["vmSize"].as_str().unwrap_or("").to_owned()).collect()
}

fn outcomes(v: &Value) -> Vec<(String, String)> {
    v["attempts"]
        .as_array()
        .unwrap_or_else(|| panic!("no attempts in {v}"))
        .iter()
        .map(|a| (a["vm_size"].as_str().unwrap_or("").to_owned(), a["outcome"].as_str().unwrap_or("").to_owned()))
        .collect()
}

fn pair(size: &str, outcome: &str) -> (String, String) {
    (size.to_owned(), outcome.to_owned())
}

/// Requests (method, last path segment) from the first PUT on.
fn after_first_put(arm: &FakeArm) -> Vec<String> {
    arm.calls()
        .iter()
        .skip_while(|(m, _)| m != "PUT")
        .map(|(m, p)| format!("{m} {}", p.rsplit('/').next().unwrap_or("")))
        .collect()
}

#[test]
fn each_capacity_code_sync_and_async_fails_over_to_the_next_size() {
    for code in CAPACITY {
        for sync in [true, false] {
            let arm = FakeArm::start();
            arm.with(|s| s.put_failures.push(PutFailure::code(A100, code, sync)));
            let r = create(&arm, &["--fallback-vm-size", T4_SIZE, "-o", "json"]);
            assert_eq!(r.code, 0, "{code} sync={sync}: {}", r.stderr);
            let v = r.json();
            assert_eq!(outcomes(&v), [pair(A100, "capacity"), pair(T4_SIZE, "created")], "{code} sync={sync}");
            assert_eq!(v["attempts"][0]["code"], code);
            assert_eq!(v["created"], json!({"vm_size": T4_SIZE, "zones": [], "spot": false}));
            assert_eq!(put_sizes(&arm), [A100, T4_SIZE], "{code} sync={sync}");
            // Only a pool this run created (async: accepted, then Failed) is deleted, and the
            // next PUT waits until GET says 404.
            let deletes = arm.count("DELETE", &pool_path("c1", "gpu"));
            assert_eq!(deletes, usize::from(!sync), "{code} sync={sync}: {:?}", arm.calls());
            if !sync {
                let seq = after_first_put(&arm);
                let del = seq.iter().position(|c| c == "DELETE gpu").expect("delete");
                let second_put = seq.iter().rposition(|c| c == "PUT gpu").expect("second put");
                assert!(del < second_put, "{seq:?}");
                assert!(seq[del + 1..second_put].iter().filter(|c| *c == "GET gpu").count() >= 2, "{seq:?}");
            }
        }
    }
}

#[test]
fn quota_failures_fail_over_and_the_message_gives_the_quota_request_command() {
    let arm = FakeArm::start();
    arm.with(|s| {
        s.put_failures.push(PutFailure::code(A100, "QuotaExceeded", true));
        s.put_failures.push(PutFailure::code(T4_SIZE, "ErrCode_InsufficientVCPUQuota", false));
        let mut busy = PutFailure::code(A10, "OperationNotAllowed", true);
        busy.error["error"]["message"] =
            json!("Operation could not be completed as it results in exceeding approved Total Regional Cores quota.");
        s.put_failures.push(busy);
    });
    let r = create(&arm, &["--fallback-vm-size", T4_SIZE, "--fallback-vm-size", A10, "-o", "json"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let v = r.json();
    assert_eq!(outcomes(&v), [pair(A100, "quota"), pair(T4_SIZE, "quota"), pair(A10, "quota")]);
    assert_eq!(v["created"], Value::Null);
    let cmd = format!("aksgpu quota request --subscription {SUB} --location eastus --vm-size {A10} --nodes 1");
    assert!(v["next_steps"][0].as_str().expect("step").contains(&cmd), "{}", v["next_steps"]);
    assert!(r.stderr.contains(&cmd) && r.stderr.contains("another region"), "{}", r.stderr);
    assert!(r.stderr.contains("all 3 attempt(s) failed"), "{}", r.stderr);
}

#[test]
fn a_restricted_size_and_a_quota_short_size_are_skipped_without_a_put() {
    let arm = FakeArm::start();
    arm.with(|s| {
        for sku in &mut s.skus {
            if sku["name"] == A100 {
                sku["restrictions"] =
                    json!([{"type": "Location", "values": ["eastus"], "reasonCode": "NotAvailableForSubscription"}]);
            }
        }
        // The T4 size has 4 vCPUs × (1 node + 1 surge) = 8 > 6 free.
        s.set_usage_limit("standardNCASv3_T4Family", 6);
    });
    let r = create(&arm, &["--fallback-vm-size", T4_SIZE, "--fallback-vm-size", A10, "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(outcomes(&v), [pair(A100, "restricted"), pair(T4_SIZE, "quota"), pair(A10, "created")]);
    assert!(v["attempts"][0]["message"].as_str().expect("msg").contains("NotAvailableForSubscription"));
    assert!(v["attempts"][1]["message"].as_str().expect("msg").contains("needs 8"), "{}", v["attempts"][1]);
    assert_eq!(put_sizes(&arm), [A10]);
}

#[test]
fn a_zonal_capacity_failure_tries_each_zone_alone_before_the_next_size() {
    let arm = FakeArm::start();
    arm.with(|s| {
        for zones in [vec!["1", "2", "3"], vec!["1"]] {
            let mut f = PutFailure::code(A100, "ZonalAllocationFailed", false);
            f.zones = Some(zones.into_iter().map(str::to_owned).collect());
            s.put_failures.push(f);
        }
    });
    let r = create(&arm, &["--zones", "1,2,3", "--fallback-vm-size", T4_SIZE, "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let zones: Vec<Value> = puts(&arm).iter().map(|b| b["properties"]["availabilityZones"].clone()).collect();
    assert_eq!(zones, [json!(["1", "2", "3"]), json!(["1"]), json!(["2"])]);
    assert_eq!(r.json()["created"], json!({"vm_size": A100, "zones": ["2"], "spot": false}));
    assert_eq!(arm.count("DELETE", "/agentPools/gpu"), 2);
}

#[test]
fn a_pool_that_existed_before_the_run_is_never_deleted_and_gets_no_failover() {
    let arm = FakeArm::start();
    let mut existing = json!({"id": pool_path("c1", "gpu"), "name": "gpu",
        "properties": {"vmSize": T4_SIZE, "count": 1, "mode": "User", "provisioningState": "Failed"}});
    existing["properties"]["osType"] = json!("Linux");
    arm.put_pool("c1", "gpu", existing);
    arm.with(|s| s.put_failures.push(PutFailure::code(A100, "AllocationFailed", false)));
    let r = create(&arm, &["--fallback-vm-size", A10]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("already exists"), "{}", r.stderr);
    assert_eq!(arm.count("DELETE", "/"), 0);
    assert_eq!(arm.count("PUT", "/"), 0);
}

#[test]
fn max_attempts_caps_the_puts() {
    let arm = FakeArm::start();
    arm.with(|s| {
        for size in [A100, T4_SIZE, A10] {
            s.put_failures.push(PutFailure::code(size, "AllocationFailed", true));
        }
    });
    let r =
        create(&arm, &["--fallback-vm-size", T4_SIZE, "--fallback-vm-size", A10, "--max-attempts", "2", "-o", "json"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(put_sizes(&arm), [A100, T4_SIZE]);
    assert_eq!(outcomes(&r.json()), [pair(A100, "capacity"), pair(T4_SIZE, "capacity")]);
    assert!(r.stderr.contains("reserve capacity"), "{}", r.stderr);
}

#[test]
fn recommend_failover_defaults_to_three_attempts_in_the_clusters_region() {
    let arm = FakeArm::start();
    arm.with(|s| s.put_failures.push(PutFailure::code("*", "AllocationFailed", true)));
    let args = [
        "create-pool",
        "-g",
        "rg",
        "--cluster",
        "c1",
        "--name",
        "gpu",
        "--yes",
        "--recommend",
        "--model",
        "llama-3.1-8b",
        "--failover",
        "--skip-preflight",
        "-o",
        "json",
    ];
    let r = aksgpu_arm(&arm.base, &args, &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("failover candidates in eastus"), "{}", r.stderr);
    let sizes = put_sizes(&arm);
    assert_eq!(sizes.len(), 3, "{sizes:?}");
    assert_eq!(outcomes(&r.json()).len(), 3);
    let mut unique = sizes.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 3, "{sizes:?}");
}

#[test]
fn a_failure_that_is_not_about_capacity_stops_at_once() {
    let arm = FakeArm::start();
    arm.with(|s| {
        let mut f = PutFailure::code(A100, "InvalidParameter", true);
        f.error = json!({"code": "InvalidParameter", "message": "The value of parameter orchestratorVersion is invalid.", "target": "orchestratorVersion"});
        s.put_failures.push(f);
    });
    let r = create(&arm, &["--fallback-vm-size", T4_SIZE]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("InvalidParameter"), "{}", r.stderr);
    assert_eq!(put_sizes(&arm), [A100]);
    assert_eq!(arm.count("DELETE", "/"), 0);
}

#[test]
fn spot_capacity_failure_moves_to_on_demand_of_the_same_size() {
    let arm = FakeArm::start();
    arm.with(|s| {
        let mut f = PutFailure::code(A100, "OverconstrainedAllocationRequest", false);
        f.spot = Some(true);
        s.put_failures.push(f);
    });
    let r = create(&arm, &["--spot", "--fallback-on-demand", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let bodies = puts(&arm);
    assert_eq!(bodies.len(), 2);
    assert_eq!(bodies[0]["properties"]["scaleSetPriority"], "Spot");
    assert!(bodies[1]["properties"].get("scaleSetPriority").is_none(), "{}", bodies[1]);
    assert_eq!(bodies[1]["properties"]["vmSize"], A100);
    assert_eq!(r.json()["created"]["spot"], false);
}

#[test]
fn the_same_request_is_never_sent_twice() {
    let arm = FakeArm::start();
    arm.with(|s| {
        s.put_failures.push(PutFailure::code(A100, "ZonalAllocationFailed", true));
        s.put_failures.push(PutFailure::code(T4_SIZE, "ZonalAllocationFailed", true));
    });
    // A100 is named twice; zone 1 alone comes up for both sizes.
    let r = create(&arm, &["--zones", "1", "--fallback-vm-size", A100, "--fallback-vm-size", T4_SIZE, "-o", "json"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(put_sizes(&arm), [A100, T4_SIZE]);
    let bodies: Vec<String> = puts(&arm).iter().map(Value::to_string).collect();
    let mut unique = bodies.clone();
    unique.dedup();
    assert_eq!(bodies, unique);
}

#[test]
fn dry_run_lists_the_candidates_with_preflight_verdicts_and_writes_nothing() {
    let arm = FakeArm::start();
    arm.with(|s| {
        for sku in &mut s.skus {
            if sku["name"] == T4_SIZE {
                sku["restrictions"] =
                    json!([{"type": "Location", "values": ["eastus"], "reasonCode": "NotAvailableForSubscription"}]);
            }
        }
    });
    let r = create(&arm, &["--fallback-vm-size", T4_SIZE, "--fallback-vm-size", A10, "--dry-run", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    let verdicts: Vec<(String, String)> = v["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .map(|c| (c["vm_size"].as_str().unwrap_or("").to_owned(), c["preflight"].as_str().unwrap_or("").to_owned()))
        .collect();
    assert_eq!(verdicts, [pair(A100, "go"), pair(T4_SIZE, "restricted"), pair(A10, "go")]);
    assert!(arm.log().iter().all(|r| r.method == "GET"), "{:?}", arm.calls());
    let table = create(&arm, &["--fallback-vm-size", T4_SIZE, "--fallback-vm-size", A10, "--dry-run"]);
    assert!(table.stdout.contains("PREFLIGHT") && table.stdout.contains("restricted"), "{}", table.stdout);
}

/// The table people see (the README's "When Azure has no capacity" shows this run).
#[test]
fn attempts_table_for_people() {
    let arm = FakeArm::start();
    arm.with(|s| {
        let mut zonal = PutFailure::code(A100, "ZonalAllocationFailed", false);
        zonal.zones = Some(vec!["1".into(), "2".into()]);
        s.put_failures.push(zonal);
        for z in ["1", "2"] {
            let mut f = PutFailure::code(A100, "AllocationFailed", true);
            f.zones = Some(vec![z.into()]);
            s.put_failures.push(f);
        }
        s.set_usage_limit("standardNCASv3_T4Family", 4);
    });
    let r = create(&arm, &["--zones", "1,2", "--fallback-vm-size", T4_SIZE, "--fallback-vm-size", A10]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(lines[0].starts_with("Created pool gpu in cluster c1 as Standard_NV36ads_A10_v5"), "{}", r.stdout);
    assert!(lines[1].contains("VM SIZE") && lines[1].contains("OUTCOME"), "{}", r.stdout);
    assert_eq!(lines.len(), 7, "{}", r.stdout);
    insta::assert_snapshot!("failover-attempts-table", r.stdout);
    let args = CreatePool::new().name("gpu2").with(&["--zones", "1,2", "--fallback-vm-size", T4_SIZE, "-o", "json"]);
    let json = aksgpu_arm(&arm.base, &args.args(), &[]);
    assert_eq!(json.code, 1, "{}", json.stderr);
    insta::assert_snapshot!("failover-attempts-failed-json", json.stdout);
}

fn crg_id(name: &str) -> String {
    format!("/subscriptions/{SUB}/resourceGroups/rg/providers/Microsoft.Compute/capacityReservationGroups/{name}")
}

fn add_group(arm: &FakeArm, name: &str, location: &str, size: &str, capacity: u64, allocated: usize) {
    let vms: Vec<Value> = (0..allocated).map(|i| json!({"id": format!("/vm{i}")})).collect();
    let group = json!({"id": crg_id(name), "name": name, "location": location,
        "properties": {"capacityReservations": [{"id": format!("{}/capacityReservations/r1", crg_id(name))}],
            "instanceView": {"capacityReservations": [{"name": "r1", "utilizationInfo": {"currentCapacity": capacity, "virtualMachinesAllocated": vms}}]}}});
    let res = json!({"name": "r1", "location": location, "sku": {"name": size, "capacity": capacity}, "properties": {"provisioningState": "Succeeded"}});
    arm.with(|s| s.reservation_groups.insert(crg_id(name).to_ascii_lowercase(), (group, vec![res])));
}

#[test]
fn a_capacity_reservation_group_is_checked_before_any_write_and_sent_on_the_pool() {
    let arm = FakeArm::start();
    add_group(&arm, "crgwest", "westus", A100, 4, 0);
    add_group(&arm, "crgt4", "eastus", T4_SIZE, 4, 0);
    add_group(&arm, "crgfull", "eastus", A100, 2, 2);
    add_group(&arm, "crgok", "eastus", A100, 3, 1);
    for (name, want) in [
        ("crgmissing", "does not exist"),
        ("crgwest", "is in westus, but the cluster is in eastus"),
        ("crgt4", "holds no reservation for Standard_NC24ads_A100_v4 (it reserves Standard_NC4as_T4_v3)"),
        ("crgfull", "has 0 free Standard_NC24ads_A100_v4 instance(s); the pool asks for 2"),
    ] {
        let r = create(&arm, &["--count", "2", "--capacity-reservation-group", &crg_id(name)]);
        assert_eq!(r.code, 1, "{name}: {}", r.stderr);
        assert!(r.stderr.contains(want), "{name}: {}", r.stderr);
        assert_eq!(arm.count("PUT", "/"), 0, "{name}");
    }
    let r = create(&arm, &["--count", "2", "--capacity-reservation-group", &crg_id("crgok")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(puts(&arm)[0]["properties"]["capacityReservationGroupID"], crg_id("crgok"));
    let bad = create(&arm, &["--capacity-reservation-group", "crg1"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
}

fn quota(arm: &FakeArm, args: &[&str]) -> Run {
    aksgpu_arm(&arm.base, args, &[])
}

const FAMILY: &str = "standardNCADSA100v4Family";

#[test]
fn quota_show_gives_usage_limit_and_the_nodes_that_still_fit() {
    let arm = FakeArm::start();
    let r = quota(&arm, &["quota", "show", "--location", "eastus", "--vm-size", A100, "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["usages"][0], json!({"name": FAMILY, "display": FAMILY, "used": 0, "limit": 96, "free": 96}));
    assert_eq!(v["usages"][1]["name"], "cores");
    // 24 vCPUs × (3 nodes + 1 surge) = 96.
    assert_eq!(v["nodes_that_fit"], 3);
    let all = quota(&arm, &["quota", "show", "--location", "eastus"]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    for fam in [FAMILY, "standardNCASv3_T4Family", "cores"] {
        assert!(all.stdout.contains(fam), "{fam}: {}", all.stdout);
    }
}

fn quota_request(arm: &FakeArm, extra: &[&str]) -> Run {
    let mut args = vec!["quota", "request", "--location", "eastus", "--yes", "-o", "json"];
    args.extend_from_slice(extra);
    quota(arm, &args)
}

#[test]
fn quota_request_succeeds_counting_surge_nodes() {
    let arm = FakeArm::start();
    let r = quota_request(&arm, &["--vm-size", A100, "--nodes", "4"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!((v["status"].as_str(), v["from"].as_u64(), v["to"].as_u64()), (Some("Succeeded"), Some(96), Some(120)));
    let puts: Vec<_> = arm.log().into_iter().filter(|r| r.method == "PUT").collect();
    assert_eq!(puts.len(), 1);
    assert!(puts[0].target.contains(&format!("/providers/Microsoft.Compute/locations/eastus/providers/Microsoft.Quota/quotas/{FAMILY}?api-version=2025-09-01")), "{}", puts[0].target);
    assert_eq!(
        puts[0].json(),
        json!({"properties": {"limit": {"limitObjectType": "LimitValue", "value": 120}, "name": {"value": FAMILY}}})
    );
    assert!(arm.count("GET", "/quotaRequests/") >= 2, "{:?}", arm.calls());
    let after = quota(&arm, &["quota", "show", "--location", "eastus", "--family", FAMILY, "-o", "json"]);
    assert_eq!(after.json()["usages"][0]["limit"], 120);
}

#[test]
fn quota_request_failed_gives_azures_reason() {
    let arm = FakeArm::start();
    arm.with(|s| s.quota_statuses = vec!["InProgress".into(), "Failed".into()]);
    let r = quota_request(&arm, &["--family", FAMILY, "--limit", "200"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.json()["code"], "ContactSupport");
    assert!(
        r.stderr.contains("did not grant") && r.stderr.contains("Request failed, please contact support."),
        "{}",
        r.stderr
    );
}

#[test]
fn quota_request_still_in_progress_at_the_timeout_exits_4_with_the_check_command() {
    let arm = FakeArm::start();
    arm.with(|s| s.quota_statuses = vec!["InProgress".into()]);
    let r = quota_request(&arm, &["--family", FAMILY, "--limit", "200", "--timeout", "1s"]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    let id = r.json()["request_id"].as_str().expect("id").to_owned();
    let check = format!("aksgpu quota show --subscription {SUB} --location eastus --family {FAMILY} --request {id}");
    assert!(r.stderr.contains(&check), "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 1);
    let later =
        quota(&arm, &["quota", "show", "--location", "eastus", "--family", FAMILY, "--request", &id, "-o", "json"]);
    assert_eq!(later.json()["state"], "InProgress", "{}", later.stderr);
}

#[test]
fn quota_request_never_lowers_a_limit_and_dry_run_sends_nothing() {
    let arm = FakeArm::start();
    let lower = quota_request(&arm, &["--family", FAMILY, "--limit", "50"]);
    assert_eq!(lower.code, 2, "{}", lower.stderr);
    assert!(lower.stderr.contains("never lowers a limit"), "{}", lower.stderr);
    let same = quota_request(&arm, &["--family", FAMILY, "--limit", "96"]);
    assert_eq!((same.code, same.json()["status"].as_str()), (0, Some("enough")), "{}", same.stderr);
    let dry = quota_request(&arm, &["--vm-size", A100, "--nodes", "9", "--dry-run"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    let v = dry.json();
    // The usages it read, then the PUT: 24 × (9 + 1) = 240.
    assert_eq!(v["steps"][0]["method"], "GET");
    assert_eq!(v["steps"][1]["body"]["properties"]["limit"]["value"], 240);
    assert_eq!(v["steps"][1]["method"], "PUT");
    assert!(arm.log().iter().all(|r| r.method == "GET"), "{:?}", arm.calls());
}

#[test]
fn a_gpuconfig_pool_fails_over_through_fallback_vm_sizes() {
    let arm = FakeArm::start();
    arm.with(|s| s.put_failures.push(PutFailure::code(A100, "SkuNotAvailable", true)));
    let dir = crate::support::temp_dir("capacity-gpuconfig");
    let file = dir.join("gpu.yaml");
    let text = format!(
        "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {{resourceGroup: rg, name: c1}}\npools:\n  - name: gpu\n    vmSize: {A100}\n    fallbackVmSizes: [{T4_SIZE}]\n"
    );
    std::fs::write(&file, text).expect("write");
    let r = aksgpu_arm(&arm.base, &["apply", "-f", file.to_str().expect("path"), "--yes", "-o", "json"], &[]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(put_sizes(&arm), [A100, T4_SIZE]);
    let bad = format!(
        "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {{resourceGroup: rg, name: c1}}\npools:\n  - name: gpu\n    vmSize: {A100}\n    migProfile: MIG1g\n    fallbackVmSizes: [{T4_SIZE}]\n"
    );
    std::fs::write(&file, bad).expect("write");
    let r = aksgpu_arm(&arm.base, &["apply", "-f", file.to_str().expect("path"), "--yes"], &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("pools[0].fallbackVmSizes"), "{}", r.stderr);
}

#[test]
fn recommend_ranks_the_reserved_sizes_first() {
    let arm = FakeArm::start();
    let ask = ["recommend", "--workload", "inference", "--model", "llama-3.1-8b", "--region", "eastus", "-o", "json"];
    let plain = aksgpu_arm(&arm.base, &ask, &[]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    let sizes: Vec<String> = plain.json()["recommendations"]
        .as_array()
        .expect("recommendations")
        .iter()
        .map(|r| r["vm_size"].as_str().unwrap_or("").to_owned())
        .collect();
    assert!(sizes.len() >= 2, "{sizes:?}");
    add_group(&arm, "crgrec", "eastus", &sizes[1], 4, 1);
    let mut with = ask.to_vec();
    let id = crg_id("crgrec");
    with.extend(["--capacity-reservation-group", &id]);
    let r = aksgpu_arm(&arm.base, &with, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["recommendations"][0]["vm_size"], sizes[1].as_str());
    assert_eq!(v["recommendations"][0]["reasons"][0], "reserved in crgrec: 3 instance(s) free");
    assert_eq!(v["recommendations"][1]["vm_size"], sizes[0].as_str());
    let missing = aksgpu_arm(&arm.base, &[&ask[..], &["--capacity-reservation-group", &crg_id("nope")]].concat(), &[]);
    assert_eq!(missing.code, 1, "{}", missing.stderr);
}

#[test]
fn with_a_reservation_failover_skips_the_sizes_it_does_not_hold() {
    let arm = FakeArm::start();
    add_group(&arm, "crgt4", "eastus", T4_SIZE, 2, 0);
    let r =
        create(&arm, &["--fallback-vm-size", T4_SIZE, "--capacity-reservation-group", &crg_id("crgt4"), "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(outcomes(&r.json()), [pair(A100, "restricted"), pair(T4_SIZE, "created")]);
    assert_eq!(put_sizes(&arm), [T4_SIZE]);
}

#[test]
fn a_zone_restricted_for_the_subscription_is_skipped_and_the_open_zones_tried() {
    let arm = FakeArm::start();
    arm.with(|s| {
        for sku in &mut s.skus {
            if sku["name"] == A100 {
                sku["restrictions"] = json!([{"type": "Zone", "values": ["eastus"], "restrictionInfo": {"zones": ["1"]}, "reasonCode": "NotAvailableForSubscription"}]);
            }
        }
    });
    let r = create(&arm, &["--zones", "1,2", "--fallback-vm-size", T4_SIZE, "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    let got: Vec<(String, Value)> = v["attempts"]
        .as_array()
        .expect("attempts")
        .iter()
        .map(|a| (a["outcome"].as_str().unwrap_or("").to_owned(), a["zones"].clone()))
        .collect();
    assert_eq!(
        got,
        [("restricted".to_owned(), json!(["1", "2"])), ("created".to_owned(), json!(["2"]))],
        "the restricted zone is not a row of its own"
    );
    assert_eq!(puts(&arm).len(), 1);
}

/// Each recommended failover candidate runs the nodes its own deployment needs, as `recommend`
/// gives them for the same service, not the first size's count nor the default of one.
#[test]
fn recommend_failover_gives_each_size_its_recommended_nodes() {
    let service = ["--model", "qwen3-30b-a3b", "--concurrency", "32", "--min-tokens-per-second-per-user", "40"];
    let mut rec = vec!["recommend", "--location", "eastus", "-o", "json"];
    rec.extend(service);
    let ranked = crate::support::aksgpu(&rec);
    assert_eq!(ranked.code, 0, "{}", ranked.stderr);
    let nodes: std::collections::HashMap<String, u64> = ranked.json()["recommendations"]
        .as_array()
        .expect("recommendations")
        .iter()
        .map(|r| (r["vm_size"].as_str().unwrap_or_default().to_owned(), r["serving"]["nodes"].as_u64().unwrap_or(0)))
        .collect();
    assert!(nodes.values().any(|n| *n > 1), "the service needs several nodes on some size: {nodes:?}");
    let arm = FakeArm::start();
    arm.with(|s| s.put_failures.push(PutFailure::code("*", "AllocationFailed", true)));
    let mut args = vec!["create-pool", "-g", "rg", "--cluster", "c1", "--name", "gpu", "--yes", "--recommend"];
    args.extend(service);
    args.extend(["--failover", "--skip-preflight", "-o", "json"]);
    let r = aksgpu_arm(&arm.base, &args, &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let bodies = puts(&arm);
    assert!(bodies.len() > 1, "{}", r.stderr);
    for b in &bodies {
        let size = b["properties"]["vmSize"].as_str().expect("vmSize");
        assert_eq!(b["properties"]["count"].as_u64(), nodes.get(size).copied(), "{size}: {}", r.stderr);
    }
}
