//! No secret in any output: servers that echo the token, the clusterToken, the
//! client secret or signed URLs back, in JSON errors, HTML pages, runCommand logs and
//! transport errors; checked on stdout and stderr, quiet and with -vv.

use serde_json::json;

use crate::fake_arm::{self, respond, respond_h, Action, FakeArm, RunResult, SUB, TOKEN};
use crate::support::{aksgpu_arm, CreatePool, Run};

/// A JWT-shaped token that is not this run's (someone else's, echoed by a proxy).
const FOREIGN_JWT: &str = "eyJ0eXAiOiJKV1QifQ.eyJzdWIiOiJzb21lb25lIn0.c2lnbmF0dXJl";
const CLIENT_SECRET: &str = "client-secret-Qx7~9";
const CLUSTER_TOKEN: &str = "cluster-token-8d2e";

const WAIT: &[&str] = &["wait", "-g", "rg", "--cluster", "c1", "--name", "gpu", "--timeout", "5s"];

/// Every secret this suite plants; none may appear anywhere.
fn assert_clean(r: &Run, extra: &[&str]) {
    let all = format!("{}\n{}", r.stdout, r.stderr);
    for s in [TOKEN, FOREIGN_JWT, CLIENT_SECRET, CLUSTER_TOKEN, "SIGVALUE", "SEVALUE", "SKOIDVALUE"].iter().chain(extra)
    {
        assert!(!all.contains(s), "{s} leaked:\n{all}");
    }
    // The fragments of the JWT must not survive either.
    assert!(!all.contains("eyJzdWIiOiJzb21lb25lIn0"), "{all}");
}

fn echo_body() -> String {
    json!({"error": {"code": "InvalidAuthenticationToken", "message": format!(
        "The header 'Authorization: Bearer {TOKEN}' is invalid; x-forwarded: bearer {FOREIGN_JWT}; secret {CLIENT_SECRET}; see https://login.example/x?sig=SIGVALUE&se=SEVALUE&api-version=2020-01-01"
    )}})
    .to_string()
}

fn wait(arm: &FakeArm, verbose: Option<&str>) -> Run {
    let mut args = WAIT.to_vec();
    args.extend(verbose);
    aksgpu_arm(&arm.base, &args, &[("AZURE_CLIENT_SECRET", CLIENT_SECRET)])
}

#[test]
fn a_400_that_echoes_the_authorization_header_prints_no_secret() {
    for verbose in [None, Some("-v"), Some("-vv")] {
        let arm = FakeArm::start();
        arm.fault("GET", "/agentPools/gpu", 1, Action::Respond { status: 400, headers: vec![], body: echo_body() });
        let r = wait(&arm, verbose);
        assert_eq!(r.code, 1, "{r:?}");
        assert_eq!(arm.count("GET", "/agentPools/gpu"), 1, "a 400 is not retried");
        // The token was really sent, and the error is still informative.
        let sent = arm.log().into_iter().find(|x| x.target.contains("/agentPools/gpu")).expect("request");
        assert_eq!(sent.headers.get("authorization"), Some(&format!("Bearer {TOKEN}")));
        assert!(r.stderr.contains("InvalidAuthenticationToken") && r.stderr.contains("REDACTED"), "{}", r.stderr);
        assert!(r.stderr.contains("api-version=2020-01-01"), "api-version stays: {}", r.stderr);
        assert_clean(&r, &[]);
    }
}

#[test]
fn an_html_502_page_that_echoes_secrets_prints_none() {
    for verbose in [None, Some("-vv")] {
        let arm = FakeArm::start();
        let page = format!(
            "<html><body><h1>502 Bad Gateway</h1><pre>Authorization: Bearer {TOKEN}\n{FOREIGN_JWT}\n{CLIENT_SECRET}</pre></body></html>"
        );
        arm.fault("GET", "/agentPools/gpu", 100, respond_h(502, &[("content-type", "text/html")], &page));
        let r = wait(&arm, verbose);
        assert_ne!(r.code, 0, "{r:?}");
        assert!(arm.count("GET", "/agentPools/gpu") >= 1);
        assert!(r.stderr.contains("502"), "{}", r.stderr);
        assert_clean(&r, &[]);
    }
}

