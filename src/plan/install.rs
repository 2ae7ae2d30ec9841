//! `install-operator`'s decisions and requests (pure): from the cluster and its pools, the
//! driver mode, the tolerations and the Helm values; then the runCommand requests that install
//! the GPU Operator and check it. Without credentials (a dry run) the same plan is built from the
//! flags, with what would be read shown as placeholders.

use serde_json::Value;

use super::operator::{self as op, DriverMode, MigStrategy, OperatorSpec};
use crate::resources::ManagedCluster;

use super::{cluster_path, read_at_run_time, runcommand, Plan, Step, StepKind};
use crate::catalog::{Catalog, Vendor};
use crate::domain::setting::{Setting, Words};
use crate::resources::helm::OperatorValues;
use crate::resources::{self, AgentPool, AsRead, PoolDriver};

/// Why a pool cannot be served by the NVIDIA GPU Operator (the rules `create-pool
/// --install-operator` and a GpuConfig with `operator.install` both enforce).
#[derive(Debug, Clone, PartialEq)]
pub enum OperatorPoolProblem {
    /// The operator has no Windows support.
    Windows,
    /// The operator is for NVIDIA GPUs.
    Amd,
    /// An AKS-managed GPU pool: AKS owns its NVIDIA stack (rule `managed-gpu-owns-stack`).
    Managed,
    /// The catalog's `operator-autoscaler-min` rule: `min` is below `required`; `rule` is the
    /// rule's summary and source.
    AutoscalerMin { min: u32, required: u32, rule: String },
}

/// The first reason the GPU Operator cannot serve `spec`, if any.
pub fn operator_pool_problem(catalog: &Catalog, spec: &super::agent_pool::PoolSpec) -> Option<OperatorPoolProblem> {
    if spec.os == crate::domain::Os::Windows {
        return Some(OperatorPoolProblem::Windows);
    }
    if spec.size.gpu_vendor == Vendor::Amd {
        return Some(OperatorPoolProblem::Amd);
    }
    if spec.managed_gpu() {
        return Some(OperatorPoolProblem::Managed);
    }
    let (min, _) = spec.autoscale?;
    catalog.rules.iter().find_map(|rule| match rule.kind {
        crate::catalog::RuleKind::OperatorAutoscalerMin { min_count } if min < min_count => {
            Some(OperatorPoolProblem::AutoscalerMin {
                min,
                required: min_count,
                rule: format!("{} [{}]", rule.summary, rule.source),
            })
        }
        _ => None,
    })
}

/// The operator's autoscaler minimum as a warning, not a refusal: AKS's docs show
/// `--min-count 1` in their GPU pool example but state no minimum, and scaling a GPU pool to
/// zero when idle is what `cost` advises. It names the rule, its source and the risk.
pub fn autoscaler_min_warning(min: u32, required: u32, rule: &str) -> String {
    format!(
        "autoscaler minimum {min} with the NVIDIA GPU Operator: the catalog advises at least {required} (rule operator-autoscaler-min: {rule}); risk: at {min} nodes the operator's validation waits until a GPU node starts, and the first pod scheduled waits for a node and the driver"
    )
}

/// What the user asked for.
#[derive(Debug, Clone)]
pub struct InstallRequest {
    pub subscription: String,
    pub resource_group: String,
    pub cluster: String,
    pub pool: Option<String>,
    pub driver_mode: Option<DriverMode>,
    pub chart_version: Option<String>,
    pub mig_strategy: Option<MigStrategy>,
    pub time_slicing: Option<u32>,
    /// Label the pools that need it (`--label-pools`) instead of refusing: each label is a
    /// write of its own in the plan, before the release is touched.
    pub label_pools: bool,
}

/// A refusal with its reason and the fix, naming settings by their id: the front end words
/// them.
#[derive(Debug, Clone, PartialEq)]
pub struct OperatorRefusal {
    pub message: Words,
    pub hint: Option<Words>,
}

/// A field missing from a pool or cluster the install decides from.
impl From<resources::MissingField> for OperatorRefusal {
    fn from(e: resources::MissingField) -> Self {
        refuse(e.to_string(), None)
    }
}

fn refuse(message: impl Into<Words>, hint: Option<Words>) -> OperatorRefusal {
    OperatorRefusal { message: message.into(), hint }
}

