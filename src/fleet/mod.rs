//! The fleet view, pure: every GPU pool of the clusters Resource Graph returned, priced from the
//! price table, with the findings of the catalog's rules (`findings`), and what the pools really
//! did from Prometheus (`usage`: PromQL, step, aggregation, advice). No I/O, no flags.

pub mod findings;
pub mod usage;

use serde::Serialize;

use crate::catalog::{Catalog, Severity};
use crate::cost;
use crate::domain::Os;
use crate::resources::fleet::{ClusterRow, PoolProfile};
use crate::resources::MissingField;

pub use findings::Finding;

/// The Resource Graph query: every managed cluster, one row each, with the columns the fleet
/// view reads (GPU pools are picked from `agentPoolProfiles` client-side, with the catalog).
pub const CLUSTERS_QUERY: &str = "Resources | where type =~ 'microsoft.containerservice/managedclusters' \
| project id, name, type, location, subscriptionId, resourceGroup, tags, properties";

/// One GPU pool as `fleet` shows it. A field Azure did not send is `null`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetPool {
    pub subscription_id: String,
    pub resource_group: String,
    pub cluster: String,
    pub location: String,
    pub pool: String,
    pub vm_size: String,
    pub gpu_model: String,
    pub gpus_per_node: f64,
    pub count: Option<u32>,
    pub min_count: Option<u32>,
    pub max_count: Option<u32>,
    pub autoscaling: bool,
    pub spot: bool,
    pub os: Option<String>,
    pub gpu_driver: Option<String>,
    pub managed_gpu: Option<bool>,
    pub mig_profile: Option<String>,
    pub node_image_version: Option<String>,
    pub kubernetes_version: Option<String>,
    pub power_state: Option<String>,
    pub provisioning_state: Option<String>,
    /// List price × current count per hour; 0 while the cluster is stopped.
    pub hourly_cost_now: Option<f64>,
    /// List price × current count × 730 h; 0 while the cluster is stopped.
    pub monthly_cost_now: Option<f64>,
    /// List price × the autoscaler maximum (or the count) × 730 h.
    pub monthly_cost_at_max: Option<f64>,
    /// The node's hourly list price in its region.
    pub node_hourly_price: Option<f64>,
    pub price_date: Option<String>,
    pub findings: Vec<Finding>,
}

/// One cluster the query returned.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetCluster {
    pub id: String,
    pub subscription_id: String,
    pub resource_group: String,
    pub name: String,
    pub location: String,
    pub power_state: Option<String>,
    pub kubernetes_version: Option<String>,
    pub metrics_enabled: Option<bool>,
    pub gpu_pools: usize,
}

/// The prices the view uses: the table's currency and date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriceBasis {
    pub currency: String,
    pub date: String,
}

/// True when the cluster (or the pool) is stopped: its nodes cost nothing.
fn stopped(row: &ClusterRow, p: &PoolProfile) -> bool {
    let is = |s: Option<&str>| s.is_some_and(|s| s.eq_ignore_ascii_case("Stopped"));
    is(row.power()) || is(p.power())
}

