//! Cluster cost hygiene: stop/start the cluster, turn on cost analysis, scale a pool. Each
//! reads first, changes only what was asked, and waits. The PUTs (cost analysis, scale) send
//! `If-Match` with the eTag they read when the resource has one; stop/start is a plain POST.
//! A write whose answer was lost is never resent: the cluster or pool is read back instead.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::Value;

use super::reconcile::{self, send_write, Check, Sent};
use super::Progress;
use crate::arm::lro::{self, Operation};
use crate::arm::{api, ArmClient, ArmError, Req};
use crate::plan::cluster::{self, Scale};
use crate::plan::{cluster_path, pool_path, with_api, Plan, Step};

/// What a change did.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Already as asked: nothing sent.
    Unchanged(String),
    /// The plan (dry run).
    DryRun(Plan),
    /// Done; the resource as it is now.
    Done(Value),
}

/// A refusal (tier, autoscaler, …) with the fix.
#[derive(Debug, thiserror::Error)]
pub enum OpsError {
    #[error(transparent)]
    Arm(#[from] ArmError),
    #[error("{0}")]
    Refused(String),
}

fn op(what: String, url: &str, resume: String, timeout: Duration) -> Operation {
    let now = Instant::now();
    Operation { what, resource_url: url.to_owned(), resume, deadline: now + timeout, started: now }
}

/// Stop (`start == false`) or start a cluster.
#[allow(clippy::too_many_arguments)]
pub async fn power(
    client: &ArmClient,
    sub: &str,
    rg: &str,
    name: &str,
    start: bool,
    dry_run: bool,
    timeout: Duration,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<Outcome, OpsError> {
    let path = cluster_path(sub, rg, name);
    let url = with_api(&path, api::AKS);
    let current: Value = client.get_json(&url).await?;
    let want = if start { "Running" } else { "Stopped" };
    if power_state(&current).eq_ignore_ascii_case(want) {
        return Ok(Outcome::Unchanged(format!("cluster {name} is already {want}")));
    }
    let verb = if start { "start" } else { "stop" };
    let step = Step {
        method: "POST",
        url: format!("{path}/{verb}?api-version={}", api::AKS),
        body: None,
        headers: Default::default(),
        purpose: format!("{verb} cluster {name}"),
        read_only: false,
    };
    if dry_run {
        return Ok(Outcome::DryRun(Plan { steps: vec![step] }));
    }
    progress(&format!("{} cluster {name}", if start { "starting" } else { "stopping" }));
    let resume = format!("az aks show -g {rg} -n {name} --query powerState");
    let o = op(format!("cluster {name} ({verb})"), &url, resume.clone(), timeout);
    match send_write(client, &Req::post(step.url.clone()), started, &path, &resume).await? {
        Sent::Answer(resp) => {
            lro::wait(client, resp, &Method::POST, &o, progress).await?;
        }
        Sent::Lost(lost) => {
            // Read powerState: a cluster that is stopping/starting, or already there, is ours.
            let going = if start { "Starting" } else { "Stopping" };
            let carries = |v: &Value| power_state(v).eq_ignore_ascii_case(want) || reconcile::in_state(v, &[going]);
            let check = Check {
                what: o.what.clone(),
                url: url.clone(),
                resume,
                states: &[going, "Succeeded"],
                carries: &carries,
            };
            reconcile::read_back(client, &check, &lost).await?;
            started.accepted(&path, &check.resume);
            lro::wait_resource(client, &o, progress).await?;
        }
    }
    let after: Value = client.get_json(&url).await?;
    Ok(Outcome::Done(after))
}

fn power_state(cluster: &Value) -> &str {
    cluster.pointer("/properties/powerState/code").and_then(Value::as_str).unwrap_or("Running")
}

/// A PUT to send: the plan, how to recognise it when read back, and the messages.
struct Put<'a> {
    plan: Plan,
    what: String,
    resume: String,
    /// The resource id (for Ctrl-C messages).
    resource: String,
    /// `provisioningState`s the PUT leads to.
    states: &'a [&'a str],
    carries: &'a (dyn Fn(&Value) -> bool + Sync),
}

