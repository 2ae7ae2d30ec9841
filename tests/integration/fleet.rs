//! `aksgpu fleet` against the fake ARM server's Resource Graph: the JSON contract, paging,
//! batches, partial results, quota, 429s, repeated tokens, findings, --fail-on, bad input.
//! Every expected figure is derived from the fixture (sizes, counts, the bundled price table).

use serde_json::{json, Value};

use crate::fake_arm::{respond_h, subscription, FakeArm};
use crate::fake_graph::cluster_row;
use crate::support::{aksgpu_arm, bundled_linux_price, cents_times, Run};

const A: &str = "aaaaaaaa-0000-0000-0000-000000000001";
const B: &str = "bbbbbbbb-0000-0000-0000-000000000002";
const A100: &str = "Standard_NC24ads_A100_v4";
const T4_SIZE: &str = "Standard_NC4as_T4_v3";

fn catalog() -> aksgpu::catalog::Catalog {
    aksgpu::catalog::Catalog::bundled().expect("catalog")
}

/// Two subscriptions, three clusters (one stopped, one without GPU pools), five GPU pools.
fn fleet() -> FakeArm {
    let f = FakeArm::start();
    let c1 = cluster_row(
        A,
        "rg1",
        "c1",
        "eastus",
        "Running",
        vec![
            json!({"name": "system", "mode": "System", "vmSize": "Standard_D4ds_v5", "count": 2}),
            json!({"name": "gpu", "vmSize": A100, "count": 2, "enableAutoScaling": true, "minCount": 1, "maxCount": 3,
               "osType": "Linux", "nodeImageVersion": "AKSUbuntu-2204gen2containerd-202605.10.0",
               "provisioningState": "Succeeded", "powerState": {"code": "Running"},
               "gpuProfile": {"driver": "Install", "nvidia": {"managementMode": "Managed"}}}),
            json!({"name": "op", "vmSize": T4_SIZE, "count": 0, "enableAutoScaling": true, "minCount": 0, "maxCount": 2,
               "osType": "Linux", "gpuProfile": {"driver": "None"}}),
            json!({"name": "win", "vmSize": T4_SIZE, "count": 1, "osType": "Windows", "currentOrchestratorVersion": "1.28.5"}),
        ],
    );
    let c2 = cluster_row(
        B,
        "rg2",
        "c2",
        "West Europe",
        "Stopped",
        vec![
            json!({"name": "old", "vmSize": "Standard_NV6", "count": 1, "osType": "Linux"}),
            json!({"name": "nocount", "vmSize": A100, "osType": "Linux"}),
        ],
    );
    let c3 = cluster_row(
        B,
        "rg2",
        "c3",
        "eastus",
        "Running",
        vec![json!({"name": "system", "vmSize": "Standard_D4ds_v5", "count": 1})],
    );
    let assoc = |sub: &str, rg: &str, name: &str| {
        format!("/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.ContainerService/managedClusters/{name}/providers/microsoft.insights/datacollectionruleassociations").to_ascii_lowercase()
    };
    f.with(|s| {
        // The clusters' rules send nothing to a workspace (an empty association list).
        for (sub, rg, name) in [(A, "rg1", "c1"), (B, "rg2", "c2"), (B, "rg2", "c3")] {
            s.resources.insert(assoc(sub, rg, name), json!({"value": []}));
        }
        s.subscriptions = vec![subscription(A, "ML Production"), subscription(B, "Research")];
        s.page_size = 100;
        s.graph.rows = vec![c1, c2, c3];
        s.graph.page = 2;
    });
    f
}

fn pool<'a>(v: &'a Value, cluster: &str, name: &str) -> &'a Value {
    v["pools"]
        .as_array()
        .expect("pools")
        .iter()
        .find(|p| p["cluster"] == cluster && p["pool"] == name)
        .unwrap_or_else(|| panic!("no pool {cluster}/{name} in {v}"))
}

