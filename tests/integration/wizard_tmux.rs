//! The prompts in a real terminal: tmux runs the binary, send-keys answers, capture-pane reads
//! the screen and `#{cursor_flag}` says whether the cursor is shown. `.ci/run` installs tmux;
//! without it these tests fail under CI=true, and elsewhere say on stderr that they did not run.
//! The last test checks the no-terminal side of the create-pool question without tmux.

use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::fake_arm::{cluster_path, FakeArm};

/// tmux on the session's own server (`-L NAME`): tests start sessions in parallel, and two
/// `new-session` calls racing to start one shared server make one of them fail.
fn tmux(socket: &str, args: &[&str]) -> String {
    let out = Command::new("tmux").args(["-L", socket]).args(args).output().expect("run tmux");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn has_tmux() -> bool {
    let has = Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success());
    crate::support::require("tmux (for the real-terminal tests)", has)
}

/// A tmux session running `aksgpu ARGS` (then `echo EXIT=$?`), killed when dropped.
struct Session(String);

impl Session {
    /// `env` is passed with `env -i`, so nothing of the host's Azure setup leaks in.
    fn start(tag: &str, args: &str, env: &[(&str, &str)]) -> Session {
        let name = format!("aksgpu-{tag}-{}", std::process::id());
        let bin = env!("CARGO_BIN_EXE_aksgpu");
        let vars: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let cmd = format!(
            "env -i TERM=xterm-256color HOME=/nonexistent-aksgpu-home {} {bin} {args}; echo EXIT=$?; sleep 60",
            vars.join(" ")
        );
        let status = Command::new("tmux")
            .args(["-L", &name, "new-session", "-d", "-s", &name, "-x", "200", "-y", "60", &cmd])
            .status()
            .expect("start tmux");
        assert!(status.success());
        Session(name)
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", &self.0];
        args.extend_from_slice(keys);
        tmux(&self.0, &args);
    }

    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = tmux(&self.0, &["capture-pane", "-p", "-t", &self.0]);
            if screen.contains(text) {
                return screen;
            }
            assert!(start.elapsed() < Duration::from_secs(20), "timed out waiting for {text:?}; screen:\n{screen}");
            sleep(Duration::from_millis(100));
        }
    }

    fn cursor_shown(&self) -> bool {
        tmux(&self.0, &["display-message", "-p", "-t", &self.0, "#{cursor_flag}"]).trim() == "1"
    }

    /// Wait until the prompt has hidden the cursor (dialoguer draws the question first).
    fn wait_cursor_hidden(&self) {
        let start = Instant::now();
        while self.cursor_shown() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the prompt never hid the cursor (else the test proves nothing)"
            );
            sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        tmux(&self.0, &["kill-server"]);
    }
}

#[test]
fn wizard_asks_and_recommends_in_a_real_terminal() {
    if !has_tmux() {
        return;
    }
    let s = Session::start("wizard", "recommend --top 2", &[]);
    s.wait_for("What will the GPUs run?");
    s.keys(&["Enter"]);
    s.wait_for("Model (alias");
    s.keys(&["no-such-model", "Enter"]);
    s.wait_for("unknown model");
    s.keys(&["C-u", "llama-3.1-8b", "Enter"]);
    // The service-level questions are optional: Enter skips each.
    for q in ["Concurrent users", "Output tokens/s each user", "Longest time to first token"] {
        s.wait_for(q);
        s.keys(&["Enter"]);
    }
    s.wait_for("Node OS");
    s.keys(&["Enter"]);
    s.wait_for("spot");
    s.keys(&["n"]);
    s.wait_for(MANAGED);
    s.keys(&["n"]);
    let screen = s.wait_for("EXIT=");
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert!(!screen.contains("As an AKS-managed GPU pool"), "not asked for: {screen}");
    assert!(screen.contains("1  Standard_NC16ads_A10_v4"), "{screen}");
    // The answer ends with what the top pick costs, per hour and per month, with the date.
    assert!(screen.contains("Cost (list prices, 730 h a month):"), "{screen}");
    assert!(screen.contains("top pick: $") && screen.contains("bundled price of 2026-06-18"), "{screen}");
}

