//! The plan is the wire: every write command runs twice against identical fresh fake ARM
//! servers, once with `--dry-run -o json` (with credentials, so its reads are real) and once
//! for real. Every request the real run sends must be one of the dry run's steps (method, path,
//! query, body and precondition headers), with `<read at run time: …>` placeholders only where
//! a value exists only at run time. How often each step is sent:
//! - a step with neither `repeat` nor `when` exactly once;
//! - a step with `repeat` (a wait, a readiness check) at least once, unless it has `when`;
//! - a step with `when` (conditional: a wait Azure's answer may make needless, a failover
//!   attempt after a refusal, the clean-up of a failed attempt, the operator install after
//!   apply's release check) at most once, or with `repeat` any number of times, including 0.
//!
//! Writes go in the plan's order. The only requests that are no step are the ones Azure points
//! to: the operation, `Location` and `nextLink` URLs the server's answers handed out (recorded
//! by the fake server), and only when a step says it follows them. The rows run against a fake
//! that answers PUTs with an operation to poll, and against one that answers them at once
//! (where the conditional waits are not sent); the failover rows against refusals by the PUT,
//! failures of an accepted PUT's operation, and zonal and spot failures.
//!
//! A new write command is one more row in `CASES`. Write paths with no row, and why:
//! - `create-pool --abort-on-interrupt`: the abort POST is sent only on Ctrl-C
//!   (`tests/integration/faults.rs` sends the signal and counts it); a dry run shows no abort.
//! - `create-pool --capacity-reservation-group`: the same PUT with one more body field, after
//!   two more reads (`tests/integration/capacity.rs` checks them).
//! - `kaito workspace` and `manifest` write files, not Azure; `prices refresh` only reads.

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::fake_arm::{FakeArm, LroStyle, PutFailure, Recorded};
use crate::support::{aksgpu_arm, temp_dir};

