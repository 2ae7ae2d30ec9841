//! Preflight checks for a new GPU pool, as a pure function of the facts the executor read
//! (cluster, existing pool, resource SKUs, usages, preview feature state).

use super::agent_pool::{Difference, PoolSpec};
use crate::catalog::{Catalog, KubeVersion};
use crate::domain::setting::{Setting, Words};
use crate::domain::Os;
use crate::resources::compute::{CapacityReservation, ReservationGroup, ResourceSku, Usage as ComputeUsage};
use crate::resources::{self, AgentPool, AsRead, ManagedCluster, MissingField, ProvisioningState};

/// What the executor read.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    /// The managed cluster.
    pub cluster: ManagedCluster,
    /// The pool, when it exists (its JSON kept to show it as read).
    pub pool: Option<AsRead<AgentPool>>,
    /// Resource SKUs in the cluster's location (None = not read).
    pub skus: Option<Vec<ResourceSku>>,
    /// Compute usages in the location (None = not read).
    pub usages: Option<Vec<ComputeUsage>>,
    /// `WindowsGPUPreview` state, for Windows pools (None = not read).
    pub windows_feature: Option<String>,
    /// This run registers `WindowsGPUPreview` before the pool (`--register-features`), so the
    /// state read before the registration is no reason to refuse (a dry run reaches the real
    /// run's verdict, whose preflight reads the feature after registering it).
    pub feature_registered_first: bool,
    /// The capacity reservation group the pool names (None = not read or not named).
    pub reservation: Option<Reservation>,
}

/// A capacity reservation group as read: the group (with `$expand=instanceView`), None when
/// it does not exist, and its capacity reservations (each with `sku.name`, `sku.capacity`).
#[derive(Debug, Clone, Default)]
pub struct Reservation {
    pub group: Option<ReservationGroup>,
    pub reservations: Vec<CapacityReservation>,
}

impl Reservation {
    /// Instances of `vm_size` reserved and not yet allocated: per reservation of that size,
    /// `utilizationInfo.currentCapacity` (else `sku.capacity`) minus the VMs allocated to it.
    /// `None` when no reservation is of that size; a reservation whose numbers Azure did not
    /// send is an error naming the field, never free.
    pub fn free(&self, vm_size: &str) -> Result<Option<u64>, MissingField> {
        let views = self
            .group
            .as_ref()
            .and_then(|g| g.properties.instance_view.as_ref())
            .map(|v| v.capacity_reservations.as_slice())
            .unwrap_or_default();
        let mut free = None;
        for r in self.reservations.iter().filter(|r| r.size().is_some_and(|n| n.eq_ignore_ascii_case(vm_size))) {
            let label = format!("capacity reservation {}", r.name.as_deref().unwrap_or("?"));
            let view = views.iter().find(|v| v.name.is_some() && v.name == r.name);
            let util = view.and_then(|v| v.utilization_info.as_ref());
            let util = resources::required(&util.cloned(), &label, "instanceView.utilizationInfo")?;
            let capacity = util.current_capacity.or_else(|| r.sku.as_ref().and_then(|s| s.capacity));
            let capacity = resources::required(&capacity, &label, "sku.capacity")?;
            let used = util.virtual_machines_allocated.len() as u64;
            *free.get_or_insert(0) += capacity.saturating_sub(used);
        }
        Ok(free)
    }

    /// The sizes the group reserves (for `recommend`), in the order listed.
    pub fn sizes(&self) -> Result<Vec<String>, MissingField> {
        let mut out: Vec<String> = Vec::new();
        for r in &self.reservations {
            if let Some(n) = r.size() {
                if !out.iter().any(|x| x.eq_ignore_ascii_case(n)) {
                    out.push(n.to_owned());
                }
            }
        }
        Ok(out)
    }
}

/// What to do after preflight.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Create the pool.
    Create,
    /// The pool exists exactly as asked: nothing to do.
    Identical,
    /// The pool exists and an operation is running on it (`provisioningState` Creating,
    /// Updating, Scaling, Upgrading, …): wait for it, then look again.
    InProgress(String),
    /// The pool is being deleted: wait until it is gone, then create it.
    Deleting,
}

/// A failed check.
#[derive(Debug, Clone, PartialEq)]
pub struct PreflightFailure {
    /// What failed, naming settings by id (the front end words them).
    pub message: Words,
    pub hint: Option<Words>,
    /// The differences, when the pool exists with other settings.
    pub differences: Vec<Difference>,
}

fn refuse(message: impl Into<Words>, hint: Option<impl Into<Words>>) -> PreflightFailure {
    PreflightFailure { message: message.into(), hint: hint.map(Into::into), differences: Vec::new() }
}

