//! AKS rules as data (`rules.yaml`), and the code that reads them.
//!
//! Each rule has a `kind`; the kinds are a closed set so that a rule can never sit in the file
//! without code enforcing it (an unknown kind is a load error). Callers ask the catalog
//! questions (`windows_min_kubernetes()`, `mig_gpu_models()`, …) instead of hard-coding facts.

use serde::{Deserialize, Serialize};

/// One AKS rule.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Rule {
    /// Stable identifier, e.g. `windows-gpu-min-kubernetes`.
    pub id: String,
    /// One line shown to users.
    pub summary: String,
    /// Documentation path backing the rule.
    pub source: String,
    /// What the rule says, by kind.
    #[serde(flatten)]
    pub kind: RuleKind,
}

/// The closed set of rule kinds the code enforces.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum RuleKind {
    /// Windows GPU pools need a minimum Kubernetes version and a preview feature.
    WindowsMinKubernetes {
        min_version: String,
        feature: String,
        #[serde(default = "default_namespace")]
        feature_namespace: String,
    },
    /// Sizes of these series cannot be used for AKS GPU pools.
    UnsupportedSeries { series: Vec<String>, reason: String },
    /// GPU pools cannot use these OS SKUs.
    UnsupportedOsSkus { os_skus: Vec<String>, reason: String },
    /// Microsoft's minimum recommended size for an OS.
    MinRecommendedSize { os: String, size: String },
    /// MIG is only available on these GPU models.
    Mig { gpu_models: Vec<String>, immutable: bool },
    /// A GPU size cannot be added to an existing pool: a new pool is needed.
    NoGpuOnExistingPool {},
    /// With the NVIDIA GPU Operator, the autoscaler minimum must be at least this.
    OperatorAutoscalerMin { min_count: u32 },
    /// These series allow only these OS SKUs and need this driver option.
    SeriesOsDriver { series: Vec<String>, os_skus: Vec<String>, driver: String },
    /// Windows pool names are limited to this many characters.
    WindowsPoolNameMax { max_length: usize },
    /// AKS status of a series.
    SeriesStatus {
        series: Vec<String>,
        aks_status: AksStatus,
        #[serde(default)]
        note: Option<String>,
    },
    /// KAITO instance types need at least this CUDA compute capability.
    KaitoMinComputeCapability { min: String },
    /// AKS's docs and AKS's node-provisioning code disagree about one fact of these series. Both
    /// claims are kept; `winner` says which one the catalog follows, `why` says why. The loader
    /// checks that every size of the series carries the winning value.
    SourceConflict { series: Vec<String>, fact: ConflictFact, docs: Claim, code: Claim, winner: Winner, why: String },
    /// One limit of AKS-managed GPU pools (`gpuProfile.nvidia.managementMode: Managed`).
    ManagedGpu {
        limit: ManagedGpuLimit,
        /// The preview feature that gates it (`feature_gate` only).
        #[serde(default)]
        feature: Option<String>,
    },
    /// The node labels that let one cluster-wide GPU Operator release serve pools whose drivers
    /// differ (`driver_off` on AKS-driver pools, `operands_off` on AKS-managed ones).
    OperatorNodeLabels { driver_off: String, operands_off: String },
    /// Since `since`, AKS accepts any GPU size on a pool created with `gpuProfile.driver: None`:
    /// a size the catalog marks unsupported is allowed then, with a warning (the user owns the
    /// driver).
    DriverNoneAnySize { since: String },
    /// Pools of these series need node image `min_node_image` or later (see
    /// [`NodeImageVersion`]).
    NodeImageFloor { series: Vec<String>, min_node_image: String },
    /// A check `fleet` runs on every GPU pool it reads, with the severity of what it finds.
    FleetCheck { check: FleetCheck, severity: Severity },
}

/// The checks `fleet` runs on pools as read (rules of kind `fleet_check`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FleetCheck {
    /// The pool's size is retired (the catalog's `status: retired`, with its date).
    RetiredSize,
    /// The pool's size is retiring (`status: retiring`, with its date).
    RetiringSize,
    /// The autoscaler keeps a minimum of GPU nodes running while idle.
    IdleMinimum,
    /// AKS does not support the pool's size (`aks.supported: false`).
    UnsupportedSize,
}

/// How much a finding matters: `info` < `warning` < `error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    /// The name as typed (`--fail-on`) and shown.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// The limits of AKS-managed GPU pools the docs state, one rule each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ManagedGpuLimit {
    /// NVIDIA GPUs on Linux only.
    NvidiaLinux,
    /// The driver is always installed: no `gpuProfile.driver: None`.
    DriverInstall,
    /// No cluster autoscaler (during the preview).
    NoAutoscaler,
    /// `managementMode`, `migStrategy` and `driver` are fixed once the pool exists.
    Immutable,
    /// The subscription needs a preview feature registered.
    FeatureGate,
    /// AKS owns the stack: no GPU Operator on those nodes.
    OwnsStack,
    /// `migStrategy`/`migProfiles` (managed MIG) need `managementMode: Managed`.
    MigNeedsManaged,
}

