//! Cost of a GPU pool (pure): hourly, daily and monthly at the minimum and maximum node
//! counts, what the minimum costs while idle, the spot saving, and advice drawn from the
//! catalog. Unknown prices stay unknown: nothing is guessed.

use serde::Serialize;

use crate::units::{self, Amount};

use crate::catalog::{Catalog, RegionPrice, VmSize};
use crate::domain::setting::{Setting, Words};
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
    /// The prices' currency (USD unless `--currency` chose a fetched one).
    pub currency: String,
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
    /// What the minimum nodes cost per month doing nothing, at `hours_per_day` (the same
    /// figure as `at_min.monthly`: idle or busy, a running node costs the same).
    pub idle_monthly: Option<f64>,
    /// What spot saves a month against on-demand at the minimum count (at least one node), at
    /// `hours_per_day`: the figure the advice names. `None` when either price is unknown (the
    /// advice then says so) or spot is not cheaper.
    pub spot_saving_monthly: Option<f64>,
    pub advice: Vec<Words>,
    pub price_unknown: bool,
    /// Where this price comes from (the live cache or the bundled table), with its date.
    pub price_source: Option<String>,
    /// True when the price is the live cache's.
    #[serde(skip)]
    pub price_live: bool,
    /// YYYY-MM-DD of the price: the bundled table's date, or the cache's fetch date.
    pub price_date: Option<String>,
    /// Whole days from `price_date` to now (filled by the workflow, which knows the clock).
    pub price_age_days: Option<u64>,
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
    // Exact: micro-units × nodes × milli-hours, rounded to cents once (see `units::Amount`).
    let h = price.and_then(Amount::from_f64).and_then(|p| p.times(u64::from(nodes)));
    let milli_hours = (hours_per_day * 1000.0).round().clamp(0.0, 24_000.0) as u64;
    let cents = |a: Option<Amount>| a.map(Amount::to_cents_f64);
    Money {
        nodes,
        hourly: cents(h),
        daily: cents(h.and_then(|h| h.ratio(milli_hours, 1000))),
        monthly: cents(h.and_then(|h| h.ratio(milli_hours * HOURS_PER_MONTH as u64, 24 * 1000))),
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
    let idle_monthly = at_min.monthly;
    let on_demand = region.as_deref().and_then(|r| catalog.price(&i.size.name, r)).and_then(|p| pick(p, i.os, false));
    let spot_price = region.as_deref().and_then(|r| catalog.price(&i.size.name, r)).and_then(|p| pick(p, i.os, true));
    // Computed once, exactly as the figures are (the price difference in micro-units, rounded
    // to cents once), and named as is by the advice.
    let spot_saving = match (on_demand, spot_price) {
        (Some(o), Some(s)) if o > s => money(Some(o - s), i.min_nodes.max(1), i.hours_per_day).monthly,
        _ => None,
    };
    let source = region
        .as_deref()
        .filter(|_| price.is_some())
        .and_then(|r| catalog.price_source(&i.size.name, r, price_field(i.os, i.spot)));
    let price_live = price.is_some() && region.as_deref().is_some_and(|r| catalog.price_is_live(&i.size.name, r));
    let mut advice = Vec::new();
    if price.is_none() {
        let cur = &catalog.prices.currency;
        let unknown = format!(
            "price unknown for {} ({kind}{}): run `aksgpu prices refresh",
            i.size.name,
            region.as_ref().map(|r| format!(" in {r}")).unwrap_or_default(),
        );
        advice.push(if cur.eq_ignore_ascii_case("USD") {
            Words::plain(format!("{unknown}`"))
        } else {
            Words::new(format!("{unknown} {{0:flag}} {cur}`"), &[Setting::Currency])
        });
    }
    cheaper_size(catalog, i, price, region.as_deref().filter(|_| !cheapest), &mut advice);
    share_gpu(catalog, i, &mut advice);
    idle_and_spot(i, (idle_monthly, spot_saving), &catalog.prices.currency, &mut advice);
    if !i.spot && on_demand.is_some() && spot_price.is_none() {
        advice.push(Words::plain(format!(
            "spot saving unknown: no {} spot price for {}{} (`aksgpu prices refresh` fetches spot prices)",
            if i.os == Os::Windows { "windows" } else { "linux" },
            i.size.name,
            region.as_ref().map(|r| format!(" in {r}")).unwrap_or_default()
        )));
    }
    managed_gpu_metrics(catalog, i, idle_monthly, &mut advice);
    CostReport {
        pool: i.pool.clone(),
        currency: catalog.prices.currency.clone(),
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
        spot_saving_monthly: spot_saving,
        advice,
        price_unknown: price.is_none(),
        price_date: source.as_deref().and_then(date_in),
        price_source: source,
        price_live,
        price_age_days: None,
    }
}

