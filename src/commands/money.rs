//! Cost and freshness: `cost`, `prices refresh`, `catalog diff`, `cluster stop|start`,
//! `cost-analysis enable` and `pool scale`.

use std::time::SystemTime;

use serde::Serialize;
use serde_json::{json, Value};

use crate::arm::retry::Sleeper;
use crate::arm::{ArmClient, Cloud, Endpoint, Verbosity};
use crate::catalog::Catalog;
use crate::cli::{
    ArmArgs, CatalogDiffArgs, ClusterPowerArgs, ClusterTarget, CostArgs, Format, PoolScaleArgs, PricesRefreshArgs,
};
use crate::commands::azure::{self, base_url, subscription};
use crate::commands::{confirm, Ctx};
use crate::cost::{self, CostReport};
use crate::error::Error;
use crate::ops::cluster::{ClusterAction, ClusterRequest};
use crate::ops::cost as ops_cost;
use crate::ops::prices as ops_prices;
use crate::output::{emit, table, Align, Printer, Render, Shown};
use crate::plan::cluster::Scale;
use crate::pricing::{self, PriceSource};
use crate::provision::cluster_ops::Outcome;
use crate::provision::prices;
use crate::provision::Progress;
use crate::units::money_in;

/// Merge the live price cache into the catalog; returns where prices come from (and prints
/// a warning for an expired or corrupt cache).
pub fn with_live_prices(catalog: &mut Catalog, p: &Printer) -> PriceSource {
    let Some(path) = pricing::cache_path() else {
        return PriceSource::Bundled { as_of: catalog.prices.as_of.clone() };
    };
    let (src, warning) = pricing::apply(catalog, pricing::read_cache(&path), &path, SystemTime::now());
    if let Some(w) = warning {
        p.note(&format!("warning: {w}"));
    }
    src
}

/// The prices in `currency`: USD is the bundled table with the live cache over it; any other
/// currency needs its own cache (`prices refresh --currency CODE`), and replaces every price.
pub fn prices_in(catalog: &mut Catalog, currency: &str, p: &Printer) -> Result<PriceSource, Error> {
    if currency.eq_ignore_ascii_case("USD") {
        return Ok(with_live_prices(catalog, p));
    }
    let hint = || Some(format!("run `aksgpu prices refresh --currency {currency}`; bundled prices are USD only"));
    let path = pricing::cache_path_for(currency)
        .ok_or_else(|| Error::usage("no cache directory (set HOME or AKSGPU_CACHE_DIR)", hint()))?;
    let cache = pricing::read_cache(&path).map_err(|e| match e {
        pricing::CacheError::Io { path, source } => Error::io(path, "read", source),
        why @ pricing::CacheError::Invalid(_) => Error::usage(format!("--currency {currency}: {why}"), hint()),
    })?;
    pricing::use_currency(catalog, cache, currency, &path, SystemTime::now())
        .map_err(|why| Error::usage(format!("--currency {currency}: {why}"), hint()))
}

/// The prices for `--currency`: none given is USD as always (nothing more is read); a
/// currency given is `prices_in` (a non-USD one needs its cache, else exit 2 with the refresh
/// command).
pub fn prices_for(catalog: &mut Catalog, currency: Option<&str>, p: &Printer) -> Result<PriceSource, Error> {
    match currency {
        None => Ok(with_live_prices(catalog, p)),
        Some(c) => prices_in(catalog, c, p),
    }
}

/// The cost input of one GPU pool (`None` for a pool that is not a GPU size in the catalog).
/// The node counts are read typed: a count Azure did not send is an error naming the field,
/// never zero nodes at $0.
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
    let (c, pools) = azure::run_interruptible(&Progress::default(), async {
        let facts = crate::provision::facts::Store::with_cache_dir();
        Ok(crate::provision::read_cluster_and_pools(&client, &facts, &sub, &rg, cluster).await?)
    })?;
    ops_cost::cluster_reports(catalog, (cluster, &c, &pools), usage(a), region, notes)
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
pub fn cost(ctx: &Ctx, a: &CostArgs) -> anyhow::Result<()> {
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
        p.note(&format!("warning: {w}"));
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
    let col =
        |f: fn(&cost::Money) -> Option<f64>| crate::units::money_column_in(&[f(&r.at_min), f(&r.at_max)], &r.currency);
    let (hourly, daily, monthly) = (col(|c| c.hourly), col(|c| c.daily), col(|c| c.monthly));
    let row = |i: usize, label: &str, c: &cost::Money| {
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
        out.push_str(&format!("  - {a}\n"));
    }
    out
}

