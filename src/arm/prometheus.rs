//! The Prometheus HTTP API (`/api/v1/query_range`, prometheus.io/docs/prometheus/latest/querying/api/)
//! of an Azure Monitor workspace, through the same client as ARM: retries, deadlines, redacted
//! logs and a token cache, but its own origin and its own token (audience
//! `https://prometheus.monitor.azure.com`). The client refuses any URL off that origin, so the
//! Prometheus token never reaches another host, and the ARM client refuses the Prometheus host,
//! so the ARM token never reaches it.

use super::auth::TokenCache;
use super::client::{ArmClient, Req};
use super::endpoint::Endpoint;
use super::error::ArmError;
use crate::resources::fleet::PromAnswer;

/// A Prometheus query client.
#[derive(Debug)]
pub struct PromClient {
    inner: ArmClient,
    sent: std::sync::atomic::AtomicUsize,
}

impl PromClient {
    /// A client for `endpoint` with its own token cache; `like` gives the deadline, logging and sleeper.
    pub fn new(endpoint: Endpoint, tokens: Option<TokenCache>, like: &ArmClient) -> Result<Self, ArmError> {
        let mut inner = ArmClient::new(endpoint, tokens, like.sleeper.clone())?;
        inner.deadline = like.deadline;
        inner.verbosity = like.verbosity;
        inner.log_sink = like.log_sink;
        Ok(Self { inner, sent: 0.into() })
    }

    /// The base URL.
    pub fn base(&self) -> &str {
        self.inner.endpoint.base()
    }

    /// Queries sent so far.
    pub fn queries(&self) -> usize {
        self.sent.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// `query_range` from `start` to `end` (unix seconds) every `step` seconds.
    pub async fn range(&self, query: &str, start: i64, end: i64, step: u64) -> Result<PromAnswer, ArmError> {
        let qs: String = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("query", query)
            .append_pair("start", &start.to_string())
            .append_pair("end", &end.to_string())
            .append_pair("step", &step.to_string())
            .finish();
        self.sent.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let resp = self.inner.send(&Req::get(format!("/api/v1/query_range?{qs}"))).await?;
        // Prometheus answers a bad query with 400 or 422 and an error body of its own shape.
        if matches!(resp.status, 400 | 422) {
            if let Ok(a) = resp.json::<PromAnswer>() {
                return Ok(a);
            }
        }
        resp.require_ok()?.json()
    }
}