/// The resolved install: the operator spec, the pools it targets, and what runCommand needs.
#[derive(Debug, Clone)]
pub struct Install {
    pub spec: OperatorSpec,
    pub pools: Vec<String>,
    pub values_yaml: String,
    pub command: String,
    pub context: Vec<u8>,
    /// Whether runCommand needs a `clusterToken` (Entra ID clusters); `None` when the cluster
    /// was not read (a dry run without credentials).
    pub needs_cluster_token: Option<bool>,
    pub cluster_path: String,
    /// The pool label updates this install sends first (`--label-pools`), one plan each.
    pub label_updates: Vec<Plan>,
    /// The GPU pools the release serves besides the targets (operator-served, not managed),
    /// and whether each has MIG slices (`gpuInstanceProfile`): what a cluster-wide MIG strategy
    /// or time-slicing change asked for the targets would change for them too.
    pub others: Vec<(String, bool)>,
}

/// The GPU Operator's per-node label that keeps its driver off a node: set on AKS-driver pools
/// of a cluster where the operator installs the driver for other pools (NVIDIA GPU Operator
/// docs, "Common chart customization options" / operand labels `nvidia.com/gpu.deploy.<operand>`).
pub const NO_DRIVER_LABEL: (&str, &str) = ("nvidia.com/gpu.deploy.driver", "false");
pub use crate::domain::NO_OPERANDS_LABEL;

/// The spec the flags ask for, with `mode` and the tolerations for `taints`.
fn spec_for(req: &InstallRequest, mode: DriverMode, taints: &[String]) -> OperatorSpec {
    OperatorSpec {
        driver_mode: mode,
        chart_version: req.chart_version.clone().unwrap_or_else(|| op::DEFAULT_CHART_VERSION.to_owned()),
        mig_strategy: req.mig_strategy,
        time_slicing: req.time_slicing,
        tolerations: op::tolerations_for(taints),
    }
}

fn pool_name(p: &AgentPool) -> &str {
    p.name.as_deref().unwrap_or("?")
}

/// The pools the install is for: the one `--pool` names, else every GPU pool.
fn targets<'a>(
    catalog: &Catalog,
    req: &InstallRequest,
    pools: &'a [AgentPool],
) -> Result<Vec<&'a AgentPool>, OperatorRefusal> {
    let targets: Vec<&AgentPool> = match &req.pool {
        Some(name) => {
            let p = pools.iter().find(|p| p.name.as_deref() == Some(name.as_str())).ok_or_else(|| {
                refuse(
                    format!("pool {name} does not exist in cluster {}", req.cluster),
                    Some(Words::plain(format!(
                        "existing pools: {}",
                        pools.iter().filter_map(|p| p.name.as_deref()).collect::<Vec<_>>().join(", ")
                    ))),
                )
            })?;
            vec![p]
        }
        None => gpu_pools(catalog, req, pools).into_iter().filter(|p| p.driver() != PoolDriver::Managed).collect(),
    };
    if targets.is_empty() {
        return Err(refuse(
            format!("cluster {} has no GPU node pool the GPU Operator serves", req.cluster),
            Some(Words::new("create one first: aksgpu create-pool … (or name it with {0})", &[Setting::Pool])),
        ));
    }
    Ok(targets)
}

/// The pools with a catalog GPU size (and the one `--pool` names).
fn gpu_pools<'a>(catalog: &Catalog, req: &InstallRequest, pools: &'a [AgentPool]) -> Vec<&'a AgentPool> {
    pools
        .iter()
        .filter(|p| {
            p.properties.vm_size.as_deref().and_then(|s| catalog.size(s)).is_some()
                || req.pool.as_deref().is_some_and(|n| p.name.as_deref() == Some(n))
        })
        .collect()
}

/// Whether the operator runs on `p` at all (Linux, not AMD).
fn operator_runs_on(catalog: &Catalog, p: &AgentPool) -> bool {
    let amd =
        p.properties.vm_size.as_deref().and_then(|s| catalog.size(s)).is_some_and(|s| s.gpu_vendor == Vendor::Amd);
    !p.is_windows() && !amd
}

