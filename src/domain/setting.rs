//! One id per setting.
//!
//! A setting the user gives (a flag, a GpuConfig key, a wizard answer) has one id here. The
//! pure layers name a setting only by this id; the front end words it for the surface that
//! was used: the CLI flag (`--location`, from [`Setting::long`]), the GpuConfig key
//! (`pools[0].recommend.gpuMemoryMin`, from [`Setting::file_key`]) or the wizard's question.

/// A setting an error can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    Workload,
    Model,
    ModelParams,
    Precision,
    GpuMemory,
    GpuMemoryMin,
    GpuMemoryMax,
    TotalGpuMemory,
    TotalGpuMemoryMin,
    TotalGpuMemoryMax,
    Gpus,
    GpusMin,
    GpusMax,
    GpuModel,
    Context,
    InputTokens,
    OutputTokens,
    KvCachePrecision,
    TensorParallel,
    PipelineParallel,
    ExpertParallel,
    VmSize,
    Os,
    KubernetesVersion,
    Location,
    Mig,
    Count,
    MinCount,
    MaxCount,
    Name,
    ResourceGroup,
    Cluster,
    Subscription,
    Auth,
    OsSku,
    GpuDriver,
    Labels,
    NodeTaints,
    Tags,
    MaxPods,
    MigProfile,
    MigProfiles,
    MigStrategy,
    ManagedGpu,
    Spot,
    SpotMaxPrice,
    EvictionPolicy,
    Zones,
    CapacityReservationGroup,
    Override,
    DriverMode,
    Pool,
    InstanceType,
    HfToken,
    Currency,
    MaxPricePerHour,
    MaxPricePerMonth,
    Concurrency,
    MinTokensPerSecond,
    MinTokensPerSecondPerUser,
    MaxTtft,
    DryRun,
    Family,
    IncludeRetired,
    IncludeUnpriced,
    IncludeUnsupported,
    InstallOperator,
    LabelPools,
    MaxAttempts,
    NoWait,
    Nodes,
    TimeSlicing,
    Timeout,
    Top,
    RegisterFeatures,
}

