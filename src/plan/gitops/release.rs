//! Is the GPU Operator installed as the file asks? One read-only in-cluster command lists the
//! Helm release and prints its user-supplied values; comparing them with the values `apply`
//! would install (and the chart version) decides "no change" or "install" (pure).

use serde_json::Value;

use crate::domain::setting::Words;
use crate::plan::operator::NAMESPACE;

/// Separates the two outputs of `CHECK_COMMAND`.
pub const SEPARATOR: &str = "---aksgpu-values---";

/// `helm list` (the release, its chart and status) and `helm get values` (as JSON); changes
/// nothing. Prints `null` for the values when there is no release.
pub fn check_command() -> String {
    format!(
        "helm list -n {NAMESPACE} --filter '^gpu-operator$' -o json; echo '{SEPARATOR}'; \
         helm get values gpu-operator -n {NAMESPACE} -o json 2>/dev/null || echo null"
    )
}

/// The read-only runCommand that runs [`check_command`] on the cluster at `cluster_path` (the
/// one an install targets, with its `needs_cluster_token`): `apply` sends it before anything
/// else whenever the file asks for the operator.
pub fn check_step(cluster_path: &str, needs_cluster_token: Option<bool>) -> crate::plan::Step {
    crate::plan::runcommand::command_step(
        cluster_path,
        &check_command(),
        needs_cluster_token,
        "read the GPU Operator's Helm release, to compare with the file (changes nothing)",
    )
}

/// When `apply` installs the operator after that check.
pub const INSTALL_WHEN: &str = "only if the release check finds the GPU Operator missing, or not as the file asks";

/// What the cluster runs.
#[derive(Debug, Clone, PartialEq)]
pub enum State {
    /// No release.
    Absent,
    /// The release as asked (chart version and values).
    Same { chart: String },
    /// Installed, but not as asked: what differs.
    Differs(Vec<String>),
    /// Could not be read (the reason); `apply` installs, which is idempotent.
    Unread(String),
    /// Not read on purpose (the reason): reading it needs a write, which `diff` and dry runs
    /// never send.
    NotChecked(String),
    /// The install is refused for this cluster (runCommand disabled, mixed driver modes, …).
    Refused { message: Words, hint: Option<Words> },
}

/// The GPU Operator's release as [`check_command`] printed it.
#[derive(Debug, Clone, PartialEq)]
pub enum Release {
    /// No release named `gpu-operator`.
    Absent,
    /// The release: its chart (`gpu-operator-v26.7.0`), status and user-supplied values
    /// (`null` when it has none).
    Present { chart: String, status: String, values: Value },
    /// The output could not be read (why).
    Unread(String),
}

/// One entry of `helm list -o json` (the fields read).
#[derive(Debug, Clone, Default, serde::Deserialize)]
struct HelmRelease {
    name: Option<String>,
    chart: Option<String>,
    status: Option<String>,
}

/// Read [`check_command`]'s output.
pub fn parse(logs: &str) -> Release {
    let Some((list, values)) = logs.split_once(SEPARATOR) else {
        return Release::Unread("the check printed no release list".into());
    };
    let releases: Vec<HelmRelease> = match serde_json::from_str(list.trim()) {
        Ok(v) => v,
        Err(e) => return Release::Unread(format!("helm list output is not JSON ({e})")),
    };
    let Some(r) = releases.iter().find(|r| r.name.as_deref() == Some("gpu-operator")) else { return Release::Absent };
    let values = match serde_json::from_str::<Value>(values.trim()) {
        Ok(v) => v,
        Err(e) => return Release::Unread(format!("helm get values output is not JSON ({e})")),
    };
    Release::Present {
        // No chart sent compares as different from any chart asked for (fails safe).
        chart: r.chart.clone().unwrap_or_default(),
        status: r.status.clone().unwrap_or_else(|| "unknown".to_owned()),
        values,
    }
}

/// Compare the check's output with the chart version and values `apply` would install.
pub fn compare(logs: &str, chart_version: &str, values_yaml: &str) -> State {
    let (chart, status, have) = match parse(logs) {
        Release::Absent => return State::Absent,
        Release::Unread(why) => return State::Unread(why),
        Release::Present { chart, status, values } => (chart, status, values),
    };
    let mut diffs = Vec::new();
    let want_chart = format!("gpu-operator-{chart_version}");
    if chart != want_chart {
        diffs.push(format!("chart {chart} → {want_chart}"));
    }
    if !status.eq_ignore_ascii_case("deployed") {
        diffs.push(format!("release status {status}"));
    }
    let want: Value = serde_yaml_ng::from_str(values_yaml).unwrap_or(Value::Null);
    if !same(&have, &want) {
        diffs.push("values differ (driver mode, MIG strategy, time slicing or tolerations)".into());
    }
    if diffs.is_empty() {
        State::Same { chart }
    } else {
        State::Differs(diffs)
    }
}

/// Equal as JSON, numbers compared by value (YAML and Helm may write 1 or 1.0).
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALUES: &str = "driver:\n  enabled: false\ntoolkit:\n  enabled: false\n";

    fn logs(list: &str, values: &str) -> String {
        format!("{list}\n{SEPARATOR}\n{values}\n")
    }

    #[test]
    fn same_release_absent_or_different() {
        let deployed = r#"[{"name":"gpu-operator","namespace":"gpu-operator","status":"deployed","chart":"gpu-operator-v26.7.0"}]"#;
        let values = r#"{"toolkit":{"enabled":false},"driver":{"enabled":false}}"#;
        assert_eq!(
            compare(&logs(deployed, values), "v26.7.0", VALUES),
            State::Same { chart: "gpu-operator-v26.7.0".into() }
        );
        assert_eq!(compare(&logs("[]", "null"), "v26.7.0", VALUES), State::Absent);
        let State::Differs(d) = compare(&logs(deployed, r#"{"driver":{"enabled":true}}"#), "v26.8.0", VALUES) else {
            panic!("differs")
        };
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(d[0].contains("gpu-operator-v26.7.0 → gpu-operator-v26.8.0"), "{d:?}");
        assert!(matches!(compare("no separator", "v26.7.0", VALUES), State::Unread(_)));
    }
}
