//! Which precision a model runs in and how big its weights are: one pure resolution shared by
//! `recommend` and `kaito workspace`.
//!
//! A catalog model runs in the format it is published in unless `--precision` says otherwise,
//! and then its weights are the real checkpoint on disk (gpt-oss: MXFP4 experts with BF16
//! attention, 60.8 GiB for 120b, not 117B × anything). Any other precision is sized as
//! parameters × bytes per weight: a quantisation of the published weights, or an upcast.

use super::estimate::Weights;
use super::{ModelSpec, Workload};
use crate::catalog::NativeDtype;
use crate::domain::Precision;

/// A resolved precision with the weights it implies and notes on how it was chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolution {
    pub precision: Precision,
    /// True when `--precision` chose it.
    pub explicit: bool,
    /// The weights to hold, when there is a model.
    pub weights: Option<Weights>,
    pub notes: Vec<String>,
}

/// A precision that cannot be used for the workload: the words name the precision setting
/// as `{0}` and the workload setting as `{1}`, for each front end to name (a flag, a file's key).
#[derive(Debug, Clone, PartialEq)]
pub struct PrecisionError {
    pub message: String,
    pub hint: String,
}

/// The precision a model is published in.
pub fn native_precision(d: NativeDtype) -> Precision {
    match d {
        NativeDtype::Bf16 => Precision::Bf16,
        NativeDtype::Fp16 => Precision::Fp16,
        NativeDtype::Fp32 => Precision::Fp32,
        NativeDtype::Fp8 => Precision::Fp8,
        NativeDtype::Mxfp4 => Precision::Mxfp4,
        NativeDtype::Int8 => Precision::Int8,
        NativeDtype::Int4 => Precision::Int4,
    }
}

/// Resolve the precision for `spec` (the requested one, else the published format, else bf16)
/// and size its weights.
pub fn resolve(
    spec: Option<&ModelSpec>,
    requested: Option<Precision>,
    workload: Workload,
) -> Result<Resolution, PrecisionError> {
    let native = spec.and_then(|s| s.native).map(native_precision);
    // Training starts from 16-bit weights: a quantised checkpoint is dequantised first (the
    // gpt-oss fine-tuning recipe loads it with Transformers' `Mxfp4Config(dequantize=True)`).
    let trains = matches!(workload, Workload::Training | Workload::FineTuning);
    let dequantise = trains
        && matches!(
            native,
            Some(Precision::Mxfp4 | Precision::Nvfp4 | Precision::Fp8 | Precision::Int8 | Precision::Int4)
        );
    let default = if dequantise { Some(Precision::Bf16) } else { native };
    let precision = requested.or(default).unwrap_or(Precision::Bf16);
    if workload == Workload::Training
        && matches!(precision, Precision::Int8 | Precision::Int4 | Precision::Mxfp4 | Precision::Nvfp4)
    {
        return Err(PrecisionError {
            message: format!("{{0}} {} cannot be used for full training", precision.name()),
            hint: "train in bf16/fp16/fp32, or use {1} fine-tuning for LoRA/QLoRA on quantised weights".into(),
        });
    }
    let Some(spec) = spec else {
        return Ok(Resolution { precision, explicit: requested.is_some(), weights: None, notes: Vec::new() });
    };
    let weights = weights_for(spec, precision);
    let mut notes = Vec::new();
    if requested.is_none() && dequantise {
        notes.push(format!(
            "precision: bf16 for {}: the published {} weights are dequantised to train ({})",
            workload.name(),
            spec.native.map_or("", NativeDtype::name),
            weights.formula
        ));
    } else if requested.is_none() {
        if let (Some(d), Some(ck)) = (spec.native, spec.checkpoint_gib) {
            if d != NativeDtype::Bf16 {
                notes.push(format!("precision: {} (the model's published weights, a {ck} GiB checkpoint)", d.name()));
            }
        }
    } else if let (Some(n), Some(ck)) = (native, spec.checkpoint_gib) {
        if !same_size(n, precision) {
            let how = if precision.bytes() > n.bytes() { "upcast from" } else { "quantised from" };
            notes.push(format!(
                "{} weights sized as {}; {how} the published {} checkpoint ({ck} GiB)",
                precision.name(),
                weights.formula,
                n.name()
            ));
        }
    }
    Ok(Resolution { precision, explicit: requested.is_some(), weights: Some(weights), notes })
}

