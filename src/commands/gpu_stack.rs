//! The GPU software stack: `register-feature`, `feature list`, `install-operator`,
//! and `kaito enable|workspace`.

use std::collections::BTreeMap;
use std::time::Instant;

use serde_json::{json, Value};

use crate::arm::auth::{AuthMethod, Secret};
use crate::arm::{ArmClient, ArmError};
use crate::catalog::{Catalog, Vendor};
use crate::cli::{
    ClusterPowerArgs, FeatureListArgs, Format, InstallOperatorArgs, KaitoWorkspaceArgs, ManifestFormat,
    RegisterFeatureArgs,
};
use crate::commands::azure::{self, base_url, subscription, Cred};
use crate::commands::Ctx;
use crate::domain::{DriverMode, MigStrategy};
use crate::error::{did_you_mean, Error};
use crate::output::{emit, Printer, Shown};
use crate::plan::cluster_ops::{self, Target};
use crate::plan::{kaito as kaito_plan, Plan};
use crate::provision::features::{self, Feature, Outcome as FeatureOutcome};
use crate::provision::kaito::{self, Outcome as KaitoOutcome};
use crate::provision::operator::{self, InstallError, InstallRequest, Report};
use crate::provision::Progress;
use crate::recommend::{self, ModelSpec, Requirements, Workload};

fn print_plan(p: &Printer, format: Format, base: &str, plan: &Plan, extra: Value) -> Result<(), Error> {
    azure::render_plan(p, format, base, plan, "Dry run: no change is made.", extra)
}

/// Register a feature (shared by `register-feature`, `create-pool --register-features` and
/// `apply`), saying on stderr how it went; Pending (waiting for Microsoft's approval) is refused.
pub async fn register(
    client: &ArmClient,
    feature: Feature<'_>,
    deadline: Instant,
    p: &Printer,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<FeatureOutcome, Error> {
    let out = features::register(client, feature, deadline, progress, started).await?;
    let Feature { namespace, name, .. } = feature;
    match &out {
        FeatureOutcome::AlreadyRegistered => p.note(&format!("{namespace}/{name} is already Registered")),
        FeatureOutcome::NotFound => p.note(&format!(
            "{namespace}/{name} does not exist: it has most likely become generally available, so nothing needs registering"
        )),
        FeatureOutcome::Registered { .. } => p.note(&format!("{namespace}/{name} is Registered and {namespace} was refreshed")),
        FeatureOutcome::Pending => {
            return Err(Error::Refused {
                message: format!("{namespace}/{name} is Pending: Microsoft has to approve it for this subscription"),
                hint: Some("wait for the approval (az feature show shows the state), then run again".into()),
            })
        }
    }
    Ok(out)
}

/// `aksgpu register-feature`
pub fn register_feature(ctx: &Ctx, a: &RegisterFeatureArgs) -> anyhow::Result<()> {
    let question = format!("Register the preview feature {}/{} on the subscription?", a.namespace, a.name);
    check_feature_name(&a.namespace, &a.name)?;
    crate::commands::confirm::write(ctx, "feature register", a.yes, a.dry_run, &question)?;
    if a.dry_run {
        let plan = crate::plan::features::register(&azure::dry_run_subscription(&a.arm)?, &a.namespace, &a.name);
        return Ok(print_plan(&ctx.printer, a.output, &base_url(&a.arm), &plan, json!({}))?);
    }
    let az = azure::connect(&a.arm)?;
    let sub = subscription(&az)?;
    let progress = Progress::default();
    let deadline = az.client.deadline.unwrap_or_else(|| Instant::now() + a.arm.timeout);
    let client = az.client;
    let p = ctx.printer;
    let r = azure::run_with_spinner(&ctx.printer, &progress, None, async |report| {
        register(
            &client,
            Feature { subscription: &sub, namespace: &a.namespace, name: &a.name },
            deadline,
            &p,
            &report,
            &progress,
        )
        .await
    });
    let out = r?;
    if out == FeatureOutcome::NotFound && !crate::provision::features::went_ga(&a.namespace, &a.name) {
        return Err(not_found(&a.namespace, &a.name).into());
    }
    let shown = Shown::new(
        format!("{}/{}: {}", a.namespace, a.name, outcome_word(&out)),
        json!({"feature": a.name, "namespace": a.namespace, "result": out}),
    );
    emit(&ctx.printer, a.output, &shown)?;
    Ok(())
}

/// A misspelling of a known preview feature: exit 2 with the name it most likely means.
pub fn check_feature_name(namespace: &str, name: &str) -> Result<(), Error> {
    match crate::provision::features::misspelling_of(namespace, name) {
        Some(known) => Err(Error::usage(
            format!("{namespace}/{name} is not a feature this version knows"),
            crate::error::did_you_mean(&[known]),
        )),
        None => Ok(()),
    }
}

/// Azure has no such feature, and it is not one known to have gone generally available.
pub fn not_found(namespace: &str, name: &str) -> Error {
    Error::usage(
        format!("feature {namespace}/{name} does not exist in this subscription, and is not known to have gone generally available"),
        Some(format!("check the name: az feature list --namespace {namespace} -o table")),
    )
}

fn outcome_word(o: &FeatureOutcome) -> &'static str {
    match o {
        FeatureOutcome::AlreadyRegistered => "already registered",
        FeatureOutcome::NotFound => "not found: generally available, nothing to register",
        FeatureOutcome::Registered { .. } => "registered",
        FeatureOutcome::Pending => "pending approval",
    }
}

