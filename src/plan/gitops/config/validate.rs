//! Validating a parsed `GpuConfig` into the `PoolSpec`s `create-pool` builds: names, values,
//! the recommend and operator sections, each error at its file position.

use super::*;

/// Chooses a size for `recommend:` (the `create-pool --recommend` choice) for the pool at
/// the path given (`pools[1]`).
pub type Picker<'a> = dyn Fn(&str, &PoolConfig, &RecommendConfig) -> Result<Picked, PickRefusal> + 'a;

/// A size a `recommend:` block picked, and the deployment it was recommended for (its nodes
/// size the pool when the file gives no count).
pub type Picked = (String, Option<crate::plan::agent_pool::Deployment>);

/// Why a pool's `recommend:` chose no size, worded in the file's keys, with the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickRefusal {
    pub message: Words,
    pub hint: Option<Words>,
    /// The key the refusal is about (`pools[1].recommend.tensorParallel`), which its words
    /// name themselves; none for the pool's `recommend:` as a whole.
    pub key: Option<String>,
}

impl From<String> for PickRefusal {
    fn from(message: String) -> Self {
        PickRefusal { message: message.into(), hint: None, key: None }
    }
}

/// Validate the whole file into `Desired`. `subscription` is the one resolved from the file,
/// `--subscription` or the environment (a placeholder for offline dry runs).
pub fn validate(
    catalog: &Catalog,
    src: &Source<'_>,
    cfg: &GpuConfig,
    subscription: &str,
    pick: &Picker<'_>,
) -> Result<Desired, ConfigError> {
    check_names(src, cfg)?;
    let installs_operator = cfg.operator.as_ref().is_some_and(|o| o.install);
    let mut pools = Vec::new();
    let mut fallbacks = BTreeMap::new();
    let mut implicit = BTreeMap::new();
    let mut new_only = BTreeMap::new();
    for (i, p) in cfg.pools.iter().enumerate() {
        let at = format!("pools[{i}]");
        if cfg.pools[..i].iter().any(|q| q.name == p.name) {
            return Err(src.error(&format!("{at}.name"), format!("pool {} is listed twice", p.name), None));
        }
        let (spec, for_new, more) = pool_spec(catalog, src, cfg, p, &at, subscription, installs_operator, pick)?;
        if !more.is_empty() {
            fallbacks.insert(spec.name.clone(), more);
        }
        implicit.insert(p.name.clone(), implicit_fields(p));
        if let Some(e) = for_new {
            new_only.insert(p.name.clone(), e);
        }
        pools.push(spec);
    }
    if let Some(o) = &cfg.operator {
        check_operator(catalog, src, o, pools.iter_mut().enumerate())?;
    }
    if let Some(k) = &cfg.kaito {
        if !k.workspaces.is_empty() {
            return Err(src.error(
                "kaito.workspaces",
                "Workspaces are not applied by this version",
                Some(Words::new(
                    "leave the list empty and apply each with: aksgpu kaito workspace {0:flag} M | kubectl apply -f -",
                    &[Setting::Model],
                )),
            ));
        }
    }
    Ok(Desired {
        subscription: subscription.to_owned(),
        resource_group: cfg.cluster.resource_group.clone(),
        cluster: cfg.cluster.name.clone(),
        features: cfg.features.clone(),
        pools,
        fallbacks,
        operator: cfg.operator.clone().filter(|o| o.install),
        kaito: cfg.kaito.as_ref().map(|k| k.enabled),
        implicit,
        new_only,
    })
}

/// The fields of a pool the file does not state, which a new pool gets by default.
pub(super) fn implicit_fields(p: &PoolConfig) -> Vec<&'static str> {
    // The file has no `mode`: apply creates User pools, and leaves an existing pool's mode.
    let mut out = vec!["mode"];
    if p.gpu_driver.is_none() {
        out.push("gpuProfile.driver");
    }
    if p.taints.is_none() {
        out.push("nodeTaints");
    }
    if p.eviction_policy.is_none() {
        out.push("scaleSetEvictionPolicy");
    }
    if p.spot_max_price.is_none() {
        out.push("spotMaxPrice");
    }
    out
}

