//! The recommender: resolved requirements in, ranked sizes (with reasons) out. Pure: no I/O,
//! no clock, no environment.
//!
//! Candidates pass through an ordered list of hard constraints (`Stage`); the first one a size
//! fails is its rejection reason. Survivors are fitted (how many GPUs and nodes the memory need
//! takes) and ranked by the cost of that fit. When nothing survives, the stage that removed the
//! last candidates is named, with the closest alternatives.

pub mod advice;
pub mod estimate;
mod explain;
mod fit;
mod price;
pub mod service;
pub mod serving;
mod stages;
pub mod weights;

use serde::Serialize;

use crate::domain::setting::{Setting, Words};
use crate::units::money_in;

use crate::catalog::{
    Catalog, Driver, GpuModel, KubeVersion, LlmModel, NativeDtype, RegionPrice, Status, Vendor, VmSize,
};
pub use crate::domain::{Os, Precision, RankBy, Workload};
pub use estimate::{Arch, Layout, Need, Recompute};
pub use explain::fmt_num;
use explain::*;
pub use fit::gpu_matches;
use fit::*;
pub use price::price_kind;
use price::*;
pub use stages::memory_terms;
use stages::*;

/// Hours in a month for monthly figures (Azure's pricing calculator uses 730).
pub const HOURS_PER_MONTH: f64 = 730.0;

/// An inclusive range; `None` = open.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Range {
    pub min: Option<f64>,
    pub max: Option<f64>,
}

impl Range {
    /// True when `v` is inside.
    pub fn contains(&self, v: f64) -> bool {
        self.min.is_none_or(|m| v + 1e-9 >= m) && self.max.is_none_or(|m| v - 1e-9 <= m)
    }

    /// How far `v` lies outside the range (0 inside).
    pub fn distance(&self, v: f64) -> f64 {
        let below = self.min.map_or(0.0, |m| m - v);
        let above = self.max.map_or(0.0, |m| v - m);
        below.max(above).max(0.0)
    }

    fn describe(&self, unit: &str) -> String {
        match (self.min, self.max) {
            (Some(a), Some(b)) if (a - b).abs() < 1e-9 => format!("exactly {}{unit}", fmt_num(a)),
            (Some(a), Some(b)) => format!("{}–{}{unit}", fmt_num(a), fmt_num(b)),
            (Some(a), None) => format!("≥ {}{unit}", fmt_num(a)),
            (None, Some(b)) => format!("≤ {}{unit}", fmt_num(b)),
            (None, None) => "any".to_owned(),
        }
    }
}

/// The model being sized.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelSpec {
    /// Hugging Face id, when the model is known.
    pub id: Option<String>,
    /// Parameters in billions.
    pub params_b: f64,
    /// Architecture used for KV cache and activations.
    pub arch: Arch,
    /// Where the architecture came from: the model itself or the nearest known model.
    pub arch_from: String,
    /// The model's maximum context, when known.
    pub max_context: Option<u64>,
    /// Format of the published weights, when the model is known.
    pub native: Option<NativeDtype>,
    /// The published checkpoint in GiB, when the model is known.
    pub checkpoint_gib: Option<f64>,
    /// Mixture of experts.
    pub moe: bool,
    /// Parameters each token uses (mixture of experts), in billions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active_params_b: Option<f64>,
    /// Routed experts and experts per token (mixture of experts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub experts: Option<(u32, u32)>,
    /// Overflows in fp16 (Gemma 2): runs in bf16, or fp32 where the GPU has no bf16.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fp16_unstable: bool,
}

impl ModelSpec {
    /// A catalog model.
    pub fn from_model(m: &LlmModel) -> Self {
        Self {
            id: Some(m.id.clone()),
            params_b: m.params_b,
            arch: arch_of(m),
            arch_from: m.id.clone(),
            max_context: Some(m.context),
            native: Some(m.native_dtype),
            checkpoint_gib: Some(m.checkpoint_gib),
            moe: m.is_moe(),
            active_params_b: m.active_params_b,
            experts: m.experts.zip(m.experts_per_token),
            fp16_unstable: m.fp16_unstable,
        }
    }

