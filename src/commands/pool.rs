//! `aksgpu create-pool`: flags → validated `PoolSpec` → plan → (preflight, PUT, wait) → summary.

pub mod failover;

use serde::Serialize;
use serde_json::{json, Value};

use crate::cli::{CreatePoolArgs, Format, PoolScaleArgs};
use crate::commands::install_operator;
use crate::commands::session::{self as azure, base_url};
use crate::commands::Ctx;
use crate::domain::setting::Words;
use crate::error::{flag_text, Error};
use crate::ops::cluster::{ClusterAction, ClusterChange, ClusterRequest, Scale, ScaleAskError, ScaleRead};
use crate::ops::feature::{Feature, Registration as FeatureOutcome};
use crate::ops::operator::InstallRequest;
use crate::ops::pool::{
    resume_command, CreateOptions, CreateOutcome, CreatePoolRequest, CreatePoolResult, Deployment, PoolRequest,
    PoolSpec, Question, RequestError,
};
use crate::ops::pool_facts::{self, EarlyRead};
use crate::ops::session::{ArmClient, Progress};
use crate::ops::{Catalog, Facts as Store};
use crate::output::{emit, money, Printer, Shown};

pub use crate::ops::pool::ClusterFacts;

/// `--recommend` ranks and prices in the cluster's location with its Kubernetes version (and
/// the pool's OS, from the flags); an explicit `--location` or `--kubernetes-version` wins.
/// Returns the size and the deployment it was recommended for (its nodes size the pool).
fn pick_recommended(
    catalog: &Catalog,
    a: &CreatePoolArgs,
    facts: &ClusterFacts,
    p: &Printer,
) -> Result<(String, Deployment), Error> {
    let no_fit = "--recommend found no size that fits";
    let top = crate::ops::pool::recommended(catalog, a.recommend_request(), facts).map_err(|e| match e {
        // Not one candidate in the catalog: said as the catalog check, as `recommend` says it.
        RequestError::NoFit(None) => Error::NoFit {
            message: format!("{no_fit} (the catalog check removed the last candidates)").into(),
            hint: Some("run `aksgpu recommend` with the same flags to see why".into()),
        },
        e => in_flags(e, no_fit),
    })?;
    let reasons: Vec<String> = top.reasons.iter().map(crate::error::flag_text).collect();
    p.note(&format!("recommended {}: {}", top.vm_size, reasons.join("; ")));
    for w in &top.warnings {
        p.note(&format!("warning: {}", crate::error::flag_text(w)));
    }
    let deployment = crate::ops::pool::deployment(&top);
    Ok((top.vm_size, deployment))
}

/// A refused pool request worded in create-pool's flags; `no_fit` says that nothing fit.
pub(crate) fn in_flags(e: RequestError, no_fit: &str) -> Error {
    match e {
        RequestError::Spec(e) => Error::from(e),
        RequestError::NoWorkload => Error::usage(
            "--recommend needs a workload description",
            Some("add --workload and/or --model (or --gpu-memory-min), or pass --vm-size".into()),
        ),
        RequestError::NoFit(why) => Error::NoFit {
            message: match why {
                Some(c) => format!("{no_fit} ({} removed the last candidates)", check_words(c)).into(),
                None => no_fit.to_owned().into(),
            },
            hint: Some("run `aksgpu recommend` with the same flags to see why".into()),
        },
        RequestError::Failed(e) => e,
    }
}

/// A check of `recommend` as create-pool names it: a limit by its flag, another check by its
/// name; always "the … check", as create-pool has always said it.
fn check_words(c: crate::ops::recommend::Constraint) -> String {
    match (c.setting(), c.check()) {
        (Some(s), _) => format!("the {} check", crate::error::flag(s)),
        (None, check) => format!("the {} check", check.unwrap_or_default()),
    }
}

