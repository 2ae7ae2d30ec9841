//! AKS's 2026 GPU fields through the binary against the fake ARM server: AKS-managed GPU pools
//! (`gpuProfile.nvidia.managementMode`), managed MIG (`migStrategy`, `migProfiles`), sizes that
//! need your own driver, and the node image floor. Each body is sent with the api-version whose
//! spec defines it (see `conformance.rs` for the schema check).

use serde_json::{json, Value};

use crate::fake_arm::FakeArm;
use crate::support::{aksgpu_arm, CreatePool, Run};

fn create(arm: &FakeArm, size: &str, extra: &[&str]) -> Run {
    let c = CreatePool::new().vm_size(Box::leak(size.to_owned().into_boxed_str())).with(extra);
    aksgpu_arm(&arm.base, &c.args(), &[])
}

fn feature(arm: &FakeArm, name: &str, state: &str) {
    arm.with(|s| {
        s.features.insert(
            name.to_ascii_lowercase(),
            json!({"name": format!("Microsoft.ContainerService/{name}"), "type": "Microsoft.Features/providers/features", "properties": {"state": state}}),
        )
    });
}

fn the_put(arm: &FakeArm) -> (String, Value) {
    let r = arm.log().into_iter().find(|r| r.method == "PUT").expect("a PUT");
    (r.target.clone(), r.json())
}

