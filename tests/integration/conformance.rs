//! Conformance with Microsoft's own OpenAPI spec and examples (vendored in `tests/specs/arm`,
//! see its SOURCES.md): every request body the tool builds validates against the AgentPool
//! schema of `aks/2026-10-01/managedClusters.json`, and the GPU examples round-trip through
//! the client's types without losing GPU fields. A fresh clone runs them all.

use std::path::PathBuf;

use serde_json::{Map, Value};

use aksgpu::catalog::Catalog;
use aksgpu::plan::agent_pool::{PoolRequest, PoolSpec};
use aksgpu::recommend::Os;

/// The AKS spec the request bodies are checked against, below the specs directory.
const MANAGED_CLUSTERS: &str = "aks/2026-10-01/managedClusters.json";

/// The specs vendored in this repository (`tests/specs/arm`, see its SOURCES.md): always there.
fn vendored(rel: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/specs/arm").join(rel);
    assert!(p.is_file(), "{} is missing: the vendored specs belong to the repository", p.display());
    p
}

fn load(path: &PathBuf) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read spec")).expect("spec parses")
}

/// A strict subset of JSON Schema / Swagger 2.0: $ref, allOf, type, enum, readOnly,
/// minimum/maximum, items, additionalProperties; unknown properties are errors.
struct Validator<'a> {
    defs: &'a Map<String, Value>,
}

impl<'a> Validator<'a> {
    /// A validator for the definitions of the spec `doc`.
    fn of(doc: &'a Value) -> Self {
        Validator { defs: doc["definitions"].as_object().expect("definitions") }
    }

    fn resolve<'b>(&'b self, schema: &'b Value) -> &'b Value {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(r) if r.starts_with("#/definitions/") => {
                self.defs.get(&r["#/definitions/".len()..]).unwrap_or_else(|| panic!("missing definition {r}"))
            }
            _ => schema,
        }
    }

    /// All properties of an object schema, through allOf; external refs (common-types
    /// ProxyResource) contribute the read-only id, name, type.
    fn properties(&self, schema: &Value, out: &mut Map<String, Value>) {
        let schema = self.resolve(schema);
        if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            if r.contains("ProxyResource") || r.contains("Resource") {
                for k in ["id", "name", "type", "systemData"] {
                    out.insert(k.into(), serde_json::json!({"readOnly": true}));
                }
            }
        }
        if let Some(p) = schema.get("properties").and_then(Value::as_object) {
            for (k, v) in p {
                out.insert(k.clone(), v.clone());
            }
        }
        for sub in schema.get("allOf").and_then(Value::as_array).into_iter().flatten() {
            self.properties(sub, out);
        }
    }

    fn check(&self, schema: &Value, value: &Value, path: &str, errors: &mut Vec<String>) {
        let schema = self.resolve(schema);
        // A polymorphic base (Swagger `discriminator`): check against the subtype named.
        if let Some(field) = schema.get("discriminator").and_then(Value::as_str) {
            if let Some(kind) = value.get(field).and_then(Value::as_str) {
                let sub = self.defs.iter().find(|(name, d)| {
                    d.get("allOf").is_some()
                        && (d.get("x-ms-discriminator-value").and_then(Value::as_str) == Some(kind)
                            || name.as_str() == kind)
                });
                match sub {
                    Some((_, d)) => return self.check(d, value, path, errors),
                    None => errors.push(format!("{path}.{field}: no subtype {kind}")),
                }
            }
        }
        if let Some(e) = schema.get("enum").and_then(Value::as_array) {
            if !e.contains(value) {
                errors.push(format!("{path}: {value} is not one of {e:?}"));
            }
        }
        let ty = schema.get("type").and_then(Value::as_str);
        match (ty, value) {
            (Some("string"), Value::String(_))
            | (Some("boolean"), Value::Bool(_))
            | (Some("number"), Value::Number(_))
            | (None, _) => {}
            (Some("integer"), Value::Number(n)) if n.is_i64() || n.is_u64() => {}
            (Some("array"), Value::Array(items)) => {
                if let Some(item) = schema.get("items") {
                    for (i, v) in items.iter().enumerate() {
                        self.check(item, v, &format!("{path}[{i}]"), errors);
                    }
                }
            }
            (Some("object"), Value::Object(_)) => {}
            (Some(t), v) => errors.push(format!("{path}: expected {t}, got {v}")),
        }
        if let Some(n) = value.as_f64() {
            if schema.get("minimum").and_then(Value::as_f64).is_some_and(|m| n < m) {
                errors.push(format!("{path}: {n} below minimum"));
            }
            if schema.get("maximum").and_then(Value::as_f64).is_some_and(|m| n > m) {
                errors.push(format!("{path}: {n} above maximum"));
            }
        }
        if let Value::Object(obj) = value {
            let mut props = Map::new();
            self.properties(schema, &mut props);
            let additional = schema.get("additionalProperties");
            for (k, v) in obj {
                let p = format!("{path}.{k}");
                match props.get(k) {
                    Some(ps) => {
                        if ps.get("readOnly").and_then(Value::as_bool) == Some(true)
                            || self.resolve(ps).get("readOnly").and_then(Value::as_bool) == Some(true)
                        {
                            errors.push(format!("{p}: read-only, must not be sent"));
                        }
                        self.check(ps, v, &p, errors);
                    }
                    None => match additional {
                        Some(a) if a.is_object() => self.check(a, v, &p, errors),
                        _ => errors.push(format!("{p}: not in the schema")),
                    },
                }
            }
        }
    }
}

