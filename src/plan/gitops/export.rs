//! The live GPU setup of a cluster as a `GpuConfig` (pure): GPU pools (sizes the catalog
//! knows), Registered GPU preview features, and KAITO. Applying the result changes nothing.

use std::collections::BTreeMap;

use serde_json::Value;

use super::config::{ClusterRef, GpuConfig, KaitoConfig, PoolConfig, Zone, API_VERSION, KIND};
use crate::catalog::Catalog;
use crate::plan::agent_pool::SPOT_TAINT;
use crate::plan::cluster::kaito_enabled;

fn strings(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect()).unwrap_or_default()
}

fn map(v: &Value) -> BTreeMap<String, String> {
    v.as_object()
        .map(|o| o.iter().filter_map(|(k, x)| x.as_str().map(|s| (k.clone(), s.to_owned()))).collect())
        .unwrap_or_default()
}

/// One live pool as the file writes it.
pub fn pool(p: &Value) -> PoolConfig {
    let pr = &p["properties"];
    let s = |k: &str| pr[k].as_str().map(str::to_owned);
    let n = |k: &str| pr[k].as_u64().and_then(|x| u32::try_from(x).ok());
    let auto = pr["enableAutoScaling"].as_bool() == Some(true);
    let spot = s("scaleSetPriority").is_some_and(|x| x.eq_ignore_ascii_case("Spot"));
    PoolConfig {
        name: p["name"].as_str().unwrap_or_default().to_owned(),
        vm_size: s("vmSize"),
        count: if auto { None } else { n("count") },
        min_count: if auto { n("minCount") } else { None },
        max_count: if auto { n("maxCount") } else { None },
        os: s("osType").filter(|o| o.eq_ignore_ascii_case("Windows")).map(|_| "windows".to_owned()),
        os_sku: s("osSKU"),
        taints: Some(strings(&pr["nodeTaints"]).into_iter().filter(|t| t != SPOT_TAINT).collect()),
        labels: map(&pr["nodeLabels"]),
        tags: map(&pr["tags"]),
        gpu_driver: pr.pointer("/gpuProfile/driver").and_then(Value::as_str).map(str::to_owned),
        mig_profile: s("gpuInstanceProfile"),
        managed_gpu: pr.pointer("/gpuProfile/nvidia/managementMode").and_then(Value::as_str) == Some("Managed"),
        mig_strategy: pr
            .pointer("/gpuProfile/nvidia/migStrategy")
            .and_then(Value::as_str)
            .filter(|m| !m.eq_ignore_ascii_case("None"))
            .map(str::to_owned),
        mig_profiles: strings(&pr.pointer("/gpuProfile/nvidia/migProfiles").cloned().unwrap_or(Value::Null)),
        spot,
        spot_max_price: if spot { pr["spotMaxPrice"].as_f64() } else { None },
        eviction_policy: if spot { s("scaleSetEvictionPolicy") } else { None },
        zones: strings(&pr["availabilityZones"]).into_iter().map(Zone::Text).collect(),
        max_pods: n("maxPods"),
        os_disk_type: s("osDiskType"),
        ..PoolConfig::default()
    }
}

/// The file for a cluster: `features` are the states of `feature_names` read (only the
/// Registered ones are written).
pub fn export(
    catalog: &Catalog,
    subscription: Option<&str>,
    resource_group: &str,
    cluster_name: &str,
    cluster: &Value,
    pools: &[Value],
    features: &[(&str, Option<String>)],
) -> GpuConfig {
    let mut gpu: Vec<PoolConfig> = pools
        .iter()
        .filter(|p| p.pointer("/properties/vmSize").and_then(Value::as_str).and_then(|s| catalog.size(s)).is_some())
        .map(pool)
        .collect();
    gpu.sort_by(|a, b| a.name.cmp(&b.name));
    GpuConfig {
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
        kaito: Some(KaitoConfig { enabled: kaito_enabled(cluster), workspaces: vec![] }),
        overrides: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn exports_gpu_pools_only_without_the_spot_taint() {
        let catalog = Catalog::bundled().expect("catalog");
        let pools = [
            json!({"name": "system", "properties": {"vmSize": "Standard_D4ds_v5", "count": 2}}),
            json!({"name": "gpu", "properties": {"vmSize": "Standard_NC24ads_A100_v4", "count": 2, "enableAutoScaling": true,
                "minCount": 1, "maxCount": 3, "scaleSetPriority": "Spot", "spotMaxPrice": -1.0, "scaleSetEvictionPolicy": "Delete",
                "nodeTaints": ["sku=gpu:NoSchedule", SPOT_TAINT], "gpuProfile": {"driver": "None"}}}),
        ];
        let f =
            export(&catalog, None, "rg", "c1", &json!({}), &pools, &[("WindowsGPUPreview", Some("Registered".into()))]);
        assert_eq!(f.pools.len(), 1);
        let p = &f.pools[0];
        assert_eq!((p.count, p.min_count, p.max_count), (None, Some(1), Some(3)));
        assert_eq!(p.taints.as_deref(), Some(&["sku=gpu:NoSchedule".to_owned()][..]));
        assert_eq!(p.gpu_driver.as_deref(), Some("None"));
        assert_eq!(f.features, ["WindowsGPUPreview"]);
        assert_eq!(f.kaito.map(|k| k.enabled), Some(false));
    }
}