#[test]
fn a_json_error_that_leaks_a_secret_field_prints_none() {
    let arm = FakeArm::start();
    let body = json!({"code": "BadRequest", "message": "rejected", "target": format!("clusterToken={CLUSTER_TOKEN}"), "details": [
        {"code": "Echo", "message": format!("{{\"accessToken\": \"{TOKEN}\", \"clusterToken\": \"{CLUSTER_TOKEN}\"}}")}]});
    arm.fault("GET", "/agentPools/gpu", 1, respond(400, body));
    let r = aksgpu_arm(&arm.base, &[WAIT, &["-vv"]].concat(), &[("AKSGPU_CLUSTER_TOKEN", CLUSTER_TOKEN)]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("Echo"), "{}", r.stderr);
    assert_clean(&r, &[]);
}

fn entra_gpu_cluster(arm: &FakeArm) {
    let props = json!({"vmSize": "Standard_NC24ads_A100_v4", "count": 1, "mode": "User", "osType": "Linux",
        "nodeTaints": ["sku=gpu:NoSchedule"], "provisioningState": "Succeeded"});
    arm.put_pool("c1", "gpu", json!({"id": fake_arm::pool_path("c1", "gpu"), "name": "gpu", "properties": props}));
    arm.edit_cluster("c1", |c| c["properties"]["aadProfile"] = json!({"managed": true}));
}

#[test]
fn run_command_logs_that_echo_tokens_print_none() {
    for verbose in [None, Some("-vv")] {
        let arm = FakeArm::start();
        entra_gpu_cluster(&arm);
        let logs = format!(
            "helm: using token {CLUSTER_TOKEN}\nAuthorization: Bearer {TOKEN}\nid_token={FOREIGN_JWT}\n\
             pulling https://acct.blob.core.windows.net/charts/op.tgz?sv=2022&se=SEVALUE&skoid=SKOIDVALUE&sig=SIGVALUE\n\
             Error: UPGRADE FAILED\n"
        );
        arm.with(|s| s.run_results.push(RunResult { running_polls: 1, state: "Succeeded".into(), exit_code: 1, logs }));
        let mut args = vec!["install-operator", "--yes", "-g", "rg", "--cluster", "c1"];
        args.extend(verbose);
        let r = aksgpu_arm(&arm.base, &args, &[("AKSGPU_CLUSTER_TOKEN", CLUSTER_TOKEN)]);
        assert_eq!(r.code, 1, "{r:?}");
        // The command really carried the cluster token, and the logs are still shown.
        let posted = arm.log().into_iter().find(|x| x.method == "POST" && x.target.contains("runCommand"));
        assert_eq!(posted.expect("runCommand").json()["clusterToken"], CLUSTER_TOKEN);
        assert!(r.stderr.contains("UPGRADE FAILED") && r.stderr.contains("op.tgz?sv=REDACTED"), "{}", r.stderr);
        assert_clean(&r, &[]);
    }
}

#[test]
fn transport_errors_on_signed_operation_urls_print_no_signature() {
    for verbose in [None, Some("-vv")] {
        let arm = FakeArm::start();
        let pool = fake_arm::pool_path("c1", "gpu");
        let op = format!(
            "{}/subscriptions/{SUB}/providers/Microsoft.ContainerService/locations/eastus/operations/sigop?sig=SIGVALUE&se=SEVALUE&skoid=SKOIDVALUE&api-version=2016-03-30",
            arm.base
        );
        let body = json!({"id": pool, "name": "gpu", "properties": {"provisioningState": "Creating"}}).to_string();
        arm.fault("PUT", "/agentPools/gpu", 1, respond_h(201, &[("azure-asyncoperation", &op)], &body));
        arm.fault("GET", "/operations/sigop", 1000, Action::Reset);
        let create = CreatePool::new().with(&["--timeout", "20s"]).with(verbose.as_slice());
        let r = aksgpu_arm(&arm.base, &create.args(), &[]);
        assert_ne!(r.code, 0, "{r:?}");
        assert!(arm.count("GET", "/operations/sigop") >= 1, "{:?}", arm.calls());
        if verbose.is_some() {
            // The polls are logged, with the signature gone and api-version kept.
            assert!(r.stderr.contains("operations/sigop?sig=REDACTED"), "{}", r.stderr);
            assert!(r.stderr.contains("api-version=2016-03-30"), "{}", r.stderr);
        }
        assert_clean(&r, &[]);
    }
}