impl Setting {
    /// Every setting.
    pub const ALL: &'static [Setting] = &[
        Setting::Workload,
        Setting::Model,
        Setting::ModelParams,
        Setting::Precision,
        Setting::GpuMemory,
        Setting::GpuMemoryMin,
        Setting::GpuMemoryMax,
        Setting::TotalGpuMemory,
        Setting::TotalGpuMemoryMin,
        Setting::TotalGpuMemoryMax,
        Setting::Gpus,
        Setting::GpusMin,
        Setting::GpusMax,
        Setting::GpuModel,
        Setting::Context,
        Setting::InputTokens,
        Setting::OutputTokens,
        Setting::KvCachePrecision,
        Setting::TensorParallel,
        Setting::PipelineParallel,
        Setting::ExpertParallel,
        Setting::VmSize,
        Setting::Os,
        Setting::KubernetesVersion,
        Setting::Location,
        Setting::Mig,
        Setting::Count,
        Setting::MinCount,
        Setting::MaxCount,
        Setting::Name,
        Setting::ResourceGroup,
        Setting::Cluster,
        Setting::Subscription,
        Setting::Auth,
        Setting::OsSku,
        Setting::GpuDriver,
        Setting::Labels,
        Setting::NodeTaints,
        Setting::Tags,
        Setting::MaxPods,
        Setting::MigProfile,
        Setting::MigProfiles,
        Setting::MigStrategy,
        Setting::ManagedGpu,
        Setting::Spot,
        Setting::SpotMaxPrice,
        Setting::EvictionPolicy,
        Setting::Zones,
        Setting::CapacityReservationGroup,
        Setting::Override,
        Setting::DriverMode,
        Setting::Pool,
        Setting::InstanceType,
        Setting::HfToken,
        Setting::Currency,
        Setting::MaxPricePerHour,
        Setting::MaxPricePerMonth,
        Setting::Concurrency,
        Setting::MinTokensPerSecond,
        Setting::MinTokensPerSecondPerUser,
        Setting::MaxTtft,
        Setting::DryRun,
        Setting::Family,
        Setting::IncludeRetired,
        Setting::IncludeUnpriced,
        Setting::IncludeUnsupported,
        Setting::InstallOperator,
        Setting::LabelPools,
        Setting::MaxAttempts,
        Setting::NoWait,
        Setting::Nodes,
        Setting::TimeSlicing,
        Setting::Timeout,
        Setting::Top,
        Setting::RegisterFeatures,
    ];

    /// The canonical long name of the CLI argument, without its dashes (`gpu-memory-min`):
    /// the name clap declares in `cli.rs` (a test checks each one is a flag of the command
    /// that takes it). Only the front end turns it into flag text.
    pub fn long(self) -> &'static str {
        match self {
            Setting::Workload => "workload",
            Setting::Model => "model",
            Setting::ModelParams => "model-params",
            Setting::Precision => "precision",
            Setting::GpuMemory => "gpu-memory",
            Setting::GpuMemoryMin => "gpu-memory-min",
            Setting::GpuMemoryMax => "gpu-memory-max",
            Setting::TotalGpuMemory => "total-gpu-memory",
            Setting::TotalGpuMemoryMin => "total-gpu-memory-min",
            Setting::TotalGpuMemoryMax => "total-gpu-memory-max",
            Setting::Gpus => "gpus",
            Setting::GpusMin => "gpus-min",
            Setting::GpusMax => "gpus-max",
            Setting::GpuModel => "gpu-model",
            Setting::Context => "context",
            Setting::InputTokens => "input-tokens",
            Setting::OutputTokens => "output-tokens",
            Setting::KvCachePrecision => "kv-cache-precision",
            Setting::TensorParallel => "tensor-parallel",
            Setting::PipelineParallel => "pipeline-parallel",
            Setting::ExpertParallel => "expert-parallel",
            Setting::VmSize => "vm-size",
            Setting::Os => "os",
            Setting::KubernetesVersion => "kubernetes-version",
            Setting::Location => "location",
            Setting::Mig => "mig",
            Setting::Count => "count",
            Setting::MinCount => "min-count",
            Setting::MaxCount => "max-count",
            Setting::Name => "name",
            Setting::ResourceGroup => "resource-group",
            Setting::Cluster => "cluster",
            Setting::Subscription => "subscription",
            Setting::Auth => "auth",
            Setting::OsSku => "os-sku",
            Setting::GpuDriver => "gpu-driver",
            Setting::Labels => "labels",
            Setting::NodeTaints => "node-taints",
            Setting::Tags => "tags",
            Setting::MaxPods => "max-pods",
            Setting::MigProfile => "mig-profile",
            Setting::MigProfiles => "mig-profiles",
            Setting::MigStrategy => "gpu-mig-strategy",
            Setting::ManagedGpu => "managed-gpu",
            Setting::Spot => "spot",
            Setting::SpotMaxPrice => "spot-max-price",
            Setting::EvictionPolicy => "eviction-policy",
            Setting::Zones => "zones",
            Setting::CapacityReservationGroup => "capacity-reservation-group",
            Setting::Override => "override",
            Setting::DriverMode => "driver-mode",
            Setting::Pool => "pool",
            Setting::InstanceType => "instance-type",
            Setting::HfToken => "hf-token",
            Setting::Currency => "currency",
            Setting::MaxPricePerHour => "max-price-per-hour",
            Setting::MaxPricePerMonth => "max-price-per-month",
            Setting::Concurrency => "concurrency",
            Setting::MinTokensPerSecond => "min-tokens-per-second",
            Setting::MinTokensPerSecondPerUser => "min-tokens-per-second-per-user",
            Setting::MaxTtft => "max-ttft",
            Setting::DryRun => "dry-run",
            Setting::Family => "family",
            Setting::IncludeRetired => "include-retired",
            Setting::IncludeUnpriced => "include-unpriced",
            Setting::IncludeUnsupported => "include-unsupported",
            Setting::InstallOperator => "install-operator",
            Setting::LabelPools => "label-pools",
            Setting::MaxAttempts => "max-attempts",
            Setting::NoWait => "no-wait",
            Setting::Nodes => "nodes",
            Setting::TimeSlicing => "time-slicing",
            Setting::Timeout => "timeout",
            Setting::Top => "top",
            Setting::RegisterFeatures => "register-features",
        }
    }

    /// The key of a GpuConfig file that holds the setting: relative to the pool
    /// (`recommend.gpuMemoryMin`, `os`), or from the top of the file for what is not a pool's
    /// (`cluster.name`, `overrides`: see [`Setting::is_file_level`]); none for a setting a file
    /// cannot give. Those are, in the order of the last arm's groups:
    /// - `recommend`'s own filters on the ranking (`--gpus`, `--gpu-memory-max`, `--top`, …),
    ///   which `create-pool --recommend` does not take either: a pool's `recommend:` asks what
    ///   `create-pool --recommend` asks;
    /// - the location: the cluster's, read from Azure (`create-pool --location` only saves that
    ///   read);
    /// - a run's settings, on `apply`'s command line as on `create-pool`'s (`apply --currency`
    ///   is the currency the run prices in, and `maxPricePerHour` is in);
    /// - the Hugging Face token: a secret, read from `$HF_TOKEN`, never written into a file;
    /// - other commands' flags, which the file says its own way where it can: `operator:`
    ///   (`--install-operator`, `--time-slicing`), `features:` (`--register-features`),
    ///   `fallbackVmSizes` (`--max-attempts`), and `apply` always waits (`--no-wait`); the rest
    ///   are `install-operator`'s, `quota`'s and `kaito workspace`'s.
    pub fn file_key(self) -> Option<&'static str> {
        Some(match self {
            Setting::VmSize => "vmSize",
            Setting::ResourceGroup => "cluster.resourceGroup",
            Setting::Cluster => "cluster.name",
            Setting::Override => "overrides",
            Setting::Workload => "recommend.workload",
            Setting::Model => "recommend.model",
            Setting::ModelParams => "recommend.modelParams",
            Setting::Precision => "recommend.precision",
            Setting::GpuMemoryMin => "recommend.gpuMemoryMin",
            Setting::GpuModel => "recommend.gpuModel",
            Setting::Context => "recommend.context",
            Setting::InputTokens => "recommend.inputTokens",
            Setting::OutputTokens => "recommend.outputTokens",
            Setting::KvCachePrecision => "recommend.kvCachePrecision",
            Setting::TensorParallel => "recommend.tensorParallel",
            Setting::PipelineParallel => "recommend.pipelineParallel",
            Setting::ExpertParallel => "recommend.expertParallel",
            Setting::Os => "os",
            Setting::KubernetesVersion => "kubernetesVersion",
            Setting::Mig => "migProfile",
            Setting::Count => "count",
            Setting::MinCount => "minCount",
            Setting::MaxCount => "maxCount",
            Setting::Name => "name",
            Setting::OsSku => "osSku",
            Setting::GpuDriver => "gpuDriver",
            Setting::Labels => "labels",
            Setting::NodeTaints => "taints",
            Setting::Tags => "tags",
            Setting::MaxPods => "maxPods",
            Setting::MigProfile => "migProfile",
            Setting::MigProfiles => "migProfiles",
            Setting::MigStrategy => "migStrategy",
            Setting::ManagedGpu => "managedGpu",
            Setting::Spot => "spot",
            Setting::SpotMaxPrice => "spotMaxPrice",
            Setting::EvictionPolicy => "evictionPolicy",
            Setting::Zones => "zones",
            Setting::CapacityReservationGroup => "capacityReservationGroup",
            Setting::MaxPricePerHour => "recommend.maxPricePerHour",
            Setting::MaxPricePerMonth => "recommend.maxPricePerMonth",
            Setting::Concurrency => "recommend.concurrency",
            Setting::MinTokensPerSecond => "recommend.minTokensPerSecond",
            Setting::MinTokensPerSecondPerUser => "recommend.minTokensPerSecondPerUser",
            Setting::MaxTtft => "recommend.maxTtft",
            Setting::GpuMemory // `recommend`'s own filters
            | Setting::GpuMemoryMax
            | Setting::TotalGpuMemory
            | Setting::TotalGpuMemoryMin
            | Setting::TotalGpuMemoryMax
            | Setting::Gpus
            | Setting::GpusMin
            | Setting::GpusMax
            | Setting::IncludeRetired
            | Setting::IncludeUnpriced
            | Setting::IncludeUnsupported
            | Setting::Top
            | Setting::Location // the cluster's
            | Setting::Subscription // a run's settings
            | Setting::Auth
            | Setting::Currency
            | Setting::DryRun
            | Setting::Timeout
            | Setting::HfToken // a secret
            | Setting::InstallOperator // other commands' flags
            | Setting::TimeSlicing
            | Setting::MaxAttempts
            | Setting::NoWait
            | Setting::DriverMode
            | Setting::Pool
            | Setting::LabelPools
            | Setting::Family
            | Setting::Nodes
            | Setting::InstanceType
            | Setting::RegisterFeatures => return None,
        })
    }
}

