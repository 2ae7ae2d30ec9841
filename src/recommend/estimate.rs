//! GPU memory estimates for LLM workloads (pure arithmetic, no catalog look-ups).
//!
//! **Inference** follows KAITO's current node estimator
//! (kaito-project/kaito:pkg/workspace/estimator/nodesestimator/estimator.go and
//! pkg/workspace/estimator/budget.go; the weight-scaled overhead came with KAITO PR #2139,
//! the per-GPU utilisation with PR #2302): the on-disk checkpoint × 1.02 once vLLM loads it,
//! a runtime overhead of 2.3 GiB per GPU plus 5 % of the GPU's weight share, the KV cache for
//! the context, and only `--gpu-memory-utilization` (0.92, 0.82 on A10) of a GPU usable.
//! Weights and KV cache are split across the tensor-parallel GPUs of a VM (vLLM replicates KV
//! heads when there are more GPUs than KV heads) and across nodes by pipeline stages.
//!
//! **Full training** keeps 16 bytes per parameter of mixed-precision Adam state (Rajbhandari et
//! al. 2020, "ZeRO", section 3.1: 2 + 2 + 12), sharded across every GPU (ZeRO-3/FSDP), plus
//! activations per Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
//! Transformer Models", Table 2, with tensor + sequence parallelism inside a node. The fit
//! chooses no, selective or full recomputation: whichever needs the fewest GPUs, and the least
//! recomputation among those. **Fine-tuning** is LoRA on frozen weights, QLoRA (Dettmers et al.
//! 2023) when the weights are int4: NF4 with double quantisation at 4.127 bits per parameter.

use crate::domain::Precision;
use serde::Serialize;

/// vLLM's loaded weights relative to the on-disk safetensors (KAITO `WeightExpansionFactor`).
pub const WEIGHT_FACTOR: f64 = 1.02;
/// Runtime overhead per GiB of a GPU's weight share: activations and CUDA graphs grow with the
/// model (KAITO `OverheadWeightFactor`, PR #2139).
pub const OVERHEAD_WEIGHT_FACTOR: f64 = 0.05;
/// Fraction of a GPU's memory vLLM may use (KAITO's launcher `--gpu-memory-utilization`, PR #2302).
pub const USABLE_FRACTION: f64 = 0.92;
/// The same on an A10, where KAITO keeps 0.82 (PR #2302).
pub const USABLE_FRACTION_A10: f64 = 0.82;
/// Fixed per-GPU overhead in GiB: CUDA context, NCCL buffers, baseline activations and CUDA
/// graphs (KAITO `BaseOverheadGiB`).
pub const OVERHEAD_PER_GPU_GIB: f64 = 2.3;
/// The same on an A10, which KAITO measured lower (`baseOverheadGiBByGPUModel`).
pub const OVERHEAD_PER_GPU_GIB_A10: f64 = 1.5;
/// Bytes per parameter of mixed-precision Adam training: fp16/bf16 weights 2 + gradients 2 +
/// fp32 master weights, momentum and variance 12 (ZeRO section 3.1). Pure fp32 is 4 + 4 + 8 = 16 too.
pub const TRAIN_BYTES: f64 = 16.0;
/// LoRA adapter parameters as a fraction of the model ("the commonly used 0.2 %", QLoRA section 3).
pub const LORA_FRACTION: f64 = 0.002;
/// Bytes per LoRA adapter parameter (the same Adam accounting as full training).
pub const LORA_BYTES: f64 = 16.0;
/// Bits per frozen weight in QLoRA: 4-bit NF4 plus 0.127 bits of double-quantised constants
/// (QLoRA section 3, "Double Quantization").
pub const NF4_DQ_BITS: f64 = 4.127;

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

/// Serialize GiB figures to three decimals (JSON readers don't need float noise).
pub fn round3<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((v * 1000.0).round() / 1000.0)
}

fn gib(bytes: f64) -> f64 {
    bytes / GIB
}

/// Parameters in the routed experts of a mixture of experts, as a count (0 for a dense model):
/// params = shared + routed, active = shared + k/E × routed.
pub fn routed_params(params: f64, active: f64, experts: (u32, u32)) -> f64 {
    let (e, k) = experts;
    if e == 0 || k == 0 || active >= params {
        return 0.0;
    }
    let share = f64::from(k) / f64::from(e);
    ((params - active) / (1.0 - share)).min(params)
}

/// Architecture numbers the estimator needs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Arch {
    pub layers: u32,
    pub hidden_size: u32,
    pub attention_heads: u32,
    pub kv_heads: u32,
    pub head_dim: u32,
    /// Tokens a sliding-window layer keeps (0: no window).
    #[serde(skip_serializing_if = "is_zero")]
    pub window: u32,
    /// Layers that use the window (the rest keep every token).
    #[serde(skip_serializing_if = "is_zero")]
    pub windowed_layers: u32,
    /// Layers that keep a KV cache, where fewer than `layers` do (hybrid Mamba / attention
    /// models); 0: every layer.
    #[serde(skip_serializing_if = "is_zero")]
    pub attention_layers: u32,
    /// Bytes of recurrent (Mamba) state one sequence keeps whatever its length (0: none).
    #[serde(skip_serializing_if = "is_zero_f64")]
    pub state_bytes: f64,
    /// A hybrid model's Mamba heads and groups, which tensor parallelism splits too.
    #[serde(skip)]
    pub mamba_split: Option<(u32, u32)>,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