    /// Only a parameter count: borrow the architecture of the known model nearest in size.
    pub fn from_params(catalog: &Catalog, params_b: f64) -> Self {
        let nearest = catalog.models.iter().filter(|m| m.active_params_b.is_none()).min_by(|a, b| {
            let da = (a.params_b.ln() - params_b.ln()).abs();
            let db = (b.params_b.ln() - params_b.ln()).abs();
            da.total_cmp(&db)
        });
        match nearest {
            Some(m) => Self {
                id: None,
                params_b,
                arch: arch_of(m),
                arch_from: format!("assumed like {} (nearest known size)", m.id),
                max_context: None,
                native: None,
                checkpoint_gib: None,
                moe: false,
                active_params_b: None,
                experts: None,
                fp16_unstable: false,
            },
            None => Self {
                id: None,
                params_b,
                arch: Arch::full_attention(32, 4096, 32, 8, 128),
                arch_from: "assumed Llama-style 32 layers, 8 KV heads".to_owned(),
                max_context: None,
                native: None,
                checkpoint_gib: None,
                moe: false,
                active_params_b: None,
                experts: None,
                fp16_unstable: false,
            },
        }
    }
}

fn arch_of(m: &LlmModel) -> Arch {
    Arch {
        layers: m.layers,
        hidden_size: m.hidden_size,
        attention_heads: m.attention_heads,
        kv_heads: m.kv_heads,
        head_dim: m.head_dim,
        window: m.sliding_window.unwrap_or(0),
        windowed_layers: m.sliding_window.map_or(0, |_| m.sliding_window_layers.unwrap_or(m.layers)),
        attention_layers: m.attention_layers.unwrap_or(0),
        // vLLM keeps the Mamba state in the model's dtype (`mamba_cache_dtype: auto`), 2 B here.
        state_bytes: m.mamba.map_or(0.0, |s| s.state_values() * 2.0),
        mamba_split: m.mamba.map(|s| (s.heads, s.groups)),
    }
}

/// The service an inference deployment must give, and how it may be split (`--input-tokens`,
/// targets, `--tensor-parallel`, `--vm-size`, `--rank-by`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ServingAsk {
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// False: the figures are for the largest batch that fits (maximum throughput).
    pub concurrency_given: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_tokens_per_second: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_tokens_per_second_per_user: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_ttft_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tensor_parallel: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipeline_parallel: Option<u32>,
    /// Expert parallelism over this many GPUs per stage, attention data parallel across them
    /// (a mixture of experts only; never chosen by the search, see `service::candidates`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expert_parallel: Option<u32>,
    /// KV-cache precision; `None`: 16-bit (32-bit for fp32 weights).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_cache_precision: Option<Precision>,
    /// `--vm-size`: evaluate this size only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vm_size: Option<String>,
    pub rank_by: RankBy,
    /// True when there is a service to size: an inference model, a target, a split, a KV-cache
    /// precision, `--vm-size` or `--rank-by`. Without one, the requirements' JSON omits
    /// `serving` (the lengths above are then only defaults nobody asked about).
    #[serde(skip)]
    pub asked: bool,
}

impl ServingAsk {
    /// False when nothing asks for a service (`serde`'s `skip_serializing_if`).
    pub fn not_asked(&self) -> bool {
        !self.asked
    }

    /// True when a figure must be met.
    pub fn has_targets(&self) -> bool {
        self.min_tokens_per_second.is_some()
            || self.min_tokens_per_second_per_user.is_some()
            || self.max_ttft_seconds.is_some()
    }
}

