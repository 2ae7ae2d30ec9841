//! GPU agent pools: validation against the catalog's AKS rules, the exact AgentPool request
//! body, comparison with an existing pool, and the quota a pool needs. Pure.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::catalog::AKS_OS_SKUS as OS_SKUS;
use crate::catalog::{Catalog, ConflictFact, Driver, KubeVersion, RuleKind, Status, Vendor, VmSize};
use crate::domain::did_you_mean;
use crate::domain::{EvictionPolicy, GpuDriver, Os, OsDiskType};

/// The taint AKS puts on spot nodes by itself.
pub const SPOT_TAINT: &str = "kubernetes.azure.com/scalesetpriority=spot:NoSchedule";
/// The default taint for GPU pools.
pub const DEFAULT_TAINT: &str = "sku=gpu:NoSchedule";

/// What the user asked for (flags, not yet validated).
#[derive(Debug, Clone, Default)]
pub struct PoolRequest {
    pub subscription: String,
    pub resource_group: String,
    pub cluster: String,
    pub name: String,
    pub vm_size: String,
    pub count: Option<u32>,
    pub min_count: Option<u32>,
    pub max_count: Option<u32>,
    pub os: Option<Os>,
    pub os_sku: Option<String>,
    pub kubernetes_version: Option<KubeVersion>,
    /// `None` = the default taint; `Some(empty)` = no taints.
    pub taints: Option<Vec<String>>,
    pub labels: Vec<String>,
    pub mig_profile: Option<String>,
    pub gpu_driver: Option<GpuDriver>,
    /// An AKS-managed GPU pool (`gpuProfile.nvidia.managementMode: Managed`).
    pub managed_gpu: bool,
    /// Managed MIG strategy (`gpuProfile.nvidia.migStrategy`): `Single` or `Mixed`.
    pub mig_strategy: Option<String>,
    /// Managed MIG partitions per GPU (`gpuProfile.nvidia.migProfiles`), e.g. `MIG3g`, `MIG3g`.
    pub mig_profiles: Vec<String>,
    pub spot: bool,
    pub spot_max_price: Option<f64>,
    pub eviction_policy: Option<EvictionPolicy>,
    pub zones: Vec<String>,
    pub max_pods: Option<u32>,
    pub os_disk_type: Option<OsDiskType>,
    pub tags: Vec<String>,
    /// Capacity reservation group resource id (`capacityReservationGroupID`).
    pub capacity_reservation_group: Option<String>,
    /// Catalog rules (`rules.yaml` ids, or the ids `Overridable` names) whose refusal becomes
    /// a warning: the catalog is a dated snapshot and Azure may have moved on.
    pub overrides: Vec<String>,
}

impl PoolRequest {
    /// An example request: pool `gpu` of size `vm_size` in cluster `c1`, resource group `rg`,
    /// subscription `00000000-0000-0000-0000-000000000000`, every other field unset. For tests
    /// and examples; change fields with struct update syntax:
    ///
    /// ```
    /// use aksgpu::plan::agent_pool::PoolRequest;
    /// let r = PoolRequest { spot: true, ..PoolRequest::example("Standard_NC24ads_A100_v4") };
    /// assert_eq!((r.cluster.as_str(), r.name.as_str()), ("c1", "gpu"));
    /// ```
    #[doc(hidden)]
    pub fn example(vm_size: &str) -> PoolRequest {
        PoolRequest {
            subscription: "00000000-0000-0000-0000-000000000000".into(),
            resource_group: "rg".into(),
            cluster: "c1".into(),
            name: "gpu".into(),
            vm_size: vm_size.into(),
            ..PoolRequest::default()
        }
    }
}

/// Surge nodes for a pool of `max_nodes`: AKS's default max surge of 10 %, at least one
/// (<https://learn.microsoft.com/azure/aks/upgrade-aks-cluster#customize-node-surge-upgrade>).
pub fn surge_for(max_nodes: u32) -> u32 {
    max_nodes.div_ceil(10).max(1)
}

/// A validated pool.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolSpec {
    pub subscription: String,
    pub resource_group: String,
    pub cluster: String,
    pub name: String,
    pub size: VmSize,
    pub count: u32,
    /// (min, max) when the autoscaler is on.
    pub autoscale: Option<(u32, u32)>,
    pub os: Os,
    pub os_sku: Option<String>,
    pub kubernetes_version: Option<KubeVersion>,
    pub taints: Vec<String>,
    pub labels: BTreeMap<String, String>,
    pub mig_profile: Option<String>,
    /// `Install` or `None`; `None` (the Option) leaves AKS's default (Install).
    pub gpu_driver: Option<&'static str>,
    /// `gpuProfile.nvidia` when the pool is sent with an api-version that has it.
    pub nvidia: Option<NvidiaSpec>,
    pub spot: bool,
    pub spot_max_price: Option<f64>,
    pub eviction_policy: Option<&'static str>,
    pub zones: Vec<String>,
    pub max_pods: Option<u32>,
    pub os_disk_type: Option<&'static str>,
    pub tags: BTreeMap<String, String>,
    /// Capacity reservation group resource id the nodes draw on.
    pub capacity_reservation_group: Option<String>,
    /// Notes for the user (defaults applied).
    pub notes: Vec<String>,
    /// Catalog refusals turned into warnings by `overrides`: rule, source and risk.
    pub warnings: Vec<String>,
    /// The rule ids the request overrides (the preflight honours them too).
    pub overrides: Vec<String>,
}

/// `gpuProfile.nvidia` of a pool: sent (with the api-version whose spec defines each field)
/// for an AKS-managed GPU pool and for managed MIG.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NvidiaSpec {
    /// `managementMode`, always sent: AKS's docs give two defaults when it is left out.
    pub managed: bool,
    /// `migStrategy`: `Single` or `Mixed`.
    pub mig_strategy: Option<&'static str>,
    /// `migProfiles`, in order, repeats allowed.
    pub mig_profiles: Vec<String>,
}

/// A validation failure: which field of the pool, what is wrong, and the fix. Each front end
/// names the field its own way: `Field::flag` for the CLI, `Field::config_key` for a GpuConfig.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}: {message}", field.flag())]
pub struct SpecError {
    pub field: Field,
    pub message: String,
    pub hint: Option<String>,
}

/// A setting of a pool request, whatever front end gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Name,
    ResourceGroup,
    Cluster,
    VmSize,
    Count,
    MinCount,
    MaxCount,
    Os,
    OsSku,
    GpuDriver,
    KubernetesVersion,
    Labels,
    NodeTaints,
    Tags,
    MaxPods,
    MigProfile,
    SpotMaxPrice,
    EvictionPolicy,
    Zones,
    CapacityReservationGroup,
    Override,
    ManagedGpu,
    MigStrategy,
    MigProfiles,
}

impl Field {
    /// Every field.
    pub const ALL: [Field; 24] = [
        Field::ManagedGpu,
        Field::MigStrategy,
        Field::MigProfiles,
        Field::Name,
        Field::ResourceGroup,
        Field::Cluster,
        Field::VmSize,
        Field::Count,
        Field::MinCount,
        Field::MaxCount,
        Field::Os,
        Field::OsSku,
        Field::GpuDriver,
        Field::KubernetesVersion,
        Field::Labels,
        Field::NodeTaints,
        Field::Tags,
        Field::MaxPods,
        Field::MigProfile,
        Field::SpotMaxPrice,
        Field::EvictionPolicy,
        Field::Zones,
        Field::CapacityReservationGroup,
        Field::Override,
    ];

    /// The CLI flag (`create-pool --vm-size`).
    pub fn flag(self) -> &'static str {
        match self {
            Field::Name => "--name",
            Field::ResourceGroup => "--resource-group",
            Field::Cluster => "--cluster",
            Field::VmSize => "--vm-size",
            Field::Count => "--count",
            Field::MinCount => "--min-count",
            Field::MaxCount => "--max-count",
            Field::Os => "--os",
            Field::OsSku => "--os-sku",
            Field::GpuDriver => "--gpu-driver",
            Field::KubernetesVersion => "--kubernetes-version",
            Field::Labels => "--labels",
            Field::NodeTaints => "--node-taints",
            Field::Tags => "--tags",
            Field::MaxPods => "--max-pods",
            Field::MigProfile => "--mig-profile",
            Field::SpotMaxPrice => "--spot-max-price",
            Field::EvictionPolicy => "--eviction-policy",
            Field::Zones => "--zones",
            Field::CapacityReservationGroup => "--capacity-reservation-group",
            Field::Override => "--override",
            Field::ManagedGpu => "--managed-gpu",
            Field::MigStrategy => "--gpu-mig-strategy",
            Field::MigProfiles => "--mig-profiles",
        }
    }

    /// The key in a GpuConfig file: relative to the pool (`vmSize`), or from the top of the
    /// file for what is not a pool's (`cluster.name`, `overrides`).
    pub fn config_key(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::ResourceGroup => "cluster.resourceGroup",
            Field::Cluster => "cluster.name",
            Field::VmSize => "vmSize",
            Field::Count => "count",
            Field::MinCount => "minCount",
            Field::MaxCount => "maxCount",
            Field::Os => "os",
            Field::OsSku => "osSku",
            Field::GpuDriver => "gpuDriver",
            Field::KubernetesVersion => "kubernetesVersion",
            Field::Labels => "labels",
            Field::NodeTaints => "taints",
            Field::Tags => "tags",
            Field::MaxPods => "maxPods",
            Field::MigProfile => "migProfile",
            Field::SpotMaxPrice => "spotMaxPrice",
            Field::EvictionPolicy => "evictionPolicy",
            Field::Zones => "zones",
            Field::CapacityReservationGroup => "capacityReservationGroup",
            Field::Override => "overrides",
            Field::ManagedGpu => "managedGpu",
            Field::MigStrategy => "migStrategy",
            Field::MigProfiles => "migProfiles",
        }
    }

    /// True for a key from the top of a GpuConfig file, not under the pool.
    pub fn is_file_level(self) -> bool {
        matches!(self, Field::ResourceGroup | Field::Cluster | Field::Override)
    }
}

