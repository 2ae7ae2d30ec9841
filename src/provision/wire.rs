//! The plan is the wire: the one place a plan [`Step`] becomes an HTTP request.
//!
//! Every request the executor sends is a `Step` built (purely) in `plan`, turned into an
//! [`arm::Req`](crate::arm::Req) by [`request`]: its method, URL, headers and body, nothing
//! added or dropped. The only URLs the executor sends that no plan built are the ones Azure
//! returns, and each step that leads to them says so ([`Follow`](crate::plan::Follow)): a
//! list's `nextLink` pages, a long-running write's operation URL, a runCommand's result.
//! The one value a plan never holds is a secret (runCommand's `clusterToken`): the plan shows
//! a placeholder, and [`request`] puts the token in its place.

use reqwest::Method;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::arm::{ArmClient, ArmError, ArmResponse, Req};
use crate::plan::Step;
use crate::resources::AsRead;
use crate::secret::Secret;

/// The 200 answer to `step` (a GET read through [`get`], so its response is gone) lacks a
/// field its resource needs.
pub fn step_shape_error(step: &Step, e: &crate::resources::MissingField) -> ArmError {
    ArmError::InvalidResponse {
        method: step.method.to_owned(),
        path: step.url.clone(),
        status: 200,
        message: e.to_string(),
        snippet: String::new(),
        request_id: None,
    }
}

/// Read `resp`'s body as the resource `T`: an empty body is `None` (Azure said nothing yet),
/// a body of another shape an error naming it (never a resource of all-absent fields).
pub fn typed<T: DeserializeOwned>(resp: &ArmResponse, resource: &str) -> Result<Option<T>, ArmError> {
    match resp.value()? {
        Value::Null => Ok(None),
        v => crate::resources::parse(&v, resource).map(Some).map_err(|e| resp.shape_error(&e)),
    }
}

/// The HTTP request of `step`; `token`, when given, replaces the body's `clusterToken`
/// placeholder (runCommand on an Entra ID cluster).
pub fn request(step: &Step, token: Option<&Secret>) -> Result<Req, ArmError> {
    let method = Method::from_bytes(step.method.as_bytes()).map_err(|_| ArmError::Bug {
        message: format!("the plan's step has no valid HTTP method ({:?})", step.method),
    })?;
    let body = step.body.clone().map(|mut b| {
        if let (Some(t), Some(slot)) = (token, b.get_mut("clusterToken")) {
            *slot = Value::String(t.expose().to_owned());
        }
        b.to_string().into_bytes()
    });
    Ok(Req {
        method,
        url: step.url.clone(),
        body,
        headers: step.headers.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        once: false,
        read_only: false,
    })
}

/// Send `step` (with the client's retry rules) and return Azure's answer, 2xx or not.
pub async fn send(client: &ArmClient, step: &Step) -> Result<ArmResponse, ArmError> {
    client.send(&request(step, None)?).await
}

/// Send a read and parse its JSON; any non-2xx is an error.
pub async fn get<T: DeserializeOwned>(client: &ArmClient, step: &Step) -> Result<T, ArmError> {
    client.get_json(&request(step, None)?).await
}

/// Send a read and parse its JSON; 404 is `None`.
pub async fn get_opt<T: DeserializeOwned>(client: &ArmClient, step: &Step) -> Result<Option<T>, ArmError> {
    client.get_json_opt(&request(step, None)?).await
}

/// Send a read and read its answer as the resource `T`; a body of another shape is an error
/// naming the field.
pub async fn get_typed<T: DeserializeOwned>(client: &ArmClient, step: &Step, resource: &str) -> Result<T, ArmError> {
    let v: Value = get(client, step).await?;
    crate::resources::parse(&v, resource).map_err(|e| step_shape_error(step, &e))
}

/// Send a read and read its answer as the resource `T`, its JSON kept for a write that sends
/// it back; a body of another shape is an error naming the field.
pub async fn get_read<T: DeserializeOwned>(
    client: &ArmClient,
    step: &Step,
    resource: &str,
) -> Result<AsRead<T>, ArmError> {
    let v: Value = get(client, step).await?;
    AsRead::parse(v, resource).map_err(|e| step_shape_error(step, &e))
}

/// [`get_read`]; 404 is `None`.
pub async fn get_read_opt<T: DeserializeOwned>(
    client: &ArmClient,
    step: &Step,
    resource: &str,
) -> Result<Option<AsRead<T>>, ArmError> {
    match get_opt::<Value>(client, step).await? {
        Some(v) => AsRead::parse(v, resource).map(Some).map_err(|e| step_shape_error(step, &e)),
        None => Ok(None),
    }
}

/// Send a list read, then every `nextLink` page Azure returns; each item is read as `T` (an
/// item of another shape is an error naming its field, never skipped).
pub async fn list<T: crate::resources::Listed>(client: &ArmClient, step: &Step) -> Result<Vec<T>, ArmError> {
    client.list(&request(step, None)?).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::StepKind;

    /// A step whose method is not an HTTP method is a bug in the plan, not the user's input.
    #[test]
    fn a_step_without_a_valid_method_is_a_bug() {
        let step = Step::write(StepKind::InstallOperator, "NOT A METHOD", "/c?api-version=1".into(), None, "x");
        let e = request(&step, None).expect_err("refused");
        assert!(matches!(e, ArmError::Bug { .. }), "{e:?}");
        assert!(e.to_string().contains("no valid HTTP method"), "{e}");
    }

    #[test]
    fn a_request_is_its_step_and_only_the_token_is_added() {
        let step = Step::write(
            StepKind::InstallOperator,
            "POST",
            "/c/runCommand?api-version=1".into(),
            Some(serde_json::json!({"command": "helm", "clusterToken": "<placeholder>"})),
            "install",
        )
        .header("If-Match", "e1");
        let r = request(&step, Some(&Secret::new("tok"))).expect("a request");
        assert_eq!((r.method, r.url.as_str()), (Method::POST, "/c/runCommand?api-version=1"));
        assert_eq!(r.headers, vec![("If-Match".to_owned(), "e1".to_owned())]);
        let body: Value = serde_json::from_slice(r.body.as_deref().unwrap_or_default()).expect("JSON");
        assert_eq!(body, serde_json::json!({"command": "helm", "clusterToken": "tok"}));
        let shown = request(&step, None).expect("a request");
        assert_eq!(shown.body, step.body.as_ref().map(|b| b.to_string().into_bytes()));
        let bad = Step { method: "NOT A METHOD", ..step };
        assert!(request(&bad, None).is_err());
    }
}
