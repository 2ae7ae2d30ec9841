//! The `recommend` workflow: a typed request (from `recommend`'s flags, `create-pool
//! --recommend` or a GpuConfig pool's `recommend:`) → validated `Requirements` (with the
//! documented defaults) → the ranked sizes.
//!
//! A refused setting is a `SettingError`: the `Setting`s it names and words with a place for
//! each, which each front end fills: the CLI with its flags (`--tensor-parallel`), a GpuConfig
//! with the pool's keys (`pools[1].recommend.tensorParallel`) at that key's line and column.
//! Notes and warnings are `Words` too: each front end names their settings.

use crate::catalog::{Catalog, KubeVersion, RuleKind};
use crate::domain::did_you_mean;
use crate::domain::setting::{Setting, SettingError, Words};
use crate::domain::{GpuDriver, Precision, RankBy};
use crate::error::Error;
use crate::plan::agent_pool::{OVERRIDE_RISK, RULE_REGION};
use crate::pricing::PriceSource;
use crate::recommend::{self, ModelSpec, Range};

/// What the front end renders of a recommendation.
pub use crate::catalog::{GpuCount, ManagedGpuLimit, Vendor};
pub use crate::recommend::estimate::Method;
pub use crate::recommend::{
    fmt_num, gpu_matches, memory_terms, price_kind, service, Constraint, Os, Ranking, Recommendation, Requirements,
    Workload,
};
use crate::units::Memory;

/// A precision the workload cannot use, naming the precision and workload settings.
pub(crate) fn precision_error(e: recommend::weights::PrecisionError) -> Error {
    refuse(&[Setting::Precision, Setting::Workload], e.message, e.hint)
}

/// A usage error (exit 2) naming `settings` (`{0}`, `{1}`… in the words).
fn refuse(settings: &[Setting], message: impl Into<String>, hint: impl Into<Option<String>>) -> Error {
    Error::Setting(Box::new(SettingError {
        settings: settings.to_vec(),
        message: message.into(),
        hint: hint.into(),
        rule: None,
    }))
}

/// What the workload needs: the settings `recommend`, `create-pool --recommend` and a
/// GpuConfig pool's `recommend:` share.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Need {
    /// Kind of workload (`--workload`).
    pub workload: Option<Workload>,
    /// Model name or Hugging Face id (`--model`).
    pub model: Option<String>,
    /// Parameter count of a model not in the catalog (`--model-params`).
    pub model_params: Option<f64>,
    /// Weight precision (`--precision`).
    pub precision: Option<Precision>,
    /// Minimum GPU memory per GPU (`--gpu-memory-min`).
    pub gpu_memory_min: Option<Memory>,
    /// GPU models (`--gpu-model`).
    pub gpu_model: Vec<String>,
    /// Highest price per hour for the whole fit (`--max-price-per-hour`).
    pub max_price_per_hour: Option<f64>,
    /// Highest price per month for the whole fit (`--max-price-per-month`).
    pub max_price_per_month: Option<f64>,
    /// Tokens of context (`--context`).
    pub context: Option<u64>,
    /// Sequences in flight or micro-batch size (`--concurrency`).
    pub concurrency: Option<u64>,
    /// Prompt tokens per request (`--input-tokens`).
    pub input_tokens: Option<u64>,
    /// Generated tokens per request (`--output-tokens`).
    pub output_tokens: Option<u64>,
    /// Output tokens per second for the deployment (`--min-tokens-per-second`).
    pub min_tokens_per_second: Option<f64>,
    /// Decode tokens per second per sequence (`--min-tokens-per-second-per-user`).
    pub min_tokens_per_second_per_user: Option<f64>,
    /// Longest time to first token, in seconds (`--max-ttft`).
    pub max_ttft: Option<f64>,
    /// KV-cache precision (`--kv-cache-precision`).
    pub kv_cache_precision: Option<Precision>,
    /// Tensor-parallel degree (`--tensor-parallel`).
    pub tensor_parallel: Option<u32>,
    /// Pipeline stages (`--pipeline-parallel`).
    pub pipeline_parallel: Option<u32>,
    /// Expert-parallel GPUs per stage, attention data parallel across them (`--expert-parallel`).
    pub expert_parallel: Option<u32>,
    /// Rank by price or by cost per token (`--rank-by`).
    pub rank_by: Option<RankBy>,
}

/// A `recommend` request: the workload and the constraints on the sizes.
#[derive(Debug, Clone, PartialEq)]
pub struct RecommendRequest {
    /// What the workload needs.
    pub need: Need,
    /// Hugging Face token for a gated model (never printed).
    pub hf_token: Option<String>,
    /// Evaluate this one size instead of ranking.
    pub vm_size: Option<String>,
    /// GPU memory per GPU, at least.
    pub gpu_memory: Option<Memory>,
    /// GPU memory per GPU, at most.
    pub gpu_memory_max: Option<Memory>,
    /// GPU memory of the VM, at least.
    pub total_gpu_memory: Option<Memory>,
    /// GPU memory of the VM, minimum.
    pub total_gpu_memory_min: Option<Memory>,
    /// GPU memory of the VM, maximum.
    pub total_gpu_memory_max: Option<Memory>,
    /// GPUs per VM, exactly.
    pub gpus: Option<f64>,
    /// GPUs per VM, minimum.
    pub gpus_min: Option<f64>,
    /// GPUs per VM, maximum.
    pub gpus_max: Option<f64>,
    /// Node operating system.
    pub os: Option<Os>,
    /// Kubernetes version of the cluster.
    pub k8s_version: Option<KubeVersion>,
    /// Region, or comma-separated regions.
    pub region: Option<String>,
    /// Keep sizes with no list price.
    pub include_unpriced: bool,
    /// Price with spot VMs.
    pub spot: bool,
    /// Use MIG slices.
    pub mig: bool,
    /// Consider retired sizes.
    pub include_retired: bool,
    /// Consider sizes AKS does not support for GPU pools.
    pub include_unsupported: bool,
    /// Who installs the GPU driver.
    pub gpu_driver: Option<GpuDriver>,
    /// Currency of the prices.
    pub currency: Option<String>,
    /// Catalog rules turned into warnings.
    pub overrides: Vec<String>,
    /// How many recommendations to show.
    pub top: u64,
}