fn hour_in(v: f64, currency: &str) -> String {
    format!("{}/h", units::money_in(Some(v), currency))
}

/// A cheaper size that still fits the stated need (`region`: only there; none: anywhere).
fn cheaper_size(catalog: &Catalog, i: &CostInput, price: Option<f64>, region: Option<&str>, advice: &mut Vec<Words>) {
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
                advice.push(Words::plain(format!(
                    "{} also gives ≥ {} GiB usable per GPU and ≥ {} GPU(s) for {} less per node ({}{}): {}/month saved at {} node(s)",
                    best.vm_size,
                    fmt_num(usable_need),
                    fmt_num(i.need_gpus),
                    hour_in(p - bp, &catalog.prices.currency),
                    hour_in(bp, &catalog.prices.currency),
                    best.price_region.as_ref().map(|r| format!(" in {r}")).unwrap_or_default(),
                    units::money_in(
                        Some((p - bp) * f64::from(i.min_nodes.max(1)) * i.hours_per_day * DAYS_PER_MONTH),
                        &catalog.prices.currency
                    ),
                    i.min_nodes.max(1)
                )));
            }
        }
    }
}

/// MIG or time slicing, when a workload needs less than a whole GPU.
fn share_gpu(catalog: &Catalog, i: &CostInput, advice: &mut Vec<Words>) {
    if i.mig_profile.is_none() && !i.size.gpu_count.is_partial() {
        if i.size.mig_capable {
            let g = catalog.gpu(&i.size.gpu_model);
            let smallest = g.and_then(|g| g.mig_profiles.iter().min_by(|a, b| a.memory_gib.total_cmp(&b.memory_gib)));
            if let Some(m) = smallest {
                advice.push(Words::plain(format!(
                    "if a workload needs less than a whole {}, MIG splits each GPU (e.g. {} = {} × {} GiB per GPU); the profile is fixed when the pool is created",
                    i.size.gpu_model,
                    m.profile,
                    m.instances,
                    fmt_num(m.memory_gib)
                )));
            }
        } else if i.size.gpu_vendor == crate::catalog::Vendor::Nvidia {
            advice.push(Words::new(
                format!(
                    "if a workload needs less than a whole {}, time slicing shares each GPU between pods (`aksgpu install-operator {{0:flag}} N`; no memory isolation)",
                    i.size.gpu_model
                ),
                &[Setting::TimeSlicing],
            ));
        }
    }
}

/// Deallocation, an idle minimum, and what spot would save.
fn idle_and_spot(
    i: &CostInput,
    (idle_monthly, spot_saving): (Option<f64>, Option<f64>),
    cur: &str,
    advice: &mut Vec<Words>,
) {
    if i.deallocate {
        advice.push(Words::plain("deallocated nodes still pay for their OS disks and keep holding vCPU quota"));
    }
    if i.min_nodes > 0 {
        if let Some(idle) = idle_monthly {
            advice.push(Words::new(
                format!(
                    "the minimum of {} node(s) costs {}/month even when idle: lower it (`aksgpu pool scale {{0:flag}} 0`, or 1 with the GPU Operator), or stop the cluster when nobody uses it (`aksgpu cluster stop`)",
                    i.min_nodes,
                    units::money_in(Some(idle), cur)
                ),
                &[Setting::MinCount],
            ));
        }
    }
    if !i.spot {
        if let Some(s) = spot_saving {
            advice.push(Words::plain(format!(
                "spot would save about {}/month at {} node(s){}, if the workload tolerates eviction",
                units::money_in(Some(s), cur),
                i.min_nodes.max(1),
                if (i.hours_per_day - 24.0).abs() < 1e-9 {
                    String::new()
                } else {
                    format!(" at {} h/day", i.hours_per_day)
                }
            )));
        }
    }
}

