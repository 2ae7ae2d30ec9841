//! The bundled GPU catalog: sizes, GPU models, AKS rules, prices and LLMs.
//!
//! `build.rs` reads the YAML under `catalog/` and embeds it in compact forms (postcard for
//! sizes, GPUs, models and regions; JSON for rules; a packed table for prices), so loading the
//! bundled catalog parses no YAML and does no I/O. `--catalog DIR` (or `AKSGPU_CATALOG`)
//! replaces any bundled file by the file of the same relative path in DIR; those are parsed as
//! YAML with file-and-line errors, and the merged catalog is validated before use.

pub mod model;
pub mod rules;

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

pub use model::*;
pub use rules::{
    AksStatus, Claim, ConflictFact, FleetCheck, KubeVersion, ManagedGpuLimit, NodeImageVersion, Rule, RuleKind,
    Severity, Winner,
};

/// The AKS `OSSKU` values (Microsoft.ContainerService managedClusters API, `OSSKU` enum).
pub const AKS_OS_SKUS: &[&str] = &[
    "Ubuntu",
    "AzureLinux",
    "AzureLinux3",
    "CBLMariner",
    "Windows2019",
    "Windows2022",
    "Windows2025",
    "Ubuntu2204",
    "Ubuntu2404",
    "AzureContainerLinux",
    "Ubuntu2604",
];

mod bundled {
    include!(concat!(env!("OUT_DIR"), "/bundled_catalog.rs"));
}

/// Why a catalog could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// A file could not be read.
    #[error("cannot read catalog file {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A file did not parse or has the wrong shape.
    #[error("catalog file {file}: {message}")]
    Parse { file: String, message: String },
    /// The catalog parsed but is inconsistent.
    #[error("catalog is inconsistent ({} problem{}):\n  - {}", problems.len(), if problems.len() == 1 { "" } else { "s" }, problems.join("\n  - "))]
    Invalid { problems: Vec<String> },
    /// A required file is missing.
    #[error("catalog has no {0}")]
    Missing(&'static str),
}

/// Where the loaded catalog came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Compiled into the binary.
    Bundled,
    /// Bundled, with files replaced from this directory.
    Override(PathBuf),
}

/// The whole catalog, resolved.
#[derive(Debug, Clone)]
pub struct Catalog {
    /// All sizes, by family, series, GPU memory and vCPUs.
    pub sizes: Vec<VmSize>,
    /// GPU models.
    pub gpus: Vec<GpuModel>,
    /// AKS rules.
    pub rules: Vec<Rule>,
    /// Prices.
    pub prices: PriceTable,
    /// Open LLMs.
    pub models: Vec<LlmModel>,
    /// Every public Azure region (`regions.yaml`); empty when the file is absent (test catalogs),
    /// and then any well-formed region name is accepted.
    pub regions: RegionList,
    /// Serving efficiencies (`serving-factors.yaml`); `None` when the file is absent (test
    /// catalogs), and then no serving figures are estimated.
    pub serving: Option<ServingFactors>,
    /// Where it came from.
    pub origin: Origin,
}

/// One catalog file's content: bundled (binary or JSON, from build.rs) or a user's YAML.
enum Text<'a> {
    Binary(&'a [u8]),
    Json(&'a str),
    Yaml(String),
}

/// Every bundled file, by its path relative to `catalog/`.
fn bundled_files() -> impl Iterator<Item = (String, Text<'static>)> {
    let json = bundled::JSON.iter().map(|(name, json)| ((*name).to_owned(), Text::Json(json)));
    json.chain(bundled::BINARY.iter().map(|(name, bin)| ((*name).to_owned(), Text::Binary(bin))))
}

fn parse<T: DeserializeOwned>(file: &str, text: &Text<'_>) -> Result<T, CatalogError> {
    let bundled = |message: String| CatalogError::Parse { file: format!("catalog/{file} (bundled)"), message };
    match text {
        Text::Binary(bytes) => postcard::from_bytes(bytes).map_err(|e| bundled(e.to_string())),
        Text::Json(json) => serde_json::from_str(json).map_err(|e| bundled(e.to_string())),
        Text::Yaml(yaml) => serde_yaml_ng::from_str(yaml).map_err(|e| {
            let message = match e.location() {
                Some(loc) => format!("line {}, column {}: {e}", loc.line(), loc.column()),
                None => e.to_string(),
            };
            CatalogError::Parse { file: file.to_owned(), message }
        }),
    }
}

/// `prices.yaml` as build.rs embeds it: the metadata and the region names in JSON, the sizes'
/// prices in `bundled::PRICES_BIN` (see `compact_prices` in build.rs).
#[derive(serde::Deserialize)]
struct CompactPrices<'a> {
    currency: String,
    as_of: String,
    source: String,
    #[serde(default)]
    sources: Vec<PriceOrigin>,
    #[serde(default)]
    notes: Vec<String>,
    #[serde(borrow)]
    regions: Vec<&'a str>,
}

/// Load `prices.yaml`. The bundled (packed) table is unpacked only for sizes the catalog lists
/// (`listed`): prices of other sizes are ignored at lookup anyway, so only their names are kept
/// (`PriceTable::unlisted`).
fn load_prices(file: &str, text: &Text<'_>, listed: &HashSet<&str>) -> Result<PriceTable, CatalogError> {
    let Text::Json(json) = text else { return parse::<PriceTable>(file, text) };
    let c: CompactPrices<'_> = serde_json::from_str(json)
        .map_err(|e| CatalogError::Parse { file: format!("catalog/{file} (bundled)"), message: e.to_string() })?;
    let names: Vec<Shared> = c.regions.iter().map(|r| Shared::from(*r)).collect();
    let (sizes, unlisted) = unpack_prices(bundled::PRICES_BIN, &names, listed).ok_or_else(|| CatalogError::Parse {
        file: format!("catalog/{file} (bundled)"),
        message: "the packed price table is malformed".to_owned(),
    })?;
    Ok(PriceTable {
        currency: c.currency,
        as_of: c.as_of,
        source: c.source,
        sources: c.sources,
        notes: c.notes,
        sizes,
        unlisted,
        from_cache: BTreeMap::new(),
    })
}