/// Refuse a target pool the operator cannot serve: Windows, AMD, an AKS-managed GPU pool, or a
/// `--driver-mode` that contradicts the pool.
fn check_target(catalog: &Catalog, req: &InstallRequest, p: &AgentPool) -> Result<(), OperatorRefusal> {
    let name = pool_name(p);
    if p.is_windows() {
        return Err(refuse(
            format!("pool {name} runs Windows; the NVIDIA GPU Operator does not support Windows nodes"),
            Some(Words::plain("Windows GPU pools use the AKS-installed driver and the DirectX device plugin")),
        ));
    }
    if let Some(size) = p.properties.vm_size.as_deref().and_then(|s| catalog.size(s)) {
        if size.gpu_vendor == Vendor::Amd {
            return Err(refuse(
                format!("pool {name} has AMD GPUs ({}); the NVIDIA GPU Operator is for NVIDIA GPUs", size.gpu_model),
                Some(Words::plain("install the AMD GPU Operator instead")),
            ));
        }
    }
    let mode = match p.driver() {
        PoolDriver::Managed => {
            let rule = catalog.managed_gpu_rule(crate::catalog::ManagedGpuLimit::OwnsStack);
            return Err(refuse(
                format!(
                    "pool {name} is an AKS-managed GPU pool (gpuProfile.nvidia.managementMode Managed): AKS installs and keeps its driver, device plugin and DCGM exporter, so the GPU Operator must not{}",
                    rule.map(|r| format!(" (rule {}: {})", r.id, r.source)).unwrap_or_default()
                ),
                Some(Words::new("nothing to install for that pool; name another pool with {0}", &[Setting::Pool])),
            ));
        }
        PoolDriver::None => DriverMode::Operator,
        PoolDriver::Aks => DriverMode::Aks,
    };
    match req.driver_mode {
        Some(wanted) if wanted != mode => Err(refuse(
            Words::new(
                match wanted {
                    DriverMode::Operator => format!(
                        "{{0}} operator conflicts with pool {name}: AKS already installs the driver there (gpuProfile.driver Install); two drivers would fight"
                    ),
                    DriverMode::Aks => format!(
                        "{{0}} aks conflicts with pool {name}: it was created with gpuProfile.driver None, so no driver is installed"
                    ),
                },
                &[Setting::DriverMode],
            ),
            Some(Words::new(
                "drop {0} to follow the pool, or create the pool with the matching {1}",
                &[Setting::DriverMode, Setting::GpuDriver],
            )),
        )),
        _ => Ok(()),
    }
}

/// A pool that must carry a node label before the one cluster-wide release can serve every pool.
#[derive(Debug, Clone, PartialEq)]
pub struct MissingLabel {
    pub pool: String,
    pub label: (&'static str, &'static str),
    /// The pool's labels as they are (an `az aks nodepool update --labels` replaces them all).
    pub labels: std::collections::BTreeMap<String, String>,
}

/// The driver setting one release needs for *every* GPU pool of the cluster (not only the
/// targets: the release is cluster-wide), and the pools that need a label first.
///
/// - No pool without a driver: the AKS driver everywhere, the operator's driver off.
/// - Any pool with `gpuProfile.driver: None`: the operator's driver on, and each AKS-driver pool
///   must carry [`NO_DRIVER_LABEL`] so the operator's driver stays off its nodes.
/// - AKS-managed GPU pools must carry [`NO_OPERANDS_LABEL`]: AKS owns their stack.
fn layout(
    catalog: &Catalog,
    req: &InstallRequest,
    all: &[&AgentPool],
) -> Result<(DriverMode, Vec<MissingLabel>), OperatorRefusal> {
    let served: Vec<&&AgentPool> = all.iter().filter(|p| operator_runs_on(catalog, p)).collect();
    let without: Vec<&str> = served.iter().filter(|p| p.driver() == PoolDriver::None).map(|p| pool_name(p)).collect();
    if req.driver_mode == Some(DriverMode::Aks) && !without.is_empty() {
        return Err(refuse(
            Words::new(
                format!(
                    "{{0}} aks would turn the GPU Operator's driver off for the whole cluster, and pool(s) {} have no other driver (gpuProfile.driver None): they would be left without a driver",
                    without.join(", ")
                ),
                &[Setting::DriverMode],
            ),
            Some(Words::new(
                "drop {0}: aksgpu then keeps the operator's driver on and off the AKS-driver pools by node label",
                &[Setting::DriverMode],
            )),
        ));
    }
    let mode = if without.is_empty() && req.driver_mode != Some(DriverMode::Operator) {
        DriverMode::Aks
    } else {
        DriverMode::Operator
    };
    let mut missing = Vec::new();
    for p in served {
        let need = match (p.driver(), mode) {
            (PoolDriver::Managed, _) => NO_OPERANDS_LABEL,
            (PoolDriver::Aks, DriverMode::Operator) => NO_DRIVER_LABEL,
            _ => continue,
        };
        let labels = p.labels();
        if labels.get(need.0).map(String::as_str) != Some(need.1) {
            missing.push(MissingLabel { pool: pool_name(p).to_owned(), label: need, labels });
        }
    }
    Ok((mode, missing))
}