/// Values the `create-pool` flags would split or that are not numbers: errors at their line.
pub(super) fn check_values(src: &Source<'_>, p: &PoolConfig, at: &str) -> Result<(), ConfigError> {
    for (field, map) in [("tags", &p.tags), ("labels", &p.labels)] {
        for (k, v) in map {
            if k.contains([',', '=']) || v.contains(',') {
                return Err(src.error(
                    &format!("{at}.{field}.{k}"),
                    format!(
                        "{}={} contains a comma or an = in the key: it would be read as two entries",
                        clip(k),
                        clip(v)
                    ),
                    Some("AKS tags and labels cannot hold a comma; use another separator such as ; or _".into()),
                ));
            }
        }
    }
    let price = p.recommend.as_ref().and_then(|r| r.max_price_per_hour);
    if let Some(x) = price.filter(|x| !x.is_finite() || *x <= 0.0) {
        return Err(src.error(
            &format!("{at}.recommend.maxPricePerHour"),
            format!("{x} is not a price: write a positive number of USD per hour"),
            None,
        ));
    }
    if let Some(Err((field, message))) = p.recommend.as_ref().map(RecommendConfig::serving) {
        return Err(src.error(&format!("{at}.recommend.{field}"), message, None));
    }
    if let Some(x) = p.spot_max_price.filter(|x| x.is_nan()) {
        return Err(src.error(&format!("{at}.spotMaxPrice"), format!("{x} is not a price"), None));
    }
    Ok(())
}

/// The names that go into every request URL (checked even when the file has no pools), and
/// the features' names.
pub(super) fn check_names(src: &Source<'_>, cfg: &GpuConfig) -> Result<(), ConfigError> {
    check_resource_group(&cfg.cluster.resource_group).map_err(|e| spec_error(src, "cluster.resourceGroup", e))?;
    check_cluster(&cfg.cluster.name).map_err(|e| spec_error(src, "cluster.name", e))?;
    for (i, f) in cfg.features.iter().enumerate() {
        if f.is_empty() || !f.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err(src.error(&format!("features[{i}]"), format!("{} is not a feature name", clip(f)), None));
        }
        if let Some(known) = crate::plan::features::misspelling_of(crate::plan::features::NAMESPACE, f) {
            return Err(src.error(
                &format!("features[{i}]"),
                format!("{f} is not a feature this version knows"),
                Some(format!("did you mean {known}?").into()),
            ));
        }
    }
    Ok(())
}

/// Checks a `recommend:` block on its own (no cluster read): `Err` refuses the pool.
pub type RecommendCheck<'a> = dyn Fn(&str, &PoolConfig, &RecommendConfig) -> Result<(), PickRefusal> + 'a;