fn is_zero_f64(v: &f64) -> bool {
    *v == 0.0
}

/// True for a degree of 1 (no parallelism of that kind: left out of the JSON).
pub fn is_one(v: &u32) -> bool {
    *v == 1
}

impl Arch {
    /// A model whose every layer attends to the whole context (no sliding window).
    pub const fn full_attention(
        layers: u32,
        hidden_size: u32,
        attention_heads: u32,
        kv_heads: u32,
        head_dim: u32,
    ) -> Arch {
        Arch {
            layers,
            hidden_size,
            attention_heads,
            kv_heads,
            head_dim,
            window: 0,
            windowed_layers: 0,
            attention_layers: 0,
            state_bytes: 0.0,
            mamba_split: None,
        }
    }

    /// Layers that keep a KV cache: the attention layers of a hybrid model, else every layer.
    pub fn kv_layers(&self) -> u32 {
        if self.attention_layers > 0 {
            self.attention_layers.min(self.layers)
        } else {
            self.layers
        }
    }

    /// KV-cache bytes of one sequence of `context` tokens: 2 (K and V) × KV heads × head dim ×
    /// `bytes` per layer and token, every token on full-attention layers and at most `window` on
    /// sliding-window layers (Mistral 7B's rolling buffer cache, Jiang et al. 2023 section 2; vLLM
    /// allocates windowed layers only up to the window). A hybrid model caches only on its
    /// attention layers and adds its fixed recurrent state (`state_bytes`) per sequence.
    pub fn kv_bytes(&self, context: u64, bytes: f64) -> f64 {
        let per_layer_token = 2.0 * f64::from(self.kv_heads) * f64::from(self.head_dim) * bytes;
        let layers = self.kv_layers();
        let windowed = if self.window > 0 { self.windowed_layers.min(layers) } else { 0 };
        let full = f64::from(layers - windowed) * context as f64;
        let win = f64::from(windowed) * context.min(u64::from(self.window)) as f64;
        per_layer_token * (full + win) + self.state_bytes
    }

    /// The KV-cache formula in words, for the breakdown.
    fn kv_formula(&self, context: u64, bytes: f64, concurrency: u64) -> String {
        let layers = self.kv_layers();
        let windowed = if self.window > 0 { self.windowed_layers.min(layers) } else { 0 };
        let kind = if layers < self.layers { "attention layers" } else { "layers" };
        let tokens = if windowed == 0 {
            format!("{layers} {kind} × {context} tokens")
        } else {
            format!(
                "({} {kind} × {context} + {windowed} windowed layers × {} tokens)",
                layers - windowed,
                context.min(u64::from(self.window))
            )
        };
        let kv = format!("2 × {} KV heads × {} head dim × {bytes} B × {tokens}", self.kv_heads, self.head_dim);
        if self.state_bytes > 0.0 {
            let mib = self.state_bytes / (1024.0 * 1024.0);
            format!("({kv} + {mib:.1} MiB Mamba state) × {concurrency} sequences")
        } else {
            format!("{kv} × {concurrency} sequences")
        }
    }

    /// vLLM's tensor-parallel rule: the attention heads must divide evenly across `tp` GPUs,
    /// and the KV heads must either divide across them or be replicated a whole number of times
    /// (vllm-project/vllm:vllm/config.py `ModelConfig.verify_with_parallel_config` for the heads;
    /// vllm/model_executor/layers/linear.py `QKVParallelLinear` divides or replicates KV heads).
    /// A hybrid model's Mamba-2 layers split too: their heads must divide across the GPUs, and
    /// their groups divide or be one group, replicated (vllm/model_executor/layers/mamba/
    /// mamba_mixer2.py, `MambaMixer2`'s tensor-parallel checks).
    pub fn tp_ok(&self, tp: u32) -> bool {
        let (a, kv) = (self.attention_heads.max(1), self.kv_heads.max(1));
        let mamba = self.mamba_split.is_none_or(|(heads, groups)| heads % tp == 0 && (groups % tp == 0 || groups == 1));
        tp >= 1 && a % tp == 0 && (kv % tp == 0 || tp % kv == 0) && mamba
    }
}

/// What kind of job the memory is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    Inference,
    FullTraining,
    Lora,
    Qlora,
}

/// Activation recomputation during training (Korthikanti et al. 2022).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Recompute {
    /// Keep every activation: fastest, most memory.
    None,
    /// Recompute only the attention score/softmax/dropout part (the 5·a·s/h term).
    Selective,
    /// Keep only each layer's input; recompute the layer in the backward pass.
    Full,
}

impl Recompute {
    /// In order of recomputation cost, cheapest first.
    pub const ALL: [Recompute; 3] = [Recompute::None, Recompute::Selective, Recompute::Full];

    fn words(self) -> &'static str {
        match self {
            Recompute::None => "no activation recomputation",
            Recompute::Selective => "selective activation recomputation",
            Recompute::Full => "full activation checkpointing",
        }
    }
}

