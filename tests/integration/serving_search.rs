//! The deployment search of `recommend`: for each size, the GPUs per copy, tensor × pipeline
//! split, nodes of copies and sequences per copy that meet every serving target most cheaply,
//! with per-user speed and time to first token judged at the concurrency the deployment runs.

use serde_json::Value;

use crate::support::aksgpu;

fn recommend(args: &[&str]) -> (i32, Value, String) {
    let mut all = vec!["recommend"];
    all.extend_from_slice(args);
    all.extend(["-o", "json"]);
    let run = aksgpu(&all);
    let v = if run.code == 0 { run.json() } else { Value::Null };
    (run.code, v, run.stderr)
}

fn num(v: &Value, k: &str) -> f64 {
    v[k].as_f64().unwrap_or_else(|| panic!("no {k} in {v}"))
}

/// The serving figures of `size` run exactly as `s` says, with no target: its split and
/// `concurrency` sequences spread over its copies.
fn rerun(model: &[&str], size: &str, s: &Value, concurrency: u64) -> Value {
    let (tp, pp) = (s["tensor_parallel"].to_string(), s["pipeline_parallel"].to_string());
    let c = concurrency.to_string();
    let mut args = model.to_vec();
    args.extend(["--vm-size", size, "--tensor-parallel", &tp, "--pipeline-parallel", &pp, "--concurrency", &c]);
    let (code, v, err) = recommend(&args);
    assert_eq!(code, 0, "{args:?}: {err}");
    v["recommendations"][0]["serving"].clone()
}

/// An 8B chat model at 100 tokens/s per user: a single H100 does it at a handful of sequences
/// (the same H100 serves 109 tokens/s at one sequence), so the answer is a fit, not "nothing
/// fits" judged at the largest batch memory holds.
#[test]
fn per_user_speed_is_judged_at_the_concurrency_run() {
    let model = ["--model", "llama-3.1-8b"];
    let (code, v, err) = recommend(&["--model", "llama-3.1-8b", "--min-tokens-per-second-per-user", "100"]);
    assert_eq!(code, 0, "{err}");
    let recs = v["recommendations"].as_array().expect("recommendations");
    assert!(!recs.is_empty());
    assert!(recs.iter().any(|r| r["gpu_model"].as_str().is_some_and(|g| g.starts_with("H100"))), "{recs:?}");
    for r in recs {
        let s = &r["serving"];
        let size = r["vm_size"].as_str().expect("size");
        let per_copy = s["concurrency_per_replica"].as_u64().expect("per copy");
        let replicas = s["replicas"].as_u64().expect("replicas");
        assert!(num(s, "decode_tokens_per_second_per_sequence") >= 100.0, "{size}: {s}");
        assert_eq!(s["concurrency"].as_u64(), Some(per_copy * replicas), "{size}");
        assert!(per_copy > 1 && per_copy < 2048, "{size}: {per_copy} sequences per copy");
        // The figure is the one this many sequences get, and one more per copy misses.
        let same = rerun(&model, size, s, per_copy * replicas);
        let want = num(s, "decode_tokens_per_second_per_sequence");
        assert!((num(&same, "decode_tokens_per_second_per_sequence") - want).abs() < 0.01 * want, "{size}: {same}");
        if s["binding"] == "--min-tokens-per-second-per-user" {
            let more = rerun(&model, size, s, (per_copy + 1) * replicas);
            assert!(num(&more, "decode_tokens_per_second_per_sequence") < 100.0, "{size}: {more}");
        }
    }
}

