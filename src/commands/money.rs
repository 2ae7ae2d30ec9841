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
use crate::cost::{self, CostInput, CostReport};
use crate::error::{did_you_mean, Error};
use crate::output::{emit, table, Align, Printer, Render, Shown};
use crate::plan::cluster::Scale;
use crate::plan::cluster_ops::{self as ops, Target};
use crate::plan::Plan;
use crate::pricing::{self, PriceCache, PriceSource};
use crate::provision::cluster_ops::{self, OpsError, Outcome};
use crate::provision::prices;
use crate::provision::Progress;
use crate::recommend::Os;
use crate::resources::{self, AgentPool, MissingField};
use crate::units::money_in;

impl From<OpsError> for Error {
    fn from(e: OpsError) -> Self {
        match e {
            OpsError::Arm(a) => Error::from(a),
            OpsError::Refused(m) => Error::Refused { message: m, hint: None },
        }
    }
}

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
    let cache =
        pricing::read_cache(&path).map_err(|why| Error::usage(format!("--currency {currency}: {why}"), hint()))?;
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
fn pool_input(
    catalog: &Catalog,
    pool: &Value,
    region: Option<String>,
    a: &CostArgs,
) -> Result<Option<CostInput>, MissingField> {
    let p = &pool["properties"];
    let Some(size) = p["vmSize"].as_str().and_then(|s| catalog.size(s)).cloned() else { return Ok(None) };
    let typed: AgentPool = resources::parse(pool, "agent pool")?;
    let (min, max) = typed.node_range()?;
    let spot = p["scaleSetPriority"].as_str() == Some("Spot");
    Ok(Some(CostInput {
        need_gpu_memory_gib: a.need_gpu_memory.map_or(size.gpu_memory_per_gpu_gib, |m| m.gib),
        need_gpus: a.need_gpus.unwrap_or(size.gpu_count.value()),
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
        hours_per_day: a.hours_per_day,
        deallocate: p["scaleDownMode"].as_str() == Some("Deallocate")
            || (spot && p["scaleSetEvictionPolicy"].as_str() == Some("Deallocate")),
        mig_profile: p["gpuInstanceProfile"].as_str().map(str::to_owned),
        size,
    }))
}

