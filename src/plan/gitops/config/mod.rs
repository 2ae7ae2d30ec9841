//! The `GpuConfig` file: types (unknown keys are errors), parsing with positions, and
//! validation into the same `PoolSpec`s `create-pool` builds (every catalog rule applies).
//!
//! Field names are the `create-pool` flags in camelCase (`--vm-size` → `vmSize`), except
//! `taints` (`--node-taints`; `nodeTaints` is accepted too).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::locate::{locate, parse_path};
use crate::catalog::Catalog;
use crate::catalog::KubeVersion;
use crate::domain::setting::{Setting, Words};
use crate::domain::{EvictionPolicy, GpuDriver, Os, OsDiskType, Precision, RankBy};
use crate::plan::agent_pool::{check_cluster, check_pool_name, check_resource_group, PoolRequest, PoolSpec, SpecError};

mod parse;
mod validate;

#[allow(unused_imports)]
use parse::*;
pub use parse::{parse, MAX_EXPANDED};
#[allow(unused_imports)]
use validate::*;
pub use validate::{by_name, check_alone, validate, PickRefusal, Picked, Picker, RecommendCheck};

/// The only `apiVersion` this version reads.
pub const API_VERSION: &str = "aksgpu/v1";
/// The only `kind`.
pub const KIND: &str = "GpuConfig";

/// The whole file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GpuConfig {
    pub api_version: String,
    pub kind: String,
    pub cluster: ClusterRef,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
    #[serde(default)]
    pub pools: Vec<PoolConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operator: Option<OperatorConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kaito: Option<KaitoConfig>,
    /// Catalog rule ids whose refusal becomes a warning (`create-pool --override`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<String>,
}

/// Which cluster (`subscription` optional, as with `--subscription`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClusterRef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscription: Option<String>,
    pub resource_group: String,
    pub name: String,
}

/// An availability zone, written `1` or `"1"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Zone {
    Number(u8),
    Text(String),
}

impl Zone {
    fn text(&self) -> String {
        match self {
            Zone::Number(n) => n.to_string(),
            Zone::Text(t) => t.clone(),
        }
    }
}

/// One pool: the `create-pool` flags.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PoolConfig {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vm_size: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recommend: Option<RecommendConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_count: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_count: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub os: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub os_sku: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kubernetes_version: Option<String>,
    /// Absent: the default GPU taint; `[]`: none.
    #[serde(default, alias = "nodeTaints", skip_serializing_if = "Option::is_none")]
    pub taints: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "unique_map")]
    pub labels: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "unique_map")]
    pub tags: BTreeMap<String, String>,
    /// `Install` or `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_driver: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mig_profile: Option<String>,
    /// An AKS-managed GPU pool (`gpuProfile.nvidia.managementMode: Managed`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub managed_gpu: bool,
    /// Managed MIG: `Single` or `Mixed` (`gpuProfile.nvidia.migStrategy`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mig_strategy: Option<String>,
    /// Managed MIG partitions per GPU (`gpuProfile.nvidia.migProfiles`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mig_profiles: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub spot: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spot_max_price: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eviction_policy: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<Zone>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_pods: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub os_disk_type: Option<String>,
    /// Capacity reservation group resource id (`capacityReservationGroupID` on the pool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity_reservation_group: Option<String>,
    /// Sizes to try, in order, when Azure has no capacity or quota for `vmSize`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fallback_vm_sizes: Vec<String>,
}

/// A map of strings in which a key given twice is an error (serde keeps the last silently).
fn unique_map<'de, D: serde::Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    struct Unique;
    impl<'de> serde::de::Visitor<'de> for Unique {
        type Value = BTreeMap<String, String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a map of strings")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some(k) = m.next_key::<String>()? {
                let v: String = m.next_value()?;
                if out.contains_key(&k) {
                    return Err(serde::de::Error::custom(format!("key {} is given twice", clip(&k))));
                }
                out.insert(k, v);
            }
            Ok(out)
        }
    }
    d.deserialize_map(Unique)
}

