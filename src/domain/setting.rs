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
    VmSize,
    Os,
    KubernetesVersion,
    Location,
    Mig,
    Count,
    MinCount,
    MaxCount,
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
        Setting::VmSize,
        Setting::Os,
        Setting::KubernetesVersion,
        Setting::Location,
        Setting::Mig,
        Setting::Count,
        Setting::MinCount,
        Setting::MaxCount,
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
            Setting::VmSize => "vm-size",
            Setting::Os => "os",
            Setting::KubernetesVersion => "kubernetes-version",
            Setting::Location => "location",
            Setting::Mig => "mig",
            Setting::Count => "count",
            Setting::MinCount => "min-count",
            Setting::MaxCount => "max-count",
        }
    }

    /// The key of a GpuConfig pool that holds the setting, relative to the pool
    /// (`recommend.gpuMemoryMin`, `os`); none for a setting a file cannot give.
    pub fn file_key(self) -> Option<&'static str> {
        Some(match self {
            Setting::Workload => "recommend.workload",
            Setting::Model => "recommend.model",
            Setting::Precision => "recommend.precision",
            Setting::GpuMemoryMin => "recommend.gpuMemoryMin",
            Setting::GpuModel => "recommend.gpuModel",
            Setting::InputTokens => "recommend.inputTokens",
            Setting::OutputTokens => "recommend.outputTokens",
            Setting::KvCachePrecision => "recommend.kvCachePrecision",
            Setting::TensorParallel => "recommend.tensorParallel",
            Setting::PipelineParallel => "recommend.pipelineParallel",
            Setting::Os => "os",
            Setting::KubernetesVersion => "kubernetesVersion",
            Setting::Mig => "migProfile",
            Setting::Count => "count",
            Setting::MinCount => "minCount",
            Setting::MaxCount => "maxCount",
            Setting::ModelParams
            | Setting::GpuMemory
            | Setting::GpuMemoryMax
            | Setting::TotalGpuMemory
            | Setting::TotalGpuMemoryMin
            | Setting::TotalGpuMemoryMax
            | Setting::Gpus
            | Setting::GpusMin
            | Setting::GpusMax
            | Setting::Context
            | Setting::VmSize
            | Setting::Location => return None,
        })
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
    pub fn render(&self, name: impl Fn(Setting) -> String) -> (String, Option<String>) {
        let fill = |text: &str| {
            self.settings
                .iter()
                .enumerate()
                .fold(text.to_owned(), |t, (i, s)| t.replace(&format!("{{{i}}}"), &name(*s)))
        };
        (fill(&self.message), self.hint.as_deref().map(fill))
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
    fn render_fills_each_slot_with_its_setting() {
        let e = SettingError {
            settings: vec![Setting::Context, Setting::Model],
            message: "{0} 9000 is longer than {1} allows".into(),
            hint: Some("lower {0}".into()),
            rule: None,
        };
        let (m, h) = e.render(|s| format!("<{}>", s.long()));
        assert_eq!(m, "<context> 9000 is longer than <model> allows");
        assert_eq!(h.as_deref(), Some("lower <context>"));
    }
}
