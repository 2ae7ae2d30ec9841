//! After a write's answer was lost: read the state instead of sending the write again.
//!
//! `send_write` sends a write once and keeps `Progress` truthful for Ctrl-C (in flight, then
//! accepted or cleared). When the answer is lost (`ArmError::OutcomeUnknown`), `read_back`
//! GETs the resource: if it carries what was asked and is in one of the states the write
//! leads to (e.g. Creating, Updating, Succeeded), the write was ours and waiting continues;
//! if it is absent or different, Azure did not apply it (exit 1, nothing was resent); if it
//! cannot be read, the outcome stays unknown (exit 4 with the command that checks it).

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{wire, Progress};
use crate::arm::lro::{provisioning_error, provisioning_state};
use crate::arm::{ArmClient, ArmError, ArmResponse, ErrorBody, Req};
use crate::domain::setting::Words;
use crate::plan::Step;

/// How a write went.
#[derive(Debug)]
pub enum Sent {
    /// Azure answered (2xx or not).
    Answer(ArmResponse),
    /// The answer was lost: the write may or may not have been applied.
    Lost(String),
}

/// Send a write (a plan step) exactly as the client's retry rules allow (never twice once it
/// may have been applied), recording it in `started` for Ctrl-C.
pub async fn send_write(
    client: &ArmClient,
    step: &Step,
    started: &Progress,
    resource: &str,
    resume: impl Into<Words>,
) -> Result<Sent, ArmError> {
    send_request(client, &wire::request(step, None)?, started, resource, resume).await
}

/// `send_write` for a request [`wire::request`] built (one that carries a secret).
pub async fn send_request(
    client: &ArmClient,
    req: &Req,
    started: &Progress,
    resource: &str,
    resume: impl Into<Words>,
) -> Result<Sent, ArmError> {
    let resume = resume.into();
    started.sending(resource, &resume);
    match client.send(req).await {
        Ok(resp) if resp.ok() => {
            started.accepted(resource, resume);
            Ok(Sent::Answer(resp))
        }
        Ok(resp) => {
            started.clear();
            Ok(Sent::Answer(resp))
        }
        Err(ArmError::OutcomeUnknown { message, .. }) => Ok(Sent::Lost(message)),
        Err(e) => {
            started.clear();
            Err(e)
        }
    }
}

/// How a guarded PUT ended.
#[derive(Debug)]
pub enum Landed {
    /// Azure answered (2xx or not).
    Answer(ArmResponse),
    /// An answer was lost, and reading the resource back showed the write landed.
    Ours(Value),
}

/// Send a PUT (the plan's step); when its answer is lost (a reset, or 500/502/503/504 without
/// `Retry-After`), read the resource back (`check.read`, a plan step). When it landed, that is
/// the result. When it did not, and the plan's [`resend`](crate::plan::resend) gives the step
/// under a precondition (`If-None-Match: *` to create, `If-Match: <eTag>` to update), send that:
/// ARM then refuses it with 412 rather than overwrite a change made by someone else in the
/// meantime. At most the client's retry count of resends, within `--timeout`. Without a
/// precondition nothing is resent (`NotApplied`); nor when the backoff would pass `deadline`.
pub async fn put_guarded<T: DeserializeOwned>(
    client: &ArmClient,
    put: &Step,
    check: &Check<'_, T>,
    started: &Progress,
    resource: &str,
    deadline: std::time::Instant,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Landed, ArmError> {
    let mut resent = 0;
    let again = crate::plan::resend(put);
    let mut step = put;
    loop {
        let lost = match send_write(client, step, started, resource, &check.resume).await? {
            Sent::Answer(resp) if resent > 0 && (resp.status == 412 || busy(&resp)) => {
                // An earlier attempt may have landed after it was read back (its eTag moved on,
                // or its operation is the one in progress): look once more.
                return match read_back(client, check, "HTTP 412 after sending again").await {
                    Ok(v) => {
                        started.accepted(resource, &check.resume);
                        Ok(Landed::Ours(v))
                    }
                    Err(ArmError::NotApplied { .. }) => Ok(Landed::Answer(resp)),
                    Err(e) => Err(e),
                };
            }
            Sent::Answer(resp) => return Ok(Landed::Answer(resp)),
            Sent::Lost(lost) => lost,
        };
        progress("the answer was lost; reading the resource back");
        match read_back(client, check, &lost).await {
            Ok(v) => {
                started.accepted(resource, &check.resume);
                return Ok(Landed::Ours(v));
            }
            Err(ArmError::NotApplied { .. }) if again.is_some() && may_resend(client, resent, deadline) => {
                let Some(resend) = again.as_ref() else { continue };
                step = resend;
                started.clear();
                resent += 1;
                let guard = step.precondition().unwrap_or("a precondition");
                progress(&format!(
                    "Azure did not apply it; sending it again with {guard} ({resent}/{})",
                    client.policy.max_retries
                ));
                client.sleeper.sleep(client.policy.backoff(resent, crate::arm::retry::jitter())).await;
            }
            Err(e) => return Err(e),
        }
    }
}

/// A PUT read back as not applied may go again (under its precondition) when it has resends
/// left, and the longest next backoff ends before the operation's deadline (and `--timeout`).
fn may_resend(client: &ArmClient, resent: u32, deadline: std::time::Instant) -> bool {
    let next = client.policy.backoff(resent + 1, 1.3);
    let end = client.deadline.map_or(deadline, |d| d.min(deadline));
    let in_time = std::time::Instant::now() + next < end;
    resent < client.policy.max_retries && in_time
}

/// What to read back and how to recognise the write: the resource read back is read as `T`
/// (`ManagedCluster`, `AgentPool`; `IgnoredAny` when any answer is the write's).
pub struct Check<'a, T> {
    /// "pool gpu in cluster c1", for messages.
    pub what: String,
    /// The plan's read of the resource.
    pub read: Step,
    /// The command that checks or resumes, naming settings by id.
    pub resume: Words,
    /// `provisioningState`s the write leads to (case-insensitive).
    pub states: &'a [&'a str],
    /// True when the resource, read typed, carries what was asked (a resource of another
    /// shape carries nothing: it is never taken as the write's).
    pub carries: &'a (dyn Fn(&T) -> bool + Sync),
}

