//! Domain types shared by recommend, plan, provision and the commands.
//!
//! Plain enums with their names and facts; nothing here knows about flags (`cli` maps flags to
//! these types) or about HTTP.

use serde::Serialize;

pub mod calendar;
pub mod setting;

/// API versions in use.
pub mod api {
    /// Microsoft.ContainerService (managedClusters, agentPools, runCommand).
    pub const AKS: &str = "2026-10-01";
    /// Microsoft.ContainerService for an agent pool with `gpuProfile.nvidia.managementMode`:
    /// the newest stable version whose spec defines it (2026-08-01; the 2026-10-01 spec this
    /// repository vendors has no `nvidia`).
    pub const AKS_MANAGED_GPU: &str = "2026-08-01";
    /// Microsoft.ContainerService for an agent pool with managed MIG
    /// (`gpuProfile.nvidia.migStrategy`, `migProfiles`): preview only.
    pub const AKS_MANAGED_MIG: &str = "2026-10-02-preview";
    /// Microsoft.Compute resource SKUs.
    pub const SKUS: &str = "2021-07-01";
    /// Microsoft.Compute usages.
    pub const USAGES: &str = "2025-04-01";
    /// Microsoft.Compute capacity reservation groups.
    pub const CAPACITY_RESERVATIONS: &str = "2025-04-01";
    /// Microsoft.Quota (quota limits and requests).
    pub const QUOTA: &str = "2025-09-01";
    /// Microsoft.Features.
    pub const FEATURES: &str = "2021-07-01";
    /// Microsoft.Resources provider registration.
    pub const PROVIDERS: &str = "2021-04-01";
    /// Microsoft.Resources subscriptions list (resolving `--subscription NAME`).
    pub const SUBSCRIPTIONS: &str = "2022-12-01";
}

/// "did you mean A, B or C?" from suggestions.
///
/// ```
/// use aksgpu::domain::did_you_mean;
/// assert_eq!(did_you_mean(&["westeurope", "westus"]).as_deref(), Some("did you mean westeurope or westus?"));
/// assert_eq!(did_you_mean(&[]), None);
/// ```
pub fn did_you_mean(candidates: &[&str]) -> Option<String> {
    match candidates {
        [] => None,
        [one] => Some(format!("did you mean {one}?")),
        [init @ .., last] => Some(format!("did you mean {} or {last}?", init.join(", "))),
    }
}

/// Kind of workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Workload {
    Training,
    FineTuning,
    Inference,
    Vdi,
    Video,
    Hpc,
    DataScience,
    Cv,
}

impl Workload {
    /// Every kind, in the order the CLI lists them.
    pub const ALL: &'static [Workload] = &[
        Workload::Training,
        Workload::FineTuning,
        Workload::Inference,
        Workload::Vdi,
        Workload::Video,
        Workload::Hpc,
        Workload::DataScience,
        Workload::Cv,
    ];

    /// Name as typed on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Workload::Training => "training",
            Workload::FineTuning => "fine-tuning",
            Workload::Inference => "inference",
            Workload::Vdi => "vdi",
            Workload::Video => "video",
            Workload::Hpc => "hpc",
            Workload::DataScience => "data-science",
            Workload::Cv => "cv",
        }
    }

    /// What the kind means and how `recommend` sizes it (the `--workload` help).
    pub fn describe(self) -> Option<&'static str> {
        Some(match self {
            Workload::Training => {
                "full fine-tuning or pre-training: weights, gradients and optimizer state (mixed-precision Adam), sharded across GPUs and InfiniBand nodes; whole GPUs"
            }
            Workload::FineTuning => {
                "LoRA/QLoRA adapters: the frozen model (int4 for QLoRA) plus small trainable adapters and their optimizer state; one node first"
            }
            Workload::Inference => {
                "LLM serving: weights plus KV cache for the concurrency, tensor- or pipeline-parallel when needed; up to 8 nodes"
            }
            Workload::Vdi => "virtual desktops: NV sizes with the GRID (vGPU) driver; one node",
            Workload::Video => "video encode/transcode: GPUs with NVENC; one node",
            Workload::Hpc => "MPI/HPC jobs across nodes: InfiniBand sizes, whole GPUs",
            Workload::DataScience => "notebooks and RAPIDS: whole GPUs of compute capability 7.0 or later; one node",
            Workload::Cv => "computer vision and other GPU jobs sized by the GPU memory and GPU count asked for; one node",
        })
    }

    /// The most nodes one pool of this kind is sized to.
    pub fn max_nodes(self) -> u32 {
        match self {
            Workload::Training | Workload::Hpc => 64,
            Workload::FineTuning => 16,
            Workload::Inference => 8,
            _ => 1,
        }
    }
}

