//! az, kubectl and CI conventions through the binary: `--subscription NAME`, az defaults,
//! `-o tsv|none`, `--query`, `recommend -l a,b,c`, plain progress off a terminal, `-f -` and
//! `-f DIR`, `export --output-file`, and `-v` pairing answers with requests.

use std::process::{Command, Stdio};

use serde_json::json;

use crate::fake_arm::{FakeArm, SUB};
use crate::support::{aksgpu_arm, aksgpu_with, temp_dir, Run};

/// `--subscription` by display name: one paged GET of the subscriptions list, any case, then
/// every URL carries the id; an unknown name exits 2 naming the ones there are.
#[test]
fn a_subscription_name_is_resolved_with_the_subscriptions_list() {
    let arm = FakeArm::start();
    let r = aksgpu_arm(&arm.base, &["feature", "list", "--subscription", "ml production", "-o", "json"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let calls = arm.calls();
    let lists: Vec<_> = calls.iter().filter(|(m, p)| m == "GET" && p == "/subscriptions").collect();
    assert!(lists.len() >= 2, "the list is paged (page size 2, three subscriptions): {calls:?}");
    let rest: Vec<_> = calls.iter().filter(|(_, p)| p != "/subscriptions").collect();
    assert!(!rest.is_empty() && rest.iter().all(|(_, p)| p.contains(SUB)), "{calls:?}");

    let arm = FakeArm::start();
    let r = aksgpu_arm(&arm.base, &["feature", "list", "--subscription", "Nope"], &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--subscription \"Nope\": no subscription of that name"), "{}", r.stderr);
    assert!(r.stderr.contains("hint: pass an id, or one of: Dev/Test, Sandbox, ML Production"), "{}", r.stderr);
    assert!(arm.calls().iter().all(|(_, p)| p == "/subscriptions"), "{:?}", arm.calls());
}

/// Two subscriptions with one name: refused, with both ids.
#[test]
fn an_ambiguous_subscription_name_is_refused() {
    let arm = FakeArm::start();
    arm.with(|s| {
        s.subscriptions.push(crate::fake_arm::subscription("33333333-4444-5555-6666-777777777777", "Sandbox"))
    });
    let r = aksgpu_arm(&arm.base, &["feature", "list", "--subscription", "Sandbox"], &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("2 subscriptions have that name") && r.stderr.contains("33333333-"), "{}", r.stderr);
}

fn pool_scale_dry_run(env: &[(&str, &str)], extra: &[&str]) -> Run {
    let mut args = vec!["pool", "scale", "--cluster", "c1", "-n", "gpu", "-c", "2", "--dry-run", "-o", "json"];
    args.extend_from_slice(extra);
    aksgpu_with(&args, env)
}

/// `-g` and `-l` come from AZURE_DEFAULTS_* or az's config file, a note says which, and a
/// typed flag wins.
#[test]
fn az_defaults_fill_group_and_location_and_say_where_from() {
    let r = pool_scale_dry_run(&[("AZURE_DEFAULTS_GROUP", "rg-env")], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("/resourceGroups/rg-env/"), "{}", r.stdout);
    assert!(r.stderr.contains("note: -g rg-env (from AZURE_DEFAULTS_GROUP)"), "{}", r.stderr);

    let dir = temp_dir("az-config");
    std::fs::write(
        dir.join("config"),
        "[cloud]\nname = AzureCloud\n\n[defaults]\ngroup = rg-file\nlocation = northeurope\n",
    )
    .expect("config");
    let cfg = dir.to_str().expect("path");
    let r = pool_scale_dry_run(&[("AZURE_CONFIG_DIR", cfg)], &[]);
    assert!(r.stdout.contains("/resourceGroups/rg-file/"), "{}", r.stdout);
    assert!(
        r.stderr.contains("note: -g rg-file (from group in [defaults] of ") && r.stderr.contains("config)"),
        "{}",
        r.stderr
    );
    let typed = pool_scale_dry_run(&[("AZURE_CONFIG_DIR", cfg)], &["-g", "rg-typed"]);
    assert!(
        typed.stdout.contains("/resourceGroups/rg-typed/") && !typed.stderr.contains("note: -g"),
        "{}",
        typed.stderr
    );

    let rec = aksgpu_with(&["recommend", "--model", "llama-3.1-8b", "-o", "json"], &[("AZURE_CONFIG_DIR", cfg)]);
    assert_eq!(rec.code, 0, "{}", rec.stderr);
    assert_eq!(rec.json()["requirements"]["region"], "northeurope");
    assert!(rec.stderr.contains("note: -l northeurope (from location in [defaults]"), "{}", rec.stderr);
    // Without any default, -g stays required.
    let none = pool_scale_dry_run(&[], &[]);
    assert_eq!(none.code, 2, "{}", none.stderr);
    assert!(none.stderr.contains("--resource-group"), "{}", none.stderr);
}

/// `-o tsv`, `-o none` and `--query` as az has them; a bad query is a usage error.
#[test]
fn tsv_none_and_query() {
    let env: [(&str, &str); 0] = [];
    let first = aksgpu_with(
        &["recommend", "--model", "llama-3.1-8b", "--query", "recommendations[0].vm_size", "-o", "tsv"],
        &env,
    );
    assert_eq!(first.code, 0, "{}", first.stderr);
    let json = aksgpu_with(&["recommend", "--model", "llama-3.1-8b", "-o", "json"], &env).json();
    assert_eq!(first.stdout.trim(), json["recommendations"][0]["vm_size"].as_str().expect("size"));
    let rows = aksgpu_with(&["catalog", "list", "--gpu-model", "A100", "-o", "tsv"], &env);
    let line = rows.stdout.lines().next().expect("a row");
    assert!(line.starts_with("Standard_") && line.contains('\t'), "{}", rows.stdout);
    let none = aksgpu_with(&["recommend", "--model", "llama-3.1-8b", "-o", "none"], &env);
    assert_eq!((none.code, none.stdout.as_str()), (0, ""), "{}", none.stderr);
    let q = aksgpu_with(&["catalog", "list", "--gpu-model", "A100", "--query", "[].{size: name}", "-o", "json"], &env);
    assert!(
        q.json().as_array().is_some_and(|a| !a.is_empty() && a.iter().all(|r| r["size"].is_string())),
        "{}",
        q.stdout
    );
    let bad = aksgpu_with(&["recommend", "--query", "[?", "--model", "llama-3.1-8b"], &env);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("--query"), "{}", bad.stderr);
}

