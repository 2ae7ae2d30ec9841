//! The serving answer of one fitted size: the split and copies of the model, the figures of
//! `serving::figures` for all of them, their price per million output tokens, and the
//! assumptions behind them. Targets (`--min-tokens-per-second`, …) are met by adding nodes of
//! copies, when more copies help.

use serde::Serialize;

use super::estimate::{self, round3};
use super::serving::{self, Bound, Hardware, Shape, Split};
use super::{fmt_num, Constraint, Fit, Layout, Precision, Requirements, Workload};
use crate::catalog::{Catalog, GpuModel, GpuPerf, VmSize};
use crate::domain::setting::{Setting, Words};

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;
/// Most nodes of copies tried to meet a target.
pub const MAX_REPLICA_NODES: u32 = 64;

/// One modelling choice or efficiency factor behind the figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assumption {
    pub name: &'static str,
    pub value: Words,
    pub source: Words,
}

/// What a deployment serves (`recommendations[].serving`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Serving {
    /// Sequences in flight the figures are for, across every copy.
    pub concurrency: u64,
    /// Sequences in flight on each copy: `--concurrency` split over the copies, or the most
    /// that still meet the per-user and TTFT targets.
    pub concurrency_per_replica: u64,
    /// Sequences of the full context that fit in each copy's memory.
    pub max_concurrent_sequences: u64,
    pub tensor_parallel: u32,
    pub pipeline_parallel: u32,
    /// Expert-parallel GPUs per stage, attention data parallel across them (`--expert-parallel`;
    /// left out when 1).
    #[serde(skip_serializing_if = "estimate::is_one")]
    pub expert_parallel: u32,
    /// Copies of the model, on one node or across several.
    pub replicas: u32,
    pub nodes: u32,
    /// What set this deployment: the target that asked for more, or the cap on a copy's batch.
    pub binding: Binding,
    #[serde(serialize_with = "round3")]
    pub aggregate_output_tokens_per_second: f64,
    #[serde(serialize_with = "round3")]
    pub aggregate_total_tokens_per_second: f64,
    #[serde(serialize_with = "round3")]
    pub decode_tokens_per_second_per_sequence: f64,
    #[serde(serialize_with = "round5")]
    pub tpot_seconds: f64,
    /// Mean time to first token: the prefill, the wait for the prefills queued ahead (an M/D/1
    /// queue, as DistServe models a prefill instance) and the step in progress.
    #[serde(serialize_with = "round5")]
    pub ttft_seconds: f64,
    #[serde(serialize_with = "round5")]
    pub ttft_median_seconds: f64,
    #[serde(serialize_with = "round5")]
    pub ttft_p90_seconds: f64,
    /// One request from arrival to its last token.
    #[serde(serialize_with = "round5")]
    pub e2e_latency_seconds: f64,
    pub usd_per_million_output_tokens: Option<f64>,
    /// The same in the prices' currency when it is not USD (`Ranking::currency`); the USD field
    /// is then empty, never a relabelled figure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_per_million_output_tokens: Option<f64>,
    pub bound: Bound,
    /// The calibration class of the estimate: GPU architecture × compute precision × dense/MoE.
    pub class: String,
    /// Where each figure lies given how far the class's estimates fell from published figures.
    pub range: Ranges,
    pub assumptions: Vec<Assumption>,
    /// Said on the row when the class is calibrated worse than 1.5×, or not at all.
    #[serde(skip)]
    pub calibration_warning: Option<String>,
    /// The copy's GPUs and split (the fit the recommendation reports).
    #[serde(skip)]
    pub layout: Layout,
    /// Copies on each node (1 when a copy spans nodes).
    #[serde(skip)]
    pub copies_per_node: u32,
}

fn round5<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((v * 1e5).round() / 1e5)
}

/// The compute precision the weights run at on this GPU: FP8 and FP4 tensor cores where the GPU
/// has them, else 16-bit (weight-only kernels dequantise int8/fp8 to 16 bits). 4-bit weights
/// without FP4 math are `w4a16`: a mixed-input GEMM that dequantises every weight tile to 16
/// bits inside its main loop, with its own fitted efficiency where published rows give one (the
/// 16-bit one elsewhere). That is MXFP4 and NVFP4 on a GPU without FP4 tensor cores (Hopper,
/// Ampere), and AWQ/GPTQ int4 on every GPU: their activations stay 16-bit (AutoAWQ's README:
/// "AWQ quantized models only store the weights in INT4 but perform FP16 operations during
/// inference"; vLLM runs them through the AWQ, Marlin and Machete mixed-input kernels).
pub fn compute_precision(p: Precision, perf: &GpuPerf) -> &'static str {
    match p {
        Precision::Fp8 if perf.dense_tflops.fp8.is_some() => "fp8",
        Precision::Mxfp4 | Precision::Nvfp4 if perf.dense_tflops.fp4.is_some() => "fp4",
        Precision::Mxfp4 | Precision::Nvfp4 | Precision::Int4 => "w4a16",
        Precision::Fp32 => "fp32",
        _ => "fp16",
    }
}

