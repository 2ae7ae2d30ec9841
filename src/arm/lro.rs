//! Polling of ARM long-running operations (feature registration, runCommand results and the
//! operator's readiness poll their own state in `provision`, under the same deadline).
//!
//! Polling follows `Azure-AsyncOperation`, then `Operation-Location`, then `Location`, then the
//! resource's own `provisioningState`. Only `Succeeded`, `Failed`, `Canceled` and `Cancelled`
//! (any case) are terminal; everything else, including free-form progress text such as
//! "CreatingAgentPool: 0/1 nodes completed", means still running, and an `error` inside a
//! running status is not a failure. Each poll goes through the client's retries; up to three
//! polls in a row may lose the connection, and a 404 is tolerated for a grace period (the
//! same rules serve runCommand results through `Poller`). The wait is the server's
//! `Retry-After` (at least 1 s); without one it paces like the Azure SDKs: 5 s, doubling up to
//! 30 s, so a 26-minute create costs 54 polls while a short one still ends fast.

use std::time::{Duration, Instant, SystemTime};

use reqwest::Method;
use serde_json::Value;

use super::client::{ArmClient, ArmResponse, Req};
use super::error::{ArmError, ErrorBody};
use super::retry::retry_after;
use crate::resources::OperationStatus;

/// The first wait between polls when the server sends no `Retry-After`.
pub const FIRST_INTERVAL: Duration = Duration::from_secs(5);
/// The longest wait between polls when the server sends no `Retry-After`.
pub const MAX_INTERVAL: Duration = Duration::from_secs(30);
const MIN_INTERVAL: Duration = Duration::from_secs(1);
/// Polls in a row that may lose the connection (the next one lost ends the wait).
pub const MAX_DROPPED_POLLS: u32 = 3;
/// Polls in a row that may answer 404 (the operation or resource is not visible yet).
pub const NOT_FOUND_GRACE: u32 = 5;

/// What is being waited for.
#[derive(Debug, Clone)]
pub struct Operation {
    /// "agent pool gpu in cluster c1", for messages.
    pub what: String,
    /// The GET of the resource (for the final GET and resource-state polling), built by the
    /// executor from a plan step.
    pub resource: Req,
    /// The command that resumes waiting.
    pub resume: String,
    /// When to give up (the `--timeout`).
    pub deadline: Instant,
    /// When waiting started.
    pub started: Instant,
}

pub use crate::domain::is_terminal;

fn is_success(state: &str) -> bool {
    state.trim().eq_ignore_ascii_case("succeeded")
}

/// The resource's `properties.provisioningState`.
pub fn provisioning_state(v: &Value) -> Option<&str> {
    v.pointer("/properties/provisioningState").and_then(Value::as_str)
}

#[derive(Debug, Clone)]
enum Via {
    AsyncOperation(String),
    Location(String),
    Resource,
}

fn poll_via(resp: &ArmResponse, method: &Method) -> Option<Via> {
    if let Some(u) = resp.header("azure-asyncoperation") {
        return Some(Via::AsyncOperation(u.to_owned()));
    }
    if let Some(u) = resp.header("operation-location") {
        return Some(Via::AsyncOperation(u.to_owned()));
    }
    if let Some(u) = resp.header("location") {
        return Some(Via::Location(u.to_owned()));
    }
    (*method == Method::PUT || *method == Method::PATCH).then_some(Via::Resource)
}

/// The wait before poll `n` (0-based) when the server gives no `Retry-After`:
/// 5 s, 10 s, 20 s, then 30 s.
pub fn default_interval(n: u32) -> Duration {
    FIRST_INTERVAL.saturating_mul(1u32 << n.min(8)).min(MAX_INTERVAL)
}

/// How many polls the default pacing makes over `total` (for the figures in docs/reliability.md).
pub fn polls_over(total: Duration) -> u32 {
    let (mut t, mut n) = (Duration::ZERO, 0);
    while t < total {
        t += default_interval(n);
        n += 1;
    }
    n
}

/// The shared polling rules: pacing, dropped connections, 404 grace and the deadline.
#[derive(Debug, Default)]
pub struct Poller {
    polls: u32,
    dropped: u32,
    not_found: u32,
}

/// What one poll gave.
pub enum Polled {
    /// A 2xx answer.
    Answer(ArmResponse),
    /// Nothing usable yet (connection lost or 404 within the grace): poll again.
    Again,
}

