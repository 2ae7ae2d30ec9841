//! The failover candidates of `create-pool` (`--fallback-vm-size`, `--recommend --failover`):
//! the sizes to try in turn, validated into pool specs; the run itself is
//! [`super::pool::failover`].

use crate::arm::ArmClient;
use crate::catalog::Catalog;
use crate::error::Error;
use crate::ops::pool::RequestError;
use crate::ops::recommend::RecommendRequest;
use crate::plan::agent_pool::{PoolRequest, PoolSpec};
use crate::plan::failover::Fallback;
use crate::provision::facts::Store;

use super::Report;

pub use crate::plan::failover::AttemptResult;
pub use crate::provision::failover::{Attempt, Candidate, Created, Failover, Policy, Stopped};

/// How many attempts failover makes when asked for (`--failover`) without a number.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 3;

/// What failover cannot run together with: each is a step the pool's run takes after it
/// exists, which failover does not (run it on its own once the pool is there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotWithFailover {
    /// Not waiting: failover must see each attempt end.
    NoWait,
    InstallOperator,
    RegisterFeatures,
}

/// What a failover request cannot go with, first found.
pub fn check_alone(no_wait: bool, install_operator: bool, register_features: bool) -> Result<(), NotWithFailover> {
    match (no_wait, install_operator, register_features) {
        (true, _, _) => Err(NotWithFailover::NoWait),
        (_, true, _) => Err(NotWithFailover::InstallOperator),
        (_, _, true) => Err(NotWithFailover::RegisterFeatures),
        _ => Ok(()),
    }
}

/// The attempts a run makes: the number asked for, else [`DEFAULT_MAX_ATTEMPTS`] when failover
/// was asked for by itself, else every candidate (named fallbacks).
pub fn policy(max_attempts: Option<u32>, failover: bool, fallback_on_demand: bool) -> Policy {
    Policy { max_attempts: max_attempts.or(failover.then_some(DEFAULT_MAX_ATTEMPTS)), fallback_on_demand }
}

/// What to do next when no attempt created the pool, by what the attempts ran into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NextStep {
    /// The last size refused for quota: ask for quota for it.
    RequestQuota { vm_size: String },
    /// Some attempt found no capacity: reserve it.
    ReserveCapacity,
    /// Always: another region may have the sizes.
    OtherRegion,
}

/// The next steps after every attempt failed, most specific first.
pub fn next_steps(attempts: &[Attempt]) -> Vec<NextStep> {
    let mut steps = Vec::new();
    if let Some(q) = attempts.iter().rev().find(|t| t.outcome == AttemptResult::Quota) {
        steps.push(NextStep::RequestQuota { vm_size: q.vm_size.clone() });
    }
    if attempts.iter().any(|t| t.outcome == AttemptResult::Capacity) {
        steps.push(NextStep::ReserveCapacity);
    }
    steps.push(NextStep::OtherRegion);
    steps
}

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
        Sizes::Named(sizes) => sizes.iter().map(|s| Fallback::named(s)).collect(),
        Sizes::Recommended(ra) => {
            if location.is_none() && client.has_credentials() {
                report("reading the cluster's region");
                let cluster = store.cluster(client, &pool.subscription, &pool.resource_group, &pool.cluster).await;
                location = Some(cluster.map_err(Error::from)?.location().map_err(Error::from)?);
            }
            let list = ranked(catalog, *ra, location.as_deref())?;
            ranked_sizes = Some(list.iter().map(|f| f.size.clone()).collect());
            list
        }
    };
    let Some((first, rest)) = sizes.split_first() else {
        return Err(Error::no_fit("no candidate sizes", None).into());
    };
    let pool = PoolRequest { vm_size: first.size.clone(), deployment: first.deployment.clone(), ..pool };
    let specs = crate::plan::failover::candidates(catalog, &pool, rest)?;
    Ok(Candidates { specs, location, ranked: ranked_sizes })
}

/// The ranked recommendations for the workload, priced in `region`, best first: each size with
/// the deployment it was recommended for, so a pool of it runs that deployment's nodes.
fn ranked(catalog: &Catalog, mut ra: RecommendRequest, region: Option<&str>) -> Result<Vec<Fallback>, RequestError> {
    ra.region = region.map(str::to_owned).or(ra.region);
    ra.top = RANKED;
    if !super::recommend::has_requirements(&ra) {
        return Err(RequestError::NoWorkload);
    }
    let list = super::recommend::ranked(catalog, &ra)?;
    if list.is_empty() {
        return Err(RequestError::NoFit(None));
    }
    Ok(list
        .iter()
        .map(|r| Fallback { size: r.vm_size.clone(), deployment: Some(super::pool::deployment(r)) })
        .collect())
}
