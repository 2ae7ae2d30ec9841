//! The catalog's data types: what the YAML files say (`*File` types, strict) and the resolved
//! records the rest of the program reads (`VmSize`, `GpuModel`, …).
//!
//! Series-level facts in `sizes/*.yaml` are inherited by each size unless the size overrides
//! them, so the files stay short and every resolved `VmSize` is complete on its own.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// GPU vendor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Vendor {
    #[serde(rename = "NVIDIA")]
    Nvidia,
    #[serde(rename = "AMD")]
    Amd,
}

impl fmt::Display for Vendor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Vendor::Nvidia => "NVIDIA",
            Vendor::Amd => "AMD",
        })
    }
}

/// GPU driver AKS installs on a node of this size, as AKS's node bootstrap chooses it
/// (Azure/AgentBaker `GetGPUDriverType`: `cuda`/`cuda-lts`, `grid`, `grid-v20`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Driver {
    /// NVIDIA CUDA (datacenter) driver: most NC and ND sizes.
    Cuda,
    /// NVIDIA GRID (vGPU, "converged") driver: the A10 sizes (NVads A10 v5, NCads A10 v4).
    Grid,
    /// NVIDIA GRID v20 (R595) driver: the RTX PRO 6000 Blackwell sizes (NCv6).
    #[serde(rename = "grid-v20")]
    GridV20,
    /// AKS installs no driver (AMD sizes, confidential NCC): the user brings the driver/operator.
    None,
}

impl Driver {
    /// True for either GRID (vGPU) driver branch.
    pub fn is_grid(self) -> bool {
        matches!(self, Driver::Grid | Driver::GridV20)
    }
}

impl fmt::Display for Driver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Driver::Cuda => "cuda",
            Driver::Grid => "grid",
            Driver::GridV20 => "grid-v20",
            Driver::None => "none",
        })
    }
}

/// CPU architecture of the VM host, as Resource SKU data names it (`CpuArchitectureType`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CpuArch {
    /// x86-64 (every GPU size but the Grace-based ones).
    #[default]
    #[serde(rename = "x64")]
    X64,
    /// Arm64 (NVIDIA Grace hosts): node images and containers must be built for arm64.
    Arm64,
}

/// Lifecycle of a size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Generally available.
    Current,
    /// Retirement announced, still available.
    Retiring,
    /// No longer available.
    Retired,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Current => "current",
            Status::Retiring => "retiring",
            Status::Retired => "retired",
        })
    }
}

/// A GPU count that may be a fraction (partial GPUs), written as `1` or `"1/6"`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GpuCount {
    /// Numerator.
    pub num: u32,
    /// Denominator (1 for whole GPUs).
    pub den: u32,
}

impl GpuCount {
    /// The count as a number.
    pub fn value(self) -> f64 {
        f64::from(self.num) / f64::from(self.den)
    }

    /// True when the VM has less than one whole GPU.
    pub fn is_partial(self) -> bool {
        self.num < self.den
    }

    /// Whole GPUs (0 for partial GPUs).
    pub fn whole(self) -> u32 {
        if self.den == 1 {
            self.num
        } else {
            self.num / self.den
        }
    }

    /// Parse `"3"`, `"1/6"` or `"0.5"` (decimals only for halves, quarters and eighths).
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if let Some((n, d)) = text.split_once('/') {
            let num: u32 = n.trim().parse().map_err(|_| format!("bad numerator in {text:?}"))?;
            let den: u32 = d.trim().parse().map_err(|_| format!("bad denominator in {text:?}"))?;
            if num == 0 || den == 0 {
                return Err(format!("GPU count {text:?} must be positive"));
            }
            return Ok(Self { num, den });
        }
        let v: f64 = text.parse().map_err(|_| format!("bad GPU count {text:?}"))?;
        Self::from_f64(v)
            .ok_or_else(|| format!("GPU count {text:?} must be a positive whole number or a fraction like \"1/6\""))
    }

    fn from_f64(v: f64) -> Option<Self> {
        if !(v.is_finite() && v > 0.0) {
            return None;
        }
        for den in [1u32, 2, 3, 4, 6, 8] {
            let num = v * f64::from(den);
            if (num - num.round()).abs() < 1e-9 && num.round() >= 1.0 && num.round() <= 1e6 {
                return Some(Self { num: num.round() as u32, den });
            }
        }
        None
    }
}

