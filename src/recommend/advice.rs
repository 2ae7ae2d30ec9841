//! One line of advice when a cheaper precision would meet the same service: fp8 weights on a
//! GPU with FP8, int4 weights (AWQ/GPTQ), or an fp8 KV cache. The user's precision is never
//! changed: the advice is a second answer beside the first, with its quality trade-off and the
//! source of that trade-off.

use serde::Serialize;

use super::{Precision, Ranking, Requirements, Workload};
use crate::catalog::{Catalog, VmSize};
use crate::domain::setting::{Setting, Words};

/// The cheaper deployment another precision gives (`advice` in the JSON).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Advice {
    /// Weight precision of the cheaper deployment.
    pub precision: Precision,
    /// KV-cache precision, when the advice is about the cache.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_cache_precision: Option<Precision>,
    pub vm_size: String,
    pub nodes: u32,
    pub price_per_hour: f64,
    /// The price of the first answer, when there is one.
    pub instead_of_per_hour: Option<f64>,
    /// True when the request had serving targets (then the deployment meets them all).
    pub meets_targets: bool,
    /// What the cheaper precision costs in quality, and where that is measured.
    pub quality: &'static str,
    pub source: &'static str,
}

/// A precision to try: weights, KV cache, the trade-off and its source.
struct Choice {
    weights: Precision,
    kv: Option<Precision>,
    needs_fp8_gpu: bool,
    quality: &'static str,
    source: &'static str,
}

fn choices(req: &Requirements) -> Vec<Choice> {
    let bytes = req.precision.bytes();
    let mut out = Vec::new();
    if bytes > 1.0 {
        out.push(Choice {
            weights: Precision::Fp8,
            kv: req.serving.kv_cache_precision,
            needs_fp8_gpu: true,
            quality: "FP8 weights and activations (W8A8) recover about 99 % or more of the 16-bit accuracy",
            source: "Kurtic et al. 2024, \"Give Me BF16 or Give Me Death\": Accuracy-Performance Trade-Offs in LLM Quantization (arXiv:2411.02355)",
        });
    }
    if bytes > 0.5 {
        out.push(Choice {
            weights: Precision::Int4,
            kv: req.serving.kv_cache_precision,
            needs_fp8_gpu: false,
            quality: "4-bit weight-only AWQ/GPTQ loses a few points on hard tasks, more on small models than on 70B+",
            source:
                "Lin et al. 2024, AWQ (MLSys); Frantar et al. 2023, GPTQ (ICLR); Kurtic et al. 2024 (arXiv:2411.02355)",
        });
    }
    if req.serving.kv_cache_precision != Some(Precision::Fp8) && req.precision != Precision::Fp32 {
        out.push(Choice {
            weights: req.precision,
            kv: Some(Precision::Fp8),
            needs_fp8_gpu: true,
            quality: "an FP8 (E4M3) KV cache halves the cache with minimal accuracy loss",
            source: "vLLM docs, Quantization: FP8 E4M3 KV Cache",
        });
    }
    out
}

/// The cheapest deployment another precision gives that beats the first answer's price, if any.
pub fn advise(
    catalog: &Catalog,
    req: &Requirements,
    out: &Ranking,
    sizes: &[(&VmSize, Option<super::Price>)],
) -> Option<Advice> {
    if req.workload != Workload::Inference || req.model.is_none() || req.need.is_none() {
        return None;
    }
    let first = out.recommendations.first().and_then(|r| r.price_per_hour);
    if !out.recommendations.is_empty() && first.is_none() {
        return None;
    }
    let mut best: Option<Advice> = None;
    for o in choices(req) {
        let mut alt = req.clone();
        alt.precision = o.weights;
        alt.precision_explicit = true;
        alt.serving.kv_cache_precision = o.kv;
        alt.compute_need();
        let ceiling =
            [first.map(|f| f - 0.005), best.as_ref().map(|b| b.price_per_hour)].into_iter().flatten().reduce(f64::min);
        let fp8 = |s: &VmSize| !o.needs_fp8_gpu || catalog.gpu(&s.gpu_model).is_some_and(|g| g.fp8);
        let Some(r) = super::cheapest_below(catalog, &alt, sizes, ceiling, &fp8) else { continue };
        let Some(price) = r.price_per_hour else { continue };
        best = Some(Advice {
            precision: o.weights,
            kv_cache_precision: o.kv.filter(|_| o.weights == req.precision),
            vm_size: r.vm_size.clone(),
            nodes: r.fit.nodes,
            price_per_hour: price,
            instead_of_per_hour: first,
            meets_targets: req.serving.has_targets(),
            quality: o.quality,
            source: o.source,
        });
    }
    best
}

impl Advice {
    /// The advice in one line.
    pub fn line(&self, money: impl Fn(f64) -> String) -> Words {
        let (setting, value) = match self.kv_cache_precision {
            Some(k) => (Setting::KvCachePrecision, k.name()),
            None => (Setting::Precision, self.precision.name()),
        };
        let instead = self.instead_of_per_hour.map_or(String::new(), |p| format!(" instead of {}/h", money(p)));
        let text = format!(
            "cheaper precision: {{0}} {value} {} on {} × {} at {}/h{instead}; {} ({})",
            if self.meets_targets { "meets the same targets" } else { "serves the same model" },
            self.nodes,
            self.vm_size,
            money(self.price_per_hour),
            self.quality,
            self.source
        );
        Words::new(text, &[setting])
    }
}
