//! The GpuConfig workflows (`apply`, `diff`, `export`): read the live state, and run each
//! change with the same workflows `create-pool`, `pool scale`, `register-feature`,
//! `install-operator` and `kaito enable` run. A file's `recommend:` maps into the same
//! `RecommendRequest` as `create-pool --recommend`, worded in the file's keys.

mod execute;
mod files;
mod plan;
mod quota;

pub use execute::{execute, Apply, Row, RowResult};
pub use files::{check_alone, inputs, parse, set_subscription, validate, Input, MAX_FILE};
pub use plan::{dry_run_steps, offline_plan, plan_pricing, pool_pricing, read_and_diff};
pub use quota::check as check_quota;

/// What the front end renders of a file's run: the changes, the live state, the export.
pub use crate::plan::agent_pool::{check_cluster, check_resource_group};
pub use crate::plan::gitops::config::{hint_words, message_words};
pub use crate::plan::gitops::diff::changes as any_changes;
pub use crate::plan::gitops::export::export;
pub use crate::plan::gitops::{Action, Change};

use std::time::{Duration, Instant};

use serde_json::Value;

use super::pool::ClusterFacts;
use crate::resources::ManagedCluster;

/// The cluster's location as read (lower case, no spaces); `None` when Azure did not send it
/// (what is shown then says the region is unknown).
pub fn cluster_location(cluster: &ManagedCluster) -> Option<String> {
    cluster.location().ok()
}
use super::{Cred, Report};
use crate::arm::ArmClient;
use crate::catalog::{Catalog, KubeVersion};
use crate::domain::setting::{Setting, Words};
use crate::domain::{GpuDriver, Os, Precision, Workload};
use crate::error::Error;
use crate::ops::recommend::{Need, RecommendRequest};
use crate::plan::agent_pool::PoolSpec;
use crate::plan::cluster::Scale;
use crate::plan::cluster_ops::{self as ops, Target};
use crate::plan::gitops::config::by_name;
use crate::plan::gitops::config::{ClusterRef, OperatorConfig, PickRefusal, PoolConfig, RecommendConfig};
use crate::plan::gitops::release::{self, State};
pub use crate::plan::gitops::{Desired, Live};
use crate::plan::operator::MigStrategy;
use crate::plan::Plan;
use crate::provision::cluster_ops::{self, ClusterChange as OpsOutcome};
use crate::provision::facts::Store;
use crate::provision::features::{self, Registration as FeatureOutcome};
use crate::provision::kaito::{self, KaitoEnable as KaitoOutcome};
use crate::provision::operator::{self, InstallRequest, OperatorRefusal};
use crate::provision::pool::{self, CreateOutcome};
use crate::provision::runcommand;
use crate::provision::Progress;
use crate::recommend::Constraint;
use crate::resources::{AgentPool, AsRead};
use crate::units;

/// The cluster's location and Kubernetes version for `recommend:` pools, read once (into the
/// run's facts: the live state reuses it); nothing without credentials (an offline dry run
/// ranks without a region, as before).
pub async fn cluster_place(
    (client, facts): (&ArmClient, &Store),
    sub: &str,
    c: &ClusterRef,
) -> Result<ClusterFacts, Error> {
    if !client.has_credentials() {
        return Ok(ClusterFacts::default());
    }
    ClusterFacts::from_cluster(&facts.cluster(client, sub, &c.resource_group, &c.name).await?.item)
}

/// The size `create-pool --recommend` would take for these settings, in the cluster's
/// location with its Kubernetes version when they were read, with the file's `overrides`.
/// `at` is the pool's path in the file (`pools[1]`), for the keys a refusal names.
pub fn pick(
    catalog: &Catalog,
    place: &ClusterFacts,
    at: &str,
    (p, r): (&PoolConfig, &RecommendConfig),
    overrides: &[String],
) -> Result<crate::plan::gitops::config::Picked, PickRefusal> {
    match rank(catalog, place, at, (p, r), overrides)? {
        Ok(top) => Ok((top.vm_size.clone(), Some(crate::ops::pool::deployment(&top)))),
        Err(why) => Err(PickRefusal {
            message: Words::plain(format!(
                "no size fits ({} removed the last candidates)",
                why.map_or_else(|| "the catalog check".to_owned(), constraint_words)
            )),
            hint: Some(Words::plain("run `aksgpu recommend` with the same settings to see why")),
            key: None,
        }),
    }
}

