//! The serving estimates of `recommend`, checked against figures that others measured and
//! published (tests/data/published-serving.yaml; fields in tests/data/published-serving.md).
//!
//! Every row runs the real binary as a user would: `aksgpu recommend --vm-size SIZE --model M
//! --precision P --tensor-parallel T --pipeline-parallel P --input-tokens I --output-tokens O
//! [--concurrency C] -o json` (`--expert-parallel E` instead of `--tensor-parallel` for a row
//! measured with attention data parallel + expert parallel, TensorRT-LLM's DEP), on the whole
//! Azure size the row was measured on (or the size that
//! carries its GPU). A row measured on part of a node is evaluated as the node running as many
//! copies of that split as fit, the concurrency multiplied by the copies, and aggregate
//! figures divided back by the copies.
//!
//! The efficiency factors live in catalog/serving-factors.yaml, one set per GPU architecture
//! and compute precision. `fit_serving_factors` (ignored; scripts/fit-serving-factors.sh runs
//! it) searches them once against these rows and prints the result.

use std::path::Path;

use serde::Deserialize;

use crate::support::aksgpu_env;

#[derive(Debug, Clone, Deserialize)]
struct Row {
    id: String,
    source_family: String,
    model: String,
    weights: String,
    kv_cache: String,
    gpu: String,
    gpus: u32,
    azure_size: Option<String>,
    tensor_parallel: Option<u32>,
    pipeline_parallel: Option<u32>,
    /// Attention data parallel + expert parallel over this many GPUs (DEP), where measured so.
    expert_parallel: Option<u32>,
    concurrency: Option<u64>,
    input_tokens: u64,
    output_tokens: u64,
    metric: String,
    value: f64,
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/published-serving.yaml"))
        .expect("tests/data/published-serving.yaml");
    serde_yaml_ng::from_str(&text).expect("rows parse")
}

/// The Azure size a row runs on: the one it was measured on, else the size that carries its GPU
/// (the largest, so that every split fits as copies).
fn size_for(row: &Row) -> &str {
    if let Some(s) = &row.azure_size {
        return s;
    }
    match row.gpu.as_str() {
        "H100-80GB" => "Standard_ND96isr_H100_v5",
        "H200" => "Standard_ND96isr_H200_v5",
        "A100-80GB" => "Standard_ND96amsr_A100_v4",
        "GB200" => "Standard_ND128isr_NDR_GB200_v6",
        "MI300X" => "Standard_ND96isr_MI300X_v5",
        "RTX-PRO-6000-BSE" => "Standard_NC288ds_xl_RTXPRO6000BSE_v6",
        // The NC sizes most AKS inference runs on (catalog/sizes/nc.yaml).
        "A100-80GB-PCIe" => "Standard_NC96ads_A100_v4",
        "H100-NVL" => "Standard_NC80adis_H100_v5",
        // Two whole A10s; the NVads A10 v5 series has a Microsoft size page, NCads A10 v4 none.
        "A10" => "Standard_NV72ads_A10_v5",
        "T4" => "Standard_NC64as_T4_v3",
        other => panic!("no Azure size for GPU {other}"),
    }
}

/// GPUs of each size above (from catalog/sizes).
fn gpus_of(size: &str) -> u32 {
    match size {
        "Standard_ND128isr_NDR_GB200_v6" => 4,
        "Standard_NC288ds_xl_RTXPRO6000BSE_v6" => 2,
        "Standard_NC144ds_xl_RTXPRO6000BSE_v6" => 1,
        "Standard_NC96ads_A100_v4" | "Standard_NC64as_T4_v3" => 4,
        "Standard_NC80adis_H100_v5" | "Standard_NC32ads_A10_v4" | "Standard_NV72ads_A10_v5" => 2,
        "Standard_NC24ads_A100_v4" | "Standard_NC40ads_H100_v5" | "Standard_NC16ads_A10_v4" => 1,
        "Standard_NV36ads_A10_v5" => 1,
        "Standard_NC4as_T4_v3" | "Standard_NC8as_T4_v3" | "Standard_NC16as_T4_v3" => 1,
        _ => 8,
    }
}

/// The estimate for `row`, running the binary with `env` (a catalog override when fitting).
fn estimate(row: &Row, env: &[(&str, &Path)]) -> Result<f64, String> {
    estimate_in(row, env).map(|(v, _)| v)
}

