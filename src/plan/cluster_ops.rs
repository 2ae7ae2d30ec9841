//! The requests of the commands that change an existing cluster or pool: `cluster stop|start`,
//! `cost-analysis enable`, `pool scale` and `kaito enable` (pure).
//!
//! Each plan is a read, then one write built from what was read. A real run builds the write
//! from the resource it read; a dry run, which needs no credential, builds it from a stand-in
//! whose read values are placeholders (`<read at run time: …>`).

use serde_json::{json, Value};

use super::cluster::{self, Scale};
use super::{cluster_path, pool_path, read_at_run_time, with_api, Follow, Plan, Step, StepKind};
use crate::domain::api;
use crate::resources::{AgentPool, AsRead, ManagedCluster, ResourceState};

/// Which cluster (or pool) a plan is for.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    pub subscription: &'a str,
    pub resource_group: &'a str,
    pub cluster: &'a str,
}

impl Target<'_> {
    /// The cluster's path (no query).
    pub fn cluster_path(&self) -> String {
        cluster_path(self.subscription, self.resource_group, self.cluster)
    }

    /// The cluster URL with the api-version.
    pub fn cluster_url(&self) -> String {
        with_api(&self.cluster_path(), api::AKS)
    }

    /// A pool's path (no query).
    pub fn pool_path(&self, pool: &str) -> String {
        pool_path(self.subscription, self.resource_group, self.cluster, pool)
    }
}

/// The stand-in for a cluster a dry run does not read.
pub fn cluster_as_read() -> Value {
    json!({
        "location": read_at_run_time("cluster location"),
        "sku": {"name": read_at_run_time("cluster SKU name"), "tier": read_at_run_time("cluster tier")},
        "eTag": read_at_run_time("cluster eTag"),
        "properties": {"…": read_at_run_time("every other writable field, unchanged")},
    })
}

/// The stand-in for a cluster a dry run does not read, read as a real answer is: typed, its
/// JSON kept. Its tier is a placeholder, not Free, so the dry run of `cost-analysis enable`
/// shows the PUT a paid cluster is sent.
pub fn cluster_stand_in() -> AsRead<ManagedCluster> {
    let json = cluster_as_read();
    let item = crate::resources::parse_item(&json, "cluster").unwrap_or_default();
    AsRead { item, json }
}

/// The stand-in for a pool a dry run does not read.
pub fn pool_as_read() -> Value {
    json!({
        "properties": {
            "eTag": read_at_run_time("pool eTag"),
            "count": read_at_run_time("current node count"),
            "…": read_at_run_time("every other writable field, unchanged"),
        },
    })
}

/// The stand-in for a pool a dry run does not read: its JSON `pool_as_read`, its typed view
/// empty (its counts are placeholders, read at run time).
pub fn pool_stand_in() -> AsRead<AgentPool> {
    AsRead { item: AgentPool::default(), json: pool_as_read() }
}

/// The `If-Match` value for what was read: its eTag as sent (a stand-in's placeholder
/// included), or none when it has none (the write is then sent without a precondition, as
/// before eTags existed).
fn etag<T>(read: &AsRead<T>) -> Option<String> {
    ResourceState::read(&read.json).ok()?.e_tag().map(str::to_owned)
}

/// True for the stand-in of a pool a dry run does not read.
fn is_stand_in(pool: &AsRead<AgentPool>) -> bool {
    pool.json == pool_as_read()
}

fn put(kind: StepKind, url: String, body: Value, etag: Option<String>, purpose: String) -> Step {
    let step = Step::write(kind, "PUT", url, Some(body), purpose).then_follows(Follow::Operation);
    match etag {
        Some(e) => step.header("If-Match", e),
        None => step,
    }
}

/// GET the cluster (what a change to it starts from).
pub fn read_cluster(t: Target<'_>, purpose: impl Into<String>) -> Step {
    Step::read(StepKind::ReadCluster, t.cluster_url(), purpose)
}

/// GET the cluster a write changes, when its operation ends (and, for stop/start, until it
/// reports the power state asked for).
pub fn await_cluster(t: Target<'_>, until: &str) -> Step {
    Step::read(StepKind::Await, t.cluster_url(), format!("read cluster {} when the operation ends", t.cluster))
        .repeated(until)
}

/// GET one pool with the api-version that has every `gpuProfile.nvidia` field (managed MIG's
/// strategy and profiles are preview-only); for reads only, never a body sent back.
pub fn read_pool_gpu(t: Target<'_>, pool: &str) -> Step {
    Step::read(StepKind::ReadPool, with_api(&t.pool_path(pool), api::AKS_MANAGED_MIG), format!("read pool {pool}"))
}

