//! The `create-pool` workflow (also `apply` for each new pool): preflight, the If-None-Match
//! PUT and the wait, with the Windows preview feature registered first and the GPU Operator
//! installed after when asked; and the failover over fallback sizes.

use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use crate::arm::{ArmClient, ArmError};
use crate::catalog::{Catalog, KubeVersion};
use crate::domain::setting::Words;
use crate::error::Error;
use crate::ops::recommend::RecommendRequest;
pub use crate::plan::agent_pool::{Deployment, PoolRequest, PoolSpec, SpecError};
use crate::plan::Plan;
use crate::provision::facts::Store;
use crate::provision::features::Feature;
use crate::provision::operator::{self, Install, InstallRequest, Report as Installed};
use crate::provision::pool::{self, CreateError};

pub use crate::provision::pool::{CreateOptions, CreateOutcome};
use crate::provision::Progress;
use crate::recommend::{Constraint, Os, Recommendation};
use crate::resources::{self, ManagedCluster};

use super::{Cred, Report};

/// What the front end renders of a pool request and its run.
pub use crate::arm::lro::provisioning_state;
pub use crate::plan::install::{autoscaler_min_warning, operator_pool_problem, OperatorPoolProblem};
pub use crate::provision::pool::resume_command;

/// The pool's GPU driver: the one asked for, else none when the GPU Operator is to be
/// installed (it installs the driver; the AKS driver would conflict). `true` when it was
/// chosen here, so the front end can say so.
pub fn gpu_driver_for(
    asked: Option<crate::domain::GpuDriver>,
    install_operator: bool,
) -> (Option<crate::domain::GpuDriver>, bool) {
    match (asked, install_operator) {
        (None, true) => (Some(crate::domain::GpuDriver::None), true),
        (d, _) => (d, false),
    }
}

impl From<CreateError> for Error {
    fn from(e: CreateError) -> Self {
        match e {
            CreateError::Arm(a) => Error::from(a),
            CreateError::Refused(r) => Error::Refused { message: r.message, hint: r.hint },
            // As `ArmError::Pending` says it: `what: message`, and how to resume (exit 4).
            CreateError::Pending { what, message, resume } => Error::Pending {
                message: Words::plain(format!("{what}: ")).then("", message),
                hint: Some(Words::plain("resume with: ").then("", resume)),
            },
        }
    }
}

/// What the cluster says that a choice depends on: its location and Kubernetes version.
#[derive(Debug, Clone, Default)]
pub struct ClusterFacts {
    pub location: Option<String>,
    pub kubernetes: Option<KubeVersion>,
}

impl ClusterFacts {
    /// From a cluster GET: a cluster without `location` is an error naming the field.
    pub fn from_cluster(c: &ManagedCluster) -> Result<Self, Error> {
        let location = c.location()?;
        let kubernetes = c.kubernetes_version().and_then(|k| KubeVersion::parse(k).ok());
        Ok(Self { location: Some(location), kubernetes })
    }
}

/// Why a pool request was refused before anything was sent, typed so that each front end
/// words it in its own names (flags for the CLI, keys for a GpuConfig file).
#[derive(Debug)]
pub enum RequestError {
    /// A pool setting is invalid ([`SpecError::setting`] says which).
    Spec(SpecError),
    /// A size was to be recommended, but nothing describes the workload.
    NoWorkload,
    /// No size fits the workload: the constraint that removed the last candidates (none when
    /// the catalog had no candidate at all).
    NoFit(Option<Constraint>),
    /// Anything else (not about one setting).
    Failed(Error),
}

impl From<Error> for RequestError {
    fn from(e: Error) -> Self {
        RequestError::Failed(e)
    }
}

impl From<SpecError> for RequestError {
    fn from(e: SpecError) -> Self {
        RequestError::Spec(e)
    }
}

