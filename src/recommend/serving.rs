//! What a fitted deployment serves: tokens per second, time to first token and time per output
//! token, from a roofline per phase. Pure arithmetic over datasheet figures and the fitted
//! efficiencies of `serving-factors.yaml`.
//!
//! The model follows LLM-Viewer (Yuan et al. 2024, "LLM Inference Unveiled: Survey and Roofline
//! Model Insights") and kipply's "Transformer Inference Arithmetic" (2022):
//! - **prefill** costs 2 × active parameters FLOPs per token plus attention's quadratic term,
//!   at the dense tensor peak × `compute`;
//! - **a decode step** is the sum of its operators, each at the larger of its memory time and its
//!   compute time: the weight GEMMs (weights touched over HBM bandwidth × `memory`, against
//!   2 × active parameters × batch FLOPs) and attention (the KV cache of every sequence, against
//!   its FLOPs), as LLM-Viewer sums its per-operator roofline, plus a fixed cost per step and,
//!   where the factors give one, a cost per sequence in the batch (the engine's CPU work); a
//!   Python executor's CPU work per sequence (vLLM's, TensorRT-LLM's PyTorch backend's) runs
//!   beside the GPU's step and floors it (`host_floor`);
//! - **4-bit weights without FP4 math** (MXFP4/NVFP4 on Hopper or Ampere, AWQ/GPTQ int4 anywhere)
//!   run mixed-input GEMMs at the 16-bit peak, with the `w4a16` efficiencies where fitted;
//! - **tensor parallelism** adds two all-reduces of the activations per layer (Shoeybi et al.
//!   2019, "Megatron-LM" section 3) over the GPU link × `link`, each with a fixed latency; **pipeline
//!   parallelism** splits the layers into stages that work on micro-batches in turn;
//! - **mixture of experts**: the active parameters set the FLOPs, the expert GEMMs' in whole
//!   token tiles (each expert's tokens padded to the kernel's M tile, the next power of two of
//!   the mean tokens per expert from 16 to 128 as triton_kernels' `matmul_ogs` picks it; the
//!   tokens per expert Poisson around that mean); the expert weights read per step are those
//!   the batch touches, 1 − (1 − k/E)^tokens of them (near all at large batches);
//! - **expert parallelism** (`--expert-parallel`, TensorRT-LLM's DEP, vLLM's data parallel with
//!   expert parallel): each of `ep` GPUs holds the shared weights whole and 1/ep of the experts,
//!   and runs attention for its own sequences within its own token budget and engine (no
//!   attention all-reduce); per MoE layer each token goes to the other GPUs holding its top-k
//!   experts, once per GPU as DeepEP deduplicates, and comes back (an all-to-all over the link:
//!   GShard; DeepSpeed-MoE), and every GPU waits for the busiest, whose share of randomly
//!   routed tokens is that of the fullest of ep bins (Raab and Steger 1998). The search never
//!   chooses it: KAITO's presets deploy tensor parallelism.
//!
//! - **chunked prefill** (Agrawal et al. 2024, "Sarathi-Serve"; vLLM's scheduler): a step carries
//!   every decoding sequence and fills the rest of a token budget with prompt chunks, so decode
//!   slows while prompts are prefilled, and prompts queue behind each other (DistServe, Zhong et
//!   al. 2024, an M/D/1 prefill queue): TTFT at its mean, median and p90.
//!
//! A request's life at concurrency C on one replica, in the steady state of a server that
//! admits a request whenever one finishes: its prompt waits for the prompts ahead, is
//! prefilled in chunks, then decodes its output tokens in steps shared with the others.

use serde::Serialize;

use super::estimate::{routed_params, Arch};
use crate::catalog::{Efficiency, GpuPerf, ServingFactors};

/// What the roofline needs of the model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shape {
    pub arch: Arch,
    /// Parameters, all and active per token (MoE), as counts.
    pub params: f64,
    pub active: f64,
    /// Routed experts and experts per token; (0, 0) for a dense model.
    pub experts: (u32, u32),
    /// Bytes of weights one replica holds (as loaded).
    pub weight_bytes: f64,
    /// Bytes per KV-cache value.
    pub kv_bytes: f64,
}

/// The hardware of one replica, with the efficiencies that apply.
#[derive(Debug, Clone, PartialEq)]
pub struct Hardware {
    /// Dense TFLOPS of one GPU at the compute precision.
    pub tflops: f64,
    pub memory_gb_s: f64,
    pub link_gb_s: f64,
    pub eff: Efficiency,
    pub allreduce_latency_s: f64,
    pub step_overhead_s: f64,
    /// Per sequence in the batch, added to each decode step (the engine's CPU work per sequence).
    pub sequence_overhead_s: f64,
    /// Per sequence in the batch, the engine's CPU work that runs while the GPU works on the
    /// step: the step takes at least this × the batch.
    pub host_sequence_s: f64,
    /// Most tokens one step carries (prefill chunks and decodes together).
    pub token_budget: f64,
}

impl Hardware {
    /// The hardware of `perf` at compute precision `precision`, with its efficiency.
    pub fn new(perf: &GpuPerf, f: &ServingFactors, architecture: &str, precision: &str) -> Option<Self> {
        let t = &perf.dense_tflops;
        let tflops = match precision {
            "fp4" => t.fp4,
            "fp8" => t.fp8,
            "fp32" => t.fp32,
            _ => t.fp16.or(t.bf16),
        }?;
        // A mixed-input GEMM (4-bit weights dequantised to 16 bits in the kernel) runs on the
        // 16-bit tensor cores: its own entry where one is fitted, else the 16-bit one.
        let own = f
            .efficiencies
            .iter()
            .any(|e| e.architecture.eq_ignore_ascii_case(architecture) && e.precision == precision);
        let key = if precision == "w4a16" && !own { "fp16" } else { precision };
        let eff = f.efficiency(architecture, key)?.clone();
        Some(Self {
            tflops,
            memory_gb_s: perf.memory_bandwidth_gb_s,
            link_gb_s: perf.interconnect.bandwidth_gb_s,
            allreduce_latency_s: f.allreduce_latency_us * 1e-6,
            step_overhead_s: f.step_overhead_us * 1e-6,
            sequence_overhead_s: eff.sequence_overhead_us * 1e-6,
            host_sequence_s: f.host_sequence_us * 1e-6,
            eff,
            token_budget: f.token_budget.max(1) as f64,
        })
    }

    fn flops(&self) -> f64 {
        self.tflops * 1e12 * self.eff.compute
    }

    fn bytes_per_s(&self) -> f64 {
        self.memory_gb_s * 1e9 * self.eff.memory
    }
}

