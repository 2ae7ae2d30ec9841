//! Kubernetes workload manifests for a GPU pool: a Pod, Deployment or Job that requests the
//! pool's GPU resource (`nvidia.com/gpu`, a MIG slice such as `nvidia.com/mig-1g.10gb`, or
//! Windows `microsoft.com/directx`), tolerates every taint the pool carries (plus the spot taint
//! AKS adds to spot pools by itself) and selects the pool's nodes; and the smoke-test Job that
//! proves a new pool's GPUs are visible. Pure: the documents are built from typed serde structs
//! and rendered by `serde_yaml_ng`, so they always parse back.

use std::collections::BTreeMap;

use serde::Serialize;

use super::agent_pool::SPOT_TAINT;
use crate::domain::MigStrategy;

/// Image of the Linux smoke test (CUDA base image; the driver's `nvidia-smi` is mounted in by the
/// NVIDIA container toolkit).
pub const LINUX_SMOKE_IMAGE: &str = "nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04";
/// Image of the Windows smoke test (needs a Windows Server 2022 node).
pub const WINDOWS_SMOKE_IMAGE: &str = "mcr.microsoft.com/windows/servercore:ltsc2022";
/// PowerShell the Windows smoke test runs: lists the GPUs DirectX exposes to the container.
pub const WINDOWS_SMOKE_SCRIPT: &str =
    "Get-CimInstance -ClassName Win32_VideoController | Format-List Name, DriverVersion, Status";
/// Suffix of the smoke-test Job's name.
pub const SMOKE_SUFFIX: &str = "-smoke";
/// Seconds a finished Job is kept before Kubernetes deletes it.
pub const JOB_TTL_SECONDS: u32 = 3600;

/// Workload kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Kind {
    /// A bare Pod (`restartPolicy: Never`).
    #[default]
    Pod,
    /// A Deployment with one replica.
    Deployment,
    /// A Job that runs once (`backoffLimit: 0`) and is deleted an hour after it finishes.
    Job,
}

/// The extended resource the container asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum GpuResource {
    /// Whole NVIDIA GPUs (or MIG slices under the `single` strategy): `nvidia.com/gpu`.
    #[default]
    Nvidia,
    /// One MIG profile under the `mixed` strategy, e.g. `"1g.10gb"` → `nvidia.com/mig-1g.10gb`.
    MigSlice(String),
    /// A Windows GPU through DirectX: `microsoft.com/directx`; the pod also selects Windows nodes.
    DirectX,
}

/// What the GPU Operator's release says of the MIG strategy (its `mig.strategy` value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReleaseMig {
    /// The release sets `mig.strategy`.
    Set(MigStrategy),
    /// The release leaves `mig.strategy` out: the chart's default, `single` (NVIDIA
    /// gpu-operator, deployments/gpu-operator/values.yaml: `mig: strategy: single`).
    ChartDefault,
    /// No GPU Operator release in the cluster.
    Absent,
    /// Not read (why: no credentials, runCommand disabled, the read failed).
    Unread(String),
}

/// The MIG strategy in the output of the release check
/// ([`super::gitops::release::check_command`]).
pub fn release_mig(logs: &str) -> ReleaseMig {
    use super::gitops::release::{parse, Release};
    use crate::resources::helm::{MigSetting, OperatorValues};
    match parse(logs) {
        Release::Absent => ReleaseMig::Absent,
        Release::Unread(why) => ReleaseMig::Unread(why),
        Release::Present { values, .. } => match OperatorValues::read(&values) {
            Err(e) => ReleaseMig::Unread(format!("the release's values are not of the chart's shape: {e}")),
            Ok(v) => match v.mig_strategy() {
                MigSetting::Unset => ReleaseMig::ChartDefault,
                MigSetting::Text(m) if m.eq_ignore_ascii_case("single") => ReleaseMig::Set(MigStrategy::Single),
                MigSetting::Text(m) if m.eq_ignore_ascii_case("mixed") => ReleaseMig::Set(MigStrategy::Mixed),
                other => ReleaseMig::Unread(format!(
                    "the release's mig.strategy is {}, neither single nor mixed",
                    if let MigSetting::Text(m) = other { m } else { "not a string" }
                )),
            },
        },
    }
}

