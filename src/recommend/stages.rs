//! The hard constraints a size passes in turn (eligibility, shape, memory fit, serving
//! targets, price cap) and the recommendation built from a size that passes them all.

use super::*;

pub(super) const STAGE_REGION: usize = 10;
pub(super) const STAGE_MEMORY_FIT: usize = 11;
pub(super) const STAGE_SERVING: usize = 12;
pub(super) const STAGE_PRICE: usize = 13;
/// A tight fit ranks as if it cost this much more: after a comfortable fit within 25 % of its
/// price, before a dearer one.
pub(super) const TIGHT_PENALTY: f64 = 1.25;

/// Sort key: (tier, whole-fit USD/hour, per MIG instance when `--mig`); unknown prices last,
/// and sizes with no price at all by their GPU memory (smallest adequate first), never by name.
/// `--rank-by cost-per-token`: USD per million output tokens, where estimated. Tight fits rank
/// after comfortable ones of similar price. The key is in whole cents, as the table shows it, so
/// float noise in a division never orders two equal prices.
pub(super) fn rank_key(r: &Recommendation, by: RankBy) -> (u8, i64) {
    let penalty = if r.tight.is_some() { TIGHT_PENALTY } else { 1.0 };
    let (tier, key) = price_key(r);
    let per_token = r.serving.as_ref().and_then(|s| s.usd_per_million_output_tokens);
    let (tier, key) = match (by, per_token) {
        (RankBy::CostPerToken, Some(c)) if tier < 2 => (tier, c * penalty),
        (RankBy::CostPerToken, None) => (tier.max(1), key * penalty),
        _ => (tier, key * penalty),
    };
    (tier, cents(Some(key)))
}

/// The ranking price (per MIG instance for MIG sizes); unpriced sizes rank by GPU memory.
pub(super) fn price_key(r: &Recommendation) -> (u8, f64) {
    let tier = r.price.as_ref().map_or(2, |p| p.rank_tier);
    // From the unrounded node price: a node price rounded first drifts the quotient by a cent.
    let node = r.price.as_ref().and_then(|p| p.rank_per_node_hour).map(|p| p * f64::from(r.fit.nodes));
    let per_instance = match (&r.fit.mig, node.or(r.rank_price_per_hour)) {
        (Some(m), Some(p)) if m.instances_per_node > 0 => Some(p / f64::from(m.instances_per_node * r.fit.nodes)),
        _ => None,
    };
    match per_instance.or(r.rank_price_per_hour) {
        Some(p) => (tier, p),
        None => (2, r.gpu_memory_gib * f64::from(r.fit.nodes)),
    }
}

/// Whole cents (`i64::MAX` when unknown).
pub(super) fn cents(p: Option<f64>) -> i64 {
    p.filter(|p| p.is_finite()).map_or(i64::MAX, |p| (p * 100.0).round() as i64)
}

pub(super) struct Reject {
    stage: usize,
    constraint: Constraint,
}

/// How a stage turns a reason into a rejection of this size.
type RejectFn<'r> = dyn Fn(Reject, Words) -> Rejected + 'r;

