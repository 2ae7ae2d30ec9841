//! The `cost` workflow: what a size, or every GPU pool of a cluster, costs at its node counts,
//! with the whole-GPU waste and the advice (`cost::estimate`).

use std::time::SystemTime;

use serde::Serialize;

use crate::catalog::Catalog;
use crate::cost::{self, CostInput};

pub use crate::cost::{plan_cost, sum_cents, CostReport, Money, PlanCost, PlanPricing, PoolPricing};
use crate::domain::did_you_mean;
use crate::domain::setting::{Setting, Words};
use crate::error::Error;
use crate::pricing::PriceSource;
use crate::recommend::Os;
use crate::resources::{self, AgentPool, MissingField};

/// How the pools are used: what the workload needs of each node, and the hours it runs.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Usage {
    /// GPU memory per GPU the workload needs, GiB [default: all of it].
    pub need_gpu_memory_gib: Option<f64>,
    /// GPUs per node the workload needs [default: all of them].
    pub need_gpus: Option<f64>,
    /// Hours a day the nodes run.
    pub hours_per_day: f64,
}

/// `cost --vm-size`: one size at the asked node counts.
#[derive(Debug, Clone, PartialEq)]
pub struct SizeCost {
    pub vm_size: String,
    pub count: Option<u32>,
    pub min_count: Option<u32>,
    pub max_count: Option<u32>,
    pub os: Option<Os>,
    pub spot: bool,
}

/// What `cost` shows: one report per pool and the totals.
#[derive(Debug, Serialize)]
pub struct CostView {
    pub currency: String,
    pub price_source: PriceSource,
    pub pools: Vec<CostReport>,
    /// The whole total; `None` when any pool's price is unknown.
    pub total_monthly_at_min: Option<f64>,
    pub total_monthly_at_max: Option<f64>,
    /// The total of the pools whose price is known: with `unpriced_pools` above 0, the
    /// cluster costs at least this.
    pub known_monthly_at_min: Option<f64>,
    pub known_monthly_at_max: Option<f64>,
    /// Pools whose price is unknown (left out of the known totals).
    pub unpriced_pools: usize,
    /// On stderr for `-o table`.
    pub notes: Vec<String>,
}

/// One size's report.
pub fn size_report(catalog: &Catalog, a: &SizeCost, u: Usage, region: Option<String>) -> Result<CostReport, Error> {
    let name = &a.vm_size;
    let size = catalog.size(name).ok_or_else(|| {
        let message = Words::new(format!("{{0}} {name:?} is not in the catalog"), &[Setting::VmSize]);
        Error::usage(message, did_you_mean(&catalog.suggest_sizes(name)))
    })?;
    let (min, max) = match (a.count, a.min_count, a.max_count) {
        (_, Some(lo), Some(hi)) if lo > hi => {
            let message =
                Words::new(format!("{{0}} {lo} is larger than {{1}} {hi}"), &[Setting::MinCount, Setting::MaxCount]);
            return Err(Error::usage(message, None));
        }
        (_, Some(lo), Some(hi)) => (lo, hi),
        (Some(c), _, _) => (c, c),
        _ => (1, 1),
    };
    let input = CostInput {
        need_gpu_memory_gib: u.need_gpu_memory_gib.unwrap_or(size.gpu_memory_per_gpu_gib),
        need_gpus: u.need_gpus.unwrap_or(size.gpu_count.value()),
        size: size.clone(),
        pool: None,
        min_nodes: min,
        max_nodes: max,
        os: a.os.unwrap_or(Os::Linux),
        spot: a.spot,
        region,
        hours_per_day: u.hours_per_day,
        deallocate: false,
        mig_profile: None,
    };
    Ok(cost::estimate(catalog, &input))
}

/// One pool as read, as the cost module prices it (none for a size the catalog lacks: not a
/// GPU pool).
fn pool_input(
    catalog: &Catalog,
    typed: &AgentPool,
    region: Option<String>,
    u: Usage,
) -> Result<Option<CostInput>, MissingField> {
    let p = &typed.properties;
    let Some(size) = p.vm_size.as_deref().and_then(|s| catalog.size(s)).cloned() else { return Ok(None) };
    let (min, max) = typed.node_range()?;
    // Exact case, as before: `Spot` and `Deallocate` are how Azure spells them.
    let spot = p.scale_set_priority.as_deref() == Some("Spot");
    Ok(Some(CostInput {
        need_gpu_memory_gib: u.need_gpu_memory_gib.unwrap_or(size.gpu_memory_per_gpu_gib),
        need_gpus: u.need_gpus.unwrap_or(size.gpu_count.value()),
        pool: typed.name.clone(),
        min_nodes: min,
        max_nodes: max,
        os: if typed.is_windows() { Os::Windows } else { Os::Linux },
        spot,
        region,
        hours_per_day: u.hours_per_day,
        deallocate: p.scale_down_mode.as_deref() == Some("Deallocate")
            || (spot && p.scale_set_eviction_policy.as_deref() == Some("Deallocate")),
        mig_profile: p.gpu_instance_profile.clone(),
        size,
    }))
}

