//! The GPU software stack: `register-feature`, `feature list`, `install-operator`,
//! and `kaito enable|workspace`.

use std::time::Instant;

use serde_json::{json, Value};

use crate::cli::{
    ClusterPowerArgs, FeatureListArgs, Format, InstallOperatorArgs, KaitoWorkspaceArgs, ManifestFormat,
    RegisterFeatureArgs,
};
use crate::commands::azure::{self, base_url, subscription, Cred};
use crate::commands::Ctx;
use crate::domain::{DriverMode, MigStrategy};
use crate::error::Error;
use crate::ops::cluster::ClusterRequest;
use crate::ops::kaito::WorkspaceRequest;
use crate::output::{emit, Printer, Shown};
use crate::plan::{kaito as kaito_plan, Plan};
use crate::provision::features::{self, Feature, Outcome as FeatureOutcome};
use crate::provision::kaito::Outcome as KaitoOutcome;
use crate::provision::operator::{self, InstallRequest, Report};
use crate::provision::Progress;

fn print_plan(p: &Printer, format: Format, base: &str, plan: &Plan, extra: Value) -> Result<(), Error> {
    azure::render_plan(p, format, base, plan, "Dry run: no change is made.", extra)
}

/// Say on stderr how registering a feature went (shared by `register-feature`, `create-pool
/// --register-features` and `apply`).
pub fn feature_note(p: &Printer, feature: Feature<'_>, out: &FeatureOutcome) {
    let Feature { namespace, name, .. } = feature;
    match out {
        FeatureOutcome::AlreadyRegistered => p.note(&format!("{namespace}/{name} is already Registered")),
        FeatureOutcome::NotFound if features::went_ga(namespace, name) => p.note(&format!(
            "{namespace}/{name}: Azure no longer has this flag (FeatureNotFound): {}",
            crate::plan::features::NO_LONGER_PREVIEW
        )),
        FeatureOutcome::NotFound => p.note(&format!("{namespace}/{name} does not exist in this subscription")),
        FeatureOutcome::Registered { .. } => {
            p.note(&format!("{namespace}/{name} is Registered and {namespace} was refreshed"))
        }
        FeatureOutcome::Pending => {}
    }
}

/// `aksgpu register-feature`
pub fn register_feature(ctx: &Ctx, a: &RegisterFeatureArgs) -> anyhow::Result<()> {
    let question = format!("Register the preview feature {}/{} on the subscription?", a.namespace, a.name);
    crate::ops::feature::check_name(&a.namespace, &a.name)?;
    crate::commands::confirm::write(ctx, "feature register", a.yes, a.dry_run, &question)?;
    if a.dry_run {
        let plan = |sub: &str| crate::plan::features::register(sub, &a.namespace, &a.name);
        let (plan, found) = azure::dry_run_reads(
            &ctx.printer,
            &a.arm,
            async |client, sub| {
                let feature = Feature { subscription: sub, namespace: &a.namespace, name: &a.name };
                let found = match features::decide(client, feature, &|_| {}).await? {
                    // The real run's verdict on the same reads: same exit code, same message.
                    features::Decision::Done(o) => {
                        crate::ops::feature::verdict(&a.namespace, &a.name, &o)?;
                        Some(outcome_word(&o))
                    }
                    features::Decision::RefreshProvider => {
                        Some("registered; only the provider's re-registration is sent")
                    }
                    features::Decision::Register => None,
                };
                Ok((plan(sub), found))
            },
            |sub| Ok((plan(sub), None)),
        )?;
        if let Some(found) = found {
            ctx.printer.note(&format!("note: {}/{} is {found}: a real run sends no registration", a.namespace, a.name));
        }
        return Ok(print_plan(&ctx.printer, a.output, &base_url(&a.arm), &plan, json!({}))?);
    }
    let az = azure::connect(&a.arm)?;
    let sub = subscription(&az)?;
    let progress = Progress::default();
    let deadline = az.client.deadline.unwrap_or_else(|| Instant::now() + a.arm.timeout);
    let client = az.client;
    let p = ctx.printer;
    let r = azure::run_with_spinner(&ctx.printer, &progress, None, async |report| {
        let feature = Feature { subscription: &sub, namespace: &a.namespace, name: &a.name };
        let out = crate::ops::feature::register(&client, feature, deadline, &report, &progress).await?;
        feature_note(&p, feature, &out);
        Ok(out)
    });
    let out = r?;
    crate::ops::feature::verdict(&a.namespace, &a.name, &out)?;
    let shown = Shown::new(
        format!("{}/{}: {}", a.namespace, a.name, outcome_word(&out)),
        json!({"feature": a.name, "namespace": a.namespace, "result": out}),
    );
    emit(&ctx.printer, a.output, &shown)?;
    Ok(())
}