/// The pool's `recommend:` ranked in `place`: the settings and the model are checked first
/// (a refusal names the key); `Err(constraint)` inside when no size fits.
fn rank(
    catalog: &Catalog,
    place: &ClusterFacts,
    at: &str,
    (p, r): (&PoolConfig, &RecommendConfig),
    overrides: &[String],
) -> Result<Result<crate::recommend::Recommendation, Option<Constraint>>, PickRefusal> {
    let ra = recommend_request(place, (p, r), overrides)?;
    if !crate::ops::recommend::has_requirements(&ra) {
        return Err(PickRefusal::from("recommend needs a model, modelParams, a workload or gpuMemoryMin".to_owned()));
    }
    crate::ops::recommend::top_recommendation(catalog, &ra).map_err(|e| in_file(at, e))
}

/// What a pool's `recommend:` can be refused for on its own, before the cluster is read: its
/// settings, its model, a block that describes no workload. Which size fits is left to
/// [`pick`] in the cluster's location (a size may fit there and not elsewhere, or the reverse).
pub fn check_recommend(
    catalog: &Catalog,
    at: &str,
    (p, r): (&PoolConfig, &RecommendConfig),
    overrides: &[String],
) -> Result<(), PickRefusal> {
    rank(catalog, &ClusterFacts::default(), at, (p, r), overrides).map(|_| ())
}

/// A refusal of `recommend` worded in the file: each setting named by its key under the pool
/// at `at` (`pools[1].recommend.tensorParallel`; a setting a file cannot give stays a slot the
/// front end words as a flag) and placed at the first such key; a refusal resting on the
/// catalog says how to override it: in a file, `overrides:`.
fn in_file(at: &str, e: Error) -> PickRefusal {
    let key = |s: Setting| s.file_path(at);
    let Error::Setting(e) = e else {
        // Words about the whole block (the Hub cannot be read: give `modelParams`): the message
        // names its settings by key, the hint by the key to write (`Source::error`).
        return match e.words() {
            Some((message, hint)) => PickRefusal { message: message.name_some(key), hint: hint.cloned(), key: None },
            None => PickRefusal { message: e.to_string().into(), hint: e.hint().map(Words::plain), key: None },
        };
    };
    let words = |text: &str| Words::new(text, &e.settings).name_some(key);
    let (message, hint) = (words(&e.message), e.hint.as_deref().map(words));
    let key = e.settings.iter().find_map(|s| key(*s));
    match &e.rule {
        Some((id, source)) => {
            let also = crate::plan::agent_pool::override_hint(id, source);
            let h = hint.map_or_else(|| also.clone(), |h| h.then("; ", also.clone()));
            let end = Words::plain("; in a GpuConfig, list the id under `overrides:`)");
            PickRefusal { message: message.then(" (", h).then("", end), hint: None, key }
        }
        None => PickRefusal { message, hint, key },
    }
}

