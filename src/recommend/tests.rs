use super::*;

/// Words as the CLI words them (for assertions on the text).
trait Cli {
    fn cli(&self) -> String;
}

impl Cli for Words {
    fn cli(&self) -> String {
        let flag = |s: Setting| format!("--{}", s.long());
        self.render(flag, flag)
    }
}

const SIZES: &str = r#"
- series: Small
  family: NC
  source: test
  status: current
  gpu_model: G16
  driver: cuda
  hyperv_generations: [2]
  aks: {supported: true, os_skus: [Ubuntu]}
  sizes:
    - {name: Standard_NC1_small, vcpus: 4, memory_gib: 28, gpu_count: 1, gpu_memory_gib: 16}
    - {name: Standard_NC4_small, vcpus: 64, memory_gib: 440, gpu_count: 4, gpu_memory_gib: 64}
- series: Big
  family: ND
  source: test
  status: current
  gpu_model: G80
  driver: cuda
  interconnect: InfiniBand NDR
  hyperv_generations: [2]
  aks: {supported: true, os_skus: [Ubuntu, Windows2022]}
  sizes:
    - {name: Standard_ND8_big, vcpus: 96, memory_gib: 1900, gpu_count: 8, gpu_memory_gib: 640}
- series: Old
  family: NC
  source: test
  status: retired
  retirement_date: "2020-01-01"
  gpu_model: G80
  driver: cuda
  aks: {supported: false}
  sizes:
    - {name: Standard_NC1_old, vcpus: 4, memory_gib: 28, gpu_count: 1, gpu_memory_gib: 80}
"#;
const GPUS: &str = r#"
- {id: G16, vendor: NVIDIA, name: Test 16, memory_gib: 16, compute_capability: "7.5", bf16: false, fp8: false, nvenc: true, source: t}
- id: G80
  vendor: NVIDIA
  name: Test 80
  memory_gib: 80
  compute_capability: "9.0"
  bf16: true
  fp8: true
  nvenc: false
  source: t
  mig_profiles:
    - {profile: MIG1g, slice: 1g.10gb, instances: 7, memory_gib: 10}
    - {profile: MIG3g, slice: 3g.40gb, instances: 2, memory_gib: 40}
"#;
const RULES: &str = r#"
- {id: mig, kind: mig, summary: s, source: t, gpu_models: [G80], immutable: true}
- {id: win, kind: windows_min_kubernetes, summary: s, source: t, min_version: "1.29", feature: WindowsGPUPreview}
"#;
const PRICES: &str = r#"
currency: USD
as_of: test
source: test
sizes:
  Standard_NC1_small: {eastus: {linux: 0.5, linux_spot: 0.1}, westus: {linux: 0.4}}
  Standard_NC4_small: {eastus: {linux: 4.0}}
  Standard_ND8_big: {eastus: {linux: 30.0, windows: 40.0}}
  Standard_NC1_old: {eastus: {linux: 0.2}}
"#;
const MODELS: &str = r#"
- {id: org/m8, aliases: [m8], params_b: 8, layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8, head_dim: 128, context: 8192, native_dtype: bf16, checkpoint_gib: 14.9, source: t}
"#;

fn catalog() -> Catalog {
    Catalog::from_yaml(&[
        ("sizes/test.yaml", SIZES),
        ("gpus.yaml", GPUS),
        ("rules.yaml", RULES),
        ("prices.yaml", PRICES),
        ("models.yaml", MODELS),
    ])
    .expect("test catalog")
}

fn req(workload: Workload, params: Option<f64>) -> Requirements {
    let c = catalog();
    let mut r = Requirements::new(workload);
    // A bf16 checkpoint of exactly params × 2 B.
    let model = |p: f64| LlmModel { params_b: p, checkpoint_gib: p * 2e9 / GIB, ..c.models[0].clone() };
    r.model = params.map(|p| ModelSpec::from_model(&model(p)));
    r.context = 2048;
    r.compute_need();
    r
}

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

fn names(o: &Ranking) -> Vec<&str> {
    o.recommendations.iter().map(|r| r.vm_size.as_str()).collect()
}

#[test]
fn test_catalog_is_valid() {
    assert_eq!(catalog().validate(), Vec::<String>::new());
}