/// `size` through every stage, at its `price` for `req` (`pick_price`).
pub(super) fn evaluate(
    catalog: &Catalog,
    req: &Requirements,
    size: &VmSize,
    price: Option<&Price>,
    max_nodes: u32,
) -> Result<Recommendation, Rejected> {
    let gpu = catalog.gpu(&size.gpu_model);
    let price_key = price.and_then(|p| p.rank_per_node_hour).unwrap_or(f64::MAX);
    let reject = |r: Reject, reason: Words| Rejected {
        vm_size: size.name.clone(),
        reason,
        constraint: r.constraint,
        stage: r.stage,
        sort_key: price_key,
    };
    check_eligible(catalog, req, size, gpu, &reject)?;
    let mig_profiles = gpu.map(|g| g.mig_profiles.as_slice()).unwrap_or_default();
    check_shape(req, size, mig_profiles, &reject)?;
    // 10. Sold in the region: a size with no list price there is taken as not sold there.
    // Retired sizes have no list price by nature: --include-retired lists them unpriced.
    let asked_retired = req.include_retired && size.status == Status::Retired;
    if let Some(why) = unpriced(req, price).filter(|_| !asked_retired) {
        return Err(reject(Reject { stage: STAGE_REGION, constraint: Constraint::Region }, why));
    }
    // 11. The GPU can run the weights' format (not close to fitting: ranked after misfits) …
    if let Some(why) = precision_unsupported(req, gpu) {
        let r = reject(Reject { stage: STAGE_MEMORY_FIT, constraint: Constraint::PrecisionSupport }, why);
        return Err(shortfall(r, f64::INFINITY));
    }
    // A model that overflows in fp16 runs in fp32 on a GPU without bf16: sized so.
    let upcast = fp32_instead(req, gpu);
    let req = upcast.as_ref().unwrap_or(req);
    // … and holds the model; "closest" ranks these by the GiB per GPU they lack.
    let fit = fit_size(req, size, mig_profiles, max_nodes).map_err(|(why, short)| {
        let mut r = reject(Reject { stage: STAGE_MEMORY_FIT, constraint: Constraint::MemoryFit }, why.into());
        r.sort_key = short;
        r
    })?;
    // 12. The service level: targets met, with more nodes of copies when that helps.
    let node_price = price.and_then(|p| p.per_node_hour);
    let serving = serving_stage(catalog, req, size, &fit, node_price, &reject)?;
    let mut fit = fit;
    if let Some(s) = &serving {
        refit(req, &mut fit, s);
    }
    // 13. Price.
    let nodes = f64::from(fit.nodes);
    let total_price = price.and_then(|p| p.per_node_hour).map(|p| p * nodes);
    check_price_cap(req, fit.nodes, total_price, &reject)?;
    let mut rec = recommendation(req, size, price.cloned(), fit, total_price);
    rec.fp32 = upcast.is_some();
    rec.tight = tight_fit(req, &rec.fit);
    rec.serving = serving;
    Ok(rec)
}

/// Stages 1–5: lifecycle, AKS support, OS, workload kind, GPU model and driver.
pub(super) fn check_eligible(
    catalog: &Catalog,
    req: &Requirements,
    size: &VmSize,
    gpu: Option<&GpuModel>,
    reject: &RejectFn<'_>,
) -> Result<(), Rejected> {
    // 1. Lifecycle.
    if size.status == Status::Retired && !req.include_retired {
        return Err(reject(
            Reject { stage: 1, constraint: Constraint::Retired },
            Words::new(
                format!(
                    "retired{} ({{0}} to list it)",
                    size.retirement_date.as_ref().map(|d| format!(" on {d}")).unwrap_or_default()
                ),
                &[Setting::IncludeRetired],
            ),
        ));
    }
    // 2. AKS support.
    // With --gpu-driver none AKS accepts any GPU size (rule driver-none-any-size): listed, marked.
    let byo = req.gpu_driver_none && catalog.driver_none_any_size().is_some();
    if !(size.aks_supported
        || req.include_unsupported
        || byo
        || (req.include_retired && size.status == Status::Retired))
    {
        let why = catalog
            .unsupported_reason(&size.series)
            .map(|r| r.summary.clone())
            .or_else(|| size.aks_note.as_deref().map(str::to_owned))
            .unwrap_or_else(|| "not supported for AKS GPU node pools".to_owned());
        return Err(reject(
            Reject { stage: 2, constraint: Constraint::AksSupport },
            Words::new(format!("{why} ({{0}} to list it)"), &[Setting::IncludeUnsupported]),
        ));
    }
    // 3. Operating system.
    let os_ok = match req.os {
        Os::Linux => size.aks_os_skus.is_empty() || size.aks_os_skus.iter().any(|o| !o.starts_with("Windows")),
        Os::Windows => size.aks_os_skus.iter().any(|o| o.starts_with("Windows")),
    };
    if !os_ok {
        return Err(reject(
            Reject { stage: 3, constraint: Constraint::Os },
            format!("AKS allows only {} on this size", size.aks_os_skus.join(", ")).into(),
        ));
    }
    // 4. Workload kind.
    if let Some(why) = workload_mismatch(req, size, gpu) {
        return Err(reject(Reject { stage: 4, constraint: Constraint::Workload }, why));
    }

    // 5. GPU model.
    if !req.gpu_models.is_empty() && !req.gpu_models.iter().any(|w| gpu_matches(w, size, gpu)) {
        return Err(reject(
            Reject { stage: 5, constraint: Constraint::GpuModel },
            format!("GPU is {}, not {}", size.gpu_model, req.gpu_models.join(" or ")).into(),
        ));
    }
    // 5b. Sizes AKS supports only without its GPU driver (confidential NCC H100, AMD): only when
    // the user brings the driver (--gpu-driver none) or names the GPU.
    if size.driver == Driver::None && !req.gpu_driver_none && req.gpu_models.is_empty() && req.serving.vm_size.is_none()
    {
        return Err(reject(
            Reject { stage: 5, constraint: Constraint::GpuDriver },
            Words::new(
                format!(
                    "AKS installs no GPU driver on {}; pass {{0}} none (NVIDIA GPU Operator) or name it with {{1}}",
                    size.gpu_model
                ),
                &[Setting::GpuDriver, Setting::GpuModel],
            ),
        ));
    }
    Ok(())
}