fn spec(f: impl FnOnce(&mut PoolRequest)) -> PoolSpec {
    let mut r = PoolRequest::example("Standard_NC24ads_A100_v4");
    f(&mut r);
    PoolSpec::validate(&Catalog::bundled().expect("catalog"), &r).expect("valid request")
}

#[test]
fn every_request_body_validates_against_the_agent_pool_schema() {
    let doc = load(&vendored(MANAGED_CLUSTERS));
    let v = Validator::of(&doc);
    let defs = v.defs;
    let agent_pool = &defs["AgentPool"];
    let bodies = [
        ("gpu", spec(|_| {})),
        (
            "mig",
            spec(|r| {
                r.vm_size = "Standard_ND96asr_v4".into();
                r.mig_profile = Some("MIG3g".into());
            }),
        ),
        (
            "windows",
            spec(|r| {
                r.vm_size = "Standard_NC4as_T4_v3".into();
                r.os = Some(Os::Windows);
                r.os_sku = Some("Windows2022".into());
                r.name = "gpuw".into();
                r.kubernetes_version = aksgpu::catalog::KubeVersion::parse("1.30").ok();
            }),
        ),
        (
            "spot",
            spec(|r| {
                r.spot = true;
                r.spot_max_price = Some(2.5);
                r.eviction_policy = Some(aksgpu::domain::EvictionPolicy::Deallocate);
                r.zones = vec!["1".into(), "2".into()];
            }),
        ),
        (
            "driver-none",
            spec(|r| {
                r.gpu_driver = Some(aksgpu::domain::GpuDriver::None);
                r.os_sku = Some("Ubuntu2404".into());
            }),
        ),
        ("amd", spec(|r| r.vm_size = "Standard_ND96isr_MI300X_v5".into())),
        (
            "capacity-reservation",
            spec(|r| {
                r.capacity_reservation_group = Some(
                    "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/capacityReservationGroups/crg1"
                        .into(),
                );
            }),
        ),
        (
            "autoscaler",
            spec(|r| {
                r.min_count = Some(1);
                r.max_count = Some(4);
                r.labels = vec!["team=ml,accelerator=nvidia".into()];
                r.tags = vec!["owner=aksgpu".into()];
                r.max_pods = Some(110);
                r.os_disk_type = Some(aksgpu::domain::OsDiskType::Managed);
                r.taints = Some(vec!["sku=gpu:NoSchedule".into(), "nvidia.com/gpu=present:NoExecute".into()]);
            }),
        ),
    ];
    for (name, s) in bodies {
        let mut errors = Vec::new();
        v.check(agent_pool, &s.body(), "body", &mut errors);
        assert!(errors.is_empty(), "{name} body does not match the spec:\n{}\n{}", errors.join("\n"), s.body());
    }
    // The validator itself rejects what the spec forbids.
    let mut errors = Vec::new();
    v.check(
        agent_pool,
        &serde_json::json!({"properties": {"vmSize": "x", "gpuInstanceProfile": "MIG5g", "eTag": "x", "bogus": 1, "count": "3"}}),
        "body",
        &mut errors,
    );
    assert_eq!(errors.len(), 4, "{errors:?}");
}

