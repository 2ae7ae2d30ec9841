//! `aksgpu catalog list|show|models|gpus|regions`: the bundled facts, filtered and formatted.

use serde::Serialize;

use crate::cli::{CatalogListArgs, CatalogShowArgs, CatalogViewArgs, Format, ListFormat};
use crate::commands::Ctx;
use crate::error::{did_you_mean, Error};
use crate::ops::catalog::{fmt_num, gpu_matches};
use crate::ops::catalog::{Catalog, GpuModel, LlmModel, MigProfile, Region, RegionPrice, Rule, Status, VmSize};
use crate::output::{emit, money, table, Align, Render, Shown};

/// One row of `catalog list -o json` (the documented contract, plus a few extras).
#[derive(Debug, Serialize)]
pub struct ListRow<'a> {
    pub name: &'a str,
    pub family: &'a str,
    pub series: &'a str,
    pub vcpus: u32,
    pub memory_gib: f64,
    pub gpu_vendor: String,
    pub gpu_model: &'a str,
    pub gpu_count: f64,
    pub gpu_memory_gib: f64,
    pub gpu_memory_per_gpu_gib: f64,
    pub driver: String,
    pub mig_capable: bool,
    pub aks_supported: bool,
    pub aks_os_skus: &'a [String],
    pub status: Status,
    pub retirement_date: Option<&'a str>,
    pub interconnect: Option<&'a str>,
    pub hyperv_generations: &'a [u8],
    pub quota_family: Option<&'a str>,
    pub source: &'a str,
}

impl<'a> ListRow<'a> {
    fn new(s: &'a VmSize) -> Self {
        Self {
            name: &s.name,
            family: &s.family,
            series: &s.series,
            vcpus: s.vcpus,
            memory_gib: s.memory_gib,
            gpu_vendor: s.gpu_vendor.to_string(),
            gpu_model: &s.gpu_model,
            gpu_count: (s.gpu_count.value() * 10_000.0).round() / 10_000.0,
            gpu_memory_gib: s.gpu_memory_gib,
            gpu_memory_per_gpu_gib: (s.gpu_memory_per_gpu_gib * 100.0).round() / 100.0,
            driver: s.driver.to_string(),
            mig_capable: s.mig_capable,
            aks_supported: s.aks_supported,
            aks_os_skus: &s.aks_os_skus,
            status: s.status,
            retirement_date: s.retirement_date.as_deref(),
            interconnect: s.interconnect.as_deref(),
            hyperv_generations: &s.hyperv_generations,
            quota_family: s.quota_family.as_deref(),
            source: &s.source,
        }
    }
}

/// Sizes matching the list filters.
pub fn filter<'a>(catalog: &'a Catalog, args: &CatalogListArgs) -> Result<Vec<&'a VmSize>, Error> {
    if let Some(f) = &args.family {
        let known = ["NC", "NCC", "ND", "NV", "NG"];
        if !known.iter().any(|k| k.eq_ignore_ascii_case(f)) {
            return Err(Error::usage(
                format!("--family {f:?} is not a GPU family"),
                Some(format!("use one of {}", known.join(", "))),
            ));
        }
    }
    if let Some(g) = &args.gpu_model {
        if !catalog.sizes.iter().any(|s| gpu_matches(g, s, catalog.gpu(&s.gpu_model))) {
            let ids = catalog.suggest_gpus(g);
            return Err(Error::usage(
                format!("--gpu-model {g:?} matches no GPU in the catalog"),
                did_you_mean(&ids).or_else(|| Some(format!("known GPUs: {}", gpu_ids(catalog)))),
            ));
        }
    }
    Ok(catalog
        .sizes
        .iter()
        .filter(|s| args.include_retired || s.status != Status::Retired)
        .filter(|s| args.family.as_ref().is_none_or(|f| s.family.eq_ignore_ascii_case(f)))
        .filter(|s| args.gpu_model.as_ref().is_none_or(|g| gpu_matches(g, s, catalog.gpu(&s.gpu_model))))
        .collect())
}

fn gpu_ids(catalog: &Catalog) -> String {
    catalog.gpus.iter().map(|g| g.id.as_str()).collect::<Vec<_>>().join(", ")
}

