//! Cluster cost hygiene: stop/start the cluster, turn on cost analysis, scale a pool. Each
//! reads first, changes only what was asked, and waits. The PUTs (cost analysis, scale) send
//! `If-Match` with the eTag they read when the resource has one; stop/start is a plain POST.
//! A write whose answer was lost is read back first; only a PUT that did not land and carries
//! `If-Match` is sent again (POSTs never are).

use std::time::{Duration, Instant};

use reqwest::Method;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::Value;

use super::reconcile::{self, send_write, Check, Landed, Sent};
use super::{wire, Progress};
use crate::arm::lro::{self, Operation};
use crate::arm::{ArmClient, ArmError};
use crate::domain::setting::Words;
use crate::plan::cluster::{self, Scale};
use crate::plan::cluster_ops::{self as ops, Target};
use crate::plan::{Plan, Step, StepKind};
use crate::resources::{self, AgentPool, AsRead, ManagedCluster};

/// What a change did.
#[derive(Debug, Clone)]
pub enum ClusterChange {
    /// Already as asked: nothing sent.
    Unchanged(String),
    /// The plan of a dry run: nothing was sent but its reads (none without credentials).
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
    /// Azure's answer lacks a field the decision needs.
    #[error(transparent)]
    Missing(#[from] crate::resources::MissingField),
    /// The change is refused before sending (a value, the resource's state).
    #[error("the change is refused")]
    Change(crate::plan::cluster::ChangeRefused),
}

impl From<crate::plan::cluster::ChangeRefused> for OpsError {
    fn from(e: crate::plan::cluster::ChangeRefused) -> Self {
        match e {
            crate::plan::cluster::ChangeRefused::Missing(m) => OpsError::Missing(m),
            e => OpsError::Change(e),
        }
    }
}

/// An operation on the resource the plan's `Await` step reads.
fn op(what: String, plan: &Plan, resume: Words, timeout: Duration) -> Result<Operation, ArmError> {
    let now = Instant::now();
    let resource = wire::request(super::step(plan, StepKind::Await)?, None)?;
    Ok(Operation { what, resource, resume, deadline: now + timeout, started: now })
}

/// How to run a change: for real, or as a dry run (its reads only).
#[derive(Debug, Clone, Copy)]
pub struct Run {
    pub dry_run: bool,
    pub timeout: Duration,
}

/// Stop (`start == false`) or start a cluster.
pub async fn power(
    client: &ArmClient,
    t: Target<'_>,
    start: bool,
    run: Run,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<ClusterChange, OpsError> {
    let (path, name, rg) = (t.cluster_path(), t.cluster, t.resource_group);
    let plan = ops::power(t, start);
    let current: Value = wire::get(client, super::step(&plan, StepKind::ReadCluster)?).await?;
    let want = if start { "Running" } else { "Stopped" };
    let typed: ManagedCluster = resources::parse(&current, "cluster")?;
    if typed.power()?.eq_ignore_ascii_case(want) {
        return Ok(ClusterChange::Unchanged(format!("cluster {name} is already {want}")));
    }
    if run.dry_run {
        return Ok(ClusterChange::DryRun(plan));
    }
    let verb = if start { "start" } else { "stop" };
    let post = super::step(&plan, StepKind::PowerCluster)?;
    progress(&format!("{} cluster {name}", if start { "starting" } else { "stopping" }));
    let resume = Words::plain(format!("az aks show -g {rg} -n {name} --query powerState"));
    let o = op(format!("cluster {name} ({verb})"), &plan, resume.clone(), run.timeout)?;
    let read = super::step(&plan, StepKind::Await)?;
    match send_write(client, post, started, &path, &resume).await? {
        Sent::Answer(resp) => {
            lro::wait(client, resp, &Method::POST, &o, progress).await?;
        }
        Sent::Lost(lost) => {
            // Read powerState: a cluster that is stopping/starting, or already there, is ours.
            let going = if start { "Starting" } else { "Stopping" };
            let carries = |c: &ManagedCluster| {
                let state = c.properties.provisioning_state.as_deref();
                c.power().is_ok_and(|p| p.eq_ignore_ascii_case(want))
                    || state.is_some_and(|s| s.eq_ignore_ascii_case(going))
            };
            let check = Check {
                what: o.what.clone(),
                read: read.clone(),
                resume,
                states: &[going, "Succeeded"],
                carries: &carries,
            };
            reconcile::read_back(client, &check, &lost).await?;
            started.accepted(&path, &check.resume);
            lro::wait_resource(client, &o, progress).await?;
        }
    }
    let settled = Operation { what: format!("cluster {name} to report powerState {want}"), ..o };
    Ok(ClusterChange::Done(await_power(client, read, want, &settled, progress).await?))
}

/// Read the cluster until its `powerState` is `want`: the operation's success alone is not
/// proof, and a read that still shows the old state (a stale replica) is polled again under
/// the same pacing and `--timeout`. A cluster without `powerState.code` is an error naming it.
async fn await_power(
    client: &ArmClient,
    read: &Step,
    want: &str,
    o: &Operation,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Value, OpsError> {
    let mut poller = lro::Poller::default();
    loop {
        let v: Value = match wire::get(client, read).await {
            Err(ArmError::Deadline { .. }) => return Err(lro::timed_out(o).into()),
            r => r?,
        };
        let c: ManagedCluster = resources::parse(&v, "cluster")?;
        let have = c.power()?;
        if have.eq_ignore_ascii_case(want) {
            return Ok(v);
        }
        progress(&format!("powerState still reads {have}; reading again"));
        poller.pause(client, None, o).await?;
    }
}

/// A PUT to send: the plan, how to recognise it when read back (the resource read as `T`),
/// and the messages.
struct Put<'a, T> {
    plan: Plan,
    /// The plan's write.
    kind: StepKind,
    what: String,
    /// The command that checks or resumes, naming settings by id.
    resume: Words,
    /// The resource id (for Ctrl-C messages).
    resource: String,
    /// `provisioningState`s the PUT leads to.
    states: &'a [&'a str],
    carries: &'a (dyn Fn(&T) -> bool + Sync),
}

async fn put_and_wait<T: DeserializeOwned>(
    client: &ArmClient,
    put: Put<'_, T>,
    run: Run,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<ClusterChange, OpsError> {
    if run.dry_run {
        return Ok(ClusterChange::DryRun(put.plan));
    }
    let step = super::step(&put.plan, put.kind)?;
    progress(&put.what);
    let o = op(put.what.clone(), &put.plan, put.resume.clone(), run.timeout)?;
    let read = super::step(&put.plan, StepKind::Await)?.clone();
    let check = Check { what: put.what, read, resume: put.resume, states: put.states, carries: put.carries };
    match reconcile::put_guarded(client, step, &check, started, &put.resource, o.deadline, progress).await? {
        Landed::Answer(resp) => Ok(ClusterChange::Done(lro::wait(client, resp, &Method::PUT, &o, progress).await?)),
        Landed::Ours(_) => Ok(ClusterChange::Done(lro::wait_resource(client, &o, progress).await?)),
    }
}

/// Send one pool update `plan` (its `UpdatePool` PUT, guarded, then its `Await`), e.g. the GPU
/// Operator's node label on a pool (`plan::cluster_ops::label_pool`): the pool as it ends.
pub async fn update_pool(
    client: &ArmClient,
    (plan, resource, what): (&Plan, &str, String),
    timeout: Duration,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<Value, OpsError> {
    // Any pool read back in a state the update leads to is taken as the update's.
    let carries = |_: &IgnoredAny| true;
    let put = Put {
        plan: plan.clone(),
        kind: StepKind::UpdatePool,
        resume: format!("read it back: az aks nodepool show --ids {resource}").into(),
        what,
        resource: resource.to_owned(),
        states: &["Updating", "Succeeded"],
        carries: &carries,
    };
    match put_and_wait(client, put, Run { dry_run: false, timeout }, progress, started).await? {
        ClusterChange::Done(v) => Ok(v),
        _ => Err(OpsError::Refused("internal: a pool update answered without the pool".into())),
    }
}

/// Turn on `metricsProfile.costAnalysis`.
pub async fn cost_analysis(
    client: &ArmClient,
    t: Target<'_>,
    run: Run,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<ClusterChange, OpsError> {
    let (name, rg) = (t.cluster, t.resource_group);
    let current: AsRead<ManagedCluster> =
        wire::get_read(client, &ops::read_cluster(t, "read the cluster"), "cluster").await?;
    if current.cost_analysis_enabled() {
        return Ok(ClusterChange::Unchanged(format!("cost analysis is already enabled on {name}")));
    }
    let put = Put {
        plan: ops::cost_analysis(t, &current)?,
        kind: StepKind::UpdateCluster,
        what: format!("cluster {name} (enabling cost analysis)"),
        resume: format!("az aks show -g {rg} -n {name}").into(),
        resource: t.cluster_path(),
        states: &["Updating", "Succeeded"],
        carries: &ManagedCluster::cost_analysis_enabled,
    };
    put_and_wait(client, put, run, progress, started).await
}

/// What a priced dry run of `pool scale` read, once, GETs only.
#[derive(Debug, Clone)]
pub struct ScaleRead {
    /// The pool as Azure sent it (its counts, eTag, size, OS and priority): the PUT is built
    /// from it.
    pub pool: AsRead<AgentPool>,
    /// Its cluster (its region, for the cost): nothing of it is sent back.
    pub cluster: ManagedCluster,
}

/// What a priced dry run of `pool scale` reads (GETs only): the pool (its size, OS and
/// priority) and its cluster (its region). A missing pool is refused as the real run would.
pub async fn read_pool_and_cluster(client: &ArmClient, t: Target<'_>, pool: &str) -> Result<ScaleRead, OpsError> {
    let current = wire::get_read_opt(client, &ops::read_pool(t, pool), "agent pool")
        .await?
        .ok_or_else(|| OpsError::Refused(format!("pool {pool} does not exist in cluster {}", t.cluster)))?;
    let cluster = wire::get_typed(client, &ops::read_cluster(t, "read the cluster's region"), "cluster").await?;
    Ok(ScaleRead { pool: current, cluster })
}

/// Scale a pool: change only its counts.
pub async fn scale(
    client: &ArmClient,
    t: Target<'_>,
    pool: &str,
    how: Scale,
    run: Run,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<ClusterChange, OpsError> {
    let (name, rg, sub) = (t.cluster, t.resource_group, t.subscription);
    let current: AsRead<AgentPool> = wire::get_read_opt(client, &ops::read_pool(t, pool), "agent pool")
        .await?
        .ok_or_else(|| OpsError::Refused(format!("pool {pool} does not exist in cluster {name}")))?;
    let plan = ops::scale(t, pool, &current, how)?;
    let body = super::step(&plan, StepKind::UpdatePool)?.body.clone().unwrap_or_default();
    if cluster::differences(&cluster::writable_pool(&current), &body).is_empty() {
        return Ok(ClusterChange::Unchanged(format!("pool {pool} already has these counts")));
    }
    // A pool read back carries the change when its counts are the body's (each as sent).
    let want = resources::parse::<AgentPool>(&body, "agent pool").ok().map(|p| p.counts());
    let counts = |p: &AgentPool| want == Some(p.counts());
    let put = Put {
        plan,
        kind: StepKind::UpdatePool,
        what: format!("pool {pool} in cluster {name} (scaling)"),
        resume: crate::plan::wait_command(sub, rg, name, pool),
        resource: t.pool_path(pool),
        states: &["Scaling", "Updating", "Creating", "Succeeded"],
        carries: &counts,
    };
    put_and_wait(client, put, run, progress, started).await
}