/// `cost --vm-size`: one size at the asked node counts.
fn size_report(catalog: &Catalog, a: &CostArgs, name: &str, region: Option<String>) -> Result<CostReport, Error> {
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
        need_gpu_memory_gib: a.need_gpu_memory.map_or(size.gpu_memory_per_gpu_gib, |m| m.gib),
        need_gpus: a.need_gpus.unwrap_or(size.gpu_count.value()),
        size: size.clone(),
        pool: None,
        min_nodes: min,
        max_nodes: max,
        os: a.os.unwrap_or(Os::Linux),
        spot: a.spot,
        region,
        hours_per_day: a.hours_per_day,
        deallocate: false,
        mig_profile: None,
    };
    Ok(cost::estimate(catalog, &input))
}

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
    let region = region.or_else(|| crate::plan::preflight::location(&c));
    if c.pointer("/properties/powerState/code").and_then(Value::as_str) == Some("Stopped") {
        notes.push(format!("cluster {cluster} is stopped: its nodes cost nothing until it starts (disks still do)"));
    }
    let mut r = Vec::new();
    for pool in &pools {
        let input = pool_input(catalog, pool, region.clone(), a).map_err(|e| Error::Refused {
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

/// `aksgpu cost`
pub fn cost(ctx: &Ctx, a: &CostArgs) -> anyhow::Result<()> {
    let mut catalog = ctx.catalog()?;
    let p = &ctx.printer;
    let source = prices_in(&mut catalog, &a.currency, p)?;
    let mut warnings = Vec::new();
    let region = a
        .region
        .as_deref()
        .map(|r| crate::commands::recommend::region_or_override(&catalog, "--region", r, &a.overrides, &mut warnings))
        .transpose()?;
    for w in &warnings {
        p.note(&format!("warning: {w}"));
    }
    let mut notes = vec![format!("prices: {}", source.describe())];
    let reports: Vec<CostReport> = match (&a.vm_size, &a.cluster) {
        (Some(name), _) => vec![size_report(&catalog, a, name, region)?],
        (None, Some(cluster)) => cluster_reports(&catalog, a, cluster, region, &mut notes)?,
        (None, None) => return Err(Error::usage("pass --vm-size, or --cluster with -g", None).into()),
    };
    if let PriceSource::Bundled { as_of } = &source {
        notes.extend(cost::stale_note(as_of, SystemTime::now()));
        if reports.iter().any(|r| r.price_kind.contains("spot") || r.price_kind.contains("windows")) {
            notes.push(cost::OFFLINE_GAPS.to_owned());
        }
    }
    let view = CostView {
        currency: catalog.prices.currency.clone(),
        total_monthly_at_min: cost::sum_cents(reports.iter().map(|r| r.at_min.monthly)),
        total_monthly_at_max: cost::sum_cents(reports.iter().map(|r| r.at_max.monthly)),
        price_source: source,
        pools: reports,
        notes,
    };
    if a.output == Format::Table {
        for n in &view.notes {
            p.note(&format!("note: {n}"));
        }
    }
    emit(p, a.output, &view).map_err(Error::from)?;
    Ok(())
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

impl Render for CostView {
    fn table(&self) -> String {
        let mut out = String::new();
        for r in &self.pools {
            out.push_str(&render(r));
            out.push('\n');
        }
        if self.pools.len() > 1 {
            out.push_str(&format!(
                "Total per month: {} at minimum, {} at maximum\n",
                money_in(self.total_monthly_at_min, &self.currency),
                money_in(self.total_monthly_at_max, &self.currency)
            ));
        }
        out
    }
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
    if let Some(i) = r.idle_monthly {
        out.push_str(&format!("idle cost of the minimum: {}/month\n", money_in(Some(i), &r.currency)));
    }
    if let Some(s) = r.spot_saving_monthly {
        out.push_str(&format!("spot saves: {}/month against on-demand\n", money_in(Some(s), &r.currency)));
    }
    for a in &r.advice {
        out.push_str(&format!("  - {a}\n"));
    }
    out
}

/// The cost of a plan's pools: notes said first, then each pool at its minimum and maximum.
#[derive(Debug, Clone, Serialize)]
pub struct PlanPricing {
    pub notes: Vec<String>,
    pub pools: Vec<cost::PlanCost>,
    pub hours_per_month: f64,
    pub total_monthly_at_min: Option<f64>,
    pub total_monthly_at_max: Option<f64>,
}

impl PlanPricing {
    /// Price `pools` in `region` (unknown offline without one), against the clock.
    pub fn new(catalog: &Catalog, pools: &[cost::PoolPricing<'_>], region: Option<&str>) -> PlanPricing {
        Self::at(catalog, pools, region, SystemTime::now())
    }

    /// `new` at a given time (tests).
    pub fn at(catalog: &Catalog, pools: &[cost::PoolPricing<'_>], region: Option<&str>, now: SystemTime) -> Self {
        let costs: Vec<cost::PlanCost> = pools.iter().map(|p| cost::plan_cost(catalog, p, region)).collect();
        let notes = cost::plan_notes(catalog, &costs, now);
        PlanPricing {
            total_monthly_at_min: cost::sum_cents(costs.iter().map(|c| c.monthly_at_min)),
            total_monthly_at_max: cost::sum_cents(costs.iter().map(|c| c.monthly_at_max)),
            hours_per_month: crate::recommend::HOURS_PER_MONTH,
            notes,
            pools: costs,
        }
    }

    /// The cost of pools a dry run could not read (no credentials): unknown, and `why`.
    pub fn unread(catalog: &Catalog, pools: &[(&str, (u32, u32))], why: &str) -> PlanPricing {
        let currency = &catalog.prices.currency;
        let costs: Vec<cost::PlanCost> =
            pools.iter().map(|(pool, counts)| cost::PlanCost::unread(pool, *counts, currency, why)).collect();
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
            let m = |v: Option<f64>| crate::units::money_in(v, &c.currency);
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

    /// The table: notes, then two rows per pool (minimum and maximum node counts).
    pub fn text(&self) -> String {
        let mut out = String::from("Cost (list prices, 730 h a month):\n");
        for n in &self.notes {
            out.push_str(&format!("note: {n}\n"));
        }
        let mut rows = Vec::new();
        for c in &self.pools {
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
        if let (true, Some(c)) = (self.pools.len() > 1, self.pools.first()) {
            out.push_str(&format!(
                "Total per month: {} at the minimums, {} at the maximums\n",
                money_in(self.total_monthly_at_min, &c.currency),
                money_in(self.total_monthly_at_max, &c.currency)
            ));
        }
        for c in &self.pools {
            match (&c.unknown, &c.price_source) {
                (Some(why), _) => out.push_str(&format!("{}: price unknown: {why}\n", c.pool)),
                (None, Some(src)) => out.push_str(&format!(
                    "{}: {}{}/h a node, {} price of {}\n",
                    c.pool,
                    crate::units::currency_symbol(&c.currency),
                    c.price_per_node_hour.unwrap_or_default(),
                    if src.contains("live cache") { "live" } else { "bundled" },
                    c.price_date.as_deref().unwrap_or("unknown date")
                )),
                (None, None) => {}
            }
        }
        out
    }
}

/// `aksgpu prices refresh`
pub fn prices_refresh(ctx: &Ctx, a: &PricesRefreshArgs) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    let p = &ctx.printer;
    let currency = a.currency.clone();
    let regions: Vec<String> = a
        .region
        .iter()
        .filter(|r| !r.trim().is_empty())
        .map(|r| crate::commands::recommend::region_arg(&catalog, "--region", r))
        .collect::<Result<_, _>>()?;
    let base = std::env::var("AKSGPU_PRICES_ENDPOINT")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| prices::DEFAULT_ENDPOINT.to_owned());
    let endpoint = Endpoint::new(Cloud::AzureCloud, Some(&base))?;
    let mut client = ArmClient::new(endpoint, None, Sleeper::from_env())?;
    client.verbosity = if a.verbose > 0 { Verbosity::Requests } else { Verbosity::Quiet };
    client.log_sink = Some(crate::output::log_line);
    let sizes: Vec<&str> =
        catalog.sizes.iter().filter(|s| s.status != crate::catalog::Status::Retired).map(|s| s.name.as_str()).collect();
    let mut queries = Vec::new();
    for s in &sizes {
        if regions.is_empty() {
            queries.push((prices::query(s, None, &currency), (*s).to_owned()));
        } else {
            for r in &regions {
                queries.push((prices::query(s, Some(r), &currency), format!("{s} in {r}")));
            }
        }
    }
    let bar = crate::output::Progress::bar(p.stderr_tty, queries.len() as u64);
    let report = |done: usize, _total: usize| bar.set(done as u64);
    let items = azure::run_interruptible(&Progress::default(), async {
        Ok(prices::fetch_all(&client, queries, &report).await?)
    });
    bar.finish();
    let items = items?;
    let wanted = |s: &str| sizes.iter().any(|x| x.eq_ignore_ascii_case(s));
    let folded = pricing::fold_items(&items, &wanted);
    let now = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let cache = PriceCache {
        fetched_at: now,
        currency: currency.clone(),
        source: format!("{base}/api/retail/prices"),
        sizes: folded,
    };
    let path = pricing::cache_path_for(&currency)
        .ok_or_else(|| Error::usage("no cache directory (set HOME or AKSGPU_CACHE_DIR)", None))?;
    pricing::write_cache(&path, &cache).map_err(|e| Error::io(&path, "write the price cache", e))?;
    let rows: usize = cache.sizes.values().map(|r| r.len()).sum();
    let v = json!({"path": path.display().to_string(), "currency": currency, "items": items.len(), "sizes": cache.sizes.len(), "size_regions": rows, "fetched_at": now});
    let text = format!(
        "Fetched {} price rows: {} sizes × regions for {} sizes, in {currency}.\nSaved to {} ({}).",
        items.len(),
        rows,
        cache.sizes.len(),
        path.display(),
        if currency == "USD" {
            "recommend, cost and every plan use it from now on".to_owned()
        } else {
            format!("`--currency {currency}` on cost, recommend and plans uses it")
        }
    );
    emit(p, a.output, &Shown::new(text, v)).map_err(Error::from)?;
    Ok(())
}

/// `aksgpu catalog diff`
pub fn catalog_diff(ctx: &Ctx, a: &CatalogDiffArgs) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    let location = crate::commands::recommend::region_arg(&catalog, "--location", &a.location)?;
    let az = azure::connect(&a.arm)?;
    let sub = subscription(&az)?;
    let client = az.client;
    let url = crate::plan::skus_url(&sub, &location);
    let skus = azure::run_interruptible(&Progress::default(), async { Ok(client.list(&url).await?) })?;
    let d = crate::drift::compare(&catalog, &location, &skus);
    let p = &ctx.printer;
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

/// The cluster the flags name, in `subscription`.
fn target<'a>(subscription: &'a str, t: &'a ClusterTarget) -> Target<'a> {
    Target { subscription, resource_group: &t.resource_group, cluster: &t.cluster }
}

/// A dry run's plan from the flags alone: no credential is needed, nothing is read or sent,
/// and what a real run reads first shows as a placeholder.
fn dry_run(
    arm: &ArmArgs,
    t: &ClusterTarget,
    build: impl FnOnce(Target<'_>) -> Result<Plan, String>,
) -> Result<Outcome, Error> {
    let sub = azure::dry_run_subscription(arm)?;
    let plan = build(target(&sub, t)).map_err(|m| Error::Refused { message: m, hint: None })?;
    Ok(Outcome::DryRun(plan))
}

/// The client and the subscription for a real run.
fn connected(arm: &ArmArgs) -> Result<(ArmClient, String), Error> {
    let az = azure::connect(arm)?;
    let sub = subscription(&az)?;
    Ok((az.client, sub))
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
    let r = if a.dry_run {
        dry_run(&a.arm, &a.target, |t| Ok(ops::power(t, start)))?
    } else {
        let (client, sub) = connected(&a.arm)?;
        let progress = Progress::default();
        azure::run_with_spinner(&ctx.printer, &progress, None, async |report| {
            let t = target(&sub, &a.target);
            Ok(cluster_ops::power(&client, t, start, a.arm.timeout, &report, &progress).await?)
        })?
    };
    print_ops(&ctx.printer, a.output, &base_url(&a.arm), r, |v| {
        format!(
            "cluster {} is {}",
            a.target.cluster,
            v.pointer("/properties/powerState/code").and_then(Value::as_str).unwrap_or(if start {
                "Running"
            } else {
                "Stopped"
            })
        )
    })?;
    Ok(())
}

/// `aksgpu cost-analysis enable`
pub fn cost_analysis(ctx: &Ctx, a: &ClusterPowerArgs) -> anyhow::Result<()> {
    let question =
        format!("Enable cost analysis on cluster {} (resource group {})?", a.target.cluster, a.target.resource_group);
    confirm::write(ctx, "cost-analysis enable", a.yes, a.dry_run, &question)?;
    let r = if a.dry_run {
        dry_run(&a.arm, &a.target, |t| ops::cost_analysis(t, &ops::cluster_as_read()))?
    } else {
        let (client, sub) = connected(&a.arm)?;
        let progress = Progress::default();
        azure::run_with_spinner(&ctx.printer, &progress, None, async |report| {
            let t = target(&sub, &a.target);
            Ok(cluster_ops::cost_analysis(&client, t, a.arm.timeout, &report, &progress).await?)
        })?
    };
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
    let r = if a.dry_run {
        let plan = match dry_run(&a.at.arm, &a.at.target, |t| ops::scale(t, &a.at.name, &ops::pool_as_read(), how))? {
            Outcome::DryRun(plan) => plan,
            _ => return Err(Error::usage("internal: a dry run without a plan", None).into()),
        };
        let cost = scale_cost(ctx, a, how)?;
        let header = "Dry run: no change is made.";
        azure::render_priced_plan(&ctx.printer, a.output, (&base_url(&a.at.arm), &plan, header), json!({}), &cost)?;
        return Ok(());
    } else {
        let (client, sub) = connected(&a.at.arm)?;
        let progress = Progress::default();
        azure::run_with_spinner(&ctx.printer, &progress, None, async |report| {
            let t = target(&sub, &a.at.target);
            Ok(cluster_ops::scale(&client, t, &a.at.name, how, a.at.arm.timeout, &report, &progress).await?)
        })?
    };
    print_ops(&ctx.printer, a.output, &base_url(&a.at.arm), r, |v| {
        let p = &v["properties"];
        if p["enableAutoScaling"].as_bool() == Some(true) {
            format!("pool {}: {} node(s), autoscaler {}–{}", a.at.name, p["count"], p["minCount"], p["maxCount"])
        } else {
            format!("pool {}: {} node(s)", a.at.name, p["count"])
        }
    })?;
    Ok(())
}

/// Why a `pool scale` dry run without credentials cannot price the new counts.
pub const SCALE_UNREAD: &str = "needs the pool's size and region (read with credentials)";

/// The cost of the counts `pool scale` asks for. With credentials the dry run reads (GETs
/// only) the pool for its size, OS and priority and the cluster for its region; without
/// them every figure is unknown, and says why.
fn scale_cost(ctx: &Ctx, a: &PoolScaleArgs, how: Scale) -> anyhow::Result<PlanPricing> {
    let counts = match how {
        Scale::Count(c) => (c, c),
        Scale::Autoscale { min, max } => (min, max),
    };
    let mut catalog = ctx.catalog()?;
    let unread = |catalog: &Catalog| PlanPricing::unread(catalog, &[(&a.at.name, counts)], SCALE_UNREAD);
    let az = match azure::connect(&a.at.arm) {
        Ok(az) if az.subscription.is_ok() && az.client.has_credentials() => az,
        _ => return Ok(unread(&catalog)),
    };
    let sub = subscription(&az)?;
    let (client, progress) = (az.client, Progress::default());
    let read = azure::run_interruptible(&progress, async {
        match cluster_ops::read_pool_and_cluster(&client, target(&sub, &a.at.target), &a.at.name).await {
            Ok(v) => Ok(Ok(v)),
            Err(OpsError::Arm(crate::arm::ArmError::Auth { message, .. })) => Ok(Err(message)),
            Err(e) => Err(Error::from(e)),
        }
    })?;
    let (pool, cluster) = match read {
        Ok(v) => v,
        Err(message) => {
            ctx.printer.note(&format!("note: credentials failed ({message}): the cost cannot be read"));
            return Ok(unread(&catalog));
        }
    };
    with_live_prices(&mut catalog, &ctx.printer);
    let p = &pool["properties"];
    let Some(vm) = p["vmSize"].as_str() else {
        let why = "Azure did not send the pool's vmSize";
        return Ok(PlanPricing::unread(&catalog, &[(&a.at.name, counts)], why));
    };
    let size = catalog.size(vm).map_or_else(|| vm.to_owned(), |s| s.name.clone());
    let os =
        if p["osType"].as_str().is_some_and(|o| o.eq_ignore_ascii_case("Windows")) { Os::Windows } else { Os::Linux };
    let spot = p["scaleSetPriority"].as_str().is_some_and(|s| s.eq_ignore_ascii_case("Spot"));
    let region = crate::plan::preflight::location(&cluster);
    let pricing =
        cost::PoolPricing { pool: &a.at.name, size: &size, os, spot, min_nodes: counts.0, max_nodes: counts.1 };
    Ok(PlanPricing::new(&catalog, &[pricing], region.as_deref())
        .region_unknown_because("Azure did not send the cluster's location"))
}
