//! `aksgpu apply -f`, `diff -f` and `export` through the binary against the fake ARM server:
//! idempotence (one PUT for two applies), drift, scaling through the file, refusals, partial
//! failure and resume, export round trip, and bad files with file:line:column.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::fake_arm::{respond, FakeArm, RunResult, SUB};
use crate::support::{aksgpu_arm, aksgpu_with, bundled_linux_price, cents_times, temp_dir, Run};

const ONE_POOL: &str = "apiVersion: aksgpu/v1
kind: GpuConfig
cluster: {resourceGroup: rg, name: c1}
pools:
  - name: gpu
    vmSize: Standard_NC4as_T4_v3
    count: 1
    labels: {team: ml}
";

/// `values.yaml` out of a runCommand body's `context` (base64 of a stored zip).
fn sent_values(body: &Value) -> String {
    use base64::Engine;
    let zip =
        base64::engine::general_purpose::STANDARD.decode(body["context"].as_str().expect("context")).expect("b64");
    let name = b"values.yaml";
    let start = zip.windows(name.len()).position(|w| w == name).expect("values.yaml in the zip") + name.len();
    let end = start + zip[start..].windows(4).position(|w| w == b"PK\x01\x02").expect("central directory");
    String::from_utf8(zip[start..end].to_vec()).expect("utf-8")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write file");
    p
}

