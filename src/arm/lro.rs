//! Polling of ARM long-running operations (feature registration, runCommand results and the
//! operator's readiness poll their own state in `provision`, under the same deadline).
//!
//! Polling follows `Azure-AsyncOperation`, then `Operation-Location`, then `Location`, then the
//! resource's own `provisioningState`. Only `Succeeded`, `Failed`, `Canceled` and `Cancelled`
//! (any case) are terminal; everything else, including free-form progress text such as
//! "CreatingAgentPool: 0/1 nodes completed", means still running, and an `error` inside a
//! running status is not a failure. Each poll goes through the client's retries; up to three
//! polls in a row may lose the connection, and a 404 is tolerated for a grace period (the
//! same rules serve runCommand results through `Poller`).
//!
//! The wait between polls is `next_wait`. When the answer carries `Retry-After` (or
//! `retry-after-ms`), ARM is saying when to look again ("Track asynchronous Azure
//! operations", <https://learn.microsoft.com/azure/azure-resource-manager/management/async-operations>):
//! the next poll comes exactly that long after the answer (at least 1 s), as Azure's SDKs do
//! (azure-core's `ARMPolling` and azcore's pollers use the header when present, their own
//! interval only when it is absent), and so the Azure CLI. Without the header (or with
//! `Retry-After: 0`, which gives no advice) a schedule of the time already waited applies:
//! 2 s, 4 s, 8 s, 16 s, then every 32 s, about as long as the operation has run, so a short
//! one ends fast and a long one costs few polls. Every wait ends at the `--timeout`. Without
//! the header a 26-minute create costs 52 polls (the Azure CLI's fixed 30 s also gives 52) and
//! a 1-minute one is seen 2 s after it ends; with `Retry-After: 5` the 1-minute one is seen
//! within 5 s (`polls_over`, `cargo bench --bench polls`).
use std::time::{Duration, Instant, SystemTime};

use reqwest::Method;
use serde_json::Value;

use super::client::{ArmClient, ArmResponse, Req};
use super::error::{ArmError, ErrorBody};
use super::retry::retry_after;
use crate::resources::{OperationStatus, ResourceState};

/// The first wait between polls.
pub const FIRST_INTERVAL: Duration = Duration::from_secs(2);
/// The longest wait between polls the schedule chooses (a longer `Retry-After` is honoured).
pub const MAX_INTERVAL: Duration = Duration::from_secs(32);
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
    /// The command that resumes waiting, naming settings by id (the front end words it).
    pub resume: crate::domain::setting::Words,
    /// When to give up (the `--timeout`).
    pub deadline: Instant,
    /// When waiting started.
    pub started: Instant,
}

pub use crate::domain::is_terminal;

fn is_success(state: &str) -> bool {
    state.trim().eq_ignore_ascii_case("succeeded")
}

/// The resource's `properties.provisioningState`; none when Azure did not send it, or the body
/// is not a resource (the callers then keep waiting or say it was not returned, never Succeeded).
pub fn provisioning_state(v: &Value) -> Option<String> {
    ResourceState::read(v).ok()?.provisioning_state().map(str::to_owned)
}

/// Azure's error in an operation status (`error`), when it sent one.
fn error_in(v: &Value) -> Option<Box<ErrorBody>> {
    let state = ResourceState::read(v).ok()?;
    state.error().and_then(ErrorBody::from_value).map(Box::new)
}