/// Idle NVIDIA Linux nodes cost money and nothing shows they are idle: AKS-managed GPU pools
/// ship DCGM and dcgm-exporter, the per-GPU utilisation metrics (rule `managed-gpu-owns-stack`
/// says what AKS installs on them).
fn managed_gpu_metrics(catalog: &Catalog, i: &CostInput, idle_monthly: Option<f64>, advice: &mut Vec<Words>) {
    let nvidia_linux = i.size.gpu_vendor == crate::catalog::Vendor::Nvidia && i.os == Os::Linux;
    let rule = catalog.managed_gpu_rule(crate::catalog::ManagedGpuLimit::OwnsStack);
    if let (true, Some(_), Some(rule)) = (nvidia_linux && i.min_nodes > 0, idle_monthly, rule) {
        advice.push(Words::new(
            format!(
                "to see which GPUs sit idle, an AKS-managed GPU pool (`aksgpu create-pool {{0:flag}}`) ships DCGM and dcgm-exporter GPU utilisation metrics (rule {})",
                rule.id
            ),
            &[Setting::ManagedGpu],
        ));
    }
}

/// `price × nodes` per hour, exactly, rounded to cents.
pub fn hourly(price: Option<f64>, nodes: u32) -> Option<f64> {
    price.and_then(Amount::from_f64).and_then(|p| p.times(u64::from(nodes))).map(Amount::to_cents_f64)
}

/// `price × nodes × HOURS_PER_MONTH`, exactly, rounded to cents.
pub fn monthly(price: Option<f64>, nodes: u32) -> Option<f64> {
    price
        .and_then(Amount::from_f64)
        .and_then(|p| p.times(u64::from(nodes) * HOURS_PER_MONTH as u64))
        .map(Amount::to_cents_f64)
}

/// The sum of figures already in cents, exactly; `None` when any is unknown.
pub fn sum_cents(values: impl IntoIterator<Item = Option<f64>>) -> Option<f64> {
    values.into_iter().try_fold(Amount::default(), |acc, v| acc.plus(Amount::from_f64(v?)?)).map(Amount::to_cents_f64)
}

/// Bundled prices older than this many days get a note.
pub const STALE_AFTER_DAYS: u64 = 90;

/// One pool of a plan, to be priced.
#[derive(Debug, Clone)]
pub struct PoolPricing<'a> {
    pub pool: &'a str,
    pub size: &'a str,
    pub os: Os,
    pub spot: bool,
    pub min_nodes: u32,
    pub max_nodes: u32,
}

/// What one planned pool costs at its minimum and maximum node counts, in its region, with
/// the price's source and date (the figures Infracost prints next to `terraform plan`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanCost {
    pub pool: String,
    pub vm_size: String,
    pub price_kind: String,
    /// `None` when the region is not known (offline, without `--location`).
    pub region: Option<String>,
    pub currency: String,
    pub price_per_node_hour: Option<f64>,
    pub min_nodes: u32,
    pub max_nodes: u32,
    pub hourly_at_min: Option<f64>,
    pub hourly_at_max: Option<f64>,
    pub monthly_at_min: Option<f64>,
    pub monthly_at_max: Option<f64>,
    /// Where the price comes from, with its date.
    pub price_source: Option<String>,
    /// True when the price is the live cache's.
    #[serde(skip)]
    pub price_live: bool,
    /// YYYY-MM-DD of the price (the bundled table's date, or the cache's fetch date).
    pub price_date: Option<String>,
    /// Why the price is unknown, when it is.
    pub unknown: Option<String>,
}

