//! The ARM resources aksgpu reads, typed with only the fields it uses (names and shapes from
//! Microsoft's `managedClusters.json` 2026-10-01 and the Features API): `ManagedCluster`,
//! `AgentPool`, an operation status, a preview feature and a runCommand result.
//!
//! Every field is optional as Azure sends it; a field a decision needs is taken with
//! `required`, so a field Azure did not send is an error that names it, never a silent zero.

use serde::Deserialize;
use serde_json::Value;

pub mod auth;
pub mod compute;
pub mod fleet;
pub mod helm;
pub mod hub;
pub mod page;
pub mod price;
pub mod quota;

/// A field a decision needs is missing (or not the type the spec gives).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{resource} has no {field} (Azure did not send it); refusing to guess")]
pub struct MissingField {
    /// "agent pool gpu".
    pub resource: String,
    /// The JSON path, e.g. `properties.count`.
    pub field: std::borrow::Cow<'static, str>,
}

/// Take a needed field or fail naming it.
pub fn required<T: Clone>(v: &Option<T>, resource: &str, field: &'static str) -> Result<T, MissingField> {
    v.clone().ok_or_else(|| MissingField { resource: resource.to_owned(), field: field.into() })
}

/// Parse a resource from JSON: a body of the wrong shape is a `MissingField` on the whole.
pub fn parse<T: for<'de> Deserialize<'de>>(v: &Value, resource: &str) -> Result<T, MissingField> {
    T::deserialize(v)
        .map_err(|_| MissingField { resource: resource.to_owned(), field: "(a body of the documented shape)".into() })
}

/// `provisioningState` of a cluster or pool, as the tool acts on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProvisioningState {
    Succeeded,
    Failed,
    Canceled,
    /// An operation is running on it (Creating, Updating, Scaling, Upgrading, Starting,
    /// Stopping, …): wait for it.
    InProgress(String),
    /// It is being deleted: wait until it is gone, or refuse.
    Deleting,
}

impl ProvisioningState {
    /// From the text Azure sends (case-insensitive). Anything that is not a known terminal
    /// state or Deleting is an operation in progress (the same rule as polling).
    pub fn parse(s: &str) -> Self {
        let t = s.trim();
        match t.to_ascii_lowercase().as_str() {
            "succeeded" => Self::Succeeded,
            "failed" => Self::Failed,
            "canceled" | "cancelled" => Self::Canceled,
            "deleting" => Self::Deleting,
            _ => Self::InProgress(t.to_owned()),
        }
    }
}

/// `properties.status.provisioningError` (ARM's error shape, kept as JSON).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceStatus {
    pub provisioning_error: Option<Value>,
}

/// An agent pool (`AgentPool` in the spec).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct AgentPool {
    pub id: Option<String>,
    pub name: Option<String>,
    #[serde(default)]
    pub properties: AgentPoolProperties,
}

/// The fields of `ManagedClusterAgentPoolProfileProperties` the tool reads.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentPoolProperties {
    pub provisioning_state: Option<String>,
    pub count: Option<u32>,
    pub min_count: Option<u32>,
    pub max_count: Option<u32>,
    pub enable_auto_scaling: Option<bool>,
    pub vm_size: Option<String>,
    pub os_type: Option<String>,
    /// `osSKU` (the spec's spelling).
    #[serde(rename = "osSKU", alias = "osSku")]
    pub os_sku: Option<String>,
    pub scale_set_priority: Option<String>,
    pub status: Option<ResourceStatus>,
    pub gpu_profile: Option<GpuProfile>,
    pub gpu_instance_profile: Option<String>,
    pub node_labels: Option<std::collections::BTreeMap<String, String>>,
    pub node_taints: Option<Vec<String>>,
    pub node_image_version: Option<String>,
    pub mode: Option<String>,
    pub availability_zones: Option<Vec<String>>,
    pub max_pods: Option<u32>,
    pub os_disk_type: Option<String>,
    pub orchestrator_version: Option<String>,
    pub scale_set_eviction_policy: Option<String>,
    /// A number as Azure sent it (`-1` or `-1.0`), kept so it is shown as sent.
    pub spot_max_price: Option<serde_json::Number>,
    pub tags: Option<std::collections::BTreeMap<String, String>>,
    pub scale_down_mode: Option<String>,
}

