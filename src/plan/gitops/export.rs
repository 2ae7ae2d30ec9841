//! The live GPU setup of a cluster as a `GpuConfig` (pure): GPU pools (sizes the catalog
//! knows), Registered GPU preview features, and KAITO. Applying the result changes nothing.

use crate::resources::ManagedCluster;

use super::config::{ClusterRef, GpuConfig, KaitoConfig, PoolConfig, Zone, API_VERSION, KIND};
use crate::catalog::Catalog;
use crate::plan::agent_pool::SPOT_TAINT;
use crate::resources::{self, AgentPool, MissingField};

/// One live pool as the file writes it; a pool without a name is an error naming it.
pub fn pool(p: &AgentPool) -> Result<PoolConfig, MissingField> {
    let name = resources::required(&p.name, "an agent pool", "name")?;
    let pr = &p.properties;
    let auto = pr.enable_auto_scaling == Some(true);
    let spot = pr.scale_set_priority.as_deref().is_some_and(|x| x.eq_ignore_ascii_case("Spot"));
    let nvidia = pr.gpu_profile.as_ref().and_then(|g| g.nvidia.as_ref());
    Ok(PoolConfig {
        name,
        vm_size: pr.vm_size.clone(),
        count: if auto { None } else { pr.count },
        min_count: if auto { pr.min_count } else { None },
        max_count: if auto { pr.max_count } else { None },
        os: p.is_windows().then(|| "windows".to_owned()),
        os_sku: pr.os_sku.clone(),
        taints: Some(p.taints().iter().filter(|t| *t != SPOT_TAINT).cloned().collect()),
        labels: p.labels(),
        tags: pr.tags.clone().unwrap_or_default(),
        gpu_driver: pr.gpu_profile.as_ref().and_then(|g| g.driver.clone()),
        mig_profile: pr.gpu_instance_profile.clone(),
        managed_gpu: nvidia.and_then(|n| n.management_mode.as_deref()) == Some("Managed"),
        mig_strategy: p.mig_strategy().filter(|m| !m.eq_ignore_ascii_case("None")).map(str::to_owned),
        mig_profiles: p.mig_profiles().map(<[String]>::to_vec).unwrap_or_default(),
        spot,
        spot_max_price: if spot { pr.spot_max_price.as_ref().and_then(serde_json::Number::as_f64) } else { None },
        eviction_policy: if spot { pr.scale_set_eviction_policy.clone() } else { None },
        zones: pr.availability_zones.iter().flatten().cloned().map(Zone::Text).collect(),
        max_pods: pr.max_pods,
        os_disk_type: pr.os_disk_type.clone(),
        ..PoolConfig::default()
    })
}

/// The file for a cluster: `features` are the states of `feature_names` read (only the
/// Registered ones are written).
pub fn export(
    catalog: &Catalog,
    subscription: Option<&str>,
    resource_group: &str,
    cluster_name: &str,
    cluster: &ManagedCluster,
    pools: &[AgentPool],
    features: &[(&str, Option<String>)],
) -> Result<GpuConfig, MissingField> {
    let mut gpu: Vec<PoolConfig> = Vec::new();
    for p in pools {
        if p.properties.vm_size.as_deref().and_then(|s| catalog.size(s)).is_some() {
            gpu.push(pool(p)?);
        }
    }
    gpu.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(GpuConfig {
        api_version: API_VERSION.into(),
        kind: KIND.into(),
        cluster: ClusterRef {
            subscription: subscription.map(str::to_owned),
            resource_group: resource_group.to_owned(),
            name: cluster_name.to_owned(),
        },
        features: features
            .iter()
            .filter(|(_, s)| s.as_deref().is_some_and(|s| s.eq_ignore_ascii_case("Registered")))
            .map(|(n, _)| (*n).to_owned())
            .collect(),
        pools: gpu,
        operator: None,
        kaito: Some(KaitoConfig { enabled: cluster.kaito_enabled(), workspaces: vec![] }),
        overrides: vec![],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn typed(pools: &[serde_json::Value]) -> Vec<AgentPool> {
        resources::parse_listed(pools).expect("pools of the documented shape")
    }

    #[test]
    fn exports_gpu_pools_only_without_the_spot_taint() {
        let catalog = Catalog::bundled().expect("catalog");
        let pools = [
            json!({"name": "system", "properties": {"vmSize": "Standard_D4ds_v5", "count": 2}}),
            json!({"name": "gpu", "properties": {"vmSize": "Standard_NC24ads_A100_v4", "count": 2, "enableAutoScaling": true,
                "minCount": 1, "maxCount": 3, "scaleSetPriority": "Spot", "spotMaxPrice": -1.0, "scaleSetEvictionPolicy": "Delete",
                "nodeTaints": ["sku=gpu:NoSchedule", SPOT_TAINT], "gpuProfile": {"driver": "None"}}}),
        ];
        let f = export(
            &catalog,
            None,
            "rg",
            "c1",
            &ManagedCluster::default(),
            &typed(&pools),
            &[("WindowsGPUPreview", Some("Registered".into()))],
        )
        .expect("typed");
        assert_eq!(f.pools.len(), 1);
        let p = &f.pools[0];
        assert_eq!((p.count, p.min_count, p.max_count), (None, Some(1), Some(3)));
        assert_eq!(p.taints.as_deref(), Some(&["sku=gpu:NoSchedule".to_owned()][..]));
        assert_eq!(p.gpu_driver.as_deref(), Some("None"));
        assert_eq!(f.features, ["WindowsGPUPreview"]);
        assert_eq!(f.kaito.map(|k| k.enabled), Some(false));
    }

    /// A pool Azure sent without a name is not exported as `name: ""`.
    #[test]
    fn a_pool_without_a_name_is_an_error() {
        let catalog = Catalog::bundled().expect("catalog");
        let pools = [json!({"properties": {"vmSize": "Standard_NC24ads_A100_v4", "count": 1}})];
        let e =
            export(&catalog, None, "rg", "c1", &ManagedCluster::default(), &typed(&pools), &[]).expect_err("no name");
        assert_eq!(e.field, "name");
    }
}
