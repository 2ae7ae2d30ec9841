//! Every writing command's `--dry-run` works with no credential at all: exit 0, the exact
//! requests it would send (method, URL with `--subscription`, body), placeholders for what a
//! real run reads first, and no request reaches the (fake) ARM server.

use serde_json::{json, Value};

use crate::fake_arm::FakeArm;
use crate::support::{aksgpu_with, Run};

const SUB: &str = "11111111-2222-3333-4444-555555555555";
const AKS: &str = aksgpu::arm::api::AKS;

/// Run with no credential, no subscription variable and no az profile; only the endpoint
/// points at a fake server, to prove nothing is sent.
fn dry(arm: &FakeArm, args: &[&str]) -> Run {
    let r = aksgpu_with(args, &[("AKSGPU_ARM_ENDPOINT", &arm.base)]);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    assert!(arm.calls().is_empty(), "{args:?} sent {:?}", arm.calls());
    r
}

fn cluster_url(arm: &FakeArm) -> String {
    format!(
        "{}/subscriptions/{SUB}/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/c1",
        arm.base
    )
}

fn steps(r: &Run) -> Vec<Value> {
    let v = r.json();
    assert_eq!(v["dry_run"], true, "{v}");
    v["steps"].as_array().cloned().unwrap_or_default()
}

fn request(s: &Value) -> (String, String) {
    (s["method"].as_str().unwrap_or_default().to_owned(), s["url"].as_str().unwrap_or_default().to_owned())
}

const TARGET: [&str; 6] = ["-g", "rg", "--cluster", "c1", "--subscription", SUB];

fn args<'a>(command: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    [command, &TARGET[..], extra, &["--dry-run", "-o", "json"]].concat()
}

#[test]
fn cluster_stop_and_start() {
    let arm = FakeArm::start();
    for (verb, url) in [("stop", "stop"), ("start", "start")] {
        let s = steps(&dry(&arm, &args(&["cluster", verb], &[])));
        let c = cluster_url(&arm);
        assert_eq!(request(&s[0]), ("GET".into(), format!("{c}?api-version={AKS}")));
        assert_eq!(request(&s[1]), ("POST".into(), format!("{c}/{url}?api-version={AKS}")));
        assert!(s[1].get("body").is_none(), "{}", s[1]);
    }
}

#[test]
fn cost_analysis_enable() {
    let arm = FakeArm::start();
    let s = steps(&dry(&arm, &args(&["cost-analysis", "enable"], &[])));
    let url = format!("{}?api-version={AKS}", cluster_url(&arm));
    assert_eq!(request(&s[0]), ("GET".into(), url.clone()));
    assert_eq!(request(&s[1]), ("PUT".into(), url));
    assert_eq!(s[1]["headers"]["If-Match"], "<read at run time: cluster eTag>");
    assert_eq!(
        s[1]["body"],
        json!({
            "location": "<read at run time: cluster location>",
            "sku": {"name": "<read at run time: cluster SKU name>", "tier": "<read at run time: cluster tier>"},
            "properties": {
                "…": "<read at run time: every other writable field, unchanged>",
                "metricsProfile": {"costAnalysis": {"enabled": true}},
            },
        })
    );
}

#[test]
fn kaito_enable() {
    let arm = FakeArm::start();
    let s = steps(&dry(&arm, &args(&["kaito", "enable"], &[])));
    let url = format!("{}?api-version={AKS}", cluster_url(&arm));
    assert_eq!(request(&s[1]), ("PUT".into(), url));
    assert_eq!(s[1]["headers"]["If-Match"], "<read at run time: cluster eTag>");
    let props = &s[1]["body"]["properties"];
    assert_eq!(props["aiToolchainOperatorProfile"], json!({"enabled": true}));
    assert_eq!(props["oidcIssuerProfile"], json!({"enabled": true}));
}

