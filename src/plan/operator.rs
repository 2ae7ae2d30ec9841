//! The NVIDIA GPU Operator install, generated as plain values (pure): the Helm values tree, the
//! bash line the AKS runCommand API runs, and the `kubectl` checks (and their parsers) that tell
//! when GPUs are usable. Nothing here talks to Azure or the cluster.
//!
//! The values always carry every pool taint in *both* toleration lists the chart has:
//! `daemonsets.tolerations` (operands) and `node-feature-discovery.worker.tolerations` (the NFD
//! worker, which labels GPU nodes). Helm replaces lists instead of merging them, so the chart's
//! default entries are repeated first. Forgetting the second list is the classic cause of operator
//! pods never landing on spot or tainted AKS nodes (NVIDIA/gpu-operator#577, #390).
//!
//! Helm runs without `--wait`: one runCommand pod should not sit through the whole rollout, so the
//! caller polls [`validator_check_command`] and [`allocatable_check_command`] instead.

use std::borrow::Cow;

use serde_json::{json, Map, Value};

use super::agent_pool::{parse_taint, DEFAULT_TAINT, SPOT_TAINT};

/// NVIDIA's Helm repository (added as `nvidia`).
pub const CHART_REPO: &str = "https://helm.ngc.nvidia.com/nvidia";
/// The GPU Operator chart version installed unless the user picks another.
///
/// Pinned on purpose, so an install is reproducible and a dry run shows exactly what will run:
/// v26.7.0 is the newest release line (August 2026; 26.3.x is in maintenance), validated by NVIDIA
/// on Kubernetes 1.32–1.36. To move to a newer release, change it here (and re-check the values
/// keys this module writes against that chart's `values.yaml`).
pub const DEFAULT_CHART_VERSION: &str = "v26.7.0";
/// The namespace the operator is installed in (created if missing).
pub const NAMESPACE: &str = "gpu-operator";
/// The values file name used in the command a user runs by hand.
pub const MANUAL_VALUES_FILE: &str = "gpu-operator-values.yaml";

/// The Helm release name.
const RELEASE: &str = "gpu-operator";
/// The chart, as `<repo alias>/<chart>`.
const CHART: &str = "nvidia/gpu-operator";
/// The config name (ConfigMap key) of the time-slicing device-plugin configuration.
const SHARING_CONFIG_KEY: &str = "any";
/// The ConfigMap the chart creates for the device-plugin configuration.
pub(crate) const SHARING_CONFIG_MAP: &str = "time-slicing-config";
/// The runtime class NVIDIA's AKS instructions use when AKS installed the driver and toolkit.
const AKS_RUNTIME_CLASS: &str = "nvidia-container-runtime";

pub use crate::domain::{DriverMode, MigStrategy};

/// A Kubernetes toleration.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Toleration {
    pub key: String,
    /// `Equal` or `Exists`.
    pub operator: String,
    /// Set for `Equal` (may be empty), `None` for `Exists`.
    pub value: Option<String>,
    /// `NoSchedule`, `PreferNoSchedule` or `NoExecute`.
    pub effect: String,
}

impl Toleration {
    fn exists(key: &str, effect: &str) -> Toleration {
        Toleration { key: key.to_owned(), operator: "Exists".to_owned(), value: None, effect: effect.to_owned() }
    }

    /// The toleration as it appears in a pod spec or Helm values.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("key".into(), json!(self.key));
        m.insert("operator".into(), json!(self.operator));
        if let Some(v) = &self.value {
            m.insert("value".into(), json!(v));
        }
        m.insert("effect".into(), json!(self.effect));
        Value::Object(m)
    }
}

/// What to install.
#[derive(Debug, Clone, PartialEq)]
pub struct OperatorSpec {
    pub driver_mode: DriverMode,
    /// Chart version for `helm --version`, normally [`DEFAULT_CHART_VERSION`].
    pub chart_version: String,
    /// `mig.strategy`; `None` keeps the chart default (`single`).
    pub mig_strategy: Option<MigStrategy>,
    /// Time-slicing replicas per GPU. `None`, 0 and 1 mean no sharing (one pod per GPU).
    pub time_slicing: Option<u32>,
    /// Tolerations for the GPU pools' taints, normally from [`tolerations_for`].
    pub tolerations: Vec<Toleration>,
}