/// A value for an error message: long values are cut, so a huge input is never echoed back.
pub fn clip(text: &str) -> String {
    const MAX: usize = 64;
    if text.chars().count() <= MAX {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(MAX).collect();
    format!("{head:?}… ({} bytes)", text.len())
}

/// Every run of more than 80 characters without a space in `message`, cut.
fn clip_message(message: &str) -> String {
    message
        .split(' ')
        .map(|w| {
            if w.chars().count() > 80 {
                format!("{}…", w.chars().take(64).collect::<String>())
            } else {
                w.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `recommend:` instead of `vmSize:` (the `create-pool --recommend` flags).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RecommendConfig {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workload: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Parameter count of a model not in the catalog: `8B`, `1.5T`, or a bare number (below
    /// 10,000: billions), as `--model-params` reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_params: Option<Params>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_memory_min: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gpu_model: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_price_per_hour: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_price_per_month: Option<f64>,
    /// Tokens of context per sequence (`--context`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_tokens_per_second: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_tokens_per_second_per_user: Option<f64>,
    /// Longest time to first token: `2s`, `800ms`, or bare seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_ttft: Option<Latency>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kv_cache_precision: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tensor_parallel: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pipeline_parallel: Option<u32>,
    /// Mixture of experts: GPUs per stage that each hold 1/N of the experts, attention data
    /// parallel across them (`--expert-parallel`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expert_parallel: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank_by: Option<String>,
}

/// A parameter count, written `8B`, `"1.5T"` or a bare number (billions below 10,000).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Params {
    Number(f64),
    Text(String),
}

/// A latency, written `2s`, `"800ms"` or a bare number of seconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Latency {
    Seconds(f64),
    Text(String),
}

/// The fields of `recommend:` that are not plain numbers, parsed as their flags parse them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ServingChoices {
    /// Billions of parameters (`modelParams`).
    pub model_params: Option<f64>,
    pub max_ttft: Option<f64>,
    pub kv_cache_precision: Option<Precision>,
    pub rank_by: Option<RankBy>,
}

impl RecommendConfig {
    /// The serving fields and the parameter count checked as `recommend`'s flags check them;
    /// an error names the field (camelCase, under `recommend.`) and what is wrong.
    pub fn serving(&self) -> Result<ServingChoices, (&'static str, String)> {
        let positive = |field: &'static str, v: Option<f64>| match v {
            Some(x) if !x.is_finite() || x <= 0.0 => {
                Err((field, format!("{x} is not a positive rate; write 20, 2500")))
            }
            _ => Ok(()),
        };
        positive("minTokensPerSecond", self.min_tokens_per_second)?;
        positive("minTokensPerSecondPerUser", self.min_tokens_per_second_per_user)?;
        for (field, v) in [
            ("context", self.context),
            ("concurrency", self.concurrency),
            ("inputTokens", self.input_tokens),
            ("outputTokens", self.output_tokens),
            ("tensorParallel", self.tensor_parallel.map(u64::from)),
            ("pipelineParallel", self.pipeline_parallel.map(u64::from)),
            ("expertParallel", self.expert_parallel.map(u64::from)),
        ] {
            if v == Some(0) {
                return Err((field, "must be at least 1".to_owned()));
            }
        }
        let model_params = match &self.model_params {
            None => None,
            Some(Params::Number(x)) => {
                Some(crate::units::parse_params(&x.to_string()).map_err(|e| ("modelParams", e))?)
            }
            Some(Params::Text(t)) => Some(crate::units::parse_params(t).map_err(|e| ("modelParams", e))?),
        };
        let max_ttft = match &self.max_ttft {
            None => None,
            Some(Latency::Seconds(x)) => Some(crate::units::parse_latency(&x.to_string()).map_err(|e| ("maxTtft", e))?),
            Some(Latency::Text(t)) => Some(crate::units::parse_latency(t).map_err(|e| ("maxTtft", e))?),
        };
        const KV: &[Precision] = &[Precision::Bf16, Precision::Fp16, Precision::Fp8];
        let kv_cache_precision = match self.kv_cache_precision.as_deref() {
            None => None,
            Some(t) => Some(
                by_name(KV, Precision::name, t.trim())
                    .ok_or_else(|| ("kvCachePrecision", format!("{} is not bf16, fp16 or fp8", clip(t))))?,
            ),
        };
        let rank_by = match self.rank_by.as_deref() {
            None => None,
            Some(t) => Some(
                by_name(RankBy::ALL, RankBy::name, t.trim())
                    .ok_or_else(|| ("rankBy", format!("{} is not price or cost-per-token", clip(t))))?,
            ),
        };
        Ok(ServingChoices { model_params, max_ttft, kv_cache_precision, rank_by })
    }
}

/// The NVIDIA GPU Operator.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OperatorConfig {
    #[serde(default)]
    pub install: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mig_strategy: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chart_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_slicing: Option<u32>,
}

/// KAITO.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KaitoConfig {
    #[serde(default)]
    pub enabled: bool,
    /// Reserved: Workspaces are Kubernetes objects (`aksgpu kaito workspace | kubectl apply`);
    /// this version refuses a non-empty list rather than ignore it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub workspaces: Vec<serde_json::Value>,
}

