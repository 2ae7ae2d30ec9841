//! Live prices: reading Azure Retail Prices items, the local cache, and merging it over the
//! bundled price table.
//!
//! The cache lives in the user's cache directory (`$XDG_CACHE_HOME/aksgpu/prices.json`, else
//! `~/.cache/aksgpu/prices.json`; `AKSGPU_CACHE_DIR` overrides) with its fetch time. A cache is
//! used when it is newer than the bundled prices and younger than `MAX_AGE`; a corrupt cache is
//! ignored with a warning, never a crash.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::catalog::{Catalog, RegionPrice};

/// A cache older than this is not used.
pub const MAX_AGE: Duration = Duration::from_secs(30 * 24 * 3600);

/// The cache file.
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

/// The cache directory.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty()).map(PathBuf::from);
    var("AKSGPU_CACHE_DIR")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("aksgpu")))
        .or_else(|| var("HOME").map(|h| h.join(".cache").join("aksgpu")))
}

/// The cache file path (USD).
pub fn cache_path() -> Option<PathBuf> {
    cache_path_for("USD")
}

/// The cache of one currency: `prices.json` for USD, `prices-EUR.json` for EUR, …, so a
/// refresh in one currency never replaces another's.
pub fn cache_path_for(currency: &str) -> Option<PathBuf> {
    let c = currency.to_ascii_uppercase();
    cache_dir().map(|d| d.join(if c == "USD" { "prices.json".to_owned() } else { format!("prices-{c}.json") }))
}

/// Replace every price with a non-USD cache's: bundled USD figures are never relabelled in
/// another currency, so a size or region the cache lacks has no price. `Err` says why the
/// cache cannot be used (absent, wrong currency, older than `MAX_AGE`).
pub fn use_currency(
    catalog: &mut Catalog,
    cache: Option<PriceCache>,
    currency: &str,
    path: &Path,
    now: SystemTime,
) -> Result<PriceSource, String> {
    let Some(cache) = cache else {
        return Err(format!("no {currency} prices are cached ({} does not exist)", path.display()));
    };
    if !cache.currency.eq_ignore_ascii_case(currency) {
        return Err(format!("{} holds {} prices, not {currency}", path.display(), cache.currency));
    }
    let now_s = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let age = now_s.saturating_sub(cache.fetched_at);
    if age > MAX_AGE.as_secs() {
        return Err(format!("the {currency} price cache is {} days old", age / 86_400));
    }
    let origin: std::sync::Arc<str> =
        format!("{} (live cache, {currency}, fetched {})", cache.source, date_of(cache.fetched_at)).into();
    catalog.prices.sizes.clear();
    catalog.prices.from_cache.clear();
    catalog.prices.currency = currency.to_owned();
    for (size, regions) in cache.sizes {
        let entry = catalog.prices.sizes.entry(size.clone()).or_default();
        for (region, p) in regions {
            catalog.prices.from_cache.insert((size.clone(), region.clone()), origin.clone());
            entry.insert(region.as_str().into(), p);
        }
    }
    Ok(PriceSource::Cache {
        path: path.display().to_string(),
        fetched_at: cache.fetched_at,
        age_days: age as f64 / 86_400.0,
    })
}

/// A cache larger than this is ignored: a refresh of every catalog size in every region is
/// well under 1 MiB.
pub const MAX_CACHE_BYTES: u64 = 16 * 1024 * 1024;

/// The highest believable hourly USD price. The most expensive size in the bundled table
/// lists at about $128/h (catalog/prices.yaml); a cache claiming more than this is corrupt.
pub const MAX_HOURLY_USD: f64 = 2_000.0;

/// How far in the future `fetched_at` may be (clock skew between machines sharing a home).
pub const FUTURE_SKEW: Duration = Duration::from_secs(300);