/// 8.03B bf16, 2048 tokens (KAITO's estimator): weights 14.957 GiB × 1.02 × 1.05 = 16.019,
/// KV 0.25 GiB, + 2.3 per GPU. One 16 GiB GPU offers 0.92 × 16 = 14.72 → no (18.57). Two of
/// the four: 8.010 + 0.125 + 2.3 = 10.435 → fits ($4). The big size fits on 1 GPU ($30).
/// The retired size is excluded.
#[test]
fn ranks_cheapest_fit_first_with_hand_worked_gpu_counts() {
    let c = catalog();
    let o = recommend(&c, &req(Workload::Inference, Some(8.03)));
    assert_eq!(names(&o), ["Standard_NC4_small", "Standard_ND8_big"]);
    let first = &o.recommendations[0];
    assert_eq!(first.fit.gpus_used_per_node, 2.0);
    assert_eq!(first.fit.nodes, 1);
    assert!((first.fit.required_per_gpu_gib - 10.435).abs() < 0.01, "{}", first.fit.required_per_gpu_gib);
    assert_eq!(first.price_per_hour, Some(4.0));
    assert_eq!(first.monthly_cost, Some(2920.0));
    assert_eq!(o.recommendations[1].fit.gpus_used_per_node, 1.0);
    let small = o.rejected.iter().find(|r| r.vm_size == "Standard_NC1_small").expect("rejected");
    assert_eq!(small.constraint, Constraint::MemoryFit);
    let old = o.rejected.iter().find(|r| r.vm_size == "Standard_NC1_old").expect("rejected");
    assert_eq!(old.constraint, Constraint::Retired);
}

#[test]
fn cheapest_region_is_used_without_region_and_named_region_otherwise() {
    let c = catalog();
    let mut r = req(Workload::Cv, None);
    let o = recommend(&c, &r);
    let small = o.recommendations.iter().find(|x| x.vm_size == "Standard_NC1_small").expect("present");
    assert_eq!((small.price_per_hour, small.price_region.as_deref()), (Some(0.4), Some("westus")));
    r.region = Some("eastus".into());
    r.spot = true;
    let o = recommend(&c, &r);
    assert_eq!(names(&o)[0], "Standard_NC1_small");
    assert_eq!(o.recommendations[0].price_per_hour, Some(0.1));
    // No spot price for the others: unknown prices rank last.
    assert_eq!(o.recommendations.last().map(|x| x.price_per_hour), Some(None));
}

#[test]
fn price_limit_names_the_constraint_and_sorts_alternatives_by_cost() {
    let c = catalog();
    let mut r = req(Workload::Inference, Some(8.03));
    r.max_price_per_hour = Some(1.0);
    let o = recommend(&c, &r);
    let nf = o.no_fit().expect("nothing fits");
    assert_eq!(nf.constraint, Constraint::MaxPricePerHour);
    assert_eq!(
        nf.closest.iter().map(|x| x.vm_size.as_str()).collect::<Vec<_>>(),
        ["Standard_NC4_small", "Standard_ND8_big"]
    );
    // The price limit does not push the model onto several small nodes.
    assert!(o.rejected.iter().all(|x| !x.reason.cli().contains("nodes")));
    // The same limit a month: 730 h × $1 = $730; the tighter of the two applies.
    r.max_price_per_hour = None;
    r.max_price_per_month = Some(730.0);
    let o = recommend(&c, &r);
    let nf = o.no_fit().expect("nothing fits");
    assert_eq!(nf.constraint, Constraint::MaxPricePerMonth);
    assert!(nf.closest[0].reason.cli().ends_with("/month is over --max-price-per-month 730"), "{:?}", nf.closest);
    r.max_price_per_hour = Some(0.5);
    assert_eq!(recommend(&c, &r).no_fit().expect("nothing fits").constraint, Constraint::MaxPricePerHour);
    r.max_price_per_hour = Some(100.0);
    assert_eq!(recommend(&c, &r).no_fit().expect("nothing fits").constraint, Constraint::MaxPricePerMonth);
}