/// The refusal for pools that lack their label: it names them, why, and the commands that
/// reconcile them (`az aks nodepool update --labels` replaces the pool's labels, so each command
/// carries the pool's labels as they are, plus the one needed).
fn missing_labels_refusal(catalog: &Catalog, req: &InstallRequest, missing: &[MissingLabel]) -> OperatorRefusal {
    let rule = catalog.rule("operator-mixed-driver-labels").map(|r| format!(" (rule {}: {})", r.id, r.source));
    let names: Vec<String> = missing.iter().map(|m| format!("{} needs {}={}", m.pool, m.label.0, m.label.1)).collect();
    let commands: Vec<String> = missing
        .iter()
        .map(|m| {
            let mut labels = m.labels.clone();
            labels.insert(m.label.0.to_owned(), m.label.1.to_owned());
            let words: Vec<String> = labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!(
                "  `az aks nodepool update -g {} --cluster-name {} -n {} --labels {}`",
                req.resource_group,
                req.cluster,
                m.pool,
                words.join(" ")
            )
        })
        .collect();
    refuse(
        format!(
            "the GPU pools disagree and the one cluster-wide GPU Operator release cannot serve them all yet: {}. Without the label, the operator's driver would go onto nodes that already have the AKS driver, or AKS-managed nodes would get a second device plugin; turning the operator's driver off instead would leave the pools with gpuProfile.driver None without a driver{}",
            names.join("; "),
            rule.unwrap_or_default()
        ),
        Some(Words::new(
            format!(
                "label the pools first, then run the same command again (or let `aksgpu install-operator {{0:flag}}` label them, each a write of its own in its plan):\n{}",
                commands.join("\n")
            ),
            &[Setting::LabelPools],
        )),
    )
}

/// Decide everything from the cluster and its pools (pure). The driver setting follows every
/// GPU pool of the cluster, whatever `--pool` names; a layout that would leave a pool without a
/// driver, or put two on one, is refused with the commands that reconcile it.
pub fn resolve(
    catalog: &Catalog,
    req: &InstallRequest,
    cluster: &ManagedCluster,
    listed: &[AsRead<AgentPool>],
) -> Result<Install, OperatorRefusal> {
    if cluster.properties.api_server_access_profile.as_ref().and_then(|a| a.disable_run_command) == Some(true) {
        let spec = spec_for(req, req.driver_mode.unwrap_or(DriverMode::Aks), &[]);
        return Err(refuse(
            format!("runCommand is disabled on cluster {} (apiServerAccessProfile.disableRunCommand)", req.cluster),
            Some(Words::new(
                format!(
                    "run Helm yourself with cluster access; save the values from `aksgpu install-operator … {{0:flag}}` as gpu-operator-values.yaml, then: {}",
                    op::helm_command_line(&spec)
                ),
                &[Setting::DryRun],
            )),
        ));
    }
    let pools: Vec<AgentPool> = listed.iter().map(|p| p.item.clone()).collect();
    let targets = targets(catalog, req, &pools)?;
    for p in &targets {
        check_target(catalog, req, p)?;
    }
    let all = gpu_pools(catalog, req, &pools);
    let (mode, missing) = layout(catalog, req, &all)?;
    if !missing.is_empty() && !req.label_pools {
        return Err(missing_labels_refusal(catalog, req, &missing));
    }
    let label_updates = label_plans(req, listed, &missing);
    let others = all
        .iter()
        .filter(|p| operator_runs_on(catalog, p) && p.driver() != PoolDriver::Managed)
        .filter(|p| !targets.iter().any(|t| t.name == p.name))
        .map(|p| (pool_name(p).to_owned(), p.properties.gpu_instance_profile.is_some()))
        .collect();
    let taints: Vec<String> = all
        .iter()
        .filter(|p| operator_runs_on(catalog, p) && p.driver() != PoolDriver::Managed)
        .flat_map(|p| p.taints().iter().cloned())
        .collect();
    let needs_cluster_token = cluster.properties.aad_profile.as_ref().and_then(|a| a.managed) == Some(true);
    let names = targets.iter().filter_map(|p| p.name.clone()).collect();
    let spec = spec_for(req, mode, &taints);
    let i = install(req, spec.clone(), op::values(&spec), (names, Some(needs_cluster_token)), None);
    Ok(Install { label_updates, others, ..i })
}