/// What limits the figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Bound {
    MemoryBandwidth,
    Compute,
    Interconnect,
    KvCapacity,
    /// The engine's CPU work per sequence takes longer than the GPU's step.
    EngineCpu,
}

impl Bound {
    pub fn name(self) -> &'static str {
        match self {
            Bound::MemoryBandwidth => "memory-bandwidth",
            Bound::Compute => "compute",
            Bound::Interconnect => "interconnect",
            Bound::KvCapacity => "kv-capacity",
            Bound::EngineCpu => "engine-cpu",
        }
    }
}

/// The figures for one replica at `concurrency` sequences of `input` + `output` tokens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figures {
    /// Seconds for one request, first token to last, at this concurrency.
    pub cycle_s: f64,
    /// Mean time to first token, with the wait for the prefills queued ahead.
    pub ttft_s: f64,
    pub ttft_median_s: f64,
    pub ttft_p90_s: f64,
    pub tpot_s: f64,
    /// Output tokens per second of the replica.
    pub output_tps: f64,
    pub total_tps: f64,
    pub bound: Bound,
}

/// Tensor × pipeline split of one replica, or expert parallelism: `ep` GPUs per stage that each
/// run attention for their own sequences (attention data parallel, tp 1) and hold 1/ep of the
/// experts (TensorRT-LLM's DEP; vLLM's `--data-parallel-size` with `--enable-expert-parallel`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Split {
    pub tp: u32,
    pub pp: u32,
    /// Expert-parallel degree, attention data parallel across the same GPUs (1: none).
    pub ep: u32,
}

impl Split {
    /// Tensor × pipeline parallelism, no expert parallelism.
    pub const fn tp_pp(tp: u32, pp: u32) -> Split {
        Split { tp, pp, ep: 1 }
    }

    /// The attention data-parallel ranks of a stage: `ep` (1 without expert parallelism).
    fn ranks(self) -> f64 {
        f64::from(self.ep.max(1))
    }
}

/// Time of one all-reduce of `bytes` across `tp` GPUs (ring: 2(tp−1)/tp of the data crosses each
/// link), with its latency.
fn allreduce(hw: &Hardware, tp: u32, bytes: f64) -> f64 {
    if tp <= 1 {
        return 0.0;
    }
    let t = f64::from(tp);
    hw.allreduce_latency_s + 2.0 * (t - 1.0) / t * bytes / (hw.link_gb_s * 1e9 * hw.eff.link)
}

/// Attention FLOPs for `tokens` new tokens that attend to `context` earlier ones (both Q·K and
/// A·V, 2 FLOPs per multiply-add), windowed layers up to their window; only the attention
/// layers of a hybrid model attend.
fn attention_flops(a: &Arch, tokens: f64, context: f64) -> f64 {
    let dim = f64::from(a.attention_heads) * f64::from(a.head_dim);
    let layers = a.kv_layers();
    let windowed = if a.window > 0 { a.windowed_layers.min(layers) } else { 0 };
    let full = f64::from(layers - windowed) * context;
    let win = f64::from(windowed) * context.min(f64::from(a.window));
    4.0 * dim * tokens * (full + win)
}

/// The weights of a mixture of experts: the shared part (attention, embeddings, dense layers)
/// and the routed experts, in bytes, with the share of the experts a token uses (k/E); all
/// shared for a dense model.
fn weight_parts(s: &Shape) -> (f64, f64, f64) {
    let routed = routed_params(s.params, s.active, s.experts);
    let expert_bytes = s.weight_bytes * routed / s.params.max(1.0);
    let (e, k) = s.experts;
    let share = if routed > 0.0 { f64::from(k) / f64::from(e) } else { 0.0 };
    (s.weight_bytes - expert_bytes, expert_bytes, share)
}

/// Bytes of weights a step over `tokens` tokens reads: everything for a dense model; the shared
/// part and the experts the tokens touch for a mixture of experts, 1 − (1 − k/E)^tokens of
/// them. Under expert parallelism `tokens` are those of every rank, and each GPU reads the
/// touched share of its own 1/ep of the experts.
fn weights_touched(s: &Shape, tokens: f64) -> f64 {
    let (shared, experts, share) = weight_parts(s);
    // A dense model (share 0) reads every weight: 1^tokens is exactly 1, so no `powf`.
    let touched = if share > 0.0 { 1.0 - (1.0 - share).powf(tokens.max(1.0)) } else { 0.0 };
    shared + experts * touched
}

/// Other GPUs a token's hidden state goes to under expert parallelism over `ep` GPUs: those
/// holding at least one of its k experts (E/ep experts each), deduplicated per GPU as DeepEP's
/// dispatch sends a token once to each GPU it needs (DeepSeek-AI 2025, DeepEP; DeepSpeed-MoE,
/// Rajbhandari et al. 2022, section 5.3: the all-to-all of expert parallelism). A GPU misses all
/// k experts with probability C(E − E/ep, k) / C(E, k).
fn remote_ranks(experts: (u32, u32), ep: u32) -> f64 {
    let (e, k) = experts;
    if ep <= 1 || e == 0 || k == 0 {
        return 0.0;
    }
    let (e, per) = (f64::from(e), f64::from(e) / f64::from(ep));
    let miss: f64 = (0..k).map(|j| ((e - per - f64::from(j)) / (e - f64::from(j))).max(0.0)).product();
    f64::from(ep - 1) * (1.0 - miss)
}

/// The busiest of `ep` GPUs' share of the routed work over the mean, when `slots` token-expert
/// pairs are routed at random (a synthetic benchmark's random tokens): balls into bins, the
/// fullest of n bins holding m/n + sqrt(2 (m/n) ln n) of m balls when m ≫ n ln n (Raab and
/// Steger 1998, "Balls into Bins: A Simple and Tight Analysis", theorem 1). Every rank waits
/// for the busiest at the combine.
fn busiest_rank(ep: u32, slots: f64) -> f64 {
    if ep <= 1 {
        return 1.0;
    }
    let n = f64::from(ep);
    1.0 + (2.0 * n * n.ln() / slots.max(1.0)).sqrt().min(n - 1.0)
}

/// Expert parallelism's all-to-all per MoE layer: each of a rank's `tokens` hidden states sent
/// to the other GPUs holding its experts (dispatch) and the weighted outputs sent back
/// (combine), 16-bit values over the GPU link × `link`, each with the link's latency (GShard,
/// Lepikhin et al. 2021, section 2.2; DeepSpeed-MoE section 5.3).
fn all_to_all(s: &Shape, hw: &Hardware, ep: u32, tokens: f64) -> f64 {
    let remote = remote_ranks(s.experts, ep);
    if remote <= 0.0 {
        return 0.0;
    }
    let bytes = tokens * remote * f64::from(s.arch.hidden_size) * 2.0;
    2.0 * f64::from(s.arch.layers) * (hw.allreduce_latency_s + bytes / (hw.link_gb_s * 1e9 * hw.eff.link))
}

