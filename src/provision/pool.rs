//! Creating a GPU agent pool: concurrent preflight reads, the PUT, waiting, the final GET.
//!
//! The PUT carries `If-None-Match: *`, so a pool created by someone else in the meantime is
//! never overwritten (412). A 409 "another operation in progress" waits for the cluster and
//! tries the PUT again (a 409 means it was not applied). When a PUT's answer is lost, the pool
//! is read back first (it is ours when it carries the spec and is Creating, Updating or
//! Succeeded); only when it did not land is the PUT sent again, still under `If-None-Match`.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::Value;

use super::facts::Store;
use super::reconcile::{self, Check, Landed};
use super::wire;
use super::Progress;
use crate::arm::lro::{self, Operation};
use crate::arm::{ArmClient, ArmError, ArmResponse};
use crate::catalog::Catalog;
use crate::domain::setting::{Setting, Words};
use crate::plan::agent_pool::PoolSpec;
pub use crate::plan::pool::{feature_path, plan, plan_listed};
use crate::plan::preflight::{self, Facts, PreflightFailure, Reservation, Verdict};
use crate::plan::{cluster_path, Plan, Step, StepKind};
use crate::resources::compute::{ReservationGroup, ResourceSku, Usage};
use crate::resources::{AgentPool, AsRead};

/// How to run.
#[derive(Debug, Clone)]
pub struct CreateOptions {
    pub dry_run: bool,
    pub no_wait: bool,
    pub skip_preflight: bool,
    pub timeout: Duration,
    /// The cluster's location, when known up front: all preflight reads then run at once.
    pub location: Option<String>,
    /// On Ctrl-C, POST the pool's `abort` (only when asked for).
    pub abort_on_interrupt: bool,
    /// The run's facts: what another step read already (the cluster read for `--recommend`,
    /// the agentPools list `apply` read) is not read again, and concurrent steps share reads.
    pub facts: Store,
    /// The pool's existence comes from the cluster's agentPools list (one list for every pool
    /// of the run, as `apply` reads it), not from a GET of the pool.
    pub pools_listed: bool,
    /// The run registers the Windows GPU preview feature before the pool: preflight does not
    /// refuse the pool for the feature's state as read (see `Facts::feature_registered_first`).
    pub feature_registered_first: bool,
}

/// What happened.
#[derive(Debug, Clone)]
pub enum CreateOutcome {
    /// Nothing was written; the plan shows what a real run sends.
    /// `location`: the cluster's region (read by preflight, else `--location`), for pricing.
    DryRun { plan: Plan, facts_read: bool, note: Option<String>, location: Option<String> },
    /// The pool already exists exactly as asked.
    Unchanged { pool: Value },
    /// `--no-wait`: Azure accepted the PUT.
    Accepted { pool_path: String },
    /// The pool exists and succeeded.
    Created { pool: Value, location: Option<String> },
}

/// Read what preflight needs, through the run's facts: the cluster, the pool (a GET, or with
/// `opts.pools_listed` the cluster's agentPools list, one list for every pool of the run), the
/// SKUs and usages of the cluster's location, the Windows feature and the reservation group.
///
/// The SKU and usage URLs need the location. With `--location`, or a location remembered by
/// an earlier run, every read starts at once (one round trip). When the cluster says another
/// location, those reads are discarded and made again for the cluster's own location: the
/// cluster decides. Without either (the first run against a cluster), the cluster comes
/// first and the SKUs and usages follow (two round trips).
pub async fn read_facts(client: &ArmClient, spec: &PoolSpec, opts: &CreateOptions) -> Result<Facts, ArmError> {
    let store = &opts.facts;
    let guess = opts
        .location
        .clone()
        .or_else(|| store.cached_location(&spec.subscription, &spec.resource_group, &spec.cluster));
    let p = plan(spec, guess.as_deref());
    let lists = async {
        match &guess {
            Some(g) => Some(sku_and_usage_lists(client, store, spec, g).await),
            None => None,
        }
    };
    // The cluster's pools, when the pool may need the GPU Operator's no-driver label: read with
    // the rest (the run's facts keep it for the label decision after preflight).
    let listed = async {
        match p.step(StepKind::ReadPools) {
            Some(step) if !opts.pools_listed => store.list::<AsRead<AgentPool>>(client, step).await.map(|_| ()),
            _ => Ok(()),
        }
    };
    let (cluster, pool, feature, reservation, early, listed) = tokio::join!(
        store.cluster(client, &spec.subscription, &spec.resource_group, &spec.cluster),
        read_pool(client, spec, opts),
        read_feature(client, store, p.step(StepKind::ReadFeature)),
        read_reservation(client, spec),
        lists,
        listed
    );
    listed?;
    let cluster = cluster?;
    // The cluster decides the location: one without it is an error naming the field (never
    // `--location` in its place, nor checks against an empty region).
    let loc = cluster
        .location()
        .map_err(|e| no_location(p.step(StepKind::ReadCluster).map_or("", |s| s.url.as_str()), &e))?;
    let (skus, usages) = match early {
        Some((skus, usages)) if guess.as_deref() == Some(loc.as_str()) => (skus?, usages?),
        // No guess, or a wrong one: read them for the cluster's own location.
        _ => {
            let (s, u) = sku_and_usage_lists(client, store, spec, &loc).await;
            (s?, u?)
        }
    };
    Ok(Facts {
        cluster: cluster.item,
        pool: pool?,
        skus: Some(skus),
        usages: Some(usages),
        windows_feature: feature?,
        feature_registered_first: opts.feature_registered_first,
        reservation: reservation?,
    })
}