/// Resolved, validated requirements (built by the `recommend` command from flags).
#[derive(Debug, Clone, Serialize)]
pub struct Requirements {
    pub workload: Workload,
    pub model: Option<ModelSpec>,
    pub precision: Precision,
    #[serde(skip)]
    pub precision_explicit: bool,
    pub context: u64,
    pub concurrency: u64,
    pub gpu_memory_gib: Range,
    pub total_gpu_memory_gib: Range,
    pub gpus: Range,
    pub gpu_models: Vec<String>,
    pub os: Os,
    pub kubernetes_version: Option<KubeVersion>,
    pub region: Option<String>,
    /// `-l a,b,c`: price each size in the cheapest of these regions (empty: `region`, or any).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<String>,
    pub max_price_per_hour: Option<f64>,
    /// `--max-price-per-month`: the same limit over `HOURS_PER_MONTH` hours.
    pub max_price_per_month: Option<f64>,
    pub spot: bool,
    pub mig: bool,
    pub include_retired: bool,
    pub include_unsupported: bool,
    /// `--gpu-driver none`: the user brings the driver, so driver-none sizes are candidates.
    pub gpu_driver_none: bool,
    /// With `--region`: keep sizes with no list price there (ranked last) instead of rejecting them.
    pub include_unpriced: bool,
    pub top: usize,
    /// The memory need, when a model was given.
    pub need: Option<Need>,
    /// How input was read and which defaults were applied (the front end words the settings).
    pub notes: Vec<Words>,
    /// Catalog refusals turned into warnings by `--override`: rule, source and risk.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Words>,
    /// Where the prices come from (bundled or the live cache).
    pub price_source: Option<String>,
    /// The currency of the prices and of the price limits (`Ranking::currency` says it).
    #[serde(skip)]
    pub currency: String,
    /// Inference: lengths, targets and split of the service (omitted when nothing asks for one).
    #[serde(skip_serializing_if = "ServingAsk::not_asked")]
    pub serving: ServingAsk,
}

impl Requirements {
    /// Requirements with defaults and no constraints.
    pub fn new(workload: Workload) -> Self {
        Self {
            workload,
            model: None,
            precision: Precision::Bf16,
            precision_explicit: false,
            context: 4096,
            concurrency: 1,
            gpu_memory_gib: Range::default(),
            total_gpu_memory_gib: Range::default(),
            gpus: Range::default(),
            gpu_models: Vec::new(),
            os: Os::Linux,
            kubernetes_version: None,
            region: None,
            regions: Vec::new(),
            max_price_per_hour: None,
            max_price_per_month: None,
            spot: false,
            mig: false,
            include_retired: false,
            include_unsupported: false,
            gpu_driver_none: false,
            include_unpriced: false,
            top: 5,
            need: None,
            notes: Vec::new(),
            warnings: Vec::new(),
            price_source: None,
            currency: "USD".to_owned(),
            serving: ServingAsk { input_tokens: 3072, output_tokens: 1024, ..ServingAsk::default() },
        }
    }

    /// Bytes per KV-cache value: `--kv-cache-precision`, else 16-bit (32-bit with fp32 weights).
    pub fn kv_bytes(&self) -> f64 {
        self.serving.kv_cache_precision.map_or(self.precision.kv_bytes(), Precision::bytes)
    }

    /// Compute `need` from the model, workload, precision, context and concurrency. The
    /// weights come from [`weights::weights_for`]: the real checkpoint when the precision is
    /// the model's published format.
    pub fn compute_need(&mut self) {
        self.need = self.model.as_ref().map(|m| {
            let w = weights::weights_for(m, self.precision);
            let (p, a, c, n) = (m.params_b, m.arch, self.context, self.concurrency);
            match self.workload {
                Workload::Training => estimate::training(p, a, c, n),
                Workload::FineTuning => estimate::fine_tuning(&w, p, a, c, n, self.precision == Precision::Int4),
                _ => {
                    let routed =
                        estimate::routed_params(p, m.active_params_b.unwrap_or(p), m.experts.unwrap_or((0, 0)));
                    estimate::inference(&w, a, c, n, self.kv_bytes()).with_routed(routed / p.max(1e-9))
                }
            }
        });
    }
}

