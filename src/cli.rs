//! What the user typed: the clap definitions, and where `create-pool`'s flags become the
//! requests they make (`CreatePoolArgs::pool_request`, `CreatePoolArgs::recommend_args`); the
//! domain and `plan` types carry no clap derives.
//!
//! Quantities are parsed by `units` so a bad value is reported by clap next to its flag
//! (exit code 2). Resolving the values into `Requirements` happens in `commands`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use clap_complete::engine::ArgValueCandidates;

use candidates as complete;

pub mod candidates;
pub mod fleet;
pub use fleet::{FleetArgs, UsageArgs};

use crate::catalog::KubeVersion;
use crate::domain::{DriverMode, EvictionPolicy, GpuDriver, MigStrategy, Os, OsDiskType, Precision, RankBy, Workload};
use crate::ops::recommend::{Need, RecommendRequest};
use crate::plan::agent_pool::PoolRequest;
use crate::units;

/// Advisor and provisioner for GPU node pools on Azure Kubernetes Service.
#[derive(Debug, Parser)]
#[command(name = "aksgpu", version, about, long_about = None, after_help = crate::error::exit::help(), propagate_version = true)]
pub struct Cli {
    /// Catalog directory whose YAML files replace the bundled ones (same relative paths).
    #[arg(long, global = true, env = "AKSGPU_CATALOG", value_name = "DIR")]
    pub catalog: Option<PathBuf>,
    /// JMESPath query applied to the result before -o json|yaml|tsv (as az's --query).
    #[arg(long, global = true, value_name = "JMESPATH")]
    pub query: Option<String>,

    #[command(subcommand)]
    pub command: Command,
}

/// The top-level commands by what they do, for `aksgpu --help` (clap lists subcommands in one
/// block; this groups them). A command missing here is listed under "Other".
const COMMAND_GROUPS: [(&str, &[&str]); 7] = [
    ("Advise (offline, from the bundled catalog)", &["recommend", "catalog", "cost", "manifest"]),
    ("Change Azure", &["pool", "feature", "install-operator", "kaito", "cluster", "cost-analysis"]),
    ("A cluster's GPU setup as a file", &["apply", "diff", "export"]),
    ("The GPUs you already run", &["fleet", "usage"]),
    ("Prices, quota and credentials", &["prices", "quota", "auth"]),
    ("Aliases", &["create-pool", "wait", "register-feature"]),
    ("Shell", &["completions", "man", "help"]),
];

/// The clap definition with the top-level help grouped by `COMMAND_GROUPS`.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    let cmd = Cli::command();
    let mut cmd_built = cmd.clone();
    cmd_built.build();
    let subs: Vec<(String, String)> = cmd_built
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| (c.get_name().to_owned(), c.get_about().map(ToString::to_string).unwrap_or_default()))
        .collect();
    let width = subs.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let mut text = String::new();
    let others: Vec<&str> = subs
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| !COMMAND_GROUPS.iter().any(|(_, names)| names.contains(n)))
        .collect();
    let groups = COMMAND_GROUPS
        .iter()
        .map(|(h, names)| (*h, names.to_vec()))
        .chain((!others.is_empty()).then(|| ("Other", others.clone())));
    for (heading, names) in groups {
        text.push_str(&format!("{heading}:\n"));
        for name in names {
            if let Some((n, about)) = subs.iter().find(|(n, _)| n == name) {
                text.push_str(&format!("  {n:<width$}  {about}\n"));
            }
        }
        text.push('\n');
    }
    let template = format!(
        "{{before-help}}{{about-with-newline}}\n{{usage-heading}} {{usage}}\n\n{text}Options:\n{{options}}{{after-help}}"
    );
    cmd.help_template(template)
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Browse the bundled GPU catalog: sizes, GPUs, AKS rules and prices.
    #[command(subcommand)]
    Catalog(CatalogCommand),
    /// Recommend VM sizes for a described workload (offline, from the bundled catalog).
    Recommend(Box<RecommendArgs>),
    /// Create a GPU node pool (same as `pool create`).
    CreatePool(Box<CreatePoolArgs>),
    /// Wait for a pool's operation to finish (same as `pool wait`).
    Wait(WaitArgs),
    /// Register an AKS preview feature (same as `feature register`).
    RegisterFeature(RegisterFeatureArgs),
    /// Preview features that matter for GPUs: list, register.
    #[command(subcommand)]
    Feature(FeatureCommand),
    /// Install the NVIDIA GPU Operator with Helm through AKS runCommand.
    InstallOperator(Box<InstallOperatorArgs>),
    /// KAITO (AI toolchain operator): enable it, or write a Workspace for a model.
    #[command(subcommand)]
    Kaito(KaitoCommand),
    /// Kubernetes YAML for a GPU workload on a pool: tolerations, node selector, GPU limits.
    Manifest(Box<ManifestArgs>),
    /// What a GPU pool costs (by size, or every GPU pool of a cluster), with advice.
    Cost(Box<CostArgs>),
    /// Live prices from the Azure Retail Prices API.
    #[command(subcommand)]
    Prices(PricesCommand),
    /// Stop or start a whole cluster (nodes stop costing while stopped).
    #[command(subcommand)]
    Cluster(ClusterCommand),
    /// AKS cost analysis (metricsProfile.costAnalysis).
    #[command(subcommand)]
    CostAnalysis(CostAnalysisCommand),
    /// Node pools: create, scale, wait (as `az aks nodepool`).
    #[command(subcommand)]
    Pool(PoolCommand),
    /// Credentials and subscription in use.
    #[command(subcommand)]
    Auth(AuthCommand),
    /// Apply a GpuConfig file: features, then pools, then the GPU Operator, then KAITO.
    Apply(Box<ApplyArgs>),
    /// What `apply -f FILE` would change: create, no change, scale or refused per resource.
    Diff(Box<DiffArgs>),
    /// Write a cluster's current GPU setup as a GpuConfig file.
    Export(Box<ExportArgs>),
    /// vCPU quota for GPU VM families: see it, and ask Azure for more.
    #[command(subcommand)]
    Quota(QuotaCommand),
    /// Every GPU pool the credential can read, across subscriptions (Azure Resource Graph): cost and findings.
    Fleet(Box<FleetArgs>),
    /// What a cluster's GPU pools really did, from Azure Monitor managed Prometheus: hours, idle cost, health, advice.
    Usage(Box<UsageArgs>),
    /// Print a shell completion script (--help says how to install it).
    Completions(CompletionsArgs),
    /// Print the man page (roff) of aksgpu or of one subcommand: `aksgpu man kaito workspace`.
    Man(ManArgs),
}

/// `aksgpu catalog …`
#[derive(Debug, Subcommand)]
pub enum CatalogCommand {
    /// List GPU sizes.
    List(CatalogListArgs),
    /// Show every fact about one size: GPUs, AKS rules, MIG slices, prices by region.
    Show(CatalogShowArgs),
    /// Compare the catalog with the live resource SKUs of a location.
    Diff(CatalogDiffArgs),
    /// List the open LLMs `recommend --model` knows: aliases, size, architecture, precision.
    Models(CatalogViewArgs),
    /// List the GPU models: memory, compute capability, BF16/FP8, NVENC, MIG profiles, sizes.
    Gpus(CatalogViewArgs),
    /// List the Azure regions `--region` accepts, and how many GPU sizes have a list price in each.
    Regions(CatalogViewArgs),
}

/// `aksgpu catalog models|gpus|regions`
#[derive(Debug, Args)]
pub struct CatalogViewArgs {
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: Format,
}

/// `aksgpu catalog diff`
#[derive(Debug, Args)]
pub struct CatalogDiffArgs {
    #[command(flatten)]
    pub arm: ArmArgs,
    /// Azure region, e.g. eastus.
    #[arg(short = 'l', long, visible_alias = "region", value_name = "REGION", add = ArgValueCandidates::new(complete::regions))]
    pub location: String,
    /// Exit 1 when the catalog lacks sizes or disagrees with Azure (for scheduled jobs).
    #[arg(long)]
    pub fail_on_drift: bool,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: Format,
}

/// Output formats for lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Table,
    Wide,
    Json,
    Yaml,
    /// Tab-separated values, one row a line, no header (as az's `-o tsv`).
    Tsv,
    Names,
    /// Print no result (the exit code still tells).
    None,
}

/// Output formats for single results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Format {
    #[default]
    Table,
    Json,
    Yaml,
    /// Tab-separated values, one row a line, no header (as az's `-o tsv`).
    Tsv,
    /// Print no result (the exit code still tells).
    None,
}

/// `aksgpu catalog list`
#[derive(Debug, Args)]
pub struct CatalogListArgs {
    /// Only this family: NC, NCC, ND, NV or NG.
    #[arg(long, value_name = "FAMILY")]
    pub family: Option<String>,
    /// Only sizes with this GPU (e.g. A100, H100-NVL, T4).
    #[arg(long, value_name = "GPU", add = ArgValueCandidates::new(complete::gpus))]
    pub gpu_model: Option<String>,
    /// Include retired sizes.
    #[arg(long)]
    pub include_retired: bool,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: ListFormat,
}

/// `aksgpu catalog show`
#[derive(Debug, Args)]
pub struct CatalogShowArgs {
    /// VM size, with or without the Standard_ prefix.
    #[arg(value_name = "SIZE", add = ArgValueCandidates::new(complete::sizes))]
    pub size: String,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: Format,
}