/// What the file's pools can be refused for on their own, before any request: names, values
/// (a NaN price, a comma in a label), `vmSize` and `recommend` together or neither, and each
/// `recommend:` block by `check` (its settings and model). Only what needs Azure's answer
/// (which size fits in the cluster's region) is left to [`validate`] after the reads.
pub fn check_alone(
    catalog: &Catalog,
    src: &Source<'_>,
    cfg: &GpuConfig,
    check: &RecommendCheck<'_>,
) -> Result<(), ConfigError> {
    check_names(src, cfg)?;
    let installs_operator = cfg.operator.as_ref().is_some_and(|o| o.install);
    let never = |_: &str, _: &PoolConfig, _: &RecommendConfig| -> Result<Picked, PickRefusal> {
        Err(PickRefusal::from("a recommend: pool is not checked here".to_owned()))
    };
    for (i, p) in cfg.pools.iter().enumerate() {
        let at = format!("pools[{i}]");
        if cfg.pools[..i].iter().any(|q| q.name == p.name) {
            return Err(src.error(&format!("{at}.name"), format!("pool {} is listed twice", p.name), None));
        }
        check_pool_name(&p.name).map_err(|e| spec_error(src, &format!("{at}.name"), e))?;
        check_values(src, p, &at)?;
        let alone = |at: &str, p: &PoolConfig, r: &RecommendConfig| check(at, p, r).map(|()| (String::new(), None));
        vm_size(src, p, &at, &alone)?;
        // A pool that names its size is checked whole, as `validate` checks it (the refusal
        // kept for a new pool only waits: whether the pool exists is Azure's answer).
        if p.recommend.is_none() {
            let (mut spec, ..) = pool_spec(catalog, src, cfg, p, &at, "{subscription}", installs_operator, &never)?;
            if let Some(o) = &cfg.operator {
                check_operator(catalog, src, o, [(i, &mut spec)])?;
            }
            continue;
        }
        // A `recommend:` pool's size waits for the cluster's region; its other fields, and the
        // operator's rules that do not depend on the size, are checked now.
        let typed = Typed::parse(src, p, &at, installs_operator)?;
        if installs_operator && typed.os == Some(crate::domain::Os::Windows) {
            return Err(src.error(&format!("{at}.os"), WINDOWS_OPERATOR, None));
        }
    }
    if let Some(o) = &cfg.operator {
        check_operator(catalog, src, o, std::iter::empty())?;
    }
    Ok(())
}

pub(super) const WINDOWS_OPERATOR: &str = "the NVIDIA GPU Operator does not support Windows pools";

/// The pool's size: `vmSize`, or the one its `recommend:` picks (one of them, not both).
pub(super) fn vm_size(src: &Source<'_>, p: &PoolConfig, at: &str, pick: &Picker<'_>) -> Result<Picked, ConfigError> {
    match (&p.vm_size, &p.recommend) {
        (Some(s), None) => Ok((s.clone(), None)),
        (None, Some(r)) => pick(at, p, r).map_err(|e| match e.key {
            Some(key) => src.error_naming(&key, e.message, e.hint),
            None => src.error(&format!("{at}.recommend"), e.message, e.hint),
        }),
        (Some(_), Some(_)) => Err(src.error(&format!("{at}.recommend"), "give vmSize or recommend, not both", None)),
        (None, None) => {
            Err(src.error(at, "vmSize is required", Some("or write recommend: {model: …, precision: …}".into())))
        }
    }
}