/// Where the MIG strategy a manifest uses came from, in the order they are taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StrategySource {
    /// The pool's managed MIG (`gpuProfile.nvidia.migStrategy`): AKS runs the device plugin.
    Pool,
    /// The GPU Operator's release (`mig.strategy`).
    Release,
    /// The release has no `mig.strategy`: the chart's default.
    ChartDefault,
    /// Given by the user (nothing read said otherwise); `why` the release was not used.
    Given { why: Option<String> },
    /// Nothing read or given: assumed `mixed`; `why` the release was not used.
    Assumed { why: Option<String> },
}

/// A strategy given that contradicts the one read from Azure (a pod requesting the wrong
/// resource stays Pending).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrategyConflict {
    pub given: MigStrategy,
    pub read: MigStrategy,
    pub from: StrategySource,
}

/// The MIG strategy the device plugin runs with: the pool's managed MIG strategy, else the
/// operator release's `mig.strategy` (its chart default, `single`, when the release leaves it
/// out), else the one given, else `mixed` (assumed; the caller says so). A strategy given that
/// contradicts what was read is refused.
pub fn mig_strategy(
    pool: Option<MigStrategy>,
    release: &ReleaseMig,
    given: Option<MigStrategy>,
) -> Result<(MigStrategy, StrategySource), StrategyConflict> {
    let read = match (pool, release) {
        (Some(m), _) => Some((m, StrategySource::Pool)),
        (None, ReleaseMig::Set(m)) => Some((*m, StrategySource::Release)),
        (None, ReleaseMig::ChartDefault) => Some((MigStrategy::Single, StrategySource::ChartDefault)),
        (None, ReleaseMig::Absent | ReleaseMig::Unread(_)) => None,
    };
    let why = match release {
        ReleaseMig::Absent => Some("no GPU Operator release in the cluster".to_owned()),
        ReleaseMig::Unread(why) => Some(why.clone()),
        _ => None,
    };
    match (read, given) {
        (Some((read, from)), Some(given)) if given != read => Err(StrategyConflict { given, read, from }),
        (Some(r), _) => Ok(r),
        (None, Some(given)) => Ok((given, StrategySource::Given { why })),
        (None, None) => Ok((MigStrategy::Mixed, StrategySource::Assumed { why })),
    }
}

/// The resource a MIG slice is requested as under `strategy`: `nvidia.com/gpu` under `single`
/// (every slice is one GPU to the device plugin), `nvidia.com/mig-<slice>` under `mixed`
/// (NVIDIA GPU Operator docs, "GPU Operator with MIG"). Anything but a slice is unchanged.
pub fn under_strategy(resource: GpuResource, strategy: MigStrategy) -> GpuResource {
    match (resource, strategy) {
        (GpuResource::MigSlice(_), MigStrategy::Single) => GpuResource::Nvidia,
        (r, _) => r,
    }
}

/// What to generate.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ManifestSpec {
    pub name: String,
    pub namespace: Option<String>,
    pub image: String,
    pub kind: Kind,
    /// How many units of `resource` the container gets (a limit).
    pub gpus: u32,
    /// The pool's taints, `key=value:Effect` or `key:Effect`; each becomes a toleration.
    pub taints: Vec<String>,
    /// The pool is a spot pool: also tolerate [`SPOT_TAINT`].
    pub spot: bool,
    /// e.g. `agentpool: gpu` or `node.kubernetes.io/instance-type: Standard_NC24ads_A100_v4`.
    pub node_selector: BTreeMap<String, String>,
    pub resource: GpuResource,
    /// Replaces the image's entrypoint when set.
    pub command: Option<Vec<String>>,
}

/// One pod toleration, serialised the way Kubernetes writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Toleration {
    pub key: String,
    /// `Equal` (key and value must match) or `Exists` (any value).
    pub operator: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// `None` tolerates every effect.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
}

/// The extended-resource name for `resource`.
///
/// A MIG slice may be written `1g.10gb`, `mig-1g.10gb` or `nvidia.com/mig-1g.10gb`.
pub fn resource_name(resource: &GpuResource) -> String {
    match resource {
        GpuResource::Nvidia => "nvidia.com/gpu".to_string(),
        GpuResource::MigSlice(slice) => {
            let slice = slice.trim();
            let slice = slice.strip_prefix("nvidia.com/").unwrap_or(slice);
            let slice = slice.strip_prefix("mig-").unwrap_or(slice);
            format!("nvidia.com/mig-{slice}")
        }
        GpuResource::DirectX => "microsoft.com/directx".to_string(),
    }
}