/// A resource's `properties.status.provisioningError`, when Azure sent one.
pub fn provisioning_error(v: &Value) -> Option<Box<ErrorBody>> {
    let state = ResourceState::read(v).ok()?;
    state.provisioning_error().and_then(ErrorBody::from_value).map(Box::new)
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

/// The schedule: the wait before the next poll when `waited` has been waited so far. It is
/// the time waited plus `FIRST_INTERVAL`, between `FIRST_INTERVAL` and `MAX_INTERVAL`, so polls
/// fall at 2, 6, 14, 30 and 62 s, then every 32 s.
pub fn interval_after(waited: Duration) -> Duration {
    waited.saturating_add(FIRST_INTERVAL).clamp(FIRST_INTERVAL, MAX_INTERVAL)
}

/// The shortest wait a server's `Retry-After` sets between polls.
pub const MIN_SERVER_INTERVAL: Duration = Duration::from_secs(1);

/// The wait before the next poll: the server's `Retry-After` when it sent one (at least
/// [`MIN_SERVER_INTERVAL`]; zero gives no advice), else the schedule of the time `waited`.
pub fn next_wait(waited: Duration, retry_after: Option<Duration>) -> Duration {
    match retry_after.filter(|d| !d.is_zero()) {
        Some(server) => server.max(MIN_SERVER_INTERVAL),
        None => interval_after(waited),
    }
}

/// The polls the schedule sends, and the time of the last one, to see an operation that takes
/// `total` (simulated clock: the schedule's waits only, no request time) when its answers
/// carry no `Retry-After`.
pub fn polls_over(total: Duration) -> (u32, Duration) {
    polls_over_with(total, None)
}

/// [`polls_over`] when every answer carries `Retry-After: retry_after`.
pub fn polls_over_with(total: Duration, retry_after: Option<Duration>) -> (u32, Duration) {
    let (mut t, mut n) = (Duration::ZERO, 0);
    while t < total {
        t += next_wait(t, retry_after);
        n += 1;
    }
    (n, t)
}

/// The shared polling rules: pacing, dropped connections, 404 grace and the deadline.
#[derive(Debug, Default)]
pub struct Poller {
    /// The waits so far (the schedule's clock).
    waited: Duration,
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
    /// Sleep `next_wait` (`last`'s `Retry-After`, else the schedule), ending at the deadline.
    pub async fn pause(
        &mut self,
        client: &ArmClient,
        last: Option<&ArmResponse>,
        op: &Operation,
    ) -> Result<(), ArmError> {
        let server = last.and_then(|r| retry_after(&r.headers, SystemTime::now())).filter(|d| !d.is_zero());
        let wait = next_wait(self.waited, server);
        let remaining = op.deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(timed_out(op));
        }
        let wait = wait.min(remaining);
        self.waited = self.waited.saturating_add(wait);
        client.sleeper.sleep(wait).await;
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
        if let Some(state) = provisioning_state(&body) {
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
            // An empty answer says nothing yet; a body of another shape is an error, never "no status".
            let typed: OperationStatus = match &v {
                Value::Null => OperationStatus::default(),
                v => crate::resources::parse(v, "operation status").map_err(|e| resp.shape_error(&e))?,
            };
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
            let status = || ResourceState::read(&v).ok().and_then(|s| s.status().map(str::to_owned));
            if let Some(state) = provisioning_state(&v).or_else(status) {
                if is_terminal(&state) && !is_success(&state) {
                    return Err(failed(client, op, &state, &v));
                }
            }
            final_get(client, method, op, v).await.map(Some)
        }
        Via::Resource => {
            let v = resp.value()?;
            let state = provisioning_state(&v).unwrap_or_default();
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
        body: error_in(v),
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
        progress(&state);
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
        body: provisioning_error(&body),
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

    /// The schedule's poll times: 2, 6, 14, 30, 62 s, then every 32 s.
    #[test]
    fn schedule_grows_then_caps() {
        let mut t = Duration::ZERO;
        let times: Vec<u64> = (0..8)
            .map(|_| {
                t += next_wait(t, None);
                t.as_secs()
            })
            .collect();
        assert_eq!(times, [2, 6, 14, 30, 62, 94, 126, 158]);
        assert_eq!(interval_after(Duration::MAX), MAX_INTERVAL);
        assert_eq!(interval_after(Duration::ZERO), FIRST_INTERVAL);
    }

    /// Simulated clock: a 26-minute create (a MIG pool) costs at most 52 polls, as the Azure
    /// CLI's fixed 30 s interval does (`az aks nodepool add`, `--polling-interval` default),
    /// and a 1-minute create is seen within 10 s of its end.
    #[test]
    fn targets_on_a_simulated_clock() {
        let (polls, seen) = polls_over(Duration::from_secs(26 * 60));
        assert!(polls <= 52, "{polls} polls for 26 minutes");
        assert!(seen >= Duration::from_secs(26 * 60));
        let (_, seen) = polls_over(Duration::from_secs(60));
        assert!(seen - Duration::from_secs(60) <= Duration::from_secs(10), "seen at {seen:?}");
        // A fixed 30 s interval, for comparison: 52 polls for 26 minutes.
        assert_eq!((26 * 60u32).div_ceil(30), 52);
    }

    /// `Retry-After` sets the next poll, longer or shorter than the schedule; 0 gives no advice
    /// (the schedule); a sub-second one waits 1 s.
    #[test]
    fn retry_after_sets_the_next_poll() {
        let s = Duration::from_secs;
        assert_eq!(next_wait(s(0), Some(s(10))), s(10));
        assert_eq!(next_wait(s(0), Some(s(5))), s(5));
        assert_eq!(next_wait(s(600), Some(s(5))), s(5), "not the schedule's 32 s");
        assert_eq!(next_wait(s(600), Some(s(120))), s(120));
        assert_eq!(next_wait(s(600), Some(Duration::ZERO)), s(32));
        assert_eq!(next_wait(s(0), Some(Duration::from_millis(200))), s(1));
        // A 1-minute operation whose answers say `Retry-After: 5`: seen at 60 s, 12 polls.
        assert_eq!(polls_over_with(s(60), Some(s(5))), (12, s(60)));
    }
}
