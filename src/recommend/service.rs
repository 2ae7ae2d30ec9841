//! The serving answer of one fitted size: the split and copies of the model, the figures of
//! `serving::figures` for all of them, their price per million output tokens, and the
//! assumptions behind them. Targets (`--min-tokens-per-second`, …) are met by adding nodes of
//! copies, when more copies help.

use serde::Serialize;

use super::estimate::{self, round3};
use super::serving::{self, Bound, Hardware, Shape, Split};
use super::{fmt_num, Constraint, Fit, Precision, Requirements, Workload};
use crate::catalog::{Catalog, GpuModel, GpuPerf, VmSize};

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;
/// Most nodes of copies tried to meet a target.
pub const MAX_REPLICA_NODES: u32 = 64;

/// One modelling choice or efficiency factor behind the figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assumption {
    pub name: &'static str,
    pub value: String,
    pub source: String,
}

/// What a deployment serves (`recommendations[].serving`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Serving {
    /// Sequences in flight the figures are for, across every copy.
    pub concurrency: u64,
    /// Sequences of the full context that fit in each copy's memory.
    pub max_concurrent_sequences: u64,
    pub tensor_parallel: u32,
    pub pipeline_parallel: u32,
    /// Copies of the model, on one node or across several.
    pub replicas: u32,
    pub nodes: u32,
    #[serde(serialize_with = "round3")]
    pub aggregate_output_tokens_per_second: f64,
    #[serde(serialize_with = "round3")]
    pub aggregate_total_tokens_per_second: f64,
    #[serde(serialize_with = "round3")]
    pub decode_tokens_per_second_per_sequence: f64,
    #[serde(serialize_with = "round5")]
    pub tpot_seconds: f64,
    #[serde(serialize_with = "round5")]
    pub ttft_seconds: f64,
    /// One request from arrival to its last token.
    #[serde(serialize_with = "round5")]
    pub e2e_latency_seconds: f64,
    pub usd_per_million_output_tokens: Option<f64>,
    /// The same in the prices' currency when it is not USD (`Outcome::currency`); the USD field
    /// is then empty, never a relabelled figure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_per_million_output_tokens: Option<f64>,
    pub bound: Bound,
    pub assumptions: Vec<Assumption>,
}

fn round5<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((v * 1e5).round() / 1e5)
}

/// The compute precision the weights run at on this GPU: FP8 and FP4 tensor cores where the GPU
/// has them, else 16-bit (weight-only kernels dequantise int8/int4/fp8/MXFP4 to 16 bits).
pub fn compute_precision(p: Precision, perf: &GpuPerf) -> &'static str {
    match p {
        Precision::Fp8 if perf.dense_tflops.fp8.is_some() => "fp8",
        Precision::Mxfp4 if perf.dense_tflops.fp4.is_some() => "fp4",
        Precision::Fp32 => "fp32",
        _ => "fp16",
    }
}

/// A target that is not met: which, what falls short, and by how much (ratio ≥ 1).
#[derive(Debug, Clone, PartialEq)]
pub struct Shortfall {
    pub constraint: Constraint,
    pub message: String,
    pub ratio: f64,
}

/// The serving figures of `fit` on `size`, spread over `nodes` nodes (a multiple of
/// `fit.nodes`), at `node_price` USD/hour per node. `None` when the size cannot be estimated
/// (no model, not inference, MIG or partial GPUs, no datasheet figures or factors).
pub fn serve(
    catalog: &Catalog,
    req: &Requirements,
    size: &VmSize,
    fit: &Fit,
    nodes: u32,
    node_price: Option<f64>,
) -> Option<Serving> {
    let (model, need, l) = (req.model.as_ref()?, req.need.as_ref()?, fit.layout?);
    let gpu = catalog.gpu(&size.gpu_model)?;
    let (perf, factors) = (gpu.perf.as_ref()?, catalog.serving.as_ref()?);
    if req.workload != Workload::Inference || fit.mig.is_some() || size.gpu_count.is_partial() {
        return None;
    }
    let precision = compute_precision(req.precision, perf);
    let hw = Hardware::new(perf, factors, gpu.architecture.as_deref().unwrap_or("*"), precision)?;
    let tp = l.tensor_parallel.max(1);
    let pp = ((l.gpus / f64::from(tp)).round() as u32).max(1);
    let replicas = fit.replicas_per_node.max(1) * (nodes / fit.nodes.max(1)).max(1);
    let max_seqs = need.max_sequences(&l, fit.available_per_gpu_gib);
    let ask = &req.serving;
    let per_replica = if ask.concurrency_given {
        req.concurrency.div_ceil(u64::from(replicas))
    } else {
        max_seqs.min(factors.max_batch).max(1)
    };
    let w = super::weights::weights_for(model, req.precision);
    let shape = Shape {
        arch: model.arch,
        params: model.params_b * 1e9,
        active: model.active_params_b.unwrap_or(model.params_b) * 1e9,
        experts: model.experts.unwrap_or((0, 0)),
        weight_bytes: w.gib * estimate::WEIGHT_FACTOR * GIB,
        kv_bytes: req.kv_bytes(),
    };
    let f = serving::figures(&shape, &hw, Split { tp, pp }, per_replica, ask.input_tokens, ask.output_tokens);
    let r = f64::from(replicas);
    let out_tps = f.output_tps * r;
    let capacity_bound = !ask.concurrency_given && max_seqs < factors.max_batch;
    Some(Serving {
        concurrency: per_replica * u64::from(replicas),
        max_concurrent_sequences: max_seqs,
        tensor_parallel: tp,
        pipeline_parallel: pp,
        replicas,
        nodes,
        aggregate_output_tokens_per_second: out_tps,
        aggregate_total_tokens_per_second: f.total_tps * r,
        decode_tokens_per_second_per_sequence: 1.0 / f.tpot_s,
        tpot_seconds: f.tpot_s,
        ttft_seconds: f.ttft_s,
        e2e_latency_seconds: f.cycle_s,
        usd_per_million_output_tokens: node_price
            .map(|p| ((p * f64::from(nodes) / (out_tps * 3600.0) * 1e6) * 1000.0).round() / 1000.0),
        cost_per_million_output_tokens: None,
        bound: if capacity_bound { Bound::KvCapacity } else { f.bound },
        assumptions: assumptions(gpu, perf, &hw, precision, req, factors.max_batch),
    })
}

