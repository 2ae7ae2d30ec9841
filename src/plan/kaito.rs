//! KAITO (`kaito-project/kaito`) inference Workspaces for a GPU pool. Pure.
//!
//! The shape follows KAITO's `api/v1beta1/workspace_types.go` and its
//! `examples/inference/kaito_workspace_*.yaml`: `resource` and `inference` sit at the top level
//! of the object (there is no `spec`), `resource.labelSelector` is a Kubernetes label selector
//! (`matchLabels`), and `inference.preset.name` names the model. KAITO accepts its short preset
//! names (`phi-4`, `llama-3.1-8b-instruct`, …) as well as Hugging Face model IDs; the catalog's
//! `kaito_preset` field holds the short name. `resource.count` is deprecated in v1beta1 (KAITO
//! now estimates the node count) but still accepted, defaulting to 1; `resource.instanceType` is
//! left out when empty, as KAITO's Go type does (`omitempty`).

use std::collections::BTreeMap;

use serde::Serialize;

/// `apiVersion` of the Workspace.
pub const API_VERSION: &str = "kaito.sh/v1beta1";
/// Prefix of generated Workspace names (as in KAITO's examples).
pub const NAME_PREFIX: &str = "workspace-";
/// Longest Kubernetes DNS-1123 label (Workspace names must be labels).
pub const MAX_NAME_LEN: usize = 63;

/// What to generate.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkspaceSpec {
    /// Workspace name (a DNS-1123 label; see [`workspace_name`]).
    pub name: String,
    pub namespace: Option<String>,
    /// VM size, e.g. `Standard_NC24ads_A100_v4`; empty leaves the field out.
    pub instance_type: String,
    /// GPU nodes; 0 leaves the field out (KAITO defaults to 1).
    pub count: u32,
    /// KAITO preset name, e.g. `phi-4`, or a Hugging Face model ID.
    pub preset: String,
    /// Labels the GPU nodes carry (`resource.labelSelector.matchLabels`).
    pub label_selector: BTreeMap<String, String>,
}

/// One YAML document: the Workspace for `spec`.
pub fn workspace_yaml(spec: &WorkspaceSpec) -> String {
    let ws = Workspace {
        api_version: API_VERSION,
        kind: "Workspace",
        metadata: Metadata { name: spec.name.clone(), namespace: spec.namespace.clone() },
        resource: Resource {
            count: (spec.count > 0).then_some(spec.count),
            instance_type: spec.instance_type.clone(),
            label_selector: LabelSelector { match_labels: spec.label_selector.clone() },
        },
        inference: Inference { preset: Preset { name: spec.preset.clone() } },
    };
    serde_yaml_ng::to_string(&ws).unwrap_or_else(|e| format!("# cannot render {}: {e}\n", spec.name))
}

/// A Workspace name for a model: `workspace-` + the model's name without its organisation,
/// lowercased, every run of characters outside `[a-z0-9]` turned into one `-`, at most 63
/// characters and never ending in `-`. `meta-llama/Llama-3.1-8B-Instruct` →
/// `workspace-llama-3-1-8b-instruct` (the name KAITO's own example uses).
pub fn workspace_name(model_id: &str) -> String {
    let model = model_id.trim().rsplit('/').next().unwrap_or_default();
    let mut name = String::from(NAME_PREFIX);
    for c in model.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            name.push(c);
        } else if !name.ends_with('-') {
            name.push('-');
        }
    }
    name.truncate(MAX_NAME_LEN);
    let trimmed = name.trim_end_matches('-');
    if trimmed.len() < NAME_PREFIX.len() {
        // Nothing usable in the model name.
        return NAME_PREFIX.trim_end_matches('-').to_string();
    }
    trimmed.to_string()
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Workspace {
    api_version: &'static str,
    kind: &'static str,
    metadata: Metadata,
    resource: Resource,
    inference: Inference,
}

#[derive(Serialize)]
struct Metadata {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    namespace: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Resource {
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u32>,
    #[serde(skip_serializing_if = "String::is_empty")]
    instance_type: String,
    label_selector: LabelSelector,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LabelSelector {
    match_labels: BTreeMap<String, String>,
}

#[derive(Serialize)]
struct Inference {
    preset: Preset,
}

#[derive(Serialize)]
struct Preset {
    name: String,
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;

    fn parse(yaml: &str) -> Value {
        serde_yaml_ng::from_str(yaml).expect("workspace parses as YAML")
    }

    fn spec() -> WorkspaceSpec {
        WorkspaceSpec {
            name: workspace_name("meta-llama/Llama-3.1-8B-Instruct"),
            namespace: None,
            instance_type: "Standard_NC24ads_A100_v4".into(),
            count: 1,
            preset: "llama-3.1-8b-instruct".into(),
            label_selector: BTreeMap::from([("apps".into(), "llama-3-1-8b-instruct".into())]),
        }
    }

