//! Benchmark: `aksgpu create-pool` against the fake ARM server with a fixed added latency per
//! request. Concurrent preflight should cost about one round trip when `--location` is known
//! (two when the location must first be read from the cluster), and the run should send the
//! fewest requests the job needs. Run with `cargo bench --bench preflight`.

#![allow(clippy::print_stdout)]

#[path = "../tests/integration/fake_arm.rs"]
#[allow(dead_code)]
mod fake_arm;
#[path = "../tests/integration/support.rs"]
#[allow(dead_code, clippy::print_stderr)]
mod support;

use std::time::{Duration, Instant};

use fake_arm::{FakeArm, LroStyle};
use support::{aksgpu_arm, CreatePool};

const LATENCY: Duration = Duration::from_millis(200);

fn run(arm: &FakeArm, extra: &[&str]) -> Duration {
    let create = CreatePool::new().with(extra);
    let start = Instant::now();
    let r = aksgpu_arm(&arm.base, &create.args(), &[]);
    let elapsed = start.elapsed();
    assert_eq!(r.code, 0, "{}", r.stderr);
    elapsed
}

/// A fake ARM server that adds `LATENCY` to every request and answers each list in one page.
fn slow_arm() -> FakeArm {
    let arm = FakeArm::start();
    arm.with(|s| {
        s.latency = LATENCY;
        s.page_size = 100;
        s.trailing_empty_page = false;
    });
    arm
}

fn main() {
    println!("added latency per request: {} ms", LATENCY.as_millis());
    for (label, extra) in [
        ("dry run, --location given", &["--dry-run", "--location", "eastus"][..]),
        ("dry run, location read from cluster", &["--dry-run"][..]),
    ] {
        let arm = slow_arm();
        let t = run(&arm, extra);
        let n = arm.log().len();
        println!(
            "{label:<40} {:>6.0} ms  = {:.2} round trips, {n} requests",
            t.as_secs_f64() * 1e3,
            t.as_secs_f64() / LATENCY.as_secs_f64()
        );
    }
    let arm = slow_arm();
    arm.with(|s| s.lro_style = LroStyle::Sync);
    let t = run(&arm, &["--location", "eastus"]);
    let calls =
        arm.calls().into_iter().map(|(m, p)| format!("{m} {}", p.rsplit('/').next().unwrap_or(""))).collect::<Vec<_>>();
    println!(
        "{:<40} {:>6.0} ms  = {:.2} round trips, {} requests: {}",
        "create (sync PUT), --location given",
        t.as_secs_f64() * 1e3,
        t.as_secs_f64() / LATENCY.as_secs_f64(),
        calls.len(),
        calls.join(", ")
    );
}
