//! `aksgpu cost`: what a size, or the GPU pools of a cluster, cost per hour, day and month.

use crate::cli::CostArgs;
use crate::cli::Format;
use crate::commands::session::{self as azure, subscription, Progress};
use crate::commands::{prices_in, Ctx};
use crate::error::{flag_text, Error};
use crate::ops::cost::{self as ops_cost, CostReport, Money};
use crate::ops::Catalog;
use crate::output::{emit, money_in, table, Align, Render};

/// `cost --cluster`: every GPU pool of the cluster, read from Azure.
fn cluster_reports(
    catalog: &Catalog,
    a: &CostArgs,
    cluster: &str,
    region: Option<String>,
    notes: &mut Vec<String>,
) -> Result<Vec<CostReport>, Error> {
    let rg = a.resource_group.clone().unwrap_or_default();
    let az = azure::connect(&a.arm)?;
    let sub = subscription(&az)?;
    let client = az.client;
    azure::run_interruptible(&Progress::default(), async {
        ops_cost::read_cluster_reports((&client, &sub), catalog, (&rg, cluster), (usage(a), region), notes).await
    })
}

/// How the flags say the pools are used.
fn usage(a: &CostArgs) -> ops_cost::Usage {
    ops_cost::Usage {
        need_gpu_memory_gib: a.need_gpu_memory.map(|m| m.gib),
        need_gpus: a.need_gpus,
        hours_per_day: a.hours_per_day,
    }
}

/// `aksgpu cost`
pub fn run(ctx: &Ctx, a: &CostArgs) -> anyhow::Result<()> {
    let mut catalog = ctx.catalog()?;
    let p = &ctx.printer;
    let source = prices_in(&mut catalog, &a.currency, p)?;
    let mut warnings = Vec::new();
    let region = a
        .region
        .as_deref()
        .map(|r| crate::ops::recommend::region_or_override(&catalog, r, &a.overrides, &mut warnings))
        .transpose()?;
    for w in &warnings {
        p.note(&format!("warning: {}", flag_text(w)));
    }
    let mut notes = Vec::new();
    let reports: Vec<CostReport> = match (&a.vm_size, &a.cluster) {
        (Some(name), _) => {
            let size = ops_cost::SizeCost {
                vm_size: name.clone(),
                count: a.count,
                min_count: a.min_count,
                max_count: a.max_count,
                os: a.os,
                spot: a.spot,
            };
            vec![ops_cost::size_report(&catalog, &size, usage(a), region)?]
        }
        (None, Some(cluster)) => cluster_reports(&catalog, a, cluster, region, &mut notes)?,
        (None, None) => return Err(Error::usage("pass --vm-size, or --cluster with -g", None).into()),
    };
    let view = ops_cost::view(&catalog, source, reports, notes);
    if a.output == Format::Table {
        for n in &view.notes {
            p.note(&format!("note: {n}"));
        }
    }
    emit(p, a.output, &view).map_err(Error::from)?;
    Ok(())
}

pub use crate::ops::cost::CostView;

impl Render for CostView {
    fn table(&self) -> String {
        let mut out = String::new();
        for r in &self.pools {
            out.push_str(&render(r));
            out.push('\n');
        }
        if self.pools.len() > 1 {
            out.push_str(&total_line(self));
        }
        out
    }
}

/// The total of a cost view: exact when every pool is priced, else what the priced pools cost
/// at least, and how many pools are not priced (never "unknown" for the whole).
fn total_line(v: &CostView) -> String {
    let m = |x: Option<f64>| money_in(x, &v.currency);
    if v.unpriced_pools == 0 {
        return format!(
            "Total per month: {} at minimum, {} at maximum\n",
            m(v.total_monthly_at_min),
            m(v.total_monthly_at_max)
        );
    }
    let n = v.unpriced_pools;
    if n == v.pools.len() {
        return "Total per month: unknown: no pool's price is known\n".to_owned();
    }
    format!(
        "Total per month: ≥ {} at minimum, ≥ {} at maximum, plus {n} pool{} with unknown price\n",
        m(v.known_monthly_at_min.or(Some(0.0))),
        m(v.known_monthly_at_max.or(Some(0.0))),
        if n == 1 { "" } else { "s" }
    )
}

fn render(r: &CostReport) -> String {
    let mut out = format!(
        "{}{} ({}) · {} · {}{}\n",
        r.pool.as_ref().map(|p| format!("pool {p}: ")).unwrap_or_default(),
        r.vm_size,
        r.gpu,
        r.price_kind,
        r.region.as_deref().unwrap_or("no region"),
        if r.cheapest_region { " (cheapest bundled region; --location to choose)" } else { "" }
    );
    let hours =
        if (r.hours_per_day - 24.0).abs() < 1e-9 { String::new() } else { format!(" at {} h/day", r.hours_per_day) };
    let col = |f: fn(&Money) -> Option<f64>| crate::output::money_column_in(&[f(&r.at_min), f(&r.at_max)], &r.currency);
    let (hourly, daily, monthly) = (col(|c| c.hourly), col(|c| c.daily), col(|c| c.monthly));
    let row = |i: usize, label: &str, c: &Money| {
        vec![format!("{label} ({} node(s))", c.nodes), hourly[i].clone(), daily[i].clone(), monthly[i].clone()]
    };
    out.push_str(&table(
        &["", "PER HOUR", &format!("PER DAY{hours}"), "PER MONTH"],
        &[Align::Left, Align::Right, Align::Right, Align::Right],
        &[row(0, "minimum", &r.at_min), row(1, "maximum", &r.at_max)],
    ));
    if let Some(src) = &r.price_source {
        let kind = if r.price_live { "live cache" } else { "bundled" };
        let date = r.price_date.as_deref().unwrap_or("date unknown");
        let age = r.price_age_days.map(|d| format!(", {d} day(s) old")).unwrap_or_default();
        out.push_str(&format!("price: {kind}, {date}{age} ({src})\n"));
    }
    if let Some(i) = r.idle_monthly {
        out.push_str(&format!("idle cost of the minimum: {}/month\n", money_in(Some(i), &r.currency)));
    }
    // A spot pool's saving; an on-demand pool's is in the advice ("spot would save …").
    if let Some(s) = r.spot_saving_monthly.filter(|_| r.price_kind.contains("spot")) {
        out.push_str(&format!("spot saves: {}/month against on-demand\n", money_in(Some(s), &r.currency)));
    }
    for a in &r.advice {
        out.push_str(&format!("  - {}\n", flag_text(a)));
    }
    out
}
