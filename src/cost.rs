//! Cost of a GPU pool (pure): hourly, daily and monthly at the minimum and maximum node
//! counts, what the minimum costs while idle, the spot saving, and advice drawn from the
//! catalog. Unknown prices stay unknown: nothing is guessed.

use serde::Serialize;

use crate::units::{self, per_hour};

use crate::catalog::{Catalog, RegionPrice, VmSize};
use crate::recommend::{self, fmt_num, Os, Range, Requirements, Workload, HOURS_PER_MONTH};

/// Days in an average month (730 h / 24).
pub const DAYS_PER_MONTH: f64 = HOURS_PER_MONTH / 24.0;

/// What is being priced.
#[derive(Debug, Clone)]
pub struct CostInput {
    pub size: VmSize,
    pub pool: Option<String>,
    pub min_nodes: u32,
    pub max_nodes: u32,
    pub os: Os,
    pub spot: bool,
    pub region: Option<String>,
    /// Hours a day the nodes run (24 = always on).
    pub hours_per_day: f64,
    /// Pool `scaleDownMode: Deallocate` or spot eviction `Deallocate`.
    pub deallocate: bool,
    pub mig_profile: Option<String>,
    /// The need the pool must keep meeting (for "a cheaper size that still fits").
    pub need_gpu_memory_gib: f64,
    pub need_gpus: f64,
}

/// Money at one node count.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Money {
    pub nodes: u32,
    pub hourly: Option<f64>,
    pub daily: Option<f64>,
    pub monthly: Option<f64>,
}

/// The estimate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CostReport {
    pub pool: Option<String>,
    pub vm_size: String,
    pub gpu: String,
    pub region: Option<String>,
    /// True when no region was given and the cheapest bundled region was used.
    pub cheapest_region: bool,
    pub price_kind: String,
    pub price_per_node_hour: Option<f64>,
    pub hours_per_day: f64,
    pub at_min: Money,
    pub at_max: Money,
    /// What the minimum nodes cost per month doing nothing.
    pub idle_monthly: Option<f64>,
    /// Monthly saving at the minimum count of spot over on-demand (negative never).
    pub spot_saving_monthly: Option<f64>,
    pub advice: Vec<String>,
    pub price_unknown: bool,
}