/// "run `aksgpu register-feature F` (or `az …`), or pass --register-features; " and how to
/// override the rule.
fn register_hint(feature: &str, ns: &str, also: Words) -> Words {
    let run = format!(
        "run `aksgpu register-feature {feature}` (or `az feature register --namespace {ns} --name {feature}`), or pass {{0}}; "
    );
    Words::new(run, &[Setting::RegisterFeatures]).then("", also)
}

/// Run every check that the facts allow, in order: the cluster's state, Kubernetes versions,
/// Windows prerequisites, an existing pool, SKU availability, then quota.
pub fn check(catalog: &Catalog, spec: &PoolSpec, facts: &Facts) -> Result<Verdict, PreflightFailure> {
    check_cluster(catalog, spec, facts)?;
    if let Some(pool) = &facts.pool {
        return check_existing(catalog, spec, pool);
    }
    let loc = cluster_location(facts)?;
    if let SizeVerdict::Restricted(r) | SizeVerdict::Quota(r) = size_verdict(spec, facts)? {
        return Err(r);
    }
    if let Some(r) = &facts.reservation {
        check_reservation(spec, r, &loc)?;
    }
    Ok(Verdict::Create)
}

/// What preflight says of one size before anything is sent: the SKU is offered (not
/// restricted) and the vCPU quota is enough. For failover candidates.
#[derive(Debug, Clone, PartialEq)]
pub enum SizeVerdict {
    /// Nothing read proves it impossible.
    Go,
    /// Not offered, or restricted for the subscription in the region or in every zone asked.
    Restricted(PreflightFailure),
    /// The family's (or regional) free vCPU quota is too small, counting surge nodes.
    Quota(PreflightFailure),
}

/// The SKU and quota checks alone, for one candidate size. A cluster without its location is
/// an error naming it (the checks are never run against an empty region).
pub fn size_verdict(spec: &PoolSpec, facts: &Facts) -> Result<SizeVerdict, PreflightFailure> {
    let loc = cluster_location(facts)?;
    if let Some(skus) = &facts.skus {
        if let Err(r) = check_sku(spec, skus, &loc) {
            return Ok(SizeVerdict::Restricted(r));
        }
    }
    if let Some(usages) = &facts.usages {
        if let Err(r) = check_quota(spec, facts.skus.as_deref(), usages, &loc) {
            return Ok(SizeVerdict::Quota(r));
        }
    }
    Ok(SizeVerdict::Go)
}

/// The cluster's location (lower case, no spaces); a cluster without one is an error naming
/// `location`.
pub fn cluster_location(facts: &Facts) -> Result<String, PreflightFailure> {
    facts.cluster.location().map_err(missing)
}

/// The capacity reservation group is there, in the cluster's region, reserves the size, and
/// has enough free instances for the pool's node count.
pub fn check_reservation(spec: &PoolSpec, r: &Reservation, loc: &str) -> Result<(), PreflightFailure> {
    let id = spec.capacity_reservation_group.as_deref().unwrap_or("");
    let name = id.rsplit('/').next().unwrap_or(id);
    let Some(group) = &r.group else {
        return Err(refuse(
            format!("capacity reservation group {name} does not exist ({id})"),
            Some("check the id: az capacity reservation group list -o table"),
        ));
    };
    let at = resources::required(&group.location, &format!("capacity reservation group {name}"), "location")
        .map_err(missing)?
        .replace(' ', "")
        .to_ascii_lowercase();
    if !loc.is_empty() && at != loc {
        return Err(refuse(
            format!("capacity reservation group {name} is in {at}, but the cluster is in {loc}"),
            Some("a pool can only draw on a reservation group in its cluster's region"),
        ));
    }
    let size = &spec.size.name;
    let Some(free) = r.free(size).map_err(missing)? else {
        let has = r.sizes().map_err(missing)?;
        return Err(refuse(
            format!(
                "capacity reservation group {name} holds no reservation for {size} (it reserves {})",
                if has.is_empty() { "nothing".to_owned() } else { has.join(", ") }
            ),
            Some(format!("add one: `az capacity reservation create -c {name} -n res1 --sku {size} --capacity N …`")),
        ));
    };
    if free < u64::from(spec.count) {
        return Err(refuse(
            format!(
                "capacity reservation group {name} has {free} free {size} instance(s); the pool asks for {}",
                spec.count
            ),
            Some(Words::new(
                "raise the reservation's capacity (`az capacity reservation update --capacity N`), or lower {0}",
                &[Setting::Count],
            )),
        ));
    }
    Ok(())
}