/// 5000B bf16 fits nowhere: 9313 GiB × 1.071 = 9975 GiB. On 8 nodes the big size lacks
/// 9975/64 + 2.3 − 73.6 = 84.6 GiB per GPU, four small GPUs × 8 lack 299, one small × 8
/// lack 1235. "closest" lists them in that order, not cheapest first.
#[test]
fn closest_lists_the_smallest_shortfall_first() {
    let c = catalog();
    let o = recommend(&c, &req(Workload::Inference, Some(5000.0)));
    let nf = o.no_fit().expect("nothing fits");
    assert_eq!(nf.constraint, Constraint::MemoryFit);
    let order: Vec<&str> = nf.closest.iter().map(|x| x.vm_size.as_str()).collect();
    assert_eq!(order, ["Standard_ND8_big", "Standard_NC4_small", "Standard_NC1_small"]);
    let big = &o.rejected.iter().find(|r| r.vm_size == "Standard_ND8_big").expect("rejected");
    assert!((big.sort_key - 84.6).abs() < 0.1, "{}", big.sort_key);
}

/// An architecture that cannot run the weights is refused, never close to fitting.
#[test]
fn mxfp4_and_fp8_need_the_compute_capability_vllm_needs() {
    let c = catalog();
    let mut r = req(Workload::Inference, Some(8.03));
    r.precision = Precision::Mxfp4;
    r.compute_need();
    let o = recommend(&c, &r);
    // G16 has compute capability 7.5, G80 9.0.
    assert_eq!(names(&o), ["Standard_ND8_big"]);
    let small = o.rejected.iter().find(|x| x.vm_size == "Standard_NC4_small").expect("rejected");
    assert_eq!(small.constraint, Constraint::PrecisionSupport);
    assert!(small.reason.cli().contains("≥ 8.0") && small.reason.cli().contains("7.5"), "{}", small.reason.cli());
    r.precision = Precision::Fp8;
    let o = recommend(&c, &r);
    assert!(o
        .rejected
        .iter()
        .any(|x| x.vm_size == "Standard_NC4_small" && x.constraint == Constraint::PrecisionSupport));
}

/// bf16 on a GPU without BF16 is never silent, chosen or defaulted.
#[test]
fn bf16_without_bf16_warns_on_every_result() {
    let c = catalog();
    let o = recommend(&c, &req(Workload::Inference, Some(8.03)));
    let small = o.recommendations.iter().find(|x| x.vm_size == "Standard_NC4_small").expect("fits");
    assert!(
        small.warnings.iter().any(|w| w.cli().contains("no BF16") && w.cli().contains("fp16")),
        "{:?}",
        small.warnings
    );
    let big = o.recommendations.iter().find(|x| x.vm_size == "Standard_ND8_big").expect("fits");
    assert!(!big.warnings.iter().any(|w| w.cli().contains("BF16")));
}

/// Tensor parallelism must divide the heads; where it cannot, the rest of the GPUs are
/// pipeline stages (vLLM's distributed-serving guide), never a refusal. A 71-head model
/// (falcon-7b) that one GPU cannot hold runs on the 4-GPU size as two copies of TP 1 × PP 2;
/// phi-4's 40 heads and 10 KV heads as
/// TP 2 × PP 2 (10 KV heads do not divide by 4).
#[test]
fn pipeline_parallel_where_the_heads_rule_out_tensor_parallel() {
    let c = catalog();
    let mut r = req(Workload::Inference, Some(8.03));
    if let Some(m) = r.model.as_mut() {
        m.arch = Arch::full_attention(32, 4544, 71, 1, 64);
    }
    r.compute_need();
    let o = recommend(&c, &r);
    let four = o.recommendations.iter().find(|x| x.vm_size == "Standard_NC4_small").expect("fits");
    let l = four.fit.layout.expect("layout");
    assert_eq!((l.tensor_parallel, l.gpus, four.fit.replicas_per_node), (1, 2.0, 2));
    assert!(four.reasons.iter().any(|x| x.cli().contains("tensor parallel 1 × 2 pipeline")), "{:?}", four.reasons);
    let phi4 = Arch::full_attention(40, 5120, 40, 10, 128);
    assert!(!phi4.tp_ok(4));
    assert_eq!(split_tp(&r, phi4, 4, false), Some(2));
    assert_eq!(split_tp(&r, phi4, 8, false), Some(2));
    // A pinned split is kept, or the size is passed over.
    r.serving.tensor_parallel = Some(4);
    assert_eq!(split_tp(&r, phi4, 4, false), None);
}