fn err(field: Field, message: impl Into<String>, hint: impl Into<Option<String>>) -> SpecError {
    SpecError { field, message: message.into(), hint: hint.into() }
}

/// Rule id for a size the catalog marks unsupported (`aks.supported: false`) with no rule of
/// its own in `rules.yaml`.
pub const RULE_SIZE_UNSUPPORTED: &str = "catalog-size-unsupported";
/// Rule id for an OS or OS SKU the catalog's `aks.os_skus` for the size does not list.
pub const RULE_SIZE_OS_SKUS: &str = "catalog-size-os-skus";
/// Rule id for a size the catalog marks retired (`status: retired`): a dated fact that
/// Microsoft may move (extended retirements, regions that keep the size longer).
pub const RULE_SIZE_RETIRED: &str = "catalog-size-retired";
/// Rule id for a MIG profile the catalog's `gpus.yaml` does not list for the size's GPU.
pub const RULE_MIG_PROFILES: &str = "catalog-mig-profiles";
/// Rule id for a region the catalog's `regions.yaml` does not list: Azure adds regions
/// faster than the catalog is refreshed.
pub const RULE_REGION: &str = "catalog-region";
/// The AKS API's `GPUInstanceProfile` values (managedClusters.json, 2026-10-01): what
/// `gpuInstanceProfile` may hold whatever the catalog says. Not overridable.
const API_MIG_PROFILES: [&str; 5] = ["MIG1g", "MIG2g", "MIG3g", "MIG4g", "MIG7g"];

/// What overriding a catalog rule risks, said with the warning.
pub const OVERRIDE_RISK: &str = "Azure may refuse the request, or create nodes whose GPUs do not work";

/// A refusal that rests on catalog rule `id` (not on Azure's answer): with `--override id` it
/// becomes a warning naming the rule, its source and the risk; otherwise the refusal says how
/// to override it.
fn catalog_refusal(
    r: &PoolRequest,
    warnings: &mut Vec<String>,
    (id, source): (&str, &str),
    e: SpecError,
) -> Result<(), SpecError> {
    if r.overrides.iter().any(|o| o == id) {
        warnings.push(format!(
            "overriding catalog rule {id} ({}: {}; source: {source}); risk: {OVERRIDE_RISK}",
            e.field.flag(),
            e.message
        ));
        return Ok(());
    }
    let also = override_hint(id, source);
    Err(SpecError { hint: Some(e.hint.map_or_else(|| also.clone(), |h| format!("{h}; {also}"))), ..e })
}

/// Every id `--override` accepts: the rules in `rules.yaml` and the catalog-fact ids.
pub fn override_ids(catalog: &Catalog) -> Vec<String> {
    // `fleet_check` rules report on pools as read; they refuse nothing, so nothing overrides them.
    let mut ids: Vec<String> = catalog
        .rules
        .iter()
        .filter(|r| !matches!(r.kind, crate::catalog::RuleKind::FleetCheck { .. }))
        .map(|r| r.id.clone())
        .collect();
    for id in [RULE_SIZE_UNSUPPORTED, RULE_SIZE_OS_SKUS, RULE_SIZE_RETIRED, RULE_MIG_PROFILES, RULE_REGION] {
        ids.push(id.to_owned());
    }
    ids
}

/// The hint a refusal resting on catalog rule `id` carries: how to override it.
pub fn override_hint(id: &str, source: &str) -> String {
    format!("this rests on the catalog (rule {id}, source {source}); `--override {id}` proceeds anyway")
}

/// `--override` ids must name a rule: a typo would otherwise override nothing, silently.
fn check_overrides(catalog: &Catalog, r: &PoolRequest) -> Result<(), SpecError> {
    check_override_ids(catalog, &r.overrides)
}

/// Every `--override` id must be one `override_ids` lists; the error lists them.
pub fn check_override_ids(catalog: &Catalog, overrides: &[String]) -> Result<(), SpecError> {
    if overrides.is_empty() {
        return Ok(());
    }
    let ids = override_ids(catalog);
    match overrides.iter().find(|o| !ids.contains(o)) {
        None => Ok(()),
        Some(bad) => Err(err(
            Field::Override,
            format!("{bad:?} is not a catalog rule id"),
            Some(format!("rule ids: {}", ids.join(", "))),
        )),
    }
}

/// True for a valid Kubernetes label/taint key (optional DNS prefix + name).
fn valid_key(key: &str) -> bool {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    let name_ok = !name.is_empty()
        && name.len() <= 63
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && name.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && name.chars().last().is_some_and(|c| c.is_ascii_alphanumeric());
    let prefix_ok = prefix.is_none_or(|p| {
        !p.is_empty()
            && p.len() <= 253
            && p.split('.').all(|l| {
                !l.is_empty()
                    && l.len() <= 63
                    && l.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                    && !l.starts_with('-')
                    && !l.ends_with('-')
            })
    });
    name_ok && prefix_ok
}

fn valid_value(v: &str) -> bool {
    v.is_empty()
        || (v.len() <= 63
            && v.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            && v.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
            && v.chars().last().is_some_and(|c| c.is_ascii_alphanumeric()))
}

/// Parse `key=value:Effect` (value optional: `key:Effect`).
pub fn parse_taint(t: &str) -> Result<String, SpecError> {
    let t = t.trim();
    let bad = |why: &str| {
        err(
            Field::NodeTaints,
            format!("{t:?} is not a taint: {why}"),
            Some("write key=value:Effect with Effect NoSchedule, PreferNoSchedule or NoExecute".into()),
        )
    };
    let (kv, effect) = t.rsplit_once(':').ok_or_else(|| bad("missing :Effect"))?;
    if !matches!(effect, "NoSchedule" | "PreferNoSchedule" | "NoExecute") {
        return Err(bad(&format!("unknown effect {effect:?}")));
    }
    let (key, value) = kv.split_once('=').unwrap_or((kv, ""));
    if !valid_key(key) {
        return Err(bad(&format!("invalid key {key:?}")));
    }
    if !valid_value(value) {
        return Err(bad(&format!("invalid value {value:?}")));
    }
    Ok(t.to_owned())
}

fn parse_pairs(
    flag: Field,
    items: &[String],
    check: impl Fn(&str, &str) -> bool,
) -> Result<BTreeMap<String, String>, SpecError> {
    let mut out = BTreeMap::new();
    for item in items.iter().flat_map(|s| s.split(',')).map(str::trim).filter(|s| !s.is_empty()) {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| err(flag, format!("{item:?} is not key=value"), Some("write key=value".to_owned())))?;
        if !check(k, v) {
            return Err(err(flag, format!("{item:?} has an invalid key or value"), None));
        }
        out.insert(k.to_owned(), v.to_owned());
    }
    Ok(out)
}

/// Pool names: 1–12 lowercase letters and digits, starting with a letter (AKS).
pub fn check_pool_name(name: &str) -> Result<(), SpecError> {
    let ok = !name.is_empty()
        && name.len() <= 12
        && name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if ok {
        Ok(())
    } else {
        Err(err(
            Field::Name,
            format!("pool name {name:?} is invalid"),
            Some("use 1–12 lowercase letters and digits, starting with a letter (e.g. gpu1)".into()),
        ))
    }
}

/// Resource group names (ARM): 1–90 of letters, digits, `-_.()`, not ending in `.`.
pub fn check_resource_group(rg: &str) -> Result<(), SpecError> {
    let ok = !rg.is_empty()
        && rg.len() <= 90
        && !rg.ends_with('.')
        && rg.chars().all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '(' | ')'));
    if ok {
        Ok(())
    } else {
        Err(err(Field::ResourceGroup, format!("{rg:?} is not a resource group name"), None))
    }
}

/// AKS cluster names: 1–63 letters, digits, `-` and `_`, starting and ending alphanumeric.
pub fn check_cluster(c: &str) -> Result<(), SpecError> {
    let ok = !c.is_empty()
        && c.len() <= 63
        && c.chars().all(|x| x.is_ascii_alphanumeric() || x == '-' || x == '_')
        && c.chars().next().is_some_and(|x| x.is_ascii_alphanumeric())
        && c.chars().last().is_some_and(|x| x.is_ascii_alphanumeric());
    if ok {
        Ok(())
    } else {
        Err(err(Field::Cluster, format!("{c:?} is not an AKS cluster name"), None))
    }
}