impl Setting {
    /// True for a setting whose GpuConfig key is from the top of the file, not under a pool.
    pub fn is_file_level(self) -> bool {
        matches!(self, Setting::ResourceGroup | Setting::Cluster | Setting::Override)
    }

    /// The GpuConfig key of the setting in the pool at `at` (`pools[1]`): `pools[1].vmSize`,
    /// or the file-level key (`cluster.name`); none for a setting a file cannot give.
    pub fn file_path(self, at: &str) -> Option<String> {
        let key = self.file_key()?;
        Some(if self.is_file_level() { key.to_owned() } else { format!("{at}.{key}") })
    }
}

/// A refused setting: the settings it names and the words, with `{0}`, `{1}`… where each
/// front end names `settings[0]`, `settings[1]`… (a flag, a file's key). It has no `Display`
/// of its own: only a front end knows how to name a setting.
#[derive(Debug, Clone, PartialEq)]
pub struct SettingError {
    /// The settings the words name, the first the one to fix.
    pub settings: Vec<Setting>,
    /// The message, with `{i}` for `settings[i]`.
    pub message: String,
    /// The fix, with `{i}` for `settings[i]`.
    pub hint: Option<String>,
    /// The catalog rule the refusal rests on, `(id, source)`, when an override lifts it: each
    /// front end says how to give the override (a flag, a file's `overrides:`).
    pub rule: Option<(String, String)>,
}