/// Size → region → prices, and the names of unlisted sizes, from the table build.rs packs:
/// per size a u8-length name and a u8 count of (u8 region index, 4 × u32 LE micro-dollars,
/// u32::MAX = unknown). `None` if the bytes do not follow that layout.
type Unpacked = (BTreeMap<String, BTreeMap<Shared, RegionPrice>>, Vec<String>);
fn unpack_prices(mut bin: &[u8], names: &[Shared], listed: &HashSet<&str>) -> Option<Unpacked> {
    const ENTRY: usize = 1 + 4 * 4;
    let mut take = |n: usize| -> Option<&[u8]> {
        let (head, rest) = bin.split_at_checked(n)?;
        bin = rest;
        Some(head)
    };
    let mut sizes = BTreeMap::new();
    let mut unlisted = Vec::new();
    while let Some(&[len]) = take(1) {
        let name = std::str::from_utf8(take(usize::from(len))?).ok()?;
        let count = usize::from(*take(1)?.first()?);
        let entries = take(count * ENTRY)?;
        if !listed.contains(name) {
            unlisted.push(name.to_owned());
            continue;
        }
        let mut regions = Vec::with_capacity(count);
        for e in entries.chunks_exact(ENTRY) {
            let cell = |i: usize| {
                let n = u32::from_le_bytes(e[1 + 4 * i..5 + 4 * i].try_into().ok()?);
                // IEEE division rounds n / 10⁶ correctly, as parsing the decimal does.
                (n != u32::MAX).then(|| f64::from(n) / 1e6)
            };
            let price = RegionPrice { linux: cell(0), linux_spot: cell(1), windows: cell(2), windows_spot: cell(3) };
            regions.push((names.get(usize::from(e[0]))?.clone(), price));
        }
        sizes.insert(name.to_owned(), regions.into_iter().collect());
    }
    Some((sizes, unlisted))
}

impl Catalog {
    /// The catalog compiled into the binary.
    pub fn bundled() -> Result<Self, CatalogError> {
        Self::from_files(bundled_files().collect(), Origin::Bundled)
    }

