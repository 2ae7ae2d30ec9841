//! The only HTTP code (with the executor in `provision`): ARM REST with reqwest.
//!
//! `client` sends requests (auth, retries, request ids, caps, redacted logs); `lro` waits for
//! long-running operations; `auth` picks and caches credentials; `error` parses ARM errors.

pub mod auth;
pub mod client;
pub mod endpoint;
pub mod error;
pub mod lro;
pub mod redact;
pub mod retry;

pub use client::{ArmClient, ArmResponse, Req, Verbosity};
pub use endpoint::{Cloud, Endpoint};
pub use error::{ArmError, ErrorBody};

/// API versions in use.
pub mod api {
    /// Microsoft.ContainerService (managedClusters, agentPools, runCommand).
    pub const AKS: &str = "2026-10-01";
    /// Microsoft.Compute resource SKUs.
    pub const SKUS: &str = "2021-07-01";
    /// Microsoft.Compute usages.
    pub const USAGES: &str = "2025-04-01";
    /// Microsoft.Compute capacity reservation groups.
    pub const CAPACITY_RESERVATIONS: &str = "2025-04-01";
    /// Microsoft.Quota (quota limits and requests).
    pub const QUOTA: &str = "2025-09-01";
    /// Microsoft.Features.
    pub const FEATURES: &str = "2021-07-01";
    /// Microsoft.Resources provider registration.
    pub const PROVIDERS: &str = "2021-04-01";
}