/// The size `create-pool --recommend` takes: the first-ranked one for `ra`, ranked and priced
/// in the cluster's location with its Kubernetes version when the request names neither.
pub fn recommended(
    catalog: &Catalog,
    mut ra: RecommendRequest,
    facts: &ClusterFacts,
) -> Result<Recommendation, RequestError> {
    if ra.region.is_none() {
        ra.region.clone_from(&facts.location);
    }
    if ra.k8s_version.is_none() {
        ra.k8s_version = facts.kubernetes;
    }
    if !super::recommend::has_requirements(&ra) {
        return Err(RequestError::NoWorkload);
    }
    super::recommend::top_recommendation(catalog, &ra)?.map_err(RequestError::NoFit)
}

/// The deployment a recommendation runs: its nodes, and its split in words (the copies and
/// their parallelism when it serves, else the GPUs it uses on each node), as `recommend`
/// reports them (`serving.nodes`, the GPUS×NODES column).
pub fn deployment(top: &Recommendation) -> Deployment {
    let split = match &top.serving {
        Some(s) => format!(
            "{} cop{} at {}",
            s.replicas,
            if s.replicas == 1 { "y" } else { "ies" },
            crate::recommend::service::split_words(s.tensor_parallel, s.pipeline_parallel, s.expert_parallel)
        ),
        // Every copy on a node uses its GPUs, as the GPUS×NODES column counts them.
        None => format!(
            "{} GPU(s) on each node",
            crate::recommend::fmt_num(top.fit.gpus_used_per_node * f64::from(top.fit.replicas_per_node.max(1)))
        ),
    };
    Deployment { nodes: top.fit.nodes.max(1), split }
}

/// The pool request, validated into a spec (the same checks whatever front end built it).
pub fn validate(catalog: &Catalog, req: &PoolRequest) -> Result<PoolSpec, RequestError> {
    Ok(PoolSpec::validate(catalog, req)?)
}

/// What to ask a person before creating, once preflight has run (see [`preflight_to_confirm`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Question {
    /// Create the pool, priced in this region (none: not known).
    Create { location: Option<String> },
    /// The pool exists as asked; only the operator install would change Azure.
    InstallOnExisting,
    /// The pool exists as asked and nothing else is to be done: nothing to ask.
    Nothing,
}

/// Before asking on a terminal: run preflight first so the question carries the price in the
/// cluster's region; the create then skips the reads it already made. A Windows pool whose
/// preview feature is to be registered cannot pass preflight before it is, so the question
/// comes first (priced in the given location, if any).
pub async fn preflight_to_confirm(
    client: &ArmClient,
    catalog: &Catalog,
    req: &mut CreatePoolRequest,
    report: Report<'_>,
) -> Result<Question, Error> {
    if req.register_feature && pool_feature(catalog, &req.spec).is_some() {
        return Ok(Question::Create { location: req.options.location.clone() });
    }
    Ok(match pool::preflight_step(client, catalog, &req.spec, &req.options, report).await? {
        Ok(location) => {
            req.options.skip_preflight = true;
            req.options.location.clone_from(&location);
            Question::Create { location }
        }
        Err(_) if req.operator.is_some() => Question::InstallOnExisting,
        Err(_) => Question::Nothing,
    })
}

/// A validated pool to create, and what goes with it.
#[derive(Debug, Clone)]
pub struct CreatePoolRequest {
    /// The pool, validated.
    pub spec: PoolSpec,
    /// Dry run, wait, preflight, timeout, location, the run's facts.
    pub options: CreateOptions,
    /// Register the Windows GPU preview feature first (a Windows pool; a dry run plans the
    /// registration from the same reads, before the pool).
    pub register_feature: bool,
    /// Install the GPU Operator on the pool after it is created.
    pub operator: Option<InstallRequest>,
    /// With a dry run and the operator: read the operator's Helm release (one read-only
    /// runCommand) and plan the install the run sends on it, its values merged.
    pub read_release: bool,
}

/// What `create-pool` did: the pool's outcome, and the operator install (its report, or
/// with a dry run nothing: the plan then holds the install's steps).
#[derive(Debug)]
pub struct CreatePoolResult {
    pub outcome: CreateOutcome,
    pub operator: Option<Installed>,
    /// With a dry run and the operator: the Helm values (YAML) its install would send.
    pub operator_values: Option<String>,
    /// With a dry run that read the release: the release and what the install changes in it.
    pub release: Option<super::operator::ReleaseView>,
}

