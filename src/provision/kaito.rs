//! Turning on KAITO (the AI toolchain operator): GET the cluster, change only
//! `aiToolchainOperatorProfile.enabled` and `oidcIssuerProfile.enabled`, PUT it back without
//! read-only fields (with `If-Match` on the cluster's eTag when it has one), and wait. Success is reported
//! only when the final GET shows the profile enabled; a lost answer is read back, not resent.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::Value;

use super::reconcile::{self, send_write, Check, Sent};
use super::Progress;
use crate::arm::lro::{self, Operation};
use crate::arm::{api, ArmClient, ArmError, Req};
use crate::plan::cluster::{enable_kaito, kaito_enabled};
use crate::plan::{cluster_path, with_api, Plan, Step};

/// What happened.
#[derive(Debug, Clone)]
pub enum Outcome {
    AlreadyEnabled,
    DryRun(Plan),
    Enabled(Value),
}

/// The PUT step for a cluster as read.
pub fn plan(path: &str, cluster: &Value) -> Plan {
    let mut headers = std::collections::BTreeMap::new();
    if let Some(etag) = cluster.get("eTag").and_then(Value::as_str) {
        headers.insert("If-Match".to_owned(), etag.to_owned());
    }
    Plan {
        steps: vec![
            Step {
                method: "GET",
                url: with_api(path, api::AKS),
                body: None,
                headers: Default::default(),
                purpose: "read the cluster".into(),
                read_only: true,
            },
            Step {
                method: "PUT",
                url: with_api(path, api::AKS),
                body: Some(enable_kaito(cluster)),
                headers,
                purpose: "enable aiToolchainOperatorProfile and oidcIssuerProfile (nothing else changes)".into(),
                read_only: false,
            },
        ],
    }
}

/// Enable KAITO on a cluster. Success means the final GET shows the profile enabled.
#[allow(clippy::too_many_arguments)]
pub async fn enable(
    client: &ArmClient,
    sub: &str,
    rg: &str,
    cluster: &str,
    dry_run: bool,
    timeout: Duration,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<Outcome, ArmError> {
    let started_at = Instant::now();
    let path = cluster_path(sub, rg, cluster);
    let current: Value = client.get_json(&with_api(&path, api::AKS)).await?;
    if kaito_enabled(&current) {
        return Ok(Outcome::AlreadyEnabled);
    }
    let p = plan(&path, &current);
    if dry_run {
        return Ok(Outcome::DryRun(p));
    }
    let put = &p.steps[1];
    let mut req = Req::json(Method::PUT, put.url.clone(), put.body.as_ref().unwrap_or(&Value::Null));
    if let Some(etag) = put.headers.get("If-Match") {
        req = req.header("if-match", etag.clone());
    }
    progress("enabling KAITO");
    let op = Operation {
        what: format!("cluster {cluster} (enabling KAITO)"),
        resource_url: with_api(&path, api::AKS),
        resume: format!("az aks show -g {rg} -n {cluster} --query aiToolchainOperatorProfile"),
        deadline: started_at + timeout,
        started: started_at,
    };
    let v = match send_write(client, &req, started, &path, &op.resume).await? {
        Sent::Answer(resp) => lro::wait(client, resp, &Method::PUT, &op, progress).await?,
        Sent::Lost(lost) => {
            let check = Check {
                what: op.what.clone(),
                url: op.resource_url.clone(),
                resume: op.resume.clone(),
                states: &["Updating", "Succeeded"],
                carries: &kaito_enabled,
            };
            reconcile::read_back(client, &check, &lost).await?;
            started.accepted(&path, &op.resume);
            lro::wait_resource(client, &op, progress).await?
        }
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
