//! AKS runCommand: run a shell command in the cluster through ARM and collect its result.
//!
//! POST `{cluster}/runCommand` answers 202 with a `Location` to `commandResults/{id}` (or 200
//! with the result). Results are polled until `provisioningState` is terminal (any case). A
//! non-zero `exitCode` is a failure even when the state says Succeeded; the logs are kept.
//! It reads results here rather than through `lro::wait`, because a failed command's logs and
//! reason live in the result body, which the generic poller would reduce to an error; each
//! poll still goes through `lro::Poller` (pacing, 3 dropped connections, 404 grace, deadline).

use std::time::Instant;

use serde_json::Value;

use crate::resources::RunCommandResult;

use super::reconcile::{send_request, Sent};
use super::Progress;
use crate::arm::auth::Secret;
use crate::arm::lro::{Operation, Polled, Poller};
use crate::arm::{ArmClient, ArmError, ArmResponse, Req};
use crate::plan::Step;

pub use crate::plan::runcommand::{body, url};

/// A finished command.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CommandResult {
    pub state: String,
    pub exit_code: Option<i64>,
    pub logs: String,
    pub reason: Option<String>,
}

impl CommandResult {
    /// "exit code 1" or "state failed".
    pub fn describe(&self) -> String {
        match self.exit_code {
            Some(c) if self.state.eq_ignore_ascii_case("succeeded") => format!("exit code {c}"),
            _ => format!("state {}", self.state),
        }
    }

    /// Succeeded with exit code 0. A result without `exitCode` is not taken as 0: it did not
    /// say the command succeeded.
    pub fn ok(&self) -> bool {
        self.state.eq_ignore_ascii_case("succeeded") && self.exit_code == Some(0)
    }
}

/// The result, typed (`RunCommandResult` in the spec; also accepted without the `properties`
/// wrapper). An empty answer is a command not yet done; a body of another shape is an error.
fn parse(resp: &crate::arm::ArmResponse) -> Result<CommandResult, ArmError> {
    let v = resp.value()?;
    let typed = match v {
        Value::Null => RunCommandResult::default(),
        v => RunCommandResult::from_value(&v).map_err(|e| resp.shape_error(&e))?,
    };
    let p = typed.properties;
    Ok(CommandResult {
        // No state yet is "Unknown": not terminal, so polling goes on (it never reads as done).
        state: p.provisioning_state.unwrap_or_else(|| "Unknown".to_owned()),
        exit_code: p.exit_code,
        logs: crate::arm::redact::sanitize(p.logs.as_deref().unwrap_or_default()),
        reason: p.reason.as_deref().map(crate::arm::redact::sanitize),
    })
}

/// Run a command (the plan's runCommand `step` on the cluster at `cluster_path`; `cluster_token`
/// goes in its body) and wait for its result (bounded by `deadline`). The POST is sent once: when
/// its answer is lost, the result cannot be found (its URL was in the answer), so this ends
/// with `ArmError::Unconfirmed` (exit 4). Results are polled at the `Location` Azure returns,
/// under the shared poller's rules.
pub async fn run(
    client: &ArmClient,
    (cluster_path, step): (&str, &Step),
    cluster_token: Option<&Secret>,
    deadline: Instant,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<CommandResult, ArmError> {
    let req = super::wire::request(step, cluster_token)?;
    let resume = "run the same aksgpu command again (helm upgrade --install and the checks are safe to repeat)";
    let resource = format!("{cluster_path}/runCommand");
    let resp = match send_request(client, &req, started, &resource, resume).await? {
        Sent::Answer(resp) => resp.require_ok()?,
        Sent::Lost(lost) => {
            return Err(ArmError::Unconfirmed {
                what: "the in-cluster command".into(),
                message: format!("{lost}; its result URL was in the lost answer, so it cannot be read"),
                resume: resume.into(),
            })
        }
    };
    if resp.status == 200 && !resp.body.is_empty() {
        return parse(&resp);
    }
    let location = resp.header("location").map(str::to_owned).ok_or_else(|| ArmError::InvalidResponse {
        method: "POST".into(),
        path: resp.path.clone(),
        status: resp.status,
        message: "runCommand accepted without a Location to poll".into(),
        snippet: String::new(),
        request_id: resp.request_id(),
    })?;
    let now = Instant::now();
    let op = Operation {
        what: "the in-cluster command".into(),
        resource: Req::get(location),
        resume: resume.into(),
        deadline,
        started: now,
    };
    poll_result(client, resp, op, progress).await
}

/// Poll `commandResults/{id}` (followed through new `Location`s) until a terminal state.
async fn poll_result(
    client: &ArmClient,
    mut last: ArmResponse,
    mut op: Operation,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<CommandResult, ArmError> {
    let mut poller = Poller::default();
    loop {
        poller.pause(client, Some(&last), &op).await?;
        let resp = match poller.poll(client, &op.resource.clone(), &op, progress).await? {
            Polled::Answer(r) => r,
            Polled::Again => continue,
        };
        if let Some(l) = resp.header("location") {
            op.resource = Req::get(l);
        }
        let r = parse(&resp)?;
        progress(&format!("in-cluster command: {}", r.state));
        if resp.status == 200 && crate::arm::lro::is_terminal(&r.state) {
            return Ok(r);
        }
        last = resp;
    }
}