/// The pool with the GPU Operator's no-driver label when the cluster's pools (read by preflight,
/// kept in the run's facts) say the operator installs a driver elsewhere; see
/// `plan::install::with_driver_label`. Nothing is read with `--skip-preflight`.
pub(super) async fn driver_label(
    client: &ArmClient,
    catalog: &Catalog,
    spec: &PoolSpec,
    opts: &CreateOptions,
) -> Result<Option<(PoolSpec, String)>, ArmError> {
    if opts.skip_preflight || !crate::plan::install::may_need_driver_label(spec) {
        return Ok(None);
    }
    let p = plan_of(spec, None, opts);
    let Some(step) = p.step(StepKind::ReadPools) else { return Ok(None) };
    let pools: Vec<AsRead<AgentPool>> = opts.facts.list(client, step).await?;
    Ok(crate::plan::install::with_driver_label(catalog, spec, &pools))
}

/// The plan this run follows: with `pools_listed`, the pool's existence comes from the list.
fn plan_of(spec: &PoolSpec, location: Option<&str>, opts: &CreateOptions) -> Plan {
    if opts.pools_listed {
        plan_listed(spec, location)
    } else {
        plan(spec, location)
    }
}

/// The resource SKUs and the usages of `location`, read at once (through the run's facts).
async fn sku_and_usage_lists(
    client: &ArmClient,
    store: &Store,
    spec: &PoolSpec,
    location: &str,
) -> (Result<Vec<ResourceSku>, ArmError>, Result<Vec<Usage>, ArmError>) {
    let p = plan(spec, Some(location));
    let (Some(skus), Some(usages)) = (p.step(StepKind::ReadSkus), p.step(StepKind::ReadUsages)) else {
        let e = || ArmError::Config { message: "internal: the plan has no SKU or usage read".into(), hint: None };
        return (Err(e()), Err(e()));
    };
    tokio::join!(store.list(client, skus), store.list(client, usages))
}

/// The pool as it is now: from the agentPools list when the run reads it for every pool
/// (`pools_listed`), else one GET.
async fn read_pool(
    client: &ArmClient,
    spec: &PoolSpec,
    opts: &CreateOptions,
) -> Result<Option<AsRead<AgentPool>>, ArmError> {
    let store = &opts.facts;
    if opts.pools_listed {
        let cluster = (spec.subscription.as_str(), spec.resource_group.as_str(), spec.cluster.as_str());
        return store.pool_from_list(client, cluster, &spec.name).await;
    }
    let step = crate::plan::pool::read_pool(spec);
    let Some(pool) = store.get_opt(client, &step).await? else { return Ok(None) };
    AsRead::parse(pool, "agent pool").map(Some).map_err(|e| wire::step_shape_error(&step, &e))
}

/// The state of the preview feature a Windows pool needs (`NotRegistered` when absent).
async fn read_feature(client: &ArmClient, store: &Store, step: Option<&Step>) -> Result<Option<String>, ArmError> {
    let Some(step) = step else { return Ok(None) };
    let v = store.get_opt(client, step).await?;
    Ok(Some(
        // A feature of another shape reads NotRegistered: preflight then refuses (fails safe).
        v.and_then(|v| crate::resources::parse::<crate::resources::Feature>(&v, "feature").ok())
            .and_then(|f| f.properties.state)
            .unwrap_or_else(|| "NotRegistered".into()),
    ))
}

