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

pub use crate::pricing::PriceSource;

/// Merge the live price cache into the catalog: where prices now come from, and a warning
/// for an expired or corrupt cache (the bundled prices are used then).
pub fn with_live_prices(catalog: &mut Catalog) -> (PriceSource, Option<String>) {
    let Some(path) = pricing::cache_path() else {
        return (PriceSource::Bundled { as_of: catalog.prices.as_of.clone() }, None);
    };
    pricing::apply(catalog, pricing::read_cache(&path), &path, SystemTime::now())
}

/// Why the prices of a currency cannot be used.
#[derive(Debug)]
pub enum CurrencyError {
    /// No cache directory to look in (no HOME, no AKSGPU_CACHE_DIR).
    NoCacheDir,
    /// The system refused to read the currency's cache (an I/O failure, not a bad file).
    Unreadable { path: PathBuf, source: std::io::Error },
    /// The currency's cache is missing, unreadable or stale: why.
    Unusable(String),
}

/// The prices in `currency`: USD is the bundled table with the live cache over it (and its
/// warning, if any); any other currency needs its own cache (`prices refresh` in that
/// currency), and replaces every price.
pub fn prices_in(catalog: &mut Catalog, currency: &str) -> Result<(PriceSource, Option<String>), CurrencyError> {
    if currency.eq_ignore_ascii_case("USD") {
        return Ok(with_live_prices(catalog));
    }
    let path = pricing::cache_path_for(currency).ok_or(CurrencyError::NoCacheDir)?;
    let cache = pricing::read_cache(&path).map_err(|e| match e {
        pricing::CacheError::Io { path, source } => CurrencyError::Unreadable { path, source },
        why @ pricing::CacheError::Invalid(_) => CurrencyError::Unusable(why.to_string()),
    })?;
    let source = pricing::use_currency(catalog, cache, currency, &path, SystemTime::now())
        .map_err(|e| CurrencyError::Unusable(e.to_string()))?;
    Ok((source, None))
}

/// The Retail Prices API client: `AKSGPU_PRICES_ENDPOINT` or the public endpoint, no
/// credentials (the API is anonymous), logging requests when `verbose`.
pub fn client(verbose: bool, log_sink: Option<fn(&str)>) -> Result<(ArmClient, String), Error> {
    use crate::arm::{retry::Sleeper, Cloud, Endpoint, Verbosity};
    let base = std::env::var("AKSGPU_PRICES_ENDPOINT")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| prices::DEFAULT_ENDPOINT.to_owned());
    let endpoint = Endpoint::new(Cloud::AzureCloud, Some(&base))?;
    let mut client = ArmClient::new(endpoint, None, Sleeper::from_env())?;
    client.verbosity = if verbose { Verbosity::Requests } else { Verbosity::Quiet };
    client.log_sink = log_sink;
    Ok((client, base))
}

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