/// One label update per pool that lacks its label: from the pool as listed (read with
/// `api::AKS_MANAGED_GPU`, the version the PUT is sent with).
fn label_plans(req: &InstallRequest, pools: &[AsRead<AgentPool>], missing: &[MissingLabel]) -> Vec<Plan> {
    let t = super::cluster_ops::Target {
        subscription: &req.subscription,
        resource_group: &req.resource_group,
        cluster: &req.cluster,
    };
    missing
        .iter()
        .filter_map(|m| {
            let listed = crate::resources::find_named(pools, &m.pool)?;
            Some(super::cluster_ops::label_pool(t, &m.pool, listed, m.label, crate::domain::api::AKS_MANAGED_GPU))
        })
        .collect()
}

/// The install a dry run shows without credentials: from the flags alone. The driver mode is
/// `--driver-mode` (else the AKS driver); the GPU pools, their taints and whether the cluster
/// needs a token are read at run time and shown as placeholders, the values file's note worded
/// by `word` (the front end's words for the settings it names).
pub fn from_flags(req: &InstallRequest, word: impl Fn(&Words) -> String) -> Install {
    let pools = match &req.pool {
        Some(p) => vec![p.clone()],
        None => vec![read_at_run_time("the cluster's GPU pools")],
    };
    let read = match req.driver_mode {
        Some(_) => Words::new(
            "a toleration for every taint of the GPU pools, whose gpuProfile.driver must match {0}",
            &[Setting::DriverMode],
        ),
        None => Words::plain(
            "a toleration for every taint of the GPU pools, and the driver mode their gpuProfile.driver sets",
        ),
    };
    let note = format!("# {}\n", read_at_run_time(&word(&read)));
    let spec = spec_for(req, req.driver_mode.unwrap_or(DriverMode::Operator), &[]);
    let mut values = op::values(&spec);
    if req.driver_mode.is_none() {
        // The driver mode is the pools' (gpuProfile.driver), read at run time: never guessed.
        let mode = read_at_run_time(
            "false when the GPU pools' gpuProfile.driver is Install (the AKS driver), left out when it is None",
        );
        let runtime = read_at_run_time("nvidia-container-runtime with the AKS driver, left out otherwise");
        op::set_driver_keys(&mut values, &Value::String(mode), &Value::String(runtime));
    }
    install(req, spec, values, (pools, None), Some(&note))
}

fn install(
    req: &InstallRequest,
    spec: OperatorSpec,
    values: Value,
    (pools, needs_cluster_token): (Vec<String>, Option<bool>),
    note: Option<&str>,
) -> Install {
    let yaml = serde_yaml_ng::to_string(&values).ok().or_else(|| serde_json::to_string_pretty(&values).ok());
    let values_yaml = format!("{}{}", note.unwrap_or_default(), yaml.unwrap_or_default());
    let command = op::install_command(&spec, "values.yaml");
    let context = super::zip::stored(&[("values.yaml", values_yaml.as_bytes())]);
    Install {
        pools,
        spec,
        values_yaml,
        command,
        context,
        needs_cluster_token,
        cluster_path: cluster_path(&req.subscription, &req.resource_group, &req.cluster),
        label_updates: Vec::new(),
        others: Vec::new(),
    }
}