/// One engine step: every one of `batch` decoding sequences gets a token and `chunk` prompt
/// tokens of a prefill ride along (chunked prefill: Agrawal et al. 2024, "Taming
/// Throughput-Latency Tradeoff in LLM Inference with Sarathi-Serve", section 4; vLLM's scheduler
/// puts decodes first and fills the rest of its token budget with prefill chunks). With `pp`
/// stages the batch is split into min(pp, batch) micro-batches of `x` sequences; each of the pp
/// stages handles a micro-batch in 1/pp of the time the whole model takes, so a round takes the
/// whole model's time for one micro-batch: weights are read once per micro-batch, not once
/// per round. Under expert parallelism each of the `ep` ranks of a stage steps its own 1/ep of
/// the sequences and prompt tokens (a lone prompt's chunk stays whole on its rank) with the
/// others, which hold the same share: the step is one rank's.
fn hybrid_step(s: &Shape, hw: &Hardware, split: Split, batch: f64, context: f64, chunk: Chunk) -> (f64, Bound) {
    let (tp, ranks) = (f64::from(split.tp), split.ranks());
    let batch = batch / ranks;
    let chunk = if chunk.alone { chunk } else { chunk.per_rank(ranks) };
    let micro = f64::from(split.pp).min(batch).max(1.0);
    // Prompt tokens ride with the micro-batches: in a round each stage works on every
    // micro-batch once, so the round grows by the chunk's whole-model time over the stages.
    // A lone prompt's own latency (`alone`) passes every stage in turn: the whole model.
    let spread = if chunk.alone { 1.0 } else { micro };
    let (x, p) = (batch / micro, chunk.tokens / spread);
    let kv = s.arch.kv_bytes(context.round() as u64, s.kv_bytes);
    // Per operator, as LLM-Viewer sums its roofline: the weight GEMMs (weights read, 2 FLOPs
    // per active parameter and token) and attention (the KV cache read, its FLOPs) are
    // different kernels that run one after the other, each at the slower of its two limits.
    // The prefill chunk shares the weight read with the decodes and adds its FLOPs: what makes
    // a chunk nearly free while decode is memory bound, and slows decode once it is not.
    let (bw, peak) = (tp * hw.bytes_per_s(), tp * hw.flops());
    let (gemm_mem, gemm_flops, routed) = weight_gemms(s, split, x + p);
    let (gemm_mem, gemm_flops) = (gemm_mem / bw, gemm_flops / peak);
    let attn_flops = attention_flops(&s.arch, x, context) + chunk.attention_flops / spread;
    let (attn_mem, attn_flops) = (x * kv / bw, attn_flops / peak);
    let work = gemm_mem.max(gemm_flops) + attn_mem.max(attn_flops);
    let tokens = (x + p) * f64::from(s.arch.hidden_size) * 2.0;
    let comm = 2.0 * f64::from(s.arch.layers) * allreduce(hw, split.tp, tokens) + all_to_all(s, hw, split.ep, x + p);
    let comm = comm + moe_dispatch(s, hw, routed);
    let bound = if comm > work / 2.0 {
        Bound::Interconnect
    } else if gemm_flops.max(attn_flops) > gemm_mem.max(attn_mem) && gemm_flops > gemm_mem {
        Bound::Compute
    } else {
        Bound::MemoryBandwidth
    };
    // The engine's work per sequence outside the kernels grows with the batch: vLLM's own
    // profile (vLLM blog, "vLLM v0.6.0: 2.7x Throughput Improvement and 75% Latency Reduction",
    // 2024) finds the GPU idle for most of a large-batch step while the scheduler prepares
    // inputs and the sampler and detokeniser walk the sequences.
    let gpu = work + comm + hw.step_overhead_s + batch * hw.sequence_overhead_s;
    host_floor(hw, batch, gpu, bound)
}

/// The weight GEMMs of one rank's step over `tokens` tokens: bytes read and FLOPs (before the
/// tensor-parallel split), and the token-expert pairs its MoE layers permute. Under tensor
/// parallelism every GPU holds a slice of every expert and handles every token. Under expert
/// parallelism a rank reads the shared weights whole and its 1/ep of the experts, those that
/// the tokens of every rank touch, and computes the expert FLOPs of the tokens routed to it:
/// the mean share, times the busiest rank's excess, which every rank waits for. The expert
/// FLOPs are those of whole token tiles (`expert_tile_padding`), the shared ones those of the
/// tokens.
fn weight_gemms(s: &Shape, split: Split, tokens: f64) -> (f64, f64, f64) {
    let ranks = split.ranks();
    let (shared, experts, share) = weight_parts(s);
    if ranks <= 1.0 && share <= 0.0 {
        return (weights_touched(s, tokens), 2.0 * s.active * tokens, tokens);
    }
    let all = tokens * ranks;
    let bytes = if ranks <= 1.0 {
        weights_touched(s, tokens)
    } else {
        shared + experts / ranks * (1.0 - (1.0 - share).powf(all.max(1.0)))
    };
    let routed = routed_params(s.params, s.active, s.experts);
    let busiest = busiest_rank(split.ep, all * f64::from(s.experts.1));
    // Every rank's experts see the tokens of every rank: `all` × k/E of them each on the mean,
    // the busiest rank's `busiest` times that.
    let (e, k) = s.experts;
    let per_expert = all * f64::from(k) / f64::from(e.max(1)) * busiest;
    let padded = share * routed * busiest * expert_tile_padding(per_expert);
    let flops = 2.0 * tokens * ((s.active - share * routed) + padded);
    (bytes, flops, tokens * busiest)
}

/// Smallest and largest token (M) tile of the grouped expert GEMMs: triton_kernels' `matmul_ogs`
/// (triton-lang/triton, python/triton_kernels/triton_kernels/matmul_ogs_details/opt_flags.py,
/// `make_default_opt_flags_nvidia`: `block_m = max(16, min(next_power_of_2(tokens_per_expt),
/// 128))`), the MoE GEMM of TensorRT-LLM's TRITON backend (its perf overview's gpt-oss rows on
/// Hopper) and of vLLM's MXFP4 path on Hopper.
const MOE_TILE: (f64, f64) = (16.0, 128.0);

