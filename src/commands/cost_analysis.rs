//! `aksgpu cost-analysis enable`: turn on AKS cost analysis for a cluster.

use crate::cli::ClusterPowerArgs;
use crate::commands::cluster::{print_ops, run_action};
use crate::commands::session::base_url;
use crate::commands::{confirm, Ctx};
use crate::ops::cluster::ClusterAction;

/// `aksgpu cost-analysis enable`
pub fn enable(ctx: &Ctx, a: &ClusterPowerArgs) -> anyhow::Result<()> {
    let question =
        format!("Enable cost analysis on cluster {} (resource group {})?", a.target.cluster, a.target.resource_group);
    confirm::write(ctx, "cost-analysis enable", a.write.yes, a.write.dry_run, &question)?;
    let r = run_action(ctx, &a.arm, &a.target, a.write.dry_run, &ClusterAction::CostAnalysis)?;
    print_ops(&ctx.printer, a.write.output, &base_url(&a.arm), r, |_| {
        format!("cost analysis enabled on {}", a.target.cluster)
    })?;
    Ok(())
}