/// The reads an install decides from: the cluster and its pools.
pub fn reads(sub: &str, rg: &str, cluster: &str) -> Plan {
    let path = cluster_path(sub, rg, cluster);
    Plan {
        steps: vec![
            super::read_cluster(&path, "cluster: runCommand allowed, Entra ID, pools"),
            super::read_pools(&path, "GPU pools: driver mode and taints"),
        ],
    }
}

/// The read-only runCommand that prints the GPU Operator's Helm release (`helm list`, `helm get
/// values`): every install reads it before its upgrade, so the values it sends keep what the
/// release already holds (see [`merge`]).
pub fn release_step(i: &Install) -> Step {
    Step::write(
        StepKind::ReadRelease,
        "POST",
        runcommand::url(&i.cluster_path),
        Some(runcommand::body_for_display(&super::gitops::release::check_command(), None, i.needs_cluster_token)),
        "read the GPU Operator's Helm release and its values before upgrading (changes nothing)",
    )
    .then_follows(super::Follow::CommandResult)
}

/// The `helm upgrade --install` runCommand of `i` (its values attached as context).
pub fn install_step(i: &Install) -> Step {
    Step::write(
        StepKind::InstallOperator,
        "POST",
        runcommand::url(&i.cluster_path),
        Some(runcommand::body_for_display(&i.command, Some(&i.context), i.needs_cluster_token)),
        "helm upgrade --install the GPU Operator (values.yaml attached as context: these values, merged with the release's own)",
    )
    .then_follows(super::Follow::CommandResult)
}

/// The steps a real install sends (reads, the release read, then the runCommand POSTs); tokens
/// are never shown.
pub fn plan(req: &InstallRequest, i: &Install) -> Plan {
    let mut steps = reads(&req.subscription, &req.resource_group, &req.cluster).steps;
    steps.extend(i.label_updates.iter().flat_map(|p| p.steps.iter().cloned()));
    steps.push(release_step(i));
    steps.push(install_step(i));
    for (cmd, why) in [
        (op::validator_check_command(), "check the nvidia-cuda-validator pods (repeated until ready)"),
        (
            op::allocatable_check_command(&i.pools),
            "check allocatable nvidia.com/gpu on every GPU node (repeated until ready)",
        ),
    ] {
        steps.push(
            Step::write(
                StepKind::CheckOperator,
                "POST",
                runcommand::url(&i.cluster_path),
                Some(runcommand::body_for_display(&cmd, None, i.needs_cluster_token)),
                why,
            )
            .then_follows(super::Follow::CommandResult)
            .repeated("until the validator pods succeed and every GPU node reports allocatable GPUs"),
        );
    }
    Plan { steps }
}

/// The values keys aksgpu decides from the pools every time: the release's own are replaced.
const OWNED: &[&[&str]] = &[&["driver", "enabled"], &["toolkit", "enabled"], &["operator", "runtimeClass"]];
/// The toleration lists: aksgpu's entries first, then the release's others (never dropped).
const TOLERATIONS: &[&[&str]] = &[&["daemonsets", "tolerations"], &["node-feature-discovery", "worker", "tolerations"]];

/// The install `i` as it upgrades a release whose user-supplied values are `current` (`null`:
/// none, or no release): aksgpu's values on top of the release's, so that nothing one pool
/// needs is silently removed for another. The driver keys follow the pools (see [`resolve`]);
/// tolerations are the union; the MIG strategy and the time-slicing configuration the release
/// has are kept unless the request sets them (`--time-slicing 1` removes aksgpu's sharing
/// configuration); every other key of the release is kept as it is. Also returns the change,
/// one line per values key (empty: the values stay the same).
pub fn merge(i: &Install, current: &Value) -> (Install, Vec<String>) {
    let ours = op::values(&i.spec);
    let mut merged = if current.is_object() { current.clone() } else { Value::Object(Default::default()) };
    for path in OWNED {
        remove_path(&mut merged, path);
    }
    if i.spec.time_slicing.is_some_and(|n| n < 2)
        && OperatorValues::read(&merged).is_ok_and(|v| v.device_plugin_config() == Some(op::SHARING_CONFIG_MAP))
    {
        remove_path(&mut merged, &["devicePlugin", "config"]);
    }
    let mut overlay = ours;
    for path in TOLERATIONS {
        let have = get_path(current, path).and_then(Value::as_array).cloned().unwrap_or_default();
        if let Some(Value::Array(list)) = get_path_mut(&mut overlay, path) {
            for t in have {
                if !list.contains(&t) {
                    list.push(t);
                }
            }
        }
    }
    deep_merge(&mut merged, overlay);
    let diff = values_diff(current, &merged);
    let yaml = serde_yaml_ng::to_string(&merged).ok().or_else(|| serde_json::to_string_pretty(&merged).ok());
    let values_yaml = yaml.unwrap_or_default();
    let context = super::zip::stored(&[("values.yaml", values_yaml.as_bytes())]);
    (Install { values_yaml, context, ..i.clone() }, diff)
}