/// The cluster's state, Kubernetes versions and Windows prerequisites: what every candidate
/// size shares.
pub fn check_cluster(catalog: &Catalog, spec: &PoolSpec, facts: &Facts) -> Result<(), PreflightFailure> {
    let c = &facts.cluster;
    c.location().map_err(missing)?;
    check_cluster_state(spec, c)?;
    let cluster_version = c.kubernetes_version().and_then(|v| KubeVersion::parse(v).ok());
    check_versions(spec, cluster_version)?;
    if spec.os == Os::Windows {
        let feature = if facts.feature_registered_first { None } else { facts.windows_feature.as_deref() };
        check_windows(catalog, spec, cluster_version, feature)?;
    } else if spec.managed_gpu() && !facts.feature_registered_first {
        check_managed_feature(catalog, spec, facts.windows_feature.as_deref())?;
    }
    Ok(())
}

/// AKS-managed GPU pools: the preview feature (rule `managed-gpu-feature`, overridable: the
/// feature may have gone GA since the catalog was written).
fn check_managed_feature(catalog: &Catalog, spec: &PoolSpec, state: Option<&str>) -> Result<(), PreflightFailure> {
    let Some((feature, rule)) = catalog.managed_gpu_feature() else { return Ok(()) };
    let Some(state) = state else { return Ok(()) };
    if state.eq_ignore_ascii_case("Registered") || spec.overrides.contains(&rule.id) {
        return Ok(());
    }
    let also = crate::plan::agent_pool::override_hint(&rule.id, &rule.source);
    Err(refuse(
        format!(
            "the {feature} preview feature is {state} on this subscription; AKS-managed GPU pools need it Registered (rule {}, source {})",
            rule.id, rule.source
        ),
        Some(register_hint(feature, "Microsoft.ContainerService", also)),
    ))
}

/// The cluster must be Succeeded and running.
fn check_cluster_state(spec: &PoolSpec, c: &ManagedCluster) -> Result<(), PreflightFailure> {
    let name = &spec.cluster;
    // No state sent reads "Unknown", which is refused below (fails safe).
    let state = c.properties.provisioning_state.as_deref().unwrap_or("Unknown");
    if !state.eq_ignore_ascii_case("Succeeded") {
        let busy = !crate::domain::is_terminal(state);
        return Err(refuse(
            format!("cluster {name} is {state}, not Succeeded"),
            Some(if busy {
                "another operation is running on the cluster; wait for it to finish and run again".to_owned()
            } else {
                "fix the cluster first (az aks show shows the last error), then run again".to_owned()
            }),
        ));
    }
    if c.power().is_ok_and(|p| p.eq_ignore_ascii_case("Stopped")) {
        return Err(refuse(
            format!("cluster {name} is stopped"),
            Some(format!("start it first: az aks start -g {} -n {name}", spec.resource_group)),
        ));
    }
    Ok(())
}

/// A pool cannot run a newer Kubernetes than its control plane.
fn check_versions(spec: &PoolSpec, cluster_version: Option<KubeVersion>) -> Result<(), PreflightFailure> {
    if let (Some(want), Some(have)) = (spec.kubernetes_version, cluster_version) {
        if have.minor_lt(&want) {
            return Err(refuse(
                Words::new(
                    format!("{{0}} {want} is newer than the control plane ({have})"),
                    &[Setting::KubernetesVersion],
                ),
                Some("a node pool cannot run a newer Kubernetes than its control plane; upgrade the cluster first"),
            ));
        }
    }
    Ok(())
}

/// Windows GPU pools: the catalog's minimum Kubernetes version and the preview feature.
fn check_windows(
    catalog: &Catalog,
    spec: &PoolSpec,
    cluster_version: Option<KubeVersion>,
    feature_state: Option<&str>,
) -> Result<(), PreflightFailure> {
    let name = &spec.cluster;
    let Some((min, feature, ns)) = catalog.windows_min_kubernetes() else { return Ok(()) };
    // The rule is the catalog's (Azure may have moved the minimum or made the feature GA):
    // overridden, the spec already carries the warning.
    let rule = catalog.rules.iter().find(|r| matches!(r.kind, crate::catalog::RuleKind::WindowsMinKubernetes { .. }));
    let (id, source) =
        rule.map_or(("windows-gpu-min-kubernetes", "catalog/rules.yaml"), |r| (r.id.as_str(), r.source.as_str()));
    if spec.overrides.iter().any(|o| o == id) {
        return Ok(());
    }
    let also = crate::plan::agent_pool::override_hint(id, source);
    if let Some(v) = spec.kubernetes_version.or(cluster_version) {
        if v.minor_lt(&min) {
            return Err(refuse(
                format!("Windows GPU node pools need Kubernetes {min} or later; cluster {name} runs {v}"),
                Some(
                    Words::plain(format!(
                        "upgrade the cluster: az aks upgrade -g {} -n {name} --kubernetes-version {min}",
                        spec.resource_group
                    ))
                    .then("; ", also),
                ),
            ));
        }
    }
    if let Some(state) = feature_state {
        if !state.eq_ignore_ascii_case("Registered") {
            return Err(refuse(
                format!("the {feature} preview feature is {state} on this subscription; Windows GPU pools need it Registered"),
                Some(register_hint(feature, ns, also)),
            ));
        }
    }
    Ok(())
}