impl ManagedGpuLimit {
    /// The rule id that states this limit in `rules.yaml`.
    pub fn rule_id(self) -> &'static str {
        match self {
            ManagedGpuLimit::NvidiaLinux => "managed-gpu-nvidia-linux",
            ManagedGpuLimit::DriverInstall => "managed-gpu-driver-install",
            ManagedGpuLimit::NoAutoscaler => "managed-gpu-no-autoscaler",
            ManagedGpuLimit::Immutable => "managed-gpu-immutable",
            ManagedGpuLimit::FeatureGate => "managed-gpu-feature",
            ManagedGpuLimit::OwnsStack => "managed-gpu-owns-stack",
            ManagedGpuLimit::MigNeedsManaged => "managed-mig-needs-managed-gpu",
        }
    }
}

/// An AKS node image version, `[<prefix>-]YYYYMM.DD.N` (`AKSUbuntu-2204gen2containerd-202606.08.1`,
/// or the bare `202606.08.1` the release notes print), ordered by its date parts then its build
/// number; the OS prefix does not take part in the order (a floor applies to every image line).
///
/// ```
/// use aksgpu::catalog::NodeImageVersion;
/// let floor = NodeImageVersion::parse("202606.08.1").unwrap();
/// let old = NodeImageVersion::parse("AKSUbuntu-2204gen2containerd-202605.27.0").unwrap();
/// let new = NodeImageVersion::parse("AKSUbuntu-2404gen2containerd-202607.02.0").unwrap();
/// assert!(old < floor && floor < new);
/// assert!(NodeImageVersion::parse("AKSUbuntu-latest").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NodeImageVersion {
    /// The image line (`AKSUbuntu-2204gen2containerd`), empty for a bare version.
    pub prefix: String,
    /// `YYYYMM` (year and month).
    pub year_month: u32,
    /// Day of the month.
    pub day: u32,
    /// The build of that day.
    pub build: u32,
}

impl NodeImageVersion {
    /// Parse `[<prefix>-]YYYYMM.DD.N`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let t = text.trim();
        let (prefix, version) = t.rsplit_once('-').unwrap_or(("", t));
        let bad = || format!("{text:?} is not an AKS node image version (…-YYYYMM.DD.N, e.g. 202606.08.1)");
        let parts: Vec<&str> = version.split('.').collect();
        let [ym, day, build] = parts[..] else { return Err(bad()) };
        if ym.len() != 6 || day.is_empty() || day.len() > 2 {
            return Err(bad());
        }
        let year_month: u32 = ym.parse().map_err(|_| bad())?;
        let day: u32 = day.parse().map_err(|_| bad())?;
        let build: u32 = build.parse().map_err(|_| bad())?;
        if !(1..=12).contains(&(year_month % 100)) || !(1..=31).contains(&day) {
            return Err(bad());
        }
        Ok(Self { prefix: prefix.to_owned(), year_month, day, build })
    }
}

impl Ord for NodeImageVersion {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.year_month, self.day, self.build).cmp(&(other.year_month, other.day, other.build))
    }
}

impl PartialOrd for NodeImageVersion {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for NodeImageVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.prefix.is_empty() {
            write!(f, "{}-", self.prefix)?;
        }
        write!(f, "{}.{:02}.{}", self.year_month, self.day, self.build)
    }
}

/// Which catalog fact a `source_conflict` rule is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConflictFact {
    /// `aks.supported` (values `["true"]` or `["false"]`).
    Supported,
    /// `aks.os_skus` (values: AKS OS SKU names).
    OsSkus,
    /// `driver` (one value: `cuda`, `grid`, `grid-v20` or `none`).
    Driver,
}

impl ConflictFact {
    /// The field name as `sizes/*.yaml` spells it.
    pub fn field(self) -> &'static str {
        match self {
            ConflictFact::Supported => "aks.supported",
            ConflictFact::OsSkus => "aks.os_skus",
            ConflictFact::Driver => "driver",
        }
    }
}

/// One side of a `source_conflict`: where it is said, what it says, and the value it implies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// `repo:path[@commit]` of the doc or code.
    pub source: String,
    /// What it says, in a few words.
    pub says: String,
    /// The value of the fact this side implies.
    pub value: Vec<String>,
}

