//! The `prices refresh` workflow: one Retail Prices query per catalog size (and region, when
//! asked), folded into the price cache that `recommend`, `cost` and every plan then read.

use std::path::PathBuf;
use std::time::SystemTime;

use serde::Serialize;

use crate::arm::ArmClient;
use crate::catalog::Catalog;
use crate::error::Error;
use crate::plan::Plan;
use crate::pricing::{self, PriceCache};
use crate::provision::prices;

/// What to refresh: the currency, and the regions as typed (none: every region).
#[derive(Debug, Clone, PartialEq)]
pub struct RefreshRequest {
    pub currency: String,
    pub regions: Vec<String>,
}

/// The queries a refresh sends, validated before anything is sent.
#[derive(Debug, Clone)]
pub struct Queries {
    currency: String,
    /// Every catalog size not retired.
    sizes: Vec<String>,
    /// The first-page requests, one per size (and region), as plan steps.
    plan: Plan,
}

impl Queries {
    /// How many queries (the progress bar's length).
    pub fn len(&self) -> usize {
        self.plan.steps.len()
    }

    /// True when there is nothing to ask.
    pub fn is_empty(&self) -> bool {
        self.plan.steps.is_empty()
    }
}

/// What a refresh wrote (fields in the order the JSON has always listed them).
#[derive(Debug, Clone, Serialize)]
pub struct Refreshed {
    pub currency: String,
    /// Unix seconds.
    pub fetched_at: u64,
    /// Price rows the API returned.
    pub items: usize,
    pub path: String,
    /// (size, region) pairs with a price.
    pub size_regions: usize,
    /// Sizes with a price.
    pub sizes: usize,
}

/// The queries for `req`: each region checked against the catalog (`--region`'s did-you-mean),
/// one query per size that is not retired (per region, when regions are given).
pub fn queries(catalog: &Catalog, req: &RefreshRequest) -> Result<Queries, Error> {
    let regions: Vec<String> = req
        .regions
        .iter()
        .filter(|r| !r.trim().is_empty())
        .map(|r| crate::ops::recommend::region_arg(catalog, r))
        .collect::<Result<_, _>>()?;
    let sizes: Vec<String> =
        catalog.sizes.iter().filter(|s| s.status != crate::catalog::Status::Retired).map(|s| s.name.clone()).collect();
    let names: Vec<&str> = sizes.iter().map(String::as_str).collect();
    let plan = crate::plan::prices::refresh(&names, &regions, &req.currency);
    Ok(Queries { currency: req.currency.clone(), sizes, plan })
}

/// Send the queries to the Retail Prices API at `client` (its base is `base`, named in the
/// cache as its source), fold the answers and write the cache for the currency.
/// `progress(done, total)` after each query.
pub async fn refresh(
    (client, base): (&ArmClient, &str),
    q: Queries,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Refreshed, Error> {
    let Queries { currency, sizes, plan } = q;
    let items = prices::fetch_all(client, &plan, progress).await?;
    let wanted = |s: &str| sizes.iter().any(|x| x.eq_ignore_ascii_case(s));
    let folded = pricing::fold_items(&items, &wanted);
    let now = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let cache = PriceCache {
        fetched_at: now,
        currency: currency.clone(),
        source: format!("{base}/api/retail/prices"),
        sizes: folded,
    };
    let path: PathBuf = pricing::cache_path_for(&currency)
        .ok_or_else(|| Error::usage("no cache directory (set HOME or AKSGPU_CACHE_DIR)", None))?;
    pricing::write_cache(&path, &cache).map_err(|e| Error::io(&path, "write the price cache", e))?;
    Ok(Refreshed {
        currency,
        fetched_at: now,
        items: items.len(),
        path: path.display().to_string(),
        size_regions: cache.sizes.values().map(|r| r.len()).sum(),
        sizes: cache.sizes.len(),
    })
}