/// How a size satisfies the requirements.
#[derive(Debug, Clone, Serialize)]
pub struct Fit {
    /// GiB each GPU (or MIG slice) needs; 0 when no model was given.
    #[serde(serialize_with = "estimate::round3")]
    pub required_per_gpu_gib: f64,
    /// GiB each GPU (or slice) can use: usable fraction × memory.
    #[serde(serialize_with = "estimate::round3")]
    pub available_per_gpu_gib: f64,
    /// Raw memory per GPU (or slice).
    #[serde(serialize_with = "estimate::round3")]
    pub gpu_memory_per_gpu_gib: f64,
    /// Total GiB needed across the GPUs used.
    #[serde(serialize_with = "estimate::round3")]
    pub required_total_gib: f64,
    /// GPUs used per node (a fraction for partial GPUs).
    pub gpus_used_per_node: f64,
    /// Nodes needed.
    pub nodes: u32,
    /// MIG slice chosen, when `--mig`.
    pub mig: Option<MigFit>,
    /// How the GPUs are used (tensor parallel, recomputation, budget), when a model was given.
    #[serde(skip)]
    pub layout: Option<Layout>,
    /// Copies of the model on each node (inference: a split smaller than the node).
    #[serde(skip)]
    pub replicas_per_node: u32,
    /// Sequences each copy holds in memory at the full context.
    #[serde(skip)]
    pub sequences_per_replica: u64,
    /// The estimate behind `required_*` (formulas and constants), when a model was given.
    /// Attached to the ranked recommendations only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Need>,
}

/// The MIG profile chosen for a workload.
#[derive(Debug, Clone, Serialize)]
pub struct MigFit {
    pub profile: String,
    pub slice: String,
    pub instances_per_gpu: u32,
    pub instances_per_node: u32,
    pub memory_gib: f64,
}

/// The price of one node, and what the ranking uses when that price is unknown.
#[derive(Debug, Clone, Serialize)]
pub struct Price {
    /// USD per hour for one node of the requested kind; `None` = unknown (for example a
    /// Windows price before `aksgpu prices refresh`). Never estimated.
    pub per_node_hour: Option<f64>,
    /// The per-node USD/hour the ranking uses: the requested price, or the fallback `basis` names.
    pub rank_per_node_hour: Option<f64>,
    /// 0: ranked by the requested price or its Linux equivalent; 1: spot unknown, ranked by
    /// on-demand; 2: no list price at all (only with `--include-unpriced`).
    pub rank_tier: u8,
    /// What `rank_per_node_hour` is: "linux on-demand", "linux on-demand (windows unknown)", …
    pub basis: String,
    /// Region of the price; `None` when the size has no list price anywhere.
    pub region: Option<String>,
    /// True when the region was chosen as the cheapest one (no `--region`).
    pub cheapest_region: bool,
    /// The price field behind `rank_per_node_hour` (`linux`, `windows_spot`, …); its source and
    /// date are looked up for the shown results only.
    pub field: &'static str,
}