impl fmt::Display for GpuCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

/// People and scripts read a number (`0.1667`); the bundled binary catalog (build.rs, postcard)
/// keeps the exact fraction as `(num, den)`.
impl Serialize for GpuCount {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.serialize_f64((self.value() * 10_000.0).round() / 10_000.0)
        } else {
            (self.num, self.den).serialize(s)
        }
    }
}

impl<'de> Deserialize<'de> for GpuCount {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if !d.is_human_readable() {
            let (num, den) = <(u32, u32)>::deserialize(d)?;
            if num == 0 || den == 0 {
                return Err(serde::de::Error::custom(format!("GPU count {num}/{den} must be positive")));
            }
            return Ok(Self { num, den });
        }
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Num(f64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Num(v) => GpuCount::from_f64(v).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "gpu_count {v} must be a positive whole number or a fraction like \"1/6\""
                ))
            }),
            Raw::Text(t) => GpuCount::parse(&t).map_err(serde::de::Error::custom),
        }
    }
}

/// Text shared by every size of a series: resolving a series into sizes copies a pointer, not
/// the text.
pub type Shared = Arc<str>;

/// Deserialize text straight into an `Arc<str>`: one allocation, where serde's own impl builds
/// a `String` and then copies it into the `Arc`.
mod shared {
    use super::Shared;
    use serde::de::{Deserialize, Deserializer, Visitor};

    struct One(Shared);

    impl<'de> Deserialize<'de> for One {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct Text;
            impl Visitor<'_> for Text {
                type Value = One;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("a string")
                }
                fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<One, E> {
                    Ok(One(Shared::from(v)))
                }
            }
            d.deserialize_str(Text)
        }
    }

    pub fn one<'de, D: Deserializer<'de>>(d: D) -> Result<Shared, D::Error> {
        One::deserialize(d).map(|o| o.0)
    }

    pub fn opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Shared>, D::Error> {
        Option::<One>::deserialize(d).map(|o| o.map(|o| o.0))
    }
}

fn no_os_skus() -> Arc<[String]> {
    Arc::from([])
}

/// AKS facts for a series or size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AksSupport {
    /// AKS accepts this size for GPU node pools.
    pub supported: bool,
    /// OS SKUs AKS allows for it (`Ubuntu`, `AzureLinux`, `Windows2022`, …).
    #[serde(default = "no_os_skus")]
    pub os_skus: Arc<[String]>,
    /// Short note (e.g. "preview").
    #[serde(default, deserialize_with = "shared::opt")]
    pub note: Option<Shared>,
    /// Where `supported` and `os_skus` come from: AKS docs and/or AKS's node-provisioning code
    /// (`repo:path@commit`).
    #[serde(default, deserialize_with = "shared::opt")]
    pub source: Option<Shared>,
}

impl AksSupport {
    /// True if any allowed OS SKU is a Windows one.
    pub fn windows(&self) -> bool {
        self.os_skus.iter().any(|s| s.starts_with("Windows"))
    }

    /// True if any allowed OS SKU is a Linux one.
    pub fn linux(&self) -> bool {
        self.os_skus.iter().any(|s| !s.starts_with("Windows"))
    }
}

/// One size as written in `sizes/*.yaml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SizeFile {
    pub name: String,
    pub vcpus: u32,
    pub memory_gib: f64,
    pub gpu_count: GpuCount,
    pub gpu_memory_gib: f64,
    #[serde(default)]
    pub temp_storage_gib: Option<f64>,
    #[serde(default)]
    pub status: Option<Status>,
    #[serde(default, deserialize_with = "shared::opt")]
    pub retirement_date: Option<Shared>,
    #[serde(default)]
    pub aks: Option<AksSupport>,
    #[serde(default)]
    pub driver: Option<Driver>,
    #[serde(default)]
    pub hyperv_generations: Option<Arc<[u8]>>,
    #[serde(default, deserialize_with = "shared::opt")]
    pub interconnect: Option<Shared>,
    #[serde(default, deserialize_with = "shared::opt")]
    pub note: Option<Shared>,
}

