//! What `apply` would do, per resource, from the file and the live state (pure).
//!
//! Pools: absent → create; identical → no change; only counts differ → scale (the
//! `pool scale` body); anything else differs → refused, naming the fields and how to replace
//! the pool (nothing is ever deleted or changed beyond counts). Features: Registered or
//! unknown to Azure (generally available) → no change, else register. KAITO: enable when
//! asked and off; a file that says `enabled: false` on a cluster with KAITO on is refused
//! (apply never turns anything off).

use serde::Serialize;
use serde_json::Value;

use super::config::Desired;
use super::release::State;
use crate::domain::setting::Words;
use crate::plan::agent_pool::{Difference, PoolSpec};
use crate::plan::cluster::Scale;
use crate::resources::{AgentPool, AsRead, ManagedCluster};

/// What the executor read.
#[derive(Debug, Clone, Default)]
pub struct Live {
    /// The managed cluster, as read (its JSON kept for the KAITO PUT that sends it back).
    pub cluster: AsRead<ManagedCluster>,
    /// The cluster's agent pools, as listed (each keeps its JSON for a scale that sends it back).
    pub pools: Vec<AsRead<AgentPool>>,
    /// States of `Desired::features`, in order (`None`: the feature does not exist).
    pub features: Vec<Option<String>>,
    /// The resource provider's `registrationState`, read when the file names features.
    pub provider: Option<String>,
    /// An earlier run sent a feature registration and stopped before the provider's
    /// re-registration was confirmed (the marker it left says so; Azure's state cannot).
    pub provider_owed: bool,
    /// The GPU Operator release, when the file installs it (`None`: not read).
    pub operator: Option<State>,
    /// The release as its check read it: its chart and status (or `absent`) and its
    /// user-supplied values (`null`: none); `None` when the check was not sent.
    pub operator_release: Option<(String, Value)>,
    /// How the operator would be installed, when it matters to the reader (e.g. "AKS manages
    /// the driver on these pools: the operator's driver is disabled").
    pub operator_note: Option<String>,
}

/// Per resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    Create,
    NoChange,
    Scale,
    Refused,
    /// The resource is `Failed` in Azure: never "no change", never built on.
    Failed,
    /// Not read, with the reason (e.g. reading it needs a write such as a runCommand POST).
    NotChecked,
    /// An operation is running on the pool in Azure (Creating, Updating, Scaling, …, or
    /// Deleting): never "no change". `apply` waits for it as `aksgpu wait` does (for Deleting,
    /// until the pool is gone, then creates it) and compares again.
    Wait,
}

impl Action {
    /// The word the table shows.
    pub fn word(self) -> &'static str {
        match self {
            Action::Create => "create",
            Action::NoChange => "no change",
            Action::Scale => "scale",
            Action::Refused => "refused",
            Action::Failed => "failed",
            Action::NotChecked => "not checked",
            Action::Wait => "wait",
        }
    }
}

/// One resource's verdict.
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    /// `feature`, `pool`, `operator` or `kaito`.
    pub kind: &'static str,
    pub name: String,
    pub action: Action,
    pub detail: String,
    /// The fix, naming settings by id: the front end words it (and writes it into the JSON).
    #[serde(skip)]
    pub hint: Option<Words>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<Difference>,
    #[serde(skip)]
    pub scale: Option<Scale>,
}

impl Change {
    fn new(kind: &'static str, name: &str, action: Action, detail: impl Into<String>) -> Self {
        Change {
            kind,
            name: name.to_owned(),
            action,
            detail: detail.into(),
            hint: None,
            differences: vec![],
            scale: None,
        }
    }
}

const COUNT_FIELDS: &[&str] = &["count", "minCount", "maxCount", "enableAutoScaling"];