fn bundled_kv(id: &str, context: u64, sequences: u64) -> f64 {
    let c = Catalog::bundled().expect("bundled catalog");
    let m = ModelSpec::from_model(c.model(id).expect("model"));
    let mut r = Requirements::new(Workload::Inference);
    r.model = Some(m);
    r.context = context;
    r.concurrency = sequences;
    r.compute_need();
    r.need.map_or(0.0, |n| n.kv_cache_gib)
}

/// gpt-oss-20b's config.json: num_hidden_layers 24, num_key_value_heads 8, head_dim 64,
/// sliding_window 128, layer_types alternating sliding_attention / full_attention (12 each).
/// One sequence of 131072 tokens in bf16: 2 × 8 × 64 × 2 B = 2048 B per layer and token;
/// 12 × 131072 + 12 × 128 = 1,574,400 layer-tokens → 3,224,371,200 B = 3.0029 GiB. Sixteen
/// sequences: 48.05 GiB, not the 96 GiB of every layer keeping every token.
#[test]
fn kv_cache_of_a_sliding_window_model_counts_only_the_window() {
    let kv = bundled_kv("openai/gpt-oss-20b", 131_072, 16);
    let hand = 16.0 * 2048.0 * (12.0 * 131_072.0 + 12.0 * 128.0) / GIB;
    assert!((kv - hand).abs() < 1e-6, "{kv} vs {hand}");
    assert!((kv - 48.047).abs() < 0.01, "{kv}");
    // Mistral 7B v0.1 windows every layer at 4096 (config.json sliding_window 4096): at
    // 32768 tokens it keeps 32 × 4096 × 2 × 8 × 128 × 2 B = 0.5 GiB per sequence.
    let mistral = bundled_kv("mistralai/Mistral-7B-v0.1", 32_768, 1);
    assert!((mistral - 32.0 * 4096.0 * 4096.0 / GIB).abs() < 1e-6, "{mistral}");
}

/// Qwen3-30B-A3B's config.json: num_hidden_layers 48, num_key_value_heads 4, head_dim 128
/// (128 experts, 8 per token: the experts hold no KV cache). Per token 2 × 48 × 4 × 128 × 2 B
/// = 98,304 B; 4096 tokens = 0.375 GiB.
#[test]
fn kv_cache_of_a_mixture_of_experts_model_follows_its_attention() {
    let kv = bundled_kv("Qwen/Qwen3-30B-A3B", 4096, 1);
    assert!((kv - 98_304.0 * 4096.0 / GIB).abs() < 1e-9, "{kv}");
    assert!((kv - 0.375).abs() < 1e-9);
}

/// Llama 3.1 70B's config.json: num_hidden_layers 80, num_attention_heads 64,
/// num_key_value_heads 8 (grouped-query), head_dim 8192 / 64 = 128. Per token 2 × 80 × 8 ×
/// 128 × 2 B = 327,680 B; 8192 tokens = 2.5 GiB (the 64 query heads would take 20 GiB).
#[test]
fn kv_cache_of_a_grouped_query_model_counts_kv_heads() {
    let kv = bundled_kv("meta-llama/Llama-3.1-70B-Instruct", 8192, 1);
    assert!((kv - 2.5).abs() < 1e-9, "{kv}");
}

/// A 70B model in bf16 on two 80 GB A100s leaves room for one 4096-token sequence: the fit
/// is warned with its numbers.
#[test]
fn tight_fits_are_warned_with_the_numbers() {
    let c = Catalog::bundled().expect("bundled catalog");
    let mut r = Requirements::new(Workload::Inference);
    r.model = Some(ModelSpec::from_model(c.model("llama-3.1-70b").expect("model")));
    r.gpu_models = vec!["A100".to_owned()];
    r.compute_need();
    let o = recommend(&c, &r);
    let two = o.recommendations.iter().find(|x| x.fit.gpus_used_per_node == 2.0).expect("a 2-GPU fit");
    let w = two.warnings.iter().find(|w| w.cli().starts_with("tight fit")).expect("a tight-fit warning").cli();
    assert!(w.starts_with("tight fit: room for 1 sequence(s) of 4096 tokens"), "{w}");
}