/// Which side of a `source_conflict` the catalog follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    Docs,
    Code,
}

impl std::fmt::Display for Winner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Winner::Docs => "docs",
            Winner::Code => "code",
        })
    }
}

fn default_namespace() -> String {
    "Microsoft.ContainerService".to_owned()
}

/// Support level of a series on AKS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AksStatus {
    Supported,
    Preview,
    Unsupported,
}

impl RuleKind {
    /// Series names this rule refers to (for validation and `catalog show`).
    pub fn series(&self) -> &[String] {
        match self {
            RuleKind::UnsupportedSeries { series, .. }
            | RuleKind::SeriesOsDriver { series, .. }
            | RuleKind::SeriesStatus { series, .. }
            | RuleKind::SourceConflict { series, .. }
            | RuleKind::NodeImageFloor { series, .. } => series,
            _ => &[],
        }
    }

    /// Size names this rule refers to.
    pub fn sizes(&self) -> Vec<&str> {
        match self {
            RuleKind::MinRecommendedSize { size, .. } => vec![size.as_str()],
            _ => Vec::new(),
        }
    }

    /// For a `source_conflict` rule: the fact, the winning value and the losing value.
    pub fn conflict(&self) -> Option<(ConflictFact, &[String], &[String])> {
        match self {
            RuleKind::SourceConflict { fact, docs, code, winner, .. } => Some(match winner {
                Winner::Docs => (*fact, docs.value.as_slice(), code.value.as_slice()),
                Winner::Code => (*fact, code.value.as_slice(), docs.value.as_slice()),
            }),
            _ => None,
        }
    }

    /// GPU model ids this rule refers to.
    pub fn gpu_models(&self) -> &[String] {
        match self {
            RuleKind::Mig { gpu_models, .. } => gpu_models,
            _ => &[],
        }
    }
}

/// A parsed Kubernetes version `major.minor[.patch]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct KubeVersion {
    pub major: u32,
    pub minor: u32,
    pub patch: Option<u32>,
}

impl KubeVersion {
    /// Parse `1.30`, `v1.30.2`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let t = text.trim();
        let t = t.strip_prefix(['v', 'V']).unwrap_or(t);
        let mut parts = t.split('.');
        let bad = || format!("{text:?} is not a Kubernetes version; use MAJOR.MINOR such as 1.30");
        let major = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let minor = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let patch = match parts.next() {
            Some(p) => Some(p.parse().map_err(|_| bad())?),
            None => None,
        };
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok(Self { major, minor, patch })
    }

    /// Compare on major.minor only.
    pub fn minor_lt(&self, other: &KubeVersion) -> bool {
        (self.major, self.minor) < (other.major, other.minor)
    }
}

impl std::fmt::Display for KubeVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.patch {
            Some(p) => write!(f, "{}.{}.{}", self.major, self.minor, p),
            None => write!(f, "{}.{}", self.major, self.minor),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kube_versions_parse_and_compare() {
        let v = KubeVersion::parse("v1.28.5").expect("parses");
        assert_eq!((v.major, v.minor, v.patch), (1, 28, Some(5)));
        let min = KubeVersion::parse("1.29").expect("parses");
        assert!(v.minor_lt(&min));
        assert!(!KubeVersion::parse("1.29.0").expect("parses").minor_lt(&min));
        assert!(KubeVersion::parse("1").is_err());
        assert!(KubeVersion::parse("1.x").is_err());
        assert!(KubeVersion::parse("1.2.3.4").is_err());
    }

    #[test]
    fn node_image_versions_compare_by_date_then_build() {
        let v = |t: &str| NodeImageVersion::parse(t).expect(t);
        assert!(v("202606.08.1") > v("202606.08.0"));
        assert!(v("202606.08.1") < v("202606.09.0"));
        assert!(v("202606.08.1") < v("202607.01.0"));
        assert!(v("202512.31.9") < v("202601.01.0"));
        // The image line takes no part in the order; equal dates and builds are equal.
        assert_eq!(v("AKSUbuntu-2204gen2containerd-202606.08.1").cmp(&v("202606.08.1")), std::cmp::Ordering::Equal);
        assert_eq!(v("AzureLinux-V3gen2-202606.08.1").prefix, "AzureLinux-V3gen2");
        assert_eq!(
            v("AKSUbuntu-2204gen2containerd-202606.08.1").to_string(),
            "AKSUbuntu-2204gen2containerd-202606.08.1"
        );
        for bad in
            ["", "latest", "2026.06.08", "202613.01.0", "202606.32.0", "202606.08", "202606.08.1.2", "20260608.1"]
        {
            assert!(NodeImageVersion::parse(bad).is_err(), "{bad:?}");
        }
    }
}