/// One write command: its arguments (with `--yes` when it asks; without `--dry-run` and `-o`)
/// and the state both fake servers start from.
struct Case {
    name: &'static str,
    args: fn() -> Vec<String>,
    setup: fn(&FakeArm),
    /// The real run's exit code (the dry run's is 0).
    exit: i32,
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

fn nothing(_: &FakeArm) {}

/// A GPU pool `gpu` whose driver the GPU Operator installs (`gpuProfile.driver: None`).
fn operator_pool(arm: &FakeArm) {
    let props = json!({"vmSize": "Standard_NC24ads_A100_v4", "count": 1, "mode": "User", "osType": "Linux",
        "nodeTaints": ["sku=gpu:NoSchedule"], "gpuProfile": {"driver": "None"}, "provisioningState": "Succeeded",
        "eTag": "pool-etag-1"});
    arm.put_pool(
        "c1",
        "gpu",
        json!({"id": crate::fake_arm::pool_path("c1", "gpu"), "name": "gpu", "properties": props}),
    );
}

/// WindowsGPUPreview exists and is not registered; it registers after two reads.
fn unregistered(arm: &FakeArm) {
    arm.with(|s| {
        s.features.insert(
            "windowsgpupreview".into(),
            json!({"name": "Microsoft.ContainerService/WindowsGPUPreview", "properties": {"state": "NotRegistered"}}),
        );
        s.feature_scripts.insert("windowsgpupreview".into(), vec!["Registering".into(), "Registered".into()]);
    });
}

/// ManagedGPUExperiencePreview in the state `state`; from NotRegistered it registers after two
/// reads.
fn managed_feature(arm: &FakeArm, state: &str) {
    arm.with(|s| {
        s.features.insert(
            "managedgpuexperiencepreview".into(),
            json!({"name": "Microsoft.ContainerService/ManagedGPUExperiencePreview", "properties": {"state": state}}),
        );
        s.feature_scripts.insert("managedgpuexperiencepreview".into(), vec!["Registering".into(), "Registered".into()]);
    });
}

/// A mixed cluster: `aks` with the AKS driver, labelled to keep the operator's driver off it,
/// and `op` with none.
fn mixed_cluster(arm: &FakeArm) {
    operator_pool(arm);
    let props = json!({"vmSize": "Standard_NC4as_T4_v3", "count": 1, "mode": "User", "osType": "Linux",
        "nodeTaints": ["sku=gpu:NoSchedule"], "gpuProfile": {"driver": "Install"}, "provisioningState": "Succeeded",
        "nodeLabels": {"nvidia.com/gpu.deploy.driver": "false"}});
    arm.put_pool(
        "c1",
        "aks",
        json!({"id": crate::fake_arm::pool_path("c1", "aks"), "name": "aks", "properties": props}),
    );
}

/// A mixed cluster whose AKS-driver pool `aks` lacks the operator's no-driver label.
fn mixed_cluster_unlabelled(arm: &FakeArm) {
    operator_pool(arm);
    let props = json!({"vmSize": "Standard_NC4as_T4_v3", "count": 1, "mode": "User", "osType": "Linux",
        "nodeTaints": ["sku=gpu:NoSchedule"], "gpuProfile": {"driver": "Install"}, "provisioningState": "Succeeded",
        "eTag": "aks-etag-1", "nodeLabels": {"team": "ml"}});
    arm.put_pool(
        "c1",
        "aks",
        json!({"id": crate::fake_arm::pool_path("c1", "aks"), "name": "aks", "properties": props}),
    );
}

fn stopped(arm: &FakeArm) {
    arm.edit_cluster("c1", |c| c["properties"]["powerState"]["code"] = json!("Stopped"));
}

/// Every agent pool PUT is answered at once, Succeeded (no operation to follow).
fn answered_at_once(arm: &FakeArm) {
    arm.with(|s| s.lro_style = LroStyle::Sync);
}

/// The A100 is refused for capacity by the PUT itself (HTTP 400 `AllocationFailed`).
fn a100_refused(arm: &FakeArm) {
    arm.with(|s| s.put_failures.push(PutFailure::code(A100, "AllocationFailed", true)));
}

/// The A100's PUT is accepted, then its operation fails for capacity: the pool this run
/// created is deleted (and its absence read) before the next size's PUT.
fn a100_fails_later(arm: &FakeArm) {
    arm.with(|s| s.put_failures.push(PutFailure::code(A100, "ZonalAllocationFailed", false)));
}

/// The A100 in zones 1 and 2 together fails for capacity, then zone 1 alone is refused too.
fn a100_zones_refused(arm: &FakeArm) {
    arm.with(|s| {
        let mut both = PutFailure::code(A100, "ZonalAllocationFailed", false);
        both.zones = Some(vec!["1".into(), "2".into()]);
        let mut one = PutFailure::code(A100, "AllocationFailed", true);
        one.zones = Some(vec!["1".into()]);
        s.put_failures.extend([both, one]);
    });
}

/// The A100 on spot fails for capacity after Azure accepted it (on-demand is fine).
fn a100_spot_fails(arm: &FakeArm) {
    arm.with(|s| {
        let mut f = PutFailure::code(A100, "OverconstrainedAllocationRequest", false);
        f.spot = Some(true);
        s.put_failures.push(f);
    });
}

/// Every size is refused for capacity (failover runs out of its attempts).
fn every_size_refused(arm: &FakeArm) {
    arm.with(|s| s.put_failures.push(PutFailure::code("*", "AllocationFailed", true)));
}

/// A GpuConfig file `name` with `body` after the cluster line.
fn gpuconfig(name: &str, body: &str) -> PathBuf {
    let dir = temp_dir(&format!("wire-{name}"));
    let file = dir.join("gpu.yaml");
    let text = format!("apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {{resourceGroup: rg, name: c1}}\n{body}");
    std::fs::write(&file, text).expect("write the GpuConfig");
    file
}

const T4_POOL: &str = "pools:\n  - name: gpu\n    vmSize: Standard_NC4as_T4_v3\n    count: 1\n";

fn apply_args(file: PathBuf) -> Vec<String> {
    vec!["apply".into(), "-f".into(), file.to_string_lossy().into_owned(), "--yes".into()]
}

/// Pool `gpu` (one T4 node) made by a real `apply`, then the server's log forgotten.
fn applied_t4_pool(arm: &FakeArm) {
    let file = gpuconfig("setup", T4_POOL);
    let args = apply_args(file);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = aksgpu_arm(&arm.base, &args, &[]);
    assert_eq!(r.code, 0, "setting up the pool: {}", r.stderr);
    arm.with(|s| {
        s.log.clear();
        s.applied.clear();
        s.given.clear();
    });
}

const POOL: &str = "-g rg --cluster c1 --name gpu --vm-size Standard_NC24ads_A100_v4";
const A100: &str = "Standard_NC24ads_A100_v4";
const FALLBACKS: &str = "--fallback-vm-size Standard_NC4as_T4_v3 --fallback-vm-size Standard_NV36ads_A10_v5";

const CASES: &[Case] = &[
    Case { name: "create-pool", args: || words(&format!("create-pool {POOL} --yes")), setup: nothing, exit: 0 },
    Case { name: "pool create", args: || words(&format!("pool create {POOL} --yes")), setup: nothing, exit: 0 },
    Case {
        name: "register-feature",
        args: || words("register-feature WindowsGPUPreview --yes"),
        setup: unregistered,
        exit: 0,
    },
    Case {
        name: "feature register",
        args: || words("feature register WindowsGPUPreview --yes"),
        setup: unregistered,
        exit: 0,
    },
    Case {
        name: "install-operator",
        args: || words("install-operator -g rg --cluster c1 --yes"),
        setup: operator_pool,
        exit: 0,
    },
    Case { name: "kaito enable", args: || words("kaito enable -g rg --cluster c1 --yes"), setup: nothing, exit: 0 },
    Case { name: "cluster stop", args: || words("cluster stop -g rg --cluster c1 --yes"), setup: nothing, exit: 0 },
    Case { name: "cluster start", args: || words("cluster start -g rg --cluster c1 --yes"), setup: stopped, exit: 0 },
    Case {
        name: "cost-analysis enable",
        args: || words("cost-analysis enable -g rg --cluster c1 --yes"),
        setup: nothing,
        exit: 0,
    },
    Case {
        name: "pool scale",
        args: || words("pool scale -g rg --cluster c1 --name gpu --count 3 --yes"),
        setup: operator_pool,
        exit: 0,
    },
    Case {
        name: "apply -f",
        args: || apply_args(gpuconfig("apply", &format!("features: [WindowsGPUPreview]\n{T4_POOL}"))),
        setup: unregistered,
        exit: 0,
    },
    Case {
        name: "apply -f, a scale change",
        args: || apply_args(gpuconfig("apply-scale", &T4_POOL.replace("count: 1", "count: 3"))),
        setup: applied_t4_pool,
        exit: 0,
    },
    Case {
        name: "apply -f, with the operator",
        args: || apply_args(gpuconfig("apply-operator", &format!("{T4_POOL}operator: {{install: true}}\n"))),
        setup: nothing,
        exit: 0,
    },
    Case {
        name: "create-pool, answered at once",
        args: || words(&format!("create-pool {POOL} --yes")),
        setup: answered_at_once,
        exit: 0,
    },
    Case {
        name: "pool scale, answered at once",
        args: || words("pool scale -g rg --cluster c1 --name gpu --count 3 --yes"),
        setup: |arm| {
            operator_pool(arm);
            answered_at_once(arm);
        },
        exit: 0,
    },
    Case {
        name: "create-pool --os windows --register-features",
        args: || {
            words("create-pool -g rg --cluster c1 --name gpuw --vm-size Standard_NC4as_T4_v3 --os windows --register-features --yes")
        },
        setup: unregistered,
        exit: 0,
    },
    Case {
        name: "create-pool --no-wait",
        args: || words(&format!("create-pool {POOL} --no-wait --yes")),
        setup: nothing,
        exit: 0,
    },
    Case {
        name: "create-pool --install-operator",
        args: || words(&format!("create-pool {POOL} --install-operator --yes")),
        setup: nothing,
        exit: 0,
    },
    Case {
        name: "create-pool --fallback-vm-size, the first size created",
        args: || words(&format!("create-pool {POOL} {FALLBACKS} --yes")),
        setup: nothing,
        exit: 0,
    },
    Case {
        name: "create-pool --fallback-vm-size, an AKS-driver pool beside the operator's driver",
        args: || words(&format!("create-pool -g rg --cluster c1 --name new --vm-size {A100} {FALLBACKS} --yes")),
        setup: operator_pool,
        exit: 0,
    },
    Case {
        name: "create-pool --fallback-vm-size, the first size refused for capacity",
        args: || words(&format!("create-pool {POOL} {FALLBACKS} --yes")),
        setup: a100_refused,
        exit: 0,
    },
    Case {
        name: "create-pool --fallback-vm-size, the first size's operation failed for capacity",
        args: || words(&format!("create-pool {POOL} {FALLBACKS} --yes")),
        setup: a100_fails_later,
        exit: 0,
    },
    Case {
        name: "create-pool --spot --fallback-on-demand",
        args: || words(&format!("create-pool {POOL} --spot --fallback-on-demand --yes")),
        setup: a100_spot_fails,
        exit: 0,
    },
    Case {
        name: "create-pool --recommend --failover, every size refused",
        args: || words("create-pool -g rg --cluster c1 --name gpu --recommend --model llama-3.1-8b --failover --yes"),
        setup: every_size_refused,
        // No attempt created the pool (exit 1), after every PUT the plan lists as possible.
        exit: 1,
    },
    Case {
        name: "create-pool --zones --fallback-vm-size, each zone tried alone",
        args: || words(&format!("create-pool {POOL} --zones 1,2 {FALLBACKS} --yes")),
        setup: a100_zones_refused,
        exit: 0,
    },
    Case {
        name: "create-pool --managed-gpu",
        args: || words("create-pool -g rg --cluster c1 --name gpu --vm-size Standard_NC4as_T4_v3 --managed-gpu --yes"),
        setup: |arm| managed_feature(arm, "Registered"),
        exit: 0,
    },
    Case {
        name: "create-pool --enable-managed-gpu --register-features",
        args: || {
            words("create-pool -g rg --cluster c1 --name gpu --vm-size Standard_NC4as_T4_v3 --enable-managed-gpu --register-features --yes")
        },
        setup: |arm| managed_feature(arm, "NotRegistered"),
        exit: 0,
    },
    Case {
        name: "create-pool --managed-gpu, managed MIG",
        args: || {
            words(&format!("create-pool {POOL} --managed-gpu --gpu-mig-strategy Mixed --mig-profiles MIG3g,MIG2g,MIG1g,MIG1g --yes"))
        },
        setup: |arm| managed_feature(arm, "Registered"),
        exit: 0,
    },
    Case {
        name: "create-pool, an AKS-driver pool next to one without a driver (labelled)",
        args: || words("create-pool -g rg --cluster c1 --name aks2 --vm-size Standard_NC4as_T4_v3 --yes"),
        setup: operator_pool,
        exit: 0,
    },
    Case {
        name: "install-operator --label-pools, a mixed cluster",
        args: || words("install-operator -g rg --cluster c1 --label-pools --yes"),
        setup: mixed_cluster_unlabelled,
        exit: 0,
    },
    Case {
        name: "install-operator --pool, a mixed cluster",
        args: || words("install-operator -g rg --cluster c1 --pool aks --yes"),
        setup: mixed_cluster,
        exit: 0,
    },
    Case {
        name: "quota request",
        args: || words("quota request --location eastus --family standardNCADSA100v4Family --limit 200 --yes"),
        setup: nothing,
        exit: 0,
    },
];

/// `<read at run time: …>` in `want` stands for any text.
fn glob(want: &str, got: &str) -> bool {
    let mut parts = Vec::new();
    let mut rest = want;
    while let Some(i) = rest.find("<read at run time:") {
        parts.push(&rest[..i]);
        rest = rest[i..].find('>').map_or("", |j| &rest[i + j + 1..]);
        parts.push("\u{0}");
    }
    parts.push(rest);
    let mut at = 0;
    let mut wild = false;
    for p in parts {
        if p == "\u{0}" {
            wild = true;
            continue;
        }
        if p.is_empty() {
            continue;
        }
        match (wild, got[at..].find(p)) {
            (false, _) if !got[at..].starts_with(p) => return false,
            (false, _) => at += p.len(),
            (true, Some(i)) => at += i + p.len(),
            (true, None) => return false,
        }
        wild = false;
    }
    wild || at == got.len()
}

/// A body as planned (placeholders allowed in strings) against the body sent.
fn same_json(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::String(w), _) if w.starts_with("<read at run time:") && w.ends_with('>') => true,
        (Value::String(w), Value::String(g)) => glob(w, g),
        (Value::Object(w), Value::Object(g)) => {
            w.len() == g.len() && w.iter().all(|(k, v)| g.get(k).is_some_and(|x| same_json(v, x)))
        }
        (Value::Array(w), Value::Array(g)) => w.len() == g.len() && w.iter().zip(g).all(|(a, b)| same_json(a, b)),
        _ => want == got,
    }
}

