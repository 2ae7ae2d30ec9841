//! `aksgpu recommend`: flags → validated `Requirements` → `recommend()` → table/JSON/YAML.

use crate::catalog::Catalog;
use crate::cli::{Format, RecommendArgs};
use crate::commands::Ctx;
use crate::domain::GpuDriver;
use crate::error::{did_you_mean, Error};
use crate::output::{emit, table, Align, Printer, Render};
use crate::recommend::{self, fmt_num, ModelSpec, Os, Outcome, Range, Requirements, Workload};
use crate::units::Memory;

/// The first-ranked size for `a` (what `create-pool --recommend` and a GpuConfig `recommend:`
/// take), or, when nothing fits, the constraint that removed the last candidates.
pub fn top_recommendation(
    catalog: &Catalog,
    a: &RecommendArgs,
) -> Result<Result<crate::recommend::Recommendation, String>, Error> {
    let with_hub;
    let catalog = match hub_model(catalog, a)? {
        (Some(m), _) => {
            let mut c = catalog.clone();
            c.models.push(m);
            with_hub = c;
            &with_hub
        }
        (None, _) => catalog,
    };
    let req = requirements(catalog, a)?;
    let mut out = crate::recommend::recommend(catalog, &req);
    if out.recommendations.is_empty() {
        return Ok(Err(out.no_fit().map(|n| n.constraint).unwrap_or_default()));
    }
    Ok(Ok(out.recommendations.swap_remove(0)))
}

