//! The recommend wizard in a real terminal: tmux runs the binary, send-keys answers, and
//! capture-pane reads the screen. `.ci/run` installs tmux; without it the test fails under
//! CI=true, and elsewhere says on stderr that it did not run.

use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

fn tmux(args: &[&str]) -> String {
    let out = Command::new("tmux").args(args).output().expect("run tmux");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn wait_for(session: &str, text: &str) -> String {
    let start = Instant::now();
    loop {
        let screen = tmux(&["capture-pane", "-p", "-t", session]);
        if screen.contains(text) {
            return screen;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "timed out waiting for {text:?}; screen:\n{screen}");
        sleep(Duration::from_millis(100));
    }
}

#[test]
fn wizard_asks_and_recommends_in_a_real_terminal() {
    let has_tmux = Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success());
    if !crate::support::require("tmux (for the wizard's real-terminal test)", has_tmux) {
        return;
    }
    let session = format!("aksgpu-wizard-{}", std::process::id());
    let bin = env!("CARGO_BIN_EXE_aksgpu");
    let cmd = format!("env -u AKSGPU_CATALOG {bin} recommend --top 2; echo EXIT=$?; sleep 60");
    let status = Command::new("tmux")
        .args(["new-session", "-d", "-s", &session, "-x", "160", "-y", "60", &cmd])
        .status()
        .expect("start tmux");
    assert!(status.success());
    let result = std::panic::catch_unwind(|| {
        wait_for(&session, "What will the GPUs run?");
        tmux(&["send-keys", "-t", &session, "Enter"]);
        wait_for(&session, "Model (alias");
        tmux(&["send-keys", "-t", &session, "no-such-model", "Enter"]);
        wait_for(&session, "unknown model");
        tmux(&["send-keys", "-t", &session, "C-u", "llama-3.1-8b", "Enter"]);
        wait_for(&session, "Node OS");
        tmux(&["send-keys", "-t", &session, "Enter"]);
        wait_for(&session, "spot");
        tmux(&["send-keys", "-t", &session, "n"]);
        wait_for(&session, "EXIT=")
    });
    tmux(&["kill-session", "-t", &session]);
    let screen = result.unwrap_or_else(|e| std::panic::resume_unwind(e));
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert!(screen.contains("1  Standard_NC16ads_A10_v4"), "{screen}");
}