/// The shape behind activation memory: sequence `s`, micro-batch `b`, hidden `h`, heads `a`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Activations {
    pub layers: u32,
    pub seq: u64,
    pub micro_batch: u64,
    pub hidden: u32,
    pub heads: u32,
}

impl Activations {
    /// One layer's activations in bytes on one GPU with tensor + sequence parallelism over `t`
    /// GPUs and no recomputation: `s·b·h·(34 + 5·a·s/h) / t` (Korthikanti Table 2, eq. 1 / t).
    pub fn layer_bytes(&self, t: u32) -> f64 {
        let (s, b, h, a) = (self.seq as f64, self.micro_batch as f64, f64::from(self.hidden), f64::from(self.heads));
        s * b * h * (34.0 + 5.0 * a * s / h) / f64::from(t.max(1))
    }

    /// Activation bytes of the whole model on one GPU.
    /// - none: `L · s·b·h·(34 + 5·a·s/h) / t`;
    /// - selective: `L · 34·s·b·h / t` (Korthikanti Table 2);
    /// - full: `L · 2·s·b·h` for the layer inputs (Table 2) plus one layer recomputed at a time.
    pub fn bytes(&self, r: Recompute, t: u32) -> f64 {
        let l = f64::from(self.layers);
        let sbh = self.seq as f64 * self.micro_batch as f64 * f64::from(self.hidden);
        match r {
            Recompute::None => l * self.layer_bytes(t),
            Recompute::Selective => l * 34.0 * sbh / f64::from(t.max(1)),
            Recompute::Full => l * 2.0 * sbh + self.layer_bytes(t),
        }
    }

    fn formula(&self, r: Recompute, t: u32) -> String {
        let (l, s, b, h, a) = (self.layers, self.seq, self.micro_batch, self.hidden, self.heads);
        match r {
            Recompute::None => format!("{l} layers × {s}·{b}·{h} × (34 + 5·{a}·{s}/{h}) B / {t} (TP+SP)"),
            Recompute::Selective => format!("{l} layers × 34·{s}·{b}·{h} B / {t} (TP+SP, selective recompute)"),
            Recompute::Full => format!(
                "{l} layers × 2·{s}·{b}·{h} B (layer inputs) + one layer {s}·{b}·{h} × (34 + 5·{a}·{s}/{h}) B / {t}"
            ),
        }
    }
}

/// The weights to hold, as resolved from the model's checkpoint or its parameter count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Weights {
    /// GiB before any runtime factor.
    #[serde(serialize_with = "round3")]
    pub gib: f64,
    pub precision: Precision,
    /// Where the figure comes from ("checkpoint on disk …" or "P × b").
    pub formula: String,
}

/// How the GPUs are used for one fit: GPUs in total, tensor-parallel degree, recomputation and
/// the per-GPU budget of that GPU model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Layout {
    pub gpus: f64,
    pub tensor_parallel: u32,
    /// GPUs per pipeline stage that split the experts and run attention data parallel
    /// (`--expert-parallel`; 1: none, tensor parallelism alone).
    #[serde(skip_serializing_if = "is_one")]
    pub expert_parallel: u32,
    /// Chosen recomputation (training and fine-tuning only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recompute: Option<Recompute>,
    pub usable_fraction: f64,
    pub overhead_per_gpu_gib: f64,
}

/// The per-GPU budget KAITO uses for a GPU model (pkg/workspace/estimator/budget.go).
pub fn layout(gpu_id: &str, gpus: f64, tp: u32, recompute: Option<Recompute>) -> Layout {
    let a10 = gpu_id.eq_ignore_ascii_case("A10");
    Layout {
        gpus,
        tensor_parallel: tp.max(1),
        expert_parallel: 1,
        recompute,
        usable_fraction: if a10 { USABLE_FRACTION_A10 } else { USABLE_FRACTION },
        overhead_per_gpu_gib: if a10 { OVERHEAD_PER_GPU_GIB_A10 } else { OVERHEAD_PER_GPU_GIB },
    }
}

impl Layout {
    /// This layout with expert parallelism over `ep` GPUs per stage (none for `None` or 1).
    pub fn with_experts(self, ep: Option<u32>) -> Layout {
        Layout { expert_parallel: ep.unwrap_or(1).max(1), ..self }
    }

    /// Pipeline stages: the GPUs over the tensor-parallel (or expert-parallel) GPUs of a stage.
    pub fn stages(&self) -> u32 {
        fmt_stages(self.gpus, self.tensor_parallel.max(self.expert_parallel))
    }
}

