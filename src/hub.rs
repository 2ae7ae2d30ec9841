//! The Hugging Face Hub: a model's `config.json` and safetensors metadata, for `--model org/name`
//! when the catalog does not list the model. HTTP lives here and in `arm` only.
//!
//! Files are read the way the Hub's own client reads them (`{endpoint}/{repo}/resolve/main/{file}`,
//! huggingface/huggingface_hub `hf_hub_url`; `HF_ENDPOINT` moves the endpoint, `HF_HUB_OFFLINE=1`
//! forbids the network, `HF_TOKEN` authenticates gated models). The weight bytes are exact: the
//! sharded index's `metadata.total_size`, or, for one `model.safetensors`, the end of the last
//! tensor in its header (the safetensors format: an 8-byte little-endian header length, then a
//! JSON header of `{name: {dtype, shape, data_offsets}}`).
//!
//! What was read is cached under the cache directory (`hub/ORG--NAME.json`, next to the price
//! cache) with the same rules: capped size, a corrupt or foreign file ignored, written to a
//! temporary file and renamed. The token is never stored and never printed.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::catalog::{LlmModel, MambaLayers, NativeDtype};
use crate::resources::hub::{ModelConfig, SafetensorsIndex, TensorInfo};

/// The `note` of a catalog record made from the Hub.
pub const HUB_NOTE: &str = "read from the Hugging Face Hub";
/// The public Hub.
pub const DEFAULT_ENDPOINT: &str = "https://huggingface.co";
/// A config.json larger than this is not a config.
const MAX_CONFIG_BYTES: usize = 1024 * 1024;
/// The biggest sharded index (thousands of tensors, e.g. DeepSeek-V3) is a few MiB.
const MAX_INDEX_BYTES: usize = 32 * 1024 * 1024;
/// A safetensors header larger than this is refused (the format caps it at 100 MB).
const MAX_HEADER_BYTES: u64 = 16 * 1024 * 1024;
/// A cache entry older than this is fetched again.
pub const CACHE_MAX_AGE: Duration = Duration::from_secs(30 * 86_400);
/// Default per-request timeout (`AKSGPU_HTTP_TIMEOUT` overrides, as for ARM).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(20);

/// Why a model could not be read from the Hub.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum HubError {
    /// No network, refused, timed out, or the Hub is failing (5xx, 429): `--model-params` applies.
    #[error("cannot reach the Hugging Face Hub at {endpoint}: {reason}")]
    Offline { endpoint: String, reason: String },
    /// 401/403: a gated or private model.
    #[error("{id} is gated or private on the Hugging Face Hub (HTTP {status})")]
    Gated { id: String, status: u16, had_token: bool },
    /// The repository does not exist (or is private and the token cannot see it).
    #[error("{id} is not on the Hugging Face Hub")]
    NotFound { id: String },
    /// The Hub answered, but not with something usable.
    #[error("the Hugging Face Hub's answer for {id} is unusable: {reason}")]
    Bad { id: String, reason: String },
    /// The async runtime could not start (a system fault, not the network): the process
    /// cannot create threads or an event loop.
    #[error("cannot start the async runtime: {reason}")]
    Runtime { kind: std::io::ErrorKind, reason: String },
}

/// An `HF_ENDPOINT` the token may not be sent to.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EndpointError {
    #[error("HF_ENDPOINT {endpoint:?} is not a URL ({why})")]
    NotUrl { endpoint: String, why: String },
    #[error("HF_ENDPOINT {endpoint:?} must be an https URL (plain http only on loopback)")]
    NotHttps { endpoint: String },
}

