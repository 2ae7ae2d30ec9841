//! `aksgpu cluster stop|start`, and the dry-run-or-run wiring the cluster actions share
//! (`cost-analysis enable`, `pool scale`).

use serde_json::{json, Value};

use crate::cli::{ArmArgs, ClusterPowerArgs, ClusterTarget, Format};
use crate::commands::session::{self as azure, base_url, subscription, Progress};
use crate::commands::{confirm, Ctx};
use crate::error::Error;
use crate::ops::cluster::{ClusterAction, ClusterChange, ClusterRequest};
use crate::output::{emit, Printer, Shown};

pub(crate) fn print_ops(
    p: &Printer,
    format: Format,
    base: &str,
    o: ClusterChange,
    done: impl Fn(&Value) -> String,
) -> Result<(), Error> {
    let status = match o {
        ClusterChange::Unchanged(msg) => {
            Shown::new(format!("{msg}: nothing to do"), json!({"status": "unchanged", "message": msg}))
        }
        ClusterChange::DryRun(plan) => {
            return crate::commands::dry_run::render_plan(
                p,
                format,
                base,
                &plan,
                "Dry run: no change is made.",
                json!({}),
            )
        }
        ClusterChange::Done(v) => Shown::new(done(&v), json!({"status": "done", "resource": v})),
    };
    Ok(emit(p, format, &status)?)
}

/// The cluster the flags name, in `subscription`, as the typed request of `ops::cluster`.
pub(crate) fn request(subscription: String, t: &ClusterTarget, arm: &ArmArgs) -> ClusterRequest {
    ClusterRequest {
        subscription,
        resource_group: t.resource_group.clone(),
        cluster: t.cluster.clone(),
        timeout: arm.timeout,
    }
}

/// Run `action` on the cluster the flags name: a dry run from the flags alone, else read and
/// write with a spinner.
pub(crate) fn run_action(
    ctx: &Ctx,
    arm: &ArmArgs,
    t: &ClusterTarget,
    dry: bool,
    action: &ClusterAction,
) -> Result<ClusterChange, Error> {
    if dry {
        // With credentials the real run's reads are made (GETs only) and the plan is built
        // from them; without, from the flags, with what would be read as placeholders.
        return azure::dry_run_reads(
            &ctx.printer,
            arm,
            async |client, sub| {
                crate::ops::cluster::dry_run_read(client, &request(sub.to_owned(), t, arm), action).await
            },
            |sub| crate::ops::cluster::dry_run(&request(sub.to_owned(), t, arm), action),
        );
    }
    let az = azure::connect(arm)?;
    let req = request(subscription(&az)?, t, arm);
    let (client, progress) = (az.client, Progress::default());
    azure::run_with_spinner(&ctx.printer, &progress, None, async |report| {
        crate::ops::cluster::run(&client, &req, action, (&report, &progress)).await
    })
}

/// `aksgpu cluster stop|start`
pub fn power(ctx: &Ctx, a: &ClusterPowerArgs, start: bool) -> anyhow::Result<()> {
    let verb = if start { "start" } else { "stop" };
    let question = format!(
        "{} cluster {} (resource group {})?",
        if start { "Start" } else { "Stop" },
        a.target.cluster,
        a.target.resource_group
    );
    confirm::write(ctx, &format!("cluster {verb}"), a.write.yes, a.write.dry_run, &question)?;
    let r = run_action(ctx, &a.arm, &a.target, a.write.dry_run, &ClusterAction::Power { start })?;
    print_ops(&ctx.printer, a.write.output, &base_url(&a.arm), r, |v| {
        // The state Azure returned, never the one asked for.
        let state =
            crate::ops::cluster::power_state(v).unwrap_or_else(|| "of a power state Azure did not return".to_owned());
        format!("cluster {} is {state}", a.target.cluster)
    })?;
    Ok(())
}