/// The estimate for `row` and the calibration class the binary puts it in (`serving.class`).
fn estimate_in(row: &Row, env: &[(&str, &Path)]) -> Result<(f64, String), String> {
    let size = size_for(row);
    let copies = (gpus_of(size) / row.gpus.max(1)).max(1);
    let tp = row.tensor_parallel.unwrap_or(row.gpus / row.pipeline_parallel.unwrap_or(1)).max(1);
    let pp = row.pipeline_parallel.unwrap_or(1).max(1);
    // The rows' `fp4` is the checkpoint's 4-bit format: MXFP4 experts for gpt-oss (OpenAI's
    // checkpoints), NVFP4 (4-bit values, an FP8 scale per 16) for NVIDIA's ModelOpt ones.
    let precision = match row.weights.as_str() {
        "fp4" if row.model.starts_with("openai/gpt-oss") => "mxfp4",
        "fp4" => "nvfp4",
        other => other,
    };
    let (tp_s, pp_s, i_s, o_s) =
        (tp.to_string(), pp.to_string(), row.input_tokens.to_string(), row.output_tokens.to_string());
    // A DEP row: attention runs data parallel, so no tensor parallelism.
    let split = match &row.expert_parallel {
        Some(_) => "--expert-parallel",
        None => "--tensor-parallel",
    };
    let ep_s = row.expert_parallel.map(|e| e.to_string());
    let mut args = vec![
        "recommend",
        "--vm-size",
        size,
        "--model",
        &row.model,
        "--precision",
        precision,
        split,
        ep_s.as_deref().unwrap_or(&tp_s),
        "--pipeline-parallel",
        &pp_s,
        "--input-tokens",
        &i_s,
        "--output-tokens",
        &o_s,
        "--include-unsupported",
        "-o",
        "json",
    ];
    let c = row.concurrency.map(|c| (c * u64::from(copies)).to_string());
    if let Some(c) = &c {
        args.extend(["--concurrency", c.as_str()]);
    }
    if let Some(kv) = kv_cache(row) {
        args.extend(["--kv-cache-precision", kv]);
    }
    let run = aksgpu_env(&args, env);
    if run.code != 0 {
        return Err(format!("exit {}: {}", run.code, run.stderr.trim()));
    }
    let v = run.json();
    let s = &v["recommendations"][0]["serving"];
    let get = |k: &str| s[k].as_f64().ok_or_else(|| format!("no serving.{k} in {s}"));
    let class = s["class"].as_str().ok_or_else(|| format!("no serving.class in {s}"))?.to_owned();
    let v = match row.metric.as_str() {
        "aggregate_output_tokens_per_second" => get("aggregate_output_tokens_per_second")? / f64::from(copies),
        "decode_tokens_per_second_per_sequence" => get("decode_tokens_per_second_per_sequence")?,
        "tpot_seconds" => get("tpot_seconds")?,
        "ttft_seconds" => get("ttft_seconds")?,
        "e2e_latency_seconds" => get("e2e_latency_seconds")?,
        other => return Err(format!("unknown metric {other}")),
    };
    Ok((v, class))
}

/// The KV-cache precision a row ran with: the one it states, else FP8 for two families whose
/// 8- or 4-bit runs quantised the cache too:
/// - TensorRT-LLM's perf overview rows ran NVIDIA's ModelOpt checkpoints (the overview:
///   "Testing was performed on models with weights quantized using ModelOpt and published by
///   NVIDIA on the Model Optimizer HuggingFace Collection"), whose hf_quant_config.json sets
///   `kv_cache_quant_algo: FP8`, which TensorRT-LLM's default `kv_cache_dtype: auto` follows.
///   The gpt-oss rows ran OpenAI's own checkpoints.
/// - The Azure AI benchmarking guide builds its engines with `trtllm-bench build --quantization
///   FP8` (Benchmarks/NVIDIA/LLMBenchmark.py), and that command forces the KV cache to FP8 for
///   FP8 and NVFP4 (TensorRT-LLM tensorrt_llm/bench/build/build.py: "If the quantization is
///   NVFP4 or FP8, force the KV cache dtype to FP8").
fn kv_cache(row: &Row) -> Option<&str> {
    let quantised = matches!(row.weights.as_str(), "fp8" | "fp4");
    match row.kv_cache.as_str() {
        "fp8" | "fp16" => Some(row.kv_cache.as_str()),
        _ if row.source_family == "trtllm" && quantised && !row.model.starts_with("openai/gpt-oss") => Some("fp8"),
        _ if row.source_family == "azure-benchmarking-guide" && quantised => Some("fp8"),
        _ => None,
    }
}