/// One series as written in `sizes/*.yaml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeriesFile {
    #[serde(deserialize_with = "shared::one")]
    pub series: Shared,
    #[serde(deserialize_with = "shared::one")]
    pub family: Shared,
    #[serde(deserialize_with = "shared::one")]
    pub source: Shared,
    pub status: Status,
    #[serde(default, deserialize_with = "shared::opt")]
    pub retirement_date: Option<Shared>,
    #[serde(default, deserialize_with = "shared::opt")]
    pub retirement_source: Option<Shared>,
    #[serde(deserialize_with = "shared::one")]
    pub gpu_model: Shared,
    pub driver: Driver,
    /// Where the `driver` fact comes from (`repo:path@commit` or a doc path).
    #[serde(default, deserialize_with = "shared::opt")]
    pub driver_source: Option<Shared>,
    /// Host CPU architecture; x64 when absent.
    #[serde(default)]
    pub cpu_architecture: CpuArch,
    #[serde(default, deserialize_with = "shared::opt")]
    pub interconnect: Option<Shared>,
    #[serde(default)]
    pub hyperv_generations: Option<Arc<[u8]>>,
    #[serde(default, deserialize_with = "shared::opt")]
    pub quota_family: Option<Shared>,
    pub aks: AksSupport,
    #[serde(default, deserialize_with = "shared::opt")]
    pub note: Option<Shared>,
    pub sizes: Vec<SizeFile>,
}

/// A resolved VM size: every fact the tool knows about it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VmSize {
    pub name: String,
    pub family: Shared,
    pub series: Shared,
    pub vcpus: u32,
    pub memory_gib: f64,
    pub gpu_vendor: Vendor,
    pub gpu_model: Shared,
    pub gpu_count: GpuCount,
    /// GPU memory of the whole VM (its share, for partial GPUs).
    pub gpu_memory_gib: f64,
    /// GPU memory one VM's GPU offers (the share, for partial GPUs).
    pub gpu_memory_per_gpu_gib: f64,
    pub driver: Driver,
    pub driver_source: Option<Shared>,
    pub cpu_architecture: CpuArch,
    pub mig_capable: bool,
    pub aks_supported: bool,
    pub aks_os_skus: Arc<[String]>,
    pub aks_note: Option<Shared>,
    pub aks_source: Option<Shared>,
    pub status: Status,
    pub retirement_date: Option<Shared>,
    pub retirement_source: Option<Shared>,
    pub interconnect: Option<Shared>,
    pub hyperv_generations: Arc<[u8]>,
    pub quota_family: Option<Shared>,
    pub temp_storage_gib: Option<f64>,
    pub note: Option<Shared>,
    pub source: Shared,
}

impl VmSize {
    /// The short name without the `Standard_` prefix.
    pub fn short_name(&self) -> &str {
        self.name.strip_prefix("Standard_").unwrap_or(&self.name)
    }

    /// True if the size has InfiniBand.
    pub fn infiniband(&self) -> bool {
        self.interconnect.as_deref().is_some_and(|i| i.to_ascii_lowercase().contains("infiniband"))
    }
}

/// One MIG profile of a GPU model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MigProfile {
    /// AKS `gpuInstanceProfile` value: MIG1g, MIG2g, MIG3g, MIG4g, MIG7g.
    pub profile: String,
    /// NVIDIA profile name, e.g. `1g.10gb`.
    pub slice: String,
    /// Instances per GPU.
    pub instances: u32,
    /// Memory per instance.
    pub memory_gib: f64,
}