fn round(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

fn pick(p: &RegionPrice, os: Os, spot: bool) -> Option<f64> {
    match (os, spot) {
        (Os::Linux, false) => p.linux,
        (Os::Linux, true) => p.linux_spot,
        (Os::Windows, false) => p.windows,
        (Os::Windows, true) => p.windows_spot,
    }
}

/// The per-node price, and the region it is for.
pub fn node_price(
    catalog: &Catalog,
    size: &str,
    region: Option<&str>,
    os: Os,
    spot: bool,
) -> (Option<f64>, Option<String>, bool) {
    match region {
        Some(r) => (catalog.price(size, r).and_then(|p| pick(p, os, spot)), Some(r.to_owned()), false),
        None => {
            let best = catalog
                .price_regions(size)
                .filter_map(|(r, p)| pick(p, os, spot).map(|v| (r.to_owned(), v)))
                .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
            match best {
                Some((r, v)) => (Some(v), Some(r), true),
                None => (None, None, true),
            }
        }
    }
}

fn money(price: Option<f64>, nodes: u32, hours_per_day: f64) -> Money {
    let h = price.map(|p| p * f64::from(nodes));
    Money {
        nodes,
        hourly: h.map(round),
        daily: h.map(|h| round(h * hours_per_day)),
        monthly: h.map(|h| round(h * hours_per_day * DAYS_PER_MONTH)),
    }
}

/// Estimate the cost and the advice.
pub fn estimate(catalog: &Catalog, i: &CostInput) -> CostReport {
    let (price, region, cheapest) = node_price(catalog, &i.size.name, i.region.as_deref(), i.os, i.spot);
    let kind = format!(
        "{} {}",
        if i.os == Os::Windows { "windows" } else { "linux" },
        if i.spot { "spot" } else { "on-demand" }
    );
    let at_min = money(price, i.min_nodes, i.hours_per_day);
    let at_max = money(price, i.max_nodes, i.hours_per_day);
    let idle_monthly = price.map(|p| round(p * f64::from(i.min_nodes) * HOURS_PER_MONTH));
    let on_demand = region.as_deref().and_then(|r| catalog.price(&i.size.name, r)).and_then(|p| pick(p, i.os, false));
    let spot_price = region.as_deref().and_then(|r| catalog.price(&i.size.name, r)).and_then(|p| pick(p, i.os, true));
    let spot_saving = match (on_demand, spot_price) {
        (Some(o), Some(s)) if o > s => {
            Some(round((o - s) * f64::from(i.min_nodes.max(1)) * i.hours_per_day * DAYS_PER_MONTH))
        }
        _ => None,
    };
    let mut advice = Vec::new();
    if price.is_none() {
        advice.push(format!(
            "price unknown for {} ({kind}{}): run `aksgpu prices refresh`",
            i.size.name,
            region.as_ref().map(|r| format!(" in {r}")).unwrap_or_default()
        ));
    }
    cheaper_size(catalog, i, price, region.as_deref().filter(|_| !cheapest), &mut advice);
    share_gpu(catalog, i, &mut advice);
    idle_and_spot(i, idle_monthly, spot_saving, &mut advice);
    CostReport {
        pool: i.pool.clone(),
        vm_size: i.size.name.clone(),
        gpu: format!("{} × {}", i.size.gpu_count, i.size.gpu_model),
        region,
        cheapest_region: cheapest,
        price_kind: kind,
        price_per_node_hour: price,
        hours_per_day: i.hours_per_day,
        at_min,
        at_max,
        idle_monthly,
        spot_saving_monthly: if i.spot { spot_saving } else { None },
        advice,
        price_unknown: price.is_none(),
    }
}

/// A cheaper size that still fits the stated need (`region`: only there; none: anywhere).
fn cheaper_size(catalog: &Catalog, i: &CostInput, price: Option<f64>, region: Option<&str>, advice: &mut Vec<String>) {
    // Usable memory, as `recommend` counts it (USABLE/GPU: vLLM's 0.92 of a GPU, 0.82 on an
    // A10): an alternative must offer the need, or at least what this size offers, usably.
    let fraction = recommend::estimate::layout(&i.size.gpu_model, 1.0, 1, None).usable_fraction;
    let usable_need = i.need_gpu_memory_gib.min(i.size.gpu_memory_per_gpu_gib * fraction);
    let usable_need = (usable_need * 10.0).floor() / 10.0;
    let mut req = Requirements::new(Workload::Cv);
    req.gpu_memory_gib = Range { min: Some(usable_need), max: None };
    req.gpus = Range { min: Some(i.need_gpus), max: None };
    req.os = i.os;
    req.spot = i.spot;
    req.region = region.map(str::to_owned);
    req.top = 3;
    let alt = recommend::recommend(catalog, &req);
    let fits = |r: &&recommend::Recommendation| r.vm_size != i.size.name && r.fit.available_per_gpu_gib >= usable_need;
    if let (Some(p), Some(best)) = (price, alt.recommendations.iter().find(fits)) {
        if let Some(bp) = best.price_per_hour {
            if bp + 0.005 < p {
                advice.push(format!(
                    "{} also gives ≥ {} GiB usable per GPU and ≥ {} GPU(s) for {} less per node ({}{}): {}/month saved at {} node(s)",
                    best.vm_size,
                    fmt_num(usable_need),
                    fmt_num(i.need_gpus),
                    per_hour(Some(p - bp)),
                    per_hour(Some(bp)),
                    best.price_region.as_ref().map(|r| format!(" in {r}")).unwrap_or_default(),
                    units::money(Some((p - bp) * f64::from(i.min_nodes.max(1)) * i.hours_per_day * DAYS_PER_MONTH)),
                    i.min_nodes.max(1)
                ));
            }
        }
    }
}

/// MIG or time slicing, when a workload needs less than a whole GPU.
fn share_gpu(catalog: &Catalog, i: &CostInput, advice: &mut Vec<String>) {
    if i.mig_profile.is_none() && !i.size.gpu_count.is_partial() {
        if i.size.mig_capable {
            let g = catalog.gpu(&i.size.gpu_model);
            let smallest = g.and_then(|g| g.mig_profiles.iter().min_by(|a, b| a.memory_gib.total_cmp(&b.memory_gib)));
            if let Some(m) = smallest {
                advice.push(format!(
                    "if a workload needs less than a whole {}, MIG splits each GPU (e.g. {} = {} × {} GiB per GPU); the profile is fixed when the pool is created",
                    i.size.gpu_model,
                    m.profile,
                    m.instances,
                    fmt_num(m.memory_gib)
                ));
            }
        } else if i.size.gpu_vendor == crate::catalog::Vendor::Nvidia {
            advice.push(format!(
                "if a workload needs less than a whole {}, time slicing shares each GPU between pods (`aksgpu install-operator --time-slicing N`; no memory isolation)",
                i.size.gpu_model
            ));
        }
    }
}

/// Deallocation, an idle minimum, and what spot would save.
fn idle_and_spot(i: &CostInput, idle_monthly: Option<f64>, spot_saving: Option<f64>, advice: &mut Vec<String>) {
    if i.deallocate {
        advice.push("deallocated nodes still pay for their OS disks and keep holding vCPU quota".into());
    }
    if i.min_nodes > 0 {
        if let Some(idle) = idle_monthly {
            advice.push(format!(
                "the minimum of {} node(s) costs {}/month even when idle: lower it (`aksgpu pool scale --min-count 0`, or 1 with the GPU Operator), or stop the cluster when nobody uses it (`aksgpu cluster stop`)",
                i.min_nodes,
                units::money(Some(idle))
            ));
        }
    }
    if !i.spot {
        if let Some(s) = spot_saving {
            advice.push(format!(
                "spot would save about {}/month at {} node(s), if the workload tolerates eviction",
                units::money(Some(s)),
                i.min_nodes.max(1)
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(size: &str) -> CostInput {
        let c = Catalog::bundled().expect("catalog");
        let s = c.size(size).expect("size").clone();
        CostInput {
            need_gpu_memory_gib: s.gpu_memory_per_gpu_gib,
            need_gpus: s.gpu_count.value(),
            size: s,
            pool: None,
            min_nodes: 1,
            max_nodes: 3,
            os: Os::Linux,
            spot: false,
            region: Some("eastus".into()),
            hours_per_day: 24.0,
            deallocate: false,
            mig_profile: None,
        }
    }

    /// Hand-worked: NC24ads_A100_v4 in eastus at $3.673/h: 1 node = $3.67/h, $88.15/day,
    /// $2,681.29/month; 3 nodes = $11.02/h, $264.46/day, $8,043.87/month.
    #[test]
    fn arithmetic_matches_hand_worked_figures() {
        let c = Catalog::bundled().expect("catalog");
        let r = estimate(&c, &input("Standard_NC24ads_A100_v4"));
        assert_eq!(r.price_per_node_hour, Some(3.673));
        assert_eq!(r.at_min, Money { nodes: 1, hourly: Some(3.67), daily: Some(88.15), monthly: Some(2681.29) });
        assert_eq!(r.at_max, Money { nodes: 3, hourly: Some(11.02), daily: Some(264.46), monthly: Some(8043.87) });
        assert_eq!(r.idle_monthly, Some(2681.29));
        assert!(r.advice.iter().any(|a| a.contains("MIG")), "{:?}", r.advice);
        assert!(r.advice.iter().any(|a| a.contains("spot would save")), "{:?}", r.advice);
        assert!(r.advice.iter().any(|a| a.contains("costs $2,681/month even when idle")), "{:?}", r.advice);
    }

    #[test]
    fn part_time_hours_and_spot() {
        let c = Catalog::bundled().expect("catalog");
        let mut i = input("Standard_NC24ads_A100_v4");
        i.hours_per_day = 8.0;
        i.spot = true;
        let r = estimate(&c, &i);
        let spot = c.price("Standard_NC24ads_A100_v4", "eastus").and_then(|p| p.linux_spot).expect("spot price");
        assert_eq!(r.at_min.daily, Some(round(spot * 8.0)));
        let expected = round((3.673 - spot) * 8.0 * DAYS_PER_MONTH);
        assert_eq!(r.spot_saving_monthly, Some(expected));
    }

    #[test]
    fn unknown_price_is_never_guessed() {
        let c = Catalog::bundled().expect("catalog");
        let mut i = input("Standard_NC24ads_A100_v4");
        // austriaeast is an Azure region with no GPU list price in the bundled table.
        i.region = Some("austriaeast".into());
        let r = estimate(&c, &i);
        assert!(r.price_unknown);
        assert_eq!(r.at_min.hourly, None);
        assert!(r.advice[0].contains("price unknown"));
        let mut w = input("Standard_NC4as_T4_v3");
        w.os = Os::Windows;
        assert!(estimate(&c, &w).price_unknown);
    }

    #[test]
    fn cheaper_size_advice_and_deallocate() {
        let c = Catalog::bundled().expect("catalog");
        // 16 vCPU T4 vs 4 vCPU T4: same GPU, cheaper.
        let mut i = input("Standard_NC16as_T4_v3");
        i.deallocate = true;
        let r = estimate(&c, &i);
        assert!(r.advice.iter().any(|a| a.starts_with("Standard_NC4as_T4_v3 also gives")), "{:?}", r.advice);
        assert!(r.advice.iter().any(|a| a.contains("OS disks")));
        assert!(r.advice.iter().any(|a| a.contains("time slicing")));
    }
}
