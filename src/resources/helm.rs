//! The user-supplied values of the GPU Operator's Helm release (`helm get values -o json`), the
//! keys aksgpu reads: `mig.strategy` and `devicePlugin.config.name` (NVIDIA gpu-operator,
//! `deployments/gpu-operator/values.yaml`). Keys the release does not set are `None`: the
//! chart's defaults apply, and the callers say so.

use serde::Deserialize;
use serde_json::Value;

use super::MissingField;

/// The values of a GPU Operator release, the keys read.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OperatorValues {
    pub mig: Option<MigValues>,
    pub device_plugin: Option<DevicePluginValues>,
}

/// `mig`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct MigValues {
    /// `single` or `mixed` in the chart; kept as set (`null` included), so that a value of
    /// another type is reported rather than read as unset.
    #[serde(default, deserialize_with = "as_set")]
    pub strategy: Option<Value>,
}

/// A key that is present is `Some`, even when `null` (serde reads `null` as `None` otherwise).
fn as_set<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// `devicePlugin`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct DevicePluginValues {
    pub config: Option<DevicePluginConfig>,
}

/// `devicePlugin.config`: the ConfigMap of the device plugin's sharing configuration.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct DevicePluginConfig {
    pub name: Option<String>,
}

/// What a release sets `mig.strategy` to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MigSetting<'a> {
    /// Not set: the chart's default applies.
    Unset,
    Text(&'a str),
    /// Set to something that is not text.
    NotText,
}

impl OperatorValues {
    /// The values of a release: `null` (a release without user-supplied values) sets nothing;
    /// values whose read keys have another shape are an error.
    pub fn read(v: &Value) -> Result<Self, MissingField> {
        if v.is_null() {
            return Ok(Self::default());
        }
        super::parse(v, "GPU Operator values")
    }

    /// `mig.strategy`.
    pub fn mig_strategy(&self) -> MigSetting<'_> {
        match self.mig.as_ref().and_then(|m| m.strategy.as_ref()) {
            None => MigSetting::Unset,
            Some(Value::String(s)) => MigSetting::Text(s),
            Some(_) => MigSetting::NotText,
        }
    }

    /// `devicePlugin.config.name`, when set.
    pub fn device_plugin_config(&self) -> Option<&str> {
        self.device_plugin.as_ref()?.config.as_ref()?.name.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_keys_read_from_a_release() {
        let v = OperatorValues::read(&json!({"mig": {"strategy": "mixed"}, "devicePlugin": {"config": {"name": "c"}},
            "driver": {"enabled": false}}))
        .expect("parses");
        assert_eq!(v.mig_strategy(), MigSetting::Text("mixed"));
        assert_eq!(v.device_plugin_config(), Some("c"));
        let none = OperatorValues::read(&Value::Null).expect("none");
        assert_eq!(none.mig_strategy(), MigSetting::Unset);
        let odd = OperatorValues::read(&json!({"mig": {"strategy": 2}})).expect("parses");
        assert_eq!(odd.mig_strategy(), MigSetting::NotText);
        let null = OperatorValues::read(&json!({"mig": {"strategy": null}})).expect("parses");
        assert_eq!(null.mig_strategy(), MigSetting::NotText);
        assert!(OperatorValues::read(&json!({"mig": "single"})).is_err());
    }
}
