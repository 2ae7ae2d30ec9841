//! Installing the NVIDIA GPU Operator through AKS runCommand.
//!
//! Reads the cluster and its pools, picks the driver mode from the pool (`gpuProfile.driver:
//! None` → the operator installs the driver; otherwise the AKS driver stays and the operator's
//! driver and toolkit are off), tolerates every taint the GPU pools carry, and runs an
//! idempotent `helm upgrade --install` with the values file attached as the command context.
//! It does not hold one command open with `helm --wait`: short follow-up commands check the
//! CUDA validator pods and that every GPU node reports allocatable `nvidia.com/gpu`.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::runcommand::{self, CommandResult};
use crate::arm::auth::Secret;
use crate::arm::{api, ArmClient, ArmError};
use crate::catalog::{Catalog, Vendor};
use crate::plan::operator::{self as op, DriverMode, MigStrategy, OperatorSpec};
use crate::plan::{cluster_path, with_api, Plan, Step, StepKind};

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
    pub needs_cluster_token: bool,
    pub cluster_path: String,
}

fn pool_driver(pool: &Value) -> &str {
    pool.pointer("/properties/gpuProfile/driver").and_then(Value::as_str).unwrap_or("Install")
}

/// Decide everything from the cluster and its pools (pure).
pub fn resolve(catalog: &Catalog, req: &InstallRequest, cluster: &Value, pools: &[Value]) -> Result<Install, Refusal> {
    if cluster.pointer("/properties/apiServerAccessProfile/disableRunCommand").and_then(Value::as_bool) == Some(true) {
        let spec = OperatorSpec {
            driver_mode: req.driver_mode.unwrap_or(DriverMode::Aks),
            chart_version: req.chart_version.clone().unwrap_or_else(|| op::DEFAULT_CHART_VERSION.to_owned()),
            mig_strategy: req.mig_strategy,
            time_slicing: req.time_slicing,
            tolerations: op::tolerations_for(&[]),
        };
        return Err(refuse(
            format!("runCommand is disabled on cluster {} (apiServerAccessProfile.disableRunCommand)", req.cluster),
            Some(format!(
                "run Helm yourself with cluster access; save the values from `aksgpu install-operator … --dry-run` as gpu-operator-values.yaml, then: {}",
                op::helm_command_line(&spec)
            )),
        ));
    }
    let gpu_pools: Vec<&Value> = pools
        .iter()
        .filter(|p| {
            p.pointer("/properties/vmSize").and_then(Value::as_str).and_then(|s| catalog.size(s)).is_some()
                || req.pool.as_deref().is_some_and(|n| p["name"].as_str() == Some(n))
        })
        .collect();
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
        None => gpu_pools.clone(),
    };
    if targets.is_empty() {
        return Err(refuse(
            format!("cluster {} has no GPU node pool", req.cluster),
            Some("create one first: aksgpu create-pool … (or name it with --pool)".into()),
        ));
    }
    let mut modes = Vec::new();
    for p in &targets {
        let name = p["name"].as_str().unwrap_or("?");
        if p.pointer("/properties/osType").and_then(Value::as_str).is_some_and(|o| o.eq_ignore_ascii_case("Windows")) {
            return Err(refuse(
                format!("pool {name} runs Windows; the NVIDIA GPU Operator does not support Windows nodes"),
                Some("Windows GPU pools use the AKS-installed driver and the DirectX device plugin".into()),
            ));
        }
        if let Some(size) = p.pointer("/properties/vmSize").and_then(Value::as_str).and_then(|s| catalog.size(s)) {
            if size.gpu_vendor == Vendor::Amd {
                return Err(refuse(
                    format!(
                        "pool {name} has AMD GPUs ({}); the NVIDIA GPU Operator is for NVIDIA GPUs",
                        size.gpu_model
                    ),
                    Some("install the AMD GPU Operator instead".into()),
                ));
            }
        }
        let pool_mode =
            if pool_driver(p).eq_ignore_ascii_case("None") { DriverMode::Operator } else { DriverMode::Aks };
        if let Some(wanted) = req.driver_mode {
            if wanted != pool_mode {
                return Err(refuse(
                    match wanted {
                        DriverMode::Operator => format!(
                            "--driver-mode operator conflicts with pool {name}: AKS already installs the driver there (gpuProfile.driver Install); two drivers would fight"
                        ),
                        DriverMode::Aks => format!(
                            "--driver-mode aks conflicts with pool {name}: it was created with gpuProfile.driver None, so no driver is installed"
                        ),
                    },
                    Some("drop --driver-mode to follow the pool, or create the pool with the matching --gpu-driver".into()),
                ));
            }
        }
        if !modes.contains(&pool_mode) {
            modes.push(pool_mode);
        }
    }
    if modes.len() > 1 {
        return Err(refuse(
            "the GPU pools disagree: some have the AKS driver and some have none; one operator install cannot serve both",
            Some("name one pool with --pool, or recreate the pools with the same --gpu-driver".into()),
        ));
    }
    let taints: Vec<String> = gpu_pools
        .iter()
        .chain(targets.iter())
        .flat_map(|p| p.pointer("/properties/nodeTaints").and_then(Value::as_array).cloned().unwrap_or_default())
        .filter_map(|t| t.as_str().map(str::to_owned))
        .collect();
    let spec = OperatorSpec {
        driver_mode: modes[0],
        chart_version: req.chart_version.clone().unwrap_or_else(|| op::DEFAULT_CHART_VERSION.to_owned()),
        mig_strategy: req.mig_strategy,
        time_slicing: req.time_slicing,
        tolerations: op::tolerations_for(&taints),
    };
    let values_yaml = op::values_yaml(&spec);
    let command = op::install_command(&spec, "values.yaml");
    let context = crate::plan::zip::stored(&[("values.yaml", values_yaml.as_bytes())]);
    let needs_cluster_token = cluster.pointer("/properties/aadProfile/managed").and_then(Value::as_bool) == Some(true);
    Ok(Install {
        pools: targets.iter().filter_map(|p| p["name"].as_str().map(str::to_owned)).collect(),
        spec,
        values_yaml,
        command,
        context,
        needs_cluster_token,
        cluster_path: cluster_path(&req.subscription, &req.resource_group, &req.cluster),
    })
}

