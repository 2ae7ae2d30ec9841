//! The price cache cannot be turned against the user, and `prices refresh` is bounded
//! (a cache is data from disk, never trusted): concurrent writers, planted symlinks, FIFOs, oversized,
//! future-dated and absurd caches, and Retail Prices servers that never stop paging.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use aksgpu::catalog::RegionPrice;
use aksgpu::pricing::{pack, PriceCache};

use crate::fake_arm::{respond_h, FakeArm};
use crate::support::{aksgpu_arm, aksgpu_with, temp_dir, Run};

const A100: &str = "Standard_NC24ads_A100_v4";

fn refresh(arm: &FakeArm, cache: &Path, extra: &[&str]) -> Run {
    let cache = cache.display().to_string();
    let args = [&["prices", "refresh", "-o", "json"], extra].concat();
    aksgpu_arm(&arm.base, &args, &[("AKSGPU_PRICES_ENDPOINT", &arm.base), ("AKSGPU_CACHE_DIR", &cache)])
}

fn item(region: &str, sku_name: &str, price: f64) -> Value {
    json!({"armSkuName": A100, "armRegionName": region, "productName": "Virtual Machines NCadsA100v4 Series",
           "skuName": sku_name, "unitPrice": price, "retailPrice": price, "type": "Consumption",
           "unitOfMeasure": "1 Hour", "currencyCode": "USD", "serviceName": "Virtual Machines"})
}

fn now_s() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).expect("clock").as_secs()
}

/// A cache as `prices refresh` packs it: one Linux price for the A100 in eastus.
fn cache_with(fetched_at: u64, linux: f64) -> Vec<u8> {
    let p = RegionPrice { linux: Some(linux), ..RegionPrice::default() };
    let sizes = [(A100.to_owned(), [("eastus".to_owned(), p)].into())].into();
    pack(&PriceCache { fetched_at, currency: "USD".into(), source: "test".into(), sizes }).expect("pack")
}

fn recommend(cache: &Path) -> Run {
    aksgpu_with(
        &["recommend", "--gpu-model", "A100", "--region", "eastus"],
        &[("AKSGPU_CACHE_DIR", cache.to_str().expect("utf8"))],
    )
}

fn temp_leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("ls")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn twenty_four_concurrent_refreshes_all_succeed() {
    let arm = FakeArm::start();
    arm.with(|s| s.retail_items = vec![item("eastus", "NC24ads A100 v4", 3.5)]);
    let cache = temp_dir("prices-concurrent");
    let runs: Vec<Run> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..24).map(|_| sc.spawn(|| refresh(&arm, &cache, &["--region", "eastus"]))).collect();
        handles.into_iter().map(|h| h.join().expect("thread")).collect()
    });
    for r in &runs {
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    let saved = aksgpu::pricing::read_cache(&cache.join("prices.bin")).expect("complete").expect("cache").unpack();
    assert_eq!(saved.sizes[A100]["eastus"].linux, Some(3.5));
    assert!(temp_leftovers(&cache).is_empty(), "{:?}", temp_leftovers(&cache));
}

#[cfg(unix)]
#[test]
fn a_planted_symlink_is_never_written_through() {
    let arm = FakeArm::start();
    arm.with(|s| s.retail_items = vec![item("eastus", "NC24ads A100 v4", 3.5)]);
    let cache = temp_dir("prices-symlink");
    let victim = cache.join("victim.txt");
    std::fs::write(&victim, "precious").expect("victim");
    // The old fixed temporary name, and the cache itself, both point at the victim.
    std::os::unix::fs::symlink(&victim, cache.join("prices.bin.tmp")).expect("symlink");
    std::os::unix::fs::symlink(&victim, cache.join("prices.bin")).expect("symlink");
    let r = refresh(&arm, &cache, &["--region", "eastus"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&victim).expect("victim"), "precious");
    let meta = std::fs::symlink_metadata(cache.join("prices.bin")).expect("cache");
    assert!(meta.file_type().is_file(), "the symlink was replaced by a regular file");
}

#[cfg(unix)]
#[test]
fn a_fifo_cache_does_not_block_recommend() {
    let cache = temp_dir("prices-fifo");
    let fifo = cache.join("prices.bin");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success(), "mkfifo failed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_aksgpu"))
        .args(["recommend", "--gpu-model", "A100", "--region", "eastus"])
        .env("AKSGPU_CACHE_DIR", &cache)
        .env_remove("AKSGPU_CATALOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("recommend blocked on a FIFO price cache");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("ignoring the price cache") && stderr.contains("not a regular file"), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains(A100));
}

