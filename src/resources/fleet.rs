//! The shapes `fleet` and `usage` read, typed with only the fields they use:
//! - a Resource Graph answer (`QueryResponse` of Microsoft.ResourceGraph 2024-04-01,
//!   `specification/resourcegraph/resource-manager/Microsoft.ResourceGraph/stable/2024-04-01/resourcegraph.json`
//!   in Azure/azure-rest-api-specs: `totalRecords`, `count`, `resultTruncated`, `$skipToken`, `data`);
//! - a managed cluster row (the query projects `id`, `name`, `type`, `location`,
//!   `subscriptionId`, `resourceGroup`, `tags` and `properties`, which is the managed cluster as
//!   ARM holds it; the cluster GET answers the same shape);
//! - a subscription of Subscriptions - List (Microsoft.Resources);
//! - a data collection rule association list, a data collection rule (Microsoft.Insights
//!   2022-06-01) and an Azure Monitor workspace (Microsoft.Monitor 2023-04-03);
//! - a Prometheus HTTP API answer (`/api/v1/query_range`, prometheus.io/docs/prometheus/latest/querying/api/).
//!
//! A field a decision needs and Azure did not send is a `MissingField`, never a zero.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::{required, MissingField, PowerState};

/// One page of a Resource Graph query.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct GraphPage {
    #[serde(rename = "totalRecords")]
    pub total_records: Option<u64>,
    pub count: Option<u64>,
    /// `"true"`/`"false"` in the spec (an enum of strings); a boolean is read too.
    #[serde(rename = "resultTruncated")]
    pub result_truncated: Option<Value>,
    #[serde(rename = "$skipToken")]
    pub skip_token: Option<String>,
    pub data: Option<Vec<ClusterRow>>,
}

impl GraphPage {
    /// The rows (`data` as an object array); a page without `data` is an error naming it.
    pub fn rows(&self) -> Result<&[ClusterRow], MissingField> {
        self.data
            .as_deref()
            .ok_or_else(|| MissingField { resource: "Resource Graph answer".into(), field: "data".into() })
    }

    /// True when Resource Graph says it cut the result short.
    pub fn truncated(&self) -> bool {
        match &self.result_truncated {
            Some(Value::Bool(b)) => *b,
            Some(Value::String(s)) => s.eq_ignore_ascii_case("true"),
            _ => false,
        }
    }

    /// The token of the next page, when there is one.
    pub fn next_token(&self) -> Option<&str> {
        self.skip_token.as_deref().map(str::trim).filter(|t| !t.is_empty())
    }
}

/// One managed cluster as the fleet query (or the cluster GET) returns it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterRow {
    pub id: Option<String>,
    pub name: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub location: Option<String>,
    pub subscription_id: Option<String>,
    pub resource_group: Option<String>,
    pub tags: Option<Value>,
    #[serde(default)]
    pub properties: ClusterRowProperties,
}

/// The fields of the managed cluster's `properties` the fleet view reads.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterRowProperties {
    pub provisioning_state: Option<String>,
    pub power_state: Option<PowerState>,
    pub kubernetes_version: Option<String>,
    pub current_kubernetes_version: Option<String>,
    pub agent_pool_profiles: Option<Vec<PoolProfile>>,
    pub azure_monitor_profile: Option<AzureMonitorProfile>,
}

/// `azureMonitorProfile`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct AzureMonitorProfile {
    pub metrics: Option<MonitorMetrics>,
}

/// `azureMonitorProfile.metrics`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct MonitorMetrics {
    pub enabled: Option<bool>,
}

impl ClusterRow {
    fn label(&self) -> String {
        format!("cluster {}", self.name.as_deref().or(self.id.as_deref()).unwrap_or("?"))
    }

    /// The resource id.
    pub fn id(&self) -> Result<String, MissingField> {
        required(&self.id, &self.label(), "id")
    }