/// GET a pool (what `pool scale` starts from).
pub fn read_pool(t: Target<'_>, pool: &str) -> Step {
    Step::read(
        StepKind::ReadPool,
        with_api(&t.pool_path(pool), api::AKS),
        format!("read pool {pool} (its counts and autoscaler)"),
    )
}

/// GET the pool a write changes, when its operation ends.
pub fn await_pool(t: Target<'_>, pool: &str) -> Step {
    Step::read(
        StepKind::Await,
        with_api(&t.pool_path(pool), api::AKS),
        format!("read pool {pool} when the operation ends"),
    )
    .repeated("while it is Scaling or Updating, when Azure gives no operation URL")
    .only_if(super::UNLESS_FINAL)
}

/// Add one node label to a pool, from the pool as listed (`listed`, read with the
/// api-version `api`, which the PUT is sent with too): the PUT of its writable fields with the
/// label, under its eTag, then the wait. Only `nodeLabels` changes.
pub fn label_pool(
    t: Target<'_>,
    pool: &str,
    listed: &AsRead<AgentPool>,
    (key, value): (&str, &str),
    api: &str,
) -> Plan {
    let mut body = cluster::writable_pool(listed);
    for k in ["id", "name", "type"] {
        if let Some(m) = body.as_object_mut() {
            m.remove(k);
        }
    }
    if let Some(p) = body.get_mut("properties").and_then(Value::as_object_mut) {
        let labels = p.entry("nodeLabels").or_insert_with(|| json!({}));
        if let Some(l) = labels.as_object_mut() {
            l.insert(key.to_owned(), json!(value));
        }
    }
    let url = with_api(&t.pool_path(pool), api);
    let write = put(
        StepKind::UpdatePool,
        url.clone(),
        body,
        etag(listed),
        format!("label pool {pool} {key}={value} (only nodeLabels change)"),
    );
    let wait = Step::read(StepKind::Await, url, format!("read pool {pool} when the operation ends"))
        .repeated("while it is Updating, when Azure gives no operation URL")
        .only_if(super::UNLESS_FINAL);
    Plan { steps: vec![write, wait] }
}

/// `cluster stop|start`: read the power state, then POST stop or start.
pub fn power(t: Target<'_>, start: bool) -> Plan {
    let (verb, want) = if start { ("start", "Running") } else { ("stop", "Stopped") };
    Plan {
        steps: vec![
            read_cluster(t, format!("read the power state (nothing is sent when it is already {want})")),
            Step::write(
                StepKind::PowerCluster,
                "POST",
                format!("{}/{verb}?api-version={}", t.cluster_path(), api::AKS),
                None,
                format!("{verb} cluster {}", t.cluster),
            )
            .then_follows(Follow::Operation),
            await_cluster(t, &format!("until its powerState reads {want}")),
        ],
    }
}

/// `cost-analysis enable` for the cluster as read (its JSON sent back: fields this tool does not
/// know round-trip). `Err` names why it is refused.
pub fn cost_analysis(t: Target<'_>, current: &AsRead<ManagedCluster>) -> Result<Plan, cluster::ChangeRefused> {
    let body = cluster::enable_cost_analysis(current)?;
    Ok(Plan {
        steps: vec![
            read_cluster(t, "read the cluster (its tier must be Standard or Premium)"),
            put(
                StepKind::UpdateCluster,
                t.cluster_url(),
                body,
                etag(current),
                "enable metricsProfile.costAnalysis (nothing else changes)".into(),
            ),
            await_cluster(t, "while it is Updating, when Azure gives no operation URL").only_if(super::UNLESS_FINAL),
        ],
    })
}

/// `kaito enable` for the cluster as read (its JSON sent back: fields this tool does not know
/// round-trip).
pub fn kaito(t: Target<'_>, current: &AsRead<ManagedCluster>) -> Plan {
    Plan {
        steps: vec![
            read_cluster(t, "read the cluster"),
            put(
                StepKind::UpdateCluster,
                t.cluster_url(),
                cluster::enable_kaito(current),
                etag(current),
                "enable aiToolchainOperatorProfile and oidcIssuerProfile (nothing else changes)".into(),
            ),
            await_cluster(t, "while it is Updating, when Azure gives no operation URL").only_if(super::UNLESS_FINAL),
        ],
    }
}

