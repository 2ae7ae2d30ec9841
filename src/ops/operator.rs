//! The `install-operator` workflow (also run by `create-pool --install-operator` and `apply`):
//! read the cluster and its pools, decide the Helm values, mint a `clusterToken` when the
//! cluster uses Entra ID, then install and validate the NVIDIA GPU Operator over runCommand.

use std::time::{Duration, Instant};

use crate::arm::{ArmClient, ArmError};
use crate::catalog::Catalog;
use crate::domain::setting::Words;
use crate::error::Error;
use crate::plan::Plan;
use crate::provision::facts::Store;
use crate::provision::operator::{self, InstallError, Report as Installed};
use crate::provision::Progress;

use super::{Cred, Report};

pub use crate::provision::operator::{Install, InstallRequest, Report as InstallReport};

/// Install the operator for `req`; the whole run (reads, token, install, validation) within
/// `timeout`.
pub async fn install(
    (client, facts): (&ArmClient, &Store),
    cred: &Cred,
    catalog: &Catalog,
    req: &InstallRequest,
    timeout: Duration,
    (report, started): (Report<'_>, &Progress),
) -> Result<Installed, Error> {
    let deadline = Instant::now() + timeout;
    let (cluster, pools) = operator::read(client, facts, req).await?;
    let install = operator::resolve(catalog, req, &cluster, &pools)
        .map_err(|r| Error::Refused { message: r.message, hint: r.hint })?;
    let token = match install.needs_cluster_token {
        Some(true) => Some(crate::arm::auth::cluster_token(cred.method, &cred.source, deadline).await?),
        _ => None,
    };
    let left = deadline.saturating_duration_since(Instant::now());
    let plan = operator::plan(req, &install);
    Ok(operator::run(client, (&install, &plan), token.as_ref(), left, report, started).await?)
}

/// A dry run with credentials: the cluster and its pools are read (GETs only, as a real run
/// reads them), and the plan is the one a real run sends.
pub async fn dry_run_read(
    (client, facts): (&ArmClient, &Store),
    catalog: &Catalog,
    req: &InstallRequest,
) -> Result<(Install, Plan), Error> {
    let (cluster, pools) = operator::read(client, facts, req).await?;
    let install = operator::resolve(catalog, req, &cluster, &pools)
        .map_err(|r| Error::Refused { message: r.message, hint: r.hint })?;
    let plan = operator::plan(req, &install);
    Ok((install, plan))
}

/// What a dry run read of the release (`install-operator --dry-run --read-release`): the
/// release, the change in its values, and the values the install would send.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ReleaseView {
    pub release: String,
    pub values_diff: Vec<String>,
    pub values_yaml: String,
    /// The `helm upgrade --install` the run would send on this release (its merged values).
    #[serde(skip)]
    pub install_step: crate::plan::Step,
}

/// Read the GPU Operator's release with the plan's read-only runCommand (no token: a cluster
/// that needs one is not read, and the reason is the answer) and merge `install` on top of it.
pub async fn read_release(
    client: &ArmClient,
    install: &Install,
    plan: &Plan,
    timeout: Duration,
) -> Result<ReleaseView, Error> {
    if install.needs_cluster_token == Some(true) {
        return Err(Error::Refused {
            message:
                "the cluster uses Entra ID: reading its release needs a cluster token, which a dry run does not mint"
                    .into(),
            hint: Some(
                "dry-run without reading the release, or make the run itself (it reads the release first and prints the change before it upgrades)"
                    .into(),
            ),
        });
    }
    read_release_with(client, (install, plan), None, Instant::now() + timeout).await
}

/// The release read (the plan's `ReadRelease` runCommand, with `token` on an Entra ID
/// cluster), and the install merged on top of what it holds.
async fn read_release_with(
    client: &ArmClient,
    (install, plan): (&Install, &Plan),
    token: Option<&crate::arm::auth::Secret>,
    deadline: Instant,
) -> Result<ReleaseView, Error> {
    use crate::plan::gitops::release::{self, Release};
    let step = plan
        .steps_of(crate::plan::StepKind::ReadRelease)
        .next()
        .ok_or_else(|| Error::internal("the install plan has no release read"))?;
    let (quiet, reads) = (|_: &str| {}, crate::provision::Progress::default());
    let r = crate::provision::runcommand::run(client, (&install.cluster_path, step), token, deadline, &quiet, &reads)
        .await?;
    if !r.ok() {
        return Err(Error::Refused {
            message: format!(
                "the GPU Operator's Helm release could not be read (the read ended with {})",
                r.describe()
            )
            .into(),
            hint: None,
        });
    }
    let (name, current) = match release::parse(&r.logs) {
        Release::Absent => ("absent".to_owned(), serde_json::Value::Null),
        Release::Present { chart, status, values } => (format!("{chart} ({status})"), values),
        Release::Unread(why) => {
            return Err(Error::Refused {
                message: format!("the GPU Operator's Helm release could not be read ({why})").into(),
                hint: None,
            })
        }
    };
    if let Some(r) = crate::plan::install::others_refusal(install, &current) {
        return Err(Error::Refused { message: r.message, hint: r.hint });
    }
    let (merged, values_diff) = crate::plan::install::merge(install, &current);
    let install_step = crate::plan::install::install_step(&merged);
    Ok(ReleaseView { release: name, values_diff, values_yaml: merged.values_yaml, install_step })
}

