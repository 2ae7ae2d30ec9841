//! The workflows that change an existing cluster or pool: `cluster stop|start`,
//! `cost-analysis enable`, `pool scale` and `kaito enable`. Each is a read, then one write
//! built from what was read; a dry run builds the write from placeholders instead.

use std::time::Duration;

use serde_json::Value;

use crate::arm::ArmClient;
use crate::catalog::Catalog;
use crate::cost::{PlanPricing, PoolPricing};
use crate::error::Error;
pub use crate::plan::cluster::Scale;

/// Why the counts asked of `pool scale` are not a scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScaleAskError {
    /// The autoscaler minimum is above its maximum.
    MinAboveMax { min: u32, max: u32 },
    /// Neither a fixed count nor both autoscaler bounds (or both at once).
    Neither,
}

/// The scale the counts ask for: a fixed count alone, or both autoscaler bounds with the
/// minimum at most the maximum.
pub fn scale_of(count: Option<u32>, min: Option<u32>, max: Option<u32>) -> Result<Scale, ScaleAskError> {
    match (count, min, max) {
        (Some(c), None, None) => Ok(Scale::Count(c)),
        (None, Some(min), Some(max)) if min > max => Err(ScaleAskError::MinAboveMax { min, max }),
        (None, Some(min), Some(max)) => Ok(Scale::Autoscale { min, max }),
        _ => Err(ScaleAskError::Neither),
    }
}
use crate::plan::cluster_ops::{self as plan, Target};
use crate::provision::cluster_ops::{self, OpsError, Run};
pub use crate::provision::cluster_ops::{ClusterChange, ScaleRead};
use crate::provision::kaito;
use crate::resources::{AgentPool, ManagedCluster};

pub use crate::provision::kaito::KaitoEnable;
use crate::provision::Progress;
use crate::recommend::Os;

use super::Report;

/// The cluster a workflow acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterRequest {
    pub subscription: String,
    pub resource_group: String,
    pub cluster: String,
    /// How long to wait for Azure.
    pub timeout: Duration,
}

impl ClusterRequest {
    fn target(&self) -> Target<'_> {
        Target { subscription: &self.subscription, resource_group: &self.resource_group, cluster: &self.cluster }
    }
}

/// What to change on the cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClusterAction {
    /// `cluster start` (true) or `cluster stop` (false).
    Power { start: bool },
    /// `cost-analysis enable`.
    CostAnalysis,
    /// `pool scale`: a pool to a count or autoscaler bounds.
    Scale { pool: String, how: Scale },
}

impl From<OpsError> for Error {
    fn from(e: OpsError) -> Self {
        match e {
            OpsError::Arm(a) => Error::from(a),
            OpsError::Refused(m) => Error::refused(m, None),
            OpsError::Missing(m) => Error::from(m),
            OpsError::Change(c) => Error::from(c),
        }
    }
}

/// The plan of `action` from the request alone: no credential is needed, nothing is read or
/// sent, and what a real run reads first shows as a placeholder.
pub fn dry_run(req: &ClusterRequest, action: &ClusterAction) -> Result<ClusterChange, Error> {
    let t = req.target();
    let plan = match action {
        ClusterAction::Power { start } => Ok(plan::power(t, *start)),
        ClusterAction::CostAnalysis => plan::cost_analysis(t, &plan::cluster_stand_in()),
        ClusterAction::Scale { pool, how } => plan::scale(t, pool, &plan::pool_stand_in(), *how),
    }?;
    Ok(ClusterChange::DryRun(plan))
}