    /// The bundled catalog with files replaced by those found in `dir` (same relative paths).
    pub fn with_override(dir: &Path) -> Result<Self, CatalogError> {
        if !dir.is_dir() {
            return Err(CatalogError::Io {
                path: dir.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "not a directory"),
            });
        }
        let mut files: BTreeMap<String, Text<'_>> = bundled_files().collect();
        let mut found = Vec::new();
        collect_yaml(dir, dir, &mut found)?;
        for rel in found {
            let path = dir.join(&rel);
            let text =
                std::fs::read_to_string(&path).map_err(|source| CatalogError::Io { path: path.clone(), source })?;
            files.insert(rel, Text::Yaml(text));
        }
        let files = files.into_iter().map(|(name, text)| {
            let shown = match &text {
                Text::Yaml(_) => dir.join(&name).display().to_string(),
                Text::Json(_) | Text::Binary(_) => name,
            };
            (shown, text)
        });
        let catalog = Self::from_files(files.collect(), Origin::Override(dir.to_path_buf()))?;
        let problems = catalog.validate();
        if problems.is_empty() {
            Ok(catalog)
        } else {
            Err(CatalogError::Invalid { problems })
        }
    }

    /// A catalog from in-memory YAML files (relative path, text); for tests and tools.
    pub fn from_yaml(files: &[(&str, &str)]) -> Result<Self, CatalogError> {
        let files = files.iter().map(|(name, text)| ((*name).to_owned(), Text::Yaml((*text).to_owned()))).collect();
        Self::from_files(files, Origin::Bundled)
    }

    fn from_files(files: Vec<(String, Text<'_>)>, origin: Origin) -> Result<Self, CatalogError> {
        let mut series: Vec<SeriesFile> = Vec::new();
        let mut gpus = None;
        let mut rules = None;
        let mut prices = None;
        let mut models = None;
        let mut regions = RegionList::default();
        let mut serving = None;
        for (name, text) in &files {
            let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
            let in_sizes = name.contains("sizes/") || name.contains("sizes\\");
            if in_sizes {
                let mut list: Vec<SeriesFile> = parse(name, text)?;
                series.append(&mut list);
            } else {
                match base {
                    "gpus.yaml" => gpus = Some(parse::<Vec<GpuModel>>(name, text)?),
                    "rules.yaml" => rules = Some(parse::<Vec<Rule>>(name, text)?),
                    "prices.yaml" => prices = Some((name, text)),
                    "models.yaml" => models = Some(parse::<Vec<LlmModel>>(name, text)?),
                    "regions.yaml" => regions = parse::<RegionList>(name, text)?,
                    "serving-factors.yaml" => serving = Some(parse::<ServingFactors>(name, text)?),
                    _ => {}
                }
            }
        }
        let gpus = gpus.ok_or(CatalogError::Missing("gpus.yaml"))?;
        let rules = rules.ok_or(CatalogError::Missing("rules.yaml"))?;
        let prices = prices.ok_or(CatalogError::Missing("prices.yaml"))?;
        let models = models.ok_or(CatalogError::Missing("models.yaml"))?;
        if series.is_empty() {
            return Err(CatalogError::Missing("sizes/*.yaml"));
        }
        // Order: family (NC, NCC, ND, NV, NG), series, GPU memory, vCPUs, name. Sorting the
        // series and then each series' sizes moves far less memory than sorting resolved sizes.
        let family_rank = |f: &str| ["NC", "NCC", "ND", "NV", "NG"].iter().position(|x| *x == f).unwrap_or(usize::MAX);
        series
            .sort_by(|a, b| family_rank(&a.family).cmp(&family_rank(&b.family)).then_with(|| a.series.cmp(&b.series)));
        for s in &mut series {
            s.sizes.sort_by(|a, b| {
                a.gpu_memory_gib
                    .total_cmp(&b.gpu_memory_gib)
                    .then_with(|| a.vcpus.cmp(&b.vcpus))
                    .then_with(|| a.name.cmp(&b.name))
            });
        }
        let sizes = flatten_sizes(series, &gpus, &rules);
        let listed: HashSet<&str> = sizes.iter().map(|s| s.name.as_str()).collect();
        let prices = load_prices(prices.0, prices.1, &listed)?;
        Ok(Self { sizes, gpus, rules, prices, models, regions, serving, origin })
    }

    /// Find a size by name: case-insensitive, with or without the `Standard_` prefix.
    pub fn size(&self, name: &str) -> Option<&VmSize> {
        let want = name.trim();
        let want = want.strip_prefix("Standard_").or_else(|| want.strip_prefix("standard_")).unwrap_or(want);
        self.sizes.iter().find(|s| s.short_name().eq_ignore_ascii_case(want))
    }

    /// A GPU model by id (case-insensitive).
    pub fn gpu(&self, id: &str) -> Option<&GpuModel> {
        self.gpus.iter().find(|g| g.id.eq_ignore_ascii_case(id))
    }

    /// An LLM by Hugging Face id or alias (case-insensitive).
    pub fn model(&self, name: &str) -> Option<&LlmModel> {
        let n = name.trim();
        self.models
            .iter()
            .find(|m| m.id.eq_ignore_ascii_case(n) || m.aliases.iter().any(|a| a.eq_ignore_ascii_case(n)))
            .or_else(|| {
                // Allow the id without its organisation: "Llama-3.1-8B-Instruct".
                self.models.iter().find(|m| m.id.rsplit('/').next().is_some_and(|tail| tail.eq_ignore_ascii_case(n)))
            })
    }

    /// The catalog model with the same architecture and size as a base or instruct sibling:
    /// `meta-llama/Llama-3.2-1B` → `meta-llama/Llama-3.2-1B-Instruct`, `Qwen/Qwen3-8B-Base` →
    /// `Qwen/Qwen3-8B`, `google/gemma-3-27b-pt` → `google/gemma-3-27b-it` (same organisation; the
    /// name compared without its `instruct`, `it`, `pt`, `base` or `chat` parts).
    pub fn model_variant(&self, name: &str) -> Option<&LlmModel> {
        let key = |id: &str| -> Option<String> {
            let (org, name) = id.trim().split_once('/')?;
            let parts: Vec<String> = name
                .to_ascii_lowercase()
                .split('-')
                .filter(|p| !matches!(*p, "instruct" | "it" | "pt" | "base" | "chat"))
                .map(str::to_owned)
                .collect();
            Some(format!("{}/{}", org.to_ascii_lowercase(), parts.join("-")))
        };
        let want = key(name)?;
        self.models.iter().find(|m| key(&m.id).as_deref() == Some(want.as_str()))
    }

    /// The model with a KAITO preset nearest to `m`: the same organisation first, then the
    /// closest parameter count (llama-3.1-70b → llama-3.3-70b).
    pub fn nearest_kaito_preset(&self, m: &LlmModel) -> Option<&LlmModel> {
        let org = |id: &str| id.split('/').next().unwrap_or("").to_ascii_lowercase();
        let score = |c: &LlmModel| {
            let other_org = if org(&c.id) == org(&m.id) { 0.0 } else { 10.0 };
            other_org + (c.params_b.ln() - m.params_b.ln()).abs()
        };
        self.models
            .iter()
            .filter(|c| c.kaito_preset.is_some() && c.id != m.id)
            .min_by(|a, b| score(a).total_cmp(&score(b)))
    }

    /// Prices for a size in a region.
    pub fn price(&self, size: &str, region: &str) -> Option<&RegionPrice> {
        self.prices.sizes.get(size)?.get(region)
    }

    /// Every region with a price row for this size.
    pub fn price_regions(&self, size: &str) -> impl Iterator<Item = (&str, &RegionPrice)> {
        self.prices.sizes.get(size).into_iter().flat_map(|m| m.iter().map(|(r, p)| (&**r, p)))
    }

    /// All regions the price table has a price in.
    pub fn priced_regions(&self) -> Vec<&str> {
        let mut r: Vec<&str> = self.prices.sizes.values().flat_map(|m| m.keys().map(|k| &**k)).collect();
        r.sort_unstable();
        r.dedup();
        r
    }

    /// Resolve a region as typed (`westeurope`, `West Europe`, `WESTEUROPE`) to its ARM name.
    /// `Err` carries "did you mean" candidates: the name is not a well-formed region name, or
    /// is not in `regions.yaml` (when the catalog has one).
    pub fn resolve_region(&self, typed: &str) -> Result<String, Vec<&str>> {
        let norm: String = typed.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
        if norm.is_empty() || !norm.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(self.suggest_regions(&norm));
        }
        if self.regions.regions.is_empty() {
            return Ok(norm);
        }
        match self.regions.regions.iter().find(|r| r.name == norm) {
            Some(r) => Ok(r.name.clone()),
            None => Err(self.suggest_regions(&norm)),
        }
    }

    /// "Did you mean" candidates for a region name.
    pub fn suggest_regions(&self, name: &str) -> Vec<&str> {
        suggest(name, self.regions.regions.iter().map(|r| r.name.as_str()), str::to_ascii_lowercase)
    }

    /// Source and date of one price: the live cache when it replaced the entry, else the
    /// bundled source that declares the field.
    pub fn price_source(&self, size: &str, region: &str, field: &str) -> Option<String> {
        if let Some((origin, regions)) = self.prices.from_cache.get(size) {
            if regions.iter().any(|r| &**r == region) {
                return Some(origin.to_string());
            }
        }
        self.price_origin(field).map(|o| format!("{} (as of {})", o.source, o.as_of))
    }

    /// True when the live price cache replaced this size's price in `region` (not the bundled table).
    pub fn price_is_live(&self, size: &str, region: &str) -> bool {
        self.prices.from_cache.get(size).is_some_and(|(_, regions)| regions.iter().any(|r| &**r == region))
    }

    /// The source (and its date) of one price field (`linux`, `linux_spot`, …) in the bundled table.
    pub fn price_origin(&self, field: &str) -> Option<&PriceOrigin> {
        self.prices.sources.iter().find(|s| s.fields.iter().any(|f| f == field))
    }

    /// Rules that apply to a size (by series, size or GPU model).
    pub fn rules_for(&self, size: &VmSize) -> Vec<&Rule> {
        self.rules
            .iter()
            .filter(|r| {
                r.kind.series().iter().any(|s| **s == *size.series)
                    || r.kind.sizes().contains(&size.name.as_str())
                    || (r.kind.gpu_models().iter().any(|g| **g == *size.gpu_model) && size.mig_capable)
                    || (matches!(r.kind, RuleKind::WindowsMinKubernetes { .. } | RuleKind::WindowsPoolNameMax { .. })
                        && size.aks_supported
                        && size.aks_os_skus.iter().any(|o| o.starts_with("Windows")))
                    || matches!(r.kind, RuleKind::NoGpuOnExistingPool {})
            })
            .collect()
    }

    /// The Windows GPU requirement: (minimum version, feature name, feature namespace).
    pub fn windows_min_kubernetes(&self) -> Option<(KubeVersion, &str, &str)> {
        self.rules.iter().find_map(|r| match &r.kind {
            RuleKind::WindowsMinKubernetes { min_version, feature, feature_namespace } => {
                KubeVersion::parse(min_version).ok().map(|v| (v, feature.as_str(), feature_namespace.as_str()))
            }
            _ => None,
        })
    }

    /// The reason a series is unsupported on AKS, if a rule says so.
    pub fn unsupported_reason(&self, series: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| match &r.kind {
            RuleKind::UnsupportedSeries { series: s, .. } => s.iter().any(|x| x == series),
            RuleKind::SeriesStatus { series: s, aks_status: AksStatus::Unsupported, .. } => {
                s.iter().any(|x| x == series)
            }
            _ => false,
        })
    }

    /// AKS status of a series from a `series_status` rule.
    pub fn series_status(&self, series: &str) -> Option<(AksStatus, &Rule)> {
        self.rules.iter().find_map(|r| match &r.kind {
            RuleKind::SeriesStatus { series: s, aks_status, .. } if s.iter().any(|x| x == series) => {
                Some((*aks_status, r))
            }
            _ => None,
        })
    }

    /// Microsoft's minimum recommended size for `os` ("linux" / "windows").
    pub fn min_recommended_size(&self, os: &str) -> Option<(&str, &Rule)> {
        self.rules.iter().find_map(|r| match &r.kind {
            RuleKind::MinRecommendedSize { os: o, size } if o.eq_ignore_ascii_case(os) => Some((size.as_str(), r)),
            _ => None,
        })
    }

    /// The rule with this id.
    pub fn rule(&self, id: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| r.id == id)
    }

    /// The rule that states one limit of AKS-managed GPU pools.
    pub fn managed_gpu_rule(&self, limit: ManagedGpuLimit) -> Option<&Rule> {
        self.rules.iter().find(|r| matches!(&r.kind, RuleKind::ManagedGpu { limit: l, .. } if *l == limit))
    }

    /// The preview feature AKS-managed GPU pools need (`ManagedGPUExperiencePreview`), and its rule.
    pub fn managed_gpu_feature(&self) -> Option<(&str, &Rule)> {
        self.rules.iter().find_map(|r| match &r.kind {
            RuleKind::ManagedGpu { limit: ManagedGpuLimit::FeatureGate, feature: Some(f) } => Some((f.as_str(), r)),
            _ => None,
        })
    }

    /// The rule that lets any GPU size be created with `gpuProfile.driver: None`.
    pub fn driver_none_any_size(&self) -> Option<&Rule> {
        self.rules.iter().find(|r| matches!(r.kind, RuleKind::DriverNoneAnySize { .. }))
    }

    /// The node image floor for a VM size, if its series has one: the minimum version and the
    /// rule (its `id` and `source` name where the floor comes from). This is the catalog's public
    /// answer to "is this pool's node image new enough?":
    ///
    /// ```
    /// use aksgpu::catalog::{Catalog, NodeImageVersion};
    /// let c = Catalog::bundled().unwrap();
    /// let (floor, rule) = c.node_image_floor("Standard_NV36ads_A10_v5").expect("A10 has a floor");
    /// assert_eq!(floor, NodeImageVersion::parse("202606.08.1").unwrap());
    /// assert!(rule.source.contains("Azure/AKS#5875"));
    /// let running = NodeImageVersion::parse("AKSUbuntu-2204gen2containerd-202605.27.0").unwrap();
    /// assert!(running < floor);
    /// assert!(c.node_image_floor("Standard_NC24ads_A100_v4").is_none());
    /// ```
    pub fn node_image_floor(&self, vm_size: &str) -> Option<(NodeImageVersion, &Rule)> {
        let size = self.size(vm_size)?;
        self.rules.iter().find_map(|r| match &r.kind {
            RuleKind::NodeImageFloor { series, min_node_image } if series.iter().any(|s| **s == *size.series) => {
                NodeImageVersion::parse(min_node_image).ok().map(|v| (v, r))
            }
            _ => None,
        })
    }

    /// KAITO's minimum compute capability.
    pub fn kaito_min_compute_capability(&self) -> Option<(u32, u32)> {
        self.rules.iter().find_map(|r| match &r.kind {
            RuleKind::KaitoMinComputeCapability { min } => {
                let (a, b) = min.split_once('.').unwrap_or((min, "0"));
                Some((a.parse().ok()?, b.parse().ok()?))
            }
            _ => None,
        })
    }

    /// "Did you mean" candidates for a size name.
    /// Current sizes come before retiring ones, and those before retired ones.
    pub fn suggest_sizes(&self, name: &str) -> Vec<&str> {
        let mut scored = suggest_scored(name, self.sizes.iter().map(|s| s.name.as_str()), |c| {
            c.strip_prefix("Standard_").unwrap_or(c).to_ascii_lowercase()
        });
        let life = |n: &str| match self.size(n).map(|s| s.status) {
            Some(Status::Current) => 0,
            Some(Status::Retiring) => 1,
            _ => 2,
        };
        scored.sort_by_key(|(d, c)| (life(c), *d));
        scored.into_iter().take(3).map(|(_, c)| c).collect()
    }

    /// "Did you mean" candidates for an LLM name.
    pub fn suggest_models(&self, name: &str) -> Vec<&str> {
        suggest(name, self.models.iter().flat_map(|m| m.aliases.iter().map(String::as_str)), str::to_ascii_lowercase)
    }

    /// "Did you mean" candidates for a GPU model id.
    pub fn suggest_gpus(&self, name: &str) -> Vec<&str> {
        suggest(name, self.gpus.iter().map(|g| g.id.as_str()), str::to_ascii_lowercase)
    }

    /// Check the catalog for consistency; returns the problems found (empty = valid).
    pub fn validate(&self) -> Vec<String> {
        let mut p = Vec::new();
        let mut seen = HashSet::new();
        for s in &self.sizes {
            if !seen.insert(s.name.to_ascii_lowercase()) {
                p.push(format!("size {} appears twice", s.name));
            }
            self.check_size(s, &mut p);
        }
        self.check_gpus(&mut p);
        self.check_rules(&mut p);
        p.extend(self.validate_prices_and_regions());
        self.check_models(&mut p);
        p
    }

    /// One size: its name, family, GPU, numbers, lifecycle, AKS facts and source.
    fn check_size(&self, s: &VmSize, p: &mut Vec<String>) {
        if !s.name.starts_with("Standard_N") {
            p.push(format!("size {} is not an N-series name", s.name));
        }
        if !["NC", "NCC", "ND", "NV", "NG"].contains(&&*s.family) {
            p.push(format!("size {}: unknown family {}", s.name, s.family));
        }
        let Some(gpu) = self.gpu(&s.gpu_model) else {
            p.push(format!("size {}: unknown gpu_model {}", s.name, s.gpu_model));
            return;
        };
        if s.vcpus == 0 || s.memory_gib <= 0.0 || s.gpu_memory_gib <= 0.0 {
            p.push(format!("size {}: vcpus, memory and GPU memory must be positive", s.name));
        }
        let expect = gpu.memory_gib * s.gpu_count.value();
        if (expect - s.gpu_memory_gib).abs() > expect * 0.2 + 1.0 {
            p.push(format!(
                "size {}: gpu_memory_gib {} disagrees with {} × {} GiB",
                s.name, s.gpu_memory_gib, s.gpu_count, gpu.memory_gib
            ));
        }
        if gpu.vendor == Vendor::Amd && s.driver != Driver::None {
            p.push(format!("size {}: AMD GPUs get driver none on AKS", s.name));
        }
        match s.status {
            Status::Retired | Status::Retiring if s.retirement_date.is_none() => {
                p.push(format!("size {}: {} without retirement_date", s.name, s.status));
            }
            _ => {}
        }
        if let Some(d) = &s.retirement_date {
            if !is_date(d) {
                p.push(format!("size {}: retirement_date {d:?} is not YYYY-MM-DD", s.name));
            }
        }
        if s.aks_supported {
            if s.aks_os_skus.is_empty() {
                p.push(format!("size {}: AKS-supported but no os_skus", s.name));
            }
            if s.status == Status::Current && s.hyperv_generations.is_empty() {
                p.push(format!("size {}: current AKS size without hyperv_generations", s.name));
            }
            if s.gpu_vendor == Vendor::Nvidia && gpu.compute_capability.is_none() {
                p.push(format!("GPU {}: NVIDIA GPU without compute_capability", gpu.id));
            }
        }
        if s.source.trim().is_empty() {
            p.push(format!("size {}: no source", s.name));
        }
        check_aks_facts(s, p);
    }

    /// GPU models: unique ids and MIG profiles AKS knows.
    fn check_gpus(&self, p: &mut Vec<String>) {
        let mut gpu_ids = HashSet::new();
        for g in &self.gpus {
            if !gpu_ids.insert(g.id.to_ascii_lowercase()) {
                p.push(format!("GPU model {} appears twice", g.id));
            }
            for m in &g.mig_profiles {
                if !["MIG1g", "MIG2g", "MIG3g", "MIG4g", "MIG7g"].contains(&m.profile.as_str()) {
                    p.push(format!("GPU {}: MIG profile {} is not an AKS gpuInstanceProfile", g.id, m.profile));
                }
                if m.instances == 0 || m.memory_gib <= 0.0 || m.memory_gib > g.memory_gib + 0.5 {
                    p.push(format!("GPU {}: MIG profile {} has impossible numbers", g.id, m.profile));
                }
            }
        }
    }

    /// Rules: unique ids, a source, and only known series, sizes and GPUs.
    fn check_rules(&self, p: &mut Vec<String>) {
        let series: HashSet<&str> = self.sizes.iter().map(|s| &*s.series).collect();
        let mut rule_ids = HashSet::new();
        for r in &self.rules {
            if !rule_ids.insert(r.id.as_str()) {
                p.push(format!("rule {} appears twice", r.id));
            }
            if r.source.trim().is_empty() {
                p.push(format!("rule {}: no source", r.id));
            }
            for s in r.kind.series() {
                if !series.contains(s.as_str()) {
                    p.push(format!("rule {}: unknown series {s}", r.id));
                }
            }
            for s in r.kind.sizes() {
                if self.size(s).is_none() {
                    p.push(format!("rule {}: unknown size {s}", r.id));
                }
            }
            for g in r.kind.gpu_models() {
                if self.gpu(g).is_none() {
                    p.push(format!("rule {}: unknown GPU model {g}", r.id));
                }
            }
            if let RuleKind::NodeImageFloor { min_node_image, .. } = &r.kind {
                if let Err(e) = NodeImageVersion::parse(min_node_image) {
                    p.push(format!("rule {}: {e}", r.id));
                }
            }
            if let RuleKind::ManagedGpu { limit, .. } = &r.kind {
                if r.id != limit.rule_id() {
                    p.push(format!("rule {}: a {limit:?} limit must have the id {}", r.id, limit.rule_id()));
                }
            }
            if let RuleKind::WindowsMinKubernetes { min_version, .. } = &r.kind {
                if KubeVersion::parse(min_version).is_err() {
                    p.push(format!("rule {}: bad min_version {min_version}", r.id));
                }
            }
            self.check_conflict(r, p);
        }
    }

    /// Models: every id and alias unique, and each model's own checks.
    fn check_models(&self, p: &mut Vec<String>) {
        let mut aliases = HashSet::new();
        for m in &self.models {
            for a in std::iter::once(&m.id).chain(&m.aliases) {
                if !aliases.insert(a.to_ascii_lowercase()) {
                    p.push(format!("model name {a} is used twice"));
                }
            }
            p.extend(m.problems());
        }
    }
}