/// Validate the flags into a spec.
pub fn spec(
    catalog: &Catalog,
    a: &CreatePoolArgs,
    subscription: &str,
    facts: &ClusterFacts,
    p: &Printer,
) -> Result<PoolSpec, Error> {
    let mut notes = Vec::new();
    let (gpu_driver, defaulted) = crate::ops::pool::gpu_driver_for(a.pool.gpu_driver, a.install_operator);
    if defaulted {
        notes.push(
            "gpu driver: none (the GPU Operator installs the driver; --gpu-driver install to keep the AKS driver)"
                .to_owned(),
        );
    }
    // clap cannot enforce `requires = "recommend"` next to --vm-size (they conflict), so a
    // workload flag would be dropped without a word: refuse it instead.
    if let (Some(_), Some(flag)) = (&a.vm_size, a.need.first_given()) {
        return Err(Error::usage(
            format!("{flag} only applies with --recommend, and --vm-size already names the size"),
            Some(format!("drop {flag}, or drop --vm-size and pass --recommend")),
        ));
    }
    let (vm_size, deployment) = match (&a.vm_size, a.recommend) {
        (Some(s), _) => (s.clone(), None),
        (None, true) => pick_recommended(catalog, a, facts, p).map(|(s, d)| (s, Some(d)))?,
        (None, false) => {
            return Err(Error::usage(
                "--vm-size is required",
                Some("or use --recommend with --workload/--model".into()),
            ))
        }
    };
    let req = PoolRequest { deployment, ..a.pool_request(subscription, vm_size, gpu_driver) };
    let mut spec = crate::ops::pool::validate(catalog, &req).map_err(|e| in_flags(e, ""))?;
    spec.notes.extend(notes.into_iter().map(Words::plain));
    Ok(spec)
}

pub use crate::ops::pool::pricing;

/// Hourly cost of the pool at min and max nodes, if the catalog knows the price.
#[derive(Debug, Clone, Serialize)]
pub struct Cost {
    pub price_per_node_hour: Option<f64>,
    pub region: Option<String>,
    pub kind: String,
    pub hourly_at_min: Option<f64>,
    pub hourly_at_max: Option<f64>,
    pub monthly_at_min: Option<f64>,
    pub monthly_at_max: Option<f64>,
}

/// The pool's cost in `region`.
pub fn cost(catalog: &Catalog, spec: &PoolSpec, region: Option<&str>) -> Cost {
    let c = crate::ops::cost::plan_cost(catalog, &pricing(spec), region);
    Cost {
        price_per_node_hour: c.price_per_node_hour,
        region: c.region,
        kind: c.price_kind,
        hourly_at_min: c.hourly_at_min,
        hourly_at_max: c.hourly_at_max,
        monthly_at_min: c.monthly_at_min,
        monthly_at_max: c.monthly_at_max,
    }
}

/// Whether to ask before changing Azure (see `confirm::needed`).
fn needs_confirmation(ctx: &Ctx, a: &CreatePoolArgs) -> Result<bool, Error> {
    crate::commands::confirm::needed(ctx, "create-pool", a.write.yes, a.write.dry_run)
}

/// The question asked on a terminal, with the price in the region preflight found.
pub fn confirm_prompt(spec: &PoolSpec, c: &Cost) -> String {
    let nodes = match spec.autoscale {
        Some((min, max)) => format!("{min}–{max}"),
        None => spec.count.to_string(),
    };
    let (min, max) = (spec.min_nodes(), spec.max_nodes());
    let price = match (c.hourly_at_min, c.region.as_deref()) {
        (Some(_), Some(r)) if min == max => {
            format!("{} per hour at {min} node(s), {} in {r}", money(c.hourly_at_min), c.kind)
        }
        (Some(_), Some(r)) => format!(
            "{}–{} per hour at {min}–{max} nodes ({} a node), {} in {r}",
            money(c.hourly_at_min),
            money(c.hourly_at_max),
            money(c.price_per_node_hour),
            c.kind
        ),
        (None, Some(r)) => format!("no list price for {} in {r}", c.kind),
        (_, None) => "price unknown: the cluster's region was not read (pass --location)".to_owned(),
    };
    format!("Create pool {} in cluster {} ({nodes} × {}; {price})?", spec.name, spec.cluster, spec.size.name)
}

fn confirm(prompt: &str) -> Result<(), Error> {
    crate::commands::confirm::ask(prompt)
}

