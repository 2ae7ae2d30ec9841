//! `aksgpu create-pool`, `wait` and `auth status` through the binary against the fake ARM
//! server: the reliability checklist's T-scenarios, each asserting request counts and bodies.

use serde_json::{json, Value};

use crate::fake_arm::{self, respond, respond_h, Action, FakeArm, LroStyle, SUB, TOKEN};
use crate::support::{aksgpu_arm, aksgpu_with, CreatePool, Run};

fn run(arm: &FakeArm, extra: &[&str]) -> Run {
    run_env(arm, extra, &[])
}

fn run_env(arm: &FakeArm, extra: &[&str], more: &[(&'static str, &str)]) -> Run {
    let create = CreatePool::new();
    let mut args: Vec<&str> = create.args();
    args.extend_from_slice(extra);
    aksgpu_arm(&arm.base, &args, more)
}

fn puts(arm: &FakeArm) -> Vec<Value> {
    arm.log().iter().filter(|r| r.method == "PUT").map(|r| r.json()).collect()
}

fn no_delete(arm: &FakeArm) {
    assert_eq!(arm.count("DELETE", "/"), 0, "a DELETE was sent: {:?}", arm.calls());
}

/// PUT 201 + Azure-AsyncOperation; op InProgress ×2 then Succeeded; final GET.
#[test]
fn creates_a_pool_via_azure_async_operation() {
    let arm = FakeArm::start();
    let r = run(&arm, &["-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let calls = arm.calls();
    let after_put: Vec<String> = calls
        .iter()
        .skip_while(|(m, _)| m != "PUT")
        .map(|(m, p)| format!("{m} {}", p.rsplit('/').next().unwrap_or("")))
        .collect();
    assert_eq!(after_put, ["PUT gpu", "GET op1", "GET op1", "GET op1", "GET gpu"], "{calls:?}");
    let v = r.json();
    assert_eq!(v["status"], "created");
    assert_eq!(v["provisioning_state"], "Succeeded");
    assert_eq!(v["vm_size"], "Standard_NC24ads_A100_v4");
    assert_eq!(v["cost"]["region"], "eastus");
    assert!(v["cost"]["hourly_at_min"].as_f64().expect("price") > 0.0);
    let put = &puts(&arm)[0];
    assert_eq!(put["properties"]["mode"], "User");
    assert_eq!(put["properties"]["nodeTaints"], json!(["sku=gpu:NoSchedule"]));
    let put_req = arm.log().into_iter().find(|r| r.method == "PUT").expect("put");
    assert_eq!(put_req.headers.get("if-none-match").map(String::as_str), Some("*"));
    assert_eq!(put_req.headers.get("authorization").map(String::as_str), Some(format!("Bearer {TOKEN}").as_str()));
    no_delete(&arm);
}

/// T29 + dry-run contract: the plan's PUT body is the body a real run sends; no writes.
#[test]
fn dry_run_prints_the_exact_requests_and_writes_nothing() {
    let arm = FakeArm::start();
    let dry = run(&arm, &["--dry-run", "-o", "json", "--min-count", "1", "--max-count", "2"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    let plan = dry.json();
    assert_eq!(plan["preflight"], "passed");
    assert!(arm.log().iter().all(|r| r.method == "GET"), "{:?}", arm.calls());
    let steps = plan["steps"].as_array().expect("steps");
    let put = steps.iter().find(|s| s["method"] == "PUT").expect("put step");
    assert!(put["url"].as_str().expect("url").starts_with(&arm.base));
    assert!(steps.iter().any(|s| s["url"].as_str().unwrap_or("").contains("locations/eastus/usages")));
    let real = run(&arm, &["--min-count", "1", "--max-count", "2"]);
    assert_eq!(real.code, 0, "{}", real.stderr);
    assert_eq!(puts(&arm), vec![put["body"].clone()]);
}

#[test]
fn dry_run_without_credentials_still_prints_the_plan() {
    let r = aksgpu_with(
        &CreatePool::new().with(&["--dry-run", "-o", "json"]).args(),
        &[("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9")],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["preflight"], "not run");
    assert!(v["steps"].as_array().expect("steps").iter().any(|s| s["method"] == "PUT"));
}

/// an existing pool: identical → no-op; different → refused naming immutable fields.
#[test]
fn existing_pool_is_a_noop_when_identical_and_refused_when_not() {
    let arm = FakeArm::start();
    assert_eq!(run(&arm, &[]).code, 0);
    let again = run(&arm, &[]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(again.stdout.contains("nothing to do"), "{}", again.stdout);
    let other = aksgpu_arm(&arm.base, &CreatePool::new().vm_size("Standard_NC4as_T4_v3").args(), &[]);
    assert_eq!(other.code, 1, "{}", other.stderr);
    assert!(other.stderr.contains("vmSize") && other.stderr.contains("immutable"), "{}", other.stderr);
    assert_eq!(arm.count("PUT", "/"), 1);
}

/// a pool created meanwhile (preflight skipped): If-None-Match gives 412.
#[test]
fn if_none_match_protects_an_existing_pool() {
    let arm = FakeArm::start();
    arm.put_pool(
        "c1",
        "gpu",
        json!({"name": "gpu", "properties": {"vmSize": "Standard_NC4as_T4_v3", "provisioningState": "Succeeded"}}),
    );
    let r = run(&arm, &["--skip-preflight"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("412"), "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 1);
    assert_eq!(
        arm.with(|s| s.pools.values().next().map(|p| p["properties"]["vmSize"].clone())),
        Some(json!("Standard_NC4as_T4_v3"))
    );
}

/// 429 with Retry-After, then 201: two identical PUTs; the wait is the server's.
#[test]
fn throttled_put_is_retried_after_the_servers_delay() {
    let arm = FakeArm::start();
    arm.fault(
        "PUT",
        "agentPools/gpu",
        1,
        respond_h(429, &[("retry-after", "2")], r#"{"error":{"code":"Throttled","message":"slow down"}}"#),
    );
    let r = run(&arm, &["-v"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let p = puts(&arm);
    assert_eq!(p.len(), 2);
    assert_eq!(p[0], p[1]);
    assert!(
        r.stderr.contains("HTTP 429 (throttled by the AKS resource provider); retrying in 2.0s as the server asked"),
        "{}",
        r.stderr
    );
}

/// retried statuses and not-retried ones.
#[test]
fn retry_only_what_is_retryable() {
    let arm = FakeArm::start();
    arm.fault(
        "GET",
        "managedClusters/c1?",
        2,
        respond(503, json!({"error": {"code": "ServiceUnavailable", "message": "busy"}})),
    );
    assert_eq!(run(&arm, &["--dry-run"]).code, 0);
    assert_eq!(arm.count("GET", "managedClusters/c1?"), 3);

    let arm = FakeArm::start();
    arm.fault(
        "GET",
        "managedClusters/c1?",
        10,
        respond(500, json!({"error": {"code": "InternalError", "message": "boom"}})),
    );
    let r = run(&arm, &["--dry-run"]);
    assert_eq!(r.code, 1);
    assert_eq!(arm.count("GET", "managedClusters/c1?"), 4);
    assert!(r.stderr.contains("after 3 retries") && r.stderr.contains("HTTP 500"), "{}", r.stderr);
    assert!(r.stderr.contains("request id fake-request-1") && r.stderr.contains("correlation id"), "{}", r.stderr);

    for (status, exit) in [(400, 1), (403, 3), (404, 1), (409, 1)] {
        let arm = FakeArm::start();
        arm.fault("GET", "managedClusters/c1?", 5, respond(status, json!({"error": {"code": "X", "message": "no"}})));
        let r = run(&arm, &[]);
        assert_eq!(r.code, exit, "status {status}: {}", r.stderr);
        assert_eq!(arm.count("GET", "managedClusters/c1?"), 1, "status {status} was retried");
        assert_eq!(arm.count("PUT", "/"), 0);
    }
}

/// a connection reset is retried.
#[test]
fn connection_reset_is_retried() {
    let arm = FakeArm::start();
    arm.fault("GET", "agentPools/gpu", 1, Action::Reset);
    let r = run(&arm, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// 202 + Location only; 202s then 204.
#[test]
fn location_polling() {
    let arm = FakeArm::start();
    arm.with(|s| s.lro_style = LroStyle::Location);
    let r = run(&arm, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(arm.count("GET", "operationresults/op1"), 3);
    assert!(r.stdout.contains("Created pool gpu"), "{}", r.stdout);
}

/// no headers: the pool's provisioningState is polled.
#[test]
fn body_only_polling() {
    let arm = FakeArm::start();
    arm.with(|s| {
        s.lro_style = LroStyle::BodyOnly;
        s.op_statuses = vec!["Creating".into(), "Scaling".into(), "Succeeded".into()];
    });
    let r = run(&arm, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(arm.count("GET", "agentPools/gpu") >= 3);
}

/// a synchronous 200 Succeeded needs no polling.
#[test]
fn sync_completion_polls_nothing() {
    let arm = FakeArm::start();
    arm.with(|s| s.lro_style = LroStyle::Sync);
    let r = run(&arm, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(arm.count("GET", "operations/"), 0);
}

/// a failed operation shows the innermost code first, a hint, the correlation id.
#[test]
fn failed_operation_shows_innermost_error() {
    let arm = FakeArm::start();
    arm.with(|s| {
        s.op_statuses = vec!["InProgress".into(), "Failed".into()];
        s.op_error = Some(json!({"code": "InvalidTemplateDeployment", "message": "deployment failed",
            "details": [{"code": "QuotaExceeded", "message": "Operation could not be completed as it results in exceeding approved standardNCADSA100v4Family Cores quota."}]}));
    });
    let r = run(&arm, &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let first = r.stderr.lines().find(|l| l.starts_with("error:")).unwrap_or("");
    assert!(first.contains("ended Failed: QuotaExceeded"), "{}", r.stderr);
    assert!(r.stderr.contains("(in InvalidTemplateDeployment)"));
    assert!(r.stderr.contains("hint: request more vCPU quota"), "{}", r.stderr);
    assert!(r.stderr.contains("correlation id"));
    no_delete(&arm);
}

/// Canceled and Cancelled are terminal failures.
#[test]
fn canceled_is_terminal() {
    for word in ["Canceled", "Cancelled"] {
        let arm = FakeArm::start();
        arm.with(|s| {
            s.op_statuses = vec![word.into()];
            s.op_error = Some(json!({"code": "Canceled", "message": "Operation is being canceled by user"}));
        });
        let r = run(&arm, &[]);
        assert_eq!(r.code, 1);
        assert!(r.stderr.contains(&format!("ended {word}")), "{}", r.stderr);
    }
}

/// T13 + free-form states and an error inside a running status: still running.
#[test]
fn rp_states_and_progress_text_are_in_progress() {
    let arm = FakeArm::start();
    arm.with(|s| {
        s.op_statuses = vec![
            "Accepted".into(),
            "CreatingAgentPool: 0/1 nodes completed".into(),
            "Scaling".into(),
            "Succeeded".into(),
        ];
        s.op_error = Some(json!({"code": "NotLatestOperation", "message": "transient"}));
    });
    let r = run(&arm, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(arm.count("GET", "operations/op1"), 4);
}

/// a throttled poll is retried.
#[test]
fn throttled_poll_is_retried() {
    let arm = FakeArm::start();
    arm.fault("GET", "operations/op1", 1, respond_h(429, &[("retry-after", "1")], "{}"));
    let r = run(&arm, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(arm.count("GET", "operations/op1"), 4);
}

/// resets during polling: a few are survived; endless ones end with exit 4 and the resume command.
#[test]
fn connection_resets_while_polling() {
    let arm = FakeArm::start();
    arm.fault("GET", "operations/op1", 2, Action::Reset);
    assert_eq!(run(&arm, &[]).code, 0);

    let arm = FakeArm::start();
    arm.fault("GET", "operations/op1", 1000, Action::Reset);
    let r = run(&arm, &[]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(r.stderr.contains("still running in Azure") && r.stderr.contains("aksgpu wait"), "{}", r.stderr);
    no_delete(&arm);
}

/// docs/reliability.md promises three polls in a row may lose the connection. Each poll is a GET
/// with the client's own 3 retries, so one lost poll is 4 resets: 12 resets in a row (3 lost
/// polls) are survived, 16 (the 4th lost poll) end with exit 4 and the resume command.
#[test]
fn three_dropped_polls_in_a_row_are_tolerated_the_fourth_is_not() {
    let arm = FakeArm::start();
    arm.fault("GET", "operations/op1", 12, Action::Reset);
    let r = run(&arm, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(arm.count("GET", "operations/op1"), 12 + 3, "{:?}", arm.calls());

    let arm = FakeArm::start();
    arm.fault("GET", "operations/op1", 16, Action::Reset);
    let r = run(&arm, &[]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert_eq!(arm.count("GET", "operations/op1"), 16, "{:?}", arm.calls());
    assert!(r.stderr.contains("still running in Azure") && r.stderr.contains("aksgpu wait"), "{}", r.stderr);
}

/// 404 while the pool is being created is tolerated for a while.
#[test]
fn not_found_while_creating() {
    let arm = FakeArm::start();
    arm.fault("GET", "operations/op1", 2, respond(404, json!({"error": {"code": "NotFound", "message": "not yet"}})));
    assert_eq!(run(&arm, &[]).code, 0);
    let arm = FakeArm::start();
    arm.fault("GET", "operations/op1", 100, respond(404, json!({"error": {"code": "NotFound", "message": "gone"}})));
    let r = run(&arm, &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(arm.count("GET", "operations/op1") <= 7);
}

/// a 401 refreshes the token once; two 401s are an auth failure (exit 3).
#[test]
fn unauthorized_refreshes_once() {
    let arm = FakeArm::start();
    arm.fault(
        "GET",
        "managedClusters/c1?",
        1,
        respond_h(401, &[("www-authenticate", "Bearer error=\"invalid_token\"")], "{}"),
    );
    assert_eq!(run(&arm, &[]).code, 0);
    let arm = FakeArm::start();
    arm.fault(
        "GET",
        "managedClusters/c1?",
        2,
        respond(401, json!({"error": {"code": "InvalidAuthenticationToken", "message": "expired"}})),
    );
    let r = run(&arm, &[]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("401"), "{}", r.stderr);
}

/// --timeout while the operation keeps running: exit 4, still running, resume hint.
#[test]
fn timeout_says_still_running() {
    let arm = FakeArm::start();
    arm.with(|s| s.op_statuses = vec!["InProgress".into()]);
    let r = run(&arm, &["--timeout", "1s"]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(r.stderr.contains("still running in Azure"), "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!("aksgpu wait --subscription {SUB} -g rg --cluster c1 --name gpu")),
        "{}",
        r.stderr
    );
    no_delete(&arm);
}

/// malformed replies are typed errors, never panics; 502 HTML is retried first.
#[test]
fn malformed_replies() {
    let arm = FakeArm::start();
    arm.fault("GET", "managedClusters/c1?", 1, respond_h(200, &[], r#"{"location": "eastus", "prop"#));
    let r = run(&arm, &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("unexpected response") && !r.stderr.contains("panicked"), "{}", r.stderr);

    let arm = FakeArm::start();
    arm.fault(
        "GET",
        "managedClusters/c1?",
        10,
        respond_h(502, &[("content-type", "text/html")], "<html><body>Bad Gateway</body></html>"),
    );
    let r = run(&arm, &[]);
    assert_eq!(r.code, 1);
    assert_eq!(arm.count("GET", "managedClusters/c1?"), 4);
    assert!(r.stderr.contains("HTML page") && !r.stderr.contains("<body>"), "{}", r.stderr);
}

/// a huge body is refused at the cap.
#[test]
fn huge_response_is_refused() {
    let arm = FakeArm::start();
    arm.fault("GET", "managedClusters/c1?", 1, Action::Huge(50 * 1024 * 1024));
    let r = run(&arm, &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("larger than 8 MiB"), "{}", r.stderr);
}

/// a stalled body times out, is retried, then fails.
#[test]
fn stalled_body_times_out() {
    let arm = FakeArm::start();
    arm.fault("GET", "managedClusters/c1?", 10, Action::Stall);
    let r = run_env(&arm, &[], &[("AKSGPU_HTTP_TIMEOUT", "0.3")]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(arm.count("GET", "managedClusters/c1?"), 4);
    assert!(r.stderr.contains("after 3 retries"), "{}", r.stderr);
}

/// the token only goes to the ARM origin; an operation URL elsewhere is refused.
#[test]
fn token_never_leaves_the_arm_origin() {
    let other = FakeArm::start();
    let arm = FakeArm::start();
    arm.with(|s| s.op_base = Some(other.base.clone()));
    let r = run(&arm, &[]);
    // The PUT was accepted: the truth is "still running, follow it with aksgpu wait" (exit 4),
    // not a configuration error.
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(r.stderr.contains("not the ARM endpoint"), "{}", r.stderr);
    assert!(r.stderr.contains("accepted") && r.stderr.contains("aksgpu wait --subscription"), "{}", r.stderr);
    assert!(other.log().is_empty(), "the other host got {:?}", other.calls());
    assert_eq!(arm.count("PUT", "/"), 1);
    let plain = aksgpu_with(
        &["auth", "status"],
        &[("AKSGPU_ARM_ENDPOINT", "http://example.com"), ("AKSGPU_ACCESS_TOKEN", TOKEN)],
    );
    assert_eq!(plain.code, 2);
    assert!(plain.stderr.contains("plain http"), "{}", plain.stderr);
}

/// -vv redacts the token and signed query strings.
#[test]
fn logs_redact_tokens_and_signatures() {
    let arm = FakeArm::start();
    let r = run(&arm, &["-vv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("authorization: REDACTED"), "{}", r.stderr);
    assert!(!r.stderr.contains(TOKEN) && !r.stdout.contains(TOKEN));
    assert!(r.stderr.contains("t=REDACTED") && !r.stderr.contains("signature-t"), "{}", r.stderr);
}

/// 409 OperationNotAllowed: wait for the cluster, then PUT again.
#[test]
fn conflict_waits_for_the_cluster_then_retries() {
    let arm = FakeArm::start();
    arm.fault("PUT", "agentPools/gpu", 1, respond(409, json!({"code": "OperationNotAllowed", "message": "Operation is not allowed because there's an in progress update managed cluster operation"})));
    arm.with(|s| s.cluster_states = vec!["Succeeded".into(), "Updating".into(), "Succeeded".into()]);
    let r = run(&arm, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 2);
}

/// an unregistered provider gets the registration hint.
#[test]
fn missing_registration_hint() {
    let arm = FakeArm::start();
    arm.fault("PUT", "agentPools/gpu", 1, respond(409, json!({"error": {"code": "MissingSubscriptionRegistration", "message": "The subscription is not registered to use namespace 'Microsoft.ContainerService'.", "details": [{"code": "MissingSubscriptionRegistration", "target": "Microsoft.ContainerService", "message": "not registered"}]}})));
    let r = run(&arm, &[]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("az provider register --namespace Microsoft.ContainerService"), "{}", r.stderr);
}

/// one correlation id per run, a fresh client request id per request.
#[test]
fn request_ids() {
    let arm = FakeArm::start();
    assert_eq!(run(&arm, &[]).code, 0);
    let log = arm.log();
    let corr: std::collections::HashSet<_> =
        log.iter().map(|r| r.headers.get("x-ms-correlation-request-id").cloned()).collect();
    assert_eq!(corr.len(), 1);
    assert!(corr.iter().all(Option::is_some));
    let ids: std::collections::HashSet<_> =
        log.iter().map(|r| r.headers.get("x-ms-client-request-id").cloned()).collect();
    assert_eq!(ids.len(), log.len());
}

/// Preflight: quota shortfall names the family, need and have; nothing is written.
#[test]
fn quota_shortfall_is_refused_before_any_write() {
    let arm = FakeArm::start();
    let r = run(&arm, &["--min-count", "1", "--max-count", "5"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("standardNCADSA100v4Family") && r.stderr.contains("needs 144"), "{}", r.stderr);
    assert!(r.stderr.contains("hint: request at least 144 vCPUs"), "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 0);
}

/// Preflight: a zone-restricted size and a size missing from the region.
#[test]
fn preflight_checks_skus_and_zones() {
    let arm = FakeArm::start();
    let zone_3 = CreatePool::new().vm_size("Standard_ND96asr_v4").with(&["--zones", "3"]);
    let r = aksgpu_arm(&arm.base, &zone_3.args(), &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("zone(s) 3") && r.stderr.contains("--zones 1,2"), "{}", r.stderr);
    arm.with(|s| s.skus.retain(|x| x["name"] != "Standard_NC24ads_A100_v4"));
    let r = run(&arm, &[]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("not offered in eastus"), "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 0);
}

/// Paged lists: SKUs and usages come two or five per page; every page is read.
#[test]
fn preflight_follows_next_links() {
    let arm = FakeArm::start();
    let r = run(&arm, &["--location", "eastus", "--dry-run"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(arm.count("GET", "Microsoft.Compute/skus") >= 3, "{:?}", arm.calls());
}

/// --no-wait returns after the PUT; `aksgpu wait` resumes by polling the pool.
#[test]
fn no_wait_then_wait() {
    let arm = FakeArm::start();
    arm.with(|s| s.lro_style = LroStyle::BodyOnly);
    let r = run(&arm, &["--no-wait", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["status"], "accepted");
    assert!(r.json()["resume"].as_str().expect("resume").starts_with("aksgpu wait"));
    let w = aksgpu_arm(&arm.base, &["wait", "-g", "rg", "--cluster", "c1", "--name", "gpu", "-o", "json"], &[]);
    assert_eq!(w.code, 0, "{}", w.stderr);
    assert_eq!(w.json()["provisioning_state"], "Succeeded");
    assert_eq!(arm.count("PUT", "/"), 1);
}

/// Ctrl-C while waiting: exit 130, the pool id and resume command, and no DELETE; with
/// `--abort-on-interrupt`, exactly one POST `…/abort`.
#[test]
fn ctrl_c_stops_waiting_and_deletes_nothing() {
    for abort in [false, true] {
        let (arm, stderr, code) = interrupt(abort);
        assert_eq!(code, Some(130), "{stderr}");
        assert!(stderr.contains("agentPools/gpu") && stderr.contains("aksgpu wait"), "{stderr}");
        no_delete(&arm);
        if abort {
            assert_eq!(arm.count("POST", "agentPools/gpu/abort"), 1);
            assert!(stderr.contains("asked Azure to abort"), "{stderr}");
        } else {
            assert_eq!(arm.count("POST", "/abort"), 0);
            assert!(stderr.contains("continues in Azure"), "{stderr}");
        }
    }
}

fn interrupt(abort: bool) -> (FakeArm, String, Option<i32>) {
    use std::process::{Command, Stdio};
    let arm = FakeArm::start();
    arm.with(|s| s.op_statuses = vec!["InProgress".into()]);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_aksgpu"));
    cmd.args(CreatePool::new().args()).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    if abort {
        cmd.arg("--abort-on-interrupt");
    }
    for (k, _) in std::env::vars() {
        if k.starts_with("AZURE_") || k.starts_with("AKSGPU_") {
            cmd.env_remove(k);
        }
    }
    for (k, v) in crate::support::arm_env(&arm.base) {
        cmd.env(k, v);
    }
    let child = cmd.spawn().expect("spawn");
    let start = std::time::Instant::now();
    while arm.count("GET", "operations/op1") < 3 {
        assert!(start.elapsed().as_secs() < 20, "never polled: {:?}", arm.calls());
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill");
    assert!(status.success());
    let out = child.wait_with_output().expect("wait");
    (arm, String::from_utf8_lossy(&out.stderr).into_owned(), out.status.code())
}

/// `auth status` reports the credential and subscription, never the token.
#[test]
fn auth_status_never_prints_the_token() {
    let arm = FakeArm::start();
    let r = aksgpu_arm(&arm.base, &["auth", "status", "-o", "json"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["credential"], "access-token");
    assert_eq!(v["subscription"], SUB);
    assert_eq!(v["subscription_source"], "AZURE_SUBSCRIPTION_ID");
    assert_eq!(v["token"]["ok"], true);
    assert!(!r.stdout.contains(TOKEN) && !r.stderr.contains(TOKEN));
    let none = aksgpu_with(&["auth", "status"], &[("AKSGPU_AUTH", "access-token")]);
    assert_eq!(none.code, 3, "{}", none.stderr);
}

/// Validation happens before any call: bad flags exit 2 and the server sees nothing.
#[test]
fn invalid_requests_never_reach_azure() {
    let arm = FakeArm::start();
    for (extra, flag) in [
        (vec!["--vm-size", "Standard_NC24ads_A100_v5"], "--vm-size"),
        (vec!["--vm-size", "Standard_NC6s_v3"], "--vm-size"),
        (vec!["--mig-profile", "MIG1g", "--vm-size", "Standard_NC4as_T4_v3"], "--mig-profile"),
        (vec!["--min-count", "3", "--max-count", "1"], "--min-count 3 is larger than --max-count 1"),
        (vec!["--spot", "--spot-max-price", "0"], "--spot-max-price"),
        (vec!["--node-taints", "gpu"], "--node-taints"),
        (vec!["--os", "windows", "--name", "gpuwin01", "--vm-size", "Standard_NC4as_T4_v3"], "--name"),
        (
            vec![
                "--os",
                "windows",
                "--name",
                "gw",
                "--vm-size",
                "Standard_NC4as_T4_v3",
                "--kubernetes-version",
                "1.28",
            ],
            "--kubernetes-version",
        ),
        (vec!["--vm-size", "Standard_ND96isr_MI300X_v5", "--gpu-driver", "install"], "--gpu-driver"),
        (vec!["--count", "-1"], "--count"),
    ] {
        let mut args: Vec<&str> = vec!["create-pool", "-g", "rg", "--cluster", "c1", "--yes"];
        if !extra.contains(&"--vm-size") {
            args.extend(["--vm-size", "Standard_NC24ads_A100_v4"]);
        }
        if !extra.contains(&"--name") {
            args.extend(["--name", "gpu"]);
        }
        args.extend(extra.iter());
        let r = aksgpu_arm(&arm.base, &args, &[]);
        assert_eq!(r.code, 2, "{extra:?}: {}", r.stderr);
        assert!(r.stderr.contains(flag), "{extra:?} should name {flag}: {}", r.stderr);
    }
    assert!(arm.log().is_empty(), "{:?}", arm.calls());
    let create = CreatePool::new();
    let all = create.args();
    let no_yes = aksgpu_arm(&arm.base, &all[..all.len() - 1], &[]);
    assert_eq!(no_yes.code, 2);
    assert!(no_yes.stderr.contains("--yes"));
}

/// Windows pools need the preview feature: refused with the command to run.
#[test]
fn windows_pool_needs_the_preview_feature() {
    let arm = FakeArm::start();
    let windows = CreatePool::new().name("gpuw").vm_size("Standard_NC4as_T4_v3").with(&["--os", "windows"]);
    let args = windows.args();
    let r = aksgpu_arm(&arm.base, &args, &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("aksgpu register-feature WindowsGPUPreview"), "{}", r.stderr);
    arm.with(|s| {
        s.features.insert(
            "windowsgpupreview".into(),
            json!({"name": "Microsoft.ContainerService/WindowsGPUPreview", "properties": {"state": "Registered"}}),
        );
    });
    let r = aksgpu_arm(&arm.base, &args, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(puts(&arm)[0]["properties"]["osType"], "Windows");
}

/// --recommend takes the top recommendation and says why.
#[test]
fn recommend_flag_picks_the_top_size() {
    let arm = FakeArm::start();
    let recommend = CreatePool::new().without_vm_size().with(&[
        "--recommend",
        "--model",
        "llama-3.1-8b",
        "--location",
        "eastus",
        "--dry-run",
        "-o",
        "json",
    ]);
    let r = aksgpu_arm(&arm.base, &recommend.args(), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("recommended Standard_NV36ads_A10_v5"), "{}", r.stderr);
    let put = r.json()["steps"].as_array().expect("steps").iter().find(|s| s["method"] == "PUT").cloned().expect("put");
    assert_eq!(put["body"]["properties"]["vmSize"], "Standard_NV36ads_A10_v5");
    let _ = fake_arm::default_cluster("x");
}

/// `--recommend` for a service the recommendation runs on 2 nodes (`recommend` answers
/// Standard_NC40ads_H100_v5 × 2 for these targets): without a count the pool gets the 2 nodes
/// and a note says why; `--count 1` is kept, with a warning naming `--count`; `--count 2`
/// says nothing more.
#[test]
fn recommend_sizes_the_pool_from_the_recommended_nodes() {
    let arm = FakeArm::start();
    let service = [
        "--recommend",
        "--model",
        "qwen3-30b-a3b",
        "--concurrency",
        "32",
        "--min-tokens-per-second-per-user",
        "40",
        "--location",
        "eastus",
        // The fake cluster's SKU list has no H100 size: the plan is what is checked here.
        "--skip-preflight",
        "--dry-run",
        "-o",
        "json",
    ];
    let run = |extra: &[&str]| {
        let c = CreatePool::new().without_vm_size().with(&service).with(extra);
        let r = aksgpu_arm(&arm.base, &c.args(), &[]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let steps = r.json()["steps"].as_array().expect("steps").clone();
        let put = steps.iter().find(|s| s["method"] == "PUT").cloned().expect("put");
        (put["body"]["properties"].clone(), r.stderr)
    };
    let (body, err) = run(&[]);
    assert_eq!(body["vmSize"], "Standard_NC40ads_H100_v5", "{err}");
    assert_eq!(body["count"], 2, "{err}");
    assert!(
        err.contains("note: count 2: the recommended deployment runs on 2 nodes (2 copies at TP 1 × PP 1)"),
        "{err}"
    );
    let (body, err) = run(&["--count", "1"]);
    assert_eq!(body["count"], 1, "the count asked for is kept: {err}");
    assert!(err.contains("warning: --count 1 is fewer than the 2 nodes the workload described needs"), "{err}");
    let (body, err) = run(&["--min-count", "0", "--max-count", "1"]);
    assert_eq!((body["minCount"].clone(), body["maxCount"].clone()), (json!(0), json!(1)), "{err}");
    assert!(err.contains("warning: --max-count 1 keeps the autoscaler below the 2 nodes"), "{err}");
    let (body, err) = run(&["--count", "2"]);
    assert_eq!(body["count"], 2, "{err}");
    assert!(!err.contains("recommended deployment runs on"), "{err}");
}

/// An OS SKU AKS does not provision for the size is refused before any request (exit 2), naming
/// --os-sku and the OS SKUs AKS's node-provisioning code allows for it.
#[test]
fn os_sku_aks_does_not_provision_for_the_size_is_refused() {
    let arm = FakeArm::start();
    let base = ["create-pool", "-g", "rg", "--cluster", "c1", "--name", "gpu", "--yes", "--os-sku"];
    let refused = [
        ("Standard_NC24ads_A100_v4", "AzureLinux", "Ubuntu, AzureLinux3"),
        ("Standard_NV36ads_A10_v5", "AzureLinux3", "Ubuntu"),
        ("Standard_NCC40ads_H100_v5", "AzureLinux", "Ubuntu"),
    ];
    for (size, sku, allowed) in refused {
        let mut args = base.to_vec();
        args.extend([sku, "--vm-size", size]);
        let r = aksgpu_arm(&arm.base, &args, &[]);
        assert_eq!(r.code, 2, "{size} {sku}: {}", r.stderr);
        assert!(r.stderr.contains("--os-sku"), "{}", r.stderr);
        assert!(r.stderr.contains(&format!("it allows {allowed}")), "{size} {sku}: {}", r.stderr);
    }
    assert!(arm.log().is_empty(), "{:?}", arm.calls());
    let mut args = base.to_vec();
    args.extend(["AzureLinux3", "--vm-size", "Standard_NC24ads_A100_v4"]);
    let r = aksgpu_arm(&arm.base, &args, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(puts(&arm)[0]["properties"]["osSKU"], "AzureLinux3");
}

/// The pool the default `CreatePool` args ask for, created once (Sync) so it is identical.
fn existing_pool(arm: &FakeArm) {
    arm.with(|s| s.lro_style = LroStyle::Sync);
    assert_eq!(run(arm, &[]).code, 0);
    arm.with(|s| {
        s.lro_style = LroStyle::AsyncOperation;
        s.log.clear();
        s.applied.clear();
    });
}

/// An existing pool that is Creating (an operation started elsewhere) is not "nothing to do":
/// create-pool waits for it as `aksgpu wait` does; with --no-wait it exits 4 with the wait
/// command. No PUT either way.
#[test]
fn an_existing_pool_still_creating_is_waited_for() {
    let arm = FakeArm::start();
    existing_pool(&arm);
    arm.script_pool("c1", "gpu", &["Creating", "Creating", "Creating", "Succeeded"]);
    let r = run(&arm, &["-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(arm.count("GET", "agentPools/gpu") >= 4, "{:?}", arm.calls());
    assert_eq!(r.json()["provisioning_state"], "Succeeded", "{}", r.stdout);
    assert_eq!(arm.count("PUT", "/"), 0);

    let arm = FakeArm::start();
    existing_pool(&arm);
    arm.script_pool("c1", "gpu", &["Scaling"]);
    let r = run(&arm, &["--no-wait"]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(
        r.stderr.contains("is Scaling") && r.stderr.contains(&format!("aksgpu wait --subscription {SUB}")),
        "{}",
        r.stderr
    );
    assert_eq!(arm.count("PUT", "/"), 0);
}

/// A Failed pool is never "no change": exit 1 with Azure's error and the exact commands that
/// recover it; nothing is deleted or sent.
#[test]
fn an_existing_failed_pool_says_how_to_recover() {
    let arm = FakeArm::start();
    existing_pool(&arm);
    arm.with(|s| {
        let p = s.pools.values_mut().next().expect("pool");
        p["properties"]["provisioningState"] = json!("Failed");
        p["properties"]["status"] = json!({"provisioningError": {"code": "ZonalAllocationFailed",
            "message": "Allocation failed. We do not have sufficient capacity for the requested VM size in this zone."}});
    });
    let r = run(&arm, &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("Failed: ZonalAllocationFailed: Allocation failed"), "{}", r.stderr);
    assert!(r.stderr.contains("az aks nodepool update -g rg --cluster-name c1 -n gpu"), "{}", r.stderr);
    assert!(r.stderr.contains("az aks nodepool delete -g rg --cluster-name c1 -n gpu"), "{}", r.stderr);
    assert!(!r.stdout.contains("nothing to do"), "{}", r.stdout);
    assert_eq!(arm.count("PUT", "/"), 0);
    no_delete(&arm);
}

/// A pool being deleted: create-pool waits until it is gone, then creates it (one PUT); with
/// --no-wait it refuses and says why.
#[test]
fn an_existing_pool_being_deleted_is_waited_out_then_created() {
    let arm = FakeArm::start();
    existing_pool(&arm);
    arm.deleting_pool("c1", "gpu", 3);
    let r = run(&arm, &["-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["status"], "created", "{}", r.stdout);
    assert_eq!(arm.count("PUT", "/"), 1);

    let arm = FakeArm::start();
    existing_pool(&arm);
    arm.deleting_pool("c1", "gpu", 1000);
    let r = run(&arm, &["--no-wait"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("being deleted") && r.stderr.contains("--no-wait"), "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 0);
}

/// --recommend for a named cluster ranks and prices in the cluster's own location (read once,
/// and reused by preflight), so the size it picks is one priced there.
#[test]
fn recommend_ranks_in_the_clusters_location() {
    let arm = FakeArm::start();
    arm.edit_cluster("c1", |c| c["location"] = json!("North Europe"));
    let catalog = aksgpu::catalog::Catalog::bundled().expect("catalog");
    let skus: Vec<Value> = catalog
        .sizes
        .iter()
        .map(|s| {
            json!({"resourceType": "virtualMachines", "name": s.name.to_string(), "family": s.quota_family.as_deref(), "locations": ["northeurope"],
                "locationInfo": [{"location": "northeurope", "zones": []}], "capabilities": [], "restrictions": []})
        })
        .collect();
    arm.with(|s| s.skus = skus);
    let recommend = CreatePool::new().without_vm_size().with(&[
        "--recommend",
        "--model",
        "llama-3.1-8b",
        "--dry-run",
        "-o",
        "json",
    ]);
    let r = aksgpu_arm(&arm.base, &recommend.args(), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let put = r.json()["steps"].as_array().expect("steps").iter().find(|s| s["method"] == "PUT").cloned().expect("put");
    let size = put["body"]["properties"]["vmSize"].as_str().expect("size").to_owned();
    assert!(catalog.price(&size, "northeurope").is_some(), "{size} has no price in northeurope: {}", r.stderr);
    assert!(r.stderr.contains("northeurope"), "{}", r.stderr);
    assert!(r.stdout.contains("locations/northeurope/usages"), "{}", r.stdout);
    assert_eq!(arm.count("GET", "managedClusters/c1?"), 1, "{:?}", arm.calls());
}

/// The catalog advises: a refusal resting on catalog data names the rule and `--override`;
/// with it, the plan is made and a warning still names the rule, its source and the risk.
#[test]
fn override_turns_a_catalog_refusal_into_a_warning() {
    let ncv6 = CreatePool::new().vm_size("Standard_NC36ds_xl_RTXPRO6000BSE_v6").with(&["--dry-run", "-o", "json"]);
    let refused = crate::support::aksgpu_with(&ncv6.args(), &[]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("--override ncv6-aks-status"), "{}", refused.stderr);
    let ok = crate::support::aksgpu_with(&ncv6.with(&["--override", "ncv6-aks-status"]).args(), &[]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    assert!(ok.stderr.contains("warning: overriding catalog rule ncv6-aks-status"), "{}", ok.stderr);
    assert!(ok.stderr.contains("source: azure-compute-docs:") && ok.stderr.contains("risk:"), "{}", ok.stderr);
    assert_eq!(ok.json()["steps"].as_array().map(|s| s.iter().any(|x| x["method"] == "PUT")), Some(true));
}

/// The operator's autoscaler minimum is advice, not a refusal: AKS's docs state no minimum.
#[test]
fn operator_with_a_minimum_of_zero_is_a_warning() {
    let args = CreatePool::new().with(&["--min-count", "0", "--max-count", "2", "--install-operator", "--dry-run"]);
    let r = crate::support::aksgpu_with(&args.args(), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("warning: autoscaler minimum 0 with the NVIDIA GPU Operator"), "{}", r.stderr);
    assert!(r.stderr.contains("rule operator-autoscaler-min") && r.stderr.contains("risk:"), "{}", r.stderr);
}