pub use crate::cost::PlanPricing;

/// A plan's cost as a table: notes, then two rows per pool (minimum and maximum node counts).
pub fn plan_pricing_text(cost: &PlanPricing) -> String {
    let mut out = String::from("Cost (list prices, 730 h a month):\n");
    for n in &cost.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    let mut rows = Vec::new();
    for c in &cost.pools {
        let m = |v: Option<f64>| crate::units::money_in(v, &c.currency);
        let region = c.region.clone().unwrap_or_else(|| "unknown".into());
        rows.push(vec![
            c.pool.clone(),
            c.vm_size.clone(),
            c.price_kind.clone(),
            region,
            format!("min {}", c.min_nodes),
            m(c.hourly_at_min),
            m(c.monthly_at_min),
        ]);
        rows.push(vec![
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            format!("max {}", c.max_nodes),
            m(c.hourly_at_max),
            m(c.monthly_at_max),
        ]);
    }
    out.push_str(&table(
        &["POOL", "SIZE", "PRICE", "REGION", "NODES", "PER HOUR", "PER MONTH"],
        &[Align::Left, Align::Left, Align::Left, Align::Left, Align::Left, Align::Right, Align::Right],
        &rows,
    ));
    if let (true, Some(c)) = (cost.pools.len() > 1, cost.pools.first()) {
        let unpriced = cost.pools.iter().filter(|p| p.monthly_at_min.is_none()).count();
        let m = |v: Option<f64>| money_in(v, &c.currency);
        if unpriced == 0 || unpriced == cost.pools.len() {
            out.push_str(&format!(
                "Total per month: {} at the minimums, {} at the maximums\n",
                m(cost.total_monthly_at_min),
                m(cost.total_monthly_at_max)
            ));
        } else {
            // What the priced pools cost at least: one unknown price never hides the rest.
            let known =
                |f: fn(&cost::PlanCost) -> Option<f64>| cost::sum_cents(cost.pools.iter().filter_map(f).map(Some));
            out.push_str(&format!(
                "Total per month: ≥ {} at the minimums, ≥ {} at the maximums, plus {unpriced} pool{} with unknown price\n",
                m(known(|p| p.monthly_at_min)),
                m(known(|p| p.monthly_at_max)),
                if unpriced == 1 { "" } else { "s" }
            ));
        }
    }
    for c in &cost.pools {
        match (&c.unknown, &c.price_source) {
            (Some(why), _) => out.push_str(&format!("{}: price unknown: {why}\n", c.pool)),
            (None, Some(_)) => out.push_str(&format!(
                "{}: {}{}/h a node, {} price of {}\n",
                c.pool,
                crate::units::currency_symbol(&c.currency),
                c.price_per_node_hour.unwrap_or_default(),
                if c.price_live { "live" } else { "bundled" },
                c.price_date.as_deref().unwrap_or("unknown date")
            )),
            (None, None) => {}
        }
    }
    out
}