/// `apply -f FILE --yes` running in the background against `arm`, outputs piped, nothing of the
/// host's Azure setup inherited: for tests that signal it mid-run.
fn spawn_apply(arm: &FakeArm, file: &Path) -> std::process::Child {
    use std::process::{Command, Stdio};
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_aksgpu"));
    cmd.args(["apply", "-f", file.to_str().expect("path"), "--yes"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, _) in std::env::vars().filter(|(k, _)| k.starts_with("AZURE_") || k.starts_with("AKSGPU_")) {
        cmd.env_remove(k);
    }
    for (k, v) in crate::support::arm_env(&arm.base) {
        cmd.env(k, v);
    }
    cmd.env("AKSGPU_HTTP_TIMEOUT", "60");
    cmd.spawn().expect("spawn")
}

fn cmd(arm: &FakeArm, verb: &str, file: &Path, extra: &[&str]) -> Run {
    let f = file.to_str().expect("utf-8 path");
    let mut args = vec![verb, "-f", f];
    args.extend_from_slice(extra);
    aksgpu_arm(&arm.base, &args, &[])
}

fn apply(arm: &FakeArm, file: &Path) -> Run {
    cmd(arm, "apply", file, &["--yes", "-o", "json"])
}

fn writes(arm: &FakeArm) -> Vec<(String, String)> {
    arm.calls().into_iter().filter(|(m, _)| m != "GET").collect()
}

/// (name, `field`) of every entry of the output's `list`.
fn named(r: &Run, list: &str, field: &str) -> Vec<(String, String)> {
    r.json()[list]
        .as_array()
        .unwrap_or_else(|| panic!("no {list} in the output"))
        .iter()
        .map(|c| (c["name"].as_str().unwrap_or("").to_owned(), c[field].as_str().unwrap_or("").to_owned()))
        .collect()
}

fn actions(r: &Run) -> Vec<(String, String)> {
    named(r, "changes", "action")
}

fn results(r: &Run) -> Vec<(String, String)> {
    named(r, "resources", "result")
}

#[test]
fn applying_the_same_file_twice_sends_exactly_one_put() {
    let arm = FakeArm::start();
    let dir = temp_dir("apply-twice");
    let file = write(&dir, "gpu.yaml", ONE_POOL);
    let dry = cmd(&arm, "apply", &file, &["--dry-run", "-o", "json"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    let plan = dry.json();
    assert_eq!(plan["changes"][0]["action"], "create");
    let put = plan["steps"].as_array().expect("steps").iter().find(|s| s["method"] == "PUT").cloned().expect("put");
    assert!(arm.log().iter().all(|r| r.method == "GET"), "a dry run only reads: {:?}", writes(&arm));
    assert!(arm.count("GET", "locations/eastus/usages") > 0, "the dry run ran create-pool's preflight");
    let first = apply(&arm, &file);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(first.json()["status"], "applied");
    assert_eq!(results(&first), [("gpu".to_owned(), "done".to_owned())]);
    let sent = arm.log().into_iter().find(|r| r.method == "PUT").expect("put");
    assert_eq!(sent.headers.get("if-none-match").map(String::as_str), Some("*"));
    assert_eq!(sent.json()["properties"]["nodeLabels"], json!({"team": "ml"}));
    assert_eq!(sent.json(), put["body"], "the dry run showed the body that was sent");
    let before = arm.log().len();
    let second = apply(&arm, &file);
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert_eq!(second.json()["status"], "unchanged");
    assert_eq!(arm.count("PUT", "/"), 1, "{:?}", arm.calls());
    assert!(arm.log()[before..].iter().all(|r| r.method == "GET"), "the second apply wrote: {:?}", writes(&arm));
    let diff = cmd(&arm, "diff", &file, &[]);
    assert_eq!(diff.code, 0, "{}{}", diff.stdout, diff.stderr);
    assert!(diff.stdout.contains("no change"), "{}", diff.stdout);
}

#[test]
fn diff_reports_a_pool_changed_in_azure() {
    let arm = FakeArm::start();
    let dir = temp_dir("apply-drift");
    let file = write(&dir, "gpu.yaml", ONE_POOL);
    assert_eq!(apply(&arm, &file).code, 0);
    let key = crate::fake_arm::pool_path("c1", "gpu").to_ascii_lowercase();
    arm.with(|s| s.pools.get_mut(&key).map(|p| p["properties"]["count"] = json!(4)));
    let d = cmd(&arm, "diff", &file, &["-o", "json"]);
    assert_eq!(d.code, 1, "{}", d.stderr);
    assert_eq!(actions(&d), [("gpu".to_owned(), "scale".to_owned())]);
    // The file's pools priced in the cluster's region (eastus, read from the cluster):
    // 1 × Standard_NC4as_T4_v3 at the bundled eastus price × 730 h a month.
    let cost = &d.json()["cost"]["pools"][0];
    let monthly = cents_times(bundled_linux_price("Standard_NC4as_T4_v3", "eastus"), 730);
    assert_eq!((cost["region"].clone(), cost["monthly_at_max"].clone()), (json!("eastus"), json!(monthly)), "{cost}");
    assert!(d.json()["changes"][0]["detail"].as_str().unwrap_or("").contains("count 4 → 1"), "{}", d.stdout);
    arm.with(|s| s.pools.get_mut(&key).map(|p| p["properties"]["vmSize"] = json!("Standard_NC8as_T4_v3")));
    let d = cmd(&arm, "diff", &file, &[]);
    assert_eq!(d.code, 1, "{}", d.stderr);
    assert!(d.stdout.contains("refused") && d.stdout.contains("vmSize"), "{}", d.stdout);
    assert_eq!(arm.count("PUT", "/"), 1, "diff never writes");
}

#[test]
fn counts_scale_through_the_file() {
    let arm = FakeArm::start();
    let dir = temp_dir("apply-scale");
    let file = write(&dir, "gpu.yaml", ONE_POOL);
    assert_eq!(apply(&arm, &file).code, 0);
    let file = write(&dir, "gpu.yaml", &ONE_POOL.replace("count: 1", "minCount: 1\n    maxCount: 3"));
    let d = cmd(&arm, "diff", &file, &["-o", "json"]);
    assert_eq!((d.code, actions(&d)), (1, vec![("gpu".to_owned(), "scale".to_owned())]), "{}", d.stderr);
    let dry = cmd(&arm, "apply", &file, &["--dry-run", "-o", "json"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    let put =
        dry.json()["steps"].as_array().expect("steps").iter().find(|s| s["method"] == "PUT").cloned().expect("put");
    assert_eq!(put["body"]["properties"]["maxCount"], 3);
    assert_eq!(arm.count("PUT", "/"), 1, "a dry run writes nothing");
    let r = apply(&arm, &file);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(results(&r), [("gpu".to_owned(), "done".to_owned())]);
    let puts: Vec<Value> = arm.log().iter().filter(|r| r.method == "PUT").map(|r| r.json()).collect();
    assert_eq!(puts.len(), 2);
    assert_eq!(puts[1]["properties"]["enableAutoScaling"], true);
    assert_eq!(puts[1]["properties"]["maxCount"], 3);
    assert_eq!(puts[1]["properties"]["vmSize"], "Standard_NC4as_T4_v3", "scaling keeps every other field");
    assert_eq!(cmd(&arm, "diff", &file, &[]).code, 0);
}

#[test]
fn an_immutable_change_is_refused_before_any_write() {
    let arm = FakeArm::start();
    let dir = temp_dir("apply-immutable");
    let file = write(&dir, "gpu.yaml", ONE_POOL);
    assert_eq!(apply(&arm, &file).code, 0);
    let file = write(&dir, "gpu.yaml", &(ONE_POOL.to_owned() + "    spot: true\n"));
    let r = cmd(&arm, "apply", &file, &["--yes"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("scaleSetPriority") && r.stderr.contains("refused before sending anything"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("az aks nodepool delete -g rg --cluster-name c1 -n gpu"), "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 1);
}

#[test]
fn a_failure_partway_reports_what_was_done_and_a_rerun_resumes() {
    let arm = FakeArm::start();
    let dir = temp_dir("apply-partial");
    let text = ONE_POOL.to_owned()
        + "  - name: second\n    vmSize: Standard_NV36ads_A10_v5\n    count: 1\nkaito: {enabled: true}\n";
    let file = write(&dir, "gpu.yaml", &text);
    arm.fault(
        "PUT",
        "agentPools/second",
        1,
        respond(400, json!({"error": {"code": "InvalidParameter", "message": "the front end refused it"}})),
    );
    let r = apply(&arm, &file);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let got = results(&r);
    assert_eq!(
        got,
        [("gpu".into(), "done".into()), ("second".into(), "failed".into()), ("c1".into(), "not run".into())]
    );
    assert!(r.stderr.contains("1 change(s) done, 1 not run"), "{}", r.stderr);
    assert_eq!(arm.count("PUT", "managedClusters/c1?"), 0, "KAITO waits for the pools");
    let again = apply(&arm, &file);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(
        results(&again),
        [("gpu".into(), "unchanged".into()), ("second".into(), "done".into()), ("c1".into(), "done".into())]
    );
    assert_eq!(arm.applied_count("PUT", "agentPools/gpu"), 1, "the pool done first is never sent again");
    assert_eq!(arm.applied_count("PUT", "agentPools/second"), 1);
    assert_eq!(arm.applied_count("PUT", "managedClusters/c1?"), 1);
    assert_eq!(apply(&arm, &file).json()["status"], "unchanged");
}

#[test]
fn export_then_apply_changes_nothing() {
    let arm = FakeArm::start();
    arm.put_pool(
        "c1",
        "spotmig",
        json!({"name": "spotmig", "properties": {
            "vmSize": "Standard_NC24ads_A100_v4", "count": 2, "enableAutoScaling": true, "minCount": 1, "maxCount": 4,
            "mode": "User", "osType": "Linux", "osSKU": "Ubuntu", "gpuInstanceProfile": "MIG1g", "gpuProfile": {"driver": "None"},
            "scaleSetPriority": "Spot", "scaleSetEvictionPolicy": "Delete", "spotMaxPrice": -1,
            "nodeTaints": ["sku=gpu:NoSchedule", "kubernetes.azure.com/scalesetpriority=spot:NoSchedule"],
            "nodeLabels": {"team": "ml"}, "availabilityZones": ["1", "2"], "maxPods": 110, "osDiskType": "Managed",
            "provisioningState": "Succeeded"}}),
    );
    arm.put_pool(
        "c1",
        "system",
        json!({"name": "system", "properties": {"vmSize": "Standard_D4ds_v5", "count": 2, "mode": "System"}}),
    );
    let dir = temp_dir("apply-export");
    let out = dir.join("exported.yaml");
    let e = aksgpu_arm(&arm.base, &["export", "-g", "rg", "--cluster", "c1", "-f", out.to_str().expect("path")], &[]);
    assert_eq!(e.code, 0, "{}", e.stderr);
    let text = std::fs::read_to_string(&out).expect("exported");
    assert!(text.contains("name: spotmig") && !text.contains("system"), "{text}");
    assert!(!text.contains("scalesetpriority=spot"), "AKS's own spot taint is not exported: {text}");
    let d = cmd(&arm, "diff", &out, &[]);
    assert_eq!(d.code, 0, "{}{}", d.stdout, d.stderr);
    let r = apply(&arm, &out);
    assert_eq!((r.code, r.json()["status"].clone()), (0, json!("unchanged")), "{}", r.stderr);
    let j = aksgpu_arm(&arm.base, &["export", "-g", "rg", "--cluster", "c1", "-o", "json"], &[]);
    assert_eq!(j.code, 0, "{}", j.stderr);
    assert_eq!(j.json()["pools"][0]["minCount"], 1);
    let as_json = write(&dir, "exported.json", &j.stdout);
    assert_eq!(cmd(&arm, "diff", &as_json, &[]).code, 0, "the JSON export applies as no change too");
    assert!(writes(&arm).is_empty(), "{:?}", writes(&arm));
}

#[test]
fn bad_files_exit_2_with_file_line_and_column() {
    let arm = FakeArm::start();
    let dir = temp_dir("apply-bad");
    let file = write(&dir, "bad.yaml", &ONE_POOL.replace("    count: 1", "    count: 1\n    colour: blue"));
    for verb in ["apply", "diff"] {
        let r = cmd(&arm, verb, &file, &["--yes"][..usize::from(verb == "apply")]);
        assert_eq!(r.code, 2, "{verb}: {}", r.stderr);
        let at = format!("{}:8:5: ", file.display());
        assert!(r.stderr.contains(&at) && r.stderr.contains("colour is not a key here"), "{verb}: {}", r.stderr);
    }
    let file = write(&dir, "retired.yaml", &ONE_POOL.replace("Standard_NC4as_T4_v3", "Standard_NC6s_v3"));
    let r = cmd(&arm, "diff", &file, &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains(&format!("{}:6:13: pools[0].vmSize: ", file.display())), "{}", r.stderr);
    assert!(r.stderr.contains("retired"), "{}", r.stderr);
    let file = write(
        &dir,
        "count.json",
        r#"{"apiVersion": "aksgpu/v1", "kind": "GpuConfig",
 "cluster": {"resourceGroup": "rg", "name": "c1"},
 "pools": [{"name": "gpu", "vmSize": "Standard_NC4as_T4_v3", "minCount": 3, "maxCount": 1}]}"#,
    );
    let r = cmd(&arm, "diff", &file, &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains(":3:74: pools[0].minCount: minCount 3 is larger than maxCount 1"), "{}", r.stderr);
    assert!(arm.log().is_empty(), "a bad file is refused before anything is read");
}

/// One refusal, two surfaces: the file names the keys (with line and column), `create-pool`
/// the flags, in the same words.
#[test]
fn a_pool_refusal_names_the_file_key_or_the_flag() {
    let arm = FakeArm::start();
    let dir = temp_dir("apply-surfaces");
    let cases: [(&str, &[&str], &str, &str); 3] = [
        (
            "    minCount: 3\n    maxCount: 1",
            &["--min-count", "3", "--max-count", "1"],
            ":7:15: pools[0].minCount: minCount 3 is larger than maxCount 1",
            "--min-count: --min-count 3 is larger than --max-count 1",
        ),
        (
            "    count: 5\n    minCount: 1\n    maxCount: 3",
            &["--count", "5", "--min-count", "1", "--max-count", "3"],
            ":7:12: pools[0].count: count 5 is outside minCount 1 … maxCount 3",
            "--count: --count 5 is outside --min-count 1 … --max-count 3",
        ),
        (
            "    count: 1\n    migStrategy: Single\n    migProfiles: [MIG3g]",
            &["--gpu-mig-strategy", "Single", "--mig-profiles", "MIG3g"],
            "pools[0].migStrategy: managed MIG (migStrategy, migProfiles) configures AKS-managed GPU pools",
            "--gpu-mig-strategy: managed MIG (--gpu-mig-strategy, --mig-profiles) configures AKS-managed GPU pools",
        ),
    ];
    for (i, (keys, flags, in_file, in_cli)) in cases.into_iter().enumerate() {
        let text = ONE_POOL.replace("Standard_NC4as_T4_v3", "Standard_NC24ads_A100_v4").replace("    count: 1", keys);
        let file = write(&dir, &format!("case{i}.yaml"), &text);
        let r = cmd(&arm, "diff", &file, &[]);
        assert_eq!(r.code, 2, "{keys}: {}", r.stderr);
        assert!(r.stderr.contains(in_file), "{keys}: {}", r.stderr);
        let first = r.stderr.lines().next().unwrap_or_default();
        assert!(!first.contains("--") && !first.contains('{'), "{keys}: {}", r.stderr);
        let mut args = vec!["create-pool", "-g", "rg", "--cluster", "c1", "--name", "gpu", "--yes"];
        args.extend(["--vm-size", "Standard_NC24ads_A100_v4"]);
        args.extend(flags);
        let r = aksgpu_arm(&arm.base, &args, &[]);
        assert_eq!(r.code, 2, "{flags:?}: {}", r.stderr);
        assert!(r.stderr.contains(in_cli), "{flags:?}: {}", r.stderr);
        assert!(!r.stderr.contains('{'), "{flags:?}: {}", r.stderr);
    }
    assert!(arm.log().is_empty(), "refused before anything is read: {:?}", arm.calls());
}

#[test]
fn dry_run_json_works_without_credentials() {
    let dir = temp_dir("apply-offline");
    let file =
        write(&dir, "gpu.yaml", &(ONE_POOL.to_owned() + "features: [WindowsGPUPreview]\nkaito: {enabled: true}\n"));
    let r = aksgpu_with(
        &["apply", "-f", file.to_str().expect("path"), "--dry-run", "-o", "json"],
        &[("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9"), ("AZURE_SUBSCRIPTION_ID", SUB)],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["preflight"], "not run");
    let steps: Vec<(String, String)> = v["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter(|s| s["method"] != "GET")
        .map(|s| (s["method"].as_str().unwrap_or("").to_owned(), s["url"].as_str().unwrap_or("").to_owned()))
        .collect();
    assert_eq!(steps.len(), 4, "{steps:?}");
    assert!(steps[0].1.contains("features/WindowsGPUPreview/register"), "{steps:?}");
    assert!(steps[1].1.contains("providers/Microsoft.ContainerService/register"), "{steps:?}");
    assert!(steps[2].0 == "PUT" && steps[2].1.contains("agentPools/gpu"), "{steps:?}");
    assert!(steps[3].0 == "PUT" && steps[3].1.contains("managedClusters/c1?"), "{steps:?}");
}

#[test]
fn the_example_files_pass_every_catalog_rule() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    for name in ["gpuconfig.yaml", "gpuconfig-operator.json"] {
        let path = dir.join(name);
        let r = aksgpu_with(
            &["apply", "-f", path.to_str().expect("path"), "--dry-run", "-o", "json"],
            &[("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9"), ("AZURE_SUBSCRIPTION_ID", SUB)],
        );
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        assert!(r.json()["steps"].as_array().is_some_and(|s| s.iter().any(|x| x["method"] == "PUT")), "{name}");
    }
}

#[test]
fn the_operator_is_installed_once_then_read_and_left_alone() {
    let arm = FakeArm::start();
    let dir = temp_dir("apply-operator");
    let file = write(&dir, "gpu.yaml", &(ONE_POOL.to_owned() + "operator: {install: true, migStrategy: single}\n"));
    let first = apply(&arm, &file);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(
        results(&first),
        [("gpu".to_owned(), "done".to_owned()), ("gpu-operator".to_owned(), "done".to_owned())]
    );
    let pool_put = arm.log().into_iter().find(|r| r.method == "PUT").expect("pool PUT").json();
    assert_eq!(pool_put["properties"]["gpuProfile"]["driver"], "None", "as create-pool --install-operator");
    let installs = arm.log().iter().filter(|r| r.method == "POST" && r.body.contains("helm upgrade --install")).count();
    assert_eq!(installs, 1);
    // The release as the cluster would now report it: the values.yaml the install sent (the
    // runCommand context is a stored zip, so the file's bytes appear as they are).
    let install = arm.log().into_iter().find(|r| r.body.contains("helm upgrade --install")).expect("install").json();
    let values: Value = serde_yaml_ng::from_str(&sent_values(&install)).expect("yaml");
    let listed = json!([{"name": "gpu-operator", "namespace": "gpu-operator", "status": "deployed", "chart": "gpu-operator-v26.7.0"}]);
    arm.with(|s| {
        s.run_results.push(RunResult {
            running_polls: 0,
            state: "Succeeded".into(),
            exit_code: 0,
            logs: format!("{listed}\n---aksgpu-values---\n{values}\n"),
        })
    });
    let posts = arm.count("POST", "/");
    let second = apply(&arm, &file);
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert_eq!(second.json()["status"], "unchanged", "{}", second.stdout);
    assert_eq!(arm.count("PUT", "/"), 1);
    assert_eq!(arm.count("POST", "/"), posts + 1, "only the read-only release check: {:?}", writes(&arm));
    let check = arm.log().into_iter().rfind(|r| r.method == "POST").expect("check").json();
    assert!(check["command"].as_str().unwrap_or("").starts_with("helm list"), "{check}");
}

/// Ctrl-C while one pool is being created and another was refused: the refusal must not make
/// the message claim that nothing was changed.
#[test]
fn ctrl_c_during_concurrent_pools_stays_truthful() {
    use std::process::Command;
    use std::time::{Duration, Instant};
    let arm = FakeArm::start();
    let dir = temp_dir("apply-ctrl-c");
    let text = ONE_POOL.to_owned() + "  - name: second\n    vmSize: Standard_NV36ads_A10_v5\n    count: 1\n";
    let file = write(&dir, "gpu.yaml", &text);
    arm.fault(
        "PUT",
        "agentPools/second",
        1,
        respond(400, json!({"error": {"code": "InvalidParameter", "message": "no"}})),
    );
    arm.fault("GET", "/operations/", 1, crate::fake_arm::Action::StallHeaders);
    let child = spawn_apply(&arm, &file);
    let start = Instant::now();
    while !(arm.count("PUT", "agentPools/second") == 1 && arm.count("GET", "/operations/") == 1) {
        assert!(start.elapsed() < Duration::from_secs(30), "never saw both PUTs and the poll: {:?}", arm.calls());
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill");
    assert!(status.success());
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(!stderr.contains("Nothing was changed"), "{stderr}");
    assert!(stderr.contains("may have been accepted") && stderr.contains("aksgpu apply -f"), "{stderr}");
    assert_eq!(arm.count("PUT", "agentPools/gpu"), 1);
}

/// `diff` exits as kubectl's: 0 same, 1 differences (said without "error"), 2 or more on any
/// error, including a missing cluster or a refused connection.
#[test]
fn diff_exit_codes_follow_kubectl() {
    let arm = FakeArm::start();
    let dir = temp_dir("diff-exit");
    let file = write(&dir, "gpu.yaml", ONE_POOL);
    let d = cmd(&arm, "diff", &file, &[]);
    assert_eq!(d.code, 1, "{}{}", d.stdout, d.stderr);
    assert!(d.stderr.contains("would change") && !d.stderr.to_lowercase().contains("error"), "{}", d.stderr);
    assert_eq!(apply(&arm, &file).code, 0);
    assert_eq!(cmd(&arm, "diff", &file, &[]).code, 0);
    let missing = write(&dir, "missing.yaml", &ONE_POOL.replace("name: c1", "name: nosuch"));
    let d = cmd(&arm, "diff", &missing, &[]);
    assert!(d.code >= 2, "a 404 cluster is an error, not a difference: {} {}", d.code, d.stderr);
    let r = aksgpu_with(
        &["diff", "-f", file.to_str().expect("path")],
        &[
            ("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9"),
            ("AKSGPU_ACCESS_TOKEN", crate::fake_arm::TOKEN),
            ("AZURE_SUBSCRIPTION_ID", SUB),
            ("AKSGPU_TEST_NO_RETRY_DELAY", "1"),
        ],
    );
    assert!(r.code >= 2, "a refused connection is an error, not a difference: {} {}", r.code, r.stderr);
}

/// Server text in apply's result rows passes the same redaction as stderr, in the table and in
/// JSON.
#[test]
fn secrets_in_apply_results_are_redacted_on_stdout() {
    let arm = FakeArm::start();
    let dir = temp_dir("apply-redact");
    let file = write(&dir, "gpu.yaml", ONE_POOL);
    let message = "copy failed: https://acct.blob.core.windows.net/c/x?sv=2024-01-01&sig=SeCrEtSiGnAtUrE0123456789 {\"accessToken\": \"tok-0123456789abcdef\", \"password\": \"hunter2-hunter2\"}";
    for format in ["json", "table"] {
        arm.fault(
            "PUT",
            "agentPools/gpu",
            1,
            respond(400, json!({"error": {"code": "InvalidParameter", "message": message}})),
        );
        let r = cmd(&arm, "apply", &file, &["--yes", "-o", format]);
        assert_eq!(r.code, 1, "{format}: {}", r.stderr);
        assert!(r.stdout.contains("failed"), "{format}: {}", r.stdout);
        for secret in ["SeCrEtSiGnAtUrE0123456789", "tok-0123456789abcdef", "hunter2-hunter2"] {
            assert!(!r.stdout.contains(secret), "{format}: {secret} on stdout:\n{}", r.stdout);
            assert!(!r.stderr.contains(secret), "{format}: {secret} on stderr:\n{}", r.stderr);
        }
    }
}

/// A Failed pool is reported as failed with Azure's error, exit 1, and nothing is built on it.
#[test]
fn a_failed_pool_is_failed_and_nothing_is_built_on_it() {
    let arm = FakeArm::start();
    arm.put_pool(
        "c1",
        "gpu",
        json!({"name": "gpu", "properties": {"vmSize": "Standard_NC4as_T4_v3", "count": 1, "mode": "User",
            "osType": "Linux", "enableAutoScaling": false, "nodeTaints": ["sku=gpu:NoSchedule"], "nodeLabels": {"team": "ml"},
            "provisioningState": "Failed",
            "status": {"provisioningError": {"code": "AllocationFailed", "message": "no capacity for Standard_NC4as_T4_v3"}}}}),
    );
    let dir = temp_dir("apply-failed");
    let file = write(&dir, "gpu.yaml", &(ONE_POOL.to_owned() + "kaito: {enabled: true}\n"));
    let d = cmd(&arm, "diff", &file, &["-o", "json"]);
    assert_eq!(d.code, 1, "{}", d.stderr);
    assert_eq!(actions(&d)[0], ("gpu".to_owned(), "failed".to_owned()));
    let r = apply(&arm, &file);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(results(&r), [("gpu".to_owned(), "failed".to_owned()), ("c1".to_owned(), "not run".to_owned())]);
    assert!(r.stdout.contains("AllocationFailed: no capacity"), "{}", r.stdout);
    assert!(writes(&arm).is_empty(), "nothing is built on a Failed pool: {:?}", writes(&arm));
}

/// The adoption path: export a cluster whose GPU pool has no gpuProfile, add the operator,
/// diff. The pool is not refused; the operator is shown with its driver disabled; diff sends
/// no runCommand.
#[test]
fn an_exported_pool_without_gpu_profile_adopts_the_operator() {
    let arm = FakeArm::start();
    arm.put_pool(
        "c1",
        "gpu",
        json!({"name": "gpu", "properties": {"vmSize": "Standard_NC4as_T4_v3", "count": 1, "mode": "System",
            "osType": "Linux", "osSKU": "Ubuntu", "enableAutoScaling": false, "provisioningState": "Succeeded"}}),
    );
    let dir = temp_dir("apply-adopt");
    let out = dir.join("exported.yaml");
    let e = aksgpu_arm(&arm.base, &["export", "-g", "rg", "--cluster", "c1", "-f", out.to_str().expect("path")], &[]);
    assert_eq!(e.code, 0, "{}", e.stderr);
    let text = std::fs::read_to_string(&out).expect("exported");
    assert!(text.contains(&format!("subscription: {SUB}")), "export records the subscription: {text}");
    assert_eq!(cmd(&arm, "diff", &out, &[]).code, 0, "a System-mode GPU pool round-trips");
    let file = write(&dir, "adopt.yaml", &(text + "operator: {install: true}\n"));
    let d = cmd(&arm, "diff", &file, &["-o", "json"]);
    assert_eq!(d.code, 0, "{}{}", d.stdout, d.stderr);
    let changes = d.json()["changes"].clone();
    assert_eq!(changes[0]["action"], "no-change", "{changes}");
    let op = changes.as_array().expect("changes").iter().find(|c| c["kind"] == "operator").expect("operator").clone();
    assert_eq!(op["action"], "not-checked", "{op}");
    assert!(op["detail"].as_str().unwrap_or("").contains("driver and toolkit disabled"), "{op}");
    let dry = cmd(&arm, "apply", &file, &["--dry-run", "-o", "json"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert!(arm.log().iter().all(|r| r.method == "GET"), "diff and dry runs only read: {:?}", writes(&arm));
}

/// `export -f` writes through a temporary file and a rename: a symlink planted at the path is
/// replaced, and the file it pointed to is untouched.
#[cfg(unix)]
#[test]
fn export_never_writes_through_a_planted_symlink() {
    let arm = FakeArm::start();
    let dir = temp_dir("export-symlink");
    let victim = write(&dir, "victim.txt", "keep me\n");
    let out = dir.join("out.yaml");
    std::os::unix::fs::symlink(&victim, &out).expect("symlink");
    let path = out.to_str().expect("path");
    // Without --force the existing name (a symlink too) is refused, and nothing is touched.
    let refused = aksgpu_arm(&arm.base, &["export", "-g", "rg", "--cluster", "c1", "-f", path], &[]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(std::fs::symlink_metadata(&out).expect("out").file_type().is_symlink());
    let e = aksgpu_arm(&arm.base, &["export", "-g", "rg", "--cluster", "c1", "-f", path, "--force"], &[]);
    assert_eq!(e.code, 0, "{}", e.stderr);
    assert_eq!(std::fs::read_to_string(&victim).expect("victim"), "keep me\n");
    assert!(!std::fs::symlink_metadata(&out).expect("out").file_type().is_symlink());
    assert!(std::fs::read_to_string(&out).expect("out").contains("kind: GpuConfig"));
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// Input bounds and values: a FIFO, a huge file, a comma in a tag, a misspelled feature, a bad
/// cluster name with no pools: exit 2, with the line where there is one, before any request.
#[cfg(unix)]
#[test]
fn bad_inputs_exit_2_before_any_request() {
    let arm = FakeArm::start();
    let dir = temp_dir("apply-bounds");
    let fifo = dir.join("fifo.yaml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let r = cmd(&arm, "diff", &fifo, &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
    let big = write(&dir, "big.yaml", &(ONE_POOL.to_owned() + &format!("# {}\n", "x".repeat(5 << 20))));
    let r = cmd(&arm, "diff", &big, &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("larger than 4 MiB") && r.stderr.len() < 2000,
        "{}",
        &r.stderr[..r.stderr.len().min(500)]
    );
    let comma = write(&dir, "comma.yaml", &(ONE_POOL.to_owned() + "    tags: {owner: \"ml,team=x\"}\n"));
    let r = cmd(&arm, "apply", &comma, &["--yes"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains(&format!("{}:9:", comma.display())) && r.stderr.contains("comma"), "{}", r.stderr);
    let typo = write(&dir, "typo.yaml", &(ONE_POOL.to_owned() + "features: [WindowsGPUPrevew]\n"));
    let r = cmd(&arm, "diff", &typo, &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("did you mean WindowsGPUPreview?"), "{}", r.stderr);
    let names = write(
        &dir,
        "names.yaml",
        "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: \"c1?x=1\"}\n",
    );
    let r = cmd(&arm, "diff", &names, &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("cluster.name"), "{}", r.stderr);
    let r = aksgpu_arm(&arm.base, &["register-feature", "WindowsGPUPrevew"], &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("did you mean WindowsGPUPreview?"), "{}", r.stderr);
    let r = aksgpu_arm(&arm.base, &["export", "-g", "rg", "--cluster", "c1/../x"], &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(arm.log().is_empty(), "no request carries a bad name: {:?}", arm.calls());
}

/// A nextLink that repeats its own page stops the read with an error: the pool is never
/// exported twice, and the exit is not 0.
#[test]
fn a_repeating_next_link_is_an_error_not_a_duplicated_export() {
    let arm = FakeArm::start();
    let pools = format!("{}/agentPools", crate::fake_arm::cluster_path("c1"));
    let again = format!("{}{pools}?api-version=2026-10-01&page=2", arm.base);
    let page = json!({"value": [{"name": "gpu", "properties": {"vmSize": "Standard_NC4as_T4_v3", "count": 1}}], "nextLink": again});
    arm.fault("GET", "/agentPools", 5000, respond(200, page));
    let r = aksgpu_arm(&arm.base, &["export", "-g", "rg", "--cluster", "c1"], &[]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(r.stderr.contains("nextLink repeats"), "{}", r.stderr);
    assert!(arm.count("GET", "/agentPools") <= 3, "fetched {} times", arm.count("GET", "/agentPools"));
}

/// A run stopped after the feature registered but before the provider was refreshed: the
/// rerun reads the provider's state and refreshes it, instead of "no change".
#[test]
fn a_registered_feature_with_an_unrefreshed_provider_is_refreshed() {
    let arm = FakeArm::start();
    arm.with(|s| {
        s.features.insert(
            "windowsgpupreview".into(),
            json!({"name": "Microsoft.ContainerService/WindowsGPUPreview", "properties": {"state": "Registered"}}),
        );
        s.provider_states = vec!["Registering".into(), "Registering".into(), "Registering".into(), "Registered".into()];
    });
    let dir = temp_dir("apply-provider");
    let file = write(&dir, "f.yaml", "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\nfeatures: [WindowsGPUPreview]\n");
    let d = cmd(&arm, "diff", &file, &["-o", "json"]);
    assert_eq!(d.code, 1, "{}{}", d.stdout, d.stderr);
    assert!(
        d.json()["changes"][0]["detail"].as_str().unwrap_or("").contains("provider is Registering"),
        "{}",
        d.stdout
    );
    let r = apply(&arm, &file);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(arm.count("POST", "providers/Microsoft.ContainerService/register"), 1, "{:?}", arm.calls());
    assert_eq!(arm.count("POST", "features/WindowsGPUPreview/register"), 0, "the feature is not registered again");
    assert_eq!(cmd(&arm, "diff", &file, &[]).code, 0);
}

/// `--timeout` bounds reading `-f`: a FIFO with no writer is refused at once, naming the path,
/// and a stdin (`-f -`) whose writer never finishes stops at the timeout (naming stdin and the
/// timeout); more than 4 MiB on stdin is refused. The test bounds its own runtime.
#[cfg(unix)]
#[test]
fn reading_the_file_never_outlasts_the_timeout() {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let arm = FakeArm::start();
    let dir = temp_dir("apply-read-timeout");
    let fifo = dir.join("no-writer.yaml");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let started = Instant::now();
    let r = cmd(&arm, "diff", &fifo, &["--timeout", "1s"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains(fifo.to_str().expect("utf-8 path")), "{}", r.stderr);
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());

    // stdin: `bytes` (or nothing, with the pipe held open); the child is killed after 20 s.
    let run_stdin = |bytes: Option<Vec<u8>>| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_aksgpu"));
        c.args(["diff", "-f", "-", "--timeout", "1s"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, _) in std::env::vars().filter(|(k, _)| k.starts_with("AZURE_") || k.starts_with("AKSGPU_")) {
            c.env_remove(k);
        }
        for (k, v) in crate::support::arm_env(&arm.base) {
            c.env(k, v);
        }
        let mut child = c.spawn().expect("spawn");
        let mut stdin = child.stdin.take().expect("stdin");
        let writer = std::thread::spawn(move || {
            if let Some(b) = bytes {
                let _ = stdin.write_all(&b);
                drop(stdin);
            } else {
                std::thread::sleep(Duration::from_secs(30));
                drop(stdin);
            }
        });
        let start = Instant::now();
        while child.try_wait().expect("try_wait").is_none() {
            if start.elapsed() > Duration::from_secs(20) {
                let _ = child.kill();
                panic!("aksgpu still reading stdin after 20 s");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let out = child.wait_with_output().expect("wait");
        drop(writer);
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned(), start.elapsed())
    };
    let (code, stderr, took) = run_stdin(None);
    assert_eq!(code, Some(2), "diff exits 2 on any error, as kubectl diff does: {stderr}");
    assert!(stderr.contains("<stdin>") && stderr.contains("--timeout"), "{stderr}");
    assert!(took < Duration::from_secs(10), "took {took:?}");
    let (code, stderr, _) = run_stdin(Some(vec![b'#'; 5 << 20]));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("-f -: larger than 4 MiB") && stderr.len() < 2000, "{stderr}");
    assert!(arm.calls().is_empty(), "{:?}", arm.calls());
}

/// A pool with an operation running in Azure is never "no change": `diff` says `wait` (exit
/// 1); `apply` waits for a Creating pool and then finds it as in the file (no PUT), and waits
/// until a Deleting pool is gone, then creates it (one PUT).
#[test]
fn pools_creating_or_deleting_in_azure_are_waited_for() {
    let arm = FakeArm::start();
    let dir = temp_dir("apply-busy-pools");
    let file = write(&dir, "gpu.yaml", ONE_POOL);
    assert_eq!(apply(&arm, &file).code, 0);
    let key = crate::fake_arm::pool_path("c1", "gpu").to_ascii_lowercase();
    arm.with(|s| {
        if let Some(p) = s.pools.get_mut(&key) {
            p["properties"]["provisioningState"] = json!("Creating");
        }
    });
    arm.script_pool("c1", "gpu", &["Creating", "Creating", "Succeeded"]);
    let d = cmd(&arm, "diff", &file, &["-o", "json"]);
    assert_eq!(d.code, 1, "{}{}", d.stdout, d.stderr);
    assert_eq!(actions(&d), [("gpu".to_owned(), "wait".to_owned())], "{}", d.stdout);
    assert!(d.json()["changes"][0]["detail"].as_str().unwrap_or("").starts_with("Creating in Azure"), "{}", d.stdout);
    let r = apply(&arm, &file);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(results(&r), [("gpu".to_owned(), "unchanged".to_owned())], "{}", r.stdout);
    assert_eq!(arm.count("PUT", "agentPools/gpu"), 1, "only the first apply's PUT: {:?}", writes(&arm));

    let arm = FakeArm::start();
    assert_eq!(apply(&arm, &file).code, 0);
    arm.deleting_pool("c1", "gpu", 3);
    let d = cmd(&arm, "diff", &file, &["-o", "json"]);
    assert_eq!(d.code, 1, "{}{}", d.stdout, d.stderr);
    assert_eq!(actions(&d), [("gpu".to_owned(), "wait".to_owned())], "{}", d.stdout);
    assert!(d.json()["changes"][0]["detail"].as_str().unwrap_or("").starts_with("Deleting in Azure"), "{}", d.stdout);
    let r = apply(&arm, &file);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(results(&r)[0].1, "done", "{}", r.stdout);
    assert_eq!(arm.count("PUT", "agentPools/gpu"), 2, "created again once it was gone: {:?}", writes(&arm));
    assert_eq!(arm.count("DELETE", "/"), 0, "nothing is deleted by apply");
}

/// A run stopped by `--timeout` while the feature is still Registering: Azure then shows the
/// feature Registered and the provider Registered (never refreshed), and only the marker the
/// stopped run left says the refresh is owed. The rerun re-registers the provider exactly
/// once; later runs (apply, register-feature) send nothing.
#[test]
fn a_registration_stopped_while_registering_refreshes_the_provider_on_rerun() {
    let arm = FakeArm::start();
    arm.with(|s| {
        s.features.insert(
            "windowsgpupreview".into(),
            json!({"name": "Microsoft.ContainerService/WindowsGPUPreview", "properties": {"state": "NotRegistered"}}),
        );
        s.feature_scripts.insert("windowsgpupreview".into(), vec!["Registering".into()]);
        s.provider_states = vec!["Registered".into()];
    });
    let dir = temp_dir("apply-provider-owed");
    let cache = dir.join("cache");
    let cache_s = cache.to_str().expect("utf-8 path");
    let file = write(&dir, "f.yaml", "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\nfeatures: [WindowsGPUPreview]\n");
    let f = file.to_str().expect("utf-8 path");
    let run = |args: &[&str]| aksgpu_arm(&arm.base, args, &[("AKSGPU_CACHE_DIR", cache_s)]);
    let provider_posts = || arm.count("POST", "providers/Microsoft.ContainerService/register");

    let stopped = run(&["apply", "-f", f, "--yes", "--timeout", "2s"]);
    assert_eq!(stopped.code, 4, "{}", stopped.stderr);
    assert_eq!(arm.count("POST", "features/WindowsGPUPreview/register"), 1);
    assert_eq!(provider_posts(), 0, "stopped while the feature was Registering");

    // Azure finishes the registration on its own; the provider never was refreshed.
    arm.with(|s| {
        if let Some(f) = s.features.get_mut("windowsgpupreview") {
            f["properties"]["state"] = json!("Registered");
        }
    });
    let d = run(&["diff", "-f", f, "-o", "json"]);
    assert_eq!(d.code, 1, "{}{}", d.stdout, d.stderr);
    assert!(d.json()["changes"][0]["detail"].as_str().unwrap_or("").contains("stopped before"), "{}", d.stdout);

    let r = run(&["apply", "-f", f, "--yes", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(provider_posts(), 1, "{:?}", arm.calls());
    assert_eq!(arm.count("POST", "features/WindowsGPUPreview/register"), 1, "the feature is never registered again");

    let again = run(&["apply", "-f", f, "--yes", "-o", "json"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    let by_hand = run(&["register-feature", "--yes", "WindowsGPUPreview"]);
    assert_eq!(by_hand.code, 0, "{}", by_hand.stderr);
    assert_eq!(provider_posts(), 1, "the refresh was confirmed: {:?}", arm.calls());
    assert_eq!(run(&["diff", "-f", f]).code, 0);
}

/// The same after Ctrl-C while the feature is Registering: the rerun refreshes the provider
/// once, and the run after it sends nothing.
#[test]
fn ctrl_c_while_the_feature_is_registering_leaves_the_provider_refresh_owed() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let arm = FakeArm::start();
    arm.with(|s| {
        s.features.insert(
            "windowsgpupreview".into(),
            json!({"name": "Microsoft.ContainerService/WindowsGPUPreview", "properties": {"state": "NotRegistered"}}),
        );
        s.feature_scripts.insert("windowsgpupreview".into(), vec!["Registering".into()]);
        s.provider_states = vec!["Registered".into()];
    });
    let dir = temp_dir("apply-provider-ctrl-c");
    let cache = dir.join("cache");
    let file = write(&dir, "f.yaml", "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\nfeatures: [WindowsGPUPreview]\n");
    let f = file.to_str().expect("utf-8 path");
    let mut c = Command::new(env!("CARGO_BIN_EXE_aksgpu"));
    c.args(["apply", "-f", f, "--yes"]).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    for (k, _) in std::env::vars().filter(|(k, _)| k.starts_with("AZURE_") || k.starts_with("AKSGPU_")) {
        c.env_remove(k);
    }
    for (k, v) in crate::support::arm_env(&arm.base) {
        c.env(k, v);
    }
    c.env("AKSGPU_CACHE_DIR", &cache);
    let child = c.spawn().expect("spawn");
    let start = Instant::now();
    // The register POST was sent and the feature has been polled at least twice since.
    while arm.count("POST", "features/WindowsGPUPreview/register") == 0
        || arm.count("GET", "features/WindowsGPUPreview?") < 3
    {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = Command::new("kill").args(["-KILL", &child.id().to_string()]).status();
            panic!("never saw the feature polled: {:?}", arm.calls());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill").success());
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(arm.count("POST", "providers/Microsoft.ContainerService/register"), 0);

    arm.with(|s| {
        if let Some(f) = s.features.get_mut("windowsgpupreview") {
            f["properties"]["state"] = json!("Registered");
        }
    });
    let cache_s = cache.to_str().expect("utf-8 path");
    let run = || aksgpu_arm(&arm.base, &["apply", "-f", f, "--yes", "-o", "json"], &[("AKSGPU_CACHE_DIR", cache_s)]);
    let r = run();
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(arm.count("POST", "providers/Microsoft.ContainerService/register"), 1, "{:?}", arm.calls());
    let again = run();
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(arm.count("POST", "providers/Microsoft.ContainerService/register"), 1, "{:?}", arm.calls());
    assert_eq!(arm.count("POST", "features/WindowsGPUPreview/register"), 1);
}

/// Ctrl-C while create-pool's preflight reads are running: nothing was sent, and the message
/// says so.
#[test]
fn ctrl_c_during_preflight_reads_says_nothing_was_changed() {
    use std::process::Command;
    use std::time::{Duration, Instant};
    let arm = FakeArm::start();
    let dir = temp_dir("apply-ctrl-c-preflight");
    let file = write(&dir, "gpu.yaml", ONE_POOL);
    arm.fault("GET", "/usages", 1, crate::fake_arm::Action::StallHeaders);
    let child = spawn_apply(&arm, &file);
    let start = Instant::now();
    while arm.count("GET", "/usages") == 0 {
        assert!(start.elapsed() < Duration::from_secs(30), "never saw the preflight read: {:?}", arm.calls());
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill");
    assert!(status.success());
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("Nothing was changed") && !stderr.contains("may have been accepted"), "{stderr}");
    assert!(writes(&arm).is_empty(), "{:?}", writes(&arm));
}

/// Whatever export writes, apply accepts: an A100 pool on Azure Linux 2 (an OS SKU AKS no
/// longer provisions for new A100 pools) exports and diffs as no change; a new pool with that
/// OS SKU is still refused.
#[test]
fn an_exported_azure_linux_a100_pool_round_trips() {
    let arm = FakeArm::start();
    arm.put_pool(
        "c1",
        "a100",
        json!({"name": "a100", "properties": {"vmSize": "Standard_NC24ads_A100_v4", "count": 1, "mode": "User",
            "osType": "Linux", "osSKU": "AzureLinux", "enableAutoScaling": false, "nodeTaints": [],
            "provisioningState": "Succeeded"}}),
    );
    let dir = temp_dir("apply-azl");
    let out = dir.join("exported.yaml");
    let e = aksgpu_arm(&arm.base, &["export", "-g", "rg", "--cluster", "c1", "-f", out.to_str().expect("path")], &[]);
    assert_eq!(e.code, 0, "{}", e.stderr);
    let text = std::fs::read_to_string(&out).expect("exported");
    assert!(text.contains("osSku: AzureLinux"), "{text}");
    let d = cmd(&arm, "diff", &out, &[]);
    assert_eq!(d.code, 0, "{}{}", d.stdout, d.stderr);
    let renamed = write(&dir, "new.yaml", &text.replace("name: a100", "name: a100new"));
    let d = cmd(&arm, "diff", &renamed, &["-o", "json"]);
    assert_eq!(d.code, 1, "{}", d.stderr);
    assert_eq!(actions(&d)[0], ("a100new".to_owned(), "refused".to_owned()), "{}", d.stdout);
    assert!(writes(&arm).is_empty());
}

/// A pool's `recommend:` ranks and prices in the cluster's location (read from Azure), as
/// `create-pool --recommend` does: the size `diff` plans is one sold there.
#[test]
fn recommend_in_a_file_ranks_in_the_clusters_location() {
    let arm = FakeArm::start();
    arm.edit_cluster("c1", |c| c["location"] = json!("northeurope"));
    let dir = temp_dir("apply-recommend-location");
    let file = write(
        &dir,
        "gpu.yaml",
        "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n  - name: gpu\n    recommend: {model: llama-3.1-8b}\n    count: 1\n",
    );
    let r = cmd(&arm, "diff", &file, &["-o", "json"]);
    let catalog = aksgpu::catalog::Catalog::bundled().expect("catalog");
    let text = r.stdout.clone() + &r.stderr;
    let size = catalog
        .sizes
        .iter()
        .map(|s| s.name.to_string())
        .find(|n| text.contains(n.as_str()))
        .unwrap_or_else(|| panic!("no size named: {text}"));
    assert!(catalog.price(&size, "northeurope").is_some(), "{size} has no price in northeurope: {text}");
    assert!(arm.log().iter().all(|q| q.method == "GET"), "{:?}", arm.calls());
}

/// A `recommend:` block's serving fields reach the same requirements as `recommend`'s flags:
/// a throughput target moves the pick off the memory-only answer, to the size the flags pick.
#[test]
fn recommend_serving_fields_pick_what_the_flags_pick() {
    let flags = aksgpu_with(
        &[
            "recommend",
            "--model",
            "llama-3.1-8b",
            "--concurrency",
            "32",
            "--min-tokens-per-second",
            "3000",
            "--max-ttft",
            "2s",
            "-o",
            "json",
        ],
        &[],
    );
    assert_eq!(flags.code, 0, "{}", flags.stderr);
    let want = flags.json()["recommendations"][0]["vm_size"].as_str().expect("a size").to_owned();
    let plain = aksgpu_with(&["recommend", "--model", "llama-3.1-8b", "-o", "json"], &[]);
    let memory_only = plain.json()["recommendations"][0]["vm_size"].as_str().expect("a size").to_owned();
    assert_ne!(want, memory_only, "the target must change the answer for this test to mean anything");
    let dir = temp_dir("apply-recommend-serving");
    let file = write(
        &dir,
        "gpu.yaml",
        "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n  - name: gpu\n    recommend:\n      model: llama-3.1-8b\n      concurrency: 32\n      minTokensPerSecond: 3000\n      maxTtft: 2s\n    count: 1\n",
    );
    let r = aksgpu_with(
        &["apply", "-f", file.to_str().expect("path"), "--dry-run", "-o", "json"],
        &[("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9"), ("AZURE_SUBSCRIPTION_ID", SUB)],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let put = r.json()["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .find(|s| s["method"] == "PUT" && s["url"].as_str().is_some_and(|u| u.contains("agentPools/gpu")))
        .cloned()
        .unwrap_or_else(|| panic!("no pool PUT: {}", r.stdout));
    assert_eq!(put["body"]["properties"]["vmSize"], want.as_str(), "{}", r.stdout);
}

/// A GpuConfig pool whose `recommend:` describes a service on 2 nodes (`recommend` answers
/// Standard_NC40ads_H100_v5 × 2): without a count the PUT carries 2, and `diff` shows the
/// same; `count: 1` is kept, with a warning naming `pools[0].count`.
#[test]
fn a_recommend_block_sizes_the_pool_from_the_recommended_nodes() {
    let dir = temp_dir("apply-recommend-nodes");
    let pool = "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n  - name: gpu\n    recommend:\n      model: qwen3-30b-a3b\n      concurrency: 32\n      minTokensPerSecondPerUser: 40\n";
    let offline = [("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9"), ("AZURE_SUBSCRIPTION_ID", SUB)];
    let put = |text: &str, name: &str| {
        let file = write(&dir, name, text);
        let r = aksgpu_with(&["apply", "-f", file.to_str().expect("path"), "--dry-run", "-o", "json"], &offline);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let body = r.json()["steps"]
            .as_array()
            .expect("steps")
            .iter()
            .find(|s| s["method"] == "PUT" && s["url"].as_str().is_some_and(|u| u.contains("agentPools/gpu")))
            .map(|s| s["body"]["properties"].clone())
            .unwrap_or_else(|| panic!("no pool PUT: {}", r.stdout));
        (body, r.stderr)
    };
    let (body, err) = put(pool, "nodes.yaml");
    assert_eq!(body["vmSize"], "Standard_NC40ads_H100_v5", "{err}");
    assert_eq!(body["count"], 2, "{err}");
    assert!(err.contains("note: pool gpu: count 2: the recommended deployment runs on 2 nodes"), "{err}");
    let (body, err) = put(&format!("{pool}    count: 1\n"), "one.yaml");
    assert_eq!(body["count"], 1, "the file's count is kept: {err}");
    assert!(
        err.contains("warning: pool gpu: pools[0].count 1 is fewer than the 2 nodes the workload described needs"),
        "{err}"
    );
    // `diff` shows the same pool: the count the PUT would carry.
    let arm = FakeArm::start();
    let file = write(&dir, "diff.yaml", pool);
    let d = cmd(&arm, "diff", &file, &["-o", "json"]);
    assert!(d.stdout.contains("Standard_NC40ads_H100_v5"), "{}", d.stdout);
    let created = d.json()["changes"].as_array().expect("changes").iter().find(|c| c["name"] == "gpu").cloned();
    assert!(created.is_some_and(|c| c["detail"].as_str().unwrap_or("").contains("2 node(s)")), "{}", d.stdout);
}

/// A bad `maxTtft` is refused as the flag refuses it, naming the field and its line.
#[test]
fn a_bad_max_ttft_names_the_field_and_line() {
    let dir = temp_dir("apply-recommend-bad-ttft");
    let file = write(
        &dir,
        "gpu.yaml",
        "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n  - name: gpu\n    recommend:\n      model: llama-3.1-8b\n      maxTtft: soon\n    count: 1\n",
    );
    let r = aksgpu_with(
        &["apply", "-f", file.to_str().expect("path"), "--dry-run", "-o", "json"],
        &[("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9"), ("AZURE_SUBSCRIPTION_ID", SUB)],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("pools[0].recommend.maxTtft"), "{}", r.stderr);
    assert!(r.stderr.contains("gpu.yaml:8"), "{}", r.stderr);
    assert!(r.stderr.contains("not a latency"), "{}", r.stderr);
}

/// A GpuConfig's `overrides:` reach its `recommend:` pools too: the Windows Kubernetes minimum
/// that refuses the ranking becomes a warning, as it does for the pool itself.
#[test]
fn file_overrides_reach_recommend_pools() {
    let dir = temp_dir("apply-recommend-override");
    let pool =
        "pools:\n  - {name: gpuw, os: windows, kubernetesVersion: '1.28', count: 1, recommend: {gpuModel: [T4]}}\n";
    let base = format!("apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {{resourceGroup: rg, name: c1}}\n{pool}");
    let env = [("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9"), ("AZURE_SUBSCRIPTION_ID", SUB)];
    let refused = write(&dir, "refused.yaml", &base);
    let r = aksgpu_with(&["apply", "-f", refused.to_str().expect("path"), "--dry-run", "-o", "json"], &env);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--override windows-gpu-min-kubernetes"), "{}", r.stderr);
    let ok = write(&dir, "ok.yaml", &(base + "overrides: [windows-gpu-min-kubernetes]\n"));
    let r = aksgpu_with(&["apply", "-f", ok.to_str().expect("path"), "--dry-run", "-o", "json"], &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("overriding catalog rule windows-gpu-min-kubernetes"), "{}", r.stderr);
}

/// The same refused setting, from `recommend`'s flags and from a file's `recommend:`: the
/// CLI names the flags (`--tensor-parallel`, `--pipeline-parallel` in the hint); the file names
/// the pool's keys (`pools[0].recommend.tensorParallel`), at that key's line and column.
#[test]
fn a_refused_recommend_names_the_flags_on_the_cli_and_the_keys_in_a_file() {
    let split = "3 does not split 32 attention heads and 8 KV heads evenly (vLLM)";
    let cli = aksgpu_with(
        &["recommend", "--model", "llama-3.1-8b", "--tensor-parallel", "3"],
        &[("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9")],
    );
    assert_eq!(cli.code, 2, "{}", cli.stderr);
    assert!(cli.stderr.contains(&format!("error: --tensor-parallel {split}")), "{}", cli.stderr);
    assert!(
        cli.stderr.contains("hint: choose a degree that divides the heads, and --pipeline-parallel"),
        "{}",
        cli.stderr
    );

    let dir = temp_dir("apply-recommend-bad-tp");
    let file = write(
        &dir,
        "gpu.yaml",
        "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n  - name: gpu\n    recommend:\n      model: llama-3.1-8b\n      tensorParallel: 3\n    count: 1\n",
    );
    let r = aksgpu_with(
        &["apply", "-f", file.to_str().expect("path"), "--dry-run", "-o", "json"],
        &[("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9"), ("AZURE_SUBSCRIPTION_ID", SUB)],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains(&format!("gpu.yaml:8:23: pools[0].recommend.tensorParallel {split}")), "{}", r.stderr);
    assert!(
        r.stderr.contains("hint: choose a degree that divides the heads, and pools[0].recommend.pipelineParallel"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("--tensor-parallel") && !r.stderr.contains("--pipeline-parallel"), "{}", r.stderr);
}

/// A misspelt `recommend.model` keeps the did-you-mean `recommend --model` gives, named by
/// its key with its line and column.
#[test]
fn a_misspelt_recommend_model_says_did_you_mean() {
    let dir = temp_dir("apply-recommend-typo");
    let file = write(
        &dir,
        "gpu.yaml",
        "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n  - name: gpu\n    recommend:\n      model: llama-3.1-8c\n    count: 1\n",
    );
    let r = aksgpu_with(
        &["apply", "-f", file.to_str().expect("path"), "--dry-run", "-o", "json"],
        &[("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9"), ("AZURE_SUBSCRIPTION_ID", SUB)],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("gpu.yaml:7:14: pools[0].recommend.model \"llama-3.1-8c\" is not in the catalog"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("hint: did you mean llama-3.1-8b"), "{}", r.stderr);
}

/// `-f DIR` with `-o json`: one JSON document for the whole directory (an array of
/// `{"file", "result"}` in name order), so `jq` reads stdout once; a single file keeps its own
/// document; a failing file ends the array and the exit code says so.
#[test]
fn a_directory_prints_one_json_document() {
    let arm = FakeArm::start();
    let dir = temp_dir("apply-dir-json");
    write(&dir, "b.yaml", &ONE_POOL.replace("name: gpu", "name: second"));
    write(&dir, "a.yaml", ONE_POOL);
    for verb in ["apply", "diff"] {
        let extra: &[&str] = if verb == "apply" { &["--dry-run", "-o", "json"] } else { &["-o", "json"] };
        let r = cmd(&arm, verb, &dir, extra);
        assert_eq!(r.code, if verb == "apply" { 0 } else { 1 }, "{verb}: {}", r.stderr);
        let v: Value =
            serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{verb}: one document: {e}\n{}", r.stdout));
        let files: Vec<&str> = v.as_array().expect("array").iter().map(|f| f["file"].as_str().expect("file")).collect();
        assert_eq!(files.len(), 2, "{verb}: {v}");
        assert!(files[0].ends_with("a.yaml") && files[1].ends_with("b.yaml"), "{verb}: {files:?}");
        assert_eq!(v[1]["result"]["changes"][0]["name"], "second", "{verb}: {v}");
    }
    // One file named directly: its own document, as before.
    let one = cmd(&arm, "apply", &dir.join("a.yaml"), &["--dry-run", "-o", "json"]);
    assert_eq!(one.json()["dry_run"], true, "{}", one.stdout);
    // A bad file ends the run: the files before it are still one document.
    write(&dir, "c.yaml", "kind: GpuConfig\n");
    let bad = cmd(&arm, "apply", &dir, &["--dry-run", "-o", "json"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    let v: Value = serde_json::from_str(&bad.stdout).unwrap_or_else(|e| panic!("one document: {e}\n{}", bad.stdout));
    assert_eq!(v.as_array().map(Vec::len), Some(2), "{v}");
    assert!(arm.log().iter().all(|r| r.method == "GET"), "{:?}", writes(&arm));
}

/// `apply` with an operator section in a mixed cluster whose AKS-driver pool lacks the
/// operator's `nvidia.com/gpu.deploy.driver=false` label: the install would refuse, so apply
/// refuses before it creates the file's pool (the same refusal as install-operator's).
#[test]
fn apply_with_the_operator_in_an_unlabelled_mixed_cluster_refuses_before_any_write() {
    let arm = FakeArm::start();
    for (name, driver, extra) in [("aks", "Install", json!({"team": "ml"})), ("op", "None", Value::Null)] {
        let mut props = json!({"vmSize": "Standard_NC24ads_A100_v4", "count": 1, "mode": "User", "osType": "Linux",
            "provisioningState": "Succeeded", "gpuProfile": {"driver": driver}});
        if extra.is_object() {
            props["nodeLabels"] = extra;
        }
        arm.put_pool(
            "c1",
            name,
            json!({"id": crate::fake_arm::pool_path("c1", name), "name": name, "properties": props}),
        );
    }
    let dir = temp_dir("apply-operator-mixed");
    let file = write(&dir, "gpu.yaml", &(ONE_POOL.to_owned() + "operator: {install: true}\n"));
    let r = apply(&arm, &file);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("aks needs nvidia.com/gpu.deploy.driver=false"), "{}", r.stderr);
    assert!(writes(&arm).is_empty(), "nothing is written: {:?}", writes(&arm));
}

/// A number no other call in this process got: a directory of its own for each run of the
/// helpers below (tests run in parallel threads of one process).
fn next_dir() -> usize {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The pool a dry run plans (its `vmSize` and `count`), offline: ranked without a region.
fn planned_pool(args: &[&str]) -> (String, u64) {
    let env = [("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9"), ("AZURE_SUBSCRIPTION_ID", SUB)];
    let r = aksgpu_with(args, &env);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    let put = r.json()["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .find(|s| s["method"] == "PUT" && s["url"].as_str().is_some_and(|u| u.contains("agentPools/gpu")))
        .cloned()
        .unwrap_or_else(|| panic!("no pool PUT: {}", r.stdout));
    let p = &put["body"]["properties"];
    (p["vmSize"].as_str().expect("vmSize").to_owned(), p["count"].as_u64().expect("count"))
}

/// The pool `create-pool --recommend FLAGS --dry-run` plans, and the one `apply -f --dry-run`
/// plans for a file whose pool has `recommend: {RECOMMEND}`: they must be the same.
fn same_pool_from_flags_and_file(flags: &[&str], recommend: &str) -> (String, u64) {
    let mut args = vec!["create-pool", "-g", "rg", "--cluster", "c1", "--name", "gpu", "--recommend"];
    args.extend_from_slice(flags);
    args.extend(["--dry-run", "-o", "json"]);
    let from_flags = planned_pool(&args);
    let dir = temp_dir(&format!("apply-recommend-as-flags-{}", next_dir()));
    let file = write(
        &dir,
        "gpu.yaml",
        &format!(
            "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {{resourceGroup: rg, name: c1}}\npools:\n  - name: gpu\n    recommend: {{{recommend}}}\n"
        ),
    );
    let from_file = planned_pool(&["apply", "-f", file.to_str().expect("path"), "--dry-run", "-o", "json"]);
    assert_eq!(from_file, from_flags, "recommend: {{{recommend}}} vs create-pool --recommend {flags:?}");
    from_flags
}

/// `expertParallel` in a file sizes the pool as `create-pool --recommend --expert-parallel`
/// does, and it changes the answer (a 1-GPU size holds Qwen3-30B-A3B; DEP2 needs 2 GPUs).
#[test]
fn expert_parallel_in_a_file_sizes_the_pool_as_the_flag_does() {
    let model = ["--model", "qwen3-30b-a3b"];
    let plain = same_pool_from_flags_and_file(&model, "model: qwen3-30b-a3b");
    let ep = same_pool_from_flags_and_file(
        &[&model[..], &["--expert-parallel", "2"]].concat(),
        "model: qwen3-30b-a3b, expertParallel: 2",
    );
    assert_ne!(ep.0, plain.0, "--expert-parallel 2 must change the size for this test to mean anything");
}

/// `context` in a file sizes the pool as `create-pool --recommend --context` does, and it
/// changes the answer (16 sequences of 32k tokens of KV cache).
#[test]
fn context_in_a_file_sizes_the_pool_as_the_flag_does() {
    let flags = ["--model", "qwen3-30b-a3b", "--concurrency", "16"];
    let plain = same_pool_from_flags_and_file(&flags, "model: qwen3-30b-a3b, concurrency: 16");
    let long = same_pool_from_flags_and_file(
        &[&flags[..], &["--context", "32k"]].concat(),
        "model: qwen3-30b-a3b, concurrency: 16, context: 32768",
    );
    assert_ne!(long.0, plain.0, "--context 32k must change the size for this test to mean anything");
}

/// `modelParams` in a file sizes a model the catalog does not know as `--model-params` does.
#[test]
fn model_params_in_a_file_sizes_the_pool_as_the_flag_does() {
    let big = same_pool_from_flags_and_file(&["--model-params", "70B"], "modelParams: 70B");
    let small = same_pool_from_flags_and_file(&["--model-params", "8"], "modelParams: 8");
    assert_ne!(big.0, small.0, "the parameter count must change the size for this test to mean anything");
}

/// A file whose `recommend:` is refused: the `apply --dry-run` error.
fn refused_file(recommend: &str) -> Run {
    let dir = temp_dir(&format!("apply-recommend-refused-{}", next_dir()));
    let file = write(
        &dir,
        "gpu.yaml",
        &format!("apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {{resourceGroup: rg, name: c1}}\npools:\n  - name: gpu\n    recommend:\n{recommend}"),
    );
    let r = aksgpu_with(
        &["apply", "-f", file.to_str().expect("path"), "--dry-run", "-o", "json"],
        &[
            ("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9"),
            ("AZURE_SUBSCRIPTION_ID", SUB),
            ("HF_ENDPOINT", "http://127.0.0.1:9"),
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    r
}

/// A bad `expertParallel` or `context` is refused as its flag is, named by its key at its line
/// and column; the CLI says the same with the flag.
#[test]
fn a_bad_expert_parallel_or_context_names_the_key_and_line() {
    let cli = aksgpu_with(
        &["recommend", "--model", "qwen3-30b-a3b", "--expert-parallel", "3"],
        &[("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9")],
    );
    assert_eq!(cli.code, 2, "{}", cli.stderr);
    assert!(cli.stderr.contains("error: --expert-parallel 3 does not split 128 experts evenly"), "{}", cli.stderr);
    let cases = [
        ("      model: qwen3-30b-a3b\n      expertParallel: 3\n", "gpu.yaml:8:23: pools[0].recommend.expertParallel 3 does not split 128 experts evenly"),
        ("      model: qwen3-30b-a3b\n      expertParallel: 0\n", "gpu.yaml:8:23: pools[0].recommend.expertParallel: must be at least 1"),
        (
            "      model: llama-3.1-8b\n      expertParallel: 2\n",
            "gpu.yaml:8:23: pools[0].recommend.expertParallel splits the experts of a mixture of experts; pools[0].recommend.model names no such model",
        ),
        (
            "      model: qwen3-30b-a3b\n      context: 131072\n",
            "gpu.yaml:8:16: pools[0].recommend.context 131072 is longer than the model's maximum context 40960",
        ),
        ("      model: qwen3-30b-a3b\n      context: 0\n", "gpu.yaml:8:16: pools[0].recommend.context: must be at least 1"),
        ("      modelParams: lots\n", "gpu.yaml:7:20: pools[0].recommend.modelParams: \"lots\" is not a parameter count"),
    ];
    for (recommend, says) in cases {
        let r = refused_file(recommend);
        assert!(r.stderr.contains(says), "{recommend}: {}", r.stderr);
        assert!(!r.stderr.contains("--expert-parallel") && !r.stderr.contains("--context"), "{}", r.stderr);
    }
}

/// A model the catalog lacks, with the Hub out of reach: the hint names the file's
/// `modelParams` key, not `--model-params` (which a file cannot take).
#[test]
fn an_unknown_model_offline_points_at_model_params() {
    let r = refused_file("      model: acme/Unknown-7B\n");
    assert!(r.stderr.contains("pools[0].recommend: acme/Unknown-7B is not in the catalog"), "{}", r.stderr);
    assert!(r.stderr.contains("pass `recommend.modelParams:` with its parameter count"), "{}", r.stderr);
    assert!(!r.stderr.contains("--model-params"), "{}", r.stderr);
}
