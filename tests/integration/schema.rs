//! schema/gpuconfig.schema.json: the example files validate against it, every field the
//! parser writes is in it, and files it must reject are rejected. The validator covers the
//! JSON Schema keywords the schema uses (type, const, enum, properties, required,
//! additionalProperties, items, maxItems, minLength, maxLength, minimum, maximum, $ref);
//! any other keyword in the schema fails the test, so the subset cannot silently grow.

use std::path::Path;

use serde_json::{json, Value};

const KNOWN: &[&str] = &[
    "$schema",
    "$id",
    "$defs",
    "title",
    "description",
    "type",
    "const",
    "enum",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "maxItems",
    "minLength",
    "maxLength",
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "$ref",
];

fn root() -> Value {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/gpuconfig.schema.json"))
        .expect("schema file");
    serde_json::from_str(&text).expect("schema is JSON")
}

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "integer" => v.as_i64().is_some() || v.as_u64().is_some(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        other => panic!("unknown type {other} in the schema"),
    }
}

fn check(root: &Value, s: &Value, v: &Value, at: &str, errs: &mut Vec<String>) {
    let Some(obj) = s.as_object() else { return };
    for k in obj.keys() {
        assert!(KNOWN.contains(&k.as_str()), "the schema uses {k:?}, which this validator does not check");
    }
    if let Some(r) = s["$ref"].as_str() {
        let target = root.pointer(r.trim_start_matches('#')).unwrap_or_else(|| panic!("dangling $ref {r}"));
        check(root, target, v, at, errs);
    }
    match &s["type"] {
        Value::String(t) if !type_ok(t, v) => errs.push(format!("{at}: not {t}")),
        Value::Array(ts) if !ts.iter().any(|t| type_ok(t.as_str().unwrap_or(""), v)) => {
            errs.push(format!("{at}: wrong type"))
        }
        _ => {}
    }
    if let Some(c) = s.get("const") {
        if c != v {
            errs.push(format!("{at}: must be {c}"));
        }
    }
    if let Some(e) = s["enum"].as_array() {
        if !e.contains(v) {
            errs.push(format!("{at}: {v} is not one of {}", Value::Array(e.clone())));
        }
    }
    if let (Some(n), Some(x)) = (s["minLength"].as_u64(), v.as_str()) {
        if (x.chars().count() as u64) < n {
            errs.push(format!("{at}: shorter than {n}"));
        }
    }
    if let (Some(n), Some(x)) = (s["maxLength"].as_u64(), v.as_str()) {
        if x.chars().count() as u64 > n {
            errs.push(format!("{at}: longer than {n}"));
        }
    }
    if let (Some(n), Some(x)) = (s["exclusiveMinimum"].as_f64(), v.as_f64()) {
        if x <= n {
            errs.push(format!("{at}: not above {n}"));
        }
    }
    if let (Some(n), Some(x)) = (s["minimum"].as_f64(), v.as_f64()) {
        if x < n {
            errs.push(format!("{at}: below {n}"));
        }
    }
    if let (Some(n), Some(x)) = (s["maximum"].as_f64(), v.as_f64()) {
        if x > n {
            errs.push(format!("{at}: above {n}"));
        }
    }
    if let Some(items) = v.as_array() {
        if let Some(n) = s["maxItems"].as_u64() {
            if items.len() as u64 > n {
                errs.push(format!("{at}: more than {n} items"));
            }
        }
        if let Some(is) = s.get("items") {
            for (i, x) in items.iter().enumerate() {
                check(root, is, x, &format!("{at}[{i}]"), errs);
            }
        }
    }
    if let Some(map) = v.as_object() {
        for r in s["required"].as_array().into_iter().flatten().filter_map(Value::as_str) {
            if !map.contains_key(r) {
                errs.push(format!("{at}: {r} is required"));
            }
        }
        let props = s["properties"].as_object();
        for (k, x) in map {
            match (props.and_then(|p| p.get(k)), &s["additionalProperties"]) {
                (Some(ps), _) => check(root, ps, x, &format!("{at}.{k}"), errs),
                (None, Value::Bool(false)) => errs.push(format!("{at}: unknown key {k}")),
                (None, extra @ Value::Object(_)) => check(root, extra, x, &format!("{at}.{k}"), errs),
                (None, _) => {}
            }
        }
    }
}

fn errors(v: &Value) -> Vec<String> {
    let r = root();
    let mut errs = Vec::new();
    check(&r, &r, v, "$", &mut errs);
    errs
}

/// A YAML or JSON file as a JSON value.
fn load(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).expect("read example");
    serde_yaml_ng::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_example_file_validates_against_the_schema() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("examples/") {
        let path = entry.expect("entry").path();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !matches!(ext, "yaml" | "yml" | "json") {
            continue;
        }
        let errs = errors(&load(&path));
        assert!(errs.is_empty(), "{}: {errs:?}", path.display());
        seen += 1;
    }
    assert!(seen >= 2, "expected the example files in {}", dir.display());
}

