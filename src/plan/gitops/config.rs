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
use crate::domain::{EvictionPolicy, GpuDriver, Os, OsDiskType, Precision, RankBy};
use crate::plan::agent_pool::{
    check_cluster, check_pool_name, check_resource_group, Field, PoolRequest, PoolSpec, SpecError,
};

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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank_by: Option<String>,
}

/// A latency, written `2s`, `"800ms"` or a bare number of seconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Latency {
    Seconds(f64),
    Text(String),
}

/// The serving fields of `recommend:` that are not plain numbers, parsed as their flags parse them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ServingChoices {
    pub max_ttft: Option<f64>,
    pub kv_cache_precision: Option<Precision>,
    pub rank_by: Option<RankBy>,
}

impl RecommendConfig {
    /// The serving fields checked as `recommend`'s flags check them; an error names the field
    /// (camelCase, under `recommend.`) and what is wrong.
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
            ("concurrency", self.concurrency),
            ("inputTokens", self.input_tokens),
            ("outputTokens", self.output_tokens),
            ("tensorParallel", self.tensor_parallel.map(u64::from)),
            ("pipelineParallel", self.pipeline_parallel.map(u64::from)),
        ] {
            if v == Some(0) {
                return Err((field, "must be at least 1".to_owned()));
            }
        }
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
        Ok(ServingChoices { max_ttft, kv_cache_precision, rank_by })
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

/// A bad file: where, what, and the fix. Exit 2.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct ConfigError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
    pub hint: Option<String>,
}

/// The file's text with its name, for positions.
pub struct Source<'a> {
    pub name: String,
    pub text: &'a str,
}

impl Source<'_> {
    /// An error at `path` (e.g. `pools[1].vmSize`), or at its nearest parent.
    pub fn error(&self, path: &str, message: impl Into<String>, hint: Option<String>) -> ConfigError {
        let (line, column) = locate(self.text, &parse_path(path)).unwrap_or((1, 1));
        let message = clip_message(&format!("{path}: {}", message.into()));
        ConfigError { file: self.name.clone(), line, column, message, hint: hint.map(|h| file_words(&h)) }
    }

    /// An error at `path` whose message names the key itself (`pools[1].recommend.model
    /// "x" is not in the catalog`).
    pub fn error_naming(&self, path: &str, message: impl Into<String>, hint: Option<String>) -> ConfigError {
        let (line, column) = locate(self.text, &parse_path(path)).unwrap_or((1, 1));
        let hint = hint.map(|h| file_words(&h));
        ConfigError { file: self.name.clone(), line, column, message: clip_message(&message.into()), hint }
    }
}

/// Text written for the CLI (a hint, a note) in the file's terms: a flag becomes the key that
/// sets it (`--gpu-driver` → `gpuDriver`), and a backticked flag the file line that does it
/// (`` `--override mig-models` `` → `` `overrides: [mig-models]` ``). Backticked commands
/// (`` `aksgpu recommend --mig` ``) are left as they are: they are commands to run.
pub fn file_words(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 {
            out.push_str(&match part.split_once(' ') {
                Some(("--override", ids)) => format!("overrides: [{}]", ids.replace(',', ", ")),
                Some((flag, value)) if flag.starts_with("--") => format!("{}: {value}", field_of_flag(flag)),
                None if part.starts_with("--") => field_of_flag(part),
                _ => part.to_owned(),
            });
        } else {
            out.push_str(&bare_flags(part));
        }
    }
    out
}

/// Flags outside backticks as the file's keys: `--node-taints ''` → `` `taints: []` ``,
/// `--gpu-driver` → `` `gpuDriver:` ``.
fn bare_flags(text: &str) -> String {
    let words: Vec<&str> = text.split(' ').collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        match w.strip_prefix("--") {
            Some(_) if words.get(i + 1) == Some(&"''") => {
                out.push(format!("`{}: []`", field_of_flag(w)));
                i += 1;
            }
            Some(_) => {
                let end = w.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).unwrap_or(w.len());
                out.push(format!("`{}:`{}", field_of_flag(&w[..end]), &w[end..]));
            }
            None => out.push(w.to_owned()),
        }
        i += 1;
    }
    out.join(" ")
}

