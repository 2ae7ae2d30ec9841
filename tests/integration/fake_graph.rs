//! A fake Azure Resource Graph inside the fake ARM server, behaving as the real one is
//! documented to (Microsoft.ResourceGraph 2024-04-01 `Resources`; "Guidance for throttled
//! requests in Azure Resource Graph" and "Working with large Azure resource data sets",
//! learn.microsoft.com azure/governance/resource-graph):
//! - rows of the named subscriptions (or all, for a management group), `$top` at most 1,000 a
//!   page, a `$skipToken` to the next page;
//! - at most 1,000 subscriptions a request (more is a 400);
//! - `x-ms-user-quota-remaining` and `x-ms-user-quota-resets-after` on every answer: `quota`
//!   queries per `window`; a query beyond them is a 429 with `Retry-After`;
//! - a request naming a subscription the caller cannot read is refused (403), and
//!   `x-ms-tenant-subscription-limit-hit: true` when asked;
//! - scripted faults: a token handed back again, 429s.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::fake_arm::Recorded;

/// The fake's state.
#[derive(Debug, Default)]
pub struct Graph {
    /// Cluster rows (`id`, `name`, `type`, `location`, `subscriptionId`, `resourceGroup`, `tags`, `properties`).
    pub rows: Vec<Value>,
    /// Rows per page at most (also bounded by `$top`); 0 means 1,000.
    pub page: usize,
    /// Subscriptions the caller may not read.
    pub denied: HashSet<String>,
    /// Queries per window (0: no quota).
    pub quota: i64,
    /// The quota window.
    pub window: Duration,
    /// Window start and queries left in it.
    spent: Option<(Instant, i64)>,
    /// 429s sent because a query came with no quota left.
    pub quota_429s: usize,
    /// The page after this many pages hands back the token it was given.
    pub repeat_token_after: Option<usize>,
    /// Set `x-ms-tenant-subscription-limit-hit: true` on management-group answers.
    pub limit_hit: bool,
    /// Pages answered.
    pub pages: usize,
}

/// A managed cluster row as the fleet query projects it.
pub fn cluster_row(sub: &str, rg: &str, name: &str, location: &str, power: &str, pools: Vec<Value>) -> Value {
    json!({
        "id": format!("/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.ContainerService/managedClusters/{name}"),
        "name": name,
        "type": "microsoft.containerservice/managedclusters",
        "location": location,
        "subscriptionId": sub,
        "resourceGroup": rg,
        "tags": {},
        "properties": {
            "provisioningState": "Succeeded",
            "powerState": {"code": power},
            "kubernetesVersion": "1.33",
            "currentKubernetesVersion": "1.33.2",
            "agentPoolProfiles": pools,
            "azureMonitorProfile": {"metrics": {"enabled": true}}
        }
    })
}

/// Headers, and a whole answer (status, headers, body).
type Headers = Vec<(String, String)>;
type Answer = (u16, Headers, String);

fn quota_headers(g: &mut Graph) -> Result<Headers, Answer> {
    if g.quota <= 0 {
        return Ok(vec![]);
    }
    let now = Instant::now();
    let (start, left) = match g.spent {
        Some((s, l)) if now.duration_since(s) < g.window => (s, l),
        _ => (now, g.quota),
    };
    let resets = g.window.saturating_sub(now.duration_since(start));
    let hms = format!("00:00:{:06.3}", resets.as_secs_f64());
    if left <= 0 {
        g.quota_429s += 1;
        let retry = resets.as_secs_f64().ceil().max(1.0).to_string();
        return Err((
            429,
            vec![
                ("retry-after".into(), retry),
                ("x-ms-user-quota-remaining".into(), "0".into()),
                ("x-ms-user-quota-resets-after".into(), hms),
            ],
            json!({"error": {"code": "RateLimiting", "message": "Please provide below info when asking for support"}})
                .to_string(),
        ));
    }
    g.spent = Some((start, left - 1));
    Ok(vec![("x-ms-user-quota-remaining".into(), (left - 1).to_string()), ("x-ms-user-quota-resets-after".into(), hms)])
}

/// Answer one query.
pub fn answer(g: &mut Graph, req: &Recorded) -> Answer {
    let body: Value = serde_json::from_str(&req.body).unwrap_or(Value::Null);
    let mut headers = match quota_headers(g) {
        Ok(h) => h,
        Err(e) => return e,
    };
    let subs: Option<Vec<String>> = body["subscriptions"]
        .as_array()
        .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_ascii_lowercase)).collect());
    if let Some(s) = &subs {
        if s.len() > 1000 {
            return (
                400,
                headers,
                json!({"error": {"code": "BadRequest", "message": "at most 1000 subscriptions"}}).to_string(),
            );
        }
        if let Some(d) = s.iter().find(|x| g.denied.contains(*x)) {
            return (
                403,
                headers,
                json!({"error": {"code": "AuthorizationFailed", "message": format!("The client does not have authorization to perform action 'Microsoft.ResourceGraph/resources/read' over scope '/subscriptions/{d}'")}}).to_string(),
            );
        }
    } else if body["managementGroups"].as_array().is_none_or(|a| a.is_empty()) {
        return (400, headers, json!({"error": {"code": "BadRequest", "message": "no scope"}}).to_string());
    }
    let matching: Vec<&Value> = g
        .rows
        .iter()
        .filter(|r| {
            subs.as_ref().is_none_or(|s| s.contains(&r["subscriptionId"].as_str().unwrap_or("").to_ascii_lowercase()))
        })
        .collect();
    let top = body["options"]["$top"].as_u64().unwrap_or(100).min(1000) as usize;
    let page = if g.page == 0 { top } else { g.page.min(top) };
    let token = body["options"]["$skipToken"].as_str();
    let offset: usize = token.and_then(|t| t.strip_prefix("skip-")).and_then(|t| t.parse().ok()).unwrap_or(0);
    let end = (offset + page).min(matching.len());
    let data: Vec<Value> = matching[offset.min(end)..end].iter().map(|v| (*v).clone()).collect();
    g.pages += 1;
    let mut out = json!({"totalRecords": matching.len(), "count": data.len(), "resultTruncated": "false", "data": data, "facets": []});
    let repeat = g.repeat_token_after.is_some_and(|n| g.pages > n);
    if end < matching.len() {
        out["$skipToken"] = json!(if repeat { token.unwrap_or("skip-0").to_owned() } else { format!("skip-{end}") });
    }
    if g.limit_hit && subs.is_none() {
        headers.push(("x-ms-tenant-subscription-limit-hit".into(), "true".into()));
    }
    (200, headers, out.to_string())
}