/// Every GPU pool of `cluster` as read (`c` the cluster, `pools` its agent pools), priced in
/// `region` or the cluster's location; `notes` hears a stopped cluster or one without GPU pools.
pub fn cluster_reports(
    catalog: &Catalog,
    (cluster, c, pools): (&str, &resources::ManagedCluster, &[AgentPool]),
    u: Usage,
    region: Option<String>,
    notes: &mut Vec<String>,
) -> Result<Vec<CostReport>, Error> {
    let region = region.or_else(|| c.location().ok());
    if c.power().is_ok_and(|p| p == "Stopped") {
        notes.push(format!("cluster {cluster} is stopped: its nodes cost nothing until it starts (disks still do)"));
    }
    let mut r = Vec::new();
    for pool in pools {
        let input = pool_input(catalog, pool, region.clone(), u).map_err(|field| Error::Missing {
            field,
            hint: Some("run again; if it persists, `az aks nodepool show` shows what Azure returns".into()),
        })?;
        r.extend(input.map(|i| cost::estimate(catalog, &i)));
    }
    if r.is_empty() {
        notes.push(format!("cluster {cluster} has no GPU pool"));
    }
    Ok(r)
}

/// `cost --cluster`: read the cluster and its pools (GETs only), then [`cluster_reports`].
pub async fn read_cluster_reports(
    (client, subscription): (&crate::arm::ArmClient, &str),
    catalog: &Catalog,
    (resource_group, cluster): (&str, &str),
    (u, region): (Usage, Option<String>),
    notes: &mut Vec<String>,
) -> Result<Vec<CostReport>, Error> {
    let facts = crate::provision::facts::Store::with_cache_dir();
    let (c, pools) =
        crate::provision::read_cluster_and_pools(client, &facts, subscription, resource_group, cluster).await?;
    let pools: Vec<AgentPool> = pools.into_iter().map(|p| p.item).collect();
    cluster_reports(catalog, (cluster, &c.item, &pools), u, region, notes)
}

/// The view of `reports` priced from `source`, with each report's price age and the notes a
/// bundled price needs: where prices come from (the cache only for the sizes and regions it
/// holds), and the stale-price and missing-price notes whenever a report is priced from the
/// bundled table, whatever else the cache holds.
pub fn view(catalog: &Catalog, source: PriceSource, mut reports: Vec<CostReport>, notes: Vec<String>) -> CostView {
    let now = SystemTime::now();
    for r in &mut reports {
        r.price_age_days = r.price_date.as_deref().and_then(|d| cost::age_days(d, now));
    }
    let bundled: Vec<&CostReport> = reports.iter().filter(|r| !r.price_unknown && !r.price_live).collect();
    let mut said = vec![match &source {
        PriceSource::Cache { .. } if !bundled.is_empty() => format!(
            "prices: {} for the sizes and regions it holds; the others from the bundled table (as of {})",
            source.describe(),
            catalog.prices.as_of
        ),
        _ => format!("prices: {}", source.describe()),
    }];
    said.extend(notes);
    let notes = &mut said;
    if !bundled.is_empty() || matches!(source, PriceSource::Bundled { .. }) {
        notes.extend(cost::stale_note(&catalog.prices.as_of, now));
    }
    let gaps = |r: &CostReport| r.price_kind.contains("spot") || r.price_kind.contains("windows");
    if reports.iter().filter(|r| !r.price_live).any(gaps) {
        notes.push(cost::OFFLINE_GAPS.to_owned());
    }
    let known = |f: fn(&CostReport) -> Option<f64>| cost::sum_cents(reports.iter().filter_map(f).map(Some));
    CostView {
        currency: catalog.prices.currency.clone(),
        total_monthly_at_min: cost::sum_cents(reports.iter().map(|r| r.at_min.monthly)),
        total_monthly_at_max: cost::sum_cents(reports.iter().map(|r| r.at_max.monthly)),
        known_monthly_at_min: known(|r| r.at_min.monthly),
        known_monthly_at_max: known(|r| r.at_max.monthly),
        unpriced_pools: reports.iter().filter(|r| r.at_min.monthly.is_none()).count(),
        price_source: source,
        pools: reports,
        notes: said,
    }
}