/// The toleration matching one taint: `key=value:Effect` → `Equal`, `key:Effect` → `Exists`.
/// `None` when the text is not a valid taint.
pub fn toleration_from_taint(taint: &str) -> Option<Toleration> {
    let taint = parse_taint(taint).ok()?;
    let (kv, effect) = taint.rsplit_once(':')?;
    Some(match kv.split_once('=') {
        Some((key, value)) => Toleration {
            key: key.to_owned(),
            operator: "Equal".to_owned(),
            value: Some(value.to_owned()),
            effect: effect.to_owned(),
        },
        None => Toleration::exists(kv, effect),
    })
}

/// Tolerations for all the taints a GPU pool can carry: the given taints (invalid ones skipped; the
/// pool spec has already rejected them), then the AKS spot taint and `sku=gpu:NoSchedule`, which
/// are always added so the operator also reaches spot and default-tainted pools. No duplicates;
/// order is kept.
pub fn tolerations_for(taints: &[String]) -> Vec<Toleration> {
    let mut out = Vec::new();
    for taint in taints.iter().map(String::as_str).chain([SPOT_TAINT, DEFAULT_TAINT]) {
        if let Some(t) = toleration_from_taint(taint) {
            push_unique(&mut out, t);
        }
    }
    out
}

fn push_unique(list: &mut Vec<Toleration>, t: Toleration) {
    if !list.contains(&t) {
        list.push(t);
    }
}

/// The chart's default operand toleration, kept first in `daemonsets.tolerations`.
fn gpu_default() -> Toleration {
    Toleration::exists("nvidia.com/gpu", "NoSchedule")
}

/// `defaults` followed by `extra`, without duplicates, as a JSON list.
fn toleration_list(defaults: Vec<Toleration>, extra: &[Toleration]) -> Value {
    let mut list = defaults;
    for t in extra {
        push_unique(&mut list, t.clone());
    }
    Value::Array(list.iter().map(Toleration::to_value).collect())
}

/// The device-plugin configuration that shares each GPU between `replicas` pods.
fn time_slicing_config(replicas: u32) -> String {
    format!(
        "version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: {replicas}\n"
    )
}

/// The Helm values tree for `spec`: only what differs from the chart defaults.
pub fn values(spec: &OperatorSpec) -> Value {
    let mut v = Map::new();
    v.insert("daemonsets".into(), json!({ "tolerations": toleration_list(vec![gpu_default()], &spec.tolerations) }));
    let nfd_defaults = vec![Toleration::exists("node-role.kubernetes.io/control-plane", "NoSchedule"), gpu_default()];
    v.insert(
        "node-feature-discovery".into(),
        json!({ "worker": { "tolerations": toleration_list(nfd_defaults, &spec.tolerations) } }),
    );
    if spec.driver_mode == DriverMode::Aks {
        driver_keys(&mut v, &json!(false), &json!(AKS_RUNTIME_CLASS));
    }
    if let Some(mig) = spec.mig_strategy {
        v.insert("mig".into(), json!({ "strategy": mig.as_str() }));
    }
    if let Some(replicas) = spec.time_slicing.filter(|&n| n >= 2) {
        v.insert(
            "devicePlugin".into(),
            json!({ "config": {
                "create": true,
                "name": SHARING_CONFIG_MAP,
                "default": SHARING_CONFIG_KEY,
                "data": { SHARING_CONFIG_KEY: time_slicing_config(replicas) },
            } }),
        );
    }
    Value::Object(v)
}