/// Rows the tensor cores compute per token routed to an expert, over 1: grouped MoE GEMMs tile
/// each expert's tokens in M tiles and compute whole tiles, padding rows included (vLLM's
/// `moe_align_block_size` pads each expert's tokens to `BLOCK_SIZE_M`, 16 to 64 in its
/// `get_default_config`; triton_kernels' `matmul_ogs` likewise), so an expert with 40 tokens
/// under a 64-row tile does 64 rows of work. The kernels pick the tile from the mean tokens
/// per expert `mean` (`MOE_TILE`: the next power of two, clamped); the tokens an expert gets
/// vary around that mean (Poisson for random routing, as `busiest_rank`), and the expected
/// rows are E[tile × ⌈X / tile⌉] over X ~ Poisson(mean), untouched experts costing nothing.
/// Where the spread covers many tiles the remainder is uniform: (tile − 1) / 2 rows of padding
/// per expert. The expert weights read are unchanged (`weights_touched`).
fn expert_tile_padding(mean: f64) -> f64 {
    if mean <= 0.0 {
        return 1.0;
    }
    let tile = (2f64.powf(mean.log2().ceil())).clamp(MOE_TILE.0, MOE_TILE.1);
    let sd = mean.sqrt();
    if sd > 4.0 * tile {
        return 1.0 + (tile - 1.0) / (2.0 * mean);
    }
    // Poisson weights relative to the mode, walked down and up some 8 standard deviations.
    let mode = mean.floor();
    let (lo, hi) = ((mode - 8.0 * sd - 8.0).max(0.0), mode + 8.0 * sd + 8.0);
    let (mut rows, mut mass) = (tile * (mode / tile).ceil(), 1.0);
    let (mut w, mut x) = (1.0, mode);
    while x > lo {
        w *= x / mean;
        x -= 1.0;
        rows += w * tile * (x / tile).ceil();
        mass += w;
    }
    let (mut w, mut x) = (1.0, mode);
    while x < hi {
        x += 1.0;
        w *= mean / x;
        rows += w * tile * (x / tile).ceil();
        mass += w;
    }
    rows / mass / mean
}

/// A step that the engine's CPU work per sequence outlasts. Engines that overlap the next
/// step's scheduling with the GPU's current step (TensorRT-LLM's overlap scheduler; vLLM's
/// asynchronous output processing, the v0.6.0 blog above) hide that work while the GPU is the
/// slower of the two, and wait for it once the CPU is: the step is the longer of the two, and
/// one engine serves at most 1 / `host_sequence_s` tokens a second whatever its GPUs. It binds
/// small models at large batches on fast GPUs. TensorRT-LLM's perf overview (v1.0) shows it:
/// Qwen3-30B-A3B at 1000/1000 makes 25,828 output tokens/s on a B200 (38.7 µs a token) and
/// 17,481 on a GB200 (same GPU, an Arm host), where the GPU's own step (3B active parameters,
/// 1,700 sequences of FP8 KV cache over 8 TB/s) would allow some 50,000; at 128/128 it makes
/// 28,011 to 39,490 on 1 to 8 RTX PRO 6000s, 8 times the bandwidth for 1.4 times the tokens.
/// One constant per engine step and sequence is the simplest form of it (the 128/128 ceilings
/// sit above 1/40 µs: part of the work scales with something else than the batch).
///
/// The floor is a Python executor's, which is what `recommend` sets up (vLLM) and what the rows
/// that show it ran (TensorRT-LLM's PyTorch backend, "starting with v0.19" per the perf
/// overview). TensorRT-LLM's C++ runtime keeps that work in C++: the Azure AI benchmarking
/// guide's TensorRT engines (`trtllm-bench build`) make 41,058 tokens/s of Llama 3.1 8B at
/// 128/128 on one GB200, 24 µs a token on the same Grace host, where the GPU alone would allow
/// some 46,000. The floor holds that row to 0.6×; no form of it that depends on what the
/// estimate knows (tokens scheduled, batch, host CPU) lifts it without freeing Qwen3-30B-A3B,
/// which at the same 128/128 on the same host makes 24,107, so it stays a known miss. The perf
/// overview also shows the host's share: Qwen3-30B-A3B at 128/128 makes 39,827 on a B200 (x86)
/// against 24,107 on a GB200 (Grace), the same GPU (Vellaisamy et al. 2025, "Characterizing and
/// Optimizing LLM Inference Workloads on CPU-GPU Coupled Architectures", find a GH200
/// CPU-bound up to 4× larger batches than PCIe x86 systems). 40 µs is the Grace figure; an x86
/// host's would be nearer 25 µs, but the one x86 row the floor binds (gpt-oss-120b on four
/// H100s, attention data-parallel) would then be 1.6× too fast for a reason of its own, so one
/// constant stays until that row is explained.
fn host_floor(hw: &Hardware, batch: f64, gpu: f64, bound: Bound) -> (f64, Bound) {
    let host = batch * hw.host_sequence_s;
    if host > gpu {
        (host, Bound::EngineCpu)
    } else {
        (gpu, bound)
    }
}

/// The prompt tokens one step carries and their attention FLOPs.
#[derive(Debug, Clone, Copy, Default)]
struct Chunk {
    tokens: f64,
    attention_flops: f64,
    /// The chunk's own latency through every pipeline stage, not its share of a round.
    alone: bool,
}

impl Chunk {
    /// One of `ranks` attention data-parallel ranks' share of the prompt tokens.
    fn per_rank(self, ranks: f64) -> Chunk {
        Chunk { tokens: self.tokens / ranks, attention_flops: self.attention_flops / ranks, alone: self.alone }
    }
}

/// A step of decodes alone.
fn decode_step(s: &Shape, hw: &Hardware, split: Split, batch: f64, context: f64) -> (f64, Bound) {
    hybrid_step(s, hw, split, batch, context, Chunk::default())
}

/// Routing a mixture of experts' tokens: per MoE layer the router's scores and top-k, then
/// every token's hidden state copied to its k experts and their outputs gathered back
/// (GShard, Lepikhin et al. 2021, section 2.2; DeepSpeed-MoE, Rajbhandari et al. 2022, section
/// 5.3): 2 × k × hidden × 2 bytes per token written and read again around the expert GEMMs.
/// Under tensor parallelism every GPU holds a slice of every expert and the permutation stays
/// local (vLLM's fused MoE), so this is memory traffic, not link traffic; `tokens` are all the
/// step's. Under expert parallelism a rank permutes the pairs routed to its own experts, and
/// the link traffic is `all_to_all`'s.
fn moe_dispatch(s: &Shape, hw: &Hardware, tokens: f64) -> f64 {
    let (e, k) = s.experts;
    if e == 0 || k == 0 {
        return 0.0;
    }
    let bytes = 2.0 * 2.0 * f64::from(k) * f64::from(s.arch.hidden_size) * 2.0 * tokens * f64::from(s.arch.layers);
    bytes / hw.bytes_per_s()
}