/// The field of `RegionPrice` for an OS and priority, as `prices.yaml` names it.
pub fn price_field(os: Os, spot: bool) -> &'static str {
    match (os, spot) {
        (Os::Linux, false) => "linux",
        (Os::Linux, true) => "linux_spot",
        (Os::Windows, false) => "windows",
        (Os::Windows, true) => "windows_spot",
    }
}

fn kind_of(os: Os, spot: bool) -> String {
    format!("{} {}", if os == Os::Windows { "windows" } else { "linux" }, if spot { "spot" } else { "on-demand" })
}

/// The date in a price source line: `… (as of YYYY-MM-DD)` or `… fetched YYYY-MM-DD)`.
pub fn date_in(source: &str) -> Option<String> {
    let at = source.rfind("as of ").map(|i| i + 6).or_else(|| source.rfind("fetched ").map(|i| i + 8))?;
    let d = source.get(at..at + 10)?;
    (d.len() == 10 && d.as_bytes()[4] == b'-' && d.as_bytes()[7] == b'-').then(|| d.to_owned())
}

/// Price one planned pool in `region` (unknown when the region is).
pub fn plan_cost(catalog: &Catalog, p: &PoolPricing<'_>, region: Option<&str>) -> PlanCost {
    let kind = kind_of(p.os, p.spot);
    let field = price_field(p.os, p.spot);
    let price = region.and_then(|r| catalog.price(p.size, r)).and_then(|rp| pick(rp, p.os, p.spot));
    let source = match (price, region) {
        (Some(_), Some(r)) => catalog.price_source(p.size, r, field),
        _ => None,
    };
    let unknown = match (price, region) {
        (Some(_), _) => None,
        (None, None) => Some(
            "the cluster's region is not known offline: name the region, or run with credentials to read it".to_owned(),
        ),
        (None, Some(r)) => Some(format!("no {kind} price for {} in {r}; `aksgpu prices refresh` fetches it", p.size)),
    };
    PlanCost {
        pool: p.pool.to_owned(),
        vm_size: p.size.to_owned(),
        price_kind: kind,
        region: region.map(str::to_owned),
        currency: catalog.prices.currency.clone(),
        price_per_node_hour: price,
        min_nodes: p.min_nodes,
        max_nodes: p.max_nodes,
        hourly_at_min: hourly(price, p.min_nodes),
        hourly_at_max: hourly(price, p.max_nodes),
        monthly_at_min: monthly(price, p.min_nodes),
        monthly_at_max: monthly(price, p.max_nodes),
        price_date: source.as_deref().and_then(date_in),
        price_live: source.is_some() && region.is_some_and(|r| catalog.price_is_live(p.size, r)),
        price_source: source,
        unknown,
    }
}

impl PlanCost {
    /// A pool whose size, OS and priority are not known (a dry run without credentials
    /// cannot read them): every figure unknown, and `why`.
    pub fn unread(pool: &str, (min_nodes, max_nodes): (u32, u32), currency: &str, why: &str) -> PlanCost {
        PlanCost {
            pool: pool.to_owned(),
            vm_size: "unknown".to_owned(),
            price_kind: "unknown".to_owned(),
            region: None,
            currency: currency.to_owned(),
            price_per_node_hour: None,
            min_nodes,
            max_nodes,
            hourly_at_min: None,
            hourly_at_max: None,
            monthly_at_min: None,
            monthly_at_max: None,
            price_source: None,
            price_live: false,
            price_date: None,
            unknown: Some(why.to_owned()),
        }
    }
}

/// Whole days from a YYYY-MM-DD date to `now`, or `None` for a date that does not parse.
pub fn age_days(date: &str, now: std::time::SystemTime) -> Option<u64> {
    let then = crate::cache::epoch_of(date)?;
    let now = now.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs();
    Some(now.saturating_sub(then) / 86_400)
}