/// Read the resource after a lost answer: `Ok` with the resource when the write is ours.
pub async fn read_back<T: DeserializeOwned>(
    client: &ArmClient,
    check: &Check<'_, T>,
    lost: &str,
) -> Result<Value, ArmError> {
    let v = match wire::get_opt::<Value>(client, &check.read).await {
        Ok(Some(v)) => v,
        Ok(None) => return Err(not_applied(&check.what, lost, "it does not exist")),
        Err(e) => {
            return Err(ArmError::Unconfirmed {
                what: check.what.clone(),
                message: format!("{lost}; reading it back failed: {e}"),
                resume: check.resume.clone(),
            })
        }
    };
    let state = provisioning_state(&v);
    let state = state.as_deref().unwrap_or("Unknown");
    let carries = T::deserialize(&v).is_ok_and(|t| (check.carries)(&t));
    // Only the fields the change sets decide: a resource that carries them is ours in any state
    // its write leads to, and in any state of an operation still running (whatever else Azure
    // filled in or changed, its eTag included).
    let going_away = ["Deleting", "Canceling", "Cancelling"].iter().any(|s| s.eq_ignore_ascii_case(state));
    let running = !crate::domain::is_terminal(state) && !going_away;
    if carries && (running || check.states.iter().any(|s| s.eq_ignore_ascii_case(state))) {
        return Ok(v);
    }
    // It carries what was asked and its operation already failed: the write landed (and is
    // never sent again); report Azure's error.
    if carries && crate::domain::is_terminal(state) && !state.eq_ignore_ascii_case("succeeded") {
        return Err(ArmError::OperationFailed {
            what: check.what.clone(),
            status: state.to_owned(),
            body: provisioning_error(&v),
            correlation_id: client.correlation_id.clone(),
        });
    }
    Err(not_applied(&check.what, lost, &format!("it is {state} and does not carry what was asked")))
}

/// The error for a write that read-back shows was not applied.
pub fn not_applied(what: &str, lost: &str, found: &str) -> ArmError {
    ArmError::NotApplied {
        what: what.to_owned(),
        message: format!(
            "the answer to the request was lost ({lost}); read back, {found}, so Azure did not apply it. \
             Nothing was sent again"
        ),
        hint: Some("run the same command again: it reads the current state first".into()),
    }
}

/// A 409 that says another operation is in progress on the resource (AKS's
/// `OperationNotAllowed`, `AKSOperationPreempted`, `NotLatestOperation`), not a quota refusal.
pub fn busy(resp: &ArmResponse) -> bool {
    if resp.status != 409 {
        return false;
    }
    let Some(b) = ErrorBody::parse(&resp.body) else { return false };
    let inner = b.innermost();
    !inner.message.to_ascii_lowercase().contains("quota")
        && matches!(
            inner.code.as_str(),
            "OperationNotAllowed" | "AKSOperationPreempted" | "NotLatestOperation" | "Conflict"
        )
}
