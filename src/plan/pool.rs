//! `create-pool`'s requests: the preflight reads, then the PUT that creates the pool.

use super::agent_pool::PoolSpec;
use super::{cluster_path, with_api, Plan, Step, StepKind};
use crate::domain::api;
use crate::domain::Os;

/// The plan: preflight reads, then the PUT. `location` fills the SKU/usage URLs.
pub fn plan(spec: &PoolSpec, location: Option<&str>) -> Plan {
    let sub = &spec.subscription;
    let loc = location.unwrap_or("{cluster-location}");
    let mut steps = vec![
        Step::read(
            StepKind::ReadCluster,
            with_api(&cluster_path(sub, &spec.resource_group, &spec.cluster), api::AKS),
            "preflight: cluster exists, is Succeeded, its location and Kubernetes version",
        ),
        Step::read(StepKind::ReadPool, with_api(&spec.path(), api::AKS), "preflight: does the pool exist already"),
        Step::read(
            StepKind::ReadSkus,
            super::skus_url(sub, loc),
            "preflight: the size is offered in the location, zones and restrictions",
        ),
        Step::read(
            StepKind::ReadUsages,
            format!(
                "/subscriptions/{sub}/providers/Microsoft.Compute/locations/{loc}/usages?api-version={}",
                api::USAGES
            ),
            format!("preflight: vCPU quota (needs {} vCPUs)", spec.vcpus_needed()),
        ),
    ];
    if let Some(g) = &spec.capacity_reservation_group {
        let (group, list) = reservation_urls(g);
        steps.push(Step::read(
            StepKind::ReadReservationGroup,
            group,
            "preflight: the capacity reservation group exists, its region, and how much of it is used",
        ));
        steps.push(Step::read(
            StepKind::ReadReservations,
            list,
            format!("preflight: the group reserves {} with {} free instance(s)", spec.size.name, spec.count),
        ));
    }
    if spec.os == Os::Windows {
        steps.push(Step::read(
            StepKind::ReadFeature,
            feature_path(sub, "WindowsGPUPreview"),
            "preflight: the WindowsGPUPreview feature is Registered",
        ));
    }
    steps.push(
        Step::write(
            StepKind::CreatePool,
            "PUT",
            with_api(&spec.path(), api::AKS),
            Some(spec.body()),
            format!("create GPU pool {} in cluster {}", spec.name, spec.cluster),
        )
        .header("If-None-Match", "*"),
    );
    Plan { steps }
}

/// The plan when the pool's existence comes from the cluster's agentPools list, as `apply`
/// reads it: one list for every pool instead of one GET per pool.
pub fn plan_listed(spec: &PoolSpec, location: Option<&str>) -> Plan {
    let mut p = plan(spec, location);
    let list = with_api(
        &format!("{}/agentPools", cluster_path(&spec.subscription, &spec.resource_group, &spec.cluster)),
        api::AKS,
    );
    for s in p.steps.iter_mut() {
        match s.kind {
            StepKind::ReadPool => {
                *s = Step::read(
                    StepKind::ReadPools,
                    list.clone(),
                    "preflight: which pools exist already (one list for every pool)",
                )
            }
            // One read serves every pool: each pool's own need is checked against it.
            StepKind::ReadUsages => s.purpose = "preflight: vCPU quota (one read for every pool)".into(),
            _ => {}
        }
    }
    p
}

/// A capacity reservation group's URLs: the group with its instance view, and its
/// reservations (Compute `capacityReservation.json`, 2025-04-01).
pub fn reservation_urls(group_id: &str) -> (String, String) {
    let g = group_id.trim_end_matches('/');
    (
        format!("{g}?$expand=instanceView&api-version={}", api::CAPACITY_RESERVATIONS),
        format!("{g}/capacityReservations?api-version={}", api::CAPACITY_RESERVATIONS),
    )
}

/// A `Microsoft.ContainerService` feature's ARM path.
pub fn feature_path(sub: &str, feature: &str) -> String {
    super::features::feature_url(sub, "Microsoft.ContainerService", feature)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;
    use crate::plan::agent_pool::PoolRequest;

    #[test]
    fn listed_plans_read_the_pool_list_and_share_their_reads() {
        let catalog = Catalog::bundled().expect("catalog");
        let spec = |name: &str| {
            let req = PoolRequest { name: name.into(), ..PoolRequest::example("Standard_NC24ads_A100_v4") };
            PoolSpec::validate(&catalog, &req).expect("valid")
        };
        let mut all = Plan::default();
        for name in ["a", "b"] {
            let p = plan_listed(&spec(name), Some("eastus"));
            assert!(p.step(StepKind::ReadPool).is_none());
            assert!(p.step(StepKind::ReadPools).is_some_and(|s| s.url.contains("/agentPools?api-version=")));
            all.steps.extend(p.steps);
        }
        all.dedup_reads();
        let kinds: Vec<StepKind> = all.steps.iter().map(|s| s.kind).collect();
        use StepKind::*;
        assert_eq!(kinds, [ReadCluster, ReadPools, ReadSkus, ReadUsages, CreatePool, CreatePool]);
    }
}
