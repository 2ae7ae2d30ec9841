//! How an existing pool differs from a spec: the spec's fields against the pool Azure
//! returned (typed), field by field, with the API's defaults for fields Azure left out.

use super::*;
use crate::resources::AgentPool;

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

/// The differences found so far.
#[derive(Default)]
struct Found(Vec<Difference>);

impl Found {
    fn cmp(&mut self, field: &'static str, wanted: Value, existing: Value, immutable: bool) {
        if !same(&wanted, &existing) {
            self.0.push(Difference { field, existing, wanted, immutable });
        }
    }
}

fn sorted(list: &[String], drop: Option<&str>) -> Value {
    let mut v: Vec<&String> = list.iter().filter(|x| Some(x.as_str()) != drop).collect();
    v.sort();
    json!(v)
}

impl PoolSpec {
    /// How an existing pool differs from this spec: (field, existing, wanted, immutable).
    pub fn diff(&self, existing: &AgentPool) -> Vec<Difference> {
        let mut found = Found::default();
        self.diff_immutable(&existing.properties, &mut found);
        self.diff_mutable(&existing.properties, &mut found);
        found.0
    }

    /// Fields fixed once the pool exists.
    fn diff_immutable(&self, have: &crate::resources::AgentPoolProperties, out: &mut Found) {
        out.cmp("vmSize", json!(self.size.name), json!(have.vm_size), true);
        // `osType` left out is the API's default, Linux.
        let os = if self.os == Os::Windows { "Windows" } else { "Linux" };
        out.cmp("osType", json!(os), json!(have.os_type.as_deref().unwrap_or("Linux")), true);
        if let Some(s) = &self.os_sku {
            out.cmp("osSKU", json!(s), json!(have.os_sku), true);
        }
        out.cmp("mode", json!("User"), json!(have.mode), false);
        // `gpuProfile.driver` left out is the API's default, Install.
        let g = have.gpu_profile.as_ref();
        let driver = g.and_then(|g| g.driver.as_deref()).unwrap_or("Install");
        out.cmp("gpuProfile.driver", json!(self.gpu_driver.unwrap_or("Install")), json!(driver), true);
        out.cmp("gpuInstanceProfile", json!(self.mig_profile), json!(have.gpu_instance_profile), true);
        // AKS-managed GPU and managed MIG: fixed at creation (rule managed-gpu-immutable). A
        // field Azure did not send is the spec's default (Unmanaged, None, no profiles).
        let nv = g.and_then(|g| g.nvidia.as_ref());
        let want = self.nvidia.as_ref();
        let mode = want.map_or("Unmanaged", |n| if n.managed { "Managed" } else { "Unmanaged" });
        let had = nv.and_then(|n| n.management_mode.as_deref()).unwrap_or("Unmanaged");
        out.cmp("gpuProfile.nvidia.managementMode", json!(mode), json!(had), true);
        let strategy = want.and_then(|n| n.mig_strategy).unwrap_or("None");
        let had = nv.and_then(|n| n.mig_strategy.as_deref()).unwrap_or("None");
        out.cmp("gpuProfile.nvidia.migStrategy", json!(strategy), json!(had), true);
        let profiles = want.map(|n| n.mig_profiles.clone()).unwrap_or_default();
        let had = nv.and_then(|n| n.mig_profiles.clone()).unwrap_or_default();
        out.cmp("gpuProfile.nvidia.migProfiles", json!(profiles), json!(had), true);
        let prio = if self.spot { "Spot" } else { "Regular" };
        out.cmp("scaleSetPriority", json!(prio), json!(have.scale_set_priority.as_deref().unwrap_or("Regular")), true);
        let zones = have.availability_zones.clone().unwrap_or_default();
        out.cmp("availabilityZones", sorted(&self.zones, None), sorted(&zones, None), true);
        if let Some(m) = self.max_pods {
            out.cmp("maxPods", json!(m), json!(have.max_pods), true);
        }
        if let Some(d) = self.os_disk_type {
            out.cmp("osDiskType", json!(d), json!(have.os_disk_type), true);
        }
    }

    /// Fields an update can change.
    fn diff_mutable(&self, have: &crate::resources::AgentPoolProperties, out: &mut Found) {
        if let Some(v) = &self.kubernetes_version {
            out.cmp("orchestratorVersion", json!(v.to_string()), json!(have.orchestrator_version), false);
        }
        if self.spot {
            // Left out: the API's defaults (Delete, and -1 = up to the on-demand price).
            let evict = have.scale_set_eviction_policy.as_deref().unwrap_or("Delete");
            out.cmp("scaleSetEvictionPolicy", json!(self.eviction_policy.unwrap_or("Delete")), json!(evict), true);
            let price = have.spot_max_price.clone().map_or(json!(-1.0), Value::Number);
            out.cmp("spotMaxPrice", json!(self.spot_max_price.unwrap_or(-1.0)), price, true);
        }
        if !self.tags.is_empty() {
            out.cmp("tags", json!(self.tags), json!(have.tags.clone().unwrap_or_default()), false);
        }
        let auto = have.enable_auto_scaling.unwrap_or(false);
        out.cmp("enableAutoScaling", json!(self.autoscale.is_some()), json!(auto), false);
        if let Some((min, max)) = self.autoscale {
            out.cmp("minCount", json!(min), json!(have.min_count), false);
            out.cmp("maxCount", json!(max), json!(have.max_count), false);
        } else {
            out.cmp("count", json!(self.count), json!(have.count), false);
        }
        let taints = have.node_taints.clone().unwrap_or_default();
        out.cmp("nodeTaints", sorted(&self.taints, Some(SPOT_TAINT)), sorted(&taints, Some(SPOT_TAINT)), false);
        if !self.labels.is_empty() {
            let had = have.node_labels.as_ref();
            let missing = self.labels.iter().any(|(k, v)| had.and_then(|h| h.get(k)) != Some(v));
            if missing {
                out.cmp("nodeLabels", json!(self.labels), json!(have.node_labels), false);
            }
        }
    }
}