/// The verdict for every resource the file names, in apply order.
pub fn diff(d: &Desired, live: &Live) -> Vec<Change> {
    let mut out = Vec::new();
    for (i, f) in d.features.iter().enumerate() {
        let mut c = feature(f, live.features.get(i).cloned().flatten().as_deref(), live.features.len() > i);
        if c.action == Action::NoChange && c.detail == "Registered" {
            match &live.provider {
                Some(p) if !p.eq_ignore_ascii_case("Registered") => {
                    c.action = Action::Create;
                    c.detail = format!("Registered, but the provider is {p}: re-register Microsoft.ContainerService");
                }
                _ if live.provider_owed => {
                    c.action = Action::Create;
                    c.detail = "Registered, but an earlier run stopped before Microsoft.ContainerService was \
                                re-registered: re-register it"
                        .to_owned();
                }
                _ => {}
            }
        }
        out.push(c);
    }
    for spec in &d.pools {
        let have = crate::resources::find_named(&live.pools, &spec.name);
        let implicit = d.implicit.get(&spec.name).map_or(&[][..], Vec::as_slice);
        out.push(pool(d, spec, have, implicit));
    }
    if let Some(o) = &d.operator {
        let mut c = operator(o, live.operator.as_ref());
        if let Some(n) = &live.operator_note {
            c.detail = format!("{}; {n}", c.detail);
        }
        out.push(c);
    }
    if let Some(want) = d.kaito {
        let on = live.cluster.kaito_enabled();
        out.push(match (want, on) {
            (true, true) | (false, false) => {
                Change::new("kaito", &d.cluster, Action::NoChange, if on { "enabled" } else { "not enabled" })
            }
            (true, false) => Change::new("kaito", &d.cluster, Action::Create, "enable aiToolchainOperatorProfile and oidcIssuerProfile"),
            (false, true) => {
                let mut c = Change::new("kaito", &d.cluster, Action::Refused, "KAITO is enabled in Azure; apply never disables it");
                c.hint = Some(format!(
                    "set kaito.enabled: true, or disable it yourself: az aks update -g {} -n {} --disable-ai-toolchain-operator",
                    d.resource_group, d.cluster
                ).into());
                c
            }
        });
    }
    out
}

fn operator(o: &super::config::OperatorConfig, state: Option<&State>) -> Change {
    let version = o.chart_version.clone().unwrap_or_else(|| crate::plan::operator::DEFAULT_CHART_VERSION.into());
    let install = format!("helm upgrade --install gpu-operator {version} through runCommand");
    let name = "gpu-operator";
    match state {
        Some(State::Same { chart }) => {
            Change::new("operator", name, Action::NoChange, format!("{chart} deployed with these values"))
        }
        Some(State::Absent) => Change::new("operator", name, Action::Create, format!("not installed: {install}")),
        Some(State::Differs(d)) => {
            Change::new("operator", name, Action::Create, format!("{}: {install}", d.join("; ")))
        }
        Some(State::Unread(why)) => {
            Change::new("operator", name, Action::Create, format!("release not read ({why}): {install} (idempotent)"))
        }
        Some(State::NotChecked(why)) => Change::new(
            "operator",
            name,
            Action::NotChecked,
            format!("not checked: {why}; apply reads the release first and runs {install} only if it differs"),
        ),
        None => Change::new("operator", name, Action::Create, format!("release not read: {install} (idempotent)")),
        Some(State::Refused { message, hint }) => {
            // In a file's terms; apply asks for no driver mode, so no refusal it meets names one.
            let detail = message.render(|s| s.file_key().unwrap_or(s.long()).to_owned(), |s| s.long().to_owned());
            let mut c = Change::new("operator", name, Action::Refused, detail);
            c.hint = hint.clone();
            c
        }
    }
}