/// A target that is not met: which, what falls short, and by how much (ratio ≥ 1).
#[derive(Debug, Clone, PartialEq)]
pub struct Shortfall {
    pub constraint: Constraint,
    pub message: Words,
    pub ratio: f64,
}

/// What a copy of the model on this size needs to be estimated: the shape, the hardware and
/// the factors, from the catalog.
struct Setup<'c> {
    gpu: &'c GpuModel,
    perf: &'c GpuPerf,
    hw: Hardware,
    precision: &'static str,
    shape: Shape,
    max_batch: u64,
    cal: Calibration,
}

/// What the calibration says of a class of estimates.
#[derive(Debug, Clone, PartialEq)]
struct Calibration {
    class: String,
    /// Published throughput and TTFT rows of the class (0: none, the widest of any class).
    rows: u32,
    speed: [f64; 2],
    ttft: [f64; 2],
    /// The class's own residuals (before widening to hold the estimate itself).
    seen: [f64; 2],
}

fn calibration(f: &crate::catalog::ServingFactors, architecture: &str, precision: &str, moe: bool) -> Calibration {
    let class = format!("{architecture} × {precision} × {}", if moe { "MoE" } else { "dense" });
    let (wide_speed, wide_ttft) = f.widest();
    let hold = |r: [f64; 2]| [r[0].min(1.0), r[1].max(1.0)];
    match f.residuals(architecture, precision, moe) {
        Some(r) => Calibration {
            class,
            rows: r.rows,
            speed: hold(r.speed),
            ttft: hold(r.ttft.unwrap_or(wide_ttft)),
            seen: r.speed,
        },
        None => Calibration { class, rows: 0, speed: hold(wide_speed), ttft: hold(wide_ttft), seen: wide_speed },
    }
}

/// A serving figure's range: what the published measurements of its class put around it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Band {
    #[serde(serialize_with = "round5")]
    pub low: f64,
    #[serde(serialize_with = "round5")]
    pub high: f64,
}

/// The range of every serving figure (`serving.range`), from the calibration residuals of the
/// class of the estimate: a speed estimated `r` times too fast at worst is `estimate / r`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Ranges {
    pub aggregate_output_tokens_per_second: Band,
    pub decode_tokens_per_second_per_sequence: Band,
    pub tpot_seconds: Band,
    pub ttft_seconds: Band,
}

impl Calibration {
    fn ranges(&self, aggregate: f64, per_seq: f64, tpot: f64, ttft: f64) -> Ranges {
        let [lo, hi] = self.speed;
        let [tlo, thi] = self.ttft;
        let speed = |v: f64| Band { low: v / hi, high: v / lo };
        Ranges {
            aggregate_output_tokens_per_second: speed(aggregate),
            decode_tokens_per_second_per_sequence: speed(per_seq),
            tpot_seconds: Band { low: tpot * lo, high: tpot * hi },
            ttft_seconds: Band { low: ttft / thi, high: ttft / tlo },
        }
    }

    /// Worst factor between estimate and measurement, either way.
    fn worst(&self) -> f64 {
        let [lo, hi] = self.seen;
        hi.max(1.0 / lo)
    }

    /// A warning when the class is calibrated worse than 1.5× or not at all.
    fn warning(&self) -> Option<String> {
        if self.rows == 0 {
            return Some(format!(
                "serving figures unchecked: no published measurement covers {} (range from the widest class: {}× to {}×)",
                self.class,
                fmt_sig(self.seen[0]),
                fmt_sig(self.seen[1])
            ));
        }
        (self.worst() > 1.5).then(|| {
            format!(
                "serving figures weak: estimates for {} were {}× to {}× the published speed ({} measurement(s)); see serving.range",
                self.class,
                fmt_sig(self.seen[0]),
                fmt_sig(self.seen[1]),
                self.rows
            )
        })
    }
}

fn setup<'c>(catalog: &'c Catalog, req: &Requirements, size: &VmSize, fit: &Fit) -> Option<Setup<'c>> {
    let model = req.model.as_ref()?;
    fit.layout?;
    let gpu = catalog.gpu(&size.gpu_model)?;
    let (perf, factors) = (gpu.perf.as_ref()?, catalog.serving.as_ref()?);
    if req.workload != Workload::Inference || fit.mig.is_some() || size.gpu_count.is_partial() {
        return None;
    }
    let precision = compute_precision(req.precision, perf);
    let hw = Hardware::new(perf, factors, gpu.architecture.as_deref().unwrap_or("*"), precision)?;
    let w = super::weights::weights_for(model, req.precision);
    let shape = Shape {
        arch: model.arch,
        params: model.params_b * 1e9,
        active: model.active_params_b.unwrap_or(model.params_b) * 1e9,
        experts: model.experts.unwrap_or((0, 0)),
        weight_bytes: w.gib * estimate::WEIGHT_FACTOR * GIB,
        kv_bytes: req.kv_bytes(),
    };
    let cal = calibration(factors, gpu.architecture.as_deref().unwrap_or("*"), precision, model.moe);
    Some(Setup { gpu, perf, hw, precision, shape, max_batch: factors.max_batch, cal })
}