    /// The cluster name.
    pub fn name(&self) -> Result<String, MissingField> {
        required(&self.name, &self.label(), "name")
    }

    /// The subscription id, lower case: the row's column, else the id's segment.
    pub fn subscription(&self) -> Result<String, MissingField> {
        self.subscription_id
            .clone()
            .or_else(|| id_segment(self.id.as_deref()?, "subscriptions"))
            .map(|s| s.to_ascii_lowercase())
            .ok_or_else(|| MissingField { resource: self.label(), field: "subscriptionId".into() })
    }

    /// The resource group: the row's column, else the id's segment.
    pub fn resource_group(&self) -> Result<String, MissingField> {
        self.resource_group
            .clone()
            .or_else(|| id_segment(self.id.as_deref()?, "resourcegroups"))
            .ok_or_else(|| MissingField { resource: self.label(), field: "resourceGroup".into() })
    }

    /// The location, lower case without spaces.
    pub fn location(&self) -> Result<String, MissingField> {
        required(&self.location, &self.label(), "location").map(|l| l.replace(' ', "").to_ascii_lowercase())
    }

    /// The agent pools (`properties.agentPoolProfiles`).
    pub fn pools(&self) -> Result<&[PoolProfile], MissingField> {
        self.properties
            .agent_pool_profiles
            .as_deref()
            .ok_or_else(|| MissingField { resource: self.label(), field: "properties.agentPoolProfiles".into() })
    }

    /// `powerState.code`, when Azure sent it.
    pub fn power(&self) -> Option<&str> {
        self.properties.power_state.as_ref()?.code.as_deref()
    }

    /// The control plane's version: `currentKubernetesVersion`, else `kubernetesVersion`.
    pub fn kubernetes_version(&self) -> Option<&str> {
        let p = &self.properties;
        p.current_kubernetes_version.as_deref().or(p.kubernetes_version.as_deref())
    }

    /// `azureMonitorProfile.metrics.enabled` (managed Prometheus), when Azure sent it.
    pub fn metrics_enabled(&self) -> Option<bool> {
        self.properties.azure_monitor_profile.as_ref()?.metrics.as_ref()?.enabled
    }
}

/// The value after `key` in an ARM id (`/subscriptions/{s}/resourceGroups/{g}/…`), ignoring case.
fn id_segment(id: &str, key: &str) -> Option<String> {
    let mut it = id.split('/');
    while let Some(s) = it.next() {
        if s.eq_ignore_ascii_case(key) {
            return it.next().filter(|v| !v.is_empty()).map(str::to_owned);
        }
    }
    None
}

/// One agent pool profile of a managed cluster (`ManagedClusterAgentPoolProfile`), the fields
/// the fleet view shows. The GPU fields are read here (the fleet's own row type), whatever
/// `resources::AgentPool` adds for provisioning.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PoolProfile {
    pub name: Option<String>,
    pub vm_size: Option<String>,
    pub count: Option<u32>,
    pub min_count: Option<u32>,
    pub max_count: Option<u32>,
    pub enable_auto_scaling: Option<bool>,
    pub scale_set_priority: Option<String>,
    pub os_type: Option<String>,
    pub os_sku: Option<String>,
    pub mode: Option<String>,
    pub node_image_version: Option<String>,
    pub orchestrator_version: Option<String>,
    pub current_orchestrator_version: Option<String>,
    pub provisioning_state: Option<String>,
    pub power_state: Option<PowerState>,
    /// MIG profile (`MIG1g`…`MIG7g`).
    pub gpu_instance_profile: Option<String>,
    pub gpu_profile: Option<GpuProfileRow>,
}

/// `gpuProfile` (managedClusters.json 2026-08-01: `driver`, `nvidia.managementMode`; previews
/// add `nvidia.migStrategy` and `nvidia.migProfiles`).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct GpuProfileRow {
    pub driver: Option<String>,
    pub nvidia: Option<NvidiaProfileRow>,
}

