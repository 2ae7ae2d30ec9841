//! The `fleet` workflow: every GPU pool the credential can read, across subscriptions, through
//! Azure Resource Graph, with costs and findings (`fleet`), and optionally what each pool really
//! did (`ops::usage`).

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use crate::arm::graph::{self, GraphScope};
use crate::arm::ArmClient;
use crate::catalog::Catalog;
use crate::error::Error;
use crate::fleet::{self, FleetCluster, FleetPool, FleetTotals};

pub use crate::fleet::PriceBasis;
use crate::resources::fleet::SubscriptionEntry;

use super::Report;

pub use crate::fleet::worst;

/// The price table's currency and date, as fleet and usage report them.
pub fn price_basis(catalog: &Catalog, source: &crate::pricing::PriceSource) -> PriceBasis {
    use crate::pricing::PriceSource;
    let date = match source {
        PriceSource::Bundled { as_of } => as_of.clone(),
        PriceSource::Cache { fetched_at, .. } => {
            crate::fleet::usage::rfc3339(i64::try_from(*fetched_at).unwrap_or(0))[..10].to_owned()
        }
    };
    PriceBasis { currency: catalog.prices.currency.clone(), date }
}

/// Which subscriptions the fleet covers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FleetRequest {
    /// Subscription ids or display names; empty: every subscription the credential can read.
    pub subscriptions: Vec<String>,
    /// A management group id instead (every subscription under it).
    pub management_group: Option<String>,
}

/// A subscription that was asked for by name and is not visible (the front end names the flag).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no subscription called {name:?} is visible to this credential")]
pub struct UnknownSubscription {
    pub name: String,
    /// Up to ten visible names.
    pub visible: Vec<String>,
}

/// One subscription of the scope.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetSubscription {
    pub id: String,
    pub name: Option<String>,
    /// False when Resource Graph could not read it (see `warnings`).
    pub read: bool,
    pub clusters: usize,
    pub gpu_pools: usize,
}

/// What `fleet` found.
#[derive(Debug, Clone, Serialize)]
pub struct FleetView {
    pub pools: Vec<FleetPool>,
    pub clusters: Vec<FleetCluster>,
    pub subscriptions: Vec<FleetSubscription>,
    pub totals: FleetTotals,
    pub warnings: Vec<String>,
    pub currency: String,
    pub price_date: String,
    /// Requests sent to Resource Graph.
    #[serde(skip)]
    pub graph_requests: usize,
}

/// Every subscription Subscriptions - List shows (every page).
async fn visible(client: &ArmClient) -> Result<Vec<SubscriptionEntry>, Error> {
    Ok(crate::provision::wire::list(client, &crate::plan::read_subscriptions()).await?)
}

/// The subscriptions named in `wanted` (ids as given, names looked up), or every visible one.
fn resolve(
    wanted: &[String],
    seen: &[SubscriptionEntry],
) -> Result<Vec<(String, Option<String>)>, UnknownSubscription> {
    let entries: Vec<(String, Option<String>)> =
        seen.iter().filter_map(|s| s.id().ok().map(|id| (id, s.display_name.clone()))).collect();
    if wanted.is_empty() {
        return Ok(entries);
    }
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for w in wanted {
        let w = w.trim();
        let hit = if crate::arm::auth::is_subscription_id(w) {
            let id = w.to_ascii_lowercase();
            Some(entries.iter().find(|e| e.0 == id).cloned().unwrap_or((id, None)))
        } else {
            entries.iter().find(|e| e.1.as_deref().is_some_and(|n| n.eq_ignore_ascii_case(w))).cloned()
        };
        match hit {
            Some(e) if !out.iter().any(|o| o.0 == e.0) => out.push(e),
            Some(_) => {}
            None => {
                return Err(UnknownSubscription {
                    name: w.to_owned(),
                    visible: entries.iter().filter_map(|e| e.1.clone()).take(10).collect(),
                })
            }
        }
    }
    Ok(out)
}

/// Read the fleet.
pub async fn run(
    client: &ArmClient,
    catalog: &Catalog,
    basis: &PriceBasis,
    req: &FleetRequest,
    report: Report<'_>,
) -> Result<FleetView, Error> {
    let (scope, mut names) = match &req.management_group {
        Some(mg) => (GraphScope::ManagementGroup(mg.clone()), Vec::new()),
        None => {
            report("listing subscriptions");
            let seen = visible(client).await?;
            let subs = resolve(&req.subscriptions, &seen).map_err(|e| Error::usage(e.to_string(), None))?;
            (GraphScope::Subscriptions(subs.iter().map(|s| s.0.clone()).collect()), subs)
        }
    };
    report("querying Resource Graph");
    let result = match &scope {
        GraphScope::Subscriptions(s) if s.is_empty() => graph::GraphResult::default(),
        _ => graph::query(client, &scope, fleet::CLUSTERS_QUERY).await?,
    };
    let mut warnings: Vec<String> = Vec::new();
    let mut unread: HashSet<String> = HashSet::new();
    for u in &result.unread {
        match &u.subscription {
            Some(s) => {
                unread.insert(s.clone());
                let name = names.iter().find(|n| &n.0 == s).and_then(|n| n.1.clone());
                let who = name.map(|n| format!("{s} ({n})")).unwrap_or_else(|| s.clone());
                warnings.push(format!("subscription {who} was not read: {}", u.reason));
            }
            None => warnings.push(u.reason.clone()),
        }
    }
    warnings.extend(result.notes.iter().cloned());
    let mut pools = Vec::new();
    let mut clusters = Vec::new();
    let mut ids = HashSet::new();
    for row in &result.rows {
        let key = row.id.as_deref().unwrap_or("").to_ascii_lowercase();
        if !key.is_empty() && !ids.insert(key) {
            continue;
        }
        match fleet::gpu_pools(catalog, row, basis, &mut warnings) {
            Ok((c, p)) => {
                clusters.push(c);
                pools.extend(p);
            }
            Err(e) => warnings.push(format!("a cluster was not read: {e}")),
        }
    }
    for c in &clusters {
        if !names.iter().any(|n| n.0 == c.subscription_id) {
            names.push((c.subscription_id.clone(), None));
        }
    }
    let subscriptions = summarize(&names, &unread, &clusters);
    let totals = fleet::totals(&pools, subscriptions.len(), clusters.len(), &basis.currency);
    Ok(FleetView {
        pools,
        clusters,
        subscriptions,
        totals,
        warnings,
        currency: basis.currency.clone(),
        price_date: basis.date.clone(),
        graph_requests: result.requests,
    })
}

fn summarize(
    names: &[(String, Option<String>)],
    unread: &HashSet<String>,
    clusters: &[FleetCluster],
) -> Vec<FleetSubscription> {
    let mut per: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for c in clusters {
        let e = per.entry(c.subscription_id.as_str()).or_default();
        e.0 += 1;
        e.1 += c.gpu_pools;
    }
    names
        .iter()
        .map(|(id, name)| {
            let (c, p) = per.get(id.as_str()).copied().unwrap_or_default();
            FleetSubscription {
                id: id.clone(),
                name: name.clone(),
                read: !unread.contains(id),
                clusters: c,
                gpu_pools: p,
            }
        })
        .collect()
}
