//! `create-pool`'s requests: the preflight reads, then the PUT that creates the pool.

use super::agent_pool::PoolSpec;
use super::{cluster_path, with_api, Follow, Plan, Step, StepKind};
use crate::domain::api;
use crate::domain::Os;

/// The preview feature AKS-managed GPU pools need (the catalog's `managed-gpu-feature` rule).
pub const MANAGED_GPU_FEATURE: &str = "ManagedGPUExperiencePreview";

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
        Step::read(StepKind::ReadPool, pool_url(spec), "preflight: does the pool exist already"),
        Step::read(
            StepKind::ReadSkus,
            super::skus_url(sub, loc),
            "preflight: the size is offered in the location, zones and restrictions",
        )
        .then_follows(Follow::NextLink),
        Step::read(
            StepKind::ReadUsages,
            format!(
                "/subscriptions/{sub}/providers/Microsoft.Compute/locations/{loc}/usages?api-version={}",
                api::USAGES
            ),
            format!("preflight: vCPU quota (needs {} vCPUs)", spec.vcpus_needed()),
        )
        .then_follows(Follow::NextLink),
    ];
    if super::install::may_need_driver_label(spec) {
        steps.push(super::read_pools(
            &cluster_path(sub, &spec.resource_group, &spec.cluster),
            "preflight: does any GPU pool leave its driver to the GPU Operator (then this pool gets nvidia.com/gpu.deploy.driver=false)",
        ));
    }
    if let Some(g) = &spec.capacity_reservation_group {
        let [group, list] = reservation_reads(g);
        steps.push(group);
        steps.push(
            list.saying(format!(
                "preflight: the group reserves {} with {} free instance(s)",
                spec.size.name, spec.count
            )),
        );
    }
    if spec.os == Os::Windows {
        steps.push(Step::read(
            StepKind::ReadFeature,
            feature_path(sub, "WindowsGPUPreview"),
            "preflight: the WindowsGPUPreview feature is Registered",
        ));
    } else if spec.managed_gpu() {
        steps.push(Step::read(
            StepKind::ReadFeature,
            feature_path(sub, MANAGED_GPU_FEATURE),
            format!("preflight: the {MANAGED_GPU_FEATURE} feature is Registered (AKS-managed GPU pools)"),
        ));
    }
    steps.push(
        Step::write(
            StepKind::CreatePool,
            "PUT",
            pool_url(spec),
            Some(spec.body()),
            format!("create GPU pool {} in cluster {}", spec.name, spec.cluster),
        )
        .header("If-None-Match", "*")
        .then_follows(Follow::Operation),
    );
    steps.push(await_pool(spec));
    Plan { steps }
}

/// The pool's URL (with the api-version whose spec defines every field of its body).
fn pool_url(spec: &PoolSpec) -> String {
    with_api(&spec.path(), spec.api_version())
}

/// GET the pool a write changes: when its operation ends, and while it runs without an
/// operation URL (also how `aksgpu wait` follows it, and how a lost answer is read back).
pub fn await_pool(spec: &PoolSpec) -> Step {
    Step::read(StepKind::Await, pool_url(spec), format!("read pool {} when the operation ends", spec.name))
        .repeated("while it is Creating, when Azure gives no operation URL")
        .only_if(super::UNLESS_FINAL)
}

/// GET the pool (existence and state), as preflight and waiting on a busy pool do.
pub fn read_pool(spec: &PoolSpec) -> Step {
    Step::read(StepKind::ReadPool, pool_url(spec), format!("read pool {}", spec.name))
}

/// GET the pool's cluster (to wait for its current operation to end).
pub fn read_cluster(spec: &PoolSpec) -> Step {
    super::read_cluster(&cluster_path(&spec.subscription, &spec.resource_group, &spec.cluster), "read the cluster")
}

/// DELETE a pool this run created and that failed (failover only), sent once.
pub fn delete(spec: &PoolSpec) -> Step {
    Step::write(
        StepKind::DeletePool,
        "DELETE",
        pool_url(spec),
        None,
        format!("delete pool {}, created by this run, that failed", spec.name),
    )
}

/// POST the pool operation's abort: sent once, only on Ctrl-C with `--abort-on-interrupt`.
pub fn abort(spec: &PoolSpec) -> Step {
    Step::write(
        StepKind::AbortOperation,
        "POST",
        format!("{}/abort?api-version={}", spec.path(), api::AKS),
        None,
        format!("abort the operation on pool {}", spec.name),
    )
}

/// The reads of a capacity reservation group: the group with its instance view, then its
/// reservations.
pub fn reservation_reads(group_id: &str) -> [Step; 2] {
    let (group, list) = reservation_urls(group_id);
    [
        Step::read(
            StepKind::ReadReservationGroup,
            group,
            "preflight: the capacity reservation group exists, its region, and how much of it is used",
        ),
        Step::read(StepKind::ReadReservations, list, "the group's capacity reservations")
            .then_follows(Follow::NextLink),
    ]
}

/// The plan when the pool's existence comes from the cluster's agentPools list, as `apply`
/// reads it: one list for every pool instead of one GET per pool.
pub fn plan_listed(spec: &PoolSpec, location: Option<&str>) -> Plan {
    let mut p = plan(spec, location);
    let cluster = cluster_path(&spec.subscription, &spec.resource_group, &spec.cluster);
    for s in p.steps.iter_mut() {
        match s.kind {
            StepKind::ReadPool => {
                *s = super::read_pools(&cluster, "preflight: which pools exist already (one list for every pool)")
            }
            // One read serves every pool: each pool's own need is checked against it.
            StepKind::ReadUsages => s.purpose = "preflight: vCPU quota (one read for every pool)".into(),
            _ => {}
        }
    }
    // The list is read once: the label check's read is the existence read.
    let mut seen = false;
    p.steps.retain(|s| !(s.kind == StepKind::ReadPools && std::mem::replace(&mut seen, true)));
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
        // Each pool's wait after its PUT is its own (a repeated read is never shared).
        assert_eq!(kinds, [ReadCluster, ReadPools, ReadSkus, ReadUsages, CreatePool, Await, CreatePool, Await]);
    }
}