/// `aksgpu prices refresh`
pub fn prices_refresh(ctx: &Ctx, a: &PricesRefreshArgs) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    let p = &ctx.printer;
    let req = ops_prices::RefreshRequest { currency: a.currency.clone(), regions: a.region.clone() };
    let queries = ops_prices::queries(&catalog, &req)?;
    let base = std::env::var("AKSGPU_PRICES_ENDPOINT")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| prices::DEFAULT_ENDPOINT.to_owned());
    let endpoint = Endpoint::new(Cloud::AzureCloud, Some(&base))?;
    let mut client = ArmClient::new(endpoint, None, Sleeper::from_env())?;
    client.verbosity = if a.verbose > 0 { Verbosity::Requests } else { Verbosity::Quiet };
    client.log_sink = Some(crate::output::log_line);
    let bar = crate::output::Progress::bar(p.stderr_tty, queries.len() as u64);
    let report = |done: usize, _total: usize| bar.set(done as u64);
    let done = azure::run_interruptible(&Progress::default(), async {
        ops_prices::refresh((&client, &base), queries, &report).await
    });
    bar.finish();
    let r = done?;
    let currency = &r.currency;
    let text = format!(
        "Fetched {} price rows: {} sizes × regions for {} sizes, in {currency}.\nSaved to {} ({}).",
        r.items,
        r.size_regions,
        r.sizes,
        r.path,
        if currency == "USD" {
            "recommend, cost and every plan use it from now on".to_owned()
        } else {
            format!("`--currency {currency}` on cost, recommend and plans uses it")
        }
    );
    emit(p, a.output, &Shown::new(text, &r)).map_err(Error::from)?;
    Ok(())
}

/// `aksgpu catalog diff`
pub fn catalog_diff(ctx: &Ctx, a: &CatalogDiffArgs) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    let location = crate::ops::drift::location(&catalog, &a.location)?;
    let az = azure::connect(&a.arm)?;
    let sub = subscription(&az)?;
    let client = az.client;
    let p = &ctx.printer;
    let d = azure::run_with_spinner(p, &Progress::default(), None, async |report| {
        crate::ops::drift::compare((&client, &sub), &catalog, &location, &report).await
    })?;
    emit(p, a.output, &DriftView { location: &location, drift: &d }).map_err(Error::from)?;
    if a.fail_on_drift && d.drift {
        return Err(Error::NoFit {
            message: format!("the catalog has drifted from Azure in {location}"),
            hint: Some("update catalog/sizes/*.yaml from Microsoft's size pages".into()),
        }
        .into());
    }
    Ok(())
}

/// `catalog diff`: the drift report; JSON and YAML are the report itself.
#[derive(Serialize)]
#[serde(transparent)]
struct DriftView<'a> {
    #[serde(skip)]
    location: &'a str,
    drift: &'a crate::drift::Drift,
}

impl Render for DriftView<'_> {
    fn table(&self) -> String {
        let d = self.drift;
        let mut out = format!(
            "Catalog vs Azure resource SKUs in {}: {}\n",
            self.location,
            if d.drift { "drift found" } else { "no drift" }
        );
        let list = |title: &str, v: &[String], out: &mut String| {
            if !v.is_empty() {
                out.push_str(&format!("\n{title} ({}):\n", v.len()));
                for x in v {
                    out.push_str(&format!("  {x}\n"));
                }
            }
        };
        list("GPU sizes Azure offers that the catalog lacks", &d.missing_from_catalog, &mut out);
        if !d.mismatches.is_empty() {
            out.push_str(&format!("\nMismatches ({}):\n", d.mismatches.len()));
            for m in &d.mismatches {
                out.push_str(&format!("  {} {}: catalog {}, Azure {}\n", m.vm_size, m.field, m.catalog, m.azure));
            }
        }
        list("Current catalog sizes not offered here", &d.not_offered_here, &mut out);
        list("Offered here, but not to this subscription", &d.restricted_for_subscription, &mut out);
        list("GPU count not compared (no GPUs capability, or a partial GPU)", &d.gpu_count_not_compared, &mut out);
        out
    }
}

fn print_ops(
    p: &Printer,
    format: Format,
    base: &str,
    o: Outcome,
    done: impl Fn(&Value) -> String,
) -> Result<(), Error> {
    let status = match o {
        Outcome::Unchanged(msg) => {
            Shown::new(format!("{msg}: nothing to do"), json!({"status": "unchanged", "message": msg}))
        }
        Outcome::DryRun(plan) => {
            return azure::render_plan(p, format, base, &plan, "Dry run: no change is made.", json!({}))
        }
        Outcome::Done(v) => Shown::new(done(&v), json!({"status": "done", "resource": v})),
    };
    Ok(emit(p, format, &status)?)
}

/// The cluster the flags name, in `subscription`, as the typed request of `ops::cluster`.
fn request(subscription: String, t: &ClusterTarget, arm: &ArmArgs) -> ClusterRequest {
    ClusterRequest {
        subscription,
        resource_group: t.resource_group.clone(),
        cluster: t.cluster.clone(),
        timeout: arm.timeout,
    }
}

