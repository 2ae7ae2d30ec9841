//! Plans: the exact ARM requests a command will send, built as plain values (pure).
//!
//! A `--dry-run` prints the plan; a real run executes the same `Step`s, so what the dry run
//! shows is what Azure receives.

pub mod agent_pool;
pub mod cluster;
pub mod cluster_ops;
pub mod failover;
pub mod features;
pub mod gitops;
pub mod install;
pub mod kaito;
pub mod manifest;
pub mod operator;
pub mod pool;
pub mod preflight;
pub mod quota;
pub mod runcommand;
pub mod zip;

use serde::Serialize;
use serde_json::Value;

pub use agent_pool::{PoolSpec, SpecError};

/// What a step is for: the executor finds the steps it sends by this, never by position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    /// GET the managed cluster.
    ReadCluster,
    /// GET one agent pool.
    ReadPool,
    /// GET the cluster's agent pools.
    ReadPools,
    /// GET the compute SKUs of a location.
    ReadSkus,
    /// GET the vCPU usages of a location.
    ReadUsages,
    /// GET a preview feature's registration state.
    ReadFeature,
    /// PUT a new vCPU limit (Microsoft.Quota).
    RequestQuota,
    /// GET a capacity reservation group (with its instance view).
    ReadReservationGroup,
    /// GET the capacity reservations of a group.
    ReadReservations,
    /// PUT a new agent pool.
    CreatePool,
    /// PUT an existing agent pool back, changed.
    UpdatePool,
    /// PUT the cluster back, changed.
    UpdateCluster,
    /// POST stop or start.
    PowerCluster,
    /// POST a preview feature's registration.
    RegisterFeature,
    /// POST the resource provider's re-registration.
    RegisterProvider,
    /// POST runCommand: install the GPU Operator.
    InstallOperator,
    /// POST runCommand: check the operator (repeated until ready).
    CheckOperator,
}

/// What a dry run shows where a real run uses a value it reads first.
pub fn read_at_run_time(what: &str) -> String {
    format!("<read at run time: {what}>")
}

/// One request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// What the step is for.
    #[serde(skip)]
    pub kind: StepKind,
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

impl Step {
    /// A GET (a read: preflight or the facts a write needs).
    pub fn read(kind: StepKind, url: String, purpose: impl Into<String>) -> Step {
        Step {
            kind,
            method: "GET",
            url,
            body: None,
            headers: Default::default(),
            purpose: purpose.into(),
            read_only: true,
        }
    }

    /// A write.
    pub fn write(
        kind: StepKind,
        method: &'static str,
        url: String,
        body: Option<Value>,
        purpose: impl Into<String>,
    ) -> Step {
        Step { kind, method, url, body, headers: Default::default(), purpose: purpose.into(), read_only: false }
    }

    /// The step with a header added.
    pub fn header(mut self, name: &str, value: impl Into<String>) -> Step {
        self.headers.insert(name.to_owned(), value.into());
        self
    }
}

/// An ordered list of steps.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Plan {
    pub steps: Vec<Step>,
}

impl Plan {
    /// Keep each read once: a run reads each fact once and every step shares it, so the
    /// plans of several operations (`apply`'s pools) list a shared read at its first use.
    pub fn dedup_reads(&mut self) {
        let mut seen = std::collections::HashSet::new();
        self.steps.retain(|s| s.method != "GET" || seen.insert(s.url.to_ascii_lowercase()));
    }

    /// The first step of this kind.
    pub fn step(&self, kind: StepKind) -> Option<&Step> {
        self.steps.iter().find(|s| s.kind == kind)
    }

    /// Every step of this kind, in order.
    pub fn steps_of(&self, kind: StepKind) -> impl Iterator<Item = &Step> {
        self.steps.iter().filter(move |s| s.kind == kind)
    }

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

/// The compute SKUs offered in `location`.
pub fn skus_url(sub: &str, location: &str) -> String {
    format!(
        "/subscriptions/{sub}/providers/Microsoft.Compute/skus?api-version={}&$filter=location%20eq%20%27{location}%27",
        crate::domain::api::SKUS
    )
}

/// Add the api-version query.
pub fn with_api(path: &str, version: &str) -> String {
    format!("{path}?api-version={version}")
}
