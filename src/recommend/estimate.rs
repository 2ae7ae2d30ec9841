//! GPU memory estimates for LLM workloads (pure arithmetic, no catalog look-ups).
//!
//! Inference follows KAITO's estimator: weights × 1.02, a fixed ~2.3 GiB per GPU for the CUDA
//! context and runtime, the KV cache `2 × layers × KV heads × head dim × bytes × context ×
//! concurrency`, and only 84 % of a GPU's memory usable. Weights and KV cache are split across
//! the tensor-parallel GPUs of a VM. Full training uses the mixed-precision AdamW accounting of
//! 18 bytes per parameter (16 in fp32), sharded across GPUs (ZeRO-3/FSDP), plus activations of
//! `34 × sequence × batch × hidden` bytes per layer (Korthikanti et al. 2022, selective
//! recomputation) on every GPU. Fine-tuning is LoRA on frozen weights (QLoRA at int4): the
//! frozen weights, 16 bytes per adapter parameter (adapters taken as 1 % of the model), and the
//! same activations.

use serde::Serialize;

/// Fraction of a GPU's memory a serving stack can use (KAITO: 0.84).
pub const USABLE_FRACTION: f64 = 0.84;
/// Weight size factor for runtime copies and alignment (KAITO: 1.02).
pub const WEIGHT_FACTOR: f64 = 1.02;
/// Fixed per-GPU overhead in GiB: CUDA context, runtime, buffers (KAITO: ≈ 2.3 GiB).
pub const OVERHEAD_PER_GPU_GIB: f64 = 2.3;
/// Bytes per parameter for full mixed-precision AdamW training (weights 6 + grads 4 + Adam 8).
pub const TRAIN_BYTES_MIXED: f64 = 18.0;
/// Bytes per parameter for full fp32 AdamW training (weights 4 + grads 4 + Adam 8).
pub const TRAIN_BYTES_FP32: f64 = 16.0;
/// Activation bytes per layer per token per hidden unit (selective recomputation).
pub const ACTIVATION_BYTES: f64 = 34.0;
/// LoRA adapter parameters as a fraction of the model.
pub const LORA_FRACTION: f64 = 0.01;
/// Bytes per LoRA adapter parameter (fp32 master + grads + Adam).
pub const LORA_BYTES: f64 = 16.0;

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

/// Serialize GiB figures to three decimals (JSON readers don't need float noise).
pub fn round3<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((v * 1000.0).round() / 1000.0)
}

/// Numeric precision of weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    Fp32,
    Bf16,
    Fp16,
    Fp8,
    Int8,
    Int4,
}

impl Precision {
    /// Bytes per weight.
    pub fn bytes(self) -> f64 {
        match self {
            Precision::Fp32 => 4.0,
            Precision::Bf16 | Precision::Fp16 => 2.0,
            Precision::Fp8 | Precision::Int8 => 1.0,
            Precision::Int4 => 0.5,
        }
    }

    /// Bytes per KV-cache value: the cache stays 16-bit unless the model runs in fp32.
    pub fn kv_bytes(self) -> f64 {
        if self == Precision::Fp32 {
            4.0
        } else {
            2.0
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Precision::Fp32 => "fp32",
            Precision::Bf16 => "bf16",
            Precision::Fp16 => "fp16",
            Precision::Fp8 => "fp8",
            Precision::Int8 => "int8",
            Precision::Int4 => "int4",
        }
    }
}

/// Architecture numbers the estimator needs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Arch {
    pub layers: u32,
    pub hidden_size: u32,
    pub kv_heads: u32,
    pub head_dim: u32,
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

/// A memory requirement: a part that splits across GPUs and a part every GPU carries.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Need {
    pub method: Method,
    /// GiB that split evenly across the GPUs used (weights, KV cache, optimizer states).
    #[serde(serialize_with = "round3")]
    pub sharded_gib: f64,
    /// GiB every GPU carries (runtime overhead, activations).
    #[serde(serialize_with = "round3")]
    pub per_gpu_gib: f64,
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
    pub weight_factor: f64,
    pub overhead_per_gpu_gib: f64,
    pub bytes_per_param: f64,
    pub kv_bytes_per_value: f64,
}

impl Need {
    /// GiB each of `n` GPUs needs.
    pub fn per_gpu(&self, n: f64) -> f64 {
        self.sharded_gib / n.max(1e-9) + self.per_gpu_gib
    }

