//! `aksgpu kaito enable` and `aksgpu kaito workspace`: KAITO on a cluster, and a Workspace
//! sized for a model.

use serde_json::json;

use crate::cli::{ClusterPowerArgs, KaitoWorkspaceArgs, ManifestFormat};
use crate::commands::session::{self as azure, base_url, subscription, Progress};
use crate::commands::Ctx;
use crate::error::Error;
use crate::ops::cluster::{ClusterRequest, KaitoEnable};
use crate::ops::kaito::WorkspaceRequest;
use crate::output::{emit, Shown};

/// `aksgpu kaito enable`
pub fn enable(ctx: &Ctx, a: &ClusterPowerArgs) -> anyhow::Result<()> {
    let request = |subscription| ClusterRequest {
        subscription,
        resource_group: a.target.resource_group.clone(),
        cluster: a.target.cluster.clone(),
        timeout: a.arm.timeout,
    };
    let question = format!("Enable KAITO (and the OIDC issuer) on cluster {}?", a.target.cluster);
    crate::commands::confirm::write(ctx, "kaito enable", a.write.yes, a.write.dry_run, &question)?;
    let r = if a.write.dry_run {
        // With credentials the cluster is read (a GET); without, what would be read is a placeholder.
        azure::dry_run_reads(
            &ctx.printer,
            &a.arm,
            async |client, sub| crate::ops::cluster::kaito_dry_run_read(client, &request(sub.to_owned())).await,
            |sub| Ok(crate::ops::cluster::kaito_dry_run(&request(sub.to_owned()))),
        )?
    } else {
        let az = azure::connect(&a.arm)?;
        let req = request(subscription(&az)?);
        let progress = Progress::default();
        let client = az.client;
        azure::run_with_spinner(&ctx.printer, &progress, None, async |report| {
            crate::ops::cluster::kaito_enable(&client, &req, (&report, &progress)).await
        })?
    };
    let cluster = &a.target.cluster;
    let shown = match r {
        KaitoEnable::AlreadyEnabled => Shown::new(
            format!("KAITO is already enabled on {cluster}: nothing to do"),
            json!({"status": "unchanged", "cluster": cluster, "kaito": true}),
        ),
        KaitoEnable::DryRun(plan) => {
            return Ok(crate::commands::feature::print_plan(
                &ctx.printer,
                a.write.output,
                &base_url(&a.arm),
                &plan,
                json!({}),
            )?)
        }
        KaitoEnable::Enabled(v) => {
            let (issuer, state) = crate::ops::cluster::issuer_and_state(&v);
            Shown::new(
                format!("KAITO enabled on {cluster} (OIDC issuer {})", issuer.as_deref().unwrap_or("on")),
                json!({"status": "done", "cluster": cluster, "kaito": true, "provisioning_state": state}),
            )
        }
    };
    emit(&ctx.printer, a.write.output, &shown)?;
    Ok(())
}

/// `aksgpu kaito workspace`
pub fn workspace(ctx: &Ctx, a: &KaitoWorkspaceArgs) -> anyhow::Result<()> {
    let mut catalog = ctx.catalog()?;
    crate::commands::with_live_prices(&mut catalog, &ctx.printer);
    let catalog = catalog;
    crate::ops::kaito::check_workspace_model(&catalog, &a.model)?;
    let region = match (&a.cluster, &a.resource_group) {
        (Some(cluster), Some(rg)) => Some(cluster_location(ctx, a, rg, cluster)?),
        _ => a.region.as_deref().map(|r| crate::ops::recommend::region_arg(&catalog, r)).transpose()?,
    };
    let req = WorkspaceRequest {
        model: a.model.clone(),
        instance_type: a.instance_type.clone(),
        name: a.name.clone(),
        namespace: a.namespace.clone(),
        region,
        cluster: a.cluster.clone(),
        overrides: a.overrides.clone(),
        service: crate::ops::recommend::Need {
            context: a.service.context,
            concurrency: a.service.concurrency,
            input_tokens: a.service.input_tokens,
            output_tokens: a.service.output_tokens,
            min_tokens_per_second: a.service.min_tokens_per_second,
            min_tokens_per_second_per_user: a.service.min_tokens_per_second_per_user,
            max_ttft: a.service.max_ttft,
            ..crate::ops::recommend::Need::default()
        },
    };
    let w = crate::ops::kaito::workspace(&catalog, &req)?;
    for n in &w.notes {
        ctx.printer.note(&format!("note: {}", crate::error::flag_text(n)));
    }
    for warning in &w.warnings {
        ctx.printer.note(&format!("warning: {}", crate::error::flag_text(warning)));
    }
    for line in w.cost.lines() {
        ctx.printer.note(&format!("note: {line}"));
    }
    let mut yaml = crate::ops::kaito::workspace_yaml(&w.spec);
    if a.output == ManifestFormat::Yaml {
        let place = crate::error::flag_text(&w.place);
        yaml.insert_str(0, &format!("# aksgpu: instanceType {}: {place}\n", w.spec.instance_type));
    }
    crate::commands::print_document(&ctx.printer, a.output, &yaml)
}

/// The location of the named cluster (one GET; a cluster without one is an error naming it).
fn cluster_location(ctx: &Ctx, a: &KaitoWorkspaceArgs, rg: &str, cluster: &str) -> Result<String, Error> {
    let az = azure::connect(&a.arm)?;
    let sub = azure::subscription(&az)?;
    let client = az.client;
    azure::run_with_spinner(&ctx.printer, &Progress::default(), None, async |report| {
        crate::ops::kaito::cluster_location(&client, (&sub, rg, cluster), &report).await
    })
}