impl SettingError {
    /// The message and hint with each setting named by `name`.
    pub fn render(
        &self,
        name: impl Fn(Setting) -> String,
        flag: impl Fn(Setting) -> String,
    ) -> (String, Option<String>) {
        let fill = |text: &str| fill(text, &self.settings, &name, &flag);
        (fill(&self.message), self.hint.as_deref().map(fill))
    }
}

/// `text` with each `{i:flag}` replaced by `flag(settings[i])` (a setting inside an aksgpu
/// command line, which names it by its flag on every surface), each `{i:none}` by the setting
/// given no value (`name(settings[i])` then `''`, unless the surface wrote it in with
/// [`Words::name_none`]) and each `{i}` by `name(settings[i])` (the surface's own name for it).
///
/// One pass over the text: each slot is named as it is met, and a name is written in as it
/// is (a slot-like text inside a name is not filled again).
fn fill(
    text: &str,
    settings: &[Setting],
    name: &impl Fn(Setting) -> String,
    flag: &impl Fn(Setting) -> String,
) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let Some((s, form, len)) = slot(rest).and_then(|(i, form, len)| Some((*settings.get(i)?, form, len))) else {
            out.push('{');
            rest = &rest[1..];
            continue;
        };
        match form {
            ":flag" => out.push_str(&flag(s)),
            ":none" => {
                out.push_str(&name(s));
                out.push_str(" ''");
            }
            _ => out.push_str(&name(s)),
        }
        rest = &rest[len..];
    }
    out.push_str(rest);
    out
}

/// The slot `text` starts with, `{i}`, `{i:flag}` or `{i:none}` (`i` a number without
/// leading zeros): its index, its form and its length in bytes.
fn slot(text: &str) -> Option<(usize, &'static str, usize)> {
    let body = text.strip_prefix('{')?;
    let digits = body.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || (digits > 1 && body.starts_with('0')) {
        return None;
    }
    let i = body[..digits].parse().ok()?;
    let after = &body[digits..];
    let form = FORMS.iter().find(|f| after.strip_prefix(**f).is_some_and(|r| r.starts_with('}')))?;
    Some((i, form, 1 + digits + form.len() + 1))
}