/// Why a model's files on the Hub cannot size it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Unusable {
    #[error("model.safetensors header is not JSON ({0})")]
    HeaderNotJson(String),
    #[error("model.safetensors header is not a JSON object")]
    HeaderNotObject,
    #[error("tensor {0} has no data_offsets")]
    NoOffsets(String),
    #[error("tensor {tensor} {why}")]
    BadTensor { tensor: String, why: &'static str },
    #[error("model.safetensors holds no tensors")]
    NoTensors,
    #[error("config.json is not an object of the documented shape")]
    ConfigShape,
    #[error("config.json's quantization_config is not an object of the documented shape")]
    QuantizationShape,
    #[error("quantization_config {method:?} ({bits} bits) is not a format aksgpu sizes")]
    Quantization { method: String, bits: u64 },
    #[error("torch_dtype {0:?} is not a weight format aksgpu sizes")]
    Dtype(String),
    #[error("config.json has no {what} ({keys})")]
    NoField { what: &'static str, keys: String },
    #[error("config.json has no max_position_embeddings")]
    NoContext,
    /// The record made from it breaks a rule every catalog model keeps (`LlmModel::problems`).
    #[error("{0}")]
    Implausible(String),
}

/// What the Hub says about a model: its config.json and weight totals (the cached form).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HubFacts {
    pub id: String,
    pub endpoint: String,
    pub config: Value,
    /// Exact bytes of the safetensors weights.
    pub total_size: u64,
    /// Parameter count, when the index states it or the header was read.
    pub total_parameters: Option<u64>,
    /// Which file gave the weight bytes.
    pub weights_from: String,
    /// Unix seconds.
    pub fetched_at: u64,
}