/// The keys that follow the pools' driver: `driver.enabled` and `toolkit.enabled` (`enabled`),
/// `operator.runtimeClass` (`runtime`).
fn driver_keys(v: &mut Map<String, Value>, enabled: &Value, runtime: &Value) {
    v.insert("driver".into(), json!({ "enabled": enabled }));
    v.insert("toolkit".into(), json!({ "enabled": enabled }));
    v.insert("operator".into(), json!({ "runtimeClass": runtime }));
}

/// Set the driver keys of [`values`] (a dry run's stand-ins for what the pools decide).
pub fn set_driver_keys(values: &mut Value, enabled: &Value, runtime: &Value) {
    if let Some(v) = values.as_object_mut() {
        driver_keys(v, enabled, runtime);
    }
}

/// [`values`] rendered as YAML (the file passed to `helm -f`).
pub fn values_yaml(spec: &OperatorSpec) -> String {
    let v = values(spec);
    // JSON is valid YAML, should the YAML serializer ever refuse a plain JSON tree.
    serde_yaml_ng::to_string(&v).ok().or_else(|| serde_json::to_string_pretty(&v).ok()).unwrap_or_default()
}

/// One bash line for the runCommand pod: add/refresh NVIDIA's repository, then install or upgrade
/// the pinned chart with `values_file` (attached in the command's working directory). No `--wait`.
pub fn install_command(spec: &OperatorSpec, values_file: &str) -> String {
    format!(
        "helm repo add nvidia {CHART_REPO} --force-update && helm repo update nvidia && \
         helm upgrade --install {RELEASE} {CHART} -n {NAMESPACE} --create-namespace --version {} -f {}",
        sh_quote(&spec.chart_version),
        sh_quote(values_file),
    )
}

/// The same command for a user to run by hand (when runCommand is disabled), reading the values
/// from [`MANUAL_VALUES_FILE`].
pub fn helm_command_line(spec: &OperatorSpec) -> String {
    install_command(spec, MANUAL_VALUES_FILE)
}

/// Prints `<pod> <phase>` for each `nvidia-cuda-validator` pod, one per line; prints nothing (and
/// exits 0) while there are none, or before the namespace exists.
pub fn validator_check_command() -> String {
    format!(
        "kubectl get pods -n {NAMESPACE} -l app=nvidia-cuda-validator \
         -o jsonpath='{{range .items[*]}}{{.metadata.name}}{{\" \"}}{{.status.phase}}{{\"\\n\"}}{{end}}'"
    )
}

/// Prints a `NAME GPU` header, then `<node> <allocatable nvidia.com/gpu>` (`<none>` before the
/// device plugin runs) for the nodes of `pools`. No pools: every agent-pool node.
pub fn allocatable_check_command(pools: &[String]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for p in pools {
        if !names.contains(&p.as_str()) {
            names.push(p);
        }
    }
    let selector = match names.as_slice() {
        [] => "agentpool".to_owned(),
        [one] => format!("agentpool={one}"),
        many => format!("agentpool in ({})", many.join(",")),
    };
    format!(
        "kubectl get nodes -l {} -o 'custom-columns=NAME:.metadata.name,GPU:.status.allocatable.nvidia\\.com/gpu'",
        sh_quote(&selector)
    )
}

/// `(pod, phase)` from [`validator_check_command`] output. Lines that are not `<pod> <phase>`
/// (blank lines, a `NAME PHASE` header, kubectl notices mixed into runCommand logs) are skipped.
pub fn parse_validator_output(out: &str) -> Vec<(String, String)> {
    two_columns(out)
        .filter(|&(pod, phase)| !(pod == "NAME" && phase.eq_ignore_ascii_case("phase")))
        .map(|(pod, phase)| (pod.to_owned(), phase.to_owned()))
        .collect()
}

/// `(node, allocatable GPUs)` from [`allocatable_check_command`] output, skipping the `NAME GPU`
/// header, blank lines and anything that is not two columns. `<none>` counts as 0; a line whose
/// count is not a whole number is skipped.
pub fn parse_allocatable_output(out: &str) -> Vec<(String, u32)> {
    two_columns(out)
        .filter(|&(node, gpu)| !(node == "NAME" && gpu == "GPU"))
        .filter_map(|(node, gpu)| {
            let n = if gpu == "<none>" { 0 } else { gpu.parse().ok()? };
            Some((node.to_owned(), n))
        })
        .collect()
}

