//! After a write's answer was lost: read the state instead of sending the write again.
//!
//! `send_write` sends a write once and keeps `Progress` truthful for Ctrl-C (in flight, then
//! accepted or cleared). When the answer is lost (`ArmError::OutcomeUnknown`), `read_back`
//! GETs the resource: if it carries what was asked and is in one of the states the write
//! leads to (e.g. Creating, Updating, Succeeded), the write was ours and waiting continues;
//! if it is absent or different, Azure did not apply it (exit 1, nothing was resent); if it
//! cannot be read, the outcome stays unknown (exit 4 with the command that checks it).

use serde_json::Value;

use super::Progress;
use crate::arm::lro::provisioning_state;
use crate::arm::{ArmClient, ArmError, ArmResponse, Req};

/// How a write went.
#[derive(Debug)]
pub enum Sent {
    /// Azure answered (2xx or not).
    Answer(ArmResponse),
    /// The answer was lost: the write may or may not have been applied.
    Lost(String),
}

/// Send a write exactly as the client's retry rules allow (never twice once it may have
/// been applied), recording it in `started` for Ctrl-C.
pub async fn send_write(
    client: &ArmClient,
    req: &Req,
    started: &Progress,
    resource: &str,
    resume: &str,
) -> Result<Sent, ArmError> {
    started.sending(resource, resume);
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

/// What to read back and how to recognise the write.
pub struct Check<'a> {
    /// "pool gpu in cluster c1", for messages.
    pub what: String,
    /// The resource URL to GET.
    pub url: String,
    /// The command that checks or resumes.
    pub resume: String,
    /// `provisioningState`s the write leads to (case-insensitive).
    pub states: &'a [&'a str],
    /// True when the resource carries what was asked.
    pub carries: &'a (dyn Fn(&Value) -> bool + Sync),
}

/// Read the resource after a lost answer: `Ok` with the resource when the write is ours.
pub async fn read_back(client: &ArmClient, check: &Check<'_>, lost: &str) -> Result<Value, ArmError> {
    let v = match client.get_json_opt::<Value>(&check.url).await {
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
    let state = provisioning_state(&v).unwrap_or("Unknown");
    let ours = check.states.iter().any(|s| s.eq_ignore_ascii_case(state)) && (check.carries)(&v);
    if ours {
        return Ok(v);
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

/// True when `v` is in one of `states` (case-insensitive).
pub fn in_state(v: &Value, states: &[&str]) -> bool {
    provisioning_state(v).is_some_and(|s| states.iter().any(|x| x.eq_ignore_ascii_case(s)))
}