/// Flags given with the wizard are kept (`--precision`, `--max-price-per-hour`) and not asked
/// again (`--os`, `--spot`).
#[test]
fn wizard_keeps_the_flags_given_and_asks_only_the_rest() {
    if !has_tmux() {
        return;
    }
    // int4 Llama 8B on spot: the T4 sizes lead at $0.06 and $0.08 an hour (bundled catalog);
    // the price cap leaves only the first.
    let s = Session::start(
        "wizard-flags",
        "recommend --top 2 --precision int4 --max-price-per-hour 0.07 --spot --os linux",
        &[],
    );
    s.wait_for("What will the GPUs run?");
    s.keys(&["Enter"]);
    s.wait_for("Model (alias");
    s.keys(&["llama-3.1-8b", "Enter"]);
    for q in ["Concurrent users", "Output tokens/s each user", "Longest time to first token"] {
        s.wait_for(q);
        s.keys(&["Enter"]);
    }
    s.wait_for(MANAGED);
    s.keys(&["n"]);
    let screen = s.wait_for("EXIT=");
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert!(!screen.contains("Node OS"), "--os was asked again:\n{screen}");
    assert!(!screen.contains("Use spot VMs"), "--spot was asked again:\n{screen}");
    assert!(screen.contains("· int4 ·") && screen.contains("· linux · spot"), "{screen}");
    assert!(screen.contains("1  Standard_NC4as_T4_v3"), "{screen}");
    assert!(!screen.contains("2  Standard_"), "--max-price-per-hour 0.07 was dropped:\n{screen}");
}

/// For inference with a model the wizard asks the service level (users, per-user speed, first
/// token; a bad answer is asked again) and answers with the serving figures for it.
#[test]
fn wizard_asks_the_service_level_for_inference() {
    if !has_tmux() {
        return;
    }
    let s = Session::start("wizard-serving", "recommend --top 2 --os linux", &[]);
    s.wait_for("What will the GPUs run?");
    s.keys(&["Enter"]);
    s.wait_for("Model (alias");
    s.keys(&["llama-3.1-8b", "Enter"]);
    s.wait_for("Concurrent users");
    s.keys(&["16", "Enter"]);
    s.wait_for("Output tokens/s each user");
    s.keys(&["30", "Enter"]);
    s.wait_for("Longest time to first token");
    s.keys(&["soon", "Enter"]);
    s.wait_for("is not a latency");
    s.keys(&["C-u", "2s", "Enter"]);
    s.wait_for("spot");
    s.keys(&["n"]);
    s.wait_for(MANAGED);
    s.keys(&["n"]);
    let screen = s.wait_for("EXIT=");
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert!(screen.contains("16 sequences in flight"), "{screen}");
    assert!(screen.contains("≥ 30 tokens/s per user") && screen.contains("first token ≤ 2 s"), "{screen}");
    assert!(screen.contains("TOK/S/USER") && screen.contains("TTFT") && screen.contains("$/M TOK"), "{screen}");
}

/// The wizard's managed-GPU question (Linux only).
const MANAGED: &str = "an AKS-managed GPU pool; NVIDIA sizes)?";

