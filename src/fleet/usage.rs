//! What the GPU pools really did, from Azure Monitor managed Prometheus, pure: the PromQL sent,
//! the step, and the aggregation of the answers into per-pool hours, costs, health and advice.
//!
//! Metric names and labels are dcgm-exporter's (NVIDIA/dcgm-exporter `etc/default-counters.csv`:
//! `DCGM_FI_DEV_GPU_UTIL` percent, `DCGM_FI_DEV_FB_USED` MiB, `DCGM_FI_DEV_XID_ERRORS` the last
//! XID code; labels `gpu`, `UUID`, `modelName`, `Hostname`, and `pod`/`namespace` for the pod
//! holding the GPU when it runs in Kubernetes mode) and kube-state-metrics'
//! (`kube_pod_container_resource_requests{resource="nvidia_com_gpu"}` with `node`, `namespace`,
//! `pod`; `kube_node_status_condition{node, condition, status}`, which carries Node Problem
//! Detector's GPU conditions). Managed Prometheus adds a `cluster` label (the cluster's name) to
//! every series, and every query filters on it: one workspace often holds several clusters.
//!
//! Five range queries per cluster, aggregated on the server, whatever the number of nodes and
//! GPUs. Each answer point stands for the `step` seconds before it: the range starts one step
//! after the window's start, so a window of `n` steps has `n` points per series.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::catalog::model::VmSize;
use crate::catalog::Catalog;
use crate::domain::Os;
use crate::recommend::HOURS_PER_MONTH;
use crate::resources::fleet::PromSeries;

use super::FleetPool;

/// The most points Prometheus returns per series of a range query (`exceeded maximum
/// resolution of 11,000 points per timeseries`, prometheus/prometheus web/api/v1/api.go).
pub const MAX_POINTS: u64 = 11_000;
/// The smallest step: one minute (managed Prometheus scrapes every 30 s by default).
pub const MIN_STEP: u64 = 60;
/// Memory headroom over the measured peak before a smaller GPU or a MIG slice is advised.
pub const HEADROOM: f64 = 1.2;

/// The window queried: `[start, end]` in unix seconds, every `step` seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Window {
    #[serde(serialize_with = "as_rfc3339")]
    pub start: i64,
    #[serde(serialize_with = "as_rfc3339")]
    pub end: i64,
    pub step: u64,
}

fn as_rfc3339<S: serde::Serializer>(t: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&rfc3339(*t))
}

impl Window {
    /// The window from `start` to `end` with the step [`choose_step`] picks.
    pub fn new(start: i64, end: i64) -> Self {
        Self { start, end, step: choose_step(start, end) }
    }

    /// Hours in the window.
    pub fn hours(&self) -> f64 {
        (self.end - self.start) as f64 / 3600.0
    }

    /// The first evaluation time (one step after the start).
    pub fn first(&self) -> i64 {
        self.start + self.step as i64
    }
}

/// The smallest whole-minute step that keeps every series at or under [`MAX_POINTS`].
pub fn choose_step(start: i64, end: i64) -> u64 {
    let span = u64::try_from(end - start).unwrap_or(0);
    let step = span.div_ceil(MAX_POINTS).max(MIN_STEP);
    step.div_ceil(MIN_STEP) * MIN_STEP
}

/// What a query asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum QueryKind {
    /// GPUs, idle GPUs, utilisation sum and idle GPUs a pod holds, per node (label `m`).
    Gpus,
    /// The peak framebuffer used on any one GPU of each node.
    Memory,
    /// GPUs pods request, per node.
    Allocated,
    /// XID errors, per node and GPU.
    Xid,
    /// Node conditions whose name starts with GPU, per node and condition.
    Conditions,
}