/// The release is cluster-wide: a MIG strategy or time-slicing change asked for the target
/// pools changes the other GPU pools too (a MIG pool's pods request `nvidia.com/mig-<slice>`
/// under `mixed`, `nvidia.com/gpu` under `single`; a time-slicing config changes how many
/// `nvidia.com/gpu` every node advertises). Such a change to a value the release already has is
/// refused while other pools it would change exist, naming them; asking for it without naming
/// one pool (every GPU pool then a target) changes it for all, as asked.
pub fn others_refusal(i: &Install, current: &Value) -> Option<OperatorRefusal> {
    let (merged, _) = merge(i, current);
    let after: Value = serde_yaml_ng::from_str(&merged.values_yaml).unwrap_or(Value::Null);
    let changed = |path: &[&str]| {
        let before = get_path(current, path);
        before.is_some() && !before.zip(get_path(&after, path)).is_some_and(|(a, b)| super::gitops::release::same(a, b))
    };
    // A release without `mig.strategy` runs the chart's default, `single` (NVIDIA
    // gpu-operator, deployments/gpu-operator/values.yaml).
    let strategy = |v: &Value| get_path(v, &["mig", "strategy"]).and_then(Value::as_str).unwrap_or("single").to_owned();
    let mig = strategy(current) != strategy(&after);
    let sharing = changed(&["devicePlugin", "config"]);
    let hit: Vec<&str> =
        i.others.iter().filter(|(_, has_mig)| sharing || (mig && *has_mig)).map(|(n, _)| n.as_str()).collect();
    if hit.is_empty() {
        return None;
    }
    let what = match (mig, sharing) {
        (true, true) => "the MIG strategy and the time slicing",
        (true, false) => "the MIG strategy",
        _ => "the time slicing",
    };
    Some(refuse(
        format!(
            "the GPU Operator's release is cluster-wide: changing {what} it has for pool(s) {} would change it for pool(s) {} too (their pods would request another resource, or their nodes advertise another GPU count)",
            i.pools.join(", "),
            hit.join(", ")
        ),
        Some(Words::plain("keep the release's value (leave the setting out: the install keeps it), or change it for every GPU pool at once by installing without naming a pool")),
    ))
}

fn get_path<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, k| v.as_object()?.get(*k))
}

fn get_path_mut<'a>(v: &'a mut Value, path: &[&str]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, k| v.as_object_mut()?.get_mut(*k))
}

/// Remove `path`, and the objects it leaves empty.
fn remove_path(v: &mut Value, path: &[&str]) {
    let Some((last, parents)) = path.split_last() else { return };
    if let Some(Value::Object(m)) = get_path_mut(v, parents) {
        m.remove(*last);
        if m.is_empty() && !parents.is_empty() {
            remove_path(v, parents);
        }
    }
}

