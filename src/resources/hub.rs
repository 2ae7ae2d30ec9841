//! The Hugging Face Hub's files the tool reads for `--model org/name`:
//! - `config.json`, a transformers `PretrainedConfig` (huggingface/transformers,
//!   `configuration_utils.py`): `model_type`, the architecture's own keys (each family spells
//!   them its way: `num_hidden_layers`, `n_layer`, …), and, for image-text models such as
//!   Gemma 3, the language model's keys nested in `text_config`;
//! - `model.safetensors.index.json`: `metadata.total_size` (bytes) and, when written,
//!   `metadata.total_parameters`;
//! - a safetensors header (huggingface/safetensors, "Format"): each tensor's `shape` and
//!   `data_offsets` `[begin, end]`, and a `__metadata__` entry.
//!
//! A key the config does not have is `None`: the Hub module says which it needs and fails
//! naming it, never reading a zero.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::{required, MissingField};

/// A model's `config.json`: the architecture's keys looked up by their spellings.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ModelConfig {
    /// The architecture (`gemma3`, `llama`, …).
    model_type: Option<String>,
    /// The language model of an image-text model; read only when it is an object.
    text_config: Option<Value>,
    /// Every other key, as sent: the spellings differ per family, so they are looked up by
    /// the accessors below.
    #[serde(flatten)]
    fields: Map<String, Value>,
}

/// `quantization_config` of a published quantized checkpoint.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Quantization {
    /// `fp8`, `awq`, `gptq`, `bitsandbytes`, …
    pub quant_method: Option<String>,
    pub bits: Option<u64>,
    pub weight_bits: Option<u64>,
    pub load_in_4bit: Option<bool>,
}

impl Quantization {
    /// The method, lower case ("" when the config names none: no format aksgpu sizes).
    pub fn method(&self) -> String {
        self.quant_method.as_deref().unwrap_or_default().to_ascii_lowercase()
    }

    /// Bits per weight: `bits`, else `weight_bits`.
    pub fn bits(&self) -> Option<u64> {
        self.bits.or(self.weight_bits)
    }
}

impl ModelConfig {
    /// Parse `config.json` (an object; `model_type` text when present).
    pub fn read(v: &Value) -> Result<Self, MissingField> {
        super::parse(v, "config.json")
    }

    /// `model_type` (top level, as transformers reads it).
    pub fn model_type(&self) -> Option<&str> {
        self.model_type.as_deref()
    }

    /// The first of `keys` the config has (not `null`), each from `text_config` first, then
    /// the top level.
    fn field(&self, keys: &[&str]) -> Option<&Value> {
        let text = self.text_config.as_ref().and_then(Value::as_object);
        keys.iter().find_map(|k| text.and_then(|t| t.get(*k)).or_else(|| self.fields.get(*k)).filter(|v| !v.is_null()))
    }

    /// A whole number of `keys`.
    pub fn u64(&self, keys: &[&str]) -> Option<u64> {
        self.field(keys).and_then(Value::as_u64)
    }

    /// A whole number of `keys` that fits 32 bits.
    pub fn uint(&self, keys: &[&str]) -> Option<u32> {
        self.u64(keys).and_then(|n| u32::try_from(n).ok())
    }

    /// A boolean of `keys`.
    pub fn flag(&self, keys: &[&str]) -> Option<bool> {
        self.field(keys).and_then(Value::as_bool)
    }

    /// A text of `keys`.
    pub fn text(&self, keys: &[&str]) -> Option<&str> {
        self.field(keys).and_then(Value::as_str)
    }

    /// The texts of a list of `keys` (entries of another type left out).
    pub fn texts(&self, keys: &[&str]) -> Option<Vec<&str>> {
        self.field(keys).and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).collect())
    }

    /// `quantization_config`, when the config has one; one of another shape is an error.
    pub fn quantization(&self) -> Result<Option<Quantization>, MissingField> {
        self.field(&["quantization_config"]).map(|q| super::parse(q, "config.json quantization_config")).transpose()
    }
}

/// `model.safetensors.index.json`, the fields read.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SafetensorsIndex {
    pub metadata: Option<IndexMetadata>,
}

/// `metadata` of the index; the numbers kept as sent (some writers send them as text).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct IndexMetadata {
    pub total_size: Option<Value>,
    pub total_parameters: Option<Value>,
}

impl SafetensorsIndex {
    /// `metadata.total_size` in bytes (a number, or a number as text), more than zero.
    pub fn total_size(&self) -> Result<u64, MissingField> {
        let v = self.metadata.as_ref().and_then(|m| m.total_size.as_ref());
        let n = v.and_then(|v| v.as_u64().or_else(|| v.as_str().and_then(|s| s.parse().ok()))).filter(|n| *n > 0);
        required(&n, "model.safetensors.index.json", "metadata.total_size")
    }

    /// `metadata.total_parameters`, when the index states it.
    pub fn total_parameters(&self) -> Option<u64> {
        self.metadata.as_ref()?.total_parameters.as_ref()?.as_u64()
    }
}

/// One tensor of a safetensors header, as sent.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct TensorInfo {
    data_offsets: Option<Value>,
    shape: Option<Value>,
}

impl TensorInfo {
    /// Parse one entry of the header (an object).
    pub fn read(v: &Value) -> Result<Self, MissingField> {
        super::parse(v, "safetensors tensor")
    }

    /// The end of its bytes (`data_offsets[1]`), when `data_offsets` is a pair of offsets.
    pub fn end(&self) -> Option<u64> {
        let pair = self.data_offsets.as_ref()?.as_array().filter(|a| a.len() == 2)?;
        pair.get(1)?.as_u64()
    }

    /// Its element count (the product of `shape`); `Err` says what is wrong.
    pub fn elements(&self) -> Result<u64, &'static str> {
        let shape = self.shape.as_ref().and_then(Value::as_array).ok_or("has no shape")?;
        shape.iter().try_fold(1u64, |acc, d| d.as_u64().and_then(|d| acc.checked_mul(d))).ok_or("has a bad shape")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Gemma 3 nests the language model in `text_config`; a key there wins over the top level.
    #[test]
    fn text_config_first_then_the_top_level() {
        let c = ModelConfig::read(&json!({"model_type": "gemma3", "num_hidden_layers": 2, "vocab_size": 7,
            "text_config": {"num_hidden_layers": 34, "sliding_window": null}, "sliding_window": 512}))
        .expect("parses");
        assert_eq!(c.uint(&["num_hidden_layers"]), Some(34));
        assert_eq!(c.uint(&["vocab_size"]), Some(7));
        assert_eq!(c.uint(&["sliding_window"]), None, "null in text_config hides the top level, as before");
        assert_eq!(c.uint(&["hidden_size"]), None);
        assert_eq!(c.model_type(), Some("gemma3"));
        assert!(c.quantization().expect("none").is_none());
    }

    #[test]
    fn index_totals_are_numbers_or_text() {
        let i: SafetensorsIndex =
            crate::resources::parse(&json!({"metadata": {"total_size": "16"}}), "index").expect("parses");
        assert_eq!(i.total_size(), Ok(16));
        let none: SafetensorsIndex = crate::resources::parse(&json!({"weight_map": {}}), "index").expect("parses");
        assert_eq!(none.total_size().expect_err("none").field, "metadata.total_size");
    }
}