/// The pool exists: its `provisioningState` decides first (running → wait, Deleting → wait
/// until gone, Failed → refused with how to recover; never "no change"). A Succeeded pool
/// identical to the spec is a no-op; anything else is refused with the differences.
fn check_existing(catalog: &Catalog, spec: &PoolSpec, typed: &AgentPool) -> Result<Verdict, PreflightFailure> {
    match typed.state().map_err(|e| refuse(e.to_string(), None::<Words>))? {
        ProvisioningState::InProgress(state) => return Ok(Verdict::InProgress(state)),
        ProvisioningState::Deleting => return Ok(Verdict::Deleting),
        ProvisioningState::Failed | ProvisioningState::Canceled => return Err(failed_pool(spec, typed)),
        ProvisioningState::Succeeded => {}
    }
    let diffs = spec.diff(typed);
    if diffs.is_empty() {
        return Ok(Verdict::Identical);
    }
    let immutable: Vec<&str> = diffs.iter().filter(|d| d.immutable).map(|d| d.field).collect();
    let listed: Vec<String> = diffs
        .iter()
        .map(|d| format!("{} {} → {}{}", d.field, d.existing, d.wanted, if d.immutable { " (immutable)" } else { "" }))
        .collect();
    Err(PreflightFailure {
        message: format!(
            "pool {} already exists in {} with other settings: {}",
            spec.name,
            spec.cluster,
            listed.join("; ")
        )
        .into(),
        hint: Some(if immutable.is_empty() {
            Words::new(
                "change counts, taints or labels with `az aks nodepool update`, or choose another {0}",
                &[Setting::Name],
            )
        } else {
            let rule = catalog
                .rules
                .iter()
                .find(|r| matches!(r.kind, crate::catalog::RuleKind::NoGpuOnExistingPool {}))
                .map(|r| format!(" ({} [{}; {}])", r.summary.trim_end_matches('.'), r.id, r.source))
                .unwrap_or_default();
            Words::new(
                format!("{} cannot change on an existing pool{rule}: choose another {{0}}", immutable.join(", ")),
                &[Setting::Name],
            )
        }),
        differences: diffs,
    })
}

/// A Failed (or Canceled) pool: Azure's error, and the exact commands that recover it. Nothing
/// is deleted unasked.
fn failed_pool(spec: &PoolSpec, pool: &AgentPool) -> PreflightFailure {
    let state = pool.properties.provisioning_state.as_deref().unwrap_or("Failed");
    let why = pool.provisioning_error().map(|e| format!(": {e}")).unwrap_or_default();
    let (rg, c, n) = (&spec.resource_group, &spec.cluster, &spec.name);
    refuse(
        format!("pool {n} already exists in {c} and its last operation {state}{why}; nothing was changed"),
        Some(format!(
            "retry the pool's last operation with `az aks nodepool update -g {rg} --cluster-name {c} -n {n}`, \
             or delete it with `az aks nodepool delete -g {rg} --cluster-name {c} -n {n}` and run this command again"
        )),
    )
}

/// The size is offered in the location (and zones) to this subscription, as spot when asked.
fn check_sku(spec: &PoolSpec, skus: &[ResourceSku], loc: &str) -> Result<(), PreflightFailure> {
    let sku = skus.iter().find(|s| s.is_vm(&spec.size.name));
    let Some(sku) = sku else {
        return Err(refuse(
            format!("{} is not offered in {loc}", spec.size.name),
            Some(format!(
                "find another size with `aksgpu recommend`, or a region that offers it (`az vm list-skus --size {}`)",
                spec.size.name
            )),
        ));
    };
    let restricted_zones = restrictions(spec, sku, loc)?;
    let offered: Vec<String> = sku.zones_in(loc).into_iter().filter(|z| !restricted_zones.contains(z)).collect();
    let bad: Vec<&String> = spec.zones.iter().filter(|z| !offered.contains(z)).collect();
    if !bad.is_empty() {
        return Err(refuse(
            format!(
                "{} is not available in zone(s) {} of {loc}",
                spec.size.name,
                bad.iter().map(|z| z.as_str()).collect::<Vec<_>>().join(", ")
            ),
            Some(if offered.is_empty() {
                Words::new("drop {0}: the size has no zones available here", &[Setting::Zones])
            } else {
                Words::new(format!("use {{0}} {}", offered.join(",")), &[Setting::Zones])
            }),
        ));
    }
    if spec.spot && sku.capability("LowPriorityCapable").is_some_and(|v| v.eq_ignore_ascii_case("False")) {
        return Err(refuse(
            format!("{} cannot run as spot in {loc}", spec.size.name),
            Some(Words::new("drop {0}", &[Setting::Spot])),
        ));
    }
    Ok(())
}