/// A PromQL string literal.
fn lit(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The range queries for `cluster`: idle below `idle_below` percent; `step` seconds.
pub fn queries(cluster: &str, idle_below: f64, step: u64) -> Vec<(QueryKind, String)> {
    let c = format!("cluster={}", lit(cluster));
    // One step back, less a millisecond: each point covers its own step and not the previous
    // point's sample (ranges include their left end before Prometheus 3.0).
    let range = format!("{}ms", (step * 1000).saturating_sub(1).max(1));
    let util = format!("DCGM_FI_DEV_GPU_UTIL{{{c}}}");
    let held = format!("DCGM_FI_DEV_GPU_UTIL{{{c},pod!=\"\"}}");
    let by = "by (Hostname, node)";
    let tag = |q: String, m: &str| format!("label_replace({q}, \"m\", \"{m}\", \"\", \"\")");
    let gpus = [
        tag(format!("count {by} ({util})"), "gpus"),
        tag(format!("count {by} ({util} < {idle_below})"), "idle"),
        tag(format!("sum {by} ({util})"), "util"),
        tag(format!("count {by} ({held} < {idle_below})"), "held_idle"),
    ]
    .join(" or ");
    vec![
        (QueryKind::Gpus, gpus),
        (QueryKind::Memory, format!("max {by} (max_over_time(DCGM_FI_DEV_FB_USED{{{c}}}[{range}]))")),
        (
            QueryKind::Allocated,
            format!("sum by (node) (kube_pod_container_resource_requests{{{c},resource=\"nvidia_com_gpu\"}})"),
        ),
        (
            QueryKind::Xid,
            format!("max by (Hostname, node, gpu) (max_over_time(DCGM_FI_DEV_XID_ERRORS{{{c}}}[{range}])) > 0"),
        ),
        (
            QueryKind::Conditions,
            format!(
                "max by (node, condition) (kube_node_status_condition{{{c},status=\"true\",condition=~\"GPU.*\"}}) > 0"
            ),
        ),
    ]
}

/// The pool of an AKS node name, `aks-<pool>-<digits>-vmss<suffix>`.
pub fn pool_of_node(node: &str) -> Option<&str> {
    let rest = node.strip_prefix("aks-")?;
    let (head, vmss) = rest.rsplit_once('-')?;
    let (pool, digits) = head.rsplit_once('-')?;
    let ok = vmss.starts_with("vmss") && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    (ok && !pool.is_empty()).then_some(pool)
}

/// The node a series is about: dcgm-exporter's `Hostname`, else `node`.
fn node_of(s: &PromSeries) -> Option<&str> {
    [s.label("Hostname"), s.label("node")].into_iter().flatten().find(|n| pool_of_node(n).is_some())
}

/// One health event: an XID error on a GPU, or a GPU node condition.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Health {
    pub node: String,
    /// dcgm-exporter's `gpu` index; none for a node condition.
    pub gpu: Option<String>,
    pub kind: &'static str,
    pub code: String,
    pub first_seen: String,
    pub last_seen: String,
}

/// One piece of advice with what it would save a month.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Advice {
    pub rule: &'static str,
    pub message: String,
    pub monthly_saving: Option<f64>,
    pub source: &'static str,
}

/// What one pool did in the window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PoolUsage {
    pub subscription_id: String,
    pub resource_group: String,
    pub cluster: String,
    pub pool: String,
    pub vm_size: String,
    /// False when Prometheus holds no DCGM series for the pool's nodes: nothing is known of its use.
    pub measured: bool,
    pub gpu_hours: Option<f64>,
    pub idle_gpu_hours: Option<f64>,
    pub allocated_gpu_hours: Option<f64>,
    pub allocated_idle_gpu_hours: Option<f64>,
    pub mean_utilization_percent: Option<f64>,
    pub peak_memory_used_gib: Option<f64>,
    pub idle_cost: Option<f64>,
    pub currency: String,
    pub price_date: Option<String>,
    pub health: Vec<Health>,
    pub advice: Vec<Advice>,
    /// Why the pool is not measured, and how to turn scraping on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The answers of one cluster's queries.
pub type Answers = BTreeMap<QueryKind, Vec<PromSeries>>;

/// Per-node sums (value × step) and maxima.
#[derive(Debug, Default, Clone)]
struct NodeFigures {
    gpu_seconds: f64,
    idle_seconds: f64,
    util_seconds: f64,
    held_idle_seconds: f64,
    allocated_seconds: f64,
    peak_mib: Option<f64>,
    dcgm: bool,
}