/// One way to lay a copy of the model on the size: its GPUs and split, how many copies one
/// step of nodes holds, the nodes in a step, and the full-context sequences a copy holds.
#[derive(Debug, Clone, Copy)]
pub struct Candidate {
    pub layout: Layout,
    pub split: Split,
    pub copies_per_step: u32,
    pub step: u32,
    pub max_seqs: u64,
}

/// The copies to search on `size`: every GPU count per copy from one to the node (powers of
/// two and the whole node) and every tensor × pipeline split of it that vLLM's head rule
/// allows and whose weights fit; a copy that spans nodes keeps its fitted layout. Without a
/// target only the fitted copy is estimated (the memory fit's answer).
///
/// Expert parallelism is never searched: KAITO's vLLM presets deploy tensor (and pipeline)
/// parallelism, and `kaito workspace` must size a service as `recommend` does. Only a pinned
/// `--expert-parallel` evaluates it, on the fitted copy.
pub fn candidates(req: &Requirements, size: &VmSize, fit: &Fit) -> Vec<Candidate> {
    let (Some(l0), Some(need), Some(model)) = (fit.layout, req.need.as_ref(), req.model.as_ref()) else {
        return Vec::new();
    };
    let split_of = |l: &Layout| match l.expert_parallel {
        ep if ep > 1 => Split { tp: 1, pp: l.stages(), ep },
        _ => Split::tp_pp(l.tensor_parallel.max(1), l.stages()),
    };
    let avail = fit.available_per_gpu_gib;
    let fitted = Candidate {
        layout: l0,
        split: split_of(&l0),
        copies_per_step: fit.replicas_per_node.max(1),
        step: fit.nodes.max(1),
        max_seqs: need.max_sequences(&l0, avail),
    };
    if !req.serving.has_targets() || fit.nodes > 1 || req.serving.expert_parallel.is_some() {
        return vec![fitted];
    }
    let g = size.gpu_count.whole().max(1);
    let mut counts: Vec<u32> = (0..8).map(|i| 1u32 << i).filter(|n| *n <= g).collect();
    if !counts.contains(&g) {
        counts.push(g);
    }
    let (pin_tp, pin_pp) = (req.serving.tensor_parallel, req.serving.pipeline_parallel);
    if pin_tp.is_some() || pin_pp.is_some() {
        let pinned = pin_tp.unwrap_or(1) * pin_pp.unwrap_or(1);
        counts.retain(|n| *n == pinned);
    }
    let mut out = Vec::new();
    for n in counts {
        for tp in (1..=n).rev().filter(|t| n % t == 0 && model.arch.tp_ok(*t)) {
            let pp = n / tp;
            if pin_tp.is_some_and(|t| t != tp) || pin_pp.is_some_and(|p| p != pp) {
                continue;
            }
            let l = estimate::layout(&size.gpu_model, f64::from(n), tp, None);
            let max_seqs = need.max_sequences(&l, avail);
            if need.per_gpu_with(&l, 1) <= avail && max_seqs > 0 {
                out.push(Candidate {
                    layout: l,
                    split: Split::tp_pp(tp, pp),
                    copies_per_step: g / n,
                    step: 1,
                    max_seqs,
                });
            }
        }
    }
    if out.is_empty() {
        out.push(fitted);
    }
    out
}

/// A deployment of one candidate: nodes, sequences per copy and what they serve.
#[derive(Debug, Clone, Copy)]
struct Deployment {
    cand: Candidate,
    nodes: u32,
    per_copy: u64,
    /// Sequences in flight across every copy.
    concurrency: u64,
    f: serving::Figures,
    aggregate: f64,
    binding: Binding,
}

impl Deployment {
    fn replicas(&self) -> u32 {
        self.cand.copies_per_step * (self.nodes / self.cand.step).max(1)
    }
}

/// What sets the deployment: the target that asks for more, or the memory or batch cap that
/// stops a copy taking more sequences. In JSON, `name()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    /// `--concurrency` sets the sequences per copy and no target asks for more.
    Concurrency,
    /// The full-context sequences that fit in a copy's memory.
    KvCapacity,
    /// The engine's largest batch (`serving-factors.yaml` `max_batch`).
    MaxBatch,
    MinTokensPerSecond,
    MinTokensPerSecondPerUser,
    MaxTtft,
}

impl Binding {
    /// The setting of a target of the request (`Concurrency`, `MaxTtft`); none for a cap of
    /// the hardware or engine.
    pub fn setting(self) -> Option<Setting> {
        match self {
            Binding::Concurrency => Some(Setting::Concurrency),
            Binding::MinTokensPerSecond => Some(Setting::MinTokensPerSecond),
            Binding::MinTokensPerSecondPerUser => Some(Setting::MinTokensPerSecondPerUser),
            Binding::MaxTtft => Some(Setting::MaxTtft),
            Binding::KvCapacity | Binding::MaxBatch => None,
        }
    }