fn outcome_word(o: &FeatureOutcome) -> &'static str {
    match o {
        FeatureOutcome::AlreadyRegistered => "already registered",
        FeatureOutcome::NotFound => crate::plan::features::NO_LONGER_PREVIEW,
        FeatureOutcome::Registered { .. } => "registered",
        FeatureOutcome::Pending => "pending approval",
    }
}

/// `aksgpu feature list`
pub fn feature_list(ctx: &Ctx, a: &FeatureListArgs) -> anyhow::Result<()> {
    let az = azure::connect(&a.arm)?;
    let sub = subscription(&az)?;
    let client = az.client;
    let states = azure::run_interruptible(&Progress::default(), async {
        crate::ops::feature::gpu_feature_states(&client, &sub).await
    })?;
    let rows: Vec<Value> = features::GPU_FEATURES
        .iter()
        .zip(&states)
        .map(|((n, what), s)| json!({"name": n, "namespace": features::NAMESPACE, "state": s.clone().unwrap_or_else(|| "NotFound".into()), "purpose": what}))
        .collect();
    let t: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r["name"].as_str().unwrap_or("").to_owned(),
                r["state"].as_str().unwrap_or("").to_owned(),
                r["purpose"].as_str().unwrap_or("").to_owned(),
            ]
        })
        .collect();
    let text = crate::output::table(&["FEATURE", "STATE", "FOR"], &[crate::output::Align::Left; 3], &t);
    emit(&ctx.printer, a.output, &Shown::new(text, rows))?;
    Ok(())
}

