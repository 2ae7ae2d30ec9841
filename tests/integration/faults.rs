//! Fault safety against the fake ARM server: a write is never sent twice (a lost
//! answer is read back), `--timeout` bounds every wait, absurd headers never panic, Ctrl-C
//! says what is true, and the HTTP details (Content-Length, 404 grace, kaito's final GET,
//! credential reasons). Elapsed-time bounds are generous: they catch hangs, not speed.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::fake_arm::{self, respond, respond_h, Action, FakeArm, Loss, SUB};
use crate::support::{aksgpu_arm, aksgpu_with, CreatePool, Run};

fn create(arm: &FakeArm, extra: &[&str], env: &[(&'static str, &str)]) -> Run {
    let create = CreatePool::new();
    let mut args = create.args();
    args.extend_from_slice(extra);
    aksgpu_arm(&arm.base, &args, env)
}

fn resume() -> String {
    format!("aksgpu wait --subscription {SUB} -g rg --cluster c1 --name gpu")
}

const LOSSES: [Loss; 6] =
    [Loss::Reset, Loss::CloseMidBody, Loss::Stall, Loss::Status(500), Loss::Status(502), Loss::Status(504)];

/// the PUT is applied, then its answer is lost in every way: the pool is read back (it
/// carries the spec and is Creating), waiting continues, and the PUT is never resent.
#[test]
fn lost_put_answer_is_read_back_never_resent() {
    for loss in LOSSES {
        let arm = FakeArm::start();
        arm.fault("PUT", "agentPools/gpu", 1, Action::AppliedThenLost(loss));
        let r = create(&arm, &["-o", "json"], &[]);
        assert_eq!(r.code, 0, "{loss:?}: {}", r.stderr);
        assert_eq!(r.json()["status"], "created", "{loss:?}");
        assert_eq!(arm.count("PUT", "/"), 1, "{loss:?}: {:?}", arm.calls());
        assert_eq!(arm.resent_after_applied("PUT", "agentPools/gpu"), 0);
        assert!(!r.stderr.contains("someone else"), "{loss:?}: {}", r.stderr);
    }
}

/// A lost answer to a PUT that was not applied: read back, absent, so it is sent again with
/// `If-None-Match: *` (it can never overwrite a pool made meanwhile), and the pool is created.
#[test]
fn lost_put_answer_not_applied_is_read_back_then_sent_again_guarded() {
    for action in [Action::Reset, respond(500, json!({"error": {"code": "InternalServerError", "message": "x"}}))] {
        let arm = FakeArm::start();
        arm.fault("PUT", "agentPools/gpu", 1, action);
        let r = create(&arm, &["-o", "json"], &[]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(r.json()["status"], "created");
        let puts: Vec<_> = arm.log().into_iter().filter(|q| q.method == "PUT").collect();
        assert_eq!(puts.len(), 2, "{:?}", arm.calls());
        assert!(puts.iter().all(|q| q.headers.get("if-none-match").map(String::as_str) == Some("*")));
        assert_eq!(arm.resent_after_applied("PUT", "agentPools/gpu"), 0);
    }
}

/// A burst of 5xx without Retry-After on the PUT: each is read back (absent) and the PUT sent
/// again, guarded; a burst longer than the client's 3 retries ends with exit 1 and says nothing
/// was applied.
#[test]
fn a_burst_of_5xx_on_put_is_read_back_and_sent_again() {
    let err = json!({"error": {"code": "ServiceUnavailable", "message": "try later"}});
    let arm = FakeArm::start();
    arm.fault("PUT", "agentPools/gpu", 1, respond(503, err.clone()));
    arm.fault("PUT", "agentPools/gpu", 1, respond(502, err.clone()));
    arm.fault("PUT", "agentPools/gpu", 1, respond(504, err.clone()));
    let r = create(&arm, &[], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 4, "{:?}", arm.calls());
    assert_eq!(arm.applied_count("PUT", "agentPools/gpu"), 1);

    let arm = FakeArm::start();
    arm.fault("PUT", "agentPools/gpu", 100, respond(503, err.clone()));
    let r = create(&arm, &[], &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 4, "{:?}", arm.calls());
    assert!(r.stderr.contains("did not apply it"), "{}", r.stderr);

    // kaito enable: the cluster PUT goes again with the If-Match it read.
    let arm = FakeArm::start();
    arm.fault("PUT", "managedClusters/c1?", 2, respond(503, err.clone()));
    let r = aksgpu_arm(&arm.base, &["kaito", "enable", "--yes", "-g", "rg", "--cluster", "c1"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let puts: Vec<_> = arm.log().into_iter().filter(|q| q.method == "PUT").collect();
    assert_eq!(puts.len(), 3, "{:?}", arm.calls());
    assert!(puts.iter().all(|q| q.headers.get("if-match").map(String::as_str) == Some("etag-1")));
}

/// The PUT landed, its answer was lost, and the pool read back already Failed: the write is
/// ours and failed. It is reported as failed (exit 1) and never sent again.
#[test]
fn a_lost_answer_read_back_failed_is_reported_not_resent() {
    let arm = FakeArm::start();
    arm.with(|s| s.op_statuses = vec!["Failed".into()]);
    arm.fault("PUT", "agentPools/gpu", 1, Action::AppliedThenLost(Loss::Reset));
    let r = create(&arm, &[], &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("ended Failed"), "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 1, "{:?}", arm.calls());
}

/// A resend never overwrites someone else's change: the cluster changed (new eTag) while the
/// first PUT's answer was lost, so the resend carries the old `If-Match`, ARM answers 412, and
/// nothing of ours is applied.
#[test]
fn a_resend_after_someone_elses_change_is_refused_by_if_match() {
    let arm = FakeArm::start();
    let err = respond(500, json!({"error": {"code": "InternalServerError", "message": "x"}}));
    arm.fault(
        "PUT",
        "managedClusters/c1?",
        1,
        Action::OtherWriterThen("c1".into(), "etag-other".into(), Box::new(err)),
    );
    let r = aksgpu_arm(&arm.base, &["kaito", "enable", "--yes", "-g", "rg", "--cluster", "c1"], &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let puts: Vec<_> = arm.log().into_iter().filter(|q| q.method == "PUT").collect();
    assert_eq!(puts.len(), 2, "{:?}", arm.calls());
    assert!(puts.iter().all(|q| q.headers.get("if-match").map(String::as_str) == Some("etag-1")));
    assert!(r.stderr.contains("412"), "{}", r.stderr);
    assert_eq!(arm.applied_count("PUT", "/"), 0);
}

/// A 201 whose body is cut short was still accepted: the pool is followed and created, one PUT.
#[test]
fn an_unreadable_2xx_body_is_accepted_and_reconciled() {
    let arm = FakeArm::start();
    arm.fault("PUT", "agentPools/gpu", 1, Action::AppliedThenLost(Loss::Truncated));
    let r = create(&arm, &["-o", "json"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["status"], "created");
    assert_eq!(r.json()["provisioning_state"], "Succeeded");
    assert_eq!(arm.count("PUT", "/"), 1);

    let arm = FakeArm::start();
    arm.fault("PUT", "managedClusters/c1?", 1, Action::AppliedThenLost(Loss::Truncated));
    let r = aksgpu_arm(&arm.base, &["kaito", "enable", "--yes", "-g", "rg", "--cluster", "c1"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("KAITO enabled"), "{}", r.stdout);
    assert_eq!(arm.count("PUT", "/"), 1);
}

/// the answer is lost and the pool cannot be read back: exit 4 with `aksgpu wait`.
#[test]
fn lost_put_answer_unreadable_exits_4_with_the_wait_command() {
    let arm = FakeArm::start();
    arm.fault("PUT", "agentPools/gpu", 1, Action::AppliedThenLost(Loss::Status(502)));
    arm.fault("GET", "agentPools/gpu", 100, respond(500, json!({"error": {"code": "InternalError", "message": "x"}})));
    let r = create(&arm, &["--skip-preflight"], &[]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(r.stderr.contains("may have been accepted") && r.stderr.contains(&resume()), "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 1);
    assert_eq!(arm.count("GET", "agentPools/gpu"), 4, "the read-back GET is retried, the PUT is not");
}

/// writes are resent only when the answer says they were not applied (429, 503 with
/// Retry-After); a 503 without Retry-After is ambiguous and read back.
#[test]
fn writes_are_resent_only_when_not_applied() {
    let arm = FakeArm::start();
    arm.fault("PUT", "agentPools/gpu", 1, respond_h(503, &[("retry-after", "1")], "{}"));
    assert_eq!(create(&arm, &[], &[]).code, 0);
    assert_eq!(arm.count("PUT", "/"), 2);

    let arm = FakeArm::start();
    arm.fault("PUT", "agentPools/gpu", 1, Action::AppliedThenLost(Loss::Status(503)));
    let r = create(&arm, &[], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 1);
}

/// `kaito enable` and `pool scale` (PUT), `cluster stop` and `register-feature` (POST):
/// an applied write whose answer is lost is read back and never resent.
#[test]
fn other_writes_read_back_after_a_lost_answer() {
    let arm = FakeArm::start();
    arm.fault("PUT", "managedClusters/c1?", 1, Action::AppliedThenLost(Loss::Status(500)));
    let r = aksgpu_arm(&arm.base, &["kaito", "enable", "-g", "rg", "--cluster", "c1", "--yes"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("KAITO enabled"), "{}", r.stdout);
    assert_eq!(arm.count("PUT", "/"), 1);

    let arm = FakeArm::start();
    arm.put_pool("c1", "gpu", json!({"id": fake_arm::pool_path("c1", "gpu"), "name": "gpu", "properties": {
        "vmSize": "Standard_NC24ads_A100_v4", "count": 3, "mode": "User", "provisioningState": "Succeeded", "enableAutoScaling": false}}));
    arm.fault("PUT", "agentPools/gpu", 1, Action::AppliedThenLost(Loss::CloseMidBody));
    let r = aksgpu_arm(
        &arm.base,
        &["pool", "scale", "-g", "rg", "--cluster", "c1", "--yes", "--name", "gpu", "--count", "1"],
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 1);

    let arm = FakeArm::start();
    arm.fault("POST", "/stop", 1, Action::AppliedThenLost(Loss::Reset));
    let r = aksgpu_arm(&arm.base, &["cluster", "stop", "-g", "rg", "--cluster", "c1", "--yes"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Stopped"), "{}", r.stdout);
    assert_eq!(arm.count("POST", "/stop"), 1);

    let arm = FakeArm::start();
    arm.with(|s| {
        s.features.insert(
            "windowsgpupreview".into(),
            json!({"name": "Microsoft.ContainerService/WindowsGPUPreview", "properties": {"state": "NotRegistered"}}),
        );
    });
    arm.fault("POST", "/register", 1, Action::AppliedThenLost(Loss::Status(504)));
    let r = aksgpu_arm(&arm.base, &["register-feature", "--yes", "WindowsGPUPreview"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(arm.count("POST", "features/WindowsGPUPreview/register"), 1);
}

/// a lost runCommand answer cannot be read back (its result URL was in it): exit 4,
/// one POST, and the command that re-checks.
#[test]
fn lost_run_command_answer_exits_4_without_resending() {
    let arm = FakeArm::start();
    arm.put_pool("c1", "gpu", json!({"id": fake_arm::pool_path("c1", "gpu"), "name": "gpu", "properties": {
        "vmSize": "Standard_NC24ads_A100_v4", "count": 1, "mode": "User", "osType": "Linux", "provisioningState": "Succeeded"}}));
    arm.fault("POST", "runCommand", 1, Action::AppliedThenLost(Loss::Status(500)));
    let r = aksgpu_arm(&arm.base, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1"], &[]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert_eq!(arm.count("POST", "runCommand"), 1);
    assert!(
        r.stderr.contains("may have been accepted") && r.stderr.contains("run the same aksgpu command"),
        "{}",
        r.stderr
    );
}

/// a server that stalls before the headers ends with `--timeout`, not 60 s × 4.
#[test]
fn stall_before_headers_ends_at_the_timeout() {
    let arm = FakeArm::start();
    arm.fault("GET", "managedClusters/c1?", 10, Action::StallHeaders);
    let started = Instant::now();
    let r = create(&arm, &["--timeout", "2s"], &[("AKSGPU_HTTP_TIMEOUT", "60")]);
    let took = started.elapsed();
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(took < Duration::from_secs(20), "took {took:?}");
    assert!(r.stderr.contains("no answer before the run's deadline"), "{}", r.stderr);
    assert!(r.stderr.contains("hint: run again with a longer --timeout"), "{}", r.stderr);
    assert_eq!(arm.count("GET", "managedClusters/c1?"), 1);
    assert_eq!(arm.count("PUT", "/"), 0);
}

/// the PUT stalls until `--timeout`: the outcome is unknown and cannot be read in
/// time, so exit 4 with the `aksgpu wait` command; one PUT.
#[test]
fn stalled_put_past_the_timeout_exits_4_with_the_wait_command() {
    let arm = FakeArm::start();
    arm.fault("PUT", "agentPools/gpu", 1, Action::StallHeaders);
    let started = Instant::now();
    let r = create(&arm, &["--timeout", "2s"], &[("AKSGPU_HTTP_TIMEOUT", "60")]);
    assert!(started.elapsed() < Duration::from_secs(20), "took {:?}", started.elapsed());
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(r.stderr.contains(&resume()), "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 1);
}

/// a Retry-After longer than the time left fails at once, naming the wait; absurd
/// values never panic.
#[test]
fn long_or_absurd_retry_after_fails_at_once_naming_the_wait() {
    for (header, value, named) in [
        ("retry-after", "86400", "24 h 00 min"),
        ("retry-after", "1e20", "24 h 00 min"),
        ("retry-after-ms", "1e30", "24 h 00 min"),
        ("x-ms-retry-after-ms", "600000", "10 min 00 s"),
    ] {
        let arm = FakeArm::start();
        arm.fault("GET", "managedClusters/c1?", 5, respond_h(429, &[(header, value)], "{}"));
        let started = Instant::now();
        let r = create(&arm, &["--timeout", "5m"], &[]);
        assert!(started.elapsed() < Duration::from_secs(20), "{header}: {value}");
        assert_eq!(r.code, 1, "{header}: {value}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        assert!(r.stderr.contains("throttling") && r.stderr.contains(named), "{header}: {value}: {}", r.stderr);
        assert_eq!(arm.count("GET", "managedClusters/c1?"), 1);
    }
}

/// A TCP server that accepts connections and never answers (a hung login endpoint).
fn black_hole() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = l.local_addr().expect("addr");
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for c in l.incoming().flatten() {
            held.push(c);
        }
    });
    format!("https://{addr}")
}

/// token acquisition is bounded by `--timeout` (an unreachable login endpoint took 164 s).
#[test]
fn hung_login_endpoint_is_bounded_by_the_timeout() {
    let arm = FakeArm::start();
    let authority = black_hole();
    let sp = [
        ("AKSGPU_ACCESS_TOKEN", ""),
        ("AZURE_TENANT_ID", "00000000-0000-0000-0000-00000000000a"),
        ("AZURE_CLIENT_ID", "00000000-0000-0000-0000-00000000000b"),
        ("AZURE_CLIENT_SECRET", "not-a-real-secret"),
        ("AZURE_AUTHORITY_HOST", authority.as_str()),
    ];
    for args in [
        vec!["auth", "status", "--timeout", "3s"],
        vec!["cluster", "stop", "-g", "rg", "--cluster", "c1", "--yes", "--timeout", "3s"],
    ] {
        let started = Instant::now();
        let r = aksgpu_arm(&arm.base, &args, &sp);
        let took = started.elapsed();
        assert!(took < Duration::from_secs(25), "{args:?} took {took:?}");
        assert_eq!(r.code, 3, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(format!("{}{}", r.stdout, r.stderr).contains("no token after"), "{}{}", r.stdout, r.stderr);
        assert!(!r.stderr.contains("not-a-real-secret") && !r.stdout.contains("not-a-real-secret"));
    }
    assert_eq!(arm.count("POST", "/"), 0);
}

/// when the credential chain fails, every credential's reason is printed.
#[test]
fn failed_credential_chain_lists_each_reason() {
    let r = aksgpu_with(
        &["auth", "status", "--auth", "developer-tools", "--subscription", SUB],
        &[("PATH", "/nonexistent-aksgpu-path")],
    );
    assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
    let all = format!("{}{}", r.stdout, r.stderr);
    assert!(!all.trim_end().ends_with("authenticate:"), "{all}");
    let reasons = all.lines().filter(|l| l.trim_start().starts_with("- ")).count();
    assert!(reasons >= 2, "one line per credential (az CLI, azd): {all}");
}

fn spawn(arm: &FakeArm, args: &[&str]) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_aksgpu"));
    cmd.args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    for (k, _) in std::env::vars() {
        if k.starts_with("AZURE_") || k.starts_with("AKSGPU_") {
            cmd.env_remove(k);
        }
    }
    for (k, v) in crate::support::arm_env(&arm.base) {
        cmd.env(k, v);
    }
    cmd.env("AKSGPU_HTTP_TIMEOUT", "60");
    cmd.spawn().expect("spawn")
}

fn until(arm: &FakeArm, what: &str, ready: impl Fn(&FakeArm) -> bool) {
    let start = Instant::now();
    while !ready(arm) {
        assert!(start.elapsed() < Duration::from_secs(30), "never saw {what}: {:?}", arm.calls());
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn sigint(child: &Child) {
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill");
    assert!(status.success());
}

fn finish(child: Child) -> (Option<i32>, String) {
    let out = child.wait_with_output().expect("wait");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Ctrl-C while the PUT is in flight: it may have been accepted; here is `aksgpu wait`.
#[test]
fn ctrl_c_with_a_write_in_flight_says_it_may_have_been_accepted() {
    let arm = FakeArm::start();
    arm.fault("PUT", "agentPools/gpu", 1, Action::StallHeaders);
    let child = spawn(&arm, &CreatePool::new().args());
    until(&arm, "the PUT", |a| a.count("PUT", "agentPools/gpu") == 1);
    sigint(&child);
    let (code, stderr) = finish(child);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("may have been accepted") && stderr.contains(&resume()), "{stderr}");
    assert_eq!(arm.count("PUT", "/"), 1);
}

/// Ctrl-C before anything was sent: "Nothing was changed" (cluster stop, kaito enable).
#[test]
fn ctrl_c_before_any_write_says_nothing_was_changed() {
    let create = CreatePool::new();
    for args in [
        &["cluster", "stop", "-g", "rg", "--cluster", "c1", "--yes"][..],
        &["kaito", "enable", "-g", "rg", "--cluster", "c1", "--yes"][..],
        &create.args(),
    ] {
        let arm = FakeArm::start();
        arm.fault("GET", "managedClusters/c1?", 1, Action::StallHeaders);
        let child = spawn(&arm, args);
        until(&arm, "the first GET", |a| a.count("GET", "managedClusters/c1?") == 1);
        sigint(&child);
        let (code, stderr) = finish(child);
        assert_eq!(code, Some(130), "{args:?}: {stderr}");
        assert!(stderr.contains("Nothing was changed"), "{args:?}: {stderr}");
        assert!(!stderr.contains("continues in Azure"), "{args:?}: {stderr}");
        assert_eq!(arm.log().iter().filter(|r| r.method != "GET").count(), 0);
    }
}

fn interrupt_polling_with_abort(arm: &FakeArm) -> Child {
    arm.with(|s| s.op_statuses = vec!["InProgress".into()]);
    let create = CreatePool::new();
    let mut args = create.args();
    args.push("--abort-on-interrupt");
    let child = spawn(arm, &args);
    until(arm, "polling", |a| a.count("GET", "operations/op1") >= 2);
    sigint(&child);
    child
}

/// `--abort-on-interrupt` sends exactly one abort POST, even when it fails (500, reset),
/// with `Content-Length: 0`, and says that the operation may continue.
#[test]
fn abort_is_sent_exactly_once_even_when_it_fails() {
    for action in [respond(500, json!({"error": {"code": "InternalError", "message": "x"}})), Action::Reset] {
        let arm = FakeArm::start();
        arm.fault("POST", "/abort", 10, action);
        let (code, stderr) = finish(interrupt_polling_with_abort(&arm));
        assert_eq!(code, Some(130), "{stderr}");
        assert_eq!(arm.count("POST", "agentPools/gpu/abort"), 1, "{:?}", arm.calls());
        assert!(stderr.contains("sent once and failed") && stderr.contains("aksgpu wait"), "{stderr}");
        let abort = arm.log().into_iter().find(|r| r.method == "POST").expect("abort");
        assert_eq!(abort.headers.get("content-length").map(String::as_str), Some("0"));
    }
}

/// a second Ctrl-C exits at once, even while the abort POST stalls.
#[test]
fn second_ctrl_c_exits_while_the_abort_stalls() {
    let arm = FakeArm::start();
    arm.fault("POST", "/abort", 1, Action::StallHeaders);
    let child = interrupt_polling_with_abort(&arm);
    until(&arm, "the abort POST", |a| a.count("POST", "/abort") == 1);
    let second = Instant::now();
    sigint(&child);
    let (code, stderr) = finish(child);
    assert!(second.elapsed() < Duration::from_secs(10), "took {:?} after the second Ctrl-C", second.elapsed());
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("second Ctrl-C"), "{stderr}");
    assert_eq!(arm.count("POST", "/abort"), 1);
}

/// bodiless POSTs (stop, start, register) carry `Content-Length: 0`.
#[test]
fn bodiless_posts_send_content_length_zero() {
    let arm = FakeArm::start();
    assert_eq!(aksgpu_arm(&arm.base, &["cluster", "stop", "-g", "rg", "--cluster", "c1", "--yes"], &[]).code, 0);
    assert_eq!(aksgpu_arm(&arm.base, &["cluster", "start", "-g", "rg", "--cluster", "c1", "--yes"], &[]).code, 0);
    arm.with(|s| {
        s.features.insert(
            "windowsgpupreview".into(),
            json!({"name": "Microsoft.ContainerService/WindowsGPUPreview", "properties": {"state": "NotRegistered"}}),
        );
    });
    assert_eq!(aksgpu_arm(&arm.base, &["register-feature", "--yes", "WindowsGPUPreview"], &[]).code, 0);
    let posts: Vec<_> = arm.log().into_iter().filter(|r| r.method == "POST").collect();
    assert_eq!(posts.len(), 4, "stop, start, feature register, provider register");
    for p in posts {
        assert_eq!(p.headers.get("content-length").map(String::as_str), Some("0"), "{}", p.target);
    }
}

fn operator_cluster() -> FakeArm {
    let arm = FakeArm::start();
    arm.put_pool("c1", "gpu", json!({"id": fake_arm::pool_path("c1", "gpu"), "name": "gpu", "properties": {
        "vmSize": "Standard_NC24ads_A100_v4", "count": 1, "mode": "User", "osType": "Linux", "provisioningState": "Succeeded"}}));
    arm
}

/// runCommand results follow the shared poller's rules: a 404 is tolerated for a few
/// polls, not forever; a dropped connection is survived.
#[test]
fn run_command_results_tolerate_404_for_a_few_polls() {
    let arm = operator_cluster();
    arm.fault("GET", "commandResults/", 2, respond(404, json!({"error": {"code": "NotFound", "message": "not yet"}})));
    arm.fault("GET", "commandResults/", 1, Action::Reset);
    let r = aksgpu_arm(&arm.base, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(arm.count("POST", "runCommand"), 4, "the release read, the install, two checks");

    let arm = operator_cluster();
    arm.fault("GET", "commandResults/", 100, respond(404, json!({"error": {"code": "NotFound", "message": "gone"}})));
    let r = aksgpu_arm(&arm.base, &["install-operator", "--yes", "-g", "rg", "--cluster", "c1"], &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(arm.count("GET", "commandResults/"), 6, "5 tolerated, the 6th fails");
    assert_eq!(arm.count("POST", "runCommand"), 1);
}

/// `kaito enable` succeeds only when the final GET shows the profile enabled.
#[test]
fn kaito_enable_checks_the_final_get() {
    let arm = FakeArm::start();
    // The preflight GET and the final GET both answer a cluster without KAITO.
    arm.fault("GET", "managedClusters/c1?", 2, respond(200, fake_arm::default_cluster("c1")));
    let r = aksgpu_arm(&arm.base, &["kaito", "enable", "-g", "rg", "--cluster", "c1", "--yes"], &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("aiToolchainOperatorProfile.enabled"), "{}", r.stderr);
    assert!(!r.stdout.contains("KAITO enabled"), "{}", r.stdout);
    assert_eq!(arm.count("PUT", "/"), 1);
}

/// no message says "after 0s" (a feature that stays Registering past --timeout).
#[test]
fn timeouts_name_the_real_wait() {
    let arm = FakeArm::start();
    arm.with(|s| {
        s.features.insert(
            "windowsgpupreview".into(),
            json!({"name": "Microsoft.ContainerService/WindowsGPUPreview", "properties": {"state": "NotRegistered"}}),
        );
        s.feature_scripts.insert("windowsgpupreview".into(), vec!["Registering".into(); 1000]);
    });
    let r = aksgpu_arm(&arm.base, &["register-feature", "--yes", "WindowsGPUPreview", "--timeout", "1s"], &[]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(r.stderr.contains("timed out after") && !r.stderr.contains("after 0s"), "{}", r.stderr);
    assert!(!r.stderr.contains("after 0 ms"), "{}", r.stderr);
    assert_eq!(arm.count("POST", "/register"), 1);
}

/// The system refusing a resource (here: open files, so the async runtime cannot start) is an
/// operational failure: exit 1 with a `ulimit` hint, never 70 ("a bug") or 2 ("bad input").
#[test]
fn a_refused_system_resource_exits_1_with_a_hint() {
    let bin = env!("CARGO_BIN_EXE_aksgpu");
    let out = std::process::Command::new("sh")
        .args(["-c", &format!("ulimit -n 5; exec {bin} auth status")])
        .env_remove("CI")
        .output()
        .expect("run sh");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("Too many open files") && stderr.contains("hint: ") && stderr.contains("ulimit -n"),
        "{stderr}"
    );
    assert!(!stderr.contains("bug"), "{stderr}");
}