/// The lines of `out` made of exactly two whitespace-separated fields.
fn two_columns(out: &str) -> impl Iterator<Item = (&str, &str)> {
    out.lines().filter_map(|line| {
        let mut fields = line.split_whitespace();
        match (fields.next(), fields.next(), fields.next()) {
            (Some(a), Some(b), None) => Some((a, b)),
            _ => None,
        }
    })
}

/// `s` as one bash word: unchanged when it only has safe characters, else single-quoted.
fn sh_quote(s: &str) -> Cow<'_, str> {
    let safe =
        |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | ':' | '=' | ',' | '+' | '@' | '%');
    if !s.is_empty() && s.chars().all(safe) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(format!("'{}'", s.replace('\'', r"'\''")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(mode: DriverMode) -> OperatorSpec {
        OperatorSpec {
            driver_mode: mode,
            chart_version: DEFAULT_CHART_VERSION.to_owned(),
            mig_strategy: None,
            time_slicing: None,
            tolerations: tolerations_for(&["team=ml:NoExecute".to_owned(), "dedicated:NoSchedule".to_owned()]),
        }
    }

    /// The expected list: defaults, then team, dedicated, spot, sku.
    fn expected_tolerations(defaults: Value) -> Value {
        let mut list = defaults.as_array().cloned().unwrap_or_default();
        list.extend([
            json!({"key": "team", "operator": "Equal", "value": "ml", "effect": "NoExecute"}),
            json!({"key": "dedicated", "operator": "Exists", "effect": "NoSchedule"}),
            json!({"key": "kubernetes.azure.com/scalesetpriority", "operator": "Equal", "value": "spot", "effect": "NoSchedule"}),
            json!({"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}),
        ]);
        Value::Array(list)
    }

    fn daemonset_defaults() -> Value {
        json!([{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}])
    }

    fn nfd_defaults() -> Value {
        json!([
            {"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"},
            {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
        ])
    }

    #[test]
    fn aks_mode_values() {
        assert_eq!(
            values(&spec(DriverMode::Aks)),
            json!({
                "daemonsets": {"tolerations": expected_tolerations(daemonset_defaults())},
                "node-feature-discovery": {"worker": {"tolerations": expected_tolerations(nfd_defaults())}},
                "driver": {"enabled": false},
                "toolkit": {"enabled": false},
                "operator": {"runtimeClass": "nvidia-container-runtime"},
            })
        );
    }

    #[test]
    fn operator_mode_values() {
        assert_eq!(
            values(&spec(DriverMode::Operator)),
            json!({
                "daemonsets": {"tolerations": expected_tolerations(daemonset_defaults())},
                "node-feature-discovery": {"worker": {"tolerations": expected_tolerations(nfd_defaults())}},
            })
        );
    }

    #[test]
    fn mig_and_time_slicing_values() {
        let mut s = spec(DriverMode::Operator);
        s.mig_strategy = Some(MigStrategy::Mixed);
        s.time_slicing = Some(4);
        let v = values(&s);
        assert_eq!(v["mig"], json!({"strategy": "mixed"}));
        assert_eq!(
            v["devicePlugin"],
            json!({"config": {
                "create": true,
                "name": "time-slicing-config",
                "default": "any",
                "data": {"any": "version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: 4\n"},
            }})
        );
        // The embedded device-plugin config is itself valid YAML with the asked replicas.
        let cfg: Value =
            serde_yaml_ng::from_str(v["devicePlugin"]["config"]["data"]["any"].as_str().unwrap_or_default())
                .expect("device plugin config parses");
        assert_eq!(cfg["sharing"]["timeSlicing"]["resources"][0], json!({"name": "nvidia.com/gpu", "replicas": 4}));
        assert_eq!(cfg["version"], json!("v1"));

        s.mig_strategy = Some(MigStrategy::Single);
        s.time_slicing = None;
        let v = values(&s);
        assert_eq!(v["mig"]["strategy"], json!("single"));
        assert!(v.get("devicePlugin").is_none());
        for n in [0, 1] {
            s.time_slicing = Some(n);
            assert!(values(&s).get("devicePlugin").is_none(), "{n} replicas is no sharing");
        }
    }

    #[test]
    fn yaml_parses_back_to_the_same_values() {
        let mut s = spec(DriverMode::Aks);
        s.mig_strategy = Some(MigStrategy::Mixed);
        s.time_slicing = Some(3);
        s.tolerations.push(Toleration {
            key: "flag".into(),
            operator: "Equal".into(),
            value: Some("true".into()),
            effect: "NoSchedule".into(),
        });
        s.tolerations.push(toleration_from_taint("empty=:NoSchedule").expect("taint"));
        for s in [s, spec(DriverMode::Operator)] {
            let yaml = values_yaml(&s);
            let back: Value = serde_yaml_ng::from_str(&yaml).expect("yaml parses");
            assert_eq!(back, values(&s), "{yaml}");
        }
    }

    #[test]
    fn taints_become_tolerations() {
        assert_eq!(
            toleration_from_taint("sku=gpu:NoSchedule"),
            Some(Toleration {
                key: "sku".into(),
                operator: "Equal".into(),
                value: Some("gpu".into()),
                effect: "NoSchedule".into()
            })
        );
        assert_eq!(
            toleration_from_taint(" nvidia.com/gpu:NoExecute "),
            Some(Toleration::exists("nvidia.com/gpu", "NoExecute"))
        );
        assert_eq!(toleration_from_taint("k=:PreferNoSchedule").and_then(|t| t.value), Some(String::new()));
        for bad in ["", "sku=gpu", "sku=gpu:Sometimes", "=gpu:NoSchedule", "a b:NoSchedule"] {
            assert_eq!(toleration_from_taint(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn tolerations_always_cover_spot_and_sku_without_duplicates() {
        let spot = toleration_from_taint(SPOT_TAINT).expect("spot");
        let sku = toleration_from_taint(DEFAULT_TAINT).expect("sku");
        assert_eq!(tolerations_for(&[]), vec![spot.clone(), sku.clone()]);
        let taints: Vec<String> = [
            "sku=gpu:NoSchedule",
            "a=b:NoSchedule",
            "a=b:NoSchedule",
            "bogus",
            SPOT_TAINT,
            "nvidia.com/gpu:NoSchedule",
        ]
        .map(str::to_owned)
        .to_vec();
        let t = tolerations_for(&taints);
        let a = toleration_from_taint("a=b:NoSchedule").expect("a");
        assert_eq!(t, vec![sku, a, spot, gpu_default()]);

        // In the values: user taints + spot + sku in both lists, defaults first, each entry once.
        let s = OperatorSpec { tolerations: t.clone(), ..spec(DriverMode::Aks) };
        let v = values(&s);
        for (path, defaults) in [
            ("/daemonsets/tolerations", daemonset_defaults()),
            ("/node-feature-discovery/worker/tolerations", nfd_defaults()),
        ] {
            let list = v.pointer(path).and_then(Value::as_array).cloned().unwrap_or_default();
            let defaults = defaults.as_array().cloned().unwrap_or_default();
            assert_eq!(list[..defaults.len()], defaults[..], "{path}: defaults kept first");
            for want in &t {
                assert!(list.contains(&want.to_value()), "{path} lacks {want:?}");
            }
            for (i, x) in list.iter().enumerate() {
                assert!(!list[i + 1..].contains(x), "{path}: duplicate {x}");
            }
        }
        // The user's nvidia.com/gpu:NoSchedule equals the default entry: listed once.
        assert_eq!(v["daemonsets"]["tolerations"].as_array().map(Vec::len), Some(4));
        assert_eq!(v["node-feature-discovery"]["worker"]["tolerations"].as_array().map(Vec::len), Some(5));
    }

    #[test]
    fn install_command_shape() {
        let s = spec(DriverMode::Aks);
        let cmd = install_command(&s, "values.yaml");
        assert_eq!(
            cmd,
            "helm repo add nvidia https://helm.ngc.nvidia.com/nvidia --force-update && helm repo update nvidia && \
             helm upgrade --install gpu-operator nvidia/gpu-operator -n gpu-operator --create-namespace \
             --version v26.7.0 -f values.yaml"
        );
        for part in ["upgrade --install", "--version v26.7.0", "-f values.yaml", "--create-namespace"] {
            assert!(cmd.contains(part), "{part}");
        }
        assert!(!cmd.contains("--wait"));
        assert!(!cmd.contains('\n'));

        let manual = helm_command_line(&s);
        assert!(manual.ends_with("-f gpu-operator-values.yaml"), "{manual}");
        assert!(!manual.contains("--wait"));

        // Odd inputs stay one shell word each.
        let odd = OperatorSpec { chart_version: "v1; rm -rf /".into(), ..spec(DriverMode::Operator) };
        let cmd = install_command(&odd, "my values's.yaml");
        assert!(cmd.ends_with(r"--version 'v1; rm -rf /' -f 'my values'\''s.yaml'"), "{cmd}");
    }

    #[test]
    fn check_commands() {
        assert_eq!(
            validator_check_command(),
            r#"kubectl get pods -n gpu-operator -l app=nvidia-cuda-validator -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.status.phase}{"\n"}{end}'"#
        );
        let cols = r"-o 'custom-columns=NAME:.metadata.name,GPU:.status.allocatable.nvidia\.com/gpu'";
        assert_eq!(allocatable_check_command(&["gpu".into()]), format!("kubectl get nodes -l agentpool=gpu {cols}"));
        assert_eq!(
            allocatable_check_command(&["gpu".into(), "a100".into(), "gpu".into()]),
            format!("kubectl get nodes -l 'agentpool in (gpu,a100)' {cols}")
        );
        assert_eq!(allocatable_check_command(&[]), format!("kubectl get nodes -l agentpool {cols}"));
    }

    #[test]
    fn parse_validator() {
        let out = "\nnvidia-cuda-validator-abcde Succeeded\nnvidia-cuda-validator-fghij   Running\n\n";
        assert_eq!(
            parse_validator_output(out),
            vec![
                ("nvidia-cuda-validator-abcde".into(), "Succeeded".into()),
                ("nvidia-cuda-validator-fghij".into(), "Running".into())
            ]
        );
        assert!(parse_validator_output("").is_empty());
        assert!(parse_validator_output("No resources found in gpu-operator namespace.\n").is_empty());
        assert_eq!(
            parse_validator_output("NAME PHASE\nnvidia-cuda-validator-x Pending\n"),
            vec![("nvidia-cuda-validator-x".into(), "Pending".into())]
        );
    }

    #[test]
    fn parse_allocatable() {
        let out = "NAME                                GPU\naks-gpu-12345678-vmss000000   1\n\n\
                   aks-gpu-12345678-vmss000001   <none>\naks-a100-87654321-vmss000000  8\n";
        assert_eq!(
            parse_allocatable_output(out),
            vec![
                ("aks-gpu-12345678-vmss000000".into(), 1),
                ("aks-gpu-12345678-vmss000001".into(), 0),
                ("aks-a100-87654321-vmss000000".into(), 8)
            ]
        );
        assert!(parse_allocatable_output("NAME   GPU\n").is_empty());
        assert!(parse_allocatable_output("").is_empty());
        assert!(parse_allocatable_output("No resources found\n").is_empty());
        assert_eq!(parse_allocatable_output("\r\nnode-a 2\r\n"), vec![("node-a".into(), 2)]);
    }
}
