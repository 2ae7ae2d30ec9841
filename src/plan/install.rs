//! `install-operator`'s decisions and requests (pure): from the cluster and its pools, the
//! driver mode, the tolerations and the Helm values; then the runCommand requests that install
//! the GPU Operator and check it. Without credentials (a dry run) the same plan is built from the
//! flags, with what would be read shown as placeholders.

use serde_json::Value;

use super::operator::{self as op, DriverMode, MigStrategy, OperatorSpec};
use super::{cluster_path, read_at_run_time, runcommand, Plan, Step, StepKind};
use crate::catalog::{Catalog, Vendor};

/// Why a pool cannot be served by the NVIDIA GPU Operator (the rules `create-pool
/// --install-operator` and a GpuConfig with `operator.install` both enforce).
#[derive(Debug, Clone, PartialEq)]
pub enum OperatorPoolProblem {
    /// The operator has no Windows support.
    Windows,
    /// The operator is for NVIDIA GPUs.
    Amd,
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
}

/// A refusal with its reason and the fix.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    pub message: String,
    pub hint: Option<String>,
}

fn refuse(message: impl Into<String>, hint: impl Into<Option<String>>) -> Refusal {
    Refusal { message: message.into(), hint: hint.into() }
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
}

fn pool_driver(pool: &Value) -> &str {
    pool.pointer("/properties/gpuProfile/driver").and_then(Value::as_str).unwrap_or("Install")
}

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

fn pool_name(p: &Value) -> &str {
    p["name"].as_str().unwrap_or("?")
}

/// The pools the install is for: the one `--pool` names, else every GPU pool.
fn targets<'a>(catalog: &Catalog, req: &InstallRequest, pools: &'a [Value]) -> Result<Vec<&'a Value>, Refusal> {
    let targets: Vec<&Value> = match &req.pool {
        Some(name) => {
            let p = pools.iter().find(|p| p["name"].as_str() == Some(name.as_str())).ok_or_else(|| {
                refuse(
                    format!("pool {name} does not exist in cluster {}", req.cluster),
                    Some(format!(
                        "existing pools: {}",
                        pools.iter().filter_map(|p| p["name"].as_str()).collect::<Vec<_>>().join(", ")
                    )),
                )
            })?;
            vec![p]
        }
        None => gpu_pools(catalog, req, pools),
    };
    if targets.is_empty() {
        return Err(refuse(
            format!("cluster {} has no GPU node pool", req.cluster),
            Some("create one first: aksgpu create-pool … (or name it with --pool)".into()),
        ));
    }
    Ok(targets)
}

/// The pools with a catalog GPU size (and the one `--pool` names).
fn gpu_pools<'a>(catalog: &Catalog, req: &InstallRequest, pools: &'a [Value]) -> Vec<&'a Value> {
    pools
        .iter()
        .filter(|p| {
            p.pointer("/properties/vmSize").and_then(Value::as_str).and_then(|s| catalog.size(s)).is_some()
                || req.pool.as_deref().is_some_and(|n| p["name"].as_str() == Some(n))
        })
        .collect()
}

/// The driver mode one target pool needs; refused for Windows, AMD, or a `--driver-mode` that
/// contradicts the pool.
fn pool_mode(catalog: &Catalog, req: &InstallRequest, p: &Value) -> Result<DriverMode, Refusal> {
    let name = pool_name(p);
    if p.pointer("/properties/osType").and_then(Value::as_str).is_some_and(|o| o.eq_ignore_ascii_case("Windows")) {
        return Err(refuse(
            format!("pool {name} runs Windows; the NVIDIA GPU Operator does not support Windows nodes"),
            Some("Windows GPU pools use the AKS-installed driver and the DirectX device plugin".into()),
        ));
    }
    if let Some(size) = p.pointer("/properties/vmSize").and_then(Value::as_str).and_then(|s| catalog.size(s)) {
        if size.gpu_vendor == Vendor::Amd {
            return Err(refuse(
                format!("pool {name} has AMD GPUs ({}); the NVIDIA GPU Operator is for NVIDIA GPUs", size.gpu_model),
                Some("install the AMD GPU Operator instead".into()),
            ));
        }
    }
    let mode = if pool_driver(p).eq_ignore_ascii_case("None") { DriverMode::Operator } else { DriverMode::Aks };
    match req.driver_mode {
        Some(wanted) if wanted != mode => Err(refuse(
            match wanted {
                DriverMode::Operator => format!(
                    "--driver-mode operator conflicts with pool {name}: AKS already installs the driver there (gpuProfile.driver Install); two drivers would fight"
                ),
                DriverMode::Aks => format!(
                    "--driver-mode aks conflicts with pool {name}: it was created with gpuProfile.driver None, so no driver is installed"
                ),
            },
            Some("drop --driver-mode to follow the pool, or create the pool with the matching --gpu-driver".into()),
        )),
        _ => Ok(mode),
    }
}