/// The steps a real install sends (reads, then the runCommand POSTs); tokens are never shown.
pub fn plan(i: &Install) -> Plan {
    let mut steps = vec![
        Step::read(
            StepKind::ReadCluster,
            with_api(&i.cluster_path, api::AKS),
            "cluster: runCommand allowed, Entra ID, pools",
        ),
        Step::read(
            StepKind::ReadPools,
            with_api(&format!("{}/agentPools", i.cluster_path), api::AKS),
            "GPU pools: driver mode and taints",
        ),
        Step::write(
            StepKind::InstallOperator,
            "POST",
            runcommand::url(&i.cluster_path),
            Some(runcommand::body_for_display(&i.command, Some(&i.context), i.needs_cluster_token)),
            "helm upgrade --install the GPU Operator (values.yaml attached as context)",
        ),
    ];
    for (cmd, why) in [
        (op::validator_check_command(), "check the nvidia-cuda-validator pods (repeated until ready)"),
        (
            op::allocatable_check_command(&i.pools),
            "check allocatable nvidia.com/gpu on every GPU node (repeated until ready)",
        ),
    ] {
        steps.push(Step::write(
            StepKind::CheckOperator,
            "POST",
            runcommand::url(&i.cluster_path),
            Some(runcommand::body_for_display(&cmd, None, i.needs_cluster_token)),
            why,
        ));
    }
    Plan { steps }
}

/// The final state after install.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    pub install: CommandResult,
    pub validator_pods: Vec<(String, String)>,
    pub gpu_nodes: Vec<(String, u32)>,
}