impl Default for RecommendRequest {
    fn default() -> Self {
        RecommendRequest {
            need: Need::default(),
            hf_token: None,
            vm_size: None,
            gpu_memory: None,
            gpu_memory_max: None,
            total_gpu_memory: None,
            total_gpu_memory_min: None,
            total_gpu_memory_max: None,
            gpus: None,
            gpus_min: None,
            gpus_max: None,
            os: None,
            k8s_version: None,
            region: None,
            include_unpriced: false,
            spot: false,
            mig: false,
            include_retired: false,
            include_unsupported: false,
            gpu_driver: None,
            currency: None,
            overrides: Vec::new(),
            top: 5,
        }
    }
}

impl RecommendRequest {
    /// The question a pool's `recommend` asks (`create-pool --recommend`, a GpuConfig pool's
    /// `recommend:`): the workload, priced and filtered for the pool's OS, spot, MIG and driver,
    /// top 3.
    pub fn for_pool(need: Need, os: Option<Os>, spot: bool, mig: bool, gpu_driver: Option<GpuDriver>) -> Self {
        RecommendRequest { need, os, spot, mig, gpu_driver, top: 3, ..RecommendRequest::default() }
    }
}

/// The ranked sizes for a request: the model read from the Hugging Face Hub when the catalog
/// lacks it, the requirements with their defaults, and the ranking, priced from `source`
/// (said in the notes when it is a cache).
pub fn recommend(catalog: &mut Catalog, a: &RecommendRequest, source: &PriceSource) -> Result<Ranking, Error> {
    let (hub, hub_notes) = hub_model(catalog, a)?;
    catalog.models.extend(hub);
    let mut req = requirements(catalog, a)?;
    req.notes.splice(0..0, hub_notes);
    if let PriceSource::Cache { .. } = source {
        // The cache holds the sizes and regions refreshed; every other price is bundled, and
        // each row's `price_source` says which it is.
        req.notes.push(
            format!(
                "prices: {} for the sizes and regions it holds; the others from the bundled table (as of {})",
                source.describe(),
                catalog.prices.as_of
            )
            .into(),
        );
    }
    req.price_source = Some(source.describe());
    let mut outcome = recommend::recommend(catalog, &req);
    in_currency(&mut outcome);
    // Each row's price age, as `cost` gives it: per size and region, from its own date.
    let now = std::time::SystemTime::now();
    for r in &mut outcome.recommendations {
        r.price_date = r.price_source.as_deref().and_then(crate::cost::date_in);
        r.price_age_days = r.price_date.as_deref().and_then(|d| crate::cost::age_days(d, now));
    }
    Ok(outcome)
}

/// The first-ranked size for `a` (what `create-pool --recommend` and a GpuConfig `recommend:`
/// take), or, when nothing fits, the constraint that removed the last candidates (none when
/// the catalog had no candidate at all).
pub fn top_recommendation(
    catalog: &Catalog,
    a: &RecommendRequest,
) -> Result<Result<crate::recommend::Recommendation, Option<Constraint>>, Error> {
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
        return Ok(Err(out.no_fit().map(|n| n.constraint)));
    }
    Ok(Ok(out.recommendations.swap_remove(0)))
}

/// The recommendations, best first (at most `a.top`), for failover.
pub fn ranked(catalog: &Catalog, a: &RecommendRequest) -> Result<Vec<Recommendation>, Error> {
    let req = requirements(catalog, a)?;
    Ok(crate::recommend::recommend(catalog, &req).recommendations)
}