/// On a terminal: preflight first (`ops::pool::preflight_to_confirm`), then ask with the
/// price in the cluster's region.
fn preflight_and_confirm(
    ctx: &Ctx,
    (catalog, cred): (&Catalog, Option<&azure::Cred>),
    client: &ArmClient,
    req: &mut CreatePoolRequest,
) -> Result<(), Error> {
    let progress = Progress::default();
    let question = azure::run_with_spinner(&ctx.printer, &progress, None, async |report| {
        crate::ops::pool::preflight_to_confirm(client, catalog, req, report).await
    })?;
    // With the operator: its release is read first, and what the install changes is shown.
    if let (Some(cred), true) = (cred, question != Question::Nothing) {
        let view = azure::run_with_spinner(&ctx.printer, &progress, None, async |report| {
            report("reading the GPU Operator's Helm release");
            crate::ops::pool::operator_release_preview(client, (catalog, cred), req).await
        })?;
        if let Some(v) = view {
            ctx.printer.note(&install_operator::release_text(&v));
        }
    }
    let spec = &req.spec;
    match question {
        Question::Create { location } => confirm(&confirm_prompt(spec, &cost(catalog, spec, location.as_deref()))),
        Question::InstallOnExisting => {
            confirm(&format!("Pool {} exists as asked; install the NVIDIA GPU Operator on it?", spec.name))
        }
        Question::Nothing => Ok(()),
    }
}

/// The client, subscription and credential. Credentials are optional for a dry run: without
/// them the plan comes from the flags.
fn connect(a: &CreatePoolArgs, p: &Printer) -> Result<(ArmClient, String, Option<azure::Cred>), Error> {
    let c = crate::ops::session::connect_or_offline(&azure::connection(&a.at.arm), a.write.dry_run)?;
    if let Some(why) = &c.offline_because {
        p.note(&format!("note: {why}; the plan comes from the flags alone"));
    }
    Ok((c.client, c.subscription, c.cred))
}

/// `aksgpu create-pool`
pub fn create(ctx: &Ctx, a: &CreatePoolArgs) -> anyhow::Result<()> {
    let mut catalog = ctx.catalog()?;
    crate::commands::prices_for(&mut catalog, a.currency.as_deref(), &ctx.printer)?;
    let catalog = catalog;
    let p = &ctx.printer;
    check_flags(&catalog, a, p)?;
    let (client, subscription, auth) = connect(a, p)?;
    let store = Store::with_cache_dir();
    if a.failover.enabled() {
        let opts = CreateOptions { no_wait: false, ..options(a, store, None) };
        return crate::commands::pool::failover::run(ctx, &catalog, a, &client, &subscription, opts);
    }
    check_alone(&catalog, a, &subscription)?;
    let when = EarlyRead {
        recommend: a.recommend,
        size_given: a.vm_size.is_some(),
        skip_preflight: a.skip_preflight,
        dry_run: a.write.dry_run,
    };
    let (rg, cluster) = (&a.at.target.resource_group, &a.at.target.cluster);
    let facts = azure::run_with_spinner(p, &Progress::default(), None, async |report| {
        pool_facts::cluster_facts((&client, &store), (&subscription, rg, cluster), when, &report).await
    })?;
    let mut spec = spec(&catalog, a, &subscription, &facts, p)?;
    if a.install_operator {
        spec.warnings.extend(check_operator_pool(&catalog, &spec)?.map(Words::plain));
    }
    for n in &spec.notes {
        p.note(&format!("note: {}", flag_text(n)));
    }
    for w in &spec.warnings {
        p.note(&format!("warning: {}", flag_text(w)));
    }
    let floors = azure::run_with_spinner(p, &Progress::default(), None, async |report| {
        Ok(pool_facts::node_image_floor_warnings((&client, &store), &catalog, &spec, a.skip_preflight, &report).await)
    })?;
    for w in floors {
        p.note(&format!("warning: {w}"));
    }
    let mut req = request(a, &subscription, spec, options(a, store, facts.location));
    if needs_confirmation(ctx, a)? {
        preflight_and_confirm(ctx, (&catalog, auth.as_ref()), &client, &mut req)?;
    }
    let progress = Progress::default();
    let started = std::time::Instant::now();
    let said = |f: Feature<'_>, out: &FeatureOutcome| crate::commands::feature::feature_note(p, f, out);
    let result = azure::run_with_spinner(p, &progress, Some(&client), async |report| {
        crate::ops::pool::create(&client, (&catalog, auth.as_ref()), &req, (started, &said), (&report, &progress)).await
    });
    let CreatePoolResult { outcome, operator, operator_values, release } = result?;
    if let CreateOutcome::Unchanged { pool } | CreateOutcome::Created { pool, .. } = &outcome {
        let at = (req.spec.subscription.as_str(), req.spec.resource_group.as_str(), req.spec.cluster.as_str());
        if let Some(w) = crate::ops::cluster::node_image_warning(&catalog, pool, at) {
            p.note(&format!("warning: {w}"));
        }
    }
    match (operator, shown(&catalog, &req.spec, &outcome)?) {
        // One document: the pool's result, its keys where they are without the operator, and
        // the install's report under `operator` (the table: the two texts, one after the other).
        (Some(r), Some(mut pool)) => {
            pool.text.push_str(&install_operator::install_text(&r));
            if let Value::Object(m) = &mut pool.value {
                m.insert("operator".into(), serde_json::to_value(&r).map_err(|e| Error::internal(e.to_string()))?);
            }
            emit(p, a.write.output, &pool)?;
        }
        _ => render(
            p,
            a.write.output,
            &catalog,
            (&req.spec, &outcome, operator_values.as_deref().map(|v| (v, release.as_ref()))),
            azure::base_url(&a.at.arm),
        )?,
    }
    Ok(())
}