/// A GpuConfig pool's `recommend:` as the typed request `create-pool --recommend` builds from
/// its flags: the workload, and the pool's OS, spot, MIG, driver and Kubernetes version, in
/// the cluster's location (when read).
pub fn recommend_request(
    place: &ClusterFacts,
    (p, r): (&PoolConfig, &RecommendConfig),
    overrides: &[String],
) -> Result<RecommendRequest, PickRefusal> {
    let text = |v: &Option<String>| v.as_ref().map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
    let workload = match text(&r.workload) {
        Some(w) => Some(
            by_name(Workload::ALL, Workload::name, &w)
                .ok_or_else(|| PickRefusal::from(format!("workload {w:?} is not known")))?,
        ),
        None => None,
    };
    let precision = match text(&r.precision) {
        Some(x) => {
            Some(Precision::parse(&x).ok_or_else(|| PickRefusal::from(format!("precision {x:?} is not known")))?)
        }
        None => None,
    };
    let gpu_memory_min = r.gpu_memory_min.as_deref().map(units::parse_memory).transpose().map_err(PickRefusal::from)?;
    let serving = r.serving().map_err(|(field, e)| PickRefusal::from(format!("{field}: {e}")))?;
    let os = p.os.as_deref().and_then(|o| by_name(Os::ALL, Os::name, o));
    let need = Need {
        workload,
        model: r.model.clone(),
        model_params: serving.model_params,
        precision,
        gpu_memory_min,
        gpu_model: r.gpu_model.clone(),
        max_price_per_hour: r.max_price_per_hour,
        max_price_per_month: r.max_price_per_month,
        context: r.context,
        concurrency: r.concurrency,
        input_tokens: r.input_tokens,
        output_tokens: r.output_tokens,
        min_tokens_per_second: r.min_tokens_per_second,
        min_tokens_per_second_per_user: r.min_tokens_per_second_per_user,
        max_ttft: serving.max_ttft,
        kv_cache_precision: serving.kv_cache_precision,
        tensor_parallel: r.tensor_parallel,
        pipeline_parallel: r.pipeline_parallel,
        expert_parallel: r.expert_parallel,
        rank_by: serving.rank_by,
    };
    let gpu_driver = p.gpu_driver.as_deref().and_then(|d| by_name(GpuDriver::ALL, GpuDriver::name, d));
    let ra = RecommendRequest {
        k8s_version: p
            .kubernetes_version
            .as_deref()
            .map(KubeVersion::parse)
            .transpose()
            .map_err(|e| format!("kubernetesVersion: {e}"))?,
        region: place.location.clone(),
        ..RecommendRequest::for_pool(need, os, p.spot, p.mig_profile.is_some(), gpu_driver)
    };
    Ok(RecommendRequest { k8s_version: ra.k8s_version.or(place.kubernetes), overrides: overrides.to_vec(), ..ra })
}

/// A constraint as a GpuConfig pool names it: its key (`recommend.gpuMemoryMin`, `os`) for a
/// limit the file sets, else the check (`the memory fit check`).
fn constraint_words(c: Constraint) -> String {
    let key = match c {
        Constraint::Os => "os",
        Constraint::GpuDriver => "gpuDriver",
        Constraint::Mig => "migProfile",
        Constraint::Region => return "the cluster's location (prices there)".to_owned(),
        Constraint::Workload => "recommend.workload",
        Constraint::GpuModel => "recommend.gpuModel",
        Constraint::GpuMemory => "recommend.gpuMemoryMin",
        Constraint::MinTokensPerSecond => "recommend.minTokensPerSecond",
        Constraint::MinTokensPerSecondPerUser => "recommend.minTokensPerSecondPerUser",
        Constraint::MaxTtft => "recommend.maxTtft",
        Constraint::MaxPricePerHour => "recommend.maxPricePerHour",
        Constraint::MaxPricePerMonth => "recommend.maxPricePerMonth",
        // A limit a file cannot set (`gpus`, `top`) is named by its setting's long name.
        other => {
            return match (other.check(), other.setting()) {
                (Some(check), _) => format!("the {check} check"),
                (None, s) => format!("the {} limit", s.map_or("", |s| s.long())),
            }
        }
    };
    format!("the {key} limit")
}

fn install_request(d: &Desired, o: &OperatorConfig) -> InstallRequest {
    InstallRequest {
        subscription: d.subscription.clone(),
        resource_group: d.resource_group.clone(),
        cluster: d.cluster.clone(),
        pool: None,
        driver_mode: None,
        chart_version: o.chart_version.clone(),
        mig_strategy: o.mig_strategy.as_deref().map(|m| {
            if m.eq_ignore_ascii_case("mixed") {
                MigStrategy::Mixed
            } else {
                MigStrategy::Single
            }
        }),
        time_slicing: o.time_slicing,
        label_pools: false,
    }
}

/// Read the cluster, its pools and the features' states, concurrently (the cluster and the
/// pools through the run's facts, which the pools' preflight then shares).
pub async fn read_live(client: &ArmClient, facts: &Store, d: &Desired) -> Result<Live, Error> {
    let req = install_request(d, &OperatorConfig::default());
    let names: Vec<&str> = d.features.iter().map(String::as_str).collect();
    let provider = async {
        if names.is_empty() {
            Ok(None)
        } else {
            features::provider_state(client, &d.subscription, features::NAMESPACE).await
        }
    };
    let (cp, f, provider) = tokio::join!(
        operator::read(client, facts, &req),
        features::states(client, &d.subscription, features::NAMESPACE, &names),
        provider
    );
    let (cluster, pools) = cp?;
    let provider_owed = !names.is_empty() && features::refresh_owed(&d.subscription, features::NAMESPACE);
    Ok(Live { cluster, pools, features: f?, provider: provider?, provider_owed, ..Live::default() })
}

