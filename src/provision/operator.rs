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

use crate::resources::ManagedCluster;

use super::runcommand::{self, CommandResult};
use crate::arm::auth::Secret;
use crate::arm::{ArmClient, ArmError};
use crate::plan::gitops::release::{self, Release};
use crate::plan::operator as op;
use crate::plan::{Plan, Step, StepKind};
use crate::resources::{AgentPool, AsRead};

pub use crate::plan::install::{from_flags, plan, resolve, Install, InstallRequest, OperatorRefusal};

/// The final state after install.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    /// The release before the upgrade: `absent`, or its chart and status.
    pub release: String,
    /// What the upgrade changed in the release's values, one line per key (`+`, `-`, `~`).
    pub values_diff: Vec<String>,
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
    /// Refused: its words name settings by id, for the front end to word.
    #[error("the GPU Operator install is refused")]
    Refused(OperatorRefusal),
    /// The in-cluster command failed.
    #[error("{what} failed in the cluster ({}){}", result.describe(), result.reason.as_ref().map(|r| format!(": {r}")).unwrap_or_default())]
    Command { what: String, result: CommandResult },
    /// Installed, but not ready before the timeout.
    #[error("the GPU Operator is installed but not ready after {}: {}", crate::arm::error::human(*waited), missing.join("; "))]
    NotReady { waited: Duration, missing: Vec<String> },
}

impl From<OperatorRefusal> for InstallError {
    fn from(r: OperatorRefusal) -> Self {
        InstallError::Refused(r)
    }
}

/// Read the cluster and its pools (through the run's facts: not again when read already).
pub async fn read(
    client: &ArmClient,
    facts: &super::facts::Store,
    req: &InstallRequest,
) -> Result<(AsRead<ManagedCluster>, Vec<AsRead<AgentPool>>), ArmError> {
    super::read_cluster_and_pools(client, facts, &req.subscription, &req.resource_group, &req.cluster).await
}

/// A failed pool label update, as the install's error.
fn label_error(e: super::cluster_ops::OpsError) -> InstallError {
    use super::cluster_ops::OpsError;
    match e {
        OpsError::Arm(a) => InstallError::Arm(a),
        OpsError::Refused(m) => InstallError::Refused(OperatorRefusal { message: m.into(), hint: None }),
        OpsError::Missing(m) => InstallError::Refused(OperatorRefusal { message: m.to_string().into(), hint: None }),
        OpsError::Change(c) => InstallError::Refused(OperatorRefusal {
            message: c.words(|s| s.file_key().unwrap_or(s.long()).to_owned()).into(),
            hint: None,
        }),
    }
}

/// Run the install's runCommand steps (`plan`, built from `i`) and wait for readiness.
pub async fn run(
    client: &ArmClient,
    (i, plan): (&Install, &Plan),
    cluster_token: Option<&Secret>,
    timeout: Duration,
    progress: &(dyn Fn(&str) + Sync),
    started_writes: &super::Progress,
) -> Result<Report, InstallError> {
    let started = Instant::now();
    let deadline = started + timeout;
    // One command in the cluster; one that fails is an `InstallError::Command` naming `what`.
    let in_cluster = async |step: &Step, what: &str| {
        let result =
            runcommand::run(client, (&i.cluster_path, step), cluster_token, deadline, progress, started_writes).await?;
        if result.ok() {
            Ok(result)
        } else {
            Err(InstallError::Command { what: what.into(), result })
        }
    };
    for update in &i.label_updates {
        let what = update.steps.first().map_or_else(|| "label a pool".to_owned(), |s| s.purpose.clone());
        let resource =
            update.steps.first().map(|s| s.url.split('?').next().unwrap_or_default().to_owned()).unwrap_or_default();
        let left = deadline.saturating_duration_since(Instant::now());
        super::cluster_ops::update_pool(client, (update, &resource, what), left, progress, started_writes)
            .await
            .map_err(label_error)?;
    }
    progress("reading the GPU Operator's Helm release");
    let read = in_cluster(super::step(plan, StepKind::ReadRelease)?, "the Helm release read").await?;
    let (release, current) = match release::parse(&read.logs) {
        Release::Absent => ("absent".to_owned(), Value::Null),
        Release::Present { chart, status, values } => (format!("{chart} ({status})"), values),
        Release::Unread(why) => {
            return Err(OperatorRefusal {
                message: format!("the GPU Operator's Helm release could not be read ({why}); refusing to upgrade it without knowing its values").into(),
                hint: Some("check `helm list -n gpu-operator` in the cluster, then run the same command again".into()),
            }
            .into())
        }
    };
    if let Some(r) = crate::plan::install::others_refusal(i, &current) {
        return Err(r.into());
    }
    let (merged, values_diff) = crate::plan::install::merge(i, &current);
    progress("installing the GPU Operator (helm upgrade --install)");
    let step = crate::plan::install::install_step(&merged);
    let install = in_cluster(&step, "helm upgrade --install").await?;
    let mut checks = plan.steps_of(StepKind::CheckOperator);
    let (Some(validator), Some(allocatable)) = (checks.next(), checks.next()) else {
        let message = "internal: the install plan has not both CheckOperator steps".to_owned();
        return Err(ArmError::Config { message, hint: None }.into());
    };
    loop {
        progress("checking the CUDA validator and allocatable GPUs");
        let v = in_cluster(validator, "the validator check").await?;
        let n = in_cluster(allocatable, "the allocatable check").await?;
        let validators = op::parse_validator_output(&v.logs);
        let nodes = op::parse_allocatable_output(&n.logs);
        let missing = not_ready(&validators, &nodes);
        if missing.is_empty() {
            return Ok(Report { release, values_diff, install, validator_pods: validators, gpu_nodes: nodes });
        }
        if Instant::now() + Duration::from_secs(20) > deadline {
            return Err(InstallError::NotReady { waited: started.elapsed(), missing });
        }
        progress(&format!("not ready: {}", missing.join("; ")));
        client.sleeper.sleep(Duration::from_secs(20)).await;
    }
}
