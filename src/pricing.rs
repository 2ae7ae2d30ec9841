//! Live prices: reading Azure Retail Prices items, the local cache, and merging it over the
//! bundled price table.
//!
//! The cache lives in the user's cache directory (`$XDG_CACHE_HOME/aksgpu/prices.bin`, else
//! `~/.cache/aksgpu/prices.bin`; `AKSGPU_CACHE_DIR` overrides) with its fetch time. A cache is
//! used when it is newer than the bundled prices and younger than `MAX_AGE`; a corrupt cache is
//! ignored with a warning, never a crash.
//!
//! The cache is packed like the bundled table (`compact_prices` in build.rs): a fixed header,
//! the region names once, then per size its name and one fixed-width row per region. Reading
//! it checks every byte's place and every price in one pass without parsing text, and only the
//! sizes the catalog lists are decoded and merged, so a full cache costs about what the bundled
//! table does (`benches/startup.sh`).
//!
//! ```text
//! header:  "AKSGPUPC", u16 format version (FORMAT), u64 fetched_at (unix seconds),
//!          u8 length + currency, u16 length + source (UTF-8),
//!          u16 region count, per region u8 length + name (ASCII letters and digits)
//! sizes:   per size u8 length + name (UTF-8), u16 region count,
//!          per region u16 index into the regions, 4 × f64 (linux, linux_spot, windows,
//!          windows_spot; all bits set = unknown)
//! ```
//!
//! Every integer and float is little-endian. The prices are the API's own `f64`s, stored
//! bit for bit (any currency, no rounding). A file that does not start with the magic and
//! this version (the JSON `prices.json` of earlier releases, a future layout, anything else)
//! is never read as prices.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

pub use crate::cache::CacheError;
use crate::cache::{date_of, epoch_of as bundled_epoch, read_regular_capped, write_atomic};
use crate::catalog::{Catalog, RegionPrice, Shared};
use crate::resources::price::RetailPrice;

pub use crate::cache::{cache_dir, epoch_of, MAX_CACHE_BYTES};

/// A cache older than this is not used.
pub const MAX_AGE: Duration = Duration::from_secs(30 * 24 * 3600);

/// The cache's contents, as `prices refresh` builds it (`write_cache` packs it).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PriceCache {
    /// Unix seconds of the fetch.
    pub fetched_at: u64,
    pub currency: String,
    pub source: String,
    /// size → region → prices.
    pub sizes: BTreeMap<String, BTreeMap<String, RegionPrice>>,
}

/// Where the prices in use came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum PriceSource {
    /// The table compiled into the binary (or the --catalog override).
    Bundled { as_of: String },
    /// The live cache, fetched at this time.
    Cache { path: String, fetched_at: u64, age_days: f64 },
}

impl PriceSource {
    /// One line for people.
    pub fn describe(&self) -> String {
        match self {
            PriceSource::Bundled { as_of } => {
                format!("bundled prices (as of {as_of}); `aksgpu prices refresh` fetches current ones")
            }
            PriceSource::Cache { path, age_days, .. } => {
                format!("live prices cached {age_days:.1} day(s) ago ({path})")
            }
        }
    }
}

/// The cache file path (USD).
pub fn cache_path() -> Option<PathBuf> {
    cache_path_for("USD")
}

/// The cache of one currency: `prices.bin` for USD, `prices-EUR.bin` for EUR, …, so a
/// refresh in one currency never replaces another's.
pub fn cache_path_for(currency: &str) -> Option<PathBuf> {
    let c = currency.to_ascii_uppercase();
    cache_dir().map(|d| d.join(if c == "USD" { "prices.bin".to_owned() } else { format!("prices-{c}.bin") }))
}

/// Where releases before the packed format kept the cache (`prices.json`, `prices-EUR.json`):
/// it is never read, only named, so the user knows to refresh.
fn legacy_path(path: &Path) -> PathBuf {
    path.with_extension("json")
}

