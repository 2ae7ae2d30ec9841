//! Errors are classified by their type, the same way in every command: a 401/403 exits 3, the
//! network or a failing service 1, a still-pending operation 4, a bug 70, and a name Azure
//! does not have 2. The typed cause's hint reaches the top.

use crate::fake_arm::{Action, FakeArm, SUB};
use crate::support::{aksgpu_arm, aksgpu_with, temp_dir};

fn respond(status: u16, code: &str) -> Action {
    Action::Respond {
        status,
        headers: vec![("content-type".into(), "application/json".into())],
        body: format!(r#"{{"error": {{"code": "{code}", "message": "refused by the fake"}}}}"#),
    }
}

/// Resolving `--subscription NAME` reads the subscriptions list: a 401 there is an
/// authentication error (exit 3) in every command, not a usage error.
#[test]
fn a_401_while_resolving_a_subscription_name_exits_3() {
    for args in [["feature", "list"], ["quota", "show"]] {
        let arm = FakeArm::start();
        arm.fault("GET", "/subscriptions", 10, respond(401, "InvalidAuthenticationToken"));
        let mut argv = args.to_vec();
        argv.extend(["--subscription", "ml production", "--location", "eastus"]);
        if args[0] == "feature" {
            argv.truncate(argv.len() - 2);
        }
        let r = aksgpu_arm(&arm.base, &argv, &[]);
        assert_eq!(r.code, 3, "{argv:?}: {}", r.stderr);
        assert!(r.stderr.contains("401"), "{}", r.stderr);
        assert!(
            !r.stderr.contains("pass --subscription or set"),
            "the auth failure is not a usage error: {}",
            r.stderr
        );
    }
}

/// A 403 on the list is an authorisation error (exit 3) too.
#[test]
fn a_403_while_resolving_a_subscription_name_exits_3() {
    let arm = FakeArm::start();
    arm.fault("GET", "/subscriptions", 10, respond(403, "AuthorizationFailed"));
    let r = aksgpu_arm(&arm.base, &["feature", "list", "--subscription", "ml production"], &[]);
    assert_eq!(r.code, 3, "{}", r.stderr);
}

/// The network failing while the name is resolved is a transport failure: exit 1.
#[test]
fn a_transport_failure_while_resolving_a_subscription_name_exits_1() {
    let arm = FakeArm::start();
    arm.fault("GET", "/subscriptions", 50, Action::Reset);
    let r = aksgpu_arm(&arm.base, &["feature", "list", "--subscription", "ml production"], &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("hint: check the network"), "{}", r.stderr);
}

/// A `--family` Azure does not report in the region is a name Azure does not have: exit 2,
/// as a preview feature Azure does not have, with the command that lists the real names.
#[test]
fn a_quota_family_azure_does_not_report_is_a_usage_error() {
    let arm = FakeArm::start();
    let r = aksgpu_arm(
        &arm.base,
        &["quota", "show", "--location", "eastus", "--family", "standardNoSuchFamily", "--subscription", SUB],
        &[],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("Azure reports no usage for standardNoSuchFamily in eastus"), "{}", r.stderr);
    assert!(r.stderr.contains("hint: check the family name"), "{}", r.stderr);
}

/// A bad `--catalog` under `apply` keeps the catalog error's class (exit 2) and its hint.
#[test]
fn a_bad_catalog_under_apply_keeps_its_hint() {
    let dir = temp_dir("exit-bad-catalog");
    let bad = dir.join("catalog");
    std::fs::create_dir_all(&bad).expect("mkdir");
    std::fs::write(bad.join("gpus.yaml"), "- id: T4\n  vendor: NVIDIA\n  name: T4\n  memory_gib: lots\n")
        .expect("write");
    let file = dir.join("gpu.yaml");
    std::fs::write(
        &file,
        "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n  - name: gpu\n    vmSize: Standard_NC4as_T4_v3\n    count: 1\n",
    )
    .expect("write");
    let r = aksgpu_with(
        &["--catalog", bad.to_str().expect("utf8"), "apply", "-f", file.to_str().expect("utf8"), "--dry-run"],
        &[("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9"), ("AZURE_SUBSCRIPTION_ID", SUB)],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("gpus.yaml"), "{}", r.stderr);
    assert!(r.stderr.contains("hint: fix the file, or drop --catalog"), "the catalog's hint survives: {}", r.stderr);
}

/// A currency cache the system cannot read (here its directory is a file) is a file error
/// (exit 1, naming the path), not a usage error; a cache that is simply absent still says to
/// refresh (exit 2).
#[test]
fn an_unreadable_currency_cache_is_a_file_error() {
    let dir = temp_dir("exit-cache-io");
    let not_a_dir = dir.join("cache-is-a-file");
    std::fs::write(&not_a_dir, "x").expect("write");
    let cost = ["cost", "--vm-size", "Standard_NC24ads_A100_v4", "--location", "eastus", "--currency", "EUR"];
    let r = aksgpu_with(&cost, &[("AKSGPU_CACHE_DIR", not_a_dir.to_str().expect("utf8"))]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("prices-EUR.bin") && r.stderr.contains("cannot read"), "{}", r.stderr);

    let empty = temp_dir("exit-cache-empty");
    let r = aksgpu_with(&cost, &[("AKSGPU_CACHE_DIR", empty.to_str().expect("utf8"))]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("aksgpu prices refresh --currency EUR"), "{}", r.stderr);
}