#[test]
fn pool_scale() {
    let arm = FakeArm::start();
    let s = steps(&dry(&arm, &args(&["pool", "scale"], &["--name", "gpu", "--count", "3"])));
    let url = format!("{}/agentPools/gpu?api-version={AKS}", cluster_url(&arm));
    assert_eq!(request(&s[0]), ("GET".into(), url.clone()));
    assert_eq!(request(&s[1]), ("PUT".into(), url));
    assert_eq!(s[1]["headers"]["If-Match"], "<read at run time: pool eTag>");
    assert_eq!(
        s[1]["body"],
        json!({"properties": {"count": 3, "…": "<read at run time: every other writable field, unchanged>"}})
    );
    let auto = steps(&dry(&arm, &args(&["pool", "scale"], &["--name", "gpu", "--min-count", "1", "--max-count", "4"])));
    let props = &auto[1]["body"]["properties"];
    assert_eq!(
        (&props["enableAutoScaling"], &props["minCount"], &props["maxCount"]),
        (&json!(true), &json!(1), &json!(4))
    );
    assert_eq!(props["count"], "<read at run time: current node count, kept within min..max>");
}

#[test]
fn install_operator_shows_the_helm_values() {
    let arm = FakeArm::start();
    let r = dry(&arm, &args(&["install-operator"], &["--mig-strategy", "mixed"]));
    let v = r.json();
    let values = v["values_yaml"].as_str().expect("values");
    assert!(values.contains("strategy: mixed") && values.contains("<read at run time: a toleration"), "{values}");
    // The driver mode is the pools' (their gpuProfile.driver): not read, so never guessed.
    let yaml: Value = serde_yaml_ng::from_str(values).expect("YAML");
    for key in ["driver", "toolkit"] {
        let enabled = yaml[key]["enabled"].as_str().unwrap_or_default();
        assert!(enabled.starts_with("<read at run time: false when the GPU pools' gpuProfile.driver"), "{values}");
    }
    let s = steps(&r);
    let c = cluster_url(&arm);
    assert_eq!(request(&s[0]), ("GET".into(), format!("{c}?api-version={AKS}")));
    let listed = aksgpu::arm::api::AKS_MANAGED_GPU;
    assert_eq!(request(&s[1]), ("GET".into(), format!("{c}/agentPools?api-version={listed}")));
    // The release is read before the upgrade (a read-only command), then upgraded.
    assert_eq!(request(&s[2]), ("POST".into(), format!("{c}/runCommand?api-version={AKS}")));
    assert!(s[2]["body"]["command"].as_str().is_some_and(|c| c.contains("helm get values")), "{}", s[2]);
    assert_eq!(request(&s[3]), ("POST".into(), format!("{c}/runCommand?api-version={AKS}")));
    let body = &s[3]["body"];
    assert!(body["command"].as_str().is_some_and(|c| c.contains("helm upgrade --install")), "{body}");
    assert!(body["clusterToken"].as_str().is_some_and(|t| t.starts_with("<read at run time")), "{body}");
    assert_eq!(v["pools"], json!(["<read at run time: the cluster's GPU pools>"]));
}

#[test]
fn register_feature() {
    let arm = FakeArm::start();
    let r = dry(&arm, &["register-feature", "WindowsGPUPreview", "--subscription", SUB, "--dry-run", "-o", "json"]);
    let s = steps(&r);
    let f = format!(
        "{}/subscriptions/{SUB}/providers/Microsoft.Features/providers/Microsoft.ContainerService/features/WindowsGPUPreview",
        arm.base
    );
    assert_eq!(request(&s[0]).0, "GET");
    assert!(request(&s[0]).1.starts_with(&format!("{f}?api-version=")), "{}", s[0]);
    assert_eq!(request(&s[1]).0, "POST");
    assert!(request(&s[1]).1.starts_with(&format!("{f}/register?api-version=")), "{}", s[1]);
    // Its state is then read until Registered, before the provider's re-registration.
    assert_eq!(request(&s[2]), ("GET".to_owned(), request(&s[0]).1));
    assert!(s[2]["repeat"].is_string(), "{}", s[2]);
    assert_eq!(request(&s[3]).0, "POST");
    let provider =
        format!("{}/subscriptions/{SUB}/providers/Microsoft.ContainerService/register?api-version=", arm.base);
    assert!(request(&s[3]).1.starts_with(&provider), "{}", s[3]);
}