/// With `--recommend`, what the flags can be refused for before the cluster is read (it gives
/// the location the size is ranked in): the workload settings and the model, and the pool
/// flags whose checks do not depend on the size (counts, names, labels, taints, tags, spot
/// price, ...), checked on the size ranked first without a location (or any catalog size when
/// none fits there). Which size fits, and what depends on it, waits for the cluster.
fn check_alone(catalog: &Catalog, a: &CreatePoolArgs, subscription: &str) -> Result<(), Error> {
    use crate::domain::setting::Setting as Field;
    if !a.recommend || a.vm_size.is_some() {
        return Ok(());
    }
    let size = match crate::ops::pool::recommended(catalog, a.recommend_request(), &ClusterFacts::default()) {
        Ok(top) => top.vm_size,
        Err(RequestError::NoFit(_)) => match catalog.sizes.first() {
            Some(s) => s.name.clone(),
            None => return Ok(()),
        },
        Err(e) => return Err(in_flags(e, "--recommend found no size that fits")),
    };
    let alone = |f: Field| {
        matches!(
            f,
            Field::Name
                | Field::ResourceGroup
                | Field::Cluster
                | Field::Count
                | Field::MinCount
                | Field::MaxCount
                | Field::Labels
                | Field::NodeTaints
                | Field::Tags
                | Field::MaxPods
                | Field::SpotMaxPrice
                | Field::EvictionPolicy
                | Field::CapacityReservationGroup
                | Field::Override
        )
    };
    match crate::ops::pool::validate(catalog, &a.pool_request(subscription, size, a.pool.gpu_driver)) {
        Err(RequestError::Spec(e)) if alone(e.setting) => Err(in_flags(RequestError::Spec(e), "")),
        _ => Ok(()),
    }
}

/// What the flags alone can refuse: `--location` not a region (unless overridden), and
/// `--install-operator` with `--no-wait`.
fn check_flags(catalog: &Catalog, a: &CreatePoolArgs, p: &Printer) -> Result<(), Error> {
    if let Some(l) = &a.location {
        let mut warnings = Vec::new();
        crate::ops::recommend::region_or_override(catalog, l, &a.overrides, &mut warnings)?;
        for w in &warnings {
            p.note(&format!("warning: {}", crate::error::flag_text(w)));
        }
    }
    if a.install_operator && a.pool.managed_gpu {
        return Err(Error::usage(
            "--install-operator cannot go with --managed-gpu: AKS installs and keeps the whole NVIDIA stack on a managed pool (rule managed-gpu-owns-stack)",
            Some("drop one of them".into()),
        ));
    }
    if a.install_operator && a.no_wait {
        return Err(Error::usage(
            "--install-operator cannot be combined with --no-wait: the operator needs the pool to exist",
            Some("drop --no-wait, or run `aksgpu install-operator` after `aksgpu wait`".into()),
        ));
    }
    Ok(())
}