fn rules(p: &Value) -> Vec<(String, String)> {
    p["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| (f["rule"].as_str().unwrap_or("").to_owned(), f["severity"].as_str().unwrap_or("").to_owned()))
        .collect()
}

fn run(f: &FakeArm, args: &[&str]) -> Run {
    let mut a = vec!["fleet", "-o", "json"];
    a.extend_from_slice(args);
    aksgpu_arm(&f.base, &a, &[])
}

#[test]
fn fleet_reads_every_gpu_pool_with_costs_and_findings() {
    let f = fleet();
    let r = run(&f, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    let c = catalog();
    assert_eq!(v["pools"].as_array().map(Vec::len), Some(5), "{v}");
    // Running, autoscaled: cost now at count 2, at max 3; the idle minimum (1 node) costs a month.
    let price = bundled_linux_price(A100, "eastus");
    let g = pool(&v, "c1", "gpu");
    assert_eq!(g["subscription_id"], A);
    assert_eq!(g["resource_group"], "rg1");
    assert_eq!(g["location"], "eastus");
    assert_eq!(g["vm_size"], A100);
    assert_eq!(g["gpu_model"], c.size(A100).expect("size").gpu_model.to_string());
    assert_eq!(g["gpus_per_node"], json!(1.0));
    assert_eq!((g["count"].clone(), g["min_count"].clone(), g["max_count"].clone()), (json!(2), json!(1), json!(3)));
    assert_eq!(
        (g["autoscaling"].clone(), g["spot"].clone(), g["os"].clone()),
        (json!(true), json!(false), json!("Linux"))
    );
    assert_eq!(
        (g["gpu_driver"].clone(), g["managed_gpu"].clone(), g["mig_profile"].clone()),
        (json!("Install"), json!(true), Value::Null)
    );
    assert_eq!(g["node_image_version"], "AKSUbuntu-2204gen2containerd-202605.10.0");
    assert_eq!(g["kubernetes_version"], "1.33.2");
    assert_eq!((g["power_state"].clone(), g["provisioning_state"].clone()), (json!("Running"), json!("Succeeded")));
    assert_eq!(g["hourly_cost_now"], json!(cents_times(price, 2)));
    assert_eq!(g["monthly_cost_now"], json!(cents_times(price, 2 * 730)));
    assert_eq!(g["monthly_cost_at_max"], json!(cents_times(price, 3 * 730)));
    assert_eq!(g["price_date"], c.prices.as_of.as_str());
    assert_eq!(rules(g), vec![("autoscaler-idle-minimum".into(), "info".into())]);
    let idle = &g["findings"][0]["message"];
    assert!(idle.as_str().is_some_and(|m| m.contains(&format!("{:.2}", cents_times(price, 730)))), "{idle}");
    // A GPU Operator pool (driver None) that may scale to zero.
    assert_eq!(rules(pool(&v, "c1", "op")), vec![("operator-autoscaler-min".into(), "warning".into())]);
    // Windows below 1.29; no autoscaler: min and max are null.
    let w = pool(&v, "c1", "win");
    assert_eq!(rules(w), vec![("windows-gpu-min-kubernetes".into(), "error".into())]);
    assert_eq!((w["min_count"].clone(), w["max_count"].clone()), (Value::Null, Value::Null));
    assert_eq!(w["kubernetes_version"], "1.28.5");
    // Stopped cluster: nothing costs now; a retired size (error, with its date) AKS does not support.
    let old = pool(&v, "c2", "old");
    assert_eq!((old["hourly_cost_now"].clone(), old["monthly_cost_now"].clone()), (json!(0.0), json!(0.0)));
    assert_eq!(old["location"], "westeurope");
    assert_eq!(old["power_state"], "Stopped");
    let r_old = rules(old);
    assert!(
        r_old.contains(&("retired-size".into(), "error".into()))
            && r_old.contains(&("unsupported-size".into(), "warning".into())),
        "{r_old:?}"
    );
    let date = c.size("Standard_NV6").and_then(|s| s.retirement_date.as_deref()).expect("a retirement date").to_owned();
    assert!(old["findings"].to_string().contains(&date));
    // A count Azure did not send is null, and so is every cost that needs it.
    let n = pool(&v, "c2", "nocount");
    for k in ["count", "hourly_cost_now", "monthly_cost_now", "monthly_cost_at_max"] {
        assert_eq!(n[k], Value::Null, "{k}");
    }
    assert_eq!(v["totals"]["monthly_cost_now"], Value::Null, "one unknown cost leaves the total unknown");
    assert_eq!(v["totals"]["gpu_pools"], 5);
    assert_eq!(v["totals"]["findings"], json!({"error": 2, "warning": 2, "info": 1}));
    assert_eq!(v["clusters"].as_array().map(Vec::len), Some(3));
    let subs = v["subscriptions"].as_array().expect("subscriptions");
    assert_eq!(
        subs.iter().map(|s| (s["id"].clone(), s["name"].clone(), s["gpu_pools"].clone())).collect::<Vec<_>>(),
        vec![(json!(A), json!("ML Production"), json!(3)), (json!(B), json!("Research"), json!(2))]
    );
    assert_eq!(v["warnings"], json!([]));
    // Three rows at two a page: two queries, the second with the first's token; both subscriptions in one batch.
    let posts: Vec<Value> = f.log().iter().filter(|r| r.method == "POST").map(|r| r.json()).collect();
    assert_eq!(posts.len(), 2, "{posts:?}");
    assert_eq!(posts[0]["subscriptions"], json!([A, B]));
    assert_eq!(posts[0]["options"], json!({"resultFormat": "objectArray", "$top": 1000}));
    assert_eq!(posts[1]["options"]["$skipToken"], "skip-2");
    assert!(f.log().iter().filter(|r| r.method == "POST").all(|r| r.target.contains("api-version=2024-04-01")));
}

/// The node image floor the catalog states for NVadsA10 v5 and NCadsA10 v4 (Azure/AKS#5875:
/// 202606.08.1 or later): an older image is a warning with the upgrade step; the floor itself,
/// a newer image and an image Azure did not report are not findings.
#[test]
fn a_pool_below_its_node_image_floor_is_a_warning_with_the_upgrade_step() {
    let c = catalog();
    let (floor, rule) = c.node_image_floor("Standard_NV36ads_A10_v5").expect("a floor for NVadsA10 v5");
    let f = FakeArm::start();
    let a10 = |name: &str, size: &str, image: Option<&str>| {
        let mut p = json!({"name": name, "vmSize": size, "count": 1, "osType": "Linux"});
        if let Some(i) = image {
            p["nodeImageVersion"] = json!(i);
        }
        p
    };
    let row = cluster_row(
        A,
        "rg1",
        "c1",
        "eastus",
        "Running",
        vec![
            a10("old", "Standard_NV36ads_A10_v5", Some("AKSUbuntu-2204gen2containerd-202605.27.0")),
            a10("oldnc", "Standard_NC8ads_A10_v4", Some("AKSUbuntu-2204gen2containerd-202606.08.0")),
            a10("atfloor", "Standard_NV36ads_A10_v5", Some(&format!("AKSUbuntu-2204gen2containerd-{floor}"))),
            a10("newer", "Standard_NV36ads_A10_v5", Some("AKSUbuntu-2404gen2containerd-202607.02.0")),
            a10("unknown", "Standard_NV36ads_A10_v5", None),
            a10("t4", T4_SIZE, Some("AKSUbuntu-2204gen2containerd-202501.01.0")),
        ],
    );
    f.with(|s| {
        s.subscriptions = vec![subscription(A, "ML Production")];
        s.graph.rows = vec![row];
    });
    let r = run(&f, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    let floor_rule = |p: &Value| rules(p).into_iter().filter(|(id, _)| *id == rule.id).collect::<Vec<_>>();
    for name in ["old", "oldnc"] {
        let p = pool(&v, "c1", name);
        assert_eq!(floor_rule(p), vec![(rule.id.clone(), "warning".to_owned())], "{name}: {p}");
        let msg = p["findings"].to_string();
        assert!(
            msg.contains(&floor.to_string())
                && msg.contains("--node-image-only")
                && msg.contains(&format!("-n {name}")),
            "{msg}"
        );
    }
    for name in ["atfloor", "newer", "unknown", "t4"] {
        assert_eq!(floor_rule(pool(&v, "c1", name)), vec![], "{name}");
    }
}

#[test]
fn fail_on_exits_1_at_or_above_the_level_and_the_table_names_the_findings() {
    let f = fleet();
    for (level, code) in [("error", 1), ("warning", 1), ("info", 1)] {
        let r = run(&f, &["--fail-on", level]);
        assert_eq!(r.code, code, "{level}: {}", r.stderr);
        assert!(r.json()["pools"].is_array(), "the document is printed before the exit");
        assert!(r.stderr.contains(&format!("--fail-on {level}")), "{}", r.stderr);
    }
    // Only the first subscription, by name: its three pools, no retired size, still an error.
    let r = run(&f, &["--subscription", "ML Production", "--fail-on", "error"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.json()["pools"].as_array().map(Vec::len), Some(3));
    let t = aksgpu_arm(&f.base, &["fleet", "--subscription", B], &[]);
    assert_eq!(t.code, 0, "{}", t.stderr);
    assert!(
        t.stdout.contains("rg2/c2") && t.stdout.contains("retired-size") && !t.stdout.contains("rg1/c1"),
        "{}",
        t.stdout
    );
    let unknown = run(&f, &["--subscription", "Nope"]);
    assert_eq!(unknown.code, 2, "{}", unknown.stderr);
    assert!(unknown.stderr.contains("Nope"), "{}", unknown.stderr);
}

#[test]
fn a_repeated_skip_token_stops_the_run() {
    let f = fleet();
    f.with(|s| {
        s.graph.page = 1;
        s.graph.repeat_token_after = Some(1);
    });
    let r = run(&f, &[]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(r.stderr.contains("$skipToken repeats"), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "no partial, duplicated list: {}", r.stdout);
}

/// 1,500 subscriptions: two batches (1,000 + 500). One of them cannot be read: its batch is split
/// until it is named; every other subscription's cluster is read once.
#[test]
fn subscriptions_go_in_batches_and_an_unreadable_one_is_named() {
    let f = FakeArm::start();
    let subs: Vec<String> = (0..1500).map(|i| format!("{i:08x}-0000-0000-0000-000000000000")).collect();
    let denied = subs[700].clone();
    f.with(|s| {
        s.page_size = 1000;
        s.subscriptions = subs.iter().map(|id| subscription(id, &format!("sub {id}"))).collect();
        s.graph.rows = subs
            .iter()
            .map(|id| {
                cluster_row(
                    id,
                    "rg",
                    "c",
                    "eastus",
                    "Running",
                    vec![json!({"name": "gpu", "vmSize": T4_SIZE, "count": 1})],
                )
            })
            .collect();
        s.graph.denied.insert(denied.clone());
    });
    let r = run(&f, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["pools"].as_array().map(Vec::len), Some(1499));
    let w = v["warnings"].as_array().expect("warnings");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].as_str().is_some_and(|m| m.contains(&denied) && m.contains("AuthorizationFailed")), "{w:?}");
    let unread: Vec<&Value> =
        v["subscriptions"].as_array().expect("subs").iter().filter(|s| s["read"] == false).collect();
    assert_eq!(unread.len(), 1);
    let posts: Vec<Value> = f.log().iter().filter(|r| r.method == "POST").map(|r| r.json()).collect();
    assert!(posts.iter().all(|p| p["subscriptions"].as_array().is_some_and(|a| a.len() <= 1000)));
    // 1,000 then 500 in full; the refused batch halves ten times down to the one (two requests a level).
    assert_eq!(posts[0]["subscriptions"].as_array().map(Vec::len), Some(1000));
    assert_eq!(posts.len(), 2 + 2 * 10, "{}", posts.len());
}

#[test]
fn a_429_waits_its_retry_after_and_the_quota_is_waited_for_before_it_runs_out() {
    let f = fleet();
    f.fault(
        "POST",
        "Microsoft.ResourceGraph",
        1,
        respond_h(429, &[("retry-after", "1")], r#"{"error":{"code":"RateLimiting","message":"slow down"}}"#),
    );
    let r = aksgpu_arm(&f.base, &["fleet", "-o", "json", "-v"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["pools"].as_array().map(Vec::len), Some(5));
    assert!(r.stderr.contains("HTTP 429") && r.stderr.contains("as the server asked"), "{}", r.stderr);
    assert_eq!(f.count("POST", "ResourceGraph"), 3, "the throttled page is sent again, once");

    // One query per 1.5 s window and three rows a page of one: without waiting, the second page
    // would be a 429. The client reads the headers and waits for the reset instead.
    let f = fleet();
    f.with(|s| {
        s.graph.page = 1;
        s.graph.quota = 1;
        s.graph.window = std::time::Duration::from_millis(1500);
    });
    let started = std::time::Instant::now();
    let r = aksgpu_arm(&f.base, &["fleet", "-o", "json"], &[("AKSGPU_TEST_NO_RETRY_DELAY", "0")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(f.with(|s| s.graph.quota_429s), 0, "no 429 that could have been avoided");
    assert_eq!(f.count("POST", "ResourceGraph"), 3);
    assert!(started.elapsed() >= std::time::Duration::from_millis(2500), "{:?}", started.elapsed());
}

/// A Resource Graph query changes nothing: a 500 is retried like a GET, never an "outcome unknown".
#[test]
fn a_query_is_a_read_and_a_500_is_retried() {
    let f = fleet();
    f.fault(
        "POST",
        "Microsoft.ResourceGraph",
        1,
        respond_h(500, &[], r#"{"error":{"code":"InternalServerError","message":"oops"}}"#),
    );
    let r = run(&f, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["pools"].as_array().map(Vec::len), Some(5));
    assert_eq!(f.count("POST", "ResourceGraph"), 3);
}

#[test]
fn a_management_group_is_one_scope_and_the_tenant_limit_is_a_warning() {
    let f = fleet();
    f.with(|s| s.graph.limit_hit = true);
    let r = run(&f, &["--management-group", "ml-prod"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["pools"].as_array().map(Vec::len), Some(5));
    assert!(v["warnings"].to_string().contains("x-ms-tenant-subscription-limit-hit"), "{}", v["warnings"]);
    assert_eq!(f.count("GET", "/subscriptions?"), 0, "a management group needs no subscription list");
    let first = f.log().into_iter().find(|r| r.method == "POST").expect("a query").json();
    assert_eq!(first["managementGroups"], json!(["ml-prod"]));
}

/// Bad input is an error naming the flag, and nothing is sent.
#[test]
fn bad_input_names_the_flag_before_any_request() {
    let f = fleet();
    let cases: &[(&[&str], &str)] = &[
        (&["fleet", "--management-group", ""], "--management-group"),
        (&["fleet", "--management-group", "not a group!"], "--management-group"),
        (&["fleet", "--fail-on", "fatal"], "--fail-on"),
        (&["fleet", "--usage", "--idle-below", "-1"], "--idle-below"),
        (&["fleet", "--usage", "--since", "last week"], "--since"),
        (&["usage", "-g", "rg", "--cluster", "c1", "--since", "0"], "--since"),
        (
            &["usage", "-g", "rg", "--cluster", "c1", "--prometheus-endpoint", "http://example.com"],
            "--prometheus-endpoint",
        ),
        (
            &[
                "usage",
                "-g",
                "rg",
                "--cluster",
                "c1",
                "--start",
                "2026-11-08T00:00:00Z",
                "--end",
                "2026-11-01T00:00:00Z",
            ],
            "--start",
        ),
        (&["usage", "-g", "rg", "--cluster", "c1", "--start", "yesterday", "--end", "2026-11-01T00:00:00Z"], "--start"),
        (&["usage", "-g", "rg", "--cluster", "c1", "--idle-below", "150"], "--idle-below"),
    ];
    for (args, flag) in cases {
        let r = aksgpu_arm(&f.base, args, &[]);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(flag), "{args:?} should name {flag}: {}", r.stderr);
    }
    assert!(f.log().is_empty(), "nothing was sent: {:?}", f.calls());
}

/// What people read: the fleet table (bundled prices; a price refresh changes the snapshot
/// only through the bundled table).
#[test]
fn the_fleet_table() {
    let f = fleet();
    let r = aksgpu_arm(&f.base, &["fleet"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!("fleet-table", r.stdout);
}

/// `fleet --usage` where no cluster has a workspace to find: every pool says why it is not
/// measured (never zero use), and the fleet view is unchanged.
#[test]
fn fleet_usage_without_workspaces_measures_nothing_and_says_why() {
    let f = fleet();
    f.with(|s| {
        if let Some(row) = s.graph.rows.get_mut(1) {
            row["properties"]["azureMonitorProfile"]["metrics"]["enabled"] = json!(false);
        }
    });
    let r =
        aksgpu_arm(&f.base, &["fleet", "--usage", "-o", "json"], &[("AKSGPU_PROMETHEUS_TOKEN", "prom-token-unused")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["pools"].as_array().map(Vec::len), Some(5));
    let u = v["usage"]["pools"].as_array().expect("usage pools");
    assert_eq!(u.len(), 5);
    for p in u {
        assert_eq!(p["measured"], false, "{p}");
        assert_eq!(p["gpu_hours"], Value::Null);
        let why = p["note"].as_str().unwrap_or("");
        let want = if p["cluster"] == "c2" { "managed Prometheus is off" } else { "no data collection rule" };
        assert!(why.contains(want), "{p}");
    }
    assert_eq!(v["usage"]["queries"], 0);
}