/// On Linux the wizard asks whether AKS should manage the GPU stack; "yes" maps into the pool
/// request `create-pool --managed-gpu` makes, checked by its rules, and the answer ends with
/// that command for the first NVIDIA size. On Windows it is not asked (NVIDIA on Linux only).
#[test]
fn wizard_asks_for_an_aks_managed_gpu_pool_on_linux() {
    if !has_tmux() {
        return;
    }
    let s = Session::start("wizard-managed", "recommend --top 2 --os linux", &[]);
    s.wait_for("What will the GPUs run?");
    s.keys(&["Enter"]);
    s.wait_for("Model (alias");
    s.keys(&["llama-3.1-8b", "Enter"]);
    for q in ["Concurrent users", "Output tokens/s each user", "Longest time to first token"] {
        s.wait_for(q);
        s.keys(&["Enter"]);
    }
    s.wait_for("spot");
    s.keys(&["n"]);
    s.wait_for(MANAGED);
    s.keys(&["y"]);
    let screen = s.wait_for("EXIT=");
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert!(screen.contains("As an AKS-managed GPU pool (preview feature ManagedGPUExperiencePreview"), "{screen}");
    assert!(
        screen.contains("--name gpu --vm-size Standard_NC16ads_A10_v4 --count 1 --managed-gpu --register-features`"),
        "{screen}"
    );

    let s = Session::start("wizard-managed-win", "recommend --top 2 --os windows --k8s-version 1.32 --spot", &[]);
    s.wait_for("What will the GPUs run?");
    s.keys(&["Down", "Down", "Down", "Down", "Down", "Down", "Enter"]);
    s.wait_for("Minimum GPU memory");
    s.keys(&["Enter"]);
    let screen = s.wait_for("EXIT=");
    assert!(!screen.contains(MANAGED) && !screen.contains("As an AKS-managed GPU pool"), "asked on Windows:\n{screen}");
}

/// Ctrl-C in a selection prompt (which hides the cursor) exits 130 with the cursor shown.
#[test]
fn ctrl_c_in_the_wizard_restores_the_cursor() {
    if !has_tmux() {
        return;
    }
    let s = Session::start("wizard-ctrl-c", "recommend", &[]);
    s.wait_for("What will the GPUs run?");
    s.wait_cursor_hidden();
    s.keys(&["C-c"]);
    let screen = s.wait_for("EXIT=");
    assert!(screen.contains("EXIT=130"), "{screen}");
    assert!(s.cursor_shown(), "the cursor is still hidden after Ctrl-C:\n{screen}");
}

/// A fake ARM server and `create-pool` started on a terminal against it; `None` (the test
/// returns) when tmux is missing, which fails under CI.
fn create_pool_session(tag: &str) -> Option<(FakeArm, Session)> {
    if !has_tmux() {
        return None;
    }
    let arm = FakeArm::start();
    let s = create_pool_terminal(&arm, tag);
    Some((arm, s))
}

fn create_pool_terminal(arm: &FakeArm, tag: &str) -> Session {
    let env = [
        ("AKSGPU_ARM_ENDPOINT", arm.base.as_str()),
        ("AKSGPU_ACCESS_TOKEN", crate::fake_arm::TOKEN),
        ("AZURE_SUBSCRIPTION_ID", crate::fake_arm::SUB),
        ("AKSGPU_TEST_NO_RETRY_DELAY", "1"),
    ];
    Session::start(tag, "create-pool -g rg --cluster c1 --name gpu --vm-size Standard_NC24ads_A100_v4", &env)
}

/// On a terminal create-pool asks after preflight, with the price in the cluster's region
/// (eastus, read from the cluster); "no" writes nothing and exits 1.
#[test]
fn create_pool_asks_after_preflight_with_the_regions_price() {
    let Some((arm, s)) = create_pool_session("confirm-no") else { return };
    let screen = s.wait_for("Create pool gpu");
    assert!(arm.count("GET", &cluster_path("c1")) >= 1, "asked before preflight: {:?}", arm.calls());
    assert_eq!(arm.count("PUT", "/"), 0);
    assert!(screen.contains("per hour at 1 node(s), linux on-demand in eastus"), "{screen}");
    assert!(!screen.contains("unknown"), "{screen}");
    s.keys(&["n"]);
    let screen = s.wait_for("EXIT=");
    assert!(screen.contains("not confirmed; nothing was changed"), "{screen}");
    assert!(screen.contains("EXIT=1\n"), "\"no\" exits 1, not 130 (Ctrl-C): {screen}");
    assert_eq!(arm.count("PUT", "/"), 0, "{:?}", arm.calls());
}