/// `aksgpu feature list`
pub fn feature_list(ctx: &Ctx, a: &FeatureListArgs) -> anyhow::Result<()> {
    let az = azure::connect(&a.arm)?;
    let sub = subscription(&az)?;
    let names: Vec<&str> = features::GPU_FEATURES.iter().map(|f| f.0).collect();
    let client = az.client;
    let states = azure::run_interruptible(&Progress::default(), async {
        Ok(features::states(&client, &sub, features::NAMESPACE, &names).await?)
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

/// The `clusterToken` for Entra-ID clusters: `AKSGPU_CLUSTER_TOKEN`, else minted by the
/// credential for the AKS server application.
pub async fn cluster_token(
    az_method: AuthMethod,
    source: &std::sync::Arc<dyn crate::arm::auth::TokenSource>,
    deadline: Instant,
) -> Result<Secret, ArmError> {
    if let Ok(t) = std::env::var("AKSGPU_CLUSTER_TOKEN") {
        if !t.trim().is_empty() {
            return Ok(Secret::new(t.trim()));
        }
    }
    if az_method == AuthMethod::AccessToken {
        return Err(ArmError::Auth {
            message: "this cluster uses Entra ID: runCommand needs a token for the AKS server app, and AKSGPU_ACCESS_TOKEN is an ARM token".into(),
            hint: Some("set it: `export AKSGPU_CLUSTER_TOKEN=$(az account get-access-token --resource 6dae42f8-4368-4678-94ff-3960e28e3630 --query accessToken -o tsv)`".into()),
        });
    }
    let scope = crate::provision::runcommand::AKS_SERVER_SCOPE;
    Ok(crate::arm::auth::fetch_until(source.as_ref(), scope, deadline).await?.secret)
}

impl From<InstallError> for Error {
    fn from(e: InstallError) -> Self {
        match e {
            InstallError::Arm(a) => Error::from(a),
            InstallError::Refused(r) => Error::Refused { message: r.message, hint: r.hint },
            InstallError::Command { what, result } => {
                let logs: String = result
                    .logs
                    .lines()
                    .rev()
                    .take(40)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect::<Vec<_>>()
                    .join("\n");
                Error::Refused {
                    message: format!(
                        "{what} failed in the cluster ({}){}\n--- command output (last 40 lines) ---\n{logs}",
                        result.describe(),
                        result.reason.map(|r| format!(": {r}")).unwrap_or_default()
                    ),
                    hint: Some("fix the cause above and run again; `helm upgrade --install` is safe to repeat".into()),
                }
            }
            InstallError::NotReady { waited, missing } => Error::from(ArmError::TimedOut {
                what: format!("the GPU Operator to become ready ({})", missing.join("; ")),
                elapsed: waited,
                resume: "run `aksgpu install-operator` again to re-check (it is idempotent)".into(),
            }),
        }
    }
}

/// Install the operator (shared with `create-pool --install-operator`).
#[allow(clippy::too_many_arguments)]
pub async fn install(
    az_client: &ArmClient,
    facts: &crate::provision::facts::Store,
    cred: &Cred,
    catalog: &Catalog,
    req: &InstallRequest,
    timeout: std::time::Duration,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<Report, Error> {
    let deadline = Instant::now() + timeout;
    let (cluster, pools) = operator::read(az_client, facts, req).await?;
    let install = operator::resolve(catalog, req, &cluster, &pools)
        .map_err(|r| Error::Refused { message: r.message, hint: r.hint })?;
    let token = match install.needs_cluster_token {
        Some(true) => Some(cluster_token(cred.method, &cred.source, deadline).await?),
        _ => None,
    };
    let left = deadline.saturating_duration_since(Instant::now());
    Ok(operator::run(az_client, &install, token.as_ref(), left, progress, started).await?)
}

/// Print an install result.
pub fn print_install(
    p: &Printer,
    format: Format,
    base: &str,
    r: Result<Report, (operator::Install, Plan)>,
) -> Result<(), Error> {
    match r {
        Err((install, plan)) => {
            let header = format!(
                "GPU Operator values (values.yaml, attached to the runCommand as context):\n\n{}\nDry run: no change is made.",
                install.values_yaml
            );
            let extra = json!({"values_yaml": install.values_yaml, "pools": install.pools});
            Ok(emit(p, format, &azure::DryRun::new(base, &plan, &header, extra))?)
        }
        Ok(report) => {
            let mut out = String::from("GPU Operator installed and validated.\n");
            for (pod, phase) in &report.validator_pods {
                out.push_str(&format!("  validator {pod}: {phase}\n"));
            }
            for (node, gpus) in &report.gpu_nodes {
                out.push_str(&format!("  node {node}: {gpus} allocatable nvidia.com/gpu\n"));
            }
            Ok(emit(p, format, &Shown::new(out, report))?)
        }
    }
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
    };
    let on = a.pool.as_deref().map_or_else(|| "its GPU pools".to_owned(), |p| format!("pool {p}"));
    let question = format!("Install the NVIDIA GPU Operator on cluster {} ({on})?", a.target.cluster);
    crate::commands::confirm::write(ctx, "install-operator", a.yes, a.dry_run, &question)?;
    let r = if a.dry_run {
        // From the flags alone: nothing is read or sent, and what would be read is a placeholder.
        let install = operator::from_flags(&request(azure::dry_run_subscription(&a.arm)?));
        let plan = operator::plan(&install);
        Err((install, plan))
    } else {
        let az = azure::connect(&a.arm)?;
        let req = request(subscription(&az)?);
        let progress = Progress::default();
        let cred = Cred { method: az.method, source: az.source };
        let client = az.client;
        Ok(azure::run_with_spinner(&ctx.printer, &progress, None, async |report| {
            let facts = crate::provision::facts::Store::with_cache_dir();
            install(&client, &facts, &cred, &catalog, &req, a.arm.timeout, &report, &progress).await
        })?)
    };
    print_install(&ctx.printer, a.output, &base_url(&a.arm), r)?;
    Ok(())
}

/// `aksgpu kaito enable`
pub fn kaito_enable(ctx: &Ctx, a: &ClusterPowerArgs) -> anyhow::Result<()> {
    let target =
        |sub| Target { subscription: sub, resource_group: &a.target.resource_group, cluster: &a.target.cluster };
    let question = format!("Enable KAITO (and the OIDC issuer) on cluster {}?", a.target.cluster);
    crate::commands::confirm::write(ctx, "kaito enable", a.yes, a.dry_run, &question)?;
    let r = if a.dry_run {
        // From the flags alone: nothing is read or sent, and what would be read is a placeholder.
        let sub = azure::dry_run_subscription(&a.arm)?;
        KaitoOutcome::DryRun(cluster_ops::kaito(target(&sub), &cluster_ops::cluster_as_read()))
    } else {
        let az = azure::connect(&a.arm)?;
        let sub = subscription(&az)?;
        let progress = Progress::default();
        let client = az.client;
        azure::run_with_spinner(&ctx.printer, &progress, None, async |report| {
            Ok(kaito::enable(&client, target(&sub), a.arm.timeout, &report, &progress).await?)
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

/// A refused `--instance-type`: with `--override kaito-min-compute-capability`, a refusal by
/// the catalog's compute-capability floor (its reading of KAITO and vLLM) becomes a warning
/// (returned); any other refusal stands.
fn kaito_override(catalog: &Catalog, m: &str, overrides: &[String]) -> Result<String, Error> {
    let rule =
        catalog.rules.iter().find(|r| matches!(r.kind, crate::catalog::RuleKind::KaitoMinComputeCapability { .. }));
    match rule {
        Some(rule) if m.contains("compute capability") && overrides.contains(&rule.id) => Ok(format!(
            "warning: overriding catalog rule {} (--instance-type: {m}; source: {}); risk: the preset may fail to start on this GPU",
            rule.id, rule.source
        )),
        Some(rule) if m.contains("compute capability") => Err(Error::usage(
            format!("--instance-type: {m}"),
            Some(format!("this rests on the catalog (rule {}); `--override {}` proceeds anyway", rule.id, rule.id)),
        )),
        _ => Err(Error::usage(format!("--instance-type: {m}"), None)),
    }
}

/// Choose the KAITO instance type for a model (pure): the cheapest KAITO-capable size that
/// holds it, or check the one given (`overrides` may pass the compute-capability floor).
pub fn kaito_instance(
    catalog: &Catalog,
    model: &crate::catalog::LlmModel,
    instance: Option<&str>,
    (region, overrides): (Option<&str>, &[String]),
) -> Result<(String, u32, Vec<String>), Error> {
    let min_cc = catalog.kaito_min_compute_capability().unwrap_or((8, 0));
    // The same precision, checkpoint and context resolution as `recommend --model`.
    let spec = ModelSpec::from_model(model);
    let resolved = recommend::weights::resolve(Some(&spec), None, Workload::Inference)
        .map_err(|e| Error::usage(e.message, Some(e.hint)))?;
    let mut req = Requirements::new(Workload::Inference);
    req.precision = resolved.precision;
    req.context = crate::commands::recommend::default_context(Some(&spec), Workload::Inference, None)?;
    req.model = Some(spec);
    req.region = region.map(str::to_owned);
    req.top = usize::MAX;
    req.compute_need();
    let out = recommend::recommend(catalog, &req);
    let kaito_ok = |name: &str| -> Result<(), String> {
        let s = catalog.size(name).ok_or_else(|| format!("{name} is not in the catalog"))?;
        let g = catalog.gpu(&s.gpu_model);
        if s.gpu_vendor == Vendor::Amd {
            return Err(format!("{} has AMD GPUs; KAITO does not accept AMD sizes as instanceType", s.name));
        }
        if s.gpu_count.is_partial() {
            return Err(format!("{} is a partial GPU; KAITO needs whole GPUs", s.name));
        }
        match g.and_then(crate::catalog::GpuModel::cc) {
            Some(cc) if cc >= min_cc => Ok(()),
            Some(cc) => Err(format!(
                "{} ({}) has compute capability {}.{}; KAITO presets need {}.{}+",
                s.name, s.gpu_model, cc.0, cc.1, min_cc.0, min_cc.1
            )),
            None => Err(format!("{} has no known compute capability", s.name)),
        }
    };
    let mut notes = resolved.notes;
    notes.push(format!(
        "sized for {} in {} ({}) with a {}-token context",
        model.id,
        req.precision.name(),
        resolved.weights.map_or_else(String::new, |w| w.formula),
        req.context
    ));
    if let Some(want) = instance {
        let size = catalog.size(want).ok_or_else(|| {
            Error::usage(
                format!("--instance-type {want:?} is not in the catalog"),
                did_you_mean(&catalog.suggest_sizes(want)),
            )
        })?;
        if let Err(m) = kaito_ok(&size.name) {
            notes.push(kaito_override(catalog, &m, overrides)?);
        }
        if let Some(r) = out.recommendations.iter().find(|r| r.vm_size == size.name) {
            return Ok((size.name.clone(), r.fit.nodes, notes));
        }
        let why = out
            .rejected
            .iter()
            .chain(&out.below_top)
            .find(|r| r.vm_size == size.name)
            .map(|r| r.reason.clone())
            .unwrap_or_default();
        return Err(Error::usage(
            format!("--instance-type {}: it cannot hold {}: {why}", size.name, model.id),
            Some("leave out --instance-type to get the cheapest size that fits".into()),
        ));
    }
    let pick = out.recommendations.iter().find(|r| kaito_ok(&r.vm_size).is_ok()).ok_or_else(|| Error::NoFit {
        message: format!("no KAITO-capable size holds {}", model.id),
        hint: Some("try a smaller model".into()),
    })?;
    notes.push(format!("instance type {}: {}", pick.vm_size, pick.reasons.join("; ")));
    // The first note says where the choice was priced; the manifest carries it as a comment.
    let place = match (region, pick.price_region.as_deref()) {
        (Some(r), _) => format!("chosen for region {r} (priced there)"),
        (None, Some(r)) => format!(
            "chosen without a region: the cheapest list price is in {r}; pass --location for your cluster's location"
        ),
        (None, None) => "chosen without a region or a price; pass --location for your cluster's location".to_owned(),
    };
    notes.insert(0, place);
    Ok((pick.vm_size.clone(), pick.fit.nodes, notes))
}

/// `aksgpu kaito workspace`
pub fn kaito_workspace(ctx: &Ctx, a: &KaitoWorkspaceArgs) -> anyhow::Result<()> {
    let mut catalog = ctx.catalog()?;
    crate::commands::money::with_live_prices(&mut catalog, &ctx.printer);
    let catalog = catalog;
    let model = catalog.model(&a.model).ok_or_else(|| {
        Error::usage(
            format!("--model {:?} is not in the catalog", a.model),
            did_you_mean(&catalog.suggest_models(&a.model)),
        )
    })?;
    let Some(preset) = model.kaito_preset.clone() else {
        let hint = match catalog.nearest_kaito_preset(model) {
            Some(near) => format!(
                "the nearest model with a preset is {} ({}, {}B params): aksgpu kaito workspace --model {}",
                near.aliases.first().unwrap_or(&near.id),
                near.id,
                near.params_b,
                near.aliases.first().unwrap_or(&near.id)
            ),
            None => "no model in the catalog has a KAITO preset".to_owned(),
        };
        return Err(Error::usage(format!("{} has no KAITO preset", model.id), Some(hint)).into());
    };
    let region = match (&a.cluster, &a.resource_group) {
        (Some(cluster), Some(rg)) => Some(cluster_location(ctx, a, rg, cluster)?),
        _ => {
            a.region.as_deref().map(|r| crate::commands::recommend::region_arg(&catalog, "--region", r)).transpose()?
        }
    };
    if let Some(bad) = a.overrides.iter().find(|o| o.as_str() != "kaito-min-compute-capability") {
        return Err(Error::usage(
            format!("--override {bad:?}: kaito workspace can only override kaito-min-compute-capability"),
            None,
        )
        .into());
    }
    let (instance, count, mut notes) =
        kaito_instance(&catalog, model, a.instance_type.as_deref(), (region.as_deref(), &a.overrides))?;
    if let (Some(cluster), Some(first)) = (&a.cluster, notes.first_mut()) {
        *first = format!("{first}, the location of cluster {cluster}");
    }
    let place = match (&region, &a.instance_type) {
        (Some(r), Some(_)) => format!("instance type given; prices in region {r}"),
        (None, Some(_)) => "instance type given; no region (pass --location for your cluster's location)".to_owned(),
        (_, None) => notes.first().cloned().unwrap_or_default(),
    };
    for n in notes {
        let prefixed = if n.starts_with("warning: ") { n } else { format!("note: {n}") };
        ctx.printer.note(&prefixed);
    }
    let name = a.name.clone().unwrap_or_else(|| kaito_plan::workspace_name(&model.id));
    let mut labels = BTreeMap::new();
    labels.insert("apps".to_owned(), name.trim_start_matches("workspace-").to_owned());
    let spec = kaito_plan::WorkspaceSpec {
        name,
        namespace: a.namespace.clone(),
        instance_type: instance,
        count,
        preset,
        label_selector: labels,
    };
    // KAITO provisions `count` nodes of the instance type for the workspace: say what they cost.
    let pool = crate::cost::PoolPricing {
        pool: &spec.name,
        size: &spec.instance_type,
        os: crate::recommend::Os::Linux,
        spot: false,
        min_nodes: spec.count,
        max_nodes: spec.count,
    };
    let cost = crate::commands::money::PlanPricing::new(&catalog, &[pool], region.as_deref());
    for line in cost.lines() {
        ctx.printer.note(&format!("note: {line}"));
    }
    let mut yaml = kaito_plan::workspace_yaml(&spec);
    if a.output == ManifestFormat::Yaml {
        yaml.insert_str(0, &format!("# aksgpu: instanceType {}: {place}\n", spec.instance_type));
    }
    print_document(&ctx.printer, a.output, &yaml)
}

/// The location of the named cluster (one GET; a cluster without one is an error naming it).
fn cluster_location(ctx: &Ctx, a: &KaitoWorkspaceArgs, rg: &str, cluster: &str) -> Result<String, Error> {
    let az = azure::connect(&a.arm)?;
    let sub = azure::subscription(&az)?;
    let url = crate::plan::with_api(&crate::plan::cluster_path(&sub, rg, cluster), crate::arm::api::AKS);
    let client = az.client;
    let v = azure::run_with_spinner(&ctx.printer, &Progress::default(), None, async |report| {
        report("reading the cluster's location");
        client.get_json::<Value>(&url).await.map_err(Error::from)
    })?;
    let facts = crate::commands::create_pool::ClusterFacts::from_cluster(v)?;
    facts.location.ok_or_else(|| Error::Refused { message: format!("cluster {cluster} has no location"), hint: None })
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