/// Why the operator is not ready yet (none when ready).
pub fn not_ready(validators: &[(String, String)], nodes: &[(String, u32)]) -> Vec<String> {
    let mut out = Vec::new();
    if validators.is_empty() {
        out.push("no nvidia-cuda-validator pod yet".to_owned());
    }
    for (pod, phase) in validators {
        if !phase.eq_ignore_ascii_case("Succeeded") && !phase.eq_ignore_ascii_case("Completed") {
            out.push(format!("validator pod {pod} is {phase}"));
        }
    }
    if nodes.is_empty() {
        out.push("no GPU node is up (a pool at 0 nodes cannot be validated)".to_owned());
    }
    for (node, gpus) in nodes {
        if *gpus == 0 {
            out.push(format!("node {node} reports no allocatable nvidia.com/gpu"));
        }
    }
    out
}

/// Errors of the install.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error(transparent)]
    Arm(#[from] ArmError),
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The in-cluster command failed.
    #[error("{what} failed in the cluster ({}){}", result.describe(), result.reason.as_ref().map(|r| format!(": {r}")).unwrap_or_default())]
    Command { what: String, result: CommandResult },
    /// Installed, but not ready before the timeout.
    #[error("the GPU Operator is installed but not ready after {}: {}", crate::arm::error::human(*waited), missing.join("; "))]
    NotReady { waited: Duration, missing: Vec<String> },
}

/// Read the cluster and its pools.
pub async fn read(client: &ArmClient, req: &InstallRequest) -> Result<(Value, Vec<Value>), ArmError> {
    let path = cluster_path(&req.subscription, &req.resource_group, &req.cluster);
    let (cluster_url, pools_url) = (with_api(&path, api::AKS), with_api(&format!("{path}/agentPools"), api::AKS));
    let (cluster, pools) = tokio::join!(client.get_json::<Value>(&cluster_url), client.list(&pools_url));
    Ok((cluster?, pools?))
}

/// Run the install and wait for readiness.
pub async fn run(
    client: &ArmClient,
    i: &Install,
    cluster_token: Option<&Secret>,
    timeout: Duration,
    progress: &(dyn Fn(&str) + Sync),
    started_writes: &super::Progress,
) -> Result<Report, InstallError> {
    let started = Instant::now();
    let deadline = started + timeout;
    progress("installing the GPU Operator (helm upgrade --install)");
    let install = runcommand::run(
        client,
        &i.cluster_path,
        &i.command,
        Some(&i.context),
        cluster_token,
        deadline,
        progress,
        started_writes,
    )
    .await?;
    if !install.ok() {
        return Err(InstallError::Command { what: "helm upgrade --install".into(), result: install });
    }
    loop {
        progress("checking the CUDA validator and allocatable GPUs");
        let v = runcommand::run(
            client,
            &i.cluster_path,
            &op::validator_check_command(),
            None,
            cluster_token,
            deadline,
            progress,
            started_writes,
        )
        .await?;
        if !v.ok() {
            return Err(InstallError::Command { what: "the validator check".into(), result: v });
        }
        let n = runcommand::run(
            client,
            &i.cluster_path,
            &op::allocatable_check_command(&i.pools),
            None,
            cluster_token,
            deadline,
            progress,
            started_writes,
        )
        .await?;
        if !n.ok() {
            return Err(InstallError::Command { what: "the allocatable check".into(), result: n });
        }
        let validators = op::parse_validator_output(&v.logs);
        let nodes = op::parse_allocatable_output(&n.logs);
        let missing = not_ready(&validators, &nodes);
        if missing.is_empty() {
            return Ok(Report { install, validator_pods: validators, gpu_nodes: nodes });
        }
        if Instant::now() + Duration::from_secs(20) > deadline {
            return Err(InstallError::NotReady { waited: started.elapsed(), missing });
        }
        progress(&format!("not ready: {}", missing.join("; ")));
        client.sleeper.sleep(Duration::from_secs(20)).await;
    }
}