/// A GPU model.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuModel {
    pub id: String,
    pub vendor: Vendor,
    pub name: String,
    #[serde(default)]
    pub architecture: Option<String>,
    pub memory_gib: f64,
    #[serde(default)]
    pub compute_capability: Option<String>,
    pub bf16: bool,
    pub fp8: bool,
    pub nvenc: bool,
    pub source: String,
    #[serde(default)]
    pub mig_profiles: Vec<MigProfile>,
    #[serde(default)]
    pub note: Option<String>,
    /// Datasheet performance, for serving estimates; `None` where not recorded.
    #[serde(default)]
    pub perf: Option<GpuPerf>,
}

/// Dense (never the 2:4-sparse) tensor throughput of one GPU per precision, in TFLOPS (TOPS for
/// int8); `None` where the GPU has no such path.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DenseTflops {
    #[serde(default)]
    pub fp32: Option<f64>,
    #[serde(default)]
    pub tf32: Option<f64>,
    #[serde(default)]
    pub fp16: Option<f64>,
    #[serde(default)]
    pub bf16: Option<f64>,
    #[serde(default)]
    pub fp8: Option<f64>,
    #[serde(default)]
    pub int8: Option<f64>,
    #[serde(default)]
    pub fp4: Option<f64>,
}

/// How the GPUs of one VM talk to each other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuLink {
    /// `nvlink`, `infinity-fabric` or `pcie`.
    pub kind: String,
    /// GB/s one GPU can send to its peers in one direction (what a ring all-reduce sees).
    pub bandwidth_gb_s: f64,
}

/// Datasheet figures of one GPU: what the serving roofline needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuPerf {
    pub dense_tflops: DenseTflops,
    /// HBM (or GDDR) bandwidth of one GPU, GB/s (10⁹ bytes per second).
    pub memory_bandwidth_gb_s: f64,
    pub interconnect: GpuLink,
    /// The datasheet(s) the figures come from.
    pub source: String,
}

impl GpuModel {
    /// Compute capability as (major, minor), if known.
    pub fn cc(&self) -> Option<(u32, u32)> {
        let cc = self.compute_capability.as_deref()?;
        let (a, b) = cc.split_once('.').unwrap_or((cc, "0"));
        Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
    }
}

/// Prices for one size in one region, USD per hour; `None` = unknown.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegionPrice {
    #[serde(default)]
    pub linux: Option<f64>,
    #[serde(default)]
    pub linux_spot: Option<f64>,
    #[serde(default)]
    pub windows: Option<f64>,
    #[serde(default)]
    pub windows_spot: Option<f64>,
}

/// `prices.yaml`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceTable {
    pub currency: String,
    pub as_of: String,
    pub source: String,
    /// Where each price field comes from, with its date.
    #[serde(default)]
    pub sources: Vec<PriceOrigin>,
    #[serde(default)]
    pub notes: Vec<String>,
    /// size name → region → prices. May name sizes the catalog does not list (ignored).
    /// Region names are shared: the bundled table has about 1,400 entries in 52 regions.
    pub sizes: BTreeMap<String, BTreeMap<Shared, RegionPrice>>,
    /// Bundled only: priced sizes the catalog does not list, whose prices are not loaded
    /// (they would be ignored at lookup).
    #[serde(skip)]
    pub unlisted: Vec<String>,
    /// Entries replaced by the live price cache: size → ("live cache, fetched …", the
    /// regions whose prices it replaced).
    #[serde(skip)]
    pub from_cache: BTreeMap<String, (std::sync::Arc<str>, Vec<Shared>)>,
}

/// One source of `prices.yaml`: which fields (`linux`, `linux_spot`, `windows`,
/// `windows_spot`) it fills, as of when.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceOrigin {
    pub id: String,
    pub fields: Vec<String>,
    /// YYYY-MM-DD, or `unknown`.
    pub as_of: String,
    pub source: String,
}

/// An Azure region from `regions.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Region {
    /// ARM programmatic name (`westeurope`).
    pub name: String,
    pub display_name: String,
    pub geography: String,
    /// `restricted` or `coming soon`; absent when generally available.
    #[serde(default)]
    pub access: Option<String>,
    /// Where the region comes from when not the file's `source`.
    #[serde(default)]
    pub source: Option<String>,
}