#[test]
fn gpu_examples_carry_the_fields_the_tool_reads() {
    // The executor reads pools as JSON at fixed pointers (operator.rs: vmSize, osType,
    // gpuProfile.driver; preflight and diff: gpuInstanceProfile, scaleSetPriority, osSKU). The
    // service's own examples must have them there.
    let examples = vendored("aks/2026-08-01/examples/AgentPoolsGet.json").with_file_name("");
    let mut seen = 0;
    for name in [
        "AgentPoolsCreate_GPUMIG.json",
        "AgentPoolsCreate_ManagedGPU.json",
        "AgentPoolsGet.json",
        "AgentPoolsCreate_Spot.json",
        "AgentPoolsCreate_WindowsOSSKU.json",
    ] {
        let ex = load(&examples.join(name));
        let mut bodies = vec![ex["parameters"]["parameters"].clone()];
        for (_, resp) in ex["responses"].as_object().into_iter().flatten() {
            if resp["body"].is_object() {
                bodies.push(resp["body"].clone());
            }
        }
        for body in bodies.into_iter().filter(|b| b.is_object()) {
            assert!(body.pointer("/properties/vmSize").is_some_and(serde_json::Value::is_string), "{name}: vmSize");
            seen += 1;
        }
    }
    assert!(seen >= 8, "only {seen} bodies checked");
    let at = |file: &str, pointer: &str| {
        load(&examples.join(file))["parameters"]["parameters"]
            .pointer(pointer)
            .and_then(|v| v.as_str())
            .map(str::to_owned)
    };
    assert_eq!(at("AgentPoolsCreate_GPUMIG.json", "/properties/gpuInstanceProfile").as_deref(), Some("MIG2g"));
    assert_eq!(at("AgentPoolsCreate_ManagedGPU.json", "/properties/gpuProfile/driver").as_deref(), Some("Install"));
    assert_eq!(at("AgentPoolsCreate_Spot.json", "/properties/scaleSetPriority").as_deref(), Some("Spot"));
    assert_eq!(at("AgentPoolsCreate_WindowsOSSKU.json", "/properties/osType").as_deref(), Some("Windows"));
}

/// The bodies built from a GET (KAITO, cost analysis, pool scale) carry no read-only field
/// and nothing the 2026-10-01 schema does not know.
#[test]
fn bodies_built_from_gets_validate() {
    let doc = load(&vendored(MANAGED_CLUSTERS));
    let v = Validator::of(&doc);
    let defs = v.defs;
    let examples = vendored("aks/2026-08-01/examples/ManagedClustersGet.json").with_file_name("");
    let cluster = load(&examples.join("ManagedClustersGet.json"))["responses"]["200"]["body"].clone();
    assert!(cluster.is_object());
    // The GET itself is full of read-only fields, so the checks below are not vacuous.
    let mut raw = Vec::new();
    v.check(&defs["ManagedCluster"], &cluster, "body", &mut raw);
    assert!(raw.iter().filter(|e| e.contains("read-only")).count() >= 3, "{raw:?}");
    let mut paid = cluster.clone();
    paid["sku"] = serde_json::json!({"name": "Base", "tier": "Standard"});
    let read = |v: &serde_json::Value| {
        aksgpu::resources::AsRead::<aksgpu::resources::ManagedCluster>::parse(v.clone(), "cluster").expect("typed")
    };
    for (name, body) in [
        ("kaito", aksgpu::plan::cluster::enable_kaito(&read(&cluster))),
        ("cost-analysis", aksgpu::plan::cluster::enable_cost_analysis(&read(&paid)).expect("paid tier")),
    ] {
        let mut errors = Vec::new();
        v.check(&defs["ManagedCluster"], &body, "body", &mut errors);
        let read_only: Vec<&String> = errors.iter().filter(|e| e.contains("read-only")).collect();
        assert!(read_only.is_empty(), "{name} echoes read-only fields: {read_only:?}");
    }
    let pool = load(&examples.join("AgentPoolsGet.json"))["responses"]["200"]["body"].clone();
    let read = aksgpu::resources::AsRead::parse(pool.clone(), "agent pool").expect("typed");
    let scaled = aksgpu::plan::cluster::scale_pool(&read, aksgpu::plan::cluster::Scale::Autoscale { min: 1, max: 5 })
        .expect("scales");
    let mut raw = Vec::new();
    v.check(&defs["AgentPool"], &pool, "body", &mut raw);
    assert!(raw.iter().any(|e| e.contains("read-only")), "{raw:?}");
    let mut errors = Vec::new();
    v.check(&defs["AgentPool"], &scaled, "body", &mut errors);
    assert!(errors.is_empty(), "scale body: {errors:?}");
}

