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
pub mod prices;
pub mod quota;
pub mod runcommand;
pub mod zip;

use crate::domain::setting::Words;
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
    /// POST runCommand: read the GPU Operator's Helm release (`helm list`, `helm get values`;
    /// changes nothing) before an upgrade.
    ReadRelease,
    /// DELETE a pool this run created and that failed (failover).
    DeletePool,
    /// POST a pool operation's abort (sent only on Ctrl-C with `--abort-on-interrupt`).
    AbortOperation,
    /// GET a quota request's status.
    ReadQuotaRequest,
    /// GET the subscriptions visible to the credential.
    ReadSubscriptions,
    /// GET the resource provider's registration state.
    ReadProvider,
    /// GET a page of the Azure Retail Prices API (public, no token).
    ReadPrices,
    /// GET the resource a write changes, once its operation ends (and while it runs, when it
    /// must be polled by its state); never sent by a dry run.
    Await,
}

/// The requests Azure itself points a step to: the executor follows the URL Azure returns,
/// which no plan can know beforehand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Follow {
    /// A list: every further page is read at the `nextLink` the previous page returns.
    NextLink,
    /// A long-running write: polled at the operation URL Azure returns (`Azure-AsyncOperation`,
    /// else `Operation-Location`, else `Location`); without one, the resource is read instead.
    Operation,
    /// runCommand: its result is polled at the `Location` Azure returns.
    CommandResult,
}

impl Follow {
    /// What the executor then sends, in words (for printed plans).
    pub fn describe(self) -> &'static str {
        match self {
            Follow::NextLink => "then every further page, at the nextLink each page returns",
            Follow::Operation => "then polled at the operation URL Azure returns (Azure-AsyncOperation, else Location)",
            Follow::CommandResult => "then its result, polled at the Location Azure returns",
        }
    }
}

/// When the read that follows a PUT is sent: Azure may answer a PUT with the resource in a
/// final state already, and then nothing is read after it.
pub const UNLESS_FINAL: &str = "unless the PUT's answer already shows a final provisioningState";

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
    /// The URLs Azure returns that the executor then follows (not built by the plan).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub follow: Option<Follow>,
    /// When the step is sent more than once: until what (e.g. "until the pool is Succeeded").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat: Option<Words>,
    /// When the step is conditional: the only case in which it is sent (e.g. "only if the
    /// PUT's answer does not show a final state"). A step without it is always sent (once, or
    /// with `repeat` at least once); a conditional one may not be sent at all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when: Option<Words>,
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
            follow: None,
            repeat: None,
            when: None,
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
        Step {
            kind,
            method,
            url,
            body,
            headers: Default::default(),
            purpose: purpose.into(),
            read_only: false,
            follow: None,
            repeat: None,
            when: None,
        }
    }

    /// The step, saying which URLs Azure returns that the executor then follows.
    pub fn then_follows(mut self, follow: Follow) -> Step {
        self.follow = Some(follow);
        self
    }

    /// The step, sent again `until` something holds (a wait or a readiness check).
    pub fn repeated(mut self, until: impl Into<Words>) -> Step {
        self.repeat = Some(until.into());
        self
    }

    /// The step, sent only `when` something holds (it may not be sent at all).
    pub fn only_if(mut self, when: impl Into<Words>) -> Step {
        self.when = Some(when.into());
        self
    }

    /// The step with another purpose.
    pub fn saying(mut self, purpose: impl Into<String>) -> Step {
        self.purpose = purpose.into();
        self
    }

    /// The precondition header a write carries (`If-Match` or `If-None-Match`), if any.
    pub fn precondition(&self) -> Option<&str> {
        self.headers
            .keys()
            .map(String::as_str)
            .find(|k| k.eq_ignore_ascii_case("if-match") || k.eq_ignore_ascii_case("if-none-match"))
    }

    /// The step with a header added.
    pub fn header(mut self, name: &str, value: impl Into<String>) -> Step {
        self.headers.insert(name.to_owned(), value.into());
        self
    }
}