impl Poller {
    /// Sleep the interval `last` asks for (or the default pacing), bounded by the deadline.
    pub async fn pause(
        &mut self,
        client: &ArmClient,
        last: Option<&ArmResponse>,
        op: &Operation,
    ) -> Result<(), ArmError> {
        let server = last.and_then(|r| retry_after(&r.headers, SystemTime::now()));
        let wait = server.unwrap_or_else(|| default_interval(self.polls)).max(MIN_INTERVAL);
        self.polls += 1;
        let remaining = op.deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(timed_out(op));
        }
        client.sleeper.sleep(wait.min(remaining)).await;
        if Instant::now() >= op.deadline {
            return Err(timed_out(op));
        }
        Ok(())
    }

    /// Send `req` (a GET) once under the shared rules.
    pub async fn poll(
        &mut self,
        client: &ArmClient,
        req: &Req,
        op: &Operation,
        progress: &(dyn Fn(&str) + Sync),
    ) -> Result<Polled, ArmError> {
        // An operation URL elsewhere gets no token; the write was accepted all the same, so the
        // truth is "still running, follow it from here", not a configuration error.
        if let Err(refused) = client.check_url(&req.url) {
            return Err(ArmError::Pending {
                what: op.what.clone(),
                message: format!("accepted by Azure and still running, but not followed here: {refused}"),
                resume: op.resume.clone(),
            });
        }
        let resp = match client.send(req).await {
            Ok(r) => r,
            Err(ArmError::Deadline { .. }) => return Err(timed_out(op)),
            Err(ArmError::Transport { message, .. }) => {
                self.dropped += 1;
                progress(&format!("connection lost ({} in a row, {MAX_DROPPED_POLLS} tolerated)", self.dropped));
                if self.dropped > MAX_DROPPED_POLLS {
                    return Err(ArmError::PollingLost { what: op.what.clone(), message, resume: op.resume.clone() });
                }
                return Ok(Polled::Again);
            }
            Err(e) => return Err(e),
        };
        self.dropped = 0;
        if resp.status == 404 {
            self.not_found += 1;
            if self.not_found > NOT_FOUND_GRACE {
                return Err(resp.to_error());
            }
            progress("not visible yet");
            return Ok(Polled::Again);
        }
        self.not_found = 0;
        if !(200..300).contains(&resp.status) {
            return Err(resp.to_error());
        }
        Ok(Polled::Answer(resp))
    }
}