/// The pool field `--capacity-reservation-group` sets is the one AKS's example uses.
#[test]
fn the_capacity_reservation_field_is_the_one_in_aks_example() {
    let ex = load(&vendored("aks/2026-08-01/examples/AgentPoolsCreate_CRG.json"));
    let want = ex["parameters"]["parameters"]["properties"]["capacityReservationGroupID"].as_str().expect("example id");
    let s = spec(|r| r.capacity_reservation_group = Some(want.to_owned()));
    assert_eq!(s.body()["properties"]["capacityReservationGroupID"], want);
}

/// The Microsoft.Quota request body validates against `CurrentQuotaLimitBase` of quota.json
/// 2025-09-01, equals Microsoft's example for the same family and limit, and the status
/// examples parse to the states the command reports.
#[test]
fn quota_request_body_and_status_follow_the_quota_spec() {
    let doc = load(&vendored("quota/2025-09-01/quota.json"));
    let v = Validator::of(&doc);
    let base = &v.defs["CurrentQuotaLimitBase"];
    let body = aksgpu::plan::quota::body("standardNCADSA100v4Family", 120);
    let mut errors = Vec::new();
    v.check(base, &body, "body", &mut errors);
    assert!(errors.is_empty(), "{errors:?}\n{body}");
    let ex = load(&vendored("quota/2025-09-01/examples/putComputeOneSkuQuotaRequest.json"));
    assert_eq!(aksgpu::plan::quota::body("standardFSv2Family", 10), ex["parameters"]["createQuotaRequest"]);
    let loc = ex["responses"]["202"]["headers"]["location"].as_str().expect("location");
    assert_eq!(aksgpu::plan::quota::request_id(loc).as_deref(), Some("2B5C8515-37D8-4B6A-879B-CD641A2CF605"));
    // The validator is not vacuous: a wrong kind, a string limit and a read-only field fail.
    let mut bad = Vec::new();
    v.check(
        base,
        &serde_json::json!({"properties": {"limit": {"limitObjectType": "Nope"}, "unit": "Count"}}),
        "body",
        &mut bad,
    );
    v.check(
        base,
        &serde_json::json!({"properties": {"limit": {"limitObjectType": "LimitValue", "value": "10"}}}),
        "body",
        &mut bad,
    );
    assert_eq!(bad.len(), 4, "{bad:?}");
    for (file, state) in [
        ("quota/2025-07-15/examples/getQuotaRequestStatusFailed.json", "Failed"),
        ("quota/2025-03-01/examples/getQuotaRequestStatusInProgress.json", "InProgress"),
    ] {
        let body = &load(&vendored(file))["responses"]["200"]["body"];
        let read = aksgpu::resources::parse(body, "quota request").expect("the documented shape");
        let s = aksgpu::plan::quota::RequestStatus::of("id", read);
        assert_eq!(s.state, state, "{file}");
        assert_eq!(s.is_final(), state == "Failed", "{file}");
    }
}