/// "yes" creates the pool once, without reading the preflight facts a second time.
#[test]
fn create_pool_yes_on_a_terminal_creates_once() {
    let Some((arm, s)) = create_pool_session("confirm-yes") else { return };
    s.wait_for("Create pool gpu");
    let reads = arm.count("GET", "/");
    s.keys(&["y"]);
    let screen = s.wait_for("EXIT=");
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert_eq!(arm.count("PUT", "/agentPools/gpu"), 1, "{:?}", arm.calls());
    let skus_after = arm.calls().iter().skip(reads).filter(|(m, p)| m == "GET" && p.contains("/skus")).count();
    assert_eq!(skus_after, 0, "preflight ran twice: {:?}", arm.calls());
}

/// Ctrl-C at the create-pool question: exit 130, nothing written, the cursor shown again.
#[test]
fn ctrl_c_at_the_create_pool_question_writes_nothing() {
    let Some((arm, s)) = create_pool_session("confirm-ctrl-c") else { return };
    s.wait_for("Create pool gpu");
    s.wait_cursor_hidden();
    s.keys(&["C-c"]);
    let screen = s.wait_for("EXIT=");
    assert!(screen.contains("EXIT=130"), "{screen}");
    assert!(s.cursor_shown(), "the cursor is still hidden after Ctrl-C:\n{screen}");
    assert_eq!(arm.count("PUT", "/"), 0, "{:?}", arm.calls());
}

/// The other side: without a terminal, create-pool needs --yes (exit 2) and reads nothing.
#[test]
fn create_pool_without_a_terminal_needs_yes_and_sends_nothing() {
    let arm = FakeArm::start();
    let args = ["create-pool", "-g", "rg", "--cluster", "c1", "--name", "gpu", "--vm-size", "Standard_NC24ads_A100_v4"];
    let r = crate::support::aksgpu_arm(&arm.base, &args, &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("without a terminal it needs --yes") && r.stderr.contains("--dry-run"), "{}", r.stderr);
    assert!(arm.log().is_empty(), "{:?}", arm.calls());
}

/// A session running `aksgpu ARGS` against `arm` with a test token.
fn arm_session(arm: &FakeArm, tag: &str, args: &str) -> Session {
    let env = [
        ("AKSGPU_ARM_ENDPOINT", arm.base.as_str()),
        ("AKSGPU_ACCESS_TOKEN", crate::fake_arm::TOKEN),
        ("AZURE_SUBSCRIPTION_ID", crate::fake_arm::SUB),
        ("AKSGPU_TEST_NO_RETRY_DELAY", "1"),
    ];
    Session::start(tag, args, &env)
}

/// The writes that used to go out unasked now ask on a terminal: "no" exits 1 and sends
/// nothing; "yes" sends the one write.
#[test]
fn every_write_asks_on_a_terminal() {
    if !has_tmux() {
        return;
    }
    let cases = [
        ("stop", "cluster stop -g rg --cluster c1", "Stop cluster c1", "POST", "/stop"),
        ("kaito", "kaito enable -g rg --cluster c1", "Enable KAITO", "PUT", "/managedClusters/c1"),
        ("costa", "cost-analysis enable -g rg --cluster c1", "Enable cost analysis", "PUT", "/managedClusters/c1"),
        (
            "scale",
            "pool scale -g rg --cluster c1 -n gpu -c 2",
            "Scale pool gpu of cluster c1 to 2 node(s)",
            "PUT",
            "/agentPools/gpu",
        ),
        (
            "quota",
            "quota request --location eastus --family standardNCADSA100v4Family --limit 200",
            "Ask Azure to raise the standardNCADSA100v4Family vCPU limit in eastus to 200?",
            "PUT",
            "/quotas/standardNCADSA100v4Family",
        ),
    ];
    for (tag, args, question, method, path) in cases {
        let arm = FakeArm::start();
        put_gpu_pool(&arm);
        let no = arm_session(&arm, &format!("{tag}-no"), args);
        no.wait_for(question);
        no.keys(&["n"]);
        let screen = no.wait_for("EXIT=");
        assert!(screen.contains("not confirmed; nothing was changed") && screen.contains("EXIT=1\n"), "{screen}");
        assert_eq!(arm.count(method, path), 0, "{args}: {:?}", arm.calls());
        assert!(arm.calls().is_empty(), "{args}: read before asking: {:?}", arm.calls());
        let yes = arm_session(&arm, &format!("{tag}-yes"), args);
        yes.wait_for(question);
        yes.keys(&["y"]);
        let screen = yes.wait_for("EXIT=");
        assert!(screen.contains("EXIT=0"), "{args}: {screen}");
        assert_eq!(arm.count(method, path), 1, "{args}: {:?}", arm.calls());
    }
}

