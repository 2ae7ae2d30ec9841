//! The plan is the wire: every write command runs twice against identical fresh fake ARM
//! servers, once with `--dry-run -o json` (with credentials, so its reads are real) and once
//! for real. Every request the real run sends must be one of the dry run's steps (method, path,
//! query, body and precondition headers), with `<read at run time: …>` placeholders only where
//! a value exists only at run time; every step must be sent; a step without `repeat` is sent at
//! most once; writes go in the plan's order. The only requests that are no step are the ones
//! Azure points to: the operation, `Location` and `nextLink` URLs the server's answers handed
//! out (recorded by the fake server), and only when a step says it follows them.
//!
//! A new write command is one more row in `CASES`.

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::fake_arm::{FakeArm, Recorded};
use crate::support::{aksgpu_arm, temp_dir};

/// One write command: its arguments (with `--yes` when it asks; without `--dry-run` and `-o`)
/// and the state both fake servers start from.
struct Case {
    name: &'static str,
    args: fn() -> Vec<String>,
    setup: fn(&FakeArm),
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

fn stopped(arm: &FakeArm) {
    arm.edit_cluster("c1", |c| c["properties"]["powerState"]["code"] = json!("Stopped"));
}

fn apply_file() -> PathBuf {
    let dir = temp_dir("wire-apply");
    let file = dir.join("gpu.yaml");
    let text = "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\n\
                features: [WindowsGPUPreview]\npools:\n  - name: gpu\n    vmSize: Standard_NC4as_T4_v3\n    count: 1\n";
    std::fs::write(&file, text).expect("write the GpuConfig");
    file
}

const POOL: &str = "-g rg --cluster c1 --name gpu --vm-size Standard_NC24ads_A100_v4";

const CASES: &[Case] = &[
    Case { name: "create-pool", args: || words(&format!("create-pool {POOL} --yes")), setup: nothing },
    Case { name: "pool create", args: || words(&format!("pool create {POOL} --yes")), setup: nothing },
    Case { name: "register-feature", args: || words("register-feature WindowsGPUPreview --yes"), setup: unregistered },
    Case { name: "feature register", args: || words("feature register WindowsGPUPreview --yes"), setup: unregistered },
    Case {
        name: "install-operator",
        args: || words("install-operator -g rg --cluster c1 --yes"),
        setup: operator_pool,
    },
    Case { name: "kaito enable", args: || words("kaito enable -g rg --cluster c1 --yes"), setup: nothing },
    Case { name: "cluster stop", args: || words("cluster stop -g rg --cluster c1 --yes"), setup: nothing },
    Case { name: "cluster start", args: || words("cluster start -g rg --cluster c1 --yes"), setup: stopped },
    Case {
        name: "cost-analysis enable",
        args: || words("cost-analysis enable -g rg --cluster c1 --yes"),
        setup: nothing,
    },
    Case {
        name: "pool scale",
        args: || words("pool scale -g rg --cluster c1 --name gpu --count 3 --yes"),
        setup: operator_pool,
    },
    Case {
        name: "apply -f",
        args: || {
            let file = apply_file();
            vec!["apply".into(), "-f".into(), file.to_string_lossy().into_owned(), "--yes".into()]
        },
        setup: unregistered,
    },
    Case {
        name: "quota request",
        args: || words("quota request --location eastus --family standardNCADSA100v4Family --limit 200"),
        setup: nothing,
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
        let fresh = (0..steps.len()).find(|&i| sent[i] == 0 && is_step(&steps[i], r, base));
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
    if let Some(i) = sent.iter().position(|n| *n == 0) {
        return Err(format!("planned but never sent: step {} {}", i + 1, steps[i]));
    }
    if writes.windows(2).any(|w| w[0] > w[1]) {
        return Err(format!("writes sent out of the plan's order: steps {writes:?}"));
    }
    Ok(())
}

fn run(case: &Case, dry_run: bool) -> (FakeArm, String, Value) {
    let arm = FakeArm::start();
    (case.setup)(&arm);
    let mut args = (case.args)();
    args.extend(words("-o json"));
    if dry_run {
        args.push("--dry-run".into());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = aksgpu_arm(&arm.base, &args, &[]);
    assert_eq!(r.code, 0, "{} (dry run: {dry_run}) failed:\n{}\n{}", case.name, r.stdout, r.stderr);
    let base = arm.base.clone();
    (arm, base, r.json())
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
