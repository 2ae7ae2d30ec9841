//! What `create-pool` reads before it plans: the cluster, when `--recommend` ranks sizes in
//! its location and Kubernetes version, and the cluster's pools, when the size has a node
//! image floor. Both go through the run's facts, so preflight reuses the reads.

use crate::arm::{ArmClient, ArmError};
use crate::catalog::Catalog;
use crate::error::Error;
use crate::plan::agent_pool::PoolSpec;
use crate::provision::facts::Store;

use super::pool::ClusterFacts;
use super::Report;

/// When the cluster is read before the plan: a size to pick (`recommend` without a size), with
/// preflight on and credentials to read with. `dry_run`: a read whose credentials fail plans
/// from the request alone.
#[derive(Debug, Clone, Copy)]
pub struct EarlyRead {
    pub recommend: bool,
    pub size_given: bool,
    pub skip_preflight: bool,
    pub dry_run: bool,
}

/// The cluster's location and Kubernetes version when [`EarlyRead`] says the choice depends on
/// them (one read, through the run's facts); otherwise nothing is read and nothing is known.
pub async fn cluster_facts(
    (client, store): (&ArmClient, &Store),
    (subscription, resource_group, cluster): (&str, &str, &str),
    when: EarlyRead,
    report: Report<'_>,
) -> Result<ClusterFacts, Error> {
    if !when.recommend || when.size_given || when.skip_preflight || !client.has_credentials() {
        return Ok(ClusterFacts::default());
    }
    report("reading the cluster's location and Kubernetes version");
    match store.cluster(client, subscription, resource_group, cluster).await {
        Ok(c) => ClusterFacts::from_cluster(&c),
        // A dry run whose credentials fail still plans from the flags alone.
        Err(ArmError::Auth { .. }) if when.dry_run => Ok(ClusterFacts::default()),
        Err(e) => Err(e.into()),
    }
}

/// For a size with a node image floor (NVadsA10 v5, NCadsA10 v4): a warning for every pool of
/// its series in the cluster that runs an older image, with the upgrade step. The pools list is
/// the one preflight reads for the GPU Operator's label (the same planned step, read once per
/// run through the facts); nothing is read without credentials or with `skip` (preflight
/// skipped), or for a pool whose plan has no such read. A failed read gives no warning: it is
/// preflight's to report (it reads the same list next).
pub async fn node_image_floor_warnings(
    (client, store): (&ArmClient, &Store),
    catalog: &Catalog,
    spec: &PoolSpec,
    skip: bool,
    report: Report<'_>,
) -> Vec<String> {
    let planned = crate::plan::install::may_need_driver_label(spec);
    if skip || !planned || !client.has_credentials() || catalog.node_image_floor(&spec.size.name).is_none() {
        return Vec::new();
    }
    let (sub, rg, cluster) = (spec.subscription.as_str(), spec.resource_group.as_str(), spec.cluster.as_str());
    report("reading the cluster's pools (node images)");
    let Ok(pools) = store.pools(client, sub, rg, cluster).await else { return Vec::new() };
    pools
        .iter()
        .filter(|p| {
            p.properties.vm_size.as_deref().and_then(|v| catalog.size(v)).is_some_and(|v| v.series == spec.size.series)
        })
        .filter_map(|pool| crate::plan::preflight::node_image_warning(catalog, pool, (sub, rg, cluster)))
        .collect()
}
