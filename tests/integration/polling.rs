//! The poll schedule on the real code path: `provision::pool::create` against the fake ARM
//! server, whose operation answers `InProgress` for a given number of polls, with or without
//! `Retry-After`. The client's recording sleeper is the simulated clock: its waits are what the
//! client would have slept, so the tests count polls for an operation of a given length
//! without timing anything.

use std::time::Duration;

use aksgpu::arm::auth::{Secret, StaticToken, TokenCache};
use aksgpu::arm::lro::polls_over;
use aksgpu::arm::retry::Sleeper;
use aksgpu::arm::{ArmClient, Cloud, Endpoint};
use aksgpu::catalog::Catalog;
use aksgpu::plan::agent_pool::{PoolRequest, PoolSpec};
use aksgpu::provision::pool::{create, CreateOptions};
use aksgpu::provision::Progress;

use crate::fake_arm::{FakeArm, SUB, TOKEN};

/// Create a pool whose operation stays `InProgress` for `running` polls, then succeeds, its
/// answers carrying no `Retry-After`.
fn create_running_for(running: usize) -> (usize, Vec<Duration>) {
    create_running_with(running, None)
}

/// Create a pool whose operation stays `InProgress` for `running` polls, then succeeds, its
/// answers (the PUT's and each poll's) carrying `Retry-After: retry_after` when given.
/// Returns the operation polls sent and the simulated time of each (the sum of the waits
/// before it).
fn create_running_with(running: usize, retry_after: Option<&str>) -> (usize, Vec<Duration>) {
    let arm = FakeArm::start();
    let mut statuses = vec!["InProgress".to_owned(); running];
    statuses.push("Succeeded".to_owned());
    arm.with(|s| {
        s.op_statuses = statuses;
        s.op_retry_after = retry_after.map(str::to_owned);
    });
    let endpoint = Endpoint::new(Cloud::AzureCloud, Some(&arm.base)).expect("endpoint");
    let tokens = TokenCache::new(std::sync::Arc::new(StaticToken(Secret::new(TOKEN))), endpoint.scope.clone());
    let c = ArmClient::new(endpoint, Some(tokens), Sleeper::recording()).expect("client");
    let catalog = Catalog::bundled().expect("catalog");
    let request = PoolRequest { subscription: SUB.into(), ..PoolRequest::example("Standard_NC24ads_A100_v4") };
    let spec = PoolSpec::validate(&catalog, &request).expect("spec");
    let opts = CreateOptions {
        dry_run: false,
        no_wait: false,
        skip_preflight: false,
        timeout: Duration::from_secs(2 * 3600),
        location: None,
        abort_on_interrupt: false,
        facts: aksgpu::provision::facts::Store::default(),
        pools_listed: false,
        feature_registered_first: false,
    };
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("rt");
    rt.block_on(create(&c, &catalog, &spec, &opts, &|_| {}, &Progress::default())).expect("created");
    let polls = arm.count("GET", "/operations/op");
    let times = c
        .sleeper
        .waits()
        .iter()
        .scan(Duration::ZERO, |t, w| {
            *t += *w;
            Some(*t)
        })
        .collect();
    (polls, times)
}

/// A 26-minute create is seen by the 52nd poll: the client sends 52 polls and has waited at
/// least 26 minutes when the 52nd goes out (the Azure CLI's fixed 30 s gives 52 too).
#[test]
fn a_26_minute_create_costs_at_most_52_polls() {
    let (polls, times) = create_running_for(51);
    assert_eq!(polls, 52);
    assert_eq!(times.len(), 52, "one wait before each poll, no retries: {times:?}");
    let last = *times.last().expect("polled");
    assert!(last >= Duration::from_secs(26 * 60), "52 polls cover only {last:?}");
    assert_eq!(polls_over(Duration::from_secs(26 * 60)), (52, last));
}

/// A 1-minute create without `Retry-After` is seen within 10 s of its end: one poll falls
/// between 60 and 70 s.
#[test]
fn a_1_minute_create_is_seen_within_10_s() {
    let (polls, times) = create_running_for(8);
    assert_eq!(polls, 9);
    let secs: Vec<u64> = times.iter().map(Duration::as_secs).collect();
    assert!(secs.iter().any(|t| (60..=70).contains(t)), "no poll between 60 and 70 s: {secs:?}");
    assert!(secs.windows(2).all(|w| w[1] - w[0] >= 2), "polled sooner than the schedule: {secs:?}");
    assert_eq!(polls_over(Duration::from_secs(60)).1.as_secs(), *secs.iter().find(|t| **t >= 60).expect("60 s"));
}

/// When the answers carry `Retry-After: 5`, every poll comes 5 s after the previous answer (as
/// Azure's SDKs and the Azure CLI follow it), not the schedule's growing waits: a 1-minute
/// create is seen at 60 s, 12 polls after the PUT.
#[test]
fn retry_after_sets_each_poll_exactly() {
    let (polls, times) = create_running_with(11, Some("5"));
    assert_eq!(polls, 12);
    let secs: Vec<u64> = times.iter().map(Duration::as_secs).collect();
    assert_eq!(secs, (1..=12).map(|i| i * 5).collect::<Vec<u64>>(), "waits: {times:?}");
    assert_eq!(aksgpu::arm::lro::polls_over_with(Duration::from_secs(60), Some(Duration::from_secs(5))).1, times[11]);
}