#[test]
fn quota_request() {
    let arm = FakeArm::start();
    let family = "standardNCADSA100v4Family";
    let base = ["quota", "request", "--location", "eastus", "--subscription", SUB, "--dry-run", "-o", "json"];
    let limit = dry(&arm, &[&base[..], &["--family", family, "--limit", "200"]].concat());
    let s = steps(&limit);
    let quota = format!("{}/subscriptions/{SUB}/providers/Microsoft.Compute/locations/eastus", arm.base);
    assert_eq!(request(&s[0]), ("GET".into(), format!("{quota}/usages?api-version=2025-04-01")));
    assert_eq!(request(&s[1]).0, "PUT");
    assert!(request(&s[1]).1.starts_with(&format!("{quota}/providers/Microsoft.Quota/quotas/{family}?")), "{}", s[1]);
    assert_eq!(s[1]["body"]["properties"]["limit"]["value"], 200);
    assert_eq!(limit.json()["from"], "<read at run time: today's limit>");
    // With --nodes the new limit depends on today's: a placeholder, never a guess.
    let nodes = dry(&arm, &[&base[..], &["--vm-size", "Standard_NC24ads_A100_v4", "--nodes", "4"]].concat());
    let value = &steps(&nodes)[1]["body"]["properties"]["limit"]["value"];
    assert!(value.as_str().is_some_and(|v| v.starts_with("<read at run time: today's usage")), "{value}");
}

#[test]
fn without_subscription_the_url_shows_a_placeholder_and_a_bad_one_is_refused() {
    let arm = FakeArm::start();
    let s = steps(&dry(&arm, &["cluster", "stop", "-g", "rg", "--cluster", "c1", "--dry-run", "-o", "json"]));
    assert!(request(&s[1]).1.contains("/subscriptions/{subscription}/"), "{}", s[1]);
    // A name is resolved by a read, which a dry run does not make: the placeholder stays.
    let named = aksgpu_with(
        &["cluster", "stop", "-g", "rg", "--cluster", "c1", "--subscription", "nope", "--dry-run", "-o", "json"],
        &[("AKSGPU_ARM_ENDPOINT", &arm.base)],
    );
    assert_eq!(named.code, 0, "{}", named.stderr);
    assert!(named.stdout.contains("/subscriptions/{subscription}/"), "{}", named.stdout);
    assert!(arm.calls().is_empty());
}

/// A workload flag next to `--vm-size` would be dropped without a word (clap cannot hold its
/// `requires = "recommend"` there): it is refused, naming the flag and the fix, and nothing is sent.
#[test]
fn create_pool_refuses_workload_flags_next_to_vm_size() {
    let arm = FakeArm::start();
    for flag in [["--model", "llama-3.1-8b"], ["--max-price-per-hour", "5"], ["--gpu-model", "A100"]] {
        let mut args = vec!["create-pool", "-g", "rg", "--cluster", "c1", "--name", "gpu"];
        args.extend(["--vm-size", "Standard_NC24ads_A100_v4", "--subscription", SUB, "--dry-run"]);
        args.extend(flag);
        let r = aksgpu_with(&args, &[("AKSGPU_ARM_ENDPOINT", &arm.base)]);
        assert_eq!(r.code, 2, "{flag:?}: {}", r.stderr);
        assert!(r.stderr.contains(&format!("{} only applies with --recommend", flag[0])), "{}", r.stderr);
        assert!(r.stderr.contains("hint: drop"), "{}", r.stderr);
    }
    assert!(arm.calls().is_empty(), "sent {:?}", arm.calls());
}
