//! The `usage` workflow (and `fleet --usage`): find each cluster's Azure Monitor workspace, run
//! the range queries of `fleet::usage` against its Prometheus endpoint, and aggregate.
//!
//! Discovery, as Azure holds it: the cluster's `azureMonitorProfile.metrics.enabled`; its data
//! collection rule associations (Microsoft.Insights 2022-06-01); each rule's
//! `destinations.monitoringAccounts[].accountResourceId`; the workspace's
//! `metrics.prometheusQueryEndpoint` (Microsoft.Monitor 2023-04-03). A discovered endpoint is
//! trusted only on the cloud's `*.prometheus.monitor.azure.*` domain, or on loopback when ARM
//! itself is (a local fake).

use std::collections::BTreeMap;

use crate::arm::endpoint::{prometheus_trusted, Cloud};
use crate::arm::prometheus::PromClient;
use crate::arm::{ArmClient, Req};
use crate::catalog::Catalog;
use crate::error::Error;
use crate::fleet::usage::{self as pure, Answers};

pub use crate::fleet::usage::{rfc3339, PoolUsage, Window};
use crate::fleet::{FleetCluster, FleetPool};
use crate::resources::fleet::{DataCollectionRule, DcrAssociationList, MonitorAccount};
use crate::resources::MissingField;

/// api-version of data collection rules and their associations.
pub const DCR_API: &str = "2022-06-01";
/// api-version of Azure Monitor workspaces.
pub const MONITOR_API: &str = "2023-04-03";
/// api-version of the cluster GET.
pub use crate::domain::api::AKS as CLUSTER_API;

/// What to measure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UsageRequest {
    pub window: Window,
    /// Utilisation (percent) below which a GPU counts as idle.
    pub idle_below: f64,
}

/// Why a cluster's workspace was not found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Discovery {
    #[error("managed Prometheus is off on cluster {0} (azureMonitorProfile.metrics.enabled is not true)")]
    MetricsOff(String),
    #[error("cluster {0} has no data collection rule that sends metrics to an Azure Monitor workspace")]
    NoWorkspace(String),
    #[error("the query endpoint {0} is not an Azure Monitor managed Prometheus endpoint; refusing to send it a token")]
    Untrusted(String),
    #[error(transparent)]
    Missing(#[from] MissingField),
}

/// The Prometheus query endpoint of `cluster`, by the discovery chain.
pub async fn discover(
    client: &ArmClient,
    cloud: Cloud,
    cluster: &FleetCluster,
) -> Result<Result<String, Discovery>, Error> {
    let (id, name) = (&cluster.id, cluster.name.clone());
    if cluster.metrics_enabled != Some(true) {
        return Ok(Err(Discovery::MetricsOff(name)));
    }
    let assoc: DcrAssociationList = client
        .get_json(&Req::get(format!(
            "{id}/providers/Microsoft.Insights/dataCollectionRuleAssociations?api-version={DCR_API}"
        )))
        .await?;
    let rules = match assoc.rule_ids() {
        Ok(r) => r,
        Err(e) => return Ok(Err(e.into())),
    };
    for rule in rules {
        let dcr: DataCollectionRule = client.get_json(&Req::get(format!("{rule}?api-version={DCR_API}"))).await?;
        // The first workspace the rule sends metrics to.
        let Some(account) = dcr.account_ids().into_iter().next() else { continue };
        let acc: MonitorAccount = client.get_json(&Req::get(format!("{account}?api-version={MONITOR_API}"))).await?;
        let endpoint = match acc.query_endpoint() {
            Ok(e) => e,
            Err(e) => return Ok(Err(e.into())),
        };
        let trusted =
            url::Url::parse(&endpoint).is_ok_and(|u| prometheus_trusted(&u, cloud, client.endpoint.is_loopback()));
        return Ok(if trusted { Ok(endpoint) } else { Err(Discovery::Untrusted(endpoint)) });
    }
    Ok(Err(Discovery::NoWorkspace(name)))
}

