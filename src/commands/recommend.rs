//! `aksgpu recommend`: flags → validated `Requirements` → `recommend()` → table/JSON/YAML.

use crate::catalog::Catalog;
use crate::cli::{Format, RecommendArgs};
use crate::commands::Ctx;
use crate::domain::GpuDriver;
use crate::error::{did_you_mean, Error};
use crate::output::{emit, money, table, Align, Printer, Render};
use crate::recommend::{self, fmt_num, ModelSpec, Os, Outcome, Range, Requirements, Workload};
use crate::units::Memory;

/// The first-ranked size for `a` (what `create-pool --recommend` and a GpuConfig `recommend:`
/// take), or, when nothing fits, the constraint that removed the last candidates.
pub fn top_recommendation(
    catalog: &Catalog,
    a: &RecommendArgs,
) -> Result<Result<crate::recommend::Recommendation, String>, Error> {
    let req = requirements(catalog, a)?;
    let mut out = crate::recommend::recommend(catalog, &req);
    if out.recommendations.is_empty() {
        return Ok(Err(out.no_fit().map(|n| n.constraint).unwrap_or_default()));
    }
    Ok(Ok(out.recommendations.swap_remove(0)))
}

/// True when a flag describes the workload (without one, `recommend` asks the wizard).
pub fn has_requirements(a: &RecommendArgs) -> bool {
    a.need.workload.is_some()
        || a.need.model.is_some()
        || a.need.model_params.is_some()
        || a.gpu_memory.is_some()
        || a.need.gpu_memory_min.is_some()
        || a.gpu_memory_max.is_some()
        || a.total_gpu_memory.is_some()
        || a.total_gpu_memory_min.is_some()
        || a.total_gpu_memory_max.is_some()
        || a.gpus.is_some()
        || a.gpus_min.is_some()
        || a.gpus_max.is_some()
        || !a.need.gpu_model.is_empty()
        || a.mig
}

/// A memory range from `--X` (at least), `--X-min` and `--X-max`. A single value is a
/// minimum, as people say it ("a GPU with 80 GB" means at least 80 GB).
fn range(
    at_least: Option<Memory>,
    min: Option<Memory>,
    max: Option<Memory>,
    flag: &str,
    notes: &mut Vec<String>,
) -> Result<Range, Error> {
    for (suffix, m) in [("-min", min), ("-max", max)] {
        if let Some(n) = m.and_then(|m| m.note(&format!("--{flag}{suffix} {}GB", fmt_num(m.gib)))) {
            notes.push(n);
        }
    }
    if at_least.is_some() && min.is_some() {
        return Err(Error::usage(
            format!("--{flag} and --{flag}-min both set the minimum"),
            Some(format!("use one of them; --{flag}-max sets an upper bound")),
        ));
    }
    let to = |m: Option<Memory>| m.map(|m| m.gib);
    if let Some(m) = at_least {
        let unit = if m.decimal { "GB" } else { "GiB" };
        let read = m.note(&format!("{}GB", fmt_num(m.gib))).map(|n| format!("; {n}")).unwrap_or_default();
        notes.push(format!(
            "--{flag} {}{unit}: at least that much (--{flag}-max for an upper bound){read}",
            fmt_num(m.gib)
        ));
    }
    num_range(None, to(at_least.or(min)), to(max), flag)
}

fn num_range(exact: Option<f64>, min: Option<f64>, max: Option<f64>, flag: &str) -> Result<Range, Error> {
    if exact.is_some() && (min.is_some() || max.is_some()) {
        return Err(Error::usage(
            format!("--{flag} cannot be combined with --{flag}-min/--{flag}-max"),
            Some(format!("use --{flag} for an exact value, or the -min/-max pair for a range")),
        ));
    }
    if let (Some(a), Some(b)) = (min, max) {
        if a > b {
            return Err(Error::usage(
                format!("--{flag}-min {} is larger than --{flag}-max {}", fmt_num(a), fmt_num(b)),
                Some("swap the two values".to_owned()),
            ));
        }
    }
    Ok(match exact {
        Some(v) => Range { min: Some(v), max: Some(v) },
        None => Range { min, max },
    })
}