/// What the workload needs: the flags `recommend` and `create-pool --recommend` share
/// (`create-pool` words their help its own way, see `WITH_RECOMMEND`).
#[derive(Debug, Clone, Args, Default)]
pub struct WorkloadArgs {
    /// Kind of workload.
    #[arg(long, value_parser = workload())]
    pub workload: Option<Workload>,
    /// Open model to size for (Hugging Face id or alias such as llama-3.1-8b).
    #[arg(long, value_name = "NAME", add = ArgValueCandidates::new(complete::models))]
    pub model: Option<String>,
    /// Parameter count of a model not in the catalog (7B, 70b, 1.5T, 7e9).
    #[arg(long, value_name = "COUNT", value_parser = units::parse_params, allow_negative_numbers = true)]
    pub model_params: Option<f64>,
    /// Weight precision [default: the model's native precision, else bf16].
    #[arg(long, ignore_case = true, value_parser = precision())]
    pub precision: Option<Precision>,
    /// Minimum GPU memory per GPU.
    #[arg(long, value_name = "SIZE", value_parser = units::parse_memory, allow_negative_numbers = true)]
    pub gpu_memory_min: Option<units::Memory>,
    /// GPU model (A100, H100, H100-NVL, T4, A10, MI300X…); repeat or comma-separate for several.
    #[arg(long, value_name = "GPU", value_delimiter = ',', add = ArgValueCandidates::new(complete::gpus))]
    pub gpu_model: Vec<String>,
    /// Highest acceptable price per hour for the whole fit (all nodes), in USD or --currency.
    #[arg(long, value_name = "PRICE", value_parser = units::parse_price, allow_negative_numbers = true)]
    pub max_price_per_hour: Option<f64>,
    /// Highest acceptable price per month (730 h) for the whole fit (all nodes), in USD or --currency.
    #[arg(long, value_name = "PRICE", value_parser = units::parse_price, allow_negative_numbers = true)]
    pub max_price_per_month: Option<f64>,
    /// Tokens of context per sequence [default: input + output tokens when given, else 4096 for
    /// inference, 2048 for training].
    #[arg(long, value_name = "TOKENS", value_parser = units::parse_count, allow_negative_numbers = true)]
    pub context: Option<u64>,
    /// Sequences in flight (inference; also --batch) or micro-batch size (training) [default: 1;
    /// serving figures without it are for the largest batch that fits].
    #[arg(long, visible_alias = "batch", value_name = "N", value_parser = units::parse_count, allow_negative_numbers = true)]
    pub concurrency: Option<u64>,
    /// Prompt tokens per request [default: 3/4 of the context].
    #[arg(long, value_name = "N", value_parser = units::parse_count, allow_negative_numbers = true)]
    pub input_tokens: Option<u64>,
    /// Generated tokens per request [default: 1/4 of the context].
    #[arg(long, value_name = "N", value_parser = units::parse_count, allow_negative_numbers = true)]
    pub output_tokens: Option<u64>,
    /// Output tokens per second the whole deployment must sustain.
    #[arg(long, value_name = "X", value_parser = units::parse_rate, allow_negative_numbers = true)]
    pub min_tokens_per_second: Option<f64>,
    /// Decode tokens per second each sequence must see.
    #[arg(long, value_name = "X", value_parser = units::parse_rate, allow_negative_numbers = true)]
    pub min_tokens_per_second_per_user: Option<f64>,
    /// Longest acceptable time to first token at that concurrency (2s, 800ms).
    #[arg(long, value_name = "DURATION", value_parser = units::parse_latency, allow_negative_numbers = true)]
    pub max_ttft: Option<f64>,
    /// KV-cache precision [default: 16-bit]; fp8 needs a GPU with FP8.
    #[arg(long, ignore_case = true, value_name = "bf16|fp16|fp8", value_parser = kv_precision())]
    pub kv_cache_precision: Option<Precision>,
    /// Tensor-parallel GPUs per copy of the model [default: chosen].
    #[arg(long, value_name = "N", value_parser = parse_u32, allow_negative_numbers = true)]
    pub tensor_parallel: Option<u32>,
    /// Pipeline stages per copy of the model [default: chosen].
    #[arg(long, value_name = "N", value_parser = parse_u32, allow_negative_numbers = true)]
    pub pipeline_parallel: Option<u32>,
    /// Mixture of experts: GPUs per stage that each hold 1/N of the experts and run attention
    /// for their own sequences (attention data parallel; TensorRT-LLM's DEP). Never chosen by
    /// itself: KAITO's presets deploy tensor parallelism.
    #[arg(long, value_name = "N", value_parser = parse_u32, allow_negative_numbers = true)]
    pub expert_parallel: Option<u32>,
    /// Rank by the cheapest deployment or the lowest USD per million output tokens [default: price].
    #[arg(long, value_name = "price|cost-per-token", value_parser = rank_by())]
    pub rank_by: Option<RankBy>,
}