/// Read a cache file: `Ok(None)` when absent; `Err(reason)` when it must be ignored: not a
/// regular file (a FIFO never blocks the read), larger than `MAX_CACHE_BYTES`, not JSON,
/// fetched in the future, or holding a price ≤ 0, not finite, or (in USD) above
/// `MAX_HOURLY_USD`.
pub fn read_cache(path: &Path) -> Result<Option<PriceCache>, String> {
    read_cache_at(path, SystemTime::now())
}

/// `read_cache` with the current time given.
pub fn read_cache_at(path: &Path, now: SystemTime) -> Result<Option<PriceCache>, String> {
    let Some(bytes) = read_regular_capped(path)? else { return Ok(None) };
    let c: PriceCache = serde_json::from_slice(&bytes).map_err(|e| format!("{} is corrupt ({e})", path.display()))?;
    let now_s = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    if c.fetched_at > now_s.saturating_add(FUTURE_SKEW.as_secs()) {
        return Err(format!(
            "{} was fetched in the future (fetched_at {}); the clock or the file is wrong",
            path.display(),
            c.fetched_at
        ));
    }
    let usd = c.currency.eq_ignore_ascii_case("USD");
    for (size, regions) in &c.sizes {
        for (region, p) in regions {
            for v in [p.linux, p.linux_spot, p.windows, p.windows_spot].into_iter().flatten() {
                if !(v.is_finite() && v > 0.0) || (usd && v > MAX_HOURLY_USD) {
                    return Err(format!(
                        "{} is corrupt (price {v} for {size} in {region}; prices must be above 0 and at most ${MAX_HOURLY_USD}/h)",
                        path.display()
                    ));
                }
            }
        }
    }
    Ok(Some(c))
}

/// The bytes of a regular file of at most `MAX_CACHE_BYTES`, or `Ok(None)` when absent. The
/// file is opened without blocking (a FIFO would block a plain open) and checked on the open
/// handle, so a file swapped in after a check cannot slip through.
pub(crate) fn read_regular_capped(path: &Path) -> Result<Option<Vec<u8>>, String> {
    use std::io::Read as _;
    let file = match open_nonblocking(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let meta = file.metadata().map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    if meta.len() > MAX_CACHE_BYTES {
        return Err(format!("{} is larger than {} MiB", path.display(), MAX_CACHE_BYTES / (1024 * 1024)));
    }
    let mut bytes = Vec::new();
    file.take(MAX_CACHE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() as u64 > MAX_CACHE_BYTES {
        return Err(format!("{} is larger than {} MiB", path.display(), MAX_CACHE_BYTES / (1024 * 1024)));
    }
    Ok(Some(bytes))
}

/// Open for reading without blocking on a FIFO (`O_NONBLOCK`; regular files read as usual).
#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt as _;
    std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)
}

/// Open for reading (no FIFOs to block on in a cache directory off Unix).
#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Write the cache atomically: a uniquely named temporary file, created exclusively
/// (`O_EXCL`, so never through a planted symlink) in the cache directory, then renamed over
/// `path`. A symlink at `path` itself is replaced, not followed. Concurrent writers never
/// share a temporary file; the last rename wins with a complete file.
pub fn write_cache(path: &Path, cache: &PriceCache) -> std::io::Result<()> {
    write_atomic(path, &serde_json::to_vec_pretty(cache).map_err(std::io::Error::other)?, ".prices.")
}

/// Write `bytes` to `path` atomically, as `write_cache` does (the Hub cache shares it).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8], prefix: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::Builder::new().prefix(prefix).suffix(".tmp").tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// YYYY-MM-DD → unix seconds (UTC midnight).
pub fn epoch_of(date: &str) -> Option<u64> {
    bundled_epoch(date)
}

fn bundled_epoch(as_of: &str) -> Option<u64> {
    // YYYY-MM-DD → unix seconds (days from civil, proleptic Gregorian).
    let b = as_of.get(..10)?;
    let y: i64 = b.get(..4)?.parse().ok()?;
    let m: i64 = b.get(5..7)?.parse().ok()?;
    let d: i64 = b.get(8..10)?.parse().ok()?;
    let (y, m) = if m <= 2 { (y - 1, m + 12) } else { (y, m) };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m - 3) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    u64::try_from(days * 86_400).ok()
}