/// The forms of a slot: `{i}`, `{i:flag}`, `{i:none}`.
const FORMS: [&str; 3] = ["", ":flag", ":none"];

/// Text for the user that names settings (a note, a hint, a warning): `{0}`, `{1}`… where
/// each front end names `settings[0]`, `settings[1]`… Like [`SettingError`] it has no
/// `Display`: the front end renders it with [`Words::render`] for the surface that was used
/// (`crate::error::flag_text` for the CLI, a file's key for GpuConfig). A setting inside an
/// aksgpu command line the text suggests is `{i:flag}`: a command is typed, so it names the
/// flag whatever surface the user came from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Words {
    /// The text, with `{i}` for `settings[i]`.
    pub text: String,
    /// The settings the text names.
    pub settings: Vec<Setting>,
}

impl Words {
    /// Text naming `settings` at `{0}`, `{1}`…
    pub fn new(text: impl Into<String>, settings: &[Setting]) -> Self {
        Words { text: text.into(), settings: settings.to_vec() }
    }

    /// Text that names no setting.
    pub fn plain(text: impl Into<String>) -> Self {
        Words { text: text.into(), settings: Vec::new() }
    }

    /// The text with each setting named by `name`, and by `flag` inside a command line
    /// (`{i:flag}`).
    pub fn render(&self, name: impl Fn(Setting) -> String, flag: impl Fn(Setting) -> String) -> String {
        fill(&self.text, &self.settings, &name, &flag)
    }

    /// The words with each setting that `name` names written in (a GpuConfig key, say) and
    /// the others kept as slots for the front end to word.
    pub fn name_some(&self, name: impl Fn(Setting) -> Option<String>) -> Words {
        self.write_in("", name)
    }

    /// The words with each setting given no value (`{i:none}`) that `name` words written in
    /// (a GpuConfig's `` `taints: []` ``), the others kept as slots.
    pub fn name_none(&self, name: impl Fn(Setting) -> Option<String>) -> Words {
        self.write_in(":none", name)
    }

    /// Each `{i<form>}` slot whose setting `name` words written in; every setting is kept, so
    /// the other slots keep their numbers.
    fn write_in(&self, form: &str, name: impl Fn(Setting) -> Option<String>) -> Words {
        let text = self.settings.iter().enumerate().fold(self.text.clone(), |t, (i, s)| match name(*s) {
            Some(n) => t.replace(&format!("{{{i}{form}}}"), &n),
            None => t,
        });
        Words { text, settings: self.settings.clone() }
    }

    /// True when the text names no setting.
    pub fn is_plain(&self) -> bool {
        self.settings.is_empty()
    }

    /// These words followed by `more` (`"; "` between them), each keeping its settings.
    pub fn then(self, sep: &str, more: Words) -> Words {
        let shift = self.settings.len();
        let text = more.settings.iter().enumerate().rev().fold(more.text, |t, (i, _)| {
            FORMS.iter().fold(t, |t, f| t.replace(&format!("{{{i}{f}}}"), &format!("{{{}{f}}}", i + shift)))
        });
        let mut settings = self.settings;
        settings.extend(more.settings);
        Words { text: format!("{}{sep}{text}", self.text), settings }
    }
}

impl Words {
    /// The parts one after the other, `sep` between them, each keeping its settings.
    pub fn join(parts: &[Words], sep: &str) -> Words {
        let mut iter = parts.iter().cloned();
        let first = iter.next().unwrap_or_default();
        iter.fold(first, |all, w| all.then(sep, w))
    }
}

impl From<String> for Words {
    fn from(text: String) -> Self {
        Words::plain(text)
    }
}

impl From<&str> for Words {
    fn from(text: &str) -> Self {
        Words::plain(text)
    }
}

impl From<&Words> for Words {
    fn from(w: &Words) -> Self {
        w.clone()
    }
}