impl WorkloadArgs {
    /// The first of these flags given, as typed (`--model`), if any.
    pub fn first_given(&self) -> Option<&'static str> {
        [
            (self.workload.is_some(), "--workload"),
            (self.model.is_some(), "--model"),
            (self.model_params.is_some(), "--model-params"),
            (self.precision.is_some(), "--precision"),
            (self.gpu_memory_min.is_some(), "--gpu-memory-min"),
            (!self.gpu_model.is_empty(), "--gpu-model"),
            (self.max_price_per_hour.is_some(), "--max-price-per-hour"),
            (self.max_price_per_month.is_some(), "--max-price-per-month"),
            (self.context.is_some(), "--context"),
            (self.concurrency.is_some(), "--concurrency"),
            (self.input_tokens.is_some(), "--input-tokens"),
            (self.output_tokens.is_some(), "--output-tokens"),
            (self.min_tokens_per_second.is_some(), "--min-tokens-per-second"),
            (self.min_tokens_per_second_per_user.is_some(), "--min-tokens-per-second-per-user"),
            (self.max_ttft.is_some(), "--max-ttft"),
            (self.kv_cache_precision.is_some(), "--kv-cache-precision"),
            (self.tensor_parallel.is_some(), "--tensor-parallel"),
            (self.pipeline_parallel.is_some(), "--pipeline-parallel"),
            (self.expert_parallel.is_some(), "--expert-parallel"),
            (self.rank_by.is_some(), "--rank-by"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

/// `aksgpu recommend`
#[derive(Debug, Clone, Args, Default)]
#[command(after_help = "Memory sizes accept GiB (16, 16g, 16GiB), MiB (24576MiB) and GB as GPU vendors and \
Azure's size tables write it (an A100 sold as 80 GB meets 80GB). Parameter counts accept 7B, 70b, 1.5T, 350M, 7e9; a bare number below \
10,000 means billions.\n\nWith no requirement flags on a terminal, a short wizard asks the questions.")]
pub struct RecommendArgs {
    #[command(flatten)]
    pub need: WorkloadArgs,
    /// Rank the sizes this capacity reservation group reserves first (reads it from Azure, with
    /// the credentials of AKSGPU_AUTH / the environment; the subscription comes from the id).
    #[arg(long, value_name = "ID")]
    pub capacity_reservation_group: Option<String>,
    /// Hugging Face token for a gated `--model org/name` read from the Hub [default: $HF_TOKEN]; never printed.
    #[arg(long, value_name = "TOKEN", hide_default_value = true)]
    pub hf_token: Option<String>,
    /// Evaluate this one size for the workload instead of ranking (what it fits and serves).
    #[arg(long, value_name = "SIZE", add = ArgValueCandidates::new(complete::sizes))]
    pub vm_size: Option<String>,
    /// GPU memory per GPU, at least (16GiB, 24g, 80GB); --gpu-memory-max for an upper bound.
    #[arg(long, value_name = "SIZE", value_parser = units::parse_memory, allow_negative_numbers = true)]
    pub gpu_memory: Option<units::Memory>,
    /// Maximum GPU memory per GPU.
    #[arg(long, value_name = "SIZE", value_parser = units::parse_memory, allow_negative_numbers = true)]
    pub gpu_memory_max: Option<units::Memory>,
    /// GPU memory of the whole VM, at least; --total-gpu-memory-max for an upper bound.
    #[arg(long, value_name = "SIZE", value_parser = units::parse_memory, allow_negative_numbers = true)]
    pub total_gpu_memory: Option<units::Memory>,
    /// Minimum GPU memory of the whole VM.
    #[arg(long, value_name = "SIZE", value_parser = units::parse_memory, allow_negative_numbers = true)]
    pub total_gpu_memory_min: Option<units::Memory>,
    /// Maximum GPU memory of the whole VM.
    #[arg(long, value_name = "SIZE", value_parser = units::parse_memory, allow_negative_numbers = true)]
    pub total_gpu_memory_max: Option<units::Memory>,
    /// GPUs per VM, exactly (fractions allowed: 0.5, 1/6).
    #[arg(long, value_name = "N", value_parser = crate::catalog::parse_gpus, allow_negative_numbers = true)]
    pub gpus: Option<f64>,
    /// Minimum GPUs per VM.
    #[arg(long, value_name = "N", value_parser = crate::catalog::parse_gpus, allow_negative_numbers = true)]
    pub gpus_min: Option<f64>,
    /// Maximum GPUs per VM.
    #[arg(long, value_name = "N", value_parser = crate::catalog::parse_gpus, allow_negative_numbers = true)]
    pub gpus_max: Option<f64>,
    /// Node operating system.
    #[arg(long, value_parser = os())]
    pub os: Option<Os>,
    /// Kubernetes version of the cluster, checked against the Windows GPU minimum (also
    /// --k8s-version).
    #[arg(long = "kubernetes-version", visible_alias = "k8s-version", value_name = "VERSION", value_parser = KubeVersion::parse)]
    pub k8s_version: Option<KubeVersion>,
    /// Azure region (e.g. westeurope), or several comma-separated to pick the cheapest of them:
    /// sizes with no list price there are taken as not sold there [default:
    /// each size in its cheapest region].
    #[arg(short = 'l', long = "location", visible_alias = "region", value_name = "REGION[,REGION…]", add = ArgValueCandidates::new(complete::regions))]
    pub region: Option<String>,
    /// Keep sizes with no list price (in --region, or anywhere), ranked last.
    #[arg(long)]
    pub include_unpriced: bool,
    /// Price with spot VMs.
    #[arg(long)]
    pub spot: bool,
    /// Use multi-instance GPU slices (A100/H100/H200, Linux).
    #[arg(long)]
    pub mig: bool,
    /// Consider retired sizes.
    #[arg(long)]
    pub include_retired: bool,
    /// Consider sizes AKS does not support for GPU pools.
    #[arg(long)]
    pub include_unsupported: bool,
    /// `none`: you bring the GPU driver (NVIDIA GPU Operator), so sizes AKS supports only without
    /// its driver (confidential NCC H100) are considered too. Default `install`: they are left out
    /// unless named with --gpu-model.
    #[arg(long, value_name = "install|none", value_parser = gpu_driver(), ignore_case = true)]
    pub gpu_driver: Option<GpuDriver>,
    /// Currency of the prices (USD, EUR, GBP…) [default: USD]: other than USD prices from the
    /// cache `aksgpu prices refresh --currency CODE` writes, never from relabelled USD prices.
    #[arg(long, value_name = "CODE", value_parser = parse_currency)]
    pub currency: Option<String>,
    /// Turn a refusal that rests on the catalog (not on Azure) into a warning: the rule id the
    /// refusal names (repeat or comma-separate). The warning still names the rule, its source
    /// and the risk.
    #[arg(long = "override", value_name = "RULE_ID", value_delimiter = ',')]
    pub overrides: Vec<String>,
    /// How many recommendations to show.
    #[arg(long, value_name = "N", default_value = "5", value_parser = units::parse_count, allow_negative_numbers = true)]
    pub top: u64,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: Format,
}

/// Options shared by every command that talks to Azure.
#[derive(Debug, Clone, Args)]
pub struct ArmArgs {
    /// Subscription id or name (a name is looked up in your subscriptions list) [default:
    /// AZURE_SUBSCRIPTION_ID, then the az CLI default].
    #[arg(long, value_name = "ID|NAME")]
    pub subscription: Option<String>,
    /// Credential to use [default: AKSGPU_AUTH, else the first available in the documented order].
    #[arg(long, value_parser = auth_method())]
    pub auth: Option<crate::arm::auth::AuthMethod>,
    /// Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL).
    #[arg(long, value_parser = cloud(), default_value = "AzureCloud")]
    pub cloud: crate::arm::Cloud,
    /// Give up waiting after this long (the Azure operation continues).
    #[arg(long, default_value = "60m", value_parser = units::parse_duration)]
    pub timeout: std::time::Duration,
    /// Log requests to stderr (-v), with headers (-vv); each response names its request's
    /// number. Tokens are always redacted.
    #[arg(short, long, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// Log everything -vv logs (as az's --debug).
    #[arg(long)]
    pub debug: bool,
}

impl ArmArgs {
    /// The request log level: `-v` counts, `--debug` is the most.
    pub fn verbosity(&self) -> u8 {
        if self.debug {
            2
        } else {
            self.verbose
        }
    }
}

/// The cluster a command works on.
#[derive(Debug, Clone, Args)]
pub struct ClusterTarget {
    /// Resource group of the cluster.
    #[arg(short = 'g', long, value_name = "NAME")]
    pub resource_group: String,
    /// AKS cluster name.
    #[arg(long, visible_alias = "cluster-name", value_name = "NAME")]
    pub cluster: String,
}

/// One node pool: the Azure options, its cluster and its name (create-pool, wait, pool scale).
#[derive(Debug, Clone, Args)]
pub struct PoolTarget {
    #[command(flatten)]
    pub arm: ArmArgs,
    #[command(flatten)]
    pub target: ClusterTarget,
    /// Pool name: 1–12 lowercase letters/digits (≤ 6 on Windows).
    #[arg(short = 'n', long, visible_alias = "nodepool-name", value_name = "NAME")]
    pub name: String,
}

/// `aksgpu create-pool`
#[derive(Debug, Args)]
#[command(after_help = "Exit codes: 0 created (or already identical), 1 failed or refused, 2 usage, 3 auth, \
4 timed out (still running in Azure), 130 interrupted. Nothing is deleted, except during failover a pool this run created that failed.")]
#[command(mut_args(with_recommend))]
#[command(mut_arg("dry_run", |a| a.help("Print the exact requests and send no write (preflight reads run when credentials exist)")))]
pub struct CreatePoolArgs {
    #[command(flatten)]
    pub at: PoolTarget,
    /// VM size (e.g. Standard_NC24ads_A100_v4).
    #[arg(short = 's', long, visible_alias = "node-vm-size", value_name = "SIZE", required_unless_present = "recommend", conflicts_with = "recommend", add = ArgValueCandidates::new(complete::sizes))]
    pub vm_size: Option<String>,
    /// Take the top `aksgpu recommend` result for --workload/--model/… instead of --vm-size.
    #[arg(long)]
    pub recommend: bool,
    #[command(flatten)]
    pub need: WorkloadArgs,
    #[command(flatten)]
    pub pool: PoolShapeArgs,
    #[command(flatten)]
    pub failover: FailoverArgs,
    /// The cluster's region, if known: preflight then reads everything at once.
    #[arg(short = 'l', long, visible_alias = "region", value_name = "REGION", add = ArgValueCandidates::new(complete::regions))]
    pub location: Option<String>,
    /// Register the preview features the pool needs (WindowsGPUPreview for Windows) first.
    #[arg(long)]
    pub register_features: bool,
    /// Install the NVIDIA GPU Operator after the pool (pool gets --gpu-driver none unless told
    /// otherwise; an autoscaler minimum of 0 is allowed, with a warning).
    #[arg(long)]
    pub install_operator: bool,
    /// Turn a refusal that rests on the catalog (not on Azure) into a warning: the rule id the
    /// refusal names (repeat or comma-separate). The warning still names the rule, its source
    /// and the risk.
    #[arg(long = "override", value_name = "RULE_ID", value_delimiter = ',')]
    pub overrides: Vec<String>,
    /// Currency of the prices (USD, EUR, GBP…) [default: USD]: other than USD prices from the
    /// cache `aksgpu prices refresh --currency CODE` writes, never from relabelled USD prices.
    #[arg(long, value_name = "CODE", value_parser = parse_currency)]
    pub currency: Option<String>,
    /// With --install-operator: MIG strategy.
    #[arg(long, value_enum, requires = "install_operator")]
    pub mig_strategy: Option<MigStrategyArg>,
    /// With --install-operator: time slicing replicas.
    #[arg(long, value_name = "N", requires = "install_operator", value_parser = parse_u32, allow_negative_numbers = true)]
    pub time_slicing: Option<u32>,
    /// With --dry-run --install-operator: also read the GPU Operator's Helm release (one
    /// read-only runCommand, a POST that changes nothing), print what the install would change
    /// in its values, and plan the upgrade the run sends on it.
    #[arg(long, requires_all = ["dry_run", "install_operator"])]
    pub read_release: bool,
    #[command(flatten)]
    pub write: WriteArgs,
    /// Return once Azure accepts the request; resume with `aksgpu wait`.
    #[arg(long)]
    pub no_wait: bool,
    /// On Ctrl-C while waiting, also ask Azure to abort the pool operation (POST …/abort).
    /// Without it, Ctrl-C only stops waiting.
    #[arg(long)]
    pub abort_on_interrupt: bool,
    /// Skip the preflight reads (existence, SKU, quota checks).
    #[arg(long)]
    pub skip_preflight: bool,
}

/// How `create-pool` words the `WorkloadArgs` flags: each needs `--recommend`.
const WITH_RECOMMEND: [(&str, &str); 20] = [
    ("workload", "With --recommend: the workload"),
    ("model", "With --recommend: the model (alias or Hugging Face id)"),
    ("model_params", "With --recommend: parameter count of another model"),
    ("precision", "With --recommend: weight precision"),
    ("gpu_memory_min", "With --recommend: minimum GPU memory per GPU"),
    ("gpu_model", "With --recommend: GPU models to consider"),
    ("max_price_per_hour", "With --recommend: highest acceptable USD per hour"),
    ("max_price_per_month", "With --recommend: highest acceptable USD per month (730 h)"),
    ("context", "With --recommend: tokens of context per sequence"),
    ("concurrency", "With --recommend: sequences in flight (also --batch)"),
    ("input_tokens", "With --recommend: prompt tokens per request"),
    ("output_tokens", "With --recommend: generated tokens per request"),
    ("min_tokens_per_second", "With --recommend: output tokens/s the deployment must sustain"),
    ("min_tokens_per_second_per_user", "With --recommend: decode tokens/s each sequence must see"),
    ("max_ttft", "With --recommend: longest time to first token (2s, 800ms)"),
    ("kv_cache_precision", "With --recommend: KV-cache precision (bf16, fp16, fp8)"),
    ("tensor_parallel", "With --recommend: tensor-parallel GPUs per copy of the model"),
    ("pipeline_parallel", "With --recommend: pipeline stages per copy of the model"),
    ("expert_parallel", "With --recommend: expert-parallel GPUs per stage, attention data parallel (MoE)"),
    ("rank_by", "With --recommend: rank by price or cost-per-token"),
];

/// `create-pool`'s `WorkloadArgs` flags require `--recommend` and say so in their help. (clap
/// does not hold that requirement when `--vm-size` is given, because `--vm-size` conflicts
/// with `--recommend`; `create_pool::spec` refuses them there instead.)
fn with_recommend(arg: clap::Arg) -> clap::Arg {
    let heading = create_pool_heading(arg.get_id().as_str());
    let arg = arg.help_heading(heading);
    match WITH_RECOMMEND.iter().find(|(id, _)| arg.get_id() == *id) {
        Some((_, help)) => arg.help(*help).requires("recommend"),
        None => arg,
    }
}

/// The help heading of each `create-pool` flag, so `--help` reads as groups, not 50 lines.
fn create_pool_heading(id: &str) -> &'static str {
    const GROUPS: [(&str, &[&str]); 6] = [
        ("Azure", &["subscription", "auth", "cloud", "timeout", "verbose", "debug"]),
        ("Target", &["resource_group", "cluster", "name", "vm_size", "recommend", "location"]),
        ("With --recommend", &WITH_RECOMMEND_IDS),
        ("GPU Operator", &["install_operator", "mig_strategy", "time_slicing", "read_release"]),
        ("Run", &["register_features", "dry_run", "no_wait", "abort_on_interrupt", "skip_preflight", "yes", "output"]),
        ("Help", &["help", "version"]),
    ];
    GROUPS.iter().find(|(_, ids)| ids.contains(&id)).map_or("Pool", |(h, _)| h)
}

const WITH_RECOMMEND_IDS: [&str; 7] = {
    let mut ids = [""; 7];
    let mut i = 0;
    while i < 7 {
        ids[i] = WITH_RECOMMEND[i].0;
        i += 1;
    }
    ids
};

/// The pool itself: `create-pool`'s flags that `pool_request` maps into the `PoolRequest`.
#[derive(Debug, Args)]
pub struct PoolShapeArgs {
    /// Node count (fixed size; with the autoscaler, the starting count).
    #[arg(short = 'c', long, visible_alias = "node-count", value_name = "N", value_parser = parse_u32, allow_negative_numbers = true)]
    pub count: Option<u32>,
    /// Autoscaler minimum (with --max-count).
    #[arg(long, value_name = "N", value_parser = parse_u32, allow_negative_numbers = true)]
    pub min_count: Option<u32>,
    /// Autoscaler maximum (with --min-count).
    #[arg(long, value_name = "N", value_parser = parse_u32, allow_negative_numbers = true)]
    pub max_count: Option<u32>,
    /// Node OS, any case.
    #[arg(long, visible_alias = "os-type", value_parser = os(), ignore_case = true)]
    pub os: Option<Os>,
    /// OS SKU (Ubuntu, AzureLinux, Ubuntu2404, Windows2022, Windows2025, …).
    #[arg(long, value_name = "SKU")]
    pub os_sku: Option<String>,
    /// Kubernetes version for the pool (also --k8s-version) [default: the control plane's].
    #[arg(long, visible_alias = "k8s-version", value_name = "VERSION", value_parser = KubeVersion::parse)]
    pub kubernetes_version: Option<KubeVersion>,
    /// Taints, key=value:Effect; repeat or comma-separate; '' for none [default: sku=gpu:NoSchedule].
    #[arg(long, value_name = "TAINT", num_args = 1)]
    pub node_taints: Option<Vec<String>>,
    /// Node labels, key=value; repeat, comma- or space-separate (`--labels a=b c=d`).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., value_delimiter = ',')]
    pub labels: Vec<String>,
    /// MIG profile (MIG1g, MIG2g, MIG3g, MIG4g, MIG7g, or a slice name like 3g.40gb); fixed once
    /// created.
    #[arg(long, visible_alias = "gpu-instance-profile", value_name = "PROFILE")]
    pub mig_profile: Option<String>,
    /// Let AKS install the GPU driver (install) or not (none, for the NVIDIA GPU Operator or AMD).
    #[arg(long, value_name = "install|none", value_parser = gpu_driver(), ignore_case = true)]
    pub gpu_driver: Option<GpuDriver>,
    /// AKS-managed GPU pool: AKS installs and keeps the NVIDIA driver, device plugin, DCGM and
    /// dcgm-exporter (gpuProfile.nvidia.managementMode Managed; preview feature
    /// ManagedGPUExperiencePreview).
    #[arg(long, visible_alias = "enable-managed-gpu")]
    pub managed_gpu: bool,
    /// Managed MIG strategy (with --managed-gpu): Single or Mixed.
    #[arg(long, value_name = "Single|Mixed", value_parser = clap::builder::PossibleValuesParser::new(["Single", "Mixed"]), ignore_case = true)]
    pub gpu_mig_strategy: Option<String>,
    /// Managed MIG partitions per GPU (with --gpu-mig-strategy), e.g. MIG3g,MIG3g.
    #[arg(long, value_name = "PROFILE", num_args = 1.., value_delimiter = ',')]
    pub mig_profiles: Vec<String>,
    /// Spot VMs (evictable, cheaper); same as --priority Spot.
    #[arg(long)]
    pub spot: bool,
    /// az's spelling of --spot: Spot or Regular (on-demand), any case.
    #[arg(long, value_name = "Spot|Regular", value_parser = clap::builder::PossibleValuesParser::new(["Spot", "Regular"]), ignore_case = true, conflicts_with = "spot")]
    pub priority: Option<String>,
    /// Highest spot price in USD/hour, or -1 for up to the on-demand price.
    #[arg(long, value_name = "USD", allow_negative_numbers = true)]
    pub spot_max_price: Option<f64>,
    /// Spot eviction policy: Delete or Deallocate.
    #[arg(long, value_name = "POLICY", value_parser = one_of(EvictionPolicy::ALL, EvictionPolicy::name, |_| None), ignore_case = true)]
    pub eviction_policy: Option<EvictionPolicy>,
    /// Availability zones: `--zones 1 2 3` or `--zones 1,2,3`.
    #[arg(long, value_name = "ZONE", num_args = 1.., value_delimiter = ',')]
    pub zones: Vec<String>,
    /// Maximum pods per node (10–250).
    #[arg(long, value_name = "N", value_parser = parse_u32, allow_negative_numbers = true)]
    pub max_pods: Option<u32>,
    /// OS disk type: Managed or Ephemeral.
    #[arg(long, visible_alias = "node-osdisk-type", value_name = "TYPE", value_parser = one_of(OsDiskType::ALL, OsDiskType::name, |_| None), ignore_case = true)]
    pub os_disk_type: Option<OsDiskType>,
    /// Azure tags, key=value; repeat, comma- or space-separate.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., value_delimiter = ',')]
    pub tags: Vec<String>,
}

impl PoolShapeArgs {
    /// `--spot`, or az's `--priority Spot`.
    pub fn is_spot(&self) -> bool {
        self.spot || self.priority.as_deref().is_some_and(|p| p.eq_ignore_ascii_case("spot"))
    }
}

impl CreatePoolArgs {
    /// The pool the flags ask for, with the two values `create-pool` settles first: the size
    /// (`--vm-size` or `--recommend`) and the driver (`--install-operator` defaults it to none).
    pub fn pool_request(&self, subscription: &str, vm_size: String, gpu_driver: Option<GpuDriver>) -> PoolRequest {
        let p = &self.pool;
        PoolRequest {
            subscription: subscription.to_owned(),
            resource_group: self.at.target.resource_group.clone(),
            cluster: self.at.target.cluster.clone(),
            name: self.at.name.clone(),
            vm_size,
            count: p.count,
            min_count: p.min_count,
            max_count: p.max_count,
            os: p.os,
            os_sku: p.os_sku.clone(),
            kubernetes_version: p.kubernetes_version,
            taints: p.node_taints.clone(),
            labels: p.labels.clone(),
            mig_profile: p.mig_profile.clone(),
            gpu_driver,
            managed_gpu: p.managed_gpu,
            mig_strategy: p.gpu_mig_strategy.clone(),
            mig_profiles: p.mig_profiles.clone(),
            spot: p.is_spot(),
            spot_max_price: p.spot_max_price,
            eviction_policy: p.eviction_policy,
            zones: p.zones.clone(),
            max_pods: p.max_pods,
            os_disk_type: p.os_disk_type,
            tags: p.tags.clone(),
            capacity_reservation_group: self.failover.capacity_reservation_group.clone(),
            overrides: self.overrides.clone(),
            deployment: None,
        }
    }

    /// What `--recommend` asks `recommend`: the workload flags, and the pool's own OS, spot,
    /// MIG, Kubernetes version, driver and `--location`.
    pub fn recommend_request(&self) -> RecommendRequest {
        let p = &self.pool;
        RecommendRequest {
            region: self.location.clone(),
            k8s_version: p.kubernetes_version,
            overrides: self.overrides.clone(),
            ..RecommendRequest::for_pool(self.need.need(), p.os, p.is_spot(), p.mig_profile.is_some(), p.gpu_driver)
        }
    }
}

impl RecommendArgs {
    /// The flags as the typed request `ops::recommend` takes.
    pub fn request(&self) -> RecommendRequest {
        RecommendRequest {
            need: self.need.need(),
            hf_token: self.hf_token.clone(),
            vm_size: self.vm_size.clone(),
            gpu_memory: self.gpu_memory,
            gpu_memory_max: self.gpu_memory_max,
            total_gpu_memory: self.total_gpu_memory,
            total_gpu_memory_min: self.total_gpu_memory_min,
            total_gpu_memory_max: self.total_gpu_memory_max,
            gpus: self.gpus,
            gpus_min: self.gpus_min,
            gpus_max: self.gpus_max,
            os: self.os,
            k8s_version: self.k8s_version,
            region: self.region.clone(),
            include_unpriced: self.include_unpriced,
            spot: self.spot,
            mig: self.mig,
            include_retired: self.include_retired,
            include_unsupported: self.include_unsupported,
            gpu_driver: self.gpu_driver,
            currency: self.currency.clone(),
            overrides: self.overrides.clone(),
            top: self.top,
        }
    }
}

impl WorkloadArgs {
    /// The workload flags as the typed `Need` of a request.
    pub fn need(&self) -> Need {
        Need {
            workload: self.workload,
            model: self.model.clone(),
            model_params: self.model_params,
            precision: self.precision,
            gpu_memory_min: self.gpu_memory_min,
            gpu_model: self.gpu_model.clone(),
            max_price_per_hour: self.max_price_per_hour,
            max_price_per_month: self.max_price_per_month,
            context: self.context,
            concurrency: self.concurrency,
            input_tokens: self.input_tokens,
            output_tokens: self.output_tokens,
            min_tokens_per_second: self.min_tokens_per_second,
            min_tokens_per_second_per_user: self.min_tokens_per_second_per_user,
            max_ttft: self.max_ttft,
            kv_cache_precision: self.kv_cache_precision,
            tensor_parallel: self.tensor_parallel,
            pipeline_parallel: self.pipeline_parallel,
            expert_parallel: self.expert_parallel,
            rank_by: self.rank_by,
        }
    }
}

/// `create-pool`'s answers to "Azure has no capacity": other sizes, zones, on-demand, and a
/// capacity reservation.
#[derive(Debug, Args)]
pub struct FailoverArgs {
    /// When Azure has no capacity or quota for --vm-size, try this size next (repeatable, in order).
    #[arg(long = "fallback-vm-size", value_name = "SIZE", conflicts_with = "recommend", add = ArgValueCandidates::new(complete::sizes))]
    pub fallback_vm_sizes: Vec<String>,
    /// With --recommend: try the ranked recommendations in the cluster's region in turn.
    #[arg(long, requires = "recommend")]
    pub failover: bool,
    /// Most create requests to send while failing over [default: 3 with --failover, else every candidate].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=20))]
    pub max_attempts: Option<u32>,
    /// With --spot: after a spot capacity failure, try the same size on-demand.
    #[arg(long, requires = "spot")]
    pub fallback_on_demand: bool,
    /// Draw the nodes from this capacity reservation group (resource id); preflight checks it.
    #[arg(long, value_name = "ID")]
    pub capacity_reservation_group: Option<String>,
}

impl FailoverArgs {
    /// True when any failover flag is given.
    pub fn enabled(&self) -> bool {
        !self.fallback_vm_sizes.is_empty() || self.failover || self.fallback_on_demand || self.max_attempts.is_some()
    }
}

/// `aksgpu quota …`
#[derive(Debug, Subcommand)]
pub enum QuotaCommand {
    /// Usage and limit of the GPU VM families (and the regional vCPU total) in a region.
    Show(QuotaShowArgs),
    /// Ask Azure for a higher vCPU limit (Microsoft.Quota), then follow the request.
    Request(QuotaRequestArgs),
}

/// Which family: from a size, or named.
#[derive(Debug, Args)]
pub struct QuotaFamilyArgs {
    /// Azure region, e.g. eastus.
    #[arg(short = 'l', long, visible_alias = "region", value_name = "REGION", add = ArgValueCandidates::new(complete::regions))]
    pub location: String,
    /// VM size whose family to use.
    #[arg(long, value_name = "SIZE", conflicts_with = "family", add = ArgValueCandidates::new(complete::sizes))]
    pub vm_size: Option<String>,
    /// Quota family name, e.g. standardNCADSA100v4Family.
    #[arg(long, value_name = "FAMILY")]
    pub family: Option<String>,
}

/// `aksgpu quota show`
#[derive(Debug, Args)]
pub struct QuotaShowArgs {
    #[command(flatten)]
    pub arm: ArmArgs,
    #[command(flatten)]
    pub which: QuotaFamilyArgs,
    /// Show the state of this quota request (the id `quota request` printed).
    #[arg(long, value_name = "ID")]
    pub request: Option<String>,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: Format,
}

/// `aksgpu quota request`
#[derive(Debug, Args)]
#[command(after_help = "Exit codes: 0 granted (or already enough), 1 Azure refused it, 2 usage (or a limit \
below the current one), 3 auth, 4 still in progress at --timeout (check with the command printed).")]
#[command(mut_arg("dry_run", |a| a.help("Print the request and send nothing")))]
pub struct QuotaRequestArgs {
    #[command(flatten)]
    pub arm: ArmArgs,
    #[command(flatten)]
    pub which: QuotaFamilyArgs,
    /// Nodes of --vm-size that must fit (surge counted): the limit asked is usage + what they need.
    #[arg(long, value_name = "N", requires = "vm_size", conflicts_with = "limit", value_parser = clap::value_parser!(u32).range(1..))]
    pub nodes: Option<u32>,
    /// The new vCPU limit for --family (never lower than today's).
    #[arg(long, value_name = "VCPUS", requires = "family", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    #[command(flatten)]
    pub write: WriteArgs,
}

/// What every write command takes: a dry run (each command words what its own dry run reads
/// with `mut_arg`), `--yes`, and the output format.
#[derive(Debug, Args)]
pub struct WriteArgs {
    /// Print the exact requests and send no write.
    #[arg(long)]
    pub dry_run: bool,
    /// Do not ask for confirmation (required without a terminal).
    #[arg(short = 'y', long)]
    pub yes: bool,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: Format,
}

/// `aksgpu wait`
#[derive(Debug, Args)]
pub struct WaitArgs {
    #[command(flatten)]
    pub at: PoolTarget,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: Format,
}

/// `aksgpu register-feature`
#[derive(Debug, Args)]
#[command(mut_arg("dry_run", |a| a.help("Print the exact requests; read and change nothing (no credentials needed)")))]
pub struct RegisterFeatureArgs {
    #[command(flatten)]
    pub arm: ArmArgs,
    /// Feature name, e.g. WindowsGPUPreview.
    #[arg(value_name = "NAME")]
    pub name: String,
    /// Resource provider namespace.
    #[arg(long, default_value = "Microsoft.ContainerService")]
    pub namespace: String,
    #[command(flatten)]
    pub write: WriteArgs,
}

/// `aksgpu feature …`
#[derive(Debug, Subcommand)]
pub enum FeatureCommand {
    /// Show the GPU-related preview flags and their state on the subscription.
    List(FeatureListArgs),
    /// Register an AKS preview feature and refresh the resource provider (also
    /// `register-feature`).
    Register(RegisterFeatureArgs),
}

/// `aksgpu feature list`
#[derive(Debug, Args)]
pub struct FeatureListArgs {
    #[command(flatten)]
    pub arm: ArmArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: Format,
}

/// Who installs the NVIDIA driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DriverModeArg {
    /// AKS installs it (pool gpuProfile.driver Install): operator driver and toolkit off.
    Aks,
    /// The operator installs it (pool created with --gpu-driver none).
    Operator,
}

