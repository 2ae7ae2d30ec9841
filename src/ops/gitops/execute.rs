//! Running the changes in dependency order: features, then pools (independent pools at
//! once), then the GPU Operator, then KAITO. A failure stops the later stages; every resource
//! gets a row saying what was done and what was not, so a second `apply` resumes.
//!
//! Ctrl-C stays truthful with several writes: each operation records its writes in its own
//! `Progress` (so one pool's refused PUT cannot erase another's accepted one), and the
//! `Progress` Ctrl-C reads says, from the first stage that changes something on, that changes
//! may have been accepted and that `apply -f FILE` (which reads the state first) resumes.

use std::time::Instant;

use futures_util::future::join_all;

use serde::Serialize;

use super::super::{Cred, Report};
use crate::arm::ArmClient;
use crate::catalog::Catalog;
use crate::error::Error;
use crate::plan::gitops::{Action, Change, Desired, Live};
use crate::provision::cluster_ops::ClusterChange as OpsOutcome;
use crate::provision::facts::Store;
use crate::provision::features::Registration as FeatureOutcome;
use crate::provision::kaito::KaitoEnable as KaitoOutcome;
use crate::provision::pool::CreateOutcome;
use crate::provision::Progress;

/// What `apply` runs against: the validated file, the catalog, the client and credential for
/// its cluster, and the file's name (for resume hints).
pub struct Apply<'a> {
    pub catalog: &'a Catalog,
    pub desired: &'a Desired,
    pub client: &'a ArmClient,
    /// The run's facts: the live state and every pool's preflight share one read of each.
    pub facts: &'a Store,
    pub cred: Option<&'a Cred>,
    pub file: &'a str,
    /// Hears how each feature registration went.
    pub on_feature: crate::ops::feature::OnFeature<'a>,
    /// `--skip-preflight`: no quota check of the pools together, no preflight per pool (Azure
    /// decides).
    pub skip_preflight: bool,
}

/// One resource's row in `apply`'s result.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub kind: &'static str,
    pub name: String,
    pub action: Action,
    /// What became of the change.
    pub result: RowResult,
    pub detail: String,
}

/// What became of one change of `apply`, as its RESULT column and JSON `result` say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum RowResult {
    #[serde(rename = "done")]
    Done,
    #[serde(rename = "unchanged")]
    Unchanged,
    #[serde(rename = "failed")]
    Failed,
    #[serde(rename = "not run")]
    NotRun,
}

impl RowResult {
    /// The word shown.
    pub fn word(self) -> &'static str {
        match self {
            RowResult::Done => "done",
            RowResult::Unchanged => "unchanged",
            RowResult::Failed => "failed",
            RowResult::NotRun => "not run",
        }
    }
}

impl Row {
    /// The row for change `c`.
    pub fn of(c: &Change, result: RowResult, detail: impl Into<String>) -> Row {
        Row { kind: c.kind, name: c.name.clone(), action: c.action, result, detail: detail.into() }
    }
}

/// What every step of one `apply` shares: the file and client, the deadline and the progress
/// line.
struct Run<'a> {
    l: &'a Apply<'a>,
    deadline: Instant,
    report: Report<'a>,
}

impl Run<'_> {
    /// The time left before the deadline.
    fn left(&self) -> std::time::Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }
}