/// Without a terminal the same writes need --yes (exit 2) and send nothing.
#[test]
fn every_write_needs_yes_without_a_terminal() {
    let arm = FakeArm::start();
    put_gpu_pool(&arm);
    for args in [
        &["cluster", "stop", "-g", "rg", "--cluster", "c1"][..],
        &["cluster", "start", "-g", "rg", "--cluster", "c1"],
        &["kaito", "enable", "-g", "rg", "--cluster", "c1"],
        &["cost-analysis", "enable", "-g", "rg", "--cluster", "c1"],
        &["pool", "scale", "-g", "rg", "--cluster", "c1", "-n", "gpu", "-c", "2"],
        &["pool", "create", "-g", "rg", "--cluster", "c1", "-n", "gpu", "-s", "Standard_NC24ads_A100_v4"],
        &["install-operator", "-g", "rg", "--cluster", "c1"],
        &["feature", "register", "WindowsGPUPreview"],
        &["register-feature", "WindowsGPUPreview"],
        &["quota", "request", "--location", "eastus", "--family", "standardNCADSA100v4Family", "--limit", "200"],
        &["quota", "request", "--location", "eastus", "--vm-size", "Standard_NC24ads_A100_v4", "--nodes", "2"],
    ] {
        let r = crate::support::aksgpu_arm(&arm.base, args, &[]);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("without a terminal it needs --yes"), "{args:?}: {}", r.stderr);
    }
    assert!(arm.log().is_empty(), "{:?}", arm.calls());
}

/// A 3-node A100 pool `gpu` in `c1`.
fn put_gpu_pool(arm: &FakeArm) {
    let body = serde_json::json!({"id": crate::fake_arm::pool_path("c1", "gpu"), "name": "gpu", "properties": {
        "vmSize": "Standard_NC24ads_A100_v4", "count": 3, "mode": "User", "nodeTaints": ["sku=gpu:NoSchedule"],
        "provisioningState": "Succeeded"}});
    arm.put_pool("c1", "gpu", body);
}

/// Ctrl-C at `apply`'s confirmation exits 130, as at create-pool's, and writes nothing.
#[test]
fn ctrl_c_at_the_apply_question_exits_130_and_writes_nothing() {
    if !has_tmux() {
        return;
    }
    let arm = FakeArm::start();
    let dir = crate::support::temp_dir("apply-ctrl-c");
    let file = dir.join("gpu.yaml");
    let text = "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n  - name: gpu\n    vmSize: Standard_NC4as_T4_v3\n    count: 1\n";
    std::fs::write(&file, text).expect("write the file");
    let s = arm_session(&arm, "apply-ctrl-c", &format!("apply -f {}", file.display()));
    s.wait_for("Apply these changes to cluster c1?");
    s.wait_cursor_hidden();
    s.keys(&["C-c"]);
    let screen = s.wait_for("EXIT=");
    assert!(screen.contains("EXIT=130"), "{screen}");
    assert!(s.cursor_shown(), "the cursor is still hidden after Ctrl-C:\n{screen}");
    let writes: Vec<_> = arm.calls().into_iter().filter(|(m, _)| m != "GET").collect();
    assert!(writes.is_empty(), "{writes:?}");
}