impl From<&String> for Words {
    fn from(text: &String) -> Self {
        Words::plain(text.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_setting_has_one_distinct_long_name() {
        let mut names: Vec<_> = Setting::ALL.iter().map(|s| s.long()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Setting::ALL.len());
        assert!(names.iter().all(|n| !n.starts_with('-') && !n.is_empty()));
    }

    #[test]
    fn words_name_each_setting_where_the_text_says() {
        let w = Words::new("{0} to change; {1} is {0}'s partner", &[Setting::Context, Setting::Model]);
        let flag = |s: Setting| format!("--{}", s.long());
        assert_eq!(w.render(flag, flag), "--context to change; --model is --context's partner");
        assert_eq!(Words::plain("no {0} here").render(|_| "x".into(), flag), "no {0} here");
        let cmd = Words::new("set {0}: `aksgpu pool scale {0:flag} 0`", &[Setting::MinCount]);
        assert_eq!(cmd.render(|_| "minCount".into(), flag), "set minCount: `aksgpu pool scale --min-count 0`");
    }

    #[test]
    fn then_keeps_each_part_naming_its_own_settings() {
        let a = Words::new("{0} is set", &[Setting::Context]);
        let b = Words::new("lower {0} or drop {1} (`x {0:flag}`)", &[Setting::Model, Setting::Top]);
        let both = a.then("; ", b);
        let out = both.render(|s| format!("<{}>", s.long()), |s| format!("--{}", s.long()));
        assert_eq!(out, "<context> is set; lower <model> or drop <top> (`x --model`)");
    }

    #[test]
    fn join_keeps_each_part_naming_its_own_settings() {
        let parts = [Words::new("{0} a", &[Setting::Top]), Words::plain("b"), Words::new("c {0}", &[Setting::Os])];
        let out = Words::join(&parts, "; ").render(|s| s.long().to_owned(), |s| s.long().to_owned());
        assert_eq!(out, "top a; b; c os");
        assert_eq!(Words::join(&[], "; "), Words::default());
    }

    #[test]
    fn a_surface_writes_in_the_names_it_has_and_leaves_the_rest() {
        let w = Words::new(
            "{0} to change, {0:none} for none; see {1} (`aksgpu x {0:flag}`)",
            &[Setting::NodeTaints, Setting::Top],
        );
        let flag = |s: Setting| format!("--{}", s.long());
        assert_eq!(
            w.render(flag, flag),
            "--node-taints to change, --node-taints '' for none; see --top (`aksgpu x --node-taints`)"
        );
        let file =
            w.name_none(|s| s.file_key().map(|k| format!("`{k}: []`"))).name_some(|s| s.file_key().map(str::to_owned));
        assert_eq!(
            file.render(flag, flag),
            "taints to change, `taints: []` for none; see --top (`aksgpu x --node-taints`)"
        );
        let shifted = Words::plain("a").then(" ", w.clone());
        assert_eq!(shifted.render(flag, flag), format!("a {}", w.render(flag, flag)));
        assert_eq!(Setting::MinCount.file_path("pools[1]").as_deref(), Some("pools[1].minCount"));
        assert_eq!(Setting::Cluster.file_path("pools[1]").as_deref(), Some("cluster.name"));
        assert_eq!(Setting::Location.file_path("pools[1]"), None);
    }

    #[test]
    fn render_fills_each_slot_with_its_setting() {
        let e = SettingError {
            settings: vec![Setting::Context, Setting::Model],
            message: "{0} 9000 is longer than {1} allows".into(),
            hint: Some("lower {0}".into()),
            rule: None,
        };
        let (m, h) = e.render(|s| format!("<{}>", s.long()), |s| s.long().to_owned());
        assert_eq!(m, "<context> 9000 is longer than <model> allows");
        assert_eq!(h.as_deref(), Some("lower <context>"));
    }

    /// Slots are named in one pass: a name is written in as it is, never read again for slots;
    /// braces that are no slot of these settings (an index past them, a leading zero, another
    /// form, `{{`) stay as they are.
    #[test]
    fn a_name_is_written_in_as_it_is() {
        let w = Words::new("{0} then {1}", &[Setting::Context, Setting::Model]);
        let name = |s: Setting| if s == Setting::Context { "{1}".to_owned() } else { "--model".to_owned() };
        assert_eq!(w.render(name, name), "{1} then --model");
        let odd = Words::new("{{0}} {00} {2} {0:other} {0:none}{0:flag}{ {0", &[Setting::Top, Setting::Os]);
        let flag = |s: Setting| format!("--{}", s.long());
        assert_eq!(odd.render(flag, flag), "{--top} {00} {2} {0:other} --top ''--top{ {0");
    }
}