/// `aksgpu catalog list`
pub fn list(ctx: &Ctx, args: &CatalogListArgs) -> anyhow::Result<()> {
    let mut catalog = ctx.catalog()?;
    if args.output == ListFormat::Wide {
        crate::commands::with_live_prices(&mut catalog, &ctx.printer);
    }
    let sizes = filter(&catalog, args)?;
    let p = &ctx.printer;
    let format = match args.output {
        ListFormat::Json => Format::Json,
        ListFormat::Yaml => Format::Yaml,
        ListFormat::Tsv => Format::Tsv,
        ListFormat::None => Format::None,
        ListFormat::Table | ListFormat::Wide => Format::Table,
        ListFormat::Names => {
            let names: Vec<&str> = sizes.iter().map(|s| s.name.as_str()).collect();
            if !names.is_empty() {
                p.out(&names.join("\n"))?;
            }
            return Ok(());
        }
    };
    let text = if format == Format::Table {
        list_table(&catalog, &sizes, args.output == ListFormat::Wide)
    } else {
        String::new()
    };
    emit(p, format, &Shown::new(text, sizes.iter().map(|s| ListRow::new(s)).collect::<Vec<_>>()))?;
    if format == Format::Table {
        let retired_hidden = !args.include_retired && catalog.sizes.iter().any(|s| s.status == Status::Retired);
        let mut summary = format!("{} size(s)", sizes.len());
        if retired_hidden {
            summary.push_str("; retired sizes hidden (--include-retired)");
        }
        p.note(&summary);
    }
    Ok(())
}

/// The `catalog list` table (`wide` adds the -o wide columns).
fn list_table(catalog: &Catalog, sizes: &[&VmSize], wide: bool) -> String {
    let mut headers = vec!["NAME", "GPU", "GPUS", "GPU MEM", "VCPUS", "MEMORY", "DRIVER", "AKS", "STATUS"];
    if wide {
        headers.extend(["PER GPU", "MIG", "OS SKUS", "INTERCONNECT", "FROM $/H", "RETIRES"]);
    }
    let mut aligns = vec![Align::Left, Align::Left, Align::Right, Align::Right, Align::Right, Align::Right];
    aligns.extend([Align::Left; 3]);
    if wide {
        aligns.extend([Align::Right, Align::Left, Align::Left, Align::Left, Align::Right, Align::Left]);
    }
    let rows: Vec<Vec<String>> = sizes
        .iter()
        .map(|s| {
            let mut row = vec![
                s.name.clone(),
                s.gpu_model.to_string(),
                s.gpu_count.to_string(),
                format!("{} GiB", fmt_num(s.gpu_memory_gib)),
                s.vcpus.to_string(),
                format!("{} GiB", fmt_num(s.memory_gib)),
                s.driver.to_string(),
                if s.aks_supported { "yes" } else { "no" }.to_owned(),
                s.status.to_string(),
            ];
            if wide {
                let cheapest = catalog.price_regions(&s.name).filter_map(|(_, p)| p.linux).min_by(f64::total_cmp);
                row.extend([
                    format!("{} GiB", fmt_num(s.gpu_memory_per_gpu_gib)),
                    if s.mig_capable { "yes" } else { "-" }.to_owned(),
                    if s.aks_os_skus.is_empty() { "-".to_owned() } else { s.aks_os_skus.join(",") },
                    s.interconnect.as_deref().unwrap_or("-").to_owned(),
                    money(cheapest),
                    s.retirement_date.as_deref().unwrap_or("-").to_owned(),
                ]);
            }
            row
        })
        .collect();
    table(&headers, &aligns, &rows)
}

#[derive(Debug, Serialize)]
struct Show<'a> {
    size: &'a VmSize,
    gpu: Option<&'a GpuModel>,
    rules: Vec<&'a Rule>,
    mig_profiles: &'a [MigProfile],
    prices: Vec<PriceRow<'a>>,
    price_source: &'a str,
}

#[derive(Debug, Serialize)]
struct PriceRow<'a> {
    region: &'a str,
    #[serde(flatten)]
    price: &'a RegionPrice,
}

/// `aksgpu catalog show SIZE`
pub fn show(ctx: &Ctx, args: &CatalogShowArgs) -> anyhow::Result<()> {
    let mut catalog = ctx.catalog()?;
    let price_source = match crate::commands::with_live_prices(&mut catalog, &ctx.printer) {
        src @ crate::ops::catalog::PriceSource::Cache { .. } => src.describe(),
        crate::ops::catalog::PriceSource::Bundled { .. } => {
            format!("{} (bundled; `aksgpu prices refresh` fetches current ones)", catalog.prices.source)
        }
    };
    let Some(size) = catalog.size(&args.size) else {
        let near = catalog.suggest_sizes(&args.size);
        return Err(Error::usage(
            format!("size {:?} is not in the catalog", args.size),
            did_you_mean(&near).or_else(|| Some("list sizes with `aksgpu catalog list --include-retired`".to_owned())),
        )
        .into());
    };
    let gpu = catalog.gpu(&size.gpu_model);
    let mig: &[MigProfile] =
        if size.mig_capable { gpu.map(|g| g.mig_profiles.as_slice()).unwrap_or_default() } else { &[] };
    let show = Show {
        size,
        gpu,
        rules: catalog.rules_for(size),
        mig_profiles: mig,
        prices: catalog.price_regions(&size.name).map(|(region, price)| PriceRow { region, price }).collect(),
        price_source: &price_source,
    };
    let p = &ctx.printer;
    emit(p, args.output, &show)?;
    Ok(())
}