fn figures(answers: &Answers, step: u64) -> BTreeMap<String, NodeFigures> {
    let mut nodes: BTreeMap<String, NodeFigures> = BTreeMap::new();
    let series = |k: QueryKind| answers.get(&k).map(Vec::as_slice).unwrap_or(&[]);
    let sum = |s: &PromSeries| s.points().map(|p| p.iter().map(|(_, v)| v * step as f64).sum::<f64>()).unwrap_or(0.0);
    for s in series(QueryKind::Gpus) {
        let Some(n) = node_of(s) else { continue };
        let f = nodes.entry(n.to_owned()).or_default();
        let v = sum(s);
        match s.label("m") {
            Some("gpus") => {
                f.gpu_seconds += v;
                f.dcgm = true;
            }
            Some("idle") => f.idle_seconds += v,
            Some("util") => f.util_seconds += v,
            Some("held_idle") => f.held_idle_seconds += v,
            _ => {}
        }
    }
    for s in series(QueryKind::Memory) {
        let Some(n) = node_of(s) else { continue };
        let peak = s.points().ok().and_then(|p| p.iter().map(|x| x.1).reduce(f64::max));
        let f = nodes.entry(n.to_owned()).or_default();
        f.peak_mib = match (f.peak_mib, peak) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
    }
    for s in series(QueryKind::Allocated) {
        let Some(n) = node_of(s) else { continue };
        nodes.entry(n.to_owned()).or_default().allocated_seconds += sum(s);
    }
    nodes
}

fn health(answers: &Answers, pool: &str) -> Vec<Health> {
    let mut out = Vec::new();
    for (kind, label, code_from_value) in [(QueryKind::Xid, "xid", true), (QueryKind::Conditions, "condition", false)] {
        for s in answers.get(&kind).map(Vec::as_slice).unwrap_or(&[]) {
            let Some(n) = node_of(s) else { continue };
            if pool_of_node(n) != Some(pool) {
                continue;
            }
            let mut seen: BTreeMap<String, (f64, f64)> = BTreeMap::new();
            for (t, v) in s.points().unwrap_or_default() {
                let code = if code_from_value {
                    format!("{}", v.round() as i64)
                } else {
                    s.label("condition").unwrap_or("?").to_owned()
                };
                let e = seen.entry(code).or_insert((t, t));
                e.0 = e.0.min(t);
                e.1 = e.1.max(t);
            }
            for (code, (first, last)) in seen {
                out.push(Health {
                    node: n.to_owned(),
                    gpu: if code_from_value { s.label("gpu").map(str::to_owned) } else { None },
                    kind: label,
                    code,
                    first_seen: rfc3339(first as i64),
                    last_seen: rfc3339(last as i64),
                });
            }
        }
    }
    out
}

/// Round to 6 decimals (hours) so sums of steps print cleanly.
fn r6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