/// MIG strategy for the device plugin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MigStrategyArg {
    Single,
    Mixed,
}

/// `aksgpu install-operator`
#[derive(Debug, Args)]
#[command(mut_arg("dry_run", |a| a.help("Print the Helm values and the runCommand requests; read and change nothing (no credentials needed)")))]
pub struct InstallOperatorArgs {
    #[command(flatten)]
    pub arm: ArmArgs,
    #[command(flatten)]
    pub target: ClusterTarget,
    /// The GPU pool to serve [default: every GPU pool of the cluster].
    #[arg(long, value_name = "NAME")]
    pub pool: Option<String>,
    /// Driver mode [default: follow the pool's gpuProfile.driver].
    #[arg(long, value_enum)]
    pub driver_mode: Option<DriverModeArg>,
    /// GPU Operator chart version [default: the pinned version].
    #[arg(long, value_name = "VERSION")]
    pub chart_version: Option<String>,
    /// MIG strategy (single: `nvidia.com/gpu` per slice; mixed: `nvidia.com/mig-<slice>`).
    #[arg(long, value_enum)]
    pub mig_strategy: Option<MigStrategyArg>,
    /// Share each GPU between N pods by time slicing.
    #[arg(long, value_name = "N", value_parser = parse_u32, allow_negative_numbers = true)]
    pub time_slicing: Option<u32>,
    #[command(flatten)]
    pub write: WriteArgs,
    /// With --dry-run: also read the GPU Operator's Helm release (one read-only runCommand, a
    /// POST that changes nothing) and print what the install would change in its values.
    #[arg(long, requires = "dry_run")]
    pub read_release: bool,
    /// In a cluster whose GPU pools disagree: add the node label each pool needs
    /// (nvidia.com/gpu.deploy.driver=false on AKS-driver pools, nvidia.com/gpu.deploy.operands=false
    /// on AKS-managed ones), each a PUT of its own before the release, instead of refusing.
    #[arg(long)]
    pub label_pools: bool,
}

