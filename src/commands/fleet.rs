//! `aksgpu fleet` and `aksgpu usage`: flags into `ops::fleet` / `ops::usage` requests, results
//! through `output`.

use serde::Serialize;

use crate::cli::fleet::WindowArgs;
use crate::cli::{FleetArgs, UsageArgs};
use crate::commands::session::{self as azure, Progress};
use crate::commands::Ctx;
use crate::error::Error;
use crate::ops::fleet::{price_basis as basis, FleetRequest, FleetView};
use crate::ops::usage::{self as ops_usage, PoolUsage, UsageRequest, UsageTotals, Window};
use crate::output::{emit, table, Align, Shown};

/// The window the flags ask for.
fn window(w: &WindowArgs) -> Result<Window, Error> {
    match (w.start, w.end) {
        (Some(s), Some(e)) if s >= e => Err(Error::usage(
            "--start must be before --end",
            Some("e.g. --start 2026-11-01T00:00:00Z --end 2026-11-08T00:00:00Z".into()),
        )),
        (Some(s), Some(e)) => Ok(Window::new(s, e)),
        _ => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_err(|_| Error::internal("the clock is before 1970"))?
                .as_secs() as i64;
            let end = now - now % 60;
            Ok(Window::new(end - w.since.as_secs() as i64, end))
        }
    }
}

/// The usage part of an output.
#[derive(Debug, Serialize)]
struct UsageOut {
    window: Window,
    idle_below_percent: f64,
    pools: Vec<PoolUsage>,
    totals: UsageTotals,
    /// Prometheus queries sent.
    queries: usize,
}

fn money(v: Option<f64>) -> String {
    v.map_or_else(|| "?".to_owned(), |x| format!("{x:.2}"))
}

fn num(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |x| format!("{x:.1}"))
}

fn fleet_text(v: &FleetView) -> String {
    let rows: Vec<Vec<String>> = v
        .pools
        .iter()
        .map(|p| {
            let nodes = match (p.count, p.min_count, p.max_count) {
                (c, Some(lo), Some(hi)) => format!("{} ({lo}-{hi})", c.map_or("?".into(), |c| c.to_string())),
                (c, _, _) => c.map_or("?".into(), |c| c.to_string()),
            };
            let worst = p.findings.iter().map(|f| f.severity).max().map_or("-".into(), |s| s.name().to_owned());
            vec![
                format!("{}/{}", p.resource_group, p.cluster),
                p.pool.clone(),
                p.vm_size.clone(),
                nodes,
                p.power_state.clone().unwrap_or_else(|| "?".into()),
                money(p.monthly_cost_now),
                worst,
            ]
        })
        .collect();
    let mut t = format!("GPU pools in {} subscription(s), {} cluster(s):\n", v.totals.subscriptions, v.totals.clusters);
    let aligns = [Align::Left, Align::Left, Align::Left, Align::Right, Align::Left, Align::Right, Align::Left];
    let headers = ["CLUSTER", "POOL", "SIZE", "NODES", "POWER", &format!("{}/MONTH NOW", v.currency), "FINDINGS"];
    t.push_str(&table(&headers, &aligns, &rows));
    for p in &v.pools {
        for f in &p.findings {
            t.push_str(&format!(
                "{}/{}/{}: {} {}: {}\n",
                p.resource_group,
                p.cluster,
                p.pool,
                f.severity.name(),
                f.rule,
                f.message
            ));
        }
    }
    t.push_str(&format!(
        "total: {} GPU pool(s), {} GPU(s) now, {} {} a month now, {} at max (list prices of {})\n",
        v.totals.gpu_pools,
        v.totals.gpus,
        money(v.totals.monthly_cost_now),
        v.currency,
        money(v.totals.monthly_cost_at_max),
        v.price_date
    ));
    for w in &v.warnings {
        t.push_str(&format!("warning: {w}\n"));
    }
    t
}