/// True for a well-formed `org/name` repository id.
pub fn is_repo_id(s: &str) -> bool {
    let ok = |part: &str| {
        !part.is_empty()
            && part.len() <= 96
            && !part.starts_with(['.', '-'])
            && !part.contains("..")
            && part.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    matches!(s.split_once('/'), Some((org, name)) if ok(org) && ok(name))
}

/// The endpoint: `HF_ENDPOINT` when set, else the public Hub.
pub fn endpoint_from_env() -> String {
    std::env::var("HF_ENDPOINT")
        .ok()
        .map(|s| s.trim().trim_end_matches('/').to_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| DEFAULT_ENDPOINT.to_owned())
}

/// An endpoint the token may be sent to: https, or plain http on a loopback host (tests).
pub fn check_endpoint(endpoint: &str) -> Result<(), EndpointError> {
    let u = url::Url::parse(endpoint)
        .map_err(|e| EndpointError::NotUrl { endpoint: endpoint.to_owned(), why: e.to_string() })?;
    let loopback = match u.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    match u.scheme() {
        "https" if u.host().is_some() => Ok(()),
        "http" if loopback => Ok(()),
        _ => Err(EndpointError::NotHttps { endpoint: endpoint.to_owned() }),
    }
}

/// True when `HF_HUB_OFFLINE` forbids the network (the Hub client's own switch).
pub fn offline_from_env() -> bool {
    std::env::var("HF_HUB_OFFLINE")
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on"))
}

/// The cache file for a model.
pub fn cache_path(id: &str) -> Option<PathBuf> {
    crate::cache::cache_dir().map(|d| d.join("hub").join(format!("{}.json", id.replace('/', "--"))))
}

/// A cached entry for `id` from `endpoint` younger than `CACHE_MAX_AGE`, or `None` (absent,
/// stale, corrupt, oversized, not a regular file, or for another model or endpoint).
pub fn read_cache(path: &Path, id: &str, endpoint: &str, now: SystemTime) -> Option<HubFacts> {
    let bytes = crate::cache::read_regular_capped(path).ok()??;
    let f: HubFacts = serde_json::from_slice(&bytes).ok()?;
    let now = now.duration_since(SystemTime::UNIX_EPOCH).ok()?.as_secs();
    let fresh = now.saturating_sub(f.fetched_at) < CACHE_MAX_AGE.as_secs() && f.fetched_at <= now + 86_400;
    (fresh && f.id.eq_ignore_ascii_case(id) && f.endpoint == endpoint && f.total_size > 0).then_some(f)
}

/// Write a cache entry atomically (temporary file + rename).
pub fn write_cache(path: &Path, facts: &HubFacts) -> std::io::Result<()> {
    let bytes = serde_json::to_vec_pretty(facts).map_err(std::io::Error::other)?;
    crate::cache::write_atomic(path, &bytes, ".hub.")
}

/// A Hub client for one endpoint and optional token.
pub struct Hub {
    http: reqwest::Client,
    endpoint: String,
    token: Option<String>,
}

impl Hub {
    /// A client; the token is registered with the redaction pass before any request is made.
    pub fn new(endpoint: &str, token: Option<String>) -> Result<Self, HubError> {
        let token = token.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty());
        if let Some(t) = &token {
            crate::arm::redact::register(t);
        }
        let timeout = std::env::var("AKSGPU_HTTP_TIMEOUT")
            .ok()
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|v| v.is_finite() && *v > 0.0)
            .and_then(|v| Duration::try_from_secs_f64(v.min(600.0)).ok())
            .unwrap_or(DEFAULT_TIMEOUT);
        // reqwest drops Authorization when a redirect leaves the host (the Hub sends file
        // downloads to its CDN), so the token only ever goes to the endpoint.
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5).min(timeout))
            .read_timeout(timeout)
            .timeout(timeout.saturating_mul(2))
            .redirect(reqwest::redirect::Policy::limited(5))
            .user_agent(concat!("aksgpu/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| HubError::Offline { endpoint: endpoint.to_owned(), reason: e.to_string() })?;
        Ok(Self { http, endpoint: endpoint.trim_end_matches('/').to_owned(), token })
    }

    /// config.json and the weight totals of `id`.
    pub async fn facts(&self, id: &str, now: u64) -> Result<HubFacts, HubError> {
        let bad = |reason: String| HubError::Bad { id: id.to_owned(), reason };
        let raw = self
            .get(id, "config.json", None, MAX_CONFIG_BYTES)
            .await?
            .ok_or_else(|| HubError::NotFound { id: id.to_owned() })?;
        let config: Value = serde_json::from_slice(&raw).map_err(|e| bad(format!("config.json is not JSON ({e})")))?;
        if !config.is_object() {
            return Err(bad("config.json is not a JSON object".into()));
        }
        let (total_size, total_parameters, weights_from) =
            match self.get(id, "model.safetensors.index.json", None, MAX_INDEX_BYTES).await? {
                Some(index) => {
                    let v: Value = serde_json::from_slice(&index)
                        .map_err(|e| bad(format!("model.safetensors.index.json is not JSON ({e})")))?;
                    let no_size = || bad("model.safetensors.index.json has no metadata.total_size".into());
                    let index: SafetensorsIndex = crate::resources::parse(&v, "index").map_err(|_| no_size())?;
                    let size = index.total_size().map_err(|_| no_size())?;
                    (size, index.total_parameters(), "model.safetensors.index.json metadata.total_size")
                }
                None => {
                    let (size, params) = self.single_file(id).await?;
                    (size, Some(params), "model.safetensors header")
                }
            };
        Ok(HubFacts {
            id: id.to_owned(),
            endpoint: self.endpoint.clone(),
            config,
            total_size,
            total_parameters,
            weights_from: weights_from.to_owned(),
            fetched_at: now,
        })
    }

    /// Bytes and parameters of a single `model.safetensors`, from its header alone.
    async fn single_file(&self, id: &str) -> Result<(u64, u64), HubError> {
        let bad = |reason: String| HubError::Bad { id: id.to_owned(), reason };
        let missing = || {
            bad("no model.safetensors.index.json and no model.safetensors (only safetensors weights are read)".into())
        };
        let head = self.get(id, "model.safetensors", Some(8), 8).await?.ok_or_else(missing)?;
        let len = head
            .get(..8)
            .and_then(|b| <[u8; 8]>::try_from(b).ok())
            .map(u64::from_le_bytes)
            .ok_or_else(|| bad("model.safetensors is shorter than its 8-byte header length".into()))?;
        if len == 0 || len > MAX_HEADER_BYTES {
            return Err(bad(format!("model.safetensors header length {len} is out of range")));
        }
        let want = usize::try_from(8 + len).map_err(|_| bad("header too large".into()))?;
        let all = self.get(id, "model.safetensors", Some(8 + len), want).await?.ok_or_else(missing)?;
        let header = all.get(8..want).ok_or_else(|| bad("model.safetensors header is truncated".into()))?;
        parse_safetensors_header(header).map_err(|e| bad(e.to_string()))
    }

    /// GET one file of the repository: `Ok(None)` when the file (not the repository) is absent.
    /// With `prefix`, only the first bytes are asked for (`Range`) and read.
    async fn get(&self, id: &str, file: &str, prefix: Option<u64>, cap: usize) -> Result<Option<Vec<u8>>, HubError> {
        let url = format!("{}/{id}/resolve/main/{file}", self.endpoint);
        let offline = |reason: String| HubError::Offline { endpoint: self.endpoint.clone(), reason };
        let mut req = self.http.get(&url);
        if let Some(t) = &self.token {
            req = req.bearer_auth(t);
        }
        if let Some(n) = prefix {
            req = req.header(reqwest::header::RANGE, format!("bytes=0-{}", n.saturating_sub(1)));
        }
        let mut resp = req.send().await.map_err(|e| {
            if e.is_redirect() {
                HubError::Bad { id: id.to_owned(), reason: format!("too many redirects for {file}") }
            } else {
                offline(crate::arm::redact::text(&describe(&e)))
            }
        })?;
        let status = resp.status().as_u16();
        let code = resp.headers().get("x-error-code").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
        match (status, code.as_str()) {
            (200 | 206, _) => {}
            (_, "GatedRepo") | (403, _) => {
                return Err(HubError::Gated { id: id.to_owned(), status, had_token: self.token.is_some() })
            }
            (_, "RepoNotFound") => return Err(HubError::NotFound { id: id.to_owned() }),
            (401, _) if self.token.is_some() => {
                return Err(HubError::Gated { id: id.to_owned(), status, had_token: true })
            }
            // Without a token the Hub answers 401 for a private or missing repository alike.
            (401, _) => return Err(HubError::Gated { id: id.to_owned(), status, had_token: false }),
            (404, _) => return Ok(None),
            (429 | 500..=599, _) => return Err(offline(format!("HTTP {status} for {file}"))),
            _ => return Err(HubError::Bad { id: id.to_owned(), reason: format!("HTTP {status} for {file}") }),
        }
        let mut body = Vec::new();
        loop {
            let chunk = resp.chunk().await.map_err(|e| offline(crate::arm::redact::text(&describe(&e))))?;
            let Some(chunk) = chunk else { break };
            body.extend_from_slice(&chunk);
            if body.len() >= cap {
                if prefix.is_some() {
                    body.truncate(cap);
                    break;
                }
                return Err(HubError::Bad {
                    id: id.to_owned(),
                    reason: format!("{file} is larger than {} KiB", cap / 1024),
                });
            }
        }
        Ok(Some(body))
    }
}