/// Replace every price with a non-USD cache's: bundled USD figures are never relabelled in
/// another currency, so a size or region the cache lacks has no price. `Err` says why the
/// cache cannot be used (absent, wrong currency, older than `MAX_AGE`).
pub fn use_currency(
    catalog: &mut Catalog,
    cache: Option<PackedCache>,
    currency: &str,
    path: &Path,
    now: SystemTime,
) -> Result<PriceSource, CurrencyUnusable> {
    let Some(cache) = cache else {
        return Err(CurrencyUnusable::Absent { currency: currency.to_owned(), path: path.display().to_string() });
    };
    if !cache.currency.eq_ignore_ascii_case(currency) {
        return Err(CurrencyUnusable::OtherCurrency {
            currency: currency.to_owned(),
            path: path.display().to_string(),
            held: cache.currency.clone(),
        });
    }
    let now_s = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let age = now_s.saturating_sub(cache.fetched_at);
    if age > MAX_AGE.as_secs() {
        return Err(CurrencyUnusable::TooOld { currency: currency.to_owned(), days: age / 86_400 });
    }
    let origin: std::sync::Arc<str> =
        format!("{} (live cache, {currency}, fetched {})", cache.source, date_of(cache.fetched_at)).into();
    catalog.prices.sizes.clear();
    catalog.prices.from_cache.clear();
    catalog.prices.currency = currency.to_owned();
    merge(catalog, &cache, &origin);
    Ok(PriceSource::Cache {
        path: path.display().to_string(),
        fetched_at: cache.fetched_at,
        age_days: age as f64 / 86_400.0,
    })
}

/// The highest believable hourly USD price. The most expensive size in the bundled table
/// lists at about $128/h (catalog/prices.yaml); a cache claiming more than this is corrupt.
pub const MAX_HOURLY_USD: f64 = 2_000.0;

/// How far in the future `fetched_at` may be (clock skew between machines sharing a home).
pub const FUTURE_SKEW: Duration = Duration::from_secs(300);

/// Read a cache file: `Ok(None)` when absent; `Err(reason)` when it must be ignored: not a
/// regular file (a FIFO never blocks the read), larger than `MAX_CACHE_BYTES`, not in this
/// packed format (a JSON cache of an earlier release is named, never read), malformed,
/// fetched in the future, or holding a price ≤ 0, not finite, or (in USD) above
/// `MAX_HOURLY_USD`. Every byte is checked here; sizes are decoded later, only those merged.
pub fn read_cache(path: &Path) -> Result<Option<PackedCache>, CacheError> {
    read_cache_at(path, SystemTime::now())
}

/// `read_cache` with the current time given.
pub fn read_cache_at(path: &Path, now: SystemTime) -> Result<Option<PackedCache>, CacheError> {
    let Some(bytes) = read_regular_capped(path)? else {
        let legacy = legacy_path(path);
        if legacy != path && std::fs::symlink_metadata(&legacy).is_ok() {
            return Err(CacheError::Invalid(format!(
                "{} is in the format of an earlier aksgpu and is not read; `aksgpu prices refresh` writes {}",
                legacy.display(),
                path.display()
            )));
        }
        return Ok(None);
    };
    let c = PackedCache::parse(bytes)
        .map_err(|why| CacheError::Invalid(format!("{} is corrupt ({why})", path.display())))?;
    let now_s = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    if c.fetched_at > now_s.saturating_add(FUTURE_SKEW.as_secs()) {
        return Err(CacheError::Invalid(format!(
            "{} was fetched in the future (fetched_at {}); the clock or the file is wrong",
            path.display(),
            c.fetched_at
        )));
    }
    Ok(Some(c))
}

/// Write the cache atomically: a uniquely named temporary file, created exclusively
/// (`O_EXCL`, so never through a planted symlink) in the cache directory, then renamed over
/// `path`. A symlink at `path` itself is replaced, not followed. Concurrent writers never
/// share a temporary file; the last rename wins with a complete file.
pub fn write_cache(path: &Path, cache: &PriceCache) -> std::io::Result<()> {
    write_atomic(path, &pack(cache).map_err(std::io::Error::other)?, ".prices.")
}

/// Merge the cache over the catalog's prices when it is newer and fresh enough. Returns where
/// prices come from and any warning.
pub fn apply(
    catalog: &mut Catalog,
    cache: Result<Option<PackedCache>, CacheError>,
    path: &Path,
    now: SystemTime,
) -> (PriceSource, Option<String>) {
    let bundled = PriceSource::Bundled { as_of: catalog.prices.as_of.clone() };
    let cache = match cache {
        Ok(Some(c)) => c,
        Ok(None) => return (bundled, None),
        Err(why) => return (bundled, Some(format!("ignoring the price cache: {why}"))),
    };
    let now_s = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let age = now_s.saturating_sub(cache.fetched_at);
    if age > MAX_AGE.as_secs() {
        return (bundled, Some(format!("the price cache is {} days old; run `aksgpu prices refresh`", age / 86_400)));
    }
    if bundled_epoch(&catalog.prices.as_of).is_some_and(|b| b > cache.fetched_at) {
        return (bundled, None);
    }
    if !cache.currency.eq_ignore_ascii_case("USD") {
        return (
            bundled,
            Some(format!(
                "the price cache is in {}; the tool compares USD prices, so the bundled ones are used",
                cache.currency
            )),
        );
    }
    let origin: std::sync::Arc<str> =
        format!("{} (live cache, fetched {})", cache.source, date_of(cache.fetched_at)).into();
    merge(catalog, &cache, &origin);
    (
        PriceSource::Cache {
            path: path.display().to_string(),
            fetched_at: cache.fetched_at,
            age_days: age as f64 / 86_400.0,
        },
        None,
    )
}