fn no_location(path: &str, e: &crate::resources::MissingField) -> ArmError {
    ArmError::InvalidResponse {
        method: "GET".into(),
        path: path.to_owned(),
        status: 200,
        message: e.to_string(),
        snippet: String::new(),
        request_id: None,
    }
}

/// The pool's capacity reservation group and its reservations, when it names one.
pub async fn read_reservation(client: &ArmClient, spec: &PoolSpec) -> Result<Option<Reservation>, ArmError> {
    let Some(id) = &spec.capacity_reservation_group else { return Ok(None) };
    read_group(client, id).await.map(Some)
}

/// A capacity reservation group (None inside when it does not exist) and its reservations.
pub async fn read_group(client: &ArmClient, id: &str) -> Result<Reservation, ArmError> {
    let [group, list] = crate::plan::pool::reservation_reads(id);
    let Some(group) = wire::get_opt::<ReservationGroup>(client, &group).await? else {
        return Ok(Reservation { group: None, reservations: vec![] });
    };
    let reservations = wire::list(client, &list).await?;
    Ok(Reservation { group: Some(group), reservations })
}

/// The `aksgpu wait` command line for a pool, naming its settings by id.
pub fn resume_command(spec: &PoolSpec) -> Words {
    crate::plan::wait_command(&spec.subscription, &spec.resource_group, &spec.cluster, &spec.name)
}

/// Errors of the executor: ARM errors, a preflight refusal, or an operation this run does
/// not wait for.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    #[error(transparent)]
    Arm(#[from] ArmError),
    /// Its words name settings by id: the front end words them (`Refused`'s fields).
    #[error("the preflight refused the pool")]
    Refused(PreflightFailure),
    /// An operation runs on the pool and `--no-wait` does not wait for it (exit 4, as
    /// [`ArmError::Pending`]): `message` and `resume` name settings by id.
    #[error("{what}: an operation is running and is not waited for")]
    Pending { what: String, message: Words, resume: Words },
}

impl From<PreflightFailure> for CreateError {
    fn from(r: PreflightFailure) -> Self {
        CreateError::Refused(r)
    }
}