/// A reqwest error in a few words: its innermost cause ("Connection refused (os error 111)"),
/// as the top line alone says little ("error sending request").
fn describe(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        return "timed out".to_owned();
    }
    let mut inner: &dyn std::error::Error = e;
    while let Some(c) = inner.source() {
        inner = c;
    }
    let what = inner.to_string();
    if e.is_connect() {
        format!("connect: {what}")
    } else {
        what
    }
}

/// Bytes and parameters from a safetensors JSON header.
pub fn parse_safetensors_header(header: &[u8]) -> Result<(u64, u64), Unusable> {
    let v: Value = serde_json::from_slice(header).map_err(|e| Unusable::HeaderNotJson(e.to_string()))?;
    let map = v.as_object().ok_or(Unusable::HeaderNotObject)?;
    let (mut end, mut params) = (0u64, 0u64);
    for (name, t) in map.iter().filter(|(k, _)| k.as_str() != "__metadata__") {
        let no_offsets = || Unusable::NoOffsets(name.clone());
        let t = TensorInfo::read(t).map_err(|_| no_offsets())?;
        end = end.max(t.end().ok_or_else(no_offsets)?);
        let elements = t.elements().map_err(|why| Unusable::BadTensor { tensor: name.clone(), why })?;
        params = params.saturating_add(elements);
    }
    if end == 0 {
        return Err(Unusable::NoTensors);
    }
    Ok((end, params))
}

/// The published weight format: `quantization_config` first, then `torch_dtype`/`dtype`.
fn native_dtype(config: &ModelConfig) -> Result<NativeDtype, Unusable> {
    let quantization = config.quantization().map_err(|_| Unusable::QuantizationShape)?;
    if let Some(q) = quantization {
        let method = q.method();
        return match (method.as_str(), q.bits()) {
            ("fp8", _) => Ok(NativeDtype::Fp8),
            ("mxfp4", _) => Ok(NativeDtype::Mxfp4),
            ("bitsandbytes", _) if q.load_in_4bit == Some(true) => Ok(NativeDtype::Int4),
            ("bitsandbytes", _) => Ok(NativeDtype::Int8),
            ("awq" | "gptq" | "compressed-tensors" | "autoround", Some(4) | None) => Ok(NativeDtype::Int4),
            ("awq" | "gptq" | "compressed-tensors" | "autoround", Some(8)) => Ok(NativeDtype::Int8),
            (m, b) => Err(Unusable::Quantization { method: m.to_owned(), bits: b.unwrap_or(0) }),
        };
    }
    let dtype = config.text(&["torch_dtype", "dtype"]).unwrap_or("bfloat16");
    match dtype.to_ascii_lowercase().as_str() {
        "bfloat16" | "bf16" => Ok(NativeDtype::Bf16),
        "float16" | "fp16" | "half" => Ok(NativeDtype::Fp16),
        "float32" | "fp32" | "float" => Ok(NativeDtype::Fp32),
        "float8_e4m3fn" | "fp8" => Ok(NativeDtype::Fp8),
        other => Err(Unusable::Dtype(other.to_owned())),
    }
}