/// One ranked recommendation.
#[derive(Debug, Clone, Serialize)]
pub struct Recommendation {
    pub vm_size: String,
    pub series: String,
    pub gpu_model: String,
    pub gpu_vendor: Vendor,
    pub gpu_count: f64,
    pub gpu_memory_gib: f64,
    pub vcpus: u32,
    pub memory_gib: f64,
    pub driver: Driver,
    /// Price per hour (in `Ranking::currency`) for the whole fit (all nodes); null when unknown.
    pub price_per_hour: Option<f64>,
    /// Price per 730-hour month; null when unknown.
    pub monthly_cost: Option<f64>,
    /// Cost per MIG instance per hour (with `--mig`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price_per_instance_hour: Option<f64>,
    pub price_region: Option<String>,
    pub price_kind: String,
    /// What the ranking used: `price_kind`, or e.g. "linux on-demand (windows unknown)" when the
    /// requested price is unknown; "unpriced" when the size has no list price.
    pub price_basis: String,
    /// Price per hour for the whole fit by `price_basis` (equals `price_per_hour` when that is known).
    pub rank_price_per_hour: Option<f64>,
    /// Source and date of the price the ranking used.
    pub price_source: Option<String>,
    /// True when that price is the live cache's (not the bundled table's).
    #[serde(skip)]
    pub price_live: bool,
    /// The date of that price (`YYYY-MM-DD`), per size and region like its source.
    pub price_date: Option<String>,
    /// How old that price is, in days (both set in `ops::recommend`, where the clock is read).
    pub price_age_days: Option<u64>,
    pub fit: Fit,
    /// Inference: what the deployment serves (throughput, latency, cost per token).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serving: Option<service::Serving>,
    /// Why it fits, naming settings as the front end words them.
    pub reasons: Vec<Words>,
    pub warnings: Vec<Words>,
    /// A tight fit: why (fewer than 4 full-context sequences fit, or under 5 % of memory left).
    #[serde(skip)]
    pub tight: Option<String>,
    /// Sized in fp32: the model overflows in fp16 and this GPU has no bf16.
    #[serde(skip)]
    pub fp32: bool,
    /// The per-node price behind `price_per_hour`.
    #[serde(skip)]
    pub price: Option<Price>,
}

/// The hard constraint that rules a size out, whatever front end set it. Each front end words
/// it in its own names (a flag for the CLI, a key for a GpuConfig file): a limit by its
/// [`Setting`], a check by [`Constraint::check`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Constraint {
    Retired,
    AksSupport,
    Os,
    Workload,
    GpuModel,
    GpuDriver,
    Gpus,
    Mig,
    GpuMemory,
    TotalGpuMemory,
    Region,
    PrecisionSupport,
    MemoryFit,
    ServingEstimate,
    MinTokensPerSecond,
    MinTokensPerSecondPerUser,
    MaxTtft,
    MaxPricePerHour,
    MaxPricePerMonth,
    Top,
}

impl Constraint {
    /// The setting of a limit the request sets (`GpuMemory`; `Location` for the region); none
    /// for a check the recommender always makes (lifecycle, AKS support, memory fit).
    pub fn setting(self) -> Option<Setting> {
        Some(match self {
            Constraint::Os => Setting::Os,
            Constraint::Workload => Setting::Workload,
            Constraint::GpuModel => Setting::GpuModel,
            Constraint::GpuDriver => Setting::GpuDriver,
            Constraint::Gpus => Setting::Gpus,
            Constraint::Mig => Setting::Mig,
            Constraint::GpuMemory => Setting::GpuMemory,
            Constraint::TotalGpuMemory => Setting::TotalGpuMemory,
            Constraint::Region => Setting::Location,
            Constraint::MinTokensPerSecond => Setting::MinTokensPerSecond,
            Constraint::MinTokensPerSecondPerUser => Setting::MinTokensPerSecondPerUser,
            Constraint::MaxTtft => Setting::MaxTtft,
            Constraint::MaxPricePerHour => Setting::MaxPricePerHour,
            Constraint::MaxPricePerMonth => Setting::MaxPricePerMonth,
            Constraint::Top => Setting::Top,
            Constraint::Retired
            | Constraint::AksSupport
            | Constraint::PrecisionSupport
            | Constraint::MemoryFit
            | Constraint::ServingEstimate => return None,
        })
    }

