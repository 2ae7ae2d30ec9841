//! Benchmark: `fleet` at fleet scale, and `usage`'s query count.
//!
//! - `fleet` over 2,000 clusters in 300 subscriptions, 5 GPU pools each, on a fake Resource
//!   Graph answering in 100 ms: the requests sent against what the pages and batches require
//!   (subscription list pages + Resource Graph pages), and the wall time against those round
//!   trips (target: at most 1.5 × the round trips + 1 s);
//! - `usage`: Prometheus queries per cluster, for clusters of 2 and of 40 GPU nodes (target: at
//!   most 6, whatever the size).
//!
//! Run with `cargo bench --bench fleet`.

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

use std::time::{Duration, Instant};

use serde_json::json;

use fake_arm::{respond, subscription, FakeArm};
use fake_graph::cluster_row;
use support::aksgpu_arm;

const LATENCY: Duration = Duration::from_millis(100);
const SUBS: usize = 300;
const CLUSTERS: usize = 2000;
const POOLS: usize = 5;

fn pools() -> Vec<serde_json::Value> {
    let sizes = [
        "Standard_NC24ads_A100_v4",
        "Standard_NC4as_T4_v3",
        "Standard_NC40ads_H100_v5",
        "Standard_NV36ads_A10_v5",
        "Standard_ND96isr_H100_v5",
    ];
    sizes
        .iter()
        .enumerate()
        .take(POOLS)
        .map(|(i, s)| json!({"name": format!("gpu{i}"), "vmSize": s, "count": 2, "enableAutoScaling": true, "minCount": 1, "maxCount": 4, "osType": "Linux"}))
        .collect()
}

fn fleet() {
    let arm = FakeArm::start();
    let subs: Vec<String> = (0..SUBS).map(|i| format!("{i:08x}-1111-2222-3333-444444444444")).collect();
    arm.with(|s| {
        s.latency = LATENCY;
        s.page_size = 100;
        s.trailing_empty_page = false;
        s.subscriptions = subs.iter().map(|id| subscription(id, id)).collect();
        s.graph.rows = (0..CLUSTERS)
            .map(|i| cluster_row(&subs[i % SUBS], "rg", &format!("c{i}"), "eastus", "Running", pools()))
            .collect();
    });
    let start = Instant::now();
    let r = aksgpu_arm(&arm.base, &["fleet", "-o", "json"], &[]);
    let wall = start.elapsed();
    assert_eq!(r.code, 0, "{}", r.stderr);
    let pools = r.json()["pools"].as_array().map_or(0, Vec::len);
    assert_eq!(pools, CLUSTERS * POOLS);
    let list_pages = SUBS.div_ceil(100);
    let graph_pages = CLUSTERS.div_ceil(1000) * SUBS.div_ceil(1000);
    let needed = list_pages + graph_pages;
    let sent = arm.log().len();
    let rounds = arm.log().iter().map(|r| r.round).max().unwrap_or(0);
    let budget = LATENCY.mul_f64(1.5 * needed as f64) + Duration::from_secs(1);
    println!(
        "fleet: {CLUSTERS} clusters, {SUBS} subscriptions, {} GPU pools: {sent} requests (needed {needed}: {list_pages} subscription pages + {graph_pages} Resource Graph pages), {rounds} round trips, {:.2} s wall (budget 1.5 x {needed} x {} ms + 1 s = {:.2} s)",
        pools,
        wall.as_secs_f64(),
        LATENCY.as_millis(),
        budget.as_secs_f64()
    );
    assert_eq!(sent, needed, "no more requests than the pages and batches require");
    assert!(wall <= budget, "{wall:?} > {budget:?}");
}

fn usage(nodes: usize) {
    let prom = FakeArm::start();
    prom.fault(
        "GET",
        "/api/v1/query_range",
        1000,
        respond(200, json!({"status": "success", "data": {"resultType": "matrix", "result": []}})),
    );
    let arm = FakeArm::start();
    arm.edit_cluster("c1", |c| {
        c["properties"]["agentPoolProfiles"] =
            json!([{"name": "gpu", "vmSize": "Standard_ND96isr_H100_v5", "count": nodes, "osType": "Linux"}]);
    });
    let r = aksgpu_arm(
        &arm.base,
        &["usage", "-g", "rg", "--cluster", "c1", "--since", "30d", "--prometheus-endpoint", &prom.base, "-o", "json"],
        &[("AKSGPU_PROMETHEUS_TOKEN", "bench-prom-token")],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let q = prom.log().len();
    println!("usage: a cluster of {nodes} nodes ({} GPUs): {q} Prometheus queries", nodes * 8);
    assert!(q <= 6);
}

fn main() {
    fleet();
    usage(2);
    usage(40);
}
