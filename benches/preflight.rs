//! Benchmark: round trips and request counts against the fake ARM server with a fixed added
//! latency per request (100 ms, about a cross-region round trip to ARM).
//!
//! - `create-pool` preflight with and without `--location`, with a cold cache directory (the
//!   first run against a cluster) and a warm one (the cluster's location remembered): round
//!   trips before the PUT, counted from the server's log (`round`) and from the wall time;
//! - `apply -f` of ten new pools: the requests sent before the first poll (target: 14).
//!
//! Run with `cargo bench --bench preflight`.

#![allow(clippy::print_stdout)]

#[path = "../tests/integration/fake_arm.rs"]
#[allow(dead_code)]
mod fake_arm;
#[path = "../tests/integration/fake_graph.rs"]
#[allow(dead_code)]
mod fake_graph;
#[path = "../tests/integration/support.rs"]
#[allow(dead_code, clippy::print_stderr)]
mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use fake_arm::{FakeArm, LroStyle};
use support::{aksgpu_arm, temp_dir, CreatePool};

const LATENCY: Duration = Duration::from_millis(100);

/// A fake ARM server that adds `LATENCY` to every request and answers each list in one page.
fn slow_arm(lro: LroStyle) -> FakeArm {
    let arm = FakeArm::start();
    arm.with(|s| {
        s.latency = LATENCY;
        s.page_size = 100;
        s.trailing_empty_page = false;
        s.lro_style = lro;
    });
    arm
}

/// Run `args` with the cache directory `cache`; the wall time.
fn run(arm: &FakeArm, args: &[&str], cache: &Path) -> Duration {
    let start = Instant::now();
    let r = aksgpu_arm(&arm.base, args, &[("AKSGPU_CACHE_DIR", cache.to_str().expect("utf-8"))]);
    let elapsed = start.elapsed();
    assert_eq!(r.code, 0, "{}", r.stderr);
    elapsed
}

/// Round trips before the first write (or all of them, for a run that writes nothing).
fn rounds_before_write(arm: &FakeArm) -> usize {
    let log = arm.log();
    match log.iter().find(|r| r.method != "GET") {
        Some(w) => w.round - 1,
        None => log.iter().map(|r| r.round).max().unwrap_or(0),
    }
}

fn preflight(label: &str, extra: &[&str], warm: bool, lro: LroStyle) {
    let cache = temp_dir(&format!("bench-preflight-{}", label.replace([' ', ','], "-")));
    if warm {
        // An earlier run against the cluster (another pool name) remembered its location.
        let first = CreatePool::new().name("earlier").with(&["--dry-run"]);
        run(&slow_arm(LroStyle::Sync), &first.args(), &cache);
    }
    let arm = slow_arm(lro);
    let create = CreatePool::new().with(extra);
    let t = run(&arm, &create.args(), &cache);
    println!(
        "{label:<52} {:>2} round trip(s) before the PUT ({:>4.0} ms = {:.2} × latency), {} requests",
        rounds_before_write(&arm),
        t.as_secs_f64() * 1e3,
        t.as_secs_f64() / LATENCY.as_secs_f64(),
        arm.log().len()
    );
}

fn apply_ten_pools() {
    let dir = temp_dir("bench-apply-ten");
    let file = support::ten_pool_config(&dir);
    let arm = slow_arm(LroStyle::AsyncOperation);
    // Room for the ten pools together: 10 × 4 vCPUs × (1 node + 1 surge) = 80 vCPUs of the T4
    // family (the fake's default limit is 64; apply refuses pools that do not fit together).
    arm.with(|s| s.set_usage_limit("standardNCASv3_T4Family", 80));
    let t = run(&arm, &["apply", "-f", file.to_str().expect("utf-8"), "--yes"], &dir);
    let log = arm.log();
    let before = log.iter().position(|r| r.target.contains("/operations/")).unwrap_or(log.len());
    let kinds = |m: &str| log[..before].iter().filter(|r| r.method == m).count();
    println!(
        "{:<52} {before} requests before the polls ({} GET, {} PUT), {} in all, {:.0} ms",
        "apply -f, 10 new pools",
        kinds("GET"),
        kinds("PUT"),
        log.len(),
        t.as_secs_f64() * 1e3
    );
}

fn main() {
    println!("added latency per request: {} ms", LATENCY.as_millis());
    let (dry, sync) = (LroStyle::AsyncOperation, LroStyle::Sync);
    preflight("dry run, --location", &["--dry-run", "--location", "eastus"], false, dry);
    preflight("dry run, no --location, cold cache", &["--dry-run"], false, dry);
    preflight("dry run, no --location, warm cache", &["--dry-run"], true, dry);
    preflight("create (sync PUT), --location", &["--location", "eastus"], false, sync);
    preflight("create (sync PUT), no --location, cold cache", &[], false, sync);
    preflight("create (sync PUT), no --location, warm cache", &[], true, sync);
    apply_ten_pools();
}