/// `--os` and `--os-sku` against AKS's OS SKU list, the GPU rules, and what AKS provisions for
/// this size (`aks.os_skus`, from AKS's node-provisioning code). Returns the OS and the canonical
/// OS SKU; notes when the chosen OS SKU is one the AKS docs and code disagree about.
fn check_os(
    catalog: &Catalog,
    size: &VmSize,
    r: &PoolRequest,
    (notes, warnings): (&mut Vec<String>, &mut Vec<String>),
) -> Result<(Os, Option<String>), SpecError> {
    let os = r.os.unwrap_or_else(|| {
        if r.os_sku.as_deref().is_some_and(|s| s.starts_with("Windows")) {
            Os::Windows
        } else {
            Os::Linux
        }
    });
    // A size the catalog marks unsupported lists no OS SKUs: with nothing listed there is
    // nothing to hold the OS to (the size itself was refused, or overridden).
    let os_allowed = size.aks_os_skus.is_empty()
        || match os {
            Os::Windows => size.aks_os_skus.iter().any(|o| o.starts_with("Windows")),
            Os::Linux => size.aks_os_skus.iter().any(|o| !o.starts_with("Windows")),
        };
    let sizes_source = size.aks_source.as_deref().unwrap_or("catalog/sizes");
    if !os_allowed {
        catalog_refusal(
            r,
            warnings,
            (RULE_SIZE_OS_SKUS, sizes_source),
            err(
                Field::Os,
                format!("AKS allows only {} on {}", size.aks_os_skus.join(", "), size.name),
                Some("choose another --os or size".into()),
            ),
        )?;
    }
    let Some(s) = &r.os_sku else { return Ok((os, None)) };
    let canon = OS_SKUS.iter().find(|k| k.eq_ignore_ascii_case(s)).copied().ok_or_else(|| {
        err(Field::OsSku, format!("{s:?} is not an AKS OS SKU"), Some(format!("use one of {}", OS_SKUS.join(", "))))
    })?;
    if canon.starts_with("Windows") != (os == Os::Windows) {
        return Err(err(Field::OsSku, format!("{canon} does not match --os {}", os_name(os)), None));
    }
    for rule in &catalog.rules {
        if let RuleKind::UnsupportedOsSkus { os_skus, reason } = &rule.kind {
            if os_skus.iter().any(|o| o.eq_ignore_ascii_case(canon)) {
                let e = err(Field::OsSku, format!("{canon}: {reason}"), Some(rule.source.clone()));
                catalog_refusal(r, warnings, (&rule.id, &rule.source), e)?;
            }
        }
    }
    if !size.aks_os_skus.is_empty() && !os_sku_provisioned(&size.aks_os_skus, canon) {
        let same_os: Vec<&str> = size
            .aks_os_skus
            .iter()
            .map(String::as_str)
            .filter(|o| o.starts_with("Windows") == (os == Os::Windows))
            .collect();
        let e = err(
            Field::OsSku,
            format!("AKS does not provision {} GPU nodes with {canon}; it allows {}", size.name, same_os.join(", ")),
            Some(format!("use --os-sku {} (source: {sizes_source})", same_os.join(" or "))),
        );
        catalog_refusal(r, warnings, (RULE_SIZE_OS_SKUS, sizes_source), e)?;
    }
    for rule in catalog.rules_for(size) {
        if let Some((ConflictFact::OsSkus, win, lose)) = rule.kind.conflict() {
            if win.iter().any(|o| o == canon) != lose.iter().any(|o| o == canon) {
                notes.push(format!("{canon} on {}: {} [rule {}]", size.name, rule.summary, rule.id));
            }
        }
    }
    Ok((os, Some(canon.to_owned())))
}

/// True if AKS provisions `sku` where the catalog lists `allowed`. A listed `Ubuntu` covers the
/// versioned Ubuntu SKUs (Ubuntu2204, Ubuntu2404, Ubuntu2604: AKS's "ubuntu" image family) and a
/// listed `AzureLinux` covers its deprecated name `CBLMariner`. `AzureLinux3` is only allowed when
/// listed: AKS's GPU SKU table tells Azure Linux 2 (`azurelinux`) and 3 (`azurelinux3`) apart.
fn os_sku_provisioned(allowed: &[String], sku: &str) -> bool {
    let family = match sku {
        "Ubuntu2204" | "Ubuntu2404" | "Ubuntu2604" => "Ubuntu",
        "CBLMariner" => "AzureLinux",
        other => other,
    };
    allowed.iter().any(|o| o == sku || o == family)
}

/// The size: known, not retired, and AKS-supported for GPU pools.
fn check_size<'a>(catalog: &'a Catalog, r: &PoolRequest, warnings: &mut Vec<String>) -> Result<&'a VmSize, SpecError> {
    let Some(size) = catalog.size(&r.vm_size) else {
        let near = catalog.suggest_sizes(&r.vm_size);
        return Err(err(
            Field::VmSize,
            format!("{:?} is not a GPU size in the catalog", r.vm_size),
            did_you_mean(&near).or_else(|| Some("list sizes with `aksgpu catalog list`".into())),
        ));
    };
    let retired = size.status == Status::Retired;
    if retired {
        let e = err(
            Field::VmSize,
            format!(
                "{} is retired{}",
                size.name,
                size.retirement_date.as_ref().map(|d| format!(" (since {d})")).unwrap_or_default()
            ),
            Some("pick a current size: `aksgpu recommend` or `aksgpu catalog list`".into()),
        );
        let source = size.retirement_source.as_deref().unwrap_or(&size.source);
        catalog_refusal(r, warnings, (RULE_SIZE_RETIRED, source), e)?;
    }
    let rule = catalog.unsupported_reason(&size.series).or_else(|| {
        catalog.rules_for(size).into_iter().find(|x| matches!(x.kind.conflict(), Some((ConflictFact::Supported, ..))))
    });
    // A retired size is marked unsupported because it is retired (rule
    // retired-sizes-in-aks-code says the same): that refusal was the one above. A series rule
    // of its own (NVv4) still refuses.
    if !size.aks_supported && (!retired || catalog.unsupported_reason(&size.series).is_some()) {
        let why = rule
            .map(|r| r.summary.clone())
            .or_else(|| size.aks_note.as_deref().map(str::to_owned))
            .unwrap_or_else(|| "AKS does not support it for GPU node pools".into());
        let (id, source) = match rule {
            Some(x) => (x.id.as_str(), x.source.as_str()),
            None => (RULE_SIZE_UNSUPPORTED, size.aks_source.as_deref().unwrap_or("catalog/sizes")),
        };
        // Since 2025-10-12 AKS accepts any GPU size with gpuProfile.driver None: a warning, not
        // a refusal, when the driver is the user's (and the flag that allows it named otherwise).
        let byo = catalog.driver_none_any_size().filter(|_| !retired);
        match byo {
            Some(any) if r.gpu_driver == Some(GpuDriver::None) => warnings.push(format!(
                "{}: AKS does not support this size ({why}); you install and own the driver (rule {}, source {}; catalog rule {id}, source {source})",
                size.name, any.id, any.source
            )),
            _ => {
                let through = byo.map(|any| {
                    format!("or --gpu-driver none to bring your own driver (rule {}, source {})", any.id, any.source)
                });
                let hint = match through {
                    Some(t) => format!("pick another size: `aksgpu recommend`, {t}"),
                    None => "pick another size: `aksgpu recommend`".to_owned(),
                };
                let e = err(Field::VmSize, format!("{}: {why}", size.name), Some(hint));
                catalog_refusal(r, warnings, (id, source), e)?;
            }
        }
    }
    Ok(size)
}

/// Windows pool rules (name length, Kubernetes version); returns the parsed version.
fn check_windows(
    catalog: &Catalog,
    r: &PoolRequest,
    os: Os,
    warnings: &mut Vec<String>,
) -> Result<Option<KubeVersion>, SpecError> {
    let kubernetes_version = r.kubernetes_version;
    if os == Os::Windows {
        for rule in &catalog.rules {
            if let RuleKind::WindowsPoolNameMax { max_length } = rule.kind {
                if r.name.len() > max_length {
                    let e = err(
                        Field::Name,
                        format!(
                            "Windows pool names are limited to {max_length} characters; {:?} has {}",
                            r.name,
                            r.name.len()
                        ),
                        Some(format!("use a shorter name such as {:?}", &r.name[..max_length.min(r.name.len())])),
                    );
                    catalog_refusal(r, warnings, (&rule.id, &rule.source), e)?;
                }
            }
        }
        if let (Some(v), Some((min, feature, ns))) = (kubernetes_version, catalog.windows_min_kubernetes()) {
            if v.minor_lt(&min) {
                let e = err(
                    Field::KubernetesVersion,
                    format!("Windows GPU node pools need Kubernetes {min} or later, not {v}"),
                    Some(format!("use {min} or later; the {feature} feature ({ns}) must also be registered")),
                );
                let rule = catalog.rules.iter().find(|x| matches!(x.kind, RuleKind::WindowsMinKubernetes { .. }));
                let (id, source) = rule.map_or(("windows-gpu-min-kubernetes", "catalog/rules.yaml"), |x| {
                    (x.id.as_str(), x.source.as_str())
                });
                catalog_refusal(r, warnings, (id, source), e)?;
            }
        }
        if let Some(w) = windows_override_warning(catalog, r, warnings) {
            warnings.push(w);
        }
    }
    Ok(kubernetes_version)
}

/// With `--override windows-gpu-min-kubernetes` on a Windows pool: the preflight will not hold
/// the cluster's version or the preview feature's registration to the rule either; say so.
fn windows_override_warning(catalog: &Catalog, r: &PoolRequest, warnings: &[String]) -> Option<String> {
    let rule = catalog.rules.iter().find(|x| matches!(x.kind, RuleKind::WindowsMinKubernetes { .. }))?;
    let (_, feature, _) = catalog.windows_min_kubernetes()?;
    let said = warnings.iter().any(|w| w.contains(&format!("catalog rule {} ", rule.id)));
    (r.overrides.contains(&rule.id) && !said).then(|| {
        format!(
            "overriding catalog rule {} (the cluster's Kubernetes version and the {feature} registration are not checked; source: {}); risk: {OVERRIDE_RISK}",
            rule.id, rule.source
        )
    })
}