/// Stages 6–9: GPUs per VM, MIG, memory per GPU (or slice) and per VM.
pub(super) fn check_shape(
    req: &Requirements,
    size: &VmSize,
    mig_profiles: &[crate::catalog::MigProfile],
    reject: &RejectFn<'_>,
) -> Result<(), Rejected> {
    // 6. GPU count per VM.
    if !req.gpus.contains(size.gpu_count.value()) {
        return Err(reject(
            Reject { stage: 6, constraint: Constraint::Gpus },
            format!("{} GPU(s) per VM, wanted {}", size.gpu_count, req.gpus.describe("")).into(),
        ));
    }
    // 7. MIG.
    if req.mig && !size.mig_capable {
        return Err(reject(
            Reject { stage: 7, constraint: Constraint::Mig },
            format!("{} does not support MIG on AKS", size.gpu_model).into(),
        ));
    }
    // 8. Memory per GPU (or per MIG slice).
    if !req.mig && !req.gpu_memory_gib.contains(size.gpu_memory_per_gpu_gib) {
        return Err(shortfall(
            reject(
                Reject { stage: 8, constraint: Constraint::GpuMemory },
                format!(
                    "{} GiB per GPU, wanted {}",
                    fmt_num(size.gpu_memory_per_gpu_gib),
                    req.gpu_memory_gib.describe(" GiB")
                )
                .into(),
            ),
            req.gpu_memory_gib.distance(size.gpu_memory_per_gpu_gib),
        ));
    }
    if req.mig && !mig_profiles.iter().any(|p| req.gpu_memory_gib.contains(p.memory_gib)) {
        return Err(reject(
            Reject { stage: 8, constraint: Constraint::GpuMemory },
            format!("no MIG slice of {} has {}", size.gpu_model, req.gpu_memory_gib.describe(" GiB")).into(),
        ));
    }
    // 9. Total GPU memory per VM.
    if !req.total_gpu_memory_gib.contains(size.gpu_memory_gib) {
        return Err(shortfall(
            reject(
                Reject { stage: 9, constraint: Constraint::TotalGpuMemory },
                format!(
                    "{} GiB of GPU memory per VM, wanted {}",
                    fmt_num(size.gpu_memory_gib),
                    req.total_gpu_memory_gib.describe(" GiB")
                )
                .into(),
            ),
            req.total_gpu_memory_gib.distance(size.gpu_memory_gib),
        ));
    }
    Ok(())
}

/// The requirements in fp32 when the model overflows in fp16 (vLLM refuses float16 for
/// gemma2: `_FLOAT16_NOT_SUPPORTED_MODELS`) and the GPU has no bf16 to run it in.
pub(super) fn fp32_instead(req: &Requirements, gpu: Option<&GpuModel>) -> Option<Requirements> {
    let unstable = req.model.as_ref().is_some_and(|m| m.fp16_unstable);
    let sixteen = matches!(req.precision, Precision::Bf16 | Precision::Fp16);
    if !(unstable && sixteen && gpu.is_some_and(|g| !g.bf16)) || req.workload != Workload::Inference {
        return None;
    }
    let mut r = req.clone();
    r.precision = Precision::Fp32;
    r.compute_need();
    Some(r)
}

/// Stage 12: the serving figures, and the targets they must meet (`None` without a model or
/// for other workloads).
pub(super) fn serving_stage(
    catalog: &Catalog,
    req: &Requirements,
    size: &VmSize,
    fit: &Fit,
    node_price: Option<f64>,
    reject: &RejectFn<'_>,
) -> Result<Option<service::Serving>, Rejected> {
    if req.workload != Workload::Inference || req.model.is_none() {
        return Ok(None);
    }
    match service::meet_targets(catalog, req, size, fit, node_price, service::MAX_REPLICA_NODES) {
        Ok(None) if req.serving.has_targets() => Err(reject(
            Reject { stage: STAGE_SERVING, constraint: Constraint::ServingEstimate },
            format!("no datasheet figures for {} to estimate what it serves (gpus.yaml perf)", size.gpu_model).into(),
        )),
        Ok(s) => Ok(s),
        Err(miss) => {
            let mut r = reject(Reject { stage: STAGE_SERVING, constraint: miss.constraint }, miss.message);
            r.sort_key = miss.ratio;
            Err(r)
        }
    }
}