/// Run one cluster's queries and aggregate them for its `pools`.
pub async fn measure(
    prom: &PromClient,
    catalog: &Catalog,
    cluster: &str,
    pools: &[FleetPool],
    req: &UsageRequest,
    currency: &str,
) -> Result<Vec<PoolUsage>, Error> {
    let w = req.window;
    let mut answers: Answers = BTreeMap::new();
    for (kind, q) in pure::queries(cluster, req.idle_below, w.step) {
        let a = prom.range(&q, w.first(), w.end, w.step).await?;
        let series = a.series().map_err(|why| Error::Refused {
            message: format!("Prometheus at {} refused a query for cluster {cluster}: {why}", prom.base()).into(),
            hint: Some("check the endpoint and that the token may read the workspace (Monitoring Data Reader)".into()),
        })?;
        answers.insert(kind, series.to_vec());
    }
    Ok(pure::pool_usage(catalog, pools, &answers, &w, currency))
}

/// Clusters discovered and measured at once.
pub const CONCURRENT: usize = 8;

/// Where each cluster's series are: an endpoint, or why none was found.
type Found = Result<String, Discovery>;

/// Measure every cluster of `clusters` that has GPU pools (theirs in `pools`): each workspace by
/// the discovery chain (or `endpoint` for all), one client per endpoint (`make` builds it, with
/// its own token), up to [`CONCURRENT`] clusters at once. A cluster whose workspace was not
/// found has its pools `measured: false`, with why. Returns the pools and the queries sent.
pub async fn measure_clusters(
    client: &ArmClient,
    catalog: &Catalog,
    (cloud, endpoint): (Cloud, Option<&str>),
    (clusters, pools): (&[FleetCluster], &[FleetPool]),
    req: &UsageRequest,
    make: &(dyn Fn(&str) -> Result<PromClient, Error> + Sync),
    report: super::Report<'_>,
) -> Result<(Vec<PoolUsage>, usize), Error> {
    use futures_util::stream::{self, StreamExt};
    let currency = catalog.prices.currency.as_str();
    let targets: Vec<&FleetCluster> = clusters.iter().filter(|c| c.gpu_pools > 0).collect();
    report(&format!("finding the Azure Monitor workspaces of {} cluster(s)", targets.len()));
    let found: Vec<Found> = match endpoint {
        Some(u) => targets.iter().map(|_| Ok(u.trim_end_matches('/').to_owned())).collect(),
        None => stream::iter(targets.iter().map(|c| discover(client, cloud, c)))
            .buffered(CONCURRENT)
            .collect::<Vec<_>>()
            .await
            .into_iter()
            .map(|r| r.map(|f| f.map(|u| u.trim_end_matches('/').to_owned())))
            .collect::<Result<_, _>>()?,
    };
    let mut clients: Vec<(String, PromClient)> = Vec::new();
    for url in found.iter().flatten() {
        if !clients.iter().any(|(u, _)| u == url) {
            clients.push((url.clone(), make(url)?));
        }
    }
    report(&format!("querying Prometheus for {} cluster(s)", targets.len()));
    let clients = &clients;
    let runs = targets.iter().zip(&found).map(|(c, f)| async move {
        let mine: Vec<FleetPool> = pools
            .iter()
            .filter(|p| {
                p.cluster == c.name && p.resource_group == c.resource_group && p.subscription_id == c.subscription_id
            })
            .cloned()
            .collect();
        match f {
            Err(why) => Ok(unmeasured(&mine, &why.to_string(), currency)),
            Ok(url) => match clients.iter().find(|(u, _)| u == url) {
                Some((_, prom)) => measure(prom, catalog, &c.name, &mine, req, currency).await,
                None => Err(Error::internal("no Prometheus client for a discovered endpoint")),
            },
        }
    });
    let mut out = Vec::new();
    for r in stream::iter(runs).buffered(CONCURRENT).collect::<Vec<_>>().await {
        out.extend(r?);
    }
    Ok((out, clients.iter().map(|c| c.1.queries()).sum()))
}

/// Pools not measured because the workspace was not found: `measured: false` with the reason.
pub fn unmeasured(pools: &[FleetPool], why: &str, currency: &str) -> Vec<PoolUsage> {
    pools.iter().map(|p| PoolUsage::unmeasured(p, currency, Some(why.to_owned()))).collect()
}

/// Totals over measured pools.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct UsageTotals {
    pub pools: usize,
    pub measured_pools: usize,
    pub gpu_hours: f64,
    pub idle_gpu_hours: f64,
    pub allocated_gpu_hours: f64,
    pub allocated_idle_gpu_hours: f64,
    pub idle_cost: Option<f64>,
    /// The largest saving of each pool's advice, summed.
    pub monthly_saving: Option<f64>,
    pub currency: String,
}