/// The reads `read_live` sends (as plan steps): the cluster and its pools, each feature's
/// state and, when the file names features, the provider's.
pub fn live_reads(d: &Desired) -> Plan {
    let mut plan = crate::plan::install::reads(&d.subscription, &d.resource_group, &d.cluster);
    for (s, what) in plan.steps.iter_mut().zip(["the cluster", "the cluster's pools"]) {
        s.purpose = format!("read {what}, to compare with the file");
    }
    for f in &d.features {
        plan.steps.push(crate::plan::features::read_feature(&d.subscription, features::NAMESPACE, f));
    }
    if !d.features.is_empty() {
        plan.steps.push(crate::plan::features::read_provider(&d.subscription, features::NAMESPACE));
    }
    plan
}

/// The live pools plus the pools the file would create (what the operator will serve).
fn pools_after(d: &Desired, live_pools: &[AsRead<AgentPool>]) -> Result<Vec<AsRead<AgentPool>>, OperatorRefusal> {
    let mut pools = live_pools.to_vec();
    for spec in &d.pools {
        if crate::resources::find_named(&pools, &spec.name).is_none() {
            pools.push(spec.as_read()?);
        }
    }
    Ok(pools)
}

/// What the reader should know about how the operator would be installed: where AKS manages
/// the driver, the operator's own driver and toolkit are disabled.
pub fn operator_note(catalog: &Catalog, d: &Desired, o: &OperatorConfig, live: &Live) -> Option<String> {
    let pools = pools_after(d, &live.pools).ok()?;
    let install = operator::resolve(catalog, &install_request(d, o), &live.cluster, &pools).ok()?;
    (install.spec.driver_mode == crate::plan::operator::DriverMode::Aks).then(|| {
        format!(
            "AKS manages the GPU driver on {}: the operator is installed with its driver and toolkit disabled",
            install.pools.join(", ")
        )
    })
}

/// Whether the GPU Operator runs as the file asks: one read-only runCommand (`helm list`,
/// `helm get values`) compared with the values `install-operator` would use. A runCommand is
/// a POST, so with `check` false (`diff`, dry runs: they send no write) it is not sent and the
/// release is "not checked". With the state, the release as read (see `Live::operator_release`).
#[allow(clippy::too_many_arguments)]
pub async fn operator_state(
    client: &ArmClient,
    cred: Option<&Cred>,
    catalog: &Catalog,
    d: &Desired,
    o: &OperatorConfig,
    live: &Live,
    deadline: Instant,
    check: bool,
) -> (State, Option<(String, Value)>) {
    let resolved =
        pools_after(d, &live.pools).and_then(|p| operator::resolve(catalog, &install_request(d, o), &live.cluster, &p));
    let install = match resolved {
        Ok(i) => i,
        Err(r) => return (State::Refused { message: r.message, hint: r.hint }, None),
    };
    if !check {
        return (
            State::NotChecked(
                "reading the Helm release needs a runCommand, which is a POST; diff and dry runs send only GETs".into(),
            ),
            None,
        );
    }
    let Some(cred) = cred else { return (State::Unread("no credentials".into()), None) };
    let token = match install.needs_cluster_token {
        Some(true) => match crate::arm::auth::cluster_token(cred.method, &cred.source, deadline).await {
            Ok(t) => Some(t),
            Err(e) => return (State::Unread(e.to_string()), None),
        },
        _ => None,
    };
    let step = release::check_step(&install.cluster_path, install.needs_cluster_token);
    let (quiet, reads) = (|_: &str| {}, Progress::default());
    let r = runcommand::run(client, (&install.cluster_path, &step), token.as_ref(), deadline, &quiet, &reads);
    match r.await {
        // The install upgrades on top of the release's own values: compare with those.
        Ok(r) if r.ok() => {
            let (want, read) = match release::parse(&r.logs) {
                release::Release::Present { values, chart, status } => (
                    crate::plan::install::merge(&install, &values).0.values_yaml,
                    Some((format!("{chart} ({status})"), values)),
                ),
                release::Release::Absent => (install.values_yaml.clone(), Some(("absent".to_owned(), Value::Null))),
                release::Release::Unread(_) => (install.values_yaml.clone(), None),
            };
            (release::compare(&r.logs, &install.spec.chart_version, &want), read)
        }
        Ok(r) => (State::Unread(format!("the check ended with {}", r.describe())), None),
        Err(e) => (State::Unread(e.to_string()), None),
    }
}

