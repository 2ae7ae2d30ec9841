//! `apply -f` of pools that each fit the vCPU quota alone but not together: refused before the
//! first PUT (dry run and real run), exit 1 (refused), the message on stderr; `diff` says so;
//! with `--skip-preflight` Azure decides.

use crate::fake_arm::FakeArm;
use crate::support::{aksgpu_arm, temp_dir, Run};

/// Two A100 pools of one node: 24 vCPUs × (1 node + 1 surge) = 48 each.
const TWO_POOLS: &str = "apiVersion: aksgpu/v1
kind: GpuConfig
cluster: {resourceGroup: rg, name: c1}
pools:
  - name: gpua
    vmSize: Standard_NC24ads_A100_v4
    count: 1
  - name: gpub
    vmSize: Standard_NC24ads_A100_v4
    count: 1
";

/// The fake ARM with the A100 family's limit at 72 vCPUs: 48 fits, 96 does not.
fn arm() -> FakeArm {
    let arm = FakeArm::start();
    arm.with(|s| s.set_usage_limit("standardNCADSA100v4Family", 72));
    arm
}

fn apply(arm: &FakeArm, extra: &[&str]) -> Run {
    let dir = temp_dir("quota-together");
    let file = dir.join("gpu.yaml");
    std::fs::write(&file, TWO_POOLS).expect("write the GpuConfig");
    let f = file.to_str().expect("utf-8 path");
    aksgpu_arm(&arm.base, &[&["apply", "-f", f], extra].concat(), &[])
}

fn puts(arm: &FakeArm) -> usize {
    arm.calls().iter().filter(|(m, _)| m != "GET").count()
}

#[test]
fn pools_that_fit_alone_but_not_together_are_refused_before_any_put() {
    let arm = arm();
    let r = apply(&arm, &["--yes"]);
    assert_eq!(r.code, 1, "refused is exit 1\nstdout: {}\nstderr: {}", r.stdout, r.stderr);
    assert_eq!(puts(&arm), 0, "no write was sent: {:?}", arm.calls());
    assert!(arm.count("GET", "locations/eastus/usages") > 0, "the usages were read");
    insta::assert_snapshot!("apply-quota-together-stderr", r.stderr);

    // The dry run shows the same refusal, from the same reads.
    let arm = self::arm();
    let dry = apply(&arm, &["--dry-run", "-o", "json"]);
    assert_eq!(dry.code, 1, "{}", dry.stderr);
    assert_eq!(puts(&arm), 0);
    assert!(dry.stderr.contains("gpua 48 + gpub 48 = 96 vCPUs"), "{}", dry.stderr);
    assert!(dry.stderr.contains("--family standardNCADSA100v4Family --limit 96"), "{}", dry.stderr);
}

#[test]
fn skip_preflight_lets_azure_decide() {
    let arm = arm();
    let r = apply(&arm, &["--yes", "--skip-preflight", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let put = |p: &str| arm.count("PUT", &format!("/agentPools/{p}"));
    assert_eq!((put("gpua"), put("gpub")), (1, 1), "{:?}", arm.calls());
    // Its dry run says the preflight was skipped, and plans both PUTs.
    let arm = self::arm();
    let dry = apply(&arm, &["--dry-run", "--skip-preflight", "-o", "json"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert_eq!(dry.json()["preflight"], "skipped");
    let steps = dry.json()["steps"].as_array().expect("steps").clone();
    assert_eq!(steps.iter().filter(|s| s["method"] == "PUT").count(), 2);
}

#[test]
fn diff_says_apply_would_refuse() {
    let arm = arm();
    let dir = temp_dir("quota-together-diff");
    let file = dir.join("gpu.yaml");
    std::fs::write(&file, TWO_POOLS).expect("write the GpuConfig");
    let r = aksgpu_arm(&arm.base, &["diff", "-f", file.to_str().expect("utf-8 path")], &[]);
    assert_eq!(r.code, 1, "two pools would be created: {}", r.stderr);
    assert_eq!(puts(&arm), 0);
    assert!(
        r.stderr.contains("note: apply would refuse: not enough quota for the file's pools together"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("--limit 96"), "{}", r.stderr);
}