impl Render for Show<'_> {
    fn table(&self) -> String {
        render_show(self)
    }
}

/// The size's facts, one (label, value) line each.
fn facts<'a>(s: &Show<'a>) -> Vec<(&'static str, String)> {
    let z = s.size;
    let mut facts: Vec<(&str, String)> = vec![
        ("Size", z.name.clone()),
        ("Family / series", format!("{} / {}", z.family, z.series)),
        (
            "Status",
            match &z.retirement_date {
                Some(d) => format!("{} ({d})", z.status),
                None => z.status.to_string(),
            },
        ),
        ("vCPUs", z.vcpus.to_string()),
        ("Memory", format!("{} GiB", fmt_num(z.memory_gib))),
        ("GPU", format!("{} × {} {}", z.gpu_count, z.gpu_vendor, z.gpu_model)),
        (
            "GPU memory",
            format!("{} GiB per VM, {} GiB per GPU", fmt_num(z.gpu_memory_gib), fmt_num(z.gpu_memory_per_gpu_gib)),
        ),
        ("Driver on AKS", z.driver.to_string()),
        ("MIG on AKS", if z.mig_capable { "yes".to_owned() } else { "no".to_owned() }),
        (
            "AKS GPU pools",
            if z.aks_supported {
                format!("supported ({})", z.aks_os_skus.join(", "))
            } else {
                "not supported".to_owned()
            },
        ),
    ];
    if let Some(note) = &z.aks_note {
        facts.push(("AKS note", note.to_string()));
    }
    if z.cpu_architecture == crate::ops::catalog::CpuArch::Arm64 {
        facts.push(("CPU architecture", "Arm64 (container images must be built for arm64)".to_owned()));
    }
    for (k, v) in [("AKS source", &z.aks_source), ("Driver source", &z.driver_source)] {
        if let Some(v) = v {
            facts.push((k, v.to_string()));
        }
    }
    if let Some(i) = &z.interconnect {
        facts.push(("Interconnect", i.to_string()));
    }
    if !z.hyperv_generations.is_empty() {
        facts.push((
            "Hyper-V generations",
            z.hyperv_generations.iter().map(|g| format!("Gen{g}")).collect::<Vec<_>>().join(", "),
        ));
    }
    facts.push(("Quota family", z.quota_family.as_deref().unwrap_or("unknown").to_owned()));
    if let Some(t) = z.temp_storage_gib {
        facts.push(("Temp storage", format!("{} GiB", fmt_num(t))));
    }
    facts.extend(model_facts(s));
    facts
}

/// The GPU model, note and sources.
fn model_facts(s: &Show<'_>) -> Vec<(&'static str, String)> {
    let z = s.size;
    let mut facts = Vec::new();
    if let Some(g) = s.gpu {
        facts.push((
            "GPU model",
            format!(
                "{} ({}), {} GiB, compute capability {}, BF16 {}, FP8 {}, NVENC {}",
                g.name,
                g.architecture.as_deref().unwrap_or("?"),
                fmt_num(g.memory_gib),
                g.compute_capability.as_deref().unwrap_or("n/a"),
                yes_no(g.bf16),
                yes_no(g.fp8),
                yes_no(g.nvenc)
            ),
        ));
        if let Some(p) = &g.perf {
            let t = &p.dense_tflops;
            let peaks: Vec<String> = [
                ("FP32", t.fp32),
                ("TF32", t.tf32),
                ("FP16", t.fp16),
                ("BF16", t.bf16),
                ("FP8", t.fp8),
                ("INT8", t.int8),
                ("FP4", t.fp4),
            ]
            .iter()
            .filter_map(|(n, v)| v.map(|v| format!("{n} {}", fmt_num(v))))
            .collect();
            facts.push(("Dense TFLOPS", format!("{} (per GPU, never the sparse figure)", peaks.join(", "))));
            facts.push((
                "Bandwidth",
                format!(
                    "memory {} GB/s; {} {} GB/s per direction",
                    fmt_num(p.memory_bandwidth_gb_s),
                    p.interconnect.kind,
                    fmt_num(p.interconnect.bandwidth_gb_s)
                ),
            ));
            facts.push(("Perf source", p.source.clone()));
        }
    }
    if let Some(n) = &z.note {
        facts.push(("Note", n.to_string()));
    }
    facts.push(("Source", z.source.to_string()));
    if let Some(r) = &z.retirement_source {
        facts.push(("Retirement source", r.to_string()));
    }
    facts
}