/// The SKU's restrictions: a location restriction refuses; zone restrictions are returned.
fn restrictions(spec: &PoolSpec, sku: &ResourceSku, loc: &str) -> Result<Vec<String>, PreflightFailure> {
    let mut restricted_zones: Vec<String> = Vec::new();
    for r in &sku.restrictions {
        let reason = r.reason_code.as_deref().unwrap_or("restricted");
        match r.kind.as_deref() {
            Some("Location") => {
                return Err(refuse(
                    format!("{} is not available to this subscription in {loc} ({reason})", spec.size.name),
                    Some("ask Azure support to enable the size for the subscription, or use another region"),
                ))
            }
            Some("Zone") => {
                restricted_zones.extend(r.restriction_info.iter().flat_map(|i| i.zones.iter().cloned()));
            }
            _ => {}
        }
    }
    Ok(restricted_zones)
}

/// One usage counter: free vCPUs, limit, current, display name and id.
type Usage = (u64, i64, i64, String, String);

fn usage(usages: &[ComputeUsage], key: &str) -> Result<Option<Usage>, PreflightFailure> {
    let Some(c) = resources::compute::find_usage(usages, key).map_err(missing)? else { return Ok(None) };
    Ok(Some((u64::try_from((c.limit - c.used).max(0)).unwrap_or(0), c.limit, c.used, c.display, c.name)))
}

/// A field Azure did not send, as a refusal (never a guess).
fn missing(e: resources::MissingField) -> PreflightFailure {
    refuse(e.to_string(), None::<Words>)
}

/// The size's quota family: Azure's SKU list says (`family`), else the catalog.
fn family_of(spec: &PoolSpec, skus: Option<&[ResourceSku]>) -> Option<String> {
    skus.and_then(|skus| {
        skus.iter()
            .find(|s| s.name.as_deref().is_some_and(|n| n.eq_ignore_ascii_case(&spec.size.name)))
            .and_then(|s| s.family.clone())
    })
    .or_else(|| spec.size.quota_family.as_deref().map(str::to_owned))
}

/// The id the set-wide quota check goes by in its refusal (it is Azure's quota, read live,
/// not a catalog rule: `--skip-preflight` lets Azure decide).
pub const QUOTA_TOGETHER: &str = "vcpu-quota-together";

/// vCPU quota of every pool a run creates, together: each pool is charged, in the order
/// given (the order `apply` creates them), on top of the pools before it, against its
/// family's limit and the regional `cores` limit (spot: `lowPriorityCores`), from one read of
/// the usages. Each pool is charged its `count` (what the create allocates) plus surge nodes.
/// Refused with the pools that together overrun the first counter, the numbers, the
/// `aksgpu quota request` that makes room, and how many nodes of the last pool would fit.
pub fn check_together(
    specs: &[&PoolSpec],
    skus: Option<&[ResourceSku]>,
    usages: &[ComputeUsage],
    loc: &str,
) -> Result<(), PreflightFailure> {
    use super::quota::{charge_together, nodes_that_fit, Demand};
    let demands: Vec<Demand> = specs
        .iter()
        .map(|s| Demand {
            pool: s.name.clone(),
            vm_size: s.size.name.to_string(),
            vcpus: s.size.vcpus,
            family: family_of(s, skus),
            nodes: s.count,
            spot: s.spot,
        })
        .collect();
    let verdicts = charge_together(usages, &demands).map_err(missing)?;
    let Some(o) = verdicts.iter().find_map(|(_, o)| o.first()) else { return Ok(()) };
    let u = &o.usage;
    let needed = o.needed();
    let parts: Vec<String> = o.pools.iter().map(|(p, v)| format!("{p} {v}")).collect();
    let (last, last_charge) = o.pools.last().map(|(p, v)| (p.as_str(), *v)).unwrap_or_default();
    let fit = demands
        .iter()
        .find(|d| d.pool == last)
        .map(|d| nodes_that_fit(d.vcpus, u.free().saturating_sub(needed - last_charge)));
    let fewer = match fit {
        Some(0) | None => format!("leave pool {last} out of this apply"),
        Some(n) => format!("give pool {last} at most {n} node(s) (count)"),
    };
    let together = if o.pools.len() > 1 { "together " } else { "" };
    Err(refuse(
        format!(
            "not enough quota for the file's pools {together}({QUOTA_TOGETHER}): {} = {needed} vCPUs of {} in {loc}, \
             which has {} free ({} of {} used); each pool counts its node count plus surge nodes; no pool was created",
            parts.join(" + "),
            if u.display == u.name { u.name.clone() } else { format!("{} ({})", u.display, u.name) },
            u.free(),
            u.used,
            u.limit
        ),
        Some(format!(
            "ask for the limit: `aksgpu quota request --location {loc} --family {} --limit {}`; or {fewer}; \
             or pass --skip-preflight to let Azure decide",
            u.name,
            u.used + needed
        )),
    ))
}