/// `gpuProfile` of an agent pool (`GPUProfile` in the spec).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct GpuProfile {
    /// `Install` or `None`; the spec: "When it's not specified, default is Install."
    pub driver: Option<String>,
    /// NVIDIA-specific settings (`NvidiaGPUProfile`, 2026-08-01 and the previews).
    pub nvidia: Option<NvidiaGpuProfile>,
}

/// `gpuProfile.nvidia` (`NvidiaGPUProfile` in the spec).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NvidiaGpuProfile {
    /// `Managed` or `Unmanaged`.
    pub management_mode: Option<String>,
    /// `None`, `Single` or `Mixed` (previews only).
    pub mig_strategy: Option<String>,
    /// MIG partition profiles (`MIG1g` …), previews only.
    pub mig_profiles: Option<Vec<String>>,
}

/// Who installs a GPU pool's driver, as the pool says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PoolDriver {
    /// AKS installs the driver only (`gpuProfile.driver` Install, or left out: the spec's default).
    Aks,
    /// AKS installs and manages the whole NVIDIA stack (`nvidia.managementMode: Managed`).
    Managed,
    /// No driver from AKS (`gpuProfile.driver: None`): the GPU Operator or the user installs one.
    None,
}

impl AgentPool {
    /// "agent pool gpu", for messages.
    pub fn label(&self) -> String {
        format!("agent pool {}", self.name.as_deref().unwrap_or("?"))
    }

    /// The pool's state; a pool without one is an error naming the field.
    pub fn state(&self) -> Result<ProvisioningState, MissingField> {
        required(&self.properties.provisioning_state, &self.label(), "properties.provisioningState")
            .map(|s| ProvisioningState::parse(&s))
    }

    /// The node counts (min, max): the autoscaler's range, or `count` twice. Each needed
    /// count must be there.
    pub fn node_range(&self) -> Result<(u32, u32), MissingField> {
        let p = &self.properties;
        if p.enable_auto_scaling == Some(true) {
            let min = required(&p.min_count, &self.label(), "properties.minCount")?;
            let max = required(&p.max_count, &self.label(), "properties.maxCount")?;
            return Ok((min, max));
        }
        let n = required(&p.count, &self.label(), "properties.count")?;
        Ok((n, n))
    }

    /// The node count (`count`); a pool without one is an error naming it.
    pub fn count(&self) -> Result<u32, MissingField> {
        required(&self.properties.count, &self.label(), "properties.count")
    }

    /// The pool uses the cluster autoscaler (`enableAutoScaling: true`). Left out reads as off
    /// (the spec states no default): a fixed count sent to a pool that is autoscaled after all
    /// is refused by Azure, and the PUT carries the field as read, so reading it as off fails safe.
    pub fn autoscaled(&self) -> bool {
        self.properties.enable_auto_scaling == Some(true)
    }

    /// The counts a scale sets (`count`, `minCount`, `maxCount`, `enableAutoScaling`), as
    /// sent: to compare a pool read back with the body that scaled it.
    pub fn counts(&self) -> (Option<u32>, Option<u32>, Option<u32>, Option<bool>) {
        let p = &self.properties;
        (p.count, p.min_count, p.max_count, p.enable_auto_scaling)
    }

