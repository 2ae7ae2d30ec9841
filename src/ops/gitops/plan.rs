//! What `diff` and an `apply` dry run compute: the live state compared with the file, and the
//! steps `apply` would send, in the order it runs them (features, pools, operator, KAITO).

use std::time::{Duration, Instant};

use serde_json::json;

use crate::arm::ArmClient;
use crate::catalog::Catalog;
use crate::cost::{PlanPricing, PoolPricing};
use crate::error::Error;
use crate::plan::gitops::{diff as gdiff, Action, Change, Desired, Live};
use crate::plan::{Plan, PoolSpec};
use crate::provision::facts::Store;
use crate::provision::pool::CreateOutcome;
use crate::provision::Progress;

use super::super::Cred;

/// Read the live state and compare. `check_release`: read the operator's release through a
/// runCommand (a POST: only `apply` itself does).
pub async fn read_and_diff(
    at: (&ArmClient, &Store),
    (catalog, d): (&Catalog, &Desired),
    cred: Option<&Cred>,
    deadline: Instant,
    check_release: bool,
) -> Result<(Live, Vec<Change>), Error> {
    let mut live = super::read_live(at.0, at.1, d).await?;
    if let Some(o) = &d.operator {
        live.operator_note = super::operator_note(catalog, d, o, &live);
        let state = super::operator_state(at.0, cred, catalog, d, o, &live, deadline, check_release);
        let (state, release) = state.await;
        (live.operator, live.operator_release) = (Some(state), release);
    }
    let changes = gdiff::diff(d, &live);
    Ok((live, changes))
}

/// The steps `apply` would send for `changes`, from the live state (a pool to create runs
/// `create-pool --dry-run`: its preflight reads run and must pass, and the pools to create
/// must fit the vCPU quota together), unless `skip_preflight`.
pub async fn dry_run_steps(
    at: (&ArmClient, &Store),
    (catalog, d): (&Catalog, &Desired),
    (live, changes): (&Live, &[Change]),
    (timeout, skip_preflight): (Duration, bool),
    progress: &Progress,
) -> Result<Plan, Error> {
    let location = super::cluster_location(&live.cluster);
    if !skip_preflight {
        super::quota::check(at, d, (live, changes)).await?;
    }
    // In the order apply runs them: features, pools, operator, KAITO.
    let mut stages: [Plan; 4] = Default::default();
    for c in changes
        .iter()
        .filter(|c| matches!(c.action, Action::Create | Action::Scale | Action::NotChecked | Action::Wait))
    {
        let stage = ["feature", "pool", "operator"].iter().position(|k| *k == c.kind).unwrap_or(3);
        let out = &mut stages[stage].steps;
        match c.kind {
            "feature" => out.extend(super::feature_plan(d, &c.name).steps),
            "pool" => {
                let Some(spec) = d.pools.iter().find(|s| s.name == c.name) else { continue };
                match c.scale {
                    Some(how) => {
                        let current = crate::resources::find_named(&live.pools, &spec.name);
                        let current = current.cloned().unwrap_or_else(crate::plan::cluster_ops::pool_stand_in);
                        out.extend(super::scale_plan(spec, &current, how)?.steps)
                    }
                    None => {
                        let how = (location.clone(), timeout, skip_preflight);
                        out.extend(create_steps(at, catalog, spec, how, progress).await?.steps)
                    }
                }
            }
            "operator" => {
                if let Some(o) = &d.operator {
                    let release = live.operator_release.as_ref().map(|r| &r.1);
                    let steps = super::operator_plan(catalog, d, o, (&live.cluster, &live.pools), release)?.steps;
                    // Not checked (a dry run sends no POST): the real run's check decides.
                    let when = (c.action == Action::NotChecked).then_some(crate::plan::gitops::release::INSTALL_WHEN);
                    out.extend(steps.into_iter().map(|s| match when {
                        Some(w) => s.only_if(w),
                        None => s,
                    }));
                }
            }
            _ => out.extend(super::kaito_plan(d, &live.cluster).steps),
        }
    }
    Ok(staged(live_and_check(catalog, d, &live.cluster, &live.pools), stages))
}

/// The reads that compare the file with Azure, then (when the file asks for the operator) the
/// release check, which `apply` sends before anything else.
fn live_and_check(
    catalog: &Catalog,
    d: &Desired,
    cluster: &crate::resources::ManagedCluster,
    pools: &[crate::resources::AsRead<crate::resources::AgentPool>],
) -> Plan {
    let mut plan = super::live_reads(d);
    plan.steps.extend(super::release_check(catalog, d, cluster, pools));
    plan
}

/// One plan: the reads that compare the file with Azure (`live`), then the stages' steps.
/// Within a stage each read is listed once (the stage's operations share the run's facts); the
/// first stage that changes anything shares the live reads too, and a later stage reads again
/// what an earlier one changed.
fn staged(live: Plan, mut stages: [Plan; 4]) -> Plan {
    let Some(first) = stages.iter_mut().find(|s| !s.steps.is_empty()) else { return live };
    first.steps.splice(0..0, live.steps);
    let mut plan = Plan::default();
    for mut stage in stages {
        stage.dedup_reads();
        plan.steps.extend(stage.steps);
    }
    plan
}

/// The file's pools, as the cost module prices them.
pub fn pool_pricing(d: &Desired) -> Vec<PoolPricing<'_>> {
    d.pools.iter().map(crate::ops::pool::pricing).collect()
}

/// The file's pools priced in the cluster's region (read from `live`).
pub fn plan_pricing(catalog: &Catalog, d: &Desired, live: Option<&Live>) -> PlanPricing {
    let region = live.and_then(|v| super::cluster_location(&v.cluster));
    PlanPricing::new(catalog, &pool_pricing(d), region.as_deref())
        .region_unknown_because("Azure did not send the cluster's location")
}

/// Without credentials: every resource as if created, placeholders for what would be read.
pub fn offline_plan(catalog: &Catalog, d: &Desired) -> Result<Plan, Error> {
    let mut stages: [Plan; 4] = Default::default();
    for f in &d.features {
        stages[0].steps.extend(super::feature_plan(d, f).steps);
    }
    for spec in &d.pools {
        stages[1].steps.extend(super::pool_plan(spec, None).steps);
    }
    if let Some(o) = &d.operator {
        let steps = super::operator_plan(catalog, d, o, (&Default::default(), &[]), None)?.steps;
        stages[2].steps.extend(steps.into_iter().map(|s| s.only_if(crate::plan::gitops::release::INSTALL_WHEN)));
    }
    if d.kaito == Some(true) {
        let unread = crate::resources::AsRead { item: Default::default(), json: json!({}) };
        stages[3].steps.extend(super::kaito_plan(d, &unread).steps);
    }
    Ok(staged(live_and_check(catalog, d, &Default::default(), &[]), stages))
}

/// `create-pool --dry-run` for one pool: the preflight reads run and must pass.
async fn create_steps(
    at: (&ArmClient, &Store),
    catalog: &Catalog,
    spec: &PoolSpec,
    (location, timeout, skip): (Option<String>, Duration, bool),
    progress: &Progress,
) -> Result<Plan, Error> {
    let out = super::create_pool(at, catalog, spec, location, (true, skip), timeout, &[], &|_| {}, progress).await?;
    Ok(match out {
        CreateOutcome::DryRun { plan, .. } => plan,
        _ => Plan::default(),
    })
}