/// What preflight reads of a capacity reservation group is where Microsoft's examples put it:
/// the group's location and instance view, each reservation's sku name and capacity.
#[test]
fn capacity_reservation_examples_carry_what_preflight_reads() {
    let dir = "compute/computerp/2025-04-01/examples/capacityReservationExamples";
    let group =
        load(&vendored(&format!("{dir}/CapacityReservationGroup_Get.json")))["responses"]["200"]["body"].clone();
    let list = load(&vendored(&format!("{dir}/CapacityReservation_ListByReservationGroup.json")))["responses"]["200"]
        ["body"]["value"]
        .as_array()
        .cloned()
        .expect("reservations");
    // The list example's names are placeholders (`{capacityReservationName}`); the group
    // example's instance view names them myCapacityReservation1 and 2.
    let typed_group = || Some(aksgpu::resources::parse(&group, "capacity reservation group").expect("group"));
    let typed_list = |l: &[serde_json::Value]| aksgpu::resources::parse_listed(l).expect("reservations");
    let unnamed = aksgpu::plan::preflight::Reservation { group: typed_group(), reservations: typed_list(&list) };
    let e = unnamed.free("Standard_DS1_v2").expect_err("no utilization for an unnamed reservation");
    assert_eq!(e.field, "instanceView.utilizationInfo", "{e}");
    let mut list = list;
    for (i, r) in list.iter_mut().enumerate() {
        r["name"] = serde_json::json!(format!("myCapacityReservation{}", i + 1));
    }
    let r = aksgpu::plan::preflight::Reservation { group: typed_group(), reservations: typed_list(&list) };
    assert_eq!(r.sizes().expect("typed").first().map(String::as_str), Some("Standard_DS1_v2"));
    // currentCapacity 5, two VMs allocated.
    assert_eq!(r.free("Standard_DS1_v2").expect("typed"), Some(3));
    assert!(group["location"].is_string());
    // The spec defines the fields read.
    let doc = load(&vendored("compute/computerp/2025-04-01/capacityReservation.json"));
    let defs = doc["definitions"].as_object().expect("defs");
    assert!(defs["CapacityReservationGroupProperties"]["properties"].get("instanceView").is_some());
    assert!(defs["CapacityReservationUtilization"]["properties"].get("virtualMachinesAllocated").is_some());
    assert!(defs["CapacityReservationInstanceViewWithName"]["properties"].get("name").is_some());
}

/// The spec for `api_version`: 2026-10-01's definitions, with the GPU definitions of
/// `aks/gpu-definitions.json` (verbatim from the 2026-08-01 and 2026-10-02-preview spec files,
/// see SOURCES.md) in place of its own for the versions that have `gpuProfile.nvidia`.
fn spec_for(api_version: &str) -> Value {
    let mut doc = load(&vendored(MANAGED_CLUSTERS));
    if api_version == aksgpu::arm::api::AKS {
        return doc;
    }
    let gpu = load(&vendored("aks/gpu-definitions.json"));
    let extra =
        gpu[api_version]["definitions"].as_object().unwrap_or_else(|| panic!("no GPU definitions for {api_version}"));
    let defs = doc["definitions"].as_object_mut().expect("definitions");
    for (k, v) in extra {
        defs.insert(k.clone(), v.clone());
    }
    doc
}