/// `regions.yaml`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegionList {
    pub source: String,
    pub regions: Vec<Region>,
}

/// The format of a model's published weights (the checkpoint on disk).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NativeDtype {
    Bf16,
    Fp16,
    Fp32,
    Fp8,
    /// MXFP4 mixture-of-experts weights with the rest in BF16 (gpt-oss).
    Mxfp4,
    /// 8-bit integer weights (GPTQ/AWQ/bitsandbytes 8-bit checkpoints).
    Int8,
    /// 4-bit integer weights (GPTQ/AWQ 4-bit checkpoints).
    Int4,
}

impl NativeDtype {
    /// Bytes per parameter of the bulk of the weights (MXFP4: 4 bits + one 8-bit scale per 32).
    pub fn bytes(self) -> f64 {
        match self {
            NativeDtype::Fp32 => 4.0,
            NativeDtype::Bf16 | NativeDtype::Fp16 => 2.0,
            NativeDtype::Fp8 | NativeDtype::Int8 => 1.0,
            NativeDtype::Mxfp4 => 4.25 / 8.0,
            NativeDtype::Int4 => 0.5,
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            NativeDtype::Bf16 => "bf16",
            NativeDtype::Fp16 => "fp16",
            NativeDtype::Fp32 => "fp32",
            NativeDtype::Fp8 => "fp8",
            NativeDtype::Mxfp4 => "mxfp4",
            NativeDtype::Int8 => "int8",
            NativeDtype::Int4 => "int4",
        }
    }
}

/// Serving efficiency for one GPU architecture and compute precision (`serving-factors.yaml`):
/// the fraction of the datasheet peak an inference engine reaches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Efficiency {
    /// GPU `architecture` as `gpus.yaml` writes it, or `*` for any.
    pub architecture: String,
    /// Compute precision (`fp16`, `fp8`, `fp4`, `fp32`), or `*` for any.
    pub precision: String,
    /// Fraction of dense tensor TFLOPS reached in prefill and compute-bound decode.
    pub compute: f64,
    /// Fraction of memory bandwidth reached reading weights and KV cache in decode.
    pub memory: f64,
    /// Fraction of the GPU link's bandwidth an all-reduce reaches.
    pub link: f64,
    /// Microseconds each sequence in the batch adds to a decode step outside the GPU kernels
    /// (the engine's per-sequence scheduling, sampling and detokenising); 0 when the rows show
    /// none.
    #[serde(default)]
    pub sequence_overhead_us: f64,
    /// Why these values: the rows they were fitted on, or the reference they come from.
    pub source: String,
}

/// `serving-factors.yaml`: efficiencies per architecture and precision, and the few modelling
/// constants of the serving roofline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServingFactors {
    /// Latency of one all-reduce across the tensor-parallel GPUs, microseconds.
    pub allreduce_latency_us: f64,
    /// Fixed time per decode step (scheduling, sampling, kernel launches), microseconds.
    pub step_overhead_us: f64,
    /// The engine's CPU time per sequence in a step (scheduling, sampling, detokenising, request
    /// bookkeeping), microseconds, which it overlaps with the GPU's work on the step: a step
    /// takes at least this × the batch however fast the GPU is. 0: no floor.
    #[serde(default)]
    pub host_sequence_us: f64,
    /// Most sequences an engine batches at once (TensorRT-LLM's and vLLM's max batch size).
    pub max_batch: u64,
    /// Most tokens one engine step carries, prefill chunks and decodes together (vLLM's
    /// `max_num_batched_tokens`, TensorRT-LLM's `max_num_tokens`).
    #[serde(default = "default_token_budget")]
    pub token_budget: u64,
    pub source: String,
    /// Most specific first: (architecture, precision), (architecture, `*`), (`*`, `*`).
    pub efficiencies: Vec<Efficiency>,
    /// How far the estimates fell from published measurements, per class (the calibration
    /// test computes these and checks that this list matches).
    #[serde(default)]
    pub calibration: Vec<Residuals>,
}