/// Unix seconds → YYYY-MM-DD (UTC), the inverse of `bundled_epoch` for whole days.
pub(crate) fn date_of(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0) + 719_468;
    let era = days.div_euclid(146_097);
    let doe = days - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Merge the cache over the catalog's prices when it is newer and fresh enough. Returns where
/// prices come from and any warning.
pub fn apply(
    catalog: &mut Catalog,
    cache: Result<Option<PriceCache>, String>,
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
    for (size, regions) in cache.sizes {
        let entry = catalog.prices.sizes.entry(size.clone()).or_default();
        for (region, p) in regions {
            catalog.prices.from_cache.insert((size.clone(), region.clone()), origin.clone());
            entry.insert(region.as_str().into(), p);
        }
    }
    (
        PriceSource::Cache {
            path: path.display().to_string(),
            fetched_at: cache.fetched_at,
            age_days: age as f64 / 86_400.0,
        },
        None,
    )
}

/// Fold Retail Prices items into per-size, per-region prices. Linux vs Windows by
/// `productName` (" Windows"); spot by `skuName` (" Spot"); low-priority rows, non-hourly
/// units, non-Consumption types and zero prices are skipped. The lowest price wins when a
/// size has several meters in a region.
pub fn fold_items(items: &[Value], wanted: &dyn Fn(&str) -> bool) -> BTreeMap<String, BTreeMap<String, RegionPrice>> {
    let mut out: BTreeMap<String, BTreeMap<String, RegionPrice>> = BTreeMap::new();
    for it in items {
        let s = |k: &str| it.get(k).and_then(Value::as_str).unwrap_or_default();
        let sku = s("armSkuName");
        let region = s("armRegionName");
        if sku.is_empty() || region.is_empty() || !wanted(sku) {
            continue;
        }
        if !s("type").eq_ignore_ascii_case("Consumption") || !s("unitOfMeasure").eq_ignore_ascii_case("1 Hour") {
            continue;
        }
        let sku_name = s("skuName");
        let product = s("productName");
        if sku_name.contains("Low Priority") {
            continue;
        }
        let Some(price) = it.get("unitPrice").and_then(Value::as_f64).filter(|p| p.is_finite() && *p > 0.0) else {
            continue;
        };
        let windows = product.contains(" Windows");
        let spot = sku_name.ends_with(" Spot");
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
    use serde_json::json;

    fn item(sku: &str, region: &str, product: &str, sku_name: &str, price: f64) -> Value {
        json!({"armSkuName": sku, "armRegionName": region, "productName": product, "skuName": sku_name,
               "unitPrice": price, "retailPrice": price, "type": "Consumption", "unitOfMeasure": "1 Hour", "currencyCode": "USD"})
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
            json!({"armSkuName": "Standard_NC24ads_A100_v4", "armRegionName": "eastus", "type": "Reservation", "unitPrice": 1.0, "unitOfMeasure": "1 Hour"}),
        ];
        let folded = fold_items(&items, &|s| s.starts_with("Standard_N"));
        assert_eq!(folded.len(), 1);
        let p = &folded["Standard_NC24ads_A100_v4"]["eastus"];
        assert_eq!((p.linux, p.linux_spot, p.windows, p.windows_spot), (Some(3.673), Some(0.5), Some(4.5), Some(1.2)));
    }

    #[test]
    fn cache_is_used_when_newer_fresh_and_valid() {
        let dir = std::env::temp_dir().join(format!("aksgpu-cache-{}", std::process::id()));
        let path = dir.join("prices.json");
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
        let mut c = Catalog::bundled().expect("catalog");
        let (src, warn) = apply(&mut c, Ok(Some(old)), &path, now);
        assert!(matches!(src, PriceSource::Bundled { .. }));
        assert!(warn.expect("warn").contains("40 days old"));

        // Corrupt: ignored with a warning.
        std::fs::write(&path, "{ not json").expect("write");
        let mut c = Catalog::bundled().expect("catalog");
        let (src, warn) = apply(&mut c, read_cache(&path), &path, now);
        assert!(matches!(src, PriceSource::Bundled { .. }));
        assert!(warn.expect("warn").contains("corrupt"));
        std::fs::write(&path, r#"{"fetched_at": 1, "currency": "USD", "source": "x", "sizes": {"Standard_NC24ads_A100_v4": {"eastus": {"linux": -3}}}}"#).expect("write");
        assert!(read_cache(&path).expect_err("negative").contains("corrupt"));
        assert_eq!(read_cache(&dir.join("absent.json")), Ok(None));
    }

    fn cache_json(fetched_at: u64, price: &str) -> String {
        format!(
            r#"{{"fetched_at": {fetched_at}, "currency": "USD", "source": "x", "sizes": {{"Standard_NC24ads_A100_v4": {{"eastus": {{"linux": {price}}}}}}}}}"#
        )
    }

    #[test]
    fn unsafe_caches_are_refused_with_a_reason() {
        let dir = std::env::temp_dir().join(format!("aksgpu-cache-unsafe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("prices.json");
        let now = UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        let read = |text: &str| {
            std::fs::write(&path, text).expect("write");
            read_cache_at(&path, now)
        };
        assert!(read(&cache_json(1_799_999_000, "3.5")).expect("sane").is_some());
        // Within the clock-skew allowance, then beyond it.
        assert!(read(&cache_json(1_800_000_200, "3.5")).is_ok());
        assert!(read(&cache_json(1_800_086_400, "3.5")).expect_err("future").contains("in the future"));
        for bad in ["1e308", "2000.01", "0", "-1"] {
            let why = read(&cache_json(1_799_999_000, bad)).expect_err(bad);
            assert!(why.contains("corrupt") && why.contains("at most $2000/h"), "{bad}: {why}");
        }
        assert!(read(&cache_json(1_799_999_000, "2000")).is_ok(), "the ceiling itself is allowed");
        // Larger than the cap (checked before parsing).
        let big = format!("{}{}", cache_json(1_799_999_000, "3.5"), " ".repeat(MAX_CACHE_BYTES as usize));
        assert!(read(&big).expect_err("big").contains("larger than 16 MiB"));
        // A directory is not a regular file.
        std::fs::remove_file(&path).expect("rm");
        std::fs::create_dir(&path).expect("mkdir");
        assert!(read_cache_at(&path, now).expect_err("dir").contains("not a regular file"));
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
        std::os::unix::fs::symlink(&victim, dir.join("prices.json.tmp")).expect("symlink");
        let path = dir.join("prices.json");
        let cache = PriceCache { fetched_at: 1, currency: "USD".into(), source: "t".into(), sizes: BTreeMap::new() };
        write_cache(&path, &cache).expect("write");
        assert_eq!(std::fs::read_to_string(&victim).expect("victim"), "keep me");
        assert_eq!(read_cache_at(&path, SystemTime::now()).expect("read"), Some(cache));
        // No temporary file is left behind.
        let left: Vec<String> = std::fs::read_dir(&dir)
            .expect("ls")
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .filter(|n| n.starts_with(".prices."))
            .collect();
        assert!(left.is_empty(), "{left:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn dates_to_epoch() {
        assert_eq!(bundled_epoch("1970-01-01"), Some(0));
        assert_eq!(bundled_epoch("2026-11-30"), Some(1_795_996_800));
        assert_eq!(bundled_epoch("2000-03-01"), Some(951_868_800));
        assert_eq!(bundled_epoch("unknown"), None);
        for d in ["1970-01-01", "2000-02-29", "2000-03-01", "2026-06-18", "2026-11-30"] {
            assert_eq!(date_of(bundled_epoch(d).expect("date")), d);
        }
    }
}