/// The run's options from the flags: `--location` (as ARM spells it), else the cluster's
/// location when it was read.
fn options(a: &CreatePoolArgs, facts: Store, read: Option<String>) -> CreateOptions {
    CreateOptions {
        dry_run: a.write.dry_run,
        no_wait: a.no_wait,
        skip_preflight: a.skip_preflight,
        timeout: a.at.arm.timeout,
        location: a.location.as_ref().map(|l| l.replace(' ', "").to_ascii_lowercase()).or(read),
        facts,
        pools_listed: false,
        abort_on_interrupt: a.abort_on_interrupt,
        feature_registered_first: false,
    }
}

/// The typed request the flags map into: the pool, the Windows feature, the operator.
fn request(a: &CreatePoolArgs, subscription: &str, spec: PoolSpec, options: CreateOptions) -> CreatePoolRequest {
    CreatePoolRequest {
        options,
        register_feature: a.register_features,
        read_release: a.read_release,
        operator: a.install_operator.then(|| InstallRequest {
            subscription: subscription.to_owned(),
            resource_group: a.at.target.resource_group.clone(),
            cluster: a.at.target.cluster.clone(),
            pool: Some(a.at.name.clone()),
            driver_mode: None,
            chart_version: None,
            mig_strategy: a.mig_strategy.map(crate::domain::MigStrategy::from),
            time_slicing: a.time_slicing,
            label_pools: false,
        }),
        spec,
    }
}

/// The operator install's steps for a dry run, from the pool as it would be created.
/// With `--install-operator`: the pool must suit the NVIDIA GPU Operator; an autoscaler
/// minimum below the catalog's advice is a warning (returned), not a refusal.
fn check_operator_pool(catalog: &Catalog, spec: &PoolSpec) -> Result<Option<String>, Error> {
    use crate::ops::pool::{autoscaler_min_warning, operator_pool_problem, OperatorPoolProblem as P};
    Err(match operator_pool_problem(catalog, spec) {
        None => return Ok(None),
        Some(P::Windows) => {
            Error::usage("--install-operator: the NVIDIA GPU Operator does not support Windows pools", None)
        }
        Some(P::Amd) => {
            Error::usage("--install-operator: the NVIDIA GPU Operator is for NVIDIA GPUs; this size is AMD", None)
        }
        Some(P::Managed) => Error::usage(
            "--install-operator cannot go with --managed-gpu: AKS installs and keeps the whole NVIDIA stack on a managed pool (rule managed-gpu-owns-stack)",
            Some("drop one of them".into()),
        ),
        Some(P::AutoscalerMin { min, required, rule }) => {
            return Ok(Some(autoscaler_min_warning(min, required, &rule)))
        }
    })
}

pub(crate) fn render(
    p: &Printer,
    format: Format,
    catalog: &Catalog,
    (spec, o, operator_values): (&PoolSpec, &CreateOutcome, Option<(&str, Option<&crate::ops::operator::ReleaseView>)>),
    base: String,
) -> Result<(), Error> {
    match o {
        CreateOutcome::DryRun { plan, facts_read, note, location } => {
            if let Some(n) = note {
                p.note(&format!("note: {n}"));
            }
            let preflight = if *facts_read { "passed" } else { "not run" };
            let mut header = format!(
                "Dry run: no change is made. Preflight {}.",
                if *facts_read { "reads ran and passed" } else { "reads were not run" }
            );
            let mut extra = json!({"preflight": preflight});
            if let Some((values, read)) = operator_values {
                extra = crate::commands::dry_run::with_release(extra, Some(values), read);
                let release =
                    read.map_or_else(|| install_operator::RELEASE_NOTE.to_owned(), install_operator::release_text);
                header.push_str(&format!(
                    "\n\nGPU Operator values (values.yaml, attached to the runCommand as context):\n\n{values}\n{release}"
                ));
            }
            let cost = crate::commands::dry_run::PlanPricing::new(catalog, &[pricing(spec)], location.as_deref());
            crate::commands::dry_run::render_priced_plan(p, format, (&base, plan, &header), extra, &cost)?;
        }
        _ => {
            if let Some(shown) = shown(catalog, spec, o)? {
                emit(p, format, &shown)?;
            }
        }
    }
    Ok(())
}