/// Node count and autoscaler range: (count, Some((min, max)) when autoscaling).
fn check_counts(r: &PoolRequest) -> Result<(u32, Option<(u32, u32)>), SpecError> {
    let autoscale = match (r.min_count, r.max_count) {
        (Some(a), Some(b)) => {
            if a > b {
                return Err(err(Field::MinCount, format!("--min-count {a} is larger than --max-count {b}"), None));
            }
            if b == 0 {
                return Err(err(Field::MaxCount, "--max-count must be at least 1", None));
            }
            if b > 1000 {
                return Err(err(Field::MaxCount, "--max-count must be at most 1000", None));
            }
            Some((a, b))
        }
        (None, None) => None,
        _ => {
            return Err(err(
                Field::MinCount,
                "--min-count and --max-count enable the autoscaler together",
                Some("pass both, or --count alone".into()),
            ))
        }
    };
    let count = match (r.count, autoscale) {
        (Some(c), Some((a, b))) if c < a || c > b => {
            return Err(err(Field::Count, format!("--count {c} is outside --min-count {a} … --max-count {b}"), None))
        }
        (Some(c), _) => c,
        (None, Some((a, _))) => a,
        (None, None) => 1,
    };
    if count > 1000 {
        return Err(err(Field::Count, "--count must be at most 1000", None));
    }
    Ok((count, autoscale))
}

/// The GPU driver option: AMD and driver-none sizes need `None`, and a series rule may demand
/// particular OS SKUs.
fn check_gpu_driver(
    catalog: &Catalog,
    size: &VmSize,
    r: &PoolRequest,
    (os, os_sku): (Os, Option<&str>),
    (notes, notes_w): (&mut Vec<String>, &mut Vec<String>),
) -> Result<Option<&'static str>, SpecError> {
    let amd_rule = catalog.rules.iter().find_map(|rule| match &rule.kind {
        RuleKind::SeriesOsDriver { series, os_skus, driver } if series.iter().any(|s| **s == *size.series) => {
            Some((os_skus.clone(), driver.clone(), rule))
        }
        _ => None,
    });
    let mut gpu_driver = r.gpu_driver.map(GpuDriver::arm);
    if size.gpu_vendor == Vendor::Amd || size.driver == Driver::None {
        if gpu_driver == Some("Install") {
            let e = err(
                Field::GpuDriver,
                format!("{} ({}) needs --gpu-driver none: AKS installs no driver for it", size.name, size.gpu_model),
                amd_rule.as_ref().map(|(_, _, rule)| format!("{} [{}]", rule.summary, rule.source)),
            );
            match &amd_rule {
                Some((_, _, rule)) => catalog_refusal(r, notes_w, (&rule.id, &rule.source), e)?,
                None => return Err(e),
            }
        }
        if gpu_driver.is_none() {
            notes.push("gpu driver: none (AKS installs no driver for this size)".into());
            gpu_driver = Some("None");
        }
    }
    if let Some((skus, _, rule)) = &amd_rule {
        let chosen = os_sku.unwrap_or(if os == Os::Windows { "Windows2022" } else { "Ubuntu" });
        if !skus.iter().any(|s| s.eq_ignore_ascii_case(chosen)) {
            let e = err(Field::OsSku, format!("{}: {}", size.name, rule.summary), Some(rule.source.clone()));
            catalog_refusal(r, notes_w, (&rule.id, &rule.source), e)?;
        }
    }
    Ok(gpu_driver)
}

/// A managed-GPU refusal: the rule for `limit` (its id and source), overridable.
fn managed_refusal(
    catalog: &Catalog,
    r: &PoolRequest,
    warnings: &mut Vec<String>,
    limit: crate::catalog::ManagedGpuLimit,
    (field, message, hint): (Field, String, Option<String>),
) -> Result<(), SpecError> {
    let rule = catalog.managed_gpu_rule(limit);
    let (id, source) = rule.map_or((limit.rule_id(), "catalog/rules.yaml"), |x| (x.id.as_str(), x.source.as_str()));
    catalog_refusal(r, warnings, (id, source), err(field, message, hint))
}

/// Compute and memory slices of a MIG profile out of a GPU's 7 and 8 (NVIDIA MIG User Guide,
/// "Supported MIG Profiles": A100/H100/H200 1g = 1/8 of memory, 2g = 2/8, 3g = 4/8, 4g = 4/8,
/// 7g = 8/8).
fn mig_slices(profile: &str) -> Option<(u32, u32)> {
    Some(match profile {
        "MIG1g" => (1, 1),
        "MIG2g" => (2, 2),
        "MIG3g" => (3, 4),
        "MIG4g" => (4, 4),
        "MIG7g" => (7, 8),
        _ => return None,
    })
}

/// `--managed-gpu`, `--gpu-mig-strategy` and `--mig-profiles`: the limits the docs state (each
/// a catalog rule, overridable), the spec's own constraints (not overridable: the API refuses
/// them), and the MIG layout against the GPU's slices, before any request. Returns the driver
/// to send and `gpuProfile.nvidia`.
fn check_managed(
    catalog: &Catalog,
    size: &VmSize,
    r: &PoolRequest,
    (os, gpu_driver, autoscale): (Os, Option<&'static str>, bool),
    (notes, warnings): (&mut Vec<String>, &mut Vec<String>),
) -> Result<(Option<&'static str>, Option<NvidiaSpec>), SpecError> {
    use crate::catalog::ManagedGpuLimit as L;
    let mig = r.mig_strategy.is_some() || !r.mig_profiles.is_empty();
    if !r.managed_gpu && !mig {
        return Ok((gpu_driver, None));
    }
    if !r.managed_gpu {
        let m = "managed MIG (--gpu-mig-strategy, --mig-profiles) configures AKS-managed GPU pools".to_owned();
        managed_refusal(
            catalog,
            r,
            warnings,
            L::MigNeedsManaged,
            (Field::MigStrategy, m, Some("add --managed-gpu".into())),
        )?;
    }
    if r.managed_gpu {
        if size.gpu_vendor != Vendor::Nvidia || os == Os::Windows {
            let m = format!(
                "AKS-managed GPU pools are NVIDIA on Linux only; {} is {} on {}",
                size.name,
                size.gpu_model,
                os_name(os)
            );
            managed_refusal(catalog, r, warnings, L::NvidiaLinux, (Field::ManagedGpu, m, None))?;
        }
        if gpu_driver == Some("None") {
            let m =
                "--gpu-driver none cannot go with an AKS-managed GPU pool: AKS installs the driver (it ignores None)"
                    .to_owned();
            let hint = Some("drop --gpu-driver none, or drop --managed-gpu to bring your own driver".into());
            managed_refusal(catalog, r, warnings, L::DriverInstall, (Field::GpuDriver, m, hint))?;
        }
        if autoscale {
            let m = "the cluster autoscaler is not supported on AKS-managed GPU pools during the preview".to_owned();
            let hint = Some("use --count, and scale with `aksgpu pool scale`".into());
            managed_refusal(catalog, r, warnings, L::NoAutoscaler, (Field::MinCount, m, hint))?;
        }
        let fixed = catalog.managed_gpu_rule(L::Immutable).map(|x| format!(" (rule {}, {})", x.id, x.source));
        notes.push(format!(
            "managed GPU: AKS installs and keeps the driver, device plugin, DCGM and dcgm-exporter; fixed once the pool exists{}",
            fixed.unwrap_or_default()
        ));
    }
    let mig_strategy = check_mig_layout(catalog, size, r, (notes, warnings))?;
    let nvidia = NvidiaSpec { managed: r.managed_gpu, mig_strategy, mig_profiles: canonical_profiles(&r.mig_profiles) };
    Ok((Some("Install"), Some(nvidia)))
}

fn canonical_profiles(list: &[String]) -> Vec<String> {
    list.iter()
        .map(|p| {
            API_MIG_PROFILES
                .iter()
                .find(|v| v.eq_ignore_ascii_case(p.trim()))
                .map_or(p.trim().to_owned(), |v| (*v).to_owned())
        })
        .collect()
}

/// The managed MIG layout: the strategy names, the API's profile values, exclusive with
/// `--mig-profile`, one profile for `Single`, and the profiles fit one GPU's 7 compute and 8
/// memory slices (AKS rejects wider layouts).
fn check_mig_layout(
    catalog: &Catalog,
    size: &VmSize,
    r: &PoolRequest,
    (notes, warnings): (&mut Vec<String>, &mut Vec<String>),
) -> Result<Option<&'static str>, SpecError> {
    let strategy = match r.mig_strategy.as_deref().map(str::trim) {
        None => None,
        Some(s) if s.eq_ignore_ascii_case("single") => Some("Single"),
        Some(s) if s.eq_ignore_ascii_case("mixed") => Some("Mixed"),
        Some(s) => {
            return Err(err(
                Field::MigStrategy,
                format!("{s:?} is not a MIG strategy"),
                Some("use Single or Mixed".into()),
            ))
        }
    };
    if strategy.is_none() && r.mig_profiles.is_empty() {
        return Ok(None);
    }
    if r.mig_profile.is_some() {
        return Err(err(
            Field::MigProfiles,
            "--mig-profiles (gpuProfile.nvidia.migProfiles) and --mig-profile (gpuInstanceProfile) are mutually exclusive (AKS API spec)",
            Some("drop --mig-profile; --mig-profiles replaces it on managed pools".into()),
        ));
    }
    let Some(strategy) = strategy else {
        return Err(err(Field::MigStrategy, "--mig-profiles needs --gpu-mig-strategy Single or Mixed", None));
    };
    let profiles = canonical_profiles(&r.mig_profiles);
    if profiles.is_empty() {
        return Err(err(
            Field::MigProfiles,
            format!("--gpu-mig-strategy {strategy} needs --mig-profiles (e.g. MIG3g,MIG3g)"),
            None,
        ));
    }
    if strategy == "Single" && profiles.len() != 1 {
        return Err(err(
            Field::MigProfiles,
            format!("--gpu-mig-strategy Single takes exactly one profile (AKS API spec); got {}", profiles.join(",")),
            Some("list one profile, or use --gpu-mig-strategy Mixed".into()),
        ));
    }
    if let Some(bad) = profiles.iter().find(|p| mig_slices(p).is_none()) {
        return Err(err(
            Field::MigProfiles,
            format!("{bad:?} is not a GPU instance profile"),
            Some(format!("use {}", API_MIG_PROFILES.join(", "))),
        ));
    }
    let rule = catalog.rules.iter().find(|x| matches!(x.kind, RuleKind::Mig { .. }));
    let (id, source) = rule.map_or(("mig-models", "catalog/rules.yaml"), |x| (x.id.as_str(), x.source.as_str()));
    if !size.mig_capable {
        let e =
            err(Field::MigProfiles, format!("{} ({}) does not support MIG on AKS", size.name, size.gpu_model), None);
        catalog_refusal(r, warnings, (id, source), e)?;
    }
    // Single repeats its one profile on every GPU; Mixed lists the partitions of each GPU.
    let (compute, memory) = if strategy == "Single" {
        let (c, m) = mig_slices(&profiles[0]).unwrap_or((7, 8));
        (c * (7 / c), m * (8 / m))
    } else {
        profiles.iter().filter_map(|p| mig_slices(p)).fold((0, 0), |(c, m), (a, b)| (c + a, m + b))
    };
    if compute > 7 || memory > 8 {
        return Err(err(
            Field::MigProfiles,
            format!(
                "{} is too wide for one {} GPU: {compute} of 7 compute slices and {memory} of 8 memory slices (3g and 4g take 4 memory slices each)",
                profiles.join(","),
                size.gpu_model
            ),
            Some("fewer or smaller partitions, e.g. MIG3g,MIG3g or MIG4g,MIG2g,MIG1g (NVIDIA MIG User Guide, supported profiles)".into()),
        ));
    }
    notes.push(format!("managed MIG {strategy}: {} per GPU", profiles.join(", ")));
    Ok(Some(strategy))
}

