//! GPU agent pools: validation against the catalog's AKS rules, the exact AgentPool request
//! body, comparison with an existing pool, and the quota a pool needs. Pure.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::catalog::AKS_OS_SKUS as OS_SKUS;
use crate::catalog::{Catalog, ConflictFact, Driver, KubeVersion, RuleKind, Status, Vendor, VmSize};
use crate::domain::did_you_mean;
use crate::domain::setting::{Setting, Words};
use crate::domain::{EvictionPolicy, GpuDriver, Os, OsDiskType};

mod body;
mod diff;
mod mig;
mod names;
mod validate;

pub use diff::Difference;
pub use names::{check_cluster, check_pool_name, check_resource_group, parse_taint};
pub use validate::{check_override_ids, file_override_hint, override_hint, override_ids};
#[allow(unused_imports)]
use {mig::*, names::*, validate::*};

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
    /// The deployment the size was recommended for (`create-pool --recommend`, a GpuConfig's
    /// `recommend:`): without a count asked for, the pool runs its nodes.
    pub deployment: Option<Deployment>,
}

/// The nodes a recommendation's deployment runs on, and how it is split over them in words
/// (`2 copies at TP 1 × PP 1`), for the notes that say where a pool's count came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deployment {
    pub nodes: u32,
    pub split: String,
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
    pub notes: Vec<Words>,
    /// Catalog refusals turned into warnings by `overrides`: rule, source and risk.
    pub warnings: Vec<Words>,
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

/// A validation failure: which setting of the pool, what is wrong, and the fix, in [`Words`]
/// that name settings by id. Like `SettingError` it has no `Display`: each front end names the
/// settings its own way (the CLI's flags, a GpuConfig's keys).
#[derive(Debug, Clone, PartialEq)]
pub struct SpecError {
    /// The setting to fix.
    pub setting: Setting,
    pub message: Words,
    pub hint: Option<Words>,
    /// The catalog rule the refusal rests on, `(id, source)`: each front end says how to
    /// override it (a flag, a file's `overrides:`). Boxed: the error stays small.
    pub rule: Option<Box<(String, String)>>,
}

impl SpecError {
    /// The message after the setting it refuses (`{0}: …`).
    pub fn words(&self) -> Words {
        Words::new("{0}: ", &[self.setting]).then("", self.message.clone())
    }
}

fn err(setting: Setting, message: impl Into<Words>, hint: Option<Words>) -> SpecError {
    SpecError { setting, message: message.into(), hint, rule: None }
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

impl PoolSpec {
    /// The pool's ARM path.
    pub fn path(&self) -> String {
        super::pool_path(&self.subscription, &self.resource_group, &self.cluster, &self.name)
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

    /// Words as the CLI says them.
    fn cli(w: &Words) -> String {
        let flag = |s: Setting| format!("--{}", s.long());
        w.render(flag, flag)
    }

    /// A refusal as the CLI says it: the message, and the hint with how to override its rule.
    #[derive(Debug)]
    struct Refusal {
        message: String,
        hint: Option<String>,
    }

    fn fails(r: &PoolRequest, flag: &str) -> Refusal {
        let e = PoolSpec::validate(&catalog(), r).expect_err("should fail");
        assert_eq!(format!("--{}", e.setting.long()), flag, "{e:?}");
        let also = e.rule.as_deref().map(|(id, source)| cli(&override_hint(id, source)));
        let hint = match (e.hint.as_ref().map(cli), also) {
            (Some(h), Some(a)) => Some(format!("{h}; {a}")),
            (h, a) => h.or(a),
        };
        Refusal { message: cli(&e.message), hint }
    }

    fn warnings(spec: &PoolSpec) -> Vec<String> {
        spec.warnings.iter().map(cli).collect()
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
        assert_eq!(warnings(&spec).len(), 1, "{:?}", spec.warnings);
        let w = &warnings(&spec)[0];
        assert!(w.starts_with("overriding catalog rule ncv6-aks-status (--vm-size: "), "{w}");
        assert!(w.contains("source: azure-compute-docs:") && w.contains("risk: Azure may refuse"), "{w}");
        // An OS SKU the catalog's size facts do not list.
        let os = PoolRequest { os_sku: Some("AzureLinux".into()), ..req("Standard_NC24ads_A100_v4") };
        let e = fails(&os, "--os-sku");
        assert!(e.hint.as_deref().unwrap_or("").contains("--override catalog-size-os-skus"), "{e:?}");
        let os = PoolRequest { overrides: vec![RULE_SIZE_OS_SKUS.into()], ..os };
        assert!(warnings(&PoolSpec::validate(&catalog(), &os).expect("overridden"))[0].contains("AzureLinux"));
        // Windows limits from rules.yaml.
        let win = PoolRequest { os: Some(Os::Windows), name: "gpuwin7".into(), ..req("Standard_NC4as_T4_v3") };
        assert!(fails(&win, "--name").hint.unwrap_or_default().contains("--override windows-pool-name-max"));
        let win = PoolRequest { overrides: vec!["windows-pool-name-max".into()], ..win };
        assert!(
            warnings(&PoolSpec::validate(&catalog(), &win).expect("overridden"))[0].contains("windows-pool-name-max")
        );
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
        assert_eq!(warnings(&spec).len(), 1, "{:?}", spec.warnings);
        let w = &warnings(&spec)[0];
        assert!(
            w.starts_with("overriding catalog rule catalog-size-retired (--vm-size: Standard_NC6s_v3 is retired"),
            "{w}"
        );
        assert!(w.contains("source: ") && w.contains("risk: "), "{w}");
        let nvv4 = PoolRequest { overrides: vec![RULE_SIZE_RETIRED.into()], ..req("Standard_NV16as_v4") };
        let e = fails(&nvv4, "--vm-size");
        assert!(e.hint.as_deref().unwrap_or("").contains("--override nvv4-unsupported"), "{e:?}");
        let both = PoolRequest { overrides: vec![RULE_SIZE_RETIRED.into(), "nvv4-unsupported".into()], ..nvv4 };
        assert_eq!(warnings(&PoolSpec::validate(&catalog(), &both).expect("both overridden")).len(), 2);
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
        assert_eq!(warnings(&spec).len(), 2, "{:?}", spec.warnings);
        assert!(warnings(&spec).iter().all(|w| w.contains("risk: ")), "{:?}", spec.warnings);
        assert!(
            warnings(&spec)[0].contains("azure-aks-docs:articles/aks/gpu-multi-instance.md"),
            "{:?}",
            spec.warnings
        );
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
        assert!(spec.notes.iter().any(|n| n.text.contains("a100-h100-azure-linux")), "{:?}", spec.notes);
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
        let typed = |v: &Value| crate::resources::parse::<crate::resources::AgentPool>(v, "pool").expect("typed");
        assert_eq!(spec.diff(&typed(&existing)), Vec::new());
        existing["properties"]["vmSize"] = json!("Standard_NC48ads_A100_v4");
        existing["properties"]["count"] = json!(3);
        let d = spec.diff(&typed(&existing));
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