    /// Who installs the driver: `gpuProfile.driver` (the spec's default, Install, when Azure
    /// sent none) and `gpuProfile.nvidia.managementMode`.
    pub fn driver(&self) -> PoolDriver {
        let g = self.properties.gpu_profile.as_ref();
        let managed = g
            .and_then(|g| g.nvidia.as_ref())
            .and_then(|n| n.management_mode.as_deref())
            .is_some_and(|m| m.eq_ignore_ascii_case("Managed"));
        let none = g.and_then(|g| g.driver.as_deref()).is_some_and(|d| d.eq_ignore_ascii_case("None"));
        match (managed, none) {
            (true, _) => PoolDriver::Managed,
            (false, true) => PoolDriver::None,
            (false, false) => PoolDriver::Aks,
        }
    }

    /// `gpuProfile.nvidia.migStrategy` when Azure sent it.
    pub fn mig_strategy(&self) -> Option<&str> {
        self.properties.gpu_profile.as_ref()?.nvidia.as_ref()?.mig_strategy.as_deref()
    }

    /// `gpuProfile.nvidia.migProfiles` when Azure sent it.
    pub fn mig_profiles(&self) -> Option<&[String]> {
        self.properties.gpu_profile.as_ref()?.nvidia.as_ref()?.mig_profiles.as_deref()
    }

    /// The pool's node labels (none sent: none).
    pub fn labels(&self) -> std::collections::BTreeMap<String, String> {
        self.properties.node_labels.clone().unwrap_or_default()
    }

    /// The pool's node taints (none sent: none).
    pub fn taints(&self) -> &[String] {
        self.properties.node_taints.as_deref().unwrap_or_default()
    }

    /// Whether the pool runs on spot VMs (`scaleSetPriority`, case ignored).
    pub fn is_spot(&self) -> bool {
        self.properties.scale_set_priority.as_deref().is_some_and(|s| s.eq_ignore_ascii_case("Spot"))
    }

    /// Whether the pool runs Windows (`osType`).
    pub fn is_windows(&self) -> bool {
        self.properties.os_type.as_deref().is_some_and(|o| o.eq_ignore_ascii_case("Windows"))
    }

    /// The node image version (`nodeImageVersion`); a decision that needs it fails naming it.
    pub fn node_image_version(&self) -> Result<String, MissingField> {
        required(&self.properties.node_image_version, &self.label(), "properties.nodeImageVersion")
    }

    /// Azure's error for a Failed pool, as "Code: message", when it sent one.
    pub fn provisioning_error(&self) -> Option<String> {
        let e = self.properties.status.as_ref()?.provisioning_error.as_ref()?;
        let e = e.get("error").unwrap_or(e);
        let code = e.get("code").and_then(Value::as_str).unwrap_or("");
        let message = e.get("message").and_then(Value::as_str).unwrap_or("");
        (!code.is_empty() || !message.is_empty()).then(|| format!("{code}: {message}"))
    }
}

/// A managed cluster (`ManagedCluster` in the spec), the fields the tool reads.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ManagedCluster {
    pub name: Option<String>,
    pub location: Option<String>,
    pub sku: Option<ManagedClusterSku>,
    #[serde(default)]
    pub properties: ManagedClusterProperties,
}

/// `sku` of a cluster (`ManagedClusterSKU`).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ManagedClusterSku {
    /// Free, Standard or Premium; the spec: "If not specified, the default is 'Free'".
    pub tier: Option<String>,
}

/// A profile whose `enabled` the tool reads (`aiToolchainOperatorProfile`,
/// `oidcIssuerProfile`, `metricsProfile.costAnalysis`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Enabled {
    pub enabled: Option<bool>,
    /// `oidcIssuerProfile.issuerURL`.
    #[serde(rename = "issuerURL")]
    pub issuer_url: Option<String>,
}

/// `metricsProfile` of a cluster.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MetricsProfile {
    pub cost_analysis: Option<Enabled>,
}

/// `apiServerAccessProfile` of a cluster.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiServerAccessProfile {
    pub disable_run_command: Option<bool>,
}

/// `aadProfile` of a cluster.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct AadProfile {
    pub managed: Option<bool>,
}