    #[test]
    fn workspace_structure() {
        let got = parse(&workspace_yaml(&spec()));
        assert_eq!(
            got,
            json!({
                "apiVersion": "kaito.sh/v1beta1",
                "kind": "Workspace",
                "metadata": {"name": "workspace-llama-3-1-8b-instruct"},
                "resource": {
                    "count": 1,
                    "instanceType": "Standard_NC24ads_A100_v4",
                    "labelSelector": {"matchLabels": {"apps": "llama-3-1-8b-instruct"}}
                },
                "inference": {"preset": {"name": "llama-3.1-8b-instruct"}}
            })
        );
    }

    #[test]
    fn matches_kaito_example_apart_from_count() {
        // kaito-project/kaito examples/inference/kaito_workspace_gpt_oss_20b.yaml
        let example = parse(
            "apiVersion: kaito.sh/v1beta1\nkind: Workspace\nmetadata:\n  name: workspace-gpt-oss-20b\n\
             resource:\n  instanceType: \"Standard_NC24ads_A100_v4\"\n  labelSelector:\n    matchLabels:\n      \
             apps: gpt-oss-20b\ninference:\n  preset:\n    name: \"gpt-oss-20b\"\n",
        );
        let ours = WorkspaceSpec {
            name: workspace_name("openai/gpt-oss-20b"),
            namespace: None,
            instance_type: "Standard_NC24ads_A100_v4".into(),
            count: 0,
            preset: "gpt-oss-20b".into(),
            label_selector: BTreeMap::from([("apps".into(), "gpt-oss-20b".into())]),
        };
        assert_eq!(parse(&workspace_yaml(&ours)), example);
    }

    #[test]
    fn namespace_count_and_byo_nodes() {
        let mut s = spec();
        s.namespace = Some("kaito".into());
        s.count = 2;
        s.instance_type.clear();
        s.label_selector.insert("kubernetes.azure.com/agentpool".into(), "gpu".into());
        let got = parse(&workspace_yaml(&s));
        assert_eq!(got["metadata"], json!({"name": "workspace-llama-3-1-8b-instruct", "namespace": "kaito"}));
        assert_eq!(
            got["resource"],
            json!({
                "count": 2,
                "labelSelector": {"matchLabels": {
                    "apps": "llama-3-1-8b-instruct",
                    "kubernetes.azure.com/agentpool": "gpu"
                }}
            })
        );
    }

    #[test]
    fn yaml_round_trip() {
        let mut s = spec();
        s.preset = "meta-llama/Llama-3.1-8B-Instruct".into();
        s.label_selector = BTreeMap::from([("apps".into(), "true".into()), ("id".into(), "8".into())]);
        s.namespace = Some("null".into());
        let y = workspace_yaml(&s);
        assert!(y.starts_with("apiVersion: kaito.sh/v1beta1\nkind: Workspace\n"), "{y}");
        assert!(!y.contains("\n---"), "{y}");
        let got = parse(&y);
        assert_eq!(got["inference"]["preset"]["name"], json!("meta-llama/Llama-3.1-8B-Instruct"));
        assert_eq!(got["resource"]["labelSelector"]["matchLabels"], json!({"apps": "true", "id": "8"}));
        assert_eq!(got["metadata"]["namespace"], json!("null"));
        // An empty selector still renders (the field is required by KAITO).
        s.label_selector.clear();
        let got = parse(&workspace_yaml(&s));
        assert_eq!(got["resource"]["labelSelector"], json!({"matchLabels": {}}));
    }

    #[test]
    fn names_are_sanitised() {
        let cases = [
            ("meta-llama/Llama-3.1-8B-Instruct", "workspace-llama-3-1-8b-instruct"),
            ("openai/gpt-oss-20b", "workspace-gpt-oss-20b"),
            ("microsoft/phi-4", "workspace-phi-4"),
            ("Qwen/Qwen2.5-7B-Instruct", "workspace-qwen2-5-7b-instruct"),
            ("phi-4", "workspace-phi-4"),
            ("  deepseek-ai/DeepSeek-R1-Distill-Llama-8B  ", "workspace-deepseek-r1-distill-llama-8b"),
            ("org/--Weird__Name..v2--", "workspace-weird-name-v2"),
            ("org/Ünïcode_模型-7B", "workspace-n-code-7b"),
            ("", "workspace"),
            ("org/", "workspace"),
            ("org/---", "workspace"),
        ];
        for (id, want) in cases {
            assert_eq!(workspace_name(id), want, "{id:?}");
        }
    }

    #[test]
    fn names_are_dns_labels() {
        let long = format!("org/{}", "Very-Long_Model.Name-".repeat(10));
        for id in [long.as_str(), "a/B", "x/9-", "x/-y-", "x/---a---b---"] {
            let n = workspace_name(id);
            assert!(n.len() <= MAX_NAME_LEN, "{n}");
            assert!(n.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'), "{n}");
            assert!(!n.starts_with('-') && !n.ends_with('-') && !n.contains("--"), "{n}");
        }
        assert_eq!(workspace_name(&long).len(), MAX_NAME_LEN);
        // Truncation that ends on a separator drops it.
        let cut = workspace_name(&format!("org/{}-tail", "a".repeat(52)));
        assert_eq!(cut, format!("workspace-{}", "a".repeat(52)));
    }
}
