//! Catalog drift (pure): compare the catalog with the live Compute resource SKUs of a
//! location. Reports GPU sizes Azure offers that the catalog lacks, current catalog sizes not
//! offered there, and mismatched vCPU, memory and GPU counts. Some GPU sizes report no `GPUs`
//! capability (and partial GPUs report whole numbers): those GPU counts are not compared.

use crate::catalog::{Catalog, Status};
use crate::resources::compute::ResourceSku;
use serde::Serialize;

/// One mismatched fact.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mismatch {
    pub vm_size: String,
    pub field: &'static str,
    pub catalog: String,
    pub azure: String,
}

/// The drift report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Drift {
    pub location: String,
    /// GPU sizes Azure offers in the location that the catalog does not know.
    pub missing_from_catalog: Vec<String>,
    /// Current catalog sizes Azure does not offer in the location.
    pub not_offered_here: Vec<String>,
    /// Offered, but not to this subscription (Location restriction).
    pub restricted_for_subscription: Vec<String>,
    pub mismatches: Vec<Mismatch>,
    /// Sizes whose GPU count could not be compared (no `GPUs` capability, or partial GPUs).
    pub gpu_count_not_compared: Vec<String>,
    /// True when the catalog should be updated (missing sizes or mismatches).
    pub drift: bool,
}

/// True for an N-series GPU VM size (not the NP FPGA sizes).
pub fn is_gpu_sku(sku: &ResourceSku) -> bool {
    let name = sku.name.as_deref().unwrap_or_default();
    let gpus = sku.capability("GPUs").and_then(|g| g.parse::<f64>().ok()).unwrap_or(0.0);
    sku.resource_type.as_deref() == Some("virtualMachines")
        && !name.is_empty()
        && (gpus > 0.0
            || ["Standard_NC", "Standard_ND", "Standard_NV", "Standard_NG"].iter().any(|p| name.starts_with(p)))
        && !name.starts_with("Standard_NP")
}

/// Compare (`skus` as `resources::compute::skus` reads them: each has its name).
pub fn compare(catalog: &Catalog, location: &str, skus: &[ResourceSku]) -> Drift {
    let gpu: Vec<&ResourceSku> = skus.iter().filter(|s| is_gpu_sku(s)).collect();
    let mut missing = Vec::new();
    let mut restricted = Vec::new();
    let mut mismatches = Vec::new();
    let mut not_compared = Vec::new();
    for sku in &gpu {
        let name = sku.name.as_deref().unwrap_or_default();
        if sku.restrictions.iter().any(|r| r.kind.as_deref() == Some("Location")) {
            restricted.push(name.to_owned());
        }
        let Some(size) = catalog.size(name) else {
            missing.push(name.to_owned());
            continue;
        };
        if let Some(v) = sku.capability("vCPUs").and_then(|v| v.parse::<u32>().ok()) {
            if v != size.vcpus {
                mismatches.push(Mismatch {
                    vm_size: size.name.clone(),
                    field: "vcpus",
                    catalog: size.vcpus.to_string(),
                    azure: v.to_string(),
                });
            }
        }
        if let Some(m) = sku.capability("MemoryGB").and_then(|v| v.parse::<f64>().ok()) {
            if (m - size.memory_gib).abs() > 1.0 {
                mismatches.push(Mismatch {
                    vm_size: size.name.clone(),
                    field: "memory_gib",
                    catalog: size.memory_gib.to_string(),
                    azure: m.to_string(),
                });
            }
        }
        match sku.capability("GPUs").and_then(|v| v.parse::<f64>().ok()) {
            Some(g) if !size.gpu_count.is_partial() => {
                if (g - size.gpu_count.value()).abs() > 1e-9 {
                    mismatches.push(Mismatch {
                        vm_size: size.name.clone(),
                        field: "gpu_count",
                        catalog: size.gpu_count.to_string(),
                        azure: g.to_string(),
                    });
                }
            }
            _ => not_compared.push(size.name.clone()),
        }
    }
    let offered: Vec<String> = gpu.iter().filter_map(|s| s.name.as_deref()).map(str::to_ascii_lowercase).collect();
    let not_offered: Vec<String> = catalog
        .sizes
        .iter()
        .filter(|s| s.status != Status::Retired && !offered.contains(&s.name.to_ascii_lowercase()))
        .map(|s| s.name.clone())
        .collect();
    missing.sort();
    missing.dedup();
    let drift = !missing.is_empty() || !mismatches.is_empty();
    Drift {
        location: location.to_owned(),
        missing_from_catalog: missing,
        not_offered_here: not_offered,
        restricted_for_subscription: restricted,
        mismatches,
        gpu_count_not_compared: not_compared,
        drift,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn sku(name: &str, vcpus: &str, mem: &str, gpus: Option<&str>) -> Value {
        let mut caps = vec![json!({"name": "vCPUs", "value": vcpus}), json!({"name": "MemoryGB", "value": mem})];
        if let Some(g) = gpus {
            caps.push(json!({"name": "GPUs", "value": g}));
        }
        json!({"resourceType": "virtualMachines", "name": name, "capabilities": caps, "restrictions": []})
    }

    #[test]
    fn finds_missing_mismatched_and_uncomparable_sizes() {
        let c = Catalog::bundled().expect("catalog");
        let skus = vec![
            sku("Standard_NC24ads_A100_v4", "24", "220", Some("1")),
            sku("Standard_NC4as_T4_v3", "4", "32", Some("1")),
            sku("Standard_ND96isr_H100_v5", "96", "1900", Some("12")),
            sku("Standard_NV6ads_A10_v5", "6", "55", Some("1")),
            sku("Standard_ND96is_H100_v5", "96", "1900", None),
            sku("Standard_NP10s", "10", "168", None),
            sku("Standard_D4s_v5", "4", "16", None),
        ];
        let skus: Vec<crate::resources::compute::ResourceSku> = crate::resources::parse_listed(&skus).expect("typed");
        let d = compare(&c, "eastus", &skus);
        assert_eq!(d.missing_from_catalog, ["Standard_ND96is_H100_v5"]);
        assert_eq!(
            d.mismatches.iter().map(|m| (m.vm_size.as_str(), m.field)).collect::<Vec<_>>(),
            [("Standard_NC4as_T4_v3", "memory_gib"), ("Standard_ND96isr_H100_v5", "gpu_count")]
        );
        assert_eq!(d.gpu_count_not_compared, ["Standard_NV6ads_A10_v5"]);
        assert!(d.not_offered_here.contains(&"Standard_NC48ads_A100_v4".to_owned()));
        assert!(!d.not_offered_here.contains(&"Standard_NC6s_v3".to_owned()), "retired sizes are not reported");
        assert!(d.drift);
    }
}