/// `gpuProfile.nvidia`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NvidiaProfileRow {
    pub management_mode: Option<String>,
    pub mig_strategy: Option<String>,
    pub mig_profiles: Option<Vec<String>>,
}

impl PoolProfile {
    fn label(&self) -> String {
        format!("agent pool {}", self.name.as_deref().unwrap_or("?"))
    }

    /// The pool name.
    pub fn name(&self) -> Result<String, MissingField> {
        required(&self.name, &self.label(), "name")
    }

    /// The VM size.
    pub fn vm_size(&self) -> Result<String, MissingField> {
        required(&self.vm_size, &self.label(), "vmSize")
    }

    /// True when the autoscaler runs the pool.
    pub fn autoscaling(&self) -> bool {
        self.enable_auto_scaling == Some(true)
    }

    /// True for a spot pool.
    pub fn spot(&self) -> bool {
        self.scale_set_priority.as_deref().is_some_and(|p| p.eq_ignore_ascii_case("Spot"))
    }

    /// True for a Windows pool.
    pub fn windows(&self) -> bool {
        self.os_type.as_deref().is_some_and(|o| o.eq_ignore_ascii_case("Windows"))
    }

    /// `gpuProfile.driver` as sent (Install when absent is AKS's default, but absent stays absent here).
    pub fn gpu_driver(&self) -> Option<&str> {
        self.gpu_profile.as_ref()?.driver.as_deref()
    }

    /// `gpuProfile.nvidia.managementMode` equals Managed (AKS-managed GPU), when sent.
    pub fn managed_gpu(&self) -> Option<bool> {
        let m = self.gpu_profile.as_ref()?.nvidia.as_ref()?.management_mode.as_deref()?;
        Some(m.eq_ignore_ascii_case("Managed"))
    }

    /// The MIG profile: `gpuInstanceProfile`, else the managed MIG profiles joined with `+`.
    pub fn mig_profile(&self) -> Option<String> {
        if let Some(p) = &self.gpu_instance_profile {
            return Some(p.clone());
        }
        let list = self.gpu_profile.as_ref()?.nvidia.as_ref()?.mig_profiles.as_ref()?;
        (!list.is_empty()).then(|| list.join("+"))
    }

    /// The Kubernetes version the pool's nodes run.
    pub fn kubernetes_version(&self) -> Option<&str> {
        self.current_orchestrator_version.as_deref().or(self.orchestrator_version.as_deref())
    }

    /// `powerState.code`, when sent.
    pub fn power(&self) -> Option<&str> {
        self.power_state.as_ref()?.code.as_deref()
    }
}

/// One entry of Subscriptions - List.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionEntry {
    pub subscription_id: Option<String>,
    pub display_name: Option<String>,
    pub state: Option<String>,
}

impl super::Listed for SubscriptionEntry {
    const WHAT: &'static str = "subscription";
}

impl SubscriptionEntry {
    /// The id, lower case.
    pub fn id(&self) -> Result<String, MissingField> {
        required(&self.subscription_id, "subscription", "subscriptionId").map(|s| s.to_ascii_lowercase())
    }
}

/// A data collection rule association list (`{value: [...]}`).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct DcrAssociationList {
    pub value: Option<Vec<DcrAssociation>>,
}

/// One association.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct DcrAssociation {
    pub id: Option<String>,
    #[serde(default)]
    pub properties: DcrAssociationProperties,
}

/// `properties` of an association.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DcrAssociationProperties {
    pub data_collection_rule_id: Option<String>,
}

impl DcrAssociationList {
    /// The rule ids the associations name (an association without one names none: an
    /// endpoint association, for instance).
    pub fn rule_ids(&self) -> Result<Vec<String>, MissingField> {
        let list = self
            .value
            .as_ref()
            .ok_or_else(|| MissingField { resource: "DCR associations".into(), field: "value".into() })?;
        Ok(list.iter().filter_map(|a| a.properties.data_collection_rule_id.clone()).collect())
    }
}