/// The result of a run that is not a dry run: what a person reads and what a script reads.
fn shown(catalog: &Catalog, spec: &PoolSpec, o: &CreateOutcome) -> Result<Option<Shown>, Error> {
    Ok(Some(match o {
        CreateOutcome::DryRun { .. } => return Ok(None),
        CreateOutcome::Unchanged { pool } => {
            let msg =
                format!("pool {} already exists in {} with these settings: nothing to do", spec.name, spec.cluster);
            let typed = crate::ops::pool::created_pool(spec, pool)?;
            let v = json!({"status": "unchanged", "pool_id": typed.pool_id, "provisioning_state": typed.provisioning_state});
            Shown::new(msg, v)
        }
        CreateOutcome::Accepted { pool_path } => {
            let resume = flag_text(&resume_command(spec));
            let msg = format!(
                "Azure accepted pool {} ({pool_path}); it is being created.\nFollow it with: {resume}",
                spec.name
            );
            Shown::new(msg, json!({"status": "accepted", "pool_id": pool_path, "resume": resume}))
        }
        CreateOutcome::Created { pool, location } => {
            let c = cost(catalog, spec, location.as_deref());
            let summary = Created { status: "created", pool: crate::ops::pool::created_pool(spec, pool)?, cost: &c };
            let text = render_summary(spec, &summary, &c);
            Shown::new(text, serde_json::to_value(&summary).map_err(|e| Error::internal(e.to_string()))?)
        }
    }))
}

/// What Azure returned for the created pool (`ops::pool::created_pool`: a field it did not
/// return is `null`, shown as "not returned"), and its cost.
#[derive(Serialize)]
struct Created<'a> {
    status: &'static str,
    #[serde(flatten)]
    pool: crate::ops::pool::CreatedPool,
    cost: &'a Cost,
}

fn render_summary(spec: &PoolSpec, created: &Created<'_>, c: &Cost) -> String {
    let s = &created.pool;
    let gpu = format!("{} × {} {}", spec.size.gpu_count, spec.size.gpu_vendor, spec.size.gpu_model);
    const NOT_RETURNED: &str = "not returned";
    let count = s.count.map_or_else(|| NOT_RETURNED.to_owned(), |n| n.to_string());
    let nodes = match spec.autoscale {
        Some((a, b)) => format!("{count} (autoscaler {a}–{b})"),
        None => count,
    };
    let taints = match &s.node_taints {
        Some(a) if a.is_empty() => "none".to_owned(),
        Some(a) => a.join(", "),
        None => NOT_RETURNED.to_owned(),
    };
    let cost = match c.price_per_node_hour {
        Some(_) => format!(
            "{}/h ({}/month) at {} node(s); {}/h at {} [{}, {}]",
            money(c.hourly_at_min),
            money(c.monthly_at_min),
            spec.min_nodes(),
            money(c.hourly_at_max),
            spec.max_nodes(),
            c.kind,
            c.region.as_deref().unwrap_or("?")
        ),
        None => {
            format!("price unknown for {}{}", c.kind, c.region.as_ref().map(|r| format!(" in {r}")).unwrap_or_default())
        }
    };
    format!(
        "Created pool {} in cluster {}\n  id      {}\n  state   {}\n  size    {} ({gpu}, {} vCPUs)\n  nodes   {nodes}\n  taints  {}\n  driver  {}\n  MIG     {}\n  cost    {cost}\n",
        spec.name,
        spec.cluster,
        s.pool_id,
        s.provisioning_state.as_deref().unwrap_or(NOT_RETURNED),
        s.vm_size.as_deref().unwrap_or(NOT_RETURNED),
        spec.size.vcpus,
        taints,
        s.gpu_driver,
        s.mig_profile.as_deref().unwrap_or("none"),
    )
}