    /// The name of a cap of the hardware or engine (`kv-capacity`); none for a target.
    pub fn cap(self) -> Option<&'static str> {
        match self {
            Binding::KvCapacity => Some("kv-capacity"),
            Binding::MaxBatch => Some("max-batch"),
            _ => None,
        }
    }

    /// True for a target of the request (not a cap of the hardware or engine).
    pub fn is_target(self) -> bool {
        !matches!(self, Binding::KvCapacity | Binding::MaxBatch)
    }

    fn of(c: Constraint) -> Binding {
        match c {
            Constraint::MinTokensPerSecond => Binding::MinTokensPerSecond,
            Constraint::MaxTtft => Binding::MaxTtft,
            _ => Binding::MinTokensPerSecondPerUser,
        }
    }
}

/// Each target a deployment misses: (constraint, ratio ≥ 1, what, got, wanted).
type Miss = (Constraint, f64, &'static str, f64, f64);

fn misses(req: &Requirements, f: &serving::Figures, aggregate: f64) -> Vec<Miss> {
    let ask = &req.serving;
    let per_user = 1.0 / f.tpot_s;
    [
        ask.min_tokens_per_second
            .map(|w| (Constraint::MinTokensPerSecond, w / aggregate, "output tokens/s", aggregate, w)),
        ask.min_tokens_per_second_per_user
            .map(|w| (Constraint::MinTokensPerSecondPerUser, w / per_user, "tokens/s per sequence", per_user, w)),
        ask.max_ttft_seconds.map(|w| (Constraint::MaxTtft, f.ttft_s / w, "s to first token", f.ttft_s, w)),
    ]
    .into_iter()
    .flatten()
    .filter(|m| m.1 > 1.0 + 1e-9)
    .collect()
}

/// The targets a deployment meets by its estimate but not at the pessimistic end of its range
/// (`serving.range`), where its class is calibrated worse than 1.5× or not at all: a buyer
/// should know the target rests on a figure the published measurements do not pin down. (The
/// search meets a target at the highest concurrency that still does, so in a well-calibrated
/// class the range's low end misses it too; the range is in the JSON for those.)
pub fn targets_at_risk(req: &Requirements, s: &Serving) -> Vec<Words> {
    if s.calibration_warning.is_none() {
        return Vec::new();
    }
    let ask = &req.serving;
    let r = &s.range;
    let risk = |setting: Setting, what: &str, low: f64, high: f64, want: String| {
        Words::new(
            format!(
                "{{0}} {} is met by the estimate, not across its range: {}–{} {what} (serving.range)",
                want,
                fmt_sig(low),
                fmt_sig(high)
            ),
            &[setting],
        )
    };
    let agg = r.aggregate_output_tokens_per_second;
    let user = r.decode_tokens_per_second_per_sequence;
    let ttft = r.ttft_seconds;
    [
        ask.min_tokens_per_second
            .filter(|w| agg.low < *w)
            .map(|w| risk(Setting::MinTokensPerSecond, "output tokens/s", agg.low, agg.high, format!("{w}"))),
        ask.min_tokens_per_second_per_user.filter(|w| user.low < *w).map(|w| {
            risk(Setting::MinTokensPerSecondPerUser, "tokens/s per sequence", user.low, user.high, format!("{w}"))
        }),
        ask.max_ttft_seconds
            .filter(|w| ttft.high > *w)
            .map(|w| risk(Setting::MaxTtft, "s to first token", ttft.low, ttft.high, format!("{w}s"))),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Per-user and TTFT targets met (the ones more nodes of copies cannot help without `--concurrency`).
fn latency_ok(req: &Requirements, f: &serving::Figures) -> Option<Constraint> {
    misses(req, f, f64::INFINITY).first().map(|m| m.0)
}

/// The nearest miss seen so far and the deployment that reached it, worded only once the
/// search is over ([`Nearest::shortfall`]): most offers are overtaken by a nearer one.
struct Nearest(Option<(Deployment, Miss)>);

impl Nearest {
    fn offer(&mut self, d: &Deployment, m: &[Miss]) {
        let Some(worst) = m.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1)) else { return };
        if self.0.as_ref().is_some_and(|(_, s)| s.1 <= worst.1) {
            return;
        }
        self.0 = Some((*d, worst));
    }

    /// The nearest miss in words.
    fn shortfall(self) -> Option<Shortfall> {
        let (d, (constraint, ratio, what, got, want)) = self.0?;
        let message =
            format!("at best serves {} {what} ({}), {{0}} asks {}", fmt_sig(got), describe(&d), fmt_sig(want));
        let settings: Vec<Setting> = constraint.setting().into_iter().collect();
        Some(Shortfall { constraint, message: Words::new(message, &settings), ratio })
    }
}

/// A split in words: "TP 2 × PP 1", or "EP 4 (attention data parallel) × PP 1".
pub fn split_words(tp: u32, pp: u32, ep: u32) -> String {
    if ep > 1 {
        format!("EP {ep} (attention data parallel) × PP {pp}")
    } else {
        format!("TP {tp} × PP {pp}")
    }
}

fn describe(d: &Deployment) -> String {
    let r = d.replicas();
    let split = d.cand.split;
    format!(
        "{}, {r} cop{} of {} sequence(s), {} node(s)",
        split_words(split.tp, split.pp, split.ep),
        if r == 1 { "y" } else { "ies" },
        d.per_copy,
        d.nodes
    )
}

/// With `--concurrency N`: the fewest nodes whose copies, sharing the N sequences, meet every
/// target (more copies take sequences off each; past one sequence a copy, nothing improves).
fn deploy_given(
    req: &Requirements,
    fig: &dyn Fn(u64) -> serving::Figures,
    cand: Candidate,
    steps: u32,
    near: &mut Nearest,
) -> Option<Deployment> {
    let n = req.concurrency.max(1);
    let held = cand.max_seqs.max(1);
    let (mut last_miss, mut last_c, mut full) = (None, 0, None);
    for k in 1..=steps {
        let replicas = cand.copies_per_step * k;
        let c = n.div_ceil(u64::from(replicas));
        // A node more that leaves each copy as many sequences serves the same figures and
        // misses by as much as the step before: nothing nearer, nothing met.
        if c == last_c {
            continue;
        }
        last_c = c;
        // More sequences than the KV cache holds: the engine runs what fits and the rest wait.
        let over = c > held;
        let f = if over { serving::queued(full.get_or_insert_with(|| fig(held)), held, c) } else { fig(c) };
        let aggregate = f.output_tps / c as f64 * n as f64;
        let binding = if over { Binding::KvCapacity } else { last_miss.unwrap_or(Binding::Concurrency) };
        let d = Deployment { cand, nodes: k * cand.step, per_copy: c, concurrency: n, f, aggregate, binding };
        let m = misses(req, &f, aggregate);
        if m.is_empty() {
            return Some(d);
        }
        near.offer(&d, &m);
        last_miss = Some(Binding::of(m[0].0));
        if c == 1 {
            break;
        }
    }
    None
}

/// The most sequences per copy, up to `cap`, that still meet the per-user and TTFT targets
/// (both only worsen as the batch grows), and their figures; `first` is the figures at one.
fn most_per_copy(
    req: &Requirements,
    fig: &dyn Fn(u64) -> serving::Figures,
    cap: u64,
    first: serving::Figures,
) -> (u64, serving::Figures) {
    let (mut lo, mut hi, mut at_lo) = (1u64, cap, first);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        let f = fig(mid);
        if latency_ok(req, &f).is_none() {
            (lo, at_lo) = (mid, f);
        } else {
            hi = mid - 1;
        }
    }
    (lo, at_lo)
}

