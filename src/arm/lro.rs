//! The one poller for ARM long-running operations.
//!
//! Polling follows `Azure-AsyncOperation`, then `Operation-Location`, then `Location`, then the
//! resource's own `provisioningState`. Only `Succeeded`, `Failed`, `Canceled` and `Cancelled`
//! (any case) are terminal; everything else, including free-form progress text such as
//! "CreatingAgentPool: 0/1 nodes completed", means still running, and an `error` inside a
//! running status is not a failure. Each poll goes through the client's retries; up to three
//! polls in a row may lose the connection, and a 404 is tolerated for a grace period. The
//! wait interval is the server's `Retry-After`, else 15 s (at least 1 s).

use std::time::{Duration, Instant, SystemTime};

use reqwest::Method;
use serde_json::Value;

use super::client::{ArmClient, ArmResponse, Req};
use super::error::{ArmError, ErrorBody};
use super::retry::retry_after;

/// Default wait between polls.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(15);
const MIN_INTERVAL: Duration = Duration::from_secs(1);
const MAX_DROPPED_POLLS: u32 = 3;
const NOT_FOUND_GRACE: u32 = 5;

/// What is being waited for.
#[derive(Debug, Clone)]
pub struct Operation {
    /// "agent pool gpu in cluster c1", for messages.
    pub what: String,
    /// The resource URL (for the final GET and resource-state polling).
    pub resource_url: String,
    /// The command that resumes waiting.
    pub resume: String,
    /// When to give up (the `--timeout`).
    pub deadline: Instant,
    /// When waiting started.
    pub started: Instant,
}

/// True for terminal states (case-insensitive).
pub fn is_terminal(state: &str) -> bool {
    matches!(state.trim().to_ascii_lowercase().as_str(), "succeeded" | "failed" | "canceled" | "cancelled")
}

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

fn interval(resp: Option<&ArmResponse>) -> Duration {
    resp.and_then(|r| retry_after(&r.headers, SystemTime::now())).unwrap_or(DEFAULT_INTERVAL).max(MIN_INTERVAL)
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
    let body = initial.value()?;
    let is_write = *method == Method::PUT || *method == Method::PATCH;
    if is_write {
        if let Some(state) = provisioning_state(&body).map(str::to_owned) {
            if is_terminal(&state) {
                return finish_resource(&state, body, op, client);
            }
        }
    }
    let Some(mut via) = poll_via(&initial, method) else {
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
    let mut last: ArmResponse = initial;
    let mut dropped = 0u32;
    let mut not_found = 0u32;
    loop {
        let wait_for = interval(Some(&last));
        let now = Instant::now();
        if now >= op.deadline {
            return Err(timed_out(op));
        }
        let remaining = op.deadline.saturating_duration_since(now);
        client.sleeper.sleep(wait_for.min(remaining)).await;
        if Instant::now() >= op.deadline {
            return Err(timed_out(op));
        }
        let url = match &via {
            Via::AsyncOperation(u) | Via::Location(u) => u.clone(),
            Via::Resource => op.resource_url.clone(),
        };
        let resp = match client.send(&Req::get(&url)).await {
            Ok(r) => r,
            Err(ArmError::Transport { message, .. }) => {
                dropped += 1;
                progress(&format!("connection lost ({dropped}/{MAX_DROPPED_POLLS}), retrying"));
                if dropped >= MAX_DROPPED_POLLS {
                    return Err(ArmError::PollingLost { what: op.what.clone(), message, resume: op.resume.clone() });
                }
                continue;
            }
            Err(e) => return Err(e),
        };
        dropped = 0;
        if resp.status == 404 {
            not_found += 1;
            if not_found > NOT_FOUND_GRACE {
                return Err(resp.to_error());
            }
            progress("not visible yet");
            last = resp;
            continue;
        }
        not_found = 0;
        if !(200..300).contains(&resp.status) {
            return Err(resp.to_error());
        }
        match &via {
            Via::AsyncOperation(_) => {
                let v = resp.value()?;
                let Some(status) = v.get("status").and_then(Value::as_str) else {
                    // e.g. {"error":{"code":"BadGatewayConnection"}} with no status: try again.
                    progress("waiting (no status in the reply)");
                    last = resp;
                    continue;
                };
                progress(status);
                if is_terminal(status) {
                    if !is_success(status) {
                        return Err(ArmError::OperationFailed {
                            what: op.what.clone(),
                            status: status.to_owned(),
                            body: v.get("error").and_then(ErrorBody::from_value).map(Box::new),
                            correlation_id: client.correlation_id.clone(),
                        });
                    }
                    return final_get(client, method, op, v).await;
                }
            }
            Via::Location(_) => {
                if resp.status == 202 {
                    if let Some(next) = resp.header("location") {
                        via = Via::Location(next.to_owned());
                    }
                    progress("in progress");
                } else {
                    let v = resp.value()?;
                    if let Some(state) = provisioning_state(&v).or_else(|| v.get("status").and_then(Value::as_str)) {
                        if is_terminal(state) && !is_success(state) {
                            return Err(ArmError::OperationFailed {
                                what: op.what.clone(),
                                status: state.to_owned(),
                                body: v.get("error").and_then(ErrorBody::from_value).map(Box::new),
                                correlation_id: client.correlation_id.clone(),
                            });
                        }
                    }
                    return final_get(client, method, op, v).await;
                }
            }
            Via::Resource => {
                let v = resp.value()?;
                let state = provisioning_state(&v).unwrap_or_default().to_owned();
                progress(if state.is_empty() { "waiting" } else { &state });
                if is_terminal(&state) {
                    return finish_resource(&state, v, op, client);
                }
            }
        }
        last = resp;
    }
}

/// Resume waiting on a resource by polling its `provisioningState` (no operation URL needed).
pub async fn wait_resource(
    client: &ArmClient,
    op: &Operation,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Value, ArmError> {
    let mut first = client.send(&Req::get(&op.resource_url)).await?.require_ok()?;
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

fn timed_out(op: &Operation) -> ArmError {
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
        let v: Value = client.get_json(&op.resource_url).await?;
        return Ok(v);
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
}