#[test]
fn absurd_future_and_oversized_caches_are_ignored_with_a_warning() {
    let cache = temp_dir("prices-absurd");
    let path = cache.join("prices.bin");
    let mut oversized = cache_with(now_s() - 60, 1.25);
    oversized.resize(17 * 1024 * 1024, 0);
    let mut cut = cache_with(now_s() - 60, 1.25);
    cut.pop();
    let mut out_of_bounds = cache_with(now_s() - 60, 1.25);
    let row = out_of_bounds.len() - (2 + 4 * 8);
    out_of_bounds[row] = 7;
    let cases = [
        (cache_with(now_s() - 60, 1e308), "corrupt"),
        (cache_with(now_s() - 60, 2500.0), "corrupt"),
        (cache_with(now_s() - 60, 0.0), "corrupt"),
        (cache_with(now_s() - 60, f64::NAN), "corrupt"),
        (cache_with(now_s() + 86_400, 1.25), "in the future"),
        (oversized, "larger than 16 MiB"),
        (cut, "corrupt"),
        (out_of_bounds, "out of bounds"),
        (b"{\"fetched_at\": 1}".to_vec(), "not an aksgpu price cache"),
    ];
    for (text, why) in cases {
        std::fs::write(&path, text).expect("write");
        let r = recommend(&cache);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stderr.contains("ignoring the price cache") && r.stderr.contains(why), "{why}: {}", r.stderr);
        // The bundled prices are used: none of the planted numbers, and nothing saturated.
        assert!(!r.stdout.contains("18,446,744") && !r.stdout.contains("$1.25"), "{}", r.stdout);
        assert!(r.stdout.contains(A100), "{}", r.stdout);
    }
    // A sane cache is used.
    std::fs::write(&path, cache_with(now_s() - 60, 1.25)).expect("write");
    let r = recommend(&cache);
    assert!(r.stdout.contains("$1.25") && !r.stderr.contains("ignoring"), "{}\n{}", r.stdout, r.stderr);
}

#[test]
fn a_server_that_ignores_skip_stops_the_refresh_with_an_error() {
    let arm = FakeArm::start();
    let cache = temp_dir("prices-skip-ignored");
    // Every request gets the same full page and no NextPageLink: the $skip fallback asks for
    // the next page, and the server answers with the first one again, forever.
    let page: Vec<Value> = (0..100).map(|i| item(&format!("region{i:03}"), "NC24ads A100 v4", 3.5)).collect();
    let body = json!({"BillingCurrency": "USD", "Items": page, "NextPageLink": null, "Count": 100}).to_string();
    arm.fault("GET", "/api/retail/prices", 100_000, respond_h(200, &[], &body));
    let r = refresh(&arm, &cache, &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("same page twice") && r.stderr.contains("did not advance"), "{}", r.stderr);
    let requests = arm.count("GET", "/api/retail/prices");
    // Two requests per query in flight at most (six at once), instead of 200 pages per size.
    assert!((2..=12).contains(&requests), "{requests} requests");
    assert!(!cache.join("prices.bin").exists(), "no cache is written from a failed refresh");
}

#[test]
fn a_self_link_and_endless_pages_are_refused() {
    // NextPageLink pointing at the page itself.
    let arm = FakeArm::start();
    let cache = temp_dir("prices-self-link");
    let self_url = format!("{}/api/retail/prices?loop=1", arm.base);
    let body = json!({"Items": [item("eastus", "NC24ads A100 v4", 3.5)], "NextPageLink": self_url}).to_string();
    arm.fault("GET", "/api/retail/prices", 100_000, respond_h(200, &[], &body));
    let r = refresh(&arm, &cache, &["--region", "eastus"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("same page twice") || r.stderr.contains("to itself"), "{}", r.stderr);
    assert!(arm.count("GET", "/api/retail/prices") <= 12);

    // Distinct pages that never end: stopped at the page cap, 50 requests for that query.
    let arm = FakeArm::start();
    let cache = temp_dir("prices-endless");
    let items: Vec<Value> = (0..6_000).map(|i| item("eastus", &format!("NC24ads A100 v4 m{i}"), 3.5)).collect();
    arm.with(|s| s.retail_items = items);
    let r = refresh(&arm, &cache, &["--region", "eastus"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("more than 50 pages"), "{}", r.stderr);
    assert_eq!(arm.count("GET", A100), 50);
}

/// A cache that cannot be written is an I/O failure: exit 1, naming the path (not 2, which
/// means the command line was wrong).
#[test]
fn a_cache_write_failure_exits_1_naming_the_path() {
    let arm = FakeArm::start();
    arm.with(|s| s.retail_items = vec![item("eastus", "NC24ads A100 v4", 3.67)]);
    let dir = temp_dir("cache-unwritable");
    // A regular file where the cache directory should be: nothing can be created under it.
    let cache = dir.join("not-a-dir");
    std::fs::write(&cache, "x").expect("file");
    let r = refresh(&arm, &cache, &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("not-a-dir"), "{}", r.stderr);
}

/// A JSON cache from a release before the packed format is never read as prices: recommend
/// warns, names it and the refresh, and uses the bundled prices; a refresh writes the packed
/// cache beside it, which is then used.
#[test]
fn an_old_format_cache_is_named_never_read() {
    let arm = FakeArm::start();
    arm.with(|s| s.retail_items = vec![item("eastus", "NC24ads A100 v4", 1.25)]);
    let cache = temp_dir("prices-legacy");
    let json = format!(
        r#"{{"fetched_at": {}, "currency": "USD", "source": "test", "sizes": {{"{A100}": {{"eastus": {{"linux": 1.25}}}}}}}}"#,
        now_s() - 60
    );
    std::fs::write(cache.join("prices.json"), json).expect("write");
    let r = recommend(&cache);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("ignoring the price cache") && r.stderr.contains("earlier aksgpu"), "{}", r.stderr);
    assert!(r.stderr.contains("prices.json") && r.stderr.contains("prices refresh"), "{}", r.stderr);
    assert!(!r.stdout.contains("$1.25") && r.stdout.contains(A100), "{}", r.stdout);
    let refreshed = refresh(&arm, &cache, &["--region", "eastus"]);
    assert_eq!(refreshed.code, 0, "{}", refreshed.stderr);
    let r = recommend(&cache);
    assert!(r.stdout.contains("$1.25") && !r.stderr.contains("ignoring"), "{}\n{}", r.stdout, r.stderr);
}