/// `aksgpu kaito …`
#[derive(Debug, Subcommand)]
pub enum KaitoCommand {
    /// Enable the KAITO add-on (and the OIDC issuer it needs) on a cluster.
    Enable(ClusterPowerArgs),
    /// Write a kaito.sh/v1beta1 Workspace for a model, with a recommended instance type.
    Workspace(Box<KaitoWorkspaceArgs>),
}

/// `aksgpu kaito workspace`
#[derive(Debug, Args)]
pub struct KaitoWorkspaceArgs {
    /// Model (alias or Hugging Face id) with a KAITO preset.
    #[arg(long, value_name = "NAME", add = ArgValueCandidates::new(complete::models))]
    pub model: String,
    /// VM size for the workspace [default: the cheapest KAITO-capable size that holds the model].
    #[arg(long, value_name = "SIZE", add = ArgValueCandidates::new(complete::sizes))]
    pub instance_type: Option<String>,
    /// Workspace name (default: `workspace-<model>`).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Namespace.
    #[arg(long, value_name = "NS")]
    pub namespace: Option<String>,
    /// Region for prices when choosing the size.
    #[arg(short = 'l', long = "location", visible_alias = "region", value_name = "REGION", add = ArgValueCandidates::new(complete::regions))]
    pub region: Option<String>,
    /// Accept an --instance-type the catalog's KAITO rule refuses, with a warning
    /// (`kaito-min-compute-capability`).
    #[arg(long = "override", value_name = "RULE_ID", value_delimiter = ',')]
    pub overrides: Vec<String>,
    #[command(flatten)]
    pub service: KaitoServiceArgs,
    /// Resource group of the cluster the workspace is for (with --cluster).
    #[arg(short = 'g', long, value_name = "NAME", requires = "cluster", conflicts_with = "region")]
    pub resource_group: Option<String>,
    /// The cluster the workspace is for: the size is ranked and priced in its location (read from Azure).
    #[arg(long, value_name = "NAME", requires = "resource_group", conflicts_with = "region")]
    pub cluster: Option<String>,
    #[command(flatten)]
    pub arm: ArmArgs,
    /// Output format (yaml by default).
    #[arg(short, long, value_enum, default_value = "yaml")]
    pub output: ManifestFormat,
}

/// The service a Workspace is sized for: the same flags, parsed the same way, as `recommend`'s.
#[derive(Debug, Args)]
pub struct KaitoServiceArgs {
    /// Tokens of context per sequence [default: input + output tokens when given, else 4096].
    #[arg(long, value_name = "TOKENS", value_parser = units::parse_count, allow_negative_numbers = true)]
    pub context: Option<u64>,
    /// Sequences in flight [default: the most that meet the targets, else the largest batch that fits].
    #[arg(long, value_name = "N", value_parser = units::parse_count, allow_negative_numbers = true)]
    pub concurrency: Option<u64>,
    /// Prompt tokens per request [default: 3/4 of the context].
    #[arg(long, value_name = "N", value_parser = units::parse_count, allow_negative_numbers = true)]
    pub input_tokens: Option<u64>,
    /// Generated tokens per request [default: 1/4 of the context].
    #[arg(long, value_name = "N", value_parser = units::parse_count, allow_negative_numbers = true)]
    pub output_tokens: Option<u64>,
    /// Output tokens per second the whole deployment must sustain.
    #[arg(long, value_name = "X", value_parser = units::parse_rate, allow_negative_numbers = true)]
    pub min_tokens_per_second: Option<f64>,
    /// Decode tokens per second each sequence must see.
    #[arg(long, value_name = "X", value_parser = units::parse_rate, allow_negative_numbers = true)]
    pub min_tokens_per_second_per_user: Option<f64>,
    /// Longest acceptable time to first token (2s, 800ms).
    #[arg(long, value_name = "DURATION", value_parser = units::parse_latency, allow_negative_numbers = true)]
    pub max_ttft: Option<f64>,
}