fn usage_text(u: &UsageOut) -> String {
    let rows: Vec<Vec<String>> = u
        .pools
        .iter()
        .map(|p| {
            if !p.measured {
                return vec![
                    format!("{}/{}", p.resource_group, p.cluster),
                    p.pool.clone(),
                    p.vm_size.clone(),
                    "not measured".into(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                ];
            }
            vec![
                format!("{}/{}", p.resource_group, p.cluster),
                p.pool.clone(),
                p.vm_size.clone(),
                num(p.gpu_hours),
                num(p.idle_gpu_hours),
                num(p.allocated_gpu_hours),
                num(p.allocated_idle_gpu_hours),
                num(p.mean_utilization_percent),
                num(p.peak_memory_used_gib),
                money(p.idle_cost),
            ]
        })
        .collect();
    let mut t = format!(
        "GPU use from {} to {} (step {} s; idle below {}%):\n",
        ops_usage::rfc3339(u.window.start),
        ops_usage::rfc3339(u.window.end),
        u.window.step,
        u.idle_below_percent
    );
    let headers =
        ["CLUSTER", "POOL", "SIZE", "GPU-H", "IDLE-H", "ALLOC-H", "ALLOC IDLE-H", "UTIL %", "PEAK GiB", "IDLE COST"];
    let mut aligns = vec![Align::Left; 3];
    aligns.extend([Align::Right; 7]);
    t.push_str(&table(&headers, &aligns, &rows));
    for p in &u.pools {
        let at = format!("{}/{}/{}", p.resource_group, p.cluster, p.pool);
        if let Some(n) = &p.note {
            t.push_str(&format!("{at}: {n}\n"));
        }
        for h in &p.health {
            let gpu = h.gpu.as_deref().map(|g| format!(" GPU {g}")).unwrap_or_default();
            t.push_str(&format!(
                "{at}: {}{gpu}: {} {} (first {}, last {})\n",
                h.node, h.kind, h.code, h.first_seen, h.last_seen
            ));
        }
        for a in &p.advice {
            t.push_str(&format!(
                "{at}: advice {}: {} (saves {} {} a month)\n",
                a.rule,
                a.message,
                money(a.monthly_saving),
                p.currency
            ));
        }
    }
    t.push_str(&format!(
        "total: {:.1} GPU-hours, {:.1} idle, idle cost {} {}\n",
        u.totals.gpu_hours,
        u.totals.idle_gpu_hours,
        money(u.totals.idle_cost),
        u.totals.currency
    ));
    t
}

#[derive(Debug, Serialize)]
struct FleetOut<'a> {
    #[serde(flatten)]
    view: &'a FleetView,
    #[serde(skip_serializing_if = "Option::is_none")]
    usage: Option<&'a UsageOut>,
}

/// `aksgpu fleet`
pub fn fleet(ctx: &Ctx, a: &FleetArgs) -> anyhow::Result<()> {
    let p = &ctx.printer;
    let mut catalog = ctx.catalog()?;
    let source = crate::commands::with_live_prices(&mut catalog, p);
    let basis = basis(&catalog, &source);
    let win = if a.usage { Some(window(&a.window)?) } else { None };
    let az = azure::connect(&a.scope.arm())?;
    let req = FleetRequest {
        subscriptions: a.scope.subscriptions.clone(),
        management_group: a.scope.management_group.clone(),
    };
    let progress = Progress::default();
    let (view, usage) = azure::run_with_spinner(p, &progress, None, async |report| {
        let view = crate::ops::fleet::run(&az.client, &catalog, &basis, &req, report).await?;
        let usage = match win {
            None => None,
            Some(w) => {
                let r = UsageRequest { window: w, idle_below: a.window.idle_below };
                let at = (a.scope.cloud, a.window.prometheus_endpoint.as_deref());
                let (pools, queries) =
                    ops_usage::measure_all(&az, &catalog, at, (&view.clusters, &view.pools), &r, report).await?;
                let totals = ops_usage::totals(&pools, &catalog.prices.currency);
                Some(UsageOut { window: w, idle_below_percent: r.idle_below, pools, totals, queries })
            }
        };
        Ok((view, usage))
    })?;
    let mut text = fleet_text(&view);
    if let Some(u) = &usage {
        text.push('\n');
        text.push_str(&usage_text(u));
    }
    emit(p, a.output, &Shown::new(text, FleetOut { view: &view, usage: usage.as_ref() }))?;
    fail_on(a, &view)
}

fn fail_on(a: &FleetArgs, view: &FleetView) -> anyhow::Result<()> {
    let (Some(level), Some(worst)) = (a.fail_on, crate::ops::fleet::worst(&view.pools)) else { return Ok(()) };
    if worst < level.severity() {
        return Ok(());
    }
    let n = view.pools.iter().flat_map(|p| &p.findings).filter(|f| f.severity >= level.severity()).count();
    Err(Error::Refused {
        message: format!("{n} finding(s) at or above --fail-on {}", level.severity().name()).into(),
        hint: None,
    }
    .into())
}

/// `aksgpu usage`
pub fn usage(ctx: &Ctx, a: &UsageArgs) -> anyhow::Result<()> {
    let p = &ctx.printer;
    let mut catalog = ctx.catalog()?;
    let source = crate::commands::with_live_prices(&mut catalog, p);
    let basis = basis(&catalog, &source);
    let w = window(&a.window)?;
    let az = azure::connect(&a.arm)?;
    let sub = azure::subscription(&az)?;
    let (rg, name) = (&a.target.resource_group, &a.target.cluster);
    let progress = Progress::default();
    let out = azure::run_with_spinner(p, &progress, None, async |report| {
        let (cluster, pools) = ops_usage::read_cluster(&az.client, &catalog, (&sub, rg, name), &basis, report).await?;
        let r = UsageRequest { window: w, idle_below: a.window.idle_below };
        let at = (a.arm.cloud, a.window.prometheus_endpoint.as_deref());
        let (pools, queries) = ops_usage::measure_all(&az, &catalog, at, (&[cluster], &pools), &r, report).await?;
        let totals = ops_usage::totals(&pools, &catalog.prices.currency);
        Ok(UsageOut { window: w, idle_below_percent: r.idle_below, pools, totals, queries })
    })?;
    if out.pools.is_empty() {
        p.note(&format!("cluster {rg}/{name} has no GPU pool"));
    }
    emit(p, a.output, &Shown::new(usage_text(&out), &out))?;
    Ok(())
}