/// A memory requirement. Parts split differently across GPUs, so `per_gpu_at` takes a layout.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Need {
    pub method: Method,
    /// GiB split evenly across all GPUs used (weights with their overhead, optimizer states).
    #[serde(serialize_with = "round3")]
    pub sharded_gib: f64,
    /// GiB of KV cache, split across pipeline stages × min(tensor parallel, KV heads).
    #[serde(serialize_with = "round3")]
    pub kv_cache_gib: f64,
    #[serde(skip)]
    pub kv_heads: u32,
    /// GiB of `sharded_gib` outside a mixture of experts' routed experts (attention, embeddings,
    /// with their overhead): what expert parallelism holds whole on every GPU of a stage.
    #[serde(skip)]
    pub shared_gib: f64,
    /// GiB of KV cache one sequence of the full context takes (inference).
    #[serde(skip)]
    pub kv_per_sequence_gib: f64,
    /// Sequences `kv_cache_gib` holds.
    #[serde(skip)]
    pub sequences: u64,
    /// Activation shape (training and fine-tuning).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activations: Option<Activations>,
    /// The layout of the fit this estimate belongs to (set on `fit.estimate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layout: Option<Layout>,
    /// The setup in words, when fitted (e.g. "ZeRO-3 over 16 GPUs, TP 8, selective …").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    /// The terms that make it up, in GiB.
    pub breakdown: Vec<Term>,
    /// The constants used.
    pub constants: Constants,
}

/// One named term of the estimate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Term {
    pub name: &'static str,
    #[serde(serialize_with = "round3")]
    pub gib: f64,
    pub sharded: bool,
    pub formula: String,
}

/// Constants shown in the JSON `fit` breakdown.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Constants {
    pub usable_fraction: f64,
    pub usable_fraction_a10: f64,
    pub weight_factor: f64,
    pub overhead_weight_factor: f64,
    pub overhead_per_gpu_gib: f64,
    pub overhead_per_gpu_gib_a10: f64,
    pub bytes_per_param: f64,
    pub kv_bytes_per_value: f64,
}

impl Need {
    /// GiB each GPU needs in `l`, the runtime overhead included.
    pub fn per_gpu_at(&self, l: &Layout) -> f64 {
        self.per_gpu_holding(l, self.kv_cache_gib)
    }

    /// GiB each GPU needs in `l` with `kv_cache_gib` of KV cache in the copy.
    fn per_gpu_holding(&self, l: &Layout, kv_cache_gib: f64) -> f64 {
        let gpus = l.gpus.max(1.0);
        let tp = f64::from(l.tensor_parallel.max(1));
        let stages = (gpus / tp).max(1.0);
        let kv_split = stages * tp.min(f64::from(self.kv_heads.max(1)));
        let act = match (&self.activations, l.recompute) {
            (Some(a), Some(r)) => gib(a.bytes(r, l.tensor_parallel)),
            (Some(a), None) => gib(a.bytes(Recompute::Full, l.tensor_parallel)),
            _ => 0.0,
        };
        // Expert parallelism: each of a stage's `ep` GPUs holds the stage's shared weights whole
        // and 1/ep of its experts; its sequences' KV cache is its own (kv_split = every GPU).
        let ep = f64::from(l.expert_parallel.max(1));
        let replicated = self.shared_gib * (ep - 1.0) / gpus;
        self.sharded_gib / gpus + replicated + kv_cache_gib / kv_split + act + l.overhead_per_gpu_gib
    }

    /// This need for a mixture of experts whose routed experts are `routed` of its parameters
    /// (a fraction): the rest of the weights is what expert parallelism replicates.
    pub fn with_routed(self, routed: f64) -> Need {
        Need { shared_gib: self.sharded_gib * (1.0 - routed.clamp(0.0, 1.0)), ..self }
    }

    /// GiB each GPU needs in `l` when the KV cache holds `sequences` sequences instead.
    pub fn per_gpu_with(&self, l: &Layout, sequences: u64) -> f64 {
        self.per_gpu_holding(l, self.kv_per_sequence_gib * sequences as f64)
    }

    /// How many sequences of the full context fit in `l` with `avail` GiB usable per GPU.
    pub fn max_sequences(&self, l: &Layout, avail: f64) -> u64 {
        if self.kv_per_sequence_gib <= 0.0 {
            return 0;
        }
        let room = avail - self.per_gpu_with(l, 0);
        let one = self.per_gpu_with(l, 1) - self.per_gpu_with(l, 0);
        if room <= 0.0 || one <= 0.0 {
            0
        } else {
            (room / one).floor() as u64
        }
    }

    /// GiB each of `n` GPUs needs with the default budget, all `n` tensor-parallel and (for
    /// training) full checkpointing: the least this need can take on `n` GPUs.
    pub fn per_gpu(&self, n: f64) -> f64 {
        let r = self.activations.map(|_| Recompute::Full);
        self.per_gpu_at(&layout("", n, n.max(1.0) as u32, r))
    }

    /// Total GiB across the GPUs of `l`.
    pub fn total_at(&self, l: &Layout) -> f64 {
        self.per_gpu_at(l) * l.gpus.max(1.0)
    }