/// The residuals of one class of estimates (GPU architecture × compute precision × dense or
/// mixture of experts) against the published rows of that class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Residuals {
    pub architecture: String,
    pub precision: String,
    pub moe: bool,
    /// Throughput rows of the class.
    pub rows: u32,
    /// Estimated speed over published speed (tokens/s, or published time over estimated time
    /// for TPOT and end-to-end rows): lowest and highest.
    pub speed: [f64; 2],
    /// TTFT rows of the class and their estimated over published TTFT, when there are any.
    #[serde(default)]
    pub ttft_rows: u32,
    #[serde(default)]
    pub ttft: Option<[f64; 2]>,
}

fn default_token_budget() -> u64 {
    8192
}

impl ServingFactors {
    /// The residuals of a class, when published rows cover it.
    pub fn residuals(&self, architecture: &str, precision: &str, moe: bool) -> Option<&Residuals> {
        self.calibration
            .iter()
            .find(|r| r.architecture.eq_ignore_ascii_case(architecture) && r.precision == precision && r.moe == moe)
    }

    /// The widest residuals of any class: for a class no published row covers.
    pub fn widest(&self) -> ([f64; 2], [f64; 2]) {
        let mut speed = [1.0f64, 1.0f64];
        let mut ttft = [1.0f64, 1.0f64];
        for r in &self.calibration {
            speed = [speed[0].min(r.speed[0]), speed[1].max(r.speed[1])];
            if let Some(t) = r.ttft {
                ttft = [ttft[0].min(t[0]), ttft[1].max(t[1])];
            }
        }
        (speed, ttft)
    }

    /// The efficiency for an architecture and compute precision.
    pub fn efficiency(&self, architecture: &str, precision: &str) -> Option<&Efficiency> {
        let is = |e: &Efficiency, a: &str, p: &str| e.architecture.eq_ignore_ascii_case(a) && e.precision == p;
        self.efficiencies
            .iter()
            .find(|e| is(e, architecture, precision))
            .or_else(|| self.efficiencies.iter().find(|e| is(e, architecture, "*")))
            .or_else(|| self.efficiencies.iter().find(|e| is(e, "*", "*")))
    }
}

/// An open LLM from `models.yaml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmModel {
    pub id: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    pub params_b: f64,
    #[serde(default)]
    pub active_params_b: Option<f64>,
    pub layers: u32,
    pub hidden_size: u32,
    pub attention_heads: u32,
    pub kv_heads: u32,
    pub head_dim: u32,
    pub context: u64,
    /// Format of the published weights.
    pub native_dtype: NativeDtype,
    /// Size of the published safetensors checkpoint in GiB (what is loaded onto the GPUs).
    pub checkpoint_gib: f64,
    #[serde(default)]
    pub license: Option<String>,
    pub source: String,
    #[serde(default)]
    pub note: Option<String>,
    #[serde(default)]
    pub kaito_preset: Option<String>,
    /// FFN width (`intermediate_size` of config.json).
    #[serde(default)]
    pub intermediate_size: Option<u32>,
    /// Vocabulary (`vocab_size` of config.json).
    #[serde(default)]
    pub vocab_size: Option<u32>,
    /// Tokens a windowed attention layer keeps (`sliding_window` of config.json).
    #[serde(default)]
    pub sliding_window: Option<u32>,
    /// How many of `layers` use the window (all of Mistral 7B v0.1's; every other layer of Gemma 2
    /// and gpt-oss). Absent with a `sliding_window`: every layer.
    #[serde(default)]
    pub sliding_window_layers: Option<u32>,
    /// Routed experts per MoE layer (`num_local_experts` / `num_experts`).
    #[serde(default)]
    pub experts: Option<u32>,
    /// Experts each token is routed to (`num_experts_per_tok`).
    #[serde(default)]
    pub experts_per_token: Option<u32>,
    /// Overflows in fp16: engines refuse float16 for it (vLLM `_FLOAT16_NOT_SUPPORTED_MODELS`:
    /// gemma2, gemma3, …, "numerical instability"), so it runs in bf16 or fp32.
    #[serde(default)]
    pub fp16_unstable: bool,
    /// Layers that attend and keep a KV cache, where fewer than `layers` do (hybrid Mamba /
    /// attention models: the `*` of Nemotron-H's `hybrid_override_pattern`). Absent: all.
    #[serde(default)]
    pub attention_layers: Option<u32>,
    /// The Mamba-2 layers of a hybrid model, which keep a fixed-size state per sequence
    /// instead of a KV cache.
    #[serde(default)]
    pub mamba: Option<MambaLayers>,
}