fn feature(name: &str, state: Option<&str>, read: bool) -> Change {
    match state {
        _ if !read => Change::new("feature", name, Action::Create, "register (state not read)"),
        None if crate::plan::features::went_ga(crate::plan::features::NAMESPACE, name) => {
            Change::new("feature", name, Action::NoChange, crate::plan::features::NO_LONGER_PREVIEW)
        }
        None => {
            let mut c = Change::new(
                "feature",
                name,
                Action::Refused,
                "not found in Azure, and not a preview feature this version knows",
            );
            c.hint = Some("check the name: az feature list --namespace Microsoft.ContainerService -o table".into());
            c
        }
        Some(s) if s.eq_ignore_ascii_case("Registered") => Change::new("feature", name, Action::NoChange, "Registered"),
        Some(s) if s.eq_ignore_ascii_case("Pending") => {
            let mut c = Change::new("feature", name, Action::Refused, "Pending: Microsoft has to approve it");
            c.hint = Some("wait for the approval (az feature show), then apply again".into());
            c
        }
        Some(s) => Change::new("feature", name, Action::Create, format!("register (now {s})")),
    }
}

fn pool(d: &Desired, spec: &PoolSpec, have: Option<&AsRead<AgentPool>>, implicit: &[&str]) -> Change {
    let Some(have) = have else {
        if let Some(e) = d.new_only.get(&spec.name) {
            // A pool refusal in a file names each of its settings by its key: no slot is left.
            let e_text = e.words().text;
            let mut c =
                Change::new("pool", &spec.name, Action::Refused, format!("a new pool cannot be created so: {e_text}"));
            c.hint = e.hint.as_deref().cloned();
            return c;
        }
        let nodes = match spec.autoscale {
            Some((a, b)) => format!("autoscaler {a}–{b}"),
            None => format!("{} node(s)", spec.count),
        };
        return Change::new("pool", &spec.name, Action::Create, format!("{}, {nodes}", spec.size.name));
    };
    if let Some(c) = not_settled(d, spec, have) {
        return c;
    }
    let mut diffs = spec.diff(have);
    diffs.retain(|x| !implicit.contains(&x.field));
    if diffs.is_empty() {
        return Change::new("pool", &spec.name, Action::NoChange, format!("{} as in the file", spec.size.name));
    }
    let listed =
        diffs.iter().map(|x| format!("{} {} → {}", x.field, x.existing, x.wanted)).collect::<Vec<_>>().join("; ");
    if diffs.iter().all(|x| COUNT_FIELDS.contains(&x.field)) {
        let how = match spec.autoscale {
            Some((min, max)) => Scale::Autoscale { min, max },
            None => Scale::Count(spec.count),
        };
        // The same check `pool scale` (and so apply) makes: refused here, not promised.
        if let Err(why) = crate::plan::cluster::scale_pool(have, how) {
            let why = why.words(|s| s.file_key().unwrap_or(s.long()).to_owned());
            let mut c =
                Change::new("pool", &spec.name, Action::Refused, format!("{listed}: apply cannot scale it: {why}"));
            c.hint = Some(format!(
                "turn the autoscaler off first (az aks nodepool update -g {} --cluster-name {} -n {} --disable-cluster-autoscaler), or write minCount/maxCount in the file",
                d.resource_group, d.cluster, spec.name
            ).into());
            c.differences = diffs;
            return c;
        }
        let mut c = Change::new("pool", &spec.name, Action::Scale, listed);
        c.scale = Some(how);
        c.differences = diffs;
        return c;
    }
    let others: Vec<&str> = diffs.iter().filter(|x| !COUNT_FIELDS.contains(&x.field)).map(|x| x.field).collect();
    let immutable: Vec<&str> = diffs.iter().filter(|x| x.immutable).map(|x| x.field).collect();
    let mut c = Change::new("pool", &spec.name, Action::Refused, listed);
    c.hint = Some(if immutable.is_empty() {
        format!(
            "apply changes only counts; change {} with az aks nodepool update -g {} --cluster-name {} -n {}, or make the file match Azure",
            others.join(", "), d.resource_group, d.cluster, spec.name
        )
    } else {
        format!(
            "{} cannot change on an existing pool. To replace it: give the pool a new name in the file (e.g. {}2) and apply; move the workloads; then delete the old pool yourself: az aks nodepool delete -g {} --cluster-name {} -n {}",
            immutable.join(", "), spec.name.chars().take(11).collect::<String>(), d.resource_group, d.cluster, spec.name
        )
    }.into());
    c.differences = diffs;
    c
}

