//! Microsoft.Compute answers the tool reads: usages (`Usage` in Microsoft's
//! `computeRPCommon.json`, 2025-04-01, where `name`, `limit` and `currentValue` are required),
//! resource SKUs (`ResourceSku` in `skus.json`, 2021-07-01) and capacity reservation groups
//! and reservations (`capacityReservation.json`, 2025-04-01).

use serde::Deserialize;
use serde_json::Value;

use super::MissingField;

/// One vCPU usage counter as Azure lists it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    pub name: Option<UsageName>,
    pub limit: Option<i64>,
    pub current_value: Option<i64>,
}

/// `name` of a usage: the quota resource id and its display name.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageName {
    pub value: Option<String>,
    pub localized_value: Option<String>,
}

/// A usage counter whose needed fields Azure sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counter {
    /// The quota resource name (`standardNCADSA100v4Family`, `cores`).
    pub name: String,
    /// What Azure calls it for people (the name when Azure sent no display name: a label only).
    pub display: String,
    pub limit: i64,
    pub used: i64,
}

fn norm(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase()
}

impl Usage {
    /// `name.value`, when Azure sent it.
    pub fn id(&self) -> Option<&str> {
        self.name.as_ref()?.value.as_deref()
    }

    /// The counter's numbers. A usage without `currentValue` is an error naming it: counting it
    /// as 0 used would make the whole limit look free.
    pub fn counter(&self) -> Result<Counter, MissingField> {
        let name = super::required(&self.id().map(str::to_owned), "a usage", "name.value")?;
        let label = format!("usage {name}");
        let limit = super::required(&self.limit, &label, "limit")?;
        let used = super::required(&self.current_value, &label, "currentValue")?;
        let display = self.name.as_ref().and_then(|n| n.localized_value.clone()).unwrap_or_else(|| name.clone());
        Ok(Counter { name, display, limit, used })
    }
}

/// The counter named `name` (spaces and case ignored) among the usages Azure listed: `None`
/// when Azure listed no such counter, an error when it listed one without its numbers or a
/// usage of the wrong shape.
/// A usage without `name.value` is an error naming it (never passed over).
pub fn find_usage(usages: &[Usage], name: &str) -> Result<Option<Counter>, MissingField> {
    let want = norm(name);
    for u in usages {
        let id = super::required(&u.id().map(str::to_owned), "a usage", "name.value")?;
        if norm(&id) == want {
            return u.counter().map(Some);
        }
    }
    Ok(None)
}

/// A usage without `name.value` (required by the spec) is an error naming it: the counter it
/// holds cannot be told from the others.
impl super::Listed for Usage {
    const WHAT: &'static str = "a usage";
    fn check(&self) -> Result<(), MissingField> {
        super::required(&self.id().map(str::to_owned), Self::WHAT, "name.value").map(|_| ())
    }
}

/// One resource SKU (`ResourceSku`), the fields the tool reads.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceSku {
    pub resource_type: Option<String>,
    pub name: Option<String>,
    pub family: Option<String>,
    #[serde(default)]
    pub location_info: Vec<SkuLocationInfo>,
    #[serde(default)]
    pub restrictions: Vec<SkuRestriction>,
    #[serde(default)]
    pub capabilities: Vec<SkuCapability>,
}

/// `locationInfo[]` of a SKU.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SkuLocationInfo {
    pub location: Option<String>,
    #[serde(default)]
    pub zones: Vec<String>,
}

/// `restrictions[]` of a SKU: `type` Location or Zone, and where.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SkuRestriction {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub reason_code: Option<String>,
    pub restriction_info: Option<SkuRestrictionInfo>,
}

/// `restrictionInfo` of a restriction.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SkuRestrictionInfo {
    #[serde(default)]
    pub zones: Vec<String>,
}

/// `capabilities[]` of a SKU (name and value, both text).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SkuCapability {
    pub name: Option<String>,
    pub value: Option<String>,
}

impl ResourceSku {
    /// A virtual machine SKU named `size` (case ignored).
    pub fn is_vm(&self, size: &str) -> bool {
        self.resource_type.as_deref() == Some("virtualMachines")
            && self.name.as_deref().is_some_and(|n| n.eq_ignore_ascii_case(size))
    }