/// The fit of the deployment the serving search chose: its copy's GPUs and split, copies per
/// node, nodes, and the memory each GPU needs for its sequences.
pub(super) fn refit(req: &Requirements, fit: &mut Fit, s: &service::Serving) {
    fit.nodes = s.nodes;
    let Some(need) = &req.need else { return };
    if fit.layout == Some(s.layout) && fit.replicas_per_node == s.copies_per_node {
        return;
    }
    let l = s.layout;
    let per_gpu = need.per_gpu_with(&l, s.concurrency_per_replica);
    fit.layout = Some(l);
    fit.replicas_per_node = s.copies_per_node;
    fit.gpus_used_per_node = l.gpus;
    fit.sequences_per_replica = s.concurrency_per_replica;
    fit.required_per_gpu_gib = per_gpu;
    fit.required_total_gib = per_gpu * l.gpus;
}

/// A need's terms in words, the one way the header and each row say them: a term split
/// across the GPUs as its total, a per-GPU term with `/GPU`.
pub fn memory_terms(need: &estimate::Need) -> String {
    need.breakdown
        .iter()
        .map(|t| format!("{} {:.1} GiB{}", t.name.replace('_', " "), t.gib, if t.sharded { "" } else { "/GPU" }))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// Under 5 % of GPU memory left, for every workload (a fit that close fails on the first
/// longer batch or allocator spike); for inference also fewer than 4 sequences of the full
/// context.
pub(super) fn tight_fit(req: &Requirements, fit: &Fit) -> Option<String> {
    let (need, l) = (req.need.as_ref()?, fit.layout?);
    if fit.mig.is_some() {
        return None;
    }
    // Left of what the engine may use (the usable fraction), as a share of the GPU's memory.
    let spare = (fit.available_per_gpu_gib - fit.required_per_gpu_gib).max(0.0);
    let left = spare / fit.gpu_memory_per_gpu_gib.max(1e-9);
    if need.method != estimate::Method::Inference {
        return (left < 0.05).then(|| {
            format!(
                "tight fit: {:.1} GiB ({:.1} %) of each GPU's {} GiB left",
                spare,
                left.max(0.0) * 100.0,
                fmt_num(fit.gpu_memory_per_gpu_gib)
            )
        });
    }
    let seqs = need.max_sequences(&l, fit.available_per_gpu_gib);
    (seqs < 4 || left < 0.05).then(|| {
        format!(
            "tight fit: room for {seqs} sequence(s) of {} tokens per copy, {:.1} GiB ({:.1} %) of each GPU's {} GiB left",
            req.context,
            spare,
            left.max(0.0) * 100.0,
            fmt_num(fit.gpu_memory_per_gpu_gib)
        )
    })
}

/// The tighter of `--max-price-per-hour` and `--max-price-per-month`: the flag, its value as
/// typed, and the hourly limit it sets.
pub(super) fn price_cap(req: &Requirements) -> Option<(Constraint, f64, f64)> {
    let hour = req.max_price_per_hour.map(|h| (Constraint::MaxPricePerHour, h, h));
    let month = req.max_price_per_month.map(|m| (Constraint::MaxPricePerMonth, m, m / HOURS_PER_MONTH));
    match (hour, month) {
        (Some(h), Some(m)) => Some(if m.2 < h.2 { m } else { h }),
        (h, m) => h.or(m),
    }
}

/// `v` an hour in the requirements' currency: `$3.67/h`, `€3.21/h`.
pub(super) fn hour_in(v: f64, req: &Requirements) -> String {
    format!("{}/h", money_in(Some(v), &req.currency))
}

/// `--max-price-per-hour` / `--max-price-per-month`: an unknown price cannot be held to it.
pub(super) fn check_price_cap(
    req: &Requirements,
    nodes: u32,
    total_price: Option<f64>,
    reject: &RejectFn<'_>,
) -> Result<(), Rejected> {
    if let Some((flag, typed, max)) = price_cap(req) {
        let monthly = flag == Constraint::MaxPricePerMonth;
        match total_price {
            None => {
                let limit = if monthly {
                    format!("{}/month", money_in(Some(typed), &req.currency))
                } else {
                    hour_in(typed, req)
                };
                return Err(reject(
                    Reject { stage: STAGE_PRICE, constraint: flag },
                    format!("price unknown{}, so it cannot be held to {limit}", in_region(req)).into(),
                ));
            }
            Some(p) if p > max + 1e-9 => {
                let nodes = if nodes > 1 { format!(" for {} nodes", nodes) } else { String::new() };
                let over = if monthly {
                    format!("{}/month{nodes} is over {{0}} {typed}", money_in(Some(p * HOURS_PER_MONTH), &req.currency))
                } else {
                    format!("{}{nodes} is over {{0}} {typed}", hour_in(p, req))
                };
                let settings: Vec<Setting> = flag.setting().into_iter().collect();
                let mut r = reject(Reject { stage: STAGE_PRICE, constraint: flag }, Words::new(over, &settings));
                r.sort_key = p;
                return Err(r);
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The accepted size with its fit and prices.
pub(super) fn recommendation(
    req: &Requirements,
    size: &VmSize,
    price: Option<Price>,
    fit: Fit,
    total_price: Option<f64>,
) -> Recommendation {
    let nodes = f64::from(fit.nodes);
    let rank_price = price.as_ref().and_then(|p| p.rank_per_node_hour).map(|p| p * nodes);
    let per_instance = match (&fit.mig, total_price) {
        (Some(m), Some(p)) if m.instances_per_node > 0 => Some(p / (f64::from(m.instances_per_node) * nodes)),
        _ => None,
    };
    Recommendation {
        vm_size: size.name.clone(),
        series: size.series.to_string(),
        gpu_model: size.gpu_model.to_string(),
        gpu_vendor: size.gpu_vendor,
        gpu_count: size.gpu_count.value(),
        gpu_memory_gib: size.gpu_memory_gib,
        vcpus: size.vcpus,
        memory_gib: size.memory_gib,
        driver: size.driver,
        price_per_hour: total_price.map(round_cents),
        monthly_cost: total_price.map(|p| round_cents(p * HOURS_PER_MONTH)),
        price_per_instance_hour: per_instance.map(|p| (p * 10_000.0).round() / 10_000.0),
        price_region: price.as_ref().and_then(|p| p.region.clone()),
        price_kind: price_kind(req),
        price_basis: price.as_ref().map_or_else(|| "unpriced".to_owned(), |p| p.basis.clone()),
        rank_price_per_hour: rank_price.map(round_cents),
        price_source: None,
        price_live: false,
        price_date: None,
        price_age_days: None,
        fit,
        serving: None,
        reasons: Vec::new(),
        warnings: Vec::new(),
        tight: None,
        fp32: false,
        price,
    }
}

/// Rank a rejection by how far it missed (for "closest").
pub(super) fn shortfall(mut r: Rejected, by: f64) -> Rejected {
    r.sort_key = by;
    r
}

/// vLLM's kernels for the weight format: MXFP4 runs from compute capability 8.0 (native on
/// Hopper/Blackwell, Marlin MXFP4 on Ampere/Ada: vllm-project/recipes:OpenAI/GPT-OSS.md), FP8
/// natively from 8.9 and weight-only through FP8 Marlin from 8.0 (vllm-project/vllm#5975), FP8
/// mixture-of-experts only from 8.9; Marlin needs Ampere (docs.vllm.ai quantization
/// supported_hardware). AMD GPUs and unknown capabilities are not judged here.
pub(super) fn precision_unsupported(req: &Requirements, gpu: Option<&GpuModel>) -> Option<Words> {
    let model = req.model.as_ref()?;
    if let Some(g) = gpu.filter(|g| !g.fp8 && req.serving.kv_cache_precision == Some(Precision::Fp8)) {
        let why = format!("{{0}} fp8 needs FP8 support, which the {} lacks", g.id);
        return Some(Words::new(why, &[Setting::KvCachePrecision]));
    }
    let g = gpu.filter(|g| g.vendor == Vendor::Nvidia)?;
    let cc = g.cc()?;
    let have = format!("{} has compute capability {}.{}", g.id, cc.0, cc.1);
    match req.precision {
        Precision::Mxfp4 | Precision::Nvfp4 if cc < (8, 0) => Some(Words::new(
            format!(
                "{} weights need compute capability ≥ 8.0 in vLLM; {have} ({{0}} bf16 sizes the weights upcast)",
                req.precision.name().to_uppercase()
            ),
            &[Setting::Precision],
        )),
        Precision::Fp8 if cc < (8, 0) => Some(
            format!("FP8 weights need compute capability ≥ 8.0 (weight-only FP8 Marlin; native from 8.9); {have}")
                .into(),
        ),
        Precision::Fp8 if cc < (8, 9) && model.moe => {
            Some(format!("vLLM runs FP8 mixture-of-experts weights only from compute capability 8.9; {have}").into())
        }
        _ => None,
    }
}