fn render_show(s: &Show<'_>) -> String {
    let z = s.size;
    let facts = facts(s);
    let width = facts.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    for (k, v) in &facts {
        out.push_str(&format!("{k:<width$}  {v}\n"));
    }
    if !s.mig_profiles.is_empty() {
        out.push_str("\nMIG profiles (gpuInstanceProfile, fixed at pool creation):\n");
        let rows: Vec<Vec<String>> = s
            .mig_profiles
            .iter()
            .map(|m| {
                vec![
                    m.profile.clone(),
                    m.slice.clone(),
                    m.instances.to_string(),
                    (m.instances * z.gpu_count.whole()).to_string(),
                    format!("{} GiB", fmt_num(m.memory_gib)),
                ]
            })
            .collect();
        out.push_str(&indent(&table(
            &["PROFILE", "SLICE", "PER GPU", "PER VM", "MEMORY"],
            &[Align::Left, Align::Left, Align::Right, Align::Right, Align::Right],
            &rows,
        )));
    }
    if !s.rules.is_empty() {
        out.push_str("\nAKS rules that apply:\n");
        for r in &s.rules {
            out.push_str(&format!("  - {} [{}; {}]\n", r.summary, r.id, r.source));
            if let crate::ops::catalog::RuleKind::SourceConflict { winner, why, .. } = &r.kind {
                out.push_str(&format!("    AKS docs and AKS code disagree; the catalog follows the {winner}: {why}\n"));
            }
        }
    }
    out.push_str("\nPrices (USD/hour):\n");
    if s.prices.is_empty() {
        out.push_str("  price unknown: no bundled prices for this size\n");
    } else {
        let rows: Vec<Vec<String>> = s
            .prices
            .iter()
            .map(|p| {
                vec![
                    p.region.to_owned(),
                    money(p.price.linux),
                    money(p.price.linux_spot),
                    money(p.price.windows),
                    money(p.price.windows_spot),
                ]
            })
            .collect();
        out.push_str(&indent(&table(
            &["REGION", "LINUX", "LINUX SPOT", "WINDOWS", "WINDOWS SPOT"],
            &[Align::Left, Align::Right, Align::Right, Align::Right, Align::Right],
            &rows,
        )));
        out.push_str(&format!("  source: {}\n", s.price_source));
    }
    out
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect()
}

/// One row of `catalog models`: the catalog entry as it is (every field, for JSON/YAML).
#[derive(Debug, Serialize)]
struct ModelRow<'a> {
    #[serde(flatten)]
    model: &'a LlmModel,
}

/// `aksgpu catalog models`
pub fn models(ctx: &Ctx, args: &CatalogViewArgs) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    let rows: Vec<ModelRow<'_>> = catalog.models.iter().map(|model| ModelRow { model }).collect();
    let p = &ctx.printer;
    let table_rows: Vec<Vec<String>> = catalog
        .models
        .iter()
        .map(|m| {
            vec![
                m.aliases.first().cloned().unwrap_or_else(|| m.id.clone()),
                m.id.clone(),
                match m.active_params_b {
                    Some(a) => format!("{}B ({}B active)", fmt_num(m.params_b), fmt_num(a)),
                    None => format!("{}B", fmt_num(m.params_b)),
                },
                m.layers.to_string(),
                format!("{}/{}", m.attention_heads, m.kv_heads),
                m.context.to_string(),
                serde_json::to_value(m.native_dtype)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
                m.kaito_preset.clone().unwrap_or_else(|| "-".to_owned()),
            ]
        })
        .collect();
    let text = table(
        &["ALIAS", "HUGGING FACE ID", "PARAMS", "LAYERS", "HEADS/KV", "CONTEXT", "DTYPE", "KAITO PRESET"],
        &[Align::Left, Align::Left, Align::Right, Align::Right, Align::Right, Align::Right, Align::Left, Align::Left],
        &table_rows,
    );
    let n = rows.len();
    emit(p, args.output, &Shown::new(text, rows))?;
    if args.output == Format::Table {
        p.note(&format!("{n} model(s); `recommend --model` takes the id or any alias (-o json lists them all)"));
    }
    Ok(())
}