/// `--mig-profile`: Linux, a MIG-capable size, and a profile of its GPU. The first two rest on
/// the catalog's `mig` rule and the third on `gpus.yaml`: each is overridable, and the value
/// sent must then still be one of the AKS API's `GPUInstanceProfile` values.
fn check_mig(
    catalog: &Catalog,
    size: &VmSize,
    r: &PoolRequest,
    os: Os,
    (notes, warnings): (&mut Vec<String>, &mut Vec<String>),
) -> Result<Option<String>, SpecError> {
    let Some(p) = &r.mig_profile else { return Ok(None) };
    let want = p.trim();
    let rule = catalog.rules.iter().find(|x| matches!(x.kind, RuleKind::Mig { .. }));
    let (id, source) = rule.map_or(("mig-models", "catalog/rules.yaml"), |x| (x.id.as_str(), x.source.as_str()));
    if os == Os::Windows {
        let e = err(Field::MigProfile, "MIG is not available on Windows node pools", None);
        catalog_refusal(r, warnings, (id, source), e)?;
    }
    if !size.mig_capable {
        let e = err(
            Field::MigProfile,
            format!("{} ({}) does not support MIG on AKS", size.name, size.gpu_model),
            Some("MIG needs an A100, H100 or H200 size: `aksgpu recommend --mig`".into()),
        );
        catalog_refusal(r, warnings, (id, source), e)?;
    }
    let gpu = catalog.gpu(&size.gpu_model);
    let profiles = gpu.map(|g| g.mig_profiles.as_slice()).unwrap_or_default();
    if let Some(m) =
        profiles.iter().find(|m| m.profile.eq_ignore_ascii_case(want) || m.slice.eq_ignore_ascii_case(want))
    {
        notes.push(format!("MIG {} = {} × {} per GPU; fixed once the pool exists", m.profile, m.instances, m.slice));
        return Ok(Some(m.profile.clone()));
    }
    let listed = profiles.iter().map(|m| format!("{} ({})", m.profile, m.slice)).collect::<Vec<_>>();
    let e = err(
        Field::MigProfile,
        format!("{want:?} is not a MIG profile of {}", size.gpu_model),
        Some(if listed.is_empty() {
            format!("the catalog lists no MIG profile for {}", size.gpu_model)
        } else {
            format!("use one of {}", listed.join(", "))
        }),
    );
    let gpu_source = gpu.map_or("catalog/gpus.yaml", |g| g.source.as_str());
    catalog_refusal(r, warnings, (RULE_MIG_PROFILES, gpu_source), e)?;
    // Overridden: the catalog cannot map a slice name, and the API takes only its own values.
    let Some(api) = API_MIG_PROFILES.iter().find(|v| v.eq_ignore_ascii_case(want)) else {
        return Err(err(
            Field::MigProfile,
            format!("{want:?} is not a value the AKS API takes: use one of {}", API_MIG_PROFILES.join(", ")),
            Some("gpuInstanceProfile is an enum of the AgentPool API (managedClusters.json)".into()),
        ));
    };
    notes.push(format!("MIG {api}: the instance count and memory per slice are unknown to the catalog"));
    Ok(Some((*api).to_owned()))
}

/// Spot settings; returns the eviction policy.
fn check_spot(r: &PoolRequest, notes: &mut Vec<String>) -> Result<Option<&'static str>, SpecError> {
    if !r.spot && (r.spot_max_price.is_some() || r.eviction_policy.is_some()) {
        return Err(err(
            if r.spot_max_price.is_some() { Field::SpotMaxPrice } else { Field::EvictionPolicy },
            "only applies to spot pools",
            Some("add --spot".into()),
        ));
    }
    if let Some(p) = r.spot_max_price {
        if !(p == -1.0 || (p.is_finite() && p > 0.0)) {
            return Err(err(
                Field::SpotMaxPrice,
                format!("{p} is not a price: use -1 (up to the on-demand price) or a positive USD/hour"),
                None,
            ));
        }
    }
    let eviction_policy = r.eviction_policy.map(EvictionPolicy::name);
    if r.eviction_policy == Some(EvictionPolicy::Deallocate) {
        notes.push("evicted spot nodes are deallocated: their disks still cost money and count against quota".into());
    }
    Ok(eviction_policy)
}

/// A capacity reservation group id: `/subscriptions/…/resourceGroups/…/providers/Microsoft.Compute/capacityReservationGroups/NAME`.
fn check_crg(id: Option<&str>) -> Result<Option<String>, SpecError> {
    let Some(id) = id.map(str::trim) else { return Ok(None) };
    let segs: Vec<&str> = id.trim_matches('/').split('/').collect();
    let ok = id.starts_with('/')
        && segs.len() == 8
        && segs[0].eq_ignore_ascii_case("subscriptions")
        && segs[2].eq_ignore_ascii_case("resourceGroups")
        && segs[4].eq_ignore_ascii_case("providers")
        && segs[5].eq_ignore_ascii_case("Microsoft.Compute")
        && segs[6].eq_ignore_ascii_case("capacityReservationGroups")
        && segs.iter().all(|s| !s.is_empty());
    if !ok {
        return Err(err(
            Field::CapacityReservationGroup,
            format!("{id:?} is not a capacity reservation group resource id"),
            Some(
                "pass /subscriptions/SUB/resourceGroups/RG/providers/Microsoft.Compute/capacityReservationGroups/NAME"
                    .into(),
            ),
        ));
    }
    Ok(Some(id.to_owned()))
}

/// Zones, max pods and OS disk type; returns (zones, os disk type).
fn check_placement(r: &PoolRequest) -> Result<(Vec<String>, Option<&'static str>), SpecError> {
    let mut zones = Vec::new();
    for z in r.zones.iter().flat_map(|s| s.split(',')).map(str::trim).filter(|s| !s.is_empty()) {
        if !matches!(z, "1" | "2" | "3") {
            return Err(err(Field::Zones, format!("{z:?} is not an availability zone (1, 2 or 3)"), None));
        }
        if !zones.iter().any(|x: &String| x == z) {
            zones.push(z.to_owned());
        }
    }
    if let Some(p) = r.max_pods {
        if !(10..=250).contains(&p) {
            return Err(err(Field::MaxPods, format!("{p} is outside 10…250"), None));
        }
    }
    Ok((zones, r.os_disk_type.map(OsDiskType::name)))
}