/// Mamba-2 layers as config.json describes them (`mamba_num_heads`, `mamba_head_dim`,
/// `ssm_state_size`, `n_groups`, `conv_kernel`; `layers` counts the `M` of the pattern).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MambaLayers {
    pub layers: u32,
    pub heads: u32,
    pub head_dim: u32,
    pub state_size: u32,
    pub groups: u32,
    pub conv_kernel: u32,
}

impl MambaLayers {
    /// Values one sequence keeps across every Mamba layer: per layer a convolution state of
    /// (conv_kernel − 1) × (heads × head_dim + 2 × groups × state_size) and an SSM state of
    /// heads × head_dim × state_size (Dao & Gu 2024, "Transformers are SSMs", the Mamba-2
    /// block, section 7; vLLM's `MambaStateShapeCalculator.mamba2_state_shape`, which sizes
    /// vLLM's `MambaSpec` cache pages from these two shapes).
    pub fn state_values(&self) -> f64 {
        let inner = f64::from(self.heads) * f64::from(self.head_dim);
        let conv = f64::from(self.conv_kernel.saturating_sub(1))
            * (inner + 2.0 * f64::from(self.groups) * f64::from(self.state_size));
        let ssm = inner * f64::from(self.state_size);
        f64::from(self.layers) * (conv + ssm)
    }
}

impl LlmModel {
    /// True for mixture-of-experts models.
    pub fn is_moe(&self) -> bool {
        self.active_params_b.is_some()
    }