/// create-pool with failover asks once for the whole list of candidates; "no" exits 1 (not
/// 130, which is Ctrl-C) and sends no write.
#[test]
fn failover_asks_once_and_no_exits_1() {
    if !has_tmux() {
        return;
    }
    let arm = FakeArm::start();
    let args = "create-pool -g rg --cluster c1 --name gpu --vm-size Standard_NC24ads_A100_v4 --fallback-vm-size Standard_NV36ads_A10_v5";
    let s = arm_session(&arm, "failover-no", args);
    s.wait_for("trying Standard_NC24ads_A100_v4 then Standard_NV36ads_A10_v5 in turn?");
    s.keys(&["n"]);
    let screen = s.wait_for("EXIT=");
    assert!(screen.contains("not confirmed; nothing was changed") && screen.contains("EXIT=1\n"), "{screen}");
    let writes: Vec<_> = arm.calls().into_iter().filter(|(m, _)| m != "GET").collect();
    assert!(writes.is_empty(), "{writes:?}");
}

/// On a terminal `install-operator` reads the release first and shows what the install would
/// change in its values, then asks: "no" leaves the release as it was (only the read-only
/// runCommand went out), "yes" upgrades it once.
#[test]
fn install_operator_shows_the_release_diff_before_it_asks() {
    if !has_tmux() {
        return;
    }
    for (tag, answer) in [("operator-no", "n"), ("operator-yes", "y")] {
        let arm = FakeArm::start();
        let props = serde_json::json!({"vmSize": "Standard_NC24ads_A100_v4", "count": 1, "mode": "User",
            "osType": "Linux", "nodeTaints": ["sku=gpu:NoSchedule"], "gpuProfile": {"driver": "None"},
            "provisioningState": "Succeeded"});
        let id = crate::fake_arm::pool_path("c1", "op");
        arm.put_pool("c1", "op", serde_json::json!({"id": id, "name": "op", "properties": props}));
        let values = serde_json::json!({"driver": {"enabled": false}, "mig": {"strategy": "mixed"}});
        arm.with(|s| s.helm_release = Some(("gpu-operator-v26.3.1".into(), values.clone())));
        let commands = |arm: &FakeArm| -> Vec<String> {
            arm.log()
                .iter()
                .filter(|r| r.method == "POST" && r.target.contains("runCommand"))
                .map(|r| r.json()["command"].as_str().unwrap_or_default().to_owned())
                .collect()
        };
        let s = arm_session(&arm, tag, "install-operator -g rg --cluster c1");
        let question = "Install the NVIDIA GPU Operator on cluster c1";
        let screen = s.wait_for(question);
        let diff = screen.find("- driver.enabled: false").unwrap_or_else(|| panic!("no diff shown:\n{screen}"));
        assert!(diff < screen.find(question).unwrap_or(0), "the diff comes after the question:\n{screen}");
        assert!(screen.contains("Release now: gpu-operator-v26.3.1 (deployed)"), "{screen}");
        let sent = commands(&arm);
        assert_eq!(sent.len(), 1, "only the release read before the answer: {sent:?}");
        assert!(sent[0].contains("helm get values") && !sent[0].contains("upgrade"), "{sent:?}");
        s.keys(&[answer]);
        let screen = s.wait_for("EXIT=");
        let upgrades = commands(&arm).iter().filter(|c| c.contains("helm upgrade")).count();
        if answer == "n" {
            assert!(screen.contains("EXIT=1\n"), "{screen}");
            assert_eq!(upgrades, 0, "{:?}", commands(&arm));
            assert_eq!(arm.with(|s| s.helm_release.clone()).map(|r| r.1), Some(values));
        } else {
            assert!(screen.contains("EXIT=0"), "{screen}");
            assert_eq!(upgrades, 1, "{:?}", commands(&arm));
        }
    }
}