/// YAML or JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ManifestFormat {
    Yaml,
    Json,
}

/// Workload kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    Pod,
    Deployment,
    Job,
}

/// `aksgpu manifest`
#[derive(Debug, Args)]
pub struct ManifestArgs {
    #[command(flatten)]
    pub arm: ArmArgs,
    /// Target pool (nodeSelector agentpool=NAME); with -g and --cluster its taints, size and
    /// MIG profile are read from Azure.
    #[arg(long, value_name = "NAME", required_unless_present = "vm_size", conflicts_with = "vm_size", value_parser = non_empty)]
    pub pool: Option<String>,
    /// Target VM size (nodeSelector node.kubernetes.io/instance-type) instead of a pool (with
    /// --pool, the size is read from Azure).
    #[arg(long, value_name = "SIZE", add = ArgValueCandidates::new(complete::sizes))]
    pub vm_size: Option<String>,
    /// Resource group (with --pool, to read the pool).
    #[arg(short = 'g', long, value_name = "NAME", requires = "cluster")]
    pub resource_group: Option<String>,
    /// Cluster (with --pool, to read the pool).
    #[arg(long, value_name = "NAME", requires = "resource_group")]
    pub cluster: Option<String>,
    /// Pool taints to tolerate [default: sku=gpu:NoSchedule].
    #[arg(long, value_name = "TAINT")]
    pub taints: Option<Vec<String>>,
    /// MIG profile of the pool (mixed strategy: requests `nvidia.com/mig-<slice>`).
    #[arg(long, value_name = "PROFILE")]
    pub mig_profile: Option<String>,
    /// The device plugin's MIG strategy: single requests `nvidia.com/gpu`, mixed
    /// `nvidia.com/mig-<slice>` [default: the pool's managed MIG strategy, else the GPU
    /// Operator release's (read with -g and --cluster), else mixed].
    #[arg(long, value_enum, ignore_case = true)]
    pub mig_strategy: Option<MigStrategyArg>,
    /// The pool is spot (tolerate the spot taint).
    #[arg(long)]
    pub spot: bool,
    /// Node OS (windows requests microsoft.com/directx).
    #[arg(long, value_parser = os())]
    pub os: Option<Os>,
    /// GPUs (or MIG slices) to request.
    #[arg(long, value_name = "N", default_value = "1", value_parser = parse_u32, allow_negative_numbers = true)]
    pub gpus: u32,
    /// Container image.
    #[arg(long, value_name = "IMAGE", value_parser = non_empty)]
    pub image: Option<String>,
    /// Workload name.
    #[arg(long, value_name = "NAME", default_value = "gpu-workload")]
    pub name: String,
    /// Namespace.
    #[arg(long, value_name = "NS")]
    pub namespace: Option<String>,
    /// Kind of workload.
    #[arg(long, value_enum, default_value = "deployment")]
    pub kind: KindArg,
    /// Emit the CUDA smoke-test Job (nvidia-smi) for checking a new pool instead.
    #[arg(long)]
    pub smoke_test: bool,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "yaml")]
    pub output: ManifestFormat,
}

/// `aksgpu cost`
#[derive(Debug, Args)]
pub struct CostArgs {
    #[command(flatten)]
    pub arm: ArmArgs,
    /// VM size to price.
    #[arg(long, value_name = "SIZE", required_unless_present = "cluster", conflicts_with = "cluster", add = ArgValueCandidates::new(complete::sizes))]
    pub vm_size: Option<String>,
    /// Read every GPU pool of this cluster instead (with -g).
    #[arg(long, value_name = "NAME", requires = "resource_group")]
    pub cluster: Option<String>,
    /// Resource group of the cluster.
    #[arg(short = 'g', long, value_name = "NAME")]
    pub resource_group: Option<String>,
    /// Fixed node count.
    #[arg(long, value_name = "N", value_parser = parse_u32, allow_negative_numbers = true, conflicts_with_all = ["min_count", "max_count"])]
    pub count: Option<u32>,
    /// Autoscaler minimum.
    #[arg(long, value_name = "N", value_parser = parse_u32, allow_negative_numbers = true, requires = "max_count")]
    pub min_count: Option<u32>,
    /// Autoscaler maximum.
    #[arg(long, value_name = "N", value_parser = parse_u32, allow_negative_numbers = true, requires = "min_count")]
    pub max_count: Option<u32>,
    /// Region [default: the cluster's, or the cheapest bundled region].
    #[arg(short = 'l', long = "location", visible_alias = "region", value_name = "REGION", add = ArgValueCandidates::new(complete::regions))]
    pub region: Option<String>,
    /// Node OS.
    #[arg(long, value_parser = os())]
    pub os: Option<Os>,
    /// Spot prices.
    #[arg(long)]
    pub spot: bool,
    /// Hours a day the nodes run.
    #[arg(long, value_name = "H", default_value = "24", value_parser = parse_hours)]
    pub hours_per_day: f64,
    /// The per-GPU memory the workload needs [default: what the size has].
    #[arg(long, value_name = "SIZE", value_parser = units::parse_memory, allow_negative_numbers = true)]
    pub need_gpu_memory: Option<units::Memory>,
    /// The GPUs per node the workload needs [default: what the size has].
    #[arg(long, value_name = "N", value_parser = crate::catalog::parse_gpus, allow_negative_numbers = true)]
    pub need_gpus: Option<f64>,
    /// Turn a refusal that rests on the catalog (not on Azure) into a warning: the rule id the
    /// refusal names (repeat or comma-separate). The warning still names the rule, its source
    /// and the risk.
    #[arg(long = "override", value_name = "RULE_ID", value_delimiter = ',')]
    pub overrides: Vec<String>,
    /// Currency (USD, EUR, GBP…): other than USD needs `aksgpu prices refresh --currency CODE` first.
    #[arg(long, default_value = "USD", value_name = "CODE", value_parser = parse_currency)]
    pub currency: String,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: Format,
}

/// A currency code as the Retail Prices API's `currencyCode` takes it: three letters.
pub fn parse_currency(text: &str) -> Result<String, String> {
    let c = text.trim().to_ascii_uppercase();
    if c.len() == 3 && c.chars().all(|c| c.is_ascii_alphabetic()) {
        Ok(c)
    } else {
        Err(format!("{text:?} is not a currency code; use USD, EUR, GBP, JPY…"))
    }
}

fn parse_hours(text: &str) -> Result<f64, String> {
    let v: f64 = text.trim().parse().map_err(|_| format!("{text:?} is not a number of hours"))?;
    if v.is_finite() && v > 0.0 && v <= 24.0 {
        Ok(v)
    } else {
        Err(format!("{text:?}: hours per day must be more than 0 and at most 24"))
    }
}

/// `aksgpu prices …`
#[derive(Debug, Subcommand)]
pub enum PricesCommand {
    /// Fetch current prices for the catalog's GPU sizes into the local cache.
    Refresh(PricesRefreshArgs),
}

/// `aksgpu prices refresh`
#[derive(Debug, Args)]
pub struct PricesRefreshArgs {
    /// Only these regions (repeat or comma-separate) [default: every region].
    #[arg(short = 'l', long = "location", visible_alias = "region", value_name = "REGION", value_delimiter = ',', add = ArgValueCandidates::new(complete::regions))]
    pub region: Vec<String>,
    /// Currency (the Retail Prices API's currencyCode): USD is the default cache; another
    /// currency gets its own cache, used by `cost --currency CODE`.
    #[arg(long, default_value = "USD", value_name = "CODE", value_parser = parse_currency)]
    pub currency: String,
    /// Log requests to stderr.
    #[arg(short, long, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: Format,
}

/// `aksgpu cluster …`
#[derive(Debug, Subcommand)]
pub enum ClusterCommand {
    /// Stop the cluster (control plane and nodes).
    Stop(ClusterPowerArgs),
    /// Start a stopped cluster.
    Start(ClusterPowerArgs),
}

/// A change to a whole cluster (`cluster stop|start`, `cost-analysis enable`, `kaito enable`):
/// the cluster, plus --dry-run.
#[derive(Debug, Args)]
#[command(mut_arg("dry_run", |a| a.help("Print the exact requests; read and change nothing (no credentials needed)")))]
pub struct ClusterPowerArgs {
    #[command(flatten)]
    pub arm: ArmArgs,
    #[command(flatten)]
    pub target: ClusterTarget,
    #[command(flatten)]
    pub write: WriteArgs,
}

/// `aksgpu cost-analysis …`
#[derive(Debug, Subcommand)]
pub enum CostAnalysisCommand {
    /// Enable AKS cost analysis (Standard or Premium tier).
    Enable(ClusterPowerArgs),
}

/// `aksgpu pool …`
#[derive(Debug, Subcommand)]
pub enum PoolCommand {
    /// Create a GPU node pool through ARM: validation, preflight, PUT, wait (also `create-pool`).
    Create(Box<CreatePoolArgs>),
    /// Change a pool's node count or autoscaler bounds (nothing else).
    Scale(PoolScaleArgs),
    /// Wait for a pool's operation to finish (resume after --no-wait, a timeout or Ctrl-C; also
    /// `wait`).
    Wait(WaitArgs),
}

/// `aksgpu pool scale`
#[derive(Debug, Args)]
#[command(mut_arg("dry_run", |a| a.help("Print the exact requests and change nothing (no credentials needed); with credentials it reads the pool and its cluster (GETs only) to price the new counts")))]
pub struct PoolScaleArgs {
    #[command(flatten)]
    pub at: PoolTarget,
    /// Fixed node count (pools without the autoscaler).
    #[arg(short = 'c', long, visible_alias = "node-count", value_name = "N", value_parser = parse_u32, allow_negative_numbers = true, required_unless_present = "min_count", conflicts_with_all = ["min_count", "max_count"])]
    pub count: Option<u32>,
    /// Autoscaler minimum (turns the autoscaler on).
    #[arg(long, value_name = "N", value_parser = parse_u32, allow_negative_numbers = true, requires = "max_count")]
    pub min_count: Option<u32>,
    /// Autoscaler maximum.
    #[arg(long, value_name = "N", value_parser = parse_u32, allow_negative_numbers = true, requires = "min_count")]
    pub max_count: Option<u32>,
    #[command(flatten)]
    pub write: WriteArgs,
}