const PRECONDITIONS: [&str; 2] = ["if-match", "if-none-match"];

/// Whether `r` is the request `step` plans (its URL relative to `base`).
fn is_step(step: &Value, r: &Recorded, base: &str) -> bool {
    let url = step["url"].as_str().unwrap_or_default();
    let url = url.strip_prefix(base).unwrap_or(url);
    let headers = step["headers"].as_object().cloned().unwrap_or_default();
    let planned = |k: &str| headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(k)).map(|(_, v)| v.clone());
    let headers_ok = headers
        .iter()
        .all(|(k, v)| r.headers.get(&k.to_ascii_lowercase()).is_some_and(|g| glob(v.as_str().unwrap_or_default(), g)))
        && PRECONDITIONS.iter().all(|k| planned(k).is_some() || !r.headers.contains_key(*k));
    let body_ok = match step.get("body") {
        None => r.body.is_empty(),
        Some(b) => same_json(b, &r.json()),
    };
    step["method"] == r.method.as_str() && glob(url, &r.target) && headers_ok && body_ok
}

/// Check a real run's requests against a dry run's steps; `given` are the URLs Azure handed out.
fn compare(steps: &[Value], log: &[Recorded], given: &[(&str, String)], base: &str) -> Result<(), String> {
    let follows = |kind: &str| steps.iter().any(|s| s["follow"] == kind);
    let mut sent = vec![0usize; steps.len()];
    let mut writes = Vec::new();
    for r in log {
        // Two steps may plan the same request (failover's DELETE after each attempt): a write
        // is the first unsent one after the last write sent, so that the order check is fair.
        let after = writes.last().map_or(0, |&w| w + 1);
        let unsent = |i: &usize| sent[*i] == 0 && is_step(&steps[*i], r, base);
        let fresh =
            (after..steps.len()).find(|i| r.method != "GET" && unsent(i)).or_else(|| (0..steps.len()).find(unsent));
        let again = || (0..steps.len()).find(|&i| steps[i].get("repeat").is_some() && is_step(&steps[i], r, base));
        match fresh.or_else(again) {
            Some(i) => {
                sent[i] += 1;
                if r.method != "GET" && sent[i] == 1 {
                    writes.push(i);
                }
            }
            // A URL Azure returned, which a step says it follows.
            None if r.method == "GET" && given.iter().any(|(_, u)| *u == r.target) => {
                let how = given.iter().filter(|(_, u)| *u == r.target).map(|(h, _)| *h);
                let ok = how.clone().any(|h| match h {
                    "next-link" => follows("next-link"),
                    _ => follows("operation") || follows("command-result"),
                });
                if !ok {
                    return Err(format!(
                        "GET {} follows Azure ({:?}), but no step says it does",
                        r.target,
                        how.collect::<Vec<_>>()
                    ));
                }
            }
            None => return Err(format!("unplanned request: {} {}\n  body: {}", r.method, r.target, r.body)),
        }
    }
    // A conditional step (`when`) may not be sent at all; any other is sent at least once.
    if let Some(i) = (0..steps.len()).find(|&i| sent[i] == 0 && steps[i].get("when").is_none()) {
        return Err(format!("planned but never sent: step {} {}", i + 1, steps[i]));
    }
    if writes.windows(2).any(|w| w[0] > w[1]) {
        return Err(format!("writes sent out of the plan's order: steps {writes:?}"));
    }
    Ok(())
}