/// Read what `export` writes: cluster, pools, GPU feature states.
pub async fn read_export(
    client: &ArmClient,
    sub: &str,
    rg: &str,
    cluster: &str,
) -> Result<(ManagedCluster, Vec<AgentPool>, Vec<(&'static str, Option<String>)>), Error> {
    let d = Desired {
        subscription: sub.into(),
        resource_group: rg.into(),
        cluster: cluster.into(),
        features: features::GPU_FEATURES.iter().map(|f| f.0.to_owned()).collect(),
        pools: vec![],
        fallbacks: Default::default(),
        operator: None,
        kaito: None,
        implicit: Default::default(),
        new_only: Default::default(),
    };
    let live = read_live(client, &Store::with_cache_dir(), &d).await?;
    let states = features::GPU_FEATURES.iter().map(|f| f.0).zip(live.features).collect();
    Ok((live.cluster.item, live.pools.into_iter().map(|p| p.item).collect(), states))
}

/// `register-feature NAME`; `on_feature` hears how it went.
pub async fn register(
    client: &ArmClient,
    (d, name): (&Desired, &str),
    deadline: Instant,
    on_feature: super::feature::OnFeature<'_>,
    (report, progress): (Report<'_>, &Progress),
) -> Result<FeatureOutcome, Error> {
    let feature = features::Feature { subscription: &d.subscription, namespace: features::NAMESPACE, name };
    let out = super::feature::register(client, feature, deadline, report, progress).await?;
    on_feature(feature, &out);
    Ok(out)
}

/// `create-pool` for one spec: preflight (unless `skip_preflight`), then the If-None-Match PUT
/// and the wait, or with `dry_run` the preflight reads and checks and the plan. The pool's
/// existence comes from the agentPools list in the run's facts (one list for every pool of the
/// file).
#[allow(clippy::too_many_arguments)]
pub async fn create_pool(
    (client, facts): (&ArmClient, &Store),
    catalog: &Catalog,
    spec: &PoolSpec,
    location: Option<String>,
    (dry_run, skip_preflight): (bool, bool),
    timeout: Duration,
    fallbacks: &[PoolSpec],
    report: Report<'_>,
    progress: &Progress,
) -> Result<CreateOutcome, Error> {
    crate::ops::pool::create_with_fallbacks(
        (client, facts),
        catalog,
        (spec, fallbacks),
        (location, (dry_run, skip_preflight), timeout),
        (report, progress),
    )
    .await
}

fn target(d: &Desired) -> Target<'_> {
    Target { subscription: &d.subscription, resource_group: &d.resource_group, cluster: &d.cluster }
}

fn spec_target(spec: &PoolSpec) -> Target<'_> {
    Target { subscription: &spec.subscription, resource_group: &spec.resource_group, cluster: &spec.cluster }
}

/// `pool scale` for one spec.
pub async fn scale_pool(
    client: &ArmClient,
    spec: &PoolSpec,
    how: Scale,
    timeout: Duration,
    report: Report<'_>,
    progress: &Progress,
) -> Result<OpsOutcome, Error> {
    let run = cluster_ops::Run { dry_run: false, timeout };
    Ok(cluster_ops::scale(client, spec_target(spec), &spec.name, how, run, report, progress).await?)
}

/// The steps `pool scale` sends for a spec, from the pool as read.
pub fn scale_plan(spec: &PoolSpec, current: &AsRead<AgentPool>, how: Scale) -> Result<Plan, Error> {
    Ok(ops::scale(spec_target(spec), &spec.name, current, how)?)
}