fn cents(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// How to turn DCGM scraping on.
pub const SCRAPE_HINT: &str = "no DCGM series for this pool's nodes: nothing is known of its use. Turn scraping on: \
managed GPU pools (gpuProfile.nvidia.managementMode Managed) export DCGM metrics; otherwise run dcgm-exporter \
and set `dcgmexporter = true` under default-scrape-settings-enabled in the ama-metrics-settings-configmap \
(learn.microsoft.com azure-monitor/containers/prometheus-metrics-scrape-configuration)";

impl PoolUsage {
    /// Pool `p` with nothing measured yet: every figure missing, `note` saying why.
    pub fn unmeasured(p: &FleetPool, currency: &str, note: Option<String>) -> Self {
        PoolUsage {
            subscription_id: p.subscription_id.clone(),
            resource_group: p.resource_group.clone(),
            cluster: p.cluster.clone(),
            pool: p.pool.clone(),
            vm_size: p.vm_size.clone(),
            measured: false,
            gpu_hours: None,
            idle_gpu_hours: None,
            allocated_gpu_hours: None,
            allocated_idle_gpu_hours: None,
            mean_utilization_percent: None,
            peak_memory_used_gib: None,
            idle_cost: None,
            currency: currency.to_owned(),
            price_date: p.price_date.clone(),
            health: Vec::new(),
            advice: Vec::new(),
            note,
        }
    }
}

/// The usage of every pool in `pools` (one cluster's) from `answers`.
pub fn pool_usage(
    catalog: &Catalog,
    pools: &[FleetPool],
    answers: &Answers,
    w: &Window,
    currency: &str,
) -> Vec<PoolUsage> {
    let nodes = figures(answers, w.step);
    pools
        .iter()
        .map(|p| {
            let mine: Vec<&NodeFigures> =
                nodes.iter().filter(|(n, _)| pool_of_node(n) == Some(p.pool.as_str())).map(|x| x.1).collect();
            let measured = mine.iter().any(|f| f.dcgm);
            let total = |f: fn(&NodeFigures) -> f64| mine.iter().map(|x| f(x)).sum::<f64>() / 3600.0;
            let allocated = mine.iter().any(|f| f.allocated_seconds > 0.0).then(|| r6(total(|f| f.allocated_seconds)));
            let mut u = PoolUsage::unmeasured(p, currency, (!measured).then(|| SCRAPE_HINT.to_owned()));
            u.measured = measured;
            u.allocated_gpu_hours = allocated;
            u.health = health(answers, &p.pool);
            if measured {
                let gpu_h = total(|f| f.gpu_seconds);
                let idle_h = total(|f| f.idle_seconds);
                u.gpu_hours = Some(r6(gpu_h));
                u.idle_gpu_hours = Some(r6(idle_h));
                u.allocated_idle_gpu_hours = Some(r6(total(|f| f.held_idle_seconds)));
                u.mean_utilization_percent = (gpu_h > 0.0).then(|| r6(total(|f| f.util_seconds) / gpu_h));
                u.peak_memory_used_gib =
                    mine.iter().filter_map(|f| f.peak_mib).reduce(f64::max).map(|m| r6(m / 1024.0));
                u.idle_cost = p.node_hourly_price.map(|price| cents(idle_h * price / p.gpus_per_node));
                u.advice = advice(catalog, p, &u, w);
            }
            u
        })
        .collect()
}

/// The GPU hourly list price of the pool's size.
fn gpu_price(p: &FleetPool) -> Option<f64> {
    p.node_hourly_price.map(|x| x / p.gpus_per_node)
}

/// Concrete advice from the measured use.
fn advice(catalog: &Catalog, p: &FleetPool, u: &PoolUsage, w: &Window) -> Vec<Advice> {
    let (Some(gpu_h), Some(idle_h)) = (u.gpu_hours, u.idle_gpu_hours) else { return Vec::new() };
    if gpu_h <= 0.0 || w.hours() <= 0.0 {
        return Vec::new();
    }
    let idle_share = idle_h / gpu_h;
    // GPUs the pool ran on average, and what one costs a month.
    let mean_gpus = gpu_h / w.hours();
    let gpu_month = gpu_price(p).map(|x| x * HOURS_PER_MONTH);
    let mut out = Vec::new();
    if let (Some(min), true) = (p.min_count.filter(|m| *m > 0), p.autoscaling && idle_share >= 0.5) {
        out.push(Advice {
            rule: "lower-autoscaler-minimum",
            message: format!(
                "{:.0}% of the GPU-hours were idle: lower the autoscaler minimum from {min} to 0 so idle nodes scale away",
                idle_share * 100.0
            ),
            monthly_saving: p.node_hourly_price.map(|x| cents(x * f64::from(min) * HOURS_PER_MONTH * idle_share)),
            source: "azure-aks-docs:articles/aks/cluster-autoscaler.md",
        });
    } else if idle_share >= 0.25 {
        out.push(Advice {
            rule: "stop-in-idle-hours",
            message: format!(
                "{:.0}% of the GPU-hours were idle: stop the cluster (`aksgpu cluster stop`) in the hours it idles, or scale the pool down",
                idle_share * 100.0
            ),
            monthly_saving: gpu_month.map(|g| cents(g * idle_h / w.hours())),
            source: "azure-aks-docs:articles/aks/start-stop-cluster.md",
        });
    }
    if let Some(peak) = u.peak_memory_used_gib {
        let need = peak * HEADROOM;
        if let Some(size) = catalog.size(&p.vm_size) {
            out.extend(mig_slice(catalog, p, size, need, mean_gpus, gpu_month));
            out.extend(smaller_size(catalog, p, size, need, mean_gpus));
            out.extend(time_slicing(size, u, need, mean_gpus, gpu_month));
        }
    }
    out
}

/// Utilisation below this mean, with two peaks fitting one GPU, makes a small steady user.
pub const SMALL_USER_PERCENT: f64 = 20.0;

/// Small steady users (low mean utilisation, a peak that fits twice in one GPU's memory with
/// headroom): two of them can share each GPU by time slicing (NVIDIA k8s-device-plugin
/// `sharing.timeSlicing.resources[].replicas`, its README's "Shared Access to GPUs").
fn time_slicing(size: &VmSize, u: &PoolUsage, need: f64, mean_gpus: f64, gpu_month: Option<f64>) -> Option<Advice> {
    let mean = u.mean_utilization_percent?;
    let small = mean < SMALL_USER_PERCENT && 2.0 * need <= size.gpu_memory_per_gpu_gib;
    if !small || u.allocated_gpu_hours.unwrap_or(0.0) <= 0.0 || size.gpu_count.is_partial() {
        return None;
    }
    Some(Advice {
        rule: "time-slicing",
        message: format!(
            "mean utilisation {mean:.0}% and a peak of {:.1} GiB: two such workloads fit one GPU; time-slice the GPUs (device plugin sharing.timeSlicing replicas: 2)",
            need / HEADROOM
        ),
        monthly_saving: gpu_month.map(|g| cents(g * mean_gpus / 2.0)),
        source: "NVIDIA/k8s-device-plugin README (Shared Access to GPUs: time-slicing)",
    })
}

/// A MIG slice that holds the peak with headroom, on a MIG-capable size not yet partitioned.
fn mig_slice(
    catalog: &Catalog,
    p: &FleetPool,
    size: &VmSize,
    need: f64,
    mean_gpus: f64,
    gpu_month: Option<f64>,
) -> Option<Advice> {
    if !size.mig_capable || p.mig_profile.is_some() {
        return None;
    }
    let gpu = catalog.gpu(&size.gpu_model)?;
    let m = gpu
        .mig_profiles
        .iter()
        .filter(|m| m.memory_gib >= need && m.instances >= 2)
        .min_by(|a, b| a.memory_gib.total_cmp(&b.memory_gib))?;
    // Each workload on its own slice: `instances` of them share one GPU.
    let saved = mean_gpus * (1.0 - 1.0 / f64::from(m.instances));
    Some(Advice {
        rule: "mig-slice",
        message: format!(
            "the peak GPU memory ({:.1} GiB, {:.1} GiB with headroom) fits a {} slice ({} GiB, {} per GPU): partition the pool with MIG ({})",
            need / HEADROOM,
            need,
            m.slice,
            m.memory_gib,
            m.instances,
            m.profile
        ),
        monthly_saving: gpu_month.map(|g| cents(g * saved)),
        source: "azure-aks-docs:articles/aks/gpu-multi-instance.md",
    })
}

/// The cheapest current, AKS-supported size with as many GPUs whose GPU memory holds the peak.
fn smaller_size(catalog: &Catalog, p: &FleetPool, size: &VmSize, need: f64, mean_gpus: f64) -> Option<Advice> {
    let now = p.node_hourly_price?;
    let os = if p.os.as_deref().is_some_and(|o| o.eq_ignore_ascii_case("Windows")) { Os::Windows } else { Os::Linux };
    let (best, price) = catalog
        .sizes
        .iter()
        .filter(|s| {
            s.aks_supported
                && s.status == crate::catalog::model::Status::Current
                && s.gpu_vendor == size.gpu_vendor
                && s.gpu_count == size.gpu_count
                && s.gpu_memory_per_gpu_gib >= need
                && s.name != size.name
        })
        .filter_map(|s| crate::cost::node_price(catalog, &s.name, Some(&p.location), os, p.spot).0.map(|x| (s, x)))
        .filter(|(_, x)| *x < now)
        .min_by(|a, b| a.1.total_cmp(&b.1))?;
    let nodes = mean_gpus / p.gpus_per_node;
    Some(Advice {
        rule: "smaller-size",
        message: format!(
            "{} ({} GiB per GPU, {:.2}/h) holds the peak GPU memory with headroom ({need:.1} GiB) for less than {} ({now:.2}/h)",
            best.name, best.gpu_memory_per_gpu_gib, price, size.name
        ),
        monthly_saving: Some(cents((now - price) * nodes * HOURS_PER_MONTH)),
        source: "catalog/sizes (GPU memory per GPU) and catalog/prices.yaml",
    })
}

/// Unix seconds as `YYYY-MM-DDTHH:MM:SSZ` (days to civil date: H. Hinnant, "chrono-Compatible
/// Low-Level Date Algorithms").
pub fn rfc3339(t: i64) -> String {
    let (days, secs) = (t.div_euclid(86_400), t.rem_euclid(86_400));
    let (y, m, d) = crate::domain::calendar::civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", secs / 3600, secs % 3600 / 60, secs % 60)
}

/// `YYYY-MM-DDTHH:MM:SS(Z|±HH:MM)` or `YYYY-MM-DD` as unix seconds.
pub fn parse_rfc3339(text: &str) -> Option<i64> {
    let t = text.trim();
    let (date, time) = t.split_once(['T', ' ']).unwrap_or((t, "00:00:00Z"));
    let mut d = date.split('-');
    let (y, m, day): (i64, i64, i64) = (d.next()?.parse().ok()?, d.next()?.parse().ok()?, d.next()?.parse().ok()?);
    if d.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&day) {
        return None;
    }
    let (clock, offset) = if let Some(c) = time.strip_suffix(['Z', 'z']) {
        (c, 0)
    } else {
        let i = time.rfind(['+', '-'])?;
        let (c, o) = time.split_at(i);
        let sign = if o.starts_with('-') { -1 } else { 1 };
        let (oh, om) = o[1..].split_once(':')?;
        (c, sign * (oh.parse::<i64>().ok()? * 3600 + om.parse::<i64>().ok()? * 60))
    };
    let mut c = clock.split(':');
    let (h, mi): (i64, i64) = (c.next()?.parse().ok()?, c.next()?.parse().ok()?);
    let s: f64 = c.next().unwrap_or("0").parse().ok()?;
    if h > 23 || mi > 59 || !(0.0..61.0).contains(&s) {
        return None;
    }
    let y2 = if m <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + h * 3600 + mi * 60 + s as i64 - offset)
}