/// The cheapest deployment of `cand` that meets every target within `max_nodes`.
fn deploy(
    req: &Requirements,
    s: &Setup<'_>,
    cand: Candidate,
    max_nodes: u32,
    near: &mut Nearest,
) -> Option<Deployment> {
    let ask = &req.serving;
    let fig = |c: u64| serving::figures(&s.shape, &s.hw, cand.split, c, ask.input_tokens, ask.output_tokens);
    let steps = (max_nodes / cand.step).max(1);
    if ask.concurrency_given {
        return deploy_given(req, &fig, cand, steps, near);
    }
    let cap = cand.max_seqs.min(s.max_batch).max(1);
    let first = fig(1);
    if latency_ok(req, &first).is_some() {
        let replicas = cand.copies_per_step;
        let aggregate = first.output_tps * f64::from(replicas);
        let concurrency = u64::from(replicas);
        let d = Deployment {
            cand,
            nodes: cand.step,
            per_copy: 1,
            concurrency,
            f: first,
            aggregate,
            binding: Binding::Concurrency,
        };
        near.offer(&d, &misses(req, &first, aggregate));
        return None;
    }
    let (lo, f) = most_per_copy(req, &fig, cap, first);
    let mut binding = if lo == cap && cand.max_seqs < s.max_batch {
        Binding::KvCapacity
    } else if lo == cap {
        Binding::MaxBatch
    } else {
        latency_ok(req, &fig(lo + 1)).map_or(Binding::MaxBatch, Binding::of)
    };
    let per_step = f.output_tps * f64::from(cand.copies_per_step);
    let want_steps = ask.min_tokens_per_second.map_or(1.0, |w| (w / per_step).ceil().max(1.0));
    let k = if want_steps > f64::from(steps) { steps } else { want_steps as u32 };
    if k > 1 {
        binding = Binding::MinTokensPerSecond;
    }
    let replicas = cand.copies_per_step * k;
    let d = Deployment {
        cand,
        nodes: k * cand.step,
        per_copy: lo,
        concurrency: lo * u64::from(replicas),
        f,
        aggregate: f.output_tps * f64::from(replicas),
        binding,
    };
    let m = misses(req, &f, d.aggregate);
    if m.is_empty() {
        return Some(d);
    }
    near.offer(&d, &m);
    None
}