/// The GPU pools of one cluster row (pools whose size the catalog knows: the catalog holds GPU
/// sizes only), each with its findings. A pool without a name or size is reported in `skipped`.
pub fn gpu_pools(
    catalog: &Catalog,
    row: &ClusterRow,
    basis: &PriceBasis,
    skipped: &mut Vec<String>,
) -> Result<(FleetCluster, Vec<FleetPool>), MissingField> {
    let (id, name) = (row.id()?, row.name()?);
    let (sub, rg, location) = (row.subscription()?, row.resource_group()?, row.location()?);
    let mut out = Vec::new();
    for p in row.pools()? {
        let (pool, vm_size) = match (p.name(), p.vm_size()) {
            (Ok(n), Ok(s)) => (n, s),
            (Err(e), _) | (_, Err(e)) => {
                skipped.push(format!("{id}: {e}"));
                continue;
            }
        };
        let Some(size) = catalog.size(&vm_size) else { continue };
        let os = if p.windows() { Os::Windows } else { Os::Linux };
        let (price, _, _) = cost::node_price(catalog, &size.name, Some(&location), os, p.spot());
        let off = stopped(row, p);
        let now =
            |f: fn(Option<f64>, u32) -> Option<f64>| p.count.and_then(|c| if off { Some(0.0) } else { f(price, c) });
        let at_max = if p.autoscaling() { p.max_count } else { p.count };
        let mut fp = FleetPool {
            subscription_id: sub.clone(),
            resource_group: rg.clone(),
            cluster: name.clone(),
            location: location.clone(),
            pool,
            vm_size: size.name.clone(),
            gpu_model: size.gpu_model.to_string(),
            gpus_per_node: size.gpu_count.value(),
            count: p.count,
            min_count: if p.autoscaling() { p.min_count } else { None },
            max_count: if p.autoscaling() { p.max_count } else { None },
            autoscaling: p.autoscaling(),
            spot: p.spot(),
            os: p.os_type.clone(),
            gpu_driver: p.gpu_driver().map(str::to_owned),
            managed_gpu: p.managed_gpu(),
            mig_profile: p.mig_profile(),
            node_image_version: p.node_image_version.clone(),
            kubernetes_version: p.kubernetes_version().or(row.kubernetes_version()).map(str::to_owned),
            power_state: p.power().or(row.power()).map(str::to_owned),
            provisioning_state: p.provisioning_state.clone(),
            hourly_cost_now: now(cost::hourly),
            monthly_cost_now: now(cost::monthly),
            monthly_cost_at_max: at_max.and_then(|n| cost::monthly(price, n)),
            node_hourly_price: price,
            price_date: price.map(|_| basis.date.clone()),
            findings: Vec::new(),
        };
        fp.findings = findings::for_pool(catalog, size, &fp, &basis.currency);
        out.push(fp);
    }
    let cluster = FleetCluster {
        id,
        subscription_id: sub,
        resource_group: rg,
        name,
        location,
        power_state: row.power().map(str::to_owned),
        kubernetes_version: row.kubernetes_version().map(str::to_owned),
        metrics_enabled: row.metrics_enabled(),
        gpu_pools: out.len(),
    };
    Ok((cluster, out))
}

/// The fleet's totals.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetTotals {
    pub subscriptions: usize,
    pub clusters: usize,
    pub gpu_pools: usize,
    /// Nodes the pools run now (pools whose count Azure sent).
    pub nodes: u64,
    /// GPUs those nodes hold.
    pub gpus: f64,
    pub hourly_cost_now: Option<f64>,
    pub monthly_cost_now: Option<f64>,
    pub monthly_cost_at_max: Option<f64>,
    pub currency: String,
    pub findings: FindingCounts,
}

/// Findings by severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct FindingCounts {
    pub error: usize,
    pub warning: usize,
    pub info: usize,
}

/// The totals over `pools`; a cost is `None` when any pool's is unknown.
pub fn totals(pools: &[FleetPool], subscriptions: usize, clusters: usize, currency: &str) -> FleetTotals {
    let mut f = FindingCounts::default();
    for x in pools.iter().flat_map(|p| &p.findings) {
        match x.severity {
            Severity::Error => f.error += 1,
            Severity::Warning => f.warning += 1,
            Severity::Info => f.info += 1,
        }
    }
    let nodes: u64 = pools.iter().filter_map(|p| p.count).map(u64::from).sum();
    FleetTotals {
        subscriptions,
        clusters,
        gpu_pools: pools.len(),
        nodes,
        gpus: pools.iter().filter_map(|p| p.count.map(|c| f64::from(c) * p.gpus_per_node)).sum(),
        hourly_cost_now: cost::sum_cents(pools.iter().map(|p| p.hourly_cost_now)),
        monthly_cost_now: cost::sum_cents(pools.iter().map(|p| p.monthly_cost_now)),
        monthly_cost_at_max: cost::sum_cents(pools.iter().map(|p| p.monthly_cost_at_max)),
        currency: currency.to_owned(),
        findings: f,
    }
}

/// The worst severity among the findings, if any.
pub fn worst(pools: &[FleetPool]) -> Option<Severity> {
    pools.iter().flat_map(|p| &p.findings).map(|f| f.severity).max()
}
