//! The failover candidates of `create-pool` (`--fallback-vm-size`, `--recommend --failover`):
//! the sizes to try in turn, validated into pool specs; the run itself is
//! [`super::pool::failover`].

use crate::arm::ArmClient;
use crate::catalog::Catalog;
use crate::error::Error;
use crate::ops::pool::RequestError;
use crate::ops::recommend::RecommendRequest;
use crate::plan::agent_pool::{PoolRequest, PoolSpec};
use crate::provision::facts::Store;

use super::Report;

/// How many ranked recommendations `--failover` considers (preflight skips do not count
/// against `--max-attempts`, so there must be more candidates than attempts).
pub const RANKED: u64 = 10;

/// Where the candidate sizes come from.
#[derive(Debug, Clone)]
pub enum Sizes {
    /// The pool's size, then each fallback, in order.
    Named(Vec<String>),
    /// The ranked recommendations for the workload, priced in the cluster's region.
    Recommended(Box<RecommendRequest>),
}

/// A failover request: the pool (its size is each candidate's in turn) and the sizes.
#[derive(Debug, Clone)]
pub struct CandidatesRequest {
    pub pool: PoolRequest,
    pub sizes: Sizes,
    /// The cluster's region when known; with credentials and recommended sizes it is read.
    pub location: Option<String>,
}

/// The validated candidates, and the cluster's region when it was read.
#[derive(Debug, Clone)]
pub struct Candidates {
    pub specs: Vec<PoolSpec>,
    pub location: Option<String>,
    /// With `Sizes::Recommended`: the ranked sizes, best first (before validation).
    pub ranked: Option<Vec<String>>,
}

/// The candidates for `req`. Recommended sizes without a known region read the cluster once
/// (into the run's facts: preflight reuses the read) when the client has credentials.
pub async fn candidates(
    (client, store): (&ArmClient, &Store),
    catalog: &Catalog,
    req: CandidatesRequest,
    report: Report<'_>,
) -> Result<Candidates, RequestError> {
    let CandidatesRequest { pool, sizes, mut location } = req;
    let mut ranked_sizes = None;
    let sizes = match sizes {
        Sizes::Named(sizes) => sizes,
        Sizes::Recommended(ra) => {
            if location.is_none() && client.has_credentials() {
                report("reading the cluster's region");
                let cluster = store.cluster(client, &pool.subscription, &pool.resource_group, &pool.cluster).await;
                location = crate::plan::preflight::location(&cluster.map_err(Error::from)?);
            }
            let list = ranked(catalog, *ra, location.as_deref())?;
            ranked_sizes = Some(list.clone());
            list
        }
    };
    let Some((first, rest)) = sizes.split_first() else {
        return Err(Error::NoFit { message: "no candidate sizes".into(), hint: None }.into());
    };
    let specs = crate::plan::failover::candidates(catalog, &PoolRequest { vm_size: first.clone(), ..pool }, rest)?;
    Ok(Candidates { specs, location, ranked: ranked_sizes })
}

/// The ranked recommendations for the workload, priced in `region`, best first.
fn ranked(catalog: &Catalog, mut ra: RecommendRequest, region: Option<&str>) -> Result<Vec<String>, RequestError> {
    ra.region = region.map(str::to_owned).or(ra.region);
    ra.top = RANKED;
    if !super::recommend::has_requirements(&ra) {
        return Err(RequestError::NoWorkload);
    }
    let list = super::recommend::ranked(catalog, &ra)?;
    if list.is_empty() {
        return Err(RequestError::NoFit(None));
    }
    Ok(list)
}