/// The guide's GB200 rows (FP8 engines from `trtllm-bench build`) ran an FP8 KV cache: twice the
/// sequences of a 16-bit one in the same memory. Its A100 and H200 rows ran 16-bit weights and
/// keep the cache they state (or the model's own).
#[test]
fn the_benchmarking_guides_fp8_engines_ran_an_fp8_kv_cache() {
    let rows = rows();
    let guide: Vec<&Row> = rows.iter().filter(|r| r.source_family == "azure-benchmarking-guide").collect();
    let fp8: Vec<&str> = guide.iter().filter(|r| kv_cache(r) == Some("fp8")).map(|r| r.id.as_str()).collect();
    assert_eq!(fp8.len(), 4, "{fp8:?}");
    assert!(fp8.iter().all(|id| id.starts_with("gb200-trtllm-")), "{fp8:?}");
    assert!(guide.iter().filter(|r| r.weights == "fp16").all(|r| kv_cache(r) != Some("fp8")));
}

/// Estimated speed over published speed: the ratio for tokens/s rows, its inverse for times.
fn speed_ratio(row: &Row, r: f64) -> f64 {
    match row.metric.as_str() {
        "tpot_seconds" | "e2e_latency_seconds" => 1.0 / r,
        _ => r,
    }
}

/// Per class: (throughput rows, lowest and highest speed ratio, TTFT rows, lowest and highest
/// TTFT ratio), as catalog/serving-factors.yaml `calibration` holds them.
type Classes = std::collections::BTreeMap<String, (u32, [f64; 2], u32, Option<[f64; 2]>)>;

fn classes(rows: &[Row], ratios: &[f64], class: &[String]) -> Classes {
    let mut out = Classes::new();
    let widen = |b: Option<[f64; 2]>, r: f64| Some(b.map_or([r, r], |b| [b[0].min(r), b[1].max(r)]));
    for ((row, r), c) in rows.iter().zip(ratios).zip(class) {
        let e = out.entry(c.clone()).or_insert((0, [f64::NAN, f64::NAN], 0, None));
        if row.metric == "ttft_seconds" {
            e.2 += 1;
            e.3 = widen(e.3, *r);
        } else {
            let sr = speed_ratio(row, *r);
            e.1 = if e.0 == 0 { [sr, sr] } else { [e.1[0].min(sr), e.1[1].max(sr)] };
            e.0 += 1;
        }
    }
    out
}

/// The `calibration` entries of catalog/serving-factors.yaml for `c`, rounded outwards to 2
/// decimals so that the range still holds every row.
fn calibration_yaml(c: &Classes) -> String {
    let (down, up) = (|v: f64| (v * 100.0).floor() / 100.0, |v: f64| (v * 100.0).ceil() / 100.0);
    let mut out = String::from("calibration:\n");
    for (class, (n, speed, tn, ttft)) in c {
        let parts: Vec<&str> = class.split(" × ").collect();
        let ttft = ttft.map_or(String::new(), |t| format!(", ttft_rows: {tn}, ttft: [{}, {}]", down(t[0]), up(t[1])));
        let speed = if *n == 0 { [1.0, 1.0] } else { [down(speed[0]), up(speed[1])] };
        out.push_str(&format!(
            "  - {{architecture: \"{}\", precision: {}, moe: {}, rows: {n}, speed: [{}, {}]{ttft}}}\n",
            parts[0],
            parts[1],
            parts[2] == "MoE",
            speed[0],
            speed[1]
        ));
    }
    out
}

/// Estimate over published, both read as "higher is better" never mixed: the plain ratio.
fn ratio(row: &Row, est: f64) -> f64 {
    est / row.value
}

