//! What the user typed: clap definitions only, no logic.
//!
//! Quantities are parsed by `units` so a bad value is reported by clap next to its flag
//! (exit code 2). Resolving the values into `Requirements` happens in `commands`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::recommend::{Os, Precision, Workload};
use crate::units;

const EXIT_CODES: &str = "\
Exit codes:
  0    success
  1    nothing fits / operation failed
  2    usage or configuration error (bad flag, bad catalog file)
  3    authentication or authorisation error
  4    timed out or still running (the Azure operation continues)
  130  interrupted (Ctrl-C)";

/// Advisor and provisioner for GPU node pools on Azure Kubernetes Service.
#[derive(Debug, Parser)]
#[command(name = "aksgpu", version, about, long_about = None, after_help = EXIT_CODES, propagate_version = true)]
pub struct Cli {
    /// Catalog directory whose YAML files replace the bundled ones (same relative paths).
    #[arg(long, global = true, env = "AKSGPU_CATALOG", value_name = "DIR")]
    pub catalog: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Browse the bundled GPU catalog: sizes, GPUs, AKS rules and prices.
    #[command(subcommand)]
    Catalog(CatalogCommand),
    /// Recommend VM sizes for a described workload (offline, from the bundled catalog).
    Recommend(Box<RecommendArgs>),
    /// Print a shell completion script.
    Completions(CompletionsArgs),
    /// Print the man page (roff).
    Man,
}

/// `aksgpu catalog …`
#[derive(Debug, Subcommand)]
pub enum CatalogCommand {
    /// List GPU sizes.
    List(CatalogListArgs),
    /// Show every fact about one size: GPUs, AKS rules, MIG slices, prices by region.
    Show(CatalogShowArgs),
}

/// Output formats for lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Table,
    Wide,
    Json,
    Yaml,
    Names,
}

/// Output formats for single results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Format {
    #[default]
    Table,
    Json,
    Yaml,
}

/// `aksgpu catalog list`
#[derive(Debug, Args)]
pub struct CatalogListArgs {
    /// Only this family: NC, NCC, ND, NV or NG.
    #[arg(long, value_name = "FAMILY")]
    pub family: Option<String>,
    /// Only sizes with this GPU (e.g. A100, H100-NVL, T4).
    #[arg(long, value_name = "GPU")]
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
    #[arg(value_name = "SIZE")]
    pub size: String,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: Format,
}

