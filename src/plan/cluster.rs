//! Managed-cluster PUT bodies built from a GET (pure): read-only fields are removed, and only
//! the fields a command owns are changed. Used by `kaito enable` and `cost-analysis enable`.

use serde_json::Value;

use crate::domain::setting::{Setting, SettingError};
use crate::resources::{AgentPool, AsRead, ManagedCluster};

/// Read-only paths of `ManagedCluster` in the 2026-10-01 spec (`*` = every array item or map
/// value), plus `nodeImageVersion`, which is writable but rolls node images back when echoed.
pub const READ_ONLY: &[&str] = &[
    "/eTag",
    "/id",
    "/name",
    "/type",
    "/systemData",
    "/identity/principalId",
    "/identity/tenantId",
    "/identity/userAssignedIdentities/*/principalId",
    "/identity/userAssignedIdentities/*/clientId",
    "/properties/provisioningState",
    "/properties/powerState",
    "/properties/currentKubernetesVersion",
    "/properties/fqdn",
    "/properties/azurePortalFQDN",
    "/properties/privateFQDN",
    "/properties/maxAgentPools",
    "/properties/resourceUID",
    "/properties/status/provisioningError",
    "/properties/oidcIssuerProfile/issuerURL",
    "/properties/ingressProfile/webAppRouting/identity",
    "/properties/networkProfile/loadBalancerProfile/effectiveOutboundIPs",
    "/properties/networkProfile/natGatewayProfile/effectiveOutboundIPs",
    "/properties/agentPoolProfiles/*/currentOrchestratorVersion",
    "/properties/agentPoolProfiles/*/eTag",
    "/properties/agentPoolProfiles/*/provisioningState",
    "/properties/agentPoolProfiles/*/status/provisioningError",
    "/properties/agentPoolProfiles/*/localDNSProfile/state",
    "/properties/agentPoolProfiles/*/nodeImageVersion",
    "/properties/podIdentityProfile/userAssignedIdentities/*/provisioningInfo",
    "/properties/podIdentityProfile/userAssignedIdentities/*/provisioningState",
    "/properties/privateLinkResources/*/privateLinkServiceID",
    "/properties/addonProfiles/*/identity",
];

fn remove(v: &mut Value, parts: &[&str]) {
    match parts {
        [] => {}
        [last] => {
            if *last == "*" {
                return;
            }
            if let Some(o) = v.as_object_mut() {
                o.remove(*last);
            }
        }
        [first, rest @ ..] => {
            if *first == "*" {
                match v {
                    Value::Array(items) => items.iter_mut().for_each(|i| remove(i, rest)),
                    Value::Object(map) => map.values_mut().for_each(|i| remove(i, rest)),
                    _ => {}
                }
            } else if let Some(child) = v.get_mut(*first) {
                remove(child, rest);
            }
        }
    }
}

/// A body as read minus the fields at `paths` (`READ_ONLY`, `POOL_READ_ONLY`).
fn without(read: &Value, paths: &[&str]) -> Value {
    let mut v = read.clone();
    for path in paths {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        remove(&mut v, &parts);
    }
    v
}

/// The cluster as a PUT body: the GET result (as sent, fields this tool does not model
/// included) minus every read-only field.
pub fn writable(cluster: &AsRead<ManagedCluster>) -> Value {
    without(&cluster.json, READ_ONLY)
}

/// The PUT body that turns KAITO on: only the two profiles change.
pub fn enable_kaito(cluster: &AsRead<ManagedCluster>) -> Value {
    let mut v = writable(cluster);
    if let Some(props) = v.get_mut("properties").and_then(Value::as_object_mut) {
        let ai = props.entry("aiToolchainOperatorProfile").or_insert_with(|| serde_json::json!({}));
        if let Some(o) = ai.as_object_mut() {
            o.insert("enabled".into(), Value::Bool(true));
        }
        let oidc = props.entry("oidcIssuerProfile").or_insert_with(|| serde_json::json!({}));
        if let Some(o) = oidc.as_object_mut() {
            o.insert("enabled".into(), Value::Bool(true));
        }
    }
    v
}