/// The cache file's first bytes.
const MAGIC: &[u8; 8] = b"AKSGPUPC";
/// The packed layout's version: a cache of another version is not read (a refresh rewrites it).
pub const FORMAT: u16 = 1;
/// A price cell's bits for "no price".
const UNKNOWN: u64 = u64::MAX;
/// One region's row in a size's record: u16 region index, 4 × f64.
const ROW: usize = 2 + 4 * 8;

/// A cache file read and checked by `read_cache`. Its sizes stay packed until merged.
#[derive(Debug, Clone, PartialEq)]
pub struct PackedCache {
    /// Unix seconds of the fetch.
    pub fetched_at: u64,
    pub currency: String,
    pub source: String,
    regions: Vec<Shared>,
    bytes: Vec<u8>,
    /// Where the size records start in `bytes`.
    records: usize,
}

/// What is wrong with a price cache file's bytes (its layout is in the module documentation).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FormatError {
    #[error("not an aksgpu price cache")]
    NotACache,
    #[error("format version {found}; this aksgpu reads version {FORMAT}")]
    Version { found: u16 },
    #[error("it ends in the middle of a record")]
    Truncated,
    #[error("a name is not UTF-8")]
    NotUtf8,
    #[error("{what} is out of order or repeated")]
    OutOfOrder { what: String },
    #[error("a region of {size} is out of bounds")]
    RegionOutOfBounds { size: String },
    #[error("price {price} for {size} in {region}; prices must be above 0 and at most ${MAX_HOURLY_USD}/h")]
    BadPrice { price: f64, size: String, region: String },
    #[error("the price cache cannot hold {count} {what}")]
    TooMany { count: usize, what: &'static str },
    /// A bug in `pack`: every region of every size is indexed before the sizes are written.
    #[error("region {region} not indexed")]
    NotIndexed { region: String },
}

/// Why a cache cannot give prices in the currency asked for.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CurrencyUnusable {
    #[error("no {currency} prices are cached ({path} does not exist)")]
    Absent { currency: String, path: String },
    #[error("{path} holds {held} prices, not {currency}")]
    OtherCurrency { currency: String, path: String, held: String },
    #[error("the {currency} price cache is {days} days old")]
    TooOld { currency: String, days: u64 },
}

/// A cursor over bytes that refuses to read past their end.
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], FormatError> {
        let (head, rest) = self.0.split_at_checked(n).ok_or(FormatError::Truncated)?;
        self.0 = rest;
        Ok(head)
    }

    fn u16(&mut self) -> Result<u16, FormatError> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().map_err(|_| FormatError::Truncated)?))
    }

    fn u64(&mut self) -> Result<u64, FormatError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().map_err(|_| FormatError::Truncated)?))
    }

    /// A u16 length, then that many bytes of UTF-8.
    fn text(&mut self) -> Result<&'a str, FormatError> {
        let n = self.u16()?;
        std::str::from_utf8(self.take(usize::from(n))?).map_err(|_| FormatError::NotUtf8)
    }

    /// The next size's name and rows, or `None` at the end.
    fn record(&mut self) -> Result<Option<(&'a str, &'a [u8])>, FormatError> {
        if self.0.is_empty() {
            return Ok(None);
        }
        let name = self.text()?;
        let count = usize::from(self.u16()?);
        Ok(Some((name, self.take(count * ROW)?)))
    }
}

/// A row's region index and prices.
fn row(r: &[u8]) -> (usize, RegionPrice) {
    let idx = r.get(..2).and_then(|b| b.try_into().ok()).map_or(usize::MAX, |b| usize::from(u16::from_le_bytes(b)));
    let cell = |i: usize| {
        let bits = r.get(2 + 8 * i..10 + 8 * i).and_then(|b| b.try_into().ok()).map_or(UNKNOWN, u64::from_le_bytes);
        (bits != UNKNOWN).then(|| f64::from_bits(bits))
    };
    (idx, RegionPrice { linux: cell(0), linux_spot: cell(1), windows: cell(2), windows_spot: cell(3) })
}