/// A pool Azure has not settled: `Wait` while an operation runs (or it is being deleted),
/// `Failed` with Azure's error, `Refused` when its state cannot be read; `None` when it is
/// Succeeded or Canceled (compared next).
fn not_settled(d: &Desired, spec: &PoolSpec, p: &AgentPool) -> Option<Change> {
    let failure = {
        use crate::resources::ProvisioningState as S;
        p.state().map(|state| match state {
            S::Failed => Some(Err(p
                .provisioning_error()
                .unwrap_or_else(|| "Azure gave no error detail (see the pool's activity log)".into()))),
            S::InProgress(state) => {
                Some(Ok(format!("{state} in Azure: apply waits for the running operation, then compares again")))
            }
            S::Deleting => {
                Some(Ok("Deleting in Azure: apply waits until it is gone, then creates it as in the file".into()))
            }
            S::Succeeded | S::Canceled => None,
        })
    };
    let failure = match failure {
        Ok(Some(Ok(busy))) => {
            let mut c = Change::new("pool", &spec.name, Action::Wait, busy);
            if !c.detail.starts_with("Deleting") {
                let wait = crate::plan::wait_command(&d.subscription, &d.resource_group, &d.cluster, &spec.name);
                c.hint = Some(Words::plain("to follow it yourself: ").then("", wait));
            }
            return Some(c);
        }
        Ok(Some(Err(why))) => Ok(Some(why)),
        Ok(None) => Ok(None),
        Err(e) => Err(e),
    };
    match failure {
        Err(e) => Some(Change::new("pool", &spec.name, Action::Refused, format!("cannot read the pool: {e}"))),
        Ok(Some(why)) => {
            let mut c = Change::new("pool", &spec.name, Action::Failed, format!("Failed in Azure: {why}"));
            c.hint = Some(format!(
                "nothing is built on a Failed pool. Retry its last operation with az aks nodepool update -g {} --cluster-name {} -n {} (or delete it yourself and apply again)",
                d.resource_group, d.cluster, spec.name
            ).into());
            Some(c)
        }
        Ok(None) => None,
    }
}