/// vCPU quota: the family's and the regional total (or low-priority cores for spot).
fn check_quota(
    spec: &PoolSpec,
    skus: Option<&[ResourceSku]>,
    usages: &[ComputeUsage],
    loc: &str,
) -> Result<(), PreflightFailure> {
    let family = family_of(spec, skus);
    let need = spec.vcpus_needed();
    let mut checks: Vec<String> = Vec::new();
    if spec.spot {
        checks.push("lowPriorityCores".into());
    } else {
        checks.extend(family);
        checks.push("cores".into());
    }
    for key in checks {
        if let Some((have, limit, current, display, key)) = usage(usages, &key)? {
            if have < need {
                return Err(refuse(
                    format!(
                        "not enough quota: {display} ({key}) in {loc} has {have} vCPUs free ({current} of {limit} used); the pool needs {need} = {} vCPUs × ({} max nodes + {} surge)",
                        spec.size.vcpus,
                        spec.max_nodes(),
                        spec.surge_nodes()
                    ),
                    Some(Words::new(
                        format!(
                            "request at least {} vCPUs for {key} in {loc}: Azure portal → Quotas → Compute (https://aka.ms/ProdportalCRP), or az quota update; or lower {{0}}",
                            u64::try_from(current).unwrap_or(0) + need
                        ),
                        &[Setting::MaxCount],
                    )),
                ));
            }
        }
    }
    Ok(())
}