/// The weights of `spec` held in `precision`: the published checkpoint when it is already in
/// that format, otherwise parameters × bytes per weight.
pub fn weights_for(spec: &ModelSpec, precision: Precision) -> Weights {
    match (spec.native.map(native_precision), spec.checkpoint_gib) {
        (Some(n), Some(ck)) if same_size(n, precision) => Weights {
            gib: ck,
            precision,
            formula: format!("{ck} GiB {} checkpoint", spec.native.map_or("", NativeDtype::name)),
        },
        _ => Weights {
            gib: spec.params_b * 1e9 * precision.bytes() / (1024.0 * 1024.0 * 1024.0),
            precision,
            formula: format!("{}e9 params × {} B", spec.params_b, precision.bytes()),
        },
    }
}

/// bf16 and fp16 weights take the same bytes: a bf16 checkpoint served as fp16 keeps its size.
fn same_size(a: Precision, b: Precision) -> bool {
    a == b || (a.bytes() == 2.0 && b.bytes() == 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recommend::estimate::Arch;

    fn gpt_oss_120b() -> ModelSpec {
        ModelSpec {
            id: Some("openai/gpt-oss-120b".into()),
            params_b: 117.0,
            arch: Arch::full_attention(36, 2880, 64, 8, 64),
            arch_from: "openai/gpt-oss-120b".into(),
            max_context: Some(131_072),
            native: Some(NativeDtype::Mxfp4),
            checkpoint_gib: Some(60.8),
            moe: true,
            active_params_b: Some(5.1),
            experts: Some((128, 4)),
            fp16_unstable: false,
        }
    }

    #[test]
    fn published_format_and_real_checkpoint_by_default() {
        let r = resolve(Some(&gpt_oss_120b()), None, Workload::Inference).expect("ok");
        assert_eq!(r.precision, Precision::Mxfp4);
        assert!(!r.explicit);
        assert_eq!(r.weights.as_ref().map_or(0.0, |w| w.gib), 60.8);
        assert!(r.notes[0].contains("mxfp4") && r.notes[0].contains("60.8 GiB"), "{:?}", r.notes);
    }

    #[test]
    fn other_precisions_are_params_times_bytes_and_say_so() {
        let r = resolve(Some(&gpt_oss_120b()), Some(Precision::Bf16), Workload::Inference).expect("ok");
        // 117e9 × 2 B = 217.93 GiB: the upcast weights.
        assert!(
            (r.weights.as_ref().map_or(0.0, |w| w.gib) - 217.929).abs() < 0.01,
            "{}",
            r.weights.as_ref().map_or(0.0, |w| w.gib)
        );
        assert!(r.notes[0].contains("upcast"), "{:?}", r.notes);
        let mut llama = gpt_oss_120b();
        llama.native = Some(NativeDtype::Bf16);
        llama.checkpoint_gib = Some(14.96);
        llama.params_b = 8.03;
        // fp16 keeps the bf16 checkpoint's size; int4 is a quantisation.
        assert_eq!(
            resolve(Some(&llama), Some(Precision::Fp16), Workload::Inference).expect("ok").weights.map(|w| w.gib),
            Some(14.96)
        );
        let q = resolve(Some(&llama), Some(Precision::Int4), Workload::Inference).expect("ok");
        assert!(q.notes[0].contains("quantised from"), "{:?}", q.notes);
        assert!(resolve(Some(&llama), None, Workload::Inference).expect("ok").notes.is_empty());
    }

    #[test]
    fn quantised_full_training_is_refused_and_quantised_checkpoints_train_in_bf16() {
        let e = resolve(Some(&gpt_oss_120b()), Some(Precision::Mxfp4), Workload::Training).expect_err("mxfp4");
        assert!(e.message.contains("mxfp4") && e.hint.contains("fine-tuning"));
        for w in [Workload::Training, Workload::FineTuning] {
            let r = resolve(Some(&gpt_oss_120b()), None, w).expect("bf16");
            assert_eq!(r.precision, Precision::Bf16);
            assert!(r.notes[0].contains("dequantised"), "{:?}", r.notes);
        }
    }

    #[test]
    fn parameter_count_only_is_bf16_params_times_two() {
        let spec = ModelSpec { native: None, checkpoint_gib: None, params_b: 7.0, ..gpt_oss_120b() };
        let r = resolve(Some(&spec), None, Workload::Inference).expect("ok");
        assert_eq!(r.precision, Precision::Bf16);
        assert!((r.weights.as_ref().map_or(0.0, |w| w.gib) - 13.039).abs() < 0.01);
    }
}
