//! Tests that cannot pass by skipping: this test binary runs its own
//! prerequisite-dependent tests again with the prerequisite taken away, and checks that they
//! fail under `CI=true` and only skip (with a note) outside CI.

use std::process::Command;

/// Run this test binary on the tests matching `filter`, with `env` set.
fn run_self(filter: &str, env: &[(&str, &str)]) -> (bool, String) {
    let exe = std::env::current_exe().expect("test binary");
    let mut cmd = Command::new(exe);
    cmd.args([filter, "--test-threads", "1", "--nocapture"]).env_remove("CI");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run the test binary");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

#[test]
fn missing_tmux_fails_under_ci() {
    // No PATH: tmux cannot be found.
    let (ok, text) = run_self("wizard_tmux::", &[("PATH", "/nonexistent"), ("CI", "true")]);
    assert!(!ok && text.contains("tmux"), "{text}");
    let (ok, text) = run_self("wizard_tmux::", &[("PATH", "/nonexistent")]);
    assert!(ok && text.contains("test not run"), "{text}");
}
