//! Outcomes Azure did not tell us, through the binary against the fake ARM server: an answer
//! too large to read after a write, a lost answer whose read-back fails too, a cluster PUT
//! accepted before the connection dropped, and a preview feature Azure no longer knows.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::fake_arm::{respond, respond_h, Action, FakeArm, Loss, SUB};
use crate::support::{aksgpu_arm, temp_dir, CreatePool, Run};

const ONE_POOL: &str = "apiVersion: aksgpu/v1
kind: GpuConfig
cluster: {resourceGroup: rg, name: c1}
pools:
  - name: gpu
    vmSize: Standard_NC4as_T4_v3
    count: 1
";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write file");
    p
}

fn file_cmd(arm: &FakeArm, verb: &str, file: &Path, extra: &[&str]) -> Run {
    let mut args = vec![verb, "-f", file.to_str().expect("utf-8 path")];
    args.extend_from_slice(extra);
    aksgpu_arm(&arm.base, &args, &[])
}

fn kaito(arm: &FakeArm) -> Run {
    aksgpu_arm(&arm.base, &["kaito", "enable", "--yes", "-g", "rg", "--cluster", "c1"], &[])
}

const OVER_CAP: usize = 9 * 1024 * 1024;

/// A 2xx answer to a PUT whose body is over the 8 MiB cap: Azure took the write, so it is an
/// unknown outcome, read back (the pool is there, Creating) and followed to Succeeded; one PUT.
#[test]
fn an_oversized_2xx_after_a_put_is_read_back_not_failed() {
    let arm = FakeArm::start();
    arm.fault("PUT", "agentPools/gpu", 1, Action::AppliedThenLost(Loss::Huge(OVER_CAP)));
    let r = aksgpu_arm(&arm.base, &CreatePool::new().with(&["-o", "json"]).args(), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["status"], "created", "{}", r.stdout);
    assert_eq!(arm.count("PUT", "/"), 1, "{:?}", arm.calls());
    assert!(r.stderr.contains("reading the resource back"), "{}", r.stderr);

    // The same for the cluster PUT of `kaito enable`.
    let arm = FakeArm::start();
    arm.fault("PUT", "managedClusters/c1?", 1, Action::AppliedThenLost(Loss::Huge(OVER_CAP)));
    let r = kaito(&arm);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("KAITO enabled"), "{}", r.stdout);
    assert_eq!(arm.count("PUT", "/"), 1, "{:?}", arm.calls());
}