/// Every size of every series file, with the series' defaults filled in.
fn flatten_sizes(series: Vec<SeriesFile>, gpus: &[GpuModel], rules: &[Rule]) -> Vec<VmSize> {
    let mig_models: HashSet<&str> = rules
        .iter()
        .flat_map(|r| match &r.kind {
            RuleKind::Mig { gpu_models, .. } => gpu_models.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        })
        .collect();
    let mut sizes = Vec::with_capacity(series.iter().map(|s| s.sizes.len()).sum());
    for mut s in series {
        let gpu = gpus.iter().find(|g| *g.id == *s.gpu_model);
        let mig_model = mig_models.contains(&*s.gpu_model);
        for z in std::mem::take(&mut s.sizes) {
            sizes.push(size_of(&s, z, gpu, mig_model));
        }
    }
    sizes
}

/// One size of a series file: its own values, else the series'.
fn size_of(s: &SeriesFile, z: SizeFile, gpu: Option<&GpuModel>, mig_model: bool) -> VmSize {
    let aks = z.aks.unwrap_or_else(|| s.aks.clone());
    let status = z.status.unwrap_or(s.status);
    let per_gpu = if z.gpu_count.is_partial() { z.gpu_memory_gib } else { z.gpu_memory_gib / z.gpu_count.value() };
    let mig_capable = !z.gpu_count.is_partial() && mig_model && gpu.is_some_and(|g| !g.mig_profiles.is_empty());
    VmSize {
        name: z.name,
        family: s.family.clone(),
        series: s.series.clone(),
        vcpus: z.vcpus,
        memory_gib: z.memory_gib,
        gpu_vendor: gpu.map_or(Vendor::Nvidia, |g| g.vendor),
        gpu_model: s.gpu_model.clone(),
        gpu_count: z.gpu_count,
        gpu_memory_gib: z.gpu_memory_gib,
        gpu_memory_per_gpu_gib: per_gpu,
        driver: z.driver.unwrap_or(s.driver),
        driver_source: s.driver_source.clone(),
        cpu_architecture: s.cpu_architecture,
        mig_capable,
        aks_supported: aks.supported && status != Status::Retired,
        aks_os_skus: aks.os_skus,
        aks_note: aks.note,
        aks_source: aks.source,
        status,
        retirement_date: z.retirement_date.or_else(|| s.retirement_date.clone()),
        retirement_source: s.retirement_source.clone(),
        interconnect: z.interconnect.or_else(|| s.interconnect.clone()),
        hyperv_generations: z.hyperv_generations.or_else(|| s.hyperv_generations.clone()).unwrap_or_default(),
        quota_family: s.quota_family.clone(),
        temp_storage_gib: z.temp_storage_gib,
        note: z.note.or_else(|| s.note.clone()),
        source: s.source.clone(),
    }
}