/// `plan` with its `helm upgrade --install` replaced by the one `view` says the run sends on
/// the release as read (its values merged with the release's own).
pub fn with_release(plan: &mut Plan, view: &ReleaseView) {
    for s in plan.steps.iter_mut().filter(|s| s.kind == crate::plan::StepKind::InstallOperator) {
        *s = view.install_step.clone();
    }
}

/// What `install-operator` shows before it asks on a terminal: the install resolved from the
/// cluster and its pools (their reads go through `facts`, which the install then reuses), and
/// the release as read with what the install changes in its values. On an Entra ID cluster
/// the read needs a cluster token, minted here as the run mints it.
pub async fn preview(
    (client, facts): (&ArmClient, &Store),
    cred: &Cred,
    catalog: &Catalog,
    req: &InstallRequest,
    timeout: Duration,
) -> Result<ReleaseView, Error> {
    let (install, plan) = dry_run_read((client, facts), catalog, req).await?;
    read_release_as_run(client, cred, (&install, &plan), timeout).await
}

/// The release read a real run makes for `install` (a cluster token minted on an Entra ID
/// cluster), and the install merged on top of it: what is shown before a question.
pub async fn read_release_as_run(
    client: &ArmClient,
    cred: &Cred,
    (install, plan): (&Install, &Plan),
    timeout: Duration,
) -> Result<ReleaseView, Error> {
    let deadline = Instant::now() + timeout;
    let token = match install.needs_cluster_token {
        Some(true) => Some(crate::arm::auth::cluster_token(cred.method, &cred.source, deadline).await?),
        _ => None,
    };
    read_release_with(client, (install, plan), token.as_ref(), deadline).await
}

/// The MIG strategy the GPU Operator's release runs with (`mig.strategy`), for `manifest` on
/// a MIG pool: the cluster is read (runCommand allowed? Entra ID?), then the release check's
/// read-only runCommand. Anything that keeps it from being read is the answer's reason.
pub async fn release_mig(
    (client, facts): (&ArmClient, &Store),
    cred: &Cred,
    (sub, rg, cluster): (&str, &str, &str),
    timeout: Duration,
) -> crate::plan::manifest::ReleaseMig {
    use crate::plan::manifest::ReleaseMig;
    let deadline = Instant::now() + timeout;
    let c = match facts.cluster(client, sub, rg, cluster).await {
        Ok(c) => c,
        Err(e) => return ReleaseMig::Unread(format!("the cluster could not be read ({e})")),
    };
    let typed = c.item.properties;
    if typed.api_server_access_profile.and_then(|a| a.disable_run_command) == Some(true) {
        return ReleaseMig::Unread("runCommand is disabled on the cluster, so its release cannot be read".into());
    }
    let needs_token = typed.aad_profile.and_then(|a| a.managed) == Some(true);
    let token = match needs_token {
        true => match crate::arm::auth::cluster_token(cred.method, &cred.source, deadline).await {
            Ok(t) => Some(t),
            Err(e) => return ReleaseMig::Unread(format!("no cluster token for the release read ({e})")),
        },
        false => None,
    };
    let path = crate::plan::cluster_path(sub, rg, cluster);
    let command = crate::plan::gitops::release::check_command();
    let why = "read the GPU Operator's Helm release for its MIG strategy (changes nothing)";
    let step = crate::plan::runcommand::command_step(&path, &command, Some(needs_token), why);
    let (quiet, reads) = (|_: &str| {}, crate::provision::Progress::default());
    match crate::provision::runcommand::run(client, (&path, &step), token.as_ref(), deadline, &quiet, &reads).await {
        Ok(r) if r.ok() => crate::plan::manifest::release_mig(&r.logs),
        Ok(r) => ReleaseMig::Unread(format!("the release read ended with {}", r.describe())),
        Err(e) => ReleaseMig::Unread(format!("the release could not be read ({e})")),
    }
}

/// A dry run from the request alone: nothing is read or sent, and what would be read is a
/// placeholder (its note worded by `word`, the front end's words for settings).
pub fn dry_run(req: &InstallRequest, word: impl Fn(&Words) -> String) -> (Install, Plan) {
    let install = operator::from_flags(req, word);
    let plan = operator::plan(req, &install);
    (install, plan)
}

impl From<InstallError> for Error {
    fn from(e: InstallError) -> Self {
        match e {
            InstallError::Arm(a) => Error::from(a),
            InstallError::Refused(r) => Error::Refused { message: r.message, hint: r.hint },
            InstallError::Command { what, result } => {
                let logs: String = result
                    .logs
                    .lines()
                    .rev()
                    .take(40)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect::<Vec<_>>()
                    .join("\n");
                Error::Refused {
                    message: format!(
                        "{what} failed in the cluster ({}){}\n--- command output (last 40 lines) ---\n{logs}",
                        result.describe(),
                        result.reason.map(|r| format!(": {r}")).unwrap_or_default()
                    )
                    .into(),
                    hint: Some("fix the cause above and run again; `helm upgrade --install` is safe to repeat".into()),
                }
            }
            InstallError::NotReady { waited, missing } => Error::from(ArmError::TimedOut {
                what: format!("the GPU Operator to become ready ({})", missing.join("; ")),
                elapsed: waited,
                resume: "run `aksgpu install-operator` again to re-check (it is idempotent)".into(),
            }),
        }
    }
}