/// A lost answer, and the read-back fails too: the outcome is unknown, so exit 4 with the
/// command that checks it, and the write is never sent again, for every command that writes.
#[test]
fn a_lost_answer_whose_read_back_fails_exits_4_with_the_check() {
    let broken = || respond(500, json!({"error": {"code": "InternalError", "message": "x"}}));
    // create-pool: the read-back fails with a 5xx, a reset, or a body that is not JSON.
    let failures = [broken(), Action::Reset, respond_h(200, &[], "<html>gateway</html>")];
    for (i, failure) in failures.into_iter().enumerate() {
        for loss in [Loss::Reset, Loss::Status(502), Loss::Huge(OVER_CAP)] {
            let arm = FakeArm::start();
            arm.fault("PUT", "agentPools/gpu", 1, Action::AppliedThenLost(loss));
            // Preflight's read of the pool works; the read-back after the PUT fails.
            arm.fault("GET", "agentPools/gpu", 1, Action::Pass);
            arm.fault("GET", "agentPools/gpu", 100, failure.clone());
            let r = aksgpu_arm(&arm.base, &CreatePool::new().args(), &[]);
            assert_eq!(r.code, 4, "{i} {loss:?}: {}", r.stderr);
            let wait = format!("aksgpu wait --subscription {SUB} -g rg --cluster c1 --name gpu");
            assert!(r.stderr.contains(&wait), "{i} {loss:?}: {}", r.stderr);
            assert_eq!(arm.count("PUT", "/"), 1, "{i} {loss:?}");
        }
    }

    // kaito enable: the read before the PUT works, the read-back fails.
    let arm = FakeArm::start();
    arm.fault("PUT", "managedClusters/c1?", 1, Action::AppliedThenLost(Loss::Reset));
    arm.fault("GET", "managedClusters/c1?", 1, Action::Pass);
    arm.fault("GET", "managedClusters/c1?", 100, broken());
    let r = kaito(&arm);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(r.stderr.contains("az aks show -g rg -n c1"), "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 1, "{:?}", arm.calls());

    // apply -f: the pool's read-back fails; exit 4 names `aksgpu diff -f` or the wait.
    let arm = FakeArm::start();
    let dir = temp_dir("edges-lost-apply");
    let file = write(&dir, "gpu.yaml", ONE_POOL);
    arm.fault("PUT", "agentPools/gpu", 1, Action::AppliedThenLost(Loss::Status(502)));
    arm.fault("GET", "agentPools/gpu", 100, broken());
    let r = file_cmd(&arm, "apply", &file, &["--yes"]);
    assert_eq!(r.code, 4, "{}\n{}", r.stdout, r.stderr);
    let all = format!("{}{}", r.stdout, r.stderr);
    assert!(all.contains("aksgpu wait") || all.contains("aksgpu diff -f"), "{all}");
    assert_eq!(arm.count("PUT", "/"), 1, "{:?}", arm.calls());
}

/// A cluster PUT (KAITO) that Azure applied before the connection dropped, in every way an
/// answer is lost: the read-back shows `aiToolchainOperatorProfile.enabled`, so that is
/// success with no second PUT; the same through `apply -f` with `kaito: {enabled: true}`.
#[test]
fn a_kaito_put_accepted_before_the_drop_is_success_without_a_second_put() {
    for loss in [Loss::Reset, Loss::CloseMidBody, Loss::Stall, Loss::Status(500), Loss::Status(504)] {
        let arm = FakeArm::start();
        arm.fault("PUT", "managedClusters/c1?", 1, Action::AppliedThenLost(loss));
        let r = kaito(&arm);
        assert_eq!(r.code, 0, "{loss:?}: {}", r.stderr);
        assert!(r.stdout.contains("KAITO enabled"), "{loss:?}: {}", r.stdout);
        assert_eq!(arm.count("PUT", "/"), 1, "{loss:?}: {:?}", arm.calls());
    }
    let dir = temp_dir("edges-kaito-apply");
    let file = write(&dir, "gpu.yaml", &(ONE_POOL.to_owned() + "kaito: {enabled: true}\n"));
    for loss in [Loss::Reset, Loss::Status(502)] {
        let arm = FakeArm::start();
        arm.fault("PUT", "managedClusters/c1?", 1, Action::AppliedThenLost(loss));
        let r = file_cmd(&arm, "apply", &file, &["--yes"]);
        assert_eq!(r.code, 0, "{loss:?}: {}\n{}", r.stdout, r.stderr);
        assert_eq!(arm.count("PUT", "managedClusters/c1?"), 1, "{loss:?}: {:?}", arm.calls());
    }
}

/// A KAITO PUT that AKS took before the connection dropped, but committed only after the
/// read-back (it was still validating it): the read-back shows the cluster as it was, so the
/// guarded resend goes (`If-Match` on the eTag read); AKS refuses it with 409
/// `OperationNotAllowed`, the first PUT's update being in progress. That refusal is read back:
/// the cluster carries `aiToolchainOperatorProfile.enabled`, Updating, so it is success, not
/// exit 1. The same through `apply -f` with a `kaito:` section.
#[test]
fn a_kaito_put_committed_after_the_read_back_is_success_when_the_resend_is_refused_busy() {
    let dir = temp_dir("edges-kaito-late");
    let file = write(&dir, "gpu.yaml", &(ONE_POOL.to_owned() + "kaito: {enabled: true}\n"));
    for via_apply in [false, true] {
        let arm = FakeArm::start();
        arm.with(|s| s.busy_cluster_conflicts = true);
        arm.fault("PUT", "managedClusters/c1?", 1, Action::AcceptedLate(1));
        let r = if via_apply { file_cmd(&arm, "apply", &file, &["--yes"]) } else { kaito(&arm) };
        assert_eq!(r.code, 0, "apply {via_apply}: {}\n{}", r.stdout, r.stderr);
        let log = arm.with(|s| s.log.clone());
        let puts: Vec<_> =
            log.iter().filter(|c| c.method == "PUT" && c.target.contains("managedClusters/c1?")).collect();
        assert_eq!(puts.len(), 2, "one PUT and one guarded resend: {puts:?}");
        assert_eq!(puts[1].headers.get("if-match").map(String::as_str), Some("etag-1"), "{puts:?}");
        let cluster = arm.with(|s| s.clusters.values().next().cloned()).expect("a cluster");
        assert_eq!(cluster["properties"]["aiToolchainOperatorProfile"]["enabled"], true, "{cluster}");
    }
}

/// The read-back after a lost KAITO answer decides by the fields the change sets alone: in
/// every state the update leads to or runs through (Updating, Succeeded, an in-progress state
/// that is not listed, or none reported), with the eTag AKS changed and the defaults AKS fills
/// in (an issuer URL, a network profile), it is success with no second PUT.
#[test]
fn a_kaito_read_back_is_judged_by_the_fields_the_change_sets() {
    for state in ["Updating", "Succeeded", "Upgrading"] {
        let arm = FakeArm::start();
        arm.with(|s| s.cluster_states = vec!["Succeeded".into(), state.into()]);
        arm.fault("PUT", "managedClusters/c1?", 1, Action::AppliedThenLost(Loss::Reset));
        let r = kaito(&arm);
        assert_eq!(r.code, 0, "{state}: {}", r.stderr);
        assert!(r.stdout.contains("KAITO enabled"), "{state}: {}", r.stdout);
        assert_eq!(arm.count("PUT", "/"), 1, "{state}: {:?}", arm.calls());
        let cluster = arm.with(|s| s.clusters.values().next().cloned()).expect("a cluster");
        assert_ne!(cluster["eTag"], "etag-1", "AKS changed the eTag: {cluster}");
        let issuer = &cluster["properties"]["oidcIssuerProfile"]["issuerURL"];
        assert!(issuer.is_string(), "AKS filled in the issuer URL: {cluster}");
    }
}

/// A preview feature the catalog knows, that Azure no longer has (`FeatureNotFound`: it went
/// GA and the flag was removed): nothing to register, no POST, no change.
#[test]
fn a_known_preview_feature_azure_no_longer_has_is_no_change() {
    let arm = FakeArm::start();
    let r = aksgpu_arm(&arm.base, &["register-feature", "--yes", "WindowsGPUPreview"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("no longer a preview feature; nothing to register"), "{}", r.stderr);
    assert_eq!(arm.count("POST", "/"), 0, "{:?}", arm.calls());

    let dir = temp_dir("edges-ga-feature");
    let file = write(&dir, "gpu.yaml", &(ONE_POOL.to_owned() + "features: [ManagedGPUExperiencePreview]\n"));
    let arm = FakeArm::start();
    let r = file_cmd(&arm, "diff", &file, &["-o", "json"]);
    let v = r.json();
    let feature = v["changes"]
        .as_array()
        .and_then(|a| a.iter().find(|c| c["kind"] == "feature"))
        .cloned()
        .unwrap_or_else(|| panic!("no feature row: {v}"));
    assert_eq!(feature["action"], "no-change", "{feature}");
    assert!(feature["detail"].as_str().unwrap_or("").contains("no longer a preview feature"), "{feature}");

    let arm = FakeArm::start();
    let r = file_cmd(&arm, "apply", &file, &["--yes"]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(arm.count("POST", "features/"), 0, "{:?}", arm.calls());

    // The answer Azure gives may be a 400 with the code: the code decides, not the status.
    let arm = FakeArm::start();
    arm.fault(
        "GET",
        "features/WindowsGPUPreview",
        5,
        respond(400, json!({"error": {"code": "FeatureNotFound", "message": "The feature 'WindowsGPUPreview' could not be found."}})),
    );
    let r = aksgpu_arm(&arm.base, &["register-feature", "--yes", "WindowsGPUPreview"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(arm.count("POST", "/"), 0, "{:?}", arm.calls());

    // A name the catalog does not know keeps its did-you-mean (or "check the name") and exit 2.
    let arm = FakeArm::start();
    let r = aksgpu_arm(&arm.base, &["register-feature", "--yes", "WindowsGPUPrevew"], &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("did you mean WindowsGPUPreview?"), "{}", r.stderr);
    let r = aksgpu_arm(&arm.base, &["register-feature", "--yes", "GPUDedicatedVHDPreview"], &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(arm.count("POST", "/"), 0);
}

/// A GpuConfig whose content is invalid on its own is refused before any request, even a GET:
/// the fake's request log stays empty, for `apply`, `diff` and their dry runs.
#[test]
fn a_file_invalid_on_its_own_is_refused_before_any_request() {
    let dir = temp_dir("edges-invalid-alone");
    let head =
        "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n  - name: gpu\n";
    let cases = [
        ("nan", "    count: 1\n    recommend: {model: llama-3.1-8b, maxPricePerHour: .nan}\n", "maxPricePerHour"),
        ("model", "    count: 1\n    recommend: {model: no-such-model-xyz}\n", "model"),
        ("empty", "    count: 1\n    recommend: {}\n", "recommend"),
        ("both", "    vmSize: Standard_NC4as_T4_v3\n    count: 1\n    recommend: {model: llama-3.1-8b}\n", "recommend"),
        // A valid recommend: pool, then a pool whose size the catalog does not know.
        (
            "mixed",
            "    count: 1\n    recommend: {model: llama-3.1-8b}\n  - name: other\n    vmSize: Standard_NC4as_T4_v9\n    count: 1\n",
            "pools[1].vmSize",
        ),
        // The operator section next to a recommend: pool: its own keys, the recommend: pool's
        // fields that do not depend on the size, and the pools that name their size.
        ("mig", "    count: 1\n    recommend: {model: llama-3.1-8b}\noperator: {install: true, migStrategy: half}\n", "operator.migStrategy"),
        ("slices", "    count: 1\n    recommend: {model: llama-3.1-8b}\noperator: {install: true, timeSlicing: 0}\n", "operator.timeSlicing"),
        (
            "windows",
            "    os: windows\n    count: 1\n    recommend: {model: llama-3.1-8b}\noperator: {install: true}\n",
            "pools[0].os",
        ),
        ("driver", "    gpuDriver: maybe\n    count: 1\n    recommend: {model: llama-3.1-8b}\n", "pools[0].gpuDriver"),
        (
            "amd",
            "    count: 1\n    recommend: {model: llama-3.1-8b}\n  - name: amd\n    vmSize: Standard_ND96isr_MI300X_v5\n    count: 1\noperator: {install: true}\n",
            "pools[1].vmSize",
        ),
    ];
    for (name, body, key) in cases {
        let file = write(&dir, &format!("{name}.yaml"), &format!("{head}{body}"));
        for (verb, extra) in [("apply", &["--yes"][..]), ("diff", &[][..]), ("apply", &["--dry-run"][..])] {
            let arm = FakeArm::start();
            let r = file_cmd(&arm, verb, &file, extra);
            assert_eq!(r.code, 2, "{name} {verb} {extra:?}: {}", r.stderr);
            assert!(r.stderr.contains(key), "{name} {verb}: {}", r.stderr);
            assert!(arm.log().is_empty(), "{name} {verb} {extra:?}: sent {:?}\n{}", arm.calls(), r.stderr);
        }
    }
}

/// `create-pool --recommend` checks its pool flags before it reads the cluster (which gives
/// the location the size is ranked in): a refused flag exits 2 with nothing sent.
#[test]
fn create_pool_recommend_checks_pool_flags_before_reading_the_cluster() {
    let rec = |model: &'static str| CreatePool::new().without_vm_size().with(&["--recommend", "--model", model]);
    let cases: [(&str, &[&str], &str); 4] = [
        ("llama-3.1-8b", &["--min-count", "3", "--max-count", "1"], "--min-count"),
        ("llama-3.1-8b", &["--spot", "--spot-max-price", "0"], "--spot-max-price"),
        ("llama-3.1-8b", &["--labels", "a=b,c"], "--labels"),
        ("no-such-model-xyz", &[], "no-such-model-xyz"),
    ];
    for (model, flags, named) in cases {
        let arm = FakeArm::start();
        let r = aksgpu_arm(&arm.base, &rec(model).with(flags).args(), &[]);
        assert_eq!(r.code, 2, "{flags:?}: {}", r.stderr);
        assert!(r.stderr.contains(named), "{flags:?}: {}", r.stderr);
        assert!(arm.log().is_empty(), "{flags:?}: sent {:?}", arm.calls());
    }
    // Valid flags still read the cluster first and create the size ranked in its location.
    let arm = FakeArm::start();
    let r = aksgpu_arm(&arm.base, &rec("llama-3.1-8b").with(&["-o", "json"]).args(), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 1);
}

/// Errors name the path the user gave, never our temporary file: `export -f
/// no/such/dir.yaml` says the directory is missing, and nothing is left behind.
#[test]
fn export_to_a_missing_directory_names_the_path_given() {
    let arm = FakeArm::start();
    let dir = temp_dir("edges-export-path");
    let mut e = crate::support::arm_env(&arm.base);
    e.retain(|(k, _)| *k != "AKSGPU_HTTP_TIMEOUT");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_aksgpu"))
        .args(["export", "-g", "rg", "--cluster", "c1", "-f", "no/such/dir.yaml"])
        .current_dir(&dir)
        .env_clear()
        .envs(e.iter().map(|(k, v)| (*k, v.as_str())))
        .env("AKSGPU_CACHE_DIR", dir.join("cache"))
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no/such/dir.yaml: cannot write: no such directory"), "{stderr}");
    assert!(!stderr.contains(".tmp"), "{stderr}");
}

/// A price cache that cannot be written names `prices.bin` and its directory, never the
/// temporary file it was written through. (`/sys/kernel` refuses new files even to root.)
#[cfg(target_os = "linux")]
#[test]
fn an_unwritable_price_cache_names_prices_bin_and_its_directory() {
    let arm = FakeArm::start();
    arm.with(|s| {
        s.retail_items = vec![json!({"armSkuName": "Standard_NC24ads_A100_v4", "armRegionName": "eastus",
            "productName": "Virtual Machines NCadsA100v4 Series", "skuName": "NC24ads A100 v4", "unitPrice": 3.5,
            "retailPrice": 3.5, "type": "Consumption", "unitOfMeasure": "1 Hour", "currencyCode": "USD",
            "serviceName": "Virtual Machines"})]
    });
    let r = aksgpu_arm(
        &arm.base,
        &["prices", "refresh", "-l", "eastus"],
        &[("AKSGPU_PRICES_ENDPOINT", &arm.base), ("AKSGPU_CACHE_DIR", "/sys/kernel")],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("/sys/kernel/prices.bin") && r.stderr.contains("directory /sys/kernel"), "{}", r.stderr);
    assert!(!r.stderr.contains(".tmp") && !r.stderr.contains(".prices."), "{}", r.stderr);
}

/// Failover lists a size preflight skips as restricted once: one attempt row, `restricted`,
/// with the zones it was asked for, whether it is restricted in the region or in every zone
/// asked; no row per zone.
#[test]
fn failover_lists_a_restricted_size_once_with_the_zones_asked() {
    const A100: &str = "Standard_NC24ads_A100_v4";
    const T4_SIZE: &str = "Standard_NC4as_T4_v3";
    let restrictions = [
        json!([{"type": "Location", "values": ["eastus"], "reasonCode": "NotAvailableForSubscription"}]),
        json!([{"type": "Zone", "values": ["eastus"], "restrictionInfo": {"zones": ["1", "2", "3"]}, "reasonCode": "NotAvailableForSubscription"}]),
    ];
    for r in restrictions {
        let arm = FakeArm::start();
        arm.with(|s| {
            for sku in &mut s.skus {
                if sku["name"] == A100 {
                    sku["restrictions"] = r.clone();
                }
            }
        });
        let args = CreatePool::new().with(&["--zones", "1,2,3", "--fallback-vm-size", T4_SIZE, "-o", "json"]);
        let out = aksgpu_arm(&arm.base, &args.args(), &[]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let v = out.json();
        let rows: Vec<(String, String, serde_json::Value)> = v["attempts"]
            .as_array()
            .expect("attempts")
            .iter()
            .map(|a| {
                (
                    a["vm_size"].as_str().unwrap_or("").to_owned(),
                    a["outcome"].as_str().unwrap_or("").to_owned(),
                    a["zones"].clone(),
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                (A100.to_owned(), "restricted".to_owned(), json!(["1", "2", "3"])),
                (T4_SIZE.to_owned(), "created".to_owned(), json!(["1", "2", "3"]))
            ],
            "{r}"
        );
        assert_eq!(arm.count("PUT", "/"), 1);
    }
}

fn money_run(arm: &FakeArm, cache: &Path, args: &[&str]) -> Run {
    let cache = cache.display().to_string();
    aksgpu_arm(&arm.base, args, &[("AKSGPU_PRICES_ENDPOINT", &arm.base), ("AKSGPU_CACHE_DIR", &cache)])
}

fn a100_item(region: &str, sku_name: &str, price: f64) -> serde_json::Value {
    json!({"armSkuName": "Standard_NC24ads_A100_v4", "armRegionName": region,
        "productName": "Virtual Machines NCadsA100v4 Series", "skuName": sku_name, "unitPrice": price,
        "retailPrice": price, "type": "Consumption", "unitOfMeasure": "1 Hour", "currencyCode": "USD",
        "serviceName": "Virtual Machines"})
}

/// Provenance is per size and region: after `prices refresh -l eastus`, an eastus price says
/// it comes from the live cache (0 days old), a westeurope price that it comes from the
/// bundled table with its date and age, and the stale-price note stays.
#[test]
fn each_price_says_where_it_came_from_and_how_old_it_is() {
    let arm = FakeArm::start();
    let cache = temp_dir("edges-provenance");
    arm.with(|s| s.retail_items = vec![a100_item("eastus", "NC24ads A100 v4", 3.5)]);
    let r = money_run(&arm, &cache, &["prices", "refresh", "-l", "eastus"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let cost = |region: &str| {
        money_run(&arm, &cache, &["cost", "--vm-size", "Standard_NC24ads_A100_v4", "--region", region, "-o", "json"])
    };
    let east = cost("eastus").json();
    let p = &east["pools"][0];
    assert!(p["price_source"].as_str().unwrap_or("").contains("live cache"), "{p}");
    assert_eq!(p["price_age_days"], 0, "{p}");
    let west = cost("westeurope").json();
    let p = &west["pools"][0];
    let src = p["price_source"].as_str().unwrap_or("");
    assert!(!src.contains("live cache") && src.contains("as of"), "{p}");
    assert!(p["price_age_days"].as_u64().is_some_and(|d| d > 90), "{p}");
    let notes = west["notes"].to_string();
    assert!(notes.contains("bundled prices are") && notes.contains("days old"), "{notes}");
    assert!(notes.contains("the others from the bundled table"), "the cache's age is said for what it holds: {notes}");
    let table = money_run(&arm, &cache, &["cost", "--vm-size", "Standard_NC24ads_A100_v4", "--region", "westeurope"]);
    assert!(table.stdout.contains("price: bundled"), "{}", table.stdout);
    // recommend: each row's source is its own, and the cache's note says what it covers.
    let args =
        ["recommend", "--gpu-model", "A100", "--gpu-memory-min", "40GiB", "--region", "westeurope", "-o", "json"];
    let v = money_run(&arm, &cache, &args).json();
    let row = &v["recommendations"][0];
    assert!(!row["price_source"].as_str().unwrap_or("live cache").contains("live cache"), "{row}");
    assert!(row["price_date"].as_str().is_some_and(|d| d.len() == 10), "{row}");
    assert!(row["price_age_days"].as_u64().is_some_and(|d| d > 90), "the bundled price's age: {row}");
    assert!(
        v["requirements"]["notes"].to_string().contains("the others from the bundled table"),
        "{}",
        v["requirements"]
    );
    // A row priced from the cache is 0 days old; its table says so as a `cost` row does.
    let east = ["recommend", "--gpu-model", "A100", "--gpu-memory-min", "40GiB", "--region", "eastus"];
    let v = money_run(&arm, &cache, &[&east[..], &["-o", "json"]].concat()).json();
    let row = v["recommendations"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["vm_size"] == "Standard_NC24ads_A100_v4").cloned());
    let row = row.unwrap_or_default();
    assert!(row["price_source"].as_str().unwrap_or("").contains("live cache"), "{row}");
    assert_eq!(row["price_age_days"], 0, "{row}");
    let table = money_run(&arm, &cache, &east);
    assert!(table.stdout.contains("   price: live cache, "), "{}", table.stdout);
    assert!(table.stdout.contains(" 0 day(s) old"), "{}", table.stdout);
    let table = money_run(
        &arm,
        &cache,
        &["recommend", "--gpu-model", "A100", "--gpu-memory-min", "40GiB", "--region", "westeurope"],
    );
    assert!(table.stdout.contains("   price: bundled, "), "{}", table.stdout);
}

/// `cost -o json` tells one story: the spot saving the advice names is the JSON's
/// `spot_saving_monthly`, the idle cost follows `--hours-per-day` as `monthly` does, and where
/// there is no spot price the spot line says the saving is unknown.
#[test]
fn cost_json_and_its_advice_agree() {
    let cache = temp_dir("edges-cost-story");
    let arm = FakeArm::start();
    let run = |extra: &[&str]| {
        let mut args = vec!["cost", "--vm-size", "Standard_NC24ads_A100_v4", "-o", "json"];
        args.extend_from_slice(extra);
        money_run(&arm, &cache, &args).json()
    };
    let v = run(&["--region", "eastus", "--hours-per-day", "8"]);
    let p = &v["pools"][0];
    let saving = p["spot_saving_monthly"].as_f64().unwrap_or_else(|| panic!("no spot saving: {p}"));
    let said = format!("spot would save about {}/month", aksgpu::units::money(Some(saving)));
    assert!(p["advice"].to_string().contains(&said), "{said} not in {}", p["advice"]);
    assert_eq!(p["idle_monthly"], p["at_min"]["monthly"], "{p}");
    let v = run(&["--region", "westeurope"]);
    let p = &v["pools"][0];
    assert!(p["spot_saving_monthly"].is_null(), "{p}");
    assert!(p["advice"].to_string().contains("spot saving unknown"), "{}", p["advice"]);
}

/// A pool whose price is unknown (a Windows pool: the bundled table has no Windows prices)
/// does not make the whole total unknown: it is "≥ $X, plus 1 pool with unknown price".
#[test]
fn a_cluster_total_with_an_unpriced_pool_is_a_lower_bound() {
    let arm = FakeArm::start();
    let cache = temp_dir("edges-total-lower-bound");
    arm.put_pool(
        "c1",
        "gpu",
        json!({"name": "gpu", "properties": {"vmSize": "Standard_NC24ads_A100_v4", "count": 1, "mode": "User"}}),
    );
    arm.put_pool("c1", "win", json!({"name": "win", "properties": {"vmSize": "Standard_NC4as_T4_v3", "count": 1, "mode": "User", "osType": "Windows"}}));
    let v = money_run(&arm, &cache, &["cost", "-g", "rg", "--cluster", "c1", "-o", "json"]).json();
    let gpu = v["pools"].as_array().and_then(|a| a.iter().find(|p| p["pool"] == "gpu")).cloned().expect("gpu");
    assert!(v["total_monthly_at_min"].is_null(), "the exact total is unknown: {v}");
    assert_eq!(v["known_monthly_at_min"], gpu["at_min"]["monthly"], "{v}");
    assert_eq!(v["unpriced_pools"], 1, "{v}");
    let t = money_run(&arm, &cache, &["cost", "-g", "rg", "--cluster", "c1"]);
    assert_eq!(t.code, 0, "{}", t.stderr);
    assert!(t.stdout.contains("≥ $") && t.stdout.contains("plus 1 pool with unknown price"), "{}", t.stdout);
}

/// `apply`'s progress lines name the resource they are about, so two pools created at once
/// can be told apart in one CI log.
#[test]
fn apply_progress_lines_name_the_resource() {
    let arm = FakeArm::start();
    let dir = temp_dir("edges-progress-names");
    let two = ONE_POOL.to_owned() + "  - name: infer\n    vmSize: Standard_NV36ads_A10_v5\n    count: 1\n";
    let file = write(&dir, "two.yaml", &two);
    let r = aksgpu_arm(
        &arm.base,
        &["apply", "-f", file.to_str().expect("utf-8"), "--yes"],
        &[("AKSGPU_PROGRESS_INTERVAL", "1")],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    for name in ["gpu", "infer"] {
        assert!(
            r.stderr.lines().any(|l| l.starts_with(&format!("pool {name}: "))),
            "no line names pool {name}:\n{}",
            r.stderr
        );
    }
}

/// A GpuConfig error speaks in the file's terms: the key, line and column, a person's words
/// ("must be a whole number", not "expected u32"), and a hint that names the file's key or
/// line, never a CLI flag.
#[test]
fn gpuconfig_errors_speak_in_the_files_terms() {
    let dir = temp_dir("edges-config-words");
    let head =
        "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n  - name: gpu\n";
    let cases = [
        (
            "count",
            "    vmSize: Standard_NC4as_T4_v3\n    count: 1.5\n",
            ":7:",
            "pools[0].count: must be a whole number",
            None,
        ),
        (
            "spot",
            "    vmSize: Standard_NC4as_T4_v3\n    count: 1\n    spot: maybe\n",
            ":8:",
            "pools[0].spot: must be true or false",
            None,
        ),
        (
            "typo",
            "    vmSize: Standard_NC4as_T4_v3\n    count: 1\n    countt: 2\n",
            ":8:",
            "countt is not a key here",
            Some("did you mean count?"),
        ),
        (
            "mig",
            "    vmSize: Standard_NC4as_T4_v3\n    count: 1\n    migProfile: MIG1g\n",
            ":8:",
            "pools[0].migProfile",
            Some("overrides: [mig-models]"),
        ),
    ];
    let arm = FakeArm::start();
    for (name, body, at, says, hint) in cases {
        let file = write(&dir, &format!("{name}.yaml"), &format!("{head}{body}"));
        let r = file_cmd(&arm, "diff", &file, &[]);
        assert_eq!(r.code, 2, "{name}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("{}{at}", file.display())) && r.stderr.contains(says),
            "{name}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("expected u32") && !r.stderr.contains("invalid type"), "{name}: {}", r.stderr);
        if let Some(h) = hint {
            assert!(r.stderr.lines().any(|l| l.starts_with("hint:") && l.contains(h)), "{name}: {}", r.stderr);
        }
        let hints: Vec<&str> = r.stderr.lines().filter(|l| l.starts_with("hint:")).collect();
        assert!(hints.iter().all(|l| !l.contains("`--")), "{name}: a hint names a flag: {hints:?}");
    }
    assert!(arm.log().is_empty());
}

/// The memory header and each training row say one breakdown the same way (a QLoRA run
/// whose first-ranked size fits with selective recomputation over two GPUs: the header's
/// activations are that row's), and a fit with under 5 % of memory left is a tight fit in
/// training as it is in inference.
#[test]
fn one_memory_breakdown_and_one_tight_fit_rule() {
    let run = |extra: &[&str]| {
        let mut args = vec!["recommend", "--workload", "fine-tuning", "--precision", "int4", "--top", "1"];
        args.extend_from_slice(extra);
        crate::support::aksgpu(&args)
    };
    let r = run(&["--model", "llama-3.1-8b", "--context", "32768"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let header = r.stdout.lines().find_map(|l| l.strip_prefix("Memory:   ")).expect("a Memory: line");
    let row = r.stdout.lines().find_map(|l| l.trim().strip_prefix("+ memory: ")).expect("a memory: reason");
    assert!(header.starts_with(row), "header {header:?} and row {row:?} differ");
    let r = run(&["--model-params", "13B", "--context", "4096", "-o", "json"]);
    let top = &r.json()["recommendations"][0];
    let (need, usable) = (top["fit"]["required_per_gpu_gib"].as_f64(), top["fit"]["available_per_gpu_gib"].as_f64());
    let (need, usable) = (need.expect("need"), usable.expect("usable"));
    let gpu = top["fit"]["gpu_memory_per_gpu_gib"].as_f64().expect("gpu memory");
    assert!((usable - need) / gpu < 0.05, "the case is a tight one: {need} of {usable}");
    assert!(top["warnings"].to_string().contains("tight fit"), "{}", top["warnings"]);
}

/// A plan's total (`apply --dry-run`) with an unpriced Windows pool is a lower bound too.
#[test]
fn a_plan_total_with_an_unpriced_pool_is_a_lower_bound() {
    let arm = FakeArm::start();
    arm.with(|s| {
        s.features.insert(
            "windowsgpupreview".into(),
            json!({"name": "Microsoft.ContainerService/WindowsGPUPreview", "properties": {"state": "Registered"}}),
        );
    });
    let dir = temp_dir("edges-plan-total");
    let text = ONE_POOL.to_owned() + "  - name: win\n    vmSize: Standard_NC4as_T4_v3\n    count: 1\n    os: windows\n";
    let file = write(&dir, "gpu.yaml", &text);
    let r = file_cmd(&arm, "apply", &file, &["--dry-run"]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("Total per month: ≥ $") && r.stdout.contains("plus 1 pool with unknown price"),
        "{}",
        r.stdout
    );
}

/// `--workload`'s help says what each kind means and how it is sized, in `recommend` and in
/// `create-pool` (which shares the flag).
#[test]
fn workload_help_says_what_each_kind_means() {
    for cmd in ["recommend", "create-pool"] {
        let r = crate::support::aksgpu(&[cmd, "--help"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let help = r.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
        for said in [
            "training: full fine-tuning or pre-training",
            "fine-tuning: LoRA/QLoRA adapters",
            "inference: LLM serving",
            "vdi: virtual desktops",
            "hpc: MPI/HPC jobs across nodes",
        ] {
            assert!(help.contains(said), "{cmd}: {said:?} not in the help");
        }
    }
}