/// `aksgpu auth …`
#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Which credential, endpoint and subscription would be used, and whether a token can be had.
    Status(AuthStatusArgs),
}

/// `aksgpu auth status`
#[derive(Debug, Args)]
pub struct AuthStatusArgs {
    #[command(flatten)]
    pub arm: ArmArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: Format,
}

/// A value that is more than blanks (an empty `--pool` or `--image` makes a broken manifest).
fn non_empty(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        Err("must not be empty".to_owned())
    } else {
        Ok(text.to_owned())
    }
}

/// `aksgpu apply`
#[derive(Debug, Args)]
#[command(
    after_help = "Exit codes: 0 applied (or nothing to change), 1 failed or refused (what was done and what was \
not is listed; run again to resume), 2 bad file, 3 auth, 4 timed out, 130 interrupted. Nothing is deleted, except during failover (fallbackVmSizes) a pool this run created that failed."
)]
#[command(mut_arg("dry_run", |a| a.help("Print the exact requests and send no write (reads run when credentials exist)")))]
pub struct ApplyArgs {
    #[command(flatten)]
    pub arm: ArmArgs,
    /// The GpuConfig file (YAML or JSON); `-` reads stdin; a directory means each `*.yaml` in it,
    /// in name order.
    #[arg(short = 'f', long, value_name = "FILE|DIR|-")]
    pub file: PathBuf,
    #[command(flatten)]
    pub write: WriteArgs,
    /// With --dry-run and an `operator:` section: also read the GPU Operator's Helm release
    /// (one read-only runCommand, a POST that changes nothing), print what the install would
    /// change in its values, and plan the upgrade the run sends on it.
    #[arg(long, requires = "dry_run")]
    pub read_release: bool,
    /// Skip the preflight checks: the vCPU quota of the file's pools together
    /// (vcpu-quota-together) and each pool's own preflight (SKU, quota); Azure decides.
    #[arg(long)]
    pub skip_preflight: bool,
    /// Currency of the prices (USD, EUR, GBP…) [default: USD]: other than USD prices from the
    /// cache `aksgpu prices refresh --currency CODE` writes, never from relabelled USD prices.
    #[arg(long, value_name = "CODE", value_parser = parse_currency)]
    pub currency: Option<String>,
}

/// `aksgpu diff`
#[derive(Debug, Args)]
#[command(after_help = "Exit codes: 0 nothing would change, 1 something would (or is refused), 2 bad file, 3 auth.")]
pub struct DiffArgs {
    #[command(flatten)]
    pub arm: ArmArgs,
    /// The GpuConfig file (YAML or JSON); `-` reads stdin; a directory means each `*.yaml` in it,
    /// in name order.
    #[arg(short = 'f', long, value_name = "FILE|DIR|-")]
    pub file: PathBuf,
    /// Currency of the prices (USD, EUR, GBP…) [default: USD]: other than USD prices from the
    /// cache `aksgpu prices refresh --currency CODE` writes, never from relabelled USD prices.
    #[arg(long, value_name = "CODE", value_parser = parse_currency)]
    pub currency: Option<String>,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: Format,
}

/// `aksgpu export`
#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub arm: ArmArgs,
    #[command(flatten)]
    pub target: ClusterTarget,
    /// Write to this file instead of stdout (atomically; an existing file needs --force).
    #[arg(short = 'f', long = "output-file", visible_alias = "file", value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Replace --output-file if it exists.
    #[arg(long, requires = "file")]
    pub force: bool,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "yaml")]
    pub output: ManifestFormat,
}

fn parse_u32(text: &str) -> Result<u32, String> {
    let t = text.trim();
    if t.starts_with('-') {
        return Err(format!("{text:?} cannot be negative"));
    }
    t.parse::<u32>().map_err(|_| format!("{text:?} is not a whole number"))
}

/// Shells for completions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
    Powershell,
    Elvish,
}

const COMPLETIONS_INSTALL: &str = "\
Install (the script asks `aksgpu` on PATH at each TAB, so sizes, models and regions come from the
catalog in use; reinstall only when the script itself changes):
  bash        aksgpu completions bash > ~/.local/share/bash-completion/completions/aksgpu
              (needs the bash-completion package; or add `source <(aksgpu completions bash)` to ~/.bashrc)
  zsh         add `source <(aksgpu completions zsh)` to ~/.zshrc, after `compinit`
  fish        aksgpu completions fish > ~/.config/fish/completions/aksgpu.fish
  powershell  aksgpu completions powershell | Out-String | Invoke-Expression
              (add that line to the file $PROFILE names, to keep it)
  elvish      add `eval (aksgpu completions elvish | slurp)` to ~/.config/elvish/rc.elv
Open a new shell afterwards.";

/// `aksgpu man`
#[derive(Debug, Args)]
pub struct ManArgs {
    /// The subcommand, nested ones word by word (`kaito workspace`) [default: the whole program].
    #[arg(value_name = "SUBCOMMAND")]
    pub command: Vec<String>,
    /// Write every page (the program and each subcommand, `aksgpu-kaito-workspace.1`…) into
    /// DIR, created if missing (e.g. ~/.local/share/man/man1), instead of printing one.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub install: Option<std::path::PathBuf>,
}

/// `aksgpu completions`
#[derive(Debug, Args)]
#[command(after_long_help = COMPLETIONS_INSTALL, after_help = "Run with --help (not -h) for how to install the script in each shell.")]
pub struct CompletionsArgs {
    /// Shell to generate for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// A flag that takes one of `all`, parsed into the domain type (clap lists the names in help
/// and completions, and checks the case unless the flag has `ignore_case`).
fn one_of<T: Copy + Send + Sync + 'static>(
    all: &'static [T],
    name: fn(T) -> &'static str,
    help: fn(T) -> Option<&'static str>,
) -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = all.iter().map(move |&v| match help(v) {
        Some(h) => PossibleValue::new(name(v)).help(h),
        None => PossibleValue::new(name(v)),
    });
    PossibleValuesParser::new(values).try_map(move |s: String| {
        all.iter().copied().find(|&v| name(v).eq_ignore_ascii_case(&s)).ok_or_else(|| format!("unknown value {s}"))
    })
}

/// `--workload`
fn workload() -> impl clap::builder::TypedValueParser<Value = Workload> {
    one_of(Workload::ALL, Workload::name, Workload::describe)
}

/// `--kv-cache-precision`
fn kv_precision() -> impl clap::builder::TypedValueParser<Value = Precision> {
    one_of(&[Precision::Bf16, Precision::Fp16, Precision::Fp8], Precision::name, |_| None)
}

/// `--rank-by`
fn rank_by() -> impl clap::builder::TypedValueParser<Value = RankBy> {
    one_of(RankBy::ALL, RankBy::name, |_| None)
}

/// `--precision`
fn precision() -> impl clap::builder::TypedValueParser<Value = Precision> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = Precision::ALL.iter().map(|&p| {
        let v = PossibleValue::new(p.name()).aliases(if p == Precision::Mxfp4 { &["fp4"][..] } else { &[] });
        match p.describe() {
            Some(h) => v.help(h),
            None => v,
        }
    });
    PossibleValuesParser::new(values)
        .try_map(|s: String| Precision::parse(&s).ok_or_else(|| format!("unknown value {s}")))
}

/// `--auth`
fn auth_method() -> impl clap::builder::TypedValueParser<Value = crate::arm::auth::AuthMethod> {
    use crate::arm::auth::AuthMethod;
    one_of(AuthMethod::ALL, AuthMethod::name, |m| Some(m.source()))
}

/// `--cloud`
fn cloud() -> impl clap::builder::TypedValueParser<Value = crate::arm::Cloud> {
    one_of(crate::arm::Cloud::ALL, crate::arm::Cloud::name, |_| None)
}

/// `--gpu-driver`
fn gpu_driver() -> impl clap::builder::TypedValueParser<Value = GpuDriver> {
    one_of(GpuDriver::ALL, GpuDriver::name, |_| None)
}

/// `--os`
fn os() -> impl clap::builder::TypedValueParser<Value = Os> {
    one_of(Os::ALL, Os::name, |_| None)
}

impl From<DriverModeArg> for DriverMode {
    fn from(m: DriverModeArg) -> Self {
        match m {
            DriverModeArg::Aks => DriverMode::Aks,
            DriverModeArg::Operator => DriverMode::Operator,
        }
    }
}