/// The cheapest deployment on `size` that meets every target: over the copies of
/// [`candidates`], the fewest nodes (every node of a size costs the same), then the most
/// output tokens per second, then the shortest first token. `Ok(None)`: no serving estimate;
/// `Err`: the nearest any deployment came.
pub fn meet_targets(
    catalog: &Catalog,
    req: &Requirements,
    size: &VmSize,
    fit: &Fit,
    node_price: Option<f64>,
    max_nodes: u32,
) -> Result<Option<Serving>, Shortfall> {
    let Some(s) = setup(catalog, req, size, fit) else { return Ok(None) };
    let mut near = Nearest(None);
    let mut best: Option<Deployment> = None;
    for cand in candidates(req, size, fit) {
        let Some(d) = deploy(req, &s, cand, max_nodes.max(cand.step), &mut near) else { continue };
        let better = best.as_ref().is_none_or(|b| {
            (d.nodes, -d.aggregate, d.f.ttft_s).partial_cmp(&(b.nodes, -b.aggregate, b.f.ttft_s))
                == Some(std::cmp::Ordering::Less)
        });
        if better {
            best = Some(d);
        }
    }
    match best {
        Some(d) => Ok(Some(build(req, &s, &d, node_price))),
        None => Err(near.shortfall().unwrap_or(Shortfall {
            constraint: Constraint::MemoryFit,
            message: "no split of the model leaves room for one sequence".into(),
            ratio: f64::INFINITY,
        })),
    }
}