/// `aksgpu pool scale`
pub fn scale(ctx: &Ctx, a: &PoolScaleArgs) -> anyhow::Result<()> {
    crate::ops::wait::check_pool_name(&a.at.name)
        .map_err(|e| Error::Usage { message: Words::plain("--name: ").then("", e.message), hint: e.hint })?;
    let how = crate::ops::cluster::scale_of(a.count, a.min_count, a.max_count).map_err(|e| match e {
        ScaleAskError::MinAboveMax { min, max } => {
            Error::usage(format!("--min-count {min} is larger than --max-count {max}"), None)
        }
        ScaleAskError::Neither => Error::usage("pass --count, or --min-count with --max-count", None),
    })?;
    let to = match how {
        Scale::Count(c) => format!("{c} node(s)"),
        Scale::Autoscale { min, max } => format!("autoscaler {min}–{max}"),
    };
    let question = format!("Scale pool {} of cluster {} to {to}?", a.at.name, a.at.target.cluster);
    crate::commands::confirm::write(ctx, "pool scale", a.write.yes, a.write.dry_run, &question)?;
    if a.write.dry_run {
        return scale_dry_run(ctx, a, how);
    }
    let action = ClusterAction::Scale { pool: a.at.name.clone(), how };
    let r = crate::commands::cluster::run_action(ctx, &a.at.arm, &a.at.target, false, &action)?;
    if let ClusterChange::Done(v) = &r {
        let sub = crate::ops::cluster::scaled_pool(v).and_then(|p| p.subscription).unwrap_or_default();
        let req = crate::commands::cluster::request(sub, &a.at.target, &a.at.arm);
        node_image_note(ctx, &req, |catalog, at| crate::ops::cluster::node_image_warning(catalog, v, at))?;
    }
    crate::commands::cluster::print_ops(&ctx.printer, a.write.output, &base_url(&a.at.arm), r, |v| {
        let Some(p) = crate::ops::cluster::scaled_pool(v) else {
            return format!("pool {}: Azure returned a pool of another shape", a.at.name);
        };
        let n = |x: Option<u32>| x.map_or_else(|| "(not returned)".to_owned(), |x| x.to_string());
        if p.autoscale {
            format!("pool {}: {} node(s), autoscaler {}–{}", a.at.name, n(p.count), n(p.min), n(p.max))
        } else {
            format!("pool {}: {} node(s)", a.at.name, n(p.count))
        }
    })?;
    Ok(())
}

pub use crate::ops::cluster::SCALE_UNREAD;

/// Warn when the pool's size has a node image floor and the pool runs an older image (`warning`
/// of the pool, in the cluster `at`).
fn node_image_note(
    ctx: &Ctx,
    req: &ClusterRequest,
    warning: impl FnOnce(&Catalog, (&str, &str, &str)) -> Option<String>,
) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    let at = (req.subscription.as_str(), req.resource_group.as_str(), req.cluster.as_str());
    if let Some(w) = warning(&catalog, at) {
        ctx.printer.note(&format!("warning: {w}"));
    }
    Ok(())
}

