//! The exact AgentPool PUT body of a spec.

use super::*;

impl PoolSpec {
    /// The exact AgentPool PUT body.
    pub fn body(&self) -> Value {
        json!({ "properties": self.properties() })
    }

    /// The pool as an agentPools list would show it once created (its name and the body's
    /// properties), for plans that decide over the pools a run will have.
    pub fn as_listed(&self) -> Value {
        json!({ "name": self.name, "properties": self.properties() })
    }

    /// The pool as `as_listed` shows it, read as the agentPools list is read.
    pub fn as_read(
        &self,
    ) -> Result<crate::resources::AsRead<crate::resources::AgentPool>, crate::resources::MissingField> {
        crate::resources::AsRead::parse(self.as_listed(), "agent pool")
    }

    /// The body's `properties`.
    fn properties(&self) -> Value {
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
        Value::Object(p)
    }
}