/// `pool scale` for the pool as read. `Err` names why it is refused.
pub fn scale(
    t: Target<'_>,
    pool: &str,
    current: &AsRead<AgentPool>,
    how: Scale,
) -> Result<Plan, cluster::ChangeRefused> {
    let stand_in = is_stand_in(current);
    let mut body = if stand_in {
        // Its counts are read at run time: the autoscaler is off and the count unknown here.
        cluster::set_counts(current, how, false, None)?
    } else {
        cluster::scale_pool(current, how)?
    };
    if matches!(how, Scale::Autoscale { .. }) && stand_in {
        // A stand-in: the real count is the one read, kept within the bounds.
        if let Some(p) = body.get_mut("properties").and_then(Value::as_object_mut) {
            p.insert("count".into(), json!(read_at_run_time("current node count, kept within min..max")));
        }
    }
    let read = read_pool(t, pool);
    let write = put(
        StepKind::UpdatePool,
        read.url.clone(),
        body,
        etag(current),
        format!("scale pool {pool} (only the counts change)"),
    );
    Ok(Plan { steps: vec![read, write, await_pool(t, pool)] })
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Target<'static> = Target { subscription: "sub", resource_group: "rg", cluster: "c" };

    #[test]
    fn dry_run_plans_show_placeholders_for_what_is_read() {
        let p = kaito(T, &cluster_stand_in());
        let put = p.step(StepKind::UpdateCluster).expect("a PUT");
        assert_eq!(put.headers["If-Match"], "<read at run time: cluster eTag>");
        let body = put.body.as_ref().expect("a body");
        assert_eq!(body["properties"]["aiToolchainOperatorProfile"]["enabled"], true);
        assert_eq!(body["location"], "<read at run time: cluster location>");
        assert!(body.get("eTag").is_none(), "the eTag is read-only: {body}");
        // The stand-in's tier is a placeholder, not Free: the dry run shows the PUT.
        let p = cost_analysis(T, &cluster_stand_in()).expect("a stand-in is not refused as Free");
        let put = p.step(StepKind::UpdateCluster).expect("a PUT");
        assert_eq!(put.headers["If-Match"], "<read at run time: cluster eTag>");
        let body = put.body.as_ref().expect("a body");
        assert_eq!(body["sku"]["tier"], "<read at run time: cluster tier>");
        assert_eq!(body["properties"]["metricsProfile"]["costAnalysis"]["enabled"], true);

        let p = scale(T, "gpu", &pool_stand_in(), Scale::Autoscale { min: 1, max: 3 }).expect("plan");
        let put = p.step(StepKind::UpdatePool).expect("a PUT");
        assert_eq!(put.headers["If-Match"], "<read at run time: pool eTag>");
        let props = &put.body.as_ref().expect("a body")["properties"];
        assert_eq!((props["minCount"].as_u64(), props["maxCount"].as_u64()), (Some(1), Some(3)));
        assert!(props["count"].as_str().is_some_and(|c| c.starts_with("<read at run time")), "{props}");

        let p = power(T, false);
        assert_eq!(p.step(StepKind::PowerCluster).map(|s| s.method), Some("POST"));
        assert!(p
            .step(StepKind::PowerCluster)
            .is_some_and(|s| s.url.starts_with(&format!("{}/stop?", T.cluster_path()))));
    }

    #[test]
    fn real_plans_use_what_was_read() {
        let read = |v: Value| AsRead::<ManagedCluster>::parse(v, "cluster").expect("a cluster");
        let cluster = json!({"location": "westeurope", "eTag": "e1", "sku": {"tier": "Standard"}, "properties": {}});
        let p = cost_analysis(T, &read(cluster)).expect("plan");
        assert_eq!(p.step(StepKind::UpdateCluster).map(|s| s.headers["If-Match"].as_str()), Some("e1"));
        let free = json!({"sku": {"tier": "Free"}, "properties": {}});
        assert!(cost_analysis(T, &read(free)).is_err());
        let pool = AsRead::parse(json!({"properties": {"count": 2}}), "agent pool").expect("a pool");
        let p = scale(T, "gpu", &pool, Scale::Count(3)).expect("plan");
        let put = p.step(StepKind::UpdatePool).expect("a PUT");
        assert!(put.headers.is_empty(), "no eTag read, no If-Match");
        assert_eq!(put.body.as_ref().map(|b| b["properties"]["count"].clone()), Some(json!(3)));
    }
}