/// What the file asks for, validated.
#[derive(Debug, Clone)]
pub struct Desired {
    pub subscription: String,
    pub resource_group: String,
    pub cluster: String,
    pub features: Vec<String>,
    pub pools: Vec<PoolSpec>,
    /// Pool name → the pools to try in turn when Azure has no capacity or quota for it
    /// (`fallbackVmSizes`), validated like the pool itself.
    pub fallbacks: BTreeMap<String, Vec<PoolSpec>>,
    /// `Some` when the operator is to be installed.
    pub operator: Option<OperatorConfig>,
    /// `Some(wanted)` when the file says anything about KAITO.
    pub kaito: Option<bool>,
    /// Per pool name, the `Difference` fields the file leaves out (a default for new pools
    /// filled them in). They are never compared with an existing pool: a new pool's default
    /// never changes an existing one.
    pub implicit: BTreeMap<String, Vec<&'static str>>,
    /// Per pool name, a rule only a new pool must meet (an OS SKU AKS no longer provisions
    /// for the size): refused if the pool is absent, not if it exists as the file says.
    pub new_only: BTreeMap<String, ConfigError>,
}

/// A bad file: where, what, and the fix. Exit 2. The words name each setting a file gives by
/// its key; one a file cannot give stays a slot for the front end to word (a flag). Like
/// [`Words`] it has no `Display`.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: Words,
    /// Boxed: the error stays small.
    pub hint: Option<Box<Words>>,
}

impl ConfigError {
    /// `file:line:column: message`.
    pub fn words(&self) -> Words {
        Words::plain(format!("{}:{}:{}: ", self.file, self.line, self.column)).then("", self.message.clone())
    }
}

/// A pool refusal's message in a file's words: each setting named by its key (`minCount 3 is
/// larger than maxCount 1`).
pub fn message_words(w: &Words) -> Words {
    w.name_some(|s| s.file_key().map(str::to_owned))
}

/// A hint or note in a file's words: each setting named by the key to write (`` `gpuDriver:` ``,
/// and `` `taints: []` `` for one given no value). A setting inside an aksgpu command line
/// keeps its flag, and one a file cannot give stays a slot for the front end.
pub fn hint_words(w: &Words) -> Words {
    w.name_none(|s| s.file_key().map(|k| format!("`{k}: []`"))).name_some(|s| s.file_key().map(|k| format!("`{k}:`")))
}

/// Words with each long word cut (a value pasted by mistake).
fn clip_words(w: Words) -> Words {
    Words { text: clip_message(&w.text), ..w }
}

/// The file's text with its name, for positions.
pub struct Source<'a> {
    pub name: String,
    pub text: &'a str,
}