/// The fields of `ManagedClusterProperties` the tool reads.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ManagedClusterProperties {
    pub provisioning_state: Option<String>,
    pub power_state: Option<PowerState>,
    pub kubernetes_version: Option<String>,
    pub current_kubernetes_version: Option<String>,
    pub ai_toolchain_operator_profile: Option<Enabled>,
    pub oidc_issuer_profile: Option<Enabled>,
    pub metrics_profile: Option<MetricsProfile>,
    pub api_server_access_profile: Option<ApiServerAccessProfile>,
    pub aad_profile: Option<AadProfile>,
}

/// `powerState`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct PowerState {
    pub code: Option<String>,
}

impl ManagedCluster {
    fn label(&self) -> String {
        format!("cluster {}", self.name.as_deref().unwrap_or("?"))
    }

    /// The location, lower case without spaces ("East US" → "eastus").
    pub fn location(&self) -> Result<String, MissingField> {
        required(&self.location, &self.label(), "location").map(|l| l.replace(' ', "").to_ascii_lowercase())
    }

    /// `powerState.code` (Running or Stopped); a cluster without one is an error naming it.
    pub fn power(&self) -> Result<String, MissingField> {
        let code = self.properties.power_state.as_ref().and_then(|p| p.code.clone());
        required(&code, &self.label(), "properties.powerState.code")
    }

    /// KAITO (the AI toolchain operator) and the OIDC issuer are both on (each only when
    /// Azure says `enabled: true`).
    pub fn kaito_enabled(&self) -> bool {
        let p = &self.properties;
        let on = |e: &Option<Enabled>| e.as_ref().and_then(|e| e.enabled) == Some(true);
        on(&p.ai_toolchain_operator_profile) && on(&p.oidc_issuer_profile)
    }

    /// Cost analysis is on (only when Azure says `enabled: true`).
    pub fn cost_analysis_enabled(&self) -> bool {
        let m = self.properties.metrics_profile.as_ref();
        m.and_then(|m| m.cost_analysis.as_ref()).and_then(|c| c.enabled) == Some(true)
    }

    /// The Kubernetes version the control plane runs: `currentKubernetesVersion`, else the
    /// requested `kubernetesVersion`.
    pub fn kubernetes_version(&self) -> Option<&str> {
        let p = &self.properties;
        p.current_kubernetes_version.as_deref().or(p.kubernetes_version.as_deref())
    }
}

/// Any ARM resource the tool waits on, read for its state only: `properties.provisioningState`
/// and a failure's `properties.status.provisioningError` (`ManagedCluster` and `AgentPool` in
/// Microsoft's `managedClusters.json` 2026-10-01), or the body a `Location` URL answers with,
/// which may be an operation status (`status`; "Track asynchronous Azure operations",
/// learn.microsoft.com/azure/azure-resource-manager/management/async-operations).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ResourceState {
    /// An operation status's `status`, kept as sent: a resource may have a `status` of its own,
    /// of another type, which is then no operation status.
    status: Option<Value>,
    /// An operation status's `error` (ARM's error shape).
    error: Option<Value>,
    /// A cluster's `eTag` (`ManagedCluster.eTag`).
    #[serde(rename = "eTag")]
    e_tag: Option<String>,
    properties: Option<StateProperties>,
}

/// The `properties` of [`ResourceState`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StateProperties {
    provisioning_state: Option<String>,
    /// A pool's `eTag` (`ManagedClusterAgentPoolProfileProperties.eTag`).
    #[serde(rename = "eTag")]
    e_tag: Option<String>,
    /// `ResourceStatus` for clusters and pools; kept as sent, as other resources may have a
    /// `properties.status` of another shape (then no provisioning error is read from it).
    status: Option<Value>,
}

impl ResourceState {
    /// The state of a body: an empty answer (`null`) has none; a body that is not an object, or
    /// whose `properties.provisioningState` is not text, is of another shape (an error).
    pub fn read(v: &Value) -> Result<Self, MissingField> {
        if v.is_null() {
            return Ok(Self::default());
        }
        parse(v, "resource")
    }