impl PackedCache {
    /// Check the header, the place of every byte, the order of sizes and regions, and every
    /// price, in one pass; `Err` says what is wrong. A price must be above 0, finite and, in
    /// USD, at most `MAX_HOURLY_USD`.
    fn parse(bytes: Vec<u8>) -> Result<Self, FormatError> {
        let mut c = Cursor(&bytes);
        if c.take(MAGIC.len()).ok() != Some(MAGIC.as_slice()) {
            return Err(FormatError::NotACache);
        }
        let version = c.u16()?;
        if version != FORMAT {
            return Err(FormatError::Version { found: version });
        }
        let fetched_at = c.u64()?;
        let currency = c.text()?.to_owned();
        let source = c.text()?.to_owned();
        let count = c.u16()?;
        let regions = (0..count).map(|_| c.text().map(Shared::from)).collect::<Result<Vec<_>, _>>()?;
        let records = bytes.len() - c.0.len();
        let usd = currency.eq_ignore_ascii_case("USD");
        let mut previous: Option<&str> = None;
        while let Some((name, rows)) = c.record()? {
            // `pack` writes sizes, and each size's regions, in ascending order, once each.
            if previous.is_some_and(|p| p >= name) {
                return Err(FormatError::OutOfOrder { what: name.to_owned() });
            }
            previous = Some(name);
            let mut last_idx = None;
            for r in rows.chunks_exact(ROW) {
                let (idx, p) = row(r);
                let region =
                    regions.get(idx).ok_or_else(|| FormatError::RegionOutOfBounds { size: name.to_owned() })?;
                if last_idx.is_some_and(|l| l >= idx) {
                    return Err(FormatError::OutOfOrder { what: format!("{region} of {name}") });
                }
                last_idx = Some(idx);
                let bad = [p.linux, p.linux_spot, p.windows, p.windows_spot]
                    .into_iter()
                    .flatten()
                    .find(|v| !(v.is_finite() && *v > 0.0) || (usd && *v > MAX_HOURLY_USD));
                if let Some(price) = bad {
                    return Err(FormatError::BadPrice { price, size: name.to_owned(), region: region.to_string() });
                }
            }
        }
        Ok(Self { fetched_at, currency, source, regions, bytes, records })
    }

    /// Each size's name and rows.
    fn each(&self) -> impl Iterator<Item = (&str, &[u8])> {
        let mut c = Cursor(self.bytes.get(self.records..).unwrap_or_default());
        // `parse` walked every record, so none fails here.
        std::iter::from_fn(move || c.record().ok().flatten())
    }

    /// The prices of the sizes `wanted` accepts, decoded, each size's regions in file order.
    pub fn sizes_where(&self, wanted: impl Fn(&str) -> bool) -> Vec<(String, Vec<(Shared, RegionPrice)>)> {
        self.each()
            .filter(|(name, _)| wanted(name))
            .map(|(name, rows)| {
                let mut prices = Vec::with_capacity(rows.len() / ROW);
                for r in rows.chunks_exact(ROW) {
                    let (idx, p) = row(r);
                    // `parse` checked every index.
                    if let Some(region) = self.regions.get(idx) {
                        prices.push((region.clone(), p));
                    }
                }
                (name.to_owned(), prices)
            })
            .collect()
    }

    /// Everything, decoded (for `prices refresh`'s tests and tools).
    pub fn unpack(&self) -> PriceCache {
        let sizes = self
            .sizes_where(|_| true)
            .into_iter()
            .map(|(size, rows)| (size, rows.into_iter().map(|(r, p)| (r.to_string(), p)).collect()))
            .collect();
        PriceCache { fetched_at: self.fetched_at, currency: self.currency.clone(), source: self.source.clone(), sizes }
    }
}