    /// A capability's value, when listed.
    pub fn capability(&self, name: &str) -> Option<&str> {
        self.capabilities.iter().find(|c| c.name.as_deref() == Some(name))?.value.as_deref()
    }

    /// The zones the SKU lists for `location` (case ignored).
    pub fn zones_in(&self, location: &str) -> Vec<String> {
        self.location_info
            .iter()
            .filter(|li| li.location.as_deref().is_some_and(|l| l.eq_ignore_ascii_case(location)))
            .flat_map(|li| li.zones.iter().cloned())
            .collect()
    }
}

/// A SKU of another shape, or without its `name`, is an error naming it.
impl super::Listed for ResourceSku {
    const WHAT: &'static str = "a resource SKU";
    fn check(&self) -> Result<(), MissingField> {
        super::required(&self.name, Self::WHAT, "name").map(|_| ())
    }
}

impl super::Listed for CapacityReservation {
    const WHAT: &'static str = "capacity reservation";
}

/// A capacity reservation group read with `$expand=instanceView`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ReservationGroup {
    pub location: Option<String>,
    #[serde(default)]
    pub properties: ReservationGroupProperties,
}

/// `properties` of a reservation group.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReservationGroupProperties {
    pub instance_view: Option<ReservationGroupView>,
}

/// `instanceView` of a reservation group.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReservationGroupView {
    #[serde(default)]
    pub capacity_reservations: Vec<ReservationView>,
}

/// One reservation's instance view: how much is reserved and what is allocated.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReservationView {
    pub name: Option<String>,
    pub utilization_info: Option<Utilization>,
}

/// `utilizationInfo` of a reservation.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Utilization {
    pub current_capacity: Option<u64>,
    #[serde(default)]
    pub virtual_machines_allocated: Vec<Value>,
}

/// A capacity reservation (`CapacityReservation`): its name and reserved `sku`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct CapacityReservation {
    pub name: Option<String>,
    pub sku: Option<ReservedSku>,
}

/// `sku` of a reservation: the size and how many are reserved.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ReservedSku {
    pub name: Option<String>,
    pub capacity: Option<u64>,
}

impl CapacityReservation {
    /// The reserved size, when Azure sent it.
    pub fn size(&self) -> Option<&str> {
        self.sku.as_ref()?.name.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Shaped like Microsoft's Usage_List example.
    #[test]
    fn a_usage_without_current_value_is_missing_not_free() {
        let listed: Vec<Usage> = crate::resources::parse_listed(&[
            json!({"name": {"value": "cores", "localizedValue": "Total Regional vCPUs"}, "limit": 100, "currentValue": 10, "unit": "Count"}),
            json!({"name": {"value": "standardNCADSA100v4Family"}, "limit": 96, "unit": "Count"}),
        ])
        .expect("usages");
        let c = find_usage(&listed, "Cores").expect("typed").expect("listed");
        assert_eq!((c.limit, c.used, c.display.as_str()), (100, 10, "Total Regional vCPUs"));
        let e = find_usage(&listed, "standardNCADSA100v4Family").expect_err("no currentValue");
        assert_eq!(e.field, "currentValue");
        assert!(e.to_string().contains("usage standardNCADSA100v4Family has no currentValue"), "{e}");
        assert_eq!(find_usage(&listed, "lowPriorityCores"), Ok(None));
    }

    /// `name` is required on a usage (`Usage` in `computeRPCommon.json`): an item without
    /// `name.value` is an error naming it, never passed over while looking for a counter.
    #[test]
    fn a_usage_without_a_name_is_an_error_not_passed_over() {
        let nameless = json!({"name": {"localizedValue": "Standard NCADS_A100_v4 Family vCPUs"}, "limit": 96, "currentValue": 0, "unit": "Count"});
        let cores = json!({"name": {"value": "cores"}, "limit": 100, "currentValue": 10, "unit": "Count"});
        let e = crate::resources::parse_listed::<Usage>(&[nameless.clone(), cores.clone()]).expect_err("no name.value");
        assert_eq!(e.field, "name.value");
        assert!(e.to_string().contains("a usage has no name.value"), "{e}");
        let unnamed: Vec<Usage> =
            vec![serde_json::from_value(nameless).expect("usage"), serde_json::from_value(cores).expect("usage")];
        assert_eq!(find_usage(&unnamed, "cores").expect_err("no name.value").field, "name.value");
    }
}