async fn put_and_wait(
    client: &ArmClient,
    put: Put<'_>,
    dry_run: bool,
    timeout: Duration,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<Outcome, OpsError> {
    if dry_run {
        return Ok(Outcome::DryRun(put.plan));
    }
    let step = &put.plan.steps[0];
    let mut req = Req::json(Method::PUT, step.url.clone(), step.body.as_ref().unwrap_or(&Value::Null));
    if let Some(etag) = step.headers.get("If-Match") {
        req = req.header("if-match", etag.clone());
    }
    progress(&put.what);
    let o = op(put.what.clone(), &step.url, put.resume.clone(), timeout);
    match send_write(client, &req, started, &put.resource, &put.resume).await? {
        Sent::Answer(resp) => Ok(Outcome::Done(lro::wait(client, resp, &Method::PUT, &o, progress).await?)),
        Sent::Lost(lost) => {
            let check = Check {
                what: put.what,
                url: step.url.clone(),
                resume: put.resume,
                states: put.states,
                carries: put.carries,
            };
            reconcile::read_back(client, &check, &lost).await?;
            started.accepted(&put.resource, &check.resume);
            Ok(Outcome::Done(lro::wait_resource(client, &o, progress).await?))
        }
    }
}

fn put_step(url: String, body: Value, etag: Option<&str>, purpose: String) -> Plan {
    let mut headers = std::collections::BTreeMap::new();
    if let Some(e) = etag {
        headers.insert("If-Match".to_owned(), e.to_owned());
    }
    Plan { steps: vec![Step { method: "PUT", url, body: Some(body), headers, purpose, read_only: false }] }
}

/// Turn on `metricsProfile.costAnalysis`.
#[allow(clippy::too_many_arguments)]
pub async fn cost_analysis(
    client: &ArmClient,
    sub: &str,
    rg: &str,
    name: &str,
    dry_run: bool,
    timeout: Duration,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<Outcome, OpsError> {
    let url = with_api(&cluster_path(sub, rg, name), api::AKS);
    let current: Value = client.get_json(&url).await?;
    if cluster::cost_analysis_enabled(&current) {
        return Ok(Outcome::Unchanged(format!("cost analysis is already enabled on {name}")));
    }
    let body = cluster::enable_cost_analysis(&current).map_err(OpsError::Refused)?;
    let plan = put_step(
        url,
        body,
        current["eTag"].as_str(),
        "enable metricsProfile.costAnalysis (nothing else changes)".into(),
    );
    let put = Put {
        plan,
        what: format!("cluster {name} (enabling cost analysis)"),
        resume: format!("az aks show -g {rg} -n {name}"),
        resource: cluster_path(sub, rg, name),
        states: &["Updating", "Succeeded"],
        carries: &cluster::cost_analysis_enabled,
    };
    put_and_wait(client, put, dry_run, timeout, progress, started).await
}

/// Scale a pool: change only its counts.
#[allow(clippy::too_many_arguments)]
pub async fn scale(
    client: &ArmClient,
    sub: &str,
    rg: &str,
    name: &str,
    pool: &str,
    how: Scale,
    dry_run: bool,
    timeout: Duration,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<Outcome, OpsError> {
    let url = with_api(&pool_path(sub, rg, name, pool), api::AKS);
    let current: Value = client
        .get_json_opt(&url)
        .await?
        .ok_or_else(|| OpsError::Refused(format!("pool {pool} does not exist in cluster {name}")))?;
    let body = cluster::scale_pool(&current, how).map_err(OpsError::Refused)?;
    if cluster::differences(&cluster::writable_pool(&current), &body).is_empty() {
        return Ok(Outcome::Unchanged(format!("pool {pool} already has these counts")));
    }
    let counts = |v: &Value| {
        ["/properties/count", "/properties/minCount", "/properties/maxCount", "/properties/enableAutoScaling"]
            .iter()
            .all(|f| v.pointer(f) == body.pointer(f))
    };
    let plan = put_step(
        url,
        body.clone(),
        current.pointer("/properties/eTag").and_then(Value::as_str),
        format!("scale pool {pool} (only the counts change)"),
    );
    let put = Put {
        plan,
        what: format!("pool {pool} in cluster {name} (scaling)"),
        resume: format!("aksgpu wait --subscription {sub} -g {rg} --cluster {name} --name {pool}"),
        resource: pool_path(sub, rg, name, pool),
        states: &["Scaling", "Updating", "Creating", "Succeeded"],
        carries: &counts,
    };
    put_and_wait(client, put, dry_run, timeout, progress, started).await
}