/// Pack a cache (the layout in the module documentation). `Err` when a count or a name
/// does not fit its u16 (more than 65,535 regions or rows; no real refresh comes near).
pub fn pack(cache: &PriceCache) -> Result<Vec<u8>, FormatError> {
    fn put_u16(out: &mut Vec<u8>, count: usize, what: &'static str) -> Result<(), FormatError> {
        let n = u16::try_from(count).map_err(|_| FormatError::TooMany { count, what })?;
        out.extend_from_slice(&n.to_le_bytes());
        Ok(())
    }
    fn put_text(out: &mut Vec<u8>, s: &str) -> Result<(), FormatError> {
        put_u16(out, s.len(), "bytes in a name")?;
        out.extend_from_slice(s.as_bytes());
        Ok(())
    }
    let mut regions: Vec<&str> = cache.sizes.values().flat_map(|m| m.keys().map(String::as_str)).collect();
    regions.sort_unstable();
    regions.dedup();
    let mut out = Vec::with_capacity(64 + cache.sizes.len() * (40 + regions.len() * ROW));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out.extend_from_slice(&cache.fetched_at.to_le_bytes());
    put_text(&mut out, &cache.currency)?;
    put_text(&mut out, &cache.source)?;
    put_u16(&mut out, regions.len(), "regions")?;
    for r in &regions {
        put_text(&mut out, r)?;
    }
    for (size, per_region) in &cache.sizes {
        put_text(&mut out, size)?;
        put_u16(&mut out, per_region.len(), "regions of one size")?;
        for (region, p) in per_region {
            let idx = regions
                .binary_search(&region.as_str())
                .map_err(|_| FormatError::NotIndexed { region: region.clone() })?;
            put_u16(&mut out, idx, "regions")?;
            for cell in [p.linux, p.linux_spot, p.windows, p.windows_spot] {
                out.extend_from_slice(&cell.map_or(UNKNOWN, f64::to_bits).to_le_bytes());
            }
        }
    }
    Ok(out)
}

/// Merge the cache's prices of the sizes the catalog lists over the catalog's, each size
/// marked with `origin` and the regions replaced. Other sizes stay packed: their prices would
/// be ignored at lookup. Each size's map is built once from sorted rows (no insert per
/// price), the cache's row winning over the bundled one for the same region.
fn merge(catalog: &mut Catalog, cache: &PackedCache, origin: &std::sync::Arc<str>) {
    let listed: std::collections::HashSet<&str> = catalog.sizes.iter().map(|s| s.name.as_str()).collect();
    let merged = cache.sizes_where(|name| listed.contains(name));
    for (size, rows) in merged {
        let replaced: Vec<Shared> = rows.iter().map(|(r, _)| r.clone()).collect();
        let bundled = catalog.prices.sizes.remove(&size).unwrap_or_default();
        catalog.prices.sizes.insert(size.clone(), over(bundled, rows));
        catalog.prices.from_cache.insert(size, (origin.clone(), replaced));
    }
}

/// `rows` over `bundled`: a row replaces the bundled price of its region. Rows in strictly
/// ascending region order (as `pack` writes them and `read_cache` requires) are merged in one
/// pass; any other order is inserted one by one, the last row for a region winning.
fn over(mut bundled: BTreeMap<Shared, RegionPrice>, rows: Vec<(Shared, RegionPrice)>) -> BTreeMap<Shared, RegionPrice> {
    if !rows.windows(2).all(|w| w[0].0 < w[1].0) {
        bundled.extend(rows);
        return bundled;
    }
    let mut out = Vec::with_capacity(bundled.len() + rows.len());
    let mut old = bundled.into_iter().peekable();
    for (region, p) in rows {
        while let Some((r, _)) = old.peek() {
            match (**r).cmp(&*region) {
                std::cmp::Ordering::Less => out.extend(old.next()),
                std::cmp::Ordering::Equal => {
                    old.next();
                    break;
                }
                std::cmp::Ordering::Greater => break,
            }
        }
        out.push((region, p));
    }
    out.extend(old);
    // Already in order: collecting finds one sorted run and builds the map in one pass.
    out.into_iter().collect()
}