/// `pool scale --dry-run`. With credentials the pool (its counts, eTag, size) and its cluster
/// (the region, for the cost) are read once, GETs only; without, what would be read is a
/// placeholder.
fn scale_dry_run(ctx: &Ctx, a: &PoolScaleArgs, how: Scale) -> anyhow::Result<()> {
    let arm = &a.at.arm;
    let (sub, read) = azure::dry_run_reads(
        &ctx.printer,
        arm,
        async |client, sub| {
            let req = crate::commands::cluster::request(sub.to_owned(), &a.at.target, arm);
            Ok((sub.to_owned(), Some(crate::ops::cluster::read_pool_and_cluster(client, &req, &a.at.name).await?)))
        },
        |sub| Ok((sub.to_owned(), None)),
    )?;
    let req = crate::commands::cluster::request(sub, &a.at.target, arm);
    if let Some(r) = &read {
        node_image_note(ctx, &req, |catalog, at| crate::ops::cluster::read_node_image_warning(catalog, r, at))?;
    }
    match crate::ops::cluster::scale_plan(&req, &a.at.name, how, read.as_ref())? {
        ClusterChange::DryRun(plan) => {
            let cost = scale_cost(ctx, a, how, read)?;
            let header = "Dry run: no change is made.";
            crate::commands::dry_run::render_priced_plan(
                &ctx.printer,
                a.write.output,
                (&base_url(arm), &plan, header),
                json!({}),
                &cost,
            )?;
        }
        same => {
            crate::commands::cluster::print_ops(&ctx.printer, a.write.output, &base_url(arm), same, |_| String::new())?
        }
    }
    Ok(())
}

/// The cost of the counts `pool scale` asks for, from the pool (its size, OS and priority) and
/// its cluster (its region) the dry run read with credentials; without them (`None`) every
/// figure is unknown, and says why.
fn scale_cost(
    ctx: &Ctx,
    a: &PoolScaleArgs,
    how: Scale,
    read: Option<ScaleRead>,
) -> anyhow::Result<crate::commands::dry_run::PlanPricing> {
    let counts = crate::ops::cluster::scale_counts(how);
    let mut catalog = ctx.catalog()?;
    let Some(read) = read else {
        return Ok(crate::commands::dry_run::PlanPricing::unread(&catalog, &[(&a.at.name, counts)], SCALE_UNREAD));
    };
    crate::commands::with_live_prices(&mut catalog, &ctx.printer);
    Ok(crate::ops::cluster::scale_cost(&catalog, &a.at.name, how, &read.pool, &read.cluster))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(min_max: Option<(u32, u32)>) -> (Catalog, PoolSpec) {
        let catalog = Catalog::bundled().expect("catalog");
        let req = PoolRequest {
            min_count: min_max.map(|m| m.0),
            max_count: min_max.map(|m| m.1),
            ..PoolRequest::example("Standard_NC24ads_A100_v4")
        };
        let spec = PoolSpec::validate(&catalog, &req).expect("valid");
        (catalog, spec)
    }

    #[test]
    fn the_question_names_the_price_in_the_clusters_region() {
        let (catalog, spec) = pool(Some((0, 3)));
        let c = cost(&catalog, &spec, Some("eastus"));
        let node = catalog.price("Standard_NC24ads_A100_v4", "eastus").and_then(|p| p.linux).expect("priced");
        assert_eq!(
            confirm_prompt(&spec, &c),
            format!(
                "Create pool gpu in cluster c1 (0–3 × Standard_NC24ads_A100_v4; $0.00–{} per hour at 0–3 nodes ({} a node), linux on-demand in eastus)?",
                money(Some((node * 3.0 * 100.0).round() / 100.0)),
                money(Some(node))
            )
        );
        let (catalog, fixed) = pool(None);
        let c = cost(&catalog, &fixed, Some("eastus"));
        assert!(confirm_prompt(&fixed, &c)
            .ends_with(&format!("{} per hour at 1 node(s), linux on-demand in eastus)?", money(Some(node)))));
    }

    #[test]
    fn a_region_check_is_named_by_the_canonical_flag() {
        assert_eq!(check_words(crate::ops::recommend::Constraint::Region), "the --location check");
        assert_eq!(check_words(crate::ops::recommend::Constraint::MemoryFit), "the memory fit check");
    }

    #[test]
    fn the_question_says_why_a_price_is_missing() {
        let (catalog, spec) = pool(None);
        let p = confirm_prompt(&spec, &cost(&catalog, &spec, None));
        assert!(p.contains("(1 × Standard_NC24ads_A100_v4; price unknown: the cluster's region was not read"), "{p}");
        let p = confirm_prompt(&spec, &cost(&catalog, &spec, Some("nowhere")));
        assert!(p.ends_with("no list price for linux on-demand in nowhere)?"), "{p}");
    }
}