    /// The name of a check the recommender always makes (`memory fit`); none for a limit.
    pub fn check(self) -> Option<&'static str> {
        Some(match self {
            Constraint::Retired => "retired",
            Constraint::AksSupport => "AKS support",
            Constraint::PrecisionSupport => "precision support",
            Constraint::MemoryFit => "memory fit",
            Constraint::ServingEstimate => "serving estimate",
            _ => return None,
        })
    }

    /// True for a limit the request sets (a flag, a file key); false for a check the
    /// recommender always makes (lifecycle, AKS support, memory fit).
    pub fn is_limit(self) -> bool {
        self.setting().is_some()
    }
}

/// A size that was ruled out.
#[derive(Debug, Clone, Serialize)]
pub struct Rejected {
    pub vm_size: String,
    /// Why, naming settings as the front end words them.
    pub reason: Words,
    /// The constraint that ruled it out (in JSON the front end's stable name for it).
    pub constraint: Constraint,
    #[serde(skip)]
    stage: usize,
    #[serde(skip)]
    sort_key: f64,
}

/// The recommender's answer.
#[derive(Debug, Clone, Serialize)]
pub struct Ranking {
    /// The currency of every price (USD, or the `--currency` of a fetched cache).
    pub currency: String,
    pub requirements: Requirements,
    pub recommendations: Vec<Recommendation>,
    /// Sizes ruled out by a constraint (the "N ruled out" count), most-nearly-fitting first.
    pub rejected: Vec<Rejected>,
    /// Sizes that fit but rank below `--top` (constraint `--top`): not ruled out, only not shown.
    pub below_top: Vec<Rejected>,
    /// When nothing fits: the sizes that came closest (at most 3, nearest first), as
    /// `no_fit().closest` gives them; absent otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub closest: Vec<Rejected>,
    /// A cheaper precision that meets the same service (inference), when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advice: Option<advice::Advice>,
}

/// Nothing fits: which constraint cut the last candidates, and the closest alternatives.
#[derive(Debug, Clone, Serialize)]
pub struct NoFit {
    pub constraint: Constraint,
    pub candidates_before: usize,
    pub closest: Vec<Rejected>,
}

impl Ranking {
    /// When there are no recommendations, explain why.
    pub fn no_fit(&self) -> Option<NoFit> {
        if !self.recommendations.is_empty() {
            return None;
        }
        let last = self.rejected.iter().map(|r| r.stage).max()?;
        let mut at_last: Vec<&Rejected> = self.rejected.iter().filter(|r| r.stage == last).collect();
        at_last.sort_by(|a, b| a.sort_key.total_cmp(&b.sort_key).then(a.vm_size.cmp(&b.vm_size)));
        Some(NoFit {
            constraint: at_last.first()?.constraint,
            candidates_before: at_last.len(),
            closest: at_last.into_iter().take(3).cloned().collect(),
        })
    }
}

/// Rank the catalog's sizes for `req`.
///
/// Inference and fine-tuning are fitted on one node first; only when no size fits on one node
/// are multi-node fits considered (training and HPC always may span nodes).
pub fn recommend(catalog: &Catalog, req: &Requirements) -> Ranking {
    let sizes = priced_sizes(catalog, req);
    let mut out = rank(catalog, req, &sizes);
    out.advice = advice::advise(catalog, req, &out, &sizes);
    out
}

/// The sizes to evaluate (`--vm-size`'s alone when given), each with its price for `req`.
/// Picked once per request: the ranking's passes and the precision advice's requirements
/// share the region, OS and spot settings the price depends on.
fn priced_sizes<'c>(catalog: &'c Catalog, req: &Requirements) -> Vec<(&'c VmSize, Option<Price>)> {
    let named = req.serving.vm_size.as_deref();
    catalog
        .sizes
        .iter()
        .filter(|s| named.is_none_or(|n| s.name.eq_ignore_ascii_case(n)))
        .map(|s| (s, pick_price(catalog, req, s)))
        .collect()
}