/// The write sent again after its answer was lost and reading it back showed it did not land:
/// the same step, under a precondition so that ARM refuses it (412) rather than overwrite a
/// change made in the meantime. A create gets `If-None-Match: *` when it has no precondition;
/// any other write without one is never resent (`None`).
pub fn resend(step: &Step) -> Option<Step> {
    if step.precondition().is_some() {
        return Some(step.clone());
    }
    (step.kind == StepKind::CreatePool).then(|| step.clone().header("If-None-Match", "*"))
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
        // A repeated read (a wait after a write) is no fact: it stays.
        self.steps.retain(|s| s.method != "GET" || s.repeat.is_some() || seen.insert(s.url.to_ascii_lowercase()));
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

/// The `aksgpu wait` command line that follows a pool's operation: `aksgpu wait --subscription
/// SUB -g RG --cluster C --name POOL` once the front end words its flags.
pub fn wait_command(sub: &str, rg: &str, cluster: &str, pool: &str) -> crate::domain::setting::Words {
    use crate::domain::setting::{Setting, Words};
    Words::new(
        format!("aksgpu wait {{0:flag}} {sub} -g {rg} {{1:flag}} {cluster} {{2:flag}} {pool}"),
        &[Setting::Subscription, Setting::Cluster, Setting::Name],
    )
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

/// GET a cluster (AKS api-version).
pub fn read_cluster(cluster_path: &str, purpose: impl Into<String>) -> Step {
    Step::read(StepKind::ReadCluster, with_api(cluster_path, crate::domain::api::AKS), purpose)
}

/// GET a cluster's agent pools (every page).
///
/// Read with the api-version that has `gpuProfile.nvidia.managementMode` (2026-08-01): with
/// 2026-10-01, whose spec has no `nvidia`, an AKS-managed pool would look like one with only
/// the AKS driver, and `install-operator` or `export` would misjudge it.
pub fn read_pools(cluster_path: &str, purpose: impl Into<String>) -> Step {
    Step::read(
        StepKind::ReadPools,
        with_api(&format!("{cluster_path}/agentPools"), crate::domain::api::AKS_MANAGED_GPU),
        purpose,
    )
    .then_follows(Follow::NextLink)
}

/// GET one page of the Azure Retail Prices API (`url`: its query or `NextPageLink`).
pub fn read_prices(url: &str) -> Step {
    Step::read(StepKind::ReadPrices, url.to_owned(), "read retail prices").then_follows(Follow::NextLink)
}

/// GET the subscriptions the credential sees (Microsoft.Resources Subscriptions - List).
pub fn read_subscriptions() -> Step {
    Step::read(
        StepKind::ReadSubscriptions,
        format!("/subscriptions?api-version={}", crate::domain::api::SUBSCRIPTIONS),
        "find the subscription by its name",
    )
    .then_follows(Follow::NextLink)
}

/// GET the compute SKUs offered in `location` (every page).
pub fn read_skus(sub: &str, location: &str) -> Step {
    Step::read(StepKind::ReadSkus, skus_url(sub, location), format!("the compute SKUs offered in {location}"))
        .then_follows(Follow::NextLink)
}

/// Add the api-version query.
pub fn with_api(path: &str, version: &str) -> String {
    format!("{path}?api-version={version}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resend_is_the_same_step_under_a_precondition() {
        let put = |kind| Step::write(kind, "PUT", "/p?api-version=1".into(), Some(serde_json::json!({"a": 1})), "x");
        let guarded = put(StepKind::UpdateCluster).header("If-Match", "e1");
        assert_eq!(resend(&guarded), Some(guarded.clone()));
        // A create without one gets If-None-Match: * (ARM then answers 412 rather than overwrite).
        let create = put(StepKind::CreatePool);
        assert_eq!(resend(&create), Some(create.clone().header("If-None-Match", "*")));
        assert_eq!(resend(&create).and_then(|s| s.precondition().map(str::to_owned)).as_deref(), Some("If-None-Match"));
        // Any other write without a precondition is never sent again.
        assert_eq!(resend(&put(StepKind::UpdatePool)), None);
    }
}