/// Print an install result.
pub fn print_install(
    p: &Printer,
    format: Format,
    base: &str,
    r: Result<Report, (operator::Install, Plan)>,
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
            let mut extra = json!({"values_yaml": values, "pools": install.pools, "release": RELEASE_NOTE});
            if let Some(v) = read {
                extra["release"] = json!(v.release);
                extra["values_diff"] = json!(v.values_diff);
            }
            Ok(emit(p, format, &azure::DryRun::new(base, &plan, &header, extra))?)
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
pub fn install_operator(ctx: &Ctx, a: &InstallOperatorArgs) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    if let Some(p) = &a.pool {
        crate::plan::agent_pool::check_pool_name(p)
            .map_err(|e| Error::usage(format!("--pool: {}", e.message), e.hint))?;
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
    let ask = crate::commands::confirm::needed(ctx, "install-operator", a.yes, a.dry_run)?;
    let mut read: Option<crate::ops::operator::ReleaseView> = None;
    let r = if a.dry_run {
        // With credentials the cluster and its pools are read, and the plan is the real one;
        // without, it comes from the flags, with what would be read as placeholders.
        Err(azure::dry_run_reads(
            &ctx.printer,
            &a.arm,
            async |client, sub| {
                let facts = crate::provision::facts::Store::with_cache_dir();
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
            |sub| Ok(crate::ops::operator::dry_run(&request(sub.to_owned()))),
        )?)
    } else {
        let az = azure::connect(&a.arm)?;
        let req = request(subscription(&az)?);
        let progress = Progress::default();
        let cred = Cred { method: az.method, source: az.source };
        let client = az.client;
        let facts = crate::provision::facts::Store::with_cache_dir();
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
    print_install(&ctx.printer, a.output, &base_url(&a.arm), r, read.as_ref())?;
    Ok(())
}

/// `aksgpu kaito enable`
pub fn kaito_enable(ctx: &Ctx, a: &ClusterPowerArgs) -> anyhow::Result<()> {
    let request = |subscription| ClusterRequest {
        subscription,
        resource_group: a.target.resource_group.clone(),
        cluster: a.target.cluster.clone(),
        timeout: a.arm.timeout,
    };
    let question = format!("Enable KAITO (and the OIDC issuer) on cluster {}?", a.target.cluster);
    crate::commands::confirm::write(ctx, "kaito enable", a.yes, a.dry_run, &question)?;
    let r = if a.dry_run {
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
        KaitoOutcome::AlreadyEnabled => Shown::new(
            format!("KAITO is already enabled on {cluster}: nothing to do"),
            json!({"status": "unchanged", "cluster": cluster, "kaito": true}),
        ),
        KaitoOutcome::DryRun(plan) => {
            return Ok(print_plan(&ctx.printer, a.output, &base_url(&a.arm), &plan, json!({}))?)
        }
        KaitoOutcome::Enabled(v) => Shown::new(
            format!(
                "KAITO enabled on {cluster} (OIDC issuer {})",
                v.pointer("/properties/oidcIssuerProfile/issuerURL").and_then(Value::as_str).unwrap_or("on")
            ),
            json!({"status": "done", "cluster": cluster, "kaito": true, "provisioning_state": v.pointer("/properties/provisioningState")}),
        ),
    };
    emit(&ctx.printer, a.output, &shown)?;
    Ok(())
}

/// `aksgpu kaito workspace`
pub fn kaito_workspace(ctx: &Ctx, a: &KaitoWorkspaceArgs) -> anyhow::Result<()> {
    let mut catalog = ctx.catalog()?;
    crate::commands::money::with_live_prices(&mut catalog, &ctx.printer);
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
        ctx.printer.note(&format!("note: {n}"));
    }
    for warning in &w.warnings {
        ctx.printer.note(&format!("warning: {warning}"));
    }
    for line in w.cost.lines() {
        ctx.printer.note(&format!("note: {line}"));
    }
    let mut yaml = kaito_plan::workspace_yaml(&w.spec);
    if a.output == ManifestFormat::Yaml {
        yaml.insert_str(0, &format!("# aksgpu: instanceType {}: {}\n", w.spec.instance_type, w.place));
    }
    print_document(&ctx.printer, a.output, &yaml)
}

/// The location of the named cluster (one GET; a cluster without one is Azure's answer
/// lacking the field, refused by `ClusterFacts::from_cluster`).
fn cluster_location(ctx: &Ctx, a: &KaitoWorkspaceArgs, rg: &str, cluster: &str) -> Result<String, Error> {
    let az = azure::connect(&a.arm)?;
    let sub = azure::subscription(&az)?;
    let step = crate::plan::read_cluster(&crate::plan::cluster_path(&sub, rg, cluster), "the cluster's location");
    let client = az.client;
    let v = azure::run_with_spinner(&ctx.printer, &Progress::default(), None, async |report| {
        report("reading the cluster's location");
        crate::provision::wire::get::<Value>(&client, &step).await.map_err(Error::from)
    })?;
    let facts = crate::commands::create_pool::ClusterFacts::from_cluster(v)?;
    facts.location.ok_or_else(|| {
        Error::from(crate::resources::MissingField { resource: format!("cluster {cluster}"), field: "location" })
    })
}

/// Print a generated YAML document as YAML, or as JSON.
pub(crate) fn print_document(p: &Printer, format: ManifestFormat, yaml: &str) -> anyhow::Result<()> {
    match format {
        ManifestFormat::Yaml => p.out(yaml)?,
        ManifestFormat::Json => {
            let v: Value = serde_yaml_ng::from_str(yaml)
                .map_err(|e| Error::internal(format!("reading back our own YAML: {e}")))?;
            p.json(&v)?;
        }
    }
    Ok(())
}