/// Create the pool (or show the plan).
pub async fn create(
    client: &ArmClient,
    catalog: &Catalog,
    spec: &PoolSpec,
    opts: &CreateOptions,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<CreateOutcome, CreateError> {
    let started_at = Instant::now();
    if opts.dry_run && !client.has_credentials() {
        return Ok(CreateOutcome::DryRun {
            plan: plan_of(spec, opts.location.as_deref(), opts),
            facts_read: false,
            note: Some("no credentials: the plan comes from the flags alone (no preflight reads)".into()),
            location: opts.location.clone(),
        });
    }
    let location = match preflight_step(client, catalog, spec, opts, progress).await? {
        Ok(location) => location,
        Err(outcome) => return Ok(outcome),
    };
    let labelled = driver_label(client, catalog, spec, opts).await?;
    let (spec, note) = match &labelled {
        Some((s, n)) => {
            progress(n);
            (s, Some(n.clone()))
        }
        None => (spec, None),
    };
    let p = plan_of(spec, location.as_deref(), opts);
    let put = match p.step(StepKind::CreatePool) {
        Some(put) if !opts.dry_run => put,
        _ => return Ok(CreateOutcome::DryRun { facts_read: !opts.skip_preflight, plan: p, note, location }),
    };
    let op = operation(spec, started_at, started_at + opts.timeout)?;
    let accepted = put_once(client, spec, put, &op, progress, started).await;
    // Whatever its answer, the PUT may have changed the cluster's pools and the quota.
    opts.facts.changed(&cluster_path(&spec.subscription, &spec.resource_group, &spec.cluster));
    let accepted = accepted?;
    started.accepted(&spec.path(), resume_command(spec));
    if opts.abort_on_interrupt {
        started.abort_with(&crate::plan::pool::abort(spec));
    }
    if opts.no_wait {
        return Ok(CreateOutcome::Accepted { pool_path: spec.path() });
    }
    let pool = match accepted {
        Some(resp) => lro::wait(client, resp, &Method::PUT, &op, progress).await?,
        // The answer was lost but the pool is ours: follow its provisioningState.
        None => lro::wait_resource(client, &op, progress).await?,
    };
    Ok(CreateOutcome::Created { pool, location })
}

/// What waiting on the pool's creation is called, resumed with, and bounded by; its resource
/// is read with the plan's `Await` step.
pub(crate) fn operation(spec: &PoolSpec, started: Instant, deadline: Instant) -> Result<Operation, ArmError> {
    Ok(Operation {
        what: format!("pool {} in cluster {}", spec.name, spec.cluster),
        resource: wire::request(&crate::plan::pool::await_pool(spec), None)?,
        resume: resume_command(spec),
        deadline,
        started,
    })
}

/// Delete a pool this run created and that failed, then wait until GET says 404 (so the
/// next PUT under the same name starts clean). The DELETE is sent once.
pub(crate) async fn delete_and_wait_gone(
    client: &ArmClient,
    spec: &PoolSpec,
    op: &Operation,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<(), ArmError> {
    progress(&format!("deleting failed pool {} (created by this run)", spec.name));
    let resp = wire::send(client, &crate::plan::pool::delete(spec)).await?;
    if !matches!(resp.status, 200 | 202 | 204 | 404) {
        return Err(resp.to_error());
    }
    let gone = Operation { what: format!("pool {} to be deleted", spec.name), ..op.clone() };
    let mut poller = lro::Poller::default();
    let read = crate::plan::pool::await_pool(spec);
    loop {
        if wire::get_opt::<Value>(client, &read).await?.is_none() {
            return Ok(());
        }
        progress("waiting for the failed pool to be deleted");
        poller.pause(client, None, &gone).await?;
    }
}

/// Preflight (unless skipped): `Ok(location)` to go on, `Err(outcome)` when done already.
pub async fn preflight_step(
    client: &ArmClient,
    catalog: &Catalog,
    spec: &PoolSpec,
    opts: &CreateOptions,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Result<Option<String>, CreateOutcome>, CreateError> {
    if opts.skip_preflight {
        return Ok(Ok(opts.location.clone()));
    }
    let deadline = Instant::now() + opts.timeout;
    // What another step read serves the first round; after a wait, all is read again.
    loop {
        progress("preflight: reading cluster, pool, SKUs and quota");
        let facts = match read_facts(client, spec, opts).await {
            Ok(f) => f,
            Err(ArmError::Auth { message, .. }) if opts.dry_run => {
                return Ok(Err(CreateOutcome::DryRun {
                    plan: plan_of(spec, opts.location.as_deref(), opts),
                    facts_read: false,
                    note: Some(format!("credentials failed ({message}): the plan comes from the flags alone")),
                    location: opts.location.clone(),
                }));
            }
            Err(e) => return Err(e.into()),
        };
        let location = facts.cluster.location().ok().or_else(|| opts.location.clone());
        let verdict = preflight::check(catalog, spec, &facts)?;
        match verdict {
            Verdict::Identical => {
                return Ok(Err(CreateOutcome::Unchanged { pool: facts.pool.map_or(Value::Null, |p| p.json) }))
            }
            Verdict::Create => return Ok(Ok(location)),
            Verdict::InProgress(_) | Verdict::Deleting if opts.dry_run => {
                let note = format!("{}; a real run waits for it first", busy_text(spec, &verdict));
                return Ok(Err(CreateOutcome::DryRun {
                    plan: plan_of(spec, location.as_deref(), opts),
                    facts_read: true,
                    note: Some(note),
                    location,
                }));
            }
            Verdict::InProgress(_) | Verdict::Deleting => {
                settle_existing(client, spec, opts, &verdict, deadline, progress).await?;
                opts.facts.changed(&cluster_path(&spec.subscription, &spec.resource_group, &spec.cluster));
            }
        }
    }
}

fn busy_text(spec: &PoolSpec, v: &Verdict) -> String {
    match v {
        Verdict::InProgress(state) => format!("pool {} is {state}: an operation is already running on it", spec.name),
        _ => format!("pool {} is being deleted", spec.name),
    }
}

/// An existing pool with an operation running: wait for it as `aksgpu wait` does (or, with
/// `--no-wait`, exit 4 with the wait command); a pool being deleted: wait until it is gone (or
/// refuse with `--no-wait`). The caller then reads every fact again.
async fn settle_existing(
    client: &ArmClient,
    spec: &PoolSpec,
    opts: &CreateOptions,
    verdict: &Verdict,
    deadline: Instant,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<(), CreateError> {
    let text = busy_text(spec, verdict);
    let op = Operation {
        what: format!("pool {} in cluster {}", spec.name, spec.cluster),
        resource: wire::request(&crate::plan::pool::read_pool(spec), None)?,
        resume: resume_command(spec),
        deadline,
        started: Instant::now(),
    };
    if opts.no_wait {
        return Err(match verdict {
            Verdict::Deleting => PreflightFailure {
                message: Words::new(
                    format!("{text}; with {{0}} it is not waited for, and it cannot be created while it exists"),
                    &[Setting::NoWait],
                ),
                hint: Some(Words::new(
                    "run again without {0} (it waits until the pool is gone), or choose another {1}",
                    &[Setting::NoWait, Setting::Name],
                )),
                differences: vec![],
            }
            .into(),
            _ => CreateError::Pending {
                what: op.what,
                message: Words::new(format!("{text}; not waiting ({{0}})"), &[Setting::NoWait]),
                resume: op.resume,
            },
        });
    }
    progress(&format!("{text}; waiting for it"));
    if matches!(verdict, Verdict::Deleting) {
        return wait_gone(client, spec, &op, progress).await.map_err(CreateError::from);
    }
    match lro::wait_resource(client, &op, progress).await {
        // A Failed pool is reported with how to recover when the facts are read again.
        Ok(_) | Err(ArmError::OperationFailed { .. }) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// Poll the pool until a GET answers 404 (deleted), under the shared pacing and deadline.
async fn wait_gone(
    client: &ArmClient,
    spec: &PoolSpec,
    op: &Operation,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<(), ArmError> {
    let mut poller = lro::Poller::default();
    let read = crate::plan::pool::read_pool(spec);
    loop {
        poller.pause(client, None, op).await?;
        match wire::get_opt::<Value>(client, &read).await {
            Ok(None) => return Ok(()),
            Ok(Some(v)) => progress(lro::provisioning_state(&v).as_deref().unwrap_or("Deleting")),
            Err(ArmError::Deadline { .. }) => return Err(lro::timed_out(op)),
            Err(e) => return Err(e),
        }
    }
}

/// Send the PUT until Azure accepts it: `Some(answer)`, or `None` when an answer was lost
/// and reading the pool back showed it is ours. A 409 "another operation in progress" (not
/// applied) waits for the cluster and sends it again; a lost answer read back as not applied
/// is sent again under `If-None-Match: *` (see `reconcile::put_guarded`).
pub(crate) async fn put_once(
    client: &ArmClient,
    spec: &PoolSpec,
    put: &Step,
    op: &Operation,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<Option<ArmResponse>, CreateError> {
    let mut conflicts = 0;
    // A pool of another shape does not carry the spec (it is read again, never taken as ours).
    let carries = |p: &crate::resources::AgentPool| spec.diff(p).is_empty();
    let check = Check {
        what: op.what.clone(),
        read: crate::plan::pool::await_pool(spec),
        resume: op.resume.clone(),
        states: &["Creating", "Updating", "Succeeded"],
        carries: &carries,
    };
    loop {
        progress(&format!("creating pool {}", spec.name));
        let resp =
            match reconcile::put_guarded(client, put, &check, started, &spec.path(), op.deadline, progress).await? {
                Landed::Answer(resp) => resp,
                Landed::Ours(_) => return Ok(None),
            };
        match resp.status {
            200..=202 => return Ok(Some(resp)),
            412 => {
                return Err(PreflightFailure {
                    message: format!("pool {} was created by someone else in the meantime (HTTP 412)", spec.name)
                        .into(),
                    hint: Some("run the command again to compare it with what you asked for".into()),
                    differences: vec![],
                }
                .into())
            }
            409 if reconcile::busy(&resp) && conflicts < 5 && Instant::now() < op.deadline => {
                conflicts += 1;
                progress("another operation is running on the cluster; waiting for it");
                wait_cluster_idle(client, spec, op, progress).await?;
            }
            _ => return Err(resp.to_error().into()),
        }
    }
}

/// Wait until the cluster's current operation ends, with the shared poller. A cluster whose
/// operation failed is not an error here: the PUT that follows reports what Azure says.
async fn wait_cluster_idle(
    client: &ArmClient,
    spec: &PoolSpec,
    op: &Operation,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<(), ArmError> {
    let cluster = Operation {
        what: format!("cluster {} to finish its current operation", spec.cluster),
        resource: wire::request(&crate::plan::pool::read_cluster(spec), None)?,
        resume: "run the same create-pool command again".into(),
        deadline: op.deadline,
        started: op.started,
    };
    match lro::wait_resource(client, &cluster, progress).await {
        Ok(_) | Err(ArmError::OperationFailed { .. }) => Ok(()),
        Err(e) => Err(e),
    }
}