/// The totals of `pools` (measured ones only; an unknown idle cost makes the total unknown).
pub fn totals(pools: &[PoolUsage], currency: &str) -> UsageTotals {
    let m: Vec<&PoolUsage> = pools.iter().filter(|p| p.measured).collect();
    let sum = |f: fn(&PoolUsage) -> Option<f64>| (m.iter().filter_map(|p| f(p)).sum::<f64>() * 1e6).round() / 1e6;
    UsageTotals {
        pools: pools.len(),
        measured_pools: m.len(),
        gpu_hours: sum(|p| p.gpu_hours),
        idle_gpu_hours: sum(|p| p.idle_gpu_hours),
        allocated_gpu_hours: sum(|p| p.allocated_gpu_hours),
        allocated_idle_gpu_hours: sum(|p| p.allocated_idle_gpu_hours),
        idle_cost: crate::cost::sum_cents(m.iter().map(|p| p.idle_cost)),
        // Each pool's advice are alternatives: its largest saving counts, once.
        monthly_saving: crate::cost::sum_cents(
            m.iter().filter_map(|p| p.advice.iter().filter_map(|a| a.monthly_saving).reduce(f64::max).map(Some)),
        ),
        currency: currency.to_owned(),
    }
}

/// A Prometheus client for `url`, with a token for Prometheus's audience (never the ARM token):
/// with the static test credential, `AKSGPU_PROMETHEUS_TOKEN`.
pub fn prom_client(az: &super::session::Azure, cloud: Cloud, url: &str) -> Result<PromClient, Error> {
    use crate::arm::auth::{AuthMethod, StaticToken, TokenCache, TokenSource};
    let scope = format!("{}/.default", cloud.prometheus_audience());
    let endpoint = crate::arm::Endpoint::service(url, &scope)?;
    let source: std::sync::Arc<dyn TokenSource> = if az.method == AuthMethod::AccessToken {
        let t = std::env::var("AKSGPU_PROMETHEUS_TOKEN").ok().filter(|t| !t.trim().is_empty()).ok_or_else(|| {
            Error::usage(
                "AKSGPU_ACCESS_TOKEN is an ARM token; Prometheus needs a token of its own: set AKSGPU_PROMETHEUS_TOKEN",
                Some(format!(
                    "export AKSGPU_PROMETHEUS_TOKEN=$(az account get-access-token --resource {} --query accessToken -o tsv)",
                    cloud.prometheus_audience()
                )),
            )
        })?;
        std::sync::Arc::new(StaticToken(crate::secret::Secret::new(t.trim())))
    } else {
        az.source.clone()
    };
    Ok(PromClient::new(endpoint, Some(TokenCache::new(source, scope)), &az.client)?)
}

/// Measure `clusters` (see [`measure_clusters`]), each Prometheus client with a token of its
/// own; `endpoint`: a Prometheus query endpoint given instead of the one each cluster's Azure
/// Monitor workspace names.
pub async fn measure_all(
    az: &super::session::Azure,
    catalog: &Catalog,
    (cloud, endpoint): (Cloud, Option<&str>),
    (clusters, pools): (&[FleetCluster], &[FleetPool]),
    req: &UsageRequest,
    report: super::Report<'_>,
) -> Result<(Vec<PoolUsage>, usize), Error> {
    let make = |url: &str| prom_client(az, cloud, url);
    measure_clusters(&az.client, catalog, (cloud, endpoint), (clusters, pools), req, &make, report).await
}

/// `usage`'s cluster: one GET of the managed cluster, its GPU pools picked as `fleet` picks them.
pub async fn read_cluster(
    client: &ArmClient,
    catalog: &Catalog,
    (subscription, resource_group, name): (&str, &str, &str),
    basis: &crate::fleet::PriceBasis,
    report: super::Report<'_>,
) -> Result<(FleetCluster, Vec<FleetPool>), Error> {
    let url = format!(
        "/subscriptions/{subscription}/resourceGroups/{resource_group}/providers/Microsoft.ContainerService/managedClusters/{name}?api-version={CLUSTER_API}"
    );
    report("reading the cluster");
    let row: crate::resources::fleet::ClusterRow = client.get_json(&Req::get(url)).await?;
    let mut skipped = Vec::new();
    crate::fleet::gpu_pools(catalog, &row, basis, &mut skipped).map_err(|e| Error::Refused {
        message: e.to_string().into(),
        hint: Some("`az aks show` shows what Azure returns".into()),
    })
}