impl PoolSpec {
    /// Validate a request against the catalog and its AKS rules.
    pub fn validate(catalog: &Catalog, r: &PoolRequest) -> Result<PoolSpec, SpecError> {
        let (mut notes, mut warnings) = (Vec::new(), Vec::new());
        check_overrides(catalog, r)?;
        check_resource_group(&r.resource_group)?;
        check_cluster(&r.cluster)?;
        check_pool_name(&r.name)?;
        let size = check_size(catalog, r, &mut warnings)?;
        let (os, os_sku) = check_os(catalog, size, r, (&mut notes, &mut warnings))?;
        let kubernetes_version = check_windows(catalog, r, os, &mut warnings)?;
        let (count, autoscale) = check_counts(r)?;
        // Taints, labels, tags.
        let taints = match &r.taints {
            None => {
                notes.push(format!(
                    "taint {DEFAULT_TAINT} (default; --node-taints to change, --node-taints '' for none)"
                ));
                vec![DEFAULT_TAINT.to_owned()]
            }
            Some(list) => list
                .iter()
                .flat_map(|s| s.split(','))
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(parse_taint)
                .collect::<Result<Vec<_>, _>>()?,
        };
        let labels = parse_pairs(Field::Labels, &r.labels, |k, v| valid_key(k) && valid_value(v))?;
        let tags = parse_pairs(Field::Tags, &r.tags, |k, v| {
            !k.is_empty() && k.len() <= 512 && v.len() <= 256 && !k.contains(['<', '>', '%', '&', '\\', '?', '/'])
        })?;
        let gpu_driver = check_gpu_driver(catalog, size, r, (os, os_sku.as_deref()), (&mut notes, &mut warnings))?;
        let mig_profile = check_mig(catalog, size, r, os, (&mut notes, &mut warnings))?;
        let (gpu_driver, nvidia) =
            check_managed(catalog, size, r, (os, gpu_driver, autoscale.is_some()), (&mut notes, &mut warnings))?;
        let mut labels = labels;
        if nvidia.as_ref().is_some_and(|n| n.managed) {
            // AKS owns a managed pool's stack: a GPU Operator in the cluster stays off its nodes
            // (rule operator-mixed-driver-labels).
            let (k, v) = crate::domain::NO_OPERANDS_LABEL;
            labels.entry(k.to_owned()).or_insert_with(|| v.to_owned());
        }
        let eviction_policy = check_spot(r, &mut notes)?;
        let (zones, os_disk_type) = check_placement(r)?;
        if let Some((min, rule)) = catalog.min_recommended_size(os_name(os)) {
            if let Some(m) = catalog.size(min) {
                if size.gpu_memory_per_gpu_gib + 1e-9 < m.gpu_memory_per_gpu_gib && size.vcpus < m.vcpus {
                    notes.push(format!(
                        "{} is smaller than Microsoft's minimum recommended size {} ({})",
                        size.name, m.name, rule.source
                    ));
                }
            }
        }
        Ok(PoolSpec {
            subscription: r.subscription.clone(),
            resource_group: r.resource_group.clone(),
            cluster: r.cluster.clone(),
            name: r.name.clone(),
            size: size.clone(),
            count,
            autoscale,
            os,
            os_sku,
            kubernetes_version,
            taints,
            labels,
            mig_profile,
            gpu_driver,
            nvidia,
            spot: r.spot,
            spot_max_price: r.spot_max_price,
            eviction_policy,
            zones,
            max_pods: r.max_pods,
            os_disk_type,
            tags,
            capacity_reservation_group: check_crg(r.capacity_reservation_group.as_deref())?,
            notes,
            warnings,
            overrides: r.overrides.clone(),
        })
    }

    /// The pool's ARM path.
    pub fn path(&self) -> String {
        super::pool_path(&self.subscription, &self.resource_group, &self.cluster, &self.name)
    }

    /// The exact AgentPool PUT body.
    pub fn body(&self) -> Value {
        let mut p = Map::new();
        p.insert("vmSize".into(), json!(self.size.name));
        p.insert("count".into(), json!(self.count));
        p.insert("mode".into(), json!("User"));
        p.insert("type".into(), json!("VirtualMachineScaleSets"));
        p.insert("osType".into(), json!(if self.os == Os::Windows { "Windows" } else { "Linux" }));
        if let Some(s) = &self.os_sku {
            p.insert("osSKU".into(), json!(s));
        }
        if let Some(v) = &self.kubernetes_version {
            p.insert("orchestratorVersion".into(), json!(v.to_string()));
        }
        if let Some((min, max)) = self.autoscale {
            p.insert("enableAutoScaling".into(), json!(true));
            p.insert("minCount".into(), json!(min));
            p.insert("maxCount".into(), json!(max));
        } else {
            p.insert("enableAutoScaling".into(), json!(false));
        }
        p.insert("nodeTaints".into(), json!(self.taints));
        if !self.labels.is_empty() {
            p.insert("nodeLabels".into(), json!(self.labels));
        }
        if !self.tags.is_empty() {
            p.insert("tags".into(), json!(self.tags));
        }
        if let Some(n) = &self.nvidia {
            let mut nv = Map::new();
            nv.insert("managementMode".into(), json!(if n.managed { "Managed" } else { "Unmanaged" }));
            if let Some(m) = n.mig_strategy {
                nv.insert("migStrategy".into(), json!(m));
            }
            if !n.mig_profiles.is_empty() {
                nv.insert("migProfiles".into(), json!(n.mig_profiles));
            }
            p.insert("gpuProfile".into(), json!({ "driver": self.gpu_driver.unwrap_or("Install"), "nvidia": nv }));
        } else if let Some(d) = self.gpu_driver {
            p.insert("gpuProfile".into(), json!({ "driver": d }));
        }
        if let Some(m) = &self.mig_profile {
            p.insert("gpuInstanceProfile".into(), json!(m));
        }
        if self.spot {
            p.insert("scaleSetPriority".into(), json!("Spot"));
            p.insert("scaleSetEvictionPolicy".into(), json!(self.eviction_policy.unwrap_or("Delete")));
            p.insert("spotMaxPrice".into(), json!(self.spot_max_price.unwrap_or(-1.0)));
        }
        if !self.zones.is_empty() {
            p.insert("availabilityZones".into(), json!(self.zones));
        }
        if let Some(m) = self.max_pods {
            p.insert("maxPods".into(), json!(m));
        }
        if let Some(d) = self.os_disk_type {
            p.insert("osDiskType".into(), json!(d));
        }
        if let Some(g) = &self.capacity_reservation_group {
            p.insert("capacityReservationGroupID".into(), json!(g));
        }
        json!({ "properties": Value::Object(p) })
    }

    /// The AKS api-version the pool is sent with: the one whose spec defines every field of its
    /// body (`nvidia.managementMode` from 2026-08-01, managed MIG only in the previews).
    pub fn api_version(&self) -> &'static str {
        match &self.nvidia {
            Some(n) if n.mig_strategy.is_some() || !n.mig_profiles.is_empty() => crate::domain::api::AKS_MANAGED_MIG,
            Some(_) => crate::domain::api::AKS_MANAGED_GPU,
            None => crate::domain::api::AKS,
        }
    }

    /// Whether AKS manages the pool's whole NVIDIA stack.
    pub fn managed_gpu(&self) -> bool {
        self.nvidia.as_ref().is_some_and(|n| n.managed)
    }

    /// Highest node count the pool can reach.
    pub fn max_nodes(&self) -> u32 {
        self.autoscale.map_or(self.count, |(_, max)| max)
    }

    /// Lowest node count (what idles).
    pub fn min_nodes(&self) -> u32 {
        self.autoscale.map_or(self.count, |(min, _)| min)
    }

    /// Surge nodes during upgrades: AKS's default max surge of 10 %, at least one.
    pub fn surge_nodes(&self) -> u32 {
        surge_for(self.max_nodes())
    }

    /// vCPUs of quota the pool needs: vCPUs × (max nodes + surge).
    pub fn vcpus_needed(&self) -> u64 {
        u64::from(self.size.vcpus) * u64::from(self.max_nodes() + self.surge_nodes())
    }

    /// How an existing pool differs from this spec: (field, existing, wanted, immutable).
    pub fn diff(&self, existing: &Value) -> Vec<Difference> {
        let want = self.body();
        let have = existing.get("properties").cloned().unwrap_or(Value::Null);
        let w = &want["properties"];
        let mut out = Vec::new();
        let mut cmp = |field: &'static str, wanted: Value, had: Value, immutable: bool| {
            if !same(&wanted, &had) {
                out.push(Difference { field, existing: had, wanted, immutable });
            }
        };
        cmp("vmSize", w["vmSize"].clone(), have["vmSize"].clone(), true);
        cmp("osType", w["osType"].clone(), have.get("osType").cloned().unwrap_or(json!("Linux")), true);
        if let Some(s) = w.get("osSKU") {
            cmp("osSKU", s.clone(), have["osSKU"].clone(), true);
        }
        cmp("mode", json!("User"), have["mode"].clone(), false);
        let driver = |v: &Value| v.pointer("/gpuProfile/driver").cloned().unwrap_or(json!("Install"));
        cmp("gpuProfile.driver", driver(w), driver(&have), true);
        cmp("gpuInstanceProfile", w["gpuInstanceProfile"].clone(), have["gpuInstanceProfile"].clone(), true);
        // AKS-managed GPU and managed MIG: fixed at creation (rule managed-gpu-immutable). A
        // field Azure did not send is the spec's default (Unmanaged, None, no profiles).
        let nvidia = |v: &Value, key: &str, default: Value| {
            v.pointer(&format!("/gpuProfile/nvidia/{key}")).cloned().unwrap_or(default)
        };
        cmp(
            "gpuProfile.nvidia.managementMode",
            nvidia(w, "managementMode", json!("Unmanaged")),
            nvidia(&have, "managementMode", json!("Unmanaged")),
            true,
        );
        cmp(
            "gpuProfile.nvidia.migStrategy",
            nvidia(w, "migStrategy", json!("None")),
            nvidia(&have, "migStrategy", json!("None")),
            true,
        );
        cmp(
            "gpuProfile.nvidia.migProfiles",
            nvidia(w, "migProfiles", json!([])),
            nvidia(&have, "migProfiles", json!([])),
            true,
        );
        let prio = |v: &Value| v.get("scaleSetPriority").cloned().unwrap_or(json!("Regular"));
        cmp("scaleSetPriority", prio(w), prio(&have), true);
        let zones = |v: &Value| {
            let mut z: Vec<String> = v["availabilityZones"]
                .as_array()
                .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect())
                .unwrap_or_default();
            z.sort();
            json!(z)
        };
        cmp("availabilityZones", zones(w), zones(&have), true);
        if let Some(m) = w.get("maxPods") {
            cmp("maxPods", m.clone(), have["maxPods"].clone(), true);
        }
        if let Some(d) = w.get("osDiskType") {
            cmp("osDiskType", d.clone(), have["osDiskType"].clone(), true);
        }
        if let Some(v) = w.get("orchestratorVersion") {
            cmp("orchestratorVersion", v.clone(), have["orchestratorVersion"].clone(), false);
        }
        if w.get("scaleSetPriority").is_some() {
            let evict = |v: &Value| v.get("scaleSetEvictionPolicy").cloned().unwrap_or(json!("Delete"));
            cmp("scaleSetEvictionPolicy", evict(w), evict(&have), true);
            let price = |v: &Value| v.get("spotMaxPrice").cloned().unwrap_or(json!(-1.0));
            cmp("spotMaxPrice", price(w), price(&have), true);
        }
        if let Some(t) = w.get("tags") {
            cmp("tags", t.clone(), have.get("tags").cloned().unwrap_or(json!({})), false);
        }
        let auto = |v: &Value| v["enableAutoScaling"].as_bool().unwrap_or(false);
        cmp("enableAutoScaling", json!(auto(w)), json!(auto(&have)), false);
        if auto(w) {
            cmp("minCount", w["minCount"].clone(), have["minCount"].clone(), false);
            cmp("maxCount", w["maxCount"].clone(), have["maxCount"].clone(), false);
        } else {
            cmp("count", w["count"].clone(), have["count"].clone(), false);
        }
        let taints = |v: &Value| {
            let mut t: Vec<String> = v["nodeTaints"]
                .as_array()
                .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_owned)).filter(|x| x != SPOT_TAINT).collect())
                .unwrap_or_default();
            t.sort();
            json!(t)
        };
        cmp("nodeTaints", taints(w), taints(&have), false);
        if let Some(labels) = w.get("nodeLabels").and_then(Value::as_object) {
            let missing = labels.iter().any(|(k, v)| {
                have.pointer(&format!("/nodeLabels/{}", k.replace('~', "~0").replace('/', "~1"))) != Some(v)
            });
            if missing {
                cmp("nodeLabels", w["nodeLabels"].clone(), have["nodeLabels"].clone(), false);
            }
        }
        out
    }
}

