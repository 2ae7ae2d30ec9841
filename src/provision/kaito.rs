//! Turning on KAITO (the AI toolchain operator): GET the cluster, change only
//! `aiToolchainOperatorProfile.enabled` and `oidcIssuerProfile.enabled`, PUT it back without
//! read-only fields (with `If-Match` on the cluster's eTag), and wait.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::Value;

use crate::arm::lro::{self, Operation};
use crate::arm::{api, ArmClient, ArmError, Req};
use crate::plan::cluster::{enable_kaito, kaito_enabled};
use crate::plan::{cluster_path, with_api, Plan, Step};

/// What happened.
#[derive(Debug, Clone)]
pub enum Outcome {
    AlreadyEnabled,
    DryRun(Plan),
    Enabled(Value),
}

/// The PUT step for a cluster as read.
pub fn plan(path: &str, cluster: &Value) -> Plan {
    let mut headers = std::collections::BTreeMap::new();
    if let Some(etag) = cluster.get("eTag").and_then(Value::as_str) {
        headers.insert("If-Match".to_owned(), etag.to_owned());
    }
    Plan {
        steps: vec![
            Step {
                method: "GET",
                url: with_api(path, api::AKS),
                body: None,
                headers: Default::default(),
                purpose: "read the cluster".into(),
                read_only: true,
            },
            Step {
                method: "PUT",
                url: with_api(path, api::AKS),
                body: Some(enable_kaito(cluster)),
                headers,
                purpose: "enable aiToolchainOperatorProfile and oidcIssuerProfile (nothing else changes)".into(),
                read_only: false,
            },
        ],
    }
}

/// Enable KAITO on a cluster.
pub async fn enable(
    client: &ArmClient,
    sub: &str,
    rg: &str,
    cluster: &str,
    dry_run: bool,
    timeout: Duration,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Outcome, ArmError> {
    let started = Instant::now();
    let path = cluster_path(sub, rg, cluster);
    let current: Value = client.get_json(&with_api(&path, api::AKS)).await?;
    if kaito_enabled(&current) {
        return Ok(Outcome::AlreadyEnabled);
    }
    let p = plan(&path, &current);
    if dry_run {
        return Ok(Outcome::DryRun(p));
    }
    let put = &p.steps[1];
    let mut req = Req::json(Method::PUT, put.url.clone(), put.body.as_ref().unwrap_or(&Value::Null));
    if let Some(etag) = put.headers.get("If-Match") {
        req = req.header("if-match", etag.clone());
    }
    progress("enabling KAITO");
    let resp = client.send(&req).await?;
    let op = Operation {
        what: format!("cluster {cluster} (enabling KAITO)"),
        resource_url: with_api(&path, api::AKS),
        resume: format!("aksgpu kaito enable --subscription {sub} -g {rg} --cluster {cluster}"),
        deadline: started + timeout,
        started,
    };
    let v = lro::wait(client, resp, &Method::PUT, &op, progress).await?;
    Ok(Outcome::Enabled(v))
}