/// serde's words for a value of the wrong type or range, and for unknown or missing keys, in
/// a person's: `count: invalid type: floating point `1.5`, expected u32` → `count: must be
/// a whole number, not 1.5`. The hint names the key that was meant, when one is close.
fn serde_words(message: &str) -> (String, Option<String>) {
    let (at, rest) = match message.split_once(": ") {
        Some((at, rest)) if !at.contains(' ') => (format!("{at}: "), rest),
        _ => (String::new(), message),
    };
    let tick = |s: &str| s.split('`').nth(1).map(str::to_owned);
    if let Some(r) = rest.strip_prefix("unknown field ") {
        let (name, known) = r.split_once(", expected ").unwrap_or((r, ""));
        let name = name.trim_matches('`');
        let keys: Vec<&str> = known.split(", ").map(|k| k.trim_start_matches("one of ").trim_matches('`')).collect();
        let close = keys
            .iter()
            .map(|k| (crate::catalog::edit_distance(&name.to_ascii_lowercase(), &k.to_ascii_lowercase()), *k))
            .filter(|(d, _)| *d <= 3)
            .min();
        let hint = match close {
            Some((_, k)) => format!("did you mean {k}? (keys here: {})", keys.join(", ")),
            None => format!("keys here: {}", keys.join(", ")),
        };
        return (format!("{at}{name} is not a key here"), Some(hint));
    }
    if let Some(r) = rest.strip_prefix("missing field ") {
        return (format!("{at}{} is required", r.trim_matches('`')), None);
    }
    if let Some(r) = rest.strip_prefix("unknown variant ") {
        let (value, known) = r.split_once(", expected ").unwrap_or((r, ""));
        let known = known.trim_start_matches("one of ").replace('`', "");
        return (format!("{at}{} is not one of: {known}", value.trim_matches('`')), None);
    }
    let Some((got, expected)) = rest.split_once(", expected ") else { return (message.to_owned(), None) };
    let out_of_range = got.starts_with("invalid value: ");
    let value = match got.strip_prefix("invalid type: ").or_else(|| got.strip_prefix("invalid value: ")) {
        Some(v) if v.starts_with("string ") => v.trim_start_matches("string ").to_owned(),
        Some(v) => tick(v).unwrap_or_else(|| v.to_owned()),
        None => return (message.to_owned(), None),
    };
    let whole = |max: &str| match out_of_range {
        true => format!("must be a whole number no larger than {max}"),
        false => "must be a whole number (0 or more)".to_owned(),
    };
    let want = match expected {
        "u8" => whole("255"),
        "u16" => whole("65535"),
        "u32" => whole("4294967295"),
        "u64" | "usize" => whole("18446744073709551615"),
        "i8" | "i16" | "i32" | "i64" | "isize" => "must be a whole number".to_owned(),
        "f32" | "f64" => "must be a number".to_owned(),
        "a boolean" => "must be true or false".to_owned(),
        "a string" | "a borrowed string" | "a character" => "must be text (quote it)".to_owned(),
        "a sequence" => "must be a list".to_owned(),
        e if e.starts_with("a map") || e.starts_with("struct ") => "must be a mapping of keys to values".to_owned(),
        e => format!("must be {e}"),
    };
    (format!("{at}{want}, not {value}"), None)
}