/// Managed GPU and managed MIG bodies validate against the spec of the api-version they are
/// sent with, and not against 2026-10-01 (whose GPUProfile has no `nvidia`); Microsoft's own
/// examples validate against the same schemas, so the overlay is the spec's shape.
#[test]
fn managed_gpu_and_mig_bodies_validate_against_the_api_version_they_are_sent_with() {
    let bodies = [
        (
            "managed",
            spec(|r| {
                r.vm_size = "Standard_NC4as_T4_v3".into();
                r.managed_gpu = true;
            }),
        ),
        (
            "managed-mig-mixed",
            spec(|r| {
                r.vm_size = "Standard_ND96asr_v4".into();
                r.managed_gpu = true;
                r.mig_strategy = Some("Mixed".into());
                r.mig_profiles = vec!["MIG3g".into(), "MIG2g".into(), "MIG1g".into(), "MIG1g".into()];
            }),
        ),
        (
            "managed-mig-single",
            spec(|r| {
                r.managed_gpu = true;
                r.mig_strategy = Some("single".into());
                r.mig_profiles = vec!["mig3g".into()];
            }),
        ),
    ];
    for (name, s) in &bodies {
        let version = s.api_version();
        assert_ne!(version, aksgpu::arm::api::AKS, "{name}: sent with a version that has gpuProfile.nvidia");
        let doc = spec_for(version);
        let v = Validator::of(&doc);
        let mut errors = Vec::new();
        v.check(&v.defs["AgentPool"], &s.body(), "body", &mut errors);
        assert!(errors.is_empty(), "{name} ({version}):\n{}\n{}", errors.join("\n"), s.body());
        // With the version the plain pools use, the same body is refused: the check can fail.
        let old = load(&vendored(MANAGED_CLUSTERS));
        let v = Validator::of(&old);
        let mut errors = Vec::new();
        v.check(&v.defs["AgentPool"], &s.body(), "body", &mut errors);
        assert!(errors.iter().any(|e| e.contains("nvidia: not in the schema")), "{name}: {errors:?}");
    }
    assert_eq!(bodies[0].1.api_version(), "2026-08-01");
    assert_eq!(bodies[1].1.api_version(), aksgpu::arm::api::AKS_MANAGED_MIG);
    for (file, version) in [
        ("aks/2026-08-01/examples/AgentPoolsCreate_ManagedGPU.json", "2026-08-01"),
        ("aks/2026-08-02-preview/examples/AgentPoolsCreate_SingleMIG.json", aksgpu::arm::api::AKS_MANAGED_MIG),
        ("aks/2026-08-02-preview/examples/AgentPoolsCreate_MixedMIG.json", aksgpu::arm::api::AKS_MANAGED_MIG),
    ] {
        let doc = spec_for(version);
        let v = Validator::of(&doc);
        let mut errors = Vec::new();
        v.check(&v.defs["AgentPool"], &load(&vendored(file))["parameters"]["parameters"], "example", &mut errors);
        assert!(errors.is_empty(), "{file}: {errors:?}");
    }
    // A migStrategy the spec does not list is refused.
    let doc = spec_for(aksgpu::arm::api::AKS_MANAGED_MIG);
    let v = Validator::of(&doc);
    let mut errors = Vec::new();
    let bad = serde_json::json!({"properties": {"gpuProfile": {"nvidia": {"managementMode": "Managed", "migStrategy": "Sometimes"}}}});
    v.check(&v.defs["AgentPool"], &bad, "body", &mut errors);
    assert_eq!(errors.len(), 1, "{errors:?}");
}

/// The GPU Operator's label update (`install-operator --label-pools`) is the pool as Microsoft's
/// AgentPoolsGet example returns it, writable fields only, plus one label: it validates against
/// the 2026-08-01 schema it is sent with.
#[test]
fn the_label_update_body_validates_against_2026_08_01() {
    let got = load(&vendored("aks/2026-08-01/examples/AgentPoolsGet.json"))["responses"]["200"]["body"].clone();
    let t = aksgpu::plan::cluster_ops::Target { subscription: "s", resource_group: "rg", cluster: "c1" };
    let plan = aksgpu::plan::cluster_ops::label_pool(
        t,
        "agentpool1",
        &aksgpu::resources::AsRead::parse(got, "agent pool").expect("typed"),
        ("nvidia.com/gpu.deploy.driver", "false"),
        "2026-08-01",
    );
    let put = plan.steps.iter().find(|s| s.method == "PUT").expect("a PUT");
    let body = put.body.clone().expect("a body");
    assert_eq!(body["properties"]["nodeLabels"]["nvidia.com/gpu.deploy.driver"], "false");
    let doc = spec_for("2026-08-01");
    let v = Validator::of(&doc);
    let mut errors = Vec::new();
    v.check(&v.defs["AgentPool"], &body, "body", &mut errors);
    assert!(errors.is_empty(), "{errors:?}\n{body}");
}
