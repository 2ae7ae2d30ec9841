//! Fetching live prices from the Azure Retail Prices API (public, unauthenticated).
//!
//! One query per catalog size (and region, when given), several at once with a bounded
//! concurrency. Pages are followed through `NextPageLink`; when a full page (100 items) comes
//! without one, the `$skip` fallback asks for the next page anyway. Retries come from the same
//! retry module as ARM.

use futures_util::stream::{self, StreamExt};
use serde_json::Value;

use crate::arm::{ArmClient, ArmError};

/// The public endpoint.
pub const DEFAULT_ENDPOINT: &str = "https://prices.azure.com";
/// Items per page the API returns.
pub const PAGE: usize = 100;
/// Queries in flight at once.
pub const CONCURRENCY: usize = 6;

fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The first-page query for a size (and region).
pub fn query(sku: &str, region: Option<&str>, currency: &str) -> String {
    let mut filter =
        format!("serviceName eq 'Virtual Machines' and armSkuName eq '{sku}' and priceType eq 'Consumption'");
    if let Some(r) = region {
        filter.push_str(&format!(" and armRegionName eq '{r}'"));
    }
    format!(
        "/api/retail/prices?api-version=2023-01-01-preview&currencyCode={}&%24filter={}",
        encode(&format!("'{currency}'")),
        encode(&filter)
    )
}

/// Every item for one query, following pages.
pub async fn fetch(client: &ArmClient, first: &str) -> Result<Vec<Value>, ArmError> {
    let mut items = Vec::new();
    let mut url = first.to_owned();
    let mut skip = 0usize;
    for _ in 0..200 {
        let page: Value = client.get_json(&url).await?;
        let got = page.get("Items").and_then(Value::as_array).cloned().unwrap_or_default();
        let n = got.len();
        items.extend(got);
        if n == 0 {
            break;
        }
        skip += n;
        match page.get("NextPageLink").and_then(Value::as_str).filter(|s| !s.is_empty()) {
            // A link back to the same page would loop forever.
            Some(next) if next == url => break,
            Some(next) => url = next.to_owned(),
            None if n >= PAGE => url = format!("{first}&%24skip={skip}"),
            None => break,
        }
    }
    Ok(items)
}

/// Fetch all queries with bounded concurrency; `progress(done, total)` after each.
pub async fn fetch_all(
    client: &ArmClient,
    queries: Vec<String>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<Value>, ArmError> {
    let total = queries.len();
    let mut done = 0;
    let mut all = Vec::new();
    let mut results =
        stream::iter(queries.into_iter().map(|q| async move { fetch(client, &q).await })).buffer_unordered(CONCURRENCY);
    while let Some(r) = results.next().await {
        all.extend(r?);
        done += 1;
        progress(done, total);
    }
    Ok(all)
}