/// How many `nvidia.com/gpu` a node of a size offers: its whole GPUs, or one for a partial-GPU
/// size. A partial size (Standard_NV6ads_A10_v5, 1/6 of an A10; Standard_NC8ads_A10_v4, half of
/// one) gets one virtual GPU device, so the device plugin advertises `nvidia.com/gpu: 1` and a
/// pod asks for 1. Sources: MicrosoftDocs/azure-docs:articles/virtual-machines/nva10v5-series.md
/// ("partial NVIDIA GPUs … starting at 1/6th of a GPU"), and Azure's Resource SKU data, which
/// gives `GPUs: 1` for these sizes (catalog/sizes/nc.yaml, NCads_A10_v4 comment).
pub fn gpus_per_node(count: crate::catalog::GpuCount) -> u32 {
    if count.is_partial() {
        1
    } else {
        count.whole()
    }
}

/// The toleration for one taint.
///
/// `key=value:Effect` → `Equal`; `key:Effect` (or an empty value) → `Exists`. Text without a
/// known effect is read as `key[=value]` and tolerated for every effect.
pub fn toleration(taint: &str) -> Toleration {
    let taint = taint.trim();
    let (kv, effect) = match taint.rsplit_once(':') {
        Some((kv, e)) if matches!(e, "NoSchedule" | "PreferNoSchedule" | "NoExecute") => (kv, Some(e.to_string())),
        _ => (taint, None),
    };
    match kv.split_once('=') {
        Some((key, value)) if !value.is_empty() => {
            Toleration { key: key.to_string(), operator: "Equal", value: Some(value.to_string()), effect }
        }
        Some((key, _)) => Toleration { key: key.to_string(), operator: "Exists", value: None, effect },
        None => Toleration { key: kv.to_string(), operator: "Exists", value: None, effect },
    }
}

/// Tolerations for all of a pool's taints, plus the AKS spot taint when `spot` is set; in order,
/// without duplicates.
pub fn tolerations(taints: &[String], spot: bool) -> Vec<Toleration> {
    let spot_taint = spot.then_some(SPOT_TAINT);
    let mut out: Vec<Toleration> = Vec::new();
    for t in taints.iter().map(String::as_str).chain(spot_taint) {
        if t.trim().is_empty() {
            continue;
        }
        let tol = toleration(t);
        if !out.contains(&tol) {
            out.push(tol);
        }
    }
    out
}

/// The smoke-test Job for the pool `spec` describes: same namespace, node selector, taints,
/// resource and GPU count (at least one), named `<name>-smoke`. Linux runs `nvidia-smi` in the CUDA
/// base image; DirectX (Windows) lists `Win32_VideoController` with PowerShell in Server Core.
pub fn smoke_test(spec: &ManifestSpec) -> ManifestSpec {
    let name =
        if spec.name.ends_with(SMOKE_SUFFIX) { spec.name.clone() } else { format!("{}{SMOKE_SUFFIX}", spec.name) };
    let (image, command) = match spec.resource {
        GpuResource::DirectX => (
            WINDOWS_SMOKE_IMAGE,
            vec!["powershell.exe".to_string(), "-Command".to_string(), WINDOWS_SMOKE_SCRIPT.to_string()],
        ),
        GpuResource::Nvidia | GpuResource::MigSlice(_) => (LINUX_SMOKE_IMAGE, vec!["nvidia-smi".to_string()]),
    };
    ManifestSpec {
        name,
        image: image.to_string(),
        kind: Kind::Job,
        gpus: spec.gpus.max(1),
        command: Some(command),
        ..spec.clone()
    }
}

