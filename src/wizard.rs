//! The interactive wizard for `aksgpu recommend` with no requirement flags (terminals only).
//!
//! It asks the few questions that matter and fills a `RecommendArgs`, so the answer goes
//! through exactly the same validation and recommender as flags would.

use anyhow::Context as _;
use dialoguer::{theme::SimpleTheme, Confirm, Input, Select};

use crate::catalog::Catalog;
use crate::cli::RecommendArgs;
use crate::recommend::{Os, Workload};
use crate::units;

const WORKLOADS: [(Workload, &str); 8] = [
    (Workload::Inference, "inference — serve a model"),
    (Workload::FineTuning, "fine-tuning — LoRA/QLoRA on a model"),
    (Workload::Training, "training — full training"),
    (Workload::DataScience, "data-science — RAPIDS, notebooks"),
    (Workload::Cv, "cv — computer vision"),
    (Workload::Video, "video — hardware encode/transcode"),
    (Workload::Vdi, "vdi — virtual desktops, visualisation"),
    (Workload::Hpc, "hpc — multi-node with InfiniBand"),
];

/// Ask the questions on the terminal; returns the filled-in arguments.
pub fn ask(catalog: &Catalog, base: &RecommendArgs) -> anyhow::Result<RecommendArgs> {
    let theme = SimpleTheme;
    let labels: Vec<&str> = WORKLOADS.iter().map(|w| w.1).collect();
    let i = Select::with_theme(&theme)
        .with_prompt("What will the GPUs run?")
        .items(&labels)
        .default(0)
        .interact()
        .context("reading the workload")?;
    let workload = WORKLOADS[i].0;
    let mut args =
        RecommendArgs { workload: Some(workload), output: base.output, top: base.top, ..RecommendArgs::default() };
    args.region.clone_from(&base.region);
    if matches!(workload, Workload::Inference | Workload::FineTuning | Workload::Training) {
        let aliases: Vec<&str> = catalog.models.iter().filter_map(|m| m.aliases.first().map(String::as_str)).collect();
        let model: String = Input::with_theme(&theme)
            .with_prompt(format!(
                "Model (alias such as {}, a parameter count like 13B, or empty)",
                aliases.first().copied().unwrap_or("llama-3.1-8b")
            ))
            .allow_empty(true)
            .validate_with(|s: &String| -> Result<(), String> {
                let t = s.trim();
                if t.is_empty() || catalog.model(t).is_some() || units::parse_params(t).is_ok() {
                    Ok(())
                } else {
                    Err(format!("unknown model; known: {}", aliases.join(", ")))
                }
            })
            .interact_text()
            .context("reading the model")?;
        let model = model.trim();
        if catalog.model(model).is_some() {
            args.model = Some(model.to_owned());
        } else if !model.is_empty() {
            args.model_params = units::parse_params(model).ok();
        }
    }
    if args.model.is_none() && args.model_params.is_none() {
        let mem: String = Input::with_theme(&theme)
            .with_prompt("Minimum GPU memory per GPU (e.g. 16GiB, or empty for any)")
            .allow_empty(true)
            .validate_with(|s: &String| -> Result<(), String> {
                if s.trim().is_empty() {
                    Ok(())
                } else {
                    units::parse_memory(s).map(|_| ())
                }
            })
            .interact_text()
            .context("reading the GPU memory")?;
        if !mem.trim().is_empty() {
            args.gpu_memory_min = units::parse_memory(&mem).ok();
        }
    }
    let os = Select::with_theme(&theme)
        .with_prompt("Node OS")
        .items(["linux", "windows"])
        .default(usize::from(workload == Workload::Vdi))
        .interact()
        .context("reading the OS")?;
    args.os = Some(if os == 1 { Os::Windows } else { Os::Linux });
    if os == 1 {
        let v: String = Input::with_theme(&theme)
            .with_prompt("Cluster Kubernetes version (e.g. 1.30)")
            .validate_with(|s: &String| crate::catalog::KubeVersion::parse(s).map(|_| ()))
            .interact_text()
            .context("reading the Kubernetes version")?;
        args.k8s_version = Some(v);
    }
    args.spot = Confirm::with_theme(&theme)
        .with_prompt("Use spot VMs (cheaper, can be evicted)?")
        .default(false)
        .interact()
        .context("reading the spot choice")?;
    Ok(args)
}