/// Read, then send the one write `action` needs and wait for it (nothing is sent when the
/// cluster is already as asked).
pub async fn run(
    client: &ArmClient,
    req: &ClusterRequest,
    action: &ClusterAction,
    (report, started): (Report<'_>, &Progress),
) -> Result<ClusterChange, Error> {
    execute(client, req, action, Run { dry_run: false, timeout: req.timeout }, (report, started)).await
}

/// A dry run with credentials: the reads a real run makes (GETs only), and the write it would
/// send built from what they returned.
pub async fn dry_run_read(
    client: &ArmClient,
    req: &ClusterRequest,
    action: &ClusterAction,
) -> Result<ClusterChange, Error> {
    let run = Run { dry_run: true, timeout: req.timeout };
    execute(client, req, action, run, (&|_| {}, &Progress::default())).await
}

async fn execute(
    client: &ArmClient,
    req: &ClusterRequest,
    action: &ClusterAction,
    run: Run,
    (report, started): (Report<'_>, &Progress),
) -> Result<ClusterChange, Error> {
    let t = req.target();
    Ok(match action {
        ClusterAction::Power { start } => cluster_ops::power(client, t, *start, run, report, started).await?,
        ClusterAction::CostAnalysis => cluster_ops::cost_analysis(client, t, run, report, started).await?,
        ClusterAction::Scale { pool, how } => cluster_ops::scale(client, t, pool, *how, run, report, started).await?,
    })
}

/// `pool scale --dry-run` with credentials: the pool (its counts, eTag, size) and its cluster
/// (the region, for the cost), read once, GETs only.
pub async fn read_pool_and_cluster(client: &ArmClient, req: &ClusterRequest, pool: &str) -> Result<ScaleRead, Error> {
    Ok(cluster_ops::read_pool_and_cluster(client, req.target(), pool).await?)
}

/// `pool scale --dry-run`: the plan from the pool and cluster as read (`read`, with
/// credentials) or with placeholders (`None`); `Unchanged` when the pool as read already has
/// these counts.
pub fn scale_plan(
    req: &ClusterRequest,
    pool: &str,
    how: Scale,
    read: Option<&ScaleRead>,
) -> Result<ClusterChange, Error> {
    let current = read.map_or_else(plan::pool_stand_in, |r| r.pool.clone());
    let steps = plan::scale(req.target(), pool, &current, how)?;
    let body = steps.step(crate::plan::StepKind::UpdatePool).and_then(|s| s.body.clone()).unwrap_or_default();
    let writable = crate::plan::cluster::writable_pool(&current);
    if read.is_some() && crate::plan::cluster::differences(&writable, &body).is_empty() {
        return Ok(ClusterChange::Unchanged(format!("pool {pool} already has these counts")));
    }
    Ok(ClusterChange::DryRun(steps))
}

/// `kaito enable`: a dry run's plan from the request alone, with placeholders.
pub fn kaito_dry_run(req: &ClusterRequest) -> KaitoEnable {
    KaitoEnable::DryRun(plan::kaito(req.target(), &plan::cluster_stand_in()))
}

/// `kaito enable`: turn on KAITO and the OIDC issuer (nothing is sent when they are on).
pub async fn kaito_enable(
    client: &ArmClient,
    req: &ClusterRequest,
    (report, started): (Report<'_>, &Progress),
) -> Result<KaitoEnable, Error> {
    let run = Run { dry_run: false, timeout: req.timeout };
    Ok(kaito::enable(client, req.target(), run, report, started).await?)
}

/// `kaito enable --dry-run` with credentials: the cluster is read (a GET) and the plan is the
/// one a real run sends.
pub async fn kaito_dry_run_read(client: &ArmClient, req: &ClusterRequest) -> Result<KaitoEnable, Error> {
    let run = Run { dry_run: true, timeout: req.timeout };
    Ok(kaito::enable(client, req.target(), run, &|_| {}, &Progress::default()).await?)
}

/// Why a `pool scale` dry run without credentials cannot price the new counts.
pub const SCALE_UNREAD: &str = "needs the pool's size and region (read with credentials)";

/// The node counts a scale asks for: (minimum, maximum).
pub fn scale_counts(how: Scale) -> (u32, u32) {
    match how {
        Scale::Count(c) => (c, c),
        Scale::Autoscale { min, max } => (min, max),
    }
}

/// What pool `name` costs at the counts `how` asks for, from the pool and the cluster as read
/// (its size, OS and priority; the cluster's region).
pub fn scale_cost(catalog: &Catalog, name: &str, how: Scale, p: &AgentPool, cluster: &ManagedCluster) -> PlanPricing {
    let counts = scale_counts(how);
    let Some(vm) = p.properties.vm_size.as_deref() else {
        return PlanPricing::unread(catalog, &[(name, counts)], "Azure did not send the pool's vmSize");
    };
    let size = catalog.size(vm).map_or_else(|| vm.to_owned(), |s| s.name.clone());
    let os = if p.is_windows() { Os::Windows } else { Os::Linux };
    let spot = p.is_spot();
    let region = cluster.location().ok();
    let pricing = PoolPricing { pool: name, size: &size, os, spot, min_nodes: counts.0, max_nodes: counts.1 };
    PlanPricing::new(catalog, &[pricing], region.as_deref())
        .region_unknown_because("Azure did not send the cluster's location")
}

/// The power state a cluster Azure returned is in (`None`: it sent none, or a body of another
/// shape): what `cluster stop|start` reports, never the state asked for.
pub fn power_state(v: &Value) -> Option<String> {
    crate::resources::parse::<crate::resources::ManagedCluster>(v, "cluster").ok()?.power().ok()
}

/// The counts of a pool Azure returned after a scale, each `None` where it sent none, and the
/// subscription in its resource id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScaledPool {
    pub subscription: Option<String>,
    pub autoscale: bool,
    pub count: Option<u32>,
    pub min: Option<u32>,
    pub max: Option<u32>,
}

/// The counts of the pool Azure returned (`None`: a body that is not a pool).
pub fn scaled_pool(v: &Value) -> Option<ScaledPool> {
    let pool = crate::resources::parse::<crate::resources::AgentPool>(v, "agent pool").ok()?;
    let p = pool.properties;
    Some(ScaledPool {
        subscription: pool.id.and_then(|id| id.split('/').nth(2).map(str::to_owned)),
        autoscale: p.enable_auto_scaling == Some(true),
        count: p.count,
        min: p.min_count,
        max: p.max_count,
    })
}

/// The OIDC issuer URL and the provisioning state of a cluster Azure returned, each `None`
/// where it sent none (or a body that is not a cluster).
pub fn issuer_and_state(v: &Value) -> (Option<String>, Option<String>) {
    match crate::resources::parse::<crate::resources::ManagedCluster>(v, "cluster") {
        Ok(c) => (c.properties.oidc_issuer_profile.and_then(|o| o.issuer_url), c.properties.provisioning_state),
        Err(_) => (None, None),
    }
}

/// The node image warning of the pool a `pool scale` dry run read (see
/// `plan::preflight::node_image_warning`).
pub fn read_node_image_warning(catalog: &Catalog, read: &ScaleRead, at: (&str, &str, &str)) -> Option<String> {
    crate::plan::preflight::node_image_warning(catalog, &read.pool, at)
}

/// The node image warning of a pool shown as read (see `plan::preflight::node_image_warning`);
/// none for a body that is not a pool (a warning only, never a refusal).
pub fn node_image_warning(catalog: &Catalog, pool: &Value, at: (&str, &str, &str)) -> Option<String> {
    let typed: crate::resources::AgentPool = crate::resources::parse(pool, "agent pool").ok()?;
    crate::plan::preflight::node_image_warning(catalog, &typed, at)
}
