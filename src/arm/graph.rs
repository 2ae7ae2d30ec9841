//! Azure Resource Graph: one query over many subscriptions, every page, within the quota.
//!
//! The wire format is Microsoft.ResourceGraph 2024-04-01 `Resources` (Azure/azure-rest-api-specs
//! `specification/resourcegraph/resource-manager/Microsoft.ResourceGraph/stable/2024-04-01/resourcegraph.json`):
//! `POST /providers/Microsoft.ResourceGraph/resources` with `subscriptions` or
//! `managementGroups`, `query` and `options` (`resultFormat`, `$top`, `$skipToken`); the answer
//! is a [`GraphPage`]. Behaviour from "Guidance for throttled requests in Azure Resource Graph"
//! and "Working with large Azure resource data sets" (learn.microsoft.com, azure/governance/resource-graph):
//! - every answer carries `x-ms-user-quota-remaining` (queries left in the window) and
//!   `x-ms-user-quota-resets-after` (`hh:mm:ss`): when none are left the next page waits for the
//!   reset instead of running into a 429 (a 429 still waits its `Retry-After`, in `client`);
//! - a page is at most 1,000 rows (`$top`), and `$skipToken` leads to the next one; a token
//!   handed back twice stops the run with an error (never duplicate rows);
//! - a request names at most 1,000 subscriptions; a batch whose subscriptions cannot all be read
//!   (an authorization refusal, or `x-ms-tenant-subscription-limit-hit: true`) is split in halves
//!   until the unreadable subscriptions are named one by one.

use std::collections::HashSet;
use std::time::Duration;

use serde_json::{json, Value};

use super::client::{ArmClient, ArmResponse, Req};
use super::error::ArmError;
use crate::resources::fleet::{ClusterRow, GraphPage};

/// The api-version sent.
pub const API_VERSION: &str = "2024-04-01";
/// Rows per page (`$top`; Resource Graph's maximum).
pub const PAGE_ROWS: u32 = 1000;
/// Subscriptions named in one request at most.
pub const BATCH: usize = 1000;
/// The most pages one batch is read in.
pub const MAX_PAGES: usize = 10_000;

/// Which subscriptions a query covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GraphScope {
    /// These subscriptions (batched by [`BATCH`]).
    Subscriptions(Vec<String>),
    /// A management group (and every subscription under it).
    ManagementGroup(String),
}

/// A subscription (or scope) the query could not read, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread {
    /// The subscription id, or `None` for a whole scope (the tenant limit).
    pub subscription: Option<String>,
    pub reason: String,
}

/// Everything one query returned.
#[derive(Debug, Clone, Default)]
pub struct GraphResult {
    pub rows: Vec<ClusterRow>,
    /// Requests sent (each page of each batch; retries not counted).
    pub requests: usize,
    /// Pages read.
    pub pages: usize,
    /// What could not be read.
    pub unread: Vec<Unread>,
    /// Other things Resource Graph said (a truncated answer).
    pub notes: Vec<String>,
    /// Time spent waiting for the quota to reset.
    pub quota_waits: Vec<Duration>,
}

/// The user quota as the latest answer stated it.
#[derive(Debug, Clone, Copy, Default)]
struct Quota {
    remaining: Option<i64>,
    resets_after: Option<Duration>,
}

/// `hh:mm:ss` (also `d.hh:mm:ss` and fractions of a second) as a duration.
pub fn parse_resets_after(text: &str) -> Option<Duration> {
    let t = text.trim();
    let (days, rest) = match t.split_once('.') {
        Some((d, r)) if r.contains(':') && !d.contains(':') => (d.parse::<u64>().ok()?, r),
        _ => (0, t),
    };
    let parts: Vec<&str> = rest.split(':').collect();
    let [h, m, s] = parts.as_slice() else { return None };
    let secs = s.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0)?;
    let whole = days * 86_400 + h.parse::<u64>().ok()? * 3600 + m.parse::<u64>().ok()? * 60;
    super::retry::secs(whole as f64 + secs)
}

impl Quota {
    fn read(&mut self, resp: &ArmResponse) {
        if let Some(n) = resp.header("x-ms-user-quota-remaining").and_then(|v| v.trim().parse().ok()) {
            self.remaining = Some(n);
        }
        if let Some(d) = resp.header("x-ms-user-quota-resets-after").and_then(parse_resets_after) {
            self.resets_after = Some(d);
        }
    }
}

/// Run `query` over `scope`, every page of every batch.
pub async fn query(client: &ArmClient, scope: &GraphScope, query: &str) -> Result<GraphResult, ArmError> {
    let mut out = GraphResult::default();
    let mut quota = Quota::default();
    match scope {
        GraphScope::ManagementGroup(mg) => {
            let target = Target::ManagementGroups(vec![mg.clone()]);
            match pages(client, &target, query, &mut quota, &mut out).await? {
                Batch::Read(rows) => out.rows.extend(rows),
                Batch::Partial(reason, rows) => {
                    out.rows.extend(rows);
                    out.unread.push(Unread { subscription: None, reason });
                }
            }
        }
        GraphScope::Subscriptions(subs) => {
            let mut work: Vec<Vec<String>> = subs.chunks(BATCH).rev().map(<[String]>::to_vec).collect();
            while let Some(batch) = work.pop() {
                let target = Target::Subscriptions(batch.clone());
                match pages(client, &target, query, &mut quota, &mut out).await? {
                    Batch::Read(rows) => out.rows.extend(rows),
                    Batch::Partial(reason, _) if batch.len() == 1 => {
                        out.unread.push(Unread { subscription: batch.first().cloned(), reason });
                    }
                    Batch::Partial(..) => {
                        // Read each half again: the rows of a partial answer are dropped, so no
                        // cluster is counted twice.
                        let (a, b) = batch.split_at(batch.len() / 2);
                        work.push(b.to_vec());
                        work.push(a.to_vec());
                    }
                }
            }
        }
    }
    Ok(out)
}