/// Fold Retail Prices items into per-size, per-region prices. Linux vs Windows by
/// `productName` (" Windows"); spot by `skuName` (" Spot"); low-priority rows, non-hourly
/// units, non-Consumption types and zero prices are skipped. The lowest price wins when a
/// size has several meters in a region.
pub fn fold_items(
    items: &[RetailPrice],
    wanted: &dyn Fn(&str) -> bool,
) -> BTreeMap<String, BTreeMap<String, RegionPrice>> {
    let mut out: BTreeMap<String, BTreeMap<String, RegionPrice>> = BTreeMap::new();
    for it in items {
        let Some((sku, region, price)) = it.hourly().filter(|(sku, _, _)| wanted(sku)) else {
            continue;
        };
        let (windows, spot) = (it.is_windows(), it.is_spot());
        let p = out.entry(sku.to_owned()).or_default().entry(region.to_owned()).or_default();
        let slot = match (windows, spot) {
            (false, false) => &mut p.linux,
            (false, true) => &mut p.linux_spot,
            (true, false) => &mut p.windows,
            (true, true) => &mut p.windows_spot,
        };
        *slot = Some(slot.map_or(price, |old: f64| old.min(price)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn item(sku: &str, region: &str, product: &str, sku_name: &str, price: f64) -> RetailPrice {
        typed(json!({"armSkuName": sku, "armRegionName": region, "productName": product, "skuName": sku_name,
               "unitPrice": price, "retailPrice": price, "type": "Consumption", "unitOfMeasure": "1 Hour", "currencyCode": "USD"}))
    }

    fn typed(v: Value) -> RetailPrice {
        serde_json::from_value(v).expect("an item of the documented shape")
    }

    #[test]
    fn items_fold_into_linux_windows_spot() {
        let items = vec![
            item("Standard_NC24ads_A100_v4", "eastus", "Virtual Machines NCadsA100v4 Series", "NC24ads A100 v4", 3.673),
            item(
                "Standard_NC24ads_A100_v4",
                "eastus",
                "Virtual Machines NCadsA100v4 Series",
                "NC24ads A100 v4 Spot",
                0.5,
            ),
            item(
                "Standard_NC24ads_A100_v4",
                "eastus",
                "Virtual Machines NCadsA100v4 Series Windows",
                "NC24ads A100 v4",
                4.5,
            ),
            item(
                "Standard_NC24ads_A100_v4",
                "eastus",
                "Virtual Machines NCadsA100v4 Series Windows",
                "NC24ads A100 v4 Spot",
                1.2,
            ),
            item(
                "Standard_NC24ads_A100_v4",
                "eastus",
                "Virtual Machines NCadsA100v4 Series",
                "NC24ads A100 v4 Low Priority",
                0.7,
            ),
            item("Standard_NC24ads_A100_v4", "eastus", "Virtual Machines NCadsA100v4 Series", "NC24ads A100 v4", 0.0),
            item("Standard_D2s_v5", "eastus", "Virtual Machines Dsv5 Series", "D2s v5", 0.1),
            typed(
                json!({"armSkuName": "Standard_NC24ads_A100_v4", "armRegionName": "eastus", "type": "Reservation", "unitPrice": 1.0, "unitOfMeasure": "1 Hour"}),
            ),
        ];
        let folded = fold_items(&items, &|s| s.starts_with("Standard_N"));
        assert_eq!(folded.len(), 1);
        let p = &folded["Standard_NC24ads_A100_v4"]["eastus"];
        assert_eq!((p.linux, p.linux_spot, p.windows, p.windows_spot), (Some(3.673), Some(0.5), Some(4.5), Some(1.2)));
    }

    #[test]
    fn cache_is_used_when_newer_fresh_and_valid() {
        let dir = std::env::temp_dir().join(format!("aksgpu-cache-{}", std::process::id()));
        let path = dir.join("prices.bin");
        let now = SystemTime::now();
        let now_s = now.duration_since(UNIX_EPOCH).expect("time").as_secs();
        let mut sizes = BTreeMap::new();
        sizes.insert(
            "Standard_NC24ads_A100_v4".to_owned(),
            BTreeMap::from([("eastus".to_owned(), RegionPrice { linux: Some(1.0), ..RegionPrice::default() })]),
        );
        let cache = PriceCache { fetched_at: now_s - 3600, currency: "USD".into(), source: "test".into(), sizes };
        write_cache(&path, &cache).expect("write");
        let mut c = Catalog::bundled().expect("catalog");
        let (src, warn) = apply(&mut c, read_cache(&path), &path, now);
        assert!(matches!(src, PriceSource::Cache { .. }), "{src:?}");
        assert!(warn.is_none());
        assert_eq!(c.price("Standard_NC24ads_A100_v4", "eastus").and_then(|p| p.linux), Some(1.0));
        // The replaced entry names the cache as its source; the others keep the bundled one.
        let src = c.price_source("Standard_NC24ads_A100_v4", "eastus", "linux").expect("source");
        assert!(src.starts_with("test (live cache, fetched "), "{src}");
        let src = c.price_source("Standard_NC24ads_A100_v4", "westus2", "linux").expect("source");
        assert!(src.contains("as of 2026-06-18"), "{src}");
        // Other regions keep their bundled prices.
        assert!(c.price("Standard_NC24ads_A100_v4", "westus2").and_then(|p| p.linux).is_some());

        // Expired.
        let old = PriceCache { fetched_at: now_s - 40 * 86_400, ..cache.clone() };
        write_cache(&path, &old).expect("write");
        let mut c = Catalog::bundled().expect("catalog");
        let (src, warn) = apply(&mut c, read_cache(&path), &path, now);
        assert!(matches!(src, PriceSource::Bundled { .. }));
        assert!(warn.expect("warn").contains("40 days old"));

        // Corrupt: ignored with a warning.
        std::fs::write(&path, "{ not json").expect("write");
        let mut c = Catalog::bundled().expect("catalog");
        let (src, warn) = apply(&mut c, read_cache(&path), &path, now);
        assert!(matches!(src, PriceSource::Bundled { .. }));
        assert!(warn.expect("warn").contains("corrupt"));
        std::fs::write(&path, cache_bytes(1, -3.0)).expect("write");
        assert!(read_cache(&path).expect_err("negative").to_string().contains("corrupt"));
        assert!(matches!(read_cache(&dir.join("absent.bin")), Ok(None)));
    }

    /// A one-price cache (A100 in eastus, Linux), packed.
    fn one_price(fetched_at: u64, linux: f64) -> PriceCache {
        let p = RegionPrice { linux: Some(linux), ..RegionPrice::default() };
        let sizes =
            BTreeMap::from([("Standard_NC24ads_A100_v4".to_owned(), BTreeMap::from([("eastus".to_owned(), p)]))]);
        PriceCache { fetched_at, currency: "USD".into(), source: "x".into(), sizes }
    }

    fn cache_bytes(fetched_at: u64, linux: f64) -> Vec<u8> {
        pack(&one_price(fetched_at, linux)).expect("pack")
    }

    /// The cache's rows replace the bundled prices of their regions and keep the others, in
    /// order or not.
    #[test]
    fn rows_go_over_the_bundled_prices() {
        let p = |x: f64| RegionPrice { linux: Some(x), ..RegionPrice::default() };
        let r = |n: &str| Shared::from(n);
        let bundled: BTreeMap<Shared, RegionPrice> = [(r("b"), p(1.0)), (r("d"), p(2.0)), (r("f"), p(3.0))].into();
        let want: BTreeMap<Shared, RegionPrice> =
            [(r("a"), p(9.0)), (r("b"), p(8.0)), (r("d"), p(2.0)), (r("e"), p(7.0)), (r("f"), p(3.0))].into();
        let sorted = vec![(r("a"), p(9.0)), (r("b"), p(8.0)), (r("e"), p(7.0))];
        assert_eq!(over(bundled.clone(), sorted), want);
        let unsorted = vec![(r("e"), p(7.0)), (r("b"), p(0.5)), (r("a"), p(9.0)), (r("b"), p(8.0))];
        assert_eq!(over(bundled, unsorted), want);
    }

    /// Every cache round-trips bit for bit, and every way to cut or damage the bytes is
    /// refused, never misread.
    #[test]
    fn packed_caches_round_trip_and_damage_is_refused() {
        let mut cache = one_price(1_800_000_000, 3.673);
        let mut eur = BTreeMap::new();
        eur.insert(
            "westeurope".to_owned(),
            RegionPrice { linux: Some(0.1 + 0.2), windows_spot: Some(1e-9), ..RegionPrice::default() },
        );
        eur.insert("sweden central".to_owned(), RegionPrice::default());
        cache.sizes.insert("Standard_ND96isr_H100_v5".to_owned(), eur);
        let bytes = pack(&cache).expect("pack");
        let read = PackedCache::parse(bytes.clone()).expect("parse");
        assert_eq!(read.unpack(), cache);
        assert_eq!(read.sizes_where(|n| n.contains("H100")).len(), 1);
        for cut in 0..bytes.len() {
            let partial = bytes.get(..cut).expect("prefix").to_vec();
            let whole_records = PackedCache::parse(partial.clone()).map(|c| c.unpack());
            // A cut between records parses as fewer sizes, never as other prices.
            if let Ok(c) = whole_records {
                assert!(c.sizes.iter().all(|(k, v)| cache.sizes.get(k) == Some(v)), "cut at {cut}");
            }
        }
        // Another version, another magic, a region index out of bounds.
        let mut other = bytes.clone();
        other[8] = 2;
        assert!(PackedCache::parse(other).expect_err("version").to_string().contains("format version 2"));
        let mut other = bytes.clone();
        other[0] = b'{';
        assert!(PackedCache::parse(other).expect_err("magic").to_string().contains("not an aksgpu price cache"));
        let mut other = pack(&one_price(1, 1.0)).expect("pack");
        let at = other.len() - ROW;
        other[at] = 9;
        assert!(PackedCache::parse(other).expect_err("index").to_string().contains("out of bounds"));
        // A size or a region twice (a crafted file) is refused, not merged twice.
        let mut twice = pack(&one_price(1, 1.0)).expect("pack");
        let record = twice.split_off(twice.len() - (2 + "Standard_NC24ads_A100_v4".len() + 2 + ROW));
        twice.extend_from_slice(&record);
        twice.extend_from_slice(&record);
        assert!(PackedCache::parse(twice).expect_err("size twice").to_string().contains("out of order or repeated"));
        let mut two_rows = pack(&one_price(1, 1.0)).expect("pack");
        let row_bytes = two_rows[two_rows.len() - ROW..].to_vec();
        let count_at = two_rows.len() - ROW - 2;
        two_rows[count_at] = 2;
        two_rows.extend_from_slice(&row_bytes);
        assert!(PackedCache::parse(two_rows)
            .expect_err("region twice")
            .to_string()
            .contains("out of order or repeated"));
    }

    #[test]
    fn unsafe_caches_are_refused_with_a_reason() {
        let dir = std::env::temp_dir().join(format!("aksgpu-cache-unsafe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("prices.bin");
        let now = UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        let read = |bytes: &[u8]| {
            std::fs::write(&path, bytes).expect("write");
            read_cache_at(&path, now).map_err(|e| e.to_string())
        };
        assert!(read(&cache_bytes(1_799_999_000, 3.5)).expect("sane").is_some());
        // Within the clock-skew allowance, then beyond it.
        assert!(read(&cache_bytes(1_800_000_200, 3.5)).is_ok());
        assert!(read(&cache_bytes(1_800_086_400, 3.5)).expect_err("future").contains("in the future"));
        for bad in [1e308, 2000.01, 0.0, -1.0, f64::NAN, f64::INFINITY] {
            let why = read(&cache_bytes(1_799_999_000, bad)).expect_err("bad price");
            assert!(why.contains("corrupt") && why.contains("at most $2000/h"), "{bad}: {why}");
        }
        assert!(read(&cache_bytes(1_799_999_000, 2000.0)).is_ok(), "the ceiling itself is allowed");
        // Larger than the cap (checked before parsing).
        let mut big = cache_bytes(1_799_999_000, 3.5);
        big.resize(MAX_CACHE_BYTES as usize + 1, 0);
        assert!(read(&big).expect_err("big").contains("larger than 16 MiB"));
        // A JSON cache of an earlier release is named, never read.
        std::fs::remove_file(&path).expect("rm");
        std::fs::write(dir.join("prices.json"), r#"{"fetched_at": 1, "currency": "USD", "sizes": {}}"#).expect("json");
        assert!(read_cache_at(&path, now).expect_err("legacy").to_string().contains("format of an earlier aksgpu"));
        std::fs::remove_file(dir.join("prices.json")).expect("rm");
        std::fs::write(&path, b"x").expect("write");
        // A directory is not a regular file.
        std::fs::remove_file(&path).expect("rm");
        std::fs::create_dir(&path).expect("mkdir");
        assert!(read_cache_at(&path, now).expect_err("dir").to_string().contains("not a regular file"));
        std::fs::remove_dir(&path).expect("rmdir");
    }

    #[test]
    fn writes_never_follow_a_planted_temp_symlink() {
        let dir = std::env::temp_dir().join(format!("aksgpu-cache-symlink-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let victim = dir.join("victim.txt");
        std::fs::write(&victim, "keep me").expect("victim");
        #[cfg(unix)]
        std::os::unix::fs::symlink(&victim, dir.join("prices.bin.tmp")).expect("symlink");
        let path = dir.join("prices.bin");
        let cache = PriceCache { fetched_at: 1, currency: "USD".into(), source: "t".into(), sizes: BTreeMap::new() };
        write_cache(&path, &cache).expect("write");
        assert_eq!(std::fs::read_to_string(&victim).expect("victim"), "keep me");
        assert_eq!(read_cache_at(&path, SystemTime::now()).expect("read").map(|c| c.unpack()), Some(cache));
        // No temporary file is left behind.
        let left: Vec<String> = std::fs::read_dir(&dir)
            .expect("ls")
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .filter(|n| n.starts_with(".prices."))
            .collect();
        assert!(left.is_empty(), "{left:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