/// Run every change; returns the rows and the first failure.
pub async fn execute(
    l: &Apply<'_>,
    (live, changes): (&Live, &[Change]),
    deadline: Instant,
    report: Report<'_>,
    progress: &Progress,
) -> (Vec<Row>, Option<Error>) {
    let resume = format!("aksgpu apply -f {} (it reads the state first)", l.file);
    let mut rows = Vec::new();
    let mut failed: Option<Error> = None;
    for kind in ["feature", "pool", "operator", "kaito"] {
        let stage: Vec<&Change> = changes.iter().filter(|c| c.kind == kind).collect();
        if let Some(e) = &failed {
            let why = format!("not run: an earlier stage failed ({})", first_line(e));
            rows.extend(stage.iter().map(|c| Row::of(c, RowResult::NotRun, why.clone())));
            continue;
        }
        let changing: Vec<&str> =
            stage.iter().filter(|c| c.action != Action::NoChange).map(|c| c.name.as_str()).collect();
        // Each operation has its own progress; the first write it sends marks this one, so a
        // Ctrl-C during the stage's reads (create-pool's preflight) says nothing was changed.
        let what = format!("{kind} {} in cluster {}", changing.join(", "), l.desired.cluster);
        let own = || progress.child(&what, &resume);
        if kind == "pool" && !l.skip_preflight {
            // Before the first PUT: the pools to create must fit the vCPU quota together.
            if let Err(e) = super::quota::check((l.client, l.facts), l.desired, (live, changes)).await {
                rows.extend(stage.iter().map(|c| not_run(c, &e)));
                failed = Some(e);
                continue;
            }
        }
        // Each change's progress lines name it (`pool infer: Creating (2 min 10 s)`): pools run
        // concurrently, and one log must tell their lines apart.
        let names: Vec<String> = stage.iter().map(|c| format!("{} {}", c.kind, c.name)).collect();
        let named: Vec<_> = names.iter().map(|n| move |s: &str| report(&format!("{n}: {s}"))).collect();
        let runs: Vec<Run<'_>> = named.iter().map(|r| Run { l, deadline, report: r }).collect();
        let results: Vec<Result<Row, Error>> = match kind {
            "feature" => {
                let mut out = Vec::new();
                for (c, run) in stage.iter().copied().zip(&runs) {
                    out.push(feature(run, c, &own()).await);
                }
                out
            }
            "pool" => {
                let own: Vec<Progress> = stage.iter().map(|_| own()).collect();
                join_all(stage.iter().zip(&own).zip(&runs).map(|((c, mine), run)| pool(run, live, c, mine))).await
            }
            _ => {
                let mut out = Vec::new();
                for (c, run) in stage.iter().copied().zip(&runs) {
                    out.push(cluster_level(run, c, &own()).await);
                }
                out
            }
        };
        if !changing.is_empty() {
            // What this stage changed is read again by the next (the operator sees new pools).
            let d = &l.desired;
            l.facts.changed(&crate::plan::cluster_path(&d.subscription, &d.resource_group, &d.cluster));
        }
        for (c, r) in stage.iter().zip(results) {
            match r {
                Ok(row) => rows.push(row),
                Err(e) => {
                    rows.push(Row::of(c, RowResult::Failed, first_line(&e)));
                    failed.get_or_insert(e);
                }
            }
        }
    }
    (rows, failed)
}

/// A pool's row when the stage was refused before it started.
fn not_run(c: &Change, e: &Error) -> Row {
    match c.action {
        Action::NoChange => Row::of(c, RowResult::Unchanged, c.detail.clone()),
        _ => Row::of(c, RowResult::NotRun, format!("not run: {}", first_line(e))),
    }
}

fn first_line(e: &Error) -> String {
    e.to_string().lines().next().unwrap_or_default().to_owned()
}

async fn feature(run: &Run<'_>, c: &Change, progress: &Progress) -> Result<Row, Error> {
    if c.action == Action::NoChange {
        return Ok(Row::of(c, RowResult::Unchanged, c.detail.clone()));
    }
    let l = run.l;
    let out =
        super::register(l.client, (l.desired, &c.name), run.deadline, l.on_feature, (run.report, progress)).await?;
    Ok(match out {
        FeatureOutcome::Registered { .. } => Row::of(c, RowResult::Done, "registered; the provider was refreshed"),
        FeatureOutcome::AlreadyRegistered => Row::of(c, RowResult::Unchanged, "already Registered"),
        FeatureOutcome::NotFound if crate::plan::features::went_ga(crate::plan::features::NAMESPACE, &c.name) => {
            Row::of(c, RowResult::Unchanged, crate::plan::features::NO_LONGER_PREVIEW)
        }
        FeatureOutcome::NotFound => {
            return Err(crate::ops::feature::not_found(crate::plan::features::NAMESPACE, &c.name))
        }
        FeatureOutcome::Pending => {
            return Err(Error::Refused {
                message: format!("{} is Pending: Microsoft has to approve it", c.name).into(),
                hint: None,
            })
        }
    })
}