/// One YAML document for `spec`.
///
/// Every object carries the label `app: <name>`; a Deployment selects on it. Pods and Jobs use
/// `restartPolicy: Never`; a Job also gets `backoffLimit: 0` and `ttlSecondsAfterFinished: 3600`.
/// The GPU count goes in `resources.limits` only (extended resources need no request).
pub fn manifest_yaml(spec: &ManifestSpec) -> String {
    let labels = BTreeMap::from([("app".to_string(), spec.name.clone())]);
    let metadata = Metadata { name: spec.name.clone(), namespace: spec.namespace.clone(), labels: labels.clone() };
    let manifest = match spec.kind {
        Kind::Pod => Manifest {
            api_version: "v1",
            kind: "Pod",
            metadata,
            spec: WorkloadSpec::Pod(pod_spec(spec, Some("Never"))),
        },
        Kind::Deployment => Manifest {
            api_version: "apps/v1",
            kind: "Deployment",
            metadata,
            spec: WorkloadSpec::Deployment(DeploymentSpec {
                replicas: 1,
                selector: LabelSelector { match_labels: labels.clone() },
                template: PodTemplate { metadata: TemplateMetadata { labels }, spec: pod_spec(spec, None) },
            }),
        },
        Kind::Job => Manifest {
            api_version: "batch/v1",
            kind: "Job",
            metadata,
            spec: WorkloadSpec::Job(JobSpec {
                backoff_limit: 0,
                ttl_seconds_after_finished: JOB_TTL_SECONDS,
                template: PodTemplate { metadata: TemplateMetadata { labels }, spec: pod_spec(spec, Some("Never")) },
            }),
        },
    };
    serde_yaml_ng::to_string(&manifest).unwrap_or_else(|e| format!("# cannot render {}: {e}\n", spec.name))
}