/// Read-only paths of `AgentPool` (plus `nodeImageVersion`, see `READ_ONLY`).
pub const POOL_READ_ONLY: &[&str] = &[
    "/id",
    "/name",
    "/type",
    "/systemData",
    "/properties/eTag",
    "/properties/provisioningState",
    "/properties/currentOrchestratorVersion",
    "/properties/nodeImageVersion",
    "/properties/status",
    "/properties/localDNSProfile/state",
];

/// An agent pool as a PUT body: the GET result (as sent, fields this tool does not model
/// included) minus read-only fields.
pub fn writable_pool(pool: &AsRead<AgentPool>) -> Value {
    without(&pool.json, POOL_READ_ONLY)
}

/// How to scale a pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// A fixed node count (autoscaler off).
    Count(u32),
    /// Autoscaler bounds.
    Autoscale { min: u32, max: u32 },
}

/// Why a change to a cluster or pool as read is refused before anything is sent.
#[derive(Debug, Clone, PartialEq)]
pub enum ChangeRefused {
    /// A value asked for cannot be applied: the settings it names, worded by each front end.
    Setting(SettingError),
    /// The resource as read does not allow the change.
    State { message: String, hint: Option<String> },
    /// The resource as read does not allow the settings given (an autoscaled pool takes
    /// bounds, not a count): worded as `Setting`, refused as `State`.
    Conflict(SettingError),
    /// Azure's answer lacks a field the change needs.
    Missing(crate::resources::MissingField),
}

impl ChangeRefused {
    /// The message, each setting named by `name` (a flag, a file's key).
    pub fn words(&self, name: impl Fn(Setting) -> String + Copy) -> String {
        match self {
            ChangeRefused::Setting(e) | ChangeRefused::Conflict(e) => e.render(name, name).0,
            ChangeRefused::State { message, .. } => message.clone(),
            ChangeRefused::Missing(m) => m.to_string(),
        }
    }

    fn setting(settings: &[Setting], message: impl Into<String>) -> Self {
        ChangeRefused::Setting(SettingError {
            settings: settings.to_vec(),
            message: message.into(),
            hint: None,
            rule: None,
        })
    }
}

/// The PUT body that scales a pool: only `count`, `minCount`, `maxCount` and
/// `enableAutoScaling` change. `Err` says why the change is refused (a pool that Azure sent
/// without the count the change keeps within the new bounds included).
pub fn scale_pool(pool: &AsRead<AgentPool>, scale: Scale) -> Result<Value, ChangeRefused> {
    let count = match scale {
        Scale::Autoscale { .. } => Some(pool.count().map_err(ChangeRefused::Missing)?),
        Scale::Count(_) => None,
    };
    set_counts(pool, scale, pool.autoscaled(), count)
}

/// The PUT body of `pool` with the counts of `scale`: `autoscaled`, the pool as read uses the
/// autoscaler; `count`, its node count as read, kept within the new bounds when autoscaling
/// (`None`: `count` is left as it is in `pool`, a dry run's stand-in).
pub fn set_counts(
    pool: &AsRead<AgentPool>,
    scale: Scale,
    autoscaled: bool,
    count: Option<u32>,
) -> Result<Value, ChangeRefused> {
    let mut v = writable_pool(pool);
    let props = v.get_mut("properties").and_then(Value::as_object_mut).ok_or_else(|| {
        ChangeRefused::Missing(crate::resources::MissingField {
            resource: "agent pool".into(),
            field: "properties".into(),
        })
    })?;
    let (count_setting, min_count, max_count) = (Setting::Count, Setting::MinCount, Setting::MaxCount);
    match scale {
        Scale::Count(n) => {
            if autoscaled {
                return Err(ChangeRefused::Conflict(SettingError {
                    settings: vec![min_count, max_count, count_setting],
                    message: "the pool uses the cluster autoscaler: change {0}/{1} instead of {2}".into(),
                    hint: None,
                    rule: None,
                }));
            }
            if n > 1000 {
                return Err(ChangeRefused::setting(&[count_setting], "{0} must be at most 1000"));
            }
            props.insert("count".into(), serde_json::json!(n));
        }
        Scale::Autoscale { min, max } => {
            if min > max {
                return Err(ChangeRefused::setting(
                    &[min_count, max_count],
                    format!("{{0}} {min} is larger than {{1}} {max}"),
                ));
            }
            if max == 0 || max > 1000 {
                return Err(ChangeRefused::setting(&[max_count], "{0} must be between 1 and 1000"));
            }
            props.insert("enableAutoScaling".into(), Value::Bool(true));
            props.insert("minCount".into(), serde_json::json!(min));
            props.insert("maxCount".into(), serde_json::json!(max));
            if let Some(count) = count {
                props.insert("count".into(), serde_json::json!(count.clamp(min, max)));
            }
        }
    }
    Ok(v)
}