/// Create the pool: the Windows feature first when asked, the pool, then the operator.
/// `on_feature` hears how the feature registration went; `started` is when the command began
/// (the whole run keeps to the request's timeout).
pub async fn create(
    client: &ArmClient,
    (catalog, cred): (&Catalog, Option<&Cred>),
    req: &CreatePoolRequest,
    (started, on_feature): (Instant, super::feature::OnFeature<'_>),
    (report, progress): (Report<'_>, &Progress),
) -> Result<CreatePoolResult, Error> {
    let (spec, timeout) = (&req.spec, req.options.timeout);
    let (reads, resolved) = operator_preflight(client, catalog, req).await?;
    let mut options = req.options.clone();
    let registration =
        feature_first(client, catalog, req, &mut options, (started + timeout, on_feature), (report, progress)).await?;
    let mut outcome = pool::create(client, catalog, spec, &options, report, progress).await?;
    if let (Some((first, said)), CreateOutcome::DryRun { plan, note, .. }) = (registration, &mut outcome) {
        plan.steps.splice(0..0, first.steps);
        *note = [said, note.take()].into_iter().flatten().reduce(|a, b| format!("{a}\nnote: {b}"));
    }
    if let CreateOutcome::DryRun { plan, .. } = &mut outcome {
        // The operator preflight's reads, first (as a real run sends them), unless planned already.
        let new: Vec<_> = reads.into_iter().filter(|r| !plan.steps.iter().any(|s| s.url == r.url)).collect();
        plan.steps.splice(0..0, new);
    }
    let (mut installed, mut operator_values, mut release) = (None, None, None);
    if let Some(op) = &req.operator {
        match &mut outcome {
            CreateOutcome::DryRun { plan, .. } => {
                let (steps, values, read) = dry_run_install(client, catalog, req, op, resolved.as_ref()).await?;
                plan.steps.extend(steps.steps);
                (operator_values, release) = (Some(values), read);
            }
            CreateOutcome::Created { .. } | CreateOutcome::Unchanged { .. } => {
                let Some(cred) = cred else {
                    return Err(Error::usage("no credentials for the operator install", None));
                };
                let left = timeout.saturating_sub(started.elapsed());
                let at = (client, &req.options.facts);
                installed = Some(super::operator::install(at, cred, catalog, op, left, (report, progress)).await?);
            }
            CreateOutcome::Accepted { .. } => {}
        }
    }
    Ok(CreatePoolResult { outcome, operator: installed, operator_values, release })
}

/// A dry run's operator install: resolved against the cluster's pools when preflight read them
/// (the install the run resolves), else against the pool alone; with `read_release`, the
/// release is read and the plan's `helm upgrade --install` is the one sent on it. Reading it
/// needs the pools read first: a dry run that read nothing refuses to guess.
async fn dry_run_install(
    client: &ArmClient,
    catalog: &Catalog,
    req: &CreatePoolRequest,
    op: &InstallRequest,
    resolved: Option<&Install>,
) -> Result<(Plan, String, Option<super::operator::ReleaseView>), Error> {
    let Some(install) = resolved else {
        if req.read_release {
            return Err(Error::Refused {
                message: "the GPU Operator's release is read on the cluster preflight reads, and this dry run read nothing (no credentials, or preflight skipped)".into(),
                hint: None,
            });
        }
        let (plan, values) = operator_plan(catalog, &req.spec, op)?;
        return Ok((plan, values, None));
    };
    let mut plan = operator::plan(op, install);
    if !req.read_release {
        return Ok((plan, install.values_yaml.clone(), None));
    }
    let view = super::operator::read_release(client, install, &plan, req.options.timeout).await?;
    super::operator::with_release(&mut plan, &view);
    Ok((plan, view.values_yaml.clone(), Some(view)))
}

/// With the operator: its install's refusal (a pool the release would strand, a mixed cluster's
/// missing labels), decided from the cluster and pools as read (the run's facts, which the
/// install reads anyway) with this pool as it will be created, before anything is written, so
/// that no pool is created for an install that then refuses. A dry run without credentials, or
/// with `--skip-preflight`, reads nothing and decides from the pool alone (`operator_plan`).
/// Returns the reads, for a dry run's plan, and the install as resolved (none: nothing read).
async fn operator_preflight(
    client: &ArmClient,
    catalog: &Catalog,
    req: &CreatePoolRequest,
) -> Result<(Vec<crate::plan::Step>, Option<Install>), Error> {
    let Some(op) = &req.operator else { return Ok((Vec::new(), None)) };
    let (dry_run, spec) = (req.options.dry_run, &req.spec);
    if !client.has_credentials() || (dry_run && req.options.skip_preflight) {
        return Ok((Vec::new(), None));
    }
    let (cluster, mut pools) = match operator::read(client, &req.options.facts, op).await {
        Ok(read) => read,
        Err(ArmError::Auth { .. }) if dry_run => return Ok((Vec::new(), None)),
        Err(e) => return Err(e.into()),
    };
    let at = crate::plan::cluster_path(&op.subscription, &op.resource_group, &op.cluster);
    let reads = vec![
        crate::plan::read_cluster(&at, "the cluster (the GPU Operator's preflight)"),
        crate::plan::read_pools(&at, "the cluster's pools (the GPU Operator's preflight)"),
    ];
    if resources::find_named(&pools, &spec.name).is_none() {
        let labelled = crate::plan::install::with_driver_label(catalog, spec, &pools);
        let spec = labelled.as_ref().map_or(spec, |(s, _)| s);
        pools.push(spec.as_read()?);
    }
    let install = operator::resolve(catalog, op, &cluster, &pools)
        .map_err(|r| Error::Refused { message: r.message, hint: r.hint })?;
    Ok((reads, Some(install)))
}

/// What a person reads before confirming a create with the operator on a terminal: the
/// operator's release as read, and what the install (resolved with the pool as it will be
/// created, as preflight resolves it) changes in its values. `None`: no operator, or nothing
/// read (preflight skipped).
pub async fn operator_release_preview(
    client: &ArmClient,
    (catalog, cred): (&Catalog, &Cred),
    req: &CreatePoolRequest,
) -> Result<Option<super::operator::ReleaseView>, Error> {
    let Some(op) = &req.operator else { return Ok(None) };
    let (_, Some(install)) = operator_preflight(client, catalog, req).await? else { return Ok(None) };
    let plan = operator::plan(op, &install);
    Ok(Some(super::operator::read_release_as_run(client, cred, (&install, &plan), req.options.timeout).await?))
}

/// With `--register-features` on a Windows pool, the preview feature comes first: a real run
/// registers it; a dry run plans its registration from the same reads, and when the feature
/// will be Registered by the time the real run's preflight reads it, says so in `options` (so
/// preflight does not refuse) and returns the steps and a note to put before the pool's.
async fn feature_first(
    client: &ArmClient,
    catalog: &Catalog,
    req: &CreatePoolRequest,
    options: &mut CreateOptions,
    (deadline, on_feature): (Instant, super::feature::OnFeature<'_>),
    (report, progress): (Report<'_>, &Progress),
) -> Result<Option<(Plan, Option<String>)>, Error> {
    let spec = &req.spec;
    let Some((name, ns)) = pool_feature(catalog, spec) else { return Ok(None) };
    if !req.register_feature {
        return Ok(None);
    }
    let feature = Feature { subscription: &spec.subscription, namespace: ns, name };
    if !options.dry_run {
        let out = super::feature::register(client, feature, deadline, report, progress).await?;
        on_feature(feature, &out);
        return Ok(None);
    }
    let (plan, registered_first) = super::feature::plan_register(client, feature).await?;
    options.feature_registered_first = registered_first;
    let note = registered_first.then(|| {
        format!(
            "{ns}/{name} is registered first (--register-features): preflight does not refuse the pool for \
             the feature's state before that; the plan shows the registration, then the pool"
        )
    });
    Ok(Some((plan, note)))
}

/// The preview feature a pool needs registered, if any: Windows GPU pools' and AKS-managed GPU
/// pools' (name, namespace), from the catalog's rules.
pub fn pool_feature<'c>(catalog: &'c Catalog, spec: &PoolSpec) -> Option<(&'c str, &'c str)> {
    if spec.os == Os::Windows {
        return catalog.windows_min_kubernetes().map(|(_, name, ns)| (name, ns));
    }
    if spec.managed_gpu() {
        return catalog.managed_gpu_feature().map(|(name, _)| (name, "Microsoft.ContainerService"));
    }
    None
}

/// The operator install's steps for a pool not yet created (a dry run): resolved against the
/// pool's own body.
pub fn operator_plan(catalog: &Catalog, spec: &PoolSpec, req: &InstallRequest) -> Result<(Plan, String), Error> {
    let pool = spec.as_read()?;
    let install: Install = operator::resolve(catalog, req, &Default::default(), &[pool])
        .map_err(|r| Error::Refused { message: r.message, hint: r.hint })?;
    Ok((operator::plan(req, &install), install.values_yaml))
}

/// Create one of a GpuConfig's pools: preflight, then the If-None-Match PUT and the wait, or
/// with `dry_run` the preflight reads and checks and the plan; with `fallbacks` the same
/// failover as `create-pool --fallback-vm-size`. The pool's existence comes from the
/// agentPools list in the run's facts (one list for every pool of the file).
pub async fn create_with_fallbacks(
    (client, facts): (&ArmClient, &Store),
    catalog: &Catalog,
    (spec, fallbacks): (&PoolSpec, &[PoolSpec]),
    (location, (dry_run, skip_preflight), timeout): (Option<String>, (bool, bool), Duration),
    (report, progress): (Report<'_>, &Progress),
) -> Result<CreateOutcome, Error> {
    use crate::provision::failover::{self, Failover, Policy, Stopped};
    let opts = CreateOptions {
        dry_run,
        no_wait: false,
        skip_preflight,
        timeout,
        location,
        abort_on_interrupt: false,
        facts: facts.clone(),
        pools_listed: true,
        feature_registered_first: false,
    };
    if fallbacks.is_empty() || dry_run {
        return Ok(pool::create(client, catalog, spec, &opts, report, progress).await?);
    }
    let candidates: Vec<PoolSpec> = std::iter::once(spec.clone()).chain(fallbacks.iter().cloned()).collect();
    let policy = Policy { max_attempts: None, fallback_on_demand: false };
    match failover::create(client, catalog, candidates, &opts, policy, report, progress).await {
        Ok(Failover::Existing(o)) => Ok(o),
        Ok(Failover::Done { created: Some(c), location, .. }) => Ok(CreateOutcome::Created { pool: c.pool, location }),
        Ok(Failover::Done { attempts, .. }) => Err(Error::NoFit {
            message: format!(
                "pool {}: no size could be created ({})",
                spec.name,
                attempts
                    .iter()
                    .map(|t| format!("{} {}", t.vm_size, t.code.as_deref().unwrap_or(t.outcome.word())))
                    .collect::<Vec<_>>()
                    .join("; ")
            )
            .into(),
            hint: Some("see `aksgpu quota show`, reserve capacity, or try another region".into()),
        }),
        Ok(Failover::DryRun { plan, location, .. }) => {
            Ok(CreateOutcome::DryRun { plan, facts_read: true, note: None, location })
        }
        Err(Stopped { error, .. }) => Err(error.into()),
    }
}

/// The pool as the cost module prices it.
pub fn pricing(spec: &PoolSpec) -> crate::cost::PoolPricing<'_> {
    crate::cost::PoolPricing {
        pool: &spec.name,
        size: &spec.size.name,
        os: spec.os,
        spot: spec.spot,
        min_nodes: spec.min_nodes(),
        max_nodes: spec.max_nodes(),
    }
}

/// `create-pool` with failover: each candidate in turn (after a capacity or quota refusal),
/// within `policy`; the attempts say what happened to each.
pub async fn failover(
    client: &ArmClient,
    catalog: &Catalog,
    (candidates, opts, policy): (Vec<PoolSpec>, &CreateOptions, crate::provision::failover::Policy),
    (report, progress): (Report<'_>, &Progress),
) -> Result<crate::provision::failover::Failover, crate::provision::failover::Stopped> {
    crate::provision::failover::create(client, catalog, candidates, opts, policy, report, progress).await
}

/// The pool a wizard's answer leads to when it asks for an AKS-managed GPU pool: the
/// first-ranked NVIDIA size of `o` on Linux, as the same typed request `create-pool
/// --managed-gpu` and a GpuConfig's `managedGpu: true` map into, validated by the same rules
/// (NVIDIA on Linux, the AKS driver, no autoscaler, ...). `None`: no NVIDIA size was ranked.
pub fn managed_gpu_pool(
    catalog: &Catalog,
    o: &crate::recommend::Ranking,
    spot: bool,
) -> Option<Result<PoolSpec, RequestError>> {
    let top = o.recommendations.iter().find(|r| r.gpu_vendor == crate::catalog::Vendor::Nvidia)?;
    let req = PoolRequest {
        managed_gpu: true,
        os: Some(Os::Linux),
        spot,
        deployment: Some(deployment(top)),
        ..PoolRequest::example(&top.vm_size)
    };
    Some(validate(catalog, &req))
}

/// What Azure returned for a created pool. A field it did not return is `None` (`null` in
/// JSON), never filled in with what was asked for; the autoscaler bounds are the request's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CreatedPool {
    pub pool_id: String,
    pub provisioning_state: Option<String>,
    pub vm_size: Option<String>,
    pub count: Option<u32>,
    pub min_count: Option<u32>,
    pub max_count: Option<u32>,
    pub node_taints: Option<Vec<String>>,
    pub gpu_driver: String,
    pub mig_profile: Option<String>,
}

/// The created pool as Azure returned it, read typed.
pub fn created_pool(spec: &PoolSpec, pool: &Value) -> Result<CreatedPool, Error> {
    let typed: crate::resources::AgentPool =
        crate::resources::parse(pool, "the created agent pool").map_err(|e| Error::refused(e.to_string(), None))?;
    let p = &typed.properties;
    // `gpuProfile.driver` left out is the API's default, Install (managedClusters.json:
    // "When it's not specified, default is Install"): Azure's documented state, not the request.
    let driver = p.gpu_profile.as_ref().and_then(|g| g.driver.clone()).unwrap_or_else(|| "Install".to_owned());
    Ok(CreatedPool {
        pool_id: typed.id.clone().unwrap_or_else(|| spec.path()),
        provisioning_state: p.provisioning_state.clone(),
        vm_size: p.vm_size.clone(),
        count: p.count,
        min_count: spec.autoscale.map(|x| x.0),
        max_count: spec.autoscale.map(|x| x.1),
        node_taints: p.node_taints.clone(),
        gpu_driver: driver,
        mig_profile: p.gpu_instance_profile.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::setting::Setting;

    /// `--no-wait` on a busy pool reads as an ARM pending error did: pending, `what: message`,
    /// and the resume command worded with the CLI's flags.
    #[test]
    fn a_pool_not_waited_for_is_pending_with_its_resume_command() {
        let e = Error::from(CreateError::Pending {
            what: "pool gpu in cluster c".into(),
            message: Words::new("pool gpu is Scaling: busy; not waiting ({0})", &[Setting::NoWait]),
            resume: crate::plan::wait_command("s", "rg", "c", "gpu"),
        });
        assert!(matches!(e, Error::Pending { .. }), "{e:?}");
        assert_eq!(e.to_string(), "pool gpu in cluster c: pool gpu is Scaling: busy; not waiting (--no-wait)");
        assert_eq!(e.hint().as_deref(), Some("resume with: aksgpu wait --subscription s -g rg --cluster c --name gpu"));
    }
}