/// Layers that attend to a sliding window: `layer_types`, else Gemma's `sliding_window_pattern`
/// (every n-th layer global), else all layers when `sliding_window` is set and used.
fn sliding(config: &ModelConfig, layers: u32) -> (Option<u32>, Option<u32>) {
    if config.flag(&["use_sliding_window"]) == Some(false) {
        return (None, None);
    }
    let Some(window) = config.uint(&["sliding_window"]).filter(|w| *w > 0) else { return (None, None) };
    let count = if let Some(types) = config.texts(&["layer_types"]) {
        types.iter().filter(|t| **t == "sliding_attention").count() as u32
    } else if let Some(p) = config.uint(&["sliding_window_pattern"]).filter(|p| *p > 0) {
        layers - layers / p
    } else {
        layers
    };
    (Some(window), Some(count.min(layers)))
}

/// A hybrid Mamba/attention model's layers (Nemotron-H's `hybrid_override_pattern`: `*`
/// attention, `M` Mamba-2, `-` MLP): the attention layers, which alone keep a KV cache, and
/// the Mamba layers' state sizes (Dao & Gu 2024, the Mamba-2 block; the fields are those of
/// transformers' `NemotronHConfig`). `(None, None)` for a model without the pattern; a
/// pattern with Mamba layers but a state size missing is refused, never guessed.
fn hybrid(c: &ModelConfig) -> Result<(Option<u32>, Option<MambaLayers>), Unusable> {
    let Some(pattern) = c.text(&["hybrid_override_pattern"]) else { return Ok((None, None)) };
    let count = |ch: char| pattern.chars().filter(|c| *c == ch).count() as u32;
    let (attention, mamba) = (count('*'), count('M'));
    if mamba == 0 {
        return Ok((Some(attention), None));
    }
    let need = |keys: &[&str], what: &'static str| {
        c.uint(keys).filter(|n| *n > 0).ok_or_else(|| Unusable::NoField { what, keys: keys.join(" / ") })
    };
    let layers = MambaLayers {
        layers: mamba,
        heads: need(&["mamba_num_heads"], "Mamba head count")?,
        head_dim: need(&["mamba_head_dim"], "Mamba head size")?,
        state_size: need(&["ssm_state_size"], "Mamba state size")?,
        groups: need(&["n_groups", "mamba_n_groups"], "Mamba group count")?,
        conv_kernel: need(&["conv_kernel", "mamba_d_conv"], "Mamba convolution width")?,
    };
    Ok((Some(attention), Some(layers)))
}