    /// What is wrong with this record, if anything.
    pub fn problems(&self) -> Vec<String> {
        let mut p = Vec::new();
        if self.params_b <= 0.0 || self.layers == 0 || self.kv_heads == 0 || self.head_dim == 0 || self.context == 0 {
            p.push(format!("model {}: parameters, layers, KV heads, head dim and context must be positive", self.id));
        }
        if self.attention_heads == 0 || self.attention_heads % self.kv_heads.max(1) != 0 {
            p.push(format!("model {}: attention_heads must be a positive multiple of kv_heads", self.id));
        }
        // A checkpoint far from parameters × bytes is a typo (or a duplicated download, as
        // KAITO's first gpt-oss-120b figure was: kaito-project/kaito#2308). Integer (AWQ/GPTQ)
        // checkpoints quantize only the decoder's linear layers: the input embedding stays
        // 16-bit (AutoAWQ, casper-hansen/AutoAWQ: awq/quantize/quantizer.py quantizes the
        // `nn.Linear` modules of each decoder layer).
        let embedding = match (self.native_dtype, self.vocab_size) {
            (NativeDtype::Int4 | NativeDtype::Int8, Some(v)) => f64::from(v) * f64::from(self.hidden_size),
            _ => 0.0,
        };
        let expected = ((self.params_b * 1e9 - embedding) * self.native_dtype.bytes() + embedding * 2.0)
            / (1024.0 * 1024.0 * 1024.0);
        if !(self.checkpoint_gib.is_finite() && self.checkpoint_gib > 0.0) {
            p.push(format!("model {}: checkpoint_gib must be positive", self.id));
        } else if !(0.7..=1.4).contains(&(self.checkpoint_gib / expected)) {
            p.push(format!(
                "model {}: checkpoint_gib {} is far from {} params × {} B = {expected:.1} GiB",
                self.id,
                self.checkpoint_gib,
                self.params_b,
                self.native_dtype.bytes()
            ));
        }
        if self.active_params_b.is_some_and(|a| a <= 0.0 || a > self.params_b) {
            p.push(format!("model {}: active_params_b must be within (0, params_b]", self.id));
        }
        if self.sliding_window_layers.is_some_and(|w| w > self.layers)
            || (self.sliding_window_layers.is_some() && self.sliding_window.is_none())
            || self.sliding_window == Some(0)
        {
            p.push(format!(
                "model {}: sliding_window must be positive; sliding_window_layers needs a sliding_window and at most `layers`",
                self.id
            ));
        }
        if let (Some(e), Some(k)) = (self.experts, self.experts_per_token) {
            if k == 0 || k > e {
                p.push(format!("model {}: experts_per_token must be within 1..=experts", self.id));
            }
        }
        let mamba_layers = self.mamba.map_or(0, |m| m.layers);
        if self.attention_layers.is_some_and(|a| a == 0 || a + mamba_layers > self.layers)
            || self.mamba.is_some_and(|m| m.layers == 0 || m.heads == 0 || m.head_dim == 0 || m.state_size == 0)
        {
            p.push(format!(
                "model {}: attention_layers and mamba.layers must be positive and together at most `layers`; \
                 mamba heads, head_dim and state_size positive",
                self.id
            ));
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gpt_oss_120b() -> LlmModel {
        serde_yaml_ng::from_str(
            "{id: openai/gpt-oss-120b, params_b: 117, active_params_b: 5.1, layers: 36, hidden_size: 2880, \
             attention_heads: 64, kv_heads: 8, head_dim: 64, context: 131072, native_dtype: mxfp4, \
             checkpoint_gib: 60.8, source: t}",
        )
        .expect("model parses")
    }

    #[test]
    fn model_records_are_checked() {
        let m = gpt_oss_120b();
        assert!(m.is_moe());
        // 117e9 × 4.25/8 B = 57.9 GiB; the model card's 60.8 GiB is within reach.
        assert_eq!(m.problems(), Vec::<String>::new());
        // KAITO's first figure counted the checkpoint twice (kaito-project/kaito#2308).
        let doubled = LlmModel { checkpoint_gib: 121.54, ..m.clone() };
        assert!(doubled.problems()[0].contains("far from"), "{:?}", doubled.problems());
        let heads = LlmModel { attention_heads: 60, kv_heads: 8, ..m.clone() };
        assert!(heads.problems()[0].contains("multiple of kv_heads"));
        let active = LlmModel { active_params_b: Some(200.0), ..m.clone() };
        assert!(active.problems()[0].contains("active_params_b"));
        let mamba = MambaLayers { layers: 31, heads: 64, head_dim: 64, state_size: 128, groups: 8, conv_kernel: 4 };
        let hybrid = LlmModel { attention_layers: Some(6), mamba: Some(mamba), ..m.clone() };
        assert!(hybrid.problems()[0].contains("attention_layers"), "{:?}", hybrid.problems());
        let hybrid = LlmModel { attention_layers: Some(6), mamba: Some(MambaLayers { layers: 23, ..mamba }), ..m };
        assert_eq!(hybrid.problems(), Vec::<String>::new());
    }

    /// Qwen/Qwen3-8B-AWQ: 8.19B parameters, 5.68 GiB (KAITO). At 0.5 B each that would be 3.81
    /// GiB, 1.49× off; with the 151936 × 4096 embedding at 2 B it is 4.68 GiB, 1.21×.
    #[test]
    fn an_int4_checkpoint_counts_its_embedding_at_16_bits() {
        let awq: LlmModel = serde_yaml_ng::from_str(
            "{id: Qwen/Qwen3-8B-AWQ, params_b: 8.19, layers: 36, hidden_size: 4096, attention_heads: 32, \
             kv_heads: 8, head_dim: 128, context: 40960, native_dtype: int4, checkpoint_gib: 5.68, source: t}",
        )
        .expect("model parses");
        assert!(awq.problems()[0].contains("far from"), "{:?}", awq.problems());
        let awq = LlmModel { vocab_size: Some(151_936), ..awq };
        assert_eq!(awq.problems(), Vec::<String>::new());
    }
}
