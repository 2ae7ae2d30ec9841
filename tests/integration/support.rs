//! Running the real binary.

use std::path::Path;
use std::process::{Command, Stdio};

/// What a run of the binary produced.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Parse stdout as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}\nstderr:\n{}", self.stdout, self.stderr))
    }
}

/// The entry for `vm_size` in the list `list` (`recommendations`, `rejected`) of a JSON output.
pub fn size_entry(v: &serde_json::Value, list: &str, vm_size: &str) -> serde_json::Value {
    v[list]
        .as_array()
        .unwrap_or_else(|| panic!("no {list} list in {v}"))
        .iter()
        .find(|r| r["vm_size"] == vm_size)
        .cloned()
        .unwrap_or_else(|| panic!("{vm_size} is not in {list}"))
}

/// Run `aksgpu ARGS` with a clean environment (no catalog override, no terminal).
pub fn aksgpu(args: &[&str]) -> Run {
    aksgpu_env(args, &[])
}

/// Run with extra environment variables.
pub fn aksgpu_env(args: &[&str], env: &[(&str, &Path)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_aksgpu"));
    cmd.args(args).env_remove("AKSGPU_CATALOG").stdin(Stdio::null());
    // az's defaults for -g and -l on the host would change what commands answer.
    cmd.env_remove("AZURE_DEFAULTS_GROUP").env_remove("AZURE_DEFAULTS_LOCATION");
    cmd.env("AZURE_CONFIG_DIR", "/nonexistent-aksgpu-azure-config");
    for (k, v) in env {
        cmd.env(k, v);
    }
    finish(&mut cmd)
}

/// Run `cmd` to its end and keep what it printed.
fn finish(cmd: &mut Command) -> Run {
    let out = cmd.output().expect("run aksgpu");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Run with string environment variables; every AZURE_*/AKSGPU_* variable of the test's own
/// environment is removed first, so the host's credentials never leak in.
pub fn aksgpu_with(args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_aksgpu"));
    cmd.args(args).stdin(Stdio::null());
    for (k, _) in std::env::vars() {
        if k.starts_with("AZURE_")
            || k.starts_with("AKSGPU_")
            || k.starts_with("IDENTITY_")
            || k.starts_with("MSI_")
            || k.starts_with("HF_")
        {
            cmd.env_remove(k);
        }
    }
    cmd.env("HOME", "/nonexistent-aksgpu-home");
    // A cache directory of its own (created only if the run writes to it): what one run
    // leaves there (a price cache, a provider-refresh marker) never reaches another test.
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let own = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cache-{}-{n}", std::process::id()));
    cmd.env("AKSGPU_CACHE_DIR", own);
    for (k, v) in env {
        cmd.env(k, v);
    }
    finish(&mut cmd)
}

/// The environment that points the binary at a fake ARM server with a test token.
pub fn arm_env(base: &str) -> Vec<(&'static str, String)> {
    vec![
        ("AKSGPU_ARM_ENDPOINT", base.to_owned()),
        ("AKSGPU_ACCESS_TOKEN", crate::fake_arm::TOKEN.to_owned()),
        ("AZURE_SUBSCRIPTION_ID", crate::fake_arm::SUB.to_owned()),
        ("AKSGPU_TEST_NO_RETRY_DELAY", "1".to_owned()),
        ("AKSGPU_HTTP_TIMEOUT", "2".to_owned()),
    ]
}

/// Run against a fake ARM server at `base`, with extra (or replacing) variables.
pub fn aksgpu_arm(base: &str, args: &[&str], extra: &[(&'static str, &str)]) -> Run {
    let mut e = arm_env(base);
    for (k, v) in extra {
        e.retain(|(x, _)| x != k);
        e.push((k, (*v).to_owned()));
    }
    let e: Vec<(&str, &str)> = e.iter().map(|(k, v)| (*k, v.as_str())).collect();
    aksgpu_with(args, &e)
}

/// A fresh temporary directory under the target dir.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

/// True under CI: `CI` is set to anything but empty, `0` or `false` (`.ci/run` sets it).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim().to_ascii_lowercase().as_str(), "" | "0" | "false"))
}

/// Whether a test has what it needs. When it does not: under CI the test FAILS (a skipped
/// test must never look like a pass there); elsewhere it says so on stderr and returns false,
/// and the caller returns early.
pub fn require(what: &str, present: bool) -> bool {
    if present {
        return true;
    }
    assert!(!in_ci(), "{what} is missing, and under CI a test that cannot run fails instead of skipping");
    // Straight to the process's stderr: libtest captures `eprintln!` of a passing test, and a
    // skip must show in the test run's own output.
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED: {what} is missing: test not run (it fails under CI=true)");
    false
}

/// The `create-pool` argument list the tests share: `-g rg --cluster c1 --name gpu --vm-size
/// Standard_NC24ads_A100_v4 --yes`, with setters for what a test changes.
#[derive(Debug, Clone)]
pub struct CreatePool {
    name: &'static str,
    vm_size: Option<&'static str>,
    extra: Vec<String>,
}

impl Default for CreatePool {
    fn default() -> Self {
        Self { name: "gpu", vm_size: Some("Standard_NC24ads_A100_v4"), extra: Vec::new() }
    }
}

impl CreatePool {
    /// The shared defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Another `--name`.
    pub fn name(mut self, name: &'static str) -> Self {
        self.name = name;
        self
    }

    /// Another `--vm-size`.
    pub fn vm_size(mut self, size: &'static str) -> Self {
        self.vm_size = Some(size);
        self
    }

    /// No `--vm-size` (for `--recommend`, or a test that passes its own).
    pub fn without_vm_size(mut self) -> Self {
        self.vm_size = None;
        self
    }

    /// More flags after the defaults.
    pub fn with(mut self, extra: &[&str]) -> Self {
        self.extra.extend(extra.iter().map(|s| (*s).to_owned()));
        self
    }

    /// The argument list: `--yes` comes last of the defaults, before the added flags.
    pub fn args(&self) -> Vec<&str> {
        let mut a = vec!["create-pool", "-g", "rg", "--cluster", "c1", "--name", self.name];
        if let Some(size) = self.vm_size {
            a.extend(["--vm-size", size]);
        }
        a.push("--yes");
        a.extend(self.extra.iter().map(String::as_str));
        a
    }
}

/// The bundled Linux on-demand price (USD/h) of `size` in `region`: tests derive expected
/// figures from the price table rather than pinning one snapshot's numbers.
pub fn bundled_linux_price(size: &str, region: &str) -> f64 {
    let c = aksgpu::catalog::Catalog::bundled().expect("catalog");
    c.price(size, region).and_then(|p| p.linux).unwrap_or_else(|| panic!("no bundled price for {size} in {region}"))
}

/// `price × times` in whole cents, rounded half away from zero from exact micro-dollars (how
/// money is rounded, worked here without the crate's `units::Amount`).
pub fn cents_times(price: f64, times: u64) -> f64 {
    let micros = (price * 1e6).round() as i128 * i128::from(times);
    ((micros as f64) / 10_000.0).round() / 100.0
}

/// A GpuConfig file in `dir` with ten new one-node `Standard_NC4as_T4_v3` pools (`gpu0`…`gpu9`)
/// on cluster `rg/c1`. Together they need 10 × 4 vCPUs × (1 node + 1 surge) = 80 vCPUs of the T4
/// family.
pub fn ten_pool_config(dir: &Path) -> std::path::PathBuf {
    let mut text =
        String::from("apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: c1}\npools:\n");
    for i in 0..10 {
        text.push_str(&format!("  - {{name: gpu{i}, vmSize: Standard_NC4as_T4_v3, count: 1}}\n"));
    }
    let file = dir.join("ten.yaml");
    std::fs::write(&file, text).expect("write");
    file
}