/// Llama 3.1 70B in int4 for 50 users at 20 tokens/s each, first token within 1 s: the search
/// widens tensor parallelism (or adds copies) on the A100 sizes instead of ruling them out on
/// the first token, and every answer meets every target at `--concurrency` split over its copies.
#[test]
fn latency_targets_widen_tensor_parallelism() {
    let args = [
        "--model",
        "llama-3.1-70b",
        "--precision",
        "int4",
        "--concurrency",
        "50",
        "--min-tokens-per-second-per-user",
        "20",
        "--max-ttft",
        "1s",
        "--top",
        "20",
    ];
    let (code, v, err) = recommend(&args);
    assert_eq!(code, 0, "{err}");
    let recs = v["recommendations"].as_array().expect("recommendations");
    let a100: Vec<&Value> =
        recs.iter().filter(|r| r["gpu_model"].as_str().is_some_and(|g| g.starts_with("A100"))).collect();
    assert!(a100.len() >= 3, "A100 sizes that meet the targets: {a100:?}");
    // Where a node has the GPUs, the latency target is met by widening the split (a 2-GPU
    // size can only add copies of TP 2, one sequence each).
    let wide = a100.iter().filter(|r| r["gpu_count"].as_f64() >= Some(4.0));
    assert!(
        wide.clone().count() >= 3 && wide.clone().all(|r| r["serving"]["tensor_parallel"].as_u64() >= Some(4)),
        "{a100:?}"
    );
    for r in recs {
        let s = &r["serving"];
        let replicas = s["replicas"].as_u64().expect("replicas");
        assert_eq!(s["concurrency"].as_u64(), Some(50));
        assert_eq!(s["concurrency_per_replica"].as_u64(), Some(50u64.div_ceil(replicas)), "{s}");
        assert!(num(s, "decode_tokens_per_second_per_sequence") >= 20.0 && num(s, "ttft_seconds") <= 1.0, "{s}");
        assert_eq!(r["fit"]["nodes"], s["nodes"]);
        assert!(s["binding"].is_string());
    }
    // The same size pinned to the narrowest split that holds the model misses the first token.
    let (code, _, err) = recommend(&[
        "--model",
        "llama-3.1-70b",
        "--precision",
        "int4",
        "--concurrency",
        "50",
        "--max-ttft",
        "1s",
        "--vm-size",
        "Standard_NC48ads_A100_v4",
        "--tensor-parallel",
        "1",
    ]);
    assert_eq!(code, 1, "{err}");
}