/// Parse the file (YAML, or JSON, which YAML reads too). Unknown keys and wrong types are
/// errors with the position serde_yaml_ng reports.
pub fn parse(src: &Source<'_>) -> Result<GpuConfig, ConfigError> {
    check_expanded_size(src)?;
    let cfg: GpuConfig = serde_yaml_ng::from_str(src.text).map_err(|e| {
        let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
        let text = e.to_string();
        let (message, hint) = serde_words(text.split(" at line ").next().unwrap_or(&text));
        ConfigError {
            file: src.name.clone(),
            line,
            column,
            message: clip_message(&message),
            hint: hint.or_else(|| {
                Some("see schema/gpuconfig.schema.json for every field; `aksgpu export` writes a valid file".into())
            }),
        }
    })?;
    if cfg.api_version != API_VERSION {
        return Err(src.error(
            "apiVersion",
            format!("{:?} is not supported", cfg.api_version),
            Some(format!("use apiVersion: {API_VERSION}")),
        ));
    }
    if cfg.kind != KIND {
        return Err(src.error("kind", format!("{:?} is not supported", cfg.kind), Some(format!("use kind: {KIND}"))));
    }
    Ok(cfg)
}

/// The most text a file may expand to through YAML aliases (`*a` repeats what `&a` names).
pub const MAX_EXPANDED: usize = 16 << 20;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
/// A serde visitor that only adds up the lengths of what it visits (aliases expanded).
struct Count<'a>(&'a std::cell::Cell<usize>);
impl Count<'_> {
    fn add<E: serde::de::Error>(&self, n: usize) -> Result<(), E> {
        self.0.set(self.0.get().saturating_add(n));
        if self.0.get() > MAX_EXPANDED {
            return Err(E::custom(format!(
                "the document expands to more than {} MiB through YAML aliases",
                MAX_EXPANDED >> 20
            )));
        }
        Ok(())
    }
}
impl<'de> DeserializeSeed<'de> for Count<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}
impl<'de> Visitor<'de> for Count<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
        self.add(8)
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
        self.add(8)
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
        self.add(8)
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
        self.add(8)
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        self.add(v.len() + 8)
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.add(8)
    }
    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        self.add(8)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<(), A::Error> {
        while s.next_element_seed(Count(self.0))?.is_some() {
            self.add(8)?;
        }
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<(), A::Error> {
        while m.next_key_seed(Count(self.0))?.is_some() {
            m.next_value_seed(Count(self.0))?;
            self.add(8)?;
        }
        Ok(())
    }
}

/// Refuse a document whose aliases expand it beyond [`MAX_EXPANDED`] bytes, before anything
/// builds the expanded values: a walk that only counts lengths.
fn check_expanded_size(src: &Source<'_>) -> Result<(), ConfigError> {
    let total = std::cell::Cell::new(0);
    let de = serde_yaml_ng::Deserializer::from_str(src.text);
    match Count(&total).deserialize(de) {
        Ok(()) => Ok(()),
        // Any other problem is reported by the typed parse, with its own position.
        Err(e) if !e.to_string().contains("through YAML aliases") => Ok(()),
        Err(e) => {
            let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
            Err(ConfigError {
                file: src.name.clone(),
                line,
                column,
                message: format!("the document expands to more than {} MiB through YAML aliases", MAX_EXPANDED >> 20),
                hint: Some("write the values out instead of repeating them through aliases".into()),
            })
        }
    }
}

/// The file field a `create-pool` flag error names (`--vm-size` → `vmSize`).
pub fn field_of_flag(flag: &str) -> String {
    match flag {
        "--node-taints" => "taints".into(),
        "--resource-group" => "cluster.resourceGroup".into(),
        "--cluster" => "cluster.name".into(),
        "--override" => "overrides".into(),
        "--gpu-mig-strategy" => "migStrategy".into(),
        other => {
            let mut out = String::new();
            let mut upper = false;
            for c in other.trim_start_matches('-').chars() {
                if c == '-' {
                    upper = true;
                } else if upper {
                    out.push(c.to_ascii_uppercase());
                    upper = false;
                } else {
                    out.push(c);
                }
            }
            out
        }
    }
}

/// Chooses a size for `recommend:` (the `create-pool --recommend` choice) for the pool at
/// the path given (`pools[1]`).
pub type Picker<'a> = dyn Fn(&str, &PoolConfig, &RecommendConfig) -> Result<String, PickRefusal> + 'a;