impl Catalog {
    /// A `source_conflict` rule must be a real disagreement, and every size of its series must
    /// carry the winning value.
    fn check_conflict(&self, r: &Rule, p: &mut Vec<String>) {
        let Some((fact, win, lose)) = r.kind.conflict() else { return };
        let set = |v: &[String]| v.iter().map(|x| x.to_ascii_lowercase()).collect::<BTreeSet<_>>();
        if set(win) == set(lose) {
            p.push(format!("rule {}: docs and code give the same {} value; not a conflict", r.id, fact.field()));
        }
        for s in self.sizes.iter().filter(|s| r.kind.series().iter().any(|x| **x == *s.series)) {
            let have: Vec<String> = match fact {
                ConflictFact::Supported => vec![s.aks_supported.to_string()],
                ConflictFact::OsSkus => s.aks_os_skus.to_vec(),
                ConflictFact::Driver => vec![s.driver.to_string()],
            };
            if set(&have) != set(win) {
                p.push(format!(
                    "rule {}: {} has {} {:?}, but the winning side says {:?}",
                    r.id,
                    s.name,
                    fact.field(),
                    have,
                    win
                ));
            }
        }
    }
}

/// A size names only real AKS OS SKUs.
fn check_aks_facts(s: &VmSize, p: &mut Vec<String>) {
    for o in s.aks_os_skus.iter() {
        if !AKS_OS_SKUS.contains(&o.as_str()) {
            p.push(format!("size {}: {o} is not an AKS OS SKU", s.name));
        }
    }
}

