//! Plans: the exact ARM requests a command will send, built as plain values (pure).
//!
//! A `--dry-run` prints the plan; a real run executes the same `Step`s, so what the dry run
//! shows is what Azure receives.

pub mod agent_pool;
pub mod cluster;
pub mod gitops;
pub mod kaito;
pub mod manifest;
pub mod operator;
pub mod preflight;
pub mod zip;

use serde::Serialize;
use serde_json::Value;

pub use agent_pool::{PoolSpec, SpecError};

/// One request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// HTTP method.
    pub method: &'static str,
    /// Path and query, relative to the ARM endpoint (absolute in printed plans).
    pub url: String,
    /// JSON body, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<Value>,
    /// Extra headers that matter (e.g. `If-None-Match`).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub headers: std::collections::BTreeMap<String, String>,
    /// Why the step is there.
    pub purpose: String,
    /// True for reads (preflight); a dry run sends only these, and only with credentials.
    pub read_only: bool,
}

/// An ordered list of steps.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Plan {
    pub steps: Vec<Step>,
}

impl Plan {
    /// The plan with URLs made absolute for printing.
    pub fn absolute(&self, base: &str) -> Plan {
        Plan {
            steps: self
                .steps
                .iter()
                .map(|s| Step { url: format!("{}{}", base.trim_end_matches('/'), s.url), ..s.clone() })
                .collect(),
        }
    }
}

/// `/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.ContainerService/managedClusters/{c}`
pub fn cluster_path(sub: &str, rg: &str, cluster: &str) -> String {
    format!("/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.ContainerService/managedClusters/{cluster}")
}

/// The agent pool path.
pub fn pool_path(sub: &str, rg: &str, cluster: &str, pool: &str) -> String {
    format!("{}/agentPools/{pool}", cluster_path(sub, rg, cluster))
}

/// Add the api-version query.
pub fn with_api(path: &str, version: &str) -> String {
    format!("{path}?api-version={version}")
}