/// Turn flags into validated requirements (pure apart from reading the catalog).
pub fn requirements(catalog: &Catalog, a: &RecommendArgs) -> Result<Requirements, Error> {
    let mut notes = Vec::new();
    let model = model_arg(catalog, a, &mut notes)?;
    let workload = a.need.workload.unwrap_or(Workload::Inference);
    if a.need.workload.is_none() && model.is_some() {
        notes.push("workload: inference (default with --model; --workload to change)".to_owned());
    }
    let mut req = Requirements::new(workload);
    let resolved = recommend::weights::resolve(model.as_ref(), a.need.precision, workload)
        .map_err(|e| Error::usage(e.message, Some(e.hint)))?;
    req.precision = resolved.precision;
    req.precision_explicit = resolved.explicit;
    notes.extend(resolved.notes);
    req.context = default_context(model.as_ref(), workload, a.context)?;
    req.concurrency = a.concurrency.unwrap_or(1);
    if model.is_some() && a.context.is_none() {
        notes.push(format!("context: {} tokens (default; --context to change)", req.context));
    }
    req.model = model;
    req.gpu_memory_gib = range(a.gpu_memory, a.need.gpu_memory_min, a.gpu_memory_max, "gpu-memory", &mut notes)?;
    req.total_gpu_memory_gib =
        range(a.total_gpu_memory, a.total_gpu_memory_min, a.total_gpu_memory_max, "total-gpu-memory", &mut notes)?;
    req.gpus = num_range(a.gpus, a.gpus_min, a.gpus_max, "gpus")?;
    check_gpu_models(catalog, &a.need.gpu_model)?;
    req.gpu_models = a.need.gpu_model.iter().map(|g| g.trim().to_owned()).filter(|g| !g.is_empty()).collect();
    os_and_version(catalog, a, &mut req, &mut notes)?;
    if let Some(r) = &a.region {
        let mut regions = Vec::new();
        for typed in r.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            let name = region_arg(catalog, "--location", typed)?;
            if !regions.contains(&name) {
                regions.push(name);
            }
        }
        match regions.len() {
            0 => return Err(Error::usage("--location: no region given", None)),
            1 => req.region = regions.pop(),
            _ => {
                notes.push(format!("each size priced in the cheapest of {}", regions.join(", ")));
                req.regions = regions;
            }
        }
    }
    req.max_price_per_hour = a.need.max_price_per_hour;
    req.max_price_per_month = a.need.max_price_per_month;
    req.spot = a.spot;
    req.mig = a.mig;
    req.include_retired = a.include_retired;
    req.include_unsupported = a.include_unsupported;
    req.gpu_driver_none = a.gpu_driver == Some(GpuDriver::None);
    req.include_unpriced = a.include_unpriced;
    req.top = usize::try_from(a.top).unwrap_or(usize::MAX);
    req.notes = notes;
    req.compute_need();
    Ok(req)
}

