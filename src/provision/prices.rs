//! Fetching live prices from the Azure Retail Prices API (public, unauthenticated).
//!
//! One query per catalog size (and region, when given), several at once with a bounded
//! concurrency, each a plan step (`plan::prices`) sent through `wire`. Pages are followed
//! through `NextPageLink`; when a full page (100 items) comes without one, the plan's `$skip`
//! step asks for the next page anyway. Retries come from the same
//! retry module as ARM. Each query is bounded: `MAX_PAGES` pages, `MAX_ITEMS` items, each item
//! kept with only the fields the fold reads; a page served twice stops the refresh with an
//! error (a server that ignores `$skip` once drove 8,600 requests and 1.1 GB).

use futures_util::stream::{self, StreamExt};
use serde_json::Value;

use crate::arm::{ArmClient, ArmError};
use crate::plan::prices;
use crate::plan::{Plan, Step};
use crate::resources::price::RetailPrice;
use crate::resources::{self, MissingField};

/// The public endpoint.
pub const DEFAULT_ENDPOINT: &str = "https://prices.azure.com";
/// Items per page the API returns.
pub use crate::plan::prices::PAGE;
/// Queries in flight at once.
pub const CONCURRENCY: usize = 6;

/// Pages followed for one query at most. The largest real query (one size in every region,
/// with Linux/Windows × on-demand/spot/low-priority meters) is a few hundred items: a few pages.
pub const MAX_PAGES: usize = 50;
/// Items kept for one query at most.
pub const MAX_ITEMS: usize = 5_000;
/// Items kept for a whole refresh at most: every catalog size in every region is about
/// 70 sizes × 60 regions × 6 meters ≈ 25,000.
pub const MAX_TOTAL_ITEMS: usize = 100_000;
/// An item whose strings are longer than this is not a real meter and is dropped, so the
/// memory one query holds stays under `MAX_ITEMS` × 7 fields × this.
pub const MAX_FIELD_LEN: usize = 256;

/// An item typed (only the fields the fold reads are kept), or `None` when a text is oversized;
/// an item of another shape is an error.
fn slim(item: &Value) -> Result<Option<RetailPrice>, MissingField> {
    let it: RetailPrice = resources::parse(item, "Retail Prices item")?;
    Ok((!it.texts().iter().flatten().any(|s| s.len() > MAX_FIELD_LEN)).then_some(it))
}

fn refused(first: &str, message: String) -> ArmError {
    ArmError::InvalidResponse {
        method: "GET".into(),
        path: first.split('?').next().unwrap_or(first).to_owned(),
        status: 200,
        message,
        snippet: String::new(),
        request_id: None,
    }
}

/// A fingerprint of a page's items, to notice the same page served twice.
fn fingerprint(items: &[Value]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for it in items {
        it.to_string().hash(&mut h);
    }
    h.finish()
}

/// One page of the Retail Prices API (`Items`, `NextPageLink`; Microsoft's "Azure Retail
/// Prices REST API" documents both).
#[derive(Debug, Clone, Default, serde::Deserialize)]
struct RetailPage {
    #[serde(rename = "Items", default)]
    items: Vec<Value>,
    #[serde(rename = "NextPageLink")]
    next_page_link: Option<String>,
}

/// Every item for one query, following pages; at most `MAX_PAGES` pages and `MAX_ITEMS`
/// items. A page seen before (a server that ignores `$skip`, or a link back to the same
/// page) is an error, not a loop.
pub async fn fetch(client: &ArmClient, step: &Step, what: &str) -> Result<Vec<RetailPrice>, ArmError> {
    let first = step.url.as_str();
    let mut items = Vec::new();
    let mut next = step.clone();
    let mut skip = 0usize;
    let mut seen = std::collections::HashSet::new();
    for page_no in 1..=MAX_PAGES {
        // A page of another shape is an error (`wire::get` reads it typed); no `Items` is an empty page.
        let page: RetailPage = super::wire::get(client, &next).await?;
        let got = page.items.as_slice();
        let n = got.len();
        if n == 0 {
            return Ok(items);
        }
        if !seen.insert(fingerprint(got)) {
            return Err(refused(first, format!(
                "the Retail Prices API returned the same page twice for {what}: page {page_no} repeats an earlier one (its $skip={skip} or NextPageLink did not advance); stopped after {page_no} requests for it"
            )));
        }
        if items.len() + n > MAX_ITEMS {
            return Err(refused(
                first,
                format!("the Retail Prices API returned more than {MAX_ITEMS} items for {what}; refused"),
            ));
        }
        for it in got {
            if let Some(it) = slim(it).map_err(|e| refused(first, format!("{e} ({what}, page {page_no})")))? {
                items.push(it);
            }
        }
        skip += n;
        match page.next_page_link.as_deref().filter(|s| !s.is_empty()) {
            Some(link) if link == next.url => {
                return Err(refused(first, format!("the Retail Prices API links page {page_no} of {what} to itself")))
            }
            // A URL Azure returned: the step follows it.
            Some(link) => next = prices::next_page(step, link),
            None if n >= PAGE => next = prices::skipped(step, skip),
            None => return Ok(items),
        }
    }
    Err(refused(first, format!("the Retail Prices API had more than {MAX_PAGES} pages for {what}; refused")))
}

/// Send every first-page step of `plan` (`plan::prices::refresh`) and follow its pages, with
/// bounded concurrency; `progress(done, total)` after each query. Stops at the first error,
/// or past `MAX_TOTAL_ITEMS` items.
pub async fn fetch_all(
    client: &ArmClient,
    plan: &Plan,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<RetailPrice>, ArmError> {
    let total = plan.steps.len();
    let mut done = 0;
    let mut all = Vec::new();
    let mut results = stream::iter(plan.steps.iter().map(|s| async move { fetch(client, s, &s.purpose).await }))
        .buffer_unordered(CONCURRENCY);
    while let Some(r) = results.next().await {
        all.extend(r?);
        if all.len() > MAX_TOTAL_ITEMS {
            return Err(refused(
                "/api/retail/prices",
                format!("the Retail Prices API returned more than {MAX_TOTAL_ITEMS} items in all; refused"),
            ));
        }
        done += 1;
        progress(done, total);
    }
    Ok(all)
}
