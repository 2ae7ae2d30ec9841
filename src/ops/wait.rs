//! `wait`: resume waiting for a pool by polling its `provisioningState` (one GET per poll,
//! the plan's await step), until a terminal state or the deadline.

use std::time::Instant;

use serde_json::Value;

use crate::arm::lro::{self, Operation};
use crate::arm::ArmClient;
use crate::error::Error;
use crate::provision::Progress;

pub use crate::plan::agent_pool::check_pool_name;

/// Which pool to wait for, and how long.
#[derive(Debug, Clone)]
pub struct WaitRequest {
    pub subscription: String,
    pub resource_group: String,
    pub cluster: String,
    pub pool: String,
    pub timeout: std::time::Duration,
    /// The command that resumes waiting (shown when interrupted or timed out).
    pub resume: String,
}

/// The pool as the wait left it.
#[derive(Debug, Clone)]
pub struct WaitedPool {
    /// The pool's resource id as Azure sent it.
    pub id: Value,
    pub provisioning_state: String,
}

/// Poll the pool until it settles; `progress` records it as accepted (so Ctrl-C says the
/// operation continues in Azure).
pub async fn wait_pool(
    client: &ArmClient,
    req: &WaitRequest,
    progress: &Progress,
    report: super::Report<'_>,
) -> Result<WaitedPool, Error> {
    let path = crate::plan::pool_path(&req.subscription, &req.resource_group, &req.cluster, &req.pool);
    let target = crate::plan::cluster_ops::Target {
        subscription: &req.subscription,
        resource_group: &req.resource_group,
        cluster: &req.cluster,
    };
    let started = Instant::now();
    let op = Operation {
        what: format!("pool {} in cluster {}", req.pool, req.cluster),
        resource: crate::provision::wire::request(&crate::plan::cluster_ops::await_pool(target, &req.pool), None)?,
        resume: (&req.resume).into(),
        deadline: started + req.timeout,
        started,
    };
    progress.accepted(&path, &req.resume);
    let pool = lro::wait_resource(client, &op, report).await?;
    let refused = |e: crate::resources::MissingField| Error::refused(e.to_string(), None);
    let pool: crate::resources::AgentPool = crate::resources::parse(&pool, "agent pool").map_err(refused)?;
    // The state Azure sent, never assumed: a pool without one is an error naming the field.
    let state =
        crate::resources::required(&pool.properties.provisioning_state, &pool.label(), "properties.provisioningState")
            .map_err(refused)?;
    Ok(WaitedPool { id: pool.id.map_or(Value::Null, Value::String), provisioning_state: state })
}