impl Catalog {
    /// Prices may name sizes the catalog lacks (they are ignored), but every price must be
    /// positive, come from a declared source, and be for a known region.
    fn validate_prices_and_regions(&self) -> Vec<String> {
        let mut p = Vec::new();
        let known: HashSet<&str> = self.regions.regions.iter().map(|r| r.name.as_str()).collect();
        if known.len() != self.regions.regions.len() {
            p.push("regions: a region appears twice".to_owned());
        }
        for s in &self.prices.sources {
            if s.as_of != "unknown" && !is_date(&s.as_of) {
                p.push(format!("prices: source {} has as_of {:?}, not YYYY-MM-DD or unknown", s.id, s.as_of));
            }
        }
        for (size, regions) in &self.prices.sizes {
            if !size.starts_with("Standard_N") {
                p.push(format!("prices: {size} is not an N-series size name"));
            }
            for (region, price) in regions {
                if !known.is_empty() && !known.contains(&**region) {
                    p.push(format!("prices: {size} in {region}: region not in regions.yaml"));
                }
                let fields = [
                    ("linux", price.linux),
                    ("linux_spot", price.linux_spot),
                    ("windows", price.windows),
                    ("windows_spot", price.windows_spot),
                ];
                for (field, v) in fields {
                    let Some(v) = v else { continue };
                    if !(v.is_finite() && v > 0.0) {
                        p.push(format!("prices: {size} in {region}: {v} is not a positive price"));
                    }
                    if !self.prices.sources.is_empty() && self.price_origin(field).is_none() {
                        p.push(format!("prices: {size} in {region}: no source declares field {field}"));
                    }
                }
            }
        }
        p
    }
}

fn is_date(d: &str) -> bool {
    let b = d.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter().enumerate().all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

fn collect_yaml(dir: &Path, base: &Path, out: &mut Vec<String>) -> Result<(), CatalogError> {
    let rd = std::fs::read_dir(dir).map_err(|source| CatalogError::Io { path: dir.to_path_buf(), source })?;
    for entry in rd {
        let entry = entry.map_err(|source| CatalogError::Io { path: dir.to_path_buf(), source })?;
        let path = entry.path();
        if path.is_dir() {
            collect_yaml(&path, base, out)?;
        } else if path.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            let rel = path.strip_prefix(base).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            out.push(rel.trim_end_matches(".yml").trim_end_matches(".yaml").to_owned() + ".yaml");
        }
    }
    out.sort();
    Ok(())
}

/// Levenshtein distance (small strings only).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

fn suggest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>, norm: impl Fn(&str) -> String) -> Vec<&'a str> {
    suggest_scored(name, candidates, norm).into_iter().take(3).map(|(_, c)| c).collect()
}