/// Why a pool's `recommend:` chose no size, worded in the file's keys, with the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickRefusal {
    pub message: String,
    pub hint: Option<String>,
    /// The key the refusal is about (`pools[1].recommend.tensorParallel`), which its words
    /// name themselves; none for the pool's `recommend:` as a whole.
    pub key: Option<String>,
}

impl From<String> for PickRefusal {
    fn from(message: String) -> Self {
        PickRefusal { message, hint: None, key: None }
    }
}

/// Validate the whole file into `Desired`. `subscription` is the one resolved from the file,
/// `--subscription` or the environment (a placeholder for offline dry runs).
pub fn validate(
    catalog: &Catalog,
    src: &Source<'_>,
    cfg: &GpuConfig,
    subscription: &str,
    pick: &Picker<'_>,
) -> Result<Desired, ConfigError> {
    check_names(src, cfg)?;
    let installs_operator = cfg.operator.as_ref().is_some_and(|o| o.install);
    let mut pools = Vec::new();
    let mut fallbacks = BTreeMap::new();
    let mut implicit = BTreeMap::new();
    let mut new_only = BTreeMap::new();
    for (i, p) in cfg.pools.iter().enumerate() {
        let at = format!("pools[{i}]");
        if cfg.pools[..i].iter().any(|q| q.name == p.name) {
            return Err(src.error(&format!("{at}.name"), format!("pool {} is listed twice", p.name), None));
        }
        let (spec, for_new, more) = pool_spec(catalog, src, cfg, p, &at, subscription, installs_operator, pick)?;
        if !more.is_empty() {
            fallbacks.insert(spec.name.clone(), more);
        }
        implicit.insert(p.name.clone(), implicit_fields(p));
        if let Some(e) = for_new {
            new_only.insert(p.name.clone(), e);
        }
        pools.push(spec);
    }
    if let Some(o) = &cfg.operator {
        check_operator(catalog, src, o, pools.iter_mut().enumerate())?;
    }
    if let Some(k) = &cfg.kaito {
        if !k.workspaces.is_empty() {
            return Err(src.error(
                "kaito.workspaces",
                "Workspaces are not applied by this version",
                Some(
                    "leave the list empty and apply each with: aksgpu kaito workspace --model M | kubectl apply -f -"
                        .into(),
                ),
            ));
        }
    }
    Ok(Desired {
        subscription: subscription.to_owned(),
        resource_group: cfg.cluster.resource_group.clone(),
        cluster: cfg.cluster.name.clone(),
        features: cfg.features.clone(),
        pools,
        fallbacks,
        operator: cfg.operator.clone().filter(|o| o.install),
        kaito: cfg.kaito.as_ref().map(|k| k.enabled),
        implicit,
        new_only,
    })
}

/// The fields of a pool the file does not state, which a new pool gets by default.
fn implicit_fields(p: &PoolConfig) -> Vec<&'static str> {
    // The file has no `mode`: apply creates User pools, and leaves an existing pool's mode.
    let mut out = vec!["mode"];
    if p.gpu_driver.is_none() {
        out.push("gpuProfile.driver");
    }
    if p.taints.is_none() {
        out.push("nodeTaints");
    }
    if p.eviction_policy.is_none() {
        out.push("scaleSetEvictionPolicy");
    }
    if p.spot_max_price.is_none() {
        out.push("spotMaxPrice");
    }
    out
}

