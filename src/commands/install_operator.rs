//! `aksgpu install-operator`: the NVIDIA GPU Operator on a cluster (Helm over runCommand),
//! and how an install reads (shared with `create-pool --install-operator` and `apply`).

use serde_json::json;

use crate::cli::{Format, InstallOperatorArgs};
use crate::commands::session::{self as azure, base_url, subscription, Cred, Progress};
use crate::commands::Ctx;
use crate::domain::setting::Words;
use crate::domain::{DriverMode, MigStrategy};
use crate::error::{flag_text, Error};
use crate::ops::operator::{Install, InstallReport as Report, InstallRequest};
use crate::ops::Plan;
use crate::output::{emit, Printer, Shown};

/// Print an install result.
pub fn print_install(
    p: &Printer,
    format: Format,
    base: &str,
    r: Result<Report, (Install, Plan)>,
    read: Option<&crate::ops::operator::ReleaseView>,
) -> Result<(), Error> {
    match r {
        Err((install, plan)) => {
            let (release, values) = match read {
                Some(v) => (format!("{}\n", release_text(v)), v.values_yaml.clone()),
                None => (format!("{RELEASE_NOTE}\n"), install.values_yaml.clone()),
            };
            let header = format!(
                "GPU Operator values (values.yaml, attached to the runCommand as context):\n\n{values}\n{release}Dry run: no change is made."
            );
            let extra = json!({"values_yaml": values, "pools": install.pools, "release": RELEASE_NOTE});
            let extra = crate::commands::dry_run::with_release(extra, None, read);
            Ok(emit(p, format, &crate::commands::dry_run::DryRun::new(base, &plan, &header, extra))?)
        }
        Ok(report) => Ok(emit(p, format, &Shown::new(install_text(&report), report))?),
    }
}

/// The release as read and what the install changes in its values (one line per key).
pub fn release_text(v: &crate::ops::operator::ReleaseView) -> String {
    let diff = if v.values_diff.is_empty() {
        "  (unchanged)".to_owned()
    } else {
        v.values_diff.iter().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n")
    };
    format!("Release now: {}; the install would change its values:\n{diff}", v.release)
}

/// What a dry run says of the release it does not read.
pub const RELEASE_NOTE: &str = "The release is read first (a read-only runCommand, which a dry run does not send): these values go on top of its own, keeping its MIG strategy, time slicing, tolerations and every other key; the run prints what changed.";

/// What a person reads of a finished install (its table form).
pub fn install_text(report: &Report) -> String {
    let mut out = String::from("GPU Operator installed and validated.\n");
    out.push_str(&format!("  release before: {}\n", report.release));
    if report.values_diff.is_empty() {
        out.push_str("  values: unchanged\n");
    } else {
        out.push_str("  values changed:\n");
        for line in &report.values_diff {
            out.push_str(&format!("    {line}\n"));
        }
    }
    for (pod, phase) in &report.validator_pods {
        out.push_str(&format!("  validator {pod}: {phase}\n"));
    }
    for (node, gpus) in &report.gpu_nodes {
        out.push_str(&format!("  node {node}: {gpus} allocatable nvidia.com/gpu\n"));
    }
    out
}

/// `aksgpu install-operator`
pub fn run(ctx: &Ctx, a: &InstallOperatorArgs) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    if let Some(p) = &a.pool {
        crate::ops::wait::check_pool_name(p)
            .map_err(|e| Error::Usage { message: Words::plain("--pool: ").then("", e.message), hint: e.hint })?;
    }
    if a.time_slicing == Some(0) {
        return Err(Error::usage("--time-slicing must be at least 1", None).into());
    }
    let request = |subscription| InstallRequest {
        subscription,
        resource_group: a.target.resource_group.clone(),
        cluster: a.target.cluster.clone(),
        pool: a.pool.clone(),
        driver_mode: a.driver_mode.map(DriverMode::from),
        chart_version: a.chart_version.clone(),
        mig_strategy: a.mig_strategy.map(MigStrategy::from),
        time_slicing: a.time_slicing,
        label_pools: a.label_pools,
    };
    let on = a.pool.as_deref().map_or_else(|| "its GPU pools".to_owned(), |p| format!("pool {p}"));
    let question = format!("Install the NVIDIA GPU Operator on cluster {} ({on})?", a.target.cluster);
    let ask = crate::commands::confirm::needed(ctx, "install-operator", a.write.yes, a.write.dry_run)?;
    let mut read: Option<crate::ops::operator::ReleaseView> = None;
    let r = if a.write.dry_run {
        // With credentials the cluster and its pools are read, and the plan is the real one;
        // without, it comes from the flags, with what would be read as placeholders.
        Err(azure::dry_run_reads(
            &ctx.printer,
            &a.arm,
            async |client, sub| {
                let facts = crate::ops::Facts::with_cache_dir();
                let (install, mut plan) =
                    crate::ops::operator::dry_run_read((client, &facts), &catalog, &request(sub.to_owned())).await?;
                if a.read_release {
                    let view = crate::ops::operator::read_release(client, &install, &plan, a.arm.timeout).await?;
                    // The upgrade the run would send on this release: its values merged.
                    crate::ops::operator::with_release(&mut plan, &view);
                    read = Some(view);
                }
                Ok((install, plan))
            },
            |sub| Ok(crate::ops::operator::dry_run(&request(sub.to_owned()), flag_text)),
        )?)
    } else {
        let az = azure::connect(&a.arm)?;
        let req = request(subscription(&az)?);
        let progress = Progress::default();
        let cred = Cred { method: az.method, source: az.source };
        let client = az.client;
        let facts = crate::ops::Facts::with_cache_dir();
        if ask {
            // On a terminal: read the release first, show what the install changes, then ask.
            let view = azure::run_with_spinner(&ctx.printer, &Progress::default(), None, async |report| {
                report("reading the cluster, its pools and the GPU Operator's Helm release");
                crate::ops::operator::preview((&client, &facts), &cred, &catalog, &req, a.arm.timeout).await
            })?;
            ctx.printer.note(&release_text(&view));
            crate::commands::confirm::ask(&question)?;
        }
        Ok(azure::run_with_spinner(&ctx.printer, &progress, None, async |report| {
            let at = (&client, &facts);
            crate::ops::operator::install(at, &cred, &catalog, &req, a.arm.timeout, (&report, &progress)).await
        })?)
    };
    print_install(&ctx.printer, a.write.output, &base_url(&a.arm), r, read.as_ref())?;
    Ok(())
}