/// Every node a cluster's answers name, with its pool (for the table's notes).
pub fn nodes_seen(answers: &Answers) -> BTreeSet<String> {
    answers.values().flatten().filter_map(node_of).map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_keep_every_series_under_the_point_limit() {
        assert_eq!(choose_step(0, 3600), 60);
        assert_eq!(choose_step(0, 7 * 86_400), 60);
        let month = 30 * 86_400;
        let s = choose_step(0, month);
        assert!(month as u64 / s <= MAX_POINTS && s % 60 == 0 && month as u64 / (s - 60) > MAX_POINTS, "{s}");
        assert_eq!(choose_step(0, 11_000 * 60), 60);
        assert_eq!(choose_step(0, 11_000 * 60 + 1), 120);
    }

    #[test]
    fn aks_node_names() {
        assert_eq!(pool_of_node("aks-gpu-12345678-vmss000000"), Some("gpu"));
        assert_eq!(pool_of_node("aks-a100pool-31245-vmss00000a"), Some("a100pool"));
        assert_eq!(pool_of_node("aks-gpu-123-notvmss"), None);
        assert_eq!(pool_of_node("node-1"), None);
        assert_eq!(pool_of_node("aks-gpu-12a-vmss0"), None);
    }

    #[test]
    fn every_query_filters_on_the_cluster() {
        let q = queries("c\"1", 5.0, 60);
        assert_eq!(q.len(), 5);
        for (_, text) in &q {
            assert!(text.matches("cluster=\"c\\\"1\"").count() >= 1, "{text}");
        }
    }

    fn series(labels: &[(&str, &str)], values: &[(f64, f64)]) -> PromSeries {
        PromSeries {
            metric: labels.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect(),
            values: Some(values.iter().map(|(t, v)| (*t, v.to_string())).collect()),
        }
    }

    /// One T4 node (1 GPU) for 10 one-minute steps: util 2 % for 4 steps, 10 % for 6; a pod
    /// holds it throughout and requests it; 3 GiB peak. Worked by hand: 10/60 GPU-h, 4/60 idle,
    /// mean (4×2 + 6×10)/10 = 6.8 %, allocated 10/60, allocated idle 4/60; idle cost 4/60 × price.
    #[test]
    fn a_pool_is_aggregated_from_its_nodes_only() {
        let catalog = Catalog::bundled().expect("catalog");
        let row: crate::resources::fleet::ClusterRow = serde_json::from_value(serde_json::json!({
            "id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/c",
            "name": "c", "location": "eastus", "properties": {"powerState": {"code": "Running"},
            "agentPoolProfiles": [{"name": "t4", "vmSize": "Standard_NC4as_T4_v3", "count": 1}]}}))
        .expect("row");
        let basis = super::super::PriceBasis { currency: "USD".into(), date: "d".into() };
        let (_, pools) = super::super::gpu_pools(&catalog, &row, &basis, &mut Vec::new()).expect("pools");
        let w = Window { start: 0, end: 600, step: 60 };
        let node = "aks-t4-1234-vmss000000";
        let t = |i: usize| (60 * (i + 1)) as f64;
        let util: Vec<(f64, f64)> = (0..10).map(|i| (t(i), if i < 4 { 2.0 } else { 10.0 })).collect();
        let ones: Vec<(f64, f64)> = (0..10).map(|i| (t(i), 1.0)).collect();
        let idle: Vec<(f64, f64)> = (0..4).map(|i| (t(i), 1.0)).collect();
        let mut a = Answers::new();
        a.insert(
            QueryKind::Gpus,
            vec![
                series(&[("Hostname", node), ("m", "gpus")], &ones),
                series(&[("Hostname", node), ("m", "idle")], &idle),
                series(&[("Hostname", node), ("m", "util")], &util),
                series(&[("Hostname", node), ("m", "held_idle")], &idle),
                // Another pool's node: not this pool's.
                series(&[("Hostname", "aks-other-1234-vmss000000"), ("m", "gpus")], &ones),
            ],
        );
        a.insert(QueryKind::Memory, vec![series(&[("Hostname", node)], &[(60.0, 1024.0), (120.0, 3072.0)])]);
        a.insert(QueryKind::Allocated, vec![series(&[("node", node)], &ones)]);
        let u = &pool_usage(&catalog, &pools, &a, &w, "USD")[0];
        assert!(u.measured);
        assert_eq!(u.gpu_hours, Some(r6(10.0 / 60.0)));
        assert_eq!(u.idle_gpu_hours, Some(r6(4.0 / 60.0)));
        assert_eq!(u.allocated_gpu_hours, Some(r6(10.0 / 60.0)));
        assert_eq!(u.allocated_idle_gpu_hours, Some(r6(4.0 / 60.0)));
        assert_eq!(u.mean_utilization_percent, Some(r6(6.8)));
        assert_eq!(u.peak_memory_used_gib, Some(3.0));
        let price = catalog.price("Standard_NC4as_T4_v3", "eastus").and_then(|p| p.linux).expect("price");
        assert_eq!(u.idle_cost, Some(cents(4.0 / 60.0 * price)));
        // 40 % idle: stop in idle hours; 6.8 % mean with 3.6 GiB twice in 16 GiB: time slicing.
        let rules: Vec<&str> = u.advice.iter().map(|a| a.rule).collect();
        assert!(rules.contains(&"stop-in-idle-hours") && rules.contains(&"time-slicing"), "{rules:?}");
        // Without DCGM series the pool is not measured, and nothing is zero.
        let none = &pool_usage(&catalog, &pools, &Answers::new(), &w, "USD")[0];
        assert!(!none.measured && none.gpu_hours.is_none() && none.idle_cost.is_none() && none.note.is_some());
    }

    #[test]
    fn times_round_trip() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_798_761_600), "2027-01-01T00:00:00Z");
        assert_eq!(parse_rfc3339("2027-01-01T00:00:00Z"), Some(1_798_761_600));
        assert_eq!(parse_rfc3339("2027-01-01T02:00:00+02:00"), Some(1_798_761_600));
        assert_eq!(parse_rfc3339("2027-01-01"), Some(1_798_761_600));
        assert_eq!(parse_rfc3339("2027-13-01"), None);
        assert_eq!(parse_rfc3339("yesterday"), None);
        for t in [951_782_400, 1_709_164_800, 4_102_444_799] {
            assert_eq!(parse_rfc3339(&rfc3339(t)), Some(t));
        }
    }
}