/// What the bundled table lacks, said up front wherever it matters.
pub const OFFLINE_GAPS: &str =
    "the bundled prices have no Windows prices and no spot prices outside the US; `aksgpu prices refresh` fetches them";

/// A note when the bundled prices dated `as_of` are older than `STALE_AFTER_DAYS` at `now`.
pub fn stale_note(as_of: &str, now: std::time::SystemTime) -> Option<String> {
    let days = age_days(as_of, now).filter(|d| *d > STALE_AFTER_DAYS)?;
    Some(format!("bundled prices are {days} days old (as of {as_of}); `aksgpu prices refresh` fetches current ones"))
}

/// The notes a priced plan carries, said before the figures: bundled prices older than
/// `STALE_AFTER_DAYS`, and which prices the bundled table lacks (spot outside the US,
/// Windows) when the plan asks for them.
pub fn plan_notes(catalog: &Catalog, costs: &[PlanCost], now: std::time::SystemTime) -> Vec<String> {
    let mut notes = Vec::new();
    let bundled = |c: &PlanCost| !c.price_live;
    if costs.iter().any(|c| c.price_per_node_hour.is_some() && bundled(c)) {
        notes.extend(stale_note(&catalog.prices.as_of, now));
    }
    let gaps = costs.iter().any(|c| bundled(c) && (c.price_kind.contains("spot") || c.price_kind.contains("windows")));
    if gaps {
        notes.push(OFFLINE_GAPS.to_owned());
    }
    notes
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

    /// The bundled catalog with a fixture price for NC24ads_A100_v4 in eastus ($3.673/h, spot
    /// $0.80), so the hand-worked figures hold whatever the bundled price table says.
    fn fixture() -> Catalog {
        let mut c = Catalog::bundled().expect("catalog");
        let p = crate::catalog::RegionPrice { linux: Some(3.673), linux_spot: Some(0.8), ..Default::default() };
        c.prices.sizes.entry("Standard_NC24ads_A100_v4".into()).or_default().insert("eastus".into(), p);
        c
    }

    /// Hand-worked: NC24ads_A100_v4 in eastus at $3.673/h: 1 node = $3.67/h, $88.15/day,
    /// $2,681.29/month; 3 nodes = $11.02/h, $264.46/day, $8,043.87/month.
    #[test]
    fn arithmetic_matches_hand_worked_figures() {
        let c = fixture();
        let r = estimate(&c, &input("Standard_NC24ads_A100_v4"));
        assert_eq!(r.price_per_node_hour, Some(3.673));
        assert_eq!(r.at_min, Money { nodes: 1, hourly: Some(3.67), daily: Some(88.15), monthly: Some(2681.29) });
        assert_eq!(r.at_max, Money { nodes: 3, hourly: Some(11.02), daily: Some(264.46), monthly: Some(8043.87) });
        assert_eq!(r.idle_monthly, Some(2681.29));
        assert!(r.advice.iter().any(|a| a.text.contains("MIG")), "{:?}", r.advice);
        assert!(r.advice.iter().any(|a| a.text.contains("spot would save")), "{:?}", r.advice);
        assert!(r.advice.iter().any(|a| a.text.contains("costs $2,681/month even when idle")), "{:?}", r.advice);
    }

    /// Hand-worked on the fixture: spot $0.80 × 8 h = $6.40 a day; spot saves
    /// ($3.673 − $0.80) × 8 h × 30.4167 days = $699.10 a month.
    #[test]
    fn part_time_hours_and_spot() {
        let c = fixture();
        let mut i = input("Standard_NC24ads_A100_v4");
        i.hours_per_day = 8.0;
        i.spot = true;
        let r = estimate(&c, &i);
        assert_eq!(r.at_min.daily, Some(6.4));
        assert_eq!(r.spot_saving_monthly, Some(699.1));
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
        assert!(r.advice[0].text.contains("price unknown"));
        let mut w = input("Standard_NC4as_T4_v3");
        w.os = Os::Windows;
        assert!(estimate(&c, &w).price_unknown);
    }

    fn pricing(size: &str, os: Os, spot: bool) -> PoolPricing<'_> {
        PoolPricing { pool: "gpu", size, os, spot, min_nodes: 1, max_nodes: 3 }
    }

    /// Hand-worked: $3.673/h × 3 = $11.019 → $11.02; × 730 h = $8,043.87 (exact, no drift).
    #[test]
    fn sums_are_exact() {
        // As floats, 0.1 + 0.2 = 0.30000000000000004.
        assert_eq!(sum_cents([Some(0.1), Some(0.2)]), Some(0.3));
        assert_eq!(sum_cents([Some(2681.29), Some(8043.87)]), Some(10725.16));
        assert_eq!(sum_cents([Some(1.0), None]), None);
    }

    #[test]
    fn plan_cost_at_min_and_max_with_date() {
        let c = fixture();
        let r = plan_cost(&c, &pricing("Standard_NC24ads_A100_v4", Os::Linux, false), Some("eastus"));
        assert_eq!((r.hourly_at_min, r.hourly_at_max), (Some(3.67), Some(11.02)));
        assert_eq!((r.monthly_at_min, r.monthly_at_max), (Some(2681.29), Some(8043.87)));
        // The date of the source that declares Linux prices (catalog/prices.yaml `sources`).
        let linux_as_of = c.price_origin("linux").map(|o| o.as_of.clone()).expect("a Linux price source");
        assert_eq!(r.price_date, Some(linux_as_of));
        assert_eq!(r.currency, "USD");
        assert!(r.unknown.is_none());
        let offline = plan_cost(&c, &pricing("Standard_NC24ads_A100_v4", Os::Linux, false), None);
        assert_eq!(offline.hourly_at_min, None);
        assert!(offline.unknown.expect("why").contains("region is not known offline"));
    }

    #[test]
    fn stale_note_follows_the_clock() {
        use std::time::{Duration, UNIX_EPOCH};
        let c = Catalog::bundled().expect("catalog");
        let costs = [plan_cost(&c, &pricing("Standard_NC24ads_A100_v4", Os::Linux, false), Some("eastus"))];
        // Days after the bundled table's date, whatever that date is.
        let as_of = c.prices.as_of.clone();
        let start = crate::cache::epoch_of(&as_of).expect("date");
        let after = |days: u64| UNIX_EPOCH + Duration::from_secs(start + days * 86_400);
        // 90 days: no note; later, a note with the age.
        assert!(plan_notes(&c, &costs, after(90)).is_empty());
        let notes = plan_notes(&c, &costs, after(167));
        assert_eq!(
            notes,
            [format!("bundled prices are 167 days old (as of {as_of}); `aksgpu prices refresh` fetches current ones")]
        );
        let win = [plan_cost(&c, &pricing("Standard_NC4as_T4_v3", Os::Windows, false), Some("westeurope"))];
        let notes = plan_notes(&c, &win, after(13));
        assert!(notes.iter().any(|n| n.contains("no Windows prices")), "{notes:?}");
        assert!(win[0].unknown.as_deref().is_some_and(|u| u.contains("prices refresh")));
    }

    /// `OFFLINE_GAPS` tells the truth about the bundled table: no Windows price at all, and
    /// spot prices only in regions whose geography is the United States.
    #[test]
    fn the_offline_gaps_note_matches_the_bundled_table() {
        let c = Catalog::bundled().expect("catalog");
        let us: Vec<&str> =
            c.regions.regions.iter().filter(|r| r.geography == "United States").map(|r| r.name.as_str()).collect();
        let mut spot_regions = 0;
        for size in &c.sizes {
            for (region, p) in c.price_regions(&size.name) {
                assert!(p.windows.is_none() && p.windows_spot.is_none(), "{} {region}", size.name);
                if p.linux_spot.is_some() {
                    assert!(us.contains(&region), "spot price outside the US: {} {region}", size.name);
                    spot_regions += 1;
                }
            }
        }
        assert!(spot_regions > 0);
    }

    #[test]
    fn cheaper_size_advice_and_deallocate() {
        let c = Catalog::bundled().expect("catalog");
        // A T4 size with 16 vCPUs against one with 4 (same GPU, cheaper).
        let mut i = input("Standard_NC16as_T4_v3");
        i.deallocate = true;
        let r = estimate(&c, &i);
        assert!(r.advice.iter().any(|a| a.text.starts_with("Standard_NC4as_T4_v3 also gives")), "{:?}", r.advice);
        assert!(r.advice.iter().any(|a| a.text.contains("OS disks")));
        assert!(r.advice.iter().any(|a| a.text.contains("time slicing")));
    }
}
/// The cost of a plan's pools: notes said first, then each pool at its minimum and maximum.
#[derive(Debug, Clone, Serialize)]
pub struct PlanPricing {
    pub notes: Vec<String>,
    pub pools: Vec<PlanCost>,
    pub hours_per_month: f64,
    pub total_monthly_at_min: Option<f64>,
    pub total_monthly_at_max: Option<f64>,
}