/// Gemma 2 overflows in fp16 (vLLM's `_FLOAT16_NOT_SUPPORTED_MODELS`): on a T4 (no bf16)
/// it is sized in fp32, 9.24e9 × 4 B = 34.4 GiB of weights, with the reason; on an A10 (bf16)
/// in bf16.
#[test]
fn a_model_that_overflows_in_fp16_is_sized_in_fp32_without_bf16() {
    let c = Catalog::bundled().expect("bundled catalog");
    let mut r = Requirements::new(Workload::Inference);
    r.model = Some(ModelSpec::from_model(c.model("gemma-2-9b").expect("model")));
    r.gpu_models = vec!["T4".to_owned(), "A10".to_owned()];
    r.top = 50;
    r.compute_need();
    let o = recommend(&c, &r);
    let t4 = o.recommendations.iter().find(|x| x.gpu_model == "T4").expect("a T4 fit");
    let w = t4.fit.estimate.as_ref().and_then(|e| e.breakdown.first()).expect("weights term");
    assert!((w.gib - 9.24e9 * 4.0 * 1.02 / GIB).abs() < 0.01, "{w:?}");
    assert!(t4.warnings.iter().any(|x| x.cli().contains("runs in fp32")), "{:?}", t4.warnings);
    let a10 = o.recommendations.iter().find(|x| x.gpu_model == "A10").expect("an A10 fit");
    assert!(!a10.warnings.iter().any(|x| x.cli().contains("fp32")), "{:?}", a10.warnings);
}

#[test]
fn training_reports_the_cheapest_setup_in_the_estimate() {
    let c = catalog();
    let o = recommend(&c, &req(Workload::Training, Some(8.03)));
    let est = o.recommendations[0].fit.estimate.as_ref().expect("estimate");
    let setup = est.setup.as_deref().expect("setup");
    // 8.03e9 × 16 B = 119.7 GiB of states over all 8 GPUs = 15.0 each, activations
    // 32 × 2048 × 4096 × 114 B / 8 = 3.6 GiB: no recomputation needed.
    assert!(setup.contains("no activation recomputation") && setup.contains("8 GPUs"), "{setup}");
    assert_eq!(est.layout.and_then(|l| l.recompute), Some(Recompute::None));
}

#[test]
fn inference_spans_nodes_only_when_no_single_node_fits() {
    let c = catalog();
    // 300B bf16 ≈ 586 GiB loaded with its overhead: more than one big node (8 × 73.6 usable).
    let o = recommend(&c, &req(Workload::Inference, Some(300.0)));
    assert_eq!(names(&o), ["Standard_ND8_big"]);
    assert_eq!(o.recommendations[0].fit.nodes, 2);
    assert!(o.recommendations[0].warnings.iter().any(|w| w.cli().contains("multi-node")));
}

#[test]
fn training_across_nodes_needs_infiniband() {
    let c = catalog();
    // 8.03e9 × 18 B = 134.6 GiB of states; 4 small GPUs can't, and multi-node small has no IB.
    let o = recommend(&c, &req(Workload::Training, Some(8.03)));
    assert_eq!(names(&o), ["Standard_ND8_big"]);
    let small = o.rejected.iter().find(|r| r.vm_size == "Standard_NC4_small").expect("rejected");
    assert!(
        small.reason.cli().contains("InfiniBand") || small.reason.cli().contains("cannot be split"),
        "{}",
        small.reason.cli()
    );
}

#[test]
fn mig_chooses_the_smallest_slice_that_fits() {
    let c = catalog();
    let mut r = req(Workload::Inference, Some(1.0));
    r.mig = true;
    let o = recommend(&c, &r);
    assert_eq!(names(&o), ["Standard_ND8_big"]);
    // 1B bf16: 1.863 × 1.02 × 1.05 + 0.25 + 2.3 = 4.55 GiB ≤ 10 GiB × 0.92 = 9.2 → MIG1g, 56 per node.
    let m = o.recommendations[0].fit.mig.as_ref().expect("mig");
    assert_eq!((m.profile.as_str(), m.instances_per_node), ("MIG1g", 56));
    assert_eq!(o.recommendations[0].price_per_instance_hour, Some((30.0f64 / 56.0 * 10_000.0).round() / 10_000.0));
}

