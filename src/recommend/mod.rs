//! The recommender: resolved requirements in, ranked sizes (with reasons) out. Pure: no I/O,
//! no clock, no environment.
//!
//! Candidates pass through an ordered list of hard constraints (`Stage`); the first one a size
//! fails is its rejection reason. Survivors are fitted (how many GPUs and nodes the memory need
//! takes) and ranked by the cost of that fit. When nothing survives, the stage that removed the
//! last candidates is named, with the closest alternatives.

pub mod advice;
pub mod estimate;
pub mod service;
pub mod serving;
pub mod weights;

use serde::Serialize;

use crate::units::money_in;

use crate::catalog::{
    Catalog, Driver, GpuModel, KubeVersion, LlmModel, NativeDtype, RegionPrice, Status, Vendor, VmSize,
};
pub use crate::domain::{Os, Precision, RankBy, Workload};
pub use estimate::{Arch, Layout, Need, Recompute};

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
    /// How input was read and which defaults were applied.
    pub notes: Vec<String>,
    /// Catalog refusals turned into warnings by `--override`: rule, source and risk.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Where the prices come from (bundled or the live cache).
    pub price_source: Option<String>,
    /// The currency of the prices and of the price limits (`Outcome::currency` says it).
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
                _ => estimate::inference(&w, a, c, n, self.kv_bytes()),
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
    /// Price per hour (in `Outcome::currency`) for the whole fit (all nodes); null when unknown.
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
    pub reasons: Vec<String>,
    pub warnings: Vec<String>,
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
/// it in its own names (a flag for the CLI, a key for a GpuConfig file); JSON output gives
/// `name()`, a stable string.
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
    /// The stable name in JSON output (`rejected[].constraint`): the `recommend` flag that
    /// sets a limit (`--gpu-memory`), or the check's name (`memory fit`).
    pub fn name(self) -> &'static str {
        match self {
            Constraint::Retired => "retired",
            Constraint::AksSupport => "AKS support",
            Constraint::Os => "--os",
            Constraint::Workload => "--workload",
            Constraint::GpuModel => "--gpu-model",
            Constraint::GpuDriver => "--gpu-driver",
            Constraint::Gpus => "--gpus",
            Constraint::Mig => "--mig",
            Constraint::GpuMemory => "--gpu-memory",
            Constraint::TotalGpuMemory => "--total-gpu-memory",
            Constraint::Region => "--region",
            Constraint::PrecisionSupport => "precision support",
            Constraint::MemoryFit => "memory fit",
            Constraint::ServingEstimate => "serving estimate",
            Constraint::MinTokensPerSecond => "--min-tokens-per-second",
            Constraint::MinTokensPerSecondPerUser => "--min-tokens-per-second-per-user",
            Constraint::MaxTtft => "--max-ttft",
            Constraint::MaxPricePerHour => "--max-price-per-hour",
            Constraint::MaxPricePerMonth => "--max-price-per-month",
            Constraint::Top => "--top",
        }
    }

    /// True for a limit the request sets (a flag, a file key); false for a check the
    /// recommender always makes (lifecycle, AKS support, memory fit).
    pub fn is_limit(self) -> bool {
        !matches!(
            self,
            Constraint::Retired
                | Constraint::AksSupport
                | Constraint::PrecisionSupport
                | Constraint::MemoryFit
                | Constraint::ServingEstimate
        )
    }
}

/// Compares with the stable name (`c == "--top"`), as JSON consumers do.
impl PartialEq<&str> for Constraint {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

impl Serialize for Constraint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A size that was ruled out.
#[derive(Debug, Clone, Serialize)]
pub struct Rejected {
    pub vm_size: String,
    pub reason: String,
    /// The constraint that ruled it out (in JSON its stable name, `Constraint::name`).
    pub constraint: Constraint,
    #[serde(skip)]
    stage: usize,
    #[serde(skip)]
    sort_key: f64,
}

/// The recommender's answer.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
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

impl Outcome {
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
pub fn recommend(catalog: &Catalog, req: &Requirements) -> Outcome {
    let mut out = rank(catalog, req);
    out.advice = advice::advise(catalog, req, &out);
    out
}

/// The cheapest size for `req` whose whole deployment costs less than `ceiling` USD/hour and
/// that `accept` takes: sizes in order of their node price, stopping once a node alone costs
/// as much as the best found (more nodes only cost more). For the precision advice.
pub(crate) fn cheapest_below(
    catalog: &Catalog,
    req: &Requirements,
    ceiling: Option<f64>,
    accept: &dyn Fn(&VmSize) -> bool,
) -> Option<Recommendation> {
    let named = req.serving.vm_size.as_deref();
    let mut sizes: Vec<(f64, &VmSize)> = catalog
        .sizes
        .iter()
        .filter(|s| named.is_none_or(|n| s.name.eq_ignore_ascii_case(n)) && accept(s))
        .filter_map(|s| pick_price(catalog, req, s).and_then(|p| p.per_node_hour).map(|p| (p, s)))
        .collect();
    sizes.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.name.cmp(&b.1.name)));
    let mut best: Option<Recommendation> = None;
    let mut bound = ceiling.unwrap_or(f64::INFINITY);
    for (node, size) in sizes {
        if node >= bound {
            break;
        }
        let Ok(r) = evaluate(catalog, req, size, req.workload.max_nodes()) else { continue };
        if let Some(p) = r.price_per_hour.filter(|p| *p < bound) {
            bound = p;
            best = Some(r);
        }
    }
    best
}

/// The ranking of [`recommend`], without the precision advice.
fn rank(catalog: &Catalog, req: &Requirements) -> Outcome {
    let max_nodes = req.workload.max_nodes();
    let named = req.serving.vm_size.as_deref();
    let pass = |max_nodes: u32| {
        let mut accepted = Vec::new();
        let mut rejected = Vec::new();
        for size in catalog.sizes.iter().filter(|s| named.is_none_or(|n| s.name.eq_ignore_ascii_case(n))) {
            match evaluate(catalog, req, size, max_nodes) {
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
    let mut out = Outcome {
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
            ),
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
        r.warnings.insert(0, t.clone());
    }
    if let Some(s) = &r.serving {
        if req.serving.has_targets() {
            // The serving search chose the GPUs for the targets, not for memory alone.
            r.warnings.retain(|w| !w.starts_with("over-provisioned"));
        }
        if let Some(w) = &s.calibration_warning {
            r.warnings.insert(0, w.clone());
        }
        r.reasons.push(format!(
            "serves {} output tokens/s ({} per sequence, first token in {} s) with {} cop{} at TP {} × PP {}, {} sequence(s) per copy, on {} node(s): {}-bound{}",
            service::fmt_sig(s.aggregate_output_tokens_per_second),
            service::fmt_sig(s.decode_tokens_per_second_per_sequence),
            service::fmt_sig(s.ttft_seconds),
            s.replicas,
            if s.replicas == 1 { "y" } else { "ies" },
            s.tensor_parallel,
            s.pipeline_parallel,
            s.concurrency_per_replica,
            s.nodes,
            s.bound.name(),
            if s.binding.is_target() { format!("; binding: {}", s.binding.name()) } else { String::new() }
        ));
    }
}

const STAGE_REGION: usize = 10;
const STAGE_MEMORY_FIT: usize = 11;
const STAGE_SERVING: usize = 12;
const STAGE_PRICE: usize = 13;
/// A tight fit ranks as if it cost this much more: after a comfortable fit within 25 % of its
/// price, before a dearer one.
const TIGHT_PENALTY: f64 = 1.25;

/// Sort key: (tier, whole-fit USD/hour, per MIG instance when `--mig`); unknown prices last,
/// and sizes with no price at all by their GPU memory (smallest adequate first), never by name.
/// `--rank-by cost-per-token`: USD per million output tokens, where estimated. Tight fits rank
/// after comfortable ones of similar price. The key is in whole cents, as the table shows it, so
/// float noise in a division never orders two equal prices.
fn rank_key(r: &Recommendation, by: RankBy) -> (u8, i64) {
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
fn price_key(r: &Recommendation) -> (u8, f64) {
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
fn cents(p: Option<f64>) -> i64 {
    p.filter(|p| p.is_finite()).map_or(i64::MAX, |p| (p * 100.0).round() as i64)
}

struct Reject {
    stage: usize,
    constraint: Constraint,
}

/// How a stage turns a reason into a rejection of this size.
type RejectFn<'r> = dyn Fn(Reject, String) -> Rejected + 'r;

fn evaluate(catalog: &Catalog, req: &Requirements, size: &VmSize, max_nodes: u32) -> Result<Recommendation, Rejected> {
    let gpu = catalog.gpu(&size.gpu_model);
    let price = pick_price(catalog, req, size);
    let price_key = price.as_ref().and_then(|p| p.rank_per_node_hour).unwrap_or(f64::MAX);
    let reject = |r: Reject, reason: String| Rejected {
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
    if let Some(why) = unpriced(req, price.as_ref()).filter(|_| !asked_retired) {
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
        let mut r = reject(Reject { stage: STAGE_MEMORY_FIT, constraint: Constraint::MemoryFit }, why);
        r.sort_key = short;
        r
    })?;
    // 12. The service level: targets met, with more nodes of copies when that helps.
    let node_price = price.as_ref().and_then(|p| p.per_node_hour);
    let serving = serving_stage(catalog, req, size, &fit, node_price, &reject)?;
    let mut fit = fit;
    if let Some(s) = &serving {
        refit(req, &mut fit, s);
    }
    // 13. Price.
    let nodes = f64::from(fit.nodes);
    let total_price = price.as_ref().and_then(|p| p.per_node_hour).map(|p| p * nodes);
    check_price_cap(req, fit.nodes, total_price, &reject)?;
    let mut rec = recommendation(req, size, price, fit, total_price);
    rec.fp32 = upcast.is_some();
    rec.tight = tight_fit(req, &rec.fit);
    rec.serving = serving;
    Ok(rec)
}

/// Stages 1–5: lifecycle, AKS support, OS, workload kind, GPU model and driver.
fn check_eligible(
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
            format!(
                "retired{} (--include-retired to list it)",
                size.retirement_date.as_ref().map(|d| format!(" on {d}")).unwrap_or_default()
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
            format!("{why} (--include-unsupported to list it)"),
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
            format!("AKS allows only {} on this size", size.aks_os_skus.join(", ")),
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
            format!("GPU is {}, not {}", size.gpu_model, req.gpu_models.join(" or ")),
        ));
    }
    // 5b. Sizes AKS supports only without its GPU driver (confidential NCC H100, AMD): only when
    // the user brings the driver (--gpu-driver none) or names the GPU.
    if size.driver == Driver::None && !req.gpu_driver_none && req.gpu_models.is_empty() && req.serving.vm_size.is_none()
    {
        return Err(reject(
            Reject { stage: 5, constraint: Constraint::GpuDriver },
            format!(
                "AKS installs no GPU driver on {}; pass --gpu-driver none (NVIDIA GPU Operator) or name it with --gpu-model",
                size.gpu_model
            ),
        ));
    }
    Ok(())
}

/// Stages 6–9: GPUs per VM, MIG, memory per GPU (or slice) and per VM.
fn check_shape(
    req: &Requirements,
    size: &VmSize,
    mig_profiles: &[crate::catalog::MigProfile],
    reject: &RejectFn<'_>,
) -> Result<(), Rejected> {
    // 6. GPU count per VM.
    if !req.gpus.contains(size.gpu_count.value()) {
        return Err(reject(
            Reject { stage: 6, constraint: Constraint::Gpus },
            format!("{} GPU(s) per VM, wanted {}", size.gpu_count, req.gpus.describe("")),
        ));
    }
    // 7. MIG.
    if req.mig && !size.mig_capable {
        return Err(reject(
            Reject { stage: 7, constraint: Constraint::Mig },
            format!("{} does not support MIG on AKS", size.gpu_model),
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
                ),
            ),
            req.gpu_memory_gib.distance(size.gpu_memory_per_gpu_gib),
        ));
    }
    if req.mig && !mig_profiles.iter().any(|p| req.gpu_memory_gib.contains(p.memory_gib)) {
        return Err(reject(
            Reject { stage: 8, constraint: Constraint::GpuMemory },
            format!("no MIG slice of {} has {}", size.gpu_model, req.gpu_memory_gib.describe(" GiB")),
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
                ),
            ),
            req.total_gpu_memory_gib.distance(size.gpu_memory_gib),
        ));
    }
    Ok(())
}