/// Values the `create-pool` flags would split or that are not numbers: errors at their line.
fn check_values(src: &Source<'_>, p: &PoolConfig, at: &str) -> Result<(), ConfigError> {
    for (field, map) in [("tags", &p.tags), ("labels", &p.labels)] {
        for (k, v) in map {
            if k.contains([',', '=']) || v.contains(',') {
                return Err(src.error(
                    &format!("{at}.{field}.{k}"),
                    format!(
                        "{}={} contains a comma or an = in the key: it would be read as two entries",
                        clip(k),
                        clip(v)
                    ),
                    Some("AKS tags and labels cannot hold a comma; use another separator such as ; or _".into()),
                ));
            }
        }
    }
    let price = p.recommend.as_ref().and_then(|r| r.max_price_per_hour);
    if let Some(x) = price.filter(|x| !x.is_finite() || *x <= 0.0) {
        return Err(src.error(
            &format!("{at}.recommend.maxPricePerHour"),
            format!("{x} is not a price: write a positive number of USD per hour"),
            None,
        ));
    }
    if let Some(Err((field, message))) = p.recommend.as_ref().map(RecommendConfig::serving) {
        return Err(src.error(&format!("{at}.recommend.{field}"), message, None));
    }
    if let Some(x) = p.spot_max_price.filter(|x| x.is_nan()) {
        return Err(src.error(&format!("{at}.spotMaxPrice"), format!("{x} is not a price"), None));
    }
    Ok(())
}

/// The names that go into every request URL (checked even when the file has no pools), and
/// the features' names.
fn check_names(src: &Source<'_>, cfg: &GpuConfig) -> Result<(), ConfigError> {
    check_resource_group(&cfg.cluster.resource_group)
        .map_err(|e| src.error("cluster.resourceGroup", strip_flag(&e.message), e.hint))?;
    check_cluster(&cfg.cluster.name).map_err(|e| src.error("cluster.name", strip_flag(&e.message), e.hint))?;
    for (i, f) in cfg.features.iter().enumerate() {
        if f.is_empty() || !f.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err(src.error(&format!("features[{i}]"), format!("{} is not a feature name", clip(f)), None));
        }
        if let Some(known) = crate::plan::features::misspelling_of(crate::plan::features::NAMESPACE, f) {
            return Err(src.error(
                &format!("features[{i}]"),
                format!("{f} is not a feature this version knows"),
                Some(format!("did you mean {known}?")),
            ));
        }
    }
    Ok(())
}

/// Checks a `recommend:` block on its own (no cluster read): `Err` refuses the pool.
pub type RecommendCheck<'a> = dyn Fn(&str, &PoolConfig, &RecommendConfig) -> Result<(), PickRefusal> + 'a;

/// What the file's pools can be refused for on their own, before any request: names, values
/// (a NaN price, a comma in a label), `vmSize` and `recommend` together or neither, and each
/// `recommend:` block by `check` (its settings and model). Only what needs Azure's answer
/// (which size fits in the cluster's region) is left to [`validate`] after the reads.
pub fn check_alone(
    catalog: &Catalog,
    src: &Source<'_>,
    cfg: &GpuConfig,
    check: &RecommendCheck<'_>,
) -> Result<(), ConfigError> {
    check_names(src, cfg)?;
    let installs_operator = cfg.operator.as_ref().is_some_and(|o| o.install);
    let never = |_: &str, _: &PoolConfig, _: &RecommendConfig| -> Result<String, PickRefusal> {
        Err(PickRefusal::from("a recommend: pool is not checked here".to_owned()))
    };
    for (i, p) in cfg.pools.iter().enumerate() {
        let at = format!("pools[{i}]");
        if cfg.pools[..i].iter().any(|q| q.name == p.name) {
            return Err(src.error(&format!("{at}.name"), format!("pool {} is listed twice", p.name), None));
        }
        check_pool_name(&p.name).map_err(|e| src.error(&format!("{at}.name"), e.message, e.hint))?;
        check_values(src, p, &at)?;
        let alone = |at: &str, p: &PoolConfig, r: &RecommendConfig| check(at, p, r).map(|()| String::new());
        vm_size(src, p, &at, &alone)?;
        // A pool that names its size is checked whole, as `validate` checks it (the refusal
        // kept for a new pool only waits: whether the pool exists is Azure's answer).
        if p.recommend.is_none() {
            let (mut spec, ..) = pool_spec(catalog, src, cfg, p, &at, "{subscription}", installs_operator, &never)?;
            if let Some(o) = &cfg.operator {
                check_operator(catalog, src, o, [(i, &mut spec)])?;
            }
            continue;
        }
        // A `recommend:` pool's size waits for the cluster's region; its other fields, and the
        // operator's rules that do not depend on the size, are checked now.
        let typed = Typed::parse(src, p, &at, installs_operator)?;
        if installs_operator && typed.os == Some(crate::domain::Os::Windows) {
            return Err(src.error(&format!("{at}.os"), WINDOWS_OPERATOR, None));
        }
    }
    if let Some(o) = &cfg.operator {
        check_operator(catalog, src, o, std::iter::empty())?;
    }
    Ok(())
}