/// The cheapest size for `req` whose whole deployment costs less than `ceiling` USD/hour and
/// that `accept` takes: sizes in order of their node price, stopping once a node alone costs
/// as much as the best found (more nodes only cost more). For the precision advice, over the
/// sizes and prices of the first answer (`req` differs from its requirements only in the
/// precision).
pub(crate) fn cheapest_below(
    catalog: &Catalog,
    req: &Requirements,
    priced: &[(&VmSize, Option<Price>)],
    ceiling: Option<f64>,
    accept: &dyn Fn(&VmSize) -> bool,
) -> Option<Recommendation> {
    let mut sizes: Vec<(f64, &VmSize, &Price)> = priced
        .iter()
        .filter(|(s, _)| accept(s))
        .filter_map(|(s, p)| p.as_ref().and_then(|p| p.per_node_hour.map(|node| (node, *s, p))))
        .collect();
    sizes.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.name.cmp(&b.1.name)));
    let mut best: Option<Recommendation> = None;
    let mut bound = ceiling.unwrap_or(f64::INFINITY);
    for (node, size, price) in sizes {
        if node >= bound {
            break;
        }
        let Ok(r) = evaluate(catalog, req, size, Some(price), req.workload.max_nodes()) else { continue };
        if let Some(p) = r.price_per_hour.filter(|p| *p < bound) {
            bound = p;
            best = Some(r);
        }
    }
    best
}

/// The ranking of [`recommend`], without the precision advice.
fn rank(catalog: &Catalog, req: &Requirements, sizes: &[(&VmSize, Option<Price>)]) -> Ranking {
    let max_nodes = req.workload.max_nodes();
    let pass = |max_nodes: u32| {
        let mut accepted = Vec::new();
        let mut rejected = Vec::new();
        for (size, price) in sizes {
            match evaluate(catalog, req, size, price.as_ref(), max_nodes) {
                Ok(r) => accepted.push(r),
                Err(r) => rejected.push(r),
            }
        }
        (accepted, rejected)
    };
    let single_first = matches!(req.workload, Workload::Inference | Workload::FineTuning) && max_nodes > 1;
    let (mut accepted, mut rejected) = pass(if single_first { 1 } else { max_nodes });
    // Multi-node only when no size holds the model on one node (not when a later limit, such
    // as price, removed the single-node fits).
    let fits_one_node = !accepted.is_empty() || rejected.iter().any(|r| r.stage > STAGE_MEMORY_FIT);
    if single_first && !fits_one_node && req.need.is_some() {
        (accepted, rejected) = pass(max_nodes);
    }
    accepted.sort_by(|a: &Recommendation, b: &Recommendation| {
        let (ka, kb) = (rank_key(a, req.serving.rank_by), rank_key(b, req.serving.rank_by));
        ka.0.cmp(&kb.0)
            .then(ka.1.cmp(&kb.1))
            // Equal to the cent (MIG sizes price alike per instance): the cheaper node first.
            .then(cents(a.rank_price_per_hour).cmp(&cents(b.rank_price_per_hour)))
            .then(
                (a.fit.gpus_used_per_node * f64::from(a.fit.nodes))
                    .total_cmp(&(b.fit.gpus_used_per_node * f64::from(b.fit.nodes))),
            )
            .then(a.vm_size.cmp(&b.vm_size))
    });
    let below_top = below_top(&accepted, req);
    accepted.truncate(req.top);
    // Explanations only for what is shown.
    for r in &mut accepted {
        explain_shown(catalog, req, r);
    }
    rejected.sort_by(|a, b| b.stage.cmp(&a.stage).then(a.vm_size.cmp(&b.vm_size)));
    let mut out = Ranking {
        currency: catalog.prices.currency.clone(),
        requirements: req.clone(),
        recommendations: accepted,
        rejected,
        below_top,
        closest: Vec::new(),
        advice: None,
    };
    out.closest = out.no_fit().map(|n| n.closest).unwrap_or_default();
    out
}