/// The requirements in fp32 when the model overflows in fp16 (vLLM refuses float16 for
/// gemma2: `_FLOAT16_NOT_SUPPORTED_MODELS`) and the GPU has no bf16 to run it in.
fn fp32_instead(req: &Requirements, gpu: Option<&GpuModel>) -> Option<Requirements> {
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
fn serving_stage(
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
            format!("no datasheet figures for {} to estimate what it serves (gpus.yaml perf)", size.gpu_model),
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
fn refit(req: &Requirements, fit: &mut Fit, s: &service::Serving) {
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
fn tight_fit(req: &Requirements, fit: &Fit) -> Option<String> {
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
fn price_cap(req: &Requirements) -> Option<(Constraint, f64, f64)> {
    let hour = req.max_price_per_hour.map(|h| (Constraint::MaxPricePerHour, h, h));
    let month = req.max_price_per_month.map(|m| (Constraint::MaxPricePerMonth, m, m / HOURS_PER_MONTH));
    match (hour, month) {
        (Some(h), Some(m)) => Some(if m.2 < h.2 { m } else { h }),
        (h, m) => h.or(m),
    }
}

/// `v` an hour in the requirements' currency: `$3.67/h`, `€3.21/h`.
fn hour_in(v: f64, req: &Requirements) -> String {
    format!("{}/h", money_in(Some(v), &req.currency))
}

/// `--max-price-per-hour` / `--max-price-per-month`: an unknown price cannot be held to it.
fn check_price_cap(
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
                    format!("price unknown{}, so it cannot be held to {limit}", in_region(req)),
                ));
            }
            Some(p) if p > max + 1e-9 => {
                let nodes = if nodes > 1 { format!(" for {} nodes", nodes) } else { String::new() };
                let over = if monthly {
                    format!(
                        "{}/month{nodes} is over {} {typed}",
                        money_in(Some(p * HOURS_PER_MONTH), &req.currency),
                        flag.name()
                    )
                } else {
                    format!("{}{nodes} is over {} {typed}", hour_in(p, req), flag.name())
                };
                let mut r = reject(Reject { stage: STAGE_PRICE, constraint: flag }, over);
                r.sort_key = p;
                return Err(r);
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The accepted size with its fit and prices.
fn recommendation(
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
fn shortfall(mut r: Rejected, by: f64) -> Rejected {
    r.sort_key = by;
    r
}

/// vLLM's kernels for the weight format: MXFP4 runs from compute capability 8.0 (native on
/// Hopper/Blackwell, Marlin MXFP4 on Ampere/Ada: vllm-project/recipes:OpenAI/GPT-OSS.md), FP8
/// natively from 8.9 and weight-only through FP8 Marlin from 8.0 (vllm-project/vllm#5975), FP8
/// mixture-of-experts only from 8.9; Marlin needs Ampere (docs.vllm.ai quantization
/// supported_hardware). AMD GPUs and unknown capabilities are not judged here.
fn precision_unsupported(req: &Requirements, gpu: Option<&GpuModel>) -> Option<String> {
    let model = req.model.as_ref()?;
    if let Some(g) = gpu.filter(|g| !g.fp8 && req.serving.kv_cache_precision == Some(Precision::Fp8)) {
        return Some(format!("--kv-cache-precision fp8 needs FP8 support, which the {} lacks", g.id));
    }
    let g = gpu.filter(|g| g.vendor == Vendor::Nvidia)?;
    let cc = g.cc()?;
    let have = format!("{} has compute capability {}.{}", g.id, cc.0, cc.1);
    match req.precision {
        Precision::Mxfp4 | Precision::Nvfp4 if cc < (8, 0) => Some(format!(
            "{} weights need compute capability ≥ 8.0 in vLLM; {have} (--precision bf16 sizes the weights upcast)",
            req.precision.name().to_uppercase()
        )),
        Precision::Fp8 if cc < (8, 0) => {
            Some(format!("FP8 weights need compute capability ≥ 8.0 (weight-only FP8 Marlin; native from 8.9); {have}"))
        }
        Precision::Fp8 if cc < (8, 9) && model.moe => {
            Some(format!("vLLM runs FP8 mixture-of-experts weights only from compute capability 8.9; {have}"))
        }
        _ => None,
    }
}

fn round_cents(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

fn in_region(req: &Requirements) -> String {
    req.region.as_ref().map(|r| format!(" in {r}")).unwrap_or_default()
}

/// "linux on-demand", "windows spot".
pub fn price_kind(req: &Requirements) -> String {
    format!(
        "{} {}",
        if req.os == Os::Windows { "windows" } else { "linux" },
        if req.spot { "spot" } else { "on-demand" }
    )
}

/// The prices to try, best first, with their field name, ranking tier and basis. Windows ranks
/// by the Linux price when its own is unknown (the bundled table has no Windows prices); an
/// unknown spot price ranks after known ones, by the on-demand price.
fn price_fallbacks(os: Os, spot: bool) -> &'static [(&'static str, u8, &'static str)] {
    match (os, spot) {
        (Os::Linux, false) => &[("linux", 0, "linux on-demand")],
        (Os::Linux, true) => &[("linux_spot", 0, "linux spot"), ("linux", 1, "linux on-demand (spot unknown)")],
        (Os::Windows, false) => {
            &[("windows", 0, "windows on-demand"), ("linux", 0, "linux on-demand (windows unknown)")]
        }
        (Os::Windows, true) => &[
            ("windows_spot", 0, "windows spot"),
            ("linux_spot", 0, "linux spot (windows spot unknown)"),
            ("linux", 1, "linux on-demand (windows spot unknown)"),
        ],
    }
}

fn field(p: &RegionPrice, name: &str) -> Option<f64> {
    match name {
        "linux" => p.linux,
        "linux_spot" => p.linux_spot,
        "windows" => p.windows,
        "windows_spot" => p.windows_spot,
        _ => None,
    }
}

/// What one region offers for a size: the requested price, and the price the ranking uses.
struct Found {
    own: Option<f64>,
    tier: u8,
    rank: f64,
    basis: &'static str,
    field: &'static str,
}

impl Found {
    /// Lowest tier, then a region where the requested price is known, then the cheapest.
    fn key(&self) -> (u8, bool) {
        (self.tier, self.own.is_none())
    }
}

fn price_in(p: &RegionPrice, os: Os, spot: bool) -> Option<Found> {
    let wanted = price_fallbacks(os, spot);
    let own = field(p, wanted[0].0);
    wanted.iter().find_map(|&(f, tier, basis)| field(p, f).map(|rank| Found { own, tier, rank, basis, field: f }))
}

fn pick_price(catalog: &Catalog, req: &Requirements, size: &VmSize) -> Option<Price> {
    let best = match &req.region {
        Some(region) => {
            catalog.price(&size.name, region).and_then(|p| price_in(p, req.os, req.spot)).map(|x| (region.as_str(), x))
        }
        None => catalog
            .price_regions(&size.name)
            .filter(|(r, _)| req.regions.is_empty() || req.regions.iter().any(|w| w == r))
            .filter_map(|(r, p)| price_in(p, req.os, req.spot).map(|x| (r, x)))
            .min_by(|(ra, a), (rb, b)| a.key().cmp(&b.key()).then(a.rank.total_cmp(&b.rank)).then(ra.cmp(rb))),
    };
    let Some((region, found)) = best else {
        // Not sold (no list price) here or anywhere: kept only with --include-unpriced.
        return (req.include_unpriced || (req.include_retired && size.status == Status::Retired)).then(|| Price {
            per_node_hour: None,
            rank_per_node_hour: None,
            rank_tier: 2,
            basis: "unpriced".to_owned(),
            region: req.region.clone(),
            cheapest_region: false,
            field: "",
        });
    };
    Some(Price {
        per_node_hour: found.own,
        rank_per_node_hour: Some(found.rank),
        rank_tier: found.tier,
        basis: found.basis.to_owned(),
        region: Some(region.to_owned()),
        cheapest_region: req.region.is_none(),
        field: found.field,
    })
}

/// Why a size is taken as not sold: no list price in `--region` (or in any region).
fn unpriced(req: &Requirements, price: Option<&Price>) -> Option<String> {
    if price.is_some() {
        return None;
    }
    Some(match &req.region {
        Some(r) => format!("no list price in {r}: not sold there (--include-unpriced to list it)"),
        None if !req.regions.is_empty() => {
            format!("no list price in {}: not sold there (--include-unpriced to list it)", req.regions.join(", "))
        }
        None => "no list price in any region: not sold (--include-unpriced to list it)".to_owned(),
    })
}

/// True when `want` names this size's GPU (id, id prefix such as `A100`, or a word of its name).
pub fn gpu_matches(want: &str, size: &VmSize, gpu: Option<&GpuModel>) -> bool {
    let w = want.trim().to_ascii_lowercase();
    if w.is_empty() {
        return false;
    }
    size.gpu_model.to_ascii_lowercase() == w
        || size.gpu_model.to_ascii_lowercase().starts_with(&format!("{w}-"))
        || gpu.is_some_and(|g| g.name.to_ascii_lowercase().split(|c: char| !c.is_ascii_alphanumeric()).any(|t| t == w))
}

fn workload_mismatch(req: &Requirements, size: &VmSize, gpu: Option<&GpuModel>) -> Option<String> {
    let cc = gpu.and_then(GpuModel::cc);
    let amd_named = req.serving.vm_size.is_some()
        || req.gpu_models.iter().any(|m| {
            let m = m.to_ascii_lowercase();
            m.starts_with("mi") || m.starts_with('v')
        });
    let cuda = size.gpu_vendor == Vendor::Nvidia;
    match req.workload {
        Workload::Training | Workload::FineTuning | Workload::Hpc | Workload::DataScience => {
            if size.gpu_count.is_partial() {
                return Some(format!(
                    "{} is a partial GPU ({} of one); {} needs whole GPUs",
                    size.name,
                    size.gpu_count,
                    req.workload.name()
                ));
            }
            if !cuda && !amd_named {
                return Some(format!(
                    "{} GPUs need ROCm, not CUDA (name the model with --gpu-model to include AMD)",
                    size.gpu_vendor
                ));
            }
        }
        Workload::Inference | Workload::Cv => {
            if !cuda && !amd_named {
                return Some(format!(
                    "{} GPUs need ROCm, not CUDA (name the model with --gpu-model to include AMD)",
                    size.gpu_vendor
                ));
            }
        }
        Workload::Vdi => {
            if !size.driver.is_grid() {
                return Some(format!("virtual desktops need a GRID (vGPU) driver; AKS installs {} here", size.driver));
            }
        }
        Workload::Video => {
            if !gpu.is_some_and(|g| g.nvenc) {
                return Some(format!("{} has no hardware video encoder (NVENC)", size.gpu_model));
            }
        }
    }
    if req.workload == Workload::Hpc && !size.infiniband() {
        return Some("HPC needs InfiniBand between nodes; this size has none".to_owned());
    }
    if req.workload == Workload::DataScience && cc.is_some_and(|c| c < (7, 0)) {
        return Some(format!(
            "RAPIDS needs CUDA compute capability ≥ 7.0; {} has {}.{}",
            size.gpu_model,
            cc.map_or(0, |c| c.0),
            cc.map_or(0, |c| c.1)
        ));
    }
    None
}

/// A memory-fit failure: the reason, and how many GiB per GPU are missing (for "closest").
type FitError = (String, f64);

fn fit_size(
    req: &Requirements,
    size: &VmSize,
    mig_profiles: &[crate::catalog::MigProfile],
    max_nodes: u32,
) -> Result<Fit, FitError> {
    let gpu_id = &*size.gpu_model;
    let usable = estimate::layout(gpu_id, 1.0, 1, None).usable_fraction;
    if req.mig {
        return fit_mig(req, size, mig_profiles, usable);
    }
    let per_gpu_mem = size.gpu_memory_per_gpu_gib;
    let avail = per_gpu_mem * usable;
    let fit = |need_gib: f64, total: f64, per_node: f64, nodes: u32, l: Option<Layout>| Fit {
        required_per_gpu_gib: need_gib,
        available_per_gpu_gib: avail,
        gpu_memory_per_gpu_gib: per_gpu_mem,
        required_total_gib: total,
        gpus_used_per_node: per_node,
        nodes,
        mig: None,
        layout: l,
        replicas_per_node: 1,
        sequences_per_replica: req.concurrency,
        estimate: None,
    };
    let (Some(need), Some(model)) = (&req.need, &req.model) else {
        let used = if size.gpu_count.is_partial() { size.gpu_count.value() } else { f64::from(size.gpu_count.whole()) };
        return Ok(fit(0.0, 0.0, used, 1, None));
    };
    let train = need.activations.is_some();
    let recomputes: &[Option<Recompute>] =
        if train { &[Some(Recompute::None), Some(Recompute::Selective), Some(Recompute::Full)] } else { &[None] };
    let make =
        |l: Layout, per_node: f64, nodes: u32| fit(need.per_gpu_at(&l), need.total_at(&l), per_node, nodes, Some(l));
    if size.gpu_count.is_partial() {
        let best = recomputes.iter().map(|r| estimate::layout(gpu_id, 1.0, 1, *r));
        if let Some(l) = best.clone().find(|l| need.per_gpu_at(l) <= avail) {
            return Ok(make(l, size.gpu_count.value(), 1));
        }
        let least = best.map(|l| need.per_gpu_at(&l)).fold(f64::MAX, f64::min);
        return Err((
            format!(
                "needs {least:.1} GiB on one GPU; this {} share of a {} offers {avail:.1} usable GiB",
                size.gpu_count, size.gpu_model
            ),
            least - avail,
        ));
    }
    let g = size.gpu_count.whole().max(1);
    let options = gpu_options(req, g, train);
    // A copy that only just fits (see `tight_fit`) gives way to a wider one on the same node.
    let mut tight = None;
    for &n in &options {
        let Some(tp) = split_tp(req, model.arch, n, train) else { continue };
        let replicas = if train { 1 } else { g / n };
        let seqs = req.concurrency.div_ceil(u64::from(replicas.max(1)));
        for r in recomputes {
            let l = estimate::layout(gpu_id, f64::from(n), tp, *r);
            let per_gpu = if train { need.per_gpu_at(&l) } else { need.per_gpu_with(&l, seqs) };
            if per_gpu <= avail {
                let mut f = make(l, f64::from(n), 1);
                f.required_per_gpu_gib = per_gpu;
                f.required_total_gib = per_gpu * f64::from(n);
                f.replicas_per_node = replicas;
                f.sequences_per_replica = seqs;
                if train || tight_fit(req, &f).is_none() {
                    return Ok(f);
                }
                tight.get_or_insert(f);
                break;
            }
        }
    }
    if let Some(f) = tight {
        return Ok(f);
    }
    fit_nodes(req, size, need, model.arch, recomputes, max_nodes, avail)
        .map(|(l, per_node, nodes)| make(l, per_node, nodes))
}

/// The GPUs one copy may use on a node of `g` GPUs, fewest first. Inference: the fewest GPUs
/// that hold one copy of the model with its share of the sequences (copies fill the node:
/// `g / n` of them share `--concurrency`), so powers of two up to `g`, and `g`. Training: the
/// node is paid for whole, so every GPU works (data parallel beyond the tensor-parallel
/// degree) and the least recomputation that fits is chosen. A pinned split keeps only its own.
fn gpu_options(req: &Requirements, g: u32, train: bool) -> Vec<u32> {
    let mut options: Vec<u32> = (0..8).map(|i| 1u32 << i).filter(|n| *n <= g).collect();
    if !options.contains(&g) {
        options.push(g);
    }
    if train {
        options = vec![g];
    }
    if let Some(pinned) = pinned_gpus(req) {
        options.retain(|n| *n == pinned);
    }
    options
}

/// GPUs of one copy when `--tensor-parallel`/`--pipeline-parallel` pin the split.
fn pinned_gpus(req: &Requirements) -> Option<u32> {
    let s = &req.serving;
    match (s.tensor_parallel, s.pipeline_parallel) {
        (None, None) => None,
        (tp, pp) => Some(tp.unwrap_or(1) * pp.unwrap_or(1)),
    }
}

/// The tensor-parallel degree for a copy of `n` GPUs. Inference: `--tensor-parallel` when
/// pinned, else the largest degree dividing `n` that the head counts allow, the rest of the
/// GPUs being pipeline stages (vLLM's distributed-serving guide: when the model does not split
/// evenly across the GPUs by tensor parallelism, use pipeline parallelism). Training: the
/// largest power of two dividing `n` that passes the head rule, the rest data parallel.
fn split_tp(req: &Requirements, arch: Arch, n: u32, train: bool) -> Option<u32> {
    if train {
        return tensor_parallel(arch, n, true);
    }
    match (req.serving.tensor_parallel, req.serving.pipeline_parallel) {
        (Some(tp), _) => (n % tp == 0 && arch.tp_ok(tp)).then_some(tp),
        (None, Some(pp)) => (n % pp == 0 && arch.tp_ok(n / pp)).then_some(n / pp),
        (None, None) => (1..=n).rev().find(|t| n % t == 0 && arch.tp_ok(*t)),
    }
}

/// The tensor-parallel degree for `n` GPUs of a node (training: the largest power of two
/// dividing `n` that passes the head rule; inference: `n` itself).
fn tensor_parallel(arch: Arch, n: u32, train: bool) -> Option<u32> {
    if !train {
        return arch.tp_ok(n).then_some(n);
    }
    (0..8).map(|i| 1u32 << i).filter(|t| *t <= n && n % t == 0 && arch.tp_ok(*t)).max()
}

/// Several nodes: inference in pipeline stages of `tp` GPUs per node, training sharded over
/// every GPU (InfiniBand only).
fn fit_nodes(
    req: &Requirements,
    size: &VmSize,
    need: &Need,
    arch: Arch,
    recomputes: &[Option<Recompute>],
    max_nodes: u32,
    avail: f64,
) -> Result<(Layout, f64, u32), FitError> {
    let g = size.gpu_count.whole().max(1);
    let train = need.activations.is_some();
    // Every GPU of each node: tensor parallel within the node as far as the heads allow, the
    // rest pipeline stages (within and across nodes), as KAITO and vLLM run multi-node models.
    let per_node = g;
    let tp = split_tp(req, arch, per_node, train).unwrap_or(1);
    let gpu_id = &*size.gpu_model;
    let least_recompute = *recomputes.last().unwrap_or(&None);
    let floor = need.per_gpu_at(&estimate::layout(gpu_id, 1e12, tp, least_recompute));
    if floor > avail {
        return Err((
            format!(
                "each GPU needs at least {floor:.1} GiB that cannot be split (overhead, activations); a {} offers {avail:.1} usable GiB",
                size.gpu_model
            ),
            floor - avail,
        ));
    }
    for nodes in 2..=max_nodes {
        for r in recomputes {
            let l = estimate::layout(gpu_id, f64::from(per_node * nodes), tp, *r);
            if need.per_gpu_at(&l) > avail {
                continue;
            }
            let trains = matches!(req.workload, Workload::Training | Workload::FineTuning);
            if trains && req.os == Os::Windows {
                // PyTorch's distributed docs (torch.distributed, "Backends"): on Windows only Gloo
                // and MPI are built, never NCCL; FSDP and ZeRO-3 shard through NCCL's
                // reduce-scatter and all-gather across nodes.
                return Err((
                    format!(
                        "needs {nodes} nodes, and training sharded across nodes (FSDP, ZeRO-3) needs NCCL, \
                         which PyTorch does not build on Windows (pytorch.org/docs/stable/distributed.html, Backends)"
                    ),
                    need.per_gpu_at(&estimate::layout(gpu_id, f64::from(per_node), tp, least_recompute)) - avail,
                ));
            }
            if trains && !size.infiniband() {
                return Err((
                    format!("needs {nodes} nodes, and sharded training across nodes needs InfiniBand, which this size lacks"),
                    need.per_gpu_at(&estimate::layout(gpu_id, f64::from(per_node), tp, least_recompute)) - avail,
                ));
            }
            return Ok((l, f64::from(per_node), nodes));
        }
    }
    let most = estimate::layout(gpu_id, f64::from(per_node * max_nodes.max(1)), tp, least_recompute);
    let needed = need.per_gpu_at(&most);
    Err((
        format!(
            "needs {needed:.1} GiB per GPU even on {per_node} GPU(s){}; a {} offers {avail:.1} usable GiB ({} × {})",
            if max_nodes > 1 { format!(" × {max_nodes} nodes") } else { String::new() },
            size.gpu_model,
            most.usable_fraction,
            fmt_num(size.gpu_memory_per_gpu_gib)
        ),
        needed - avail,
    ))
}

fn fit_mig(
    req: &Requirements,
    size: &VmSize,
    mig_profiles: &[crate::catalog::MigProfile],
    usable: f64,
) -> Result<Fit, FitError> {
    let gpus = size.gpu_count.whole();
    let l =
        req.need.as_ref().map(|n| estimate::layout(&size.gpu_model, 1.0, 1, n.activations.map(|_| Recompute::Full)));
    let need_one = req.need.as_ref().zip(l.as_ref()).map(|(n, l)| n.per_gpu_at(l));
    let mut profiles: Vec<&crate::catalog::MigProfile> =
        mig_profiles.iter().filter(|p| req.gpu_memory_gib.contains(p.memory_gib)).collect();
    profiles.sort_by(|a, b| a.memory_gib.total_cmp(&b.memory_gib));
    let largest = mig_profiles.iter().map(|p| p.memory_gib).fold(0.0, f64::max) * usable;
    let chosen =
        profiles.into_iter().find(|p| need_one.is_none_or(|n| n <= p.memory_gib * usable)).ok_or_else(|| {
            (
                format!(
                    "needs {:.1} GiB in one MIG slice; the largest {} slice offers {largest:.1} usable GiB",
                    need_one.unwrap_or(0.0),
                    size.gpu_model,
                ),
                need_one.unwrap_or(0.0) - largest,
            )
        })?;
    Ok(Fit {
        required_per_gpu_gib: need_one.unwrap_or(0.0),
        available_per_gpu_gib: chosen.memory_gib * usable,
        gpu_memory_per_gpu_gib: chosen.memory_gib,
        required_total_gib: need_one.unwrap_or(0.0),
        gpus_used_per_node: 1.0,
        nodes: 1,
        mig: Some(MigFit {
            profile: chosen.profile.clone(),
            slice: chosen.slice.clone(),
            instances_per_gpu: chosen.instances,
            instances_per_node: chosen.instances * gpus,
            memory_gib: chosen.memory_gib,
        }),
        layout: l,
        replicas_per_node: 1,
        sequences_per_replica: req.concurrency,
        estimate: None,
    })
}

fn explain(
    catalog: &Catalog,
    req: &Requirements,
    size: &VmSize,
    gpu: Option<&GpuModel>,
    fit: &Fit,
    price: Option<&Price>,
) -> (Vec<String>, Vec<String>) {
    let mut reasons = Vec::new();
    let mut warnings = Vec::new();
    explain_fit(req, size, fit, &mut reasons, &mut warnings);
    explain_workload(req, size, gpu, &mut reasons);
    if let (Some(g), Some(_)) = (gpu, &req.model) {
        precision_warnings(req, g, &mut warnings);
    }
    if size.gpu_count.is_partial() {
        reasons.push(format!(
            "partial GPU: {} of a {} ({} GiB)",
            size.gpu_count,
            size.gpu_model,
            fmt_num(size.gpu_memory_gib)
        ));
    }
    explain_price(req, price, &mut reasons, &mut warnings);
    size_warnings(catalog, req, size, &mut warnings);
    if req.spot {
        warnings.push(
            "spot: Azure can evict these nodes at any time (taint kubernetes.azure.com/scalesetpriority=spot)"
                .to_owned(),
        );
    }
    (reasons, warnings)
}

/// How the memory fits (MIG slice, GPUs, setup), and over-provisioning or multi-node warnings.
fn explain_fit(req: &Requirements, size: &VmSize, fit: &Fit, reasons: &mut Vec<String>, warnings: &mut Vec<String>) {
    if let Some(m) = &fit.mig {
        reasons.push(format!(
            "MIG {} ({}): {} instance(s) per GPU, {} per node, {} GiB each",
            m.profile,
            m.slice,
            m.instances_per_gpu,
            m.instances_per_node,
            fmt_num(m.memory_gib)
        ));
    }
    if let (Some(need), Some(l)) = (&req.need, fit.layout) {
        // One copy of the model: its GPUs and the nodes they span (more nodes of copies are
        // the serving answer's replicas).
        let copy_nodes = (l.gpus / fit.gpus_used_per_node.max(1e-9)).round().max(1.0);
        reasons.push(format!(
            "fits: {:.1} GiB needed per GPU on {} GPU(s){}{}, {:.1} GiB usable ({} × {} GiB)",
            fit.required_per_gpu_gib,
            fmt_num(if fit.mig.is_some() { fit.gpus_used_per_node } else { l.gpus }),
            if copy_nodes > 1.0 { format!(" across {copy_nodes} nodes") } else { String::new() },
            if req.workload == Workload::Inference && fit.replicas_per_node > 1 {
                format!(" per copy, {} copies per node", fit.replicas_per_node)
            } else {
                String::new()
            },
            fit.available_per_gpu_gib,
            l.usable_fraction,
            fmt_num(fit.gpu_memory_per_gpu_gib)
        ));
        // Training and fine-tuning: what the GPUs hold in this setup, as the header says it.
        if need.method != estimate::Method::Inference && fit.mig.is_none() {
            reasons.push(format!("memory: {}", memory_terms(&need.fitted(l))));
        }
        if let (Some(setup), None) = (need.fitted(l).setup, &fit.mig) {
            reasons.push(format!("setup: {setup}"));
        }
        let have = fit.available_per_gpu_gib * if fit.mig.is_some() { 1.0 } else { size.gpu_count.value().max(l.gpus) };
        let copies = f64::from(fit.replicas_per_node.max(1));
        let needed =
            if fit.mig.is_some() { fit.required_per_gpu_gib } else { fit.required_per_gpu_gib * l.gpus * copies };
        // Copies of the model fill a node on purpose (serving figures count them all).
        if needed > 0.0 && have / needed > 2.0 && fit.replicas_per_node <= 1 {
            warnings.push(format!("over-provisioned: {:.1}× the GPU memory this workload needs", have / needed));
        }
        if l.gpus > fit.gpus_used_per_node + 1e-9 && req.workload == Workload::Inference {
            let nodes = (l.gpus / fit.gpus_used_per_node.max(1.0)).round();
            warnings.push(format!(
                "needs {nodes} nodes per copy: multi-node inference (pipeline parallel across nodes) over {}; the last resort{}",
                size.interconnect.as_deref().unwrap_or("Azure networking (no InfiniBand)"),
                if size.infiniband() { "" } else { ": without InfiniBand every token crosses the VM network" }
            ));
        }
    }
}

/// What suits the workload kind (NVENC, GRID, InfiniBand, RAPIDS).
fn explain_workload(req: &Requirements, size: &VmSize, gpu: Option<&GpuModel>, reasons: &mut Vec<String>) {
    match req.workload {
        Workload::Video if gpu.is_some_and(|g| g.nvenc) => {
            reasons.push(format!("{} has NVENC hardware video encode", size.gpu_model))
        }
        Workload::Vdi => reasons.push("GRID (vGPU) driver for virtual desktops".to_owned()),
        Workload::Hpc => reasons.push(format!("InfiniBand: {}", size.interconnect.as_deref().unwrap_or("yes"))),
        Workload::DataScience => {
            if let Some(cc) = gpu.and_then(|g| g.compute_capability.clone()) {
                reasons.push(format!("CUDA compute capability {cc}: RAPIDS-capable"));
            }
        }
        _ => {}
    }
}

/// Warnings about the size itself: preview, Windows, lifecycle, AKS support, Arm64 host, driver,
/// and Microsoft's minimum recommended size.
fn size_warnings(catalog: &Catalog, req: &Requirements, size: &VmSize, warnings: &mut Vec<String>) {
    if let Some((crate::catalog::AksStatus::Preview, rule)) = catalog.series_status(&size.series) {
        warnings.push(format!("preview: {}", rule.summary));
    }
    if req.os == Os::Windows {
        if let Some((v, feature, _)) = catalog.windows_min_kubernetes() {
            warnings.push(format!("Windows GPU pools are preview: Kubernetes ≥ {v} and the {feature} feature"));
        }
    }
    match size.status {
        Status::Retiring => warnings
            .push(format!("retiring{}", size.retirement_date.as_ref().map(|d| format!(" on {d}")).unwrap_or_default())),
        Status::Retired => warnings
            .push(format!("retired{}", size.retirement_date.as_ref().map(|d| format!(" on {d}")).unwrap_or_default())),
        Status::Current => {}
    }
    if !size.aks_supported {
        warnings.push(
            "not supported for AKS GPU node pools: only with --gpu-driver none, and you install and own the driver (rule driver-none-any-size)"
                .to_owned(),
        );
    }
    if size.cpu_architecture == crate::catalog::CpuArch::Arm64 {
        warnings.push("Arm64 host (NVIDIA Grace): container images must be built for linux/arm64".to_owned());
    }
    if size.gpu_vendor == Vendor::Amd {
        warnings.push("AMD: create the pool with --gpu-driver none and install the AMD GPU Operator".to_owned());
    } else if size.driver == Driver::None {
        warnings.push(format!(
            "AKS installs no GPU driver on {}: create the pool with --gpu-driver none and install the NVIDIA GPU Operator (--install-operator)",
            size.series
        ));
    }
    let os_key = if req.os == Os::Windows { "windows" } else { "linux" };
    if let Some((min, _)) = catalog.min_recommended_size(os_key) {
        if let Some(min) = catalog.size(min) {
            if size.gpu_memory_per_gpu_gib + 1e-9 < min.gpu_memory_per_gpu_gib && size.vcpus < min.vcpus {
                warnings.push(format!("smaller than Microsoft's minimum recommended {} size {}", os_key, min.name));
            }
        }
    }
}

fn explain_price(req: &Requirements, price: Option<&Price>, reasons: &mut Vec<String>, warnings: &mut Vec<String>) {
    let Some(p) = price else { return };
    let region = p.region.as_deref().unwrap_or("any region");
    let where_ =
        if p.cheapest_region { format!("{region} (cheapest region; --location to choose)") } else { region.to_owned() };
    match (p.per_node_hour, p.rank_per_node_hour) {
        (Some(v), _) => reasons.push(format!("{} per node in {where_}", hour_in(v, req))),
        (None, Some(v)) => warnings.push(format!(
            "{} price unknown in {region} (`aksgpu prices refresh` fetches it); ranked by the {} price {} per node",
            price_kind(req),
            p.basis.split(" (").next().unwrap_or(&p.basis),
            hour_in(v, req)
        )),
        (None, None) => warnings.push(format!(
            "no list price{}: Azure may not sell this size there; ranked last",
            p.region.as_ref().map(|r| format!(" in {r}")).unwrap_or_else(|| " in any region".to_owned())
        )),
    }
}

/// Say how the weights will run when the GPU lacks the precision's native support: every such
/// result carries the warning, whether the precision was chosen or defaulted.
fn precision_warnings(req: &Requirements, g: &GpuModel, warnings: &mut Vec<String>) {
    if req.precision == Precision::Fp32 && req.model.as_ref().is_some_and(|m| m.fp16_unstable) {
        warnings.push(format!(
            "{} has no BF16 and this model overflows in fp16 (vLLM refuses float16 for it: numerical instability): \
             it runs in fp32, sized so (twice the bf16 memory)",
            g.id
        ));
        return;
    }
    match req.precision {
        Precision::Bf16 if !g.bf16 && req.workload == Workload::Inference => warnings
            .push(format!("{} has no BF16: vLLM serves the bf16 weights as fp16 (--dtype half), same memory", g.id)),
        Precision::Bf16 if !g.bf16 => warnings
            .push(format!("{} has no BF16: train in fp16 mixed precision with loss scaling (same memory)", g.id)),
        Precision::Fp8 if !g.fp8 => warnings.push(format!(
            "{} has no FP8 tensor cores (compute capability < 8.9): vLLM runs the fp8 weights \
             weight-only through FP8 Marlin, same memory, slower",
            g.id
        )),
        Precision::Mxfp4 if g.cc().is_some_and(|c| c < (9, 0)) => warnings.push(format!(
            "{} runs MXFP4 through vLLM's Marlin kernel (weight-only), same memory, slower than Hopper",
            g.id
        )),
        Precision::Nvfp4 if g.cc().is_some_and(|c| c < (10, 0)) => warnings.push(format!(
            "{} has no FP4 tensor cores (Blackwell has): vLLM runs NVFP4 weight-only through its FP4 Marlin kernel, same memory, slower",
            g.id
        )),
        _ => {}
    }
}

/// Format a number without trailing zeros (`80`, `0.5`, `13.44`).
pub fn fmt_num(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZES: &str = r#"
- series: Small
  family: NC
  source: test
  status: current
  gpu_model: G16
  driver: cuda
  hyperv_generations: [2]
  aks: {supported: true, os_skus: [Ubuntu]}
  sizes:
    - {name: Standard_NC1_small, vcpus: 4, memory_gib: 28, gpu_count: 1, gpu_memory_gib: 16}
    - {name: Standard_NC4_small, vcpus: 64, memory_gib: 440, gpu_count: 4, gpu_memory_gib: 64}
- series: Big
  family: ND
  source: test
  status: current
  gpu_model: G80
  driver: cuda
  interconnect: InfiniBand NDR
  hyperv_generations: [2]
  aks: {supported: true, os_skus: [Ubuntu, Windows2022]}
  sizes:
    - {name: Standard_ND8_big, vcpus: 96, memory_gib: 1900, gpu_count: 8, gpu_memory_gib: 640}
- series: Old
  family: NC
  source: test
  status: retired
  retirement_date: "2020-01-01"
  gpu_model: G80
  driver: cuda
  aks: {supported: false}
  sizes:
    - {name: Standard_NC1_old, vcpus: 4, memory_gib: 28, gpu_count: 1, gpu_memory_gib: 80}
"#;
    const GPUS: &str = r#"
- {id: G16, vendor: NVIDIA, name: Test 16, memory_gib: 16, compute_capability: "7.5", bf16: false, fp8: false, nvenc: true, source: t}
- id: G80
  vendor: NVIDIA
  name: Test 80
  memory_gib: 80
  compute_capability: "9.0"
  bf16: true
  fp8: true
  nvenc: false
  source: t
  mig_profiles:
    - {profile: MIG1g, slice: 1g.10gb, instances: 7, memory_gib: 10}
    - {profile: MIG3g, slice: 3g.40gb, instances: 2, memory_gib: 40}
"#;
    const RULES: &str = r#"
- {id: mig, kind: mig, summary: s, source: t, gpu_models: [G80], immutable: true}
- {id: win, kind: windows_min_kubernetes, summary: s, source: t, min_version: "1.29", feature: WindowsGPUPreview}
"#;
    const PRICES: &str = r#"
currency: USD
as_of: test
source: test
sizes:
  Standard_NC1_small: {eastus: {linux: 0.5, linux_spot: 0.1}, westus: {linux: 0.4}}
  Standard_NC4_small: {eastus: {linux: 4.0}}
  Standard_ND8_big: {eastus: {linux: 30.0, windows: 40.0}}
  Standard_NC1_old: {eastus: {linux: 0.2}}
"#;
    const MODELS: &str = r#"
- {id: org/m8, aliases: [m8], params_b: 8, layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8, head_dim: 128, context: 8192, native_dtype: bf16, checkpoint_gib: 14.9, source: t}
"#;

    fn catalog() -> Catalog {
        Catalog::from_yaml(&[
            ("sizes/test.yaml", SIZES),
            ("gpus.yaml", GPUS),
            ("rules.yaml", RULES),
            ("prices.yaml", PRICES),
            ("models.yaml", MODELS),
        ])
        .expect("test catalog")
    }

    fn req(workload: Workload, params: Option<f64>) -> Requirements {
        let c = catalog();
        let mut r = Requirements::new(workload);
        // A bf16 checkpoint of exactly params × 2 B.
        let model = |p: f64| LlmModel { params_b: p, checkpoint_gib: p * 2e9 / GIB, ..c.models[0].clone() };
        r.model = params.map(|p| ModelSpec::from_model(&model(p)));
        r.context = 2048;
        r.compute_need();
        r
    }

    const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

    fn names(o: &Outcome) -> Vec<&str> {
        o.recommendations.iter().map(|r| r.vm_size.as_str()).collect()
    }

    #[test]
    fn test_catalog_is_valid() {
        assert_eq!(catalog().validate(), Vec::<String>::new());
    }

    /// 8.03B bf16, 2048 tokens (KAITO's estimator): weights 14.957 GiB × 1.02 × 1.05 = 16.019,
    /// KV 0.25 GiB, + 2.3 per GPU. One 16 GiB GPU offers 0.92 × 16 = 14.72 → no (18.57). Two of
    /// the four: 8.010 + 0.125 + 2.3 = 10.435 → fits ($4). The big size fits on 1 GPU ($30).
    /// The retired size is excluded.
    #[test]
    fn ranks_cheapest_fit_first_with_hand_worked_gpu_counts() {
        let c = catalog();
        let o = recommend(&c, &req(Workload::Inference, Some(8.03)));
        assert_eq!(names(&o), ["Standard_NC4_small", "Standard_ND8_big"]);
        let first = &o.recommendations[0];
        assert_eq!(first.fit.gpus_used_per_node, 2.0);
        assert_eq!(first.fit.nodes, 1);
        assert!((first.fit.required_per_gpu_gib - 10.435).abs() < 0.01, "{}", first.fit.required_per_gpu_gib);
        assert_eq!(first.price_per_hour, Some(4.0));
        assert_eq!(first.monthly_cost, Some(2920.0));
        assert_eq!(o.recommendations[1].fit.gpus_used_per_node, 1.0);
        let small = o.rejected.iter().find(|r| r.vm_size == "Standard_NC1_small").expect("rejected");
        assert_eq!(small.constraint.name(), "memory fit");
        let old = o.rejected.iter().find(|r| r.vm_size == "Standard_NC1_old").expect("rejected");
        assert_eq!(old.constraint.name(), "retired");
    }

    #[test]
    fn cheapest_region_is_used_without_region_and_named_region_otherwise() {
        let c = catalog();
        let mut r = req(Workload::Cv, None);
        let o = recommend(&c, &r);
        let small = o.recommendations.iter().find(|x| x.vm_size == "Standard_NC1_small").expect("present");
        assert_eq!((small.price_per_hour, small.price_region.as_deref()), (Some(0.4), Some("westus")));
        r.region = Some("eastus".into());
        r.spot = true;
        let o = recommend(&c, &r);
        assert_eq!(names(&o)[0], "Standard_NC1_small");
        assert_eq!(o.recommendations[0].price_per_hour, Some(0.1));
        // No spot price for the others: unknown prices rank last.
        assert_eq!(o.recommendations.last().map(|x| x.price_per_hour), Some(None));
    }

    #[test]
    fn price_limit_names_the_constraint_and_sorts_alternatives_by_cost() {
        let c = catalog();
        let mut r = req(Workload::Inference, Some(8.03));
        r.max_price_per_hour = Some(1.0);
        let o = recommend(&c, &r);
        let nf = o.no_fit().expect("nothing fits");
        assert_eq!(nf.constraint.name(), "--max-price-per-hour");
        assert_eq!(
            nf.closest.iter().map(|x| x.vm_size.as_str()).collect::<Vec<_>>(),
            ["Standard_NC4_small", "Standard_ND8_big"]
        );
        // The price limit does not push the model onto several small nodes.
        assert!(o.rejected.iter().all(|x| !x.reason.contains("nodes")));
        // The same limit a month: 730 h × $1 = $730; the tighter of the two applies.
        r.max_price_per_hour = None;
        r.max_price_per_month = Some(730.0);
        let o = recommend(&c, &r);
        let nf = o.no_fit().expect("nothing fits");
        assert_eq!(nf.constraint.name(), "--max-price-per-month");
        assert!(nf.closest[0].reason.ends_with("/month is over --max-price-per-month 730"), "{:?}", nf.closest);
        r.max_price_per_hour = Some(0.5);
        assert_eq!(recommend(&c, &r).no_fit().expect("nothing fits").constraint.name(), "--max-price-per-hour");
        r.max_price_per_hour = Some(100.0);
        assert_eq!(recommend(&c, &r).no_fit().expect("nothing fits").constraint.name(), "--max-price-per-month");
    }

    /// 5000B bf16 fits nowhere: 9313 GiB × 1.071 = 9975 GiB. On 8 nodes the big size lacks
    /// 9975/64 + 2.3 − 73.6 = 84.6 GiB per GPU, four small GPUs × 8 lack 299, one small × 8
    /// lack 1235. "closest" lists them in that order, not cheapest first.
    #[test]
    fn closest_lists_the_smallest_shortfall_first() {
        let c = catalog();
        let o = recommend(&c, &req(Workload::Inference, Some(5000.0)));
        let nf = o.no_fit().expect("nothing fits");
        assert_eq!(nf.constraint.name(), "memory fit");
        let order: Vec<&str> = nf.closest.iter().map(|x| x.vm_size.as_str()).collect();
        assert_eq!(order, ["Standard_ND8_big", "Standard_NC4_small", "Standard_NC1_small"]);
        let big = &o.rejected.iter().find(|r| r.vm_size == "Standard_ND8_big").expect("rejected");
        assert!((big.sort_key - 84.6).abs() < 0.1, "{}", big.sort_key);
    }

    /// An architecture that cannot run the weights is refused, never close to fitting.
    #[test]
    fn mxfp4_and_fp8_need_the_compute_capability_vllm_needs() {
        let c = catalog();
        let mut r = req(Workload::Inference, Some(8.03));
        r.precision = Precision::Mxfp4;
        r.compute_need();
        let o = recommend(&c, &r);
        // G16 has compute capability 7.5, G80 9.0.
        assert_eq!(names(&o), ["Standard_ND8_big"]);
        let small = o.rejected.iter().find(|x| x.vm_size == "Standard_NC4_small").expect("rejected");
        assert_eq!(small.constraint.name(), "precision support");
        assert!(small.reason.contains("≥ 8.0") && small.reason.contains("7.5"), "{}", small.reason);
        r.precision = Precision::Fp8;
        let o = recommend(&c, &r);
        assert!(o
            .rejected
            .iter()
            .any(|x| x.vm_size == "Standard_NC4_small" && x.constraint.name() == "precision support"));
    }

    /// bf16 on a GPU without BF16 is never silent, chosen or defaulted.
    #[test]
    fn bf16_without_bf16_warns_on_every_result() {
        let c = catalog();
        let o = recommend(&c, &req(Workload::Inference, Some(8.03)));
        let small = o.recommendations.iter().find(|x| x.vm_size == "Standard_NC4_small").expect("fits");
        assert!(small.warnings.iter().any(|w| w.contains("no BF16") && w.contains("fp16")), "{:?}", small.warnings);
        let big = o.recommendations.iter().find(|x| x.vm_size == "Standard_ND8_big").expect("fits");
        assert!(!big.warnings.iter().any(|w| w.contains("BF16")));
    }

    /// Tensor parallelism must divide the heads; where it cannot, the rest of the GPUs are
    /// pipeline stages (vLLM's distributed-serving guide), never a refusal. A 71-head model
    /// (falcon-7b) that one GPU cannot hold runs on the 4-GPU size as two copies of TP 1 × PP 2;
    /// phi-4's 40 heads and 10 KV heads as
    /// TP 2 × PP 2 (10 KV heads do not divide by 4).
    #[test]
    fn pipeline_parallel_where_the_heads_rule_out_tensor_parallel() {
        let c = catalog();
        let mut r = req(Workload::Inference, Some(8.03));
        if let Some(m) = r.model.as_mut() {
            m.arch = Arch::full_attention(32, 4544, 71, 1, 64);
        }
        r.compute_need();
        let o = recommend(&c, &r);
        let four = o.recommendations.iter().find(|x| x.vm_size == "Standard_NC4_small").expect("fits");
        let l = four.fit.layout.expect("layout");
        assert_eq!((l.tensor_parallel, l.gpus, four.fit.replicas_per_node), (1, 2.0, 2));
        assert!(four.reasons.iter().any(|x| x.contains("tensor parallel 1 × 2 pipeline")), "{:?}", four.reasons);
        let phi4 = Arch::full_attention(40, 5120, 40, 10, 128);
        assert!(!phi4.tp_ok(4));
        assert_eq!(split_tp(&r, phi4, 4, false), Some(2));
        assert_eq!(split_tp(&r, phi4, 8, false), Some(2));
        // A pinned split is kept, or the size is passed over.
        r.serving.tensor_parallel = Some(4);
        assert_eq!(split_tp(&r, phi4, 4, false), None);
    }

    fn bundled_kv(id: &str, context: u64, sequences: u64) -> f64 {
        let c = Catalog::bundled().expect("bundled catalog");
        let m = ModelSpec::from_model(c.model(id).expect("model"));
        let mut r = Requirements::new(Workload::Inference);
        r.model = Some(m);
        r.context = context;
        r.concurrency = sequences;
        r.compute_need();
        r.need.map_or(0.0, |n| n.kv_cache_gib)
    }

    /// gpt-oss-20b's config.json: num_hidden_layers 24, num_key_value_heads 8, head_dim 64,
    /// sliding_window 128, layer_types alternating sliding_attention / full_attention (12 each).
    /// One sequence of 131072 tokens in bf16: 2 × 8 × 64 × 2 B = 2048 B per layer and token;
    /// 12 × 131072 + 12 × 128 = 1,574,400 layer-tokens → 3,224,371,200 B = 3.0029 GiB. Sixteen
    /// sequences: 48.05 GiB, not the 96 GiB of every layer keeping every token.
    #[test]
    fn kv_cache_of_a_sliding_window_model_counts_only_the_window() {
        let kv = bundled_kv("openai/gpt-oss-20b", 131_072, 16);
        let hand = 16.0 * 2048.0 * (12.0 * 131_072.0 + 12.0 * 128.0) / GIB;
        assert!((kv - hand).abs() < 1e-6, "{kv} vs {hand}");
        assert!((kv - 48.047).abs() < 0.01, "{kv}");
        // Mistral 7B v0.1 windows every layer at 4096 (config.json sliding_window 4096): at
        // 32768 tokens it keeps 32 × 4096 × 2 × 8 × 128 × 2 B = 0.5 GiB per sequence.
        let mistral = bundled_kv("mistralai/Mistral-7B-v0.1", 32_768, 1);
        assert!((mistral - 32.0 * 4096.0 * 4096.0 / GIB).abs() < 1e-6, "{mistral}");
    }

    /// Qwen3-30B-A3B's config.json: num_hidden_layers 48, num_key_value_heads 4, head_dim 128
    /// (128 experts, 8 per token: the experts hold no KV cache). Per token 2 × 48 × 4 × 128 × 2 B
    /// = 98,304 B; 4096 tokens = 0.375 GiB.
    #[test]
    fn kv_cache_of_a_mixture_of_experts_model_follows_its_attention() {
        let kv = bundled_kv("Qwen/Qwen3-30B-A3B", 4096, 1);
        assert!((kv - 98_304.0 * 4096.0 / GIB).abs() < 1e-9, "{kv}");
        assert!((kv - 0.375).abs() < 1e-9);
    }

    /// Llama 3.1 70B's config.json: num_hidden_layers 80, num_attention_heads 64,
    /// num_key_value_heads 8 (grouped-query), head_dim 8192 / 64 = 128. Per token 2 × 80 × 8 ×
    /// 128 × 2 B = 327,680 B; 8192 tokens = 2.5 GiB (the 64 query heads would take 20 GiB).
    #[test]
    fn kv_cache_of_a_grouped_query_model_counts_kv_heads() {
        let kv = bundled_kv("meta-llama/Llama-3.1-70B-Instruct", 8192, 1);
        assert!((kv - 2.5).abs() < 1e-9, "{kv}");
    }

    /// A 70B model in bf16 on two 80 GB A100s leaves room for one 4096-token sequence: the fit
    /// is warned with its numbers.
    #[test]
    fn tight_fits_are_warned_with_the_numbers() {
        let c = Catalog::bundled().expect("bundled catalog");
        let mut r = Requirements::new(Workload::Inference);
        r.model = Some(ModelSpec::from_model(c.model("llama-3.1-70b").expect("model")));
        r.gpu_models = vec!["A100".to_owned()];
        r.compute_need();
        let o = recommend(&c, &r);
        let two = o.recommendations.iter().find(|x| x.fit.gpus_used_per_node == 2.0).expect("a 2-GPU fit");
        let w = two.warnings.first().expect("warning");
        assert!(w.starts_with("tight fit: room for 1 sequence(s) of 4096 tokens"), "{w}");
    }

    /// Gemma 2 overflows in fp16 (vLLM's `_FLOAT16_NOT_SUPPORTED_MODELS`): on a T4 (no bf16)
    /// it is sized in fp32, 9.24e9 × 4 B = 34.4 GiB of weights, with the reason; on an A10 (bf16)
    /// in bf16.
    #[test]
    fn a_model_that_overflows_in_fp16_is_sized_in_fp32_without_bf16() {
        let c = Catalog::bundled().expect("bundled catalog");
        let mut r = Requirements::new(Workload::Inference);
        r.model = Some(ModelSpec::from_model(c.model("gemma-2-9b").expect("model")));
        r.gpu_models = vec!["T4".to_owned(), "A10".to_owned()];
        r.top = 50;
        r.compute_need();
        let o = recommend(&c, &r);
        let t4 = o.recommendations.iter().find(|x| x.gpu_model == "T4").expect("a T4 fit");
        let w = t4.fit.estimate.as_ref().and_then(|e| e.breakdown.first()).expect("weights term");
        assert!((w.gib - 9.24e9 * 4.0 * 1.02 / GIB).abs() < 0.01, "{w:?}");
        assert!(t4.warnings.iter().any(|x| x.contains("runs in fp32")), "{:?}", t4.warnings);
        let a10 = o.recommendations.iter().find(|x| x.gpu_model == "A10").expect("an A10 fit");
        assert!(!a10.warnings.iter().any(|x| x.contains("fp32")), "{:?}", a10.warnings);
    }

    #[test]
    fn training_reports_the_cheapest_setup_in_the_estimate() {
        let c = catalog();
        let o = recommend(&c, &req(Workload::Training, Some(8.03)));
        let est = o.recommendations[0].fit.estimate.as_ref().expect("estimate");
        let setup = est.setup.as_deref().expect("setup");
        // 8.03e9 × 16 B = 119.7 GiB of states over all 8 GPUs = 15.0 each, activations
        // 32 × 2048 × 4096 × 114 B / 8 = 3.6 GiB: no recomputation needed.
        assert!(setup.contains("no activation recomputation") && setup.contains("8 GPUs"), "{setup}");
        assert_eq!(est.layout.and_then(|l| l.recompute), Some(Recompute::None));
    }

    #[test]
    fn inference_spans_nodes_only_when_no_single_node_fits() {
        let c = catalog();
        // 300B bf16 ≈ 586 GiB loaded with its overhead: more than one big node (8 × 73.6 usable).
        let o = recommend(&c, &req(Workload::Inference, Some(300.0)));
        assert_eq!(names(&o), ["Standard_ND8_big"]);
        assert_eq!(o.recommendations[0].fit.nodes, 2);
        assert!(o.recommendations[0].warnings.iter().any(|w| w.contains("multi-node")));
    }

    #[test]
    fn training_across_nodes_needs_infiniband() {
        let c = catalog();
        // 8.03e9 × 18 B = 134.6 GiB of states; 4 small GPUs can't, and multi-node small has no IB.
        let o = recommend(&c, &req(Workload::Training, Some(8.03)));
        assert_eq!(names(&o), ["Standard_ND8_big"]);
        let small = o.rejected.iter().find(|r| r.vm_size == "Standard_NC4_small").expect("rejected");
        assert!(small.reason.contains("InfiniBand") || small.reason.contains("cannot be split"), "{}", small.reason);
    }

    #[test]
    fn mig_chooses_the_smallest_slice_that_fits() {
        let c = catalog();
        let mut r = req(Workload::Inference, Some(1.0));
        r.mig = true;
        let o = recommend(&c, &r);
        assert_eq!(names(&o), ["Standard_ND8_big"]);
        // 1B bf16: 1.863 × 1.02 × 1.05 + 0.25 + 2.3 = 4.55 GiB ≤ 10 GiB × 0.92 = 9.2 → MIG1g, 56 per node.
        let m = o.recommendations[0].fit.mig.as_ref().expect("mig");
        assert_eq!((m.profile.as_str(), m.instances_per_node), ("MIG1g", 56));
        assert_eq!(o.recommendations[0].price_per_instance_hour, Some((30.0f64 / 56.0 * 10_000.0).round() / 10_000.0));
    }

    #[test]
    fn windows_uses_windows_prices_and_sizes() {
        let c = catalog();
        let mut r = req(Workload::Cv, None);
        r.os = Os::Windows;
        let o = recommend(&c, &r);
        assert_eq!(names(&o), ["Standard_ND8_big"]);
        assert_eq!(o.recommendations[0].price_per_hour, Some(40.0));
        assert!(o.recommendations[0].warnings.iter().any(|w| w.contains("WindowsGPUPreview")));
    }

    #[test]
    fn workload_kinds_filter() {
        let c = catalog();
        let video = recommend(&c, &req(Workload::Video, None));
        assert_eq!(names(&video), ["Standard_NC1_small", "Standard_NC4_small"]);
        let hpc = recommend(&c, &req(Workload::Hpc, None));
        assert_eq!(names(&hpc), ["Standard_ND8_big"]);
        let vdi = recommend(&c, &req(Workload::Vdi, None));
        assert!(vdi.recommendations.is_empty());
        assert_eq!(vdi.no_fit().expect("no fit").constraint.name(), "--workload");
    }

    fn catalog_with_prices(prices: &str) -> Catalog {
        Catalog::from_yaml(&[
            ("sizes/test.yaml", SIZES),
            ("gpus.yaml", GPUS),
            ("rules.yaml", RULES),
            ("prices.yaml", prices),
            ("models.yaml", MODELS),
        ])
        .expect("test catalog")
    }

    const WORLD_PRICES: &str = r#"
currency: USD
as_of: test
source: test
sizes:
  Standard_NC1_small: {eastus: {linux: 0.5, linux_spot: 0.1}, westeurope: {linux: 0.7}}
  Standard_NC4_small: {eastus: {linux: 4.0}}
  Standard_ND8_big: {eastus: {linux: 30.0, windows: 40.0}, westeurope: {linux: 20.0}}
"#;

    /// With --region a size with no list price there is not sold there; without, each size is
    /// priced in its cheapest region.
    #[test]
    fn region_without_a_list_price_rejects_the_size_unless_include_unpriced() {
        let c = catalog_with_prices(WORLD_PRICES);
        let mut r = req(Workload::Cv, None);
        let o = recommend(&c, &r);
        let regions: Vec<_> = o.recommendations.iter().map(|x| (x.vm_size.as_str(), x.price_region.clone())).collect();
        assert_eq!(
            regions,
            [
                ("Standard_NC1_small", Some("eastus".to_owned())),
                ("Standard_NC4_small", Some("eastus".to_owned())),
                ("Standard_ND8_big", Some("westeurope".to_owned())),
            ]
        );
        r.region = Some("westeurope".into());
        let o = recommend(&c, &r);
        assert_eq!(names(&o), ["Standard_NC1_small", "Standard_ND8_big"]);
        let nc4 = o.rejected.iter().find(|x| x.vm_size == "Standard_NC4_small").expect("rejected");
        assert_eq!(nc4.constraint.name(), "--region");
        assert!(nc4.reason.contains("no list price in westeurope: not sold there"), "{}", nc4.reason);
        // The retired size has no price anywhere: rejected as retired first.
        assert_eq!(
            o.rejected.iter().find(|x| x.vm_size == "Standard_NC1_old").expect("old").constraint.name(),
            "retired"
        );

        r.include_unpriced = true;
        let o = recommend(&c, &r);
        assert_eq!(names(&o), ["Standard_NC1_small", "Standard_ND8_big", "Standard_NC4_small"]);
        let last = &o.recommendations[2];
        assert_eq!((last.price_per_hour, last.price_basis.as_str()), (None, "unpriced"));
        assert!(last.warnings.iter().any(|w| w.contains("no list price in westeurope")), "{:?}", last.warnings);
    }

    /// Nothing sold in the region: the --region stage is named, not a stage before it.
    #[test]
    fn a_region_with_no_prices_names_the_region_as_the_constraint() {
        let c = catalog_with_prices(WORLD_PRICES);
        let mut r = req(Workload::Cv, None);
        r.region = Some("brazilsouth".into());
        let o = recommend(&c, &r);
        assert!(o.recommendations.is_empty());
        assert_eq!(o.no_fit().expect("no fit").constraint.name(), "--region");
    }

    /// Windows with no Windows price: ranked by the Linux price, shown as unknown. A region
    /// with a known Windows price wins the region choice over a cheaper Linux-only one.
    #[test]
    fn windows_without_a_windows_price_ranks_by_linux_and_shows_unknown() {
        let c = catalog_with_prices(WORLD_PRICES);
        let mut r = req(Workload::Cv, None);
        r.os = Os::Windows;
        let o = recommend(&c, &r);
        let big = &o.recommendations[0];
        assert_eq!(big.price_region.as_deref(), Some("eastus"));
        assert_eq!((big.price_per_hour, big.price_basis.as_str()), (Some(40.0), "windows on-demand"));
        r.region = Some("westeurope".into());
        let o = recommend(&c, &r);
        let big = &o.recommendations[0];
        assert_eq!(big.price_per_hour, None);
        assert_eq!(big.rank_price_per_hour, Some(20.0));
        assert_eq!(big.price_basis, "linux on-demand (windows unknown)");
        assert!(big.warnings.iter().any(|w| w.contains("windows on-demand price unknown in westeurope")));
    }

    /// Spot: known spot prices rank first; unknown ones after, by their on-demand price.
    #[test]
    fn unknown_spot_ranks_after_known_spot_by_on_demand_price() {
        let c = catalog_with_prices(WORLD_PRICES);
        let mut r = req(Workload::Cv, None);
        r.spot = true;
        let o = recommend(&c, &r);
        assert_eq!(names(&o), ["Standard_NC1_small", "Standard_NC4_small", "Standard_ND8_big"]);
        assert_eq!(o.recommendations[0].price_per_hour, Some(0.1));
        let tail: Vec<_> = o.recommendations[1..].iter().map(|x| (x.price_per_hour, x.rank_price_per_hour)).collect();
        assert_eq!(tail, [(None, Some(4.0)), (None, Some(20.0))]);
        assert_eq!(o.recommendations[1].price_basis, "linux on-demand (spot unknown)");
    }

    #[test]
    fn ranges() {
        let r = Range { min: Some(16.0), max: None };
        assert!(r.contains(16.0));
        assert!(!r.contains(15.9));
        assert_eq!(r.describe(" GiB"), "≥ 16 GiB");
        assert_eq!(Range { min: Some(2.0), max: Some(2.0) }.describe(""), "exactly 2");
    }

    #[test]
    fn numbers_format_short() {
        assert_eq!(fmt_num(80.0), "80");
        assert_eq!(fmt_num(0.5), "0.5");
        assert_eq!(fmt_num(13.44), "13.44");
    }
}