/// The PUT body that turns cost analysis on (`metricsProfile.costAnalysis.enabled`).
pub fn enable_cost_analysis(cluster: &AsRead<ManagedCluster>) -> Result<Value, ChangeRefused> {
    // The spec's default tier is Free (left out: Free), which refuses (fails safe).
    let tier = cluster.sku.as_ref().and_then(|s| s.tier.clone()).unwrap_or_else(|| "Free".to_owned());
    if tier.eq_ignore_ascii_case("Free") {
        return Err(ChangeRefused::State {
            message: format!(
                "cost analysis needs the Standard or Premium tier; this cluster is on {tier} (az aks update --tier standard)"
            ),
            hint: None,
        });
    }
    let mut v = writable(cluster);
    if let Some(props) = v.get_mut("properties").and_then(Value::as_object_mut) {
        let m = props.entry("metricsProfile").or_insert_with(|| serde_json::json!({}));
        if let Some(m) = m.as_object_mut() {
            let ca = m.entry("costAnalysis").or_insert_with(|| serde_json::json!({}));
            if let Some(ca) = ca.as_object_mut() {
                ca.insert("enabled".into(), Value::Bool(true));
            }
        }
    }
    Ok(v)
}

/// Paths (JSON pointers) where two bodies differ, for tests and `--dry-run` notes.
pub fn differences(a: &Value, b: &Value) -> Vec<String> {
    fn walk(a: &Value, b: &Value, path: String, out: &mut Vec<String>) {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
                keys.sort();
                keys.dedup();
                for k in keys {
                    walk(
                        x.get(k).unwrap_or(&Value::Null),
                        y.get(k).unwrap_or(&Value::Null),
                        format!("{path}/{k}"),
                        out,
                    );
                }
            }
            _ if a != b => out.push(path),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(a, b, String::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A cluster as the edge reads it (typed, its JSON kept).
    fn read(v: &Value) -> AsRead<ManagedCluster> {
        AsRead::parse(v.clone(), "cluster").expect("a cluster of the documented shape")
    }

    fn cluster() -> Value {
        json!({
            "id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/c1",
            "name": "c1", "type": "Microsoft.ContainerService/ManagedClusters", "location": "eastus",
            "eTag": "abc", "sku": {"name": "Base", "tier": "Standard"},
            "identity": {"type": "SystemAssigned", "principalId": "p", "tenantId": "t"},
            "properties": {
                "provisioningState": "Succeeded", "powerState": {"code": "Running"},
                "kubernetesVersion": "1.33", "currentKubernetesVersion": "1.33.2", "fqdn": "x", "maxAgentPools": 100,
                "oidcIssuerProfile": {"enabled": false, "issuerURL": "https://issuer"},
                "agentPoolProfiles": [{"name": "system", "count": 2, "vmSize": "Standard_D4ds_v5", "mode": "System",
                    "provisioningState": "Succeeded", "nodeImageVersion": "img", "currentOrchestratorVersion": "1.33.2", "eTag": "e"}],
                "addonProfiles": {"omsagent": {"enabled": true, "identity": {"clientId": "c"}}}
            }
        })
    }

    #[test]
    fn strips_read_only_fields_everywhere() {
        let w = writable(&read(&cluster()));
        for p in [
            "/id",
            "/eTag",
            "/identity/principalId",
            "/properties/provisioningState",
            "/properties/fqdn",
            "/properties/oidcIssuerProfile/issuerURL",
        ] {
            assert!(w.pointer(p).is_none(), "{p} kept");
        }
        assert!(w.pointer("/properties/agentPoolProfiles/0/nodeImageVersion").is_none());
        assert!(w.pointer("/properties/agentPoolProfiles/0/provisioningState").is_none());
        assert!(w.pointer("/properties/addonProfiles/omsagent/identity").is_none());
        assert_eq!(w.pointer("/properties/agentPoolProfiles/0/count"), Some(&json!(2)));
        assert_eq!(w["location"], "eastus");
        assert_eq!(w["identity"]["type"], "SystemAssigned");
    }

    /// `ManagedServiceIdentityUserAssignedIdentitiesValue` in Microsoft's 2026-10-01
    /// `managedClusters.json` marks `principalId` and `clientId` read-only: a PUT body built from
    /// a cluster with a user-assigned identity keeps the identity's key and drops both.
    #[test]
    fn user_assigned_identity_ids_are_never_sent_back() {
        let mut c = cluster();
        let uai = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/id1";
        c["identity"] =
            json!({"type": "UserAssigned", "userAssignedIdentities": {uai: {"principalId": "p1", "clientId": "c1"}}});
        let c = read(&c);
        for body in [writable(&c), enable_kaito(&c), enable_cost_analysis(&c).expect("paid tier")] {
            assert_eq!(body["identity"]["userAssignedIdentities"][uai], json!({}), "{body}");
            assert_eq!(body["identity"]["type"], "UserAssigned");
        }
    }

    /// A pool as the edge reads it (typed, its JSON kept).
    fn read_pool(v: Value) -> AsRead<AgentPool> {
        AsRead::parse(v, "agent pool").expect("a pool of the documented shape")
    }

    #[test]
    fn scale_bodies_change_only_counts() {
        let pool = read_pool(
            json!({"id": "x", "name": "gpu", "properties": {"count": 2, "vmSize": "Standard_NC24ads_A100_v4",
            "provisioningState": "Succeeded", "eTag": "e", "nodeImageVersion": "img", "currentOrchestratorVersion": "1.33.2",
            "nodeTaints": ["sku=gpu:NoSchedule"], "enableAutoScaling": false}}),
        );
        let b = scale_pool(&pool, Scale::Count(0)).expect("scales");
        assert_eq!(differences(&writable_pool(&pool), &b), ["/properties/count"]);
        assert!(b.pointer("/properties/nodeImageVersion").is_none() && b.pointer("/id").is_none());
        let a = scale_pool(&pool, Scale::Autoscale { min: 1, max: 4 }).expect("autoscale");
        assert_eq!(a["properties"]["count"], 2);
        assert_eq!(a["properties"]["enableAutoScaling"], true);
        let auto = scale_pool(&read_pool(a), Scale::Count(3)).expect_err("autoscaled pools take min/max");
        assert!(auto.words(|s| format!("--{}", s.long())).contains("--min-count"));
        assert!(auto.words(|s| s.file_key().unwrap_or_default().to_owned()).contains("minCount/maxCount"));
        assert!(scale_pool(&pool, Scale::Autoscale { min: 3, max: 1 }).is_err());
        assert_eq!(scale_pool(&pool, Scale::Autoscale { min: 3, max: 5 }).expect("ok")["properties"]["count"], 3);
    }

    /// A pool Azure sent without `count` is not scaled from a made-up count (it used to start
    /// the autoscaler at minCount): the change is refused naming the field.
    #[test]
    fn autoscaling_a_pool_without_a_count_is_refused() {
        let pool = read_pool(json!({"name": "gpu", "properties": {"vmSize": "Standard_NC24ads_A100_v4"}}));
        let e = scale_pool(&pool, Scale::Autoscale { min: 1, max: 3 }).expect_err("no count");
        assert!(matches!(&e, ChangeRefused::Missing(m) if m.field == "properties.count"), "{e:?}");
        assert_eq!(scale_pool(&pool, Scale::Count(2)).expect("a count needs none")["properties"]["count"], 2);
    }

    /// A scale body is the pool as Azure sent it: a field `AgentPool` does not model, and one
    /// inside `properties`, is sent back as read.
    #[test]
    fn a_scale_keeps_the_pool_fields_the_type_does_not_model() {
        let pool = read_pool(json!({"name": "gpu", "properties": {"count": 2, "futureKnob": {"x": 1},
            "networkProfile": {"allowedHostPorts": [{"portStart": 80, "portEnd": 80, "protocol": "TCP"}]}}}));
        let b = scale_pool(&pool, Scale::Count(3)).expect("scales");
        assert_eq!(b["properties"]["futureKnob"], json!({"x": 1}));
        assert_eq!(b["properties"]["networkProfile"], pool.json["properties"]["networkProfile"]);
        assert_eq!(differences(&writable_pool(&pool), &b), ["/properties/count"]);
    }

    #[test]
    fn cost_analysis_needs_a_paid_tier() {
        let mut c = cluster();
        c["sku"]["tier"] = json!("Free");
        assert!(enable_cost_analysis(&read(&c))
            .expect_err("free")
            .words(|s| s.long().to_owned())
            .contains("Standard or Premium"));
        // No tier sent is the spec's default, Free: refused too.
        if let Some(m) = c.as_object_mut() {
            m.remove("sku");
        }
        assert!(matches!(enable_cost_analysis(&read(&c)), Err(ChangeRefused::State { .. })));
        c["sku"] = json!({"name": "Base", "tier": "Standard"});
        let c = read(&c);
        let b = enable_cost_analysis(&c).expect("ok");
        assert_eq!(differences(&writable(&c), &b), ["/properties/metricsProfile"]);
        assert!(!c.cost_analysis_enabled());
    }

    #[test]
    fn kaito_body_changes_only_the_two_profiles() {
        let c = read(&cluster());
        assert!(!c.kaito_enabled());
        let body = enable_kaito(&c);
        assert_eq!(
            differences(&writable(&c), &body),
            ["/properties/aiToolchainOperatorProfile", "/properties/oidcIssuerProfile/enabled"]
        );
        let mut on = cluster();
        on["properties"]["aiToolchainOperatorProfile"] = json!({"enabled": true});
        on["properties"]["oidcIssuerProfile"]["enabled"] = json!(true);
        assert!(read(&on).kaito_enabled());
    }

    /// The bodies are built from the cluster as Azure sent it, not from the typed view: a field
    /// `ManagedCluster` does not model (a whole profile, a key inside a profile the change
    /// sets) is sent back as read, so a PUT never drops what this tool does not know.
    #[test]
    fn fields_the_type_does_not_model_are_sent_back() {
        let mut c = cluster();
        let unmodeled = json!({"outboundType": "userDefinedRouting", "podCidrs": ["10.244.0.0/16"]});
        c["properties"]["networkProfile"] = unmodeled.clone();
        c["properties"]["metricsProfile"] = json!({"costAnalysis": {"enabled": false, "futureKnob": 3}});
        c["properties"]["aiToolchainOperatorProfile"] = json!({"enabled": false, "futureKnob": "x"});
        c["futureTopLevel"] = json!({"a": [1, 2]});
        let c = read(&c);
        let kaito = enable_kaito(&c);
        let cost = enable_cost_analysis(&c).expect("paid tier");
        for body in [&kaito, &cost] {
            assert_eq!(body["properties"]["networkProfile"], unmodeled, "{body}");
            assert_eq!(body["futureTopLevel"], json!({"a": [1, 2]}), "{body}");
        }
        assert_eq!(kaito["properties"]["aiToolchainOperatorProfile"], json!({"enabled": true, "futureKnob": "x"}));
        assert_eq!(cost["properties"]["metricsProfile"], json!({"costAnalysis": {"enabled": true, "futureKnob": 3}}));
    }
}