/// Wait for the operation started by `initial` (the response to `method`). Returns the final
/// resource body for PUT/PATCH (after a final GET), or the last body for others.
pub async fn wait(
    client: &ArmClient,
    initial: ArmResponse,
    method: &Method,
    op: &Operation,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Value, ArmError> {
    if !matches!(initial.status, 200 | 201 | 202 | 204) {
        return Err(initial.to_error());
    }
    let is_write = *method == Method::PUT || *method == Method::PATCH;
    let body = match initial.value() {
        Ok(v) => v,
        // A 2xx to a write means Azure accepted it, even when the body cannot be read (cut
        // short by a proxy): reconcile by polling and a final GET instead of failing.
        Err(_) if is_write => {
            progress("accepted; the answer's body could not be read, so the resource is read instead");
            Value::Null
        }
        Err(e) => return Err(e),
    };
    if is_write {
        if let Some(state) = provisioning_state(&body).map(str::to_owned) {
            if is_terminal(&state) {
                return finish_resource(&state, body, op, client);
            }
        }
    }
    let Some(via) = poll_via(&initial, method) else {
        if initial.status == 202 {
            return Err(ArmError::InvalidResponse {
                method: method.to_string(),
                path: initial.path.clone(),
                status: 202,
                message: "accepted, but no operation URL to poll (no Azure-AsyncOperation or Location header)".into(),
                snippet: String::new(),
                request_id: initial.request_id(),
            });
        }
        return Ok(body);
    };
    poll_until_done(client, initial, via, method, op, progress).await
}

async fn poll_until_done(
    client: &ArmClient,
    initial: ArmResponse,
    mut via: Via,
    method: &Method,
    op: &Operation,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Value, ArmError> {
    let mut last: ArmResponse = initial;
    let mut poller = Poller::default();
    loop {
        poller.pause(client, Some(&last), op).await?;
        // The operation URL Azure returned (a follow-up), or the plan's read of the resource.
        let req = match &via {
            Via::AsyncOperation(u) | Via::Location(u) => Req::get(u),
            Via::Resource => op.resource.clone(),
        };
        let resp = match poller.poll(client, &req, op, progress).await? {
            Polled::Answer(r) => r,
            Polled::Again => continue,
        };
        match step(client, &resp, &mut via, method, op, progress).await? {
            Some(done) => return Ok(done),
            None => last = resp,
        }
    }
}

/// Read one 2xx poll answer: `Some` when the operation is over.
async fn step(
    client: &ArmClient,
    resp: &ArmResponse,
    via: &mut Via,
    method: &Method,
    op: &Operation,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Option<Value>, ArmError> {
    match via {
        Via::AsyncOperation(_) => {
            let v = resp.value()?;
            let typed: OperationStatus = crate::resources::parse(&v, "operation").unwrap_or_default();
            let Some(status) = typed.status.as_deref() else {
                // e.g. {"error":{"code":"BadGatewayConnection"}} with no status: try again.
                progress("waiting (no status in the reply)");
                return Ok(None);
            };
            progress(status);
            if !is_terminal(status) {
                return Ok(None);
            }
            if !is_success(status) {
                return Err(failed(client, op, status, &v));
            }
            final_get(client, method, op, v).await.map(Some)
        }
        Via::Location(_) => {
            if resp.status == 202 {
                if let Some(next) = resp.header("location") {
                    *via = Via::Location(next.to_owned());
                }
                progress("in progress");
                return Ok(None);
            }
            let v = resp.value()?;
            if let Some(state) = provisioning_state(&v).or_else(|| v.get("status").and_then(Value::as_str)) {
                if is_terminal(state) && !is_success(state) {
                    return Err(failed(client, op, state, &v));
                }
            }
            final_get(client, method, op, v).await.map(Some)
        }
        Via::Resource => {
            let v = resp.value()?;
            let state = provisioning_state(&v).unwrap_or_default().to_owned();
            progress(if state.is_empty() { "waiting" } else { &state });
            if is_terminal(&state) {
                return finish_resource(&state, v, op, client).map(Some);
            }
            Ok(None)
        }
    }
}

fn failed(client: &ArmClient, op: &Operation, status: &str, v: &Value) -> ArmError {
    ArmError::OperationFailed {
        what: op.what.clone(),
        status: status.to_owned(),
        body: v.get("error").and_then(ErrorBody::from_value).map(Box::new),
        correlation_id: client.correlation_id.clone(),
    }
}

/// Resume waiting on a resource by polling its `provisioningState` (no operation URL needed).
pub async fn wait_resource(
    client: &ArmClient,
    op: &Operation,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Value, ArmError> {
    let mut first = match client.send(&op.resource).await {
        Err(ArmError::Deadline { .. }) => return Err(timed_out(op)),
        r => r?.require_ok()?,
    };
    // Only the resource's own state matters here, whatever headers the GET carried.
    let mut kept = reqwest::header::HeaderMap::new();
    if let Some(v) = first.headers.get("retry-after") {
        kept.insert("retry-after", v.clone());
    }
    first.headers = kept;
    if let Some(state) = provisioning_state(&first.value()?) {
        progress(state);
    }
    wait(client, first, &Method::PUT, op, progress).await
}

/// The `--timeout` error for `op`.
pub fn timed_out(op: &Operation) -> ArmError {
    ArmError::TimedOut { what: op.what.clone(), elapsed: op.started.elapsed(), resume: op.resume.clone() }
}

fn finish_resource(state: &str, body: Value, op: &Operation, client: &ArmClient) -> Result<Value, ArmError> {
    if is_success(state) {
        return Ok(body);
    }
    Err(ArmError::OperationFailed {
        what: op.what.clone(),
        status: state.to_owned(),
        body: body.pointer("/properties/status/provisioningError").and_then(ErrorBody::from_value).map(Box::new),
        correlation_id: client.correlation_id.clone(),
    })
}

async fn final_get(client: &ArmClient, method: &Method, op: &Operation, last: Value) -> Result<Value, ArmError> {
    if *method == Method::PUT || *method == Method::PATCH {
        return match client.get_json(&op.resource).await {
            Err(ArmError::Deadline { .. }) => Err(timed_out(op)),
            r => r,
        };
    }
    Ok(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_states_are_case_insensitive_and_free_text_runs() {
        for s in ["Succeeded", "succeeded", "FAILED", "Canceled", "Cancelled"] {
            assert!(is_terminal(s), "{s}");
        }
        for s in ["InProgress", "Creating", "Scaling", "Accepted", "CreatingAgentPool: 0/1 nodes completed", ""] {
            assert!(!is_terminal(s), "{s}");
        }
    }

    /// §8: without Retry-After, polls start at 5 s and back off to 30 s; a 26-minute create
    /// (a MIG pool) costs 54 polls, a 1-minute one 4.
    #[test]
    fn default_pacing() {
        let secs: Vec<u64> = (0..6).map(|n| default_interval(n).as_secs()).collect();
        assert_eq!(secs, [5, 10, 20, 30, 30, 30]);
        assert_eq!(default_interval(u32::MAX), MAX_INTERVAL);
        assert_eq!(polls_over(Duration::from_secs(26 * 60)), 54);
        assert_eq!(polls_over(Duration::from_secs(60)), 4);
    }
}