/// A data collection rule: where it sends what it collects.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct DataCollectionRule {
    pub id: Option<String>,
    #[serde(default)]
    pub properties: DcrProperties,
}

/// `properties` of a data collection rule.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct DcrProperties {
    pub destinations: Option<DcrDestinations>,
}

/// `properties.destinations`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DcrDestinations {
    pub monitoring_accounts: Option<Vec<MonitoringAccountDestination>>,
}

/// `properties.destinations.monitoringAccounts[]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MonitoringAccountDestination {
    pub account_resource_id: Option<String>,
}

impl DataCollectionRule {
    /// The Azure Monitor workspaces the rule sends metrics to (none: a rule for logs).
    pub fn account_ids(&self) -> Vec<String> {
        self.properties
            .destinations
            .as_ref()
            .and_then(|d| d.monitoring_accounts.as_ref())
            .map(|a| a.iter().filter_map(|m| m.account_resource_id.clone()).collect())
            .unwrap_or_default()
    }
}

/// An Azure Monitor workspace (`Microsoft.Monitor/accounts`).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct MonitorAccount {
    pub name: Option<String>,
    #[serde(default)]
    pub properties: MonitorAccountProperties,
}

/// `properties` of a workspace.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct MonitorAccountProperties {
    pub metrics: Option<MonitorAccountMetrics>,
}

/// `properties.metrics`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MonitorAccountMetrics {
    pub prometheus_query_endpoint: Option<String>,
}

impl MonitorAccount {
    /// `properties.metrics.prometheusQueryEndpoint`.
    pub fn query_endpoint(&self) -> Result<String, MissingField> {
        let e = self.properties.metrics.as_ref().and_then(|m| m.prometheus_query_endpoint.clone());
        let label = format!("Azure Monitor workspace {}", self.name.as_deref().unwrap_or("?"));
        required(&e, &label, "properties.metrics.prometheusQueryEndpoint")
    }
}

/// A Prometheus HTTP API answer.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromAnswer {
    pub status: Option<String>,
    pub data: Option<PromData>,
    pub error_type: Option<String>,
    pub error: Option<String>,
    pub warnings: Option<Vec<String>>,
}

/// `data` of an answer.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromData {
    pub result_type: Option<String>,
    pub result: Option<Vec<PromSeries>>,
}

/// One series of a range query: its labels and `[unix seconds, "value"]` pairs.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct PromSeries {
    #[serde(default)]
    pub metric: BTreeMap<String, String>,
    pub values: Option<Vec<(f64, String)>>,
}

/// Why a Prometheus answer holds no series to read (the HTTP API's response format).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PromRefusal {
    /// Prometheus answered `status: error` (or no status): its `errorType` and `error`.
    #[error("{}: {}", .kind.as_deref().unwrap_or("error"), .reason.as_deref().unwrap_or("Prometheus gave no reason"))]
    Error { kind: Option<String>, reason: Option<String> },
    /// A field the answer needs is missing.
    #[error("the answer has no {0}")]
    Missing(&'static str),
    /// Not a range query's answer.
    #[error("expected a matrix, got {}", .0.as_deref().unwrap_or("nothing"))]
    NotMatrix(Option<String>),
}

impl PromAnswer {
    /// The series of a successful matrix answer; an error answer is Prometheus's error.
    pub fn series(&self) -> Result<&[PromSeries], PromRefusal> {
        if self.status.as_deref() != Some("success") {
            return Err(PromRefusal::Error { kind: self.error_type.clone(), reason: self.error.clone() });
        }
        let d = self.data.as_ref().ok_or(PromRefusal::Missing("data"))?;
        if d.result_type.as_deref() != Some("matrix") {
            return Err(PromRefusal::NotMatrix(d.result_type.clone()));
        }
        d.result.as_deref().ok_or(PromRefusal::Missing("data.result"))
    }
}