/// `-l a,b,c` prices each size in the cheapest of those regions only: the top result costs
/// no more than the cheapest single-region answer, and every result is in the list.
#[test]
fn recommend_picks_the_cheapest_of_several_regions() {
    let env: [(&str, &str); 0] = [];
    let regions = ["westeurope", "northeurope", "swedencentral"];
    let top = |l: &str| {
        let v = aksgpu_with(&["recommend", "--model", "llama-3.1-70b", "-l", l, "-o", "json"], &env).json();
        let r = v["recommendations"][0].clone();
        (r["vm_size"].as_str().unwrap_or_default().to_owned(), r["price_per_hour"].as_f64().unwrap_or(f64::MAX), v)
    };
    let (_, multi_price, v) = top(&regions.join(","));
    for r in v["recommendations"].as_array().expect("list") {
        assert!(regions.contains(&r["price_region"].as_str().unwrap_or("")), "{r}");
    }
    let best_single = regions.iter().map(|r| top(r).1).fold(f64::MAX, f64::min);
    assert!(multi_price <= best_single + 1e-9, "{multi_price} > {best_single}");
    assert!(v.to_string().contains("cheapest of westeurope, northeurope, swedencentral"), "{v}");
}

/// Off a terminal a long wait prints one plain line per state and a "still …" line whenever
/// the interval passes in silence (AKSGPU_PROGRESS_INTERVAL shortens the minute for the test).
#[test]
fn progress_off_a_terminal_is_plain_lines_with_a_heartbeat() {
    let arm = FakeArm::start();
    // Real waits (the schedule's 2 s, then 4 s): one poll answers InProgress, the next Succeeded.
    arm.with(|s| s.op_statuses = vec!["InProgress".into(), "Succeeded".into()]);
    let args = [
        "pool",
        "create",
        "-g",
        "rg",
        "--cluster",
        "c1",
        "-n",
        "gpu",
        "-s",
        "Standard_NC24ads_A100_v4",
        "-c",
        "1",
        "--yes",
    ];
    let r = aksgpu_arm(&arm.base, &args, &[("AKSGPU_TEST_NO_RETRY_DELAY", "0"), ("AKSGPU_PROGRESS_INTERVAL", "0.4")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("InProgress (")).count(),
        1,
        "one line per state change: {lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("still InProgress (")), "no heartbeat: {lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("Succeeded (")), "{lines:?}");
    assert!(!r.stderr.contains('\r') && !r.stderr.contains('\u{1b}'), "spinner drawing off a terminal: {:?}", r.stderr);
}

/// `-v` numbers each request, and the answer carries the same number (and, with -vv, the
/// request line), so concurrent requests can be told apart.
#[test]
fn verbose_pairs_each_answer_with_its_request() {
    let arm = FakeArm::start();
    let r = aksgpu_arm(&arm.base, &["feature", "list", "-vv"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let sent: Vec<&str> = r.stderr.lines().filter(|l| l.starts_with("→ #")).collect();
    assert!(sent.len() >= 2, "{}", r.stderr);
    for line in sent {
        let (n, rest) = line.trim_start_matches("→ ").split_once(' ').expect("number");
        let what = rest.split(" (attempt").next().expect("request");
        let answer = format!("← {n} {what}: ");
        assert!(r.stderr.contains(&answer), "no answer paired with {line:?} ({answer:?}):\n{}", r.stderr);
    }
    let debug = aksgpu_arm(&arm.base, &["feature", "list", "--debug"], &[]);
    assert!(debug.stderr.contains("x-ms-client-request-id"), "--debug logs as -vv: {}", debug.stderr);
}

fn gpuconfig() -> String {
    "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n  - name: gpu\n    vmSize: Standard_NC4as_T4_v3\n    count: 1\n".to_owned()
}

/// `-f -` reads stdin; `-f DIR` reads each *.yaml there in name order.
#[test]
fn diff_reads_stdin_and_directories() {
    let arm = FakeArm::start();
    let file = temp_dir("f-stdin").join("c.yaml");
    std::fs::write(&file, gpuconfig()).expect("write");
    let from_file = aksgpu_arm(&arm.base, &["diff", "-f", file.to_str().expect("path"), "-o", "json"], &[]);
    assert_eq!(from_file.code, 1, "the pool would be created: {}", from_file.stderr);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_aksgpu"));
    cmd.args(["diff", "-f", "-", "-o", "json"]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    for (k, _) in std::env::vars().filter(|(k, _)| k.starts_with("AZURE_") || k.starts_with("AKSGPU_")) {
        cmd.env_remove(k);
    }
    for (k, v) in crate::support::arm_env(&arm.base) {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("spawn");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), gpuconfig().as_bytes()).expect("feed");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(from_file.code), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), from_file.stdout);

    let dir = temp_dir("f-dir");
    std::fs::write(dir.join("a.yaml"), gpuconfig()).expect("a");
    std::fs::write(dir.join("b.yaml"), gpuconfig()).expect("b");
    std::fs::write(dir.join("notes.txt"), "not a config").expect("txt");
    let both = aksgpu_arm(&arm.base, &["diff", "-f", dir.to_str().expect("path")], &[]);
    let a = both.stderr.find("a.yaml").expect("a.yaml named");
    let b = both.stderr.find("b.yaml").unwrap_or_else(|| panic!("b.yaml not named: {}", both.stderr));
    assert!(a < b && !both.stderr.contains("notes.txt"), "{}", both.stderr);
    assert_eq!(both.code, 1, "{}", both.stderr);
    assert!(both.stderr.contains("2 of 2 resource(s) would change"), "{}", both.stderr);
    let empty = temp_dir("f-empty");
    let r = aksgpu_arm(&arm.base, &["diff", "-f", empty.to_str().expect("path")], &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// `export` writes stdout by default; `--output-file` refuses an existing file (before any
/// read) unless `--force`, and then replaces it whole.
#[test]
fn export_refuses_to_overwrite_without_force() {
    let arm = FakeArm::start();
    arm.put_pool(
        "c1",
        "gpu",
        json!({"name": "gpu", "properties": {"vmSize": "Standard_NC24ads_A100_v4", "count": 1,
        "mode": "User", "provisioningState": "Succeeded"}}),
    );
    let stdout = aksgpu_arm(&arm.base, &["export", "-g", "rg", "--cluster", "c1"], &[]);
    assert_eq!(stdout.code, 0, "{}", stdout.stderr);
    assert!(stdout.stdout.contains("Standard_NC24ads_A100_v4"), "{}", stdout.stdout);
    let out = temp_dir("export-force").join("gpu.yaml");
    std::fs::write(&out, "# hand-written\n").expect("write");
    let path = out.to_str().expect("path");
    let calls = arm.calls().len();
    let refused = aksgpu_arm(&arm.base, &["export", "-g", "rg", "--cluster", "c1", "--output-file", path], &[]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("exists") && refused.stderr.contains("--force"), "{}", refused.stderr);
    assert_eq!(std::fs::read_to_string(&out).expect("read"), "# hand-written\n");
    assert_eq!(arm.calls().len(), calls, "read Azure before refusing");
    let forced =
        aksgpu_arm(&arm.base, &["export", "-g", "rg", "--cluster", "c1", "--output-file", path, "--force"], &[]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert_eq!(std::fs::read_to_string(&out).expect("read"), stdout.stdout);
    let leftovers = std::fs::read_dir(out.parent().expect("dir")).expect("list").count();
    assert_eq!(leftovers, 1, "a temporary file was left behind");
}

/// az's names for create-pool reach the request body: `--priority Spot`, `--zones 1 2 3`,
/// `--labels a=b c=d`, `--os-type LINUX`, `--node-osdisk-type`.
#[test]
fn az_flag_names_reach_the_pool_body() {
    let arm = FakeArm::start();
    let args = [
        "pool",
        "create",
        "-g",
        "rg",
        "--cluster-name",
        "c1",
        "-n",
        "gpu",
        "-s",
        "Standard_NC24ads_A100_v4",
        "-c",
        "1",
        "--priority",
        "Spot",
        "--zones",
        "1",
        "2",
        "3",
        "--labels",
        "team=ml",
        "tier=gpu",
        "--os-type",
        "LINUX",
        "--node-osdisk-type",
        "Managed",
        "--dry-run",
        "-o",
        "json",
    ];
    let r = aksgpu_arm(&arm.base, &args, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    let put = v["steps"].as_array().expect("steps").iter().find(|s| s["method"] == "PUT").expect("PUT").clone();
    let p = &put["body"]["properties"];
    assert_eq!(p["scaleSetPriority"], "Spot");
    assert_eq!(p["availabilityZones"], json!(["1", "2", "3"]));
    assert_eq!(p["nodeLabels"], json!({"team": "ml", "tier": "gpu"}));
    assert_eq!(p["osType"], "Linux");
    assert_eq!(p["osDiskType"], "Managed");
}

/// One canonical flag per setting: wherever a command takes a location it is `--location`
/// (`-l`), with az's `--region` as its alias; the Kubernetes version is `--kubernetes-version`
/// with `--k8s-version` as its alias. No command spells either setting another way first.
#[test]
fn every_location_is_dash_dash_location_with_region_as_its_alias() {
    use clap::CommandFactory;
    fn walk(cmd: &clap::Command, path: &str, found: &mut Vec<String>, bad: &mut Vec<String>) {
        for arg in cmd.get_arguments() {
            let long = arg.get_long().unwrap_or_default();
            let aliases: Vec<&str> = arg.get_visible_aliases().unwrap_or_default();
            match long {
                "location" => {
                    found.push(path.to_owned());
                    if arg.get_short() != Some('l') || !aliases.contains(&"region") {
                        bad.push(format!("{path}: --location without -l or the --region alias"));
                    }
                }
                "kubernetes-version" if !aliases.contains(&"k8s-version") => {
                    bad.push(format!("{path}: --kubernetes-version without the --k8s-version alias"))
                }
                "region" | "k8s-version" => bad.push(format!("{path}: --{long} is canonical")),
                _ => {}
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, &format!("{path} {}", sub.get_name()), found, bad);
        }
    }
    let (mut found, mut bad) = (Vec::new(), Vec::new());
    walk(&aksgpu::cli::Cli::command(), "aksgpu", &mut found, &mut bad);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    for must in [
        "aksgpu quota show",
        "aksgpu quota request",
        "aksgpu prices refresh",
        "aksgpu catalog diff",
        "aksgpu recommend",
    ] {
        assert!(found.iter().any(|f| f == must), "{must} takes no --location: {found:?}");
    }
}

/// `quota show` takes `--location`, `-l` and `--region` alike (the flag was `--location` only).
#[test]
fn quota_takes_location_dash_l_and_region() {
    let arm = FakeArm::start();
    let mut answers = Vec::new();
    for flag in ["--location", "-l", "--region"] {
        let r = aksgpu_arm(&arm.base, &["quota", "show", flag, "eastus", "--subscription", SUB, "-o", "json"], &[]);
        assert_eq!(r.code, 0, "{flag}: {}", r.stderr);
        answers.push(r.stdout);
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
}