async fn pool(run: &Run<'_>, live: &Live, c: &Change, progress: &Progress) -> Result<Row, Error> {
    let (l, report) = (run.l, run.report);
    let Some(spec) = l.desired.pools.iter().find(|s| s.name == c.name) else {
        return Ok(Row::of(c, RowResult::NotRun, "not in the file"));
    };
    match (c.action, c.scale) {
        (Action::Scale, Some(how)) => {
            match super::scale_pool(l.client, spec, how, run.left(), report, progress).await? {
                OpsOutcome::Unchanged(m) => Ok(Row::of(c, RowResult::Unchanged, m)),
                OpsOutcome::Done(_) | OpsOutcome::DryRun(_) => {
                    Ok(Row::of(c, RowResult::Done, format!("scaled: {}", c.detail)))
                }
            }
        }
        // Create, or wait for the pool's running operation (create-pool's preflight waits for
        // it, reads again, and then finds the pool as in the file, to create, or refused).
        (Action::Create | Action::Wait, _) => {
            let location = super::cluster_location(&live.cluster);
            let fallbacks = l.desired.fallbacks.get(&spec.name).map_or(&[][..], Vec::as_slice);
            let out = super::create_pool(
                (l.client, l.facts),
                l.catalog,
                spec,
                location,
                (false, l.skip_preflight),
                run.left(),
                fallbacks,
                report,
                progress,
            )
            .await?;
            Ok(match out {
                CreateOutcome::Created { pool, .. } => Row::of(
                    c,
                    RowResult::Done,
                    format!(
                        "created ({})",
                        crate::arm::lro::provisioning_state(&pool).as_deref().unwrap_or("state not returned")
                    ),
                ),
                CreateOutcome::Unchanged { .. } => Row::of(c, RowResult::Unchanged, "already as in the file"),
                CreateOutcome::Accepted { pool_path } => Row::of(c, RowResult::Done, format!("accepted: {pool_path}")),
                CreateOutcome::DryRun { .. } => Row::of(c, RowResult::NotRun, "dry run"),
            })
        }
        _ => Ok(Row::of(c, RowResult::Unchanged, c.detail.clone())),
    }
}

async fn cluster_level(run: &Run<'_>, c: &Change, progress: &Progress) -> Result<Row, Error> {
    let (l, report) = (run.l, run.report);
    if c.action == Action::NoChange {
        return Ok(Row::of(c, RowResult::Unchanged, c.detail.clone()));
    }
    if c.kind == "operator" {
        let (Some(o), Some(cred)) = (&l.desired.operator, l.cred) else {
            return Ok(Row::of(c, RowResult::NotRun, "no credentials for runCommand"));
        };
        let r =
            super::install_operator((l.client, l.facts), cred, l.catalog, l.desired, o, run.left(), report, progress)
                .await?;
        return Ok(Row::of(
            c,
            RowResult::Done,
            format!("installed; {} GPU node(s) report allocatable GPUs", r.gpu_nodes.len()),
        ));
    }
    Ok(match super::enable_kaito(l.client, l.desired, run.left(), report, progress).await? {
        KaitoOutcome::AlreadyEnabled => Row::of(c, RowResult::Unchanged, "already enabled"),
        KaitoOutcome::Enabled(_) => Row::of(c, RowResult::Done, "KAITO and the OIDC issuer enabled"),
        KaitoOutcome::DryRun(_) => Row::of(c, RowResult::NotRun, "dry run"),
    })
}