/// `--model` (a catalog model, with a did-you-mean) or `--model-params` (any size), not both.
fn model_arg(catalog: &Catalog, a: &RecommendArgs, notes: &mut Vec<String>) -> Result<Option<ModelSpec>, Error> {
    Ok(match (&a.need.model, a.need.model_params) {
        (Some(_), Some(_)) => {
            return Err(Error::usage(
                "--model and --model-params both give the model size",
                Some("use --model for a known model, or --model-params for any other".to_owned()),
            ))
        }
        (Some(name), None) => match catalog.model(name) {
            Some(m) => Some(ModelSpec::from_model(m)),
            None => {
                let near = catalog.suggest_models(name);
                return Err(Error::usage(
                    format!("--model {name:?} is not in the catalog"),
                    did_you_mean(&near).or_else(|| {
                        Some(format!(
                            "pass --model-params with its parameter count instead, or use one of: {}",
                            catalog
                                .models
                                .iter()
                                .filter_map(|m| m.aliases.first().map(String::as_str))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                    }),
                ));
            }
        },
        (None, Some(p)) => {
            let spec = ModelSpec::from_params(catalog, p);
            notes.push(format!("architecture for KV cache and activations: {}", spec.arch_from));
            Some(spec)
        }
        (None, None) => None,
    })
}

/// Every `--gpu-model` must match a GPU in the catalog.
fn check_gpu_models(catalog: &Catalog, models: &[String]) -> Result<(), Error> {
    for g in models {
        if !catalog.sizes.iter().any(|s| recommend::gpu_matches(g, s, catalog.gpu(&s.gpu_model))) {
            let near = catalog.suggest_gpus(g);
            return Err(Error::usage(
                format!("--gpu-model {g:?} matches no GPU in the catalog"),
                did_you_mean(&near).or_else(|| {
                    Some(format!(
                        "known GPUs: {}",
                        catalog.gpus.iter().map(|g| g.id.as_str()).collect::<Vec<_>>().join(", ")
                    ))
                }),
            ));
        }
    }
    Ok(())
}

/// `--os` (Windows by default for vdi) and `--k8s-version`, with the Windows GPU minimum.
fn os_and_version(
    catalog: &Catalog,
    a: &RecommendArgs,
    req: &mut Requirements,
    notes: &mut Vec<String>,
) -> Result<(), Error> {
    let workload = req.workload;
    req.os = a.os.unwrap_or(if workload == Workload::Vdi { Os::Windows } else { Os::Linux });
    if a.os.is_none() && workload == Workload::Vdi {
        notes.push("os: windows (default for vdi; --os linux to change)".to_owned());
    }
    req.kubernetes_version = a.k8s_version;
    if req.os == Os::Windows {
        if let Some((min, feature, ns)) = catalog.windows_min_kubernetes() {
            match req.kubernetes_version {
                Some(v) if v.minor_lt(&min) => {
                    return Err(Error::usage(
                        format!("Windows GPU node pools need Kubernetes {min} or later; --k8s-version is {v}"),
                        Some(format!(
                            "upgrade the cluster to {min}+ and register the preview feature: `az feature register --namespace {ns} --name {feature}`"
                        )),
                    ))
                }
                Some(_) => {}
                None => notes.push(format!(
                    "Windows GPU pools need Kubernetes ≥ {min} and the {feature} preview feature (pass --k8s-version to check)"
                )),
            }
        }
        if a.mig {
            return Err(Error::usage(
                "--mig is not available on Windows node pools",
                Some("use --os linux for MIG".to_owned()),
            ));
        }
    }
    Ok(())
}

/// Check a region flag against the catalog's list of Azure regions: the ARM name on success,
/// else a usage error (exit 2) with a did-you-mean.
pub fn region_arg(catalog: &Catalog, flag: &str, typed: &str) -> Result<String, Error> {
    catalog.resolve_region(typed).map_err(|near| {
        Error::usage(
            format!("{flag} {typed:?} is not an Azure region"),
            did_you_mean(&near).or_else(|| {
                Some("use the ARM name, such as eastus or westeurope (`aksgpu catalog regions`)".to_owned())
            }),
        )
    })
}

/// The context to size for: `--context` (at most the model's maximum), else
/// min(default, the model's maximum) with a default of 4096 tokens for inference and 2048 for
/// training and fine-tuning. So a 2048-token model such as falcon-7b works without flags.
pub fn default_context(model: Option<&ModelSpec>, workload: Workload, asked: Option<u64>) -> Result<u64, Error> {
    let max = model.and_then(|m| m.max_context);
    if let (Some(c), Some(max)) = (asked, max) {
        if c > max {
            return Err(Error::usage(
                format!("--context {c} is longer than the model's maximum context {max}"),
                Some(format!("use --context {max} or less")),
            ));
        }
    }
    let default = if matches!(workload, Workload::Training | Workload::FineTuning) { 2048 } else { 4096 };
    Ok(asked.unwrap_or_else(|| max.map_or(default, |m| m.min(default))))
}

/// `aksgpu recommend`
pub fn run(ctx: &Ctx, args: &RecommendArgs) -> anyhow::Result<()> {
    let mut catalog = ctx.catalog()?;
    let source = crate::commands::money::with_live_prices(&mut catalog, &ctx.printer);
    let asked;
    let asked_flag = !has_requirements(args);
    let args = if has_requirements(args) {
        args
    } else if ctx.printer.interactive {
        asked = crate::wizard::ask(&catalog, args)?;
        &asked
    } else {
        return Err(Error::usage(
            "no workload described",
            Some("pass --workload and/or --model (e.g. `aksgpu recommend --workload inference --model llama-3.1-8b`); on a terminal, run it without flags for a wizard".to_owned()),
        )
        .into());
    };
    let mut req = requirements(&catalog, args)?;
    if let crate::pricing::PriceSource::Cache { .. } = source {
        req.notes.push(format!("prices: {}", source.describe()));
    }
    req.price_source = Some(source.describe());
    let outcome = recommend::recommend(&catalog, &req);
    let p = &ctx.printer;
    let top = top_pick_cost(&catalog, &req, &outcome);
    if args.output == Format::Table {
        notes(p, &outcome);
        for n in top.iter().flat_map(|t| &t.notes) {
            p.note(&format!("note: {n}"));
        }
    }
    emit(p, args.output, &outcome)?;
    // The wizard's answer ends with what the top pick costs, as every plan does.
    if let (Some(t), true, Format::Table) = (&top, asked_flag, args.output) {
        p.out(&format!("\n{}", t.text()))?;
    }
    let no_fit = outcome.no_fit();
    // The process ends here: skip freeing the catalog and the outcome one by one.
    std::mem::forget(catalog);
    std::mem::forget(outcome);
    if let Some(nf) = no_fit {
        let closest: Vec<String> = nf.closest.iter().map(|r| format!("{} ({})", r.vm_size, r.reason)).collect();
        return Err(Error::NoFit {
            message: format!(
                "no size fits: {} removed the last {} candidate(s)",
                constraint_words(&nf.constraint),
                nf.candidates_before
            ),
            hint: if closest.is_empty() { None } else { Some(format!("closest: {}", closest.join("; "))) },
        }
        .into());
    }
    Ok(())
}

/// The top pick priced at its node count, in the asked region (else the one it was priced in).
fn top_pick_cost(
    catalog: &crate::catalog::Catalog,
    req: &recommend::Requirements,
    o: &Outcome,
) -> Option<crate::commands::money::PlanPricing> {
    let top = o.recommendations.first()?;
    let pool = crate::cost::PoolPricing {
        pool: "top pick",
        size: &top.vm_size,
        os: req.os,
        spot: req.spot,
        min_nodes: top.fit.nodes,
        max_nodes: top.fit.nodes,
    };
    let region = req.region.as_deref().or(top.price_region.as_deref());
    Some(crate::commands::money::PlanPricing::new(catalog, &[pool], region))
}

fn constraint_words(c: &str) -> String {
    if c.starts_with("--") {
        format!("the {c} limit")
    } else {
        format!("the {c} check")
    }
}

fn notes(p: &Printer, o: &Outcome) {
    for n in &o.requirements.notes {
        p.note(&format!("note: {n}"));
    }
}

impl Render for Outcome {
    fn table(&self) -> String {
        render(self)
    }
}

/// The human-readable answer.
pub fn render(o: &Outcome) -> String {
    let r = &o.requirements;
    let mut out = describe(r);
    if o.recommendations.is_empty() {
        out.push_str("\nNo size fits.\n");
        return out;
    }
    out.push('\n');
    // RANKED BY: the price the ranking used when the requested one is unknown (e.g. Windows).
    let basis_col = o.recommendations.iter().any(|x| x.price_per_hour.is_none());
    out.push_str(&ranking_table(o, basis_col));
    for (i, rec) in o.recommendations.iter().enumerate() {
        out.push_str(&format!("\n{}. {}\n", i + 1, rec.vm_size));
        for reason in &rec.reasons {
            out.push_str(&format!("   + {reason}\n"));
        }
        for w in &rec.warnings {
            out.push_str(&format!("   ! {w}\n"));
        }
    }
    let more = if o.below_top.is_empty() {
        String::new()
    } else {
        format!("; {} more fit below --top (below_top[])", o.below_top.len())
    };
    out.push_str(&format!(
        "\n{} size(s) ruled out (rejected[] with -o json shows each reason){more}; prices: {} per hour, 730 h/month.\n",
        o.rejected.len(),
        recommend::price_kind(r)
    ));
    if basis_col {
        out.push_str(&format!(
            "Unknown {} prices are never guessed: those sizes rank by the price under RANKED BY; `aksgpu prices refresh` fetches current ones.\n",
            recommend::price_kind(r)
        ));
    }
    out
}

/// The "Workload:" and "Memory:" lines.
fn describe(r: &Requirements) -> String {
    let mut out = String::new();
    let mut what = vec![r.workload.name().to_owned()];
    if let Some(m) = &r.model {
        what.push(format!(
            "{} ({}B params)",
            m.id.clone().unwrap_or_else(|| "custom model".to_owned()),
            fmt_num(m.params_b)
        ));
        what.push(r.precision.name().to_owned());
        what.push(format!("context {} × {}", r.context, r.concurrency));
    }
    what.push(if r.os == Os::Windows { "windows" } else { "linux" }.to_owned());
    what.push(if r.spot { "spot" } else { "on-demand" }.to_owned());
    if let Some(reg) = &r.region {
        what.push(reg.clone());
    }
    out.push_str(&format!("Workload: {}\n", what.join(" · ")));
    if let Some(need) = &r.need {
        let terms: Vec<String> = need
            .breakdown
            .iter()
            .map(|t| format!("{} {:.1} GiB{}", t.name.replace('_', " "), t.gib, if t.sharded { "" } else { "/GPU" }))
            .collect();
        out.push_str(&format!(
            "Memory:   {} (usable fraction {}, {} on A10)\n",
            terms.join(" + "),
            need.constants.usable_fraction,
            need.constants.usable_fraction_a10
        ));
    }
    out
}

/// The ranked sizes, one row each.
fn ranking_table(o: &Outcome, basis_col: bool) -> String {
    let r = &o.requirements;
    let mig = r.mig;
    // REGION: where each size is priced (its cheapest region) when no --region was given.
    let region_col = r.region.is_none();
    let mut headers = vec!["#", "VM SIZE", "GPU", "NEED/GPU", "USABLE/GPU", "GPUS×NODES", "$/HOUR", "$/MONTH"];
    let mut aligns = vec![Align::Right, Align::Left, Align::Left];
    aligns.extend([Align::Right; 5]);
    for (on, h, a) in [
        (mig, "$/INSTANCE-H", Align::Right),
        (region_col, "REGION", Align::Left),
        (basis_col, "RANKED BY", Align::Left),
    ] {
        if on {
            headers.push(h);
            aligns.push(a);
        }
    }
    let rows: Vec<Vec<String>> = o
        .recommendations
        .iter()
        .enumerate()
        .map(|(i, rec)| {
            let gpu = match &rec.fit.mig {
                Some(m) => format!("{}× {} {}", fmt_num(rec.gpu_count), rec.gpu_model, m.slice),
                None => format!(
                    "{}× {} {}G",
                    fmt_num_frac(rec.gpu_count),
                    rec.gpu_model,
                    fmt_num(rec.fit.gpu_memory_per_gpu_gib)
                ),
            };
            let mut row = vec![
                (i + 1).to_string(),
                rec.vm_size.clone(),
                gpu,
                if r.need.is_some() { format!("{:.1}G", rec.fit.required_per_gpu_gib) } else { "-".to_owned() },
                format!("{:.1}G", rec.fit.available_per_gpu_gib),
                format!("{}×{}", fmt_num_frac(rec.fit.gpus_used_per_node), rec.fit.nodes),
                money(rec.price_per_hour),
                money(rec.monthly_cost),
            ];
            if mig {
                row.push(money(rec.price_per_instance_hour));
            }
            if region_col {
                row.push(rec.price_region.clone().unwrap_or_else(|| "-".to_owned()));
            }
            if basis_col {
                row.push(ranked_by(rec));
            }
            row
        })
        .collect();
    table(&headers, &aligns, &rows)
}

/// "-" when the requested price is known; else the fallback the ranking used.
fn ranked_by(rec: &recommend::Recommendation) -> String {
    match (rec.price_per_hour, rec.rank_price_per_hour) {
        (Some(_), _) => "-".to_owned(),
        (None, Some(p)) => format!(
            "{} {}",
            rec.price_basis.split(" (").next().unwrap_or(&rec.price_basis),
            crate::units::per_hour(Some(p))
        ),
        (None, None) => "no list price".to_owned(),
    }
}

fn fmt_num_frac(v: f64) -> String {
    let c = crate::catalog::GpuCount::parse(&format!("{v}"));
    match c {
        Ok(c) if c.den != 1 => c.to_string(),
        _ => fmt_num(v),
    }
}