#[test]
fn windows_uses_windows_prices_and_sizes() {
    let c = catalog();
    let mut r = req(Workload::Cv, None);
    r.os = Os::Windows;
    let o = recommend(&c, &r);
    assert_eq!(names(&o), ["Standard_ND8_big"]);
    assert_eq!(o.recommendations[0].price_per_hour, Some(40.0));
    assert!(o.recommendations[0].warnings.iter().any(|w| w.cli().contains("WindowsGPUPreview")));
}

#[test]
fn workload_kinds_filter() {
    let c = catalog();
    let video = recommend(&c, &req(Workload::Video, None));
    assert_eq!(names(&video), ["Standard_NC1_small", "Standard_NC4_small"]);
    let hpc = recommend(&c, &req(Workload::Hpc, None));
    assert_eq!(names(&hpc), ["Standard_ND8_big"]);
    let vdi = recommend(&c, &req(Workload::Vdi, None));
    assert!(vdi.recommendations.is_empty());
    assert_eq!(vdi.no_fit().expect("no fit").constraint, Constraint::Workload);
}

fn catalog_with_prices(prices: &str) -> Catalog {
    Catalog::from_yaml(&[
        ("sizes/test.yaml", SIZES),
        ("gpus.yaml", GPUS),
        ("rules.yaml", RULES),
        ("prices.yaml", prices),
        ("models.yaml", MODELS),
    ])
    .expect("test catalog")
}

const WORLD_PRICES: &str = r#"
currency: USD
as_of: test
source: test
sizes:
  Standard_NC1_small: {eastus: {linux: 0.5, linux_spot: 0.1}, westeurope: {linux: 0.7}}
  Standard_NC4_small: {eastus: {linux: 4.0}}
  Standard_ND8_big: {eastus: {linux: 30.0, windows: 40.0}, westeurope: {linux: 20.0}}
"#;

/// With --region a size with no list price there is not sold there; without, each size is
/// priced in its cheapest region.
#[test]
fn region_without_a_list_price_rejects_the_size_unless_include_unpriced() {
    let c = catalog_with_prices(WORLD_PRICES);
    let mut r = req(Workload::Cv, None);
    let o = recommend(&c, &r);
    let regions: Vec<_> = o.recommendations.iter().map(|x| (x.vm_size.as_str(), x.price_region.clone())).collect();
    assert_eq!(
        regions,
        [
            ("Standard_NC1_small", Some("eastus".to_owned())),
            ("Standard_NC4_small", Some("eastus".to_owned())),
            ("Standard_ND8_big", Some("westeurope".to_owned())),
        ]
    );
    r.region = Some("westeurope".into());
    let o = recommend(&c, &r);
    assert_eq!(names(&o), ["Standard_NC1_small", "Standard_ND8_big"]);
    let nc4 = o.rejected.iter().find(|x| x.vm_size == "Standard_NC4_small").expect("rejected");
    assert_eq!(nc4.constraint, Constraint::Region);
    assert!(nc4.reason.cli().contains("no list price in westeurope: not sold there"), "{}", nc4.reason.cli());
    // The retired size has no price anywhere: rejected as retired first.
    assert_eq!(
        o.rejected.iter().find(|x| x.vm_size == "Standard_NC1_old").expect("old").constraint,
        Constraint::Retired
    );

    r.include_unpriced = true;
    let o = recommend(&c, &r);
    assert_eq!(names(&o), ["Standard_NC1_small", "Standard_ND8_big", "Standard_NC4_small"]);
    let last = &o.recommendations[2];
    assert_eq!((last.price_per_hour, last.price_basis.as_str()), (None, "unpriced"));
    assert!(last.warnings.iter().any(|w| w.cli().contains("no list price in westeurope")), "{:?}", last.warnings);
}

