//! `aksgpu wait`: resume waiting for a pool by polling its `provisioningState`.

use serde_json::json;

use crate::cli::WaitArgs;
use crate::commands::session as azure;
use crate::commands::Ctx;
use crate::error::Error;
use crate::ops::session::Progress;
use crate::ops::wait::{check_pool_name, WaitRequest};
use crate::output::{emit, Shown};

/// `aksgpu wait`
pub fn run(ctx: &Ctx, a: &WaitArgs) -> anyhow::Result<()> {
    check_pool_name(&a.at.name).map_err(Error::from)?;
    let az = azure::connect(&a.at.arm)?;
    let (sub, _) = az.subscription.map_err(Error::from)?;
    let resume = format!(
        "aksgpu wait --subscription {sub} -g {} --cluster {} --name {}",
        a.at.target.resource_group, a.at.target.cluster, a.at.name
    );
    let req = WaitRequest {
        subscription: sub,
        resource_group: a.at.target.resource_group.clone(),
        cluster: a.at.target.cluster.clone(),
        pool: a.at.name.clone(),
        timeout: a.at.arm.timeout,
        resume,
    };
    let progress = Progress::default();
    let client = az.client;
    let pool = azure::run_with_spinner(&ctx.printer, &progress, None, async |report| {
        crate::ops::wait::wait_pool(&client, &req, &progress, &report).await
    })?;
    let state = &pool.provisioning_state;
    let shown = Shown::new(
        format!("pool {} in cluster {}: {state}", a.at.name, a.at.target.cluster),
        json!({"pool_id": pool.id, "provisioning_state": state}),
    );
    emit(&ctx.printer, a.output, &shown)?;
    Ok(())
}