/// One pool → `PoolRequest` → `PoolSpec::validate`, the same checks as `create-pool`. Returns
/// the pool's spec, the refusal kept for a new pool only, and the failover candidates after it.
#[allow(clippy::too_many_arguments)]
pub(super) fn pool_spec(
    catalog: &Catalog,
    src: &Source<'_>,
    cfg: &GpuConfig,
    p: &PoolConfig,
    at: &str,
    subscription: &str,
    installs_operator: bool,
    pick: &Picker<'_>,
) -> Result<(PoolSpec, Option<ConfigError>, Vec<PoolSpec>), ConfigError> {
    check_pool_name(&p.name).map_err(|e| spec_error(src, &format!("{at}.name"), e))?;
    check_values(src, p, at)?;
    let (vm_size, deployment) = vm_size(src, p, at, pick)?;
    let typed = Typed::parse(src, p, at, installs_operator)?;
    let req = PoolRequest {
        subscription: subscription.to_owned(),
        resource_group: cfg.cluster.resource_group.clone(),
        cluster: cfg.cluster.name.clone(),
        name: p.name.clone(),
        vm_size,
        count: p.count,
        min_count: p.min_count,
        max_count: p.max_count,
        os: typed.os,
        os_sku: p.os_sku.clone(),
        kubernetes_version: typed.kubernetes_version,
        taints: p.taints.clone(),
        labels: p.labels.iter().map(|(k, v)| format!("{k}={v}")).collect(),
        mig_profile: p.mig_profile.clone(),
        gpu_driver: typed.gpu_driver,
        managed_gpu: p.managed_gpu,
        mig_strategy: p.mig_strategy.clone(),
        mig_profiles: p.mig_profiles.clone(),
        spot: p.spot,
        spot_max_price: p.spot_max_price,
        eviction_policy: typed.eviction_policy,
        zones: p.zones.iter().map(Zone::text).collect(),
        max_pods: p.max_pods,
        os_disk_type: typed.os_disk_type,
        tags: p.tags.iter().map(|(k, v)| format!("{k}={v}")).collect(),
        capacity_reservation_group: p.capacity_reservation_group.clone(),
        overrides: cfg.overrides.clone(),
        deployment,
    };
    let to_config = |e: SpecError| {
        let path = e.setting.file_path(at).unwrap_or_else(|| at.to_owned());
        spec_error(src, &path, e)
    };
    let more: Vec<PoolSpec> = if p.fallback_vm_sizes.is_empty() {
        Vec::new()
    } else {
        crate::plan::failover::candidates(catalog, &req, &named(&p.fallback_vm_sizes))
            .map_err(|e| spec_error(src, &format!("{at}.fallbackVmSizes"), e))?
            .into_iter()
            .skip(1)
            .collect()
    };
    match PoolSpec::validate(catalog, &req).map(|s| count_keys(s, at)) {
        Ok(spec) => Ok((spec, None, more)),
        // A new pool's OS SKU rules do not bind a pool that already exists (whatever `export`
        // wrote, `apply` accepts): the file's value is kept to compare, and the refusal
        // applies only if the pool has to be created.
        Err(e) if e.setting == Setting::OsSku && req.os_sku.is_some() => {
            let for_new = to_config(e);
            let mut spec =
                PoolSpec::validate(catalog, &PoolRequest { os_sku: None, ..req.clone() }).map_err(to_config)?;
            spec.os_sku.clone_from(&p.os_sku);
            Ok((spec, Some(for_new), more))
        }
        Err(e) => Err(to_config(e)),
    }
}

/// The pool's notes and warnings about its counts name the keys under the pool
/// (`pools[0].count`): which pool's count a recommended deployment set or finds short.
fn count_keys(mut spec: PoolSpec, at: &str) -> PoolSpec {
    let counts = |s: Setting| match s {
        Setting::Count | Setting::MinCount | Setting::MaxCount => s.file_path(at),
        _ => None,
    };
    for w in spec.notes.iter_mut().chain(spec.warnings.iter_mut()) {
        *w = w.name_some(counts);
    }
    spec
}

/// A pool refusal at `path` in the file's words: its settings named by their keys, and a
/// refusal resting on the catalog says how to override it in a file (`overrides:`).
fn spec_error(src: &Source<'_>, path: &str, e: SpecError) -> ConfigError {
    let also = e.rule.as_deref().map(|(id, source)| crate::plan::agent_pool::file_override_hint(id, source));
    let hint = match (e.hint, also) {
        (Some(h), Some(a)) => Some(h.then("; ", a)),
        (h, a) => h.or(a),
    };
    src.error(path, message_words(&e.message), hint)
}

/// The value among `all` whose `name` is `text` (any case): the name tables the CLI's flags use.
pub fn by_name<T: Copy>(all: &[T], name: fn(T) -> &'static str, text: &str) -> Option<T> {
    all.iter().copied().find(|&v| name(v).eq_ignore_ascii_case(text.trim()))
}

/// A pool's fields that `create-pool` takes as typed flags, parsed as its flags are.
pub(super) struct Typed {
    os: Option<Os>,
    kubernetes_version: Option<KubeVersion>,
    gpu_driver: Option<GpuDriver>,
    eviction_policy: Option<EvictionPolicy>,
    os_disk_type: Option<OsDiskType>,
}