/// Run `action` on the cluster the flags name: a dry run from the flags alone, else read and
/// write with a spinner.
fn run_action(
    ctx: &Ctx,
    arm: &ArmArgs,
    t: &ClusterTarget,
    dry: bool,
    action: &ClusterAction,
) -> Result<Outcome, Error> {
    if dry {
        // With credentials the real run's reads are made (GETs only) and the plan is built
        // from them; without, from the flags, with what would be read as placeholders.
        return azure::dry_run_reads(
            &ctx.printer,
            arm,
            async |client, sub| {
                crate::ops::cluster::dry_run_read(client, &request(sub.to_owned(), t, arm), action).await
            },
            |sub| crate::ops::cluster::dry_run(&request(sub.to_owned(), t, arm), action),
        );
    }
    let az = azure::connect(arm)?;
    let req = request(subscription(&az)?, t, arm);
    let (client, progress) = (az.client, Progress::default());
    azure::run_with_spinner(&ctx.printer, &progress, None, async |report| {
        crate::ops::cluster::run(&client, &req, action, (&report, &progress)).await
    })
}

/// `aksgpu cluster stop|start`
pub fn cluster_power(ctx: &Ctx, a: &ClusterPowerArgs, start: bool) -> anyhow::Result<()> {
    let verb = if start { "start" } else { "stop" };
    let question = format!(
        "{} cluster {} (resource group {})?",
        if start { "Start" } else { "Stop" },
        a.target.cluster,
        a.target.resource_group
    );
    confirm::write(ctx, &format!("cluster {verb}"), a.yes, a.dry_run, &question)?;
    let r = run_action(ctx, &a.arm, &a.target, a.dry_run, &ClusterAction::Power { start })?;
    print_ops(&ctx.printer, a.output, &base_url(&a.arm), r, |v| {
        // The state Azure returned, never the one asked for.
        let c = crate::resources::parse::<crate::resources::ManagedCluster>(v, "cluster").ok();
        let state =
            c.and_then(|c| c.power().ok()).unwrap_or_else(|| "of a power state Azure did not return".to_owned());
        format!("cluster {} is {state}", a.target.cluster)
    })?;
    Ok(())
}

/// `aksgpu cost-analysis enable`
pub fn cost_analysis(ctx: &Ctx, a: &ClusterPowerArgs) -> anyhow::Result<()> {
    let question =
        format!("Enable cost analysis on cluster {} (resource group {})?", a.target.cluster, a.target.resource_group);
    confirm::write(ctx, "cost-analysis enable", a.yes, a.dry_run, &question)?;
    let r = run_action(ctx, &a.arm, &a.target, a.dry_run, &ClusterAction::CostAnalysis)?;
    print_ops(&ctx.printer, a.output, &base_url(&a.arm), r, |_| {
        format!("cost analysis enabled on {}", a.target.cluster)
    })?;
    Ok(())
}