/// Nothing sold in the region: the --region stage is named, not a stage before it.
#[test]
fn a_region_with_no_prices_names_the_region_as_the_constraint() {
    let c = catalog_with_prices(WORLD_PRICES);
    let mut r = req(Workload::Cv, None);
    r.region = Some("brazilsouth".into());
    let o = recommend(&c, &r);
    assert!(o.recommendations.is_empty());
    assert_eq!(o.no_fit().expect("no fit").constraint, Constraint::Region);
    assert_eq!(Constraint::Region.setting(), Some(Setting::Location), "the region is the location setting");
}

/// Windows with no Windows price: ranked by the Linux price, shown as unknown. A region
/// with a known Windows price wins the region choice over a cheaper Linux-only one.
#[test]
fn windows_without_a_windows_price_ranks_by_linux_and_shows_unknown() {
    let c = catalog_with_prices(WORLD_PRICES);
    let mut r = req(Workload::Cv, None);
    r.os = Os::Windows;
    let o = recommend(&c, &r);
    let big = &o.recommendations[0];
    assert_eq!(big.price_region.as_deref(), Some("eastus"));
    assert_eq!((big.price_per_hour, big.price_basis.as_str()), (Some(40.0), "windows on-demand"));
    r.region = Some("westeurope".into());
    let o = recommend(&c, &r);
    let big = &o.recommendations[0];
    assert_eq!(big.price_per_hour, None);
    assert_eq!(big.rank_price_per_hour, Some(20.0));
    assert_eq!(big.price_basis, "linux on-demand (windows unknown)");
    assert!(big.warnings.iter().any(|w| w.cli().contains("windows on-demand price unknown in westeurope")));
}

/// Spot: known spot prices rank first; unknown ones after, by their on-demand price.
#[test]
fn unknown_spot_ranks_after_known_spot_by_on_demand_price() {
    let c = catalog_with_prices(WORLD_PRICES);
    let mut r = req(Workload::Cv, None);
    r.spot = true;
    let o = recommend(&c, &r);
    assert_eq!(names(&o), ["Standard_NC1_small", "Standard_NC4_small", "Standard_ND8_big"]);
    assert_eq!(o.recommendations[0].price_per_hour, Some(0.1));
    let tail: Vec<_> = o.recommendations[1..].iter().map(|x| (x.price_per_hour, x.rank_price_per_hour)).collect();
    assert_eq!(tail, [(None, Some(4.0)), (None, Some(20.0))]);
    assert_eq!(o.recommendations[1].price_basis, "linux on-demand (spot unknown)");
}

#[test]
fn ranges() {
    let r = Range { min: Some(16.0), max: None };
    assert!(r.contains(16.0));
    assert!(!r.contains(15.9));
    assert_eq!(r.describe(" GiB"), "≥ 16 GiB");
    assert_eq!(Range { min: Some(2.0), max: Some(2.0) }.describe(""), "exactly 2");
}

#[test]
fn numbers_format_short() {
    assert_eq!(fmt_num(80.0), "80");
    assert_eq!(fmt_num(0.5), "0.5");
    assert_eq!(fmt_num(13.44), "13.44");
}

/// The precision advice chooses and prices sizes by the first answer's price table: a price
/// in that table is the one its cheapest size is chosen and priced by.
#[test]
fn the_advice_prices_sizes_from_the_first_answers_table() {
    let c = catalog();
    let r = req(Workload::Inference, Some(8.03));
    let mut sizes = priced_sizes(&c, &r);
    let any = |_: &VmSize| true;
    let first = cheapest_below(&c, &r, &sizes, None, &any).expect("a fit");
    // Two nodes of the small size, at its cheapest region's $0.40.
    assert_eq!((first.vm_size.as_str(), first.fit.nodes, first.price_per_hour), ("Standard_NC1_small", 2, Some(0.8)));
    let big = sizes.iter_mut().find(|(s, _)| s.name == "Standard_ND8_big").and_then(|(_, p)| p.as_mut());
    let big = big.expect("priced");
    (big.per_node_hour, big.rank_per_node_hour) = (Some(0.5), Some(0.5));
    let cheaper = cheapest_below(&c, &r, &sizes, None, &any).expect("a fit");
    assert_eq!((cheaper.vm_size.as_str(), cheaper.price_per_hour), ("Standard_ND8_big", Some(0.5)));
}