impl Typed {
    fn parse(src: &Source<'_>, p: &PoolConfig, at: &str, installs_operator: bool) -> Result<Self, ConfigError> {
        let bad = |field: &str, m: String| src.error(&format!("{at}.{field}"), m, None);
        let os = match &p.os {
            None => None,
            Some(o) => {
                Some(by_name(Os::ALL, Os::name, o).ok_or_else(|| bad("os", format!("{o:?} is not linux or windows")))?)
            }
        };
        let kubernetes_version = match &p.kubernetes_version {
            None => None,
            Some(v) => Some(KubeVersion::parse(v).map_err(|e| bad("kubernetesVersion", e))?),
        };
        let gpu_driver = match &p.gpu_driver {
            None => None,
            Some(d) => Some(
                by_name(GpuDriver::ALL, GpuDriver::name, d)
                    .ok_or_else(|| bad("gpuDriver", format!("{:?} is not install or none", d.to_ascii_lowercase())))?,
            ),
        };
        // As `create-pool --install-operator`: the operator installs the driver unless told otherwise.
        let gpu_driver = gpu_driver.or_else(|| installs_operator.then_some(GpuDriver::None));
        let eviction_policy = match &p.eviction_policy {
            None => None,
            Some(e) => Some(by_name(EvictionPolicy::ALL, EvictionPolicy::name, e).ok_or_else(|| {
                bad("evictionPolicy", format!("{:?} is not Delete or Deallocate", e.to_ascii_lowercase()))
            })?),
        };
        let os_disk_type = match &p.os_disk_type {
            None => None,
            Some(t) => Some(by_name(OsDiskType::ALL, OsDiskType::name, t).ok_or_else(|| {
                bad("osDiskType", format!("{:?} is not Managed or Ephemeral", t.to_ascii_lowercase()))
            })?),
        };
        Ok(Typed { os, kubernetes_version, gpu_driver, eviction_policy, os_disk_type })
    }
}

/// The operator section: known MIG strategy; pools it serves must suit it (the
/// `create-pool --install-operator` rules).
pub(super) fn check_operator<'p>(
    catalog: &Catalog,
    src: &Source<'_>,
    o: &OperatorConfig,
    pools: impl IntoIterator<Item = (usize, &'p mut PoolSpec)>,
) -> Result<(), ConfigError> {
    if let Some(m) = &o.mig_strategy {
        if !matches!(m.to_ascii_lowercase().as_str(), "single" | "mixed") {
            return Err(src.error("operator.migStrategy", format!("{m:?} is not single or mixed"), None));
        }
    }
    if o.time_slicing == Some(0) {
        return Err(src.error("operator.timeSlicing", "must be at least 1", None));
    }
    if !o.install {
        return Ok(());
    }
    use crate::plan::install::{operator_pool_problem, OperatorPoolProblem as P};
    for (i, spec) in pools {
        let at = format!("pools[{i}]");
        let err = match operator_pool_problem(catalog, spec) {
            None => continue,
            Some(P::Windows) => src.error(&format!("{at}.os"), WINDOWS_OPERATOR, None),
            Some(P::Amd) => {
                src.error(&format!("{at}.vmSize"), "the NVIDIA GPU Operator is for NVIDIA GPUs; this size is AMD", None)
            }
            // Not the operator's: AKS owns its stack, and its nvidia.com/gpu.deploy.operands=false
            // label keeps the operator off its nodes.
            Some(P::Managed) => continue,
            Some(P::AutoscalerMin { min, required, rule }) => {
                spec.warnings.push(crate::plan::install::autoscaler_min_warning(min, required, &rule).into());
                continue;
            }
        };
        return Err(err);
    }
    Ok(())
}

/// Fallback sizes a file names: each runs the pool's count, not the recommended size's nodes.
fn named(sizes: &[String]) -> Vec<crate::plan::failover::Fallback> {
    sizes.iter().map(|s| crate::plan::failover::Fallback::named(s)).collect()
}