    /// `properties.provisioningState`, when Azure sent it.
    pub fn provisioning_state(&self) -> Option<&str> {
        self.properties.as_ref()?.provisioning_state.as_deref()
    }

    /// The resource's eTag, for `If-Match`: `eTag` (a cluster), else `properties.eTag` (a
    /// pool); none when Azure sent none.
    pub fn e_tag(&self) -> Option<&str> {
        self.e_tag.as_deref().or_else(|| self.properties.as_ref()?.e_tag.as_deref())
    }

    /// An operation status's `status` (text), when the body is one.
    pub fn status(&self) -> Option<&str> {
        self.status.as_ref()?.as_str()
    }

    /// An operation status's `error` (ARM's error shape), when Azure sent it.
    pub fn error(&self) -> Option<&Value> {
        self.error.as_ref()
    }

    /// `properties.status.provisioningError` (ARM's error shape), when Azure sent it.
    pub fn provisioning_error(&self) -> Option<&Value> {
        self.properties.as_ref()?.status.as_ref()?.get("provisioningError")
    }
}

/// An async operation's status (`Azure-AsyncOperation` body).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct OperationStatus {
    pub status: Option<String>,
    pub error: Option<Value>,
}

/// A resource provider (`Microsoft.Resources` `Provider`): its `registrationState`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Provider {
    pub registration_state: Option<String>,
}

/// A resource Azure lists (an item of an ARM list page): what messages call it, and the fields
/// an item must carry to be used at all.
pub trait Listed: serde::de::DeserializeOwned {
    /// "agent pool", "resource SKU".
    const WHAT: &'static str;

    /// The fields every item must carry; an item without one is an error naming it.
    fn check(&self) -> Result<(), MissingField> {
        Ok(())
    }
}

/// A resource with a `name` (ARM names compare ignoring case).
pub trait Named {
    fn name(&self) -> Option<&str>;
}

/// Find the resource named `name` in a list (ARM names are case-insensitive).
pub fn find_named<'a, T: Named>(list: &'a [T], name: &str) -> Option<&'a T> {
    list.iter().find(|v| v.name().is_some_and(|n| n.eq_ignore_ascii_case(name)))
}

impl Named for Value {
    fn name(&self) -> Option<&str> {
        self.get("name").and_then(Value::as_str)
    }
}

impl Named for AgentPool {
    fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }
}

impl Listed for AgentPool {
    const WHAT: &'static str = "agent pool";
}

/// A resource as Azure sent it: read typed (`item`), with its JSON kept only for a write that
/// sends it back (fields this tool does not know must round-trip) or to show it as read.
#[derive(Debug, Clone, Default)]
pub struct AsRead<T> {
    pub item: T,
    pub json: Value,
}

impl<T: serde::de::DeserializeOwned> AsRead<T> {
    /// Read `json` as `T`, keeping it; a body of another shape is an error naming the field.
    pub fn parse(json: Value, resource: &str) -> Result<Self, MissingField> {
        Ok(AsRead { item: parse_item(&json, resource)?, json })
    }
}

impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for AsRead<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let json = Value::deserialize(d)?;
        let item = T::deserialize(&json).map_err(serde::de::Error::custom)?;
        Ok(AsRead { item, json })
    }
}

impl<T> std::ops::Deref for AsRead<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.item
    }
}

impl<T: Named> Named for AsRead<T> {
    fn name(&self) -> Option<&str> {
        self.item.name()
    }
}

impl<T: Listed> Listed for AsRead<T> {
    const WHAT: &'static str = T::WHAT;
    fn check(&self) -> Result<(), MissingField> {
        self.item.check()
    }
}