fn assumptions(
    gpu: &GpuModel,
    perf: &GpuPerf,
    hw: &Hardware,
    precision: &str,
    req: &Requirements,
    max_batch: u64,
) -> Vec<Assumption> {
    let factors = format!("serving-factors.yaml ({} × {}): {}", hw.eff.architecture, hw.eff.precision, hw.eff.source);
    let a = |name, value: String, source: &str| Assumption { name, value, source: source.to_owned() };
    vec![
        a("peak", format!("{} dense {precision} TFLOPS per {}", fmt_num(hw.tflops), gpu.id), &perf.source),
        a("memory_bandwidth", format!("{} GB/s per GPU", fmt_num(hw.memory_gb_s)), &perf.source),
        a(
            "interconnect",
            format!("{} {} GB/s per GPU and direction", perf.interconnect.kind, fmt_num(hw.link_gb_s)),
            &perf.source,
        ),
        a("compute_efficiency", fmt_num(hw.eff.compute), &factors),
        a("memory_efficiency", fmt_num(hw.eff.memory), &factors),
        a("link_efficiency", fmt_num(hw.eff.link), &factors),
        a(
            "roofline",
            "prefill 2 × active params FLOPs per token + attention; decode step max(bytes read / bandwidth, FLOPs / peak) + 2 all-reduces per layer".to_owned(),
            "Yuan et al. 2024, LLM Inference Unveiled (LLM-Viewer); kipply 2022, Transformer Inference Arithmetic; Megatron-LM (Shoeybi et al. 2019) §3",
        ),
        a(
            "lengths",
            format!("{} input + {} output tokens per request", req.serving.input_tokens, req.serving.output_tokens),
            "--input-tokens, --output-tokens",
        ),
        a(
            "batch",
            if req.serving.concurrency_given {
                format!("--concurrency {} split across the copies", req.concurrency)
            } else {
                format!("the largest batch that fits in memory, at most {max_batch} per copy (offline scenario)")
            },
            "MLPerf Inference offline scenario; TensorRT-LLM max_batch_size",
        ),
    ]
}

/// The first target `s` misses, if any.
pub fn shortfall(req: &Requirements, s: &Serving) -> Option<Shortfall> {
    let ask = &req.serving;
    let checks = [
        ask.min_tokens_per_second.map(|want| {
            (
                Constraint::MinTokensPerSecond,
                want / s.aggregate_output_tokens_per_second,
                "output tokens/s",
                s.aggregate_output_tokens_per_second,
                want,
            )
        }),
        ask.min_tokens_per_second_per_user.map(|want| {
            (
                Constraint::MinTokensPerSecondPerUser,
                want / s.decode_tokens_per_second_per_sequence,
                "tokens/s per sequence",
                s.decode_tokens_per_second_per_sequence,
                want,
            )
        }),
        ask.max_ttft_seconds
            .map(|want| (Constraint::MaxTtft, s.ttft_seconds / want, "s to first token", s.ttft_seconds, want)),
    ];
    checks.into_iter().flatten().find(|c| c.1 > 1.0 + 1e-9).map(|(constraint, ratio, what, got, want)| Shortfall {
        constraint,
        message: format!(
            "serves {} {what} on {} node(s), {} asks {}",
            fmt_sig(got),
            s.nodes,
            constraint.name(),
            fmt_sig(want)
        ),
        ratio,
    })
}

/// Three significant figures, without noise.
pub fn fmt_sig(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else if v >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// The fewest nodes (multiples of `fit.nodes`) whose copies meet every target, with their
/// figures; or the shortfall at the most nodes tried. `Ok(None)`: no serving estimate.
pub fn meet_targets(
    catalog: &Catalog,
    req: &Requirements,
    size: &VmSize,
    fit: &Fit,
    node_price: Option<f64>,
    max_nodes: u32,
) -> Result<Option<Serving>, Shortfall> {
    let step = fit.nodes.max(1);
    let Some(first) = serve(catalog, req, size, fit, step, node_price) else {
        return Ok(None);
    };
    if !req.serving.has_targets() {
        return Ok(Some(first));
    }
    let mut best = first;
    let limit = max_nodes.max(step);
    let mut nodes = step;
    loop {
        let Some(miss) = shortfall(req, &best) else { return Ok(Some(best)) };
        // More copies help throughput always, and per-user speed and TTFT only when they take
        // sequences off each copy.
        let helps = miss.constraint == Constraint::MinTokensPerSecond || req.serving.concurrency_given;
        let next = nodes + step;
        if !helps || next > limit {
            return Err(miss);
        }
        let Some(s) = serve(catalog, req, size, fit, next, node_price) else { return Err(miss) };
        if miss.constraint != Constraint::MinTokensPerSecond
            && shortfall(req, &s).is_some_and(|m| m.constraint == miss.constraint && m.ratio >= miss.ratio - 1e-9)
        {
            return Err(miss);
        }
        best = s;
        nodes = next;
    }
}
