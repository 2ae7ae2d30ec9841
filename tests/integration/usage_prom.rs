//! `aksgpu usage` against a REAL Prometheus server (Debian's `prometheus` package), backfilled
//! with `promtool tsdb create-blocks-from openmetrics` from synthetic dcgm-exporter and
//! kube-state-metrics series. The fake ARM server serves the discovery chain (cluster →
//! data collection rule association → rule → Azure Monitor workspace → query endpoint).
//! Every expected figure follows from how the series below are built.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::fake_arm::{cluster_path, respond, FakeArm, SUB, TOKEN};
use crate::support::{aksgpu_arm, bundled_linux_price, require, temp_dir};

/// 2026-11-01T00:00:00Z; six hours of samples every minute.
const START: i64 = 1_793_491_200;
const HOURS: i64 = 6;
const END: i64 = START + HOURS * 3600;
const PROM_TOKEN: &str = "prom-token-5d1e0b7a";
const NODE0: &str = "aks-gpu-12345678-vmss000000";
const NODE1: &str = "aks-gpu-12345678-vmss000001";

/// A running Prometheus, stopped when dropped.
struct Prom {
    child: Child,
    url: String,
}

impl Drop for Prom {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn have(bin: &str) -> bool {
    Command::new(bin).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

/// One series: `metric{labels}` with `value(t)` at every minute of the window.
fn series(out: &mut String, metric: &str, labels: &str, value: impl Fn(i64) -> f64) {
    let mut t = START;
    while t <= END {
        out.push_str(&format!("{metric}{{{labels}}} {} {t}\n", value(t)));
        t += 60;
    }
}

/// The synthetic data, and what it implies:
/// - cluster c1, pool gpu (1 A100 per node), two nodes for the whole window: 12 GPU-hours;
/// - node 0 runs at 0 % for the first three hours, then 80 %; node 1 at 50 % throughout: 3
///   idle GPU-hours (below 5 %), mean (180×0 + 180×80 + 360×50) / 720 = 45 %;
/// - a pod holds each GPU (dcgm-exporter's `pod` label) and requests it (kube-state-metrics):
///   12 allocated GPU-hours, of which node 0's 3 idle hours are allocated yet idle;
/// - framebuffer: node 0 uses 2,048 MiB with one 10,240 MiB spike at START+100 min, node 1 4,096:
///   a 10 GiB peak;
/// - XID 79 on node 1's GPU 0 from START+2 h to START+2 h 5 min; Node Problem Detector's
///   GPUXIDErrors on node 0 from START+4 h to START+4 h 10 min;
/// - pool t4 has no DCGM series (measured: false);
/// - cluster `other` in the same workspace has a node of the same name at 100 % and 70,000 MiB:
///   none of it may reach c1's figures.
fn openmetrics() -> String {
    let mut m = String::from("# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n");
    let gpu = |c: &str, n: &str, pod: &str| {
        format!("cluster=\"{c}\",Hostname=\"{n}\",gpu=\"0\",UUID=\"GPU-{n}\",modelName=\"NVIDIA A100 80GB PCIe\",namespace=\"ml\",pod=\"{pod}\"")
    };
    series(&mut m, "DCGM_FI_DEV_GPU_UTIL", &gpu("c1", NODE0, "train-0"), |t| {
        if t <= START + 3 * 3600 {
            0.0
        } else {
            80.0
        }
    });
    series(&mut m, "DCGM_FI_DEV_GPU_UTIL", &gpu("c1", NODE1, "serve-0"), |_| 50.0);
    series(&mut m, "DCGM_FI_DEV_GPU_UTIL", &gpu("other", NODE0, "x"), |_| 100.0);
    m.push_str("# TYPE DCGM_FI_DEV_FB_USED gauge\n");
    series(&mut m, "DCGM_FI_DEV_FB_USED", &gpu("c1", NODE0, "train-0"), |t| {
        if t == START + 6000 {
            10240.0
        } else {
            2048.0
        }
    });
    series(&mut m, "DCGM_FI_DEV_FB_USED", &gpu("c1", NODE1, "serve-0"), |_| 4096.0);
    series(&mut m, "DCGM_FI_DEV_FB_USED", &gpu("other", NODE0, "x"), |_| 70000.0);
    m.push_str("# TYPE DCGM_FI_DEV_XID_ERRORS gauge\n");
    series(&mut m, "DCGM_FI_DEV_XID_ERRORS", &gpu("c1", NODE0, "train-0"), |_| 0.0);
    series(&mut m, "DCGM_FI_DEV_XID_ERRORS", &gpu("c1", NODE1, "serve-0"), |t| {
        if (START + 7200..=START + 7500).contains(&t) {
            79.0
        } else {
            0.0
        }
    });
    series(&mut m, "DCGM_FI_DEV_XID_ERRORS", &gpu("other", NODE0, "x"), |_| 13.0);
    m.push_str("# TYPE kube_pod_container_resource_requests gauge\n");
    for (c, n, pod) in [("c1", NODE0, "train-0"), ("c1", NODE1, "serve-0"), ("other", NODE0, "x")] {
        let l = format!("cluster=\"{c}\",node=\"{n}\",namespace=\"ml\",pod=\"{pod}\",container=\"main\",resource=\"nvidia_com_gpu\",unit=\"integer\"");
        series(&mut m, "kube_pod_container_resource_requests", &l, |_| 1.0);
    }
    m.push_str("# TYPE kube_node_status_condition gauge\n");
    series(
        &mut m,
        "kube_node_status_condition",
        &format!("cluster=\"c1\",node=\"{NODE0}\",condition=\"GPUXIDErrors\",status=\"true\""),
        |t| {
            if (START + 14_400..=START + 15_000).contains(&t) {
                1.0
            } else {
                0.0
            }
        },
    );
    series(
        &mut m,
        "kube_node_status_condition",
        &format!("cluster=\"c1\",node=\"{NODE0}\",condition=\"Ready\",status=\"true\""),
        |_| 1.0,
    );
    m.push_str("# EOF\n");
    m
}

fn http_ok(url: &str) -> bool {
    let Some(addr) = url.strip_prefix("http://") else { return false };
    let Ok(mut s) = TcpStream::connect(addr) else { return false };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let _ = write!(s, "GET /-/ready HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    text.starts_with("HTTP/1.1 200")
}

/// Backfill the data into a fresh TSDB and start Prometheus on a free loopback port.
fn start(dir: &Path) -> Prom {
    let data = dir.join("data.om");
    std::fs::write(&data, openmetrics()).expect("write data");
    let tsdb: PathBuf = dir.join("tsdb");
    let out = Command::new("promtool")
        .args(["tsdb", "create-blocks-from", "openmetrics"])
        .arg(&data)
        .arg(&tsdb)
        .output()
        .expect("run promtool");
    assert!(out.status.success(), "promtool: {}", String::from_utf8_lossy(&out.stderr));
    let config = dir.join("prometheus.yml");
    std::fs::write(&config, "scrape_configs: []\n").expect("write config");
    let port = std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port();
    let url = format!("http://127.0.0.1:{port}");
    let child = Command::new("prometheus")
        .arg(format!("--config.file={}", config.display()))
        .arg(format!("--storage.tsdb.path={}", tsdb.display()))
        .arg(format!("--web.listen-address=127.0.0.1:{port}"))
        .arg("--storage.tsdb.retention.time=100y")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start prometheus");
    let prom = Prom { child, url };
    let until = Instant::now() + Duration::from_secs(30);
    while !http_ok(&prom.url) {
        assert!(Instant::now() < until, "prometheus did not become ready at {}", prom.url);
        std::thread::sleep(Duration::from_millis(100));
    }
    prom
}

/// The fake ARM cluster c1 with pools gpu (2 × A100) and t4 (1 × T4), managed Prometheus on,
/// and the discovery chain to `endpoint`.
fn arm(endpoint: &str) -> FakeArm {
    let f = FakeArm::start();
    f.edit_cluster("c1", |c| {
        c["properties"]["agentPoolProfiles"] = json!([
            {"name": "system", "vmSize": "Standard_D4ds_v5", "count": 2},
            {"name": "gpu", "vmSize": "Standard_NC24ads_A100_v4", "count": 2, "osType": "Linux"},
            {"name": "t4", "vmSize": "Standard_NC4as_T4_v3", "count": 1, "osType": "Linux"}
        ]);
        c["properties"]["azureMonitorProfile"] = json!({"metrics": {"enabled": true}});
    });
    let dcr =
        format!("/subscriptions/{SUB}/resourceGroups/rg/providers/Microsoft.Insights/dataCollectionRules/msprom-dcr");
    let amw = format!("/subscriptions/{SUB}/resourceGroups/rg/providers/Microsoft.Monitor/accounts/amw");
    f.with(|s| {
        s.resources.insert(
            format!("{}/providers/microsoft.insights/datacollectionruleassociations", cluster_path("c1")).to_ascii_lowercase(),
            json!({"value": [{"id": "a1", "properties": {"dataCollectionRuleId": dcr}}]}),
        );
        s.resources.insert(dcr.to_ascii_lowercase(), json!({"id": dcr, "properties": {"destinations": {"monitoringAccounts": [{"accountResourceId": amw, "name": "MonitoringAccount1"}]}}}));
        s.resources.insert(amw.to_ascii_lowercase(), json!({"name": "amw", "properties": {"metrics": {"prometheusQueryEndpoint": endpoint}}}));
    });
    f
}

fn pool<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["pools"]
        .as_array()
        .expect("pools")
        .iter()
        .find(|p| p["pool"] == name)
        .unwrap_or_else(|| panic!("no pool {name}: {v}"))
}

fn window() -> [&'static str; 4] {
    ["--start", "2026-11-01T00:00:00Z", "--end", "2026-11-01T06:00:00Z"]
}

#[test]
fn usage_measures_the_pools_from_a_real_prometheus() {
    if !require("prometheus and promtool (Debian package prometheus)", have("prometheus") && have("promtool")) {
        return;
    }
    let dir = temp_dir("usage-prom");
    let prom = start(&dir);
    let f = arm(&prom.url);
    let mut args = vec!["usage", "-g", "rg", "--cluster", "c1", "-o", "json"];
    args.extend(window());
    let r = aksgpu_arm(&f.base, &args, &[("AKSGPU_PROMETHEUS_TOKEN", PROM_TOKEN)]);
    assert_eq!(r.code, 0, "{}\n{}", r.stderr, r.stdout);
    let v = r.json();
    assert_eq!(v["window"], json!({"start": "2026-11-01T00:00:00Z", "end": "2026-11-01T06:00:00Z", "step": 60}));
    assert_eq!(v["queries"], 5, "at most 6 queries for the cluster");
    let g = pool(&v, "gpu");
    assert_eq!(g["measured"], true);
    let close = |k: &str, want: f64| {
        let got = g[k].as_f64().unwrap_or_else(|| panic!("{k} is {}", g[k]));
        assert!((got - want).abs() < 1e-6, "{k}: {got} != {want}");
    };
    close("gpu_hours", 2.0 * HOURS as f64);
    close("idle_gpu_hours", 3.0);
    close("allocated_gpu_hours", 2.0 * HOURS as f64);
    close("allocated_idle_gpu_hours", 3.0);
    close("mean_utilization_percent", (180.0 * 0.0 + 180.0 * 80.0 + 360.0 * 50.0) / 720.0);
    close("peak_memory_used_gib", 10240.0 / 1024.0);
    let price = bundled_linux_price("Standard_NC24ads_A100_v4", "eastus");
    close("idle_cost", (3.0 * price * 100.0).round() / 100.0);
    assert_eq!(g["currency"], "USD");
    let health = g["health"].as_array().expect("health");
    let at = |t: i64| aksgpu::fleet::usage::rfc3339(t);
    assert!(health.contains(&json!({"node": NODE1, "gpu": "0", "kind": "xid", "code": "79", "first_seen": at(START + 7200), "last_seen": at(START + 7500)})), "{health:?}");
    assert!(health.contains(&json!({"node": NODE0, "gpu": null, "kind": "condition", "code": "GPUXIDErrors", "first_seen": at(START + 14_400), "last_seen": at(START + 15_000)})), "{health:?}");
    assert_eq!(health.len(), 2, "only c1's events, only GPU conditions: {health:?}");
    // A quarter of the GPU-hours idle: stop in the idle hours saves that quarter of two GPUs a month.
    let advice = g["advice"].as_array().expect("advice");
    let stop = advice.iter().find(|a| a["rule"] == "stop-in-idle-hours").unwrap_or_else(|| panic!("{advice:?}"));
    let want = (price * 730.0 * 3.0 / HOURS as f64 * 100.0).round() / 100.0;
    assert!((stop["monthly_saving"].as_f64().unwrap_or(0.0) - want).abs() < 0.006, "{stop}");
    // 10 GiB × 1.2 = 12 GiB fits the A100's 2g.20gb slice (three a GPU).
    assert!(
        advice.iter().any(|a| a["rule"] == "mig-slice" && a["message"].as_str().is_some_and(|m| m.contains("2g.20gb"))),
        "{advice:?}"
    );
    // No DCGM series: not measured, never zero.
    let t4 = pool(&v, "t4");
    assert_eq!(t4["measured"], false);
    for k in ["gpu_hours", "idle_gpu_hours", "mean_utilization_percent", "peak_memory_used_gib", "idle_cost"] {
        assert_eq!(t4[k], Value::Null, "{k}");
    }
    assert!(t4["note"].as_str().is_some_and(|n| n.contains("dcgmexporter")), "{t4}");
    close_total(&v, "gpu_hours", 12.0);
    // The ARM token went to ARM only; the Prometheus token never reached ARM.
    for rec in f.log() {
        let auth = rec.headers.get("authorization").cloned().unwrap_or_default();
        assert_eq!(auth, format!("Bearer {TOKEN}"), "{}", rec.target);
    }
    // The table says the same.
    let mut args = vec!["usage", "-g", "rg", "--cluster", "c1"];
    args.extend(window());
    let t = aksgpu_arm(&f.base, &args, &[("AKSGPU_PROMETHEUS_TOKEN", PROM_TOKEN)]);
    assert_eq!(t.code, 0, "{}", t.stderr);
    assert!(
        t.stdout.contains("not measured") && t.stdout.contains("12.0") && t.stdout.contains("xid 79"),
        "{}",
        t.stdout
    );
    drop(prom);
}

fn close_total(v: &Value, k: &str, want: f64) {
    let got = v["totals"][k].as_f64().unwrap_or(f64::NAN);
    assert!((got - want).abs() < 1e-6, "totals.{k}: {got} != {want}");
}

/// Each token goes to its own host: the Prometheus host (here a second fake server) gets the
/// Prometheus token and never the ARM token; a discovered endpoint off Azure's domain is refused.
#[test]
fn tokens_stay_with_their_hosts_and_untrusted_endpoints_are_refused() {
    let prom = FakeArm::start();
    prom.fault(
        "GET",
        "/api/v1/query_range",
        100,
        respond(200, json!({"status": "success", "data": {"resultType": "matrix", "result": []}})),
    );
    let f = arm(&prom.base);
    let mut args = vec!["usage", "-g", "rg", "--cluster", "c1", "-o", "json"];
    args.extend(window());
    let r = aksgpu_arm(&f.base, &args, &[("AKSGPU_PROMETHEUS_TOKEN", PROM_TOKEN)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(pool(&r.json(), "gpu")["measured"], false, "an empty answer is not zero use");
    let sent = prom.log();
    assert_eq!(sent.len(), 5);
    for rec in &sent {
        assert_eq!(rec.headers.get("authorization").map(String::as_str), Some(format!("Bearer {PROM_TOKEN}").as_str()));
        assert!(rec.target.contains("cluster%3D%22c1%22") || rec.target.contains("cluster=%22c1%22"), "{}", rec.target);
    }
    assert!(f.log().iter().all(|x| !x.headers.values().any(|h| h.contains(PROM_TOKEN))));
    // Without AKSGPU_PROMETHEUS_TOKEN the static ARM token is never used for Prometheus.
    let none = aksgpu_arm(&f.base, &args, &[]);
    assert_eq!(none.code, 2, "{}", none.stderr);
    assert!(none.stderr.contains("AKSGPU_PROMETHEUS_TOKEN"), "{}", none.stderr);
    assert_eq!(prom.log().len(), 5, "nothing more reached the Prometheus host");
    // A discovered endpoint that is not *.prometheus.monitor.azure.com is refused (no token sent).
    let evil = arm("https://prometheus.monitor.azure.com.evil.example");
    let e = aksgpu_arm(&evil.base, &args, &[("AKSGPU_PROMETHEUS_TOKEN", PROM_TOKEN)]);
    assert_eq!(e.code, 0, "{}", e.stderr);
    let note = pool(&e.json(), "gpu")["note"].as_str().unwrap_or("").to_owned();
    assert!(note.contains("refusing to send it a token"), "{note}");
    // With every header logged, neither token reaches an output stream.
    let vv = aksgpu_arm(&f.base, &[&args[..], &["-vv"]].concat(), &[("AKSGPU_PROMETHEUS_TOKEN", PROM_TOKEN)]);
    assert_eq!(vv.code, 0, "{}", vv.stderr);
    assert!(vv.stderr.contains("query_range"), "the Prometheus requests are logged: {}", vv.stderr);
    for t in [PROM_TOKEN, TOKEN] {
        assert!(!vv.stderr.contains(t) && !vv.stdout.contains(t), "{t} leaked");
    }
}

/// `fleet --usage`: the fleet from Resource Graph, each cluster's workspace by the same
/// discovery chain, the same figures as `usage`.
#[test]
fn fleet_usage_measures_every_cluster() {
    if !require("prometheus and promtool (Debian package prometheus)", have("prometheus") && have("promtool")) {
        return;
    }
    let dir = temp_dir("fleet-usage-prom");
    let prom = start(&dir);
    let f = arm(&prom.url);
    let pools = f.with(|s| s.clusters.values().next().map(|c| c["properties"]["agentPoolProfiles"].clone()));
    let pools = pools.and_then(|p| p.as_array().cloned()).expect("pools");
    f.with(|s| s.graph.rows = vec![crate::fake_graph::cluster_row(SUB, "rg", "c1", "eastus", "Running", pools)]);
    let mut args = vec!["fleet", "--subscription", SUB, "--usage", "-o", "json"];
    args.extend(window());
    let r = aksgpu_arm(&f.base, &args, &[("AKSGPU_PROMETHEUS_TOKEN", PROM_TOKEN)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["pools"].as_array().map(Vec::len), Some(2), "the fleet view is there too");
    let u = &v["usage"];
    assert_eq!(u["queries"], 5);
    let g = pool(u, "gpu");
    assert_eq!((g["gpu_hours"].clone(), g["idle_gpu_hours"].clone()), (json!(12.0), json!(3.0)));
    assert_eq!(pool(u, "t4")["measured"], false);
    drop(prom);
}