/// A step that carries `tokens` prompt tokens (one chunk, or several prompts packed) of
/// prompts of `input` tokens, while `batch` sequences decode: its length.
fn chunk_step(s: &Shape, hw: &Hardware, split: Split, batch: f64, input: f64, tokens: f64, ctx: (f64, bool)) -> f64 {
    let (context, alone) = ctx;
    // Causal attention over a prompt: each token attends to the ones before it, half the
    // square of the prompt in all; a step carrying `tokens` of it does tokens/input of that.
    let attention = attention_flops(&s.arch, input, input) / 2.0 * (tokens / input);
    hybrid_step(s, hw, split, batch, context, Chunk { tokens, attention_flops: attention, alone }).0
}

/// One request's prompt prefilled while `batch` others decode: the steps it takes (the token
/// budget left after the decodes each step, vLLM's `max_num_batched_tokens`), and each
/// step's length.
struct Prefill {
    steps: f64,
    step_s: f64,
}

fn prefill(s: &Shape, hw: &Hardware, split: Split, batch: f64, input: f64, context: f64) -> Prefill {
    // Under expert parallelism the prompt is prefilled on its own rank, next to that rank's
    // share of the decodes.
    let steps = (input / room(hw, batch / split.ranks())).ceil().max(1.0);
    Prefill { steps, step_s: chunk_step(s, hw, split, batch, input, input / steps, (context, true)) }
}

/// Prompt tokens a step has room for next to `batch` decodes (at least an eighth of the
/// budget: vLLM keeps prefills moving however many sequences decode).
fn room(hw: &Hardware, batch: f64) -> f64 {
    (hw.token_budget - batch).max(hw.token_budget / 8.0).max(1.0)
}

/// Prompt tokens a replica's step has room for next to `batch` decodes: under expert
/// parallelism each attention data-parallel rank schedules its own sequences within its own
/// token budget (TensorRT-LLM's `max_num_tokens` and vLLM's `max_num_batched_tokens` hold per
/// rank, each rank running its own scheduler).
fn replica_room(hw: &Hardware, split: Split, batch: f64) -> f64 {
    split.ranks() * room(hw, batch / split.ranks())
}

/// The steady state of one replica: prompt tokens per step, the share of steps that carry
/// prompt tokens, their length and the mean step.
struct Steady {
    decode_s: f64,
    chunk: f64,
    chunk_s: f64,
    mean_s: f64,
    /// Second moment of the step length, for the residual an arrival waits.
    mean_sq: f64,
}

/// Sequences, prompt and decode context of one replica.
#[derive(Clone, Copy)]
struct Load {
    c: f64,
    i: f64,
    context: f64,
}

fn steady(s: &Shape, hw: &Hardware, split: Split, l: Load, per_step: f64, decode_s: f64) -> Steady {
    let (c, i) = (l.c, l.i);
    let room = replica_room(hw, split, c);
    // A step that carries prompt tokens carries at least one prompt's chunk, more when the
    // prompts arrive faster than one per step.
    let chunk = per_step.max(i.min(room)).min(room);
    let q = (per_step / chunk).min(1.0);
    let chunk_s = chunk_step(s, hw, split, c, i, chunk, (l.context, false)).max(decode_s);
    let mean_s = (1.0 - q) * decode_s + q * chunk_s;
    let mean_sq = (1.0 - q) * decode_s * decode_s + q * chunk_s * chunk_s;
    Steady { decode_s, chunk, chunk_s, mean_s, mean_sq }
}

/// The figures of one replica serving `concurrency` sequences of `input` + `output` tokens, in
/// the steady state of a continuous-batching engine with chunked prefill (vLLM; Sarathi-Serve):
/// - every sequence in flight decodes in every step, and the prompts of the requests that
///   arrive (c / cycle per second, `input` tokens each) ride in the same steps, up to the
///   token budget: steps that carry prompt tokens take longer, so decode slows while prompts
///   are prefilled (the time per output token is the mean step);
/// - a request's prompt waits for the prompts ahead of it: the prefill is a queue (DistServe,
///   Zhong et al. 2024, section 3.1, an M/D/1 queue) that holds each request for the time its
///   prompt adds to the steps, busy ρ of the time, so the mean wait is s·ρ / (2(1 − ρ)), after
///   the rest of the step in progress (length-biased: E(t²) / 2E(t));
/// - when the prompts need more than the budget (or all of the time), the replica serves no
///   more requests than the prefill lets through and the rest wait: the queue ahead sets TTFT.
pub fn figures(s: &Shape, hw: &Hardware, split: Split, concurrency: u64, input: u64, output: u64) -> Figures {
    let c = concurrency.max(1) as f64;
    let (i, o) = (input.max(1) as f64, output.max(1) as f64);
    let context = i + o / 2.0;
    let (decode_s, decode_bound) = decode_step(s, hw, split, c, context);
    let own = prefill(s, hw, split, c - 1.0, i, context);
    let load = Load { c, i, context };
    // The first token leaves with the step after the prefill's last chunk: engines return a
    // step's sampled tokens while the next step runs (vLLM's asynchronous output processing,
    // TensorRT-LLM's per-iteration responses), so a benchmark's TTFT holds one decode step.
    let alone = own.steps * own.step_s + decode_s;
    let mut cycle = alone + o * decode_s;
    // Decodes alone to start from: no prompt tokens in the steps yet.
    let mut st = Steady { decode_s, chunk: 1.0, chunk_s: decode_s, mean_s: decode_s, mean_sq: decode_s * decode_s };
    let (mut ttft, mut rho, mut theta) = (alone, 0.0, 0.0);
    // A fixed point: the prompt tokens per step follow from the arrival rate, which follows
    // from the cycle; three rounds settle it to well under a percent.
    for _ in 0..3 {
        // The others' prompts ride in a sequence's decode steps; its own is in its TTFT.
        let per_step = (c - 1.0) / cycle * i * st.mean_s;
        st = steady(s, hw, split, load, per_step, decode_s);
        // What one request's prompt adds to the replica's time.
        let service = i / st.chunk * (st.chunk_s - st.decode_s);
        rho = (c / cycle * service).min(0.99);
        theta = service / (2.0 * (1.0 - rho));
        let residual = if c > 1.0 { st.mean_sq / (2.0 * st.mean_s) } else { 0.0 };
        let queue = if c > 1.0 { rho * theta } else { 0.0 };
        let open = residual + queue + alone + o * st.mean_s;
        // The prompts cannot go through faster than the budget lets them, nor take more
        // than all of the replica's time.
        let budget_bound = c * i * st.chunk_s / replica_room(hw, split, c);
        cycle = open.max(budget_bound).max(c * service);
        ttft = cycle - o * st.mean_s;
    }
    let tpot = st.mean_s;
    // The wait's tail, P(W > t) ≈ ρ·e^(−t/θ) (the exponential approximation of the M/D/1
    // waiting time with the same mean), on top of what the saturated loop adds: median, p90.
    let queue = if c > 1.0 { rho * theta } else { 0.0 };
    let base = ttft - queue;
    let quantile = |p: f64| if c > 1.0 && rho > 1.0 - p { theta * (rho / (1.0 - p)).ln() } else { 0.0 };
    let prefill_share = c * i / st.chunk * (st.chunk_s - st.decode_s) / cycle;
    Figures {
        cycle_s: cycle,
        ttft_s: ttft,
        ttft_median_s: base + quantile(0.5),
        ttft_p90_s: base + quantile(0.9),
        tpot_s: tpot,
        output_tps: c * o / cycle,
        total_tps: c * (i + o) / cycle,
        bound: if prefill_share > 0.5 { Bound::Compute } else { decode_bound },
    }
}