    /// This need as fitted in `l`: the layout, the setup in words, and the activation and
    /// overhead terms for that layout.
    pub fn fitted(&self, l: Layout) -> Need {
        let mut n = self.clone();
        for t in &mut n.breakdown {
            match t.name {
                "activations" => {
                    if let (Some(a), Some(r)) = (&self.activations, l.recompute) {
                        t.gib = gib(a.bytes(r, l.tensor_parallel));
                        t.formula = a.formula(r, l.tensor_parallel);
                    }
                }
                "runtime_overhead" => t.gib = l.overhead_per_gpu_gib,
                _ => {}
            }
        }
        let gpus = fmt_stages(l.gpus, 1);
        let recompute = l.recompute.unwrap_or(Recompute::Full).words();
        n.setup = Some(match self.method {
            Method::Inference if l.expert_parallel > 1 => format!(
                "expert parallel {} (attention data parallel) × {} pipeline stage(s)",
                l.expert_parallel,
                l.stages()
            ),
            Method::Inference => format!(
                "vLLM, tensor parallel {} × {} pipeline stage(s)",
                l.tensor_parallel,
                fmt_stages(l.gpus, l.tensor_parallel)
            ),
            _ if gpus == 1 => format!("one GPU, {recompute}"),
            _ => format!(
                "ZeRO-3/FSDP sharded over {gpus} GPUs, tensor + sequence parallel {}, {recompute}",
                l.tensor_parallel
            ),
        });
        n.layout = Some(l);
        n
    }
}

fn fmt_stages(gpus: f64, tp: u32) -> u32 {
    ((gpus.max(1.0) / f64::from(tp.max(1))).round() as u32).max(1)
}

/// Inference (KAITO): `weights × 1.02 × (1 + 0.05)` and the KV cache, split by tensor
/// parallelism, plus the per-GPU overhead.
pub fn inference(w: &Weights, arch: Arch, context: u64, concurrency: u64, kv_bytes: f64) -> Need {
    let loaded = w.gib * WEIGHT_FACTOR;
    let kv = gib(arch.kv_bytes(context, kv_bytes) * concurrency as f64);
    Need {
        method: Method::Inference,
        sharded_gib: loaded * (1.0 + OVERHEAD_WEIGHT_FACTOR),
        kv_cache_gib: kv,
        kv_heads: arch.kv_heads,
        shared_gib: loaded * (1.0 + OVERHEAD_WEIGHT_FACTOR),
        kv_per_sequence_gib: gib(arch.kv_bytes(context, kv_bytes)),
        sequences: concurrency,
        activations: None,
        layout: None,
        setup: None,
        breakdown: vec![
            term("weights", loaded, true, format!("{} × {WEIGHT_FACTOR}", w.formula)),
            term(
                "weight_overhead",
                loaded * OVERHEAD_WEIGHT_FACTOR,
                true,
                format!("{OVERHEAD_WEIGHT_FACTOR} × weights (activations, CUDA graphs)"),
            ),
            term("kv_cache", kv, true, arch.kv_formula(context, kv_bytes, concurrency)),
            overhead_term(),
        ],
        constants: constants(w.precision.bytes(), kv_bytes),
    }
}

/// Full training with Adam: 16 B/parameter sharded across all GPUs, activations per GPU.
pub fn training(params_b: f64, arch: Arch, seq: u64, micro_batch: u64) -> Need {
    let states = gib(params_b * 1e9 * TRAIN_BYTES);
    let sharded = vec![term(
        "weights_grads_optimizer",
        states,
        true,
        format!("{params_b}e9 params × {TRAIN_BYTES} B (mixed-precision Adam, ZeRO-3/FSDP sharded)"),
    )];
    trained(Method::FullTraining, arch, seq, micro_batch, sharded, TRAIN_BYTES)
}

/// LoRA on frozen weights `w`, or QLoRA when `qlora` (then `w` is ignored: NF4 + double quant).
pub fn fine_tuning(w: &Weights, params_b: f64, arch: Arch, seq: u64, micro_batch: u64, qlora: bool) -> Need {
    let (frozen, formula) = if qlora {
        (
            gib(params_b * 1e9 * NF4_DQ_BITS / 8.0),
            format!("{params_b}e9 params × {NF4_DQ_BITS} bits (NF4 + double quantisation)"),
        )
    } else {
        (w.gib, w.formula.clone())
    };
    let adapters = gib(params_b * 1e9 * LORA_FRACTION * LORA_BYTES);
    let sharded = vec![
        term("frozen_weights", frozen, true, formula),
        term(
            "adapter_states",
            adapters,
            true,
            format!("{LORA_FRACTION} × {params_b}e9 adapter params × {LORA_BYTES} B"),
        ),
    ];
    let method = if qlora { Method::Qlora } else { Method::Lora };
    trained(method, arch, seq, micro_batch, sharded, if qlora { NF4_DQ_BITS / 8.0 } else { w.precision.bytes() })
}

/// What a training-style method (full training, LoRA, QLoRA) needs: the `sharded` terms split
/// across all GPUs, plus activations (full recomputation) and overhead on each; no KV cache.
fn trained(method: Method, arch: Arch, seq: u64, micro_batch: u64, sharded: Vec<Term>, bytes_per_param: f64) -> Need {
    let act = shape(arch, seq, micro_batch);
    let sharded_gib = sharded.iter().fold(0.0, |sum, t| sum + t.gib);
    let mut breakdown = sharded;
    breakdown.extend([activation_term(act), overhead_term()]);
    Need {
        method,
        sharded_gib,
        kv_cache_gib: 0.0,
        kv_heads: arch.kv_heads,
        shared_gib: sharded_gib,
        kv_per_sequence_gib: 0.0,
        sequences: micro_batch,
        activations: Some(act),
        layout: None,
        setup: None,
        breakdown,
        constants: constants(bytes_per_param, 2.0),
    }
}