fn build(req: &Requirements, s: &Setup<'_>, d: &Deployment, node_price: Option<f64>) -> Serving {
    let f = &d.f;
    let replicas = d.replicas();
    let per_token = d.aggregate / f.output_tps.max(1e-12) * (f.total_tps - f.output_tps);
    Serving {
        concurrency: d.concurrency,
        concurrency_per_replica: d.per_copy,
        max_concurrent_sequences: d.cand.max_seqs,
        tensor_parallel: d.cand.split.tp,
        pipeline_parallel: d.cand.split.pp,
        expert_parallel: d.cand.split.ep,
        replicas,
        nodes: d.nodes,
        binding: d.binding,
        aggregate_output_tokens_per_second: d.aggregate,
        aggregate_total_tokens_per_second: d.aggregate + per_token,
        decode_tokens_per_second_per_sequence: 1.0 / f.tpot_s,
        tpot_seconds: f.tpot_s,
        ttft_seconds: f.ttft_s,
        ttft_median_seconds: f.ttft_median_s,
        ttft_p90_seconds: f.ttft_p90_s,
        e2e_latency_seconds: f.cycle_s,
        usd_per_million_output_tokens: node_price
            .map(|p| ((p * f64::from(d.nodes) / (d.aggregate * 3600.0) * 1e6) * 1000.0).round() / 1000.0),
        cost_per_million_output_tokens: None,
        bound: if d.binding == Binding::KvCapacity { Bound::KvCapacity } else { f.bound },
        assumptions: assumptions(s.gpu, s.perf, &s.hw, s.precision, req, s.max_batch),
        class: s.cal.class.clone(),
        range: s.cal.ranges(d.aggregate, 1.0 / f.tpot_s, f.tpot_s, f.ttft_s),
        calibration_warning: s.cal.warning(),
        layout: d.cand.layout,
        copies_per_node: if d.cand.step > 1 { 1 } else { d.cand.copies_per_step },
    }
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
    fn a(name: &'static str, value: impl Into<Words>, source: impl Into<Words>) -> Assumption {
        Assumption { name, value: value.into(), source: source.into() }
    }
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
            "engine_cpu",
            format!("a step takes at least {} µs of the engine's CPU per sequence (overlapped with the GPU)", fmt_num(hw.host_sequence_s * 1e6)),
            "serving-factors.yaml host_sequence_us, fitted on the published rows; TensorRT-LLM perf overview v1.0: Qwen3-30B-A3B on one B200 at 1000/1000, 25,828 tokens/s = 38.7 µs a token",
        ),
        a(
            "roofline",
            "prefill 2 × active params FLOPs per token + attention; decode step: weight GEMMs max(weights read / bandwidth, FLOPs / peak) + attention max(KV read / bandwidth, FLOPs / peak) + 2 all-reduces per layer".to_owned(),
            "Yuan et al. 2024, LLM Inference Unveiled (LLM-Viewer); kipply 2022, Transformer Inference Arithmetic; Megatron-LM (Shoeybi et al. 2019) section 3",
        ),
        a(
            "queue",
            format!("prompts prefilled in chunks sharing steps with the decodes, up to {} tokens a step; TTFT waits for the prompts queued ahead (an M/D/1 queue, the prefill's share of the copy's time as its load; median and p90 from its exponential tail)", hw.token_budget),
            "Zhong et al. 2024, DistServe (OSDI) section 3.1; chunked prefill sharing steps with decodes: Agrawal et al. 2024, Sarathi-Serve (OSDI)",
        ),
        a(
            "lengths",
            format!("{} input + {} output tokens per request", req.serving.input_tokens, req.serving.output_tokens),
            Words::new("{0}, {1}", &[Setting::InputTokens, Setting::OutputTokens]),
        ),
        a(
            "batch",
            if req.serving.concurrency_given {
                Words::new(format!("{{0}} {} split across the copies", req.concurrency), &[Setting::Concurrency])
            } else if req.serving.min_tokens_per_second_per_user.is_some() || req.serving.max_ttft_seconds.is_some() {
                format!("the most sequences per copy that still meet the per-user and first-token targets, at most {max_batch}").into()
            } else {
                format!("the largest batch that fits in memory, at most {max_batch} per copy (offline scenario)").into()
            },
            "MLPerf Inference offline scenario; TensorRT-LLM max_batch_size",
        ),
    ]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{Residuals, ServingFactors};

    fn factors() -> ServingFactors {
        let r = |architecture: &str, moe: bool, speed: [f64; 2], ttft: Option<[f64; 2]>| Residuals {
            architecture: architecture.into(),
            precision: "fp8".into(),
            moe,
            rows: 4,
            speed,
            ttft_rows: u32::from(ttft.is_some()),
            ttft,
        };
        ServingFactors {
            allreduce_latency_us: 8.0,
            step_overhead_us: 0.0,
            host_sequence_us: 0.0,
            max_batch: 256,
            token_budget: 8192,
            source: "t".into(),
            efficiencies: Vec::new(),
            calibration: vec![r("Hopper", false, [0.8, 1.2], Some([0.5, 0.9])), r("Hopper", true, [2.3, 2.6], None)],
        }
    }

    /// Figures that worsen with the batch: each of `c` sequences decodes at 100 / c tokens/s
    /// and waits 0.1 × c s for its first token.
    fn slowing(c: u64) -> serving::Figures {
        let c = c as f64;
        serving::Figures {
            cycle_s: 1.0,
            ttft_s: 0.1 * c,
            ttft_median_s: 0.1 * c,
            ttft_p90_s: 0.1 * c,
            tpot_s: 0.01 * c,
            output_tps: 100.0,
            total_tps: 200.0,
            bound: Bound::MemoryBandwidth,
        }
    }

    fn candidate(copies_per_step: u32, max_seqs: u64) -> Candidate {
        let layout = estimate::layout("G", 2.0, 2, None);
        Candidate { layout, split: Split::tp_pp(2, 1), copies_per_step, step: 1, max_seqs }
    }

    fn unreachable_per_user(concurrency: u64) -> Requirements {
        let mut req = Requirements::new(Workload::Inference);
        (req.concurrency, req.serving.concurrency_given) = (concurrency, true);
        req.serving.min_tokens_per_second_per_user = Some(1e9);
        req
    }

    /// `--concurrency 200` over copies four to a node: 1 to 50 nodes leave each copy 50 down
    /// to 1 sequences, only 14 different numbers, and each is estimated once (a node more that
    /// leaves every copy as many sequences serves the same figures); the nearest miss is the
    /// deployment that first reached one sequence a copy.
    #[test]
    fn each_number_of_sequences_per_copy_is_estimated_once() {
        let req = unreachable_per_user(200);
        let calls = std::cell::RefCell::new(Vec::new());
        let fig = |c: u64| {
            calls.borrow_mut().push(c);
            slowing(c)
        };
        let mut near = Nearest(None);
        assert!(deploy_given(&req, &fig, candidate(4, 1000), MAX_REPLICA_NODES, &mut near).is_none());
        let mut per_copy: Vec<u64> = (1..=50u64).map(|k| 200u64.div_ceil(4 * k)).collect();
        per_copy.dedup();
        assert_eq!((per_copy.len(), calls.borrow().clone()), (14, per_copy));
        let miss = near.shortfall().expect("missed");
        assert_eq!(miss.ratio, 1e7);
        assert_eq!(
            miss.message.text,
            "at best serves 100 tokens/s per sequence (TP 2 × PP 1, 200 copies of 1 sequence(s), 50 node(s)), {0} asks 1000000000"
        );
    }

    /// Sequences beyond a copy's KV cache wait behind the figures of a full cache, estimated
    /// once however many node counts leave the copies over it.
    #[test]
    fn a_full_kv_cache_is_estimated_once() {
        let req = unreachable_per_user(200);
        let calls = std::cell::RefCell::new(Vec::new());
        let fig = |c: u64| {
            calls.borrow_mut().push(c);
            slowing(c)
        };
        deploy_given(&req, &fig, candidate(4, 10), MAX_REPLICA_NODES, &mut Nearest(None));
        // 50, 25, 17 and 13 sequences a copy are over the 10 it holds: one estimate of 10.
        assert_eq!(calls.borrow()[..3], [10, 10, 9], "{:?}", calls.borrow());
    }

    /// The most sequences a copy takes within the per-user target (100 / c ≥ 20: five) is a
    /// binary search that estimates each batch it probes once, and answers with the figures
    /// it found there.
    #[test]
    fn the_batch_search_estimates_each_probe_once() {
        let mut req = Requirements::new(Workload::Inference);
        req.serving.min_tokens_per_second_per_user = Some(20.0);
        let calls = std::cell::Cell::new(0);
        let fig = |c: u64| {
            calls.set(calls.get() + 1);
            slowing(c)
        };
        assert_eq!(most_per_copy(&req, &fig, 256, slowing(1)), (5, slowing(5)));
        assert_eq!(calls.get(), 8, "log2 of 256 probes");
    }

    /// The nearest miss is worded from the deployment that came nearest, not the last offered.
    #[test]
    fn the_nearest_miss_names_its_own_deployment() {
        let d = |nodes: u32| Deployment {
            cand: candidate(1, 10),
            nodes,
            per_copy: 1,
            concurrency: u64::from(nodes),
            f: slowing(1),
            aggregate: 100.0,
            binding: Binding::Concurrency,
        };
        let miss = |ratio: f64| (Constraint::MaxTtft, ratio, "s to first token", ratio, 1.0);
        let mut near = Nearest(None);
        for (nodes, ratio) in [(1, 3.0), (2, 2.0), (3, 2.5), (4, 2.0)] {
            near.offer(&d(nodes), &[miss(ratio)]);
        }
        let s = near.shortfall().expect("missed");
        assert_eq!((s.constraint, s.ratio), (Constraint::MaxTtft, 2.0));
        assert_eq!(
            s.message.text,
            "at best serves 2.00 s to first token (TP 2 × PP 1, 2 copies of 1 sequence(s), 2 node(s)), {0} asks 1.00"
        );
        assert_eq!(s.message.settings, [Setting::MaxTtft]);
    }

    /// A class estimated 0.8–1.2× the published speed: a speed of 100 lies in 100/1.2–100/0.8,
    /// a time of 1 s in 0.8–1.2 s; the TTFT range comes from the TTFT rows, and holds the figure.
    #[test]
    fn ranges_come_from_the_class_residuals_and_hold_the_figure() {
        let f = factors();
        let c = calibration(&f, "Hopper", "fp8", false);
        assert_eq!(c.class, "Hopper × fp8 × dense");
        let r = c.ranges(100.0, 50.0, 0.02, 1.0);
        let b = r.aggregate_output_tokens_per_second;
        assert!((b.low - 100.0 / 1.2).abs() < 1e-9 && (b.high - 125.0).abs() < 1e-9, "{b:?}");
        assert!((r.tpot_seconds.low - 0.016).abs() < 1e-9 && (r.tpot_seconds.high - 0.024).abs() < 1e-9);
        // TTFT estimated 0.5–0.9× the published: the range reaches up to 2 s and holds 1 s.
        assert!((r.ttft_seconds.low - 1.0).abs() < 1e-9 && (r.ttft_seconds.high - 2.0).abs() < 1e-9, "{r:?}");
        assert!(c.warning().is_none());
    }

    /// A class whose estimates ran 2.3–2.6× too fast is warned, and its range still holds the
    /// estimate itself; a class no row covers gets the widest range and says it is unchecked.
    #[test]
    fn weak_and_unchecked_classes_are_warned() {
        let f = factors();
        let moe = calibration(&f, "Hopper", "fp8", true);
        let w = moe.warning().expect("warned");
        assert!(w.contains("2.30× to 2.60×") && w.contains("Hopper × fp8 × MoE"), "{w}");
        let r = moe.ranges(100.0, 10.0, 0.1, 1.0);
        assert!((r.aggregate_output_tokens_per_second.high - 100.0).abs() < 1e-9);
        assert!((r.aggregate_output_tokens_per_second.low - 100.0 / 2.6).abs() < 1e-9);
        let none = calibration(&f, "Turing", "fp16", false);
        assert_eq!(none.rows, 0);
        assert!(none.warning().is_some_and(|w| w.contains("unchecked")));
        assert_eq!(none.speed, [0.8, 2.6]);
    }

    /// AWQ/GPTQ int4 weights run mixed-input GEMMs everywhere, FP4 tensor cores or not: on a T4
    /// they take the bundled Turing `w4a16` efficiency, while the T4's 16-bit weights keep the
    /// default entry (no published 16-bit T4 row says otherwise).
    #[test]
    fn int4_weights_are_a_mixed_input_gemm_with_their_own_turing_entry() {
        let c = crate::catalog::Catalog::bundled().expect("bundled");
        let f = c.serving.as_ref().expect("factors");
        let t4 = c.gpu("T4").and_then(|g| g.perf.as_ref()).expect("T4 perf");
        let gb200 = c.gpu("GB200").and_then(|g| g.perf.as_ref()).expect("GB200 perf");
        assert_eq!(compute_precision(Precision::Int4, t4), "w4a16");
        assert_eq!(compute_precision(Precision::Int4, gb200), "w4a16");
        assert_eq!(compute_precision(Precision::Fp16, t4), "fp16");
        let int4 = Hardware::new(t4, f, "Turing", "w4a16").expect("T4 int4");
        assert_eq!(
            (int4.tflops, int4.eff.architecture.as_str(), int4.eff.precision.as_str()),
            (65.0, "Turing", "w4a16")
        );
        let fp16 = Hardware::new(t4, f, "Turing", "fp16").expect("T4 fp16");
        assert_eq!((fp16.eff.architecture.as_str(), fp16.eff.precision.as_str()), ("*", "*"));
        assert!(int4.eff.memory < fp16.eff.memory, "{} vs {}", int4.eff.memory, fp16.eff.memory);
    }
}