/// Decide everything from the cluster and its pools (pure).
pub fn resolve(catalog: &Catalog, req: &InstallRequest, cluster: &Value, pools: &[Value]) -> Result<Install, Refusal> {
    if cluster.pointer("/properties/apiServerAccessProfile/disableRunCommand").and_then(Value::as_bool) == Some(true) {
        let spec = spec_for(req, req.driver_mode.unwrap_or(DriverMode::Aks), &[]);
        return Err(refuse(
            format!("runCommand is disabled on cluster {} (apiServerAccessProfile.disableRunCommand)", req.cluster),
            Some(format!(
                "run Helm yourself with cluster access; save the values from `aksgpu install-operator … --dry-run` as gpu-operator-values.yaml, then: {}",
                op::helm_command_line(&spec)
            )),
        ));
    }
    let targets = targets(catalog, req, pools)?;
    let mut modes = Vec::new();
    for p in &targets {
        let mode = pool_mode(catalog, req, p)?;
        if !modes.contains(&mode) {
            modes.push(mode);
        }
    }
    let [mode] = modes[..] else {
        return Err(refuse(
            "the GPU pools disagree: some have the AKS driver and some have none; one operator install cannot serve both",
            Some("name one pool with --pool, or recreate the pools with the same --gpu-driver".into()),
        ));
    };
    let taints: Vec<String> = gpu_pools(catalog, req, pools)
        .iter()
        .chain(targets.iter())
        .flat_map(|p| p.pointer("/properties/nodeTaints").and_then(Value::as_array).cloned().unwrap_or_default())
        .filter_map(|t| t.as_str().map(str::to_owned))
        .collect();
    let needs_cluster_token = cluster.pointer("/properties/aadProfile/managed").and_then(Value::as_bool) == Some(true);
    let names = targets.iter().filter_map(|p| p["name"].as_str().map(str::to_owned)).collect();
    let spec = spec_for(req, mode, &taints);
    Ok(install(req, spec.clone(), op::values(&spec), (names, Some(needs_cluster_token)), None))
}

/// The install a dry run shows without credentials: from the flags alone. The driver mode is
/// `--driver-mode` (else the AKS driver); the GPU pools, their taints and whether the cluster
/// needs a token are read at run time and shown as placeholders.
pub fn from_flags(req: &InstallRequest) -> Install {
    let pools = match &req.pool {
        Some(p) => vec![p.clone()],
        None => vec![read_at_run_time("the cluster's GPU pools")],
    };
    let read = match req.driver_mode {
        Some(_) => "a toleration for every taint of the GPU pools, whose gpuProfile.driver must match --driver-mode",
        None => "a toleration for every taint of the GPU pools, and the driver mode their gpuProfile.driver sets",
    };
    let note = format!("# {}\n", read_at_run_time(read));
    let spec = spec_for(req, req.driver_mode.unwrap_or(DriverMode::Operator), &[]);
    let mut values = op::values(&spec);
    if req.driver_mode.is_none() {
        // The driver mode is the pools' (gpuProfile.driver), read at run time: never guessed.
        let mode = read_at_run_time(
            "false when the GPU pools' gpuProfile.driver is Install (the AKS driver), left out when it is None",
        );
        let runtime = read_at_run_time("nvidia-container-runtime with the AKS driver, left out otherwise");
        values["driver"] = serde_json::json!({"enabled": mode});
        values["toolkit"] = serde_json::json!({"enabled": mode});
        values["operator"] = serde_json::json!({"runtimeClass": runtime});
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

/// The steps a real install sends (reads, then the runCommand POSTs); tokens are never shown.
pub fn plan(req: &InstallRequest, i: &Install) -> Plan {
    let mut steps = reads(&req.subscription, &req.resource_group, &req.cluster).steps;
    steps.push(
        Step::write(
            StepKind::InstallOperator,
            "POST",
            runcommand::url(&i.cluster_path),
            Some(runcommand::body_for_display(&i.command, Some(&i.context), i.needs_cluster_token)),
            "helm upgrade --install the GPU Operator (values.yaml attached as context)",
        )
        .then_follows(super::Follow::CommandResult),
    );
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