/// Node operating system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Os {
    Linux,
    Windows,
}

impl Os {
    /// Both, in the order the CLI lists them.
    pub const ALL: &'static [Os] = &[Os::Linux, Os::Windows];

    /// Lower-case name (as typed on the command line and used by the catalog's rules).
    pub fn name(self) -> &'static str {
        match self {
            Os::Linux => "linux",
            Os::Windows => "windows",
        }
    }
}

/// What `recommend` ranks serving deployments by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RankBy {
    /// The cheapest deployment (all nodes) that meets every target.
    #[default]
    Price,
    /// The lowest USD per million output tokens.
    CostPerToken,
}

impl RankBy {
    /// Both, in the order the CLI lists them.
    pub const ALL: &'static [RankBy] = &[RankBy::Price, RankBy::CostPerToken];

    /// As typed on the command line.
    pub fn name(self) -> &'static str {
        match self {
            RankBy::Price => "price",
            RankBy::CostPerToken => "cost-per-token",
        }
    }
}

/// Numeric precision of weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    Fp32,
    Bf16,
    Fp16,
    Fp8,
    Int8,
    Int4,
    /// OCP microscaling FP4: 32 four-bit values share one 8-bit scale (4.25 bits per weight).
    Mxfp4,
    /// NVIDIA's NVFP4: 16 four-bit (E2M1) values share one FP8 (E4M3) scale, plus one FP32
    /// scale per tensor (4.5 bits per weight).
    Nvfp4,
}

impl Precision {
    /// Every precision, in the order the CLI lists them.
    pub const ALL: &'static [Precision] = &[
        Precision::Fp32,
        Precision::Bf16,
        Precision::Fp16,
        Precision::Fp8,
        Precision::Int8,
        Precision::Int4,
        Precision::Mxfp4,
        Precision::Nvfp4,
    ];

    /// The precision a name people use stands for, in any case: the names above, and `fp4`
    /// for MXFP4 (the 4-bit format gpt-oss ships in).
    pub fn parse(name: &str) -> Option<Precision> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("fp4") {
            return Some(Precision::Mxfp4);
        }
        Precision::ALL.iter().copied().find(|p| p.name().eq_ignore_ascii_case(name))
    }

    /// True for the 4-bit floating-point formats with block scales (MXFP4, NVFP4).
    pub fn is_fp4(self) -> bool {
        matches!(self, Precision::Mxfp4 | Precision::Nvfp4)
    }

    /// Bytes per weight.
    pub fn bytes(self) -> f64 {
        match self {
            Precision::Fp32 => 4.0,
            Precision::Bf16 | Precision::Fp16 => 2.0,
            Precision::Fp8 | Precision::Int8 => 1.0,
            Precision::Int4 => 0.5,
            Precision::Mxfp4 => 4.25 / 8.0,
            // 4 bits + one 8-bit scale per 16 values.
            Precision::Nvfp4 => 4.5 / 8.0,
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
            Precision::Mxfp4 => "mxfp4",
            Precision::Nvfp4 => "nvfp4",
        }
    }

    /// A one-line description where the name alone does not say it.
    pub fn describe(self) -> Option<&'static str> {
        match self {
            Precision::Mxfp4 => {
                Some("OCP microscaling FP4: 32 four-bit values share one 8-bit scale (4.25 bits per weight); alias fp4")
            }
            Precision::Nvfp4 => Some("NVIDIA NVFP4: 16 four-bit values share one FP8 scale (4.5 bits per weight)"),
            _ => None,
        }
    }
}

/// Whether AKS installs the GPU driver on a new pool (`gpuProfile.driver`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum GpuDriver {
    /// AKS installs it (the default for NVIDIA sizes).
    Install,
    /// No driver: the NVIDIA GPU Operator (or AMD's) installs it.
    None,
}

impl GpuDriver {
    /// Both, in the order the CLI lists them.
    pub const ALL: &'static [GpuDriver] = &[GpuDriver::Install, GpuDriver::None];

