//! The `catalog diff` workflow: the bundled catalog against the Resource SKUs Azure lists for
//! one region and subscription (`drift::compare`).

use crate::arm::ArmClient;
use crate::catalog::Catalog;
use crate::drift;

pub use crate::drift::Drift;
use crate::error::Error;

/// Compare the catalog with what Azure offers: one paged SKU list for `location` (a region the
/// catalog knows; see [`location`]).
pub async fn compare(
    (client, subscription): (&ArmClient, &str),
    catalog: &Catalog,
    location: &str,
    report: super::Report<'_>,
) -> Result<Drift, Error> {
    report("listing the resource SKUs");
    let step = crate::plan::read_skus(subscription, location);
    let skus: Vec<crate::resources::compute::ResourceSku> = crate::provision::wire::list(client, &step).await?;
    Ok(drift::compare(catalog, location, &skus))
}

/// The region `catalog diff` compares, as typed: its ARM name, or exit 2 with a did-you-mean.
pub fn location(catalog: &Catalog, typed: &str) -> Result<String, Error> {
    crate::ops::recommend::region_arg(catalog, typed)
}