/// `aksgpu pool scale`
pub fn pool_scale(ctx: &Ctx, a: &PoolScaleArgs) -> anyhow::Result<()> {
    crate::plan::agent_pool::check_pool_name(&a.at.name)
        .map_err(|e| Error::usage(format!("--name: {}", e.message), e.hint))?;
    let how = match (a.count, a.min_count, a.max_count) {
        (Some(c), None, None) => Scale::Count(c),
        (None, Some(min), Some(max)) => {
            if min > max {
                return Err(Error::usage(format!("--min-count {min} is larger than --max-count {max}"), None).into());
            }
            Scale::Autoscale { min, max }
        }
        _ => return Err(Error::usage("pass --count, or --min-count with --max-count", None).into()),
    };
    let to = match how {
        Scale::Count(c) => format!("{c} node(s)"),
        Scale::Autoscale { min, max } => format!("autoscaler {min}–{max}"),
    };
    let question = format!("Scale pool {} of cluster {} to {to}?", a.at.name, a.at.target.cluster);
    confirm::write(ctx, "pool scale", a.yes, a.dry_run, &question)?;
    if a.dry_run {
        return scale_dry_run(ctx, a, how);
    }
    let action = ClusterAction::Scale { pool: a.at.name.clone(), how };
    let r = run_action(ctx, &a.at.arm, &a.at.target, false, &action)?;
    if let Outcome::Done(v) = &r {
        let p = crate::resources::parse::<crate::resources::AgentPool>(v, "agent pool").ok();
        let sub = p.and_then(|p| p.id).and_then(|id| id.split('/').nth(2).map(str::to_owned)).unwrap_or_default();
        node_image_note(ctx, &request(sub, &a.at.target, &a.at.arm), v)?;
    }
    print_ops(&ctx.printer, a.output, &base_url(&a.at.arm), r, |v| {
        let Ok(pool) = crate::resources::parse::<crate::resources::AgentPool>(v, "agent pool") else {
            return format!("pool {}: Azure returned a pool of another shape", a.at.name);
        };
        let p = &pool.properties;
        let n = |x: Option<u32>| x.map_or_else(|| "(not returned)".to_owned(), |x| x.to_string());
        if p.enable_auto_scaling == Some(true) {
            format!("pool {}: {} node(s), autoscaler {}–{}", a.at.name, n(p.count), n(p.min_count), n(p.max_count))
        } else {
            format!("pool {}: {} node(s)", a.at.name, n(p.count))
        }
    })?;
    Ok(())
}

pub use crate::ops::cluster::SCALE_UNREAD;

/// Warn when the pool's size has a node image floor and the pool runs an older image.
fn node_image_note(ctx: &Ctx, req: &ClusterRequest, pool: &Value) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    let at = (req.subscription.as_str(), req.resource_group.as_str(), req.cluster.as_str());
    if let Some(w) = crate::plan::preflight::node_image_warning(&catalog, pool, at) {
        ctx.printer.note(&format!("warning: {w}"));
    }
    Ok(())
}

/// `pool scale --dry-run`. With credentials the pool (its counts, eTag, size) and its cluster
/// (the region, for the cost) are read once, GETs only; without, what would be read is a
/// placeholder.
fn scale_dry_run(ctx: &Ctx, a: &PoolScaleArgs, how: Scale) -> anyhow::Result<()> {
    let arm = &a.at.arm;
    let (sub, read) = azure::dry_run_reads(
        &ctx.printer,
        arm,
        async |client, sub| {
            let req = request(sub.to_owned(), &a.at.target, arm);
            Ok((sub.to_owned(), Some(crate::ops::cluster::read_pool_and_cluster(client, &req, &a.at.name).await?)))
        },
        |sub| Ok((sub.to_owned(), None)),
    )?;
    let req = request(sub, &a.at.target, arm);
    if let Some((pool, _)) = &read {
        node_image_note(ctx, &req, pool)?;
    }
    match crate::ops::cluster::scale_plan(&req, &a.at.name, how, read.as_ref())? {
        Outcome::DryRun(plan) => {
            let cost = scale_cost(ctx, a, how, read)?;
            let header = "Dry run: no change is made.";
            azure::render_priced_plan(&ctx.printer, a.output, (&base_url(arm), &plan, header), json!({}), &cost)?;
        }
        same => print_ops(&ctx.printer, a.output, &base_url(arm), same, |_| String::new())?,
    }
    Ok(())
}

/// The cost of the counts `pool scale` asks for, from the pool (its size, OS and priority) and
/// its cluster (its region) the dry run read with credentials; without them (`None`) every
/// figure is unknown, and says why.
fn scale_cost(ctx: &Ctx, a: &PoolScaleArgs, how: Scale, read: Option<(Value, Value)>) -> anyhow::Result<PlanPricing> {
    let counts = crate::ops::cluster::scale_counts(how);
    let mut catalog = ctx.catalog()?;
    let Some((pool, cluster)) = read else {
        return Ok(PlanPricing::unread(&catalog, &[(&a.at.name, counts)], SCALE_UNREAD));
    };
    with_live_prices(&mut catalog, &ctx.printer);
    Ok(crate::ops::cluster::scale_cost(&catalog, &a.at.name, how, &pool, &cluster))
}
