//! AKS runCommand request bodies (pure). The cluster token is a secret: only the executor puts
//! it in a body it sends; printed bodies show a placeholder.

use base64::Engine as _;
use serde_json::{json, Value};

use super::read_at_run_time;
use crate::domain::api;
use crate::secret::Secret;

/// `{cluster}/runCommand?api-version=…`
pub fn url(cluster_path: &str) -> String {
    format!("{cluster_path}/runCommand?api-version={}", api::AKS)
}

/// The request body. `context` is the zip of attached files (base64-encoded here).
pub fn body(command: &str, context: Option<&[u8]>, cluster_token: Option<&Secret>) -> Value {
    with_token(command, context, cluster_token.map(|t| t.expose().to_owned()))
}

/// The body (`RunCommandRequest`: command, context, and the cluster token when there is one).
fn with_token(command: &str, context: Option<&[u8]>, token: Option<String>) -> Value {
    let context = context.map(|c| base64::engine::general_purpose::STANDARD.encode(c)).unwrap_or_default();
    match token {
        Some(t) => json!({"command": command, "context": context, "clusterToken": t}),
        None => json!({"command": command, "context": context}),
    }
}

/// The body as printed by dry runs: the cluster token is never shown. `needs_token` is `None`
/// when the cluster was not read (a dry run without credentials).
pub fn body_for_display(command: &str, context: Option<&[u8]>, needs_token: Option<bool>) -> Value {
    let shown = match needs_token {
        Some(true) => Some("<Entra ID token for the AKS server app, minted at run time; never printed>".to_owned()),
        Some(false) => None,
        None => Some(read_at_run_time("Entra ID clusters only: a token for the AKS server app; never printed")),
    };
    with_token(command, context, shown)
}

/// A runCommand POST that runs `command` (no attached files) on the cluster at `cluster_path`;
/// its result is polled at the `Location` Azure returns.
pub fn command_step(cluster_path: &str, command: &str, needs_token: Option<bool>, purpose: &str) -> super::Step {
    super::Step::write(
        super::StepKind::CheckOperator,
        "POST",
        url(cluster_path),
        Some(body_for_display(command, None, needs_token)),
        purpose,
    )
    .then_follows(super::Follow::CommandResult)
}