/// `over` on top of `base`: objects merge key by key, anything else replaces.
fn deep_merge(base: &mut Value, over: Value) {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            for (k, v) in o {
                match b.get_mut(&k) {
                    Some(slot) if slot.is_object() && v.is_object() => deep_merge(slot, v),
                    _ => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (b, o) => *b = o,
    }
}

/// Every leaf of `v` by its dotted path (lists as one value: tolerations by their keys).
fn leaves(v: &Value, prefix: &str, out: &mut std::collections::BTreeMap<String, String>) {
    match v {
        Value::Array(items) => {
            let shown: Vec<String> = items
                .iter()
                .map(|x| {
                    let s = |k: &str| x.get(k).and_then(Value::as_str);
                    match (s("key"), s("value"), s("effect")) {
                        (Some(k), Some(v), Some(e)) => format!("{k}={v}:{e}"),
                        (Some(k), None, Some(e)) => format!("{k}:{e}"),
                        _ => x.to_string(),
                    }
                })
                .collect();
            out.insert(prefix.to_owned(), format!("[{}]", shown.join(", ")));
        }
        Value::Object(m) => {
            for (k, x) in m {
                let p = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                leaves(x, &p, out);
            }
        }
        Value::Null if prefix.is_empty() => {}
        other => {
            out.insert(prefix.to_owned(), other.to_string());
        }
    }
}

/// The change from `before` to `after`, one line per key: `+ key: new`, `- key: old`,
/// `~ key: old → new`.
pub fn values_diff(before: &Value, after: &Value) -> Vec<String> {
    let (mut a, mut b) = (Default::default(), Default::default());
    leaves(before, "", &mut a);
    leaves(after, "", &mut b);
    let mut out = Vec::new();
    for (k, old) in &a {
        match b.get(k) {
            None => out.push(format!("- {k}: {old}")),
            Some(new) if new != old => {
                let same = serde_json::from_str::<Value>(old)
                    .ok()
                    .zip(serde_json::from_str::<Value>(new).ok())
                    .is_some_and(|(x, y)| super::gitops::release::same(&x, &y));
                if !same {
                    out.push(format!("~ {k}: {old} → {new}"));
                }
            }
            Some(_) => {}
        }
    }
    for (k, new) in &b {
        if !a.contains_key(k) {
            out.push(format!("+ {k}: {new}"));
        }
    }
    out
}

/// Whether a new pool may need [`NO_DRIVER_LABEL`]: an NVIDIA Linux pool with the AKS driver
/// (not AKS-managed). Its create then also lists the cluster's pools (whether the pool carries
/// the label already does not change the plan, so a plan and its run list the same reads).
pub fn may_need_driver_label(spec: &super::agent_pool::PoolSpec) -> bool {
    spec.gpu_driver != Some("None")
        && !spec.managed_gpu()
        && spec.size.gpu_vendor == Vendor::Nvidia
        && spec.os == crate::domain::Os::Linux
}

/// An AKS-driver NVIDIA pool created in a cluster where some NVIDIA Linux pool has no AKS
/// driver (`gpuProfile.driver: None`: the GPU Operator installs its driver there) gets
/// [`NO_DRIVER_LABEL`], so the one cluster-wide operator never puts a second driver on its
/// nodes (rule `operator-mixed-driver-labels`). Returns the labelled spec and a note naming the
/// pools and the rule; `None` when nothing is to be added.
pub fn with_driver_label(
    catalog: &Catalog,
    spec: &super::agent_pool::PoolSpec,
    pools: &[AsRead<AgentPool>],
) -> Option<(super::agent_pool::PoolSpec, String)> {
    if !may_need_driver_label(spec) || spec.labels.contains_key(NO_DRIVER_LABEL.0) {
        return None;
    }
    let without: Vec<String> = pools
        .iter()
        .map(|p| &p.item)
        .filter(|p| p.name.as_deref().is_some_and(|n| !n.eq_ignore_ascii_case(&spec.name)))
        .filter(|p| p.driver() == PoolDriver::None && operator_runs_on(catalog, p))
        .filter(|p| p.properties.vm_size.as_deref().and_then(|v| catalog.size(v)).is_some())
        .filter_map(|p| p.name.clone())
        .collect();
    if without.is_empty() {
        return None;
    }
    let mut labelled = spec.clone();
    labelled.labels.insert(NO_DRIVER_LABEL.0.to_owned(), NO_DRIVER_LABEL.1.to_owned());
    let rule = catalog.rule("operator-mixed-driver-labels").map(|r| format!(" (rule {}, source {})", r.id, r.source));
    let note = format!(
        "label {}={}: pool(s) {} have no AKS driver, so the GPU Operator's driver runs in this cluster; the label keeps it off this pool, which has the AKS driver{}",
        NO_DRIVER_LABEL.0,
        NO_DRIVER_LABEL.1,
        without.join(", "),
        rule.unwrap_or_default()
    );
    Some((labelled, note))
}