impl Source<'_> {
    /// An error at `path` (e.g. `pools[1].vmSize`), or at its nearest parent.
    pub fn error(&self, path: &str, message: impl Into<Words>, hint: Option<Words>) -> ConfigError {
        let (line, column) = locate(self.text, &parse_path(path)).unwrap_or((1, 1));
        let message = clip_words(Words::plain(format!("{path}: ")).then("", message.into()));
        ConfigError { file: self.name.clone(), line, column, message, hint: hint.map(|h| Box::new(hint_words(&h))) }
    }

    /// An error at `path` whose message names the key itself (`pools[1].recommend.model
    /// "x" is not in the catalog`).
    pub fn error_naming(&self, path: &str, message: impl Into<Words>, hint: Option<Words>) -> ConfigError {
        let (line, column) = locate(self.text, &parse_path(path)).unwrap_or((1, 1));
        let hint = hint.map(|h| Box::new(hint_words(&h)));
        ConfigError { file: self.name.clone(), line, column, message: clip_words(message.into()), hint }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "apiVersion: aksgpu/v1
kind: GpuConfig
cluster: {resourceGroup: rg, name: c1}
pools:
  - name: gpunp
    vmSize: Standard_NC24ads_A100_v4
    minCount: 1
    maxCount: 3
    taints: [\"sku=gpu:NoSchedule\"]
    labels: {team: ml}
    gpuDriver: Install
    migProfile: null
    spot: false
";

    fn check(text: &str) -> Result<Desired, Shown> {
        let src = Source { name: "f.yaml".into(), text };
        let cfg = parse(&src).map_err(shown)?;
        let no_pick = |_: &str, _: &PoolConfig, _: &RecommendConfig| Err("no".to_owned().into());
        validate(&Catalog::bundled().expect("catalog"), &src, &cfg, "sub", &no_pick).map_err(shown)
    }

    /// A file's error as the CLI prints it.
    #[derive(Debug)]
    struct Shown {
        line: usize,
        column: usize,
        message: String,
        hint: Option<String>,
    }

    impl std::fmt::Display for Shown {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "f.yaml:{}:{}: {}", self.line, self.column, self.message)
        }
    }

    fn shown(e: ConfigError) -> Shown {
        Shown { line: e.line, column: e.column, message: cli(&e.message), hint: e.hint.as_deref().map(cli) }
    }

    /// Words as the CLI says them (a setting a file cannot give).
    fn cli(w: &Words) -> String {
        let flag = |s: Setting| format!("--{}", s.long());
        w.render(flag, flag)
    }

    #[test]
    fn settings_in_hints_read_as_file_keys() {
        let w = Words::new(
            "add {0}, or {1} (`aksgpu recommend {2:flag}`); {3:none} for none",
            &[Setting::ManagedGpu, Setting::Location, Setting::Mig, Setting::NodeTaints],
        );
        assert_eq!(
            cli(&hint_words(&w)),
            "add `managedGpu:`, or --location (`aksgpu recommend --mig`); `taints: []` for none"
        );
        assert_eq!(
            cli(&message_words(&Words::new("{0} is set", &[Setting::ResourceGroup]))),
            "cluster.resourceGroup is set"
        );
    }

    /// A pool refusal names its settings by id: the file words them as keys, with the line.
    #[test]
    fn pool_refusals_name_the_file_keys() {
        let text = GOOD.replace("maxCount: 3", "maxCount: 3\n    count: 5");
        assert_ne!(text, GOOD, "the fixture sets maxCount");
        let e = check(&text).expect_err("count outside the range");
        assert!(e.message.starts_with("pools[0].count: count 5 is outside minCount 1 … maxCount 3"), "{e}");
        assert!(!e.message.contains("--") && !e.message.contains('{'), "{e}");
    }

    #[test]
    fn the_issue_example_validates() {
        let d = check(GOOD).expect("valid");
        assert_eq!(d.pools[0].autoscale, Some((1, 3)));
        assert_eq!(d.pools[0].labels.get("team").map(String::as_str), Some("ml"));
        assert_eq!(d.pools[0].gpu_driver, Some("Install"));
    }

    #[test]
    fn unknown_keys_are_errors_with_positions() {
        let e = check(&GOOD.replace("    spot: false", "    spto: false")).expect_err("unknown");
        assert_eq!((e.line, e.column), (13, 5), "{e}");
        assert!(e.message.contains("spto is not a key here"), "{e}");
        assert!(e.hint.as_deref().is_some_and(|h| h.starts_with("did you mean spot?")), "{e:?}");
    }

    #[test]
    fn catalog_rules_apply_with_the_fields_position() {
        let e = check(&GOOD.replace("Standard_NC24ads_A100_v4", "Standard_NC6s_v3")).expect_err("retired");
        assert_eq!((e.line, e.column), (6, 13), "{e}");
        assert!(e.message.starts_with("pools[0].vmSize: ") && e.message.contains("retired"), "{e}");
        let e = check(&GOOD.replace("minCount: 1", "minCount: 5")).expect_err("min > max");
        assert!(e.message.contains("minCount 5 is larger than maxCount 3"), "{e}");
        assert_eq!(e.line, 7, "{e}");
        let e = check(&GOOD.replace("migProfile: null", "migProfile: MIG9g")).expect_err("mig");
        assert_eq!(e.line, 12, "{e}");
        let e = check(&GOOD.replace("aksgpu/v1", "aksgpu/v2")).expect_err("version");
        assert_eq!((e.line, e.column), (1, 13), "{e}");
    }

    #[test]
    fn operator_rules_of_create_pool_apply() {
        let text = GOOD.replace("minCount: 1", "minCount: 0").replace("    gpuDriver: Install\n", "")
            + "operator: {install: true, migStrategy: single}\n";
        // The autoscaler minimum is advice: 0 is a warning naming the rule, its source and the risk.
        let zero = check(&text).expect("a minimum of 0 is allowed");
        let w: Vec<String> = zero.pools[0].warnings.iter().map(cli).collect();
        assert!(
            w.len() == 1
                && w[0].contains("rule operator-autoscaler-min")
                && w[0].contains("use-nvidia-gpu.md")
                && w[0].contains("risk:"),
            "{w:?}"
        );
        let ok = check(&text.replace("minCount: 0", "minCount: 1")).expect("valid");
        assert!(ok.pools[0].warnings.is_empty());
        assert_eq!(ok.pools[0].gpu_driver, Some("None"), "the operator installs the driver, as create-pool");
    }

    #[test]
    fn values_the_flags_would_split_or_drop_are_errors_with_the_line() {
        let e = check(&GOOD.replace("labels: {team: ml}", "labels: {team: ml}\n    tags: {owner: \"ml,team=x\"}"))
            .expect_err("comma in a tag value");
        assert_eq!(e.line, 11, "{e}");
        assert!(e.message.starts_with("pools[0].tags") && e.message.contains("comma"), "{e}");
        let e = check(&GOOD.replace("labels: {team: ml}", "labels:\n      team: ml\n      team: ops"))
            .expect_err("duplicate label");
        assert!(e.message.contains("given twice"), "{e}");
        assert!((10..=12).contains(&e.line), "{e}");
        let text = GOOD.replace(
            "    vmSize: Standard_NC24ads_A100_v4\n",
            "    recommend: {model: llama-3.1-8b, maxPricePerHour: .nan}\n",
        );
        let e = check(&text).expect_err("NaN price");
        assert_eq!(e.line, 6, "{e}");
        assert!(e.message.contains("maxPricePerHour") && e.message.contains("not a price"), "{e}");
    }

    #[test]
    fn serving_fields_are_checked_as_their_flags_are() {
        let with = |extra: &str| {
            GOOD.replace(
                "    vmSize: Standard_NC24ads_A100_v4\n",
                &format!("    recommend:\n      model: llama-3.1-8b\n      {extra}\n"),
            )
        };
        for (extra, field, says) in [
            ("rankBy: fastest", "rankBy", "not price or cost-per-token"),
            ("kvCachePrecision: int4", "kvCachePrecision", "not bf16, fp16 or fp8"),
            ("concurrency: 0", "concurrency", "at least 1"),
            ("tensorParallel: 0", "tensorParallel", "at least 1"),
            ("expertParallel: 0", "expertParallel", "at least 1"),
            ("context: 0", "context", "at least 1"),
            ("modelParams: 8Q", "modelParams", "not a parameter count"),
            ("modelParams: -5", "modelParams", "cannot be negative"),
            ("minTokensPerSecondPerUser: -5", "minTokensPerSecondPerUser", "not a positive rate"),
            ("maxTtft: 0s", "maxTtft", "not a latency"),
        ] {
            let e = check(&with(extra)).expect_err(extra);
            assert!(e.message.starts_with(&format!("pools[0].recommend.{field}")), "{extra}: {e}");
            assert!(e.message.contains(says), "{extra}: {e}");
            assert_eq!(e.line, 8, "{extra}: {e}");
        }
        let r = RecommendConfig {
            max_ttft: Some(Latency::Seconds(0.8)),
            kv_cache_precision: Some("FP8".into()),
            rank_by: Some("cost-per-token".into()),
            ..RecommendConfig::default()
        };
        let s = r.serving().expect("valid");
        assert_eq!(s.max_ttft, Some(0.8));
        assert_eq!((s.kv_cache_precision, s.rank_by), (Some(Precision::Fp8), Some(RankBy::CostPerToken)));
        let r = RecommendConfig { max_ttft: Some(Latency::Text("800ms".into())), ..r };
        assert!((r.serving().expect("valid").max_ttft.expect("ttft") - 0.8).abs() < 1e-9);
        // A parameter count reads as `--model-params` reads it: billions.
        for (given, billions) in
            [(Params::Text("1.5T".into()), 1500.0), (Params::Number(7e9), 7.0), (Params::Number(8.0), 8.0)]
        {
            let r = RecommendConfig { model_params: Some(given.clone()), ..RecommendConfig::default() };
            let got = r.serving().expect("valid").model_params.expect("params");
            assert!((got - billions).abs() < 1e-9, "{given:?}: {got}");
        }
    }

    #[test]
    fn cluster_names_are_checked_without_pools() {
        let text = "apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {resourceGroup: rg, name: \"c1/../x\"}\n";
        let e = check(text).expect_err("bad cluster name");
        assert!(e.message.starts_with("cluster.name"), "{e}");
        let e = check(&text.replace("c1/../x", "c1").replace("rg,", "\"r?g\",")).expect_err("bad group");
        assert!(e.message.starts_with("cluster.resourceGroup"), "{e}");
    }

    #[test]
    fn aliases_cannot_expand_without_bound_and_huge_values_are_not_echoed() {
        let long = "x".repeat(1 << 20);
        let mut text = format!("apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {{resourceGroup: rg, name: c1}}\nfeatures: [&a \"{long}\"");
        for _ in 0..40 {
            text.push_str(", *a");
        }
        text.push_str("]\n");
        let e = check(&text).expect_err("too large");
        assert!(e.message.contains("expands to more than"), "{}", &e.message[..e.message.len().min(300)]);
        let text = format!("apiVersion: aksgpu/v1\nkind: GpuConfig\ncluster: {{resourceGroup: rg, name: c1}}\nfeatures: [\"{long}!\"]\n");
        let e = check(&text).expect_err("not a name");
        assert!(e.message.len() < 400, "the value is echoed: {} bytes", e.message.len());
    }

    #[test]
    fn fields_the_file_leaves_out_are_implicit() {
        let d = check(GOOD).expect("valid");
        assert_eq!(d.implicit["gpunp"], ["mode", "scaleSetEvictionPolicy", "spotMaxPrice"]);
        let d =
            check(&GOOD.replace("    gpuDriver: Install\n", "").replace("    taints: [\"sku=gpu:NoSchedule\"]\n", ""))
                .expect("valid");
        assert!(d.implicit["gpunp"].contains(&"gpuProfile.driver") && d.implicit["gpunp"].contains(&"nodeTaints"));
    }

    #[test]
    fn a_misspelled_feature_gets_a_did_you_mean() {
        let e = check(&(GOOD.to_owned() + "features: [WindowsGPUPrevew]\n")).expect_err("misspelled");
        assert!(e.message.starts_with("features[0]"), "{e}");
        assert_eq!(e.hint.as_deref(), Some("did you mean WindowsGPUPreview?"));
    }

    /// `overrides:` turns a catalog refusal into a warning; an unknown id points at `overrides`.
    #[test]
    fn overrides_turn_catalog_refusals_into_warnings() {
        let text = GOOD.replace("    gpuDriver: Install\n", "    gpuDriver: Install\n    osSku: AzureLinux\n");
        // The refusal binds a new pool only (an existing pool exported with it round-trips).
        let d = check(&text).expect("valid for an existing pool");
        let e = &shown(d.new_only["gpunp"].clone());
        assert!(
            e.message.contains("AzureLinux")
                && e.hint.as_deref().unwrap_or("").contains("overrides: [catalog-size-os-skus]"),
            "{e:?}"
        );
        let ok = check(&(text.clone() + "overrides: [catalog-size-os-skus]\n")).expect("overridden");
        let w: Vec<String> = ok.pools[0].warnings.iter().map(cli).collect();
        assert!(
            w.len() == 1 && w[0].starts_with("overriding catalog rule catalog-size-os-skus") && w[0].contains("risk:"),
            "{w:?}"
        );
        let e = check(&(text + "overrides: [catalog-size-os-skuz]\n")).expect_err("typo");
        assert!(e.message.starts_with("overrides: "), "{e}");
    }

    /// Every setting's GpuConfig key is a key of the GpuConfig schema.
    #[test]
    fn every_file_key_is_a_key_of_the_file() {
        let schema: serde_json::Value =
            serde_json::from_str(include_str!("../../../../schema/gpuconfig.schema.json")).expect("schema");
        let text = schema.to_string();
        for s in Setting::ALL {
            let Some(key) = s.file_key() else { continue };
            let last = key.rsplit('.').next().unwrap_or(key);
            assert!(text.contains(&format!("\"{last}\"")), "{s:?}: {key} is not in the schema");
        }
    }
}