/// One differing field.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Difference {
    pub field: &'static str,
    pub existing: Value,
    pub wanted: Value,
    pub immutable: bool,
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) => x.eq_ignore_ascii_case(y),
        (Value::Null, Value::Array(v)) | (Value::Array(v), Value::Null) => v.is_empty(),
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// "linux" / "windows".
pub fn os_name(os: Os) -> &'static str {
    if os == Os::Windows {
        "windows"
    } else {
        "linux"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Catalog {
        Catalog::bundled().expect("catalog")
    }

    fn req(size: &str) -> PoolRequest {
        PoolRequest::example(size)
    }

    fn fails(r: &PoolRequest, flag: &str) -> SpecError {
        let e = PoolSpec::validate(&catalog(), r).expect_err("should fail");
        assert_eq!(e.field.flag(), flag, "{e:?}");
        e
    }

    #[test]
    fn default_gpu_pool_body() {
        let spec = PoolSpec::validate(&catalog(), &req("NC24ads_A100_v4")).expect("valid");
        assert_eq!(
            spec.body(),
            json!({"properties": {
                "vmSize": "Standard_NC24ads_A100_v4", "count": 1, "mode": "User", "type": "VirtualMachineScaleSets",
                "osType": "Linux", "enableAutoScaling": false, "nodeTaints": ["sku=gpu:NoSchedule"]
            }})
        );
        // 24 vCPUs × (1 node + 1 surge).
        assert_eq!(spec.vcpus_needed(), 48);
    }

    #[test]
    fn spot_mig_autoscale_body() {
        let mut r = req("Standard_ND96asr_v4");
        r.min_count = Some(1);
        r.max_count = Some(20);
        r.mig_profile = Some("3g.20gb".into());
        r.spot = true;
        r.zones = vec!["1,2".into()];
        r.labels = vec!["team=ml".into()];
        let spec = PoolSpec::validate(&catalog(), &r).expect("valid");
        let b = spec.body();
        assert_eq!(b["properties"]["gpuInstanceProfile"], "MIG3g");
        assert_eq!(b["properties"]["scaleSetPriority"], "Spot");
        assert_eq!(b["properties"]["spotMaxPrice"], -1.0);
        assert_eq!(b["properties"]["minCount"], 1);
        assert_eq!(b["properties"]["count"], 1);
        assert_eq!(b["properties"]["availabilityZones"], json!(["1", "2"]));
        // 96 × (20 + 2 surge).
        assert_eq!(spec.vcpus_needed(), 96 * 22);
    }

    #[test]
    fn rules_refuse_bad_requests() {
        fails(&req("Standard_NC24ads_A100_v5"), "--vm-size");
        let e = fails(&req("Standard_NC6s_v3"), "--vm-size");
        assert!(e.message.contains("retired"));
        let e = fails(&req("Standard_NV16as_v4"), "--vm-size");
        assert!(e.message.contains("retired") || e.message.contains("NVv4"), "{e:?}");
        let mut r = req("Standard_NC4as_T4_v3");
        r.mig_profile = Some("MIG1g".into());
        fails(&r, "--mig-profile");
        let mut r = req("Standard_NC4as_T4_v3");
        r.os = Some(Os::Windows);
        r.name = "gpuwin7".into();
        let e = fails(&r, "--name");
        assert!(e.message.contains('6'));
        let mut r = req("Standard_NC4as_T4_v3");
        r.os = Some(Os::Windows);
        r.name = "gpuw".into();
        r.kubernetes_version = KubeVersion::parse("1.28").ok();
        let e = fails(&r, "--kubernetes-version");
        assert!(e.message.contains("1.29"));
        let mut r = req("Standard_ND96isr_MI300X_v5");
        r.gpu_driver = Some(GpuDriver::Install);
        fails(&r, "--gpu-driver");
        let amd = PoolSpec::validate(&catalog(), &req("Standard_ND96isr_MI300X_v5")).expect("defaults to none");
        assert_eq!(amd.body()["properties"]["gpuProfile"]["driver"], "None");
        let mut r = req("Standard_ND96isr_MI300X_v5");
        r.os_sku = Some("AzureLinux".into());
        assert!(PoolSpec::validate(&catalog(), &r).is_err());
        let mut r = req("Standard_NC4as_T4_v3");
        r.min_count = Some(3);
        r.max_count = Some(1);
        fails(&r, "--min-count");
        let mut r = req("Standard_NC4as_T4_v3");
        r.spot = true;
        r.spot_max_price = Some(0.0);
        fails(&r, "--spot-max-price");
        let mut r = req("Standard_NC4as_T4_v3");
        r.spot_max_price = Some(1.0);
        fails(&r, "--spot-max-price");
        let mut r = req("Standard_NC4as_T4_v3");
        r.name = "GPU_1".into();
        fails(&r, "--name");
        let mut r = req("Standard_NC4as_T4_v3");
        r.taints = Some(vec!["sku=gpu".into()]);
        fails(&r, "--node-taints");
        let mut r = req("Standard_NC4as_T4_v3");
        r.os_sku = Some("Flatcar".into());
        assert!(PoolSpec::validate(&catalog(), &r).is_err());
    }

    /// A refusal resting on catalog data becomes a warning with `--override RULE_ID`, still
    /// naming the rule, its source and the risk; without it, the refusal says how.
    #[test]
    fn overrides_turn_catalog_refusals_into_warnings() {
        let ncv6 = "Standard_NC36ds_xl_RTXPRO6000BSE_v6";
        let e = fails(&req(ncv6), "--vm-size");
        assert!(e.hint.as_deref().unwrap_or("").contains("--override ncv6-aks-status"), "{e:?}");
        let r = PoolRequest { overrides: vec!["ncv6-aks-status".into()], ..req(ncv6) };
        let spec = PoolSpec::validate(&catalog(), &r).expect("overridden");
        assert_eq!(spec.warnings.len(), 1, "{:?}", spec.warnings);
        let w = &spec.warnings[0];
        assert!(w.starts_with("overriding catalog rule ncv6-aks-status (--vm-size: "), "{w}");
        assert!(w.contains("source: azure-compute-docs:") && w.contains("risk: Azure may refuse"), "{w}");
        // An OS SKU the catalog's size facts do not list.
        let os = PoolRequest { os_sku: Some("AzureLinux".into()), ..req("Standard_NC24ads_A100_v4") };
        let e = fails(&os, "--os-sku");
        assert!(e.hint.as_deref().unwrap_or("").contains("--override catalog-size-os-skus"), "{e:?}");
        let os = PoolRequest { overrides: vec![RULE_SIZE_OS_SKUS.into()], ..os };
        assert!(PoolSpec::validate(&catalog(), &os).expect("overridden").warnings[0].contains("AzureLinux"));
        // Windows limits from rules.yaml.
        let win = PoolRequest { os: Some(Os::Windows), name: "gpuwin7".into(), ..req("Standard_NC4as_T4_v3") };
        assert!(fails(&win, "--name").hint.unwrap_or_default().contains("--override windows-pool-name-max"));
        let win = PoolRequest { overrides: vec!["windows-pool-name-max".into()], ..win };
        assert!(PoolSpec::validate(&catalog(), &win).expect("overridden").warnings[0].contains("windows-pool-name-max"));
        // A typo overrides nothing: refused, with the ids listed.
        let typo = PoolRequest { overrides: vec!["ncv6-status".into()], ..req(ncv6) };
        let e = fails(&typo, "--override");
        assert!(e.hint.as_deref().unwrap_or("").contains("ncv6-aks-status"), "{e:?}");
        // Overriding one rule does not override another: a retired size needs its own id.
        let retired = PoolRequest { overrides: vec![RULE_SIZE_UNSUPPORTED.into()], ..req("Standard_NC6s_v3") };
        let e = fails(&retired, "--vm-size");
        assert!(e.message.contains("retired"), "{e:?}");
        assert!(e.hint.as_deref().unwrap_or("").contains("--override catalog-size-retired"), "{e:?}");
    }

    /// A retired size is the catalog's dated word (Microsoft may extend a retirement, or a
    /// region keeps the size longer): `--override catalog-size-retired` proceeds, with a
    /// warning that names the rule, the retirement source and the risk. A retired series that
    /// a rule of its own also refuses (NVv4) still needs that rule's id.
    #[test]
    fn retired_sizes_are_overridable() {
        let r = PoolRequest { overrides: vec![RULE_SIZE_RETIRED.into()], ..req("Standard_NC6s_v3") };
        let spec = PoolSpec::validate(&catalog(), &r).expect("overridden");
        assert_eq!(spec.warnings.len(), 1, "{:?}", spec.warnings);
        let w = &spec.warnings[0];
        assert!(
            w.starts_with("overriding catalog rule catalog-size-retired (--vm-size: Standard_NC6s_v3 is retired"),
            "{w}"
        );
        assert!(w.contains("source: ") && w.contains("risk: "), "{w}");
        let nvv4 = PoolRequest { overrides: vec![RULE_SIZE_RETIRED.into()], ..req("Standard_NV16as_v4") };
        let e = fails(&nvv4, "--vm-size");
        assert!(e.hint.as_deref().unwrap_or("").contains("--override nvv4-unsupported"), "{e:?}");
        let both = PoolRequest { overrides: vec![RULE_SIZE_RETIRED.into(), "nvv4-unsupported".into()], ..nvv4 };
        assert_eq!(PoolSpec::validate(&catalog(), &both).expect("both overridden").warnings.len(), 2);
    }

    /// MIG refusals rest on the catalog: which GPUs AKS offers MIG on (rule mig-models, also
    /// "Linux only") and which profiles a GPU has (gpus.yaml). Each is overridable by its id;
    /// the value sent must still be one of the AKS API's GPUInstanceProfile values.
    #[test]
    fn mig_refusals_are_overridable() {
        // No MIG on T4 per the catalog.
        let t4 = PoolRequest { mig_profile: Some("MIG1g".into()), ..req("Standard_NC4as_T4_v3") };
        let e = fails(&t4, "--mig-profile");
        assert!(e.hint.as_deref().unwrap_or("").contains("--override mig-models"), "{e:?}");
        let t4_over = PoolRequest { overrides: vec!["mig-models".into()], ..t4.clone() };
        let e = fails(&t4_over, "--mig-profile");
        assert!(e.hint.as_deref().unwrap_or("").contains("--override catalog-mig-profiles"), "{e:?}");
        let t4_both = PoolRequest { overrides: vec!["mig-models".into(), RULE_MIG_PROFILES.into()], ..t4.clone() };
        let spec = PoolSpec::validate(&catalog(), &t4_both).expect("overridden");
        assert_eq!(spec.body()["properties"]["gpuInstanceProfile"], "MIG1g");
        assert_eq!(spec.warnings.len(), 2, "{:?}", spec.warnings);
        assert!(spec.warnings.iter().all(|w| w.contains("risk: ")), "{:?}", spec.warnings);
        assert!(spec.warnings[0].contains("azure-aks-docs:articles/aks/gpu-multi-instance.md"), "{:?}", spec.warnings);
        // A profile the catalog does not list for the A100 80GB (a slice of the 40 GB part).
        let slice = PoolRequest { mig_profile: Some("1g.5gb".into()), ..req("Standard_NC24ads_A100_v4") };
        let e = fails(&slice, "--mig-profile");
        assert!(e.hint.as_deref().unwrap_or("").contains("--override catalog-mig-profiles"), "{e:?}");
        let odd = PoolRequest { mig_profile: Some("MIG5g".into()), ..req("Standard_NC24ads_A100_v4") };
        let e = fails(&odd, "--mig-profile");
        assert!(e.hint.as_deref().unwrap_or("").contains("--override catalog-mig-profiles"), "{e:?}");
        // Overridden, a value outside the API's enum is still refused: that is the API, not the catalog.
        let odd = PoolRequest { overrides: vec![RULE_MIG_PROFILES.into()], ..odd };
        let e = fails(&odd, "--mig-profile");
        assert!(e.message.contains("MIG1g, MIG2g, MIG3g, MIG4g, MIG7g"), "{e:?}");
        assert!(!e.hint.as_deref().unwrap_or("").contains("--override"), "{e:?}");
        // Windows: the mig-models rule says Linux only.
        let win = PoolRequest {
            os: Some(Os::Windows),
            name: "gpuw".into(),
            mig_profile: Some("MIG1g".into()),
            ..req("Standard_NC24ads_A100_v4")
        };
        let e = fails(&win, "--mig-profile");
        assert!(e.hint.as_deref().unwrap_or("").contains("--override mig-models"), "{e:?}");
        let win = PoolRequest { overrides: vec!["mig-models".into()], ..win };
        let spec = PoolSpec::validate(&catalog(), &win).expect("overridden");
        assert_eq!(spec.body()["properties"]["gpuInstanceProfile"], "MIG1g");
    }

    #[test]
    fn os_skus_follow_what_aks_provisions_for_the_size() {
        // karpenter-provider-azure supported-gpus.yaml: A100 on ubuntu, windows and azurelinux3 only.
        let mut r = req("Standard_NC24ads_A100_v4");
        r.os_sku = Some("AzureLinux".into());
        let e = fails(&r, "--os-sku");
        assert!(e.message.contains("AKS does not provision Standard_NC24ads_A100_v4"), "{e:?}");
        assert!(e.message.contains("Ubuntu, AzureLinux3"), "{e:?}");
        assert!(e.hint.as_deref().is_some_and(|h| h.contains("--os-sku Ubuntu or AzureLinux3")), "{e:?}");
        r.os_sku = Some("azurelinux3".into());
        let spec = PoolSpec::validate(&catalog(), &r).expect("Azure Linux 3 is provisioned");
        assert_eq!(spec.os_sku.as_deref(), Some("AzureLinux3"));
        assert!(spec.notes.iter().any(|n| n.contains("a100-h100-azure-linux")), "{:?}", spec.notes);
        // Versioned Ubuntu SKUs are the ubuntu family; Azure Linux 3 is not offered on A10 sizes.
        r.os_sku = Some("Ubuntu2404".into());
        assert!(PoolSpec::validate(&catalog(), &r).is_ok());
        let mut r = req("Standard_NV36ads_A10_v5");
        r.os_sku = Some("AzureLinux3".into());
        let e = fails(&r, "--os-sku");
        assert!(e.message.ends_with("it allows Ubuntu"), "{e:?}");
        // Windows 2019 is not offered for GPU pools here; the Windows list is named.
        let mut r = req("Standard_NC4as_T4_v3");
        r.name = "gpuw".into();
        r.os_sku = Some("Windows2019".into());
        let e = fails(&r, "--os-sku");
        assert!(e.message.contains("Windows2022, Windows2025"), "{e:?}");
        // T4 is in both Azure Linux lists; CBLMariner is Azure Linux's old name.
        let mut r = req("Standard_NC4as_T4_v3");
        for sku in ["AzureLinux", "AzureLinux3", "CBLMariner"] {
            r.os_sku = Some(sku.into());
            assert!(PoolSpec::validate(&catalog(), &r).is_ok(), "{sku}");
        }
    }

    #[test]
    fn os_sku_families() {
        let allowed = ["Ubuntu".to_owned(), "AzureLinux".to_owned()];
        assert!(os_sku_provisioned(&allowed, "Ubuntu2204"));
        assert!(os_sku_provisioned(&allowed, "CBLMariner"));
        assert!(!os_sku_provisioned(&allowed, "AzureLinux3"));
        assert!(!os_sku_provisioned(&allowed, "AzureContainerLinux"));
        assert!(!os_sku_provisioned(&["Ubuntu2204".to_owned()], "Ubuntu"));
    }

    #[test]
    fn diff_names_immutable_fields_and_ignores_the_spot_taint() {
        let mut r = req("Standard_NC24ads_A100_v4");
        r.spot = true;
        let spec = PoolSpec::validate(&catalog(), &r).expect("valid");
        let mut existing = spec.body();
        existing["properties"]["nodeTaints"] = json!(["sku=gpu:NoSchedule", SPOT_TAINT]);
        existing["properties"]["provisioningState"] = json!("Succeeded");
        existing["properties"]["vmSize"] = json!("standard_nc24ads_a100_v4");
        assert_eq!(spec.diff(&existing), Vec::new());
        existing["properties"]["vmSize"] = json!("Standard_NC48ads_A100_v4");
        existing["properties"]["count"] = json!(3);
        let d = spec.diff(&existing);
        assert_eq!(d.iter().map(|x| (x.field, x.immutable)).collect::<Vec<_>>(), [("vmSize", true), ("count", false)]);
    }

    #[test]
    fn taint_parsing() {
        assert!(parse_taint("sku=gpu:NoSchedule").is_ok());
        assert!(parse_taint("nvidia.com/gpu:NoExecute").is_ok());
        assert!(parse_taint("a=b:Sometimes").is_err());
        assert!(parse_taint("=b:NoSchedule").is_err());
        assert!(parse_taint("a=b c:NoSchedule").is_err());
    }
}