/// Every candidate near enough to `name`, with its distance, nearest first.
fn suggest_scored<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str>,
    norm: impl Fn(&str) -> String,
) -> Vec<(usize, &'a str)> {
    let want = norm(name.trim());
    let want = want.strip_prefix("standard_").unwrap_or(&want).to_owned();
    let mut scored: Vec<(usize, &str)> = candidates
        .map(|c| {
            let n = norm(c);
            let d = edit_distance(&want, &n);
            let d = if !want.is_empty() && (n.contains(&want) || want.contains(&n)) { d.min(2) } else { d };
            (d, c)
        })
        .filter(|(d, _)| *d <= (want.chars().count() / 3).max(2))
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_suggestions_put_current_sizes_before_retired_ones() {
        let c = Catalog::bundled().expect("bundled");
        assert_eq!(c.size("Standard_NC24").map(|s| s.status), Some(Status::Retired));
        // "nc24" and "nc24ads_a100_v4" are both as near to the typo; the current size leads.
        let near = c.suggest_sizes("Standard_NC24ads_A100");
        assert_eq!(near.first(), Some(&"Standard_NC24ads_A100_v4"), "{near:?}");
        assert!(near.contains(&"Standard_NC24"), "{near:?}");
    }

    #[test]
    fn bundled_catalog_is_valid() {
        let c = Catalog::bundled().expect("bundled catalog loads");
        let problems = c.validate();
        assert!(problems.is_empty(), "bundled catalog problems:\n{}", problems.join("\n"));
    }

    /// The compact forms build.rs embeds (postcard, packed prices, JSON) decode to exactly what
    /// the YAML says: the same catalog as reading every file of `catalog/` as YAML.
    #[test]
    fn bundled_forms_decode_to_the_yaml() {
        let bundled = Catalog::bundled().expect("bundled catalog loads");
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog");
        let yaml = Catalog::with_override(&dir).expect("catalog/ loads as YAML");
        assert_eq!(bundled.sizes, yaml.sizes);
        assert_eq!(json(&bundled.gpus), json(&yaml.gpus));
        assert_eq!(json(&bundled.models), json(&yaml.models));
        assert_eq!(json(&bundled.rules), json(&yaml.rules));
        assert_eq!(json(&bundled.regions), json(&yaml.regions));
        // Prices: the bundled table unpacks only the listed sizes and keeps the others' names.
        let (b, y) = (&bundled.prices, &yaml.prices);
        assert_eq!(
            (&b.currency, &b.as_of, &b.source, &b.sources, &b.notes),
            (&y.currency, &y.as_of, &y.source, &y.sources, &y.notes)
        );
        let mut names: Vec<&String> = b.sizes.keys().chain(&b.unlisted).collect();
        names.sort();
        assert!(names.iter().copied().eq(y.sizes.keys()), "the same priced sizes");
        for (size, regions) in &b.sizes {
            assert!(regions == &y.sizes[size], "{size}: the same prices in the same regions");
        }
        // Partial GPUs keep their exact fraction through the binary form.
        let nv = bundled.sizes.iter().find(|s| s.gpu_count.is_partial()).expect("a partial-GPU size");
        assert!(nv.gpu_count.den > 1);
    }

    fn json<T: serde::Serialize>(v: &T) -> serde_json::Value {
        serde_json::to_value(v).expect("serializes")
    }

    /// What catalog/prices.yaml's `sources` and `notes` promise, checked on the data rather
    /// than on one snapshot's figures (the YAML itself is compared entry by entry above):
    /// Linux prices in the main regions, no spot placeholder equal to (or above) the on-demand
    /// price, no Windows price, only known regions, and a dated source for each field.
    #[test]
    fn bundled_prices_cover_every_region_with_sources() {
        let c = Catalog::bundled().expect("bundled catalog loads");
        let linux = |s: &str, r: &str| c.price(s, r).and_then(|p| p.linux);
        for region in ["eastus", "westeurope"] {
            assert!(linux("Standard_NC24ads_A100_v4", region).is_some(), "{region}");
        }
        assert!(linux("Standard_ND96isr_H100_v5", "eastus").is_some());
        // SkyPilot's spot == on-demand placeholders are gone; real US spot prices stay.
        let mut spot = 0;
        for (size, regions) in &c.prices.sizes {
            for (region, p) in regions {
                assert!(p.windows.is_none() && p.windows_spot.is_none(), "Windows price for {size} in {region}");
                if let (Some(od), Some(s)) = (p.linux, p.linux_spot) {
                    assert!(s < od, "{size} in {region}: spot {s} is not below on-demand {od}");
                    spot += 1;
                }
            }
        }
        assert!(spot > 0, "no spot price at all");
        let regions = c.priced_regions();
        assert!(regions.len() > 1 && regions.iter().all(|r| c.resolve_region(r).is_ok()), "{regions:?}");
        let od = c.price_origin("linux").expect("linux source");
        let date: Vec<&str> = od.as_of.split('-').collect();
        assert!(
            date.iter().map(|p| p.len()).eq([4, 2, 2]) && date.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit())),
            "not YYYY-MM-DD: {}",
            od.as_of
        );
        assert!(od.source.contains("karpenter-provider-azure"));
        assert!(c.price_origin("linux_spot").expect("spot source").source.contains("skypilot"));
        assert!(c
            .price_source("Standard_NC24ads_A100_v4", "eastus", "linux")
            .expect("source")
            .contains(&format!("as of {}", od.as_of)));
    }

    /// Every current size AKS supports has a list price somewhere, except the GB300 size, which
    /// AKS provisions (karpenter-provider-azure supported-gpus.yaml) but the 2026-06-18 price
    /// snapshot predates; priced sizes the catalog does not list (yet) are tolerated and
    /// invisible to lookups.
    #[test]
    fn priced_sizes_and_catalog_sizes() {
        let c = Catalog::bundled().expect("bundled catalog loads");
        let unpriced: Vec<&str> = c
            .sizes
            .iter()
            .filter(|s| s.aks_supported && s.status == Status::Current)
            .filter(|s| c.price_regions(&s.name).all(|(_, p)| p.linux.is_none()))
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(unpriced, ["Standard_ND128isr_GB300_v6"], "current AKS sizes without a list price");
        // The bundled table keeps only the names of priced sizes the catalog lacks.
        let uncatalogued: Vec<&str> = c.prices.unlisted.iter().map(String::as_str).collect();
        assert!(c.prices.sizes.keys().all(|s| c.size(s).is_some()));
        // e.g. the NCv6 RTX PRO sizes beyond the documented ones, ND96is_flex_H100_v5.
        assert!(uncatalogued.contains(&"Standard_ND96is_flex_H100_v5"), "{uncatalogued:?}");
        assert!(uncatalogued.iter().all(|s| c.size(s).is_none()));
    }

    #[test]
    fn regions_resolve_with_did_you_mean() {
        let c = Catalog::bundled().expect("bundled catalog loads");
        assert_eq!(c.resolve_region("West Europe"), Ok("westeurope".to_owned()));
        assert_eq!(c.resolve_region("austriaeast"), Ok("austriaeast".to_owned()));
        assert_eq!(c.resolve_region("westeu").expect_err("unknown").first(), Some(&"westeurope"));
        assert!(c.resolve_region("east-us").is_err());
        assert!(c.regions.regions.len() >= 59);
        // Every priced region is a listed region (validate() checks the same).
        let listed: HashSet<&str> = c.regions.regions.iter().map(|r| r.name.as_str()).collect();
        assert!(c.priced_regions().iter().all(|r| listed.contains(r)));
    }

    #[test]
    fn every_bundled_size_cites_where_its_aks_facts_come_from() {
        let c = Catalog::bundled().expect("bundled catalog loads");
        for s in &c.sizes {
            for (what, src) in [("aks.source", &s.aks_source), ("driver_source", &s.driver_source)] {
                assert!(src.as_deref().is_some_and(|x| !x.trim().is_empty()), "{}: no {what}", s.name);
            }
        }
    }

    /// A one-series catalog with `rules` as its rules.yaml.
    fn tiny(os_skus: &str, rules: &str) -> Catalog {
        tiny_result(os_skus, rules).expect("tiny catalog")
    }

    fn tiny_result(os_skus: &str, rules: &str) -> Result<Catalog, CatalogError> {
        let sizes = format!(
            "- {{series: S, family: NC, source: t, status: current, gpu_model: G, driver: grid, \
             hyperv_generations: [2], aks: {{supported: true, os_skus: {os_skus}}}, \
             sizes: [{{name: Standard_NC8_s, vcpus: 8, memory_gib: 56, gpu_count: 1, gpu_memory_gib: 24}}]}}"
        );
        Catalog::from_yaml(&[
            ("sizes/t.yaml", &sizes),
            ("gpus.yaml", "- {id: G, vendor: NVIDIA, name: G, memory_gib: 24, compute_capability: '8.6', bf16: true, fp8: false, nvenc: true, source: t}"),
            ("rules.yaml", rules),
            ("prices.yaml", "{currency: USD, as_of: t, source: t, sizes: {}}"),
            ("models.yaml", "[]"),
        ])
    }

    const CONFLICT: &str = "- {id: c, kind: source_conflict, summary: s, source: t, series: [S], fact: driver, \
        docs: {source: d, says: d, value: [cuda]}, code: {source: k, says: k, value: [grid]}, winner: WINNER, why: w}";

    #[test]
    fn source_conflicts_must_match_the_winning_side() {
        assert!(tiny("[Ubuntu]", &CONFLICT.replace("WINNER", "code")).validate().is_empty());
        let p = tiny("[Ubuntu]", &CONFLICT.replace("WINNER", "docs")).validate();
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].contains("Standard_NC8_s has driver") && p[0].contains("cuda"), "{p:?}");
        // Both sides saying the same thing is not a conflict.
        let same = CONFLICT.replace("value: [cuda]", "value: [grid]").replace("WINNER", "code");
        assert!(tiny("[Ubuntu]", &same).validate().iter().any(|x| x.contains("not a conflict")));
        // The winner must be docs or code.
        let bad = tiny_result("[Ubuntu]", &CONFLICT.replace("WINNER", "vendor"));
        assert!(matches!(bad, Err(CatalogError::Parse { .. })), "{bad:?}");
    }

    #[test]
    fn os_skus_must_be_aks_os_skus() {
        let p = tiny("[Ubuntu, Debian]", "[]").validate();
        assert_eq!(p, vec!["size Standard_NC8_s: Debian is not an AKS OS SKU".to_owned()]);
    }

    #[test]
    fn bundled_conflicts_record_the_a100_azure_linux_disagreement() {
        let c = Catalog::bundled().expect("bundled");
        let a100 = c.size("NC24ads_A100_v4").expect("A100");
        assert!(a100.aks_os_skus.iter().any(|o| o == "AzureLinux3"));
        assert!(!a100.aks_os_skus.iter().any(|o| o == "AzureLinux"));
        let rule = c.rules_for(a100).into_iter().find(|r| r.id == "a100-h100-azure-linux").expect("rule");
        let (fact, win, lose) = rule.kind.conflict().expect("conflict");
        assert_eq!(fact, ConflictFact::OsSkus);
        assert!(win.iter().any(|o| o == "AzureLinux3") && !lose.iter().any(|o| o == "AzureLinux3"));
        // AgentBaker: the A10 v4 sizes get GRID, the RTX PRO 6000 sizes GRID v20.
        assert_eq!(c.size("NC16ads_A10_v4").expect("A10 v4").driver, Driver::Grid);
        assert_eq!(c.size("NC144ds_xl_RTXPRO6000BSE_v6").expect("NCv6").driver, Driver::GridV20);
        // GB200 is an AKS GPU size (karpenter supported-gpus.yaml: ubuntu) on an Arm64 host.
        let gb200 = c.size("ND128isr_NDR_GB200_v6").expect("GB200");
        assert!(gb200.aks_supported && *gb200.aks_os_skus == ["Ubuntu"]);
        assert_eq!(gb200.cpu_architecture, CpuArch::Arm64);
        assert_eq!(a100.cpu_architecture, CpuArch::X64);
    }

    #[test]
    fn packed_prices_unpack_exactly() {
        let names: Vec<Shared> = vec!["eastus".into(), "westeurope".into()];
        let mut bin = vec![3u8];
        bin.extend_from_slice(b"NC6");
        bin.push(2);
        for (idx, cells) in
            [(0u8, [3_673_000u32, 444_433, u32::MAX, u32::MAX]), (1, [4_775_000, u32::MAX, u32::MAX, u32::MAX])]
        {
            bin.push(idx);
            cells.iter().for_each(|c| bin.extend_from_slice(&c.to_le_bytes()));
        }
        let listed: HashSet<&str> = ["NC6"].into_iter().collect();
        let (m, unlisted) = unpack_prices(&bin, &names, &listed).expect("valid");
        assert!(unlisted.is_empty());
        assert_eq!(m["NC6"]["eastus"].linux, Some(3.673));
        assert_eq!(m["NC6"]["eastus"].linux_spot, Some(0.444433));
        assert_eq!(m["NC6"]["eastus"].windows, None);
        assert_eq!(m["NC6"]["westeurope"].linux, Some(4.775));
        let (m, unlisted) = unpack_prices(&bin, &names, &HashSet::new()).expect("valid");
        assert!(m.is_empty());
        assert_eq!(unlisted, ["NC6"]);
        assert!(unpack_prices(&bin[..bin.len() - 1], &names, &listed).is_none(), "truncated");
        assert!(unpack_prices(&bin, &names[..1], &listed).is_none(), "region index out of range");
    }

    #[test]
    fn gpu_count_parses_fractions_and_numbers() {
        assert_eq!(GpuCount::parse("1/6").expect("ok").value(), 1.0 / 6.0);
        assert_eq!(GpuCount::parse("8").expect("ok").whole(), 8);
        assert_eq!(GpuCount::parse("0.5").expect("ok").to_string(), "1/2");
        assert!(GpuCount::parse("0").is_err());
        assert!(GpuCount::parse("-1").is_err());
        assert!(GpuCount::parse("0.3").is_err());
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }

    #[test]
    fn dates_are_checked() {
        assert!(is_date("2025-09-30"));
        assert!(!is_date("2025-9-30"));
        assert!(!is_date("soon"));
    }
}