/// A pool whose size has a node image floor (the catalog's `node_image_floor` rules) and runs
/// an older node image: the warning, naming the rule and its source, with the upgrade step (az
/// and ARM). `None` when the size has no floor or the image is at or above it. A pool whose
/// `nodeImageVersion` Azure did not send, or that is not a version, is said so: never assumed
/// new enough.
pub fn node_image_warning(catalog: &Catalog, p: &AgentPool, (sub, rg, cluster): (&str, &str, &str)) -> Option<String> {
    let size = p.properties.vm_size.as_deref()?;
    let (floor, rule) = catalog.node_image_floor(size)?;
    let name = p.name.as_deref().unwrap_or("?");
    let running = match p.node_image_version() {
        Ok(text) => match crate::catalog::NodeImageVersion::parse(&text) {
            Ok(v) if v >= floor => return None,
            Ok(v) => format!("runs node image {v}"),
            Err(e) => format!("has a node image this tool cannot compare ({e})"),
        },
        Err(e) => e.to_string(),
    };
    let arm = format!(
        "POST {}/upgradeNodeImageVersion?api-version={}",
        super::pool_path(sub, rg, cluster, name),
        crate::domain::api::AKS
    );
    Some(format!(
        "pool {name} ({size}) {running}; {size} pools need node image {floor} or later (rule {}, source {}); upgrade it: `az aks nodepool upgrade -g {rg} --cluster-name {cluster} -n {name} --node-image-only` (ARM: {arm})",
        rule.id, rule.source
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::agent_pool::PoolRequest;
    use serde_json::json;

    /// Words as the CLI says them.
    fn cli(w: &Words) -> String {
        let flag = |s: Setting| format!("--{}", s.long());
        w.render(flag, flag)
    }

    fn spec(f: impl FnOnce(&mut PoolRequest)) -> PoolSpec {
        let mut r = PoolRequest::example("Standard_NC24ads_A100_v4");
        f(&mut r);
        PoolSpec::validate(&Catalog::bundled().expect("catalog"), &r).expect("valid")
    }

    use serde_json::Value;

    fn listed<T: resources::Listed>(items: &[Value]) -> Vec<T> {
        resources::parse_listed(items).expect("items of the documented shape")
    }

    fn cluster(v: Value) -> ManagedCluster {
        resources::parse(&v, "cluster").expect("a cluster of the documented shape")
    }

    fn facts() -> Facts {
        Facts {
            cluster: cluster(
                json!({"location": "eastus", "properties": {"provisioningState": "Succeeded", "currentKubernetesVersion": "1.33.2"}}),
            ),
            pool: None,
            skus: Some(listed(&[json!({
                "resourceType": "virtualMachines", "name": "Standard_NC24ads_A100_v4", "family": "StandardNCADSA100v4Family",
                "locationInfo": [{"location": "eastus", "zones": ["1", "2", "3"]}],
                "restrictions": [{"type": "Zone", "values": ["eastus"], "restrictionInfo": {"zones": ["3"]}, "reasonCode": "NotAvailableForSubscription"}]
            })])),
            usages: Some(listed(&[
                json!({"name": {"value": "standardNCADSA100v4Family", "localizedValue": "Standard NCADS_A100_v4 Family vCPUs"}, "limit": 48, "currentValue": 0}),
                json!({"name": {"value": "cores", "localizedValue": "Total Regional vCPUs"}, "limit": 100, "currentValue": 10}),
                json!({"name": {"value": "lowPriorityCores"}, "limit": 0, "currentValue": 0}),
            ])),
            windows_feature: None,
            feature_registered_first: false,
            reservation: None,
        }
    }

    fn catalog() -> Catalog {
        Catalog::bundled().expect("catalog")
    }

    #[test]
    fn passes_with_quota_and_fails_without() {
        assert_eq!(check(&catalog(), &spec(|_| {}), &facts()), Ok(Verdict::Create));
        let big = spec(|r| {
            r.min_count = Some(1);
            r.max_count = Some(2);
        });
        // 24 × (2 + 1) = 72 > 48.
        let e = check(&catalog(), &big, &facts()).expect_err("quota");
        assert!(
            cli(&e.message).contains("standardNCADSA100v4Family") && cli(&e.message).contains("needs 72"),
            "{}",
            cli(&e.message)
        );
        assert!(cli(&e.hint.expect("hint")).contains("Quotas"));
        let spot = spec(|r| r.spot = true);
        let e = check(&catalog(), &spot, &facts()).expect_err("spot quota");
        assert!(cli(&e.message).contains("lowPriorityCores"), "{}", cli(&e.message));
    }

    /// A cluster without `location` is refused naming the field: the SKU, quota and capacity
    /// reservation checks never run against an empty region.
    #[test]
    fn a_cluster_without_a_location_is_refused_naming_it() {
        let mut f = facts();
        f.cluster = cluster(
            json!({"name": "c1", "properties": {"provisioningState": "Succeeded", "currentKubernetesVersion": "1.33.2"}}),
        );
        let e = check(&catalog(), &spec(|_| {}), &f).expect_err("no location");
        assert!(cli(&e.message).contains("cluster c1 has no location"), "{}", cli(&e.message));
        assert!(size_verdict(&spec(|_| {}), &f).is_err());
        assert!(check_cluster(&catalog(), &spec(|_| {}), &f).is_err());
    }

    /// Two pools that pass alone but not together: the refusal names both, the numbers, the
    /// exact `quota request` and how many nodes of the second would fit.
    #[test]
    fn pools_that_fit_alone_are_refused_together() {
        let f = facts();
        let (usages, skus) = (f.usages.clone().expect("usages"), f.skus.clone().expect("skus"));
        let a = spec(|r| r.name = "gpua".into());
        let b = spec(|r| r.name = "gpub".into());
        assert_eq!(check(&catalog(), &a, &f), Ok(Verdict::Create));
        assert_eq!(check(&catalog(), &b, &f), Ok(Verdict::Create));
        assert_eq!(check_together(&[&a], Some(&skus), &usages, "eastus"), Ok(()));
        let c = spec(|r| {
            r.name = "gpuc".into();
            r.spot = true;
        });
        let e = check_together(&[&a, &b, &c], Some(&skus), &usages, "eastus").expect_err("together");
        assert_eq!(
            cli(&e.message),
            "not enough quota for the file's pools together (vcpu-quota-together): gpua 48 + gpub 48 = 96 vCPUs of \
             Standard NCADS_A100_v4 Family vCPUs (standardNCADSA100v4Family) in eastus, which has 48 free (0 of 48 \
             used); each pool counts its node count plus surge nodes; no pool was created"
        );
        let hint = cli(&e.hint.expect("hint"));
        assert!(
            hint.contains("`aksgpu quota request --location eastus --family standardNCADSA100v4Family --limit 96`"),
            "{hint}"
        );
        assert!(hint.contains("leave pool gpub out of this apply") && hint.contains("--skip-preflight"), "{hint}");
    }

    #[test]
    fn zones_sizes_and_cluster_state() {
        let z = spec(|r| r.zones = vec!["3".into()]);
        let e = check(&catalog(), &z, &facts()).expect_err("zone 3 restricted");
        assert!(cli(&e.hint.expect("hint")).contains("--zones 1,2"));
        let mut f = facts();
        f.skus = Some(vec![]);
        assert!(check(&catalog(), &spec(|_| {}), &f)
            .expect_err("absent")
            .message
            .text
            .contains("not offered in eastus"));
        let mut f = facts();
        f.cluster.properties.provisioning_state = Some("Updating".into());
        assert!(check(&catalog(), &spec(|_| {}), &f).expect_err("busy").message.text.contains("Updating"));
        let mut f = facts();
        f.cluster.properties.power_state = Some(resources::PowerState { code: Some("Stopped".into()) });
        assert!(check(&catalog(), &spec(|_| {}), &f).expect_err("stopped").message.text.contains("stopped"));
    }

    #[test]
    fn existing_pool_identical_or_refused() {
        let s = spec(|_| {});
        let mut f = facts();
        let mut existing = s.body();
        existing["properties"]["provisioningState"] = json!("Succeeded");
        f.pool = Some(AsRead::parse(existing.clone(), "agent pool").expect("pool"));
        assert_eq!(check(&catalog(), &s, &f), Ok(Verdict::Identical));
        existing["properties"]["gpuInstanceProfile"] = json!("MIG1g");
        f.pool = Some(AsRead::parse(existing, "agent pool").expect("pool"));
        let e = check(&catalog(), &s, &f).expect_err("different");
        assert!(
            cli(&e.message).contains("gpuInstanceProfile") && cli(&e.message).contains("(immutable)"),
            "{}",
            cli(&e.message)
        );
        let hint = cli(&e.hint.expect("hint"));
        assert!(hint.contains("cannot change") && hint.contains("no-gpu-on-existing-pool"), "{hint}");
    }

    #[test]
    fn windows_needs_version_and_feature() {
        let w = spec(|r| {
            r.vm_size = "Standard_NC4as_T4_v3".into();
            r.os = Some(Os::Windows);
            r.name = "gpuw".into();
        });
        let mut f = facts();
        f.skus = None;
        f.usages = None;
        f.cluster.properties.current_kubernetes_version = Some("1.28.9".into());
        assert!(check(&catalog(), &w, &f).expect_err("old").message.text.contains("1.29"));
        f.cluster.properties.current_kubernetes_version = Some("1.30.1".into());
        f.windows_feature = Some("NotRegistered".into());
        let e = check(&catalog(), &w, &f).expect_err("feature");
        assert!(cli(&e.hint.expect("hint")).contains("register-feature WindowsGPUPreview"));
        // Registered by this run before the pool: the state read before is no refusal, but
        // the Kubernetes minimum still is.
        f.feature_registered_first = true;
        assert_eq!(check(&catalog(), &w, &f), Ok(Verdict::Create));
        f.cluster.properties.current_kubernetes_version = Some("1.28.9".into());
        assert!(check(&catalog(), &w, &f).expect_err("old").message.text.contains("1.29"));
        f.cluster.properties.current_kubernetes_version = Some("1.30.1".into());
        f.feature_registered_first = false;
        f.windows_feature = Some("Registered".into());
        assert_eq!(check(&catalog(), &w, &f), Ok(Verdict::Create));
    }

    /// The Windows minimum version and preview feature are the catalog's rule
    /// (windows-gpu-min-kubernetes): the refusal says how to override it, and with the
    /// override the preflight lets it through (the spec already carries the warning).
    #[test]
    fn windows_rule_is_overridable() {
        let win = |overrides: Vec<String>| {
            spec(move |r| {
                r.vm_size = "Standard_NC4as_T4_v3".into();
                r.os = Some(Os::Windows);
                r.name = "gpuw".into();
                r.overrides = overrides;
            })
        };
        let mut f = facts();
        f.skus = None;
        f.usages = None;
        f.cluster.properties.current_kubernetes_version = Some("1.28.9".into());
        f.windows_feature = Some("NotRegistered".into());
        let e = check(&catalog(), &win(vec![]), &f).expect_err("old");
        assert!(cli(&e.hint.expect("hint")).contains("--override windows-gpu-min-kubernetes"));
        let w = win(vec!["windows-gpu-min-kubernetes".into()]);
        assert!(w.warnings.iter().any(|x| x.text.contains("windows-gpu-min-kubernetes")), "{:?}", w.warnings);
        assert_eq!(check(&catalog(), &w, &f), Ok(Verdict::Create));
    }
}
