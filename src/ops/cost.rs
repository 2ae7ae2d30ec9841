//! The `cost` workflow: what a size, or every GPU pool of a cluster, costs at its node counts,
//! with the whole-GPU waste and the advice (`cost::estimate`).

use std::time::SystemTime;

use serde::Serialize;
use serde_json::Value;

use crate::catalog::Catalog;
use crate::cost::{self, CostInput, CostReport};
use crate::error::{did_you_mean, Error};
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
    pub total_monthly_at_min: Option<f64>,
    pub total_monthly_at_max: Option<f64>,
    /// On stderr for `-o table`.
    pub notes: Vec<String>,
}

/// One size's report.
pub fn size_report(catalog: &Catalog, a: &SizeCost, u: Usage, region: Option<String>) -> Result<CostReport, Error> {
    let name = &a.vm_size;
    let size = catalog.size(name).ok_or_else(|| {
        Error::usage(format!("--vm-size {name:?} is not in the catalog"), did_you_mean(&catalog.suggest_sizes(name)))
    })?;
    let (min, max) = match (a.count, a.min_count, a.max_count) {
        (_, Some(lo), Some(hi)) if lo > hi => {
            return Err(Error::usage(format!("--min-count {lo} is larger than --max-count {hi}"), None));
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
    pool: &Value,
    region: Option<String>,
    u: Usage,
) -> Result<Option<CostInput>, MissingField> {
    let p = &pool["properties"];
    let Some(size) = p["vmSize"].as_str().and_then(|s| catalog.size(s)).cloned() else { return Ok(None) };
    let typed: AgentPool = resources::parse(pool, "agent pool")?;
    let (min, max) = typed.node_range()?;
    let spot = p["scaleSetPriority"].as_str() == Some("Spot");
    Ok(Some(CostInput {
        need_gpu_memory_gib: u.need_gpu_memory_gib.unwrap_or(size.gpu_memory_per_gpu_gib),
        need_gpus: u.need_gpus.unwrap_or(size.gpu_count.value()),
        pool: pool["name"].as_str().map(str::to_owned),
        min_nodes: min,
        max_nodes: max,
        os: if p["osType"].as_str().is_some_and(|o| o.eq_ignore_ascii_case("Windows")) {
            Os::Windows
        } else {
            Os::Linux
        },
        spot,
        region,
        hours_per_day: u.hours_per_day,
        deallocate: p["scaleDownMode"].as_str() == Some("Deallocate")
            || (spot && p["scaleSetEvictionPolicy"].as_str() == Some("Deallocate")),
        mig_profile: p["gpuInstanceProfile"].as_str().map(str::to_owned),
        size,
    }))
}

/// Every GPU pool of `cluster` as read (`c` the cluster, `pools` its agent pools), priced in
/// `region` or the cluster's location; `notes` hears a stopped cluster or one without GPU pools.
pub fn cluster_reports(
    catalog: &Catalog,
    (cluster, c, pools): (&str, &Value, &[Value]),
    u: Usage,
    region: Option<String>,
    notes: &mut Vec<String>,
) -> Result<Vec<CostReport>, Error> {
    let region = region.or_else(|| crate::plan::preflight::location(c));
    if c.pointer("/properties/powerState/code").and_then(Value::as_str) == Some("Stopped") {
        notes.push(format!("cluster {cluster} is stopped: its nodes cost nothing until it starts (disks still do)"));
    }
    let mut r = Vec::new();
    for pool in pools {
        let input = pool_input(catalog, pool, region.clone(), u).map_err(|e| Error::Refused {
            message: e.to_string(),
            hint: Some("run again; if it persists, `az aks nodepool show` shows what Azure returns".into()),
        })?;
        r.extend(input.map(|i| cost::estimate(catalog, &i)));
    }
    if r.is_empty() {
        notes.push(format!("cluster {cluster} has no GPU pool"));
    }
    Ok(r)
}

/// The view of `reports` priced from `source`, with the notes a bundled table needs.
pub fn view(catalog: &Catalog, source: PriceSource, reports: Vec<CostReport>, mut notes: Vec<String>) -> CostView {
    if let PriceSource::Bundled { as_of } = &source {
        notes.extend(cost::stale_note(as_of, SystemTime::now()));
        if reports.iter().any(|r| r.price_kind.contains("spot") || r.price_kind.contains("windows")) {
            notes.push(cost::OFFLINE_GAPS.to_owned());
        }
    }
    CostView {
        currency: catalog.prices.currency.clone(),
        total_monthly_at_min: cost::sum_cents(reports.iter().map(|r| r.at_min.monthly)),
        total_monthly_at_max: cost::sum_cents(reports.iter().map(|r| r.at_max.monthly)),
        price_source: source,
        pools: reports,
        notes,
    }
}
