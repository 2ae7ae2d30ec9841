//! Property tests: parsers, validators and the recommender never panic, whatever the input.

use proptest::prelude::*;

use aksgpu::catalog::{Catalog, GpuCount, KubeVersion};
use aksgpu::recommend::{recommend, ModelSpec, Os, Precision, Range, Requirements, Workload};
use aksgpu::units;

const PRECISIONS: [Precision; 6] =
    [Precision::Fp32, Precision::Bf16, Precision::Fp16, Precision::Fp8, Precision::Int8, Precision::Int4];

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn quantity_parsers_never_panic(s in ".{0,24}") {
        let _ = units::parse_memory(&s);
        let _ = units::parse_params(&s);
        let _ = units::parse_price(&s);
        let _ = units::parse_count(&s);
        let _ = aksgpu::catalog::parse_gpus(&s);
        let _ = GpuCount::parse(&s);
        let _ = KubeVersion::parse(&s);
    }

    #[test]
    fn memory_parser_accepts_what_it_should(n in 0u32..5_000, unit in prop::sample::select(vec!["", "g", "G", "GiB", "gi", "GB", "MiB", "m", "TB"])) {
        let text = format!("{n}{unit}");
        let m = units::parse_memory(&text).expect("valid memory parses");
        prop_assert!(m.gib >= 0.0 && m.gib.is_finite());
    }

    #[test]
    fn recommender_never_panics(
        workload in 0usize..8,
        precision in 0usize..6,
        params in prop::option::of(0.01f64..3000.0),
        context in 1u64..2_000_000,
        concurrency in 1u64..512,
        gpu_min in prop::option::of(0.0f64..2000.0),
        gpus in prop::option::of(0.1f64..16.0),
        price in prop::option::of(0.01f64..1000.0),
        windows in any::<bool>(),
        spot in any::<bool>(),
        mig in any::<bool>(),
        retired in any::<bool>(),
        top in 1usize..100,
    ) {
        let catalog = Catalog::bundled().expect("catalog");
        let mut req = Requirements::new(Workload::ALL[workload]);
        req.precision = PRECISIONS[precision];
        req.model = params.map(|p| ModelSpec::from_params(&catalog, p));
        req.context = context;
        req.concurrency = concurrency;
        req.gpu_memory_gib = Range { min: gpu_min, max: None };
        req.gpus = Range { min: gpus, max: None };
        req.max_price_per_hour = price;
        req.os = if windows { Os::Windows } else { Os::Linux };
        req.spot = spot;
        req.mig = mig;
        req.include_retired = retired;
        req.top = top;
        req.compute_need();
        let out = recommend(&catalog, &req);
        prop_assert!(out.recommendations.len() <= top);
        prop_assert_eq!(out.recommendations.len() + out.rejected.len() + out.below_top.len(), catalog.sizes.len());
        prop_assert!(out.rejected.iter().all(|r| r.constraint != aksgpu::recommend::Constraint::Top));
        for r in &out.recommendations {
            if let Some(p) = r.price_per_hour { prop_assert!(p > 0.0); }
            if let (Some(max), Some(p)) = (price, r.price_per_hour) { prop_assert!(p <= max + 0.01); }
            prop_assert!(r.fit.required_per_gpu_gib <= r.fit.available_per_gpu_gib + 1e-9);
        }
        if out.recommendations.is_empty() {
            prop_assert!(out.no_fit().is_some());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn pool_validator_never_panics(
        name in ".{0,16}",
        size in prop::sample::select(vec!["Standard_NC24ads_A100_v4", "nd96asr_v4", "Standard_NV6ads_A10_v5", "Standard_ND96isr_MI300X_v5", "bogus", ""]),
        taint in ".{0,30}",
        label in ".{0,30}",
        tag in ".{0,30}",
        mig in prop::option::of(".{0,8}"),
        counts in (prop::option::of(0u32..2000), prop::option::of(0u32..2000), prop::option::of(0u32..2000)),
        spot_price in prop::option::of(-5.0f64..5.0),
        zones in ".{0,6}",
        os_sku in prop::option::of(".{0,12}"),
        version in prop::option::of(".{0,8}"),
        windows in any::<bool>(),
    ) {
        let catalog = Catalog::bundled().expect("catalog");
        let req = aksgpu::plan::agent_pool::PoolRequest {
            name,
            count: counts.0,
            min_count: counts.1,
            max_count: counts.2,
            os: Some(if windows { Os::Windows } else { Os::Linux }),
            os_sku,
            kubernetes_version: version.and_then(|v| aksgpu::catalog::KubeVersion::parse(&v).ok()),
            taints: Some(vec![taint]),
            labels: vec![label],
            mig_profile: mig,
            spot: spot_price.is_some(),
            spot_max_price: spot_price,
            zones: vec![zones],
            tags: vec![tag],
            ..aksgpu::plan::agent_pool::PoolRequest::example(size)
        };
        if let Ok(spec) = aksgpu::plan::agent_pool::PoolSpec::validate(&catalog, &req) {
            let body = spec.body();
            prop_assert!(body["properties"]["vmSize"].is_string());
            prop_assert!(spec.vcpus_needed() > 0);
        }
    }
}