/// `install-operator` for every GPU pool of the cluster.
#[allow(clippy::too_many_arguments)]
pub async fn install_operator(
    (client, facts): (&ArmClient, &Store),
    cred: &Cred,
    catalog: &Catalog,
    d: &Desired,
    o: &OperatorConfig,
    timeout: Duration,
    report: Report<'_>,
    progress: &Progress,
) -> Result<operator::Report, Error> {
    let req = install_request(d, o);
    crate::ops::operator::install((client, facts), cred, catalog, &req, timeout, (report, progress)).await
}

/// `kaito enable`.
pub async fn enable_kaito(
    client: &ArmClient,
    d: &Desired,
    timeout: Duration,
    report: Report<'_>,
    progress: &Progress,
) -> Result<KaitoOutcome, Error> {
    let run = cluster_ops::Run { dry_run: false, timeout };
    Ok(kaito::enable(client, target(d), run, report, progress).await?)
}

/// The steps `register-feature` sends.
pub fn feature_plan(d: &Desired, name: &str) -> Plan {
    crate::plan::features::register(&d.subscription, features::NAMESPACE, name)
}

/// The steps `apply` sends for a spec (the pool's existence from the agentPools list).
pub fn pool_plan(spec: &PoolSpec, location: Option<&str>) -> Plan {
    pool::plan_listed(spec, location)
}

/// The release check `apply` sends for the file's operator (see [`operator_state`]), on the
/// cluster and pools as read (`{}` and none when not read); `None` when the install is refused.
pub fn release_check(
    catalog: &Catalog,
    d: &Desired,
    cluster: &ManagedCluster,
    live_pools: &[AsRead<AgentPool>],
) -> Option<crate::plan::Step> {
    let o = d.operator.as_ref()?;
    let pools = pools_after(d, live_pools).ok()?;
    let install = operator::resolve(catalog, &install_request(d, o), cluster, &pools).ok()?;
    Some(release::check_step(&install.cluster_path, install.needs_cluster_token))
}

/// The operator install's steps, from the live pools plus the pools the file creates; with
/// `release` (the release's values as read), the `helm upgrade --install` the run sends on it.
pub fn operator_plan(
    catalog: &Catalog,
    d: &Desired,
    o: &OperatorConfig,
    (cluster, live_pools): (&ManagedCluster, &[AsRead<AgentPool>]),
    release: Option<&Value>,
) -> Result<Plan, Error> {
    let req = install_request(d, o);
    let install = pools_after(d, live_pools)
        .and_then(|p| operator::resolve(catalog, &req, cluster, &p))
        .map_err(|r| Error::Refused { message: r.message, hint: r.hint })?;
    let mut plan = operator::plan(&req, &install);
    if let Some(current) = release {
        let (merged, _) = crate::plan::install::merge(&install, current);
        let sent = crate::plan::install::install_step(&merged);
        for s in plan.steps.iter_mut().filter(|s| s.kind == crate::plan::StepKind::InstallOperator) {
            *s = sent.clone();
        }
    }
    Ok(plan)
}

/// The Helm values the file's operator install sends, as a dry run shows them: its values
/// YAML, and when the release was read (`live.operator_release`), the release and what the
/// install changes in its values. `None`: the file has no operator, or its install is refused
/// (the changes say why). Without `live` (no credentials): from the file alone.
pub fn operator_values(
    catalog: &Catalog,
    d: &Desired,
    live: Option<&Live>,
) -> Option<(String, Option<super::operator::ReleaseView>)> {
    let o = d.operator.as_ref()?;
    let (cluster, pools) = live.map_or_else(Default::default, |l| (l.cluster.item.clone(), l.pools.clone()));
    let pools = pools_after(d, &pools).ok()?;
    let install = operator::resolve(catalog, &install_request(d, o), &cluster, &pools).ok()?;
    let Some((name, current)) = live.and_then(|l| l.operator_release.as_ref()) else {
        return Some((install.values_yaml, None));
    };
    let (merged, values_diff) = crate::plan::install::merge(&install, current);
    let install_step = crate::plan::install::install_step(&merged);
    let view = super::operator::ReleaseView {
        release: name.clone(),
        values_diff,
        values_yaml: merged.values_yaml.clone(),
        install_step,
    };
    Some((merged.values_yaml, Some(view)))
}

/// The steps `kaito enable` sends for the cluster as read (`{}` when not read).
pub fn kaito_plan(d: &Desired, cluster: &AsRead<ManagedCluster>) -> Plan {
    ops::kaito(target(d), cluster)
}