/// The sizes that fit but rank below `--top`, said as such.
fn below_top(accepted: &[Recommendation], req: &Requirements) -> Vec<Rejected> {
    accepted
        .iter()
        .skip(req.top)
        .map(|r| Rejected {
            vm_size: r.vm_size.clone(),
            reason: format!(
                "fits, but ranked below the top {} ({})",
                req.top,
                match (r.price_per_hour, r.rank_price_per_hour) {
                    (Some(p), _) => hour_in(p, req),
                    (None, Some(p)) => format!("price unknown; {} by {}", hour_in(p, req), r.price_basis),
                    (None, None) => "price unknown".to_owned(),
                }
            )
            .into(),
            constraint: Constraint::Top,
            stage: usize::MAX,
            sort_key: 0.0,
        })
        .collect()
}

/// A shown recommendation's estimate, price source, reasons and warnings (only what is shown
/// is explained).
fn explain_shown(catalog: &Catalog, req: &Requirements, r: &mut Recommendation) {
    let upcast =
        if r.fp32 { catalog.size(&r.vm_size).and_then(|z| fp32_instead(req, catalog.gpu(&z.gpu_model))) } else { None };
    let req = upcast.as_ref().unwrap_or(req);
    r.fit.estimate = match (&req.need, r.fit.layout) {
        (Some(n), Some(l)) => Some(n.fitted(l)),
        (n, None) => n.clone(),
        (None, _) => None,
    };
    r.price_source = r.price.as_ref().and_then(|p| catalog.price_source(&r.vm_size, p.region.as_deref()?, p.field));
    r.price_live =
        r.price.as_ref().and_then(|p| p.region.as_deref()).is_some_and(|g| catalog.price_is_live(&r.vm_size, g));
    if let Some(size) = catalog.size(&r.vm_size) {
        (r.reasons, r.warnings) = explain(catalog, req, size, catalog.gpu(&size.gpu_model), &r.fit, r.price.as_ref());
    }
    if let Some(t) = &r.tight {
        r.warnings.insert(0, Words::plain(t.as_str()));
    }
    if let Some(s) = &r.serving {
        if req.serving.has_targets() {
            // The serving search chose the GPUs for the targets, not for memory alone.
            r.warnings.retain(|w| !w.text.starts_with("over-provisioned"));
        }
        for (i, w) in service::targets_at_risk(req, s).into_iter().enumerate() {
            r.warnings.insert(i, w);
        }
        if let Some(w) = &s.calibration_warning {
            r.warnings.insert(0, Words::plain(w.as_str()));
        }
        let serves = format!(
            "serves {} output tokens/s ({} per sequence, first token in {}) with {} cop{} at {}, {} sequence(s) per copy, on {} node(s): {}-bound",
            service::fmt_sig(s.aggregate_output_tokens_per_second),
            service::fmt_sig(s.decode_tokens_per_second_per_sequence),
            ttft_words(s),
            s.replicas,
            if s.replicas == 1 { "y" } else { "ies" },
            service::split_words(s.tensor_parallel, s.pipeline_parallel, s.expert_parallel),
            s.concurrency_per_replica,
            s.nodes,
            s.bound.name(),
        );
        r.reasons.push(match s.binding.setting() {
            Some(b) => Words::new(format!("{serves}; binding: {{0}}"), &[b]),
            None => Words::plain(serves),
        });
    }
}

/// The time to the first token: the mean, and where the prompt queue is modelled (its tail
/// differs from the mean by more than 5 %) the median and p90 too.
fn ttft_words(s: &service::Serving) -> String {
    let mean = format!("{} s", service::fmt_sig(s.ttft_seconds));
    if (s.ttft_p90_seconds - s.ttft_seconds).abs() <= 0.05 * s.ttft_seconds {
        return mean;
    }
    format!(
        "{mean} on average, median {} s, p90 {} s",
        service::fmt_sig(s.ttft_median_seconds),
        service::fmt_sig(s.ttft_p90_seconds)
    )
}

#[cfg(test)]
mod tests;