/// `c` requests on a replica whose KV cache holds `admitted`: the engine runs `admitted` at a
/// time (`f`) and the others wait in its queue (vLLM's scheduler admits a request only when its
/// KV blocks fit). In the closed loop each request's cycle stretches by c / admitted, and the
/// stretch is time before its first token (Little's law); throughput stays that of `f`.
pub fn queued(f: &Figures, admitted: u64, c: u64) -> Figures {
    let stretch = c as f64 / admitted.max(1) as f64;
    let cycle = f.cycle_s * stretch;
    let wait = cycle - f.cycle_s;
    Figures {
        cycle_s: cycle,
        ttft_s: f.ttft_s + wait,
        ttft_median_s: f.ttft_median_s + wait,
        ttft_p90_s: f.ttft_p90_s + wait,
        output_tps: f.output_tps,
        total_tps: f.total_tps,
        bound: Bound::KvCapacity,
        ..*f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{DenseTflops, GpuLink};

    const LLAMA_70B: Arch = Arch::full_attention(80, 8192, 64, 8, 128);

    fn eff() -> Efficiency {
        Efficiency {
            architecture: "*".into(),
            precision: "*".into(),
            compute: 1.0,
            memory: 1.0,
            link: 1.0,
            sequence_overhead_us: 0.0,
            source: "t".into(),
        }
    }

    fn hw(tflops: f64, gb_s: f64) -> Hardware {
        Hardware {
            tflops,
            memory_gb_s: gb_s,
            link_gb_s: 450.0,
            eff: eff(),
            allreduce_latency_s: 0.0,
            step_overhead_s: 0.0,
            sequence_overhead_s: 0.0,
            host_sequence_s: 0.0,
            token_budget: 8192.0,
        }
    }

    fn llama70(bytes: f64) -> Shape {
        Shape {
            arch: LLAMA_70B,
            params: 70.55e9,
            active: 70.55e9,
            experts: (0, 0),
            weight_bytes: 70.55e9 * bytes,
            kv_bytes: 2.0,
        }
    }

    /// kipply's arithmetic: a batch-1 decode step of a 70B model in 16 bits on one GPU at
    /// 3.35 TB/s reads 141.1 GB of weights (+ 0.33 MB of KV per token of context): 42.1 ms.
    #[test]
    fn batch_one_decode_is_weights_over_bandwidth() {
        let s = llama70(2.0);
        let (step, bound) = decode_step(&s, &hw(989.5, 3350.0), Split::tp_pp(1, 1), 1.0, 1.0);
        assert_eq!(bound, Bound::MemoryBandwidth);
        let expect = (141.1e9 + 327_680.0) / 3350e9;
        assert!((step - expect).abs() / expect < 1e-3, "{step} vs {expect}");
    }

    /// Prefill of 2048 tokens: 2 × 70.55e9 × 2048 = 2.89e14 FLOPs plus attention
    /// 4 × 8192 × 2048 × 80 × 2048 / 2 = 5.5e12, at 989.5 TFLOPS: 0.298 s, in one chunk.
    #[test]
    fn prefill_is_two_flops_per_parameter_per_token() {
        let p = prefill(&llama70(2.0), &hw(989.5, 3350.0), Split::tp_pp(1, 1), 0.0, 2048.0, 2048.0);
        let expect = (2.0 * 70.55e9 * 2048.0 + 4.0 * 8192.0 * 2048.0 * 80.0 * 2048.0 / 2.0) / 989.5e12;
        assert_eq!(p.steps, 1.0);
        assert!((p.step_s - expect).abs() / expect < 1e-6, "{} vs {expect}", p.step_s);
    }

    /// A prompt longer than the token budget is prefilled in chunks, and the decodes that
    /// share those steps slow down: time per output token grows with the prompts in flight,
    /// and with many long prompts at once the queue ahead sets the time to first token.
    #[test]
    fn long_prompts_are_chunked_and_slow_the_decodes() {
        let s = llama70(1.0);
        let h100 = hw(1979.0, 3350.0);
        let split = Split::tp_pp(2, 1);
        let p = prefill(&s, &h100, split, 8.0, 20_000.0, 20_000.0);
        assert_eq!(p.steps, 3.0, "8184 tokens of budget per step");
        let alone = figures(&s, &h100, split, 1, 5000, 500);
        let few = figures(&s, &h100, split, 8, 5000, 500);
        let many = figures(&s, &h100, split, 64, 5000, 500);
        let (step1, _) = decode_step(&s, &h100, split, 1.0, 5250.0);
        assert!((alone.tpot_s - step1).abs() < 1e-12, "a lone sequence sees no one else's prefill");
        assert!(few.tpot_s < many.tpot_s && few.ttft_s < many.ttft_s);
        assert!(many.ttft_p90_s >= many.ttft_median_s && many.ttft_median_s >= alone.ttft_s);
        // ρ near 1: the tail is at least twice the prompt's own prefill.
        assert!(many.ttft_p90_s > 2.0 * alone.ttft_s, "{} vs {}", many.ttft_p90_s, alone.ttft_s);
    }

    #[test]
    fn more_concurrency_never_serves_less_and_faster_hardware_is_never_slower() {
        let s = llama70(1.0);
        let a100 = hw(312.0, 2039.0);
        let h100 = hw(989.5, 3350.0);
        let split = Split::tp_pp(2, 1);
        let mut last = 0.0;
        for c in [1, 2, 4, 8, 16, 32, 64, 128, 256] {
            let f = figures(&s, &h100, split, c, 1000, 1000);
            assert!(f.output_tps >= last, "concurrency {c}: {} < {last}", f.output_tps);
            last = f.output_tps;
            let slow = figures(&s, &a100, split, c, 1000, 1000);
            assert!(f.output_tps >= slow.output_tps && f.ttft_s <= slow.ttft_s && f.tpot_s <= slow.tpot_s);
        }
        // Halving the weight bytes never slows decode.
        let fp16 = figures(&llama70(2.0), &h100, split, 8, 1000, 1000);
        let fp8 = figures(&llama70(1.0), &h100, split, 8, 1000, 1000);
        assert!(fp8.tpot_s <= fp16.tpot_s);
    }

    /// A dense model reads all its weights at any batch, exactly (no share of experts).
    #[test]
    fn a_dense_model_reads_every_weight() {
        let s = llama70(2.0);
        for tokens in [0.0, 1.0, 7.5, 4096.0] {
            assert_eq!(weights_touched(&s, tokens), s.weight_bytes);
        }
    }

    /// Qwen3-30B-A3B (128 experts, 8 per token): one token reads 1/16 of the expert weights, a
    /// batch of 256 nearly all of them (1 − (15/16)^256 = 1 − 6.6e-8).
    #[test]
    fn experts_read_grow_with_the_batch() {
        let s = Shape {
            arch: LLAMA_70B,
            params: 30.53e9,
            active: 3.35e9,
            experts: (128, 8),
            weight_bytes: 30.53e9 * 2.0,
            kv_bytes: 2.0,
        };
        let experts_total = (30.53e9 - 3.35e9) / (1.0 - 8.0 / 128.0);
        let one = weights_touched(&s, 1.0) / 2.0;
        assert!((one - (30.53e9 - experts_total + experts_total / 16.0)).abs() < 1e3, "{one}");
        assert!(weights_touched(&s, 256.0) / s.weight_bytes > 0.9999);
        assert!(weights_touched(&s, 4.0) < weights_touched(&s, 64.0));
    }

    /// The engine's CPU work per sequence overlaps the GPU's step and binds only when it is the
    /// longer: a 3B-active MoE at 1,700 sequences on 8 TB/s (a 33 ms GPU step) waits for 40 µs
    /// × 1,700 = 68 ms of CPU; the same batch on a GPU a fifth as fast does not.
    #[test]
    fn the_engine_cpu_floors_a_fast_gpu_step() {
        let s = qwen3_30b();
        let split = Split::tp_pp(1, 1);
        let mut fast = hw(5000.0, 5600.0);
        let (gpu, _) = decode_step(&s, &fast, split, 1700.0, 1500.0);
        fast.host_sequence_s = 40e-6;
        let (step, bound) = decode_step(&s, &fast, split, 1700.0, 1500.0);
        assert!(gpu < 0.068 && (step - 0.068).abs() < 1e-9 && bound == Bound::EngineCpu, "{gpu} {step} {bound:?}");
        let mut slow = hw(1000.0, 1100.0);
        let (plain, plain_bound) = decode_step(&s, &slow, split, 1700.0, 1500.0);
        slow.host_sequence_s = 40e-6;
        assert_eq!(decode_step(&s, &slow, split, 1700.0, 1500.0), (plain, plain_bound));
        assert!(plain > 0.068);
    }

    /// More sequences than the KV cache holds: the copy runs what fits at the same speed and
    /// the others wait, so the first token comes c / admitted cycles later (Little's law).
    #[test]
    fn sequences_beyond_the_kv_cache_wait_for_the_first_token() {
        let s = llama70(1.0);
        let f = figures(&s, &hw(1979.0, 3350.0), Split::tp_pp(2, 1), 40, 2000, 500);
        let q = queued(&f, 40, 60);
        assert_eq!((q.output_tps, q.tpot_s, q.bound), (f.output_tps, f.tpot_s, Bound::KvCapacity));
        assert!((q.cycle_s - 1.5 * f.cycle_s).abs() < 1e-9);
        assert!((q.ttft_s - (f.ttft_s + 0.5 * f.cycle_s)).abs() < 1e-9);
    }

    /// A mixture of experts copies each token's hidden state to its k experts and back:
    /// 2 × 2 × k × hidden × 2 B per token and layer over the memory bandwidth; none for a
    /// dense model.
    #[test]
    fn moe_dispatch_is_the_tokens_copied_to_their_experts() {
        let mut s = llama70(2.0);
        let h = hw(989.5, 3350.0);
        assert_eq!(moe_dispatch(&s, &h, 256.0), 0.0);
        s.experts = (128, 8);
        let want = 2.0 * 2.0 * 8.0 * 8192.0 * 2.0 * 256.0 * 80.0 / 3350e9;
        assert!((moe_dispatch(&s, &h, 256.0) - want).abs() < 1e-12);
    }

    /// Qwen3-30B-A3B's shape (48 layers, hidden 2048, 128 experts, 8 per token) in NVFP4 with
    /// an FP8 KV cache.
    fn qwen3_30b() -> Shape {
        Shape {
            arch: Arch::full_attention(48, 2048, 32, 4, 128),
            params: 30.53e9,
            active: 3.35e9,
            experts: (128, 8),
            weight_bytes: 30.53e9 * 0.5625,
            kv_bytes: 1.0,
        }
    }

    /// A token goes once to each other GPU holding any of its experts: with 128 experts over 2
    /// GPUs a token's 8 miss the other half with probability C(64,8)/C(128,8) (0.35 %); with
    /// gpt-oss-120b's 4 of 128 over 4 GPUs each other GPU is hit with 1 − C(96,4)/C(128,4).
    #[test]
    fn a_token_is_sent_once_to_each_gpu_holding_its_experts() {
        assert_eq!(remote_ranks((128, 8), 1), 0.0);
        assert_eq!(remote_ranks((0, 0), 4), 0.0);
        let miss: f64 = (0..8).map(|j| (64.0 - f64::from(j)) / (128.0 - f64::from(j))).product();
        assert!((remote_ranks((128, 8), 2) - (1.0 - miss)).abs() < 1e-12 && miss < 0.004, "{miss}");
        let hit = 1.0 - (96.0 * 95.0 * 94.0 * 93.0) / (128.0 * 127.0 * 126.0 * 125.0);
        assert!((remote_ranks((128, 4), 4) - 3.0 * hit).abs() < 1e-12);
        // Balls into bins: the busiest of 4 GPUs with 8192 pairs holds 1 + sqrt(8 ln 4 / 8192).
        assert_eq!(busiest_rank(1, 10.0), 1.0);
        assert!((busiest_rank(4, 8192.0) - (1.0 + (8.0 * 4f64.ln() / 8192.0).sqrt())).abs() < 1e-12);
        assert!(busiest_rank(4, 64.0) > busiest_rank(4, 8192.0) && busiest_rank(4, 1.0) <= 4.0);
    }

    /// Under expert parallelism a rank reads the shared weights whole and its half of the
    /// experts, computes its own tokens' FLOPs (times the busiest rank's excess), and sends its
    /// tokens to the other GPU and back instead of two all-reduces per layer.
    #[test]
    fn an_expert_parallel_rank_holds_its_share_of_the_experts() {
        let s = qwen3_30b();
        let ep = Split { tp: 1, pp: 1, ep: 2 };
        let (bytes, flops, routed) = weight_gemms(&s, ep, 4096.0);
        let (shared, experts, share) = weight_parts(&s);
        assert!((bytes - (shared + experts / 2.0)).abs() / bytes < 1e-6, "all experts touched by 8192 tokens");
        let busiest = busiest_rank(2, 8192.0 * 8.0);
        let routed_params = routed_params(s.params, s.active, s.experts);
        let pad = expert_tile_padding(8192.0 * 8.0 / 128.0 * busiest);
        let want = 2.0 * 4096.0 * (s.active - share * routed_params + share * routed_params * busiest * pad);
        assert!((flops - want).abs() / want < 1e-12 && (routed - 4096.0 * busiest).abs() < 1e-9);
        let mut h = hw(1920.0, 1597.0);
        h.link_gb_s = 63.0;
        let a2a = all_to_all(&s, &h, 2, 4096.0);
        let want = 2.0 * 48.0 * 4096.0 * remote_ranks((128, 8), 2) * 2048.0 * 2.0 / 63e9;
        assert!((a2a - want).abs() < 1e-12, "{a2a} vs {want}");
        assert_eq!(all_to_all(&llama70(1.0), &h, 2, 4096.0), 0.0);
    }

    /// An expert's tokens are computed in whole M tiles: 40 tokens an expert on the mean (a
    /// 64-row tile, which Poisson(40) exceeds with probability 1e-4) cost 64 rows, 1.6 times;
    /// at 64 on the mean half the experts spill into a second tile; a spread over many tiles
    /// pads (tile − 1) / 2 rows; the padding never makes fewer rows than the tokens.
    #[test]
    fn expert_gemms_compute_whole_token_tiles() {
        assert!((expert_tile_padding(40.0) - 1.6).abs() < 1e-3, "{}", expert_tile_padding(40.0));
        let at_64 = expert_tile_padding(64.0);
        assert!(at_64 > 1.4 && at_64 < 1.5, "{at_64}");
        let small = expert_tile_padding(0.5);
        assert!((small - 16.0 * (1.0 - (-0.5f64).exp()) / 0.5).abs() < 1e-6, "{small}");
        assert!((expert_tile_padding(1e6) - (1.0 + 127.0 / 2e6)).abs() < 1e-12);
        for mean in [1.0, 3.0, 17.0, 100.0, 127.0, 129.0, 512.0, 5000.0, 70_000.0] {
            assert!(expert_tile_padding(mean) >= 1.0, "{mean}");
        }
        assert_eq!(expert_tile_padding(0.0), 1.0);
    }

    /// Qwen3-30B-A3B on one GPU at 256 tokens a step: 16 tokens per expert on the mean, so the
    /// expert GEMMs cost more than 2 × active parameters × tokens (16-row tiles that Poisson(16)
    /// overflows 43 % of the time); a dense model's FLOPs stay 2 × parameters × tokens.
    #[test]
    fn moe_compute_at_few_tokens_per_expert_exceeds_two_flops_per_active_parameter() {
        let s = qwen3_30b();
        let (_, flops, routed) = weight_gemms(&s, Split::tp_pp(1, 1), 256.0);
        assert!(flops > 1.2 * 2.0 * s.active * 256.0, "{flops}");
        assert_eq!(routed, 256.0);
        let (_, _, share) = weight_parts(&s);
        let routed_params = routed_params(s.params, s.active, s.experts);
        let want = 2.0 * 256.0 * (s.active - share * routed_params + share * routed_params * expert_tile_padding(16.0));
        assert!((flops - want).abs() / want < 1e-12);
        let d = llama70(2.0);
        for split in [Split::tp_pp(1, 1), Split::tp_pp(4, 2)] {
            assert_eq!(weight_gemms(&d, split, 300.0).1, 2.0 * d.active * 300.0);
        }
    }

    /// TensorRT-LLM's perf overview (v1.0) serves Qwen3-30B-A3B at 2048/128 on two PCIe RTX PRO
    /// 6000s 1.16 times faster than on one (3,785 against 3,257 tokens/s), a configuration its
    /// later overview labels DEP2. As one tensor-parallel engine the two GPUs share one token
    /// budget among the decodes of both GPUs' KV cache and all-reduce every layer over PCIe:
    /// slower than one GPU. As two attention data-parallel ranks each prefills in its own budget.
    #[test]
    fn expert_parallel_prefills_each_ranks_prompts_in_its_own_budget() {
        let s = qwen3_30b();
        let mut h = hw(1920.0, 1597.0);
        h.link_gb_s = 63.0;
        h.eff.compute = 0.5;
        h.eff.memory = 0.7;
        h.eff.link = 0.7;
        h.allreduce_latency_s = 8e-6;
        h.step_overhead_s = 2e-3;
        let one = figures(&s, &h, Split::tp_pp(1, 1), 691, 2048, 128).output_tps;
        let tp2 = figures(&s, &h, Split::tp_pp(2, 1), 1555, 2048, 128).output_tps;
        let dep2 = figures(&s, &h, Split { tp: 1, pp: 1, ep: 2 }, 1555, 2048, 128).output_tps;
        assert!(tp2 < one && dep2 > 1.1 * one, "one {one}, TP2 {tp2}, DEP2 {dep2}");
    }

    #[test]
    fn hardware_takes_the_precision_peak() {
        let perf = GpuPerf {
            dense_tflops: DenseTflops { fp16: Some(989.5), fp8: Some(1979.0), ..DenseTflops::default() },
            memory_bandwidth_gb_s: 3350.0,
            interconnect: GpuLink { kind: "nvlink".into(), bandwidth_gb_s: 450.0 },
            source: "t".into(),
        };
        let f = ServingFactors {
            allreduce_latency_us: 8.0,
            step_overhead_us: 0.0,
            host_sequence_us: 0.0,
            max_batch: 256,
            token_budget: 8192,
            source: "t".into(),
            efficiencies: vec![eff()],
            calibration: Vec::new(),
        };
        assert_eq!(Hardware::new(&perf, &f, "Hopper", "fp8").map(|h| h.tflops), Some(1979.0));
        assert_eq!(Hardware::new(&perf, &f, "Hopper", "fp16").map(|h| h.tflops), Some(989.5));
        assert!(Hardware::new(&perf, &f, "Hopper", "fp4").is_none());
        // MXFP4 weights on a GPU without FP4 math: the 16-bit peak, and the 16-bit entry
        // while no `w4a16` one is fitted.
        let w4 = Hardware::new(&perf, &f, "Hopper", "w4a16").expect("w4a16");
        assert_eq!((w4.tflops, w4.eff.precision.as_str()), (989.5, "*"));
    }
}