    /// Total GiB across `n` GPUs.
    pub fn total(&self, n: f64) -> f64 {
        self.sharded_gib + self.per_gpu_gib * n
    }
}

fn gib(bytes: f64) -> f64 {
    bytes / GIB
}

/// Inference: weights and KV cache (sharded by tensor parallelism) plus per-GPU overhead.
pub fn inference(params_b: f64, arch: Arch, precision: Precision, context: u64, concurrency: u64) -> Need {
    let weights = gib(params_b * 1e9 * precision.bytes());
    let bpt = 2.0 * f64::from(arch.layers) * f64::from(arch.kv_heads) * f64::from(arch.head_dim) * precision.kv_bytes();
    let kv = gib(bpt * context as f64 * concurrency as f64);
    Need {
        method: Method::Inference,
        sharded_gib: weights * WEIGHT_FACTOR + kv,
        per_gpu_gib: OVERHEAD_PER_GPU_GIB,
        breakdown: vec![
            Term {
                name: "weights",
                gib: weights * WEIGHT_FACTOR,
                sharded: true,
                formula: format!("{params_b}e9 params × {} B × {WEIGHT_FACTOR}", precision.bytes()),
            },
            Term {
                name: "kv_cache",
                gib: kv,
                sharded: true,
                formula: format!(
                    "2 × {} layers × {} KV heads × {} head dim × {} B × {context} tokens × {concurrency} sequences",
                    arch.layers,
                    arch.kv_heads,
                    arch.head_dim,
                    precision.kv_bytes()
                ),
            },
            overhead_term(),
        ],
        constants: constants(precision.bytes(), precision.kv_bytes()),
    }
}

/// Full training with AdamW, states sharded across GPUs, activations per GPU.
pub fn training(params_b: f64, arch: Arch, precision: Precision, seq: u64, micro_batch: u64) -> Need {
    let bpp = if precision == Precision::Fp32 { TRAIN_BYTES_FP32 } else { TRAIN_BYTES_MIXED };
    let states = gib(params_b * 1e9 * bpp);
    let act = activations(arch, seq, micro_batch);
    Need {
        method: Method::FullTraining,
        sharded_gib: states,
        per_gpu_gib: act.gib + OVERHEAD_PER_GPU_GIB,
        breakdown: vec![
            Term {
                name: "weights_grads_optimizer",
                gib: states,
                sharded: true,
                formula: format!("{params_b}e9 params × {bpp} B (AdamW, ZeRO-3/FSDP sharded)"),
            },
            act,
            overhead_term(),
        ],
        constants: constants(bpp, precision.kv_bytes()),
    }
}

/// LoRA fine-tuning on frozen weights (QLoRA when the weights are int4).
pub fn fine_tuning(params_b: f64, arch: Arch, precision: Precision, seq: u64, micro_batch: u64) -> Need {
    let weights = gib(params_b * 1e9 * precision.bytes()) * WEIGHT_FACTOR;
    let adapters = gib(params_b * 1e9 * LORA_FRACTION * LORA_BYTES);
    let act = activations(arch, seq, micro_batch);
    let method = if precision == Precision::Int4 { Method::Qlora } else { Method::Lora };
    Need {
        method,
        sharded_gib: weights + adapters,
        per_gpu_gib: act.gib + OVERHEAD_PER_GPU_GIB,
        breakdown: vec![
            Term {
                name: "frozen_weights",
                gib: weights,
                sharded: true,
                formula: format!("{params_b}e9 params × {} B × {WEIGHT_FACTOR}", precision.bytes()),
            },
            Term {
                name: "adapter_states",
                gib: adapters,
                sharded: true,
                formula: format!("{LORA_FRACTION} × {params_b}e9 adapter params × {LORA_BYTES} B"),
            },
            act,
            overhead_term(),
        ],
        constants: constants(precision.bytes(), precision.kv_bytes()),
    }
}

fn activations(arch: Arch, seq: u64, micro_batch: u64) -> Term {
    let bytes =
        f64::from(arch.layers) * seq as f64 * micro_batch as f64 * f64::from(arch.hidden_size) * ACTIVATION_BYTES;
    Term {
        name: "activations",
        gib: gib(bytes),
        sharded: false,
        formula: format!(
            "{} layers × {seq} tokens × {micro_batch} micro-batch × {} hidden × {ACTIVATION_BYTES} B",
            arch.layers, arch.hidden_size
        ),
    }
}

