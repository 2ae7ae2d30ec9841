//! Managed-cluster PUT bodies built from a GET (pure): read-only fields are removed, and only
//! the fields a command owns are changed. Used by `kaito enable` and `cost-analysis enable`.

use serde_json::Value;

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

/// The cluster as a PUT body: the GET result minus every read-only field.
pub fn writable(cluster: &Value) -> Value {
    let mut v = cluster.clone();
    for path in READ_ONLY {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        remove(&mut v, &parts);
    }
    v
}

/// True when KAITO (the AI toolchain operator) and the OIDC issuer are both on.
pub fn kaito_enabled(cluster: &Value) -> bool {
    let on = |p: &str| cluster.pointer(p).and_then(Value::as_bool) == Some(true);
    on("/properties/aiToolchainOperatorProfile/enabled") && on("/properties/oidcIssuerProfile/enabled")
}

/// The PUT body that turns KAITO on: only the two profiles change.
pub fn enable_kaito(cluster: &Value) -> Value {
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
        let w = writable(&cluster());
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

    #[test]
    fn kaito_body_changes_only_the_two_profiles() {
        let c = cluster();
        assert!(!kaito_enabled(&c));
        let body = enable_kaito(&c);
        assert_eq!(
            differences(&writable(&c), &body),
            ["/properties/aiToolchainOperatorProfile", "/properties/oidcIssuerProfile/enabled"]
        );
        let mut on = c.clone();
        on["properties"]["aiToolchainOperatorProfile"] = json!({"enabled": true});
        on["properties"]["oidcIssuerProfile"]["enabled"] = json!(true);
        assert!(kaito_enabled(&on));
    }
}