impl PromSeries {
    /// A label's value.
    pub fn label(&self, name: &str) -> Option<&str> {
        self.metric.get(name).map(String::as_str)
    }

    /// The points as numbers (`NaN`, `+Inf` are dropped: no measurement).
    pub fn points(&self) -> Result<Vec<(f64, f64)>, MissingField> {
        let v = self
            .values
            .as_ref()
            .ok_or_else(|| MissingField { resource: "Prometheus series".into(), field: "values".into() })?;
        Ok(v.iter().filter_map(|(t, s)| s.parse::<f64>().ok().filter(|x| x.is_finite()).map(|x| (*t, x))).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Shaped like Microsoft.ResourceGraph's ResourcesFirstPageQuery example answer.
    #[test]
    fn a_graph_page_reads_its_token_and_rows() {
        let p: GraphPage = serde_json::from_value(json!({"totalRecords": 3, "count": 1, "resultTruncated": "false",
            "$skipToken": "tok", "data": [{"id": "/subscriptions/AB/resourceGroups/rg/providers/x/managedClusters/c",
            "name": "c", "location": "East US", "properties": {"agentPoolProfiles": []}}]}))
        .expect("parses");
        assert_eq!(p.next_token(), Some("tok"));
        assert!(!p.truncated());
        let r = &p.rows().expect("rows")[0];
        assert_eq!(r.subscription().as_deref(), Ok("ab"));
        assert_eq!(r.resource_group().as_deref(), Ok("rg"));
        assert_eq!(r.location().as_deref(), Ok("eastus"));
        assert!(r.power().is_none());
        let empty: GraphPage = serde_json::from_value(json!({"resultTruncated": true})).expect("parses");
        assert!(empty.truncated());
        assert_eq!(empty.rows().expect_err("no data").field, "data");
        let bare = ClusterRow::default();
        assert_eq!(bare.pools().expect_err("none").field, "properties.agentPoolProfiles");
    }

    #[test]
    fn pool_gpu_fields_and_the_discovery_chain() {
        let p: PoolProfile = serde_json::from_value(json!({"name": "gpu", "vmSize": "Standard_NC24ads_A100_v4",
            "gpuProfile": {"driver": "None", "nvidia": {"managementMode": "Managed", "migProfiles": ["MIG1g", "MIG2g"]}}}))
        .expect("parses");
        assert_eq!(p.gpu_driver(), Some("None"));
        assert_eq!(p.managed_gpu(), Some(true));
        assert_eq!(p.mig_profile().as_deref(), Some("MIG1g+MIG2g"));
        assert_eq!(PoolProfile::default().vm_size().expect_err("none").field, "vmSize");
        let a: DcrAssociationList = serde_json::from_value(
            json!({"value": [{"properties": {"dataCollectionRuleId": "/r1"}}, {"properties": {}}]}),
        )
        .expect("parses");
        assert_eq!(a.rule_ids().expect("ids"), vec!["/r1".to_owned()]);
        let m: MonitorAccount = serde_json::from_value(json!({"name": "amw"})).expect("parses");
        assert_eq!(m.query_endpoint().expect_err("none").field, "properties.metrics.prometheusQueryEndpoint");
    }

    #[test]
    fn prometheus_answers() {
        let ok: PromAnswer = serde_json::from_value(json!({"status": "success", "data": {"resultType": "matrix",
            "result": [{"metric": {"Hostname": "n"}, "values": [[1.0, "3"], [2.0, "NaN"]]}]}}))
        .expect("parses");
        let s = ok.series().expect("series");
        assert_eq!(s[0].label("Hostname"), Some("n"));
        assert_eq!(s[0].points().expect("points"), vec![(1.0, 3.0)]);
        let bad: PromAnswer =
            serde_json::from_value(json!({"status": "error", "errorType": "bad_data", "error": "parse error"}))
                .expect("parses");
        assert!(bad.series().expect_err("error").to_string().contains("parse error"));
    }
}