impl PlanPricing {
    /// Price `pools` in `region` (unknown offline without one), against the clock.
    pub fn new(catalog: &Catalog, pools: &[PoolPricing<'_>], region: Option<&str>) -> PlanPricing {
        Self::at(catalog, pools, region, std::time::SystemTime::now())
    }

    /// `new` at a given time (tests).
    pub fn at(catalog: &Catalog, pools: &[PoolPricing<'_>], region: Option<&str>, now: std::time::SystemTime) -> Self {
        let costs: Vec<PlanCost> = pools.iter().map(|p| plan_cost(catalog, p, region)).collect();
        let notes = plan_notes(catalog, &costs, now);
        PlanPricing {
            total_monthly_at_min: sum_cents(costs.iter().map(|c| c.monthly_at_min)),
            total_monthly_at_max: sum_cents(costs.iter().map(|c| c.monthly_at_max)),
            hours_per_month: crate::recommend::HOURS_PER_MONTH,
            notes,
            pools: costs,
        }
    }

    /// The cost of pools a dry run could not read (no credentials): unknown, and `why`.
    pub fn unread(catalog: &Catalog, pools: &[(&str, (u32, u32))], why: &str) -> PlanPricing {
        let currency = &catalog.prices.currency;
        let costs: Vec<PlanCost> =
            pools.iter().map(|(pool, counts)| PlanCost::unread(pool, *counts, currency, why)).collect();
        PlanPricing {
            notes: Vec::new(),
            total_monthly_at_min: None,
            total_monthly_at_max: None,
            hours_per_month: crate::recommend::HOURS_PER_MONTH,
            pools: costs,
        }
    }

    /// Say `why` the region is unknown, for a command whose own flags cannot give it (the
    /// default reason names `--location`).
    pub fn region_unknown_because(mut self, why: &str) -> PlanPricing {
        for c in self.pools.iter_mut().filter(|c| c.region.is_none() && c.unknown.is_some()) {
            c.unknown = Some(why.to_owned());
        }
        self
    }

    /// One line per pool, for output that is a document on stdout (the cost goes to stderr).
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self.notes.clone();
        for c in &self.pools {
            let m = |v: Option<f64>| units::money_in(v, &c.currency);
            out.push(match &c.unknown {
                Some(why) => format!("cost of {}: {} × {}: price unknown: {why}", c.pool, c.max_nodes, c.vm_size),
                None => format!(
                    "cost of {}: {}/h, {}/month at {} node(s); {}/h, {}/month at {} ({} {} in {}, {})",
                    c.pool,
                    m(c.hourly_at_min),
                    m(c.monthly_at_min),
                    c.min_nodes,
                    m(c.hourly_at_max),
                    m(c.monthly_at_max),
                    c.max_nodes,
                    c.vm_size,
                    c.price_kind,
                    c.region.as_deref().unwrap_or("?"),
                    c.price_date.as_deref().map_or_else(|| "undated price".to_owned(), |d| format!("price of {d}"))
                ),
            });
        }
        out
    }
}