const WINDOWS_OPERATOR: &str = "the NVIDIA GPU Operator does not support Windows pools";

/// The pool's size: `vmSize`, or the one its `recommend:` picks (one of them, not both).
fn vm_size(src: &Source<'_>, p: &PoolConfig, at: &str, pick: &Picker<'_>) -> Result<String, ConfigError> {
    match (&p.vm_size, &p.recommend) {
        (Some(s), None) => Ok(s.clone()),
        (None, Some(r)) => pick(at, p, r).map_err(|e| match e.key {
            Some(key) => src.error_naming(&key, e.message, e.hint),
            None => src.error(&format!("{at}.recommend"), e.message, e.hint),
        }),
        (Some(_), Some(_)) => Err(src.error(&format!("{at}.recommend"), "give vmSize or recommend, not both", None)),
        (None, None) => {
            Err(src.error(at, "vmSize is required", Some("or write recommend: {model: …, precision: …}".into())))
        }
    }
}

/// One pool → `PoolRequest` → `PoolSpec::validate`, the same checks as `create-pool`. Returns
/// the pool's spec, the refusal kept for a new pool only, and the failover candidates after it.
#[allow(clippy::too_many_arguments)]
fn pool_spec(
    catalog: &Catalog,
    src: &Source<'_>,
    cfg: &GpuConfig,
    p: &PoolConfig,
    at: &str,
    subscription: &str,
    installs_operator: bool,
    pick: &Picker<'_>,
) -> Result<(PoolSpec, Option<ConfigError>, Vec<PoolSpec>), ConfigError> {
    check_pool_name(&p.name).map_err(|e| src.error(&format!("{at}.name"), e.message, e.hint))?;
    check_values(src, p, at)?;
    let vm_size = vm_size(src, p, at, pick)?;
    let typed = Typed::parse(src, p, at, installs_operator)?;
    let req = PoolRequest {
        subscription: subscription.to_owned(),
        resource_group: cfg.cluster.resource_group.clone(),
        cluster: cfg.cluster.name.clone(),
        name: p.name.clone(),
        vm_size,
        count: p.count,
        min_count: p.min_count,
        max_count: p.max_count,
        os: typed.os,
        os_sku: p.os_sku.clone(),
        kubernetes_version: typed.kubernetes_version,
        taints: p.taints.clone(),
        labels: p.labels.iter().map(|(k, v)| format!("{k}={v}")).collect(),
        mig_profile: p.mig_profile.clone(),
        gpu_driver: typed.gpu_driver,
        managed_gpu: p.managed_gpu,
        mig_strategy: p.mig_strategy.clone(),
        mig_profiles: p.mig_profiles.clone(),
        spot: p.spot,
        spot_max_price: p.spot_max_price,
        eviction_policy: typed.eviction_policy,
        zones: p.zones.iter().map(Zone::text).collect(),
        max_pods: p.max_pods,
        os_disk_type: typed.os_disk_type,
        tags: p.tags.iter().map(|(k, v)| format!("{k}={v}")).collect(),
        capacity_reservation_group: p.capacity_reservation_group.clone(),
        overrides: cfg.overrides.clone(),
    };
    let to_config = |e: SpecError| {
        let key = e.field.config_key();
        let path = if e.field.is_file_level() { key.to_owned() } else { format!("{at}.{key}") };
        src.error(&path, strip_flag(&e.message), e.hint)
    };
    let more: Vec<PoolSpec> = if p.fallback_vm_sizes.is_empty() {
        Vec::new()
    } else {
        crate::plan::failover::candidates(catalog, &req, &p.fallback_vm_sizes)
            .map_err(|e| src.error(&format!("{at}.fallbackVmSizes"), strip_flag(&e.message), e.hint))?
            .into_iter()
            .skip(1)
            .collect()
    };
    match PoolSpec::validate(catalog, &req) {
        Ok(spec) => Ok((spec, None, more)),
        // A new pool's OS SKU rules do not bind a pool that already exists (whatever `export`
        // wrote, `apply` accepts): the file's value is kept to compare, and the refusal
        // applies only if the pool has to be created.
        Err(e) if e.field == Field::OsSku && req.os_sku.is_some() => {
            let for_new = to_config(e);
            let mut spec =
                PoolSpec::validate(catalog, &PoolRequest { os_sku: None, ..req.clone() }).map_err(to_config)?;
            spec.os_sku.clone_from(&p.os_sku);
            Ok((spec, Some(for_new), more))
        }
        Err(e) => Err(to_config(e)),
    }
}

