//! Turning on KAITO (the AI toolchain operator): GET the cluster, change only
//! `aiToolchainOperatorProfile.enabled` and `oidcIssuerProfile.enabled`, PUT it back without
//! read-only fields (with `If-Match` on the cluster's eTag when it has one), and wait. Success is reported
//! only when the final GET shows the profile enabled; a lost answer is read back, and resent
//! (under `If-Match`) only when it did not land.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::Value;

use super::reconcile::{self, Check, Landed};
use super::Progress;
use crate::arm::lro::{self, Operation};
use crate::arm::{ArmClient, ArmError, Req};
use crate::plan::cluster::kaito_enabled;
use crate::plan::cluster_ops::{self as ops, Target};
use crate::plan::{Plan, StepKind};

/// What happened.
#[derive(Debug, Clone)]
pub enum Outcome {
    AlreadyEnabled,
    /// The plan (a dry run: nothing was read or sent).
    DryRun(Plan),
    Enabled(Value),
}

/// Enable KAITO on a cluster. Success means the final GET shows the profile enabled.
pub async fn enable(
    client: &ArmClient,
    t: Target<'_>,
    timeout: Duration,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<Outcome, ArmError> {
    let started_at = Instant::now();
    let (path, rg, cluster) = (t.cluster_path(), t.resource_group, t.cluster);
    let current: Value = client.get_json(&t.cluster_url()).await?;
    if kaito_enabled(&current) {
        return Ok(Outcome::AlreadyEnabled);
    }
    let p = ops::kaito(t, &current);
    let Some(put) = p.step(StepKind::UpdateCluster) else {
        return Err(ArmError::Config { message: "internal: the KAITO plan has no PUT".into(), hint: None });
    };
    let mut req = Req::json(Method::PUT, put.url.clone(), put.body.as_ref().unwrap_or(&Value::Null));
    if let Some(etag) = put.headers.get("If-Match") {
        req = req.header("if-match", etag.clone());
    }
    progress("enabling KAITO");
    let op = Operation {
        what: format!("cluster {cluster} (enabling KAITO)"),
        resource_url: t.cluster_url(),
        resume: format!("az aks show -g {rg} -n {cluster} --query aiToolchainOperatorProfile"),
        deadline: started_at + timeout,
        started: started_at,
    };
    let check = Check {
        what: op.what.clone(),
        url: op.resource_url.clone(),
        resume: op.resume.clone(),
        states: &["Updating", "Succeeded"],
        carries: &kaito_enabled,
    };
    let v = match reconcile::put_guarded(client, &req, &check, started, &path, op.deadline, progress).await? {
        Landed::Answer(resp) => lro::wait(client, resp, &Method::PUT, &op, progress).await?,
        Landed::Ours(_) => lro::wait_resource(client, &op, progress).await?,
    };
    if !kaito_enabled(&v) {
        return Err(ArmError::NotApplied {
            what: op.what,
            message: "Azure reports the update done, but the cluster read back does not have \
                      aiToolchainOperatorProfile.enabled = true"
                .into(),
            hint: Some(format!("check the cluster with: {}", op.resume)),
        });
    }
    Ok(Outcome::Enabled(v))
}