    /// Lower-case name, as typed on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GpuDriver::Install => "install",
            GpuDriver::None => "none",
        }
    }

    /// The `gpuProfile.driver` value ARM takes.
    pub fn arm(self) -> &'static str {
        match self {
            GpuDriver::Install => "Install",
            GpuDriver::None => "None",
        }
    }
}

/// What happens to an evicted spot node (`scaleSetEvictionPolicy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum EvictionPolicy {
    Delete,
    Deallocate,
}

impl EvictionPolicy {
    /// Both, in the order the CLI lists them.
    pub const ALL: &'static [EvictionPolicy] = &[EvictionPolicy::Delete, EvictionPolicy::Deallocate];

    /// ARM's spelling (the CLI takes any case).
    pub fn name(self) -> &'static str {
        match self {
            EvictionPolicy::Delete => "Delete",
            EvictionPolicy::Deallocate => "Deallocate",
        }
    }
}

/// The node OS disk (`osDiskType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum OsDiskType {
    Managed,
    Ephemeral,
}

impl OsDiskType {
    /// Both, in the order the CLI lists them.
    pub const ALL: &'static [OsDiskType] = &[OsDiskType::Managed, OsDiskType::Ephemeral];

    /// ARM's spelling (the CLI takes any case).
    pub fn name(self) -> &'static str {
        match self {
            OsDiskType::Managed => "Managed",
            OsDiskType::Ephemeral => "Ephemeral",
        }
    }
}

/// The GPU Operator's label that keeps every one of its operands off a node
/// (`nvidia.com/gpu.deploy.operands`, NVIDIA GPU Operator docs, "Common chart customization
/// options"): AKS-managed GPU pools carry it, since AKS owns their whole NVIDIA stack.
pub const NO_OPERANDS_LABEL: (&str, &str) = ("nvidia.com/gpu.deploy.operands", "false");

/// Who provides the NVIDIA driver on the GPU nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DriverMode {
    /// AKS installed the driver (pool `gpuProfile.driver` Install, the default): the operator
    /// installs neither driver nor container toolkit (`driver.enabled=false`,
    /// `toolkit.enabled=false`, `operator.runtimeClass=nvidia-container-runtime`, as in NVIDIA's AKS
    /// guidance).
    Aks,
    /// The pool was created with `gpuProfile.driver` None: the operator installs the driver and the
    /// toolkit (chart defaults).
    Operator,
}

/// How the device plugin exposes MIG devices (`mig.strategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MigStrategy {
    /// Every GPU on a node has the same MIG layout; slices are `nvidia.com/gpu`.
    Single,
    /// Layouts may differ; slices are `nvidia.com/mig-<profile>`.
    Mixed,
}

impl MigStrategy {
    /// The chart's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            MigStrategy::Single => "single",
            MigStrategy::Mixed => "mixed",
        }
    }
}

/// True for the terminal `provisioningState`s / operation statuses (any case): `Succeeded`,
/// `Failed`, `Canceled`, `Cancelled`. Everything else (including free-form text such as
/// "CreatingAgentPool: 0/1 nodes completed") means still running (the states AKS was seen to
/// answer, as the lro module docs list them).
pub fn is_terminal(state: &str) -> bool {
    matches!(state.trim().to_ascii_lowercase().as_str(), "succeeded" | "failed" | "canceled" | "cancelled")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_serde() {
        for w in Workload::ALL {
            assert_eq!(serde_json::to_value(w).ok(), Some(serde_json::json!(w.name())), "{w:?}");
        }
        for o in Os::ALL {
            assert_eq!(serde_json::to_value(o).ok(), Some(serde_json::json!(o.name())), "{o:?}");
        }
        for p in Precision::ALL {
            assert_eq!(serde_json::to_value(p).ok(), Some(serde_json::json!(p.name())), "{p:?}");
            assert_eq!(Precision::parse(&p.name().to_uppercase()), Some(*p));
        }
        assert_eq!(Precision::parse("FP4"), Some(Precision::Mxfp4));
        assert_eq!(Precision::parse("NVFP4"), Some(Precision::Nvfp4));
        assert_eq!(Precision::parse("fp6"), None);
        // NVFP4: 4-bit values and an 8-bit scale per 16 of them.
        assert!((Precision::Nvfp4.bytes() * 8.0 - (4.0 + 8.0 / 16.0)).abs() < 1e-12);
    }
}
