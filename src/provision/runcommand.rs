//! AKS runCommand: run a shell command in the cluster through ARM and collect its result.
//!
//! POST `{cluster}/runCommand` answers 202 with a `Location` to `commandResults/{id}` (or 200
//! with the result). Results are polled until `provisioningState` is terminal (any case). A
//! non-zero `exitCode` is a failure even when the state says Succeeded; the logs are kept.
//! It polls here rather than through `arm::lro`, because a failed command's logs and reason
//! live in the result body, which the generic poller would reduce to an error.

use std::time::{Duration, Instant, SystemTime};

use base64::Engine as _;
use reqwest::Method;
use serde_json::{json, Value};

use crate::arm::auth::Secret;
use crate::arm::retry::retry_after;
use crate::arm::{api, ArmClient, ArmError, Req};

/// The AKS server application whose token `clusterToken` carries (Entra-ID clusters).
pub const AKS_SERVER_SCOPE: &str = "6dae42f8-4368-4678-94ff-3960e28e3630/.default";

/// `{cluster}/runCommand?api-version=…`
pub fn url(cluster_path: &str) -> String {
    format!("{cluster_path}/runCommand?api-version={}", api::AKS)
}

/// The request body. `context` is the zip of attached files (base64-encoded here).
pub fn body(command: &str, context: Option<&[u8]>, cluster_token: Option<&Secret>) -> Value {
    let mut b = json!({
        "command": command,
        "context": context.map(|c| base64::engine::general_purpose::STANDARD.encode(c)).unwrap_or_default(),
    });
    if let Some(t) = cluster_token {
        b["clusterToken"] = json!(t.expose());
    }
    b
}

/// The body as printed by dry runs: the cluster token is never shown.
pub fn body_for_display(command: &str, context: Option<&[u8]>, needs_token: bool) -> Value {
    let mut b = body(command, context, None);
    if needs_token {
        b["clusterToken"] = json!("<Entra ID token for the AKS server app, minted at run time; never printed>");
    }
    b
}

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

    /// Succeeded with exit code 0.
    pub fn ok(&self) -> bool {
        self.state.eq_ignore_ascii_case("succeeded") && self.exit_code.unwrap_or(0) == 0
    }
}

fn parse(v: &Value) -> CommandResult {
    let p = v.get("properties").unwrap_or(v);
    CommandResult {
        state: p.get("provisioningState").and_then(Value::as_str).unwrap_or("Unknown").to_owned(),
        exit_code: p.get("exitCode").and_then(Value::as_i64),
        logs: crate::output::sanitize(p.get("logs").and_then(Value::as_str).unwrap_or_default()),
        reason: p.get("reason").and_then(Value::as_str).map(crate::output::sanitize),
    }
}

/// Run a command and wait for its result (bounded by `deadline`).
pub async fn run(
    client: &ArmClient,
    cluster_path: &str,
    command: &str,
    context: Option<&[u8]>,
    cluster_token: Option<&Secret>,
    deadline: Instant,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<CommandResult, ArmError> {
    let req = Req::json(Method::POST, url(cluster_path), &body(command, context, cluster_token));
    let mut resp = client.send(&req).await?.require_ok()?;
    if resp.status == 200 && !resp.body.is_empty() {
        return Ok(parse(&resp.value()?));
    }
    let mut location = resp.header("location").map(str::to_owned).ok_or_else(|| ArmError::InvalidResponse {
        method: "POST".into(),
        path: resp.path.clone(),
        status: resp.status,
        message: "runCommand accepted without a Location to poll".into(),
        snippet: String::new(),
        request_id: resp.request_id(),
    })?;
    loop {
        let wait =
            retry_after(&resp.headers, SystemTime::now()).unwrap_or(Duration::from_secs(5)).max(Duration::from_secs(1));
        if Instant::now() + wait > deadline {
            return Err(ArmError::TimedOut {
                what: "the in-cluster command".into(),
                elapsed: Duration::ZERO,
                resume: "run the same command again (helm upgrade --install is idempotent)".into(),
            });
        }
        client.sleeper.sleep(wait).await;
        resp = client.send(&Req::get(&location)).await?.require_ok()?;
        if let Some(l) = resp.header("location") {
            location = l.to_owned();
        }
        let v = resp.value()?;
        let r = parse(&v);
        progress(&format!("in-cluster command: {}", r.state));
        if resp.status == 200 && crate::arm::lro::is_terminal(&r.state) {
            return Ok(r);
        }
    }
}