/// Nothing meets 1000 tokens/s per user: the closest lines give the best any deployment
/// reached (one sequence on the widest split), not the figure at the largest batch.
#[test]
fn closest_lines_give_the_best_any_deployment_reached() {
    let run = aksgpu(&["recommend", "--model", "llama-3.1-8b", "--min-tokens-per-second-per-user", "1000"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let hint = run.stderr.lines().find(|l| l.starts_with("hint: closest:")).expect("closest line");
    assert!(hint.contains("at best serves") && hint.contains("1 sequence(s)"), "{hint}");
    let (code, v, err) = recommend(&[
        "--model",
        "llama-3.1-8b",
        "--vm-size",
        "Standard_ND96isr_H100_v5",
        "--tensor-parallel",
        "8",
        "--concurrency",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let best = num(&v["recommendations"][0]["serving"], "decode_tokens_per_second_per_sequence");
    let shown = format!("Standard_ND96isr_H100_v5 (at best serves {}", best.round());
    assert!(hint.contains(&shown), "{hint} lacks {shown}");
}

/// `kaito workspace` sized for a service writes the Workspace `recommend` gives for the same
/// service: the first KAITO-capable recommendation's instance type, and its nodes as the count.
/// A mixture of experts too: `recommend` chooses tensor parallelism unless `--expert-parallel`
/// is given, and `kaito workspace` does not take that flag (KAITO's vLLM runtime deploys
/// tensor parallelism), so it cannot size what KAITO does not run.
#[test]
fn kaito_workspace_matches_recommend_for_the_same_service() {
    let service =
        ["--concurrency", "64", "--min-tokens-per-second-per-user", "40", "--max-ttft", "1s", "--region", "eastus"];
    let ep = aksgpu(&["kaito", "workspace", "--model", "gpt-oss-20b", "--expert-parallel", "2"]);
    assert_eq!(ep.code, 2, "{}", ep.stderr);
    assert!(ep.stderr.contains("unexpected argument '--expert-parallel'"), "{}", ep.stderr);
    for model in ["llama-3.1-8b", "llama-3.3-70b", "gpt-oss-20b", "nemotron-3-nano"] {
        let mut args = vec!["--model", model, "--top", "50"];
        args.extend(service);
        let (code, v, err) = recommend(&args);
        assert_eq!(code, 0, "{err}");
        // KAITO takes whole NVIDIA GPUs of compute capability 8.0 or more.
        let pick = v["recommendations"]
            .as_array()
            .and_then(|r| {
                r.iter().find(|r| {
                    r["gpu_vendor"] == "NVIDIA"
                        && !["T4", "V100", "P100", "P40", "M60", "K80"].contains(&r["gpu_model"].as_str().unwrap_or(""))
                        && r["gpu_count"].as_f64().is_some_and(|c| c >= 1.0 && c.fract() == 0.0)
                })
            })
            .expect("a KAITO-capable size");
        let mut ws = vec!["kaito", "workspace", "--model", model, "-o", "json"];
        ws.extend(service);
        let run = aksgpu(&ws);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let w = run.json();
        assert_eq!(w["resource"]["instanceType"], pick["vm_size"], "{model}");
        assert_eq!(w["resource"]["count"], pick["fit"]["nodes"], "{model}");
        assert!(run.stderr.contains("binding:"), "{}", run.stderr);
    }
}

/// KAITO's presets (kaito-project/kaito: presets/workspace/models/supported_models.yaml and
/// model_catalog.yaml): each has a model in the catalog, and a Workspace is written for it
/// offline.
#[test]
fn a_workspace_is_written_offline_for_every_kaito_preset() {
    const PRESETS: &[&str] = &[
        "llama-3.1-8b-instruct",
        "llama-3.3-70b-instruct",
        "falcon-7b",
        "falcon-40b",
        "mistral-7b-instruct",
        "phi-3-mini-4k-instruct",
        "phi-3-mini-128k-instruct",
        "phi-3-medium-4k-instruct",
        "phi-3-medium-128k-instruct",
        "phi-3.5-mini-instruct",
        "phi-4",
        "phi-4-mini-instruct",
        "qwen2.5-coder-7b-instruct",
        "qwen2.5-coder-32b-instruct",
        "deepseek-r1-distill-llama-8b",
        "deepseek-r1-distill-qwen-14b",
        "gpt-oss-20b",
        "gpt-oss-120b",
        "google/gemma-3-4b-it",
        "google/gemma-3-27b-it",
    ];
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/catalog/models.yaml")).expect("models");
    let models: Vec<serde_json::Value> = serde_yaml_ng::from_str(&text).expect("models parse");
    for preset in PRESETS {
        let m = models
            .iter()
            .find(|m| m["kaito_preset"].as_str() == Some(preset))
            .unwrap_or_else(|| panic!("no catalog model carries KAITO preset {preset}"));
        let id = m["id"].as_str().expect("id");
        let run = aksgpu(&["kaito", "workspace", "--model", id, "-o", "json"]);
        assert_eq!(run.code, 0, "{preset}: {}", run.stderr);
        let w = run.json();
        assert_eq!(w["inference"]["preset"]["name"].as_str(), Some(*preset), "{w}");
        assert!(w["resource"]["count"].as_u64().is_some_and(|c| c >= 1), "{w}");
    }
}

/// A target met by the estimate but not at the pessimistic end of the figure's range
/// (`serving.range`) is said on that recommendation, naming the flag; one the whole range meets
/// is not. gpt-oss-120b on one A100 is an unchecked class (Ampere × w4a16 × MoE), so its range
/// is the widest class's.
#[test]
fn a_target_met_only_by_the_estimate_is_warned() {
    let at_risk = |r: &Value| {
        r["warnings"].as_array().into_iter().flatten().any(|w| {
            w.as_str().is_some_and(|w| w.starts_with("--min-tokens-per-second-per-user") && w.contains("serving.range"))
        })
    };
    let base = ["--model", "gpt-oss-120b", "--vm-size", "Standard_NC24ads_A100_v4", "--concurrency", "32"];
    let (code, v, err) = recommend(&base);
    assert_eq!(code, 0, "{err}");
    let s = &v["recommendations"][0]["serving"];
    let (low, est) = (
        num(&s["range"]["decode_tokens_per_second_per_sequence"], "low"),
        num(s, "decode_tokens_per_second_per_sequence"),
    );
    assert!(low < est, "{s}");
    let between = format!("{:.1}", (low + est) / 2.0);
    let below = format!("{:.1}", low * 0.9);
    let mut args = base.to_vec();
    args.extend(["--min-tokens-per-second-per-user", &between]);
    let (code, v, err) = recommend(&args);
    assert_eq!(code, 0, "{err}");
    assert!(at_risk(&v["recommendations"][0]), "{}", v["recommendations"][0]["warnings"]);
    let mut args = base.to_vec();
    args.extend(["--min-tokens-per-second-per-user", &below]);
    let (code, v, err) = recommend(&args);
    assert_eq!(code, 0, "{err}");
    assert!(!at_risk(&v["recommendations"][0]), "{}", v["recommendations"][0]["warnings"]);
    // The first token: a limit between the estimate and the range's high end is at risk, and
    // the flag is worded with its unit, as it is given.
    let (ttft, high) = (num(s, "ttft_seconds"), num(&s["range"]["ttft_seconds"], "high"));
    let limit = format!("{:.3}s", (ttft + high) / 2.0);
    let mut args = base.to_vec();
    args.extend(["--max-ttft", &limit]);
    let (code, v, err) = recommend(&args);
    assert_eq!(code, 0, "{err}");
    let warned = v["recommendations"][0]["warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|w| w.as_str().is_some_and(|w| w.starts_with(&format!("--max-ttft {limit} is met by the estimate"))));
    assert!(warned, "{limit}: {}", v["recommendations"][0]["warnings"]);
}