fn run(case: &Case, dry_run: bool) -> (FakeArm, String, Value) {
    run_with(case, if dry_run { &["--dry-run"] } else { &[] })
}

/// `case` with `extra` flags (`--dry-run`, `--read-release`) and `-o json`.
fn run_with(case: &Case, extra: &[&str]) -> (FakeArm, String, Value) {
    let dry_run = extra.contains(&"--dry-run");
    let arm = FakeArm::start();
    (case.setup)(&arm);
    let mut args = (case.args)();
    args.extend(words("-o json"));
    args.extend(extra.iter().map(|e| (*e).to_owned()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = aksgpu_arm(&arm.base, &args, &[]);
    let want = if dry_run { 0 } else { case.exit };
    assert_eq!(r.code, want, "{} (dry run: {dry_run}):\n{}\n{}", case.name, r.stdout, r.stderr);
    let base = arm.base.clone();
    // Only the dry run's output is read (the plan); a real run's is checked by its own tests.
    let out = if dry_run { r.json() } else { Value::Null };
    (arm, base, out)
}

/// The dry run's steps; it sent GETs only.
fn planned(case: &Case) -> (Vec<Value>, String) {
    let (arm, base, out) = run(case, true);
    let writes: Vec<_> = arm.calls().into_iter().filter(|(m, _)| m != "GET").collect();
    assert!(writes.is_empty(), "{}: the dry run sent writes: {writes:?}", case.name);
    assert!(!arm.calls().is_empty(), "{}: a dry run with credentials reads", case.name);
    let steps = out["steps"].as_array().cloned().unwrap_or_else(|| panic!("{}: no steps in {out}", case.name));
    (steps, base)
}

#[test]
fn every_write_command_sends_exactly_what_its_dry_run_shows() {
    let mut failures = Vec::new();
    for case in CASES {
        let (steps, dry_base) = planned(case);
        let (arm, base, _) = run(case, false);
        // The two servers differ only in their port: the plan's URLs are compared on the real one.
        let steps: Vec<Value> = steps
            .iter()
            .map(|s| {
                let mut s = s.clone();
                s["url"] = json!(s["url"].as_str().unwrap_or_default().replacen(&dry_base, &base, 1));
                s
            })
            .collect();
        if std::env::var_os("AKSGPU_WIRE_DEBUG").is_some() {
            let shown: Vec<String> = steps.iter().map(|s| format!("{} {}", s["method"], s["url"])).collect();
            let sent: Vec<String> = arm.log().iter().map(|r| format!("{} {}", r.method, r.target)).collect();
            eprintln!("{}:\nplanned {shown:#?}\nsent {sent:#?}", case.name);
        }
        if let Err(e) = compare(&steps, &arm.log(), &arm.given(), &base) {
            failures.push(format!("{}: {e}", case.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The comparison itself can fail: a body that differs, a request no step plans, a step never
/// sent and a write resent are each caught.
#[test]
fn the_comparison_catches_each_difference() {
    let arm = FakeArm::start();
    let base = arm.base.clone();
    let put = json!({"method": "PUT", "url": format!("{base}/p?api-version=1"), "body": {"a": 1},
        "headers": {"If-Match": "<read at run time: eTag>"}});
    let rec = |method: &str, target: &str, body: &str, etag: bool| Recorded {
        method: method.into(),
        target: target.into(),
        headers: if etag { [("if-match".to_owned(), "e1".to_owned())].into() } else { Default::default() },
        body: body.into(),
        round: 0,
    };
    let put = [put];
    let good = [rec("PUT", "/p?api-version=1", r#"{"a":1}"#, true)];
    assert_eq!(compare(&put, &good, &[], &base), Ok(()));
    let other_body = [rec("PUT", "/p?api-version=1", r#"{"a":2}"#, true)];
    assert!(compare(&put, &other_body, &[], &base).is_err());
    let no_precondition = [rec("PUT", "/p?api-version=1", r#"{"a":1}"#, false)];
    assert!(compare(&put, &no_precondition, &[], &base).is_err());
    let twice = [good[0].clone(), good[0].clone()];
    assert!(compare(&put, &twice, &[], &base).expect_err("sent twice").contains("unplanned"));
    assert!(compare(&put, &[], &[], &base).expect_err("not sent").contains("never sent"));
    let poll = rec("GET", "/op/1?api-version=2", "", false);
    let with_poll = [good[0].clone(), poll.clone()];
    let op = [("operation", "/op/1?api-version=2".to_owned())];
    assert!(compare(&put, &with_poll, &op, &base).is_err(), "no step follows");
    let follows = [json!({"method": "PUT", "url": format!("{base}/p?api-version=1"), "body": {"a": 1},
        "headers": {"If-Match": "e1"}, "follow": "operation"})];
    assert_eq!(compare(&follows, &with_poll, &op, &base), Ok(()));
    let page = [("next-link", "/op/1?api-version=2".to_owned())];
    assert!(compare(&follows, &with_poll, &page, &base).is_err(), "a page, but no step lists");
    assert!(compare(&follows, &with_poll, &[], &base).is_err(), "a GET Azure never handed out");
    assert!(
        glob("/x/<read at run time: id>?v=1", "/x/abc?v=1") && !glob("/x/<read at run time: id>?v=1", "/y/abc?v=1")
    );
}

/// How often a step may be sent: `repeat` alone at least once, `when` (conditional) possibly
/// never, and two steps planning the same write are matched in the plan's order.
#[test]
fn repeated_and_conditional_steps_are_counted_by_the_plans_word() {
    let arm = FakeArm::start();
    let base = arm.base.clone();
    let rec = |method: &str, target: &str| Recorded {
        method: method.into(),
        target: target.into(),
        headers: Default::default(),
        body: String::new(),
        round: 0,
    };
    let step = |method: &str, path: &str| json!({"method": method, "url": format!("{base}{path}")});
    let put = rec("PUT", "/p");
    let wait = step("GET", "/p?w");
    let mut repeated = wait.clone();
    repeated["repeat"] = json!("while Creating");
    let mut conditional = repeated.clone();
    conditional["when"] = json!("unless the answer is final");
    let plan = |w: &Value| [step("PUT", "/p"), w.clone()];
    // A wait sent twice, or not at all: only a conditional one may be skipped.
    let polled = [put.clone(), rec("GET", "/p?w"), rec("GET", "/p?w")];
    assert_eq!(compare(&plan(&repeated), &polled, &[], &base), Ok(()));
    assert!(compare(&plan(&wait), &polled, &[], &base).is_err(), "sent twice without repeat");
    let at_once = [put.clone()];
    assert!(compare(&plan(&repeated), &at_once, &[], &base).expect_err("never").contains("never sent"));
    assert_eq!(compare(&plan(&conditional), &at_once, &[], &base), Ok(()));
    assert_eq!(compare(&plan(&conditional), &polled, &[], &base), Ok(()));
    // A conditional write is sent at most once.
    let mut maybe = step("DELETE", "/p");
    maybe["when"] = json!("only if it failed");
    let steps = [step("PUT", "/p"), maybe.clone()];
    assert_eq!(compare(&steps, &at_once, &[], &base), Ok(()));
    let deleted_twice = [put.clone(), rec("DELETE", "/p"), rec("DELETE", "/p")];
    assert!(compare(&steps, &deleted_twice, &[], &base).expect_err("twice").contains("unplanned"));
    // Two attempts, each with its own conditional DELETE: the second attempt's DELETE is the
    // step after the second PUT, so the order holds; a DELETE before any PUT breaks it.
    let other = |s: &Value| {
        let mut s = s.clone();
        s["url"] = json!(format!("{base}/q"));
        s
    };
    let two = [step("PUT", "/p"), maybe.clone(), other(&step("PUT", "/p")), maybe.clone()];
    let second_failed = [put.clone(), rec("PUT", "/q"), rec("DELETE", "/p")];
    assert_eq!(compare(&two, &second_failed, &[], &base), Ok(()));
    let delete_first = [rec("DELETE", "/p"), put, rec("PUT", "/q"), rec("DELETE", "/p")];
    assert!(compare(&two, &delete_first, &[], &base).expect_err("order").contains("order"));
}

/// The GPU Operator's release as an earlier install left it: values that differ from aksgpu's
/// (the driver off, which a pool without the AKS driver cannot have) and keys aksgpu keeps.
fn with_release(arm: &FakeArm) {
    let values = json!({"driver": {"enabled": false}, "mig": {"strategy": "mixed"},
        "dcgmExporter": {"serviceMonitor": {"enabled": true}}});
    arm.with(|s| s.helm_release = Some(("gpu-operator-v26.3.1".into(), values)));
}

/// Dry runs that read the GPU Operator's release (`--read-release`): the only request beyond
/// the GETs is that one read-only runCommand, and the `helm upgrade --install` they plan is the
/// one the run sends on that release (its values merged with the release's own).
const READING_RELEASE: &[Case] = &[
    Case {
        name: "install-operator --read-release, a release with values",
        args: || words("install-operator -g rg --cluster c1 --yes"),
        setup: |arm| {
            operator_pool(arm);
            with_release(arm);
        },
        exit: 0,
    },
    Case {
        name: "create-pool --install-operator --read-release, a release with values",
        args: || words(&format!("create-pool {POOL} --install-operator --yes")),
        setup: with_release,
        exit: 0,
    },
    Case {
        name: "apply -f, with the operator, --read-release, a release with values",
        args: || apply_args(gpuconfig("apply-operator-release", &format!("{T4_POOL}operator: {{install: true}}\n"))),
        setup: with_release,
        exit: 0,
    },
];

#[test]
fn dry_runs_that_read_the_release_plan_the_upgrade_the_run_sends() {
    let mut failures = Vec::new();
    for case in READING_RELEASE {
        let (arm, dry_base, out) = run_with(case, &["--dry-run", "--read-release"]);
        let writes: Vec<String> = arm
            .log()
            .iter()
            .filter(|r| r.method != "GET")
            .map(|r| r.json()["command"].as_str().unwrap_or_default().to_owned())
            .collect();
        assert!(
            !writes.is_empty() && writes.iter().all(|c| c.contains("helm get values") && !c.contains("upgrade")),
            "{}: only the release read may go out: {writes:?}",
            case.name
        );
        assert!(
            out["values_diff"].as_array().is_some_and(|d| d.iter().any(|l| l == "- driver.enabled: false")),
            "{}: {out}",
            case.name
        );
        let (real, base, _) = run(case, false);
        let rebase = |steps: &[Value]| -> Vec<Value> {
            steps
                .iter()
                .map(|s| {
                    let mut s = s.clone();
                    s["url"] = json!(s["url"].as_str().unwrap_or_default().replacen(&dry_base, &base, 1));
                    s
                })
                .collect()
        };
        let steps = rebase(out["steps"].as_array().map(Vec::as_slice).unwrap_or_default());
        if let Err(e) = compare(&steps, &real.log(), &real.given(), &base) {
            failures.push(format!("{}: {e}", case.name));
        }
        // Without the read, the dry run cannot know the merged values: its upgrade is not the
        // one sent (what makes the row worth having).
        let (plain, base) = planned(case);
        let plain: Vec<Value> = plain
            .iter()
            .map(|s| {
                let mut s = s.clone();
                s["url"] = json!(s["url"].as_str().unwrap_or_default().replacen(&base, &real.base, 1));
                s
            })
            .collect();
        assert!(
            compare(&plain, &real.log(), &real.given(), &real.base).is_err(),
            "{}: the plain dry run matched",
            case.name
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