fn overhead_term() -> Term {
    Term {
        name: "runtime_overhead",
        gib: OVERHEAD_PER_GPU_GIB,
        sharded: false,
        formula: "fixed per GPU (CUDA context, runtime)".to_owned(),
    }
}

fn constants(bytes_per_param: f64, kv: f64) -> Constants {
    Constants {
        usable_fraction: USABLE_FRACTION,
        weight_factor: WEIGHT_FACTOR,
        overhead_per_gpu_gib: OVERHEAD_PER_GPU_GIB,
        bytes_per_param,
        kv_bytes_per_value: kv,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LLAMA_8B: Arch = Arch { layers: 32, hidden_size: 4096, kv_heads: 8, head_dim: 128 };

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.01
    }

    /// Hand-worked: 8.03e9 × 2 B = 14.957 GiB; × 1.02 = 15.256. KV per token
    /// 2 × 32 × 8 × 128 × 2 = 131072 B = 0.125 MiB; × 2048 tokens = 0.25 GiB.
    /// One GPU needs 15.256 + 0.25 + 2.3 = 17.806 GiB; an A10 (24 GiB) offers 0.84 × 24 = 20.16.
    #[test]
    fn inference_llama_8b_matches_hand_worked_figures() {
        let need = inference(8.03, LLAMA_8B, Precision::Bf16, 2048, 1);
        assert!(close(need.breakdown[0].gib, 15.256), "{:?}", need.breakdown[0]);
        assert!(close(need.breakdown[1].gib, 0.25), "{:?}", need.breakdown[1]);
        assert!(close(need.per_gpu(1.0), 17.806), "{}", need.per_gpu(1.0));
        assert!(need.per_gpu(1.0) <= 0.84 * 24.0);
        // Two T4s (16 GiB each, 13.44 usable): 15.506 / 2 + 2.3 = 10.053 per GPU.
        assert!(close(need.per_gpu(2.0), 10.053), "{}", need.per_gpu(2.0));
        assert!(need.per_gpu(1.0) > 0.84 * 16.0);
    }

    /// 70B at int4: 70e9 × 0.5 B = 32.596 GiB × 1.02 = 33.248; KV (80 layers, 8 KV heads, 128)
    /// 327680 B/token × 4096 × 4 = 5.0 GiB; total sharded 38.248.
    #[test]
    fn inference_scales_with_precision_context_and_concurrency() {
        let arch = Arch { layers: 80, hidden_size: 8192, kv_heads: 8, head_dim: 128 };
        let need = inference(70.0, arch, Precision::Int4, 4096, 4);
        assert!(close(need.sharded_gib, 38.248), "{}", need.sharded_gib);
        let fp16 = inference(70.0, arch, Precision::Fp16, 4096, 4);
        assert!(fp16.sharded_gib > need.sharded_gib * 1.8);
    }

    /// 8.03e9 × 18 B = 134.61 GiB of states; activations 32 × 2048 × 1 × 4096 × 34 B = 8.5 GiB.
    #[test]
    fn training_uses_18_bytes_per_param_and_activations() {
        let need = training(8.03, LLAMA_8B, Precision::Bf16, 2048, 1);
        assert!(close(need.sharded_gib, 134.613), "{}", need.sharded_gib);
        assert!(close(need.per_gpu_gib, 8.5 + 2.3), "{}", need.per_gpu_gib);
        // Eight 80 GiB GPUs: 134.6/8 + 10.8 = 27.6 GiB each.
        assert!(need.per_gpu(8.0) < 0.84 * 80.0);
        assert_eq!(training(1.0, LLAMA_8B, Precision::Fp32, 1, 1).constants.bytes_per_param, 16.0);
    }

    #[test]
    fn fine_tuning_is_lora_or_qlora() {
        let lora = fine_tuning(8.03, LLAMA_8B, Precision::Bf16, 2048, 1);
        assert_eq!(lora.method, Method::Lora);
        // 15.256 frozen + 8.03e9 × 0.01 × 16 B = 1.197 GiB adapters.
        assert!(close(lora.sharded_gib, 15.256 + 1.197), "{}", lora.sharded_gib);
        let qlora = fine_tuning(8.03, LLAMA_8B, Precision::Int4, 2048, 1);
        assert_eq!(qlora.method, Method::Qlora);
        assert!(qlora.sharded_gib < lora.sharded_gib / 2.0);
    }
}