/// The catalog record for a model read from the Hub.
pub fn to_model(f: &HubFacts) -> Result<LlmModel, Unusable> {
    let c = &ModelConfig::read(&f.config).map_err(|_| Unusable::ConfigShape)?;
    let need = |keys: &[&str], what: &'static str| {
        c.uint(keys).filter(|n| *n > 0).ok_or_else(|| Unusable::NoField { what, keys: keys.join(" / ") })
    };
    let layers = need(&["num_hidden_layers", "n_layer", "num_layers"], "layer count")?;
    let hidden = need(&["hidden_size", "n_embd", "d_model"], "hidden size")?;
    let heads = need(&["num_attention_heads", "n_head"], "attention head count")?;
    let mut kv_heads = c
        .uint(&["num_key_value_heads", "n_head_kv", "num_kv_heads"])
        .filter(|n| *n > 0)
        .unwrap_or(if c.flag(&["multi_query"]) == Some(true) { 1 } else { heads });
    let mut head_dim = c.uint(&["head_dim"]).filter(|n| *n > 0).unwrap_or(hidden / heads);
    // Multi-head latent attention (DeepSeek-V2/V3): one latent of kv_lora_rank + rope dims per
    // token and layer, written as one KV head (see catalog/models.yaml, DeepSeek).
    if let (Some(rank), Some(rope)) = (c.uint(&["kv_lora_rank"]), c.uint(&["qk_rope_head_dim"])) {
        kv_heads = 1;
        head_dim = (rank + rope).div_ceil(2);
    }
    let context = c
        .u64(&["max_position_embeddings", "n_positions", "max_seq_len", "seq_length"])
        .filter(|n| *n > 0)
        .ok_or(Unusable::NoContext)?;
    let native = native_dtype(c)?;
    let params =
        f.total_parameters.filter(|p| *p > 0).map_or_else(|| f.total_size as f64 / native.bytes(), |p| p as f64);
    let experts = c.uint(&["num_local_experts", "num_experts", "n_routed_experts"]).filter(|e| *e > 1);
    let per_token = c.uint(&["num_experts_per_tok", "num_experts_per_token", "moe_topk"]).filter(|k| *k > 0);
    let moe_ffn = c.uint(&["moe_intermediate_size"]);
    let ffn = c.uint(&["intermediate_size", "ffn_hidden_size"]);
    let active = match (experts, per_token) {
        (Some(e), Some(k)) if k < e => {
            // MoE layers: all but the first dense ones, plus DeepSeek's multi-token-prediction
            // layer, which the checkpoint (and total_parameters) holds too.
            let dense = c.uint(&["first_k_dense_replace"]).unwrap_or(0).min(layers);
            let moe_layers = layers - dense + c.uint(&["num_nextn_predict_layers"]).unwrap_or(0);
            let expert = 3.0 * f64::from(hidden) * f64::from(moe_ffn.or(ffn).unwrap_or(0));
            let idle = f64::from(moe_layers) * f64::from(e - k) * expert;
            Some((params - idle).clamp(params * 0.01, params) / 1e9)
        }
        _ => None,
    };
    let (sliding_window, sliding_window_layers) = sliding(c, layers);
    let (attention_layers, mamba) = hybrid(c)?;
    let round = |x: f64| (x * 100.0).round() / 100.0;
    let day = crate::cache::date_of(f.fetched_at);
    let m = LlmModel {
        id: f.id.clone(),
        aliases: Vec::new(),
        params_b: round(params / 1e9).max(0.01),
        active_params_b: active.map(round),
        layers,
        hidden_size: hidden,
        attention_heads: heads,
        kv_heads,
        head_dim,
        context,
        native_dtype: native,
        checkpoint_gib: round(f.total_size as f64 / (1024.0 * 1024.0 * 1024.0)).max(0.01),
        license: None,
        source: format!("{}/{}: config.json; {} (read {day})", f.endpoint, f.id, f.weights_from),
        note: Some(HUB_NOTE.into()),
        kaito_preset: None,
        sliding_window,
        sliding_window_layers,
        experts,
        experts_per_token: per_token,
        intermediate_size: if experts.is_some() { moe_ffn.or(ffn) } else { ffn },
        vocab_size: c.uint(&["vocab_size", "padded_vocab_size"]),
        fp16_unstable: fp16_unstable(c),
        attention_layers,
        mamba,
    };
    match m.problems().into_iter().next() {
        Some(p) => Err(Unusable::Implausible(p)),
        None => Ok(m),
    }
}

/// Architectures vLLM refuses to serve in float16 for numerical instability
/// (vllm-project/vllm:vllm/config/model.py, `_FLOAT16_NOT_SUPPORTED_MODELS`).
fn fp16_unstable(config: &ModelConfig) -> bool {
    let kind = config.model_type().unwrap_or_default();
    matches!(kind, "gemma2" | "gemma3" | "gemma3_text" | "plamo2" | "glm4")
}