/// How one batch ended.
enum Batch {
    Read(Vec<ClusterRow>),
    /// Not every subscription was read (why), with the rows that were.
    Partial(String, Vec<ClusterRow>),
}

/// The subscriptions or management group a request names (`QueryRequest.subscriptions`,
/// `managementGroups`).
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
enum Target {
    Subscriptions(Vec<String>),
    ManagementGroups(Vec<String>),
}

/// A `QueryRequest` body: the target, `query` and `options` (`QueryRequestOptions`).
#[derive(serde::Serialize)]
struct QueryRequest<'a> {
    #[serde(flatten)]
    target: &'a Target,
    query: &'a str,
    options: QueryOptions<'a>,
}

#[derive(serde::Serialize)]
struct QueryOptions<'a> {
    #[serde(rename = "resultFormat")]
    result_format: &'static str,
    #[serde(rename = "$top")]
    top: u32,
    #[serde(rename = "$skipToken", skip_serializing_if = "Option::is_none")]
    skip_token: Option<&'a str>,
}

fn body(target: &Target, query: &str, token: Option<&str>) -> Value {
    let options = QueryOptions { result_format: "objectArray", top: PAGE_ROWS, skip_token: token };
    json!(QueryRequest { target, query, options })
}

/// An answer that says some subscriptions of the request could not be read.
fn refused(resp: &ArmResponse) -> Option<String> {
    let auth = matches!(resp.status, 401 | 403)
        || (resp.status == 400
            && super::error::ErrorBody::parse(&resp.body).is_some_and(|b| b.code.contains("Authorization")));
    auth.then(|| resp.to_error().to_string())
}

async fn pages(
    client: &ArmClient,
    target: &Target,
    query: &str,
    quota: &mut Quota,
    out: &mut GraphResult,
) -> Result<Batch, ArmError> {
    let url = format!("/providers/Microsoft.ResourceGraph/resources?api-version={API_VERSION}");
    let mut rows = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut token: Option<String> = None;
    let mut partial: Option<String> = None;
    loop {
        wait_for_quota(client, quota, out).await?;
        let resp = client.send(&Req::query(url.clone(), &body(target, query, token.as_deref()))).await?;
        out.requests += 1;
        quota.read(&resp);
        if let Some(why) = refused(&resp) {
            return Ok(Batch::Partial(why, rows));
        }
        let resp = resp.require_ok()?;
        if resp.header("x-ms-tenant-subscription-limit-hit").is_some_and(|v| v.trim().eq_ignore_ascii_case("true")) {
            partial = Some("Resource Graph read only the first 10,000 subscriptions of the scope (x-ms-tenant-subscription-limit-hit)".into());
        }
        let page: GraphPage = resp.json()?;
        out.pages += 1;
        rows.extend(page.rows().map_err(|e| invalid(&resp, e.to_string()))?.iter().cloned());
        match page.next_token() {
            Some(t) if !seen.insert(t.to_owned()) => {
                return Err(invalid(
                    &resp,
                    format!("its $skipToken repeats an earlier page's ({} pages read)", seen.len()),
                ));
            }
            Some(_) if seen.len() >= MAX_PAGES => {
                return Err(invalid(&resp, format!("it has more than {MAX_PAGES} pages")));
            }
            Some(t) => token = Some(t.to_owned()),
            None => {
                if page.truncated() {
                    out.notes.push("Resource Graph truncated the answer (resultTruncated) without a $skipToken".into());
                }
                break;
            }
        }
    }
    Ok(match partial {
        Some(why) => Batch::Partial(why, rows),
        None => Batch::Read(rows),
    })
}

fn invalid(resp: &ArmResponse, why: String) -> ArmError {
    ArmError::InvalidResponse {
        method: "POST".into(),
        path: resp.path.clone(),
        status: resp.status,
        message: format!("the Resource Graph result was not read: {why}"),
        snippet: String::new(),
        request_id: resp.request_id(),
    }
}

/// With no query left in the window, wait until it resets (within the run's deadline).
async fn wait_for_quota(client: &ArmClient, quota: &mut Quota, out: &mut GraphResult) -> Result<(), ArmError> {
    if quota.remaining.is_none_or(|n| n > 0) {
        return Ok(());
    }
    let wait = quota.resets_after.unwrap_or(Duration::from_secs(5));
    if let Some(d) = client.deadline {
        let left = d.saturating_duration_since(std::time::Instant::now());
        if wait > left {
            return Err(ArmError::Throttled { path: "Resource Graph (user quota)".into(), wait, left });
        }
    }
    out.quota_waits.push(wait);
    client.sleeper.sleep(wait).await;
    *quota = Quota::default();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resets_after_is_hh_mm_ss() {
        assert_eq!(parse_resets_after("00:00:03"), Some(Duration::from_secs(3)));
        assert_eq!(parse_resets_after("01:02:03"), Some(Duration::from_secs(3723)));
        assert_eq!(parse_resets_after("00:00:00.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse_resets_after("0.02:00:01"), Some(Duration::from_secs(7201)));
        assert_eq!(parse_resets_after("soon"), None);
        assert_eq!(parse_resets_after("00:-1:00"), None);
    }

    #[test]
    fn the_body_is_the_documented_one() {
        let b = body(&Target::Subscriptions(vec!["a".into()]), "Resources", Some("t"));
        assert_eq!(
            b,
            json!({"subscriptions": ["a"], "query": "Resources",
                "options": {"resultFormat": "objectArray", "$top": 1000, "$skipToken": "t"}})
        );
    }
}