/// True when a flag describes the workload (without one, `recommend` asks the wizard).
pub fn has_requirements(a: &RecommendRequest) -> bool {
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

/// A memory range from `--X` (at least), `--X-min` and `--X-max` (the three `settings`). A
/// single value is a minimum, as people say it ("a GPU with 80 GB" means at least 80 GB).
fn range(
    at_least: Option<Memory>,
    min: Option<Memory>,
    max: Option<Memory>,
    settings: [Setting; 3],
    notes: &mut Vec<Words>,
) -> Result<Range, Error> {
    let [_, setting_min, setting_max] = settings;
    for (setting, m) in [(setting_min, min), (setting_max, max)] {
        if let Some(n) = m.and_then(|m| m.note(&format!("{{0}} {}GB", fmt_num(m.gib)))) {
            notes.push(Words::new(n, &[setting]));
        }
    }
    if at_least.is_some() && min.is_some() {
        return Err(refuse(
            &settings,
            "{0} and {1} both set the minimum",
            "use one of them; {2} sets an upper bound".to_owned(),
        ));
    }
    let to = |m: Option<Memory>| m.map(|m| m.gib);
    if let Some(m) = at_least {
        let unit = if m.decimal { "GB" } else { "GiB" };
        let read = m.note(&format!("{}GB", fmt_num(m.gib))).map(|n| format!("; {n}")).unwrap_or_default();
        let text = format!("{{0}} {}{unit}: at least that much ({{1}} for an upper bound){read}", fmt_num(m.gib));
        notes.push(Words::new(text, &[settings[0], setting_max]));
    }
    num_range(None, to(at_least.or(min)), to(max), settings)
}

/// A range from an exact value, a minimum and a maximum (the three `settings`).
fn num_range(exact: Option<f64>, min: Option<f64>, max: Option<f64>, settings: [Setting; 3]) -> Result<Range, Error> {
    if exact.is_some() && (min.is_some() || max.is_some()) {
        return Err(refuse(
            &settings,
            "{0} cannot be combined with {1}/{2}",
            "use {0} for an exact value, or the {1}/{2} pair for a range".to_owned(),
        ));
    }
    if let (Some(a), Some(b)) = (min, max) {
        if a > b {
            return Err(refuse(
                &settings,
                format!("{{1}} {} is larger than {{2}} {}", fmt_num(a), fmt_num(b)),
                "swap the two values".to_owned(),
            ));
        }
    }
    Ok(match exact {
        Some(v) => Range { min: Some(v), max: Some(v) },
        None => Range { min, max },
    })
}

/// Turn flags into validated requirements (pure apart from reading the catalog).
pub fn requirements(catalog: &Catalog, a: &RecommendRequest) -> Result<Requirements, Error> {
    crate::plan::agent_pool::check_override_ids(catalog, &a.overrides).map_err(Error::from)?;
    let mut notes = Vec::new();
    let model = model_arg(catalog, a, &mut notes)?;
    let workload = a.need.workload.unwrap_or(Workload::Inference);
    if a.need.workload.is_none() && model.is_some() {
        let note = "workload: inference (default with {0}; {1} to change)";
        notes.push(Words::new(note, &[Setting::Model, Setting::Workload]));
    }
    let mut req = Requirements::new(workload);
    let resolved = recommend::weights::resolve(model.as_ref(), a.need.precision, workload).map_err(precision_error)?;
    req.precision = resolved.precision;
    req.precision_explicit = resolved.explicit;
    if let Some(m) = model.as_ref().filter(|m| m.fp16_unstable && resolved.precision == recommend::Precision::Fp16) {
        return Err(refuse(
            &[Setting::Precision],
            format!(
                "{{0}} fp16: {} overflows in fp16 (vLLM refuses float16 for it: numerical instability)",
                m.id.as_deref().unwrap_or("this model")
            ),
            "use {0} bf16 (GPUs without bf16 then run it in fp32) or fp32".to_owned(),
        ));
    }
    notes.extend(resolved.notes.into_iter().map(Words::from));
    let lengths = lengths(model.as_ref(), workload, a)?;
    req.context = lengths.0;
    req.concurrency = a.need.concurrency.unwrap_or(1);
    if model.is_some() && a.need.context.is_none() && a.need.input_tokens.is_none() && a.need.output_tokens.is_none() {
        let note = format!("context: {} tokens (default; {{0}} to change)", req.context);
        notes.push(Words::new(note, &[Setting::Context]));
    }
    if let Some(s) = lengths.1 {
        req.serving = s;
    }
    req.model = model;
    serving_ask(catalog, a, &mut req, &mut notes)?;
    use Setting as S;
    let gpu_memory = [S::GpuMemory, S::GpuMemoryMin, S::GpuMemoryMax];
    req.gpu_memory_gib = range(a.gpu_memory, a.need.gpu_memory_min, a.gpu_memory_max, gpu_memory, &mut notes)?;
    let total = [S::TotalGpuMemory, S::TotalGpuMemoryMin, S::TotalGpuMemoryMax];
    req.total_gpu_memory_gib =
        range(a.total_gpu_memory, a.total_gpu_memory_min, a.total_gpu_memory_max, total, &mut notes)?;
    req.gpus = num_range(a.gpus, a.gpus_min, a.gpus_max, [S::Gpus, S::GpusMin, S::GpusMax])?;
    check_gpu_models(catalog, &a.need.gpu_model)?;
    req.gpu_models = a.need.gpu_model.iter().map(|g| g.trim().to_owned()).filter(|g| !g.is_empty()).collect();
    os_and_version(catalog, a, &mut req, &mut notes)?;
    regions(catalog, a, &mut req, &mut notes)?;
    req.max_price_per_hour = a.need.max_price_per_hour;
    req.max_price_per_month = a.need.max_price_per_month;
    req.currency = catalog.prices.currency.clone();
    let currency = &catalog.prices.currency;
    for (setting, given) in
        [(Setting::MaxPricePerHour, req.max_price_per_hour), (Setting::MaxPricePerMonth, req.max_price_per_month)]
    {
        if given.is_some() && !currency.eq_ignore_ascii_case("USD") {
            let note = format!("{{0}} is in {currency}, the currency of the prices ({{1}})");
            notes.push(Words::new(note, &[setting, Setting::Currency]));
        }
    }
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

/// The region, or the comma-separated regions (each size priced in the cheapest of them).
fn regions(
    catalog: &Catalog,
    a: &RecommendRequest,
    req: &mut Requirements,
    notes: &mut Vec<Words>,
) -> Result<(), Error> {
    let Some(r) = &a.region else { return Ok(()) };
    let mut regions = Vec::new();
    for typed in r.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let name = region_or_override(catalog, typed, &a.overrides, &mut req.warnings)?;
        if !regions.contains(&name) {
            regions.push(name);
        }
    }
    match regions.len() {
        0 => return Err(refuse(&[Setting::Location], "{0}: no region given", None)),
        1 => req.region = regions.pop(),
        _ => {
            notes.push(format!("each size priced in the cheapest of {}", regions.join(", ")).into());
            req.regions = regions;
        }
    }
    Ok(())
}

/// The context, and for inference the input and output tokens per request: `--context`, else
/// input + output when both are given, else the default; a missing length is 3/4 (input) or
/// 1/4 (output) of the context.
fn lengths(
    model: Option<&ModelSpec>,
    workload: Workload,
    a: &RecommendRequest,
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
        return Err(refuse(
            &[Setting::InputTokens, Setting::OutputTokens, Setting::Context],
            format!("{{0}} {input} + {{1}} {output} is longer than the context {context}"),
            "raise {2}, or shorten the requests".to_owned(),
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
    a: &RecommendRequest,
    req: &mut Requirements,
    notes: &mut Vec<Words>,
) -> Result<(), Error> {
    let n = &a.need;
    let s = &mut req.serving;
    s.min_tokens_per_second = n.min_tokens_per_second;
    s.min_tokens_per_second_per_user = n.min_tokens_per_second_per_user;
    s.max_ttft_seconds = n.max_ttft;
    s.kv_cache_precision = n.kv_cache_precision;
    s.rank_by = n.rank_by.unwrap_or_default();
    for (setting, v) in [(Setting::TensorParallel, n.tensor_parallel), (Setting::PipelineParallel, n.pipeline_parallel)]
    {
        if v == Some(0) {
            return Err(refuse(&[setting], "{0} must be at least 1", None));
        }
    }
    if let (Some(tp), Some(m)) = (n.tensor_parallel, &req.model) {
        if !m.arch.tp_ok(tp) {
            return Err(refuse(
                &[Setting::TensorParallel, Setting::PipelineParallel],
                format!(
                    "{{0}} {tp} does not split {} attention heads and {} KV heads evenly (vLLM)",
                    m.arch.attention_heads, m.arch.kv_heads
                ),
                "choose a degree that divides the heads, and {1} for the rest of the GPUs".to_owned(),
            ));
        }
    }
    s.tensor_parallel = n.tensor_parallel;
    s.pipeline_parallel = n.pipeline_parallel;
    s.expert_parallel = expert_parallel(n, req.model.as_ref())?;
    size_and_kv(catalog, a, req, notes)?;
    let s = &mut req.serving;
    s.asked = (req.workload == Workload::Inference && req.model.is_some())
        || s.has_targets()
        || s.tensor_parallel.is_some()
        || s.pipeline_parallel.is_some()
        || s.expert_parallel.is_some()
        || s.kv_cache_precision.is_some()
        || s.vm_size.is_some()
        || n.rank_by.is_some();
    if req.workload == Workload::Inference && req.model.is_some() {
        let s = &req.serving;
        let note = format!(
            "serving: {} input + {} output tokens per request, {} ({{0}}, {{1}}, {{2}})",
            s.input_tokens,
            s.output_tokens,
            if s.concurrency_given {
                format!("{} sequences in flight", req.concurrency)
            } else if s.min_tokens_per_second_per_user.is_some() || s.max_ttft_seconds.is_some() {
                "the most sequences per copy that still meet the per-user and first-token targets".to_owned()
            } else {
                "the largest batch that fits in memory".to_owned()
            }
        );
        notes.push(Words::new(note, &[Setting::InputTokens, Setting::OutputTokens, Setting::Concurrency]));
    }
    Ok(())
}

/// `--expert-parallel`: a mixture of experts whose experts split evenly over the GPUs of a
/// stage (TensorRT-LLM's `Mapping` and vLLM's expert-parallel `FusedMoE` place E/ep experts on
/// each), attention data parallel across them, so never with `--tensor-parallel` above 1. A
/// degree of 1 is no expert parallelism.
fn expert_parallel(n: &Need, model: Option<&recommend::ModelSpec>) -> Result<Option<u32>, Error> {
    let Some(ep) = n.expert_parallel else { return Ok(None) };
    if ep == 0 {
        return Err(refuse(&[Setting::ExpertParallel], "{0} must be at least 1", None));
    }
    if ep == 1 {
        return Ok(None);
    }
    if let Some(tp) = n.tensor_parallel.filter(|t| *t > 1) {
        return Err(refuse(
            &[Setting::ExpertParallel, Setting::TensorParallel],
            format!("{{0}} {ep} runs attention data parallel on its GPUs: it does not combine with {{1}} {tp}"),
            "leave out {1}, or {0} for tensor parallelism".to_owned(),
        ));
    }
    match model.and_then(|m| m.experts) {
        Some((e, _)) if e % ep == 0 => Ok(Some(ep)),
        Some((e, _)) => Err(refuse(
            &[Setting::ExpertParallel],
            format!("{{0}} {ep} does not split {e} experts evenly"),
            "choose a degree that divides the experts".to_owned(),
        )),
        None => Err(refuse(
            &[Setting::ExpertParallel, Setting::Model],
            "{0} splits the experts of a mixture of experts; {1} names no such model".to_owned(),
            None,
        )),
    }
}

/// `--vm-size` (one size to evaluate, from the catalog) and `--kv-cache-precision fp8`, which
/// the size's GPU or every named GPU must support.
fn size_and_kv(
    catalog: &Catalog,
    a: &RecommendRequest,
    req: &mut Requirements,
    notes: &mut Vec<Words>,
) -> Result<(), Error> {
    let s = &mut req.serving;
    if let Some(name) = &a.vm_size {
        let size = catalog.size(name).ok_or_else(|| {
            refuse(
                &[Setting::VmSize],
                format!("{{0}} {name:?} is not in the catalog"),
                did_you_mean(&catalog.suggest_sizes(name))
                    .or_else(|| Some("`aksgpu catalog list` lists the sizes".to_owned())),
            )
        })?;
        s.vm_size = Some(size.name.clone());
        req.include_unpriced = true;
        notes.push(Words::new(format!("{{0}} {}: evaluating this size only", size.name), &[Setting::VmSize]));
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
            return Err(refuse(
                &[Setting::KvCachePrecision],
                format!("{{0}} fp8 needs FP8 support, which the {} lacks", g.id),
                "use {0} bf16 (or fp16) on this GPU".to_owned(),
            ));
        }
    }
    Ok(())
}

/// The hint for a model aksgpu cannot size by name, with `{0}` for the model-params setting
/// (in words from `hub_words`).
const PARAMS_HINT: &str = "pass {0} with its parameter count (e.g. {0} 8B) to size it by parameters";

/// Words about the Hub naming the model-params setting at `{0}` and the Hub token at `{1}`.
fn hub_words(text: String) -> Words {
    Words::new(text, &[Setting::ModelParams, Setting::HfToken])
}

/// `params_hint` with `{1}` for the model-params setting (in a `SettingError` naming
/// `[Model, ModelParams]`).
const PARAMS_TEMPLATE: &str = "pass {1} with its parameter count (e.g. {1} 8B) to size it by parameters";

/// `--model` (a catalog model, a base/instruct sibling of one, a model read from the Hugging
/// Face Hub by `hub_model`, with a did-you-mean otherwise) or `--model-params` (any size). Both
/// together only for a model the catalog does not know: the parameter count is the offline
/// fallback.
fn model_arg(catalog: &Catalog, a: &RecommendRequest, notes: &mut Vec<Words>) -> Result<Option<ModelSpec>, Error> {
    let found = a.need.model.as_deref().and_then(|name| {
        catalog.model(name).map(|m| (m, false)).or_else(|| catalog.model_variant(name).map(|m| (m, true)))
    });
    let from_hub = |m: &crate::catalog::LlmModel| m.note.as_deref() == Some(crate::hub::HUB_NOTE);
    Ok(match (&a.need.model, a.need.model_params, found) {
        (Some(_), Some(_), Some((m, _))) if from_hub(m) => {
            let note = "{0} ignored: the Hugging Face Hub gave the model's exact size";
            notes.push(Words::new(note, &[Setting::ModelParams]));
            Some(ModelSpec::from_model(m))
        }
        (Some(_), Some(_), Some(_)) => {
            return Err(refuse(
                &[Setting::Model, Setting::ModelParams],
                "{0} and {1} both give the model size",
                "use {0} for a known model, or {1} for any other".to_owned(),
            ))
        }
        (Some(name), None, Some((m, variant))) => {
            if variant {
                notes.push(format!("model: {name} sized as {} (same architecture and size)", m.id).into());
            }
            Some(ModelSpec::from_model(m))
        }
        (Some(name), None, None) => return Err(unknown_model(catalog, name)),
        (Some(name), Some(p), None) => {
            let mut spec = ModelSpec::from_params(catalog, p);
            spec.id = Some(name.clone());
            notes.push(format!("architecture for KV cache and activations: {}", spec.arch_from).into());
            Some(spec)
        }
        (None, Some(p), _) => {
            let spec = ModelSpec::from_params(catalog, p);
            notes.push(format!("architecture for KV cache and activations: {}", spec.arch_from).into());
            Some(spec)
        }
        (None, None, _) => None,
    })
}

/// `--model NAME` is not in the catalog: a did-you-mean (which names a different model, so it
/// says how to size this one), else the catalog's names.
fn unknown_model(catalog: &Catalog, name: &str) -> Error {
    let near = catalog.suggest_models(name);
    let other = "for a model the catalog does not list, its Hugging Face id (org/name) or {1} with its parameter count";
    let hint = match did_you_mean(&near) {
        Some(d) => format!("{d} Or, {other}"),
        None => format!(
            "{PARAMS_TEMPLATE}, or use its Hugging Face id (org/name), or one of: {}",
            catalog.models.iter().filter_map(|m| m.aliases.first().map(String::as_str)).collect::<Vec<_>>().join(", ")
        ),
    };
    refuse(&[Setting::Model, Setting::ModelParams], format!("{{0}} {name:?} is not in the catalog"), hint)
}

/// `--model org/name` that the catalog does not list (nor a base/instruct sibling of it): read
/// it from the Hugging Face Hub or the cache, with a note on where it came from. Catalog models
/// never touch the network. Offline with `--model-params`, the note says that sizes it instead.
pub fn hub_model(
    catalog: &Catalog,
    a: &RecommendRequest,
) -> Result<(Option<crate::catalog::LlmModel>, Vec<Words>), Error> {
    use crate::hub::{self, HubError};
    let Some(name) = a.need.model.as_deref().map(str::trim) else { return Ok((None, Vec::new())) };
    if catalog.model(name).is_some() || catalog.model_variant(name).is_some() || !hub::is_repo_id(name) {
        return Ok((None, Vec::new()));
    }
    let token = a.hf_token.clone().or_else(|| std::env::var("HF_TOKEN").ok()).filter(|t| !t.trim().is_empty());
    if let Some(t) = &token {
        // Before anything can print it (the Hub client registers it too).
        crate::secret::register(t);
    }
    let endpoint = hub::endpoint_from_env();
    hub::check_endpoint(&endpoint)
        .map_err(|e| Error::usage(e.to_string(), Some("unset HF_ENDPOINT to use https://huggingface.co".to_owned())))?;
    match hub::fetch(name, &endpoint, token) {
        Ok((facts, cached)) => {
            let m = hub::to_model(&facts).map_err(|e| {
                Error::usage(
                    format!("cannot size {name} from the Hugging Face Hub: {e}"),
                    hub_words(PARAMS_HINT.to_owned()),
                )
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
            Ok((Some(m), vec![note.into()]))
        }
        Err(e @ HubError::Offline { .. }) if a.need.model_params.is_some() => {
            Ok((None, vec![hub_words(format!("model: {e}; sized from {{0}} instead"))]))
        }
        Err(e @ HubError::Offline { .. }) => Err(Error::Unavailable {
            message: format!("{name} is not in the catalog and {e}").into(),
            hint: Some(hub_words(format!("offline: {PARAMS_HINT} without the Hub"))),
        }),
        Err(e @ HubError::Gated { had_token, .. }) => {
            Err(Error::Denied {
                message: e.to_string().into(),
                hint: Some(if had_token {
                    hub_words(format!("the token has no access: accept the model's terms at {endpoint}/{name} with the account the token belongs to, or {PARAMS_HINT}"))
                } else {
                    hub_words(format!("accept the model's terms at {endpoint}/{name}, then pass {{1}} or set HF_TOKEN; or {PARAMS_HINT}"))
                }),
            })
        }
        Err(e @ HubError::NotFound { .. }) => {
            let near = catalog.suggest_models(name.rsplit('/').next().unwrap_or(name));
            let d = did_you_mean(&near).map(|d| format!("{d} Or ")).unwrap_or_default();
            Err(Error::usage(e.to_string(), hub_words(format!("{d}check the id on {endpoint}, or {PARAMS_HINT}"))))
        }
        Err(e @ HubError::Bad { .. }) => {
            Err(Error::Unavailable { message: e.to_string().into(), hint: Some(hub_words(PARAMS_HINT.to_owned())) })
        }
        // Not the Hub's fault: the process could not start its event loop (exit 1, as
        // every other command's runtime).
        Err(HubError::Runtime { kind, reason }) => {
            Err(Error::System { what: "the async runtime", source: std::io::Error::new(kind, reason) })
        }
    }
}

/// Every `--gpu-model` must match a GPU in the catalog.
fn check_gpu_models(catalog: &Catalog, models: &[String]) -> Result<(), Error> {
    for g in models {
        if !catalog.sizes.iter().any(|s| recommend::gpu_matches(g, s, catalog.gpu(&s.gpu_model))) {
            let near = catalog.suggest_gpus(g);
            return Err(refuse(
                &[Setting::GpuModel],
                format!("{{0}} {g:?} matches no GPU in the catalog"),
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
    a: &RecommendRequest,
    req: &mut Requirements,
    notes: &mut Vec<Words>,
) -> Result<(), Error> {
    let workload = req.workload;
    req.os = a.os.unwrap_or(if workload == Workload::Vdi { Os::Windows } else { Os::Linux });
    if a.os.is_none() && workload == Workload::Vdi {
        notes.push(Words::new("os: windows (default for vdi; {0} linux to change)", &[Setting::Os]));
    }
    req.kubernetes_version = a.k8s_version;
    if req.os == Os::Windows {
        if let Some((min, feature, ns)) = catalog.windows_min_kubernetes() {
            match req.kubernetes_version {
                Some(v) if v.minor_lt(&min) => {
                    let rule = rule_of(catalog, "windows-gpu-min-kubernetes", |k| {
                        matches!(k, RuleKind::WindowsMinKubernetes { .. })
                    });
                    overridable(
                        a,
                        &mut req.warnings,
                        (&rule.0, &rule.1, OVERRIDE_RISK),
                        &[Setting::KubernetesVersion],
                        format!("Windows GPU node pools need Kubernetes {min} or later; {{0}} is {v}"),
                        format!(
                            "upgrade the cluster to {min}+ and register the preview feature: `az feature register --namespace {ns} --name {feature}`"
                        ),
                    )?;
                }
                Some(_) => {}
                None => notes.push(Words::new(
                    format!("Windows GPU pools need Kubernetes ≥ {min} and the {feature} preview feature (pass {{0}} to check)"),
                    &[Setting::KubernetesVersion],
                )),
            }
        }
        if a.mig {
            let rule = rule_of(catalog, "mig-models", |k| matches!(k, RuleKind::Mig { .. }));
            overridable(
                a,
                &mut req.warnings,
                (&rule.0, &rule.1, OVERRIDE_RISK),
                &[Setting::Mig, Setting::Os],
                "{0} is not available on Windows node pools".to_owned(),
                "use {1} linux for MIG".to_owned(),
            )?;
        }
    }
    Ok(())
}

/// Check a location against the catalog's list of Azure regions: the ARM name on success,
/// else a usage error (exit 2) naming the location setting, with a did-you-mean.
pub fn region_arg(catalog: &Catalog, typed: &str) -> Result<String, Error> {
    catalog.resolve_region(typed).map_err(|near| {
        refuse(
            &[Setting::Location],
            format!("{{0}} {typed:?} is not an Azure region"),
            did_you_mean(&near).or_else(|| {
                Some("use the ARM name, such as eastus or westeurope (`aksgpu catalog regions`)".to_owned())
            }),
        )
    })
}

/// What overriding `catalog-region` risks, said with the warning.
const REGION_RISK: &str = "prices are unknown there and Azure decides whether the region exists and offers the size";

/// `region_arg` for commands that take `--override`: a well-formed name the catalog's
/// regions.yaml lacks is refused naming the override of `catalog-region`, and with it is used
/// as typed (lower case), with a warning. A name that cannot be an ARM region name stays refused.
pub fn region_or_override(
    catalog: &Catalog,
    typed: &str,
    overrides: &[String],
    warnings: &mut Vec<Words>,
) -> Result<String, Error> {
    let e = match region_arg(catalog, typed) {
        Ok(name) => return Ok(name),
        Err(e) => e,
    };
    let norm: String = typed.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
    if norm.is_empty() || !norm.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(e);
    }
    let (id, source) = (RULE_REGION, catalog.regions.source.as_str());
    if overrides.iter().any(|o| o == id) {
        warnings.push(Words::new(
            format!("overriding catalog rule {id} ({{0}} {norm:?} is not in the catalog's regions; source: {source}); risk: {REGION_RISK}"),
            &[Setting::Location],
        ));
        return Ok(norm);
    }
    Err(match e {
        Error::Setting(mut e) => {
            e.rule = Some((id.to_owned(), source.to_owned()));
            Error::Setting(e)
        }
        other => other,
    })
}

/// The id and source of the catalog rule of `kind` (`fallback` when the catalog has none).
fn rule_of(catalog: &Catalog, fallback: &str, kind: impl Fn(&RuleKind) -> bool) -> (String, String) {
    catalog
        .rules
        .iter()
        .find(|r| kind(&r.kind))
        .map_or_else(|| (fallback.to_owned(), "catalog/rules.yaml".to_owned()), |r| (r.id.clone(), r.source.clone()))
}

/// A refusal resting on catalog rule `id` (naming `settings`, as `refuse`): with `--override
/// id` a warning naming the rule, its source and the risk; otherwise exit 2 with the fix and
/// how to override.
fn overridable(
    a: &RecommendRequest,
    warnings: &mut Vec<Words>,
    (id, source, risk): (&str, &str, &str),
    settings: &[Setting],
    message: String,
    fix: String,
) -> Result<(), Error> {
    let e = SettingError {
        settings: settings.to_vec(),
        message,
        hint: Some(fix),
        rule: Some((id.to_owned(), source.to_owned())),
    };
    if a.overrides.iter().any(|o| o == id) {
        let said = format!("overriding catalog rule {id} ({}; source: {source}); risk: {risk}", e.message);
        warnings.push(Words::new(said, &e.settings));
        return Ok(());
    }
    Err(Error::Setting(Box::new(e)))
}

/// The context to size for: `--context` (at most the model's maximum), else
/// min(default, the model's maximum) with a default of 4096 tokens for inference and 2048 for
/// training and fine-tuning. So a 2048-token model such as falcon-7b works without flags.
pub fn default_context(model: Option<&ModelSpec>, workload: Workload, asked: Option<u64>) -> Result<u64, Error> {
    let max = model.and_then(|m| m.max_context);
    if let (Some(c), Some(max)) = (asked, max) {
        if c > max {
            return Err(refuse(
                &[Setting::Context],
                format!("{{0}} {c} is longer than the model's maximum context {max}"),
                format!("use {{0}} {max} or less"),
            ));
        }
    }
    let default = if matches!(workload, Workload::Training | Workload::FineTuning) { 2048 } else { 4096 };
    Ok(asked.unwrap_or_else(|| max.map_or(default, |m| m.min(default))))
}

/// The subscription a `--capacity-reservation-group` resource id names; a string that is not
/// such an id is a usage error (exit 2) before anything is read.
pub fn reservation_subscription(id: &str) -> Result<String, Error> {
    let segs: Vec<&str> = id.trim_matches('/').split('/').collect();
    let ok = segs.len() == 8
        && segs[0].eq_ignore_ascii_case("subscriptions")
        && segs[6].eq_ignore_ascii_case("capacityReservationGroups");
    if !ok {
        return Err(Error::usage(
            Words::new(
                format!("{{0}} {id:?} is not a capacity reservation group resource id"),
                &[Setting::CapacityReservationGroup],
            ),
            "pass /subscriptions/SUB/resourceGroups/RG/providers/Microsoft.Compute/capacityReservationGroups/NAME",
        ));
    }
    Ok(segs[1].to_owned())
}

/// The sizes capacity reservation group `id` reserves, with the instances still free (one
/// GET of the group with its instance view); a group that does not exist is a no-fit (exit 1).
pub async fn reserved(
    client: &crate::arm::ArmClient,
    id: &str,
    report: super::Report<'_>,
) -> Result<Vec<(String, u64)>, Error> {
    reservation_subscription(id)?;
    report("reading the capacity reservation group");
    let r = crate::provision::pool::read_group(client, id).await?;
    if r.group.is_none() {
        return Err(Error::no_fit(format!("capacity reservation group {id} does not exist"), None));
    }
    // A reservation whose numbers Azure did not send counts as none free: a ranking never
    // leans on capacity it cannot see.
    let sizes = r.sizes().map_err(|e| Error::refused(e.to_string(), None))?;
    Ok(sizes.into_iter().map(|s| (s.clone(), r.free(&s).ok().flatten().unwrap_or(0))).collect())
}

/// Move the reserved sizes to the top (keeping the order among them and among the rest), and
/// say so in their reasons; reserved sizes that are not recommended get a note.
pub(crate) fn prefer_reserved(outcome: &mut Ranking, id: &str, reserved: &[(String, u64)]) {
    let name = id.rsplit('/').next().unwrap_or(id);
    let free = |size: &str| reserved.iter().find(|(s, _)| s.eq_ignore_ascii_case(size)).map(|x| x.1);
    let (mut mine, rest): (Vec<_>, Vec<_>) =
        std::mem::take(&mut outcome.recommendations).into_iter().partition(|r| free(&r.vm_size).is_some());
    for r in &mut mine {
        let n = free(&r.vm_size).unwrap_or(0);
        r.reasons.insert(0, format!("reserved in {name}: {n} instance(s) free").into());
    }
    let missing: Vec<&str> = reserved
        .iter()
        .filter(|(s, _)| !mine.iter().any(|r| r.vm_size.eq_ignore_ascii_case(s)))
        .map(|(s, _)| s.as_str())
        .collect();
    if !missing.is_empty() {
        let note =
            format!("{name} also reserves {}: not recommended for this workload (or below {{0}})", missing.join(", "));
        outcome.requirements.notes.push(Words::new(note, &[Setting::Top]));
    }
    mine.extend(rest);
    outcome.recommendations = mine;
}

/// In a currency other than USD, the cost per million tokens is not USD: it moves to
/// `cost_per_million_output_tokens` (in `currency`), and the USD field is left empty.
pub(crate) fn in_currency(o: &mut Ranking) {
    if o.currency.eq_ignore_ascii_case("USD") {
        return;
    }
    for s in o.recommendations.iter_mut().filter_map(|r| r.serving.as_mut()) {
        s.cost_per_million_output_tokens = s.usd_per_million_output_tokens.take();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every setting a file can give names a key of the GpuConfig schema: a `recommend.` key
    /// of `$defs.recommend`, any other a key of `$defs.pool`.
    #[test]
    fn every_setting_names_a_key_of_the_file() {
        let schema: serde_json::Value =
            serde_json::from_str(include_str!("../../schema/gpuconfig.schema.json")).expect("schema");
        let mut keyed = 0;
        // A file-level key (`cluster.name`, `overrides`) is not a pool's.
        for s in Setting::ALL.iter().filter(|s| !s.is_file_level()) {
            let Some(key) = s.file_key() else { continue };
            let (def, name) = key.split_once('.').map_or(("pool", key), |(_, n)| ("recommend", n));
            assert!(
                schema["$defs"][def]["properties"].get(name).is_some(),
                "{s:?}: {key} is not a key of $defs.{def} in the schema"
            );
            keyed += 1;
        }
        assert!(keyed >= 10, "{keyed} settings with keys");
    }

    /// `--expert-parallel` is a pin for a mixture of experts whose experts it splits evenly,
    /// without tensor parallelism; it gives a copy of EP × 1 whose GPUs each hold the shared
    /// weights whole. The search never chooses it, even for a target.
    #[test]
    fn expert_parallelism_is_pinned_for_a_mixture_of_experts_only() {
        let catalog = Catalog::bundled().expect("catalog");
        let ask = |model: &str, tp: Option<u32>, ep: Option<u32>, target: Option<f64>| RecommendRequest {
            need: Need {
                workload: Some(Workload::Inference),
                model: Some(model.to_owned()),
                precision: Some(Precision::Nvfp4),
                input_tokens: Some(2048),
                output_tokens: Some(128),
                tensor_parallel: tp,
                expert_parallel: ep,
                min_tokens_per_second: target,
                ..Need::default()
            },
            vm_size: Some("Standard_NC288ds_xl_RTXPRO6000BSE_v6".to_owned()),
            include_unsupported: true,
            ..RecommendRequest::default()
        };
        let refused = |a: RecommendRequest| match requirements(&catalog, &a) {
            Err(Error::Setting(e)) => e.message.clone(),
            other => panic!("not refused: {:?}", other.map(|r| r.serving)),
        };
        let qwen = "Qwen/Qwen3-30B-A3B";
        assert!(refused(ask("meta-llama/Llama-3.1-8B-Instruct", None, Some(2), None)).contains("mixture of experts"));
        assert!(refused(ask(qwen, None, Some(3), None)).contains("does not split 128 experts"));
        assert!(refused(ask(qwen, Some(2), Some(2), None)).contains("does not combine with {1} 2"));
        assert!(refused(ask(qwen, None, Some(0), None)).contains("at least 1"));
        let first = |a: RecommendRequest| {
            let req = requirements(&catalog, &a).expect("requirements");
            let mut out = recommend::recommend(&catalog, &req);
            let r = out.recommendations.remove(0);
            (r.fit, r.serving.expect("serving"))
        };
        let (fit, dep) = first(ask(qwen, None, Some(2), None));
        let l = fit.layout.expect("layout");
        assert_eq!((l.expert_parallel, l.tensor_parallel, l.gpus), (2, 1, 2.0));
        assert_eq!((dep.expert_parallel, dep.tensor_parallel, dep.pipeline_parallel), (2, 1, 1));
        // Each GPU holds the shared weights whole: more than TP 2's even half of everything.
        let (tp_fit, tp) = first(ask(qwen, Some(2), None, None));
        assert!(fit.required_per_gpu_gib > tp_fit.required_per_gpu_gib, "{fit:?} vs {tp_fit:?}");
        assert_eq!(tp.expert_parallel, 1);
        let (_, searched) = first(ask(qwen, None, None, Some(1000.0)));
        assert_eq!(searched.expert_parallel, 1, "the search deploys tensor parallelism, as KAITO does");
    }

    /// A message names each setting where its template says, in the front end's words.
    #[test]
    fn an_error_names_its_settings_as_each_front_end_asks() {
        let e = SettingError {
            settings: vec![Setting::TensorParallel, Setting::PipelineParallel],
            message: "{0} 3 does not split".into(),
            hint: Some("use {1} for the rest".into()),
            rule: None,
        };
        let flag = |s: Setting| format!("--{}", s.long());
        assert_eq!(e.render(flag, flag).0, "--tensor-parallel 3 does not split");
        let (message, hint) = e.render(|s| s.file_key().unwrap_or_default().to_owned(), flag);
        assert_eq!(message, "recommend.tensorParallel 3 does not split");
        assert_eq!(hint.as_deref(), Some("use recommend.pipelineParallel for the rest"));
    }
}