/// The value among `all` whose `name` is `text` (any case): the name tables the CLI's flags use.
pub fn by_name<T: Copy>(all: &[T], name: fn(T) -> &'static str, text: &str) -> Option<T> {
    all.iter().copied().find(|&v| name(v).eq_ignore_ascii_case(text.trim()))
}

/// A pool's fields that `create-pool` takes as typed flags, parsed as its flags are.
struct Typed {
    os: Option<Os>,
    kubernetes_version: Option<KubeVersion>,
    gpu_driver: Option<GpuDriver>,
    eviction_policy: Option<EvictionPolicy>,
    os_disk_type: Option<OsDiskType>,
}

impl Typed {
    fn parse(src: &Source<'_>, p: &PoolConfig, at: &str, installs_operator: bool) -> Result<Self, ConfigError> {
        let bad = |field: &str, m: String| src.error(&format!("{at}.{field}"), m, None);
        let os = match &p.os {
            None => None,
            Some(o) => {
                Some(by_name(Os::ALL, Os::name, o).ok_or_else(|| bad("os", format!("{o:?} is not linux or windows")))?)
            }
        };
        let kubernetes_version = match &p.kubernetes_version {
            None => None,
            Some(v) => Some(KubeVersion::parse(v).map_err(|e| bad("kubernetesVersion", e))?),
        };
        let gpu_driver = match &p.gpu_driver {
            None => None,
            Some(d) => Some(
                by_name(GpuDriver::ALL, GpuDriver::name, d)
                    .ok_or_else(|| bad("gpuDriver", format!("{:?} is not install or none", d.to_ascii_lowercase())))?,
            ),
        };
        // As `create-pool --install-operator`: the operator installs the driver unless told otherwise.
        let gpu_driver = gpu_driver.or_else(|| installs_operator.then_some(GpuDriver::None));
        let eviction_policy = match &p.eviction_policy {
            None => None,
            Some(e) => Some(by_name(EvictionPolicy::ALL, EvictionPolicy::name, e).ok_or_else(|| {
                bad("evictionPolicy", format!("{:?} is not Delete or Deallocate", e.to_ascii_lowercase()))
            })?),
        };
        let os_disk_type = match &p.os_disk_type {
            None => None,
            Some(t) => Some(by_name(OsDiskType::ALL, OsDiskType::name, t).ok_or_else(|| {
                bad("osDiskType", format!("{:?} is not Managed or Ephemeral", t.to_ascii_lowercase()))
            })?),
        };
        Ok(Typed { os, kubernetes_version, gpu_driver, eviction_policy, os_disk_type })
    }
}