/// Read `id` from the Hub, or from the cache when a fresh entry exists. `Ok((facts, cached))`.
pub fn fetch(id: &str, endpoint: &str, token: Option<String>) -> Result<(HubFacts, bool), HubError> {
    let now = SystemTime::now();
    let path = cache_path(id);
    if let Some(f) = path.as_deref().and_then(|p| read_cache(p, id, endpoint, now)) {
        return Ok((f, true));
    }
    if offline_from_env() {
        return Err(HubError::Offline { endpoint: endpoint.to_owned(), reason: "HF_HUB_OFFLINE is set".into() });
    }
    let hub = Hub::new(endpoint, token)?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| HubError::Runtime { kind: e.kind(), reason: e.to_string() })?;
    let secs = now.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let facts = rt.block_on(hub.facts(id, secs))?;
    if let Some(p) = &path {
        // A cache that cannot be written only costs the next run a fetch.
        let _ = write_cache(p, &facts);
    }
    Ok((facts, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(config: Value, total_size: u64) -> HubFacts {
        HubFacts {
            id: "org/model".into(),
            endpoint: "http://127.0.0.1:9".into(),
            config,
            total_size,
            total_parameters: None,
            weights_from: "model.safetensors.index.json metadata.total_size".into(),
            fetched_at: 1_800_000_000,
        }
    }

    #[test]
    fn a_hybrid_mamba_config_keeps_kv_only_on_its_attention_layers() {
        // nvidia/NVIDIA-Nemotron-Nano-9B-v2's config.json fields, with a layer pattern of the same
        // composition as its `hybrid_override_pattern` (56 layers: 27 M, 25 -, 4 *; the catalog's
        // entry cites the source); the Hub read must give what the catalog holds.
        let pattern = "M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-";
        let c = serde_json::json!({"architectures": ["NemotronHForCausalLM"], "torch_dtype": "bfloat16",
            "hidden_size": 4480, "num_hidden_layers": 56, "num_attention_heads": 40, "num_key_value_heads": 8,
            "head_dim": 128, "max_position_embeddings": 131072, "intermediate_size": 15680, "vocab_size": 131072,
            "hybrid_override_pattern": pattern, "mamba_num_heads": 128, "mamba_head_dim": 80,
            "ssm_state_size": 128, "n_groups": 8, "conv_kernel": 4});
        let m = to_model(&facts(c.clone(), 17_780_000_000)).expect("model");
        let catalog = crate::catalog::Catalog::bundled().expect("catalog");
        let want = catalog.model("nvidia/NVIDIA-Nemotron-Nano-9B-v2").expect("in the catalog");
        assert_eq!(m.attention_layers, want.attention_layers);
        assert_eq!(m.mamba, want.mamba);
        let mut no_state = c;
        no_state["ssm_state_size"] = serde_json::Value::Null;
        let e = to_model(&facts(no_state, 17_780_000_000)).expect_err("refused");
        assert!(e.to_string().contains("Mamba state size"), "{e}");
    }

    #[test]
    fn a_gemma3_config_reads_its_text_config_and_sliding_layers() {
        // google/gemma-3-27b-it config.json: text_config with sliding_window 1024, pattern 6.
        let c = serde_json::json!({"architectures": ["Gemma3ForConditionalGeneration"], "torch_dtype": "bfloat16",
            "text_config": {"hidden_size": 5376, "num_hidden_layers": 62, "num_attention_heads": 32,
            "num_key_value_heads": 16, "head_dim": 128, "max_position_embeddings": 131072,
            "sliding_window": 1024, "sliding_window_pattern": 6, "intermediate_size": 21504, "vocab_size": 262208}});
        let m = to_model(&facts(c, 54_867_440_000)).expect("model");
        assert_eq!((m.layers, m.kv_heads, m.head_dim, m.context), (62, 16, 128, 131072));
        assert_eq!((m.sliding_window, m.sliding_window_layers), (Some(1024), Some(52)));
        assert_eq!(m.native_dtype, NativeDtype::Bf16);
        assert_eq!(m.params_b, 27.43);
        assert_eq!(m.checkpoint_gib, 51.1);
        assert!(m.active_params_b.is_none());
    }

    #[test]
    fn a_deepseek_config_reads_fp8_mla_and_experts() {
        // deepseek-ai/DeepSeek-V3 config.json (abridged).
        let c = serde_json::json!({"hidden_size": 7168, "num_hidden_layers": 61, "num_attention_heads": 128,
            "num_key_value_heads": 128, "kv_lora_rank": 512, "qk_rope_head_dim": 64, "max_position_embeddings": 163840,
            "n_routed_experts": 256, "num_experts_per_tok": 8, "moe_intermediate_size": 2048, "intermediate_size": 18432,
            "first_k_dense_replace": 3, "num_nextn_predict_layers": 1, "torch_dtype": "bfloat16",
            "quantization_config": {"quant_method": "fp8", "fmt": "e4m3", "weight_block_size": [128, 128]}});
        let mut f = facts(c, 688_586_727_753);
        f.total_parameters = Some(684_531_386_000);
        let m = to_model(&f).expect("model");
        assert_eq!(m.native_dtype, NativeDtype::Fp8);
        assert_eq!((m.kv_heads, m.head_dim), (1, 288));
        assert_eq!((m.experts, m.experts_per_token, m.intermediate_size), (Some(256), Some(8), Some(2048)));
        // 684.53B minus 248 idle experts × 59 MoE layers × 44.04M = 40.14B (the card's 37B leaves out
        // the multi-token-prediction layer's shared weights).
        assert_eq!(m.active_params_b, Some(40.14));
    }

    #[test]
    fn quantised_and_broken_configs() {
        let base = serde_json::json!({"hidden_size": 4096, "num_hidden_layers": 36, "num_attention_heads": 32,
            "num_key_value_heads": 8, "max_position_embeddings": 40960, "torch_dtype": "float16",
            "quantization_config": {"quant_method": "awq", "bits": 4}});
        let m = to_model(&facts(base.clone(), 6_100_000_000)).expect("awq");
        assert_eq!((m.native_dtype, m.head_dim), (NativeDtype::Int4, 128));
        let mut odd = base.clone();
        odd["quantization_config"] = serde_json::json!({"quant_method": "hqq", "bits": 3});
        assert!(to_model(&facts(odd, 6_100_000_000)).expect_err("refused").to_string().contains("hqq"));
        let mut no_layers = base;
        no_layers.as_object_mut().expect("object").remove("num_hidden_layers");
        assert!(to_model(&facts(no_layers, 6_100_000_000)).expect_err("refused").to_string().contains("layer count"));
    }

    #[test]
    fn endpoints_are_https_or_loopback() {
        assert!(check_endpoint("https://huggingface.co").is_ok());
        assert!(check_endpoint("http://127.0.0.1:8080").is_ok());
        assert!(check_endpoint("http://localhost:1").is_ok());
        assert!(check_endpoint("http://[::1]:1").is_ok());
        assert!(check_endpoint("http://hf-mirror.example").is_err());
        assert!(check_endpoint("ftp://x").is_err());
        assert!(check_endpoint("not a url").is_err());
    }

    #[test]
    fn repo_ids_are_checked() {
        assert!(is_repo_id("Qwen/Qwen3-8B"));
        assert!(is_repo_id("meta-llama/Llama-3.2-1B"));
        for bad in ["llama-3.1-8b", "a/b/c", "../x", "org/..", "org/", "/name", "org/na me", "org/.hidden"] {
            assert!(!is_repo_id(bad), "{bad}");
        }
    }

    #[test]
    fn a_safetensors_header_gives_bytes_and_parameters() {
        let h = br#"{"__metadata__":{"format":"pt"},"a":{"dtype":"BF16","shape":[4,8],"data_offsets":[0,64]},"b":{"dtype":"BF16","shape":[8],"data_offsets":[64,80]}}"#;
        assert_eq!(parse_safetensors_header(h), Ok((80, 40)));
        assert!(parse_safetensors_header(b"{}").is_err());
        assert!(parse_safetensors_header(br#"{"a":{"shape":[2]}}"#)
            .expect_err("refused")
            .to_string()
            .contains("data_offsets"));
        assert!(parse_safetensors_header(b"not json").is_err());
    }

    #[test]
    fn the_cache_is_ignored_when_stale_corrupt_or_foreign() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("hub").join("Qwen--Qwen3-8B.json");
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        let facts = HubFacts {
            id: "Qwen/Qwen3-8B".into(),
            endpoint: "http://127.0.0.1:9".into(),
            config: serde_json::json!({"num_hidden_layers": 36}),
            total_size: 16_381_470_720,
            total_parameters: None,
            weights_from: "index".into(),
            fetched_at: 1_800_000_000 - 60,
        };
        write_cache(&path, &facts).expect("write");
        assert_eq!(read_cache(&path, "qwen/qwen3-8b", "http://127.0.0.1:9", now), Some(facts.clone()));
        assert_eq!(read_cache(&path, "Qwen/Qwen3-4B", "http://127.0.0.1:9", now), None);
        assert_eq!(read_cache(&path, "Qwen/Qwen3-8B", "https://huggingface.co", now), None);
        let later = now + CACHE_MAX_AGE;
        assert_eq!(read_cache(&path, "Qwen/Qwen3-8B", "http://127.0.0.1:9", later), None);
        std::fs::write(&path, b"{garbled").expect("write");
        assert_eq!(read_cache(&path, "Qwen/Qwen3-8B", "http://127.0.0.1:9", now), None);
    }
}