fn within(row: &Row, r: f64) -> bool {
    let tol = if row.metric == "ttft_seconds" { 2.0 } else { 1.5 };
    r <= tol && r >= 1.0 / tol
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// (throughput rows within 1.5×, their count, TTFT rows within 2×, their count, median ratio)
fn score(rows: &[Row], ratios: &[f64]) -> (usize, usize, usize, usize, f64) {
    let mut s = (0, 0, 0, 0, 0.0);
    for (row, r) in rows.iter().zip(ratios) {
        if row.metric == "ttft_seconds" {
            s.3 += 1;
            s.2 += usize::from(within(row, *r));
        } else {
            s.1 += 1;
            s.0 += usize::from(within(row, *r));
        }
    }
    s.4 = median(ratios.to_vec());
    s
}

#[test]
fn serving_estimates_match_published_measurements() {
    let rows = rows();
    assert_eq!(rows.len(), 90, "the vendored file holds 90 rows");
    let mut ratios = Vec::new();
    let mut table = String::from(
        "row                                                  metric                                  estimate   published  ratio\n",
    );
    let mut errors = Vec::new();
    let mut class = Vec::new();
    for row in &rows {
        let (est, c) = estimate_in(row, &[]).unwrap_or_else(|e| {
            errors.push(format!("{}: {e}", row.id));
            (f64::NAN, String::new())
        });
        class.push(c);
        let r = ratio(row, est);
        table.push_str(&format!(
            "{:<52} {:<38} {:>10.4} {:>10.4} {:>6.2}{}\n",
            row.id,
            row.metric,
            est,
            row.value,
            r,
            if within(row, r) { "" } else { "  outside" }
        ));
        ratios.push(r);
    }
    eprintln!("{table}");
    assert!(errors.is_empty(), "rows the binary could not answer:\n{}", errors.join("\n"));
    let (tp_ok, tp_n, ttft_ok, ttft_n, med) = score(&rows, &ratios);
    eprintln!(
        "throughput rows within 1.5×: {tp_ok}/{tp_n}; TTFT rows within 2×: {ttft_ok}/{ttft_n}; median ratio {med:.3}"
    );
    // 85 % of throughput rows within 1.5× and 70 % of TTFT rows within 2×, with margin: the
    // bars still hold with one more row outside. Met with 78 of 81 and 9 of 9. The known misses
    // are gpt-oss-120b DEP4 on four H100 (1.51×, 1.87× before the expert GEMMs were counted in
    // whole token tiles; the same table's one-H200 TP1 row is 1.33×, so what is left is Hopper's
    // MXFP4 MoE kernels, fitted on these rows at the grid's lowest compute, not the expert
    // parallelism), the 8B on GB200 at 128/128 (0.6×: TensorRT-LLM's C++ runtime, whose CPU work
    // per sequence is below the Python executors' floor the estimate applies; serving.rs
    // `host_floor`) and the A100 70B row with 8 output tokens (1.9×: a static batch of 16 whose
    // sibling at 64 sits at 0.85× and whose own time is physically consistent with it; the
    // estimate's continuous-batching prefill queue, near saturation at 64, is what makes the
    // pair diverge).
    let need = |n: usize, pct: usize| (n * pct).div_ceil(100);
    assert!(tp_ok > need(tp_n, 85), "throughput rows within 1.5×: {tp_ok}/{tp_n} (need 85 % with a row to spare)");
    assert!(ttft_ok > need(ttft_n, 70), "TTFT rows within 2×: {ttft_ok}/{ttft_n} (need 70 % with a row to spare)");
    assert!((0.8..=1.25).contains(&med), "median ratio {med:.3} outside 0.8–1.25");
    // The residual range per class: what `serving.range` and the weak-class warnings show.
    let by_class = classes(&rows, &ratios, &class);
    let want = calibration_yaml(&by_class);
    eprintln!("residuals per class (catalog/serving-factors.yaml):\n{want}");
    let factors = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog/serving-factors.yaml"))
        .expect("factors");
    let have = factors.split("calibration:\n").nth(1).map(|t| format!("calibration:\n{t}")).unwrap_or_default();
    assert_eq!(have.trim(), want.trim(), "catalog/serving-factors.yaml `calibration` is not what the rows give");
}

/// The factor group a row falls in: (GPU architecture as gpus.yaml writes it, compute precision
/// the weights run at on that GPU), as `service::compute_precision` decides it.
fn group(row: &Row) -> (&'static str, &'static str) {
    let arch = match row.gpu.as_str() {
        "H100-80GB" | "H200" | "H100-NVL" => "Hopper",
        "A100-80GB" | "A100-80GB-PCIe" | "A10" => "Ampere",
        "T4" => "Turing",
        "GB200" | "RTX-PRO-6000-BSE" => "Blackwell",
        "MI300X" => "CDNA 3",
        other => panic!("no architecture for {other}"),
    };
    let precision = match (row.weights.as_str(), arch) {
        ("fp8", _) => "fp8",
        ("fp4", "Blackwell") => "fp4",
        ("fp4", _) | ("int4", _) => "w4a16",
        _ => "fp16",
    };
    (arch, precision)
}

/// The fitting procedure (run once; scripts/fit-serving-factors.sh): for each (architecture,
/// precision) group, a grid over the compute and memory efficiencies, every row of the group
/// run through the binary with a catalog override holding the candidate factors. The best
/// candidate has the most rows within tolerance, then the group's median ratio nearest 1.
/// It prints the entries to paste into catalog/serving-factors.yaml.
#[test]
#[ignore = "the fitting procedure, not a check: scripts/fit-serving-factors.sh runs it"]
fn fit_serving_factors() {
    let rows = rows();
    let base = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog/serving-factors.yaml"))
        .expect("factors");
    let head = base.split("efficiencies:").next().expect("head").to_owned();
    let dir = crate::support::temp_dir("serving-fit");
    let mut groups: Vec<(&str, &str)> = rows.iter().map(group).collect();
    groups.sort_unstable();
    groups.dedup();
    // Compute: a GEMM's share of the tensor peak, 0.3 (mixed-input kernels) to 0.9. Memory:
    // the share of the HBM bandwidth a streaming kernel reaches, 0.6 to 0.9 (below that a
    // factor would hide something else the model misses).
    let (grid, memory_grid) = ([0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], [0.6, 0.7, 0.8, 0.9]);
    let mut fitted = Vec::new();
    for (arch, precision) in groups {
        let members: Vec<&Row> = rows.iter().filter(|r| group(r) == (arch, precision)).collect();
        let mut best: Option<(usize, f64, f64, f64)> = None;
        // A group's measured per-sequence engine cost stays as it is in the file.
        let overhead = base
            .lines()
            .find(|l| l.contains(&format!("architecture: \"{arch}\", precision: {precision},")))
            .and_then(|l| l.split("sequence_overhead_us: ").nth(1))
            .and_then(|v| v.split(',').next())
            .map_or(String::new(), |v| format!(", sequence_overhead_us: {v}"));
        for compute in grid {
            for memory in memory_grid {
                let yaml = format!(
                    "{head}efficiencies:\n  - {{architecture: \"{arch}\", precision: {precision}, compute: {compute}, memory: {memory}, link: 0.7{overhead}, source: fit}}\n  - {{architecture: \"*\", precision: \"*\", compute: 0.5, memory: 0.7, link: 0.7, source: default}}\n"
                );
                std::fs::write(dir.join("serving-factors.yaml"), yaml).expect("write");
                let ratios: Vec<f64> = members
                    .iter()
                    .map(|r| estimate(r, &[("AKSGPU_CATALOG", &dir)]).map_or(f64::NAN, |e| ratio(r, e)))
                    .collect();
                let inside = members.iter().zip(&ratios).filter(|(r, x)| within(r, **x)).count();
                let off = median(ratios).ln().abs();
                if best.is_none_or(|b| inside > b.0 || (inside == b.0 && off < b.1)) {
                    best = Some((inside, off, compute, memory));
                }
            }
        }
        let (inside, off, compute, memory) = best.expect("a candidate");
        eprintln!(
            "{arch} × {precision}: compute {compute}, memory {memory}: {inside}/{} rows within tolerance, median ratio {:.2}",
            members.len(),
            off.exp()
        );
        fitted.push(format!(
            "  - {{architecture: \"{arch}\", precision: {precision}, compute: {compute}, memory: {memory}, link: 0.7{overhead}, source: \"fitted on {} rows\"}}",
            members.len()
        ));
    }
    eprintln!("efficiencies:\n{}", fitted.join("\n"));
}
