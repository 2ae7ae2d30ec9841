//! Random fault sequences from the fake ARM server: create-pool never hangs past its
//! timeout (plus request timeouts) and never sends another PUT once one was applied, even
//! when the answer to the applied PUT is lost (reset, closed mid-body, stalled, or a 500); a
//! PUT read back as not applied is sent again, always under `If-None-Match: *`.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use serde_json::json;

use aksgpu::arm::auth::{Secret, StaticToken, TokenCache};
use aksgpu::arm::retry::Sleeper;
use aksgpu::arm::{ArmClient, Cloud, Endpoint};
use aksgpu::catalog::Catalog;
use aksgpu::plan::agent_pool::{PoolRequest, PoolSpec};
use aksgpu::provision::pool::{create, CreateOptions};
use aksgpu::provision::Progress;

use crate::fake_arm::{respond, respond_h, Action, FakeArm, Loss, SUB, TOKEN};

fn fault(kind: u8) -> Action {
    match kind {
        0 => respond_h(429, &[("retry-after", "0")], r#"{"error":{"code":"Throttled","message":"x"}}"#),
        1 => respond(500, json!({"error": {"code": "InternalServerError", "message": "x"}})),
        2 => respond(503, json!({"error": {"code": "ServiceUnavailable", "message": "x"}})),
        3 => Action::Reset,
        4 => respond(404, json!({"error": {"code": "NotFound", "message": "x"}})),
        _ => Action::Stall,
    }
}

/// PUT faults: 0–3 as above (not applied), 4–7 applied, then the answer is lost.
fn put_fault(kind: u8) -> Action {
    match kind {
        4 => Action::AppliedThenLost(Loss::Reset),
        5 => Action::AppliedThenLost(Loss::CloseMidBody),
        6 => Action::AppliedThenLost(Loss::Status(500)),
        7 => Action::AppliedThenLost(Loss::Stall),
        k => fault(k),
    }
}

fn client(arm: &FakeArm) -> ArmClient {
    let endpoint = Endpoint::new(Cloud::AzureCloud, Some(&arm.base)).expect("endpoint");
    let tokens = TokenCache::new(std::sync::Arc::new(StaticToken(Secret::new(TOKEN))), endpoint.scope.clone());
    ArmClient::with_read_timeout(endpoint, Some(tokens), Sleeper::recording(), Duration::from_millis(300))
        .expect("client")
}

/// The pool these tests create: `gpu` in cluster `c1` of the fake server's subscription.
fn pool_spec(catalog: &Catalog) -> PoolSpec {
    PoolSpec::validate(
        catalog,
        &PoolRequest { subscription: SUB.into(), ..PoolRequest::example("Standard_NC24ads_A100_v4") },
    )
    .expect("spec")
}

/// A real (not dry-run) create that waits up to `timeout`, after preflight.
fn wait_options(timeout: Duration) -> CreateOptions {
    CreateOptions {
        dry_run: false,
        no_wait: false,
        skip_preflight: false,
        timeout,
        location: None,
        abort_on_interrupt: false,
        // A store of its own, remembering no location: every case reads as a first run.
        facts: aksgpu::provision::facts::Store::default(),
        pools_listed: false,
        feature_registered_first: false,
    }
}

/// The PUTs a create sends against these PUT faults, and whether it gives up. The client
/// resends a 429 itself (3 retries per send). A fault read back as not applied (500, 503
/// without Retry-After, a reset) is sent again under `If-None-Match: *` while resends are left
/// (3) and the next backoff fits in `timeout`. An applied fault, or the fault list running
/// out (a normal answer), ends the sending.
fn expected_puts(faults: &[u8], timeout: Duration) -> (usize, bool) {
    let policy = aksgpu::arm::retry::RetryPolicy::default();
    let (mut puts, mut resends, mut attempt) = (0, 0u32, 0u32);
    let mut next = faults.iter();
    loop {
        puts += 1;
        attempt += 1;
        match next.next() {
            None | Some(4..=7) => return (puts, false),
            Some(0) if attempt <= policy.max_retries => {}
            Some(0) => return (puts, true),
            Some(_) if resends < policy.max_retries && policy.backoff(resends + 1, 1.3) < timeout => {
                resends += 1;
                attempt = 0;
            }
            Some(_) => return (puts, true),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn faults_never_hang_and_never_repeat_an_accepted_put(
        put_faults in prop::collection::vec(0u8..8, 0..4),
        poll_faults in prop::collection::vec(0u8..6, 0..6),
        running in 0usize..4,
        end in prop::sample::select(vec!["Succeeded", "Failed", "Canceled", "InProgress"]),
    ) {
        let arm = FakeArm::start();
        for k in &put_faults {
            arm.fault("PUT", "agentPools/gpu", 1, put_fault(*k));
        }
        for k in &poll_faults {
            arm.fault("GET", "operations/", 1, fault(*k));
        }
        let mut statuses: Vec<String> = vec!["InProgress".into(); running];
        statuses.push(end.into());
        arm.with(|s| s.op_statuses = statuses);
        let catalog = Catalog::bundled().expect("catalog");
        let spec = pool_spec(&catalog);
        let c = client(&arm);
        let timeout = Duration::from_secs(2);
        let opts = wait_options(timeout);
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("rt");
        let started = Instant::now();
        let result = rt.block_on(create(&c, &catalog, &spec, &opts, &|_| {}, &Progress::default()));
        let elapsed = started.elapsed();
        // The timeout bounds waiting; a request in flight may add its own (short) timeout.
        prop_assert!(elapsed < timeout + Duration::from_secs(4), "took {elapsed:?}");
        let (expected, gave_up) = expected_puts(&put_faults, timeout);
        let puts = arm.count("PUT", "agentPools/gpu");
        prop_assert_eq!(puts, expected, "PUT faults {:?}", put_faults);
        prop_assert_eq!(arm.resent_after_applied("PUT", "agentPools/gpu"), 0, "an applied PUT was sent again");
        prop_assert!(arm.applied_count("PUT", "agentPools/gpu") <= 1);
        prop_assert!(
            arm.log().iter().filter(|r| r.method == "PUT").all(|r| r.headers.get("if-none-match").is_some_and(|v| v == "*")),
            "a PUT went without If-None-Match: *"
        );
        prop_assert_eq!(arm.count("DELETE", "/"), 0);
        if gave_up {
            prop_assert!(result.is_err());
        } else if end == "Succeeded" && poll_faults.is_empty() {
            // Applied (answered, lost and read back, or after a guarded resend): waited for.
            prop_assert!(result.is_ok(), "{:?}", result.err());
        }
    }
}

/// T1 at library level: the recorded wait is exactly the server's Retry-After.
#[test]
fn recorded_delay_is_the_servers_retry_after() {
    let arm = FakeArm::start();
    arm.fault("GET", "managedClusters/c1", 1, respond_h(429, &[("retry-after", "2")], "{}"));
    let c = client(&arm);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("rt");
    let url = format!("{}?api-version=2026-10-01", crate::fake_arm::cluster_path("c1"));
    let v: serde_json::Value = rt.block_on(c.get_json(&aksgpu::arm::Req::get(url))).expect("ok after retry");
    assert_eq!(v["location"], "eastus");
    assert_eq!(c.sleeper.waits(), vec![Duration::from_secs(2)]);
    assert_eq!(arm.count("GET", "managedClusters/c1"), 2);
}

/// Paging stops at an empty page even when a nextLink is present.
#[test]
fn list_follows_next_link_until_empty() {
    let arm = FakeArm::start();
    let c = client(&arm);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("rt");
    for i in 0..5 {
        arm.put_pool("c1", &format!("p{i}"), json!({"name": format!("p{i}"), "properties": {}}));
    }
    let url = format!("{}/agentPools?api-version=2026-10-01", crate::fake_arm::cluster_path("c1"));
    let pools: Vec<aksgpu::resources::AgentPool> = rt.block_on(c.list(&aksgpu::arm::Req::get(url))).expect("list");
    assert_eq!(pools.len(), 5);
    // 5 pools at 2 per page: 3 pages, then the empty page the last nextLink points at.
    assert_eq!(arm.count("GET", "/agentPools"), 4);
}

/// a credential whose tokens expire during a long operation: every request carries a
/// token that is still valid (the cache refreshes before expiry), so later polls use new ones.
#[test]
fn expiring_tokens_are_refreshed_during_polling() {
    use aksgpu::arm::auth::{Token, TokenSource};
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::time::SystemTime;

    #[derive(Debug)]
    struct ShortLived(AtomicU32);
    impl TokenSource for ShortLived {
        fn fetch<'a>(
            &'a self,
            _scope: &'a str,
        ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<Token, aksgpu::arm::ArmError>> + Send + 'a>>
        {
            Box::pin(async move {
                let n = self.0.fetch_add(1, Ordering::SeqCst);
                // Expires in 4 minutes: inside the 5-minute refresh margin, so never reused.
                Ok(Token {
                    secret: Secret::new(format!("short-{n}")),
                    expires_at: Some(SystemTime::now() + Duration::from_secs(240)),
                })
            })
        }
    }
    let arm = FakeArm::start();
    let endpoint = Endpoint::new(Cloud::AzureCloud, Some(&arm.base)).expect("endpoint");
    let tokens = TokenCache::new(std::sync::Arc::new(ShortLived(AtomicU32::new(0))), endpoint.scope.clone());
    let c = ArmClient::with_read_timeout(endpoint, Some(tokens), Sleeper::recording(), Duration::from_secs(2))
        .expect("client");
    let catalog = Catalog::bundled().expect("catalog");
    let spec = pool_spec(&catalog);
    let opts = wait_options(Duration::from_secs(10));
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("rt");
    rt.block_on(create(&c, &catalog, &spec, &opts, &|_| {}, &Progress::default())).expect("created");
    let auths: Vec<String> = arm.log().iter().filter_map(|r| r.headers.get("authorization").cloned()).collect();
    assert!(auths.len() >= 8, "{auths:?}");
    let distinct: std::collections::HashSet<&String> = auths.iter().collect();
    assert_eq!(distinct.len(), auths.len(), "a near-expiry token was reused: {auths:?}");
}

/// a write is resent when it provably never left (connection refused), up to the retry
/// limit; the error is a transport error, not "outcome unknown".
#[test]
fn refused_connection_resends_a_write_because_it_never_left() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", closed.local_addr().expect("addr"));
    drop(closed);
    let endpoint = Endpoint::new(Cloud::AzureCloud, Some(&base)).expect("endpoint");
    let tokens = TokenCache::new(std::sync::Arc::new(StaticToken(Secret::new(TOKEN))), endpoint.scope.clone());
    let c = ArmClient::with_read_timeout(endpoint, Some(tokens), Sleeper::recording(), Duration::from_secs(2))
        .expect("client");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("rt");
    let req = aksgpu::arm::Req::json(reqwest::Method::PUT, "/subscriptions/x/y?api-version=1", &json!({}));
    match rt.block_on(c.send(&req)) {
        Err(aksgpu::arm::ArmError::Transport { attempts, .. }) => assert_eq!(attempts, 4),
        other => panic!("expected a transport error after 4 attempts, got {other:?}"),
    }
    assert_eq!(c.sleeper.waits().len(), 3, "three backoff waits between four attempts");
}

/// At library level: a lost answer to a POST is `OutcomeUnknown`, sent once.
#[test]
fn lost_answer_to_a_post_is_outcome_unknown_and_sent_once() {
    let arm = FakeArm::start();
    arm.fault("POST", "/stop", 1, Action::AppliedThenLost(Loss::CloseMidBody));
    let c = client(&arm);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("rt");
    let url = format!("{}/stop?api-version=2026-10-01", crate::fake_arm::cluster_path("c1"));
    match rt.block_on(c.send(&aksgpu::arm::Req::post(url))) {
        Err(aksgpu::arm::ArmError::OutcomeUnknown { method, .. }) => assert_eq!(method, "POST"),
        other => panic!("expected OutcomeUnknown, got {other:?}"),
    }
    assert_eq!(arm.count("POST", "/stop"), 1);
    assert_eq!(arm.applied_count("POST", "/stop"), 1);
}