/// `apply` with an `operator:` section reads the release (its release check) before it asks,
/// and on a terminal shows what the install changes in the release's values with the changes;
/// "no" sends no write beyond that read-only check.
#[test]
fn apply_shows_the_release_diff_before_it_asks() {
    if !has_tmux() {
        return;
    }
    let arm = FakeArm::start();
    let values = serde_json::json!({"driver": {"enabled": false}, "mig": {"strategy": "mixed"}});
    arm.with(|s| s.helm_release = Some(("gpu-operator-v26.3.1".into(), values)));
    let dir = crate::support::temp_dir("apply-release-diff");
    let file = dir.join("gpu.yaml");
    let text = "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n  - name: gpu\n    vmSize: Standard_NC4as_T4_v3\n    count: 1\noperator: {install: true}\n";
    std::fs::write(&file, text).expect("write the file");
    let s = arm_session(&arm, "apply-release-diff", &format!("apply -f {}", file.display()));
    let question = "Apply these changes to cluster c1?";
    let screen = s.wait_for(question);
    let diff = screen.find("- driver.enabled: false").unwrap_or_else(|| panic!("no diff shown:\n{screen}"));
    assert!(diff < screen.find(question).unwrap_or(0), "{screen}");
    assert!(screen.contains("Release now: gpu-operator-v26.3.1 (deployed)"), "{screen}");
    s.keys(&["n"]);
    let screen = s.wait_for("EXIT=");
    assert!(screen.contains("EXIT=1\n"), "{screen}");
    let writes: Vec<String> = arm
        .log()
        .iter()
        .filter(|r| r.method != "GET")
        .map(|r| r.json()["command"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert!(writes.iter().all(|c| c.contains("helm get values") && !c.contains("upgrade")), "{writes:?}");
    assert_eq!(writes.len(), 1, "{writes:?}");
}

/// `create-pool --install-operator` on a terminal: after preflight, the operator's release is
/// read and what the install changes in its values is shown before the question; "no" creates
/// nothing and upgrades nothing.
#[test]
fn create_pool_with_the_operator_shows_the_release_diff_before_it_asks() {
    if !has_tmux() {
        return;
    }
    let arm = FakeArm::start();
    let values = serde_json::json!({"driver": {"enabled": false}, "mig": {"strategy": "mixed"}});
    arm.with(|s| s.helm_release = Some(("gpu-operator-v26.3.1".into(), values)));
    let args = "create-pool -g rg --cluster c1 --name gpu --vm-size Standard_NC24ads_A100_v4 --install-operator";
    let s = arm_session(&arm, "create-pool-release-diff", args);
    let question = "Create pool gpu in cluster c1";
    let screen = s.wait_for(question);
    let diff = screen.find("- driver.enabled: false").unwrap_or_else(|| panic!("no diff shown:\n{screen}"));
    assert!(diff < screen.find(question).unwrap_or(0), "{screen}");
    s.keys(&["n"]);
    let screen = s.wait_for("EXIT=");
    assert!(screen.contains("EXIT=1\n"), "{screen}");
    assert_eq!(arm.count("PUT", "/"), 0, "{:?}", arm.calls());
    let writes: Vec<String> = arm
        .log()
        .iter()
        .filter(|r| r.method != "GET")
        .map(|r| r.json()["command"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert!(writes.len() == 1 && writes[0].contains("helm get values") && !writes[0].contains("upgrade"), "{writes:?}");
    // "yes": the pool is created once and the release upgraded once.
    let s = arm_session(&arm, "create-pool-release-yes", args);
    s.wait_for(question);
    s.keys(&["y"]);
    let screen = s.wait_for("EXIT=");
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert_eq!(arm.count("PUT", "/agentPools/gpu"), 1, "{:?}", arm.calls());
    let upgrades = arm.log().iter().filter(|r| r.method == "POST" && r.body.contains("helm upgrade")).count();
    assert_eq!(upgrades, 1, "{:?}", arm.calls());
}
