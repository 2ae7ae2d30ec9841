//! `prices refresh`'s requests to the Azure Retail Prices API (public, no token), as plan
//! steps: the first page of each query and, when a full page comes without `NextPageLink`,
//! the `$skip` page after it (pure). The executor sends these steps and the `NextPageLink`
//! URLs Azure returns; it composes no URL of its own.
//!
//! The query follows Microsoft's documentation of the API
//! (<https://learn.microsoft.com/rest/api/cost-management/retail-prices/azure-retail-prices>):
//! `$filter` on `serviceName`, `armSkuName`, `priceType` and `armRegionName`, `currencyCode`,
//! and `$skip` for paging.

use super::{Step, StepKind};

/// Items per page the API returns.
pub const PAGE: usize = 100;

/// Percent-encode a query value (RFC 3986 unreserved characters kept).
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

/// The first-page query for a size (and region), path and query.
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

/// GET the first page of the prices of `sku` (in `region`, else every region); further pages
/// at the `NextPageLink` each page returns.
pub fn first_page(sku: &str, region: Option<&str>, currency: &str) -> Step {
    let what = region.map_or_else(|| sku.to_owned(), |r| format!("{sku} in {r}"));
    super::read_prices(&query(sku, region, currency)).saying(format!("the retail prices of {what} ({currency})"))
}

/// The page after `skip` items of `first`'s query, for a full page that came without a
/// `NextPageLink` (the API's `$skip` paging).
pub fn skipped(first: &Step, skip: usize) -> Step {
    Step::read(
        StepKind::ReadPrices,
        format!("{}&%24skip={skip}", first.url),
        format!("{} (from item {skip})", first.purpose),
    )
    .then_follows(super::Follow::NextLink)
    .only_if(format!("only if a page of {PAGE} items comes without a NextPageLink"))
}

/// A page Azure pointed to (`NextPageLink`): a follow-up, not built here.
pub fn next_page(first: &Step, link: &str) -> Step {
    Step { url: link.to_owned(), ..first.clone() }
}

/// The plan of a refresh: the first page of each size, in every region or in each of `regions`.
pub fn refresh(sizes: &[&str], regions: &[String], currency: &str) -> super::Plan {
    let mut steps = Vec::new();
    for s in sizes {
        if regions.is_empty() {
            steps.push(first_page(s, None, currency));
        }
        for r in regions {
            steps.push(first_page(s, Some(r), currency));
        }
    }
    super::Plan { steps }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_page_and_the_skip_page_are_plan_steps() {
        let first = first_page("Standard_NC4as_T4_v3", Some("eastus"), "EUR");
        assert_eq!(first.method, "GET");
        assert!(first
            .url
            .starts_with("/api/retail/prices?api-version=2023-01-01-preview&currencyCode=%27EUR%27&%24filter="));
        assert!(first.url.contains("armSkuName%20eq%20%27Standard_NC4as_T4_v3%27"), "{}", first.url);
        assert!(first.url.ends_with("armRegionName%20eq%20%27eastus%27"), "{}", first.url);
        let next = skipped(&first, 200);
        assert_eq!(next.url, format!("{}&%24skip=200", first.url));
        assert!(next.when.is_some() && next.read_only);
        let plan = refresh(&["a", "b"], &["eastus".into(), "westus".into()], "USD");
        assert_eq!(plan.steps.len(), 4);
        assert_eq!(refresh(&["a"], &[], "USD").steps[0].url, query("a", None, "USD"));
    }
}
