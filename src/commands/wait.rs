//! `aksgpu wait`: resume waiting for a pool by polling its `provisioningState`.

use std::time::Instant;

use serde_json::json;

use crate::arm::lro::{self, Operation};
use crate::cli::WaitArgs;
use crate::commands::azure;
use crate::commands::Ctx;
use crate::error::Error;
use crate::output::{emit, Shown};
use crate::plan::agent_pool::check_pool_name;
use crate::plan::pool_path;
use crate::provision::Progress;
use crate::resources::{self, AgentPool};

/// `aksgpu wait`
pub fn run(ctx: &Ctx, a: &WaitArgs) -> anyhow::Result<()> {
    check_pool_name(&a.at.name).map_err(|e| Error::usage(format!("{}: {}", e.field.flag(), e.message), e.hint))?;
    let az = azure::connect(&a.at.arm)?;
    let (sub, _) = az.subscription.map_err(Error::from)?;
    let path = pool_path(&sub, &a.at.target.resource_group, &a.at.target.cluster, &a.at.name);
    let target = crate::plan::cluster_ops::Target {
        subscription: &sub,
        resource_group: &a.at.target.resource_group,
        cluster: &a.at.target.cluster,
    };
    let resume = format!(
        "aksgpu wait --subscription {sub} -g {} --cluster {} --name {}",
        a.at.target.resource_group, a.at.target.cluster, a.at.name
    );
    let started = Instant::now();
    let op = Operation {
        what: format!("pool {} in cluster {}", a.at.name, a.at.target.cluster),
        resource: crate::provision::wire::request(&crate::plan::cluster_ops::await_pool(target, &a.at.name), None)
            .map_err(Error::from)?,
        resume: resume.clone(),
        deadline: started + a.at.arm.timeout,
        started,
    };
    let progress = Progress::default();
    progress.accepted(&path, &resume);
    let client = az.client;
    let result = azure::run_with_spinner(&ctx.printer, &progress, None, async |report| {
        lro::wait_resource(&client, &op, &report).await.map_err(Error::from)
    });
    let pool: AgentPool = resources::parse(&result?, "agent pool").map_err(refused)?;
    // The state Azure sent, never assumed: a pool without one is an error naming the field.
    let state = resources::required(&pool.properties.provisioning_state, &pool.label(), "properties.provisioningState")
        .map_err(refused)?;
    let shown = Shown::new(
        format!("pool {} in cluster {}: {state}", a.at.name, a.at.target.cluster),
        json!({"pool_id": pool.id, "provisioning_state": state}),
    );
    emit(&ctx.printer, a.output, &shown)?;
    Ok(())
}

fn refused(e: resources::MissingField) -> Error {
    Error::Refused { message: e.to_string(), hint: None }
}
