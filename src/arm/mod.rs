//! The only HTTP code (with the executor in `provision`): ARM REST with reqwest.
//!
//! `client` sends requests (auth, retries, request ids, caps, redacted logs); `lro` waits for
//! long-running operations; `auth` picks and caches credentials; `error` parses ARM errors.

pub mod auth;
pub mod client;
pub mod endpoint;
pub mod error;
pub mod graph;
pub mod lro;
pub mod prometheus;
pub mod redact;
pub mod retry;

pub use client::{ArmClient, ArmResponse, Req, Verbosity};
pub use endpoint::{Cloud, Endpoint};
pub use error::{ArmError, ErrorBody};

/// API versions in use (they live in `domain`, so plans can name them without importing arm).
pub use crate::domain::api;
