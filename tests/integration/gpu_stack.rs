//! Preview features, the GPU Operator through runCommand, KAITO and manifests, against the
//! fake ARM server.

use base64::Engine as _;
use serde_json::{json, Value};

use crate::fake_arm::{FakeArm, RunResult};
use crate::support::{aksgpu_arm, aksgpu_with, CreatePool, Run};

fn run(arm: &FakeArm, args: &[&str]) -> Run {
    aksgpu_arm(&arm.base, args, &[])
}

fn run_env(arm: &FakeArm, args: &[&str], more: &[(&'static str, &str)]) -> Run {
    aksgpu_arm(&arm.base, args, more)
}

fn feature(arm: &FakeArm, name: &str, state: &str) {
    arm.with(|s| {
        s.features.insert(
            name.to_ascii_lowercase(),
            json!({"name": format!("Microsoft.ContainerService/{name}"), "type": "Microsoft.Features/providers/features", "properties": {"state": state}}),
        )
    });
}

fn gpu_pool(arm: &FakeArm, name: &str, driver: Option<&str>, extra: Value) {
    let mut props = json!({"vmSize": "Standard_NC24ads_A100_v4", "count": 1, "mode": "User", "osType": "Linux",
        "nodeTaints": ["sku=gpu:NoSchedule", "team=ml:NoSchedule"], "provisioningState": "Succeeded"});
    if let Some(d) = driver {
        props["gpuProfile"] = json!({"driver": d});
    }
    if let (Some(p), Some(e)) = (props.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            p.insert(k.clone(), v.clone());
        }
    }
    arm.put_pool("c1", name, json!({"id": crate::fake_arm::pool_path("c1", name), "name": name, "properties": props}));
}

fn run_commands(arm: &FakeArm) -> Vec<Value> {
    arm.log().iter().filter(|r| r.method == "POST" && r.target.contains("runCommand")).map(|r| r.json()).collect()
}

#[test]
fn register_feature_walks_the_state_machine_then_refreshes_the_provider() {
    let arm = FakeArm::start();
    feature(&arm, "WindowsGPUPreview", "NotRegistered");
    arm.with(|s| {
        s.feature_scripts
            .insert("windowsgpupreview".into(), vec!["Registering".into(), "Registering".into(), "Registered".into()]);
    });
    let r = run(&arm, &["register-feature", "--yes", "WindowsGPUPreview", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["result"]["outcome"], "registered");
    let calls: Vec<String> = arm
        .calls()
        .iter()
        .map(|(m, p)| {
            format!("{m} {}", p.rsplit('/').take(2).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join("/"))
        })
        .collect();
    assert_eq!(
        calls,
        [
            "GET features/WindowsGPUPreview",
            "POST WindowsGPUPreview/register",
            "GET features/WindowsGPUPreview",
            "GET features/WindowsGPUPreview",
            "POST Microsoft.ContainerService/register",
            "GET providers/Microsoft.ContainerService",
            "GET providers/Microsoft.ContainerService",
        ],
        "{calls:?}"
    );
}

#[test]
fn register_feature_already_registered_pending_and_not_found() {
    let arm = FakeArm::start();
    feature(&arm, "WindowsGPUPreview", "Registered");
    // The provider is registered too (the fake's default script models a refresh under way).
    arm.with(|s| s.provider_states = vec!["Registered".into()]);
    let r = run(&arm, &["register-feature", "--yes", "WindowsGPUPreview"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("already registered"), "{}", r.stdout);
    assert_eq!(arm.count("POST", "/"), 0);

    let arm = FakeArm::start();
    feature(&arm, "ManagedGPUExperiencePreview", "NotRegistered");
    arm.with(|s| s.feature_scripts.insert("managedgpuexperiencepreview".into(), vec!["Pending".into()]));
    let r = run(&arm, &["register-feature", "--yes", "ManagedGPUExperiencePreview"]);
    // Waiting for Microsoft's approval is still pending (exit 4), not refused (exit 1).
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(r.stderr.contains("Pending") && r.stderr.contains("approve"), "{}", r.stderr);
    assert_eq!(arm.count("POST", "providers/Microsoft.ContainerService/register"), 0);

    let arm = FakeArm::start();
    // Not found counts as generally available only for names known to have gone GA; this one
    // (the retired AKS GPU image preview) is not, so it exits 2 and says how to check the name.
    let r = run(&arm, &["register-feature", "--yes", "GPUDedicatedVHDPreview"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("not known to have gone generally available"), "{}", r.stderr);
    assert!(r.stderr.contains("az feature list --namespace Microsoft.ContainerService"), "{}", r.stderr);
    assert_eq!(arm.count("POST", "/"), 0, "nothing registered for a name Azure does not know");
}

/// The error lines (`error:` and `hint:`) a run printed, without progress and notes.
fn verdict_lines(r: &Run) -> Vec<String> {
    r.stderr.lines().filter(|l| l.starts_with("error") || l.starts_with("hint")).map(str::to_owned).collect()
}

/// A dry run reads what the real run reads and reaches its verdict: for a feature Azure does
/// not have (and not known to have gone generally available), one that is Pending, and one
/// already Registered, the dry run exits with the real run's code and error, or both succeed.
#[test]
fn register_feature_dry_run_reaches_the_real_runs_verdict() {
    let cases: [(&str, Option<&str>, i32); 3] = [
        ("GPUDedicatedVHDPreview", None, 2),
        ("ManagedGPUExperiencePreview", Some("Pending"), 4),
        ("WindowsGPUPreview", Some("Registered"), 0),
    ];
    for (name, state, code) in cases {
        let start = || {
            let arm = FakeArm::start();
            if let Some(st) = state {
                feature(&arm, name, st);
            }
            arm.with(|s| s.provider_states = vec!["Registered".into()]);
            arm
        };
        let (dry_arm, real_arm) = (start(), start());
        let dry = run(&dry_arm, &["register-feature", name, "--dry-run"]);
        let real = run(&real_arm, &["register-feature", name, "--yes"]);
        assert_eq!((dry.code, real.code), (code, code), "{name}:\ndry run: {}\nreal run: {}", dry.stderr, real.stderr);
        assert_eq!(verdict_lines(&dry), verdict_lines(&real), "{name}");
        assert_eq!(verdict_lines(&dry).is_empty(), code == 0, "{name}: {}", dry.stderr);
        assert!(dry_arm.log().iter().all(|r| r.method == "GET"), "{name}: {:?}", dry_arm.calls());
        assert_eq!(real_arm.count("POST", "/"), 0, "{name}: {:?}", real_arm.calls());
        // Neither says the feature went GA when it is not known to have.
        for r in [&dry, &real] {
            assert!(code != 2 || !r.stderr.contains("most likely become generally available"), "{name}: {}", r.stderr);
        }
    }
}

#[test]
fn feature_list_shows_the_gpu_flags() {
    let arm = FakeArm::start();
    feature(&arm, "WindowsGPUPreview", "Registered");
    feature(&arm, "AKSInfinibandSupport", "NotRegistered");
    let r = run(&arm, &["feature", "list", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    let states: Vec<(String, String)> = v
        .as_array()
        .expect("rows")
        .iter()
        .map(|x| (x["name"].as_str().unwrap_or("").into(), x["state"].as_str().unwrap_or("").into()))
        .collect();
    assert_eq!(
        states,
        [
            ("WindowsGPUPreview".to_owned(), "Registered".to_owned()),
            ("ManagedGPUExperiencePreview".to_owned(), "NotFound".to_owned()),
            ("AKSInfinibandSupport".to_owned(), "NotRegistered".to_owned())
        ]
    );
}

/// The release read's answer when the cluster has no GPU Operator release.
fn no_release() -> RunResult {
    RunResult {
        running_polls: 0,
        state: "Succeeded".into(),
        exit_code: 0,
        logs: "[]\n---aksgpu-values---\nnull\n".into(),
    }
}

fn values_from_context(body: &Value) -> String {
    let zip =
        base64::engine::general_purpose::STANDARD.decode(body["context"].as_str().expect("context")).expect("base64");
    assert_eq!(&zip[..4], b"PK\x03\x04", "context is a zip");
    let text = String::from_utf8_lossy(&zip).into_owned();
    let start = text.find("values.yaml").expect("values.yaml in the zip") + "values.yaml".len();
    text[start..].to_owned()
}

#[test]
fn install_operator_in_operator_mode_then_checks_readiness() {
    let arm = FakeArm::start();
    gpu_pool(&arm, "gpu", Some("None"), json!({"scaleSetPriority": "Spot"}));
    let r = run(
        &arm,
        &[
            "install-operator",
            "--yes",
            "-g",
            "rg",
            "--cluster",
            "c1",
            "--pool",
            "gpu",
            "--time-slicing",
            "4",
            "-o",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let cmds = run_commands(&arm);
    assert_eq!(cmds.len(), 4, "release read + install + two checks: {cmds:?}");
    let read = cmds[0]["command"].as_str().expect("command");
    assert!(read.contains("helm list") && read.contains("helm get values") && !read.contains("upgrade"), "{read}");
    let install = cmds[1]["command"].as_str().expect("command");
    assert!(
        install.contains("helm upgrade --install") && install.contains("-f values.yaml") && !install.contains("--wait"),
        "{install}"
    );
    let values = values_from_context(&cmds[1]);
    assert!(!values.contains("enabled: false"), "operator mode keeps the driver on: {values}");
    for t in ["team", "sku", "kubernetes.azure.com/scalesetpriority", "nvidia.com/gpu", "replicas: 4"] {
        assert!(values.contains(t), "{t} missing in {values}");
    }
    assert!(cmds[2]["command"].as_str().expect("cmd").contains("nvidia-cuda-validator"));
    assert!(cmds[3]["command"].as_str().expect("cmd").contains("agentpool=gpu"));
    let v = r.json();
    assert_eq!(v["gpu_nodes"][0][1], 1);
}

#[test]
fn install_operator_aks_mode_turns_driver_and_toolkit_off() {
    let arm = FakeArm::start();
    gpu_pool(&arm, "gpu", None, json!({}));
    let r = run(&arm, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let values = values_from_context(&run_commands(&arm)[1]);
    assert!(values.contains("nvidia-container-runtime"), "{values}");
}

#[test]
fn install_operator_refusals() {
    // Driver mode that fights the pool.
    let arm = FakeArm::start();
    gpu_pool(&arm, "gpu", Some("Install"), json!({}));
    let r = run(
        &arm,
        &["install-operator", "--yes", "-g", "rg", "--cluster", "c1", "--pool", "gpu", "--driver-mode", "operator"],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("two drivers would fight"), "{}", r.stderr);
    assert!(run_commands(&arm).is_empty());
    // Windows pool.
    let arm = FakeArm::start();
    gpu_pool(&arm, "gpuw", None, json!({"osType": "Windows"}));
    let r = run(&arm, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1", "--pool", "gpuw"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("does not support Windows"), "{}", r.stderr);
    // runCommand disabled: the equivalent helm line.
    let arm = FakeArm::start();
    gpu_pool(&arm, "gpu", None, json!({}));
    arm.edit_cluster("c1", |c| c["properties"]["apiServerAccessProfile"] = json!({"disableRunCommand": true}));
    let r = run(&arm, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("disableRunCommand") && r.stderr.contains("helm upgrade --install"), "{}", r.stderr);
    assert!(run_commands(&arm).is_empty());
}

#[test]
fn install_operator_failures_show_logs_and_readiness_gaps() {
    let arm = FakeArm::start();
    gpu_pool(&arm, "gpu", None, json!({}));
    arm.with(|s| {
        s.run_results.push(no_release());
        s.run_results.push(RunResult {
            running_polls: 1,
            state: "Succeeded".into(),
            exit_code: 1,
            logs: "Error: UPGRADE FAILED: timed out\n".into(),
        })
    });
    let r = run(&arm, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("exit code 1") && r.stderr.contains("UPGRADE FAILED"), "{}", r.stderr);

    // The command pod itself failed (spec example: provisioningState failed, ImagePullBackoff).
    let arm = FakeArm::start();
    gpu_pool(&arm, "gpu", None, json!({}));
    arm.with(|s| {
        s.run_results.push(no_release());
        s.run_results.push(RunResult { running_polls: 2, state: "failed".into(), exit_code: 0, logs: String::new() })
    });
    let r = run(&arm, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("helm upgrade --install failed in the cluster (state failed)"), "{}", r.stderr);
    assert_eq!(run_commands(&arm).len(), 2, "the release read, the install, no readiness checks after it failed");

    let arm = FakeArm::start();
    gpu_pool(&arm, "gpu", None, json!({}));
    arm.with(|s| s.gpu_nodes = vec![("aks-gpu-1".into(), "<none>".into())]);
    let r = run(&arm, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1", "--timeout", "2s"]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(r.stderr.contains("node aks-gpu-1 reports no allocatable nvidia.com/gpu"), "{}", r.stderr);
}

#[test]
fn install_operator_on_entra_clusters_sends_a_cluster_token_it_never_prints() {
    let arm = FakeArm::start();
    gpu_pool(&arm, "gpu", None, json!({}));
    arm.edit_cluster("c1", |c| c["properties"]["aadProfile"] = json!({"managed": true}));
    let r = run(&arm, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("AKSGPU_CLUSTER_TOKEN"), "{}", r.stderr);
    let r = run_env(
        &arm,
        &["install-operator", "--yes", "-g", "rg", "--cluster", "c1", "-vv"],
        &[("AKSGPU_CLUSTER_TOKEN", "cluster-secret-42")],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(run_commands(&arm).iter().all(|c| c["clusterToken"] == "cluster-secret-42"));
    assert!(!r.stderr.contains("cluster-secret-42") && !r.stdout.contains("cluster-secret-42"));
    let dry = run_env(
        &arm,
        &["install-operator", "-g", "rg", "--cluster", "c1", "--dry-run", "-o", "json"],
        &[("AKSGPU_CLUSTER_TOKEN", "cluster-secret-42")],
    );
    assert!(!dry.stdout.contains("cluster-secret-42"));
    assert!(dry.stdout.contains("never printed"));
}

#[test]
fn install_operator_dry_run_prints_values_and_requests_only() {
    let arm = FakeArm::start();
    gpu_pool(&arm, "gpu", Some("None"), json!({}));
    let r = run(
        &arm,
        &["install-operator", "-g", "rg", "--cluster", "c1", "--dry-run", "-o", "json", "--mig-strategy", "mixed"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert!(v["values_yaml"].as_str().expect("values").contains("strategy: mixed"));
    let posts: Vec<&Value> = v["steps"].as_array().expect("steps").iter().filter(|s| s["method"] == "POST").collect();
    assert_eq!(posts.len(), 4);
    assert!(posts[0]["body"]["command"].as_str().expect("command").contains("helm get values"));
    assert!(posts[1]["body"]["context"].as_str().expect("context").len() > 100);
    assert!(v["release"].as_str().expect("release note").contains("read first"), "{v}");
    assert!(run_commands(&arm).is_empty());
}

#[test]
fn kaito_enable_changes_only_the_two_profiles_and_is_idempotent() {
    let arm = FakeArm::start();
    let before = arm.with(|s| s.clusters.values().next().cloned().expect("cluster"));
    let r = run(&arm, &["kaito", "enable", "-g", "rg", "--cluster", "c1", "--yes"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let put = arm.log().into_iter().find(|x| x.method == "PUT").expect("PUT");
    assert_eq!(put.headers.get("if-match").map(String::as_str), Some("etag-1"));
    let body = put.json();
    let diffs = aksgpu::plan::cluster::differences(
        &aksgpu::plan::cluster::writable(&aksgpu::resources::AsRead::parse(before, "cluster").expect("typed")),
        &body,
    );
    assert_eq!(diffs, ["/properties/aiToolchainOperatorProfile", "/properties/oidcIssuerProfile"], "{body}");
    for ro in ["/id", "/properties/provisioningState", "/properties/currentKubernetesVersion", "/eTag"] {
        assert!(body.pointer(ro).is_none(), "{ro} echoed");
    }
    let again = run(&arm, &["kaito", "enable", "-g", "rg", "--cluster", "c1", "--yes"]);
    assert_eq!(again.code, 0);
    assert!(again.stdout.contains("already enabled"), "{}", again.stdout);
    assert_eq!(arm.count("PUT", "/"), 1);
}

#[test]
fn kaito_enable_dry_run_writes_nothing() {
    let arm = FakeArm::start();
    let r = run(&arm, &["kaito", "enable", "-g", "rg", "--cluster", "c1", "--dry-run", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["steps"][1]["body"]["properties"]["aiToolchainOperatorProfile"]["enabled"], true);
    assert_eq!(arm.count("PUT", "/"), 0);
}

#[test]
fn kaito_workspace_picks_a_capable_size_and_refuses_small_or_old_ones() {
    let r = aksgpu_with(&["kaito", "workspace", "--model", "llama-3.1-8b"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_yaml_ng::from_str(&r.stdout).expect("yaml parses");
    assert_eq!(v["apiVersion"], "kaito.sh/v1beta1");
    assert_eq!(v["kind"], "Workspace");
    let it = v["resource"]["instanceType"].as_str().expect("instanceType");
    let catalog = aksgpu::catalog::Catalog::bundled().expect("catalog");
    let size = catalog.size(it).expect("known size");
    let cc = catalog.gpu(&size.gpu_model).and_then(|g| g.cc()).expect("cc");
    assert!(cc >= (8, 0) && !size.gpu_count.is_partial(), "{it}");
    assert!(v["inference"]["preset"]["name"].as_str().expect("preset").contains("llama"), "{v}");
    // KAITO creates the workspace's nodes: what they cost goes to stderr (stdout is the manifest).
    assert!(r.stderr.contains("price unknown: the cluster's region is not known offline"), "{}", r.stderr);
    let priced = aksgpu_with(&["kaito", "workspace", "--model", "llama-3.1-8b", "--region", "eastus"], &[]);
    assert_eq!(priced.code, 0, "{}", priced.stderr);
    assert!(
        priced.stderr.contains("/month at 1 node(s)") && priced.stderr.contains("price of 2026-06-18"),
        "{}",
        priced.stderr
    );
    let t4 = aksgpu_with(
        &["kaito", "workspace", "--model", "llama-3.1-8b", "--instance-type", "Standard_NC64as_T4_v3"],
        &[],
    );
    assert_eq!(t4.code, 2);
    assert!(t4.stderr.contains("compute capability 7.5"), "{}", t4.stderr);
    assert!(t4.stderr.contains("--override kaito-min-compute-capability"), "{}", t4.stderr);
    let forced = aksgpu_with(
        &[
            "kaito",
            "workspace",
            "--model",
            "llama-3.1-8b",
            "--instance-type",
            "Standard_NC64as_T4_v3",
            "--override",
            "kaito-min-compute-capability",
        ],
        &[],
    );
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert!(
        forced.stderr.contains("warning: overriding catalog rule kaito-min-compute-capability"),
        "{}",
        forced.stderr
    );
    assert!(forced.stdout.contains("Standard_NC64as_T4_v3"), "{}", forced.stdout);
    let small = aksgpu_with(
        &["kaito", "workspace", "--model", "llama-3.3-70b", "--instance-type", "Standard_NC24ads_A100_v4"],
        &[],
    );
    assert_eq!(small.code, 2, "{}", small.stderr);
    assert!(small.stderr.contains("cannot hold") && small.stderr.contains("GiB"), "{}", small.stderr);
}

/// The region the size was chosen for travels with the manifest (a YAML comment), so
/// `| kubectl apply -f -` keeps it; with `--region` the size is one priced there.
#[test]
fn kaito_workspace_writes_the_chosen_region_into_the_yaml() {
    let catalog = aksgpu::catalog::Catalog::bundled().expect("catalog");
    let r = aksgpu_with(&["kaito", "workspace", "--model", "llama-3.1-8b", "--region", "northeurope"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let first = r.stdout.lines().next().unwrap_or("");
    assert!(first.starts_with("# ") && first.contains("northeurope"), "{}", r.stdout);
    let v: Value = serde_yaml_ng::from_str(&r.stdout).expect("yaml parses");
    let it = v["resource"]["instanceType"].as_str().expect("instanceType");
    assert!(catalog.price(it, "northeurope").is_some(), "{it} has no price in northeurope");

    let r = aksgpu_with(&["kaito", "workspace", "--model", "llama-3.1-8b"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let first = r.stdout.lines().next().unwrap_or("");
    assert!(first.starts_with("# ") && first.contains("--location"), "{}", r.stdout);
}

/// `kaito workspace` for a named cluster ranks and prices in the cluster's location (one GET
/// of the cluster, no write), and says so in the YAML.
#[test]
fn kaito_workspace_for_a_cluster_ranks_in_its_location() {
    let arm = FakeArm::start();
    arm.edit_cluster("c1", |c| c["location"] = json!("northeurope"));
    let r = run(&arm, &["kaito", "workspace", "--model", "llama-3.1-8b", "-g", "rg", "--cluster", "c1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let first = r.stdout.lines().next().unwrap_or("");
    assert!(first.contains("northeurope") && first.contains("c1"), "{}", r.stdout);
    let v: Value = serde_yaml_ng::from_str(&r.stdout).expect("yaml parses");
    let it = v["resource"]["instanceType"].as_str().expect("instanceType");
    let catalog = aksgpu::catalog::Catalog::bundled().expect("catalog");
    assert!(catalog.price(it, "northeurope").is_some(), "{it} has no price in northeurope");
    assert_eq!(arm.calls().len(), 1, "{:?}", arm.calls());
    let both = run(
        &arm,
        &["kaito", "workspace", "--model", "llama-3.1-8b", "-g", "rg", "--cluster", "c1", "--region", "eastus"],
    );
    assert_eq!(both.code, 2, "{}", both.stderr);
}

#[test]
fn manifests_for_pools_mig_windows_and_smoke_tests() {
    let mig = aksgpu_with(
        &["manifest", "--mig-profile", "MIG1g", "--vm-size", "Standard_ND96amsr_A100_v4", "--kind", "pod"],
        &[],
    );
    assert_eq!(mig.code, 0, "{}", mig.stderr);
    let v: Value = serde_yaml_ng::from_str(&mig.stdout).expect("yaml");
    assert_eq!(v["kind"], "Pod");
    assert_eq!(v["spec"]["nodeSelector"]["node.kubernetes.io/instance-type"], "Standard_ND96amsr_A100_v4");
    assert_eq!(v["spec"]["containers"][0]["resources"]["limits"]["nvidia.com/mig-1g.10gb"], 1);
    assert!(v["spec"]["tolerations"].to_string().contains("sku"));
    let win = aksgpu_with(&["manifest", "--vm-size", "Standard_NC4as_T4_v3", "--os", "windows", "-o", "json"], &[]);
    assert_eq!(win.code, 0, "{}", win.stderr);
    let w = win.json();
    assert!(w.to_string().contains("microsoft.com/directx") && w.to_string().contains("kubernetes.io/os"), "{w}");
    let smoke = aksgpu_with(&["manifest", "--pool", "gpu", "--smoke-test"], &[]);
    let s: Value = serde_yaml_ng::from_str(&smoke.stdout).expect("yaml");
    assert_eq!(s["kind"], "Job");
    assert!(s.to_string().contains("nvidia-smi"));
    let bad = aksgpu_with(&["manifest", "--pool", "gpu", "--taints", "nope"], &[]);
    assert_eq!(bad.code, 2);
}

#[test]
fn manifest_reads_the_pool_from_azure() {
    let arm = FakeArm::start();
    gpu_pool(&arm, "gpu", None, json!({"scaleSetPriority": "Spot", "gpuInstanceProfile": "MIG3g"}));
    let r = run(&arm, &["manifest", "--pool", "gpu", "-g", "rg", "--cluster", "c1", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = r.stdout.clone();
    assert!(
        text.contains("team") && text.contains("scalesetpriority") && text.contains("nvidia.com/mig-3g.40gb"),
        "{text}"
    );
}

#[test]
fn create_pool_with_the_operator_in_one_plan() {
    let arm = FakeArm::start();
    let create = CreatePool::new().with(&["--install-operator"]);
    let base = create.args();
    // A minimum of 0 is advice, not a refusal: a warning naming the rule and the risk.
    let zero = run(&arm, &[&base[..], &["--min-count", "0", "--max-count", "2", "--dry-run"]].concat());
    assert_eq!(zero.code, 0, "{}", zero.stderr);
    assert!(zero.stderr.contains("advises at least 1 (rule operator-autoscaler-min"), "{}", zero.stderr);
    assert_eq!(arm.count("PUT", "agentPools/gpu"), 0);
    let dry = run(&arm, &[&base[..], &["--dry-run", "-o", "json"]].concat());
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    let steps = dry.json()["steps"].as_array().cloned().expect("steps");
    assert!(steps.iter().any(|s| s["method"] == "PUT" && s["body"]["properties"]["gpuProfile"]["driver"] == "None"));
    assert!(steps.iter().any(|s| s["url"].as_str().unwrap_or("").contains("runCommand")));
    let real = run(&arm, &[&base[..], &["--min-count", "1", "--max-count", "2"]].concat());
    assert_eq!(real.code, 0, "{}", real.stderr);
    assert_eq!(arm.count("PUT", "agentPools/gpu"), 1);
    assert_eq!(run_commands(&arm).len(), 4);
    assert!(real.stdout.contains("GPU Operator installed"), "{}", real.stdout);
}

/// With `--install-operator`, `-o json` and `-o yaml` print one document: the pool's result
/// with its keys where they were (`status`, `pool_id`, …) and the install under `operator`.
#[test]
fn create_pool_with_the_operator_prints_one_document() {
    let arm = FakeArm::start();
    let base = CreatePool::new().with(&["--install-operator", "--min-count", "1", "--max-count", "2"]);
    let r = run(&arm, &[&base.args()[..], &["-o", "json"]].concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
    // One JSON value: serde_json refuses trailing data after the first document.
    let v: Value =
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("not one JSON value ({e}):\n{}", r.stdout));
    assert_eq!(v["status"], "created", "{v}");
    assert!(v["pool_id"].as_str().is_some_and(|id| id.ends_with("/agentPools/gpu")), "{v}");
    assert!(v["operator"]["validator_pods"].as_array().is_some_and(|a| !a.is_empty()), "{v}");
    assert!(v["operator"]["gpu_nodes"].is_array(), "{v}");
    let arm = FakeArm::start();
    let y = run(&arm, &[&base.args()[..], &["-o", "yaml"]].concat());
    assert_eq!(y.code, 0, "{}", y.stderr);
    let docs: Vec<serde_yaml_ng::Value> = serde_yaml_ng::Deserializer::from_str(&y.stdout)
        .map(|d| serde::Deserialize::deserialize(d).expect("YAML"))
        .collect();
    assert_eq!(docs.len(), 1, "one YAML document:\n{}", y.stdout);
    assert_eq!(docs[0]["status"], serde_yaml_ng::Value::from("created"), "{}", y.stdout);
    assert!(docs[0]["operator"]["validator_pods"].is_sequence(), "{}", y.stdout);
}

/// The dry run of `--os windows --register-features` reaches the real run's verdict: the
/// feature is registered first, so preflight does not refuse it as NotRegistered; the plan shows
/// the registration before the pool's PUT, and both runs exit 0.
#[test]
fn dry_run_of_a_windows_pool_plans_the_feature_registration_first() {
    let windows = || {
        CreatePool::new().name("gpuw").vm_size("Standard_NC4as_T4_v3").with(&["--os", "windows", "--register-features"])
    };
    let arm = FakeArm::start();
    feature(&arm, "WindowsGPUPreview", "NotRegistered");
    let dry = run(&arm, &windows().with(&["--dry-run", "-o", "json"]).args());
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert!(dry.stderr.contains("WindowsGPUPreview is registered first"), "{}", dry.stderr);
    assert!(arm.calls().iter().all(|(m, _)| m == "GET"), "a dry run only reads: {:?}", arm.calls());
    let steps = dry.json()["steps"].as_array().cloned().expect("steps");
    let at = |m: &str, end: &str| {
        steps.iter().position(|s| {
            s["method"] == m && s["url"].as_str().is_some_and(|u| u.split('?').next().unwrap_or("").ends_with(end))
        })
    };
    let register = at("POST", "WindowsGPUPreview/register").expect("the feature's registration is planned");
    let provider = at("POST", "providers/Microsoft.ContainerService/register").expect("the provider's refresh");
    let put = at("PUT", "agentPools/gpuw").expect("the pool's PUT");
    assert!(register < provider && provider < put, "{steps:#?}");
    let arm = FakeArm::start();
    feature(&arm, "WindowsGPUPreview", "NotRegistered");
    let real = run(&arm, &windows().args());
    assert_eq!(real.code, 0, "{}", real.stderr);
}

#[test]
fn create_windows_pool_registering_the_feature_first() {
    let arm = FakeArm::start();
    feature(&arm, "WindowsGPUPreview", "NotRegistered");
    let windows = CreatePool::new().name("gpuw").vm_size("Standard_NC4as_T4_v3");
    let r = run(&arm, &windows.with(&["--os", "windows", "--register-features"]).args());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let calls = arm.calls();
    let reg =
        calls.iter().position(|(m, p)| m == "POST" && p.ends_with("WindowsGPUPreview/register")).expect("registered");
    let put = calls.iter().position(|(m, _)| m == "PUT").expect("put");
    assert!(reg < put);
}

#[test]
fn a_model_without_a_kaito_preset_is_pointed_to_the_nearest_with_one() {
    // KAITO presets: kaito-project/kaito:pkg/utils/plugin/plugin.go (LegacyBuiltinToCatalog).
    let r = aksgpu_with(&["kaito", "workspace", "--model", "llama-3.1-70b"], &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("Llama-3.1-70B-Instruct has no KAITO preset"), "{}", r.stderr);
    assert!(r.stderr.contains("aksgpu kaito workspace --model llama-3.3-70b"), "{}", r.stderr);
    let ok = aksgpu_with(&["kaito", "workspace", "--model", "phi-4-mini", "-o", "yaml"], &[]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    assert!(ok.stdout.contains("phi-4-mini-instruct"), "{}", ok.stdout);
}

/// A cluster with two GPU pools: `aks` has the AKS driver, `op` has none (the GPU Operator
/// installs it). Installing the one cluster-wide release "for" the AKS-driver pool used to turn
/// the operator's driver off (`driver.enabled: false`) and exit 0, leaving `op` without a driver.
/// Now the release keeps the driver on, and the AKS-driver pool must carry the operator's
/// `nvidia.com/gpu.deploy.driver=false` label first: without it the command refuses, naming the
/// pool and the command that labels it, and sends no Helm upgrade.
#[test]
fn install_operator_for_one_pool_of_a_mixed_cluster_never_strands_the_other() {
    let mixed = || {
        let arm = FakeArm::start();
        gpu_pool(&arm, "aks", Some("Install"), json!({"nodeLabels": {"team": "ml"}}));
        gpu_pool(&arm, "op", Some("None"), json!({}));
        arm
    };
    let arm = mixed();
    let r = run(&arm, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1", "--pool", "aks"]);
    assert_ne!(r.code, 0, "a pool would be left without a driver:\n{}", r.stderr);
    assert!(
        run_commands(&arm).iter().all(|c| !c["command"].as_str().unwrap_or("").contains("helm upgrade")),
        "no Helm upgrade may be sent: {:?}",
        run_commands(&arm)
    );
    for want in [
        "aks needs nvidia.com/gpu.deploy.driver=false",
        "rule operator-mixed-driver-labels",
        "az aks nodepool update -g rg --cluster-name c1 -n aks --labels nvidia.com/gpu.deploy.driver=false team=ml",
    ] {
        assert!(r.stderr.contains(want), "{want:?} missing in:\n{}", r.stderr);
    }
    // The same without --pool: the same refusal (naming a pool no longer bypasses the guard).
    let r = run(&arm, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("aks needs nvidia.com/gpu.deploy.driver=false"), "{}", r.stderr);
    // --driver-mode aks would turn the driver off for `op`: refused, naming it.
    let r = run(
        &arm,
        &["install-operator", "--yes", "-g", "rg", "--cluster", "c1", "--pool", "aks", "--driver-mode", "aks"],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("pool(s) op have no other driver"), "{}", r.stderr);

    // Once labelled, the release keeps the operator's driver on for `op`, and exits 0.
    let arm = mixed();
    gpu_pool(
        &arm,
        "aks",
        Some("Install"),
        json!({"nodeLabels": {"team": "ml", "nvidia.com/gpu.deploy.driver": "false"}}),
    );
    let r = run(&arm, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1", "--pool", "aks"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let install = run_commands(&arm)
        .into_iter()
        .find(|c| c["command"].as_str().unwrap_or("").contains("helm upgrade"))
        .expect("install");
    let values = values_from_context(&install);
    assert!(!values.contains("enabled: false"), "the operator's driver must stay on for pool op: {values}");
}

/// Every install reads the release first and upgrades on top of its values: the MIG strategy,
/// time slicing and keys aksgpu does not set are kept, a driver setting that would strand a
/// pool is replaced, and the run reports what changed.
#[test]
fn install_operator_reads_the_release_and_keeps_what_other_pools_need() {
    let arm = FakeArm::start();
    gpu_pool(&arm, "op", Some("None"), json!({}));
    let sharing = json!({"config": {"create": true, "name": "time-slicing-config", "default": "any",
        "data": {"any": "version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: 4\n"}}});
    arm.with(|s| {
        s.helm_release = Some((
            "gpu-operator-v26.3.1".into(),
            json!({"driver": {"enabled": false}, "mig": {"strategy": "mixed"}, "devicePlugin": sharing,
                   "dcgmExporter": {"serviceMonitor": {"enabled": true}}}),
        ))
    });
    let r = run(&arm, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (chart, values) = arm.with(|s| s.helm_release.clone()).expect("a release");
    assert_eq!(chart, "gpu-operator-v26.7.0");
    assert_eq!(values["mig"]["strategy"], "mixed", "{values}");
    assert_eq!(values["devicePlugin"], sharing, "{values}");
    assert_eq!(values["dcgmExporter"]["serviceMonitor"]["enabled"], true, "{values}");
    assert!(values.get("driver").is_none(), "pool op has no driver: the operator's stays on: {values}");
    let v = r.json();
    assert_eq!(v["release"], "gpu-operator-v26.3.1 (deployed)", "{v}");
    let diff: Vec<&str> = v["values_diff"].as_array().expect("diff").iter().filter_map(Value::as_str).collect();
    assert!(diff.contains(&"- driver.enabled: false"), "{diff:?}");
    assert!(diff.iter().any(|l| l.starts_with("+ daemonsets.tolerations")), "{diff:?}");
    assert!(!diff.iter().any(|l| l.contains("mig") || l.contains("devicePlugin")), "{diff:?}");
    // Asked again: nothing changes, and the run says so.
    let r = run(&arm, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("values: unchanged"), "{}", r.stdout);
    // An explicit --mig-strategy is a change the run shows, not a silent one.
    let r = run(
        &arm,
        &["install-operator", "--yes", "-g", "rg", "--cluster", "c1", "--mig-strategy", "single", "-o", "json"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let diff = r.json()["values_diff"].clone();
    assert_eq!(diff, json!(["~ mig.strategy: \"mixed\" → \"single\""]), "{diff}");
}

/// `install-operator` refuses an AKS-managed GPU pool (AKS owns its stack), naming the rule; a
/// cluster with a managed pool and an operator pool needs the managed pool to carry
/// `nvidia.com/gpu.deploy.operands=false` before the release goes on.
#[test]
fn install_operator_refuses_an_aks_managed_gpu_pool() {
    let arm = FakeArm::start();
    gpu_pool(
        &arm,
        "managed",
        Some("Install"),
        json!({"gpuProfile": {"driver": "Install", "nvidia": {"managementMode": "Managed"}}}),
    );
    let r = run(&arm, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1", "--pool", "managed"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("AKS-managed GPU pool") && r.stderr.contains("rule managed-gpu-owns-stack"),
        "{}",
        r.stderr
    );
    gpu_pool(&arm, "op", Some("None"), json!({}));
    let r = run(&arm, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1", "--pool", "op"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("managed needs nvidia.com/gpu.deploy.operands=false"), "{}", r.stderr);
    assert!(run_commands(&arm).is_empty(), "{:?}", run_commands(&arm));
}

/// `install-operator --dry-run --read-release` sends the one read-only runCommand (and nothing
/// else that writes), then prints the change in the release's values and the merged values;
/// plain `--dry-run` sends only GETs.
#[test]
fn install_operator_dry_run_can_read_the_release_and_show_the_diff() {
    let arm = FakeArm::start();
    gpu_pool(&arm, "op", Some("None"), json!({}));
    arm.with(|s| {
        s.helm_release =
            Some(("gpu-operator-v26.3.1".into(), json!({"driver": {"enabled": false}, "mig": {"strategy": "mixed"}})))
    });
    let r =
        run(&arm, &["install-operator", "-g", "rg", "--cluster", "c1", "--dry-run", "--read-release", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let cmds = run_commands(&arm);
    assert_eq!(cmds.len(), 1, "only the release read: {cmds:?}");
    assert!(cmds[0]["command"].as_str().unwrap_or("").contains("helm get values"), "{cmds:?}");
    let v = r.json();
    assert_eq!(v["release"], "gpu-operator-v26.3.1 (deployed)", "{v}");
    assert!(v["values_diff"].as_array().expect("diff").iter().any(|l| l == "- driver.enabled: false"), "{v}");
    assert!(
        v["values_yaml"].as_str().expect("values").contains("strategy: mixed"),
        "the release's MIG strategy is kept: {v}"
    );
    let table = run(&arm, &["install-operator", "-g", "rg", "--cluster", "c1", "--dry-run", "--read-release"]);
    assert!(
        table.stdout.contains("the install would change its values:")
            && table.stdout.contains("- driver.enabled: false"),
        "{}",
        table.stdout
    );
    let before = run_commands(&arm).len();
    let plain = run(&arm, &["install-operator", "-g", "rg", "--cluster", "c1", "--dry-run"]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert_eq!(run_commands(&arm).len(), before, "a plain dry run sends no runCommand");
}

/// `install-operator --label-pools` on a mixed cluster labels the AKS-driver pool first (a PUT
/// of its own that changes only its labels), then installs with the operator's driver on.
#[test]
fn install_operator_label_pools_labels_then_installs() {
    let arm = FakeArm::start();
    gpu_pool(&arm, "aks", Some("Install"), json!({"nodeLabels": {"team": "ml"}, "eTag": "aks-etag-1"}));
    gpu_pool(&arm, "op", Some("None"), json!({}));
    let dry =
        run(&arm, &["install-operator", "-g", "rg", "--cluster", "c1", "--label-pools", "--dry-run", "-o", "json"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    let steps = dry.json()["steps"].as_array().cloned().expect("steps");
    let put = steps.iter().find(|s| s["method"] == "PUT").cloned().expect("the label PUT");
    assert!(put["url"].as_str().unwrap_or("").contains("agentPools/aks?api-version=2026-08-01"), "{put}");
    assert_eq!(put["headers"]["If-Match"], "aks-etag-1", "{put}");
    assert_eq!(put["body"]["properties"]["nodeLabels"], json!({"team": "ml", "nvidia.com/gpu.deploy.driver": "false"}));
    assert_eq!(arm.count("PUT", "/"), 0, "a dry run writes nothing");
    let r = run(&arm, &["install-operator", "-g", "rg", "--cluster", "c1", "--label-pools", "--yes"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let sent = arm.log().into_iter().find(|q| q.method == "PUT").expect("PUT");
    assert_eq!(sent.json(), put["body"], "the run sends the dry run's body");
    let install = run_commands(&arm)
        .into_iter()
        .find(|c| c["command"].as_str().unwrap_or("").contains("helm upgrade"))
        .expect("install");
    assert!(!values_from_context(&install).contains("enabled: false"), "the operator's driver stays on for op");
    let put_at = arm.log().iter().position(|q| q.method == "PUT").expect("put");
    let helm_at =
        arm.log().iter().position(|q| q.method == "POST" && q.target.contains("runCommand")).expect("runCommand");
    assert!(put_at < helm_at, "the label goes on before the release is touched");
}

/// `create-pool --install-operator` in a mixed cluster whose AKS-driver pool lacks the
/// operator's `nvidia.com/gpu.deploy.driver=false` label: the install would refuse, so the
/// refusal comes in preflight, from the pools it reads, before the pool's PUT (no pool is
/// created that the install then leaves half-done); the dry run refuses the same way.
#[test]
fn create_pool_install_operator_in_an_unlabelled_mixed_cluster_refuses_before_any_write() {
    let arm = FakeArm::start();
    gpu_pool(&arm, "aks", Some("Install"), json!({"nodeLabels": {"team": "ml"}}));
    gpu_pool(&arm, "op", Some("None"), json!({}));
    let base = CreatePool::new().name("new").with(&["--install-operator"]);
    for extra in [&["--dry-run"][..], &[]] {
        let r = run(&arm, &[&base.args()[..], extra].concat());
        assert_eq!(r.code, 1, "{}", r.stderr);
        for want in ["aks needs nvidia.com/gpu.deploy.driver=false", "--label-pools"] {
            assert!(r.stderr.contains(want), "{want:?} missing in:\n{}", r.stderr);
        }
    }
    assert_eq!(arm.count("PUT", "agentPools/new"), 0, "no pool is created: {:?}", arm.calls());
    assert!(run_commands(&arm).is_empty(), "nothing runs in the cluster: {:?}", run_commands(&arm));
}

/// A release left by an earlier install: the driver off (which pool `op`, without the AKS
/// driver, cannot have) and a MIG strategy aksgpu keeps.
fn earlier_release(arm: &FakeArm) {
    arm.with(|s| {
        s.helm_release =
            Some(("gpu-operator-v26.3.1".into(), json!({"driver": {"enabled": false}, "mig": {"strategy": "mixed"}})))
    });
}

/// `--read-release` on the dry runs of `create-pool --install-operator` and `apply -f`: the
/// release is read, and the dry run shows its values change and the merged Helm values as
/// YAML; without it the values are still shown as YAML, with what the run will read first.
#[test]
fn create_pool_and_apply_dry_runs_read_the_release_when_asked() {
    let arm = FakeArm::start();
    gpu_pool(&arm, "op", Some("None"), json!({}));
    earlier_release(&arm);
    let base = CreatePool::new().name("new").with(&["--install-operator", "--dry-run"]);
    let dir = crate::support::temp_dir("apply-read-release");
    let file = dir.join("gpu.yaml");
    let text = "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n  - name: new\n    vmSize: Standard_NC4as_T4_v3\n    count: 1\noperator: {install: true}\n";
    std::fs::write(&file, text).expect("write the file");
    let file = file.to_string_lossy().into_owned();
    let apply = ["apply", "-f", file.as_str(), "--dry-run"];
    for args in [base.args(), apply.to_vec()] {
        let plain = run(&arm, &args);
        assert_eq!(plain.code, 0, "{args:?}: {}", plain.stderr);
        assert!(plain.stdout.contains("GPU Operator values (values.yaml"), "{args:?}: {}", plain.stdout);
        assert!(plain.stdout.contains("The release is read first"), "{args:?}: {}", plain.stdout);
        assert!(run_commands(&arm).is_empty(), "a plain dry run sends no runCommand: {:?}", run_commands(&arm));
        let read = run(&arm, &[&args[..], &["--read-release"]].concat());
        assert_eq!(read.code, 0, "{args:?}: {}", read.stderr);
        let cmds = run_commands(&arm);
        assert_eq!(cmds.len(), 1, "{args:?}: only the release read: {cmds:?}");
        assert!(cmds[0]["command"].as_str().is_some_and(|c| c.contains("helm get values")), "{cmds:?}");
        let out = &read.stdout;
        assert!(out.contains("Release now: gpu-operator-v26.3.1 (deployed)"), "{args:?}: {out}");
        assert!(out.contains("- driver.enabled: false"), "{args:?}: {out}");
        assert!(out.contains("strategy: mixed"), "the release's MIG strategy is kept: {out}");
        arm.with(|s| s.log.clear());
    }
    // Reading the release is a dry run's: without --dry-run it is a usage error.
    let r = run(&arm, &CreatePool::new().name("new").with(&["--install-operator", "--read-release"]).args());
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = run(&arm, &["apply", "-f", file.as_str(), "--read-release"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 0);
}

/// The release is cluster-wide: `install-operator --pool op --mig-strategy single` on a release
/// that runs `mixed` would change the resource the pods of MIG pool `mig` request, so it is
/// refused, naming `mig`, before any upgrade (the run and the dry run that reads the release);
/// without `--pool` it is a change for every pool, as asked, and goes through. The same for a
/// time-slicing change.
#[test]
fn a_change_for_one_pool_that_changes_another_is_refused() {
    let arm = FakeArm::start();
    gpu_pool(&arm, "op", Some("None"), json!({}));
    gpu_pool(&arm, "mig", Some("None"), json!({"gpuInstanceProfile": "MIG3g"}));
    arm.with(|s| s.helm_release = Some(("gpu-operator-v26.7.0".into(), json!({"mig": {"strategy": "mixed"}}))));
    let one = ["install-operator", "-g", "rg", "--cluster", "c1", "--pool", "op", "--mig-strategy", "single"];
    for extra in [&["--yes"][..], &["--dry-run", "--read-release"]] {
        let r = run(&arm, &[&one[..], extra].concat());
        assert_eq!(r.code, 1, "{extra:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("changing the MIG strategy it has for pool(s) op would change it for pool(s) mig"),
            "{}",
            r.stderr
        );
    }
    let upgrades =
        || run_commands(&arm).iter().filter(|c| c["command"].as_str().unwrap_or("").contains("helm upgrade")).count();
    assert_eq!(upgrades(), 0, "{:?}", run_commands(&arm));
    // Time slicing changes every node's GPU count: the same refusal names pool mig.
    let slicing = ["install-operator", "-g", "rg", "--cluster", "c1", "--pool", "op", "--time-slicing", "2", "--yes"];
    let r = run(&arm, &slicing);
    assert_eq!(r.code, 0, "adding sharing the release does not have is not removing anything: {}", r.stderr);
    let r =
        run(&arm, &["install-operator", "-g", "rg", "--cluster", "c1", "--pool", "op", "--time-slicing", "4", "--yes"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("changing the time slicing it has for pool(s) op would change it for pool(s) mig"),
        "{}",
        r.stderr
    );
    // For every pool at once: as asked.
    let r = run(&arm, &["install-operator", "-g", "rg", "--cluster", "c1", "--mig-strategy", "single", "--yes"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(arm.with(|s| s.helm_release.clone()).map(|r| r.1["mig"]["strategy"].clone()), Some(json!("single")));
}