/// Parse one resource; a body of the wrong shape is an error naming the resource (with its
/// `name`, when it has one) and the field of the wrong type. Every field the tool reads is
/// optional, so that field is found by leaving fields out, one at a time, until the body parses.
pub fn parse_item<T: serde::de::DeserializeOwned>(v: &Value, resource: &str) -> Result<T, MissingField> {
    T::deserialize(v).map_err(|_| {
        let label = match v.get("name").and_then(Value::as_str) {
            Some(n) => format!("{resource} {n}"),
            None => resource.to_owned(),
        };
        let field = culprit::<T>(v, &[]).unwrap_or_else(|| "(a body of the documented shape)".into());
        MissingField { resource: label, field: format!("{field} of the documented type").into() }
    })
}

/// Parse the items of a list, in order: an item of the wrong shape, or without a field every
/// item must carry, is an error naming it (never skipped).
pub fn parse_listed<T: Listed>(items: &[Value]) -> Result<Vec<T>, MissingField> {
    items
        .iter()
        .map(|v| {
            let t: T = parse_item(v, T::WHAT)?;
            t.check()?;
            Ok(t)
        })
        .collect()
}

/// The path (`properties.count`, `locationInfo[0].zones`) under `at` whose removal lets `root`
/// parse as `T`: the deepest such field, or `None` when removing no single one helps.
fn culprit<T: serde::de::DeserializeOwned>(root: &Value, at: &[PathPart]) -> Option<String> {
    let here = at.iter().try_fold(root, |v, p| match p {
        PathPart::Key(k) => v.get(k),
        PathPart::Index(i) => v.get(i),
    })?;
    let parts: Vec<PathPart> = match here {
        Value::Object(m) => m.keys().cloned().map(PathPart::Key).collect(),
        Value::Array(a) => (0..a.len()).map(PathPart::Index).collect(),
        _ => return None,
    };
    for part in parts {
        let mut without = root.clone();
        let slot = at.iter().try_fold(&mut without, |v, p| match p {
            PathPart::Key(k) => v.get_mut(k),
            PathPart::Index(i) => v.get_mut(i),
        })?;
        match (slot, &part) {
            (Value::Object(m), PathPart::Key(k)) => drop(m.remove(k)),
            (Value::Array(a), PathPart::Index(i)) => drop(a.remove(*i)),
            _ => return None,
        }
        if T::deserialize(&without).is_ok() {
            let mut path = at.to_vec();
            path.push(part);
            return Some(culprit::<T>(root, &path).unwrap_or_else(|| dotted(&path)));
        }
    }
    None
}

#[derive(Debug, Clone)]
enum PathPart {
    Key(String),
    Index(usize),
}

fn dotted(path: &[PathPart]) -> String {
    let mut out = String::new();
    for p in path {
        match p {
            PathPart::Key(k) if out.is_empty() => out.push_str(k),
            PathPart::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            PathPart::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// A preview feature (`Microsoft.Features/providers/.../features/{name}`).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Feature {
    pub name: Option<String>,
    #[serde(default)]
    pub properties: FeatureProperties,
}

/// `properties` of a feature.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct FeatureProperties {
    pub state: Option<String>,
}

/// A runCommand result (`RunCommandResult` in the spec).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct RunCommandResult {
    #[serde(default)]
    pub properties: RunCommandResultProperties,
}

impl RunCommandResult {
    /// A result as Azure sends it, with or without the `properties` wrapper; a body of
    /// another shape is an error.
    pub fn from_value(v: &Value) -> Result<Self, MissingField> {
        if v.get("properties").is_some() {
            parse(v, "runCommand result")
        } else {
            Ok(Self { properties: parse(v, "runCommand result")? })
        }
    }
}