#[test]
fn every_field_the_parser_writes_is_in_the_schema() {
    use aksgpu::plan::gitops::config::*;
    let pool = PoolConfig {
        name: "gpu".into(),
        vm_size: Some("Standard_NC24ads_A100_v4".into()),
        recommend: Some(RecommendConfig {
            workload: Some("inference".into()),
            model: Some("llama-3.1-8b".into()),
            model_params: Some(Params::Text("8B".into())),
            precision: Some("bf16".into()),
            gpu_memory_min: Some("24GB".into()),
            gpu_model: vec!["A100".into()],
            max_price_per_hour: Some(5.0),
            max_price_per_month: Some(3650.0),
            context: Some(4096),
            concurrency: Some(200),
            input_tokens: Some(1024),
            output_tokens: Some(256),
            min_tokens_per_second: Some(4000.0),
            min_tokens_per_second_per_user: Some(20.0),
            max_ttft: Some(Latency::Text("2s".into())),
            kv_cache_precision: Some("fp8".into()),
            tensor_parallel: Some(2),
            pipeline_parallel: Some(1),
            expert_parallel: Some(2),
            rank_by: Some("cost-per-token".into()),
        }),
        count: Some(1),
        min_count: Some(1),
        max_count: Some(2),
        os: Some("linux".into()),
        os_sku: Some("Ubuntu".into()),
        kubernetes_version: Some("1.33".into()),
        taints: Some(vec!["sku=gpu:NoSchedule".into()]),
        labels: [("team".to_owned(), "ml".to_owned())].into(),
        tags: [("cost".to_owned(), "ml".to_owned())].into(),
        gpu_driver: Some("Install".into()),
        mig_profile: Some("MIG1g".into()),
        managed_gpu: true,
        mig_strategy: Some("Mixed".into()),
        mig_profiles: vec!["MIG3g".into(), "MIG3g".into()],
        spot: true,
        spot_max_price: Some(-1.0),
        eviction_policy: Some("Delete".into()),
        zones: vec![Zone::Text("1".into()), Zone::Number(2)],
        max_pods: Some(110),
        os_disk_type: Some("Managed".into()),
        capacity_reservation_group: Some(
            "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/capacityReservationGroups/crg1".into(),
        ),
        fallback_vm_sizes: vec!["Standard_NC48ads_A100_v4".into()],
    };
    let cfg = GpuConfig {
        api_version: API_VERSION.into(),
        kind: KIND.into(),
        cluster: ClusterRef { subscription: Some("s".into()), resource_group: "rg".into(), name: "c1".into() },
        features: vec!["WindowsGPUPreview".into()],
        pools: vec![pool],
        operator: Some(OperatorConfig {
            install: true,
            mig_strategy: Some("mixed".into()),
            chart_version: Some("v26.7.0".into()),
            time_slicing: Some(2),
        }),
        kaito: Some(KaitoConfig { enabled: true, workspaces: vec![] }),
        overrides: vec!["operator-autoscaler-min".into(), "catalog-size-unsupported".into()],
    };
    let v = serde_json::to_value(&cfg).expect("serialize");
    assert_eq!(errors(&v), Vec::<String>::new());
}

#[test]
fn the_schema_rejects_what_the_parser_rejects() {
    let good = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gpuconfig.yaml"));
    let cases = [
        ("/pools/0/colour", json!("blue"), "unknown key colour"),
        ("/kind", json!("Cluster"), "must be"),
        ("/pools/0/maxPods", json!(5), "below 10"),
        ("/pools/0/zones", json!([4]), "is not one of"),
        ("/operator/migStrategy", json!("all"), "is not one of"),
        ("/pools/0/count", json!("two"), "not integer"),
        ("/pools/0/recommend", json!({"model": "llama-3.1-8b", "maxPricePerHour": 0}), "not above 0"),
        ("/pools/0/recommend", json!({"model": "llama-3.1-8b", "rankBy": "speed"}), "is not one of"),
        ("/pools/0/recommend", json!({"model": "llama-3.1-8b", "concurrency": 0}), "below 1"),
        ("/pools/0/recommend", json!({"model": "llama-3.1-8b", "maxTtft": true}), "wrong type"),
        ("/pools/0/recommend", json!({"model": "qwen3-30b-a3b", "expertParallel": 0}), "below 1"),
        ("/pools/0/recommend", json!({"model": "qwen3-30b-a3b", "context": 0}), "below 1"),
        ("/pools/0/recommend", json!({"modelParams": true}), "wrong type"),
        ("/overrides", json!(["no-such-rule"]), "is not one of"),
    ];
    for (ptr, value, want) in cases {
        let mut v = good.clone();
        let (parent, key) = ptr.rsplit_once('/').expect("pointer");
        v.pointer_mut(parent).and_then(Value::as_object_mut).expect("parent").insert(key.to_owned(), value);
        let errs = errors(&v);
        assert!(errs.iter().any(|e| e.contains(want)), "{ptr}: {errs:?}");
    }
    let mut v = good;
    v.as_object_mut().expect("object").remove("cluster");
    assert!(errors(&v).iter().any(|e| e.contains("cluster is required")));
}

/// `overrides:` lists exactly the ids `--override` accepts: every rule in catalog/rules.yaml
/// and the two catalog-fact ids, so the schema and the parser refuse the same typos.
#[test]
fn the_schema_lists_every_rule_id_overrides_accepts() {
    let catalog = aksgpu::catalog::Catalog::bundled().expect("catalog");
    let ids = aksgpu::plan::agent_pool::override_ids(&catalog);
    let schema = root();
    let listed: Vec<String> = schema
        .pointer("/properties/overrides/items/enum")
        .and_then(Value::as_array)
        .expect("overrides enum")
        .iter()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    assert_eq!(listed, ids);
}