/// True when some resource would change (create, scale, or a refusal or failure to report).
/// "Not checked" is no difference: it is said, with its reason, in the output.
pub fn changes(c: &[Change]) -> bool {
    c.iter().any(|x| !matches!(x.action, Action::NoChange | Action::NotChecked))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;
    use crate::plan::agent_pool::PoolRequest;
    use serde_json::json;

    fn desired(f: impl FnOnce(&mut PoolRequest)) -> Desired {
        let mut r = PoolRequest::example("Standard_NC24ads_A100_v4");
        f(&mut r);
        let spec = PoolSpec::validate(&Catalog::bundled().expect("catalog"), &r).expect("valid");
        Desired {
            subscription: spec.subscription.clone(),
            resource_group: spec.resource_group.clone(),
            cluster: spec.cluster.clone(),
            features: vec!["WindowsGPUPreview".into()],
            pools: vec![spec],
            fallbacks: Default::default(),
            operator: None,
            kaito: Some(true),
            implicit: Default::default(),
            new_only: Default::default(),
        }
    }

    fn listed(v: Value) -> AsRead<AgentPool> {
        AsRead::parse(v, "agent pool").expect("a pool of the documented shape")
    }

    fn live_pool(d: &Desired) -> Value {
        let mut v = d.pools[0].body();
        v["name"] = json!("gpu");
        v["properties"]["provisioningState"] = json!("Succeeded");
        v
    }

    #[test]
    fn create_then_no_change() {
        let d = desired(|_| {});
        let c = diff(&d, &Live { features: vec![Some("NotRegistered".into())], ..Live::default() });
        let actions: Vec<Action> = c.iter().map(|x| x.action).collect();
        assert_eq!(actions, [Action::Create, Action::Create, Action::Create]);
        let live = Live {
            cluster: AsRead::parse(
                json!({"properties": {"aiToolchainOperatorProfile": {"enabled": true}, "oidcIssuerProfile": {"enabled": true}}}),
                "cluster",
            )
            .expect("cluster"),
            pools: vec![listed(live_pool(&d))],
            features: vec![Some("Registered".into())],
            ..Live::default()
        };
        let c = diff(&d, &live);
        assert!(!changes(&c), "{c:?}");
    }

    #[test]
    fn counts_scale_and_immutable_fields_are_refused() {
        let d = desired(|r| r.count = Some(3));
        let mut have = live_pool(&desired(|_| {}));
        let c = diff(
            &d,
            &Live { pools: vec![listed(have.clone())], features: vec![Some("Registered".into())], ..Live::default() },
        );
        assert_eq!(c[1].action, Action::Scale, "{c:?}");
        assert_eq!(c[1].scale, Some(Scale::Count(3)));
        have["properties"]["vmSize"] = json!("Standard_NC48ads_A100_v4");
        let c =
            diff(&d, &Live { pools: vec![listed(have)], features: vec![Some("Registered".into())], ..Live::default() });
        assert_eq!(c[1].action, Action::Refused);
        assert!(c[1].detail.contains("vmSize"), "{}", c[1].detail);
        let hint = c[1].hint.as_ref().map(|h| h.text.as_str()).expect("hint");
        assert!(hint.contains("gpu2") && hint.contains("az aks nodepool delete"), "{hint}");
    }

    #[test]
    fn kaito_is_never_turned_off() {
        let mut d = desired(|_| {});
        d.kaito = Some(false);
        let live = Live {
            cluster: AsRead::parse(
                json!({"properties": {"aiToolchainOperatorProfile": {"enabled": true}, "oidcIssuerProfile": {"enabled": true}}}),
                "cluster",
            )
            .expect("cluster"),
            ..Live::default()
        };
        assert_eq!(diff(&d, &live).last().map(|c| c.action), Some(Action::Refused));
    }

    #[test]
    fn an_existing_pool_without_gpu_profile_is_adopted_as_it_is() {
        // A pool created before gpuProfile existed; the file (as export writes it) names no driver.
        let text = "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n  - name: gpu\n    vmSize: Standard_NC24ads_A100_v4\n    count: 1\n    taints: []\noperator: {install: true}\n";
        let src = super::super::config::Source { name: "f.yaml".into(), text };
        let cfg = super::super::config::parse(&src).expect("parse");
        let pick = |_: &str, _: &super::super::config::PoolConfig, _: &super::super::config::RecommendConfig| {
            Err("no".to_owned().into())
        };
        let d = super::super::config::validate(&Catalog::bundled().expect("catalog"), &src, &cfg, "sub", &pick)
            .expect("valid");
        assert_eq!(d.pools[0].gpu_driver, Some("None"), "a new pool would get the operator's driver");
        let have = json!({"name": "gpu", "properties": {"vmSize": "Standard_NC24ads_A100_v4", "count": 1, "mode": "System",
            "osType": "Linux", "provisioningState": "Succeeded"}});
        let live =
            Live { pools: vec![listed(have)], operator_note: Some("AKS manages the driver".into()), ..Live::default() };
        let c = diff(&d, &live);
        assert_eq!(c[0].action, Action::NoChange, "{c:?}");
        assert!(c[1].detail.contains("AKS manages the driver"), "{c:?}");
    }

    #[test]
    fn drift_in_every_field_the_file_holds_is_shown() {
        let mut d = desired(|r| {
            r.tags = vec!["team=ml".into()];
            r.spot = true;
            r.spot_max_price = Some(0.5);
            r.eviction_policy = Some(crate::domain::EvictionPolicy::Deallocate);
            r.kubernetes_version = Some(crate::catalog::KubeVersion::parse("1.31.2").expect("v"));
        });
        d.kaito = None;
        let mut have = live_pool(&d);
        let same = diff(
            &d,
            &Live { pools: vec![listed(have.clone())], features: vec![Some("Registered".into())], ..Live::default() },
        );
        assert!(!changes(&same), "{same:?}");
        have["properties"]["tags"] = json!({"team": "ops"});
        have["properties"]["spotMaxPrice"] = json!(0.9);
        have["properties"]["scaleSetEvictionPolicy"] = json!("Delete");
        have["properties"]["orchestratorVersion"] = json!("1.30.1");
        let c =
            diff(&d, &Live { pools: vec![listed(have)], features: vec![Some("Registered".into())], ..Live::default() });
        for f in ["tags", "spotMaxPrice", "scaleSetEvictionPolicy", "orchestratorVersion"] {
            assert!(c[1].detail.contains(f), "{f}: {}", c[1].detail);
        }
        assert_eq!(c[1].action, Action::Refused);
    }

    #[test]
    fn a_scale_apply_cannot_do_is_refused_in_diff() {
        let d = desired(|r| r.count = Some(3));
        let mut have = live_pool(&d);
        have["properties"]["enableAutoScaling"] = json!(true);
        have["properties"]["minCount"] = json!(1);
        have["properties"]["maxCount"] = json!(3);
        let c =
            diff(&d, &Live { pools: vec![listed(have)], features: vec![Some("Registered".into())], ..Live::default() });
        assert_eq!(c[1].action, Action::Refused, "{c:?}");
        assert!(c[1].detail.contains("autoscaler"), "{}", c[1].detail);
    }

    #[test]
    fn a_failed_pool_is_failed_with_azures_error() {
        let d = desired(|_| {});
        let mut have = live_pool(&d);
        have["properties"]["provisioningState"] = json!("Failed");
        have["properties"]["status"] =
            json!({"provisioningError": {"code": "AllocationFailed", "message": "no capacity"}});
        let c =
            diff(&d, &Live { pools: vec![listed(have)], features: vec![Some("Registered".into())], ..Live::default() });
        assert_eq!(c[1].action, Action::Failed);
        assert!(c[1].detail.contains("AllocationFailed: no capacity"), "{}", c[1].detail);
        assert!(changes(&c));
    }

    #[test]
    fn the_provider_state_decides_too_and_unknown_features_are_not_ga() {
        let mut d = desired(|_| {});
        d.kaito = None;
        let live = |p: &str, f: Option<&str>| Live {
            pools: vec![listed(live_pool(&desired(|_| {})))],
            features: vec![f.map(str::to_owned)],
            provider: Some(p.to_owned()),
            ..Live::default()
        };
        assert!(!changes(&diff(&d, &live("Registered", Some("Registered")))));
        let c = diff(&d, &live("Registering", Some("Registered")));
        assert_eq!(c[0].action, Action::Create, "{c:?}");
        assert!(c[0].detail.contains("provider is Registering"), "{}", c[0].detail);
        // A preview flag the catalog knows that Azure no longer has went GA: nothing to do.
        let c = diff(&d, &live("Registered", None));
        assert_eq!(c[0].action, Action::NoChange, "{c:?}");
        assert_eq!(c[0].detail, crate::plan::features::NO_LONGER_PREVIEW);
        // Any other name not found is refused (most likely misspelled).
        let unknown = Desired { features: vec!["SomeOtherFlag".into()], ..d.clone() };
        let c = diff(&unknown, &live("Registered", None));
        assert_eq!(c[0].action, Action::Refused, "not found is GA only for names the catalog knows: {c:?}");
        let owed = Live { provider_owed: true, ..live("Registered", Some("Registered")) };
        let c = diff(&d, &owed);
        assert_eq!(c[0].action, Action::Create, "a refresh an interrupted run still owes: {c:?}");
        assert!(c[0].detail.contains("stopped before Microsoft.ContainerService was re-registered"), "{}", c[0].detail);
    }
}