/// `properties` of a runCommand result.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunCommandResultProperties {
    pub provisioning_state: Option<String>,
    pub exit_code: Option<i64>,
    pub logs: Option<String>,
    pub reason: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A listed item of another shape names the item and the deepest field of the wrong type.
    #[test]
    fn a_listed_item_of_another_shape_names_its_field() {
        let listed = [
            json!({"name": "Standard_A", "resourceType": "virtualMachines"}),
            json!({"name": "Standard_B", "locationInfo": [{"location": "eastus", "zones": "1"}]}),
        ];
        let e = parse_listed::<compute::ResourceSku>(&listed).expect_err("zones is not a list");
        assert_eq!(
            (e.resource.as_str(), e.field.as_ref()),
            ("a resource SKU Standard_B", "locationInfo[0].zones of the documented type")
        );
        let e = parse_listed::<compute::ResourceSku>(&[json!({"resourceType": "disks"})]).expect_err("no name");
        assert_eq!(e.field, "name");
        let pool: AsRead<AgentPool> = AsRead::parse(json!({"name": "gpu", "x": 1}), "agent pool").expect("a pool");
        assert_eq!((pool.name.as_deref(), &pool.json["x"]), (Some("gpu"), &json!(1)), "unknown fields are kept");
    }

    /// A pool without `count` has no node range: the error names the field (it used to cost $0).
    #[test]
    fn a_missing_count_is_an_error_naming_the_field() {
        let p: AgentPool = parse(&json!({"name": "gpu", "properties": {"vmSize": "Standard_NC24ads_A100_v4"}}), "pool")
            .expect("parses");
        let e = p.node_range().expect_err("no count");
        assert_eq!(e.field, "properties.count");
        assert!(e.to_string().contains("agent pool gpu has no properties.count"), "{e}");
        let auto: AgentPool =
            parse(&json!({"name": "gpu", "properties": {"enableAutoScaling": true, "minCount": 1}}), "pool")
                .expect("ok");
        assert_eq!(auto.node_range().expect_err("no max").field, "properties.maxCount");
        let ok: AgentPool = parse(&json!({"name": "gpu", "properties": {"count": 0}}), "pool").expect("ok");
        assert_eq!(ok.node_range(), Ok((0, 0)));
        assert_eq!(ok.state().expect_err("no state").field, "properties.provisioningState");
    }

    #[test]
    fn provisioning_states_sort_into_what_the_tool_does() {
        assert_eq!(ProvisioningState::parse("succeeded"), ProvisioningState::Succeeded);
        assert_eq!(ProvisioningState::parse("Failed"), ProvisioningState::Failed);
        assert_eq!(ProvisioningState::parse("Cancelled"), ProvisioningState::Canceled);
        assert_eq!(ProvisioningState::parse("Deleting"), ProvisioningState::Deleting);
        for s in ["Creating", "Updating", "Scaling", "Upgrading", "Starting", "Stopping"] {
            assert_eq!(ProvisioningState::parse(s), ProvisioningState::InProgress(s.into()));
        }
    }

    /// Shaped like Microsoft's AgentPoolsGet example with a provisioning error.
    #[test]
    fn a_failed_pool_carries_azures_error() {
        let p: AgentPool = parse(
            &json!({"name": "gpu", "properties": {"provisioningState": "Failed", "count": 1,
                "status": {"provisioningError": {"code": "ZonalAllocationFailed", "message": "no capacity"}}}}),
            "pool",
        )
        .expect("ok");
        assert_eq!(p.state(), Ok(ProvisioningState::Failed));
        assert_eq!(p.provisioning_error().as_deref(), Some("ZonalAllocationFailed: no capacity"));
    }

    #[test]
    fn cluster_facts() {
        let c: ManagedCluster = parse(
            &json!({"name": "c1", "location": "North Europe", "properties": {"kubernetesVersion": "1.33",
                "currentKubernetesVersion": "1.33.2", "powerState": {"code": "Stopped"}}}),
            "cluster",
        )
        .expect("ok");
        assert_eq!(c.location().as_deref(), Ok("northeurope"));
        assert_eq!(c.power().as_deref(), Ok("Stopped"));
        assert_eq!(c.kubernetes_version(), Some("1.33.2"));
        let bare: ManagedCluster = parse(&json!({"name": "c1"}), "cluster").expect("ok");
        assert_eq!(bare.power().expect_err("none").field, "properties.powerState.code");
        assert_eq!(bare.location().expect_err("none").field, "location");
    }
}