/// `aksgpu recommend`
#[derive(Debug, Args, Default)]
#[command(after_help = "Memory sizes accept GiB (16, 16g, 16GiB), MiB (24576MiB) and decimal GB/MB/TB \
(80GB = 80×10⁹ bytes). Parameter counts accept 7B, 70b, 1.5T, 350M, 7e9; a bare number below \
10,000 means billions.\n\nWith no requirement flags on a terminal, a short wizard asks the questions.")]
pub struct RecommendArgs {
    /// Kind of workload.
    #[arg(long, value_enum)]
    pub workload: Option<Workload>,
    /// Open model to size for (Hugging Face id or alias such as llama-3.1-8b).
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// Parameter count of a model not in the catalog (7B, 70b, 1.5T, 7e9).
    #[arg(long, value_name = "COUNT", value_parser = units::parse_params, allow_negative_numbers = true)]
    pub model_params: Option<f64>,
    /// Weight precision [default: the model's native precision, else bf16].
    #[arg(long, value_enum)]
    pub precision: Option<Precision>,
    /// Tokens of context per sequence [default: 4096 for inference, 2048 for training].
    #[arg(long, value_name = "TOKENS", value_parser = units::parse_count, allow_negative_numbers = true)]
    pub context: Option<u64>,
    /// Concurrent sequences (inference) or micro-batch size (training) [default: 1].
    #[arg(long, value_name = "N", value_parser = units::parse_count, allow_negative_numbers = true)]
    pub concurrency: Option<u64>,
    /// GPU memory per GPU, exactly (16GiB, 24g, 80GB).
    #[arg(long, value_name = "SIZE", value_parser = units::parse_memory, allow_negative_numbers = true)]
    pub gpu_memory: Option<units::Memory>,
    /// Minimum GPU memory per GPU.
    #[arg(long, value_name = "SIZE", value_parser = units::parse_memory, allow_negative_numbers = true)]
    pub gpu_memory_min: Option<units::Memory>,
    /// Maximum GPU memory per GPU.
    #[arg(long, value_name = "SIZE", value_parser = units::parse_memory, allow_negative_numbers = true)]
    pub gpu_memory_max: Option<units::Memory>,
    /// GPU memory of the whole VM, exactly.
    #[arg(long, value_name = "SIZE", value_parser = units::parse_memory, allow_negative_numbers = true)]
    pub total_gpu_memory: Option<units::Memory>,
    /// Minimum GPU memory of the whole VM.
    #[arg(long, value_name = "SIZE", value_parser = units::parse_memory, allow_negative_numbers = true)]
    pub total_gpu_memory_min: Option<units::Memory>,
    /// Maximum GPU memory of the whole VM.
    #[arg(long, value_name = "SIZE", value_parser = units::parse_memory, allow_negative_numbers = true)]
    pub total_gpu_memory_max: Option<units::Memory>,
    /// GPUs per VM, exactly (fractions allowed: 0.5, 1/6).
    #[arg(long, value_name = "N", value_parser = units::parse_gpus, allow_negative_numbers = true)]
    pub gpus: Option<f64>,
    /// Minimum GPUs per VM.
    #[arg(long, value_name = "N", value_parser = units::parse_gpus, allow_negative_numbers = true)]
    pub gpus_min: Option<f64>,
    /// Maximum GPUs per VM.
    #[arg(long, value_name = "N", value_parser = units::parse_gpus, allow_negative_numbers = true)]
    pub gpus_max: Option<f64>,
    /// GPU model (A100, H100, H100-NVL, T4, A10, MI300X…); repeat or comma-separate for several.
    #[arg(long, value_name = "GPU", value_delimiter = ',')]
    pub gpu_model: Vec<String>,
    /// Node operating system.
    #[arg(long, value_enum)]
    pub os: Option<Os>,
    /// Kubernetes version of the cluster (checked against the Windows GPU minimum).
    #[arg(long = "k8s-version", alias = "kubernetes-version", value_name = "VERSION")]
    pub k8s_version: Option<String>,
    /// Azure region for prices (e.g. eastus) [default: the cheapest bundled region per size].
    #[arg(long, value_name = "REGION")]
    pub region: Option<String>,
    /// Highest acceptable USD per hour for the whole fit (all nodes).
    #[arg(long, value_name = "USD", value_parser = units::parse_price, allow_negative_numbers = true)]
    pub max_price_per_hour: Option<f64>,
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
    /// How many recommendations to show.
    #[arg(long, value_name = "N", default_value = "5", value_parser = units::parse_count, allow_negative_numbers = true)]
    pub top: u64,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: Format,
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

/// `aksgpu completions`
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// Shell to generate for.
    #[arg(value_enum)]
    pub shell: Shell,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
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
        assert_eq!(r.workload, Some(Workload::Inference));
        assert_eq!(r.gpu_model, vec!["A10", "A100"]);
        assert_eq!(r.gpus, Some(0.5));
        assert!(r.gpu_memory_min.expect("set").decimal);
        assert!(r.spot);
    }

    #[test]
    fn bad_quantities_are_usage_errors_naming_the_flag() {
        let err = Cli::try_parse_from(["aksgpu", "recommend", "--gpu-memory", "lots"]).expect_err("rejects");
        assert_eq!(err.exit_code(), 2);
        assert!(err.to_string().contains("--gpu-memory"), "{err}");
        let err = Cli::try_parse_from(["aksgpu", "recommend", "--workload", "mining"]).expect_err("rejects");
        assert!(err.to_string().contains("--workload"), "{err}");
    }
}