fn pod_spec(spec: &ManifestSpec, restart_policy: Option<&'static str>) -> PodSpec {
    let mut node_selector = spec.node_selector.clone();
    if spec.resource == GpuResource::DirectX {
        node_selector.insert("kubernetes.io/os".to_string(), "windows".to_string());
    }
    PodSpec {
        restart_policy,
        node_selector,
        tolerations: tolerations(&spec.taints, spec.spot),
        containers: vec![Container {
            name: spec.name.clone(),
            image: spec.image.clone(),
            command: spec.command.clone(),
            resources: Resources { limits: BTreeMap::from([(resource_name(&spec.resource), spec.gpus)]) },
        }],
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Manifest {
    api_version: &'static str,
    kind: &'static str,
    metadata: Metadata,
    spec: WorkloadSpec,
}

#[derive(Serialize)]
struct Metadata {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    namespace: Option<String>,
    labels: BTreeMap<String, String>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum WorkloadSpec {
    Pod(PodSpec),
    Deployment(DeploymentSpec),
    Job(JobSpec),
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DeploymentSpec {
    replicas: u32,
    selector: LabelSelector,
    template: PodTemplate,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JobSpec {
    backoff_limit: u32,
    ttl_seconds_after_finished: u32,
    template: PodTemplate,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LabelSelector {
    match_labels: BTreeMap<String, String>,
}

#[derive(Serialize)]
struct PodTemplate {
    metadata: TemplateMetadata,
    spec: PodSpec,
}

#[derive(Serialize)]
struct TemplateMetadata {
    labels: BTreeMap<String, String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PodSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    restart_policy: Option<&'static str>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    node_selector: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tolerations: Vec<Toleration>,
    containers: Vec<Container>,
}

#[derive(Serialize)]
struct Container {
    name: String,
    image: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    command: Option<Vec<String>>,
    resources: Resources,
}

#[derive(Serialize)]
struct Resources {
    limits: BTreeMap<String, u32>,
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;

    #[test]
    fn a_partial_gpu_size_exposes_one_gpu() {
        let catalog = crate::catalog::Catalog::bundled().expect("catalog");
        for (size, gpus) in [
            ("Standard_NV6ads_A10_v5", 1),
            ("Standard_NC8ads_A10_v4", 1),
            ("Standard_NV36ads_A10_v5", 1),
            ("Standard_NC24ads_A100_v4", 1),
            ("Standard_NV72ads_A10_v5", 2),
            ("Standard_ND96isr_H100_v5", 8),
        ] {
            let s = catalog.size(size).expect(size);
            assert_eq!(gpus_per_node(s.gpu_count), gpus, "{size}");
        }
        assert!(catalog.size("Standard_NV6ads_A10_v5").expect("NV6").gpu_count.is_partial());
    }

    fn parse(yaml: &str) -> Value {
        serde_yaml_ng::from_str(yaml).expect("manifest parses as YAML")
    }

    fn spec(kind: Kind) -> ManifestSpec {
        ManifestSpec {
            name: "cuda".into(),
            namespace: None,
            image: "nvcr.io/nvidia/k8s/cuda-sample:vectoradd-cuda12.5.0".into(),
            kind,
            gpus: 1,
            taints: vec!["sku=gpu:NoSchedule".into()],
            spot: false,
            node_selector: BTreeMap::from([("agentpool".into(), "gpu".into())]),
            resource: GpuResource::Nvidia,
            command: None,
        }
    }

    fn pod_template_spec(restart: Option<&str>) -> Value {
        let mut v = json!({
            "nodeSelector": {"agentpool": "gpu"},
            "tolerations": [{"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}],
            "containers": [{
                "name": "cuda",
                "image": "nvcr.io/nvidia/k8s/cuda-sample:vectoradd-cuda12.5.0",
                "resources": {"limits": {"nvidia.com/gpu": 1}}
            }]
        });
        if let Some(r) = restart {
            v["restartPolicy"] = json!(r);
        }
        v
    }

    #[test]
    fn pod_structure() {
        let got = parse(&manifest_yaml(&spec(Kind::Pod)));
        assert_eq!(
            got,
            json!({
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": "cuda", "labels": {"app": "cuda"}},
                "spec": pod_template_spec(Some("Never"))
            })
        );
    }

    #[test]
    fn deployment_structure() {
        let mut s = spec(Kind::Deployment);
        s.namespace = Some("ml".into());
        let got = parse(&manifest_yaml(&s));
        assert_eq!(
            got,
            json!({
                "apiVersion": "apps/v1",
                "kind": "Deployment",
                "metadata": {"name": "cuda", "namespace": "ml", "labels": {"app": "cuda"}},
                "spec": {
                    "replicas": 1,
                    "selector": {"matchLabels": {"app": "cuda"}},
                    "template": {
                        "metadata": {"labels": {"app": "cuda"}},
                        "spec": pod_template_spec(None)
                    }
                }
            })
        );
    }

    #[test]
    fn job_structure() {
        let mut s = spec(Kind::Job);
        s.command = Some(vec!["/bin/sh".into(), "-c".into(), "nvidia-smi -L".into()]);
        let got = parse(&manifest_yaml(&s));
        let mut pod = pod_template_spec(Some("Never"));
        pod["containers"][0]["command"] = json!(["/bin/sh", "-c", "nvidia-smi -L"]);
        assert_eq!(
            got,
            json!({
                "apiVersion": "batch/v1",
                "kind": "Job",
                "metadata": {"name": "cuda", "labels": {"app": "cuda"}},
                "spec": {
                    "backoffLimit": 0,
                    "ttlSecondsAfterFinished": 3600,
                    "template": {"metadata": {"labels": {"app": "cuda"}}, "spec": pod}
                }
            })
        );
    }

    #[test]
    fn documents_start_with_api_version_and_are_single() {
        for kind in [Kind::Pod, Kind::Deployment, Kind::Job] {
            let y = manifest_yaml(&spec(kind));
            assert!(y.starts_with("apiVersion: "), "{y}");
            assert!(!y.contains("\n---"), "one document only: {y}");
        }
    }

    #[test]
    fn mig_slice_resource_name() {
        for written in ["1g.10gb", "mig-1g.10gb", "nvidia.com/mig-1g.10gb", " 1g.10gb "] {
            assert_eq!(resource_name(&GpuResource::MigSlice(written.into())), "nvidia.com/mig-1g.10gb");
        }
        let mut s = spec(Kind::Pod);
        s.resource = GpuResource::MigSlice("3g.40gb".into());
        s.gpus = 2;
        let got = parse(&manifest_yaml(&s));
        assert_eq!(got["spec"]["containers"][0]["resources"], json!({"limits": {"nvidia.com/mig-3g.40gb": 2}}));
        assert_eq!(got["spec"]["nodeSelector"], json!({"agentpool": "gpu"}));
    }

    #[test]
    fn directx_requests_directx_and_selects_windows() {
        let mut s = spec(Kind::Deployment);
        s.resource = GpuResource::DirectX;
        // A conflicting OS selector is overridden: DirectX exists only on Windows nodes.
        s.node_selector.insert("kubernetes.io/os".into(), "linux".into());
        let got = parse(&manifest_yaml(&s));
        let pod = &got["spec"]["template"]["spec"];
        assert_eq!(pod["containers"][0]["resources"], json!({"limits": {"microsoft.com/directx": 1}}));
        assert_eq!(pod["nodeSelector"], json!({"agentpool": "gpu", "kubernetes.io/os": "windows"}));
        assert_eq!(resource_name(&GpuResource::Nvidia), "nvidia.com/gpu");
    }

    #[test]
    fn tolerations_equal_vs_exists() {
        assert_eq!(
            serde_json::to_value(toleration("sku=gpu:NoSchedule")).expect("json"),
            json!({"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"})
        );
        assert_eq!(
            serde_json::to_value(toleration("nvidia.com/gpu:NoExecute")).expect("json"),
            json!({"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoExecute"})
        );
        assert_eq!(
            serde_json::to_value(toleration("dedicated=:PreferNoSchedule")).expect("json"),
            json!({"key": "dedicated", "operator": "Exists", "effect": "PreferNoSchedule"})
        );
        // No recognised effect: tolerate the key for every effect.
        assert_eq!(
            serde_json::to_value(toleration("team=ml")).expect("json"),
            json!({"key": "team", "operator": "Equal", "value": "ml"})
        );
    }

    #[test]
    fn spot_toleration_added_once() {
        let spot = json!({
            "key": "kubernetes.azure.com/scalesetpriority",
            "operator": "Equal",
            "value": "spot",
            "effect": "NoSchedule"
        });
        let mut s = spec(Kind::Pod);
        s.spot = true;
        let got = parse(&manifest_yaml(&s));
        assert_eq!(
            got["spec"]["tolerations"],
            json!([{"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}, spot.clone()])
        );
        // Already listed among the pool's taints: not repeated.
        s.taints.push(SPOT_TAINT.into());
        s.taints.push("sku=gpu:NoSchedule".into());
        assert_eq!(tolerations(&s.taints, true).len(), 2);
        // Not a spot pool and no taints: no tolerations key at all.
        s.spot = false;
        s.taints.clear();
        let got = parse(&manifest_yaml(&s));
        assert!(got["spec"].get("tolerations").is_none(), "{got}");
        // The spot taint alone.
        assert_eq!(serde_json::to_value(tolerations(&[], true)).expect("json"), json!([spot]));
    }

    #[test]
    fn linux_smoke_test() {
        let mut s = spec(Kind::Deployment);
        s.namespace = Some("ml".into());
        s.spot = true;
        s.gpus = 0;
        let smoke = smoke_test(&s);
        assert_eq!(smoke.name, "cuda-smoke");
        assert_eq!(smoke.kind, Kind::Job);
        assert_eq!(smoke.gpus, 1);
        assert_eq!(smoke_test(&smoke), smoke, "idempotent");
        let got = parse(&manifest_yaml(&smoke));
        assert_eq!(
            got,
            json!({
                "apiVersion": "batch/v1",
                "kind": "Job",
                "metadata": {"name": "cuda-smoke", "namespace": "ml", "labels": {"app": "cuda-smoke"}},
                "spec": {
                    "backoffLimit": 0,
                    "ttlSecondsAfterFinished": 3600,
                    "template": {
                        "metadata": {"labels": {"app": "cuda-smoke"}},
                        "spec": {
                            "restartPolicy": "Never",
                            "nodeSelector": {"agentpool": "gpu"},
                            "tolerations": [
                                {"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"},
                                {"key": "kubernetes.azure.com/scalesetpriority", "operator": "Equal",
                                 "value": "spot", "effect": "NoSchedule"}
                            ],
                            "containers": [{
                                "name": "cuda-smoke",
                                "image": "nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04",
                                "command": ["nvidia-smi"],
                                "resources": {"limits": {"nvidia.com/gpu": 1}}
                            }]
                        }
                    }
                }
            })
        );
    }

    #[test]
    fn mig_smoke_test_keeps_the_slice() {
        let mut s = spec(Kind::Pod);
        s.resource = GpuResource::MigSlice("1g.10gb".into());
        let got = parse(&manifest_yaml(&smoke_test(&s)));
        let c = &got["spec"]["template"]["spec"]["containers"][0];
        assert_eq!(c["image"], json!(LINUX_SMOKE_IMAGE));
        assert_eq!(c["resources"], json!({"limits": {"nvidia.com/mig-1g.10gb": 1}}));
    }

    #[test]
    fn windows_smoke_test() {
        let mut s = spec(Kind::Pod);
        s.name = "win".into();
        s.resource = GpuResource::DirectX;
        s.node_selector.clear();
        s.taints.clear();
        let got = parse(&manifest_yaml(&smoke_test(&s)));
        assert_eq!(
            got["spec"]["template"]["spec"],
            json!({
                "restartPolicy": "Never",
                "nodeSelector": {"kubernetes.io/os": "windows"},
                "containers": [{
                    "name": "win-smoke",
                    "image": "mcr.microsoft.com/windows/servercore:ltsc2022",
                    "command": ["powershell.exe", "-Command", WINDOWS_SMOKE_SCRIPT],
                    "resources": {"limits": {"microsoft.com/directx": 1}}
                }]
            })
        );
        assert!(WINDOWS_SMOKE_SCRIPT.contains("Win32_VideoController"));
    }

    #[test]
    fn awkward_strings_survive_the_round_trip() {
        // Values YAML would otherwise read as numbers, booleans or null.
        let mut s = spec(Kind::Job);
        s.name = "123".into();
        s.namespace = Some("true".into());
        s.taints = vec!["team=no:NoSchedule".into(), "null=1.0:NoExecute".into()];
        s.node_selector = BTreeMap::from([("zone".into(), "1".into()), ("on".into(), "yes".into())]);
        s.command = Some(vec!["echo".into(), "a: b # c".into(), "- x".into(), "'quoted'\n\"two\"".into()]);
        let got = parse(&manifest_yaml(&s));
        assert_eq!(got["metadata"]["name"], json!("123"));
        assert_eq!(got["metadata"]["namespace"], json!("true"));
        let pod = &got["spec"]["template"]["spec"];
        assert_eq!(pod["nodeSelector"], json!({"zone": "1", "on": "yes"}));
        assert_eq!(pod["tolerations"][0]["value"], json!("no"));
        assert_eq!(
            pod["tolerations"][1],
            json!({"key": "null", "operator": "Equal", "value": "1.0", "effect": "NoExecute"})
        );
        assert_eq!(pod["containers"][0]["command"], json!(["echo", "a: b # c", "- x", "'quoted'\n\"two\""]));
    }

    #[test]
    fn every_variant_parses_back() {
        let resources = [GpuResource::Nvidia, GpuResource::MigSlice("2g.20gb".into()), GpuResource::DirectX];
        for kind in [Kind::Pod, Kind::Deployment, Kind::Job] {
            for resource in &resources {
                for spot in [false, true] {
                    let mut s = spec(kind);
                    s.resource = resource.clone();
                    s.spot = spot;
                    for m in [s.clone(), smoke_test(&s)] {
                        let y = manifest_yaml(&m);
                        let v = parse(&y);
                        assert_eq!(v["metadata"]["name"], json!(m.name), "{y}");
                        let typed: serde_yaml_ng::Value = serde_yaml_ng::from_str(&y).expect("typed parse");
                        assert!(typed.is_mapping());
                    }
                }
            }
        }
    }

    #[test]
    fn the_mig_strategy_is_read_before_it_is_given_or_assumed() {
        use super::{mig_strategy, ReleaseMig as R, StrategySource as S};
        use crate::domain::MigStrategy::{Mixed, Single};
        assert_eq!(mig_strategy(Some(Single), &R::Set(Mixed), None), Ok((Single, S::Pool)));
        assert_eq!(mig_strategy(None, &R::Set(Mixed), None), Ok((Mixed, S::Release)));
        assert_eq!(mig_strategy(None, &R::ChartDefault, None), Ok((Single, S::ChartDefault)));
        assert_eq!(mig_strategy(None, &R::ChartDefault, Some(Single)), Ok((Single, S::ChartDefault)));
        let why = Some("no GPU Operator release in the cluster".to_owned());
        assert_eq!(mig_strategy(None, &R::Absent, Some(Single)), Ok((Single, S::Given { why: why.clone() })));
        assert_eq!(mig_strategy(None, &R::Absent, None), Ok((Mixed, S::Assumed { why })));
        let off = R::Unread("no credentials".into());
        assert_eq!(mig_strategy(None, &off, None), Ok((Mixed, S::Assumed { why: Some("no credentials".into()) })));
        let e = mig_strategy(None, &R::Set(Mixed), Some(Single)).expect_err("a conflict");
        assert_eq!((e.given, e.read, e.from), (Single, Mixed, S::Release));
        assert_eq!(super::under_strategy(GpuResource::MigSlice("1g.10gb".into()), Single), GpuResource::Nvidia);
        let mixed = super::under_strategy(GpuResource::MigSlice("1g.10gb".into()), Mixed);
        assert_eq!(resource_name(&mixed), "nvidia.com/mig-1g.10gb");
    }
}