#[test]
fn managed_gpu_pool_is_sent_with_the_api_version_that_defines_it_after_its_feature() {
    let arm = FakeArm::start();
    feature(&arm, "ManagedGPUExperiencePreview", "NotRegistered");
    let r = create(&arm, "Standard_NC4as_T4_v3", &["--managed-gpu"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    for want in [
        "ManagedGPUExperiencePreview preview feature is NotRegistered",
        "rule managed-gpu-feature",
        "--register-features",
    ] {
        assert!(r.stderr.contains(want), "{want:?} in {}", r.stderr);
    }
    assert_eq!(arm.count("PUT", "/"), 0);

    feature(&arm, "ManagedGPUExperiencePreview", "Registered");
    let r = create(&arm, "Standard_NC4as_T4_v3", &["--enable-managed-gpu"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (url, body) = the_put(&arm);
    assert!(url.contains("api-version=2026-08-01"), "{url}");
    assert_eq!(
        body["properties"]["gpuProfile"],
        json!({"driver": "Install", "nvidia": {"managementMode": "Managed"}}),
        "{body}"
    );
    // A GPU Operator in the cluster stays off a managed pool's nodes.
    assert_eq!(body["properties"]["nodeLabels"], json!({"nvidia.com/gpu.deploy.operands": "false"}), "{body}");
    // The operator cannot serve a managed pool: refused before any request.
    let before = arm.log().len();
    let r = create(&arm, "Standard_NC4as_T4_v3", &["--managed-gpu", "--install-operator"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("rule managed-gpu-owns-stack"), "{}", r.stderr);
    assert_eq!(arm.log().len(), before);
}

#[test]
fn managed_gpu_limits_are_catalog_rules_that_can_be_overridden() {
    let arm = FakeArm::start();
    let cases: [(&str, &[&str], &str); 4] = [
        ("Standard_NC4as_T4_v3", &["--managed-gpu", "--gpu-driver", "none"], "managed-gpu-driver-install"),
        (
            "Standard_NC4as_T4_v3",
            &["--managed-gpu", "--min-count", "1", "--max-count", "3"],
            "managed-gpu-no-autoscaler",
        ),
        ("Standard_NC4as_T4_v3", &["--managed-gpu", "--os", "windows"], "managed-gpu-nvidia-linux"),
        (
            "Standard_NC24ads_A100_v4",
            &["--gpu-mig-strategy", "Single", "--mig-profiles", "MIG3g"],
            "managed-mig-needs-managed-gpu",
        ),
    ];
    for (size, flags, rule) in cases {
        let r = create(&arm, size, &[flags, &["--dry-run"]].concat());
        assert_eq!(r.code, 2, "{flags:?}: {}", r.stderr);
        assert!(r.stderr.contains(&format!("rule {rule}, source ")), "{flags:?}: {}", r.stderr);
        assert!(r.stderr.contains(&format!("--override {rule}")), "{flags:?}: {}", r.stderr);
    }
    // Overridden: a warning naming the rule and the risk, and the request goes ahead.
    feature(&arm, "ManagedGPUExperiencePreview", "Registered");
    let r = create(
        &arm,
        "Standard_NC4as_T4_v3",
        &[
            "--managed-gpu",
            "--min-count",
            "1",
            "--max-count",
            "3",
            "--override",
            "managed-gpu-no-autoscaler",
            "--dry-run",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("overriding catalog rule managed-gpu-no-autoscaler"), "{}", r.stderr);
}

#[test]
fn managed_mig_is_validated_before_any_request_and_sent_with_the_preview() {
    let arm = FakeArm::start();
    feature(&arm, "ManagedGPUExperiencePreview", "Registered");
    // Too wide for one A100: 3g + 3g + 2g is 8 compute slices.
    let r = create(
        &arm,
        "Standard_NC24ads_A100_v4",
        &["--managed-gpu", "--gpu-mig-strategy", "Mixed", "--mig-profiles", "MIG3g,MIG3g,MIG2g"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("too wide for one A100"), "{}", r.stderr);
    // 3g + 3g + 1g: 7 compute slices but 9 memory slices.
    let r = create(
        &arm,
        "Standard_NC24ads_A100_v4",
        &["--managed-gpu", "--gpu-mig-strategy", "Mixed", "--mig-profiles", "MIG3g,MIG3g,MIG1g"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("9 of 8 memory slices"), "{}", r.stderr);
    let r = create(
        &arm,
        "Standard_NC24ads_A100_v4",
        &["--managed-gpu", "--gpu-mig-strategy", "Single", "--mig-profiles", "MIG3g,MIG2g"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("exactly one profile"), "{}", r.stderr);
    let r = create(
        &arm,
        "Standard_NC24ads_A100_v4",
        &["--managed-gpu", "--gpu-mig-strategy", "Single", "--mig-profiles", "MIG3g", "--mig-profile", "MIG3g"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("mutually exclusive"), "{}", r.stderr);
    assert!(arm.log().is_empty(), "nothing is sent for a refused layout: {:?}", arm.calls());

    let r = create(
        &arm,
        "Standard_NC24ads_A100_v4",
        &["--managed-gpu", "--gpu-mig-strategy", "mixed", "--mig-profiles", "MIG3g,MIG2g,MIG1g,MIG1g"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (url, body) = the_put(&arm);
    assert!(url.contains("api-version=2026-10-02-preview"), "{url}");
    assert_eq!(
        body["properties"]["gpuProfile"]["nvidia"],
        json!({"managementMode": "Managed", "migStrategy": "Mixed", "migProfiles": ["MIG3g", "MIG2g", "MIG1g", "MIG1g"]}),
        "{body}"
    );
}

/// `managedGpu: true` in a GpuConfig creates an AKS-managed pool; `export` of it writes
/// `managedGpu: true`; applying the export changes nothing; a file that drops it is an
/// immutable change, refused before any write.
#[test]
fn managed_gpu_round_trips_through_apply_export_and_diff() {
    let arm = FakeArm::start();
    feature(&arm, "ManagedGPUExperiencePreview", "Registered");
    let dir = crate::support::temp_dir("managed-gpu-gitops");
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("gpu.yaml");
    let pool = "pools:\n  - name: gpu\n    vmSize: Standard_NC4as_T4_v3\n    count: 1\n";
    std::fs::write(&file, format!("apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {{resourceGroup: rg, name: c1}}\n{pool}    managedGpu: true\n")).expect("write");
    let f = file.to_str().expect("path");
    let r = aksgpu_arm(&arm.base, &["apply", "-f", f, "--yes", "-o", "json"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (url, body) = the_put(&arm);
    assert!(url.contains("api-version=2026-08-01"), "{url}");
    assert_eq!(body["properties"]["gpuProfile"]["nvidia"]["managementMode"], "Managed", "{body}");

    let out = dir.join("exported.yaml");
    let e = aksgpu_arm(
        &arm.base,
        &["export", "-g", "rg", "--cluster", "c1", "-f", out.to_str().expect("path"), "--force"],
        &[],
    );
    assert_eq!(e.code, 0, "{}", e.stderr);
    let text = std::fs::read_to_string(&out).expect("exported");
    assert!(text.contains("managedGpu: true"), "{text}");
    let again = aksgpu_arm(&arm.base, &["apply", "-f", out.to_str().expect("path"), "--yes", "-o", "json"], &[]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(again.json()["status"], "unchanged", "{}", again.stdout);
    assert_eq!(arm.count("PUT", "/"), 1);

    // Dropping managedGpu is a change AKS cannot make in place.
    std::fs::write(
        &file,
        format!("apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {{resourceGroup: rg, name: c1}}\n{pool}"),
    )
    .expect("write");
    let d = aksgpu_arm(&arm.base, &["diff", "-f", f], &[]);
    assert!(d.stdout.contains("gpuProfile.nvidia.managementMode"), "{}{}", d.stdout, d.stderr);
    let r = aksgpu_arm(&arm.base, &["apply", "-f", f, "--yes"], &[]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert_eq!(arm.count("PUT", "/"), 1, "nothing written for an immutable change");
}

/// Since 2025-10-12 AKS accepts any GPU size with `gpuProfile.driver: None`: a size the catalog
/// marks unsupported gets a warning naming the rule and its source, not a refusal; without
/// `--gpu-driver none` it is refused with that flag named. `recommend` lists such sizes only
/// when asked, marked.
#[test]
fn sizes_that_need_your_own_driver_are_a_warning_with_gpu_driver_none() {
    let arm = FakeArm::start();
    let size = "Standard_NV28adms_V710_v5";
    arm.with(|s| s.skus.push(crate::fake_arm::sku(size, "StandardNVadsV710v5Family", &["1"])));
    let r = create(&arm, size, &["--dry-run"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--gpu-driver none to bring your own driver (rule driver-none-any-size"), "{}", r.stderr);
    let r = create(&arm, size, &["--gpu-driver", "none", "--dry-run", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("AKS does not support this size")
            && r.stderr
                .contains("you install and own the driver (rule driver-none-any-size, source Azure/AKS release notes"),
        "{}",
        r.stderr
    );
    let put = r.json()["steps"].as_array().expect("steps").iter().find(|s| s["method"] == "PUT").cloned().expect("put");
    assert_eq!(put["body"]["properties"]["gpuProfile"], json!({"driver": "None"}));

    let listed = |args: &[&str]| {
        let r = crate::support::aksgpu_with(
            &[&["recommend", "--gpu-model", "V710", "--top", "50", "-o", "json"], args].concat(),
            &[],
        );
        if r.code != 0 {
            assert!(r.stderr.contains("no size fits"), "{}", r.stderr);
            return Vec::new();
        }
        r.json()["recommendations"].as_array().cloned().unwrap_or_default()
    };
    let v710 = |list: &[Value]| list.iter().find(|x| x["vm_size"] == size).cloned();
    assert!(v710(&listed(&[])).is_none(), "unsupported sizes are not listed unasked");
    let byo = v710(&listed(&["--gpu-driver", "none"])).expect("listed with --gpu-driver none");
    assert!(byo.to_string().contains("rule driver-none-any-size"), "{byo}");
}

/// NVadsA10 v5 pools need node image 202606.08.1 or later (Azure/AKS#5875): `pool scale`
/// (its dry run too) warns when the pool runs an older one, naming the rule and its source and
/// the upgrade step; a pool at or above the floor, or of another size, gets no warning.
#[test]
fn pool_scale_warns_about_a_node_image_below_the_floor() {
    let a10 = |arm: &FakeArm, image: &str| {
        arm.put_pool("c1", "a10", json!({"id": crate::fake_arm::pool_path("c1", "a10"), "name": "a10", "properties": {
            "vmSize": "Standard_NV36ads_A10_v5", "count": 1, "mode": "User", "osType": "Linux", "provisioningState": "Succeeded",
            "nodeImageVersion": image}}));
    };
    let scale = |arm: &FakeArm, extra: &[&str]| {
        aksgpu_arm(
            &arm.base,
            &[&["pool", "scale", "-g", "rg", "--cluster", "c1", "--name", "a10", "--count", "2"], extra].concat(),
            &[],
        )
    };
    let arm = FakeArm::start();
    a10(&arm, "AKSUbuntu-2204gen2containerd-202605.27.0");
    for extra in [&["--dry-run"][..], &["--yes"][..]] {
        let r = scale(&arm, extra);
        assert_eq!(r.code, 0, "{}", r.stderr);
        for want in [
            "pool a10 (Standard_NV36ads_A10_v5) runs node image AKSUbuntu-2204gen2containerd-202605.27.0",
            "need node image 202606.08.1 or later (rule a10-node-image-floor, source Azure/AKS#5875",
            "az aks nodepool upgrade -g rg --cluster-name c1 -n a10 --node-image-only",
            "/agentPools/a10/upgradeNodeImageVersion?api-version=",
        ] {
            assert!(r.stderr.contains(want), "{extra:?}: {want:?} in {}", r.stderr);
        }
    }
    let arm = FakeArm::start();
    a10(&arm, "AKSUbuntu-2204gen2containerd-202606.08.1");
    let r = scale(&arm, &["--yes"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("node image"), "{}", r.stderr);
}

/// `manifest` requests the resource the device plugin's MIG strategy exposes: under `single`
/// `nvidia.com/gpu`, under `mixed` `nvidia.com/mig-<slice>`. The strategy is read from a
/// managed MIG pool, else from the GPU Operator's release, else given with `--mig-strategy`,
/// else assumed mixed; the output says which.
#[test]
fn manifest_requests_the_resource_of_the_mig_strategy() {
    let limits = |r: &Run| -> Value {
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: Value = serde_yaml_ng::from_str(&r.stdout).expect("yaml");
        v["spec"]["containers"][0]["resources"]["limits"].clone()
    };
    let offline = |extra: &[&str]| {
        crate::support::aksgpu_with(
            &[
                &["manifest", "--mig-profile", "MIG1g", "--vm-size", "Standard_ND96amsr_A100_v4", "--kind", "pod"],
                extra,
            ]
            .concat(),
            &[],
        )
    };
    let r = offline(&["--mig-strategy", "single", "--gpus", "56"]);
    assert_eq!(limits(&r), json!({"nvidia.com/gpu": 56}), "8 GPUs × 7 slices under single");
    assert!(r.stderr.contains("MIG strategy single (--mig-strategy): the pod requests nvidia.com/gpu"), "{}", r.stderr);
    let r = offline(&["--mig-strategy", "single", "--gpus", "57"]);
    assert_eq!(r.code, 2, "a node has 56 slices: {}", r.stderr);
    let r = offline(&[]);
    assert_eq!(limits(&r), json!({"nvidia.com/mig-1g.10gb": 1}));
    assert!(r.stderr.contains("MIG strategy mixed (assumed"), "{}", r.stderr);

    // A managed MIG pool says its strategy.
    let arm = FakeArm::start();
    arm.put_pool("c1", "mig", json!({"id": crate::fake_arm::pool_path("c1", "mig"), "name": "mig", "properties": {
        "vmSize": "Standard_ND96asr_v4", "count": 1, "mode": "User", "osType": "Linux", "provisioningState": "Succeeded",
        "gpuProfile": {"driver": "Install", "nvidia": {"managementMode": "Managed", "migStrategy": "Single", "migProfiles": ["MIG3g"]}}}}));
    let r = aksgpu_arm(
        &arm.base,
        &["manifest", "--pool", "mig", "-g", "rg", "--cluster", "c1", "--gpus", "2", "--kind", "pod"],
        &[],
    );
    assert_eq!(limits(&r), json!({"nvidia.com/gpu": 2}));
    assert!(r.stderr.contains("MIG strategy single (the pool's gpuProfile.nvidia.migStrategy)"), "{}", r.stderr);
    assert!(
        arm.log().iter().any(|q| q.target.contains("agentPools/mig?api-version=2026-10-02-preview")),
        "{:?}",
        arm.calls()
    );
    // AKS runs a managed pool's device plugin: the operator's release is not read.
    assert!(!arm.calls().iter().any(|(m, p)| m == "POST" && p.contains("runCommand")), "{:?}", arm.calls());
}

/// A MIG pool that is not managed: the device plugin is the GPU Operator's, so the strategy is
/// its release's `mig.strategy` (read with the read-only release check), and a release that
/// leaves it out runs the chart's default, `single` (NVIDIA gpu-operator
/// deployments/gpu-operator/values.yaml). Without a release, `--mig-strategy` or the assumed
/// mixed; a `--mig-strategy` that contradicts the release is refused.
#[test]
fn manifest_reads_the_mig_strategy_from_the_operators_release() {
    let limits = |r: &Run| -> Value {
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: Value = serde_yaml_ng::from_str(&r.stdout).expect("yaml");
        v["spec"]["containers"][0]["resources"]["limits"].clone()
    };
    let arm = FakeArm::start();
    arm.put_pool(
        "c1",
        "mig",
        json!({"id": crate::fake_arm::pool_path("c1", "mig"), "name": "mig", "properties": {
        "vmSize": "Standard_NC24ads_A100_v4", "count": 1, "mode": "User", "osType": "Linux",
        "provisioningState": "Succeeded", "gpuInstanceProfile": "MIG3g", "gpuProfile": {"driver": "None"}}}),
    );
    let manifest = |extra: &[&str]| {
        let base = ["manifest", "--pool", "mig", "-g", "rg", "--cluster", "c1", "--kind", "pod"];
        aksgpu_arm(&arm.base, &[&base[..], extra].concat(), &[])
    };
    let release = |values: Value| arm.with(|s| s.helm_release = Some(("gpu-operator-v26.7.0".into(), values)));
    let cases = [
        (
            json!({"mig": {"strategy": "single"}}),
            json!({"nvidia.com/gpu": 1}),
            "MIG strategy single (the GPU Operator's Helm release, mig.strategy)",
        ),
        (
            json!({"mig": {"strategy": "mixed"}}),
            json!({"nvidia.com/mig-3g.40gb": 1}),
            "MIG strategy mixed (the GPU Operator's Helm release, mig.strategy)",
        ),
        (
            json!({"driver": {"enabled": true}}),
            json!({"nvidia.com/gpu": 1}),
            "MIG strategy single (the GPU Operator's Helm release, which leaves mig.strategy at the chart's default)",
        ),
    ];
    for (values, want, said) in cases {
        release(values);
        let r = manifest(&[]);
        assert_eq!(limits(&r), want, "{}", r.stderr);
        assert!(r.stderr.contains(said), "{said:?} missing in:\n{}", r.stderr);
    }
    let reads: Vec<Value> = arm.log().iter().filter(|q| q.method == "POST").map(|q| q.json()).collect();
    assert_eq!(reads.len(), 3, "one release read a run: {reads:?}");
    assert!(
        reads
            .iter()
            .all(|b| b["command"].as_str().is_some_and(|c| c.contains("helm get values") && !c.contains("upgrade"))),
        "{reads:?}"
    );
    // A flag that contradicts the release: refused, naming both.
    let r = manifest(&["--mig-strategy", "mixed"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--mig-strategy mixed contradicts the GPU Operator's Helm release"), "{}", r.stderr);
    // No release: the flag, else assumed mixed, saying why.
    arm.with(|s| s.helm_release = None);
    let r = manifest(&["--mig-strategy", "single"]);
    assert_eq!(limits(&r), json!({"nvidia.com/gpu": 1}));
    assert!(r.stderr.contains("MIG strategy single (--mig-strategy)"), "{}", r.stderr);
    let r = manifest(&[]);
    assert_eq!(limits(&r), json!({"nvidia.com/mig-3g.40gb": 1}));
    assert!(r.stderr.contains("MIG strategy mixed (assumed: no GPU Operator release in the cluster"), "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 0);
}

/// An AKS-driver pool created where another pool leaves its driver to the GPU Operator gets
/// `nvidia.com/gpu.deploy.driver=false` (the dry run shows it, the run sends it); in a cluster
/// without such a pool, no label.
#[test]
fn a_new_aks_driver_pool_in_a_cluster_with_the_operators_driver_is_labelled() {
    let op_pool = |arm: &FakeArm| {
        arm.put_pool("c1", "op", json!({"id": crate::fake_arm::pool_path("c1", "op"), "name": "op", "properties": {
            "vmSize": "Standard_NC24ads_A100_v4", "count": 1, "mode": "User", "osType": "Linux", "provisioningState": "Succeeded",
            "gpuProfile": {"driver": "None"}}}));
    };
    let arm = FakeArm::start();
    op_pool(&arm);
    let dry = create(&arm, "Standard_NC4as_T4_v3", &["--dry-run", "-o", "json"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert!(
        dry.stderr.contains("pool(s) op have no AKS driver")
            && dry.stderr.contains("rule operator-mixed-driver-labels"),
        "{}",
        dry.stderr
    );
    let put =
        dry.json()["steps"].as_array().expect("steps").iter().find(|s| s["method"] == "PUT").cloned().expect("put");
    assert_eq!(put["body"]["properties"]["nodeLabels"], json!({"nvidia.com/gpu.deploy.driver": "false"}));
    let r = create(&arm, "Standard_NC4as_T4_v3", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(the_put(&arm).1, put["body"], "the run sends the dry run's body");

    let arm = FakeArm::start();
    let r = create(&arm, "Standard_NC4as_T4_v3", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(the_put(&arm).1["properties"].get("nodeLabels").is_none(), "no label without a driverless pool");
}

/// `recommend` names the AKS-managed GPU pool for an NVIDIA pick on Linux (the DCGM metrics
/// `usage` reads come with it), not for Windows.
#[test]
fn recommend_names_managed_gpu_where_it_fits() {
    let r = crate::support::aksgpu_with(&["recommend", "--model", "llama-3.1-8b", "--top", "1"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("--managed-gpu` makes it an AKS-managed GPU pool") && r.stderr.contains("DCGM"),
        "{}",
        r.stderr
    );
    let w = crate::support::aksgpu_with(&["recommend", "--workload", "vdi", "--os", "windows", "--top", "1"], &[]);
    assert_eq!(w.code, 0, "{}", w.stderr);
    assert!(!w.stderr.contains("--managed-gpu"), "{}", w.stderr);
}

/// `create-pool` of an NVadsA10 v5 size warns about every pool of that series in the cluster
/// that runs a node image older than the floor, from the pools list preflight reads (read
/// once: no request more than the plan's).
#[test]
fn create_pool_warns_about_pools_of_its_series_below_the_node_image_floor() {
    let arm = FakeArm::start();
    arm.put_pool("c1", "old", json!({"id": crate::fake_arm::pool_path("c1", "old"), "name": "old", "properties": {
        "vmSize": "Standard_NV36ads_A10_v5", "count": 1, "mode": "User", "osType": "Linux", "provisioningState": "Succeeded",
        "nodeImageVersion": "AKSUbuntu-2204gen2containerd-202605.27.0"}}));
    for extra in [&["--dry-run"][..], &[][..]] {
        let c = CreatePool::new().name("new").vm_size("Standard_NV36ads_A10_v5").with(extra);
        let r = aksgpu_arm(&arm.base, &c.args(), &[]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(
            r.stderr.contains("pool old (Standard_NV36ads_A10_v5) runs node image")
                && r.stderr.contains("rule a10-node-image-floor"),
            "{}",
            r.stderr
        );
        // One list read per run (its first page; the fake pages every list).
        let firsts = arm
            .log()
            .iter()
            .filter(|r| r.method == "GET" && r.target.ends_with("/agentPools?api-version=2026-08-01"))
            .count();
        assert_eq!(firsts, if extra.is_empty() { 2 } else { 1 }, "{:?}", arm.calls());
    }
}

/// The failover path (`--fallback-vm-size`) makes each candidate as create-pool does: an
/// AKS-driver pool beside a pool that leaves its driver to the GPU Operator gets
/// `nvidia.com/gpu.deploy.driver=false`, in the dry run's PUTs and in the PUT sent.
#[test]
fn a_failover_pool_in_a_cluster_with_the_operators_driver_is_labelled() {
    let arm = FakeArm::start();
    arm.put_pool("c1", "op", json!({"id": crate::fake_arm::pool_path("c1", "op"), "name": "op", "properties": {
        "vmSize": "Standard_NC24ads_A100_v4", "count": 1, "mode": "User", "osType": "Linux", "provisioningState": "Succeeded",
        "gpuProfile": {"driver": "None"}}}));
    let fallback = ["--fallback-vm-size", "Standard_NV36ads_A10_v5"];
    let dry = create(&arm, "Standard_NC4as_T4_v3", &[&fallback[..], &["--dry-run", "-o", "json"]].concat());
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    let puts: Vec<Value> =
        dry.json()["steps"].as_array().expect("steps").iter().filter(|s| s["method"] == "PUT").cloned().collect();
    assert!(!puts.is_empty(), "{}", dry.stdout);
    for put in &puts {
        assert_eq!(put["body"]["properties"]["nodeLabels"], json!({"nvidia.com/gpu.deploy.driver": "false"}), "{put}");
    }
    let r = create(&arm, "Standard_NC4as_T4_v3", &fallback);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(the_put(&arm).1["properties"]["nodeLabels"], json!({"nvidia.com/gpu.deploy.driver": "false"}));
}
