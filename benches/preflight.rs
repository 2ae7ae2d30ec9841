//! Benchmark: `aksgpu create-pool` against the fake ARM server with a fixed added latency per
//! request. Concurrent preflight should cost about one round trip when `--location` is known
//! (two when the location must first be read from the cluster), and the run should send the
//! fewest requests the job needs. Run with `cargo bench --bench preflight`.

#![allow(clippy::print_stdout, clippy::unwrap_used)]

#[path = "../tests/integration/fake_arm.rs"]
#[allow(dead_code)]
mod fake_arm;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fake_arm::{FakeArm, LroStyle, SUB, TOKEN};

const LATENCY: Duration = Duration::from_millis(200);

fn run(arm: &FakeArm, extra: &[&str]) -> Duration {
    let mut args = vec![
        "create-pool",
        "-g",
        "rg",
        "--cluster",
        "c1",
        "--name",
        "gpu",
        "--vm-size",
        "Standard_NC24ads_A100_v4",
        "--yes",
    ];
    args.extend_from_slice(extra);
    let bin = env!("CARGO_BIN_EXE_aksgpu");
    let start = Instant::now();
    let status = Command::new(bin)
        .args(&args)
        .env("AKSGPU_ARM_ENDPOINT", &arm.base)
        .env("AKSGPU_ACCESS_TOKEN", TOKEN)
        .env("AZURE_SUBSCRIPTION_ID", SUB)
        .env("AKSGPU_TEST_NO_RETRY_DELAY", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    start.elapsed()
}

fn main() {
    println!("added latency per request: {} ms", LATENCY.as_millis());
    for (label, extra) in [
        ("dry run, --location given", &["--dry-run", "--location", "eastus"][..]),
        ("dry run, location read from cluster", &["--dry-run"][..]),
    ] {
        let arm = FakeArm::start();
        arm.with(|s| {
            s.latency = LATENCY;
            s.page_size = 100;
            s.trailing_empty_page = false;
        });
        let t = run(&arm, extra);
        let n = arm.log().len();
        println!(
            "{label:<40} {:>6.0} ms  = {:.2} round trips, {n} requests",
            t.as_secs_f64() * 1e3,
            t.as_secs_f64() / LATENCY.as_secs_f64()
        );
    }
    let arm = FakeArm::start();
    arm.with(|s| {
        s.latency = LATENCY;
        s.page_size = 100;
        s.trailing_empty_page = false;
        s.lro_style = LroStyle::Sync;
    });
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