/// Flag names in messages read as file fields (`--min-count 3` → `minCount 3`).
fn strip_flag(message: &str) -> String {
    message
        .split(' ')
        .map(|w| if w.starts_with("--") { field_of_flag(w) } else { w.to_owned() })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The operator section: known MIG strategy; pools it serves must suit it (the
/// `create-pool --install-operator` rules).
fn check_operator<'p>(
    catalog: &Catalog,
    src: &Source<'_>,
    o: &OperatorConfig,
    pools: impl IntoIterator<Item = (usize, &'p mut PoolSpec)>,
) -> Result<(), ConfigError> {
    if let Some(m) = &o.mig_strategy {
        if !matches!(m.to_ascii_lowercase().as_str(), "single" | "mixed") {
            return Err(src.error("operator.migStrategy", format!("{m:?} is not single or mixed"), None));
        }
    }
    if o.time_slicing == Some(0) {
        return Err(src.error("operator.timeSlicing", "must be at least 1", None));
    }
    if !o.install {
        return Ok(());
    }
    use crate::plan::install::{operator_pool_problem, OperatorPoolProblem as P};
    for (i, spec) in pools {
        let at = format!("pools[{i}]");
        let err = match operator_pool_problem(catalog, spec) {
            None => continue,
            Some(P::Windows) => src.error(&format!("{at}.os"), WINDOWS_OPERATOR, None),
            Some(P::Amd) => {
                src.error(&format!("{at}.vmSize"), "the NVIDIA GPU Operator is for NVIDIA GPUs; this size is AMD", None)
            }
            // Not the operator's: AKS owns its stack, and its nvidia.com/gpu.deploy.operands=false
            // label keeps the operator off its nodes.
            Some(P::Managed) => continue,
            Some(P::AutoscalerMin { min, required, rule }) => {
                spec.warnings.push(crate::plan::install::autoscaler_min_warning(min, required, &rule));
                continue;
            }
        };
        return Err(err);
    }
    Ok(())
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

    fn check(text: &str) -> Result<Desired, ConfigError> {
        let src = Source { name: "f.yaml".into(), text };
        let cfg = parse(&src)?;
        let no_pick = |_: &str, _: &PoolConfig, _: &RecommendConfig| Err("no".to_owned().into());
        validate(&Catalog::bundled().expect("catalog"), &src, &cfg, "sub", &no_pick)
    }

    #[test]
    fn flags_read_as_file_fields() {
        assert_eq!(field_of_flag("--vm-size"), "vmSize");
        assert_eq!(field_of_flag("--node-taints"), "taints");
        assert_eq!(field_of_flag("--resource-group"), "cluster.resourceGroup");
        assert_eq!(strip_flag("--min-count 3 is larger than --max-count 1"), "minCount 3 is larger than maxCount 1");
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
        let w = &zero.pools[0].warnings;
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
        let e = &d.new_only["gpunp"];
        assert!(
            e.message.contains("AzureLinux")
                && e.hint.as_deref().unwrap_or("").contains("overrides: [catalog-size-os-skus]"),
            "{e:?}"
        );
        let ok = check(&(text.clone() + "overrides: [catalog-size-os-skus]\n")).expect("overridden");
        let w = &ok.pools[0].warnings;
        assert!(
            w.len() == 1 && w[0].starts_with("overriding catalog rule catalog-size-os-skus") && w[0].contains("risk:"),
            "{w:?}"
        );
        let e = check(&(text + "overrides: [catalog-size-os-skuz]\n")).expect_err("typo");
        assert!(e.message.starts_with("overrides: "), "{e}");
    }

    /// Every pool field a validation error can name is a key of the GpuConfig schema, and
    /// the flag's words (which messages still carry) become the same key.
    #[test]
    fn every_field_names_a_key_of_the_file() {
        let schema: serde_json::Value =
            serde_json::from_str(include_str!("../../../schema/gpuconfig.schema.json")).expect("schema");
        let text = schema.to_string();
        for f in crate::plan::agent_pool::Field::ALL {
            let key = f.config_key();
            assert_eq!(field_of_flag(f.flag()), key, "{f:?}");
            let last = key.rsplit('.').next().unwrap_or(key);
            assert!(text.contains(&format!("\"{last}\"")), "{f:?}: {key} is not in the schema");
        }
    }
}
