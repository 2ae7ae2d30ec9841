//! Typed views of the ARM resources the tool reads: only the fields it acts on, so a decision
//! follows what Azure said rather than a guess from an untyped JSON lookup.
//!
//! Shapes: the AKS REST specification (`Microsoft.ContainerService` `managedClusters.json`,
//! definitions `AgentPool`, `ManagedClusterAgentPoolProfileProperties`, `AgentPoolStatus`, and
//! the common `ErrorDetail`).

use serde::Deserialize;
use serde_json::Value;

/// An AKS agent pool as read.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentPool {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub properties: AgentPoolProperties,
}

/// The pool's properties the tool acts on.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentPoolProperties {
    /// `Succeeded`, `Failed`, `Creating`, `Updating`, `Scaling`, `Upgrading`, `Deleting`, …
    pub provisioning_state: Option<String>,
    /// Read-only; `provisioningError` says why the last operation failed.
    pub status: Option<AgentPoolStatus>,
}

/// `AgentPoolStatus`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentPoolStatus {
    pub provisioning_error: Option<ErrorDetail>,
}

/// The common ARM `ErrorDetail` (`code`, `message`).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ErrorDetail {
    pub code: Option<String>,
    pub message: Option<String>,
}

impl AgentPool {
    /// The pool out of its JSON; a pool whose fields have the wrong types is an error naming them.
    pub fn read(v: &Value) -> Result<AgentPool, String> {
        AgentPool::deserialize(v).map_err(|e| format!("agent pool {}: {e}", v["name"].as_str().unwrap_or("?")))
    }

    /// `Some(Azure's error, or a sentence saying it gave none)` when the pool is `Failed`.
    pub fn failure(&self) -> Option<String> {
        let state = self.properties.provisioning_state.as_deref()?;
        if !state.eq_ignore_ascii_case("Failed") {
            return None;
        }
        let err = self.properties.status.as_ref().and_then(|s| s.provisioning_error.as_ref());
        Some(match err {
            Some(ErrorDetail { code: Some(c), message: Some(m) }) => format!("{c}: {m}"),
            Some(ErrorDetail { code: None, message: Some(m) }) => m.clone(),
            Some(ErrorDetail { code: Some(c), message: None }) => c.clone(),
            _ => "Azure gave no error detail (see the pool's activity log)".to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_failed_pool_carries_azures_error() {
        let v = json!({"name": "gpu", "properties": {"provisioningState": "Failed",
            "status": {"provisioningError": {"code": "AllocationFailed", "message": "no capacity"}}}});
        assert_eq!(AgentPool::read(&v).expect("pool").failure().as_deref(), Some("AllocationFailed: no capacity"));
        let ok = json!({"name": "gpu", "properties": {"provisioningState": "Succeeded"}});
        assert_eq!(AgentPool::read(&ok).expect("pool").failure(), None);
        assert!(AgentPool::read(&json!({"name": "x", "properties": {"provisioningState": 3}})).is_err());
    }
}