impl From<MigStrategyArg> for MigStrategy {
    fn from(m: MigStrategyArg) -> Self {
        match m {
            MigStrategyArg::Single => MigStrategy::Single,
            MigStrategyArg::Mixed => MigStrategy::Mixed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
        command().debug_assert();
    }

    /// `aksgpu --help` lists every command under a group heading (none under "Other").
    #[test]
    fn top_level_help_is_grouped() {
        let help = command().render_help().to_string();
        for (heading, names) in COMMAND_GROUPS {
            assert!(help.contains(&format!("{heading}:")), "{help}");
            for n in names {
                assert!(help.contains(&format!("\n  {n} ")), "{n}: {help}");
            }
        }
        assert!(!help.contains("Other:"), "a command has no group: {help}");
        assert!(help.contains("Options:\n") && help.contains("--query"), "{help}");
    }

    /// `create-pool --help` is grouped by clap help headings.
    #[test]
    fn create_pool_help_has_headings() {
        let mut cmd = Cli::command();
        let help = cmd.find_subcommand_mut("create-pool").expect("create-pool").render_help().to_string();
        for h in ["Azure:", "Target:", "Pool:", "With --recommend:", "GPU Operator:", "Run:"] {
            assert!(help.contains(h), "{h}: {help}");
        }
        let pos = |s: &str| help.find(s).unwrap_or_else(|| panic!("{s}: {help}"));
        assert!(pos("Pool:") < pos("--zones") && pos("Run:") < pos("--dry-run"), "{help}");
    }

    fn create_pool(extra: &[&str]) -> CreatePoolArgs {
        let mut args = vec!["aksgpu", "pool", "create", "-g", "rg"];
        args.extend_from_slice(extra);
        match Cli::try_parse_from(&args).unwrap_or_else(|e| panic!("{args:?}: {e}")).command {
            Command::Pool(PoolCommand::Create(c)) => *c,
            other => panic!("{other:?}"),
        }
    }

    /// az's names for create-pool's flags parse to the same values as ours.
    #[test]
    fn az_aliases_parse_like_the_native_flags() {
        let az = create_pool(&[
            "--cluster-name",
            "c",
            "-n",
            "gpu",
            "-s",
            "Standard_NC24ads_A100_v4",
            "-c",
            "2",
            "--priority",
            "spot",
            "--gpu-instance-profile",
            "MIG3g",
            "--os-type",
            "LINUX",
            "--node-osdisk-type",
            "ephemeral",
            "--zones",
            "1",
            "2",
            "3",
            "--labels",
            "a=b",
            "c=d",
            "--tags",
            "x=y",
            "-l",
            "westeurope",
        ]);
        let ours = create_pool(&[
            "--cluster",
            "c",
            "--name",
            "gpu",
            "--vm-size",
            "Standard_NC24ads_A100_v4",
            "--count",
            "2",
            "--spot",
            "--mig-profile",
            "MIG3g",
            "--os",
            "linux",
            "--os-disk-type",
            "Ephemeral",
            "--zones",
            "1,2,3",
            "--labels",
            "a=b,c=d",
            "--tags",
            "x=y",
            "--region",
            "westeurope",
        ]);
        let (a, b) = (az.pool_request("s", "v".into(), None), ours.pool_request("s", "v".into(), None));
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
        assert!(a.spot && a.zones == ["1", "2", "3"] && a.labels == ["a=b", "c=d"], "{a:?}");
        assert_eq!(az.location.as_deref(), Some("westeurope"));
        assert!(!create_pool(&["--cluster", "c", "-n", "p", "-s", "x", "--priority", "Regular"]).pool.is_spot());
        let err = Cli::try_parse_from([
            "aksgpu",
            "create-pool",
            "-g",
            "r",
            "--cluster",
            "c",
            "-n",
            "p",
            "-s",
            "x",
            "--priority",
            "Low",
        ])
        .expect_err("Low is not a priority");
        assert_eq!(err.exit_code(), 2);
    }

    /// The az verb order and the old names reach the same commands.
    #[test]
    fn verbs_and_their_aliases() {
        let parse = |a: &[&str]| Cli::try_parse_from(a).unwrap_or_else(|e| panic!("{a:?}: {e}")).command;
        assert!(matches!(
            parse(&["aksgpu", "feature", "register", "WindowsGPUPreview"]),
            Command::Feature(FeatureCommand::Register(_))
        ));
        assert!(matches!(parse(&["aksgpu", "register-feature", "WindowsGPUPreview"]), Command::RegisterFeature(_)));
        let wait = ["-g", "r", "--cluster", "c", "-n", "p"];
        assert!(matches!(
            parse(&[&["aksgpu", "pool", "wait"][..], &wait].concat()),
            Command::Pool(PoolCommand::Wait(_))
        ));
        assert!(matches!(parse(&[&["aksgpu", "wait"][..], &wait].concat()), Command::Wait(_)));
        let r = parse(&["aksgpu", "recommend", "-l", "westeurope,northeurope", "-o", "tsv"]);
        let Command::Recommend(r) = r else { panic!("recommend") };
        assert_eq!((r.region.as_deref(), r.output), (Some("westeurope,northeurope"), Format::Tsv));
    }

    /// Every flag of the shared `WorkloadArgs` group is worded for `create-pool --recommend`
    /// there, and keeps its `recommend` wording in `recommend`.
    #[test]
    fn create_pool_words_every_workload_flag_for_recommend() {
        let cli = Cli::command();
        let sub = |name: &str| cli.find_subcommand(name).expect(name).clone();
        let (create, recommend) = (sub("create-pool"), sub("recommend"));
        let ids: Vec<String> = WorkloadArgs::augment_args(clap::Command::new("w"))
            .get_arguments()
            .map(|a| a.get_id().to_string())
            .collect();
        assert_eq!(ids.len(), WITH_RECOMMEND.len());
        for id in &ids {
            let help = |c: &clap::Command| {
                let arg = c.get_arguments().find(|a| a.get_id() == id.as_str()).expect(id);
                arg.get_help().map(ToString::to_string).unwrap_or_default()
            };
            assert!(help(&create).starts_with("With --recommend: "), "{id}: {}", help(&create));
            assert!(!help(&recommend).starts_with("With --recommend"), "{id}: {}", help(&recommend));
        }
    }

    #[test]
    fn recommend_flags_parse() {
        let cli = Cli::try_parse_from([
            "aksgpu",
            "recommend",
            "--workload",
            "inference",
            "--model",
            "llama-3.1-8b",
            "--gpu-memory-min",
            "24GB",
            "--gpu-model",
            "A10,A100",
            "--gpus",
            "1/2",
            "--spot",
        ])
        .expect("parses");
        let Command::Recommend(r) = cli.command else { panic!("recommend") };
        assert_eq!(r.need.workload, Some(Workload::Inference));
        assert_eq!(r.need.gpu_model, vec!["A10", "A100"]);
        assert_eq!(r.gpus, Some(0.5));
        assert!(r.need.gpu_memory_min.expect("set").decimal);
        assert!(r.spot);
    }

    /// `--kubernetes-version` and `--k8s-version` are one flag wherever either is accepted.
    #[test]
    fn kubernetes_version_has_both_spellings() {
        for flag in ["--k8s-version", "--kubernetes-version"] {
            let cli = Cli::try_parse_from(["aksgpu", "recommend", "--os", "windows", flag, "1.30"]).expect(flag);
            let Command::Recommend(r) = cli.command else { panic!("recommend") };
            assert_eq!(r.k8s_version.map(|v| v.to_string()).as_deref(), Some("1.30"), "{flag}");
            let cli = Cli::try_parse_from([
                "aksgpu",
                "create-pool",
                "-g",
                "rg",
                "--cluster",
                "c",
                "--name",
                "p",
                "--vm-size",
                "x",
                flag,
                "1.31",
            ])
            .expect(flag);
            let Command::CreatePool(c) = cli.command else { panic!("create-pool") };
            assert_eq!(c.pool.kubernetes_version.map(|v| v.to_string()).as_deref(), Some("1.31"), "{flag}");
        }
    }

    #[test]
    fn bad_quantities_are_usage_errors_naming_the_flag() {
        let err = Cli::try_parse_from(["aksgpu", "recommend", "--gpu-memory", "lots"]).expect_err("rejects");
        assert_eq!(err.exit_code(), 2);
        assert!(err.to_string().contains("--gpu-memory"), "{err}");
        let err = Cli::try_parse_from(["aksgpu", "recommend", "--workload", "mining"]).expect_err("rejects");
        assert!(err.to_string().contains("--workload"), "{err}");
    }

    /// `create-pool --recommend` flags and a GpuConfig pool's `recommend:` with the same
    /// settings map into one and the same typed request.
    #[test]
    fn flags_and_a_gpuconfig_pool_make_the_same_recommend_request() {
        use crate::plan::gitops::config::{Params, PoolConfig, RecommendConfig};
        let cli = Cli::try_parse_from([
            "aksgpu",
            "create-pool",
            "-g",
            "rg",
            "--cluster",
            "c",
            "--name",
            "gpu1",
            "--recommend",
            "--workload",
            "inference",
            "--model",
            "llama-3.1-8b",
            "--gpu-memory-min",
            "40GiB",
            "--max-price-per-hour",
            "9",
            "--concurrency",
            "8",
            "--context",
            "32k",
            "--model-params",
            "30B",
            "--expert-parallel",
            "2",
            "--spot",
            "--os",
            "linux",
            "--gpu-driver",
            "none",
            "--kubernetes-version",
            "1.31",
        ])
        .expect("parses");
        let Command::CreatePool(c) = cli.command else { panic!("create-pool") };
        let from_flags = c.recommend_request();
        let pool = PoolConfig {
            name: "gpu1".into(),
            os: Some("linux".into()),
            spot: true,
            gpu_driver: Some("none".into()),
            kubernetes_version: Some("1.31".into()),
            ..PoolConfig::default()
        };
        let rec = RecommendConfig {
            workload: Some("inference".into()),
            model: Some("llama-3.1-8b".into()),
            gpu_memory_min: Some("40GiB".into()),
            max_price_per_hour: Some(9.0),
            concurrency: Some(8),
            context: Some(32768),
            model_params: Some(Params::Number(30.0)),
            expert_parallel: Some(2),
            ..RecommendConfig::default()
        };
        let facts = crate::ops::pool::ClusterFacts::default();
        let from_file = crate::ops::gitops::recommend_request(&facts, (&pool, &rec), &[]).expect("maps");
        assert_eq!(from_file, from_flags);
        assert_eq!(from_flags.need.workload, Some(Workload::Inference), "{from_flags:?}");
        assert!(from_flags.spot && from_flags.top == 3, "{from_flags:?}");
        assert_eq!((from_flags.need.context, from_flags.need.expert_parallel), (Some(32768), Some(2)));
    }

    /// Every setting `create-pool --recommend` takes for the workload is a key of a GpuConfig
    /// pool's `recommend:` block (in the schema, and each setting's `file_key`), so a file
    /// sizes a pool as the flags do.
    #[test]
    fn every_create_pool_recommend_flag_is_a_gpuconfig_key() {
        let schema: serde_json::Value =
            serde_json::from_str(include_str!("../schema/gpuconfig.schema.json")).expect("schema");
        let keys = &schema["$defs"]["recommend"]["properties"];
        for (id, _) in WITH_RECOMMEND {
            let camel: String = id
                .split('_')
                .enumerate()
                .map(|(i, w)| if i == 0 { w.to_owned() } else { w[..1].to_uppercase() + &w[1..] })
                .collect();
            assert!(keys.get(&camel).is_some(), "--{id}: no recommend.{camel} in the GpuConfig schema");
            let long = id.replace('_', "-");
            if let Some(s) = crate::domain::setting::Setting::ALL.iter().find(|s| s.long() == long) {
                assert_eq!(s.file_key(), Some(format!("recommend.{camel}").as_str()), "{s:?}");
            }
        }
    }
}