/// One row of `catalog gpus`: the GPU facts plus the catalog sizes that carry it.
#[derive(Debug, Serialize)]
struct GpuRow<'a> {
    #[serde(flatten)]
    gpu: &'a GpuModel,
    sizes: Vec<&'a str>,
}

/// `aksgpu catalog gpus`
pub fn gpus(ctx: &Ctx, args: &CatalogViewArgs) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    let rows: Vec<GpuRow<'_>> = catalog
        .gpus
        .iter()
        .map(|gpu| GpuRow {
            gpu,
            sizes: catalog.sizes.iter().filter(|s| *s.gpu_model == *gpu.id).map(|s| s.name.as_str()).collect(),
        })
        .collect();
    let p = &ctx.printer;
    let table_rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let g = r.gpu;
            vec![
                g.id.clone(),
                g.vendor.to_string(),
                g.architecture.clone().unwrap_or_else(|| "-".to_owned()),
                format!("{} GiB", fmt_num(g.memory_gib)),
                g.compute_capability.clone().unwrap_or_else(|| "-".to_owned()),
                yes_no(g.bf16).to_owned(),
                yes_no(g.fp8).to_owned(),
                yes_no(g.nvenc).to_owned(),
                if g.mig_profiles.is_empty() {
                    "-".to_owned()
                } else {
                    g.mig_profiles.iter().map(|m| m.slice.as_str()).collect::<Vec<_>>().join(",")
                },
                r.sizes.len().to_string(),
            ]
        })
        .collect();
    let text = table(
        &["GPU", "VENDOR", "ARCH", "MEMORY", "CC", "BF16", "FP8", "NVENC", "MIG SLICES", "SIZES"],
        &[
            Align::Left,
            Align::Left,
            Align::Left,
            Align::Right,
            Align::Right,
            Align::Left,
            Align::Left,
            Align::Left,
            Align::Left,
            Align::Right,
        ],
        &table_rows,
    );
    let n = rows.len();
    emit(p, args.output, &Shown::new(text, rows))?;
    if args.output == Format::Table {
        p.note(&format!("{n} GPU model(s); `catalog list --gpu-model GPU` lists their sizes"));
    }
    Ok(())
}

/// One row of `catalog regions`.
#[derive(Debug, Serialize)]
struct RegionRow<'a> {
    #[serde(flatten)]
    region: &'a Region,
    /// Catalog sizes with a Linux on-demand list price in this region.
    priced_sizes: usize,
}

/// `aksgpu catalog regions`
pub fn regions(ctx: &Ctx, args: &CatalogViewArgs) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    let rows: Vec<RegionRow<'_>> = catalog
        .regions
        .regions
        .iter()
        .map(|region| RegionRow {
            region,
            priced_sizes: catalog
                .sizes
                .iter()
                .filter(|s| catalog.price(&s.name, &region.name).is_some_and(|p| p.linux.is_some()))
                .count(),
        })
        .collect();
    let p = &ctx.printer;
    let table_rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.region.name.clone(),
                r.region.display_name.clone(),
                r.region.geography.clone(),
                r.region.access.clone().unwrap_or_else(|| "-".to_owned()),
                r.priced_sizes.to_string(),
            ]
        })
        .collect();
    let text = table(
        &["REGION", "NAME", "GEOGRAPHY", "ACCESS", "GPU SIZES PRICED"],
        &[Align::Left, Align::Left, Align::Left, Align::Left, Align::Right],
        &table_rows,
    );
    let n = rows.len();
    emit(p, args.output, &Shown::new(text, rows))?;
    if args.output == Format::Table {
        p.note(&format!("{n} region(s); source: {}", catalog.regions.source));
    }
    Ok(())
}

/// `aksgpu catalog diff`
pub fn diff(ctx: &Ctx, a: &crate::cli::CatalogDiffArgs) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    let location = crate::ops::drift::location(&catalog, &a.location)?;
    let az = crate::commands::session::connect(&a.arm)?;
    let sub = crate::commands::session::subscription(&az)?;
    let client = az.client;
    let p = &ctx.printer;
    let d = crate::commands::session::run_with_spinner(
        p,
        &crate::commands::session::Progress::default(),
        None,
        async |report| crate::ops::drift::compare((&client, &sub), &catalog, &location, &report).await,
    )?;
    emit(p, a.output, &DriftView { location: &location, drift: &d }).map_err(Error::from)?;
    if a.fail_on_drift && d.drift {
        return Err(Error::NoFit {
            message: format!("the catalog has drifted from Azure in {location}").into(),
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
    drift: &'a crate::ops::drift::Drift,
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
