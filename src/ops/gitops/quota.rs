//! The vCPU quota of every pool an `apply` creates, checked together before the first pool's
//! PUT: each pool alone may fit while the set does not, and Azure would then refuse the later
//! PUTs after the first pools were created. The reads are the ones each pool's preflight
//! makes (the SKU list and the usages of the cluster's location, through the run's facts), so
//! the check adds no request.

use crate::arm::ArmClient;
use crate::error::Error;
use crate::plan::gitops::{Action, Change, Desired, Live};
use crate::plan::{preflight, PoolSpec, StepKind};
use crate::provision::facts::Store;

/// The pools `changes` create, in the file's order (the order `apply` starts them in).
pub fn created<'a>(d: &'a Desired, changes: &[Change]) -> Vec<&'a PoolSpec> {
    let creates = |s: &PoolSpec| {
        changes.iter().any(|c| c.kind == "pool" && c.name == s.name && c.action == Action::Create && c.scale.is_none())
    };
    d.pools.iter().filter(|s| creates(s)).collect()
}

/// Refuse (`Error::Refused`, exit 1) when the pools `changes` create do not fit the vCPU quota
/// of the cluster's location together. Nothing to check without a pool to create, a location
/// or credentials.
pub async fn check(
    (client, facts): (&ArmClient, &Store),
    d: &Desired,
    (live, changes): (&Live, &[Change]),
) -> Result<(), Error> {
    let specs = created(d, changes);
    let Some(first) = specs.first() else { return Ok(()) };
    if !client.has_credentials() {
        return Ok(());
    }
    // A cluster without its location is an error naming it, never "nothing to check".
    let loc = live.cluster.location()?;
    let p = crate::plan::pool::plan(first, Some(&loc));
    let (Some(skus), Some(usages)) = (p.step(StepKind::ReadSkus), p.step(StepKind::ReadUsages)) else {
        return Ok(());
    };
    let (skus, usages) = tokio::join!(facts.list(client, skus), facts.list(client, usages));
    // A failed read is not remembered: each pool's preflight reads it again and reports what
    // fails. Without the SKU list the families come from the catalog; without the usages
    // there is nothing to check here.
    let Ok(usages) = usages else { return Ok(()) };
    preflight::check_together(&specs, skus.as_deref().ok(), &usages, &loc)
        .map_err(|r| Error::Refused { message: r.message, hint: r.hint })
}