fn shape(arch: Arch, seq: u64, micro_batch: u64) -> Activations {
    Activations { layers: arch.layers, seq, micro_batch, hidden: arch.hidden_size, heads: arch.attention_heads }
}

fn activation_term(a: Activations) -> Term {
    term("activations", gib(a.bytes(Recompute::Full, 1)), false, a.formula(Recompute::Full, 1))
}

fn term(name: &'static str, gib: f64, sharded: bool, formula: String) -> Term {
    Term { name, gib, sharded, formula }
}

fn overhead_term() -> Term {
    term(
        "runtime_overhead",
        OVERHEAD_PER_GPU_GIB,
        false,
        format!("fixed per GPU (CUDA context, NCCL, CUDA graphs): {OVERHEAD_PER_GPU_GIB} GiB, {OVERHEAD_PER_GPU_GIB_A10} on A10"),
    )
}

fn constants(bytes_per_param: f64, kv: f64) -> Constants {
    Constants {
        usable_fraction: USABLE_FRACTION,
        usable_fraction_a10: USABLE_FRACTION_A10,
        weight_factor: WEIGHT_FACTOR,
        overhead_weight_factor: OVERHEAD_WEIGHT_FACTOR,
        overhead_per_gpu_gib: OVERHEAD_PER_GPU_GIB,
        overhead_per_gpu_gib_a10: OVERHEAD_PER_GPU_GIB_A10,
        bytes_per_param,
        kv_bytes_per_value: kv,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LLAMA_8B: Arch = Arch::full_attention(32, 4096, 32, 8, 128);
    const LLAMA_70B: Arch = Arch::full_attention(80, 8192, 64, 8, 128);

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.01
    }

    fn bf16(gib: f64) -> Weights {
        Weights { gib, precision: Precision::Bf16, formula: format!("checkpoint {gib} GiB") }
    }

    /// KAITO's worked shape on Llama 3.1 8B (checkpoint 14.96 GiB, KAITO model_catalog.yaml):
    /// 14.96 × 1.02 = 15.259; × 1.05 = 16.022. KV per token 2 × 32 × 8 × 128 × 2 B = 128 KiB;
    /// × 4096 tokens = 0.5 GiB. One A10: 16.022 + 0.5 + 1.5 = 18.02 ≤ 0.82 × 24 = 19.68.
    #[test]
    fn inference_matches_kaito_for_llama_8b_on_an_a10() {
        let need = inference(&bf16(14.96), LLAMA_8B, 4096, 1, 2.0);
        assert!(close(need.breakdown[0].gib, 15.259), "{:?}", need.breakdown[0]);
        assert!(close(need.sharded_gib, 16.022), "{}", need.sharded_gib);
        assert!(close(need.kv_cache_gib, 0.5));
        let a10 = layout("A10", 1.0, 1, None);
        assert!(close(need.per_gpu_at(&a10), 18.022), "{}", need.per_gpu_at(&a10));
        assert!(need.per_gpu_at(&a10) <= a10.usable_fraction * 24.0);
        // A T4 (16 GiB, 0.92 usable = 14.72) cannot hold it; two T4s need 8.011 + 0.25 + 2.3.
        let t4 = layout("T4", 2.0, 2, None);
        assert!(need.per_gpu_at(&layout("T4", 1.0, 1, None)) > 0.92 * 16.0);
        assert!(close(need.per_gpu_at(&t4), 10.561), "{}", need.per_gpu_at(&t4));
    }

    /// The memory of `n` sequences in a layout is the estimate's with a KV cache of `n`
    /// sequences, bit for bit (read without copying the estimate and its breakdown).
    #[test]
    fn per_gpu_with_is_the_need_holding_that_cache() {
        let need = inference(&bf16(131.4), LLAMA_70B, 4096, 8, 2.0);
        for (gpus, tp, n) in [(1.0, 1, 0), (2.0, 2, 1), (4.0, 2, 7), (8.0, 8, 300)] {
            let l = layout("H100-80GB", gpus, tp, None);
            let holding = Need { kv_cache_gib: need.kv_per_sequence_gib * n as f64, ..need.clone() };
            assert_eq!(need.per_gpu_with(&l, n).to_bits(), holding.per_gpu_at(&l).to_bits(), "{gpus} GPUs, {n}");
        }
        assert_eq!(need.per_gpu_with(&layout("A10", 1.0, 1, None), 8), need.per_gpu_at(&layout("A10", 1.0, 1, None)));
    }

    /// KAITO's node estimator solves `(0.92·mem − 2.3 − KV/n) / 1.05 ≥ 1.02·W / n`. For
    /// gpt-oss-120b (60.8 GiB checkpoint, OpenAI model card) on one A100 80GB with 4096 tokens
    /// (KV 2 × 36 × 8 × 64 × 2 B = 72 KiB per token → 0.281 GiB): 60.8 × 1.02 × 1.05 = 65.117;
    /// + 0.281 + 2.3 = 67.70 ≤ 73.6. It did not fit at the old 0.84 (67.2): KAITO PR #2302.
    #[test]
    fn gpt_oss_120b_fits_one_80_gb_gpu_as_kaito_now_says() {
        let arch = Arch::full_attention(36, 2880, 64, 8, 64);
        let w = Weights { gib: 60.8, precision: Precision::Mxfp4, formula: "checkpoint".into() };
        let need = inference(&w, arch, 4096, 1, 2.0);
        let one = layout("A100-80GB", 1.0, 1, None);
        assert!(close(need.per_gpu_at(&one), 67.698), "{}", need.per_gpu_at(&one));
        assert!(need.per_gpu_at(&one) <= 0.92 * 80.0);
        assert!(need.per_gpu_at(&one) > 0.84 * 80.0);
    }

    /// NVIDIA-Nemotron-Nano-9B-v2 (config.json): 4 attention layers of 56, 8 KV heads × 128, and
    /// 27 Mamba-2 layers of 128 heads × 80, state 128, 8 groups, kernel 4. KV: 2 × 8 × 128 × 2 B
    /// × 4 layers = 16 KiB per token, 2 GiB at 131072 tokens (a full-attention count would be 14×
    /// that); the Mamba state 27 × (3 × (10240 + 2 × 8 × 128) + 10240 × 128) × 2 B = 69.4 MiB
    /// per sequence whatever its length.
    #[test]
    fn a_hybrid_model_caches_only_its_attention_layers_plus_its_mamba_state() {
        let mamba = crate::catalog::MambaLayers {
            layers: 27,
            heads: 128,
            head_dim: 80,
            state_size: 128,
            groups: 8,
            conv_kernel: 4,
        };
        assert_eq!(mamba.state_values(), 36_384_768.0);
        let arch = Arch {
            attention_layers: 4,
            state_bytes: mamba.state_values() * 2.0,
            ..Arch::full_attention(56, 4480, 40, 8, 128)
        };
        assert_eq!(arch.kv_layers(), 4);
        let state = 72_769_536.0;
        assert_eq!(arch.kv_bytes(131_072, 2.0), 2.0 * GIB + state);
        assert_eq!(arch.kv_bytes(0, 2.0), state);
        let need = inference(&bf16(16.56), arch, 131_072, 1, 2.0);
        assert!(close(need.kv_cache_gib, 2.0 + state / GIB), "{}", need.kv_cache_gib);
        let f = &need.breakdown[2].formula;
        assert!(f.contains("4 attention layers") && f.contains("69.4 MiB Mamba state"), "{f}");
    }

    #[test]
    fn tensor_parallelism_splits_a_hybrid_models_mamba_heads_and_groups_too() {
        let attention = Arch::full_attention(56, 4480, 40, 8, 128);
        assert!(attention.tp_ok(8));
        let uneven = Arch { mamba_split: Some((100, 8)), ..attention };
        assert!(uneven.tp_ok(4) && !uneven.tp_ok(8), "100 Mamba heads do not split over 8 GPUs");
        let groups = Arch { mamba_split: Some((128, 6)), ..attention };
        assert!(groups.tp_ok(2) && !groups.tp_ok(4), "6 groups do not split over 4 GPUs");
        let one_group = Arch { mamba_split: Some((128, 1)), ..attention };
        assert!(one_group.tp_ok(8), "a single group is replicated");
    }

    #[test]
    fn kv_heads_are_replicated_beyond_their_count() {
        // falcon-7b: one KV head (multi-query). Tensor parallelism does not shard its cache.
        let arch = Arch::full_attention(32, 4544, 71, 1, 64);
        let need = inference(&bf16(13.44), arch, 2048, 64, 2.0);
        let one = need.per_gpu_at(&layout("x", 1.0, 1, None)) - need.sharded_gib;
        let two = need.per_gpu_at(&layout("x", 2.0, 2, None)) - need.sharded_gib / 2.0;
        assert!(close(one, two), "{one} vs {two}");
        // The vLLM rule: 71 heads split across no count but 1 (and 71).
        assert!(arch.tp_ok(1) && !arch.tp_ok(2) && !arch.tp_ok(4) && !arch.tp_ok(8) && arch.tp_ok(71));
        assert!(LLAMA_8B.tp_ok(8) && !LLAMA_8B.tp_ok(3));
        // 8 KV heads over 16 GPUs: each KV head replicated twice, allowed; 3 is not.
        let wide = Arch { attention_heads: 64, ..LLAMA_8B };
        assert!(wide.tp_ok(16));
    }

    /// Korthikanti et al. 2022, GPT-3 175B (a = 96, h = 12288, s = 2048, L = 96, t = 8):
    /// 5·a·s/h = 80, so one layer keeps s·b·h·(34 + 80)/t = 2048 × 12288 × 114 / 8 = 358,612,992 B
    /// with TP+SP; selective recomputation keeps 34/114 of it, the paper's "70 %" reduction.
    /// MT-NLG 530B (a = 128, h = 20480): 5·a·s/h = 64 and 34/98 → the paper's "65 %".
    #[test]
    fn activations_reproduce_korthikanti_worked_numbers() {
        let gpt3 = Activations { layers: 96, seq: 2048, micro_batch: 1, hidden: 12288, heads: 96 };
        assert_eq!(gpt3.layer_bytes(8), 358_612_992.0);
        let saving = 1.0 - gpt3.bytes(Recompute::Selective, 8) / gpt3.bytes(Recompute::None, 8);
        assert!((saving - 0.70).abs() < 0.01, "{saving}");
        let mtnlg = Activations { layers: 105, seq: 2048, micro_batch: 1, hidden: 20480, heads: 128 };
        let saving = 1.0 - mtnlg.bytes(Recompute::Selective, 8) / mtnlg.bytes(Recompute::None, 8);
        assert!((saving - 0.653).abs() < 0.01, "{saving}");
        // Full checkpointing: 2·s·b·h per layer plus one layer being recomputed.
        let full = gpt3.bytes(Recompute::Full, 8);
        assert_eq!(full, 96.0 * 2.0 * 2048.0 * 12288.0 + 358_612_992.0);
    }

    /// 70B full training (Llama 3.1 70B: 70.55e9 params, s = 2048, b = 1, t = 8) on 8 × 80 GB
    /// nodes: states 70.55e9 × 16 B = 1051.3 GiB. Selective: 80 × 34 × 2048 × 8192 / 8 B =
    /// 5.3125 GiB + 2.3 = 7.61 per GPU, 73.6 − 7.61 = 65.99 for states → 1051.3 / 65.99 = 15.9
    /// → 16 GPUs = 2 nodes. Without recomputation activations take 17.8 GiB → 3 nodes.
    /// (Hugging Face fine-tuned Llama 2 70B with FSDP on 2 × 8 A100 80GB.)
    #[test]
    fn seventy_b_full_training_takes_two_eight_gpu_nodes() {
        let need = training(70.55, LLAMA_70B, 2048, 1);
        assert!(close(need.sharded_gib, 1051.284), "{}", need.sharded_gib);
        let avail = 0.92 * 80.0;
        let fits = |gpus: f64, r| need.per_gpu_at(&layout("H100-80GB", gpus, 8, Some(r))) <= avail;
        assert!(!fits(8.0, Recompute::Full));
        assert!(fits(16.0, Recompute::Selective));
        assert!(!fits(16.0, Recompute::None));
        assert!(fits(24.0, Recompute::None));
        let act = Activations { layers: 80, seq: 2048, micro_batch: 1, hidden: 8192, heads: 64 };
        assert!(close(gib(act.bytes(Recompute::Selective, 8)), 5.3125));
        assert!(close(gib(act.bytes(Recompute::None, 8)), 17.8125));
    }

    /// QLoRA (Dettmers et al. 2023) fine-tunes LLaMA 65B on one 48 GB GPU with gradient
    /// checkpointing: 65.2e9 × 4.127 / 8 B = 31.32 GiB of NF4 weights, 0.2 % adapters × 16 B =
    /// 1.94 GiB, full checkpointing at s = 512 (h = 8192, a = 64, L = 80): 0.625 GiB of layer
    /// inputs + 512·8192·(34 + 5·64·512/8192 = 54) B = 0.211 GiB for the layer being recomputed,
    /// + 2.3 GiB overhead = 36.40 ≤ 0.92 × 48 = 44.16.
    #[test]
    fn qlora_65b_fits_one_48_gb_gpu() {
        let llama65 = Arch::full_attention(80, 8192, 64, 64, 128);
        let need = fine_tuning(&bf16(0.0), 65.2, llama65, 512, 1, true);
        assert_eq!(need.method, Method::Qlora);
        assert!(close(need.breakdown[0].gib, 31.325), "{:?}", need.breakdown[0]);
        assert!(close(need.breakdown[1].gib, 1.943), "{:?}", need.breakdown[1]);
        let one = layout("A6000", 1.0, 1, Some(Recompute::Full));
        let per = need.per_gpu_at(&one);
        assert!(close(per, 36.404), "{per}");
        assert!(per <= 0.92 * 48.0);
        // Even at 2048 tokens it still fits.
        let long = fine_tuning(&bf16(0.0), 65.2, llama65, 2048, 1, true);
        assert!(long.per_gpu_at(&one) <= 0.92 * 48.0, "{}", long.per_gpu_at(&one));
        // LoRA on bf16 weights does not.
        let lora = fine_tuning(&bf16(121.4), 65.2, llama65, 512, 1, false);
        assert_eq!(lora.method, Method::Lora);
        assert!(lora.per_gpu_at(&one) > 0.92 * 48.0);
    }

    #[test]
    fn fitted_reports_the_setup() {
        let need = training(8.03, LLAMA_8B, 2048, 1);
        let f = need.fitted(layout("H100-80GB", 8.0, 8, Some(Recompute::Selective)));
        let setup = f.setup.clone().expect("setup");
        assert!(setup.contains("selective") && setup.contains("ZeRO-3"), "{setup}");
        let act = f.breakdown.iter().find(|t| t.name == "activations").expect("term");
        assert!(close(act.gib, 32.0 * 34.0 * 2048.0 * 4096.0 / 8.0 / GIB), "{act:?}");
        assert_eq!(f.layout.map(|l| l.tensor_parallel), Some(8));
    }
}
