//! Turning on KAITO (the AI toolchain operator): GET the cluster, change only
//! `aiToolchainOperatorProfile.enabled` and `oidcIssuerProfile.enabled`, PUT it back without
//! read-only fields (with `If-Match` on the cluster's eTag when it has one), and wait. Success is reported
//! only when the final GET shows the profile enabled; a lost answer is read back, and resent
//! (under `If-Match`) only when it did not land.

use crate::resources::{AsRead, ManagedCluster};
use std::time::Instant;

use reqwest::Method;
use serde_json::Value;

use super::reconcile::{self, Check, Landed};
use super::{wire, Progress};
use crate::arm::lro::{self, Operation};
use crate::arm::{ArmClient, ArmError};
use crate::plan::cluster_ops::{self as ops, Target};
use crate::plan::{Plan, StepKind};

/// What happened.
#[derive(Debug, Clone)]
pub enum KaitoEnable {
    AlreadyEnabled,
    /// The plan of a dry run: nothing was sent but its read (none without credentials).
    DryRun(Plan),
    Enabled(Value),
}

/// Enable KAITO on a cluster (a dry run stops after the read). Success means the final GET
/// shows the profile enabled.
pub async fn enable(
    client: &ArmClient,
    t: Target<'_>,
    run: super::cluster_ops::Run,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<KaitoEnable, ArmError> {
    let started_at = Instant::now();
    let (path, rg, cluster) = (t.cluster_path(), t.resource_group, t.cluster);
    let current: AsRead<ManagedCluster> =
        wire::get_read(client, &ops::read_cluster(t, "read the cluster"), "cluster").await?;
    if current.kaito_enabled() {
        return Ok(KaitoEnable::AlreadyEnabled);
    }
    let p = ops::kaito(t, &current);
    if run.dry_run {
        return Ok(KaitoEnable::DryRun(p));
    }
    let put = super::step(&p, StepKind::UpdateCluster)?;
    let read = super::step(&p, StepKind::Await)?;
    progress("enabling KAITO");
    let check_command = format!("az aks show -g {rg} -n {cluster} --query aiToolchainOperatorProfile");
    let op = Operation {
        what: format!("cluster {cluster} (enabling KAITO)"),
        resource: wire::request(read, None)?,
        resume: check_command.as_str().into(),
        deadline: started_at + run.timeout,
        started: started_at,
    };
    let check = Check {
        what: op.what.clone(),
        read: read.clone(),
        resume: op.resume.clone(),
        states: &["Updating", "Succeeded"],
        carries: &ManagedCluster::kaito_enabled,
    };
    let v = match reconcile::put_guarded(client, put, &check, started, &path, op.deadline, progress).await? {
        Landed::Answer(resp) => lro::wait(client, resp, &Method::PUT, &op, progress).await?,
        Landed::Ours(_) => lro::wait_resource(client, &op, progress).await?,
    };
    // A cluster read back of another shape does not show the profile enabled.
    let enabled = crate::resources::parse::<ManagedCluster>(&v, "cluster").is_ok_and(|c| c.kaito_enabled());
    if !enabled {
        return Err(ArmError::NotApplied {
            what: op.what,
            message: "Azure reports the update done, but the cluster read back does not have \
                      aiToolchainOperatorProfile.enabled = true"
                .into(),
            hint: Some(format!("check the cluster with: {check_command}")),
        });
    }
    Ok(KaitoEnable::Enabled(v))
}