/// The recommended sizes, best first (at most `a.top`), for failover.
pub fn ranked(catalog: &Catalog, a: &RecommendArgs) -> Result<Vec<String>, Error> {
    let req = requirements(catalog, a)?;
    let out = crate::recommend::recommend(catalog, &req);
    Ok(out.recommendations.into_iter().map(|r| r.vm_size).collect())
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
        || a.vm_size.is_some()
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
    if let Some(m) = model.as_ref().filter(|m| m.fp16_unstable && resolved.precision == recommend::Precision::Fp16) {
        return Err(Error::usage(
            format!(
                "--precision fp16: {} overflows in fp16 (vLLM refuses float16 for it: numerical instability)",
                m.id.as_deref().unwrap_or("this model")
            ),
            Some("use --precision bf16 (GPUs without bf16 then run it in fp32) or fp32".to_owned()),
        ));
    }
    notes.extend(resolved.notes);
    let lengths = lengths(model.as_ref(), workload, a)?;
    req.context = lengths.0;
    req.concurrency = a.need.concurrency.unwrap_or(1);
    if model.is_some() && a.need.context.is_none() && a.need.input_tokens.is_none() && a.need.output_tokens.is_none() {
        notes.push(format!("context: {} tokens (default; --context to change)", req.context));
    }
    if let Some(s) = lengths.1 {
        req.serving = s;
    }
    req.model = model;
    serving_ask(catalog, a, &mut req, &mut notes)?;
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

/// The context, and for inference the input and output tokens per request: `--context`, else
/// input + output when both are given, else the default; a missing length is 3/4 (input) or
/// 1/4 (output) of the context.
fn lengths(
    model: Option<&ModelSpec>,
    workload: Workload,
    a: &RecommendArgs,
) -> Result<(u64, Option<recommend::ServingAsk>), Error> {
    let n = &a.need;
    let hint = n.context.or(match (n.input_tokens, n.output_tokens) {
        (Some(i), Some(o)) => Some(i + o),
        (Some(i), None) => Some((i * 4).div_ceil(3)),
        (None, Some(o)) => Some(o * 4),
        (None, None) => None,
    });
    // The last output token needs no KV slot: a model of 2048 positions serves 2048 + 1.
    let max = model.and_then(|m| m.max_context);
    let hint = hint.map(|h| if n.context.is_none() && max == Some(h.saturating_sub(1)) { h - 1 } else { h });
    let context = default_context(model, workload, hint)?;
    if workload != Workload::Inference {
        return Ok((context, None));
    }
    let input = n.input_tokens.unwrap_or_else(|| context.saturating_sub(n.output_tokens.unwrap_or(context / 4)).max(1));
    let output = n.output_tokens.unwrap_or_else(|| context.saturating_sub(input).max(1));
    if input + output > context + 1 {
        return Err(Error::usage(
            format!("--input-tokens {input} + --output-tokens {output} is longer than the context {context}"),
            Some("raise --context, or shorten the requests".to_owned()),
        ));
    }
    let ask = recommend::ServingAsk {
        input_tokens: input,
        output_tokens: output,
        concurrency_given: n.concurrency.is_some(),
        ..recommend::ServingAsk::default()
    };
    Ok((context, Some(ask)))
}

/// Targets, KV-cache precision, split, `--vm-size` and `--rank-by`, checked against the model
/// and the named GPUs.
fn serving_ask(
    catalog: &Catalog,
    a: &RecommendArgs,
    req: &mut Requirements,
    notes: &mut Vec<String>,
) -> Result<(), Error> {
    let n = &a.need;
    let s = &mut req.serving;
    s.min_tokens_per_second = n.min_tokens_per_second;
    s.min_tokens_per_second_per_user = n.min_tokens_per_second_per_user;
    s.max_ttft_seconds = n.max_ttft;
    s.kv_cache_precision = n.kv_cache_precision;
    s.rank_by = n.rank_by.unwrap_or_default();
    for (flag, v) in [("--tensor-parallel", n.tensor_parallel), ("--pipeline-parallel", n.pipeline_parallel)] {
        if v == Some(0) {
            return Err(Error::usage(format!("{flag} must be at least 1"), None));
        }
    }
    if let (Some(tp), Some(m)) = (n.tensor_parallel, &req.model) {
        if !m.arch.tp_ok(tp) {
            return Err(Error::usage(
                format!(
                    "--tensor-parallel {tp} does not split {} attention heads and {} KV heads evenly (vLLM)",
                    m.arch.attention_heads, m.arch.kv_heads
                ),
                Some(
                    "choose a degree that divides the heads, and --pipeline-parallel for the rest of the GPUs"
                        .to_owned(),
                ),
            ));
        }
    }
    s.tensor_parallel = n.tensor_parallel;
    s.pipeline_parallel = n.pipeline_parallel;
    if let Some(name) = &a.vm_size {
        let size = catalog.size(name).ok_or_else(|| {
            Error::usage(
                format!("--vm-size {name:?} is not in the catalog"),
                did_you_mean(&catalog.suggest_sizes(name))
                    .or_else(|| Some("`aksgpu catalog list` lists the sizes".to_owned())),
            )
        })?;
        s.vm_size = Some(size.name.clone());
        req.include_unpriced = true;
        notes.push(format!("--vm-size {}: evaluating this size only", size.name));
    }
    if s.kv_cache_precision == Some(recommend::Precision::Fp8) {
        let named: Vec<&str> = match &s.vm_size {
            Some(v) => catalog.size(v).map(|z| vec![&*z.gpu_model]).unwrap_or_default(),
            None => catalog
                .gpus
                .iter()
                .filter(|g| {
                    !req.gpu_models.is_empty()
                        && req.gpu_models.iter().any(|w| g.id.to_ascii_lowercase().starts_with(&w.to_ascii_lowercase()))
                })
                .map(|g| g.id.as_str())
                .collect(),
        };
        if let Some(g) = named.iter().filter_map(|id| catalog.gpu(id)).find(|g| !g.fp8) {
            return Err(Error::usage(
                format!("--kv-cache-precision fp8 needs FP8 support, which the {} lacks", g.id),
                Some("use --kv-cache-precision bf16 (or fp16) on this GPU".to_owned()),
            ));
        }
    }
    if req.workload == Workload::Inference && req.model.is_some() {
        let s = &req.serving;
        notes.push(format!(
            "serving: {} input + {} output tokens per request, {} (--input-tokens, --output-tokens, --concurrency)",
            s.input_tokens,
            s.output_tokens,
            if s.concurrency_given {
                format!("{} sequences in flight", req.concurrency)
            } else {
                "the largest batch that fits in memory".to_owned()
            }
        ));
    }
    Ok(())
}

/// The hint for a model aksgpu cannot size by name.
const PARAMS_HINT: &str =
    "pass --model-params with its parameter count (e.g. --model-params 8B) to size it by parameters";

/// `--model` (a catalog model, a base/instruct sibling of one, a model read from the Hugging
/// Face Hub by `hub_model`, with a did-you-mean otherwise) or `--model-params` (any size). Both
/// together only for a model the catalog does not know: the parameter count is the offline
/// fallback.
fn model_arg(catalog: &Catalog, a: &RecommendArgs, notes: &mut Vec<String>) -> Result<Option<ModelSpec>, Error> {
    let found = a.need.model.as_deref().and_then(|name| {
        catalog.model(name).map(|m| (m, false)).or_else(|| catalog.model_variant(name).map(|m| (m, true)))
    });
    let from_hub = |m: &crate::catalog::LlmModel| m.note.as_deref() == Some(crate::hub::HUB_NOTE);
    Ok(match (&a.need.model, a.need.model_params, found) {
        (Some(_), Some(_), Some((m, _))) if from_hub(m) => {
            notes.push("--model-params ignored: the Hugging Face Hub gave the model's exact size".to_owned());
            Some(ModelSpec::from_model(m))
        }
        (Some(_), Some(_), Some(_)) => {
            return Err(Error::usage(
                "--model and --model-params both give the model size",
                Some("use --model for a known model, or --model-params for any other".to_owned()),
            ))
        }
        (Some(name), None, Some((m, variant))) => {
            if variant {
                notes.push(format!("model: {name} sized as {} (same architecture and size)", m.id));
            }
            Some(ModelSpec::from_model(m))
        }
        (Some(name), None, None) => return Err(unknown_model(catalog, name)),
        (Some(name), Some(p), None) => {
            let mut spec = ModelSpec::from_params(catalog, p);
            spec.id = Some(name.clone());
            notes.push(format!("architecture for KV cache and activations: {}", spec.arch_from));
            Some(spec)
        }
        (None, Some(p), _) => {
            let spec = ModelSpec::from_params(catalog, p);
            notes.push(format!("architecture for KV cache and activations: {}", spec.arch_from));
            Some(spec)
        }
        (None, None, _) => None,
    })
}

/// `--model NAME` is not in the catalog: a did-you-mean (which names a different model, so it
/// says how to size this one), else the catalog's names.
fn unknown_model(catalog: &Catalog, name: &str) -> Error {
    let near = catalog.suggest_models(name);
    let other = "or, for a model the catalog does not list, its Hugging Face id (org/name) or --model-params with its parameter count";
    let hint = match did_you_mean(&near) {
        Some(d) => format!("{d} {}", other.replacen("or, for", "Or, for", 1)),
        None => format!(
            "{PARAMS_HINT}, or use its Hugging Face id (org/name), or one of: {}",
            catalog.models.iter().filter_map(|m| m.aliases.first().map(String::as_str)).collect::<Vec<_>>().join(", ")
        ),
    };
    Error::usage(format!("--model {name:?} is not in the catalog"), Some(hint))
}

/// `--model org/name` that the catalog does not list (nor a base/instruct sibling of it): read
/// it from the Hugging Face Hub or the cache, with a note on where it came from. Catalog models
/// never touch the network. Offline with `--model-params`, the note says that sizes it instead.
pub fn hub_model(
    catalog: &Catalog,
    a: &RecommendArgs,
) -> Result<(Option<crate::catalog::LlmModel>, Vec<String>), Error> {
    use crate::hub::{self, HubError};
    let Some(name) = a.need.model.as_deref().map(str::trim) else { return Ok((None, Vec::new())) };
    if catalog.model(name).is_some() || catalog.model_variant(name).is_some() || !hub::is_repo_id(name) {
        return Ok((None, Vec::new()));
    }
    let token = a.hf_token.clone().or_else(|| std::env::var("HF_TOKEN").ok()).filter(|t| !t.trim().is_empty());
    if let Some(t) = &token {
        // Before anything can print it (the Hub client registers it too).
        crate::arm::redact::register(t);
    }
    let endpoint = hub::endpoint_from_env();
    hub::check_endpoint(&endpoint)
        .map_err(|e| Error::usage(e, Some("unset HF_ENDPOINT to use https://huggingface.co".to_owned())))?;
    match hub::fetch(name, &endpoint, token) {
        Ok((facts, cached)) => {
            let m = hub::to_model(&facts).map_err(|e| {
                Error::usage(format!("cannot size {name} from the Hugging Face Hub: {e}"), Some(PARAMS_HINT.to_owned()))
            })?;
            let how = if cached { "cached" } else { "fetched" };
            let note = format!(
                "model: {name} read from the Hugging Face Hub ({how}): {}B params, {} layers, {}/{} attention/KV heads, {} weights {} GiB ({})",
                m.params_b,
                m.layers,
                m.attention_heads,
                m.kv_heads,
                m.native_dtype.name(),
                m.checkpoint_gib,
                facts.weights_from
            );
            Ok((Some(m), vec![note]))
        }
        Err(e @ HubError::Offline { .. }) if a.need.model_params.is_some() => {
            Ok((None, vec![format!("model: {e}; sized from --model-params instead")]))
        }
        Err(e @ HubError::Offline { .. }) => Err(Error::usage(
            format!("{name} is not in the catalog and {e}"),
            Some(format!("offline: {PARAMS_HINT} without the Hub")),
        )),
        Err(e @ HubError::Gated { had_token, .. }) => Err(Error::Denied {
            message: e.to_string(),
            hint: Some(if had_token {
                format!("the token has no access: accept the model's terms at {endpoint}/{name} with the account the token belongs to, or {PARAMS_HINT}")
            } else {
                format!("accept the model's terms at {endpoint}/{name}, then pass --hf-token or set HF_TOKEN; or {PARAMS_HINT}")
            }),
        }),
        Err(e @ HubError::NotFound { .. }) => {
            let near = catalog.suggest_models(name.rsplit('/').next().unwrap_or(name));
            let d = did_you_mean(&near).map(|d| format!("{d} Or ")).unwrap_or_default();
            Err(Error::usage(e.to_string(), Some(format!("{d}check the id on {endpoint}, or {PARAMS_HINT}"))))
        }
        Err(e @ HubError::Bad { .. }) => Err(Error::usage(e.to_string(), Some(PARAMS_HINT.to_owned()))),
    }
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
    let (hub, hub_notes) = hub_model(&catalog, args)?;
    catalog.models.extend(hub);
    let mut req = requirements(&catalog, args)?;
    req.notes.splice(0..0, hub_notes);
    if let crate::pricing::PriceSource::Cache { .. } = source {
        req.notes.push(format!("prices: {}", source.describe()));
    }
    req.price_source = Some(source.describe());
    let mut outcome = recommend::recommend(&catalog, &req);
    let p = &ctx.printer;
    if let Some(id) = &args.capacity_reservation_group {
        let reserved = read_reserved(p, id)?;
        prefer_reserved(&mut outcome, id, &reserved);
    }
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

/// The sizes a capacity reservation group reserves, with the instances still free.
fn read_reserved(p: &Printer, id: &str) -> Result<Vec<(String, u64)>, Error> {
    let segs: Vec<&str> = id.trim_matches('/').split('/').collect();
    let ok = segs.len() == 8
        && segs[0].eq_ignore_ascii_case("subscriptions")
        && segs[6].eq_ignore_ascii_case("capacityReservationGroups");
    if !ok {
        return Err(Error::usage(
            format!("--capacity-reservation-group {id:?} is not a capacity reservation group resource id"),
            Some(
                "pass /subscriptions/SUB/resourceGroups/RG/providers/Microsoft.Compute/capacityReservationGroups/NAME"
                    .into(),
            ),
        ));
    }
    let arm = crate::cli::ArmArgs {
        subscription: Some(segs[1].to_owned()),
        auth: None,
        cloud: crate::arm::Cloud::AzureCloud,
        timeout: std::time::Duration::from_secs(300),
        verbose: 0,
        debug: false,
    };
    let az = crate::commands::azure::connect(&arm)?;
    let progress = crate::provision::Progress::default();
    let r = crate::commands::azure::run_with_spinner(p, &progress, None, async |report| {
        report("reading the capacity reservation group");
        crate::provision::pool::read_group(&az.client, id).await.map_err(Error::from)
    })?;
    if r.group.is_none() {
        return Err(Error::NoFit { message: format!("capacity reservation group {id} does not exist"), hint: None });
    }
    Ok(r.sizes().into_iter().map(|s| (s.clone(), r.free(&s).unwrap_or(0))).collect())
}

/// Move the reserved sizes to the top (keeping the order among them and among the rest), and
/// say so in their reasons; reserved sizes that are not recommended get a note.
fn prefer_reserved(outcome: &mut Outcome, id: &str, reserved: &[(String, u64)]) {
    let name = id.rsplit('/').next().unwrap_or(id);
    let free = |size: &str| reserved.iter().find(|(s, _)| s.eq_ignore_ascii_case(size)).map(|x| x.1);
    let (mut mine, rest): (Vec<_>, Vec<_>) =
        std::mem::take(&mut outcome.recommendations).into_iter().partition(|r| free(&r.vm_size).is_some());
    for r in &mut mine {
        let n = free(&r.vm_size).unwrap_or(0);
        r.reasons.insert(0, format!("reserved in {name}: {n} instance(s) free"));
    }
    let missing: Vec<&str> = reserved
        .iter()
        .filter(|(s, _)| !mine.iter().any(|r| r.vm_size.eq_ignore_ascii_case(s)))
        .map(|(s, _)| s.as_str())
        .collect();
    if !missing.is_empty() {
        outcome.requirements.notes.push(format!(
            "{name} also reserves {}: not recommended for this workload (or below --top)",
            missing.join(", ")
        ));
    }
    mine.extend(rest);
    outcome.recommendations = mine;
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
        // The error on stderr says "no size fits" with the constraint and the closest sizes.
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
    if r.workload == Workload::Inference && r.model.is_some() {
        out.push_str(&format!("Serving:  {}\n", serving_line(r)));
    }
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

/// Lengths, concurrency and targets of an inference request.
fn serving_line(r: &Requirements) -> String {
    let s = &r.serving;
    let mut parts = vec![format!("{} in + {} out tokens", s.input_tokens, s.output_tokens)];
    parts.push(if s.concurrency_given {
        format!("{} sequences in flight", r.concurrency)
    } else {
        "largest batch that fits".to_owned()
    });
    if let Some(k) = s.kv_cache_precision {
        parts.push(format!("KV cache {}", k.name()));
    }
    if let Some(x) = s.min_tokens_per_second {
        parts.push(format!("≥ {} tokens/s", fmt_num(x)));
    }
    if let Some(x) = s.min_tokens_per_second_per_user {
        parts.push(format!("≥ {} tokens/s per user", fmt_num(x)));
    }
    if let Some(x) = s.max_ttft_seconds {
        parts.push(format!("first token ≤ {} s", fmt_num(x)));
    }
    if s.rank_by == recommend::RankBy::CostPerToken {
        parts.push("ranked by cost per token".to_owned());
    }
    parts.join(" · ")
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
    // Serving figures, when estimated: output tokens/s, per sequence, TTFT, USD per M tokens.
    let serving_col = o.recommendations.iter().any(|x| x.serving.is_some());
    if serving_col {
        headers.extend(["TP×PP×COPIES", "TOK/S", "TOK/S/USER", "TTFT", "$/M TOK"]);
        aligns.extend([Align::Right; 5]);
    }
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
    let column = |f: fn(&recommend::Recommendation) -> Option<f64>| {
        crate::units::money_column(&o.recommendations.iter().map(f).collect::<Vec<_>>())
    };
    let (hourly, monthly, per_instance) =
        (column(|r| r.price_per_hour), column(|r| r.monthly_cost), column(|r| r.price_per_instance_hour));
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
                // Every copy of the model on a node uses its GPUs: 4 copies at TP 2 fill 8 GPUs.
                format!(
                    "{}×{}",
                    fmt_num_frac(rec.fit.gpus_used_per_node * f64::from(rec.fit.replicas_per_node.max(1))),
                    rec.fit.nodes
                ),
                hourly[i].clone(),
                monthly[i].clone(),
            ];
            if serving_col {
                row.extend(serving_cells(rec.serving.as_ref()));
            }
            if mig {
                row.push(per_instance[i].clone());
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

/// The serving columns of one row ("-" where not estimated).
fn serving_cells(s: Option<&recommend::service::Serving>) -> Vec<String> {
    let Some(s) = s else { return vec!["-".to_owned(); 5] };
    let sig = recommend::service::fmt_sig;
    vec![
        format!("{}×{}×{}", s.tensor_parallel, s.pipeline_parallel, s.replicas),
        sig(s.aggregate_output_tokens_per_second),
        sig(s.decode_tokens_per_second_per_sequence),
        format!("{}s", sig(s.ttft_seconds)),
        s.usd_per_million_output_tokens.map_or_else(|| "-".to_owned(), |c| format!("${c:.2}")),
    ]
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
